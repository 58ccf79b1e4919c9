/* zin.h: compressed inputs in the pipeline (zin.c). */
#ifndef AGREP_ZIN_H
#define AGREP_ZIN_H

#include <stddef.h>

struct dz;
struct fstate;
struct searcher;

void	 zin_note(const char *name, const unsigned char *, size_t);
struct dz *zin_open(int fd, const char *name, int reg, int *err,
	    unsigned char *first, size_t *nfirst);
int	 zin_close(struct dz *, const char *name);
int	 zin_submit(const char *path, const char *name, int show_name,
	    void (*flush)(void));
int	 zin_search(struct searcher *, struct dz *, int fd, struct fstate *,
	    const char *name, const unsigned char *first, size_t nfirst);
int	 zin_compressed(const char *path);

#endif
