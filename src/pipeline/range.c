/*
 * range.c: large inputs as ranges, each a job of its own: a regular file cut
 * at fixed offsets (each range reads its own bytes), or standard input cut
 * by one reader into whole-record buffers.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "devq.h"
#include "../engines/hostmatch.h"
#include "input.h"
#include "../output/output.h"
#include "../device/plan.h"
#include "pool.h"
#include "records.h"
#include "../device/scan.h"
#include "search.h"
#include "search_int.h"
#include "../base/utf8.h"
#include "../base/util.h"
#include "decomp.h"
#include "zin.h"

/*
 * Ranges: a large regular file is cut into ranges of equal size, each a
 * job of its own, so that several workers read, scan and format one file at
 * once.  A range's job handles the records that start in it: it skips the
 * bytes before its first record start and reads past its end to finish its
 * last record (a record longer than that is streamed, as in long_record).
 * What a range needs from the ones before it, it gets from the file's
 * shared state, in order: the line number it starts at (with -n), and
 * whether the file turned binary or is done.  It formats at once, assuming
 * neither, holding its output back; if an earlier range says otherwise, it
 * formats again.  Options whose state crosses records in ways a range cannot
 * know (ranges_ok) keep one job per file, the ring.
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
	/* A regular file's last bytes, from tail_at (a multiple of range),
	 * are cut into ranges of tail_range, the ranges from tail_idx on
	 * (range_off): the workers end together */
	uint64_t	 tail_at, tail_range;
	int		 tail_idx;
	int		 refs;		/* ranges still to finish */
	pthread_mutex_t	 mu;
	pthread_cond_t	 cv;
	int		 lines_at;	/* ranges whose line count is in */
	uintmax_t	 lines;		/* terminators before range lines_at */
	int		 state_at;	/* ranges formatted */
	struct fstate	 fs;		/* the file's state after them */
	/* Streamed: range buffers done with, for the reader to fill again
	 * (fresh ones cost a page fault every 4 KiB: 8,500 of them for 64 MB
	 * through one worker) */
	unsigned char	**spare;
	int		 nspare, maxspare;
	size_t		 pad;		/* bytes before each buffer's data (a
					 * scanner's pad: scan_lend) */
	int		 fd;		/* streamed: the input read */
	struct dz	*dz;		/* ... a decoder's (zin.c), ended with
					 * the file, and the file it reads */
	int		 zfd;		/* (-1: none to close) */
	/* (AGREP_GPU_STATS, spans: seconds the reader spent splitting and
	 * waiting for room, the workers decoding and waiting for their turn
	 * to cut; f->mu held but for sp_split and sp_room) */
	double		 sp_split, sp_room, sp_decode, sp_order;
	int		 sp_n;
	size_t		 bufsz;		/* a stream buffer's bytes after pad */
	/* Spans (submit_spans): a BGZF or zstd input cut by decomp.c's
	 * splitter, each span's job decoding it into its range's buffer.
	 * The jobs cut their records in order: zat spans are cut, carry[0,
	 * ncarry) (after pad bytes, xmalloc'd) is what goes on past the last
	 * one's last record, at decoded offset zoff.  ztaken: the rest of
	 * the input goes to the stream decoder, after zpre[0, npre) (after
	 * pad bytes): zrest[0, nzrest) are the spans it starts with, from
	 * zrest[0]'s unit zunit. */
	struct dzsplit	*split;
	int		 zat;
	unsigned char	*carry;
	size_t		 ncarry;
	uint64_t	 zoff;
	int		 ztaken;
	unsigned char	*zpre;
	size_t		 npre;
	struct dzspan	**zrest;
	int		 nzrest, zunit;
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
	uint64_t	 ticket;	/* its turn at the gate */
	unsigned char	*mem;		/* the buffer data lies in, if not at
					 * its start (a span's) */
};

