/*
 * sites.c: the sites of a search, one row per match rather than one per
 * end position.  For pattern p, C(e) is the least cost of p against a part
 * of the sequence that ends before byte e (Sellers' column, C(0) = |p|).
 * An end e is a site when
 *
 *	C(e) <= k, C(e - 1) > C(e), and the first later end whose cost is
 *	not C(e) has a higher one (or the sequence ends, or C stays C(e) for
 *	L ends),
 *
 * i.e. where the cost stops falling: the end that -o takes for an isolated
 * match (first end within k, moved on while the cost drops).  The start is
 * the latest one giving that cost (the shortest part), as -o finds it.
 * Every condition looks at most L = m + k + 2 bytes around e (m: the
 * longest pattern of the set; reach()), so a long
 * sequence is cut into pieces overlapping by sites_overlap() bytes each side
 * and every piece decides the sites whose end lies in its own part exactly
 * as the whole sequence would: no site is lost or reported twice.
 *
 * Only ends the engines marked (the bitmap: some pattern's match within k
 * ends there) are looked at: each pattern's costs are counted by Myers'
 * algorithm over a window around them.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "../base/cpu.h"
#include "hostmatch.h"
#include "multi.h"
#include "refine.h"
#include "sites.h"
#include "../base/util.h"

/* From this many patterns on, only those with an exact piece near a
 * window's marks are counted there (the shared filter's pieces). */
#define SITES_MINPAT	16

/* From this many patterns on, a window's costs are first run for every
 * pattern of at most 32 bytes side by side, SL_NL to a vector (lanes()),
 * and only those that come within k at one of the window's ends are
 * counted alone (costs()).  1,000 primers of 24 bases and their reverse
 * complements, -k4, FASTQ reads: the sites took 152 ms of CPU a 64 MB
 * batch, as long as the GPU's scan of it. */
#define SITES_LANES	16
#define SL_NL		8

typedef uint32_t sl_v __attribute__((vector_size(SL_NL * 4)));

/* The patterns in lanes: lane l of group g runs pattern pat[g * SL_NL +
 * l] (a group's last lanes repeat its last pattern) aligned as pp.c does:
 * its last row is the lane's top bit, over phantom rows that match every
 * byte with a vertical delta of 0, so that every lane's score moves with
 * the top bits of HP and HN. */
struct sitelanes {
	size_t		 G;
	size_t		*pat;	/* [G * SL_NL] */
	sl_v		*tab;	/* [256][G]: Eq */
	sl_v		*init;	/* [2][G]: VP, then score - k - 1, at the start */
	unsigned char	*out;	/* [npat]: 1, not in the lanes */
};

/* Bytes of context a site's conditions need around its end. */
static size_t
reach(const struct patset *ps)
{
	return ps->maxlen + (size_t)ps->k + 2;
}

size_t
sites_overlap(const struct patset *ps)
{
	return reach(ps) + 1;
}

static void
add(struct sitelist *l, size_t pat, size_t start, size_t end, int cost)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 64;
		l->s = xreallocarray(l->s, l->cap, sizeof(*l->s));
	}
	l->s[l->n++] = (struct site){ pat, start, end, cost };
}

void
sites_free(struct sitelist *l)
{
	free(l->s);
	memset(l, 0, sizeof(*l));
}

/* costs() by the plain column, each kind of edit at its cost (ps->cost:
 * 1 each unless weighted); values past k are held at k + 1, which leaves
 * min(k + 1, C) as it is. */
static void
column_costs(const struct patset *ps, const struct pattern *p,
    const unsigned char *t, size_t ws, size_t we, uint16_t *c)
{
	const size_t n = p->len;
	const int cap = ps->k + 1, ins = ps->cost.ins, del = ps->cost.del,
	    sub = ps->cost.sub;
	int *col = xreallocarray(NULL, n + 1, sizeof(int));

#define W_ADD(v, e) ((v) >= cap || (e) >= cap ? cap : (v) + (e) < cap ? \
	(v) + (e) : cap)
	col[0] = 0;
	for (size_t i = 1; i <= n; i++)
		col[i] = W_ADD(col[i - 1], del);
	c[0] = (uint16_t)col[n];
	for (size_t j = ws; j < we; j++) {
		int diag = 0;
		col[0] = 0;
		for (size_t i = 1; i <= n; i++) {
			int up = col[i], v = pat_has(p, i - 1, t[j]) ? diag :
			    W_ADD(diag, sub);
			if (W_ADD(up, ins) < v)
				v = W_ADD(up, ins);
			if (W_ADD(col[i - 1], del) < v)
				v = W_ADD(col[i - 1], del);
			col[i] = v;
			diag = up;
		}
		c[j + 1 - ws] = (uint16_t)col[n];
	}
