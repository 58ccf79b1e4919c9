/*
 * output.c: walk a chunk's hit bitmap, select records and print them the way
 * GNU grep does: name, line number and byte offset prefixes, context with
 * "--" between groups, -c, -l, -L, -q, -m, -o, --color, binary files; and
 * the options that need a record's cost or matched part (-w, -x,
 * --show-cost, --best-match), asked of refine.c for selected records only.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../engines/edits.h"
#include "output.h"
#include "../pipeline/pool.h"
#include "../device/scan.h"
#include "../engines/refine.h"
#include "../base/utf8.h"
#include "../base/util.h"

static const struct options *opt;
static const struct patset *pats;
static int enc_strict;		/* encoding errors make records binary */
static int refine;		/* records need refine.c to be selected */
static int quitting;		/* -q saw a selected record: stop (atomic) */

/* SGR sequences for --color, from GREP_COLORS or GNU grep's defaults. */
static struct {
	char ms[32], fn[32], ln[32], bn[32], se[32], mc[32];
} sgr = { "01;31", "35", "32", "32", "36", "01;31" };

/* --best-match: the records of the least cost so far, printed at the end. */
static struct {
	int	 cost;
	char	*buf;
	size_t	 len, cap;
	int	 printed;	/* a record was kept (for "--") */
} best = { -1, NULL, 0, 0, 0 };

/* Takes ms/mc/mt/fn/ln/bn/se from GREP_COLORS ("ms=01;31:fn=35"), after
 * the deprecated GREP_COLOR (the match colour), which gets grep 3.8's
 * warning when GREP_COLORS leaves it some effect. */
static void
parse_colors(void)
{
	const char *v = getenv("GREP_COLORS"), *old = getenv("GREP_COLOR");
	int legacy = old != NULL && *old != '\0' &&
	    strspn(old, "0123456789;") == strlen(old) &&
	    strlen(old) < sizeof(sgr.ms), ms_set = 0, mc_set = 0;

	if (legacy) {
		strcpy(sgr.ms, old);
		strcpy(sgr.mc, old);
	}
	while (v != NULL && *v != '\0') {
		size_t n = strcspn(v, ":");
		char *dst = NULL;
		if (strncmp(v, "mt=", 3) == 0 && n > 3 && n - 3 < sizeof(sgr.mc)) {
			memcpy(sgr.mc, v + 3, n - 3);
			sgr.mc[n - 3] = '\0';
			mc_set = 1;
		}
		if (strncmp(v, "ms=", 3) == 0 || strncmp(v, "mt=", 3) == 0) {
			dst = sgr.ms;
			ms_set = 1;
		} else if (strncmp(v, "mc=", 3) == 0) {
			dst = sgr.mc;
			mc_set = 1;
		} else if (strncmp(v, "fn=", 3) == 0)
			dst = sgr.fn;
		else if (strncmp(v, "ln=", 3) == 0)
			dst = sgr.ln;
		else if (strncmp(v, "bn=", 3) == 0)
			dst = sgr.bn;
		else if (strncmp(v, "se=", 3) == 0)
			dst = sgr.se;
		if (dst != NULL && n > 3 && n - 3 < sizeof(sgr.ms)) {
			memcpy(dst, v + 3, n - 3);
			dst[n - 3] = '\0';
		}
		v += n + (v[n] == ':');
	}
	if (legacy && !(ms_set && mc_set))
		warnx_("warning: GREP_COLOR='%s' is deprecated; use "
		    "GREP_COLORS='mt=%s'", old, old);
}

/* The group separator line (--group-separator, "--" by default),
 * coloured: group_sep prints it, and the pipeline's writer between jobs. */
static struct {
	char	*s;
	size_t	 len;		/* 0: --no-group-separator */
} sepline;

