/* scan.h: the scan engine: text chunk in, hit bitmap out, on an OpenCL
 * device or with the host matcher. */
#ifndef AGREP_SCAN_H
#define AGREP_SCAN_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "ocl.h"
#include "../engines/pattern.h"

#define SCAN_SLOTS 2		/* double buffering */
#define RE_DEV_MAXEXPR 8	/* expressions the automaton kernel scans in
				 * one submission, a launch each */

/* A prepared scan's launch (scan_prepare, scan_launch). */
struct scan_args {
	const unsigned char *host;	/* the bytes or symbols, after pad */
	cl_mem		 text, bm;
	cl_uint		 pad_blocks, slice_blocks, nslices;
	size_t		 len, tail, bbytes, items;
	double		 t_prep;	/* (statistics) */
};

struct scan_slot {
	unsigned char	*buf;	/* host view: pad bytes, then the chunk */
	unsigned char	*own;	/* its own buf while another is lent
				 * (scan_lend) */
	uint64_t	*bm;	/* host view of the hit bitmap */
	int		 carved;	/* buf and bm are another's memory
				 * (scan_host_carve): not freed here */
	cl_mem		 hbuf;	/* host-visible text (pinned, or zero-copy) */
	cl_mem		 hbm;	/* host-visible bitmap */
	cl_mem		 dbuf;	/* device copies (GPU only) */
	cl_mem		 dbm;
	cl_event	 done;	/* last command of the slot's scan */
	cl_event	 kev;	/* the kernel, kept for AGREP_GPU_STATS */
	cl_event	 uev;	/* its text's copy, for AGREP_GPU_TRACE */
	size_t		 len;	/* bytes submitted */
	int		 nul_seen;	/* SCAN_ZAP: 0 not looked (or no scan),
				 * 1 no NUL, 2 the first at nul_at, made a
				 * terminator (scan_nul_at) */
	size_t		 nul_at;
	int		 nul_kernel;	/* ... left to count_records to look
				 * for (scan_nul_pending) */
	/* UTF-8 mode, for a chunk that is not all ASCII (utf8.h): */
	unsigned char	*sym;	/* pad, then the chunk's symbols */
	cl_mem		 hsym;	/* its host-visible buffer (devices) */
	uint32_t	*ck;	/* byte offset of every 64th symbol */
	uint64_t	*bmb;	/* the hits, moved back onto the bytes */
	size_t		 nsym;	/* symbols scanned; 0: bytes were */
	/* Records counted on the device (scan_count_from, scan_counts): */
	size_t		 rc_from;	/* the next scan counts from here; */
	int		 rc_want;	/* ... when set */
	int		 rc_done;	/* the last scan counted */
	size_t		 rc_groups;	/* its work-groups' summaries */
	cl_uint		*rc;		/* host view of the summaries */
	cl_mem		 hrc, drc;
	struct scan_args args;		/* set by scan_prepare */
};

