/*
 * fuzz_utf8.c: libFuzzer target for UTF-8 mode (src/utf8.c).  Decodes a
 * case as fuzz_host does (k, -i, terminator, patterns, text: fuzz_common.h;
 * its first extra byte picks the host engine: automatic, scalar, SIMD, the
 * forced filter or the forced many-pattern filter), builds the pattern set in UTF-8 mode as the tool does,
 * scans the text with the host scanner (scan_submit: the text is turned
 * into symbols when it is not all ASCII, the hits mapped back to bytes) and
 * compares with a DP over code points written here: for every character
 * that ends a match within k, the bit of its last byte, and no other bit
 * (record by record, and only true bits, where the scanner takes the k = 0
 * path or the shared many-pattern filter, which mark one hit per record).
 * A difference prints the case and aborts.
 */
#include <locale.h>
#include <wctype.h>

#include "fuzz_common.h"
#include "engines/multi.h"
#include "base/utf8.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

#define BAD 0x80000000u

/* The characters of s[0, n): code points, BAD | byte for a byte that
 * begins no well-formed sequence; start[i]: where character i begins. */
static size_t
decode(const unsigned char *s, size_t n, uint32_t *u, size_t *start)
{
	static const uint32_t least[5] = { 0, 0, 0x80, 0x800, 0x10000 };
	size_t i = 0, k = 0;

	while (i < n) {
		uint32_t c = s[i];
		size_t l = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 :
		    (c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 ? 4 : 0, j = 1;
		if (l > 1) {
			c &= 0x3fu >> (l - 1);
			for (; j < l && i + j < n && (s[i + j] & 0xc0) == 0x80; j++)
				c = c << 6 | (s[i + j] & 0x3f);
			if (j < l || c < least[l] || (c >= 0xd800 && c <= 0xdfff) ||
			    c > 0x10ffff)
				l = 0;
		}
		if (l == 0) {
			c = BAD | s[i];
			l = 1;
		}
		if (start != NULL)
			start[k] = i;
		u[k++] = c;
		i += l;
	}
	return k;
}

static uint32_t
ufold(int icase, uint32_t c)
{
	return icase && !(c & BAD) ? (uint32_t)towlower(towupper((wint_t)c)) : c;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *engines[] = { "", "scalar", "simd", "filter",
	    "multi" };
	static struct fcase fc;
	static uint32_t pu[FUZZ_MAXPLEN], tu[FUZZ_MAXTEXT];
	static size_t ts[FUZZ_MAXTEXT + 1];
	static int locale;
	struct patset ps;
	struct scanner s;
	char err[256];
	uint64_t *want;
	const uint64_t *got;
	size_t words;

	if (!locale++)
		setlocale(LC_CTYPE, "C.UTF-8");
	fuzz_decode(&fc, data, size, 1);
	const char *engine = engines[fc.nextra ? fc.extra[0] % 5 : 0];
	setenv("AGREP_GPU_HOST_ENGINE", engine, 1);
	pat_init(&ps, 0, 0);
	for (int i = 0; i < fc.npat; i++)
		pat_add(&ps, (const char *)fc.pat[i], fc.plen[i]);
	ps.k = fc.k;
	ps.icase = fc.icase;
	ps.utf8 = 1;
	if (pat_compile(&ps, err, sizeof(err)) == -1 || ps.all_lines ||
	    ps.npat == 0) {
		pat_free(&ps);
		return 0;
	}
	/* The oracle: per pattern, per record, Sellers' DP over characters. */
	words = (fc.len + 63) / 64;
	want = calloc(words ? words : 1, sizeof(*want));
	/* The patterns' own bytes (str holds symbols): pat_compile split
	 * the store at '\n', in order. */
	const char *at = ps.store, *end = ps.store + ps.storelen;
	for (size_t p = 0; p < ps.npat; p++) {
		const char *nl = memchr(at, '\n', (size_t)(end - at));
		size_t n = decode((const unsigned char *)at, (size_t)(nl - at),
		    pu, NULL);
		at = nl + 1;
		for (size_t i = 0; i < n; i++)
			pu[i] = ufold(fc.icase, pu[i]);
		for (size_t r = 0; r < fc.len;) {
			const unsigned char *e = memchr(fc.text + r, fc.eol,
			    fc.len - r);
			size_t re = e ? (size_t)(e - fc.text) : fc.len;
			size_t m = decode(fc.text + r, re - r, tu, ts);
			unsigned D[FUZZ_MAXPLEN + 1];
			ts[m] = re - r;
			for (size_t i = 0; i <= n; i++)
				D[i] = (unsigned)i;
			for (size_t j = 0; j < m; j++) {
				uint32_t c = ufold(fc.icase, tu[j]);
				unsigned diag = D[0];
				D[0] = 0;
				for (size_t i = 1; i <= n; i++) {
					unsigned v = diag + (pu[i - 1] != c);
					if (D[i] + 1 < v)
						v = D[i] + 1;
					if (D[i - 1] + 1 < v)
						v = D[i - 1] + 1;
					diag = D[i];
					D[i] = v;
				}
				if (D[n] <= (unsigned)fc.k)
					bit_set(want, r + ts[j + 1] - 1);
			}
			r = re + 1;
		}
	}
	scan_open_host(&s, &ps, fc.eol, 65536);
	memcpy(scan_chunk(&s, 0), fc.text, fc.len);
	if (scan_submit(&s, 0, fc.len, fc.len, 0) != 0 ||
	    (got = scan_wait(&s, 0)) == NULL)
		abort();
	/* the shared filter (many patterns) sets one true bit per record */
	int multi = strcmp(engine, "multi") == 0 ||
	    mf_auto(&ps, fc.eol) != NULL;
	compare(&fc, want, 0, got, 0, !s.exact && !multi, "utf8 host scanner");
	if (multi)
		only_true_bits(&fc, want, got, "utf8 host scanner (multi)");
	scan_close(&s);
	free(want);
	pat_free(&ps);
	return 0;
}
