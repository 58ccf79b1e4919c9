/*
 * output.c: walk a chunk's hit bitmap, select records and print them the way
 * GNU grep does (name, line number and byte offset prefixes, -c, -l, -L, -q,
 * -m, binary files).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"
#include "util.h"

static const struct options *opt;
static char outbuf[1 << 16];

void
out_init(const struct options *o)
{
	opt = o;
	setvbuf(stdout, outbuf, o->line_buffered ? _IOLBF : _IOFBF,
	    sizeof(outbuf));
}

/* Returns the first bit set at or after pos and before len, or len. */
static size_t
next_hit(const uint64_t *bm, size_t pos, size_t len)
{
	size_t w = pos / 64;
	uint64_t word;

	if (bm == NULL || pos >= len)
		return len;
	word = bm[w] & (~(uint64_t)0 << (pos % 64));
	for (;;) {
		if (word != 0) {
			size_t j = w * 64 + (size_t)__builtin_ctzll(word);
			return j < len ? j : len;
		}
		if (++w * 64 >= len)
			return len;
		word = bm[w];
	}
}

/* Counts terminators in text[from, to). */
static uintmax_t
count_eol(const unsigned char *text, size_t from, size_t to)
{
	uintmax_t n = 0;
	const unsigned char *p = text + from, *end = text + to;

	while (p < end && (p = memchr(p, opt->eol, (size_t)(end - p))) != NULL) {
		n++;
		p++;
	}
	return n;
}

static void
print_name(const struct fstate *fs, int sep)
{
	fputs(fs->name, stdout);
	putchar(opt->null_name ? '\0' : sep);
}

/* Handles one selected record text[ls, le) (le excludes the terminator). */
static void
select_line(struct fstate *fs, const unsigned char *text, size_t ls,
    size_t le)
{
	fs->nsel++;
	if (opt->quiet) {
		out_flush();
		exit(0);
	}
	if (opt->list || opt->list_none) {
		fs->done = 1;
		return;
	}
	if (!opt->count) {
		if (fs->binary && !opt->text) {
			printf("Binary file %s matches\n", fs->name);
			fs->done = 1;
			return;
		}
		if (fs->show_name)
			print_name(fs, ':');
		if (opt->lineno) {
			fs->lines += count_eol(text, fs->counted, ls);
			fs->counted = ls;
			printf("%ju:", fs->lines + 1);
		}
		if (opt->byteoff)
			printf("%ju:", fs->off + ls);
		fwrite(text + ls, 1, le - ls, stdout);
		putchar(opt->eol);
	}
	if (opt->max_count >= 0 && fs->nsel >= (uintmax_t)opt->max_count)
		fs->done = 1;
}

/* Returns the start of the record holding text[j]; records start after
 * 'from' at the earliest. */
static size_t
line_start(const unsigned char *text, size_t from, size_t j)
{
	const unsigned char *p = j > from ?
	    memrchr(text + from, opt->eol, j - from) : NULL;

	return p ? (size_t)(p - text) + 1 : from;
}

/* Returns the end (terminator offset, or len) of the record holding j. */
static size_t
line_end(const unsigned char *text, size_t j, size_t len)
{
	const unsigned char *p = memchr(text + j, opt->eol, len - j);

	return p ? (size_t)(p - text) : len;
}

/* Selects every record of text[from, to) (they hold no hit) for -v. */
static void
select_range(struct fstate *fs, const unsigned char *text, size_t from,
    size_t to)
{
	while (from < to && !fs->done) {
		size_t le = line_end(text, from, to);
		select_line(fs, text, from, le);
		from = le + 1;
	}
}

/*
 * Prints the records of text[0, len): whole records, the last one without a
 * terminator only at the end of the input.  bitmap bit j says a match ends at
 * byte j; all says every record matches (some pattern is within k of the
 * empty string).
 */
void
out_chunk(struct fstate *fs, const unsigned char *text, size_t len,
    const uint64_t *bitmap, int all)
{
	size_t pos = 0;

	if (!fs->binary && !opt->text && opt->eol == '\n' &&
	    memchr(text, '\0', len) != NULL)
		fs->binary = 1;
	fs->counted = 0;
	while (pos < len && !fs->done) {
		size_t j = all ? pos : next_hit(bitmap, pos, len);
		size_t ls = j < len ? line_start(text, pos, j) : len;
		size_t le;

		if (opt->invert)
			select_range(fs, text, pos, ls);
		if (j >= len || fs->done)
			break;
		le = line_end(text, j, len);
		if (!opt->invert)
			select_line(fs, text, ls, le);
		pos = le + 1;
	}
	if (opt->lineno && !fs->done)
		fs->lines += count_eol(text, fs->counted, len);
	fs->off += len;
}

/* Prints what is printed once a file is done: -c, -l, -L. */
void
out_file_end(struct fstate *fs)
{
	if (opt->quiet)
		return;
	if (opt->count && !opt->list && !opt->list_none) {
		if (fs->show_name)
			print_name(fs, ':');
		printf("%ju\n", fs->nsel);
	}
	if ((opt->list && fs->nsel > 0) || (opt->list_none && fs->nsel == 0)) {
		fputs(fs->name, stdout);
		putchar(opt->null_name ? '\0' : '\n');
	}
	if (opt->line_buffered)
		fflush(stdout);
}

/* Flushes stdout; returns 0, or -1 after a "write error" message. */
int
out_flush(void)
{
	if (fflush(stdout) == EOF || ferror(stdout)) {
		warnx_("write error: %s", "standard output");
		return -1;
	}
	return 0;
}
