/*
 * zin.c: compressed inputs in the pipeline (--decompress).  An input whose
 * first bytes name a format decomp.c decodes is read through its decoder:
 * a ring that a background thread fills with the decoded bytes, which the
 * pipeline streams as it streams standard input (ranges for the workers,
 * or the ring of one job).  BGZF and zstd go to the ranges as spans of
 * whole blocks or frames that the workers decode themselves (range.c,
 * submit_spans).  Names stay the file names; line numbers, byte
 * offsets and everything printed are those of the decoded text.  A decoding
 * fault is reported when the input is done, after everything decoded
 * before it was searched: the name, what went wrong and the byte where,
 * and exit status 2.
 *
 * Without --decompress, the first compressed input gets a note (once a
 * run), unless -s or -q: searched as it is, it is binary noise, and
 * nothing else would say so.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "decomp.h"
#include "input.h"
#include "pool.h"
#include "search_int.h"
#include "zin.h"
#include "../base/util.h"

/* Says, once a run, that the input name starting with buf[0, len) is
 * compressed and --decompress would search its contents. */
void
zin_note(const char *name, const unsigned char *buf, size_t len)
{
	static int noted;
	enum dz_format f;

	if (opt->decompress || opt->silent || opt->quiet ||
	    __atomic_load_n(&noted, __ATOMIC_RELAXED) ||
	    (f = dz_sniff(buf, len)) == DZ_NONE ||
	    __atomic_exchange_n(&noted, 1, __ATOMIC_RELAXED))
		return;
	warnx_("%s: %s-compressed; --decompress searches its contents", name,
	    dz_name(f));
}

/*
 * The first bytes of input fd (named name): head[0, *n), and their format.
 * reg: fd is a regular file, whose first bytes are read without moving its
 * offset (*reg cleared when it cannot be told); from anything else they
 * are read, so the decoder gets them.  Returns 0, or -1 after a message.
 */
static int
zin_head(int fd, const char *name, int *reg, unsigned char *head, size_t *n,
    enum dz_format *f)
{
	ssize_t r;
	int eof = 0;
	off_t at = *reg ? lseek(fd, 0, SEEK_CUR) : (off_t)-1;

	*reg = *reg && at != (off_t)-1;
	if (*reg)
		r = in_pread(fd, head, DZ_SNIFFLEN, (uint64_t)at);
	else {
		/* (from a pipe, only while more could change the answer:
		 * what came may be all there is for a while) */
		size_t got = 0;
		do {
			r = in_fill(fd, head + got, DZ_SNIFFLEN - got, &eof, 1,
			    1);
			got += r > 0 ? (size_t)r : 0;
		} while (r > 0 && !eof && dz_sniff_more(head, got));
		r = r < 0 && got == 0 ? -1 : (ssize_t)got;
	}
	if (r < 0) {
		if (!opt->silent)
			warnx_("%s: %s", name, strerror(errno));
		return -1;
	}
	*n = (size_t)r;
	*f = dz_sniff(head, *n);
	return 0;
}

/* Opens the decoder of format f for fd (name, reg and head as zin_head
 * left them); NULL after a message. */
static struct dz *
zin_dz(int fd, const char *name, int reg, const unsigned char *head,
    size_t n, enum dz_format f)
{
	struct dz *z = dz_open(fd, reg ? NULL : head, reg ? 0 : n, f,
	    pool_workers(), 1);

	if (z == NULL) {
		if (!opt->silent && errno == ELIBACC)
			warnx_("%s: %s: %s", name, dz_name(f),
			    dz_load_error(f));
		else if (!opt->silent)
			warnx_("%s: %s", name, strerror(errno));
	}
	return z;
}

/*
 * The decoder for input fd (named name), or NULL when it is not
 * compressed and can be read as it is.  reg: fd is a regular file, whose
 * first bytes are read without moving its offset; from anything else they
 * are read, so the decoder gets them and passes the input on as it is when
 * it is not compressed, unless first is set: then they go to
 * first[0, *nfirst) (DZ_SNIFFLEN bytes at most), to be searched before the
 * rest of fd (a decoder passing the input on is read a buffer at a time:
 * `(echo x; sleep 60) | agrep-gpu -m1 --decompress x` waited the minute).
 * *err: set on a failure (after a message).
 */
struct dz *
zin_open(int fd, const char *name, int reg, int *err, unsigned char *first,
    size_t *nfirst)
{
	unsigned char head[DZ_SNIFFLEN];
	enum dz_format f;
	size_t n;
	struct dz *z;

	*err = 0;
	if (nfirst != NULL)
		*nfirst = 0;
	if (zin_head(fd, name, &reg, head, &n, &f) == -1) {
		*err = 1;
		return NULL;
	}
	if (f == DZ_NONE && reg)
		return NULL;
	if (f == DZ_NONE && first != NULL) {
		memcpy(first, head, n);
		*nfirst = n;
		return NULL;
	}
	if ((z = zin_dz(fd, name, reg, head, n, f)) == NULL)
		*err = 1;
	return z;
}

