/*
 * decomp.c: --decompress, an input decoded on background threads.
 *
 * dz_open starts a driver thread that reads the compressed input and
 * writes the decoded bytes to a pipe, whose read end the search reads as
 * it reads standard input.  gzip, xz, bzip2 and lz4 are decoded as one
 * stream on the driver thread (ISA-L, liblzma, libbz2, liblz4).  BGZF
 * blocks and zstd frames that state their decoded size are independent:
 * the driver cuts the input into such units, worker threads decode them
 * whole (ISA-L stateless, ZSTD_decompressDCtx) and the driver writes them
 * out in input order.  At most DZ_PERTHREAD units per worker and
 * DZ_INFLIGHT bytes of them (DZ_INFLIGHT1 a worker with more workers) are
 * in flight and pipe writes block, so
 * memory is bounded whatever the size or the ratio of the input.
 * (libdeflate decoded BGZF blocks some 10% slower than ISA-L's stateless
 * inflate on the 2-core machine: bench/results/2core-decomp.md.)  The
 * pipeline's ranges take BGZF and zstd another way, without the driver:
 * the splitter (dzs_*, at the end) cuts them into spans of units that its
 * workers decode where they scan them.
 *
 * Built with AGREP_NO_DECOMPRESS (the aarch64 cross build, which has no
 * arm64 copies of the libraries), the formats are recognised and decoding
 * them is refused as a library that cannot be loaded is (ELIBACC,
 * dz_load_error).
 *
 * A unit that the fast path does not take (a member that is not BGZF, a
 * frame with no size or too large, a unit cut short or corrupt) goes to
 * the stream decoder from its first byte: that writes what zcat would
 * write and names the byte where decoding failed, so the fast path needs
 * no error reporting of its own.
 *
 * The threads run with SIGPIPE blocked: when the reader goes away early
 * (-m, -l, -q), a write fails with EPIPE and the driver stops; dz_close
 * also wakes a driver blocked reading a pipe or terminal.
 */
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef AGREP_NO_DECOMPRESS
#include <bzlib.h>
#include <isa-l/crc.h>
#include <isa-l/igzip_lib.h>
#include <lz4frame.h>
#include <lzma.h>
/* (ZSTD_decompressBound: exported by Debian's libzstd 1.5) */
#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>
#include <zstd_errors.h>
#include <dlfcn.h>
#include <stddef.h>
#endif

#include "decomp.h"
#include "input.h"
#include "../base/util.h"

#ifndef AGREP_NO_DECOMPRESS
/*
 * The libraries are loaded (dlopen) when an input first needs one, not
 * with the program: loading the five took every run 0.15-0.2 ms, 13-15% of
 * a one-line file's whole run (2-core Xeon VM: 1.31-1.36 against 1.13-1.19
 * ms).  Each function used is called through L, filled from its library
 * by dz_load; the names below stand for L's members.
 */
enum { LIB_ISAL, LIB_ZSTD, LIB_LZMA, LIB_BZ2, LIB_LZ4, NLIB };
static const char *const lib_soname[NLIB] = {
	"libisal.so.2", "libzstd.so.1", "liblzma.so.5", "libbz2.so.1.0",
	"liblz4.so.1"
};
#define LIB_FUNCS(X)							\
	X(LIB_ISAL, isal_inflate)					\
	X(LIB_ISAL, isal_inflate_init)					\
	X(LIB_ISAL, isal_inflate_stateless)				\
	X(LIB_ISAL, crc32_gzip_refl)					\
	X(LIB_ZSTD, ZSTD_DCtx_reset)					\
	X(LIB_ZSTD, ZSTD_compressBound)					\
	X(LIB_ZSTD, ZSTD_createDCtx)					\
	X(LIB_ZSTD, ZSTD_decompressDCtx)				\
	X(LIB_ZSTD, ZSTD_decompressStream)				\
	X(LIB_ZSTD, ZSTD_frameHeaderSize)				\
	X(LIB_ZSTD, ZSTD_freeDCtx)					\
	X(LIB_ZSTD, ZSTD_getErrorCode)					\
	X(LIB_ZSTD, ZSTD_getErrorName)					\
	X(LIB_ZSTD, ZSTD_getFrameContentSize)				\
	X(LIB_ZSTD, ZSTD_isError)					\
	X(LIB_LZMA, lzma_code)						\
	X(LIB_LZMA, lzma_end)						\
	X(LIB_LZMA, lzma_stream_decoder)				\
	X(LIB_BZ2, BZ2_bzDecompress)					\
	X(LIB_BZ2, BZ2_bzDecompressEnd)					\
	X(LIB_BZ2, BZ2_bzDecompressInit)				\
	X(LIB_LZ4, LZ4F_createDecompressionContext)			\
	X(LIB_LZ4, LZ4F_decompress)					\
	X(LIB_LZ4, LZ4F_freeDecompressionContext)			\
	X(LIB_LZ4, LZ4F_getErrorName)					\
	X(LIB_LZ4, LZ4F_isError)

static struct {
#define X(lib, name)	__typeof__(&name) name;
	LIB_FUNCS(X)
#undef X
} L;

static const struct {
	int		 lib;
	const char	*name;
	size_t		 off;		/* in L */
} lib_funcs[] = {
#define X(lib, name)	{ lib, #name, offsetof(__typeof__(L), name) },
	LIB_FUNCS(X)
#undef X
};

static pthread_mutex_t lib_mu = PTHREAD_MUTEX_INITIALIZER;
static int lib_state[NLIB];		/* 1 loaded, -1 failed, 0 not tried */
static char lib_err[NLIB][256];

/* The library that decodes format f, or -1 (none). */
static int
lib_of(enum dz_format f)
{
	switch (f) {
	case DZ_GZIP:
	case DZ_BGZF:
		return LIB_ISAL;
	case DZ_ZSTD:
		return LIB_ZSTD;
	case DZ_XZ:
		return LIB_LZMA;
	case DZ_BZIP2:
		return LIB_BZ2;
	case DZ_LZ4:
		return LIB_LZ4;
	default:
		return -1;
	}
}

/* Loads the library that decodes format f, once; 0, or -1 with errno
 * ELIBACC (dz_load_error says why). */
static int
dz_load(enum dz_format f)
{
	const int lib = lib_of(f);
	int state;

	if (lib < 0 || __atomic_load_n(&lib_state[lib], __ATOMIC_ACQUIRE) > 0)
		return 0;
	pthread_mutex_lock(&lib_mu);
	if (lib_state[lib] == 0) {
		/* (AGREP_GPU_DZ_NOLIB=1, for the tests: as if none were
		 * installed) */
		const char *e = getenv("AGREP_GPU_DZ_NOLIB");
		void *h = e != NULL && atoi(e) != 0 ? NULL :
		    dlopen(lib_soname[lib], RTLD_NOW | RTLD_LOCAL);
		state = h != NULL ? 1 : -1;
		if (h == NULL)
			snprintf(lib_err[lib], sizeof lib_err[lib], "%s",
			    e != NULL && atoi(e) != 0 ? "AGREP_GPU_DZ_NOLIB "
			    "is set" : dlerror());
		for (size_t i = 0; h != NULL && i < sizeof lib_funcs /
		    sizeof lib_funcs[0]; i++) {
			void *fn;
			if (lib_funcs[i].lib != lib)
				continue;
			if ((fn = dlsym(h, lib_funcs[i].name)) == NULL) {
				snprintf(lib_err[lib], sizeof lib_err[lib],
				    "%s has no %s", lib_soname[lib],
				    lib_funcs[i].name);
				state = -1;
				break;
			}
			memcpy((char *)&L + lib_funcs[i].off, &fn, sizeof fn);
		}
		__atomic_store_n(&lib_state[lib], state, __ATOMIC_RELEASE);
	}
	state = lib_state[lib];
	pthread_mutex_unlock(&lib_mu);
	if (state < 0)
		errno = ELIBACC;
	return state > 0 ? 0 : -1;
}

const char *
dz_load_error(enum dz_format f)
{
	const int lib = lib_of(f);

	return lib >= 0 && lib_err[lib][0] != '\0' ? lib_err[lib] :
	    "cannot load its library";
}

#define isal_inflate			L.isal_inflate
#define isal_inflate_init		L.isal_inflate_init
#define isal_inflate_stateless		L.isal_inflate_stateless
#define crc32_gzip_refl			L.crc32_gzip_refl
#define ZSTD_DCtx_reset			L.ZSTD_DCtx_reset
#define ZSTD_compressBound		L.ZSTD_compressBound
#define ZSTD_createDCtx			L.ZSTD_createDCtx
#define ZSTD_decompressDCtx		L.ZSTD_decompressDCtx
#define ZSTD_decompressStream		L.ZSTD_decompressStream
#define ZSTD_frameHeaderSize		L.ZSTD_frameHeaderSize
#define ZSTD_freeDCtx			L.ZSTD_freeDCtx
#define ZSTD_getErrorCode		L.ZSTD_getErrorCode
#define ZSTD_getErrorName		L.ZSTD_getErrorName
#define ZSTD_getFrameContentSize	L.ZSTD_getFrameContentSize
#define ZSTD_isError			L.ZSTD_isError
#define lzma_code			L.lzma_code
#define lzma_end			L.lzma_end
#define lzma_stream_decoder		L.lzma_stream_decoder
#define BZ2_bzDecompress		L.BZ2_bzDecompress
#define BZ2_bzDecompressEnd		L.BZ2_bzDecompressEnd
#define BZ2_bzDecompressInit		L.BZ2_bzDecompressInit
#define LZ4F_createDecompressionContext	L.LZ4F_createDecompressionContext
#define LZ4F_decompress			L.LZ4F_decompress
#define LZ4F_freeDecompressionContext	L.LZ4F_freeDecompressionContext
#define LZ4F_getErrorName		L.LZ4F_getErrorName
#define LZ4F_isError			L.LZ4F_isError
#endif /* !AGREP_NO_DECOMPRESS */

static uint32_t
le16(const unsigned char *p)
{
	return p[0] | p[1] << 8;
}

