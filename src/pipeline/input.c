/* input.c: read() into caller-owned buffers, and directory recursion. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <fnmatch.h>
#include <fts.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input.h"
#include "../base/util.h"

/* Reads until want bytes are in buf or the input ends (*eof set); returns
 * the bytes read, or -1 with errno set. */
static ssize_t
fill_serial(int fd, unsigned char *buf, size_t want, int *eof, int partial)
{
	size_t got = 0;

	while (got < want && !(partial && got > 0)) {
		ssize_t n = read(fd, buf + got, want - got);
		if (n == 0) {
			*eof = 1;
			break;
		}
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		got += (size_t)n;
	}
	return (ssize_t)got;
}

#define PAR_MIN		(8u << 20)	/* parallel reads from this size */
#define PAR_MAX		8		/* reader threads at most */

/* One reader thread's share of a parallel fill. */
struct part {
	int		 fd;
	unsigned char	*buf;
	size_t		 want, got;
	off_t		 off;
	int		 err;
};

/* Reads want bytes at off; returns the bytes read (fewer at the end of the
 * file), or -1 with errno set.  The file offset stays where it was. */
ssize_t
in_pread(int fd, unsigned char *buf, size_t want, uint64_t off)
{
	size_t got = 0;

	while (got < want) {
		ssize_t n = pread(fd, buf + got, want - got,
		    (off_t)(off + got));
		if (n == 0)
			break;
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		got += (size_t)n;
	}
	return (ssize_t)got;
}

static void *
read_part(void *arg)
{
	struct part *p = arg;
	ssize_t n = in_pread(p->fd, p->buf, p->want, (uint64_t)p->off);

	if (n < 0)
		p->err = errno;
	else
		p->got = (size_t)n;
	return NULL;
}

/*
 * Fills from a regular file with several threads, each pread()ing one part:
 * one reader thread copies from the page cache at 5-7 GB/s, several at
 * 20-30 (DESIGN.md).  The data kept ends at the first short part.  Returns
 * the bytes read and moves the file offset past them, or -1 (errno set).
 */
static ssize_t
fill_parallel(int fd, unsigned char *buf, size_t want, int nthreads,
    int *eof)
{
	struct part parts[PAR_MAX];
	pthread_t tids[PAR_MAX];
	off_t off = lseek(fd, 0, SEEK_CUR);
	size_t each = (want / nthreads + 4095) & ~(size_t)4095, got = 0;
	int started = 0, err = 0;

	if (off == (off_t)-1)
		return fill_serial(fd, buf, want, eof, 0);
	for (int i = 0; i < nthreads; i++) {
		size_t at = (size_t)i * each;
		parts[i] = (struct part){ fd, buf + at, 0, 0, off + (off_t)at,
		    0 };
		parts[i].want = at >= want ? 0 : (want - at < each ?
		    want - at : each);
		if (i == 0 || pthread_create(&tids[i], NULL, read_part,
		    &parts[i]) != 0)
			continue;
		started |= 1 << i;
	}
	read_part(&parts[0]);
	for (int i = 1; i < nthreads; i++) {
		if (started & (1 << i))
			pthread_join(tids[i], NULL);
		else
			read_part(&parts[i]);
	}
	for (int i = 0; i < nthreads; i++) {
		if (parts[i].err != 0 && !err)
			err = parts[i].err;
		got += parts[i].got;
		if (parts[i].got < parts[i].want) {
			*eof = 1;
			break;
		}
	}
	if (err != 0 && got == 0) {
		errno = err;
		return -1;
	}
	lseek(fd, off + (off_t)got, SEEK_SET);
	return (ssize_t)got;
}

/* A larger pipe buffer: fewer, larger reads from pipes (the first pipe
 * read only). */
static void
pipe_size(int fd, const struct stat *st)
{
	static int piped;

	if (S_ISFIFO(st->st_mode) &&
	    !__atomic_exchange_n(&piped, 1, __ATOMIC_RELAXED))
		fcntl(fd, F_SETPIPE_SZ, 1 << 20);
}

