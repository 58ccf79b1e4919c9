/*
 * decomp_test.c: decomp_test [-d] [-j N] [-m BYTES] [-s BUDGET] FILE|-
 *
 * Decodes FILE (or standard input) with src/pipeline/decomp.c to standard
 * output, as --decompress will: the format from its first bytes, anything
 * else copied.  -m stops reading after BYTES bytes and closes the decoder
 * early, as -m, -l and -q do.  -d: opened direct, read with dz_fill (as
 * the pipeline reads it), not through the pipe.  -s: BGZF and zstd through
 * the splitter (dzs_*, as the pipeline's workers decode them), spans of
 * about BUDGET decoded bytes decoded N at a time on N threads, the rest
 * (after a unit that does not decode, or one the splitter does not take)
 * through dzs_rest's direct decoder.  Exit status: 0, or 2 with the error
 * on stderr.  Built by tests/decomp.sh (the command is at its top).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
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

/* Writes p[0, n) to stdout, limit bytes at most (*limit -1: no limit);
 * 1 when the limit is reached, -1 on error. */
static int
put(const unsigned char *p, size_t n, long long *limit)
{
	if (*limit >= 0 && (long long)n > *limit)
		n = (size_t)*limit;
	if (n > 0 && write(STDOUT_FILENO, p, n) != (ssize_t)n)
		return -1;
	if (*limit >= 0)
		*limit -= (long long)n;
	return *limit == 0;
}

struct task {
	struct dzspan	*sp;
	unsigned char	*out;
	size_t		 got;
	int		 bad;
};

static void *
decode_task(void *arg)
{
	struct task *t = arg;

	t->out = malloc(dzs_bound(t->sp) + 1);
	if (t->out == NULL)
		abort();
	t->got = dzs_decode(t->sp, t->out, &t->bad);
	return NULL;
}

/* -s: the splitter, into stdout; *zp: the decoder of the rest, if any.
 * Returns 0, 1 when the limit was reached, -1 when dzs_rest failed. */
static int
split(struct dzsplit *p, int threads, long long *limit, struct dz **zp)
{
	struct task t[64];
	pthread_t tid[64];
	struct dz *z = NULL;
	int n, i, r = 1, done = 0, stop = 0, rest = 0;

	threads = threads < 1 ? 1 : threads > 64 ? 64 : threads;
	while (r == 1 && !done) {
		for (n = 0; n < threads && (r = dzs_next(p, &t[n].sp)) == 1;
		    n++)
			if (pthread_create(&tid[n], NULL, decode_task, &t[n]))
				abort();
		for (i = 0; i < n; i++)
			pthread_join(tid[i], NULL);
		for (i = 0; i < n && !done; i++) {
			if (put(t[i].out, t[i].got, limit) != 0)
				done = stop = 1;
			else if (t[i].bad >= 0) {
				z = dzs_rest(p, &t[i].sp, n - i, t[i].bad, 2);
				done = rest = 1;
			}
		}
		for (i = 0; i < n; i++) {
			free(t[i].out);
			dzs_free(t[i].sp);
		}
	}
	if (!done && r == 2) {
		z = dzs_rest(p, NULL, 0, 0, 2);
		rest = 1;
	}
	*zp = z;
	return stop ? 1 : rest && z == NULL ? -1 : 0;
}

static void
usage(void)
{
	fprintf(stderr, "usage: decomp_test [-d] [-j threads] [-m bytes] "
	    "[-s budget] file|-\n");
	exit(2);
}

int
main(int argc, char *argv[])
{
	unsigned char head[DZ_SNIFFLEN];
	long long limit = -1;
	char err[256];
	struct dz *z;
	struct dzsplit *sp = NULL;
	ssize_t n;
	size_t budget = 0;
	int c, fd, threads = 1, direct = 0, r;

	while ((c = getopt(argc, argv, "dj:m:s:")) != -1) {
		if (c == 'd')
			direct = 1;
		else if (c == 's')
			budget = (size_t)atoll(optarg);
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
	if (budget > 0)
		sp = dzs_open(fd, head, fd != STDIN_FILENO &&
		    lseek(fd, 0, SEEK_SET) == 0 ? 0 : n, dz_sniff(head, n),
		    budget, 2 * budget, threads);
	if (sp != NULL) {
		r = split(sp, threads, &limit, &z);
		dzs_close(sp);
		if (r < 0) {
			fprintf(stderr, "decomp_test: dzs_rest: %s\n",
			    strerror(errno));
			return 2;
		}
		if (z == NULL)
			return 0;
		direct = 1;
	} else if (fd != STDIN_FILENO && lseek(fd, 0, SEEK_SET) == 0)
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
