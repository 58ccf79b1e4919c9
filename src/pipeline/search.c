/*
 * search.c: searching one input in one job: the devices (opened once, in the
 * background), each worker's slots, and the ring: chunks go round a ring of
 * slots (two per device, over every device in use): while the devices scan
 * the chunks in flight, the next ones are read, and the oldest is printed as
 * soon as its scan is done, so output keeps the input order.  Each chunk ends
 * at a record terminator (the partial record at its end moves to the next
 * chunk), so a chunk starts with a fresh Myers state and its pad holds
 * terminators.  range.c cuts large inputs into jobs of their own; walk.c
 * turns the operands into jobs.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/mman.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../base/cpu.h"
#include "devq.h"
#include "../engines/hostmatch.h"
#include "../engines/hplan.h"
#include "../engines/multi.h"
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

struct search S = { .mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER };


/* Whether the user left both the device and the host limit to us. */
static int
auto_device(void)
{
	return (opt->device == NULL || *opt->device == '\0' ||
	    strcmp(opt->device, "auto") == 0) && opt->host_max == SIZE_MAX;
}

/* Publishes the devices open so far (nd: 0, none; more: others are still
 * opening, S.opening). */
static void
devices_opened(int nd, int more)
{
	pthread_mutex_lock(&S.mu);
	if (nd > 0)
		__atomic_store_n(&S.ndev, nd, __ATOMIC_RELEASE);
	S.opening = more;
	__atomic_store_n(&S.dev_state, nd > 0 ? 1 : more ? 2 : -1,
	    __ATOMIC_RELEASE);
	pthread_cond_broadcast(&S.cv);
	pthread_mutex_unlock(&S.mu);
}

/* The chunk size a device's slots are made for. */
static size_t
device_cap(const struct ocl_dev *d, size_t hostcap)
{
	size_t cap = opt->chunk ? opt->chunk : d->type & CL_DEVICE_TYPE_GPU &&
	    !pool_threaded() ? CHUNK_GPU : CHUNK_CPU;

	return cap < hostcap ? hostcap : cap;
}

/* A device opening in a thread of its own, beside the first (its messages
 * kept in msg, to go out in the devices' order). */
struct opening {
	pthread_t	 tid;
	const struct ocl_dev *d;
	size_t		 cap;
	struct scanner	 s;
	int		 failed;
	double		 secs;
	struct pool_text msg;
};

