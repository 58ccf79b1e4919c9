/*
 * refine.c: for a record the scan selected, the least cost of a match and
 * the matched part, by plain dynamic programming over the record (records
 * are short next to the text, and only selected ones come here).
 *
 * D[i][j] is the least cost of matching the first i pattern bytes against a
 * part of the record that ends before byte j and starts at an allowed start.
 * The matched part (-o, --color) ends at the first end where a match within
 * k ends, moved on while the cost keeps dropping; its start is found by a
 * reverse pass from that end: the latest allowed start giving the same cost
 * (the shortest such part).
 */
#include <ctype.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "edits.h"
#include "hostmatch.h"
#include "refine.h"
#include "regex.h"
#include "utf8.h"
#include "util.h"

#define INF (INT_MAX / 2)

static const struct patset *ps;
static enum rf_mode mode;
static unsigned char eol;	/* the record terminator, never in a record */
/* UTF-8 mode: the record being refined as symbols (utf8.h), per thread:
 * its word flags stand in for isword() of its bytes. */
static __thread struct u8view view;
static __thread const unsigned char *wordv;
static __thread uint64_t *hits;		/* may_match's bitmap */
static __thread size_t nhits;

void
rf_init(const struct patset *set, enum rf_mode m, unsigned char terminator)
{
	ps = set;
	mode = m;
	eol = terminator;
}

void
rf_free(void)
{
	u8_view_free(&view);
	free(hits);
	hits = NULL;
	nhits = 0;
}

/* Is character j of the record a word character? */
static int
isword(const unsigned char *line, size_t j)
{
	if (wordv != NULL)
		return wordv[j];
	return (line[j] < 0x80 && isalnum(line[j])) || line[j] == '_';
}

/* May a match start before byte j of the record? */
static int
start_ok(const unsigned char *line, size_t j)
{
	if (mode == RF_LINE)
		return j == 0;
	if (mode == RF_WORD)
		return j == 0 || !isword(line, j - 1);
	return 1;
}

/* May a match end before byte j? */
static int
end_ok(const unsigned char *line, size_t len, size_t j)
{
	if (mode == RF_LINE)
		return j == len;
	if (mode == RF_WORD)
		return j == len || !isword(line, j);
	return 1;
}

/* Does position i of p differ from unit c?  Its PEq table says it, for
 * classes as for bytes or symbols (-i folds ASCII there; other characters
 * are folded in their symbols). */
static int
differ(const struct pattern *p, size_t i, unsigned char c)
{
	return !pat_has(p, i, c);
}

static int
min3(int a, int b, int c)
{
	int m = a < b ? a : b;

	return m < c ? m : c;
}

/*
 * Forward pass of one pattern over line[from, len).  first = 0: returns the
 * least cost at an allowed end (or INF), *end the leftmost such end.
 * first = 1: stops at the first allowed end within k, extended while the
 * cost keeps dropping (so "mer" grows to "mercy"); returns its cost.
 */
static int
forward(const struct pattern *p, const unsigned char *line, size_t len,
    size_t from, size_t *end, int first)
{
	const size_t n = p->len;
	int col[n + 1];		/* one DP column (per thread: on the stack) */
	int best = INF;

	col[0] = start_ok(line, from) ? 0 : INF;
	for (size_t i = 1; i <= n; i++)
		col[i] = col[i - 1] + 1 < INF ? col[i - 1] + 1 : INF;
	if (end_ok(line, len, from)) {
		best = col[n];
		*end = from;
	}
	for (size_t j = from + 1; j <= len; j++) {
		unsigned char c = line[j - 1];
		int diag = col[0];

		if (first && best <= ps->k && col[n] > best)
			break;
		col[0] = start_ok(line, j) ? 0 :
		    col[0] + 1 < INF ? col[0] + 1 : INF;
		for (size_t i = 1; i <= n; i++) {
			int up = col[i];
			col[i] = min3(diag + differ(p, i - 1, c), up + 1,
			    col[i - 1] + 1);
			if (col[i] > INF)
				col[i] = INF;
			diag = up;
		}
		if (col[n] < best && end_ok(line, len, j)) {
			best = col[n];
			*end = j;
		}
	}
	return best;
}

/* Reverse pass: the latest allowed start s >= from with a match of cost
 * exactly 'cost' over line[s, end). */
