/*
 * relanes_body.h: the lane scan of relanes.c, included once per vector
 * width.  The includer defines:
 *
 *   RL_NAME	the function's name
 *   RL_ATTR	its attributes (the target)
 *   RL_VB	bytes in a vector: the lanes
 *   RL_T	the vector type (unsigned char, RL_VB bytes)
 *   RL_SHUF(t, x)	t[x] in each lane (x < 16; t holds its 16 entries in
 *		each 16-byte part)
 *   RL_BLEND(n, r, e)	r where e is all ones, else n
 *   RL_LANES(v)	the lanes of v that are not 0 (bit l: lane l)
 *   RL_LOADX(p)	a vector of the 16 bytes at each p[q], q < RL_VB / 16
 *   RL_UNPLO(x, y), RL_UNPHI(x, y)	the byte unpacks (interleaves) of
 *		the low and high halves of each 16-byte part of x and y
 *
 * and it is undefined here afterwards (but RL_T, which is a typedef name).
 */

/*
 * rl_fill by vectors (when boxes() could make the tables): per 16 steps,
 * lanes l, 16 + l, 32 + l, 48 + l (as many as there are) in the 16-byte
 * parts of x[l]; a 16 x 16 byte transpose in each part (4 rounds of byte
 * unpacks, each rotating the 8-bit index row:unit by a bit), so that x[s]
 * holds step s of every lane, in its place; then B by boxes, V where the
 * unit is the terminator.  (It writes whole 16-step groups, RL_NB at most.)
 */
RL_ATTR static inline __attribute__((always_inline)) void
RL_CAT(RL_NAME, _vfill)(const struct rl *r, const unsigned char *text,
    const size_t *b, size_t i0, size_t nb, unsigned char *buf, const int W)
{
	enum { L = RL_VB };
	RL_T f15, eolv, vv[2], sl[2], sh[2], pl[2], ph[2];

	for (int l = 0; l < L; l++) {
		f15[l] = 15;
		eolv[l] = r->eol;
		for (int w = 0; w < W; w++) {
			vv[w][l] = r->B[w][r->eol];
			sl[w][l] = r->slo[w][l & 15];
			sh[w][l] = r->shi[w][l & 15];
			pl[w][l] = r->plo[w][l & 15];
			ph[w][l] = r->phi[w][l & 15];
		}
	}
	for (int l = 0; l < L; l++)
		if (b[l] + i0 + RL_PF < b[l + 1])
			__builtin_prefetch(text + b[l] + i0 + RL_PF);
	for (size_t t0 = 0; t0 < nb; t0 += 16) {
		RL_T x[16], y[16];
		for (int l = 0; l < 16; l++) {
			const unsigned char *p[L / 16];
			unsigned char tmp[L / 16][16];
			for (int q = 0; q < L / 16; q++)
				p[q] = rl_at16(text, b, l + 16 * q, i0 + t0,
				    r->eol, tmp[q]);
			x[l] = RL_LOADX(p);
		}
		for (int round = 0; round < 2; round++) {
			for (int j = 0; j < 8; j++) {
				y[2 * j] = RL_UNPLO(x[j], x[j + 8]);
				y[2 * j + 1] = RL_UNPHI(x[j], x[j + 8]);
			}
			for (int j = 0; j < 8; j++) {
				x[2 * j] = RL_UNPLO(y[j], y[j + 8]);
				x[2 * j + 1] = RL_UNPHI(y[j], y[j + 8]);
			}
		}
		for (int s = 0; s < 16; s++) {
			RL_T c = x[s], e = (RL_T)(c == eolv);
			for (int w = 0; w < W; w++) {
				RL_T bx = RL_SHUF(sl[w], c & f15) &
				    RL_SHUF(sh[w], (c >> 4) & f15);
				RL_T bv = RL_SHUF(pl[w], bx & f15) |
				    RL_SHUF(ph[w], (bx >> 4) & f15);
				bv = RL_BLEND(bv, vv[w], e);
				memcpy(buf + ((t0 + (size_t)s) * (size_t)W +
				    (size_t)w) * L, &bv, sizeof(bv));
			}
		}
	}
}

/* o := Tf(x), the positions after those of x and the first ones, a row
 * of W bytes: each output byte the or of two shuffles by the nibbles of
 * each input byte. */