/*
 * Reads until want bytes are in buf or the input ends (*eof set).  read() is
 * used for files and pipes alike: one copy, memory bounded by the caller's
 * buffer, and a file truncated under us is just a shorter file.  Large reads
 * from regular files are split among threads.  partial: return as soon as
 * some bytes came (for --line-buffered).  readers: reader threads allowed
 * (the pipeline's workers pass 1: they are the parallelism).  Returns the
 * bytes read, or -1 with errno set.
 */
ssize_t
in_fill(int fd, unsigned char *buf, size_t want, int *eof, int partial,
    int readers)
{
	struct stat st;
	off_t at;

	if (fstat(fd, &st) == 0) {
		pipe_size(fd, &st);
		/* Several readers only when enough of the file is left: a
		 * thread per small file would cost more than it reads. */
		if (readers > PAR_MAX)
			readers = PAR_MAX;
		if (!partial && want >= PAR_MIN && readers > 1 &&
		    S_ISREG(st.st_mode) &&
		    (at = lseek(fd, 0, SEEK_CUR)) != (off_t)-1 &&
		    st.st_size - at >= (off_t)PAR_MIN)
			return fill_parallel(fd, buf, want, readers, eof);
	}
	return fill_serial(fd, buf, want, eof, partial);
}

/*
 * in_fill for a pipe or a terminal, as grep searches what a read gives
 * it: reads until want bytes are in, the input ends, or nothing more comes
 * within IN_PAUSE ms once a whole record has (a terminator eol): `tail -f
 * log | agrep-gpu -m1 ERR` printed nothing and never ended, waiting for a
 * chunk of 16 MiB.  While nothing comes, it asks stop(arg) every IN_IDLE
 * ms whether the input is still needed, and returns what it has if not.
 * Returns the bytes read, or -1 with errno set.
 */
ssize_t
in_fill_paced(int fd, unsigned char *buf, size_t want, int *eof,
    unsigned char eol, int (*stop)(void *), void *arg)
{
	size_t got = 0;
	int whole = 0;
	struct stat st;

	if (fstat(fd, &st) == 0)
		pipe_size(fd, &st);
	while (got < want && !*eof) {
		/* (a read that may wait: first whether anything comes; a
		 * record begun is read on without asking) */
		if (whole || got == 0) {
			struct pollfd p = { .fd = fd, .events = POLLIN };
			const int r = poll(&p, 1, whole ? IN_PAUSE : IN_IDLE);
			if (r == 0 && (whole || (stop != NULL && stop(arg))))
				break;
			if (r == 0)
				continue;
			/* (readable, ended, or poll failed: read says) */
		}
		const ssize_t n = fill_serial(fd, buf + got, want - got, eof, 1);
		if (n < 0)
			return got > 0 ? (ssize_t)got : -1;
		whole = whole || memchr(buf + got, eol, (size_t)n) != NULL;
		got += (size_t)n;
	}
	return (ssize_t)got;
}

static int
by_name(const FTSENT **a, const FTSENT **b)
{
	return strcmp((*a)->fts_name, (*b)->fts_name);
}

/*
 * Does a glob match a name?  Names met in a walk are base names; a name
 * given on the command line matches when the glob matches it whole or any
 * part of it after a '/' (trailing slashes included), as in GNU grep.
 */
static int
glob_match(const char *glob, const char *name, int operand)
{
	if (!operand)
		return fnmatch(glob, name, 0) == 0;
	for (const char *p = name; p != NULL; p = strchr(p, '/')) {
		if (*p == '/')
			p++;
		if (fnmatch(glob, p, 0) == 0)
			return 1;
	}
	return 0;
}

/* Does name match a glob of the NULL-ended list? */
static int
matches(const char **globs, const char *name, int operand)
{
	for (; globs != NULL && *globs != NULL; globs++)
		if (glob_match(*globs, name, operand))
			return 1;
	return 0;
}

/*
 * Is a file searched (--include, --exclude)?  As in GNU grep, the last glob
 * that matches decides; when none matches, the file is searched unless the
 * first of them is an --include.  operand: named on the command line.
 */
