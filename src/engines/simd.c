/*
 * simd.c: Myers' algorithm on SIMD lanes for patterns of up to 64 bytes,
 * the host twin of kernels/myers.cl's vector lanes: the text is cut into
 * slices, one per lane, each lane warming up n + k - 1 bytes before its
 * slice and resetting at terminators with selects (simd_body.h).
 *
 * Lanes: 32-bit for patterns < 32 bytes, 64-bit for 32..63 bytes (the top
 * bit of a lane marks terminators); 64-byte patterns stay scalar.
 * Variants, chosen at run time (simd_scan_pattern, SIMD_AUTO):
 *   - x86-64: AVX-512 (target "avx512f,avx512bw", 64-byte vectors: 2 x 16
 *     lanes of 32 bits), when cpu.c allows it;
 *   - x86-64: AVX2 (target "avx2", 32-byte vectors), with 16-bit lanes
 *     for patterns under 16 bytes, and a vector transpose (byte unpacks,
 *     PEq by nibble lookups) for patterns under 32 bytes;
 *   - everywhere: generic GCC vector extensions with 16-byte vectors, which
 *     the compiler lowers to SSE2 on any x86-64, NEON on aarch64, or scalar
 *     code elsewhere.
 * No static mutable state: every call is independent and thread-safe.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../base/cpu.h"
#include "simd.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define SIMD_X86 1
#include <immintrin.h>
#endif

/* The transposing loop must stay scalar: GCC's vectorised version of it
 * (extracts and scattered stores) is several times slower. */
#if defined(__clang__)
#define SB_NOVEC	_Pragma("clang loop vectorize(disable)")
#else
/* GCC: no auto-vectorisation in this file (the explicit vector types are
 * not affected). */
#pragma GCC optimize("no-tree-vectorize")
#define SB_NOVEC
#endif

/*
 * The transposes read 16 to 64 streams (one per lane, S bytes apart), more
 * than the hardware prefetchers follow: each fill of 64 steps prefetches
 * every lane's bytes SB_PF ahead, a few lanes per round of its loop
 * (eng_avx2_16 on the Bible x8, one core: 2300-2400 -> 2550-2900 MB/s with
 * 512 bytes, all lanes at the start of the fill; 1024 and 2048 the same;
 * spread over the rounds, 2600-3100; eng_avx512vbmi_16 2300-2600 ->
 * 2600-2900 at the start).
 */
#ifndef SB_PF
#define SB_PF	512
#endif

#define SB_NAME		eng_generic32
#define SB_ATTR
#define SB_VBYTES	16
#define SB_ET		uint32_t
#define SB_SET		int32_t
#include "simd_body.h"
#define SB_NAME		eng_generic64
#define SB_ATTR
#define SB_VBYTES	16
#define SB_ET		uint64_t
#define SB_SET		int64_t
#include "simd_body.h"

#ifdef SIMD_X86
/*
 * The vector transpose of eng_avx512vbmi_32 (simd_body.h, SB_VFILL): steps
 * [q0, q0 + cnt) of the 32 lanes (lane l at q0 + l S) into eqb[step][lane],
 * when all of them, rounded up to 4 steps, lie in text[0, end).
 */
