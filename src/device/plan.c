/*
 * plan.c: the planner.  It decides where the ranges of a large input are
 * scanned, from a throughput model that is measured, not assumed:
 *
 *  - the host: bytes per second of one worker, first from a probe (the
 *    host matcher timed over the first bytes of the input, whatever the
 *    patterns and filters make of them), then from the ranges the workers
 *    finish;
 *  - a device: seconds per byte = 1 / feed + work / wps, where work is the
 *    patterns' 64-bit words (what the kernels scan per text byte), feed the
 *    rate at which one pattern word is scanned (the copy and the launch
 *    dominate) and wps the word-bytes per second of a kernel-bound scan;
 *    plus its start-up (context, program).  A GPU running the
 *    pattern-parallel kernel is a device of its own name (PLAN_PP_SUFFIX),
 *    its wps twice the other kernels'; so is one running the automaton
 *    of an expression (PLAN_RE_SUFFIX).  A start-up is kept with the
 *    number of GPUs the driver listed (plan_listed).  The figures of the
 *    devices opened before are cached ($XDG_CACHE_HOME/agrep-gpu/plan.txt,
 *    updated at the end of each run that measured them; delete the file,
 *    or set AGREP_GPU_PLAN_RESET, to start from the built-in priors;
 *    nothing is read or written with AGREP_GPU_NO_CACHE); during the run,
 *    a device's own rate (bytes over the time it was busy) replaces the
 *    model as soon as it finished two ranges.  A start-up is measured
 *    only where a GPU opens: where the cached one alone keeps it closed,
 *    the cache's figure moves halfway back to the prior each run
 *    (start_explored).
 *
 * The rule (AGREP_GPU_STATS=1 prints the figures and each decision):
 *  - the devices are started for a file when the host and the devices
 *    together would finish in OPEN_GAIN of the host alone's time, the
 *    start-up counted OPEN_BUSY times (see plan_start_devices);
 *  - a range goes to a device with a free slot, unless reading and
 *    formatting a device range costs the host's cores more than half what
 *    scanning it on the host does; when there is none (or the
 *    device is still starting), the host takes it if it would finish it
 *    before the devices get to it (ranges are formatted in input order: a
 *    slow host range would hold up the device ranges after it), else the
 *    range waits for a device slot.  So the host and the devices share a
 *    file by their measured speeds, and neither waits on a slow range of
 *    the other.
 * --device=host keeps everything on the host; --device=gpu, N, all... put
 * every scan on the devices (the host reads and formats).
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ocl.h"
#include "plan.h"
#include "../base/util.h"

/* Priors, for a device never measured on this machine.  A GPU: H100,
 * 2026-11-24/25 (bench/results/h100.md): one pattern ~12 GB/s from ready
 * (feed), 1,000 primers of one word 1 GiB in 2.1 s (5e11 word-bytes/s),
 * 0.45 s to start.  POCL on the 2-core machine: 1.5 GB/s for one pattern,
 * 100 patterns over 34 MB in 1.7 s (2e9 word-bytes/s). */
#define GPU_FEED	12e9
#define GPU_WPS		5e11
#define GPU_START	0.5
#define PP_WPS		1e12	/* the pattern-parallel kernel (1,000 primers
				 * over 1 GiB in 0.87-1.09 s from ready) */
#define CPU_FEED	1.5e9
#define CPU_WPS		2e9
#define CPU_START	0.2
#define CACHE_MAX	32		/* devices remembered */
#define OPEN_LATE	0.1		/* s: see plan_place */
/* Opening a device while the host's workers search: an H200 machine, 16
 * workers, 8.6 GB, a 57-byte phrase -k8: 0.62 s, against 0.28 s with the
 * workers idle.  Starting it there for a host-alone estimate of 1.16 s
 * took 1.29 s against the host's 1.03 s (bench/results/h200.md). */
#define OPEN_BUSY	2.0
/* The gain the start asks for.  The model's "both" (the host's rate plus
 * the GPU's alone) is kind: on one H200 machine, 1 GiB -c -k1 -f 1,000
 * random words ran 1.42-1.47 s by default against the host's 1.50-1.68
 * (a gain of 0.9 where the model says about 0.65), and the 57-byte phrase
 * -k8 over 8.6 GB, started at a model's 0.81 (both 0.68 s against the
 * host's 0.844 by a probe of 636 MB/s a worker), took 1.19 s against the
 * host's 0.91-1.01 (2026-11-28, bench/results/h200.md).  0.8 before. */
#define OPEN_GAIN	0.7
#define CPU_GAIN	0.8		/* a CPU device's (POCL's) instead */
#define DEV_CPU_SHARE	0.5		/* see dev_cpu_pays */
#define DEV_CLOSE	0.1		/* s: closing a GPU's context (an H200:
					 * 0.08-0.1 s, bench/clstart.c) */
/* Seconds of the host's cores a byte scanned on a device costs (reading it
 * into a slot, formatting it), before a run measures it: H100 machine,
 * 8.6 GB -c -k2 mercy, GPU alone, 3.7 s reading and 2.8 s formatting. */
