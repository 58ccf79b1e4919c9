/*
 * scan.c: run the matcher over a chunk and produce its hit bitmap.
 *
 * A scanner owns SCAN_SLOTS text buffers so that the next chunk can be read
 * while the device scans the current one.  Each buffer holds pad bytes (the
 * warm-up, at least n + k - 1 bytes) followed by the chunk.  On a CPU device
 * the kernel reads the host buffer itself (no copy); on a GPU the text goes
 * up and the bitmap comes back through pinned, mapped buffers.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../engines/hostmatch.h"
#include "../regex/regex.h"
#include "scan.h"
#include "../base/utf8.h"
#include "../base/util.h"

extern const char myers_cl_src[];	/* build/kernels.c, from kernels/ */

/* Seconds on a monotonic clock. */
static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#define GPU_SLICE_MAX 512	/* bytes: see slice_for */
#define PP_SLICE	4096	/* bytes: the pattern-parallel kernel's slice */
#define PP_MAXCLS	64	/* byte classes it takes (local memory) */
#define PP_LOCAL_GPU	128	/* its work-group size on a GPU (64 and 256
				 * measured the same on the H100) */
#define PP_LOCAL_CPU	8	/* on a CPU device (tests: several groups of
				 * patterns from a few) */
#define RC_LOCAL	128	/* count_records' work-group size */
#define RC_ITEM		256	/* its bytes a work-item, a multiple of 64 */
#define RC_GROUP	(RC_LOCAL * RC_ITEM)
#define RE_DEV_MAXK	8	/* errors the automaton kernel takes (its
				 * rows are registers: RE_K + 1 of them) */
#define RE_LOCAL_GPU	64	/* its work-group size on a GPU */
#define RE_LOCAL_CPU	8	/* on a CPU device */
#ifndef PP_MIN_PATTERNS
#define PP_MIN_PATTERNS	16	/* on a GPU: see pp_wanted */
#define PP_HMAX		8	/* --no-indels: k on the devices, at most */
#endif

static size_t
round_up(size_t v, size_t m)
{
	return (v + m - 1) / m * m;
}

/* Returns the warm-up length: n + k - 1 bytes for the longest pattern,
 * rounded up to whole 64-byte bitmap words (more warm-up is harmless). */
size_t
scan_pad(const struct patset *ps)
{
	size_t w = ps->maxlen + (size_t)ps->k;

	return round_up(w > 1 ? w - 1 : 1, 64);
}

/* Work-items needed for len bytes of chunk in slices of 'slice' bytes. */
static size_t
items_for(const struct scanner *s, size_t len, size_t slice)
{
	size_t nslices = (len + slice - 1) / slice;

	if (s->pp)
		return nslices * s->local;	/* a work-group a slice */
	return round_up((nslices + s->lanes - 1) / s->lanes, s->local);
}

/* Sets the text bytes each slot holds after the pad: whole slices for every
 * lane of every work-item the largest chunk can launch. */
static void
set_alloc(struct scanner *s)
{
	if (s->device && s->pp)
		s->alloc = round_up(s->cap, s->slice);
	else if (s->device)
		s->alloc = items_for(s, s->cap, s->slice) * s->lanes * s->slice;
	else
		s->alloc = round_up(s->cap, 64);
}

void
scan_open_host(struct scanner *s, const struct patset *ps, unsigned char eol,
    size_t cap)
{
	memset(s, 0, sizeof(*s));
	s->ps = ps;
	s->eol = eol;
	s->pad = scan_pad(ps);
	s->cap = cap;
	/* Exact search: flt_find beats Myers by far (see hm_exact). */
	s->exact = ps->k == 0 && !ps->icase && ps->npat == 1 &&
	    !ps->has_cls && ps->nre == 0 && memchr(ps->pat[0].str, eol, ps->pat[0].len) == NULL;
	s->xlines = hm_lines_ok(ps);
	set_alloc(s);
	/* (its slots' buffers are made when first used: host_slot) */
}

/*
 * The bytes a host scanner's slots take (scan_host_carve): each chunk's
 * buffer a whole number of 2 MiB (huge) pages, then the bitmaps.  The
 * pipeline makes those of all its workers as one mapping: made apart they
 * were 170 system calls before a search began on 16 workers (0.9 ms on
 * the H200 machine, for a one-line file as for any), and made by the
 * workers when first used (tried), their mappings waited for each other's
 * page faults: the Bible's 4.3 MB took 9.7 ms against 6.7.
 */
static size_t
host_buf_bytes(const struct scanner *s)
{
	const size_t huge = (size_t)2 << 20;

	return (s->pad + s->alloc + huge - 1) / huge * huge;
}

static size_t
host_bm_bytes(const struct scanner *s)
{
	return (s->alloc / 8 + 4095) / 4096 * 4096;
}

size_t
scan_host_bytes(const struct scanner *s)
{
	return SCAN_SLOTS * (host_buf_bytes(s) + host_bm_bytes(s));
}

/* Gives a host scanner's slots (none made yet) their buffers from mem,
 * scan_host_bytes of it, 2 MiB-aligned, which they do not free. */
void
scan_host_carve(struct scanner *s, unsigned char *mem)
{
	const size_t b = host_buf_bytes(s), m = host_bm_bytes(s);

	for (int i = 0; i < SCAN_SLOTS; i++) {
		struct scan_slot *sl = &s->slot[i];
		if (s->device || sl->buf != NULL || sl->bm != NULL)
			fatalx("scan_host_carve: a slot made already");
		sl->buf = mem + (size_t)i * b;
		sl->bm = (uint64_t *)(void *)(mem + SCAN_SLOTS * b +
		    (size_t)i * m);
		sl->carved = 1;
	}
}

/*
 * Makes a host slot's buffers (the chunk's and the bitmap) where they are
 * not made yet (the scanner's slots not carved from a mapping of the
 * pipeline's: scan_host_carve).
 */
static void
host_slot(struct scanner *s, struct scan_slot *sl)
{
	if (s->device || sl->bm != NULL)
		return;
	if (sl->buf == NULL)
		sl->buf = util_alloc_big(s->pad + s->alloc);
	sl->bm = malloc(s->alloc / 8);
	if (sl->buf == NULL || sl->bm == NULL)
		fatalx("out of memory for %zu-byte chunks", s->cap);
}

/* Creates one host-visible buffer of n bytes and maps it; returns the host
 * pointer, or NULL after a message. */
static void *
map_new(struct scanner *s, size_t n, cl_mem *mem)
{
	cl_int err;
	void *p;

	*mem = clCreateBuffer(s->ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR,
	    n, NULL, &err);
	if (*mem == NULL) {
		OCL_FAIL("clCreateBuffer", err);
		return NULL;
	}
	p = clEnqueueMapBuffer(s->queue, *mem, CL_TRUE,
	    CL_MAP_READ | CL_MAP_WRITE, 0, n, 0, NULL, NULL, &err);
	if (p == NULL)
		OCL_FAIL("clEnqueueMapBuffer", err);
	return p;
}

static void
release_mem(cl_mem *m)
{
	if (*m != NULL)
		clReleaseMemObject(*m);
	*m = NULL;
}

/* Frees a slot's UTF-8 buffers (made when a chunk first needed them). */
static void
u8_free(struct scanner *s, struct scan_slot *sl)
{
	if (sl->sym != NULL && s->device) {
		clEnqueueUnmapMemObject(s->queue, sl->hsym, sl->sym, 0, NULL,
		    NULL);
		clFinish(s->queue);
	} else
		free(sl->sym);
	release_mem(&sl->hsym);
	free(sl->ck);
	free(sl->bmb);
	sl->sym = NULL;
	sl->ck = NULL;
	sl->bmb = NULL;
	sl->nsym = 0;
}

/* Frees one slot's buffers, host or device. */
static void
slot_free(struct scanner *s, struct scan_slot *sl)
{
	if (sl->done != NULL)
		clReleaseEvent(sl->done);
	sl->done = NULL;
	u8_free(s, sl);
	if (!s->device && !sl->carved) {
		util_free_big(sl->buf);
		free(sl->bm);
	} else if (!s->device) {
		sl->carved = 0;
	} else {
		if (sl->buf != NULL)
			clEnqueueUnmapMemObject(s->queue, sl->hbuf, sl->buf, 0,
			    NULL, NULL);
		if (sl->bm != NULL)
			clEnqueueUnmapMemObject(s->queue, sl->hbm, sl->bm, 0,
			    NULL, NULL);
		if (sl->rc != NULL)
			clEnqueueUnmapMemObject(s->queue, sl->hrc, sl->rc, 0,
			    NULL, NULL);
		clFinish(s->queue);
		release_mem(&sl->drc);
		release_mem(&sl->hrc);
		release_mem(&sl->dbm);
		release_mem(&sl->dbuf);
		release_mem(&sl->hbm);
		release_mem(&sl->hbuf);
	}
	sl->buf = NULL;
	sl->bm = NULL;
	sl->rc = NULL;
	sl->rc_done = sl->rc_want = 0;
}