static void *
opening_main(void *arg)
{
	struct opening *o = arg;
	const double t0 = util_now();

	pool_capture(&o->msg);
	o->failed = scan_open_device(&o->s, pats, opt->eol, o->cap, o->d,
	    opt->slice) == -1;
	pool_capture(NULL);
	o->secs = util_now() - t0;
	return NULL;
}

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
	const double t0 = util_now();
	double built = 0;	/* compiling programs, not in the start-up */

	if ((n = ocl_choose_all(opt->device, d, OCL_MAXDEV)) <= 0) {
		__atomic_store_n(&S.failed, 1, __ATOMIC_RELAXED);
		warnx_("searching with the host matcher instead");
		return 0;
	}
	plan_mark("the platforms and devices are listed");
	/* The automatic choice found CPU devices only (POCL): they share the
	 * cores that the host's engines already use, and were slower than
	 * them in every case measured (2 cores, 256 MB: -k1 LORD 101 ms on
	 * the host against 167 ms through POCL, a 31-byte phrase -k2 73
	 * against 143; README, Host matcher break-even).  So the host keeps
	 * the search, quietly: a device asked for (-d, AGREP_GPU_DEVICE) or a
	 * limit set (AGREP_GPU_HOST_MAX) still sends inputs to POCL. */
	if (auto_device()) {
		int gpu = 0;
		for (int i = 0; i < n; i++)
			gpu |= !(d[i].type & CL_DEVICE_TYPE_CPU);
		if (!gpu)
			return 0;
	}
	/* From here on there is nothing to report but warnings. */
	pthread_mutex_lock(&S.mu);
	S.dev_found = 1;
	pthread_mutex_unlock(&S.mu);
	/* Slots in flight per device: half the workers, whatever the
	 * devices (whether the others open depends on the run:
	 * plan_more_devices), at least 8 (pinned memory is 16 MiB a slot);
	 * a slot spends most of its time being filled by a worker.  Two
	 * H200s, 16 slots each, GPUs alone: 8.6 GB mercy 1.18-1.23 s (run 9
	 * of bench/results/h200x2.md; 1.20-1.31 s with 8 each and the code
	 * of run 2).  Measured before with
	 * 8.6 GB -c -k2 mercy, GPUs alone: one H100, 16 workers, 8 slots
	 * 1.26-1.46 s, 16 1.16-1.53 s, 32 1.48-1.84 s; one H200 of two, 32
	 * workers, 8 / 16 slots 16.6 / 20.3 GB/s from ready; both H200s, 8 /
	 * 16 slots each 17.8 / 16.1 GB/s together (bench/results/h200x2.md).
	 * 8 is enough for one worker (-j1) to run ahead of the device.  The
	 * pattern-parallel kernel wants 16 whatever the workers: a 4 MiB
	 * range is 1,024 work-groups, less than an H200 runs at once, so its
	 * kernels must overlap (one H200, 1,000 primers -k4 over 1 GiB: 1.18
	 * s from ready with 8 slots, 0.86 with 16, 0.87 with 24; 200 Bible
	 * words -k2: 0.67, 0.40, 0.38). */
	int slots = pool_workers() / 2, least = scan_pp_likely(pats) ?
	    2 * DEV_SLOTS : DEV_SLOTS;
	devq_init(S.dev, n, slots > least ? slots : least, 2 * S.range);
	/* Where every device is to open whatever the first one's progress (a
	 * device named), or the planner says opening them all pays now, the
	 * ones after the first open beside it, a thread each; otherwise each
	 * opens while the ones before it search, if the planner says it
	 * pays then. */
	struct opening *op = NULL;
	const int together = n > 1 && plan_open_together();
	if (together) {
		const size_t cap = device_cap(&d[0], hostcap); /* (one for
							  * all) */
		op = xcalloc((size_t)n, sizeof(*op));
		for (int i = 1; i < n; i++) {
			op[i].d = &d[i];
			op[i].cap = cap;
			if (pthread_create(&op[i].tid, NULL, opening_main,
			    &op[i]) != 0)
				fatalx("cannot create a thread");
		}
	}
	double last_open = 0;
	for (int i = 0; i < n; i++) {
		if (!together && nd > 0 && !plan_more_devices(last_open))
			break;
		const double t_open = util_now();
		size_t cap = device_cap(&d[i], hostcap);
		if (nd > 0 && cap != S.dev[0].cap)
			cap = S.dev[0].cap;	/* one chunk size for all */
		int failed;
		if (together && i > 0) {
			pthread_join(op[i].tid, NULL);
			if (op[i].msg.len > 0)
				pool_msg(op[i].msg.buf, op[i].msg.len);
			free(op[i].msg.buf);
			if (!(failed = op[i].failed))
				S.dev[nd] = op[i].s;
			last_open = op[i].secs;
		} else {
			failed = scan_open_device(&S.dev[nd], pats, opt->eol,
			    cap, &d[i], opt->slice) == -1;
			last_open = util_now() - t_open;
		}
		if (failed)
			warnx_("warning: %s unusable%s", d[i].name, nd == 0 &&
			    i == n - 1 ? "; using the host matcher" : "");
		else {
			char name[sizeof(d[i].name) + 32];
			snprintf(name, sizeof(name), "%s%s", d[i].name,
			    S.dev[nd].pp ? PLAN_PP_SUFFIX : S.dev[nd].re ?
			    PLAN_RE_SUFFIX : "");
			/* The start-up the planner keeps is without the
			 * compiling: a run that built the program (1,000
			 * primers' kernel: 0.89 s to open an H200 against
			 * 0.28 s) made the next give the host slow ranges. */
			/* (side by side, the longest compile counts) */
			built = !together ? built + S.dev[nd].built :
			    S.dev[nd].built > built ? S.dev[nd].built : built;
			last_open -= S.dev[nd].built;	/* (as a cached
							 * program would) */
			plan_dev_open(nd, name, !(d[i].type &
			    CL_DEVICE_TYPE_CPU), util_now() - t0 - built);
			/* It takes ranges now, while the next ones open
			 * (two H200s: the first waited 0.17 s for the
			 * second, a third of the 1,000 primers' scan). */
			devq_add(nd);
			devices_opened(++nd, i < n - 1);
		}
	}
	free(op);
	return nd;
}

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

/* The thread that opens the devices stays, idle, until the process ends
 * (see pool_end). */
static void *
opener_main(void *arg)
{
	(void)arg;
	devices_opened(open_devices_quietly(), 0);
	for (;;)
		pause();
	return NULL;
}

/* Starts opening the devices in the background, if nobody has; meanwhile
 * the host matcher searches (see range_job). */
