/*
 * prefilter.c: re_scan, an automaton's scan behind a prefilter: pieces of
 * the literal runs every word of the language holds (build.c:
 * literal_runs), k + 1 disjoint ones so that a match with k edits holds
 * one exactly, chosen on a sample of the text (pieces, rare_pieces,
 * choose_pieces) and found by find_piece; only the records holding one go
 * through the automaton (scan.c: re_scan_all).  Anchored automata are
 * scanned in windows instead (scan.c: re_scan_window).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "regex_int.h"
#include "../base/util.h"

#define RE_MINPIECE	3	/* the prefilter's shortest piece */
#define RE_MAXPIECES	16
#define LOOSE_JUDGE	((size_t)64 << 10) /* loose_scan's first block */

/* The pieces of length len that group g (its strings from the o-th) gives:
 * as many as its shortest string holds. */
static size_t
group_pieces(const struct re_nfa *a, size_t g, size_t o, size_t len)
{
	size_t n = SIZE_MAX;

	for (size_t s = o; s < o + a->segalt[g]; s++)
		if (a->seglen[s] / len < n)
			n = a->seglen[s] / len;
	return n;
}

/*
 * Cuts the groups of literal strings into k + 1 disjoint pieces as long as
 * they can be (all of one length, at least RE_MINPIECE), the groups of
 * fewest strings first; returns the number of strings to look for (0: no
 * prefilter), their starts in a->seg in at[], their length in *plen.
 */
static size_t
pieces(const struct re_nfa *a, long k, unsigned char eol, size_t *at,
    size_t *plen)
{
	size_t want = (size_t)k + 1, best = 0, n = 0;

	if (a->seg == NULL || want > RE_MAXPIECES)
		return 0;
	for (size_t len = RE_MINPIECE; best + 1 == len || len == RE_MINPIECE;
	    len++) {
		size_t got = 0;
		for (size_t g = 0, o = 0; g < a->ngrp; o += a->segalt[g++])
			got += group_pieces(a, g, o, len);
		if (got >= want)
			best = len;
	}
	if (best == 0)
		return 0;
	for (size_t m = 1, slots = 0; m <= RE_MAXPIECES && slots < want; m++)
		for (size_t g = 0, o = 0; g < a->ngrp; o += a->segalt[g++]) {
			if (a->segalt[g] != m)
				continue;
			size_t gp = group_pieces(a, g, o, best);
			for (size_t j = 0; j < gp && slots < want; j++, slots++)
				for (size_t s = o; s < o + m; s++) {
					size_t off = 0;
					for (size_t t = 0; t < s; t++)
						off += a->seglen[t];
					if (n == RE_MAXPIECES)
						return 0;
					at[n++] = off + j * best;
				}
		}
	for (size_t i = 0; i < n; i++)
		if (memchr(a->seg + at[i], eol, best) != NULL)
			return 0;
	*plen = best;
	return n;
}

/*
 * memmem, with every unit or'ed with fold (0x20 for -i, else 0) on both
 * sides: ASCII letters compare without case, and the few other units that
 * meet so ('@' and '`', symbols 0x80 and 0xa0 in UTF-8 mode, whose -i
 * folding is in the symbols already) only make candidates the automaton
 * rejects.  The piece's units at o1 and o2 (its rarest in the text, or
 * its first and last) are compared 16 positions at a time.  (Faster than glibc's memmem on these pieces: 2-core EPYC, 86 MB
 * of Bible, -c -E -k1 'mercy.*ever' 0.27 s with memmem, 0.10 s with -i.)
 */
