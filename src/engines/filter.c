/*
 * filter.c: the pigeonhole filter of the host matcher (issue 10).
 *
 * A match with at most k unit-cost edits of a pattern cut into k + 1
 * disjoint pieces holds at least one piece exactly: each edit touches at
 * most one piece.  So the text is searched for the pieces, exactly (with -i:
 * folding ASCII case), and the records holding an occurrence are proposed
 * to the caller, who runs Myers over them from the record's start
 * (hostmatch.c): the hit bits are exactly those of a full scan.  This
 * module only proposes; it runs no engine.
 *
 * Search: one pass over text[0, warm + len) (the warm-up bytes too, since a
 * match ending in the chunk may begin before it) tests every piece at every
 * position.  Per piece, two of its bytes, the rarest by an English-text
 * frequency table, are compared at their offsets, 32 (AVX2) or 16 (SSE2)
 * positions at a time ("packed pair"); a position where both agree for
 * some piece is compared in full.  The first occurrence in a record makes
 * the record a candidate: it goes on the caller's list, and the search goes
 * on after its terminator (a record is proposed once).  The list is the
 * caller's, of a bounded length: when it is full the search stops, and the
 * next call goes on where it stopped (the state is in struct flt).
 *
 * A piece that holds the terminator cannot lie inside a record: it is
 * dropped.  When the proposed records grow past 1/FLT_DENSITY of the bytes
 * searched (1/FLT_DENSITY_SIMD when the alternative is the SIMD engine),
 * the filter gives up (unless forced): the caller's engines scan the rest.
 * No static mutable state: calls are independent and thread-safe.
 */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../base/cpu.h"
#include "filter.h"
#include "../base/util.h"

/*
 * When the alternative is the AVX-512 VBMI engine (FLT_ALT_FAST, by the
 * caller's simd_fast: 1.5-2.3 GB/s on one core for patterns under 32
 * bytes, Bible x8) or the AVX2 16-bit one (FLT_ALT_FAST too: 2.5-3 GB/s
 * under 16 bytes), the filter pays only
 * with few, long, rare pieces (bench/results/2core-simd.md, 2026-11-23 evening):
 *   FLT_MINPIECE_FAST, FLT_MAXPIECES_FAST: pieces of at least 4 bytes, at
 *     most 3 of them (Jerusalem k=1, pieces of 4-5: 1.4x the engine;
 *     righteousness k=1 and the 31-byte phrase k=2: 1-2x; LORD k=1, pieces
 *     of 2: 0.7x; Jerusalem k=2, 3 pieces of 3: 0.7x; the phrase k=3 and
 *     k=4, 4-5 pieces: 0.9x and 0.6x);
 *   FLT_DENSITY_FAST: it gives up past 1/16 of the bytes verified (LORD
 *     k=1 and righteousness k=3 verify 10 % and ran 0.5-0.8x the engine).
 */
#ifndef FLT_MINPIECE_FAST
#define FLT_MINPIECE_FAST	4
#endif
#ifndef FLT_MAXPIECES_FAST
#define FLT_MAXPIECES_FAST	3
#endif
#ifndef FLT_DENSITY_FAST
#define FLT_DENSITY_FAST	16
#endif
/* The nibble search (search_nibble) from this many pieces on (AVX2) */
#ifndef FLT_NIBBLE_MIN
#define FLT_NIBBLE_MIN	4
#endif

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define FLT_X86 1
#include <immintrin.h>
#endif

/*
 * Rough byte frequencies of English text (per 10,000 bytes); unlisted bytes
 * count as 1.  Here only their order matters: it picks the two bytes of a
 * piece that the search tests first; multi.c multiplies them into a
 * piece's expected frequency when it chooses where to cut patterns.
 */
static const unsigned short freq[256] = {
	['\n'] = 200, ['\t'] = 10, [' '] = 1700,
	['e'] = 1000, ['t'] = 700, ['a'] = 650, ['o'] = 600, ['i'] = 560,
	['n'] = 560, ['s'] = 520, ['h'] = 500, ['r'] = 490, ['d'] = 350,
	['l'] = 330, ['u'] = 230, ['c'] = 220, ['m'] = 200, ['w'] = 190,
	['f'] = 180, ['g'] = 160, ['y'] = 160, ['p'] = 150, ['b'] = 120,
	['v'] = 80, ['k'] = 60, ['x'] = 12, ['j'] = 10, ['q'] = 8, ['z'] = 6,
	['E'] = 20, ['T'] = 60, ['A'] = 40, ['O'] = 15, ['I'] = 50,
	['N'] = 15, ['S'] = 30, ['H'] = 25, ['R'] = 12, ['D'] = 12,
	['L'] = 12, ['U'] = 6, ['C'] = 20, ['M'] = 20, ['W'] = 20,
	['F'] = 10, ['G'] = 10, ['Y'] = 5, ['P'] = 15, ['B'] = 15,
	['V'] = 3, ['K'] = 3, ['X'] = 1, ['J'] = 5, ['Q'] = 1, ['Z'] = 1,
	[','] = 100, ['.'] = 90, ['\''] = 20, ['"'] = 20, ['-'] = 20,
	[';'] = 10, [':'] = 10, ['?'] = 5, ['!'] = 5, ['('] = 5, [')'] = 5,
	['0'] = 20, ['1'] = 20, ['2'] = 15, ['3'] = 12, ['4'] = 10,
	['5'] = 10, ['6'] = 8, ['7'] = 8, ['8'] = 8, ['9'] = 10,
};

unsigned
flt_byte_rank(unsigned char c, int icase)
{
	unsigned f = freq[c] ? freq[c] : 1;

	if (icase && ascii_letter(c)) {
		unsigned char o = c ^ 0x20;
		f += freq[o] ? freq[o] : 1;
	}
	return f;
}

