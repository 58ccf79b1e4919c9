/*
 * sassy.c: the text-along-the-word host engine (sassy.h, sassy_body.h).
 * One 64-bit word holds 64 text bytes of one DP row; the rows of a block
 * are computed until none of its cells can be within k, so its cost per
 * block is the number of rows needed, about k + a few on prose, instead of
 * the pattern's length (the lanes engine of simd.c pays every pattern row
 * for every byte, but steps 16 to 32 lanes at once).  On English text it
 * wins only where the pattern's bytes are rare (bench/RESULTS-simd.md, "Text
 * along the word"): hm_scan picks it by a timed probe (hostmatch.c).
 *
 * Variants differ only in how a row's match mask is made from the block:
 * AVX-512BW (one compare into a mask register), AVX2 (two compares and
 * movemasks), generic (SSE2 on x86-64, a byte loop elsewhere); chosen at
 * run time by what cpu.c allows.  A pattern byte stands for up to 4
 * text bytes (-i folds case into PEq: 2); a pattern with a wider class is
 * declined (sassy_scan_pattern returns 0).
 *
 * The table pmin is filled once, by the first call (pthread_once), and only
 * read after: every call is independent and thread-safe.  (A constructor
 * filled it before main: 0.45 ms of every run's start-up, sassy or not.)
 */
#include <stddef.h>
#include <stdint.h>
#include <pthread.h>
#include <string.h>

#include "cpu.h"
#include "sassy.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define SA_X86 1
#include <immintrin.h>
#endif

/* A pattern in row form: for row i + 1, the bytes equal to p[i]. */
struct sa_pat {
	size_t n;
	unsigned char ncls[SASSY_MAXLEN];
	unsigned char cls[SASSY_MAXLEN][4];
};

/* pmin[P | N << 8]: the least prefix sum of the 8 deltas of a byte pair
 * (bit t of P: +1, of N: -1; disjoint), over prefixes of 1..8 deltas. */
static int8_t pmin[65536];

static pthread_once_t pmin_once = PTHREAD_ONCE_INIT;

static void
sa_init(void)
{
	for (unsigned x = 0; x < 65536; x++) {
		unsigned P = x & 255, N = x >> 8;
		int s = 0, m = 127;
		for (int t = 0; t < 8; t++) {
			s += (int)(P >> t & 1) - (int)(N >> t & 1);
			if (s < m)
				m = s;
		}
		pmin[x] = (int8_t)m;
	}
}

/* Whether base + some prefix sum of the deltas (P: +1, N: -1) of a
 * segment of cnt >= 1 cells is <= k, 8 deltas at a time by the table pmin;
 * past the last nonzero delta the cells all hold the final sum, so the
 * loop ends there. */
static inline int
sa_seg_le(uint64_t P, uint64_t N, long s, long k)
{
	while ((P | N) != 0) {
		unsigned pb = (unsigned)P & 255, nb = (unsigned)N & 255;
		if (s + pmin[pb | nb << 8] <= k)
			return 1;
		s += __builtin_popcount(pb) - __builtin_popcount(nb);
		P >>= 8;
		N >>= 8;
	}
	return s <= k;
}

/*
 * Whether some cell of row r is <= k: the row's cells are base + the
 * prefix sums of its deltas (P: +1, N: -1), restarting at r after each
 * terminator column (bit of E; the terminator's own cell is r).  Exact
 * (the hit test uses it too).  A cheap test first: every cell is at least
 * min(base, r) - popcount(N); then segment by segment between terminators.
 */
static inline int
sa_any_le(uint64_t P, uint64_t N, uint64_t E, long base, long r, long k)
{
	if ((base < r ? base : r) - __builtin_popcountll(N) > k)
		return 0;
	if (E == 0)
		return sa_seg_le(P, N, base, k);
	if (r <= k)
		return 1;		/* the terminator's own cell */
	for (;;) {
		int e = __builtin_ctzll(E);
		uint64_t below = ((uint64_t)1 << e) - 1;
		if (e > 0 && sa_seg_le(P & below, N & below, base, k))
			return 1;
		if (e == 63)
			return 0;
		P >>= e + 1;
		N >>= e + 1;
		E >>= e + 1;
		base = r;
		if (E == 0)
			return sa_seg_le(P, N, base, k);
	}
}

#ifdef SA_X86
#define SA_NAME		sa_generic
#define SA_ATTR
#define SA_LOAD(p)	const __m128i v0 = _mm_loadu_si128((const __m128i *)(p)), \
			    v1 = _mm_loadu_si128((const __m128i *)(p) + 1), \
			    v2 = _mm_loadu_si128((const __m128i *)(p) + 2), \
			    v3 = _mm_loadu_si128((const __m128i *)(p) + 3)
#define SA_CMP(c)	sa_cmp_sse2(v0, v1, v2, v3, (c))
static inline uint64_t
sa_cmp_sse2(__m128i v0, __m128i v1, __m128i v2, __m128i v3, unsigned char c)
{
	const __m128i b = _mm_set1_epi8((char)c);

	return (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v0, b)) |
	    (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v1, b)) << 16 |
	    (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v2, b)) << 32 |
	    (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v3, b)) << 48;
}
#include "sassy_body.h"

