/* reoracle.c - naive oracle for agrep-gpu's approximate regular expressions.
 *
 * usage: reoracle [-s] [-u] [-x] [-I N] [-D N] [-S N] -k K EXPR [FILE]
 *
 * Prints the lines of FILE (or stdin) that agrep-gpu -E -k K EXPR selects:
 * a line is selected when some substring of it (the whole line with -x) is
 * within K edits (insert, delete, substitute one byte) of some word of the
 * language of EXPR.  -s prefixes each line with "COST:" (its least cost).
 * -I, -D, -S weigh the edits (agrep-gpu's --insert-cost, --delete-cost,
 * --substitute-cost; "off": never): then the edits' costs add up to K or
 * less.
 *
 * EXPR is an extended expression over bytes: literal bytes, \x (the byte x),
 * a leading *, + or ? (repeating the empty string, as GNU grep -E reads it),
 * ., [...] with ranges and ^, \w \W \s \S, ( ), |, *, +, ?, {m}, {m,},
 * {m,n}, and the zero-width assertions ^ and $ (anywhere: the line's start
 * and end), \` and \' (the same), \< \> \b \B (word start, word end,
 * either, neither; a word character is [_[:alnum:]] in ASCII, and the
 * line's edges are not).  An assertion is crossed at a boundary of the
 * text where it holds, for nothing, and is never edited: the substring is
 * matched against a word of the language, and each assertion between two
 * of its units must hold at the text boundary the alignment puts it on.
 * [:alpha:] and the other POSIX classes are ASCII ones.
 *
 * -u: over characters, as agrep-gpu in a UTF-8 locale: the line and EXPR
 * are decoded with mbrtowc in C.UTF-8 (a byte that begins no character is
 * one of its own, equal only to itself), an edit is one character, and the
 * POSIX classes, \w \W \s \S and the word assertions take the characters
 * iswctype puts in them (an invalid byte is in none, and not a word
 * character); ., [^...], \W and \S match any character but an invalid
 * byte.  The sets are kept as agrep-gpu does not keep them: ASCII members,
 * the non-ASCII characters named, the classes named, negated or not.
 * Enough for the random and exhaustive tests; written apart from
 * src/regex.c on purpose: a Thompson automaton with epsilon edges, and a
 * plain dynamic program over its states per text byte (Bellman-Ford for
 * the epsilon and deletion edges), no bit-parallelism, no Glushkov.
 * Exit status: 0 when a line was selected, 1 when none, 2 on error.
 */
#include <ctype.h>
#include <locale.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>
#include <wctype.h>

#define INF 1000000
#define BAD 0x80000000u		/* -u: an invalid byte, BAD | the byte */

/* ---- parser: a tree ---- */
enum { T_SET, T_CAT, T_ALT, T_REP, T_EMPTY, T_ASSERT };
/* assertion kinds (T_ASSERT's min) */
enum { A_START, A_END, A_WBEG, A_WEND, A_WB, A_NWB };
/* T_SET: set[] holds bytes (ASCII characters with -u); with -u also the
 * non-ASCII characters cp[0, ncp), those of the classes cls (bit i:
 * classnames[i]), and neg complements them (over valid characters). */
struct tnode {
	int op, a, b, min, max;
	unsigned char set[256];
	uint32_t cp[8];
	int ncp;
	unsigned cls;
	int neg;
};
static struct tnode tn[100000];
static int ntn;
static void die(const char *);
static const char *src;
static size_t pos, slen;
static int utf8;		/* -u */
static const char *const classnames[] = { "alpha", "digit", "alnum",
    "upper", "lower", "space", "blank", "punct", "print", "graph", "cntrl",
    "xdigit" };

/* The character at p (n > 0 bytes): its length, *c its code point or
 * BAD | the byte (bytes as they are without -u). */
