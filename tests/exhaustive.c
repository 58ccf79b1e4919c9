/*
 * exhaustive.c: bounded-exhaustive check of the host matcher's engines
 * against a Sellers dynamic-programming oracle (exh_common.h), bit by bit
 * (bit j: a match with at most k unit-cost edits ends at text[j]; the state
 * resets at every '\n'; at a '\n' itself the bit is set when n <= k, the
 * empty match, as the engines do).
 *
 * Sets (each: every pattern, every text, every k from 0 to the pattern's
 * length):
 *   1. patterns of length 1-4 over {a,b}, texts of length 0-8 over {a,b,\n}
 *   2. patterns of length 1-3 over {a,b,c}, texts of length 0-6 over
 *      {a,b,c,\n}
 * (-q: smaller sets, 1-3 / 0-6 and 1-2 / 0-5, for slow sanitizer builds;
 * -m, make check's: every pattern of the full sets, texts one byte
 * shorter, the random parts as -q's).
 *
 * Per case: hm_scan_scalar, and the best SIMD variant the CPU runs
 * (simd_scan_pattern), on the text alone, once after a pad of n + k - 1
 * terminators (as scan.c lays it out) and once with no warm-up at all, with
 * one-byte slices (every offset is a slice boundary).  Then, per pattern
 * and k, all texts of the set joined by '\n' (a record boundary, so each
 * text keeps its own answer) go through every SIMD variant the CPU runs
 * (generic, avx2, avx512) with slices of 1, 2, 3, 5, 7, 63, 64, 65 bytes and the
 * automatic length, and through hm_scan: there lanes start their warm-up
 * inside other texts, across terminators, and every bit is compared.
 * Patterns of every length 1-63 over random texts, every SIMD variant
 * and slice, against hm_scan_scalar.
 * PEq tables that are no product of nibble sets (peq['r'] |= peq['a'],
 * texts over {a,b,r,\n}): every SIMD variant and slice on the joined
 * texts (the AVX2 16-bit engine's scalar fill).
 * The pigeonhole filter (filter.c's candidates, verified by
 * hm_filter_pattern), forced to run with pieces of any
 * length (k + 1 > n: it declines), on each text alone and on the joined
 * texts through hm_scan (AGREP_GPU_HOST_ENGINE=filter), and with -i on the
 * joined texts in upper case; and on records of up to 12000 bytes (its
 * SIMD verification) against hm_scan_scalar.
 *
 * The shared many-pattern filter (multi.c), forced through hm_scan
 * (AGREP_GPU_HOST_ENGINE=multi: pieces of one byte and up), record by
 * record (it sets one true end bit per selected record, not every one):
 * for each k from 0 to 3, every pattern of length k + 1 to 4 over {a,b}
 * alone, every pair of them, and all of them together, over the texts of
 * set 1 joined, and over {a,b,c} (set 2) alone and all together; each
 * also with -i over the texts in upper case, and cut at an offset that
 * changes with the set (the bytes before it are warm-up: a record cut in
 * two, as at a chunk boundary inside a long record); a pair runs one of
 * these four ways, in turn.
 *
 * The pattern-parallel engine (pp.c): every variant the CPU runs and
 * hm_scan forced to it (AGREP_GPU_HOST_ENGINE=pp), against hm_scan_scalar
 * bit by bit: every pattern of length 1-4 over {a,b} alone, every pair
 * and all together, every k from 0 to 5, over the texts of set 1 joined
 * (-i over them in upper case, cut at an offset), the same over {a,b,c}
 * (lengths 1-3, set 2) alone and all together (39 patterns: several
 * vectors), and random sets of 1-70 patterns of 1-32 bytes over {a,c,g,t}
 * at k 0-7 over random records.
 *
 * Prints the number of cases and the time; exit 1 on the first difference
 * (with the case), 0 when all agree.
 *
 *   tests/bin/exhaustive [-q | -m]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../src/engines/hostmatch.h"
#include "../src/engines/simd.h"
#include "../src/engines/filter.h"
#include "../src/engines/multi.h"
#include "../src/engines/pp.h"
#include "../src/engines/seed.h"
#include "exh_common.h"


static long ncases, ncalls;
static int best;		/* the variant SIMD_AUTO runs */

static void
fail(const char *what, const char *p, long k, const char *t, size_t len,
    uint64_t want, uint64_t got, size_t slice)
{
	fprintf(stderr, "exhaustive: %s differs: pattern \"%s\" k=%ld slice=%zu "
	    "text \"", what, p, k, slice);
	for (size_t j = 0; j < len; j++)
		fputs(t[j] == '\n' ? "\\n" : (char[2]){ t[j], 0 }, stderr);
	fprintf(stderr, "\" (%zu bytes): want %#llx got %#llx\n", len,
	    (unsigned long long)want, (unsigned long long)got);
	exit(1);
}

/*
 * Every SIMD variant this CPU runs, with each slice of slices[0, ns), over
 * text[0, warm) of warm-up and text[warm, warm + len): each bitmap must be
 * want's.  what names the case in the message of a failure.
 */
static void
simd_each(const struct pattern *pat, const char *p, long k,
    const unsigned char *text, size_t warm, size_t len, const uint64_t *want,
    uint64_t *bm, const size_t *slices, size_t ns, const char *what)
{
	size_t words = (len + 63) / 64;

	for (int v = SIMD_GENERIC; v < SIMD_NVARIANTS; v++) {
		if (!simd_supported(v))
			continue;
		for (size_t s = 0; s < ns; s++) {
			memset(bm, 0, words * 8);
			simd_scan_pattern(pat, k, text, warm, len, '\n', bm,
			    slices[s], v);
			ncalls++;
			for (size_t i = 0; i < words; i++)
				if (bm[i] != want[i]) {
					char name[128];
					snprintf(name, sizeof(name),
					    "%s, %s, word %zu", simd_name(v),
					    what, i);
					fail(name, p, k, "", 0, want[i], bm[i],
					    slices[s]);
				}
		}
	}
}

