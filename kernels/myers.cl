/*
 * myers.cl: Myers' bit-parallel approximate matching (J. ACM 46(3), 1999)
 * over slices of a text chunk.  The host twin is src/hostmatch.c; both use the
 * same names: PEq, VP, VN, HP, HN, D0, score.
 *
 * Build options (set by src/scan.c):
 *   WORD   uint or ulong: the Myers word; patterns of up to 32 or 64 bytes
 *   WBITS  32 or 64, the bits in WORD
 *   MAXW   (longer patterns) the most 64-bit blocks of a pattern: builds
 *          myers_scan_blocks, which myers_scan leaves to
 *   LANES  1, 4, 8 or 16: slices handled by one work-item, one per vector
 *          lane.  CPU compilers (POCL) turn the vector types into SIMD; GPUs
 *          want LANES 1 (one slice per work-item).
 *   PAIR   (WBITS 64) run patterns of 33-64 bytes as two 32-bit blocks with
 *          Ukkonen's cut-off when k < 32 (see PAIR_UPPER); other patterns
 *          of the set take the 64-bit path.
 *
 * Layout.  The text buffer holds pad bytes, then the chunk.  Slice s covers
 * chunk bytes [s * slice, (s + 1) * slice); its lane starts reading pad bytes
 * earlier, at buffer offset s * slice, to warm up the state, and records hits
 * only from its own first byte on.  The pad is at least n + k - 1 bytes, NOT
 * n - 1: a match with k insertions is n + k bytes long, so a match ending at
 * the slice's first byte may start n + k - 1 bytes before it.  With an n - 1
 * warm-up, matches whose insertions straddle the slice start are lost.  Before
 * the first chunk of an input (and after a line break) the pad holds
 * terminators, which reset the state.
 *
 * Output: bit j of the bitmap is set when a match ends at chunk byte j.  The
 * slice length is a multiple of 64 bytes, so every bitmap word belongs to
 * exactly one lane of one work-item: no atomics, no shared words.
 */

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define WBYTES (WBITS / 8)
#define WPB 8			/* text words per block of WBITS bytes */

#if LANES == 1
typedef WORD vword;
#define LANE(v, i) (v)
#define LANEMAP(F) F(0)
#define VEC(...) (__VA_ARGS__)
#else
typedef CAT(WORD, LANES) vword;
#define LANE(v, i) ((v).CAT(s, i))
#define VEC(...) ((vword)(__VA_ARGS__))
#if LANES == 4
#define LANEMAP(F) F(0), F(1), F(2), F(3)
#elif LANES == 8
#define LANEMAP(F) F(0), F(1), F(2), F(3), F(4), F(5), F(6), F(7)
#elif LANES == 16
#define LANEMAP(F) F(0), F(1), F(2), F(3), F(4), F(5), F(6), F(7), \
	F(8), F(9), F(a), F(b), F(c), F(d), F(e), F(f)
#else
#error "LANES must be 1, 4, 8 or 16"
#endif
#endif

/*
 * Each lane's block of WPB text words is loaded with one vector load per
 * lane into tb[lane][word], and lane i's word w is then tb[i][w]: far faster
 * on CPUs than gathering each word from the LANES slices (one gather per
 * word measured 0.7 GB/s a core on POCL, the block loads 1.2-1.3).
 */
#define LOAD_BLOCK(tb, blk) do { \
	const size_t base0 = slice0 * stride + (size_t)(blk) * WPB; \
	for (uint l = 0; l < LANES; l++) \
		vstore8(vload8(0, text + base0 + l * stride), 0, (tb)[l]); \
} while (0)
#define TB_AT(i) tb[CAT(0x, i)][w]
/* Lane i's PEq entry for its byte c. */
#define PEQ_AT(i) PEq[LANE(c, i)]
/* Lane i's hits of this block into its own bitmap word (ORed after the first
 * pattern), unless the lane is past the last slice. */
#define SLICE_OF(i) (slice0 + CAT(0x, i))
#define BM_AT(i) bitmap[SLICE_OF(i) * slice_blocks + blk - pad_blocks]
#define STORE_HITS(i) (SLICE_OF(i) < nslices ? \
	(void)(BM_AT(i) = (p ? BM_AT(i) : 0) | LANE(hits, i)) : (void)0)

