/*
 * relanes.c: re_scan of a small automaton on SIMD lanes.
 *
 * The one-word scan of scan.c (re_scan1) waits at each text unit on two
 * or more dependent table lookups: 150-400 MB/s a core whatever the
 * automaton's size.  An automaton of at most 8 positions holds a row of
 * states in one byte, so a vector of bytes holds the rows of 16, 32 or 64
 * scans side by side, one per lane, each over its own part of the range
 * (cut at record starts), and T[D] is two byte shuffles by D's nibbles:
 *
 *   Tf(D) = lo[D & 15] | hi[D >> 4]
 *
 * where lo[v] holds the positions after those of v's bits (positions 1-4)
 * and the first positions (the initial state is in every row: no ^, so a
 * match may start anywhere), hi[v] those after positions 5-8.  The rows'
 * recurrence is re_scan1's with the initial state left out:
 *
 *   R'[0] = Tf(R[0]) & B[c]
 *   R'[j] = (Tf(R[j]) & B[c]) | R[j-1] | Tf(R[j-1]) | R'[j-1] | Tf(R'[j-1])
 *
 * with Tf of each row kept (K + 1 lookups a unit).  The lanes' units are
 * first turned into their B bytes, RL_NB units of each lane at a time,
 * into a buffer of steps (one vector a step): by vectors (a byte
 * transpose, then B by nibble boxes: boxes()) or, when the B table needs
 * more than 8 boxes or there is no x86 vector fill, by a scalar pass
 * (rl_fill).  The record terminator becomes a byte V that no other unit's
 * B is, and where a lane reads V its rows go back to the start rows.
 *
 * An automaton of 9 to 16 positions holds a row in two bytes (W = 2): two
 * vectors a row, positions 9-16 in the second, and each byte of Tf(D) the
 * or of 8 shuffles (by the 4 nibbles of D), the B bytes filled in pairs,
 * the terminator told by the first (V) alone.
 *
 * 2-core AMD EPYC (AVX2), the Bible x64 (275 MB), -j1 -c: [A-Z][a-z]+ of
 * [A-Z][a-z]+ -k2 2.1-2.8 s on re_scan1, 0.23-0.34 s here; a scalar B
 * pass in place of the vector one took 0.57 s; rows of two bytes: the
 * (LORD|Lord)+ God -k2 2.84 -> 0.67 s, -k3 4.07 -> 0.79 s, mercy.*ever
 * -k3 3.56 -> 0.99 s (bench/results/regex.md).
 *
 * Taken: one word of at most 17 states, no assertion, no ^ or $ (hits at
 * units only), k <= 3, no match of the start rows (then every unit is a
 * hit), a range of AGREP_GPU_RE_LANES_MIN bytes or more (default
 * RL_MIN) whose records split into lanes of about equal length; and the
 * instructions: AVX-512BW (64 lanes), AVX2 (32), NEON on aarch64 (16).
 * Else re_scan_lanes returns -1 and scan.c scans as before.  The hits
 * are the same bits as re_scan1's (tests/reexh.c with
 * AGREP_GPU_RE_LANES_MIN=0 at each instruction level).
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../base/cpu.h"
#include "regex.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define RL_X86 1
#include <immintrin.h>
#elif defined(__aarch64__) && defined(__ARM_NEON)
#define RL_NEON 1
#include <arm_neon.h>
#endif

/* The B pass must stay scalar (see simd.c). */
#if !defined(__clang__)
#pragma GCC optimize("no-tree-vectorize")
#endif

#define RL_MAXK		3
#define RL_NB		64	/* steps a fill */
#define RL_MAXL		64	/* lanes */
#define RL_MIN		16384	/* bytes (default of AGREP_GPU_RE_LANES_MIN) */
#define RL_PF		512	/* prefetch distance of a lane */

#define RL_CAT2(a, b)	a##b
#define RL_CAT(a, b)	RL_CAT2(a, b)

/* What the lanes need of an automaton, for a scan with k errors.  A row
 * is W bytes (W = 2: positions 9-16 in its second byte); the arrays of
 * two are by that byte. */
