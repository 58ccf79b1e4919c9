/*
 * walk.c: the first stage: operands, the -r tree and standard input become
 * jobs, in grep's order: small files in batches, large ones as ranges
 * (range.c), pipes and devices as one job once the jobs before them are
 * done.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../engines/hostmatch.h"
#include "../engines/hplan.h"
#include "input.h"
#include "../output/output.h"
#include "pool.h"
#include "records.h"
#include "../device/scan.h"
#include "search.h"
#include "search_int.h"
#include "../base/util.h"
#include "decomp.h"
#include "zin.h"

#define STDIN_PATH "/dev/stdin"	/* standard input, opened again */

/* Whole inputs in one job: small files batched together (so that a tree
 * of small files costs a job per batch, not per file), or one input; a
 * NULL path is standard input. */
#define BATCH_FILES	64

struct filejob {
	int		 n;
	int		 show_name;
	size_t		 bytes;		/* the files' sizes, summed */
	char		*path[BATCH_FILES];
};

static struct filejob *batch;	/* small files waiting to be submitted */

/* Does grep check that an input is not the output?  Not when the output
 * cannot grow from it (-q, -l, -L, -c, -m 1). */
static int
output_checked(void)
{
	return !opt->quiet && !opt->list && !opt->list_none && !opt->count &&
	    (opt->max_count < 0 || opt->max_count > 1);
}

/* Returns the name standard input goes by (--label). */
static const char *
stdin_name(void)
{
	return opt->label ? opt->label : "(standard input)";
}

/* Searches one file: through the hook when one is set (an MPI run of
 * several ranks spreads each file over them, see src/mpi.c). */
static int
search_file(struct searcher *w, const char *path, int show_name)
{
	if (S.file_hook != NULL && !(opt->decompress && zin_compressed(path)))
		return S.file_hook(path, show_name);
	return search_file_local(w, path, show_name);
}


/* Searches standard input with worker w.  Returns 0, or -1 after a
 * message. */
static int
stdin_search(struct searcher *w, int show_name)
{
	struct fstate fs;
	struct stat st;
	int rc, reg = fstat(STDIN_FILENO, &st) == 0 && S_ISREG(st.st_mode);
	off_t at = reg ? lseek(STDIN_FILENO, 0, SEEK_CUR) : -1;
	struct dz *z = NULL;
	unsigned char first[DZ_SNIFFLEN];
	size_t nfirst = 0;

	if (opt->decompress) {
		z = zin_open(STDIN_FILENO, stdin_name(), reg, &rc, first,
		    &nfirst);
		if (rc)
			return -1;
		if (z != NULL)
			reg = 0, at = -1;
	}
	out_file_start(&fs, stdin_name(), show_name);
	out_file_size(&fs, reg ? (long long)st.st_size : -1);
	w->read_pos = 0;
	w->read_left = UINT64_MAX;
	rc = zin_search(w, z, STDIN_FILENO, &fs, stdin_name(), first, nfirst);
	/* -m NUM reached: leave standard input just after the last selected
	 * record, as grep does, for whoever reads it next. */
	if (at != -1 && fs.last && !opt->quiet)
		lseek(STDIN_FILENO, at + (off_t)fs.sel_end, SEEK_SET);
	out_file_end(&fs);
	return rc;
}

static void
file_job(void *arg, int worker)
{
	struct filejob *fj = arg;
	struct searcher *w = &S.w[worker];

	for (int i = 0; i < fj->n; i++) {
		int rc = 0;
		if (!pool_quit())
			rc = fj->path[i] == NULL ?
			    stdin_search(w, fj->show_name) :
			    search_file(w, fj->path[i], fj->show_name);
		if (rc == -1)
			__atomic_store_n(&S.job_failed, 1, __ATOMIC_RELAXED);
		free(fj->path[i]);
	}
	free(fj);
}

