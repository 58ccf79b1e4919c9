/*
 * pp_body.h: one instance of the pattern-parallel engine (pp.c), included
 * once per target with these macros set:
 *
 *   PP_NAME	the function's name
 *   PP_ATTR	its target attribute (empty for the generic build)
 *   PP_VBYTES	vector size in bytes (16, 32, 64): PP_VBYTES / 4 lanes
 *   PP_NEQ	(optional) the table holds ~Eq: the step in and-not forms
 *		(AVX2, SSE2 and NEON have a | ~b only as two instructions)
 *   PP_ORNOR	(optional) a | ~(b | c) in one instruction (vpternlogd)
 *   PP_ANDN	(optional) ~a & b, one instruction
 *   PP_DELTA	(optional) the score's change from HP and HN, a vector
 *   PP_ANYNEG	(optional) whether a vector has a lane with its sign set
 *   PP_NBMAX	(optional) groups a batch, 4 (default) or 8
 *   PP_PACK4	(optional) the scores of 4 groups packed in the signed
 *		bytes of one vector (_walk's PP_T8): with PP_PACKW (two
 *		vectors' 32-bit lanes to 16 bits, signed saturation, within
 *		128-bit quarters), PP_PACKB (16 to 8), PP_DELTA8 (a packed
 *		score moved by packed HP and HN, saturating) and PP_ANYNEG8
 *		(a byte's sign set)
 *   PP_FILT16	(optional, with PP_PACK4 and PP_MOVEMASK8, a byte's signs
 *		as bits) the prefix filter (below, before the engine) where
 *		r->tab16 is set; its tables hold ~Eq with PP_NEQ, as the
 *		others
 *   PP_NBF	(optional) 16-bit groups a batch of the filter, 4 (default)
 *		or 8
 *
 * Each 32-bit lane runs its own pattern of at most 32 bytes, aligned so
 * that its last row is the lane's top bit: the rows below the pattern are
 * "phantom" rows whose Eq bits are always set and whose vertical deltas
 * start (and, since a phantom row matches any byte, stay) at 0, so they
 * hand row 0's constant 0 up to the pattern's first row as Sellers' top
 * row does.  Hence every lane's score moves with the top bits of HP and HN
 * (two shifts by 31), whatever the pattern's length, and it is also the
 * sum of the vertical deltas.  All lanes read
 * the same text byte: Eq of all the lanes of G groups for byte c is
 * tab[c * G + g], one aligned load, and a terminator resets every lane at
 * once (a branch, no selects).  The score is kept as T = score - k - 1: a
 * hit is a lane whose sign bit is set.
 *
 * (A lazy score, skipping the score where popcount(VP) - popcount(VN)
 * of every lane is far above k, ran on AVX-512 with VPOPCNTDQ until the
 * packed scores and the filter came: it saved 4 instructions of 14 a
 * group and byte where the packed scores cost about 2.5 of 13, and
 * measured 2 % faster at best, 20 % slower with short patterns.)
 *
 * The text is walked in blocks of r->block bytes; for each block, the
 * groups in batches of up to PP_NBMAX, split evenly (their state in
 * registers: independent dependency chains), the state saved in st[]
 * between blocks.
 */

/* a | ~(b | c) */
#ifndef PP_ORNOR
#define PP_ORNOR(a, b, c)	((a) | ~((b) | (c)))
#endif
/* ~a & b (GCC may make ~a of a shared a once, and two ands) */
#ifndef PP_ANDN
#define PP_ANDN(a, b)	(~(a) & (b))
#endif
/* hides p's value from the compiler, which otherwise computes each
 * group's address from the byte's index anew (a shift and an add a group
 * and byte) instead of a constant offset from one pointer */
#if defined(__GNUC__) || defined(__clang__)
#define PP_OPAQUE(p)	__asm__("" : "+r"(p))
#else
#define PP_OPAQUE(p)	((void)0)
#endif
/* groups a batch: 4 or 8 */
#ifndef PP_NBMAX
#define PP_NBMAX	4
#endif
#if PP_NBMAX != 4 && PP_NBMAX != 8
#error "pp_body.h: PP_NBMAX is 4 or 8"
#endif
/* 16-bit groups a batch of the prefix filter: 4 or 8 */
#ifndef PP_NBF
#define PP_NBF	4
#endif
#ifndef PP_DELTA
#define PP_DELTA(hp, hn)	(((hp) >> 31) - ((hn) >> 31))
#endif

typedef uint32_t PP_CAT(PP_NAME, _v) __attribute__((vector_size(PP_VBYTES)));
#define PP_V	PP_CAT(PP_NAME, _v)
typedef unsigned char PP_CAT(PP_NAME, _bv)
    __attribute__((vector_size(PP_VBYTES)));
#define PP_BV	PP_CAT(PP_NAME, _bv)

