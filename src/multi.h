/* multi.h: the shared pigeonhole filter for many patterns (issue 10). */
#ifndef AGREP_MULTI_H
#define AGREP_MULTI_H

#include <stddef.h>
#include <stdint.h>

#include "pattern.h"

/*
 * Thresholds (measured on the King James Bible, 2-core machine;
 * bench/RESULTS-many.md).  Overridable with -D.
 *   MF_MINPAT: hm_scan uses the shared filter from this many patterns on
 *     (below it, each pattern's own filter or engine is as fast).
 *   MF_MINPIECE: a pattern joins only when its k + 1 pieces hold at least
 *     this many bytes each (forced: 1); shorter ones go to the engines.
 *   MF_MAXLEN: the longest pattern that joins (one word of Myers state).
 *   MF_DENSITY, MF_SLACK: a pattern whose verifications pass
 *     len / MF_DENSITY + MF_SLACK bytes in one chunk leaves the filter for
 *     the rest of that chunk: the engines scan the chunk for it.
 */
#ifndef MF_MINPAT
#define MF_MINPAT	8
#endif
#ifndef MF_MINPIECE
#define MF_MINPIECE	2
#endif
#define MF_MAXLEN	64
#ifndef MF_DENSITY
#define MF_DENSITY	8
#endif
#ifndef MF_SLACK
#define MF_SLACK	4096
#endif

struct mflt;

/* multi.c */
struct mflt *mf_build(const struct patset *, unsigned char eol, int force);
const struct mflt *mf_get(const struct patset *, unsigned char eol);
void	mf_free(struct mflt *);
size_t	mf_covered(const struct mflt *, const struct patset *, size_t *work);
int	mf_covers(const struct mflt *, size_t p);
unsigned char *mf_scan(const struct mflt *, const unsigned char *text,
	    size_t warm, size_t len, uint64_t *bitmap);

#endif