#undef W_ADD
	free(col);
}

/* c[j - ws] = min(k + 1, C_ws(j)) for j in [ws, we]: the cost of p against
 * a part of t[ws, j) ending at j (a fresh start at ws: exact wherever it is
 * within k and ws is |p| + k bytes or more before j, or the sequence's
 * start); with hamming (--no-indels), of the part as long as p. */
static void
costs(const struct patset *ps, const struct pattern *p, const unsigned char *t,
    size_t ws, size_t we, uint16_t *c)
{
	const size_t n = p->len;
	const int k = ps->k, hamming = ps->hamming, cap = k + 1;

	c[0] = (uint16_t)(n < (size_t)cap ? n : (size_t)cap);
	if (ps->weighted) {
		column_costs(ps, p, t, ws, we, c);
		return;
	}
	if (hamming) {
		/* --no-indels: the window of the pattern's length ending at
		 * j (none before ws + n) */
		for (size_t j = ws + 1; j <= we; j++) {
			int miss = cap;
			if (j >= ws + n) {
				miss = 0;
				for (size_t i = 0; i < n && miss < cap; i++)
					miss += !pat_has(p, i, t[j - n + i]);
			}
			c[j - ws] = (uint16_t)miss;
		}
		return;
	}
	if (p->nwords == 1) {
		const uint64_t last = (uint64_t)1 << (n - 1);
		uint64_t VP = ~(uint64_t)0, VN = 0;
		long score = (long)n;
		for (size_t j = ws; j < we; j++) {
			score += myers_step(p->peq[t[j]], &VP, &VN, last);
			c[j + 1 - ws] = (uint16_t)(score < cap ? score :
			    cap);
		}
		return;
	}
	column_costs(ps, p, t, ws, we, c);	/* longer patterns */
}

/* SITES_LANES, or AGREP_GPU_SITES_LANES (tests: 1, the lanes for every
 * set). */
static size_t
lanes_min(void)
{
	static size_t v;	/* (0: not read yet; every thread reads the same) */
	size_t m = __atomic_load_n(&v, __ATOMIC_RELAXED);

	if (m == 0) {
		const char *e = getenv("AGREP_GPU_SITES_LANES");
		m = e != NULL && atoi(e) > 0 ? (size_t)atoi(e) : SITES_LANES;
		__atomic_store_n(&v, m, __ATOMIC_RELAXED);
	}
	return m;
}

/* Whether a pattern runs in the lanes: one word of PEq, 1-32 bytes. */
static int
lanes_take(const struct pattern *p)
{
	return p->nwords == 1 && p->len >= 1 && p->len <= 32;
}

/* ps's lanes, made on first use (NULL: none; the set's costs are not
 * Levenshtein's, or it has too few patterns of 32 bytes or fewer). */
static const struct sitelanes *
lanes_get(const struct patset *ps)
{
	static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
	struct sitelanes **slot = &((struct patset *)ps)->sitelanes;
	struct sitelanes *sl = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
	size_t n = 0;

	if (sl != NULL || ps->weighted || ps->hamming)
		return sl != NULL && sl->G > 0 ? sl : NULL;
	pthread_mutex_lock(&mu);
	if ((sl = *slot) != NULL)
		goto done;
	for (size_t x = 0; x < ps->npat; x++)
		n += lanes_take(&ps->pat[x]);
	if (n < lanes_min())
		n = 0;
	/* One block (pat_free frees it): the vectors, then the rest */
	const size_t G = (n + SL_NL - 1) / SL_NL, V = sizeof(sl_v),
	    head = (sizeof(*sl) + V - 1) / V * V;
	const size_t bytes = head + (256 + 2) * G * V + G * SL_NL *
	    sizeof(size_t) + ps->npat;
	char *blk = aligned_alloc(V, (bytes + V - 1) / V * V);
	if (blk == NULL)
		fatalx("out of memory");
	sl = (struct sitelanes *)(void *)blk;
	sl->G = G;
	sl->tab = (sl_v *)(void *)(blk + head);
	sl->init = sl->tab + 256 * G;
	sl->pat = (size_t *)(void *)(sl->init + 2 * G);
	sl->out = (unsigned char *)(sl->pat + G * SL_NL);
	for (size_t x = 0, i = 0; x < ps->npat; x++) {
		sl->out[x] = n == 0 || !lanes_take(&ps->pat[x]);
		if (!sl->out[x])
			sl->pat[i++] = x;
	}
	for (size_t i = n; i < G * SL_NL; i++)
		sl->pat[i] = sl->pat[n - 1];
	for (size_t i = 0; i < G * SL_NL; i++) {
		const struct pattern *p = &ps->pat[sl->pat[i]];
		const unsigned sh = 32 - (unsigned)p->len;
		const uint32_t ph = (uint32_t)(((uint64_t)1 << sh) - 1);
		const size_t g = i / SL_NL, l = i % SL_NL;
		for (size_t c = 0; c < 256; c++)
			sl->tab[c * G + g][l] = (uint32_t)(p->peq[c] << sh) | ph;
		sl->init[g][l] = ~ph;
		sl->init[G + g][l] = (uint32_t)((long)p->len - ps->k - 1);
	}
	__atomic_store_n(slot, sl, __ATOMIC_RELEASE);
done:
	pthread_mutex_unlock(&mu);
	return sl->G > 0 ? sl : NULL;
}