/* Makes sepline and gives the writer a copy. */
static void
set_separator(void)
{
	const char *g = opt->group_sep ? opt->group_sep : "";
	size_t cap = strlen(g) + 64;
	int n;

	sepline.s = xmalloc(cap);
	n = opt->color && sgr.se[0] ?
	    snprintf(sepline.s, cap, "\33[%sm\33[K%s\33[m\33[K\n", sgr.se, g) :
	    snprintf(sepline.s, cap, "%s\n", g);
	sepline.len = opt->group_sep ? (size_t)n : 0;
	pool_set_sep(sepline.s, sepline.len);
}

void
out_init(const struct options *o, const struct patset *ps)
{
	opt = o;
	pats = ps;
	refine = o->word || o->line || o->show_cost || o->best;
	enc_strict = ps->utf8 && !o->text;
	if (refine || o->only || o->color || o->show_edits)
		rf_init(ps, o->line ? RF_LINE : o->word ? RF_WORD : RF_ANY,
		    o->eol);
	if (o->color)
		parse_colors();
	if (o->color && o->show_edits)
		ed_color();
	if (o->json)
		json_init(o, ps);
	set_separator();
}

/* Output goes through here so that --best-match can hold it back. */
static void
emit(const void *p, size_t n)
{
	if (!opt->best) {
		pool_emit(p, n);
		return;
	}
	if (best.len + n > best.cap) {
		best.cap = (best.len + n) * 2;
		best.buf = xrealloc(best.buf, best.cap);
	}
	memcpy(best.buf + best.len, p, n);
	best.len += n;
}

static void
emits(const char *s)
{
	emit(s, strlen(s));
}

/* Emits s wrapped in the SGR sequence code when colors are on. */
static void
emit_colored(const char *code, const void *s, size_t n)
{
	if (opt->color && *code != '\0') {
		emits("\33[");
		emits(code);
		emits("m\33[K");
		emit(s, n);
		emits("\33[m\33[K");
	} else
		emit(s, n);
}

static void
emit_sep(char sep)
{
	emit_colored(sgr.se, &sep, 1);
}

/* A number, right-aligned in width (-T) as printf's "%*ju" would write it
 * (snprintf was 6% of an -n run printing 128,000 lines). */
static void
emit_num(const char *code, uintmax_t v, char sep, int width)
{
	char num[64];
	char *p = num + sizeof(num);

	do
		*--p = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	if (width > (int)sizeof(num) - 1)
		width = (int)sizeof(num) - 1;
	while (num + sizeof(num) - p < width)
		*--p = ' ';
	emit_colored(code, p, (size_t)(num + sizeof(num) - p));
	emit_sep(sep);
}

/* --show-edits: the CIGAR field of t[0, m) aligned with p ("*" when there
 * is no alignment). */
static void
emit_edits(const struct pattern *p, const unsigned char *t, size_t m,
    char sep)
{
	char *s = p ? rf_cigar(p, t, m) : NULL;

	emits(s ? s : "*");
	free(s);
	emit_sep(sep);
}

/* Emits a matched part t[0, m) of pattern p in the match colour; with
 * --show-edits and --color its substituted and inserted bytes in the edit
 * colour (ed_color()). */
static void
emit_match(const char *code, const unsigned char *t, size_t m,
    const struct pattern *p)
{
	size_t nops, i = 0, j = 0, *off;
	char *ops;

	if (!opt->show_edits || !opt->color || p == NULL) {
		emit_colored(code, t, m);
		return;
	}
	/* j counts characters; off (UTF-8 mode) gives their bytes */
	ops = rf_ops(p, t, m, &nops, &off);
	while (i < nops) {
		size_t from = j;
		int edited = ops[i] == 'X' || ops[i] == 'I';
		for (; i < nops && (ops[i] == 'D' ||
		    (ops[i] != '=') == edited); i++)
			j += ops[i] != 'D';
		if (j > from)
			emit_colored(edited ? ed_color() : code,
			    t + (off ? off[from] : from),
			    off ? off[j] - off[from] : j - from);
	}
	free(ops);
	free(off);
}

