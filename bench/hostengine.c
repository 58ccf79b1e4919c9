/*
 * hostengine.c: times the host matcher's engines on one file, in one thread,
 * without the tool around them: hm_scan_scalar and each SIMD variant the CPU
 * supports (simd.c), over the whole file as one chunk after a pad of
 * terminators, as scan.c lays it out; then the filter forced and hm_scan
 * as the tool runs it.  Prints, per engine, the median MB/s of RUNS runs
 * and the hits found (which must agree).
 *
 *   bench/bin/hostengine FILE K PATTERN [RUNS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../src/engines/hostmatch.h"
#include "../src/engines/simd.h"
#include "../src/engines/filter.h"
#include "../src/device/scan.h"

/* HOSTENGINE_CPUTIME=1 (or HOSTENGINE_CPU=1): the thread's CPU time instead
 * of the wall clock (on a shared, loaded machine, time slices taken by other
 * processes are then not counted). */
static double
now(void)
{
	static int cpu = -1;
	struct timespec ts;

	if (cpu < 0)
		cpu = (getenv("HOSTENGINE_CPUTIME") != NULL &&
		    *getenv("HOSTENGINE_CPUTIME") == '1') ||
		    (getenv("HOSTENGINE_CPU") != NULL &&
		    *getenv("HOSTENGINE_CPU") == '1');
	clock_gettime(cpu ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int
cmpd(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int
main(int argc, char **argv)
{
	struct patset ps;
	char err[256];
	FILE *f;
	unsigned char *buf;
	size_t len, pad, words;
	long sz;
	int runs = argc > 4 ? atoi(argv[4]) : 5;

	if (argc < 4 || (f = fopen(argv[1], "rb")) == NULL) {
		fprintf(stderr, "usage: hostengine FILE K PATTERN [RUNS]\n");
		return 2;
	}
	pat_init(&ps, atoi(argv[2]), 0);
	pat_add(&ps, argv[3], strlen(argv[3]));
	if (pat_compile(&ps, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s\n", err);
		return 2;
	}
	fseek(f, 0, SEEK_END);
	sz = ftell(f);
	rewind(f);
	len = (size_t)sz;
	pad = scan_pad(&ps);
	buf = malloc(pad + len);
	memset(buf, '\n', pad);
	if (fread(buf + pad, 1, len, f) != len)
		return 2;
	fclose(f);
	words = (len + 63) / 64;
	uint64_t *bm = malloc(words * 8);
	double scalar_mbs = 0;
	/* v: -1 scalar, SIMD variants, then SIMD_NVARIANTS: the filter
	 * forced (pieces of any length; skipped when k + 1 > n), +1: hm_scan
	 * as the tool runs it (automatic choice). */
	for (int v = -1; v < SIMD_NVARIANTS + 2; v++) {
		double t[64];
		size_t hits = 0;

		if (v == SIMD_AUTO || (v >= 0 && v < SIMD_NVARIANTS &&
		    !simd_supported(v)))
			continue;
		if (v == SIMD_NVARIANTS && (size_t)ps.k + 1 > ps.pat[0].len)
			continue;
		if (runs > 64)
			runs = 64;
		for (int r = 0; r < runs; r++) {
			double t0 = now();
			if (v < 0) {
				hm_scan_scalar(&ps, buf, pad, len, '\n', bm);
			} else if (v == SIMD_NVARIANTS) {
				memset(bm, 0, words * 8);
				hm_filter_pattern(&ps.pat[0], ps.k, 0, buf, pad,
				    len, '\n', bm, SIMD_AUTO, 1);
			} else if (v == SIMD_NVARIANTS + 1) {
				hm_scan(&ps, buf, pad, len, '\n', bm);
			} else {
				memset(bm, 0, words * 8);
				simd_scan_pattern(&ps.pat[0], ps.k, buf, pad,
				    len, '\n', bm, 0, v);
			}
			t[r] = now() - t0;
		}
		qsort(t, runs, sizeof(double), cmpd);
		for (size_t w = 0; w < words; w++)
			hits += __builtin_popcountll(bm[w]);
		double mbs = len / t[runs / 2] / 1e6;
		if (v < 0)
			scalar_mbs = mbs;
		printf("%-20s %8.0f MB/s  x%5.2f  hits %zu  (best %.0f)\n",
		    v < 0 ? "scalar" : v == SIMD_NVARIANTS ?
		    "filter" : v > SIMD_NVARIANTS ? "hm_scan" : simd_name(v), mbs,
		    mbs / scalar_mbs,
		    hits, len / t[0] / 1e6);
	}
	return 0;
}
