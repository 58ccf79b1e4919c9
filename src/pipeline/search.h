/* search.h: search one input: read chunks, scan them, print the records. */
#ifndef AGREP_SEARCH_H
#define AGREP_SEARCH_H

#include <stdint.h>

#include "../cli/options.h"
#include "../engines/pattern.h"

/* Offsets of the records that hold a match (the first match end in each),
 * in input order: what an MPI rank finds in its byte range (src/mpi.c). */
struct hitlist {
	uint64_t	*off;
	size_t		 n, cap;
};

/* search.c */
void	search_init(const struct options *, const struct patset *);
void	search_gpus(uint64_t total);
void	search_total(uint64_t total);
int	search_path(const char *path, int show_name);
int	search_cwd(void);
int	search_stdin(int show_name);
int	search_matched(void);
int	search_failed(void);
int	search_abandoned(void);
void	search_end(void);
int	search_jobs_failed(void);
void	search_flush(void);
void	search_set_file_hook(int (*)(const char *, int));
int	search_range(const char *path, uint64_t start, uint64_t end,
	    struct hitlist *);
int	search_file_hits(const char *path, int show_name,
	    const struct hitlist *);
void	hits_add(struct hitlist *, uint64_t);
int	search_needs_scan(void);
const struct options *search_options(void);

#endif
