/*
 * fuzz_host.c: libFuzzer target for the host matcher.  Decodes k (0..8),
 * -i, the terminator ('\n' or NUL), 1-3 patterns of up to 300 bytes and up
 * to 4 KB of text (layout: fuzz_common.h), builds the pattern set as the
 * tool does and compares, record by record and then bit by bit, the hit
 * bitmap of hm_scan (and of hm_exact where the tool would use it: k = 0,
 * one pattern, no -i, no terminator in the pattern), then of the host
 * scanner (scan_open_host, scan_submit) with a naive Sellers DP; then the
 * scalar engine (hm_scan_scalar) and, when every pattern fits one SIMD lane
 * (<= 63 bytes), each SIMD variant the CPU runs (simd_scan_pattern) with a
 * slice length taken from the text (1..128 bytes, or automatic), bit by bit;
 * then the pigeonhole filter (filter.c), forced, bit by bit; then the
 * shared many-pattern filter (multi.c), forced, record by record.
 * A difference prints the case on stderr and aborts.
 *
 * Build and run: make fuzz-build fuzz (tests/fuzz/fuzz.mk).
 */
#include "fuzz_common.h"
#include "engines/simd.h"
#include "engines/filter.h"
#include "engines/multi.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct fcase fc;
	struct patset ps;
	size_t pad, words;
	unsigned char *buf;
	uint64_t *want, *got;
	int all, multi;

	fuzz_decode(&fc, data, size, 0);
	fuzz_patset(&fc, &ps);
	words = (fc.len + 63) / 64;
	want = calloc(words ? words : 1, sizeof(*want));
	all = oracle(&fc, want);
	show_case(&fc, want, all, "host");
	if (ps.all_lines || ps.npat == 0) {
		/* The tool prints every record without scanning. */
		compare(&fc, want, all, NULL, 1, 0, "patset");
		goto done;
	}
	/* As scan.c does: a pad of terminators, then the text.  The buffer
	 * is exactly that long, so that AddressSanitizer sees overreads. */
	pad = scan_pad(&ps);
	buf = malloc(pad + fc.len);
	memset(buf, fc.eol, pad);
	memcpy(buf + pad, fc.text, fc.len);
	got = malloc((words ? words : 1) * sizeof(*got));
	hm_scan(&ps, buf, pad, fc.len, fc.eol, got);
	/* With the shared filter (MF_MINPAT patterns or more: a newline in a
	 * pattern splits it), one true end bit per selected record. */
	multi = mf_auto(&ps, fc.eol) != NULL;
	compare(&fc, want, all, got, 0, !multi, "hm_scan");
	if (multi)
		only_true_bits(&fc, want, got, "hm_scan (multi)");
	/* The k = 0 fast path, under the condition of scan_open_host. */
	if (ps.k == 0 && !ps.icase && ps.npat == 1 &&
	    memchr(ps.pat[0].str, fc.eol, ps.pat[0].len) == NULL) {
		memset(got, 0xa5, (words ? words : 1) * sizeof(*got));
		hm_exact(&ps.pat[0], buf + pad, fc.len, fc.eol, got);
		/* One bit per record at most: compare records only. */
		compare(&fc, want, all, got, 0, 0, "hm_exact");
	}
	/* The scalar engine, and the SIMD engine with small slices. */
	hm_scan_scalar(&ps, buf, pad, fc.len, fc.eol, got);
	compare(&fc, want, all, got, 0, 1, "hm_scan_scalar");
	if (ps.maxlen <= SIMD_MAXLEN) {
		size_t slice = fc.len ? fc.text[0] % 129 : 0;
		for (int v = SIMD_GENERIC; v < SIMD_NVARIANTS; v++) {
			char name[64];
			if (!simd_supported(v))
				continue;
			memset(got, 0, (words ? words : 1) * sizeof(*got));
			for (size_t p = 0; p < ps.npat; p++)
				simd_scan_pattern(&ps.pat[p], ps.k, buf, pad,
				    fc.len, fc.eol, got, slice, v);
			snprintf(name, sizeof(name), "simd %s, slice %zu",
			    simd_name(v), slice);
			compare(&fc, want, all, got, 0, 1, name);
		}
	}
	/* The pigeonhole filter (filter.c), forced (pieces of any length, no
	 * giving up), verifying with the scalar engine and with SIMD allowed;
	 * patterns it declines (k + 1 > n, too many pieces) take the scalar
	 * engine. */
	for (int v = -1; v <= SIMD_AUTO && ps.maxlen <= PAT_MAXLEN; v++) {
		memset(got, 0, (words ? words : 1) * sizeof(*got));
		for (size_t p = 0; p < ps.npat; p++)
			if (!hm_filter_pattern(&ps.pat[p], ps.k, ps.icase, buf,
			    pad, fc.len, fc.eol, got, v, 1))
				hm_scan_range(&ps.pat[p], ps.k, buf, 0,
				    pad + fc.len, pad, fc.eol, got);
		compare(&fc, want, all, got, 0, 1, v < 0 ? "filter (scalar)" :
		    "filter (simd)");
	}
	/* The shared many-pattern filter (multi.c), forced through hm_scan
	 * (pieces of one byte and up, no giving up): one true end bit per
	 * selected record, so records are compared, and each bit set must
	 * be a match end. */
	setenv("AGREP_GPU_HOST_ENGINE", "multi", 1);
	hm_scan(&ps, buf, pad, fc.len, fc.eol, got);
	unsetenv("AGREP_GPU_HOST_ENGINE");
	compare(&fc, want, all, got, 0, 0, "multi");
	only_true_bits(&fc, want, got, "multi");
	/* The host scanner, as search.c drives it for small inputs: it picks
	 * hm_exact or hm_scan itself. */
	{
		struct scanner hs;
		const uint64_t *bm;
		scan_open_host(&hs, &ps, fc.eol, fc.len ? fc.len : 1);
		memcpy(scan_chunk(&hs, 0), fc.text, fc.len);
		if (scan_submit(&hs, 0, fc.len, fc.len, 0) != 0 ||
		    (bm = scan_wait(&hs, 0)) == NULL) {
			fprintf(stderr, "fuzz_host: host scanner failed\n");
			abort();
		}
		compare(&fc, want, all, bm, 0, !hs.exact && !multi, hs.exact ?
		    "host scanner (exact)" : "host scanner");
		if (multi)
			only_true_bits(&fc, want, bm, "host scanner (multi)");
		scan_close(&hs);
	}
	free(got);
	free(buf);
done:
	free(want);
	pat_free(&ps);
	return 0;
}
