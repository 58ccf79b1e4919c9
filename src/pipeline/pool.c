/*
 * pool.c: the pipeline's threads and its one writer.
 *
 * Jobs (a file, a range of a large file, standard input) are numbered as
 * they are submitted and go to a bounded FIFO queue; worker threads take
 * them as they are free.  A job's output (stdout bytes, messages for stderr,
 * and a marker where a "--" group separator may be due) collects in a buffer
 * of its own.  Output goes out strictly in job order: the oldest unfinished
 * job (the head) writes through as it goes; a later job keeps its output
 * until it becomes the head, and waits when its buffer is full.  So memory
 * stays bounded (jobs in flight x buffer cap) and -jN prints exactly what
 * -j1 prints.  With one thread, jobs run in the submitting thread.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pool.h"
#include "../base/util.h"

/* A run of one job's output: bytes for fd 1 or 2, (fd -1) the place
 * where a group separator goes if any record was printed before, or (fd
 * -2) bytes for fd 1 that go out only if no such run went out before
 * (pool_emit_once). */
struct seg {
	int		 fd;
	size_t		 len;
};

struct job {
	uint64_t	 seq;		/* submission order */
	pool_fn		 fn;
	void		*arg;
	struct job	*qnext;		/* work queue link */
	unsigned char	*buf;		/* the segments' bytes, in order */
	size_t		 len, cap;
	struct seg	*seg;
	size_t		 nseg, segcap;
	int		 printed;	/* a record was printed */
	int		 hold;		/* keep the output back for now */
	int		 done;
};

/* The pipeline's shared state: queue, order, and the writer's. */
struct pool {
	pthread_mutex_t	 mu;
	pthread_cond_t	 work;		/* a job was queued */
	pthread_cond_t	 turn;		/* the head moved on */
	pthread_cond_t	 idle;		/* every job so far written */
	pthread_cond_t	 up;		/* a worker began (running) */
	int		 running;	/* workers that began */
	pthread_t	*tids;
	int		 nthreads;	/* workers */
	int		 nstart;	/* ... of which started (pool_cap) */
	int		 inline_jobs;	/* one worker and no detached jobs:
					 * jobs run in the submitting thread */
	int		 started;	/* worker threads running */
	struct job	*qhead, *qtail;
	struct job	**ring;		/* jobs in flight, by seq % maxjobs */
	size_t		 maxjobs;
	uint64_t	 next_seq;	/* the next job's number */
	uint64_t	 head;		/* the job whose output goes out now */
	int		 writing;	/* a thread drains finished jobs */
	int		 ended;		/* pool_end: messages go out at once */
	size_t		 out_cap;	/* a job's buffer before it waits */
	int		 line_buffered;
	int		 tty;		/* stdout is a terminal: each job's
					 * output is written when it is done,
					 * as grep writes a terminal's lines
					 * (a pipe that pauses, tail -f, showed
					 * nothing until its end) */
	int		 printed;	/* a record went out (for "--") */
	int		 quit;		/* stop searching (-q, write error) */
	uint64_t	 quit_seq;	/* the job that stopped it: the output
					 * of later ones is dropped */
	int		 werr;		/* errno of the first write error */
	int		 once;	/* pool_emit_once's bytes went out */
	char		*sep;		/* the group separator, coloured */
	size_t		 seplen;
	/* The writer's buffer: the output of many small jobs goes out in
	 * few writes.  Only the thread writing (see job_write) touches it. */
	unsigned char	 wbuf[1 << 16];
	size_t		 wlen;
};

static struct pool P = {
	.mu = PTHREAD_MUTEX_INITIALIZER,
	.work = PTHREAD_COND_INITIALIZER,
	.turn = PTHREAD_COND_INITIALIZER,
	.idle = PTHREAD_COND_INITIALIZER,
	.up = PTHREAD_COND_INITIALIZER,
	.nthreads = 1,
	.out_cap = 1 << 20,
	.quit_seq = UINT64_MAX,
};
static __thread struct job *cur;	/* the job this thread runs */
static __thread struct pool_text *capt;	/* messages kept for later */
static __thread int detached;		/* cur was detached: hands off */

