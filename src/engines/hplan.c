/*
 * hplan.c: the host planner.  Which of the host's engines scan a chunk is
 * chosen by timing them on the text, not by thresholds set on one machine.
 *
 * The candidates are the settings the rule of hm_scan_sel combines (struct
 * hsel): the rule itself; without the pattern-parallel engine (the shared
 * and pigeonhole filters with the SIMD lanes behind them); the
 * pattern-parallel engine for every pattern it takes; without any filter;
 * without the shared filter; the seed filter (seed.c) for the patterns it
 * covers (DNA: pieces with an edit each), the rest as without the shared
 * filter; the pigeonhole filter forced for up to 16 patterns (the rule
 * takes it by thresholds); the shared filter forced, from 2 patterns on.
 * Those that cannot differ from the rule for the pattern set are left out
 * (the pattern-parallel engine for fewer than PP_MINPAT patterns it takes,
 * the rule without the shared filter for fewer than MF_MINPAT patterns).
 *
 * The rule: the first chunk of HP_MIN bytes or more is the probe.  Every
 * candidate scans its first 256 bytes, those within 8x of the fastest its
 * first 2 KB, those within 4x of the fastest there its first HP_SMALL,
 * those within 3x of the fastest there its first HP_SAMPLE bytes, those
 * within 15% of the fastest there (a close call) its first HP_FINAL, and
 * the fastest of the last tier is the plan: a candidate 30x slower than the best costs
 * the probe its scan of 256 bytes, 10-25 ms with 10,000 patterns (each
 * time the best of two passes when a pass is short, so one interruption
 * does not decide).  Where the filters win, they win by 10-100x (a list of
 * Bible words: the filter prunes almost every line and the lanes do every
 * byte), so a small sample decides; where they lose, it is by less, and
 * the larger sample decides.  The other workers wait for the probe (a few
 * milliseconds) rather than run the rule's choice meanwhile, which may be
 * 70x slower than the plan, and time candidates meanwhile: a tier's
 * candidates are shared out among the workers there (on 16 cores, the
 * probe takes about as long as its slowest candidate, not their sum).
 *
 * Revised as the run goes: every planned chunk is timed, and when the plan
 * has run HP_CHECK bytes since it was made at less than half the rate it
 * showed in the probe, the text has changed under it (the first 64 KB held
 * no hits, later ranges many), and the next chunk is probed again, up to
 * HP_REVISE times a run, unless less than HP_CHECK bytes of the inputs are
 * left (hplan_ahead: then the probe, 1-3 ms on 2 cores for one phrase,
 * would be a third of a 4 MB file's run and could win back little: the
 * Bible's 4.3 MB probed again at 4.2 MB).  Times are the thread's CPU time
 * (cpu_now).
 *
 * Remembered: a probe's pick and rate are kept ($XDG_CACHE_HOME/agrep-gpu/
 * hplan.txt, HP_CACHE entries, the newest first) under a key made of the
 * pattern set (its bytes, k, the options that change the matching), the
 * CPU level and the kind of text (DNA or not: the probe chunk's first
 * 4 KB), so that the next runs with that key scan with the pick at once:
 * the probe costs 4-66 ms on 2 cores (10,000 words at k = 2: 66 ms), the
 * whole of a search of a few megabytes.  A remembered plan is revised as
 * a probed one is (its rate is the probe's), and probed again every
 * HP_REFRESH runs, so that a probe misled (by a busy machine, say) is not
 * kept for good.  Concurrent runs may lose each other's entries (each
 * writes the file anew): those are probed again.  AGREP_GPU_NO_CACHE, or
 * AGREP_GPU_HOST_PLAN=probe, probes every run.
 *
 * Output does not depend on the choice: every engine selects the same
 * records (the exhaustive and oracle suites run each one forced).
 * AGREP_GPU_STATS=1 prints every probe's figures and choice;
 * AGREP_GPU_HOST_PLAN=rule turns the planner off (the rule's engines),
 * AGREP_GPU_HOST_PLAN=reprobe (tests) probes every chunk of HP_MIN bytes
 * or more again, while the other workers scan with the plan of the moment.
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "hostmatch.h"
#include "hplan.h"
#include "seed.h"
#include "multi.h"
#include "pp.h"
#include "../base/cpu.h"
#include "../base/util.h"

#define HP_CHECK	((uint64_t)4 << 20)	/* bytes before a revision */
#define HP_REVISE	4			/* revisions a run at most */
#define HP_SLOWER	2			/* ... when this much slower */
#define HP_CACHE	64			/* plans remembered */
#define HP_TRIAL	((uint64_t)2 << 20)	/* a close call's trial: bytes
						 * each of the two scans */
