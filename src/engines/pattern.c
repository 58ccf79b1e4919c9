/* pattern.c: collect patterns (-e, -f, operand) and build their PEq tables. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "multi.h"
#include "seed.h"
#include "hplan.h"
#include "pp.h"
#include "hostmatch.h"
#include "pattern.h"
#include "../regex/regex.h"
#include "../base/utf8.h"
#include "../base/util.h"

void
pat_init(struct patset *ps, int k, int icase)
{
	memset(ps, 0, sizeof(*ps));
	ps->k = k;
	ps->icase = icase;
	ps->syntax = RE_FIXED;	/* main makes -G the default */
	ps->cost.ins = ps->cost.del = ps->cost.sub = 1;
}

/* Appends one pattern string; a newline inside it separates several patterns,
 * as in grep.  Lengths are checked by pat_compile. */
void
pat_add(struct patset *ps, const char *s, size_t len)
{
	ps->store = xrealloc(ps->store, ps->storelen + len + 1);
	memcpy(ps->store + ps->storelen, s, len);
	ps->store[ps->storelen + len] = '\n';
	ps->storelen += len + 1;
}

/* Reads the whole file path ("-": standard input) into a buffer of *len
 * bytes (-f: the caller splits it into patterns).  Returns it, or NULL
 * with errno set. */
char *
pat_read_file(const char *path, size_t *len)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
	char *buf = NULL;
	size_t n, cap = 0;

	*len = 0;
	if (f == NULL)
		return NULL;
	do {
		if (*len + 65536 > cap)
			buf = xrealloc(buf, cap = 2 * (*len + 65536));
		n = fread(buf + *len, 1, 65536, f);
		*len += n;
	} while (n > 0);
	if (ferror(f)) {
		int e = errno;
		if (f != stdin)
			fclose(f);
		free(buf);
		errno = e;
		return NULL;
	}
	if (f != stdin)
		fclose(f);
	return buf;
}

/* Fills p->peq from p->str: bit i of PEq[c] is set when pattern byte i
 * equals c (either case with -i). */
static void
build_peq(struct pattern *p, int icase)
{
	size_t nw = p->nwords;

	p->peq = xcalloc(256 * nw, sizeof(*p->peq));
	for (size_t i = 0; i < p->len; i++) {
		unsigned char c = p->str[i];
		uint64_t bit = (uint64_t)1 << (i % 64);
		p->peq[c * nw + i / 64] |= bit;
		if (icase && isascii(c) && isalpha(c)) {
			p->peq[tolower(c) * nw + i / 64] |= bit;
			p->peq[toupper(c) * nw + i / 64] |= bit;
		}
	}
}

/* What a pattern's length counts, for messages. */
const char *
pat_unit(const struct patset *ps)
{
	return ps->utf8 ? "characters" : "bytes";
}

/*
 * UTF-8 mode: do the patterns need symbols?  Not at k = 0 without -i, -w
 * or --show-edits when every pattern is well-formed: a byte occurrence of
 * such a pattern is then an occurrence of its characters (-w looks at the
 * characters around it and --show-edits counts them: refine.c finds them
 * in the symbols' view).
 */
static int
needs_symbols(const struct patset *ps)
{
	if (!ps->utf8)
		return 0;
	if (ps->k > 0 || ps->icase || ps->chars)
		return 1;
	return !u8_valid((const unsigned char *)ps->store, ps->storelen);
}

/* Fills p->peq from classes (regex.c): bit i of PEq[c] is set when class
 * i holds c (either case with -i); str gets one unit of each. */
static void
build_peq_classes(struct pattern *p, const struct re_class *cls,
    unsigned char *units, int icase)
{
	size_t nw = p->nwords;

	p->peq = xcalloc(256 * nw, sizeof(*p->peq));
	for (size_t i = 0; i < p->len; i++) {
		uint64_t bit = (uint64_t)1 << (i % 64);
		units[i] = 0;
		for (unsigned c = 256; c-- > 0;) {
			if (!(cls[i].w[c / 64] >> (c % 64) & 1))
				continue;
			units[i] = (unsigned char)c;
			p->peq[c * nw + i / 64] |= bit;
			if (icase && isascii(c) && isalpha(c)) {
				p->peq[tolower(c) * nw + i / 64] |= bit;
				p->peq[toupper(c) * nw + i / 64] |= bit;
			}
		}
	}
	p->str = units;
	p->cls = 1;
}