/* Whether the piece occurs at text[pos] (pos + len <= end of text). */
static inline int
piece_at(const struct flt_piece *p, const unsigned char *t, int icase)
{
	if (!icase && p->len >= 8 && p->len <= 16) {
		/* two words that overlap where len < 16: no call */
		uint64_t a, b, c, d;
		memcpy(&a, t, 8);
		memcpy(&b, p->s, 8);
		memcpy(&c, t + p->len - 8, 8);
		memcpy(&d, p->s + p->len - 8, 8);
		return ((a ^ b) | (c ^ d)) == 0;
	}
	if (!icase && p->len >= 4 && p->len < 8) {
		uint32_t a, b, c, d;
		memcpy(&a, t, 4);
		memcpy(&b, p->s, 4);
		memcpy(&c, t + p->len - 4, 4);
		memcpy(&d, p->s + p->len - 4, 4);
		return ((a ^ b) | (c ^ d)) == 0;
	}
	if (!icase)
		return memcmp(t, p->s, p->len) == 0;
	for (size_t i = 0; i < p->len; i++)
		if (ascii_fold(t[i]) != ascii_fold(p->s[i]))
			return 0;
	return 1;
}

/* The caller's list of candidates: w[0, n) of max. */
struct flist {
	struct flt_win *w;
	size_t n, max;
};

/*
 * A candidate at pos (a piece starts there); rs: a record start at or
 * before pos (no terminator is known between them).  Lists its record
 * (unless it ends in the warm-up, where no bit can be set); returns the
 * position after the record's terminator (or the end).
 */
static size_t
candidate(struct flt *f, struct flist *l, size_t rs, size_t pos)
{
	const unsigned char *t = f->text, *e;
	size_t re;

	if (pos > rs && (e = memrchr(t + rs, f->eol, pos - rs)) != NULL)
		rs = (size_t)(e - t) + 1;
	e = memchr(t + pos, f->eol, f->all - pos);
	re = e ? (size_t)(e - t) : f->all;
	if (re > f->warm) {
		f->proposed += re - rs;
		l->w[l->n].from = rs;
		l->w[l->n].to = re;
		l->n++;
	}
	return re + 1;
}

/* Whether some piece occurs at pos (each one must fit before the end). */
static inline int
any_piece(const struct flt *f, size_t pos)
{
	for (size_t j = 0; j < f->npc; j++) {
		const struct flt_piece *p = &f->pc[j];
		if (pos + p->len <= f->all && piece_at(p, f->text + pos,
		    f->icase))
			return 1;
	}
	return 0;
}

/* Whether the filter should give up at pos. */
static inline int
too_dense(const struct flt *f, size_t pos)
{
	return !f->force && f->proposed > pos / f->density + FLT_SLACK;
}

/* Proposes the record of a piece found at c (rs: as candidate's) and
 * moves *rs past it; returns FLT_GAVEUP (*at set) or FLT_MORE (f->pos,
 * f->rs set: the list is full) where the search stops there, else -1. */
static inline int
propose(struct flt *f, struct flist *l, size_t *rs, size_t c, size_t *at)
{
	*rs = candidate(f, l, *rs, c);
	if (too_dense(f, *rs)) {
		*at = *rs;
		return FLT_GAVEUP;
	}
	if (l->n == l->max) {
		f->pos = f->rs = *rs;
		return FLT_MORE;
	}
	return -1;
}

/* Whether the pair tests agree so often without a piece behind them that
 * the engines would be faster (DNA: 2 bytes of 4 letters agree at 1/16 of
 * the positions, for each piece). */
static inline int
too_noisy(const struct flt *f, size_t pos)
{
	return !f->force && f->misses > pos / f->noise + FLT_SLACK;
}

/*
 * The search from f->pos to the end, one position at a time: the tail,
 * and the engine where no vector one exists.  Returns FLT_DONE, FLT_MORE
 * (the list is full; f->pos, f->rs say where to go on) or FLT_GAVEUP
 * (*at: the record start from which the rest is unsearched).
 */
static int
search_scalar(struct flt *f, struct flist *l, size_t *at)
{
	size_t pos = f->pos, rs = f->rs;

	while (pos < f->all) {
		if (any_piece(f, pos)) {
			int r = propose(f, l, &rs, pos, at);
			if (r >= 0)
				return r;
			pos = rs;
		} else
			pos++;
	}
	f->pos = f->rs = f->all;
	return FLT_DONE;
}

#ifdef FLT_X86
/*
 * The vector search, W positions a step while every piece fits in the
 * text; the rest goes to search_scalar.  Instantiated for AVX2 (32) and
 * SSE2 (16).
 */