static size_t
decode(const char *p, size_t n, uint32_t *c)
{
	mbstate_t st;
	wchar_t w;
	size_t l;

	if (!utf8 || (unsigned char)*p < 0x80) {
		*c = (unsigned char)*p;
		return 1;
	}
	memset(&st, 0, sizeof(st));
	l = mbrtowc(&w, p, n, &st);
	if (l == (size_t)-1 || l == (size_t)-2 || l == 0) {
		*c = BAD | (unsigned char)*p;
		return 1;
	}
	*c = (uint32_t)w;
	return l;
}

/* Is character c (a code point, BAD | byte) in set n? */
static int
member(int n, uint32_t c)
{
	const struct tnode *t = &tn[n];
	int in = 0;

	if (!utf8 || c < 0x80)
		return t->set[c];
	for (int i = 0; i < t->ncp; i++)
		in |= t->cp[i] == c;
	for (int i = 0; i < 12 && !(c & BAD); i++)
		if (t->cls >> i & 1 && iswctype((wint_t)c, wctype(classnames[i])))
			in = 1;
	return t->neg ? !in && !(c & BAD) : in;
}

/* Adds the ASCII characters of class i to set n (and with -u the class). */
static void
add_class(int n, int i)
{
	for (int x = 0; x < 128; x++)
		if (iswctype((wint_t)x, wctype(classnames[i])))
			tn[n].set[x] = 1;
	tn[n].cls |= 1u << i;
}

/* Adds character c to set n. */
static void
add_char(int n, uint32_t c)
{
	if (!utf8 || c < 0x80)
		tn[n].set[c] = 1;
	else if (tn[n].ncp < 8)
		tn[n].cp[tn[n].ncp++] = c;
	else
		die("too many characters in a set");
}

/* Complements set n. */
static void
complement(int n)
{
	for (int x = 0; x < (utf8 ? 128 : 256); x++)
		tn[n].set[x] = !tn[n].set[x];
	tn[n].neg = !tn[n].neg;
}

static void
die(const char *m)
{
	fprintf(stderr, "reoracle: %s\n", m);
	exit(2);
}

static int
mk(int op, int a, int b)
{
	if (ntn >= 100000)
		die("expression too large");
	memset(&tn[ntn], 0, sizeof(tn[ntn]));
	tn[ntn].op = op;
	tn[ntn].a = a;
	tn[ntn].b = b;
	return ntn++;
}

static int p_alt(void);

static int
p_atom(void)
{
	unsigned char c = (unsigned char)src[pos++];
	int n;

	if (c == '^' || c == '$' || (c == '\\' && pos < slen &&
	    strchr("`'<>bB", src[pos]) != NULL && src[pos] != '\0')) {
		n = mk(T_ASSERT, -1, -1);
		c = c == '\\' ? (unsigned char)src[pos++] : c;
		tn[n].min = c == '^' || c == '`' ? A_START : c == '$' ||
		    c == '\'' ? A_END : c == '<' ? A_WBEG : c == '>' ? A_WEND :
		    c == 'b' ? A_WB : A_NWB;
		return n;
	}
	if (c == '(') {
		n = p_alt();
		if (pos >= slen || src[pos] != ')')
			die("unmatched (");
		pos++;
		return n;
	}
	n = mk(T_SET, -1, -1);
	uint32_t ch;
	if (c == '.') {
		complement(n);
	} else if (c == '[') {
		int neg = 0, first = 1;
		if (pos < slen && src[pos] == '^') {
			neg = 1;
			pos++;
		}
		for (;; first = 0) {
			if (pos >= slen)
				die("unmatched [");
			if (src[pos] == '[' && src[pos + 1] == ':') {
				const char *e = strstr(src + pos + 2, ":]");
				int i = 0;
				while (e != NULL && i < 12 &&
				    (strlen(classnames[i]) != (size_t)(e - src -
				    pos - 2) || strncmp(classnames[i], src + pos + 2,
				    (size_t)(e - src - pos - 2)) != 0))
					i++;
				if (e == NULL || i == 12)
					die("bad class");
				add_class(n, i);
				pos = (size_t)(e - src) + 2;
				continue;
			}
			pos += decode(src + pos, slen - pos, &ch) - 1;
			unsigned char lo = (unsigned char)src[pos++], hi = lo;
			if (lo == ']' && !first)
				break;
			if (utf8 && ch >= 0x80) {
				add_char(n, ch);	/* (no ranges over them) */
				continue;
			}
			if (pos + 1 < slen && src[pos] == '-' && src[pos + 1] != ']') {
				hi = (unsigned char)src[pos + 1];
				pos += 2;
			}
			for (unsigned x = lo; x <= hi; x++)
				tn[n].set[x] = 1;
		}
		if (neg)
			complement(n);
	} else if (c == '\\') {
		if (pos >= slen)
			die("trailing backslash");
		c = (unsigned char)src[pos];
		if (strchr("wWsS", c) != NULL && c != '\0') {
			pos++;
			add_class(n, c == 'w' || c == 'W' ? 2 : 5);
			if (c == 'w' || c == 'W')
				tn[n].set['_'] = 1;
			if (c == 'W' || c == 'S')
				complement(n);
		} else {
			pos += decode(src + pos, slen - pos, &ch);
			add_char(n, ch);
		}
	} else {
		pos += decode(src + pos - 1, slen - pos + 1, &ch) - 1;
		add_char(n, ch);
	}
	return n;
}