static const unsigned char *
find_piece(const unsigned char *t, size_t n, const unsigned char *p,
    size_t plen, unsigned char fold, size_t o1, size_t o2)
{
	typedef unsigned char v16 __attribute__((vector_size(16)));
	const v16 f = (v16){ 0 } + fold;
	const v16 first = (v16){ 0 } + (unsigned char)(p[o1] | fold);
	const v16 last = (v16){ 0 } + (unsigned char)(p[o2] | fold);
	size_t i = 0;

	if (plen > n)
		return NULL;
	for (; i + 16 + plen - 1 <= n; i += 16) {
		v16 a, b;
		memcpy(&a, t + i + o1, 16);
		memcpy(&b, t + i + o2, 16);
		v16 m = ((a | f) == first) & ((b | f) == last);
		uint64_t lo, hi;
		memcpy(&lo, &m, 8);
		memcpy(&hi, (const unsigned char *)&m + 8, 8);
		if ((lo | hi) == 0)
			continue;
		for (size_t j = 0; j < 16; j++) {
			size_t q = 0;
			if (((const unsigned char *)&m)[j] == 0)
				continue;
			while (q < plen && ((t[i + j + q] ^ p[q]) | fold) ==
			    fold)
				q++;
			if (q >= plen)
				return t + i + j;
		}
	}
	for (; i + plen <= n; i++) {
		size_t q = 0;
		while (q < plen && ((t[i + q] ^ p[q]) | fold) == fold)
			q++;
		if (q == plen)
			return t + i;
	}
	return NULL;
}

/* Occurrences of piece p in t[0, n) (fold as find_piece's). */
static size_t
piece_count(const unsigned char *t, size_t n, const unsigned char *p,
    size_t plen, unsigned char fold)
{
	size_t c = 0;

	for (const unsigned char *f = t; (f = find_piece(f, n - (size_t)(f -
	    t), p, plen, fold, 0, plen - 1)) != NULL; f++)
		c++;
	return c;
}

#define RP_SAMPLE	((size_t)16 << 10) /* bytes of text counted in */
#define RP_MAXLEN	8	/* longer pieces: counted by their start */
#define RP_MAXSTR	64	/* strings longer: not cut */

#define RP_MAXSTRS	64	/* strings looked at */

/*
 * The rarest k + 1 pieces (fewest occurrences in the sample t[0, n), the
 * counts summed) that the groups can be cut into: each string whole or
 * cut into consecutive pieces of 2 units or more; a group of alternatives
 * into q pieces by cutting each of its strings into q, its j-th piece
 * being the set of their j-th pieces (a word holds one of them where the
 * group is); a span of adjacent groups (re_nfa.span) likewise, as one
 * group of their concatenations.  "mercy.*ever" at k = 2: "mer", "cy" and
 * "ever" (pieces' are "me", "rc" and "ev"); "And (he|she|they) (said|
 * spake) unto ..." at k = 1: "And he ", "And she ", "And they " and "said
 * unto ", "spake unto ".  At most RE_MAXPIECES strings in all.  Returns
 * their number (0: they cannot be had), their starts in a->seg in at[] and
 * lengths in len[].
 */
