/*
 * devq.c: the devices' slots in flight.  Each open device has a few slots
 * (a scanner clone each: pinned text and bitmap buffers, allocated once
 * and reused) and threads of its own.  A worker takes a free slot
 * (devq_take, in the order the ranges were submitted), reads its range
 * into it, starts the scan (or leaves that to the device's submitting
 * threads, AGREP_GPU_SUBMITTERS) and hands the slot over (devq_post) with
 * what finishes the range; then it goes on with other work.  The device's
 * threads take the slots in the order they were taken, wait for their
 * scans, and run the finishing function (formatting, in the range's place
 * of the output: pool_adopt).  So a range in flight never holds a worker,
 * several workers fill a device's slots at once, and each device has its
 * own queue: the only lock is taken once a range.
 *
 * A device whose scan fails gets no more slots: the finishing function
 * learns it (the range is then scanned on the host) and the later ranges
 * go to the others or the host (AGREP_GPU_FAULT, scan.c, fails one for the tests).
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devq.h"
#include "../device/plan.h"
#include "pool.h"
#include "../base/util.h"

#define DEVQ_SLOTS_MAX	64
/* Condition variables for the reservations' turns (devq_take_turn): a
 * worker waits on the one of its turn, so that passing a turn wakes the
 * next one's worker, not every worker that waits */
#define DEVQ_TURN_CVS	64

struct dslot {
	struct scanner	 sc;		/* a clone of the device's scanner */
	int		 dev;
	int		 idx;		/* its index on the device */
	int		 cloned;
	int		 handed;	/* the worker is done with it */
	int		 complete;	/* its scan is done (or none runs) */
	int		 scan;		/* 1 submitted, -1 failed, 0 none */
	uint64_t	 bytes;
	uint64_t	 taken;		/* bytes devq_take counted */
	double		 t_hand;
	double		 t_take, t_cb, t_freed; /* (statistics) */
	double		 fill;		/* seconds the worker took to fill it */
	double		 submit;	/* and to start its scan */
	devq_fn		 fn;
	void		*arg;
	struct job	*job;		/* the range's job, detached */
	struct dslot	*next;		/* in the FIFO or the free list */
	struct dslot	*lnext;		/* in the submitters' list */
	pthread_cond_t	 cv;		/* its scan done (complete) */
};

static struct {
	pthread_mutex_t	 mu;
	pthread_cond_t	 cv;		/* a slot made or freed, a device added
					 * (devq_take, devq_end) */
	pthread_cond_t	 acv;		/* a slot asked for, or the end (the
					 * finishers not yet making theirs) */
	pthread_cond_t	 tcv[DEVQ_TURN_CVS]; /* turn t's on tcv[t % N] */
	int		 ndev;
	struct scanner	*devs;
	size_t		 cap;		/* bytes a slot is made for */
	int		 per;		/* slots a device */
	int		 asked[OCL_MAXDEV]; /* slots to make (by their index) */
	int		 made[OCL_MAXDEV];  /* slots made */
	int		 ending;	/* devq_end: make the rest, then stop */
	struct dslot	*slots;
	struct dslot	*freel[OCL_MAXDEV];
	int		 nfree[OCL_MAXDEV];
	struct dslot	*head[OCL_MAXDEV], *tail[OCL_MAXDEV];
	struct dslot	*lhead[OCL_MAXDEV], *ltail[OCL_MAXDEV];
					/* filled, for the submitters */
	pthread_cond_t	 lcv[OCL_MAXDEV]; /* one posted there */
	int		 nsub;		/* submitting threads a device */
	pthread_cond_t	 hcv[OCL_MAXDEV]; /* a slot handed over (to the
					 * device's idle finishers; cv: a slot
					 * asked for, made or freed) */
	int		 failed[OCL_MAXDEV];
	double		 ph[7];		/* a slot's cycle, summed (statistics:
					 * devq_end) */
	long		 cycles;
	double		 slot_wait;	/* seconds workers waited in devq_take */
	uint64_t	 reserved;	/* bytes of ranges placed on a device
					 * whose workers are yet to take a slot
					 * (devq_reserve) */
	uint64_t	 rseq, rnext;	/* reservations made; the next one
					 * whose turn it is to take a slot */
	uint64_t	 queued_dev[OCL_MAXDEV]; /* bytes taken, not finished,
					 * by device */
} Q = { .mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER,
	.acv = PTHREAD_COND_INITIALIZER };

