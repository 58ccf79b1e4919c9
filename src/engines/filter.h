/*
 * filter.h: the pigeonhole filter of the host matcher (issue 10): it
 * proposes the records of a chunk that may hold a match of one pattern;
 * the caller (hostmatch.c) verifies them.
 */
#ifndef AGREP_FILTER_H
#define AGREP_FILTER_H

#include <stddef.h>
#include <stdint.h>

#include "pattern.h"

/*
 * Thresholds, measured on the King James Bible (2-core AMD EPYC, one core;
 * bench/results/2core-simd.md, "Pigeonhole filter").  Overridable with -D.
 *   FLT_MINPIECE: the filter runs only when every piece holds at least this
 *     many bytes (no case with 1-byte pieces won; LORD k=1, pieces of 2,
 *     did: the density guard below catches the rest).
 *   FLT_MAXPIECES: at most this many pieces (k + 1) when the alternative is
 *     the scalar engine (patterns over 63 bytes, small chunks), and
 *     FLT_MAXPIECES_SIMD when it is the SIMD engine: the search tests every
 *     piece at every position, so its cost grows with k (a 60-byte phrase:
 *     6 pieces 2.3x the SIMD engine, 10 pieces 0.8x).
 *   FLT_DENSITY, FLT_DENSITY_SIMD: the filter gives up (the engines scan
 *     the rest) once the records it proposed exceed 1/FLT_DENSITY of the
 *     bytes searched so far, plus FLT_SLACK bytes (break-even: about a
 *     quarter of the text verified against the SIMD engine, most of it
 *     against the scalar one).
 *   FLT_MISSES, FLT_MISSES_SIMD: it also gives up once the positions where
 *     a piece's two tested bytes agree but the piece does not occur pass
 *     1/FLT_MISSES of the bytes searched (1/FLT_MISSES_SIMD against the
 *     SIMD engine), plus FLT_SLACK.  English text: 0-2.5 % of the bytes
 *     (the bench's Bible cases); random DNA, 4 letters: 18-34 %, where the
 *     filter ran 1.04 s against the SIMD engine's 0.17 s (256 MB, a
 *     60-byte pattern, k=5, 2 cores).  Against the scalar engine (patterns
 *     over 63 bytes) the filter still paid up to ~22 % (105 bytes, k=3:
 *     0.06 s against 0.11 s on 20 MB of DNA; k=10, 34 %: 0.18 s against 0.11).
 */
#ifndef FLT_MINPIECE
#define FLT_MINPIECE	2
#endif
#ifndef FLT_MAXPIECES
#define FLT_MAXPIECES	32
#endif
#ifndef FLT_MAXPIECES_SIMD
#define FLT_MAXPIECES_SIMD	8
#endif
#ifndef FLT_DENSITY
#define FLT_DENSITY	2
#endif
#ifndef FLT_DENSITY_SIMD
#define FLT_DENSITY_SIMD	5
#endif
#ifndef FLT_SLACK
#define FLT_SLACK	16384
#endif
#ifndef FLT_MISSES
#define FLT_MISSES	4
#endif
#ifndef FLT_MISSES_SIMD
#define FLT_MISSES_SIMD	16
#endif
/*
 * What the caller's engines would cost instead, which sets the thresholds
 * above: the scalar engine (patterns over SIMD_MAXLEN bytes, small chunks,
 * a forced scalar engine), the SIMD one, or the SIMD one at the VBMI
 * engines' speed (simd_fast: stricter limits, below in filter.c).
 */
enum { FLT_ALT_SCALAR, FLT_ALT_SIMD, FLT_ALT_FAST };

/* flt_propose's answers. */
enum {
	FLT_DONE,		/* the text is searched to its end */
	FLT_MORE,		/* the list is full: verify it, call again */
	FLT_GAVEUP		/* candidates too dense: verify the list,
				 * then scan text[at, warm + len) whole */
};

/*
 * A candidate record, text[from, to): from is 0 or follows a terminator,
 * to is a terminator or the end; the matches ending in [max(from, warm),
 * to) are the pattern's there.
 */
struct flt_win {
	size_t from, to;
};

/* A piece: bytes s[0, len) of the pattern, tested first at offsets i1, i2
 * ((text[pos + i] | m) == b). */
struct flt_piece {
	const unsigned char *s;
	size_t len;
	size_t i1, i2;
	unsigned char b1, b2, m1, m2;
	size_t fo;		/* its rarest 3 bytes start at s[fo] (the
				 * nibble search: filter.c) */
};

/* One search, on the caller's stack (filter.c's fields). */
struct flt {
	int icase, force;
	const unsigned char *text;
	size_t warm, all;	/* all = warm + len */
	unsigned char eol;
	struct flt_piece pc[FLT_MAXPIECES];
	size_t npc, maxlen;
	size_t maxfo;		/* the largest fo; 0 with no nibble search */
	int nibble;		/* the nibble search (filter.c) applies */
	size_t pos, rs;		/* where the search goes on; the last record
				 * start known, no candidate in [rs, pos) */
	size_t proposed;	/* record bytes proposed so far */
	size_t density;		/* give up past proposed > bytes / density */
	size_t misses;		/* positions whose pair agreed, no piece */
	size_t noise;		/* give up past misses > bytes / noise */
	int memo;		/* the thread's cut memo is this search's
				 * (filter.c: cut_memo) */
};

/* filter.c */
int	flt_start(struct flt *, const struct pattern *, long k, int icase,
	    const unsigned char *text, size_t warm, size_t len,
	    unsigned char eol, int alt, int force);
int	flt_propose(struct flt *, struct flt_win *, size_t max, size_t *n,
	    size_t *at);
unsigned flt_byte_rank(unsigned char c, int icase);

/* An exact search for one string (k = 0): its three rarest bytes compared
 * at their offsets, a vector of positions at a time (filter.c). */
struct flt_find {
	const unsigned char *s;
	size_t len;
	size_t i[3];		/* the offsets compared, distinct where the
				 * string is long enough */
};
void	flt_find_init(struct flt_find *, const unsigned char *s, size_t len);
const unsigned char *flt_find(const struct flt_find *,
	    const unsigned char *t, size_t n);

#endif