static size_t
rare_pieces(const struct re_nfa *a, long k, unsigned char eol,
    const unsigned char *t, size_t n, size_t *at, size_t *len)
{
	const size_t want = (size_t)k + 1, M = RE_MAXPIECES;
	const unsigned char fold = a->icase ? 0x20 : 0;
	const size_t INF = SIZE_MAX / 4, ng = a->ngrp;
	size_t soff[RP_MAXSTRS], slen[RP_MAXSTRS], ns = 0;
	/* the units a choice is made of: a group or a span, groups g0 to g1,
	 * their ustr strings from soff[ufirst] on */
	size_t ug0[2 * RP_MAXSTRS], ug1[2 * RP_MAXSTRS], ufirst[2 *
	    RP_MAXSTRS], ustr[2 * RP_MAXSTRS], nu = 0;

	if (want > M || ng == 0)
		return 0;
	size_t nall = a->nseg;
	if (a->nspan > 0)
		nall = a->span[4 * (a->nspan - 1) + 2] +
		    a->span[4 * (a->nspan - 1) + 3];
	size_t *off = xcalloc(nall + 1, sizeof(*off));
	for (size_t x = 0; x < nall; x++)
		off[x + 1] = off[x] + a->seglen[x];
	for (size_t g = 0, o = 0; g < ng + a->nspan; g++) {
		size_t g0 = g, g1 = g, first = o, m;
		if (g < ng) {
			m = a->segalt[g];
			o += m;
		} else {
			const size_t *sp = a->span + 4 * (g - ng);
			g0 = sp[0];
			g1 = sp[1];
			first = sp[2];
			m = sp[3];
		}
		size_t ok = m <= M && ns + m <= RP_MAXSTRS;
		for (size_t x = first; x < first + m && ok; x++)
			ok = a->seglen[x] >= 2 && a->seglen[x] <= RP_MAXSTR &&
			    memchr(a->seg + off[x], eol, a->seglen[x]) == NULL;
		if (!ok)
			continue;
		ug0[nu] = g0;
		ug1[nu] = g1;
		ufirst[nu] = ns;
		ustr[nu++] = m;
		for (size_t x = first; x < first + m; x++) {
			soff[ns] = off[x];
			slen[ns++] = a->seglen[x];
		}
	}
	free(off);
	if (nu == 0)
		return 0;
	/* dp[s][p][i]: the least count of string s's first i units cut in p
	 * pieces, from[s][p][i] the last one's start; cnt[i][j]: the count
	 * of units i to j of the string at hand */
	size_t (*dp)[RE_MAXPIECES + 1][RP_MAXSTR + 1] = xcalloc(ns,
	    sizeof(*dp));
	unsigned char (*from)[RE_MAXPIECES + 1][RP_MAXSTR + 1] = xcalloc(ns,
	    sizeof(*from));
	size_t (*cnt)[RP_MAXSTR + 1] = xcalloc(RP_MAXSTR + 1, sizeof(*cnt));
	for (size_t s = 0; s < ns; s++) {
		const unsigned char *u = a->seg + soff[s];
		const size_t L = slen[s];
		for (size_t i = 0; i < L; i++)
			for (size_t j = i + 2; j <= L; j++)
				cnt[i][j] = j - i > RP_MAXLEN ?
				    cnt[i][i + RP_MAXLEN] :
				    piece_count(t, n, u + i, j - i, fold);
		for (size_t p = 0; p <= M; p++)
			for (size_t i = 0; i <= L; i++)
				dp[s][p][i] = p == 0 && i == 0 ? 0 : INF;
		for (size_t p = 1; p <= want && 2 * p <= L; p++)
			for (size_t i = 2 * p; i <= L; i++)
				for (size_t j = 2 * (p - 1); j + 2 <= i; j++) {
					if (dp[s][p - 1][j] == INF)
						continue;
					size_t c = dp[s][p - 1][j] + cnt[j][i];
					if (c < dp[s][p][i]) {
						dp[s][p][i] = c;
						from[s][p][i] = (unsigned char)j;
					}
				}
	}
	/* the units' pieces together, left to right over the groups (a unit
	 * takes its groups, a group may be left out): exactly want pieces,
	 * at most M strings, least in all (a string's pieces cover it
	 * whole: longer pieces are rarer); tot[g][p][c]: over the groups
	 * before g, p pieces of c strings, reached from group back[] with
	 * unit how[] - 1 (0: none) cut in q[] */
	const size_t cells = (ng + 1) * (M + 1) * (M + 1);
	size_t *tot = xcalloc(cells, sizeof(*tot));
	unsigned short *back = xcalloc(cells, sizeof(*back));
	unsigned char *how = xcalloc(cells, 1), *qq = xcalloc(cells, 1);
#define RP_AT(g, p, c)	(((g) * (M + 1) + (p)) * (M + 1) + (c))
	for (size_t x = 0; x < cells; x++)
		tot[x] = x == 0 ? 0 : INF;
	for (size_t g = 0; g < ng; g++)
		for (size_t p = 0; p <= want; p++)
			for (size_t c = 0; c <= M; c++) {
				const size_t here = tot[RP_AT(g, p, c)];
				if (here == INF)
					continue;
				if (here < tot[RP_AT(g + 1, p, c)]) {
					tot[RP_AT(g + 1, p, c)] = here;
					back[RP_AT(g + 1, p, c)] =
					    (unsigned short)g;
					how[RP_AT(g + 1, p, c)] = 0;
				}
				for (size_t u = 0; u < nu; u++) {
					if (ug0[u] != g)
						continue;
					for (size_t q = 1; p + q <= want &&
					    c + q * ustr[u] <= M; q++) {
						size_t cost = here;
						for (size_t s = ufirst[u]; s <
						    ufirst[u] + ustr[u]; s++)
							cost += dp[s][q][slen[s]];
						size_t to = RP_AT(ug1[u] + 1,
						    p + q, c + q * ustr[u]);
						if (cost < tot[to]) {
							tot[to] = cost;
							back[to] =
							    (unsigned short)g;
							how[to] =
							    (unsigned char)(u + 1);
							qq[to] = (unsigned char)q;
						}
					}
				}
			}
	size_t np = 0, bc = 0;
	for (size_t c = 1; c <= M; c++)
		if (tot[RP_AT(ng, want, c)] < tot[RP_AT(ng, want, bc)])
			bc = c;
	if (tot[RP_AT(ng, want, bc)] < INF) {
		for (size_t g = ng, p = want, c = bc; g > 0;) {
			const size_t x = RP_AT(g, p, c);
			if (how[x] > 0) {
				const size_t u = how[x] - 1, q = qq[x];
				for (size_t s = ufirst[u]; s < ufirst[u] +
				    ustr[u]; s++)
					for (size_t r = q, i = slen[s]; r > 0;
					    r--) {
						size_t j = from[s][r][i];
						at[np] = soff[s] + j;
						len[np++] = i - j;
						i = j;
					}
				p -= q;
				c -= q * ustr[u];
			}
			g = back[x];
		}
	}
#undef RP_AT
	free(tot);
	free(back);
	free(how);
	free(qq);
	free(dp);
	free(from);
	free(cnt);
	return np;
}

