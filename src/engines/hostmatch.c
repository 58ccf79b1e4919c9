/*
 * hostmatch.c: Myers' bit-parallel approximate matching (J. ACM 46(3), 1999)
 * in plain C, with the same semantics and variable names as kernels/myers.cl.
 * It is the fast twin of the tests' DP oracle and the engine for inputs so
 * small that starting OpenCL would dominate.
 *
 * It is also the host matcher's planner and verifier.  hm_scan chooses, for
 * each pattern of a chunk, the engine that scans it (this scalar one, the
 * SIMD lanes of simd.c, the pattern-parallel pp.c) or a filter: the pigeonhole filter (filter.c) proposes candidate
 * records, the shared one (multi.c) candidate windows, and the engines here
 * verify them; a filter that gives up says so, and the planner has the
 * engines scan the rest.  Calls go one way: filters and engines call
 * nothing of this module.
 */
#include <pthread.h>
#include <stdlib.h>
#include <ctype.h>
#include <string.h>

#include "hostmatch.h"
#include "simd.h"
#include "filter.h"
#include "multi.h"
#include "seed.h"
#include "pp.h"
#include "hplan.h"
#include "../base/cpu.h"
#include "../regex/regex.h"
#include "../base/util.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define HM_X86 1
#include <immintrin.h>
#endif

/* The pigeonhole filter's candidates verified a batch at a time: a list
 * on the stack, whatever the chunk's length. */
#ifndef HM_FILTER_BATCH
#define HM_FILTER_BATCH	64
#endif

/* A verification of the pigeonhole filter's candidate records: Myers
 * (verify_range), or the count of --no-indels (verify_hamming). */
typedef void verify_fn(const struct pattern *, long, const unsigned char *,
    size_t, size_t, size_t, unsigned char, uint64_t *, int);
static int filter_run(const struct pattern *, long, int,
    const unsigned char *, size_t, size_t, unsigned char, uint64_t *, int,
    int, int, verify_fn *);

/* Sets bit j of the bitmap. */
static inline void
hit(uint64_t *bitmap, size_t j)
{
	bitmap[j / 64] |= (uint64_t)1 << (j % 64);
}

/* One pattern of up to 64 bytes: one word of state, VP, VN and score
 * at from. */
static void
scan_word_from(const struct pattern *pat, long k, const unsigned char *text,
    size_t from, size_t to, size_t warm, unsigned char eol, uint64_t *bitmap,
    uint64_t VP, uint64_t VN, long score)
{
	const uint64_t *PEq = pat->peq;
	const uint64_t last = (uint64_t)1 << (pat->len - 1);
	const long n = (long)pat->len;

	for (size_t i = from; i < to; i++) {
		unsigned char c = text[i];
		uint64_t Eq = PEq[c];
		score += myers_step(Eq, &VP, &VN, last);
		if (c == eol) {
			VP = ~(uint64_t)0;
			VN = 0;
			score = n;
		}
		if (score <= k && i >= warm)
			hit(bitmap, i - warm);
	}
}

/* ... from a fresh state. */
static void
scan_word(const struct pattern *pat, long k, const unsigned char *text,
    size_t from, size_t to, size_t warm, unsigned char eol, uint64_t *bitmap)
{
	scan_word_from(pat, k, text, from, to, warm, eol, bitmap,
	    ~(uint64_t)0, 0, (long)pat->len);
}

/*
 * Advances block b (rows 64 b + 1 ...) by one text byte given Eq and the
 * horizontal delta hin (-1, 0, +1) entering its top row; returns the delta
 * leaving its bottom row, the bit 'out' (Myers 1999, Advance_Block).
 */
static inline int
advance_block(uint64_t *VPb, uint64_t *VNb, uint64_t Eq, int hin,
    uint64_t out)
{
	uint64_t VP = *VPb, VN = *VNb;
	uint64_t X = Eq | VN;
	int hout;

	if (hin < 0)
		Eq |= 1;
	uint64_t D0 = (((Eq & VP) + VP) ^ VP) | Eq;
	uint64_t HP = VN | ~(D0 | VP);
	uint64_t HN = VP & D0;

	hout = (HP & out) ? 1 : (HN & out) ? -1 : 0;
	HP <<= 1;
	HN <<= 1;
	if (hin < 0)
		HN |= 1;
	else if (hin > 0)
		HP |= 1;
	*VPb = HN | ~(X | HP);
	*VNb = HP & X;
	return hout;
}

/*
 * Longer patterns: Myers' blocks of 64 rows with carries between them, and
 * Ukkonen's cut-off: only blocks 0..y are computed, y being the last block
 * that can still hold a cell <= k.  score[b] is the value at the bottom row
 * of block b (row n for the last one).
 */
static void
scan_blocks(const struct pattern *pat, long k, const unsigned char *text,
    size_t from, size_t to, size_t warm, unsigned char eol, uint64_t *bitmap)
{
	const size_t nw = pat->nwords, lastb = nw - 1;
	const uint64_t *PEq = pat->peq;
	uint64_t VP[PAT_MAXWORDS], VN[PAT_MAXWORDS];
	long score[PAT_MAXWORDS], rows[PAT_MAXWORDS];
	uint64_t out[PAT_MAXWORDS];
	size_t y0 = (size_t)(k + 1 + 63) / 64 - 1, y;

	if (y0 > lastb)
		y0 = lastb;
	for (size_t b = 0; b < nw; b++) {
		rows[b] = b == lastb ? (long)(pat->len - 64 * b) : 64;
		out[b] = (uint64_t)1 << (rows[b] - 1);
	}
	y = nw;		/* forces the reset below */
	for (size_t i = from; i < to; i++) {
		unsigned char c = text[i];

		if (y == nw || c == eol) {
			/* Reset: D[i][j] = i, the start of a record. */
			for (size_t b = 0; b < nw; b++) {
				VP[b] = ~(uint64_t)0;
				VN[b] = 0;
				score[b] = (b ? score[b - 1] : 0) + rows[b];
			}
			y = y0;
			if (c == eol)
				continue;
		}
		const uint64_t *Eq = PEq + (size_t)c * nw;
		int carry = 0;
		for (size_t b = 0; b <= y; b++) {
			carry = advance_block(&VP[b], &VN[b], Eq[b], carry,
			    out[b]);
			score[b] += carry;
		}
		if (y < lastb && score[y] - carry <= k &&
		    ((Eq[y + 1] & 1) || carry < 0)) {
			/* Block y + 1 enters the band. */
			y++;
			VP[y] = ~(uint64_t)0;
			VN[y] = 0;
			score[y] = score[y - 1] - carry + rows[y] +
			    advance_block(&VP[y], &VN[y], Eq[y], carry, out[y]);
		} else {
			while (y > 0 && score[y] >= k + rows[y])
				y--;
		}
		if (y == lastb && score[y] <= k && i >= warm)
			hit(bitmap, i - warm);
	}
}

/*
 * A pattern longer than PAT_MAXLEN (allowed at k = 0 only): sets the bit
 * of the end of the first occurrence in text[warm, warm + len) of each
 * record, searched from text[0] so that one may begin in the warm-up
 * bytes.  -i folds ASCII case.
 * A pattern holding the terminator never matches.
 */
static void
scan_long_exact(const struct pattern *pat, int icase,
    const unsigned char *text, size_t warm, size_t len, unsigned char eol,
    uint64_t *bitmap)
{
	const size_t n = pat->len, all = warm + len;
	struct flt_find x;

	if (memchr(pat->str, eol, n) != NULL)
		return;
	flt_find_init(&x, pat->str, n);
	for (size_t s = 0; s + n <= all; s++) {
		const unsigned char *m;
		if (!icase) {
			m = flt_find(&x, text + s, all - s);
			if (m == NULL)
				return;
			s = (size_t)(m - text);
		} else {
			size_t i = 0;
			while (i < n && tolower(text[s + i]) ==
			    tolower(pat->str[i]))
				i++;
			if (i < n)
				continue;
		}
		if (s + n - 1 < warm) {
			/* Ends in the warm-up: on to the first start whose
			 * end lies past it. */
			if (s + n < warm)
				s = warm - n;
			continue;
		}
		/* One hit per record is all output needs. */
		hit(bitmap, s + n - 1 - warm);
		m = memchr(text + s + n - 1, eol, all - (s + n - 1));
		if (m == NULL)
			return;
		s = (size_t)(m - text);
	}
}