#ifndef PP_ANYNEG
/* Whether a lane of v has its sign bit set. */
PP_ATTR static inline __attribute__((always_inline)) int
PP_CAT(PP_NAME, _anyneg)(PP_V v)
{
	uint32_t h = 0;

	for (int l = 0; l < PP_VBYTES / 4; l++)
		h |= v[l];
	return (int)(h >> 31);
}
#define PP_ANYNEG(v)	PP_CAT(PP_NAME, _anyneg)(v)
#endif

#ifdef PP_FILT16
typedef uint16_t PP_CAT(PP_NAME, _w) __attribute__((vector_size(PP_VBYTES)));
#define PP_W	PP_CAT(PP_NAME, _w)
/* a + b and a << 1 in 32-bit lanes, or in 16-bit ones where w16 (the
 * prefix filter, below) */
#define PP_ADDW(a, b, w16)	((w16) ? (PP_V)((PP_W)(a) + (PP_W)(b)) :	\
	(a) + (b))
#define PP_SHLW(a, w16)	((w16) ? (PP_V)((PP_W)(a) << 1) : (a) << 1)
#else
#define PP_ADDW(a, b, w16)	((a) + (b))
#define PP_SHLW(a, w16)	((a) << 1)
#endif

/*
 * One Myers step of a group: eq is the byte's Eq (~Eq with PP_NEQ);
 * updates VP and VN and returns HP and HN through hp and hn.  w16: in
 * 16-bit lanes (the prefix filter), else 32-bit ones.
 */
PP_ATTR static inline __attribute__((always_inline)) void
PP_CAT(PP_NAME, _step)(PP_V eq, PP_V *VP, PP_V *VN, PP_V *hp, PP_V *hn,
    const int w16)
{
	(void)w16;	/* (without PP_FILT16: 32-bit lanes alone) */
#ifdef PP_NEQ
	/* nX = ~X, nD0 = ~D0: every | ~ becomes an and-not */
	PP_V nX = PP_ANDN(*VN, eq);
	PP_V a = PP_ANDN(nX, *VP);
	PP_V nD0 = PP_ANDN(PP_ADDW(a, *VP, w16) ^ *VP, nX);
	PP_V HN = PP_ANDN(nD0, *VP);
	PP_V HP = *VN | PP_ANDN(*VP, nD0);
	PP_V Xs = PP_SHLW(HP, w16);

	*VN = PP_ANDN(nD0, Xs);
	*VP = PP_SHLW(HN, w16) | PP_ANDN(Xs, nD0);
#else
	PP_V X = eq | *VN;
	PP_V D0 = (PP_ADDW(X & *VP, *VP, w16) ^ *VP) | X;
	PP_V HN = *VP & D0;
	PP_V HP = PP_ORNOR(*VN, *VP, D0);
	PP_V Xs = PP_SHLW(HP, w16);

	*VN = Xs & D0;
	*VP = PP_ORNOR(PP_SHLW(HN, w16), Xs, D0);
#endif
	*hp = HP;
	*hn = HN;
}

/* The scores a walk (_walk) keeps: one vector a group, 32-bit lanes
 * (PP_T32); those of 4 groups in the signed bytes of one vector (PP_T8,
 * with PP_PACK4); the prefix filter's (PP_F16, with PP_FILT16), 16-bit
 * lanes, 2 groups in the bytes of one vector.  The packed ones saturate
 * at -128 and 127: exact for k < 128 (T = score - k - 1 is then within
 * -128..31); from k = 128 on every T is negative and a saturated one stays
 * so (it climbs at most the pattern's length, 32, from -128). */
#ifndef PP_T32
#define PP_T32	0
#define PP_T8	1
#define PP_F16	2
#endif

#ifdef PP_PACK4
/* a lane's (PP_T32) or a byte's (else) sign set in v */
#define PP_NEG(kind, v)	((kind) == PP_T32 ? PP_ANYNEG(v) : PP_ANYNEG8(v))

/*
 * One byte of the packed scores: groups [4 q, 4 q + 4) (PP_T8) or
 * [2 q, 2 q + 2) (PP_F16, 16-bit lanes) of NB stepped by eq, their HP and
 * HN packed with signed saturation (a lane's sign, HP's and HN's top bit,
 * survives) in the lanes' order of PP_PACKW and PP_PACKB, the same as T0
 * (the reset values, packed once), and T8 moved by PP_DELTA8.  A group
 * past NB packs zero vectors: its bytes in T0 are large (they never move,
 * never hit).
 */