__attribute__((target("avx2"))) static inline uint64_t
sa_cmp_avx2(__m256i v0, __m256i v1, unsigned char c)
{
	const __m256i b = _mm256_set1_epi8((char)c);

	return (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v0, b)) |
	    (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v1, b)) << 32;
}
#define SA_NAME		sa_avx2
#define SA_ATTR		__attribute__((target("avx2")))
#define SA_LOAD(p)	const __m256i v0 = _mm256_loadu_si256((const __m256i *)(p)), \
			    v1 = _mm256_loadu_si256((const __m256i *)(p) + 1)
#define SA_CMP(c)	sa_cmp_avx2(v0, v1, (c))
#include "sassy_body.h"

#define SA_NAME		sa_avx512
#define SA_ATTR		__attribute__((target("avx512f,avx512bw")))
#define SA_LOAD(p)	const __m512i v0 = _mm512_loadu_si512((const void *)(p))
#define SA_CMP(c)	((uint64_t)_mm512_cmpeq_epi8_mask(v0, \
			    _mm512_set1_epi8((char)(c))))
#include "sassy_body.h"
#else
#define SA_NAME		sa_generic
#define SA_ATTR
#define SA_LOAD(p)	const unsigned char *const v0 = (p)
#define SA_CMP(c)	sa_cmp_loop(v0, (c))
static inline uint64_t
sa_cmp_loop(const unsigned char *p, unsigned char c)
{
	uint64_t m = 0;

	for (size_t j = 0; j < 64; j++)
		m |= (uint64_t)(p[j] == c) << j;
	return m;
}
#include "sassy_body.h"
#endif

int
sassy_supported(int variant)
{
	switch (variant) {
	case SASSY_AUTO:
	case SASSY_GENERIC:
		return 1;
#ifdef SA_X86
	case SASSY_AVX2:
		return cpu_has(CPU_AVX2);
	case SASSY_AVX512:
		return cpu_has(CPU_AVX512BW);
#endif
	default:
		return 0;
	}
}

const char *
sassy_name(int variant)
{
	static const char *const names[SASSY_NVARIANTS] = {
		"auto", "generic", "avx2", "avx512"
	};

	return variant >= 0 && variant < SASSY_NVARIANTS ? names[variant] :
	    "?";
}

/*
 * ORs into bitmap bit j when a match of pat with at most k errors ends at
 * text[warm + j], j < len, exactly as hm_scan_scalar (every match end).
 * text[0, warm) only builds state (the scan starts at text[0] as at a
 * record start).  Returns 0, doing nothing, when the engine does not take
 * the pattern: longer than SASSY_MAXLEN, n <= k, or a pattern byte that
 * stands for more than 4 text bytes.  *rows (when not NULL): the pattern
 * rows computed, summed over the blocks of 64 bytes (its cost).
 */
int
sassy_scan_pattern(const struct pattern *pat, long k,
    const unsigned char *text, size_t warm, size_t len, unsigned char eol,
    uint64_t *bitmap, int variant, size_t *rows)
{
	size_t dummy;
	struct sa_pat sp;

	if (pat->len == 0 || pat->len > SASSY_MAXLEN || (long)pat->len <= k ||
	    k < 0)
		return 0;
	pthread_once(&pmin_once, sa_init);
	sp.n = pat->len;
	memset(sp.ncls, 0, sizeof(sp.ncls));
	for (unsigned c = 0; c < 256; c++) {
		uint64_t m = pat->peq[c * pat->nwords];
		for (size_t i = 0; i < sp.n; i++) {
			if (!(m >> i & 1))
				continue;
			if (sp.ncls[i] == 4)
				return 0;
			sp.cls[i][sp.ncls[i]++] = (unsigned char)c;
		}
	}
	for (size_t i = 0; i < sp.n; i++)
		if (sp.ncls[i] == 0) {
			/* matches nothing: a byte that never occurs in a
			 * row mask (the terminator is masked out) */
			sp.cls[i][0] = eol;
			sp.ncls[i] = 1;
		}
	if (rows == NULL)
		rows = &dummy;
	*rows = 0;
	if (len == 0)
		return 1;
	if (variant == SASSY_AUTO || !sassy_supported(variant)) {
		variant = SASSY_GENERIC;
#ifdef SA_X86
		if (sassy_supported(SASSY_AVX512))
			variant = SASSY_AVX512;
		else if (sassy_supported(SASSY_AVX2))
			variant = SASSY_AVX2;
#endif
	}
	switch (variant) {
#ifdef SA_X86
	case SASSY_AVX512:
		*rows = sa_avx512(&sp, k, text, warm, len, eol, bitmap);
		break;
	case SASSY_AVX2:
		*rows = sa_avx2(&sp, k, text, warm, len, eol, bitmap);
		break;
#endif
	default:
		*rows = sa_generic(&sp, k, text, warm, len, eol, bitmap);
	}
	return 1;
}
