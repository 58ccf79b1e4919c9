/*
 * exhaustive_ocl.c: the bounded-exhaustive check of the OpenCL kernel on the
 * CPU device (POCL), against the DP oracle of exh_common.h: every pattern of
 * length 1-4 over {a,b} with every text of length 0-8 over {a,b,\n}, and
 * every pattern of length 1-3 over {a,b,c} with every text of length 0-6
 * over {a,b,c,\n}, for every k from 0 to the pattern's length (-q: 1-3 /
 * 0-6 and 1-2 / 0-5; -m: every pattern of the full sets, 1-4 and 1-3, on
 * shorter texts, 0-7 and 0-5, with fewer pairs, run_sets says which).
 *
 * Per pattern and k, all the texts of the set joined by '\n' (each keeps its
 * own answer: the state resets at a terminator) go through scan.c's device
 * scanner, and every hit bit is compared with the oracle's:
 *   - as one chunk, with slices of 64 bytes (the smallest: every work-item
 *     lane starts a slice, warmed up on the n + k - 1 bytes before it, and
 *     the slice boundaries fall at every offset of the short texts), of 192
 *     bytes, and of scan.c's own choice;
 *   - the same with one lane per work-item (AGREP_GPU_LANES=1, the shape
 *     scan.c gives GPUs);
 *   - in chunks of 1-1,000 bytes cut anywhere, inside records too (the
 *     lengths cycle through 1, 2, 3, 5, 8, ... so that the cuts fall at
 *     every offset), each after a pad that holds the bytes before it
 *     (scan_submit's warm-up, as search.c gives a record cut in pieces),
 *     with 64-byte slices.
 * A scanner is kept per shape (slice, lanes): opening one builds the
 * program; a new pattern set reuses it through scan_set_patterns.
 *
 * Prints the counts and the time; exit 1 at the first difference (with the
 * case), 2 without an OpenCL CPU device.
 *
 *   tests/bin/exhaustive-ocl [-q | -m]
 *
 * (-m, the middle bound, is what `make check` runs, about 10 s on two
 * cores; no option, the full bound, 60 s, what `make check-full` and
 * `make check-pocl` run; -q, the smallest, 3 s.)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../src/device/ocl.h"
#include "../src/engines/pattern.h"
#include "../src/device/scan.h"
#include "exh_common.h"

/* The scanner shapes: slice (0: scan.c's choice), lanes (0: its own) and
 * the pattern-parallel kernel (AGREP_GPU_PP=1). */
static const struct shape {
	size_t slice;
	int lanes;
	int pp;
} shapes[] = { { 64, 0, 0 }, { 192, 0, 0 }, { 0, 0, 0 }, { 64, 1, 0 },
    { 192, 1, 0 }, { 0, 1, 0 }, { 64, 0, 1 }, { 192, 0, 1 }, { 0, 0, 1 } };
#define NSHAPES (sizeof(shapes) / sizeof(shapes[0]))
#define PP_SHAPE 6	/* the pattern-parallel one with 64-byte slices */

static struct ocl_dev dev;
static struct scanner sc[NSHAPES];
static int open_[NSHAPES];
static long ncases, nscans, nchunks, ncounts;

/* The scanner of shape i for ps, with room for cap bytes. */
static struct scanner *
scanner(size_t i, const struct patset *ps, size_t cap)
{
	struct scanner *s = &sc[i];

	if (!open_[i]) {
		if (shapes[i].lanes)
			setenv("AGREP_GPU_LANES", "1", 1);
		setenv("AGREP_GPU_PP", shapes[i].pp ? "1" : "0", 1);
		if (scan_open_device(s, ps, '\n', cap, &dev,
		    shapes[i].slice) == -1 || s->pp != shapes[i].pp) {
			fprintf(stderr, "exhaustive-ocl: the scanner did not "
			    "open\n");
			exit(2);
		}
		unsetenv("AGREP_GPU_LANES");
		unsetenv("AGREP_GPU_PP");
		open_[i] = 1;
		return s;
	}
	if (scan_set_patterns(s, ps) == -1) {
		fprintf(stderr, "exhaustive-ocl: pattern upload failed\n");
		exit(2);
	}
	if (s->cap < cap)
		scan_grow(s, cap);
	return s;
}

static void
differs(const char *how, size_t i, const char *p, long k, size_t at,
    int want)
{
	fprintf(stderr, "exhaustive-ocl: %s (slice %zu%s%s) differs: "
	    "patterns \"%s\" k=%ld, joined texts, byte %zu: want %d got %d\n",
	    how, shapes[i].slice, shapes[i].lanes ? ", one lane" : "",
	    shapes[i].pp ? ", pattern-parallel" : "", p, k, at, want, !want);
	exit(1);
}

/*
 * The records counted on the device (count_records, for -c, -l, -L, -q)
 * over the chunk text[from, from + len) just scanned, counting from cf (as
 * the start of a record): from the chunk's start, its first record's start
 * and an offset that moves with each scan, in turn.  They must be the
 * records from cf on that hold a bit of want, and the terminators.
 */