/* A time in the first tiers below which no candidate is left out: the
 * pattern-parallel engine's 100 Bible phrases cost 50 us a call over
 * 256 bytes (its tables), where the filters skip them in 5, and it went
 * no further, though it scanned the Bible 1.35x faster than the plan
 * (the 2-core Xeon, bench/hostplan.sh, 2026-11-28). */
#define HP_FLOOR	1e-4			/* s */
#define HP_CLOSE	1.15			/* ... within this factor */
#define HP_BIG_SET	20000			/* patterns: see hplan_get */
#define HP_REFRESH	16			/* ... each probed again after
						 * this many runs took it */

enum { C_RULE, C_NOPP, C_PP, C_NOFILTER, C_NOMULTI, C_MULTI, C_SEED, C_FILTER,
    NCAND };

static const struct cand {
	const char	*name;
	struct hsel	 sel;
} cands[NCAND] = {
	[C_RULE] =	{ "rule",	{ -1, 0, 0, 0, NULL, 0 } },
	[C_NOPP] =	{ "nopp",	{ -1, 0, 0, -1, NULL, 0 } },
	[C_PP] =	{ "pp",		{ -1, 0, -1, 1, NULL, 0 } },
	[C_NOFILTER] =	{ "nofilter",	{ -1, -1, -1, 0, NULL, 0 } },
	[C_NOMULTI] =	{ "nomulti",	{ -1, 0, -1, 0, NULL, 0 } },
	[C_MULTI] =	{ "multi",	{ -1, 0, 1, 0, NULL, 0 } },
	[C_SEED] =	{ "seed",	{ -1, 0, -1, 0, NULL, 1 } },
	[C_FILTER] =	{ "filter",	{ -1, 1, 0, 0, NULL, 0 } },
};

/* The text ahead (hplan_ahead): the bytes of the inputs of known size,
 * those the planned chunks have scanned, whether another input of unknown
 * size came and whether the inputs are all in (all atomic). */
static uint64_t ahead_in, ahead_done;
static int ahead_unknown, ahead_final;

void
hplan_ahead(uint64_t bytes)
{
	__atomic_add_fetch(&ahead_in, bytes, __ATOMIC_RELAXED);
}

void
hplan_ahead_unknown(void)
{
	__atomic_store_n(&ahead_unknown, 1, __ATOMIC_RELAXED);
}

void
hplan_ahead_final(void)
{
	__atomic_store_n(&ahead_final, 1, __ATOMIC_RELEASE);
}

/* Whether less than n bytes of text are surely left (chunks scanned by
 * other means than the plan count as left). */
static int
ahead_below(uint64_t n)
{
	if (!__atomic_load_n(&ahead_final, __ATOMIC_ACQUIRE) ||
	    __atomic_load_n(&ahead_unknown, __ATOMIC_RELAXED))
		return 0;
	const uint64_t in = __atomic_load_n(&ahead_in, __ATOMIC_RELAXED),
	    done = __atomic_load_n(&ahead_done, __ATOMIC_RELAXED);
	return done >= in || in - done < n;
}