/* Allocates one device slot; returns 0, or -1 after a message. */
static int
slot_alloc(struct scanner *s, struct scan_slot *sl)
{
	size_t tbytes = s->pad + s->alloc, bbytes = s->alloc / 8;
	cl_int err;

	memset(sl, 0, sizeof(*sl));
	if ((sl->buf = map_new(s, tbytes, &sl->hbuf)) == NULL ||
	    (sl->bm = map_new(s, bbytes, &sl->hbm)) == NULL)
		return -1;
	if (s->zero_copy)
		return 0;
	sl->dbuf = clCreateBuffer(s->ctx, CL_MEM_READ_ONLY, tbytes, NULL, &err);
	if (sl->dbuf == NULL) {
		OCL_FAIL("clCreateBuffer", err);
		return -1;
	}
	sl->dbm = clCreateBuffer(s->ctx, CL_MEM_WRITE_ONLY, bbytes, NULL, &err);
	if (sl->dbm == NULL) {
		OCL_FAIL("clCreateBuffer", err);
		return -1;
	}
	return 0;
}

/* Whether bytes a and b have the same PEq word in every pattern (patterns
 * of one word). */
static int
pp_same(const struct patset *ps, int a, int b)
{
	for (size_t p = 0; p < ps->npat; p++)
		if (ps->pat[p].peq[a] != ps->pat[p].peq[b])
			return 0;
	return 1;
}

/*
 * The byte classes of a pattern set for the pattern-parallel kernel: bytes
 * whose PEq words are equal in every pattern share one, and the terminator
 * has class 0 alone.  Fills cls[256]; returns the number of classes, or
 * PP_MAXCLS + 1 when the kernel cannot take them all.
 */
static size_t
pp_classes(const struct patset *ps, unsigned char eol, cl_uint *cls)
{
	uint64_t h[256];
	int rep[PP_MAXCLS];	/* a byte of each class */
	size_t ncls = 1;

	for (int c = 0; c < 256; c++) {
		h[c] = 14695981039346656037ULL;
		for (size_t p = 0; p < ps->npat; p++)
			h[c] = (h[c] ^ ps->pat[p].peq[c]) * 1099511628211ULL;
	}
	rep[0] = eol;
	for (int c = 0; c < 256; c++) {
		size_t j = 1;
		if (c == eol) {
			cls[c] = 0;
			continue;
		}
		while (j < ncls && (h[c] != h[rep[j]] || !pp_same(ps, c, rep[j])))
			j++;
		if (j == ncls) {
			if (ncls == PP_MAXCLS)
				return PP_MAXCLS + 1;
			rep[ncls++] = c;
		}
		cls[c] = (cl_uint)j;
	}
	return ncls;
}

/*
 * The pattern-parallel kernel's table (myers.cl, myers_pp): the class of
 * each byte, the number of classes and of patterns per class row, then
 * each class's Eq word of every pattern.  Sets the kernel's local Eq table
 * to its size.  Returns the buffer, or NULL after a message.
 */
static cl_mem
pp_upload(struct scanner *s)
{
	const struct patset *ps = s->ps;
	size_t npad = round_up(ps->npat ? ps->npat : 1, s->local), ncls;
	cl_uint *tab = xcalloc(260 + PP_MAXCLS * npad, sizeof(*tab));
	cl_mem m = NULL;
	cl_int err;

	ncls = pp_classes(ps, s->eol, tab);
	if (ncls > PP_MAXCLS) {
		warnx_("OpenCL: too many byte classes for the "
		    "pattern-parallel kernel");
		free(tab);
		return NULL;
	}
	s->ncls = ncls;
	tab[256] = (cl_uint)ncls;
	tab[257] = (cl_uint)npad;
	for (int c = 0; c < 256; c++)
		for (size_t p = 0; p < ps->npat; p++)
			tab[260 + tab[c] * npad + p] = (cl_uint)ps->pat[p].peq[c];
	for (size_t p = 0; p < ps->npat; p++)
		tab[260 + p] = 0;	/* the terminator: never read */
	m = clCreateBuffer(s->ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
	    (260 + ncls * npad) * sizeof(*tab), tab, &err);
	free(tab);
	if (m == NULL)
		OCL_FAIL("clCreateBuffer", err);
	else if ((err = clSetKernelArg(s->kern, 10, ncls * s->local *
	    sizeof(cl_uint), NULL)) != CL_SUCCESS) {
		OCL_FAIL("clSetKernelArg", err);
		release_mem(&m);
	}
	return m;
}

/*
 * Whether the automaton kernel (myers.cl, re_scan) can scan ps: up to
 * RE_DEV_MAXEXPR expressions and nothing else (each a launch over the
 * chunk, their hits ORed into one bitmap), each automaton of one word (up
 * to 63 positions) without assertion states (\<, \b, ...; ^ and $
 * anchoring the whole expression are the kernel's), k <= RE_DEV_MAXK.  In
 * UTF-8 mode it reads the symbols of a chunk that is not ASCII, as the
 * host does.  AGREP_GPU_RE=0 forbids it: the host scans then, as it does
 * every other expression.
 */
/* The automata the kernel scans: the expressions', and with weighted
 * costs first the plain patterns' chains (pattern.c: ps->wre). */
static size_t
re_count(const struct patset *ps)
{
	return ps->nre + (ps->weighted ? ps->npat : 0);
}

static const struct re_nfa *
re_at(const struct patset *ps, size_t r)
{
	const size_t w = ps->weighted ? ps->npat : 0;

	return r < w ? ps->wre[r] : ps->re[r - w].re;
}

int
scan_re_ok(const struct patset *ps)
{
	const char *e = getenv("AGREP_GPU_RE");
	const struct re_nfa *a;
	const size_t n = re_count(ps);

	if ((e != NULL && *e != '\0' && atoi(e) == 0) ||
	    (ps->npat != 0 && !ps->weighted) || n < 1 ||
	    n > RE_DEV_MAXEXPR || ps->k < 0 || ps->k > RE_DEV_MAXK)
		return 0;
	for (size_t r = 0; r < n; r++) {
		a = re_at(ps, r);
		if (a == NULL || a->nw != 1 || a->nassert != 0 ||
		    a->ngroups < 1 || a->ngroups > 8)
			return 0;
	}
	return 1;
}

/* The most groups of 8 states of the expressions' automata (RE_G: the
 * tables of the others are padded with empty groups). */
static int
re_groups(const struct patset *ps)
{
	size_t g = 1;

	for (size_t r = 0; r < re_count(ps); r++)
		if (re_at(ps, r)->ngroups > g)
			g = re_at(ps, r)->ngroups;
	return (int)g;
}

/*
 * The automaton kernel's table: T (s->re_g groups of 256 words; the
 * groups past the automaton's are empty, never looked up but at 0), B,
 * the final states, the initial state unless ^ anchors, and whether $
 * does.  Returns the buffer, or NULL after a message.
 */
static cl_mem
re_table(struct scanner *s, const struct re_nfa *a)
{
	const size_t G = (size_t)s->re_g, n = G * 256 + 256 + 3;
	cl_ulong *tab;
	cl_mem m;
	cl_int err;

	if (!scan_re_ok(s->ps) || a->ngroups > G || s->ps->k != s->re_k) {
		warnx_("OpenCL: the automaton kernel cannot take this "
		    "expression");
		return NULL;
	}
	tab = xcalloc(n, sizeof(*tab));
	memcpy(tab, a->T, a->ngroups * 256 * sizeof(*tab));
	memcpy(tab + G * 256, a->B, 256 * sizeof(*tab));
	tab[G * 256 + 256] = a->final[0];
	tab[G * 256 + 257] = a->bol ? 0 : 1;
	tab[G * 256 + 258] = a->eol != 0;
	m = clCreateBuffer(s->ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
	    n * sizeof(*tab), tab, &err);
	free(tab);
	if (m == NULL)
		OCL_FAIL("clCreateBuffer", err);
	return m;
}

/* The tables of every expression: s->peq the first one's, s->re_more the
 * others'.  Returns 0, or -1 after a message. */