#ifdef PAIR
/*
 * Patterns of 33-64 bytes as two 32-bit blocks: rows 1-32 (block 0) and
 * rows 33-n (block 1), Myers' Advance_Block with carries between them and
 * Ukkonen's cut-off, exactly as myers_scan_blocks does with 64-bit blocks
 * (same rules: y is the last active block, block 1 enters when the
 * bottom of block 0 was <= k one byte earlier and its first row can be
 * reached, and leaves when its bottom is >= k + n - 32).  Here y is a mask
 * per lane (all ones: block 1 active).  While y is clear, block 1 is in its
 * reset state (VP all ones, VN 0, bottom score = block 0's bottom + n - 32)
 * implicitly: its registers are not kept then, and the step that brings it
 * into the band starts from that state.  Block 1 is computed only when some
 * lane of the work-item needs it (a branch), which is rare with small k:
 * 32-bit operations only for most bytes, where GPUs run 64-bit integer ops
 * as two 32-bit ones.  A hit needs block 1 active, so hits are recorded
 * inside the branch.  k < 32 keeps block 1 out of the band at a record
 * start (its first row is 33 > k there), so a terminator clears y.
 * PEq is read as 32-bit halves: PEq32[2c] rows 1-32, PEq32[2c + 1] the rest.
 * PAIR_FULL (development, AGREP_GPU_PAIR=2) drops the cut-off: block 1 is
 * always active (plain 2 x 32-bit words with carries), for comparison.
 */
#if LANES == 1
typedef uint uvec;
#define UVEC(...) (__VA_ARGS__)
#define UMASK(cond) ((cond) ? ~0u : 0u)
#define ANY(m) ((m) != 0)
#define LO32(t) ((uint)(t))
#define HI32(t) ((uint)((t) >> 32))
#define JOIN64(hi, lo) upsample(hi, lo)
#else
typedef CAT(uint, LANES) uvec;
#define UVEC(...) ((uvec)(__VA_ARGS__))
#define UMASK(cond) CAT(as_uint, LANES)(cond)
#define ANY(m) any(CAT(as_int, LANES)(m))
#define LO32(t) CAT(convert_uint, LANES)(t)
#define HI32(t) CAT(convert_uint, LANES)((t) >> 32)
#define JOIN64(hi, lo) upsample(hi, lo)
#endif
#ifdef PAIR_FULL
#define PAIR_ON uones
#else
#define PAIR_ON uzero
#endif
#define PEQ_LO(i) PEq32[2 * LANE(c, i)]
#define PEQ_HI(i) PEq32[2 * LANE(c, i) + 1]

/* Block 1's step for the lanes in act (the others compute garbage that y
 * masks); records hits of byte bit (of 32) in half h of the hits word
 * (hh0, hh1). */
#define PAIR_UPPER(h, bit) do { \
	const uvec Eh = UVEC(LANEMAP(PEQ_HI)); \
	const uvec vp = VP1 | ~y, vn = VN1 & y; \
	const uvec s1 = select(prev + n1, sc1, y); \
	const uvec Xv = Eh | vn, E = Eh | on0; \
	const uvec D = (((E & vp) + vp) ^ vp) | E; \
	uvec hp = vn | ~(D | vp), hn = vp & D; \
	const uvec op1 = (hp >> out1) & 1, on1 = (hn >> out1) & 1; \
	hp = (hp << 1) | op0; \
	hn = (hn << 1) | on0; \
	VP1 = hn | ~(Xv | hp); \
	VN1 = hp & Xv; \
	sc1 = s1 + op1 - on1; \
	const uvec ext = ~y & act & UMASK(((Eh & 1) | on0) != uzero); \
	y = (y & UMASK(sc1 < (uvec)(k + n1))) | ext | PAIR_ON; \
	const uvec hb = y & ~nl & UMASK(sc1 <= (uvec)k) & (uvec)(1u << (bit)); \
	if (h) \
		hh1 |= hb; \
	else \
		hh0 |= hb; \
} while (0)

#endif

