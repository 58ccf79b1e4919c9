/*
 * exh_common.h: what the bounded-exhaustive checks share (exhaustive.c, the
 * host engines; exhaustive_ocl.c, the OpenCL kernel on POCL): the DP
 * oracle and the sets of every small text.
 */
#ifndef AGREP_EXH_COMMON_H
#define AGREP_EXH_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAXT 16

/* Sellers' DP: sets bit j of *bits when a match ends at t[j]. */
static inline uint64_t
oracle(const char *p, size_t n, long k, const char *t, size_t len)
{
	long C[8], D[8];
	uint64_t bits = 0;

	for (size_t i = 0; i <= n; i++)
		C[i] = (long)i;
	for (size_t j = 0; j < len; j++) {
		if (t[j] == '\n') {
			for (size_t i = 0; i <= n; i++)
				C[i] = (long)i;
			if ((long)n <= k)
				bits |= (uint64_t)1 << j;
			continue;
		}
		D[0] = 0;
		for (size_t i = 1; i <= n; i++) {
			long v = C[i - 1] + (p[i - 1] != t[j]);
			if (C[i] + 1 < v)
				v = C[i] + 1;
			if (D[i - 1] + 1 < v)
				v = D[i - 1] + 1;
			D[i] = v;
		}
		memcpy(C, D, sizeof(C));
		if (C[n] <= k)
			bits |= (uint64_t)1 << j;
	}
	return bits;
}

/* The text of index idx (mixed radix: length first) over alpha. */
struct textset {
	char (*t)[MAXT];
	size_t *len;
	size_t count;
};

static inline void
make_texts(struct textset *ts, const char *alpha, size_t maxlen)
{
	size_t a = strlen(alpha), total = 0, pw = 1;

	for (size_t l = 0; l <= maxlen; l++, pw *= a)
		total += pw;
	ts->t = calloc(total, MAXT);
	ts->len = calloc(total, sizeof(size_t));
	ts->count = 0;
	pw = 1;
	for (size_t l = 0; l <= maxlen; l++, pw *= a) {
		for (size_t v = 0; v < pw; v++) {
			size_t x = v;
			for (size_t j = 0; j < l; j++, x /= a)
				ts->t[ts->count][j] = alpha[x % a];
			ts->len[ts->count++] = l;
		}
	}
}

/* Calls fn for every pattern of length 1..maxn over alpha and every k from
 * 0 to its length, with the texts ts. */
static inline void
exh_each_pattern(const char *alpha, size_t maxn, const struct textset *ts,
    void (*fn)(const char *, long, const struct textset *))
{
	size_t a = strlen(alpha), pw = 1;
	char p[8];

	for (size_t n = 1; n <= maxn; n++) {
		pw *= a;
		for (size_t v = 0; v < pw; v++) {
			size_t x = v;
			for (size_t j = 0; j < n; j++, x /= a)
				p[j] = alpha[x % a];
			p[n] = '\0';
			for (long k = 0; k <= (long)n; k++)
				fn(p, k, ts);
		}
	}
}

/* The records of chunk[cf, len) that hold a hit (bit off + j of bits for
 * chunk[j]; the last record may lack its terminator) into *hits, and the
 * terminators into *eols: what count_records must give. */
static inline void
exh_counts(const unsigned char *chunk, size_t cf, size_t len,
    const uint64_t *bits, size_t off, uint64_t *hits, uint64_t *eols)
{
	int cur = 0;

	*hits = *eols = 0;
	for (size_t j = cf; j < len; j++) {
		cur |= (int)(bits[(off + j) / 64] >> ((off + j) % 64) & 1);
		if (chunk[j] == '\n') {
			++*eols;
			*hits += (uint64_t)cur;
			cur = 0;
		}
	}
	*hits += (uint64_t)cur;
}

#endif