static int
re_upload(struct scanner *s)
{
	if ((s->peq = re_table(s, re_at(s->ps, 0))) == NULL)
		return -1;
	for (size_t r = 1; r < re_count(s->ps); r++)
		if ((s->re_more[r - 1] = re_table(s, re_at(s->ps, r))) ==
		    NULL)
			return -1;
	return 0;
}

/* Uploads the PEq tables (in the kernel's word size) and, per pattern, its
 * length, words per byte value and table offset; for the pattern-parallel
 * kernel, its table instead of the PEq tables. */
static int
upload_patterns(struct scanner *s)
{
	const struct patset *ps = s->ps;
	size_t wsz = s->wbits / 8, n = ps->npat ? ps->npat : 1, total = 0;
	cl_uint *pinfo = xcalloc(3 * n, sizeof(*pinfo));
	unsigned char *peq;
	cl_int err;

	if (s->re) {
		free(pinfo);
		return re_upload(s);
	}
	if (s->pp) {
		for (size_t p = 0; p < ps->npat; p++)
			pinfo[3 * p] = (cl_uint)ps->pat[p].len;
		s->peq = pp_upload(s);
		s->pinfo = s->peq == NULL ? NULL : clCreateBuffer(s->ctx,
		    CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, 3 * n *
		    sizeof(*pinfo), pinfo, &err);
		free(pinfo);
		if (s->peq != NULL && s->pinfo == NULL)
			OCL_FAIL("clCreateBuffer", err);
		return s->pinfo == NULL ? -1 : 0;
	}
	for (size_t p = 0; p < ps->npat; p++)
		total += 256 * ps->pat[p].nwords;
	peq = xcalloc(total ? total : 1, wsz);
	total = 0;
	for (size_t p = 0; p < ps->npat; p++) {
		const struct pattern *pat = &ps->pat[p];
		pinfo[3 * p] = (cl_uint)pat->len;
		pinfo[3 * p + 1] = (cl_uint)pat->nwords;
		pinfo[3 * p + 2] = (cl_uint)total;
		for (size_t i = 0; i < 256 * pat->nwords; i++) {
			uint64_t v = pat->peq[i];
			memcpy(peq + (total + i) * wsz, &v, wsz);	/* LE */
		}
		total += 256 * pat->nwords;
	}
	s->peq = clCreateBuffer(s->ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
	    (total ? total : 1) * wsz, peq, &err);
	if (s->peq != NULL)
		s->pinfo = clCreateBuffer(s->ctx,
		    CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, 3 * n *
		    sizeof(*pinfo), pinfo, &err);
	free(peq);
	free(pinfo);
	if (s->peq == NULL || s->pinfo == NULL) {
		OCL_FAIL("clCreateBuffer", err);
		return -1;
	}
	return 0;
}

/* Returns the slice length for a chunk of len bytes: enough slices to fill
 * the device, each long enough that the warm-up costs little; on a GPU at
 * most GPU_SLICE_MAX (more work-items then: the H100 kernels ran 474-490
 * GB/s on 512-byte slices of 256 MiB chunks against 326-329 on the 2 KiB
 * ones filling the device once, bench/results/2core-kernels.md); the one fixed
 * by AGREP_GPU_SLICE; or the one the buffers were sized for when a
 * smaller one would not fit them. */
static size_t
slice_for(const struct scanner *s, size_t len)
{
	size_t slice;

	if (s->fixed_slice || s->pp)
		return s->slice;
	slice = round_up(len / s->lanes_total + 1, 64);
	if (s->dev.type & CL_DEVICE_TYPE_GPU && slice > GPU_SLICE_MAX)
		slice = GPU_SLICE_MAX;
	if (slice < 4 * s->pad)
		slice = 4 * s->pad;
	if (s->alloc && items_for(s, len, slice) * s->lanes * slice > s->alloc)
		slice = s->slice;
	return slice;
}

/*
 * Gives an open device scanner another pattern set of the same shape (word
 * size, blocks, pad): its tables replace the old ones, the program stays.
 * Returns 0, or -1 after a message (the old tables are gone then).
 */
int
scan_set_patterns(struct scanner *s, const struct patset *ps)
{
	release_mem(&s->pinfo);
	release_mem(&s->peq);
	for (int r = 0; r < RE_DEV_MAXEXPR - 1; r++)
		release_mem(&s->re_more[r]);
	s->ps = ps;
	return upload_patterns(s);
}

/*
 * Whether the kernel runs patterns of 33-64 bytes as two 32-bit blocks with
 * Ukkonen's cut-off (build option PAIR; with k >= 32 the kernel keeps the
 * 64-bit word): on GPUs, whose 64-bit integer operations are pairs of
 * 32-bit ones, and with one lane per work-item (AGREP_GPU_LANES=1: the
 * GPU's shape, which the tests run on POCL).  The development knob
 * AGREP_GPU_PAIR=0 or 1 forbids or forces it; 2 forces it without the
 * cut-off (PAIR_FULL, for comparison).  Needs s->wbits, s->blocks and
 * s->lanes.
 */
static int
pair_words(const struct scanner *s)
{
	const char *e = getenv("AGREP_GPU_PAIR");

	if (s->wbits != 64 || s->blocks)
		return 0;
	if (e != NULL && *e != '\0')
		return atoi(e) == 2 ? 2 : atoi(e) != 0;
	return (s->dev.type & CL_DEVICE_TYPE_GPU) != 0 || s->lanes == 1;
}

/* AGREP_GPU_PP's number (1: the pattern-parallel kernel wherever it can
 * run; 0: never), PP_UNSET when it is not set: the patterns and the device
 * say. */
#define PP_UNSET	INT_MIN
static int
pp_env(void)
{
	const char *e = getenv("AGREP_GPU_PP");

	return e != NULL && *e != '\0' ? atoi(e) : PP_UNSET;
}

/*
 * Whether the pattern-parallel kernel scans for the device: patterns of
 * 1-32 bytes whose byte classes and slice fit the device's local memory
 * (slice bytes), and on a GPU at least
 * PP_MIN_PATTERNS of them (measured: bench/results/h100.md).
 * AGREP_GPU_PP=0 forbids it, AGREP_GPU_PP=1 asks for it with any number
 * of patterns and on CPU devices (the tests run it on POCL).  Needs
 * s->wbits and s->blocks.
 */
static int
pp_wanted(const struct scanner *s, size_t slice)
{
	const int gpu = (s->dev.type & CL_DEVICE_TYPE_GPU) != 0,
	    force = pp_env();
	cl_uint cls[256];

	if (force == 0 || s->wbits != 32 || s->blocks || s->ps->npat == 0)
		return 0;
	/* (--no-indels: the only kernel it has; search.c asked for it) */
	if (force != 1 && !s->ps->hamming && (!gpu ||
	    s->ps->npat < PP_MIN_PATTERNS))
		return 0;
	for (size_t p = 0; p < s->ps->npat; p++)
		if (s->ps->pat[p].len == 0)
			return 0;
	size_t ncls = pp_classes(s->ps, s->eol, cls);
	cl_ulong lmem = 0;
	/* Its local memory: the Eq table, the text tile, the hits. */
	size_t need = ncls * (gpu ? PP_LOCAL_GPU : PP_LOCAL_CPU) * 4 +
	    scan_pad(s->ps) + slice + slice / 8;
	if (ncls > PP_MAXCLS || clGetDeviceInfo(s->dev.device,
	    CL_DEVICE_LOCAL_MEM_SIZE, sizeof(lmem), &lmem, NULL) !=
	    CL_SUCCESS || lmem < need)
		return 0;
	return 1;
}

/*
 * Whether the pattern-parallel kernel skips the score in calm strides
 * (myers.cl, PP_LAZY): when every pattern is at least 2 (k + 4) long, so
 * that most strides are calm (24-base primers at k <= 4: 20% faster on the
 * H100; Bible words of 5-15 letters at k = 1, rarely calm, 60% slower).
 * AGREP_GPU_PP_LAZY=0 or 1 forbids or forces it (tests).
 */
static int
pp_lazy(const struct patset *ps)
{
	const char *e = getenv("AGREP_GPU_PP_LAZY");

	if (ps->hamming)	/* (its kernel has no score to skip) */
		return 0;
	if (e != NULL && *e != '\0')
		return atoi(e) != 0;
	for (size_t p = 0; p < ps->npat; p++)
		if (ps->pat[p].len < 2 * ((size_t)ps->k + 4))
			return 0;
	return 1;
}

/*
 * Whether the devices can scan a --no-indels search: the pattern-parallel
 * kernel with Hamming counters (myers.cl, PP_HK) is its only kernel, for
 * one pattern too, so patterns of 1-32 units, k at most PP_HMAX (a
 * register each), unless AGREP_GPU_PP=0.  Otherwise the host's hm_hamming
 * scans.
 */
