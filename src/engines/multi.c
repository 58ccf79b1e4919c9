/*
 * multi.c: the shared pigeonhole filter for many patterns (issue 10).
 *
 * A match with at most k edits of a pattern cut into k + 1 disjoint pieces
 * holds one piece exactly (filter.c says why).  Each pattern is cut where
 * its pieces are rarest by English byte frequencies (cut_pattern; 22% fewer
 * candidates than even cuts for 1,000 Bible words).  The pieces of all the
 * patterns that can be filtered go into one hash table, keyed by their
 * first q bytes (q = min(piece length, 4); -i folds the key with | 0x20,
 * which maps both cases of a letter to one key).  The text is walked record
 * by record (a match never spans a terminator); at each position the key of
 * each q in use is hashed, tested in a bitmap of 2^bbits bits that says
 * whether any piece's key hashes there (most positions stop here), and
 * otherwise the bucket's pieces are compared in full.  A piece of pattern p
 * starting at offset a of p that occurs at text[i] puts every match that
 * holds it inside text[i - a - k, i - a + n + k) (n = len(p)): that window
 * (clipped to the record) is proposed to the caller (mf_next), who runs
 * Myers over it from a fresh state, which finds exactly the matches that
 * start inside the window.  This module only proposes; it runs no engine.
 *
 * Output needs one hit per selected record (as with hm_exact): the first
 * match the caller finds in a record sets its end bit, the caller says so
 * (mf_found) and the walk goes on at the next record.  So the bits set are
 * true match ends, and every record holding a match of a covered pattern
 * gets at least one, but not every end bit.  The walk's state is the
 * caller's struct mf_walk: one window at a time, no list to grow.
 *
 * Patterns longer than MF_MAXLEN bytes, with pieces shorter than
 * MF_MINPIECE (by default 1: none), or with k + 1 > n are not covered:
 * hm_scan gives them to the engines (the longer ones to filter.c).  A
 * covered pattern whose windows grow past MF_DENSITY of a chunk leaves the
 * filter for that chunk (mf_end returns it) and the
 * engines scan the chunk for it too: a piece such as "e " that occurs
 * everywhere costs no more than the pattern's own scan.
 *
 * The table is built once per pattern set (mf_get caches it in the
 * patset, under a lock) and only read while scanning: calls from several
 * threads are independent.
 */
#include <float.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "filter.h"
#include "multi.h"
#include "../base/util.h"

/* One piece: pattern pat, bytes str[off, off + len).  word: its first
 * min(len, 8) bytes, little-endian, ORed with mask (0x20 in the bytes that
 * are letters under -i); lmask: ones over those bytes. */
struct ment {
	uint64_t word, mask, lmask;
	uint32_t pat;
	uint8_t off, len, q;
};

struct mflt {
	const struct pattern *pat;	/* the set's patterns */
	size_t npat;
	long k;
	int icase, force;
	unsigned char eol;
	unsigned char *in;	/* in[p]: the filter covers pattern p */
	size_t nin;
	size_t *out;		/* the patterns not covered, in order */
	unsigned qset;		/* bit q set: some piece has a key of q bytes */
	unsigned qmin;
	unsigned bbits, hbits;
	uint64_t pre[65536 / 64];	/* bit x: some piece of 1 or 2 bytes
				 * starts with the two bytes x
				 * (little-endian, folded) */
	uint64_t pre3[65536 / 64];	/* bit pre3_hash(x): some longer piece
				 * starts with the three bytes x */
	uint64_t *bits;		/* bit h: some key hashes to h */
	uint32_t *start;	/* bucket b: ent[start[b], start[b + 1]) */
	struct ment *ent;
	size_t nent;
	unsigned char *pv;	/* pattern p in pv[64 p, 64 p + 64), folded
				 * under -i, zero-padded (64-byte aligned):
				 * the verifier's (mf_vector) */
};

static const uint32_t qmask[5] = { 0, 0xff, 0xffff, 0xffffff, 0xffffffff };

/* The pre3 bit of the (folded) three bytes x. */
static inline uint32_t
pre3_hash(uint32_t x)
{
	return (x * 0x9e3779b1u) >> 16;
}

/* The hash of a key of q bytes (the bytes above q are zero). */
static inline uint32_t
mhash(uint32_t key, unsigned q)
{
	return (key + q * 0x7f4a7c15u) * 0x9e3779b1u;
}

