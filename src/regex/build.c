/*
 * build.c: re_compile, what a parsed expression is (regex_int.h: a literal,
 * a fixed sequence of classes, a small finite language as its words, or
 * an automaton), and the automaton: the Glushkov construction over the
 * parser's tree, its tables (T, and TC with assertion states), the
 * prefilter's literal runs and spans of them, the anchored branches of a
 * top alternation; re_nfa_free, re_result_free.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "regex_int.h"
#include "../base/utf8.h"
#include "../base/util.h"

/*
 * The parser makes chains of N_CAT (a string) and of N_ALT (alternatives)
 * left-deep: ((a b) c) d.  The functions below that run before the
 * automaton's size is known walk such a chain's left spine in a loop and
 * recurse only into its right-hand children: a pattern of 2 MB, or 300,000
 * alternatives, overflowed the stack by recursing down the spine.
 */

/* The left spine under n of nodes of operator op, top first: *len nodes
 * (xmalloc'd; NULL when n is not one), their leftmost child in *leaf. */
static int *
spine(const struct parser *p, int n, int op, size_t *len, int *leaf)
{
	size_t cap = 0;
	int *s = NULL;

	*len = 0;
	for (; p->nd[n].op == op; n = p->nd[n].a) {
		if (*len == cap) {
			cap = cap ? 2 * cap : 16;
			s = xreallocarray(s, cap, sizeof(*s));
		}
		s[(*len)++] = n;
	}
	*leaf = n;
	return s;
}

/* How deep the functions here and the automaton's construction recurse
 * into the tree under root (a chain's left spine walked in a loop, a node
 * of another operator there one more), counted in a loop; stops past
 * RE_MAXDEPTH. */
static size_t
tree_depth(const struct parser *p, int root)
{
	struct at { int n; size_t d; } *st = NULL;
	size_t sp = 0, cap = 0, max = 0;

#define PUSH(node, depth) do {						\
	if (sp == cap) {						\
		cap = cap ? 2 * cap : 64;				\
		st = xreallocarray(st, cap, sizeof(*st));		\
	}								\
	st[sp].n = (node);						\
	st[sp++].d = (depth);						\
} while (0)
	PUSH(root, 1);
	while (sp > 0 && max <= RE_MAXDEPTH) {
		const struct at t = st[--sp];
		const struct node *x = &p->nd[t.n];
		if (t.d > max)
			max = t.d;
		switch (x->op) {
		case N_CAT:
		case N_ALT:
			PUSH(x->a, t.d + (p->nd[x->a].op != x->op));
			PUSH(x->b, t.d + 1);
			break;
		case N_REP:
			PUSH(x->a, t.d + 1);
			break;
		default:
			break;
		}
	}
#undef PUSH
	free(st);
	return max;
}

/* Does the tree under n hold an operator other than N_CAT? */
static int
has_ops(const struct parser *p, int n)
{
	for (; p->nd[n].op == N_CAT; n = p->nd[n].a)
		if (has_ops(p, p->nd[n].b))
			return 1;
	return p->nd[n].op != N_CLASS && p->nd[n].op != N_EMPTY;
}

/* Appends the classes of a tree of N_CAT and N_CLASS, left to right. */
static void
flatten(const struct parser *p, int n, struct re_class *out, size_t *k)
{
	size_t len;
	int leaf, *s = spine(p, n, N_CAT, &len, &leaf);

	if (p->nd[leaf].op == N_CLASS)
		out[(*k)++] = p->nd[leaf].c;
	while (len > 0)
		flatten(p, p->nd[s[--len]].b, out, k);
	free(s);
}

static size_t
count_classes(const struct parser *p, int n)
{
	size_t c = 0;

	for (; p->nd[n].op == N_CAT; n = p->nd[n].a)
		c += count_classes(p, p->nd[n].b);
	return c + (p->nd[n].op == N_CLASS);
}

/* Glushkov states the tree needs (saturating at RE_MAXSTATES + 1). */
static size_t
positions(const struct parser *p, int n)
{
	const struct node *x = &p->nd[n];
	size_t a, r;

	switch (x->op) {
	case N_CLASS:
	case N_BOL:
	case N_EOL:
	case N_ASSERT:
		return 1;
	case N_CAT:
	case N_ALT:
		for (r = 0; p->nd[n].op == x->op && r <= RE_MAXSTATES;
		    n = p->nd[n].a)
			r += positions(p, p->nd[n].b);
		if (r <= RE_MAXSTATES)
			r += positions(p, n);
		return r > RE_MAXSTATES ? RE_MAXSTATES + 1 : r;
	case N_REP:
		a = positions(p, x->a);
		r = (size_t)(x->max < 0 ? (x->min > 1 ? x->min : 1) : x->max);
		return a == 0 || r == 0 ? 0 : a > (RE_MAXSTATES + 1) / r ?
		    RE_MAXSTATES + 1 : a * r;
	default:
		return 0;
	}
}