PP_ATTR static inline __attribute__((always_inline)) PP_V
PP_CAT(PP_NAME, _packed)(const PP_V *eq, PP_V *VP, PP_V *VN, PP_V T8,
    int q, const int NB, const int kind)
{
	const PP_V zero = T8 ^ T8;
	PP_V HP[2], HN[2], PW[2], NW[2];

	/* each pair packed as soon as it is stepped (fewer live
	 * registers) */
#pragma GCC unroll 2
	for (int h = 0; h < 2; h++) {
#pragma GCC unroll 2
		for (int l = 0; l < 2; l++) {
			const int b = (kind == PP_T8 ? 4 : 2) * q + 2 * h + l;
			if (b >= NB)
				HP[l] = HN[l] = zero;
			else
				PP_CAT(PP_NAME, _step)(eq[b], &VP[b], &VN[b],
				    &HP[l], &HN[l], kind == PP_F16);
		}
		if (kind == PP_F16)	/* (one pair) */
			return PP_DELTA8(T8, PP_PACKB(HP[0], HP[1]),
			    PP_PACKB(HN[0], HN[1]));
		PW[h] = PP_PACKW(HP[0], HP[1]);
		NW[h] = PP_PACKW(HN[0], HN[1]);
	}
	return PP_DELTA8(T8, PP_PACKB(PW[0], PW[1]), PP_PACKB(NW[0], NW[1]));
}
#else
#define PP_NEG(kind, v)	PP_ANYNEG(v)
#endif

#ifdef PP_FILT16
/* PP_MOVEMASK8's bits as a 64-bit word (AVX2's int without its sign) */
#define PP_M8U(v)	(PP_VBYTES == 64 ? (uint64_t)PP_MOVEMASK8(v) :	\
	(uint64_t)(uint32_t)PP_MOVEMASK8(v))

/* Queues pattern x's open window: 1, or 0 when the queue is over (full
 * now or before). */
PP_ATTR static inline int
PP_CAT(PP_NAME, _queue)(struct pp_vq *q, size_t x)
{
	if (q->n == q->cap)
		q->over = 1;
	if (q->over)
		return 0;
	q->e[q->n++] = (struct pp_ve){ x, q->pf[x], q->pt[x] };
	return 1;
}

/*
 * Pattern x's prefix scored k or less at text[i] (x: its lane in the
 * tables, 16- and 32-bit alike): its ends in [i, i + len - 15 + k) are to
 * be verified, from i - 15 - k (_verify, from the reset state), in a
 * window that grows while its hits overlap it (queued when the next one
 * does not, or by _flush after the filter's pass).  A pattern of 16 bytes
 * or fewer is all prefix: its hit is the bitmap's.  Past the queue's
 * room, the block is over (it runs the exact step).
 */
PP_ATTR static inline void
PP_CAT(PP_NAME, _cand)(const struct pp_run *r, size_t x, size_t i)
{
	struct pp_vq *q = r->vq;
	const uint32_t *init = r->init;
	const long len = (long)(int32_t)init[r->G * (PP_VBYTES / 4) + x] +
	    r->k + 1;

	if (x >= q->np || q->over)
		return;
	if (len <= 16) {
		if (i >= r->warm)
			r->bitmap[(i - r->warm) / 64] |= (uint64_t)1 <<
			    ((i - r->warm) % 64);
		return;
	}
	const size_t back = 15 + (size_t)r->k,
	    ahead = (size_t)len - 16 + (size_t)r->k + 1;
	const size_t s = i > back ? i - back : 0;
	const size_t t = r->all - i > ahead ? i + ahead : r->all;
	if (q->pt[x] != 0 && s <= q->pt[x]) {
		if (t > q->pt[x])
			q->pt[x] = t;
		return;
	}
	if (q->pt[x] == 0)
		q->open[q->nopen++] = x;
	else if (!PP_CAT(PP_NAME, _queue)(q, x))
		return;
	q->pf[x] = s;
	q->pt[x] = t;
}

/* Queues the windows still open (_cand) and closes them all. */
PP_ATTR static void
PP_CAT(PP_NAME, _flush)(struct pp_vq *q)
{
	for (size_t o = 0; o < q->nopen; o++) {
		(void)PP_CAT(PP_NAME, _queue)(q, q->open[o]);
		q->pt[q->open[o]] = 0;
	}
	q->nopen = 0;
}
#endif

#ifdef PP_FILT16
/*
 * The filter's hits in text[c0, c0 + e), e <= 64 (acc[NT j + q]: its NT
 * packed score vectors after text[c0 + j], 16-bit groups from h0): each
 * pattern with a hit at text[i], i >= from, goes to _cand.  The bytes
 * with a hit found first without a branch, then visited alone (AVX2, 300
 * primers of 20-32 bases at k = 4: a test and branch a byte and vector
 * were a quarter of the filter's time by perf; 6.1 pattern-GB/s before,
 * 6.8 after).  A packed vector's bytes (PP_PACKB packs within 128-bit
 * quarters): in quarter Q, 8 lanes of 16-bit group h0 + 2 q, then 8 of
 * the next, lanes 8 Q to 8 Q + 7 of each.
 */