/* Writes all of p to fd; a failure on stdout stops the run once. */
static void
write_all(int fd, const unsigned char *p, size_t n)
{
	while (n > 0 && !(fd == 1 && __atomic_load_n(&P.werr, __ATOMIC_RELAXED))) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (fd != 1)
				return;
			int e = w < 0 ? errno : ENOSPC, none = 0;
			if (__atomic_compare_exchange_n(&P.werr, &none, e, 0,
			    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
				pool_set_quit();
			return;
		}
		p += w;
		n -= (size_t)w;
	}
}

/* Writes out the writer's buffer. */
static void
wflush(void)
{
	if (P.wlen > 0)
		write_all(1, P.wbuf, P.wlen);
	P.wlen = 0;
}

/* Output bytes for stdout, through the writer's buffer. */
static void
wout(const unsigned char *p, size_t n)
{
	if (n == 0)
		return;
	if (P.wlen + n > sizeof(P.wbuf)) {
		wflush();
		if (n >= sizeof(P.wbuf)) {
			write_all(1, p, n);
			return;
		}
	}
	memcpy(P.wbuf + P.wlen, p, n);
	P.wlen += n;
}

/* Writes out what a job holds and empties it.  Only the head's thread, or
 * the one draining finished jobs, calls this. */
static void
job_write(struct job *j)
{
	const unsigned char *p = j->buf;

	if (j->seq > __atomic_load_n(&P.quit_seq, __ATOMIC_RELAXED))
		j->nseg = 0;	/* after -q's match: as if never run */
	for (size_t i = 0; i < j->nseg; i++) {
		const struct seg *s = &j->seg[i];
		if (s->fd == 1)
			wout(p, s->len);
		else if (s->fd == 2) {
			wflush();	/* messages keep their place */
			write_all(2, p, s->len);
		} else if (s->fd == -2) {
			if (!__atomic_exchange_n(&P.once, 1, __ATOMIC_ACQ_REL))
				wout(p, s->len);
		} else if (__atomic_load_n(&P.printed, __ATOMIC_ACQUIRE))
			wout((const unsigned char *)P.sep, P.seplen);
		p += s->len;
	}
	if (P.line_buffered || P.tty)
		wflush();
	if (j->printed)
		__atomic_store_n(&P.printed, 1, __ATOMIC_RELEASE);
	j->len = 0;
	j->nseg = 0;
}

/* Appends bytes for fd (or a separator marker, fd -1) to a job. */
static void
job_add(struct job *j, int fd, const void *p, size_t n)
{
	if (j->nseg == 0 || j->seg[j->nseg - 1].fd != fd || fd < 0) {
		if (j->nseg == j->segcap) {
			j->segcap = j->segcap ? 2 * j->segcap : 8;
			j->seg = xreallocarray(j->seg, j->segcap,
			    sizeof(*j->seg));
		}
		j->seg[j->nseg++] = (struct seg){ fd, 0 };
	}
	if (n == 0)
		return;
	if (j->len + n > j->cap) {
		j->cap = j->len + n > 2 * j->cap ? j->len + n : 2 * j->cap;
		j->buf = xrealloc(j->buf, j->cap);
	}
	memcpy(j->buf + j->len, p, n);
	j->len += n;
	j->seg[j->nseg - 1].len += n;
}

/* Is j the head?  With wait set, waits until it is. */
static int
job_head(struct job *j, int wait)
{
	int head;

	pthread_mutex_lock(&P.mu);
	while (wait && j->seq != P.head)
		pthread_cond_wait(&P.turn, &P.mu);
	head = j->seq == P.head;
	pthread_mutex_unlock(&P.mu);
	return head;
}

/* Writes the job's output now if it is the head (with one thread it always
 * is); a later job with a full buffer waits for its turn first.  Called
 * when the buffer is full or the output must go out (a message,
 * --line-buffered). */
static void
job_maybe_write(struct job *j)
{
	if (j->hold)
		return;
	if (P.inline_jobs || job_head(j, j->len >= P.out_cap))
		job_write(j);
}

static void
job_free(struct job *j)
{
	free(j->buf);
	free(j->seg);
	free(j);
}

