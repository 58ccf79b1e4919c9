/* pattern.h: patterns and their Myers PEq tables, built on the host. */
#ifndef AGREP_PATTERN_H
#define AGREP_PATTERN_H

#include <stddef.h>
#include <stdint.h>

#include "../regex/regex.h"

#define PAT_MAXLEN 4096		/* bytes (characters in UTF-8 mode) */
#define PAT_MAXWORDS (PAT_MAXLEN / 64)

struct pattern {
	const unsigned char *str;	/* the bytes, owned by the set; in
					 * UTF-8 mode the symbols (utf8.h) */
	size_t len;
	size_t nwords;			/* ceil(len / 64): Myers blocks */
	uint64_t *peq;			/* PEq[c * nwords + b]: bit i of block b
					 * set when str[64 b + i] matches c */
	int cls;			/* position i matches the units of a
					 * class (regex.c): only peq tells,
					 * str holds one unit of each */
	const struct re_nfa *re;	/* an expression's automaton (in
					 * patset.re only; NULL otherwise) */
};

/* Does position i of p match unit c?  (The PEq table says it for a
 * literal as for a class, -i included.) */
static inline int
pat_has(const struct pattern *p, size_t i, unsigned char c)
{
	return (int)(p->peq[(size_t)c * p->nwords + i / 64] >> (i % 64) & 1);
}

#define COST_MAX	1024	/* an edit cost given, at most */

struct mflt;
struct xlines;
struct hplan;
struct pp_cache;
struct sitelanes;
struct seedf;

struct patset {
	struct pattern *pat;	/* the patterns */
	size_t npat;
	size_t maxlen;		/* longest pattern in pat[] */
	size_t maxwords;	/* most blocks of a pattern in pat[] */
	int all_lines;		/* some pattern has len <= k: every line matches */
	int whole;		/* records are scanned whole, never in
				 * pieces (stream_long): an expression's
				 * matches have no longest length (a loop),
				 * or it looks at a record's edges (^, $)
				 * or at the units beside an assertion */
	int k;
	int icase;
	int all_ends;		/* every match end gets its bit, not one a
				 * record at least (--hits: sites.c) */
	int hamming;		/* --no-indels: substitutions only, a match
				 * is as long as its pattern (hm_hamming) */
	struct re_costs cost;	/* each kind's cost (regex.h): 1 unless
				 * weighted */
	int weighted;		/* some cost is not 1 (and the search is
				 * not --no-indels'): the automata scan,
				 * with costs (src/regex/weighted.c) */
	struct re_nfa **wre;	/* weighted: pat[x]'s chain automaton,
				 * scanned with the costs */
	struct patset *unit;	/* weighted: the unit cost search with
				 * k / least cost errors that selects the
				 * records (pat[] shared) */
	char *store;		/* pattern bytes */
	size_t storelen;
	int utf8;		/* UTF-8 mode: distance over characters */
	int chars;		/* -w or --show-edits look at the characters
				 * of a match (UTF-8 mode) */
	struct u8map *u8;	/* UTF-8 mode and symbols needed: the map
				 * (NULL when bytes give the same answer) */
	unsigned char *symstore; /* the patterns' symbols */
	uint16_t symcls[256];	/* the classes of each symbol >= 0x80
				 * (u8_sym_classes), for the parser */
	int xline;		/* -x: only whole records match (the tool
				 * sets it; hostmatch.c hm_lines) */
	struct xlines *xlines;	/* hm_lines' set of the patterns, made
				 * on first use */
	struct mflt *multi;	/* the shared filter (multi.c), built on
				 * first use; pat_free frees it */
	struct hplan *hplan;	/* the host planner's choice (hplan.c),
				 * made on first use; pat_free frees it */
	struct pp_cache *ppcache[2]; /* the pattern-parallel engine's
				 * tables (pp.c), made on first use */
	struct seedf *seed;	/* the seed filter (seed.c), built on
				 * first use; pat_free frees it */
	struct sitelanes *sitelanes; /* the hit table's lanes (sites.c),
				 * made on first use; one block */
	int syntax;		/* enum re_syntax: -F, -G (default), -E */
	int iupac;		/* --dna: IUPAC codes are classes */
	int no_expand;		/* no small languages as words (regex.c;
				 * AGREP_GPU_RE_EXPAND=0, tests) */
	int has_cls;		/* some pattern of pat[] has classes */
	struct pattern *re;	/* expressions of the automaton (regex.c):
				 * the host's re_scan only; str, len: the
				 * source, for messages */
	size_t nre;
	struct re_nfa *sel;	/* the automaton of the only pattern, a
				 * small language whose words are pat[]:
				 * hm_scan's scan for them (pattern.c) */
	unsigned char *extra;	/* unescaped literals, class units */
	unsigned char **bufs;	/* the units of expanded languages */
	size_t nbufs;
};

/* pattern.c */
void	 pat_init(struct patset *, int k, int icase);
const char *pat_unit(const struct patset *);
void	 pat_add(struct patset *, const char *, size_t);
char	*pat_read_file(const char *path, size_t *len);
int	 pat_compile(struct patset *, char *errbuf, size_t errlen);
size_t	 pat_errors(const struct patset *, void (*bad)(void *, size_t,
	    const char *), void *);
void	 pat_free(struct patset *);

#endif