static int
p_cat(void)
{
	int n = mk(T_EMPTY, -1, -1);

	/* a leading *, + or ? repeats the empty string (GNU grep -E) */
	while (pos < slen && (src[pos] == '*' || src[pos] == '+' ||
	    src[pos] == '?'))
		pos++;
	while (pos < slen && src[pos] != '|' && src[pos] != ')') {
		int a = p_atom();
		for (;;) {
			int r;
			if (pos < slen && (src[pos] == '*' || src[pos] == '+' ||
			    src[pos] == '?')) {
				r = mk(T_REP, a, -1);
				tn[r].min = src[pos] == '+';
				tn[r].max = src[pos] == '?' ? 1 : -1;
				pos++;
			} else if (pos < slen && src[pos] == '{') {
				char *e;
				r = mk(T_REP, a, -1);
				pos++;
				tn[r].min = (int)strtol(src + pos, &e, 10);
				pos = (size_t)(e - src);
				tn[r].max = tn[r].min;
				if (src[pos] == ',') {
					pos++;
					tn[r].max = src[pos] == '}' ? -1 :
					    (int)strtol(src + pos, &e, 10);
					pos = (size_t)(e - src);
				}
				if (src[pos] != '}')
					die("bad interval");
				pos++;
			} else
				break;
			a = r;
		}
		n = mk(T_CAT, n, a);
	}
	return n;
}

static int
p_alt(void)
{
	int n = p_cat();

	while (pos < slen && src[pos] == '|') {
		pos++;
		n = mk(T_ALT, n, p_cat());
	}
	return n;
}

/* ---- Thompson automaton: each state has a byte edge or epsilon edges ---- */
/* set: tree node of T_SET, to its target; as: an assertion's kind (or -1),
 * at the state it leads to where it holds */
struct st { int set; int to; int e1, e2; int as, at; };
static struct st *S;
static int ns, cap;

static int
state(void)
{
	if (ns == cap) {
		cap = cap ? 2 * cap : 1024;
		S = realloc(S, (size_t)cap * sizeof(*S));
		if (S == NULL)
			die("out of memory");
	}
	S[ns].set = -1;
	S[ns].to = S[ns].e1 = S[ns].e2 = S[ns].as = S[ns].at = -1;
	return ns++;
}

static void
eps(int from, int to)
{
	if (S[from].e1 < 0)
		S[from].e1 = to;
	else if (S[from].e2 < 0)
		S[from].e2 = to;
	else {
		int m = state();
		S[m].e1 = S[from].e2;
		S[from].e2 = m;
		S[m].e2 = to;
	}
}