struct rl {
	/* Tf by nibble: tf[o][i][h][v], the positions of byte o after those
	 * of nibble h (0: low) of byte i being v (and the first ones) */
	unsigned char	 tf[2][2][2][16];
	unsigned char	 B[2][256];		/* the positions each unit
						 * reads; the terminator: V
						 * (byte 0), 0 (byte 1) */
	unsigned char	 r0[RL_MAXK + 1][2];	/* start rows */
	unsigned char	 t0[RL_MAXK + 1][2];	/* Tf of them */
	unsigned char	 fin[2], V, eol;
	int		 K, W;
	int		 ci, cd, cs;		/* each kind's cost (weighted:
						 * re_scan_lanes_w), K + 1 for
						 * one never made */
	int		 vfill;			/* B by nibbles (boxes: by re_scan_lanes) */
	unsigned char	 slo[2][16], shi[2][16]; /* the boxes of a unit */
	unsigned char	 plo[2][16], phi[2][16]; /* the positions of boxes */
};

static pthread_once_t once = PTHREAD_ONCE_INIT;
static size_t lanes_min = RL_MIN;

static void
read_min(void)
{
	const char *v = getenv("AGREP_GPU_RE_LANES_MIN");
	char *end;

	if (v != NULL && *v != '\0') {
		unsigned long long n = strtoull(v, &end, 10);
		if (*end == '\0')
			lanes_min = (size_t)n;
	}
}

/*
 * B by nibble lookups, for the vector fills: the units of each B value are
 * covered by boxes, products of a set of high nibbles and a set of low
 * ones (one box for the high nibbles whose low-nibble sets are the same),
 * at most 8 in all.  Then a unit's boxes are X = slo[c & 15] & shi[c >> 4]
 * and its B is plo[X & 15] | phi[X >> 4].  1 if that gives every unit's B
 * (but the terminator's, which the fills make V), 0 if more boxes are
 * needed ([a-z] takes 2: 0x61-0x6f and 0x70-0x7a; -i doubles that).
 */
static int
boxes(const struct re_nfa *a, unsigned char eol, struct rl *r, int w)
{
	unsigned char bv[8];
	uint16_t bl[8], bh[8];
	int n = 0;

	for (unsigned h = 0; h < 16; h++) {
		uint16_t done = 0;
		for (unsigned lo = 0; lo < 16; lo++) {
			unsigned char v = (unsigned char)(a->B[h * 16 + lo] >>
			    (1 + 8 * w));
			uint16_t set = 0;
			int i;
			if (v == 0 || (done >> lo & 1))
				continue;
			for (unsigned x = lo; x < 16; x++)
				if ((unsigned char)(a->B[h * 16 + x] >>
				    (1 + 8 * w)) == v)
					set |= (uint16_t)(1 << x);
			done |= set;
			for (i = 0; i < n && (bv[i] != v || bl[i] != set); i++)
				;
			if (i == n) {
				if (n == 8)
					return 0;
				bv[n] = v;
				bl[n] = set;
				bh[n++] = 0;
			}
			bh[i] |= (uint16_t)(1 << h);
		}
	}
	unsigned char *slo = r->slo[w], *shi = r->shi[w], *plo = r->plo[w],
	    *phi = r->phi[w];
	memset(slo, 0, 16);
	memset(shi, 0, 16);
	memset(plo, 0, 16);
	memset(phi, 0, 16);
	for (int i = 0; i < n; i++)
		for (unsigned x = 0; x < 16; x++) {
			if (bl[i] >> x & 1)
				slo[x] |= (unsigned char)(1 << i);
			if (bh[i] >> x & 1)
				shi[x] |= (unsigned char)(1 << i);
			if (x >> (i & 3) & 1)
				(i < 4 ? plo : phi)[x] |= bv[i];
		}
	for (unsigned c = 0; c < 256; c++) {
		unsigned x = slo[c & 15] & shi[c >> 4];
		if (c != eol && (plo[x & 15] | phi[x >> 4]) != r->B[w][c])
			return 0;
	}
	return 1;
}

/* Tf of a row x (bit p - 1: position p), by r's tables. */
static unsigned
rl_tf(const struct rl *r, unsigned x)
{
	unsigned o = 0;

	for (int ow = 0; ow < r->W; ow++)
		for (int iw = 0; iw < r->W; iw++)
			o |= (unsigned)(r->tf[ow][iw][0][x >> (8 * iw) & 15] |
			    r->tf[ow][iw][1][x >> (8 * iw + 4) & 15]) <<
			    (8 * ow);
	return o;
}

/* The tables of a but the boxes (re_scan_lanes makes them), or -1 if the
 * lanes cannot scan it (see the top); cw: the costs (NULL: 1 each). */
