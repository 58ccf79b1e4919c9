/*
 * seed.h: the seed filter for many DNA patterns (seed.c): pieces of the
 * patterns with up to one edit each, looked up by their last bases in a
 * table of 2-bit keys; it proposes windows, the caller verifies them.
 */
#ifndef AGREP_SEED_H
#define AGREP_SEED_H

#include <stddef.h>
#include <stdint.h>

#include "pattern.h"

struct seedf;

/* A window of the text to verify against pattern pat: text[ws, we), clipped
 * to its record and to the text. */
struct sd_win {
	size_t	 pat;
	size_t	 ws, we;
};

/* The walk over one chunk (the caller's, on its stack): the scan runs
 * ahead, queueing up to SD_QUEUE positions whose key is in the table (and
 * prefetching their buckets), then their entries are compared in order. */
#define SD_QUEUE 16
struct sd_cand {
	size_t	 i, rs;		/* the position, its record's first byte */
	uint64_t R;		/* the register there */
	unsigned valid;
};
struct sd_walk {
	const struct seedf *sd;
	const unsigned char *text;
	size_t	 end;		/* text[0, end) */
	size_t	 warm;
	size_t	 i;		/* the scan: the next byte to read */
	size_t	 srs;		/* ... its record's first byte */
	uint64_t R;		/* ... the last 32 bases, 2 bits each */
	unsigned valid;		/* ... bases since the last break */
	struct sd_cand q[SD_QUEUE];
	unsigned qh, qt;	/* the queue: q[qh, qt) */
	int	 runwait;	/* the scan stopped at a run of other bytes */
	size_t	 runrs;		/* ... its record's first byte */
	size_t	 rs;		/* the window's record's first byte */
	size_t	 reol;		/* its terminator (or end); < the position:
				 * unknown */
	int	 pend;		/* 1: entries e..e1 of q[qh]; 2: a run's */
	size_t	 e, e1;
	size_t	 t;		/* the run's next window (a pattern) */
	size_t	 ra, rb;	/* the run of other bytes [ra, rb) */
	double	 cost, limit;	/* bytes of windows proposed; the most */
	int	 gaveup;
};

struct seedf *seed_get(const struct patset *, unsigned char eol);
int	 seed_applies(const struct patset *);
struct seedf *seed_build(const struct patset *, unsigned char eol, int force);
void	 seed_free(struct seedf *);
size_t	 seed_covered(const struct seedf *);
int	 seed_covers(const struct seedf *, size_t pat);
int	 seed_start(struct sd_walk *, const struct seedf *,
	    const unsigned char *text, size_t warm, size_t len);
int	 seed_next(struct sd_walk *, struct sd_win *);
void	 seed_found(struct sd_walk *);
unsigned char *seed_end(struct sd_walk *);
void	 seed_describe(const struct seedf *, char *buf, size_t len);

#endif