PP_ATTR static inline __attribute__((always_inline)) void
PP_CAT(PP_NAME, _fhits)(const struct pp_run *r, size_t c0, size_t e,
    const PP_V *acc, const int NT, size_t h0, size_t from)
{
	uint64_t hm = 0;

	for (size_t j = 0; j < e; j++) {
		PP_V a = acc[NT * j];
#pragma GCC unroll 4
		for (int q = 1; q < NT; q++)
			a |= acc[NT * j + q];
		hm |= (uint64_t)(PP_MOVEMASK8(a) != 0) << j;
	}
	if (from > c0)
		hm &= from - c0 < 64 ? ~(uint64_t)0 << (from - c0) : 0;
	for (; hm != 0; hm &= hm - 1) {
		const size_t j = (size_t)__builtin_ctzll(hm);
		for (int q = 0; q < NT; q++) {
			uint64_t m = PP_M8U(acc[NT * j + q]);
			for (; m != 0; m &= m - 1) {
				const unsigned b = (unsigned)__builtin_ctzll(m),
				    w = b % 16;
				PP_CAT(PP_NAME, _cand)(r, PP_VBYTES / 2 * (h0 +
				    2 * (size_t)q + w / 8) + 8 * (b / 16) + w %
				    8, c0 + j);
			}
		}
	}
}
#endif

/*
 * The walk of every engine's step: text[i0, i1) for NB groups (Eq at tab
 * + c * stride for byte c; state VP, VN; reset VP0), their scores T (by
 * kind: NB vectors, (NB + 3) / 4 or (NB + 1) / 2; reset T0) kept, a
 * terminator resetting all; 64 bytes at a time, acc (scratch: 64 vectors,
 * PP_F16 64 NT) ORing the scores after each byte (PP_F16: each score
 * vector), and where one has a hit (a lane's or a byte's sign set): the
 * bitmap bit of its byte, from r->warm on; PP_F16, the filter's 16-bit
 * groups from h0: its 32-bit groups go to _cand, from text[from] on.
 */
PP_ATTR static inline __attribute__((always_inline)) void
PP_CAT(PP_NAME, _walk)(const struct pp_run *r, const PP_V *tab, size_t stride,
    const PP_V *VP0, const PP_V *T0, PP_V *VP, PP_V *VN, PP_V *T, size_t i0,
    size_t i1, PP_V *acc, const int NB, const int kind, size_t h0,
    size_t from)
{
	const int NT = kind == PP_T32 ? NB : kind == PP_T8 ? (NB + 3) / 4 :
	    (NB + 1) / 2;
	const PP_V zero = VP0[0] ^ VP0[0];

	(void)h0, (void)from;	/* (PP_F16's) */
	for (size_t c0 = i0; c0 < i1; c0 += 64) {
		const size_t e = i1 - c0 < 64 ? i1 - c0 : 64;
		PP_V any = zero, HP, HN;

		for (size_t j = 0; j < e; j++) {
			const unsigned char c = r->text[c0 + j];
			/* a byte's vectors at tab + c * stride bytes (one
			 * multiplication a byte, the groups at constant
			 * offsets) */
			const PP_V *eq = (const PP_V *)(const void *)
			    ((const char *)tab + c * stride);
			PP_OPAQUE(eq);
			if (c == r->eol) {
#pragma GCC unroll 8
				for (int b = 0; b < NB; b++) {
					VP[b] = VP0[b];
					VN[b] = zero;
				}
#pragma GCC unroll 8
				for (int q = 0; q < NT; q++)
					T[q] = T0[q];
			} else if (kind == PP_T32) {
#pragma GCC unroll 8
				for (int b = 0; b < NB; b++) {
					PP_CAT(PP_NAME, _step)(eq[b], &VP[b],
					    &VN[b], &HP, &HN, 0);
					T[b] += PP_DELTA(HP, HN);
				}
			} else {
#ifdef PP_PACK4
#pragma GCC unroll 4
				for (int q = 0; q < NT; q++)
					T[q] = PP_CAT(PP_NAME, _packed)(eq, VP, VN,
					    T[q], q, NB, kind);
#endif
			}
			if (kind == PP_F16) {
#pragma GCC unroll 4
				for (int q = 0; q < NT; q++) {
					acc[NT * j + q] = T[q];
					any |= T[q];
				}
				continue;
			}
			PP_V a = T[0];
#pragma GCC unroll 8
			for (int q = 1; q < NT; q++)
				a |= T[q];
			acc[j] = a;
			any |= a;
		}
		if (!PP_NEG(kind, any))
			continue;
#ifdef PP_FILT16
		if (kind == PP_F16) {
			PP_CAT(PP_NAME, _fhits)(r, c0, e, acc, NT, h0, from);
			continue;
		}
#endif
		for (size_t j = 0; j < e; j++) {
			const size_t i = c0 + j;
			if (PP_NEG(kind, acc[j]) && i >= r->warm)
				r->bitmap[(i - r->warm) / 64] |= (uint64_t)1 <<
				    ((i - r->warm) % 64);
		}
	}
}

/*
 * Loads the state of groups [x0, x0 + NB) from st (VP, VN, T a group; the
 * scores by kind, _walk: T of groups x0, x0 + 1, ... hold the packed
 * ones), or the reset state when fresh, and their reset values VP0 and T0
 * (packed by kind) from init ([2][Ginit]: VP, then T).
 */
