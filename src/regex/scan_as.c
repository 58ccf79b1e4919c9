/*
 * scan_as.c: the scans of an automaton with assertion states (\<, \>, \b,
 * \B, and ^ and $ inside the expression: regex_int.h), which close each
 * row at every boundary under the assertions that hold there:
 * re_scan_as1 for one word and k <= 3 (G and K constants), re_scan_as
 * otherwise.  re_scan_all (scan.c) calls them.  (Apart from scan.c for
 * the build: re_scan_as1's 32 copies of re_scan_as1_g take as long to
 * compile as all of scan.c.)
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "regex_int.h"
#include "../base/util.h"

/*
 * The scan of an automaton with assertion states.  At each boundary, once
 * the unit after it is known (its context), row j of R is closed: it gains
 * the initial state (a match may start here), the positions one deletion
 * past row j - 1 (P: never an assertion), then the assertions that follow
 * its states and hold here, in chains (cost 0: never edited); TR[j] is
 * then T[R[j]].  A match ends at the boundary when R[k] meets the final
 * states (the hit is on the unit before it, or on the record's first unit
 * if it is the record's start).  Reading unit c:
 *
 *   R'[0] = TR[0] & B[c]
 *   R'[j] = (TR[j] & B[c]) | R[j-1] | (TR[j-1] & P)
 *
 * (a match; an inserted text unit; a substitution).  T is a union of
 * lookups, so T[r | x] = T[r] | T[x]: a closure step looks up x only.
 * G: the groups of 8 states of a one-word automaton, a constant in each
 * copy (re_scan_as1), as is K, its errors (k <= 3; re_scan_as otherwise).
 */
/* One assertion scan's state: the rows, T of them, the side of the unit
 * after the current boundary, the start of the current record. */
struct as1 {
	uint64_t	R[4], TR[4];
	int		after;
	size_t		ls;
};

/* Closes the boundary before text[at], the start of a record (re_scan_as1_g),
 * and sets the hit of an empty match there. */
static inline __attribute__((always_inline)) void
as1_start(const struct re_nfa *a, const unsigned char *text, size_t at,
    size_t warm, unsigned char eol, uint64_t *bitmap, const int G,
    const long K, struct as1 *q)
{
	const uint64_t P = a->P[0];

	q->ls = at;
	q->after = text[at] == eol ? RE_EDGE : a->side[text[at]];
	const int ctx = RE_EDGE * 3 + q->after;
	const uint64_t A = a->A[ctx], *T = a->TC + (size_t)ctx * G * 256;
	for (long j = 0; j <= K; j++) {
		uint64_t r = 1 | (j > 0 ? q->TR[j - 1] & P : 0);
		uint64_t tr = follow1(T, r, G);
		q->R[j] = r | (tr & A);
		q->TR[j] = tr;
	}
	if ((q->R[K] & a->final[0]) && (!a->eol || q->after == RE_EDGE) &&
	    at >= warm)
		hit(bitmap, at - warm);
}

/* Reads text[i] (before to) and closes the boundary after it; a
 * terminator starts the next record instead. */
static inline __attribute__((always_inline)) void
as1_step(const struct re_nfa *a, const unsigned char *text, size_t i,
    size_t to, size_t warm, unsigned char eol, uint64_t *bitmap, const int G,
    const long K, struct as1 *q)
{
	const uint64_t P = a->P[0];

	if (text[i] == eol) {
		if (i + 1 < to)
			as1_start(a, text, i + 1, warm, eol, bitmap, G, K, q);
		return;
	}
	const int before = q->after;
	q->after = i + 1 == to || text[i + 1] == eol ? RE_EDGE :
	    a->side[text[i + 1]];
	const int ctx = before * 3 + q->after;
	const uint64_t A = a->A[ctx], Bc = a->B[text[i]];
	const uint64_t *T = a->TC + (size_t)ctx * G * 256;
	uint64_t pr = 0, ptr = 0, ntr = 0;
	for (long j = 0; j <= K; j++) {
		uint64_t r = (q->TR[j] & Bc) | pr | ((ptr | ntr) & P) |
		    !a->bol;
		uint64_t tr = follow1(T, r, G);
		r |= tr & A;
		pr = q->R[j];
		ptr = q->TR[j];
		q->R[j] = r;
		q->TR[j] = ntr = tr;
	}
	if ((q->R[K] & a->final[0]) && (!a->eol || q->after == RE_EDGE) &&
	    i >= warm)
		hit(bitmap, i - warm);
}

/* The scan with assertions for one word and k = K <= 3: the two halves
 * of the range (cut at a record start) side by side, as re_scan1_g. */
