/*
 * regex.c: approximate regular expressions (-G, -E), as GNU grep reads them.
 *
 * The parser turns a pattern into a tree over classes (sets of bytes, or of
 * UTF-8 mode symbols).  re_compile then says what it is:
 *
 *   - literal units only: the plain pattern of -F, searched as before;
 *   - a fixed sequence of classes (., [...], \w, --dna codes): a Myers
 *     pattern whose PEq table holds, at each position, every unit of its
 *     class; every PEq engine runs it unchanged (pattern.c);
 *   - a small finite language without anchors (colou?r, (a|b)c): its
 *     words, at most RE_EXPAND_MAX, each a fixed sequence of classes (so
 *     each a Myers pattern, as with several -e);
 *   - anything else (*, +, ?, {m,n}, |, ^, $, \<, \>, \b, \B): the
 *     Glushkov automaton of the expression, run bit-parallel with k + 1
 *     rows of states (Wu and Manber's agrep; Navarro and Raffinot's
 *     NR-grep), re_scan below, behind a prefilter on pieces of the literal
 *     runs every word holds.
 *
 * Approximate semantics (tre-agrep's -k): a record is selected when some
 * substring of it is within k edits of some word of the language.  A
 * leading ^ and a trailing $ of the whole expression say where that
 * substring lies (record start, end: the scan's bol and eol).  Every other
 * anchor (^ and $ elsewhere, \` and \' as they, \< \> \b \B) is a
 * zero-width assertion: a state of its own in the automaton, entered
 * without reading a unit, only at a text boundary where it holds (by the
 * units on either side: side[]), for nothing, and never edited.  So an
 * alignment of the substring with a word puts each assertion on the
 * boundary between the text units around it, and that boundary must
 * satisfy it (as TRE reads them; tests/reoracle.c is the same on a
 * Thompson automaton).  Word characters are [_[:alnum:]], as \w.
 *
 * In UTF-8 mode the POSIX classes, \w \W \s \S and the word assertions
 * follow the locale's classification, as in grep: a class holds the
 * symbols of the characters in it, the patterns' own and the categories
 * of the others (utf8.c; re_opts.symcls says which symbol is in which
 * class), and ., [^...], \W and \S do not hold an invalid byte.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "regex.h"
#include "../base/utf8.h"
#include "../base/util.h"

#define RE_DUP_MAX	32767	/* as glibc's */

/* N_BOL, N_EOL: ^ and $; N_ASSERT: another assertion (its kind in min) */
enum { N_EMPTY, N_CLASS, N_CAT, N_ALT, N_REP, N_BOL, N_EOL, N_ASSERT };

/* What an assertion state asserts. */
enum { AS_BOL, AS_EOL, AS_WBEG, AS_WEND, AS_WB, AS_NWB };

struct node {
	int		 op;
	int		 a, b;		/* children (N_CAT, N_ALT; N_REP: a) */
	int		 min, max;	/* N_REP; max -1: no bound; N_ASSERT:
					 * min is an AS_ kind */
	struct re_class	 c;		/* N_CLASS */
};

struct parser {
	const unsigned char	*s;
	size_t			 len, i;
	const struct re_opts	*o;
	struct node		*nd;
	size_t			 nn, cap;
	int			 depth;		/* groups open */
	int			 groups;	/* groups closed (\N) */
	unsigned		 classes;	/* re_result.classes */
	char			*err;
	size_t			 errlen;
	int			 failed;
};

static void
fail(struct parser *p, const char *msg)
{
	if (!p->failed)
		snprintf(p->err, p->errlen, "%s", msg);
	p->failed = 1;
}

static int
node(struct parser *p, int op, int a, int b)
{
	if (p->nn == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 32;
		p->nd = xreallocarray(p->nd, p->cap, sizeof(*p->nd));
	}
	memset(&p->nd[p->nn], 0, sizeof(p->nd[p->nn]));
	p->nd[p->nn].op = op;
	p->nd[p->nn].a = a;
	p->nd[p->nn].b = b;
	return (int)p->nn++;
}

static void
cls_set(struct re_class *c, unsigned u)
{
	c->w[u / 64] |= (uint64_t)1 << (u % 64);
}

static int
cls_has(const struct re_class *c, unsigned u)
{
	return (int)(c->w[u / 64] >> (u % 64) & 1);
}

static void
cls_negate(struct re_class *c)
{
	for (int i = 0; i < 4; i++)
		c->w[i] = ~c->w[i];
}

static int
cls_count(const struct re_class *c)
{
	int n = 0;

	for (int i = 0; i < 4; i++)
		n += __builtin_popcountll(c->w[i]);
	return n;
}

/* Complements c; in UTF-8 mode invalid bytes stay out (., [^...], \W and
 * \S match characters, as in grep). */
static void
negate(const struct parser *p, struct re_class *c)
{
	cls_negate(c);
	for (unsigned u = 0x80; p->o->symcls != NULL && u < 256; u++)
		if (p->o->symcls[u] & U8_INVAL)
			c->w[u / 64] &= ~((uint64_t)1 << (u % 64));
}

/* Adds the characters of a POSIX class name (name[0, n)) to c: ASCII
 * ones, and in UTF-8 mode the symbols of the others in it; 0 if unknown. */
static int
posix_class(struct parser *p, const unsigned char *name, size_t n,
    struct re_class *c)
{
	const uint16_t *symcls = p->o->symcls;
	int which = -1;

	for (int i = 0; i < U8_NCLASS; i++)
		if (strlen(u8_class_names[i]) == n &&
		    memcmp(u8_class_names[i], name, n) == 0)
			which = i;
	if (which < 0)
		return 0;
	/* -i: upper and lower are alpha, as in grep (in ASCII folding
	 * gives the same) */
	if (symcls != NULL && p->o->icase && (which == U8_UPPER ||
	    which == U8_LOWER))
		which = U8_ALPHA;
	p->classes |= 1u << which;
	for (unsigned u = 0; u < 128; u++) {
		int in = 0, al = (u | 32) >= 'a' && (u | 32) <= 'z',
		    dg = u >= '0' && u <= '9', pr = u >= 32 && u < 127;
		switch (which) {
		case U8_ALPHA: in = al; break;
		case U8_DIGIT: in = dg; break;
		case U8_ALNUM: in = al || dg; break;
		case U8_UPPER: in = u >= 'A' && u <= 'Z'; break;
		case U8_LOWER: in = u >= 'a' && u <= 'z'; break;
		case U8_SPACE: in = u == ' ' || (u >= 9 && u <= 13); break;
		case U8_BLANK: in = u == ' ' || u == '\t'; break;
		case U8_PUNCT: in = pr && u != ' ' && !al && !dg; break;
		case U8_PRINT: in = pr; break;
		case U8_GRAPH: in = pr && u != ' '; break;
		case U8_CNTRL: in = u < 32 || u == 127; break;
		case U8_XDIGIT:
			in = dg || ((u | 32) >= 'a' && (u | 32) <= 'f');
			break;
		}
		if (in)
			cls_set(c, u);
	}
	for (unsigned u = 0x80; symcls != NULL && u < 256; u++)
		if (symcls[u] >> which & 1)
			cls_set(c, u);
	return 1;
}

