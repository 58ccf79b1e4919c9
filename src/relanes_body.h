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
RL_ATTR static void
RL_CAT(RL_NAME, _vfill)(const struct rl *r, const unsigned char *text,
    const size_t *b, size_t i0, size_t nb, unsigned char *buf)
{
	enum { L = RL_VB };
	RL_T f15, eolv, vv, sl, sh, pl, ph;

	for (int l = 0; l < L; l++) {
		f15[l] = 15;
		eolv[l] = r->eol;
		vv[l] = r->V;
		sl[l] = r->slo[l & 15];
		sh[l] = r->shi[l & 15];
		pl[l] = r->plo[l & 15];
		ph[l] = r->phi[l & 15];
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
			RL_T c = x[s];
			RL_T bx = RL_SHUF(sl, c & f15) & RL_SHUF(sh, (c >> 4) & f15);
			RL_T bv = RL_SHUF(pl, bx & f15) |
			    RL_SHUF(ph, (bx >> 4) & f15);
			bv = RL_BLEND(bv, vv, (RL_T)(c == eolv));
			memcpy(buf + (t0 + (size_t)s) * L, &bv, sizeof(bv));
		}
	}
}

/* Tf(x): the positions after those of x, and the first ones. */
#define RL_TF(x)	(RL_SHUF(lo, (x) & f15) | RL_SHUF(hi, ((x) >> 4) & f15))

/* The steps of rl_scan (K errors, a constant in each copy): the lanes'
 * units, RL_NB steps at a time, turned into B bytes by rl_fill, then the
 * rows of every lane advanced a unit each step.  The hits of 8 steps are
 * gathered as a byte a lane (bit t: step t), for rl_hits at the end of
 * the fill. */
RL_ATTR static inline __attribute__((always_inline)) void
RL_CAT(RL_NAME, _k)(const struct rl *r, const unsigned char *text,
    const size_t *b, size_t nsteps, size_t warm, uint64_t *bitmap, const int K)
{
	enum { L = RL_VB };
	unsigned char buf[RL_NB * L] __attribute__((aligned(64)));
	unsigned char hb[RL_NB / 8 * L] __attribute__((aligned(64)));
	RL_T lo, hi, f15, fin, vv, r0[RL_MAXK + 1], t0[RL_MAXK + 1], bit[8];
	RL_T R[RL_MAXK + 1], TR[RL_MAXK + 1];

	for (int l = 0; l < L; l++) {
		lo[l] = r->lo[l & 15];
		hi[l] = r->hi[l & 15];
		f15[l] = 15;
		fin[l] = r->fin;
		vv[l] = r->V;
		for (int t = 0; t < 8; t++)
			bit[t][l] = (unsigned char)(1 << t);
		for (int j = 0; j <= K; j++) {
			r0[j][l] = r->r0[j];
			t0[j][l] = r->t0[j];
		}
	}
	for (int j = 0; j <= K; j++) {
		R[j] = r0[j];
		TR[j] = t0[j];
	}
	for (size_t i0 = 0; i0 < nsteps; i0 += RL_NB) {
		size_t nb = nsteps - i0 < RL_NB ? nsteps - i0 : RL_NB;
		RL_T any = f15 & 0;
		if (r->vfill)
			RL_CAT(RL_NAME, _vfill)(r, text, b, i0, nb, buf);
		else
			rl_fill(r, text, b, L, i0, nb, buf);
		for (size_t t0g = 0; t0g < nb; t0g += 8) {
			RL_T acc = any & 0;
			for (size_t t = t0g; t < nb && t < t0g + 8; t++) {
				RL_T c, e, bm, n, tn, pr, tp;
				memcpy(&c, buf + t * L, sizeof(c));
				e = (RL_T)(c == vv);
				bm = c & ~e;
				n = TR[0] & bm;
				tn = RL_TF(n);
				pr = R[0];
				tp = TR[0];
				R[0] = RL_BLEND(n, r0[0], e);
				TR[0] = RL_BLEND(tn, t0[0], e);
				for (int j = 1; j <= K; j++) {
					RL_T x = (TR[j] & bm) | pr | tp | n | tn;
					pr = R[j];
					tp = TR[j];
					n = x;
					tn = RL_TF(x);
					R[j] = RL_BLEND(n, r0[j], e);
					TR[j] = RL_BLEND(tn, t0[j], e);
				}
				acc |= (RL_T)((R[K] & fin) != 0) & bit[t - t0g];
			}
			memcpy(hb + t0g / 8 * L, &acc, sizeof(acc));
			any |= acc;
		}
		uint64_t m = RL_LANES(any);
		if (m != 0)
			rl_hits(b, L, m, i0, nb, warm, hb, bitmap);
	}
}

RL_ATTR static void
RL_NAME(const struct rl *r, const unsigned char *text, const size_t *b,
    size_t nsteps, size_t warm, uint64_t *bitmap)
{
	switch (r->K) {
	case 0: RL_CAT(RL_NAME, _k)(r, text, b, nsteps, warm, bitmap, 0); break;
	case 1: RL_CAT(RL_NAME, _k)(r, text, b, nsteps, warm, bitmap, 1); break;
	case 2: RL_CAT(RL_NAME, _k)(r, text, b, nsteps, warm, bitmap, 2); break;
	default: RL_CAT(RL_NAME, _k)(r, text, b, nsteps, warm, bitmap, 3); break;
	}
}

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