#define FLT_SEARCH(NAME, ATTR, VT, W, LOAD, SET1, OR, AND, CMPEQ, MOVEMASK) \
ATTR static int								\
NAME(struct flt *f, struct flist *l, size_t *at)			\
{									\
	VT b1[FLT_MAXPIECES], b2[FLT_MAXPIECES];			\
	VT m1[FLT_MAXPIECES], m2[FLT_MAXPIECES];			\
	const unsigned char *t = f->text;				\
	size_t pos = f->pos, rs = f->rs;				\
									\
	for (size_t j = 0; j < f->npc; j++) {				\
		b1[j] = SET1((char)f->pc[j].b1);			\
		b2[j] = SET1((char)f->pc[j].b2);			\
		m1[j] = SET1((char)f->pc[j].m1);			\
		m2[j] = SET1((char)f->pc[j].m2);			\
	}								\
	while (pos + f->maxlen + W - 1 <= f->all) {			\
		uint64_t mask = 0;					\
		for (size_t j = 0; j < f->npc; j++) {			\
			const struct flt_piece *p = &f->pc[j];		\
			VT x = OR(LOAD((const void *)(t + pos + p->i1)),\
			    m1[j]);					\
			VT y = OR(LOAD((const void *)(t + pos + p->i2)),\
			    m2[j]);					\
			mask |= (uint32_t)MOVEMASK(AND(CMPEQ(x, b1[j]),	\
			    CMPEQ(y, b2[j])));				\
		}							\
		size_t next = pos + W;					\
		while (mask) {						\
			size_t c = pos + (size_t)__builtin_ctzll(mask);	\
			if (any_piece(f, c)) {				\
				next = rs = candidate(f, l, rs, c);	\
				if (too_dense(f, next)) {		\
					*at = rs;			\
					return FLT_GAVEUP;		\
				}					\
				break;					\
			}						\
			f->misses++;					\
			mask &= mask - 1;				\
		}							\
		if (too_noisy(f, next)) {				\
			*at = rs;					\
			return FLT_GAVEUP;				\
		}							\
		pos = next;						\
		if (l->n == l->max) {					\
			f->pos = pos;					\
			f->rs = rs;					\
			return FLT_MORE;				\
		}							\
	}								\
	/* The tail: from the last record start known, with no	\
	 * candidate in [rs, pos). */					\
	f->pos = pos;							\
	f->rs = rs;							\
	return search_scalar(f, l, at);					\
}

/*
 * The nibble search (AVX2; Hyperscan's "Teddy" idea): 3 to 8 pieces, each
 * a bucket (a bit of a byte), each known by 3 bytes of its own, the rarest
 * (s[fo, fo + 3)).  Tables per fingerprint byte b: lo[b][x], hi[b][x], the
 * buckets whose byte b has low (high) nibble x (both cases with -i); for
 * 32 text positions P + i at once, the byte
 *   AND over b of lo[b][t[P+i+b] & 15] & hi[b][t[P+i+b] >> 4]
 * holds every bucket whose fingerprint may start there (a superset: the
 * nibbles are tested apart), and its piece may start at P + i - fo.  That
 * is 3 loads, 6 shuffles and some ands a step for all the pieces, where
 * the packed pairs cost 2 loads, 2 compares and more a piece.
 *
 * The pieces' starts lag their fingerprints by up to maxfo bytes, so a
 * start found is proposed only when every start up to it has been tested
 * (fingerprints up to it + maxfo scanned): the records go out in text
 * order, as the packed pairs' do.  lo: no start below it is to be tested
 * (f->pos at the call, then the end of the last record proposed).
 */
__attribute__((target("avx2"))) static int
search_nibble(struct flt *f, struct flist *l, size_t *at)
{
	const unsigned char *t = f->text;
	unsigned char lt[3][32], ht[3][32];
	size_t P = f->pos, rs = f->rs, lo = f->pos, best = SIZE_MAX;
	const size_t maxfo = f->maxfo;

	memset(lt, 0, sizeof(lt));
	memset(ht, 0, sizeof(ht));
	for (size_t j = 0; j < f->npc; j++)
		for (int b = 0; b < 3; b++) {
			unsigned char c = f->pc[j].s[f->pc[j].fo + b];
			for (int v = 0; v < (f->icase && ascii_letter(c) ? 2 : 1);
			    v++) {
				unsigned char x = v ? c ^ 0x20 : c;
				lt[b][x & 15] |= (unsigned char)(1u << j);
				lt[b][16 + (x & 15)] |= (unsigned char)(1u << j);
				ht[b][x >> 4] |= (unsigned char)(1u << j);
				ht[b][16 + (x >> 4)] |= (unsigned char)(1u << j);
			}
		}
	const __m256i L0 = _mm256_loadu_si256((const void *)lt[0]);
	const __m256i L1 = _mm256_loadu_si256((const void *)lt[1]);
	const __m256i L2 = _mm256_loadu_si256((const void *)lt[2]);
	const __m256i H0 = _mm256_loadu_si256((const void *)ht[0]);
	const __m256i H1 = _mm256_loadu_si256((const void *)ht[1]);
	const __m256i H2 = _mm256_loadu_si256((const void *)ht[2]);
	const __m256i nib = _mm256_set1_epi8(15), zero = _mm256_setzero_si256();

	while (P + 34 <= f->all) {
		__m256i v0 = _mm256_loadu_si256((const void *)(t + P));
		__m256i v1 = _mm256_loadu_si256((const void *)(t + P + 1));
		__m256i v2 = _mm256_loadu_si256((const void *)(t + P + 2));
		__m256i m = _mm256_and_si256(
		    _mm256_shuffle_epi8(L0, _mm256_and_si256(v0, nib)),
		    _mm256_shuffle_epi8(H0, _mm256_and_si256(
		    _mm256_srli_epi16(v0, 4), nib)));
		m = _mm256_and_si256(m, _mm256_and_si256(
		    _mm256_shuffle_epi8(L1, _mm256_and_si256(v1, nib)),
		    _mm256_shuffle_epi8(H1, _mm256_and_si256(
		    _mm256_srli_epi16(v1, 4), nib))));
		m = _mm256_and_si256(m, _mm256_and_si256(
		    _mm256_shuffle_epi8(L2, _mm256_and_si256(v2, nib)),
		    _mm256_shuffle_epi8(H2, _mm256_and_si256(
		    _mm256_srli_epi16(v2, 4), nib))));
		uint32_t cand = ~(uint32_t)_mm256_movemask_epi8(
		    _mm256_cmpeq_epi8(m, zero));
		if (cand) {
			unsigned char mb[32];
			_mm256_storeu_si256((void *)mb, m);
			while (cand) {
				size_t i = (size_t)__builtin_ctz(cand);
				unsigned bk = mb[i];
				cand &= cand - 1;
				while (bk) {
					size_t j = (size_t)__builtin_ctz(bk);
					const struct flt_piece *p = &f->pc[j];
					bk &= bk - 1;
					if (P + i < lo + p->fo)
						continue;	/* tested */
					size_t c = P + i - p->fo;
					if (c >= best)
						continue;
					if (c + p->len <= f->all &&
					    piece_at(p, t + c, f->icase))
						best = c;
					else
						f->misses++;
				}
			}
		}
		P += 32;
		if (best != SIZE_MAX && best + maxfo < P) {
			/* every start up to best tested: propose it */
			int r = propose(f, l, &rs, best, at);
			if (r >= 0)
				return r;
			P = lo = rs;
			best = SIZE_MAX;
		}
		if (too_noisy(f, P)) {
			*at = rs;
			return FLT_GAVEUP;
		}
	}
	/* The tail, every piece at every start: from the first start not
	 * tested whole (or the one found, pending). */
	P = P > maxfo ? P - maxfo : 0;
	if (best < P)
		P = best;
	f->pos = P > lo ? P : lo;
	f->rs = rs;
	return search_scalar(f, l, at);
}