PP_ATTR static inline __attribute__((always_inline)) void
PP_CAT(PP_NAME, _load)(const PP_V *st, size_t x0, const PP_V *init,
    size_t Ginit, int fresh, PP_V *VP0, PP_V *VP, PP_V *VN, PP_V *T0,
    PP_V *T, const int NB, const int kind)
{
	const int NT = kind == PP_T32 ? NB : kind == PP_T8 ? (NB + 3) / 4 :
	    (NB + 1) / 2;
	const PP_V zero = init[0] ^ init[0];

#pragma GCC unroll 8
	for (int b = 0; b < NB; b++) {
		VP0[b] = init[x0 + b];
		VP[b] = fresh ? VP0[b] : st[3 * (x0 + b)];
		VN[b] = fresh ? zero : st[3 * (x0 + b) + 1];
	}
#pragma GCC unroll 8
	for (int q = 0; q < NT; q++) {
		const int n = kind == PP_T32 ? 1 : kind == PP_T8 ? 4 : 2;
		PP_V t[4];
		/* (a group past NB: 100, large, never moves, never hits;
		 * in each 16-bit lane for PP_F16) */
#pragma GCC unroll 4
		for (int l = 0; l < n; l++)
			t[l] = n * q + l < NB ? init[Ginit + x0 + n * q + l] :
			    zero + (kind == PP_F16 ? 0x640064u : 100);
#ifdef PP_PACK4
		if (kind == PP_T8)
			t[0] = PP_PACKB(PP_PACKW(t[0], t[1]), PP_PACKW(t[2],
			    t[3]));
		else if (kind == PP_F16)
			t[0] = PP_PACKB(t[0], t[1]);
#endif
		T0[q] = t[0];
		T[q] = fresh ? T0[q] : st[3 * (x0 + q) + 2];
	}
}

/* Saves the state of groups [x0, x0 + NB) in st, as _load reads it. */
PP_ATTR static inline __attribute__((always_inline)) void
PP_CAT(PP_NAME, _save)(PP_V *st, size_t x0, const PP_V *VP, const PP_V *VN,
    const PP_V *T, const int NB, const int kind)
{
	const int NT = kind == PP_T32 ? NB : kind == PP_T8 ? (NB + 3) / 4 :
	    (NB + 1) / 2;

#pragma GCC unroll 8
	for (int b = 0; b < NB; b++) {
		st[3 * (x0 + b)] = VP[b];
		st[3 * (x0 + b) + 1] = VN[b];
	}
#pragma GCC unroll 8
	for (int q = 0; q < NT; q++)
		st[3 * (x0 + q) + 2] = T[q];
}

/*
 * Groups [g0, g0 + NB) over text[b0, b1), their state in st (_load), from
 * the reset state when b0 == r->fresh: NB is a constant once inlined.
 */
PP_ATTR static inline __attribute__((always_inline)) void
PP_CAT(PP_NAME, _batch)(const struct pp_run *r, size_t g0, void *stv,
    size_t b0, size_t b1, void *accv, const int NB)
{
#ifdef PP_PACK4
	const int kind = PP_T8;
#else
	const int kind = PP_T32;
#endif
	const PP_V *tab = (const PP_V *)r->tab + g0;
	PP_V *st = stv, *acc = accv;
	PP_V VP[PP_NBMAX], VN[PP_NBMAX], T[PP_NBMAX], VP0[PP_NBMAX],
	    T0[PP_NBMAX];

	PP_CAT(PP_NAME, _load)(st, g0, r->init, r->G, b0 == r->fresh, VP0, VP,
	    VN, T0, T, NB, kind);
	PP_CAT(PP_NAME, _walk)(r, tab, r->G * sizeof(PP_V), VP0, T0, VP, VN,
	    T, b0, b1, acc, NB, kind, 0, 0);
	PP_CAT(PP_NAME, _save)(st, g0, VP, VN, T, NB, kind);
}

#define PP_BATCHF(NB)							\
PP_ATTR static void							\
PP_CAT(PP_NAME, _##NB)(const struct pp_run *r, size_t g0, void *st,	\
    size_t b0, size_t b1, void *acc)					\
{									\
	PP_CAT(PP_NAME, _batch)(r, g0, st, b0, b1, acc, NB);		\
}
PP_BATCHF(1)
PP_BATCHF(2)
PP_BATCHF(3)
PP_BATCHF(4)
#if PP_NBMAX > 4
PP_BATCHF(5)
PP_BATCHF(6)
PP_BATCHF(7)
PP_BATCHF(8)
#endif
#undef PP_BATCHF

static void (*const PP_CAT(PP_NAME, _batches)[])(const struct pp_run *,
    size_t, void *, size_t, size_t, void *) = {
	PP_CAT(PP_NAME, _1), PP_CAT(PP_NAME, _2), PP_CAT(PP_NAME, _3),
	PP_CAT(PP_NAME, _4),
#if PP_NBMAX > 4
	PP_CAT(PP_NAME, _5), PP_CAT(PP_NAME, _6), PP_CAT(PP_NAME, _7),
	PP_CAT(PP_NAME, _8),
#endif
};

