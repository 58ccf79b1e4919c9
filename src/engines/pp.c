/*
 * pp.c: the pattern-parallel host engine (issue 23).  Many short patterns
 * at a high k (DNA primers: pieces of 4-5 bases, which the pigeonhole
 * filters cannot use) are scanned side by side: each 32-bit SIMD lane runs
 * Myers' algorithm for a different pattern of at most 32 bytes, and every
 * lane reads the same text byte, so the Eq vector of a group of patterns
 * for a byte is one load from a table [byte][group] built from the
 * patterns' PEq tables (-i and UTF-8 symbols come with them).  pp_body.h
 * has the engine; variants as in simd.c: AVX-512 (16 patterns a vector),
 * AVX2 (8), generic GCC vectors (4: SSE2, NEON), the last two over a
 * table of ~Eq (and-not forms).  AVX2 and AVX-512 keep the scores of 4
 * groups in the bytes of one vector, and run a prefix filter first where
 * it pays (pp_body.h: PP_FILT16): the patterns' first 16 bytes in 16-bit
 * lanes, twice the patterns a vector, each pattern whose prefix hits
 * verified by the exact step around the hit in a lane of its own (AVX2,
 * 300 primers of 20-32 bases: 1.9 times the rate at k = 3, 1.5 at 4).
 * The hit bitmap is the one the other engines produce: bit j set
 * when a match of any of the patterns ends at text[warm + j].  No static
 * mutable state.
 */
#include <stdlib.h>
#include <string.h>

#include "pp.h"
#include "simd.h"
#include "../base/util.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define PP_X86 1
#include <immintrin.h>
#endif

/* Text bytes per block: every group's batch walks one block (in L1) before
 * the next block. */
#ifndef PP_BLOCK
#define PP_BLOCK	(16 * 1024)
#endif

/* Groups a batch (pp_body.h: 4 or 8) on AVX2 and AVX-512: 8 independent
 * dependency chains (generic: 4, for 16 SSE or NEON registers); measured
 * 4-6 % faster than 4 on both */
#ifndef PP_NBX86
#define PP_NBX86	8
#endif
#ifndef PP_NBAVX2
#define PP_NBAVX2	4
#endif
/* 16-bit groups a batch of the prefix filter on AVX-512 (4 or 8) */
#ifndef PP_NBF512
#define PP_NBF512	4
#endif

/* Blocks the exact step runs after a block where the prefix filter
 * took longer than it (pp_body.h), doubled at each try that fails */
#ifndef PP_WAIT
#define PP_WAIT		16
#endif
/* While the prefix filter runs, one block in PP_RETIME runs the exact
 * step, timed again */
#ifndef PP_RETIME
#define PP_RETIME	64
#endif

/* A running mean m of n block times t (pp_body.h's choice between the
 * filter and the exact step): the first not counted (the tables' first
 * use), then each the mean of the last and t. */
static inline void
pp_timed(double *m, size_t *n, double t)
{
	if ((*n)++ > 0)
		*m = *m > 0 ? (*m + t) / 2 : t;
}

#define PP_CAT2(a, b)	a##b
#define PP_CAT(a, b)	PP_CAT2(a, b)

/* The prefix filter's verifications of a block (pp_body.h: _cand): each
 * a pattern x over text[from, t), run after the filter's pass unless over
 * (more than cap); a pattern's open window (pf, pt: t 0 when none, its
 * index in open) grows while its hits overlap it. */
struct pp_vq {
	size_t		 n, cap;
	int		 over;
	struct pp_ve {
		size_t	 x, from, t;
	}		*e;
	size_t		*pf, *pt;	/* [G NL] */
	size_t		*open, nopen;	/* patterns with a window open */
	size_t		 np;		/* patterns: lanes past repeat the
					 * last */
};