/*
 * Weighted costs: the unit cost search with k / least cost errors (the
 * engines below, on ps->unit: a match of cost k holds no more edits)
 * selects the records; every pattern's chain automaton (pattern.c:
 * ps->wre) scans those with the costs, until one matches (all of them for
 * --hits).  Each expression the same way (regex/weighted.c).
 */
static void
hm_weighted(const struct patset *ps, const unsigned char *text, size_t warm,
    size_t len, unsigned char eol, uint64_t *bitmap)
{
	const size_t words = (len + 63) / 64;

	memset(bitmap, 0, words * sizeof(*bitmap));
	if (ps->npat > 0) {
		uint64_t *cand = xmalloc((words + 1) * sizeof(*cand));
		if (ps->unit->all_lines)
			memset(cand, 0xff, (words + 1) * sizeof(*cand));
		else
			hm_scan(ps->unit, text, warm, len, eol, cand);
		/* with every end marked (--hits), windows as long as a
		 * match around them: a chromosome is not scanned whole */
		size_t W = 0;
		if (ps->all_ends && !ps->unit->all_lines)
			W = ps->maxlen + (size_t)(ps->cost.ins < RE_COST_OFF ?
			    ps->k / ps->cost.ins : 0);
		re_verify_records(ps->wre, ps->npat, &ps->cost, ps->k, cand,
		    W, text, 0, warm + len, warm, eol, ps->all_ends, bitmap);
		free(cand);
	}
	for (size_t r = 0; r < ps->nre; r++)
		re_scan_costs(ps->re[r].re, &ps->cost, ps->k, text, 0,
		    warm + len, warm, eol, ps->all_ends, bitmap);
}

/*
 * Scans text[0, warm + len) and sets bit j of the bitmap when a match of some
 * pattern ends at text[warm + j].  The first warm bytes only build up state
 * (they are the n + k - 1 bytes before the chunk, or terminators).  The state
 * is reset at every terminator, so no match crosses a record boundary.
 * hm_scan_scalar is the plain one-byte-at-a-time engine (the tests' fast
 * oracle); hm_scan picks it or the SIMD engine (simd.c).
 */
void
hm_scan_scalar(const struct patset *ps, const unsigned char *text, size_t warm,
    size_t len, unsigned char eol, uint64_t *bitmap)
{
	if (ps->hamming) {
		hm_hamming(ps, text, warm, len, eol, bitmap);
		return;
	}
	if (ps->weighted) {
		hm_weighted(ps, text, warm, len, eol, bitmap);
		return;
	}
	memset(bitmap, 0, (len + 63) / 64 * sizeof(*bitmap));
	for (size_t p = 0; p < ps->npat; p++) {
		if (ps->pat[p].len > PAT_MAXLEN)
			scan_long_exact(&ps->pat[p], ps->icase, text, warm,
			    len, eol, bitmap);
		else if (ps->pat[p].nwords == 1)
			scan_word(&ps->pat[p], ps->k, text, 0, warm + len,
			    warm, eol, bitmap);
		else
			scan_blocks(&ps->pat[p], ps->k, text, 0, warm + len,
			    warm, eol, bitmap);
	}
	for (size_t r = 0; r < ps->nre; r++)
		re_scan(ps->re[r].re, ps->k, text, 0, warm + len, warm, eol,
		    bitmap);
}

/*
 * --no-indels: substitutions only.  A match of pattern p (m units) is a
 * part of a record of exactly m units with at most k that p's position
 * does not take (its PEq table: classes, -i and symbols as for Myers).
 * Wu and Manber's bit-parallel counters without the indel terms: bit i of
 * R[j] says p[0..i] matches the text ending here with at most j
 * substitutions; a byte shifts every R[j] in and keeps the bits whose
 * position takes it, or (j > 0) whose prefix had one more to spend:
 *
 *	R[j]' = ((R[j] << 1 | 1) & Eq) | (R[j-1] << 1 | 1)
 *
 * A terminator empties them.  Patterns past 64 units: the count itself
 * over each window (m operations a byte).  Every match end gets its bit.
 */
static void
hamming_word(const struct pattern *p, long k, const unsigned char *text,
    size_t from, size_t to, size_t warm, unsigned char eol, uint64_t *bitmap)
{
	const uint64_t last = (uint64_t)1 << (p->len - 1);
	if (k > (long)p->len)
		k = (long)p->len;	/* (as many as the pattern has) */
	uint64_t R[k + 1];

	memset(R, 0, sizeof(R));
	for (size_t i = from; i < to; i++) {
		const unsigned char c = text[i];
		if (c == eol) {
			memset(R, 0, sizeof(R));
			continue;
		}
		const uint64_t Eq = p->peq[c];
		for (long j = k; j > 0; j--)
			R[j] = ((R[j] << 1 | 1) & Eq) | (R[j - 1] << 1 | 1);
		R[0] = (R[0] << 1 | 1) & Eq;
		if ((R[k] & last) && i >= warm)
			hit(bitmap, i - warm);
	}
}

static void
hamming_long(const struct pattern *p, long k, const unsigned char *text,
    size_t from, size_t to, size_t warm, unsigned char eol, uint64_t *bitmap)
{
	const size_t m = p->len;
	size_t run = 0;		/* units since the last terminator */

	for (size_t i = from; i < to; i++) {
		if (text[i] == eol) {
			run = 0;
			continue;
		}
		if (++run < m || i < warm)
			continue;
		long miss = 0;
		for (size_t j = 0; j < m && miss <= k; j++)
			miss += !pat_has(p, j, text[i + 1 - m + j]);
		if (miss <= k)
			hit(bitmap, i - warm);
	}
}

static void
hamming_range(const struct pattern *p, long k, const unsigned char *text,
    size_t from, size_t to, size_t warm, unsigned char eol, uint64_t *bitmap)
{
	if (p->len == 0)
		return;		/* (matches every record: all_lines) */
	if (p->nwords == 1)
		hamming_word(p, k, text, from, to, warm, eol, bitmap);
	else
		hamming_long(p, k, text, from, to, warm, eol, bitmap);
}

static void verify_range(const struct pattern *, long, const unsigned char *,
    size_t, size_t, size_t, unsigned char, uint64_t *, int);

/*
 * hamming_range over a long range (text[from] a record start): a match
 * within k substitutions is one within k edits, so Myers' SIMD engine
 * (verify_range) picks the records that can hold one, and only those are
 * counted (the counts are scalar: one pattern over the Bible x64 with
 * nothing for the filter to hold on to, 'mercy' -k2, took 0.67 s
 * counting everything, 0.12 s with indels on the SIMD engine).
 */
static void
hamming_sel(const struct pattern *p, long k, const unsigned char *text,
    size_t from, size_t to, size_t warm, unsigned char eol, uint64_t *bitmap)
{
	if (to <= warm)
		return;
	if (to - from < HM_HAMMING_SEL || p->len > SIMD_MAXLEN ||
	    p->len <= (size_t)k) {
		hamming_range(p, k, text, from, to, warm, eol, bitmap);
		return;
	}
	const size_t words = (to - warm + 63) / 64;
	uint64_t *cand = xcalloc(words, sizeof(*cand));
	verify_range(p, k, text, from, to, warm, eol, cand, SIMD_AUTO);
	for (size_t q = from > warm ? from - warm : 0, b;
	    (b = bits_next(cand, q, to - warm)) < to - warm;) {
		const size_t i = warm + b, e = record_end(text, i, to, eol);
		const size_t re = e < to ? e + 1 : to;	/* (its terminator) */
		hamming_range(p, k, text, record_start(text, from, i, eol), re,
		    warm, eol, bitmap);
		q = re - warm;
	}
	free(cand);
}