__attribute__((target("avx512f,avx512bw,avx512vbmi"))) static inline int
sb_vfill(const unsigned char *text, ptrdiff_t q0, size_t cnt, ptrdiff_t end,
    size_t S, __m512i cm0, __m512i cm1, __m512i cm2, __m512i cm3,
    __m512i val0, __m512i val1, __m512i off0, __m512i off1, uint32_t *eqb)
{
	const size_t cnt4 = (cnt + 3) & ~(size_t)3;

	if (q0 < 0 || q0 + (ptrdiff_t)(31 * S + cnt4) > end)
		return 0;
	for (size_t i = 0; i < cnt; i += 4) {
		const unsigned char *base = text + q0 + i;
		for (size_t l = i / 2; l < i / 2 + 2; l++)
			_mm_prefetch((const char *)text + q0 + l * S + SB_PF,
			    _MM_HINT_T0);
		__m512i x0 = _mm512_i32gather_epi32(off0, (const void *)base, 1);
		__m512i x1 = _mm512_i32gather_epi32(off1, (const void *)base, 1);
		__m512i c0 = _mm512_mask_blend_epi8(_mm512_movepi8_mask(x0),
		    _mm512_permutex2var_epi8(cm0, x0, cm1),
		    _mm512_permutex2var_epi8(cm2, x0, cm3));
		__m512i c1 = _mm512_mask_blend_epi8(_mm512_movepi8_mask(x1),
		    _mm512_permutex2var_epi8(cm0, x1, cm1),
		    _mm512_permutex2var_epi8(cm2, x1, cm3));
		uint32_t *e = eqb + i * 32;
		for (int j = 0; j < 4; j++, e += 32) {
			_mm512_store_si512((void *)e, _mm512_permutex2var_epi32(
			    val0, _mm512_srli_epi32(c0, 8 * j), val1));
			_mm512_store_si512((void *)(e + 16),
			    _mm512_permutex2var_epi32(val0,
			    _mm512_srli_epi32(c1, 8 * j), val1));
		}
	}
	return 1;
}

/*
 * The same for eng_avx512vbmi_16 (64 lanes of 16 bits, patterns under 16
 * bytes): 4 gathers of 16 lanes per 4 steps; per step, one byte permute
 * puts byte j of each 32-bit word of two gathers (32 lanes) into the low
 * bytes of 32 words, and one word permute maps those classes to PEq.  val0
 * holds the 32 values (val1 unused); off0, off1: lanes 0-15, 16-31.
 */
static const unsigned char sb_sel16[64] __attribute__((aligned(64))) = {
#define SB_W(l)	(l) % 16 * 4 + (l) / 16 * 64, (l) % 16 * 4 + (l) / 16 * 64
	SB_W(0), SB_W(1), SB_W(2), SB_W(3), SB_W(4), SB_W(5), SB_W(6),
	SB_W(7), SB_W(8), SB_W(9), SB_W(10), SB_W(11), SB_W(12), SB_W(13),
	SB_W(14), SB_W(15), SB_W(16), SB_W(17), SB_W(18), SB_W(19), SB_W(20),
	SB_W(21), SB_W(22), SB_W(23), SB_W(24), SB_W(25), SB_W(26), SB_W(27),
	SB_W(28), SB_W(29), SB_W(30), SB_W(31)
#undef SB_W
};

__attribute__((target("avx512f,avx512bw,avx512vbmi"))) static inline __m512i
sb_cls(__m512i x, __m512i cm0, __m512i cm1, __m512i cm2, __m512i cm3)
{
	return _mm512_mask_blend_epi8(_mm512_movepi8_mask(x),
	    _mm512_permutex2var_epi8(cm0, x, cm1),
	    _mm512_permutex2var_epi8(cm2, x, cm3));
}

__attribute__((target("avx512f,avx512bw,avx512vbmi"))) static inline int
sb_vfill16(const unsigned char *text, ptrdiff_t q0, size_t cnt, ptrdiff_t end,
    size_t S, __m512i cm0, __m512i cm1, __m512i cm2, __m512i cm3,
    __m512i val0, __m512i val1, __m512i off0, __m512i off1, uint16_t *eqb)
{
	const size_t cnt4 = (cnt + 3) & ~(size_t)3;
	const __m512i s32 = _mm512_set1_epi32((int)(32 * S));
	const __m512i off2 = _mm512_add_epi32(off0, s32);
	const __m512i off3 = _mm512_add_epi32(off1, s32);
	const __m512i sel = _mm512_load_si512((const void *)sb_sel16);

	(void)val1;
	if (q0 < 0 || q0 + (ptrdiff_t)(63 * S + cnt4) > end)
		return 0;
	for (size_t i = 0; i < cnt; i += 4) {
		const unsigned char *base = text + q0 + i;
		for (size_t l = i; l < i + 4; l++)
			_mm_prefetch((const char *)text + q0 + l * S + SB_PF,
			    _MM_HINT_T0);
		__m512i a0 = sb_cls(_mm512_i32gather_epi32(off0,
		    (const void *)base, 1), cm0, cm1, cm2, cm3);
		__m512i b0 = sb_cls(_mm512_i32gather_epi32(off1,
		    (const void *)base, 1), cm0, cm1, cm2, cm3);
		__m512i a1 = sb_cls(_mm512_i32gather_epi32(off2,
		    (const void *)base, 1), cm0, cm1, cm2, cm3);
		__m512i b1 = sb_cls(_mm512_i32gather_epi32(off3,
		    (const void *)base, 1), cm0, cm1, cm2, cm3);
		uint16_t *e = eqb + i * 64;
		for (int j = 0; j < 4; j++, e += 64) {
			__m512i sj = _mm512_add_epi8(sel, _mm512_set1_epi8(
			    (char)j));
			_mm512_store_si512((void *)e, _mm512_permutexvar_epi16(
			    _mm512_permutex2var_epi8(a0, sj, b0), val0));
			_mm512_store_si512((void *)(e + 32),
			    _mm512_permutexvar_epi16(
			    _mm512_permutex2var_epi8(a1, sj, b1), val0));
		}
	}
	return 1;
}

