/* sites.h: where the patterns match in a sequence, one row per site (the
 * hit table of --hits), from the end bitmap the engines produce. */
#ifndef AGREP_SITES_H
#define AGREP_SITES_H

#include <stddef.h>
#include <stdint.h>

#include "pattern.h"

/* One site: pattern pat matches t[start, end) at cost. */
struct site {
	size_t	 pat;
	size_t	 start, end;
	int	 cost;
};

struct sitelist {
	struct site	*s;
	size_t		 n, cap;
};

/* Bytes a piece of a long sequence overlaps its neighbour by on each side,
 * so that each decides its own sites as the whole sequence would. */
size_t	sites_overlap(const struct patset *);
void	sites_find(const struct patset *, const unsigned char *t, size_t n,
	    size_t own0, size_t own1, unsigned char eol, const uint64_t *bitmap,
	    size_t bitoff, struct sitelist *);
void	sites_free(struct sitelist *);

#endif