/*
 * Myers' step over t[ws, we) for groups [g0, g0 + NB) of the lanes, from
 * the start: sets cand[x] for each pattern x whose cost at some end in
 * [e0, e1] is k or less (the score, kept as score - k - 1, negative).
 * Inlined into one function a target (lanes_run).
 */
static inline __attribute__((always_inline)) void
lanes_body(const struct sitelanes *sl, const unsigned char *t, size_t ws,
    size_t we, size_t e0, size_t e1, unsigned char *cand)
{
	enum { NB = 4 };
	const size_t G = sl->G;

	for (size_t g0 = 0; g0 < G; g0 += NB) {
		const size_t nb = G - g0 < NB ? G - g0 : NB;
		sl_v VP[NB], VN[NB], T[NB], hit[NB];
		for (size_t b = 0; b < NB; b++) {
			const size_t g = g0 + (b < nb ? b : 0);
			VP[b] = sl->init[g];
			VN[b] = (sl_v){ 0 };
			T[b] = sl->init[G + g];
			hit[b] = (sl_v){ 0 };
		}
		for (size_t j = ws; j < we; j++) {
			const sl_v *row = sl->tab + (size_t)t[j] * G + g0;
			const int in = j + 1 >= e0 && j + 1 <= e1;
			for (size_t b = 0; b < NB; b++) {
				const sl_v eq = row[b < nb ? b : 0];
				const sl_v X = eq | VN[b];
				const sl_v D0 = (((X & VP[b]) + VP[b]) ^ VP[b]) | X;
				const sl_v HN = VP[b] & D0;
				const sl_v HP = VN[b] | ~(D0 | VP[b]);
				const sl_v Xs = HP << 1;
				VN[b] = Xs & D0;
				VP[b] = (HN << 1) | ~(Xs | D0);
				T[b] += (HP >> 31) - (HN >> 31);
				if (in)
					hit[b] |= T[b];
			}
		}
		for (size_t b = 0; b < nb; b++)
			for (size_t l = 0; l < SL_NL; l++)
				if (hit[b][l] >> 31)
					cand[sl->pat[(g0 + b) * SL_NL + l]] = 2;
	}
}