/* --no-indels: a candidate record of the pigeonhole filter (filter.c),
 * counted whole, or the rest of a chunk where it gave up (verify_fn). */
static void
verify_hamming(const struct pattern *p, long k, const unsigned char *text,
    size_t from, size_t to, size_t warm, unsigned char eol, uint64_t *bitmap,
    int variant)
{
	(void)variant;
	hamming_sel(p, k, text, from, to, warm, eol, bitmap);
}

/*
 * The scan of --no-indels: the shared filter's windows (multi.c: a match
 * within k substitutions holds one of the pattern's k + 1 pieces exactly,
 * and starts where that piece says: one count a window, or a scan of the
 * window where a record's end cuts it); the patterns it does not cover,
 * or that leave it in this chunk, through their own pigeonhole filter
 * (filter.c: its candidate records counted whole), or over the whole
 * chunk where that does not apply.  AGREP_GPU_HOST_ENGINE=scalar, nofilter
 * or nomulti: every pattern over the whole chunk.
 */
void
hm_hamming(const struct patset *ps, const unsigned char *text, size_t warm,
    size_t len, unsigned char eol, uint64_t *bitmap)
{
	const int e = hm_engine();
	/* (the shared filter's walk looks at every position: with few
	 * patterns, filter.c's vector search for each is faster, as for
	 * Myers: 275 MB of Bible, one phrase -k2, 0.44 s against 0.11 s) */
	const struct mflt *mf = e == HM_ENGINE_SCALAR ||
	    e == HM_ENGINE_NOFILTER || e == HM_ENGINE_NOMULTI ||
	    (ps->npat < HM_HAMMING_MULTI && e != HM_ENGINE_MULTI) ? NULL :
	    mf_get(ps, eol);
	unsigned char *full = xmalloc(ps->npat + 1);
	struct mf_walk w;
	struct mf_win win;

	memset(bitmap, 0, (len + 63) / 64 * sizeof(*bitmap));
	memset(full, mf == NULL, ps->npat + 1);
	if (mf != NULL) {
		size_t nout;
		const size_t *out = mf_uncovered(mf, &nout);
		for (size_t i = 0; i < nout; i++)
			full[out[i]] = 1;
		if (mf_start(&w, mf, text, warm, len)) {
			while (mf_next(&w, &win)) {
				const struct pattern *p = &ps->pat[win.pat];
				const size_t m = p->len, k = (size_t)ps->k;
				if (win.we - win.ws != m + 2 * k) {
					/* (cut by the record's ends) */
					hamming_range(p, ps->k, text, win.ws,
					    win.we, warm, eol, bitmap);
					continue;
				}
				/* The piece fixes the start: one count. */
				const unsigned char *t = text + win.ws + k;
				size_t miss = 0;
				for (size_t j = 0; j < m && miss <= k; j++)
					miss += !pat_has(p, j, t[j]);
				if (miss <= k && win.ws + k + m - 1 >= warm)
					hit(bitmap, win.ws + k + m - 1 - warm);
			}
			unsigned char *left = mf_end(&w);
			for (size_t x = 0; left != NULL && x < ps->npat; x++)
				full[x] |= left[x];
			free(left);
		}
	}
	/* The others through their own pigeonhole filter (filter.c's
	 * records), or whole where it does not apply. */
	for (size_t x = 0; x < ps->npat; x++) {
		if (!full[x] || (!(mf == NULL && e >= 0) && filter_run(
		    &ps->pat[x], ps->k, ps->icase, text, warm, len, eol,
		    bitmap, -1, 0, FLT_ALT_SIMD, verify_hamming)))
			continue;
		if (e == HM_ENGINE_SCALAR)
			hamming_range(&ps->pat[x], ps->k, text, 0, warm + len,
			    warm, eol, bitmap);
		else
			hamming_sel(&ps->pat[x], ps->k, text, 0, warm + len,
			    warm, eol, bitmap);
	}
	free(full);
}

/*
 * One pattern of at most PAT_MAXLEN bytes on the scalar engine, over
 * text[from, to) only: the state starts fresh at text[from] (which must be
 * text[0] or follow a terminator, as a record starts), and a match ending at
 * text[i], warm <= i < to, sets bit i - warm.  The pigeonhole filter's
 * candidate records are verified with it (verify_range).
 */
void
hm_scan_range(const struct pattern *pat, long k, const unsigned char *text,
    size_t from, size_t to, size_t warm, unsigned char eol, uint64_t *bitmap)
{
	if (pat->nwords == 1)
		scan_word(pat, k, text, from, to, warm, eol, bitmap);
	else
		scan_blocks(pat, k, text, from, to, warm, eol, bitmap);
}

/*
 * The least cost of a match of pat (one word of state: at most 64 units)
 * ending anywhere in text[0, m), a record (no terminator): Myers' score
 * after each byte, n before the first; *end: the leftmost end (exclusive)
 * of that cost.  Sellers' DP (refine.c's forward()) gives the same.
 */
int
hm_least(const struct pattern *pat, const unsigned char *text, size_t m,
    size_t *end)
{
	const uint64_t *PEq = pat->peq;
	const uint64_t last = (uint64_t)1 << (pat->len - 1);
	uint64_t VP = ~(uint64_t)0, VN = 0;
	long score = (long)pat->len, best = score;

	*end = 0;
	for (size_t i = 0; i < m && best > 0; i++) {
		uint64_t Eq = PEq[text[i]];
		score += myers_step(Eq, &VP, &VN, last);
		if (score < best) {
			best = score;
			*end = i + 1;
		}
	}
	return (int)best;
}

/*
 * Verifies text[from, to) for one pattern (at most PAT_MAXLEN bytes): from
 * is text[0] or follows a terminator; bits are set for matches ending in
 * [max(from, warm), to).  Ranges of HM_SIMD_VERIFY bytes or more go to
 * the SIMD engine (variant >= 0 and the pattern fits it): it starts at a
 * bitmap word boundary at or before the range, whose bytes before the
 * range belong to earlier records or the warm-up (state starting there
 * only finds true matches, and the terminator before from resets it).
 */
static void
verify_direct(const struct pattern *pat, long k, const unsigned char *text,
    size_t from, size_t to, size_t warm, unsigned char eol, uint64_t *bitmap,
    int variant)
{
	if (to <= warm)
		return;
	if (variant < 0 || pat->len > SIMD_MAXLEN ||
	    to - from < HM_SIMD_VERIFY) {
		hm_scan_range(pat, k, text, from, to, warm, eol, bitmap);
		return;
	}
	size_t h0 = (from > warm ? from - warm : 0) & ~(size_t)63;
	size_t st = warm + h0 < from ? warm + h0 : from;
	simd_scan_pattern(pat, k, text + st, warm + h0 - st,
	    to - (warm + h0), eol, bitmap + h0 / 64, 0, variant);
}

/*
 * The tail prefilter.  A match of pat (n bytes) with at most k edits
 * ending at j holds a match of its last HM_TAIL bytes with at most k
 * edits ending at j (the alignment's last HM_TAIL rows).  Where the
 * pattern is too long for the 16-bit lanes (16-63 bytes: 8 or 4 lanes a
 * vector on AVX2 against 16), those bytes run there first (eng_avx2_16,
 * about 2.5x the rate) and only the records holding one of their ends are
 * verified whole; past a third of the range verified, the rest is
 * verified whole.  The AVX2 level, or AVX-512 without VBMI (whose engines
 * have no 16-bit lanes); ranges of HM_TAIL_MIN bytes or more;
 * AGREP_GPU_TAIL=0 never, =1 wherever it can run (tests).  Read at every
 * call: no static state.
 */
#define HM_TAIL		15
#define HM_TAIL_MIN	((size_t)64 << 10)

