/*
 * records.c: sequence files read as records.  A FASTA record is a '>'
 * header and a sequence over any number of lines; a FASTQ record four
 * lines (header, sequence, '+', quality of the sequence's length).  The
 * sequence alone is searched, its line breaks (and CRs) left out, so a
 * match may span them but never two records; positions are sequence
 * coordinates.  With --dna (records found by content) and with --hits
 * (then lines of text are records too, named by their line numbers).
 *
 * The walk's thread reads and parses an input and packs the sequences into
 * batches of about BATCH_SEQ bytes, each a pool job: a sequence longer
 * than PIECE bytes is cut into pieces that overlap by twice
 * sites_overlap(), so a long chromosome is spread over the workers and
 * held in bounded memory (the reader stays a few batches ahead of the
 * printing: submit).  A regular FASTA file (no record output) is read
 * instead in spans side by side, each a pool job that parses its span
 * into one batch (span_job: the parse's state passes from span to span).
 * A job scans its batch with the host engines (hm_scan: the planner, the
 * filters, the pattern-parallel engine) or hands it to a device's slot
 * (batch_place: as the planner places a large file's ranges; the slot's
 * thread finishes it), finds the sites of
 * each piece's own part (sites.c), and puts the batch on its input's ready
 * list; the job that finds the next batch in order there prints it (what a
 * record continued from the batch before found, -m's count: only order
 * knows) and the ready ones after it: the records selected, whole; or
 * their sites, a row each (--hits: TSV, BED or JSON Lines, a record's
 * rows once it is complete); or -c, -l, -L as grep.  Text records
 * (--delimiter) go the same way, their pieces ended by NUL so that a
 * newline is text.
 *
 * Record output needs a record's text (its raw bytes, header and line
 * breaks and all) until the last of its batches is scanned: whether it is
 * printed is known only then.  A record's first SPILL bytes are kept in
 * memory (in its batches, then in its input's carry); past that the text
 * is spooled out of memory (struct spool): a regular file read as it is
 * (not decompressed) keeps only the record's byte range and reads it again
 * when printing the record; any other input (a pipe, --decompress) writes
 * the text to a temporary file of the record's own, read back when
 * printing it.  The printing goes through the pool in pieces of SPOOL_IO
 * bytes, so a chromosome printed whole is never in memory whole.
 *
 * The patterns are those given and, with --dna, their reverse
 * complements: ps->pat[x] is pattern x % npat on strand x / npat.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <emmintrin.h>
#endif

#include "decomp.h"
#include "devq.h"
#include "input.h"
#include "pool.h"
#include "records.h"
#include "search_int.h"
#include "zin.h"
#include "../device/plan.h"
#include "../device/scan.h"
#include "../engines/hostmatch.h"
#include "../engines/refine.h"
#include "../engines/sites.h"
#include "../base/util.h"

#define BATCH_SEQ_DEF	((size_t)4 << 20)	/* sequence bytes a job */
#define PIECE_DEF	((size_t)1 << 20)	/* a long sequence's pieces */
#define READ_BUF	((size_t)1 << 20)	/* bytes read at once */
#define NAME_MAX_LEN	((size_t)1 << 20)	/* a header line at most */
#define SPILL_DEF	((size_t)4 << 20)	/* a record's text in memory */
#define SPOOL_IO	((size_t)256 << 10)	/* spool writes and reads */

static struct rec_conf conf;
static int on;			/* rec_init: records may be searched */
static size_t pad;		/* scan_pad: bytes before a batch's text */
static size_t ov;		/* sites_overlap */
/* What ends a piece in a batch: a newline, which sequences and lines never
 * hold; NUL for text records (--delimiter), whose newlines are text. */
static unsigned char term = '\n';
/* Sequence bytes of a batch and of a piece; AGREP_GPU_REC_BATCH and
 * AGREP_GPU_REC_PIECE (tests: many batches and pieces in small inputs). */
static size_t BATCH_SEQ = BATCH_SEQ_DEF, PIECE = PIECE_DEF;
/* A record's text kept in memory, the rest spooled (record output);
 * AGREP_GPU_REC_SPILL (tests: spooled records in small inputs). */
static size_t SPILL = SPILL_DEF;

/*
 * The text of a record past its first SPILL bytes (record output), out of
 * memory: bytes [off, off + len) of fd, which is either the input itself (a
 * regular file, not decompressed: rfile's fd) or a temporary file of the
 * record's own (tmp set), written through buf.
 */
struct spool {
	int		 fd;
	int		 tmp;		/* fd is a temporary file, ours */
	uint64_t	 off, len;
	unsigned char	*buf;		/* tmp: bytes not written yet */
	size_t		 blen;
	int		 err;		/* errno: a write failed */
	uint64_t	 recno;		/* the record's number (messages) */
	const char	*what;		/* "text" or "rows" (messages) */
};

/* One input's state, handed from batch to batch in order. */
struct rfile {
	pthread_mutex_t	 mu;
	pthread_cond_t	 printed;	/* a batch was printed */
	unsigned	 inflight;	/* batches submitted, not printed */
	uint64_t	 turn;		/* the batch whose turn it is */
	char		*name;
	int		 show_name;
	int		 cont_hit;	/* the record continued has a hit */
	int		 early;		/* a record may be selected by its
					 * first hit (-q, -l, -L): not FASTQ,
					 * whose record may still turn out
					 * malformed at its end */
	unsigned char	*carry;		/* and its text so far (record
					 * output), the part not spooled */
	size_t		 carrylen, carrycap;
	int		 fd;		/* the input again, for spools of its
					 * byte ranges (or -1) */
	int		 notmp;		/* no temporary file could be made:
					 * records are kept in memory whole */
	struct jbuf	 rows;		/* --hits: the rows of the record
					 * continued, held until it ends */
	struct spool	*rowsp;		/* and those before them, spooled */
	int		 done;		/* nothing more to print (atomic) */
	int		 header;	/* --hits: the header line is out */
	int		 dev;		/* the devices scan its batches */
	struct rbatch	*ready;		/* scanned, waiting for their turn */
	int		 draining;	/* a job prints the ready ones */
	struct fstate	 fs;		/* -c, -l, -L: nsel */
};

struct rpiece {
	size_t		 off, len;	/* in the batch's text */
	size_t		 own0, own1;	/* its own part: sites ending there */
	size_t		 rec;		/* index in the batch's records */
	uint64_t	 seqoff;	/* sequence coordinate of its byte 0 */
};

struct rrec {
	size_t		 name, namelen;	/* in the batch's names */
	size_t		 raw, rawlen;	/* its text (record output) */
	int		 cont;		/* begun in an earlier batch */
	int		 ends;		/* ends in this batch */
	int		 hit;		/* scan: a match ends in its own part */
	int		 nl;		/* its text ends the input without a
					 * newline: one is printed after it */
	uint64_t	 recno;		/* its number in the input */
	struct spool	*sp;		/* where it ends: the rest of its text,
					 * after raw[raw, raw + rawlen) */
};

struct rbatch {
	struct rfile	*f;
	uint64_t	 seqno;
	int		 last;		/* the input's last batch */
	unsigned char	*text;		/* pad bytes, then the pieces, each
					 * ended by a newline */
	size_t		 len, cap;
	struct rpiece	*pc;
	size_t		 npc, pccap;
	struct rrec	*rec;
	size_t		 nrec, reccap;
	char		*names;
	size_t		 nameslen, namescap;
	unsigned char	*raw;
	size_t		 rawlen, rawcap;
	char		*err;		/* a fault after its records */
	struct sitelist	*sl;		/* --hits: each piece's sites */
	struct rbatch	*next;		/* in its input's ready list */
};

/* Per worker: the bitmap of a batch. */
static struct {
	uint64_t	*bm;
	size_t		 cap;
} *scratch;
static int nscratch;

static void *
grow(void *p, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return p;
	size_t c = *cap ? *cap : 64;
	while (c < need)
		c *= 2;
	*cap = c;
	return xreallocarray(p, c, size);
}

static int
need_raw(void)
{
	return conf.hits == HITS_NONE && !opt->count && !opt->list &&
	    !opt->list_none && !opt->quiet;
}

/* Sets the records up for the run (again for each case in
 * tests/fuzz/fuzz_records.c: what it allocates is allocated once). */
void
rec_init(const struct patset *ps, const struct rec_conf *c)
{
	conf = *c;
	on = c->hits != HITS_NONE || c->kind != REC_LINES;
	pool_once_reset();	/* (the hit table's header: hits_header) */
	term = c->kind == REC_DELIM ? '\0' : '\n';
	if (on)
		rf_init(ps, RF_ANY, term);	/* (sites' starts, CIGARs) */
	pad = scan_pad(ps);
	ov = sites_overlap(ps);
	BATCH_SEQ = BATCH_SEQ_DEF;
	PIECE = PIECE_DEF;
	SPILL = SPILL_DEF;
	const char *e = getenv("AGREP_GPU_REC_BATCH");
	if (e != NULL && atol(e) > 0)
		BATCH_SEQ = (size_t)atol(e);
	if ((e = getenv("AGREP_GPU_REC_PIECE")) != NULL && atol(e) > 0)
		PIECE = (size_t)atol(e);
	if ((e = getenv("AGREP_GPU_REC_SPILL")) != NULL && atol(e) > 0)
		SPILL = (size_t)atol(e);
	if (PIECE < 2 * ov + 1)
		PIECE = 2 * ov + 1;
	if (ps->whole)		/* (an expression's record is never cut) */
		PIECE = SIZE_MAX;
	if (scratch == NULL) {
		nscratch = pool_workers();
		scratch = xcalloc((size_t)nscratch, sizeof(*scratch));
	}
}