/* Submits the batch of small files, if any. */
static void
batch_flush(void)
{
	if (batch != NULL)
		pool_submit(file_job, batch);
	batch = NULL;
}

/* Submits what the walk holds back; call once, after the last input. */
void
search_flush(void)
{
	if (batch != NULL)
		pool_submit_last(file_job, batch);
	batch = NULL;
}

/* Returns 1 when a job reported a problem (exit status 2). */
int
search_jobs_failed(void)
{
	return __atomic_load_n(&S.job_failed, __ATOMIC_RELAXED);
}



/* Is the input named name, of status st (NULL: unknown), also standard
 * output?  Then it is refused as grep refuses it: returns 1 after the
 * message. */
static int
refused_as_output(const char *name, const struct stat *st)
{
	if (st == NULL || !in_is_output(st) || !output_checked())
		return 0;
	if (!opt->silent)
		warnx_("%s: input file is also the output", name);
	__atomic_store_n(&S.job_failed, 1, __ATOMIC_RELAXED);
	return 1;
}

/*
 * Whether standard input (its status into *in) is a large regular file
 * that can be read again by its name in ranges, like a file argument: read
 * from its start, and STDIN_PATH opens the same file.  (A pipe, or input
 * read partly before, is streamed.)
 */
static int
stdin_as_file(struct stat *in)
{
	struct stat again;
	int fd, same;

	if (fstat(STDIN_FILENO, in) != 0 || !S_ISREG(in->st_mode) ||
	    (uint64_t)in->st_size <= range_for((uint64_t)in->st_size) + 1 ||
	    (uint64_t)in->st_size < S.split_min ||
	    lseek(STDIN_FILENO, 0, SEEK_CUR) != 0 ||
	    (fd = open(STDIN_PATH, O_RDONLY)) == -1)
		return 0;
	same = fstat(fd, &again) == 0 && again.st_dev == in->st_dev &&
	    again.st_ino == in->st_ino;
	close(fd);
	return same;
}

/* Hands one input to the pipeline: a large regular file as ranges, any
 * other input as one job.  st: the file's status, or NULL. */
static void
submit_input(const char *path, int show_name, const struct stat *st)
{
	struct filejob *fj;
	struct stat in;

	if (path == NULL ? fstat(STDIN_FILENO, &in) == 0 &&
	    refused_as_output(stdin_name(), &in) :
	    refused_as_output(path, st))
		return;
	/* Sequence records (--dna, --records) and the hit table (--hits). */
	if (S.file_hook == NULL && (st == NULL || S_ISREG(st->st_mode) ||
	    path == NULL) && rec_submit(path, path != NULL ? path :
	    stdin_name(), show_name, batch_flush)) {
		hplan_ahead_unknown();	/* (its text is not its bytes) */
		return;
	}
	/* --decompress: a compressed input (or a stream, which cannot be
	 * looked at first) as the stream of its decoded bytes; a directory
	 * named is read as it is (grep's "Is a directory", counted by -c) */
	if (opt->decompress && ranges_ok() && S.file_hook == NULL &&
	    (st == NULL || !S_ISDIR(st->st_mode))) {
		const int reg = path == NULL ? fstat(STDIN_FILENO, &in) == 0 &&
		    S_ISREG(in.st_mode) : st != NULL && S_ISREG(st->st_mode);
		if (!reg) {
			batch_flush();
			pool_drain();
			if (out_quit())
				return;
		}
		if (zin_submit(path, path != NULL ? path : stdin_name(),
		    show_name, batch_flush)) {
			hplan_ahead_unknown();
			return;
		}
	}
	if (path != NULL && st != NULL && S_ISREG(st->st_mode) &&
	    (uint64_t)st->st_size > range_for((uint64_t)st->st_size) + 1 &&
	    (uint64_t)st->st_size >= S.split_min &&
	    ranges_ok() && access(path, R_OK) == 0 && S.file_hook == NULL) {
		batch_flush();
		submit_ranges(path, NULL, show_name, (uint64_t)st->st_size);
		return;
	}
	if (path == NULL && stdin_as_file(&in) && ranges_ok() &&
	    S.file_hook == NULL) {
		batch_flush();
		submit_ranges(STDIN_PATH, stdin_name(), show_name,
		    (uint64_t)in.st_size);
		return;
	}
	/* Small regular files go in batches. */
	if (st != NULL && S_ISREG(st->st_mode) && pool_threaded()) {
		if (batch != NULL && (batch->n == BATCH_FILES ||
		    batch->show_name != show_name ||
		    batch->bytes + (uint64_t)st->st_size > S.range))
			batch_flush();
		if (batch == NULL) {
			batch = xcalloc(1, sizeof(*batch));
			batch->show_name = show_name;
		}
		batch->path[batch->n++] = xstrdup(path);
		batch->bytes += (uint64_t)st->st_size;
		return;
	}
	batch_flush();
	/* A pipe, FIFO or device may block or never end: it waits until the
	 * inputs before it are done (-q may make it unneeded). */
	if (st == NULL || !S_ISREG(st->st_mode)) {
		pool_drain();
		if (out_quit())
			return;
	}
	/* Standard input as ranges (not under MPI: rank 0 searches it). */
	if (path == NULL && ranges_ok() && S.file_hook == NULL) {
		if (submit_stream(STDIN_FILENO, stdin_name(), show_name) == -1)
			__atomic_store_n(&S.job_failed, 1, __ATOMIC_RELAXED);
		return;
	}
	fj = xcalloc(1, sizeof(*fj));
	fj->n = 1;
	fj->path[0] = path ? xstrdup(path) : NULL;
	fj->show_name = show_name;
	pool_submit(file_job, fj);
}

