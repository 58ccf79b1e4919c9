/* hplan.h: the host's engines chosen by measurement (hplan.c). */
#ifndef AGREP_HPLAN_H
#define AGREP_HPLAN_H

#include <stddef.h>
#include <stdint.h>

#include "pattern.h"

/* Chunks from this size are planned (a smaller one takes the rule's
 * engines: too short to time, and its scan is cheap whatever runs it). */
#define HP_MIN		((size_t)16 << 10)
/* The probe's two samples: every candidate over the first HP_SMALL bytes
 * of the chunk, the close ones over the first HP_SAMPLE. */
#define HP_SMALL	((size_t)8 << 10)
#define HP_SAMPLE	((size_t)64 << 10)
/* ... and those within 15% of the fastest there this much more (a close
 * call: over 64 KB the tables are still coming into the cache) */
#define HP_FINAL	((size_t)256 << 10)

struct hplan;

int	hplan_scan(const struct patset *, const unsigned char *text,
	    size_t warm, size_t len, unsigned char eol, uint64_t *bitmap);
void	hplan_free(struct hplan *);
/* What the run says of the text to come, for the revisions (a probe with
 * little text left cannot pay): the bytes of its inputs where it knows
 * them all (regular files named, main), that they are all counted, and an
 * input whose text is not its bytes (decoded, or sequence records: the
 * text ahead is then unknown, as it is without the first two calls). */
void	hplan_ahead(uint64_t bytes);
void	hplan_ahead_unknown(void);
void	hplan_ahead_final(void);

#endif
