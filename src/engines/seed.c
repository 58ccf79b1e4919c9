/*
 * seed.c: the seed filter for many DNA patterns (issues 36 and 38).
 *
 * A match with at most k edits of a pattern holds, for j disjoint pieces of
 * the pattern, one piece with at most floor(k / j) edits (each edit touches
 * one piece at most).  The shared filter (multi.c) takes j = k + 1 and
 * looks for pieces exactly; over DNA that makes pieces of 5-6 bases for a
 * 23-base guide at k = 3, which occur everywhere.  Here a pattern may
 * instead be cut into j = k / 2 + 1 pieces with one edit each (two pieces
 * of 11-12 bases at k = 3): every variant of a piece with at most E edits
 * (E = 0 or 1: substitutions, deletions, insertions inside the piece; an
 * IUPAC code's every base) is listed, and the pieces of all the covered
 * patterns go into one table keyed by their last q bases (2 bits a base, q
 * = 8-12, the shortest variant's length at most).  A pattern takes the cut
 * (E = 0 or 1) with the fewer expected hits a text position.
 *
 * The text is walked once: a base (A, C, G, T in either case, where the
 * patterns' PEq tables say both cases match alike) shifts into a register
 * of the last 32 bases; at each position the key of the last q is tested
 * in a bitmap of 4^q bits (most positions stop there), otherwise the
 * entries of its bucket compare their whole variant with the register.  A
 * variant of the piece at offset a of pattern p (n bytes) that ends at
 * text[i] puts every match that holds it inside text[i + 1 - vlen - a - k,
 * i + 1 + n - a - plen + k): that window, clipped to its record, is
 * proposed to the caller, who runs Myers over it from a fresh state.
 *
 * Bytes that are neither bases nor the terminator ("other": N, IUPAC codes
 * in the text, anything a pattern's PEq gives no match) break the register.
 * A covered pattern matches none of them, so a match that begins with them
 * can drop them (deleting as many of its pattern's first bytes instead):
 * for every end there is a match that begins with a base, and if it holds
 * other bytes, it holds the first of a run of them.  So a window of n + k
 * bytes on either side of each run's first byte is proposed for every
 * covered pattern, and the windows hold a match for every end of every
 * covered pattern: the filter loses nothing, whatever the text.  When the
 * windows proposed grow past a quarter of the covered patterns' scan of the
 * chunk (a repetitive text, reads full of N), the filter gives the chunk
 * up: seed_end flags every covered pattern for the engines.
 *
 * Output needs one hit per selected record (as with multi.c): the caller
 * says when a window held a match (seed_found) and the walk goes on at the
 * next record; with every end wanted (--hits), the caller scans each
 * window whole and the walk goes on.
 *
 * Patterns covered: at most 64 bytes (one Myers word), longer than k, their
 * pieces' shortest variants at least SEED_QMIN bases (AGREP_GPU_SEED_QMIN,
 * tests: down to 1), at most SEED_VARS variants a piece, matching none of
 * the other bytes.  The table is built once per pattern set (seed_get
 * caches it in the patset) and only read while scanning.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filter.h"
#include "seed.h"
#include "../base/util.h"

#define SEED_QMAX	12	/* key bases at most: a bitmap of 2 MB */
#define SEED_QMIN	8	/* ... at least (shorter keys hit everywhere) */
#define SEED_PIECE	20	/* a piece's bases at most */
#define SEED_VARS	4096	/* variants of one piece at most */
#define SEED_ENTS	((size_t)1 << 20)	/* entries at most (16 MB) */

enum { C_OTHER = 4, C_EOL = 5 };

/* One variant of a piece: its bases (the last in the low bits) in v's
 * low 2 vlen bits, vlen in its top byte (VLEN); the key: its last q
 * bases; the window around an end at i: [i - back, i + fwd). */
