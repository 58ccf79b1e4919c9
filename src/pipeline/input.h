/* input.h: reading inputs in bounded pieces, and walking directories. */
#ifndef AGREP_INPUT_H
#define AGREP_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

/* Globs for the names met in a recursive walk (NULL-ended lists). */
struct walk_filter {
	const char	**globs;	/* "+GLOB" include, "-GLOB" exclude, in
					 * order: the last that matches wins */
	const char	**exclude_dir;	/* no directory matching one of these */
};

/* input.c: in_fill_paced (and decomp.c's dz_fill_paced) return once a
 * whole record came and nothing more within IN_PAUSE ms, and ask whether
 * the input is still needed every IN_IDLE ms while nothing comes */
#define IN_PAUSE	1
/* (-q and -l on a pipe that stays open end up to this long after their
 * match: 50 ms was 60 ms a run where grep takes 7) */
#define IN_IDLE		5

/* input.c */
ssize_t	in_pread(int fd, unsigned char *buf, size_t want, uint64_t off);
ssize_t	in_fill_paced(int fd, unsigned char *buf, size_t want, int *eof,
	    unsigned char eol, int (*stop)(void *), void *arg);
ssize_t	in_fill(int fd, unsigned char *buf, size_t want, int *eof,
	    int partial, int readers);
int	in_file_wanted(const struct walk_filter *, const char *, int operand);
int	in_is_output(const struct stat *);
int	in_dir_wanted(const struct walk_filter *, const char *, int operand);
int	in_walk(const char *path, int follow, const struct walk_filter *,
	    int (*fn)(const char *path, const struct stat *, void *arg), void *arg);

#endif
