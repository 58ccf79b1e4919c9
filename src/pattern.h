/* pattern.h: patterns and their Myers PEq tables, built on the host. */
#ifndef AGREP_PATTERN_H
#define AGREP_PATTERN_H

#include <stddef.h>
#include <stdint.h>

#define PAT_MAXLEN 4096		/* bytes (characters in UTF-8 mode) */
#define PAT_MAXWORDS (PAT_MAXLEN / 64)

struct pattern {
	const unsigned char *str;	/* the bytes, owned by the set; in
					 * UTF-8 mode the symbols (utf8.h) */
	size_t len;
	size_t nwords;			/* ceil(len / 64): Myers blocks */
	uint64_t *peq;			/* PEq[c * nwords + b]: bit i of block b
					 * set when str[64 b + i] matches c */
};

struct mflt;

struct patset {
	struct pattern *pat;	/* the patterns */
	size_t npat;
	size_t maxlen;		/* longest pattern in pat[] */
	size_t maxwords;	/* most blocks of a pattern in pat[] */
	int all_lines;		/* some pattern has len <= k: every line matches */
	int k;
	int icase;
	char *store;		/* pattern bytes */
	size_t storelen;
	int utf8;		/* UTF-8 mode: distance over characters */
	int chars;		/* -w or --show-edits look at the characters
				 * of a match (UTF-8 mode) */
	struct u8map *u8;	/* UTF-8 mode and symbols needed: the map
				 * (NULL when bytes give the same answer) */
	unsigned char *symstore; /* the patterns' symbols */
	struct mflt *multi;	/* the shared filter (multi.c), built on
				 * first use; pat_free frees it */
};

/* pattern.c */
void	 pat_init(struct patset *, int k, int icase);
const char *pat_unit(const struct patset *);
void	 pat_add(struct patset *, const char *, size_t);
int	 pat_add_file(struct patset *, const char *path);
int	 pat_compile(struct patset *, char *errbuf, size_t errlen);
void	 pat_free(struct patset *);

#endif
