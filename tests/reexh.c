/* reexh.c - the expression automaton (src/regex.c, re_scan) against the
 * naive oracle of tests/reoracle.c on every small case, and on random ones.
 *
 * usage: reexh [-q] [-r SEEDS]
 *
 * Bounded-exhaustive (issue 24): every extended expression of 1 to 4 tokens
 * from {a, b, [ab], ., |, ?, *} (1 to 3 with -q), every text of 0 to 7
 * bytes over {a, b} (0 to 5 with -q), k = 0..2, each also anchored with ^,
 * $ and both; each text is one line of a file that holds them all.  A line
 * is selected by the engine when a hit lies in it; by the oracle when its
 * least cost is <= k.  The same over the assertions: every expression of 1
 * to 4 tokens (3 with -q) from {a, space, \<, \>, \b, \B, ^, $, |, ?},
 * every text of 0 to 6 bytes (4 with -q) over {a, space}.  Each expression
 * is checked again as (EXPR|c{70}), an automaton of two words.  Then SEEDS
 * random expressions (classes, ., ?, *, +, {m,n}, |, groups, anchors and
 * word anchors anywhere) over random lines of {a, b, c, space, -}, some
 * with literal runs long enough for re_scan's prefilter; as many random
 * automata of 9 to 16 positions without assertions (relanes.c's rows of
 * two bytes).  Expressions
 * that src/regex.c reads as literals or fixed classes are checked too: their
 * automaton is built by hand here (the tool runs them through Myers).
 * Last, the parser on random strings of syntax characters (20,000 with -q,
 * else 200,000), in the three syntaxes: each one refused with a message or
 * compiled and run; build it with -fsanitize=address,undefined to check
 * its memory (tests.mk's reexh-san, run by tests/regex.bats when built).
 * Prints one line per disagreement and exits 1 if any, else 0.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REORACLE_NO_MAIN
#include "reoracle.c"
#include "../src/regex/regex.h"
#include "re_common.h"

static long ncase, nfail;

static void check1(const char *, const char *, int, char **, int);
static void exhaust_assertions(int, int);

/*
 * Checks expr at k over the lines (joined by '\n', nl of them); then the
 * same with an alternative that no line can come near, c{70} (k <= 3, lines
 * of at most 30 bytes), so that the automaton takes two words (re_scan's
 * general path): the same lines.
 */
static void
check(const char *expr, int k, char **lines, int nl)
{
	char wide[400];
	size_t n = strlen(expr), b = expr[0] == '^', e = n > b &&
	    expr[n - 1] == '$' && (n < 2 || expr[n - 2] != '\\');

	check1(expr, expr, k, lines, nl);
	/* (assertion states in two words) */
	snprintf(wide, sizeof(wide), "(%s|c{70})", expr);
	check1(wide, expr, k, lines, nl);
	if ((b && strchr("*+?", expr[1]) != NULL) || strchr(expr, '|'))
		return;		/* (^* is not ^ then *; ^a|b is not ^(a|b)) */
	/* (the scan's own ^ and $ in two words) */
	snprintf(wide, sizeof(wide), "%s(%.*s|c{70})%s", b ? "^" : "",
	    (int)(n - b - e), expr + b, e ? "$" : "");
	check1(wide, expr, k, lines, nl);
}

