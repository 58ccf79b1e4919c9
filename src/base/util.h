/* util.h: allocation and messages shared by every module. */
#ifndef AGREP_UTIL_H
#define AGREP_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

extern const char *progname;
extern int opt_silent;		/* -s: no messages about files */

/* util.c */
void	*xmalloc(size_t);
void	*util_alloc_big(size_t);
void	 util_free_big(void *);
void	*xcalloc(size_t, size_t);
void	*xrealloc(void *, size_t);
void	*xreallocarray(void *, size_t, size_t);
char	*xstrdup(const char *);
void	 util_set_sink(void (*)(const char *, size_t));
void	 warnx_(const char *, ...) __attribute__((format(printf, 1, 2)));
double	 util_now(void);
double	 util_thread_cpu(void);
extern __thread double util_build_cpu;
int	 util_cache_dir(char *, size_t, int make);
int	 util_cache_file(char *path, size_t len, const char *name, int make);
int	 util_cache_replace(const char *tmp, const char *path);
void	 fatalx(const char *, ...) __attribute__((format(printf, 1, 2), noreturn));

/* ASCII case only, whatever the locale (-i folds other characters in
 * their UTF-8 symbols, utf8.c): filter.c, multi.c and refine.c. */
static inline unsigned char
ascii_fold(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
}

/* The start of the record holding text[j] (after the last terminator eol
 * before it; from at the earliest), and its end (its terminator's
 * offset, or to): output.c's lines, the verification of the records a
 * first search selected (hostmatch.c's hamming_sel, regex/weighted.c). */
static inline size_t
record_start(const unsigned char *text, size_t from, size_t j,
    unsigned char eol)
{
	const unsigned char *p = j > from ? memrchr(text + from, eol,
	    j - from) : NULL;

	return p != NULL ? (size_t)(p - text) + 1 : from;
}

static inline size_t
record_end(const unsigned char *text, size_t j, size_t to, unsigned char eol)
{
	const unsigned char *p = memchr(text + j, eol, to - j);

	return p != NULL ? (size_t)(p - text) : to;
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