/* One of a device's finishing threads; it lives as long as the process
 * (see pool_end). */
static void *
finisher(void *arg)
{
	struct dslot *mine = arg;
	const int d = mine->dev;

	/* Slots are made one at a time, when a range finds none free (a run
	 * that gives the devices whole files only, through the ring, needs
	 * none; one that streams a single long line, one or two), by their
	 * own threads, off the workers (pinned memory is slow to allocate:
	 * 16 slots of 16 MiB took the workers about a second of their time
	 * on the H100 machine). */
	pthread_mutex_lock(&Q.mu);
	while (Q.asked[d] <= mine->idx && !Q.ending)
		pthread_cond_wait(&Q.acv, &Q.mu);
	if (Q.asked[d] <= mine->idx) {
		pthread_mutex_unlock(&Q.mu);
		return NULL;	/* never wanted */
	}
	pthread_mutex_unlock(&Q.mu);
	scan_clone(&mine->sc, &Q.devs[d]);
	if (mine->sc.cap < Q.cap)
		scan_grow(&mine->sc, Q.cap);
	(void)scan_chunk(&mine->sc, 0);
	mine->cloned = 1;
	pthread_mutex_lock(&Q.mu);
	Q.made[d]++;
	mine->next = Q.freel[d];
	Q.freel[d] = mine;
	Q.nfree[d]++;
	pthread_cond_broadcast(&Q.cv);
	pthread_mutex_unlock(&Q.mu);
	for (;;) {
		struct dslot *sl;
		const uint64_t *bm = NULL;

		pthread_mutex_lock(&Q.mu);
		while (Q.head[d] == NULL || !Q.head[d]->handed)
			pthread_cond_wait(&Q.hcv[d], &Q.mu);
		sl = Q.head[d];
		if ((Q.head[d] = sl->next) == NULL)
			Q.tail[d] = NULL;
		/* (one finisher woken a slot handed over: the next one's
		 * turn, if it is handed over already, wakes another) */
		if (Q.head[d] != NULL && Q.head[d]->handed)
			pthread_cond_signal(&Q.hcv[d]);
		/* Sleep until the scan is done: NVIDIA's clWaitForEvents
		 * spins, and a thread a slot spinning takes the cores from
		 * the workers that read and scan. */
		while (!sl->complete)
			pthread_cond_wait(&sl->cv, &Q.mu);
		pthread_mutex_unlock(&Q.mu);
		const double t_seen = util_now();
		/* Messages and output go in the range's place from here. */
		if (sl->job != NULL)
			pool_adopt(sl->job);
		int failed = 0;
		if (sl->scan != 0) {
			bm = sl->scan > 0 ? scan_wait(&sl->sc, 0) : NULL;
			if (bm == NULL) {
				__atomic_store_n(&Q.failed[d], 1,
				    __ATOMIC_RELAXED);
				failed = 1;
			} else
				plan_dev_done(d, sl->bytes, sl->t_hand,
				    util_now());
		}
		const double t0 = util_now();
		sl->fn(sl->arg, &sl->sc, bm, failed);
		plan_dev_work(d, sl->fill, sl->submit, util_now() - t0);
		if (sl->job != NULL)
			pool_job_end(sl->job);
		pthread_mutex_lock(&Q.mu);
		sl->t_freed = util_now();
		if (sl->t_cb == 0)
			sl->t_cb = sl->t_hand;
		Q.ph[1] += sl->t_hand - sl->t_take - sl->fill - sl->submit;
		Q.ph[2] += sl->fill;
		Q.ph[3] += sl->submit;
		Q.ph[4] += sl->t_cb - sl->t_hand;
		Q.ph[5] += t_seen - sl->t_cb;
		Q.ph[6] += sl->t_freed - t_seen;
		Q.cycles++;
		Q.queued_dev[d] -= sl->taken;
		sl->next = Q.freel[d];
		Q.freel[d] = sl;
		Q.nfree[d]++;
		pthread_cond_broadcast(&Q.cv);
		pthread_mutex_unlock(&Q.mu);
	}
	return NULL;
}