static uint32_t
le32(const unsigned char *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

#ifndef AGREP_NO_DECOMPRESS

#define DZ_CHUNK	(256 << 10)	/* bytes per read and per write */
#define DZ_UNITMAX	(64 << 20)	/* the largest zstd frame taken whole */
#define DZ_INFLIGHT	(64 << 20)	/* units' bytes in flight at most, */
#define DZ_INFLIGHT1	(16 << 20)	/* ... or this much a worker if more
					 * (pzstd's frames decode to 8-64 MB:
					 * 64 MB in flight kept 16 workers to
					 * three of them, 1.2x one) */
#define DZ_PERTHREAD	4		/* units in flight per worker */
#define BGZF_MAXOUT	65536
#define DZ_QCAP		(16 << 20)	/* the direct ring */

/* The compressed input: buf[pos, end) is read and not yet decoded. */
struct src {
	int		 fd;		/* -1: only the bytes in buf */
	int		 wake;		/* readable when dz_close wants a stop */
	int		 canblock;	/* not a regular file: poll first */
	unsigned char	*buf;
	size_t		 pos, end, cap;
	uint64_t	 base;		/* input offset of buf[0] */
	int		 eof;
	int		 err;		/* errno of a failed read */
	/* The splitter's: buf[mark, pos) is a span being made, kept when
	 * room is made (held); reads of maxread bytes at most (0: no limit),
	 * so that the bytes read past a span, which the next one's buffer
	 * takes, are few. */
	size_t		 mark;
	int		 held;
	size_t		 maxread;
	/* The splitter's on a pipe (dzs_pace): whether the input is still
	 * wanted, asked while it waits (src_wait) */
	int		(*stop)(void *);
	void		*stoparg;
	/* A decoder's on a pipe, while it peeks at a unit (peek): a pause
	 * of DZ_GIVEUP ms ends the peek (paused), and the unit is streamed */
	int		 peek, paused;
};
/* The splitter on a pipe that pauses (src_wait): the units peeked go out
 * as a span after IN_IDLE ms without input, and a unit begun is given up
 * to the stream decoder (dzs_rest) after DZ_GIVEUP ms, so that a writer
 * that pauses does not hold back what came before it: a zstd stream's one
 * frame from a writer that stopped after a match held -q until it went on
 * or ended */
#define DZ_GIVEUP	100

enum { U_QUEUED, U_BUSY, U_DONE, U_BAD };

/* A BGZF block or a zstd frame, decoded whole by a worker. */
struct unit {
	uint64_t	 off;		/* input offset of its first byte */
	unsigned char	*in, *out;
	size_t		 inlen, outlen;	/* outlen: stated by the unit, or
					 * what it decoded to (sized: 0) */
	int		 sized;		/* 0: a zstd frame that does not say
					 * (pzstd's): decoded into a buffer
					 * grown up to DZ_UNITMAX */
	size_t		 acct;		/* its bytes in flight (inflight) */
	int		 state;
};

/* A decoder thread's contexts, made when first needed. */
struct wctx {
	struct inflate_state	*isal;
	ZSTD_DCtx		*zd;
};

struct dz;
typedef int (*next_fn)(struct dz *, struct unit *);

struct dz {
	enum dz_format	 fmt;
	int		 rfd, wfd;	/* the pipe */
	int		 wake[2];	/* dz_close -> a blocked read */
	int		 stopped;	/* atomic: the reader went away */
	int		 finished;	/* atomic: the driver wrote its last */
	/* direct (dz_fill): the decoded bytes go through q, a ring of DZ_QCAP
	 * bytes, not the pipe: no system call and no switch a megabyte (the
	 * pipe held 16 cores' BGZF decoding to 2 GB/s on the H200 machine) */
	int		 direct;
	unsigned char	*q;
	size_t		 qhead, qlen;
	pthread_mutex_t	 qmu;
	pthread_cond_t	 qcv;
	struct src	 src;
	unsigned char	*obuf;		/* the stream decoders' output */
	pthread_t	 driver;
	int		 threads;
	/* The units in flight, by number % nslots: head the oldest, take
	 * the next a worker decodes, tail the next free slot. */
	pthread_mutex_t	 mu;
	pthread_cond_t	 work, done;
	struct unit	*ring;
	size_t		 nslots, inflight, maxflight;
	uint64_t	 head, take, tail;
	int		 quit;		/* workers: exit */
	pthread_t	*workers;
	int		 nworkers;
	struct wctx	 own;		/* the driver's, without workers */
	int		 failed;
	char		 msg[200];
};

static int	stream(struct dz *, struct src *, int);

static int
is_stopped(struct dz *z)
{
	return __atomic_load_n(&z->stopped, __ATOMIC_ACQUIRE);
}

/* Records the first failure, "WHAT at byte OFF"; returns -1. */
static int __attribute__((format(printf, 3, 4)))
failf(struct dz *z, uint64_t off, const char *fmt, ...)
{
	va_list ap;
	size_t n;

	if (z->failed)
		return -1;
	va_start(ap, fmt);
	vsnprintf(z->msg, sizeof z->msg, fmt, ap);
	va_end(ap);
	n = strlen(z->msg);
	snprintf(z->msg + n, sizeof z->msg - n, " at byte %llu",
	    (unsigned long long)off);
	z->failed = 1;
	return -1;
}

/* The offset of the next byte to decode. */
static uint64_t
src_off(const struct src *s)
{
	return s->base + s->pos;
}

/* Waits for input or for dz_close; 0, or -1 to stop: the splitter's
 * also when its input is no longer wanted or pauses, a decoder's peek
 * when it pauses (paused set): DZ_GIVEUP. */
static int
src_wait(struct src *s)
{
	struct pollfd p[2] = { { s->fd, POLLIN, 0 }, { s->wake, POLLIN, 0 } };
	const int timed = s->stop != NULL || s->peek;
	int waited = 0;

	for (;;) {
		const int r = poll(p, 2, timed ? IN_IDLE : -1);
		if (r < 0 && errno != EINTR)
			return 0;	/* let read() tell */
		if (r > 0)
			return p[1].revents ? -1 : 0;
		if (r < 0)
			continue;
		waited += IN_IDLE;
		if (s->stop != NULL && (s->stop(s->stoparg) || (s->held &&
		    (s->pos > s->mark || waited >= DZ_GIVEUP))))
			return -1;
		if (s->peek && waited >= DZ_GIVEUP) {
			s->paused = 1;
			return -1;
		}
	}
}

/* Makes room after the unread bytes: moves them to the front, or grows. */
static void
src_room(struct src *s)
{
	const size_t lo = s->held ? s->mark : s->pos;

	if (lo == s->end) {
		s->base += lo;
		s->pos -= lo;
		s->mark = s->held ? 0 : s->mark;
		s->end = 0;
	}
	if (s->end < s->cap)
		return;
	if (lo > 0) {
		memmove(s->buf, s->buf + lo, s->end - lo);
		s->base += lo;
		s->end -= lo;
		s->pos -= lo;
		if (s->held)
			s->mark -= lo;
	}
	if (s->end == s->cap) {
		s->cap *= 2;
		s->buf = xrealloc(s->buf, s->cap);
	}
}

/* Reads more input after the unread bytes; returns the bytes read, 0 at
 * the end of the input, -1 when the read failed or a stop is due. */
static ssize_t
src_fill(struct src *s)
{
	ssize_t n;

	if (s->eof || s->fd < 0) {
		s->eof = 1;
		return 0;
	}
	src_room(s);
	for (;;) {
		size_t want = s->cap - s->end;
		if (s->maxread > 0 && want > s->maxread)
			want = s->maxread;
		if (s->canblock && src_wait(s) < 0)
			return -1;
		n = read(s->fd, s->buf + s->end, want);
		if (n >= 0)
			break;
		if (errno != EINTR) {
			s->err = errno;
			return -1;
		}
	}
	if (n == 0)
		s->eof = 1;
	s->end += n;
	return n;
}

/* Reads until n bytes are unread or the input ends; returns how many
 * are unread, or -1 as src_fill. */
static ssize_t
src_need(struct src *s, size_t n)
{
	ssize_t r;

	while (s->end - s->pos < n) {
		if ((r = src_fill(s)) < 0)
			return -1;
		if (r == 0)
			break;
	}
	return s->end - s->pos;
}

/* Why src_fill or src_need said -1: a failed read is an error, a stop
 * is not.  Returns -1. */
static int
src_failed(struct dz *z, struct src *s)
{
	if (s->err)
		return failf(z, src_off(s), "read error (%s)",
		    strerror(s->err));
	return -1;
}

/* Eats the SIGPIPE that a write to a closed pipe raised on this thread
 * (it is blocked here), so that it never reaches the process. */
static void
eat_sigpipe(void)
{
	struct timespec zero = { 0, 0 };
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGPIPE);
	while (sigtimedwait(&set, NULL, &zero) == SIGPIPE)
		;
}

/* out() of a direct decoder: copies p into the ring as room comes, the
 * copy outside the lock (the reader takes only [qhead, qhead + qlen)).
 * 0, or -1 when the reader went away. */
static int
out_direct(struct dz *z, const unsigned char *p, size_t n)
{
	pthread_mutex_lock(&z->qmu);
	while (n > 0) {
		while (z->qlen == DZ_QCAP && !is_stopped(z))
			pthread_cond_wait(&z->qcv, &z->qmu);
		if (is_stopped(z)) {
			pthread_mutex_unlock(&z->qmu);
			return -1;
		}
		const size_t tail = (z->qhead + z->qlen) % DZ_QCAP;
		size_t m = DZ_QCAP - z->qlen;
		if (m > DZ_QCAP - tail)
			m = DZ_QCAP - tail;
		if (m > n)
			m = n;
		pthread_mutex_unlock(&z->qmu);
		memcpy(z->q + tail, p, m);
		pthread_mutex_lock(&z->qmu);
		z->qlen += m;
		pthread_cond_broadcast(&z->qcv);
		p += m;
		n -= m;
	}
	pthread_mutex_unlock(&z->qmu);
	return 0;
}

