/*
 * fuzz_records.c: libFuzzer target for the records reader
 * (src/pipeline/records.c): a case's bytes are an input read as FASTA,
 * FASTQ or --delimiter text records through rec_submit, the tool's own
 * entry point (the walk calls it), once from a file (a memfd, by its
 * /proc/self/fd name) with the default batch, piece and spill sizes, and
 * once more with tiny ones (AGREP_GPU_REC_BATCH, _PIECE, _SPILL: many
 * batches, pieces and spooled records), from the file again or from a
 * pipe on standard input (sniffed with tee, its records spooled to
 * temporary files).  The pattern set is --dna -k1 GATTACA (both strands,
 * all ends: --hits' set) over a pool of one worker, the host's engines.
 * It must not crash, hang or leak (memory or descriptors: spools are
 * temporary files), and the two runs must agree: the same
 * output byte for byte (stdout is a memfd), the same failure (a malformed
 * record: exit status 2) and the same "a record was selected".
 *
 * Input layout:
 *   byte 0  bits 0-2: the kind: auto (--dna), fasta, fastq, --delimiter
 *           '^>', '' (paragraphs), 'AC', '@' at line start; or lines
 *           (--hits only, else auto);
 *           bits 3-5: the output: records, -v, -c, --hits (TSV, BED,
 *           JSON), -m2, -l;
 *           bit 6: the second run reads a pipe
 *   byte 1  the tiny piece (1-64 bytes: rec_init makes it at least 2 x
 *           sites_overlap + 1)
 *   byte 2  the tiny batch (1-256 sequence bytes)
 *   byte 3  the tiny spill (1-64 bytes of a record's text in memory)
 *   the rest  the input, at most REC_MAX bytes
 *
 * Build and run: make fuzz-build fuzz-records (tests/fuzz/fuzz.mk).
 * FUZZ_SHOW=1 prints each case's output (to check seeds, or a crash).
 * Seeds (corpus_records/, written by hand in this layout): valid FASTA
 * (wrapped, unwrapped, CRLF, a 3 kbp record), FASTQ, text records and
 * lines, and malformed ones (a short quality, a truncated record, an
 * empty sequence, a sequence before the first header); regress-* are
 * inputs that once failed, each named for its fix.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/dna.h"
#include "base/util.h"
#include "engines/pattern.h"
#include "output/output.h"
#include "pipeline/input.h"
#include "pipeline/pool.h"
#include "pipeline/records.h"
#include "pipeline/search_int.h"

#define REC_MAX	(48 << 10)	/* the input, at most (a pipe's buffer) */
#define PAT	"GATTACA"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static struct options o;
static struct patset ps;
static char *names[1] = { "p" };
static int devnull = -1;

struct run {
	unsigned char	*out;
	size_t		 len;
	int		 taken, failed, matched;
};

static void
die(const char *what)
{
	fprintf(stderr, "fuzz_records: %s: %s\n", what, strerror(errno));
	abort();
}

static int
lowest_free(void)
{
	int fd = dup(0);

	if (fd == -1)
		die("dup");
	close(fd);
	return fd;
}

/* The tool's set-up for agrep-gpu -j1 --device=host -s --dna -k1 PAT. */
static void
setup(void)
{
	char err[256];
	unsigned char rc[sizeof(PAT)];

	memset(&o, 0, sizeof(o));
	o.with_name = -1;
	o.max_count = -1;
	o.before = o.after = -1;
	o.eol = '\n';
	o.group_sep = "--";
	o.threads = 1;
	o.device = "host";
	o.silent = 1;
	o.host_max = SIZE_MAX;
	o.k = 1;
	o.icase = 1;
	pat_init(&ps, 0, 0);
	ps.syntax = RE_BASIC;
	ps.iupac = 1;
	pat_add(&ps, PAT, strlen(PAT));
	dna_revcomp(rc, (const unsigned char *)PAT, strlen(PAT));
	pat_add(&ps, (const char *)rc, strlen(PAT));
	ps.no_expand = 1;
	ps.all_ends = 1;
	ps.k = o.k;
	ps.icase = o.icase;
	if (pat_compile(&ps, err, sizeof(err)) == -1) {
		fprintf(stderr, "fuzz_records: %s\n", err);
		abort();
	}
	pool_start(1, 1 << 20, 0, 0);
	out_init(&o, &ps);
	search_init(&o, &ps);
	/* Standard output is a memfd, read back after each run. */
	int fd = memfd_create("fuzz_records_out", 0);
	if (fd == -1 || dup2(fd, 1) == -1)
		die("memfd");
	close(fd);
	if ((devnull = open("/dev/null", O_RDONLY)) == -1 ||
	    dup2(devnull, 0) == -1)
		die("/dev/null");
}

static void
noflush(void)
{
}

static void
env(const char *name, unsigned v)
{
	char b[16];

	if (v == 0) {
		unsetenv(name);
		return;
	}
	snprintf(b, sizeof(b), "%u", v);
	setenv(name, b, 1);
}

/* One search of data[0, n) as the records rc, from a pipe or a file, with
 * the sizes given (0: the default). */