struct hplan {
	pthread_mutex_t	 mu;		/* guards all below; held briefly */
	pthread_cond_t	 cv;		/* a tier's work or end, a probe's end */
	int		 state;		/* 0 unplanned, 1 planned, 2 probe
					 * again, 3 probing */
	int		 pick;		/* cands[pick] (atomic) */
	int		 ok[NCAND];	/* candidates for this pattern set */
	struct hsel	 sel[NCAND];	/* theirs: cands[] with the filter
					 * that multi forces, built once */
	struct mflt	*forced;
	double		 expect;	/* the plan's rate in the probe, bytes
					 * a CPU second */
	uint64_t	 bytes;		/* run by the plan since it was made */
	double		 secs;
	int		 revised;
	int		 alt;		/* a runner-up within HP_CLOSE of the
					 * pick in the probe, tried on the next
					 * chunks in turn with it (-1: none) */
	unsigned	 turn;		/* ... whose turn (atomic) */
	uint64_t	 pbytes, abytes; /* ... the trial's bytes and CPU */
	double		 psecs, asecs;	/* seconds: pick's, alt's */
	uint64_t	 key;		/* the pattern set's part of the cache
					 * key (0: no cache) */
	int		 probed;	/* a probe ran (or the cache gave a plan) */
	uint64_t	 runkey;	/* the whole key of the first probe: a
					 * later one (a revision) replaces that
					 * entry, whatever its chunk's kind */
	int		 stats;
	int		 off;		/* AGREP_GPU_HOST_PLAN=rule, or no
					 * pattern to plan for */
	int		 reprobe;	/* AGREP_GPU_HOST_PLAN=reprobe */
	/* The probe in progress (state 3): the tier's candidates todo[0,
	 * ntodo), the next to take, how many are timed, over text[warm,
	 * warm + n) of the prober's chunk; the workers that come meanwhile
	 * take candidates too (help). */
	const unsigned char *text;
	size_t		 warm, n;
	unsigned char	 eol;
	int		 todo[NCAND], ntodo, next, ndone;
	double		 took[NCAND];
};

/* FNV-1a, 64 bits, of n bytes after h. */
static uint64_t
fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 0x100000001b3ull;
	return h;
}

/* The pattern set's part of the cache key: what the engines' speeds
 * depend on, the text aside (never 0). */
static uint64_t
set_key(const struct patset *ps)
{
	const int o[] = { ps->k, ps->icase, ps->utf8, ps->hamming,
	    ps->weighted, ps->syntax, ps->iupac, ps->sel != NULL,
	    ps->cost.ins, ps->cost.del, ps->cost.sub, cpu_level() };
	uint64_t h = fnv(0xcbf29ce484222325ull, o, sizeof(o));

	for (size_t p = 0; p < ps->npat; p++) {
		const struct pattern *x = &ps->pat[p];
		h = fnv(h, &x->len, sizeof(x->len));
		h = fnv(h, &x->cls, sizeof(x->cls));
		h = fnv(h, x->str, x->len);
	}
	return h | 1;
}

/* The kind of text in its first 4 KB, for the cache key: 1 where 9 bytes
 * in 10 are bases (ACGTN, either case) or line ends, else 0. */
static int
text_kind(const unsigned char *t, size_t n)
{
	size_t dna = 0;

	n = n < 4096 ? n : 4096;
	for (size_t i = 0; i < n; i++)
		dna += strchr("ACGTNacgtn\n\r", t[i]) != NULL && t[i] != '\0';
	return n > 0 && dna * 10 >= n * 9;
}

/* The cached plan for key: its candidate (-1: none), rate and the runs
 * that took it from the cache since its probe. */
static int
cache_find(uint64_t key, double *rate, int *uses)
{
	char path[4200], line[256], name[32];
	unsigned long long k;
	int pick = -1;
	FILE *f;

	if (util_cache_file(path, sizeof(path), "hplan.txt", 0) == -1 ||
	    (f = fopen(path, "r")) == NULL)
		return -1;
	while (pick < 0 && fgets(line, sizeof(line), f) != NULL) {
		if (sscanf(line, "%llx %31s %lf %d", &k, name, rate, uses) != 4 ||
		    k != key || !(*rate > 0) || *uses < 0)
			continue;
		for (int c = 0; c < (int)NCAND; c++)
			if (strcmp(name, cands[c].name) == 0)
				pick = c;
	}
	fclose(f);
	return pick;
}

/* Remembers key's plan, first, before the others (HP_CACHE at most; a
 * new file renamed over the old one, as plan.c writes its models). */