/* The texts of ts joined, each followed by a terminator, after pad
 * terminators (warm-up); *big gets the joined texts' length (pad not
 * counted).  The caller frees it. */
static unsigned char *
join_texts(const struct textset *ts, size_t pad, size_t *big)
{
	size_t n = 0;
	unsigned char *jb;

	for (size_t x = 0; x < ts->count; x++)
		n += ts->len[x] + 1;
	jb = malloc(pad + n);
	memset(jb, '\n', pad);
	for (size_t x = 0, off = 0; x < ts->count; x++) {
		memcpy(jb + pad + off, ts->t[x], ts->len[x]);
		jb[pad + off + ts->len[x]] = '\n';
		off += ts->len[x] + 1;
	}
	*big = n;
	return jb;
}

static void
compile(struct patset *ps, const char *p, long k, int icase)
{
	char err[128];

	pat_init(ps, (int)k, icase);
	pat_add(ps, p, strlen(p));
	if (pat_compile(ps, err, sizeof(err)) != 0) {
		fprintf(stderr, "exhaustive: %s\n", err);
		exit(2);
	}
}

/* One pattern and k over every text of ts. */
static void
run_pattern(const char *p, long k, const struct textset *ts)
{
	struct patset ps;
	size_t n = strlen(p), pad = n + (size_t)k - 1, big = 0, off;
	unsigned char buf[64 + MAXT];
	uint64_t got[2];
	unsigned char *jb;
	uint64_t *want, *bm;
	size_t words;

	compile(&ps, p, k, 0);
	jb = join_texts(ts, pad, &big);
	words = (big + 63) / 64;
	want = calloc(words, 8);
	bm = malloc(words * 8);
	off = 0;
	for (size_t x = 0; x < ts->count; x++) {
		const char *t = ts->t[x];
		size_t len = ts->len[x];
		uint64_t w = oracle(p, n, k, t, len);

		ncases++;
		for (size_t j = 0; j < len; j++)
			if (w >> j & 1)
				want[(off + j) / 64] |= (uint64_t)1 << ((off + j) % 64);
		if ((long)n <= k)
			want[(off + len) / 64] |= (uint64_t)1 << ((off + len) % 64);
		off += len + 1;

		/* Alone, after a pad of terminators and with none. */
		memset(buf, '\n', pad);
		memcpy(buf + pad, t, len);
		hm_scan_scalar(&ps, buf, pad, len, '\n', got);
		if (len && got[0] != w)
			fail("hm_scan_scalar", p, k, t, len, w, got[0], 0);
		ncalls++;
		for (int v = best; v == best; v++) {
			got[0] = 0;
			simd_scan_pattern(&ps.pat[0], k, buf, pad, len, '\n',
			    got, 1, v);
			if (got[0] != w)
				fail(simd_name(v), p, k, t, len, w, got[0], 1);
			got[0] = 0;
			simd_scan_pattern(&ps.pat[0], k, buf + pad, 0, len,
			    '\n', got, 1, v);
			if (got[0] != w)
				fail(simd_name(v), p, k, t, len, w, got[0], 1);
			ncalls += 2;
		}
		/* The filter, forced (pieces of any length), verifying with
		 * the scalar engine and with the SIMD one allowed. */
		for (int v = -1; v <= best; v += best + 1) {
			got[0] = 0;
			if (!hm_filter_pattern(&ps.pat[0], k, 0, buf, pad, len,
			    '\n', got, v, 1))
				got[0] = w;	/* k + 1 > n: not for it */
			if (len && got[0] != w)
				fail("filter", p, k, t, len, w, got[0], 0);
			ncalls++;
		}
	}
	/* All texts joined, slices of every small length. */
	static const size_t slices[] = { 1, 2, 3, 5, 7, 63, 64, 65, 0 };
	simd_each(&ps.pat[0], p, k, jb, pad, big, want, bm, slices,
	    sizeof(slices) / sizeof(slices[0]), "texts joined");
	hm_scan(&ps, jb, pad, big, '\n', bm);
	ncalls++;
	for (size_t i = 0; i < words; i++)
		if (bm[i] != want[i])
			fail("hm_scan, texts joined", p, k, "", 0, want[i],
			    bm[i], 0);
	/* The filter through hm_scan (AGREP_GPU_HOST_ENGINE=filter), then
	 * alone with -i over the texts in upper case. */
	setenv("AGREP_GPU_HOST_ENGINE", "filter", 1);
	hm_scan(&ps, jb, pad, big, '\n', bm);
	unsetenv("AGREP_GPU_HOST_ENGINE");
	ncalls++;
	for (size_t i = 0; i < words; i++)
		if (bm[i] != want[i])
			fail("hm_scan (filter), texts joined", p, k, "", 0,
			    want[i], bm[i], 0);
	struct patset psi;
	compile(&psi, p, k, 1);
	for (size_t i = pad; i < pad + big; i++)
		if (jb[i] >= 'a' && jb[i] <= 'z')
			jb[i] -= 'a' - 'A';
	memset(bm, 0, words * 8);
	if (hm_filter_pattern(&psi.pat[0], k, 1, jb, pad, big, '\n', bm,
	    best, 1)) {
		ncalls++;
		for (size_t i = 0; i < words; i++)
			if (bm[i] != want[i])
				fail("filter -i, texts joined in upper case",
				    p, k, "", 0, want[i], bm[i], 0);
	}
	pat_free(&psi);
	free(jb);
	free(want);
	free(bm);
	pat_free(&ps);
}

/*
 * Record by record over t[0, len) ('\n' ends a record): want's bit j for
 * t[j], got's bit j - from for t[j], j >= from.  Returns 0 when they agree
 * (with exact, bit by bit; else no false bit and every record with a bit
 * of want has one of got), 1 for a false bit at *at, 2 for a missed end at
 * *at (exact), 3 for a record [*at, *to) missed.
 */