static int
rl_setup(const struct re_nfa *a, const struct re_costs *cw, long k,
    unsigned char eol, struct rl *r)
{
	unsigned char used[256];

	if (a->nw != 1 || a->nstate > 17 || a->nassert > 0 || a->bol ||
	    a->eol || k < 0 || k > RL_MAXK || (a->final[0] & 1))
		return -1;
	memset(r, 0, sizeof(*r));
	r->W = a->nstate > 9 ? 2 : 1;
	/* tf[o][i][h][v]: positions 8 i + 4 h + 1 to 8 i + 4 h + 4 (the
	 * bits of v) lead to those of byte o; the first positions are in
	 * tf[o][0][0][v] for every v */
	const uint64_t first = a->follow[0] >> 1;
	for (int ow = 0; ow < r->W; ow++)
		for (int iw = 0; iw < r->W; iw++)
			for (int h = 0; h < 2; h++)
				for (unsigned v = 0; v < 16; v++) {
					uint64_t x = iw == 0 && h == 0 ?
					    first : 0;
					for (unsigned bit = 0; bit < 4; bit++) {
						size_t st = 8 * (size_t)iw +
						    4 * (size_t)h + bit + 1;
						if ((v >> bit & 1) &&
						    st < a->nstate)
							x |= a->follow[st] >>
							    1;
					}
					r->tf[ow][iw][h][v] = (unsigned char)(
					    x >> (8 * ow));
				}
	memset(used, 0, sizeof(used));
	for (unsigned c = 0; c < 256; c++)
		for (int w = 0; w < r->W; w++) {
			r->B[w][c] = (unsigned char)(a->B[c] >> (1 + 8 * w));
			if (c != eol && w == 0)
				used[r->B[0][c]] = 1;
		}
	unsigned v = 0;
	while (v < 256 && used[v])
		v++;
	if (v == 256)
		return -1;
	r->V = (unsigned char)v;
	r->B[0][eol] = r->V;
	r->B[1][eol] = 0;
	r->K = (int)k;
	r->ci = cw == NULL ? 1 : cw->ins > r->K ? r->K + 1 : cw->ins;
	r->cd = cw == NULL ? 1 : cw->del > r->K ? r->K + 1 : cw->del;
	r->cs = cw == NULL ? 1 : cw->sub > r->K ? r->K + 1 : cw->sub;
	unsigned fin = (unsigned)(a->final[0] >> 1), x[RL_MAXK + 1];
	r->fin[0] = (unsigned char)fin;
	r->fin[1] = (unsigned char)(fin >> 8);
	/* start rows: the positions deletions reach, row j - del on */
	for (int j = 0; j <= r->K; j++) {
		x[j] = j > 0 ? x[j - 1] : 0;
		if (j >= r->cd)
			x[j] |= rl_tf(r, x[j - r->cd]);
		unsigned t = rl_tf(r, x[j]);
		for (int w = 0; w < 2; w++) {
			r->r0[j][w] = (unsigned char)(x[j] >> (8 * w));
			r->t0[j][w] = (unsigned char)(t >> (8 * w));
		}
	}
	if ((x[r->K] & fin) != 0)
		return -1;
	r->eol = eol;
	return 0;
}

/* buf[(t * W + w) * L + l] := byte w of B of unit i0 + t of lane l
 * (text[b[l], b[l + 1])), that of the terminator past its end, for
 * t < nb. */
static inline void
rl_fill(const struct rl *r, const unsigned char *text, const size_t *b,
    int L, const int W, size_t i0, size_t nb, unsigned char *buf)
{
	const size_t S = (size_t)W * (size_t)L;

	for (int l = 0; l < L; l++) {
		size_t p = b[l] + i0, e = b[l + 1], n = 0, t;
		const unsigned char *tp = text + p;
		if (p < e)
			n = e - p < nb ? e - p : nb;
		if (p + RL_PF < e)
			__builtin_prefetch(tp + RL_PF);
		for (int w = 0; w < W; w++) {
			unsigned char *o = buf + (size_t)w * (size_t)L + (size_t)l;
			for (t = 0; t < n; t++)
				o[t * S] = r->B[w][tp[t]];
			for (; t < nb; t++)
				o[t * S] = r->B[w][r->eol];
		}
	}
}

/* The hits of the steps [i0, i0 + nb) of the lanes in m (bit l: lane l;
 * the others had none): bit t of hb[g * L + l], a hit at unit b[l] + i0 +
 * 8 g + t, into the bitmap (bit 0: unit warm). */