int
scan_hamming_ok(const struct patset *ps)
{
	if (!ps->hamming || ps->nre > 0 || ps->npat == 0 || ps->maxlen > 32 ||
	    ps->k < 0 || ps->k > PP_HMAX || pp_env() == 0)
		return 0;
	for (size_t p = 0; p < ps->npat; p++)
		if (ps->pat[p].len == 0)
			return 0;
	return 1;
}

/* Whether a GPU would scan ps with the pattern-parallel kernel (the
 * planner keeps its figures apart; pp_wanted decides, per device). */
int
scan_pp_likely(const struct patset *ps)
{
	const int force = pp_env();

	if (force != PP_UNSET)
		return force != 0;
	return ps->npat >= PP_MIN_PATTERNS && ps->maxlen <= 32;
}

/* Chooses word size, lanes, work-group and slice sizes for the device. */
static void
choose_shape(struct scanner *s, size_t slice)
{
	int cpu = (s->dev.type & CL_DEVICE_TYPE_GPU) == 0;
	size_t lanes_total;

	s->fixed_slice = slice != 0;
	s->wbits = s->ps->maxlen <= 32 ? 32 : 64;
	s->blocks = s->ps->maxwords > 1;
	if ((s->re = scan_re_ok(s->ps))) {
		/* one slice a work-item; T and B in local memory a group */
		s->re_g = re_groups(s->ps);
		s->re_k = s->ps->k;
		s->zero_copy = cpu;
		s->lanes = 1;
		s->local = cpu ? RE_LOCAL_CPU : RE_LOCAL_GPU;
		s->lanes_total = (size_t)s->dev.units * (cpu ? 4 * s->local :
		    1024);
		s->slice = slice ? round_up(slice, 64) : slice_for(s, s->cap);
		return;
	}
	if ((s->pp = pp_wanted(s, slice ? round_up(slice, 64) : PP_SLICE))) {
		s->pp_lazy = pp_lazy(s->ps);
		s->zero_copy = cpu;
		s->lanes = 1;
		s->local = cpu ? PP_LOCAL_CPU : PP_LOCAL_GPU;
		s->lanes_total = (size_t)s->dev.units * s->local;
		s->slice = slice ? round_up(slice, 64) : PP_SLICE;
		return;
	}
	s->zero_copy = cpu;
	if (cpu) {
		s->lanes = s->wbits == 32 ? 16 : 8;
		if (getenv("AGREP_GPU_LANES"))
			s->lanes = atoi(getenv("AGREP_GPU_LANES"));
		s->local = 1;
		lanes_total = (size_t)s->dev.units * s->lanes * 16;
	} else {
		s->lanes = 1;
		s->local = 128;
		lanes_total = (size_t)s->dev.units * 1024;
	}
	s->lanes_total = lanes_total;
	s->slice = slice ? round_up(slice, 64) : slice_for(s, s->cap);
}

/* Returns the kernel source: the one built in, or for development the file
 * named by AGREP_GPU_KERNEL. */
static char *
load_source(void)
{
	const char *path = getenv("AGREP_GPU_KERNEL");
	FILE *f;
	char *src;
	long n;

	if (path == NULL || (f = fopen(path, "rb")) == NULL)
		return (char *)myers_cl_src;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	src = xcalloc(1, n > 0 ? (size_t)n + 1 : 1);
	if (n > 0 && fread(src, 1, (size_t)n, f) != (size_t)n)
		src[0] = '\0';
	fclose(f);
	return src;
}

/* The scanning kernel a scanner runs. */
static const char *
kernel_name(const struct scanner *s)
{
	return s->re ? "re_scan" : s->pp ? "myers_pp" : s->blocks ?
	    "myers_scan_blocks" : "myers_scan";
}

/*
 * Opens an OpenCL scanner on a device: context, queue, program, pattern
 * tables and SCAN_SLOTS buffer pairs for chunks of up to cap bytes.  A slice
 * of 0 picks one.  Returns 0, or -1 after a message (everything released).
 */
int
scan_open_device(struct scanner *s, const struct patset *ps,
    unsigned char eol, size_t cap, const struct ocl_dev *dev, size_t slice)
{
	char opts[256], *src;
	cl_int err;
	double t0 = now();

	memset(s, 0, sizeof(*s));
	s->ps = ps;
	s->eol = eol;
	s->pad = scan_pad(ps);
	s->cap = cap;
	s->device = 1;
	s->dev = *dev;
	choose_shape(s, slice);
	if (ps->hamming && !s->pp) {
		warnx_("warning: %s: no room for the --no-indels kernel",
		    dev->name);
		return -1;
	}
	set_alloc(s);
	s->ctx = clCreateContext(NULL, 1, &dev->device, NULL, NULL, &err);
	if (s->ctx == NULL) {
		OCL_FAIL("clCreateContext", err);
		goto fail;
	}
	s->stats = getenv("AGREP_GPU_STATS") != NULL;
	s->queue = clCreateCommandQueue(s->ctx, dev->device,
	    s->stats ? CL_QUEUE_PROFILING_ENABLE : 0, &err);
	if (s->queue == NULL) {
		OCL_FAIL("clCreateCommandQueue", err);
		goto fail;
	}
	snprintf(opts, sizeof(opts), "-DWORD=%s -DWBITS=%d -DLANES=%d "
	    "-DRC_LOCAL=%d -DRC_ITEM=%d", s->wbits == 32 ? "uint" : "ulong",
	    s->wbits, s->lanes, RC_LOCAL, RC_ITEM);
	/* POCL on a CPU without AVX-512 warns on stderr (clang's "AVX
	 * vector return of type 'ulong8' ... changes the ABI") when it builds
	 * the 64-bit kernels of 8 lanes: an ABI inside its own build, nothing
	 * wrong with the kernel, but not a message for a grep's user. */
	if (s->dev.type & CL_DEVICE_TYPE_CPU)
		strcat(opts, " -w");
	if (s->blocks)
		snprintf(opts + strlen(opts), sizeof(opts) - strlen(opts),
		    " -DMAXW=%zu", ps->maxwords);
	if (s->re)
		snprintf(opts + strlen(opts), sizeof(opts) - strlen(opts),
		    " -DRE_G=%d -DRE_K=%d", s->re_g, ps->k);
	if (s->re && ps->weighted)	/* (a cost past k: never) */
		snprintf(opts + strlen(opts), sizeof(opts) - strlen(opts),
		    " -DRE_WI=%d -DRE_WD=%d -DRE_WS=%d",
		    ps->cost.ins > ps->k ? ps->k + 1 : ps->cost.ins,
		    ps->cost.del > ps->k ? ps->k + 1 : ps->cost.del,
		    ps->cost.sub > ps->k ? ps->k + 1 : ps->cost.sub);
	else if (s->pp)
		snprintf(opts + strlen(opts), sizeof(opts) - strlen(opts),
		    " -DPP_G=%zu -DPP_TILE=%zu -DPP_SLW=%zu%s", s->local,
		    (s->pad + s->slice) / 4, s->slice / 32,
		    s->pp_lazy ? " -DPP_LAZY=1" : "");
	if (s->pp && ps->hamming)
		snprintf(opts + strlen(opts), sizeof(opts) - strlen(opts),
		    " -DPP_HK=%d", ps->k);
	else if (pair_words(s))
		snprintf(opts + strlen(opts), sizeof(opts) - strlen(opts),
		    " -DPAIR=1%s", pair_words(s) == 2 ? " -DPAIR_FULL=1" : "");
	if (getenv("AGREP_GPU_STATS") != NULL)
		fprintf(stderr, "%s: stats: context %.3f s\n", progname,
		    now() - t0);
	src = load_source();
	s->prog = ocl_build(s->ctx, dev, src, opts, &s->built);
	if (src != myers_cl_src)
		free(src);
	if (s->prog == NULL)
		goto fail;
	const double t_prog = now();
	s->kern = clCreateKernel(s->prog, kernel_name(s), &err);
	if (s->kern == NULL) {
		OCL_FAIL("clCreateKernel", err);
		goto fail;
	}
	/* Without it (AGREP_GPU_COUNTS=0, or a kernel file of old), the
	 * host counts records from the bitmap. */
	const char *rc = getenv("AGREP_GPU_COUNTS");
	if (rc == NULL || atoi(rc) != 0)
		s->rkern = clCreateKernel(s->prog, "count_records", &err);
	if (upload_patterns(s) == -1)
		goto fail;
	const double t_tables = now();
	for (int i = 0; i < SCAN_SLOTS; i++)
		if (slot_alloc(s, &s->slot[i]) == -1)
			goto fail;
	s->lock = xmalloc(sizeof(*s->lock));
	pthread_mutex_init(s->lock, NULL);
	s->t_ready = now();
	if (s->stats)
		fprintf(stderr, "%s: stats: %s: open %.3f s: context and "
		    "program %.3f (compiling %.3f), tables %.3f, slots %.3f\n",
		    progname, dev->name, s->t_ready - t0, t_prog - t0,
		    s->built, t_tables - t_prog, s->t_ready - t_tables);
	return 0;
fail:
	scan_close(s);
	return -1;
}

