/*
 * sassy_body.h: one instance of the text-along-the-word engine, included
 * by sassy.c once per variant with these macros set:
 *
 *   SA_NAME		the function's name
 *   SA_ATTR		its target attribute (empty for the generic build)
 *   SA_LOAD(p)		declares what SA_CMP needs from the 64 bytes at p
 *   SA_CMP(c)		uint64_t: bit j set when p[j] == c
 *
 * The DP, transposed.  D[i][j]: the least edits of p[1..i] against a
 * substring ending at text byte j (Sellers: D[0][j] = 0), reset at every
 * terminator e (D[i][e] = i).  A block is 64 text bytes [q, q + 64); row i
 * of it is held as its horizontal deltas D[i][j] - D[i][j - 1] (Ph: +1,
 * Nh: -1), one bit a byte.  Row i follows from row i - 1 by Myers' step
 * with the roles of text and pattern swapped: Eq is the mask of the
 * block's bytes equal to p[i], the "vertical" deltas D[i][j] - D[i-1][j]
 * come out per byte (HP, HN), and the one entering at bit 0 is that of the
 * block's left neighbour column q - 1, carried from the previous block
 * (CP, CN: bit i - 1 for row i).
 *
 * Terminators: at a terminator column e the vertical delta is forced to +1
 * (D[i][e] = i), its horizontal delta is held as 0 and its Eq bit as 0, so
 * that no carry of the addition crosses it: e acts as a left boundary for
 * e + 1.  Row values restart at i after e (sa_any_le, the hit loop).
 *
 * Early stop.  After row r of a block, if every cell of row r is > k, the
 * left boundary column is > k from row r down, and every terminator column
 * is too (r > k), then every cell of rows r + 1 .. n of the block is > k:
 * the block stops.  Its right column then holds +1 deltas below row r,
 * an overestimate of cells that are > k, which changes no cell <= k (a cell
 * <= k is reached by a path of cells <= k).  lowB: the rows whose boundary
 * value is <= k (from the previous block's right column).  Whether a row
 * holds a cell <= k: sa_any_le (sassy.c).
 */

SA_ATTR static size_t
SA_NAME(const struct sa_pat *sp, long k, const unsigned char *text,
    size_t warm, size_t len, unsigned char eol, uint64_t *bitmap)
{
	const size_t end = warm + len, n = sp->n;
	uint64_t CP = ~(uint64_t)0, CN = 0;	/* record start: +1 deltas */
	uint64_t lowB = ((uint64_t)2 << k) - 1;	/* B[i] = i <= k */
	unsigned char tail[64];
	size_t rows = 0;

	for (size_t q = 0; q < end; q += 64) {
		const unsigned char *bp = text + q;
		if (end - q < 64) {
			memset(tail, eol, sizeof(tail));
			memcpy(tail, bp, end - q);
			bp = tail;
		}
		SA_LOAD(bp);
		const uint64_t E = SA_CMP(eol), nE = ~E;
		uint64_t Ph = 0, Nh = 0;		/* row 0: D = 0 */
		uint64_t nCP = 0, nCN = 0, lowE = 1;
		long Br = 0, Er = 0;
		size_t r;

		for (r = 1; ; r++) {
			const unsigned char *cl = sp->cls[r - 1];
			uint64_t Eq = SA_CMP(cl[0]);
			if (sp->ncls[r - 1] > 1) {
				Eq |= SA_CMP(cl[1]);
				if (sp->ncls[r - 1] > 2) {
					Eq |= SA_CMP(cl[2]);
					if (sp->ncls[r - 1] > 3)
						Eq |= SA_CMP(cl[3]);
				}
			}
			Eq &= nE;
			const uint64_t hP = CP >> (r - 1) & 1, hN = CN >> (r - 1) & 1;
			Br += (long)hP - (long)hN;
			uint64_t X = Eq | Nh;
			Eq |= hN;
			uint64_t D0 = (((Eq & Ph) + Ph) ^ Ph) | Eq;
			uint64_t HP = (Nh | ~(D0 | Ph)) | E;
			uint64_t HN = Ph & D0 & nE;
			const uint64_t oP = HP >> 63, oN = HN >> 63;
			nCP |= oP << (r - 1);
			nCN |= oN << (r - 1);
			Er += (long)oP - (long)oN;
			lowE |= (uint64_t)(Er <= k) << r;
			HP = HP << 1 | hP;
			HN = HN << 1 | hN;
			Ph = (HN | ~(X | HP)) & nE;
			Nh = HP & X & nE;
			if (r == n)
				break;
			if ((lowB >> r) == 0 && Er > k &&
			    !sa_any_le(Ph, Nh, E, Br, (long)r, k)) {
				nCP |= ~(uint64_t)0 << r;
				break;
			}
		}
		if (r == n && sa_any_le(Ph, Nh, E, Br, (long)r, k)) {
			long v = Br;
			for (size_t j = 0; j < 64; j++) {
				if (E >> j & 1) {
					v = (long)n;
					continue;
				}
				v += (long)(Ph >> j & 1) - (long)(Nh >> j & 1);
				if (v <= k && q + j >= warm && q + j < end) {
					size_t b = q + j - warm;
					bitmap[b / 64] |= (uint64_t)1 << (b % 64);
				}
			}
		}
		rows += r;
		CP = nCP;
		CN = nCN;
		lowB = lowE;
	}
	return rows;
}

#undef SA_NAME
#undef SA_ATTR
#undef SA_LOAD
#undef SA_CMP