/* Writes p[0, n) to the pipe; 0, or -1 when the reader is gone. */
static int
out(struct dz *z, const unsigned char *p, size_t n)
{
	ssize_t w;

	if (z->direct)
		return out_direct(z, p, n);
	while (n > 0) {
		if ((w = write(z->wfd, p, n)) < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EPIPE)
				eat_sigpipe();
			__atomic_store_n(&z->stopped, 1, __ATOMIC_RELEASE);
			return -1;
		}
		p += w;
		n -= w;
	}
	return 0;
}

/* DZ_NONE: the input as it is. */
static int
copy_stream(struct dz *z, struct src *s)
{
	ssize_t r;

	for (;;) {
		if (out(z, s->buf + s->pos, s->end - s->pos) < 0)
			return -1;
		s->pos = s->end;
		if ((r = src_fill(s)) < 0)
			return src_failed(z, s);
		if (r == 0)
			return 0;
	}
}

/* The start of the next member, stream or frame, with the input ended or
 * another one there: 0 at the end, 1 for another, -1 for garbage. */
static int
next_member(struct dz *z, struct src *s, const char *magic, size_t len)
{
	ssize_t have;

	if ((have = src_need(s, len)) < 0)
		return src_failed(z, s);
	if (have == 0)
		return 0;
	if ((size_t)have < len || memcmp(s->buf + s->pos, magic, len) != 0)
		return failf(z, src_off(s), "trailing garbage after %s data",
		    dz_name(z->fmt));
	return 1;
}

/* Needs more input to go on (nothing left unread, or no progress):
 * 1 read, 0 the input ended inside a unit (reported), -1 stop. */
static int
more(struct dz *z, struct src *s, const char *name)
{
	ssize_t r;

	if ((r = src_fill(s)) < 0)
		return src_failed(z, s);
	if (r == 0) {
		failf(z, s->base + s->end, "truncated %s input", name);
		return 0;
	}
	return 1;
}

/* More input for a frame decoder with nothing unread, inside a frame
 * (in) or between frames: 1 read, 0 the input ended (an error inside a
 * frame, reported), -1 stop. */
static int
refill(struct dz *z, struct src *s, int in, const char *name)
{
	ssize_t r;

	if (in)
		return more(z, s, name) <= 0 ? -1 : 1;
	if ((r = src_fill(s)) < 0)
		return src_failed(z, s);
	return r > 0;
}

/* The input offset ISA-L is at: the bits it holds are not consumed. */
static uint64_t
isal_off(const struct src *s, const struct inflate_state *st)
{
	uint64_t off = s->base + (st->next_in - s->buf);
	uint64_t held = st->read_in_length > 0 ? st->read_in_length / 8 : 0;

	return held < off ? off - held : 0;
}

static int
isal_error(struct dz *z, struct src *s, struct inflate_state *st, int ret)
{
	uint64_t off = isal_off(s, st);

	const char *name = dz_name(z->fmt);

	/* ISA-L has taken the trailer: name its first byte, the CRC's. */
	if (ret == ISAL_INCORRECT_CHECKSUM)
		return failf(z, off >= 8 ? off - 8 : 0,
		    "%s checksum mismatch", name);
	if (ret == ISAL_UNSUPPORTED_METHOD)
		return failf(z, off, "unsupported %s compression method", name);
	return failf(z, off, "corrupt %s data", name);
}

/* One gzip member with ISA-L: 0 at its end, -1 on error or stop. */
static int
gz_member(struct dz *z, struct src *s, struct inflate_state *st)
{
	size_t pos0, produced;
	int ret, need = s->pos == s->end;

	isal_inflate_init(st);
	st->crc_flag = ISAL_GZIP;
	for (;;) {
		if (need && more(z, s, dz_name(z->fmt)) <= 0)
			return -1;
		pos0 = s->pos;
		st->next_in = s->buf + s->pos;
		st->avail_in = s->end - s->pos;
		st->next_out = z->obuf;
		st->avail_out = DZ_CHUNK;
		ret = isal_inflate(st);
		s->pos = st->next_in - s->buf;
		produced = DZ_CHUNK - st->avail_out;
		if (out(z, z->obuf, produced) < 0)
			return -1;
		if (ret < 0)
			return isal_error(z, s, st, ret);
		if (st->block_state == ISAL_BLOCK_FINISH)
			return 0;
		/* Read more when all is taken or nothing moved. */
		need = st->avail_out != 0 && (s->pos == s->end ||
		    (s->pos == pos0 && produced == 0));
	}
}

/* gzip, one member after the other (BGZF too, when cut short). */
static int
gz_stream(struct dz *z, struct src *s)
{
	struct inflate_state *st;
	int r;

	st = xmalloc(sizeof *st);
	while ((r = next_member(z, s, "\x1f\x8b", 2)) > 0)
		if ((r = gz_member(z, s, st)) < 0)
			break;
	free(st);
	return r;
}

/* A zstd error as a message. */
static int
zstd_error(struct dz *z, uint64_t off, size_t ret)
{
	const char *name = ZSTD_getErrorName(ret);

	switch (ZSTD_getErrorCode(ret)) {
	case ZSTD_error_checksum_wrong:
		return failf(z, off, "zstd checksum mismatch");
	case ZSTD_error_frameParameter_windowTooLarge:
	case ZSTD_error_frameParameter_unsupported:
	case ZSTD_error_version_unsupported:
	case ZSTD_error_parameter_unsupported:
		return failf(z, off, "unsupported zstd frame (%s)", name);
	case ZSTD_error_memory_allocation:
		return failf(z, off, "out of memory in zstd (%s)", name);
	default:
		return failf(z, off, "corrupt zstd data (%s)", name);
	}
}

/* zstd frames (one only when one is set): 0 at the end, -1 on error. */
static int
zstd_stream(struct dz *z, struct src *s, int one)
{
	ZSTD_DCtx *d;
	ZSTD_inBuffer in;
	ZSTD_outBuffer o;
	size_t ret = 0;
	int full = 0, rc = 0;

	if ((d = ZSTD_createDCtx()) == NULL)
		return failf(z, src_off(s), "out of memory in zstd");
	for (;;) {
		if (s->pos == s->end && !full && (rc = refill(z, s, ret != 0,
		    "zstd")) <= 0)
			break;
		in = (ZSTD_inBuffer){ s->buf, s->end, s->pos };
		o = (ZSTD_outBuffer){ z->obuf, DZ_CHUNK, 0 };
		ret = ZSTD_decompressStream(d, &o, &in);
		s->pos = in.pos;
		full = o.pos == o.size;
		if (out(z, z->obuf, o.pos) < 0) {
			rc = -1;
			break;
		}
		if (ZSTD_isError(ret)) {
			rc = zstd_error(z, src_off(s), ret);
			break;
		}
		if (ret == 0 && one) {
			rc = 0;
			break;
		}
	}
	ZSTD_freeDCtx(d);
	return rc;
}

static int
xz_error(struct dz *z, uint64_t off, lzma_ret ret)
{
	switch (ret) {
	case LZMA_BUF_ERROR:
		return failf(z, off, "truncated xz input");
	case LZMA_MEM_ERROR:
	case LZMA_MEMLIMIT_ERROR:
		return failf(z, off, "out of memory in xz");
	case LZMA_OPTIONS_ERROR:
	case LZMA_UNSUPPORTED_CHECK:
		return failf(z, off, "unsupported xz options");
	default:
		return failf(z, off, "corrupt xz data");
	}
}

/* xz, concatenated streams and their padding. */
static int
xz_stream(struct dz *z, struct src *s)
{
	lzma_stream ls = LZMA_STREAM_INIT;
	lzma_action act = LZMA_RUN;
	lzma_ret ret;
	ssize_t r;
	int rc = 0;

	if (lzma_stream_decoder(&ls, UINT64_MAX, LZMA_CONCATENATED) !=
	    LZMA_OK)
		return failf(z, 0, "out of memory in xz");
	for (;;) {
		if (s->pos == s->end && act == LZMA_RUN && ls.avail_out != 0) {
			if ((r = src_fill(s)) < 0) {
				rc = src_failed(z, s);
				break;
			}
			if (r == 0)
				act = LZMA_FINISH;
		}
		ls.next_in = s->buf + s->pos;
		ls.avail_in = s->end - s->pos;
		ls.next_out = z->obuf;
		ls.avail_out = DZ_CHUNK;
		ret = lzma_code(&ls, act);
		s->pos = ls.next_in - s->buf;
		if (out(z, z->obuf, DZ_CHUNK - ls.avail_out) < 0) {
			rc = -1;
			break;
		}
		if (ret == LZMA_STREAM_END)
			break;
		if (ret != LZMA_OK) {
			rc = xz_error(z, ret == LZMA_BUF_ERROR ?
			    s->base + s->end : src_off(s), ret);
			break;
		}
	}
	lzma_end(&ls);
	return rc;
}

/* One bzip2 stream: 0 at its end, -1 on error or stop. */
static int
bz_one(struct dz *z, struct src *s, bz_stream *b)
{
	int ret, full = 0;

	for (;;) {
		if (s->pos == s->end && !full && more(z, s, "bzip2") <= 0)
			return -1;
		b->next_in = (char *)s->buf + s->pos;
		b->avail_in = s->end - s->pos;
		b->next_out = (char *)z->obuf;
		b->avail_out = DZ_CHUNK;
		ret = BZ2_bzDecompress(b);
		s->pos = (unsigned char *)b->next_in - s->buf;
		full = b->avail_out == 0;
		if (out(z, z->obuf, DZ_CHUNK - b->avail_out) < 0)
			return -1;
		if (ret == BZ_STREAM_END)
			return 0;
		if (ret == BZ_MEM_ERROR)
			return failf(z, src_off(s), "out of memory in bzip2");
		if (ret != BZ_OK)
			return failf(z, src_off(s), "corrupt bzip2 data");
	}
}

