/*
 * weighted.c: the automaton's scan when the kinds of edit cost other than
 * 1 (--insert-cost, --delete-cost, --substitute-cost, as tre-agrep's -I,
 * -D, -S): row j of R holds the states reachable with a total cost of j
 * or less, and an edit of cost c moves a state c rows down.  Plain
 * patterns are scanned so too, as chains of classes (build.c: re_chain).
 *
 * At each boundary, once the unit after it is known (its context), row j
 * is closed in order of j: it gains row j - 1 (cost j - 1 is within j),
 * the initial state (a match may start here), the positions one deletion
 * past row j - del (P: those that read a unit), and the assertions that
 * follow its states and hold here, in chains, for nothing (scan_as.c's
 * close_row, of which this is the weighted form); TR[j] is then T[R[j]].
 * Reading unit c:
 *
 *   R'[j] = (TR[j] & B[c]) | R[j - ins] | (TR[j - sub] & P)
 *
 * (a match; an inserted text unit; a substitution), the terms of a row
 * below 0 or of a kind turned off left out.  A match ends at the boundary
 * when R[k] meets the final states.
 *
 * A match of total cost k holds k / c edits at most, c the least cost of
 * a kind (re_costs_edits), so the unit cost scans with that many errors
 * (re_scan: the prefilter, the lanes, the one-word scans; for plain
 * patterns the host's engines, hostmatch.c) select every record that can
 * hold one, and only those are scanned with the costs (re_verify_records):
 * on the Bible most records are ruled out at the unit scan's speed.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "regex_int.h"
#include "../base/util.h"

#define W_JUDGE	((size_t)64 << 10)	/* re_scan_costs' first block */

/* The edits a match of total cost k can hold. */
long
re_costs_edits(const struct re_costs *w, long k)
{
	int c = w->ins < w->del ? w->ins : w->del;

	if (w->sub < c)
		c = w->sub;
	return k / c;
}

/* Row j of R closed at a boundary of context ctx, TR[j] := T[R[j]]; t:
 * scratch of 2 nw words. */
static void
close_w(const struct re_nfa *a, const struct re_costs *cw, long j, int ctx,
    uint64_t init, uint64_t *R, uint64_t *TR, uint64_t *t)
{
	const size_t nw = a->nw;
	const uint64_t *A = a->A + (size_t)ctx * nw;
	uint64_t *r = R + (size_t)j * nw, *tr = TR + (size_t)j * nw;

	r[0] |= init;
	if (j > 0)
		for (size_t w = 0; w < nw; w++)
			r[w] |= r[w - nw];
	if (j >= cw->del) {
		const uint64_t *td = TR + (size_t)(j - cw->del) * nw;
		for (size_t w = 0; w < nw; w++)
			r[w] |= td[w] & a->P[w];
	}
	close_assertions(a, A, r, tr, t);
}

/* re_scan_weighted for an automaton of one word (64 states or fewer)
 * without assertions: the same steps on one word a row, T looked up by
 * groups of 8 states (follow1).  G (the groups) and K (k) are constants
 * in the copies scan_w1 makes for small ones, so the rows stay in
 * registers (as scan.c's re_scan1_g). */