void
devices_start(void)
{
	pthread_t opener;
	int go = 0;

	pthread_mutex_lock(&S.mu);
	if (S.dev_state == 0) {
		__atomic_store_n(&S.dev_state, 2, __ATOMIC_RELAXED);
		go = 1;
	}
	pthread_mutex_unlock(&S.mu);
	if (!go)
		return;
	plan_mark("the devices start opening");
	if (!pool_threaded() || pthread_create(&opener, NULL, opener_main,
	    NULL) != 0)
		devices_opened(open_devices_quietly(), 0);
}

/* The devices' state (S.dev_state) for placing a range, the devices
 * started first where the planner, having declined them, now says they
 * pay after all (plan_late: the host's first ranges ran slower than its
 * probe). */
int
devices_state(void)
{
	int state = __atomic_load_n(&S.dev_state, __ATOMIC_ACQUIRE);

	if (state == 0 && plan_late()) {
		devices_start();
		state = __atomic_load_n(&S.dev_state, __ATOMIC_ACQUIRE);
	}
	return state;
}

/*
 * Before any device is listed, in automatic mode, for inputs of known
 * total size: where the machine has several NVIDIA GPUs (its driver's
 * /proc entries: counting them starts none), lists only as many as the
 * planner says pay (plan_gpus), through CUDA_VISIBLE_DEVICES, unless that
 * is set already; either way the planner learns how many the driver will
 * list (plan_listed).  Called by the main thread while the workers wait for
 * their first jobs (setenv is not safe beside getenv).
 */
void
search_gpus(uint64_t total)
{
	const char *dir = getenv("AGREP_GPU_NVIDIA_PROC");	/* (tests) */
	const char *cvd = getenv("CUDA_VISIBLE_DEVICES");
	char list[4 * OCL_MAXDEV + 1];
	struct dirent *e;
	DIR *d;
	int present = 0, use;

	if (S.dev_state != 0)
		return;
	if (cvd != NULL) {
		/* (the count the driver will list: the planner's start-up
		 * for it, plan_listed) */
		for (use = *cvd != '\0'; *cvd != '\0'; cvd++)
			use += *cvd == ',';
		plan_listed(use);
		return;
	}
	if ((d = opendir(dir != NULL ? dir : "/proc/driver/nvidia/gpus")) ==
	    NULL)
		return;
	while ((e = readdir(d)) != NULL)
		present += e->d_name[0] != '.';
	closedir(d);
	use = plan_gpus(present, total);
	plan_listed(use > 0 && use < present ? use : present);
	if (use <= 0 || use >= present)
		return;
	list[0] = '\0';
	for (int i = 0; i < use && i < OCL_MAXDEV; i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list),
		    "%s%d", i ? "," : "", i);
	setenv("CUDA_VISIBLE_DEVICES", list, 1);
}

/* Returns the devices open for this worker (0: use the host matcher),
 * opening them first if need be; with wait clear, a device that is still
 * being opened counts as none. */
int
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
	/* This worker's own slots on each device (open so far). */
	for (int nd = __atomic_load_n(&S.ndev, __ATOMIC_ACQUIRE); w->ndev < nd;
	    w->ndev++)
		scan_clone(&w->dev[w->ndev], &S.dev[w->ndev]);
	/* Chunks move from the host's slots to these: as large at least. */
	for (int i = 0; i < w->ndev; i++)
		if (w->dev[i].cap < w->host.cap)
			scan_grow(&w->dev[i], w->host.cap);
	return w->ndev;
}

/* Starts the devices if need be and waits for them; returns the number
 * open. */
int
devices_wait(void)
{
	int nd;

	devices_start();
	pthread_mutex_lock(&S.mu);
	while (S.dev_state == 2)
		pthread_cond_wait(&S.cv, &S.mu);
	/* (more may open later: S.ndev grows, under S.mu) */
	nd = S.dev_state == 1 ? S.ndev : 0;
	pthread_mutex_unlock(&S.mu);
	return nd;
}

#define PROBE_BYTES	((size_t)64 << 10)

/* Times the host matcher over the first whole records of text[0, len)
 * (up to PROBE_BYTES), for the planner; once a run.  The first pass builds
 * the tables of the engine the host plan picks (hplan.c); a warm-up of
 * 4 KB before it, too short for the host plan, built the rule's engine's
 * besides (1,000 primers: the pattern-parallel engine's, then the seed
 * filter's), on this thread while the workers waited. */
