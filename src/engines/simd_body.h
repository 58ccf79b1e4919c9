/*
 * simd_body.h: one instance of the SIMD Myers engine, included by simd.c
 * once per (target, lane width) with these macros set:
 *
 *   SB_NAME	the function's name
 *   SB_ATTR	its target attribute (empty for the generic build)
 *   SB_VBYTES	vector size in bytes (16, 32, 64)
 *   SB_AVX2	(optional) AVX2's blend and and-not intrinsics in the step
 *   SB_ET	lane element type (uint32_t: patterns < 32 bytes,
 *		uint64_t: patterns < 64 bytes), SB_SET its signed twin
 *
 * Layout: L = 2 vectors of VBYTES / sizeof(ET) lanes.  The text [0, len) is
 * cut into groups of L slices of S bytes; lane l of a group scans its slice
 * [g + l S, g + l S + S), starting its Myers state pad = n + k - 1 bytes
 * before it (bytes before text[0] or past text[warm + len) read as
 * terminators, i.e. resets).  A block of 64 steps is first transposed by
 * scalar code into eqb[step][lane] (PEq of the byte) and cb[step][lane] (the
 * byte), so that the vector steps only do aligned vector loads.  Hits are
 * accumulated as bits in per-lane words (one 64-bit word per 64 steps) and
 * OR-ed into the bitmap at the slice's offset, masked to the slice and to
 * len.  When S is a multiple of 64, each lane's words are whole bitmap words.
 * Two independent vectors per step hide the latency of Myers' dependency
 * chain.
 *
 * Without SB_VBMI the pattern lies in the lane's bits [s, W - 1), s = W -
 * 1 - n, its last row at bit W - 2: the rows below are "phantom" rows whose
 * Eq bits are always set and whose vertical deltas start (and stay) at 0,
 * so they hand the first row Sellers' constant top row (pp_body.h does the
 * same).  The score's change is then the top bit of HP << 1 and HN << 1
 * (computed for the step anyway), it is kept as T = score - k - 1 (a hit:
 * T's sign), and the hits of 64 steps go into a lane word by shifting it
 * right and or-ing T's sign bit in.  Bit W - 1 of Eq marks the terminator
 * (a reset), as with SB_VBMI.
 */

