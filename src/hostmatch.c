/*
 * hostmatch.c: Myers' bit-parallel approximate matching (J. ACM 46(3), 1999)
 * in plain C, with the same semantics and variable names as kernels/myers.cl.
 * It is the fast twin of the tests' DP oracle and the engine for inputs so
 * small that starting OpenCL would dominate.
 */
#include <string.h>

#include "hostmatch.h"

/*
 * Scans text[0, warm + len) and sets bit j of the bitmap when a match of some
 * pattern ends at text[warm + j].  The first warm bytes only build up state
 * (they are the n + k - 1 bytes before the chunk, or terminators).  The state
 * is reset at every terminator, so no match crosses a record boundary.
 */
void
hm_scan(const struct patset *ps, const unsigned char *text, size_t warm,
    size_t len, unsigned char eol, uint64_t *bitmap)
{
	size_t nwords = (len + 63) / 64;

	memset(bitmap, 0, nwords * sizeof(*bitmap));
	for (size_t p = 0; p < ps->npat; p++) {
		const struct pattern *pat = &ps->pat[p];
		const uint64_t *PEq = pat->peq;
		const uint64_t last = (uint64_t)1 << (pat->len - 1);
		const long n = (long)pat->len, k = ps->k;
		uint64_t VP = ~(uint64_t)0, VN = 0;
		long score = n;

		for (size_t i = 0; i < warm + len; i++) {
			unsigned char c = text[i];
			uint64_t Eq = PEq[c];
			uint64_t X = Eq | VN;
			uint64_t D0 = (((X & VP) + VP) ^ VP) | X;
			uint64_t HN = VP & D0;
			uint64_t HP = VN | ~(VP | D0);

			score += (HP & last) != 0;
			score -= (HN & last) != 0;
			X = HP << 1;
			VN = X & D0;
			VP = (HN << 1) | ~(X | D0);
			if (c == eol) {
				VP = ~(uint64_t)0;
				VN = 0;
				score = n;
			}
			if (score <= k && i >= warm) {
				size_t j = i - warm;
				bitmap[j / 64] |= (uint64_t)1 << (j % 64);
			}
		}
	}
}

/*
 * The k = 0 path for one pattern without -i: memmem finds an occurrence,
 * its end bit is set, and the search goes on after the record's terminator
 * (one bit per record is all output needs).  The pattern holds no
 * terminator, so an occurrence never crosses one.
 */
void
hm_exact(const struct pattern *pat, const unsigned char *text, size_t len,
    unsigned char eol, uint64_t *bitmap)
{
	size_t pos = 0;

	memset(bitmap, 0, (len + 63) / 64 * sizeof(*bitmap));
	while (pos + pat->len <= len) {
		const unsigned char *m = memmem(text + pos, len - pos, pat->str,
		    pat->len);
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
