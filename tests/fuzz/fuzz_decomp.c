/*
 * fuzz_decomp.c: libFuzzer target for src/pipeline/decomp.c (--decompress).
 *
 * The first byte is the shape: bits 0-2 the format (0-6 an enum dz_format
 * forced on whatever follows, so every decoder sees garbage; 7: dz_sniff
 * picks, as the tool does), bit 3 two threads, bit 4 the first bytes
 * handed over as the head (as for standard input), bit 5 a reader that
 * stops after a few bytes, bit 6 the direct reader (dz_fill, no pipe).  The rest is the input, in a memfd.  The
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