#define DEV_HOST_COST	0.76e-9
/* Seconds of fixed time a GPU adds to a run, listed, opened and closed
 * (four H200s, 3.1 GB genome, 624 pattern words: 2.14-2.35 s on one, 2.06
 * on two, 2.68-3.05 on four; 10,000 primers over 1 GiB: 8.28, 5.05, 3.96
 * s; listing alone 0.2 s a GPU, closing 0.1). */
#define GPU_EACH	0.6
/* The host's ranges that decide again where the GPUs were declined
 * (plan_host_done); that decision asks the start's gain.  One H200
 * machine, 8.6 GB -c -k8 57-byte phrase: the first 4 ranges ran 512 MB/s
 * a worker (the probe 823, the whole run 651), a gain of 0.8 started the
 * GPU (both 0.72 s against the host's 1.04, by the GPU's rate alone),
 * which then ran 10.2 GB/s while busy (18.8 alone) and opened in 0.42 s
 * beside the workers: 0.96 s against 0.83 for the host alone.  A gain of
 * 0.6 kept that off, and kept off one the late decision is for: four
 * H200s, 1,000 primers -k4 over 1 GiB, a start-up cached from four GPUs
 * opened at once (0.92 s) declined the one GPU, the first ranges ran at
 * the probe's 5.5 MB/s a worker (a gain of 0.70), the rest at 2.8: 5.9 s
 * against 1.5-1.7 with the GPU.  Now gpu_pays counts the GPU's rate beside
 * busy workers (the phrase: 0.74, not taken) and the gain is OPEN_GAIN.
 * (Four H200s, a 3.1 GB genome, 624 pattern words: the workers at 6.9 MB/s
 * each, 7.5 s, against 2.1-2.3 s on the GPUs, wins by far more.) */
#define LATE_RANGES	4
/* Seconds each GPU the driver lists adds to the first one's start-up
 * (it starts every GPU it lists, and the contexts open side by side): two
 * H200s, listing 0.156 s with one visible, 0.376 with both, contexts
 * 0.151 against 0.26 s (bench/results/h200x2.md run 14); four H200s, the
 * first ready at 0.34-0.86 s alone, 1.35-1.46 s with all four (h200.md,
 * session 5).  A start-up cached from one count is moved by it to the
 * count this run lists (plan_listed): a four-GPU run's 1.4 s had kept a
 * one-GPU run from opening. */
#define GPU_LIST_EACH	0.3

struct model {
	char		 name[128];
	int		 gpu;
	double		 feed, wps, start;
	int		 listed;	/* GPUs the driver listed when start
					 * was measured (0: not known) */
};

struct devrun {
	int		 open;
	struct model	 m;
	int		 cached;	/* m came from the cache */
	uint64_t	 bytes;		/* scanned */
	int		 ranges;
	double		 busy;		/* seconds with a range in flight */
	double		 last;		/* when the last range finished */
	double		 first;		/* when the first range was handed */
	double		 fill;		/* seconds the workers spent reading
					 * its ranges */
	double		 submit;	/* and starting their scans (the
					 * OpenCL calls) */
	double		 fmt;		/* seconds its threads formatted */
	double		 flight;	/* summed seconds from handing ranges
					 * over to their scans' end */
};

static struct {
	pthread_mutex_t	 mu;
	enum plan_mode	 mode;
	int		 workers;
	double		 work;		/* pattern words */
	int		 stats;
	int		 probed;
	double		 host_rate;	/* bytes/s per worker: probe */
	uint64_t	 host_bytes;	/* ranges finished on the host */
	double		 host_secs;
	int		 host_ranges;
	struct model	 cache[CACHE_MAX];
	int		 ncache;
	struct model	 expect;	/* the device expected before one
					 * opens */
	int		 expect_cached;
	int		 listed;	/* GPUs this run lists (0: not known) */
	struct devrun	 dev[OCL_MAXDEV];
	int		 ndev;
	uint64_t	 size;		/* the input the devices started for
					 * (0: a stream, not known) */
	int		 declined;	/* plan_start_devices said the host
					 * alone (a GPU expected, size known) */
	int		 late;		/* ... and the host's own ranges then
					 * said otherwise (plan_late) */
	long		 placed_host;	/* no free slot: ranges the rule gave */
	long		 placed_dev;
	double		 t0;		/* plan_init */
} P = { .mu = PTHREAD_MUTEX_INITIALIZER };

/* Reads the cache: one device a line, "name<TAB>gpu feed wps start
 * listed" (listed: the GPUs listed when start was measured, 0 not known;
 * a line without it is read as 0), the one opened last first.  A damaged
 * line is skipped. */
static void
cache_read(void)
{
	char path[4200], line[512];
	FILE *f;

	if (getenv("AGREP_GPU_PLAN_RESET") != NULL ||
	    util_cache_file(path, sizeof(path), "plan.txt", 0) == -1 ||
	    (f = fopen(path, "r")) == NULL)
		return;
	while (P.ncache < CACHE_MAX && fgets(line, sizeof(line), f) != NULL) {
		struct model m;
		char *tab = strchr(line, '\t');
		if (tab == NULL || (size_t)(tab - line) >= sizeof(m.name))
			continue;
		memcpy(m.name, line, (size_t)(tab - line));
		m.name[tab - line] = '\0';
		m.listed = 0;
		const int nf = sscanf(tab + 1, "%d %lf %lf %lf %d", &m.gpu,
		    &m.feed, &m.wps, &m.start, &m.listed);
		if (nf < 4 || !(m.feed > 0) || !(m.wps > 0) ||
		    !(m.start >= 0) || m.feed > 1e13 || m.wps > 1e16 ||
		    m.start > 600 || m.listed < 0 || m.listed > 64)
			continue;
		P.cache[P.ncache++] = m;
	}
	fclose(f);
}