static struct rbatch *
batch_new(struct rfile *f, uint64_t seqno)
{
	struct rbatch *b = xcalloc(1, sizeof(*b));

	b->f = f;
	b->seqno = seqno;
	b->text = grow(NULL, &b->cap, pad + 64, 1);
	memset(b->text, term, pad);
	b->len = pad;
	return b;
}

/* ---- spools ---- */

/* A temporary file, unlinked: in $TMPDIR, else /tmp.  -1 (errno) when none
 * can be made. */
static int
tmp_open(void)
{
	const char *d = getenv("TMPDIR");
	int fd;

	if (d == NULL || *d == '\0')
		d = "/tmp";
#ifdef O_TMPFILE
	if ((fd = open(d, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600)) != -1)
		return fd;
#endif
	char *p = xmalloc(strlen(d) + 32);
	sprintf(p, "%s/agrep-gpu.XXXXXX", d);
	if ((fd = mkostemp(p, O_CLOEXEC)) != -1)
		(void)unlink(p);
	free(p);
	return fd;
}

/* Writes the spool's buffer and s[0, n) to its temporary file. */
static void
spool_write(struct spool *sp, const unsigned char *s, size_t n)
{
	struct iovec v[2] = {
		{ sp->buf, sp->blen },
		{ (void *)(uintptr_t)s, n },
	};
	int i = 0;

	sp->blen = 0;
	while (!sp->err && i < 2) {
		if (v[i].iov_len == 0) {
			i++;
			continue;
		}
		ssize_t w = writev(sp->fd, v + i, 2 - i);
		if (w == -1 && errno == EINTR)
			continue;
		if (w <= 0) {
			sp->err = w == 0 ? ENOSPC : errno;
			break;
		}
		for (size_t k = (size_t)w; k > 0 && i < 2; ) {
			size_t t = k < v[i].iov_len ? k : v[i].iov_len;
			v[i].iov_base = (char *)v[i].iov_base + t;
			v[i].iov_len -= t;
			k -= t;
			if (v[i].iov_len == 0)
				i++;
		}
	}
}

/* The record's text goes on with s[0, n). */
static void
spool_put(struct spool *sp, const unsigned char *s, size_t n)
{
	sp->len += n;
	if (!sp->tmp || sp->err)
		return;
	if (sp->blen + n <= SPOOL_IO) {
		memcpy(sp->buf + sp->blen, s, n);
		sp->blen += n;
		return;
	}
	spool_write(sp, s, n);
}

/* The record's text is all there: the buffer written, and freed. */
static void
spool_seal(struct spool *sp)
{
	if (sp->tmp && sp->blen > 0)
		spool_write(sp, NULL, 0);
	free(sp->buf);
	sp->buf = NULL;
}

static void
spool_free(struct spool *sp)
{
	if (sp == NULL)
		return;
	if (sp->tmp && sp->fd != -1)
		close(sp->fd);
	free(sp->buf);
	free(sp);
}

/* Prints the spooled text of a record of f, through the pool in pieces.
 * Returns -1 after a message when it cannot be read (whatever was read is
 * printed). */
static int
spool_print(struct rfile *f, const struct spool *sp)
{
	const char *why = NULL;
	unsigned char *buf;
	uint64_t at = sp->off, end = sp->off + sp->len;

	if (sp->err) {
		if (!opt->silent)
			warnx_("%s: record %llu: cannot keep its %s in a "
			    "temporary file: %s", f->name,
			    (unsigned long long)sp->recno, sp->what,
			    strerror(sp->err));
		__atomic_store_n(&S.job_failed, 1, __ATOMIC_RELAXED);
		return -1;
	}
	buf = xmalloc(sp->len < SPOOL_IO ? (size_t)sp->len + 1 : SPOOL_IO);
	while (at < end && !pool_quit()) {
		size_t want = end - at < SPOOL_IO ? (size_t)(end - at) :
		    SPOOL_IO;
		ssize_t n = pread(sp->fd, buf, want, (off_t)at);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0) {
			why = n == 0 ? "the file was cut short while read" :
			    strerror(errno);
			break;
		}
		pool_emit(buf, (size_t)n);
		at += (uint64_t)n;
	}
	free(buf);
	if (why == NULL)
		return 0;
	if (!opt->silent)
		warnx_("%s: record %llu: cannot read its %s again: %s",
		    f->name, (unsigned long long)sp->recno, sp->what, why);
	__atomic_store_n(&S.job_failed, 1, __ATOMIC_RELAXED);
	return -1;
}

/* --hits: the rows held for the record continued (f->rows) go to its
 * temporary file past SPOOL_IO bytes (a chromosome may have many). */
static void
rows_hold(struct rfile *f, uint64_t recno)
{
	if (f->rows.len < SPOOL_IO || f->notmp)
		return;
	if (f->rowsp == NULL) {
		int fd = tmp_open();
		if (fd == -1) {
			f->notmp = 1;	/* (then held in memory) */
			return;
		}
		f->rowsp = xcalloc(1, sizeof(*f->rowsp));
		f->rowsp->fd = fd;
		f->rowsp->tmp = 1;
		f->rowsp->what = "rows";
		f->rowsp->recno = recno;
		f->rowsp->buf = xmalloc(SPOOL_IO);
	}
	spool_put(f->rowsp, (const unsigned char *)f->rows.p, f->rows.len);
	f->rows.len = 0;
}

/* --hits: the record continued is complete: its rows held go out into o
 * (those spooled first, through the pool). */
static void
rows_out(struct rfile *f, struct jbuf *o)
{
	if (f->rowsp != NULL) {
		if (o->len > 0)
			pool_emit(o->p, o->len);
		o->len = 0;
		spool_seal(f->rowsp);
		(void)spool_print(f, f->rowsp);
		spool_free(f->rowsp);
		f->rowsp = NULL;
	}
	if (f->rows.len > 0)
		json_bytes(o, f->rows.p, f->rows.len);
	f->rows.len = 0;
}

static void
batch_free(struct rbatch *b)
{
	for (size_t r = 0; r < b->nrec; r++)
		spool_free(b->rec[r].sp);
	free(b->text);
	free(b->pc);
	free(b->rec);
	free(b->names);
	free(b->raw);
	free(b->err);
	free(b);
}

/* ---- printing ---- */

/* The hit table is written with json.c's buffer and writers (its JSON
 * strings escaped as --json's). */
static void
oputs(struct jbuf *o, const char *s)
{
	json_bytes(o, s, strlen(s));
}

/* The name of pattern x of the set and its strand. */
static const char *
pat_name(size_t x, char *strand)
{
	size_t block = x / conf.npat;

	*strand = (block == 1 || conf.minus) ? '-' : '+';
	return conf.names[x % conf.npat];
}

/* The TSV table's header line: once in the whole output, before the
 * first row (of whichever input has one first in the output's order). */
static void
hits_header(struct rfile *f, struct jbuf *o)
{
	static const char h[] = "pat_id\ttext_id\tcost\tstrand\tstart\tend\t"
	    "match_region\tcigar\n";
	char buf[sizeof(h) + 5];

	if (f->header || conf.hits != HITS_TSV)
		return;
	f->header = 1;
	/* (what o holds goes out first) */
	if (o->len > 0)
		pool_emit(o->p, o->len);
	o->len = 0;
	snprintf(buf, sizeof(buf), "%s%s", f->show_name ? "file\t" : "", h);
	pool_emit_once(buf, strlen(buf));
}

/* One row of the hit table: site s of piece p of batch b. */
static void
hits_row(struct rbatch *b, const struct rpiece *p, const struct site *s,
    struct jbuf *o)
{
	const struct rrec *r = &b->rec[p->rec];
	const unsigned char *t = b->text + p->off;
	const char *name = b->names + r->name;
	char strand;
	const char *pn = pat_name(s->pat, &strand);
	unsigned long long start = p->seqoff + s->start, end = p->seqoff +
	    s->end;
	char *cigar;

	if (conf.hits == HITS_BED) {
		json_bytes(o, name, r->namelen);
		json_bytes(o, "\t", 1);
		json_num(o, start);
		json_bytes(o, "\t", 1);
		json_num(o, end);
		json_bytes(o, "\t", 1);
		oputs(o, pn);
		json_bytes(o, "\t", 1);
		json_num(o, (uintmax_t)s->cost);
		json_bytes(o, "\t", 1);
		json_bytes(o, &strand, 1);
		json_bytes(o, "\n", 1);
		return;
	}
	cigar = rf_cigar(&pats->pat[s->pat], t + s->start, s->end - s->start);
	if (conf.hits == HITS_JSON) {
		oputs(o, "{\"type\":\"hit\",");
		if (b->f->show_name) {
			oputs(o, "\"file\":");
			json_str(o, (const unsigned char *)b->f->name,
			    strlen(b->f->name));
			json_bytes(o, ",", 1);
		}
		oputs(o, "\"pat_id\":");
		json_str(o, (const unsigned char *)pn, strlen(pn));
		oputs(o, ",\"text_id\":");
		json_str(o, (const unsigned char *)name, r->namelen);
		oputs(o, ",\"cost\":");
		json_num(o, (uintmax_t)s->cost);
		oputs(o, ",\"strand\":\"");
		json_bytes(o, &strand, 1);
		oputs(o, "\",\"start\":");
		json_num(o, start);
		oputs(o, ",\"end\":");
		json_num(o, end);
		oputs(o, ",\"match_region\":");
		json_str(o, t + s->start, s->end - s->start);
		oputs(o, ",\"cigar\":");
		json_str(o, (const unsigned char *)cigar, strlen(cigar));
		oputs(o, "}\n");
		free(cigar);
		return;
	}
	if (b->f->show_name) {
		oputs(o, b->f->name);
		json_bytes(o, "\t", 1);
	}
	oputs(o, pn);
	json_bytes(o, "\t", 1);
	json_bytes(o, name, r->namelen);
	json_bytes(o, "\t", 1);
	json_num(o, (uintmax_t)s->cost);
	json_bytes(o, "\t", 1);
	json_bytes(o, &strand, 1);
	json_bytes(o, "\t", 1);
	json_num(o, start);
	json_bytes(o, "\t", 1);
	json_num(o, end);
	json_bytes(o, "\t", 1);
	json_bytes(o, t + s->start, s->end - s->start);
	json_bytes(o, "\t", 1);
	oputs(o, cigar);
	json_bytes(o, "\n", 1);
	free(cigar);
}