/* Ends the decoder z of input name: reports a decoding fault.  Returns 0,
 * or -1 after the message (the run's exit status is then 2). */
int
zin_close(struct dz *z, const char *name)
{
	char err[256];

	if (dz_close(z, err, sizeof(err)) == 0)
		return 0;
	if (!opt->silent)
		warnx_("%s: %s", name, err);
	__atomic_store_n(&S.job_failed, 1, __ATOMIC_RELAXED);
	return -1;
}

/*
 * With --decompress and the ranges' pipeline: searches the input path (NULL:
 * standard input, named name) as a stream of its decoded bytes when it is
 * compressed (standard input, unless a regular file: whatever it holds),
 * calling flush first (the walk's batch of small files goes before it).
 * Returns 1 when it took the input (searched, or failed after a message),
 * 0 when the input is to be searched as it is.
 */
int
zin_submit(const char *path, const char *name, int show_name,
    void (*flush)(void))
{
	unsigned char head[DZ_SNIFFLEN];
	enum dz_format f;
	struct dzsplit *split = NULL;
	struct dz *z;
	struct stat st;
	size_t n;
	int fd = path != NULL ? open(path, O_RDONLY) : STDIN_FILENO;
	int reg = fd != -1 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode);

	if (fd == -1) {
		/* (the ordinary path says why, in order) */
		return 0;
	}
	if (zin_head(fd, name, &reg, head, &n, &f) == -1) {
		if (path != NULL)
			close(fd);
		__atomic_store_n(&S.job_failed, 1, __ATOMIC_RELAXED);
		return 1;
	}
	if (f == DZ_NONE && reg) {
		if (path != NULL)
			close(fd);
		return 0;
	}
	/* Not compressed, from a pipe: streamed as without --decompress,
	 * its first bytes first (a decoder passing it on would wait for
	 * ranges of it whole: `(echo x; sleep 60) | agrep-gpu -q
	 * --decompress x` waited the minute). */
	if (f == DZ_NONE) {
		flush();
		if (submit_stream_z(fd, name, show_name, NULL, path != NULL ?
		    fd : -1, head, n) == -1)
			__atomic_store_n(&S.job_failed, 1, __ATOMIC_RELAXED);
		return 1;
	}
	/* BGZF blocks and zstd frames: spans that the workers decode (a
	 * range of decoded bytes each, a block or frame of up to 2) */
	if (f == DZ_BGZF || f == DZ_ZSTD)
		split = dzs_open(fd, reg ? NULL : head, reg ? 0 : n, f, S.range,
		    2 * S.range, pool_workers());
	z = split == NULL ? zin_dz(fd, name, reg, head, n, f) : NULL;
	if (split == NULL && z == NULL) {
		if (path != NULL)
			close(fd);
		__atomic_store_n(&S.job_failed, 1, __ATOMIC_RELAXED);
		return 1;
	}
	flush();
	if (split != NULL)
		submit_spans(fd, name, show_name, split, path != NULL ? fd : -1);
	else if (submit_stream_z(dz_fd(z), name, show_name, z, path != NULL ?
	    fd : -1, NULL, 0) == -1)
		__atomic_store_n(&S.job_failed, 1, __ATOMIC_RELAXED);
	return 1;
}

/* Whether the file path is compressed (--decompress: searched whole, by
 * this process, never cut into byte ranges). */
int
zin_compressed(const char *path)
{
	unsigned char head[DZ_SNIFFLEN];
	int fd = open(path, O_RDONLY);
	ssize_t n = fd != -1 ? in_pread(fd, head, sizeof(head), 0) : -1;

	if (fd != -1)
		close(fd);
	return n > 0 && dz_sniff(head, (size_t)n) != DZ_NONE;
}

/* search_fd over the decoder z's output (fill() takes it from there), or
 * over fd itself when z is NULL, first[0, nfirst) before it (zin_open);
 * then ends z (named name).  Returns 0, or -1 after a message. */
int
zin_search(struct searcher *w, struct dz *z, int fd, struct fstate *fs,
    const char *name, const unsigned char *first, size_t nfirst)
{
	int rc;

	w->dz = z;
	w->prefill = first;
	w->prefill_len = nfirst;
	rc = search_fd(w, z != NULL ? dz_fd(z) : fd, fs);
	w->prefill = NULL;
	w->prefill_len = 0;
	w->dz = NULL;
	if (z != NULL && zin_close(z, name) == -1)
		rc = -1;
	return rc;
}
