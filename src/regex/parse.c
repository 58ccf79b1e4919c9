/*
 * parse.c: the parser: a pattern (-G, -E; -F read as literals) into a tree
 * of nodes over classes (regex_int.h: struct node), as GNU grep reads it,
 * with grep's messages for the errors.  re_compile (build.c) calls it,
 * then says what the tree is.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "regex_int.h"
#include "../base/utf8.h"
#include "../base/util.h"

#define RE_DUP_MAX	32767	/* as glibc's */

void
re_fail(struct parser *p, const char *msg)
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
cls_negate(struct re_class *c)
{
	for (int i = 0; i < 4; i++)
		c->w[i] = ~c->w[i];
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
 * NULL for other units.  U, RNA's T, is T (dna.c pairs it with A, so both
 * strands read it alike). */
static const char *
iupac(unsigned char u)
{
	static const char *const codes[] = { "RAG", "YCT", "SCG", "WAT",
	    "KGT", "MAC", "BCGT", "DAGT", "HACT", "VACG", "NACGT", "UT" };

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
			re_fail(p, unmatched);
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
				re_fail(p, unmatched);
				return -1;
			}
			if (kind == ':') {
				if (!posix_class(p, p->s + a, e - a, &c)) {
					re_fail(p,
					    "Invalid character class name");
					return -1;
				}
			} else if (e - a == 1)
				cls_set(&c, p->s[a]);
			else {
				re_fail(p, "Invalid collation character");
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
				re_fail(p, "ranges with non-ASCII ends are not "
				    "supported in UTF-8 mode (--bytes reads "
				    "them as bytes)");
				return -1;
			}
			if (hi < lo) {
				re_fail(p, "Invalid range end");
				return -1;
			}
		}
		for (unsigned x = lo; x <= hi; x++)
			cls_set(&c, x);
	}
	/* "[:alpha:]" is almost surely a mistake, as grep says. */
	if (p->i - start >= 4 && p->s[start] == ':' && p->s[p->i - 2] == ':') {
		re_fail(p, "character class syntax is [[:space:]], not "
		    "[:space:]");
		return -1;
	}
	if (neg) {
		/* -i folds the set before it is complemented: [^a] takes
		 * neither a nor A (folding after would add a back). */
		if (p->o->icase)
			for (unsigned u = 'A'; u <= 'Z'; u++)
				if (cls_has(&c, u) || cls_has(&c, u + 32)) {
					cls_set(&c, u);
					cls_set(&c, u + 32);
				}
		negate(p, &c);
	}
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

/* An interval's checks once read: a minimum above the maximum is invalid
 * content (-1; 0 where lead, ere_interval: a literal, p->i back at at), a
 * bound past RE_DUP_MAX too big (-1); else 1. */
static int
interval_bounds(struct parser *p, int min, int max, int lead, size_t at)
{
	if (max >= 0 && max < min) {
		if (lead) {
			p->i = at;
			return 0;
		}
		re_fail(p, "Invalid content of \\{\\}");
		return -1;
	}
	if (min > RE_DUP_MAX || max > RE_DUP_MAX) {
		re_fail(p, "Regular expression too big");
		return -1;
	}
	return 1;
}

/*
 * One field of an ERE interval from p->i: the characters up to a '}' or a
 * ',' (*stop: which; 0 at the pattern's end), as a number (at most
 * RE_DUP_MAX + 1), -1 when empty, -2 when anything but digits is in it.
 * As glibc's regex reads them (fetch_number).
 */
static int
ere_field(struct parser *p, int *stop)
{
	int v = -1;

	*stop = 0;
	for (; p->i < p->len; p->i++) {
		const unsigned char c = (unsigned char)p->s[p->i];
		if (c == '}' || c == ',') {
			*stop = c;
			p->i++;
			return v;
		}
		if (c < '0' || c > '9' || v == -2)
			v = -2;
		else if ((v = (v < 0 ? 0 : v) * 10 + (c - '0')) > RE_DUP_MAX)
			v = RE_DUP_MAX + 1;
	}
	return -2;
}

/*
 * An ERE interval {m,n}, p->i past the brace, read as GNU grep's regex
 * does: {n}, {n,}, {,n}, {,} and {m,n} are intervals; a field with
 * anything but digits, or no closing brace, makes the brace a literal
 * (p->i restored, 0); {} and a third field ({1,2,3}, {,,) are invalid
 * content, as a minimum above the maximum (-1), but where the brace
 * repeats nothing (lead: at an expression's start, as grep's matcher
 * takes it, whose regex then skips the brace), where they are literals.
 */