/* --dna: the bases an IUPAC code stands for (upper or lower case), or
 * NULL for other units. */
static const char *
iupac(unsigned char u)
{
	static const char *const codes[] = { "RAG", "YCT", "SCG", "WAT",
	    "KGT", "MAC", "BCGT", "DAGT", "HACT", "VACG", "NACGT" };

	for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
		if (codes[i][0] == u || codes[i][0] == u - ('a' - 'A'))
			return codes[i] + 1;
	return NULL;
}

/* A class holding the one unit u (or its IUPAC bases with --dna). */
static int
literal(struct parser *p, unsigned char u)
{
	int n = node(p, N_CLASS, -1, -1);
	const char *b;

	if (p->o->iupac && (b = iupac(u)) != NULL) {
		for (; *b != '\0'; b++)
			cls_set(&p->nd[n].c, u >= 'a' ? (unsigned char)(*b +
			    ('a' - 'A')) : (unsigned char)*b);
	} else
		cls_set(&p->nd[n].c, u);
	return n;
}

/* \w \W \s \S, or -1. */
static int
escape_class(struct parser *p, unsigned char u)
{
	struct re_class c;

	memset(&c, 0, sizeof(c));
	switch (u) {
	case 'w': case 'W':
		posix_class(p, (const unsigned char *)"alnum", 5, &c);
		cls_set(&c, '_');
		break;
	case 's': case 'S':
		posix_class(p, (const unsigned char *)"space", 5, &c);
		break;
	default:
		return -1;
	}
	if (u == 'W' || u == 'S')
		negate(p, &c);
	int n = node(p, N_CLASS, -1, -1);
	p->nd[n].c = c;
	return n;
}

/* A bracket expression; p->i is past the '['. */
static int
bracket(struct parser *p)
{
	const char *unmatched = "Unmatched [, [^, [:, [., or [=";
	struct re_class c;
	size_t start = p->i;
	int neg = 0;

	memset(&c, 0, sizeof(c));
	if (p->i < p->len && p->s[p->i] == '^') {
		neg = 1;
		p->i++;
	}
	for (int first = 1;; first = 0) {
		if (p->i >= p->len) {
			fail(p, unmatched);
			return -1;
		}
		unsigned char u = p->s[p->i];
		if (u == ']' && !first) {
			p->i++;
			break;
		}
		if (u == '[' && p->i + 1 < p->len && (p->s[p->i + 1] == ':' ||
		    p->s[p->i + 1] == '=' || p->s[p->i + 1] == '.')) {
			unsigned char kind = p->s[p->i + 1];
			size_t a = p->i + 2, e = a;
			while (e + 1 < p->len && !(p->s[e] == kind &&
			    p->s[e + 1] == ']'))
				e++;
			if (e + 1 >= p->len) {
				fail(p, unmatched);
				return -1;
			}
			if (kind == ':') {
				if (!posix_class(p, p->s + a, e - a, &c)) {
					fail(p, "Invalid character class name");
					return -1;
				}
			} else if (e - a == 1)
				cls_set(&c, p->s[a]);
			else {
				fail(p, "Invalid collation character");
				return -1;
			}
			p->i = e + 2;
			continue;
		}
		unsigned lo = u, hi = u;
		p->i++;
		if (p->i + 1 < p->len && p->s[p->i] == '-' &&
		    p->s[p->i + 1] != ']') {
			hi = p->s[p->i + 1];
			p->i += 2;
			if (p->o->symbols && (lo >= 0x80 || hi >= 0x80)) {
				fail(p, "ranges with non-ASCII ends are not "
				    "supported in UTF-8 mode (--bytes reads "
				    "them as bytes)");
				return -1;
			}
			if (hi < lo) {
				fail(p, "Invalid range end");
				return -1;
			}
		}
		for (unsigned x = lo; x <= hi; x++)
			cls_set(&c, x);
	}
	/* "[:alpha:]" is almost surely a mistake, as grep says. */
	if (p->i - start >= 4 && p->s[start] == ':' && p->s[p->i - 2] == ':') {
		fail(p, "character class syntax is [[:space:]], not [:space:]");
		return -1;
	}
	if (neg)
		negate(p, &c);
	int n = node(p, N_CLASS, -1, -1);
	p->nd[n].c = c;
	return n;
}

/* Reads a decimal number at p->i (at most RE_DUP_MAX + 1); -1 if none. */
static int
number(struct parser *p)
{
	int v = -1;

	while (p->i < p->len && p->s[p->i] >= '0' && p->s[p->i] <= '9') {
		v = (v < 0 ? 0 : v) * 10 + (p->s[p->i++] - '0');
		if (v > RE_DUP_MAX)
			v = RE_DUP_MAX + 1;
	}
	return v;
}

/*
 * An interval {m,n} (ERE) or \{m,n\} (BRE); p->i is past the brace.
 * Returns 1 with *min, *max set, 0 when an ERE brace starts no interval
 * (then it is a literal; p->i is restored), -1 on an error.
 */