/*
 * Gives clone c kernels of its own, so that its scans start without the
 * lock: with one kernel object for every slot, the slots' submits took
 * turns (one H100, 8.6 GB -c -k2 mercy on the GPU alone: 0.2 ms waiting
 * for the lock a range with 8 slots, 0.8-1.0 ms with 16, 1.5-1.7 ms with
 * 24).  Left sharing the parent's where one cannot be made.
 */
static void
clone_kernels(struct scanner *c, const struct scanner *p)
{
	cl_kernel k, r = NULL;
	cl_int err;

	if ((k = clCreateKernel(p->prog, kernel_name(p), &err)) == NULL)
		return;
	/* myers_pp's byte-class table in local memory (pp_table) */
	if ((p->pp && clSetKernelArg(k, 10, p->ncls * p->local *
	    sizeof(cl_uint), NULL) != CL_SUCCESS) || (p->rkern != NULL &&
	    (r = clCreateKernel(p->prog, "count_records", &err)) == NULL)) {
		clReleaseKernel(k);
		return;
	}
	c->kern = k;
	c->rkern = r;
	c->own_kern = 1;
}

/*
 * Makes c a worker's clone of the open device scanner p: the same context,
 * program and tables, a queue and SCAN_SLOTS slots of its own.  The first
 * clone takes over the slots p made when it was opened (they proved the
 * device can hold them); later ones make theirs when first used.
 */
void
scan_clone(struct scanner *c, struct scanner *p)
{
	cl_int err;

	pthread_mutex_lock(p->lock);
	*c = *p;
	memset(p->slot, 0, sizeof(p->slot));
	pthread_mutex_unlock(p->lock);
	c->parent = p;
	c->sub_pre = c->sub_lock = c->sub_all = c->sub_write = c->sub_kern = 0;
	c->nsub = 0;
	clone_kernels(c, p);
	/* A queue of its own: the workers' transfers and kernels overlap on
	 * the device instead of waiting in one in-order queue.  Not on a CPU
	 * device: POCL (3.1 and 5.0) aborts now and then when kernels of
	 * several queues finish at once (pocl_release_dlhandle_cache:
	 * Assertion `found->ref_count > 0'), and its kernel takes every core
	 * anyway. */
	if (p->dev.type & CL_DEVICE_TYPE_CPU)
		return;
	c->queue = clCreateCommandQueue(p->ctx, p->dev.device,
	    p->stats ? CL_QUEUE_PROFILING_ENABLE : 0, &err);
	if (c->queue == NULL) {
		OCL_FAIL("clCreateCommandQueue", err);
		c->queue = p->queue;	/* share the device's */
	}
	/* Slots not taken over are made when first used (scan_chunk): a
	 * range job needs one, the ring two, and pinned memory is dear. */
}

/* Grows every slot to hold chunks of cap bytes, keeping their contents. */
void
scan_grow(struct scanner *s, size_t cap)
{
	size_t old = s->pad + s->alloc;

	for (int i = 0; i < SCAN_SLOTS; i++)
		if (s->slot[i].own != NULL)
			fatalx("scan_grow: a slot is lent");
	s->cap = cap;
	set_alloc(s);
	for (int i = 0; i < SCAN_SLOTS; i++) {
		struct scan_slot *sl = &s->slot[i], nsl;
		u8_free(s, sl);		/* made again at the new size */
		if (!s->device && sl->bm == NULL)
			continue;	/* made when first used */
		if (!s->device) {
			unsigned char *b = util_alloc_big(s->pad + s->alloc);
			if (b == NULL)
				fatalx("out of memory (%zu bytes)", s->pad +
				    s->alloc);
			if (sl->buf != NULL)
				memcpy(b, sl->buf, old < s->pad + s->alloc ?
				    old : s->pad + s->alloc);
			if (sl->carved) {
				/* (the pipeline's mapping stays) */
				uint64_t *bm = xmalloc(s->alloc / 8);
				memcpy(bm, sl->bm, (old - s->pad) / 8 <
				    s->alloc / 8 ? (old - s->pad) / 8 :
				    s->alloc / 8);
				sl->bm = bm;
				sl->carved = 0;
			} else {
				util_free_big(sl->buf);
				sl->bm = xrealloc(sl->bm, s->alloc / 8);
			}
			sl->buf = b;
			continue;
		}
		if (sl->buf == NULL)
			continue;	/* made when first used */
		if (slot_alloc(s, &nsl) == -1)
			fatalx("cannot grow the device buffers to %zu bytes",
			    s->alloc);
		memcpy(nsl.buf, sl->buf, old);
		slot_free(s, sl);
		*sl = nsl;
	}
}

/*
 * A host scanner's slot scans the caller's buffer (pad bytes, then up to
 * cap bytes of chunk, and 64 more) in place of its own until scan_unlend:
 * a streamed range is scanned where the reader put it, not copied first.
 */
void
scan_lend(struct scanner *s, int slot, unsigned char *buf)
{
	struct scan_slot *sl = &s->slot[slot];

	if (s->device || sl->own != NULL)
		fatalx("scan_lend: a device's slot, or one lent already");
	host_slot(s, sl);	/* (its bitmap) */
	sl->own = sl->buf;
	sl->buf = buf;
}

void
scan_unlend(struct scanner *s, int slot)
{
	struct scan_slot *sl = &s->slot[slot];

	sl->buf = sl->own;
	sl->own = NULL;
}

/* Returns where the chunk of a slot starts; pad bytes lie before it. */
unsigned char *
scan_chunk(struct scanner *s, int slot)
{
	if (s->slot[slot].buf == NULL && s->device &&
	    slot_alloc(s, &s->slot[slot]) == -1)
		fatalx("cannot allocate %zu bytes of device buffers",
		    s->pad + s->alloc);
	host_slot(s, &s->slot[slot]);
	return s->slot[slot].buf + s->pad;
}

/* Tests: AGREP_GPU_FAULT=N makes the Nth device scan of the run fail to
 * start, as a device that fails mid-run would. */
static long fault_at;

static void
fault_init(void)
{
	const char *e = getenv("AGREP_GPU_FAULT");

	fault_at = e != NULL ? atol(e) : 0;
}

static int
fault_now(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	static long scans;

	pthread_once(&once, fault_init);
	return fault_at > 0 &&
	    __atomic_add_fetch(&scans, 1, __ATOMIC_RELAXED) == fault_at;
}

static cl_int submit_locked(struct scanner *, struct scan_slot *,
    const unsigned char *, cl_mem, cl_mem, cl_uint, cl_uint, cl_uint,
    cl_uint, cl_uint, cl_uint, size_t, size_t, size_t, size_t);
static int rc_ready(struct scanner *, struct scan_slot *, size_t len);

/*
 * AGREP_GPU_TRACE=FILE (with AGREP_GPU_STATS): a line a device scan, for
 * finding where a device's time goes (bench/trace.awk sums it up): the
 * device (its name and handle), the bytes, then the copy's and the
 * kernel's start and end on the device's clock, and the moment the host
 * saw the scan done on its own clock (ns).
 */
static FILE *trace_f;

static void
trace_open(void)
{
	const char *p = getenv("AGREP_GPU_TRACE");

	if (p != NULL && (trace_f = fopen(p, "w")) == NULL)
		warnx_("%s: %s", p, strerror(errno));
}

static FILE *
trace_file(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, trace_open);
	return trace_f;
}

static cl_ulong
ev_time(cl_event e, cl_profiling_info what)
{
	cl_ulong t = 0;

	clGetEventProfilingInfo(e, what, sizeof(t), &t, NULL);
	return t;
}

/* Sets one kernel argument; returns the OpenCL status. */
#define ARG(i, v) clSetKernelArg(s->kern, (i), sizeof(v), &(v))

/*
 * UTF-8 mode: when the chunk raw[0, len) of a slot is not all ASCII, writes
 * its symbols after a pad of terminators into the slot's symbol buffer
 * (made on first use) and returns their number; returns 0 when the bytes
 * themselves are to be scanned (byte mode, or all ASCII: an ASCII byte is
 * its own symbol; ascii set: the caller knows it is).
 */