/* One run of an engine instance (pp_body.h). */
struct pp_run {
	const void	*tab;	/* [256][G] vectors: Eq (~Eq where PP_NEQ) */
	const void	*init;	/* [2][G] vectors: VP, then T, at a reset */
	size_t		 G;	/* groups of patterns (vectors) */
	const unsigned char *text;
	size_t		 warm;	/* hits from text[warm] on */
	size_t		 all;	/* bytes of text, warm-up included */
	unsigned char	 eol;
	uint64_t	*bitmap;
	long		 k;
	size_t		 fresh;	/* a batch starting here starts from the
				 * reset state (0; pp_body.h's switches) */
	/* The prefix filter (AVX2, AVX-512: pp_body.h's PP_FILT16), or tab16
	 * NULL */
	const void	*tab16;	/* [256][G16] vectors of 16-bit lanes: ~Eq
				 * of the patterns' first 16 bytes */
	const void	*init16;	/* [2][G16]: VP, then T, at a reset */
	size_t		 G16;
	const uint32_t	*eqx;	/* [G NL][256]: Eq (~Eq) of pattern x
				 * for byte c at eqx[256 x + c], as tab's
				 * (the verification's gathers) */
	int		 filt;	/* 1 where it is the faster, 2 always, 3
				 * every other block (AGREP_GPU_PP16) */
	struct pp_vq	*vq;
	size_t		 block;	/* PP_BLOCK (AGREP_GPU_PP_BLOCK: tests) */
};

#define PP_NAME		pp_generic
#define PP_ATTR
#define PP_VBYTES	16
#define PP_NEQ		1
#include "pp_body.h"

#ifdef PP_X86
#define PP_NAME		pp_avx2
#define PP_ATTR		__attribute__((target("avx2")))
#define PP_VBYTES	32
/* 4 groups a batch with the packed score: 8 (state and temporaries in
 * more than 16 registers) spills */
#define PP_NBMAX	PP_NBAVX2
#define PP_NEQ		1
/* the score's change in 3 instructions: +1 where HP's top bit is set, -1
 * (blended in by HN's sign) where HN's is */
#define PP_DELTA(hp, hn)	((pp_avx2_v)_mm256_blendv_ps(		\
	(__m256)((hp) >> 31), (__m256)_mm256_set1_epi32(-1), (__m256)(hn)))
#define PP_ANYNEG(v)	(_mm256_movemask_ps((__m256)(v)) != 0)
#define PP_ANDN(a, b)	((pp_avx2_v)_mm256_andnot_si256((__m256i)(a),	\
	(__m256i)(b)))
/* the scores of 4 groups in the signed bytes of one vector: packed with
 * signed saturation (a lane's sign, HP's and HN's top bit, survives;
 * scores of -128 to 127 stay), moved by -1 where HP's top bit is set
 * (vpcmpgtb), blended to +1 where HN's is: 9 instructions for 4 groups,
 * 12 unpacked; the hit test one vpor for 4 groups, not 4 */
#define PP_PACK4	1
#define PP_PACKW(a, b)	((pp_avx2_v)_mm256_packs_epi32((__m256i)(a),	\
	(__m256i)(b)))
#define PP_PACKB(a, b)	((pp_avx2_v)_mm256_packs_epi16((__m256i)(a),	\
	(__m256i)(b)))
#define PP_DELTA8(t, hp, hn)	((pp_avx2_v)_mm256_subs_epi8((__m256i)(t),	\
	_mm256_blendv_epi8(_mm256_cmpgt_epi8(_mm256_setzero_si256(),	\
	(__m256i)(hp)), _mm256_set1_epi8(1), (__m256i)(hn))))
#define PP_ANYNEG8(v)	(_mm256_movemask_epi8((__m256i)(v)) != 0)
#define PP_MOVEMASK8(v)	_mm256_movemask_epi8((__m256i)(v))
#define PP_MASK32(v)	((unsigned)_mm256_movemask_ps((__m256)(v)))
#define PP_FILT16	1
#include "pp_body.h"

/* AVX-512 as AVX2 (packed scores, the prefix filter: 32 patterns a vector
 * of 16-bit lanes) over Eq (vpternlogd: a | ~(b | c) in one); a packed
 * score moved under the masks of HP's and HN's signs (vpmovb2m, masked
 * vpaddsb and vpsubsb: 4 instructions for 4 groups) */