/* A thread's prefilter pieces of the last automata and k it scanned (the
 * choice is made on a sample of the first text it scans with them). */
#define RP_CACHE	4
static __thread struct {
	unsigned long	 id;
	long		 k;
	size_t		 n, at[RE_MAXPIECES], len[RE_MAXPIECES];
	unsigned char	 anc[2 * RE_MAXPIECES];
} rp_cache[RP_CACHE];
static __thread unsigned rp_next;

/*
 * The prefilter's next candidate: the record, at or after pos and before
 * to, that holds the first occurrence of one of the np pieces (starts at[]
 * in a->seg, lengths len[], the units find_piece compares first anc[2 i]
 * and anc[2 i + 1], or with anc NULL the first and the last); its start
 * in *ls, its end in *end.  next[]
 * keeps where each piece was found (SIZE_MAX - 1 before the first call,
 * SIZE_MAX: none left).  Returns 0 when there is none.
 */
static int
next_candidate(const struct re_nfa *a, const unsigned char *text, size_t pos,
    size_t to, unsigned char eol, const size_t *at, const size_t *len,
    const unsigned char *anc, size_t np, size_t *next, size_t *ls,
    size_t *end)
{
	size_t m = SIZE_MAX;

	for (size_t i = 0; i < np; i++) {
		if (next[i] == SIZE_MAX)
			continue;	/* none left */
		if (next[i] == SIZE_MAX - 1 || next[i] < pos) {
			const unsigned char *f = find_piece(text + pos, to -
			    pos, a->seg + at[i], len[i], a->icase ? 0x20 : 0,
			    anc ? anc[2 * i] : 0, anc ? anc[2 * i + 1] :
			    len[i] - 1);
			next[i] = f ? (size_t)(f - text) : SIZE_MAX;
		}
		if (next[i] < m)
			m = next[i];
	}
	if (m == SIZE_MAX)
		return 0;
	const unsigned char *b = memrchr(text + pos, eol, m - pos);
	const unsigned char *e = memchr(text + m, eol, to - m);
	*ls = b ? (size_t)(b - text) + 1 : pos;
	*end = e ? (size_t)(e - text) + 1 : to;
	return 1;
}