static void
host_probe(const unsigned char *text, size_t len)
{
	const size_t pad = scan_pad(pats);
	unsigned char *buf;
	uint64_t *bm;
	double t0;

	if (plan_probed() || len == 0)
		return;
	if (len > PROBE_BYTES) {
		const unsigned char *t = memrchr(text, opt->eol, PROBE_BYTES);
		len = t != NULL && t > text + PROBE_BYTES / 4 ?
		    (size_t)(t - text) + 1 : PROBE_BYTES;
	}
	buf = xmalloc(pad + len + 64);
	bm = xcalloc(len / 64 + 2, sizeof(*bm));
	memset(buf, opt->eol, pad);
	memcpy(buf + pad, text, len);
	/* The fastest of up to three passes, two at least: a pass of a
	 * tenth of a millisecond (one pattern) is at the mercy of one
	 * interruption (an H200 machine's probes of one file: 460 to 860 MB/s
	 * a worker, and the slow one opened the GPU for nothing), and the
	 * first one over the whole probe may be the first of an engine
	 * (relanes.c's AVX-512 lanes on the same machine's Xeon, -k1
	 * [A-Z][a-z]+ of [A-Z][a-z]+: one pass, 318-397 MB/s a worker; the
	 * ranges ran at 900).  Five where they take under a millisecond:
	 * the best of two, 0.13 ms, still said 520 MB/s a worker where the
	 * same machine's runs before said 823 and the workers ran at 651-668
	 * (the 57-byte phrase -k8 over 8.6 GB; it opened the GPU: 1.02 s
	 * against 0.79 on the host alone). */
	double best = INFINITY;
	for (int i = 0; i < 5 && (i < 2 || (i < 3 && best > 1e-3) ||
	    best < 1e-3); i++) {
		t0 = util_now();
		hm_scan(pats, buf, pad, len, opt->eol, bm);
		const double t = util_now() - t0;
		best = t < best ? t : best;
	}
	plan_probe(len, best);
	free(bm);
	free(buf);
}

/* Do the devices pay for an input of size bytes, whatever the planner
 * says?  1 or 0 when that is settled (no device possible, a device asked
 * for, AGREP_GPU_HOST_MAX: larger inputs go to the devices), -1 when the
 * planner decides. */
static int
pay_settled(uint64_t size)
{
	if (__atomic_load_n(&S.dev_state, __ATOMIC_ACQUIRE) == -1)
		return 0;	/* (the opener may be setting it) */
	if (opt->host_max != SIZE_MAX)
		return size > S.host_max;
	if (plan_mode() != PLAN_AUTO)
		return plan_mode() == PLAN_DEVICE;
	return -1;
}

/* Do the devices pay for a stream (nothing to probe before it is read)?
 * Only when that is settled: a device asked for, AGREP_GPU_HOST_MAX. */
int
devices_pay_stream(void)
{
	return pay_settled(UINT64_MAX / 2) > 0;
}

/* The sequence lines of n bytes of a file of records of kind (records.h;
 * in place: the records' text the engines will see, with its line ends:
 * headers, '+' lines and qualities are not searched and would mislead the
 * probes, the host planner's among them); returns the new length. */
static size_t
probe_seq(unsigned char *b, size_t n, int kind)
{
	size_t w = 0, line = 0;

	if (kind != REC_FASTA && kind != REC_FASTQ)
		return n;
	for (size_t i = 0; i < n; line++) {
		const unsigned char *e = memchr(b + i, '\n', n - i);
		size_t end = e != NULL ? (size_t)(e - b) + 1 : n;
		if (kind == REC_FASTQ ? line % 4 == 1 : b[i] != '>' &&
		    b[i] != ';') {
			memmove(b + w, b + i, end - i);
			w += end - i;
		}
		i = end;
	}
	return w;
}

/* Below this many bytes of input the workers' slots take 4 KB pages, not
 * huge ones.  The 2-core Xeon VM, the Bible -c -k5 (ranges of 268 KB):
 * 3.6-3.9 -> 3.1-3.2 ms; twice the Bible (537 KB) 4.5-5.0 -> 4.4-5.0;
 * four times (1.07 MB) 6.1-6.3 -> 7.0 ms. */
#define SMALL_PAGES	((uint64_t)8 << 20)

/*
 * The run's inputs are total bytes, all of them (regular files named):
 * without -j, the host's workers are as many as that work needs
 * (workers_for).
 */
void
search_total(uint64_t total)
{
	S.total = total;
	S.total_known = 1;
	/* (small inputs: ranges of a few hundred KB touch a fraction of
	 * each worker's slots, and a huge page is zeroed whole at its first
	 * touch: 4 KB pages there) */
	if (total < SMALL_PAGES && S.hostmem != NULL)
		(void)madvise(S.hostmem, scan_host_bytes(&S.w[0].host) *
		    (size_t)S.nw, MADV_NOHUGEPAGE);
	/* (the host planner's revisions: the text ahead) */
	hplan_ahead(total);
	hplan_ahead_final();
}