static void
lanes_generic(const struct sitelanes *sl, const unsigned char *t, size_t ws,
    size_t we, size_t e0, size_t e1, unsigned char *cand)
{
	lanes_body(sl, t, ws, we, e0, e1, cand);
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
__attribute__((target("avx2"))) static void
lanes_avx2(const struct sitelanes *sl, const unsigned char *t, size_t ws,
    size_t we, size_t e0, size_t e1, unsigned char *cand)
{
	lanes_body(sl, t, ws, we, e0, e1, cand);
}
#endif

/* Keeps in cand (1: try it) the patterns in lanes whose cost comes within
 * k at an end in [e0, e1] of t[ws, we), and those not in lanes. */
static void
lanes_run(const struct sitelanes *sl, const struct patset *ps,
    const unsigned char *t, size_t ws, size_t we, size_t e0, size_t e1,
    unsigned char *cand)
{
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
	if (cpu_has(CPU_AVX2))
		lanes_avx2(sl, t, ws, we, e0, e1, cand);
	else
#endif
		lanes_generic(sl, t, ws, we, e0, e1, cand);
	for (size_t x = 0; x < ps->npat; x++)
		cand[x] = cand[x] == 2 || (cand[x] == 1 && sl->out[x]);
}

static int
by_end(const void *a, const void *b)
{
	const struct site *x = a, *y = b;

	if (x->end != y->end)
		return x->end < y->end ? -1 : 1;
	return x->pat < y->pat ? -1 : x->pat > y->pat;
}

static int
bit(const uint64_t *bm, size_t i)
{
	return (int)(bm[i / 64] >> (i % 64) & 1);
}

/*
 * The patterns worth counting over t[ws, we), into cand (1: try it): with
 * the shared filter (multi.c), those with an exact piece there, those it
 * does not cover and those that left it (a match within k of a covered
 * pattern holds one of its pieces: pigeonhole); without it, all.
 */
static void
candidates(const struct patset *ps, const struct mflt *mf,
    const unsigned char *t, size_t ws, size_t we, unsigned char *cand)
{
	struct mf_walk w;
	struct mf_win win;
	const size_t *out;
	unsigned char *left;
	size_t nout;

	if (mf == NULL) {
		memset(cand, 1, ps->npat);
		return;
	}
	memset(cand, 0, ps->npat);
	out = mf_uncovered(mf, &nout);
	for (size_t i = 0; i < nout; i++)
		cand[out[i]] = 1;
	if (!mf_start(&w, mf, t + ws, 0, we - ws))
		return;
	while (mf_next(&w, &win))
		cand[win.pat] = 1;
	if ((left = mf_end(&w)) != NULL) {
		for (size_t p = 0; p < ps->npat; p++)
			cand[p] |= left[p];
		free(left);
	}
}

/*
 * Adds to out the sites in t[0, n) (a piece of a sequence, no terminator
 * inside) whose last byte lies in [own0, own1), by end then pattern.
 * bitmap: bit bitoff + i set at every end t[i] of some pattern's match
 * within k (ps->all_ends: the shared filter marks every end of its
 * windows too, hostmatch.c).  The piece holds at least sites_overlap()
 * bytes past own1 unless the sequence ends at t[n], and as many before
 * own0 unless it starts at t[0].  eol: the batch's terminator (the shared
 * filter is cached for one).
 */
void
sites_find(const struct patset *ps, const unsigned char *t, size_t n,
    size_t own0, size_t own1, unsigned char eol, const uint64_t *bitmap,
    size_t bitoff, struct sitelist *out)
{
	const size_t L = reach(ps), first = out->n;
	const int k = ps->k;
	const struct sitelanes *lanes = ps->npat >= lanes_min() ?
	    lanes_get(ps) : NULL;
	/* (the lanes try every pattern faster than the filter's pieces) */
	const struct mflt *mf = ps->npat >= SITES_MINPAT && lanes == NULL ?
	    mf_get(ps, eol) : NULL;
	uint16_t *c = NULL;
	unsigned char *cand = xmalloc(ps->npat + 1);
	size_t ccap = 0;


	for (size_t q = own0; (q = bits_next(bitmap, bitoff + q, bitoff +
	    own1) - bitoff) < own1; q++) {
		/* One window over the marked ends close to each other. */
		size_t last = q;
		for (size_t r = q + 1; (r = bits_next(bitmap, bitoff + r,
		    bitoff + own1) - bitoff) < own1 && r <= last + L; r++)
			last = r;
		const size_t e0 = q + 1, e1 = last + 1;
		const size_t ws = e0 - 1 > L ? e0 - 1 - L : 0;
		const size_t we = e1 + L + 1 < n ? e1 + L + 1 : n;
		q = last;
		if (we - ws + 1 > ccap) {
			ccap = 2 * (we - ws + 1);
			c = xreallocarray(c, ccap, sizeof(*c));
		}
		candidates(ps, mf, t, ws, we, cand);
		if (lanes != NULL) {
			/* (no match within k is longer than m + k bytes) */
			const size_t m = ps->maxlen + (size_t)k,
			    ls = e0 > m && e0 - m > ws ? e0 - m : ws;
			lanes_run(lanes, ps, t, ls, e1, e0, e1, cand);
		}
		for (size_t x = 0; x < ps->npat; x++) {
			const struct pattern *p = &ps->pat[x];
			if (!cand[x] || p->len <= (size_t)(k /
			    ps->cost.del))
				continue;
			costs(ps, p, t, ws, we, c);
			for (size_t e = e0; e <= e1; e++) {
				int ce = c[e - ws];
				if (ce > k || !bit(bitmap, bitoff + e - 1))
					continue;
				if (ps->hamming) {
					/* every end: no indel shifts a
					 * match to a neighbour */
					add(out, x, e - p->len, e, ce);
					continue;
				}
				if (c[e - 1 - ws] <= ce)
					continue;
				size_t j = e + 1;
				while (j <= we && j <= e + L && c[j - ws] == ce)
					j++;
				if (j <= we && j <= e + L && c[j - ws] < ce)
					continue;	/* it falls further */
				size_t from = e > p->len + (size_t)k ?
				    e - p->len - (size_t)k : 0;
				add(out, x, rf_start(p, t, from, e, ce), e, ce);
			}
		}
	}
	free(c);
	free(cand);
	if (out->n > first)
		qsort(out->s + first, out->n - first, sizeof(*out->s),
		    by_end);
}
