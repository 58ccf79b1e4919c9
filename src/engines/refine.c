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
#include "multi.h"
#include "refine.h"
#include "../regex/regex.h"
#include "../base/utf8.h"
#include "../base/util.h"

#define INF (INT_MAX / 2)

static const struct patset *ps;
static enum rf_mode mode;
static int line_set;	/* rf_cost asks hm_line_in (rf_init) */
static unsigned char eol;	/* the record terminator, never in a record */
/* AGREP_GPU_REFINE (rf_init): all, cand or unset (the tests' paths) */
static int refine_all, refine_cand;
/* UTF-8 mode: the record being refined as symbols (utf8.h), per thread:
 * its word flags stand in for isword() of its bytes. */
static __thread struct u8view view;
static __thread const unsigned char *wordv;
/* ... the record it holds, and the one the caller is looking through
 * (rf_hold): its parts (-o, --color) are found without converting it
 * again for each (a 50 KB line of 10,000 parts took 1.1 s, grep 3 ms) */
static __thread const unsigned char *viewed, *held;
static __thread size_t heldlen;
static __thread uint64_t *hits;		/* may_match's bitmap */
static __thread size_t nhits;
/* While a record is held: no match of pattern x within k starting at or
 * after nxfrom ends before nx[x] (SIZE_MAX: none ends); nxon, nx is set
 * for the record (first_end) */
static __thread size_t *nx, nnx, nxfrom;
static __thread int nxon, onheld;	/* (onheld: refining the held one) */
/* ... and of a long held record (part_from), where a match of any pattern
 * within k ends: bit j, one ending at unit j (inclusive); endson, ends
 * is set for the record */
static __thread uint64_t *ends;
static __thread size_t nends, espan, elen; /* (part_from's span, len) */
static __thread int endson;
/* candidates()' arrays (struct cands) */
static __thread size_t *cand_list, cand_cap;
static __thread unsigned char *cand_flag;

void
rf_init(const struct patset *set, enum rf_mode m, unsigned char terminator)
{
	const char *e = getenv("AGREP_GPU_REFINE");

	ps = set;
	mode = m;
	eol = terminator;
	/* (read once: rf_all was asked on every record's every part) */
	refine_all = e != NULL && strcmp(e, "all") == 0;
	refine_cand = e != NULL && strcmp(e, "cand") == 0;
	/* -x at k = 0 with plain patterns, an empty one among them (it makes
	 * every record a candidate: pattern.c's all_lines): a record is
	 * within k when it is one of them, a lookup in hm_lines' set rather
	 * than the shared filter's walk over every record (`-c -F -x -f` of
	 * 13,522 words and a blank line over the Bible x8: 0.68 s, grep 0.07) */
	line_set = m == RF_LINE && set->all_lines && !refine_all &&
	    !refine_cand && hm_lines_set_ok(set);
}

