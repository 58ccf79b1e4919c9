/* pool.h: the pipeline's threads: workers that run jobs, and the ordered
 * writer that emits each job's output strictly in submission order. */
#ifndef AGREP_POOL_H
#define AGREP_POOL_H

#include <stddef.h>

/* A job runs on some worker: worker is its index in [0, pool_workers()). */
/* Places in the output order kept for detached jobs (pool_detach). */
#define POOL_DETACHED	32

struct job;

typedef void (*pool_fn)(void *arg, int worker);

/* Where a job's output stood (pool_hold), to drop what came after. */
struct pool_mark {
	size_t		 len, nseg, seglen;
	int		 printed;
};

/* Messages kept back (pool_capture). */
struct pool_text {
	char		*buf;
	size_t		 len, cap;
};

/* pool.c */
void	pool_start(int nthreads, size_t out_cap, int line_buffered,
	    int detach);
int	pool_workers(void);
void	pool_cap(int n);
int	pool_threaded(void);
void	pool_submit(pool_fn, void *arg);
void	pool_submit_last(pool_fn, void *arg);
void	pool_drain(void);
void	pool_end(void);
void	pool_emit(const void *, size_t);
void	pool_emit_once(const void *, size_t);
void	pool_once_reset(void);
void	pool_msg(const char *, size_t);
void	pool_flush(void);
void	pool_capture(struct pool_text *);
void	pool_hold(int on, struct pool_mark *);
void	pool_restore(const struct pool_mark *);
void	pool_set_sep(const char *sep, size_t len);
void	pool_lead_sep(void);
void	pool_mark_printed(void);
int	pool_job_printed(void);
int	pool_quit(void);
void	pool_set_quit(void);
int	pool_write_error(void);
struct job *pool_detach(void);
void	pool_adopt(struct job *);
void	pool_job_end(struct job *);

#endif
