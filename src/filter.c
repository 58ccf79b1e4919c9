/*
 * filter.c: the pigeonhole filter of the host matcher (issue 10).
 *
 * A match with at most k unit-cost edits of a pattern cut into k + 1
 * disjoint pieces holds at least one piece exactly: each edit touches at
 * most one piece.  So the text is searched for the pieces, exactly (with -i:
 * folding ASCII case), and only the records holding an occurrence go through
 * Myers (hm_scan_range, or the SIMD engine for long ranges), from the
 * record's start: the hit bits are exactly those of a full scan.
 *
 * Search: one pass over text[0, warm + len) (the warm-up bytes too, since a
 * match ending in the chunk may begin before it) tests every piece at every
 * position.  Per piece, two of its bytes, the rarest by an English-text
 * frequency table, are compared at their offsets, 32 (AVX2) or 16 (SSE2)
 * positions at a time ("packed pair"); a position where both agree for
 * some piece is compared in full.  The first occurrence in a record makes
 * the record a candidate: it is verified, and the search goes on after its
 * terminator (a record is verified once).
 *
 * A piece that holds the terminator cannot lie inside a record: it is
 * dropped.  When the verified records grow past 1/FLT_DENSITY of the bytes
 * searched (1/FLT_DENSITY_SIMD when the alternative is the SIMD engine),
 * the filter gives up and the engines scan the rest (unless forced).  No
 * static mutable state: calls are independent and thread-safe.
 */
#include <stdlib.h>
#include <string.h>

#include "cpu.h"
#include "filter.h"
#include "hostmatch.h"
#include "simd.h"
#include "util.h"

/*
 * When the alternative is the AVX-512 VBMI engine (simd_fast: 1.5-2.3 GB/s
 * on one core for patterns under 32 bytes, Bible x8) or the AVX2 16-bit one
 * (simd_fast too: 2.5-3 GB/s under 16 bytes), the filter pays only
 * with few, long, rare pieces (bench/RESULTS-simd.md, 2026-11-23 evening):
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

/*
 * A piece: bytes s[0, len) of the pattern.  The search compares
 * (text[pos + i] | m) == b at two offsets i1, i2 (m: 0x20 for a letter
 * under -i, so that both cases agree; else 0).
 */
struct piece {
	const unsigned char *s;
	size_t len;
	size_t i1, i2;
	unsigned char b1, b2, m1, m2;
};

/* Whether the piece occurs at text[pos] (pos + len <= end of text). */
static inline int
piece_at(const struct piece *p, const unsigned char *t, int icase)
{
	if (!icase)
		return memcmp(t, p->s, p->len) == 0;
	for (size_t i = 0; i < p->len; i++)
		if (ascii_fold(t[i]) != ascii_fold(p->s[i]))
			return 0;
	return 1;
}

struct flt {
	const struct pattern *pat;
	long k;
	int icase, variant, force;
	const unsigned char *text;
	size_t warm, all;	/* all = warm + len */
	unsigned char eol;
	uint64_t *bitmap;
	struct piece pc[FLT_MAXPIECES];
	size_t npc, maxlen;
	size_t verified;	/* bytes verified so far */
	size_t density;		/* give up past verified > bytes / density */
	size_t misses;		/* positions whose pair agreed, no piece */
	size_t noise;		/* give up past misses > bytes / noise */
};

/*
 * Verifies text[from, to): from is text[0] or follows a terminator; bits
 * are set for matches ending in [max(from, warm), to).  Long ranges go to
 * the SIMD engine (when allowed and the pattern fits it): it starts at a
 * bitmap word boundary at or before the range, whose bytes before the
 * range belong to earlier records or the warm-up (state starting there
 * only finds true matches, and the terminator before from resets it).
 */
static void
verify(struct flt *f, size_t from, size_t to)
{
	const size_t warm = f->warm;

	if (to <= warm)
		return;
	f->verified += to - from;
	if (f->variant < 0 || f->pat->len > SIMD_MAXLEN ||
	    to - from < FLT_SIMD_VERIFY) {
		hm_scan_range(f->pat, f->k, f->text, from, to, warm, f->eol,
		    f->bitmap);
		return;
	}
	size_t h0 = (from > warm ? from - warm : 0) & ~(size_t)63;
	size_t st = warm + h0 < from ? warm + h0 : from;
	simd_scan_pattern(f->pat, f->k, f->text + st, warm + h0 - st,
	    to - (warm + h0), f->eol, f->bitmap + h0 / 64, 0, f->variant);
}

/*
 * A candidate at pos (a piece starts there); rs: a record start at or
 * before pos (no terminator is known between them).  Verifies its record;
 * returns the position after the record's terminator (or the end).
 */
static size_t
candidate(struct flt *f, size_t rs, size_t pos)
{
	const unsigned char *t = f->text, *e;
	size_t re;

	if (pos > rs && (e = memrchr(t + rs, f->eol, pos - rs)) != NULL)
		rs = (size_t)(e - t) + 1;
	e = memchr(t + pos, f->eol, f->all - pos);
	re = e ? (size_t)(e - t) : f->all;
	verify(f, rs, re);
	return re + 1;
}

