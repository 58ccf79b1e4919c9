/*
 * scan.c: the scans of a range of text with an automaton (build.c), bit
 * parallel with k + 1 rows of states: re_scan_all (the SIMD lanes of
 * relanes.c where they take it; with assertion states, the scans of
 * scan_as.c; for one word, re_scan1 on registers, G and K constants; for
 * several, the general scan) and re_scan_window (only the windows of an
 * anchored automaton).  re_scan (prefilter.c) calls them on the records
 * its prefilter keeps.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "regex_int.h"
#include "../base/util.h"

/* Rows at a record start: row j holds the states reached from the
 * initial one by j deletions (pattern positions skipped). */
static void
start_rows(const struct re_nfa *a, long k, uint64_t *R, uint64_t *t)
{
	const size_t nw = a->nw;

	memset(R, 0, nw * sizeof(*R));
	R[0] = 1;
	for (long j = 1; j <= k; j++) {
		uint64_t *r = R + (size_t)j * nw, *q = r - nw;
		follow_of(a, q, t);
		for (size_t w = 0; w < nw; w++)
			r[w] = q[w] | t[w];
	}
}

/*
 * ORs into the bitmap bit i - warm for each i in [warm, to) such that a
 * match of the automaton with at most k errors ends at text[i] (ends
 * before text[i] when it is empty and text[i] starts a record, or with $,
 * ends at the record's end before the terminator text[i] of an empty
 * record).  text[from] starts a record, as does each byte after eol; to
 * ends one.  Rows: R[j] holds the states reachable with j errors or less
 * after the text read so far:
 *
 *   R'[0] = (T[R[0]] & B[c]) | I
 *   R'[j] = (T[R[j]] & B[c]) | R[j-1] | T[R[j-1]] | T[R'[j-1]] | R'[j-1] | I
 *
 * (a match, an inserted text byte, a substitution, a skipped position),
 * I the initial state unless ^ anchors the match at the record start.
 */
/* One unit text[i] of re_scan1_g's scan, on rows R (R0: a record's start;
 * *ls the start of the current record, to the end of the range).  With
 * RE_TCACHE groups or more, R[K + 1 + j] holds T[R[j]]: the T of a new row
 * j is looked up once, for the deletions of row j + 1 now and for row j's
 * step at the next unit (2-core EPYC, 34 MB, -k2: the 53-position "And
 * (he|she|they) ..." 0.65 -> 0.45 s); with fewer, looking it up again
 * was faster (j[aeiou]*b -k1 0.13 against 0.16 s).  G and K are
 * constants, as re_scan1_g says. */
#define RE_TCACHE	3
static inline __attribute__((always_inline)) void
step1(const struct re_nfa *a, const unsigned char *text, size_t i, size_t to,
    size_t warm, unsigned char eol, uint64_t *bitmap, const int G,
    const long K, uint64_t *R, const uint64_t *R0, size_t *ls)
{
	const uint64_t init = a->bol ? 0 : 1, fin = a->final[0];
	const uint64_t *T = a->T;
	const unsigned char c = text[i];
	uint64_t *TR = R + K + 1;

	if (c == eol) {
		if (a->eol && (R[K] & fin))
			(void)end_hit(bitmap, i, *ls, warm);
		*ls = i + 1;
		for (long j = 0; j <= 2 * K + 1; j++)
			R[j] = R0[j];
		if (!a->eol && *ls < to && *ls >= warm && (R[K] & fin))
			hit(bitmap, *ls - warm);
		return;
	}
	const uint64_t Bc = a->B[c];
	if (G < RE_TCACHE) {	/* T[R[j]] looked up again */
		uint64_t tprev = follow1(T, R[0], G);
		uint64_t prev = R[0], nprev = (tprev & Bc) | init;
		R[0] = nprev;
		for (long j = 1; j <= K; j++) {
			uint64_t r = R[j], t = follow1(T, r, G);
			uint64_t n = (t & Bc) | prev | tprev | nprev |
			    follow1(T, nprev, G) | init;
			prev = r;
			tprev = t;
			R[j] = nprev = n;
		}
	} else {
		uint64_t tprev = TR[0], prev = R[0];
		uint64_t nprev = (tprev & Bc) | init;
		uint64_t tnprev = follow1(T, nprev, G);
		R[0] = nprev;
		TR[0] = tnprev;
		for (long j = 1; j <= K; j++) {
			uint64_t r = R[j], t = TR[j];
			uint64_t n = (t & Bc) | prev | tprev | nprev | tnprev |
			    init;
			prev = r;
			tprev = t;
			R[j] = nprev = n;
			TR[j] = tnprev = follow1(T, n, G);
		}
	}
	if (!a->eol && i >= warm && (R[K] & fin))
		hit(bitmap, i - warm);
}

/* The rows at a record's start (and their T) into R0 and R; the hit of
 * an empty match there (when the record at ls, before to, has one). */