__kernel void
myers_scan(__global const WORD *text,	/* pad + chunk, word aligned */
    uint pad_blocks,			/* warm-up, in blocks of WBITS bytes */
    uint slice_blocks,			/* slice length, in blocks */
    uint nslices,			/* slices holding chunk bytes */
    __global const WORD *peq,		/* PEq tables */
    __global const uint *pinfo,		/* [npat][3]: length, 1, offset */
    uint npat, uint k, uint eol,
    __global WORD *bitmap)		/* one bit per chunk byte */
{
	const size_t slice0 = get_global_id(0) * LANES;
	const size_t stride = (size_t)slice_blocks * WPB;	/* words */
	const uint nblocks = pad_blocks + slice_blocks;

	for (uint p = 0; p < npat; p++) {
		__global const WORD *PEq = peq + pinfo[3 * p + 2];
		const WORD n = pinfo[3 * p];
		const vword ones = (vword)(~(WORD)0), zero = (vword)0;
		vword VP = ones, VN = zero, score = (vword)n;

#ifdef PAIR
		if (n > 32 && k < 32) {
			__global const uint *PEq32 = (__global const uint *)PEq;
			const uint n1 = (uint)n - 32, out1 = n1 - 1;
			const uvec uones = (uvec)(~0u), uzero = (uvec)0;
			uvec VP0 = uones, VN0 = uzero, sc0 = (uvec)32;
			uvec VP1 = uones, VN1 = uzero, sc1 = (uvec)n, y = PAIR_ON;

			for (uint blk = 0; blk < nblocks; blk++) {
				uvec hh0 = uzero, hh1 = uzero;
				WORD tb[LANES][WPB];

				LOAD_BLOCK(tb, blk);
				/* Not unrolled: the branch to block 1 then has 8
				 * copies, not 64.  H100, 43-57-byte patterns, 512-byte
				 * slices: 475-484 GB/s rolled, 385-397 unrolled. */
#pragma unroll 1
				for (uint w = 0; w < WPB; w++) {
					const vword t = VEC(LANEMAP(TB_AT));
					const uvec tw[2] = {LO32(t), HI32(t)};
#pragma unroll
					for (uint b = 0; b < 8; b++) {
						const uvec c = (tw[b / 4] >> (8 * (b % 4))) &
						    0xff;
						const uvec Eq = UVEC(LANEMAP(PEQ_LO));
						const uvec X = Eq | VN0;
						const uvec D0 = (((X & VP0) + VP0) ^ VP0) | X;
						const uvec HN = VP0 & D0;
						const uvec HP = VN0 | ~(VP0 | D0);
						const uvec op0 = HP >> 31, on0 = HN >> 31;
						const uvec prev = sc0, Xh = HP << 1;
						const uvec nl = UMASK(c == (uvec)eol);
						const uvec act = y | UMASK(prev <= (uvec)k);

						sc0 = sc0 + op0 - on0;
						VN0 = Xh & D0;
						VP0 = (HN << 1) | ~(Xh | D0);
						if (ANY(act))
							PAIR_UPPER(w / 4, 8 * (w % 4) + b);
						/* Reset at a terminator. */
						VP0 |= nl;
						VN0 &= ~nl;
						sc0 = select(sc0, (uvec)32, nl);
#ifdef PAIR_FULL
						VP1 |= nl;
						VN1 &= ~nl;
						sc1 = select(sc1, (uvec)n, nl);
#else
						y &= ~nl;
#endif
					}
				}
				if (blk < pad_blocks)
					continue;
				const vword hits = JOIN64(hh1, hh0);
				LANEMAP(STORE_HITS);
			}
			continue;
		}
#endif

		for (uint blk = 0; blk < nblocks; blk++) {
			vword hits = zero;
			WORD tb[LANES][WPB];

			LOAD_BLOCK(tb, blk);
#pragma unroll
			for (uint w = 0; w < WPB; w++) {
				const vword t = VEC(LANEMAP(TB_AT));
#pragma unroll
				for (uint b = 0; b < WBYTES; b++) {
					const vword c = (t >> (8 * b)) & 0xff;
					const vword Eq = VEC(LANEMAP(PEQ_AT));
					vword X = Eq | VN;
					const vword D0 = (((X & VP) + VP) ^ VP) | X;
					const vword HN = VP & D0;
					const vword HP = VN | ~(VP | D0);

					score += (HP >> (n - 1)) & 1;
					score -= (HN >> (n - 1)) & 1;
					X = HP << 1;
					VN = X & D0;
					VP = (HN << 1) | ~(X | D0);
					/* Reset at a terminator, without a branch. */
					const vword nl = (c == (vword)eol) ? ones : zero;
					VP |= nl;
					VN &= ~nl;
					score = (c == (vword)eol) ? (vword)n : score;
					hits |= ((score <= (vword)k) ? (vword)1 : zero)
					    << (w * WBYTES + b);
				}
			}
			if (blk < pad_blocks)
				continue;
			LANEMAP(STORE_HITS);
		}
	}
}

#ifdef MAXW
/*
 * Patterns longer than one word: Myers' blocks of 64 rows with carries
 * between them (Advance_Block in Myers 1999), and Ukkonen's cut-off: each
 * lane computes only blocks 0..y, y being its last block that can still
 * hold a cell <= k.  The work-item runs blocks up to the largest y of its
 * lanes plus one; blocks past a lane's y are kept in their reset state, so
 * when block y + 1 enters the band its step was computed from that state,
 * as the sequential algorithm does (src/hostmatch.c, scan_blocks).
 * WORD is ulong here.  pinfo holds, per pattern: length, words, offset of
 * its PEq table (PEq[c * words + b]) in peq.
 */
#define MASK(cond) ((cond) ? ones : zero)
#define MAX_AT(i) (ymax = max(ymax, LANE(y, i)))
#define PEQ_BLK(i) PEq[LANE(c, i) * nw + b]