static size_t
sat_add(size_t a, size_t b)
{
	return a > SIZE_MAX - b ? SIZE_MAX : a + b;
}

static size_t
sat_mul(size_t a, size_t b)
{
	return a != 0 && b > SIZE_MAX / a ? SIZE_MAX : a * b;
}

/* The shortest (max = 0) or longest word of the language under n. */
static size_t
wordlen(const struct parser *p, int n, int max)
{
	const struct node *x = &p->nd[n];
	size_t a, b;

	switch (x->op) {
	case N_CLASS:
		return 1;
	case N_CAT:
		return sat_add(wordlen(p, x->a, max), wordlen(p, x->b, max));
	case N_ALT:
		a = wordlen(p, x->a, max);
		b = wordlen(p, x->b, max);
		return max ? (a > b ? a : b) : (a < b ? a : b);
	case N_REP:
		a = wordlen(p, x->a, max);
		if (!max)
			return sat_mul(a, (size_t)x->min);
		if (x->max < 0)
			return a > 0 ? SIZE_MAX : 0;
		return sat_mul(a, (size_t)x->max);
	default:
		return 0;
	}
}

/* The Glushkov construction: first, last, nullable of a subtree. */
struct gl {
	struct re_nfa	*a;
	size_t		 npos;
	struct re_class	*pcls;
	signed char	*kind;		/* kind[s]: AS_ kind, or -1 */
};

struct glset {
	uint64_t	*first, *last;
	int		 nullable;
};

static void
gs_new(struct glset *g, size_t nw)
{
	g->first = xcalloc(nw, sizeof(uint64_t));
	g->last = xcalloc(nw, sizeof(uint64_t));
	g->nullable = 1;
}

static void
gs_free(struct glset *g)
{
	free(g->first);
	free(g->last);
}

static void glushkov(const struct parser *, struct gl *, int, struct glset *);

/* acc := acc followed by piece (a concatenation); piece is freed. */
static void
gl_append(struct gl *g, struct glset *acc, struct glset *piece)
{
	const size_t nw = g->a->nw;

	for (size_t s = 0; s < g->a->nstate; s++)
		if (acc->last[s / 64] >> (s % 64) & 1)
			for (size_t w = 0; w < nw; w++)
				g->a->follow[s * nw + w] |= piece->first[w];
	for (size_t w = 0; w < nw; w++) {
		if (acc->nullable)
			acc->first[w] |= piece->first[w];
		acc->last[w] = piece->last[w] | (piece->nullable ?
		    acc->last[w] : 0);
	}
	acc->nullable &= piece->nullable;
	gs_free(piece);
}

/* A copy of subtree n; loop: its last positions lead back to its first
 * ones (x+); opt: it may be skipped. */
static void
gl_copy(const struct parser *p, struct gl *g, int n, int loop, int opt,
    struct glset *out)
{
	const size_t nw = g->a->nw;

	glushkov(p, g, n, out);
	if (loop)
		for (size_t s = 0; s < g->a->nstate; s++)
			if (out->last[s / 64] >> (s % 64) & 1)
				for (size_t w = 0; w < nw; w++)
					g->a->follow[s * nw + w] |=
					    out->first[w];
	out->nullable |= opt;
}

static void
glushkov(const struct parser *p, struct gl *g, int n, struct glset *out)
{
	const struct node *x = &p->nd[n];
	const size_t nw = g->a->nw;
	struct glset b;

	gs_new(out, nw);
	switch (x->op) {
	case N_BOL:
	case N_EOL:
	case N_ASSERT:
	case N_CLASS: {
		size_t s = ++g->npos;
		if (x->op == N_CLASS)
			g->pcls[s] = x->c;
		else
			g->kind[s] = (signed char)(x->op == N_BOL ? AS_BOL :
			    x->op == N_EOL ? AS_EOL : x->min);
		out->first[s / 64] |= (uint64_t)1 << (s % 64);
		out->last[s / 64] |= (uint64_t)1 << (s % 64);
		out->nullable = 0;
		break;
	}
	case N_CAT:
		glushkov(p, g, x->a, &b);
		gl_append(g, out, &b);
		glushkov(p, g, x->b, &b);
		gl_append(g, out, &b);
		break;
	case N_ALT: {
		struct glset c;
		glushkov(p, g, x->a, &b);
		glushkov(p, g, x->b, &c);
		for (size_t w = 0; w < nw; w++) {
			out->first[w] = b.first[w] | c.first[w];
			out->last[w] = b.last[w] | c.last[w];
		}
		out->nullable = b.nullable || c.nullable;
		gs_free(&b);
		gs_free(&c);
		break;
	}
	case N_REP:
		if (x->max < 0) {
			for (int i = 0; i + 1 < x->min; i++) {
				gl_copy(p, g, x->a, 0, 0, &b);
				gl_append(g, out, &b);
			}
			gl_copy(p, g, x->a, 1, x->min == 0, &b);
			gl_append(g, out, &b);
		} else
			for (int i = 0; i < x->max; i++) {
				gl_copy(p, g, x->a, 0, i >= x->min, &b);
				gl_append(g, out, &b);
			}
		break;
	default:
		break;		/* empty */
	}
}

