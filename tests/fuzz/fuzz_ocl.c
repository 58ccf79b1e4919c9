/*
 * fuzz_ocl.c: libFuzzer target for the OpenCL path on POCL.  The same
 * decoding as fuzz_host.c (fuzz_common.h), plus three bytes of shape: the
 * slice (64..512 bytes in steps of 64, or 0: scan.c picks one per chunk),
 * the chunk capacity (64..512 bytes in steps of 32) and a mode bit.  The
 * text goes through a scanner opened with scan_open_device on
 * ocl_choose("cpu"), chunk by chunk as src/search.c feeds it: each chunk is
 * the whole records that fit in the capacity (at the end of the input,
 * whatever is left, unterminated or not), double buffered (the next chunk is
 * copied into the other slot while the kernel runs).  A record longer than
 * the capacity either doubles the capacity, growing the scanner (scan_grow),
 * or with the mode bit is cut into pieces, each scanned with the bytes
 * before it in the pad (scan_submit's warm, as search.c's long_record does).
 * The chunk bitmaps are compared with the DP, record by record, then bit by
 * bit; a difference prints the case and aborts.
 *
 * Opening a scanner builds the OpenCL program, so scanners are cached per
 * process (see "The scanner cache"; FUZZ_OCL_NOCACHE=1 in the environment
 * opens a fresh scanner for each input instead).  Run it with the LSan
 * suppressions of tests/lsan.supp (tests/fuzz/fuzz.mk says why).
 */
#include <pthread.h>
#include <time.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static struct ocl_dev dev;
static int have_dev;

/* ------------------------------------------------------------------ */
/*
 * The scanner cache.  Opening a scanner (context, program build, first
 * launch) takes POCL some 60-80 ms, scanning a few KB well under 1 ms.  A
 * scanner is kept per key, the things scan_open_device derives from the
 * pattern set and the slice: the pad (n + k - 1 rounded), the word size,
 * the blocks of the longest pattern (kernel build options) and the slice.
 * On reuse the new patterns' tables are uploaded and the terminator set
 * (it is only a kernel argument).  The chunk capacity is not in the key:
 * the chunks fed are at most the input's capacity, and a scanner with
 * smaller slots is grown (scan_grow) to it first; larger slots only mean
 * more room.
 */

#define NCACHE 128

struct centry {
	int		 used;
	struct scanner	 s;
	size_t		 pad, maxlen32, maxwords, slice;	/* the key */
	unsigned long	 last;		/* LRU clock */
};

static struct centry cache[NCACHE];
static unsigned long clock_;
static int nocache = -1;		/* FUZZ_OCL_NOCACHE=1 */

/* Counters, printed at exit. */
static unsigned long n_open, n_reuse, n_chunks, n_grow, n_split, n_scans;
static double t_open, t_scan;		/* seconds opening, scanning */

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void
print_counters(void)
{
	fprintf(stderr, "fuzz_ocl: %lu scans, %lu chunks, %lu grows, %lu "
	    "records cut (warm); scanners: %lu opened (%.1f s), %lu reused; "
	    "%.1f s scanning\n", n_scans, n_chunks, n_grow, n_split, n_open,
	    t_open, n_reuse, t_scan);
}


/* Returns an open scanner for ps with slots of at least cap bytes, from
 * the cache or new (FUZZ_OCL_NOCACHE=1: always new, closed after use). */