/* bzip2, one stream after the other (pbzip2 writes many). */
static int
bz2_stream(struct dz *z, struct src *s)
{
	bz_stream b;
	int r;

	while ((r = next_member(z, s, "BZh", 3)) > 0) {
		memset(&b, 0, sizeof b);
		if (BZ2_bzDecompressInit(&b, 0, 0) != BZ_OK)
			return failf(z, src_off(s), "out of memory in bzip2");
		r = bz_one(z, s, &b);
		BZ2_bzDecompressEnd(&b);
		if (r < 0)
			break;
	}
	return r;
}

static int
lz4_error(struct dz *z, uint64_t off, size_t ret)
{
	const char *name = LZ4F_getErrorName(ret);

	if (strstr(name, "hecksum") != NULL)
		return failf(z, off, "lz4 checksum mismatch");
	if (strstr(name, "nsupported") != NULL ||
	    strstr(name, "maxBlockSize") != NULL)
		return failf(z, off, "unsupported lz4 frame (%s)", name);
	return failf(z, off, "corrupt lz4 data (%s)", name);
}

/* lz4 frames, skippable ones skipped. */
static int
lz4_stream(struct dz *z, struct src *s)
{
	LZ4F_dctx *d;
	size_t ret = 0, isz, osz;
	int full = 0, rc = 0;

	if (LZ4F_isError(LZ4F_createDecompressionContext(&d, LZ4F_VERSION)))
		return failf(z, 0, "out of memory in lz4");
	for (;;) {
		if (s->pos == s->end && !full && (rc = refill(z, s, ret != 0,
		    "lz4")) <= 0)
			break;
		/* No more than the frame asks for: a block and the next
		 * block's header, so that a bad checksum comes in a call of
		 * its own and the blocks decoded before it are written. */
		isz = s->end - s->pos;
		if (ret > 0 && ret < isz)
			isz = ret;
		osz = DZ_CHUNK;
		ret = LZ4F_decompress(d, z->obuf, &osz, s->buf + s->pos, &isz,
		    NULL);
		s->pos += isz;
		full = osz == DZ_CHUNK;
		if (out(z, z->obuf, osz) < 0) {
			rc = -1;
			break;
		}
		if (LZ4F_isError(ret)) {
			rc = lz4_error(z, src_off(s), ret);
			break;
		}
	}
	LZ4F_freeDecompressionContext(d);
	return rc;
}

/* The stream decoder of the format; one: a single zstd frame. */
static int
stream(struct dz *z, struct src *s, int one)
{
	switch (z->fmt) {
	case DZ_GZIP:
	case DZ_BGZF:
		return gz_stream(z, s);
	case DZ_ZSTD:
		return zstd_stream(z, s, one);
	case DZ_XZ:
		return xz_stream(z, s);
	case DZ_BZIP2:
		return bz2_stream(z, s);
	case DZ_LZ4:
		return lz4_stream(z, s);
	default:
		return copy_stream(z, s);
	}
}

/*
 * The parallel path: units.
 */

/* Takes the next n unread bytes as a unit's input. */
static void
unit_take(struct src *s, struct unit *u, size_t n, size_t outlen)
{
	u->off = src_off(s);
	u->in = xmalloc(n);
	memcpy(u->in, s->buf + s->pos, n);
	u->inlen = n;
	u->outlen = outlen;
	u->sized = outlen > 0;
	u->out = u->sized ? xmalloc(outlen + 1) : NULL;
	/* (an unsized frame counts as 4x its size, DZ_UNITMAX at most: the
	 * bound holds as long as frames do not decode to more than that) */
	u->acct = n + (u->sized ? outlen : n < DZ_UNITMAX / 4 ? 4 * n :
	    DZ_UNITMAX);
	u->state = U_QUEUED;
	s->pos += n;
}

/* The size of a BGZF block from its 'BC' extra subfield, or 0. */
static size_t
bgzf_bsize(const unsigned char *x, size_t xlen)
{
	size_t i, len;

	for (i = 0; i + 4 <= xlen; i += 4 + len) {
		len = le16(x + i + 2);
		if (x[i] == 'B' && x[i + 1] == 'C' && len == 2 &&
		    i + 6 <= xlen)
			return le16(x + i + 4) + 1;
	}
	return 0;
}

/*
 * The bytes of a unit for the peeks below, at offsets from its start:
 * the unread bytes of a source's buffer (src_need; s set), or, for the
 * sparse splitter, bytes read where they lie in the file with pread (fd,
 * at: the unit's offset in it) into scratch.  One set of peeks for both:
 * they must agree on what a unit is.
 */
struct peek {
	struct src	*s;
	int		 fd;
	uint64_t	 at;
	uint64_t	 cat;		/* scratch holds clen bytes read at */
	size_t		 clen;		/* cat (none: 0) */
	unsigned char	 scratch[12 + 65535 + 4];	/* (a BGZF header's
							 * most) */
};

/* n bytes at offset off of the unit: where they are, with *have how many
 * are there (fewer at the input's end); NULL with *have -1 when a read
 * failed or a stop is due. */
static const unsigned char *
peek_at(struct peek *k, size_t off, size_t n, ssize_t *have)
{
	size_t got = 0;

	if (k->s != NULL) {
		ssize_t r = src_need(k->s, off + n);
		*have = r < 0 ? -1 : (size_t)r <= off ? 0 : (size_t)r - off < n ?
		    r - (ssize_t)off : (ssize_t)n;
		return r < 0 ? NULL : k->s->buf + k->s->pos + off;
	}
	/* (read already: a BGZF header's 18 bytes hold its extra field) */
	if (k->at + off >= k->cat && k->at + off + n <= k->cat + k->clen) {
		*have = (ssize_t)n;
		return k->scratch + (k->at + off - k->cat);
	}
	k->clen = 0;
	while (got < n) {
		ssize_t r = pread(k->fd, k->scratch + got, n - got,
		    (off_t)(k->at + off + got));
		if (r == 0)
			break;
		if (r < 0 && errno != EINTR) {
			*have = -1;
			return NULL;
		}
		got += r > 0 ? (size_t)r : 0;
	}
	k->cat = k->at + off;
	k->clen = got;
	*have = (ssize_t)got;
	return k->scratch;
}

/* The unit starts n bytes later (a skippable frame). */
static void
peek_skip(struct peek *k, size_t n)
{
	if (k->s != NULL)
		k->s->pos += n;
	else
		k->at += n;
}

/* Whether the unit is a whole BGZF block: 1 with its size in *len and its
 * decoded size in *outlen, 0 at the end of the input, 2 when the stream
 * decoder must take over here, -1 when a read failed or a stop is due. */
static int
bgzf_peek(struct peek *k, size_t *len, size_t *outlen)
{
	const unsigned char *p;
	ssize_t have;
	size_t xlen, bsize;

	if ((p = peek_at(k, 0, 18, &have)) == NULL || have == 0)
		return have < 0 ? -1 : 0;
	if (have < 18 || memcmp(p, "\x1f\x8b\x08\x04", 4) != 0)
		return 2;
	xlen = le16(p + 10);
	if ((p = peek_at(k, 0, 12 + xlen, &have)) == NULL ||
	    (size_t)have < 12 + xlen)
		return have < 0 ? -1 : 2;
	bsize = bgzf_bsize(p + 12, xlen);
	if (bsize < 12 + xlen + 8)
		return 2;
	/* (the block whole: its decoded size is its last 4 bytes) */
	if ((p = peek_at(k, bsize - 4, 4, &have)) == NULL || have < 4)
		return have < 0 ? -1 : 2;
	if (le32(p) > BGZF_MAXOUT)
		return 2;
	*len = bsize;
	*outlen = le32(p);
	return 1;
}

/* Why a peek at the next unit said -1 (bgzf_next, zstd_next): a pipe that
 * paused (src_wait) is 2, the unit streamed from what has come; else
 * src_failed's. */
static int
unit_failed(struct dz *z)
{
	if (z->src.paused) {
		z->src.paused = 0;
		return 2;
	}
	return src_failed(z, &z->src);
}

/* The next BGZF block as a unit: 1, 0 at the end of the input, 2 when
 * the stream decoder must take over here, -1 to stop. */
static int
bgzf_next(struct dz *z, struct unit *u)
{
	struct peek k;	/* (no initializer: its scratch is not used) */
	size_t len, outlen;
	int r;

	k.s = &z->src;
	z->src.peek = z->src.canblock;
	r = bgzf_peek(&k, &len, &outlen);
	z->src.peek = 0;

	if (r == 1)
		unit_take(&z->src, u, len, outlen);
	return r < 0 ? unit_failed(z) : r;
}

/*
 * Whether the unit is a whole zstd frame that states its decoded size
 * (*size), or does not (*size 0) and decodes to maxout bytes at most
 * (*bound: its raw and RLE blocks' sizes and 128 KB a compressed block);
 * skippable frames before it are skipped (whole, 1 MB at most).  As
 * bgzf_peek, with *len its compressed size.  Its blocks' headers are read
 * one by one (ZSTD_findFrameCompressedSize on twice as many bytes each
 * time had read up to 4 MB for pzstd's 2.6 MB frames, the rest copied to
 * the next span's buffer).
 */
