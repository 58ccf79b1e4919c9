/* output.h: turn hit bitmaps into grep-style output. */
#ifndef AGREP_OUTPUT_H
#define AGREP_OUTPUT_H

#include <stddef.h>
#include <stdint.h>

#include "options.h"

/* What output knows about the file being searched. */
struct fstate {
	const char	*name;		/* as printed */
	int		 show_name;	/* prefix lines with the name */
	uintmax_t	 off;		/* file offset of the current chunk */
	uintmax_t	 lines;		/* records before 'counted' */
	size_t		 counted;	/* chunk offset up to which 'lines' counts */
	uintmax_t	 nsel;		/* records selected so far */
	int		 binary;	/* a NUL byte was seen */
	int		 done;		/* nothing more to do for this file */
};

/* output.c */
void	out_init(const struct options *);
void	out_chunk(struct fstate *, const unsigned char *text, size_t len,
	    const uint64_t *bitmap, int all);
void	out_file_end(struct fstate *);
int	out_flush(void);

#endif
