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
 * when R[k] meets the final states.  re_scan (prefilter.c) looks for the
 * pieces of k / cmin + 1 (the edits a match can hold) before it calls
 * this on a record.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "regex_int.h"
#include "../base/util.h"

void
re_weigh(struct re_nfa *a, int ins, int del, int sub)
{
	a->weighted = 1;
	a->cins = ins;
	a->cdel = del;
	a->csub = sub;
	a->cmin = ins < del ? ins : del;
	if (sub < a->cmin)
		a->cmin = sub;
	for (size_t b = 0; b < a->nbranch; b++)
		re_weigh(a->branch[b], ins, del, sub);
}

/* Row j of R closed at a boundary of context ctx, TR[j] := T[R[j]]; t:
 * scratch of 2 nw words. */
static void
close_w(const struct re_nfa *a, long j, int ctx, uint64_t init, uint64_t *R,
    uint64_t *TR, uint64_t *t)
{
	const size_t nw = a->nw;
	const uint64_t *A = a->A + (size_t)ctx * nw;
	uint64_t *r = R + (size_t)j * nw, *tr = TR + (size_t)j * nw;

	r[0] |= init;
	if (j > 0)
		for (size_t w = 0; w < nw; w++)
			r[w] |= r[w - nw];
	if (j >= a->cdel) {
		const uint64_t *td = TR + (size_t)(j - a->cdel) * nw;
		for (size_t w = 0; w < nw; w++)
			r[w] |= td[w] & a->P[w];
	}
	follow_of(a, r, tr);
	for (;;) {
		uint64_t any = 0;
		for (size_t w = 0; w < nw; w++) {
			t[w] = tr[w] & A[w] & ~r[w];
			r[w] |= t[w];
			any |= t[w];
		}
		if (any == 0)
			break;
		follow_of(a, t, t + nw);
		for (size_t w = 0; w < nw; w++)
			tr[w] |= t[nw + w];
	}
}

/* As re_scan_all, with a's costs: bit i - warm for each end text[i] of a
 * match of total cost k or less. */
void
re_scan_weighted(const struct re_nfa *a, long k, const unsigned char *text,
    size_t from, size_t to, size_t warm, unsigned char eol, uint64_t *bitmap)
{
	if (k < 0)
		return;
	const size_t nw = a->nw, rows = (size_t)k + 1;
	uint64_t *R = xcalloc((3 * rows + 2) * nw, sizeof(uint64_t));
	uint64_t *N = R + rows * nw, *TR = N + rows * nw, *t = TR + rows * nw;
	size_t ls = from;
	int before = RE_EDGE;

	for (size_t i = from; i < to || ls < to; i++) {
		const int end = i == to || text[i] == eol;
		const int ctx = before * 3 + (end ? RE_EDGE : a->side[text[i]]);
		for (size_t j = 0; j < rows; j++)
			close_w(a, (long)j, ctx, !a->bol || i == ls, R, TR, t);
		if (meets(R + (size_t)k * nw, a->final, nw) &&
		    (!a->eol || end)) {
			size_t at = i > ls ? i - 1 : i;
			if (at >= warm)
				hit(bitmap, at - warm);
		}
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
			if ((long)j >= a->cins) {
				const uint64_t *ri = R + (j - (size_t)a->cins) *
				    nw;
				for (size_t w = 0; w < nw; w++)
					n[w] |= ri[w];
			}
			if ((long)j >= a->csub) {
				const uint64_t *ts = TR + (j - (size_t)a->csub) *
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
