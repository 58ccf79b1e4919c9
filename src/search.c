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
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hostmatch.h"
#include "input.h"
#include "output.h"
#include "pool.h"
#include "scan.h"
#include "search.h"
#include "util.h"

/* Default chunk sizes: bounded memory, and enough work per launch. */
#define CHUNK_CPU	(16u << 20)
#define CHUNK_GPU	(64u << 20)
#define RANGE_MIN	256		/* bytes of a range at least */
#define RANGE_SLOW	(4u << 20)	/* ranges when the scan is costly */

/* One worker's state: its own host matcher slots, its own slots on every
 * device in use, and where its current input stands. */
struct searcher {
	struct scanner	 host;		/* the host matcher's slots */
	struct scanner	 dev[OCL_MAXDEV]; /* its slots on the open devices */
	int		 ndev;		/* of those, opened */
	uint64_t	 read_pos;	/* input offset of the next read */
	uint64_t	 read_left;	/* bytes the input may still give */
	struct hitlist	*collect;	/* search_range: hits go here */
	const struct hitlist *premade;	/* search_file_hits: hits known */
	size_t		 premade_at;	/* next of them */
	const unsigned char *prefill;	/* bytes read already: fill() gives */
	size_t		 prefill_len;	/* these first */
};

/* What every worker shares: options, the devices, the outcome. */
static struct search {
	const struct options *opt;
	const struct patset *pats;
	struct walk_filter filter;	/* --include, --exclude... */
	struct searcher	*w;		/* one per worker */
	int		 nw;
	pthread_mutex_t	 mu;		/* guards the device state */
	pthread_cond_t	 cv;
	pthread_t	 opener;	/* opens the devices in the background */
	int		 opener_started;
	struct scanner	 dev[OCL_MAXDEV]; /* the devices: context, program */
	int		 ndev;		/* devices open */
	int		 dev_state;	/* 0 untried, 2 opening, 1 open,
					 * -1 unusable */
	int		 matched;	/* a record was selected (atomic) */
	int		 failed;	/* no device: exit status 2 */
	int		 exact;		/* the host's exact k = 0 path */
	uint64_t	 range;		/* bytes per range of a large file */
	size_t		 host_max;	/* inputs this small stay on the host:
					 * AGREP_GPU_HOST_MAX over the work
					 * per byte (patterns x blocks) */
	int		 host_slow;	/* that work is large: wait for the
					 * device rather than start on the host */
	struct pool_text devmsg;	/* what opening the devices said */
	int		(*file_hook)(const char *, int); /* searches a whole
					 * file instead (MPI) */
} S = { .mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER };

#define opt	(S.opt)
#define pats	(S.pats)

/* Opens the OpenCL scanners once (one per device in use); returns the
 * number open, 0 when there is none.  Without any usable device (none
 * installed, or the one asked for is missing) that is an error: exit status
 * 2, though the host matcher still searches everything.  A device that
 * fails to set up gets a warning.  Runs once, in whichever thread asks
 * first; the others wait for it. */
static int
open_devices(void)
{
	struct ocl_dev d[OCL_MAXDEV];
	size_t hostcap = opt->chunk ? opt->chunk : CHUNK_CPU;
	int n, nd = 0;

	if ((n = ocl_choose_all(opt->device, d, OCL_MAXDEV)) <= 0) {
		__atomic_store_n(&S.failed, 1, __ATOMIC_RELAXED);
		warnx_("searching with the host matcher instead");
		return 0;
	}
	for (int i = 0; i < n; i++) {
		size_t cap = opt->chunk ? opt->chunk :
		    d[i].type & CL_DEVICE_TYPE_GPU && !pool_threaded() ?
		    CHUNK_GPU : CHUNK_CPU;
		if (cap < hostcap)
			cap = hostcap;
		if (nd > 0 && cap != S.dev[0].cap)
			cap = S.dev[0].cap;	/* one chunk size for all */
		if (scan_open_device(&S.dev[nd], pats, opt->eol, cap, &d[i],
		    opt->slice) == -1)
			warnx_("warning: %s unusable%s", d[i].name, nd == 0 &&
			    i == n - 1 ? "; using the host matcher" : "");
		else
			scan_drop_slots(&S.dev[nd++]);	/* clones scan */
	}
	return nd;
}

/* Publishes the outcome of open_devices. */
/* Opens the devices with their messages kept back: when they would come
 * out depends on the threads, so they come at the end of the run. */
static int
open_devices_quietly(void)
{
	int nd;

	pool_capture(&S.devmsg);
	nd = open_devices();
	pool_capture(NULL);
	return nd;
}

static void
devices_opened(int nd)
{
	pthread_mutex_lock(&S.mu);
	S.ndev = nd;
	__atomic_store_n(&S.dev_state, nd > 0 ? 1 : -1, __ATOMIC_RELEASE);
	pthread_cond_broadcast(&S.cv);
	pthread_mutex_unlock(&S.mu);
}

/* The thread that opens the devices stays, idle, until the process ends
 * (see pool_end). */
static void *
opener_main(void *arg)
{
	(void)arg;
	devices_opened(open_devices_quietly());
	for (;;)
		pause();
	return NULL;
}

/* Starts opening the devices in the background, if nobody has; meanwhile
 * the host matcher searches (see chunk jobs). */
static void
devices_start(void)
{
	int go = 0;

	pthread_mutex_lock(&S.mu);
	if (S.dev_state == 0) {
		__atomic_store_n(&S.dev_state, 2, __ATOMIC_RELAXED);
		go = 1;
	}
	pthread_mutex_unlock(&S.mu);
	if (!go)
		return;
	if (!pool_threaded() || pthread_create(&S.opener, NULL, opener_main,
	    NULL) != 0)
		devices_opened(open_devices_quietly());
	else
		S.opener_started = 1;
}