FLT_SEARCH(search_avx2, __attribute__((target("avx2"))), __m256i, 32,
    _mm256_loadu_si256, _mm256_set1_epi8, _mm256_or_si256, _mm256_and_si256,
    _mm256_cmpeq_epi8, _mm256_movemask_epi8)
FLT_SEARCH(search_sse2, , __m128i, 16,
    _mm_loadu_si128, _mm_set1_epi8, _mm_or_si128, _mm_and_si128,
    _mm_cmpeq_epi8, _mm_movemask_epi8)
#endif

/*
 * The exact search for one string (hm_exact: k = 0, one pattern; glibc's
 * memmem was a third of a Bible -c search's time): the string's three
 * rarest bytes by the frequency table (distinct values first) are compared
 * at their offsets, 32 (AVX2) or 16 (SSE2) positions a step, and a
 * position where all three agree is compared whole.  Three, not two: on
 * DNA two bytes agree at 1/16 of the positions, three at 1/64.
 */
void
flt_find_init(struct flt_find *x, const unsigned char *s, size_t len)
{
	x->s = s;
	x->len = len;
	x->i[0] = x->i[1] = x->i[2] = 0;
	for (size_t j = 0; j < 3 && j < len; j++) {
		size_t best = SIZE_MAX;
		unsigned best_r = 0;
		for (size_t i = 0; i < len; i++) {
			int taken = 0, same = 0;
			for (size_t q = 0; q < j; q++) {
				taken |= x->i[q] == i;
				same |= s[x->i[q]] == s[i];
			}
			if (taken)
				continue;
			/* (a value already compared counts as common) */
			unsigned r = flt_byte_rank(s[i], 0) + (same ? 60000 : 0);
			if (best == SIZE_MAX || r < best_r) {
				best = i;
				best_r = r;
			}
		}
		x->i[j] = best;
	}
	for (size_t j = len < 3 ? len : 3; j < 3; j++)
		x->i[j] = x->i[0];
}

/* The search from t[pos], one position at a time (memmem). */
static const unsigned char *
find_rest(const struct flt_find *x, const unsigned char *t, size_t n,
    size_t pos)
{
	if (pos >= n)
		return x->len == 0 ? t + n : NULL;
	return memmem(t + pos, n - pos, x->s, x->len);
}

#ifdef FLT_X86
#define FLT_FIND(NAME, ATTR, VT, W, LOAD, SET1, AND, CMPEQ, MOVEMASK)	\
ATTR static const unsigned char *					\
NAME(const struct flt_find *x, const unsigned char *t, size_t n)	\
{									\
	const size_t i0 = x->i[0], i1 = x->i[1], i2 = x->i[2];		\
	size_t top = i0 > i1 ? i0 : i1, pos = 0;			\
	const VT b0 = SET1((char)x->s[i0]), b1 = SET1((char)x->s[i1]);	\
	const VT b2 = SET1((char)x->s[i2]);				\
									\
	top = top > i2 ? top : i2;					\
	while (pos + top + W <= n) {					\
		VT a = CMPEQ(LOAD((const void *)(t + pos + i0)), b0);	\
		VT b = CMPEQ(LOAD((const void *)(t + pos + i1)), b1);	\
		VT c = CMPEQ(LOAD((const void *)(t + pos + i2)), b2);	\
		uint32_t m = (uint32_t)MOVEMASK(AND(AND(a, b), c));	\
		while (m) {						\
			size_t at = pos + (size_t)__builtin_ctz(m);	\
			if (at + x->len > n)				\
				return NULL;				\
			if (memcmp(t + at, x->s, x->len) == 0)		\
				return t + at;				\
			m &= m - 1;					\
		}							\
		pos += W;						\
	}								\
	return find_rest(x, t, n, pos);					\
}

FLT_FIND(find_avx2, __attribute__((target("avx2"))), __m256i, 32,
    _mm256_loadu_si256, _mm256_set1_epi8, _mm256_and_si256,
    _mm256_cmpeq_epi8, _mm256_movemask_epi8)
FLT_FIND(find_sse2, , __m128i, 16, _mm_loadu_si128, _mm_set1_epi8,
    _mm_and_si128, _mm_cmpeq_epi8, _mm_movemask_epi8)
#endif

/* The first occurrence of the string in t[0, n), or NULL. */
const unsigned char *
flt_find(const struct flt_find *x, const unsigned char *t, size_t n)
{
	if (x->len < 2)
		return find_rest(x, t, n, 0);
#ifdef FLT_X86
	if (cpu_has(CPU_AVX2))
		return find_avx2(x, t, n);
	return find_sse2(x, t, n);
#else
	return find_rest(x, t, n, 0);
#endif
}

