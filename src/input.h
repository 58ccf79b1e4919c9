/* input.h: reading inputs in bounded pieces, and walking directories. */
#ifndef AGREP_INPUT_H
#define AGREP_INPUT_H

#include <stddef.h>
#include <sys/types.h>

/* input.c */
ssize_t	in_fill(int fd, unsigned char *buf, size_t want, int *eof,
	    int partial);
int	in_walk(const char *path, int follow,
	    int (*fn)(const char *path, void *arg), void *arg);

#endif