/* ---- the job ---- */

/* The record r is selected (or, -v, not): counts it; -q, -l, -m. */
static int
select_rec(struct rfile *f)
{
	__atomic_store_n(&S.matched, 1, __ATOMIC_RELAXED);
	f->fs.nsel++;
	if (opt->quiet) {
		out_quit_now();
		__atomic_store_n(&f->done, 1, __ATOMIC_RELAXED);
		return 0;
	}
	if (opt->list || opt->list_none || (conf.hits == HITS_NONE &&
	    opt->max_count >= 0 && f->fs.nsel >= (uintmax_t)opt->max_count))
		__atomic_store_n(&f->done, 1, __ATOMIC_RELAXED);
	return 1;
}

static void batch_print(struct rbatch *);

/*
 * The rest of a batch's job once bm holds its hits (NULL: not scanned):
 * finds its sites, then hands it to its input's ready list.  The job that
 * finds the next batch in order there prints it, and the ones after it
 * that are ready, into its own output (the pool writes every job's output
 * in order, so theirs comes next); a job never waits for the batch before
 * it.
 */
static void
batch_done(struct rbatch *b, const uint64_t *bm)
{
	struct rfile *f = b->f;
	struct sitelist *sl = NULL;

	if (bm != NULL && conf.hits != HITS_NONE)
		sl = xcalloc(b->npc ? b->npc : 1, sizeof(*sl));
	for (size_t i = 0; bm != NULL && i < b->npc; i++) {
		struct rpiece *p = &b->pc[i];
		size_t o0 = p->off - pad;
		if (sl != NULL)		/* (a mark near it will do) */
			sites_find(pats, b->text + p->off, p->len, p->own0,
			    p->own1, term, bm, o0, &sl[i]);
		else if (bits_next(bm, o0 + p->own0, o0 + p->own1) <
		    o0 + p->own1)
			b->rec[p->rec].hit = 1;
	}

	b->sl = sl;
	pthread_mutex_lock(&f->mu);
	b->next = f->ready;
	f->ready = b;
	if (f->draining) {
		pthread_mutex_unlock(&f->mu);
		return;
	}
	f->draining = 1;
	for (;;) {
		struct rbatch **pp = &f->ready;
		while (*pp != NULL && (*pp)->seqno != f->turn)
			pp = &(*pp)->next;
		if (*pp == NULL) {
			f->draining = 0;
			pthread_mutex_unlock(&f->mu);
			return;
		}
		struct rbatch *x = *pp;
		*pp = x->next;
		pthread_mutex_unlock(&f->mu);
		int last = x->last;
		batch_print(x);		/* (frees f after the last) */
		if (last)
			return;
		pthread_mutex_lock(&f->mu);
		f->inflight--;
		pthread_cond_signal(&f->printed);
		f->turn++;
	}
}

/* A device finished a batch's scan (devq.c): its thread finishes the
 * batch, in the batch's place of the output.  A failed device: the host
 * scans it (scan_finish: one warning). */
static void
batch_dev_done(void *arg, struct scanner *s, const uint64_t *bm, int failed)
{
	if (failed)
		bm = scan_finish(s, 0, 0);
	batch_done(arg, bm);
}

/*
 * Where a batch of len bytes goes: NULL for the host, or a device's slot.
 * Devices asked for (or a file over AGREP_GPU_HOST_MAX): the file's, as
 * the planner said for it (f->dev).  In automatic mode, batch by batch as
 * a large file's ranges (range.c: range_place, plan_place): a free slot,
 * or the host where it would finish the batch before the devices' queue;
 * also where the devices opened for the patterns (plan_open_early) and
 * the file alone would not have opened them, and where the planner starts
 * them late (plan_late: the host's first batches ran slower than its
 * probe).
 */
static struct dslot *
batch_place(struct rfile *f, size_t len)
{
	int state;

	if (term != '\n')
		return NULL;
	if (opt->host_max != SIZE_MAX || plan_mode() != PLAN_AUTO)
		return f->dev && devices_wait() > 0 ? devq_take(len, 1) : NULL;
	state = devices_state();
	if (!f->dev && state != 1 && !plan_late())
		return NULL;
	if (plan_place(len, state, state == 1 ? devq_queued() : 0,
	    state == 1 && devq_free(len)) == PLAN_ON_HOST)
		return NULL;
	if (state == 2 && devices_wait() == 0)
		return NULL;
	return devq_take(len, 1);
}

/*
 * A batch's job: scans it with the host engines, or hands it to a device
 * (its text copied into a slot; the slot's thread finishes it:
 * batch_dev_done, while this worker goes on), then batch_done.
 */
static void
batch_job(void *arg, int worker)
{
	struct rbatch *b = arg;
	struct rfile *f = b->f;
	const size_t len = b->len - pad;
	int skip = pool_quit() || (conf.hits == HITS_NONE &&
	    __atomic_load_n(&f->done, __ATOMIC_RELAXED));
	struct dslot *ds;

	if (skip || len == 0 || !search_needs_scan()) {
		batch_done(b, NULL);
		return;
	}
	if ((ds = batch_place(f, len)) != NULL) {
		struct scanner *sc = devq_scanner(ds);
		struct job *job;
		const double t0 = util_now();
		if (sc->cap < len)
			scan_grow(sc, len);
		memcpy(scan_chunk(sc, 0), b->text + pad, len);
		int st = scan_prepare(sc, 0, len, len, 0) > 0 ? 1 : -1;
		if ((job = pool_detach()) == NULL)
			fatalx("a device's batch outside a detachable job");
		devq_post(ds, st, util_now() - t0, len, batch_dev_done, b, job);
		return;
	}
	size_t words = len / 64 + 2;
	if (worker >= nscratch)
		worker = 0;
	scratch[worker].bm = grow(scratch[worker].bm, &scratch[worker].cap,
	    words, sizeof(uint64_t));
	uint64_t *bm = scratch[worker].bm;
	memset(bm, 0, words * sizeof(*bm));
	const double t0 = util_now();
	hm_scan(pats, b->text, pad, len, term, bm);
	plan_host_done(len, util_now() - t0);	/* (batch_place's rate) */
	batch_done(b, bm);
}

/* Prints batch b, in its turn (what only order knows: a record continued
 * from the batch before, -m's count); frees it, and its input's state
 * after the last batch. */
static void
batch_print(struct rbatch *b)
{
	struct rfile *f = b->f;
	struct sitelist *sl = b->sl;
	struct jbuf o = { NULL, 0, 0 };
	int skip = pool_quit() || f->done;
	for (size_t r = 0, pi = 0, pj; r < b->nrec && !skip; r++, pi = pj) {
		struct rrec *rc = &b->rec[r];
		int before = rc->cont && f->cont_hit, hit = rc->hit || before;
		for (pj = pi; pj < b->npc && b->pc[pj].rec == r; pj++)
			;
		if (conf.hits != HITS_NONE) {
			/* The rows of a record go out when it is complete
			 * (a malformed one is left out, however many batches
			 * it took): until then they are held (rows_hold). */
			size_t nrows = 0;
			for (size_t i = pi; sl != NULL && i < pj; i++)
				nrows += sl[i].n;
			hit = nrows > 0 || before;
			struct jbuf *dst = rc->ends ? &o : &f->rows;
			if (rc->ends && hit) {
				if (!select_rec(f))
					break;
				hits_header(f, &o);
				rows_out(f, &o);
			}
			for (size_t i = pi; i < pj && nrows > 0; i++)
				for (size_t x = 0; x < sl[i].n; x++)
					hits_row(b, &b->pc[i], &sl[i].s[x], dst);
			if (!rc->ends)
				rows_hold(f, rc->recno);
			f->cont_hit = rc->ends ? 0 : hit;
			if (rc->ends && opt->max_count >= 0 &&
			    f->fs.nsel >= (uintmax_t)opt->max_count)
				__atomic_store_n(&f->done, 1, __ATOMIC_RELAXED);
			skip = f->done;
			continue;
		}
		/* (a batch may hold none of a record's text: b->raw may be
		 * NULL, and NULL + 0 is undefined) */
		if (!rc->ends) {
			f->cont_hit = hit;
			/* -q, -l, -L: a record across batches is selected by
			 * its first hit, not at its end (a 40 MB chromosome,
			 * -q: 3.65 s, the time of -c); a FASTA record with a
			 * hit cannot turn out malformed later, a FASTQ one
			 * can (fuzz_records found it) */
			if (hit && f->early && !opt->invert && (opt->quiet ||
			    opt->list || opt->list_none)) {
				if (!select_rec(f))
					break;
				skip = f->done;
				continue;
			}
			if (need_raw() && rc->rawlen > 0) {
				f->carry = grow(f->carry, &f->carrycap,
				    f->carrylen + rc->rawlen, 1);
				memcpy(f->carry + f->carrylen, b->raw + rc->raw,
				    rc->rawlen);
				f->carrylen += rc->rawlen;
			}
			continue;
		}
		if (hit != opt->invert) {
			if (!select_rec(f))
				break;
			if (need_raw() && rc->cont && f->carrylen > 0)
				json_bytes(&o, f->carry, f->carrylen);
			if (need_raw() && rc->rawlen > 0)
				json_bytes(&o, b->raw + rc->raw, rc->rawlen);
			if (need_raw() && rc->sp != NULL) {
				/* (what comes before it goes out first) */
				if (o.len > 0)
					pool_emit(o.p, o.len);
				o.len = 0;
				(void)spool_print(f, rc->sp);
			}
			if (need_raw() && rc->nl)
				json_bytes(&o, "\n", 1);
		}
		spool_free(rc->sp);
		rc->sp = NULL;
		f->carrylen = 0;
		f->cont_hit = 0;
		skip = f->done;
	}
	if (o.len > 0)
		pool_emit(o.p, o.len);
	free(o.p);
	/* A fault after the records where -l, -L or -m stopped the input is
	 * not reported: as grep, which stops reading there, the search never
	 * got that far (whether the reader did depends on the batches and
	 * the threads). */
	if (b->err != NULL && !f->done) {
		if (!opt->silent)
			warnx_("%s", b->err);
		__atomic_store_n(&S.job_failed, 1, __ATOMIC_RELAXED);
	}
	if (b->last && conf.hits == HITS_NONE)
		out_file_end(&f->fs);
	for (size_t i = 0; sl != NULL && i < b->npc; i++)
		sites_free(&sl[i]);
	free(sl);

	if (b->last) {
		pthread_mutex_destroy(&f->mu);
		pthread_cond_destroy(&f->printed);
		if (f->fd != -1)
			close(f->fd);
		spool_free(f->rowsp);
		free(f->rows.p);
		free(f->carry);
		free(f->name);
		free(f);
	}
	batch_free(b);
}