__attribute__((target("avx512f,avx512bw"))) static inline __m512i
pp_avx512_delta8(__m512i t, __m512i hp, __m512i hn)
{
	const __m512i one = _mm512_set1_epi8(1);

	t = _mm512_mask_adds_epi8(t, _mm512_movepi8_mask(hp), t, one);
	return _mm512_mask_subs_epi8(t, _mm512_movepi8_mask(hn), t, one);
}
#define PP_NAME		pp_avx512
#define PP_ATTR		__attribute__((target("avx512f,avx512bw")))
#define PP_VBYTES	64
#define PP_NBMAX	PP_NBX86
#define PP_NBF		PP_NBF512
#define PP_ORNOR(a, b, c)	((pp_avx512_v)_mm512_ternarylogic_epi32(	\
	(__m512i)(a), (__m512i)(b), (__m512i)(c), 0xf1))
#define PP_ANYNEG(v)	(_mm512_test_epi32_mask((__m512i)(v),		\
	_mm512_set1_epi32(INT32_MIN)) != 0)
#define PP_PACK4	1
#define PP_PACKW(a, b)	((pp_avx512_v)_mm512_packs_epi32((__m512i)(a),	\
	(__m512i)(b)))
#define PP_PACKB(a, b)	((pp_avx512_v)_mm512_packs_epi16((__m512i)(a),	\
	(__m512i)(b)))
#define PP_DELTA8(t, hp, hn)	((pp_avx512_v)pp_avx512_delta8((__m512i)(t), \
	(__m512i)(hp), (__m512i)(hn)))
#define PP_MOVEMASK8(v)	_mm512_movepi8_mask((__m512i)(v))
#define PP_MASK32(v)	((unsigned)_mm512_test_epi32_mask((__m512i)(v),	\
	_mm512_set1_epi32(INT32_MIN)))
#define PP_ANYNEG8(v)	(PP_MOVEMASK8(v) != 0)
#define PP_FILT16	1
#include "pp_body.h"

#endif

/* Whether the engine takes the pattern: one word of PEq, 1-32 bytes. */
int
pp_eligible(const struct pattern *pat)
{
	return pat->nwords == 1 && pat->len >= 1 && pat->len <= PP_MAXLEN;
}

/*
 * Fills tab[c][g][l] (Eq of the pattern of lane l of group g for byte c,
 * complemented when neq) and init ([2][G][NL]: VP, then T, at a reset)
 * for the patterns ps->pat[idx[0 .. n)], NL a group; a lane past the last
 * pattern repeats it (its hits are the same).
 */
static void
pp_tables(const struct patset *ps, const size_t *idx, size_t n, size_t NL,
    int neq, uint32_t *tab, uint32_t *init)
{
	const size_t G = (n + NL - 1) / NL;
	const uint32_t flip = neq ? ~(uint32_t)0 : 0;

	for (size_t x = 0; x < G * NL; x++) {
		const struct pattern *pat = &ps->pat[idx[x < n ? x : n - 1]];
		const unsigned s = 32 - (unsigned)pat->len;
		const uint32_t ph = (uint32_t)(((uint64_t)1 << s) - 1);

		for (size_t c = 0; c < 256; c++)
			tab[c * G * NL + x] = ((uint32_t)(pat->peq[c] << s) |
			    ph) ^ flip;
		init[x] = ~ph;
		init[G * NL + x] = (uint32_t)((long)pat->len - ps->k - 1);
	}
}

/*
 * The prefix filter's tables (AVX2 and AVX-512, NL 16-bit lanes a vector:
 * G16 groups): tab[c][h][l], Eq (~Eq where neq) of the first 16 bytes (or
 * all) of the pattern of lane l of group h (pattern NL h + l: the lanes
 * of 32-bit group g, NL / 2 g + l, as pp_tables lays them, are the first
 * or the second half of group g / 2) for byte c, aligned to the lane's top
 * bit over phantom rows; init [2][G16][NL]: VP, then T, at a reset.
 */
