/* hostmatch.h: Myers' algorithm in plain C on the host. */
#ifndef AGREP_HOSTMATCH_H
#define AGREP_HOSTMATCH_H

#include <stddef.h>
#include <stdint.h>

#include "pattern.h"

/* hm_engine(): scalar Myers (else a SIMD variant of simd.h, or -1: auto) */
#define HM_ENGINE_SCALAR	100
/* hm_engine(): the filter forced where it applies / the filter off */
#define HM_ENGINE_FILTER	101
#define HM_ENGINE_NOFILTER	102
/* hm_engine(): the shared many-pattern filter forced / off */
#define HM_ENGINE_MULTI	103
#define HM_ENGINE_NOMULTI	104
/* hm_engine(): the pattern-parallel engine (pp.c) forced for every
 * pattern it takes / off */
#define HM_ENGINE_PP	105
#define HM_ENGINE_NOPP	106
/* hm_engine(): the seed filter (seed.c) for every pattern it covers */
#define HM_ENGINE_SEED	107
/* --no-indels: from this many patterns on, the shared filter (multi.c)
 * proposes their windows; below, each has its own pigeonhole filter. */
#define HM_HAMMING_MULTI	8
/* --no-indels: ranges this long or longer are first narrowed to the
 * records Myers' SIMD engine selects (hostmatch.c: hamming_sel) */
#define HM_HAMMING_SEL		16384
/* Chunks shorter than this stay on the scalar engine (the SIMD one is
 * 1.7-2x faster at 1 KB, 3x at 4 KB on the 2-core EPYC:
 * bench/results/2core-simd.md). */
#define HM_SIMD_MIN	1024

/* The pigeonhole filter's candidate records of at least this many bytes
 * are verified by the SIMD engine, shorter ones by the scalar one (when
 * the SIMD one is allowed and the pattern fits it). */
#ifndef HM_SIMD_VERIFY
#define HM_SIMD_VERIFY	4096
#endif

/* Which engines a scan runs, each setting -1 off, 0 automatic (the rule),
 * 1 forced: engine, a SIMD variant or HM_ENGINE_SCALAR (-1: automatic);
 * filter, the pigeonhole filter of filter.c; multi, the shared filter of
 * multi.c (forced: covering every pattern it can, never giving one up);
 * pp, the pattern-parallel engine of pp.c; seed, the seed filter of seed.c
 * (never in the rule: 1 runs it, without the shared filter). */
struct mflt;
struct hsel {
	int	engine, filter, multi, pp;
	const struct mflt *mf;	/* multi forced: this filter (NULL: one
				 * built for the call) */
	int	seed;
};

/* Myers' step over one text unit of Eq for one word of state (VP, VN);
 * returns the change of the score at row last (its bit). */
static inline long
myers_step(uint64_t Eq, uint64_t *VP, uint64_t *VN, uint64_t last)
{
	uint64_t X = Eq | *VN;
	const uint64_t D0 = (((X & *VP) + *VP) ^ *VP) | X;
	const uint64_t HN = *VP & D0;
	const uint64_t HP = *VN | ~(*VP | D0);

	X = HP << 1;
	*VN = X & D0;
	*VP = (HN << 1) | ~(X | D0);
	return ((HP & last) != 0) - ((HN & last) != 0);
}

/* hostmatch.c */
int	hm_engine(void);
void	hm_sel_forced(int engine, struct hsel *);
void	hm_scan_sel(const struct patset *, const struct hsel *,
	    const unsigned char *text, size_t warm, size_t len,
	    unsigned char eol, uint64_t *bitmap);
void	hm_hamming(const struct patset *, const unsigned char *text,
	    size_t warm, size_t len, unsigned char eol, uint64_t *bitmap);
void	hm_scan_scalar(const struct patset *, const unsigned char *text,
	    size_t warm, size_t len, unsigned char eol, uint64_t *bitmap);
void	hm_scan(const struct patset *, const unsigned char *text, size_t warm,
	    size_t len, unsigned char eol, uint64_t *bitmap);
int	hm_scan_ends(const struct patset *, const unsigned char *text,
	    size_t len, unsigned char eol, uint64_t *bitmap);
void	hm_scan_range(const struct pattern *, long k,
	    const unsigned char *text, size_t from, size_t to, size_t warm,
	    unsigned char eol, uint64_t *bitmap);
int	hm_least(const struct pattern *, const unsigned char *text, size_t m,
	    size_t *end);
int	hm_filter_pattern(const struct pattern *, long k, int icase,
	    const unsigned char *text, size_t warm, size_t len,
	    unsigned char eol, uint64_t *bitmap, int variant, int force);
int	hm_lines_ok(const struct patset *);
int	hm_lines_set_ok(const struct patset *);
int	hm_line_in(const struct patset *, const unsigned char *rec, size_t n);
void	hm_lines(const struct patset *, const unsigned char *text,
	    size_t len, unsigned char eol, uint64_t *bitmap);
void	hm_lines_free(struct xlines *);
void	hm_exact(const struct pattern *, const unsigned char *text,
	    size_t len, unsigned char eol, uint64_t *bitmap);

#endif