#define RL_TF(o, x)	do {						\
	for (int ow = 0; ow < W; ow++) {					\
		(o)[ow] = RL_SHUF(tf[ow][0][0], (x)[0] & f15) |		\
		    RL_SHUF(tf[ow][0][1], ((x)[0] >> 4) & f15);		\
		for (int iw = 1; iw < W; iw++)				\
			(o)[ow] |= RL_SHUF(tf[ow][iw][0], (x)[iw] & f15) | \
			    RL_SHUF(tf[ow][iw][1], ((x)[iw] >> 4) & f15); \
	}								\
} while (0)

/* One unit of every lane, unit costs: row j gains a match, row j - 1
 * before the unit (an insertion), Tf of it (a substitution), row j - 1
 * after it and Tf of that (a deletion); at a terminator (e) the rows go
 * back to the start rows. */
RL_ATTR static inline __attribute__((always_inline)) void
RL_CAT(RL_NAME, _unit)(RL_T R[][2], RL_T TR[][2], RL_T r0[][2],
    RL_T t0[][2], RL_T tf[2][2][2], RL_T f15, const RL_T *bm, RL_T e,
    const int K, const int W)
{
	RL_T n[2], tn[2], pr[2], tp[2];

	for (int w = 0; w < W; w++)
		n[w] = TR[0][w] & bm[w];
	RL_TF(tn, n);
	for (int w = 0; w < W; w++) {
		pr[w] = R[0][w];
		tp[w] = TR[0][w];
		R[0][w] = RL_BLEND(n[w], r0[0][w], e);
		TR[0][w] = RL_BLEND(tn[w], t0[0][w], e);
	}
	for (int j = 1; j <= K; j++) {
		for (int w = 0; w < W; w++) {
			RL_T x = (TR[j][w] & bm[w]) | pr[w] | tp[w] | n[w] |
			    tn[w];
			pr[w] = R[j][w];
			tp[w] = TR[j][w];
			n[w] = x;
		}
		RL_TF(tn, n);
		for (int w = 0; w < W; w++) {
			R[j][w] = RL_BLEND(n[w], r0[j][w], e);
			TR[j][w] = RL_BLEND(tn[w], t0[j][w], e);
		}
	}
}

/* The same with the costs of edits (weighted.c's rows): row j gains a
 * match, row j - CI before the unit (an insertion), Tf of row j - CS
 * before it (a substitution), row j - 1 after it, and Tf of row j - CD
 * after it (a deletion). */
RL_ATTR static inline __attribute__((always_inline)) void
RL_CAT(RL_NAME, _costs)(RL_T R[][2], RL_T TR[][2], RL_T r0[][2],
    RL_T t0[][2], RL_T tf[2][2][2], RL_T f15, const RL_T *bm, RL_T e,
    const int K, const int W, const int CI, const int CD, const int CS)
{
	RL_T n[RL_MAXK + 1][2], tn[RL_MAXK + 1][2];

	memset(tn, 0, sizeof(tn));
	for (int j = 0; j <= K; j++) {
		for (int w = 0; w < W; w++) {
			RL_T x = TR[j][w] & bm[w];
			if (j >= CI)
				x |= R[j - CI][w];
			if (j >= CS)
				x |= TR[j - CS][w];
			if (j >= 1)
				x |= n[j - 1][w];
			if (j >= CD)
				x |= tn[j - CD][w];
			n[j][w] = x;
		}
		RL_TF(tn[j], n[j]);
	}
	for (int j = 0; j <= K; j++)
		for (int w = 0; w < W; w++) {
			R[j][w] = RL_BLEND(n[j][w], r0[j][w], e);
			TR[j][w] = RL_BLEND(tn[j][w], t0[j][w], e);
		}
}

/* The steps of rl_scan (K errors and W bytes a row, constants in each
 * copy): the lanes' units, RL_NB steps at a time, turned into B bytes by
 * rl_fill, then the rows of every lane advanced a unit each step.  The
 * hits of 8 steps are gathered as a byte a lane (bit t: step t), for
 * rl_hits at the end of the fill. */