/* ---- reading and parsing ---- */

struct rd {
	int		 fd;
	struct dz	*z;
	unsigned char	*buf;
	size_t		 pos, len, cap;
	uint64_t	 base;		/* the input's offset of buf[0] */
	int		 eof, err;
};

/* Reads more into r->buf (keeping buf[pos, len)).  Returns the bytes read,
 * 0 at the end, -1 on an error (errno). */
static ssize_t
rd_more(struct rd *r)
{
	ssize_t n;

	if (r->eof)
		return 0;
	if (r->pos > 0) {
		memmove(r->buf, r->buf + r->pos, r->len - r->pos);
		r->base += r->pos;
		r->len -= r->pos;
		r->pos = 0;
	}
	r->buf = grow(r->buf, &r->cap, r->len + READ_BUF, 1);
	if (r->z != NULL) {
		n = dz_fill(r->z, r->buf + r->len, r->cap - r->len, &r->eof, 1);
	} else {
		do
			n = read(r->fd, r->buf + r->len, r->cap - r->len);
		while (n == -1 && errno == EINTR);
	}
	if (n < 0) {
		r->err = errno;
		r->eof = 1;
		return -1;
	}
	if (n == 0)
		r->eof = 1;
	r->len += (size_t)n;
	return n;
}

/* The parser's state over one input. */
struct parse {
	struct rd	 rd;
	struct rfile	*f;
	struct rbatch	*b;
	uint64_t	 nbatch;
	int		 kind;
	uint64_t	 recno;		/* records begun */
	uint64_t	 seqlen;	/* of the current record */
	uint64_t	 rawlen;	/* its text so far (record output) */
	struct spool	*sp;		/* and the part spooled, past SPILL */
	int		 in_rec;
	int		 blank_before;	/* --delimiter paragraphs: the last
					 * line was blank */
	char		*err;
	/* A span of a FASTA file (span_job): its one batch is scanned by
	 * the span's own job (worker), never cut; the end of a span but the
	 * last goes on in the next one. */
	int		 span, span_last, worker;
};

/* Starts a record in the batch (cont: continued from the last). */
static void
rec_begin(struct parse *P, const char *name, size_t namelen, int cont)
{
	struct rbatch *b = P->b;

	b->rec = grow(b->rec, &b->reccap, b->nrec + 1, sizeof(*b->rec));
	struct rrec *r = &b->rec[b->nrec++];
	memset(r, 0, sizeof(*r));
	r->cont = cont;
	r->recno = P->recno;
	r->raw = b->rawlen;
	b->names = grow(b->names, &b->namescap, b->nameslen + namelen + 1, 1);
	memcpy(b->names + b->nameslen, name, namelen);
	b->names[b->nameslen + namelen] = '\0';
	r->name = b->nameslen;
	r->namelen = namelen;
	b->nameslen += namelen + 1;
}

/* Opens a piece of the current record (ctx: the bytes before it that it
 * repeats, as its left context). */
static void
piece_begin(struct parse *P, const unsigned char *ctx, size_t n,
    uint64_t seqoff)
{
	struct rbatch *b = P->b;

	b->pc = grow(b->pc, &b->pccap, b->npc + 1, sizeof(*b->pc));
	struct rpiece *p = &b->pc[b->npc++];
	memset(p, 0, sizeof(*p));
	p->off = b->len;
	p->rec = b->nrec - 1;
	p->seqoff = seqoff;
	p->own0 = n > 0 ? ov : 0;
	b->text = grow(b->text, &b->cap, b->len + n + 64, 1);
	if (n > 0)
		memcpy(b->text + b->len, ctx, n);
	b->len += n;
	p->len = n;
}

static void
piece_end(struct parse *P, int at_end)
{
	struct rbatch *b = P->b;
	struct rpiece *p = &b->pc[b->npc - 1];

	p->own1 = at_end ? p->len : p->len - ov;
	b->text = grow(b->text, &b->cap, b->len + 64 + 1, 1);
	b->text[b->len++] = term;
	memset(b->text + b->len, term, 64);	/* (engines read ahead) */
}

/*
 * Hands the batch to the pool.  The reader stays at most INFLIGHT batches
 * ahead of the printing: so many keep the workers busy, and the memory an
 * input holds does not grow with the pool's queue (40 jobs at -j2; a
 * chromosome read from the page cache would fill it).  The batches
 * waited for need only the workers, never this thread.
 */
static void
submit(struct parse *P, int last)
{
	struct rbatch *b = P->b;
	struct rfile *f = P->f;
	const unsigned most = 2 * (unsigned)pool_workers() + 2;

	pthread_mutex_lock(&f->mu);
	/* (a span's job is one of the pool's, which bounds them; one that
	 * waited here for printing could wait for a span after it) */
	while (f->inflight >= most && !P->span)
		pthread_cond_wait(&f->printed, &f->mu);
	f->inflight++;
	pthread_mutex_unlock(&f->mu);
	b->last = last;
	b->err = P->err;
	P->err = NULL;
	P->b = NULL;
	if (P->span)
		batch_job(b, P->worker);
	else
		pool_submit(batch_job, b);
}

static size_t seq_compact(unsigned char *, const unsigned char *, size_t);

/* The current record's sequence goes on with s[0, n) (no CR, no newline;
 * lines: with them, to be left out: fasta_run's). */
static void
seq_put_as(struct parse *P, const unsigned char *s, size_t n, int lines)
{
	while (n > 0) {
		struct rbatch *b = P->b;
		struct rpiece *p = &b->pc[b->npc - 1];
		if (p->len >= PIECE) {
			/* Cut: the next piece repeats the last 2 ov bytes. */
			unsigned char *ctx = xmalloc(2 * ov);
			memcpy(ctx, b->text + p->off + p->len - 2 * ov, 2 * ov);
			uint64_t at = p->seqoff + p->len - 2 * ov;
			piece_end(P, 0);
			if (b->len - pad >= BATCH_SEQ && !P->span) {
				struct rrec *r = &b->rec[b->nrec - 1];
				size_t nlen = r->namelen;
				char *name = xmalloc(nlen + 1);
				memcpy(name, b->names + r->name, nlen);
				r->rawlen = b->rawlen - r->raw;
				submit(P, 0);	/* (b is the job's now) */
				P->b = batch_new(P->f, ++P->nbatch);
				rec_begin(P, name, nlen, 1);
				free(name);
			}
			piece_begin(P, ctx, 2 * ov, at);
			free(ctx);
			continue;
		}
		size_t take = PIECE - p->len < n ? PIECE - p->len : n, put;
		b->text = grow(b->text, &b->cap, b->len + take + 65, 1);
		if (lines)	/* (no more than take bytes come of take) */
			put = seq_compact(b->text + b->len, s, take);
		else
			memcpy(b->text + b->len, s, put = take);
		b->len += put;
		p->len += put;
		P->seqlen += put;
		s += take;
		n -= take;
	}
}

static void
seq_put(struct parse *P, const unsigned char *s, size_t n)
{
	seq_put_as(P, s, n, 0);
}


/* The current record's text passes SPILL bytes with s (a line in the
 * read buffer): a spool takes its part in this batch, and the rest as it
 * comes (its parts in the batches before stay in the carry).  Where no
 * temporary file can be made, records stay in memory (as a whole). */
static void
spill(struct parse *P, const unsigned char *s)
{
	struct rbatch *b = P->b;
	struct rrec *r = &b->rec[b->nrec - 1];
	size_t part = b->rawlen - r->raw;
	int fd = P->f->fd;

	if (fd == -1 && (P->f->notmp || (fd = tmp_open()) == -1)) {
		P->f->notmp = 1;
		return;
	}
	struct spool *sp = xcalloc(1, sizeof(*sp));
	sp->recno = P->recno;
	sp->what = "text";
	sp->fd = fd;
	if (fd == P->f->fd) {
		/* The input's bytes are contiguous: this part ends at s. */
		sp->off = P->rd.base + (uint64_t)(s - P->rd.buf) - part;
		sp->len = part;
	} else {
		sp->tmp = 1;
		sp->buf = xmalloc(SPOOL_IO);
		if (part > 0)	/* (else b->raw may be NULL) */
			spool_put(sp, b->raw + r->raw, part);
	}
	b->rawlen = r->raw;
	P->sp = sp;
}