/* Work a worker must have to be worth starting (its thread, malloc arena,
 * first huge page and tables: 0.1-0.3 ms on the H200 machine), and how
 * much slower than the probe a search runs over a whole input (the Bible,
 * a phrase -k5: the probe's 64 KB 5.5 GB/s a worker, the run 1.3-1.9). */
#define WORKER_S	1e-3
#define WORKER_SLOWER	4

/* Whether the workers may be fewer than -j's default: no -j, every
 * input's size known, two workers or more. */
static int
workers_may_shrink(void)
{
	return opt->threads_auto && S.total_known && pool_workers() >= 2;
}

/* For a run on the host alone (workers_may_shrink): caps the workers
 * started at what the work needs by the host probe's rate (plan.c), each
 * with WORKER_S of it at least. */
static void
workers_for(void)
{
	const double rate = plan_host_rate();

	if (!workers_may_shrink() || !(rate > 0))
		return;
	const double cpu = WORKER_SLOWER * (double)S.total / rate;
	const int n = cpu / WORKER_S >= pool_workers() ? pool_workers() :
	    (int)(cpu / WORKER_S) + 1;
	if (n >= pool_workers())
		return;
	pool_cap(n);
	if (getenv("AGREP_GPU_STATS") != NULL)
		fprintf(stderr, "agrep-gpu: host: %d of %d workers for %llu "
		    "bytes at %.1f MB/s a worker (the probe)\n", n,
		    pool_workers(), (unsigned long long)S.total, rate / 1e6);
}

/* Do the devices pay for a file of size bytes, read as records of kind
 * (REC_LINES: lines)?  (The planner's rule, with the host probed on the
 * file's first bytes: of their sequence lines for FASTA and FASTQ.) */
int
devices_pay(const char *path, uint64_t size, int kind)
{
	int settled = pay_settled(size);

	/* (the host alone by the options or the machine: the probe still
	 * sizes the workers, where they may be fewer) */
	if (settled == 0 && (!workers_may_shrink() || plan_probed()))
		return 0;
	if (settled > 0)
		return settled;
	if (settled < 0 && !plan_probed() && plan_open_early(size))
		devices_start();
	if (!plan_probed()) {
		unsigned char *b = xmalloc(PROBE_BYTES);
		int fd = open(path, O_RDONLY);
		ssize_t n = fd != -1 ? in_pread(fd, b, PROBE_BYTES, 0) : -1;
		if (n > 0)
			n = (ssize_t)probe_seq(b, (size_t)n, kind);
		if (n > 0)
			host_probe(b, (size_t)n);
		if (fd != -1)
			close(fd);
		free(b);
	}
	const int dev = settled == 0 ? 0 : plan_start_devices(size, 1);
	if (!dev)
		workers_for();
	return dev;
}

/* The same for a stream of which total bytes came so far, the last len of
 * them in buf. */
