/*
 * reocl.c: the automaton kernel (kernels/myers.cl, re_scan) on the CPU
 * device (POCL) against the host's re_scan (src/regex.c) and the naive
 * oracle of tests/reoracle.c.
 *
 * usage: reocl [-q] [-r SEEDS]
 *
 * Bounded-exhaustive: every extended expression of 1 to 3 tokens from
 * {a, b, [ab], ., |, ?, *} (1 to 2 with -q), each also anchored with ^, $
 * and both, at k = 0..3, over every text of 0 to 6 bytes over {a, b} (0
 * to 5 with -q), one line each, joined.  Then SEEDS random expressions
 * (classes, ., ?, *, +, {m,n}, |, groups, anchors) at k = 0..3, 5 or 8,
 * over random lines of up to 200 bytes and one of 3,000 (a record across
 * many slices).  Each goes through scan.c's device scanner:
 *   - as one chunk, with slices of 64 and 192 bytes and scan.c's choice:
 *     every bit of the bitmap against re_scan over the same buffer, and
 *     each line against the oracle (selected when a hit lies in it); then
 *     without the last terminator (a file's last line may lack it);
 *   - in chunks of 1-1,000 bytes cut anywhere, inside records too (the
 *     lengths cycle through 1, 2, 3, 5, 8, ...), each after a pad that
 *     holds the bytes before it (scan_submit's warm-up), 64-byte slices:
 *     every bit against re_scan over the same buffer (both read the pad
 *     as the start of a record);
 *   - the records counted on the device (count_records) after one scan of
 *     each one-chunk set, against those the bitmap gives.
 * Expressions that src/regex.c reads as literals or classes get a trailing
 * (()|())*, which leaves their language alone but makes them automata;
 * those the kernel does not take (assertion states: ^ or $ inside) are
 * skipped and counted.  One scanner per k and slice, opened with an
 * automaton of 8 groups, takes every expression through
 * scan_set_patterns (the groups past an automaton's own are empty).
 *
 * Prints the counts; exit 1 at the first difference (with the case), 2
 * without an OpenCL CPU device.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REORACLE_NO_MAIN
#include "reoracle.c"
#include "../src/device/ocl.h"
#include "../src/engines/pattern.h"
#include "../src/regex/regex.h"
#include "../src/device/scan.h"
#include "exh_common.h"
#include "re_common.h"

#define NKS	6
static const long ks[NKS] = { 0, 1, 2, 3, 5, 8 };
static const size_t slices[] = { 64, 192, 0 };
#define NSLICES	(sizeof(slices) / sizeof(slices[0]))

static struct ocl_dev dev;
static struct scanner sc[NKS][NSLICES];
static int open_[NKS][NSLICES];
static long ncases, nscans, nchunks, ncounts, nskip;

/* A pattern set of one expression (what pattern.c makes of -E EXPR). */
static void
patset_of(struct patset *ps, struct pattern *rp, struct re_nfa *a, long k)
{
	memset(ps, 0, sizeof(*ps));
	memset(rp, 0, sizeof(*rp));
	rp->re = a;
	ps->re = rp;
	ps->nre = 1;
	ps->k = (int)k;
	ps->maxlen = 64;	/* the pad: any will do (see above) */
}

/* The scanner for k (index ki) and slice (index si), for ps. */
static struct scanner *
scanner(size_t ki, size_t si, const struct patset *ps, size_t cap)
{
	struct scanner *s = &sc[ki][si];

	if (!open_[ki][si]) {
		/* 1 + 60 + 1 states: 8 groups */
		struct re_nfa *wide = automaton("(abc){20}d*");
		struct pattern rp;
		struct patset w;
		patset_of(&w, &rp, wide, ks[ki]);
		if (wide == NULL || wide->ngroups != 8 || scan_open_device(s, &w,
		    '\n', cap > 65536 ? cap : 65536, &dev, slices[si]) == -1 ||
		    !s->re) {
			fprintf(stderr, "reocl: the scanner did not open\n");
			exit(2);
		}
		re_nfa_free(wide);
		open_[ki][si] = 1;
	}
	if (scan_set_patterns(s, ps) == -1) {
		fprintf(stderr, "reocl: the table upload failed\n");
		exit(2);
	}
	if (s->cap < cap)
		scan_grow(s, cap);
	return s;
}

/*
 * Scans text[from, from + len) as one chunk of s, the pad holding the
 * bytes before it (warm) or terminators, and compares it with re_scan
 * over the same buffer: every bit, or with ^ or $ every record (each
 * record's bits and its terminator's, ORed): re_scan reads only a window
 * at the start or end of a long record then (re_scan_window), and an empty
 * match at a record's end may be its last byte's hit in one scan and its
 * terminator's in the other.  Output looks only at records.  Returns the
 * device's bitmap.
 */