/* Drains finished jobs from the head on, in order. */
static void
drain(void)
{
	pthread_mutex_lock(&P.mu);
	while (!P.writing && P.head < P.next_seq) {
		struct job *j = P.ring[P.head % P.maxjobs];
		if (j == NULL || !j->done)
			break;
		P.writing = 1;
		pthread_mutex_unlock(&P.mu);
		job_write(j);
		job_free(j);
		pthread_mutex_lock(&P.mu);
		P.ring[P.head % P.maxjobs] = NULL;
		P.head++;
		P.writing = 0;
		pthread_cond_broadcast(&P.turn);
	}
	/* (pool_drain's own condition: it woke at every job written, 16
	 * times for a 4 MB file's ranges, 14 % of a -j1 search's time in the
	 * futex calls on the 2-core VM) */
	if (P.head == P.next_seq)
		pthread_cond_broadcast(&P.idle);
	pthread_mutex_unlock(&P.mu);
}

static void
job_finish(struct job *j)
{
	if (P.inline_jobs) {
		job_write(j);
		job_free(j);
		return;
	}
	pthread_mutex_lock(&P.mu);
	j->done = 1;
	pthread_mutex_unlock(&P.mu);
	drain();
}

static void
run_job(struct job *j, int worker)
{
	cur = j;
	detached = 0;
	if (j->fn != NULL)
		j->fn(j->arg, worker);	/* it checks pool_quit() itself */
	cur = NULL;
	/* A detached job may be finished, and freed, by now. */
	if (!detached)
		job_finish(j);
	detached = 0;
}

/* A worker takes jobs in order as long as the process lives (see
 * pool_end). */
static void *
worker_main(void *arg)
{
	int worker = (int)(intptr_t)arg;

	pthread_mutex_lock(&P.mu);
	P.running++;
	pthread_cond_broadcast(&P.up);
	pthread_mutex_unlock(&P.mu);
	for (;;) {
		struct job *j;
		pthread_mutex_lock(&P.mu);
		while (P.qhead == NULL)
			pthread_cond_wait(&P.work, &P.mu);
		j = P.qhead;
		if ((P.qhead = j->qnext) == NULL)
			P.qtail = NULL;
		pthread_mutex_unlock(&P.mu);
		run_job(j, worker);
	}
	return NULL;	/* not reached */
}

/*
 * Sets the pipeline up: nthreads workers (1: jobs run in the caller unless
 * detach is set), out_cap bytes of output a job keeps before it waits for
 * its turn; with detach set, jobs may go on after their function returns
 * (pool_detach).  Threads start with the first job.
 */
void
pool_start(int nthreads, size_t out_cap, int line_buffered, int detach)
{
	P.nthreads = nthreads < 1 ? 1 : nthreads;
	P.inline_jobs = P.nthreads == 1 && !detach;
	P.out_cap = out_cap;
	P.line_buffered = line_buffered;
	P.tty = isatty(1);
	/* Detached jobs (a device's ranges in flight) hold places too. */
	P.maxjobs = 4 * (size_t)P.nthreads + POOL_DETACHED;
	P.ring = xcalloc(P.maxjobs, sizeof(*P.ring));
	P.tids = xcalloc((size_t)P.nthreads, sizeof(*P.tids));
	util_set_sink(pool_msg);	/* messages keep their place */
}

/* Returns the number of workers (worker indices run 0 to this - 1). */
int
pool_workers(void)
{
	return P.nthreads;
}

/* Returns 1 when jobs run on worker threads. */
int
pool_threaded(void)
{
	return P.nthreads > 1;
}

/* Starts n of the workers at most, when they have not started (the rest
 * stay idle: a short search on 16 cores took 5.5 ms with 16 threads, 3.9
 * with 4; search.c, workers_for). */
void
pool_cap(int n)
{
	if (!P.started && n >= 1 && n < P.nthreads)
		P.nstart = n;
}

static void
start_threads(void)
{
	if (P.nstart < 1 || P.nstart > P.nthreads)
		P.nstart = P.nthreads;
	for (int i = 0; i < P.nstart; i++)
		if (pthread_create(&P.tids[i], NULL, worker_main,
		    (void *)(intptr_t)i) != 0)
			fatalx("cannot create a thread: %s", strerror(errno));
	P.started = 1;
}

/* Numbers a new job and takes its place in the output order, waiting while
 * too many are in flight. */