static void hand(struct dslot *, int scan);

/*
 * One of a device's submitting threads (AGREP_GPU_SUBMITTERS a device):
 * it starts the scans of the slots the workers filled (devq_post), so
 * that the OpenCL calls of a device come from a few threads rather than
 * from every worker at once, and a worker goes back to reading as soon
 * as its slot is full.  Lives as long as the process.
 */
static void *
submitter(void *arg)
{
	const int d = (int)(intptr_t)arg;

	for (;;) {
		struct dslot *sl;

		pthread_mutex_lock(&Q.mu);
		while (Q.lhead[d] == NULL)
			pthread_cond_wait(&Q.lcv[d], &Q.mu);
		sl = Q.lhead[d];
		if ((Q.lhead[d] = sl->lnext) == NULL)
			Q.ltail[d] = NULL;
		sl->lnext = NULL;
		pthread_mutex_unlock(&Q.mu);
		const double t0 = util_now();
		const int r = scan_launch(&sl->sc, 0);
		sl->submit = util_now() - t0;
		hand(sl, r == 0 ? 1 : -1);
	}
	return NULL;
}

/* Sets up the slots of up to ndev devices (per device, made for chunks of
 * cap bytes; their scanners: devs); once, before devq_add. */
void
devq_init(struct scanner *devs, int ndev, int slots, size_t cap)
{
	const char *e = getenv("AGREP_GPU_SLOTS");

	if (e != NULL && atoi(e) > 0)
		slots = atoi(e);
	slots = slots < 1 ? 1 : slots > DEVQ_SLOTS_MAX ? DEVQ_SLOTS_MAX : slots;
	Q.devs = devs;
	Q.cap = cap;
	Q.per = slots;
	Q.slots = xcalloc((size_t)(ndev * slots), sizeof(*Q.slots));
	for (int i = 0; i < ndev * slots; i++)
		pthread_cond_init(&Q.slots[i].cv, NULL);
	for (int d = 0; d < OCL_MAXDEV; d++) {
		pthread_cond_init(&Q.hcv[d], NULL);
		pthread_cond_init(&Q.lcv[d], NULL);
	}
	for (int t = 0; t < DEVQ_TURN_CVS; t++)
		pthread_cond_init(&Q.tcv[t], NULL);
	/* Submitting threads (AGREP_GPU_SUBMITTERS, default none: the
	 * workers start their scans): they cut the time a scan takes to
	 * start (8.6 GB -c -k2 mercy on the GPU alone, 8 MiB ranges, 16
	 * slots: 1.1-1.5 ms a range from the workers, 0.3-0.5 ms from two
	 * submitters), but the workers then wait for them as long, and the
	 * rate from ready moved within the runs' spread: one H200 13.7-14.8
	 * GB/s without, 13.2 with two; the first H200 of two 17.4-17.9
	 * against 18.5-18.6 (bench/results/h200x2.md, run 14). */
	Q.nsub = 0;
	if ((e = getenv("AGREP_GPU_SUBMITTERS")) != NULL)
		Q.nsub = atoi(e) < 0 ? 0 : atoi(e) > 8 ? 8 : atoi(e);
}