/* Removes a leading ^ and a trailing $ of the whole expression (the
 * scan's bol and eol); those left elsewhere become assertion states. */
static void
strip_anchors(struct parser *p, int root, int *bol, int *eol)
{
	*bol = *eol = 0;
	if (p->nd[root].op == N_EOL) {
		*eol = 1;
		p->nd[root].op = N_EMPTY;
	} else if (p->nd[root].op == N_CAT && p->nd[p->nd[root].b].op ==
	    N_EOL) {
		*eol = 1;
		p->nd[p->nd[root].b].op = N_EMPTY;
	}
	int n = root;
	while (p->nd[n].op == N_CAT)
		n = p->nd[n].a;
	if (p->nd[n].op == N_BOL) {
		*bol = 1;
		p->nd[n].op = N_EMPTY;
	}
}

/* A set of words, each a sequence of classes (expand). */
struct words {
	struct re_class	*c;	/* the words one after the other */
	size_t		*len;
	size_t		 n, total;
	size_t		 ccap, ncap;	/* (allocated) */
};

static void
words_free(struct words *w)
{
	free(w->c);
	free(w->len);
	memset(w, 0, sizeof(*w));
}

/* Room in w for n more units (doubling). */
static void
words_room(struct words *w, size_t n)
{
	if (w->total + n + 1 > w->ccap) {
		w->ccap = 2 * (w->total + n + 1);
		w->c = xreallocarray(w->c, w->ccap, sizeof(*w->c));
	}
}

static void
words_add(struct words *w, const struct re_class *a, size_t na,
    const struct re_class *b, size_t nb)
{
	words_room(w, na + nb);
	if (w->n + 1 > w->ncap) {
		w->ncap = 2 * (w->n + 1);
		w->len = xreallocarray(w->len, w->ncap, sizeof(*w->len));
	}
	if (na > 0)
		memcpy(w->c + w->total, a, na * sizeof(*a));
	if (nb > 0)
		memcpy(w->c + w->total + na, b, nb * sizeof(*b));
	w->len[w->n++] = na + nb;
	w->total += na + nb;
}

/* x := every word of x followed by every word of y; 0, or -1 past max
 * words or RE_EXPAND_UNITS units. */
static int
words_cat(struct words *x, const struct words *y, size_t max)
{
	struct words r = { NULL, NULL, 0, 0, 0, 0 };

	if (x->n * y->n > max || (x->n > 0 && y->n > 0 &&
	    x->total * y->n + y->total * x->n > RE_EXPAND_UNITS))
		return -1;
	if (x->n == 1 && y->n == 1) {	/* (a string, a class at a time) */
		words_room(x, y->total);
		if (y->total > 0)
			memcpy(x->c + x->total, y->c, y->total * sizeof(*y->c));
		x->total += y->total;
		x->len[0] = x->total;
		return 0;
	}
	for (size_t i = 0, oi = 0; i < x->n; oi += x->len[i++])
		for (size_t j = 0, oj = 0; j < y->n; oj += y->len[j++])
			words_add(&r, x->c + oi, x->len[i], y->c + oj,
			    y->len[j]);
	words_free(x);
	*x = r;
	return 0;
}

/*
 * The words of the language under n when it is finite and holds at most
 * max of them (RE_EXPAND_MAX, or RE_EXPAND_BIG where the automaton cannot
 * take the expression), RE_EXPAND_UNITS units in all (as sequences of
 * classes: "colou?r" is color and colour, "(a|b)c" is ac and bc); 0, or
 * -1 (then *w is empty).
 */