SB_ATTR static void
SB_NAME(const uint64_t *PEq, size_t n, long k, const unsigned char *text,
    size_t warm, size_t len, unsigned char eol, uint64_t *bitmap, size_t S)
{
	typedef SB_ET vec __attribute__((vector_size(SB_VBYTES)));
	enum {
		W = 8 * sizeof(SB_ET),			/* bits per lane */
		NV = SB_VBYTES / sizeof(SB_ET),		/* lanes per vector */
		L = 2 * NV,				/* lanes */
		B = 64					/* steps per block */
	};
	SB_ET eqb[B][L] __attribute__((aligned(64)));
	SB_ET tab[256];
	const size_t pad = n + (size_t)k - 1;
	const ptrdiff_t end = (ptrdiff_t)(warm + len);
	const vec zero = { 0 };
#ifdef SB_VBMI
	const vec ones = ~zero;
	const vec last = zero + (SB_ET)((SB_ET)1 << (n - 1));
	const vec nv = zero + (SB_ET)n;
	const vec kv = zero + (SB_ET)k;
	const vec one = zero + 1;
	const vec top = zero + (SB_ET)((SB_ET)1 << (W - 1));

	/* PEq as lane words, the top bit (above the pattern: n < W) set for
	 * the terminator: it marks the resets. */
	for (size_t c = 0; c < 256; c++)
		tab[c] = (SB_ET)PEq[c];
#else
	typedef SB_SET svec __attribute__((vector_size(SB_VBYTES)));
	/* (k >= n: every position matches, as with k = n) */
	const long kk = k < (long)n ? k : (long)n;
	const unsigned sh = W - 1 - (unsigned)n;	/* phantom rows */
	const SB_ET ph = (SB_ET)(((SB_ET)1 << sh) - 1);
	const vec sign = zero + (SB_ET)((SB_ET)1 << (W - 1));
	const vec vp0 = zero + (SB_ET)~ph;	/* VP at a reset */
	const vec t0 = zero + (SB_ET)(SB_SET)((long)n - kk - 1);

	/* PEq as lane words over the phantom rows, the top bit set for the
	 * terminator: it marks the resets. */
	for (size_t c = 0; c < 256; c++)
		tab[c] = (SB_ET)((SB_ET)((SB_ET)PEq[c] << sh) | ph);
#endif
	tab[eol] |= (SB_ET)1 << (W - 1);
#ifdef SB_VBMI
	/* The vector transpose: the distinct values of tab (at most 32) as
	 * classes; cls[c] the class of byte c, val[] the values. */
	unsigned char cls[256] __attribute__((aligned(64)));
	SB_ET val[32] __attribute__((aligned(64))) = { 0 };
	size_t nval = 0;
	for (size_t c = 0; c < 256 && nval <= 32; c++) {
		size_t v = 0;
		while (v < nval && val[v] != tab[c])
			v++;
		if (v == nval) {
			if (nval == 32) {
				nval = 33;
				break;
			}
			val[nval++] = tab[c];
		}
		cls[c] = (unsigned char)v;
	}
	/* Lane l reads at l S from lane 0: offsets must fit in 32 bits. */
	const int vfill = nval <= 32 && (L - 1) * S + B + 4 < ((size_t)1 << 31);
	__m512i cm0, cm1, cm2, cm3, val0, val1, off0, off1;
	cm0 = cm1 = cm2 = cm3 = val0 = val1 = off0 = off1 =
	    _mm512_setzero_si512();
	if (vfill) {
		cm0 = _mm512_load_si512((const void *)cls);
		cm1 = _mm512_load_si512((const void *)(cls + 64));
		cm2 = _mm512_load_si512((const void *)(cls + 128));
		cm3 = _mm512_load_si512((const void *)(cls + 192));
		val0 = _mm512_load_si512((const void *)val);
		val1 = _mm512_load_si512((const void *)(val + 64 / sizeof(SB_ET) % 32));
		off0 = _mm512_mullo_epi32(_mm512_set_epi32(15, 14, 13, 12, 11,
		    10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0), _mm512_set1_epi32((int)S));
		off1 = _mm512_add_epi32(off0, _mm512_set1_epi32((int)(16 * S)));
	}
#endif

#ifdef SB_NIB
	/* The AVX2 transpose (sb_nfill16): PEq by nibbles, when exact. */
	SB_ET nlo[16] = { 0 }, nhi[16] = { 0 };
	for (size_t c = 0; c < 256; c++) {
		nlo[c & 15] |= tab[c];
		nhi[c >> 4] |= tab[c];
	}
	int nib = 1;
	for (size_t c = 0; c < 256; c++)
		if ((SB_ET)(nlo[c & 15] & nhi[c >> 4]) != tab[c])
			nib = 0;
	/* ntab[j]: byte j of nlo's words, ntab[E + j]: of nhi's (vpshufb
	 * tables, both 128-bit halves). */
	enum { E = sizeof(SB_ET) };
	unsigned char nt[2 * E][16];
	__m256i ntab[2 * E];
	for (size_t j = 0; j < E; j++) {
		for (size_t c = 0; c < 16; c++) {
			nt[j][c] = (unsigned char)(nlo[c] >> 8 * j);
			nt[E + j][c] = (unsigned char)(nhi[c] >> 8 * j);
		}
	}
	for (size_t j = 0; j < 2 * E; j++)
		ntab[j] = _mm256_broadcastsi128_si256(_mm_loadu_si128(
		    (const __m128i *)(const void *)nt[j]));
#endif

#ifdef SB_VBMI
/*
 * Steps [t0, t0 + cnt) of every lane into eqb with vector code, when every
 * lane's bytes [t0, t0 + cnt rounded up to 4) lie in the text: per 4 steps
 * and 16 lanes, one gather of a 32-bit word per lane (its 4 bytes: 4
 * steps), the bytes mapped to their classes (two 128-entry byte permutes),
 * then per step the class (low 5 bits after a shift) picks the lane's PEq
 * word among the 32 values (one 2-register dword permute).  Returns 0 (and
 * does nothing) when not applicable.
 */
#define SB_VFILL(t0, cnt) (vfill && SB_VFILLF(text, (ptrdiff_t)(warm + g) -	\
	(ptrdiff_t)pad + (ptrdiff_t)(t0), (cnt), end, S, cm0, cm1, cm2, cm3,	\
	val0, val1, off0, off1, &eqb[0][0]))
#elif defined(SB_NIB)
#define SB_VFILL(t0, cnt) (nib && SB_VFILLF(text, (ptrdiff_t)(warm + g) -	\
	(ptrdiff_t)pad + (ptrdiff_t)(t0), (cnt), end, S, ntab, &eqb[0][0]))