static struct job *
job_new(pool_fn fn, void *arg)
{
	struct job *j = xcalloc(1, sizeof(*j));

	j->fn = fn;
	j->arg = arg;
	if (P.inline_jobs)
		return j;
	pthread_mutex_lock(&P.mu);
	while (P.next_seq - P.head >= P.maxjobs)
		pthread_cond_wait(&P.turn, &P.mu);
	j->seq = P.next_seq++;
	P.ring[j->seq % P.maxjobs] = j;
	pthread_mutex_unlock(&P.mu);
	return j;
}

/* Runs fn(arg, worker) as the next job: now in the caller with one thread,
 * else on the first free worker. */
void
pool_submit(pool_fn fn, void *arg)
{
	struct job *j = job_new(fn, arg);

	if (P.inline_jobs) {
		run_job(j, 0);
		return;
	}
	if (!P.started)
		start_threads();
	pthread_mutex_lock(&P.mu);
	if (P.qtail != NULL)
		P.qtail->qnext = j;
	else
		P.qhead = j;
	P.qtail = j;
	pthread_cond_signal(&P.work);
	pthread_mutex_unlock(&P.mu);
}

/* Submits the run's last job: when no worker thread has started (no job
 * came before it), it runs now in this thread as worker 0, so that a
 * search of one small input starts no thread. */
void
pool_submit_last(pool_fn fn, void *arg)
{
	if (!P.inline_jobs && !P.started) {
		run_job(job_new(fn, arg), 0);
		return;
	}
	pool_submit(fn, arg);
}

/* Waits until every job submitted so far has run and been written. */
void
pool_drain(void)
{
	if (!P.inline_jobs) {
		pthread_mutex_lock(&P.mu);
		while (P.head < P.next_seq)
			pthread_cond_wait(&P.idle, &P.mu);
		pthread_mutex_unlock(&P.mu);
	}
	wflush();
}

/*
 * Drains the jobs.  The workers are left waiting for work and end with the
 * process: a thread that has run OpenCL calls must not exit before it (POCL
 * and LLVM leave their own signal stack on it, which AddressSanitizer's
 * thread exit then fails to unmap).
 */
void
pool_end(void)
{
	pool_drain();
	/* Every worker made has begun before the process may end: threads
	 * still starting when exit() runs are one known way to crash
	 * LeakSanitizer's tracer ("Tracer caught signal 11"), as a fresh
	 * clone's sanitizer pass did once after a tiny search's right
	 * output. */
	pthread_mutex_lock(&P.mu);
	while (P.started && P.running < P.nstart)
		pthread_cond_wait(&P.up, &P.mu);
	pthread_mutex_unlock(&P.mu);
	P.ended = 1;
}

/* Output of the current job (outside any job: written at once). */
void
pool_emit(const void *p, size_t n)
{
	if (cur == NULL) {
		wflush();
		write_all(1, p, n);
		return;
	}
	job_add(cur, 1, p, n);
	if (cur->len >= P.out_cap || P.line_buffered)
		job_maybe_write(cur);
}

/* Bytes for stdout that go out once in the whole output, where the first
 * job (in job order) that emits them puts them: a table's header line. */
void
pool_emit_once(const void *p, size_t n)
{
	if (cur == NULL) {
		if (!__atomic_exchange_n(&P.once, 1, __ATOMIC_ACQ_REL)) {
			wflush();
			write_all(1, p, n);
		}
		return;
	}
	job_add(cur, -2, p, n);
	if (cur->len >= P.out_cap || P.line_buffered)
		job_maybe_write(cur);
}

/* Lets pool_emit_once's bytes go out again (a new search: the tests'). */
void
pool_once_reset(void)
{
	__atomic_store_n(&P.once, 0, __ATOMIC_RELEASE);
}

/* Writes what the current job holds now if it is the head (--line-buffered,
 * and before a message). */
void
pool_flush(void)
{
	if (cur != NULL && cur->len > 0)
		job_maybe_write(cur);
}

