/*
 * search.c: the per-input pipeline.  Chunks are read into one slot of a
 * scanner while the device scans the other slot; each chunk ends at a record
 * terminator (the partial record at its end moves to the next chunk), so a
 * chunk starts with a fresh Myers state and its pad holds terminators.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hostmatch.h"
#include "input.h"
#include "output.h"
#include "scan.h"
#include "search.h"
#include "util.h"

/* Default chunk sizes: bounded memory, and enough work per launch. */
#define CHUNK_CPU	(16u << 20)
#define CHUNK_GPU	(64u << 20)

static const struct options *opt;
static const struct patset *pats;
static struct scanner host;		/* always open */
static struct scanner dev;		/* opened on the first large input */
static int dev_state;			/* 0 untried, 1 open, -1 unusable */
static int matched;			/* a record was selected */
static int failed;			/* no device: exit status 2 */
static struct walk_filter filter;	/* --include, --exclude... */

void
search_init(const struct options *o, const struct patset *ps)
{
	opt = o;
	pats = ps;
	filter = (struct walk_filter){ o->include, o->exclude, o->exclude_dir };
	scan_open_host(&host, ps, o->eol, o->chunk ? o->chunk : CHUNK_CPU);
	if ((o->device != NULL && strcmp(o->device, "host") == 0) || host.exact)
		dev_state = -1;
}

/* Returns 1 when a record was selected in any input so far. */
int
search_matched(void)
{
	return matched;
}

/* Returns 1 when the asked-for device could not be had. */
int
search_failed(void)
{
	return failed;
}

void
search_end(void)
{
	if (dev_state == 1)
		scan_close(&dev);
	scan_close(&host);
}

/*
 * Opens the OpenCL scanner once; returns it, or NULL when there is none.
 * Without any usable device (none installed, or the one asked for is
 * missing) that is an error: exit status 2, though the host matcher still
 * searches everything.  A device that fails to set up gets a warning.
 */
static struct scanner *
device(void)
{
	struct ocl_dev d;
	size_t cap;

	if (dev_state != 0)
		return dev_state == 1 ? &dev : NULL;
	dev_state = -1;
	if (ocl_choose(opt->device, &d) == -1) {
		failed = 1;
		warnx_("searching with the host matcher instead");
		return NULL;
	}
	cap = opt->chunk ? opt->chunk :
	    d.type & CL_DEVICE_TYPE_GPU ? CHUNK_GPU : CHUNK_CPU;
	if (cap < host.cap)
		cap = host.cap;
	if (scan_open_device(&dev, pats, opt->eol, cap, &d, opt->slice) == -1) {
		warnx_("warning: %s unusable; using the host matcher", d.name);
		return NULL;
	}
	dev_state = 1;
	return &dev;
}

/* Waits for a slot's scan (submitted says whether it started); if the
 * device failed, scans the slot with the host matcher instead, after one
 * warning.  Returns the bitmap. */
static const uint64_t *
scan_finish(struct scanner *s, int slot, int submitted)
{
	static int warned;
	const uint64_t *bm = submitted ? scan_wait(s, slot) : NULL;

	if (bm == NULL) {
		struct scan_slot *sl = &s->slot[slot];
		if (!warned++)
			warnx_("warning: device scan failed; "
			    "using the host matcher");
		hm_scan(pats, sl->buf, s->pad, sl->len, s->eol, sl->bm);
		bm = sl->bm;
	}
	return bm;
}

/* Returns the length of the whole records at the start of buf[0, have). */
static size_t
whole_records(const unsigned char *buf, size_t have)
{
	const unsigned char *p = memrchr(buf, opt->eol, have);

	return p ? (size_t)(p - buf) + 1 : 0;
}

/* Returns where the records kept for before-context start: the last
 * opt->before records of chunk[0, len), unless they take over half the
 * chunk capacity (then fewer context records are shown). */
static size_t
history_start(const unsigned char *chunk, size_t len, size_t cap)
{
	size_t keep = len;

	for (long long i = 0; i < opt->before && keep > 0; i++) {
		const unsigned char *p = keep > 1 ?
		    memrchr(chunk, opt->eol, keep - 1) : NULL;
		size_t start = p ? (size_t)(p - chunk) + 1 : 0;
		if (len - start > cap / 2)
			break;
		keep = start;
	}
	return keep;
}