static const uint64_t *
scan_check(struct scanner *s, const struct re_nfa *a, long k,
    const unsigned char *text, size_t from, size_t len, int warm,
    const char *expr, const char *how)
{
	unsigned char *chunk = scan_chunk(s, 0);
	static unsigned char *hb;
	static uint64_t *want;
	static size_t hcap;
	const uint64_t *bm;

	if (hcap < s->pad + len + 64) {
		hcap = s->pad + len + 64;
		hb = realloc(hb, hcap);
		want = realloc(want, hcap / 8 + 8);
	}
	memcpy(chunk, text + from, len);
	for (size_t b = 1; b <= s->pad; b++)
		chunk[-(ptrdiff_t)b] = warm && b <= from ? text[from - b] : '\n';
	memcpy(hb, chunk - s->pad, s->pad + len);
	memset(want, 0, (len + 63) / 64 * 8);
	re_scan(a, k, hb, 0, s->pad + len, s->pad, '\n', want);
	if (scan_submit(s, 0, len, len, warm) != 0 ||
	    (bm = scan_wait(s, 0)) == NULL) {
		fprintf(stderr, "reocl: the scan failed\n");
		exit(2);
	}
	nscans++;
	for (size_t j = 0, rs = 0; j < len; j++) {
		int w = (int)(want[j / 64] >> (j % 64) & 1);
		int g = (int)(bm[j / 64] >> (j % 64) & 1);
		if (a->bol || a->eol) {
			if (text[from + j] != '\n' && j + 1 < len)
				continue;	/* the record goes on */
			w = g = 0;
			for (size_t x = rs; x <= j; x++) {
				w |= (int)(want[x / 64] >> (x % 64) & 1);
				g |= (int)(bm[x / 64] >> (x % 64) & 1);
			}
			rs = j + 1;
		}
		if (g != w) {
			fprintf(stderr, "reocl: %s (slice %zu) differs from "
			    "re_scan: '%s' k=%ld, chunk of %zu bytes at %zu, "
			    "byte %zu: want %d got %d\n", how, s->slice, expr,
			    k, len, from, from + j, w, g);
			exit(1);
		}
	}
	return bm;
}

/* The records of text[0, len) (the bits of bm) counted on the device
 * from the first record start after 'skip' bytes on. */
static void
count_check(struct scanner *s, const unsigned char *text, size_t len,
    const uint64_t *bm, size_t skip, const char *expr, long k)
{
	uint64_t hits, eols, gh, ge;
	size_t cf = skip < len ? skip : len;

	while (cf > 0 && cf < len && text[cf - 1] != '\n')
		cf++;
	if (cf >= len)
		return;
	exh_counts(text, cf, len, bm, 0, &hits, &eols);
	memcpy(scan_chunk(s, 0), text, len);
	scan_count_from(s, 0, cf);
	if (scan_submit(s, 0, len, len, 0) != 0 || scan_wait(s, 0) == NULL) {
		fprintf(stderr, "reocl: the scan failed\n");
		exit(2);
	}
	ncounts++;
	if (scan_counts(s, 0, &gh, &ge) != 0 || gh != hits || ge != eols) {
		fprintf(stderr, "reocl: records counted on the device differ: "
		    "'%s' k=%ld from %zu: want %llu and %llu terminators, got "
		    "%llu and %llu\n", expr, k, cf, (unsigned long long)hits,
		    (unsigned long long)eols, (unsigned long long)gh,
		    (unsigned long long)ge);
		exit(1);
	}
}

/* expr at k (index ki) over the lines (nl of them), joined. */
static void
check(const char *expr, size_t ki, char **lines, int nl)
{
	const long k = ks[ki];
	struct re_nfa *a;
	struct pattern rp;
	struct patset ps;
	size_t len = 0, *ls = malloc((size_t)(nl + 1) * sizeof(*ls));
	unsigned char *text;

	if ((a = automaton(expr)) == NULL || ro_build(expr) == -1) {
		fprintf(stderr, "reocl: '%s' does not compile\n", expr);
		exit(2);
	}
	patset_of(&ps, &rp, a, k);
	if (!scan_re_ok(&ps)) {
		nskip++;
		re_nfa_free(a);
		free(ls);
		return;
	}
	for (int i = 0; i < nl; i++)
		len += strlen(lines[i]) + 1;
	text = malloc(len + 1);
	len = 0;
	for (int i = 0; i < nl; i++) {
		size_t m = strlen(lines[i]);
		ls[i] = len;
		memcpy(text + len, lines[i], m);
		len += m;
		text[len++] = '\n';
	}
	ls[nl] = len;
	for (size_t si = 0; si < NSLICES; si++) {
		struct scanner *s = scanner(ki, si, &ps, len);
		const uint64_t *bm = scan_check(s, a, k, text, 0, len, 0, expr,
		    "one chunk");
		for (int i = 0; i < nl; i++) {
			int got = 0;
			for (size_t j = ls[i]; j < ls[i + 1]; j++)
				got |= (int)(bm[j / 64] >> (j % 64) & 1);
			int want = line_cost((const unsigned char *)lines[i],
			    strlen(lines[i])) <= k;
			ncases++;
			if (got != want) {
				fprintf(stderr, "reocl: '%s' k=%ld line '%s' "
				    "(slice %zu): kernel %d oracle %d\n",
				    expr, k, lines[i], s->slice, got, want);
				exit(1);
			}
		}
		/* (a last record without its terminator, as a file's) */
		if (len > 1)
			scan_check(s, a, k, text, 0, len - 1, 0, expr,
			    "one chunk, the last terminator left off");
		if (si == 0) {
			uint64_t *copy = malloc((len + 63) / 64 * 8);
			memcpy(copy, bm, (len + 63) / 64 * 8);
			count_check(s, text, len, copy, nscans * 37 % len, expr,
			    k);
			free(copy);
		}
	}
	/* chunks of 1, 2, 3, 5, 8, ... 987 bytes in turn; with ^ or $ they
	 * end at a record's end, as search.c cuts them then (pattern.h:
	 * whole), and start with a pad of terminators */
	struct scanner *s = scanner(ki, 0, &ps, len);
	const int whole = a->bol || a->eol;
	size_t f0 = 1, f1 = 2;
	for (size_t from = 0, n; from < len; from += n) {
		n = f0 < len - from ? f0 : len - from;
		while (whole && text[from + n - 1] != '\n')
			n++;
		scan_check(s, a, k, text, from, n, !whole, expr,
		    whole ? "chunks of whole records" : "chunks cut anywhere");
		nchunks++;
		size_t f2 = f0 + f1 > 1000 ? 1 : f0 + f1;
		f0 = f1;
		f1 = f2;
	}
	free(text);
	free(ls);
	re_nfa_free(a);
}