/*
 * The transpose of eng_avx2_16 (16-bit lanes, patterns under 16 bytes; no
 * VBMI needed): steps [q0, q0 + cnt) of the 32 lanes into eqb[step][lane],
 * when all of them, rounded up to 16 steps, lie in text[0, end).  Per 16
 * steps: 16 loads of two 16-byte rows (two lanes, one per 128-bit half),
 * a 16 x 16 byte transpose in each half (4 rounds of 16 byte unpacks: each
 * round rotates the 8-bit index row:position left by one bit, so 4 rounds
 * swap row and position), then per step the lanes' PEq words by nibbles:
 * bit j of PEq[c] is set iff bit j of lo[c & 15] and of hi[c >> 4] are
 * (exact when every bit's byte set is a product of its nibble sets, which
 * the caller checks), each table split in a low-byte and a high-byte
 * vpshufb table; a byte unpack of the two halves gives the words.  Byte
 * position p of a step's 32 bytes becomes word sb_perm16(p) of the row
 * (unpacklo/hi work within 128-bit halves), so position p reads that lane.
 */
/* 16 x 16 byte transpose in each 128-bit half of x[16]. */
__attribute__((target("avx2"))) static inline void
sb_tr16(__m256i *x)
{
	__m256i y[16];

	for (int r = 0; r < 2; r++) {
		for (int j = 0; j < 8; j++) {
			y[2 * j] = _mm256_unpacklo_epi8(x[j], x[j + 8]);
			y[2 * j + 1] = _mm256_unpackhi_epi8(x[j], x[j + 8]);
		}
		for (int j = 0; j < 8; j++) {
			x[2 * j] = _mm256_unpacklo_epi8(y[j], y[j + 8]);
			x[2 * j + 1] = _mm256_unpackhi_epi8(y[j], y[j + 8]);
		}
	}
}

#define sb_perm16(p)	(((p) & 7) | ((p) >> 3 & 1) << 4 | ((p) >> 4 & 1) << 3)