#ifdef PP_FILT16
/*
 * The prefix filter (PP_FILT16, with PP_PACK4): 16-bit lanes, PP_VBYTES / 2
 * patterns a vector, each running the first 16 bytes of its pattern (all
 * of it when shorter), so twice the patterns an instruction.  A match of a
 * pattern within k ends no earlier than a match of its prefix within k, at
 * most len - 16 + k bytes later: where a lane's prefix scores k or less at
 * text[i], its pattern alone runs the exact step over text[i - 15 - k,
 * i + len - 15 + k) from the reset state (_cand, _verify: a lane of its
 * own).  A match within k crosses the prefix's last row at some i where
 * the prefix scores k or less, it ends in [i, i + len - 16 + k] and starts
 * after i - 16 - k (the prefix spans 16 + k bytes at most), so that run
 * finds it; a run from a later start than the record's finds no match
 * that is not one.  A pattern of 16 bytes or fewer takes the filter's
 * hits as they are.
 */
/*
 * Runs m <= NL (the lanes of a vector) queued verifications (_cand), one a
 * lane: lane l runs pattern e[l].x from the reset state over
 * text[e[l].from, ...) for as many bytes as the longest of them (a lane
 * past its own window goes on over real text: its hits are matches all
 * the same; past the text, terminators), its Eq gathered 64 bytes at a
 * time into eqb by scalar loads (a lane's pattern and bytes are its own:
 * no vector gather), its hits (none false) into the bitmap.  One vector
 * step for NL candidates, where a group's run (the exact step over a
 * window) spent one on a candidate: AVX2, 300 primers at k = 4, the
 * verification was 16 % of the run.
 */
PP_ATTR static void
PP_CAT(PP_NAME, _verify)(const struct pp_run *r, const struct pp_ve *e,
    int m)
{
	enum { NL = PP_VBYTES / 4 };
	const uint32_t *init = r->init;
	const size_t GN = r->G * NL;
	const unsigned char eol = r->eol;
	PP_V eqb[64], VP0, T0, VP, VN, T, HP, HN;
	uint32_t hit[64];
	size_t from[NL], x[NL], most = 0;
	const uint32_t live = m >= NL ? ~(uint32_t)0 : ((uint32_t)1 << m) - 1;
	const PP_BV e8 = (PP_BV){ 0 } + eol;

	for (int l = 0; l < NL; l++) {
		const struct pp_ve *v = &e[l < m ? l : 0];
		from[l] = v->from;
		x[l] = v->x;
		VP0[l] = init[v->x];
		T0[l] = init[GN + v->x];
		most = v->t - v->from > most ? v->t - v->from : most;
	}
	VP = VP0;
	VN = VP0 ^ VP0;
	T = T0;
	for (size_t j0 = 0; j0 < most; j0 += 64) {
		const size_t B = most - j0 < 64 ? most - j0 : 64;
		uint64_t term = 0, tl[NL];	/* (tl: a lane's terminators,
						 * and past the text) */

		for (int l = 0; l < NL; l++) {
			const size_t a = from[l] + j0;
			const size_t in = a < r->all ? (r->all - a < B ?
			    r->all - a : B) : 0;
			const unsigned char *tx = r->text + a;
			const uint32_t *eq = r->eqx + 256 * x[l];
			uint32_t *col = (uint32_t *)(void *)eqb + l;
			size_t j;
			for (j = 0; j < in; j++)
				col[j * NL] = eq[tx[j]];
			for (; j < B; j++)
				col[j * NL] = eq[eol];
			uint64_t em = 0;
			if (a < r->all && r->all - a >= 64)
				for (int h = 0; h < 64 / PP_VBYTES; h++) {
					PP_BV v;
					memcpy(&v, tx + h * PP_VBYTES, sizeof(v));
					em |= PP_M8U((PP_V)(v == e8)) << (h *
					    PP_VBYTES % 64);
				}
			else
				for (j = 0; j < B; j++)
					em |= (uint64_t)(j >= in ||
					    tx[j] == eol) << j;
			tl[l] = em;
			term |= em;
		}
		for (size_t j = 0; j < B; j++) {
			PP_CAT(PP_NAME, _step)(eqb[j], &VP, &VN, &HP, &HN, 0);
			T += PP_DELTA(HP, HN);
			if (term >> j & 1) {
				/* the lanes at a terminator start again */
				PP_V rv = VP0 ^ VP0;
				for (int l = 0; l < NL; l++)
					rv[l] = tl[l] >> j & 1 ? ~(uint32_t)0 :
					    0;
				VP = (VP & ~rv) | (VP0 & rv);
				VN &= ~rv;
				T = (T & ~rv) | (T0 & rv);
			}
			hit[j] = PP_MASK32(T) & live;
		}
		for (size_t j = 0; j < B; j++)
			for (uint32_t h = hit[j]; h != 0; h &= h - 1) {
				const size_t i = from[__builtin_ctz(h)] + j0 +
				    j;
				if (i < r->all && i >= r->warm)
					r->bitmap[(i - r->warm) / 64] |=
					    (uint64_t)1 << ((i - r->warm) % 64);
			}
	}
}

