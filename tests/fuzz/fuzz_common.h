/*
 * fuzz_common.h: what both libFuzzer targets share: the decoding of a fuzz
 * input into (k, -i, terminator, patterns, text), a naive Sellers DP oracle,
 * and the comparison of a hit bitmap against it.  Included by fuzz_host.c
 * and fuzz_ocl.c only (everything here is static).
 *
 * Input layout (every field is optional: a short input takes defaults):
 *
 *   byte 0     k = b % 9
 *   byte 1     bit 0: -i;  bit 1: records end at NUL (-z), else '\n';
 *              bits 2-3: patterns = 1 + v % 3
 *   [extra]    bytes the target reads itself (fuzz_ocl: 3, its shape)
 *   per pattern:
 *     2 bytes  lo, hi: length = 1 + ((hi & 1) << 8 | lo) % 300;
 *              hi bit 1: copy from the text instead of literal bytes
 *     literal: length bytes (cut short at the end of the input)
 *     copy:    2 bytes offset into the text, 1 byte edits (0..3), then
 *              per edit 2 bytes (position, new byte): the pattern is the text
 *              at that offset (wrapping), so that matches near the k
 *              boundary are common
 *   the rest   the text, at most FUZZ_MAXTEXT bytes
 *
 * Patterns go through pat_add as the tool's -e does: a '\n' inside one
 * splits it, as in grep.  The oracle splits them itself.
 */
#ifndef FUZZ_COMMON_H
#define FUZZ_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engines/hostmatch.h"
#include "engines/pattern.h"
#include "device/scan.h"

#define FUZZ_MAXK	8
#define FUZZ_MAXPAT	3
#define FUZZ_MAXPLEN	300
#define FUZZ_MAXTEXT	4096

struct fcase {
	int		 k, icase;
	unsigned char	 eol;
	const unsigned char *extra;	/* the target's own bytes, or NULL */
	size_t		 nextra;
	unsigned char	 pat[FUZZ_MAXPAT][FUZZ_MAXPLEN];
	size_t		 plen[FUZZ_MAXPAT];
	int		 npat;
	const unsigned char *text;
	size_t		 len;
};

/* A cursor over the fuzz input. */
struct fin {
	const uint8_t	*p;
	size_t		 n;
};

static int
fin_byte(struct fin *in, unsigned char *b)
{
	if (in->n == 0)
		return 0;
	*b = *in->p++;
	in->n--;
	return 1;
}

static unsigned
fin_get(struct fin *in, unsigned dflt)
{
	unsigned char b;

	return fin_byte(in, &b) ? b : dflt;
}

/* Decodes an input; nextra bytes after the flags go to the target. */
static void
fuzz_decode(struct fcase *fc, const uint8_t *data, size_t size,
    size_t nextra)
{
	struct fin in = { data, size };
	unsigned flags;
	struct {
		int copy;
		size_t off;
		int nedit;
		unsigned char epos[3], eval[3];
	} spec[FUZZ_MAXPAT];

	memset(fc, 0, sizeof(*fc));
	fc->k = (int)(fin_get(&in, 1) % (FUZZ_MAXK + 1));
	flags = fin_get(&in, 0);
	fc->icase = flags & 1;
	fc->eol = flags & 2 ? '\0' : '\n';
	fc->npat = 1 + (int)((flags >> 2) & 3) % FUZZ_MAXPAT;
	fc->extra = in.p;
	fc->nextra = in.n < nextra ? in.n : nextra;
	in.p += fc->nextra;
	in.n -= fc->nextra;
	for (int i = 0; i < fc->npat; i++) {
		unsigned lo = fin_get(&in, 3), hi = fin_get(&in, 2);
		fc->plen[i] = 1 + (((hi & 1) << 8 | lo) % FUZZ_MAXPLEN);
		spec[i].copy = (hi >> 1) & 1;
		if (!spec[i].copy) {
			size_t n = fc->plen[i] < in.n ? fc->plen[i] : in.n;
			memcpy(fc->pat[i], in.p, n);
			in.p += n;
			in.n -= n;
			fc->plen[i] = n;	/* may be 0: an empty pattern */
			continue;
		}
		spec[i].off = fin_get(&in, 0) | fin_get(&in, 0) << 8;
		spec[i].nedit = (int)(fin_get(&in, 0) % 4);
		for (int e = 0; e < spec[i].nedit; e++) {
			spec[i].epos[e] = (unsigned char)fin_get(&in, 0);
			spec[i].eval[e] = (unsigned char)fin_get(&in, 'x');
		}
	}
	fc->text = in.p;
	fc->len = in.n < FUZZ_MAXTEXT ? in.n : FUZZ_MAXTEXT;
	/* Copied patterns come from the text, now that it is known. */
	for (int i = 0; i < fc->npat; i++) {
		if (!spec[i].copy)
			continue;
		for (size_t j = 0; j < fc->plen[i]; j++)
			fc->pat[i][j] = fc->len ?
			    fc->text[(spec[i].off + j) % fc->len] : 'a';
		for (int e = 0; e < spec[i].nedit; e++)
			fc->pat[i][spec[i].epos[e] % fc->plen[i]] =
			    spec[i].eval[e];
	}
}