__kernel void
myers_scan_blocks(__global const WORD *text, uint pad_blocks,
    uint slice_blocks, uint nslices, __global const WORD *peq,
    __global const uint *pinfo, uint npat, uint k, uint eol,
    __global WORD *bitmap)
{
	const size_t slice0 = get_global_id(0) * LANES;
	const size_t stride = (size_t)slice_blocks * WPB;
	const uint nblocks = pad_blocks + slice_blocks;
	const vword ones = (vword)(~(WORD)0), zero = (vword)0;

	for (uint p = 0; p < npat; p++) {
		const uint n = pinfo[3 * p], nw = pinfo[3 * p + 1];
		__global const WORD *PEq = peq + pinfo[3 * p + 2];
		const uint lastb = nw - 1, lastrows = n - 64 * lastb;
		const uint y0 = min(lastb, (k + 64) / 64 - 1);
		vword VP[MAXW], VN[MAXW], sc[MAXW];
		vword y = (vword)y0;
		uint ybound = y0;

		for (uint b = 0; b < nw; b++) {
			VP[b] = ones;
			VN[b] = zero;
			sc[b] = (vword)min(64 * (b + 1), n);
		}
		for (uint blk = 0; blk < nblocks; blk++) {
			vword hits = zero;
			WORD tb[LANES][WPB];

			LOAD_BLOCK(tb, blk);
			for (uint w = 0; w < WPB; w++) {
				const vword t = VEC(LANEMAP(TB_AT));
				for (uint b8 = 0; b8 < WBYTES; b8++) {
				const vword c = (t >> (8 * b8)) & 0xff;
				const uint top = min(lastb, ybound + 1);
				vword cp = zero, cn = zero;	/* carry +1, -1 */
				vword cyp = zero, cyn = zero, scy = zero, eqn = zero;

				for (uint b = 0; b <= top; b++) {
					vword Eq = VEC(LANEMAP(PEQ_BLK));
					const vword X = Eq | VN[b];
					const uint out = b == lastb ? lastrows - 1 : 63;
					const vword isy = MASK(y == (vword)b);

					eqn |= MASK(y + 1 == (vword)b) & (Eq & 1);
					Eq |= cn;
					const vword D0 = (((Eq & VP[b]) + VP[b]) ^ VP[b]) | Eq;
					vword HP = VN[b] | ~(D0 | VP[b]);
					vword HN = VP[b] & D0;
					const vword op = (HP >> out) & 1;
					const vword on = (HN >> out) & 1;
					HP = (HP << 1) | cp;
					HN = (HN << 1) | cn;
					VP[b] = HN | ~(X | HP);
					VN[b] = HP & X;
					sc[b] = sc[b] + op - on;
					cyp = (isy & op) | (~isy & cyp);
					cyn = (isy & on) | (~isy & cyn);
					scy = (isy & sc[b]) | (~isy & scy);
					cp = op;
					cn = on;
				}
				/* Block y + 1 enters, or blocks leave the band. */
				const vword ext = MASK(y < (vword)lastb) &
				    MASK(scy - cyp + cyn <= (vword)k) &
				    MASK((eqn | cyn) != zero);
				y += ext & 1;
				for (uint b = top; b > 0; b--) {
					const vword drop = ~ext &
					    MASK(y == (vword)b) &
					    MASK(sc[b] >= (vword)(k + (b == lastb ?
					    lastrows : 64)));
					y -= drop & 1;
				}
				/* A terminator resets the lane to a new record. */
				const vword nl = MASK(c == (vword)eol);
				y = (nl & (vword)y0) | (~nl & y);
				for (uint b = 0; b <= y0; b++) {
					VP[b] |= nl;
					VN[b] &= ~nl;
					sc[b] = (nl & (vword)min(64 * (b + 1), n)) |
					    (~nl & sc[b]);
				}
				/* Blocks past y go back to their reset state. */
				for (uint b = 1; b <= min(lastb, top + 1); b++) {
					const vword off = MASK(y < (vword)b);
					VP[b] |= off;
					VN[b] &= ~off;
					sc[b] = (off & (sc[b - 1] + (vword)(b ==
					    lastb ? lastrows : 64))) |
					    (~off & sc[b]);
				}
				hits |= (MASK(y == (vword)lastb) &
				    MASK(sc[lastb] <= (vword)k) & 1) <<
				    (w * WBYTES + b8);
				WORD ymax = 0;
				(void)(LANEMAP(MAX_AT));
				ybound = (uint)ymax;
				}
			}
			if (blk < pad_blocks)
				continue;
			LANEMAP(STORE_HITS);
		}
	}
}
#endif