/* A cache line (cache_read). */
static void
model_put(FILE *f, const struct model *m)
{
	fprintf(f, "%s\t%d %.6g %.6g %.6g %d\n", m->name, m->gpu, m->feed,
	    m->wps, m->start, m->listed);
}

/* Writes the cache: the devices of this run first, then the others. */
static void
cache_write(void)
{
	char path[4200], tmp[4300];
	FILE *f;

	if (util_cache_file(path, sizeof(path), "plan.txt", 1) == -1)
		return;
	snprintf(tmp, sizeof(tmp), "%s.%ld", path, (long)getpid());
	if ((f = fopen(tmp, "w")) == NULL)
		return;
	for (int i = 0; i < P.ndev; i++)
		if (P.dev[i].open)
			model_put(f, &P.dev[i].m);
	for (int c = 0; c < P.ncache; c++) {
		int dup = 0;
		for (int i = 0; i < P.ndev; i++)
			dup |= P.dev[i].open &&
			    strcmp(P.dev[i].m.name, P.cache[c].name) == 0;
		if (!dup)
			model_put(f, &P.cache[c]);
	}
	if (fclose(f) != 0)
		unlink(tmp);
	else
		(void)util_cache_replace(tmp, path);
}

static struct model
prior(const char *name, int gpu)
{
	struct model m = { .gpu = gpu, .feed = gpu ? GPU_FEED : CPU_FEED,
	    .wps = gpu ? GPU_WPS : CPU_WPS, .start = gpu ? GPU_START :
	    CPU_START };

	snprintf(m.name, sizeof(m.name), "%s", name);
	return m;
}

/* The model's bytes per second for this run's patterns. */
static double
model_rate(const struct model *m)
{
	return 1.0 / (1.0 / m->feed + P.work / m->wps);
}

/* Whether a name ends with suffix. */
static int
ends_with(const char *name, const char *suffix)
{
	size_t n = strlen(name), m = strlen(suffix);

	return n >= m && strcmp(name + n - m, suffix) == 0;
}

/* The kernel a device model's name says it ran. */
static enum plan_kernel
kernel_of(const char *name)
{
	return ends_with(name, PLAN_PP_SUFFIX) ? PLAN_PP :
	    ends_with(name, PLAN_RE_SUFFIX) ? PLAN_RE : PLAN_MYERS;
}

/*
 * Starts the plan of a run: mode, host workers, the patterns' words, and
 * the kernel a GPU would run them with (the pattern-parallel kernel's
 * figures, the automaton's, are kept apart from the others': scan.c,
 * pp_wanted, scan_re_ok).
 */
void
plan_init(enum plan_mode mode, int workers, size_t dev_work,
    enum plan_kernel kernel)
{
	P.mode = mode;
	P.workers = workers > 0 ? workers : 1;
	P.work = dev_work > 0 ? (double)dev_work : 1;
	P.stats = getenv("AGREP_GPU_STATS") != NULL;
	P.t0 = util_now();
	if (mode == PLAN_HOST)
		return;
	cache_read();
	/* Before a device opens, the one opened last is expected (a GPU
	 * where none was ever measured). */
	P.expect = prior("(a GPU)", 1);
	for (int c = 0; c < P.ncache; c++)
		if (kernel_of(P.cache[c].name) == kernel) {
			P.expect = P.cache[c];
			P.expect_cached = 1;
			break;
		}
}

enum plan_mode
plan_mode(void)
{
	return P.mode;
}

int
plan_probed(void)
{
	return __atomic_load_n(&P.probed, __ATOMIC_ACQUIRE);
}

/* The host matcher took secs over len bytes of the input (search.c's
 * probe, once per run): the host's rate per worker until ranges measure
 * it. */
void
plan_probe(size_t len, double secs)
{
	pthread_mutex_lock(&P.mu);
	if (!P.probed) {
		P.host_rate = (double)len / (secs > 1e-6 ? secs : 1e-6);
		__atomic_store_n(&P.probed, 1, __ATOMIC_RELEASE);
		if (P.stats)
			fprintf(stderr, "agrep-gpu: plan: at %.3f s: host "
			    "probe: %zu bytes in %.2f ms: %.1f MB/s a worker, "
			    "%d workers\n", util_now() - P.t0, len, secs * 1e3,
			    P.host_rate / 1e6, P.workers);
	}
	pthread_mutex_unlock(&P.mu);
}

/* The host probe's bytes per second per worker (0: no probe yet). */
double
plan_host_rate(void)
{
	pthread_mutex_lock(&P.mu);
	const double r = P.probed ? P.host_rate : 0;
	pthread_mutex_unlock(&P.mu);
	return r;
}

/* The host's bytes per second per worker (0: not known). */
static double
host_rate(void)
{
	if (P.host_ranges >= 2 && P.host_secs > 0)
		return (double)P.host_bytes / P.host_secs;
	return P.probed ? P.host_rate : 0;
}