static size_t
backward(const struct pattern *p, const unsigned char *line, size_t from,
    size_t end, int cost)
{
	const size_t n = p->len;
	int col[n + 1];

	for (size_t i = 0; i <= n; i++)
		col[i] = (int)i;
	if (col[n] == cost && start_ok(line, end))
		return end;
	for (size_t j = end; j-- > from;) {
		unsigned char c = line[j];
		int diag = col[0];
		col[0]++;
		for (size_t i = 1; i <= n; i++) {
			int up = col[i];
			col[i] = min3(diag + differ(p, n - i, c), up + 1,
			    col[i - 1] + 1);
			diag = up;
		}
		if (col[n] == cost && start_ok(line, j))
			return j;
	}
	return from;
}

/*
 * An expression's automaton (regex.c) over line[from, len), as forward()
 * for a pattern: cost[s] is the least cost of a part of the line, from an
 * allowed start, that ends here in state s; st[s] its earliest start among
 * those of that cost.  A text byte moves along the automaton (a match, or
 * a substitution for 1), stays (an insertion, 1); a position may be
 * skipped (a deletion, 1: the closure below); an assertion state is
 * entered where it holds, for nothing.  With first, ties extend the end
 * of the same start (so [0-9]+ takes the whole number, and x*(b|a) in
 * "ba" is "b", then "a", as grep -o says).  Returns the cost; *end, *start.
 */
static int
re_forward(const struct pattern *p, const unsigned char *line, size_t len,
    size_t from, size_t *end, size_t *start, int first)
{
	const struct re_nfa *a = p->re;
	const size_t ns = a->nstate, nw = a->nw;
	int *cost = xreallocarray(NULL, 2 * ns, sizeof(int)), *nc = cost + ns;
	size_t *st = xreallocarray(NULL, 2 * ns, sizeof(size_t)), *nst = st + ns;
	int best = INF;

#define FOLLOWS(s, t) (a->follow[(s) * nw + (t) / 64] >> ((t) % 64) & 1)
#define IS_FINAL(s) (a->final[(s) / 64] >> ((s) % 64) & 1)
#define READS(t) (a->P[(t) / 64] >> ((t) % 64) & 1)
#define HOLDS(t) (A[(t) / 64] >> ((t) % 64) & 1)
#define BETTER(c1, s1, c2, s2) ((c1) < (c2) || ((c1) == (c2) && (s1) < (s2)))
	for (size_t s = 0; s < ns; s++) {
		cost[s] = INF;
		st[s] = from;
	}
	*end = *start = from;
	for (size_t j = from;; j++) {
		if (j > from) {
			unsigned char c = line[j - 1];
			for (size_t s = 0; s < ns; s++) {
				nc[s] = cost[s] < INF ? cost[s] + 1 : INF;
				nst[s] = st[s];
			}
			for (size_t s = 0; s < ns; s++) {
				if (cost[s] >= INF)
					continue;
				for (size_t t = 1; t < ns; t++) {
					if (!FOLLOWS(s, t) || !READS(t))
						continue;
					int v = cost[s] + !(a->B[(size_t)c * nw +
					    t / 64] >> (t % 64) & 1);
					if (BETTER(v, st[s], nc[t], nst[t])) {
						nc[t] = v;
						nst[t] = st[s];
					}
				}
			}
			int *ti = cost;
			cost = nc;
			nc = ti;
			size_t *ts = st;
			st = nst;
			nst = ts;
		}
		if (start_ok(line, j) && (!a->bol || j == 0) &&
		    BETTER(0, j, cost[0], st[0])) {
			cost[0] = 0;
			st[0] = j;
		}
		/* Deletions (1), and assertions that hold here (0): relax
		 * along follow until nothing changes. */
		const uint64_t *A = a->A + (size_t)((j == 0 ? RE_EDGE :
		    re_side(line[j - 1])) * 3 + (j == len ? RE_EDGE :
		    re_side(line[j]))) * nw;
		for (int changed = 1; changed;) {
			changed = 0;
			for (size_t s = 0; s < ns; s++) {
				if (cost[s] >= INF)
					continue;
				for (size_t t = 1; t < ns; t++) {
					int d = READS(t) ? 1 : 0;
					if (FOLLOWS(s, t) && (d || HOLDS(t)) &&
					    BETTER(cost[s] + d, st[s], cost[t],
					    st[t])) {
						cost[t] = cost[s] + d;
						st[t] = st[s];
						changed = 1;
					}
				}
			}
		}
		int fin = INF;
		size_t fst = j;
		for (size_t s = 0; s < ns; s++)
			if (IS_FINAL(s) && BETTER(cost[s], st[s], fin, fst)) {
				fin = cost[s];
				fst = st[s];
			}
		if (first && best <= ps->k && fin > best)
			break;
		if (end_ok(line, len, j) && (!a->eol || j == len) &&
		    (fin < best || (first && fin == best && fin < INF &&
		    fst == *start))) {
			best = fin;
			*end = j;
			*start = fst;
		}
		if (j == len)
			break;
	}
#undef FOLLOWS
#undef IS_FINAL
#undef READS
#undef HOLDS
#undef BETTER
	free(cost < nc ? cost : nc);
	free(st < nst ? st : nst);
	return best;
}