static int
zstd_peek(struct peek *k, size_t *len, size_t *size, size_t *bound,
    size_t maxout)
{
	const unsigned char *p;
	unsigned char h[18];
	unsigned long long sz;
	size_t hs, bs = 0, limit, pos, dec = 0;
	ssize_t have;
	uint32_t b;
	int last = 0, sum;

	for (;;) {
		if ((p = peek_at(k, 0, 18, &have)) == NULL || have == 0)
			return have < 0 ? -1 : 0;
		memcpy(h, p, (size_t)have);
		if (have < 8 || (le32(h) & 0xfffffff0) != 0x184d2a50)
			break;
		/* skippable: whole, as its size says */
		const size_t n = 8 + (size_t)le32(h + 4);
		if (n > (1 << 20) || peek_at(k, n - 1, 1, &have) == NULL ||
		    have < 1)
			return have < 0 ? -1 : 2;
		peek_skip(k, n);
	}
	sz = ZSTD_getFrameContentSize(h, (size_t)have);
	hs = ZSTD_frameHeaderSize(h, (size_t)have);
	if (sz == ZSTD_CONTENTSIZE_ERROR || ZSTD_isError(hs) ||
	    (sz != ZSTD_CONTENTSIZE_UNKNOWN && sz > maxout))
		return 2;
	/* pzstd's frames do not state their decoded size (zstd -T's do): a
	 * worker decodes those into a buffer it grows, DZ_UNITMAX at most */
	if (sz == ZSTD_CONTENTSIZE_UNKNOWN)
		sz = 0;
	limit = sz > 0 ? ZSTD_compressBound(sz) + 1024 : DZ_UNITMAX;
	sum = h[4] >> 2 & 1;	/* a checksum at the end */
	for (pos = hs; !last; pos += 3 + bs) {
		if (pos + 3 > limit || (p = peek_at(k, pos, 3, &have)) ==
		    NULL || have < 3)
			return have < 0 ? -1 : 2;
		b = le16(p) | (uint32_t)p[2] << 16;
		last = b & 1;
		switch (b >> 1 & 3) {
		case 0:		/* raw */
			bs = b >> 3;
			dec += bs;
			break;
		case 1:		/* RLE: one byte, repeated */
			bs = 1;
			dec += b >> 3;
			break;
		case 2:		/* compressed */
			bs = b >> 3;
			dec += ZSTD_BLOCKSIZE_MAX;
			break;
		default:
			return 2;
		}
	}
	pos += sum ? 4 : 0;
	/* (the frame whole: its last byte is there) */
	if (pos > limit || (p = peek_at(k, pos - 1, 1, &have)) == NULL ||
	    have < 1)
		return have < 0 ? -1 : 2;
	if (sz == 0 && dec > maxout)
		return 2;
	*len = pos;
	*size = sz;
	*bound = sz > 0 ? sz : dec;
	return 1;
}

/* The next zstd frame that states its size as a unit; as bgzf_next. */
static int
zstd_next(struct dz *z, struct unit *u)
{
	struct peek k;
	size_t len, size, bound;
	int r;

	k.s = &z->src;
	z->src.peek = z->src.canblock;
	r = zstd_peek(&k, &len, &size, &bound, DZ_UNITMAX);
	z->src.peek = 0;

	if (r == 1)
		unit_take(&z->src, u, len, size);
	return r < 0 ? unit_failed(z) : r;
}

/* Decodes a zstd frame that does not state its size into a buffer grown
 * as it fills, up to DZ_UNITMAX: 0, or -1 (then the stream decoder takes
 * it, from its first byte). */
static int
zstd_unsized(ZSTD_DCtx *zd, struct unit *u)
{
	size_t cap = u->inlen * 4 > (1 << 20) ? u->inlen * 4 : (1 << 20), r;
	ZSTD_inBuffer in = { u->in, u->inlen, 0 };
	ZSTD_outBuffer o = { NULL, 0, 0 };

	ZSTD_DCtx_reset(zd, ZSTD_reset_session_only);
	for (;;) {
		if (o.pos == o.size) {
			if (o.size >= DZ_UNITMAX)
				return -1;
			cap = o.size == 0 ? cap : o.size * 2;
			o.size = cap < DZ_UNITMAX ? cap : DZ_UNITMAX;
			o.dst = u->out = xrealloc(u->out, o.size);
		}
		r = ZSTD_decompressStream(zd, &o, &in);
		if (ZSTD_isError(r))
			return -1;
		if (r == 0)		/* the frame is whole */
			break;
		if (in.pos == in.size && o.pos < o.size)
			return -1;	/* cut short */
	}
	u->outlen = o.pos;
	return in.pos == in.size ? 0 : -1;
}

/* Decodes the BGZF block or zstd frame in[0, inlen) whole into out: cap
 * bytes, exactly that many when sized (else at most; *got: how many).
 * 0, or -1 when anything is wrong with it. */
static int
decode_into(struct wctx *w, enum dz_format fmt, const unsigned char *in,
    size_t inlen, unsigned char *out, size_t cap, int sized, size_t *got)
{
	const unsigned char *body;
	size_t n;

	if (fmt == DZ_ZSTD) {
		if (w->zd == NULL && (w->zd = ZSTD_createDCtx()) == NULL)
			return -1;
		n = ZSTD_decompressDCtx(w->zd, out, cap, in, inlen);
		if (ZSTD_isError(n) || (sized && n != cap))
			return -1;
		*got = n;
		return 0;
	}
	body = in + 12 + le16(in + 10);
	n = in + inlen - 8 - body;
	if (w->isal == NULL)
		w->isal = xmalloc(sizeof *w->isal);
	isal_inflate_init(w->isal);
	w->isal->next_in = (unsigned char *)body;
	w->isal->avail_in = n;
	w->isal->next_out = out;
	w->isal->avail_out = cap;
	if (isal_inflate_stateless(w->isal) != ISAL_DECOMP_OK ||
	    w->isal->avail_out != 0 ||
	    crc32_gzip_refl(0, out, cap) != le32(body + n))
		return -1;
	*got = cap;
	return 0;
}

/* Decodes a unit whole: 0, or -1 when anything is wrong with it. */
static int
unit_decode(struct dz *z, struct wctx *w, struct unit *u)
{
	size_t got;

	if (z->fmt == DZ_ZSTD && !u->sized) {
		if (w->zd == NULL && (w->zd = ZSTD_createDCtx()) == NULL)
			return -1;
		return zstd_unsized(w->zd, u);
	}
	return decode_into(w, z->fmt, u->in, u->inlen, u->out, u->outlen, 1,
	    &got);
}

static void
wctx_free(struct wctx *w)
{
	if (w->zd != NULL)	/* (libzstd may not be loaded) */
		ZSTD_freeDCtx(w->zd);
	free(w->isal);
}

/* A worker: decodes queued units until told to quit. */
static void *
worker(void *arg)
{
	struct dz *z = arg;
	struct wctx w = { NULL, NULL };
	struct unit *u;
	int r;

	pthread_mutex_lock(&z->mu);
	for (;;) {
		while (!z->quit && z->take == z->tail)
			pthread_cond_wait(&z->work, &z->mu);
		if (z->quit)
			break;
		u = &z->ring[z->take++ % z->nslots];
		u->state = U_BUSY;
		pthread_mutex_unlock(&z->mu);
		r = unit_decode(z, &w, u);
		pthread_mutex_lock(&z->mu);
		u->state = r < 0 ? U_BAD : U_DONE;
		pthread_cond_broadcast(&z->done);
	}
	pthread_mutex_unlock(&z->mu);
	wctx_free(&w);
	return NULL;
}

static void
unit_free(struct unit *u)
{
	free(u->in);
	free(u->out);
	u->in = u->out = NULL;
}

/* Writes out the oldest unit when it is decoded; a bad one goes to the
 * stream decoder, which writes what it can and says why it stopped.
 * Returns 0, or -1 to stop. */
static int
drain_one(struct dz *z)
{
	struct unit *u = &z->ring[z->head % z->nslots];
	struct src m;
	int r;

	pthread_mutex_lock(&z->mu);
	while (u->state == U_QUEUED || u->state == U_BUSY)
		pthread_cond_wait(&z->done, &z->mu);
	pthread_mutex_unlock(&z->mu);
	if (u->state == U_DONE)
		r = out(z, u->out, u->outlen);
	else {
		memset(&m, 0, sizeof m);
		m.fd = -1;
		m.buf = u->in;
		m.end = m.cap = u->inlen;
		m.base = u->off;
		r = stream(z, &m, 1);
	}
	pthread_mutex_lock(&z->mu);
	z->inflight -= u->acct;
	z->head++;
	pthread_mutex_unlock(&z->mu);
	unit_free(u);
	return r;
}

/* Writes out every unit in flight; 0, or -1 to stop. */
static int
drain(struct dz *z)
{
	while (z->head != z->tail)
		if (drain_one(z) < 0)
			return -1;
	return 0;
}

/* Queues a unit, after writing out old ones while there is no room; a
 * driver without workers decodes it itself.  0, or -1 to stop. */
static int
submit(struct dz *z, struct unit *u)
{
	size_t sz = u->acct;

	while (z->head != z->tail && (z->tail - z->head == z->nslots ||
	    z->inflight + sz > z->maxflight))
		if (drain_one(z) < 0) {
			unit_free(u);
			return -1;
		}
	if (z->nworkers == 0)
		u->state = unit_decode(z, &z->own, u) < 0 ? U_BAD : U_DONE;
	pthread_mutex_lock(&z->mu);
	z->ring[z->tail++ % z->nslots] = *u;
	z->inflight += sz;
	pthread_cond_signal(&z->work);
	pthread_mutex_unlock(&z->mu);
	return 0;
}

/* Starts the workers: threads of them, or none for one thread. */
static void
workers_start(struct dz *z)
{
	int i;

	z->nslots = z->threads > 1 ? (size_t)DZ_PERTHREAD * z->threads : 1;
	z->maxflight = (size_t)DZ_INFLIGHT1 * z->threads > DZ_INFLIGHT ?
	    (size_t)DZ_INFLIGHT1 * z->threads : DZ_INFLIGHT;
	z->ring = xcalloc(z->nslots, sizeof *z->ring);
	if (z->threads <= 1)
		return;
	z->workers = xcalloc(z->threads, sizeof *z->workers);
	for (i = 0; i < z->threads; i++) {
		if (pthread_create(&z->workers[i], NULL, worker, z) != 0)
			break;
		z->nworkers++;
	}
}

/* Stops the workers and frees what is left in flight. */
static void
workers_stop(struct dz *z)
{
	int i;

	pthread_mutex_lock(&z->mu);
	z->quit = 1;
	pthread_cond_broadcast(&z->work);
	pthread_mutex_unlock(&z->mu);
	for (i = 0; i < z->nworkers; i++)
		pthread_join(z->workers[i], NULL);
	for (; z->head != z->tail; z->head++)
		unit_free(&z->ring[z->head % z->nslots]);
	free(z->workers);
	free(z->ring);
	wctx_free(&z->own);
}