/*
 * Device d (the next one, devs[d] open now) takes ranges from here on,
 * while the devices after it may still be opening.  A finishing thread per
 * slot: each scan is waited for as soon as it is done (its time measured),
 * and ranges are formatted side by side, even while one waits for the
 * ranges before it.  Each makes one slot first.
 */
void
devq_add(int d)
{
	for (int t = 0; t < Q.per; t++) {
		struct dslot *sl = &Q.slots[d * Q.per + t];
		pthread_t tid;
		sl->dev = d;
		sl->idx = t;
		if (pthread_create(&tid, NULL, finisher, sl) != 0)
			fatalx("cannot create a thread");
		pthread_detach(tid);	/* (one never asked ends) */
	}
	for (int t = 0; t < Q.nsub; t++) {
		pthread_t tid;
		if (pthread_create(&tid, NULL, submitter,
		    (void *)(intptr_t)d) != 0)
			fatalx("cannot create a thread");
		pthread_detach(tid);
	}
	pthread_mutex_lock(&Q.mu);
	Q.ndev = d + 1;
	pthread_cond_broadcast(&Q.cv);
	pthread_mutex_unlock(&Q.mu);
}

/*
 * The device that would finish a range of bytes soonest: its bytes in
 * flight and this range over its rate (plan.c: measured, else the model),
 * among those that have not failed (*live: some has).  Ranges are
 * formatted in input order, so a range on a slow device holds up the fast
 * one's after it: a range waits for a slot of the fastest rather than go
 * to a slower device that would finish it later (the GPU and POCL with
 * --device=all: POCL gets nothing where it is 70 times slower).  Returns
 * -1 when none is live, else the device, free slot or not.  Q.mu held.
 */
static int
pick(uint64_t bytes, int *live)
{
	int best = -1;
	double best_t = 0;

	*live = 0;
	for (int d = 0; d < Q.ndev; d++) {
		if (__atomic_load_n(&Q.failed[d], __ATOMIC_RELAXED))
			continue;
		*live = 1;
		double r = plan_dev_rate(d);
		double t = r > 0 ? (double)(Q.queued_dev[d] + bytes) / r : 0;
		if (best < 0 || t < best_t ||
		    (t == best_t && Q.nfree[d] > Q.nfree[best])) {
			best = d;
			best_t = t;
		}
	}
	return best;
}

/* Bytes taken on the devices and not finished yet. */
uint64_t
devq_queued(void)
{
	uint64_t q = 0;

	pthread_mutex_lock(&Q.mu);
	q = Q.reserved;
	for (int d = 0; d < Q.ndev; d++)
		q += Q.queued_dev[d];
	pthread_mutex_unlock(&Q.mu);
	return q;
}

/* A range of bytes is placed on a device, its slot to be taken later
 * (devq_take_turn), in the order of the reservations: a range's finishing
 * may wait for the ranges before it (their line counts), so a slot is
 * never held by a range whose earlier ones still wait for one.
 * devq_queued counts it meanwhile, so that the ranges placed after it
 * see the queue it makes.  Returns its turn. */
uint64_t
devq_reserve(uint64_t bytes)
{
	uint64_t t;

	pthread_mutex_lock(&Q.mu);
	Q.reserved += bytes;
	t = Q.rseq++;
	pthread_mutex_unlock(&Q.mu);
	return t;
}

/*
 * devq_take for reservation turn (devq_reserve's bytes): waits for the
 * reservations before it to take theirs, then takes a slot (waiting for
 * one) where take is set, or only passes the turn on (the devices did not
 * open).  NULL as devq_take.
 */
