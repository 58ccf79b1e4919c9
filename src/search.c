/*
 * search.c: the per-input pipeline.  Chunks go round a ring of slots (two
 * per device, over every device in use): while the devices scan the chunks
 * in flight, the next ones are read, and the oldest is printed as soon as
 * its scan is done, so output keeps the input order.  Each chunk ends at a
 * record terminator (the partial record at its end moves to the next
 * chunk), so a chunk starts with a fresh Myers state and its pad holds
 * terminators.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hostmatch.h"
#ifdef AGREP_MPI
#include "mpi.h"
#endif
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
static struct scanner dev[OCL_MAXDEV];	/* opened on the first large input */
static int ndev;			/* devices open */
static int dev_state;			/* 0 untried, 1 open, -1 unusable */
static int matched;			/* a record was selected */
static int failed;			/* no device: exit status 2 */
static struct walk_filter filter;	/* --include, --exclude... */
static uint64_t read_pos;		/* input offset of the next read */
static uint64_t read_left;		/* bytes the input may still give */
static struct hitlist *collect;		/* search_range: hits go here */
static const struct hitlist *premade;	/* search_file_hits: hits known */
static size_t premade_at;		/* next of them */

void
search_init(const struct options *o, const struct patset *ps)
{
	opt = o;
	pats = ps;
	filter = (struct walk_filter){ o->globs, o->exclude_dir };
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

/* Returns 1 when records need a scan at all (not when every record
 * matches, or there is no pattern). */
int
search_needs_scan(void)
{
	return pats->npat > 0 && !pats->all_lines;
}

/* Returns the run's options. */
const struct options *
search_options(void)
{
	return opt;
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
	for (int i = ndev - 1; i >= 0; i--)
		scan_close(&dev[i]);
	scan_close(&host);
}

/*
 * Opens the OpenCL scanners once (one per device in use); returns the number
 * open, 0 when there is none.  Without any usable device (none installed,
 * or the one asked for is missing) that is an error: exit status 2, though
 * the host matcher still searches everything.  A device that fails to set up
 * gets a warning.
 */
static int
device(void)
{
	struct ocl_dev d[OCL_MAXDEV];
	int n;

	if (dev_state != 0)
		return ndev;
	dev_state = -1;
	if ((n = ocl_choose_all(opt->device, d, OCL_MAXDEV)) <= 0) {
		failed = 1;
		warnx_("searching with the host matcher instead");
		return 0;
	}
	for (int i = 0; i < n; i++) {
		size_t cap = opt->chunk ? opt->chunk :
		    d[i].type & CL_DEVICE_TYPE_GPU ? CHUNK_GPU : CHUNK_CPU;
		if (cap < host.cap)
			cap = host.cap;
		if (ndev > 0 && cap != dev[0].cap)
			cap = dev[0].cap;	/* one chunk size for all */
		if (scan_open_device(&dev[ndev], pats, opt->eol, cap, &d[i],
		    opt->slice) == -1)
			warnx_("warning: %s unusable%s", d[i].name, ndev == 0 &&
			    i == n - 1 ? "; using the host matcher" : "");
		else
			ndev++;
	}
	if (ndev == 0)
		return 0;
	dev_state = 1;
	return ndev;
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
 * opt->before records of chunk[0, len). */
static size_t
history_start(const unsigned char *chunk, size_t len)
{
	size_t keep = len;

	for (long long i = 0; i < opt->before && keep > 0; i++) {
		const unsigned char *p = keep > 1 ?
		    memrchr(chunk, opt->eol, keep - 1) : NULL;
		keep = p ? (size_t)(p - chunk) + 1 : 0;
	}
	return keep;
}

/* Doubles every slot (host and devices), keeping their contents. */
static void
grow_all(void)
{
	for (int i = 0; i < ndev; i++)
		scan_grow(&dev[i], dev[i].cap * 2);
	scan_grow(&host, host.cap * 2);
}

/* Reads into a slot; with --line-buffered whatever one read() brings, so
 * that records are printed as they arrive. */
static ssize_t
fill(int fd, unsigned char *buf, size_t want, int *eof)
{
	ssize_t n;

	if (want > read_left)
		want = (size_t)read_left;
	if (want == 0 && read_left == 0) {
		*eof = 1;
		return 0;
	}
	if ((n = in_fill(fd, buf, want, eof, opt->line_buffered)) > 0) {
		read_pos += (uint64_t)n;
		read_left -= (uint64_t)n;
	}
	return n;
}

/* Appends an offset to a hit list. */
void
hits_add(struct hitlist *h, uint64_t off)
{
	if (h->n == h->cap) {
		h->cap = h->cap ? 2 * h->cap : 1024;
		h->off = xreallocarray(h->off, h->cap, sizeof(*h->off));
	}
	h->off[h->n++] = off;
}

/* Is there a known hit in [from, to) of the input?  Moves past them. */
static int
premade_hit(uint64_t from, uint64_t to)
{
	int hit = 0;

	while (premade_at < premade->n && premade->off[premade_at] < to)
		hit |= premade->off[premade_at++] >= from;
	return hit;
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
	FILE *tmp = collect ? NULL : tmpfile();
	const uint64_t start = read_pos - *have;
	uintmax_t len = 0;
	int hit = 0, binary = 0, warm = 0;
	const unsigned char *t;
	size_t n = *have;
	ssize_t got;

	if (tmp == NULL && collect == NULL) {
		warnx_("temporary file: %s", strerror(errno));
		return -1;
	}
	for (;;) {
		t = memchr(chunk, opt->eol, n);
		size_t plen = t ? (size_t)(t - chunk) : n;
		if (plen > 0 && pats->all_lines)
			hit = 1;
		else if (plen > 0 && pats->npat > 0 && premade == NULL) {
			int ok = scan_submit(s, cur, t ? plen + 1 : n, n,
			    warm) == 0;
			hit |= scan_next_hit(scan_finish(s, cur, ok), 0, plen) <
			    plen;
		}
		if (plen > 0 && tmp != NULL) {
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
			if (tmp != NULL)
				fclose(tmp);
			return -1;
		}
		n = (size_t)got;
	}
	if (premade != NULL)
		hit = premade_hit(start, start + len + 1);
	if (collect != NULL) {
		if (hit)
			hits_add(collect, start);
		return 0;
	}
	out_long_record(fs, tmp, len, t != NULL, hit, binary);
	fclose(tmp);
	return 0;
}

/* One chunk going round the ring. */
struct stage {
	struct scanner	*s;
	int		 slot;
	size_t		 have;		/* bytes in the slot */
	size_t		 hist;		/* [0, hist): records kept for -B */
	size_t		 len;		/* [0, len): whole records scanned */
	uint64_t	 base;		/* input offset of the slot's byte 0 */
	int		 submitted;	/* the device took the scan */
};

/* The ring of one search: stages in flight are head, head + 1, ... */
struct ring {
	struct stage	 st[OCL_MAXDEV * SCAN_SLOTS];
	int		 size, head, count;
	int		 eof;		/* the input is all read */
	int		 scan;		/* records need a scan at all */
	int		 depth;		/* stages in flight at most */
};

/* Prints the oldest stage in flight once its scan is done. */
static void
ring_pop(struct ring *r, struct fstate *fs)
{
	struct stage *g = &r->st[r->head];
	const uint64_t *bm = r->scan ? scan_finish(g->s, g->slot,
	    g->submitted) : NULL;

	const unsigned char *chunk = scan_chunk(g->s, g->slot);

	if (collect != NULL) {
		/* MPI range: the first hit of each record. */
		for (size_t j = g->hist; (j = scan_next_hit(bm, j, g->len)) <
		    g->len;) {
			const unsigned char *t = memchr(chunk + j, opt->eol,
			    g->len - j);
			hits_add(collect, g->base + j);
			j = t ? (size_t)(t - chunk) + 1 : g->len;
		}
	} else if (!fs->done)
		out_chunk(fs, chunk, g->hist, g->len, bm);
	r->head = (r->head + 1) % r->size;
	r->count--;
}

/* Sets up the ring over every device's slots, or the host matcher's. */
static void
ring_init(struct ring *r, int on_device)
{
	int n;

	memset(r, 0, sizeof(*r));
	r->scan = pats->npat > 0 && !pats->all_lines;
	on_device = on_device && r->scan && ndev > 0;
	n = on_device ? ndev : 1;
	r->size = n * SCAN_SLOTS;
	for (int i = 0; i < r->size; i++) {
		r->st[i].s = on_device ? &dev[i % n] : &host;
		r->st[i].slot = i / n;
	}
	/* --line-buffered: print each chunk before reading on. */
	r->depth = opt->line_buffered ? 1 : r->size;
}

/*
 * Fills stage g, whose start already holds the bytes carried from the stage
 * before, until it holds a new whole record or the input ends.  A record
 * longer than the slots is searched piece by piece when it need not be in
 * memory whole; otherwise every slot grows.  Either way the stages in
 * flight are printed first.  Returns 0, or -1 after a message.
 */
static int
ring_fill(struct ring *r, struct stage *g, int fd, struct fstate *fs)
{
	const int stream_long = !(opt->word || opt->line || opt->show_cost ||
	    opt->best || opt->only || opt->color || opt->before > 0);
	ssize_t n;

	for (;;) {
		unsigned char *chunk = scan_chunk(g->s, g->slot);
		if (!r->eof && g->have < g->s->cap) {
			n = fill(fd, chunk + g->have, g->s->cap - g->have,
			    &r->eof);
			if (n < 0) {
				if (!opt->silent)
					warnx_("%s: %s", fs->name,
					    strerror(errno));
				return -1;
			}
			g->have += (size_t)n;
		}
		g->len = r->eof ? g->have : whole_records(chunk, g->have);
		if (g->len > g->hist || r->eof)
			return 0;
		if (g->have < g->s->cap)
			continue;	/* a short read: read on */
		while (r->count > 0)
			ring_pop(r, fs);
		if (fs->done)
			return 0;
		if (g->hist == 0 && stream_long) {
			if (long_record(fd, fs, g->s, g->slot, &g->have,
			    &r->eof) == -1)
				return -1;
			continue;
		}
		grow_all();
	}
}

/* Makes a stage's bitmap from the hits known in its new records. */
static void
premade_bitmap(struct stage *g)
{
	struct scan_slot *sl = &g->s->slot[g->slot];

	memset(sl->bm, 0, (g->len + 63) / 64 * sizeof(*sl->bm));
	while (premade_at < premade->n &&
	    premade->off[premade_at] < g->base + g->len) {
		uint64_t j = premade->off[premade_at++];
		if (j >= g->base + g->hist)
			sl->bm[(j - g->base) / 64] |= (uint64_t)1 <<
			    ((j - g->base) % 64);
	}
	sl->done = NULL;
	g->submitted = 1;
}

/* Moves the bytes after prev's whole records (and the records kept for
 * before-context) to the start of stage g.  When they would fill more than
 * half a slot, the stages in flight are printed and the slots grow. */
static void
carry(struct ring *r, struct stage *g, const struct stage *prev,
    struct fstate *fs)
{
	const unsigned char *pc = scan_chunk(prev->s, prev->slot);
	size_t keep = history_start(pc, prev->len);

	if (prev->have - keep > prev->s->cap / 2) {
		while (r->count > 0)
			ring_pop(r, fs);
		while (prev->have - keep > prev->s->cap / 2)
			grow_all();
		pc = scan_chunk(prev->s, prev->slot);
	}
	g->have = prev->have - keep;
	g->hist = prev->len - keep;
	g->len = 0;
	memcpy(scan_chunk(g->s, g->slot), pc + keep, g->have);
}

/*
 * Searches one open input.  Each round starts the scan of a filled stage,
 * prints the oldest stage once the ring is full, and fills the next stage.
 * The first fill decides the engine: large inputs go to the OpenCL devices,
 * small ones stay with the host matcher.  Returns 0, or -1 after a message.
 */
static int
search_fd(int fd, struct fstate *fs)
{
	struct ring r;
	struct stage *g, *prev;
	int next = 0, rc = 0;

	ring_init(&r, dev_state == 1);
	g = &r.st[0];
	g->have = g->hist = 0;
	if (ring_fill(&r, g, fd, fs) == -1) {
		rc = -1;
		goto out;
	}
	if (r.scan && g->s == &host && (!r.eof || g->have > opt->host_max) &&
	    premade == NULL && device() > 0) {
		struct stage first = *g;
		int eof = r.eof;
		ring_init(&r, 1);
		r.eof = eof;
		g = &r.st[0];
		g->have = first.have;
		g->len = first.len;
		memcpy(scan_chunk(g->s, g->slot),
		    scan_chunk(first.s, first.slot), first.have);
	}
	while (!fs->done && g->len > g->hist) {
		g->base = read_pos - g->have;
		if (premade != NULL)
			premade_bitmap(g);
		else if (r.scan)
			g->submitted = scan_submit(g->s, g->slot, g->len,
			    g->have, 0) == 0;
		r.count++;
		next = (next + 1) % r.size;
		if (r.eof && g->have == g->len)
			break;
		while (r.count >= r.depth)
			ring_pop(&r, fs);
		if (fs->done)
			break;
		prev = g;
		g = &r.st[next];
		carry(&r, g, prev, fs);
		if (ring_fill(&r, g, fd, fs) == -1) {
			rc = -1;
			break;
		}
	}
	while (r.count > 0)
		ring_pop(&r, fs);
out:
	if (fs->nsel > 0)
		matched = 1;
	return rc;
}

/* Opens and searches one file, reporting problems as grep does. */
static int
search_file_local(const char *path, int show_name)
{
	struct fstate fs;
	int fd, rc;

	read_pos = 0;
	read_left = UINT64_MAX;
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

/* Searches one file: in an MPI run of several ranks, spread over them. */
int
search_file(const char *path, int show_name)
{
#ifdef AGREP_MPI
	if (mpi_ranks() > 1)
		return mpi_search_file(path, show_name);
#endif
	return search_file_local(path, show_name);
}

/*
 * Searches bytes [start, end) of a file, which begin at a record start,
 * printing nothing: the offsets of the records with a hit go to out.
 * Returns 0, or -1 after a message.
 */
int
search_range(const char *path, uint64_t start, uint64_t end,
    struct hitlist *out)
{
	struct fstate fs;
	int fd, rc;

	if ((fd = open(path, O_RDONLY)) == -1) {
		if (!opt->silent)
			warnx_("%s: %s", path, strerror(errno));
		return -1;
	}
	if (lseek(fd, (off_t)start, SEEK_SET) == (off_t)-1) {
		warnx_("%s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	memset(&fs, 0, sizeof(fs));
	fs.name = path;
	read_pos = start;
	read_left = end - start;
	collect = out;
	rc = search_fd(fd, &fs);
	collect = NULL;
	close(fd);
	return rc;
}

/* Searches and prints a file whose hits are known (sorted offsets). */
int
search_file_hits(const char *path, int show_name, const struct hitlist *h)
{
	int rc;

	premade = h;
	premade_at = 0;
	rc = search_file_local(path, show_name);
	premade = NULL;
	return rc;
}

/* in_walk callback: every file under a directory operand is named.  With
 * arg set (-r and no operand: the tree under "."), "./" is left off the
 * names, as grep does. */
static int
walk_file(const char *path, void *arg)
{
	if (out_quit())
		return 0;
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
		if (opt->skip_dirs || (opt->recursive &&
		    !in_dir_wanted(&filter, path, 1)))
			return 0;
		if (opt->recursive)
			return in_walk(path, opt->recursive == 2, &filter,
			    walk_file, NULL);
		if (!opt->silent)
			warnx_("%s: Is a directory", path);
		return -1;
	}
	/* grep applies --include and --exclude to named files too. */
	if (!in_file_wanted(&filter, path, 1))
		return 0;
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
	read_pos = 0;
	read_left = UINT64_MAX;
	rc = search_fd(STDIN_FILENO, &fs);
	out_file_end(&fs);
	return rc;
}