#else
#define SB_VFILL(t0, cnt) 0
#endif
	for (size_t g = 0; g < len; g += S * L) {
#ifdef SB_VBMI
		vec VP0 = ones, VN0 = zero, SC0 = nv;
		vec VP1 = ones, VN1 = zero, SC1 = nv;
#else
		vec VP0 = vp0, VN0 = zero, SC0 = t0;
		vec VP1 = vp0, VN1 = zero, SC1 = t0;
#endif

/* Transposes steps [t0, t0 + cnt) of every lane into eqb (cnt <= B). */
#define SB_FILL(t0, cnt) do {						\
	if (SB_VFILL(t0, cnt))						\
		break;							\
	for (size_t l = 0; l < L; l++) {				\
		ptrdiff_t q = (ptrdiff_t)(warm + g + l * S) -		\
		    (ptrdiff_t)pad + (ptrdiff_t)(t0);			\
		if (q >= 0 && q + (ptrdiff_t)(cnt) <= end) {		\
			const unsigned char *tp = text + q;		\
			SB_NOVEC						\
			for (size_t i = 0; i < (cnt); i++) {		\
				eqb[i][l] = tab[tp[i]];			\
			}						\
		} else {						\
			for (size_t i = 0; i < (cnt); i++, q++) {	\
				eqb[i][l] = tab[q >= 0 && q < end ?	\
				    text[q] : eol];			\
			}						\
		}							\
	}								\
} while (0)

#ifdef SB_VBMI
/* One Myers step of vector u at row i of the block, AVX-512: the score's
 * +-1 and the reset by masks (nm: the lanes not at a terminator; a reset
 * lane gets X = 0, hence VN = 0, and VP = all ones). */
#define SB_STEP(u, i) do {						\
	vec Eq = *(const vec *)&eqb[i][(u) * NV];			\
	SB_MASK nm = SB_M(testn)((__m512i)Eq, (__m512i)top);		\
	vec X = Eq | VN##u;						\
	vec D0 = (((X & VP##u) + VP##u) ^ VP##u) | X;			\
	vec HN = VP##u & D0;						\
	vec HP = VN##u | ~(VP##u | D0);					\
	SB_MASK kp = SB_M(test)((__m512i)HP, (__m512i)last);		\
	SB_MASK kn = SB_M(test)((__m512i)HN, (__m512i)last);		\
	__m512i sc = SB_I(mask_add)((__m512i)SC##u, kp,			\
	    (__m512i)SC##u, (__m512i)one);				\
	sc = SB_I(mask_sub)(sc, kn, sc, (__m512i)one);			\
	SC##u = (vec)SB_I(mask_mov)((__m512i)nv, nm, sc);		\
	X = (vec)SB_I(maskz_slli)(nm, (__m512i)HP, 1);			\
	VN##u = X & D0;							\
	VP##u = (vec)SB_I(mask_slli)((__m512i)ones, nm,			\
	    (__m512i)HN, 1) | ~(X | D0);				\
} while (0)
#else
/* One Myers step of vector u at row i of the block (SC: T, above); a
 * lane at a terminator (m) is reset. */
#ifdef SB_AVX2
#define SB_BLEND(a, b, m)	((vec)_mm256_blendv_epi8((__m256i)(a),	\
	(__m256i)(b), (__m256i)(m)))
#define SB_ANDN(a, b)	((vec)_mm256_andnot_si256((__m256i)(a),		\
	(__m256i)(b)))
#else
#define SB_BLEND(a, b, m)	(((a) & ~(m)) | ((b) & (m)))
#define SB_ANDN(a, b)	(~(a) & (b))
#endif
/* (~a & b is one instruction on AVX2, SSE2's pandn and NEON's bic, where
 * a | ~b takes two: the step runs over ~X and ~D0, pp_body.h's and-not
 * forms; AVX2 blends the resets with vpblendvb) */
