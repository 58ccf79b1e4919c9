/*
 * re_common.h: what the expression checkers share (reexh.c, the automaton
 * on the host; reocl.c, its OpenCL kernel): the automaton of any expression,
 * the random numbers and the random expressions.  After reoracle.c and
 * src/regex.h.
 */
#ifndef AGREP_RE_COMMON_H
#define AGREP_RE_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The automaton of expr, even a literal one (a trailing (()|())* makes it
 * an automaton without changing its language); NULL if it has none. */
static struct re_nfa *
automaton(const char *expr)
{
	struct re_opts o = { RE_EXTENDED, 0, 0, 0, 0, NULL };
	struct re_result r;
	char err[200], buf[300];
	size_t n = strlen(expr);

	if (re_compile((const unsigned char *)expr, n, &o, &r, err,
	    sizeof(err)) != 0)
		return NULL;
	if (r.kind != RE_NFA) {
		re_result_free(&r);
		if (n > 0 && expr[n - 1] == '$')
			snprintf(buf, sizeof(buf), "%.*s(()|())*$",
			    (int)(n - 1), expr);
		else
			snprintf(buf, sizeof(buf), "%s(()|())*", expr);
		if (re_compile((const unsigned char *)buf, strlen(buf), &o, &r,
		    err, sizeof(err)) != 0 || r.kind != RE_NFA) {
			re_result_free(&r);
			return NULL;
		}
	}
	struct re_nfa *a = r.nfa;
	r.nfa = NULL;
	re_result_free(&r);
	return a;
}

static uint64_t rs = 88172645463325252ull;

static unsigned
rnd(unsigned n)
{
	rs ^= rs << 13;
	rs ^= rs >> 7;
	rs ^= rs << 17;
	return (unsigned)(rs % n);
}

/* A random expression of about depth d into b (256 bytes), its atoms from
 * atom(): concatenations, alternations, ?, *, + and intervals of them. */
static void
gen(char *b, int d, const char *(*atom)(void))
{
	int r = (int)rnd(d > 0 ? 10 : 4);
	char x[256], y[256];

	if (r < 4) {
		strcpy(b, atom());
		return;
	}
	gen(x, d - 1, atom);
	switch (r) {
	case 4: case 5:
		gen(y, d - 1, atom);
		snprintf(b, 256, "%.120s%.120s", x, y);
		break;
	case 6:
		gen(y, d - 1, atom);
		snprintf(b, 256, "(%.120s|%.120s)", x, y);
		break;
	case 7:
		snprintf(b, 256, "(%.200s)%c", x, "?*+"[rnd(3)]);
		break;
	case 8:
		snprintf(b, 256, "(%.200s){%u,%u}", x, rnd(2), 1 + rnd(2));
		break;
	default:
		snprintf(b, 256, "%.250s", x);
	}
}

#endif