/* Bytes of t[0, n) in the records the prefilter would hand the automaton
 * with the np pieces at[], len[]. */
static size_t
sample_scanned(const struct re_nfa *a, const unsigned char *t, size_t n,
    unsigned char eol, const size_t *at, const size_t *len, size_t np)
{
	size_t next[RE_MAXPIECES], pos = 0, scanned = 0, ls, end;

	for (size_t i = 0; i < np; i++)
		next[i] = SIZE_MAX - 1;
	while (pos < n && next_candidate(a, t, pos, n, eol, at, len, NULL, np,
	    next, &ls, &end)) {
		scanned += end - ls;
		pos = end;
	}
	return scanned;
}

/*
 * The prefilter's pieces for a scan of t[0, n): their number (0: none),
 * their starts in a->seg in at[], their lengths in len[].  Where t is long
 * enough, chosen on its first RP_SAMPLE bytes (once a thread, for each
 * automaton and k): rare_pieces' where they would hand the automaton less
 * than half the bytes that pieces' would there (or, where pieces has
 * none, than half the sample: mercy.*ever at k = 3 finds "er", "ev", "cy"
 * and "mer" in most records, and is better scanned whole), else pieces'.
 * (The start of a text can mislead: in Genesis, "And " begins most
 * verses.)
 */
static size_t
choose_pieces(const struct re_nfa *a, long k, unsigned char eol,
    const unsigned char *t, size_t n, size_t *at, size_t *len,
    unsigned char *anc)
{
	size_t np, plen = 0, r, at2[RE_MAXPIECES], len2[RE_MAXPIECES];

	for (unsigned c = 0; c < RP_CACHE; c++)
		if (rp_cache[c].id == a->id && rp_cache[c].k == k) {
			memcpy(at, rp_cache[c].at, sizeof(rp_cache[c].at));
			memcpy(len, rp_cache[c].len, sizeof(rp_cache[c].len));
			memcpy(anc, rp_cache[c].anc, sizeof(rp_cache[c].anc));
			return rp_cache[c].n;
		}
	np = pieces(a, k, eol, at, &plen);
	for (size_t i = 0; i < np; i++) {
		len[i] = plen;
		anc[2 * i] = 0;
		anc[2 * i + 1] = (unsigned char)(plen - 1);
	}
	if (n < RP_SAMPLE)
		return np;	/* too little text to choose by */
	const size_t sn = RP_SAMPLE;
	size_t best = np > 0 ? sample_scanned(a, t, sn, eol, at, len, np) :
	    sn;
	if ((r = rare_pieces(a, k, eol, t, sn, at2, len2)) > 0 &&
	    sample_scanned(a, t, sn, eol, at2, len2, r) < best / 2) {
		np = r;
		memcpy(at, at2, sizeof(at2));
		memcpy(len, len2, sizeof(len2));
	}
	/* the two units find_piece compares first: the rarest in the
	 * sample (" said unto " begins and ends with a space) */
	const unsigned char fold = a->icase ? 0x20 : 0;
	size_t h[256] = { 0 };
	for (size_t i = 0; i < sn; i++)
		h[t[i] | fold]++;
	for (size_t i = 0; i < np; i++) {
		const unsigned char *u = a->seg + at[i];
		size_t o1 = 0, o2 = len[i] - 1;
		for (size_t j = 0; j < len[i]; j++)
			if (h[u[j] | fold] < h[u[o1] | fold])
				o1 = j;
		o2 = o1 == 0 ? 1 : 0;
		for (size_t j = 0; j < len[i]; j++)
			if (j != o1 && h[u[j] | fold] < h[u[o2] | fold])
				o2 = j;
		anc[2 * i] = (unsigned char)o1;
		anc[2 * i + 1] = (unsigned char)o2;
	}
	unsigned c = rp_next++ % RP_CACHE;
	rp_cache[c].id = a->id;
	rp_cache[c].k = k;
	rp_cache[c].n = np;
	memcpy(rp_cache[c].at, at, sizeof(rp_cache[c].at));
	memcpy(rp_cache[c].len, len, sizeof(rp_cache[c].len));
	memcpy(rp_cache[c].anc, anc, sizeof(rp_cache[c].anc));
	return np;
}