static size_t
u8_prepare(struct scanner *s, struct scan_slot *sl, size_t len, int ascii)
{
	const unsigned char *raw = sl->buf + s->pad;

	sl->nsym = 0;
	if (s->ps->u8 == NULL || ascii || u8_ascii(raw, len))
		return 0;
	if (sl->sym == NULL) {
		size_t n = s->pad + s->alloc;
		sl->sym = s->device ? map_new(s, n, &sl->hsym) : malloc(n);
		if (sl->sym == NULL)
			fatalx("out of memory for %zu bytes of symbols", n);
		sl->ck = xreallocarray(NULL, s->alloc / 64 + 2,
		    sizeof(*sl->ck));
		sl->bmb = xmalloc(s->alloc / 8 + 8);
	}
	memset(sl->sym, s->eol, s->pad);
	sl->nsym = u8_transcode(s->ps->u8, raw, len, sl->sym + s->pad, sl->ck);
	/* An empty symbol count means bytes: a chunk of symbols has some. */
	return sl->nsym;
}

/* Does the scanner look at whether a chunk is all ASCII (UTF-8 mode)?  A
 * caller that reads the chunk can check it while the bytes are in the
 * cache and say so (SCAN_ASCII): u8_prepare's own check read the whole
 * chunk again, 0.8 ms of the 3.6 ms an 8 MB range held a GPU slot (one
 * H200, 16 workers). */
int
scan_wants_ascii(const struct scanner *s)
{
	return s->ps->u8 != NULL;
}

/* The hits of a slot's scan, on its bytes. */
static const uint64_t *
hits_of(struct scanner *s, struct scan_slot *sl)
{
	if (sl->nsym == 0)
		return sl->bm;
	u8_hits_to_bytes(sl->buf + s->pad, sl->len, sl->ck, sl->nsym, sl->bm,
	    sl->bmb);
	return sl->bmb;
}

/*
 * Starts scanning the first len bytes of a slot's chunk, of which the first
 * valid (>= len) hold input (the rest is left alone).  A chunk that
 * begins at a record start gets a pad of terminators; with SCAN_WARM in
 * flags, the caller has put the bytes before the chunk (the middle of a
 * long record) into the pad (not in UTF-8 mode: long_record overlaps its
 * pieces there); with SCAN_ASCII, it knows the chunk is all ASCII.
 * In UTF-8 mode a chunk that is not all ASCII is scanned as symbols (a
 * buffer of its own: the bytes stay for the output).  The host matcher
 * finishes before returning; a device scan runs until scan_wait.  Returns
 * 0, or -1 after a message when the device refused the work.
 */
int
scan_submit(struct scanner *s, int slot, size_t len, size_t valid, int flags)
{
	const int r = scan_prepare(s, slot, len, valid, flags);

	return r <= 0 ? r : scan_launch(s, slot);
}

static int rc_ready(struct scanner *, struct scan_slot *, size_t);

/*
 * NULs as record ends (SCAN_ZAP): grep reads a file it finds binary (a
 * NUL) with every NUL a line end, so that -c, -v, -x, anchors and the
 * matches themselves see the pieces between them as lines; the bytes
 * from the first NUL on are never printed (binary file matches).  Makes
 * the NULs of the slot's chunk terminators and notes where the first was
 * (scan_nul_at).
 */
void
scan_zap(struct scanner *s, int slot)
{
	struct scan_slot *sl = &s->slot[slot];
	unsigned char *t = sl->buf + s->pad, *p = memchr(t, '\0', sl->len);

	sl->nul_seen = p != NULL ? 2 : 1;
	sl->nul_at = p != NULL ? (size_t)(p - t) : 0;
	for (; p != NULL; p = memchr(p, '\0', sl->len - (size_t)(p - t)))
		*p = s->eol;
}

/* Where the slot's last chunk had its first NUL (SCAN_ZAP), or
 * SCAN_NUL_NONE, or SCAN_NUL_UNKNOWN when it was not looked for. */
size_t
scan_nul_at(const struct scanner *s, int slot)
{
	const struct scan_slot *sl = &s->slot[slot];

	return sl->nul_seen == 0 ? SCAN_NUL_UNKNOWN : sl->nul_seen == 1 ?
	    SCAN_NUL_NONE : sl->nul_at;
}

/* After scan_wait: whether count_records found a NUL that scan_prepare
 * left to it: the chunk is to be made terminators and scanned again. */
int
scan_nul_pending(const struct scanner *s, int slot)
{
	const struct scan_slot *sl = &s->slot[slot];

	if (!sl->nul_kernel || !sl->rc_done)
		return 0;
	for (size_t g = 0; g < sl->rc_groups; g++)
		if (sl->rc[4 * g + 3] != 0)
			return 1;
	return 0;
}

/*
 * scan_submit's first half, on the caller's thread: the pad and the tail,
 * UTF-8 symbols, the launch's arguments (the host matcher runs here).
 * Returns 1 when the slot is ready for scan_launch (a device), 0 when the
 * scan is done already (the host), -1 after a message.  Another thread
 * may then launch it (devq.c: the device's submitter).
 */
int
scan_prepare(struct scanner *s, int slot, size_t len, size_t valid,
    int flags)
{
	const int warm = flags & SCAN_WARM;
	struct scan_slot *sl = &s->slot[slot];
	struct scan_args *a = &sl->args;
	size_t slice, span, nsym;
	unsigned char *host;

	a->t_prep = s->stats ? util_now() : 0;
	host_slot(s, sl);
	if (!warm)
		memset(sl->buf, s->eol, s->pad);
	sl->len = len;
	sl->nul_seen = 0;
	sl->nul_kernel = 0;
	if ((flags & SCAN_ZAP) && !warm) {
		if (flags & SCAN_NONUL)
			sl->nul_seen = 1;
		/* (counting on the device: count_records looks, and the
		 * rare chunk with a NUL is scanned again on the host; so
		 * the feed does not read every chunk again) */
		else if (s->device && sl->rc_want && (s->ps->u8 == NULL ||
		    (flags & SCAN_ASCII)) && rc_ready(s, sl, len))
			sl->nul_kernel = 1;
		else
			scan_zap(s, slot);
	}
	host = sl->buf;
	if ((nsym = u8_prepare(s, sl, len, flags & SCAN_ASCII)) > 0) {
		host = sl->sym;
		len = valid = nsym;
	}
	if (!s->device) {
		if (s->xlines && !warm)
			hm_lines(s->ps, host + s->pad, len, s->eol, sl->bm);
		else if (s->exact && !warm)
			hm_exact(&s->ps->pat[0], host + s->pad, len, s->eol,
			    sl->bm);
		else
			hm_scan(s->ps, host, s->pad, len, s->eol, sl->bm);
		return 0;
	}
	slice = slice_for(s, len);
	a->items = items_for(s, len, slice);
	span = s->pp ? round_up(len, slice) : a->items * s->lanes * slice;
	a->bbytes = span / 8;
	/* The last work-items read past the chunk: past the input bytes,
	 * give them terminators rather than uninitialised memory (their hits
	 * are cut off anyway). */
	a->tail = span - len;
	if (valid < len + a->tail)
		memset(host + s->pad + valid, s->eol, len + a->tail - valid);
	a->host = host;
	a->text = s->zero_copy ? (nsym ? sl->hsym : sl->hbuf) : sl->dbuf;
	a->bm = s->zero_copy ? sl->hbm : sl->dbm;
	a->pad_blocks = (cl_uint)(s->pad / s->wbits);
	a->slice_blocks = (cl_uint)(slice / s->wbits);
	a->nslices = (cl_uint)((len + slice - 1) / slice);
	a->len = len;
	/* Records counted on the device: bytes (not symbols) only. */
	sl->rc_done = sl->rc_want && nsym == 0 && rc_ready(s, sl, len);
	sl->rc_want = 0;
	if (fault_now()) {
		warnx_("OpenCL: a fault injected (AGREP_GPU_FAULT)");
		return -1;
	}
	return 1;
}

/* scan_submit's second half: the OpenCL calls that start a prepared
 * slot's scan.  Returns 0, or -1 after a message. */
