/* pp.h: the pattern-parallel host engine (issue 23): one pattern per lane. */
#ifndef AGREP_PP_H
#define AGREP_PP_H

#include <stddef.h>
#include <stdint.h>

#include "pattern.h"

/* The longest pattern it takes: a 32-bit lane (one word of PEq). */
#define PP_MAXLEN	32

/*
 * hm_scan's choice (2-core EPYC, one thread, 8 MB of 150-base DNA reads,
 * 24-base primers at k = 4, user time; bench/results/many.md):
 *   PP_MINPAT: the engine runs from this many patterns on (1-8 primers:
 *     0.02-0.03 s with it or without; 16: 0.03 s against 0.18 s).
 *   PP_PIECE: it takes patterns whose k + 1 pieces are shorter than this
 *     before the filters (100 primers: k = 4, pieces of 4-5 bases, 0.15 s
 *     against 0.89 s with the shared filter; k = 3, 6 bases, 0.16 against
 *     0.30; k = 2, 8 bases, 0.15 against 0.19; k = 1, 0.15 against
 *     0.14), kept at pieces of at most 4 bytes since on English text
 *     pieces of 6-8 bytes are rare and the filters far faster; patterns
 *     that the shared filter gives up in a chunk join it too.
 */
#ifndef PP_MINPAT
#define PP_MINPAT	8
#endif
#ifndef PP_PIECE
#define PP_PIECE	5
#endif
/*   PP_PIECE_BITS: or whose pieces carry fewer bits than this in the
 *     patterns' alphabet (log2 of the units they use, rounded up: DNA 2,
 *     English 5): 24-base primers at k = 3 (6 bases, 12 bits) and k = 2
 *     (8 bases, 16 bits); 100 primers on 32 MB, one thread, user time:
 *     k = 3 0.45 s against 1.22 s by the filters, k = 2 0.44 against
 *     0.70; at k = 1 (12 bases, 24 bits) the filters stay.  English
 *     words (pieces of 5 letters or more: 25 bits) keep the filters. */
#ifndef PP_PIECE_BITS
#define PP_PIECE_BITS	18
#endif

/* pp.c */
int	pp_eligible(const struct pattern *);
struct pp_cache;
void	pp_cache_free(struct pp_cache *);
void	pp_scan(const struct patset *, const size_t *idx, size_t n,
	    const unsigned char *text, size_t warm, size_t len,
	    unsigned char eol, uint64_t *bitmap, int variant);

#endif