int
stream_pays(const unsigned char *buf, size_t len, uint64_t total)
{
	int settled = pay_settled(total);

	if (settled >= 0)
		return settled;
	host_probe(buf, len);
	return plan_start_devices(total, 0);
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
	/* (the workers' slots as one mapping: scan_host_bytes; else each
	 * scanner makes its own when first used) */
	const size_t per = scan_host_bytes(&S.w[0].host);
	if ((S.hostmem = util_alloc_big(per * (size_t)S.nw)) != NULL)
		for (int i = 0; i < S.nw; i++)
			scan_host_carve(&S.w[i].host, S.hostmem +
			    (size_t)i * per);
	S.exact = S.w[0].host.exact;
	if (getenv("AGREP_GPU_STATS") != NULL)
		fprintf(stderr, "agrep-gpu: host: %d workers, %s instruction "
		    "set\n", S.nw, cpu_level_name(cpu_level()));
	/* Ranges of half a chunk, the other half for the record at its end;
	 * not tiny even when the chunks are (AGREP_GPU_CHUNK in tests). */
	S.range = cap / 2 > RANGE_MIN ? cap / 2 : RANGE_MIN;
	/* The host's cost per byte, in patterns of one word (work): with
	 * the shared filter (multi.c) the covered patterns cost about MF_WORK
	 * patterns' scan together; a device scans every pattern word (dev).
	 * Work sets the size below which a file stays one job and the range
	 * size; dev goes into the planner's device model. */
	size_t work = 0, dev = 0;
	for (size_t p = 0; p < ps->npat; p++)
		dev += ps->pat[p].nwords;
	dev += ps->nre;		/* (the automaton kernel: a launch each) */
	/* (AGREP_GPU_HOST_ENGINE, for tests: the filter's engines only) */
	int eng = hm_engine();
	const struct mflt *mf = S.exact || (eng >= 0 &&
	    eng != HM_ENGINE_MULTI) ? NULL : mf_auto(ps, o->eol);
	if (mf != NULL) {
		mf_covered(mf, ps, &work);
		work += MF_WORK;
	}
	if (mf == NULL || work >= dev)
		work = dev;
	work = work > 0 ? work : 1;
	/* The planner decides in automatic mode; a device asked for takes
	 * every scan; AGREP_GPU_HOST_MAX (tests, benchmarks) sends the
	 * inputs larger than it to the devices. */
	enum plan_mode mode = o->device != NULL && strcmp(o->device, "host") ==
	    0 ? PLAN_HOST : auto_device() ? PLAN_AUTO : PLAN_DEVICE;
	S.host_max = o->host_max != SIZE_MAX ? o->host_max :
	    mode == PLAN_DEVICE ? 0 : SIZE_MAX;
	plan_init(mode, S.nw, dev, scan_re_ok(ps) ? PLAN_RE :
	    scan_pp_likely(ps) || scan_hamming_ok(ps) ? PLAN_PP : PLAN_MYERS);
	S.host_slow = work > 4;
	S.split_min = o->chunk ? 0 : (S.exact ? SPLIT_MIN_EXACT : SPLIT_MIN) /
	    work;
	/* Then the scan dominates: smaller ranges share it out better over
	 * several devices. */
	if (S.host_slow && S.range > RANGE_SLOW)
		S.range = RANGE_SLOW;
	/* Patterns past PAT_MAXLEN (k = 0 only) and the automata of
	 * expressions (regex.c) are the host's (hm_scan), but for one
	 * expression alone that the automaton kernel takes (scan.c,
	 * scan_re_ok); so is the exact search (memmem) unless a device was
	 * asked for. */
	/* Weighted costs have the automaton kernel only (scan_re_ok: a
	 * few automata of one word), else the host's hm_weighted;
	 * --no-indels the pattern-parallel one only (scan_hamming_ok), else
	 * hm_hamming. */
	if (mode == PLAN_HOST || (ps->hamming && !scan_hamming_ok(ps)) ||
	    (ps->weighted && !scan_re_ok(ps)) || (S.exact && mode == PLAN_AUTO &&
	    o->host_max == SIZE_MAX) || ps->maxlen > PAT_MAXLEN ||
	    (ps->nre > 0 && !scan_re_ok(ps)))
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
	return pats->npat + pats->nre > 0 && !pats->all_lines;
}

/* Returns the run's options. */
const struct options *
search_options(void)
{
	return opt;
}

/* Returns 1 when the run ended with a device still opening (search_end):
 * the process must end with _exit. */
int
search_abandoned(void)
{
	return S.abandoned;
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
	/* Devices still being opened are waited for, unless they were found
	 * (so there is nothing to report) and only their programs are being
	 * built: then nothing waits for them, the search is done, and the
	 * process ends without them (search_abandoned). */
	pthread_mutex_lock(&S.mu);
	if ((S.dev_state == 2 || S.opening) && S.dev_found &&
	    plan_mode() == PLAN_AUTO)
		S.abandoned = 1;
	while ((S.dev_state == 2 || S.opening) && !S.abandoned)
		pthread_cond_wait(&S.cv, &S.mu);
	pthread_mutex_unlock(&S.mu);
	plan_mark(S.abandoned ? "the search is done (devices still opening "
	    "are left)" : "the search is done; closing");
	if (S.abandoned)
		return;
	if (S.devmsg.len > 0)
		pool_msg(S.devmsg.buf, S.devmsg.len);
	free(S.devmsg.buf);
	S.devmsg.buf = NULL;
	for (int i = S.nw - 1; i >= 0; i--) {
		for (int d = S.w[i].ndev - 1; d >= 0; d--)
			scan_close(&S.w[i].dev[d]);
		scan_close(&S.w[i].host);
	}
	util_free_big(S.hostmem);
	S.hostmem = NULL;
	devq_end();
	/* (the opener may publish the same count once more: atomic) */
	const int nd = __atomic_load_n(&S.ndev, __ATOMIC_ACQUIRE);
	for (int i = nd - 1; i >= 0; i--)
		scan_close(&S.dev[i]);
	plan_mark("closed");
	plan_end();
	free(S.w);
	S.w = NULL;
}

/* Waits for a slot's scan (submitted says whether it started); if the
 * device failed, scans the slot with the host matcher instead, after one
 * warning.  Returns the bitmap. */
