/*
 * mpi.c: several processes (MPI ranks) search one file together.
 *
 * Rank 0 drives: for each file it broadcasts the path and size; every rank
 * cuts the file into R byte ranges at record starts (each range begins
 * right after a terminator, so no warm-up is needed), searches its own range
 * with its local devices and sends rank 0 the offsets of its records with a
 * match.  Rank 0 then prints the file itself from those offsets with the
 * ordinary output code, so the output is exactly that of one process for
 * every option (-c, -l, -n, -b, context, -o, ...).  Standard input, small
 * files and searches that need no scan stay with rank 0.  A rank that cannot
 * search its range says so; rank 0 searches that range itself and the exit
 * status becomes 2.
 */
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>

#include "mpi.h"
#include "search.h"
#include "../base/util.h"

#define TAG_HITS	1
#define NO_HITS		UINT64_MAX	/* the count sent when a rank failed */

static int rank, ranks = 1;
static uint64_t min_size = 1 << 20;	/* smaller files: rank 0 alone */

void
mpi_start(int *argc, char ***argv)
{
	const char *v = getenv("AGREP_GPU_MPI_MIN");

	MPI_Init(argc, argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &ranks);
	if (v != NULL)
		min_size = strtoull(v, NULL, 10);
}

int
mpi_rank(void)
{
	return rank;
}

int
mpi_ranks(void)
{
	return ranks;
}

/* Returns the first record start at or after off (or size). */
static uint64_t
cut(int fd, uint64_t off, uint64_t size, unsigned char eol)
{
	unsigned char buf[65536];
	ssize_t n;

	if (off == 0 || off >= size)
		return off >= size ? size : 0;
	off--;		/* a terminator just before off cuts there */
	while ((n = pread(fd, buf, sizeof(buf), (off_t)off)) > 0) {
		const unsigned char *t = memchr(buf, eol, (size_t)n);
		if (t != NULL)
			return off + (uint64_t)(t - buf) + 1;
		off += (uint64_t)n;
	}
	return size;
}

/* Computes rank r's byte range of a file; returns 0, or -1. */
static int
range(const char *path, uint64_t size, int r, unsigned char eol,
    uint64_t *start, uint64_t *end)
{
	int fd = open(path, O_RDONLY);

	if (fd == -1)
		return -1;
	*start = cut(fd, size / (uint64_t)ranks * (uint64_t)r, size, eol);
	*end = r == ranks - 1 ? size :
	    cut(fd, size / (uint64_t)ranks * (uint64_t)(r + 1), size, eol);
	close(fd);
	return 0;
}

/* Header of a file job: path length (0 ends the run), file size, eol. */
struct job {
	uint64_t	pathlen, size, eol;
};

/* Searches one range and returns its hits to rank 0 (as a worker), or
 * into h (rank 0).  Returns 0, or -1. */
static int
search_mine(const char *path, const struct job *j, struct hitlist *h)
{
	const char *fail = getenv("AGREP_GPU_MPI_FAIL_RANK");	/* tests */
	uint64_t a, b;

	if (fail != NULL && atoi(fail) == rank) {
		warnx_("%s: rank %d: failing as AGREP_GPU_MPI_FAIL_RANK asks",
		    path, rank);
		return -1;
	}
	if (range(path, j->size, rank, (unsigned char)j->eol, &a, &b) == -1)
		return -1;
	return a < b ? search_range(path, a, b, h) : 0;
}

/* A worker's life: search the ranges rank 0 names until it says stop. */
int
mpi_worker(void)
{
	struct job j;

	for (;;) {
		MPI_Bcast(&j, 3, MPI_UINT64_T, 0, MPI_COMM_WORLD);
		if (j.pathlen == 0)
			break;
		char *path = xmalloc(j.pathlen + 1);
		MPI_Bcast(path, (int)j.pathlen, MPI_CHAR, 0, MPI_COMM_WORLD);
		path[j.pathlen] = '\0';
		struct hitlist h = { NULL, 0, 0 };
		uint64_t n = search_mine(path, &j, &h) == 0 ? h.n : NO_HITS;
		MPI_Send(&n, 1, MPI_UINT64_T, 0, TAG_HITS, MPI_COMM_WORLD);
		if (n != NO_HITS && n > 0)
			MPI_Send(h.off, (int)n, MPI_UINT64_T, 0, TAG_HITS,
			    MPI_COMM_WORLD);
		free(h.off);
		free(path);
	}
	return 0;
}

/*
 * Rank 0: searches a file with every rank and prints it.  Returns 0, or -1
 * after a message (a rank's failure included).
 */
int
mpi_search_file(const char *path, int show_name)
{
	const struct options *o = search_options();
	struct stat st;
	struct job j;
	struct hitlist all = { NULL, 0, 0 };
	int rc = 0;

	if (stat(path, &st) == -1 || !S_ISREG(st.st_mode) ||
	    (uint64_t)st.st_size < min_size || !search_needs_scan())
		return search_file_hits(path, show_name, NULL);
	/* Each rank's hits arrive in file order, rank after rank. */
	j.pathlen = strlen(path);
	j.size = (uint64_t)st.st_size;
	j.eol = o->eol;
	MPI_Bcast(&j, 3, MPI_UINT64_T, 0, MPI_COMM_WORLD);
	MPI_Bcast((void *)path, (int)j.pathlen, MPI_CHAR, 0, MPI_COMM_WORLD);
	if (search_mine(path, &j, &all) == -1)
		rc = -1;
	for (int r = 1; r < ranks; r++) {
		uint64_t n, a, b;
		MPI_Recv(&n, 1, MPI_UINT64_T, r, TAG_HITS, MPI_COMM_WORLD,
		    MPI_STATUS_IGNORE);
		if (n == NO_HITS) {
			warnx_("%s: rank %d failed; rank 0 searches its part",
			    path, r);
			rc = -1;
			if (range(path, j.size, r, o->eol, &a, &b) == 0 &&
			    a < b)
				search_range(path, a, b, &all);
			continue;
		}
		all.off = xreallocarray(all.off, all.n + n + 1,
		    sizeof(*all.off));
		all.cap = all.n + n + 1;
		if (n > 0)
			MPI_Recv(all.off + all.n, (int)n, MPI_UINT64_T, r,
			    TAG_HITS, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		all.n += n;
	}
	if (search_file_hits(path, show_name, &all) == -1)
		rc = -1;
	free(all.off);
	return rc;
}

/* Rank 0 tells the workers to stop; every rank leaves MPI. */
void
mpi_end(void)
{
	if (rank == 0 && ranks > 1) {
		struct job j = { 0, 0, 0 };
		MPI_Bcast(&j, 3, MPI_UINT64_T, 0, MPI_COMM_WORLD);
	}
	MPI_Finalize();
}
