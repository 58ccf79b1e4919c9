/* output.h: turn hit bitmaps into grep-style output. */
#ifndef AGREP_OUTPUT_H
#define AGREP_OUTPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "json.h"
#include "../cli/options.h"
#include "../engines/pattern.h"

/* What output knows about the input being searched. */
struct fstate {
	const char	*name;		/* as printed */
	int		 show_name;	/* prefix lines with the name */
	uintmax_t	 off;		/* input offset of the chunk's new part */
	uintmax_t	 lines;		/* records before 'counted' */
	size_t		 counted;	/* chunk offset up to which 'lines' counts */
	uintmax_t	 nsel;		/* records selected so far */
	uintmax_t	 last_end;	/* offset after the last printed record */
	long long	 after;		/* after-context records still due */
	int		 binary;	/* a NUL byte was seen: the records from
					 * here on are binary (see out_chunk) */
	int		 nonul;		/* the next out_chunk's bytes hold no
					 * NUL: the caller looked (it clears) */
	size_t		 nul_at;	/* the next out_chunk's first NUL plus
					 * 1, made a terminator before its
					 * scan (scan.c SCAN_ZAP); 0: none was
					 * (it clears) */
	uintmax_t	 sel_end;	/* offset after the last selected record */
	int		 width;		/* -T: digits of line numbers, offsets */
	int		 done;		/* nothing more to do for this input */
	int		 last;		/* -m reached: only after-context left */
	int		 enc;		/* a record to print held a UTF-8
					 * encoding error: left out, and
					 * "binary file matches" at the end */
	struct jstate	 js;		/* --json */
};

/* output.c */
void	out_init(const struct options *, const struct patset *);
void	out_file_start(struct fstate *, const char *name, int show_name);
void	out_chunk(struct fstate *, const unsigned char *text, size_t hist,
	    size_t len, const uint64_t *bitmap);
int	out_counts_ok(void);
int	out_nul_binary(void);
void	out_counted(struct fstate *, const unsigned char *text, size_t hist,
	    size_t len, uint64_t hits, uint64_t eols);
void	out_long_record(struct fstate *, FILE *tmp, uintmax_t len,
	    int terminated, int hit, int binary);
void	out_file_size(struct fstate *, long long size);
void	out_file_end(struct fstate *);
uintmax_t out_count_eol(const unsigned char *, size_t from, size_t to);
int	out_finish(void);
int	out_quit(void);
void	out_quit_now(void);

#endif
