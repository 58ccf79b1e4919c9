/*
 * sassy.h: the "text along the word" host engine (issue 10): Myers'
 * bit-vectors run along the text (64 text bytes per word) instead of along
 * the pattern, the DP is computed row by row (one pattern byte a row), and
 * a block of 64 bytes stops as soon as no cell of it can be within k any
 * more (the idea of Sassy, Beeloo and Groot Koerkamp 2026; written here
 * from the DP, no code of theirs).  Patterns of 1..63 bytes, n > k.
 */
#ifndef AGREP_SASSY_H
#define AGREP_SASSY_H

#include <stddef.h>
#include <stdint.h>

#include "pattern.h"

#define SASSY_MAXLEN	63

/* Variants (sassy.c): how a row's match mask is computed. */
enum {
	SASSY_AUTO = 0,		/* the best one the CPU supports */
	SASSY_GENERIC,		/* plain C (any CPU), SSE2 on x86-64 */
	SASSY_AVX2,		/* x86-64: 2 x 32-byte compares a row */
	SASSY_AVX512,		/* x86-64: one 64-byte compare (AVX-512BW) */
	SASSY_NVARIANTS
};

/* sassy.c */
int	sassy_supported(int variant);
const char *sassy_name(int variant);
int	sassy_scan_pattern(const struct pattern *, long k,
	    const unsigned char *text, size_t warm, size_t len,
	    unsigned char eol, uint64_t *bitmap, int variant, size_t *rows);

#endif
