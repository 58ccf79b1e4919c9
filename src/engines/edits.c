/*
 * edits.c: --show-edits.  The alignment of a matched part with the pattern
 * that matched it, by dynamic programming and a traceback, printed as a
 * CIGAR string: runs of '=' (equal bytes), 'X' (a substituted byte), 'I' (a
 * text byte not in the pattern) and 'D' (a pattern byte missing from the
 * text), e.g. "2=2X1=".
 *
 * Of the alignments of least cost, the traceback from the ends of pattern
 * and text takes a match or substitution ('=' or 'X') whenever one lies on
 * a least-cost alignment, else a deletion ('D'), else an insertion ('I').
 * Read left to right, insertions and deletions come as early as they can.
 * Everything here uses locals and the heap: worker threads call it at once.
 */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "edits.h"
#include "../base/util.h"

/* What a pattern position is compared by: its byte, or (peq not NULL)
 * the PEq table of a pattern with classes (regex.c), nw words a row. */
struct cmp {
	const unsigned char	*pat;
	const uint64_t		*peq;
	size_t			 nw;
	int			 icase;
	unsigned		 ins, del, sub;	/* the edits' costs */
};

/* A comparison's costs: w's (regex.h's struct re_costs), 1 each without. */
static void
cmp_costs(struct cmp *q, const struct re_costs *w)
{
	q->ins = w != NULL ? (unsigned)w->ins : 1;
	q->del = w != NULL ? (unsigned)w->del : 1;
	q->sub = w != NULL ? (unsigned)w->sub : 1;
}

static int
differ_at(const struct cmp *q, size_t i, unsigned char b)
{
	if (q->peq != NULL)
		return !(q->peq[(size_t)b * q->nw + i / 64] >> (i % 64) & 1);
	return q->icase ? tolower(q->pat[i]) != tolower(b) : q->pat[i] != b;
}

static char *align(const struct cmp *, size_t n, const unsigned char *text,
    size_t m, size_t *nops);

#define ED_INF	(UINT_MAX / 4)

/* v + c, ED_INF for a kind turned off (RE_COST_OFF, or more) or a cost
 * out of reach. */
static unsigned
ed_add(unsigned v, unsigned c)
{
	return v >= ED_INF || c >= RE_COST_OFF || v + c >= ED_INF ? ED_INF :
	    v + c;
}

/*
 * Aligns pat[0, n) with text[0, m) at least cost; returns the operations
 * ('=', 'X', 'I', 'D') from left to right, malloc'd, and their number in
 * *nops.
 */
char *
ed_ops(const unsigned char *pat, size_t n, const unsigned char *text,
    size_t m, int icase, const struct re_costs *w, size_t *nops)
{
	struct cmp q = { pat, NULL, 0, icase, 1, 1, 1 };

	cmp_costs(&q, w);
	return align(&q, n, text, m, nops);
}

/* The same for a pattern of n positions given by its PEq table (nw words
 * a row): position i matches the bytes whose row has bit i. */
char *
ed_ops_peq(const uint64_t *peq, size_t nw, size_t n,
    const unsigned char *text, size_t m, const struct re_costs *w,
    size_t *nops)
{
	struct cmp q = { NULL, peq, nw, 0, 1, 1, 1 };

	cmp_costs(&q, w);
	return align(&q, n, text, m, nops);
}

static char *
align(const struct cmp *q, size_t n, const unsigned char *text, size_t m,
    size_t *nops)
{
	const size_t w = m + 1;
	unsigned *d = xreallocarray(NULL, (n + 1) * w, sizeof(*d));
	char *ops = xmalloc(n + m + 1), *rev = xmalloc(n + m + 1);
	size_t i = n, j = m, k = 0;

	d[0] = 0;
	for (size_t jj = 1; jj <= m; jj++)
		d[jj] = ed_add(d[jj - 1], q->ins);
	for (size_t ii = 1; ii <= n; ii++) {
		unsigned *row = d + ii * w, *up = row - w;
		row[0] = ed_add(up[0], q->del);
		for (size_t jj = 1; jj <= m; jj++) {
			unsigned v = differ_at(q, ii - 1, text[jj - 1]) ?
			    ed_add(up[jj - 1], q->sub) : up[jj - 1];
			if (ed_add(up[jj], q->del) < v)
				v = ed_add(up[jj], q->del);
			if (ed_add(row[jj - 1], q->ins) < v)
				v = ed_add(row[jj - 1], q->ins);
			row[jj] = v;
		}
	}
	while (i > 0 || j > 0) {
		unsigned here = d[i * w + j];
		int x = i > 0 && j > 0 ? differ_at(q, i - 1, text[j - 1]) : 0;
		if (i > 0 && j > 0 && (x ? ed_add(d[(i - 1) * w + j - 1], q->sub) :
		    d[(i - 1) * w + j - 1]) == here) {
			rev[k++] = x ? 'X' : '=';
			i--;
			j--;
		} else if (i > 0 && (j == 0 || ed_add(d[(i - 1) * w + j],
		    q->del) == here)) {
			rev[k++] = 'D';
			i--;
		} else {
			rev[k++] = 'I';
			j--;
		}
	}
	for (size_t t = 0; t < k; t++)
		ops[t] = rev[k - 1 - t];
	ops[k] = '\0';
	free(rev);
	free(d);
	*nops = k;
	return ops;
}

/* Returns the CIGAR string of ops[0, nops), malloc'd; "*" when empty. */
char *
ed_cigar(const char *ops, size_t nops)
{
	char *s = xmalloc(nops * 21 + 2), *p = s;

	if (nops == 0)
		strcpy(s, "*");
	for (size_t i = 0; i < nops;) {
		size_t r = i;
		while (r < nops && ops[r] == ops[i])
			r++;
		p += sprintf(p, "%zu%c", r - i, ops[i]);
		i = r;
	}
	return s;
}

/* The CIGAR string of pat[0, n) aligned with text[0, m), malloc'd. */
char *
ed_cigar_of(const unsigned char *pat, size_t n, const unsigned char *text,
    size_t m, int icase)
{
	size_t nops;
	char *ops = ed_ops(pat, n, text, m, icase, NULL, &nops);
	char *s = ed_cigar(ops, nops);

	free(ops);
	return s;
}

/* The SGR sequence for substituted and inserted bytes under --color:
 * GREP_COLORS' ed= capability, default "01;33" (bold yellow).  Read once,
 * at start-up (out_init), before worker threads format. */
const char *
ed_color(void)
{
	static char sgr[32] = "01;33";
	static int done;
	const char *v = getenv("GREP_COLORS");

	if (done)
		return sgr;
	done = 1;
	while (v != NULL && *v != '\0') {
		size_t n = strcspn(v, ":");
		if (strncmp(v, "ed=", 3) == 0 && n - 3 < sizeof(sgr)) {
			memcpy(sgr, v + 3, n - 3);
			sgr[n - 3] = '\0';
		}
		v += n + (v[n] == ':');
	}
	return sgr;
}