/* --json: one line's message (and the file's "begin" before its first). */
static void
emit_json(struct fstate *fs, const unsigned char *line, size_t len,
    int terminated, uintmax_t lineno, uintmax_t off, char sep, int cost)
{
	struct jbuf b = { NULL, 0, 0 };

	json_record(&b, fs, line, len, terminated, lineno, off, sep == ':',
	    cost);
	emit(b.p, b.len);
	free(b.p);
}

/* Prints the name, line number, byte offset and cost prefixes of a record
 * (sep ':' for selected records, '-' for context) of len bytes; with -T, a
 * tab after them when the record is not empty, as grep does. */
static void
prefix(const struct fstate *fs, char sep, uintmax_t lineno, uintmax_t off,
    int cost, size_t len)
{
	if (fs->show_name) {
		emit_colored(sgr.fn, fs->name, strlen(fs->name));
		if (opt->null_name)
			emit("", 1);
		else
			emit_sep(sep);
	}
	if (opt->lineno)
		emit_num(sgr.ln, lineno, sep, fs->width);
	if (opt->byteoff)
		emit_num(sgr.bn, off, sep, fs->width);
	if (opt->show_cost && sep == ':')
		emit_num("", (uintmax_t)cost, sep, 0);
	if (opt->initial_tab && len > 0 && (fs->show_name || opt->lineno ||
	    opt->byteoff))
		emit("\t", 1);
}

/* The sum of the 8 bytes of x. */
static unsigned
byte_sum(uint64_t x)
{
	x = (x & 0x00ff00ff00ff00ffull) + ((x >> 8) & 0x00ff00ff00ff00ffull);
	return (unsigned)((x * 0x0001000100010001ull) >> 48);
}

/* Counts terminators in text[from, to): 16 bytes at a time, compared in a
 * vector register and added up per byte lane for up to 255 steps (-n
 * counts every terminator twice over: once for a range's line numbers,
 * once while printing; a memchr per line was 17% of such a run). */
uintmax_t
out_count_eol(const unsigned char *text, size_t from, size_t to)
{
	typedef unsigned char v16 __attribute__((vector_size(16)));
	const unsigned char *p = text + from, *end = text + to;
	const v16 eol = (v16){ 0 } + opt->eol;
	uintmax_t n = 0;

	while (end - p >= 16) {
		size_t steps = (size_t)(end - p) / 16;
		v16 acc = { 0 };
		if (steps > 255)
			steps = 255;
		for (size_t i = 0; i < steps; i++, p += 16) {
			v16 v;
			memcpy(&v, p, 16);
			acc -= (v16)(v == eol);
		}
		uint64_t lo, hi;
		memcpy(&lo, &acc, 8);
		memcpy(&hi, (const unsigned char *)&acc + 8, 8);
		n += byte_sum(lo) + byte_sum(hi);
	}
	for (; p < end; p++)
		n += *p == opt->eol;
	return n;
}

/* Returns the start of the record holding text[j] (records start at
 * 'from' at the earliest). */
static size_t
line_start(const unsigned char *text, size_t from, size_t j)
{
	return record_start(text, from, j, opt->eol);
}

/* Returns the end (terminator offset, or len) of the record holding j. */
static size_t
line_end(const unsigned char *text, size_t j, size_t len)
{
	return record_end(text, j, len, opt->eol);
}

/* Where a chunk being printed sits in its input. */
struct chunk {
	const unsigned char *text;
	size_t		 hist;		/* text[0, hist): records seen before */
	size_t		 len;
	const uint64_t	*bm;
};

/* Line number of the record starting at chunk offset ls >= hist. */
static uintmax_t
lineno_at(struct fstate *fs, const struct chunk *c, size_t ls)
{
	if (ls >= fs->counted) {
		fs->lines += out_count_eol(c->text, fs->counted, ls);
		fs->counted = ls;
		return fs->lines + 1;
	}
	return fs->lines + 1 - out_count_eol(c->text, ls, fs->counted);
}