RL_ATTR static inline __attribute__((always_inline)) void
RL_CAT(RL_NAME, _k)(const struct rl *r, const unsigned char *text,
    const size_t *b, size_t nsteps, size_t warm, uint64_t *bitmap, const int K,
    const int W, const int CI, const int CD, const int CS)
{
	enum { L = RL_VB };
	unsigned char buf[RL_NB * 2 * L] __attribute__((aligned(64)));
	unsigned char hb[RL_NB / 8 * L] __attribute__((aligned(64)));
	RL_T tf[2][2][2], f15, fin[2], vv, r0[RL_MAXK + 1][2];
	RL_T t0[RL_MAXK + 1][2], bit[8], R[RL_MAXK + 1][2], TR[RL_MAXK + 1][2];

	for (int l = 0; l < L; l++) {
		f15[l] = 15;
		vv[l] = r->V;
		for (int t = 0; t < 8; t++)
			bit[t][l] = (unsigned char)(1 << t);
		for (int w = 0; w < W; w++) {
			fin[w][l] = r->fin[w];
			for (int iw = 0; iw < W; iw++) {
				tf[w][iw][0][l] = r->tf[w][iw][0][l & 15];
				tf[w][iw][1][l] = r->tf[w][iw][1][l & 15];
			}
			for (int j = 0; j <= K; j++) {
				r0[j][w][l] = r->r0[j][w];
				t0[j][w][l] = r->t0[j][w];
			}
		}
	}
	for (int j = 0; j <= K; j++)
		for (int w = 0; w < W; w++) {
			R[j][w] = r0[j][w];
			TR[j][w] = t0[j][w];
		}
	for (size_t i0 = 0; i0 < nsteps; i0 += RL_NB) {
		size_t nb = nsteps - i0 < RL_NB ? nsteps - i0 : RL_NB;
		RL_T any = f15 & 0;
		if (r->vfill)
			RL_CAT(RL_NAME, _vfill)(r, text, b, i0, nb, buf, W);
		else
			rl_fill(r, text, b, L, W, i0, nb, buf);
		for (size_t t0g = 0; t0g < nb; t0g += 8) {
			RL_T acc = any & 0;
			for (size_t t = t0g; t < nb && t < t0g + 8; t++) {
				RL_T c[2], e, bm[2];
				for (int w = 0; w < W; w++)
					memcpy(&c[w], buf + (t * (size_t)W +
					    (size_t)w) * L, sizeof(c[w]));
				e = (RL_T)(c[0] == vv);
				for (int w = 0; w < W; w++)
					bm[w] = c[w] & ~e;
				if (CI == 1 && CD == 1 && CS == 1)
					RL_CAT(RL_NAME, _unit)(R, TR, r0, t0,
					    tf, f15, bm, e, K, W);
				else
					RL_CAT(RL_NAME, _costs)(R, TR, r0, t0,
					    tf, f15, bm, e, K, W, CI, CD, CS);
				RL_T h = R[K][0] & fin[0];
				if (W > 1)
					h |= R[K][1] & fin[1];
				acc |= (RL_T)(h != 0) & bit[t - t0g];
			}
			memcpy(hb + t0g / 8 * L, &acc, sizeof(acc));
			any |= acc;
		}
		uint64_t m = RL_LANES(any);
		if (m != 0)
			rl_hits(b, L, m, i0, nb, warm, hb, bitmap);
	}
}

/* The scan, K and W constants in each copy: with unit costs (RL_NAME),
 * with r's (RL_NAME_w). */
#define RL_BYKW(RL_KW)	do {						\
	switch (r->K + 4 * (r->W - 1)) {				\
	case 0: RL_KW(0, 1); break;					\
	case 1: RL_KW(1, 1); break;					\
	case 2: RL_KW(2, 1); break;					\
	case 3: RL_KW(3, 1); break;					\
	case 4: RL_KW(0, 2); break;					\
	case 5: RL_KW(1, 2); break;					\
	case 6: RL_KW(2, 2); break;					\
	default: RL_KW(3, 2); break;					\
	}								\
} while (0)

RL_ATTR static void
RL_NAME(const struct rl *r, const unsigned char *text, const size_t *b,
    size_t nsteps, size_t warm, uint64_t *bitmap)
{
#define RL_KW(k, w)	RL_CAT(RL_NAME, _k)(r, text, b, nsteps, warm, bitmap, k, w, \
			    1, 1, 1)
	RL_BYKW(RL_KW);
#undef RL_KW
}

RL_ATTR static void
RL_CAT(RL_NAME, _w)(const struct rl *r, const unsigned char *text,
    const size_t *b, size_t nsteps, size_t warm, uint64_t *bitmap)
{
#define RL_KW(k, w)	RL_CAT(RL_NAME, _k)(r, text, b, nsteps, warm, bitmap, k, w, \
			    r->ci, r->cd, r->cs)
	RL_BYKW(RL_KW);
#undef RL_KW
}

#undef RL_BYKW

#undef RL_TF
#undef RL_NAME
#undef RL_ATTR
#undef RL_VB
#undef RL_SHUF
#undef RL_BLEND
#undef RL_LANES
#undef RL_LOADX
#undef RL_UNPLO
#undef RL_UNPHI