/* Up to 4 bytes at t[i], little-endian, zeros past all. */
static inline uint32_t
key_at(const unsigned char *t, size_t i, size_t all)
{
	uint32_t key = 0;

	if (i + 4 <= all)
		memcpy(&key, t + i, 4);
	else
		for (size_t j = 0; i + j < all; j++)
			key |= (uint32_t)t[i + j] << (8 * j);
	return key;
}

static unsigned
log2_at_least(size_t n, unsigned lo, unsigned hi)
{
	unsigned b = lo;

	while (b < hi && ((size_t)1 << b) < n)
		b++;
	return b;
}

/*
 * Where to cut pattern s[0, n) into np pieces: cut[0] = 0 < cut[1] < ...
 * < cut[np] = n, the cuts with the least summed cost.  A piece's cost is
 * its expected number of occurrences per text byte by the byte
 * frequencies of filter.c (English text), times what a verification costs
 * (about half a step per window byte), plus the same for its key of up to
 * 4 bytes (the lookups); a piece that holds the terminator never occurs
 * inside a record and costs nothing.  Products of the frequencies, not
 * sums of logarithms: 64 factors of at least 1e-4 stay above DBL_MIN.
 * Even cuts when the search (np n^2 steps) would cost more than the scan
 * saves.
 */
static void
cut_pattern(const unsigned char *s, size_t n, size_t np, long k, int icase,
    unsigned char eol, size_t *cut)
{
	double P[MF_MAXLEN + 1], best[MF_MAXLEN + 1][MF_MAXLEN + 1];
	unsigned char from[MF_MAXLEN + 1][MF_MAXLEN + 1];
	size_t E[MF_MAXLEN + 1];
	const double verify = 1 + (double)(n + 2 * (size_t)k) / 2;

	for (size_t j = 0; j <= np; j++)
		cut[j] = j * n / np;
	if (np * n * n > 65536)
		return;
	P[0] = 1;
	E[0] = 0;
	for (size_t i = 0; i < n; i++) {
		P[i + 1] = P[i] * (flt_byte_rank(s[i], icase) / 10000.0);
		E[i + 1] = E[i] + (s[i] == eol);
	}
	for (size_t i = 0; i <= n; i++)
		best[0][i] = i == 0 ? 0 : DBL_MAX;
	for (size_t j = 1; j <= np; j++)
		for (size_t b = 0; b <= n; b++) {
			best[j][b] = DBL_MAX;
			for (size_t a = j - 1; a < b; a++) {
				size_t qa = a + 4 < b ? a + 4 : b;
				double c = E[b] != E[a] ? 0 :
				    P[b] / P[a] * verify + P[qa] / P[a];
				if (best[j - 1][a] + c < best[j][b]) {
					best[j][b] = best[j - 1][a] + c;
					from[j][b] = (unsigned char)a;
				}
			}
		}
	for (size_t j = np, b = n; j > 0; j--) {
		cut[j] = b;
		b = from[j][b];
	}
	cut[0] = 0;
}

/* Lists the patterns m does not cover (m->out, npat - nin of them). */
static void
list_uncovered(struct mflt *m)
{
	size_t n = 0;

	m->out = xreallocarray(NULL, m->npat - m->nin + 1, sizeof(*m->out));
	for (size_t p = 0; p < m->npat; p++)
		if (!m->in[p])
			m->out[n++] = p;
}

/*
 * Builds the filter for the patterns of ps that it can cover, for records
 * ending at eol.  force: pieces of any length (1 byte and up, whatever
 * MF_MINPIECE), and no pattern ever leaves (the tests' setting).  Never
 * fails (xmalloc).
 */