/*
 * re_scan with the prefilter: only the records holding one of the pieces
 * exactly (without case with -i) go through the automaton.  When they
 * turn out to be most of the text, the rest is scanned whole.
 */
/*
 * An automaton with assertions, by its loose automaton (build.c:
 * loose_nfa) where the lanes take that: the loose scan (prefilter, lanes)
 * marks every record that can hold a match, and only those go through the
 * assertion scan (scan_as.c, 150-250 MB/s a core).  The Bible x8, -c -k2
 * \<mercy, 2-core EPYC: 0.19 s by the assertion scan alone.  Returns -1
 * (nothing done) where it does not apply.
 */
static int
loose_scan(const struct re_nfa *a, long k, const unsigned char *text,
    size_t from, size_t to, size_t warm, unsigned char eol, uint64_t *bitmap)
{
	const struct re_nfa *l = a->loose;

	if (l == NULL || k < 0 || to <= warm || !re_lanes_take(l, k, eol))
		return -1;
	uint64_t *cand = xcalloc((to - warm + 63) / 64 + 1, sizeof(*cand));
	struct re_nfa *const one[1] = { (struct re_nfa *)a };
	size_t pos = from, done = 0, checked = 0;

	/* blocks of whole records; where the loose scan marks most of the
	 * text (\<the\> -k1: 70%), it only costs, and the rest goes
	 * through the assertion scan whole */
	while (pos < to) {
		size_t end = done == 0 && to - pos > LOOSE_JUDGE ?
		    record_end(text, pos + LOOSE_JUDGE, to, eol) : to;
		end += end < to;
		if (done >= LOOSE_JUDGE && checked > done / 2) {
			re_scan_all(a, k, text, pos, to, warm, eol, bitmap);
			break;
		}
		re_scan(l, k, text, pos, end, warm, eol, cand);
		checked += re_verify_records(one, 1, NULL, k, cand, 0, text,
		    pos, end, warm, eol, 1, bitmap);
		done += end - pos;
		pos = end;
	}
	free(cand);
	return 0;
}

/* What re_scan does without its pieces: an automaton with assertions by
 * its loose automaton where that applies, else the automaton's scan. */
static void
scan_whole(const struct re_nfa *a, long k, const unsigned char *text,
    size_t from, size_t to, size_t warm, unsigned char eol, uint64_t *bitmap)
{
	if (loose_scan(a, k, text, from, to, warm, eol, bitmap) == -1)
		re_scan_all(a, k, text, from, to, warm, eol, bitmap);
}

/* A part of the text with the costs cw: on the lanes where they take it
 * (a part as long as RE_LANES_MIN), else by the weighted scan; without
 * costs (cw NULL), a candidate region (re_scan_all) or the text the pieces
 * give up on (scan_whole). */