static inline __attribute__((always_inline)) void
start1(const struct re_nfa *a, size_t ls, size_t to, size_t warm,
    uint64_t *bitmap, const int G, const long K, uint64_t *R, uint64_t *R0)
{
	R0[0] = 1;
	for (long j = 0; j <= K; j++) {
		R0[K + 1 + j] = follow1(a->T, R0[j], G);
		if (j < K)
			R0[j + 1] = R0[j] | R0[K + 1 + j];
	}
	for (long j = 0; j <= 2 * K + 1; j++)
		R[j] = R0[j];
	if (!a->eol && ls < to && ls >= warm && (R[K] & a->final[0]))
		hit(bitmap, ls - warm);
}

/* re_scan for an automaton of one word: the same steps on registers;
 * G, the groups of 8 states, a constant in each copy (re_scan1), and so
 * is K, the errors.  The range is cut in two at a record start, and the
 * two halves are scanned side by side (each unit's steps wait on the
 * lookups of the one before: two chains keep the core busier). */
static inline __attribute__((always_inline)) void
re_scan1_g(const struct re_nfa *a, const unsigned char *text, size_t from,
    size_t to, size_t warm, unsigned char eol, uint64_t *bitmap,
    const int G, const long K)
{
	uint64_t R[2 * K + 2], R0[2 * K + 2], S[2 * K + 2], S0[2 * K + 2];
	const unsigned char *m = to - from < 256 ? NULL :
	    memchr(text + (from + to) / 2, eol, to - (from + to) / 2);
	size_t mid = m != NULL ? (size_t)(m - text) + 1 : to;
	size_t ls = from, ms = mid, i = from, j = mid;

	start1(a, from, mid, warm, bitmap, G, K, R, R0);
	start1(a, mid, to, warm, bitmap, G, K, S, S0);
	for (; i < mid && j < to; i++, j++) {
		step1(a, text, i, mid, warm, eol, bitmap, G, K, R, R0, &ls);
		step1(a, text, j, to, warm, eol, bitmap, G, K, S, S0, &ms);
	}
	for (; i < mid; i++)
		step1(a, text, i, mid, warm, eol, bitmap, G, K, R, R0, &ls);
	for (; j < to; j++)
		step1(a, text, j, to, warm, eol, bitmap, G, K, S, S0, &ms);
	/* (the first half ends after a terminator: nothing is left open) */
	if (a->eol && ms < to && to - 1 >= warm && (S[K] & a->final[0]))
		hit(bitmap, to - 1 - warm);
	if (a->eol && ls < mid && mid - 1 >= warm && (R[K] & a->final[0]))
		hit(bitmap, mid - 1 - warm);
}

/*
 * The part text[*s, *t) of the record text[ls, e) (e: its terminator, or
 * the range's end to) that can hold a match of a windowed automaton with
 * a match of at most W units: all of a short record (its terminator too),
 * the first W units and one more (^), the last W units and the terminator
 * ($; a record's last unit at least: the end of one without a terminator
 * is seen after a unit).  0: none can (both anchors, a longer record).
 */
static inline int
record_window(const struct re_nfa *a, size_t W, size_t ls, size_t e,
    size_t to, size_t *s, size_t *t)
{
	*s = ls;
	*t = e < to ? e + 1 : to;
	if (e - ls <= W)
		return 1;
	if (!a->eol)
		*t = ls + W + 1;
	else if (!a->bol)
		*s = e - W - (e == to);
	else
		return 0;
	return 1;
}

/* re_scan_window for one word: each record's window text[s, t) stepped
 * as re_scan1_g steps a range, from the start rows R0 made once. */
static inline __attribute__((always_inline)) void
re_window1_g(const struct re_nfa *a, const unsigned char *text, size_t from,
    size_t to, size_t warm, unsigned char eol, uint64_t *bitmap,
    const int G, const long K)
{
	const size_t W = a->maxlen + (size_t)K;
	const uint64_t fin = a->final[0];
	uint64_t R[2 * K + 2], R0[2 * K + 2];

	start1(a, to, to, warm, bitmap, G, K, R, R0);	/* (R0 only) */
	for (size_t ls = from, e; ls < to; ls = e + 1) {
		const unsigned char *p = memchr(text + ls, eol, to - ls);
		size_t s, t;
		e = p != NULL ? (size_t)(p - text) : to;
		if (!record_window(a, W, ls, e, to, &s, &t))
			continue;
		size_t rs = s;
		for (long j = 0; j <= 2 * K + 1; j++)
			R[j] = R0[j];
		if (!a->eol && s < t && s >= warm && (R[K] & fin))
			hit(bitmap, s - warm);
		for (size_t i = s; i < t; i++)
			step1(a, text, i, t, warm, eol, bitmap, G, K, R, R0,
			    &rs);
		if (a->eol && rs < t && t - 1 >= warm && (R[K] & fin))
			hit(bitmap, t - 1 - warm);
	}
}

/* re_scan1_g (re_window1_g where window is set) for one word, k a
 * constant where it is 0 to 3; 0, or -1 for another k. */