/* Picks the two rarest bytes of a piece (distinct offsets when it has two). */
static void
pick(struct flt_piece *p, int icase)
{
	size_t i1 = 0, i2 = 0;

	for (size_t i = 1; i < p->len; i++)
		if (flt_byte_rank(p->s[i], icase) <
		    flt_byte_rank(p->s[i1], icase))
			i1 = i;
	if (p->len > 1) {
		i2 = i1 == 0 ? 1 : 0;
		for (size_t i = 0; i < p->len; i++)
			if (i != i1 && (flt_byte_rank(p->s[i], icase) <
			    flt_byte_rank(p->s[i2], icase) ||
			    (p->s[i2] == p->s[i1] && p->s[i] != p->s[i1])))
				i2 = i;
	}
	p->i1 = i1;
	p->i2 = i2;
	p->m1 = icase && ascii_letter(p->s[i1]) ? 0x20 : 0;
	p->m2 = icase && ascii_letter(p->s[i2]) ? 0x20 : 0;
	p->b1 = p->s[i1] | p->m1;
	p->b2 = p->s[i2] | p->m2;
}

/* Bytes of the text at its start that nibble_setup counts 3-grams in */
#ifndef FLT_SAMPLE
#define FLT_SAMPLE	4096
#endif
/* Offsets of a piece whose 3-gram is counted (the first ones) */
#define FLT_SAMPLE_OFFS	64

/* A 3-gram at t as a key (case folded with icase) */
static inline uint32_t
gram3(const unsigned char *t, int icase)
{
	if (icase)
		return (uint32_t)ascii_fold(t[0]) |
		    (uint32_t)ascii_fold(t[1]) << 8 |
		    (uint32_t)ascii_fold(t[2]) << 16;
	return (uint32_t)t[0] | (uint32_t)t[1] << 8 | (uint32_t)t[2] << 16;
}

/* A 4-gram at t as a key (cut_pieces' sample) */
static inline uint64_t
gram4(const unsigned char *t, int icase)
{
	return (uint64_t)gram3(t, icase) |
	    (uint64_t)(icase ? ascii_fold(t[3]) : t[3]) << 24;
}

/*
 * How often each piece's 3-grams occur in the text's first FLT_SAMPLE
 * bytes: cnt[j][o] for piece j's 3-gram at offset o < FLT_SAMPLE_OFFS.
 * The English ranks of single bytes mistake common words for rare ones:
 * over the Bible, " of" (ranked rare by its 'f') is 35,310 of the 42,982
 * fingerprint hits of a 53-byte phrase's 6 pieces; counted in 4 KB of the
 * text, the pieces' rarest 3-grams hit 10,465 times in all.  A table of
 * 2048 keys (at most 8 pieces x 64 offsets, open addressing).
 */
#define GRAM_SLOTS	2048

/* Key k's slot in a table of GRAM_SLOTS keys (open addressing, empty:
 * UINT64_MAX): its own, or an empty one */
static inline size_t
gram_slot(const uint64_t *key, uint64_t k)
{
	size_t h = (size_t)((k * 2654435761u) >> 21) % GRAM_SLOTS;

	while (key[h] != UINT64_MAX && key[h] != k)
		h = (h + 1) % GRAM_SLOTS;
	return h;
}

static void
count_grams(const struct flt *f, unsigned short cnt[][FLT_SAMPLE_OFFS])
{
	enum { NT = GRAM_SLOTS };
	uint64_t key[NT];
	unsigned short n[NT];
	const size_t len = f->all < FLT_SAMPLE ? f->all : FLT_SAMPLE;

	memset(n, 0, sizeof(n));
	for (size_t h = 0; h < NT; h++)
		key[h] = UINT64_MAX;
	for (int pass = 0; pass < 2; pass++) {
		/* pass 0: the keys in; pass 1: their counts out */
		for (size_t j = 0; j < f->npc; j++)
			for (size_t o = 0; o + 3 <= f->pc[j].len &&
			    o < FLT_SAMPLE_OFFS; o++) {
				uint64_t k = gram3(f->pc[j].s + o, f->icase);
				size_t h = gram_slot(key, k);
				if (pass == 0)
					key[h] = k;
				else
					cnt[j][o] = n[h];
			}
		if (pass == 1)
			break;
		for (size_t i = 0; i + 3 <= len; i++) {
			uint64_t k = gram3(f->text + i, f->icase);
			size_t h = gram_slot(key, k);
			if (key[h] == k && n[h] < USHRT_MAX)
				n[h]++;
		}
	}
}

/*
 * The fingerprints chosen (nibble_setup), remembered for the run by the
 * pieces: a search is cut into ranges, each set up by flt_start, and
 * counting the 3-grams of every range's start cost more than a tenth of a
 * 53-byte phrase's -k5 search over the Bible (28 ranges), and a fifth of
 * 100 phrases' search (-k3, the pattern-parallel engine taking those it
 * can, the filter one at a time the rest: a memo of one piece set a
 * thread, as this was, kept none of them).  The choice is made from the
 * first range searched with a fair sample and kept: it moves only the
 * speed, never a match, so the table is shared by the threads without a
 * lock: a slot holds the key (a hash of icase and the pieces) XORed with
 * the packed offsets, and the offsets; a torn pair reads as a miss, and a
 * key's collision costs a worse fingerprint, not a wrong answer.
 */
#define FO_SLOTS	16384
#define FO_PROBE	4
static uint64_t fo_tab[FO_SLOTS][2];