__attribute__((target("avx2"))) static inline int
sb_nfill16(const unsigned char *text, ptrdiff_t q0, size_t cnt, ptrdiff_t end,
    size_t S, const __m256i *nt, uint16_t *eqb)
{
	const __m256i lol = nt[0], loh = nt[1], hil = nt[2], hih = nt[3];
	const size_t c16 = (cnt + 15) & ~(size_t)15;
	const __m256i m4 = _mm256_set1_epi8(0x0f);

	if (q0 < 0 || q0 + (ptrdiff_t)(31 * S + c16) > end)
		return 0;
	for (size_t i = 0; i < cnt; i += 16) {
		const unsigned char *base = text + q0 + i;
		__m256i x[16];
		for (size_t l = i / 2; l < i / 2 + 8; l++)
			_mm_prefetch((const char *)text + q0 + l * S + SB_PF,
			    _MM_HINT_T0);
		for (int b = 0; b < 16; b++)
			x[b] = _mm256_inserti128_si256(_mm256_castsi128_si256(
			    _mm_loadu_si128((const __m128i *)(const void *)(
			    base + (size_t)sb_perm16(b) * S))),
			    _mm_loadu_si128((const __m128i *)(const void *)(
			    base + (size_t)sb_perm16(b + 16) * S)), 1);
		sb_tr16(x);
		uint16_t *e = eqb + i * 32;
		for (int s = 0; s < 16; s++, e += 32) {
			__m256i c = x[s];
			__m256i lo = _mm256_and_si256(c, m4);
			__m256i hi = _mm256_and_si256(_mm256_srli_epi16(c, 4),
			    m4);
			__m256i bl = _mm256_and_si256(_mm256_shuffle_epi8(lol,
			    lo), _mm256_shuffle_epi8(hil, hi));
			__m256i bh = _mm256_and_si256(_mm256_shuffle_epi8(loh,
			    lo), _mm256_shuffle_epi8(hih, hi));
			_mm256_store_si256((__m256i *)(void *)e,
			    _mm256_unpacklo_epi8(bl, bh));
			_mm256_store_si256((__m256i *)(void *)(e + 16),
			    _mm256_unpackhi_epi8(bl, bh));
		}
	}
	return 1;
}

/*
 * The same for eng_avx2_32 (16 lanes of 32 bits, patterns of 16-31 bytes):
 * per 32 steps, one 32-byte load per lane (steps 0-15 in the low half,
 * 16-31 in the high one), the per-half transpose (x[s]: the 16 lanes at
 * steps s and 16 + s), per byte of PEq a nibble lookup, two rounds of
 * unpacks into 32-bit words (lanes 0-3, 4-7, 8-11, 12-15 per half) and
 * cross-half permutes into the rows of steps s and 16 + s.
 */
__attribute__((target("avx2"))) static inline int
sb_nfill32(const unsigned char *text, ptrdiff_t q0, size_t cnt, ptrdiff_t end,
    size_t S, const __m256i *nt, uint32_t *eqb)
{
	const size_t c32 = (cnt + 31) & ~(size_t)31;
	const __m256i m4 = _mm256_set1_epi8(0x0f);

	if (q0 < 0 || q0 + (ptrdiff_t)(15 * S + c32) > end)
		return 0;
	for (size_t i = 0; i < cnt; i += 32) {
		const unsigned char *base = text + q0 + i;
		__m256i x[16];
		for (size_t l = i / 4; l < i / 4 + 8; l++)
			_mm_prefetch((const char *)text + q0 + l * S + SB_PF,
			    _MM_HINT_T0);
		for (int b = 0; b < 16; b++)
			x[b] = _mm256_loadu_si256((const __m256i *)(const void *)
			    (base + (size_t)b * S));
		sb_tr16(x);
		uint32_t *e = eqb + i * 16;
		for (int s = 0; s < 16; s++, e += 16) {
			__m256i c = x[s], p[4];
			__m256i lo = _mm256_and_si256(c, m4);
			__m256i hi = _mm256_and_si256(_mm256_srli_epi16(c, 4),
			    m4);
			for (int j = 0; j < 4; j++)
				p[j] = _mm256_and_si256(_mm256_shuffle_epi8(
				    nt[j], lo), _mm256_shuffle_epi8(nt[4 + j],
				    hi));
			__m256i a = _mm256_unpacklo_epi8(p[0], p[1]);
			__m256i b = _mm256_unpackhi_epi8(p[0], p[1]);
			__m256i c2 = _mm256_unpacklo_epi8(p[2], p[3]);
			__m256i d = _mm256_unpackhi_epi8(p[2], p[3]);
			__m256i w0 = _mm256_unpacklo_epi16(a, c2);
			__m256i w1 = _mm256_unpackhi_epi16(a, c2);
			__m256i w2 = _mm256_unpacklo_epi16(b, d);
			__m256i w3 = _mm256_unpackhi_epi16(b, d);
			_mm256_store_si256((__m256i *)(void *)e,
			    _mm256_permute2x128_si256(w0, w1, 0x20));
			_mm256_store_si256((__m256i *)(void *)(e + 8),
			    _mm256_permute2x128_si256(w2, w3, 0x20));
			_mm256_store_si256((__m256i *)(void *)(e + 16 * 16),
			    _mm256_permute2x128_si256(w0, w1, 0x31));
			_mm256_store_si256((__m256i *)(void *)(e + 16 * 16 + 8),
			    _mm256_permute2x128_si256(w2, w3, 0x31));
		}
	}
	return 1;
}