/* May pattern p match within k somewhere in t[0, m)?  Myers' bit-parallel
 * scan (hostmatch.c) answers in O(m) where forward()'s DP takes O(m n):
 * with many patterns (-o, --color) most of them are ruled out so. */
static int
may_match(const struct pattern *p, const unsigned char *t, size_t m)
{
	size_t words = (m + 63) / 64;

	if (p->re != NULL || p->len <= (size_t)ps->k)
		return 1;
	if (words > nhits) {
		nhits = 2 * words;
		hits = xreallocarray(hits, nhits, sizeof(*hits));
	}
	memset(hits, 0, words * sizeof(*hits));
	hm_scan_range(p, ps->k, t, 0, m, 0, eol, hits);
	for (size_t w = 0; w < words; w++)
		if (hits[w] != 0)
			return 1;
	return 0;
}

/* Runs forward() for every pattern (re_forward() for every expression
 * of ps->re); keeps the least cost (then the leftmost end), or with first
 * the leftmost end (then the least cost).  *start: the start an
 * expression's pass found (backward() finds a pattern's). */
static int
best_of(const unsigned char *line, size_t len, size_t from, size_t *end,
    size_t *start, const struct pattern **bp, int first)
{
	int best = INF;

	*bp = NULL;
	for (size_t x = 0; x < ps->npat + ps->nre; x++) {
		const struct pattern *pt = x < ps->npat ? &ps->pat[x] :
		    &ps->re[x - ps->npat];
		size_t e = 0, s = 0;
		int c;
		if (first && ps->npat + ps->nre > 1 &&
		    !may_match(pt, line + from, len - from))
			continue;
		if (pt->re != NULL)
			c = re_forward(pt, line, len, from, &e, &s, first);
		else
			c = forward(pt, line, len, from, &e, first);
		if (c > (first ? ps->k : INF - 1))
			continue;
		if (*bp == NULL || (first ? e < *end || (e == *end && c < best) :
		    c < best || (c == best && e < *end))) {
			best = c;
			*end = e;
			*start = s;
			*bp = pt;
		}
	}
	return best;
}

/* UTF-8 mode: turns the record into symbols (view), and a byte offset in
 * it into a symbol index; the bytes as they are otherwise. */
static const unsigned char *
enter(const unsigned char *line, size_t *len, size_t *from)
{
	if (ps->u8 == NULL)
		return line;
	u8_view(ps->u8, line, *len, &view);
	wordv = view.word;
	*from = u8_view_index(&view, *from);
	*len = view.n;
	return view.sym;
}

/* A symbol index back to the byte offset (in UTF-8 mode). */
static size_t
byte_at(size_t i)
{
	return ps->u8 != NULL ? view.off[i] : i;
}

/* Returns the least cost of a match of any pattern in the record, or INF
 * when none can match (e.g. -x and a record far longer than the pattern). */
int
rf_cost(const unsigned char *line, size_t len)
{
	const struct pattern *bp;
	size_t from = 0, e, s;

	line = enter(line, &len, &from);
	return best_of(line, len, 0, &e, &s, &bp, 0);
}

/* Does pattern p occur at line[s] (k = 0), at allowed start and end? */
static int
exact_at(const struct pattern *p, const unsigned char *line, size_t len,
    size_t s)
{
	if (!start_ok(line, s) || !end_ok(line, len, s + p->len))
		return 0;
	for (size_t i = 0; i < p->len; i++)
		if (differ(p, i, line[s + i]))
			return 0;
	return 1;
}