/* The key of f's pieces (never 0) */
static uint64_t
fo_key(const struct flt *f)
{
	uint64_t h = 0xcbf29ce484222325ULL ^ (uint64_t)f->npc << 1 ^
	    (uint64_t)(f->icase != 0);

	for (size_t j = 0; j < f->npc; j++) {
		const struct flt_piece *p = &f->pc[j];
		h = (h ^ p->len) * 0x100000001b3ULL;
		for (size_t i = 0; i < p->len; i++)
			h = (h ^ p->s[i]) * 0x100000001b3ULL;
	}
	return h != 0 ? h : 1;
}

/* Sets each piece's fo from the table where f's pieces are there: 1, else
 * 0. */
static int
fo_recall(struct flt *f)
{
	const uint64_t key = fo_key(f);

	for (size_t i = 0; i < FO_PROBE; i++) {
		uint64_t *e = fo_tab[(key + i) % FO_SLOTS];
		const uint64_t c = __atomic_load_n(&e[0], __ATOMIC_RELAXED);
		const uint64_t v = __atomic_load_n(&e[1], __ATOMIC_RELAXED);
		if (c == 0)
			return 0;
		if ((c ^ v) != key)
			continue;
		for (size_t j = 0; j < f->npc; j++)	/* (a collision) */
			if ((v >> 8 * j & 0xff) + 3 > f->pc[j].len)
				return 0;
		for (size_t j = 0; j < f->npc; j++)
			f->pc[j].fo = (size_t)(v >> 8 * j & 0xff);
		return 1;
	}
	return 0;
}

/* Keeps f's pieces' fo in the table (an empty slot of the key's FO_PROBE,
 * else its first). */
static void
fo_keep(const struct flt *f)
{
	const uint64_t key = fo_key(f);
	uint64_t v = 0;
	uint64_t *e = fo_tab[key % FO_SLOTS];

	for (size_t j = 0; j < f->npc; j++)
		v |= (uint64_t)f->pc[j].fo << 8 * j;
	for (size_t i = 0; i < FO_PROBE; i++) {
		uint64_t *x = fo_tab[(key + i) % FO_SLOTS];
		if (__atomic_load_n(&x[0], __ATOMIC_RELAXED) == 0) {
			e = x;
			break;
		}
	}
	__atomic_store_n(&e[1], v, __ATOMIC_RELAXED);
	__atomic_store_n(&e[0], key ^ v, __ATOMIC_RELAXED);
}

/*
 * Where the pieces are cut.  Evenly at first; but where a range's
 * candidates passed 1/CUT_DENSE of its bytes, the next range the thread
 * searches for the same pattern re-cuts them where its text says they are
 * rare: k + 1 disjoint pieces, not necessarily touching (an edit in a gap
 * touches none), each of n/m - 1 to n/m + 4 bytes (within CUT_MIN to
 * CUT_MAX: pieces of unlike lengths the estimate below does not weigh
 * fairly), chosen by a dynamic program that minimises the sum of each
 * piece's estimated occurrences (the least count among its 4-grams in
 * CUT_SAMPLE bytes sampled across the range).  The Bible, `-c -k5 'and the children of Israel went out with an
 * high hand'`: the even pieces ("f Israel ", "and the c", ...) proposed
 * 6,246 records, 438 KB.  The cut moves only the speed, never a match:
 * any k + 1 disjoint pieces keep the pigeonhole's promise.
 * (AGREP_GPU_FLT_RECUT=1, for the tests: re-cut at every range, whatever
 * the density, and keep the program's cut even where it is no cheaper.)
 */
#define CUT_DENSE	50
#define CUT_MIN		4
#define CUT_MAX		32
#define CUT_SAMPLE	16384
#define CUT_CHUNKS	16
#define CUT_PAT_MAX	256
#define CUT_MAXPC	8

/* The thread's cut for one pattern (by its bytes' address, length, k and
 * -i): the pieces [a[j], b[j]); dense: the last range searched with them
 * proposed more than 1/CUT_DENSE of its bytes. */
struct cut_memo {
	const unsigned char *str;
	size_t len, m;
	int icase;
	size_t a[CUT_MAXPC], b[CUT_MAXPC];
	int cut;		/* a[], b[] hold a cut (else even pieces) */
	int dense;
	int tries;		/* re-cuts tried ... */
	int skip;		/* ... and dense ranges to let by before the
				 * next: 2^tries - 1 (a re-cut pieces still
				 * dense, the Israel phrase's 3.8% of the
				 * Bible's bytes, re-sampled every range: 8%
				 * of the run) */
};
static __thread struct cut_memo cut_memo;

/* Counts in c[q] how often the pattern's 4-gram at q (q + 4 <= n) occurs
 * in a sample of text[from, to): CUT_CHUNKS pieces spread evenly. */
static void
count_grams4(const unsigned char *ps, size_t n, int icase,
    const unsigned char *t, size_t from, size_t to, unsigned *c)
{
	enum { NT = GRAM_SLOTS };
	uint64_t key[NT];
	unsigned cnt[NT];
	size_t h, span = to - from;
	const size_t chunk = CUT_SAMPLE / CUT_CHUNKS;

	memset(cnt, 0, sizeof(cnt));
	for (h = 0; h < NT; h++)
		key[h] = UINT64_MAX;
	for (size_t q = 0; q + 4 <= n; q++) {
		uint64_t k = gram4(ps + q, icase);
		key[gram_slot(key, k)] = k;
	}
	for (size_t i = 0; i < CUT_CHUNKS; i++) {
		size_t a = span <= CUT_SAMPLE ? from + i * span / CUT_CHUNKS :
		    from + i * (span / CUT_CHUNKS);
		size_t e = span <= CUT_SAMPLE ? from + (i + 1) * span /
		    CUT_CHUNKS : a + chunk;
		for (size_t x = a; x + 4 <= e; x++) {
			uint64_t k = gram4(t + x, icase);
			if ((h = gram_slot(key, k)), key[h] == k)
				cnt[h]++;
		}
	}
	for (size_t q = 0; q + 4 <= n; q++)
		c[q] = cnt[gram_slot(key, gram4(ps + q, icase))];
}