static int
expand(const struct parser *p, int n, struct words *w, size_t max)
{
	const struct node *x = &p->nd[n];
	struct words y = { NULL, NULL, 0, 0, 0, 0 };

	memset(w, 0, sizeof(*w));
	switch (x->op) {
	case N_EMPTY:
		words_add(w, NULL, 0, NULL, 0);
		return 0;
	case N_CLASS:
		words_add(w, &x->c, 1, NULL, 0);
		return 0;
	case N_CAT:
	case N_ALT: {
		/* the chain's left spine in a loop (see spine) */
		size_t len;
		int leaf, *s = spine(p, n, x->op, &len, &leaf);
		int ok = expand(p, leaf, w, max) == 0;
		while (ok && len > 0) {
			ok = expand(p, p->nd[s[--len]].b, &y, max) == 0;
			if (ok && x->op == N_CAT)
				ok = words_cat(w, &y, max) == 0;
			else if (ok && (ok = w->n + y.n <= max &&
			    w->total + y.total <= RE_EXPAND_UNITS))
				for (size_t j = 0, o = 0; j < y.n;
				    o += y.len[j++])
					words_add(w, y.c + o, y.len[j], NULL,
					    0);
			words_free(&y);
		}
		free(s);
		if (ok)
			return 0;
		break;
	}
	case N_REP: {
		if (x->max < 0 || (size_t)x->max > max)
			break;
		struct words one, acc = { NULL, NULL, 0, 0, 0, 0 };
		if (expand(p, x->a, &one, max) == -1)
			break;
		words_add(&acc, NULL, 0, NULL, 0);
		int ok = 1;
		for (int i = 0; ok && i <= x->max; i++) {
			if (i >= x->min)
				for (size_t j = 0, o = 0; j < acc.n;
				    o += acc.len[j++])
					words_add(w, acc.c + o, acc.len[j],
					    NULL, 0);
			ok = w->n <= max && w->total <= RE_EXPAND_UNITS &&
			    (i == x->max || words_cat(&acc, &one, max) == 0);
		}
		words_free(&one);
		words_free(&acc);
		if (ok)
			return 0;
		break;
	}
	default:
		break;
	}
	words_free(w);
	words_free(&y);
	return -1;
}

/* Appends the items of the top concatenation under n, left to right. */
static void
top_items(const struct parser *p, int n, int *items, size_t *ni)
{
	if (p->nd[n].op == N_CAT) {
		top_items(p, p->nd[n].a, items, ni);
		top_items(p, p->nd[n].b, items, ni);
	} else if (p->nd[n].op != N_EMPTY)
		items[(*ni)++] = n;
}

/* Appends the units of n, a concatenation of single units, to a->seg at
 * *at; returns their number, or 0 (nothing kept) if n is not one. */
static size_t
units_of(const struct parser *p, int n, struct re_nfa *a, size_t *at)
{
	const struct node *x = &p->nd[n];
	size_t l, r, start = *at;

	if (x->op == N_CLASS && cls_count(&x->c) == 1) {
		for (unsigned u = 0; u < 256; u++)
			if (cls_has(&x->c, u))
				a->seg[(*at)++] = (unsigned char)u;
		return 1;
	}
	if (x->op != N_CAT || (l = units_of(p, x->a, a, at)) == 0)
		return 0;
	if ((r = units_of(p, x->b, a, at)) == 0) {
		*at = start;
		return 0;
	}
	return l + r;
}

/* Appends the alternatives under n (N_ALT nodes over concatenations of
 * single units: (Abraham|Isaac|Jacob)) to a->seg and a->seglen; returns
 * their number, or 0 (nothing kept) if one is no such string. */
static size_t
alt_strings(const struct parser *p, int n, struct re_nfa *a, size_t *at)
{
	const struct node *x = &p->nd[n];
	size_t start = *at, nseg = a->nseg, l, r;

	if (x->op != N_ALT) {
		if ((l = units_of(p, n, a, at)) == 0)
			return 0;
		a->seglen[a->nseg++] = l;
		return 1;
	}
	if ((l = alt_strings(p, x->a, a, at)) == 0 ||
	    (r = alt_strings(p, x->b, a, at)) == 0) {
		*at = start;
		a->nseg = nseg;
		return 0;
	}
	return l + r;
}

#define RE_MAXPROD	8	/* strings of a span (re_nfa.span) */
#define RE_MAXPSTR	64	/* a span's longest string */

/*
 * After literal_runs: each run of 2 or more adjacent groups (adj[g]: group
 * g follows group g - 1 in every word) whose concatenations are at most
 * RE_MAXPROD strings of at most RE_MAXPSTR units becomes a span, its
 * strings appended to a->seg (which holds used units now) and a->seglen.
 */
/* The c-th combination of the strings of groups g0 to g1 (gs[g]: group
 * g's first string), the first group's string changing slowest: each
 * group's string into pick[g - g0]; returns their length in all.  (A span
 * has at most 7 groups: two runs are never adjacent, and more than 3
 * groups of alternatives pass RE_MAXPROD.) */
