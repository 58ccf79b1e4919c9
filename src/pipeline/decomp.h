/*
 * decomp.h: --decompress, a compressed input read as a plain stream.
 *
 * The caller names the format (dz_sniff on the first bytes) and gets back
 * the read end of a pipe that background threads fill with the decoded
 * bytes, so the search reads it as it reads standard input; or, opened
 * direct, dz_fill hands them over from a ring in memory (no pipe).  Link with
 * -lisal -lzstd -llzma -lbz2 -llz4 -lpthread.
 */
#ifndef AGREP_DECOMP_H
#define AGREP_DECOMP_H

#include <stddef.h>
#include <sys/types.h>

enum dz_format { DZ_NONE, DZ_GZIP, DZ_BGZF, DZ_ZSTD, DZ_XZ, DZ_BZIP2, DZ_LZ4 };

/* Bytes of the input that dz_sniff wants to see (fewer may say DZ_NONE
 * or DZ_GZIP where more would say DZ_BGZF or DZ_ZSTD). */
#define DZ_SNIFFLEN	64

struct dz;

/* decomp.c */
enum dz_format	 dz_sniff(const unsigned char *, size_t);
int		 dz_sniff_more(const unsigned char *, size_t);
const char	*dz_load_error(enum dz_format);
const char	*dz_name(enum dz_format);
struct dz	*dz_open(int fd, const unsigned char *head, size_t headlen,
		    enum dz_format, int threads, int direct);
int		 dz_fd(const struct dz *);
ssize_t		 dz_fill(struct dz *, unsigned char *, size_t want, int *eof,
		    int partial);
ssize_t		 dz_fill_paced(struct dz *, unsigned char *, size_t want,
		    int *eof, unsigned char eol, int (*stop)(void *), void *arg);
int		 dz_close(struct dz *, char *err, size_t errlen);

/* The splitter: a BGZF or zstd input cut into spans of whole blocks or
 * frames, each decoded where the caller wants it, on whichever thread. */
struct dzsplit;
struct dzspan;

struct dzsplit	*dzs_open(int fd, const unsigned char *head, size_t headlen,
		    enum dz_format, size_t budget, size_t maxunit, int ways);
void		 dzs_pace(struct dzsplit *, int (*stop)(void *), void *arg);
int		 dzs_next(struct dzsplit *, struct dzspan **);
size_t		 dzs_bound(const struct dzspan *);
size_t		 dzs_decode(const struct dzspan *, unsigned char *out,
		    int *bad);
void		 dzs_free(struct dzspan *);
struct dz	*dzs_rest(struct dzsplit *, struct dzspan *const *, int n,
		    int unit, int threads);
void		 dzs_close(struct dzsplit *);

#endif
