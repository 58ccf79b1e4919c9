/* plan.h: the planner: where each range of a large input is scanned (the
 * host's workers or an OpenCL device), from a measured throughput model. */
#ifndef AGREP_PLAN_H
#define AGREP_PLAN_H

#include <stddef.h>
#include <stdint.h>

/* How the devices may be used. */
enum plan_mode {
	PLAN_AUTO,		/* everything that pays */
	PLAN_HOST,		/* --device=host: no device */
	PLAN_DEVICE		/* --device=gpu|N|all...: every scan there */
};

/* Where a range goes. */
enum plan_where {
	PLAN_ON_HOST,
	PLAN_ON_DEVICE		/* a free slot, or wait for one */
};

/* The kernel a device runs for the patterns: each has figures of its own. */
enum plan_kernel {
	PLAN_MYERS,		/* myers_scan, myers_scan_blocks */
	PLAN_PP,		/* the pattern-parallel kernel (myers_pp) */
	PLAN_RE			/* the automaton of an expression (re_scan) */
};

/* plan.c */
/* Appended to a device's name when it runs the pattern-parallel kernel,
 * the automaton kernel: its figures are cached apart. */
#define PLAN_PP_SUFFIX	" [pattern-parallel]"
#define PLAN_RE_SUFFIX	" [automaton]"

void	plan_init(enum plan_mode, int workers, size_t dev_work,
	    enum plan_kernel);
enum plan_mode plan_mode(void);
int	plan_probed(void);
void	plan_probe(size_t len, double secs);
double	plan_host_rate(void);
int	plan_start_devices(uint64_t size, int known);
int	plan_open_early(uint64_t size);
int	plan_more_devices(double open_secs);
int	plan_open_together(void);
enum plan_where plan_place(uint64_t range, int dev_state, uint64_t queued,
	    int slot_free);
void	plan_host_done(uint64_t bytes, double secs);
int	plan_late(void);
int	plan_gpus(int present, uint64_t size);
void	plan_listed(int n);
void	plan_dev_open(int dev, const char *name, int gpu, double secs);
void	plan_dev_done(int dev, uint64_t bytes, double t_hand, double t_done);
void	plan_dev_work(int dev, double fill, double submit, double fmt);
double	plan_dev_rate(int dev);
void	plan_mark(const char *);
void	plan_end(void);

#endif