static size_t
combination(const struct re_nfa *a, const size_t *gs, size_t g0, size_t g1,
    size_t c, size_t *pick)
{
	size_t len = 0;

	for (size_t g = g1 + 1; g-- > g0;) {
		pick[g - g0] = gs[g] + c % a->segalt[g];
		len += a->seglen[pick[g - g0]];
		c /= a->segalt[g];
	}
	return len;
}

static void
spans(struct re_nfa *a, const unsigned char *adj, size_t used)
{
	size_t *off = xcalloc(a->nseg + 1, sizeof(*off)), *gs = xcalloc(
	    a->ngrp + 1, sizeof(*gs)), cap = 0, nlen = a->nseg;

	for (size_t s = 0; s < a->nseg; s++)
		off[s + 1] = off[s] + a->seglen[s];
	for (size_t g = 0; g < a->ngrp; g++)
		gs[g + 1] = gs[g] + a->segalt[g];
	for (size_t g0 = 0; g0 < a->ngrp; g0++)
		for (size_t g1 = g0 + 1, prod = a->segalt[g0]; g1 < a->ngrp &&
		    adj[g1] && (prod *= a->segalt[g1]) <= RE_MAXPROD; g1++) {
			/* the strings: the combinations, first group
			 * slowest */
			size_t first = nlen, ok = 1, pick[RE_MAXPSTR];
			for (size_t c = 0; c < prod && ok; c++)
				ok = combination(a, gs, g0, g1, c, pick) <=
				    RE_MAXPSTR;
			if (!ok)
				break;	/* (longer spans too) */
			a->seg = xrealloc(a->seg, used + prod * RE_MAXPSTR);
			a->seglen = xreallocarray(a->seglen, nlen + prod,
			    sizeof(*a->seglen));
			for (size_t c = 0; c < prod; c++) {
				size_t len = 0;
				(void)combination(a, gs, g0, g1, c, pick);
				for (size_t g = g0; g <= g1; g++) {
					size_t t = pick[g - g0];
					memcpy(a->seg + used + len, a->seg +
					    off[t], a->seglen[t]);
					len += a->seglen[t];
				}
				used += len;
				a->seglen[nlen++] = len;
			}
			if (a->nspan == cap) {
				cap = cap ? 2 * cap : 8;
				a->span = xreallocarray(a->span, 4 * cap,
				    sizeof(*a->span));
			}
			size_t *sp = a->span + 4 * a->nspan++;
			sp[0] = g0;
			sp[1] = g1;
			sp[2] = first;
			sp[3] = prod;
		}
	free(off);
	free(gs);
}

/*
 * The prefilter's material, from the items of the top concatenation: the
 * runs of single units (in "the (LORD|Lord)+ God", "the " and " God"),
 * each a group of one string, and the alternations of strings ("(Abraham|
 * Isaac|Jacob)'s"), each a group of its alternatives.  Every word of the
 * language holds one string of each group, the groups disjoint and in
 * order, so a match with k edits holds exactly one of k + 1 disjoint
 * pieces of them, a piece being the same part of every string of a group
 * (pieces, re_scan).  a->seglen: the strings' lengths; a->segalt: the
 * strings of each group.
 */
static void
literal_runs(const struct parser *p, int root, struct re_nfa *a)
{
	int *items = xcalloc(p->nn + 1, sizeof(int));
	unsigned char *adj = xcalloc(p->nn + 1, 1);
	size_t ni = 0, run = 0, at = 0;
	int contig = 0, run_adj = 0;	/* the next group follows the last */

	top_items(p, root, items, &ni);
	a->seg = xmalloc(p->nn + 1);
	a->seglen = xcalloc(p->nn + 1, sizeof(*a->seglen));
	a->segalt = xcalloc(p->nn + 1, sizeof(*a->segalt));
	a->nseg = a->ngrp = 0;
	for (size_t i = 0; i <= ni; i++) {
		const struct node *x = i < ni ? &p->nd[items[i]] : NULL;
		if (x != NULL && x->op == N_CLASS && cls_count(&x->c) == 1) {
			if (run == 0)
				run_adj = contig;
			run += units_of(p, items[i], a, &at);
			continue;
		}
		if (run > 0) {
			a->seglen[a->nseg++] = run;
			adj[a->ngrp] = (unsigned char)run_adj;
			a->segalt[a->ngrp++] = 1;
			contig = 1;
		}
		run = 0;
		size_t m;
		if (x != NULL && x->op == N_ALT &&
		    (m = alt_strings(p, items[i], a, &at)) > 0) {
			adj[a->ngrp] = (unsigned char)contig;
			a->segalt[a->ngrp++] = m;
			contig = 1;
		} else
			contig = 0;
	}
	free(items);
	spans(a, adj, at);
	free(adj);
}