/* Appends s[0, n) to the current record's text (record output): the
 * batch's, or past SPILL bytes the record's spool. */
static void
raw_put(struct parse *P, const unsigned char *s, size_t n)
{
	struct rbatch *b = P->b;

	if (!need_raw())
		return;
	if (P->sp == NULL && P->rawlen + n > SPILL && !P->f->notmp)
		spill(P, s);
	P->rawlen += n;
	if (P->sp != NULL) {
		spool_put(P->sp, s, n);
		return;
	}
	b->raw = grow(b->raw, &b->rawcap, b->rawlen + n, 1);
	memcpy(b->raw + b->rawlen, s, n);
	b->rawlen += n;
}

/* Adds the sequence bytes of s[0, n) (CRs left out). */
static void
seq_bytes(struct parse *P, const unsigned char *s, size_t n)
{
	const unsigned char *cr;

	while (n > 0 && (cr = memchr(s, '\r', n)) != NULL) {
		seq_put(P, s, (size_t)(cr - s));
		n -= (size_t)(cr - s) + 1;
		s = cr + 1;
	}
	seq_put(P, s, n);
}

/*
 * Copies s[0, n) to d without its newlines and CRs; returns the bytes
 * written.  d has room for n + 64 bytes.  On x86-64, 16 bytes at a time
 * (SSE2, every x86-64 has it): a block without either is stored whole;
 * one with them is stored once a run between them, each store 16 bytes
 * wide and the next one starting where the run ends.
 */
static size_t
seq_compact(unsigned char *d, const unsigned char *s, size_t n)
{
	size_t i = 0, o = 0;

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
	const __m128i nl = _mm_set1_epi8('\n'), cr = _mm_set1_epi8('\r');

	for (; i + 32 <= n; i += 16) {	/* (a run's load reads on 16) */
		const __m128i v = _mm_loadu_si128((const __m128i *)(s + i));
		unsigned m = (unsigned)_mm_movemask_epi8(_mm_or_si128(
		    _mm_cmpeq_epi8(v, nl), _mm_cmpeq_epi8(v, cr)));
		unsigned from = 0;

		while (m != 0) {
			const unsigned j = (unsigned)__builtin_ctz(m);
			_mm_storeu_si128((__m128i *)(d + o), _mm_loadu_si128(
			    (const __m128i *)(s + i + from)));
			o += j - from;
			from = j + 1;
			m &= m - 1;
		}
		_mm_storeu_si128((__m128i *)(d + o), _mm_loadu_si128(
		    (const __m128i *)(s + i + from)));
		o += 16 - from;
	}
#endif
	for (; i < n; i++) {
		d[o] = s[i];
		o += s[i] != '\n' && s[i] != '\r';
	}
	return o;
}

/*
 * FASTA, inside a record at a line's start: takes at once the whole lines
 * the read buffer holds, up to the line that holds a '>' (a header, or a
 * byte that the line-by-line parse must see) or the last newline; the
 * same as parse's line by line (raw_put of the lines, seq_bytes of each
 * without its newline), one call for a megabyte instead of one a line.
 * Returns 0 when no whole line was taken.
 */
static int
fasta_run(struct parse *P)
{
	struct rd *r = &P->rd;
	const unsigned char *s = r->buf + r->pos, *x;
	size_t n = r->len - r->pos;

	if (n == 0 || s[0] == '>' ||
	    (x = memrchr(s, '\n', n)) == NULL)
		return 0;
	n = (size_t)(x - s) + 1;
	if ((x = memchr(s, '>', n)) != NULL) {
		x = memrchr(s, '\n', (size_t)(x - s));
		if (x == NULL)
			return 0;
		n = (size_t)(x - s) + 1;
	}
	raw_put(P, s, n);
	seq_put_as(P, s, n, 1);
	r->pos += n;
	return 1;
}

/* Ends the current record. */
static void
rec_end(struct parse *P)
{
	struct rbatch *b = P->b;
	struct rrec *r = &b->rec[b->nrec - 1];

	piece_end(P, 1);
	r->ends = 1;
	r->rawlen = b->rawlen - r->raw;
	if (P->sp != NULL)
		spool_seal(P->sp);
	r->sp = P->sp;
	P->sp = NULL;
	P->in_rec = 0;
	if (!P->span && (b->len - pad >= BATCH_SEQ || b->rawlen >= BATCH_SEQ ||
	    b->nrec >= 65536)) {
		submit(P, 0);
		P->b = batch_new(P->f, ++P->nbatch);
	}
}

static void
fault(struct parse *P, const char *what)
{
	char *m = xmalloc(strlen(P->f->name) + strlen(what) + 64);

	sprintf(m, "%s: record %llu: %s", P->f->name,
	    (unsigned long long)P->recno, what);
	P->err = m;
}

/* Starts a record named by the first word of the header h[0, n). */
static void
rec_start(struct parse *P, const unsigned char *h, size_t n)
{
	size_t w = 0;

	while (w < n && h[w] != ' ' && h[w] != '\t' && h[w] != '\r')
		w++;
	P->recno++;
	P->seqlen = 0;
	P->rawlen = 0;
	P->in_rec = 1;
	rec_begin(P, (const char *)h, w, 0);
	piece_begin(P, NULL, 0, 0);
}

/*
 * The next line of the input: *line, its length without the newline
 * (and *nl: a newline ended it).  A line longer than the buffer is handed
 * over in parts when part is set (sequence lines), else read whole up to
 * NAME_MAX_LEN.  Returns 1, 0 at the end, -1 on a read error.
 */
static int
next_line(struct parse *P, const unsigned char **line, size_t *n, int *nl,
    int part)
{
	struct rd *r = &P->rd;

	for (;;) {
		size_t have = r->len - r->pos;
		/* (no buffer before the first read: NULL + 0 is undefined) */
		const unsigned char *s = have ? r->buf + r->pos : NULL;
		const unsigned char *e = have ? memchr(s, '\n', have) : NULL;
		if (e != NULL) {
			*line = s;
			*n = (size_t)(e - s);
			*nl = 1;
			r->pos += *n + 1;
			return 1;
		}
		if (r->eof || (part && have >= READ_BUF) ||
		    (!part && have >= NAME_MAX_LEN)) {
			if (have == 0)
				return r->err ? -1 : 0;
			*line = s;
			*n = have;
			*nl = 0;
			r->pos += have;
			return 1;
		}
		if (rd_more(r) < 0 && r->len == r->pos)
			return -1;
	}
}

/* A line l[0, n) with nothing on it (but a CR). */
static int
is_blank(const unsigned char *l, size_t n)
{
	return n == 0 || (n == 1 && l[0] == '\r');
}

/* --delimiter: whether the line l[0, n) starts a record.  "^STR": a line
 * starting with STR; "" or "$$": the first line that is not blank after a
 * blank one (paragraphs: the blank lines end the record before);
 * otherwise a line holding STR. */
static int
delim_at(struct parse *P, const unsigned char *l, size_t n)
{
	const char *d = conf.delim;
	size_t dl = strlen(d);
	int blank = is_blank(l, n);

	if (!P->in_rec) {
		P->blank_before = blank;
		return 1;
	}
	if (dl == 0 || strcmp(d, "$$") == 0) {
		int start = P->blank_before && !blank;
		P->blank_before = blank;
		return start;
	}
	if (d[0] == '^')
		return n >= dl - 1 && memcmp(l, d + 1, dl - 1) == 0;
	return memmem(l, n, d, dl) != NULL;
}

/* The ends of a record of S bytes so far that its pieces up to here own:
 * all but the last ov (which need ov bytes after them). */
static uint64_t
owned_to(uint64_t S)
{
	return S > ov ? S - ov : 0;
}

/* A span ends inside the current record (P->seqlen bytes of it so far):
 * its last piece owns the ends up to owned_to, the next span's first piece
 * (span_start) the rest, as at a cut (seq_put). */
static void
span_cont(struct parse *P)
{
	struct rbatch *b = P->b;
	struct rpiece *p = &b->pc[b->npc - 1];
	struct rrec *r = &b->rec[b->nrec - 1];

	piece_end(P, 1);
	p->own1 = (size_t)(owned_to(P->seqlen) - p->seqoff);
	r->rawlen = b->rawlen - r->raw;
}