#if WBITS == 32 && defined(PP_G)
/*
 * The pattern-parallel kernel (issue 23): many patterns of up to 32 bytes.
 * One work-group per slice: its PP_G work-items stage the slice's text (pad
 * and slice bytes) in local memory once, as class numbers, then run one
 * pattern each over it, PP_G patterns at a time, so every text byte is read
 * from global memory once per work-group rather than once per pattern, and
 * every work-item of a warp reads the same text byte (a broadcast) and its
 * own pattern's Eq word beside its neighbours' (no bank conflicts).
 *
 * Classes: bytes whose PEq columns are equal over all the patterns share a
 * class (DNA: about 6), so the Eq table of a group of patterns is
 * ncls x PP_G words of local memory.  Class 0 is the terminator alone: a
 * byte that resets every work-item's state at once (a branch the whole
 * warp takes together).  The host builds the tables (scan.c, pp_tables):
 *   tab[0, 256)            the class of each byte value
 *   tab[256], tab[257]     ncls, and the patterns per class row (npat
 *                          rounded up to PP_G)
 *   tab[260 + c * npad + p] pattern p's Eq word for class c
 * pinfo[3 p] is pattern p's length.  The hits of a group go into a local
 * bitmap of the slice (atomic OR of a 32-byte word, only when it has a
 * hit), which is written out once at the end: bit j of the bitmap is set
 * when a match of any pattern ends at chunk byte j, as myers_scan's.
 *
 * PP_LAZY (long patterns at a small k: DNA primers): the score (the
 * bottom row's value) is taken afresh every 4 bytes as popcount(VP) -
 * popcount(VN) over the pattern's rows, and a stride with no terminator,
 * where the work-item's score is above k + 4 (so it cannot reach k in the
 * stride), runs the bare step, without the score or the hits; H100, 1,000
 * primers -k4 over 1 GiB: 0.89 s from ready against 1.09, but 1,000
 * Bible words -k1 (rarely calm) 1.77 against 1.10, hence the rule in
 * scan.c (pp_lazy).  Without it the score is carried from byte to byte
 * (taking it from the popcounts every 4 bytes cost 200 Bible words -k2
 * 0.36 -> 0.49 s).
 * Needs: slice a multiple of 64 bytes, PP_TILE = (pad + slice) / 4 and
 * PP_SLW = slice / 32 (uint words), local size PP_G.
 *
 * PP_HK (--no-indels, substitutions only, at k = PP_HK): each work-item
 * runs Wu and Manber's counters without the indel terms in place of
 * Myers' step, as hostmatch.c's hamming_word: bit i of R[j] says the
 * pattern's first i + 1 units match the text ending here with at most j
 * substitutions,
 *
 *	R[j]' = ((R[j] << 1 | 1) & Eq) | (R[j-1] << 1 | 1),
 *
 * a terminator empties them, and a match ends where R[k] holds the
 * pattern's last row.
 */
/* Myers' step without the score (a calm stride: see myers_pp). */
#define PP_STEP(c) do { \
	const uint Eq = E[(c) * PP_G]; \
	uint X = Eq | VN; \
	const uint D0 = (((X & VP) + VP) ^ VP) | X; \
	const uint HN = VP & D0; \
	const uint HP = VN | ~(VP | D0); \
	X = HP << 1; \
	VN = X & D0; \
	VP = (HN << 1) | ~(X | D0); \
} while (0)


__kernel __attribute__((reqd_work_group_size(PP_G, 1, 1))) void
myers_pp(__global const uint *text, uint pad_blocks, uint slice_blocks,
    uint nslices, __global const uint *tab, __global const uint *pinfo,
    uint npat, uint k, uint eol, __global uint *bitmap, __local uint *leq)
{
	__local uint tile[PP_TILE];	/* 4 class numbers a word */
	__local uint lbm[PP_SLW];
	const uint lid = get_local_id(0), slice = get_group_id(0);
	const uint nblocks = pad_blocks + slice_blocks;
	const uint ncls = tab[256], npad = tab[257];
	__global const uint *src = text + (size_t)slice * slice_blocks * 8;

	(void)eol;		/* the terminator is class 0 */
	for (uint i = lid; i < PP_TILE; i += PP_G) {
		const uint t = src[i];
		tile[i] = tab[t & 0xff] | tab[(t >> 8) & 0xff] << 8 |
		    tab[(t >> 16) & 0xff] << 16 | tab[t >> 24] << 24;
	}
	for (uint i = lid; i < PP_SLW; i += PP_G)
		lbm[i] = 0;
	for (uint g = 0; g < npat; g += PP_G) {
		const uint p = g + lid;
		barrier(CLK_LOCAL_MEM_FENCE);
		for (uint c = 0; c < ncls; c++)
			leq[c * PP_G + lid] = tab[260 + c * npad + p];
		barrier(CLK_LOCAL_MEM_FENCE);
		if (p >= npat)
			continue;
		const uint n = pinfo[3 * p], top = 1u << (n - 1);
		const uint rows = n == 32 ? ~0u : (1u << n) - 1;
		__local const uint *E = leq + lid;
		uint VP = ~0u, VN = 0;
		int score = (int)n;
#ifdef PP_HK
		uint R[PP_HK + 1];

		for (int j = 0; j <= PP_HK; j++)
			R[j] = 0;
		(void)VP;
		(void)VN;
		(void)score;
#endif

		(void)rows;
		for (uint blk = 0; blk < nblocks; blk++) {
			uint hits = 0;
#pragma unroll
			for (uint w = 0; w < 8; w++) {
				const uint t = tile[blk * 8 + w];
#ifdef PP_LAZY
				/* The score, from the vertical deltas. */
				score = (int)popcount(VP & rows) -
				    (int)popcount(VN & rows);
				if (score > (int)k + 4 && ((t - 0x01010101u) &
				    ~t & 0x80808080u) == 0) {
#pragma unroll
					for (uint b = 0; b < 4; b++) {
						const uint c = (t >> (8 * b)) &
						    0xff;
						PP_STEP(c);
					}
					continue;
				}
#endif
#ifdef PP_HK
#pragma unroll
				for (uint b = 0; b < 4; b++) {
					const uint c = (t >> (8 * b)) & 0xff;
					if (c == 0) {
						for (int j = 0; j <= PP_HK; j++)
							R[j] = 0;
					} else {
						const uint Eq = E[c * PP_G];
#pragma unroll
						for (int j = PP_HK; j > 0; j--)
							R[j] = ((R[j] << 1 |
							    1) & Eq) |
							    (R[j - 1] << 1 | 1);
						R[0] = (R[0] << 1 | 1) & Eq;
					}
					hits |= (uint)((R[PP_HK] & top) != 0) <<
					    (4 * w + b);
				}
				continue;
#endif
#pragma unroll
				for (uint b = 0; b < 4; b++) {
					const uint c = (t >> (8 * b)) & 0xff;
					if (c == 0) {
						VP = ~0u;
						VN = 0;
						score = (int)n;
					} else {
						const uint Eq = E[c * PP_G];
						uint X = Eq | VN;
						const uint D0 = (((X & VP) + VP) ^
						    VP) | X;
						const uint HN = VP & D0;
						const uint HP = VN | ~(VP | D0);

						score += (HP & top) != 0;
						score -= (HN & top) != 0;
						X = HP << 1;
						VN = X & D0;
						VP = (HN << 1) | ~(X | D0);
					}
					hits |= (uint)(score <= (int)k) <<
					    (4 * w + b);
				}
			}
			if (hits != 0 && blk >= pad_blocks)
				atomic_or(&lbm[blk - pad_blocks], hits);
		}
	}
	barrier(CLK_LOCAL_MEM_FENCE);
	for (uint i = lid; i < PP_SLW; i += PP_G)
		bitmap[(size_t)slice * slice_blocks + i] = lbm[i];
}
#endif