static struct scanner *
get_scanner(const struct patset *ps, unsigned char eol, size_t cap,
    size_t slice, struct centry **ent)
{
	size_t pad = scan_pad(ps), m32 = ps->maxlen <= 32;
	struct centry *e, *victim = NULL;
	double t0;
	int rc;

	clock_++;
	for (int i = 0; i < NCACHE; i++) {
		e = &cache[i];
		if (!e->used) {
			if (victim == NULL || victim->used)
				victim = e;
			continue;
		}
		if (victim == NULL || (victim->used && e->last < victim->last))
			victim = e;
		if (nocache || e->pad != pad || e->maxlen32 != m32 ||
		    e->maxwords != ps->maxwords || e->slice != slice)
			continue;
		if (scan_set_patterns(&e->s, ps) == -1) {
			fprintf(stderr, "fuzz_ocl: pattern upload failed\n");
			abort();
		}
		e->s.eol = eol;
		if (e->s.cap < cap)
			scan_grow(&e->s, cap);
		e->last = clock_;
		*ent = e;
		n_reuse++;
		return &e->s;
	}
	e = victim;
	t0 = now();
	if (e->used)
		scan_close(&e->s);
	memset(e, 0, sizeof(*e));
	rc = scan_open_device(&e->s, ps, eol, cap, &dev, slice);
	t_open += now() - t0;
	if (rc == -1) {
		fprintf(stderr, "fuzz_ocl: scan_open_device failed (cap %zu, "
		    "slice %zu)\n", cap, slice);
		abort();
	}
	n_open++;
	e->used = 1;
	e->pad = pad;
	e->maxlen32 = m32;
	e->maxwords = ps->maxwords;
	e->slice = slice;
	e->last = clock_;
	*ent = e;
	return &e->s;
}

static void
put_scanner(struct centry *e)
{
	if (!nocache)
		return;
	scan_close(&e->s);
	e->used = 0;
}

/* ------------------------------------------------------------------ */

/* Copies text[from, from + n) into a slot's chunk; with warm, the bytes
 * before it go into the pad (terminators before the start of the text). */
static void
load(struct scanner *s, int slot, const struct fcase *fc, size_t from,
    size_t n, int warm)
{
	unsigned char *chunk = scan_chunk(s, slot);

	memcpy(chunk, fc->text + from, n);
	if (warm)
		for (size_t i = 1; i <= s->pad; i++)
			chunk[-(ptrdiff_t)i] = i <= from ?
			    fc->text[from - i] : fc->eol;
}

static size_t
whole_records(const unsigned char *buf, size_t have, unsigned char eol)
{
	const unsigned char *p = memrchr(buf, eol, have);

	return p ? (size_t)(p - buf) + 1 : 0;
}

/*
 * Scans the whole text in chunks of at most cap bytes (s has room for
 * them); sets got (bits over the text).  As search.c: a chunk is the whole
 * records in it, or everything at the end of the input; a record longer
 * than cap doubles cap and grows the scanner if it must, or with split is
 * cut at cap, the next chunk warming up on the bytes before it.
 */
static void
run_chunks(struct scanner *s, const struct fcase *fc, size_t cap, int split,
    uint64_t *got)
{
	size_t base = 0, have, len;
	int cur = 0, warm = 0, nwarm;

	have = fc->len < cap ? fc->len : cap;
	load(s, cur, fc, 0, have, 0);
	while (base < fc->len) {
		int eof = base + have == fc->len, nxt = (cur + 1) % SCAN_SLOTS;
		const uint64_t *bm;
		size_t next;

		len = eof ? have : whole_records(scan_chunk(s, cur), have,
		    fc->eol);
		nwarm = 0;
		if (len == 0 && have == cap) {
			if (!split) {
				/* A record longer than the slots. */
				cap *= 2;
				if (cap > s->cap)
					scan_grow(s, cap);
				n_grow++;
				have = fc->len - base < cap ?
				    fc->len - base : cap;
				load(s, cur, fc, base, have, warm);
				continue;
			}
			/* Cut the record: the next chunk warms up. */
			len = have;
			nwarm = 1;
			n_split++;
		}
		n_chunks++;
		if (scan_submit(s, cur, len, have, warm) != 0) {
			fprintf(stderr, "fuzz_ocl: scan_submit failed\n");
			abort();
		}
		/* Double buffering: the next chunk goes into the other slot
		 * while the kernel runs. */
		next = fc->len - (base + len) < cap ?
		    fc->len - (base + len) : cap;
		if (!eof)
			load(s, nxt, fc, base + len, next, nwarm);
		if ((bm = scan_wait(s, cur)) == NULL) {
			fprintf(stderr, "fuzz_ocl: scan_wait failed\n");
			abort();
		}
		for (size_t j = 0; j < len; j++)
			if (bit_get(bm, j))
				bit_set(got, base + j);
		base += len;
		have = next;
		cur = nxt;
		warm = nwarm;
	}
}