/* A message for stderr, in order with the output around it. */
void
pool_msg(const char *p, size_t n)
{
	struct job *j;

	if (capt != NULL) {
		if (capt->len + n > capt->cap) {
			capt->cap = 2 * (capt->len + n);
			capt->buf = xrealloc(capt->buf, capt->cap);
		}
		memcpy(capt->buf + capt->len, p, n);
		capt->len += n;
		return;
	}
	if (cur != NULL) {
		job_add(cur, 2, p, n);
		job_maybe_write(cur);
		return;
	}
	if (P.inline_jobs || !P.started || P.ended) {
		if (P.inline_jobs || P.ended)
			wflush();
		write_all(2, (const unsigned char *)p, n);
		return;
	}
	/* From the walk: a job of its own, finished at once. */
	j = job_new(NULL, NULL);
	job_add(j, 2, p, n);
	job_finish(j);
}

/* Holds the current job's output back (on), or lets it go; with m set,
 * notes where the output stands now, for pool_restore. */
void
pool_hold(int on, struct pool_mark *m)
{
	if (cur == NULL)
		return;
	cur->hold = on;
	if (m != NULL) {
		m->len = cur->len;
		m->nseg = cur->nseg;
		m->seglen = cur->nseg ? cur->seg[cur->nseg - 1].len : 0;
		m->printed = cur->printed;
	}
	if (!on && cur->len >= P.out_cap)
		job_maybe_write(cur);
}

/* Drops the current job's output after mark m (taken while held). */
void
pool_restore(const struct pool_mark *m)
{
	if (cur == NULL)
		return;
	cur->len = m->len;
	cur->nseg = m->nseg;
	if (m->nseg > 0)
		cur->seg[m->nseg - 1].len = m->seglen;
	cur->printed = m->printed;
}

/* Sets the group separator's bytes (before any job runs). */
void
pool_set_sep(const char *sep, size_t len)
{
	free(P.sep);
	P.sep = memcpy(xmalloc(len), sep, len);
	P.seplen = len;
}

/* Keeps this thread's messages in t from now on (NULL: no more), for
 * messages whose place in the output would depend on timing. */
void
pool_capture(struct pool_text *t)
{
	capt = t;
}

/* Marks where a group separator goes if a record was printed before this
 * point of the output (by an earlier job). */
void
pool_lead_sep(void)
{
	if (cur != NULL)
		job_add(cur, -1, "", 0);
	else if (__atomic_load_n(&P.printed, __ATOMIC_ACQUIRE)) {
		wflush();
		write_all(1, (const unsigned char *)P.sep, P.seplen);
	}
}

/* The current job printed a record. */
void
pool_mark_printed(void)
{
	if (cur != NULL)
		cur->printed = 1;
	else
		__atomic_store_n(&P.printed, 1, __ATOMIC_RELEASE);
}

/* Returns 1 when the current job printed a record. */
int
pool_job_printed(void)
{
	return cur != NULL && cur->printed;
}

/* Returns 1 when searching should stop. */
int
pool_quit(void)
{
	return __atomic_load_n(&P.quit, __ATOMIC_RELAXED);
}

void
pool_set_quit(void)
{
	uint64_t seq = cur != NULL ? cur->seq : 0,
	    old = __atomic_load_n(&P.quit_seq, __ATOMIC_RELAXED);

	while (seq < old && !__atomic_compare_exchange_n(&P.quit_seq, &old,
	    seq, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
	__atomic_store_n(&P.quit, 1, __ATOMIC_RELAXED);
}

/* Returns the errno of the first failed write to stdout, or 0. */
int
pool_write_error(void)
{
	return __atomic_load_n(&P.werr, __ATOMIC_RELAXED);
}

/*
 * Detached jobs: a job whose work goes on elsewhere (a device's scan in
 * flight) returns from its function after pool_detach; the thread that
 * finishes it takes it over (pool_adopt), so its output lands in the job's
 * place, and ends it (pool_job_end).  Its place in the output order is
 * kept meanwhile.  Only with detach set at pool_start.
 */
struct job *
pool_detach(void)
{
	if (cur == NULL || P.inline_jobs)
		return NULL;
	detached = 1;
	return cur;
}

/* The calling thread works for detached job j now. */
void
pool_adopt(struct job *j)
{
	cur = j;
}

/* Ends detached job j, which this thread adopted. */
void
pool_job_end(struct job *j)
{
	cur = NULL;
	job_finish(j);
}