static int
interval(struct parser *p, int *min, int *max)
{
	const int bre = p->o->syntax == RE_BASIC;
	size_t at = p->i;

	*min = number(p);
	*max = *min;
	if (p->i < p->len && p->s[p->i] == ',') {
		p->i++;
		*max = number(p);
		if (*min < 0)
			*min = 0;
	}
	if (bre && p->i + 1 < p->len && p->s[p->i] == '\\' &&
	    p->s[p->i + 1] == '}')
		p->i += 2;
	else if (!bre && p->i < p->len && p->s[p->i] == '}')
		p->i++;
	else if (bre) {
		fail(p, p->i >= p->len ? "Unmatched \\{" :
		    "Invalid content of \\{\\}");
		return -1;
	} else {
		p->i = at;
		return 0;
	}
	if (*min < 0 && *max < 0 && bre) {
		fail(p, "Invalid content of \\{\\}");
		return -1;
	}
	if (*min < 0) {
		p->i = at;
		return 0;
	}
	if (*max >= 0 && *max < *min) {
		fail(p, "Invalid content of \\{\\}");
		return -1;
	}
	if (*min > RE_DUP_MAX || *max > RE_DUP_MAX) {
		fail(p, "Regular expression too big");
		return -1;
	}
	return 1;
}

static int alternation(struct parser *);

/* Is the text at p->i the end of a BRE alternative (\) or \| or the end)? */
static int
bre_end(const struct parser *p, size_t i)
{
	return i >= p->len || (i + 1 < p->len && p->s[i] == '\\' &&
	    (p->s[i + 1] == ')' || p->s[i + 1] == '|'));
}

/* One atom; start: at the start of an alternative (where * is literal). */
static int
atom(struct parser *p, int start)
{
	const int bre = p->o->syntax == RE_BASIC;
	const int fixed = p->o->syntax == RE_FIXED;
	unsigned char u = p->s[p->i++];

	if (fixed)
		return literal(p, u);
	switch (u) {
	case '.': {
		int n = node(p, N_CLASS, -1, -1);
		negate(p, &p->nd[n].c);
		return n;
	}
	case '[':
		return bracket(p);
	case '^':
		if (!bre || start)
			return node(p, N_BOL, -1, -1);
		return literal(p, u);
	case '$':
		if (!bre || bre_end(p, p->i))
			return node(p, N_EOL, -1, -1);
		return literal(p, u);
	case '(':
		if (bre)
			return literal(p, u);
		p->depth++;
		{
			int n = alternation(p);
			if (p->i >= p->len || p->s[p->i] != ')') {
				fail(p, "Unmatched ( or \\(");
				return -1;
			}
			p->i++;
			p->depth--;
			p->groups++;
			return n;
		}
	case '\\':
		break;
	default:
		return literal(p, u);
	}
	if (p->i >= p->len) {
		fail(p, "Trailing backslash");
		return -1;
	}
	u = p->s[p->i++];
	if (u >= '1' && u <= '9') {
		fail(p, u - '0' > p->groups ? "Invalid back reference" :
		    "back-references (\\1 to \\9) are not supported");
		return -1;
	}
	const char *as = u != '\0' ? strchr("`'<>bB", u) : NULL;
	if (as != NULL) {
		/* (\` and \' are the record's start and end, as grep
		 * matches line by line) */
		int n = node(p, N_ASSERT, -1, -1);
		p->nd[n].min = (int)(as - "`'<>bB");
		if (p->nd[n].min >= AS_WBEG)
			p->classes |= 1u << U8_ALNUM;
		return n;
	}
	int n = escape_class(p, u);
	if (n >= 0)
		return n;
	if (bre && u == '(') {
		p->depth++;
		n = alternation(p);
		if (p->i + 1 >= p->len || p->s[p->i] != '\\' ||
		    p->s[p->i + 1] != ')') {
			fail(p, "Unmatched ( or \\(");
			return -1;
		}
		p->i += 2;
		p->depth--;
		p->groups++;
		return n;
	}
	if (bre && u == ')') {
		fail(p, "Unmatched ) or \\)");
		return -1;
	}
	if (bre && u == '{' && start)
		return literal(p, u);
	return literal(p, u);
}

/* Applies the repetition operators after an atom. */
static int
postfix(struct parser *p, int n)
{
	const int bre = p->o->syntax == RE_BASIC;

	while (!p->failed && p->i < p->len && p->o->syntax != RE_FIXED) {
		unsigned char u = p->s[p->i];
		int min, max, r;
		size_t at = p->i;

		if (bre && u == '\\' && p->i + 1 < p->len)
			u = p->s[p->i + 1] == '{' || p->s[p->i + 1] == '+' ||
			    p->s[p->i + 1] == '?' ? p->s[p->i + 1] : 0;
		else if (bre && u != '*')
			u = 0;
		if (u == '*' || u == '+' || u == '?') {
			p->i += bre && u != '*' ? 2 : 1;
			min = u == '+';
			max = u == '?' ? 1 : -1;
		} else if (u == '{') {
			p->i += bre ? 2 : 1;
			if ((r = interval(p, &min, &max)) < 0)
				return -1;
			if (r == 0) {
				p->i = at;
				break;
			}
		} else
			break;
		if (p->nd[n].op == N_EMPTY)
			continue;	/* the empty string repeated */
		r = node(p, N_REP, n, -1);
		p->nd[r].min = min;
		p->nd[r].max = max;
		n = r;
	}
	return n;
}

/* A concatenation, up to | or ) (ERE) or \| or \) (BRE) or the end. */
static int
concatenation(struct parser *p)
{
	const int bre = p->o->syntax == RE_BASIC;
	const int fixed = p->o->syntax == RE_FIXED;
	int n = -1;

	for (int start = 1; !p->failed && p->i < p->len; start = 0) {
		unsigned char u = p->s[p->i];
		if (!fixed && !bre && (u == '|' || (u == ')' && p->depth > 0)))
			break;
		if (bre && p->i + 1 < p->len && u == '\\' &&
		    (p->s[p->i + 1] == '|' || (p->s[p->i + 1] == ')' &&
		    p->depth > 0)))
			break;
		int a;
		/* A leading repetition operator: literal in a BRE; in an
		 * ERE it repeats the empty string, as in GNU grep (which
		 * warns). */
		if (!fixed && bre && start && u == '*') {
			p->i++;
			a = literal(p, u);
		} else if (!fixed && !bre && start && (u == '*' || u == '+' ||
		    u == '?' || u == '{'))
			a = node(p, N_EMPTY, -1, -1);
		else
			a = atom(p, start);
		if (a < 0)
			return -1;
		/* After a leading ^: * is literal in a BRE; in an ERE the
		 * anchor is repeated, so it stays if it must occur. */
		if (bre && start && p->nd[a].op == N_BOL && p->i < p->len &&
		    p->s[p->i] == '*') {
			n = a;
			a = literal(p, p->s[p->i++]);
		}
		if ((a = postfix(p, a)) < 0)
			return -1;
		if (p->nd[a].op == N_REP) {
			int b = a, must = 1;
			for (; p->nd[b].op == N_REP; b = p->nd[b].a)
				must &= p->nd[b].min > 0;
			if (p->nd[b].op == N_BOL)
				a = must ? b : node(p, N_EMPTY, -1, -1);
		}
		n = n < 0 ? a : node(p, N_CAT, n, a);
	}
	return n < 0 ? node(p, N_EMPTY, -1, -1) : n;
}