/* Device d's bytes per second: what it achieved since its first range,
 * once it finished two (a device fed by the workers is no faster than
 * they fill it, however fast it scans while busy), else the model's.
 * P.mu held. */
static double
one_rate(const struct devrun *d)
{
	return d->ranges >= 2 && d->last > d->first ? (double)d->bytes /
	    (d->last - d->first) : model_rate(&d->m);
}

/* The same, for devq.c. */
double
plan_dev_rate(int dev)
{
	double r;

	if (dev < 0 || dev >= OCL_MAXDEV)
		return 0;
	pthread_mutex_lock(&P.mu);
	r = P.dev[dev].open ? one_rate(&P.dev[dev]) : 0;
	pthread_mutex_unlock(&P.mu);
	return r;
}

/* The devices' bytes per second together (the one expected when none is
 * open yet). */
static double
dev_rate(void)
{
	double r = 0;
	int open = 0;

	for (int i = 0; i < P.ndev; i++) {
		const struct devrun *d = &P.dev[i];
		if (!d->open)
			continue;
		open = 1;
		r += one_rate(d);
	}
	return open ? r : model_rate(&P.expect);
}

/*
 * Does a device range cost the host less than scanning it itself?  A
 * device range costs the host's cores too: a worker reads it into the slot
 * and a device thread formats it.  Where that costs about what the host's
 * own scan does (a search the host does at 1 GB/s a core: 8.6 GB -c -k2
 * mercy on the H100 machine, where reading and formatting a device range
 * cost 0.65 ns a byte against 1 ns, yet the mix ran 1.12 s against 0.71 s
 * for the host alone), the device adds threads, not speed.  Measured from
 * the ranges so far; until then, yes.  P.mu held.
 */
static int
dev_cpu_pays(void)
{
	uint64_t bytes = 0;
	double cpu = 0, hr = host_rate();
	int ranges = 0;

	for (int i = 0; i < P.ndev; i++) {
		bytes += P.dev[i].bytes;
		cpu += P.dev[i].fill + P.dev[i].submit + P.dev[i].fmt;
		ranges += P.dev[i].ranges;
	}
	if (ranges < 4 || bytes == 0 || hr <= 0)
		return 1;
	return cpu / (double)bytes < DEV_CPU_SHARE / hr;
}

/*
 * Should the devices be started for an input of size bytes?  In automatic
 * mode: when the host and the devices together would finish clearly
 * (OPEN_GAIN) sooner than the host alone.  The devices open while the host
 * searches, and opening beside busy workers takes about twice the start-up
 * measured (OPEN_BUSY); then both search the rest.  Needs the probe.
 */
/* Does a GPU pay for size bytes the host's workers scan at hr bytes a
 * second together (the expected device's model)?  Where the host and it
 * together, after its start-up (OPEN_BUSY of it: the workers search
 * meanwhile), would finish in OPEN_GAIN of the host's time alone (the
 * start and the late decision alike); and not where a device range would
 * cost the host's cores about what its own scan does (see dev_cpu_pays).
 * P.mu held. */
static int
gpu_pays(double size, double hr)
{
	double host_s = hr > 0 ? size / hr : INFINITY;
	double dev_s = P.expect.start + size / model_rate(&P.expect);
	double open = OPEN_BUSY * P.expect.start;
	/* While the workers read at hr, the GPU's feed reads beside them from
	 * the same memory: the two together no faster than its feed alone
	 * (one H200, the 57-byte phrase over 8.6 GB: the workers at 8.2 GB/s,
	 * the GPU 10.2 GB/s while busy against 18.8 alone, its feed 19.6) */
	struct model beside = P.expect;
	beside.feed = P.expect.feed - hr;
	double busy = beside.feed > 0 ? model_rate(&beside) : 0;
	double both = open + (size - hr * open) / (hr + busy);

	return host_s > open && both < OPEN_GAIN * host_s &&
	    dev_s < host_s * 4 && DEV_HOST_COST < DEV_CPU_SHARE * P.workers / hr;
}

/*
 * The GPU declined for size bytes (hr: the host's rate): where its cached
 * start-up alone decides (with the prior's it would pay), that figure
 * moves halfway back to the prior in the cache, so that a few runs later
 * the GPU opens and its start is measured again.  A start-up is only
 * measured where the GPU opens: without this, one slow open (a fresh
 * machine's first: an H100, 1.16 s against 0.28 after) kept it closed
 * for good where it paid.  Where the start is truly slow, each
 * measurement moves the figure back up (plan_dev_open).  Returns the
 * cache entry's index + 1 if it moved, else 0.  P.mu held.
 */
static int
start_explored(double size, double hr)
{
	struct model was = P.expect;
	int pays, c;

	if (!P.expect_cached || P.expect.start <= GPU_START)
		return 0;
	P.expect.start = GPU_START;
	pays = gpu_pays(size, hr);
	P.expect = was;
	if (!pays)
		return 0;
	for (c = 0; c < P.ncache; c++)
		if (strcmp(P.cache[c].name, was.name) == 0)
			break;
	if (c == P.ncache)
		return 0;
	P.cache[c].start = GPU_START + (was.start - GPU_START) / 2;
	return c + 1;
}