/* in_walk callback: every file under a directory operand is named.  With
 * arg set (-r and no operand: the tree under "."), "./" is left off the
 * names, as grep does. */
static int
walk_file(const char *path, const struct stat *st, void *arg)
{
	if (out_quit())
		return 0;
	if (arg != NULL && strncmp(path, "./", 2) == 0)
		path += 2;
	submit_input(path, opt->with_name != 0, st);
	return 0;
}

/* Searches the tree under the working directory (-r without operands). */
int
search_cwd(void)
{
	return in_walk(".", opt->recursive == 2, &S.filter, walk_file, "");
}

/* Searches a file operand, or the tree under it with -r.  Returns 0, or -1
 * after a message (problems inside the jobs: search_jobs_failed). */
int
search_path(const char *path, int show_name)
{
	struct stat st;
	int have = 0;

	if (strcmp(path, "-") == 0)
		return search_stdin(show_name);
	if (stat(path, &st) == 0) {
		have = 1;
		if (S_ISDIR(st.st_mode)) {
			if (opt->skip_dirs || (opt->recursive &&
			    !in_dir_wanted(&S.filter, path, 1)))
				return 0;
			if (opt->recursive)
				return in_walk(path, opt->recursive == 2,
				    &S.filter, walk_file, NULL);
			/* read as grep does: "Is a directory" from its read,
			 * and -c, -L count it as an input with no line */
			submit_input(path, show_name, &st);
			return 0;
		}
	}
	/* grep applies --include and --exclude to named files too. */
	if (!in_file_wanted(&S.filter, path, 1))
		return 0;
	/* -D skip: devices, FIFOs and sockets named are not read. */
	if (have && opt->skip_devices && (S_ISCHR(st.st_mode) ||
	    S_ISBLK(st.st_mode) || S_ISFIFO(st.st_mode) ||
	    S_ISSOCK(st.st_mode)))
		return 0;
	submit_input(path, show_name, have ? &st : NULL);
	return 0;
}

/* Searches standard input.  Returns 0 (problems: search_jobs_failed). */
int
search_stdin(int show_name)
{
	submit_input(NULL, show_name, NULL);
	return 0;
}