/* Alternatives separated by | (ERE) or \| (BRE). */
static int
alternation(struct parser *p)
{
	const int bre = p->o->syntax == RE_BASIC;
	int n = concatenation(p);

	while (!p->failed && p->i < p->len && p->o->syntax != RE_FIXED) {
		if (!bre && p->s[p->i] == '|')
			p->i++;
		else if (bre && p->i + 1 < p->len && p->s[p->i] == '\\' &&
		    p->s[p->i + 1] == '|')
			p->i += 2;
		else
			break;
		int b = concatenation(p);
		n = node(p, N_ALT, n, b);
	}
	return n;
}

/* Does the tree under n hold an operator other than N_CAT? */
static int
has_ops(const struct parser *p, int n)
{
	const struct node *x = &p->nd[n];

	if (x->op == N_CAT)
		return has_ops(p, x->a) || has_ops(p, x->b);
	return x->op != N_CLASS && x->op != N_EMPTY;
}

/* Appends the classes of a tree of N_CAT and N_CLASS, left to right. */
static void
flatten(const struct parser *p, int n, struct re_class *out, size_t *k)
{
	if (p->nd[n].op == N_CAT) {
		flatten(p, p->nd[n].a, out, k);
		flatten(p, p->nd[n].b, out, k);
	} else if (p->nd[n].op == N_CLASS)
		out[(*k)++] = p->nd[n].c;
}

static size_t
count_classes(const struct parser *p, int n)
{
	if (p->nd[n].op == N_CAT)
		return count_classes(p, p->nd[n].a) +
		    count_classes(p, p->nd[n].b);
	return p->nd[n].op == N_CLASS;
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
		r = positions(p, x->a) + positions(p, x->b);
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
};

static void
words_free(struct words *w)
{
	free(w->c);
	free(w->len);
	memset(w, 0, sizeof(*w));
}

static void
words_add(struct words *w, const struct re_class *a, size_t na,
    const struct re_class *b, size_t nb)
{
	w->c = xreallocarray(w->c, w->total + na + nb + 1, sizeof(*w->c));
	w->len = xreallocarray(w->len, w->n + 1, sizeof(*w->len));
	if (na > 0)
		memcpy(w->c + w->total, a, na * sizeof(*a));
	if (nb > 0)
		memcpy(w->c + w->total + na, b, nb * sizeof(*b));
	w->len[w->n++] = na + nb;
	w->total += na + nb;
}

/* x := every word of x followed by every word of y; 0, or -1 past
 * RE_EXPAND_MAX words. */