static int
tail_applies(const struct pattern *pat, long k, size_t bytes, int variant)
{
	const char *e = getenv("AGREP_GPU_TAIL");
	int force = e != NULL && *e == '1';

	if ((e != NULL && *e == '0') || pat->len <= HM_TAIL ||
	    pat->len > SIMD_MAXLEN || k >= HM_TAIL || variant < 0 ||
	    (!force && (bytes < HM_TAIL_MIN || k > HM_TAIL / 4)) ||
	    !simd_supported(SIMD_AVX2))
		return 0;
	if (variant == SIMD_AUTO || !simd_supported(variant))
		variant = simd_supported(SIMD_AVX512) ? SIMD_AVX512 : SIMD_AVX2;
	return variant == SIMD_AVX2 || (variant == SIMD_AVX512 &&
	    !simd_fast(SIMD_AVX512, pat->len));
}

static void
tail_scan(const struct pattern *pat, long k, const unsigned char *text,
    size_t from, size_t to, size_t warm, unsigned char eol, uint64_t *bitmap,
    int variant)
{
	const size_t n = pat->len, h0 = (from > warm ? from - warm : 0) &
	    ~(size_t)63, base = warm + h0;
	const size_t st = base < from ? base : from;
	const size_t nw = (to - base + 63) / 64;
	uint64_t *peq = xmalloc(256 * sizeof(*peq));
	uint64_t *tb = xcalloc(nw > 0 ? nw : 1, sizeof(*tb));
	struct pattern t = *pat;
	size_t verified = 0, done = from;

	for (int c = 0; c < 256; c++)
		peq[c] = pat->peq[c] >> (n - HM_TAIL);
	t.str = pat->str + n - HM_TAIL;
	t.len = HM_TAIL;
	t.nwords = 1;
	t.peq = peq;
	simd_scan_pattern(&t, k, text + st, base - st, to - base, eol, tb, 0,
	    SIMD_AVX2);
	for (size_t w = 0; w < nw; w++) {
		while (tb[w]) {
			size_t pos = base + 64 * w + (size_t)__builtin_ctzll(tb[w]);
			tb[w] &= tb[w] - 1;
			if (pos < done)
				continue;	/* in a record verified */
			const unsigned char *e = pos > done ?
			    memrchr(text + done, eol, pos - done) : NULL;
			size_t rs = e != NULL ? (size_t)(e - text) + 1 : done;
			e = memchr(text + pos, eol, to - pos);
			size_t re = e != NULL ? (size_t)(e - text) : to;
			if (verified > (to - from) / 3) {
				/* most of it: the rest whole */
				verify_direct(pat, k, text, rs, to, warm, eol,
				    bitmap, variant);
				goto out;
			}
			verify_direct(pat, k, text, rs, re, warm, eol, bitmap,
			    variant);
			verified += re - rs;
			done = re + 1;
			if (done >= to)
				goto out;
		}
	}
out:
	free(tb);
	free(peq);
}

static void
verify_range(const struct pattern *pat, long k, const unsigned char *text,
    size_t from, size_t to, size_t warm, unsigned char eol, uint64_t *bitmap,
    int variant)
{
	/* (the filter's records are mostly short: they go to the scalar
	 * engine without asking the environment) */
	if (to > warm && to - from >= HM_SIMD_VERIFY &&
	    tail_applies(pat, k, to - from, variant))
		tail_scan(pat, k, text, from, to, warm, eol, bitmap, variant);
	else
		verify_direct(pat, k, text, from, to, warm, eol, bitmap,
		    variant);
}

/*
 * The pigeonhole filter's short windows (records, 71 bytes on average for
 * the Bible's phrases), for a pattern of one word of state (n <= 64 bytes,
 * k < n): scan_word over each, four windows side by side in the 64-bit
 * lanes of an AVX2 vector, a byte of each a step.  scan_word's step is
 * about 33 instructions a byte, at 8 cycles a byte whether one window or
 * four interleave in the general registers (tried); here a step of four
 * bytes is about 38.  A window is cut at its terminators first: the step
 * at a terminator cannot hit (its score is reset to n > k), and the
 * record after it starts afresh, as a window of its own would.  A lane
 * whose window ends takes the next; the last ones finish alone.  The same
 * bits as scan_word (filter.bats, the oracles).
 */
#ifdef HM_X86
#define HM_VLANES	4

/* The next part of the windows for a lane: [*from, *to), cut at the first
 * terminator; *wi, *at: the window and the offset reached in it (windows
 * may overlap: each is scanned from its own start).  0: none left. */
static inline int
next_part(const struct flt_win *w, size_t n, size_t *wi, size_t *at,
    const unsigned char *text, unsigned char eol, size_t *from, size_t *to)
{
	while (*wi < n) {
		const size_t a = *at > w[*wi].from ? *at : w[*wi].from;
		const size_t e = w[*wi].to;
		if (a >= e) {
			(*wi)++;
			*at = 0;
			continue;
		}
		const unsigned char *q = memchr(text + a, eol, e - a);
		*from = a;
		*to = q != NULL ? (size_t)(q - text) : e;
		*at = *to + 1;
		if (*to > a)
			return 1;
	}
	return 0;
}

__attribute__((target("avx2"))) static void
verify_avx2(const struct pattern *pat, long k, const unsigned char *text,
    const struct flt_win *w, size_t n, size_t warm, unsigned char eol,
    uint64_t *bitmap)
{
	const uint64_t *PEq = pat->peq;
	const long len = (long)pat->len;
	const __m256i ones = _mm256_set1_epi64x(-1);
	const __m256i last = _mm256_set1_epi64x((long long)((uint64_t)1 <<
	    (pat->len - 1)));
	const __m256i kk = _mm256_set1_epi64x(k + 1);
	const __m256i fresh = _mm256_set1_epi64x(len);
	__m256i VP = ones, VN = _mm256_setzero_si256(), SC = fresh;
	size_t P[HM_VLANES], E[HM_VLANES], wi = 0, at = 0;
	int live = 0;

	for (int l = 0; l < HM_VLANES; l++)
		if (next_part(w, n, &wi, &at, text, eol, &P[l], &E[l]))
			live++;
		else
			P[l] = E[l] = 0;
	if (live < HM_VLANES) {
		for (int l = 0; l < HM_VLANES; l++)
			scan_word(pat, k, text, P[l], E[l], warm, eol, bitmap);
		return;
	}
	for (;;) {
		size_t steps = E[0] - P[0];
		for (int l = 1; l < HM_VLANES; l++)
			if (E[l] - P[l] < steps)
				steps = E[l] - P[l];
		const unsigned char *p0 = text + P[0], *p1 = text + P[1],
		    *p2 = text + P[2], *p3 = text + P[3];
		for (size_t t = 0; t < steps; t++) {
			const __m256i Eq = _mm256_set_epi64x(
			    (long long)PEq[p3[t]], (long long)PEq[p2[t]],
			    (long long)PEq[p1[t]], (long long)PEq[p0[t]]);
			const __m256i X = _mm256_or_si256(Eq, VN);
			const __m256i D0 = _mm256_or_si256(_mm256_xor_si256(
			    _mm256_add_epi64(_mm256_and_si256(X, VP), VP), VP),
			    X);
			const __m256i HN = _mm256_and_si256(VP, D0);
			const __m256i HP = _mm256_or_si256(VN, _mm256_andnot_si256(
			    _mm256_or_si256(VP, D0), ones));
			const __m256i X1 = _mm256_slli_epi64(HP, 1);
			VN = _mm256_and_si256(X1, D0);
			VP = _mm256_or_si256(_mm256_slli_epi64(HN, 1),
			    _mm256_andnot_si256(_mm256_or_si256(X1, D0), ones));
			/* score += (HP at the last row) - (HN at it) */
			SC = _mm256_sub_epi64(SC, _mm256_cmpeq_epi64(
			    _mm256_and_si256(HP, last), last));
			SC = _mm256_add_epi64(SC, _mm256_cmpeq_epi64(
			    _mm256_and_si256(HN, last), last));
			const int m = _mm256_movemask_pd(_mm256_castsi256_pd(
			    _mm256_cmpgt_epi64(kk, SC)));
			if (__builtin_expect(m != 0, 0))
				for (int l = 0; l < HM_VLANES; l++)
					if ((m >> l & 1) && P[l] + t >= warm)
						hit(bitmap, P[l] + t - warm);
		}
		/* lanes at their part's end take the next part, fresh */
		long long re[HM_VLANES] = { 0 };
		int refill = 0, done = 0;
		for (int l = 0; l < HM_VLANES; l++)
			P[l] += steps;
		for (int l = 0; l < HM_VLANES && !done; l++)
			if (P[l] == E[l]) {
				done = !next_part(w, n, &wi, &at, text, eol,
				    &P[l], &E[l]);
				re[l] = done ? 0 : -1;
				refill |= !done;
			}
		if (refill) {
			const __m256i mk = _mm256_set_epi64x(re[3], re[2],
			    re[1], re[0]);
			VP = _mm256_or_si256(VP, mk);
			VN = _mm256_andnot_si256(mk, VN);
			SC = _mm256_blendv_epi8(SC, fresh, mk);
		}
		if (done)
			break;
	}
	/* the windows ran out: each lane's rest alone, from its state (a
	 * lane that ran out has P == E and no rest) */
	uint64_t vp[HM_VLANES], vn[HM_VLANES];
	long long sc[HM_VLANES];
	_mm256_storeu_si256((__m256i *)vp, VP);
	_mm256_storeu_si256((__m256i *)vn, VN);
	_mm256_storeu_si256((__m256i *)sc, SC);
	for (int l = 0; l < HM_VLANES; l++)
		if (P[l] < E[l])
			scan_word_from(pat, k, text, P[l], E[l], warm, eol,
			    bitmap, vp[l], vn[l], (long)sc[l]);
}
#endif

