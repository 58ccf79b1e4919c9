/* util.c: allocation that never returns NULL, and messages on stderr. */
#include <errno.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

const char *progname = "agrep-gpu";
int opt_silent;
static void (*msg_sink)(const char *, size_t);	/* util_set_sink */

/* Sends the messages of warnx_ and fatalx to fn instead of stderr (the
 * pipeline keeps them in order with the output). */
void
util_set_sink(void (*fn)(const char *, size_t))
{
	msg_sink = fn;
}

/* Sends "agrep-gpu: message" to the sink (the pipeline's writer, so that
 * it keeps its place among the output of the files around it), or to
 * stderr. */
static void
vmsg(const char *fmt, va_list ap)
{
	char buf[4096];
	int n = snprintf(buf, sizeof(buf), "%s: ", progname);

	if (n < 0)
		return;
	n += vsnprintf(buf + n, sizeof(buf) - (size_t)n - 1, fmt, ap);
	if (n > (int)sizeof(buf) - 2)
		n = (int)sizeof(buf) - 2;
	buf[n++] = '\n';
	fflush(stdout);
	if (msg_sink != NULL)
		msg_sink(buf, (size_t)n);
	else
		fwrite(buf, 1, (size_t)n, stderr);
}

/* Prints "agrep-gpu: message" on stderr. */
void
warnx_(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
}

/* Prints the message and exits with status 2 (trouble), as grep does. */
void
fatalx(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
	exit(2);
}

void *
xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (p == NULL)
		fatalx("out of memory (%zu bytes)", n);
	return p;
}

/*
 * n bytes for a large buffer, freed with util_free_big: a mapping of its
 * own, from 2 MiB on aligned to 2 MiB and in huge pages where the system
 * gives them on request (transparent huge pages in "madvise" mode,
 * Debian's default): 4 KiB pages cost a page fault each when first written
 * (64 MB of Bible through a pipe: 8,000 faults, a third of the run's CPU
 * time beside the scan; the 2 MB ranges of a 34 MB file: 1,100 of its
 * 1,360 faults).  A page that faults on access sits on each side of the
 * buffer (an overrun is a crash, in every build).  Pages not written are
 * never touched: not by the allocator, and not by the sanitizers, which
 * poisoned, scanned for leaks and poisoned again every page of a heap
 * buffer (a search of a tiny file under ASan on POCL: half of its page
 * faults, 0.2 s of its 0.6).  NULL when out of memory.
 */
struct bighead {
	void	*base;
	size_t	 len;
};

void *
util_alloc_big(size_t n)
{
	const size_t page = (size_t)sysconf(_SC_PAGESIZE), huge = (size_t)2 << 20;
	const size_t align = n >= huge ? huge : page;
	unsigned char *base, *p;

	if (n > SIZE_MAX / 4)
		return NULL;
	/* [up to align - page unused][the head's page][a guard][the body,
	 * n rounded up to align][a guard] */
	const size_t body = (n + align - 1) / align * align;
	const size_t len = (align - page) + 2 * page + body + page;
	base = mmap(NULL, len, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (base == MAP_FAILED)
		return NULL;
	p = (unsigned char *)(((uintptr_t)base + 2 * page + align - 1) /
	    align * align);
	struct bighead *h = (struct bighead *)(void *)(p - 2 * page);
	h->base = base;
	h->len = len;
	(void)mprotect(p - page, page, PROT_NONE);
	(void)mprotect(p + body, page, PROT_NONE);
#ifdef MADV_HUGEPAGE
	if (align == huge)
		(void)madvise(p, body, MADV_HUGEPAGE);
#endif
	return p;
}

/* Frees a buffer of util_alloc_big (NULL: nothing). */
void
util_free_big(void *b)
{
	const size_t page = (size_t)sysconf(_SC_PAGESIZE);

	if (b == NULL)
		return;
	const struct bighead *h = (const struct bighead *)(void *)
	    ((unsigned char *)b - 2 * page);
	(void)munmap(h->base, h->len);
}

void *
xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (p == NULL)
		fatalx("out of memory");
	return p;
}

void *
xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (p == NULL)
		fatalx("out of memory (%zu bytes)", n);
	return p;
}

void *
xreallocarray(void *p, size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		fatalx("out of memory");
	return xrealloc(p, n * size);
}

char *
xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(xmalloc(n), s, n);
}

/* CPU seconds this thread spent building a table shared by the workers
 * (seed_get, mf_get), which the host planner leaves out of the chunk
 * that built it (hplan.c) */
__thread double util_build_cpu;

/* This thread's CPU time, in seconds */
double
util_thread_cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Seconds on the monotonic clock. */
double
util_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/*
 * The program's cache directory, $XDG_CACHE_HOME/agrep-gpu (or
 * ~/.cache/agrep-gpu), made (with its parent) when make is set.  Returns
 * 0, or -1 when there is none (AGREP_GPU_NO_CACHE set, no home, no room).
 */
int
util_cache_dir(char *dir, size_t len, int make)
{
	const char *base = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	int n;

	if (getenv("AGREP_GPU_NO_CACHE") != NULL)
		return -1;
	if (base != NULL && *base != '\0')
		n = snprintf(dir, len, "%s/agrep-gpu", base);
	else if (home != NULL && *home != '\0')
		n = snprintf(dir, len, "%s/.cache/agrep-gpu", home);
	else
		return -1;
	if (n < 0 || (size_t)n >= len)
		return -1;
	if (make && mkdir(dir, 0700) == -1 && errno != EEXIST) {
		char *slash = strrchr(dir, '/');
		*slash = '\0';
		mkdir(dir, 0700);
		*slash = '/';
		if (mkdir(dir, 0700) == -1 && errno != EEXIST)
			return -1;
	}
	return 0;
}

/*
 * Puts the cache file written to tmp in place of path (-1: it was not,
 * tmp removed).  The old one is removed first: ext4 (auto_da_alloc) writes
 * a file renamed over another out to the disk before rename returns, 1.1
 * ms of a 3.7 ms search of the Bible (the host plan's run count, rewritten
 * every run), where a new name costs nothing.  A run that reads the cache
 * meanwhile finds none, as when two runs write at once.
 */
int
util_cache_replace(const char *tmp, const char *path)
{
	(void)unlink(path);
	if (rename(tmp, path) == -1) {
		unlink(tmp);
		return -1;
	}
	return 0;
}

/* The path of the cache file name in util_cache_dir (made if make is
 * set), or -1. */
int
util_cache_file(char *path, size_t len, const char *name, int make)
{
	char dir[4096];

	if (util_cache_dir(dir, sizeof(dir), make) == -1 ||
	    (size_t)snprintf(path, len, "%s/%s", dir, name) >= len)
		return -1;
	return 0;
}