struct dslot *
devq_take_turn(uint64_t bytes, uint64_t turn, int take)
{
	struct dslot *sl = NULL;

	pthread_mutex_lock(&Q.mu);
	while (Q.rnext != turn)
		pthread_cond_wait(&Q.tcv[turn % DEVQ_TURN_CVS], &Q.mu);
	pthread_mutex_unlock(&Q.mu);
	if (take)
		sl = devq_take(bytes, DEVQ_WAIT);
	pthread_mutex_lock(&Q.mu);
	Q.reserved -= bytes;
	Q.rnext++;
	/* (only the next turn's worker: a broadcast to all that wait woke
	 * up to 16 workers a range, each back to sleep but one) */
	pthread_cond_broadcast(&Q.tcv[Q.rnext % DEVQ_TURN_CVS]);
	pthread_mutex_unlock(&Q.mu);
	return sl;
}

/* Is a slot free on the device that would take a range of bytes now? */
int
devq_free(uint64_t bytes)
{
	int live, d, free;

	pthread_mutex_lock(&Q.mu);
	d = pick(bytes, &live);
	free = d >= 0 && Q.nfree[d] > 0;
	pthread_mutex_unlock(&Q.mu);
	return free;
}

/*
 * Takes a slot for a range of bytes on the device that would finish it
 * soonest (pick; with wait set, waiting for one of its slots), and puts it
 * at the end of that device's queue: the caller must hand it over
 * (devq_hand) whatever happens.  Returns NULL when there is none (every
 * device failed, or no slot free and wait clear).
 */
struct dslot *
devq_take(uint64_t bytes, int wait)
{
	struct dslot *sl;
	int d, live;
	const double t0 = util_now();

	pthread_mutex_lock(&Q.mu);
	while ((d = pick(bytes, &live)) >= 0 && Q.nfree[d] == 0 && wait) {
		/* none free: one more made, if the device has more */
		if (Q.asked[d] == Q.made[d] && Q.asked[d] < Q.per) {
			Q.asked[d]++;
			pthread_cond_broadcast(&Q.acv);
		}
		pthread_cond_wait(&Q.cv, &Q.mu);
	}
	if (d < 0 || Q.nfree[d] == 0) {
		pthread_mutex_unlock(&Q.mu);
		return NULL;
	}
	sl = Q.freel[d];
	Q.freel[d] = sl->next;
	Q.nfree[d]--;
	sl->next = NULL;
	sl->handed = 0;
	sl->t_take = util_now();
	if (sl->t_freed > 0)
		Q.ph[0] += sl->t_take - sl->t_freed;
	sl->t_cb = 0;
	Q.queued_dev[d] += bytes;
	sl->taken = bytes;
	if (Q.tail[d] != NULL)
		Q.tail[d]->next = sl;
	else
		Q.head[d] = sl;
	Q.tail[d] = sl;
	Q.slot_wait += sl->t_take - t0;
	pthread_mutex_unlock(&Q.mu);
	return sl;
}

/* The slot's scanner: its slot 0 takes the range. */
struct scanner *
devq_scanner(struct dslot *sl)
{
	return &sl->sc;
}

/* The OpenCL runtime says a slot's scan is done. */
static void CL_CALLBACK
scan_done(cl_event ev, cl_int status, void *arg)
{
	struct dslot *sl = arg;

	(void)ev;
	(void)status;		/* scan_wait reports a failure */
	pthread_mutex_lock(&Q.mu);
	sl->complete = 1;
	sl->t_cb = util_now();
	pthread_cond_signal(&sl->cv);
	pthread_mutex_unlock(&Q.mu);
}

/* Hands a slot over to its finisher: scan 1, its scan was started; -1,
 * it failed to start; 0, nothing to scan. */
static void
hand(struct dslot *sl, int scan)
{
	cl_event ev = scan > 0 ? sl->sc.slot[0].done : NULL;

	/* Held until the callback is set: the slot may be finished, and its
	 * event released, before clSetEventCallback returns. */
	if (ev != NULL)
		clRetainEvent(ev);
	pthread_mutex_lock(&Q.mu);
	sl->complete = ev == NULL;
	sl->scan = scan;
	sl->t_hand = util_now();
	sl->handed = 1;
	/* (the device's idle finishers take the slots in the order they
	 * were taken: one woken when the first is handed over) */
	if (Q.head[sl->dev] == sl)
		pthread_cond_signal(&Q.hcv[sl->dev]);
	pthread_mutex_unlock(&Q.mu);
	/* (the callback may run at once, in this thread) */
	if (ev != NULL) {
		if (clSetEventCallback(ev, CL_COMPLETE, scan_done, sl) !=
		    CL_SUCCESS)
			scan_done(ev, CL_COMPLETE, sl);
		clReleaseEvent(ev);
	}
}