/* Emits a fresh copy of tree n between new states; *in, *out. */
static void
emit(int n, int *in, int *out)
{
	int a, b, c, d;

	*in = state();
	*out = state();
	switch (tn[n].op) {
	case T_SET:
		S[*in].set = n;
		S[*in].to = *out;
		break;
	case T_EMPTY:
		eps(*in, *out);
		break;
	case T_ASSERT:
		S[*in].as = tn[n].min;
		S[*in].at = *out;
		break;
	case T_CAT:
		emit(tn[n].a, &a, &b);
		emit(tn[n].b, &c, &d);
		eps(*in, a);
		eps(b, c);
		eps(d, *out);
		break;
	case T_ALT:
		emit(tn[n].a, &a, &b);
		emit(tn[n].b, &c, &d);
		eps(*in, a);
		eps(*in, c);
		eps(b, *out);
		eps(d, *out);
		break;
	case T_REP: {
		int cur = *in;
		for (int i = 0; i < tn[n].min; i++) {
			emit(tn[n].a, &a, &b);
			eps(cur, a);
			cur = b;
		}
		if (tn[n].max < 0) {
			emit(tn[n].a, &a, &b);
			eps(cur, a);
			eps(b, a);
			eps(b, *out);
			eps(cur, *out);
		} else {
			for (int i = tn[n].min; i < tn[n].max; i++) {
				emit(tn[n].a, &a, &b);
				eps(cur, a);
				eps(cur, *out);
				cur = b;
			}
			eps(cur, *out);
		}
		break;
	}
	}
}

/* ---- the DP ---- */
static int start, accept, lineonly;

/* Parses and builds expr (as main does); returns 0, or -1 if unsupported. */
static int
ro_build(const char *expr)
{
	ntn = 0;
	ns = 0;
	src = expr;
	slen = strlen(expr);
	pos = 0;
	int root = p_alt();
	if (pos != slen)
		return -1;
	emit(root, &start, &accept);
	return 0;
}

/* What lies on one side of a text boundary: 0 the line's edge, 1 a word
 * character, 2 another byte (character). */
static int
side(const uint32_t *t, size_t m, long j)
{
	if (j < 0 || (size_t)j >= m)
		return 0;
	if (t[j] < 0x80 || !utf8)
		return isalnum((int)t[j]) || t[j] == '_' ? 1 : 2;
	return !(t[j] & BAD) && iswalnum((wint_t)t[j]) ? 1 : 2;
}

/* Does assertion kind as hold between sides b (before) and f (after)? */
static int
holds(int as, int b, int f)
{
	switch (as) {
	case A_START: return b == 0;
	case A_END: return f == 0;
	case A_WBEG: return b != 1 && f == 1;
	case A_WEND: return b == 1 && f != 1;
	case A_WB: return (b == 1) != (f == 1);
	default: return (b == 1) == (f == 1);
	}
}

/* The edit costs (-I, -D, -S), INF: off. */
static int ci = 1, cd = 1, csub = 1;

static int
wadd(int v, int c)
{
	return v >= INF || c >= INF || v + c >= INF ? INF : v + c;
}

/* Closes cost[] at a boundary with sides b, f: epsilon edges, assertions
 * that hold there (both free), deleted pattern bytes (1). */
static void
relax(int *cost, int b, int f)
{
	for (int changed = 1; changed;) {
		changed = 0;
		for (int s = 0; s < ns; s++) {
			if (cost[s] >= INF)
				continue;
			int t[2] = { S[s].e1, S[s].e2 };
			for (int i = 0; i < 2; i++)
				if (t[i] >= 0 && cost[s] < cost[t[i]]) {
					cost[t[i]] = cost[s];
					changed = 1;
				}
			if (S[s].as >= 0 && holds(S[s].as, b, f) &&
			    cost[s] < cost[S[s].at]) {
				cost[S[s].at] = cost[s];
				changed = 1;
			}
			/* deleting a pattern byte */
			if (S[s].to >= 0 && wadd(cost[s], cd) < cost[S[s].to]) {
				cost[S[s].to] = wadd(cost[s], cd);
				changed = 1;
			}
		}
	}
}