/*
 * count_records: for the outputs that need only how many records hold a
 * match (-c, -l, -L, -q), the records of chunk bytes [from, to) are counted
 * here, after the scan, so that the host reads back a few bytes a work-group
 * instead of the bitmap and walks no hits.  A record is its bytes and its
 * terminator; a hit on the terminator belongs to the record it ends (as
 * output.c reads the bitmap).  from is a record start.
 *
 * Each work-item summarises RC_ITEM bytes (RC_ITEM / 64 bitmap words), then
 * the work-group joins the RC_LOCAL summaries in order.  A summary of a run
 * of bytes is a uint4: x, the records that start and end inside it with a
 * hit; y, its terminators; z, flags: RC_HAS (a terminator in it), RC_HEAD (a
 * hit up to and including its first terminator), RC_TAIL (a hit after its
 * last one); w, whether a NUL is in its 64-byte words (grep's binary files
 * end records at NULs: the host scans such a chunk again, scan.c
 * scan_nul_pending).  Without a terminator, RC_HEAD and RC_TAIL both say
 * whether it holds a hit.  Joining is associative, with (0, 0, 0, 0) as
 * identity; the host joins the work-groups' summaries the same way (scan.c,
 * rc_join).
 */
#define RC_HAS	1u
#define RC_HEAD	2u
#define RC_TAIL	4u

static uint4
rc_join(uint4 a, uint4 b)
{
	uint4 r = (uint4)(0, a.y + b.y, 0, a.w | b.w);

	if ((a.z & RC_HAS) == 0) {
		/* a is the middle of b's first record */
		r.x = b.x;
		r.z = (b.z & RC_HAS) ? b.z | (a.z & RC_HEAD) : (a.z | b.z);
	} else if ((b.z & RC_HAS) == 0) {
		r.x = a.x;
		r.z = a.z | ((b.z & RC_HEAD) ? RC_TAIL : 0);
	} else {
		r.x = a.x + b.x + (((a.z & RC_TAIL) || (b.z & RC_HEAD)) ? 1 : 0);
		r.z = RC_HAS | (a.z & RC_HEAD) | (b.z & RC_TAIL);
	}
	return r;
}

/* Bits of the bytes of v (0xff or 0) of a comparison, in byte order. */
static ulong
rc_bits8(ulong v)
{
	return (((v >> 7) & 0x0101010101010101UL) * 0x0102040810204080UL) >> 56;
}