/* Returns the devices open for this worker (0: use the host matcher),
 * opening them first if need be; with wait clear, a device that is still
 * being opened counts as none. */
static int
device(struct searcher *w, int wait)
{
	int state = __atomic_load_n(&S.dev_state, __ATOMIC_ACQUIRE);

	if (state == 0 || (state == 2 && wait)) {
		devices_start();
		pthread_mutex_lock(&S.mu);
		while (wait && S.dev_state == 2)
			pthread_cond_wait(&S.cv, &S.mu);
		state = S.dev_state;
		pthread_mutex_unlock(&S.mu);
	}
	if (state != 1)
		return 0;
	/* This worker's own slots on each device. */
	while (w->ndev < S.ndev) {
		if (scan_clone(&w->dev[w->ndev], &S.dev[w->ndev]) == -1)
			fatalx("cannot allocate device buffers");
		w->ndev++;
	}
	/* Chunks move from the host's slots to these: as large at least. */
	for (int i = 0; i < w->ndev; i++)
		if (w->dev[i].cap < w->host.cap)
			scan_grow(&w->dev[i], w->host.cap);
	return w->ndev;
}

void
search_init(const struct options *o, const struct patset *ps)
{
	size_t cap = o->chunk ? o->chunk : CHUNK_CPU;

	opt = o;
	pats = ps;
	S.filter = (struct walk_filter){ o->globs, o->exclude_dir };
	S.nw = pool_workers();
	S.w = xcalloc((size_t)S.nw, sizeof(*S.w));
	for (int i = 0; i < S.nw; i++)
		scan_open_host(&S.w[i].host, ps, o->eol, cap);
	S.exact = S.w[0].host.exact;
	/* Ranges of half a chunk, the other half for the record at its end;
	 * not tiny even when the chunks are (AGREP_GPU_CHUNK in tests). */
	S.range = cap / 2 > RANGE_MIN ? cap / 2 : RANGE_MIN;
	/* The host's cost per byte grows with the patterns and their blocks;
	 * a device's hardly does. */
	size_t work = 0;
	for (size_t p = 0; p < ps->npat; p++)
		work += ps->pat[p].nwords;
	S.host_max = o->host_max / (work > 0 ? work : 1);
	S.host_slow = work > 4;
	/* Then the scan dominates: smaller ranges share it out better over
	 * several devices. */
	if (S.host_slow && S.range > RANGE_SLOW)
		S.range = RANGE_SLOW;
	/* Patterns past PAT_MAXLEN (k = 0 only) are the host's (hm_scan). */
	if ((o->device != NULL && strcmp(o->device, "host") == 0) || S.exact ||
	    ps->maxlen > PAT_MAXLEN)
		S.dev_state = -1;
}

/* Hands every file to fn(path, show_name) instead of searching it here:
 * the MPI layer sits above the pipeline this way (src/mpi.c). */
void
search_set_file_hook(int (*fn)(const char *, int))
{
	S.file_hook = fn;
}

/* Returns 1 when a record was selected in any input so far. */
int
search_matched(void)
{
	return __atomic_load_n(&S.matched, __ATOMIC_RELAXED);
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
	return __atomic_load_n(&S.failed, __ATOMIC_RELAXED);
}