static inline void
rl_hits(const size_t *b, int L, uint64_t m, size_t i0, size_t nb,
    size_t warm, const unsigned char *hb, uint64_t *bitmap)
{
	for (; m != 0; m &= m - 1) {
		int l = __builtin_ctzll(m);
		uint64_t w = 0;
		size_t at = b[l] + i0, j;
		for (size_t g = 0; g < (nb + 7) / 8; g++)
			w |= (uint64_t)hb[g * (size_t)L + (size_t)l] << (8 * g);
		if (at < warm) {
			if (warm - at >= 64)
				continue;
			w >>= warm - at;
			at = warm;
		}
		j = at - warm;
		bitmap[j / 64] |= w << (j % 64);
		if (j % 64 != 0 && (w >> (64 - j % 64)) != 0)
			bitmap[j / 64 + 1] |= w >> (64 - j % 64);
	}
}

/* The 16 units of lane l (text[b[l], b[l + 1])) from unit off on: in the
 * text, or in tmp with terminators past the lane's end. */
static inline const unsigned char *
rl_at16(const unsigned char *text, const size_t *b, int l, size_t off,
    unsigned char eol, unsigned char *tmp)
{
	size_t p = b[l] + off, e = b[l + 1];

	if (p + 16 <= e)
		return text + p;
	memset(tmp, eol, 16);
	if (p < e)
		memcpy(tmp, text + p, e - p);
	return tmp;
}

#define RL_LD16(p)	_mm_loadu_si128((const __m128i *)(const void *)(p))
#ifdef RL_X86
typedef unsigned char rl_v32 __attribute__((vector_size(32)));
#define RL_NAME		rl_avx2
#define RL_ATTR		__attribute__((target("avx2")))
#define RL_VB		32
#define RL_T		rl_v32
#define RL_SHUF(t, x)	((rl_v32)_mm256_shuffle_epi8((__m256i)(t), (__m256i)(x)))
#define RL_BLEND(n, r, e) ((rl_v32)_mm256_blendv_epi8((__m256i)(n),	\
			    (__m256i)(r), (__m256i)(e)))
#define RL_LOADX(p)	((rl_v32)_mm256_inserti128_si256(			\
			    _mm256_castsi128_si256(RL_LD16(p[0])),		\
			    RL_LD16(p[1]), 1))
#define RL_UNPLO(x, y)	((rl_v32)_mm256_unpacklo_epi8((__m256i)(x),	\
			    (__m256i)(y)))
#define RL_UNPHI(x, y)	((rl_v32)_mm256_unpackhi_epi8((__m256i)(x),	\
			    (__m256i)(y)))
#define RL_LANES(v)	((uint64_t)(uint32_t)~_mm256_movemask_epi8(	\
			    _mm256_cmpeq_epi8((__m256i)(v), _mm256_setzero_si256())))
#include "relanes_body.h"
#undef RL_T

typedef unsigned char rl_v64 __attribute__((vector_size(64)));
#define RL_NAME		rl_avx512
#define RL_ATTR		__attribute__((target("avx512f,avx512bw")))
#define RL_VB		64
#define RL_T		rl_v64
#define RL_SHUF(t, x)	((rl_v64)_mm512_shuffle_epi8((__m512i)(t), (__m512i)(x)))
#define RL_BLEND(n, r, e) (((n) & ~(e)) | ((r) & (e)))
#define RL_LOADX(p)	((rl_v64)_mm512_inserti32x4(_mm512_inserti32x4(	\
			    _mm512_inserti32x4(_mm512_castsi128_si512(		\
			    RL_LD16(p[0])), RL_LD16(p[1]), 1),		\
			    RL_LD16(p[2]), 2), RL_LD16(p[3]), 3))
#define RL_UNPLO(x, y)	((rl_v64)_mm512_unpacklo_epi8((__m512i)(x),	\
			    (__m512i)(y)))
#define RL_UNPHI(x, y)	((rl_v64)_mm512_unpackhi_epi8((__m512i)(x),	\
			    (__m512i)(y)))
#define RL_LANES(v)	((uint64_t)_mm512_test_epi8_mask((__m512i)(v),	\
			    (__m512i)(v)))
#include "relanes_body.h"
#undef RL_T
#endif