/* Builds the pattern set as the tool does (-e for each pattern). */
static int __attribute__((unused))
fuzz_patset(const struct fcase *fc, struct patset *ps)
{
	char err[256];

	pat_init(ps, 0, 0);
	for (int i = 0; i < fc->npat; i++)
		pat_add(ps, (const char *)fc->pat[i], fc->plen[i]);
	ps->k = fc->k;
	ps->icase = fc->icase;
	if (pat_compile(ps, err, sizeof(err)) == -1) {
		fprintf(stderr, "fuzz: pat_compile failed: %s\n", err);
		abort();
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* The oracle: Sellers' DP, one column at a time, independent of src/. */

static unsigned char
fold(int icase, unsigned char c)
{
	return icase && c >= 'A' && c <= 'Z' ? (unsigned char)(c - 'A' + 'a') :
	    c;
}

static void
bit_set(uint64_t *bm, size_t j)
{
	bm[j / 64] |= (uint64_t)1 << (j % 64);
}

static int
bit_get(const uint64_t *bm, size_t j)
{
	return (bm[j / 64] >> (j % 64)) & 1;
}

/*
 * Sets want[j] for every text position j that is not a terminator and where
 * some pattern has min over starts of D[n][j] <= k within j's record;
 * returns 1 when some pattern is within k of the empty string (every record
 * is selected, the empty ones too).
 */
static int __attribute__((unused))
oracle(const struct fcase *fc, uint64_t *want)
{
	unsigned char p[FUZZ_MAXPAT * (FUZZ_MAXPLEN + 1)];
	size_t plen[FUZZ_MAXPAT * (FUZZ_MAXPLEN + 1)], np = 0, cur = 0;
	int all = 0;

	/* Split the patterns at '\n' as grep (and pat_add) does. */
	for (int i = 0; i < fc->npat; i++) {
		size_t n = 0;
		for (size_t j = 0; j <= fc->plen[i]; j++) {
			if (j == fc->plen[i] || fc->pat[i][j] == '\n') {
				plen[np++] = n;
				cur += n;
				n = 0;
				continue;
			}
			p[cur + n++] = fold(fc->icase, fc->pat[i][j]);
		}
	}
	memset(want, 0, (fc->len + 63) / 64 * sizeof(*want));
	cur = 0;
	for (size_t q = 0; q < np; q++) {
		const unsigned char *P = p + cur;
		const size_t n = plen[q];
		unsigned D[FUZZ_MAXPLEN + 1];

		cur += n;
		if (n <= (size_t)fc->k) {
			all = 1;
			continue;
		}
		for (size_t i = 0; i <= n; i++)
			D[i] = (unsigned)i;
		for (size_t j = 0; j < fc->len; j++) {
			unsigned char c = fc->text[j];
			if (c == fc->eol) {		/* a new record */
				for (size_t i = 0; i <= n; i++)
					D[i] = (unsigned)i;
				continue;
			}
			c = fold(fc->icase, c);
			unsigned diag = D[0];		/* D[i-1][j-1] */
			D[0] = 0;
			for (size_t i = 1; i <= n; i++) {
				unsigned v = diag + (P[i - 1] != c);
				if (D[i] + 1 < v)
					v = D[i] + 1;
				if (D[i - 1] + 1 < v)
					v = D[i - 1] + 1;
				diag = D[i];
				D[i] = v;
			}
			if (D[n] <= (unsigned)fc->k)
				bit_set(want, j);
		}
	}
	return all;
}

/* ------------------------------------------------------------------ */
/* Reporting. */

static void
put_escaped(const unsigned char *s, size_t n, size_t max)
{
	fputc('"', stderr);
	for (size_t i = 0; i < n && i < max; i++) {
		unsigned char c = s[i];
		if (c == '"' || c == '\\')
			fprintf(stderr, "\\%c", c);
		else if (c >= 0x20 && c < 0x7f)
			fputc(c, stderr);
		else
			fprintf(stderr, "\\x%02x", c);
	}
	fputc('"', stderr);
	if (n > max)
		fprintf(stderr, "... (%zu bytes)", n);
}

static void
describe(const struct fcase *fc, const char *engine)
{
	fprintf(stderr, "\n=== agrep-gpu fuzz MISMATCH (%s) ===\n", engine);
	fprintf(stderr, "k=%d icase=%d eol=%s patterns=%d text=%zu bytes\n",
	    fc->k, fc->icase, fc->eol ? "'\\n'" : "NUL", fc->npat, fc->len);
	for (int i = 0; i < fc->npat; i++) {
		fprintf(stderr, "  pattern %d (%zu bytes): ", i, fc->plen[i]);
		put_escaped(fc->pat[i], fc->plen[i], 400);
		fputc('\n', stderr);
	}
}

/* With FUZZ_SHOW=1 in the environment, prints each decoded case and how
 * many records the oracle selects (to check seeds, or replay a crash). */
static void __attribute__((unused))
show_case(const struct fcase *fc, const uint64_t *want, int all,
    const char *engine)
{
	size_t ls = 0, nrec = 0, nsel = 0;
	const char *e = getenv("FUZZ_SHOW");

	if (e == NULL || *e == '\0' || *e == '0')
		return;
	while (ls < fc->len) {
		const unsigned char *t = memchr(fc->text + ls, fc->eol,
		    fc->len - ls);
		size_t le = t ? (size_t)(t - fc->text) : fc->len;
		int w = all;
		for (size_t j = ls; j < le; j++)
			w |= bit_get(want, j);
		nsel += w;
		nrec++;
		ls = le + 1;
	}
	fprintf(stderr, "--- case (%s)\nk=%d icase=%d eol=%s patterns=%d "
	    "text=%zu bytes: %zu of %zu records selected\n", engine, fc->k,
	    fc->icase, fc->eol ? "'\\n'" : "NUL", fc->npat, fc->len, nsel,
	    nrec);
	for (int i = 0; i < fc->npat; i++) {
		fprintf(stderr, "  pattern %d (%zu bytes): ", i, fc->plen[i]);
		put_escaped(fc->pat[i], fc->plen[i], 400);
		fputc('\n', stderr);
	}
}

/*
 * Compares a hit bitmap over the whole text with the oracle: first record
 * by record, as the tool selects them (a record is selected when a bit is
 * set anywhere in it, its terminator included: see output.c), then, when
 * exact_bits is set, bit by bit (the bitmap contract: bit j set exactly when
 * a match ends at byte j).  Aborts with a message on a difference.
 */
static void
compare(const struct fcase *fc, const uint64_t *want, int all,
    const uint64_t *got, int got_all, int exact_bits, const char *engine)
{
	size_t ls = 0, rec = 0;

	if (all != got_all) {
		describe(fc, engine);
		fprintf(stderr, "all_lines: oracle %d, patset %d\n", all,
		    got_all);
		abort();
	}
	if (all)
		return;
	while (ls < fc->len) {
		const unsigned char *t = memchr(fc->text + ls, fc->eol,
		    fc->len - ls);
		size_t le = t ? (size_t)(t - fc->text) : fc->len;
		int w = 0, g = 0;
		for (size_t j = ls; j < le; j++)
			w |= bit_get(want, j);
		for (size_t j = ls; j <= le && j < fc->len; j++)
			g |= bit_get(got, j);
		if (w != g) {
			describe(fc, engine);
			fprintf(stderr, "record %zu (bytes %zu..%zu): oracle "
			    "%s, %s %s\n  record: ", rec, ls, le,
			    w ? "SELECTS" : "rejects", engine,
			    g ? "SELECTS" : "rejects");
			put_escaped(fc->text + ls, le - ls, 400);
			fputc('\n', stderr);
			abort();
		}
		ls = le + 1;
		rec++;
	}
	if (!exact_bits)
		return;
	for (size_t j = 0; j < fc->len; j++) {
		if (bit_get(want, j) == bit_get(got, j))
			continue;
		describe(fc, engine);
		fprintf(stderr, "records agree, but the hit bit of byte %zu "
		    "differs: oracle %d, %s %d (byte 0x%02x)\n", j,
		    bit_get(want, j), engine, bit_get(got, j), fc->text[j]);
		abort();
	}
}

/* Aborts when got sets a bit where no match ends (the shared filter sets
 * one bit per selected record, a true one). */
static void __attribute__((unused))
only_true_bits(const struct fcase *fc, const uint64_t *want,
    const uint64_t *got, const char *engine)
{
	for (size_t j = 0; j < fc->len; j++)
		if (bit_get(got, j) && !bit_get(want, j)) {
			describe(fc, engine);
			fprintf(stderr, "%s sets the bit of byte %zu, where no "
			    "match ends\n", engine, j);
			abort();
		}
}


#endif