/* The least cost of the line of characters t[0, m). */
static int
units_cost(const uint32_t *t, size_t m)
{
	int *cost = malloc((size_t)ns * sizeof(int)), *nc = malloc((size_t)ns *
	    sizeof(int)), best = INF;

	for (int s = 0; s < ns; s++)
		cost[s] = INF;
	cost[start] = 0;
	relax(cost, side(t, m, -1), side(t, m, 0));
	if (!lineonly || m == 0)
		best = cost[accept];
	for (size_t j = 0; j < m; j++) {
		for (int s = 0; s < ns; s++)
			nc[s] = wadd(cost[s], ci);
		for (int s = 0; s < ns; s++)
			if (cost[s] < INF && S[s].to >= 0) {
				int v = member(S[s].set, t[j]) ? cost[s] :
				    wadd(cost[s], csub);
				if (v < nc[S[s].to])
					nc[S[s].to] = v;
			}
		if (!lineonly)
			nc[start] = 0;
		relax(nc, side(t, m, (long)j), side(t, m, (long)j + 1));
		int *x = cost;
		cost = nc;
		nc = x;
		if (!lineonly || j + 1 == m)
			if (cost[accept] < best)
				best = cost[accept];
	}
	free(cost);
	free(nc);
	return best;
}

/* The least cost of the line b[0, m) (bytes; characters with -u). */
static int
line_cost(const unsigned char *b, size_t m)
{
	uint32_t *t = malloc((m + 1) * sizeof(*t));
	size_t n = 0;
	int c;

	for (size_t i = 0; i < m; n++)
		i += decode((const char *)b + i, m - i, &t[n]);
	c = units_cost(t, n);
	free(t);
	return c;
}

#ifndef REORACLE_NO_MAIN
int
main(int argc, char **argv)
{
	int k = -1, showcost = 0, any = 0, c;
	FILE *f = stdin;

	while ((c = getopt(argc, argv, "suxk:I:D:S:")) != -1)
		switch (c) {
		case 'I': case 'D': case 'S': {
			int v = strcmp(optarg, "off") == 0 ? INF : atoi(optarg);
			*(c == 'I' ? &ci : c == 'D' ? &cd : &csub) = v;
			break;
		}
		case 's': showcost = 1; break;
		case 'u':
			utf8 = 1;
			if (setlocale(LC_CTYPE, "C.UTF-8") == NULL)
				die("no C.UTF-8 locale");
			break;
		case 'x': lineonly = 1; break;
		case 'k': k = atoi(optarg); break;
		default: die("usage: reoracle [-s] [-u] [-x] [-I N] [-D N] [-S N] -k K EXPR [FILE]");
		}
	if (k < 0 || optind >= argc)
		die("usage: reoracle [-s] [-u] [-x] [-I N] [-D N] [-S N] -k K EXPR [FILE]");
	if (ro_build(argv[optind]) == -1)
		die("unsupported expression");
	if (optind + 1 < argc && (f = fopen(argv[optind + 1], "r")) == NULL)
		die("cannot open the file");
	char *line = NULL;
	size_t lcap = 0;
	ssize_t n;
	while ((n = getline(&line, &lcap, f)) >= 0) {
		size_t m = (size_t)n;
		if (m > 0 && line[m - 1] == '\n')
			m--;
		int cst = line_cost((const unsigned char *)line, m);
		if (cst <= k) {
			any = 1;
			if (showcost)
				printf("%d:", cst);
			fwrite(line, 1, m, stdout);
			putchar('\n');
		}
	}
	free(line);
	return any ? 0 : 1;
}
#endif
