/*
 * fuzz_decomp.c: libFuzzer target for src/pipeline/decomp.c (--decompress).
 *
 * The first byte is the shape: bits 0-2 the format (0-6 an enum dz_format
 * forced on whatever follows, so every decoder sees garbage; 7: dz_sniff
 * picks, as the tool does), bit 3 two threads, bit 4 the first bytes
 * handed over as the head (as for standard input), bit 5 a reader that
 * stops after a few bytes, bit 6 the direct reader (dz_fill, no pipe), bit 7
 * the splitter (dzs_*: BGZF or zstd spans of 64 KB, decoded here, the
 * rest through dzs_rest), when the format is one of those.  The rest is
 * the input, in a memfd.  The
 * output is read to the end (at most 8 MB: a small input may stand for
 * gigabytes) and dz_close must return; it must not crash, hang or leak,
 * and its message, if any, must name a byte offset.
 *
 * Build and run (from the top of the tree):
 *   clang -std=gnu11 -g -O1 -D_GNU_SOURCE \
 *     -fsanitize=fuzzer,address,undefined -o fuzz_decomp \
 *     tests/fuzz/fuzz_decomp.c src/pipeline/decomp.c src/base/util.c \
 *     -lisal -lzstd -llzma -lbz2 -llz4 -lpthread
 *   ./fuzz_decomp -max_total_time=60 -timeout=20 CORPUS_DIR
 * Seeds: any small .gz/.bgz/.zst/.xz/.bz2/.lz4 files, each with a byte
 * 0x07 or 0x0f put in front.
 */
#include <sys/mman.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../src/pipeline/decomp.h"

#define OUTMAX	(8 << 20)

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* Reads the decoder's output until the end or limit bytes. */
static void
drain(struct dz *z, int direct, size_t limit)
{
	static unsigned char buf[1 << 16];
	size_t got = 0;
	ssize_t n;
	int eof = 0;

	while (got < limit && !eof && (n = direct ? dz_fill(z, buf,
	    sizeof buf, &eof, 0) : read(dz_fd(z), buf, sizeof buf)) > 0)
		got += n;
}

/* A memfd holding data[0, size), at offset skip. */
static int
memfd(const uint8_t *data, size_t size, size_t skip)
{
	int fd;

	if ((fd = memfd_create("fuzz_decomp", MFD_CLOEXEC)) < 0)
		abort();
	if (size > 0 && write(fd, data, size) != (ssize_t)size)
		abort();
	if (lseek(fd, skip, SEEK_SET) != (off_t)skip)
		abort();
	return fd;
}

/* The splitter over fd: spans decoded, then the rest's decoder (NULL:
 * none). */
static struct dz *
split(int fd, const uint8_t *head, size_t headlen, enum dz_format f)
{
	struct dzsplit *p = dzs_open(fd, head, headlen, f, 65536, 131072, 2);
	struct dzspan *sp;
	struct dz *z = NULL;
	size_t total = 0;
	int r, bad;

	if (p == NULL)
		abort();
	while (total < OUTMAX && (r = dzs_next(p, &sp)) == 1) {
		unsigned char *out = malloc(dzs_bound(sp) + 1);
		if (out == NULL)
			abort();
		total += dzs_decode(sp, out, &bad);
		free(out);
		if (bad >= 0)
			z = dzs_rest(p, &sp, 1, bad, 1);
		dzs_free(sp);
		if (bad >= 0)
			break;
	}
	if (total < OUTMAX && r == 2 && z == NULL)
		z = dzs_rest(p, NULL, 0, 0, 1);
	dzs_close(p);
	return z;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	enum dz_format f;
	struct dz *z;
	char err[256];
	size_t head;
	int fd, shape;

	if (size < 1)
		return 0;
	shape = data[0];
	data++, size--;
	f = (shape & 7) == 7 ? dz_sniff(data, size) :
	    (enum dz_format)(shape & 7);
	(void)dz_name(f);
	head = shape & 0x10 ? (size < DZ_SNIFFLEN ? size : DZ_SNIFFLEN) : 0;
	fd = memfd(data, size, head);
	if ((shape & 0x80) && (f == DZ_BGZF || f == DZ_ZSTD)) {
		if ((z = split(fd, data, head, f)) != NULL) {
			drain(z, 1, OUTMAX);
			if (dz_close(z, err, sizeof err) < 0 &&
			    strstr(err, " at byte ") == NULL)
				abort();
		}
		close(fd);
		return 0;
	}
	if ((z = dz_open(fd, data, head, f, shape & 8 ? 2 : 1,
	    shape & 0x40)) == NULL)
		abort();
	drain(z, shape & 0x40, shape & 0x20 ? (size_t)(shape >> 6) * 100 :
	    OUTMAX);
	if (dz_close(z, err, sizeof err) < 0 &&
	    strstr(err, " at byte ") == NULL)
		abort();
	close(fd);
	return 0;
}
