/*
 * multi.h: the shared pigeonhole filter for many patterns (issue 10): it
 * proposes windows of a chunk that may hold a match; the caller
 * (hostmatch.c) verifies them.
 */
#ifndef AGREP_MULTI_H
#define AGREP_MULTI_H

#include <stddef.h>
#include <stdint.h>

#include "pattern.h"

/*
 * Thresholds (measured on the King James Bible, 2-core machine;
 * bench/results/many.md).  Overridable with -D.
 *   MF_MINPAT: hm_scan uses the shared filter from this many covered
 *     patterns on (Bible x8, k=1, one thread: 8 patterns 165 ms with it,
 *     109 ms without; 16: 201 against 274 ms; 64: 273 against 902 ms).
 *   MF_WORK: what the shared filter costs the host, in patterns scanned
 *     by the SIMD engine (one 10-byte pattern, k=1: 35 ms on the Bible x8;
 *     the filter with 16 to 10,000 patterns: 200-310 ms): search.c's
 *     engine choice counts it so.
 *   MF_MINPIECE: a pattern joins only when its k + 1 pieces hold at least
 *     this many bytes each; shorter ones go to the engines.  1: pieces of
 *     one byte pay too, since a record is left at its first match and a
 *     pattern whose piece is everywhere leaves (Bible, one thread: 20
 *     patterns of 3 bytes, k=1, 213 ms against 573 ms without the filter;
 *     200 of 4-6 bytes, k=2, 21 ms against 690 ms).
 *   MF_MAXLEN: the longest pattern that joins (one word of Myers state).
 *   MF_DENSITY, MF_SLACK: a pattern whose verifications pass
 *     len / MF_DENSITY + MF_SLACK bytes in one chunk leaves the filter for
 *     the rest of that chunk: the engines scan the chunk for it.
 */
#ifndef MF_MINPAT
#define MF_MINPAT	12
#endif
#ifndef MF_MINPIECE
#define MF_MINPIECE	1
#endif
#define MF_MAXLEN	64
#ifndef MF_WORK
#define MF_WORK		8
#endif
#ifndef MF_DENSITY
#define MF_DENSITY	8
#endif
#ifndef MF_SLACK
#define MF_SLACK	4096
#endif

struct mflt;

/*
 * A window to verify: Myers for pattern pat over text[ws, we) from a
 * fresh state; its first match ending at or after the chunk's warm-up, if
 * any, is the record's hit (then mf_found).
 */
struct mf_win {
	size_t pat, ws, we;
};

/* One walk over a chunk, on the caller's stack (multi.c's fields). */
struct mf_walk {
	const struct mflt *m;
	const unsigned char *t;
	size_t warm, all;	/* text[0, all), the first warm bytes warm-up */
	uint32_t *cost;		/* window bytes per pattern, or MF_LEFT */
	size_t *touched, ntouched; /* the patterns whose cost is set, where
				 * cost is the thread's (multi.c) */
	uint32_t limit;		/* past it, a pattern leaves */
	size_t nleft;		/* patterns that left */
	size_t next;		/* the start of the next record */
	size_t rs, re;		/* the record walked (rs == re: none) */
	size_t i, last;		/* its position looked at, its last one */
	uint32_t key;		/* the (folded) bytes at i */
	unsigned q;		/* the key length looked up at i */
	uint32_t x, xend;	/* the bucket entries left for q */
};

/* multi.c */
struct mflt *mf_build(const struct patset *, unsigned char eol, int force);
const struct mflt *mf_get(const struct patset *, unsigned char eol);
const struct mflt *mf_auto(const struct patset *, unsigned char eol);
void	mf_free(struct mflt *);
size_t	mf_covered(const struct mflt *, const struct patset *, size_t *work);
int	mf_covers(const struct mflt *, size_t p);
const size_t *mf_uncovered(const struct mflt *, size_t *n);
int	mf_start(struct mf_walk *, const struct mflt *,
	    const unsigned char *text, size_t warm, size_t len);
int	mf_next(struct mf_walk *, struct mf_win *);
void	mf_found(struct mf_walk *);
void	mf_skip(struct mf_walk *, size_t i);
void	mf_one_record(struct mf_walk *);
unsigned char *mf_end(struct mf_walk *);
const unsigned char *mf_vector(const struct mflt *, size_t p);

#endif