int
plan_start_devices(uint64_t size, int known)
{
	int go, explore = 0;

	if (P.mode != PLAN_AUTO)
		return P.mode == PLAN_DEVICE;
	pthread_mutex_lock(&P.mu);
	P.size = known ? size : 0;
	double hr = host_rate() * P.workers;
	double host_s = hr > 0 ? (double)size / hr : INFINITY;
	double dev_s = P.expect.start + (double)size / model_rate(&P.expect);
	/* A CPU device runs on the host's own cores: beside the host it
	 * adds no speed, it can only replace it, so it starts where it would
	 * finish clearly sooner alone.  Its rate is a scan's, so the host's
	 * is the probe's: a stream's ranges measured 220 MB/s a worker
	 * against the probe's 1,175 (the reader and cat share the 2 cores),
	 * and POCL was started for 64 MB of Bible through a pipe. */
	if (!P.expect.gpu) {
		double pr = (P.probed ? P.host_rate : host_rate()) * P.workers;
		go = pr > 0 && dev_s < CPU_GAIN * (double)size / pr;
	} else {
		go = gpu_pays((double)size, hr);
		P.declined = !go && known;
		if (P.declined)
			explore = start_explored((double)size, hr);
	}
	if (P.stats)
		fprintf(stderr, "agrep-gpu: plan: %llu bytes: the host alone "
		    "%.3f s; %s (%s) %.2f GB/s for %.0f pattern words, start "
		    "%.2f s: %s\n", (unsigned long long)size, host_s,
		    P.expect.name, P.expect_cached ? "cached" : "prior",
		    model_rate(&P.expect) / 1e9, P.work, P.expect.start,
		    go ? "start the devices" : "the host alone");
	if (explore && P.stats)
		fprintf(stderr, "agrep-gpu: plan: only the cached start-up "
		    "keeps the GPU closed: the cache's figure moves to %.2f s, "
		    "to be measured again\n", P.cache[explore - 1].start);
	pthread_mutex_unlock(&P.mu);
	if (explore)
		cache_write();
	return go;
}

/*
 * Should the devices start opening now, before the host's probe (search.c:
 * devices_pay) has measured the host?  Where the patterns are so many that
 * the probe itself takes long while nothing scans (about EARLY_PROBE
 * seconds a pattern word: a second and more for 10,000 primers on the
 * four-H100 machine; 45-70 ms for 1,000 primers and 20 ms for 1,000 Bible
 * words on an H200's host), longer than half the GPU's start-up, and a GPU
 * measured on this machine would spend at least twice its start-up on the
 * input alone, in automatic mode (AGREP_GPU_EARLY=0: never; 1: from 16
 * pattern words, as before).  The open is in the background;
 * plan_start_devices and plan_place still decide what goes where once the
 * probe is in.  An open the probe then finds useless costs the host's run
 * its CPU and the close: one H200, 1,000 primers -k2 over 1 GiB (the seed
 * filter's), 0.70 s against 0.48 s for the host alone.
 */
#define EARLY_PROBE	50e-6
int
plan_open_early(uint64_t size)
{
	const char *e = getenv("AGREP_GPU_EARLY");
	int go;

	if (P.mode != PLAN_AUTO || (e != NULL && *e != '\0' && atoi(e) == 0))
		return 0;
	pthread_mutex_lock(&P.mu);
	go = P.expect.gpu && P.expect_cached && P.work >= 16 &&
	    (P.work * EARLY_PROBE > P.expect.start / 2 || (e != NULL &&
	    atoi(e) == 1)) &&
	    (double)size / model_rate(&P.expect) > 2 * P.expect.start;
	if (go)
		P.size = size;	/* (plan_open_together: several side by side) */
	pthread_mutex_unlock(&P.mu);
	if (go)
		plan_mark("the devices open early (many patterns)");
	return go;
}

/*
 * Before the first device opens: should the others open beside it rather
 * than one at a time (plan_more_devices)?  Always where devices were asked
 * for.  In automatic mode, for an input of known size, where plan_more_devices
 * would say yes at once, counting the first device at its expected rate:
 * what is left for the host and it takes longer than opening another
 * (OPEN_BUSY start-ups) and closing it.  Two H100s, 1,000 primers -k4 over
 * 1 GiB (0.6 GB/s a GPU): side by side 1.44-1.47 s, the second opened after
 * the first 1.54 s; 200 Bible words -k2 (4 GB/s): the first alone 1.07-1.10
 * s, both side by side 1.29 s (bench/results/h200x2.md run 11).
 */
int
plan_open_together(void)
{
	int go;

	if (P.mode != PLAN_AUTO)
		return 1;
	pthread_mutex_lock(&P.mu);
	double rate = host_rate() * P.workers + model_rate(&P.expect);
	double left = P.size > P.host_bytes && rate > 0 ?
	    (double)(P.size - P.host_bytes) / rate : 0;
	go = P.size > 0 && P.expect.gpu &&
	    left > OPEN_BUSY * P.expect.start + DEV_CLOSE;
	if (P.stats)
		fprintf(stderr, "agrep-gpu: plan: %.3f s of search left at "
		    "%.2f GB/s with the first device; the others open beside "
		    "it (%.3f s): %s\n", left, rate / 1e9, P.expect.start,
		    go ? "yes" : "no");
	pthread_mutex_unlock(&P.mu);
	return go;
}

