/* util.h: allocation and messages shared by every module. */
#ifndef AGREP_UTIL_H
#define AGREP_UTIL_H

#include <stddef.h>
#include <stdint.h>

extern const char *progname;
extern int opt_silent;		/* -s: no messages about files */

/* util.c */
void	*xmalloc(size_t);
void	*xcalloc(size_t, size_t);
void	*xrealloc(void *, size_t);
void	*xreallocarray(void *, size_t, size_t);
char	*xstrdup(const char *);
void	 util_set_sink(void (*)(const char *, size_t));
void	 warnx_(const char *, ...) __attribute__((format(printf, 1, 2)));
double	 util_now(void);
int	 util_cache_dir(char *, size_t, int make);
void	 fatalx(const char *, ...) __attribute__((format(printf, 1, 2), noreturn));

/* ASCII case only, whatever the locale (-i folds other characters in
 * their UTF-8 symbols, utf8.c): filter.c, multi.c and refine.c. */
static inline unsigned char
ascii_fold(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
}

/* The first bit set in bm at or after pos and before len, or len; a NULL
 * bitmap has none (hit bitmaps: output.c, search.c, records.c, sites.c). */
static inline size_t
bits_next(const uint64_t *bm, size_t pos, size_t len)
{
	size_t w = pos / 64;
	uint64_t word;

	if (bm == NULL || pos >= len)
		return len;
	word = bm[w] & (~(uint64_t)0 << (pos % 64));
	for (;;) {
		if (word != 0) {
			size_t j = w * 64 + (size_t)__builtin_ctzll(word);
			return j < len ? j : len;
		}
		if (++w * 64 >= len)
			return len;
		word = bm[w];
	}
}

static inline int
ascii_letter(unsigned char c)
{
	return ascii_fold(c) >= 'a' && ascii_fold(c) <= 'z';
}

#endif