static inline __attribute__((always_inline)) void
re_scan_as1_g(const struct re_nfa *a, const unsigned char *text,
    size_t from, size_t to, size_t warm, unsigned char eol, uint64_t *bitmap,
    const int G, const long K)
{
	struct as1 q, u;
	const unsigned char *m = to - from < 256 ? NULL :
	    memchr(text + (from + to) / 2, eol, to - (from + to) / 2);
	size_t mid = m != NULL && m + 1 < text + to ? (size_t)(m - text) + 1 :
	    to, i = from, j = mid;

	if (from >= to)
		return;
	memset(&u, 0, sizeof(u));
	as1_start(a, text, from, warm, eol, bitmap, G, K, &q);
	if (mid < to)
		as1_start(a, text, mid, warm, eol, bitmap, G, K, &u);
	for (; i < mid && j < to; i++, j++) {
		as1_step(a, text, i, mid, warm, eol, bitmap, G, K, &q);
		as1_step(a, text, j, to, warm, eol, bitmap, G, K, &u);
	}
	for (; i < mid; i++)
		as1_step(a, text, i, mid, warm, eol, bitmap, G, K, &q);
	for (; j < to; j++)
		as1_step(a, text, j, to, warm, eol, bitmap, G, K, &u);
}

/* re_scan_as1_g, K = k; 0, or -1 where k > 3. */
int
re_scan_as1(const struct re_nfa *a, long k, const unsigned char *text,
    size_t from, size_t to, size_t warm, unsigned char eol, uint64_t *bitmap)
{
#define RE_SCAN_AS1_K(G)						\
	switch (k) {							\
	case 0: re_scan_as1_g(a, text, from, to, warm, eol, bitmap, G, 0); \
		break;							\
	case 1: re_scan_as1_g(a, text, from, to, warm, eol, bitmap, G, 1); \
		break;							\
	case 2: re_scan_as1_g(a, text, from, to, warm, eol, bitmap, G, 2); \
		break;							\
	case 3: re_scan_as1_g(a, text, from, to, warm, eol, bitmap, G, 3); \
		break;							\
	default: return -1;						\
	}
	RE_BY_GROUPS(a->ngroups, RE_SCAN_AS1_K)
#undef RE_SCAN_AS1_K
	return 0;
}

/* Row j of R at a boundary of context ctx closed as re_scan_as1_g says,
 * and TR[j] := T[R[j]]; t is scratch. */
static void
close_row(const struct re_nfa *a, size_t j, int ctx, uint64_t init,
    uint64_t *R, uint64_t *TR, uint64_t *t)
{
	const size_t nw = a->nw;
	const uint64_t *A = a->A + (size_t)ctx * nw;
	uint64_t *r = R + j * nw, *tr = TR + j * nw;

	r[0] |= init;
	if (j > 0)
		for (size_t w = 0; w < nw; w++)
			r[w] |= tr[w - nw] & a->P[w];
	close_assertions(a, A, r, tr, t);
}

/* re_scan_as1_g for an automaton of several words. */
void
re_scan_as(const struct re_nfa *a, long k, const unsigned char *text,
    size_t from, size_t to, size_t warm, unsigned char eol, uint64_t *bitmap)
{
	const size_t nw = a->nw, rows = (size_t)k + 1;
	uint64_t *R = xcalloc((2 * rows + 2) * nw, sizeof(uint64_t));
	uint64_t *TR = R + rows * nw, *t = TR + rows * nw;
	const uint64_t *Rk = R + (size_t)k * nw;
	size_t ls = from;
	int before = RE_EDGE;

	for (size_t i = from; i < to || ls < to; i++) {
		const int end = i == to || text[i] == eol;
		const int ctx = before * 3 + (end ? RE_EDGE : a->side[text[i]]);
		for (size_t j = 0; j < rows; j++)
			close_row(a, j, ctx, !a->bol || i == ls, R, TR, t);
		if (meets(Rk, a->final, nw) && (!a->eol || end))
			(void)end_hit(bitmap, i, ls, warm);
		if (i == to)
			break;
		if (end) {
			ls = i + 1;
			before = RE_EDGE;
			memset(R, 0, rows * nw * sizeof(*R));
			continue;
		}
		const uint64_t *Bc = a->B + (size_t)text[i] * nw;
		for (size_t j = rows; j-- > 0;)
			for (size_t w = 0; w < nw; w++) {
				uint64_t *r = R + j * nw, *tr = TR + j * nw;
				r[w] = tr[w] & Bc[w];
				if (j > 0)
					r[w] |= r[w - nw] | (tr[w - nw] &
					    a->P[w]);
			}
		before = a->side[text[i]];
	}
	free(R);
}