/* Checks the engine on expr against the oracle on oexpr. */
static void
check1(const char *expr, const char *oexpr, int k, char **lines, int nl)
{
	static unsigned char text[1 << 20];
	static uint64_t bm[(1 << 20) / 64];
	static size_t ls[1 << 16];
	const size_t warm = 64;
	size_t len = warm;

	if (ro_build(oexpr) == -1)
		return;
	struct re_nfa *a = automaton(expr);
	if (a == NULL) {
		printf("FAIL parse %s\n", expr);
		nfail++;
		return;
	}
	memset(text, '\n', warm);
	for (int i = 0; i < nl; i++) {
		ls[i] = len;
		size_t m = strlen(lines[i]);
		memcpy(text + len, lines[i], m);
		len += m;
		text[len++] = '\n';
	}
	ls[nl] = len;
	memset(bm, 0, (len / 64 + 1) * sizeof(*bm));
	re_scan(a, k, text, 0, len, warm, '\n', bm);
	for (int i = 0; i < nl; i++) {
		int got = 0;
		for (size_t j = ls[i]; j < ls[i + 1]; j++)
			got |= (int)(bm[(j - warm) / 64] >> ((j - warm) % 64) & 1);
		int want = line_cost((const unsigned char *)lines[i],
		    strlen(lines[i])) <= k;
		ncase++;
		if (got != want) {
			nfail++;
			if (nfail < 30)
				printf("FAIL k=%d expr '%s' text '%s': engine "
				    "%d oracle %d\n", k, expr, lines[i], got,
				    want);
		}
	}
	re_nfa_free(a);
}

/* gen's atoms: runs of 3 or more literals (the prefilter's pieces), and
 * assertions, within words as well, half as often. */
static const char *
atom(void)
{
	static const char *const atoms[] = { "a", "b", "c", ".", "[ab]",
	    "[^a]", "[a-c]", "ab", "ba", "abca", "bcab", "cabc", " ", "\\w",
	    "\\W", "\\<", "\\>", "\\b", "\\B", "^", "$", "a\\>",
	    "\\<b", "\\Bc" };

	return atoms[rnd(2) ? rnd(12) : rnd(24)];
}

/*
 * The parser on strings of syntax characters: every one is either refused
 * with a message or compiled, and an automaton scans a line without
 * fault (run under the sanitizers by hand: see tests.mk).
 */
static void
fuzz_parser(int n)
{
	static const char alpha[] = "ab.[]^$*+?{}()|\\,0123-:=wWsS<>";
	unsigned char s[24], text[300];
	uint64_t bm[8];
	char err[200];

	memset(text, 'a', sizeof(text));
	for (int i = 0; i < (int)sizeof(text); i += 7)
		text[i] = "ab\nxb,-("[i % 9];
	for (int t = 0; t < n; t++) {
		size_t len = rnd(sizeof(s));
		for (size_t i = 0; i < len; i++)
			s[i] = (unsigned char)alpha[rnd(sizeof(alpha) - 1)];
		for (int syn = RE_FIXED; syn <= RE_EXTENDED; syn++) {
			struct re_opts o = { syn, (int)rnd(2), (int)rnd(2),
			    (int)rnd(2), (int)rnd(2), NULL };
			struct re_result r;
			err[0] = '\0';
			if (re_compile(s, len, &o, &r, err, sizeof(err)) != 0) {
				if (err[0] == '\0') {
					printf("FAIL no message for '%.*s'\n",
					    (int)len, s);
					nfail++;
				}
				continue;
			}
			if (r.kind == RE_NFA) {
				memset(bm, 0, sizeof(bm));
				re_scan(r.nfa, (long)rnd(3), text, 0,
				    sizeof(text) - 64, 64, '\n', bm);
			}
			re_result_free(&r);
		}
	}
}

/*
 * Bounded-exhaustive over the assertions: every expression of 1 to ntok
 * tokens from {a, space, \<, \>, \b, \B, ^, $, |, ?}, every text of 0
 * to ntext bytes over {a, space}, k = 0..2.
 */
static void
exhaust_assertions(int ntok, int ntext)
{
	static const char *const tok[] = { "a", " ", "\\<", "\\>", "\\b",
	    "\\B", "^", "$", "|", "?" };
	static char store[128][8], *lines[128];
	int nl = 0, total = 1;

	for (int n = 0; n <= ntext; n++)
		for (int v = 0; v < 1 << n; v++) {
			for (int i = 0; i < n; i++)
				store[nl][i] = v >> i & 1 ? ' ' : 'a';
			store[nl][n] = '\0';
			lines[nl] = store[nl];
			nl++;
		}
	for (int n = 1; n <= ntok; n++) {
		total *= 10;
		for (int v = 0; v < total; v++) {
			char e[64] = "";
			for (int i = 0, x = v; i < n; i++, x /= 10)
				strcat(e, tok[x % 10]);
			for (int k = 0; k <= 2; k++)
				check(e, k, lines, nl);
		}
	}
}