struct scanner {
	const struct patset *ps;
	unsigned char	 eol;	/* record terminator */
	size_t		 pad;	/* warm-up bytes before the chunk, >= n+k-1 */
	size_t		 cap;	/* chunk capacity in bytes */
	size_t		 slice;	/* bytes per slice for a full chunk */
	size_t		 lanes_total;	/* slices that fill the device */
	int		 fixed_slice;	/* AGREP_GPU_SLICE set it */
	size_t		 alloc;	/* bytes of text each slot holds after pad */
	int		 device;	/* 1: OpenCL; 0: host matcher */
	int		 exact;		/* host: k = 0, one pattern, no -i */
	int		 xlines;	/* host: -x, k = 0, plain patterns
					 * (hm_lines) */
	/* OpenCL state, valid when device is 1 */
	struct ocl_dev	 dev;
	int		 lanes, wbits, zero_copy;
	size_t		 local;	/* work-group size */
	cl_context	 ctx;
	cl_command_queue queue;
	cl_program	 prog;
	cl_kernel	 kern;
	cl_kernel	 rkern;		/* count_records, or NULL */
	cl_mem		 peq, pinfo;
	int		 blocks;	/* patterns over 64 bytes: block kernel */
	int		 pp;		/* the pattern-parallel kernel (myers_pp) */
	size_t		 ncls;		/* pp: byte classes of the pattern set */
	int		 pp_lazy;	/* pp: no score in calm strides */
	int		 re;		/* the automaton kernel (re_scan): the
					 * expressions' tables, peq the first,
					 * more[] the others */
	cl_mem		 re_more[RE_DEV_MAXEXPR - 1];
	int		 re_g;		/* its groups of 8 states (RE_G) */
	int		 re_k;		/* its errors (RE_K) */
	double		 built;		/* seconds compiling its program (0:
					 * from the binary cache) */
	struct scan_slot slot[SCAN_SLOTS];
	/* Workers' clones share the device's context, queue, program and
	 * tables (parent's), with slots of their own; lock guards the kernel
	 * arguments (but a clone's own kernels: own_kern) and the parent's
	 * statistics. */
	struct scanner	*parent;
	pthread_mutex_t	*lock;
	int		 own_kern;
	/* AGREP_GPU_STATS: profile kernels, report on close */
	int		 stats;
	double		 kernel_s;	/* summed kernel time */
	double		 t_ready;	/* when the scanner was ready */
	double		 t_last;	/* when the last scan finished */
	unsigned long long scanned;	/* chunk bytes scanned */
	/* seconds in scan_submit (stats): before the lock (the pad, UTF-8
	 * symbols, buffers), waiting for it, then under it in all, in
	 * clEnqueueWriteBuffer and in the kernels' enqueue (the rest:
	 * read-back or count, flush) */
	double		 sub_pre, sub_lock, sub_all, sub_write, sub_kern;
	unsigned long	 nsub;
};

/* scan.c */
size_t	 scan_pad(const struct patset *);
void	 scan_open_host(struct scanner *, const struct patset *,
	    unsigned char eol, size_t cap);
size_t	 scan_host_bytes(const struct scanner *);
void	 scan_host_carve(struct scanner *, unsigned char *mem);
int	 scan_open_device(struct scanner *, const struct patset *,
	    unsigned char eol, size_t cap, const struct ocl_dev *,
	    size_t slice);
void	 scan_clone(struct scanner *, struct scanner *parent);
void	 scan_grow(struct scanner *, size_t cap);
int	 scan_wants_ascii(const struct scanner *);
int	 scan_set_patterns(struct scanner *, const struct patset *);
unsigned char *scan_chunk(struct scanner *, int slot);
void	 scan_lend(struct scanner *, int slot, unsigned char *buf);
void	 scan_unlend(struct scanner *, int slot);
/* scan_submit's flags */
#define SCAN_WARM	1	/* the pad holds the bytes before the chunk */
#define SCAN_ASCII	2	/* the chunk is known to be all ASCII */
#define SCAN_ZAP	4	/* NULs end records (grep's binary files):
				 * made terminators before the scan */
#define SCAN_NONUL	8	/* ... the caller knows the chunk has none */
/* scan_nul_at's answers besides an offset */
#define SCAN_NUL_UNKNOWN	SIZE_MAX
#define SCAN_NUL_NONE		(SIZE_MAX - 1)
size_t	 scan_nul_at(const struct scanner *, int slot);
int	 scan_nul_pending(const struct scanner *, int slot);
void	 scan_zap(struct scanner *, int slot);
int	 scan_submit(struct scanner *, int slot, size_t len, size_t valid,
	    int flags);
int	 scan_prepare(struct scanner *, int slot, size_t len, size_t valid,
	    int flags);
int	 scan_launch(struct scanner *, int slot);
const uint64_t *scan_wait(struct scanner *, int slot);
void	 scan_count_from(struct scanner *, int slot, size_t from);
int	 scan_counts(const struct scanner *, int slot, uint64_t *hit,
	    uint64_t *eols);
void	 scan_close(struct scanner *);
int	 scan_pp_likely(const struct patset *);
int	 scan_re_ok(const struct patset *);
int	 scan_hamming_ok(const struct patset *);

#endif