/* Verifies the short windows w[0, n) (scan_word's, each from a fresh
 * state): four at a time in AVX2 where it runs, else one by one. */
static void
verify_short(const struct pattern *pat, long k, const unsigned char *text,
    const struct flt_win *w, size_t n, size_t warm, unsigned char eol,
    uint64_t *bitmap)
{
#ifdef HM_X86
	if (n >= HM_VLANES && k < (long)pat->len && simd_supported(SIMD_AVX2)) {
		verify_avx2(pat, k, text, w, n, warm, eol, bitmap);
		return;
	}
#endif
	for (size_t i = 0; i < n; i++)
		scan_word(pat, k, text, w[i].from, w[i].to, warm, eol, bitmap);
}

/*
 * ORs into bitmap the bits of the matches of pat (at most k edits) in
 * text[0, warm + len), as hm_scan_range(pat, k, text, 0, warm + len, warm,
 * ...) would, through the pigeonhole filter (filter.c): it proposes
 * candidate records, HM_FILTER_BATCH at a time, and verify_range scans
 * them; when it gives up, the rest of the text is scanned whole.  Returns
 * 1, or 0, having set nothing, when the filter does not apply (flt_start).
 * variant: the SIMD variant for long verifications, or -1 for the scalar
 * engine only; it also sets the filter's thresholds.  force: pieces of any
 * length, no giving up.
 */
static int
filter_run(const struct pattern *pat, long k, int icase,
    const unsigned char *text, size_t warm, size_t len, unsigned char eol,
    uint64_t *bitmap, int variant, int force, int alt, verify_fn *verify)
{
	struct flt f;
	struct flt_win w[HM_FILTER_BATCH];
	size_t n, at = 0;
	int r;

	if (!flt_start(&f, pat, k, icase, text, warm, len, eol, alt, force))
		return 0;
	do {
		r = flt_propose(&f, w, HM_FILTER_BATCH, &n, &at);
		size_t ns = 0;
		for (size_t i = 0; i < n; i++)
			if (verify == verify_range && pat->nwords == 1 &&
			    w[i].to - w[i].from < HM_SIMD_VERIFY) {
				if (w[i].to > warm)	/* (verify_direct) */
					w[ns++] = w[i];
			} else
				verify(pat, k, text, w[i].from, w[i].to, warm,
				    eol, bitmap, variant);
		verify_short(pat, k, text, w, ns, warm, eol, bitmap);
	} while (r == FLT_MORE);
	if (r == FLT_GAVEUP)
		verify(pat, k, text, at, warm + len, warm, eol, bitmap,
		    variant);
	return 1;
}

int
hm_filter_pattern(const struct pattern *pat, long k, int icase,
    const unsigned char *text, size_t warm, size_t len, unsigned char eol,
    uint64_t *bitmap, int variant, int force)
{
	int alt = variant < 0 || pat->len > SIMD_MAXLEN ? FLT_ALT_SCALAR :
	    simd_fast(variant, pat->len) ? FLT_ALT_FAST : FLT_ALT_SIMD;

	return filter_run(pat, k, icase, text, warm, len, eol, bitmap, variant,
	    force, alt, verify_range);
}

/*
 * Myers over t[ws, we) from a fresh state (pattern of at most 64 bytes),
 * Eq from EQ(c) for text byte c: returns the end of the first match
 * ending at or after warm, or SIZE_MAX.  Bits of Eq above the pattern's
 * last row do not matter: carries and shifts only move upwards.  The
 * shared filter's windows (multi_scan); pv: the pattern as 64 bytes
 * (mf_vector), for the vector compares.
 */
#define HM_WINDOW(NAME, ATTR, SETUP, EQ)				\
ATTR static size_t							\
NAME(const struct pattern *pat, const unsigned char *pv, long k,	\
    int icase, const unsigned char *t, size_t ws, size_t we, size_t warm) \
{									\
	const uint64_t last = (uint64_t)1 << (pat->len - 1);		\
	uint64_t VP = ~(uint64_t)0, VN = 0;				\
	long score = (long)pat->len;					\
	SETUP								\
									\
	for (size_t i = ws; i < we; i++) {				\
		uint64_t Eq = EQ(t[i]);					\
		uint64_t X = Eq | VN;					\
		uint64_t D0 = (((X & VP) + VP) ^ VP) | X;		\
		uint64_t HN = VP & D0;					\
		uint64_t HP = VN | ~(VP | D0);				\
									\
		score += (HP & last) != 0;				\
		score -= (HN & last) != 0;				\
		X = HP << 1;						\
		VN = X & D0;						\
		VP = (HN << 1) | ~(X | D0);				\
		if (score <= k && i >= warm)				\
			return i;					\
		/* The score falls by one a byte at most. */		\
		if (score - (long)(we - 1 - i) > k)			\
			break;						\
	}								\
	return SIZE_MAX;						\
}

#define SETUP_PEQ	(void)pv; (void)icase;
#define EQ_PEQ(c)	pat->peq[c]
HM_WINDOW(window_peq, , SETUP_PEQ, EQ_PEQ)

#ifdef HM_X86
#define SETUP_AVX2							\
	const __m256i P0 = _mm256_load_si256((const void *)pv);	\
	const __m256i P1 = _mm256_load_si256((const void *)(pv + 32));
#define EQ_AVX2(c) __extension__ ({					\
	__m256i C = _mm256_set1_epi8((char)(icase ? ascii_fold(c) : (c)));	\
	(uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(P0, C)) | \
	    (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(P1, C)) \
	    << 32; })
HM_WINDOW(window_avx2, __attribute__((target("avx2"))), SETUP_AVX2, EQ_AVX2)

/* AVX-512BW: the pattern in one register, Eq in one compare to a mask. */
#define SETUP_AVX512							\
	const __m512i P = _mm512_load_si512((const void *)pv);
#define EQ_AVX512(c) ((uint64_t)_mm512_cmpeq_epi8_mask(P,		\
	_mm512_set1_epi8((char)(icase ? ascii_fold(c) : (c)))))
HM_WINDOW(window_avx512, __attribute__((target("avx512f,avx512bw"))),
    SETUP_AVX512, EQ_AVX512)
#endif

