/*
 * pp.c: the pattern-parallel host engine (issue 23).  Many short patterns
 * at a high k (DNA primers: pieces of 4-5 bases, which the pigeonhole
 * filters cannot use) are scanned side by side: each 32-bit SIMD lane runs
 * Myers' algorithm for a different pattern of at most 32 bytes, and every
 * lane reads the same text byte, so the Eq vector of a group of patterns
 * for a byte is one load from a table [byte][group] built from the
 * patterns' PEq tables (-i and UTF-8 symbols come with them).  pp_body.h
 * has the engine; variants as in simd.c: AVX-512 (16 patterns a vector),
 * AVX2 (8), generic GCC vectors (4: SSE2, NEON).  The hit bitmap is the
 * one the other engines produce: bit j set when a match of any of the
 * patterns ends at text[warm + j].  No static mutable state.
 */
#include <stdlib.h>
#include <string.h>

#include "cpu.h"
#include "pp.h"
#include "simd.h"
#include "util.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define PP_X86 1
#include <immintrin.h>
#endif

/* Text bytes per block: every group's batch walks one block (in L1) before
 * the next block. */
#ifndef PP_BLOCK
#define PP_BLOCK	(16 * 1024)
#endif

#define PP_CAT2(a, b)	a##b
#define PP_CAT(a, b)	PP_CAT2(a, b)

#define PP_NAME		pp_generic
#define PP_ATTR
#define PP_VBYTES	16
#include "pp_body.h"

#ifdef PP_X86
#define PP_NAME		pp_avx2
#define PP_ATTR		__attribute__((target("avx2")))
#define PP_VBYTES	32
#include "pp_body.h"

#define PP_NAME		pp_avx512
#define PP_ATTR		__attribute__((target("avx512f,avx512bw")))
#define PP_VBYTES	64
#define PP_ORNOR(a, b, c)	((vec)_mm512_ternarylogic_epi32((__m512i)(a), \
	(__m512i)(b), (__m512i)(c), 0xf1))
#include "pp_body.h"
#endif

/* Whether the engine takes the pattern: one word of PEq, 1-32 bytes. */
int
pp_eligible(const struct pattern *pat)
{
	return pat->nwords == 1 && pat->len >= 1 && pat->len <= PP_MAXLEN;
}

/*
 * ORs into bitmap bit j when a match of one of the patterns ps->pat[idx[0
 * .. n)] (all eligible) with at most ps->k errors ends at text[warm + j],
 * j < len; text[0, warm) is warm-up, as for hm_scan.  variant: one of
 * simd.h's (SIMD_AUTO: the best the CPU runs).
 */
void
pp_scan(const struct patset *ps, const size_t *idx, size_t n,
    const unsigned char *text, size_t warm, size_t len, unsigned char eol,
    uint64_t *bitmap, int variant)
{
	if (n == 0 || len == 0)
		return;
	if (variant == SIMD_AUTO || !simd_supported(variant)) {
		variant = SIMD_GENERIC;
#ifdef PP_X86
		if (simd_supported(SIMD_AVX512))
			variant = SIMD_AVX512;
		else if (simd_supported(SIMD_AVX2))
			variant = SIMD_AVX2;
#endif
	}
	const size_t NL = variant == SIMD_AVX512 ? 16 :
	    variant == SIMD_AVX2 ? 8 : 4;
	const size_t G = (n + NL - 1) / NL;
	const long k = ps->k;
	/* tab[c][g][l], then init: VP at a reset [g][l], T at a reset [g][l] */
	uint32_t *tab = aligned_alloc(64, ((256 + 2) * G * NL * 4 + 63) / 64 * 64);
	uint32_t *init = tab + 256 * G * NL;

	if (tab == NULL)
		fatalx("out of memory");
	for (size_t g = 0; g < G; g++) {
		for (size_t l = 0; l < NL; l++) {
			size_t x = g * NL + l;
			if (x >= n) {
				/* no pattern: 32 rows matching nothing, the
				 * score stays 32, far above any k */
				for (size_t c = 0; c < 256; c++)
					tab[(c * G + g) * NL + l] = 0;
				init[g * NL + l] = ~(uint32_t)0;
				init[(G + g) * NL + l] = (uint32_t)1 << 30;
				continue;
			}
			const struct pattern *pat = &ps->pat[idx[x]];
			const unsigned s = 32 - (unsigned)pat->len;
			const uint32_t ph = (uint32_t)(((uint64_t)1 << s) - 1);
			for (size_t c = 0; c < 256; c++)
				tab[(c * G + g) * NL + l] =
				    (uint32_t)(pat->peq[c] << s) | ph;
			init[g * NL + l] = ~ph;
			init[(G + g) * NL + l] = (uint32_t)((long)pat->len -
			    k - 1);
		}
	}
	switch (variant) {
#ifdef PP_X86
	case SIMD_AVX512:
		pp_avx512(tab, init, G, text, warm, warm + len, eol, bitmap);
		break;
	case SIMD_AVX2:
		pp_avx2(tab, init, G, text, warm, warm + len, eol, bitmap);
		break;
#endif
	default:
		pp_generic(tab, init, G, text, warm, warm + len, eol, bitmap);
	}
	free(tab);
}
