/* search_int.h: what search.c, range.c and walk.c share (not for other
 * modules: their interface is search.h). */
#ifndef AGREP_SEARCH_INT_H
#define AGREP_SEARCH_INT_H

#include <pthread.h>
#include <stdint.h>

#include "../cli/options.h"
#include "../output/output.h"
#include "../engines/pattern.h"
#include "pool.h"
#include "../device/scan.h"
#include "search.h"

/* Default chunk sizes: bounded memory, and enough work per launch. */
#define CHUNK_CPU	(16u << 20)
#define CHUNK_GPU	(64u << 20)
#define RANGE_MIN	256		/* bytes of a range at least */
#define DEV_SLOTS	8		/* ranges in flight a device, at least */
#define RANGE_SLOW	(4u << 20)	/* ranges when the scan is costly */
#define RANGE_SMALL	(256u << 10)	/* ranges of smaller files, at least */
#define RANGE_TAIL	16		/* ranges' worth cut smaller at a file's
					 * end, at most (range.c, range_tail) */
#define HOST_PER_WORKER	((size_t)512 << 20) /* default host limit per worker */
/* A file is cut into ranges for the workers (and their threads started)
 * only from this many bytes per pattern word of work: one thread is faster
 * below.  2-core AMD EPYC, 2026-11-25, hyperfine, -j1 against -j2: -c -k1
 * LORD breaks even between 0.6 and 1.2 MB (1.3 against 1.6 ms at 300 KB,
 * 2.1 against 2.0 at 1.2 MB, 3.5 against 2.8 at 2.4 MB); exact -c LORD
 * (memmem) near 2.4 MB (1.5 against 1.7 ms at 1.2 MB, 2.1 against 2.0 at
 * 2.4 MB).  AGREP_GPU_CHUNK (tests) cuts at any size. */
#define SPLIT_MIN	((size_t)1 << 20)
#define SPLIT_MIN_EXACT	((size_t)2 << 20)

struct dz;

/* One worker's state: its own host matcher slots, its own slots on every
 * device in use, and where its current input stands. */
struct searcher {
	struct scanner	 host;		/* the host matcher's slots */
	struct scanner	 dev[OCL_MAXDEV]; /* its slots on the open devices */
	int		 ndev;		/* of those, opened */
	uint64_t	 read_pos;	/* input offset of the next read */
	uint64_t	 read_left;	/* bytes the input may still give */
	int		 paused;	/* the last read stopped where a pipe
					 * paused (in_fill_paced): what came
					 * is printed before reading on */
	struct hitlist	*collect;	/* search_range: hits go here */
	const struct hitlist *premade;	/* search_file_hits: hits known */
	size_t		 premade_at;	/* next of them */
	const unsigned char *prefill;	/* bytes read already: fill() gives */
	size_t		 prefill_len;	/* these first */
	struct dz	*dz;		/* the input is this decoder's output
					 * (zin.c): fill() takes it from there */
};

/* What every worker shares: options, the devices, the outcome. */
struct search {
	const struct options *opt;
	const struct patset *pats;
	struct walk_filter filter;	/* --include, --exclude... */
	struct searcher	*w;		/* one per worker */
	unsigned char	*hostmem;	/* their host slots' memory, one
					 * mapping (scan_host_carve) */
	uint64_t	 total;		/* the inputs' bytes (search_total) */
	int		 total_known;
	int		 nw;
	pthread_mutex_t	 mu;		/* guards the device state */
	pthread_cond_t	 cv;
	struct scanner	 dev[OCL_MAXDEV]; /* the devices: context, program */
	int		 ndev;		/* devices open */
	int		 dev_busy[OCL_MAXDEV];	/* ranges in flight on each */
	int		 dev_state;	/* 0 untried, 2 opening, 1 open,
					 * -1 unusable */
	int		 opening;	/* open, and more are still opening */
	int		 matched;	/* a record was selected (atomic) */
	int		 failed;	/* no device: exit status 2 */
	int		 exact;		/* the host's exact k = 0 path */
	uint64_t	 range;		/* bytes per range of a large file */
	size_t		 host_max;	/* inputs this small stay on the host:
					 * AGREP_GPU_HOST_MAX over the work
					 * per byte (patterns x blocks) */
	size_t		 split_min;	/* files this small stay whole (one
					 * job, no threads): SPLIT_MIN */
	int		 host_slow;	/* that work is large: wait for the
					 * device rather than start on the host */
	struct pool_text devmsg;	/* what opening the devices said */
	int		(*file_hook)(const char *, int); /* searches a whole
					 * file instead (MPI) */
	int		 job_failed;	/* a job reported a problem (atomic) */
	int		 dev_found;	/* devices found; opening them is only
					 * building (S.mu) */
	int		 abandoned;	/* search_end left them opening */
};

extern struct search S;

#define opt	(S.opt)
#define pats	(S.pats)

/* search.c */
int	 device(struct searcher *, int wait);
int	 devices_wait(void);
int	 devices_pay(const char *path, uint64_t size, int kind);
int	 devices_pay_stream(void);
int	 stream_pays(const unsigned char *, size_t, uint64_t total);
void	 devices_start(void);
int	 devices_state(void);
const uint64_t *scan_finish(struct scanner *, int slot, int submitted);
const uint64_t *scan_rescan(struct scanner *, int slot);
void	 scan_nul_note(struct fstate *, const struct scanner *, int slot);
int	 long_record(struct searcher *, int fd, struct fstate *,
	    struct scanner *, int cur, size_t *have, int *eof);
int	 stream_long(void);
int	 search_fd(struct searcher *, int fd, struct fstate *);
int	 search_file_local(struct searcher *, const char *path, int show_name);

/* range.c */
int	 ranges_ok(void);
uint64_t range_for(uint64_t size);
void	 submit_ranges(const char *path, const char *name, int show_name,
	    uint64_t size);
int	 submit_stream(int fd, const char *name, int show_name);
int	 submit_stream_z(int fd, const char *name, int show_name,
	    struct dz *z, int zfd, const unsigned char *head, size_t nhead);
struct dzsplit;
int	 submit_spans(int fd, const char *name, int show_name,
	    struct dzsplit *, int zfd);

#endif