/*
 * A filter's window text[ws, we) for pat: Myers from a fresh state (the
 * vector compares of pv, pattern as 64 bytes, at vector level vec: 2
 * AVX-512BW, 1 AVX2, 0 the PEq table, also where pv is NULL).  A match
 * sets the end bit of the first one at or after warm, and with
 * ps->all_ends every end of the window gets its bit (Myers over it again,
 * only where it holds one).  Returns whether it held a match.
 */
static int
window_hit(const struct patset *ps, const struct pattern *pat,
    const unsigned char *pv, int vec, const unsigned char *text, size_t ws,
    size_t we, size_t warm, unsigned char eol, uint64_t *bitmap)
{
	size_t end;

#ifdef HM_X86
	if (vec > 1 && pv != NULL)
		end = window_avx512(pat, pv, ps->k, ps->icase, text, ws, we,
		    warm);
	else if (vec && pv != NULL)
		end = window_avx2(pat, pv, ps->k, ps->icase, text, ws, we,
		    warm);
	else
#endif
		end = window_peq(pat, pv, ps->k, ps->icase, text, ws, we, warm);
	(void)vec;
	if (end == SIZE_MAX)
		return 0;
	end -= warm;
	bitmap[end / 64] |= (uint64_t)1 << (end % 64);
	if (ps->all_ends)
		hm_scan_range(pat, ps->k, text, ws, we, warm, eol, bitmap);
	return 1;
}

/*
 * The shared filter (multi.c) over text[0, warm + len): each window it
 * proposes goes through the window engine the CPU runs best; a match sets
 * its end bit and ends its record's walk (with ps->all_ends, every end of
 * the window gets its bit and the walk goes on: --hits, sites.c).
 * Returns mf_end's flags of the patterns that left the filter in this
 * chunk (or NULL).
 */
static unsigned char *
multi_scan(const struct mflt *m, const struct patset *ps,
    const unsigned char *text, size_t warm, size_t len, unsigned char eol,
    uint64_t *bitmap)
{
	struct mf_walk w;
	struct mf_win win;
	int vec = 0;

	if (!mf_start(&w, m, text, warm, len))
		return NULL;
#ifdef HM_X86
	vec = cpu_has(CPU_AVX512BW) ? 2 : cpu_has(CPU_AVX2);
#endif
	while (mf_next(&w, &win))
		if (window_hit(ps, &ps->pat[win.pat], mf_vector(m, win.pat),
		    vec, text, win.ws, win.we, warm, eol, bitmap) &&
		    !ps->all_ends)
			mf_found(&w);
	return mf_end(&w);
}

/*
 * The seed filter (seed.c) over text[0, warm + len), as multi_scan: each
 * window it proposes through window_hit (the PEq table: no pattern
 * vectors here); a match ends its record's walk (with ps->all_ends, the
 * walk goes on).  Returns seed_end's flags (every covered pattern, when
 * the filter gave the chunk up) or NULL.
 */
static unsigned char *
seed_scan(const struct seedf *sd, const struct patset *ps,
    const unsigned char *text, size_t warm, size_t len, unsigned char eol,
    uint64_t *bitmap)
{
	struct sd_walk w;
	struct sd_win win;

	if (!seed_start(&w, sd, text, warm, len))
		return NULL;
	while (seed_next(&w, &win))
		if (window_hit(ps, &ps->pat[win.pat], NULL, 0, text, win.ws,
		    win.we, warm, eol, bitmap) && !ps->all_ends)
			seed_found(&w);
	return seed_end(&w);
}

/*
 * The engine hm_scan uses: HM_ENGINE_SCALAR, or a SIMD variant (simd.h),
 * from AGREP_GPU_HOST_ENGINE = scalar | simd | simd-generic | simd-avx2 |
 * simd-avx512 (a variant the CPU lacks falls back to the best it has), or
 * HM_ENGINE_FILTER (filter: the pigeonhole filter wherever the pattern has
 * k + 1 pieces, even of one byte; the automatic choice elsewhere),
 * HM_ENGINE_NOFILTER (nofilter: the automatic choice without the filters),
 * HM_ENGINE_MULTI (multi: the shared many-pattern filter of multi.c for
 * any number of patterns, never giving a pattern up; the
 * automatic choice for the patterns it does not cover), HM_ENGINE_NOMULTI
 * (nomulti: the automatic choice without the shared filter),
 * HM_ENGINE_PP (pp: the pattern-parallel engine of pp.c for every pattern
 * it takes, any number, without the filters; the automatic choice for
 * the others), HM_ENGINE_NOPP (nopp: the automatic choice without it),
 * HM_ENGINE_SEED (seed: the seed filter of seed.c for every pattern it
 * covers, never giving one up; the automatic choice without the shared
 * filter for the others), or -1
 * (unset: choose by length and number, the filters where they pay).  A
 * forced scalar or SIMD engine runs without any filter.  Read at every
 * call: no static state.
 */
int
hm_engine(void)
{
	static const struct {
		const char	*name;
		int		 engine;
	} names[] = {
		{ "scalar", HM_ENGINE_SCALAR }, { "filter", HM_ENGINE_FILTER },
		{ "nofilter", HM_ENGINE_NOFILTER }, { "multi", HM_ENGINE_MULTI },
		{ "nomulti", HM_ENGINE_NOMULTI }, { "pp", HM_ENGINE_PP },
		{ "nopp", HM_ENGINE_NOPP }, { "seed", HM_ENGINE_SEED },
		{ "simd-generic", SIMD_GENERIC }, { "simd-avx2", SIMD_AVX2 },
		{ "simd-avx512", SIMD_AVX512 },
	};
	const char *e = getenv("AGREP_GPU_HOST_ENGINE");

	if (e == NULL || *e == '\0')
		return -1;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(e, names[i].name) == 0)
			return names[i].engine;
	return SIMD_AUTO;		/* "simd" */
}

/*
 * The shared filter hm_scan runs for ps (multi: -1 off, 0 automatic, 1
 * forced), or NULL; *own: one built for this call only, to free.
 */
static const struct mflt *
multi_for(const struct patset *ps, unsigned char eol, int multi,
    const struct mflt *forced, struct mflt **own)
{
	const struct mflt *mf;

	*own = NULL;
	if (multi < 0 || ps->npat == 0)
		return NULL;
	if (multi > 0 && forced != NULL)
		return forced;
	if (multi > 0)
		return *own = mf_build(ps, eol, 1);
	mf = mf_auto(ps, eol);
	return mf_covered(mf, ps, NULL) >= MF_MINPAT ? mf : NULL;
}

/*
 * Whether the pigeonhole filters cannot help pat at k: its k + 1 pieces
 * hold PP_PIECE - 1 bytes or fewer (24-base primers at k = 4), or carry
 * fewer than PP_PIECE_BITS bits in the patterns' alphabet of bits bits a
 * unit (the same primers at k = 2 and 3: pieces of 8 and 6 bases, 16 and
 * 12 bits); the pattern-parallel engine's measured choice, with PP_MINPAT.
 */
static int
pp_short(const struct pattern *pat, long k, int bits)
{
	const size_t piece = pat->len / (size_t)(k + 1);

	return pp_eligible(pat) && (piece < PP_PIECE ||
	    piece * (size_t)bits < PP_PIECE_BITS);
}

/* Bits a unit of the patterns' alphabet: log2 of the units they use (ASCII
 * case folded with -i), rounded up. */
static int
alphabet_bits(const struct patset *ps)
{
	unsigned char seen[256] = { 0 };
	int n = 0;

	for (size_t p = 0; p < ps->npat; p++)
		for (size_t i = 0; i < ps->pat[p].len; i++) {
			int c = ps->pat[p].str[i];
			if (ps->icase && c >= 'A' && c <= 'Z')
				c += 'a' - 'A';
			n += !seen[c];
			seen[c] = 1;
		}
	int b = 1;
	while ((1 << b) < n)
		b++;
	return b;
}