/* Reads into a slot; with --line-buffered whatever one read() brings, so
 * that records are printed as they arrive. */
static ssize_t
fill(int fd, unsigned char *buf, size_t want, int *eof)
{
	return in_fill(fd, buf, want, eof, opt->line_buffered);
}

/*
 * A record longer than a chunk: slot cur is full of it.  Scans it piece by
 * piece, each piece warmed up by the pad bytes before it (the record's
 * preceding bytes), and keeps its bytes in a temporary file in case it is
 * printed, so memory stays bounded.  Leaves the bytes after the record at
 * the start of the slot (*have of them).  Returns 0, or -1 after a message.
 */
static int
long_record(int fd, struct fstate *fs, struct scanner *s, int cur,
    size_t *have, int *eof)
{
	unsigned char *chunk = scan_chunk(s, cur);
	FILE *tmp = tmpfile();
	uintmax_t len = 0;
	int hit = 0, binary = 0, warm = 0;
	const unsigned char *t;
	size_t n = *have;
	ssize_t got;

	if (tmp == NULL) {
		warnx_("temporary file: %s", strerror(errno));
		return -1;
	}
	for (;;) {
		t = memchr(chunk, opt->eol, n);
		size_t plen = t ? (size_t)(t - chunk) : n;
		if (plen > 0 && pats->all_lines)
			hit = 1;
		else if (plen > 0 && pats->npat > 0) {
			int ok = scan_submit(s, cur, t ? plen + 1 : n, warm) == 0;
			hit |= scan_next_hit(scan_finish(s, cur, ok), 0, plen) <
			    plen;
		}
		if (plen > 0) {
			binary |= memchr(chunk, '\0', plen) != NULL;
			if (fwrite(chunk, 1, plen, tmp) != plen) {
				warnx_("temporary file: %s", strerror(errno));
				fclose(tmp);
				return -1;
			}
			len += plen;
		}
		if (t != NULL || *eof) {
			*have = t ? n - plen - 1 : 0;
			if (t != NULL)
				memmove(chunk, t + 1, *have);
			break;
		}
		/* The next piece's warm-up: the last pad bytes so far. */
		memmove(chunk - s->pad, chunk + n - s->pad, s->pad);
		warm = 1;
		if ((got = fill(fd, chunk, s->cap, eof)) < 0) {
			warnx_("%s: %s", fs->name, strerror(errno));
			fclose(tmp);
			return -1;
		}
		n = (size_t)got;
	}
	out_long_record(fs, tmp, len, t != NULL, hit, binary);
	fclose(tmp);
	return 0;
}

/*
 * Searches one open input.  Each round scans the whole records in the
 * current slot, moves the partial record at its end (and the records kept
 * for before-context) to the next slot and fills it while the device works,
 * then prints.  Returns 0, or -1 after a read error message.
 */