static uintmax_t
abs_off(const struct fstate *fs, const struct chunk *c, size_t at)
{
	return fs->off - c->hist + at;
}

/* Prints "--" before a group of records that does not follow the last
 * printed one, when context is asked for. */
static void
group_sep(struct fstate *fs, uintmax_t at)
{
	if (!opt->context || opt->group_sep == NULL || at == fs->last_end)
		return;
	/* The first group of a job: only the writer knows whether a record
	 * went out before it. */
	if (opt->best && !best.printed)
		return;
	if (!opt->best && !pool_job_printed())
		pool_lead_sep();
	else
		emit(sepline.s, sepline.len);
}

/* Prints one record text[ls, le) with its prefix: a context record (sep
 * '-'), a selected record, or its matched parts only (-o: those of the
 * records that hold matches, selected ones or with -v context ones).
 * block: it begins a group (the "--" before it is decided).  Returns 0
 * when it was left out (an encoding error), else 1. */
static int
print_record(struct fstate *fs, const struct chunk *c, size_t ls, size_t le,
    char sep, int cost, int block)
{
	const unsigned char *line = c->text + ls;
	size_t len = le - ls, from = 0, s, e;
	uintmax_t lineno = opt->lineno ? lineno_at(fs, c, ls) : 0;
	const struct pattern *bp = NULL;
	const char *mcode = sep == ':' ? sgr.ms : sgr.mc;
	/* --best-match without -k (k unbounded): the parts of the record's
	 * own cost, not every stretch of any cost. */
	const int lim = opt->best && !opt->k_given && cost < pats->k ?
	    cost : pats->k;

	if (opt->json) {
		emit_json(fs, line, len, le < c->len, lineno,
		    abs_off(fs, c, ls), sep, cost);
		fs->last_end = abs_off(fs, c, le) + 1;
		return 1;
	}
	if (block)
		group_sep(fs, abs_off(fs, c, ls));
	/* A record with a UTF-8 encoding error is binary in a UTF-8 locale,
	 * as grep 3.8 has it: left out (with -o, the matched parts that
	 * hold one), the file said to match at its end.  As grep, the "--"
	 * before a group is decided at its first record, printed or not,
	 * and a record left out is not printed output (the next group is
	 * apart from the last one printed). */
	if (enc_strict && !opt->only && !u8_valid(line, len)) {
		fs->enc = 1;
		pool_mark_printed();	/* (grep's "used") */
		return 0;
	}
	fs->last_end = abs_off(fs, c, le) + 1;
	pool_mark_printed();
	if (opt->best)
		best.printed = 1;
	if (opt->only && (sep == ':') == opt->invert)
		return 1;	/* no match in it to print */
	if (opt->only) {
		rf_hold(line, len);
		while (from < len && rf_find_pat(line, len, from, &s, &e,
		    &bp) <= lim) {
			if (e > s && enc_strict && !u8_valid(line + s,
			    e - s))
				fs->enc = 1;
			else if (e > s) {
				prefix(fs, sep, lineno, abs_off(fs, c, ls + s),
				    cost, e - s);
				if (opt->show_edits)
					emit_edits(bp, line + s, e - s, sep);
				emit_match(mcode, line + s, e - s, bp);
				emit(&opt->eol, 1);
			}
			from = e > s ? e : s + 1;
		}
		rf_release();
		return 1;
	}
	prefix(fs, sep, lineno, abs_off(fs, c, ls), cost, len);
	if (opt->show_edits && sep == ':') {
		rf_best(line, len, &s, &e, &bp);
		emit_edits(bp, line + s, e - s, sep);
	}
	/* Matches are highlighted in the records that hold them: selected
	 * ones, or with -v the context ones. */
	if (opt->color && (sep == ':') != opt->invert) {
		rf_hold(line, len);
		while (from < len && rf_find_pat(line, len, from, &s, &e,
		    &bp) <= lim) {
			emit(line + from, s - from);
			if (e > s)
				emit_match(mcode, line + s, e - s, bp);
			from = e > s ? e : s + 1;
			if (e == s && s < len)
				emit(line + s, 1);
		}
		rf_release();
	}
	if (from < len)
		emit(line + from, len - from);
	emit(&opt->eol, 1);
	return 1;
}

