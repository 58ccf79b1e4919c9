/* devq.h: the devices' slots in flight: a worker fills a slot and hands
 * it over; the device's own threads wait for its scan and finish it. */
#ifndef AGREP_DEVQ_H
#define AGREP_DEVQ_H

#include <stddef.h>
#include <stdint.h>

#include "pool.h"
#include "../device/scan.h"

struct dslot;

/* What finishes a slot's range once its scan is done (bm: its hits, NULL
 * when nothing was scanned; failed: the device failed, nothing scanned).
 * It runs on one of the device's threads. */
typedef void (*devq_fn)(void *arg, struct scanner *, const uint64_t *bm,
    int failed);

/* devq.c */
void	 devq_init(struct scanner *devs, int ndev, int slots, size_t cap);
void	 devq_add(int dev);
int	 devq_free(uint64_t bytes);
uint64_t devq_queued(void);
#define DEVQ_WAIT	1	/* devq_take's wait: for a free slot */
struct dslot *devq_take(uint64_t bytes, int wait);
uint64_t devq_reserve(uint64_t bytes);
struct dslot *devq_take_turn(uint64_t bytes, uint64_t turn, int take);
struct scanner *devq_scanner(struct dslot *);
void	 devq_post(struct dslot *, int prep, double fill, uint64_t bytes,
	    devq_fn, void *arg, struct job *);
void	 devq_end(void);

#endif