/* BGZF blocks or zstd frames as units, the rest through the stream
 * decoder: BGZF's to the end, zstd's for one frame. */
static int
units_run(struct dz *z, next_fn next)
{
	struct unit u;
	int r;

	workers_start(z);
	do {
		switch ((r = next(z, &u))) {
		case 1:
			r = submit(z, &u);
			break;
		case 2:
			if ((r = drain(z)) == 0)
				r = stream(z, &z->src, 1);
			if (r == 0 && z->fmt == DZ_BGZF)
				r = 1;		/* it took the rest */
			break;
		case 0:
			r = drain(z) == 0 ? 1 : -1;
			break;
		}
	} while (r == 0 && !is_stopped(z));
	workers_stop(z);
	return r;
}

static void *
driver(void *arg)
{
	struct dz *z = arg;

	if (z->fmt == DZ_BGZF)
		units_run(z, bgzf_next);
	else if (z->fmt == DZ_ZSTD && z->threads > 1)
		units_run(z, zstd_next);
	else
		stream(z, &z->src, 0);
	pthread_mutex_lock(&z->qmu);
	__atomic_store_n(&z->finished, 1, __ATOMIC_RELEASE);
	pthread_cond_broadcast(&z->qcv);
	pthread_mutex_unlock(&z->qmu);
	close(z->wfd);
	return NULL;
}

#endif /* !AGREP_NO_DECOMPRESS */

/* The format whose magic bytes start buf[0, len). */
enum dz_format
dz_sniff(const unsigned char *p, size_t len)
{
	size_t skip;

	if (len >= 3 && memcmp(p, "\x1f\x8b\x08", 3) == 0)
		return len >= 16 && (p[3] & 4) && le16(p + 10) >= 6 &&
		    memcmp(p + 12, "BC\x02\x00", 4) == 0 ? DZ_BGZF : DZ_GZIP;
	/* zstd and lz4 share the skippable frames: look past them. */
	while (len >= 8 && (le32(p) & 0xfffffff0) == 0x184d2a50) {
		skip = 8 + (size_t)le32(p + 4);
		if (skip >= len)
			return DZ_ZSTD;		/* pzstd's, more likely */
		p += skip;
		len -= skip;
	}
	if (len >= 4 && le32(p) == 0xfd2fb528)
		return DZ_ZSTD;
	if (len >= 4 && le32(p) == 0x184d2204)
		return DZ_LZ4;
	if (len >= 6 && memcmp(p, "\xfd" "7zXZ\0", 6) == 0)
		return DZ_XZ;
	if (len >= 4 && memcmp(p, "BZh", 3) == 0 && p[3] >= '1' &&
	    p[3] <= '9' && (len < 10 ||
	    memcmp(p + 4, "\x31\x41\x59\x26\x53\x59", 6) == 0 ||
	    memcmp(p + 4, "\x17\x72\x45\x38\x50\x90", 6) == 0))
		return DZ_BZIP2;
	return DZ_NONE;
}

/*
 * Whether more bytes after buf[0, len) could change dz_sniff's answer: they
 * begin a magic (or a skippable frame's), or gzip's header is too short to
 * tell BGZF.  A pipe's first bytes are read only while this holds, so that
 * `(echo x; sleep 60) | agrep-gpu -q --decompress x` ends at once.
 */
int
dz_sniff_more(const unsigned char *p, size_t len)
{
	static const struct {
		const char *m;
		size_t n;
	} magic[] = {
		{ "\x1f\x8b\x08", 3 }, { "\x28\xb5\x2f\xfd", 4 },
		{ "\x04\x22\x4d\x18", 4 }, { "\xfd" "7zXZ\0", 6 },
		{ "BZh", 3 },
	};

	if (len >= DZ_SNIFFLEN)
		return 0;
	if (len == 0)
		return 1;
	if (len >= 3 && memcmp(p, "\x1f\x8b\x08", 3) == 0)
		return len < 16;
	for (size_t i = 0; i < sizeof magic / sizeof magic[0]; i++)
		if (len < magic[i].n && memcmp(p, magic[i].m, len) == 0)
			return 1;
	/* a skippable frame (50-5f 2a 4d 18, its length) */
	if ((p[0] & 0xf0) == 0x50 && (len < 2 || p[1] == 0x2a) &&
	    (len < 3 || p[2] == 0x4d) && (len < 4 || p[3] == 0x18))
		return len < 8 || dz_sniff(p, len) == DZ_ZSTD;
	/* "BZh" and its level, before the block magic */
	return len >= 3 && len < 10 && dz_sniff(p, len) == DZ_BZIP2;
}

const char *
dz_name(enum dz_format f)
{
	static const char *names[] = { "plain", "gzip", "BGZF", "zstd", "xz",
	    "bzip2", "lz4" };

	return (unsigned)f < sizeof names / sizeof names[0] ? names[f] : "?";
}

#ifndef AGREP_NO_DECOMPRESS
/* Starts the driver with SIGPIPE blocked, which its workers inherit. */
static int
driver_start(struct dz *z)
{
	sigset_t set, old;
	int e;

	sigemptyset(&set);
	sigaddset(&set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &set, &old);
	e = pthread_create(&z->driver, NULL, driver, z);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return e;
}

static void
dz_free(struct dz *z)
{
	int i;

	for (i = 0; i < 2; i++)
		if (z->wake[i] >= 0)
			close(z->wake[i]);
	if (z->rfd >= 0)
		close(z->rfd);
	pthread_mutex_destroy(&z->mu);
	pthread_cond_destroy(&z->work);
	pthread_cond_destroy(&z->done);
	pthread_mutex_destroy(&z->qmu);
	pthread_cond_destroy(&z->qcv);
	free(z->q);
	free(z->src.buf);
	free(z->obuf);
	free(z);
}

/* Starts decoding fd (head: bytes already read from it, the first at
 * input offset base); NULL with errno when that fails.  fd stays the
 * caller's to close. */
static struct dz *
dz_open_at(int fd, const unsigned char *head, size_t headlen, uint64_t base,
    enum dz_format f, int threads, int direct)
{
	struct dz *z;
	struct stat st;
	int p[2], e;

	if (dz_load(f) != 0)
		return NULL;
	z = xcalloc(1, sizeof *z);
	z->fmt = f;
	z->threads = threads < 1 ? 1 : threads;
	z->rfd = z->wfd = z->wake[0] = z->wake[1] = -1;
	pthread_mutex_init(&z->mu, NULL);
	pthread_cond_init(&z->work, NULL);
	pthread_cond_init(&z->done, NULL);
	pthread_mutex_init(&z->qmu, NULL);
	pthread_cond_init(&z->qcv, NULL);
	z->direct = direct;
	if (direct)
		z->q = xmalloc(DZ_QCAP);
	z->src.fd = fd;
	z->src.canblock = fstat(fd, &st) < 0 || !S_ISREG(st.st_mode);
	z->src.cap = headlen > DZ_CHUNK ? headlen : DZ_CHUNK;
	z->src.buf = xmalloc(z->src.cap);
	if (headlen > 0)
		memcpy(z->src.buf, head, headlen);
	z->src.end = headlen;
	z->src.base = base;
	z->obuf = xmalloc(DZ_CHUNK);
	if (pipe2(z->wake, O_CLOEXEC) < 0 || pipe2(p, O_CLOEXEC) < 0)
		goto fail;
	z->rfd = p[0];
	z->wfd = p[1];
	z->src.wake = z->wake[0];
	(void)fcntl(z->wfd, F_SETPIPE_SZ, 1 << 20);	/* fewer switches */
	if ((e = driver_start(z)) != 0) {
		close(z->wfd);
		errno = e;
		goto fail;
	}
	return z;
fail:
	e = errno;
	dz_free(z);
	errno = e;
	return NULL;
}

struct dz *
dz_open(int fd, const unsigned char *head, size_t headlen,
    enum dz_format f, int threads, int direct)
{
	return dz_open_at(fd, head, headlen, 0, f, threads, direct);
}

int
dz_fd(const struct dz *z)
{
	return z->rfd;
}

/*
 * The splitter (dzs_*): BGZF blocks and zstd frames whole, in spans of
 * about budget decoded bytes, for the pipeline's workers to decode each
 * into the buffer it scans (range.c): no driver thread, no ring, no copy
 * of the decoded bytes.  Its reader reads the input into a buffer that
 * the span made of its bytes takes whole (the bytes read past the span go
 * to a fresh one: at most DZ_CHUNK of them), so the compressed bytes are
 * not copied either.
 */
struct dzunit {
	size_t		 at, len;	/* in the span's bytes */
	size_t		 out;		/* decoded bytes (sized), or at most */
	int		 sized;
};

struct dzspan {
	enum dz_format	 fmt;
	struct dzsplit	*owner;		/* its buffer goes back there */
	unsigned char	*mem;		/* the buffer in lies in */
	size_t		 memcap;	/* (its bytes) */
	const unsigned char *in;	/* its compressed bytes */
	size_t		 inlen;
	uint64_t	 off;		/* input offset of in[0] */
	size_t		 bound;		/* decoded bytes at most */
	struct dzunit	*u;
	int		 n, cap;
};

/* Spans' buffers come back when their spans are freed, so that the
 * reader reads into pages it has touched before (fresh ones cost it a
 * page fault and a cleared page every 4 KiB: on 16 cores, 0.25-0.30 s of
 * its 0.30 s for 1 GiB of reads from pzstd; bench/results/h200-decomp.md). */
#define DZS_SPARE	64

struct dzsplit {
	enum dz_format	 fmt;
	struct src	 src;
	size_t		 budget, maxunit;
	pthread_mutex_t	 mu;		/* spare, nspare */
	unsigned char	*spare[DZS_SPARE];
	size_t		 sparecap[DZS_SPARE];
	int		 nspare;
	/* Sparse (a regular file): the reader reads the units' headers
	 * alone (pread), the workers their spans' bytes (dzs_decode); at is
	 * the next unit's offset, from the file offset at0. */
	int		 sparse;
	uint64_t	 at0, at;
	/* Guided spans (sparse, ways > 1): a span holds at most a 2 ways'th
	 * of the decoded bytes left, estimated from the file's compressed
	 * bytes left (size, from at0) and the ratio so far (cin to cout),
	 * so that the last spans are short and the workers end together. */
	int		 ways;
	uint64_t	 size, cin, cout;
};