static inline __attribute__((always_inline)) void
scan_w1_g(const struct re_nfa *a, const struct re_costs *cw,
    const unsigned char *text, size_t from, size_t to, size_t warm,
    unsigned char eol, int first, uint64_t *bitmap, const int G, const long K)
{
	const long ins = cw->ins, del = cw->del, sub = cw->sub;
	const uint64_t P = a->P[0], fin = a->final[0], *T = a->T;
	uint64_t R[K + 1], TR[K + 1];
	size_t ls = from;

	for (long j = 0; j <= K; j++)
		R[j] = 0;
	for (size_t i = from; i < to || ls < to; i++) {
		const int end = i == to || text[i] == eol;
		const uint64_t init = !a->bol || i == ls;
		for (long j = 0; j <= K; j++) {
			uint64_t r = R[j] | init;
			if (j > 0)
				r |= R[j - 1];
			if (j >= del)
				r |= TR[j - del] & P;
			R[j] = r;
			TR[j] = follow1(T, r, G);
		}
		if ((R[K] & fin) && (!a->eol || end) &&
		    end_hit(bitmap, i, ls, warm) && first)
			break;
		if (i == to)
			break;
		if (end) {
			ls = i + 1;
			for (long j = 0; j <= K; j++)
				R[j] = 0;
			continue;
		}
		/* (rows from the top down: each reads rows above it, of
		 * the unit before) */
		const uint64_t Bc = a->B[text[i]];
		for (long j = K; j >= 0; j--) {
			uint64_t n = TR[j] & Bc;
			if (j >= ins)
				n |= R[j - ins];
			if (j >= sub)
				n |= TR[j - sub] & P;
			R[j] = n;
		}
	}
}

static void
scan_w1(const struct re_nfa *a, const struct re_costs *cw, long k,
    const unsigned char *text, size_t from, size_t to, size_t warm,
    unsigned char eol, int first, uint64_t *bitmap)
{
#define W1_F(G, K) scan_w1_g(a, cw, text, from, to, warm, eol, first, bitmap, \
	G, K)
#define W1_K(G)								\
	switch (k) {							\
	case 1: W1_F(G, 1); return;					\
	case 2: W1_F(G, 2); return;					\
	case 3: W1_F(G, 3); return;					\
	case 4: W1_F(G, 4); return;					\
	default: break;							\
	}
	RE_BY_GROUPS(a->ngroups, W1_K)
#undef W1_K
#undef W1_F
	scan_w1_g(a, cw, text, from, to, warm, eol, first, bitmap,
	    (int)a->ngroups, k);
}

/* As re_scan_all, with a's costs: bit i - warm for each end text[i] of a
 * match of total cost k or less. */
void
re_scan_weighted(const struct re_nfa *a, const struct re_costs *cw, long k,
    const unsigned char *text, size_t from, size_t to, size_t warm,
    unsigned char eol, int first, uint64_t *bitmap)
{
	if (k < 0)
		return;
	if (a->nw == 1 && a->nassert == 0) {
		scan_w1(a, cw, k, text, from, to, warm, eol, first, bitmap);
		return;
	}
	const size_t nw = a->nw, rows = (size_t)k + 1;
	uint64_t *R = xcalloc((3 * rows + 2) * nw, sizeof(uint64_t));
	uint64_t *N = R + rows * nw, *TR = N + rows * nw, *t = TR + rows * nw;
	size_t ls = from;
	int before = RE_EDGE;

	for (size_t i = from; i < to || ls < to; i++) {
		const int end = i == to || text[i] == eol;
		const int ctx = before * 3 + (end ? RE_EDGE : a->side[text[i]]);
		for (size_t j = 0; j < rows; j++)
			close_w(a, cw, (long)j, ctx, !a->bol || i == ls, R,
			    TR, t);
		if (meets(R + (size_t)k * nw, a->final, nw) &&
		    (!a->eol || end) && end_hit(bitmap, i, ls, warm) && first)
			break;
		if (i == to)
			break;
		if (end) {
			ls = i + 1;
			before = RE_EDGE;
			memset(R, 0, rows * nw * sizeof(*R));
			continue;
		}
		const uint64_t *Bc = a->B + (size_t)text[i] * nw;
		for (size_t j = 0; j < rows; j++) {
			uint64_t *n = N + j * nw;
			const uint64_t *tr = TR + j * nw;
			for (size_t w = 0; w < nw; w++)
				n[w] = tr[w] & Bc[w];
			if ((long)j >= cw->ins) {
				const uint64_t *ri = R + (j - (size_t)cw->ins) *
				    nw;
				for (size_t w = 0; w < nw; w++)
					n[w] |= ri[w];
			}
			if ((long)j >= cw->sub) {
				const uint64_t *ts = TR + (j - (size_t)cw->sub) *
				    nw;
				for (size_t w = 0; w < nw; w++)
					n[w] |= ts[w] & a->P[w];
			}
		}
		uint64_t *x = R;
		R = N;
		N = x;
		before = a->side[text[i]];
	}
	free(R < N ? R : N);
}