/* Parses the whole input into batches. */
static void
parse(struct parse *P)
{
	const unsigned char *l;
	size_t n;
	int nl = 1, rc, midline = 0;	/* (nl: the last line's, at the end) */
	enum { Q_HEAD, Q_SEQ, Q_PLUS, Q_QUAL } q = Q_HEAD;
	uint64_t qual = 0, lineno = 0;

	while (!__atomic_load_n(&P->f->done, __ATOMIC_RELAXED) &&
	    !pool_quit()) {
		if (P->kind == REC_FASTA && P->in_rec && !midline &&
		    fasta_run(P))
			continue;
		int part = P->kind != REC_FASTQ || q == Q_SEQ || q == Q_QUAL;
		if (P->kind == REC_FASTA && !midline)
			part = 0;	/* (a header must come whole) */
		if ((rc = next_line(P, &l, &n, &nl, part || midline)) <= 0)
			break;
		if (P->kind == REC_DELIM) {
			if (!midline && delim_at(P, l, n)) {
				if (P->in_rec)
					rec_end(P);
				char num[32];
				int w = snprintf(num, sizeof(num), "%llu",
				    (unsigned long long)P->recno + 1);
				rec_start(P, (const unsigned char *)num,
				    (size_t)w);
			}
			raw_put(P, l, n + (size_t)nl);
			seq_put(P, l, n);
			if (nl)
				seq_put(P, (const unsigned char *)"\n", 1);
			midline = !nl;
			continue;
		}
		if (P->kind == REC_LINES) {
			if (!midline) {
				char num[32];
				int w = snprintf(num, sizeof(num), "%llu",
				    (unsigned long long)++lineno);
				rec_start(P, (const unsigned char *)num,
				    (size_t)w);
			}
			seq_bytes(P, l, n);
			if (nl)
				rec_end(P);
			midline = !nl;
			continue;
		}
		if (P->kind == REC_FASTA) {
			if (!midline && n > 0 && l[0] == '>') {
				if (P->in_rec)
					rec_end(P);
				/* (a last header without its newline: a record
				 * with no sequence, as any other) */
				if (!nl && !(P->rd.eof && P->rd.pos ==
				    P->rd.len)) {
					P->recno++;	/* (the header's) */
					fault(P, "header line too long");
					goto out;
				}
				rec_start(P, l + 1, n - 1);
				raw_put(P, l, n + (size_t)nl);
				continue;
			}
			if (!P->in_rec) {
				if (is_blank(l, n))
					continue;
				P->recno = 1;
				fault(P, "sequence before the first '>' "
				    "header");
				goto out;
			}
			raw_put(P, l, n + (size_t)nl);
			seq_bytes(P, l, n);
			midline = !nl;
			continue;
		}
		/* FASTQ */
		switch (q) {
		case Q_HEAD:
			if (is_blank(l, n))
				continue;
			if (l[0] != '@' || !nl) {
				P->recno++;
				fault(P, l[0] != '@' ? "no '@' header line" :
				    P->rd.eof ? "truncated record" :
				    "header line too long");
				goto out;
			}
			rec_start(P, l + 1, n - 1);
			raw_put(P, l, n + 1);
			q = Q_SEQ;
			continue;
		case Q_SEQ:
			raw_put(P, l, n + (size_t)nl);
			seq_bytes(P, l, n);
			if (!nl && P->rd.eof) {
				fault(P, "truncated record");
				goto out;
			}
			if (nl)
				q = Q_PLUS;
			continue;
		case Q_PLUS:
			if (n == 0 || l[0] != '+') {
				fault(P, "no '+' line after the sequence");
				goto out;
			}
			raw_put(P, l, n + (size_t)nl);
			if (!nl) {
				fault(P, "truncated record");
				goto out;
			}
			q = Q_QUAL;
			qual = 0;
			midline = 0;
			continue;
		case Q_QUAL:
			raw_put(P, l, n + (size_t)nl);
			qual += n - (n > 0 && l[n - 1] == '\r' &&
			    (nl || P->rd.pos == P->rd.len));
			if (!nl && !(P->rd.eof && P->rd.pos == P->rd.len)) {
				midline = 1;	/* (the line goes on) */
				continue;
			}
			midline = 0;
			if (qual != P->seqlen) {
				fault(P, "quality and sequence differ in "
				    "length");
				goto out;
			}
			/* (the input's end: as below) */
			P->b->rec[P->b->nrec - 1].nl = !nl;
			rec_end(P);
			q = Q_HEAD;
			continue;
		}
	}
	/* (done is the printers': read atomically, as the loop does) */
	const int done = __atomic_load_n(&P->f->done, __ATOMIC_RELAXED);
	if (rc < 0) {
		char *m = xmalloc(strlen(P->f->name) + 128);
		sprintf(m, "%s: %s", P->f->name, strerror(P->rd.err));
		P->err = m;
	} else if (P->span && !P->span_last) {
		if (P->in_rec)
			span_cont(P);
		submit(P, 0);
		return;
	} else if (P->kind == REC_FASTQ && q != Q_HEAD && P->err == NULL &&
	    !done && !pool_quit())
		fault(P, "truncated record");
	else if (P->in_rec) {
		/* a file without its last newline: the record printed ends
		 * in one, as grep ends the last line (the next file's output
		 * ran on after it); printed, not put in its text, which may
		 * be spooled as the input's own bytes (spill) */
		P->b->rec[P->b->nrec - 1].nl = P->rawlen > 0 && !nl;
		rec_end(P);
	}
out:
	/* A record cut short by a fault is left out. */
	if (P->in_rec && P->b->nrec > 0 && !P->b->rec[P->b->nrec - 1].ends) {
		struct rbatch *b = P->b;
		b->npc -= b->npc > 0 && b->pc[b->npc - 1].rec == b->nrec - 1;
		while (b->npc > 0 && b->pc[b->npc - 1].rec == b->nrec - 1)
			b->npc--;
		b->nrec--;
	}
	spool_free(P->sp);
	P->sp = NULL;
	submit(P, 1);
}

/* The kind of records the bytes h[0, n) start (REC_LINES: none). */
static int
sniff(const unsigned char *h, size_t n)
{
	size_t i = 0;

	while (i < n && (h[i] == '\n' || h[i] == '\r'))
		i++;
	if (i < n && h[i] == '>')
		return REC_FASTA;
	if (i < n && h[i] == '@')
		return REC_FASTQ;
	return REC_LINES;
}

/* A pipe of our own holding what the pipe fd holds now, up to want bytes,
 * which stay in fd for whoever reads it (tee): its read end (*n: the bytes
 * copied, -1 when fd is no pipe), or -1. */
static int
tee_copy(int fd, size_t want, ssize_t *n)
{
	int p[2];

	if (pipe(p) == -1)
		return -1;
	/* (a pipe holds 64 KB unless told: want more, it must hold more) */
	if (want > ((size_t)64 << 10))
		(void)fcntl(p[1], F_SETPIPE_SZ, (int)want);
	do
		*n = tee(fd, p[1], want, 0);
	while (*n == -1 && errno == EINTR);
	close(p[1]);
	return p[0];
}

/* The first bytes in the pipe fd, left there; -1 when fd is no pipe. */
static ssize_t
peek_pipe(int fd, unsigned char *h, size_t want)
{
	ssize_t n;
	int r = tee_copy(fd, want, &n);

	if (r == -1)
		return -1;
	n = n > 0 ? read(r, h, (size_t)n) : n;
	close(r);
	return n;
}

/* The decoded first bytes of the compressed pipe fd, left in it for the
 * search: what the pipe holds now (tee_copy) decoded as far as it goes; a
 * writer slower than that is waited for, a little.  -1 when nothing
 * decodes.  The pipe is grown to PEEK_PIPE first where it may be: a bzip2
 * block (900 KB of text) or an lz4 one decodes to nothing until it is
 * whole, and 64 KB of such a FASTA decoded to nothing (read as lines: a
 * site across a line break lost, where gzip's was found). */
#define PEEK_PIPE	(1 << 20)
static ssize_t
peek_decoded(int fd, unsigned char *h, size_t want)
{
	int cap = fcntl(fd, F_GETPIPE_SZ);

	if (cap > 0 && cap < PEEK_PIPE) {
		const int grown = fcntl(fd, F_SETPIPE_SZ, PEEK_PIPE);
		cap = grown > cap ? grown : cap;
	}
	if (cap <= 0)
		cap = 64 << 10;
	for (int tries = 0; tries < 20; tries++) {
		int eof = 0;
		ssize_t n, got = -1;
		const int r = tee_copy(fd, (size_t)cap, &n);
		if (r == -1)
			return -1;
		unsigned char hd[DZ_SNIFFLEN];
		ssize_t hn = n > 0 ? read(r, hd, sizeof(hd)) : -1;
		enum dz_format f = hn > 0 ? dz_sniff(hd, (size_t)hn) : DZ_NONE;
		struct dz *z = f != DZ_NONE ? dz_open(r, hd, (size_t)hn, f, 1,
		    1) : NULL;
		if (z != NULL) {
			got = dz_fill(z, h, want, &eof, 0);
			dz_close(z, NULL, 0);
		}
		close(r);
		if (got > 0 || n <= 0 || n >= (ssize_t)cap)
			return got;
		usleep(5000);	/* (more may be on its way) */
	}
	return -1;
}

/* The decoded first bytes of the regular file fd (named name). */
static ssize_t
head_of(int fd, const char *name, unsigned char *h, size_t want)
{
	ssize_t n = in_pread(fd, h, want, 0);
	int eof = 0;
	enum dz_format f;

	if (n <= 0 || !opt->decompress ||
	    (f = dz_sniff(h, (size_t)n)) == DZ_NONE)
		return n;
	int fd2 = open(name, O_RDONLY);
	if (fd2 == -1)
		return n;
	/* (no message here: the search's own opening says what fails) */
	struct dz *z = dz_open(fd2, NULL, 0, f, 1, 1);
	if (z != NULL) {
		n = dz_fill(z, h, want, &eof, 0);
		dz_close(z, NULL, 0);
	}
	close(fd2);
	return n;
}

/* ---- a FASTA file read in spans, side by side ---- */

/*
 * A regular FASTA file is cut into spans of SPAN bytes (moved on to line
 * starts), a pool job each, submitted in order by the walk: each job reads
 * its span, sums it up (its headers, the sequence bytes before the first
 * and after the last), takes the parse's state at its start from the span
 * before (a chain: the summing is fast, so the wait is short), hands the
 * state at its end to the next, then parses its span into one batch and
 * scans it, all side by side.  A span whose lines the summary cannot vouch
 * for (a fault, a line longer than a span, a header at the end without its
 * newline) parses the rest of the file line by line from its start, as a
 * stream is parsed, and the spans after it do nothing.  The output is the
 * same as the line by line parse's (tests: AGREP_GPU_REC_SPAN).
 */
#define SPAN_DEF	((size_t)4 << 20)
#define SPAN_HEAD_MAX	((size_t)64 << 10)	/* a longer header: line by line */
static size_t SPAN = SPAN_DEF;