/* Can a file be searched range by range?  (See above.) */
int
ranges_ok(void)
{
	return !opt->context && opt->max_count < 0 && !opt->best &&
	    !opt->line_buffered && !opt->json && !opt->binary_nomatch;
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

/* Takes a reference to a large file's state (bigfile_unref drops it). */
static void
bigfile_ref(struct bigfile *f)
{
	pthread_mutex_lock(&f->mu);
	f->refs++;
	pthread_mutex_unlock(&f->mu);
}

/* Drops a reference to a large file's state; the last one frees it. */
static void
bigfile_unref(struct bigfile *f)
{
	int last;

	pthread_mutex_lock(&f->mu);
	last = --f->refs == 0;
	pthread_cond_broadcast(&f->cv);	/* the stdin reader may wait */
	pthread_mutex_unlock(&f->mu);
	if (last) {
		if (f->split != NULL && getenv("AGREP_GPU_STATS") != NULL)
			fprintf(stderr, "%s: spans: %s: %d, the reader %.3f s "
			    "splitting and %.3f s waiting for room; the "
			    "workers %.3f s decoding, %.3f s waiting to cut "
			    "in order\n", progname, f->name, f->sp_n,
			    f->sp_split, f->sp_room, f->sp_decode,
			    f->sp_order);
		if (f->dz != NULL)
			zin_close(f->dz, f->name);
		if (f->zfd != -1)
			close(f->zfd);
		for (int i = 0; i < f->nzrest; i++)
			dzs_free(f->zrest[i]);
		dzs_close(f->split);
		free(f->zrest);
		util_free_big(f->zpre);
		free(f->carry);
		pthread_mutex_destroy(&f->mu);
		pthread_cond_destroy(&f->cv);
		while (f->nspare > 0)
			util_free_big(f->spare[--f->nspare] - f->pad);
		free(f->spare);
		free(f->path);
		free(f->name);
		free(f);
	}
}

/* A fresh buffer for a streamed range: pad bytes before the range (it is
 * scanned in place: scan_lend), 64 after; in huge pages (util_alloc_big). */
static unsigned char *
stream_buf_new(struct bigfile *f)
{
	void *b = util_alloc_big(f->pad + f->bufsz + 64);

	if (b == NULL)
		fatalx("out of memory (%zu bytes)", f->pad + f->bufsz + 64);
	return b;
}

/* A buffer of a range for the stream reader: one done with, or a new one. */
static unsigned char *
stream_buf_get(struct bigfile *f)
{
	unsigned char *b = NULL;

	pthread_mutex_lock(&f->mu);
	if (f->nspare > 0)
		b = f->spare[--f->nspare];
	pthread_mutex_unlock(&f->mu);
	if (b == NULL)
		b = stream_buf_new(f) + f->pad;
	return b;
}

/* A streamed range's buffer is done with (NULL: none). */
static void
stream_buf_put(struct bigfile *f, unsigned char *b)
{
	if (b == NULL)
		return;
	pthread_mutex_lock(&f->mu);
	if (f->nspare < f->maxspare) {
		f->spare[f->nspare++] = b;
		b = NULL;
	}
	pthread_mutex_unlock(&f->mu);
	if (b != NULL)
		util_free_big(b - f->pad);
}

/*
 * Whether ranges may finish in any order: when the output is only how many
 * records are selected (-c, -l, -L, -q; ranges_ok rules out -m), what a
 * range selects adds to the file's count whatever the ranges before it did,
 * so it need not wait for them (nor hold its device slot meanwhile).
 */
static int
range_unordered(void)
{
	return (opt->count || opt->list || opt->list_none || opt->quiet) &&
	    !opt->lineno;
}

/* Publishes the file state after range idx (unordered: adds what the range
 * selected to the file's); the last range ends the file (-c, -l, -L) and
 * the last reference frees it. */
static void
range_done(struct bigfile *f, const struct fstate *fs, int unordered)
{
	int last;

	pthread_mutex_lock(&f->mu);
	if (unordered) {
		f->fs.nsel += fs->nsel;
		f->fs.binary |= fs->binary;
		f->fs.done |= fs->done;
		f->fs.enc |= fs->enc;
	} else
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
	int		 ascii;		/* chunk[0, filled) is all ASCII (known
					 * where the scanner asks, else 0) */
	int		 nonul;		/* chunk[0, filled) holds no NUL (known
					 * where a NUL ends records and the
					 * device does not count them, else 0:
					 * scan.c SCAN_ZAP) */
};

/* scan_prepare's flags for a range: its ASCII known, and NULs as record
 * ends, as grep reads a binary file (not with -a or -z). */
static int
range_flags(const struct rangebuf *rb)
{
	int f = rb->ascii ? SCAN_ASCII : 0;

	if (out_nul_binary())
		f |= SCAN_ZAP | (rb->nonul ? SCAN_NONUL : 0);
	return f;
}

/* Bytes read at a time by read_checked: small enough that checking them
 * finds them in the cache. */
#define READ_PIECE	((size_t)256 << 10)

/*
 * Checks n bytes just read at p, in the cache still: clears rb->ascii on a
 * byte of 0x80 or more, rb->nonul on a NUL.  out_chunk's own search for a
 * NUL came later, over bytes gone from the cache: 4-5% of a search's CPU
 * time (a 31-byte phrase -k6 over the Bible x62, 2-core Xeon).
 */
static void
check_piece(struct rangebuf *rb, const unsigned char *p, size_t n)
{
	u8_check(p, n, &rb->ascii, &rb->nonul);
}

/* Reads want bytes at offset a into rb->chunk (rb->filled: how many came),
 * in pieces; while rb->ascii or rb->nonul is set, checks each piece just
 * after reading it (check_piece).  Returns 0, or -1. */
static int
read_checked(int fd, struct rangebuf *rb, size_t want, uint64_t a)
{
	const size_t piece = rb->ascii || rb->nonul ? READ_PIECE : want;
	ssize_t n;

	rb->filled = 0;
	while (rb->filled < want) {
		size_t step = want - rb->filled < piece ? want - rb->filled :
		    piece;
		if ((n = in_pread(fd, rb->chunk + rb->filled, step,
		    a + rb->filled)) < 0)
			return -1;
		check_piece(rb, rb->chunk + rb->filled, (size_t)n);
		rb->filled += (size_t)n;
		if ((size_t)n < step)
			break;
	}
	return 0;
}

/* Where range idx of a regular file starts, and its bytes (the last: to
 * the end of the file; each range reads on to the end of its last record,
 * range_read). */
static uint64_t
range_off(const struct bigfile *f, int idx)
{
	return idx < f->tail_idx ? (uint64_t)idx * f->range : f->tail_at +
	    (uint64_t)(idx - f->tail_idx) * f->tail_range;
}

static size_t
range_len(const struct bigfile *f, int idx)
{
	return (size_t)(idx < f->tail_idx ? f->range : f->tail_range);
}

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
	const uint64_t a = range_off(f, idx);
	const size_t want = range_len(f, idx);
	unsigned char before = eol, *p;
	ssize_t n;

	rb->chunk = scan_chunk(rb->s, 0);
	rb->long_tail = 0;
	rb->first = rb->end = rb->filled = 0;
	rb->ascii = scan_wants_ascii(rb->s);
	/* (not for a device's slot that counts records: its reading is the
	 * feed's time, and count_records looks for a NUL there) */
	rb->nonul = (!rb->s->device || !out_counts_ok()) && out_nul_binary();
	if (a > 0 && (n = in_pread(fd, &before, 1, a - 1)) != 1)
		return n < 0 ? -1 : 0;
	if (read_checked(fd, rb, want, a) == -1)
		return -1;
	if (a == 0)
		zin_note(f->name, rb->chunk, rb->filled);
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
		if ((n = in_pread(fd, rb->chunk + from, step, a + from)) < 0)
			return -1;
		rb->filled += (size_t)n;
		check_piece(rb, rb->chunk + from, (size_t)n);
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

/* Formats a range's records from file state fs (name, offsets, lines set)
 * into the job's output. */
static void
range_format(struct fstate *fs, const struct rangebuf *rb, const uint64_t *bm)
{
	uint64_t hits, eols;

	if (fs->done || rb->end <= rb->first)
		return;
	if (scan_counts(rb->s, 0, &hits, &eols) == 0)
		out_counted(fs, rb->chunk, rb->first, rb->end, hits, eols);
	else {
		fs->nonul = rb->nonul;
		scan_nul_note(fs, rb->s, 0);
		out_chunk(fs, rb->chunk, rb->first, rb->end, bm);
	}
}

static int range_ready(struct bigfile *, int);
static void stream_tail(struct searcher *, struct rangejob *);

/* A streamed range: its records (len bytes, at most a range) into the
 * slot.  Returns 1. */
static int
stream_load(struct rangebuf *rb, const unsigned char *data, size_t len)
{
	rb->chunk = scan_chunk(rb->s, 0);
	if (len > 0 && rb->chunk != data)
		memcpy(rb->chunk, data, len);
	rb->first = 0;
	rb->end = rb->filled = len;
	rb->long_tail = 0;
	return 1;
}

/*
 * The gate: ranges are placed (host or device slot) one at a time, in the
 * order they were submitted, so that each device's slots finish in that
 * order: a range's formatting waits only for ranges before it (their line
 * counts, the file's state), and those are either running on a worker or
 * ahead of it in their device's queue.
 */
#define GATE_CVS	64	/* wake-up conditions, by ticket */

static struct {
	pthread_mutex_t	 mu;
	pthread_cond_t	 cv[GATE_CVS]; /* ticket t waits on cv[t % GATE_CVS] */
	uint64_t	 next;		/* the next ticket to give */
	uint64_t	 at;		/* the ticket whose turn it is */
} G = { .mu = PTHREAD_MUTEX_INITIALIZER,
    .cv = { [0 ... GATE_CVS - 1] = PTHREAD_COND_INITIALIZER } };

static uint64_t
gate_ticket(void)
{
	return __atomic_fetch_add(&G.next, 1, __ATOMIC_RELAXED);
}

/* Each waiting worker sleeps on its ticket's own condition, so a turn
 * passed on wakes the one whose turn it is (and any sharing its
 * condition), not every worker waiting: with 16 workers behind a range
 * that waits for a GPU slot, a broadcast woke 15 to find it was not
 * theirs. */
static void
gate_enter(uint64_t ticket)
{
	pthread_mutex_lock(&G.mu);
	while (G.at != ticket)
		pthread_cond_wait(&G.cv[ticket % GATE_CVS], &G.mu);
	pthread_mutex_unlock(&G.mu);
}

static void
gate_leave(void)
{
	pthread_mutex_lock(&G.mu);
	G.at++;
	pthread_cond_broadcast(&G.cv[G.at % GATE_CVS]);
	pthread_mutex_unlock(&G.mu);
}

/* range_place's answers */
enum { ON_HOST, ON_DEVICE, ON_OPENING };

/*
 * Places a range of f that starts at input offset at (len bytes when
 * streamed), in the ranges' order (in the gate): ON_HOST, or on a device
 * as the planner says (AGREP_GPU_HOST_MAX: a file larger than it goes to
 * the devices whole), ON_OPENING where they are still to open.  A range
 * for a device is reserved (devq_reserve): the worker waits for its slot
 * (range_slot) after the gate, so that the workers behind it go on
 * placing theirs, on the host where the devices' queue is long, rather
 * than wait in the gate (1,000 Bible words -c -k1 -f over 1 GiB on one
 * H100: 1.59-1.66 s before, 1.51 after, the host alone 1.39-1.48).
 */
static int
range_place(const struct bigfile *f, uint64_t at, uint64_t len,
    uint64_t *turn)
{
	const uint64_t size = f->path ? f->size : at + len;
	int state = devices_state(), w;

	if (opt->host_max != SIZE_MAX || plan_mode() == PLAN_DEVICE) {
		if (size <= S.host_max)
			return ON_HOST;
		w = state == 1 ? ON_DEVICE : ON_OPENING;
	} else if (plan_place(f->range, state, state == 1 || state == 2 ?
	    devq_queued() : 0, state == 1 && devq_free(f->range)) ==
	    PLAN_ON_HOST)
		return ON_HOST;
	else
		w = state == 2 ? ON_OPENING : ON_DEVICE;
	*turn = devq_reserve(f->range);
	return w;
}

/* The slot of a range placed on a device (range_place), after the gate:
 * NULL where the devices did not open after all (the host takes it). */
static struct dslot *
range_slot(const struct bigfile *f, int where, uint64_t turn)
{
	return devq_take_turn(f->range, turn, where != ON_OPENING ||
	    devices_wait() > 0);
}

/* A range in hand: where its records lie, and what finishing it needs. */
struct rangectx {
	struct bigfile	*f;
	int		 idx;
	uint64_t	 at;		/* input offset of the slot's byte 0 */
	int		 ok;		/* it was read */
	int		 fd;		/* open while a long tail is to come */
	struct rangebuf	 rb;
	struct job	*job;		/* detached, finished by the device */
};

/*
 * Finishes a scanned range (bm: its hits): its line count, its records
 * formatted from the file's state before it (see above), a record that runs
 * on past the slot streamed, and the file's state after it published.
 * w: the searcher that streams a long tail.
 */
static void
range_finish(struct rangectx *c, const uint64_t *bm, struct searcher *w)
{
	struct bigfile *f = c->f;
	struct rangebuf *rb = &c->rb;
	const int idx = c->idx;
	const int binary_matters = out_nul_binary() &&
	    !opt->count && !opt->list && !opt->list_none && !opt->quiet;
	const int unordered = range_unordered();
	struct fstate fs, before;
	struct pool_mark mark;
	uintmax_t lines = 0;
	int assumed;

	if (opt->lineno)
		lines = range_lines(f, idx, (rb->end > rb->first ?
		    out_count_eol(rb->chunk, rb->first, rb->end) : 0) +
		    (uintmax_t)rb->long_tail);
	/* Format as if nothing before this range made the file binary or
	 * done; check, and format again if it did. */
	out_file_start(&fs, f->name, f->show_name);
	out_file_size(&fs, f->tsize);
	fs.off = c->at + rb->first;
	fs.lines = lines;
	pool_hold(binary_matters, &mark);
	memset(&before, 0, sizeof(before));
	if (!unordered && (idx == 0 || range_ready(f, idx))) {
		before = range_state(f, idx);
		fs.binary = before.binary;
		fs.done = before.done;
	}
	assumed = fs.binary;	/* binary from the range's start */
	range_format(&fs, rb, bm);
	if (!unordered)
		before = range_state(f, idx);
	if ((before.binary && !assumed) || before.done) {
		pool_restore(&mark);
		out_file_start(&fs, f->name, f->show_name);
		out_file_size(&fs, f->tsize);
		fs.off = c->at + rb->first;
		fs.lines = lines;
		fs.binary = before.binary;
		fs.done = before.done;
		range_format(&fs, rb, bm);
	}
	pool_hold(0, NULL);
	if (c->ok && rb->long_tail && !fs.done) {
		/* The record at rb->end runs on past the slot: stream it. */
		size_t have = rb->filled - rb->end;
		int eof = 0;
		memmove(rb->chunk, rb->chunk + rb->end, have);
		w->read_pos = c->at + rb->filled;
		w->read_left = UINT64_MAX;
		if (lseek(c->fd, (off_t)w->read_pos, SEEK_SET) == (off_t)-1 ||
		    long_record(w, c->fd, &fs, rb->s, 0, &have, &eof) == -1)
			__atomic_store_n(&S.job_failed, 1, __ATOMIC_RELAXED);
	}
	if (c->fd != -1)
		close(c->fd);
	c->fd = -1;
	/* The file's state after this range. */
	fs.nsel += before.nsel;
	fs.binary |= before.binary;
	fs.done |= before.done;
	fs.enc |= before.enc;
	fs.name = f->name;
	range_done(f, &fs, unordered);
}

/* A device finished a range's scan: its thread finishes the range, in the
 * range's place of the output. */
static void
range_resume(void *arg, struct scanner *s, const uint64_t *bm, int failed)
{
	struct rangectx *c = arg;
	struct searcher tail;

	/* A failed device: the host scans the range (one warning); a NUL
	 * that count_records found: the host makes the NULs terminators and
	 * scans the range again. */
	if (failed)
		bm = scan_finish(s, 0, 0);
	else if (scan_nul_pending(s, 0)) {
		scan_zap(s, 0);
		bm = scan_rescan(s, 0);
	}
	memset(&tail, 0, sizeof(tail));
	range_finish(c, bm, &tail);
	free(c);
}

/* Reads range c of its file (or loads its streamed bytes) into rb->s;
 * sets c->ok. */
static void
range_load(struct rangectx *c, unsigned char *data, size_t dlen, int lend)
{
	struct bigfile *f = c->f;

	if (c->rb.s->cap < 2 * f->range)
		scan_grow(c->rb.s, 2 * f->range);
	if (lend && f->path == NULL)
		scan_lend(c->rb.s, 0, data - f->pad);
	if (pool_quit())
		;
	else if (f->path == NULL)
		c->ok = stream_load(&c->rb, data, dlen);
	else if ((c->fd = open(f->path, O_RDONLY)) == -1 ||
	    range_read(f, c->idx, c->fd, &c->rb) == -1) {
		if (!opt->silent)
			warnx_("%s: %s", f->name, strerror(errno));
		__atomic_store_n(&S.job_failed, 1, __ATOMIC_RELAXED);
	} else
		c->ok = 1;
	if (!c->ok)
		c->rb.first = c->rb.end = 0;
}

/* Runs one range of a large input (see above): placed by the planner, then
 * scanned here on the host, or handed to a device slot (the worker goes
 * on; the device's thread finishes the range). */
static void
range_job(void *arg, int worker)
{
	struct rangejob *rj = arg;
	struct searcher *w = &S.w[worker];
	const int scan = search_needs_scan();
	struct rangectx *c;
	struct dslot *ds = NULL;
	unsigned char *data = rj->data;
	unsigned char *mem = rj->mem != NULL ? rj->mem : data;
	const size_t dlen = rj->len;

	/* (made before the gate: a thread's first allocation makes its
	 * malloc arena, an mmap that waits for the other workers' page
	 * faults; inside the gate, 0.3 ms a worker one after the other,
	 * the 16 workers of a 4.3 MB file 5 ms) */
	c = xcalloc(1, sizeof(*c));
	gate_enter(rj->ticket);
	if (rj->tail) {
		gate_leave();
		free(c);
		stream_tail(w, rj);
		return;
	}
	c->f = rj->f;
	c->idx = rj->idx;
	c->at = c->f->path ? range_off(c->f, c->idx) : rj->off;
	c->fd = -1;
	free(rj);
	uint64_t turn = 0;
	const int where = scan && !pool_quit() ? range_place(c->f, c->at,
	    dlen, &turn) : ON_HOST;
	gate_leave();
	if (where != ON_HOST)
		ds = range_slot(c->f, where, turn);
	if (ds != NULL) {
		int sc = 0;
		const double t0 = util_now();
		c->rb.s = devq_scanner(ds);
		range_load(c, data, dlen, 0);
		stream_buf_put(c->f, mem);
		if (c->ok && c->rb.end > c->rb.first && out_counts_ok())
			scan_count_from(c->rb.s, 0, c->rb.first);
		if (c->ok && c->rb.end > c->rb.first)
			sc = scan_prepare(c->rb.s, 0, c->rb.end,
			    c->rb.filled, range_flags(&c->rb)) > 0 ? 1 : -1;
		/* Once handed over, c belongs to the device's thread (it
		 * frees it).  (Jobs may be detached whenever a device may be
		 * used: agrep-gpu.c's pool_start.) */
		if ((c->job = pool_detach()) == NULL)
			fatalx("a device's range outside a detachable job");
		devq_post(ds, sc, util_now() - t0, c->rb.end - c->rb.first,
		    range_resume, c, c->job);
		return;
	}
	const double t0 = util_now();
	const uint64_t *bm = NULL;
	c->rb.s = &w->host;
	/* A streamed range is scanned and formatted in the reader's buffer
	 * (a copy of 64 MB through a pipe took 6% of the run); the buffer
	 * goes back to the file after range_finish, whose range_done may
	 * drop the file's last reference but for this one. */
	struct bigfile *f = c->f;
	if (data != NULL)
		bigfile_ref(f);
	range_load(c, data, dlen, data != NULL);
	const uint64_t bytes = c->ok && scan ? c->rb.end - c->rb.first : 0;
	if (bytes > 0) {
		scan_submit(c->rb.s, 0, c->rb.end, c->rb.filled,
		    range_flags(&c->rb));
		bm = scan_finish(c->rb.s, 0, 1);
	}
	range_finish(c, bm, w);
	if (data != NULL) {
		scan_unlend(c->rb.s, 0);
		stream_buf_put(f, mem);
		bigfile_unref(f);
	}
	/* reading, scanning and formatting: what a device range costs the
	 * host too (plan.c, dev_cpu_pays) */
	if (bytes > 0)
		plan_host_done(bytes, util_now() - t0);
	free(c);
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

/* Returns the range size for a file of size bytes: S.range, or for a file
 * of less than 16 ranges a sixteenth of it, down to RANGE_SMALL, so that a
 * few megabytes are shared out over the workers too.  It depends on the
 * file alone, never on the threads: the output is the same for every -j. */
uint64_t
range_for(uint64_t size)
{
	uint64_t r = S.range;

	if (r > RANGE_SMALL && size / 16 < r)
		r = size / 16 > RANGE_SMALL ? size / 16 : RANGE_SMALL;
	return r;
}

/*
 * Cuts a regular file of f->size bytes into ranges of f->range, but for
 * its last bytes (at most a quarter of it, at most RANGE_TAIL ranges'
 * worth): ranges of a quarter of that.  With ranges of equal size the
 * workers end up to a whole range apart, one searching its last range
 * while the others wait: the 31-byte phrase -k6 over 34 MB on 2 cores,
 * 16.7 -> 16.2 ms; no difference beyond the spread on 16 cores, where
 * the big files are bound by memory.  Like range_for, it depends on the
 * file alone.
 */
static void
range_tail(struct bigfile *f)
{
	const uint64_t R = f->range, size = f->size;
	uint64_t tail = size / 4 < RANGE_TAIL * R ? size / 4 : RANGE_TAIL * R;

	f->tail_range = R / 4;
	if (f->tail_range == 0) {
		f->tail_range = R;
		tail = 0;
	}
	f->tail_idx = (int)((size - tail) / R);
	f->tail_at = (uint64_t)f->tail_idx * R;
	f->nranges = f->tail_idx + (int)((size - f->tail_at + f->tail_range -
	    1) / f->tail_range);
}

/* Submits a large regular file as ranges: path opens it, name (NULL: the
 * path) names it in the output. */
void
submit_ranges(const char *path, const char *name, int show_name,
    uint64_t size)
{
	struct bigfile *f = xcalloc(1, sizeof(*f));

	f->path = xstrdup(path);
	f->name = xstrdup(name != NULL ? name : path);
	f->show_name = show_name;
	f->fd = f->zfd = -1;
	f->size = size;
	f->tsize = (long long)size;
	f->range = range_for(size);
	range_tail(f);
	f->refs = f->nranges;
	pthread_mutex_init(&f->mu, NULL);
	pthread_cond_init(&f->cv, NULL);
	out_file_start(&f->fs, f->name, show_name);
	if (search_needs_scan() && devices_pay(path, size, REC_LINES))
		devices_start();
	/* Every range is submitted, even after -q: each one releases the
	 * file, and one that quits early does nothing else. */
	const int n = f->nranges;	/* the last range frees f */
	for (int i = 0; i < n; i++) {
		struct rangejob *rj = xmalloc(sizeof(*rj));
		*rj = (struct rangejob){ .f = f, .idx = i,
		    .ticket = gate_ticket() };
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
int
submit_stream(int fd, const char *name, int show_name)
{
	return submit_stream_z(fd, name, show_name, NULL, -1, NULL, 0);
}

/* A streamed input's state (fd its input; zfd -1 or the file to close):
 * ranges of S.range bytes, read on as they are finished (spare buffers for
 * two a worker), its output begun. */
static struct bigfile *
stream_new(int fd, const char *name, int show_name, int zfd)
{
	struct bigfile *f = xcalloc(1, sizeof(*f));

	f->name = xstrdup(name);
	f->show_name = show_name;
	f->fd = fd;
	f->zfd = zfd;
	f->range = S.range;
	f->bufsz = f->range;
	f->nranges = INT_MAX;
	f->tail_idx = INT_MAX;	/* (range_off: regular files only) */
	f->refs = 1;
	f->maxspare = 2 * pool_workers() + 2;
	f->pad = S.w[0].host.pad;
	f->spare = xreallocarray(NULL, (size_t)f->maxspare, sizeof(*f->spare));
	pthread_mutex_init(&f->mu, NULL);
	pthread_cond_init(&f->cv, NULL);
	out_file_start(&f->fs, f->name, show_name);
	return f;
}

/* Whether a streamed input is still needed (in_fill_paced): -q ended the
 * run, or -l, -L or -m ended the file. */
static int
stream_unneeded(void *arg)
{
	struct bigfile *f = arg;

	pthread_mutex_lock(&f->mu);
	const int done = f->fs.done;
	pthread_mutex_unlock(&f->mu);
	return done || pool_quit();
}

/* The same for the decoded stream fd of decoder z (zin.c), which reads
 * zfd (-1: nothing to close): both ended with the file.  head[0, nhead):
 * the input's first bytes, read already (zin.c: a pipe's, not compressed;
 * z NULL). */
int
submit_stream_z(int fd, const char *name, int show_name, struct dz *z,
    int zfd, const unsigned char *head, size_t nhead)
{
	struct bigfile *f = stream_new(fd, name, show_name, zfd);
	struct rangejob *rj;
	unsigned char *buf = NULL, *carry = NULL;
	size_t ncarry = 0;
	uint64_t off = 0;
	int idx = 0, eof = 0, rc = 0;
	struct stat st;

	if (nhead > 0) {
		carry = xmalloc(nhead);
		memcpy(carry, head, nhead);
		ncarry = nhead;
	}

	f->dz = z;
	f->tsize = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ?
	    (long long)st.st_size : -1;
	for (;;) {
		size_t have = ncarry, len;
		ssize_t n = 0;
		const unsigned char *t;
		rj = xcalloc(1, sizeof(*rj));
		buf = stream_buf_get(f);
		if (ncarry > 0)
			memcpy(buf, carry, ncarry);
		free(carry);
		carry = NULL;
		ncarry = 0;
		/* (the first bytes, when they hold a whole record, go to
		 * the workers before the input is waited for) */
		const int wait = !(idx == 0 && nhead > 0 && memchr(head,
		    opt->eol, nhead) != NULL);
		if (!eof && !pool_quit() && wait && (n = z != NULL ?
		    dz_fill_paced(z, buf + have, f->range - have, &eof,
		    opt->eol, stream_unneeded, f) : f->tsize >= 0 ?
		    in_fill(fd, buf + have, f->range - have, &eof, 0, 1) :
		    in_fill_paced(fd, buf + have, f->range - have, &eof,
		    opt->eol, stream_unneeded, f)) < 0) {
			if (!opt->silent)
				warnx_("%s: %s", name, strerror(errno));
			rc = -1;
			eof = 1;
			n = 0;
		}
		have += (size_t)n;
		if (off == 0 && z == NULL)
			zin_note(name, buf, have);
		/* -q ended the run, or -l, -L, -m ended the file: the rest is
		 * not read (nor decoded: a compressed file's -l took its whole
		 * decoding, 4.4 s of xz for a match in the first line) */
		pthread_mutex_lock(&f->mu);
		const int done = f->fs.done;
		pthread_mutex_unlock(&f->mu);
		if (pool_quit() || done)
			eof = 1, have = 0;
		t = eof ? NULL : memrchr(buf, opt->eol, have);
		len = eof ? have : t ? (size_t)(t - buf) + 1 : 0;
		if (!eof && len == 0) {
			/* A record longer than a range: the ring takes over. */
			*rj = (struct rangejob){ f, idx, buf, have, off, 1,
			    gate_ticket(), NULL };
			break;
		}
		if (len < have) {
			ncarry = have - len;
			carry = xmalloc(ncarry);
			memcpy(carry, buf + len, ncarry);
		}
		if (__atomic_load_n(&S.dev_state, __ATOMIC_RELAXED) == 0 &&
		    search_needs_scan() && stream_pays(buf, len, off + len))
			devices_start();
		*rj = (struct rangejob){ f, idx++, buf, len, off, 0,
		    gate_ticket(), NULL };
		off += len;
		pthread_mutex_lock(&f->mu);
		/* Bounded memory: at most two ranges per worker read ahead
		 * (refs counts this reader too). */
		while (f->refs > 2 * pool_workers())
			pthread_cond_wait(&f->cv, &f->mu);
		f->refs++;
		f->size = off;
		if (eof && have == len)
			f->nranges = idx + 1;	/* the next, empty, ends it */
		pthread_mutex_unlock(&f->mu);
		pool_submit(range_job, rj);
		if (eof && have == len) {
			rj = xcalloc(1, sizeof(*rj));
			*rj = (struct rangejob){ f, idx, NULL, 0, off, 0,
			    gate_ticket(), NULL };
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
	w->dz = f->dz;
	if (!fs.done && !pool_quit() && search_fd(w, f->fd, &fs) == -1)
		__atomic_store_n(&S.job_failed, 1, __ATOMIC_RELAXED);
	w->dz = NULL;
	w->prefill = NULL;
	w->prefill_len = 0;
	if (rj->data != NULL)
		util_free_big(rj->data - f->pad);
	free(rj);
	/* A decoder's fault is told after the file's output, here (the last
	 * reference, which would tell it, may be any range's job: the
	 * message moved about the count with the timing) */
	bigfile_ref(f);
	range_done(f, &fs, 0);	/* (after every range: range_state) */
	if (f->dz != NULL)
		zin_close(f->dz, f->name);
	f->dz = NULL;
	bigfile_unref(f);
}


/*
 * A BGZF or multi-frame zstd input as spans (zin.c): this thread cuts it
 * with decomp.c's splitter into spans of whole blocks or frames, about a
 * range of decoded bytes each, and submits each as a job that decodes it
 * into a range buffer and scans it there; so every worker decodes, and
 * the decoded bytes are copied nowhere (the driver thread, its ring and
 * this reader had copied them twice, and on 2 cores 2 decoder threads
 * fought 2 scanning ones: 0.57 s of BGZF Bible where decoding and scanning
 * cost 0.29 s of each core).  A span's job cuts its records in input order
 * after the span before it: the bytes past that one's last record (the
 * carry) go before its own, its own go on to the next.  A span that does
 * not decode, or whose records do not end in it (a record longer than a
 * range), gives the rest of the input to the stream decoder (a direct
 * dz), which the last job searches through the ring as stream_tail does,
 * after the bytes decoded before it.  The spans after it decode nothing.
 */

/* Bytes before a span's decoded bytes in its buffer, for the carry (a
 * longer one moves the decoded bytes on). */
static size_t
span_head(const struct bigfile *f)
{
	return f->range < ((size_t)256 << 10) ? f->range : (size_t)256 << 10;
}

struct spanjob {
	struct bigfile	*f;
	int		 idx;
	struct dzspan	*sp;		/* NULL: the last job */
	int		 end;		/* the last's: 2 the stream decoder
					 * takes the rest */
	uint64_t	 ticket;
};

/* A copy of p[0, n) after pad bytes, with 64 more: a buffer the ring's
 * tail (stream_tail) or a carry can take. */
static unsigned char *
span_copy(const struct bigfile *f, const unsigned char *p, size_t n)
{
	unsigned char *b = xmalloc(f->pad + n + 64);

	if (n > 0)
		memcpy(b + f->pad, p, n);
	return b;
}

/* The stream decoder takes the rest of f (f->mu held): after the carry,
 * then p[0, n), from span sp's unit unit on (sp NULL: after the spans). */
static void
span_give_up(struct bigfile *f, const unsigned char *p, size_t n,
    struct dzspan *sp, int unit)
{
	f->ztaken = 1;
	f->zpre = util_alloc_big(f->pad + f->ncarry + n + 64);
	if (f->zpre == NULL)
		fatalx("out of memory (%zu bytes)", f->pad + f->ncarry + n + 64);
	if (f->ncarry > 0)
		memcpy(f->zpre + f->pad, f->carry + f->pad, f->ncarry);
	if (n > 0)
		memcpy(f->zpre + f->pad + f->ncarry, p, n);
	f->npre = f->ncarry + n;
	f->ncarry = 0;
	f->zunit = unit;
	if (sp != NULL) {
		f->zrest = xreallocarray(f->zrest, (size_t)f->nzrest + 1,
		    sizeof(*f->zrest));
		f->zrest[f->nzrest++] = sp;
	}
}

/* The last job of a spanned input (f->mu held): the carry as the last
 * range (rj->len set, rj->data not yet), or the ring's tail after the
 * stream decoder took over. */
static void
span_last(struct spanjob *sj, struct rangejob *rj)
{
	struct bigfile *f = sj->f;
	const int stop = f->fs.done || pool_quit();

	if (!stop && (f->ztaken || sj->end == 2)) {
		if (!f->ztaken)
			span_give_up(f, NULL, 0, NULL, 0);
		/* (zstd's on 2 threads at least: its units, not the stream
		 * decoder, for every -j, which may name another byte of a
		 * frame that fails its checksum) */
		f->dz = dzs_rest(f->split, f->zrest, f->nzrest, f->zunit,
		    pool_workers() > 2 ? pool_workers() : 2);
		if (f->dz == NULL) {
			if (!opt->silent)
				warnx_("%s: %s", f->name, strerror(errno));
			__atomic_store_n(&S.job_failed, 1, __ATOMIC_RELAXED);
		} else {
			rj->data = f->zpre + f->pad;
			rj->len = f->npre;
			rj->tail = 1;
			f->zpre = NULL;
		}
		return;
	}
	if (!stop)
		rj->len = f->ncarry;	/* (span_job copies it) */
}

static void
span_job(void *arg, int worker)
{
	struct spanjob *sj = arg;
	struct bigfile *f = sj->f;
	struct rangejob *rj = xcalloc(1, sizeof(*rj));
	const size_t head = span_head(f);
	const int last = sj->sp == NULL;
	unsigned char *b = NULL;
	size_t got = 0;
	int bad = -1;

	pthread_mutex_lock(&f->mu);
	const int skip = f->fs.done || f->ztaken;
	pthread_mutex_unlock(&f->mu);
	const double t0 = util_now();
	if (sj->sp != NULL && !skip && !pool_quit()) {
		b = stream_buf_get(f);
		got = dzs_decode(sj->sp, b + head, &bad);
	}
	const double t1 = util_now();
	pthread_mutex_lock(&f->mu);
	while (f->zat < sj->idx)
		pthread_cond_wait(&f->cv, &f->mu);
	f->sp_decode += t1 - t0;
	f->sp_order += util_now() - t1;
	f->sp_n++;
	*rj = (struct rangejob){ f, sj->idx, NULL, 0, f->zoff, 0, sj->ticket,
	    NULL };
	if (last)
		span_last(sj, rj);
	else if (f->ztaken) {
		/* (an empty range: the stream decoder has it) */
		f->zrest = xreallocarray(f->zrest, (size_t)f->nzrest + 1,
		    sizeof(*f->zrest));
		f->zrest[f->nzrest++] = sj->sp;
		sj->sp = NULL;
	} else if (b != NULL) {
		const size_t nc = f->ncarry, have = nc + got;
		unsigned char *data = b + head - (nc < head ? nc : head);
		const unsigned char *t = NULL;
		/* (at most 2 ranges: a slot's, a device's) */
		if (bad < 0 && have <= 2 * f->range) {
			if (nc > head)
				memmove(b + nc, b + head, got);
			if (nc > 0)
				memcpy(data, f->carry + f->pad, nc);
			t = memrchr(data, opt->eol, have);
			if (t == NULL && have <= f->range) {
				/* No record ends in it, yet none is longer
				 * than a range (a small last frame, bgzip's
				 * empty last block): all of it goes on */
				free(f->carry);
				f->carry = span_copy(f, data, have);
				f->ncarry = have;
				goto cut;
			}
			if (t == NULL)
				data += nc;	/* (the carry is f's still) */
		} else
			data = b + head;
		if (t == NULL) {
			/* Not decoded whole, or its last record goes on
			 * past it: the stream decoder takes the rest, after
			 * what the carry and this span decoded. */
			span_give_up(f, data, got, sj->sp, bad >= 0 ? bad :
			    INT_MAX);
			sj->sp = NULL;
		} else {
			const size_t len = (size_t)(t - data) + 1;
			free(f->carry);
			f->carry = span_copy(f, t + 1, have - len);
			f->ncarry = have - len;
			rj->data = data;
			rj->len = len;
			rj->mem = b;
			b = NULL;
			f->zoff += len;
			if (__atomic_load_n(&S.dev_state, __ATOMIC_RELAXED) ==
			    0 && search_needs_scan() && stream_pays(data, len,
			    f->zoff))
				devices_start();
		}
	}
cut:
	f->zat++;
	pthread_cond_broadcast(&f->cv);
	pthread_mutex_unlock(&f->mu);
	if (b != NULL)
		stream_buf_put(f, b);
	if (last && !rj->tail && rj->len > 0) {
		/* The carry, last: in a buffer of the file's (the range's
		 * goes back to its spares); no job changes it now. */
		rj->data = stream_buf_get(f);
		memcpy(rj->data, f->carry + f->pad, rj->len);
	}
	dzs_free(sj->sp);
	free(sj);
	range_job(rj, worker);
}

/* Submits the spanned input split (zin.c; fd its input, zfd -1 or the
 * file to close) as above.  Returns 0. */
int
submit_spans(int fd, const char *name, int show_name, struct dzsplit *split,
    int zfd)
{
	struct bigfile *f = stream_new(fd, name, show_name, zfd);
	struct spanjob *sj;
	struct dzspan *sp;
	int idx = 0, end = 0;

	f->split = split;
	dzs_pace(split, stream_unneeded, f);
	f->bufsz = span_head(f) + 2 * f->range;
	f->tsize = -1;
	for (;;) {
		/* -q ended the run, -l or -L the file, or the stream decoder
		 * takes the rest: nothing more is read here */
		pthread_mutex_lock(&f->mu);
		const int stop = f->fs.done || f->ztaken;
		pthread_mutex_unlock(&f->mu);
		const double t0 = util_now();
		if (stop || pool_quit() || (end = dzs_next(split, &sp)) != 1)
			break;
		const double t1 = util_now();
		sj = xmalloc(sizeof(*sj));
		*sj = (struct spanjob){ f, idx++, sp, 0, gate_ticket() };
		pthread_mutex_lock(&f->mu);
		/* Bounded memory: at most two spans per worker ahead (refs
		 * counts this reader too). */
		while (f->refs > 2 * pool_workers())
			pthread_cond_wait(&f->cv, &f->mu);
		f->refs++;
		f->sp_split += t1 - t0;
		f->sp_room += util_now() - t1;
		pthread_mutex_unlock(&f->mu);
		pool_submit(span_job, sj);
	}
	sj = xmalloc(sizeof(*sj));
	*sj = (struct spanjob){ f, idx, NULL, end, gate_ticket() };
	pthread_mutex_lock(&f->mu);
	f->refs++;
	f->nranges = idx + 1;
	pthread_mutex_unlock(&f->mu);
	pool_submit(span_job, sj);
	bigfile_unref(f);
	return 0;
}