static void
cache_put(uint64_t key, int pick, double rate, int uses)
{
	char path[4200], tmp[4300], line[256];
	unsigned long long k;
	FILE *in, *out;
	int n = 1;

	if (util_cache_file(path, sizeof(path), "hplan.txt", 1) == -1)
		return;
	snprintf(tmp, sizeof(tmp), "%s.%ld", path, (long)getpid());
	if ((out = fopen(tmp, "w")) == NULL)
		return;
	fprintf(out, "%016llx %s %.6g %d\n", (unsigned long long)key,
	    cands[pick].name, rate, uses);
	if ((in = fopen(path, "r")) != NULL) {
		while (n < HP_CACHE && fgets(line, sizeof(line), in) != NULL)
			if (sscanf(line, "%llx", &k) == 1 && k != key &&
			    strchr(line, '\n') != NULL) {
				fputs(line, out);
				n++;
			}
		fclose(in);
	}
	if (fclose(out) != 0)
		unlink(tmp);
	else
		(void)util_cache_replace(tmp, path);
}

/* The pattern set's plan, made on first use and cached in ps->hplan (as
 * mf_get caches the shared filter: the const set written once, under a
 * lock). */
static struct hplan *
hplan_get(const struct patset *ps)
{
	static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
	struct hplan **slot = &((struct patset *)ps)->hplan;
	struct hplan *h = __atomic_load_n(slot, __ATOMIC_ACQUIRE);

	if (h != NULL)
		return h;
	pthread_mutex_lock(&mu);
	if ((h = *slot) == NULL) {
		size_t npp = 0;
		h = xcalloc(1, sizeof(*h));
		h->alt = -1;
		pthread_mutex_init(&h->mu, NULL);
		pthread_cond_init(&h->cv, NULL);
		for (size_t p = 0; p < ps->npat; p++)
			npp += pp_eligible(&ps->pat[p]);
		h->ok[C_RULE] = h->ok[C_NOFILTER] = 1;
		h->ok[C_NOPP] = npp >= PP_MINPAT || ps->sel != NULL;
		h->ok[C_PP] = npp >= PP_MINPAT;
		h->ok[C_NOMULTI] = ps->npat >= MF_MINPAT;
		/* the shared filter forced from 2 patterns on (the rule takes
		 * it from MF_MINPAT): 10 Bible words -k1, 7 ms against the
		 * plan's 12 (the 2-core Xeon, bench/hostplan.sh) */
		h->ok[C_MULTI] = ps->npat >= 2;
		/* (the table is built when the candidate first runs; with
		 * -z, or where no variant list fits, it runs as nomulti) */
		h->ok[C_SEED] = seed_applies(ps);
		/* the pigeonhole filter wherever a pattern has pieces (the
		 * rule takes it only where they are long and rare): a pass
		 * a pattern, so for a few patterns */
		h->ok[C_FILTER] = ps->npat <= 16;
		/* A very large set: only the shared filters are probed.  The
		 * others scan every pattern over every byte, and the
		 * pattern-parallel engine's tables take 2.5 KB a pattern:
		 * 300,000 words -F -k0 over the Bible, the probe took 1.2 s
		 * of a 1.8 s first run (pp 0.65 s, nofilter 0.4) for the
		 * shared filter's pick; a million, 13.5 s and 4.9 GB
		 * against 1.5 s and 2.3 GB (the 2-core Xeon). */
		if (ps->npat > HP_BIG_SET)
			h->ok[C_RULE] = h->ok[C_PP] = h->ok[C_NOFILTER] =
			    h->ok[C_NOMULTI] = 0;
		for (size_t c = 0; c < NCAND; c++)
			h->sel[c] = cands[c].sel;
		h->stats = getenv("AGREP_GPU_STATS") != NULL;
		const char *e = getenv("AGREP_GPU_HOST_PLAN");
		h->off = ps->npat == 0 || (e != NULL && strcmp(e, "rule") == 0);
		h->reprobe = e != NULL && strcmp(e, "reprobe") == 0;
		if (!h->reprobe && (e == NULL || strcmp(e, "probe") != 0))
			h->key = set_key(ps);
		__atomic_store_n(slot, h, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&mu);
	return h;
}

void
hplan_free(struct hplan *h)
{
	if (h == NULL)
		return;
	pthread_mutex_destroy(&h->mu);
	pthread_cond_destroy(&h->cv);
	mf_free(h->forced);
	free(h);
}

/* This thread's CPU time, in seconds: the probe and the chunks are timed
 * by it, not by the wall clock, so that a probe that ran while the other
 * workers waited and chunks that shared the cores (or a machine busy with
 * other work: 2 cores, load 4.8, chunks ran at a third of the probe's wall
 * rate) are measured alike. */
static double
cpu_now(void)
{
	return util_thread_cpu();
}

/* Seconds candidate c takes over text[warm, warm + len): the best of two
 * passes when the first is short. */
static double
timed(const struct hplan *h, const struct patset *ps, int c,
    const unsigned char *text, size_t warm, size_t len, unsigned char eol,
    uint64_t *bm)
{
	double best = INFINITY;

	for (int i = 0; i < 2; i++) {
		const double t0 = cpu_now();
		hm_scan_sel(ps, &h->sel[c], text, warm, len, eol, bm);
		const double t = cpu_now() - t0;
		best = t < best ? t : best;
		if (best > 2e-3)
			break;
	}
	return best;
}

/* The probe's samples, each of the candidates left within its factor of
 * the fastest over the one before. */
static const struct tier {
	size_t	bytes;
	double	keep;
} tiers[] = {
	{ (size_t)256, 8 },
	{ (size_t)2 << 10, 4 },
	{ HP_SMALL, 3 },
	{ HP_SAMPLE, 1.15 },
	{ HP_FINAL, 0 },
};
#define NTIER	(sizeof(tiers) / sizeof(tiers[0]))

/* Times the current tier's candidates left to take (the plan's lock held
 * on entry and return; released while timing), into h->took. */
static void
help(struct hplan *h, const struct patset *ps, uint64_t *bm)
{
	while (h->next < h->ntodo) {
		const int c = h->todo[h->next++];
		pthread_mutex_unlock(&h->mu);
		const double t = timed(h, ps, c, h->text, h->warm, h->n, h->eol,
		    bm);
		pthread_mutex_lock(&h->mu);
		h->took[c] = t;
		if (++h->ndone == h->ntodo)
			pthread_cond_broadcast(&h->cv);
	}
}

/*
 * The probe over the chunk text[warm, warm + len), from state 3 (set by
 * the caller, the plan's lock held on entry and return): each tier's
 * sample scanned by the candidates left, shared out among this worker and
 * those that come meanwhile (help), the plan the fastest over the last.
 */
static void
probe(struct hplan *h, const struct patset *ps, const unsigned char *text,
    size_t warm, size_t len, unsigned char eol)
{
	const size_t full = len < HP_FINAL ? len : HP_FINAL;
	const double t0 = util_now();
	if (h->key != 0 && h->runkey == 0)
		h->runkey = h->key ^ (uint64_t)text_kind(text + warm, len) << 1;
	const uint64_t key = h->runkey;
	uint64_t *bm;
	double secs[NCAND];	/* a candidate's time over its last sample */
	size_t over[NCAND];	/* ... of this many bytes (0: not run) */
	int left[NCAND], pick = 0, uses = 0;

	h->bytes = 0;
	h->secs = 0;
	__atomic_store_n(&h->alt, -1, __ATOMIC_RELEASE);
	if (key != 0 && !h->probed++ && (pick = cache_find(key, &h->expect,
	    &uses)) >= 0 && h->ok[pick] && uses + 1 < HP_REFRESH) {
		cache_put(key, pick, h->expect, uses + 1);
		if (h->stats)
			fprintf(stderr, "agrep-gpu: host plan: %s (cached, "
			    "%.1f MB a CPU second in its probe, run %d of "
			    "%d)\n", cands[pick].name, h->expect / 1e6,
			    uses + 1, HP_REFRESH - 1);
		if (pick == C_MULTI)
			goto build;	/* (its filter, as after a probe) */
		__atomic_store_n(&h->pick, pick, __ATOMIC_RELEASE);
		return;
	}
	pick = -1;
build:
	bm = xmalloc((HP_FINAL + 63) / 64 * sizeof(*bm));
	pthread_mutex_unlock(&h->mu);
	/* (built untimed: the shared filters, once a run) */
	if (h->ok[C_MULTI] && h->forced == NULL) {
		h->forced = mf_build(ps, eol, 1);
		h->sel[C_MULTI].mf = h->forced;
	}
	if (ps->npat >= MF_MINPAT)
		(void)mf_get(ps, eol);
	if (h->ok[C_SEED])
		(void)seed_get(ps, eol);
	pthread_mutex_lock(&h->mu);
	if (pick >= 0) {	/* (cached) */
		__atomic_store_n(&h->pick, pick, __ATOMIC_RELEASE);
		free(bm);
		return;
	}
	pick = 0;
	h->text = text;
	h->warm = warm;
	h->eol = eol;
	for (size_t c = 0; c < NCAND; c++)
		left[c] = h->ok[c], over[c] = 0, secs[c] = INFINITY;
	for (size_t i = 0, n = 0; i < NTIER && n < full; i++) {
		n = tiers[i].bytes < full ? tiers[i].bytes : full;
		h->n = n;
		h->ntodo = h->next = h->ndone = 0;
		for (int c = 0; c < (int)NCAND; c++)
			if (left[c])
				h->todo[h->ntodo++] = c;
		pthread_cond_broadcast(&h->cv);
		help(h, ps, bm);
		while (h->ndone < h->ntodo)
			pthread_cond_wait(&h->cv, &h->mu);
		double best = INFINITY;
		for (int x = 0; x < h->ntodo; x++) {
			const int c = h->todo[x];
			secs[c] = h->took[c];
			over[c] = n;
			if (secs[c] < best)
				best = secs[c], pick = c;
		}
		/* (the elimination tiers count a time under HP_FLOOR as
		 * HP_FLOOR: a fixed cost a call does not say how a chunk
		 * will go) */
		const double base = tiers[i].keep >= 3 && best < HP_FLOOR ?
		    HP_FLOOR : best;
		for (size_t c = 0; c < NCAND; c++)
			left[c] = left[c] && secs[c] <= tiers[i].keep * base;
	}
	h->ntodo = h->next = h->ndone = 0;
	h->text = NULL;
	h->expect = secs[pick] > 0 ? (double)over[pick] / secs[pick] : 0;
	if (key != 0 && h->expect > 0)
		cache_put(key, pick, h->expect, 0);
	/* A close call (the 2-core EPYC: seed against nofilter within 5%
	 * over 256 KB, 18% apart over 32 MB) is settled on the run's own
	 * chunks: the two take turns until each has scanned HP_TRIAL. */
	int alt = -1;
	for (int c = 0; c < (int)NCAND; c++)
		if (c != pick && over[c] == over[pick] && secs[c] <=
		    HP_CLOSE * secs[pick] && (alt < 0 || secs[c] < secs[alt]))
			alt = c;
	h->pbytes = h->abytes = 0;
	h->psecs = h->asecs = 0;
	__atomic_store_n(&h->alt, alt, __ATOMIC_RELEASE);
	if (h->stats) {
		char buf[512];
		size_t n = 0;
		for (size_t c = 0; c < NCAND && n < sizeof(buf); c++)
			if (over[c] > 0)
				n += (size_t)snprintf(buf + n, sizeof(buf) - n,
				    " %s %.3f ms/%zu KB,", cands[c].name,
				    secs[c] * 1e3, over[c] >> 10);
		if (n > 0 && n < sizeof(buf))
			buf[n - 1] = '\0';
		fprintf(stderr, "agrep-gpu: host plan: %s (%s ); the probe "
		    "took %.3f ms\n", cands[pick].name, buf,
		    (util_now() - t0) * 1e3);
	}
	__atomic_store_n(&h->pick, pick, __ATOMIC_RELEASE);
	free(bm);
}

/* Counts a chunk the plan pick scanned; marks the plan for a new probe when
 * the text has made it slower than the probe said (never while a probe is
 * on). */
static void
account(struct hplan *h, int pick, size_t len, double secs)
{
	pthread_mutex_lock(&h->mu);
	if (h->state == 1 && h->alt >= 0 && (pick == h->alt ||
	    pick == h->pick)) {
		if (pick == h->alt)
			h->abytes += len, h->asecs += secs;
		else
			h->pbytes += len, h->psecs += secs;
		if (h->abytes >= HP_TRIAL && h->pbytes >= HP_TRIAL) {
			const double pr = (double)h->pbytes / h->psecs,
			    ar = (double)h->abytes / h->asecs;
			if (h->stats)
				fprintf(stderr, "agrep-gpu: host plan: the "
				    "trial: %s %.1f, %s %.1f MB a CPU second: "
				    "%s\n", cands[h->pick].name, pr / 1e6,
				    cands[h->alt].name, ar / 1e6, cands[ar > pr ?
				    h->alt : h->pick].name);
			if (ar > pr) {
				h->expect = h->expect * ar / pr;
				__atomic_store_n(&h->pick, h->alt,
				    __ATOMIC_RELEASE);
				if (h->runkey != 0)
					cache_put(h->runkey, h->alt, h->expect,
					    0);
			}
			__atomic_store_n(&h->alt, -1, __ATOMIC_RELEASE);
		}
	}
	if (h->reprobe && h->state == 1)
		__atomic_store_n(&h->state, 2, __ATOMIC_RELEASE);
	else if (!h->reprobe && h->state == 1 && h->pick == pick) {
		h->bytes += len;
		h->secs += secs;
		if (h->bytes >= HP_CHECK && h->expect > 0 &&
		    h->revised < HP_REVISE &&
		    (double)h->bytes / h->secs * HP_SLOWER < h->expect) {
			const int late = ahead_below(HP_CHECK);
			if (h->stats)
				fprintf(stderr, "agrep-gpu: host plan: %s ran "
				    "%.1f MB a CPU second over %llu bytes, "
				    "%.1f in the probe: %s\n",
				    cands[pick].name,
				    (double)h->bytes / h->secs / 1e6,
				    (unsigned long long)h->bytes,
				    h->expect / 1e6, late ? "too little text "
				    "left to probe again" : "probing again");
			if (late)
				h->revised = HP_REVISE;
			else {
				h->revised++;
				__atomic_store_n(&h->state, 2,
				    __ATOMIC_RELEASE);
			}
		}
	}
	pthread_mutex_unlock(&h->mu);
}

/*
 * Scans text[warm, warm + len) (hm_scan's arguments) with the planned
 * engines, probing first when the chunk is to be the probe.  Returns 0,
 * having done nothing, when the planner is off or has nothing to choose
 * among (hm_scan then runs the rule).
 */
int
hplan_scan(const struct patset *ps, const unsigned char *text, size_t warm,
    size_t len, unsigned char eol, uint64_t *bitmap)
{
	struct hplan *h = hplan_get(ps);

	if (h->off)
		return 0;
	__atomic_add_fetch(&ahead_done, len, __ATOMIC_RELAXED);
	int state = __atomic_load_n(&h->state, __ATOMIC_ACQUIRE);
	if (state != 1) {
		if (state == 0 && len < HP_MIN)
			return 0;
		pthread_mutex_lock(&h->mu);
		if ((h->state == 0 || h->state == 2) && len >= HP_MIN) {
			/* this chunk is the probe */
			__atomic_store_n(&h->state, 3, __ATOMIC_RELEASE);
			probe(h, ps, text, warm, len, eol);
			__atomic_store_n(&h->state, 1, __ATOMIC_RELEASE);
			pthread_cond_broadcast(&h->cv);
		} else if (h->state == 3) {
			/* a probe is on: time its candidates until it ends */
			uint64_t *bm = xmalloc((HP_FINAL + 63) / 64 *
			    sizeof(*bm));
			while (h->state == 3) {
				help(h, ps, bm);
				if (h->state == 3)
					pthread_cond_wait(&h->cv, &h->mu);
			}
			free(bm);
		}
		state = h->state;
		pthread_mutex_unlock(&h->mu);
		if (state == 0)
			return 0;	/* (a chunk too short to be the probe) */
	}
	int pick = __atomic_load_n(&h->pick, __ATOMIC_ACQUIRE);
	const int alt = __atomic_load_n(&h->alt, __ATOMIC_ACQUIRE);
	if (alt >= 0 && __atomic_fetch_add(&h->turn, 1, __ATOMIC_RELAXED) % 2)
		pick = alt;
	/* (less the shared tables built on the way: the seed filter's
	 * 160,552 variants of 1,000 primers -k2 made the first chunk's 4.5 MB
	 * run at a third of the probe's rate, and every run that found the
	 * plan cached probed again, 13 ms of 150 on 2 cores) */
	const double t0 = cpu_now(), b0 = util_build_cpu;
	hm_scan_sel(ps, &h->sel[pick], text, warm, len, eol, bitmap);
	account(h, pick, len, cpu_now() - t0 - (util_build_cpu - b0));
	return 1;
}