/*
 * Should one more device open, now that some are open and searching?  In
 * automatic mode, for an input of known size: only where what is left
 * would take the host and the open devices longer than opening another
 * beside them (open_secs, as the last one took, OPEN_BUSY times) and
 * closing it (DEV_CLOSE).  Two H200s, 1 GiB, 200 Bible words -k2: the
 * second opened 0.25 s after the first, which had nearly done by then, and
 * its opening and closing made the run 1.24-1.48 s against 1.03-1.07 s on
 * the first alone.  1,000 primers -k4 (0.85 s on one): both 1.41 s, one
 * 1.56-1.61 s.
 */
int
plan_more_devices(double open_secs)
{
	uint64_t done;
	double rate, left;
	int go;

	if (P.mode != PLAN_AUTO)
		return 1;
	pthread_mutex_lock(&P.mu);
	done = P.host_bytes;
	rate = host_rate() * P.workers;
	for (int i = 0; i < P.ndev; i++) {
		done += P.dev[i].bytes;
		if (P.dev[i].open)
			rate += one_rate(&P.dev[i]);
	}
	left = P.size > done && rate > 0 ? (double)(P.size - done) / rate : 0;
	go = P.size == 0 || left > OPEN_BUSY * open_secs + DEV_CLOSE;
	if (P.stats)
		fprintf(stderr, "agrep-gpu: plan: at %.3f s: %.3f s of search "
		    "left at %.2f GB/s; another device to open (%.3f s): %s\n",
		    util_now() - P.t0, left, rate / 1e9, open_secs,
		    go ? "yes" : "no");
	pthread_mutex_unlock(&P.mu);
	return go;
}

/*
 * Where the next range goes: range bytes, dev_state as search.c's (1 open,
 * 2 opening, else none), queued: bytes in flight on the devices, slot_free:
 * a device slot is free now.  Ranges are formatted in input order, so a
 * range the host takes holds up every device range after it until the
 * host is done with it: the host takes a range only if it would finish it
 * before the devices get to it (their start-up left, then what they have
 * in flight), else the range waits for a device slot.
 */
enum plan_where
plan_place(uint64_t range, int dev_state, uint64_t queued, int slot_free)
{
	enum plan_where w;

	if (P.mode == PLAN_HOST || (dev_state != 1 && dev_state != 2))
		return PLAN_ON_HOST;
	if (P.mode == PLAN_DEVICE)
		return PLAN_ON_DEVICE;
	pthread_mutex_lock(&P.mu);
	if (dev_state == 1 && slot_free) {
		w = dev_cpu_pays() ? PLAN_ON_DEVICE : PLAN_ON_HOST;
		pthread_mutex_unlock(&P.mu);
		return w;
	}
	double hr = host_rate();
	double host_s = hr > 0 ? (double)range / hr : 0;
	double start_left = 0;
	if (dev_state == 2) {
		/* (a device late to open, e.g. building its program for the
		 * first time, still leaves the host time for short ranges) */
		start_left = P.expect.start - (util_now() - P.t0);
		start_left = start_left > OPEN_LATE ? start_left : OPEN_LATE;
	}
	double dev_s = start_left + (double)queued / dev_rate();
	w = host_s <= dev_s ? PLAN_ON_HOST : PLAN_ON_DEVICE;
	if (w == PLAN_ON_HOST)
		P.placed_host++;
	else
		P.placed_dev++;
	pthread_mutex_unlock(&P.mu);
	return w;
}

/*
 * A host worker finished a range of bytes in secs.  Where the GPUs were
 * declined for a file of known size, the first LATE_RANGES of the host's
 * own ranges decide again, at their rate, for what is left (plan_late):
 * the probe times one worker alone, and many workers scan slower each.
 * Four H200s, 64 workers, a 3.1 GB genome, 624 pattern words: the probe's
 * rate left the genome to the host, whose workers then ran at 6.9 MB/s
 * each: 7.5 s, against 2.1-2.3 s on the GPUs.
 */
void
plan_host_done(uint64_t bytes, double secs)
{
	pthread_mutex_lock(&P.mu);
	P.host_bytes += bytes;
	P.host_secs += secs;
	if (++P.host_ranges == LATE_RANGES && P.declined && P.size >
	    P.host_bytes && P.host_secs > 0) {
		const double hr = (double)P.host_bytes / P.host_secs *
		    P.workers;
		P.declined = 0;
		if (gpu_pays((double)(P.size - P.host_bytes), hr)) {
			__atomic_store_n(&P.late, 1, __ATOMIC_RELEASE);
			if (P.stats)
				fprintf(stderr, "agrep-gpu: plan: at %.3f s: "
				    "the host's first %d ranges ran %.1f MB/s "
				    "a worker (the probe %.1f): start the "
				    "devices for the %llu bytes left\n",
				    util_now() - P.t0, LATE_RANGES,
				    hr / P.workers / 1e6, P.host_rate / 1e6,
				    (unsigned long long)(P.size -
				    P.host_bytes));
		}
	}
	pthread_mutex_unlock(&P.mu);
}