/* Prints up to opt->before records before ls that were not printed yet;
 * returns how many there were (the first begins the group). */
static size_t
before_context(struct fstate *fs, const struct chunk *c, size_t ls)
{
	size_t n = 0;

	size_t first = ls;

	for (long long i = 0; i < opt->before && first > 0; i++) {
		size_t p = line_start(c->text, 0, first - 1);
		if (abs_off(fs, c, p) < fs->last_end &&
		    fs->last_end != UINTMAX_MAX)
			break;
		first = p;
	}
	while (first < ls) {
		size_t le = line_end(c->text, first, ls);
		print_record(fs, c, first, le, '-', 0, n++ == 0);
		first = le + 1;
	}
	return n;
}

/* --best-match: is cost above the best so far? */
static int
best_beaten(int cost)
{
	return best.cost >= 0 && cost > best.cost;
}

/* --best-match: keeps the record's output if its cost ties the best so
 * far, drops what was kept if it beats it; returns 0 to skip the record. */
static int
best_keep(struct fstate *fs, int cost)
{
	if (best_beaten(cost))
		return 0;
	if (cost < best.cost || best.cost < 0) {
		best.cost = cost;
		best.len = 0;
		/* Nothing is kept now: no "--" before the next record, and
		 * the records dropped may be its leading context. */
		best.printed = 0;
		fs->last_end = UINTMAX_MAX;
	}
	return 1;
}

/* Counts a selected record of cost 'cost' that ends before input offset
 * end, and handles -q, -l, -L, -c, --best-match and binary files; returns
 * 1 when the record is to be printed. */
static int
selected(struct fstate *fs, int cost, uintmax_t end)
{
	if (opt->best && !best_keep(fs, cost))
		return 0;
	fs->nsel++;
	fs->sel_end = end;
	if (opt->max_count >= 0 && fs->nsel >= (uintmax_t)opt->max_count)
		fs->last = 1;	/* done once its after-context is out */
	if (opt->quiet) {
		/* -q: the first selected record settles the exit status. */
		fs->done = 1;
		__atomic_store_n(&quitting, 1, __ATOMIC_RELAXED);
		pool_set_quit();
		return 0;
	}
	if (opt->list || opt->list_none) {
		fs->done = 1;
		return 0;
	}
	if (opt->count) {
		/* (-c -m: the rest of the input is not read) */
		if (fs->last)
			fs->done = 1;
		return 0;
	}
	if (opt->json && fs->binary && !opt->text) {
		/* --json: "begin", and binary_offset in "end" */
		emit_json(fs, NULL, 0, 0, 0, 0, ':', 0);
		fs->done = 1;
		return 0;
	}
	if (fs->binary && !opt->text) {
		/* As grep 3.5+: on stderr, in its place among the output;
		 * and as grep, it counts as output for the "--" before the
		 * next group of another file. */
		warnx_("%s: binary file matches", fs->name);
		pool_mark_printed();
		fs->done = 1;
		return 0;
	}
	return 1;
}

/* Handles a selected record text[ls, le) of cost 'cost'. */
static void
select_record(struct fstate *fs, const struct chunk *c, size_t ls,
    size_t le, int cost)
{
	const uintmax_t prev_end = fs->nsel ? fs->sel_end : UINTMAX_MAX;

	if (!selected(fs, cost, abs_off(fs, c, le) + (le < c->len)))
		return;
	const size_t nb = opt->before > 0 ? before_context(fs, c, ls) : 0;
	/* -v: grep prints a run of adjacent selected records as one group,
	 * its "--" decided at the first of them, even when that one was left
	 * out (an encoding error): no "--" inside the run. */
	const int block = nb == 0 &&
	    !(opt->invert && prev_end == abs_off(fs, c, ls));
	/* (after a record left out, as grep: no after-context; grep reads
	 * that record again for each context line due, and leaves it out) */
	fs->after = print_record(fs, c, ls, le, ':', cost, block) ?
	    opt->after : 0;
	if (fs->last && fs->after == 0)
		fs->done = 1;
}