/*
 * Weighted costs (weighted.c, relanes.c's weighted lanes): expr with the
 * edit costs cw (RE_COST_OFF: never) and total cost k, over the lines
 * repeated reps times (past re_scan_costs' first block, so that its
 * choice between the selection and the lanes is made); by re_scan_costs,
 * then by re_scan_w alone where the lanes take expr.  Each line instance
 * against the oracle's least weighted cost.
 */
static void
check_w(const char *expr, const struct re_costs *cw, int k, char **lines,
    int nl, int reps)
{
	static unsigned char text[1 << 20];
	static uint64_t bm[(1 << 20) / 64];
	static size_t ls[1 << 16];
	static int want[64];
	const size_t warm = 64;
	struct re_nfa *a;

	if (ro_build(expr) == -1 || (a = automaton(expr)) == NULL)
		return;
	ci = cw->ins >= RE_COST_OFF ? INF : cw->ins;
	cd = cw->del >= RE_COST_OFF ? INF : cw->del;
	csub = cw->sub >= RE_COST_OFF ? INF : cw->sub;
	for (int i = 0; i < nl; i++)
		want[i] = line_cost((const unsigned char *)lines[i],
		    strlen(lines[i])) <= k;
	ci = cd = csub = 1;
	size_t len = warm, n = 0;
	memset(text, '\n', warm);
	for (int r = 0; r < reps; r++)
		for (int i = 0; i < nl; i++) {
			size_t m = strlen(lines[i]);
			ls[n++] = len;
			memcpy(text + len, lines[i], m);
			len += m;
			text[len++] = '\n';
		}
	ls[n] = len;
	for (int way = 0; way < 2; way++) {
		if (way == 1 && !re_lanes_take_w(a, cw, k, '\n'))
			break;
		memset(bm, 0, (len / 64 + 1) * sizeof(*bm));
		if (way == 0)
			re_scan_costs(a, cw, k, text, 0, len, warm, '\n', 1, bm);
		else
			re_scan_w(a, cw, k, text, 0, len, warm, '\n', bm);
		for (size_t x = 0; x < n; x++) {
			int got = 0;
			for (size_t j = ls[x]; j < ls[x + 1]; j++)
				got |= (int)(bm[(j - warm) / 64] >>
				    ((j - warm) % 64) & 1);
			ncase++;
			if (got != want[x % (size_t)nl]) {
				nfail++;
				if (nfail < 30)
					printf("FAIL %s k=%d I%d D%d S%d expr "
					    "'%s' text '%s': engine %d "
					    "oracle %d\n", way ? "lanes" :
					    "costs", k, cw->ins, cw->del,
					    cw->sub, expr, lines[x % (size_t)nl],
					    got, want[x % (size_t)nl]);
				break;
			}
		}
	}
	re_nfa_free(a);
}

/* 40 random lines of 0 to 29 units over {a, b, c, space, -}. */
static char **
random_lines(void)
{
	static char rl[40][64], *rlines[40];

	for (int i = 0; i < 40; i++) {
		int m = (int)rnd(30);
		for (int j = 0; j < m; j++)
			rl[i][j] = "abc abc-"[rnd(8)];
		rl[i][m] = '\0';
		rlines[i] = rl[i];
	}
	return rlines;
}