/* The summary of one 64-byte word: e, its terminators; h, its hits. */
static uint4
rc_word(ulong e, ulong h)
{
	if (e == 0)
		return (uint4)(0, 0, h != 0 ? RC_HEAD | RC_TAIL : 0, 0);
	const ulong lo = e & (0 - e);		/* the first terminator */
	const ulong hi = 1UL << (63 - clz(e));	/* the last */
	ulong done = lo | (lo - 1), rest = e & ~lo;
	uint4 r = (uint4)(0, popcount(e), RC_HAS, 0);

	if ((h & done) != 0)
		r.z |= RC_HEAD;
	if ((h & ~(hi | (hi - 1))) != 0)
		r.z |= RC_TAIL;
	while (rest != 0) {
		const ulong b = rest & (0 - rest);
		const ulong rec = (b | (b - 1)) & ~done;
		r.x += (h & rec) != 0;
		done |= rec;
		rest &= rest - 1;
	}
	return r;
}

#ifdef RE_G
/*
 * re_scan: the approximate Glushkov automaton of an expression (the host
 * twin is src/regex.c: step1, start1, follow1; the same names).  One
 * 64-bit word of states (up to 63 positions), RE_G groups of 8 states
 * looked up in T, RE_K errors, rows R[0..RE_K]: R[j] holds the states
 * reached with j errors or less.  Reading byte c:
 *
 *   R'[0] = (T[R[0]] & B[c]) | I
 *   R'[j] = (T[R[j]] & B[c]) | R[j-1] | T[R[j-1]] | T[R'[j-1]] | R'[j-1] | I
 *
 * (a match, an inserted text byte, a substitution, a skipped position), I
 * the initial state unless ^ anchors the expression.  A match ends where
 * R[RE_K] meets the final states (with $, only at a record's end).
 *
 * Slices.  A match of an automaton has no longest length (*, +), so no
 * warm-up makes slices independent.  Work-item w owns the records that
 * START in its slice, [pad + w * slice, pad + (w + 1) * slice) of the
 * buffer (work-item 0 from the buffer's first byte, which starts a record
 * as in re_scan: the pad is terminators, or the bytes before a piece of a
 * long record): it skips to its first record start and scans whole records
 * until it has finished the one that crosses its slice end.  So the hits
 * of one record may land in the bitmap words of later slices, and a word
 * may get hits from two work-items: they go in with atomic_or on 32-bit
 * words (the bitmap is zeroed before the kernel, scan.c).  One record as
 * long as the chunk is scanned by one work-item: slow, but exact.
 *
 * tab: T[RE_G * 256], B[256], the final states, I, and whether $ anchors.
 */
#define RE_TAB	(RE_G * 256 + 256 + 3)

/* T[D]: RE_G lookups, no branch (T[g][0] is empty). */
static inline ulong
re_follow(__local const ulong *T, ulong D)
{
	ulong out = T[D & 0xff];

	for (int g = 1; g < RE_G; g++)
		out |= T[g * 256 + (D >> (8 * g) & 0xff)];
	return out;
}

/* The hits of one work-item, a 32-bit word at a time (they come in
 * increasing order): hw the word's index, hb its bits so far. */
static inline void
re_hit(__global uint *bitmap, ulong j, ulong *hw, uint *hb)
{
	if (j / 32 != *hw) {
		if (*hb != 0)
			atomic_or(bitmap + *hw, *hb);
		*hw = j / 32;
		*hb = 0;
	}
	*hb |= 1u << (j % 32);
}