int
in_file_wanted(const struct walk_filter *f, const char *name, int operand)
{
	size_t n = 0;

	if (f == NULL || f->globs == NULL || f->globs[0] == NULL)
		return 1;
	while (f->globs[n] != NULL)
		n++;
	while (n-- > 0)
		if (glob_match(f->globs[n] + 1, name, operand))
			return f->globs[n][0] == '+';
	return f->globs[0][0] != '+';
}

static struct stat out_st;
static int out_reg;		/* standard output is a regular file */

static void
stat_output(void)
{
	out_reg = fstat(STDOUT_FILENO, &out_st) == 0 &&
	    S_ISREG(out_st.st_mode);
}

/* Is the regular file of status st also standard output (grep's "input
 * file is also the output")?  Standard output is looked at once. */
int
in_is_output(const struct stat *st)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, stat_output);
	return out_reg && S_ISREG(st->st_mode) &&
	    st->st_dev == out_st.st_dev && st->st_ino == out_st.st_ino;
}

/* Is a directory searched (--exclude-dir)? */
int
in_dir_wanted(const struct walk_filter *f, const char *name, int operand)
{
	return f == NULL || !matches(f->exclude_dir, name, operand);
}

/*
 * Calls fn for every non-directory below path (path itself if it is not a
 * directory), in name order, with the filter's globs applied to the names
 * found below it.  follow: follow symbolic links (-R); otherwise only a link
 * named on the command line is followed (-r).  Problems are reported;
 * returns 0, or -1 if any was.
 */
int
in_walk(const char *path, int follow, const struct walk_filter *filter,
    int (*fn)(const char *, const struct stat *, void *), void *arg)
{
	/* (trailing slashes as one: "sub//" names sub/b.c, as in grep) */
	char *root = xstrdup(path);
	size_t n = strlen(root);
	while (n > 1 && root[n - 1] == '/' && root[n - 2] == '/')
		root[--n] = '\0';
	char *argv[2] = { root, NULL };
	int flags = FTS_NOCHDIR | (follow ? FTS_LOGICAL :
	    FTS_PHYSICAL | FTS_COMFOLLOW);
	FTS *fts = fts_open(argv, flags, by_name);
	FTSENT *e;
	int rc = 0;

	free(root);	/* (fts_open keeps its own copy) */
	if (fts == NULL) {
		if (!opt_silent)
			warnx_("%s: %s", path, strerror(errno));
		return -1;
	}
	while ((e = fts_read(fts)) != NULL) {
		switch (e->fts_info) {
		case FTS_D:
			if (e->fts_level > FTS_ROOTLEVEL &&
			    !in_dir_wanted(filter, e->fts_name, 0))
				fts_set(fts, e, FTS_SKIP);
			break;
		case FTS_DP:
			break;
		case FTS_DC:
			if (!opt_silent)
				warnx_("%s: recursive directory loop",
				    e->fts_path);
			rc = -1;
			break;
		case FTS_DNR:
		case FTS_ERR:
		case FTS_NS:
			if (!opt_silent)
				warnx_("%s: %s", e->fts_path,
				    strerror(e->fts_errno));
			rc = -1;
			break;
		case FTS_SLNONE:
			if (follow) {	/* -R: a link to nothing */
				if (!opt_silent)
					warnx_("%s: No such file or directory",
					    e->fts_path);
				rc = -1;
			}
			break;
		case FTS_SL:
			break;	/* links below the top are skipped with -r */
		case FTS_DEFAULT:
			/* Devices, FIFOs and sockets are skipped below the
			 * top, as grep does when recursing. */
			if (e->fts_level > FTS_ROOTLEVEL)
				break;
			/* FALLTHROUGH */
		default:
			if (e->fts_level > FTS_ROOTLEVEL &&
			    !in_file_wanted(filter, e->fts_name, 0))
				break;
			if (fn(e->fts_path, e->fts_statp, arg) == -1)
				rc = -1;
			break;
		}
	}
	fts_close(fts);
	return rc;
}