/* A new slot in ps->pat. */
static struct pattern *
new_pattern(struct patset *ps, size_t *cap)
{
	if (ps->npat == *cap) {
		*cap = *cap ? 2 * *cap : 8;
		ps->pat = xreallocarray(ps->pat, *cap, sizeof(*ps->pat));
	}
	struct pattern *p = &ps->pat[ps->npat++];
	memset(p, 0, sizeof(*p));
	return p;
}

/* UTF-8 mode: an expression's units: ASCII bytes as they are (the
 * syntax), each other character as its symbol.  Returns their number, or
 * (size_t)-1 when the symbols are all taken. */
static size_t
expr_units(struct u8map *m, const unsigned char *s, size_t len,
    unsigned char *out)
{
	size_t n = 0;
	uint32_t cp;

	for (size_t i = 0; i < len;) {
		if (s[i] < 0x80) {
			out[n++] = s[i++];
			continue;
		}
		size_t cl = u8_char(s + i, len - i, &cp), ns;
		if (u8_map_pattern(m, s + i, cl, out + n, &ns) == -1)
			return (size_t)-1;
		n += ns;
		i += cl;
	}
	return n;
}

static int
too_many_symbols(char *errbuf, size_t errlen)
{
	snprintf(errbuf, errlen, "the patterns hold more than %d different "
	    "non-ASCII characters, the most UTF-8 mode can search for "
	    "(--bytes searches bytes)", U8_MAXSYM);
	return -1;
}

/*
 * UTF-8 mode: gives every character of the patterns its symbol before an
 * expression is compiled, since a class holds the symbols of the
 * characters in it whichever pattern names them (-e '[[:alpha:]]' -e 'é');
 * pat_compile's pass makes the same calls in the same order and finds
 * them.  Then the categories of the classes the expressions name.
 * Returns 0, or -1 with a message.
 */
static int
map_all(struct patset *ps, const struct re_result *res, char *errbuf,
    size_t errlen)
{
	unsigned char *tmp = xmalloc(ps->storelen + 1);
	size_t start = 0, r = 0, n;
	unsigned classes = 0;
	int e = 0;

	for (size_t i = 0; i < ps->storelen && e == 0; i++) {
		if (ps->store[i] != '\n')
			continue;
		const unsigned char *s = (const unsigned char *)ps->store +
		    start;
		const struct re_result *rr = &res[r++];
		size_t len = i - start;
		start = i + 1;
		classes |= rr->classes;
		if (rr->kind != RE_LITERAL)
			e = expr_units(ps->u8, s, len, tmp) == (size_t)-1 ? -1 : 0;
		else if (rr->lit != NULL)
			e = u8_map_pattern(ps->u8, rr->lit, rr->n, tmp, &n);
		else
			e = u8_map_pattern(ps->u8, s, len, tmp, &n);
	}
	free(tmp);
	if (e == -1)
		return too_many_symbols(errbuf, errlen);
	if (u8_map_classes(ps->u8, classes) == -1) {
		snprintf(errbuf, errlen, "the locale's classes make more kinds "
		    "of characters than UTF-8 mode tells apart (--bytes "
		    "searches bytes)");
		return -1;
	}
	u8_sym_classes(ps->u8, ps->symcls);
	return 0;
}

/* Is a pattern of len units within k of the empty string (all of it
 * deleted)? */
static int
len_within(const struct patset *ps, size_t len)
{
	if (len == 0)
		return 1;
	if (ps->hamming || ps->cost.del >= RE_COST_OFF)
		return 0;
	return len <= (size_t)(ps->k / ps->cost.del);
}

/* Adds a fixed sequence of n classes as a Myers pattern (its units go to
 * units[0, n)): a string when each class holds one unit, else a pattern
 * with classes.  (Nothing is added past PAT_MAXLEN: the caller refuses.) */
