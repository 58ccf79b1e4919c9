/* pp.h: the pattern-parallel host engine (issue 23): one pattern per lane. */
#ifndef AGREP_PP_H
#define AGREP_PP_H

#include <stddef.h>
#include <stdint.h>

#include "pattern.h"

/* The longest pattern it takes: a 32-bit lane (one word of PEq). */
#define PP_MAXLEN	32

/* hm_scan runs the engine from this many patterns it takes (measured:
 * see hostmatch.c) */
#ifndef PP_MINPAT
#define PP_MINPAT	4
#endif

/* pp.c */
int	pp_eligible(const struct pattern *);
void	pp_scan(const struct patset *, const size_t *idx, size_t n,
	    const unsigned char *text, size_t warm, size_t len,
	    unsigned char eol, uint64_t *bitmap, int variant);

#endif