static int
rec_diff(const unsigned char *t, size_t len, size_t from,
    const uint64_t *want, const uint64_t *got, int exact, size_t *at,
    size_t *to)
{
	size_t rs = 0;

	for (size_t i = 0; i <= len; i++) {
		if (i < len && t[i] != '\n')
			continue;
		int wanted = 0, found = 0;
		for (size_t j = rs > from ? rs : from; j < i; j++) {
			int wb = want[j / 64] >> (j % 64) & 1;
			int gb = got[(j - from) / 64] >> ((j - from) % 64) & 1;
			if (gb != wb && (exact || gb)) {
				*at = j;
				return gb ? 1 : 2;
			}
			wanted |= wb;
			found |= gb;
		}
		if (wanted && !found) {
			*at = rs;
			*to = i;
			return 3;
		}
		rs = i + 1;
	}
	return 0;
}

/*
 * The filter's verification of long records (at least HM_SIMD_VERIFY bytes:
 * the SIMD engine, from a bitmap word boundary before the record), bit by
 * bit against hm_scan_scalar: records of 1..12000 bytes over {a,b,c,d}
 * (its own PRNG), patterns of 2..63 bytes cut from the text, k 0..4,
 * warm-up of 0..70 bytes.
 */
static void
long_records(void)
{
	uint64_t x = 12345;
	size_t big = 60000;
	unsigned char *t = malloc(big);
	uint64_t *want = malloc((big + 63) / 64 * 8);
	uint64_t *got = malloc((big + 63) / 64 * 8);

	for (int r = 0; r < 60; r++) {
		size_t i = 0;
		while (i < big) {
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			size_t rl = (x >> 33) % (r % 2 ? 12000 : 300);
			for (size_t j = 0; j < rl && i < big; j++, i++) {
				x = x * 6364136223846793005ULL + 1;
				t[i] = "abcd"[(x >> 40) % 4];
			}
			if (i < big)
				t[i++] = '\n';
		}
		x = x * 6364136223846793005ULL + 1;
		size_t n = 2 + (x >> 33) % 62, at = (x >> 20) % (big - n);
		long k = (long)((x >> 50) % 5);
		size_t warm = (x >> 12) % 71;
		char p[64];
		struct patset ps;
		memcpy(p, t + at, n);
		p[n] = '\0';
		if (memchr(p, '\n', n) != NULL || (size_t)k + 1 > n)
			continue;
		compile(&ps, p, k, 0);
		hm_scan_scalar(&ps, t, warm, big - warm, '\n', want);
		for (int v = -1; v <= best; v += best + 1) {
			memset(got, 0, (big - warm + 63) / 64 * 8);
			hm_filter_pattern(&ps.pat[0], k, 0, t, warm, big - warm,
			    '\n', got, v, 1);
			ncalls++;
			for (size_t w = 0; w < (big - warm + 63) / 64; w++)
				if (got[w] != want[w]) {
					fprintf(stderr, "exhaustive: filter on long "
					    "records differs: round %d pattern %s "
					    "k=%ld warm=%zu variant %d word %zu\n",
					    r, p, k, warm, v, w);
					exit(1);
				}
		}
		pat_free(&ps);
	}
	free(t);
	free(want);
	free(got);
}

/* The shared filter: patterns pats[0, np) (n > k each) over the texts of
 * ts joined by '\n'; want[x]: the oracle's bits of pattern x over the
 * joined text.  Cut: the scan starts at byte cut, the bytes before it
 * (pad terminators and text) are warm-up.  only: -1, every run (plain,
 * -i, each cut and not), else the one run numbered only % 4. */
static void
multi_set(char (*pats)[8], const size_t *idx, size_t np, long k,
    uint64_t *const *want, const struct textset *ts, size_t cut, int only)
{
	struct patset ps, psi;
	size_t big = 0, pad = 4 + (size_t)k;
	char err[128];

	unsigned char *jb = join_texts(ts, pad, &big);
	size_t words = (big + 63) / 64;
	uint64_t *w = calloc(words, 8), *bm = malloc(words * 8 + 8);
	for (size_t i = 0; i < words; i++)
		for (size_t j = 0; j < np; j++)
			w[i] |= want[idx[j]][i];
	pat_init(&ps, (int)k, 0);
	pat_init(&psi, (int)k, 1);
	for (size_t j = 0; j < np; j++) {
		pat_add(&ps, pats[idx[j]], strlen(pats[idx[j]]));
		pat_add(&psi, pats[idx[j]], strlen(pats[idx[j]]));
	}
	if (pat_compile(&ps, err, sizeof(err)) != 0 ||
	    pat_compile(&psi, err, sizeof(err)) != 0) {
		fprintf(stderr, "exhaustive: %s\n", err);
		exit(2);
	}
	if (cut > big)
		cut = big;
	setenv("AGREP_GPU_HOST_ENGINE", "multi", 1);
	for (int icase = 0; icase <= 1; icase++) {
		if (icase)
			for (size_t i = pad; i < pad + big; i++)
				if (jb[i] >= 'a' && jb[i] <= 'z')
					jb[i] -= 'a' - 'A';
		for (int c = 0; c <= 1; c++) {
			if (only >= 0 && only % 4 != 2 * icase + c)
				continue;
			size_t from = c ? cut : 0, warm = c ? cut : pad;
			const unsigned char *text = c ? jb + pad : jb;
			/* text[warm + j] is joined byte from + j */
			memset(bm, 0, words * 8 + 8);
			hm_scan(icase ? &psi : &ps, text, warm, big - from,
			    '\n', bm);
			ncalls++;
			size_t at = 0, to = 0;
			int d = rec_diff(jb + pad, big, from, w, bm, 0, &at, &to);
			if (d == 1) {
				fprintf(stderr, "exhaustive: multi sets a "
				    "false bit at %zu: k=%ld, %zu patterns "
				    "(first \"%s\"), -i %d, cut %zu\n",
				    at, k, np, pats[idx[0]], icase, from);
				exit(1);
			}
			if (d == 3) {
				fprintf(stderr, "exhaustive: multi misses the "
				    "record at %zu-%zu: k=%ld, %zu patterns "
				    "(first \"%s\"%s%s), -i %d, cut %zu\n", at, to,
				    k, np, pats[idx[0]], np > 1 ? ", second \"" :
				    "", np > 1 ? pats[idx[1]] : "", icase, from);
				exit(1);
			}
		}
	}
	unsetenv("AGREP_GPU_HOST_ENGINE");
	pat_free(&ps);
	pat_free(&psi);
	free(jb);
	free(w);
	free(bm);
}