/* One of two workers scanning at once through clones of one scanner, as
 * the pipeline's workers do (their own slots, the shared kernel). */
struct worker {
	struct scanner	 c;
	const struct fcase *fc;
	size_t		 cap;
	int		 split;
	uint64_t	*got;
};

static void *
worker_run(void *arg)
{
	struct worker *w = arg;

	run_chunks(&w->c, w->fc, w->cap, w->split, w->got);
	return NULL;
}

/* Scans the case with two clones of s on two threads at once; each must
 * find what the oracle finds. */
static void
run_threads(struct scanner *s, const struct fcase *fc, size_t cap, int split,
    const uint64_t *want, int all, size_t words)
{
	struct worker w[2];
	pthread_t tid[2];

	for (int i = 0; i < 2; i++) {
		scan_clone(&w[i].c, s);
		w[i] = (struct worker){ w[i].c, fc, cap, split,
		    calloc(words ? words : 1, sizeof(uint64_t)) };
		if (pthread_create(&tid[i], NULL, worker_run, &w[i]) != 0)
			abort();
	}
	for (int i = 0; i < 2; i++) {
		pthread_join(tid[i], NULL);
		compare(fc, want, all, w[i].got, 0, 1, "OpenCL, two threads");
		scan_close(&w[i].c);
		free(w[i].got);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct fcase fc;
	struct patset ps;
	struct scanner *s;
	struct centry *ent;
	size_t words, slice, cap;
	uint64_t *want, *got;
	int all, split;
	char engine[96];
	double t0;

	if (!have_dev) {
		if (ocl_choose("cpu", &dev) == -1) {
			fprintf(stderr, "fuzz_ocl: no OpenCL CPU device "
			    "(install pocl-opencl-icd)\n");
			abort();
		}
		have_dev = 1;
		nocache = getenv("FUZZ_OCL_NOCACHE") != NULL &&
		    atoi(getenv("FUZZ_OCL_NOCACHE")) != 0;
		atexit(print_counters);
	}
	fuzz_decode(&fc, data, size, 3);
	/* Slices of 64..512 bytes, or 0: scan.c picks one per chunk. */
	slice = (fc.nextra > 0 ? fc.extra[0] : 0) % 9;
	slice = slice == 8 ? 0 : 64 * (slice + 1);
	/* Chunk capacities of 64..512 bytes, in steps of 32. */
	cap = 64 + 32 * ((fc.nextra > 1 ? fc.extra[1] : 0) % 15);
	split = fc.nextra > 2 && (fc.extra[2] & 1);
	fuzz_patset(&fc, &ps);
	words = (fc.len + 63) / 64;
	want = calloc(words ? words : 1, sizeof(*want));
	all = oracle(&fc, want);
	snprintf(engine, sizeof(engine), "OpenCL slice=%zu cap=%zu%s",
	    slice, cap, split ? " split" : "");
	show_case(&fc, want, all, engine);
	if (ps.all_lines || ps.npat == 0) {
		/* The tool scans nothing: every record is printed. */
		compare(&fc, want, all, NULL, 1, 0, "patset");
		goto done;
	}
	got = calloc(words ? words : 1, sizeof(*got));
	s = get_scanner(&ps, fc.eol, cap, slice, &ent);
	n_scans++;
	t0 = now();
	run_chunks(s, &fc, cap, split, got);
	t_scan += now() - t0;
	snprintf(engine, sizeof(engine), "OpenCL slice=%zu%s cap=%zu%s "
	    "lanes=%d wbits=%d", s->slice, slice ? "" : " (auto)", cap,
	    split ? " split" : "", s->lanes, s->wbits);
	compare(&fc, want, all, got, 0, 1, engine);
	run_threads(s, &fc, cap, split, want, all, words);
	put_scanner(ent);
	free(got);
done:
	free(want);
	pat_free(&ps);
	return 0;
}