static void
count_check(struct scanner *s, size_t i, const unsigned char *text,
    size_t from, size_t len, int warm, const uint64_t *want, const char *p,
    long k, const char *how)
{
	const unsigned char *chunk = text + from, *nl;
	uint64_t hits, eols, got_hits, got_eols;
	size_t cf = 0;

	if (nscans % 3 == 1 && (nl = memchr(chunk, '\n', len)) != NULL)
		cf = (size_t)(nl - chunk) + 1;
	else if (nscans % 3 == 2)
		cf = (size_t)(nscans * 37) % len;
	if (cf >= len)
		return;		/* nothing to count: the bitmap is made */
	exh_counts(chunk, cf, len, want, from, &hits, &eols);
	scan_count_from(s, 0, cf);
	if (scan_submit(s, 0, len, len, warm) != 0 ||
	    scan_wait(s, 0) == NULL) {
		fprintf(stderr, "exhaustive-ocl: the scan failed\n");
		exit(2);
	}
	ncounts++;
	if (scan_counts(s, 0, &got_hits, &got_eols) != 0 || got_hits != hits ||
	    got_eols != eols) {
		fprintf(stderr, "exhaustive-ocl: records counted on the device "
		    "(%s, slice %zu%s%s) differ: patterns \"%s\" k=%ld, "
		    "chunk of %zu bytes at %zu counted from %zu: want %llu "
		    "with a match and %llu terminators, got %llu and %llu\n",
		    how, shapes[i].slice, shapes[i].lanes ? ", one lane" : "",
		    shapes[i].pp ? ", pattern-parallel" : "", p, k, len, from,
		    cf, (unsigned long long)hits, (unsigned long long)eols,
		    (unsigned long long)got_hits,
		    (unsigned long long)got_eols);
		exit(1);
	}
}

/* Scans text[from, from + len) as one chunk of s (the pad: the bytes
 * before from when warm, else terminators) and compares its bits with
 * want's from there on. */
static void
scan_check(struct scanner *s, size_t i, const unsigned char *text,
    size_t from, size_t len, int warm, const uint64_t *want, const char *p,
    long k, const char *how)
{
	unsigned char *chunk = scan_chunk(s, 0);
	const uint64_t *bm;

	memcpy(chunk, text + from, len);
	if (warm)
		for (size_t b = 1; b <= s->pad; b++)
			chunk[-(ptrdiff_t)b] = b <= from ? text[from - b] : '\n';
	if (scan_submit(s, 0, len, len, warm) != 0 ||
	    (bm = scan_wait(s, 0)) == NULL) {
		fprintf(stderr, "exhaustive-ocl: the scan failed\n");
		exit(2);
	}
	nscans++;
	for (size_t j = 0; j < len; j++) {
		int w = want[(from + j) / 64] >> ((from + j) % 64) & 1;
		if ((int)(bm[j / 64] >> (j % 64) & 1) != w)
			differs(how, i, p, k, from + j, w);
	}
	count_check(s, i, text, from, len, warm, want, p, k, how);
}

/* The patterns pats[0, np) at k over the texts of ts, joined; name names
 * them in a message. */
static void
run_set(const char *const *pats, size_t np, long k, const struct textset *ts,
    const char *name)
{
	struct patset ps;
	char err[128];
	size_t big = 0, off = 0;
	unsigned char *text;
	uint64_t *want;

	pat_init(&ps, (int)k, 0);
	for (size_t q = 0; q < np; q++)
		pat_add(&ps, pats[q], strlen(pats[q]));
	if (pat_compile(&ps, err, sizeof(err)) != 0) {
		fprintf(stderr, "exhaustive-ocl: %s\n", err);
		exit(2);
	}
	for (size_t x = 0; x < ts->count; x++)
		big += ts->len[x] + 1;
	text = malloc(big);
	want = calloc((big + 63) / 64, 8);
	for (size_t x = 0; x < ts->count; x++) {
		const size_t len = ts->len[x];
		uint64_t w = 0;
		for (size_t q = 0; q < np; q++) {
			const size_t n = strlen(pats[q]);
			w |= oracle(pats[q], n, k, ts->t[x], len) |
			    (uint64_t)((long)n <= k) << len;	/* its '\n' */
		}
		memcpy(text + off, ts->t[x], len);
		text[off + len] = '\n';
		for (size_t j = 0; j <= len; j++)
			if (w >> j & 1)
				want[(off + j) / 64] |= (uint64_t)1 <<
				    ((off + j) % 64);
		off += len + 1;
		ncases++;
	}
	for (size_t i = 0; i < NSHAPES; i++)
		scan_check(scanner(i, &ps, big), i, text, 0, big, 0, want,
		    name, k, "one chunk");
	/* Chunks of 1, 2, 3, 5, 8, ... 987 bytes, in turn, with each
	 * kernel. */
	for (size_t i = 0; i < NSHAPES; i += PP_SHAPE) {
		size_t f0 = 1, f1 = 2;
		for (size_t from = 0, len; from < big; from += len) {
			len = f0 < big - from ? f0 : big - from;
			scan_check(scanner(i, &ps, big), i, text, from, len, 1,
			    want, name, k, "chunks cut anywhere");
			nchunks++;
			size_t f2 = f0 + f1 > 1000 ? 1 : f0 + f1;
			f0 = f1;
			f1 = f2;
		}
	}
	free(text);
	free(want);
	pat_free(&ps);
}