/* Adds a unit of len bytes at at (in the span's bytes) that decodes to
 * bound bytes at most (sized: exactly) to span sp, made if NULL. */
static struct dzspan *
span_add(struct dzspan *sp, size_t at, size_t len, size_t bound, int sized)
{
	if (sp == NULL)
		sp = xcalloc(1, sizeof *sp);
	if (sp->n == sp->cap) {
		sp->cap = sp->cap ? 2 * sp->cap : 64;
		sp->u = xreallocarray(sp->u, sp->cap, sizeof *sp->u);
	}
	sp->u[sp->n++] = (struct dzunit){ at, len, bound, sized };
	sp->bound += bound;
	return sp;
}

/* A buffer of at least cap bytes for the reader (*got: its size). */
static unsigned char *
spare_get(struct dzsplit *p, size_t cap, size_t *got)
{
	unsigned char *b = NULL;

	pthread_mutex_lock(&p->mu);
	for (int i = p->nspare - 1; i >= 0; i--)
		if (p->sparecap[i] >= cap) {
			b = p->spare[i];
			*got = p->sparecap[i];
			p->spare[i] = p->spare[--p->nspare];
			p->sparecap[i] = p->sparecap[p->nspare];
			break;
		}
	pthread_mutex_unlock(&p->mu);
	if (b == NULL) {
		b = xmalloc(cap);
		*got = cap;
	}
	return b;
}

/* Gives a buffer of cap bytes back (kept, or freed). */
static void
spare_put(struct dzsplit *p, unsigned char *b, size_t cap)
{
	pthread_mutex_lock(&p->mu);
	if (p->nspare < DZS_SPARE) {
		p->spare[p->nspare] = b;
		p->sparecap[p->nspare++] = cap;
		b = NULL;
	}
	pthread_mutex_unlock(&p->mu);
	free(b);
}

/* n bytes at the splitter's offset at into b; the bytes read, or -1. */
static ssize_t
sparse_get(struct dzsplit *p, unsigned char *b, size_t n, uint64_t at)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = pread(p->src.fd, b + got, n - got,
		    (off_t)(p->at0 + at + got));
		if (r == 0)
			break;
		if (r < 0 && errno != EINTR)
			return -1;
		got += r > 0 ? (size_t)r : 0;
	}
	return (ssize_t)got;
}

/* The decoded bytes the sparse splitter's next span may hold: the
 * budget, or with ways workers where the file's compressed bytes left,
 * times the ratio so far, are fewer than 2 ways budgets, a 2 ways'th of
 * them (a sixteenth of the budget at least): the last spans shrink as
 * the file ends, so that no worker is left decoding a whole span alone
 * while the others wait (16 workers, 8 MiB spans of 64 KB blocks: a
 * span is some 20 ms). */
static size_t
sparse_budget(const struct dzsplit *p)
{
	if (p->ways < 2 || p->cin == 0 || p->size <= p->at)
		return p->budget;
	const double left = (double)(p->size - p->at) * (double)p->cout /
	    (double)p->cin / (2.0 * p->ways);
	const size_t least = p->budget / 16;
	return left >= (double)p->budget ? p->budget : left <= (double)least ?
	    least : (size_t)left;
}

/* dzs_next for the sparse splitter. */
static int
sparse_next(struct dzsplit *p, struct dzspan **spp)
{
	struct dzspan *sp = NULL;
	struct peek k;	/* (the units' headers read where they lie) */
	size_t len, out, bound;
	int r;

	k.s = NULL;
	k.fd = p->src.fd;
	k.clen = 0;
	const size_t budget = sparse_budget(p);
	for (;;) {
		k.at = p->at0 + p->at;
		if (p->fmt == DZ_BGZF) {
			r = bgzf_peek(&k, &len, &out);
			bound = out;
			if (r == 1 && out > p->maxunit)
				r = 2;
		} else
			r = zstd_peek(&k, &len, &out, &bound, p->maxunit);
		p->at = k.at - p->at0;	/* (past skippable frames) */
		if (r != 1 || (sp != NULL && sp->bound + bound > budget))
			break;
		const uint64_t from = sp != NULL ? sp->off : p->at;
		sp = span_add(sp, p->at - from, len, bound,
		    p->fmt == DZ_BGZF || out > 0);
		sp->off = from;
		p->at += len;
	}
	if (sp == NULL)
		return r < 0 ? 2 : r;
	sp->fmt = p->fmt;
	sp->owner = p;
	sp->inlen = p->at - sp->off;
	p->cin += sp->inlen;
	p->cout += sp->bound;
	*spp = sp;
	return 1;
}

struct dzsplit *
dzs_open(int fd, const unsigned char *head, size_t headlen,
    enum dz_format f, size_t budget, size_t maxunit, int ways)
{
	struct dzsplit *p;
	struct stat st;

	if (f != DZ_BGZF && f != DZ_ZSTD) {
		errno = EINVAL;
		return NULL;
	}
	if (dz_load(f) != 0)
		return NULL;
	p = xcalloc(1, sizeof *p);
	p->fmt = f;
	p->budget = budget;
	p->maxunit = maxunit;
	pthread_mutex_init(&p->mu, NULL);
	p->src.fd = fd;
	p->src.wake = -1;
	p->src.canblock = fstat(fd, &st) < 0 || !S_ISREG(st.st_mode);
	p->src.cap = headlen > DZ_CHUNK ? headlen : DZ_CHUNK;
	p->src.buf = xmalloc(p->src.cap);
	p->src.maxread = DZ_CHUNK;
	if (headlen > 0)
		memcpy(p->src.buf, head, headlen);
	p->src.end = headlen;
	/* (AGREP_GPU_DZ_SPARSE=0, for tests: the reader reads it all) */
	const char *e = getenv("AGREP_GPU_DZ_SPARSE");
	off_t at = headlen == 0 && !p->src.canblock ? lseek(fd, 0, SEEK_CUR) :
	    -1;
	if (at >= 0 && (e == NULL || atoi(e) != 0)) {
		p->sparse = 1;
		p->at0 = (uint64_t)at;
		p->ways = ways;
		p->size = st.st_size > at ? (uint64_t)(st.st_size - at) : 0;
	}
	return p;
}

/* Paces the splitter of a pipe: src_wait asks stop(arg) whether the input
 * is still wanted, and what it waits for is cut at a pause (DZ_GIVEUP).
 * Nothing for a regular file. */
void
dzs_pace(struct dzsplit *p, int (*stop)(void *), void *arg)
{
	if (!p->src.canblock)
		return;
	p->src.stop = stop;
	p->src.stoparg = arg;
}

/* The next span: 1 (*spp), 0 at the end of the input, 2 when the rest
 * is not made of units the splitter takes (a member that is not BGZF, a
 * frame too large, a unit cut short) or a read failed: dzs_rest gives it
 * to the stream decoder, which decodes it, or says what is wrong and
 * where. */
int
dzs_next(struct dzsplit *p, struct dzspan **spp)
{
	struct src *s = &p->src;
	struct dzspan *sp = NULL;
	struct peek k;
	size_t len, out, bound;
	unsigned char *nb;
	int r;

	if (p->sparse)
		return sparse_next(p, spp);
	k.s = s;
	s->held = 1;
	s->mark = s->pos;
	for (;;) {
		if (p->fmt == DZ_BGZF) {
			r = bgzf_peek(&k, &len, &out);
			bound = out;
			if (r == 1 && out > p->maxunit)
				r = 2;
		} else
			r = zstd_peek(&k, &len, &out, &bound, p->maxunit);
		if (r != 1 || (sp != NULL && sp->bound + bound > p->budget))
			break;
		sp = span_add(sp, s->pos - s->mark, len, bound,
		    p->fmt == DZ_BGZF || out > 0);
		s->pos += len;
	}
	s->held = 0;
	if (sp == NULL)
		return r < 0 ? 2 : r;
	sp->fmt = p->fmt;
	sp->owner = p;
	sp->mem = s->buf;
	sp->memcap = s->cap;
	sp->in = s->buf + s->mark;
	sp->inlen = s->pos - s->mark;
	sp->off = s->base + s->mark;
	nb = spare_get(p, s->cap, &s->cap);
	memcpy(nb, s->buf + s->pos, s->end - s->pos);
	s->buf = nb;
	s->base += s->pos;
	s->end -= s->pos;
	s->pos = s->mark = 0;
	*spp = sp;
	return 1;
}

size_t
dzs_bound(const struct dzspan *sp)
{
	return sp->bound;
}

/* Decodes span sp into out (dzs_bound bytes at most); returns the bytes
 * decoded.  *bad: -1, or the unit that failed, the first: out holds what
 * the units before it decoded to. */
size_t
dzs_decode(const struct dzspan *sp, unsigned char *out, int *bad)
{
	struct wctx w = { NULL, NULL };
	const unsigned char *in = sp->in;
	unsigned char *own = NULL;
	size_t at = 0, got, cap = 0, have = sp->inlen;
	int i;

	/* A sparse span's bytes, read here (the units cut short by a file
	 * that shrank fail: the stream decoder reads them again) */
	if (in == NULL) {
		ssize_t r;
		own = spare_get(sp->owner, sp->inlen > 0 ? sp->inlen : 1, &cap);
		r = sparse_get(sp->owner, own, sp->inlen, sp->off);
		have = r > 0 ? (size_t)r : 0;
		in = own;
	}
	*bad = -1;
	for (i = 0; i < sp->n; i++) {
		const struct dzunit *u = &sp->u[i];
		if (u->at + u->len > have || decode_into(&w, sp->fmt,
		    in + u->at, u->len, out + at, u->out, u->sized, &got) < 0) {
			*bad = i;
			break;
		}
		at += got;
	}
	wctx_free(&w);
	if (own != NULL)
		spare_put(sp->owner, own, cap);
	return at;
}