#define SB_NAME		eng_avx2_32
#define SB_ATTR		__attribute__((target("avx2")))
#define SB_VBYTES	32
#define SB_ET		uint32_t
#define SB_SET		int32_t
#define SB_NIB		1
#define SB_VFILLF	sb_nfill32
#define SB_AVX2		1
#include "simd_body.h"
#define SB_NAME		eng_avx2_16
#define SB_ATTR		__attribute__((target("avx2")))
#define SB_VBYTES	32
#define SB_ET		uint16_t
#define SB_SET		int16_t
#define SB_NIB		1
#define SB_VFILLF	sb_nfill16
#define SB_AVX2		1
#include "simd_body.h"
#define SB_NAME		eng_avx2_64
#define SB_ATTR		__attribute__((target("avx2")))
#define SB_VBYTES	32
#define SB_ET		uint64_t
#define SB_SET		int64_t
#define SB_AVX2		1
#include "simd_body.h"
#define SB_NAME		eng_avx512_32
#define SB_ATTR		__attribute__((target("avx512f,avx512bw")))
#define SB_VBYTES	64
#define SB_ET		uint32_t
#define SB_SET		int32_t
#include "simd_body.h"
#define SB_NAME		eng_avx512vbmi_32
#define SB_ATTR		__attribute__((target("avx512f,avx512bw,avx512vbmi")))
#define SB_VBYTES	64
#define SB_ET		uint32_t
#define SB_SET		int32_t
#define SB_VBMI		1
#define SB_VFILLF	sb_vfill
#define SB_MASK		__mmask16
#define SB_M(op)	_mm512_##op##_epi32_mask
#define SB_I(op)	_mm512_##op##_epi32
#define SB_CMPLE	_mm512_cmple_epu32_mask
#include "simd_body.h"
#define SB_NAME		eng_avx512vbmi_16
#define SB_ATTR		__attribute__((target("avx512f,avx512bw,avx512vbmi")))
#define SB_VBYTES	64
#define SB_ET		uint16_t
#define SB_SET		int16_t
#define SB_VBMI		1
#define SB_VFILLF	sb_vfill16
#define SB_MASK		__mmask32
#define SB_M(op)	_mm512_##op##_epi16_mask
#define SB_I(op)	_mm512_##op##_epi16
#define SB_CMPLE	_mm512_cmple_epu16_mask
#include "simd_body.h"
#define SB_NAME		eng_avx512_64
#define SB_ATTR		__attribute__((target("avx512f,avx512bw")))
#define SB_VBYTES	64
#define SB_ET		uint64_t
#define SB_SET		int64_t
#include "simd_body.h"
#endif

/* Whether this build and this CPU can run the variant. */
int
simd_supported(int variant)
{
	switch (variant) {
	case SIMD_AUTO:
	case SIMD_GENERIC:
		return 1;
#ifdef SIMD_X86
	case SIMD_AVX2:
		return cpu_has(CPU_AVX2);
	case SIMD_AVX512:
		return cpu_has(CPU_AVX512BW);
#endif
	default:
		return 0;
	}
}

/*
 * Whether simd_scan_pattern(variant) runs a pattern of n bytes on a vector
 * transpose at the VBMI engines' speed: the AVX-512 VBMI engines (under
 * 32 bytes; about 1.5x the plain AVX-512 one on the Bible) or the AVX2
 * 16-bit one (under 16 bytes; 2-3x the scalar transpose): the filter
 * (filter.c) then needs sparser candidates to pay.  Not the AVX2 32-bit
 * one (1.8x its scalar transpose, 0.8x VBMI): with it counted, the filter
 * declined the 31-byte phrase at k=3 and k=4 (5 pieces) and the engine
 * alone ran 1780 MB/s where the filter had run 2330-2950 (Bible x8, one
 * core).
 */