/* Does an assertion of this kind hold between units of sides b and f? */
static int
holds(int kind, int b, int f)
{
	const int bw = b == RE_WORD, fw = f == RE_WORD;

	switch (kind) {
	case AS_BOL: return b == RE_EDGE;
	case AS_EOL: return f == RE_EDGE;
	case AS_WBEG: return !bw && fw;
	case AS_WEND: return bw && !fw;
	case AS_WB: return bw != fw;
	default: return bw == fw;	/* AS_NWB */
	}
}

/* Sets a->P (the states that read a unit), a->A (the assertions each
 * context satisfies) and a->nassert from kind[s] (-1: reads a unit). */
static void
assertions(struct re_nfa *a, const signed char *kind, const uint16_t *symcls)
{
	const size_t nw = a->nw;

	for (unsigned u = 0; u < 256; u++)
		a->side[u] = (unsigned char)(u < 0x80 || symcls == NULL ?
		    re_side((unsigned char)u) : symcls[u] >> U8_ALNUM & 1 ?
		    RE_WORD : RE_OTHER);
	a->P = xcalloc(nw, sizeof(uint64_t));
	a->A = xcalloc(RE_NCTX * nw, sizeof(uint64_t));
	for (size_t s = 1; s < a->nstate; s++) {
		const uint64_t bit = (uint64_t)1 << (s % 64);
		if (kind[s] < 0) {
			a->P[s / 64] |= bit;
			continue;
		}
		a->nassert++;
		for (int ctx = 0; ctx < RE_NCTX; ctx++)
			if (holds(kind[s], ctx / 3, ctx % 3))
				a->A[ctx * nw + s / 64] |= bit;
	}
}

/*
 * For a one-word automaton with assertions: a->TC[(ctx * ngroups + g) *
 * 256 + v], the states that follow the states of group g in v, or the
 * assertions that hold in context ctx and can be reached from them through
 * such assertions (so T of a set closed under them, in one lookup a group).
 */
static void
closed_tables(struct re_nfa *a)
{
	const size_t G = a->ngroups;

	a->TC = xcalloc(RE_NCTX * G * 256, sizeof(uint64_t));
	for (int ctx = 0; ctx < RE_NCTX; ctx++)
		for (size_t g = 0; g < G; g++)
			for (unsigned v = 1; v < 256; v++) {
				uint64_t d = (uint64_t)v << (8 * g), t, x;
				for (;;) {
					follow_of(a, &d, &t);
					if ((x = t & a->A[ctx] & ~d) == 0)
						break;
					d |= x;
				}
				a->TC[(ctx * G + g) * 256 + v] = t;
			}
}

/* Builds the automaton of the tree at root. */
static struct re_nfa *
build_nfa(struct parser *p, int root, int bol, int eol)
{
	static unsigned long ids;
	struct re_nfa *a = xcalloc(1, sizeof(*a));
	struct gl g;
	struct glset top;
	size_t nw;

	a->id = __atomic_add_fetch(&ids, 1, __ATOMIC_RELAXED);
	a->nstate = positions(p, root) + 1;
	a->nw = nw = (a->nstate + 63) / 64;
	a->bol = bol;
	a->eol = eol;
	a->minlen = wordlen(p, root, 0);
	a->maxlen = wordlen(p, root, 1);
	a->follow = xcalloc(a->nstate * nw, sizeof(uint64_t));
	a->B = xcalloc(256 * nw, sizeof(uint64_t));
	a->final = xcalloc(nw, sizeof(uint64_t));
	g.a = a;
	g.npos = 0;
	g.pcls = xcalloc(a->nstate, sizeof(*g.pcls));
	g.kind = xmalloc(a->nstate);
	memset(g.kind, -1, a->nstate);
	glushkov(p, &g, root, &top);
	assertions(a, g.kind, p->o->symcls);
	free(g.kind);
	memcpy(a->follow, top.first, nw * sizeof(uint64_t));
	memcpy(a->final, top.last, nw * sizeof(uint64_t));
	if (top.nullable)
		a->final[0] |= 1;
	gs_free(&top);
	for (size_t s = 1; s < a->nstate; s++) {
		struct re_class c = g.pcls[s];
		if (p->o->icase)
			for (unsigned u = 'A'; u <= 'Z'; u++)
				if (cls_has(&c, u) || cls_has(&c, u + 32)) {
					cls_set(&c, u);
					cls_set(&c, u + 32);
				}
		for (unsigned u = 0; u < 256; u++)
			if (cls_has(&c, u))
				a->B[u * nw + s / 64] |= (uint64_t)1 << (s % 64);
	}
	free(g.pcls);
	a->ngroups = (a->nstate + 7) / 8;
	a->T = xcalloc(a->ngroups * 256 * nw, sizeof(uint64_t));
	for (size_t gi = 0; gi < a->ngroups; gi++)
		for (unsigned v = 1; v < 256; v++) {
			uint64_t *t = a->T + (gi * 256 + v) * nw;
			for (unsigned bit = 0; bit < 8; bit++) {
				size_t s = gi * 8 + bit;
				if (!(v >> bit & 1) || s >= a->nstate)
					continue;
				for (size_t w = 0; w < nw; w++)
					t[w] |= a->follow[s * nw + w];
			}
		}
	if (nw == 1 && a->nassert > 0)
		closed_tables(a);
	return a;
}