/*
 * The filter over text[b0, b1) for 16-bit groups [h0, h0 + NB), NB <=
 * PP_NBF, their state in st16 (VP, VN a group, then T8 for each pair from
 * h0): from the reset state when b0 == r->fresh; hits at text[from] or
 * later go to _cand.
 */
PP_ATTR static inline __attribute__((always_inline)) void
PP_CAT(PP_NAME, _filt)(const struct pp_run *r, size_t h0, PP_V *st16,
    size_t b0, size_t b1, size_t from, PP_V *acc2,
    const int NB)
{
	const PP_V *tab = (const PP_V *)r->tab16 + h0;
	PP_V VP[PP_NBF], VN[PP_NBF], VP0[PP_NBF], T8[PP_NBF / 2],
	    T0q[PP_NBF / 2];

	PP_CAT(PP_NAME, _load)(st16, h0, r->init16, r->G16, b0 == r->fresh,
	    VP0, VP, VN, T0q, T8, NB, PP_F16);
	PP_CAT(PP_NAME, _walk)(r, tab, r->G16 * sizeof(PP_V), VP0, T0q, VP, VN,
	    T8, b0, b1, acc2, NB, PP_F16, h0, from);
	PP_CAT(PP_NAME, _save)(st16, h0, VP, VN, T8, NB, PP_F16);
}

#define PP_FILTF(NB)							\
PP_ATTR static void							\
PP_CAT(PP_NAME, _f##NB)(const struct pp_run *r, size_t h0, PP_V *st16,	\
    size_t b0, size_t b1, size_t from, PP_V *acc2)	\
{									\
	PP_CAT(PP_NAME, _filt)(r, h0, st16, b0, b1, from, acc2, NB); \
}
PP_FILTF(1)
PP_FILTF(2)
PP_FILTF(3)
PP_FILTF(4)
#if PP_NBF > 4
PP_FILTF(5)
PP_FILTF(6)
PP_FILTF(7)
PP_FILTF(8)
#endif
#undef PP_FILTF

/* The filter over text[b0, b1) for every 16-bit group, in batches of up to
 * PP_NBF (as even as can be), its verifications queued in r->vq. */
PP_ATTR static void
PP_CAT(PP_NAME, _filter)(const struct pp_run *r, PP_V *st16, size_t b0,
    size_t b1, size_t from, PP_V *acc2)
{
	static void (*const f[])(const struct pp_run *, size_t, PP_V *,
	    size_t, size_t, size_t, PP_V *) = {
		PP_CAT(PP_NAME, _f1), PP_CAT(PP_NAME, _f2),
		PP_CAT(PP_NAME, _f3), PP_CAT(PP_NAME, _f4),
#if PP_NBF > 4
		PP_CAT(PP_NAME, _f5), PP_CAT(PP_NAME, _f6),
		PP_CAT(PP_NAME, _f7), PP_CAT(PP_NAME, _f8),
#endif
	};
	const size_t G16 = r->G16, nbat = (G16 + PP_NBF - 1) / PP_NBF;

	for (size_t q = 0, h0 = 0, nb; q < nbat; q++, h0 += nb) {
		nb = (G16 - h0) / (nbat - q);
		f[nb - 1](r, h0, st16, b0, b1, from, acc2);
	}
}
#endif

/*
 * The engine: r->tab [256][G] vectors of Eq (~Eq with PP_NEQ), r->init
 * [2][G] (VP, then T, at a reset) over r->text[0, r->all); hits from
 * r->warm on into r->bitmap.
 */