/* k = 0: the leftmost occurrence of any pattern in line[from, len), the
 * longest one there, as grep -F; returns 0, or INF when there is none. */
static int
find_exact(const unsigned char *line, size_t len, size_t from,
    size_t *start, size_t *end, const struct pattern **pp)
{
	size_t bs = SIZE_MAX, be = 0;

	for (size_t p = 0; p < ps->npat; p++) {
		const struct pattern *pt = &ps->pat[p];
		for (size_t s = from; s + pt->len <= len && s <= bs; s++) {
			if (!exact_at(pt, line, len, s))
				continue;
			if (s < bs || s + pt->len > be) {
				bs = s;
				be = s + pt->len;
				*pp = pt;
			}
			break;
		}
	}
	if (bs == SIZE_MAX)
		return INF;
	*start = bs;
	*end = be;
	return 0;
}

/*
 * Finds the next matched part in line[from, len).  k = 0: the leftmost
 * occurrence of any pattern, the longest there (as grep).  k > 0: the first
 * end where a match within k ends (extended while its cost drops), over all
 * patterns; its start is the latest one giving that cost.  Sets [*start,
 * *end) and returns the cost, or returns INF when no match is left.
 */
int
rf_find(const unsigned char *line, size_t len, size_t from, size_t *start,
    size_t *end)
{
	const struct pattern *bp;

	return rf_find_pat(line, len, from, start, end, &bp);
}

/* rf_find, also giving the pattern that matched (--show-edits, --json). */
int
rf_find_pat(const unsigned char *line, size_t len, size_t from,
    size_t *start, size_t *end, const struct pattern **pp)
{
	int c;

	*pp = NULL;
	line = enter(line, &len, &from);
	if (ps->k == 0 && ps->nre == 0)
		c = find_exact(line, len, from, start, end, pp);
	else if ((c = best_of(line, len, from, end, start, pp, 1)) > ps->k ||
	    *pp == NULL)
		c = INF;
	else if ((*pp)->re == NULL)
		*start = backward(*pp, line, from, *end, c);
	if (c < INF) {
		*start = byte_at(*start);
		*end = byte_at(*end);
	}
	return c;
}

/*
 * The match of the record's least cost (rf_cost's): its leftmost end, the
 * latest start giving that cost, and its pattern (the first one of that
 * cost and end).  Returns the cost, or INF when none can match.
 */
int
rf_best(const unsigned char *line, size_t len, size_t *start, size_t *end,
    const struct pattern **pp)
{
	size_t from = 0;
	int c;

	line = enter(line, &len, &from);
	c = best_of(line, len, 0, end, start, pp, 0);
	if (*pp == NULL)
		return INF;
	if ((*pp)->re == NULL)
		*start = backward(*pp, line, 0, *end, c);
	*start = byte_at(*start);
	*end = byte_at(*end);
	return c;
}

/*
 * --show-edits: the alignment of the matched part t[0, m) with pattern p,
 * over characters in UTF-8 mode.  rf_ops returns the operations (ed_ops)
 * and sets *off to the byte offset of each character of t (off[n] = m),
 * or to NULL when characters are bytes; the caller frees both.
 */
char *
rf_ops(const struct pattern *p, const unsigned char *t, size_t m,
    size_t *nops, size_t **off)
{
	struct u8view v = { NULL, NULL, NULL, 0, 0 };
	char *ops;

	*off = NULL;
	if (ps->u8 == NULL)
		return p->cls ? ed_ops_peq(p->peq, p->nwords, p->len, t, m,
		    nops) : ed_ops(p->str, p->len, t, m, ps->icase, nops);
	u8_view(ps->u8, t, m, &v);
	ops = p->cls ? ed_ops_peq(p->peq, p->nwords, p->len, v.sym, v.n, nops) :
	    ed_ops(p->str, p->len, v.sym, v.n, ps->icase, nops);
	*off = v.off;
	v.off = NULL;
	u8_view_free(&v);
	return ops;
}

/* The CIGAR string of that alignment. */
char *
rf_cigar(const struct pattern *p, const unsigned char *t, size_t m)
{
	size_t nops, *off;
	char *ops = rf_ops(p, t, m, &nops, &off), *s = ed_cigar(ops, nops);

	free(ops);
	free(off);
	return s;
}