/*
 * A record longer than a chunk (src/search.c reads it piece by piece and
 * keeps it in the temporary file tmp): len bytes, ended by a terminator when
 * terminated; hit: a match ends in it; binary: it holds a NUL byte.
 * Prints it whole if it is selected.
 */
void
out_long_record(struct fstate *fs, FILE *tmp, uintmax_t len, int terminated,
    int hit, int binary)
{
	char buf[1 << 16];
	size_t n;

	if (binary && out_nul_binary())
		fs->binary = 1;
	/* (decided before selected(), which sets fs->last on -m's last
	 * record: that one is still printed as selected) */
	const int sel = hit != opt->invert && !fs->last;

	if (sel ? selected(fs, 0, fs->off + len + terminated) :
	    fs->after-- > 0 && !fs->binary) {
		char sep = sel ? ':' : '-';
		group_sep(fs, fs->off);
		prefix(fs, sep, fs->lines + 1, fs->off, 0, (size_t)len);
		rewind(tmp);
		while ((n = fread(buf, 1, sizeof(buf), tmp)) > 0)
			emit(buf, n);
		emit(&opt->eol, 1);
		fs->last_end = fs->off + len + 1;
		pool_mark_printed();
		if (sep == ':')
			fs->after = opt->after;
	}
	if (fs->last && fs->after <= 0)
		fs->done = 1;
	fs->lines += terminated;
	fs->off += len + terminated;
}

/* Decides one record: candidate says a match ends in it (by the bitmap).
 * Selected records are handled; others may be after-context. */
static void
record(struct fstate *fs, const struct chunk *c, size_t ls, size_t le,
    int candidate)
{
	int cost = 0;

	/* A cost above k is printed only for the records -v selects. */
	if (refine && (candidate || (opt->show_cost && opt->invert))) {
		cost = rf_cost(c->text + ls, le - ls,
		    opt->invert && (opt->show_cost || opt->best));
		candidate = cost <= pats->k;
	}
	/* (--best-match: a record costlier than the best so far is not
	 * selected, but may be context) */
	if (candidate != opt->invert && !fs->last &&
	    !(opt->best && best_beaten(cost))) {
		select_record(fs, c, ls, le, cost);
	} else if (fs->after > 0) {
		/* After -m's last record, even selected ones are context;
		 * none is printed once the input turned binary. */
		if (!fs->binary && !print_record(fs, c, ls, le, '-', 0, 0))
			fs->after = 1;	/* (the last: as above) */
		if (--fs->after == 0 && fs->last)
			fs->done = 1;
	}
}

/* grep 3.8 reads a file in blocks of this size (when its lines are
 * shorter than a page), and a NUL byte makes its buffer binary: the block
 * and the record that runs into it from the block before. */
#define GREP_BUFSIZE	98304

/* Returns where the records that grep would see as binary begin, for a
 * NUL byte at chunk offset z: the record holding the first byte of z's
 * block, or the chunk's first new record if that is earlier (records of
 * earlier chunks were printed already). */
static size_t
binary_start(const struct fstate *fs, const struct chunk *c, size_t z)
{
	uintmax_t at = abs_off(fs, c, z), b = at - at % GREP_BUFSIZE;

	if (b <= abs_off(fs, c, c->hist))
		return c->hist;
	return line_start(c->text, c->hist, (size_t)(b - abs_off(fs, c, 0)));
}