int
main(int argc, char **argv)
{
	static const char *const tok[] = { "a", "b", "[ab]", ".", "|", "?",
	    "*" };
	int quick = 0, seeds = 300, maxtok, maxtext;
	static char store[300][8], *lines[300];
	int nl = 0;

	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "-q") == 0)
			quick = 1;
		else if (strcmp(argv[i], "-r") == 0 && i + 1 < argc)
			seeds = atoi(argv[++i]);
	maxtok = quick ? 3 : 4;
	maxtext = quick ? 5 : 7;
	for (int n = 0; n <= maxtext; n++)
		for (int v = 0; v < 1 << n; v++) {
			for (int i = 0; i < n; i++)
				store[nl][i] = v >> i & 1 ? 'b' : 'a';
			store[nl][n] = '\0';
			lines[nl] = store[nl];
			nl++;
		}
	for (int n = 1; n <= maxtok; n++) {
		int total = 1;
		for (int i = 0; i < n; i++)
			total *= 7;
		for (int v = 0; v < total; v++) {
			char e[64] = "", e2[80];
			for (int i = 0, x = v; i < n; i++, x /= 7)
				strcat(e, tok[x % 7]);
			for (int k = 0; k <= 2; k++)
				for (int anch = 0; anch < 4; anch++) {
					snprintf(e2, sizeof(e2), "%s%s%s",
					    anch & 1 ? "^" : "", e,
					    anch & 2 ? "$" : "");
					check(e2, k, lines, nl);
				}
		}
	}
	printf("exhaustive: %ld cases, %ld failures\n", ncase, nfail);
	exhaust_assertions(quick ? 3 : 4, quick ? 4 : 6);
	printf("assertions: %ld cases, %ld failures\n", ncase, nfail);
	/* random: longer lines over {a, b, c} */
	for (int s = 0; s < seeds; s++) {
		char e[256], e2[300];
		gen(e, 4, atom);
		snprintf(e2, sizeof(e2), "%s%s%s", rnd(4) == 0 ? "^" : "", e,
		    rnd(4) == 0 ? "$" : "");
		char **rlines = random_lines();
		check(e2, (int)rnd(4), rlines, 40);
	}
	/* random automata of 9 to 16 positions without assertions (the
	 * lanes' rows of two bytes, relanes.c): as many as the seeds */
	int mid = 0;
	for (long tries = 0; mid < seeds && tries < 1000L * seeds; tries++) {
		char e[256];
		gen(e, 5, atom);
		struct re_nfa *a = automaton(e);
		int take = a != NULL && a->nstate >= 10 && a->nstate <= 17 &&
		    a->nassert == 0 && !a->bol && !a->eol;
		if (a != NULL)
			re_nfa_free(a);
		if (!take)
			continue;
		char **rlines = random_lines();
		check(e, (int)rnd(4), rlines, 40);
		mid++;
	}
	printf("random, 9-16 positions: %d expressions\n", mid);
	if (mid < seeds / 2) {
		printf("FAIL: only %d random automata of 9-16 positions\n",
		    mid);
		nfail++;
	}
	/* weighted costs: random expressions without anchors or
	 * assertions (the lanes' kind, 1-16 positions), costs of 1 to 3 or
	 * off, k 0-3, the lines repeated past 64 KB */
	long wbefore = ncase;
	for (int sd = 0; sd < seeds; sd++) {
		static const int cv[] = { 1, 1, 2, 3, RE_COST_OFF };
		char e[256];
		struct re_costs cw;
		gen(e, 2 + (int)rnd(4), atom);
		struct re_nfa *a = automaton(e);
		int take = a != NULL && a->nassert == 0 && !a->bol && !a->eol;
		if (a != NULL)
			re_nfa_free(a);
		if (!take)
			continue;
		do {
			cw.ins = cv[rnd(5)];
			cw.del = cv[rnd(5)];
			cw.sub = cv[rnd(5)];
		} while (cw.ins >= RE_COST_OFF && cw.del >= RE_COST_OFF &&
		    cw.sub >= RE_COST_OFF);
		char **rlines = random_lines();
		check_w(e, &cw, (int)rnd(4), rlines, 40, 120);
	}
	printf("weighted: %ld cases\n", ncase - wbefore);
	fuzz_parser(quick ? 20000 : 200000);
	printf("all: %ld cases, %ld failures\n", ncase, nfail);
	return nfail > 0;
}
