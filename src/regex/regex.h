/* regex.h: approximate regular expressions (-G, -E): the parser, the
 * Glushkov automaton and its bit-parallel scan with k + 1 rows. */
#ifndef AGREP_REGEX_H
#define AGREP_REGEX_H

#include <stddef.h>
#include <stdint.h>

#define RE_MAXSTATES	1024	/* Glushkov states (positions + 1) */
#define RE_MAXK		1024	/* errors an automaton scans with; more
				 * (--best-match): every record is a
				 * candidate, refine.c decides */

/* Syntax of the patterns (-F, -G, -E). */
enum re_syntax { RE_FIXED, RE_BASIC, RE_EXTENDED };

/* What an expression turned out to be. */
enum re_kind {
	RE_LITERAL,	/* bytes (symbols) only: a plain pattern */
	RE_CLASSES,	/* a fixed sequence of classes: Myers with PEq */
	RE_NFA,		/* anything else: the automaton */
	RE_ALTS		/* a small finite language: its words, each a
			 * fixed sequence of classes (Myers patterns) */
};

#define RE_EXPAND_MAX	8	/* words of a language expanded (RE_ALTS) */
#define RE_EXPAND_BIG	65536	/* ... where the automaton cannot take it
				 * (more than RE_MAXSTATES positions) */
#define RE_EXPAND_UNITS	((size_t)1 << 20) /* their units in all */

/*
 * Zero-width assertions (\<, \>, \b, \B, and ^, $ where they do not
 * anchor the whole expression) hold or not at a boundary between two text
 * units, by what lies on either side: the record's edge (its start before,
 * its end after), a word character ([_[:alnum:]], as \w: in UTF-8 mode
 * every character the locale calls alphanumeric, by its symbol), or
 * another unit.  A boundary's context is before * 3 + after; an
 * automaton's side[] says what each unit is.
 */
enum re_side { RE_EDGE, RE_WORD, RE_OTHER };
#define RE_NCTX		9

/* RE_WORD or RE_OTHER: what byte u is next to an assertion (ASCII; in
 * UTF-8 mode a symbol >= 0x80 is what re_opts.symcls says). */
static inline int
re_side(unsigned char u)
{
	return ((u | 32) >= 'a' && (u | 32) <= 'z') || (u >= '0' && u <= '9') ||
	    u == '_' ? RE_WORD : RE_OTHER;
}

/* A set of bytes (or symbols in UTF-8 mode): bit c of w[c / 64]. */
struct re_class {
	uint64_t	 w[4];
};

/* How to read the patterns. */
struct re_opts {
	int	 syntax;	/* enum re_syntax */
	int	 icase;		/* fold ASCII case in classes */
	int	 symbols;	/* units >= 0x80 are UTF-8 mode symbols */
	int	 iupac;		/* --dna: IUPAC codes are classes */
	int	 no_expand;	/* never RE_ALTS (tests) */
	const uint16_t *symcls;	/* UTF-8 mode: the POSIX classes of each
				 * unit >= 0x80 (utf8.h: u8_sym_classes);
				 * NULL: classes are ASCII */
};

/*
 * The Glushkov automaton of an expression: state 0 is the initial one,
 * states 1..nstate-1 the positions (each reached only by its class).
 * State sets are nw 64-bit words.
 */
struct re_nfa {
	size_t		 nstate;
	size_t		 nw;
	uint64_t	*follow;	/* follow[s * nw]: states after s */
	uint64_t	*B;		/* B[c * nw]: positions whose class
					 * holds c */
	uint64_t	*final;		/* the accepting states */
	uint64_t	*T;		/* T[(g * 256 + v) * nw]: the union of
					 * follow[8 g + b] for bits b of v */
	size_t		 ngroups;	/* (nstate + 7) / 8 */
	int		 bol, eol;	/* anchored by ^, by $ */
	size_t		 nassert;	/* assertion states (zero-width:
					 * entered without reading a unit) */
	uint64_t	*P;		/* the states that read a unit */
	uint64_t	*A;		/* A[ctx * nw]: the assertion states
					 * that hold in context ctx */
	unsigned char	 side[256];	/* RE_WORD or RE_OTHER: unit u */
	uint64_t	*TC;		/* one word with assertions: T closed
					 * under those of each context
					 * (build.c: closed_tables) */
	unsigned char	*seg;		/* the literal runs every word holds,
					 * in order, one after the other
					 * (the prefilter) */
	int		 icase;		/* -i: the prefilter folds case */
	size_t		*seglen;	/* each string's length */
	size_t		 nseg;
	size_t		*segalt;	/* the strings of each group (1: a
					 * run; more: alternatives) */
	size_t		 ngrp;
	size_t		*span;		/* runs of adjacent groups as one
					 * group of their concatenations
					 * ("(said|spake) unto "): first and
					 * last group, first string (after
					 * the groups' in seg), strings; 4
					 * values each */
	size_t		 nspan;
	unsigned long	 id;		/* unique in the process (re_scan's
					 * cache of prefilter pieces) */
	struct re_nfa	**branch;	/* a top alternation of anchored
					 * branches, (^And|LORD\.$): each
					 * branch's own automaton (re_scan) */
	size_t		 nbranch;
	struct re_nfa	*loose;		/* with assertions: the automaton
					 * without them (build.c: loose_nfa),
					 * or NULL */
	size_t		 minlen;	/* the shortest word of the language */
	size_t		 maxlen;	/* the longest, SIZE_MAX if none */
};