static void
add_classes(struct patset *ps, const struct re_class *cls, size_t n,
    unsigned char *units, size_t *cap)
{
	struct pattern *p;
	int single = 1;

	if (n > PAT_MAXLEN)
		return;
	for (size_t i = 0; i < n && single; i++) {
		int c = 0;
		for (int w = 0; w < 4; w++)
			c += __builtin_popcountll(cls[i].w[w]);
		single = c == 1;
	}
	p = new_pattern(ps, cap);
	p->len = n;
	p->nwords = (n + 63) / 64;
	build_peq_classes(p, cls, units, ps->icase);
	if (single) {
		p->cls = 0;	/* str is the pattern: a string */
		free(p->peq);
		build_peq(p, ps->icase);
	} else
		ps->has_cls = 1;
	if (len_within(ps, n))
		ps->all_lines = 1;
	if (p->len > ps->maxlen)
		ps->maxlen = p->len;
	if (p->nwords > ps->maxwords)
		ps->maxwords = p->nwords;
}

/* Does every record hold a match of a with k errors: the empty string
 * (at the record's start with ^, at its end with $, anywhere without)
 * within k of the shortest word?  Not with both anchors, nor with an
 * assertion, which may hold nowhere in a record (\<a with k = 1 and a
 * record of spaces). */
static int
empty_within(const struct patset *ps, const struct re_nfa *a)
{
	return !(a->bol && a->eol) && a->nassert == 0 && ps->k >= 0 &&
	    len_within(ps, a->minlen);
}

/* Adds the expression of kind RE_CLASSES or RE_NFA (units u[0, n), its
 * source src[0, srclen); lone: the only pattern).  Returns 0, or -1 with a
 * message. */
static int
add_expr(struct patset *ps, const unsigned char *u, size_t n,
    const unsigned char *src, size_t srclen, size_t *cap, size_t *recap,
    unsigned char **extra, int lone, char *errbuf, size_t errlen)
{
	struct re_opts ro = { ps->syntax, ps->icase, ps->u8 != NULL,
	    ps->iupac, ps->no_expand, ps->u8 != NULL ? ps->symcls : NULL };
	struct re_result r;
	struct pattern *p;

	if (re_compile(u, n, &ro, &r, errbuf, errlen) == -1)
		return -1;
	/* One small finite language whose automaton runs on SIMD lanes
	 * (relanes.c): its words stay the patterns, but the host scans for
	 * them with the automaton (hm_scan: the same bitmap, the language
	 * being the same), faster than Myers over each word on the host
	 * (2-core EPYC, AVX2, the Bible x64, -k1..2: colou?r 0.19-0.25 s
	 * against 0.24-0.25, wh(o|ic)h? 0.30-0.34 against 0.74-0.79; see
	 * bench/results/regex.md).  Only on rows of one byte (up to 8
	 * positions): on two, Myers over the words is faster at k = 2, 3
	 * ((LORD|Lord) God 0.48/0.53 s against 0.66/0.79, gr(e|a)y hairs
	 * 0.43/0.41 against 0.56/0.69). */
	if (r.kind == RE_ALTS && lone && ps->sel == NULL && !ps->weighted) {
		struct re_result w;
		ro.no_expand = 1;
		if (re_compile(u, n, &ro, &w, errbuf, errlen) == 0) {
			if (w.kind == RE_NFA && re_lanes_take(w.nfa, ps->k,
			    '\n') == 1) {
				ps->sel = w.nfa;
				w.nfa = NULL;
			}
			re_result_free(&w);
		}
	}
	/* Weighted costs: a small language whose automaton the weighted
	 * lanes take stays an automaton (relanes.c; the Bible x8, -c -k2
	 * 'merc(y|ies)' with I2 D2 S1, one thread: 0.047 s, against 0.086
	 * by its words' selection and chains). */
	if (r.kind == RE_ALTS && lone && ps->weighted) {
		struct re_result w;
		ro.no_expand = 1;
		if (re_compile(u, n, &ro, &w, errbuf, errlen) == 0) {
			if (w.kind == RE_NFA && re_lanes_take_w(w.nfa,
			    &ps->cost, ps->k, '\n')) {
				re_result_free(&r);
				r = w;
			} else
				re_result_free(&w);
		}
	}
	if (r.kind == RE_NFA) {
		struct re_nfa *a = r.nfa;
		r.nfa = NULL;
		if (ps->nre == *recap) {
			*recap = *recap ? 2 * *recap : 4;
			ps->re = xreallocarray(ps->re, *recap, sizeof(*ps->re));
		}
		p = &ps->re[ps->nre++];
		memset(p, 0, sizeof(*p));
		p->str = src;
		p->len = srclen;
		p->re = a;
		if (empty_within(ps, a) || ps->k > RE_MAXK)
			ps->all_lines = 1;
		for (size_t b = 0; b < a->nbranch; b++)
			if (empty_within(ps, a->branch[b]))
				ps->all_lines = 1;
		/* the warm-up a chunk needs (scan_pad): a match spans at
		 * most maxlen + k units when the language is finite, and
		 * an assertion looks at the unit before it */
		size_t w = a->maxlen < a->nstate ? a->maxlen : a->nstate - 1;
		w += a->nassert > 0;
		if (a->maxlen >= a->nstate || a->bol || a->eol ||
		    a->nassert > 0)
			ps->whole = 1;
		if (w > ps->maxlen)
			ps->maxlen = w;
		re_result_free(&r);
		return 0;
	}
	if (r.kind == RE_LITERAL) {
		/* (a class of one unit after the symbols: as a literal) */
		r.cls = xcalloc(r.n ? r.n : 1, sizeof(*r.cls));
		for (size_t i = 0; i < r.n; i++)
			r.cls[i].w[r.lit[i] / 64] |= (uint64_t)1 <<
			    (r.lit[i] % 64);
	}
	if (r.kind != RE_ALTS) {
		add_classes(ps, r.cls, r.n, *extra, cap);
		*extra += r.n;
	} else {
		/* one Myers pattern a word, their units in a buffer of
		 * their own (a language can hold more than its source) */
		unsigned char *units = xmalloc(r.n + 1);
		ps->bufs = xreallocarray(ps->bufs, ps->nbufs + 1,
		    sizeof(*ps->bufs));
		ps->bufs[ps->nbufs++] = units;
		size_t longest = 0;
		for (size_t w = 0; w < r.nword; w++)
			if (r.wlen[w] > longest)
				longest = r.wlen[w];
		/* (a word longer than a pattern may be: r.n names it) */
		r.n = longest;
		if (r.n <= PAT_MAXLEN)
			for (size_t w = 0, o = 0; w < r.nword;
			    o += r.wlen[w++])
				add_classes(ps, r.cls + o, r.wlen[w],
				    units + o, cap);
	}
	if (r.n > PAT_MAXLEN) {
		snprintf(errbuf, errlen, "expression of %zu positions is "
		    "longer than the limit of %d", r.n, PAT_MAXLEN);
		re_result_free(&r);
		return -1;
	}
	re_result_free(&r);
	return 0;
}

