/* filter.h: the pigeonhole filter of the host matcher (issue 10). */
#ifndef AGREP_FILTER_H
#define AGREP_FILTER_H

#include <stddef.h>
#include <stdint.h>

#include "pattern.h"

/*
 * Thresholds (measured on the King James Bible, 2-core AMD EPYC, against the
 * SIMD engine: bench/RESULTS-simd.md, "Filter").
 *   FLT_MINPIECE: the filter runs only when every piece holds at least this
 *     many bytes.
 *   FLT_MAXPIECES: at most this many pieces (k + 1).
 *   FLT_DENSITY: the filter gives up (the rest goes to the engines) once the
 *     records it verified exceed 1/FLT_DENSITY of the bytes scanned so far
 *     (plus FLT_SLACK bytes).
 *   FLT_SIMD_VERIFY: ranges to verify at least this long go to the SIMD
 *     engine, shorter ones to the scalar one.
 */
#define FLT_MINPIECE	4
#define FLT_MAXPIECES	16
#define FLT_DENSITY	8
#define FLT_SLACK	65536
#define FLT_SIMD_VERIFY	4096

/* filter.c */
int	flt_scan_pattern(const struct pattern *, long k, int icase,
	    const unsigned char *text, size_t warm, size_t len,
	    unsigned char eol, uint64_t *bitmap, int variant, int force);

#endif