/* The result of re_compile. */
struct re_result {
	int		 kind;		/* enum re_kind */
	unsigned char	*lit;		/* RE_LITERAL: the units */
	struct re_class	*cls;		/* RE_CLASSES: one per position;
					 * RE_ALTS: the words one after the
					 * other */
	size_t		 n;		/* units or classes (in all) */
	size_t		*wlen;		/* RE_ALTS: the words' lengths */
	size_t		 nword;
	struct re_nfa	*nfa;		/* RE_NFA */
	unsigned	 classes;	/* the POSIX classes that classes, \w
					 * \W \s \S and word assertions look
					 * at (bits, utf8.h's U8_ALPHA...) */
};

/* build.c (re_compile, re_result_free, re_nfa_free), prefilter.c
 * (re_scan); regex_int.h says what each file of src/regex holds */
int	 re_compile(const unsigned char *s, size_t len, const struct re_opts *,
	    struct re_result *, char *err, size_t errlen);
void	 re_result_free(struct re_result *);
void	 re_nfa_free(struct re_nfa *);
void	 re_scan(const struct re_nfa *, long k, const unsigned char *text,
	    size_t from, size_t to, size_t warm, unsigned char eol,
	    uint64_t *bitmap);

/* What each kind of edit costs (--insert-cost, --delete-cost,
 * --substitute-cost): at least 1; RE_COST_OFF or more: never made. */
#define RE_COST_OFF	(1 << 20)
struct re_costs {
	int	 ins, del, sub;
};

/* weighted.c: re_scan with edit costs (k the most total cost): the unit
 * cost scan with k / least cost selects the records, the weighted scan
 * verifies them; re_verify_records, that verification for the records
 * that hold a bit of cand, with one automaton or several (a match of one
 * of them), or only the windows of W units that end at its bits (W > 0:
 * every match is that long at most, cand has a bit at every end of a unit
 * cost match, the automata have no anchors and no assertions), with the
 * costs cw (NULL: 1 each, by re_scan_all); it returns the bytes it
 * scanned;
 * re_scan_weighted, the weighted scan of a whole range (first:
 * only up to its first match end).  all_ends: every match end gets its
 * bit (else one a record at least).
 * build.c: the chain automaton of n classes (a plain pattern, weighted). */
void	 re_scan_costs(const struct re_nfa *, const struct re_costs *,
	    long k, const unsigned char *text, size_t from, size_t to,
	    size_t warm, unsigned char eol, int all_ends, uint64_t *bitmap);
size_t	 re_verify_records(struct re_nfa *const *, size_t na,
	    const struct re_costs *, long k, const uint64_t *cand, size_t W,
	    const unsigned char *text, size_t from, size_t to, size_t warm,
	    unsigned char eol, int all_ends, uint64_t *bitmap);
void	 re_scan_weighted(const struct re_nfa *, const struct re_costs *,
	    long k, const unsigned char *text, size_t from, size_t to,
	    size_t warm, unsigned char eol, int first, uint64_t *bitmap);
long	 re_costs_edits(const struct re_costs *, long k);
void	 re_scan_w(const struct re_nfa *, const struct re_costs *, long k,
	    const unsigned char *text, size_t from, size_t to, size_t warm,
	    unsigned char eol, uint64_t *bitmap);
struct re_nfa *re_chain(const struct re_class *cls, size_t n, int icase);

/* relanes.c: re_scan of a small automaton on SIMD lanes; -1: not taken */
int	 re_scan_lanes(const struct re_nfa *, long k, const unsigned char *text,
	    size_t from, size_t to, size_t warm, unsigned char eol,
	    uint64_t *bitmap);
int	 re_lanes_take(const struct re_nfa *, long k, unsigned char eol);
int	 re_scan_lanes_w(const struct re_nfa *, const struct re_costs *,
	    long k, const unsigned char *text, size_t from, size_t to,
	    size_t warm, unsigned char eol, uint64_t *bitmap);
int	 re_lanes_take_w(const struct re_nfa *, const struct re_costs *,
	    long k, unsigned char eol);

#endif