struct sent {
	uint64_t v;
	uint32_t pat;
	uint16_t back, fwd;
};
#define VLEN(en)	((unsigned)((en)->v >> 56))
#define VBITS(en)	((en)->v & (((uint64_t)1 << 56) - 1))

struct seedf {
	const struct patset *ps;
	long	 k;
	unsigned char eol;
	int	 force;
	unsigned char code[256];
	unsigned char rep[4];	/* the byte that stands for each base: A, C,
				 * G, T, or in lower case where no pattern
				 * matches the upper */
	unsigned char *in;	/* in[p]: covered */
	size_t	 npat, ncov;
	size_t	*cov;		/* the covered patterns, in order */
	unsigned q;
	uint32_t qmask;
	uint64_t *bits;		/* bit key: some entry has it */
	unsigned hbits;
	uint32_t *start;	/* bucket b: ent[start[b], start[b + 1]) */
	struct sent *ent;
	size_t	 nent;
	double	 hits;		/* expected bucket visits a base (random) */
	unsigned e1;		/* covered patterns cut with one edit a piece */
};

static unsigned
qmin_env(void)
{
	const char *e = getenv("AGREP_GPU_SEED_QMIN");
	long v = e != NULL ? atol(e) : 0;

	return v >= 1 && v <= SEED_QMAX ? (unsigned)v : SEED_QMIN;
}

static uint32_t
bucket(uint32_t key, unsigned hbits)
{
	return (uint32_t)((key * 2654435761u) >> (32 - hbits));
}

/* Variants of a piece: sets[j] (4 bits: the bases position j matches),
 * len positions, at most e edits; appended to *out as (v, vlen) pairs. */
struct vlist {
	uint64_t *v;
	uint8_t  *len;
	size_t	  n, cap;
	int	  over;
};

static void
vl_add(struct vlist *l, uint64_t v, unsigned len)
{
	if (l->n == SEED_VARS) {
		l->over = 1;
		return;
	}
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 64;
		l->v = xrealloc(l->v, l->cap * sizeof(*l->v));
		l->len = xrealloc(l->len, l->cap);
	}
	l->v[l->n] = v;
	l->len[l->n++] = (uint8_t)len;
}

static void
variants(const unsigned char *sets, unsigned len, unsigned j, unsigned e,
    uint64_t v, unsigned vlen, struct vlist *l)
{
	if (l->over)
		return;
	if (j == len) {
		vl_add(l, v, vlen);
		return;
	}
	for (unsigned x = 0; x < 4; x++)
		if (sets[j] >> x & 1)
			variants(sets, len, j + 1, e, v << 2 | x, vlen + 1, l);
		else if (e > 0)		/* a substitution */
			variants(sets, len, j + 1, e - 1, v << 2 | x, vlen + 1,
			    l);
	if (e == 0)
		return;
	variants(sets, len, j + 1, e - 1, v, vlen, l);	/* a deletion */
	if (j > 0)		/* an insertion inside the piece */
		for (unsigned x = 0; x < 4; x++)
			variants(sets, len, j, e - 1, v << 2 | x, vlen + 1, l);
}

static int
cmp_var(const void *a, const void *b)
{
	const struct sent *x = a, *y = b;

	if (x->pat != y->pat)
		return x->pat < y->pat ? -1 : 1;
	if (x->v != y->v)
		return x->v < y->v ? -1 : 1;
	if (x->back != y->back)
		return x->back < y->back ? -1 : 1;
	return (x->fwd > y->fwd) - (x->fwd < y->fwd);
}

/* The bases position i of pat matches (bit x: base rep[x]). */
static unsigned char
pos_set(const struct pattern *pat, size_t i, const unsigned char *rep)
{
	unsigned char s = 0;

	for (unsigned x = 0; x < 4; x++)
		s |= (unsigned char)(pat_has(pat, i, rep[x]) << x);
	return s;
}

