/*
 * ppengine.c: times the pattern-parallel engine (src/engines/pp.c) alone,
 * in one thread: pp_scan over the whole file as one chunk (after a pad of
 * terminators, as scan.c lays it out) for each variant the CPU runs, the
 * patterns of a file (one a line; those the engine takes).  Prints, per
 * variant, pattern-GB/s (patterns x bytes / seconds) of the best of RUNS
 * runs, the thread's CPU time, and the hits (which must agree).
 *
 *   bench/bin/ppengine FILE K PATTERNFILE [RUNS [VARIANT]]
 *
 * VARIANT: generic, avx2 or avx512 (default: every one the CPU runs).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../src/engines/hostmatch.h"
#include "../src/engines/pp.h"
#include "../src/engines/simd.h"
#include "../src/device/scan.h"

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static unsigned char *
slurp(const char *path, size_t pad, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf;
	long sz;

	if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (sz = ftell(f)) < 0) {
		perror(path);
		exit(2);
	}
	rewind(f);
	buf = malloc(pad + (size_t)sz + 1);
	memset(buf, '\n', pad);
	if (fread(buf + pad, 1, (size_t)sz, f) != (size_t)sz)
		exit(2);
	fclose(f);
	*len = (size_t)sz;
	return buf;
}

int
main(int argc, char **argv)
{
	struct patset ps;
	char err[256];
	size_t len, plen, n = 0;
	int runs = argc > 4 ? atoi(argv[4]) : 5;

	if (argc < 4) {
		fprintf(stderr, "usage: ppengine FILE K PATTERNFILE [RUNS "
		    "[VARIANT]]\n");
		return 2;
	}
	pat_init(&ps, atoi(argv[2]), 0);
	unsigned char *pf = slurp(argv[3], 0, &plen);
	for (size_t i = 0, s = 0; i <= plen; i++)
		if (i == plen || pf[i] == '\n') {
			if (i > s)
				pat_add(&ps, (char *)pf + s, i - s);
			s = i + 1;
		}
	if (pat_compile(&ps, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s\n", err);
		return 2;
	}
	size_t *idx = malloc(ps.npat * sizeof(*idx));
	for (size_t p = 0; p < ps.npat; p++)
		if (pp_eligible(&ps.pat[p]))
			idx[n++] = p;
	const size_t pad = scan_pad(&ps);
	unsigned char *buf = slurp(argv[1], pad, &len);
	const size_t words = (len + 63) / 64;
	uint64_t *bm = malloc(words * 8);

	for (int v = SIMD_GENERIC; v < SIMD_NVARIANTS; v++) {
		double best = 1e30;
		size_t hits = 0;

		if (!simd_supported(v) || (argc > 5 &&
		    strcmp(argv[5], simd_name(v)) != 0))
			continue;
		for (int r = 0; r < runs; r++) {
			memset(bm, 0, words * 8);
			const double t0 = now();
			pp_scan(&ps, idx, n, buf, pad, len, '\n', bm, v);
			const double t = now() - t0;
			best = t < best ? t : best;
		}
		for (size_t w = 0; w < words; w++)
			hits += (size_t)__builtin_popcountll(bm[w]);
		printf("%-8s %zu patterns k=%d %zu bytes: %.3f s, %.2f "
		    "pattern-GB/s, hits %zu\n", simd_name(v), n, ps.k, len, best,
		    (double)n * (double)len / best / 1e9, hits);
	}
	return 0;
}