int
simd_fast(int variant, size_t n)
{
#ifdef SIMD_X86
	if (n >= 32 || n == 0)
		return 0;
	if (variant == SIMD_AUTO || !simd_supported(variant))
		variant = simd_supported(SIMD_AVX512) ? SIMD_AVX512 :
		    simd_supported(SIMD_AVX2) ? SIMD_AVX2 : -1;
	if (variant == SIMD_AVX2)
		return n < 16;
	return variant == SIMD_AVX512 && cpu_has(CPU_AVX512VBMI);
#else
	(void)variant;
	(void)n;
	return 0;
#endif
}

const char *
simd_name(int variant)
{
	static const char *const names[SIMD_NVARIANTS] = {
		"auto", "generic", "avx2", "avx512"
	};

	return variant >= 0 && variant < SIMD_NVARIANTS ? names[variant] : "?";
}

/* Lanes of a variant for a pattern of n bytes (for the automatic slice
 * length): 16-bit lanes on the VBMI and AVX2 engines below 16 bytes,
 * 32-bit ones below 32, else 64-bit. */
static size_t
lanes(int variant, size_t n)
{
	size_t vbytes = variant == SIMD_AVX512 ? 64 : variant == SIMD_AVX2 ?
	    32 : 16;
	size_t ebytes = n >= 32 ? 8 : n < 16 && simd_fast(variant, n) ? 2 : 4;

	return 2 * vbytes / ebytes;
}

/*
 * ORs into bitmap bit j when a match of pat with at most k errors ends at
 * text[warm + j], j < len (pat->len <= SIMD_MAXLEN).  text[0, warm) is
 * warm-up, as for hm_scan.  slice: the bytes per lane, 0 for automatic
 * (the text split evenly over the lanes, rounded up to 64; tests force
 * tiny slices).  variant: SIMD_AUTO or one that simd_supported accepts.
 */
void
simd_scan_pattern(const struct pattern *pat, long k, const unsigned char *text,
    size_t warm, size_t len, unsigned char eol, uint64_t *bitmap, size_t slice,
    int variant)
{
	int wide = pat->len >= 32;

	if (len == 0)
		return;
	if (variant == SIMD_AUTO || !simd_supported(variant)) {
		variant = SIMD_GENERIC;
#ifdef SIMD_X86
		if (simd_supported(SIMD_AVX512))
			variant = SIMD_AVX512;
		else if (simd_supported(SIMD_AVX2))
			variant = SIMD_AVX2;
#endif
	}
	if (slice == 0) {
		size_t L = lanes(variant, pat->len);
		slice = ((len + L - 1) / L + 63) / 64 * 64;
	}
	switch (variant) {
#ifdef SIMD_X86
	case SIMD_AVX512:
		if (pat->len < 16 && cpu_has(CPU_AVX512VBMI))
			/* (k >= n: every position matches, as with k = n) */
			eng_avx512vbmi_16(pat->peq, pat->len, k < (long)pat->len
			    ? k : (long)pat->len, text, warm, len, eol, bitmap,
			    slice);
		else if (!wide && cpu_has(CPU_AVX512VBMI))
			eng_avx512vbmi_32(pat->peq, pat->len, k, text, warm,
			    len, eol, bitmap, slice);
		else
			(wide ? eng_avx512_64 : eng_avx512_32)(pat->peq,
			    pat->len, k, text, warm, len, eol, bitmap, slice);
		return;
	case SIMD_AVX2:
		if (pat->len < 16)
			eng_avx2_16(pat->peq, pat->len, k < (long)pat->len ?
			    k : (long)pat->len, text, warm, len, eol, bitmap,
			    slice);
		else
				(wide ? eng_avx2_64 : eng_avx2_32)(pat->peq, pat->len,
			    k, text, warm, len, eol, bitmap, slice);
		return;
#endif
	default:
		(wide ? eng_generic64 : eng_generic32)(pat->peq, pat->len, k,
		    text, warm, len, eol, bitmap, slice);
	}
}