/* Model m's start-up with n GPUs listed (GPU_LIST_EACH a GPU more or
 * less than when it was measured, not under half the prior's; as it is
 * where either count is not known).  Four H200s: a cached four-GPU
 * figure of 0.74-0.78 s (it moves a quarter of the way to a slower
 * measurement: the four opened in 1.21-1.33 s) became 0.05 s for one
 * GPU, which then opened in 0.38 s. */
static double
start_for(const struct model *m, int n)
{
	double s;

	if (n <= 0 || m->listed <= 0 || n == m->listed)
		return m->start;
	s = m->start + (n - m->listed) * GPU_LIST_EACH;
	return s > GPU_START / 2 ? s : GPU_START / 2;
}

/*
 * The driver is to list n GPUs in this run (search_gpus: those the
 * planner picked, CUDA_VISIBLE_DEVICES's, or every one present): the
 * expected device's start-up is moved to that count.
 */
void
plan_listed(int n)
{
	pthread_mutex_lock(&P.mu);
	P.listed = n;
	if (P.expect_cached && P.expect.gpu) {
		const double was = P.expect.start;
		P.expect.start = start_for(&P.expect, n);
		P.expect.listed = n;
		if (P.stats && P.expect.start != was)
			fprintf(stderr, "agrep-gpu: plan: %d GPUs listed: the "
			    "cached start-up %.2f s, measured with another "
			    "count, is taken as %.2f s\n", n, was,
			    P.expect.start);
	}
	pthread_mutex_unlock(&P.mu);
}

/*
 * How many of the machine's present GPUs (identical ones, by NVIDIA's
 * order) a run of size bytes should list and open, in automatic mode:
 * each costs about GPU_EACH seconds of fixed time (the driver starts
 * every GPU it lists, then its context, then its close), and the expected
 * device's model gives the seconds of work on one, W: n GPUs take about
 * n GPU_EACH + W / n.  0: all (not automatic, or nothing to go by).
 */
int
plan_gpus(int present, uint64_t size)
{
	int best = 0;

	if (P.mode != PLAN_AUTO || present < 2 || size == 0 || !P.expect.gpu)
		return 0;
	pthread_mutex_lock(&P.mu);
	const double W = (double)size / model_rate(&P.expect);
	double best_t = INFINITY;
	for (int n = 1; n <= present; n++) {
		const double t = n * GPU_EACH + W / n;
		if (t < best_t)
			best_t = t, best = n;
	}
	if (P.stats)
		fprintf(stderr, "agrep-gpu: plan: %d GPUs present, %.2f s of "
		    "work on one (%s): %d listed\n", present, W,
		    P.expect_cached ? "cached" : "prior", best);
	pthread_mutex_unlock(&P.mu);
	return best;
}

/* Should the devices start now after all (plan_host_done)? */
int
plan_late(void)
{
	return __atomic_load_n(&P.late, __ATOMIC_ACQUIRE);
}

/* Device dev (its name, a GPU or not) opened after secs. */
void
plan_dev_open(int dev, const char *name, int gpu, double secs)
{
	struct devrun *d;

	if (dev < 0 || dev >= OCL_MAXDEV)
		return;
	pthread_mutex_lock(&P.mu);
	d = &P.dev[dev];
	d->m = prior(name, gpu);
	if (kernel_of(name) == PLAN_PP && gpu)
		d->m.wps = PP_WPS;
	for (int c = 0; c < P.ncache; c++)
		if (strcmp(P.cache[c].name, name) == 0) {
			d->m = P.cache[c];
			d->cached = 1;
			break;
		}
	/*
	 * The start-up kept is the first device's (the others open after it,
	 * and their time counts its too), and an idle one: in automatic mode
	 * the workers search meanwhile, and plan_start_devices counts
	 * OPEN_BUSY for that (two H200s: 0.44-0.52 s beside the workers was
	 * cached as is, doubled by the rule, and the host alone took 1.63 s
	 * where the GPU took 0.96-1.08).  A slower opening than the cached
	 * one moves the figure a quarter of the way (compiling is left out
	 * already: search.c), so that one slow start does not make the next
	 * runs give the host, at 6 MB/s a worker for 1,000 primers, the
	 * ranges it thinks come before the device is up (an H200: 0.9 s
	 * cached against 0.25, 1.59 s against the GPU alone's 1.38).
	 */
	if (dev == 0) {
		double idle = P.mode == PLAN_AUTO ? secs / OPEN_BUSY : secs;
		/* (a figure cached from another count of GPUs listed, moved
		 * to this run's first) */
		d->m.start = start_for(&d->m, P.listed);
		if (d->cached && idle > d->m.start)
			d->m.start += (idle - d->m.start) / 4;
		else
			d->m.start = idle;
		d->m.listed = P.listed;
	}
	d->open = 1;
	if (dev >= P.ndev)
		P.ndev = dev + 1;
	if (P.stats)
		fprintf(stderr, "agrep-gpu: plan: at %.3f s: device %d, %s: open "
		    "in %.3f s; model (%s): feed %.2f GB/s, %.3g word-bytes/s: "
		    "%.2f GB/s for %.0f pattern words\n", util_now() - P.t0, dev,
		    name, secs, d->cached ? "cached" : "prior", d->m.feed / 1e9,
		    d->m.wps, model_rate(&d->m) / 1e9, P.work);
	pthread_mutex_unlock(&P.mu);
}