int
scan_launch(struct scanner *s, int slot)
{
	struct scan_slot *sl = &s->slot[slot];
	const struct scan_args *a = &sl->args;
	cl_int err;

	/* (the statistics add up in the scanner, a clone's in its parent's
	 * when it closes) */
	double t0 = s->stats ? util_now() : 0;
	if (!s->own_kern)
		pthread_mutex_lock(s->lock);
	if (s->stats) {
		double t1 = util_now();
		s->sub_lock += t1 - t0;
		s->sub_pre += t0 - a->t_prep;
		s->nsub++;
		t0 = t1;
	}
	err = submit_locked(s, sl, a->host, a->text, a->bm, a->pad_blocks,
	    a->slice_blocks, a->nslices, (cl_uint)s->ps->npat,
	    (cl_uint)s->ps->k, s->eol, a->len, a->tail, a->bbytes, a->items);
	if (s->stats)
		s->sub_all += util_now() - t0;
	if (!s->own_kern)
		pthread_mutex_unlock(s->lock);
	return err == CL_SUCCESS ? 0 : -1;
}

/*
 * Counting records on the device (count_records in kernels/myers.cl): for
 * outputs that need only how many records hold a match, the scan of a slot
 * is followed by a kernel that counts them, and the host reads back a
 * summary per work-group (RC_GROUP bytes) instead of the bitmap.
 */

/* Asks the next scan of a slot to count the records of its chunk from byte
 * from (a record start) on, if the device can. */
void
scan_count_from(struct scanner *s, int slot, size_t from)
{
	s->slot[slot].rc_from = from;
	s->slot[slot].rc_want = 1;
}

/* Makes a slot's summary buffers when first needed; returns 1 when records
 * of a chunk of len bytes can be counted on the device. */
static int
rc_ready(struct scanner *s, struct scan_slot *sl, size_t len)
{
	const size_t n = (s->alloc / RC_GROUP + 1) * 4 * sizeof(cl_uint);
	cl_int err;

	if (!s->device || s->rkern == NULL || sl->rc_from >= len)
		return 0;
	if (sl->rc != NULL)
		return 1;
	/* (made whole or not at all: the bitmap serves meanwhile) */
	if (!s->zero_copy && (sl->drc = clCreateBuffer(s->ctx,
	    CL_MEM_WRITE_ONLY, n, NULL, &err)) == NULL) {
		OCL_FAIL("clCreateBuffer", err);
		return 0;
	}
	if ((sl->rc = map_new(s, n, &sl->hrc)) == NULL) {
		release_mem(&sl->hrc);
		release_mem(&sl->drc);
		return 0;
	}
	return 1;
}

/* Sets one argument of count_records. */
#define RARG(i, v) clSetKernelArg(s->rkern, (i), sizeof(v), &(v))

/* Queues count_records after the scan (kdone, which it releases) and the
 * summaries' read-back.  Returns the OpenCL status. */
static cl_int
rc_submit(struct scanner *s, struct scan_slot *sl, cl_mem text, cl_mem bm,
    size_t len, cl_event kdone)
{
	const cl_ulong pad = s->pad, from = sl->rc_from, to = len;
	const cl_uint eol = s->eol;
	const size_t local = RC_LOCAL;
	cl_mem out = s->zero_copy ? sl->hrc : sl->drc;
	size_t items;
	cl_event rdone = NULL;
	cl_int err;

	sl->rc_groups = (len + RC_GROUP - 1) / RC_GROUP;
	items = sl->rc_groups * RC_LOCAL;
	if ((err = RARG(0, text)) != CL_SUCCESS || (err = RARG(1, pad)) ||
	    (err = RARG(2, bm)) || (err = RARG(3, from)) ||
	    (err = RARG(4, to)) || (err = RARG(5, eol)) ||
	    (err = RARG(6, out))) {
		clReleaseEvent(kdone);
		OCL_FAIL("clSetKernelArg", err);
		return err;
	}
	err = clEnqueueNDRangeKernel(s->queue, s->rkern, 1, NULL, &items,
	    &local, 1, &kdone, &rdone);
	clReleaseEvent(kdone);
	if (err != CL_SUCCESS) {
		OCL_FAIL("clEnqueueNDRangeKernel", err);
		return err;
	}
	if (s->zero_copy) {
		sl->done = rdone;
		clFlush(s->queue);
		return CL_SUCCESS;
	}
	err = clEnqueueReadBuffer(s->queue, sl->drc, CL_FALSE, 0,
	    sl->rc_groups * 4 * sizeof(cl_uint), sl->rc, 1, &rdone,
	    &sl->done);
	clReleaseEvent(rdone);
	if (err != CL_SUCCESS) {
		OCL_FAIL("clEnqueueReadBuffer", err);
		return err;
	}
	clFlush(s->queue);
	return CL_SUCCESS;
}

/* The join of two summaries (count_records' rc_join): r[0] records with a
 * hit inside, r[1] terminators, r[2] flags, r[3] a NUL in it. */
#define RC_HAS	1u
#define RC_HEAD	2u
#define RC_TAIL	4u

static void
rc_join(cl_uint *a, const cl_uint *b)
{
	a[1] += b[1];
	a[3] |= b[3];
	if ((a[2] & RC_HAS) == 0) {
		a[0] = b[0];
		a[2] = (b[2] & RC_HAS) ? b[2] | (a[2] & RC_HEAD) : a[2] | b[2];
	} else if ((b[2] & RC_HAS) == 0) {
		a[2] |= (b[2] & RC_HEAD) ? RC_TAIL : 0;
	} else {
		a[0] += b[0] + ((a[2] & RC_TAIL) || (b[2] & RC_HEAD));
		a[2] = RC_HAS | (a[2] & RC_HEAD) | (b[2] & RC_TAIL);
	}
}

/*
 * After scan_wait: when the slot's last scan counted its records, sets *hit
 * to the records from the counting start on that hold a match (the last
 * one may lack its terminator), *eols to their terminators, and returns 0;
 * returns -1 when it made a bitmap instead.
 */
int
scan_counts(const struct scanner *s, int slot, uint64_t *hit, uint64_t *eols)
{
	const struct scan_slot *sl = &s->slot[slot];
	cl_uint t[4] = { 0, 0, 0, 0 };

	if (!sl->rc_done)
		return -1;
	for (size_t g = 0; g < sl->rc_groups; g++)
		rc_join(t, sl->rc + 4 * g);
	/* The first record starts at the counting start; the last one ends
	 * at the chunk's end. */
	*hit = t[0] + ((t[2] & RC_HEAD) != 0) +
	    ((t[2] & RC_HAS) && (t[2] & RC_TAIL));
	*eols = t[1];
	return 0;
}

/*
 * The automaton kernel's arguments (myers.cl, re_scan), and the zeroed
 * bitmap it ORs its hits into: by the host on a CPU device (its mapped
 * buffer), by the device otherwise.  Returns the OpenCL status; *fill,
 * the zeroing's event if any, comes before the kernel.
 */
static cl_int
re_args(struct scanner *s, struct scan_slot *sl, cl_mem text, cl_mem bm,
    size_t len, size_t bbytes, cl_uint eol, cl_event *fill)
{
	const cl_ulong pad = s->pad, clen = len, slice = slice_for(s, len);
	const cl_uint zero = 0;
	cl_int err;

	if ((err = ARG(0, text)) != CL_SUCCESS || (err = ARG(1, pad)) ||
	    (err = ARG(2, clen)) || (err = ARG(3, slice)) ||
	    (err = ARG(4, s->peq)) || (err = ARG(5, eol)) ||
	    (err = ARG(6, bm))) {
		OCL_FAIL("clSetKernelArg", err);
		return err;
	}
	if (s->zero_copy) {
		memset(sl->bm, 0, bbytes);
		return CL_SUCCESS;
	}
	err = clEnqueueFillBuffer(s->queue, sl->dbm, &zero, sizeof(zero), 0,
	    bbytes, 0, NULL, fill);
	if (err != CL_SUCCESS)
		OCL_FAIL("clEnqueueFillBuffer", err);
	return err;
}

/* The part of scan_submit that uses the shared kernel: its arguments and
 * the commands that go with them.  Returns the OpenCL status. */