static int
re_scan1(const struct re_nfa *a, long k, const unsigned char *text,
    size_t from, size_t to, size_t warm, unsigned char eol, uint64_t *bitmap,
    int window)
{
#define RE_SCAN1_F(G, K)						\
	(window ? re_window1_g(a, text, from, to, warm, eol, bitmap, G, K) : \
	    re_scan1_g(a, text, from, to, warm, eol, bitmap, G, K))
#define RE_SCAN1_K(G)							\
	switch (k) {							\
	case 0: RE_SCAN1_F(G, 0); break;				\
	case 1: RE_SCAN1_F(G, 1); break;				\
	case 2: RE_SCAN1_F(G, 2); break;				\
	case 3: RE_SCAN1_F(G, 3); break;				\
	default: return -1;						\
	}
	RE_BY_GROUPS(a->ngroups, RE_SCAN1_K)
#undef RE_SCAN1_K
#undef RE_SCAN1_F
	return 0;
}

/*
 * re_scan of an automaton anchored by a leading ^ or a trailing $ whose
 * words are at most maxlen long: a match is at most maxlen + k units long,
 * so only the first (^) or the last ($) maxlen + k units of each record
 * can hold one (both: only records that short); a ^ window reads one unit
 * more (an empty match is seen at the record start so).  Not with
 * assertion states (a window's first unit would lose the context before
 * it).
 */
void
re_scan_window(const struct re_nfa *a, long k, const unsigned char *text,
    size_t from, size_t to, size_t warm, unsigned char eol, uint64_t *bitmap)
{
	const size_t W = a->maxlen + (size_t)k;

	if (a->nw == 1 && re_scan1(a, k, text, from, to, warm, eol, bitmap,
	    1) == 0)
		return;
	for (size_t ls = from, e; ls < to; ls = e + 1) {
		const unsigned char *p = memchr(text + ls, eol, to - ls);
		size_t s, t;
		e = p != NULL ? (size_t)(p - text) : to;
		if (record_window(a, W, ls, e, to, &s, &t))
			re_scan_all(a, k, text, s, t, warm, eol, bitmap);
	}
}

/* The automaton's scan of text[from, to), every unit (no prefilter, no
 * windows): the lanes, a one-word scan, re_scan_as, or else the rows of
 * several words (start_rows, and the steps given in the comment before
 * step1). */
void
re_scan_all(const struct re_nfa *a, long k, const unsigned char *text,
    size_t from, size_t to, size_t warm, unsigned char eol, uint64_t *bitmap)
{
	const size_t nw = a->nw, rows = (size_t)k + 1;

	if (a->nassert > 0 && k >= 0 && k <= RE_MAXK) {
		if (nw > 1 || re_scan_as1(a, k, text, from, to, warm, eol,
		    bitmap) == -1)
			re_scan_as(a, k, text, from, to, warm, eol, bitmap);
		return;
	}
	if (re_scan_lanes(a, k, text, from, to, warm, eol, bitmap) == 0)
		return;
	if (nw == 1 && k >= 0 && re_scan1(a, k, text, from, to, warm, eol,
	    bitmap, 0) == 0)
		return;
	const uint64_t init = a->bol ? 0 : 1;
	uint64_t *R = xcalloc(2 * rows * nw + 3 * nw, sizeof(uint64_t));
	uint64_t *N = R + rows * nw, *tprev = N + rows * nw,
	    *tcur = tprev + nw, *td = tcur + nw;
	size_t ls = from;

	if (k < 0) {
		free(R);
		return;
	}
	start_rows(a, k, R, td);
	if (!a->eol && ls < to && ls >= warm &&
	    meets(R + (size_t)k * nw, a->final, nw))
		hit(bitmap, ls - warm);
	for (size_t i = from; i < to; i++) {
		const unsigned char c = text[i];
		if (c == eol) {
			if (a->eol && meets(R + (size_t)k * nw, a->final, nw))
				(void)end_hit(bitmap, i, ls, warm);
			ls = i + 1;
			start_rows(a, k, R, td);
			if (!a->eol && ls < to && ls >= warm &&
			    meets(R + (size_t)k * nw, a->final, nw))
				hit(bitmap, ls - warm);
			continue;
		}
		const uint64_t *Bc = a->B + (size_t)c * nw;
		for (size_t j = 0; j < rows; j++) {
			uint64_t *r = R + j * nw, *n = N + j * nw;
			follow_of(a, r, tcur);
			for (size_t w = 0; w < nw; w++)
				n[w] = tcur[w] & Bc[w];
			n[0] |= init;
			if (j > 0) {
				const uint64_t *rp = r - nw, *np = n - nw;
				follow_of(a, np, td);
				for (size_t w = 0; w < nw; w++)
					n[w] |= rp[w] | tprev[w] | td[w] | np[w];
			}
			memcpy(tprev, tcur, nw * sizeof(*tprev));
		}
		uint64_t *x = R;
		R = N;
		N = x;
		if (!a->eol && i >= warm && meets(R + (size_t)k * nw,
		    a->final, nw))
			hit(bitmap, i - warm);
	}
	if (a->eol && ls < to && to - 1 >= warm &&
	    meets(R + (size_t)k * nw, a->final, nw))
		hit(bitmap, to - 1 - warm);
	free(R < N ? R : N);
}