/* The cut of a pattern of n bytes into j pieces: piece t at offset
 * *off, *plen bytes (at most SEED_PIECE, from its start). */
static void
piece(size_t n, unsigned j, unsigned t, size_t *off, size_t *plen)
{
	size_t a = n * t / j, b = n * (t + 1) / j;

	*off = a;
	*plen = b - a < SEED_PIECE ? b - a : SEED_PIECE;
}

/* Expected bucket visits a text position for pattern p cut into j pieces
 * with e edits each (random bases), and the pieces' variants in *l (one
 * vlist a piece): -1 when a piece has too many. */
static double
plan_cut(const struct pattern *pat, const unsigned char *rep, unsigned j,
    unsigned e, struct vlist *l)
{
	unsigned char sets[SEED_PIECE];
	double hits = 0;

	for (unsigned t = 0; t < j; t++) {
		size_t off, plen;
		piece(pat->len, j, t, &off, &plen);
		for (size_t i = 0; i < plen; i++)
			sets[i] = pos_set(pat, off + i, rep);
		l[t].n = 0;
		l[t].over = 0;
		variants(sets, (unsigned)plen, 0, e, 0, 0, &l[t]);
		if (l[t].over)
			return -1;
		for (size_t x = 0; x < l[t].n; x++) {
			unsigned b = l[t].len[x] < 32 ? l[t].len[x] : 31;
			double p = 1;
			for (unsigned y = 0; y < b && y < 16; y++)
				p *= 0.25;
			hits += p;
		}
	}
	return hits;
}

/* The shortest variant of pattern p's pieces when cut into j with e
 * edits each. */
static size_t
shortest(size_t n, unsigned j, unsigned e)
{
	size_t off, plen, best = SIZE_MAX;

	for (unsigned t = 0; t < j; t++) {
		piece(n, j, t, &off, &plen);
		if (plen < best)
			best = plen;
	}
	return best > e ? best - e : 0;
}

/* The text's bytes (code[c]: a base, C_OTHER; the caller sets the
 * terminator's) and the byte that stands for each base (rep[x]): a base
 * where every pattern's PEq says it matches as that base (both cases of A,
 * C, G, T in --dna or -i; any byte that behaves so), else other. */
static void
code_map(const struct patset *ps, unsigned char *rep, unsigned char *code)
{
	static const char up[4] = { 'A', 'C', 'G', 'T' };

	for (unsigned x = 0; x < 4; x++) {
		rep[x] = (unsigned char)up[x];
		for (size_t p = 0; p < ps->npat; p++)
			if (ps->pat[p].peq[(size_t)(unsigned char)up[x] *
			    ps->pat[p].nwords] != 0)
				goto upper;
		rep[x] = (unsigned char)(up[x] | 0x20);
upper:		;
	}
	memset(code, C_OTHER, 256);
	for (unsigned c = 0; c < 256; c++)
		for (unsigned x = 0; x < 4 && code[c] == C_OTHER; x++) {
			int same = 1;
			for (size_t p = 0; p < ps->npat && same; p++) {
				const struct pattern *pat = &ps->pat[p];
				for (size_t w = 0; w < pat->nwords; w++)
					if (pat->peq[(size_t)c * pat->nwords +
					    w] != pat->peq[(size_t)rep[x] *
					    pat->nwords + w])
						same = 0;
			}
			if (same)
				code[c] = (unsigned char)x;
		}
}

/* The bytes that are no base (code), into other[]: the most frequent in
 * text first, so that takes_other tells a word from a primer at its first
 * letters (10,000 Bible words: 256 tests a pattern took 2 ms of a 50 ms
 * run).  Returns their number. */
static size_t
other_bytes(const unsigned char *code, unsigned char *other)
{
	size_t no = 0;

	for (unsigned c = 0; c < 256; c++)
		if (code[c] == C_OTHER)
			other[no++] = (unsigned char)c;
	for (size_t i = 1; i < no; i++)
		for (size_t j = i; j > 0 && flt_byte_rank(other[j], 0) >
		    flt_byte_rank(other[j - 1], 0); j--) {
			unsigned char t = other[j];
			other[j] = other[j - 1];
			other[j - 1] = t;
		}
	return no;
}

