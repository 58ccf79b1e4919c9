/* search.h: search one input: read chunks, scan them, print the records. */
#ifndef AGREP_SEARCH_H
#define AGREP_SEARCH_H

#include "options.h"
#include "pattern.h"

/* search.c */
void	search_init(const struct options *, const struct patset *);
int	search_path(const char *path, int show_name);
int	search_cwd(void);
int	search_stdin(int show_name);
int	search_matched(void);
int	search_failed(void);
void	search_end(void);

#endif