static void
pp_tables16(const struct patset *ps, const size_t *idx, size_t n, size_t NL,
    int neq, uint16_t *tab, uint16_t *init)
{
	const size_t G16 = (n + NL - 1) / NL;
	const uint16_t flip = neq ? 0xffff : 0;

	for (size_t x = 0; x < G16 * NL; x++) {
		const struct pattern *pat = &ps->pat[idx[x < n ? x : n - 1]];
		const unsigned L = pat->len < 16 ? (unsigned)pat->len : 16;
		const unsigned s = 16 - L;
		const uint16_t ph = (uint16_t)((1u << s) - 1);
		const uint64_t rows = ((uint64_t)1 << L) - 1;

		for (size_t c = 0; c < 256; c++)
			tab[c * G16 * NL + x] = (uint16_t)((uint16_t)((pat->peq[c] &
			    rows) << s) | ph) ^ flip;
		init[x] = (uint16_t)~ph;
		init[G16 * NL + x] = (uint16_t)(int16_t)((long)L - ps->k - 1 <
		    -32768 ? -32768 : (long)L - ps->k - 1);
	}
}

/* AGREP_GPU_PP16 (tests, benchmarks): 0 the prefix filter off, 1 on
 * whatever it verifies, alt on every other block (the switches' warm-ups);
 * unset, where its blocks take less time than the exact step's.  pp_run's
 * filt: 0, 2, 3, 1. */
static int
pp_filt_env(void)
{
	const char *e = getenv("AGREP_GPU_PP16");

	if (e == NULL || *e == '\0')
		return 1;
	return *e == '0' ? 0 : strcmp(e, "alt") == 0 ? 3 : 2;
}

/* The variant pp_scan runs for variant (simd.h's; SIMD_AUTO: the best the
 * CPU runs). */
static int
pp_variant(int variant)
{
	if (variant != SIMD_AUTO && simd_supported(variant))
		return variant;
#ifdef PP_X86
	if (simd_supported(SIMD_AVX512))
		return SIMD_AVX512;
	if (simd_supported(SIMD_AVX2))
		return SIMD_AVX2;
#endif
	return SIMD_GENERIC;
}

/* The tables of a set of patterns and a variant, kept for the next call
 * with the same ones (ps->ppcache, pp_cache_free). */
struct pp_cache {
	int		 variant;
	size_t		 n;
	size_t		*idx;
	uint32_t	*tab;
};

void
pp_cache_free(struct pp_cache *c)
{
	if (c == NULL)
		return;
	free(c->idx);
	free(c->tab);
	free(c);
}

/* Keeps tab, the tables of patterns idx[0, n) for variant, in a free slot
 * of the two; returns the slot, or -1 when both are taken (tab stays the
 * caller's). */
static int
pp_keep(struct pp_cache **slots, int variant, const size_t *idx, size_t n,
    uint32_t *tab)
{
	struct pp_cache *mine;

	for (int i = 0; i < 2; i++) {
		if (__atomic_load_n(&slots[i], __ATOMIC_ACQUIRE) != NULL)
			continue;
		mine = xcalloc(1, sizeof(*mine));
		*mine = (struct pp_cache){ variant, n,
		    xreallocarray(NULL, n, sizeof(*idx)), tab };
		memcpy(mine->idx, idx, n * sizeof(*idx));
		struct pp_cache *none = NULL;
		if (__atomic_compare_exchange_n(&slots[i], &none, mine, 0,
		    __ATOMIC_RELEASE, __ATOMIC_RELAXED))
			return i;
		mine->tab = NULL;	/* (taken meanwhile) */
		pp_cache_free(mine);
	}
	return -1;
}

/*
 * ORs into bitmap bit j when a match of one of the patterns ps->pat[idx[0
 * .. n)] (all eligible) with at most ps->k errors ends at text[warm + j],
 * j < len; text[0, warm) is warm-up, as for hm_scan.  variant: one of
 * simd.h's (SIMD_AUTO: the best the CPU runs).
 */