/* Whether pat cannot be covered for the bytes it matches: more than one
 * Myers word, or a byte of other[0, no) (other_bytes). */
static int
takes_other(const struct pattern *pat, const unsigned char *other, size_t no)
{
	if (pat->nwords != 1)
		return 1;
	for (size_t i = 0; i < no; i++)
		if (pat->peq[other[i]] != 0)
			return 1;
	return 0;
}

/* Whether pattern p (takes_other's no) may take cut e (0: exact pieces,
 * 1: one edit each) by its shape alone (longer than k, the shortest
 * variant at least qmin), not its variants' number. */
static int
cut_shape(const struct pattern *pat, long k, unsigned qmin, unsigned e)
{
	if ((long)pat->len <= k || k > 13 || e > (unsigned)k)
		return 0;
	unsigned j = (unsigned)k / (e + 1) + 1;
	return j <= 8 && shortest(pat->len, j, e) >= qmin;
}

struct seedf *
seed_build(const struct patset *ps, unsigned char eol, int force)
{
	struct seedf *sd = xcalloc(1, sizeof(*sd));
	const unsigned qmin = qmin_env();
	const long k = ps->k;

	sd->ps = ps;
	sd->k = k;
	sd->eol = eol;
	sd->force = force;
	sd->npat = ps->npat;
	sd->in = xcalloc(ps->npat ? ps->npat : 1, 1);
	sd->cov = xcalloc(ps->npat ? ps->npat : 1, sizeof(*sd->cov));
	if (ps->hamming || ps->weighted || k < 0)
		return sd;

	code_map(ps, sd->rep, sd->code);
	sd->code[eol] = C_EOL;
	unsigned char other[256];
	const size_t no = other_bytes(sd->code, other);

	/* Which patterns, their cuts and their entries, in one pass (a
	 * piece's variants listed once for each cut tried, kept for the one
	 * chosen), until SEED_ENTS entries: 10,000 primers at k = 3 filled
	 * it, and listing every pattern three times took a second. */
	struct vlist l[2][8];
	memset(l, 0, sizeof(l));
	unsigned q = SEED_QMAX;
	size_t cap = 0;
	for (size_t p = 0; p < ps->npat && sd->nent < SEED_ENTS; p++) {
		const struct pattern *pat = &ps->pat[p];
		double best = -1;
		int cut = -1;
		if (takes_other(pat, other, no))
			continue;
		for (unsigned e = 0; e <= 1; e++) {
			if (!cut_shape(pat, k, qmin, e))
				continue;
			unsigned j = (unsigned)k / (e + 1) + 1;
			double h = plan_cut(pat, sd->rep, j, e, l[e]);
			if (h >= 0 && (best < 0 || h < best)) {
				best = h;
				cut = (int)e;
			}
		}
		if (cut < 0)
			continue;
		const unsigned e = (unsigned)cut, j = (unsigned)k / (e + 1) + 1;
		const struct vlist *vl = l[e];
		size_t add = 0;
		for (unsigned t = 0; t < j; t++)
			add += vl[t].n;
		if (sd->nent + add > SEED_ENTS)
			break;		/* (the rest to the engines) */
		if (sd->nent + add > cap) {
			cap = 2 * (sd->nent + add);
			sd->ent = xrealloc(sd->ent, cap * sizeof(*sd->ent));
		}
		size_t first = sd->nent;
		for (unsigned t = 0; t < j; t++) {
			size_t off, plen;
			piece(pat->len, j, t, &off, &plen);
			for (size_t x = 0; x < vl[t].n; x++) {
				struct sent *en = &sd->ent[sd->nent++];
				unsigned vlen = vl[t].len[x];
				en->v = vl[t].v[x] | (uint64_t)vlen << 56;
				en->pat = (uint32_t)p;
				en->back = (uint16_t)(vlen - 1 + off +
				    (size_t)k);
				en->fwd = (uint16_t)(pat->len - off - plen +
				    (size_t)k + 1);
			}
		}
		/* the same variant twice (a deletion in a run, say) */
		qsort(sd->ent + first, sd->nent - first, sizeof(*sd->ent),
		    cmp_var);
		size_t w = first;
		for (size_t x = first; x < sd->nent; x++)
			if (w == first || cmp_var(&sd->ent[w - 1],
			    &sd->ent[x]) != 0)
				sd->ent[w++] = sd->ent[x];
		sd->nent = w;
		sd->in[p] = 1;
		sd->cov[sd->ncov++] = p;
		sd->e1 += e;
		size_t sh = shortest(pat->len, j, e);
		if (sh < q)
			q = (unsigned)sh;
	}
	sd->q = q;
	sd->qmask = (uint32_t)(((uint64_t)1 << (2 * q)) - 1);
	for (unsigned e = 0; e < 2; e++)
		for (unsigned t = 0; t < 8; t++) {
			free(l[e][t].v);
			free(l[e][t].len);
		}
	if (sd->ncov == 0)
		return sd;

	/* The bitmap and the buckets. */
	sd->bits = xcalloc(((size_t)1 << (2 * q)) / 64 + 1, 8);
	sd->hbits = 10;
	while (sd->hbits < 30 && ((size_t)1 << sd->hbits) < sd->nent)
		sd->hbits++;
	size_t nb = (size_t)1 << sd->hbits;
	sd->start = xcalloc(nb + 1, sizeof(*sd->start));
	struct sent *sorted = xmalloc(sd->nent * sizeof(*sorted));
	for (size_t x = 0; x < sd->nent; x++) {
		uint32_t key = (uint32_t)(sd->ent[x].v & sd->qmask);
		sd->bits[key / 64] |= (uint64_t)1 << (key % 64);
		sd->start[bucket(key, sd->hbits) + 1]++;
	}
	for (size_t b = 0; b < nb; b++)
		sd->start[b + 1] += sd->start[b];
	uint32_t *fill = xmalloc(nb * sizeof(*fill));
	memcpy(fill, sd->start, nb * sizeof(*fill));
	for (size_t x = 0; x < sd->nent; x++)
		sorted[fill[bucket((uint32_t)(sd->ent[x].v & sd->qmask),
		    sd->hbits)]++] = sd->ent[x];
	free(fill);
	free(sd->ent);
	sd->ent = sorted;
	size_t set = 0;
	for (size_t w = 0; w < ((size_t)1 << (2 * q)) / 64 + 1; w++)
		set += (size_t)__builtin_popcountll(sd->bits[w]);
	sd->hits = (double)set / (double)((size_t)1 << (2 * q));
	return sd;
}