/* Every string of length 1..maxn over alpha, shortest first, into rows
 * of width bytes of pats (at most max of them); returns how many. */
static size_t
all_strings(const char *alpha, size_t maxn, char *pats, size_t width,
    size_t max)
{
	size_t np = 0, a = strlen(alpha), pw = 1;

	for (size_t n = 1; n <= maxn && n < width; n++) {
		pw *= a;
		for (size_t v = 0; v < pw && np < max; v++, np++) {
			size_t x = v;
			for (size_t j = 0; j < n; j++, x /= a)
				pats[np * width + j] = alpha[x % a];
			pats[np * width + n] = '\0';
		}
	}
	return np;
}

/* The shared filter over every pattern of length 1..maxn over alpha (see
 * the top): alone, in pairs (pairs: every pair), all together. */
static void
run_multi(const char *alpha, size_t maxn, const struct textset *ts, int pairs)
{
	char pats[128][8];
	size_t np = all_strings(alpha, maxn, &pats[0][0], sizeof(pats[0]), 128);
	size_t big = 0, sets = 0;

	for (size_t x = 0; x < ts->count; x++)
		big += ts->len[x] + 1;
	size_t words = (big + 63) / 64;
	uint64_t *want[128];
	for (long k = 0; k <= 3 && (size_t)k < maxn; k++) {
		size_t idx[128], m = 0;
		for (size_t p = 0; p < np; p++) {
			size_t n = strlen(pats[p]);
			want[p] = calloc(words, 8);
			if ((long)n <= k)
				continue;
			idx[m++] = p;
			for (size_t x = 0, off = 0; x < ts->count; x++) {
				uint64_t b = oracle(pats[p], n, k, ts->t[x],
				    ts->len[x]);
				for (size_t j = 0; j < ts->len[x]; j++)
					if (b >> j & 1)
						want[p][(off + j) / 64] |=
						    (uint64_t)1 << ((off + j) % 64);
				off += ts->len[x] + 1;
			}
		}
		for (size_t i = 0; i < m; i++) {
			multi_set(pats, &idx[i], 1, k, want, ts,
			    (sets++ * 7919) % big, -1);
			for (size_t j = i + 1; pairs && j < m; j++) {
				size_t two[2] = { idx[i], idx[j] };
				multi_set(pats, two, 2, k, want, ts,
				    (sets * 7919) % big, (int)sets);
				sets++;
			}
		}
		multi_set(pats, idx, m, k, want, ts, (sets++ * 7919) % big, -1);
		ncases += (long)sets;
		for (size_t p = 0; p < np; p++)
			free(want[p]);
	}
}

/*
 * PEq tables that are not a product of nibble sets (the AVX2 16-bit
 * engine's vector transpose declines them and fills with scalar code):
 * every pattern over {a,b} with 'r' (0x72) matching wherever 'a' (0x61)
 * does (peq['r'] |= peq['a']), every k, over all texts of ts (over
 * {a,b,r,\n}) joined, every SIMD variant and slice; the oracle reads 'r'
 * as 'a'.
 */
static void
run_nonproduct(const char *p, long k, const struct textset *ts)
{
	struct patset ps;
	size_t n = strlen(p), pad = n + (size_t)k - 1, big = 0, off = 0;
	char t[MAXT];
	unsigned char *jb;
	uint64_t *want, *bm;
	size_t words;

	compile(&ps, p, k, 0);
	for (size_t c = 0; c < ps.pat[0].nwords; c++)
		ps.pat[0].peq['r' * ps.pat[0].nwords + c] |=
		    ps.pat[0].peq['a' * ps.pat[0].nwords + c];
	jb = join_texts(ts, pad, &big);
	words = (big + 63) / 64;
	want = calloc(words, 8);
	bm = malloc(words * 8);
	for (size_t x = 0; x < ts->count; x++) {
		size_t len = ts->len[x];
		uint64_t w;

		for (size_t j = 0; j < len; j++)
			t[j] = ts->t[x][j] == 'r' ? 'a' : ts->t[x][j];
		w = oracle(p, n, k, t, len);
		ncases++;
		for (size_t j = 0; j < len; j++)
			if (w >> j & 1)
				want[(off + j) / 64] |= (uint64_t)1 <<
				    ((off + j) % 64);
		if ((long)n <= k)
			want[(off + len) / 64] |= (uint64_t)1 <<
			    ((off + len) % 64);
		off += len + 1;
	}
	static const size_t slices[] = { 1, 2, 5, 16, 63, 64, 0 };
	simd_each(&ps.pat[0], p, k, jb, pad, big, want, bm, slices,
	    sizeof(slices) / sizeof(slices[0]), "'r' as 'a', texts joined");
	free(jb);
	free(want);
	free(bm);
	pat_free(&ps);
}

/*
 * Patterns of every length 1-63 (the engines of 16-bit, 32-bit and 64-bit
 * lanes and their vector transposes: the sets above stop at 4 bytes), cut
 * from random texts over {a,b} or {a,b,c,d} with records of 0-199 bytes,
 * k 0-7 or n, every SIMD variant with slices 1-65 and automatic, after a
 * warm-up of 0-70 bytes, against hm_scan_scalar (own PRNG).
 */