static void
cls_set_unit(struct re_class *c, unsigned u)
{
	c->w[u / 64] |= (uint64_t)1 << (u % 64);
}

/*
 * Weighted costs: each plain pattern is scanned as an automaton, a chain
 * of its positions' classes (the units its PEq table takes at each; with
 * -i a pattern of literal units is a chain of its units folded by the
 * automaton, which the prefilter folds as well).  Returns 0, or -1 with a
 * message.
 */
static int
weigh_patterns(struct patset *ps, char *errbuf, size_t errlen)
{
	if (ps->k > RE_MAXK)	/* (--best-match: refine.c decides) */
		ps->all_lines = 1;
	/* The unit cost search that selects the records (hm_weighted): the
	 * same patterns, k / least cost errors, caches of its own. */
	struct patset *u = ps->unit = xmalloc(sizeof(*u));
	*u = *ps;
	u->k = (int)re_costs_edits(&ps->cost, ps->k);
	u->weighted = 0;
	u->all_lines = 0;
	u->multi = NULL;
	u->xlines = NULL;
	u->seed = NULL;
	u->hplan = NULL;
	u->ppcache[0] = u->ppcache[1] = NULL;
	u->re = NULL;
	u->nre = 0;
	u->sel = NULL;
	u->unit = NULL;
	u->wre = NULL;
	for (size_t x = 0; x < ps->npat; x++)
		if (ps->pat[x].len <= (size_t)u->k)
			u->all_lines = 1;
	ps->wre = xcalloc(ps->npat + 1, sizeof(*ps->wre));
	for (size_t x = 0; x < ps->npat; x++) {
		const struct pattern *p = &ps->pat[x];
		struct re_class *cls = xcalloc(p->len + 1, sizeof(*cls));
		int units = !p->cls;
		for (size_t i = 0; i < p->len; i++)
			for (unsigned c = 0; c < 256; c++)
				if (pat_has(p, i, c))
					cls_set_unit(&cls[i], c);
		/* the units themselves where -i's folding gives the table */
		for (size_t i = 0; i < p->len && units; i++) {
			struct re_class one;
			memset(&one, 0, sizeof(one));
			unsigned c = p->str[i];
			cls_set_unit(&one, c);
			if (ps->icase && c < 0x80 && isalpha(c)) {
				cls_set_unit(&one, (unsigned)tolower(c));
				cls_set_unit(&one, (unsigned)toupper(c));
			}
			units = memcmp(&one, &cls[i], sizeof(one)) == 0;
		}
		if (units)
			for (size_t i = 0; i < p->len; i++) {
				memset(&cls[i], 0, sizeof(cls[i]));
				cls_set_unit(&cls[i], p->str[i]);
			}
		ps->wre[x] = re_chain(cls, p->len, units && ps->icase);
		free(cls);
		if (ps->wre[x] == NULL) {
			snprintf(errbuf, errlen, "pattern of %zu %s is longer "
			    "than the limit of %d %s with edit costs",
			    p->len, pat_unit(ps), RE_MAXSTATES - 1,
			    pat_unit(ps));
			return -1;
		}
	}
	return 0;
}