/* The parse's state at a span's start. */
struct rstate {
	int		 in_rec;
	uint64_t	 recno, seqlen;
	char		*name;		/* the current record's */
	size_t		 namelen;
	unsigned char	*ctx;		/* its last min(2 ov, seqlen) bytes */
	size_t		 ctxlen;
};

struct rspans {
	pthread_mutex_t	 mu;
	pthread_cond_t	 cv;
	struct rfile	*f;
	char		*path;
	int		 fd;
	uint64_t	 size, nspan;
	uint64_t	 next;		/* st is span next's start state */
	struct rstate	 st;
	int		 bad;		/* the rest goes line by line (or none
					 * is left) */
	uint64_t	 rest_idx, rest_at;	/* from span rest_idx at byte
					 * rest_at, in state rest (the walk's
					 * thread: spans_submit) */
	struct rstate	 rest;
	int		 has_rest;
	uint64_t	 refs;
};

struct rspan {
	struct rspans	*all;
	uint64_t	 idx;
};

static void
state_free(struct rstate *st)
{
	free(st->name);
	free(st->ctx);
}

static void
spans_unref(struct rspans *A)
{
	pthread_mutex_lock(&A->mu);
	int last = --A->refs == 0;
	pthread_mutex_unlock(&A->mu);
	if (!last)
		return;
	close(A->fd);
	state_free(&A->st);
	state_free(&A->rest);
	pthread_mutex_destroy(&A->mu);
	pthread_cond_destroy(&A->cv);
	free(A->path);
	free(A);
}

/* Sequence bytes (neither newline nor CR) of s[0, n). */
static size_t
seq_count(const unsigned char *s, size_t n)
{
	size_t c = n, i = 0;

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
	const __m128i nl = _mm_set1_epi8('\n'), cr = _mm_set1_epi8('\r');

	for (; i + 16 <= n; i += 16) {
		const __m128i v = _mm_loadu_si128((const __m128i *)(s + i));
		c -= (size_t)__builtin_popcount((unsigned)_mm_movemask_epi8(
		    _mm_or_si128(_mm_cmpeq_epi8(v, nl), _mm_cmpeq_epi8(v,
		    cr))));
	}
#endif
	for (; i < n; i++)
		c -= s[i] == '\n' || s[i] == '\r';
	return c;
}

/* The last sequence bytes of lo[0, hi - lo), up to want of them, into
 * out[want - got, want); returns got. */
static size_t
seq_tail(const unsigned char *lo, const unsigned char *hi, unsigned char *out,
    size_t want)
{
	size_t got = 0;

	while (hi > lo && got < want) {
		const unsigned char c = *--hi;
		if (c != '\n' && c != '\r')
			out[want - ++got] = c;
	}
	return got;
}

/* Starts a span's parse in state st (its batch: P->b). */
static void
span_start(struct parse *P, const struct rstate *st)
{
	P->recno = st->recno;
	if (!st->in_rec)
		return;
	P->in_rec = 1;
	P->seqlen = st->seqlen;
	rec_begin(P, st->name, st->namelen, 1);
	piece_begin(P, st->ctx, st->ctxlen, st->seqlen - st->ctxlen);
	struct rpiece *p = &P->b->pc[P->b->npc - 1];
	p->own0 = (size_t)(owned_to(st->seqlen) - p->seqoff);
}

/* What a span's bytes s[0, n) (whole lines) say: see span_job. */
struct rsum {
	uint64_t	 nh;		/* headers */
	uint64_t	 lead, tail;	/* sequence bytes before the first,
					 * after the last (all: lead) */
	const unsigned char *first;	/* the first header, the last's name */
	const unsigned char *name, *after; /* (after its line) */
	size_t		 namelen;
	int		 bad;		/* a long header, one without its
					 * newline */
};

static void
span_sum(const unsigned char *s, size_t n, struct rsum *m)
{
	const unsigned char *cur = s, *e = s + n, *x;

	memset(m, 0, sizeof(*m));
	while (cur < e && (x = memchr(cur, '>', (size_t)(e - cur))) != NULL) {
		if (x > s && x[-1] != '\n') {	/* (a byte of a sequence) */
			size_t c = seq_count(cur, (size_t)(x + 1 - cur));
			*(m->nh ? &m->tail : &m->lead) += c;
			cur = x + 1;
			continue;
		}
		size_t c = seq_count(cur, (size_t)(x - cur));
		*(m->nh ? &m->tail : &m->lead) += c;
		if (m->nh++ == 0)
			m->first = x;
		m->tail = 0;
		const unsigned char *he = memchr(x, '\n', (size_t)(e - x));
		if (he == NULL || (size_t)(he - x) > SPAN_HEAD_MAX) {
			m->bad = 1;
			return;
		}
		size_t w = 0;
		while (x + 1 + w < he && x[1 + w] != ' ' && x[1 + w] != '\t' &&
		    x[1 + w] != '\r')
			w++;
		m->name = x + 1;
		m->namelen = w;
		m->after = cur = he + 1;
	}
	if (cur < e)
		*(m->nh ? &m->tail : &m->lead) += seq_count(cur,
		    (size_t)(e - cur));
}

/* Whether the lines of s[0, n) are all blank ("" or a CR). */
static int
all_blank(const unsigned char *s, size_t n)
{
	const unsigned char *e = s + n, *x;

	for (; s < e; s = x + 1) {
		if ((x = memchr(s, '\n', (size_t)(e - s))) == NULL)
			x = e;
		if (!is_blank(s, (size_t)(x - s)))
			return 0;
	}
	return 1;
}

/* Reads the input's bytes [at, at + n) into buf; returns the bytes read
 * (fewer at its end), or -1. */
static ssize_t
span_read(struct rspans *A, unsigned char *buf, size_t n, uint64_t at)
{
	return in_pread(A->fd, buf, n, at);
}

/* The rest of the input from byte a on, line by line (a span the summary
 * could not vouch for), from state st; its first batch is number idx. */
static void
span_rest(struct rspans *A, const struct rstate *st, uint64_t a,
    uint64_t idx)
{
	struct parse P;

	memset(&P, 0, sizeof(P));
	P.rd.fd = open(A->path, O_RDONLY);
	P.f = A->f;
	P.kind = REC_FASTA;
	P.nbatch = idx;
	P.rd.base = a;		/* (spill's offsets) */
	P.b = batch_new(A->f, idx);
	span_start(&P, st);
	if (P.rd.fd == -1 || lseek(P.rd.fd, (off_t)a, SEEK_SET) == (off_t)-1) {
		P.rd.err = errno;
		P.rd.eof = 1;
	}
	parse(&P);
	free(P.rd.buf);
	if (P.rd.fd != -1)
		close(P.rd.fd);
}

/* Parses span i, the input's bytes s[0, len) from byte a on (none: an
 * empty span), from state in, into its one batch, scanned by this job
 * (worker); last: it ends the input. */
static void
span_parse(struct rspans *A, uint64_t i, int worker, const struct rstate *in,
    const unsigned char *s, size_t len, uint64_t a, int last)
{
	struct parse P;

	memset(&P, 0, sizeof(P));
	P.rd.fd = -1;
	P.rd.buf = (unsigned char *)s;
	P.rd.len = len;
	P.rd.eof = 1;
	P.rd.base = a;		/* (spill's offsets) */
	P.f = A->f;
	P.kind = REC_FASTA;
	P.span = 1;
	P.span_last = last;
	P.worker = worker;
	P.nbatch = i;
	P.b = batch_new(A->f, i);
	span_start(&P, in);
	parse(&P);
}

/* A span after its input's search stopped (-q, -l, -L, -m, a write
 * error): not read; its batch, empty, keeps the order (the last one ends
 * the input). */
static void
span_skip(struct rspans *A, uint64_t i, int worker)
{
	struct rstate in;
	int none;

	memset(&in, 0, sizeof(in));
	pthread_mutex_lock(&A->mu);
	while (A->next != i)
		pthread_cond_wait(&A->cv, &A->mu);
	if (!(none = A->bad)) {
		in = A->st;
		in.name = xmalloc(in.namelen + 1);
		memcpy(in.name, A->st.name != NULL ? A->st.name : "",
		    in.namelen);
		in.ctx = xmalloc(in.ctxlen + 1);
		if (in.ctxlen > 0)
			memcpy(in.ctx, A->st.ctx, in.ctxlen);
	}
	const int last = i == A->nspan - 1;
	if (last)
		A->bad = 1;
	A->next = i + 1;
	pthread_cond_broadcast(&A->cv);
	pthread_mutex_unlock(&A->mu);
	if (!none)
		span_parse(A, i, worker, &in, NULL, 0, 0, last);
	state_free(&in);
	spans_unref(A);
}