static void
long_patterns(int quick)
{
	uint64_t x = 987654321;
	size_t big = quick ? 6000 : 20000;
	unsigned char *t = malloc(big);
	uint64_t *want = malloc((big + 63) / 64 * 8);
	uint64_t *got = malloc((big + 63) / 64 * 8);
	static const size_t slices[] = { 1, 2, 3, 5, 16, 63, 64, 65, 0 };

	for (int r = 0; r < 63 * 4; r++) {
		size_t i = 0, n = 1 + (size_t)r % 63;
		const char *alpha = r / 63 % 2 ? "abcd" : "ab";
		while (i < big) {
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			size_t rl = (x >> 33) % 200;
			for (size_t j = 0; j < rl && i < big; j++, i++) {
				x = x * 6364136223846793005ULL + 1;
				t[i] = (unsigned char)alpha[(x >> 40) %
				    strlen(alpha)];
			}
			if (i < big)
				t[i++] = '\n';
		}
		x = x * 6364136223846793005ULL + 1;
		size_t at = (x >> 20) % (big - n);
		long k = (x >> 50) % 9 == 8 ? (long)n : (long)((x >> 50) % 9);
		size_t warm = (x >> 12) % 71;
		char p[64];
		struct patset ps;
		for (size_t j = 0; j < n; j++)
			p[j] = t[at + j] == '\n' ? 'a' : (char)t[at + j];
		p[n] = '\0';
		compile(&ps, p, k, 0);
		hm_scan_scalar(&ps, t, warm, big - warm, '\n', want);
		ncases++;
		char what[64];
		snprintf(what, sizeof(what), "long patterns, warm=%zu", warm);
		simd_each(&ps.pat[0], p, k, t, warm, big - warm, want, got,
		    slices, sizeof(slices) / sizeof(slices[0]), what);
		pat_free(&ps);
	}
	free(t);
	free(want);
	free(got);
}

/*
 * The pattern-parallel engine (pp.c) on the patterns pats[idx[0, np)] at
 * k over text[0, warm + len): every variant the CPU runs (pp_scan
 * directly) and hm_scan forced to it (AGREP_GPU_HOST_ENGINE=pp), bit by
 * bit against hm_scan_scalar of the same set.
 */
static void
pp_check(char (*pats)[40], const size_t *idx, size_t np, long k, int icase,
    const unsigned char *text, size_t warm, size_t len)
{
	struct patset ps;
	char err[128];
	size_t words = (len + 63) / 64;
	uint64_t *want = malloc(words * 8 + 8), *got = malloc(words * 8 + 8);
	size_t *all = malloc(np * sizeof(*all));

	pat_init(&ps, (int)k, icase);
	for (size_t j = 0; j < np; j++) {
		pat_add(&ps, pats[idx[j]], strlen(pats[idx[j]]));
		all[j] = j;
	}
	if (pat_compile(&ps, err, sizeof(err)) != 0) {
		fprintf(stderr, "exhaustive: %s\n", err);
		exit(2);
	}
	hm_scan_scalar(&ps, text, warm, len, '\n', want);
	for (int v = SIMD_GENERIC; v <= SIMD_NVARIANTS; v++) {
		if (v < SIMD_NVARIANTS && !simd_supported(v))
			continue;
		memset(got, 0, words * 8 + 8);
		if (v < SIMD_NVARIANTS)
			pp_scan(&ps, all, np, text, warm, len, '\n', got, v);
		else {
			setenv("AGREP_GPU_HOST_ENGINE", "pp", 1);
			hm_scan(&ps, text, warm, len, '\n', got);
			unsetenv("AGREP_GPU_HOST_ENGINE");
		}
		ncalls++;
		for (size_t w = 0; w < words; w++)
			if (got[w] != want[w]) {
				fprintf(stderr, "exhaustive: pp %s differs: k=%ld "
				    "-i %d, %zu patterns (first \"%s\"%s%s), "
				    "warm %zu len %zu, word %zu: want %#llx got "
				    "%#llx\n", v < SIMD_NVARIANTS ? simd_name(v) :
				    "hm_scan", k, icase, np, pats[idx[0]], np > 1 ?
				    ", last \"" : "", np > 1 ? pats[idx[np - 1]] :
				    "", warm, len, w, (unsigned long long)want[w],
				    (unsigned long long)got[w]);
				exit(1);
			}
	}
	pat_free(&ps);
	free(want);
	free(got);
	free(all);
}

/*
 * The pattern-parallel engine over every pattern of length 1..maxn over
 * alpha, for every k from 0 to maxn + 1 (k >= n: every position): each
 * alone, every pair (pairs), all together, over the texts of ts joined
 * by '\n' after a pad of terminators, with -i over the joined texts in
 * upper case, and cut at an offset (the bytes before it are warm-up).
 */
static void
run_pp(const char *alpha, size_t maxn, const struct textset *ts, int pairs)
{
	char pats[128][40];
	size_t np = all_strings(alpha, maxn, &pats[0][0], sizeof(pats[0]), 128);
	size_t big, pad = 8;
	unsigned char *jb = join_texts(ts, pad, &big), *ub = malloc(pad + big);

	for (size_t i = 0; i < pad + big; i++)
		ub[i] = jb[i] >= 'a' && jb[i] <= 'z' ? jb[i] - ('a' - 'A') :
		    jb[i];
	size_t idx[128];
	for (size_t p = 0; p < np; p++)
		idx[p] = p;
	for (long k = 0; k <= (long)maxn + 1; k++) {
		size_t cut = pad + (size_t)k * 37 % big;
		for (size_t p = 0; p < np; p++) {
			pp_check(pats, idx + p, 1, k, 0, jb, pad, big);
			pp_check(pats, idx + p, 1, k, 0, jb, cut, pad + big -
			    cut);
			for (size_t q = p + 1; pairs && q < np; q++) {
				size_t two[2] = { p, q };
				pp_check(pats, two, 2, k, (p + q) % 2,
				    (p + q) % 2 ? ub : jb, (p + q) % 3 ? pad :
				    cut, pad + big - ((p + q) % 3 ? pad : cut));
			}
		}
		pp_check(pats, idx, np, k, 0, jb, pad, big);
		pp_check(pats, idx, np, k, 1, ub, pad, big);
		pp_check(pats, idx, np, k, 0, jb, cut, pad + big - cut);
		ncases += (long)np;
	}
	free(jb);
	free(ub);
}