#define SB_STEP(u, i) do {						\
	vec Eq = *(const vec *)&eqb[i][(u) * NV];			\
	vec nX = SB_ANDN(VN##u, ~Eq);					\
	vec nD0 = SB_ANDN(((SB_ANDN(nX, VP##u) + VP##u) ^ VP##u), nX);	\
	vec HN = SB_ANDN(nD0, VP##u);					\
	vec HP = VN##u | SB_ANDN(VP##u, nD0);				\
	vec m = (vec)((svec)Eq >> (W - 1));				\
	vec Xs = HP << 1;						\
	HN = HN << 1;							\
	SC##u += (Xs >> (W - 1)) - (HN >> (W - 1));			\
	VN##u = SB_ANDN(nD0, Xs);					\
	VP##u = HN | SB_ANDN(Xs, nD0);					\
	VP##u = SB_BLEND(VP##u, vp0, m);				\
	VN##u = SB_ANDN(m, VN##u);					\
	SC##u = SB_BLEND(SC##u, t0, m);					\
} while (0)
#endif

/* ORs lane l's hit word w of steps [r, r + 64) into the bitmap, masked to
 * its slice and to len. */
#define SB_PLACE(l, w) do {						\
	size_t a_ = g + (l) * S, p_ = a_ + r, b_;			\
	uint64_t w_ = (w);						\
	b_ = a_ + S < len ? a_ + S : len;				\
	if (w_ == 0 || p_ >= b_)					\
		break;							\
	if (b_ - p_ < 64)						\
		w_ &= ((uint64_t)1 << (b_ - p_)) - 1;			\
	bitmap[p_ / 64] |= w_ << (p_ % 64);				\
	if (p_ % 64 && (w_ >> (64 - p_ % 64)) != 0)			\
		bitmap[p_ / 64 + 1] |= w_ >> (64 - p_ % 64);		\
} while (0)

		/* Warm-up: pad steps, no hits. */
		for (size_t t = 0; t < pad; t += B) {
			size_t cnt = pad - t < B ? pad - t : B;
			SB_FILL(t, cnt);
			for (size_t i = 0; i < cnt; i++) {
				SB_STEP(0, i);
				SB_STEP(1, i);
			}
		}
		/* The slices, 64 steps (one bitmap word per lane) at a time. */
#ifdef SB_VBMI
		/* Hits: one mask (a bit per lane) per step. */
		for (size_t r = 0; r < S; r += 64) {
			uint64_t hm[B], anyh = 0;
			size_t cnt = S - r < 64 ? S - r : 64;

			SB_FILL(pad + r, cnt);
			for (size_t i = 0; i < cnt; i++) {
				SB_STEP(0, i);
				SB_STEP(1, i);
				uint64_t h = (uint64_t)SB_CMPLE((__m512i)SC0,
				    (__m512i)kv) | (uint64_t)SB_CMPLE(
				    (__m512i)SC1, (__m512i)kv) << NV;
				hm[i] = h;
				anyh |= h;
			}
			if (anyh == 0)
				continue;
			uint64_t wl[L];
			memset(wl, 0, sizeof(wl));
			for (size_t i = 0; i < cnt; i++)
				for (uint64_t h = hm[i]; h; h &= h - 1)
					wl[__builtin_ctzll(h)] |=
					    (uint64_t)1 << i;
			for (size_t l = 0; l < L; l++)
				SB_PLACE(l, wl[l]);
		}
#else
		for (size_t r = 0; r < S; r += 64) {
			vec acc0[64 / W], acc1[64 / W];
			/* (fewer steps only for slices shorter than 64) */
			size_t cnt = S - r < 64 ? S - r : 64;

			SB_FILL(pad + r, cnt);
			for (size_t h = 0; h < 64 / W; h++) {
				vec a0 = zero, a1 = zero;
				size_t e = (h + 1) * W < cnt ? (h + 1) * W : cnt;
				/* step i's hit ends at bit i - h W */
				for (size_t i = h * W; i < e; i++) {
					SB_STEP(0, i);
					SB_STEP(1, i);
					a0 = (a0 >> 1) | (SC0 & sign);
					a1 = (a1 >> 1) | (SC1 & sign);
				}
				if (e < (h + 1) * W && e > h * W) {
					a0 >>= (h + 1) * W - e;
					a1 >>= (h + 1) * W - e;
				}
				acc0[h] = a0;
				acc1[h] = a1;
			}
			/* Any hit in this block? Then place each lane's word. */
			vec any = zero;
			for (size_t h = 0; h < 64 / W; h++)
				any |= acc0[h] | acc1[h];
			SB_ET anyl = 0;
			for (size_t l = 0; l < NV; l++)
				anyl |= any[l];
			if (anyl == 0)
				continue;
			for (size_t l = 0; l < L; l++) {
				uint64_t w = 0;
				for (size_t h = 0; h < 64 / W; h++)
					w |= (uint64_t)(l < NV ? acc0[h][l] :
					    acc1[h][l - NV]) << (h * W % 64);
				SB_PLACE(l, w);
			}
		}
#endif
#undef SB_FILL
#undef SB_PLACE
#undef SB_VFILL
#undef SB_STEP
	}
}

#undef SB_NAME
#undef SB_ATTR
#undef SB_VBYTES
#undef SB_ET
#undef SB_SET
#undef SB_VBMI
#undef SB_NIB
#undef SB_VFILLF
#undef SB_MASK
#undef SB_M
#undef SB_I
#undef SB_CMPLE
#undef SB_BLEND
#undef SB_ANDN
#undef SB_AVX2