struct seedf *
seed_get(const struct patset *ps, unsigned char eol)
{
	static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
	struct seedf **slot = &((struct patset *)ps)->seed;
	struct seedf *sd = __atomic_load_n(slot, __ATOMIC_ACQUIRE);

	if (sd == NULL) {
		pthread_mutex_lock(&mu);
		if ((sd = *slot) == NULL) {
			const double t0 = util_thread_cpu();
			sd = seed_build(ps, eol, 0);
			util_build_cpu += util_thread_cpu() - t0;
			if (getenv("AGREP_GPU_STATS") != NULL && sd->ncov > 0) {
				char line[256];
				seed_describe(sd, line, sizeof(line));
				fprintf(stderr, "agrep-gpu: %s\n", line);
			}
			__atomic_store_n(slot, sd, __ATOMIC_RELEASE);
		}
		pthread_mutex_unlock(&mu);
	}
	return sd->eol == eol ? sd : NULL;
}

/* Whether the seed filter may cover a pattern of ps, by the patterns'
 * shapes alone: the host planner asks it of every set, and builds the
 * table (seed_get) only where it runs the filter. */
int
seed_applies(const struct patset *ps)
{
	unsigned char rep[4], code[256], other[256];
	const unsigned qmin = qmin_env();

	if (ps->hamming || ps->weighted || ps->k < 0)
		return 0;
	code_map(ps, rep, code);
	const size_t no = other_bytes(code, other);
	for (size_t p = 0; p < ps->npat; p++) {
		if (takes_other(&ps->pat[p], other, no))
			continue;
		for (unsigned e = 0; e <= 1; e++)
			if (cut_shape(&ps->pat[p], ps->k, qmin, e))
				return 1;
	}
	return 0;
}