/*
 * Prints the records of text[hist, len): whole records, the last one
 * without a terminator only at the end of the input.  text[0, hist) holds
 * records already handled (kept for before-context).  bitmap bit j says a
 * match ends at byte j; NULL: none does, unless every record matches.
 *
 * Binary files: from grep's binary point on (binary_start), the first
 * selected record gives "binary file matches" instead of being printed,
 * and nothing else is printed; with -I the input ends there, as if nothing
 * were selected in it.  fs->binary set on entry: a NUL came before.  The
 * NULs were made terminators before the scan (fs->nul_at says where the
 * first was), so that records end there as grep's do.
 */
void
out_chunk(struct fstate *fs, const unsigned char *text, size_t hist,
    size_t len, const uint64_t *bitmap)
{
	struct chunk c = { text, hist, len, bitmap };
	const int all = pats->all_lines;
	size_t pos = hist, bin_at = fs->binary ? hist : len, lim = len;
	const unsigned char *z;
	const int nonul = fs->nonul;
	const size_t zat = fs->nul_at;

	fs->nonul = 0;
	fs->nul_at = 0;
	/* (a NUL made a terminator before the scan is where the caller
	 * says: the scan saw a line end there, as grep does) */
	if (fs->binary || !out_nul_binary())
		z = NULL;
	else if (zat > hist && zat <= len)
		z = text + zat - 1;
	else
		z = nonul ? NULL : memchr(text + hist, '\0', len - hist);
	if (z != NULL) {
		bin_at = binary_start(fs, &c, (size_t)(z - text));
		if (opt->json && fs->js.binoff == UINTMAX_MAX)
			json_binary(fs, (size_t)(z - text) - hist);
	}
	if (opt->binary_nomatch && bin_at < len)
		lim = bin_at;
	fs->counted = hist;
	while (pos < lim && !fs->done) {
		size_t j, ls, le;

		if (fs->after > 0 || opt->invert) {
			/* Record by record: each one may be printed. */
			le = line_end(text, pos, lim);
			fs->binary |= pos >= bin_at;
			/* (with its terminator: an expression's empty match
			 * in an empty record is a hit there, regex.c) */
			size_t e1 = le < lim ? le + 1 : le;
			record(fs, &c, pos, le, all ||
			    bits_next(bitmap, pos, e1) < e1);
			pos = le + 1;
			continue;
		}
		j = all ? pos : bits_next(bitmap, pos, lim);
		if (j >= lim)
			break;
		ls = line_start(text, pos, j);
		le = line_end(text, j, lim);
		fs->binary |= ls >= bin_at;
		record(fs, &c, ls, le, 1);
		pos = le + 1;
	}
	if (bin_at < len && !fs->done) {
		fs->binary = 1;
		if (opt->binary_nomatch) {
			fs->nsel = 0;
			fs->done = 1;
		}
	}
	if (opt->lineno)
		fs->lines += out_count_eol(text, fs->counted, len);
	fs->off += len - hist;
}

/* Whether a NUL makes an input binary, and ends lines there as grep's
 * zap_nuls does (scan.c SCAN_ZAP): not with -a nor -z. */
int
out_nul_binary(void)
{
	return !opt->text && opt->eol == '\n';
}

/*
 * Whether out_counted can stand for out_chunk: the output needs only how
 * many records are selected (-c, -l, -L, -q), every hit is a match (no
 * refining), and nothing else reads the records (binary files matter to
 * -I and --json alone; -m and context come through whole chunks).
 */
int
out_counts_ok(void)
{
	return (opt->count || opt->list || opt->list_none || opt->quiet) &&
	    !refine && !opt->best && !opt->json && !opt->binary_nomatch &&
	    opt->max_count < 0 && !pats->all_lines;
}

/*
 * out_chunk for the records of text[hist, len) when only their number is
 * wanted (out_counts_ok): hits of them hold a match (counted on the device,
 * scan.c: scan_counts), eols is their terminators.
 */