static cl_int
submit_locked(struct scanner *s, struct scan_slot *sl,
    const unsigned char *host, cl_mem text, cl_mem bm, cl_uint pad_blocks,
    cl_uint slice_blocks, cl_uint nslices, cl_uint npat, cl_uint k,
    cl_uint eol, size_t len, size_t tail, size_t bbytes, size_t items)
{
	cl_event up = NULL, kdone = NULL, fill = NULL, wait[2];
	cl_uint nwait = 0;
	cl_int err;

	if (s->re) {
		if (re_args(s, sl, text, bm, len, bbytes, eol, &fill) !=
		    CL_SUCCESS)
			return -1;
	} else if ((err = ARG(0, text)) != CL_SUCCESS ||
	    (err = ARG(1, pad_blocks)) ||
	    (err = ARG(2, slice_blocks)) || (err = ARG(3, nslices)) ||
	    (err = ARG(4, s->peq)) || (err = ARG(5, s->pinfo)) ||
	    (err = ARG(6, npat)) || (err = ARG(7, k)) || (err = ARG(8, eol)) ||
	    (err = ARG(9, bm))) {
		OCL_FAIL("clSetKernelArg", err);
		return -1;
	}
	double t0 = s->stats ? util_now() : 0, t1;
	if (!s->zero_copy) {
		err = clEnqueueWriteBuffer(s->queue, sl->dbuf, CL_FALSE, 0,
		    s->pad + len + tail, host, 0, NULL, &up);
		if (err != CL_SUCCESS) {
			OCL_FAIL("clEnqueueWriteBuffer", err);
			if (fill != NULL)
				clReleaseEvent(fill);
			return -1;
		}
	}
	if (up != NULL)
		wait[nwait++] = up;
	if (fill != NULL)
		wait[nwait++] = fill;
	if (s->stats) {
		t1 = util_now();
		s->sub_write += t1 - t0;
		t0 = t1;
	}
	err = clEnqueueNDRangeKernel(s->queue, s->kern, 1, NULL, &items,
	    &s->local, nwait, nwait ? wait : NULL, &kdone);
	/* The other expressions: a launch each, after it in the queue, on
	 * the same text and bitmap (arguments are taken at each launch). */
	for (size_t r = 1; s->re && r < re_count(s->ps) && err == CL_SUCCESS;
	    r++) {
		cl_event e = NULL;
		if ((err = ARG(4, s->re_more[r - 1])) != CL_SUCCESS)
			break;
		err = clEnqueueNDRangeKernel(s->queue, s->kern, 1, NULL, &items,
		    &s->local, 1, &kdone, &e);
		if (err == CL_SUCCESS) {
			clReleaseEvent(kdone);
			kdone = e;
		}
	}
	if (fill != NULL)
		clReleaseEvent(fill);
	if (up != NULL && s->stats && trace_file() != NULL && err ==
	    CL_SUCCESS)
		sl->uev = up;
	else if (up != NULL)
		clReleaseEvent(up);
	if (err != CL_SUCCESS) {
		OCL_FAIL("clEnqueueNDRangeKernel", err);
		if (kdone != NULL)
			clReleaseEvent(kdone);
		return -1;
	}
	/* (with several expressions, the stats time the last launch) */
	if (s->stats) {
		t1 = util_now();
		s->sub_kern += t1 - t0;
		t0 = t1;
		clRetainEvent(kdone);
		sl->kev = kdone;	/* (its bytes are counted when it is
					 * waited on, under the lock) */
	}
	if (sl->rc_done)
		return rc_submit(s, sl, text, bm, len, kdone);
	if (s->zero_copy) {
		sl->done = kdone;
		clFlush(s->queue);
		return 0;
	}
	err = clEnqueueReadBuffer(s->queue, sl->dbm, CL_FALSE, 0, bbytes,
	    sl->bm, 1, &kdone, &sl->done);
	clReleaseEvent(kdone);
	if (err != CL_SUCCESS) {
		OCL_FAIL("clEnqueueReadBuffer", err);
		return -1;
	}
	clFlush(s->queue);
	return 0;
}

/* Waits for a slot's scan; returns its bitmap (bit j: a match ends at chunk
 * byte j), or NULL after a message if the device failed. */
const uint64_t *
scan_wait(struct scanner *s, int slot)
{
	struct scan_slot *sl = &s->slot[slot];
	cl_int err;

	if (sl->done == NULL)
		return hits_of(s, sl);
	err = clWaitForEvents(1, &sl->done);
	clReleaseEvent(sl->done);
	sl->done = NULL;
	if (sl->kev != NULL) {
		cl_ulong t0 = ev_time(sl->kev, CL_PROFILING_COMMAND_START);
		cl_ulong t1 = ev_time(sl->kev, CL_PROFILING_COMMAND_END);
		struct scanner *st = s->parent ? s->parent : s;
		pthread_mutex_lock(s->lock);
		/* (NVIDIA now and then gives an end before the start, or
		 * no start: 2^64 ns or the clock's epoch would be added) */
		if (t0 > 0 && t1 > t0)
			st->kernel_s += (double)(t1 - t0) * 1e-9;
		st->scanned += sl->len;
		st->t_last = now();
		if (trace_file() != NULL)
			fprintf(trace_f, "%s %p\t%zu\t%llu\t%llu\t%llu\t"
			    "%llu\t%.0f\n", st->dev.name,
			    (void *)st->dev.device, sl->len, sl->uev ?
			    (unsigned long long)ev_time(sl->uev,
			    CL_PROFILING_COMMAND_START) : 0ULL, sl->uev ?
			    (unsigned long long)ev_time(sl->uev,
			    CL_PROFILING_COMMAND_END) : 0ULL,
			    (unsigned long long)t0, (unsigned long long)t1,
			    st->t_last * 1e9);
		pthread_mutex_unlock(s->lock);
		if (sl->uev != NULL)
			clReleaseEvent(sl->uev);
		sl->uev = NULL;
		clReleaseEvent(sl->kev);
		sl->kev = NULL;
	}
	if (err != CL_SUCCESS) {
		OCL_FAIL("clWaitForEvents", err);
		return NULL;
	}
	return hits_of(s, sl);
}

/* Releases everything the scanner made, in reverse order of creation. */
void
scan_close(struct scanner *s)
{
	if (s->stats && s->kernel_s > 0 && s->parent == NULL)
		fprintf(stderr, "%s: stats: %s: %llu bytes, kernel %.3f s, "
		    "%.2f GB/s; from ready to last scan %.3f s, %.2f GB/s; "
		    "slice %zu, lanes %d, %d-bit words%s\n", progname,
		    s->dev.name, s->scanned, s->kernel_s,
		    (double)s->scanned / s->kernel_s * 1e-9,
		    s->t_last - s->t_ready,
		    (double)s->scanned / (s->t_last - s->t_ready) * 1e-9,
		    s->slice, s->lanes, s->wbits,
		    s->pp_lazy ? ", pattern-parallel, lazy score" :
		    s->pp ? ", pattern-parallel" : s->re ? ", automaton" : "");
	if (s->stats && s->nsub > 0 && s->parent == NULL)
		fprintf(stderr, "%s: stats: %s: %lu submits: %.3f ms each "
		    "before the lock, %.3f waiting for it, %.3f under it: "
		    "%.3f in clEnqueueWriteBuffer, %.3f enqueueing kernels, "
		    "%.3f the rest\n", progname, s->dev.name, s->nsub,
		    s->sub_pre / s->nsub * 1e3, s->sub_lock / s->nsub * 1e3,
		    s->sub_all / s->nsub * 1e3,
		    s->sub_write / s->nsub * 1e3, s->sub_kern / s->nsub * 1e3,
		    (s->sub_all - s->sub_write - s->sub_kern) / s->nsub * 1e3);
	for (int i = SCAN_SLOTS - 1; i >= 0; i--)
		if (s->slot[i].buf != NULL || s->slot[i].hbuf != NULL)
			slot_free(s, &s->slot[i]);
	if (s->parent != NULL) {
		struct scanner *p = s->parent;
		if (s->stats) {
			pthread_mutex_lock(p->lock);
			p->sub_pre += s->sub_pre;
			p->sub_lock += s->sub_lock;
			p->sub_all += s->sub_all;
			p->sub_write += s->sub_write;
			p->sub_kern += s->sub_kern;
			p->nsub += s->nsub;
			pthread_mutex_unlock(p->lock);
		}
		if (s->own_kern) {
			clReleaseKernel(s->kern);
			if (s->rkern != NULL)
				clReleaseKernel(s->rkern);
		}
		if (s->queue != NULL && s->queue != s->parent->queue)
			clReleaseCommandQueue(s->queue);
		memset(s, 0, sizeof(*s));	/* the rest is the parent's */
		return;
	}
	if (s->lock != NULL) {
		pthread_mutex_destroy(s->lock);
		free(s->lock);
	}
	if (s->device) {
		release_mem(&s->pinfo);
		release_mem(&s->peq);
		for (int r = 0; r < RE_DEV_MAXEXPR - 1; r++)
			release_mem(&s->re_more[r]);
		if (s->kern != NULL)
			clReleaseKernel(s->kern);
		if (s->rkern != NULL)
			clReleaseKernel(s->rkern);
		if (s->prog != NULL)
			clReleaseProgram(s->prog);
		if (s->queue != NULL)
			clReleaseCommandQueue(s->queue);
		if (s->ctx != NULL)
			clReleaseContext(s->ctx);
	}
	memset(s, 0, sizeof(*s));
}