void
seed_free(struct seedf *sd)
{
	if (sd == NULL)
		return;
	free(sd->in);
	free(sd->cov);
	free(sd->bits);
	free(sd->start);
	free(sd->ent);
	free(sd);
}

size_t
seed_covered(const struct seedf *sd)
{
	return sd != NULL ? sd->ncov : 0;
}

int
seed_covers(const struct seedf *sd, size_t p)
{
	return sd->in[p];
}

/* A line for AGREP_GPU_STATS. */
void
seed_describe(const struct seedf *sd, char *buf, size_t len)
{
	snprintf(buf, len, "seed filter: %zu of %zu patterns (%u with one "
	    "edit a piece), %zu variants, keys of %u bases, %.2f%% of keys "
	    "set", sd->ncov, sd->npat, sd->e1, sd->nent, sd->q,
	    100 * sd->hits);
}

int
seed_start(struct sd_walk *w, const struct seedf *sd,
    const unsigned char *text, size_t warm, size_t len)
{
	if (sd == NULL || sd->ncov == 0)
		return 0;
	memset(w, 0, sizeof(*w));
	w->sd = sd;
	w->text = text;
	w->warm = warm;
	w->end = warm + len;
	w->limit = (double)len * (double)sd->ncov / 4 + 65536;
	return 1;
}

/* The window [i - back, i + fwd) clipped to the record and the text, into
 * *win; 0 when it holds no end at or after warm. */
static int
clip(struct sd_walk *w, size_t pat, size_t i, size_t back, size_t fwd,
    struct sd_win *win)
{
	size_t ws = i >= back ? i - back : 0, we = i + fwd;

	if (ws < w->rs)
		ws = w->rs;
	if (w->reol < i || w->reol == 0) {
		const unsigned char *t = memchr(w->text + i, w->sd->eol,
		    w->end - i);
		w->reol = t != NULL ? (size_t)(t - w->text) : w->end;
	}
	if (we > w->reol)
		we = w->reol;
	if (we <= w->warm || we <= ws)
		return 0;
	win->pat = pat;
	win->ws = ws;
	win->we = we;
	w->cost += (double)(we - ws);
	if (w->cost > w->limit && !w->sd->force)
		w->gaveup = 1;
	return 1;
}