/* gen's atoms (no assertions inside). */
static const char *
atom(void)
{
	static const char *const atoms[] = { "a", "b", "c", ".", "[ab]",
	    "[^a]", "[a-c]", "ab", "ba", "abca", "bcab", " ", "\\w", "-" };

	return atoms[rnd(sizeof(atoms) / sizeof(atoms[0]))];
}

int
main(int argc, char **argv)
{
	static const char *const tok[] = { "a", "b", "[ab]", ".", "|", "?",
	    "*" };
	static char store[128][8], *lines[128];
	int quick = 0, seeds = 200, nl = 0, maxtok, maxtext;

	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "-q") == 0)
			quick = 1;
		else if (strcmp(argv[i], "-r") == 0 && i + 1 < argc)
			seeds = atoi(argv[++i]);
	const char *spec = getenv("AGREP_GPU_DEVICE");
	if (spec == NULL || *spec == '\0' || strcmp(spec, "host") == 0 ||
	    strcmp(spec, "auto") == 0)
		spec = "cpu";
	if (ocl_choose(spec, &dev) == -1) {
		fprintf(stderr, "reocl: no OpenCL %s device (install "
		    "pocl-opencl-icd)\n", spec);
		return 2;
	}
	unsetenv("AGREP_GPU_RE");
	maxtok = quick ? 2 : 3;
	maxtext = quick ? 5 : 6;
	for (int n = 0; n <= maxtext; n++)
		for (int v = 0; v < 1 << n; v++) {
			for (int i = 0; i < n; i++)
				store[nl][i] = v >> i & 1 ? 'b' : 'a';
			store[nl][n] = '\0';
			lines[nl] = store[nl];
			nl++;
		}
	for (int n = 1, total = 7; n <= maxtok; n++, total *= 7)
		for (int v = 0; v < total; v++) {
			char e[64] = "", e2[80];
			for (int i = 0, x = v; i < n; i++, x /= 7)
				strcat(e, tok[x % 7]);
			for (size_t ki = 0; ki < 4; ki++)
				for (int anch = 0; anch < 4; anch++) {
					snprintf(e2, sizeof(e2), "%s%s%s",
					    anch & 1 ? "^" : "", e,
					    anch & 2 ? "$" : "");
					check(e2, ki, lines, nl);
				}
		}
	printf("reocl: exhaustive: %ld line cases, %ld skipped\n", ncases,
	    nskip);
	static char rl[41][3001];
	char *rlines[41];
	for (int sd = 0; sd < seeds; sd++) {
		char e[256], e2[300];
		gen(e, 4, atom);
		snprintf(e2, sizeof(e2), "%s%s%s", rnd(4) == 0 ? "^" : "", e,
		    rnd(4) == 0 ? "$" : "");
		for (int i = 0; i < 41; i++) {
			int m = i == 40 ? 3000 : (int)rnd(i % 4 == 0 ? 200 : 30);
			for (int j = 0; j < m; j++)
				rl[i][j] = "abc abc-"[rnd(8)];
			rl[i][m] = '\0';
			rlines[i] = rl[i];
		}
		check(e2, rnd(NKS), rlines, 41);
	}
	for (size_t ki = 0; ki < NKS; ki++)
		for (size_t si = 0; si < NSLICES; si++)
			if (open_[ki][si])
				scan_close(&sc[ki][si]);
	printf("reocl: %ld line cases, %ld scans (%ld of chunks cut "
	    "anywhere, %ld counting records), %ld expressions skipped, on "
	    "%s: all agree\n", ncases, nscans + ncounts, nchunks, ncounts,
	    nskip, dev.name);
	return 0;
}