static void
run(const uint8_t *data, size_t n, const struct rec_conf *rc, int from_pipe,
    unsigned piece, unsigned batch, unsigned spill, struct run *r)
{
	struct stat st;

	env("AGREP_GPU_REC_PIECE", piece);
	env("AGREP_GPU_REC_BATCH", batch);
	env("AGREP_GPU_REC_SPILL", spill);
	rec_init(&ps, rc);
	S.matched = 0;
	S.job_failed = 0;
	if (ftruncate(1, 0) == -1 || lseek(1, 0, SEEK_SET) == -1)
		die("ftruncate");
	if (from_pipe) {
		int p[2];
		if (pipe(p) == -1)
			die("pipe");
		(void)fcntl(p[1], F_SETPIPE_SZ, REC_MAX + 4096);
		if (n > 0 && write(p[1], data, n) != (ssize_t)n)
			die("write");
		close(p[1]);
		if (dup2(p[0], 0) == -1)
			die("dup2");
		close(p[0]);
		r->taken = rec_submit(NULL, "in", 0, noflush);	/* (-l) */
		if (dup2(devnull, 0) == -1)
			die("dup2");
	} else {
		char path[64];
		int fd = memfd_create("fuzz_records_in", 0);
		if (fd == -1 || (n > 0 && write(fd, data, n) != (ssize_t)n))
			die("memfd");
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		r->taken = rec_submit(path, "in", 0, noflush);
		close(fd);
	}
	pool_drain();
	r->failed = S.job_failed;
	r->matched = S.matched;
	if (fstat(1, &st) == -1)
		die("fstat");
	r->len = (size_t)st.st_size;
	r->out = malloc(r->len + 1);
	if (r->len > 0 && pread(1, r->out, r->len, 0) != (ssize_t)r->len)
		die("pread");
}

static void
show(const char *what, const struct run *r)
{
	fprintf(stderr, "--- %s: taken %d, failed %d, matched %d, %zu "
	    "bytes:\n", what, r->taken, r->failed, r->matched, r->len);
	fwrite(r->out, 1, r->len < 2000 ? r->len : 2000, stderr);
	fputc('\n', stderr);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *delims[] = { "^>", "", "AC", "^@" };
	static int ready;
	struct rec_conf rc;
	struct run a, b;
	unsigned shape, kind, mode;

	if (size < 4)
		return 0;
	if (!ready) {
		setup();
		ready = 1;
	}
	/* (taken here: between cases libFuzzer may open descriptors, e.g.
	 * to the symbolizer for its NEW_FUNC lines) */
	const int freefd = lowest_free();
	shape = data[0];
	kind = shape & 7;
	mode = (shape >> 3) & 7;
	unsigned piece = 1 + data[1] % 64, batch = 1 + data[2],
	    spill = 1 + data[3] % 64;
	data += 4;
	size -= 4;
	if (size > REC_MAX)
		size = REC_MAX;

	memset(&rc, 0, sizeof(rc));
	rc.npat = 1;
	rc.names = names;
	rc.hits = mode == 3 ? HITS_TSV : mode == 4 ? HITS_BED : mode == 5 ?
	    HITS_JSON : HITS_NONE;
	rc.kind = kind == 1 ? REC_FASTA : kind == 2 ? REC_FASTQ :
	    kind >= 3 && kind <= 6 ? REC_DELIM : REC_AUTO;
	if (kind >= 3 && kind <= 6)
		rc.delim = delims[kind - 3];
	if (kind == 7 && rc.hits != HITS_NONE)
		rc.kind = REC_LINES;
	o.invert = mode == 1;
	o.count = mode == 2;
	o.max_count = mode == 6 ? 2 : -1;
	o.list = mode == 7;

	run(data, size, &rc, 0, 0, 0, 0, &a);
	run(data, size, &rc, (shape >> 6) & 1, piece, batch, spill, &b);
	const char *e = getenv("FUZZ_SHOW");
	if (e != NULL && *e != '\0' && *e != '0') {
		fprintf(stderr, "=== kind %u mode %u pipe %d piece %u batch %u "
		    "spill %u, %zu bytes\n", kind, mode, (shape >> 6) & 1,
		    piece, batch, spill, size);
		show("default sizes", &a);
		show("tiny sizes", &b);
	}
	if (a.taken != b.taken || a.failed != b.failed ||
	    a.matched != b.matched || a.len != b.len ||
	    memcmp(a.out, b.out, a.len) != 0) {
		fprintf(stderr, "\n=== fuzz_records MISMATCH: kind %u mode %u "
		    "pipe %d piece %u batch %u spill %u\n", kind, mode,
		    (shape >> 6) & 1, piece, batch, spill);
		show("default sizes, a file", &a);
		show("tiny sizes", &b);
		abort();
	}
	if (lowest_free() != freefd) {
		char p[64], l[256];
		snprintf(p, sizeof(p), "/proc/self/fd/%d", freefd);
		ssize_t n = readlink(p, l, sizeof(l) - 1);
		l[n > 0 ? n : 0] = '\0';
		fprintf(stderr, "\n=== fuzz_records: a descriptor leaked (the "
		    "lowest free one was %d, is %d; %d is %s)\n", freefd,
		    lowest_free(), freefd, l);
		abort();
	}
	free(a.out);
	free(b.out);
	return 0;
}