/* Whether some piece occurs at pos (each one must fit before the end). */
static inline int
any_piece(const struct flt *f, size_t pos)
{
	for (size_t j = 0; j < f->npc; j++) {
		const struct piece *p = &f->pc[j];
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
	return !f->force && f->verified > pos / f->density + FLT_SLACK;
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
 * The search from pos to the end, one position at a time (rs: the last
 * record start known, with no candidate in [rs, pos)): the tail, and the
 * engine where no vector one exists.  Returns 0, or 1 when it gave up (*at:
 * the record start from which the rest is unscanned).
 */
static int
search_scalar(struct flt *f, size_t rs, size_t pos, size_t *at)
{
	while (pos < f->all) {
		if (any_piece(f, pos)) {
			pos = rs = candidate(f, rs, pos);
			if (too_dense(f, pos)) {
				*at = rs;
				return 1;
			}
		} else
			pos++;
	}
	return 0;
}

#ifdef FLT_X86
/*
 * The vector search, W positions a step while every piece fits in the
 * text; the rest goes to search_scalar.  Instantiated for AVX2 (32) and
 * SSE2 (16).
 */
#define FLT_SEARCH(NAME, ATTR, VT, W, LOAD, SET1, OR, AND, CMPEQ, MOVEMASK) \
ATTR static int								\
NAME(struct flt *f, size_t *at)						\
{									\
	VT b1[FLT_MAXPIECES], b2[FLT_MAXPIECES];			\
	VT m1[FLT_MAXPIECES], m2[FLT_MAXPIECES];			\
	const unsigned char *t = f->text;				\
	size_t pos = 0, rs = 0;						\
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
			const struct piece *p = &f->pc[j];		\
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
				next = rs = candidate(f, rs, c);	\
				if (too_dense(f, next)) {		\
					*at = rs;			\
					return 1;			\
				}					\
				break;					\
			}						\
			f->misses++;					\
			mask &= mask - 1;				\
		}							\
		if (too_noisy(f, next)) {				\
			*at = rs;					\
			return 1;					\
		}							\
		pos = next;						\
	}								\
	/* The tail: from the last record start known, with no	\
	 * candidate in [rs, pos). */					\
	return search_scalar(f, rs, pos, at);				\
}

FLT_SEARCH(search_avx2, __attribute__((target("avx2"))), __m256i, 32,
    _mm256_loadu_si256, _mm256_set1_epi8, _mm256_or_si256, _mm256_and_si256,
    _mm256_cmpeq_epi8, _mm256_movemask_epi8)
FLT_SEARCH(search_sse2, , __m128i, 16,
    _mm_loadu_si128, _mm_set1_epi8, _mm_or_si128, _mm_and_si128,
    _mm_cmpeq_epi8, _mm_movemask_epi8)
#endif

/* Picks the two rarest bytes of a piece (distinct offsets when it has two). */
static void
pick(struct piece *p, int icase)
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

/*
 * ORs into bitmap the bits of the matches of pat (at most k edits) in
 * text[0, warm + len), as hm_scan_range(pat, k, text, 0, warm + len, warm,
 * ...) would, through the filter; returns 1.  Returns 0, having set
 * nothing, when the filter does not apply: k + 1 > n, pieces shorter than
 * FLT_MINPIECE (force: any length), more than FLT_MAXPIECES pieces (or
 * FLT_MAXPIECES_SIMD when the alternative is the SIMD engine).
 * variant: the SIMD variant for long verifications, or -1 for the scalar
 * engine only.  force: no minimum piece length, no giving up.
 */
int
flt_scan_pattern(const struct pattern *pat, long k, int icase,
    const unsigned char *text, size_t warm, size_t len, unsigned char eol,
    uint64_t *bitmap, int variant, int force)
{
	struct flt f;
	size_t n = pat->len, m = (size_t)k + 1, at = 0;
	int gaveup, simd = variant >= 0 && n <= SIMD_MAXLEN;
	int fast = simd && simd_fast(variant, n);

	/* (a pattern with classes has no exact pieces: regex.c) */
	if (pat->cls || k < 0 || n < m || m > FLT_MAXPIECES ||
	    pat->len > PAT_MAXLEN ||
	    n / m < (force ? 1 : FLT_MINPIECE) ||
	    (!force && simd && m > FLT_MAXPIECES_SIMD) ||
	    (!force && fast && (m > FLT_MAXPIECES_FAST ||
	    n / m < FLT_MINPIECE_FAST)))
		return 0;
	if (len == 0)
		return 1;
	f.pat = pat;
	f.k = k;
	f.icase = icase;
	f.variant = variant;
	f.force = force;
	f.text = text;
	f.warm = warm;
	f.all = warm + len;
	f.eol = eol;
	f.bitmap = bitmap;
	f.npc = 0;
	f.maxlen = 0;
	f.verified = 0;
	f.misses = 0;
	f.noise = simd ? FLT_MISSES_SIMD : FLT_MISSES;
	f.density = !simd ? FLT_DENSITY : fast ? FLT_DENSITY_FAST :
	    FLT_DENSITY_SIMD;
	for (size_t j = 0; j < m; j++) {
		size_t a = j * n / m, b = (j + 1) * n / m;
		struct piece *p = &f.pc[f.npc];
		if (memchr(pat->str + a, eol, b - a) != NULL)
			continue;	/* never inside a record */
		p->s = pat->str + a;
		p->len = b - a;
		pick(p, icase);
		if (p->len > f.maxlen)
			f.maxlen = p->len;
		f.npc++;
	}
	if (f.npc == 0)
		return 1;	/* no match can lie inside a record */
#ifdef FLT_X86
	if (cpu_has(CPU_AVX2))
		gaveup = search_avx2(&f, &at);
	else
		gaveup = search_sse2(&f, &at);
#else
	gaveup = search_scalar(&f, 0, 0, &at);
#endif
	if (gaveup) {
		/* The engines take the rest, from a record start. */
		if (variant >= 0 && pat->len <= SIMD_MAXLEN && at < f.all) {
			f.verified = 0;
			f.force = 1;
			verify(&f, at, f.all);
		} else
			hm_scan_range(pat, k, text, at, f.all, warm, eol,
			    bitmap);
	}
	return 1;
}
