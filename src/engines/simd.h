/* simd.h: the SIMD host matcher (Myers on vector lanes, patterns < 64 bytes). */
#ifndef AGREP_SIMD_H
#define AGREP_SIMD_H

#include <stddef.h>
#include <stdint.h>

#include "pattern.h"

/* The longest pattern the engine takes (a lane's top bit marks terminators). */
#define SIMD_MAXLEN	63

/* Variants (simd.c): which code the engine runs. */
enum {
	SIMD_AUTO = 0,		/* the best one the CPU supports */
	SIMD_GENERIC,		/* GCC vector extensions, 16-byte vectors */
	SIMD_AVX2,		/* x86-64: 32-byte vectors */
	SIMD_AVX512,		/* x86-64: 64-byte vectors (AVX-512F/BW) */
	SIMD_NVARIANTS
};

/* simd.c */
int	simd_supported(int variant);
const char *simd_name(int variant);
int	simd_fast(int variant, size_t n);
void	simd_scan_pattern(const struct pattern *, long k,
	    const unsigned char *text, size_t warm, size_t len,
	    unsigned char eol, uint64_t *bitmap, size_t slice, int variant);

#endif