static void
span_job(void *arg, int worker)
{
	struct rspan *sp = arg;
	struct rspans *A = sp->all;
	/* (A->f lives while no span has taken the end of the input: then
	 * its last batch is yet to print) */
	pthread_mutex_lock(&A->mu);
	const int stopped = pool_quit() || (!A->bad &&
	    __atomic_load_n(&A->f->done, __ATOMIC_RELAXED));
	pthread_mutex_unlock(&A->mu);
	if (stopped) {
		const uint64_t i = sp->idx;
		free(sp);
		span_skip(A, i, worker);
		return;
	}
	const uint64_t i = sp->idx, a0 = i * SPAN;
	const uint64_t e0 = A->size - a0 < SPAN ? A->size : a0 + SPAN;
	const uint64_t r0 = a0 > 0 ? a0 - 1 : 0;
	size_t cap = (size_t)(e0 - r0) + (64 << 10), have;
	unsigned char *buf = xmalloc(cap + 64);
	uint64_t a, e;
	struct rsum m;
	struct rstate in;
	int bad = 0;
	ssize_t n;

	free(sp);
	memset(&in, 0, sizeof(in));
	n = span_read(A, buf, (size_t)(e0 - r0), r0);
	have = n > 0 ? (size_t)n : 0;
	bad = have < e0 - r0;
	/* From the first line start at or after a0 ... */
	const unsigned char *x = i == 0 ? buf : memchr(buf, '\n', have);
	a = x == NULL ? UINT64_MAX : r0 + (uint64_t)(x - buf) + (i > 0);
	/* ... to the first at or after e0 (the input's end: the last). */
	e = e0;
	if (!bad && e0 < A->size) {
		size_t from = (size_t)(e0 - 1 - r0);
		for (;;) {
			if ((x = memchr(buf + from, '\n', have - from)) != NULL) {
				e = r0 + (uint64_t)(x - buf) + 1;
				break;
			}
			if (have - (size_t)(e0 - r0) >= SPAN) {
				bad = 1;	/* a line longer than a span */
				break;
			}
			from = have;
			if (have + (64 << 10) > cap) {
				cap = have + (64 << 10);
				buf = xrealloc(buf, cap + 64);
			}
			if ((n = span_read(A, buf + have, 64 << 10,
			    r0 + have)) <= 0) {
				e = r0 + have;	/* (the input ended) */
				break;
			}
			have += (size_t)n;
		}
	}
	if (a > e)		/* (none: the span is inside a line) */
		a = e;
	const unsigned char *s = buf + (a - r0);
	const size_t len = (size_t)(e - a);
	if (!bad)
		span_sum(s, len, &m);
	const int last = e >= A->size;

	/* The state at its start, and at its end for the next. */
	pthread_mutex_lock(&A->mu);
	while (A->next != i)
		pthread_cond_wait(&A->cv, &A->mu);
	if (A->bad) {		/* a span before takes the rest */
		A->next = i + 1;
		pthread_cond_broadcast(&A->cv);
		pthread_mutex_unlock(&A->mu);
		free(buf);
		spans_unref(A);
		return;
	}
	in = A->st;		/* (this span's: A->st is made anew) */
	memset(&A->st, 0, sizeof(A->st));
	if (!bad) {
		const uint64_t before = in.in_rec ? in.seqlen + m.lead : 0;
		bad = m.bad || (!in.in_rec && (m.nh == 0 ||
		    !all_blank(s, (size_t)(m.first - s)))) ||
		    (in.in_rec && m.nh > 0 && before == 0) ||
		    (last && (m.nh > 0 ? m.tail == 0 : before == 0));
	}
	if (bad || last)
		A->bad = 1;	/* (none is left after this one) */
	if (bad) {		/* the walk parses the rest line by line */
		A->has_rest = 1;
		A->rest_idx = i;
		A->rest_at = a;
		A->rest = in;
		memset(&in, 0, sizeof(in));
	}
	if (!bad) {
		struct rstate *o = &A->st;
		o->in_rec = 1;
		o->recno = in.recno + m.nh;
		o->seqlen = m.nh > 0 ? m.tail : in.seqlen + m.lead;
		o->namelen = m.nh > 0 ? m.namelen : in.namelen;
		o->name = xmalloc(o->namelen + 1);
		memcpy(o->name, m.nh > 0 ? (const char *)m.name : in.name,
		    o->namelen);
		o->name[o->namelen] = '\0';
		const size_t want = o->seqlen < 2 * ov ? (size_t)o->seqlen :
		    2 * ov;
		o->ctx = xmalloc(want + 1);
		size_t got = seq_tail(m.nh > 0 ? m.after : s, s + len, o->ctx,
		    want);
		if (got < want)		/* (the rest from the span before) */
			memcpy(o->ctx, in.ctx + in.ctxlen - (want - got),
			    want - got);
		o->ctxlen = want;
	}
	A->next = i + 1;
	pthread_cond_broadcast(&A->cv);
	pthread_mutex_unlock(&A->mu);

	if (bad) {
		free(buf);
	} else {
		span_parse(A, i, worker, &in, s, len, a, last);
		free(buf);
	}
	state_free(&in);
	spans_unref(A);
}

/* Whether the FASTA file fd (size bytes) is to be read in spans. */
static int
spans_ok(uint64_t size)
{
	const char *e = getenv("AGREP_GPU_REC_SPAN");

	if (e != NULL && atol(e) > 0)
		SPAN = (size_t)atol(e);
	if (SPAN < 2)
		SPAN = 2;
	/* (record output keeps the line-by-line parse: its spools follow
	 * a record from batch to batch there) */
	return PIECE != SIZE_MAX && !opt->decompress && !need_raw() &&
	    size > SPAN && pool_workers() > 1;
}

/* Submits the spans of the FASTA file path (open as fd, size bytes) of
 * input f; takes fd. */
static void
spans_submit(struct rfile *f, const char *path, int fd, uint64_t size)
{
	struct rspans *A = xcalloc(1, sizeof(*A));

	pthread_mutex_init(&A->mu, NULL);
	pthread_cond_init(&A->cv, NULL);
	A->f = f;
	A->path = xstrdup(path);
	A->fd = fd;
	A->size = size;
	A->nspan = (size + SPAN - 1) / SPAN;
	A->refs = A->nspan + 1;
	for (uint64_t i = 0; i < A->nspan; i++) {
		struct rspan *sp = xmalloc(sizeof(*sp));
		sp->all = A;
		sp->idx = i;
		pool_submit(span_job, sp);
	}
	/* A span that could not vouch for its lines leaves the rest to this
	 * thread (its batches are jobs after the spans', as they must be:
	 * a job that submitted them would hold up the pool's order). */
	pthread_mutex_lock(&A->mu);
	while (A->next < A->nspan)
		pthread_cond_wait(&A->cv, &A->mu);
	pthread_mutex_unlock(&A->mu);
	if (A->has_rest)
		span_rest(A, &A->rest, A->rest_at, A->rest_idx);
	spans_unref(A);
}

/*
 * Takes the input path (NULL: standard input, named name) when it is to
 * be read as records: FASTA or FASTQ (--records, or found by content with
 * --dna), or any input with --hits.  Calls flush first (the walk's batch of
 * small files goes before it).  Returns 1 when it took the input (searched,
 * or failed after a message), 0 when the ordinary path is to search it.
 */
int
rec_submit(const char *path, const char *name, int show_name,
    void (*flush)(void))
{
	struct stat st;
	unsigned char head[256];
	int fd, kind = conf.kind, reg;

	if (!on)
		return 0;
	fd = path != NULL ? open(path, O_RDONLY) : STDIN_FILENO;
	if (fd == -1)
		return 0;	/* (the ordinary path says why, in order) */
	reg = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    (path != NULL || lseek(fd, 0, SEEK_CUR) == 0);
	if (kind == REC_AUTO && reg) {
		ssize_t n = head_of(fd, path != NULL ? path : "/dev/stdin",
		    head, sizeof(head));
		kind = n > 0 ? sniff(head, (size_t)n) : REC_LINES;
	} else if (kind == REC_AUTO) {
		/* A pipe: its first bytes seen without taking them (tee),
		 * decoded with --decompress; anything else, or a compressed
		 * pipe without it, is read as lines. */
		ssize_t n = path == NULL ? peek_pipe(fd, head, sizeof(head)) :
		    -1;
		if (n > 0 && dz_sniff(head, (size_t)n) != DZ_NONE)
			n = opt->decompress ? peek_decoded(fd, head,
			    sizeof(head)) : -1;
		kind = n > 0 ? sniff(head, (size_t)n) : REC_LINES;
	}
	if (kind == REC_LINES && conf.hits == HITS_NONE) {
		if (path != NULL)
			close(fd);
		return 0;
	}
	flush();
	if (pool_quit()) {
		if (path != NULL)
			close(fd);
		return 1;
	}

	struct parse P;
	memset(&P, 0, sizeof(P));
	P.rd.fd = fd;
	if (opt->decompress) {
		int err;
		P.rd.z = zin_open(fd, name, reg, &err, NULL, NULL);
		if (err) {
			if (path != NULL)
				close(fd);
			__atomic_store_n(&S.job_failed, 1, __ATOMIC_RELAXED);
			return 1;
		}
	}
	struct rfile *f = xcalloc(1, sizeof(*f));
	pthread_mutex_init(&f->mu, NULL);
	pthread_cond_init(&f->printed, NULL);
	f->name = xstrdup(name);
	f->show_name = show_name;
	f->early = kind != REC_FASTQ;
	/* A regular file read as it is: a long record's text is read again
	 * from it when printed (a spool of its byte range). */
	f->fd = reg && P.rd.z == NULL && need_raw() ? fcntl(fd, F_DUPFD_CLOEXEC,
	    0) : -1;
	out_file_start(&f->fs, f->name, show_name);
	/* The devices, as the planner says for the file (a stream, or a
	 * compressed file: only when asked for). */
	f->dev = reg && P.rd.z == NULL && path != NULL ?
	    devices_pay(path, (uint64_t)st.st_size, kind) :
	    devices_pay_stream();
	if (f->dev)
		devices_start();	/* (in the background, as range.c) */
	if (kind == REC_FASTA && reg && path != NULL && P.rd.z == NULL &&
	    spans_ok((uint64_t)st.st_size)) {
		spans_submit(f, path, fd, (uint64_t)st.st_size);
		return 1;
	}
	P.f = f;
	P.kind = kind;
	P.b = batch_new(f, 0);
	parse(&P);
	free(P.rd.buf);
	if (P.rd.z != NULL)
		(void)zin_close(P.rd.z, name);
	if (path != NULL)
		close(fd);
	return 1;
}