PP_ATTR static void
PP_NAME(const struct pp_run *r)
{
	const size_t G = r->G;
	const PP_V *init = r->init;
	PP_V *st = aligned_alloc(64, (3 * G * sizeof(PP_V) + 63) / 64 * 64);
	PP_V acc[64];

	if (st == NULL)
		fatalx("out of memory");
	/* st[3 g]: VP, st[3 g + 1]: VN, st[3 g + 2]: T of group g */
	for (size_t g = 0; g < G; g++) {
		st[3 * g] = init[g];
		st[3 * g + 1] = init[g] ^ init[g];
		st[3 * g + 2] = init[G + g];
	}
#ifdef PP_FILT16
	/* The prefix filter (r->tab16) while a block of it, its
	 * verification included, takes no longer than one of the exact
	 * step, both timed (tf, te: seconds a byte, a running mean of the
	 * blocks that ran each; the first four blocks alternate, the first
	 * of each not counted; while the filter runs, every PP_RETIME-th
	 * block runs the exact step, so that te is not one cold block's);
	 * after a block where it took longer, the exact step for the next
	 * fwait blocks (16, doubled at each try that fails, up to 1024).
	 * What the filter costs is how often the prefixes hit, which the
	 * text decides (300 primers of 20-32 bases over reads verify 0.06 %
	 * of the pattern-bytes at k = 3, 0.9 % at 4, 8 % at 5: where the
	 * break-even is 2-5 %).
	 * A switch warms the state of the one to run from the reset state
	 * over the bytes before the block that its matches can span. */
	struct pp_run rr = *r;
	PP_V *st16 = NULL, *acc2 = NULL;
	size_t fwait = 0, fback = PP_WAIT;
	struct pp_vq *vq = r->vq;
	int prev = 1;	/* the filter ran the block before */
	double tf = 0, te = 0, t0 = 0;
	size_t nf = 0, ne = 0;	/* blocks timed (the first of each not
				 * kept: the tables' first use) */

	if (r->tab16 != NULL) {
		st16 = aligned_alloc(64, (3 * r->G16 * sizeof(PP_V) + 63) / 64 *
		    64);
		acc2 = aligned_alloc(64, 64 * PP_NBF / 2 * sizeof(PP_V));
		if (st16 == NULL || acc2 == NULL)
			fatalx("out of memory");
	}
	r = &rr;
#endif
	for (size_t b0 = 0; b0 < r->all; b0 += r->block) {
		const size_t b1 = r->all - b0 < r->block ? r->all :
		    b0 + r->block;
		size_t from = b0;
#ifdef PP_FILT16
		if (r->tab16 != NULL && fwait == 0) {
			/* after the exact step: the prefixes' hits from
			 * PP_MAXLEN - 16 + k bytes before the block on (their
			 * matches may end in it), the filter warmed from 16 + k
			 * + 1 bytes before those */
			const size_t span = PP_MAXLEN - 16 + (size_t)r->k,
			    back = 16 + (size_t)r->k + 1,
			    hfrom = prev ? b0 : b0 - (b0 < span ? b0 : span),
			    w = prev ? b0 : hfrom - (hfrom < back ? hfrom :
			    back);
			vq->n = 0;
			vq->over = 0;
			rr.fresh = prev ? 0 : w;
			t0 = util_now();
			PP_CAT(PP_NAME, _filter)(r, st16, w, b1, hfrom, acc2);
			PP_CAT(PP_NAME, _flush)(vq);
			if (!vq->over) {
				for (size_t x = 0; x < vq->n; x += PP_VBYTES / 4)
					PP_CAT(PP_NAME, _verify)(r, vq->e + x,
					    vq->n - x < PP_VBYTES / 4 ?
					    (int)(vq->n - x) : PP_VBYTES / 4);
				pp_timed(&tf, &nf, (util_now() - t0) /
				    (double)(b1 - b0));
				if (r->filt != 1 || ne < 2 || tf <= te) {
					fback = PP_WAIT;
					/* (the exact step timed: first
					 * twice, then every PP_RETIME) */
					if (r->filt == 1 && (ne < 2 ||
					    nf % PP_RETIME == 0))
						fwait = 1;
				} else {
					fwait = fback;
					fback = fback < 1024 ? 2 * fback :
					    fback;
				}
				if (r->filt == 3)
					fwait = 1;	/* (tests: switch) */
				prev = 1;
				continue;
			}
			/* (more than the queue holds: the block runs the
			 * exact step) */
			fwait = fback;
			fback = fback < 1024 ? 2 * fback : fback;
		} else if (r->tab16 != NULL)
			fwait--;
		if (r->tab16 != NULL) {
			const size_t back = PP_MAXLEN + (size_t)r->k + 1;
			if (prev)
				from = b0 - (b0 < back ? b0 : back);
			rr.fresh = prev ? from : 0;
			prev = 0;
			t0 = util_now();
		}
#endif
		/* batches of at most PP_NBMAX groups, as even as can be */
		const size_t nbat = (G + PP_NBMAX - 1) / PP_NBMAX;
		for (size_t q = 0, g0 = 0, nb; q < nbat; q++, g0 += nb) {
			nb = (G - g0) / (nbat - q);
			PP_CAT(PP_NAME, _batches)[nb - 1](r, g0, st, from, b1,
			    acc);
		}
#ifdef PP_FILT16
		if (r->tab16 != NULL)
			pp_timed(&te, &ne, (util_now() - t0) /
			    (double)(b1 - b0));
#endif
	}
	free(st);
#ifdef PP_FILT16
	free(st16);
	free(acc2);
#endif
}

#undef PP_V
#undef PP_NAME
#undef PP_ATTR
#undef PP_VBYTES
#undef PP_NEQ
#undef PP_ORNOR
#undef PP_ANDN
#undef PP_NBMAX
#undef PP_NBF
#undef PP_NEG
#undef PP_ADDW
#undef PP_SHLW
#undef PP_MASK32
#undef PP_M8U
#undef PP_BV
#undef PP_DELTA
#undef PP_ANYNEG
#undef PP_PACK4
#undef PP_FILT16
#undef PP_MOVEMASK8
#undef PP_W
#undef PP_PACKW
#undef PP_PACKB
#undef PP_DELTA8
#undef PP_ANYNEG8