/* One pattern that no shared engine took, as hm_scan chose. */
static void
scan_one(const struct patset *ps, const struct pattern *pat,
    const unsigned char *text, size_t warm, size_t len, unsigned char eol,
    uint64_t *bitmap, int engine, int filter, int scalar)
{
	if (pat->len > PAT_MAXLEN) {
		scan_long_exact(pat, ps->icase, text, warm, len, eol, bitmap);
		return;
	}
	if (filter >= 0 && hm_filter_pattern(pat, ps->k, ps->icase, text, warm,
	    len, eol, bitmap, scalar ? -1 : engine, filter > 0))
		return;
	if (!scalar && pat->len <= SIMD_MAXLEN && tail_applies(pat, ps->k,
	    warm + len, engine))
		tail_scan(pat, ps->k, text, 0, warm + len, warm, eol, bitmap,
		    engine);
	else if (!scalar && pat->len <= SIMD_MAXLEN)
		simd_scan_pattern(pat, ps->k, text, warm, len, eol, bitmap, 0,
		    engine);
	else
		hm_scan_range(pat, ps->k, text, 0, warm + len, warm, eol,
		    bitmap);
}

/*
 * The choice AGREP_GPU_HOST_ENGINE forces (hm_engine's e), or with e = -1
 * the rule's: every setting automatic.
 */
void
hm_sel_forced(int e, struct hsel *s)
{
	*s = (struct hsel){ e, 0, 0, 0, NULL, 0 };
	if (e == HM_ENGINE_SEED) {
		s->seed = 1;
		s->multi = -1;
		s->engine = -1;
	} else if (e == HM_ENGINE_PP || e == HM_ENGINE_NOPP) {
		s->pp = e == HM_ENGINE_PP ? 1 : -1;
		if (s->pp > 0)
			s->multi = -1;
		s->engine = -1;
	} else if (e == HM_ENGINE_MULTI || e == HM_ENGINE_NOMULTI) {
		s->multi = e == HM_ENGINE_MULTI ? 1 : -1;
		s->engine = -1;
	} else if (e == HM_ENGINE_FILTER || e == HM_ENGINE_NOFILTER) {
		s->filter = e == HM_ENGINE_FILTER ? 1 : -1;
		s->multi = -1;
		s->engine = -1;
	} else if (e >= 0)
		s->filter = s->multi = -1;
}

/*
 * A chunk with the engines forced by AGREP_GPU_HOST_ENGINE (tests), else
 * with the host planner's choice (hplan.c: measured on the text), the
 * rule's for chunks too short to time.
 */
void
hm_scan(const struct patset *ps, const unsigned char *text, size_t warm,
    size_t len, unsigned char eol, uint64_t *bitmap)
{
	const int e = hm_engine();
	struct hsel s;

	if (ps->hamming) {
		hm_hamming(ps, text, warm, len, eol, bitmap);
		return;
	}
	if (ps->weighted) {
		hm_weighted(ps, text, warm, len, eol, bitmap);
		return;
	}
	if (e < 0 && len >= HM_SIMD_MIN && hplan_scan(ps, text, warm, len, eol,
	    bitmap))
		return;
	hm_sel_forced(e, &s);
	hm_scan_sel(ps, &s, text, warm, len, eol, bitmap);
}

/*
 * Every end of a match within k of the patterns in text[0, len) (a
 * record: no terminator inside) into bitmap, where the engines give them
 * all in about a scan's time: a few patterns (Myers' lanes each), or a set
 * the pattern-parallel engine takes whole (short pieces).  Returns 0,
 * with nothing done, elsewhere: weighted or --no-indels sets, expressions,
 * and the sets the shared filter takes (it marks one end a record unless
 * ps->all_ends).  refine.c's long records; outside the host planner.
 */
int
hm_scan_ends(const struct patset *ps, const unsigned char *text,
    size_t len, unsigned char eol, uint64_t *bitmap)
{
	struct hsel s = { -1, -1, -1, 0, NULL, 0 };
	size_t nshort = 0;

	if (ps->weighted || ps->hamming || ps->nre > 0 || ps->npat == 0)
		return 0;
	const int bits = alphabet_bits(ps);
	for (size_t p = 0; p < ps->npat; p++) {
		if (ps->pat[p].len > PAT_MAXLEN)
			return 0;	/* (k = 0: exact search alone) */
		nshort += pp_short(&ps->pat[p], ps->k, bits);
	}
	if (ps->npat >= MF_MINPAT && (nshort < PP_MINPAT ||
	    2 * nshort < ps->npat))
		return 0;
	hm_scan_sel(ps, &s, text, 0, len, eol, bitmap);
	return 1;
}

/*
 * A chunk with the engines s says (struct hsel: -1 off, 0 automatic, 1
 * forced, each); what the automatic settings choose (the rule):
 *
 * Patterns of up to 63 bytes go to the SIMD engine when the chunk holds at
 * least HM_SIMD_MIN bytes (below it, the lanes' warm-up and set-up cost more
 * than they save; bench/hostengine.sh), longer ones to Myers' blocks.
 * Before that, with MF_MINPAT patterns or more that the shared filter
 * (multi.c) covers, it searches the pieces of all of them at once and
 * proposes windows around them, which multi_scan verifies, each only
 * against the pattern whose piece it holds; then a pattern whose k + 1
 * pieces are long enough goes through its own pigeonhole filter
 * (filter.c), which proposes the records holding one of its pieces
 * exactly, for hm_filter_pattern to verify.  A pattern goes back to the
 * engines when a filter does not apply or reports its candidates too
 * dense.
 * With the shared filter, a record gets one hit (not every match end):
 * all that output needs.
 * PP_MINPAT patterns or more of up to 32 bytes whose pieces are too short
 * for the filters (pp.h), and the patterns the shared filter gives up in
 * the chunk, go through the pattern-parallel engine (pp.c) together.
 */
void
hm_scan_sel(const struct patset *ps, const struct hsel *s,
    const unsigned char *text, size_t warm, size_t len, unsigned char eol,
    uint64_t *bitmap)
{
	int engine = s->engine, filter = s->filter, multi = s->multi,
	    pp = s->pp;
	if (ps->hamming) {
		hm_hamming(ps, text, warm, len, eol, bitmap);
		return;
	}
	if (ps->weighted) {
		hm_weighted(ps, text, warm, len, eol, bitmap);
		return;
	}
	int scalar = engine == HM_ENGINE_SCALAR ||
	    (engine < 0 && len < HM_SIMD_MIN);
	if (filter < 0 && multi < 0 && scalar) {
		hm_scan_scalar(ps, text, warm, len, eol, bitmap);
		return;
	}
	if (engine < 0)
		engine = SIMD_AUTO;
	memset(bitmap, 0, (len + 63) / 64 * sizeof(*bitmap));
	/* A small language's automaton in place of its words (pattern.c:
	 * ps->sel), unless an engine is forced */
	if (ps->sel != NULL && engine == SIMD_AUTO && filter == 0 &&
	    multi == 0 && pp == 0) {
		re_scan(ps->sel, ps->k, text, 0, warm + len, warm, eol, bitmap);
		return;
	}
	/* The pattern-parallel engine: forced, or automatic for PP_MINPAT
	 * patterns or more whose pieces are too short for the filters (then
	 * without the shared filter when they are half of the set or more),
	 * and for those the shared filter gave up in this chunk. */
	size_t *ppidx = NULL, npp = 0, nshort = 0;
	int bits = pp == 0 && !scalar ? alphabet_bits(ps) : 8;
	if (pp == 0 && !scalar)
		for (size_t p = 0; p < ps->npat; p++)
			nshort += pp_short(&ps->pat[p], ps->k, bits);
	if (pp == 0 && nshort >= PP_MINPAT && 2 * nshort >= ps->npat &&
	    multi == 0)
		multi = -1;
	if (pp > 0 || (pp == 0 && !scalar))
		ppidx = xcalloc(ps->npat, sizeof(*ppidx));
	struct mflt *own;
	const struct seedf *sd = s->seed > 0 ? seed_get(ps, eol) : NULL;
	if (sd != NULL && seed_covered(sd) == 0)
		sd = NULL;
	if (sd != NULL)
		multi = -1;
	unsigned char *sleft = sd != NULL ? seed_scan(sd, ps, text, warm, len,
	    eol, bitmap) : NULL;
	const struct mflt *mf = multi_for(ps, eol, multi, s->mf, &own);
	unsigned char *left = mf != NULL ? multi_scan(mf, ps, text, warm, len,
	    eol, bitmap) : NULL;
	for (size_t p = 0; p < ps->npat; p++) {
		const struct pattern *pat = &ps->pat[p];
		if (sd != NULL && seed_covers(sd, p) &&
		    (sleft == NULL || !sleft[p]))
			continue;
		if (mf != NULL && mf_covers(mf, p) &&
		    (left == NULL || !left[p]))
			continue;
		if (ppidx != NULL && pp_eligible(pat) && (pp > 0 ||
		    (nshort >= PP_MINPAT && pp_short(pat, ps->k, bits)) ||
		    (mf != NULL && mf_covers(mf, p)))) {
			ppidx[npp++] = p;
			continue;
		}
		scan_one(ps, pat, text, warm, len, eol, bitmap, engine, filter,
		    scalar);
	}
	if (npp > 0 && (pp > 0 || npp >= PP_MINPAT))
		pp_scan(ps, ppidx, npp, text, warm, len, eol, bitmap, engine);
	else
		for (size_t x = 0; x < npp; x++)
			scan_one(ps, &ps->pat[ppidx[x]], text, warm, len, eol,
			    bitmap, engine, filter, scalar);
	free(ppidx);
	free(left);
	free(sleft);
	mf_free(own);
	for (size_t r = 0; r < ps->nre; r++)
		re_scan(ps->re[r].re, ps->k, text, 0, warm + len, warm, eol,
		    bitmap);
}