/* Does bitmap hold a bit in [i, j) (text positions, the bitmap from warm)? */
static int
any_bit(const uint64_t *bm, size_t warm, size_t i, size_t j)
{
	if (j <= warm)
		return 0;
	i = i > warm ? i - warm : 0;
	return bits_next(bm, i, j - warm) < j - warm;
}

size_t
re_verify_records(struct re_nfa *const *a, size_t na,
    const struct re_costs *cw, long k, const uint64_t *cand, size_t W,
    const unsigned char *text, size_t from, size_t to, size_t warm,
    unsigned char eol, int all_ends, uint64_t *bitmap)
{
	size_t q = from > warm ? from : warm, scanned = 0;

	while (q < to) {
		size_t b = bits_next(cand, q - warm, to - warm);
		if (b >= to - warm)
			break;
		const size_t i = warm + b;
		size_t ls, re;
		if (W > 0) {
			/* the windows of W units that end at the marks, as
			 * one span where they overlap, within a record */
			ls = record_start(text, i + 1 > from + W ?
			    i + 1 - W : from, i, eol);
			re = i + 1;
			for (;;) {
				size_t n = bits_next(cand, re - warm, to - warm);
				if (n >= to - warm || warm + n + 1 > re + W ||
				    memchr(text + re - 1, eol, warm + n + 1 -
				    re) != NULL)
					break;
				re = warm + n + 1;
			}
		} else {
			/* the record with its terminator, if any */
			ls = record_start(text, from, i, eol);
			re = record_end(text, i, to, eol);
			re += re < to;
		}
		for (size_t x = 0; x < na; x++) {
			if (cw == NULL)
				re_scan_all(a[x], k, text, ls, re, warm, eol,
				    bitmap);
			else
				re_scan_weighted(a[x], cw, k, text, ls, re,
				    warm, eol, !all_ends, bitmap);
			if (!all_ends && any_bit(bitmap, warm, ls, re))
				break;
		}
		scanned += re - ls;
		q = re;
	}
	return scanned;
}

void
re_scan_costs(const struct re_nfa *a, const struct re_costs *cw, long k,
    const unsigned char *text, size_t from, size_t to, size_t warm,
    unsigned char eol, int all_ends, uint64_t *bitmap)
{
	if (k < 0 || to <= warm)
		return;
	const size_t words = (to - warm + 63) / 64;
	uint64_t *cand = xcalloc(words, sizeof(*cand));
	struct re_nfa *const one[1] = { (struct re_nfa *)a };
	const long edits = re_costs_edits(cw, k);
	size_t pos = from;

	/* A small automaton: where the unit scan selects much of a first
	 * block, the rest goes to its pieces and the weighted lanes, which
	 * scan about as fast as the unit ones (the Bible x8, -c -k2 'the
	 * L[a-z]+D' with I2 D2 S1, 2-core EPYC: half the lines selected,
	 * 0.078 s against 0.041 on the lanes; the unit search 0.028). */
	if (to - from > W_JUDGE && to - W_JUDGE > warm &&
	    re_lanes_take_w(a, cw, k, eol)) {
		size_t end = record_end(text, from + W_JUDGE, to, eol);
		end += end < to;
		re_scan(a, edits, text, from, end, warm, eol, cand);
		if (re_verify_records(one, 1, cw, k, cand, 0, text, from, end,
		    warm, eol, all_ends, bitmap) > (end - from) / 4) {
			re_scan_w(a, cw, k, text, end, to, warm, eol, bitmap);
			free(cand);
			return;
		}
		pos = end;
	}
	re_scan(a, edits, text, pos, to, warm, eol, cand);
	re_verify_records(one, 1, cw, k, cand, 0, text, pos, to, warm, eol,
	    all_ends, bitmap);
	free(cand);
}