/* A piece [a, b)'s estimated occurrences: 1 + its rarest 4-gram's count */
static unsigned
cut_est(const unsigned *c, size_t a, size_t b)
{
	unsigned least = UINT_MAX;

	for (size_t q = a; q + 4 <= b; q++)
		if (c[q] < least)
			least = c[q];
	return least == UINT_MAX ? UINT_MAX / 64 : least + 1;
}

/*
 * The m disjoint pieces of ps[0, n), each of n/m - 1 to n/m + 4 bytes
 * (within CUT_MIN..CUT_MAX), of
 * least summed estimate (c: count_grams4); into a[], b[].  Returns the
 * sum, or ULLONG_MAX when none fits.
 */
static unsigned long long
cut_plan(const unsigned *c, size_t n, size_t m, size_t *a, size_t *b)
{
	const size_t lmin = n / m - 1 > CUT_MIN ? n / m - 1 : CUT_MIN;
	const size_t lmax = n / m + 4 < CUT_MAX ? n / m + 4 : CUT_MAX;
	static const unsigned long long INF = ULLONG_MAX / 4;
	unsigned long long dp[CUT_MAXPC + 1][CUT_PAT_MAX + 1];
	unsigned char len[CUT_MAXPC + 1][CUT_PAT_MAX + 1]; /* 0: a gap */

	for (size_t i = 0; i <= n; i++)
		dp[0][i] = 0, len[0][i] = 0;
	for (size_t j = 1; j <= m; j++)
		for (size_t i = 0; i <= n; i++) {
			dp[j][i] = i > 0 ? dp[j][i - 1] : INF;
			len[j][i] = 0;
			for (size_t L = lmin; L <= lmax && L <= i; L++) {
				unsigned long long v = dp[j - 1][i - L];
				if (v >= INF)
					continue;
				v += cut_est(c, i - L, i);
				if (v < dp[j][i]) {
					dp[j][i] = v;
					len[j][i] = (unsigned char)L;
				}
			}
		}
	if (dp[m][n] >= INF)
		return ULLONG_MAX;
	for (size_t j = m, i = n; j > 0;) {
		if (len[j][i] == 0) {
			i--;
			continue;
		}
		b[j - 1] = i;
		a[j - 1] = i - len[j][i];
		i = a[j - 1];
		j--;
	}
	return dp[m][n];
}

/* The cut for pat (m pieces, k + 1) in f's range, into a[], b[]: even,
 * or the thread's memo's, re-cut (see above) where the last range with it
 * was dense. */
static void
cut_pieces(struct flt *f, const struct pattern *pat, size_t m, size_t *a,
    size_t *b)
{
	struct cut_memo *cm = &cut_memo;
	const char *e = getenv("AGREP_GPU_FLT_RECUT");
	const int always = e != NULL && *e == '1';
	unsigned c[CUT_PAT_MAX];

	for (size_t j = 0; j < m; j++) {
		a[j] = j * pat->len / m;
		b[j] = (j + 1) * pat->len / m;
	}
	if (m > CUT_MAXPC || pat->len > CUT_PAT_MAX || pat->len < CUT_MIN * m ||
	    memchr(pat->str, f->eol, pat->len) != NULL ||
	    (e != NULL && *e == '0'))
		return;
	if (cm->str != pat->str || cm->len != pat->len || cm->m != m ||
	    cm->icase != f->icase) {
		memset(cm, 0, sizeof(*cm));
		cm->str = pat->str;
		cm->len = pat->len;
		cm->m = m;
		cm->icase = f->icase;
	}
	f->memo = 1;
	if (cm->cut) {
		memcpy(a, cm->a, m * sizeof(*a));
		memcpy(b, cm->b, m * sizeof(*b));
	}
	if (cm->dense && cm->skip > 0 && !always) {
		cm->skip--;
		cm->dense = 0;
	}
	if (cm->dense || always) {
		size_t na[CUT_MAXPC], nb[CUT_MAXPC];
		unsigned long long now = 0, best;
		count_grams4(pat->str, pat->len, f->icase, f->text, f->warm,
		    f->all, c);
		for (size_t j = 0; j < m; j++)
			now += cut_est(c, a[j], b[j]);
		best = cut_plan(c, pat->len, m, na, nb);
		if (best != ULLONG_MAX && (always || 2 * best < now)) {
			memcpy(cm->a, na, m * sizeof(*na));
			memcpy(cm->b, nb, m * sizeof(*nb));
			memcpy(a, na, m * sizeof(*a));
			memcpy(b, nb, m * sizeof(*b));
			cm->cut = 1;
		}
		cm->dense = 0;
		if (cm->tries < 16)
			cm->tries++;
		cm->skip = (1 << cm->tries) - 1;
	}
}

/* The end of a range's search: notes in the thread's cut memo whether its
 * candidates were dense. */
static void
cut_note(const struct flt *f, int gaveup)
{
	if (f->memo)
		cut_memo.dense = gaveup || f->proposed > (f->all - f->warm) /
		    CUT_DENSE + 1024;
}

/* Whether the nibble search runs (4 to 8 pieces of 3 bytes or more,
 * AGREP_GPU_FLT_NIBBLE=0: never, 1: from 1 piece on), and each piece's
 * fingerprint: the 3 bytes least often in the text's start (count_grams,
 * where the text holds FLT_SAMPLE bytes or more), of those the least
 * product of flt_byte_rank; the run's choice for the same pieces where
 * one was made (fo_recall). */