#define RE_MAXBRANCH	8	/* anchored branches scanned each alone */

/*
 * Where the expression is an alternation whose every branch is anchored
 * and of bounded length, (^And|LORD\.$), gives a each branch as an
 * automaton of its own, its anchor its bol or eol: a match of one lies in
 * the first or the last maxlen + k units of a record, so re_scan scans
 * those windows with each, where a's own assertions would have it scan
 * every unit.  (A record is selected when it holds a match of one of the
 * branches.)  Called after a is built: the branches lose their anchors.
 */
static void
anchored_branches(struct parser *p, int root, struct re_nfa *a)
{
	int br[RE_MAXBRANCH], todo[RE_MAXBRANCH + 1];
	size_t n = 0, nt = 0;

	if (p->nd[root].op != N_ALT)
		return;
	todo[nt++] = root;
	while (nt > 0) {
		int x = todo[--nt];
		if (p->nd[x].op == N_ALT) {
			if (nt + 2 > RE_MAXBRANCH + 1)
				return;
			todo[nt++] = p->nd[x].b;
			todo[nt++] = p->nd[x].a;
		} else if (n == RE_MAXBRANCH)
			return;
		else
			br[n++] = x;
	}
	a->branch = xcalloc(n, sizeof(*a->branch));
	for (size_t i = 0; i < n; i++) {
		int bol, eol;
		strip_anchors(p, br[i], &bol, &eol);
		struct re_nfa *b = build_nfa(p, br[i], bol, eol);
		a->branch[a->nbranch++] = b;
		b->icase = a->icase;
		if (!windowed(b, 0)) {
			for (size_t j = 0; j < a->nbranch; j++)
				re_nfa_free(a->branch[j]);
			free(a->branch);
			a->branch = NULL;
			a->nbranch = 0;
			return;
		}
	}
}

/*
 * The automaton of the tree at root with its assertions taken out (each an
 * empty word): its language holds the expression's, so its scan (no
 * assertion states: the lanes, the prefilter's pieces) selects every
 * record where the expression has a match with k errors (re_scan: the
 * assertion scan then verifies those).  The tree is changed.  NULL when
 * nothing is left but assertions, or more positions than the lanes take
 * (LOOSE_MAXPOS: relanes.c's rows of two bytes; loose_scan uses it on the
 * lanes alone).
 */
#define LOOSE_MAXPOS	16
static struct re_nfa *
loose_nfa(struct parser *p, int root, int bol, int eol, int icase)
{
	struct re_nfa *a;

	for (size_t i = 0; i < p->nn; i++)
		if (p->nd[i].op == N_ASSERT || p->nd[i].op == N_BOL ||
		    p->nd[i].op == N_EOL)
			p->nd[i].op = N_EMPTY;
	const size_t np = positions(p, root);
	if (np == 0 || np > LOOSE_MAXPOS)
		return NULL;
	a = build_nfa(p, root, bol, eol);
	a->icase = icase;
	literal_runs(p, root, a);
	return a;
}

/*
 * Parses s[0, len) as o says and tells what it is (regex_int.h says
 * what each kind is).  Returns 0, or -1 with grep's message (or ours) in err.
 */
int
re_compile(const unsigned char *s, size_t len, const struct re_opts *o,
    struct re_result *r, char *err, size_t errlen)
{
	struct parser p;
	int root, bol, eol;