/*
 * -x at k = 0 with plain patterns (hm_lines): a record matches when it is
 * one of them, so each record is looked up in a hash set of the patterns
 * (ASCII case folded under -i) rather than searched: `grep -Fxf list`,
 * the set intersection idiom, took 1.05 s with 13,523 Bible words over 34
 * MB, grep 68 ms.
 */
struct xlines {
	size_t mask;		/* slots - 1 (a power of two) */
	uint32_t *slot;		/* pattern index + 1, 0 empty */
	size_t minlen, maxlen;
};

static uint64_t
xl_hash(const unsigned char *s, size_t n, int icase)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (icase ? ascii_fold(s[i]) : s[i])) *
		    0x100000001b3ull;
	return h ^ n;
}

static int
xl_same(const unsigned char *a, const unsigned char *b, size_t n, int icase)
{
	if (!icase)
		return memcmp(a, b, n) == 0;
	for (size_t i = 0; i < n; i++)
		if (ascii_fold(a[i]) != ascii_fold(b[i]))
			return 0;
	return 1;
}

/* Whether a record of ps's search is selected when it is one of the
 * patterns (hm_line_in): -x, k = 0, plain patterns of bytes (no classes,
 * expressions or symbols). */
int
hm_lines_set_ok(const struct patset *ps)
{
	return ps->xline && ps->k == 0 && ps->npat > 0 && ps->nre == 0 &&
	    !ps->has_cls && ps->u8 == NULL && ps->sel == NULL &&
	    !ps->weighted && ps->npat < UINT32_MAX / 4;
}

/* Whether hm_lines can take ps's search: hm_lines_set_ok, none of the
 * patterns empty (an empty one sets all_lines, pattern.c's len_within: no
 * scan runs, and refine.c asks hm_line_in of every record). */
int
hm_lines_ok(const struct patset *ps)
{
	return hm_lines_set_ok(ps) && !ps->all_lines;
}

static struct xlines *
xl_build(const struct patset *ps)
{
	struct xlines *x = xcalloc(1, sizeof(*x));
	size_t n = 16;

	while (n < 2 * ps->npat)
		n *= 2;
	x->mask = n - 1;
	x->slot = xcalloc(n, sizeof(*x->slot));
	x->minlen = SIZE_MAX;
	for (size_t p = 0; p < ps->npat; p++) {
		const struct pattern *pt = &ps->pat[p];
		size_t h = (size_t)xl_hash(pt->str, pt->len, ps->icase) & x->mask;
		while (x->slot[h] != 0)
			h = (h + 1) & x->mask;
		x->slot[h] = (uint32_t)p + 1;
		x->minlen = pt->len < x->minlen ? pt->len : x->minlen;
		x->maxlen = pt->len > x->maxlen ? pt->len : x->maxlen;
	}
	return x;
}

void
hm_lines_free(struct xlines *x)
{
	if (x != NULL)
		free(x->slot);
	free(x);
}

/* ps's set of patterns, made on first use and cached in ps->xlines. */
static const struct xlines *
xl_get(const struct patset *ps)
{
	static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
	struct xlines **cache = &((struct patset *)ps)->xlines;
	struct xlines *x = __atomic_load_n(cache, __ATOMIC_ACQUIRE);

	if (x == NULL) {
		pthread_mutex_lock(&mu);
		if ((x = *cache) == NULL) {
			x = xl_build(ps);
			__atomic_store_n(cache, x, __ATOMIC_RELEASE);
		}
		pthread_mutex_unlock(&mu);
	}
	return x;
}

/* Whether rec[0, n) is one of x's patterns. */
static int
xl_in(const struct xlines *x, const struct patset *ps,
    const unsigned char *rec, size_t n)
{
	if (n < x->minlen || n > x->maxlen)
		return 0;
	for (size_t h = (size_t)xl_hash(rec, n, ps->icase) & x->mask;
	    x->slot[h] != 0; h = (h + 1) & x->mask) {
		const struct pattern *pt = &ps->pat[x->slot[h] - 1];
		if (pt->len == n && xl_same(pt->str, rec, n, ps->icase))
			return 1;
	}
	return 0;
}

/* Whether the record rec[0, n) is one of the patterns (hm_lines_set_ok;
 * refine.c, where an empty pattern made every record a candidate). */
int
hm_line_in(const struct patset *ps, const unsigned char *rec, size_t n)
{
	return xl_in(xl_get(ps), ps, rec, n);
}

/* Sets the bit of the last unit of each record of text[0, len) that is
 * one of the patterns (hm_lines_ok). */
void
hm_lines(const struct patset *ps, const unsigned char *text, size_t len,
    unsigned char eol, uint64_t *bitmap)
{
	const struct xlines *x = xl_get(ps);

	memset(bitmap, 0, (len + 63) / 64 * sizeof(*bitmap));
	for (size_t a = 0; a < len;) {
		const unsigned char *e = memchr(text + a, eol, len - a);
		const size_t b = e != NULL ? (size_t)(e - text) : len;
		if (b > a && xl_in(x, ps, text + a, b - a))	/* (no
						 * empty pattern here) */
			hit(bitmap, b - 1);
		a = b + 1;
	}
}

/*
 * The k = 0 path for one pattern without -i: flt_find finds an occurrence,
 * its end bit is set, and the search goes on after the record's terminator
 * (one bit per record is all output needs).  The pattern holds no
 * terminator, so an occurrence never crosses one.
 */
void
hm_exact(const struct pattern *pat, const unsigned char *text, size_t len,
    unsigned char eol, uint64_t *bitmap)
{
	size_t pos = 0;
	struct flt_find x;

	flt_find_init(&x, pat->str, pat->len);
	memset(bitmap, 0, (len + 63) / 64 * sizeof(*bitmap));
	while (pos + pat->len <= len) {
		const unsigned char *m = flt_find(&x, text + pos, len - pos);
		if (m == NULL)
			break;
		size_t end = (size_t)(m - text) + pat->len - 1;
		bitmap[end / 64] |= (uint64_t)1 << (end % 64);
		const unsigned char *t = memchr(text + end, eol, len - end);
		if (t == NULL)
			break;
		pos = (size_t)(t - text) + 1;
	}
}