static int
ere_interval(struct parser *p, int *min, int *max, int lead)
{
	const size_t at = p->i;
	int stop;

	*min = ere_field(p, &stop);
	if (*min == -1 && stop == '}' && !lead) {
		re_fail(p, "Invalid content of \\{\\}");
		return -1;
	}
	*max = *min;
	if (*min >= 0 && stop == ',') {
		*max = ere_field(p, &stop);
	} else if (*min == -1 && stop == ',') {
		*min = 0;
		*max = ere_field(p, &stop);
	}
	if (*min < 0 || *max == -2 || (stop != '}' && lead)) {
		p->i = at;
		return 0;
	}
	if (stop != '}') {
		re_fail(p, "Invalid content of \\{\\}");
		return -1;
	}
	return interval_bounds(p, *min, *max, lead, at);
}

/*
 * An interval {m,n} (ERE: ere_interval) or \{m,n\} (BRE); p->i is past
 * the brace.  Returns 1 with *min, *max set, 0 when an ERE brace starts no
 * interval (then it is a literal; p->i is restored), -1 on an error.
 */
static int
interval(struct parser *p, int *min, int *max, int lead)
{
	if (p->o->syntax != RE_BASIC)
		return ere_interval(p, min, max, lead);
	*min = number(p);
	*max = *min;
	if (p->i < p->len && p->s[p->i] == ',') {
		p->i++;
		*max = number(p);
		if (*min < 0)
			*min = 0;
	}
	if (p->i + 1 < p->len && p->s[p->i] == '\\' && p->s[p->i + 1] == '}')
		p->i += 2;
	else {
		re_fail(p, p->i >= p->len ? "Unmatched \\{" :
		    "Invalid content of \\{\\}");
		return -1;
	}
	if (*min < 0) {		/* \{\}: no bound */
		re_fail(p, "Invalid content of \\{\\}");
		return -1;
	}
	return interval_bounds(p, *min, *max, 0, 0);
}

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
		if (++p->depth > RE_MAXDEPTH) {
			re_fail(p, "expression nested too deeply");
			return -1;
		}
		{
			int n = re_alternation(p);
			if (p->i >= p->len || p->s[p->i] != ')') {
				re_fail(p, "Unmatched ( or \\(");
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
		re_fail(p, "Trailing backslash");
		return -1;
	}
	u = p->s[p->i++];
	if (u >= '1' && u <= '9') {
		re_fail(p, u - '0' > p->groups ? "Invalid back reference" :
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
		if (++p->depth > RE_MAXDEPTH) {
			re_fail(p, "expression nested too deeply");
			return -1;
		}
		n = re_alternation(p);
		if (p->i + 1 >= p->len || p->s[p->i] != '\\' ||
		    p->s[p->i + 1] != ')') {
			re_fail(p, "Unmatched ( or \\(");
			return -1;
		}
		p->i += 2;
		p->depth--;
		p->groups++;
		return n;
	}
	if (bre && u == ')') {
		re_fail(p, "Unmatched ) or \\)");
		return -1;
	}
	if (bre && u == '{' && start)
		return literal(p, u);
	return literal(p, u);
}

/* Applies the repetition operators after an atom (lead: one that repeats
 * nothing, an ERE's leading operator or anchor: ere_interval). */
static int
postfix(struct parser *p, int n, int lead)
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
			if ((r = interval(p, &min, &max, lead)) < 0)
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
		int a, lead = 0;
		/* A leading repetition operator: literal in a BRE; in an
		 * ERE it repeats the empty string, as in GNU grep (which
		 * warns). */
		if (!fixed && bre && start && u == '*') {
			p->i++;
			a = literal(p, u);
		} else if (!fixed && !bre && start && (u == '*' || u == '+' ||
		    u == '?' || u == '{'))
			a = node(p, N_EMPTY, -1, -1), lead = 1;
		else
			a = atom(p, start);
		if (a < 0)
			return -1;
		/* (an anchor is no operand for grep's regex: the operator
		 * after it is taken as at an expression's start) */
		lead |= !bre && (p->nd[a].op == N_BOL || p->nd[a].op == N_EOL ||
		    p->nd[a].op == N_ASSERT);
		/* After a leading ^: * is literal in a BRE; in an ERE the
		 * anchor is repeated, so it stays if it must occur. */
		if (bre && start && p->nd[a].op == N_BOL && p->i < p->len &&
		    p->s[p->i] == '*') {
			n = a;
			a = literal(p, p->s[p->i++]);
		}
		if ((a = postfix(p, a, lead)) < 0)
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
int
re_alternation(struct parser *p)
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
