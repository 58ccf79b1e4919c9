/* hostmatch.h: Myers' algorithm in plain C on the host. */
#ifndef AGREP_HOSTMATCH_H
#define AGREP_HOSTMATCH_H

#include <stddef.h>
#include <stdint.h>

#include "pattern.h"

/* hostmatch.c */
void	hm_scan(const struct patset *, const unsigned char *text, size_t warm,
	    size_t len, unsigned char eol, uint64_t *bitmap);
void	hm_exact(const struct pattern *, const unsigned char *text,
	    size_t len, unsigned char eol, uint64_t *bitmap);

#endif
