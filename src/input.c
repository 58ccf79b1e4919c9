/* input.c: read() into caller-owned buffers, and directory recursion. */
#include <errno.h>
#include <fts.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input.h"
#include "util.h"

/*
 * Reads until want bytes are in buf or the input ends (*eof set).  read() is
 * used for files and pipes alike: one copy, memory bounded by the caller's
 * buffer, and a file truncated under us is just a shorter file.  Returns the
 * bytes read, or -1 with errno set.
 */
ssize_t
in_fill(int fd, unsigned char *buf, size_t want, int *eof)
{
	size_t got = 0;

	while (got < want) {
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

static int
by_name(const FTSENT **a, const FTSENT **b)
{
	return strcmp((*a)->fts_name, (*b)->fts_name);
}

/*
 * Calls fn for every non-directory below path (path itself if it is not a
 * directory), in name order.  follow: follow symbolic links (-R); otherwise
 * only a link named on the command line is followed (-r).  Problems are
 * reported; returns 0, or -1 if any was.
 */
int
in_walk(const char *path, int follow, int (*fn)(const char *, void *),
    void *arg)
{
	char *argv[2] = { (char *)path, NULL };
	int flags = FTS_NOCHDIR | (follow ? FTS_LOGICAL :
	    FTS_PHYSICAL | FTS_COMFOLLOW);
	FTS *fts = fts_open(argv, flags, by_name);
	FTSENT *e;
	int rc = 0;

	if (fts == NULL) {
		if (!opt_silent)
			warnx_("%s: %s", path, strerror(errno));
		return -1;
	}
	while ((e = fts_read(fts)) != NULL) {
		switch (e->fts_info) {
		case FTS_D:
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
		case FTS_SL:
		case FTS_SLNONE:
			break;	/* links below the top are skipped with -r */
		case FTS_DEFAULT:
			/* Devices, FIFOs and sockets are skipped below the
			 * top, as grep does when recursing. */
			if (e->fts_level > FTS_ROOTLEVEL)
				break;
			/* FALLTHROUGH */
		default:
			if (fn(e->fts_path, arg) == -1)
				rc = -1;
			break;
		}
	}
	fts_close(fts);
	return rc;
}