struct mflt *
mf_build(const struct patset *ps, unsigned char eol, int force)
{
	struct mflt *m = xcalloc(1, sizeof(*m));
	const size_t pieces = (size_t)ps->k + 1;
	const size_t minpiece = force ? 1 : MF_MINPIECE;

	m->pat = ps->pat;
	m->npat = ps->npat;
	m->k = ps->k;
	m->icase = ps->icase;
	m->force = force;
	m->eol = eol;
	m->in = xcalloc(ps->npat ? ps->npat : 1, 1);
	m->qmin = 4;
	if (ps->k < 0 || pieces > MF_MAXLEN) {
		list_uncovered(m);
		return m;
	}
	m->ent = xmalloc((ps->npat ? ps->npat : 1) * pieces * sizeof(*m->ent));
	for (size_t p = 0; p < ps->npat; p++) {
		const struct pattern *pat = &ps->pat[p];
		const size_t n = pat->len;
		if (pat->cls || n > MF_MAXLEN || n < pieces ||
		    n / pieces < minpiece)
			continue;	/* (classes: no exact pieces) */
		size_t cut[MF_MAXLEN + 1];
		m->in[p] = 1;
		m->nin++;
		cut_pattern(pat->str, n, pieces, ps->k, m->icase, eol, cut);
		for (size_t j = 0; j < pieces; j++) {
			size_t a = cut[j], b = cut[j + 1];
			struct ment *e = &m->ent[m->nent];
			if (memchr(pat->str + a, eol, b - a) != NULL)
				continue;	/* never inside a record */
			e->pat = (uint32_t)p;
			e->off = (uint8_t)a;
			e->len = (uint8_t)(b - a);
			e->q = (uint8_t)(b - a < 4 ? b - a : 4);
			e->word = e->mask = e->lmask = 0;
			for (size_t i = 0; i < 8 && i < b - a; i++) {
				unsigned char c = pat->str[a + i];
				uint64_t mk = m->icase && ascii_letter(c) ? 0x20 : 0;
				e->mask |= mk << (8 * i);
				e->lmask |= (uint64_t)0xff << (8 * i);
				e->word |= (uint64_t)(c | mk) << (8 * i);
			}
			m->qset |= 1u << e->q;
			if (e->q < m->qmin)
				m->qmin = e->q;
			m->nent++;
		}
		/* A pattern whose pieces all hold the terminator has no match
		 * inside a record: covered, with no entries. */
	}
	list_uncovered(m);
	if (m->nent == 0)
		return m;
	/* The patterns for the caller's verifier (mf_vector): 64 bytes
	 * each, so that Eq for a text byte is one vector compare rather than
	 * a load from a 2 KB PEq table per pattern (10,000 patterns: 20 MB,
	 * a cache miss a byte). */
	m->pv = aligned_alloc(64, m->npat * 64);
	if (m->pv == NULL)
		fatalx("out of memory");
	memset(m->pv, 0, m->npat * 64);
	for (size_t p = 0; p < m->npat; p++)
		if (m->in[p])
			for (size_t i = 0; i < ps->pat[p].len; i++)
				m->pv[64 * p + i] = m->icase ?
				    ascii_fold(ps->pat[p].str[i]) : ps->pat[p].str[i];
	/* About 32 bitmap bits per piece (few false hits, and the bitmap
	 * stays in L2: 256 KB at most), one bucket per piece. */
	m->bbits = log2_at_least(m->nent * 32, 12, 21);
	m->hbits = log2_at_least(m->nent, 8, m->bbits);
	m->bits = xcalloc(((size_t)1 << m->bbits) / 64, sizeof(*m->bits));
	m->start = xcalloc(((size_t)1 << m->hbits) + 1, sizeof(*m->start));
	struct ment *sorted = xmalloc(m->nent * sizeof(*sorted));
	uint32_t *hb = xmalloc(m->nent * sizeof(*hb));
	const uint32_t fold32 = m->icase ? 0x20202020u : 0;
	for (size_t i = 0; i < m->nent; i++) {
		const struct ment *e = &m->ent[i];
		uint32_t key = 0;
		for (size_t j = 0; j < e->q; j++)
			key |= (uint32_t)m->pat[e->pat].str[e->off + j] << (8 * j);
		uint32_t h = mhash((key | fold32) & qmask[e->q], e->q);
		uint32_t x = (key | fold32) & 0xffff;
		for (uint32_t c = 0; e->q <= 2 && c < (e->q == 1 ? 256u : 1u);
		    c++) {
			uint32_t y = e->q == 1 ? (x & 0xff) | c << 8 : x;
			m->pre[y / 64] |= (uint64_t)1 << (y % 64);
		}
		if (e->q >= 3) {
			uint32_t y = pre3_hash((key | fold32) & 0xffffff);
			m->pre3[y / 64] |= (uint64_t)1 << (y % 64);
		}
		size_t bit = h >> (32 - m->bbits);
		m->bits[bit / 64] |= (uint64_t)1 << (bit % 64);
		hb[i] = h >> (32 - m->hbits);
		m->start[hb[i] + 1]++;
	}
	for (size_t b = 0; b < ((size_t)1 << m->hbits); b++)
		m->start[b + 1] += m->start[b];
	{
		uint32_t *fill = xmalloc(((size_t)1 << m->hbits) * sizeof(*fill));
		memcpy(fill, m->start, ((size_t)1 << m->hbits) * sizeof(*fill));
		for (size_t i = 0; i < m->nent; i++)
			sorted[fill[hb[i]]++] = m->ent[i];
		free(fill);
	}
	free(hb);
	free(m->ent);
	m->ent = sorted;
	return m;
}