int
seed_next(struct sd_walk *w, struct sd_win *win)
{
	const struct seedf *sd = w->sd;
	const unsigned char *const text = w->text, *const code = sd->code;
	const unsigned q = sd->q;
	const uint64_t *const bits = sd->bits;

	for (;;) {
		if (w->gaveup)
			return 0;
		if (w->pend == 1) {
			const struct sd_cand *c = &w->q[w->qh];
			while (w->e < w->e1) {
				const struct sent *en = &sd->ent[w->e++];
				const unsigned vlen = VLEN(en);
				const uint64_t m = ((uint64_t)1 << (2 * vlen)) - 1;
				if (c->valid < vlen || (c->R & m) != VBITS(en))
					continue;
				if (clip(w, en->pat, c->i, en->back, en->fwd, win))
					return 1;
			}
			w->pend = 0;
			w->qh++;
		}
		if (w->pend == 2) {
			/* a window around the run's first byte */
			while (w->t < sd->ncov) {
				size_t p = sd->cov[w->t++];
				size_t span = sd->ps->pat[p].len + (size_t)sd->k;
				if (clip(w, p, w->ra, span - 1, span, win))
					return 1;
			}
			w->pend = 0;
		}
		if (w->qh < w->qt) {
			/* the next position queued; the entries of the one
			 * two places on are fetched meanwhile */
			const struct sd_cand *c = &w->q[w->qh];
			uint32_t b = bucket((uint32_t)c->R & sd->qmask, sd->hbits);
			if (w->qh + 2 < w->qt)
				__builtin_prefetch(&sd->ent[sd->start[bucket(
				    (uint32_t)w->q[w->qh + 2].R & sd->qmask,
				    sd->hbits)]]);
			w->rs = c->rs;
			w->e = sd->start[b];
			w->e1 = sd->start[b + 1];
			w->pend = 1;
			continue;
		}
		if (w->runwait) {
			w->runwait = 0;
			w->rs = w->runrs;
			w->t = 0;
			w->pend = 2;
			continue;
		}
		if (w->i >= w->end)
			return 0;

		/* the scan: up to SD_QUEUE positions whose key is set, or up
		 * to a run of other bytes */
		size_t i = w->i, rs = w->srs;
		uint64_t R = w->R;
		unsigned valid = w->valid, n = 0;
		for (; i < w->end; i++) {
			unsigned c = code[text[i]];
			if (c < 4) {
				R = R << 2 | c;
				valid++;
				uint32_t key = (uint32_t)R & sd->qmask;
				if (valid < q || !(bits[key / 64] >> (key % 64) & 1))
					continue;
				__builtin_prefetch(&sd->start[bucket(key,
				    sd->hbits)]);
				w->q[n++] = (struct sd_cand){ i, rs, R, valid };
				if (n == SD_QUEUE) {
					i++;
					break;
				}
				continue;
			}
			valid = 0;
			if (c == C_EOL) {
				rs = i + 1;
				continue;
			}
			/* a run of other bytes */
			w->ra = i;
			while (i + 1 < w->end && code[text[i + 1]] == C_OTHER)
				i++;
			w->rb = i + 1;
			w->runwait = 1;
			w->runrs = rs;
			i++;
			break;
		}
		w->i = i;
		w->srs = rs;
		w->R = R;
		w->valid = valid;
		w->qh = 0;
		w->qt = n;
	}
}

/* The window held a match: the walk goes on at the next record. */
void
seed_found(struct sd_walk *w)
{
	size_t i = w->pend == 2 ? w->ra : w->q[w->qh].i;

	if (w->reol < i || w->reol == 0) {
		const unsigned char *t = memchr(w->text + i, w->sd->eol,
		    w->end - i);
		w->reol = t != NULL ? (size_t)(t - w->text) : w->end;
	}
	if (w->pend == 1)
		w->qh++;
	w->pend = 0;
	/* the record's other positions, queued or not, and its run */
	while (w->qh < w->qt && w->q[w->qh].i < w->reol)
		w->qh++;
	if (w->runwait && w->ra < w->reol)
		w->runwait = 0;
	if (w->i < w->reol) {
		w->i = w->reol;	/* the terminator: the scan resets there */
		w->valid = 0;
	}
}

/* The patterns the engines must scan over this chunk after all (every
 * covered one, when the filter gave up), or NULL. */
unsigned char *
seed_end(struct sd_walk *w)
{
	if (!w->gaveup)
		return NULL;
	unsigned char *left = xcalloc(w->sd->npat, 1);
	for (size_t x = 0; x < w->sd->ncov; x++)
		left[w->sd->cov[x]] = 1;
	return left;
}
