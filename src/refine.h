/* refine.h: costs and match positions of selected records, on the host. */
#ifndef AGREP_REFINE_H
#define AGREP_REFINE_H

#include <stddef.h>

#include "pattern.h"

/*
 * From this many patterns on, refine tries on a record only the patterns
 * that the shared filter (multi.c) finds may match it, rather than every
 * pattern (AGREP_GPU_REFINE=all|cand forces either way).
 */
#ifndef RF_MINPAT
#define RF_MINPAT	8
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
char	*rf_cigar(const struct pattern *, const unsigned char *t, size_t m);
void	rf_free(void);

#endif