/*
 * The pattern-parallel engine on random patterns of 1-32 bytes over
 * {a,c,g,t} (cut from the text, or random), 1-70 of them, k 0..7 (one
 * round in 8: 120..219), over random records of 0-200 bytes, against
 * hm_scan_scalar.
 */
static void
pp_random(int quick)
{
	uint64_t x = 2323;
	size_t big = 20000;
	unsigned char *t = malloc(big);
	char pats[70][40];

	for (int r = 0; r < (quick ? 40 : 200); r++) {
		size_t i = 0;
		while (i < big) {
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			size_t rl = (x >> 33) % 200;
			for (size_t j = 0; j < rl && i < big; j++, i++) {
				x = x * 6364136223846793005ULL + 1;
				t[i] = "acgt"[(x >> 40) % 4];
			}
			if (i < big)
				t[i++] = '\n';
		}
		x = x * 6364136223846793005ULL + 1;
		size_t np = 1 + (x >> 33) % 70, idx[70];
		long k = (long)((x >> 20) % 8);
		size_t warm = (x >> 12) % 71;
		/* one round in 8 at k 120..219: scores kept in signed bytes
		 * (AVX2) leave -128..127 from k = 128 on */
		if (r % 8 == 7)
			k = 120 + (long)((x >> 24) % 100);
		for (size_t p = 0; p < np; p++) {
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			size_t n = 1 + (x >> 33) % 32, at = (x >> 13) % (big - n);
			for (size_t j = 0; j < n; j++) {
				char c = (char)t[at + j];
				if (c == '\n' || (x >> 60) == 0)
					c = "acgt"[(x >> (j % 40)) % 4];
				pats[p][j] = c;
			}
			pats[p][n] = '\0';
			idx[p] = p;
		}
		pp_check(pats, idx, np, k, 0, t, warm, big - warm);
		ncases++;
	}
	free(t);
}

/*
 * The pattern-parallel engine over 150,000 bytes of random DNA records of
 * 0-4,000 bytes (several of its 16 KB blocks, records across them: the
 * prefix filter and the exact step take turns where the filter verifies
 * much), 24-80 patterns of 16-32 bytes cut from the text (one in 4
 * mutated), k 3..10, against hm_scan_scalar.
 */
static void
pp_long(int quick)
{
	uint64_t x = 2424;
	size_t big = 150000, i = 0;
	unsigned char *t = malloc(big);
	char pats[80][40];

	while (i < big) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		size_t rl = (x >> 33) % 4000;
		for (size_t j = 0; j < rl && i < big; j++, i++) {
			x = x * 6364136223846793005ULL + 1;
			t[i] = "acgt"[(x >> 40) % 4];
		}
		if (i < big)
			t[i++] = '\n';
	}
	for (int r = 0; r < (quick ? 4 : 16); r++) {
		x = x * 6364136223846793005ULL + 1;
		size_t np = 24 + (x >> 33) % 57, idx[80];
		long k = 3 + (long)((x >> 20) % 8);
		for (size_t p = 0; p < np; p++) {
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			size_t n = 16 + (x >> 33) % 17, at = (x >> 13) % (big - n);
			for (size_t j = 0; j < n; j++) {
				char c = (char)t[at + j];
				if (c == '\n' || ((x >> 62) == 0 && j == n / 2))
					c = "acgt"[(x >> (j % 40)) % 4];
				pats[p][j] = c;
			}
			pats[p][n] = '\0';
			idx[p] = p;
		}
		pp_check(pats, idx, np, k, 0, t, 100, big - 100);
		ncases++;
	}
	free(t);
}

/*
 * The prefix filter (AVX2, AVX-512) over many 16 KB blocks: 1-2 MB of
 * random DNA reads (150 bytes a line), 300 primers of 20-32 bytes cut
 * from them (one in 3 mutated), k 3..6: pp_scan with the filter on at
 * every block (AGREP_GPU_PP16=1), switched on and off at each block (alt:
 * matches across the switches) and chosen by its cost (unset), and on
 * AVX-512 off too, against AVX2 with it off, bit by bit.  (Against hm_scan_scalar: pp_random, pp_long.)
 */