void
out_counted(struct fstate *fs, const unsigned char *text, size_t hist,
    size_t len, uint64_t hits, uint64_t eols)
{
	const uint64_t recs = eols + (len > hist && text[len - 1] != opt->eol);
	const uint64_t n = opt->invert ? recs - hits : hits;

	/* The first settles -q, -l and -L (done); -c adds the rest (no -m:
	 * out_counts_ok), not one call a record (-c -v: 200,000 a range). */
	if (n > 0 && !fs->done && !fs->last) {
		(void)selected(fs, 0, 0);
		if (!fs->done && !fs->last)
			fs->nsel += n - 1;
	}
	if (opt->lineno)
		fs->lines += eols;
	fs->counted = len;
	fs->off += len - hist;
}

void
out_file_start(struct fstate *fs, const char *name, int show_name)
{
	memset(fs, 0, sizeof(*fs));
	fs->name = name;
	fs->show_name = show_name;
	fs->last_end = UINTMAX_MAX;
	fs->done = opt->max_count == 0;
	if (opt->json)
		json_file_start(&fs->js);
}

/* Sets the width of line numbers and byte offsets for -T from the size of
 * the input (size < 0: not a regular file), as grep does. */
void
out_file_size(struct fstate *fs, long long size)
{
	uintmax_t num = size < 0 ? INTMAX_MAX : (uintmax_t)size +
	    (opt->lineno && size < INTMAX_MAX);

	fs->width = 0;
	if (!opt->initial_tab)
		return;
	do
		fs->width++;
	while ((num /= 10) != 0);
}

/* Returns 1 when nothing more need be searched (-q saw a match). */
int
out_quit(void)
{
	return __atomic_load_n(&quitting, __ATOMIC_RELAXED);
}

/* -q: a record was selected elsewhere (records.c): nothing more need be
 * searched. */
void
out_quit_now(void)
{
	__atomic_store_n(&quitting, 1, __ATOMIC_RELAXED);
	pool_set_quit();
}

/* Prints what is printed once an input is done: -c, -l, -L. */
void
out_file_end(struct fstate *fs)
{
	if (opt->quiet)
		return;
	if (fs->enc && !opt->binary_nomatch)
		warnx_("%s: binary file matches", fs->name);
	if (opt->json) {
		struct jbuf b = { NULL, 0, 0 };
		json_end(&b, fs);
		if (b.len > 0)
			emit(b.p, b.len);
		free(b.p);
	}
	if (opt->count && !opt->list && !opt->list_none) {
		char num[32];
		if (fs->show_name) {
			emit_colored(sgr.fn, fs->name, strlen(fs->name));
			if (opt->null_name)
				emit("", 1);
			else
				emit_sep(':');
		}
		emit(num, (size_t)snprintf(num, sizeof(num), "%ju\n",
		    fs->nsel));
	}
	if ((opt->list && fs->nsel > 0) || (opt->list_none && fs->nsel == 0)) {
		emit_colored(sgr.fn, fs->name, strlen(fs->name));
		emit(opt->null_name ? "" : "\n", 1);
	}
	if (opt->line_buffered)
		pool_flush();
}

/* Prints what --best-match kept and flushes stdout; returns 0, or -1 after
 * a "write error" message. */
int
out_finish(void)
{
	if (opt->best && best.len > 0) {
		pool_emit(best.buf, best.len);
		best.len = 0;
	}
	free(best.buf);
	free(sepline.s);
	sepline.s = NULL;
	best.buf = NULL;
	if (opt->json && !opt->quiet) {
		struct jbuf b = { NULL, 0, 0 };
		json_summary(&b);
		pool_emit(b.p, b.len);
		free(b.p);
	}
	if (fflush(stdout) == EOF || ferror(stdout) || pool_write_error()) {
		int e = pool_write_error() ? pool_write_error() : errno;
		warnx_("write error: %s", e ? strerror(e) : "standard output");
		return -1;
	}
	return 0;
}
