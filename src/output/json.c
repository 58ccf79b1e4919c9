/*
 * json.c: --json.  Messages in ripgrep's JSON Lines format (rg --json), one
 * object a line: "begin" before a file's first printed line, "match" for a
 * selected line, "context" for a context line, "end" after a file that had
 * a "begin", and one "summary" at the very end.  Text that is valid UTF-8
 * goes as {"text": "..."}, other bytes as {"bytes": "<base64>"}.
 * agrep-gpu adds "cost" (the least cost) to each "match" and to each
 * submatch, and with --show-edits "edits" (the CIGAR string) to each
 * submatch.
 *
 * Messages are formatted by the worker threads into job-local buffers; the
 * run's totals are summed with atomic adds (sums do not depend on the order)
 * and printed by main after every job is written (out_finish).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "../cli/options.h"
#include "output.h"
#include "../engines/refine.h"
#include "../base/util.h"

#define INF (INT_MAX / 2)	/* refine.c's "no match" */

static const struct options *opt;
static const struct patset *pats;
static struct timespec t_start;

/* The run's totals (atomic adds). */
static struct {
	uintmax_t	 searches, with_match, searched, printed, lines, matches;
	uintmax_t	 elapsed_ns;
} tot;

void
json_init(const struct options *o, const struct patset *ps)
{
	opt = o;
	pats = ps;
	clock_gettime(CLOCK_MONOTONIC, &t_start);
}

void
json_file_start(struct jstate *js)
{
	memset(js, 0, sizeof(*js));
	js->binoff = UINTMAX_MAX;
	clock_gettime(CLOCK_MONOTONIC, &js->t0);
}

static void
put(struct jbuf *b, const void *p, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		b->cap = (b->len + n + 1) * 2 + 256;
		b->p = xrealloc(b->p, b->cap);
	}
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

static void
puts_(struct jbuf *b, const char *s)
{
	put(b, s, strlen(s));
}

static void
putnum(struct jbuf *b, uintmax_t v)
{
	char num[32];

	put(b, num, (size_t)snprintf(num, sizeof(num), "%ju", v));
}

/* Length of the valid UTF-8 sequence at p[0, n), or 0 (as Rust's
 * str::from_utf8: no overlong forms, surrogates or values past U+10FFFF). */