static int
words_cat(struct words *x, const struct words *y)
{
	struct words r = { NULL, NULL, 0, 0 };

	if (x->n * y->n > RE_EXPAND_MAX)
		return -1;
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
 * RE_EXPAND_MAX of them (as sequences of classes: "colou?r" is color and
 * colour, "(a|b)c" is ac and bc); 0, or -1 (then *w is empty).
 */
static int
expand(const struct parser *p, int n, struct words *w)
{
	const struct node *x = &p->nd[n];
	struct words y = { NULL, NULL, 0, 0 };

	memset(w, 0, sizeof(*w));
	switch (x->op) {
	case N_EMPTY:
		words_add(w, NULL, 0, NULL, 0);
		return 0;
	case N_CLASS:
		words_add(w, &x->c, 1, NULL, 0);
		return 0;
	case N_CAT:
		if (expand(p, x->a, w) == 0 && expand(p, x->b, &y) == 0 &&
		    words_cat(w, &y) == 0) {
			words_free(&y);
			return 0;
		}
		break;
	case N_ALT:
		if (expand(p, x->a, w) == 0 && expand(p, x->b, &y) == 0 &&
		    w->n + y.n <= RE_EXPAND_MAX) {
			for (size_t j = 0, o = 0; j < y.n; o += y.len[j++])
				words_add(w, y.c + o, y.len[j], NULL, 0);
			words_free(&y);
			return 0;
		}
		break;
	case N_REP: {
		if (x->max < 0 || x->max > RE_EXPAND_MAX)
			break;
		struct words one, acc = { NULL, NULL, 0, 0 };
		if (expand(p, x->a, &one) == -1)
			break;
		words_add(&acc, NULL, 0, NULL, 0);
		int ok = 1;
		for (int i = 0; ok && i <= x->max; i++) {
			if (i >= x->min)
				for (size_t j = 0, o = 0; j < acc.n;
				    o += acc.len[j++])
					words_add(w, acc.c + o, acc.len[j],
					    NULL, 0);
			ok = w->n <= RE_EXPAND_MAX && (i == x->max ||
			    words_cat(&acc, &one) == 0);
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

static inline void follow_of(const struct re_nfa *, const uint64_t *,
    uint64_t *);

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

/* Can re_scan look at a's windows only (re_scan_window)? */
static int
windowed(const struct re_nfa *a, long k)
{
	return k >= 0 && (a->bol || a->eol) && a->nassert == 0 &&
	    a->maxlen < SIZE_MAX / 2 && a->maxlen + (size_t)k < 4096;
}

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
 * Parses s[0, len) as o says and tells what it is (see the top of the
 * file).  Returns 0, or -1 with grep's message (or ours) in err.
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
	root = alternation(&p);
	if (!p.failed && p.i < p.len)
		fail(&p, o->syntax == RE_BASIC ? "Unmatched ) or \\)" :
		    "Unmatched ( or \\(");
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
	if (positions(&p, root) + 1 > RE_MAXSTATES) {
		snprintf(err, errlen, "expression too long: more than %d "
		    "positions", RE_MAXSTATES - 1);
		free(p.nd);
		return -1;
	}
	/* A small finite language: its words, for the Myers engines
	 * (host and devices, filters, many patterns). */
	struct words w;
	if (!bol && !eol && !o->no_expand && expand(&p, root, &w) == 0) {
		r->kind = RE_ALTS;
		r->cls = w.c;
		r->wlen = w.len;
		r->nword = w.n;
		r->n = w.total;
		free(p.nd);
		return 0;
	}
	r->kind = RE_NFA;
	r->nfa = build_nfa(&p, root, bol, eol);
	r->nfa->icase = o->icase;
	literal_runs(&p, root, r->nfa);
	if (!bol && !eol)
		anchored_branches(&p, root, r->nfa);
	free(p.nd);
	return 0;
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

/* out := the states that follow some state of D (Glushkov: T[D]). */
static inline void
follow_of(const struct re_nfa *a, const uint64_t *D, uint64_t *out)
{
	const size_t nw = a->nw;

	memset(out, 0, nw * sizeof(*out));
	for (size_t w = 0; w < nw; w++) {
		uint64_t d = D[w];
		for (size_t gi = w * 8; d != 0; gi++, d >>= 8) {
			unsigned v = (unsigned)(d & 0xff);
			if (v == 0)
				continue;
			const uint64_t *t = a->T + (gi * 256 + v) * nw;
			for (size_t x = 0; x < nw; x++)
				out[x] |= t[x];
		}
	}
}

static inline int
meets(const uint64_t *x, const uint64_t *y, size_t nw)
{
	for (size_t w = 0; w < nw; w++)
		if (x[w] & y[w])
			return 1;
	return 0;
}

static inline void
hit(uint64_t *bitmap, size_t j)
{
	bitmap[j / 64] |= (uint64_t)1 << (j % 64);
}

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
/* T[D] for an automaton of one word (up to 64 states) of G groups of 8
 * states: G lookups, no branch (T[g][0] is empty). */
static inline __attribute__((always_inline)) uint64_t
follow1(const uint64_t *T, uint64_t D, const int G)
{
	uint64_t out = T[D & 0xff];

	for (int g = 1; g < G; g++)
		out |= T[g * 256 + (D >> (8 * g) & 0xff)];
	return out;
}

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
		size_t at = i > *ls ? i - 1 : i;
		if (a->eol && at >= warm && (R[K] & fin))
			hit(bitmap, at - warm);
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
	switch (a->ngroups) {
	case 1: RE_SCAN1_K(1); break;
	case 2: RE_SCAN1_K(2); break;
	case 3: RE_SCAN1_K(3); break;
	case 4: RE_SCAN1_K(4); break;
	case 5: RE_SCAN1_K(5); break;
	case 6: RE_SCAN1_K(6); break;
	case 7: RE_SCAN1_K(7); break;
	default: RE_SCAN1_K(8); break;
	}
#undef RE_SCAN1_K
#undef RE_SCAN1_F
	return 0;
}


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
static int
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
	switch (a->ngroups) {
	case 1: RE_SCAN_AS1_K(1); break;
	case 2: RE_SCAN_AS1_K(2); break;
	case 3: RE_SCAN_AS1_K(3); break;
	case 4: RE_SCAN_AS1_K(4); break;
	case 5: RE_SCAN_AS1_K(5); break;
	case 6: RE_SCAN_AS1_K(6); break;
	case 7: RE_SCAN_AS1_K(7); break;
	default: RE_SCAN_AS1_K(8); break;
	}
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

/* re_scan_as1_g for an automaton of several words. */
static void
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
		if (meets(Rk, a->final, nw) && (!a->eol || end)) {
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

static void re_scan_all(const struct re_nfa *, long, const unsigned char *,
    size_t, size_t, size_t, unsigned char, uint64_t *);

#define RE_MINPIECE	3	/* the prefilter's shortest piece */
#define RE_MAXPIECES	16

/* The pieces of length len that group g (its strings from the o-th) gives:
 * as many as its shortest string holds. */
static size_t
group_pieces(const struct re_nfa *a, size_t g, size_t o, size_t len)
{
	size_t n = SIZE_MAX;

	for (size_t s = o; s < o + a->segalt[g]; s++)
		if (a->seglen[s] / len < n)
			n = a->seglen[s] / len;
	return n;
}

/*
 * Cuts the groups of literal strings into k + 1 disjoint pieces as long as
 * they can be (all of one length, at least RE_MINPIECE), the groups of
 * fewest strings first; returns the number of strings to look for (0: no
 * prefilter), their starts in a->seg in at[], their length in *plen.
 */
static size_t
pieces(const struct re_nfa *a, long k, unsigned char eol, size_t *at,
    size_t *plen)
{
	size_t want = (size_t)k + 1, best = 0, n = 0;

	if (a->seg == NULL || want > RE_MAXPIECES)
		return 0;
	for (size_t len = RE_MINPIECE; best + 1 == len || len == RE_MINPIECE;
	    len++) {
		size_t got = 0;
		for (size_t g = 0, o = 0; g < a->ngrp; o += a->segalt[g++])
			got += group_pieces(a, g, o, len);
		if (got >= want)
			best = len;
	}
	if (best == 0)
		return 0;
	for (size_t m = 1, slots = 0; m <= RE_MAXPIECES && slots < want; m++)
		for (size_t g = 0, o = 0; g < a->ngrp; o += a->segalt[g++]) {
			if (a->segalt[g] != m)
				continue;
			size_t gp = group_pieces(a, g, o, best);
			for (size_t j = 0; j < gp && slots < want; j++, slots++)
				for (size_t s = o; s < o + m; s++) {
					size_t off = 0;
					for (size_t t = 0; t < s; t++)
						off += a->seglen[t];
					if (n == RE_MAXPIECES)
						return 0;
					at[n++] = off + j * best;
				}
		}
	for (size_t i = 0; i < n; i++)
		if (memchr(a->seg + at[i], eol, best) != NULL)
			return 0;
	*plen = best;
	return n;
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
static void
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

/*
 * memmem, with every unit or'ed with fold (0x20 for -i, else 0) on both
 * sides: ASCII letters compare without case, and the few other units that
 * meet so ('@' and '`', symbols 0x80 and 0xa0 in UTF-8 mode, whose -i
 * folding is in the symbols already) only make candidates the automaton
 * rejects.  The piece's units at o1 and o2 (its rarest in the text, or
 * its first and last) are compared 16 positions at a time.  (Faster than glibc's memmem on these pieces: 2-core EPYC, 86 MB
 * of Bible, -c -E -k1 'mercy.*ever' 0.27 s with memmem, 0.10 s with -i.)
 */
static const unsigned char *
find_piece(const unsigned char *t, size_t n, const unsigned char *p,
    size_t plen, unsigned char fold, size_t o1, size_t o2)
{
	typedef unsigned char v16 __attribute__((vector_size(16)));
	const v16 f = (v16){ 0 } + fold;
	const v16 first = (v16){ 0 } + (unsigned char)(p[o1] | fold);
	const v16 last = (v16){ 0 } + (unsigned char)(p[o2] | fold);
	size_t i = 0;

	if (plen > n)
		return NULL;
	for (; i + 16 + plen - 1 <= n; i += 16) {
		v16 a, b;
		memcpy(&a, t + i + o1, 16);
		memcpy(&b, t + i + o2, 16);
		v16 m = ((a | f) == first) & ((b | f) == last);
		uint64_t lo, hi;
		memcpy(&lo, &m, 8);
		memcpy(&hi, (const unsigned char *)&m + 8, 8);
		if ((lo | hi) == 0)
			continue;
		for (size_t j = 0; j < 16; j++) {
			size_t q = 0;
			if (((const unsigned char *)&m)[j] == 0)
				continue;
			while (q < plen && ((t[i + j + q] ^ p[q]) | fold) ==
			    fold)
				q++;
			if (q >= plen)
				return t + i + j;
		}
	}
	for (; i + plen <= n; i++) {
		size_t q = 0;
		while (q < plen && ((t[i + q] ^ p[q]) | fold) == fold)
			q++;
		if (q == plen)
			return t + i;
	}
	return NULL;
}

/* Occurrences of piece p in t[0, n) (fold as find_piece's). */
static size_t
piece_count(const unsigned char *t, size_t n, const unsigned char *p,
    size_t plen, unsigned char fold)
{
	size_t c = 0;

	for (const unsigned char *f = t; (f = find_piece(f, n - (size_t)(f -
	    t), p, plen, fold, 0, plen - 1)) != NULL; f++)
		c++;
	return c;
}

#define RP_SAMPLE	((size_t)16 << 10) /* bytes of text counted in */
#define RP_MAXLEN	8	/* longer pieces: counted by their start */
#define RP_MAXSTR	64	/* strings longer: not cut */

#define RP_MAXSTRS	64	/* strings looked at */

/*
 * The rarest k + 1 pieces (fewest occurrences in the sample t[0, n), the
 * counts summed) that the groups can be cut into: each string whole or
 * cut into consecutive pieces of 2 units or more; a group of alternatives
 * into q pieces by cutting each of its strings into q, its j-th piece
 * being the set of their j-th pieces (a word holds one of them where the
 * group is); a span of adjacent groups (re_nfa.span) likewise, as one
 * group of their concatenations.  "mercy.*ever" at k = 2: "mer", "cy" and
 * "ever" (pieces' are "me", "rc" and "ev"); "And (he|she|they) (said|
 * spake) unto ..." at k = 1: "And he ", "And she ", "And they " and "said
 * unto ", "spake unto ".  At most RE_MAXPIECES strings in all.  Returns
 * their number (0: they cannot be had), their starts in a->seg in at[] and
 * lengths in len[].
 */
static size_t
rare_pieces(const struct re_nfa *a, long k, unsigned char eol,
    const unsigned char *t, size_t n, size_t *at, size_t *len)
{
	const size_t want = (size_t)k + 1, M = RE_MAXPIECES;
	const unsigned char fold = a->icase ? 0x20 : 0;
	const size_t INF = SIZE_MAX / 4, ng = a->ngrp;
	size_t soff[RP_MAXSTRS], slen[RP_MAXSTRS], ns = 0;
	/* the units a choice is made of: a group or a span, groups g0 to g1,
	 * their ustr strings from soff[ufirst] on */
	size_t ug0[2 * RP_MAXSTRS], ug1[2 * RP_MAXSTRS], ufirst[2 *
	    RP_MAXSTRS], ustr[2 * RP_MAXSTRS], nu = 0;

	if (want > M || ng == 0)
		return 0;
	size_t nall = a->nseg;
	if (a->nspan > 0)
		nall = a->span[4 * (a->nspan - 1) + 2] +
		    a->span[4 * (a->nspan - 1) + 3];
	size_t *off = xcalloc(nall + 1, sizeof(*off));
	for (size_t x = 0; x < nall; x++)
		off[x + 1] = off[x] + a->seglen[x];
	for (size_t g = 0, o = 0; g < ng + a->nspan; g++) {
		size_t g0 = g, g1 = g, first = o, m;
		if (g < ng) {
			m = a->segalt[g];
			o += m;
		} else {
			const size_t *sp = a->span + 4 * (g - ng);
			g0 = sp[0];
			g1 = sp[1];
			first = sp[2];
			m = sp[3];
		}
		size_t ok = m <= M && ns + m <= RP_MAXSTRS;
		for (size_t x = first; x < first + m && ok; x++)
			ok = a->seglen[x] >= 2 && a->seglen[x] <= RP_MAXSTR &&
			    memchr(a->seg + off[x], eol, a->seglen[x]) == NULL;
		if (!ok)
			continue;
		ug0[nu] = g0;
		ug1[nu] = g1;
		ufirst[nu] = ns;
		ustr[nu++] = m;
		for (size_t x = first; x < first + m; x++) {
			soff[ns] = off[x];
			slen[ns++] = a->seglen[x];
		}
	}
	free(off);
	if (nu == 0)
		return 0;
	/* dp[s][p][i]: the least count of string s's first i units cut in p
	 * pieces, from[s][p][i] the last one's start; cnt[i][j]: the count
	 * of units i to j of the string at hand */
	size_t (*dp)[RE_MAXPIECES + 1][RP_MAXSTR + 1] = xcalloc(ns,
	    sizeof(*dp));
	unsigned char (*from)[RE_MAXPIECES + 1][RP_MAXSTR + 1] = xcalloc(ns,
	    sizeof(*from));
	size_t (*cnt)[RP_MAXSTR + 1] = xcalloc(RP_MAXSTR + 1, sizeof(*cnt));
	for (size_t s = 0; s < ns; s++) {
		const unsigned char *u = a->seg + soff[s];
		const size_t L = slen[s];
		for (size_t i = 0; i < L; i++)
			for (size_t j = i + 2; j <= L; j++)
				cnt[i][j] = j - i > RP_MAXLEN ?
				    cnt[i][i + RP_MAXLEN] :
				    piece_count(t, n, u + i, j - i, fold);
		for (size_t p = 0; p <= M; p++)
			for (size_t i = 0; i <= L; i++)
				dp[s][p][i] = p == 0 && i == 0 ? 0 : INF;
		for (size_t p = 1; p <= want && 2 * p <= L; p++)
			for (size_t i = 2 * p; i <= L; i++)
				for (size_t j = 2 * (p - 1); j + 2 <= i; j++) {
					if (dp[s][p - 1][j] == INF)
						continue;
					size_t c = dp[s][p - 1][j] + cnt[j][i];
					if (c < dp[s][p][i]) {
						dp[s][p][i] = c;
						from[s][p][i] = (unsigned char)j;
					}
				}
	}
	/* the units' pieces together, left to right over the groups (a unit
	 * takes its groups, a group may be left out): exactly want pieces,
	 * at most M strings, least in all (a string's pieces cover it
	 * whole: longer pieces are rarer); tot[g][p][c]: over the groups
	 * before g, p pieces of c strings, reached from group back[] with
	 * unit how[] - 1 (0: none) cut in q[] */
	const size_t cells = (ng + 1) * (M + 1) * (M + 1);
	size_t *tot = xcalloc(cells, sizeof(*tot));
	unsigned short *back = xcalloc(cells, sizeof(*back));
	unsigned char *how = xcalloc(cells, 1), *qq = xcalloc(cells, 1);
#define RP_AT(g, p, c)	(((g) * (M + 1) + (p)) * (M + 1) + (c))
	for (size_t x = 0; x < cells; x++)
		tot[x] = x == 0 ? 0 : INF;
	for (size_t g = 0; g < ng; g++)
		for (size_t p = 0; p <= want; p++)
			for (size_t c = 0; c <= M; c++) {
				const size_t here = tot[RP_AT(g, p, c)];
				if (here == INF)
					continue;
				if (here < tot[RP_AT(g + 1, p, c)]) {
					tot[RP_AT(g + 1, p, c)] = here;
					back[RP_AT(g + 1, p, c)] =
					    (unsigned short)g;
					how[RP_AT(g + 1, p, c)] = 0;
				}
				for (size_t u = 0; u < nu; u++) {
					if (ug0[u] != g)
						continue;
					for (size_t q = 1; p + q <= want &&
					    c + q * ustr[u] <= M; q++) {
						size_t cost = here;
						for (size_t s = ufirst[u]; s <
						    ufirst[u] + ustr[u]; s++)
							cost += dp[s][q][slen[s]];
						size_t to = RP_AT(ug1[u] + 1,
						    p + q, c + q * ustr[u]);
						if (cost < tot[to]) {
							tot[to] = cost;
							back[to] =
							    (unsigned short)g;
							how[to] =
							    (unsigned char)(u + 1);
							qq[to] = (unsigned char)q;
						}
					}
				}
			}
	size_t np = 0, bc = 0;
	for (size_t c = 1; c <= M; c++)
		if (tot[RP_AT(ng, want, c)] < tot[RP_AT(ng, want, bc)])
			bc = c;
	if (tot[RP_AT(ng, want, bc)] < INF) {
		for (size_t g = ng, p = want, c = bc; g > 0;) {
			const size_t x = RP_AT(g, p, c);
			if (how[x] > 0) {
				const size_t u = how[x] - 1, q = qq[x];
				for (size_t s = ufirst[u]; s < ufirst[u] +
				    ustr[u]; s++)
					for (size_t r = q, i = slen[s]; r > 0;
					    r--) {
						size_t j = from[s][r][i];
						at[np] = soff[s] + j;
						len[np++] = i - j;
						i = j;
					}
				p -= q;
				c -= q * ustr[u];
			}
			g = back[x];
		}
	}
#undef RP_AT
	free(tot);
	free(back);
	free(how);
	free(qq);
	free(dp);
	free(from);
	free(cnt);
	return np;
}

/* A thread's prefilter pieces of the last automata and k it scanned (the
 * choice is made on a sample of the first text it scans with them). */
#define RP_CACHE	4
static __thread struct {
	unsigned long	 id;
	long		 k;
	size_t		 n, at[RE_MAXPIECES], len[RE_MAXPIECES];
	unsigned char	 anc[2 * RE_MAXPIECES];
} rp_cache[RP_CACHE];
static __thread unsigned rp_next;

/*
 * The prefilter's next candidate: the record, at or after pos and before
 * to, that holds the first occurrence of one of the np pieces (starts at[]
 * in a->seg, lengths len[], the units find_piece compares first anc[2 i]
 * and anc[2 i + 1], or with anc NULL the first and the last); its start
 * in *ls, its end in *end.  next[]
 * keeps where each piece was found (SIZE_MAX - 1 before the first call,
 * SIZE_MAX: none left).  Returns 0 when there is none.
 */
static int
next_candidate(const struct re_nfa *a, const unsigned char *text, size_t pos,
    size_t to, unsigned char eol, const size_t *at, const size_t *len,
    const unsigned char *anc, size_t np, size_t *next, size_t *ls,
    size_t *end)
{
	size_t m = SIZE_MAX;

	for (size_t i = 0; i < np; i++) {
		if (next[i] == SIZE_MAX)
			continue;	/* none left */
		if (next[i] == SIZE_MAX - 1 || next[i] < pos) {
			const unsigned char *f = find_piece(text + pos, to -
			    pos, a->seg + at[i], len[i], a->icase ? 0x20 : 0,
			    anc ? anc[2 * i] : 0, anc ? anc[2 * i + 1] :
			    len[i] - 1);
			next[i] = f ? (size_t)(f - text) : SIZE_MAX;
		}
		if (next[i] < m)
			m = next[i];
	}
	if (m == SIZE_MAX)
		return 0;
	const unsigned char *b = memrchr(text + pos, eol, m - pos);
	const unsigned char *e = memchr(text + m, eol, to - m);
	*ls = b ? (size_t)(b - text) + 1 : pos;
	*end = e ? (size_t)(e - text) + 1 : to;
	return 1;
}

/* Bytes of t[0, n) in the records the prefilter would hand the automaton
 * with the np pieces at[], len[]. */
static size_t
sample_scanned(const struct re_nfa *a, const unsigned char *t, size_t n,
    unsigned char eol, const size_t *at, const size_t *len, size_t np)
{
	size_t next[RE_MAXPIECES], pos = 0, scanned = 0, ls, end;

	for (size_t i = 0; i < np; i++)
		next[i] = SIZE_MAX - 1;
	while (pos < n && next_candidate(a, t, pos, n, eol, at, len, NULL, np,
	    next, &ls, &end)) {
		scanned += end - ls;
		pos = end;
	}
	return scanned;
}

/*
 * The prefilter's pieces for a scan of t[0, n): their number (0: none),
 * their starts in a->seg in at[], their lengths in len[].  Where t is long
 * enough, chosen on its first RP_SAMPLE bytes (once a thread, for each
 * automaton and k): rare_pieces' where they would hand the automaton less
 * than half the bytes that pieces' would there (or, where pieces has
 * none, than half the sample: mercy.*ever at k = 3 finds "er", "ev", "cy"
 * and "mer" in most records, and is better scanned whole), else pieces'.
 * (The start of a text can mislead: in Genesis, "And " begins most
 * verses.)
 */
static size_t
choose_pieces(const struct re_nfa *a, long k, unsigned char eol,
    const unsigned char *t, size_t n, size_t *at, size_t *len,
    unsigned char *anc)
{
	size_t np, plen = 0, r, at2[RE_MAXPIECES], len2[RE_MAXPIECES];

	for (unsigned c = 0; c < RP_CACHE; c++)
		if (rp_cache[c].id == a->id && rp_cache[c].k == k) {
			memcpy(at, rp_cache[c].at, sizeof(rp_cache[c].at));
			memcpy(len, rp_cache[c].len, sizeof(rp_cache[c].len));
			memcpy(anc, rp_cache[c].anc, sizeof(rp_cache[c].anc));
			return rp_cache[c].n;
		}
	np = pieces(a, k, eol, at, &plen);
	for (size_t i = 0; i < np; i++) {
		len[i] = plen;
		anc[2 * i] = 0;
		anc[2 * i + 1] = (unsigned char)(plen - 1);
	}
	if (n < RP_SAMPLE)
		return np;	/* too little text to choose by */
	const size_t sn = RP_SAMPLE;
	size_t best = np > 0 ? sample_scanned(a, t, sn, eol, at, len, np) :
	    sn;
	if ((r = rare_pieces(a, k, eol, t, sn, at2, len2)) > 0 &&
	    sample_scanned(a, t, sn, eol, at2, len2, r) < best / 2) {
		np = r;
		memcpy(at, at2, sizeof(at2));
		memcpy(len, len2, sizeof(len2));
	}
	/* the two units find_piece compares first: the rarest in the
	 * sample (" said unto " begins and ends with a space) */
	const unsigned char fold = a->icase ? 0x20 : 0;
	size_t h[256] = { 0 };
	for (size_t i = 0; i < sn; i++)
		h[t[i] | fold]++;
	for (size_t i = 0; i < np; i++) {
		const unsigned char *u = a->seg + at[i];
		size_t o1 = 0, o2 = len[i] - 1;
		for (size_t j = 0; j < len[i]; j++)
			if (h[u[j] | fold] < h[u[o1] | fold])
				o1 = j;
		o2 = o1 == 0 ? 1 : 0;
		for (size_t j = 0; j < len[i]; j++)
			if (j != o1 && h[u[j] | fold] < h[u[o2] | fold])
				o2 = j;
		anc[2 * i] = (unsigned char)o1;
		anc[2 * i + 1] = (unsigned char)o2;
	}
	unsigned c = rp_next++ % RP_CACHE;
	rp_cache[c].id = a->id;
	rp_cache[c].k = k;
	rp_cache[c].n = np;
	memcpy(rp_cache[c].at, at, sizeof(rp_cache[c].at));
	memcpy(rp_cache[c].len, len, sizeof(rp_cache[c].len));
	memcpy(rp_cache[c].anc, anc, sizeof(rp_cache[c].anc));
	return np;
}

/*
 * re_scan with the prefilter: only the records holding one of the pieces
 * exactly (without case with -i) go through the automaton.  When they
 * turn out to be most of the text, the rest is scanned whole.
 */
void
re_scan(const struct re_nfa *a, long k, const unsigned char *text,
    size_t from, size_t to, size_t warm, unsigned char eol, uint64_t *bitmap)
{
	size_t at[RE_MAXPIECES], len[RE_MAXPIECES], next[RE_MAXPIECES], np;
	size_t pos = from, scanned = 0, ls, end;
	unsigned char anc[2 * RE_MAXPIECES];

	if (windowed(a, k)) {
		re_scan_window(a, k, text, from, to, warm, eol, bitmap);
		return;
	}
	size_t nb = 0;
	while (nb < a->nbranch && windowed(a->branch[nb], k))
		nb++;
	if (nb > 0 && nb == a->nbranch) {
		for (size_t i = 0; i < nb; i++)
			re_scan_window(a->branch[i], k, text, from, to, warm,
			    eol, bitmap);
		return;
	}
	if (k < 0 || (np = choose_pieces(a, k, eol, text + from, to - from,
	    at, len, anc)) == 0) {
		re_scan_all(a, k, text, from, to, warm, eol, bitmap);
		return;
	}
	for (size_t i = 0; i < np; i++)
		next[i] = SIZE_MAX - 1;		/* not looked for yet */
	/* the share of the text past which the filter only costs: half,
	 * an eighth when the rest would go on lanes (relanes.c: 5-8x the
	 * one-word scan, 2-core EPYC), judged after 64 KB, 16 KB then (the
	 * planner's probe times 64 KB: it saw 334 MB/s a worker where the
	 * ranges ran at 945, one H200 machine's Xeon, -k1 [A-Z][a-z]+ of
	 * [A-Z][a-z]+, and opened the GPU for nothing) */
	const int lanes = re_lanes_take(a, k, eol);
	const size_t share = lanes ? 8 : 2, after = lanes ? 16384 : 65536;
	while (pos < to && next_candidate(a, text, pos, to, eol, at, len, anc,
	    np, next, &ls, &end)) {
		re_scan_all(a, k, text, ls, end, warm, eol, bitmap);
		scanned += end - ls;
		pos = end;
		/* candidates everywhere: the filter only costs */
		if (pos - from >= after && scanned > (pos - from) / share) {
			re_scan_all(a, k, text, pos, to, warm, eol, bitmap);
			return;
		}
	}
}

static void
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
			size_t at = i > ls ? i - 1 : i;
			if (a->eol && at >= warm && meets(R + (size_t)k * nw,
			    a->final, nw))
				hit(bitmap, at - warm);
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