/* What pat_compile's first pass makes of one pattern of the store,
 * s[0, len): its expression, or a literal with -F.  Returns 0, or -1 with a
 * message in errbuf. */
static int
raw_compile(const struct patset *ps, const unsigned char *s, size_t len,
    struct re_result *res, char *errbuf, size_t errlen)
{
	const struct re_opts ro = { ps->syntax, 0, 0, ps->iupac,
	    ps->no_expand, NULL };

	if (ps->syntax == RE_FIXED && !ps->iupac) {
		res->kind = RE_LITERAL;
		return 0;
	}
	return re_compile(s, len, &ro, res, errbuf, errlen);
}

/*
 * After pat_compile failed: calls bad(arg, i, message) for each pattern of
 * the store (its i-th line) that does not compile by itself, as grep names
 * each one; returns how many (0: the error was of the set as a whole).
 */
size_t
pat_errors(const struct patset *ps, void (*bad)(void *, size_t,
    const char *), void *arg)
{
	size_t n = 0, start = 0, r = 0;
	char err[256];

	for (size_t i = 0; i < ps->storelen; i++) {
		if (ps->store[i] != '\n')
			continue;
		struct re_result res;
		memset(&res, 0, sizeof(res));
		if (raw_compile(ps, (const unsigned char *)ps->store + start,
		    i - start, &res, err, sizeof(err)) == -1) {
			bad(arg, r, err);
			n++;
		} else
			re_result_free(&res);
		start = i + 1;
		r++;
	}
	return n;
}

/*
 * Splits the stored text into patterns and builds their tables.  With -G
 * or -E each pattern is parsed first (regex.c): one with no special
 * character is the plain pattern it always was; classes become PEq
 * tables; other expressions automata (ps->re).  Returns 0, or -1 with a
 * message in errbuf.
 */