void
pp_scan(const struct patset *ps, const size_t *idx, size_t n,
    const unsigned char *text, size_t warm, size_t len, unsigned char eol,
    uint64_t *bitmap, int variant)
{
	if (n == 0 || len == 0)
		return;
	variant = pp_variant(variant);
	const size_t NL = variant == SIMD_AVX512 ? 16 :
	    variant == SIMD_AVX2 ? 8 : 4;
	const size_t G = (n + NL - 1) / NL;
	/* The tables (258 x 4 bytes a pattern: 10 MB for 10,000) are the
	 * first two sets' of the run (the planner's probe tries the rule's
	 * set and every eligible pattern), made once and shared read-only by
	 * every call with the same patterns; another set makes its own for
	 * the call. */
	struct pp_cache **slots = ((struct patset *)ps)->ppcache, *c;
	uint32_t *tab = NULL;
	int own = 0;		/* tab is this call's, to free */

	for (int i = 0; i < 2 && tab == NULL; i++) {
		c = __atomic_load_n(&slots[i], __ATOMIC_ACQUIRE);
		if (c != NULL && c->variant == variant && c->n == n &&
		    memcmp(c->idx, idx, n * sizeof(*idx)) == 0)
			tab = c->tab;
	}
	/* AVX2 and AVX-512: the prefix filter's tables after the others
	 * (16-bit lanes, 2 NL a vector) */
	const size_t NL16 = variant == SIMD_GENERIC ? 0 : 2 * NL;
	const size_t G16 = NL16 > 0 ? (n + NL16 - 1) / NL16 : 0;
	const size_t at16 = ((256 + 2) * G * NL * 4 + 63) / 64 * 64;
	const size_t atx = (at16 + (256 + 2) * G16 * NL16 * 2 + 63) / 64 * 64;
	if (tab == NULL) {
		tab = aligned_alloc(64, atx + (G16 > 0 ? G * NL * 256 * 4 : 0));
		if (tab == NULL)
			fatalx("out of memory");
		pp_tables(ps, idx, n, NL, variant != SIMD_AVX512, tab,
		    tab + 256 * G * NL);
		if (G16 > 0)
			pp_tables16(ps, idx, n, NL16, variant != SIMD_AVX512,
			    (uint16_t *)(void *)((char *)tab + at16),
			    (uint16_t *)(void *)
			    ((char *)tab + at16) + 256 * G16 * NL16);
		/* the verification's: pattern by pattern */
		uint32_t *eqx = (uint32_t *)(void *)((char *)tab + atx);
		for (size_t x = 0; G16 > 0 && x < G * NL; x++)
			for (size_t c = 0; c < 256; c++)
				eqx[256 * x + c] = tab[c * G * NL + x];
		own = pp_keep(slots, variant, idx, n, tab) < 0;
	}
	struct pp_run r = { tab, tab + 256 * G * NL, G, text, warm, warm + len,
	    eol, bitmap, ps->k, 0, NULL, NULL, G16,
	    (const uint32_t *)(const void *)((char *)tab + atx), 0, NULL,
	    PP_BLOCK };
	const char *eb = getenv("AGREP_GPU_PP_BLOCK");
	if (eb != NULL && atol(eb) > 0)
		r.block = (size_t)atol(eb);
	/* the filter where prefixes of 16 bytes can be more than k apart */
	struct pp_vq vq = { 0, (size_t)1 << 16, 0, NULL, NULL, NULL, NULL, 0,
	    n };
	if (G16 > 0 && ps->k < 16 && (r.filt = pp_filt_env()) > 0) {
		r.tab16 = (char *)tab + at16;
		r.init16 = (const uint16_t *)r.tab16 + 256 * G16 * NL16;
		vq.e = xreallocarray(NULL, vq.cap, sizeof(*vq.e));
		vq.pf = xcalloc(3 * G * NL, sizeof(*vq.pf));
		vq.pt = vq.pf + G * NL;
		vq.open = vq.pt + G * NL;
		r.vq = &vq;
	}
	switch (variant) {
#ifdef PP_X86
	case SIMD_AVX512:
		pp_avx512(&r);
		break;
	case SIMD_AVX2:
		pp_avx2(&r);
		break;
#endif
	default:
		pp_generic(&r);
	}
	if (own)
		free(tab);
	free(vq.e);
	free(vq.pf);
}