#ifdef RL_NEON
typedef unsigned char rl_v16 __attribute__((vector_size(16)));
static inline uint64_t
rl_neon_lanes(rl_v16 v)
{
	uint64_t m = 0;

	if (vmaxvq_u8((uint8x16_t)v) != 0)
		for (int l = 0; l < 16; l++)
			m |= (uint64_t)(v[l] != 0) << l;
	return m;
}
#define RL_NAME		rl_neon
#define RL_ATTR
#define RL_VB		16
#define RL_T		rl_v16
#define RL_SHUF(t, x)	((rl_v16)vqtbl1q_u8((uint8x16_t)(t), (uint8x16_t)(x)))
#define RL_BLEND(n, r, e) (((n) & ~(e)) | ((r) & (e)))
#define RL_LANES(v)	rl_neon_lanes(v)
#define RL_LOADX(p)	((rl_v16)vld1q_u8(p[0]))
#define RL_UNPLO(x, y)	((rl_v16)vzip1q_u8((uint8x16_t)(x), (uint8x16_t)(y)))
#define RL_UNPHI(x, y)	((rl_v16)vzip2q_u8((uint8x16_t)(x), (uint8x16_t)(y)))
#include "relanes_body.h"
#undef RL_T
#endif

/* The lanes this process has: 64, 32, 16, or 0. */
static int
rl_lanes(void)
{
#ifdef RL_X86
	if (cpu_has(CPU_AVX512BW))
		return 64;
	if (cpu_has(CPU_AVX2))
		return 32;
#endif
#ifdef RL_NEON
	return 16;
#endif
	return 0;
}

/* Whether re_scan_lanes takes a's scans with k errors over long ranges
 * (prefilter.c: then it must leave more text aside to pay): 0 if
 * not, else the bytes of a row (1: up to 8 positions, 2: up to 16). */
int
re_lanes_take(const struct re_nfa *a, long k, unsigned char eol)
{
	return re_lanes_take_w(a, NULL, k, eol);
}

/* re_lanes_take with edit costs cw (NULL: 1 each; re_scan_lanes_w). */
int
re_lanes_take_w(const struct re_nfa *a, const struct re_costs *cw, long k,
    unsigned char eol)
{
	struct rl r;

	return rl_lanes() > 0 && rl_setup(a, cw, k, eol, &r) == 0 ? r.W : 0;
}

int
re_scan_lanes(const struct re_nfa *a, long k, const unsigned char *text,
    size_t from, size_t to, size_t warm, unsigned char eol, uint64_t *bitmap)
{
	return re_scan_lanes_w(a, NULL, k, text, from, to, warm, eol, bitmap);
}

/*
 * re_scan (regex.h) of text[from, to) on lanes, with the costs cw (NULL:
 * 1 each; k the most total cost, weighted.c says how the rows read them),
 * or -1 (nothing done) when the lanes cannot take it: see the top.
 */
int
re_scan_lanes_w(const struct re_nfa *a, const struct re_costs *cw, long k,
    const unsigned char *text, size_t from, size_t to, size_t warm,
    unsigned char eol, uint64_t *bitmap)
{
	void (*scan)(const struct rl *, const unsigned char *, const size_t *,
	    size_t, size_t, uint64_t *) = NULL;
	size_t b[RL_MAXL + 1], nsteps = 0;
	struct rl r;
	int L = 0;

	pthread_once(&once, read_min);
	if (to - from < lanes_min || to <= from)
		return -1;
	switch (L = rl_lanes()) {
#ifdef RL_X86
	case 64: scan = cw ? rl_avx512_w : rl_avx512; break;
	case 32: scan = cw ? rl_avx2_w : rl_avx2; break;
#endif
#ifdef RL_NEON
	case 16: scan = cw ? rl_neon_w : rl_neon; break;
#endif
	default: break;
	}
	if (scan == NULL || rl_setup(a, cw, k, eol, &r) == -1)
		return -1;
	r.vfill = boxes(a, eol, &r, 0) && (r.W == 1 || boxes(a, eol, &r, 1));
	/* lanes of about (to - from) / L bytes, each from a record start */
	b[0] = from;
	for (int l = 1; l < L; l++) {
		size_t t = from + (to - from) / (size_t)L * (size_t)l;
		const unsigned char *p;
		if (t < b[l - 1])
			t = b[l - 1];
		p = t < to ? memchr(text + t, eol, to - t) : NULL;
		b[l] = p != NULL ? (size_t)(p - text) + 1 : to;
	}
	b[L] = to;
	for (int l = 0; l < L; l++)
		if (b[l + 1] - b[l] > nsteps)
			nsteps = b[l + 1] - b[l];
	/* records too long to share out: the lanes would idle */
	if (nsteps > 2 * ((to - from) / (size_t)L) + 1024)
		return -1;
	scan(&r, text, b, nsteps, warm, bitmap);
	return 0;
}
