/*
 * decomp_test.c: decomp_test [-d] [-j N] [-m BYTES] FILE|-
 *
 * Decodes FILE (or standard input) with src/pipeline/decomp.c to standard
 * output, as --decompress will: the format from its first bytes, anything
 * else copied.  -m stops reading after BYTES bytes and closes the decoder
 * early, as -m, -l and -q do.  -d: opened direct, read with dz_fill (as
 * the pipeline reads it), not through the pipe.  Exit status: 0, or 2 with the error on
 * stderr.  Built by tests/decomp.sh (the command is at its top).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../src/pipeline/decomp.h"

/* Reads up to n bytes, fewer only at the end; -1 on error. */
static ssize_t
read_full(int fd, unsigned char *p, size_t n)
{
	size_t got = 0;
	ssize_t r;

	while (got < n) {
		if ((r = read(fd, p + got, n - got)) < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (r == 0)
			break;
		got += r;
	}
	return got;
}

/* Copies the decoder's pipe to stdout, limit bytes at most. */
static int
pump(struct dz *z, int direct, long long limit)
{
	static unsigned char buf[1 << 16];
	size_t want;
	ssize_t n;
	int eof = 0;

	while (limit != 0 && !eof) {
		want = limit > 0 && limit < (long long)sizeof buf ?
		    (size_t)limit : sizeof buf;
		n = direct ? dz_fill(z, buf, want, &eof, 0) :
		    read(dz_fd(z), buf, want);
		if (n <= 0)
			return n < 0 ? -1 : 0;
		if (write(STDOUT_FILENO, buf, n) != n)
			return -1;
		if (limit > 0)
			limit -= n;
	}
	return 0;
}

static void
usage(void)
{
	fprintf(stderr, "usage: decomp_test [-d] [-j threads] [-m bytes] "
	    "file|-\n");
	exit(2);
}

int
main(int argc, char *argv[])
{
	unsigned char head[DZ_SNIFFLEN];
	long long limit = -1;
	char err[256];
	struct dz *z;
	ssize_t n;
	int c, fd, threads = 1, direct = 0;

	while ((c = getopt(argc, argv, "dj:m:")) != -1) {
		if (c == 'd')
			direct = 1;
		else if (c == 'j')
			threads = atoi(optarg);
		else if (c == 'm')
			limit = atoll(optarg);
		else
			usage();
	}
	if (optind + 1 != argc)
		usage();
	fd = strcmp(argv[optind], "-") == 0 ? STDIN_FILENO :
	    open(argv[optind], O_RDONLY);
	if (fd < 0 || (n = read_full(fd, head, sizeof head)) < 0) {
		fprintf(stderr, "decomp_test: %s: %s\n", argv[optind],
		    strerror(errno));
		return 2;
	}
	/* A file is read again from its start, standard input cannot be:
	 * both ways of handing over the first bytes get tested. */
	if (fd != STDIN_FILENO && lseek(fd, 0, SEEK_SET) == 0)
		z = dz_open(fd, head, 0, dz_sniff(head, n), threads, direct);
	else
		z = dz_open(fd, head, n, dz_sniff(head, n), threads, direct);
	if (z == NULL) {
		fprintf(stderr, "decomp_test: dz_open: %s\n", strerror(errno));
		return 2;
	}
	if (pump(z, direct, limit) < 0)
		fprintf(stderr, "decomp_test: %s\n", strerror(errno));
	if (dz_close(z, err, sizeof err) < 0) {
		fprintf(stderr, "decomp_test: %s: %s\n", argv[optind], err);
		return 2;
	}
	return 0;
}