void
mf_free(struct mflt *m)
{
	if (m == NULL)
		return;
	free(m->in);
	free(m->out);
	free(m->bits);
	free(m->start);
	free(m->ent);
	free(m->pv);
	free(m);
}

/*
 * The filter of ps for terminator eol (automatic thresholds), built on the
 * first call and cached in ps->multi: a cache, so the const set is written
 * there, under a lock, once.  NULL when the cached one was built for
 * another terminator or with force (the tests' engines).
 */
const struct mflt *
mf_get(const struct patset *ps, unsigned char eol)
{
	static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
	struct mflt **slot = &((struct patset *)ps)->multi;
	struct mflt *m = __atomic_load_n(slot, __ATOMIC_ACQUIRE);

	if (m == NULL) {
		pthread_mutex_lock(&mu);
		if ((m = *slot) == NULL) {
			const double t0 = util_thread_cpu();
			m = mf_build(ps, eol, 0);
			util_build_cpu += util_thread_cpu() - t0;
			__atomic_store_n(slot, m, __ATOMIC_RELEASE);
		}
		pthread_mutex_unlock(&mu);
	}
	return m->eol == eol && !m->force ? m : NULL;
}

/* The filter hm_scan runs by default for ps, or NULL (too few patterns). */
const struct mflt *
mf_auto(const struct patset *ps, unsigned char eol)
{
	const struct mflt *m;

	if (ps->npat < MF_MINPAT || (m = mf_get(ps, eol)) == NULL ||
	    m->nin < MF_MINPAT)
		return NULL;
	return m;
}

/* The number of patterns covered; *work (if not NULL): the Myers words of
 * the patterns left to the engines. */
size_t
mf_covered(const struct mflt *m, const struct patset *ps, size_t *work)
{
	if (work != NULL) {
		*work = 0;
		for (size_t p = 0; p < ps->npat; p++)
			if (m == NULL || !m->in[p])
				*work += ps->pat[p].nwords;
	}
	return m != NULL ? m->nin : 0;
}

int
mf_covers(const struct mflt *m, size_t p)
{
	return m->in[p];
}

/* The patterns not covered, in increasing order; *n: how many. */
const size_t *
mf_uncovered(const struct mflt *m, size_t *n)
{
	*n = m->npat - m->nin;
	return m->out;
}

/* Whether the piece occurs at t[i] (i + len <= end of the record). */
static inline int
piece_at(const struct mflt *m, const struct ment *e, const unsigned char *t,
    size_t i, size_t all)
{
	const unsigned char *s = m->pat[e->pat].str + e->off;
	size_t j = 0;

	if (i + 8 <= all) {
		uint64_t w;
		memcpy(&w, t + i, 8);
		if (((w | e->mask) & e->lmask) != e->word)
			return 0;
		j = 8;
	}
	for (; j < e->len; j++)
		if (m->icase ? ascii_fold(t[i + j]) != ascii_fold(s[j]) : t[i + j] != s[j])
			return 0;
	return 1;
}

/* mf_walk.q when no position is being looked at. */
#define MF_NOQ	5
#define MF_LEFT	UINT32_MAX

/* A thread's costs for its walks (one at a time: a walk begun inside
 * another makes its own), kept from walk to walk with the patterns whose
 * cost a walk set: refine.c walks every record with a hit, and 13,523
 * words' costs, made and cleared for each, were a quarter of a -x -f run
 * over 34 MB. */
static __thread uint32_t *walk_cost;
static __thread size_t *walk_touched, walk_cap;
static __thread int walk_busy;

/*
 * Sets up w for a walk over the records of text[0, warm + len) (the first
 * warm bytes are warm-up, as for hm_scan); returns 0 when there is nothing
 * to propose (no piece, no text): mf_end then returns NULL.  Else mf_end
 * ends it.
 */