	memset(r, 0, sizeof(*r));
	memset(&p, 0, sizeof(p));
	p.s = s;
	p.len = len;
	p.o = o;
	p.err = err;
	p.errlen = errlen;
	root = re_alternation(&p);
	if (!p.failed && p.i < p.len)
		re_fail(&p, o->syntax == RE_BASIC ? "Unmatched ) or \\)" :
		    "Unmatched ( or \\(");
	if (!p.failed && tree_depth(&p, root) > RE_MAXDEPTH)
		re_fail(&p, "expression nested too deeply");
	if (p.failed) {
		free(p.nd);
		return -1;
	}
	r->classes = p.classes;
	if (!has_ops(&p, root)) {
		size_t n = count_classes(&p, root), k = 0;
		r->cls = xcalloc(n ? n : 1, sizeof(*r->cls));
		flatten(&p, root, r->cls, &k);
		r->n = n;
		r->kind = RE_LITERAL;
		for (size_t i = 0; i < n; i++)
			if (cls_count(&r->cls[i]) != 1)
				r->kind = RE_CLASSES;
		if (r->kind == RE_LITERAL) {
			r->lit = xmalloc(n ? n : 1);
			for (size_t i = 0; i < n; i++)
				for (unsigned u = 0; u < 256; u++)
					if (cls_has(&r->cls[i], u))
						r->lit[i] = (unsigned char)u;
			free(r->cls);
			r->cls = NULL;
		}
		free(p.nd);
		return 0;
	}
	strip_anchors(&p, root, &bol, &eol);
	/* A small finite language: its words, for the Myers engines
	 * (host and devices, filters, many patterns); a larger one too
	 * where the automaton cannot take it (a list of words as one
	 * expression, 'Aaron|Abel|...'). */
	const int big = positions(&p, root) + 1 > RE_MAXSTATES;
	struct words w;
	if (!bol && !eol && !o->no_expand && expand(&p, root, &w,
	    big ? RE_EXPAND_BIG : RE_EXPAND_MAX) == 0) {
		r->kind = RE_ALTS;
		r->cls = w.c;
		r->wlen = w.len;
		r->nword = w.n;
		r->n = w.total;
		free(p.nd);
		return 0;
	}
	if (big) {
		snprintf(err, errlen, "expression too long: more than %d "
		    "positions", RE_MAXSTATES - 1);
		free(p.nd);
		return -1;
	}
	r->kind = RE_NFA;
	r->nfa = build_nfa(&p, root, bol, eol);
	r->nfa->icase = o->icase;
	literal_runs(&p, root, r->nfa);
	if (!bol && !eol)
		anchored_branches(&p, root, r->nfa);
	if (r->nfa->nassert > 0)
		r->nfa->loose = loose_nfa(&p, root, bol, eol, o->icase);
	free(p.nd);
	return 0;
}

/*
 * The automaton of a plain pattern, n positions of classes cls[0, n) one
 * after the other (with -i, icase folds ASCII, and the prefilter with
 * it): weighted searches scan plain patterns so (pattern.c).  NULL when
 * it would have more than RE_MAXSTATES states.
 */
struct re_nfa *
re_chain(const struct re_class *cls, size_t n, int icase)
{
	struct re_opts o = { RE_FIXED, icase, 0, 0, 1, NULL };
	struct parser p;
	struct re_nfa *a;
	int root = -1;

	if (n + 1 > RE_MAXSTATES)
		return NULL;
	memset(&p, 0, sizeof(p));
	p.o = &o;
	p.cap = 2 * n + 1;
	p.nd = xcalloc(p.cap, sizeof(*p.nd));
	if (n == 0)
		p.nd[root = (int)p.nn++].op = N_EMPTY;
	for (size_t i = 0; i < n; i++) {
		int c = (int)p.nn++;
		p.nd[c].op = N_CLASS;
		p.nd[c].c = cls[i];
		if (root < 0) {
			root = c;
			continue;
		}
		int cat = (int)p.nn++;
		p.nd[cat].op = N_CAT;
		p.nd[cat].a = root;
		p.nd[cat].b = c;
		root = cat;
	}
	a = build_nfa(&p, root, 0, 0);
	a->icase = icase;
	literal_runs(&p, root, a);
	free(p.nd);
	return a;
}

void
re_nfa_free(struct re_nfa *a)
{
	if (a == NULL)
		return;
	free(a->follow);
	free(a->B);
	free(a->final);
	free(a->T);
	free(a->seg);
	free(a->seglen);
	free(a->segalt);
	free(a->span);
	free(a->P);
	free(a->A);
	free(a->TC);
	for (size_t i = 0; i < a->nbranch; i++)
		re_nfa_free(a->branch[i]);
	free(a->branch);
	re_nfa_free(a->loose);
	free(a);
}

void
re_result_free(struct re_result *r)
{
	free(r->wlen);
	free(r->lit);
	free(r->cls);
	re_nfa_free(r->nfa);
	memset(r, 0, sizeof(*r));
}