static size_t
utf8_len(const unsigned char *p, size_t n)
{
	unsigned c = p[0];
	size_t len;
	unsigned lo = 0x80, hi = 0xbf;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2;
	else if (c >= 0xe0 && c <= 0xef) {
		len = 3;
		if (c == 0xe0)
			lo = 0xa0;
		if (c == 0xed)
			hi = 0x9f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4;
		if (c == 0xf0)
			lo = 0x90;
		if (c == 0xf4)
			hi = 0x8f;
	} else
		return 0;
	if (n < len || p[1] < lo || p[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if (p[i] < 0x80 || p[i] > 0xbf)
			return 0;
	return len;
}

static int
valid_utf8(const unsigned char *p, size_t n)
{
	for (size_t i = 0, l; i < n; i += l)
		if ((l = utf8_len(p + i, n - i)) == 0)
			return 0;
	return 1;
}

/* A JSON string of valid UTF-8 bytes, escaped as serde_json does. */
static void
putstr(struct jbuf *b, const unsigned char *p, size_t n)
{
	static const char hex[] = "0123456789abcdef";

	put(b, "\"", 1);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = p[i];
		size_t run = i;
		while (run < n && p[run] >= 0x20 && p[run] != '"' &&
		    p[run] != '\\')
			run++;
		if (run > i) {
			put(b, p + i, run - i);
			i = run - 1;
			continue;
		}
		switch (c) {
		case '"': puts_(b, "\\\""); break;
		case '\\': puts_(b, "\\\\"); break;
		case '\b': puts_(b, "\\b"); break;
		case '\f': puts_(b, "\\f"); break;
		case '\n': puts_(b, "\\n"); break;
		case '\r': puts_(b, "\\r"); break;
		case '\t': puts_(b, "\\t"); break;
		default: {
			char u[7] = { '\\', 'u', '0', '0', hex[c >> 4],
			    hex[c & 15], 0 };
			put(b, u, 6);
		}
		}
	}
	put(b, "\"", 1);
}

/* The writers above for other output of JSON (records.c's hit table). */
void
json_bytes(struct jbuf *b, const void *p, size_t n)
{
	put(b, p, n);
}

void
json_num(struct jbuf *b, uintmax_t v)
{
	putnum(b, v);
}

static void	putb64(struct jbuf *, const unsigned char *, size_t);

/* A string, or where p[0, n) is not valid UTF-8 (a FASTA header, a file
 * name, a site's bytes), {"bytes":BASE64}: --json's arbitrary data
 * without its {"text":} (records.c's hit table). */
void
json_str(struct jbuf *b, const unsigned char *p, size_t n)
{
	if (valid_utf8(p, n))
		putstr(b, p, n);
	else {
		puts_(b, "{\"bytes\":");
		putb64(b, p, n);
		put(b, "}", 1);
	}
}

static void
putb64(struct jbuf *b, const unsigned char *p, size_t n)
{
	static const char a[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

	put(b, "\"", 1);
	for (size_t i = 0; i < n; i += 3) {
		unsigned v = (unsigned)p[i] << 16 |
		    (i + 1 < n ? (unsigned)p[i + 1] << 8 : 0) |
		    (i + 2 < n ? p[i + 2] : 0);
		char q[4] = { a[v >> 18], a[(v >> 12) & 63],
		    i + 1 < n ? a[(v >> 6) & 63] : '=',
		    i + 2 < n ? a[v & 63] : '=' };
		put(b, q, 4);
	}
	put(b, "\"", 1);
}

/* An "arbitrary data" object: {"text":...} or {"bytes":...}. */
static void
putdata(struct jbuf *b, const unsigned char *p, size_t n)
{
	if (valid_utf8(p, n)) {
		puts_(b, "{\"text\":");
		putstr(b, p, n);
	} else {
		puts_(b, "{\"bytes\":");
		putb64(b, p, n);
	}
	put(b, "}", 1);
}

static void
putpath(struct jbuf *b, const struct fstate *fs)
{
	puts_(b, "\"path\":");
	putdata(b, (const unsigned char *)fs->name, strlen(fs->name));
}

/* A duration object; sorted: keys in alphabetical order (the summary). */
static void
putdur(struct jbuf *b, uintmax_t ns, int sorted)
{
	char h[64];

	snprintf(h, sizeof(h), "\"%ju.%06jus\"", ns / 1000000000u,
	    ns % 1000000000u / 1000u);
	if (sorted) {
		puts_(b, "{\"human\":");
		puts_(b, h);
		puts_(b, ",\"nanos\":");
		putnum(b, ns % 1000000000u);
		puts_(b, ",\"secs\":");
		putnum(b, ns / 1000000000u);
	} else {
		puts_(b, "{\"secs\":");
		putnum(b, ns / 1000000000u);
		puts_(b, ",\"nanos\":");
		putnum(b, ns % 1000000000u);
		puts_(b, ",\"human\":");
		puts_(b, h);
	}
	put(b, "}", 1);
}

static uintmax_t
since(const struct timespec *t0)
{
	struct timespec t;
	intmax_t ns;

	clock_gettime(CLOCK_MONOTONIC, &t);
	ns = (intmax_t)(t.tv_sec - t0->tv_sec) * 1000000000 +
	    (t.tv_nsec - t0->tv_nsec);
	return ns > 0 ? (uintmax_t)ns : 0;
}

/* Notes where binary data was first seen: the first NUL, at bytes from the
 * part of the chunk at the file's offset fs->off. */
void
json_binary(struct fstate *fs, size_t at)
{
	if (fs->js.binoff == UINTMAX_MAX)
		fs->js.binoff = fs->off + at;
}

/*
 * Formats the message of one printed line[0, len) (terminated: a terminator
 * follows it) at line number lineno and offset off: "match" when selected,
 * else "context"; its submatches when it holds matches (selected lines, or
 * with -v context lines); cost: the line's least cost.  A "begin" goes
 * first for the file's first line; line NULL: only that.
 */
void
json_record(struct jbuf *b, struct fstate *fs, const unsigned char *line,
    size_t len, int terminated, uintmax_t lineno, uintmax_t off,
    int selected, int cost)
{
	size_t start = b->len, from = 0, s, e, n = 0;
	const struct pattern *p;
	int c;

	if (!fs->js.begun) {
		fs->js.begun = 1;
		puts_(b, "{\"type\":\"begin\",\"data\":{");
		putpath(b, fs);
		puts_(b, "}}\n");
	}
	if (line == NULL) {
		/* a binary file's selected line: "begin" only */
		fs->js.printed += b->len - start;
		return;
	}
	puts_(b, selected ? "{\"type\":\"match\",\"data\":{" :
	    "{\"type\":\"context\",\"data\":{");
	putpath(b, fs);
	puts_(b, ",\"lines\":");
	if (terminated) {
		/* the line with its terminator, as rg prints it */
		char *t = xmalloc(len + 1);
		memcpy(t, line, len);
		t[len] = (char)opt->eol;
		putdata(b, (unsigned char *)t, len + 1);
		free(t);
	} else
		putdata(b, line, len);
	puts_(b, ",\"line_number\":");
	putnum(b, lineno);
	puts_(b, ",\"absolute_offset\":");
	putnum(b, off);
	puts_(b, ",\"submatches\":[");
	rf_hold(line, len);
	while (selected != opt->invert && from < len &&
	    (c = rf_find_pat(line, len, from, &s, &e, &p)) <= pats->k) {
		if (e > s) {
			puts_(b, n++ ? ",{\"match\":" : "{\"match\":");
			putdata(b, line + s, e - s);
			puts_(b, ",\"start\":");
			putnum(b, s);
			puts_(b, ",\"end\":");
			putnum(b, e);
			puts_(b, ",\"cost\":");
			putnum(b, (uintmax_t)c);
			if (opt->show_edits) {
				char *cg = rf_cigar(p, line + s, e - s);
				puts_(b, ",\"edits\":\"");
				puts_(b, cg);
				put(b, "\"", 1);
				free(cg);
			}
			put(b, "}", 1);
		}
		from = e > s ? e : s + 1;
	}
	rf_release();
	put(b, "]", 1);
	if (selected) {
		puts_(b, ",\"cost\":");
		if (cost >= 0 && cost < INF)
			putnum(b, (uintmax_t)cost);
		else
			puts_(b, "null");
		fs->js.lines++;
		fs->js.matches += n;
	}
	puts_(b, "}}\n");
	fs->js.printed += b->len - start;
}

/* Formats the file's "end" message (when it had a "begin") and adds its
 * numbers to the run's. */
void
json_end(struct jbuf *b, struct fstate *fs)
{
	const struct jstate *js = &fs->js;
	uintmax_t ns = since(&js->t0);

	__atomic_add_fetch(&tot.searches, 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&tot.with_match, fs->nsel > 0, __ATOMIC_RELAXED);
	__atomic_add_fetch(&tot.searched, fs->off, __ATOMIC_RELAXED);
	__atomic_add_fetch(&tot.printed, js->printed, __ATOMIC_RELAXED);
	__atomic_add_fetch(&tot.lines, js->lines, __ATOMIC_RELAXED);
	__atomic_add_fetch(&tot.matches, js->matches, __ATOMIC_RELAXED);
	__atomic_add_fetch(&tot.elapsed_ns, ns, __ATOMIC_RELAXED);
	if (!js->begun)
		return;
	puts_(b, "{\"type\":\"end\",\"data\":{");
	putpath(b, fs);
	puts_(b, ",\"binary_offset\":");
	if (js->binoff != UINTMAX_MAX)
		putnum(b, js->binoff);
	else
		puts_(b, "null");
	puts_(b, ",\"stats\":{\"elapsed\":");
	putdur(b, ns, 0);
	puts_(b, ",\"searches\":1,\"searches_with_match\":");
	putnum(b, fs->nsel > 0);
	puts_(b, ",\"bytes_searched\":");
	putnum(b, fs->off);
	puts_(b, ",\"bytes_printed\":");
	putnum(b, js->printed);
	puts_(b, ",\"matched_lines\":");
	putnum(b, js->lines);
	puts_(b, ",\"matches\":");
	putnum(b, js->matches);
	puts_(b, "}}}\n");
}

/* Formats the "summary" message: the run's totals (keys sorted, as rg
 * prints them). */
void
json_summary(struct jbuf *b)
{
	puts_(b, "{\"data\":{\"elapsed_total\":");
	putdur(b, since(&t_start), 1);
	puts_(b, ",\"stats\":{\"bytes_printed\":");
	putnum(b, tot.printed);
	puts_(b, ",\"bytes_searched\":");
	putnum(b, tot.searched);
	puts_(b, ",\"elapsed\":");
	putdur(b, tot.elapsed_ns, 1);
	puts_(b, ",\"matched_lines\":");
	putnum(b, tot.lines);
	puts_(b, ",\"matches\":");
	putnum(b, tot.matches);
	puts_(b, ",\"searches\":");
	putnum(b, tot.searches);
	puts_(b, ",\"searches_with_match\":");
	putnum(b, tot.with_match);
	puts_(b, "}},\"type\":\"summary\"}\n");
}