void
rf_free(void)
{
	u8_view_free(&view);
	free(hits);
	hits = NULL;
	nhits = 0;
	free(nx);
	nx = NULL;
	nnx = 0;
	free(ends);
	ends = NULL;
	nends = 0;
	free(cand_list);
	free(cand_flag);
	cand_list = NULL;
	cand_flag = NULL;
	cand_cap = 0;
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

/* v + c, a cost plus an edit's (ps->cost: 1 each unless weighted; a kind
 * turned off costs RE_COST_OFF), INF when either is out of reach. */
static int
add(int v, int c)
{
	return v >= INF || c >= RE_COST_OFF || v + c > INF ? INF : v + c;
}

/* AGREP_GPU_REFINE=all: every pattern tried, forward()'s DP over the
 * whole record (the tests' slow path, which the others must equal). */
static int
rf_all(void)
{
	return refine_all;
}

/* The edits a match of cost k can hold (k itself at unit costs). */
static long
edits_in(long k)
{
	return ps->weighted ? re_costs_edits(&ps->cost, k) : k;
}

/* The longest a match of a pattern of n units with at most kk edits can
 * be: each insertion adds a unit (none with --no-indels). */
static size_t
span_len(size_t n, long kk)
{
	return ps->hamming ? n : n + (size_t)kk;
}

/* span_len of pattern p */
static size_t
span_of(const struct pattern *p, long kk)
{
	return span_len(p->len, kk);
}

/* next_end's first window (units); each next one is twice as long, up to
 * RF_WINMAX (its bitmap on the stack) */
#define RF_WIN0		256
#define RF_WINMAX	(16 * 1024)

/*
 * The end (exclusive) of the first match of pattern p with at most k
 * edits (edits_in) of a part of t[from, m) that starts at or after from
 * and ends at or after at (from <= at), whatever -w and -x allow: no
 * match of cost <= k in refine's sense ends before it.  SIZE_MAX when
 * there is none ending at or before lim.  Myers (hostmatch.c) over
 * windows from at on, each from a fresh state span_of() units before it
 * (no match within k is longer), the first RF_WIN0 units long, then
 * doubling: the cost follows the distance to the end found, O(m) for no
 * end, where forward()'s DP takes O(m n).
 */
static size_t
next_end(const struct pattern *p, long k, const unsigned char *t,
    size_t from, size_t at, size_t m, size_t lim)
{
	uint64_t bm[RF_WINMAX / 64];
	const long kk = edits_in(k);
	const size_t span = span_of(p, kk);
	size_t win = RF_WIN0;

	if (p->len <= (size_t)kk || p->len > PAT_MAXLEN)
		return at;	/* (an empty part, every pattern unit deleted;
				 * k = 0 past Myers' limit: no ends known) */
	if (lim < m)
		m = lim;	/* (units past it are not looked at) */
	/* hits are by the last byte of a part: from at - 1 on */
	for (size_t a = at > from ? at - 1 : from; a < m; a += win,
	    win = win < RF_WINMAX ? 2 * win : win) {
		const size_t b = m - a > win ? a + win : m;
		const size_t w0 = a - from > span ? a - span : from;
		memset(bm, 0, (b - a + 63) / 64 * sizeof(*bm));
		hm_scan_range(p, kk, t, w0, b, a, eol, bm);
		for (size_t w = 0; w < (b - a + 63) / 64; w++)
			if (bm[w] != 0)
				return a + 64 * w +
				    (size_t)__builtin_ctzll(bm[w]) + 1;
	}
	return SIZE_MAX;
}

/* forward()'s modes: the least cost (FW_LEAST); the first end within k
 * (FW_FIRST, best_in's first); the least cost where it is within k, any
 * cost above k where it is not (FW_WITHIN) */
enum { FW_LEAST, FW_FIRST, FW_WITHIN };

/*
 * Forward pass of one pattern over line[from, len).  FW_LEAST: returns the
 * least cost at an allowed end (or INF), *end the leftmost such end.
 * FW_WITHIN: the same where that cost is within k, else a cost above k.
 * FW_FIRST: stops at the first allowed end within k, extended while the
 * cost keeps dropping (so "mer" grows to "mercy"); returns its cost (above
 * k: none).  at: no match within k ends before it (from when unknown).
 */
static int
forward(const struct pattern *p, const unsigned char *line, size_t len,
    size_t from, size_t *end, int how, size_t at)
{
	const size_t n = p->len;
	int col[n + 1];		/* one DP column (per thread: on the stack) */
	int best = INF;
	/* but FW_LEAST: the DP starts near the end of the next match within
	 * k Myers finds (next_end), and starts again near the one after when
	 * it is far (FW_FIRST: when none was found yet); the ends between
	 * cost more than k, and a match within k is no longer than span */
	const int first = how == FW_FIRST, skip = how != FW_LEAST &&
	    p->len <= PAT_MAXLEN && !rf_all();
	const size_t span = span_of(p, edits_in(ps->k));
	size_t j = from, e = skip ? next_end(p, ps->k, line, from, at, len,
	    SIZE_MAX) : 0;

	const int ins = ps->cost.ins, del = ps->cost.del, sub = ps->cost.sub;

	if (e == SIZE_MAX)
		return INF;
	if (e > from + span)
		j = e - span;
	for (;;) {
		/* a fresh column at j */
		col[0] = start_ok(line, j) ? 0 : INF;
		for (size_t i = 1; i <= n; i++)
			col[i] = add(col[i - 1], del);
		if (end_ok(line, len, j) && col[n] < best) {
			best = col[n];
			*end = j;
		}
		for (j++; j <= len; j++) {
			unsigned char c = line[j - 1];
			int diag = col[0];

			if (first && best <= ps->k && col[n] > best)
				return best;
			col[0] = start_ok(line, j) ? 0 : add(col[0], ins);
			for (size_t i = 1; i <= n; i++) {
				int up = col[i];
				/* (--no-indels: the diagonal alone, insertions
				 * and deletions being off) */
				col[i] = min3(differ(p, i - 1, c) ?
				    add(diag, sub) : diag, add(up, ins),
				    add(col[i - 1], del));
				diag = up;
			}
			if (col[n] < best && end_ok(line, len, j)) {
				best = col[n];
				*end = j;
			}
			if (skip && (!first || best > ps->k) && j >= e) {
				if ((e = next_end(p, ps->k, line, from, j + 1,
				    len, SIZE_MAX)) == SIZE_MAX)
					return best;
				if (e > j + 1 + span)
					break;	/* far: start again there */
			}
		}
		if (j > len)
			return best;
		j = e - span;
	}
}

/* Reverse pass: the latest allowed start s >= from with a match of cost
 * exactly 'cost' over line[s, end). */
static size_t
backward(const struct pattern *p, const unsigned char *line, size_t from,
    size_t end, int cost)
{
	const size_t n = p->len;
	int col[n + 1];

	const int ins = ps->cost.ins, del = ps->cost.del, sub = ps->cost.sub;

	if (ps->hamming)	/* a match is as long as its pattern */
		return end >= from + n ? end - n : from;
	col[0] = 0;
	for (size_t i = 1; i <= n; i++)
		col[i] = add(col[i - 1], del);
	if (col[n] == cost && start_ok(line, end))
		return end;
	for (size_t j = end; j-- > from;) {
		unsigned char c = line[j];
		int diag = col[0];
		col[0] = add(col[0], ins);
		for (size_t i = 1; i <= n; i++) {
			int up = col[i];
			col[i] = min3(differ(p, n - i, c) ? add(diag, sub) :
			    diag, add(up, ins), add(col[i - 1], del));
			diag = up;
		}
		if (col[n] == cost && start_ok(line, j))
			return j;
	}
	return from;
}

/* The latest start s >= from of a match of p of cost exactly cost ending
 * at end (the shortest such part, as -o takes it): the sites of --hits
 * (sites.c). */
size_t
rf_start(const struct pattern *p, const unsigned char *line, size_t from,
    size_t end, int cost)
{
	return backward(p, line, from, end, cost);
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
#define RE_LONGEST	2	/* re_forward's first: k = 0, leftmost-longest */

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
				nc[s] = add(cost[s], ps->cost.ins);
				nst[s] = st[s];
			}
			for (size_t s = 0; s < ns; s++) {
				if (cost[s] >= INF)
					continue;
				for (size_t t = 1; t < ns; t++) {
					if (!FOLLOWS(s, t) || !READS(t))
						continue;
					int v = a->B[(size_t)c * nw + t / 64] >>
					    (t % 64) & 1 ? cost[s] :
					    add(cost[s], ps->cost.sub);
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
		    a->side[line[j - 1]]) * 3 + (j == len ? RE_EDGE :
		    a->side[line[j]])) * nw;
		for (int changed = 1; changed;) {
			changed = 0;
			for (size_t s = 0; s < ns; s++) {
				if (cost[s] >= INF)
					continue;
				for (size_t t = 1; t < ns; t++) {
					int r = READS(t) ? 1 : 0;
					int v = r ? add(cost[s], ps->cost.del) :
					    cost[s];
					if (FOLLOWS(s, t) && (r || HOLDS(t)) &&
					    BETTER(v, st[s], cost[t], st[t])) {
						cost[t] = v;
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
		if (first == RE_LONGEST) {
			/* An exact match ending here: fst is its earliest
			 * start; keep the earliest start, then the latest
			 * end from it (grep's leftmost-longest). */
			if (fin == 0 && end_ok(line, len, j) &&
			    (!a->eol || j == len) && (best != 0 ||
			    fst < *start || (fst == *start && j > *end))) {
				best = 0;
				*end = j;
				*start = fst;
			}
			/* (done once no state holds an exact part from that
			 * start or before it: a long line's -o parts are
			 * not each read to its end) */
			int live = best != 0;
			for (size_t s = 0; s < ns && !live; s++)
				live = cost[s] == 0 && st[s] <= *start;
			if (j == len || !live)
				break;
			continue;
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
 * with many patterns (-o, --color) most of them are ruled out so.  A match
 * with at most k edits of any substring, whatever -w and -x allow, so a
 * pattern it rules out has no match of cost <= k in refine's sense. */
static int
may_match(const struct pattern *p, long k, const unsigned char *t, size_t m)
{
	size_t words = (m + 63) / 64;

	if (ps->weighted)	/* (the edits a match of cost k can hold) */
		k = re_costs_edits(&ps->cost, k);
	if (p->re != NULL || p->len <= (size_t)k)
		return 1;
	if (m == 0)
		return 0;	/* (no bitmap: nothing to pass memset) */
	if (words > nhits) {
		nhits = 2 * words;
		hits = xreallocarray(hits, nhits, sizeof(*hits));
	}
	memset(hits, 0, words * sizeof(*hits));
	hm_scan_range(p, k, t, 0, m, 0, eol, hits);
	for (size_t w = 0; w < words; w++)
		if (hits[w] != 0)
			return 1;
	return 0;
}

/* The end (exclusive, from t) of the first match of p (at most k edits)
 * in the window t[ws, we) that starts in it, or SIZE_MAX: Myers from a
 * fresh state at ws. */
static size_t
window_end(const struct pattern *p, const unsigned char *t, size_t ws,
    size_t we)
{
	uint64_t bm[4] = { 0, 0, 0, 0 };

	if (we - ws > 64 * 4)
		return ws;	/* (no covered pattern has such windows) */
	hm_scan_range(p, ps->k, t, ws, we, ws, eol, bm);
	for (size_t w = 0; w < 4; w++)
		if (bm[w] != 0)
			return ws + 64 * w + (size_t)__builtin_ctzll(bm[w]) + 1;
	return SIZE_MAX;
}

/* Pattern x of the set: ps->pat[x], or expression x - npat. */
static const struct pattern *
pat_x(size_t x)
{
	return x < ps->npat ? &ps->pat[x] : &ps->re[x - ps->npat];
}

/*
 * The end (exclusive) of the first match of pattern x within k of a part
 * of line[from, len) (next_end: -w and -x allow no earlier end), from for
 * a pattern of at most k units or an expression, SIZE_MAX when there is
 * none ending at or before lim (the best end found: a later one cannot
 * win).  While the caller holds the record (rf_hold: its parts are looked
 * for from left to right), what was found is kept (nx): the next part's
 * from is no earlier, so its first end is no earlier, and a pattern with
 * no match left is not scanned again (a 40 MB line took a scan of it a
 * pattern and part).
 */
static size_t
first_end(size_t x, const unsigned char *line, size_t len, size_t from,
    size_t lim)
{
	const struct pattern *p = pat_x(x);
	size_t at = from, e;

	if (p->re != NULL || p->len <= (size_t)ps->k || p->len > PAT_MAXLEN)
		return from;
	if (rf_all())	/* (a match anywhere, as may_match) */
		return may_match(p, ps->k, line + from, len - from) ? from :
		    SIZE_MAX;
	if (onheld && (nxon == 0 || from < nxfrom)) {
		if (nnx < ps->npat) {
			nnx = ps->npat;
			nx = xreallocarray(nx, nnx, sizeof(*nx));
		}
		memset(nx, 0, ps->npat * sizeof(*nx));
		nxon = 1;
	}
	if (onheld) {
		nxfrom = from;
		if (nx[x] == SIZE_MAX || (nx[x] > lim && lim != SIZE_MAX))
			return SIZE_MAX;
		if (nx[x] > at)
			at = nx[x];
	}
	e = next_end(p, ps->k, line, from, at, len, lim);
	if (onheld)	/* (none up to lim: the first is past it) */
		nx[x] = e != SIZE_MAX || lim >= len ? e : lim + 1;
	return e;
}

/* The shared filter refine uses for ps: with RF_MINPAT patterns or more,
 * or AGREP_GPU_REFINE=cand; NULL (every pattern is tried on every record,
 * the tests' slow path) with AGREP_GPU_REFINE=all, with fewer patterns, or
 * when none is cached for this terminator. */
static const struct mflt *
refine_filter(void)
{
	if (rf_all())
		return NULL;
	if (ps->npat == 0 || ps->npat + ps->nre >= SIZE_MAX / 2 ||
	    (ps->npat < RF_MINPAT && !refine_cand))
		return NULL;
	return mf_get(ps, eol);
}

/* -x: may pattern p match the whole record line[from, len) within k?
 * Not when their lengths differ by more than its edits (each insertion or
 * deletion changes the length by one; none with --no-indels): Bible x8,
 * -c -x the, 133 ms where grep takes 34, most of it Myers' scans of the
 * lines holding "the". */
static int
line_fits(const struct pattern *p, size_t len, size_t from)
{
	if (mode != RF_LINE || p->re != NULL || from != 0)
		return 1;
	const size_t d = len > p->len ? len - p->len : p->len - len;
	return ps->hamming ? d == 0 : d <= (size_t)edits_in(ps->k);
}

/* The candidates of a record: list[0, n) (indexes into the patterns, then
 * the expressions past npat), flag[x]: CAND_NO, CAND_YES (a match within
 * k found), CAND_MAYBE (to be tried).  Both arrays are the thread's own,
 * kept from record to record (cands_end clears the flags it set): made
 * and cleared for every record, 13,523 words' flags were a sixth of a
 * -x -f run over 34 MB. */
enum { CAND_NO, CAND_YES, CAND_MAYBE };
struct cands {
	size_t *list, n;
	unsigned char *flag;
};

/* Done with c: its flags back to CAND_NO. */
static void
cands_end(struct cands *c)
{
	for (size_t i = 0; i < c->n; i++)
		c->flag[c->list[i]] = CAND_NO;
	c->n = 0;
}

/* Adds x to c as f (CAND_YES or CAND_MAYBE) unless it is there. */
static void
cand_add(struct cands *c, size_t x, unsigned char f)
{
	if (c->flag[x] == CAND_NO) {
		c->flag[x] = f;
		c->list[c->n++] = x;
	}
}

/*
 * The patterns that may match within k in t[0, m), into c.  The shared
 * filter (multi.c) proposes a window around each exact piece of a pattern
 * it covers; every match within k of such a pattern lies in one of its
 * windows (pigeonhole), so a covered pattern whose windows hold no match
 * has none and is left out.  The patterns it does not cover, those that
 * left it and the expressions are CAND_MAYBE.  Returns 0 when every
 * pattern is to be tried (refine_filter()); else the caller ends c
 * (cands_end).
 */
static int
candidates(const unsigned char *t, size_t m, struct cands *c)
{
	const struct mflt *mf = refine_filter();
	struct mf_walk w;
	struct mf_win win;
	const size_t *out;
	unsigned char *left;
	size_t nout;

	if (mf == NULL)
		return 0;
	const size_t need = ps->npat + ps->nre + 1;
	if (need > cand_cap) {
		free(cand_flag);
		cand_flag = xcalloc(need, 1);
		cand_list = xreallocarray(cand_list, need, sizeof(*cand_list));
		cand_cap = need;
	}
	c->n = 0;
	c->flag = cand_flag;
	c->list = cand_list;
	out = mf_uncovered(mf, &nout);
	for (size_t i = 0; i < nout; i++)
		cand_add(c, out[i], CAND_MAYBE);
	for (size_t r = 0; r < ps->nre; r++)
		cand_add(c, ps->npat + r, CAND_MAYBE);
	if (!mf_start(&w, mf, t, 0, m))
		return 1;
	mf_one_record(&w);
	while (mf_next(&w, &win))
		if (c->flag[win.pat] == CAND_NO &&
		    line_fits(&ps->pat[win.pat], m, 0) &&
		    window_end(&ps->pat[win.pat], t, win.ws, win.we) != SIZE_MAX)
			cand_add(c, win.pat, CAND_YES);
	if ((left = mf_end(&w)) != NULL) {
		for (size_t p = 0; p < ps->npat; p++)
			if (left[p])
				cand_add(c, p, CAND_MAYBE);
		free(left);
	}
	return 1;
}

/* The best match so far of a search with first (leftmost end within k,
 * then least cost, then earliest pattern) over line[from, len). */
struct firstbest {
	const unsigned char *line;
	size_t len, from;
	const struct pattern *bp;	/* NULL: none yet */
	size_t bx, end, start;
	int cost;
};

/* Runs forward() (re_forward()) for pattern x; keeps its match in f if it
 * is better. */
static void
first_try(struct firstbest *f, size_t x)
{
	const struct pattern *pt = pat_x(x);
	size_t e = 0, s = 0;
	int c = pt->re != NULL ? re_forward(pt, f->line, f->len, f->from, &e,
	    &s, 1) : forward(pt, f->line, f->len, f->from, &e, FW_FIRST,
	    f->from);

	if (c > ps->k)
		return;
	if (f->bp == NULL || e < f->end || (e == f->end && (c < f->cost ||
	    (c == f->cost && x < f->bx)))) {
		f->bp = pt;
		f->bx = x;
		f->end = e;
		f->start = s;
		f->cost = c;
	}
}

/* Tries pattern x (not in done, then marked) when its first match end
 * (first_end) can reach the best end found. */
static void
first_maybe(struct firstbest *f, unsigned char *done, size_t x)
{
	size_t e;

	if (done[x])
		return;
	done[x] = 1;
	e = first_end(x, f->line, f->len, f->from, f->bp != NULL ? f->end :
	    SIZE_MAX);
	if (e != SIZE_MAX && (f->bp == NULL || e <= f->end))
		first_try(f, x);
}

/* Held records this long or longer (units) have their ends within k found
 * once (part_from): the scan costs about what a few parts' searches do */
#ifndef RF_LONG
#define RF_LONG		4096
#endif

/* With part_from's ends: the first end (exclusive) of a match within k
 * after unit j, SIZE_MAX when none; (SIZE_MAX - 1 without them: any). */
static size_t
ends_after(size_t j)
{
	size_t w = j / 64;
	uint64_t b;

	if (!onheld || endson <= 0)
		return SIZE_MAX - 1;
	if (w >= (elen + 63) / 64)
		return SIZE_MAX;
	b = ends[w] & (~(uint64_t)0 << (j % 64));
	while (b == 0) {
		if (++w >= (elen + 63) / 64)
			return SIZE_MAX;
		b = ends[w];
	}
	return 64 * w + (size_t)__builtin_ctzll(b) + 1;
}

/*
 * Where the search for the next part of line[from, len) may begin: a part
 * ends at an end within k of some pattern (free starts, -w and -x aside),
 * the first one at or after from being e, and is no longer than span (the
 * longest pattern and its edits), so it starts at or after e - span; the
 * latest start giving its cost (backward()) too.  From there, the parts
 * found are the same as from from.  SIZE_MAX: no part is left.  The ends
 * come from the host engines over the whole record (hm_scan_ends), once
 * while the caller holds a record of RF_LONG units or more (a part's
 * search walked every pattern's windows from from: 312 23-mers and their
 * reverse complements, -o -b -k3 over a 10 Mbp line, took 2.2 s, -c 0.06
 * s).  from itself where they are not to be had: expressions (no bound on
 * a part's length), and the sets hm_scan_ends leaves out.
 */
static size_t
part_from(const unsigned char *line, size_t len, size_t from)
{
	const size_t words = (len + 63) / 64;
	size_t e;

	if (!onheld || len - from < RF_LONG || ps->nre > 0 || ps->npat == 0 ||
	    rf_all())
		return from;
	if (!endson) {
		if (words > nends) {
			nends = words;
			ends = xreallocarray(ends, nends, sizeof(*ends));
		}
		memset(ends, 0, words * sizeof(*ends));
		endson = hm_scan_ends(ps, line, len, eol, ends) ? 1 : -1;
		espan = span_len(ps->maxlen, edits_in(ps->k));
		elen = len;
	}
	if (endson < 0)
		return from;	/* (no ends from the engines for this set) */
	if ((e = ends_after(from)) == SIZE_MAX)
		return SIZE_MAX;
	return e - from > espan ? e - espan : from;
}

/*
 * Walks the shared filter's windows over line[from, len) in text order
 * (of their pieces) and tries each pattern whose window holds a match
 * that can end no later than the best end found (a pattern's match within
 * k ends no earlier than the first end in its windows).  A match holds one
 * of its pattern's pieces, so it ends after that piece's start: the walk
 * stops at the first piece that starts at or past the best end.  Then
 * tries the patterns that left the filter.
 */
static void
first_walk(struct firstbest *f, const struct mflt *mf, unsigned char *done)
{
	const unsigned char *t = f->line + f->from;
	struct mf_walk w;
	struct mf_win win;
	unsigned char *left;

	if (!mf_start(&w, mf, t, 0, f->len - f->from))
		return;
	mf_one_record(&w);
	while (mf_next(&w, &win)) {
		size_t e, q = f->from + w.i, a = ends_after(q);
		if (f->bp != NULL && q >= f->end)
			break;	/* later pieces start at or past the end */
		if (a == SIZE_MAX)
			break;	/* (part_from's ends) none after q */
		if (a != SIZE_MAX - 1 && a - q > espan) {
			/* a match holding a piece ends within espan of it */
			mf_skip(&w, a - espan - f->from);
			continue;
		}
		if (done[win.pat] ||
		    (f->bp != NULL && f->from + win.ws >= f->end))
			continue;
		e = window_end(&ps->pat[win.pat], t, win.ws, win.we);
		if (e == SIZE_MAX || (f->bp != NULL && f->from + e > f->end))
			continue;
		done[win.pat] = 1;
		first_try(f, win.pat);
	}
	if ((left = mf_end(&w)) != NULL) {
		for (size_t p = 0; p < ps->npat; p++)
			if (left[p])
				first_maybe(f, done, p);
		free(left);
	}
}

/*
 * best_in() with first, over the patterns that may match (the answer is
 * the same): the covered ones by the filter's windows (first_walk), then
 * those it does not cover and the expressions each by its first match
 * end.  Returns the cost (INF: none), *end, *start, *bp;
 * -1 when every pattern is to be tried (refine_filter()).
 */
static int
best_first(const unsigned char *line, size_t len, size_t from, size_t *end,
    size_t *start, const struct pattern **bp)
{
	const struct mflt *mf = refine_filter();
	struct firstbest f = { line, len, from, NULL, 0, 0, 0, INF };
	const size_t *out;
	unsigned char *done;
	size_t nout;

	if (mf == NULL)
		return -1;
	done = xcalloc(ps->npat + ps->nre + 1, 1);
	/* the walk first: the others' first ends are then looked for no
	 * further than the best end it found */
	first_walk(&f, mf, done);
	out = mf_uncovered(mf, &nout);
	for (size_t i = 0; i < nout; i++)
		first_maybe(&f, done, out[i]);
	for (size_t r = 0; r < ps->nre; r++)
		first_maybe(&f, done, ps->npat + r);
	free(done);
	*bp = f.bp;
	*end = f.end;
	*start = f.start;
	return f.bp != NULL ? f.cost : INF;
}

/* qsort order of pattern indexes. */
static int
by_index(const void *a, const void *b)
{
	const size_t *p = a, *q = b;

	return *p < *q ? -1 : *p > *q;
}

/*
 * Runs forward() for the patterns (re_forward() for the expressions of
 * ps->re), or for the candidates c only (those CAND_MAYBE only if
 * may_match says they can match within k) when c is not NULL; keeps the
 * least cost (then the leftmost end), or with first the leftmost end
 * (then the least cost), the earlier pattern on a tie; costs above k are
 * exact only with bound (forward()'s FW_WITHIN else).  Without c, a
 * pattern is skipped: with first when it has no match within k ending at
 * or before the best end (first_end), with bound when may_match says it
 * cannot reach the best cost so far.  With c, without
 * first, -w and -x, Myers (hm_least) gives a pattern's least cost and its
 * leftmost end, as forward() would.  *start: the start an expression's
 * pass found (backward() finds a pattern's).
 */
static int
best_in(const unsigned char *line, size_t len, size_t from, size_t *end,
    size_t *start, const struct pattern **bp, int first, struct cands *c,
    int bound)
{
	const size_t n = c != NULL ? c->n : ps->npat + ps->nre;
	int best = INF;

	if (c != NULL)
		qsort(c->list, c->n, sizeof(*c->list), by_index);
	*bp = NULL;
	for (size_t i = 0; i < n; i++) {
		const size_t x = c != NULL ? c->list[i] : i;
		const struct pattern *pt = pat_x(x);
		size_t e = 0, s = 0;
		int cost;
		size_t at = from;	/* (first: no match ends before) */
		if (!bound && !line_fits(pt, len, from))
			continue;
		if (c != NULL && c->flag[x] == CAND_MAYBE &&
		    !may_match(pt, ps->k, line + from, len - from))
			continue;
		if (c == NULL && first && ps->npat + ps->nre > 1 &&
		    ((at = first_end(x, line, len, from, *bp != NULL ? *end :
		    SIZE_MAX)) == SIZE_MAX ||
		    (*bp != NULL && at > *end)))
			continue;	/* (none, or it ends after the best) */
		if (bound && *bp != NULL &&
		    !may_match(pt, best, line + from, len - from))
			continue;
		if (pt->re != NULL)
			cost = re_forward(pt, line, len, from, &e, &s, first);
		else if (c != NULL && !first && mode == RF_ANY &&
		    pt->nwords == 1 && pt->len > 0 && !ps->hamming &&
		    !ps->weighted) {
			cost = hm_least(pt, line + from, len - from, &e);
			e += from;
		} else
			cost = forward(pt, line, len, from, &e, first ? FW_FIRST :
			    bound ? FW_LEAST : FW_WITHIN, at);
		if (cost > (first ? ps->k : INF - 1))
			continue;
		if (*bp == NULL || (first ? e < *end || (e == *end &&
		    cost < best) : cost < best || (cost == best && e < *end))) {
			best = cost;
			*end = e;
			*start = s;
			*bp = pt;
		}
	}
	return best;
}

/*
 * The best match of best_in() over every pattern, found among the
 * record's candidates (best_first(), candidates()): a pattern that is
 * none has no match within k, so the answer is the same whenever it is
 * within k.  When it is not and exact is set (the least cost of a record
 * with no match, for -v --show-cost, or rf_best), every pattern is tried,
 * each only if it can reach the best cost so far.
 */
static int
best_of(const unsigned char *line, size_t len, size_t from, size_t *end,
    size_t *start, const struct pattern **bp, int first, int exact)
{
	struct cands c;
	int best, some;

	if (first && (best = best_first(line, len, from, end, start, bp)) >= 0)
		return best;
	some = !first && candidates(line + from, len - from, &c);
	best = best_in(line, len, from, end, start, bp, first, some ? &c :
	    NULL, 0);
	if (!first && exact && (*bp == NULL || best > ps->k))
		best = best_in(line, len, from, end, start, bp, first, NULL, 1);
	if (some)
		cands_end(&c);
	return best;
}

/* UTF-8 mode: turns the record into symbols (view), and a byte offset in
 * it into a symbol index; the bytes as they are otherwise. */
static const unsigned char *
enter(const unsigned char *line, size_t *len, size_t *from)
{
	onheld = held != NULL && line == held && *len == heldlen;
	if (ps->u8 == NULL)
		return line;
	if (line != held || *len != heldlen || viewed != line) {
		u8_view(ps->u8, line, *len, &view);
		viewed = line;
	}
	wordv = view.word;
	*from = u8_view_index(&view, *from);
	*len = view.n;
	return view.sym;
}

/* The caller looks for the parts of the record line[0, len) until
 * rf_release: it stays as it is meanwhile (UTF-8 mode: converted once). */
void
rf_hold(const unsigned char *line, size_t len)
{
	held = line;
	heldlen = len;
	viewed = NULL;
	nxon = 0;
	endson = 0;
}

void
rf_release(void)
{
	held = NULL;
	onheld = 0;
}

/* A symbol index back to the byte offset (in UTF-8 mode). */
static size_t
byte_at(size_t i)
{
	return ps->u8 != NULL ? u8_view_byte(&view, i) : i;
}

/* Returns the least cost of a match of any pattern in the record, or INF
 * when none can match (e.g. -x and a record far longer than the pattern).
 * Without exact, a cost above k may be returned as any cost above k (only
 * whether the record is within k is asked). */
int
rf_cost(const unsigned char *line, size_t len, int exact)
{
	const struct pattern *bp;
	size_t from = 0, e, s;

	if (line_set && !exact)
		return hm_line_in(ps, line, len) ? 0 : INF;
	line = enter(line, &len, &from);
	return best_of(line, len, 0, &e, &s, &bp, 0, exact);
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

/* k = 0: the leftmost occurrence of any pattern or expression in
 * line[from, len), the longest one there, as grep -F and grep -o;
 * returns 0, or INF when there is none.  Only the record's candidates
 * (candidates()) are looked for. */
static int
find_exact(const unsigned char *line, size_t len, size_t from,
    size_t *start, size_t *end, const struct pattern **pp)
{
	struct cands c;
	int some = candidates(line + from, len - from, &c);
	size_t bs = SIZE_MAX, be = 0;

	for (size_t x = 0; x < ps->npat + ps->nre; x++) {
		const struct pattern *pt = pat_x(x);
		size_t s = from, e = 0;
		if (some && c.flag[x] == CAND_NO)
			continue;
		if (pt->re != NULL) {
			if (re_forward(pt, line, len, from, &e, &s,
			    RE_LONGEST) != 0)
				continue;
		} else {
			while (s + pt->len <= len && s <= bs &&
			    !exact_at(pt, line, len, s))
				s++;
			if (s + pt->len > len || s > bs)
				continue;
			e = s + pt->len;
		}
		if (s < bs || (s == bs && e > be)) {
			bs = s;
			be = e;
			*pp = pt;
		}
	}
	if (some)
		cands_end(&c);
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
	size_t at;
	int c;

	*pp = NULL;
	line = enter(line, &len, &from);
	if (ps->k == 0)
		c = find_exact(line, len, from, start, end, pp);
	else if ((at = part_from(line, len, from)) == SIZE_MAX ||
	    (c = best_of(line, len, at, end, start, pp, 1, 0)) > ps->k ||
	    *pp == NULL)
		c = INF;
	else if ((*pp)->re == NULL)
		*start = backward(*pp, line, at, *end, c);
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
	c = best_of(line, len, 0, end, start, pp, 0, 1);
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
	struct u8view v = { 0 };
	char *ops;

	*off = NULL;
	if (ps->hamming && ps->u8 == NULL && m == p->len) {
		/* --no-indels: position by position */
		ops = xmalloc(m + 1);
		for (size_t i = 0; i < m; i++)
			ops[i] = pat_has(p, i, t[i]) ? '=' : 'X';
		*nops = m;
		return ops;
	}
	if (ps->u8 == NULL)
		return p->cls ? ed_ops_peq(p->peq, p->nwords, p->len, t, m,
		    &ps->cost, nops) : ed_ops(p->str, p->len, t, m, ps->icase,
		    &ps->cost, nops);
	u8_view(ps->u8, t, m, &v);
	if (ps->hamming && v.n == p->len) {
		ops = xmalloc(v.n + 1);
		for (size_t i = 0; i < v.n; i++)
			ops[i] = pat_has(p, i, v.sym[i]) ? '=' : 'X';
		*nops = v.n;
	} else
		ops = p->cls ? ed_ops_peq(p->peq, p->nwords, p->len, v.sym,
		    v.n, &ps->cost, nops) : ed_ops(p->str, p->len, v.sym, v.n,
		    ps->icase, &ps->cost, nops);
	if (!v.ascii) {	/* (else characters are bytes) */
		*off = v.off;
		v.off = NULL;
	}
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