static int
search_fd(int fd, struct fstate *fs)
{
	const int scan = pats->npat > 0 && !pats->all_lines;
	const int stream_long = !(opt->word || opt->line || opt->show_cost ||
	    opt->best || opt->only || opt->color || opt->before > 0);
	struct scanner *s = scan && dev_state == 1 ? &dev : &host;
	int cur = 0, eof[SCAN_SLOTS] = { 0, 0 };
	size_t have, hist = 0;
	ssize_t n;

	if ((n = fill(fd, scan_chunk(s, cur), s->cap, &eof[cur])) < 0)
		goto fail;
	have = (size_t)n;
	/* Large inputs go to the OpenCL device, small ones stay here. */
	if (scan && s == &host && (!eof[cur] || have > opt->host_max) &&
	    device() != NULL) {
		s = &dev;
		memcpy(scan_chunk(s, cur), scan_chunk(&host, cur), have);
	}
	while (!fs->done) {
		unsigned char *chunk = scan_chunk(s, cur);
		int nxt = (cur + 1) % SCAN_SLOTS, submitted = 0;
		size_t len = eof[cur] ? have : whole_records(chunk, have);
		size_t keep, next;

		if (len <= hist && !eof[cur]) {
			/* No new whole record yet: read on.  A record longer
			 * than the slots is searched piece by piece, or when
			 * it must be in memory whole (positions, context),
			 * the slots grow. */
			if (have == s->cap && hist == 0 && stream_long) {
				if (long_record(fd, fs, s, cur, &have,
				    &eof[cur]) == -1)
					return -1;
				continue;
			}
			if (have == s->cap) {
				scan_grow(s, s->cap * 2);
				if (s != &host)
					scan_grow(&host, s->cap);
				chunk = scan_chunk(s, cur);
			}
			if ((n = fill(fd, chunk + have, s->cap - have,
			    &eof[cur])) < 0)
				goto fail;
			have += (size_t)n;
			continue;
		}
		if (len <= hist)
			break;
		if (scan)
			submitted = scan_submit(s, cur, len, 0) == 0;
		keep = history_start(chunk, len, s->cap);
		next = have - keep;
		eof[nxt] = eof[cur];
		if (!eof[cur]) {
			memcpy(scan_chunk(s, nxt), chunk + keep, next);
			/* Read the next chunk while the device works. */
			if (!opt->line_buffered) {
				if ((n = fill(fd, scan_chunk(s, nxt) + next,
				    s->cap - next, &eof[nxt])) < 0)
					goto fail;
				next += (size_t)n;
			}
		}
		out_chunk(fs, chunk, hist, len,
		    scan ? scan_finish(s, cur, submitted) : NULL);
		if (eof[cur])
			break;
		if (opt->line_buffered) {
			if ((n = fill(fd, scan_chunk(s, nxt) + next,
			    s->cap - next, &eof[nxt])) < 0)
				goto fail;
			next += (size_t)n;
		}
		hist = len - keep;
		cur = nxt;
		have = next;
	}
	if (fs->nsel > 0)
		matched = 1;
	return 0;
fail:
	if (!opt->silent)
		warnx_("%s: %s", fs->name, strerror(errno));
	if (fs->nsel > 0)
		matched = 1;
	return -1;
}

/* Opens and searches one file, reporting problems as grep does. */
static int
search_file(const char *path, int show_name)
{
	struct fstate fs;
	int fd, rc;

	if ((fd = open(path, O_RDONLY)) == -1) {
		if (!opt->silent)
			warnx_("%s: %s", path, strerror(errno));
		return -1;
	}
	out_file_start(&fs, path, show_name);
	rc = search_fd(fd, &fs);
	close(fd);
	out_file_end(&fs);
	return rc;
}

/* in_walk callback: every file under a directory operand is named.  With
 * arg set (-r and no operand: the tree under "."), "./" is left off the
 * names, as grep does. */
static int
walk_file(const char *path, void *arg)
{
	if (arg != NULL && strncmp(path, "./", 2) == 0)
		path += 2;
	return search_file(path, opt->with_name != 0);
}

/* Searches the tree under the working directory (-r without operands). */
int
search_cwd(void)
{
	return in_walk(".", opt->recursive == 2, &filter, walk_file, "");
}

/* Searches a file operand, or the tree under it with -r.  Returns 0, or -1
 * after a message. */
int
search_path(const char *path, int show_name)
{
	struct stat st;

	if (strcmp(path, "-") == 0)
		return search_stdin(show_name);
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		if (opt->skip_dirs)
			return 0;
		if (opt->recursive)
			return in_walk(path, opt->recursive == 2, &filter,
			    walk_file, NULL);
		if (!opt->silent)
			warnx_("%s: Is a directory", path);
		return -1;
	}
	return search_file(path, show_name);
}

/* Searches standard input.  Returns 0, or -1 after a message. */
int
search_stdin(int show_name)
{
	struct fstate fs;
	int rc;

	out_file_start(&fs, opt->label ? opt->label : "(standard input)",
	    show_name);
	rc = search_fd(STDIN_FILENO, &fs);
	out_file_end(&fs);
	return rc;
}