static void
scan_part(const struct re_nfa *a, const struct re_costs *cw, long k,
    int whole, const unsigned char *text, size_t from, size_t to, size_t warm,
    unsigned char eol, uint64_t *bitmap)
{
	if (cw == NULL && whole)
		scan_whole(a, k, text, from, to, warm, eol, bitmap);
	else if (cw == NULL)
		re_scan_all(a, k, text, from, to, warm, eol, bitmap);
	else if (re_scan_lanes_w(a, cw, k, text, from, to, warm, eol,
	    bitmap) == -1)
		re_scan_weighted(a, cw, k, text, from, to, warm, eol, 0,
		    bitmap);
}

/* re_scan, and with the costs cw re_scan_w: the pieces for the edits a
 * match can hold. */
static void
prefiltered(const struct re_nfa *a, const struct re_costs *cw, long k,
    const unsigned char *text, size_t from, size_t to, size_t warm,
    unsigned char eol, uint64_t *bitmap)
{
	size_t at[RE_MAXPIECES], len[RE_MAXPIECES], next[RE_MAXPIECES], np;
	size_t pos = from, scanned = 0, ls, end;
	unsigned char anc[2 * RE_MAXPIECES];
	const long edits = cw != NULL && k >= 0 ? re_costs_edits(cw, k) : k;

	if (edits < 0 || (np = choose_pieces(a, edits, eol, text + from,
	    to - from, at, len, anc)) == 0) {
		scan_part(a, cw, k, 1, text, from, to, warm, eol, bitmap);
		return;
	}
	for (size_t i = 0; i < np; i++)
		next[i] = SIZE_MAX - 1;		/* not looked for yet */
	/* the share of the text past which the filter only costs: half,
	 * an eighth when the rest would go on lanes (relanes.c: 5-8x the
	 * one-word scan, 2-core EPYC), judged after 64 KB, 16 KB then (the
	 * planner's probe times 64 KB: it saw 334 MB/s a worker where the
	 * ranges ran at 945, one H200 machine's Xeon, -k1 [A-Z][a-z]+ of
	 * [A-Z][a-z]+, and opened the GPU for nothing) */
	const int lanes = cw != NULL ? re_lanes_take_w(a, cw, k, eol) :
	    re_lanes_take(a, k, eol);
	const size_t share = lanes ? 8 : 2, after = lanes ? 16384 : 65536;
	while (pos < to && next_candidate(a, text, pos, to, eol, at, len, anc,
	    np, next, &ls, &end)) {
		scan_part(a, cw, k, 0, text, ls, end, warm, eol, bitmap);
		scanned += end - ls;
		pos = end;
		/* candidates everywhere: the filter only costs */
		if (pos - from >= after && scanned > (pos - from) / share) {
			scan_part(a, cw, k, 1, text, pos, to, warm, eol,
			    bitmap);
			return;
		}
	}
}

void
re_scan(const struct re_nfa *a, long k, const unsigned char *text,
    size_t from, size_t to, size_t warm, unsigned char eol, uint64_t *bitmap)
{
	if (windowed(a, k)) {
		re_scan_window(a, k, text, from, to, warm, eol, bitmap);
		return;
	}
	size_t nb = 0;
	while (nb < a->nbranch && windowed(a->branch[nb], k))
		nb++;
	if (nb > 0 && nb == a->nbranch) {
		for (size_t i = 0; i < nb; i++)
			re_scan_window(a->branch[i], k, text, from, to, warm,
			    eol, bitmap);
		return;
	}
	prefiltered(a, NULL, k, text, from, to, warm, eol, bitmap);
}

/* re_scan with the costs cw (k the most total cost), for an automaton the
 * weighted lanes take (re_lanes_take_w: no anchors, no assertions). */
void
re_scan_w(const struct re_nfa *a, const struct re_costs *cw, long k,
    const unsigned char *text, size_t from, size_t to, size_t warm,
    unsigned char eol, uint64_t *bitmap)
{
	prefiltered(a, cw, k, text, from, to, warm, eol, bitmap);
}