static void
nibble_setup(struct flt *f)
{
	const char *e = getenv("AGREP_GPU_FLT_NIBBLE");
	size_t min = e != NULL && *e == '1' ? 1 : FLT_NIBBLE_MIN;
	unsigned short cnt[8][FLT_SAMPLE_OFFS];

	f->nibble = 0;
	f->maxfo = 0;
	if ((e != NULL && *e == '0') || f->npc < min || f->npc > 8)
		return;
	for (size_t j = 0; j < f->npc; j++)
		if (f->pc[j].len < 3)
			return;
	if (!fo_recall(f)) {
		/* (a text shorter than the sample: by the ranks alone; counting
		 * cost more than scanning it, 5-8 us a pattern) */
		if (f->all >= FLT_SAMPLE)
			count_grams(f, cnt);
		else
			memset(cnt, 0, sizeof(cnt));
		for (size_t j = 0; j < f->npc; j++) {
			struct flt_piece *p = &f->pc[j];
			double bestr = 0;
			unsigned bestc = 0;
			p->fo = 0;
			for (size_t o = 0; o + 3 <= p->len &&
			    o < FLT_SAMPLE_OFFS; o++) {
				double r = (double)flt_byte_rank(p->s[o],
				    f->icase) * flt_byte_rank(p->s[o + 1],
				    f->icase) * flt_byte_rank(p->s[o + 2],
				    f->icase);
				if (o == 0 || cnt[j][o] < bestc ||
				    (cnt[j][o] == bestc && r < bestr))
					bestr = r, bestc = cnt[j][o], p->fo = o;
			}
		}
		if (f->all >= FLT_SAMPLE)	/* (a fair sample: kept) */
			fo_keep(f);
	}
	for (size_t j = 0; j < f->npc; j++)
		if (f->pc[j].fo > f->maxfo)
			f->maxfo = f->pc[j].fo;
	f->nibble = 1;
}

/*
 * Sets up f for the search of pat's pieces (at most k edits) in text[0,
 * warm + len); returns 1.  Returns 0 when the filter does not apply:
 * k + 1 > n, pieces shorter than FLT_MINPIECE (force: any length), more
 * than FLT_MAXPIECES pieces (or FLT_MAXPIECES_SIMD when alt is not
 * FLT_ALT_SCALAR; fewer and longer when it is FLT_ALT_FAST).  alt: what
 * the caller's engines would cost instead (filter.h).  force: no minimum
 * piece length, no giving up.
 */
int
flt_start(struct flt *f, const struct pattern *pat, long k, int icase,
    const unsigned char *text, size_t warm, size_t len, unsigned char eol,
    int alt, int force)
{
	size_t n = pat->len, m = (size_t)k + 1;
	int simd = alt != FLT_ALT_SCALAR, fast = alt == FLT_ALT_FAST;

	/* (a pattern with classes has no exact pieces: regex.c) */
	if (pat->cls || k < 0 || n < m || m > FLT_MAXPIECES ||
	    pat->len > PAT_MAXLEN ||
	    n / m < (force ? 1 : FLT_MINPIECE) ||
	    (!force && simd && m > FLT_MAXPIECES_SIMD) ||
	    (!force && fast && (m > FLT_MAXPIECES_FAST ||
	    n / m < FLT_MINPIECE_FAST)))
		return 0;
	f->icase = icase;
	f->force = force;
	f->text = text;
	f->warm = warm;
	f->all = warm + len;
	f->eol = eol;
	f->npc = 0;
	f->maxlen = 0;
	f->pos = f->rs = 0;
	f->proposed = 0;
	f->misses = 0;
	f->memo = 0;
	f->noise = simd ? FLT_MISSES_SIMD : FLT_MISSES;
	f->density = !simd ? FLT_DENSITY : fast ? FLT_DENSITY_FAST :
	    FLT_DENSITY_SIMD;
	size_t ca[FLT_MAXPIECES], cb[FLT_MAXPIECES];
	if (len > 0)
		cut_pieces(f, pat, m, ca, cb);
	for (size_t j = 0; j < m && len > 0; j++) {
		size_t a = ca[j], b = cb[j];
		struct flt_piece *p = &f->pc[f->npc];
		if (memchr(pat->str + a, eol, b - a) != NULL)
			continue;	/* never inside a record */
		p->s = pat->str + a;
		p->len = b - a;
		pick(p, icase);
		if (p->len > f->maxlen)
			f->maxlen = p->len;
		f->npc++;
	}
	nibble_setup(f);
	if (f->npc == 0)
		f->pos = f->rs = f->all;	/* no match can lie inside a
						 * record (or no text) */
	return 1;
}

/*
 * Lists in w[0, *n) (max >= 1) the next candidate records of the search
 * set up by flt_start, in text order, each once; returns FLT_MORE when
 * the list filled up before the end (verify it and call again), FLT_DONE
 * at the end, FLT_GAVEUP when the candidates grew too dense (verify the
 * list, then the whole of text[*at, warm + len): *at is a record start).
 * The search keeps no state outside f: calls are independent and
 * thread-safe.
 */
int
flt_propose(struct flt *f, struct flt_win *w, size_t max, size_t *n,
    size_t *at)
{
	struct flist l = { w, 0, max };
	int r;

	if (f->pos >= f->all)
		r = FLT_DONE;
	else
#ifdef FLT_X86
	if (f->nibble && cpu_has(CPU_AVX2))
		r = search_nibble(f, &l, at);
	else if (cpu_has(CPU_AVX2))
		r = search_avx2(f, &l, at);
	else
		r = search_sse2(f, &l, at);
#else
		r = search_scalar(f, &l, at);
#endif
	*n = l.n;
	if (r == FLT_GAVEUP)
		f->pos = f->rs = f->all;
	if (r != FLT_MORE)
		cut_note(f, r == FLT_GAVEUP);
	return r;
}
