/*
 * pp_body.h: one instance of the pattern-parallel engine (pp.c), included
 * once per target with these macros set:
 *
 *   PP_NAME	the function's name
 *   PP_ATTR	its target attribute (empty for the generic build)
 *   PP_VBYTES	vector size in bytes (16, 32, 64): PP_VBYTES / 4 lanes
 *
 * Each 32-bit lane runs its own pattern of at most 32 bytes, aligned so
 * that its last row is the lane's top bit: the rows below the pattern are
 * "phantom" rows whose Eq bits are always set and whose vertical deltas
 * start (and, since a phantom row matches any byte, stay) at 0, so they
 * hand row 0's constant 0 up to the pattern's first row as Sellers' top
 * row does.  Hence every lane's score moves with the top bits of HP and HN
 * (two shifts by 31), whatever the pattern's length.  All lanes read the
 * same text byte: Eq of all the lanes of G groups for byte c is
 * tab[c * G + g], one aligned load, and a terminator resets every lane at
 * once (a branch, no selects).  The score is kept as T = score - k - 1:
 * a hit is a lane whose sign bit is set.
 *
 * The text is walked in blocks of PP_BLOCK bytes; for each block, the
 * groups in batches of up to 4 (their state in registers: 4 independent
 * dependency chains), the state saved in st[] between blocks.
 */

/* a | ~(b | c): one vpternlogd where AVX-512 has it (GCC 12 makes three
 * instructions of it) */
#ifndef PP_ORNOR
#define PP_ORNOR(a, b, c)	((a) | ~((b) | (c)))
#endif

/* Groups [g0, g0 + NB) over text[b0, b1): NB is a constant once inlined. */
PP_ATTR static inline __attribute__((always_inline)) void
PP_CAT(PP_NAME, _batch)(const void *tabv, const void *initv, size_t G,
    size_t g0, void *stv, void *accv, const unsigned char *text, size_t warm,
    size_t b0, size_t b1, unsigned char eol, uint64_t *bitmap, const int NB)
{
	typedef uint32_t vec __attribute__((vector_size(PP_VBYTES)));
	enum { NL = PP_VBYTES / 4 };
	const vec *tab = (const vec *)tabv + g0;
	const vec *init = initv;
	vec *st = stv, *acc = accv;
	vec VP[4], VN[4], T[4], VP0[4], T0[4];

#pragma GCC unroll 4
	for (int b = 0; b < NB; b++) {
		VP[b] = st[3 * (g0 + b)];
		VN[b] = st[3 * (g0 + b) + 1];
		T[b] = st[3 * (g0 + b) + 2];
		VP0[b] = init[g0 + b];
		T0[b] = init[G + g0 + b];
	}
	for (size_t i0 = b0; i0 < b1; i0 += 64) {
		const size_t e = b1 - i0 < 64 ? b1 - i0 : 64;
		vec any = VP[0] ^ VP[0];

		for (size_t j = 0; j < e; j++) {
			const unsigned char c = text[i0 + j];
			if (c == eol) {
#pragma GCC unroll 4
				for (int b = 0; b < NB; b++) {
					VP[b] = VP0[b];
					VN[b] = VN[b] ^ VN[b];
					T[b] = T0[b];
				}
			} else {
				const vec *eq = tab + (size_t)c * G;
#pragma GCC unroll 4
				for (int b = 0; b < NB; b++) {
					vec X = eq[b] | VN[b];
					vec D0 = (((X & VP[b]) + VP[b]) ^ VP[b]) | X;
					vec HN = VP[b] & D0;
					vec HP = PP_ORNOR(VN[b], VP[b], D0);
					T[b] += (HP >> 31) - (HN >> 31);
					X = HP << 1;
					VN[b] = X & D0;
					VP[b] = PP_ORNOR(HN << 1, X, D0);
				}
			}
			vec a = T[0];
#pragma GCC unroll 4
			for (int b = 1; b < NB; b++)
				a |= T[b];
			acc[j] = a;
			any |= a;
		}
		uint32_t anyl = 0;
		for (int l = 0; l < NL; l++)
			anyl |= any[l];
		if (!(anyl >> 31))
			continue;
		for (size_t j = 0; j < e; j++) {
			uint32_t h = 0;
			for (int l = 0; l < NL; l++)
				h |= acc[j][l];
			size_t i = i0 + j;
			if ((h >> 31) && i >= warm)
				bitmap[(i - warm) / 64] |= (uint64_t)1 <<
				    ((i - warm) % 64);
		}
	}
#pragma GCC unroll 4
	for (int b = 0; b < NB; b++) {
		st[3 * (g0 + b)] = VP[b];
		st[3 * (g0 + b) + 1] = VN[b];
		st[3 * (g0 + b) + 2] = T[b];
	}
}

#define PP_BATCHF(NB)							\
PP_ATTR static void							\
PP_CAT(PP_NAME, _##NB)(const void *tab, const void *init, size_t G,	\
    size_t g0, void *st, void *acc, const unsigned char *text, size_t warm, \
    size_t b0, size_t b1, unsigned char eol, uint64_t *bitmap)		\
{									\
	PP_CAT(PP_NAME, _batch)(tab, init, G, g0, st, acc, text, warm,	\
	    b0, b1, eol, bitmap, NB);					\
}
PP_BATCHF(1)
PP_BATCHF(2)
PP_BATCHF(3)
PP_BATCHF(4)
#undef PP_BATCHF

#undef PP_ORNOR
PP_ATTR static void
PP_NAME(const void *tabv, const void *initv, size_t G,
    const unsigned char *text, size_t warm, size_t all, unsigned char eol,
    uint64_t *bitmap)
{
	typedef uint32_t vec __attribute__((vector_size(PP_VBYTES)));
	const vec *tab = tabv;		/* [256][G] */
	const vec *init = initv;	/* [2][G]: VP at a reset, T at a reset */
	vec *st = aligned_alloc(64, (3 * G * sizeof(vec) + 63) / 64 * 64);
	vec acc[64];

	if (st == NULL)
		fatalx("out of memory");

	/* st[3 g]: VP, st[3 g + 1]: VN, st[3 g + 2]: T of group g */
	for (size_t g = 0; g < G; g++) {
		st[3 * g] = init[g];
		st[3 * g + 1] = init[g] ^ init[g];
		st[3 * g + 2] = init[G + g];
	}
	for (size_t b0 = 0; b0 < all; b0 += PP_BLOCK) {
		const size_t b1 = all - b0 < PP_BLOCK ? all : b0 + PP_BLOCK;
		for (size_t g0 = 0; g0 < G; g0 += 4) {
			const size_t nb = G - g0 < 4 ? G - g0 : 4;
			switch (nb) {
			case 4:
				PP_CAT(PP_NAME, _4)(tab, init, G, g0, st, acc,
				    text, warm, b0, b1, eol, bitmap);
				break;
			case 3:
				PP_CAT(PP_NAME, _3)(tab, init, G, g0, st, acc,
				    text, warm, b0, b1, eol, bitmap);
				break;
			case 2:
				PP_CAT(PP_NAME, _2)(tab, init, G, g0, st, acc,
				    text, warm, b0, b1, eol, bitmap);
				break;
			default:
				PP_CAT(PP_NAME, _1)(tab, init, G, g0, st, acc,
				    text, warm, b0, b1, eol, bitmap);
			}
		}
	}
	free(st);
}

#undef PP_NAME
#undef PP_ATTR
#undef PP_VBYTES