__kernel void
re_scan(__global const uchar *text,	/* pad + chunk */
    ulong pad, ulong len, ulong slice,	/* bytes */
    __global const ulong *tab,		/* RE_TAB words */
    uint eol,
    __global uint *bitmap)		/* one bit per chunk byte, zeroed */
{
	__local ulong T[RE_G * 256], B[256];
	const size_t lid = get_local_id(0), ls_ = get_local_size(0);
	const ulong id = get_global_id(0), to = pad + len;
	ulong R[RE_K + 1], R0[RE_K + 1], hw = 0, i, ls;
	uint hb = 0;

	for (size_t x = lid; x < RE_G * 256; x += ls_)
		T[x] = tab[x];
	for (size_t x = lid; x < 256; x += ls_)
		B[x] = tab[RE_G * 256 + x];
	barrier(CLK_LOCAL_MEM_FENCE);

	const ulong fin = tab[RE_G * 256 + 256], init = tab[RE_G * 256 + 257];
	const int aeol = tab[RE_G * 256 + 258] != 0;
	ulong send = pad + (id + 1) * slice;

	if (send > to)
		send = to;
	i = id == 0 ? 0 : pad + id * slice;
	/* the first record start at or after i, if the slice holds one */
	while (i > 0 && i < send && text[i - 1] != eol)
		i++;
	if (i >= send)
		return;
	R0[0] = 1;
#ifdef RE_WI
	for (int j = 1; j <= RE_K; j++)
		R0[j] = R0[j - 1] | (j >= RE_WD ? re_follow(T, R0[j - RE_WD]) :
		    0);
#else
	for (int j = 1; j <= RE_K; j++)
		R0[j] = R0[j - 1] | re_follow(T, R0[j - 1]);
#endif
	for (int j = 0; j <= RE_K; j++)
		R[j] = R0[j];
	ls = i;
	if (!aeol && ls >= pad && (R[RE_K] & fin))
		re_hit(bitmap, ls - pad, &hw, &hb);
	for (; i < to; i++) {
		const uchar c = text[i];
		if (c == eol) {
			const ulong at = i > ls ? i - 1 : i;
			if (aeol && at >= pad && (R[RE_K] & fin))
				re_hit(bitmap, at - pad, &hw, &hb);
			ls = i + 1;
			/* the next record is another work-item's (its
			 * empty match too), or there is none */
			if (ls >= send)
				break;
			for (int j = 0; j <= RE_K; j++)
				R[j] = R0[j];
			if (!aeol && ls >= pad && (R[RE_K] & fin))
				re_hit(bitmap, ls - pad, &hw, &hb);
			continue;
		}
		const ulong Bc = B[c];
#ifdef RE_WI
		/* Weighted costs (RE_WI, RE_WD, RE_WS: an inserted unit, a
		 * deleted position, a substitution; RE_K + 1: never), as
		 * src/regex/weighted.c: row j the states within cost j.
		 * Reading c, from the top row down (each reads the rows of
		 * the unit before below it); then, from the bottom up, row j
		 * gains row j - 1, the initial state and the deletions from
		 * row j - RE_WD. */
		ulong TR[RE_K + 1];
		for (int j = 0; j <= RE_K; j++)
			TR[j] = re_follow(T, R[j]);
		for (int j = RE_K; j >= 0; j--) {
			ulong n = TR[j] & Bc;
			if (j >= RE_WI)
				n |= R[j - RE_WI];
			if (j >= RE_WS)
				n |= TR[j - RE_WS];
			R[j] = n;
		}
		for (int j = 0; j <= RE_K; j++) {
			ulong n = R[j] | init;
			if (j > 0)
				n |= R[j - 1];
			if (j >= RE_WD)
				n |= re_follow(T, R[j - RE_WD]);
			R[j] = n;
		}
#else
		ulong tprev = re_follow(T, R[0]), prev = R[0];
		ulong nprev = (tprev & Bc) | init;
		R[0] = nprev;
		for (int j = 1; j <= RE_K; j++) {
			const ulong r = R[j], t = re_follow(T, r);
			const ulong n = (t & Bc) | prev | tprev | nprev |
			    re_follow(T, nprev) | init;
			prev = r;
			tprev = t;
			R[j] = nprev = n;
		}
#endif
		if (!aeol && i >= pad && (R[RE_K] & fin))
			re_hit(bitmap, i - pad, &hw, &hb);
	}
	/* a record open at the chunk's end ends there */
	if (i == to && aeol && ls < to && to - 1 >= pad && (R[RE_K] & fin))
		re_hit(bitmap, to - 1 - pad, &hw, &hb);
	if (hb != 0)
		atomic_or(bitmap + hw, hb);
}
#endif

/* (scan.c sets both) */
#ifndef RC_LOCAL
#define RC_LOCAL 128
#endif
#ifndef RC_ITEM
#define RC_ITEM 256
#endif

__kernel __attribute__((reqd_work_group_size(RC_LOCAL, 1, 1))) void
count_records(__global const uchar *text, ulong pad,
    __global const ulong *bitmap, ulong from, ulong to, uint eol,
    __global uint4 *out)
{
	__local uint4 sum[RC_LOCAL];
	const uint lid = get_local_id(0);
	const ulong at = (ulong)get_global_id(0) * RC_ITEM;
	const uchar16 t16 = (uchar16)((uchar)eol);
	uint4 s = (uint4)(0, 0, 0, 0);

	for (uint w = 0; w < RC_ITEM / 64; w++) {
		const ulong base = at + 64 * w;
		if (base >= to || base + 64 <= from)
			continue;
		__global const uchar *p = text + pad + base;
		ulong e = 0, z = 0;
		for (uint q = 0; q < 4; q++) {
			const uchar16 v = vload16(q, p);
			const ulong2 c = as_ulong2(v == t16);
			const ulong2 n = as_ulong2(v == (uchar16)0);
			e |= (rc_bits8(c.s0) | rc_bits8(c.s1) << 8) << (16 * q);
			z |= n.s0 | n.s1;
		}
		ulong h = bitmap[base / 64], keep = ~0UL;
		if (base < from)
			keep &= ~0UL << (from - base);
		if (to - base < 64)
			keep &= (1UL << (to - base)) - 1;
		uint4 ws = rc_word(e & keep, h & keep);
		ws.w = z != 0;
		s = rc_join(s, ws);
	}
	sum[lid] = s;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (uint step = 1; step < RC_LOCAL; step *= 2) {
		if ((lid & (2 * step - 1)) == 0)
			sum[lid] = rc_join(sum[lid], sum[lid + step]);
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (lid == 0)
		out[get_group_id(0)] = sum[0];
}