int
pat_compile(struct patset *ps, char *errbuf, size_t errlen)
{
	size_t start = 0, cap = 0, recap = 0, symat = 0, nraw = 0, r = 0;
	struct re_result *res = NULL;
	int any_expr = 0;
	unsigned char *extra;

	/* First pass: what each pattern is (bytes; symbols come later). */
	for (size_t i = 0; i < ps->storelen; i++)
		nraw += ps->store[i] == '\n';
	res = xcalloc(nraw ? nraw : 1, sizeof(*res));
	for (size_t i = 0; i < ps->storelen; i++) {
		if (ps->store[i] != '\n')
			continue;
		const unsigned char *s = (const unsigned char *)ps->store +
		    start;
		size_t len = i - start;
		start = i + 1;
		if (raw_compile(ps, s, len, &res[r], errbuf, errlen) == -1) {
			while (r-- > 0)
				re_result_free(&res[r]);
			free(res);
			return -1;
		}
		any_expr |= res[r++].kind != RE_LITERAL;
	}
	ps->extra = extra = xmalloc(ps->storelen + 1);
	if (needs_symbols(ps) || (ps->utf8 && any_expr)) {
		ps->u8 = u8_map_new(ps->icase);
		ps->symstore = xmalloc(ps->storelen + 1);
		if (map_all(ps, res, errbuf, errlen) == -1)
			goto fail;
	}
	start = 0;
	r = 0;
	for (size_t i = 0; i < ps->storelen; i++) {
		if (ps->store[i] != '\n')
			continue;
		size_t len = i - start;
		const unsigned char *s = (const unsigned char *)ps->store + start;
		const unsigned char *src = s;
		size_t srclen = len;
		struct re_result *rr = &res[r++];
		start = i + 1;
		if (rr->kind != RE_LITERAL) {
			unsigned char *u = (unsigned char *)s;
			size_t n = len;
			if (ps->u8 != NULL) {
				u = xmalloc(len + 1);
				if ((n = expr_units(ps->u8, s, len, u)) ==
				    (size_t)-1) {
					free(u);
					goto fail_symbols;
				}
			}
			int e = add_expr(ps, u, n, src, srclen, &cap, &recap,
			    &extra, nraw == 1, errbuf, errlen);
			if (u != s)
				free(u);
			if (e == -1)
				goto fail;
			continue;
		}
		if (rr->lit != NULL) {
			/* unescaped: "a\\.b" is a.b */
			memcpy(extra, rr->lit, rr->n);
			s = extra;
			len = rr->n;
			extra += len;
		}
		if (ps->u8 != NULL) {
			unsigned char *sym = ps->symstore + symat;
			if (u8_map_pattern(ps->u8, s, len, sym, &len) == -1)
				goto fail_symbols;
			s = sym;
			symat += len;
		}
		/* A pattern within k of the empty string matches every
		 * record: no scan is needed (it stays for refinement). */
		if (len_within(ps, len))
			ps->all_lines = 1;	/* (--no-indels: as long) */
		/* At k = 0 any length: longer ones are the host's exact
		 * search (hostmatch.c). */
		if (len > PAT_MAXLEN && ps->k > 0) {
			snprintf(errbuf, errlen, "pattern of %zu %s is longer "
			    "than the limit of %d %s with errors (-k)", len,
			    pat_unit(ps), PAT_MAXLEN, pat_unit(ps));
			goto fail;
		}
		struct pattern *p = new_pattern(ps, &cap);
		p->str = s;
		p->len = len;
		p->nwords = (len + 63) / 64;
		build_peq(p, ps->icase);
		if (len > ps->maxlen)
			ps->maxlen = len;
		if (p->nwords > ps->maxwords)
			ps->maxwords = p->nwords;
	}
	if (ps->u8 != NULL)
		u8_map_done(ps->u8);
	for (size_t x = 0; x < nraw; x++)
		re_result_free(&res[x]);
	free(res);
	return ps->weighted ? weigh_patterns(ps, errbuf, errlen) : 0;
fail_symbols:
	too_many_symbols(errbuf, errlen);
fail:
	for (size_t x = 0; x < nraw; x++)
		re_result_free(&res[x]);
	free(res);
	return -1;
}

/* What a set makes on first use (the engines' caches). */
static void
caches_free(struct patset *ps)
{
	mf_free(ps->multi);
	hm_lines_free(ps->xlines);
	seed_free(ps->seed);
	hplan_free(ps->hplan);
	pp_cache_free(ps->ppcache[0]);
	pp_cache_free(ps->ppcache[1]);
	free(ps->sitelanes);	/* (one block: sites.c) */
}

void
pat_free(struct patset *ps)
{
	caches_free(ps);
	for (size_t i = 0; i < ps->npat; i++)
		free(ps->pat[i].peq);
	free(ps->pat);
	for (size_t i = 0; i < ps->nre; i++)
		re_nfa_free((struct re_nfa *)ps->re[i].re);
	if (ps->sel != NULL)
		re_nfa_free(ps->sel);
	for (size_t i = 0; ps->wre != NULL && i < ps->npat; i++)
		re_nfa_free(ps->wre[i]);
	free(ps->wre);
	if (ps->unit != NULL) {	/* (its own caches; the rest is ps's) */
		caches_free(ps->unit);
		free(ps->unit);
	}
	free(ps->re);
	free(ps->extra);
	for (size_t i = 0; i < ps->nbufs; i++)
		free(ps->bufs[i]);
	free(ps->bufs);
	free(ps->store);
	free(ps->symstore);
	u8_map_free(ps->u8);
	memset(ps, 0, sizeof(*ps));
}