/* Device dev finished a range of bytes handed to it at t_hand (util_now),
 * done at t_done; ranges finish in the order they were handed. */
void
plan_dev_done(int dev, uint64_t bytes, double t_hand, double t_done)
{
	struct devrun *d;

	if (dev < 0 || dev >= OCL_MAXDEV)
		return;
	pthread_mutex_lock(&P.mu);
	d = &P.dev[dev];
	if (d->ranges == 0)
		d->first = t_hand;
	d->busy += t_done - (t_hand > d->last ? t_hand : d->last);
	d->flight += t_done - t_hand;
	d->last = t_done;
	d->bytes += bytes;
	d->ranges++;
	pthread_mutex_unlock(&P.mu);
}

/* Time spent on a range of device dev outside the device: reading it
 * (fill), starting its scan (submit), formatting it (fmt). */
void
plan_dev_work(int dev, double fill, double submit, double fmt)
{
	if (dev < 0 || dev >= OCL_MAXDEV)
		return;
	pthread_mutex_lock(&P.mu);
	P.dev[dev].fill += fill;
	P.dev[dev].submit += submit;
	P.dev[dev].fmt += fmt;
	pthread_mutex_unlock(&P.mu);
}

/* AGREP_GPU_STATS: when something happened, in seconds since plan_init
 * (where a run's time goes outside the scans: opening, closing). */
void
plan_mark(const char *what)
{
	if (P.stats)
		fprintf(stderr, "agrep-gpu: plan: at %.3f s: %s\n",
		    util_now() - P.t0, what);
}

/* Prints what the run measured, and keeps the devices' figures. */
void
plan_end(void)
{
	int update = 0;

	pthread_mutex_lock(&P.mu);
	if (P.stats && P.host_ranges > 0)
		fprintf(stderr, "agrep-gpu: plan: host: %d ranges, %llu bytes, "
		    "%.1f MB/s a worker\n", P.host_ranges,
		    (unsigned long long)P.host_bytes, P.host_secs > 0 ?
		    (double)P.host_bytes / P.host_secs / 1e6 : 0);
	if (P.stats && P.placed_host + P.placed_dev > 0)
		fprintf(stderr, "agrep-gpu: plan: no slot free: %ld ranges to the "
		    "host, %ld waited for a device\n", P.placed_host,
		    P.placed_dev);
	int nopen = 0;
	for (int i = 0; i < P.ndev; i++)
		nopen += P.dev[i].open;
	for (int i = 0; i < P.ndev; i++) {
		struct devrun *d = &P.dev[i];
		if (!d->open)
			continue;
		double r = d->busy > 0 ? (double)d->bytes / d->busy : 0;
		const struct model was = d->m;
		if (P.stats && d->ranges > 0)
			fprintf(stderr, "agrep-gpu: plan: device %d: %d ranges, "
			    "%llu bytes, %.2f GB/s while busy (model %.2f); "
			    "reading %.3f s (%.2f GB/s a thread), formatting "
			    "%.3f s; a range %.2f ms filling (%.2f ms of it "
			    "starting the scan), %.2f ms in flight, %.2f ms "
			    "formatting; ranges from %.3f to %.3f s\n", i,
			    d->ranges,
			    (unsigned long long)d->bytes, r / 1e9,
			    model_rate(&d->m) / 1e9, d->fill,
			    d->fill > 0 ? (double)d->bytes / d->fill / 1e9 : 0,
			    d->fmt, (d->fill + d->submit) / d->ranges * 1e3,
			    d->submit / d->ranges * 1e3,
			    d->flight / d->ranges * 1e3,
			    d->fmt / d->ranges * 1e3, d->first - P.t0,
			    d->last - P.t0);
		/* Enough to measure: the model's two figures, one at a time
		 * (one pattern word: the feed; many: the kernel).  Not from
		 * a run where the host took most ranges: the device's few
		 * were filled by workers busy with their own (an H200, 7
		 * ranges beside 1,018 on the host: 2.6 GB/s, and the next runs
		 * took that for the GPU's rate). */
		if (d->ranges >= 4 && d->bytes >= (16u << 20) && r > 0 &&
		    (P.mode != PLAN_AUTO || d->ranges >= P.host_ranges)) {
			double inv = 1 / r - P.work / d->m.wps;
			if (P.work <= 2)
				d->m.feed = 1 / (inv > 0.1 / r ? inv : 0.1 / r);
			else if (1 / r > 1 / d->m.feed)
				d->m.wps = P.work / (1 / r - 1 / d->m.feed);
			else
				d->m.wps = P.work * r * 10;
		}
		/* Several devices share the host's feed and workers, so each
		 * scans slower than it would alone: their figures only raise
		 * the model (four H200s, 624 pattern words: one GPU's 0.29
		 * GB/s was cached where one alone scans 2.1, and the next run
		 * left a genome of 3.1 GB to the host, 9.3 s against 2.8). */
		if (nopen > 1) {
			d->m.feed = d->m.feed > was.feed ? d->m.feed : was.feed;
			d->m.wps = d->m.wps > was.wps ? d->m.wps : was.wps;
		}
		update = 1;
	}
	pthread_mutex_unlock(&P.mu);
	if (update)
		cache_write();
}