int
mf_start(struct mf_walk *w, const struct mflt *m, const unsigned char *text,
    size_t warm, size_t len)
{
	memset(w, 0, sizeof(*w));
	w->m = m;
	w->t = text;
	w->warm = warm;
	w->all = warm + len;
	w->q = MF_NOQ;
	if (m->nent == 0 || len == 0)
		return 0;
	if (!walk_busy) {
		if (walk_cap < m->npat) {
			free(walk_cost);
			walk_cost = xcalloc(m->npat, sizeof(*walk_cost));
			walk_touched = xreallocarray(walk_touched, m->npat,
			    sizeof(*walk_touched));
			walk_cap = m->npat;
		}
		walk_busy = 1;
		w->cost = walk_cost;
		w->touched = walk_touched;
	} else
		w->cost = xcalloc(m->npat, sizeof(*w->cost));
	w->limit = len / MF_DENSITY + MF_SLACK > UINT32_MAX - 1 ?
	    UINT32_MAX - 1 : (uint32_t)(len / MF_DENSITY + MF_SLACK);
	return 1;
}

/* The next record that can hold a piece becomes w's; 0 at the end, or
 * when every pattern left (the engines do it all). */
static int
next_record(struct mf_walk *w)
{
	const struct mflt *m = w->m;

	while (w->next < w->all && w->nleft < m->nin) {
		const unsigned char *e = memchr(w->t + w->next, m->eol,
		    w->all - w->next);
		size_t rs = w->next, re = e != NULL ? (size_t)(e - w->t) :
		    w->all;
		w->next = re + 1;
		if (re > w->warm && re - rs >= m->qmin) {
			w->rs = rs;
			w->re = re;
			w->i = rs;
			w->last = re - m->qmin;
			return 1;
		}
	}
	return 0;
}

/*
 * Moves w->i to the next position of the record that may start a piece;
 * 0 past its last one.  A position goes further only when its first two
 * bytes begin some piece of 1-2 bytes (the pre table: 8 KB, in L1) or its
 * first three bytes hash where some longer piece's do (pre3, 8 KB): on the
 * Bible, two bytes alone let half of the positions through.  Four bytes
 * load while i + 4 <= all; the last few positions all go further.
 */
static int
next_position(struct mf_walk *w)
{
	const struct mflt *m = w->m;
	const unsigned char *t = w->t;
	const uint32_t fold32 = m->icase ? 0x20202020u : 0;
	size_t i = w->i, last = w->last;

	for (; i <= last && i + 4 <= w->all; i++) {
		uint32_t x, y;
		memcpy(&x, t + i, 4);
		x |= fold32;
		y = pre3_hash(x & 0xffffff);
		x &= 0xffff;
		if ((m->pre[x / 64] >> (x % 64) & 1) ||
		    (m->pre3[y / 64] >> (y % 64) & 1))
			break;
	}
	w->i = i;
	return i <= last;
}

/*
 * The window of pattern e->pat around its piece at text[i], inside the
 * record [rs, re): every match holding the piece there lies in it.
 * Returns 0 when it cannot set a bit, or when the pattern left (now or
 * before: its windows passed the limit, and the engines scan the chunk
 * for it).
 */
static int
propose(struct mf_walk *w, const struct ment *e, struct mf_win *win)
{
	const struct mflt *m = w->m;
	const struct pattern *pat = &m->pat[e->pat];
	const size_t k = (size_t)m->k, i = w->i;
	size_t ws, we;
	uint32_t *c = &w->cost[e->pat];

	if (*c == MF_LEFT)
		return 0;
	ws = i >= w->rs + e->off + k ? i - e->off - k : w->rs;
	we = i + (pat->len - e->off) + k;
	if (we > w->re)
		we = w->re;
	if (we <= w->warm)
		return 0;
	if (!m->force) {
		if (*c == 0 && w->touched != NULL && w->ntouched < m->npat)
			w->touched[w->ntouched++] = e->pat;
		*c += (uint32_t)(we - ws);
		if (*c > w->limit) {
			*c = MF_LEFT;
			w->nleft++;
			return 0;
		}
	}
	win->pat = e->pat;
	win->ws = ws;
	win->we = we;
	return 1;
}

