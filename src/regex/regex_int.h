/*
 * regex_int.h: what the files of the expression automaton share (private:
 * regex.h is the API others include): the parser's tree, the prototypes
 * of the functions called from file to file, the helpers several use.
 *
 *   parse.c      the parser: a pattern into a tree over classes
 *   build.c      re_compile: what the tree is; the Glushkov automaton,
 *                the prefilter's literal runs, anchored branches
 *   scan.c       the bit-parallel scans of a range (re_scan_all,
 *                re_scan_window)
 *   scan_as.c    the scans with assertion states (re_scan_as1,
 *                re_scan_as)
 *   prefilter.c  re_scan: the prefilter's pieces, and the records
 *                that hold one scanned
 *   relanes.c    re_scan_lanes: a small automaton on SIMD lanes
 *
 * Approximate regular expressions (-G, -E), as GNU grep reads them.
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
 *     NR-grep), re_scan (scan.c, prefilter.c), behind a prefilter on
 *     pieces of the literal runs every word holds.
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
#ifndef AGREP_REGEX_INT_H
#define AGREP_REGEX_INT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "regex.h"

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

/* Groups one in another, and the depth of the parsed tree (repetitions of
 * repetitions counted: a{1}{1}...), at most: the parser and the automaton's
 * construction recurse that deep (100,000 groups overflowed the stack; GNU
 * grep says "stack overflow" there). */
#define RE_MAXDEPTH	2000

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

/* parse.c: the parser's error (the first one stays), and the whole
 * expression from p->i (its alternatives). */
void	 re_fail(struct parser *, const char *msg);
int	 re_alternation(struct parser *);

/* Classes: sets of units (regex.h: struct re_class). */
static inline void
cls_set(struct re_class *c, unsigned u)
{
	c->w[u / 64] |= (uint64_t)1 << (u % 64);
}

static inline int
cls_has(const struct re_class *c, unsigned u)
{
	return (int)(c->w[u / 64] >> (u % 64) & 1);
}

static inline int
cls_count(const struct re_class *c)
{
	int n = 0;

	for (int i = 0; i < 4; i++)
		n += __builtin_popcountll(c->w[i]);
	return n;
}

/* Can re_scan look at a's windows only (re_scan_window)? */
static inline int
windowed(const struct re_nfa *a, long k)
{
	return k >= 0 && (a->bol || a->eol) && a->nassert == 0 &&
	    a->maxlen < SIZE_MAX / 2 && a->maxlen + (size_t)k < 4096;
}

/* The scans' helpers (scan.c, scan_as.c; follow_of: build.c too). */

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

/* tr := T[r], then r closed under the assertion states of A (those that
 * hold at this boundary), in chains, tr with them; t: scratch of 2 nw
 * words (scan_as.c's close_row, weighted.c's close_w). */
static inline void
close_assertions(const struct re_nfa *a, const uint64_t *A, uint64_t *r,
    uint64_t *tr, uint64_t *t)
{
	const size_t nw = a->nw;

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

/* The copies of a one-word scan with G, its groups of 8 states, a
 * constant: M(G) for a->ngroups (1 to 8; scan.c, scan_as.c, weighted.c). */
#define RE_BY_GROUPS(ngroups, M)					\
	switch (ngroups) {						\
	case 1: M(1); break;						\
	case 2: M(2); break;						\
	case 3: M(3); break;						\
	case 4: M(4); break;						\
	case 5: M(5); break;						\
	case 6: M(6); break;						\
	case 7: M(7); break;						\
	default: M(8); break;						\
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

/* A match ends at the boundary before text[i], in the record that starts
 * at ls: its bit is on the unit before the boundary (on text[ls] at the
 * record's start), unless that lies in the warm-up.  Returns whether the
 * bit was set. */
static inline int
end_hit(uint64_t *bitmap, size_t i, size_t ls, size_t warm)
{
	const size_t at = i > ls ? i - 1 : i;

	if (at < warm)
		return 0;
	hit(bitmap, at - warm);
	return 1;
}

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

/* scan_as.c: the scans with assertion states, as re_scan_all wants them:
 * re_scan_as1 for one word (0, or -1 where k > 3), re_scan_as for any. */
int	 re_scan_as1(const struct re_nfa *, long k, const unsigned char *text,
	    size_t from, size_t to, size_t warm, unsigned char eol,
	    uint64_t *bitmap);
void	 re_scan_as(const struct re_nfa *, long k, const unsigned char *text,
	    size_t from, size_t to, size_t warm, unsigned char eol,
	    uint64_t *bitmap);

/* scan.c: the automaton's scan of text[from, to), whole (no prefilter),
 * and of the windows of an anchored automaton (windowed). */
void	 re_scan_all(const struct re_nfa *, long k, const unsigned char *text,
	    size_t from, size_t to, size_t warm, unsigned char eol,
	    uint64_t *bitmap);
void	 re_scan_window(const struct re_nfa *, long k,
	    const unsigned char *text, size_t from, size_t to, size_t warm,
	    unsigned char eol, uint64_t *bitmap);

#endif