static void
pp_blocks(int quick)
{
	/* (alt also in blocks of 300 bytes: thousands of switches) */
	const char *modes[] = { "0", "1", "alt", NULL, "alt" };
	const char *had = getenv("AGREP_GPU_PP16");
	uint64_t x = 2525;
	size_t big = quick ? (size_t)1 << 20 : (size_t)2 << 20;
	/* EXH_PP_BLOCKS_KB: smaller (tests/qemu.sh: 256, k 3 and 5, still
	 * 16 blocks and 870 of 300 bytes, under emulation) */
	const char *kb = getenv("EXH_PP_BLOCKS_KB");
	const long kstep = kb != NULL ? 2 : 1;
	if (kb != NULL && atol(kb) > 0)
		big = (size_t)atol(kb) << 10;
	size_t words = (big + 63) / 64, idx[300];
	unsigned char *t = malloc(big);
	uint64_t *want = malloc(words * 8), *got = malloc(words * 8);
	char pats[300][40];
	struct patset ps;
	char err[128];

	if (!simd_supported(SIMD_AVX2))
		return;
	for (size_t i = 0; i < big; i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		t[i] = i % 151 == 150 ? '\n' : "acgt"[(x >> 40) % 4];
	}
	for (long k = 3; k <= 6; k += kstep) {
		pat_init(&ps, (int)k, 0);
		for (size_t p = 0; p < 300; p++) {
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			size_t n = 20 + (x >> 33) % 13, at = (x >> 13) %
			    (151 - n) + (x >> 21) % (big / 151 - 1) * 151;
			memcpy(pats[p], t + at, n);
			if (p % 3 == 1)
				pats[p][(x >> 7) % n] = "acgt"[(x >> 3) % 4];
			pats[p][n] = '\0';
			pat_add(&ps, pats[p], n);
			idx[p] = p;
		}
		if (pat_compile(&ps, err, sizeof(err)) != 0) {
			fprintf(stderr, "exhaustive: %s\n", err);
			exit(2);
		}
		setenv("AGREP_GPU_PP16", "0", 1);
		memset(want, 0, words * 8);
		pp_scan(&ps, idx, 300, t, 0, big, '\n', want, SIMD_AVX2);
		for (int v = SIMD_AVX2; v <= SIMD_AVX512; v++)
		for (int m = v == SIMD_AVX2; m < 5 && simd_supported(v); m++) {
			if (modes[m] != NULL)
				setenv("AGREP_GPU_PP16", modes[m], 1);
			else
				unsetenv("AGREP_GPU_PP16");
			if (m == 4)
				setenv("AGREP_GPU_PP_BLOCK", "300", 1);
			memset(got, 0, words * 8);
			pp_scan(&ps, idx, 300, t, 0, big, '\n', got, v);
			unsetenv("AGREP_GPU_PP_BLOCK");
			ncalls++;
			for (size_t w = 0; w < words; w++)
				if (got[w] != want[w]) {
					fprintf(stderr, "exhaustive: pp %s "
					    "AGREP_GPU_PP16=%s%s differs from "
					    "avx2 at 0: k=%ld, 300 primers over "
					    "%zu bytes, word %zu: want %#llx got "
					    "%#llx\n", simd_name(v), modes[m] ?
					    modes[m] : "(unset)", m == 4 ?
					    " (blocks of 300)" : "", k, big, w,
					    (unsigned long long)want[w],
					    (unsigned long long)got[w]);
					exit(1);
				}
		}
		unsetenv("AGREP_GPU_PP_BLOCK");
		if (had != NULL)
			setenv("AGREP_GPU_PP16", had, 1);
		else
			unsetenv("AGREP_GPU_PP16");
		pat_free(&ps);
		ncases++;
	}
	free(t);
	free(want);
	free(got);
}

/* Every pattern of length 1..maxn over alpha, every k, every text of ts. */
/*
 * The seed filter (seed.c) forced through hm_scan (AGREP_GPU_HOST_ENGINE=
 * seed, keys as short as AGREP_GPU_SEED_QMIN), against hm_scan_scalar:
 * with every end wanted (ps->all_ends) bit by bit, else record by record
 * (one true end bit a selected record, as multi.c).  text[0, warm) is
 * warm-up.  Returns whether the filter covered a pattern.
 */
static int
seed_check(char (*pats)[40], size_t np, long k, int iupac,
    const unsigned char *text, size_t warm, size_t len, unsigned qmin)
{
	struct patset ps;
	char err[128], q[8];
	size_t words = (len + 63) / 64;
	uint64_t *want = calloc(words + 1, 8), *got = calloc(words + 1, 8);
	int covered = 0;

	snprintf(q, sizeof(q), "%u", qmin);
	for (int all = 0; all <= 1; all++) {
		pat_init(&ps, (int)k, 0);
		ps.iupac = iupac;
		for (size_t j = 0; j < np; j++)
			pat_add(&ps, pats[j], strlen(pats[j]));
		if (pat_compile(&ps, err, sizeof(err)) != 0) {
			fprintf(stderr, "exhaustive: %s\n", err);
			exit(2);
		}
		ps.all_ends = all;
		hm_scan_scalar(&ps, text, warm, len, '\n', want);
		setenv("AGREP_GPU_SEED_QMIN", q, 1);
		setenv("AGREP_GPU_HOST_ENGINE", "seed", 1);
		memset(got, 0, words * 8);
		hm_scan(&ps, text, warm, len, '\n', got);
		covered |= seed_covered(seed_get(&ps, '\n')) > 0;
		unsetenv("AGREP_GPU_HOST_ENGINE");
		unsetenv("AGREP_GPU_SEED_QMIN");
		ncalls++;
		size_t at = 0, to = 0;
		int d = rec_diff(text + warm, len, 0, want, got, all, &at, &to);
		if (d == 1 || d == 2) {
			fprintf(stderr, "exhaustive: seed %s the end at %zu: "
			    "k=%ld, %zu patterns (first \"%s\"), iupac %d, every "
			    "end %d, qmin %u, warm %zu\n", d == 1 ? "sets a false "
			    "bit at" : "misses", at, k, np, pats[0], iupac, all,
			    qmin, warm);
			exit(1);
		}
		if (d == 3) {
			fprintf(stderr, "exhaustive: seed misses the record at "
			    "%zu-%zu: k=%ld, %zu patterns (first \"%s\"), iupac "
			    "%d, qmin %u, warm %zu\n", at, to, k, np, pats[0],
			    iupac, qmin, warm);
			exit(1);
		}
		pat_free(&ps);
	}
	free(want);
	free(got);
	return covered;
}

/*
 * The seed filter, bounded-exhaustive: every pattern of length 1-5 (-q:
 * 1-3) over {A,C,M} (M: A or C under --dna's IUPAC codes, a byte of its own
 * without) alone, and all of one length together, every k below the
 * length, over every text of length 0-6 (-q: 0-5) over {A,C,N,\n} joined
 * (N: another byte, which no pattern matches), keys of 1 base and up.
 * Then 150 random sets (-q: 12, of 12 KB and 12 patterns at most): 1-40
 * patterns of 8-32 bases cut from random DNA records (upper and lower case,
 * N runs; one in 4 mutated), k 0-5, keys of 1-8 bases, the records cut at a
 * random offset (warm-up before it).
 */