/*
 * A worker is done with a slot: prep is scan_prepare's answer for its
 * scanner's slot 0 (1: ready to launch; 0: nothing to scan; -1: failed),
 * fill the seconds it took to read the range in.  The scan is launched
 * here or by one of the device's submitters; then fn(arg, scanner, hits)
 * finishes it, as job (detached: ended after fn; NULL: none).
 */
void
devq_post(struct dslot *sl, int prep, double fill, uint64_t bytes,
    devq_fn fn, void *arg, struct job *job)
{
	sl->fill = fill;
	sl->submit = 0;
	sl->job = job;
	sl->bytes = bytes;
	sl->fn = fn;
	sl->arg = arg;
	if (prep > 0 && Q.nsub > 0) {
		pthread_mutex_lock(&Q.mu);
		if (Q.ltail[sl->dev] != NULL)
			Q.ltail[sl->dev]->lnext = sl;
		else
			Q.lhead[sl->dev] = sl;
		Q.ltail[sl->dev] = sl;
		pthread_cond_signal(&Q.lcv[sl->dev]);
		pthread_mutex_unlock(&Q.mu);
		return;
	}
	if (prep > 0) {
		const double t0 = util_now();
		prep = scan_launch(&sl->sc, 0) == 0 ? 1 : -1;
		sl->submit = util_now() - t0;
	}
	hand(sl, prep);
}

/* Releases the slots' buffers (every slot is free: the jobs drained). */
void
devq_end(void)
{
	/* Every slot back: a short run may end while threads still make
	 * their slots from the devices' scanners (closed next), and a job
	 * ends (pool_job_end) just before its slot goes back. */
	pthread_mutex_lock(&Q.mu);
	Q.ending = 1;		/* (threads never asked return) */
	pthread_cond_broadcast(&Q.acv);
	for (;;) {
		int busy = 0;
		for (int d = 0; d < Q.ndev; d++)
			busy |= Q.made[d] < Q.asked[d] ||
			    Q.nfree[d] < Q.made[d];
		if (!busy)
			break;
		pthread_cond_wait(&Q.cv, &Q.mu);
	}
	pthread_mutex_unlock(&Q.mu);
	/* Where a slot's time goes, a range on average (AGREP_GPU_STATS):
	 * free, taken by a worker (before its reading starts), read into,
	 * its scan started, in flight until the runtime's callback, until
	 * the finisher wakes, finished (formatting and the job's end). */
	if (getenv("AGREP_GPU_STATS") != NULL && Q.cycles > 0) {
		const double f = 1e3 / (double)Q.cycles;
		fprintf(stderr, "%s: devq: %d slots a device, workers waited "
		    "%.3f s for one; a slot's cycle, ms: free %.2f, taken "
		    "%.2f, reading %.2f, starting the scan %.2f, to its "
		    "callback %.2f, to its finisher %.2f, finishing %.2f\n",
		    progname, Q.per, Q.slot_wait, Q.ph[0] * f, Q.ph[1] * f,
		    Q.ph[2] * f, Q.ph[3] * f, Q.ph[4] * f, Q.ph[5] * f,
		    Q.ph[6] * f);
	}
	for (int d = 0; d < Q.ndev; d++)
		for (struct dslot *sl = Q.freel[d]; sl != NULL; sl = sl->next)
			if (sl->cloned) {
				scan_close(&sl->sc);
				sl->cloned = 0;
			}
}
