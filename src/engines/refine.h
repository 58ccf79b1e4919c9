/* refine.h: costs and match positions of selected records, on the host. */
#ifndef AGREP_REFINE_H
#define AGREP_REFINE_H

#include <stddef.h>

#include "pattern.h"

/*
 * From this many patterns on, refine tries on a record only the patterns
 * that the shared filter (multi.c) finds may match it, rather than every
 * pattern (AGREP_GPU_REFINE=all|cand forces either way).  Common Bible
 * words, -k1 over the Bible, user seconds, every pattern against the
 * candidates (2-core EPYC, 2026-11-25): -o 2 words 0.04/0.03, 4 words
 * 0.09/0.04, 8 words 0.44/0.18, 16 words 0.65/0.21; --show-cost 0.03/0.02,
 * 0.07/0.04, 0.30/0.11, 0.62/0.11.
 */
#ifndef RF_MINPAT
#define RF_MINPAT	4
#endif

/* Where a match may start and end. */
enum rf_mode {
	RF_ANY,		/* any substring */
	RF_WORD,	/* -w: at word boundaries */
	RF_LINE		/* -x: the whole record */
};

/* refine.c */
void	rf_init(const struct patset *, enum rf_mode, unsigned char eol);
int	rf_cost(const unsigned char *line, size_t len, int exact);
int	rf_find(const unsigned char *line, size_t len, size_t from,
	    size_t *start, size_t *end);
int	rf_find_pat(const unsigned char *line, size_t len, size_t from,
	    size_t *start, size_t *end, const struct pattern **);
int	rf_best(const unsigned char *line, size_t len, size_t *start,
	    size_t *end, const struct pattern **);
char	*rf_ops(const struct pattern *, const unsigned char *t, size_t m,
	    size_t *nops, size_t **off);
size_t	rf_start(const struct pattern *, const unsigned char *line,
	    size_t from, size_t end, int cost);
char	*rf_cigar(const struct pattern *, const unsigned char *t, size_t m);
void	rf_hold(const unsigned char *line, size_t len);
void	rf_release(void);
void	rf_free(void);

#endif