void
search_end(void)
{
	/* Devices still being opened are waited for. */
	pthread_mutex_lock(&S.mu);
	while (S.dev_state == 2)
		pthread_cond_wait(&S.cv, &S.mu);
	pthread_mutex_unlock(&S.mu);
	if (S.devmsg.len > 0)
		pool_msg(S.devmsg.buf, S.devmsg.len);
	free(S.devmsg.buf);
	S.devmsg.buf = NULL;
	for (int i = S.nw - 1; i >= 0; i--) {
		for (int d = S.w[i].ndev - 1; d >= 0; d--)
			scan_close(&S.w[i].dev[d]);
		scan_close(&S.w[i].host);
	}
	for (int i = S.ndev - 1; i >= 0; i--)
		scan_close(&S.dev[i]);
	free(S.w);
	S.w = NULL;
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
		if (!__atomic_fetch_add(&warned, 1, __ATOMIC_RELAXED))
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
grow_all(struct searcher *w)
{
	for (int i = 0; i < w->ndev; i++)
		scan_grow(&w->dev[i], w->dev[i].cap * 2);
	scan_grow(&w->host, w->host.cap * 2);
}

/* Reads into a slot; with --line-buffered whatever one read() brings, so
 * that records are printed as they arrive. */
static ssize_t
fill(struct searcher *w, int fd, unsigned char *buf, size_t want, int *eof)
{
	ssize_t n;

	if (want > w->read_left)
		want = (size_t)w->read_left;
	if (want == 0 && w->read_left == 0) {
		*eof = 1;
		return 0;
	}
	if (w->prefill_len > 0) {
		n = (ssize_t)(want < w->prefill_len ? want : w->prefill_len);
		memcpy(buf, w->prefill, (size_t)n);
		w->prefill += n;
		w->prefill_len -= (size_t)n;
		w->read_pos += (uint64_t)n;
		return n;
	}
	if ((n = in_fill(fd, buf, want, eof, opt->line_buffered,
	    pool_threaded() ? 1 : 8)) > 0) {
		w->read_pos += (uint64_t)n;
		w->read_left -= (uint64_t)n;
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
premade_hit(struct searcher *w, uint64_t from, uint64_t to)
{
	int hit = 0;

	while (w->premade_at < w->premade->n &&
	    w->premade->off[w->premade_at] < to)
		hit |= w->premade->off[w->premade_at++] >= from;
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
long_record(struct searcher *w, int fd, struct fstate *fs, struct scanner *s,
    int cur, size_t *have, int *eof)
{
	unsigned char *chunk = scan_chunk(s, cur);
	FILE *tmp = w->collect ? NULL : tmpfile();
	const uint64_t start = w->read_pos - *have;
	uintmax_t len = 0;
	int hit = 0, binary = 0, warm = 0;
	const unsigned char *t;
	size_t n = *have;
	ssize_t got;

	if (tmp == NULL && w->collect == NULL) {
		warnx_("temporary file: %s", strerror(errno));
		return -1;
	}
	for (;;) {
		t = memchr(chunk, opt->eol, n);
		size_t plen = t ? (size_t)(t - chunk) : n;
		if (plen > 0 && pats->all_lines)
			hit = 1;
		else if (plen > 0 && pats->npat > 0 && w->premade == NULL) {
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
		if ((got = fill(w, fd, chunk, s->cap, eof)) < 0) {
			warnx_("%s: %s", fs->name, strerror(errno));
			if (tmp != NULL)
				fclose(tmp);
			return -1;
		}
		n = (size_t)got;
	}
	if (w->premade != NULL)
		hit = premade_hit(w, start, start + len + 1);
	if (w->collect != NULL) {
		if (hit)
			hits_add(w->collect, start);
		return 0;
	}
	out_long_record(fs, tmp, len, t != NULL, hit, binary);
	fclose(tmp);
	return 0;
}

/* May a record longer than a chunk be streamed (long_record), or do the
 * options need it whole in memory? */
static int
stream_long(void)
{
	return !(opt->word || opt->line || opt->show_cost || opt->best ||
	    opt->only || opt->color || opt->before > 0 || opt->show_edits);
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
	struct searcher	*w;
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

	if (r->w->collect != NULL) {
		/* MPI range: the first hit of each record. */
		for (size_t j = g->hist; (j = scan_next_hit(bm, j, g->len)) <
		    g->len;) {
			const unsigned char *t = memchr(chunk + j, opt->eol,
			    g->len - j);
			hits_add(r->w->collect, g->base + j);
			j = t ? (size_t)(t - chunk) + 1 : g->len;
		}
	} else if (!fs->done)
		out_chunk(fs, chunk, g->hist, g->len, bm);
	r->head = (r->head + 1) % r->size;
	r->count--;
}

/* Sets up the ring over every device's slots, or the host matcher's. */
static void
ring_init(struct ring *r, struct searcher *w, int on_device)
{
	int n;

	memset(r, 0, sizeof(*r));
	r->w = w;
	r->scan = pats->npat > 0 && !pats->all_lines;
	on_device = on_device && r->scan && w->ndev > 0;
	n = on_device ? w->ndev : 1;
	r->size = n * SCAN_SLOTS;
	for (int i = 0; i < r->size; i++) {
		r->st[i].s = on_device ? &w->dev[i % n] : &w->host;
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
	ssize_t n;

	for (;;) {
		unsigned char *chunk = scan_chunk(g->s, g->slot);
		if (!r->eof && g->have < g->s->cap) {
			n = fill(r->w, fd, chunk + g->have,
			    g->s->cap - g->have, &r->eof);
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
		if (g->hist == 0 && stream_long()) {
			if (long_record(r->w, fd, fs, g->s, g->slot,
			    &g->have, &r->eof) == -1)
				return -1;
			continue;
		}
		grow_all(r->w);
	}
}

/* Makes a stage's bitmap from the hits known in its new records. */
static void
premade_bitmap(struct searcher *w, struct stage *g)
{
	struct scan_slot *sl = &g->s->slot[g->slot];

	memset(sl->bm, 0, (g->len + 63) / 64 * sizeof(*sl->bm));
	while (w->premade_at < w->premade->n &&
	    w->premade->off[w->premade_at] < g->base + g->len) {
		uint64_t j = w->premade->off[w->premade_at++];
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
			grow_all(r->w);
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
search_fd(struct searcher *w, int fd, struct fstate *fs)
{
	struct ring r;
	struct stage *g, *prev;
	int next = 0, rc = 0;

	ring_init(&r, w, __atomic_load_n(&S.dev_state, __ATOMIC_ACQUIRE) == 1 &&
	    device(w, 0) > 0);
	g = &r.st[0];
	g->have = g->hist = 0;
	if (ring_fill(&r, g, fd, fs) == -1) {
		rc = -1;
		goto out;
	}
	if (r.scan && g->s == &w->host && (!r.eof ||
	    g->have > S.host_max) && w->premade == NULL &&
	    device(w, 1) > 0) {
		struct stage first = *g;
		int eof = r.eof;
		ring_init(&r, w, 1);
		r.eof = eof;
		g = &r.st[0];
		g->have = first.have;
		g->len = first.len;
		memcpy(scan_chunk(g->s, g->slot),
		    scan_chunk(first.s, first.slot), first.have);
	}
	while (!fs->done && g->len > g->hist && !pool_quit()) {
		g->base = w->read_pos - g->have;
		if (w->premade != NULL)
			premade_bitmap(w, g);
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
		__atomic_store_n(&S.matched, 1, __ATOMIC_RELAXED);
	return rc;
}

/* Opens and searches one file with worker w, reporting problems as grep
 * does. */
static int
search_file_local(struct searcher *w, const char *path, int show_name)
{
	struct stat st;
	struct fstate fs;
	int fd, rc;

	w->read_pos = 0;
	w->read_left = UINT64_MAX;
	if ((fd = open(path, O_RDONLY)) == -1) {
		if (!opt->silent)
			warnx_("%s: %s", path, strerror(errno));
		return -1;
	}
	out_file_start(&fs, path, show_name);
	if (opt->initial_tab)
		out_file_size(&fs, fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ?
		    (long long)st.st_size : -1);
	rc = search_fd(w, fd, &fs);
	close(fd);
	out_file_end(&fs);
	return rc;
}

/*
 * Searches bytes [start, end) of a file, which begin at a record start,
 * printing nothing: the offsets of the records with a hit go to out (an MPI
 * rank's share; the MPI build runs one worker).  Returns 0, or -1 after a
 * message.
 */
int
search_range(const char *path, uint64_t start, uint64_t end,
    struct hitlist *out)
{
	struct searcher *w = &S.w[0];
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
	w->read_pos = start;
	w->read_left = end - start;
	w->collect = out;
	rc = search_fd(w, fd, &fs);
	w->collect = NULL;
	close(fd);
	return rc;
}

/* Searches and prints a file whose hits are known (sorted offsets); NULL:
 * search it. */
int
search_file_hits(const char *path, int show_name, const struct hitlist *h)
{
	struct searcher *w = &S.w[0];
	int rc;

	w->premade = h;
	w->premade_at = 0;
	rc = search_file_local(w, path, show_name);
	w->premade = NULL;
	return rc;
}

/*
 * Chunk jobs: a large regular file is cut into ranges of equal size, each a
 * job of its own, so that several workers read, scan and format one file at
 * once.  A range's job handles the records that start in it: it skips the
 * bytes before its first record start and reads past its end to finish its
 * last record (a record longer than that is streamed, as in long_record).
 * What a range needs from the ones before it, it gets from the file's
 * shared state, in order: the line number it starts at (with -n), and
 * whether the file turned binary or is done.  It formats at once, assuming
 * neither, holding its output back; if an earlier range says otherwise, it
 * formats again.  Options whose state crosses records in ways a range cannot
 * know (context, -m, --best-match, --line-buffered) keep the ring.
 */
struct bigfile {
	char		*path;		/* NULL: streamed (standard input) */
	char		*name;		/* as printed */
	int		 show_name;
	uint64_t	 size;		/* as the walk saw it (streamed: the
					 * bytes read so far) */
	long long	 tsize;		/* for -T: the size, -1 for a pipe */
	uint64_t	 range;		/* bytes per range */
	int		 nranges;
	int		 refs;		/* ranges still to finish */
	pthread_mutex_t	 mu;
	pthread_cond_t	 cv;
	int		 lines_at;	/* ranges whose line count is in */
	uintmax_t	 lines;		/* terminators before range lines_at */
	int		 state_at;	/* ranges formatted */
	struct fstate	 fs;		/* the file's state after them */
};

struct rangejob {
	struct bigfile	*f;
	int		 idx;
	/* Streamed input: the range's bytes (whole records), and where they
	 * start in the input; tail: the rest of the input goes through the
	 * ring from here (a record longer than a range). */
	unsigned char	*data;
	size_t		 len;
	uint64_t	 off;
	int		 tail;
};

static int job_failed;		/* a job reported a problem (atomic) */

/* Can a file be searched range by range?  (See above.) */
static int
ranges_ok(void)
{
	return opt->before == 0 && opt->after == 0 && opt->max_count < 0 &&
	    !opt->best && !opt->line_buffered && !opt->context &&
	    !opt->json && !opt->binary_nomatch;
}

/* Reads want bytes at off; returns the bytes read (fewer at the end of the
 * file), or -1 with errno set. */
static ssize_t
pread_all(int fd, unsigned char *buf, size_t want, uint64_t off)
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

/* Waits until the ranges before idx published their line counts; returns
 * the terminators before range idx and adds this range's. */
static uintmax_t
range_lines(struct bigfile *f, int idx, uintmax_t mine)
{
	uintmax_t base;

	pthread_mutex_lock(&f->mu);
	while (f->lines_at < idx)
		pthread_cond_wait(&f->cv, &f->mu);
	base = f->lines;
	f->lines += mine;
	f->lines_at++;
	pthread_cond_broadcast(&f->cv);
	pthread_mutex_unlock(&f->mu);
	return base;
}

/* Waits until the ranges before idx are formatted; returns the file state
 * after them. */
static struct fstate
range_state(struct bigfile *f, int idx)
{
	struct fstate fs;

	pthread_mutex_lock(&f->mu);
	while (f->state_at < idx)
		pthread_cond_wait(&f->cv, &f->mu);
	fs = f->fs;
	pthread_mutex_unlock(&f->mu);
	return fs;
}

/* Drops a reference to a large file's state; the last one frees it. */
static void
bigfile_unref(struct bigfile *f)
{
	int last;

	pthread_mutex_lock(&f->mu);
	last = --f->refs == 0;
	pthread_mutex_unlock(&f->mu);
	if (last) {
		pthread_mutex_destroy(&f->mu);
		pthread_cond_destroy(&f->cv);
		free(f->path);
		free(f->name);
		free(f);
	}
}

/* Publishes the file state after range idx; the last range ends the file
 * (-c, -l, -L) and the last reference frees it. */
static void
range_done(struct bigfile *f, const struct fstate *fs)
{
	int last;

	pthread_mutex_lock(&f->mu);
	f->fs = *fs;
	f->state_at++;
	last = f->state_at == f->nranges;
	pthread_cond_broadcast(&f->cv);
	pthread_mutex_unlock(&f->mu);
	if (last) {
		if (f->fs.nsel > 0)
			__atomic_store_n(&S.matched, 1, __ATOMIC_RELAXED);
		out_file_end(&f->fs);
	}
	bigfile_unref(f);
}

/* Where a range's records lie in its slot. */
struct rangebuf {
	struct scanner	*s;
	unsigned char	*chunk;		/* the slot's bytes: range start on */
	size_t		 first;		/* the first record's start */
	size_t		 end;		/* after the last whole record */
	size_t		 filled;	/* bytes read into the slot */
	int		 long_tail;	/* a record at end goes on past cap */
};

/*
 * Reads range idx of f into slot 0 of rb->s: the byte before it (does a
 * record start at its first byte?), the range, and on until its last record
 * ends; the last range reads on to the end of the file.  A record that goes
 * on past the slot is left to be streamed (long_tail).  Returns 0, or -1
 * with errno set.
 */
static int
range_read(struct bigfile *f, int idx, int fd, struct rangebuf *rb)
{
	const unsigned char eol = opt->eol;
	const int last = idx == f->nranges - 1;
	const uint64_t a = (uint64_t)idx * f->range;
	const size_t want = (size_t)f->range;
	unsigned char before = eol, *p;
	ssize_t n;

	rb->chunk = scan_chunk(rb->s, 0);
	rb->long_tail = 0;
	rb->first = rb->end = rb->filled = 0;
	if (a > 0 && (n = pread_all(fd, &before, 1, a - 1)) != 1)
		return n < 0 ? -1 : 0;
	if ((n = pread_all(fd, rb->chunk, want, a)) < 0)
		return -1;
	rb->filled = (size_t)n;
	if (before != eol) {
		p = memchr(rb->chunk, eol, rb->filled);
		rb->first = p ? (size_t)(p - rb->chunk) + 1 : rb->filled;
	}
	rb->end = rb->filled;
	if (rb->filled < want || rb->first == rb->filled ||
	    (!last && rb->chunk[rb->filled - 1] == eol))
		return 0;
	/* Read on to the end of the last record. */
	for (size_t step = 4096;; step *= 2) {
		size_t from = rb->filled;
		if (from == rb->s->cap) {
			if (stream_long())
				break;
			/* The options need the record whole. */
			scan_grow(rb->s, rb->s->cap * 2);
			rb->chunk = scan_chunk(rb->s, 0);
		}
		if (step > rb->s->cap - from)
			step = rb->s->cap - from;
		if ((n = pread_all(fd, rb->chunk + from, step, a + from)) < 0)
			return -1;
		rb->filled += (size_t)n;
		if (!last && (p = memchr(rb->chunk + from, eol,
		    (size_t)n)) != NULL) {
			rb->end = (size_t)(p - rb->chunk) + 1;
			return 0;
		}
		if ((size_t)n < step) {
			rb->end = rb->filled;	/* the end of the file */
			return 0;
		}
	}
	/* A record longer than the slot: streamed after the whole ones. */
	p = memrchr(rb->chunk + rb->first, eol, rb->filled - rb->first);
	rb->end = p ? (size_t)(p - rb->chunk) + 1 : rb->first;
	rb->long_tail = 1;
	return 0;
}

/* Counts terminators in p[0, n). */
static uintmax_t
count_eols(const unsigned char *p, size_t n)
{
	const unsigned char *end = p + n;
	uintmax_t c = 0;

	while (p < end && (p = memchr(p, opt->eol, (size_t)(end - p)))) {
		c++;
		p++;
	}
	return c;
}

/* Formats a range's records from file state fs (name, offsets, lines set)
 * into the job's output. */
static void
range_format(struct fstate *fs, const struct rangebuf *rb, const uint64_t *bm)
{
	if (!fs->done)
		out_chunk(fs, rb->chunk, rb->first, rb->end, bm);
}

static int range_ready(struct bigfile *, int);
static int output_checked(void);
static void stream_tail(struct searcher *, struct rangejob *);

/* A streamed range: its records (len bytes, at most a range) into the
 * slot.  Returns 1. */
static int
stream_load(struct rangebuf *rb, const unsigned char *data, size_t len)
{
	rb->chunk = scan_chunk(rb->s, 0);
	memcpy(rb->chunk, data, len);
	rb->first = 0;
	rb->end = rb->filled = len;
	rb->long_tail = 0;
	return 1;
}

/* Runs one range of a large file (see above). */
static void
range_job(void *arg, int worker)
{
	struct rangejob *rj = arg;
	struct bigfile *f = rj->f;
	struct searcher *w = &S.w[worker];
	const int idx = rj->idx, scan = search_needs_scan();
	const int binary_matters = !opt->text && opt->eol == '\n' &&
	    !opt->count && !opt->list && !opt->list_none && !opt->quiet;
	struct rangebuf rb = { 0 };
	struct fstate fs, before;
	const uint64_t *bm = NULL;
	uintmax_t lines = 0;
	struct pool_mark mark;
	unsigned char *data = rj->data;
	const size_t dlen = rj->len;
	const uint64_t at = f->path ? (uint64_t)idx * f->range : rj->off;
	int fd = -1, nd, ok = 0, assumed;

	if (rj->tail) {
		stream_tail(w, rj);
		return;
	}
	free(rj);
	/* Large inputs go to the devices (a streamed one once that much has
	 * been read). */
	nd = scan && (f->path ? f->size : at + dlen) > S.host_max ?
	    device(w, !pool_threaded() || S.host_slow) : 0;
	rb.s = nd > 0 ? &w->dev[idx % nd] : &w->host;
	if (rb.s->cap < 2 * f->range)
		scan_grow(rb.s, 2 * f->range);
	if (pool_quit())
		;
	else if (f->path == NULL)
		ok = stream_load(&rb, data, dlen);
	else if ((fd = open(f->path, O_RDONLY)) == -1 ||
	    range_read(f, idx, fd, &rb) == -1) {
		if (!opt->silent)
			warnx_("%s: %s", f->path, strerror(errno));
		__atomic_store_n(&job_failed, 1, __ATOMIC_RELAXED);
	} else
		ok = 1;
	if (!ok)
		rb.first = rb.end = 0;
	if (ok && scan && rb.end > rb.first) {
		int sub = scan_submit(rb.s, 0, rb.end, rb.filled, 0) == 0;
		bm = scan_finish(rb.s, 0, sub);
	}
	if (opt->lineno)
		lines = range_lines(f, idx, count_eols(rb.chunk + rb.first,
		    rb.end - rb.first) + (uintmax_t)rb.long_tail);
	/* Format as if nothing before this range made the file binary or
	 * done; check, and format again if it did. */
	out_file_start(&fs, f->name, f->show_name);
	out_file_size(&fs, f->tsize);
	fs.off = at + rb.first;
	fs.lines = lines;
	pool_hold(binary_matters, &mark);
	if (idx == 0 || range_ready(f, idx)) {
		before = range_state(f, idx);
		fs.binary = before.binary;
		fs.done = before.done;
	}
	assumed = fs.binary;	/* binary from the range's start */
	range_format(&fs, &rb, bm);
	before = range_state(f, idx);
	if ((before.binary && !assumed) || before.done) {
		pool_restore(&mark);
		out_file_start(&fs, f->name, f->show_name);
		out_file_size(&fs, f->tsize);
		fs.off = at + rb.first;
		fs.lines = lines;
		fs.binary = before.binary;
		fs.done = before.done;
		range_format(&fs, &rb, bm);
	}
	pool_hold(0, NULL);
	if (ok && rb.long_tail && !fs.done) {
		/* The record at rb.end runs on past the slot: stream it. */
		size_t have = rb.filled - rb.end;
		int eof = 0;
		memmove(rb.chunk, rb.chunk + rb.end, have);
		w->read_pos = (uint64_t)idx * f->range + rb.filled;
		w->read_left = UINT64_MAX;
		if (lseek(fd, (off_t)w->read_pos, SEEK_SET) == (off_t)-1 ||
		    long_record(w, fd, &fs, rb.s, 0, &have, &eof) == -1)
			__atomic_store_n(&job_failed, 1, __ATOMIC_RELAXED);
	}
	if (fd != -1)
		close(fd);
	free(data);
	/* The file's state after this range. */
	fs.nsel += before.nsel;
	fs.binary |= before.binary;
	fs.done |= before.done;
	fs.name = f->name;
	range_done(f, &fs);
}

/* Returns 1 when the ranges before idx are formatted already. */
static int
range_ready(struct bigfile *f, int idx)
{
	int ready;

	pthread_mutex_lock(&f->mu);
	ready = f->state_at >= idx;
	pthread_mutex_unlock(&f->mu);
	return ready;
}

/* Submits a large regular file as ranges. */
static void
submit_ranges(const char *path, int show_name, uint64_t size)
{
	struct bigfile *f = xcalloc(1, sizeof(*f));

	f->path = xstrdup(path);
	f->name = xstrdup(path);
	f->show_name = show_name;
	f->size = size;
	f->tsize = (long long)size;
	f->range = S.range;
	f->nranges = (int)((size + f->range - 1) / f->range);
	f->refs = f->nranges;
	pthread_mutex_init(&f->mu, NULL);
	pthread_cond_init(&f->cv, NULL);
	out_file_start(&f->fs, f->name, show_name);
	if (search_needs_scan() && size > S.host_max)
		devices_start();
	/* Every range is submitted, even after -q: each one releases the
	 * file, and one that quits early does nothing else. */
	const int n = f->nranges;	/* the last range frees f */
	for (int i = 0; i < n; i++) {
		struct rangejob *rj = xmalloc(sizeof(*rj));
		*rj = (struct rangejob){ .f = f, .idx = i };
		pool_submit(range_job, rj);
	}
}

/*
 * Standard input as ranges: this thread reads it (one reader, a large pipe
 * buffer) into buffers of a range each, cut after their last terminator,
 * and hands each to the workers as a streamed range; the partial record at
 * the end goes on to the next buffer.  A record longer than a range ends
 * the streaming: a last job searches the rest of the input through the
 * ring, long records and all, from the state the ranges left.  A final
 * job with no bytes ends the file.  Returns 0, or -1 after a message.
 */
static int
submit_stream(int fd, const char *name, int show_name)
{
	struct bigfile *f = xcalloc(1, sizeof(*f));
	struct rangejob *rj;
	unsigned char *buf = NULL, *carry = NULL;
	size_t ncarry = 0;
	uint64_t off = 0;
	int idx = 0, eof = 0, rc = 0;
	struct stat st;

	f->name = xstrdup(name);
	f->show_name = show_name;
	f->range = S.range;
	f->tsize = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ?
	    (long long)st.st_size : -1;
	f->nranges = INT_MAX;
	f->refs = 1;
	pthread_mutex_init(&f->mu, NULL);
	pthread_cond_init(&f->cv, NULL);
	out_file_start(&f->fs, f->name, show_name);
	for (;;) {
		size_t have = ncarry, len;
		ssize_t n = 0;
		const unsigned char *t;
		rj = xcalloc(1, sizeof(*rj));
		buf = xmalloc(f->range);
		if (ncarry > 0)
			memcpy(buf, carry, ncarry);
		free(carry);
		carry = NULL;
		ncarry = 0;
		if (!eof && !pool_quit() && (n = in_fill(fd, buf + have,
		    f->range - have, &eof, 0, 1)) < 0) {
			if (!opt->silent)
				warnx_("%s: %s", name, strerror(errno));
			rc = -1;
			eof = 1;
			n = 0;
		}
		have += (size_t)n;
		if (pool_quit())
			eof = 1, have = 0;
		t = eof ? NULL : memrchr(buf, opt->eol, have);
		len = eof ? have : t ? (size_t)(t - buf) + 1 : 0;
		if (!eof && len == 0) {
			/* A record longer than a range: the ring takes over. */
			*rj = (struct rangejob){ f, idx, buf, have, off, 1 };
			break;
		}
		if (len < have) {
			ncarry = have - len;
			carry = xmalloc(ncarry);
			memcpy(carry, buf + len, ncarry);
		}
		if (__atomic_load_n(&S.dev_state, __ATOMIC_RELAXED) == 0 && search_needs_scan() &&
		    off + len > S.host_max)
			devices_start();
		*rj = (struct rangejob){ f, idx++, buf, len, off, 0 };
		off += len;
		pthread_mutex_lock(&f->mu);
		f->refs++;
		f->size = off;
		if (eof && have == len)
			f->nranges = idx + 1;	/* the next, empty, ends it */
		pthread_mutex_unlock(&f->mu);
		pool_submit(range_job, rj);
		if (eof && have == len) {
			rj = xcalloc(1, sizeof(*rj));
			*rj = (struct rangejob){ f, idx, NULL, 0, off, 0 };
			break;
		}
	}
	/* The last job: the empty range, or the ring's tail. */
	pthread_mutex_lock(&f->mu);
	f->refs++;
	f->nranges = idx + 1;
	pthread_mutex_unlock(&f->mu);
	pool_submit(range_job, rj);
	bigfile_unref(f);
	return rc;
}

/* Streams standard input as ranges when it is no output file; returns 1
 * when it did (or refused it), 0 when the ring is to search it. */
static int
stream_ok(int show_name)
{
	const char *name = opt->label ? opt->label : "(standard input)";
	struct stat st;

	if (S.file_hook != NULL)
		return 0;
	if (fstat(STDIN_FILENO, &st) == 0 && S_ISREG(st.st_mode) &&
	    in_is_output(&st) && output_checked()) {
		if (!opt->silent)
			warnx_("%s: input file is also the output", name);
		__atomic_store_n(&job_failed, 1, __ATOMIC_RELAXED);
		return 1;
	}
	if (submit_stream(STDIN_FILENO, name, show_name) == -1)
		__atomic_store_n(&job_failed, 1, __ATOMIC_RELAXED);
	return 1;
}

/* The tail of a streamed input (see submit_stream): the ring searches the
 * rest of it, the bytes read already first, from the state the ranges
 * before it left; then the file ends. */
static void
stream_tail(struct searcher *w, struct rangejob *rj)
{
	struct bigfile *f = rj->f;
	struct fstate fs, before;
	uintmax_t lines = 0;

	if (opt->lineno)
		lines = range_lines(f, rj->idx, 0);
	before = range_state(f, rj->idx);
	out_file_start(&fs, f->name, f->show_name);
	out_file_size(&fs, f->tsize);
	fs.off = rj->off;
	fs.lines = lines;
	fs.binary = before.binary;
	fs.done = before.done;
	fs.nsel = before.nsel;
	w->prefill = rj->data;
	w->prefill_len = rj->len;
	w->read_pos = rj->off;
	w->read_left = UINT64_MAX;
	if (!fs.done && !pool_quit() && search_fd(w, STDIN_FILENO, &fs) == -1)
		__atomic_store_n(&job_failed, 1, __ATOMIC_RELAXED);
	w->prefill = NULL;
	w->prefill_len = 0;
	free(rj->data);
	free(rj);
	range_done(f, &fs);
}

/* Whole inputs in one job: small files batched together (so that a tree
 * of small files costs a job per batch, not per file), or one input; a
 * NULL path is standard input. */
#define BATCH_FILES	64

struct filejob {
	int		 n;
	int		 show_name;
	size_t		 bytes;		/* the files' sizes, summed */
	char		*path[BATCH_FILES];
};

static struct filejob *batch;	/* small files waiting to be submitted */

/* Searches one file: through the hook when one is set (an MPI run of
 * several ranks spreads each file over them, see src/mpi.c). */
static int
search_file(struct searcher *w, const char *path, int show_name)
{
	if (S.file_hook != NULL)
		return S.file_hook(path, show_name);
	return search_file_local(w, path, show_name);
}

static int output_checked(void);

/* Searches standard input with worker w.  Returns 0, or -1 after a
 * message. */
static int
stdin_search(struct searcher *w, int show_name)
{
	struct fstate fs;
	struct stat st;
	int rc, reg = fstat(STDIN_FILENO, &st) == 0 && S_ISREG(st.st_mode);
	off_t at = reg ? lseek(STDIN_FILENO, 0, SEEK_CUR) : -1;

	out_file_start(&fs, opt->label ? opt->label : "(standard input)",
	    show_name);
	if (reg && in_is_output(&st) && output_checked()) {
		if (!opt->silent)
			warnx_("%s: input file is also the output", fs.name);
		return -1;
	}
	out_file_size(&fs, reg ? (long long)st.st_size : -1);
	w->read_pos = 0;
	w->read_left = UINT64_MAX;
	rc = search_fd(w, STDIN_FILENO, &fs);
	/* -m NUM reached: leave standard input just after the last selected
	 * record, as grep does, for whoever reads it next. */
	if (at != -1 && fs.last && !opt->quiet)
		lseek(STDIN_FILENO, at + (off_t)fs.sel_end, SEEK_SET);
	out_file_end(&fs);
	return rc;
}

static void
file_job(void *arg, int worker)
{
	struct filejob *fj = arg;
	struct searcher *w = &S.w[worker];

	for (int i = 0; i < fj->n; i++) {
		int rc = 0;
		if (!pool_quit())
			rc = fj->path[i] == NULL ?
			    stdin_search(w, fj->show_name) :
			    search_file(w, fj->path[i], fj->show_name);
		if (rc == -1)
			__atomic_store_n(&job_failed, 1, __ATOMIC_RELAXED);
		free(fj->path[i]);
	}
	free(fj);
}

/* Submits the batch of small files, if any. */
static void
batch_flush(void)
{
	if (batch != NULL)
		pool_submit(file_job, batch);
	batch = NULL;
}

/* Submits what the walk holds back; call before waiting for the jobs. */
void
search_flush(void)
{
	batch_flush();
}

/* Returns 1 when a job reported a problem (exit status 2). */
int
search_jobs_failed(void)
{
	return __atomic_load_n(&job_failed, __ATOMIC_RELAXED);
}

/* Does grep check that an input is not the output?  Not when the output
 * cannot grow from it (-q, -l, -L, -c, -m 1). */
static int
output_checked(void)
{
	return !opt->quiet && !opt->list && !opt->list_none && !opt->count &&
	    (opt->max_count < 0 || opt->max_count > 1);
}

/* Hands one input to the pipeline: a large regular file as ranges, any
 * other input as one job.  st: the file's status, or NULL. */
static void
submit_input(const char *path, int show_name, const struct stat *st)
{
	struct filejob *fj;

	if (path != NULL && st != NULL && in_is_output(st) &&
	    output_checked()) {
		if (!opt->silent)
			warnx_("%s: input file is also the output", path);
		__atomic_store_n(&job_failed, 1, __ATOMIC_RELAXED);
		return;
	}
	if (path != NULL && st != NULL && S_ISREG(st->st_mode) &&
	    (uint64_t)st->st_size > S.range + 1 && ranges_ok() &&
	    access(path, R_OK) == 0
	    && S.file_hook == NULL
	    ) {
		batch_flush();
		submit_ranges(path, show_name, (uint64_t)st->st_size);
		return;
	}
	/* Small regular files go in batches. */
	if (st != NULL && S_ISREG(st->st_mode) && pool_threaded()) {
		if (batch != NULL && (batch->n == BATCH_FILES ||
		    batch->show_name != show_name ||
		    batch->bytes + (uint64_t)st->st_size > S.range))
			batch_flush();
		if (batch == NULL) {
			batch = xcalloc(1, sizeof(*batch));
			batch->show_name = show_name;
		}
		batch->path[batch->n++] = xstrdup(path);
		batch->bytes += (uint64_t)st->st_size;
		return;
	}
	batch_flush();
	/* A pipe, FIFO or device may block or never end: it waits until the
	 * inputs before it are done (-q may make it unneeded). */
	if (st == NULL || !S_ISREG(st->st_mode)) {
		pool_drain();
		if (out_quit())
			return;
	}
	if (path == NULL && ranges_ok() && stream_ok(show_name))
		return;
	fj = xcalloc(1, sizeof(*fj));
	fj->n = 1;
	fj->path[0] = path ? xstrdup(path) : NULL;
	fj->show_name = show_name;
	pool_submit(file_job, fj);
}

/* in_walk callback: every file under a directory operand is named.  With
 * arg set (-r and no operand: the tree under "."), "./" is left off the
 * names, as grep does. */
static int
walk_file(const char *path, const struct stat *st, void *arg)
{
	if (out_quit())
		return 0;
	if (arg != NULL && strncmp(path, "./", 2) == 0)
		path += 2;
	submit_input(path, opt->with_name != 0, st);
	return 0;
}

/* Searches the tree under the working directory (-r without operands). */
int
search_cwd(void)
{
	return in_walk(".", opt->recursive == 2, &S.filter, walk_file, "");
}

/* Searches a file operand, or the tree under it with -r.  Returns 0, or -1
 * after a message (problems inside the jobs: search_jobs_failed). */
int
search_path(const char *path, int show_name)
{
	struct stat st;
	int have = 0;

	if (strcmp(path, "-") == 0)
		return search_stdin(show_name);
	if (stat(path, &st) == 0) {
		have = 1;
		if (S_ISDIR(st.st_mode)) {
			if (opt->skip_dirs || (opt->recursive &&
			    !in_dir_wanted(&S.filter, path, 1)))
				return 0;
			if (opt->recursive)
				return in_walk(path, opt->recursive == 2,
				    &S.filter, walk_file, NULL);
			if (!opt->silent)
				warnx_("%s: Is a directory", path);
			return -1;
		}
	}
	/* grep applies --include and --exclude to named files too. */
	if (!in_file_wanted(&S.filter, path, 1))
		return 0;
	/* -D skip: devices, FIFOs and sockets named are not read. */
	if (have && opt->skip_devices && (S_ISCHR(st.st_mode) ||
	    S_ISBLK(st.st_mode) || S_ISFIFO(st.st_mode) ||
	    S_ISSOCK(st.st_mode)))
		return 0;
	submit_input(path, show_name, have ? &st : NULL);
	return 0;
}

/* Searches standard input.  Returns 0 (problems: search_jobs_failed). */
int
search_stdin(int show_name)
{
	submit_input(NULL, show_name, NULL);
	return 0;
}