static void
seed_cases(int quick)
{
	struct textset ts;
	static char pats[1024][40];
	size_t maxn = quick ? 3 : 5, big = 0, cov = 0, all = 0;

	make_texts(&ts, "ACN\n", quick ? 5 : 6);
	unsigned char *jb = join_texts(&ts, 0, &big);
	for (size_t n = 1; n <= maxn; n++) {
		size_t pw = 1, np = 0;
		for (size_t j = 0; j < n; j++)
			pw *= 3;
		for (size_t v = 0; v < pw; v++, np++) {
			size_t x = v;
			for (size_t j = 0; j < n; j++, x /= 3)
				pats[np][j] = "ACM"[x % 3];
			pats[np][n] = '\0';
		}
		for (long k = 0; k < (long)n; k++)
			for (int iupac = 0; iupac <= 1; iupac++) {
				for (size_t p = 0; p < np; p++) {
					cov += (size_t)seed_check(&pats[p], 1, k,
					    iupac, jb, 0, big, 1);
					all++;
				}
				cov += (size_t)seed_check(pats, np, k, iupac, jb,
				    0, big, 1);
				all++;
				ncases++;
			}
	}
	free(jb);
	free(ts.t);
	free(ts.len);

	uint64_t x = 4242;
	size_t tl = quick ? 12000 : 30000;
	unsigned char *t = malloc(tl);
	for (int r = 0; r < (quick ? 12 : 150); r++) {
		size_t i = 0;
		while (i < tl) {
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			size_t rl = (x >> 33) % (r % 2 ? 3000 : 200);
			int nrun = (x >> 20) % 4 == 0;
			for (size_t j = 0; j < rl && i < tl; j++) {
				x = x * 6364136223846793005ULL + 1;
				size_t run = 1;
				unsigned char c = (unsigned char)
				    "ACGTacgtACGTACGT"[(x >> 40) % 16];
				if (nrun && (x >> 50) % 64 == 0)
					c = 'N';
				else if ((x >> 56) % 128 == 0)
					c = (unsigned char)"NRY"[(x >> 30) % 3];
				/* now and then a run of 1-150 N: matches
				 * hold its first or last bytes only */
				if (nrun && (x >> 50) % 512 == 1) {
					c = 'N';
					run = 1 + (x >> 20) % 150;
				}
				for (; run > 0 && i < tl; run--)
					t[i++] = c;
			}
			if (i < tl)
				t[i++] = '\n';
		}
		x = x * 6364136223846793005ULL + 1;
		size_t np = 1 + (x >> 33) % (quick ? 12 : 40);
		long k = (long)((x >> 20) % 6);
		unsigned qmin = 1 + (unsigned)((x >> 8) % 8);
		size_t warm = (x >> 12) % 71;
		for (size_t p = 0; p < np; p++) {
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			size_t n = 8 + (x >> 33) % 25, at = (x >> 13) % (tl - n);
			/* one in 4 begins with the last 0-k bytes of an N
			 * run: its matches hold them (as substitutions) */
			const unsigned char *nr = (x >> 62) == 1 ?
			    memchr(t + at, 'N', tl - at) : NULL;
			if (nr != NULL) {
				size_t e = (size_t)(nr - t), d = (x >> 7) %
				    ((size_t)k + 1);
				while (e < tl && t[e] == 'N')
					e++;
				if (e >= d && e - d < tl - n)
					at = e - d;
			}
			for (size_t j = 0; j < n; j++) {
				char c = (char)t[at + j];
				if (strchr("ACGTacgt", c) == NULL || c == '\0')
					c = "ACGT"[(x >> (j % 40)) % 4];
				c = (char)(c & ~0x20);
				if ((x >> 62) == 0 && j == n / 2)
					c = "ACGT"[(x >> 5) % 4];
				pats[p][j] = c;
			}
			pats[p][n] = '\0';
		}
		cov += (size_t)seed_check(pats, np, k, 1, t, warm, tl - warm,
		    qmin);
		all++;
		ncases++;
	}
	free(t);
	if (cov * 2 < all) {
		fprintf(stderr, "exhaustive: the seed filter covered a pattern "
		    "in only %zu of %zu sets\n", cov, all);
		exit(1);
	}
}

int
main(int argc, char **argv)
{
	const int quick = argc > 1 && strcmp(argv[1], "-q") == 0;
	const int mid = argc > 1 && strcmp(argv[1], "-m") == 0;
	const int brief = quick || mid;	/* (the random parts) */
	struct textset t1, t2, t3;
	struct timespec t0, t;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int v = SIMD_GENERIC; v < SIMD_NVARIANTS; v++)
		if (simd_supported(v))
			best = v;
	make_texts(&t1, "ab\n", quick ? 6 : mid ? 7 : 8);
	make_texts(&t2, "abc\n", quick ? 5 : mid ? 5 : 6);
	exh_each_pattern("ab", quick ? 3 : 4, &t1, run_pattern);
	exh_each_pattern("abc", quick ? 2 : 3, &t2, run_pattern);
	make_texts(&t3, "abr\n", quick ? 4 : 5);
	exh_each_pattern("ab", quick ? 3 : 4, &t3, run_nonproduct);
	long_records();
	long_patterns(brief);
	run_multi("ab", quick ? 3 : 4, quick ? &t2 : &t1, 1);
	run_multi("abc", quick ? 2 : 3, &t2, 0);
	run_pp("ab", quick ? 3 : 4, quick ? &t2 : &t1, 1);
	run_pp("abc", quick ? 2 : 3, &t2, 0);
	pp_random(brief);
	pp_long(brief);
	pp_blocks(brief);
	seed_cases(brief);
	clock_gettime(CLOCK_MONOTONIC, &t);
	printf("exhaustive: %ld cases, %ld engine calls, variants:", ncases,
	    ncalls);
	for (int v = SIMD_GENERIC; v < SIMD_NVARIANTS; v++)
		if (simd_supported(v))
			printf(" %s", simd_name(v));
	printf(", all agree with the DP; %.1f s\n", (double)(t.tv_sec -
	    t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) * 1e-9);
	free(t1.t);
	free(t1.len);
	free(t2.t);
	free(t2.len);
	free(t3.t);
	free(t3.len);
	return 0;
}