/* One pattern and k over the texts of ts, joined. */
static void
run_pattern(const char *p, long k, const struct textset *ts)
{
	run_set(&p, 1, k, ts, p);
}

/* Every pattern of length minn..maxn over alpha, in all[] (room for 64
 * of up to 7 bytes); returns their number. */
static size_t
all_patterns(const char *alpha, size_t minn, size_t maxn, char all[][8])
{
	size_t a = strlen(alpha), pw = 1, count = 0;

	for (size_t n = 1; n <= maxn; n++) {
		pw *= a;
		for (size_t v = 0; n >= minn && v < pw && count < 64;
		    v++, count++) {
			size_t x = v;
			for (size_t j = 0; j < n; j++, x /= a)
				all[count][j] = alpha[x % a];
			all[count][n] = '\0';
		}
	}
	return count;
}

/* The patterns all[0, np) at every k from 0 to maxk, as one set. */
static void
run_all(char all[][8], size_t np, long maxk, const struct textset *ts,
    const char *what)
{
	const char *pats[64];
	char name[80];

	for (size_t i = 0; i < np; i++)
		pats[i] = all[i];
	snprintf(name, sizeof(name), "all %zu %s", np, what);
	for (long k = 0; k <= maxk; k++)
		run_set(pats, np, k, ts, name);
}

/*
 * Sets of patterns (the kernels OR the hits of a set; the pattern-parallel
 * one runs them in groups of its work-group size, 8 on POCL): every pair
 * of the patterns of length 1..maxpair over alpha; all those of length
 * 1..maxn at once; all those of length maxn (each of which has matches
 * that no other has at k = 0).  maxpair: 3 over {a,b} and 2 over {a,b,c};
 * -m: 2 and 2; -q: 2 and 1.
 */
static void
run_sets(const char *alpha, size_t maxn, size_t maxpair,
    const struct textset *ts)
{
	char all[64][8], name[80];
	size_t np;

	np = all_patterns(alpha, 1, maxpair, all);
	for (long k = 0; k <= (long)maxpair; k++)
		for (size_t i = 0; i < np; i++)
			for (size_t j = i + 1; j < np; j++) {
				const char *two[2] = { all[i], all[j] };
				snprintf(name, sizeof(name), "%.7s|%.7s",
				    all[i], all[j]);
				run_set(two, 2, k, ts, name);
			}
	np = all_patterns(alpha, 1, maxn, all);
	run_all(all, np, (long)maxn, ts, "of length 1 and up");
	np = all_patterns(alpha, maxn, maxn, all);
	run_all(all, np, (long)maxn, ts, "of the longest length");
}

int
main(int argc, char **argv)
{
	int quick = argc > 1 && strcmp(argv[1], "-q") == 0;
	int mid = argc > 1 && strcmp(argv[1], "-m") == 0;
	struct textset t1, t2;
	struct timespec t0, t;

	/* The device: AGREP_GPU_DEVICE (gpu, cpu or an index, to run this on
	 * a GPU machine), the CPU device (POCL) by default or for "host". */
	const char *spec = getenv("AGREP_GPU_DEVICE");
	if (spec == NULL || *spec == '\0' || strcmp(spec, "host") == 0 ||
	    strcmp(spec, "auto") == 0)
		spec = "cpu";
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (ocl_choose(spec, &dev) == -1) {
		fprintf(stderr, "exhaustive-ocl: no OpenCL %s device "
		    "(install pocl-opencl-icd)\n", spec);
		return 2;
	}
	printf("exhaustive-ocl: on %s\n", dev.name);
	/* The bounds: texts over {a,b,\n} and {a,b,c,\n}, single patterns
	 * over {a,b} and {a,b,c}, pairs over each (see the top). */
	make_texts(&t1, "ab\n", quick ? 6 : mid ? 7 : 8);
	make_texts(&t2, "abc\n", quick || mid ? 5 : 6);
	exh_each_pattern("ab", quick ? 3 : 4, &t1, run_pattern);
	exh_each_pattern("abc", quick ? 2 : 3, &t2, run_pattern);
	run_sets("ab", 4, quick || mid ? 2 : 3, &t1);
	run_sets("abc", 3, quick ? 1 : 2, &t2);
	for (size_t i = 0; i < NSHAPES; i++)
		if (open_[i])
			scan_close(&sc[i]);
	clock_gettime(CLOCK_MONOTONIC, &t);
	printf("exhaustive-ocl: %ld cases, %ld scans (%ld of chunks cut "
	    "anywhere, %ld counting records), %s, all agree with the DP; "
	    "%.1f s\n", ncases, nscans + ncounts, nchunks, ncounts, dev.name, (double)(t.tv_sec - t0.tv_sec) +
	    (t.tv_nsec - t0.tv_nsec) * 1e-9);
	free(t1.t);
	free(t1.len);
	free(t2.t);
	free(t2.len);
	return 0;
}