/*
 * The next window at position w->i: the pieces whose keys of each length
 * q (w->q on) occur there, bucket entry w->x on.  0 when the position has
 * no more.
 */
static int
position(struct mf_walk *w, struct mf_win *win)
{
	const struct mflt *m = w->m;
	const size_t i = w->i;

	for (;;) {
		while (w->x < w->xend) {
			const struct ment *e = &m->ent[w->x++];
			if (e->q != w->q || i + e->len > w->re ||
			    !piece_at(m, e, w->t, i, w->all))
				continue;
			if (propose(w, e, win))
				return 1;
		}
		if (++w->q > 4 || i + w->q > w->re) {
			w->q = MF_NOQ;
			return 0;
		}
		w->x = w->xend = 0;
		if (!(m->qset >> w->q & 1))
			continue;
		uint32_t h = mhash(w->key & qmask[w->q], w->q);
		uint32_t bit = h >> (32 - m->bbits);
		if (!(m->bits[bit / 64] >> (bit % 64) & 1))
			continue;
		uint32_t b = h >> (32 - m->hbits);
		w->x = m->start[b];
		w->xend = m->start[b + 1];
	}
}

/*
 * The next window to verify, in text order: Myers for pattern win->pat
 * over text[win->ws, win->we) from a fresh state, whose first match
 * ending at or after warm (if any) is its record's hit: the caller sets
 * its bit and calls mf_found.  Returns 0 at the end of the chunk.  One
 * window at a time, since a match ends the record's walk: the windows
 * after it are never proposed, nor counted against their patterns.
 */
int
mf_next(struct mf_walk *w, struct mf_win *win)
{
	for (;;) {
		if (w->q != MF_NOQ) {
			if (position(w, win))
				return 1;
			w->i++;
		}
		if (w->rs < w->re && next_position(w)) {
			w->key = key_at(w->t, w->i, w->all) |
			    (w->m->icase ? 0x20202020u : 0);
			w->q = w->m->qmin - 1;
			w->x = w->xend = 0;
			continue;
		}
		w->rs = w->re = 0;
		if (!next_record(w))
			return 0;
	}
}

/* The text mf_start was given is one record (no terminator in it): its
 * walk begins without looking for its end (refine.c: a long record's
 * parts, each its own walk, looked through the rest of it each time). */
void
mf_one_record(struct mf_walk *w)
{
	const struct mflt *m = w->m;

	if (w->next != 0 || w->all <= w->warm || w->nleft >= m->nin)
		return;
	w->next = w->all + 1;
	if (w->all >= m->qmin) {
		w->rs = 0;
		w->re = w->all;
		w->i = 0;
		w->last = w->all - m->qmin;
	}
}

/* The walk goes on at text[i] of the record (no earlier piece is looked
 * at): the caller knows no window of a piece before it can hold a match
 * (refine.c's first_walk). */
void
mf_skip(struct mf_walk *w, size_t i)
{
	if (w->rs < w->re && i > w->i) {
		w->q = MF_NOQ;
		w->i = i;
	}
}

/* The last window held a match: the walk goes on at the next record. */
void
mf_found(struct mf_walk *w)
{
	w->q = MF_NOQ;
	w->rs = w->re = 0;
}

/*
 * Ends the walk; returns NULL, or an array of npat flags (to free) marking
 * the covered patterns that left the filter in this chunk: the caller
 * scans the chunk for them.
 */
unsigned char *
mf_end(struct mf_walk *w)
{
	const struct mflt *m = w->m;
	unsigned char *left = NULL;

	if (w->nleft > 0) {
		left = xcalloc(m->npat, 1);
		for (size_t p = 0; p < m->npat; p++)
			left[p] = w->cost[p] == MF_LEFT ||
			    (w->nleft == m->nin && m->in[p]);
	}
	if (w->touched != NULL) {
		for (size_t i = 0; i < w->ntouched; i++)
			w->cost[w->touched[i]] = 0;
		walk_busy = 0;
	} else
		free(w->cost);
	w->cost = NULL;
	w->touched = NULL;
	w->ntouched = 0;
	return left;
}

/* Pattern p as the verifier's vector: 64 bytes, folded under -i,
 * zero-padded, 64-byte aligned (patterns the filter covers). */
const unsigned char *
mf_vector(const struct mflt *m, size_t p)
{
	return m->pv + 64 * p;
}