/* Frees a span (its buffer to its splitter's spares: every span is freed
 * before its splitter is closed). */
void
dzs_free(struct dzspan *sp)
{
	struct dzsplit *p;

	if (sp == NULL)
		return;
	p = sp->owner;
	if (sp->mem != NULL)
		spare_put(p, sp->mem, sp->memcap);
	free(sp->u);
	free(sp);
}

/*
 * The rest of the input, decoded in order by a direct decoder (dz_fill):
 * spans sp[0, n) (from sp[0]'s unit unit on: that one and the spans after
 * it were not decoded, or not used), then what the splitter read and did
 * not take, then its input.  Threads: as dz_open's.  NULL with errno when
 * that fails.  The splitter has nothing left after it.
 */
struct dz *
dzs_rest(struct dzsplit *p, struct dzspan *const *sp, int n, int unit,
    int threads)
{
	struct src *s = &p->src;
	size_t len = s->end - s->pos, at = 0;
	uint64_t off = s->base + s->pos;
	unsigned char *head;
	struct dz *z;
	int i;

	if (p->sparse) {
		/* the file from the first unit not decoded on */
		off = n == 0 ? p->at : sp[0]->off + (unit < sp[0]->n ?
		    sp[0]->u[unit].at : sp[0]->inlen);
		if (lseek(s->fd, (off_t)(p->at0 + off), SEEK_SET) < 0)
			return NULL;
		p->at = off;
		s->pos = s->end = 0;
		return dz_open_at(s->fd, NULL, 0, off, p->fmt, threads, 1);
	}
	for (i = 0; i < n; i++) {
		const size_t from = i == 0 && unit < sp[0]->n ?
		    sp[0]->u[unit].at : i == 0 ? sp[0]->inlen : 0;
		if (i == 0)
			off = sp[0]->off + from;
		len += sp[i]->inlen - from;
	}
	head = xmalloc(len > 0 ? len : 1);
	for (i = 0; i < n; i++) {
		const size_t from = i == 0 && unit < sp[0]->n ?
		    sp[0]->u[unit].at : i == 0 ? sp[0]->inlen : 0;
		memcpy(head + at, sp[i]->in + from, sp[i]->inlen - from);
		at += sp[i]->inlen - from;
	}
	memcpy(head + at, s->buf + s->pos, s->end - s->pos);
	s->pos = s->end;
	z = dz_open_at(s->fd, head, len, off, p->fmt, threads, 1);
	free(head);
	return z;
}

void
dzs_close(struct dzsplit *p)
{
	if (p == NULL)
		return;
	while (p->nspare > 0)
		free(p->spare[--p->nspare]);
	pthread_mutex_destroy(&p->mu);
	free(p->src.buf);
	free(p);
}

/*
 * Reads up to want decoded bytes of a direct decoder into buf, until want
 * came or the input ended (*eof set); partial: return as soon as some
 * came.  Where stop is not NULL, paced as in_fill_paced reads a pipe:
 * while nothing is queued and nothing has come, it asks stop(arg) every
 * IN_IDLE ms whether the bytes are still wanted (and returns if not); and
 * where the compressed input can block (a pipe), it returns once a whole
 * record (a terminator eol) has come and nothing more within IN_PAUSE ms
 * (a compressed pipe whose writer paused after a match held -q, -l and -m
 * until it went on or ended, and printed nothing meanwhile).  Returns the
 * bytes read (0 at the end, or when unneeded).
 */
static ssize_t
fill_q(struct dz *z, unsigned char *buf, size_t want, int *eof, int partial,
    unsigned char eol, int (*stop)(void *), void *arg)
{
	size_t got = 0;
	int whole = 0;
	const int pace = stop != NULL && z->src.canblock;

	pthread_mutex_lock(&z->qmu);
	while (got < want && !(partial && got > 0)) {
		while (z->qlen == 0 &&
		    !__atomic_load_n(&z->finished, __ATOMIC_ACQUIRE)) {
			/* (a record begun is waited for without asking) */
			if (stop == NULL || (got > 0 && !(pace && whole))) {
				pthread_cond_wait(&z->qcv, &z->qmu);
				continue;
			}
			struct timespec ts;
			clock_gettime(CLOCK_REALTIME, &ts);
			ts.tv_nsec += (got > 0 ? IN_PAUSE : IN_IDLE) * 1000000L;
			if (ts.tv_nsec >= 1000000000L) {
				ts.tv_sec++;
				ts.tv_nsec -= 1000000000L;
			}
			if (pthread_cond_timedwait(&z->qcv, &z->qmu, &ts) !=
			    ETIMEDOUT || z->qlen > 0 ||
			    __atomic_load_n(&z->finished, __ATOMIC_ACQUIRE))
				continue;
			if (got > 0)
				goto out;	/* a pause after a record */
			pthread_mutex_unlock(&z->qmu);
			const int unneeded = stop(arg);
			pthread_mutex_lock(&z->qmu);
			if (unneeded)
				goto out;
		}
		if (z->qlen == 0) {
			*eof = 1;
			break;
		}
		size_t m = z->qlen < DZ_QCAP - z->qhead ? z->qlen :
		    DZ_QCAP - z->qhead;
		if (m > want - got)
			m = want - got;
		pthread_mutex_unlock(&z->qmu);
		memcpy(buf + got, z->q + z->qhead, m);
		whole = whole || (pace && memchr(buf + got, eol, m) != NULL);
		pthread_mutex_lock(&z->qmu);
		z->qhead = (z->qhead + m) % DZ_QCAP;
		z->qlen -= m;
		got += m;
		pthread_cond_broadcast(&z->qcv);
	}
out:
	pthread_mutex_unlock(&z->qmu);
	return (ssize_t)got;
}

ssize_t
dz_fill(struct dz *z, unsigned char *buf, size_t want, int *eof, int partial)
{
	return fill_q(z, buf, want, eof, partial, 0, NULL, NULL);
}

ssize_t
dz_fill_paced(struct dz *z, unsigned char *buf, size_t want, int *eof,
    unsigned char eol, int (*stop)(void *), void *arg)
{
	return fill_q(z, buf, want, eof, 0, eol, stop, arg);
}

/* Whether the reader stopped before the end: the driver was not done,
 * or bytes were left in the pipe. */
static int
stopped_early(struct dz *z)
{
	int left = 0;

	if (!__atomic_load_n(&z->finished, __ATOMIC_ACQUIRE))
		return 1;
	if (z->direct)
		return z->qlen > 0;
	return ioctl(z->rfd, FIONREAD, &left) == 0 && left > 0;
}

/* Stops and frees the decoder; 0 when the input decoded cleanly or the
 * reader stopped early, else -1 with the reason in err. */
int
dz_close(struct dz *z, char *err, size_t errlen)
{
	int early, rc;

	pthread_mutex_lock(&z->qmu);
	early = stopped_early(z);
	__atomic_store_n(&z->stopped, 1, __ATOMIC_RELEASE);
	pthread_cond_broadcast(&z->qcv);
	pthread_mutex_unlock(&z->qmu);
	close(z->rfd);
	z->rfd = -1;
	if (write(z->wake[1], "", 1) < 0) {
		/* an empty pipe takes a byte */
	}
	pthread_join(z->driver, NULL);
	rc = z->failed && !early ? -1 : 0;
	if (errlen > 0)
		snprintf(err, errlen, "%s", rc < 0 ? z->msg : "");
	dz_free(z);
	return rc;
}
#else /* AGREP_NO_DECOMPRESS */

const char *
dz_load_error(enum dz_format f)
{
	(void)f;
	return "this agrep-gpu was built without the decompression libraries";
}

struct dz *
dz_open(int fd, const unsigned char *head, size_t headlen,
    enum dz_format f, int threads, int direct)
{
	(void)fd, (void)head, (void)headlen, (void)f, (void)threads;
	(void)direct;
	errno = ELIBACC;
	return NULL;
}

int
dz_fd(const struct dz *z)
{
	(void)z;
	return -1;
}

ssize_t
dz_fill(struct dz *z, unsigned char *buf, size_t want, int *eof, int partial)
{
	(void)z, (void)buf, (void)want, (void)partial;
	*eof = 1;
	return 0;
}

ssize_t
dz_fill_paced(struct dz *z, unsigned char *buf, size_t want, int *eof,
    unsigned char eol, int (*stop)(void *), void *arg)
{
	(void)eol, (void)stop, (void)arg;
	return dz_fill(z, buf, want, eof, 0);
}

int
dz_close(struct dz *z, char *err, size_t errlen)
{
	(void)z, (void)err, (void)errlen;
	return 0;
}

struct dzsplit *
dzs_open(int fd, const unsigned char *head, size_t headlen,
    enum dz_format f, size_t budget, size_t maxunit, int ways)
{
	(void)fd, (void)head, (void)headlen, (void)f, (void)budget;
	(void)maxunit, (void)ways;
	errno = ELIBACC;
	return NULL;
}

void
dzs_pace(struct dzsplit *p, int (*stop)(void *), void *arg)
{
	(void)p, (void)stop, (void)arg;
}

int
dzs_next(struct dzsplit *p, struct dzspan **spp)
{
	(void)p, (void)spp;
	return 0;
}

size_t
dzs_bound(const struct dzspan *sp)
{
	(void)sp;
	return 0;
}

size_t
dzs_decode(const struct dzspan *sp, unsigned char *out, int *bad)
{
	(void)sp, (void)out;
	*bad = -1;
	return 0;
}

void
dzs_free(struct dzspan *sp)
{
	(void)sp;
}

struct dz *
dzs_rest(struct dzsplit *p, struct dzspan *const *sp, int n, int unit,
    int threads)
{
	(void)p, (void)sp, (void)n, (void)unit, (void)threads;
	errno = ELIBACC;
	return NULL;
}

void
dzs_close(struct dzsplit *p)
{
	(void)p;
}
#endif /* AGREP_NO_DECOMPRESS */