const uint64_t *
scan_finish(struct scanner *s, int slot, int submitted)
{
	static int warned;
	const uint64_t *bm = submitted ? scan_wait(s, slot) : NULL;

	if (bm == NULL) {
		if (!__atomic_fetch_add(&warned, 1, __ATOMIC_RELAXED))
			warnx_("warning: device scan failed; "
			    "using the host matcher");
		bm = scan_rescan(s, slot);
	}
	return bm;
}

/* Tells the next out_chunk what the scan of a slot found of NULs
 * (SCAN_ZAP: the first, made a terminator, or none), where it looked. */
void
scan_nul_note(struct fstate *fs, const struct scanner *s, int slot)
{
	const size_t z = scan_nul_at(s, slot);

	if (z == SCAN_NUL_NONE)
		fs->nonul = 1;
	else if (z != SCAN_NUL_UNKNOWN)
		fs->nul_at = z + 1;
}

/* Scans a slot's chunk with the host matcher (after a device's scan that
 * failed or that its chunk's NULs made wrong); returns the bitmap. */
const uint64_t *
scan_rescan(struct scanner *s, int slot)
{
	struct scan_slot *sl = &s->slot[slot];

	hm_scan(pats, sl->buf, s->pad, sl->len, s->eol, sl->bm);
	sl->rc_done = 0;	/* a bitmap, not counts */
	return sl->bm;
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

/* in_fill_paced's and dz_fill_paced's question: whether -q ended the
 * run. */
static int
quit(void *arg)
{
	(void)arg;
	return pool_quit();
}

/* Reads into a slot; with --line-buffered whatever one read() brings, so
 * that records are printed as they arrive; from a pipe or a terminal what
 * has come when it pauses (in_fill_paced). */
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
		/* A decoder's: its bytes follow in the same read, so that
		 * the prefill's end (where the spans gave up: range.c) is no
		 * buffer's end, as it was none in the decoded stream (where
		 * a NUL byte makes records binary depends on that) */
		int short_dz = 0;
		if ((size_t)n < want && w->dz != NULL && !opt->line_buffered) {
			ssize_t m = dz_fill_paced(w->dz, buf + n, want -
			    (size_t)n, eof, opt->eol, quit, NULL);
			if (m > 0) {
				w->read_pos += (uint64_t)m;
				w->read_left -= (uint64_t)m;
				n += m;
			}
			short_dz = (size_t)n < want && !*eof;
		}
		/* (from a pipe, what came first is searched before more is
		 * waited for, as in_fill_paced's bytes are: zin_open's) */
		struct stat st;
		w->paused = short_dz || (w->prefill_len == 0 && w->dz == NULL &&
		    !opt->line_buffered && fstat(fd, &st) == 0 &&
		    !S_ISREG(st.st_mode));
		return n;
	}
	struct stat st;
	w->paused = 0;
	if (w->dz == NULL && !opt->line_buffered && fstat(fd, &st) == 0 &&
	    !S_ISREG(st.st_mode)) {
		n = in_fill_paced(fd, buf, want, eof, opt->eol, quit, NULL);
		w->paused = n >= 0 && (size_t)n < want && !*eof;
	} else if (w->dz != NULL && !opt->line_buffered) {
		/* (paced too where the compressed input is a pipe) */
		n = dz_fill_paced(w->dz, buf, want, eof, opt->eol, quit, NULL);
		w->paused = n >= 0 && (size_t)n < want && !*eof;
	} else
		n = w->dz != NULL ? dz_fill(w->dz, buf, want, eof,
		    opt->line_buffered) : in_fill(fd, buf, want, eof,
		    opt->line_buffered, pool_threaded() ? 1 : 8);
	if (n > 0) {
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
 * printed, so memory stays bounded.  In UTF-8 mode a piece ends at a
 * character and the next one begins with the last bytes of it again
 * (keep: enough for n + k - 1 characters of 4 bytes): the scan then sees
 * the characters whole, and the overlap's hits are real ones.  Leaves the
 * bytes after the record at the start of the slot (*have of them).
 * Returns 0, or -1 after a message.
 */
int
long_record(struct searcher *w, int fd, struct fstate *fs, struct scanner *s,
    int cur, size_t *have, int *eof)
{
	const size_t ovl = 4 * (pats->maxlen + (size_t)pats->k) + 8;
	unsigned char *chunk;
	FILE *tmp = w->collect ? NULL : tmpfile();
	const uint64_t start = w->read_pos - *have;
	uintmax_t len = 0;
	int hit = 0, binary = 0, warm = 0;
	const unsigned char *t;
	size_t n = *have, keep = 0;
	ssize_t got;

	if (tmp == NULL && w->collect == NULL) {
		warnx_("temporary file: %s", strerror(errno));
		return -1;
	}
	if (pats->u8 != NULL && s->cap < 4 * ovl)
		scan_grow(s, 4 * ovl);
	chunk = scan_chunk(s, cur);
	for (;;) {
		t = memchr(chunk + keep, opt->eol, n - keep);
		size_t plen = t ? (size_t)(t - chunk) : n;
		/* a piece ends at a character (UTF-8 mode) */
		size_t cut = t || *eof || pats->u8 == NULL ? 0 : u8_tail(chunk, n);
		if (plen > keep && pats->all_lines)
			hit = 1;
		else if (plen > keep && pats->npat + pats->nre > 0 &&
		    w->premade == NULL) {
			int ok = scan_submit(s, cur, t ? plen + 1 : n - cut, n,
			    warm ? SCAN_WARM : 0) == 0;
			hit |= bits_next(scan_finish(s, cur, ok), 0,
			    plen - cut) < plen - cut;
		}
		if (plen > keep && tmp != NULL) {
			binary |= memchr(chunk + keep, '\0', plen - keep) != NULL;
			if (fwrite(chunk + keep, 1, plen - keep, tmp) !=
			    plen - keep) {
				warnx_("temporary file: %s", strerror(errno));
				fclose(tmp);
				return -1;
			}
			len += plen - keep;
		}
		if (t != NULL || *eof) {
			*have = t ? n - plen - 1 : 0;
			if (t != NULL)
				memmove(chunk, t + 1, *have);
			break;
		}
		if (pats->u8 != NULL) {
			/* The next piece begins with this one's end. */
			keep = n < ovl ? n : ovl;
			memmove(chunk, chunk + n - keep, keep);
		} else {
			/* The next piece's warm-up: the last pad bytes so
			 * far. */
			memmove(chunk - s->pad, chunk + n - s->pad, s->pad);
			warm = 1;
		}
		if ((got = fill(w, fd, chunk + keep, s->cap - keep, eof)) < 0) {
			warnx_("%s: %s", fs->name, strerror(errno));
			if (tmp != NULL)
				fclose(tmp);
			return -1;
		}
		n = keep + (size_t)got;
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
 * options or the expressions (pattern.h: whole) need it whole in memory? */
int
stream_long(void)
{
	return !(pats->whole || opt->word || opt->line || opt->show_cost ||
	    opt->best || opt->only || opt->color || opt->before > 0 ||
	    opt->show_edits);
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
		for (size_t j = g->hist; (j = bits_next(bm, j, g->len)) <
		    g->len;) {
			const unsigned char *t = memchr(chunk + j, opt->eol,
			    g->len - j);
			hits_add(r->w->collect, g->base + j);
			j = t ? (size_t)(t - chunk) + 1 : g->len;
		}
	} else if (!fs->done) {
		if (r->scan && r->w->premade == NULL)
			scan_nul_note(fs, g->s, g->slot);
		out_chunk(fs, chunk, g->hist, g->len, bm);
	}
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
	r->scan = pats->npat + pats->nre > 0 && !pats->all_lines;
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
int
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
	if (w->read_pos == g->have)
		zin_note(fs->name, scan_chunk(g->s, g->slot), g->have);
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
			    g->have, out_nul_binary() ? SCAN_ZAP : 0) == 0;
		r.count++;
		next = (next + 1) % r.size;
		if (r.eof && g->have == g->len)
			break;
		while (r.count >= r.depth || (w->paused && r.count > 0))
			ring_pop(&r, fs);
		if (w->paused)
			pool_flush();	/* (a terminal's: pool.c) */
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
int
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
	struct dz *z = NULL;
	unsigned char first[DZ_SNIFFLEN];
	size_t nfirst = 0;
	const int have = fstat(fd, &st) == 0;
	/* (a directory is read as it is: its read fails as grep's does) */
	if (opt->decompress && !(have && S_ISDIR(st.st_mode))) {
		z = zin_open(fd, path, have && S_ISREG(st.st_mode), &rc, first,
		    &nfirst);
		if (rc) {
			close(fd);
			return -1;
		}
	}
	out_file_start(&fs, path, show_name);
	if (opt->initial_tab)
		out_file_size(&fs, z == NULL && fstat(fd, &st) == 0 &&
		    S_ISREG(st.st_mode) ? (long long)st.st_size : -1);
	rc = zin_search(w, z, fd, &fs, path, first, nfirst);
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
