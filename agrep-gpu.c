/*
 * agrep-gpu: approximate grep.  Prints the records that hold a pattern with
 * at most k edits, computed by Myers' bit-parallel algorithm as OpenCL
 * kernels (POCL on the CPU by default, a GPU when one is present).
 *
 * This file: usage, the option table and main.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "src/base/cpu.h"
#include "src/base/dna.h"
#include "src/device/ocl.h"
#include "src/cli/options.h"
#include "src/output/output.h"
#include "src/engines/pattern.h"
#include "src/pipeline/pool.h"
#include "src/pipeline/records.h"
#include "src/regex/regex.h"
#include "src/pipeline/search.h"
#include "src/base/utf8.h"
#include "src/base/util.h"
#ifdef AGREP_MPI
#include "src/pipeline/mpi.h"
#endif

#ifndef VERSION
#define VERSION "0.1"
#endif

#define CHUNK_MAX	(1u << 30)
#define DEFAULT_HOST_MAX SIZE_MAX	/* automatic: search.c, README */
#define OUT_CAP		(4u << 20)	/* output a job keeps before waiting */

enum {
	OPT_LABEL = CHAR_MAX + 1, OPT_LINE_BUFFERED, OPT_DEVICE,
	OPT_LIST_DEVICES, OPT_HELP, OPT_NO_ICASE, OPT_MAX_ERRORS, OPT_COLOR,
	OPT_SHOW_COST, OPT_BEST, OPT_INCLUDE, OPT_EXCLUDE, OPT_EXCLUDE_DIR,
	OPT_SHOW_EDITS, OPT_JSON, OPT_GROUP_SEP, OPT_NO_GROUP_SEP,
	OPT_BINARY_FILES, OPT_UTF8, OPT_BYTES, OPT_DNA, OPT_DECOMPRESS,
	OPT_RECORDS, OPT_STRAND, OPT_HITS, OPT_DELIMITER, OPT_NO_INDELS,
	OPT_INS_COST, OPT_DEL_COST, OPT_SUB_COST, OPT_EXCLUDE_FROM
};

static const char short_opts[] =
    "0123456789A:B:C:D:ITabcd:e:f:hij:k:lm:noqrsvwxyzEFGHLPRUVZ";

static const struct option long_opts[] = {
	{ "max-errors",		required_argument, NULL, OPT_MAX_ERRORS },
	{ "regexp",		required_argument, NULL, 'e' },
	{ "file",		required_argument, NULL, 'f' },
	{ "ignore-case",	no_argument,	   NULL, 'i' },
	{ "no-ignore-case",	no_argument,	   NULL, OPT_NO_ICASE },
	{ "utf8",		no_argument,	   NULL, OPT_UTF8 },
	{ "bytes",		no_argument,	   NULL, OPT_BYTES },
	{ "invert-match",	no_argument,	   NULL, 'v' },
	{ "count",		no_argument,	   NULL, 'c' },
	{ "files-with-matches",	no_argument,	   NULL, 'l' },
	{ "files-without-match", no_argument,	   NULL, 'L' },
	{ "line-number",	no_argument,	   NULL, 'n' },
	{ "byte-offset",	no_argument,	   NULL, 'b' },
	{ "with-filename",	no_argument,	   NULL, 'H' },
	{ "no-filename",	no_argument,	   NULL, 'h' },
	{ "quiet",		no_argument,	   NULL, 'q' },
	{ "silent",		no_argument,	   NULL, 'q' },
	{ "no-messages",	no_argument,	   NULL, 's' },
	{ "max-count",		required_argument, NULL, 'm' },
	{ "recursive",		no_argument,	   NULL, 'r' },
	{ "dereference-recursive", no_argument,	   NULL, 'R' },
	{ "directories",	required_argument, NULL, 'd' },
	{ "text",		no_argument,	   NULL, 'a' },
	{ "binary",		no_argument,	   NULL, 'U' },
	{ "binary-files",	required_argument, NULL, OPT_BINARY_FILES },
	{ "devices",		required_argument, NULL, 'D' },
	{ "initial-tab",	no_argument,	   NULL, 'T' },
	{ "group-separator",	required_argument, NULL, OPT_GROUP_SEP },
	{ "no-group-separator",	no_argument,	   NULL, OPT_NO_GROUP_SEP },
	{ "label",		required_argument, NULL, OPT_LABEL },
	{ "decompress",		no_argument,	   NULL, OPT_DECOMPRESS },
	{ "search-zip",		no_argument,	   NULL, OPT_DECOMPRESS },
	{ "null-data",		no_argument,	   NULL, 'z' },
	{ "null",		no_argument,	   NULL, 'Z' },
	{ "line-buffered",	no_argument,	   NULL, OPT_LINE_BUFFERED },
	{ "fixed-strings",	no_argument,	   NULL, 'F' },
	{ "extended-regexp",	no_argument,	   NULL, 'E' },
	{ "basic-regexp",	no_argument,	   NULL, 'G' },
	{ "perl-regexp",	no_argument,	   NULL, 'P' },
	{ "dna",		no_argument,	   NULL, OPT_DNA },
	{ "iupac",		no_argument,	   NULL, OPT_DNA },
	{ "records",		required_argument, NULL, OPT_RECORDS },
	{ "strand",		required_argument, NULL, OPT_STRAND },
	{ "hits",		optional_argument, NULL, OPT_HITS },
	{ "delimiter",		required_argument, NULL, OPT_DELIMITER },
	{ "no-indels",		no_argument,	   NULL, OPT_NO_INDELS },
	{ "insert-cost",	required_argument, NULL, OPT_INS_COST },
	{ "delete-cost",	required_argument, NULL, OPT_DEL_COST },
	{ "substitute-cost",	required_argument, NULL, OPT_SUB_COST },
	{ "word-regexp",	no_argument,	   NULL, 'w' },
	{ "line-regexp",	no_argument,	   NULL, 'x' },
	{ "only-matching",	no_argument,	   NULL, 'o' },
	{ "color",		optional_argument, NULL, OPT_COLOR },
	{ "colour",		optional_argument, NULL, OPT_COLOR },
	{ "show-cost",		no_argument,	   NULL, OPT_SHOW_COST },
	{ "best-match",		no_argument,	   NULL, OPT_BEST },
	{ "show-edits",		no_argument,	   NULL, OPT_SHOW_EDITS },
	{ "json",		no_argument,	   NULL, OPT_JSON },
	{ "after-context",	required_argument, NULL, 'A' },
	{ "before-context",	required_argument, NULL, 'B' },
	{ "context",		required_argument, NULL, 'C' },
	{ "include",		required_argument, NULL, OPT_INCLUDE },
	{ "exclude",		required_argument, NULL, OPT_EXCLUDE },
	{ "exclude-dir",	required_argument, NULL, OPT_EXCLUDE_DIR },
	{ "exclude-from",	required_argument, NULL, OPT_EXCLUDE_FROM },
	{ "threads",		required_argument, NULL, 'j' },
	{ "device",		required_argument, NULL, OPT_DEVICE },
	{ "list-devices",	no_argument,	   NULL, OPT_LIST_DEVICES },
	{ "help",		no_argument,	   NULL, OPT_HELP },
	{ "version",		no_argument,	   NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

static void
usage(FILE *fp)
{
	fprintf(fp, "Usage: %s [OPTION]... PATTERN [FILE]...\n", progname);
	if (fp == stderr) {
		fprintf(fp, "Try '%s --help' for more information.\n",
		    progname);
		exit(2);
	}
	fputs(
"Print the lines of FILEs (or standard input) that contain PATTERN with at\n"
"most k errors (inserted, deleted or substituted characters; bytes outside\n"
"a UTF-8 locale).\n"
"\n"
"Matching:\n"
"  -k, --max-errors=NUM      allow NUM errors (default 0); also -NUM, e.g. -2\n"
"      --no-indels           substitutions only: a match is as long as the\n"
"                            pattern (Hamming distance)\n"
"      --insert-cost=NUM     cost of a text character not in the pattern\n"
"      --delete-cost=NUM     cost of a pattern character missing from the text\n"
"      --substitute-cost=NUM cost of a substituted character; each 1 by\n"
"                            default, 'off' for none of that kind; -k is then\n"
"                            the most total cost\n"
"  -G, --basic-regexp        PATTERNs are basic regular expressions (the\n"
"                            default, as in grep)\n"
"  -E, --extended-regexp     PATTERNs are extended regular expressions\n"
"  -F, --fixed-strings       PATTERNs are strings\n"
"      --dna, --iupac        PATTERNs are DNA: IUPAC codes (N, R, Y, ...)\n"
"                            stand for their bases, case is folded, both\n"
"                            strands are searched, FASTA and FASTQ files\n"
"                            are read as records\n"
"      --strand=WHICH        --dna: both (default), + or - (forward or\n"
"                            reverse complement only)\n"
"      --records=KIND        auto (default: FASTA, FASTQ by content with\n"
"                            --dna), fasta, fastq or lines\n"
"      --delimiter=DELIM     records of text: each starts at a line\n"
"                            holding DELIM (^DELIM: starting with it; \"\"\n"
"                            or $$: paragraphs); printed whole\n"
"  -e, --regexp=PATTERN      use PATTERN (repeatable)\n"
"  -f, --file=FILE           take patterns from FILE, one per line (with\n"
"                            --dna, a FASTA file of named patterns too)\n"
"  -i, -y, --ignore-case     fold case (Unicode in UTF-8 mode, else ASCII);\n"
"                            --no-ignore-case undoes it\n"
"      --utf8                an error is one UTF-8 character (the default\n"
"                            in a UTF-8 locale)\n"
"      --bytes               an error is one byte (the default otherwise)\n"
"  -v, --invert-match        select non-matching lines\n"
"  -w, --word-regexp         the match starts and ends at word boundaries\n"
"  -x, --line-regexp         the whole line is within k errors\n"
"  -z, --null-data           records end in NUL, not newline\n"
"\n"
"Output:\n"
"  -c, --count               print only a count of selected lines per file\n"
"  -o, --only-matching       print only the matched parts\n"
"      --color[=WHEN]        highlight matches: never, always or auto\n"
"      --show-cost           prefix each line with its least cost\n"
"      --best-match          print only the lines of least cost\n"
"      --show-edits          prefix each line (or -o part) with the CIGAR\n"
"                            alignment of its match, e.g. 2=2X1=\n"
"      --json                print JSON Lines as rg --json does, with costs\n"
"      --hits[=FORMAT]       print a row per match: tsv (default: pat_id,\n"
"                            text_id, cost, strand, start, end,\n"
"                            match_region, cigar), bed or json\n"
"  -A, --after-context=NUM   print NUM lines after each selected line\n"
"  -B, --before-context=NUM  print NUM lines before\n"
"  -C, --context=NUM         print NUM lines before and after\n"
"      --group-separator=SEP print SEP between groups of context (\"--\")\n"
"      --no-group-separator  print nothing between them\n"
"  -l, --files-with-matches  print only names of files with selected lines\n"
"  -L, --files-without-match print only names of files with none\n"
"  -n, --line-number         prefix each line with its line number\n"
"  -b, --byte-offset         prefix each line with its byte offset\n"
"  -H, --with-filename       prefix each line with the file name\n"
"  -h, --no-filename         never prefix the file name\n"
"      --label=LABEL         name standard input LABEL\n"
"  -Z, --null                print NUL after file names\n"
"  -T, --initial-tab         a tab after the prefixes; numbers aligned\n"
"  -m, --max-count=NUM       stop a file after NUM selected lines\n"
"  -q, --quiet, --silent     print nothing; exit 0 at the first match\n"
"  -s, --no-messages         no messages about unreadable files\n"
"      --line-buffered       flush output after every line\n"
"\n"
"Files:\n"
"  -r, --recursive           search directories recursively\n"
"  -R, --dereference-recursive  likewise, following symbolic links\n"
"  -d, --directories=ACTION  read (report), skip or recurse\n"
"      --include=GLOB        with -r, search only files matching GLOB\n"
"      --exclude=GLOB        with -r, skip files matching GLOB\n"
"      --exclude-dir=GLOB    with -r, skip directories matching GLOB\n"
"      --exclude-from=FILE   skip files matching any glob in FILE\n"
"      --decompress          search the contents of compressed inputs\n"
"                            (gzip, BGZF, zstd, xz, bzip2, lz4; by their\n"
"                            first bytes); also --search-zip\n"
"  -a, --text                search binary files as text\n"
"  -I                        binary files have no selected lines\n"
"      --binary-files=TYPE   binary (report a match on stderr), text (-a)\n"
"                            or without-match (-I)\n"
"  -D, --devices=ACTION      read (default) or skip devices, FIFOs and\n"
"                            sockets named on the command line\n"
"  -U, --binary              accepted, no effect\n"
"\n"
"Threads and devices:\n"
"  -j, --threads=NUM         worker threads (default: the online CPUs);\n"
"                            output is the same for every NUM\n"
"      --device=DEV          auto (default: all GPUs if several, else the\n"
"                            first GPU, else the CPU), all, gpu, cpu, host\n"
"                            (no OpenCL) or an index from --list-devices\n"
"      --list-devices        list OpenCL devices and exit\n"
"\n"
"  -V, --version             print the version and exit\n"
"      --help                print this help and exit\n"
"\n"
"Exit status: 0 if a line is selected, 1 if none, 2 if an error occurred.\n"
"Environment: AGREP_GPU_DEVICE (as --device), AGREP_GPU_CHUNK,\n"
"AGREP_GPU_SLICE, AGREP_GPU_HOST_MAX (see agrep-gpu(1)).\n", fp);
	exit(0);
}

/* Parses a non-negative decimal number up to max; exits with a message
 * naming what when it is not one. */
static long long
number(const char *s, long long max, const char *what)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (end == s || *end != '\0' || v < 0)
		fatalx("invalid %s: '%s'", what, s);
	if (errno == ERANGE || v > max)
		fatalx("%s too large: '%s' (at most %lld)", what, s, max);
	return v;
}

/* --insert-cost and the like: 1 to COST_MAX, or "off" (RE_COST_OFF). */
static int
edit_cost(const char *s, const char *kind)
{
	char what[32];

	if (strcmp(s, "off") == 0)
		return RE_COST_OFF;
	snprintf(what, sizeof(what), "%s cost", kind);
	int v = (int)number(s, COST_MAX, what);
	if (v == 0)
		fatalx("invalid %s: '%s' (at least 1, or 'off')", what, s);
	return v;
}

/* Reads a size from the environment, or returns def. */
static size_t
env_size(const char *name, size_t def, size_t min)
{
	const char *v = getenv(name);
	size_t n;

	if (v == NULL || *v == '\0')
		return def;
	n = (size_t)number(v, (long long)1 << 40, name);
	return n < min ? min : n;
}

/*
 * Rewrites agrep's -NUM (a whole argument of digits, e.g. -2 or -10) into
 * --max-errors=NUM before getopt sees it; getopt alone would read -10 as
 * -1 -0.  Arguments of options are left alone.
 */
static void
rewrite_digits(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--") == 0)
			return;
		if (a[0] != '-' || a[1] == '\0')
			continue;
		if (a[1] == '-') {
			/* As getopt_long reads it: an exact name, else an
			 * unambiguous abbreviation (--regex -5: "-5" is the
			 * pattern); "--name=value" holds its argument. */
			const struct option *o, *exact = NULL, *pre = NULL;
			const size_t n = strlen(a + 2);
			int npre = 0;
			if (strchr(a + 2, '=') != NULL)
				continue;
			for (o = long_opts; o->name != NULL; o++) {
				if (strncmp(a + 2, o->name, n) != 0)
					continue;
				if (o->name[n] == '\0')
					exact = o;
				pre = o;
				npre++;
			}
			if (exact == NULL && npre == 1)
				exact = pre;
			if (exact != NULL && exact->has_arg == required_argument)
				i++;
			continue;
		}
		if (strspn(a + 1, "0123456789") == strlen(a + 1)) {
			char *r = xmalloc(strlen(a) + 16);
			sprintf(r, "--max-errors=%s", a + 1);
			argv[i] = r;	/* lives until exit */
			continue;
		}
		for (const char *c = a + 1; *c != '\0'; c++) {
			const char *d = strchr(short_opts, *c);
			if (d != NULL && d[1] == ':') {
				if (c[1] == '\0')
					i++;
				break;
			}
		}
	}
}

/* What main needs besides struct options. */
struct args {
	struct patset	 ps;
	int		 have_pattern;	/* -e or -f given */
	int		 list_devices;
	long long	 context;	/* -C NUM */
	const char	*color;		/* --color=WHEN */
	size_t		 nglob[2];	/* --include/--exclude, --exclude-dir */
	int		 utf8;		/* --utf8 1, --bytes 0, else -1 */
	int		 no_icase;	/* --no-ignore-case given */
	int		 no_indels;	/* --no-indels given */
	const char	*strand;	/* --strand */
	struct rec_conf	 rc;		/* --records, --hits */
	struct { int file; const char *s; } *src; /* -e, -f in order */
	size_t		 nsrc;
	size_t		 nset;		/* patterns added: those given on
					 * each strand searched */
	char		**origin;	/* each pattern given: "FILE:LINE" of
					 * a line of -f, else NULL */
	size_t		*nraw;		/* ... and the patterns it made (one
					 * a line) */
};

/* Appends a glob to a NULL-ended list. */
static void
add_glob(const char ***list, size_t *n, const char *glob)
{
	*list = xreallocarray(*list, *n + 2, sizeof(**list));
	(*list)[(*n)++] = glob;
	(*list)[*n] = NULL;
}

/* Applies one option; exits on a usage error. */
static void
apply(int c, struct options *o, struct args *a)
{
	switch (c) {
	case OPT_MAX_ERRORS:
	case 'k':
		o->k = (int)number(optarg, 1 << 20, "number of errors");
		o->k_given = 1;
		break;
	case '0': case '1': case '2': case '3': case '4':
	case '5': case '6': case '7': case '8': case '9':
		o->k = c - '0';
		o->k_given = 1;
		break;
	case 'w': o->word = 1; break;
	case 'x': o->line = 1; break;
	case 'o': o->only = 1; break;
	case OPT_COLOR: a->color = optarg ? optarg : "auto"; break;
	case OPT_SHOW_COST: o->show_cost = 1; break;
	case OPT_BEST: o->best = 1; break;
	case OPT_SHOW_EDITS: o->show_edits = 1; break;
	case OPT_JSON: o->json = 1; break;
	case 'A':
		o->after = number(optarg, LLONG_MAX, "context length");
		break;
	case 'B':
		o->before = number(optarg, LLONG_MAX, "context length");
		break;
	case 'C':
		a->context = number(optarg, LLONG_MAX, "context length");
		break;
	case OPT_INCLUDE:
	case OPT_EXCLUDE: {
		char *g = xmalloc(strlen(optarg) + 2);
		g[0] = c == OPT_INCLUDE ? '+' : '-';
		strcpy(g + 1, optarg);
		add_glob(&o->globs, &a->nglob[0], g);
		break;
	}
	case OPT_EXCLUDE_FROM: {
		/* grep's: a glob a line, each as --exclude. */
		FILE *f = strcmp(optarg, "-") == 0 ? stdin :
		    fopen(optarg, "r");
		char *line = NULL;
		size_t cap = 0;
		ssize_t len;
		if (f == NULL)
			fatalx("%s: %s", optarg, strerror(errno));
		while ((len = getline(&line, &cap, f)) != -1) {
			if (len > 0 && line[len - 1] == '\n')
				line[--len] = '\0';
			char *g = xmalloc((size_t)len + 2);
			g[0] = '-';
			memcpy(g + 1, line, (size_t)len + 1);
			add_glob(&o->globs, &a->nglob[0], g);
		}
		free(line);
		if (f != stdin)
			fclose(f);
		break;
	}
	case OPT_EXCLUDE_DIR: {
		/* "dir/" names the directory dir, as in grep. */
		size_t n = strlen(optarg);
		while (n > 1 && optarg[n - 1] == '/')
			optarg[--n] = '\0';
		add_glob(&o->exclude_dir, &a->nglob[1], optarg);
		break;
	}
	case OPT_GROUP_SEP: o->group_sep = optarg; break;
	case OPT_NO_GROUP_SEP: o->group_sep = NULL; break;
	case 'T': o->initial_tab = 1; break;
	case 'I': o->binary_nomatch = 1; o->text = 0; break;
	case OPT_BINARY_FILES:
		if (strcmp(optarg, "binary") == 0)
			o->text = o->binary_nomatch = 0;
		else if (strcmp(optarg, "text") == 0) {
			o->text = 1;
			o->binary_nomatch = 0;
		} else if (strcmp(optarg, "without-match") == 0) {
			o->text = 0;
			o->binary_nomatch = 1;
		} else
			fatalx("invalid argument '%s' for --binary-files "
			    "(binary, text or without-match)", optarg);
		break;
	case 'D':
		if (strcmp(optarg, "skip") == 0)
			o->skip_devices = 1;
		else if (strcmp(optarg, "read") == 0)
			o->skip_devices = 0;
		else
			fatalx("invalid argument '%s' for --devices "
			    "(read or skip)", optarg);
		break;
	case 'e':
	case 'f':
		/* (added once the options are read: --dna may follow) */
		a->src = xreallocarray(a->src, a->nsrc + 1, sizeof(*a->src));
		a->src[a->nsrc].file = c == 'f';
		a->src[a->nsrc++].s = optarg;
		a->have_pattern = 1;
		break;
	case 'j':
		o->threads = (int)number(optarg, 1024, "number of threads");
		if (o->threads == 0)
			fatalx("invalid number of threads: '%s'", optarg);
		break;
	case 'i': case 'y': o->icase = 1; break;
	case OPT_NO_ICASE: o->icase = 0; a->no_icase = 1; break;
	case OPT_UTF8: a->utf8 = 1; break;
	case OPT_BYTES: a->utf8 = 0; break;
	case 'v': o->invert = 1; break;
	case 'c': o->count = 1; break;
	case 'l': o->list = 1; o->list_none = 0; break;
	case 'L': o->list_none = 1; o->list = 0; break;
	case 'n': o->lineno = 1; break;
	case 'b': o->byteoff = 1; break;
	case 'H': o->with_name = 1; break;
	case 'h': o->with_name = 0; break;
	case 'q': o->quiet = 1; break;
	case 's': o->silent = 1; break;
	case 'm':
		/* a negative count is no limit, as GNU grep (3.5 on) has it */
		if (optarg[0] == '-' && optarg[1] != '\0' &&
		    strspn(optarg + 1, "0123456789") == strlen(optarg + 1) &&
		    strspn(optarg + 1, "0") < strlen(optarg + 1))
			o->max_count = -1;
		else
			o->max_count = number(optarg, LLONG_MAX, "max count");
		break;
	case 'r': o->recursive = 1; o->skip_dirs = 0; break;
	case 'R': o->recursive = 2; o->skip_dirs = 0; break;
	case 'd':
		o->skip_dirs = strcmp(optarg, "skip") == 0;
		if (strcmp(optarg, "recurse") == 0)
			o->recursive = o->recursive ? o->recursive : 1;
		else if (strcmp(optarg, "read") == 0 || o->skip_dirs)
			o->recursive = 0;
		else
			fatalx("invalid argument '%s' for --directories "
			    "(read, skip or recurse)", optarg);
		break;
	case 'a': o->text = 1; o->binary_nomatch = 0; break;
	case 'U': break;
	case 'F': a->ps.syntax = RE_FIXED; break;
	case 'G': a->ps.syntax = RE_BASIC; break;
	case 'E': a->ps.syntax = RE_EXTENDED; break;
	case 'P':
		fatalx("Perl regular expressions (-P) are not supported; "
		    "-E reads extended ones");
	case OPT_DNA: a->ps.iupac = 1; break;
	case OPT_STRAND: a->strand = optarg; break;
	case OPT_RECORDS:
		if (strcmp(optarg, "auto") == 0)
			a->rc.kind = REC_AUTO;
		else if (strcmp(optarg, "lines") == 0)
			a->rc.kind = REC_LINES;
		else if (strcmp(optarg, "fasta") == 0)
			a->rc.kind = REC_FASTA;
		else if (strcmp(optarg, "fastq") == 0)
			a->rc.kind = REC_FASTQ;
		else
			fatalx("invalid argument '%s' for --records "
			    "(auto, fasta, fastq or lines)", optarg);
		break;
	case OPT_NO_INDELS: a->ps.hamming = a->no_indels = 1; break;
	case OPT_INS_COST: a->ps.cost.ins = edit_cost(optarg, "insert"); break;
	case OPT_DEL_COST: a->ps.cost.del = edit_cost(optarg, "delete"); break;
	case OPT_SUB_COST:
		a->ps.cost.sub = edit_cost(optarg, "substitute");
		break;
	case OPT_DELIMITER:
		a->rc.kind = REC_DELIM;
		a->rc.delim = optarg;
		break;
	case OPT_HITS:
		if (optarg == NULL || strcmp(optarg, "tsv") == 0)
			a->rc.hits = HITS_TSV;
		else if (strcmp(optarg, "bed") == 0)
			a->rc.hits = HITS_BED;
		else if (strcmp(optarg, "json") == 0)
			a->rc.hits = HITS_JSON;
		else
			fatalx("invalid argument '%s' for --hits "
			    "(tsv, bed or json)", optarg);
		break;
	case OPT_LABEL: o->label = optarg; break;
	case OPT_DECOMPRESS: o->decompress = 1; break;
	case 'z': o->eol = '\0'; break;
	case 'Z': o->null_name = 1; break;
	case OPT_LINE_BUFFERED: o->line_buffered = 1; break;
	case OPT_DEVICE: o->device = optarg; break;
	case OPT_LIST_DEVICES: a->list_devices = 1; break;
	case OPT_HELP: usage(stdout); break;
	case 'V':
		printf("agrep-gpu %s\n", VERSION);
		exit(0);
	default:
		usage(stderr);
	}
}

/* Settles what depends on several options; exits on a conflict. */
static void
settle(struct options *o, struct args *a)
{
	const char *dev = o->device;

	o->context = o->before >= 0 || o->after >= 0 || a->context >= 0;
	if (o->before < 0)
		o->before = a->context > 0 ? a->context : 0;
	if (o->after < 0)
		o->after = a->context > 0 ? a->context : 0;
	if (a->color == NULL || strcmp(a->color, "never") == 0)
		o->color = 0;
	else if (strcmp(a->color, "always") == 0)
		o->color = 1;
	else if (strcmp(a->color, "auto") == 0 || strcmp(a->color, "tty") == 0)
		o->color = isatty(STDOUT_FILENO) && (getenv("NO_COLOR") == NULL ||
		    *getenv("NO_COLOR") == '\0') && (getenv("TERM") == NULL ||
		    strcmp(getenv("TERM"), "dumb"));
	else
		fatalx("invalid argument '%s' for --color "
		    "(never, always or auto)", a->color);
	if (o->best && (o->count || o->list || o->list_none || o->quiet ||
	    o->invert))
		fatalx("--best-match cannot be combined with -c, -l, -L, -q "
		    "or -v");
	if (o->json && (o->count || o->list || o->list_none || o->best))
		fatalx("--json cannot be combined with -c, -l, -L or "
		    "--best-match");
	if (o->json) {
		/* Every message has a line number and costs; standard
		 * input is "<stdin>" as in rg. */
		o->lineno = 1;
		o->show_cost = 1;
		o->color = 0;
		if (o->label == NULL)
			o->label = "<stdin>";
	}
	/* --best-match without -k: any cost, the least one wins. */
	if (o->best && !o->k_given)
		o->k = 1 << 20;
	if (o->threads == 0) {
		/* (AGREP_GPU_CPUS, for the tests: a machine of that many) */
		const char *cpus = getenv("AGREP_GPU_CPUS");
		long n = cpus != NULL && atol(cpus) > 0 ? atol(cpus) :
		    sysconf(_SC_NPROCESSORS_ONLN);
		o->threads_auto = 1;
		o->threads = n < 1 ? 1 : n > 64 ? 64 : (int)n;
	}
	/* --best-match holds all output until the end: one thread. */
	if (o->best)
		o->threads = 1;
#ifdef AGREP_MPI
	o->threads = 1;		/* ranks are the parallelism */
#endif
	if (dev != NULL && *dev != '\0' && strcmp(dev, "auto") &&
	    strcmp(dev, "all") &&
	    strcmp(dev, "cpu") && strcmp(dev, "gpu") && strcmp(dev, "host") &&
	    strspn(dev, "0123456789") != strlen(dev))
		fatalx("invalid device '%s' (auto, gpu, cpu, host or an "
		    "index from --list-devices)", dev);
}

/* The patterns given, in order, with their names (the hit table's pat_id). */
struct plist {
	char	**pat, **name, **origin;
	size_t	*len;		/* (a pattern may hold NUL bytes) */
	size_t	 n;
};

static void
plist_add(struct plist *l, const char *p, size_t len, const char *name)
{
	l->pat = xreallocarray(l->pat, l->n + 1, sizeof(*l->pat));
	l->name = xreallocarray(l->name, l->n + 1, sizeof(*l->name));
	l->len = xreallocarray(l->len, l->n + 1, sizeof(*l->len));
	l->len[l->n] = len;
	l->pat[l->n] = xmalloc(len + 1);
	memcpy(l->pat[l->n], p, len);
	l->pat[l->n][len] = '\0';
	l->origin = xreallocarray(l->origin, l->n + 1, sizeof(*l->origin));
	l->origin[l->n] = NULL;
	l->name[l->n++] = xstrdup(name);
}

/*
 * The patterns of -e and -f (and the operand) in order: a -e pattern is
 * named by itself, a line of a file by its line number; with --dna a file
 * whose first line starts with '>' is FASTA, each sequence (over any number
 * of lines) named by its header's first word.
 */
static void
read_patterns(struct args *a, struct plist *l)
{
	for (size_t i = 0; i < a->nsrc; i++) {
		const char *s = a->src[i].s;
		size_t len = strlen(s), at = 0, lineno = 0;
		char *buf = NULL;
		if (a->src[i].file) {
			if ((buf = pat_read_file(s, &len)) == NULL)
				fatalx("%s: %s", s, strerror(errno));
			s = buf;
		}
		if (a->src[i].file && a->ps.iupac && len > 0 && s[0] == '>') {
			char *seq = NULL, name[4096];
			size_t sl = 0;
			int have = 0;
			while (at <= len) {
				const char *e = memchr(s + at, '\n', len - at);
				size_t n = e ? (size_t)(e - (s + at)) : len - at;
				if (at == len || s[at] == '>') {
					if (have && sl == 0)
						fatalx("%s: pattern '%s' has no "
						    "sequence", a->src[i].s, name);
					if (have)
						plist_add(l, seq, sl, name);
					if (at == len)
						break;
					size_t w = strcspn(s + at + 1, " \t\r\n");
					if (w >= sizeof(name))
						w = sizeof(name) - 1;
					memcpy(name, s + at + 1, w);
					name[w] = '\0';
					sl = 0;
					have = 1;
				} else {
					seq = xrealloc(seq, sl + n + 1);
					for (size_t j = 0; j < n; j++)
						if (s[at + j] != '\r' &&
						    s[at + j] != ' ' &&
						    s[at + j] != '\t')
							seq[sl++] = s[at + j];
				}
				at += n + (e != NULL);
			}
			free(seq);
			free(buf);
			continue;
		}
		if (!a->src[i].file) {
			plist_add(l, s, len, s);	/* (pat_add splits it) */
			continue;
		}
		/* One pattern a line (a final line without a newline too). */
		while (at < len) {
			const char *e = memchr(s + at, '\n', len - at);
			size_t n = e ? (size_t)(e - (s + at)) : len - at;
			char num[32];
			snprintf(num, sizeof(num), "%zu", ++lineno);
			plist_add(l, s + at, n, num);
			l->origin[l->n - 1] = xmalloc(strlen(a->src[i].s) +
			    sizeof(num) + 1);
			sprintf(l->origin[l->n - 1], "%s:%s", a->src[i].s,
			    num);
			at += n + 1;
		}
		free(buf);
	}
}

/*
 * Adds the patterns to the set: with --dna, those on the strands asked for
 * (the reverse complements after the patterns; --strand=- those alone).
 * Fills a->rc's count and names.
 */
static void
add_patterns(struct args *a)
{
	struct plist l = { NULL, NULL, NULL, NULL, 0 };
	int fwd = 1, rev = 0;

	read_patterns(a, &l);
	if (a->ps.iupac) {
		const char *st = a->strand != NULL ? a->strand : "both";
		if (strcmp(st, "both") == 0)
			rev = 1;
		else if (strcmp(st, "-") == 0 || strcmp(st, "minus") == 0 ||
		    strcmp(st, "reverse") == 0)
			fwd = 0, rev = 1;
		else if (strcmp(st, "+") && strcmp(st, "plus") &&
		    strcmp(st, "forward"))
			fatalx("invalid argument '%s' for --strand (both, + "
			    "or -)", st);
	} else if (a->strand != NULL)
		fatalx("--strand needs --dna");
	for (size_t i = 0; rev && i < l.n; i++)
		if (!dna_is_sequence((const unsigned char *)l.pat[i], l.len[i]))
			fatalx("--dna: '%s' is not a sequence of bases and "
			    "IUPAC codes, so it has no reverse complement "
			    "(--strand=+ searches it as it is)", l.pat[i]);
	for (size_t i = 0; fwd && i < l.n; i++)
		pat_add(&a->ps, l.pat[i], l.len[i]);
	for (size_t i = 0; rev && i < l.n; i++) {
		size_t n = l.len[i];
		unsigned char *r = xmalloc(n + 1);
		dna_revcomp(r, (const unsigned char *)l.pat[i], n);
		pat_add(&a->ps, (const char *)r, n);
		free(r);
	}
	a->rc.npat = l.n;
	a->rc.minus = !fwd;
	a->rc.names = l.name;
	a->nset = l.n * (size_t)(fwd + rev);
	a->origin = l.origin;
	a->nraw = xreallocarray(NULL, l.n ? l.n : 1, sizeof(*a->nraw));
	for (size_t i = 0; i < l.n; i++) {
		a->nraw[i] = 1;
		for (size_t j = 0; j < l.len[i]; j++)
			a->nraw[i] += l.pat[i][j] == '\n';
	}
	for (size_t i = 0; i < l.n; i++)
		free(l.pat[i]);
	free(l.pat);
	free(l.len);
}

/*
 * Records and the hit table: --dna folds case (soft-masked bases are
 * bases) and reads FASTA and FASTQ as records unless an option of lines
 * is given (then, or with --records=lines, every input is lines); --hits
 * takes no option of lines.  Exits on a conflict.
 */
static void
records_settle(struct options *o, struct args *a)
{
	const int lineopts = o->only || o->word || o->line || o->context ||
	    o->color || o->show_cost || o->best || o->show_edits ||
	    o->lineno || o->byteoff || o->eol != '\n' || o->initial_tab;
	int given = a->rc.kind != REC_AUTO;

	if (a->ps.iupac && !a->no_icase)
		o->icase = 1;
	if (o->json && a->rc.hits != HITS_NONE) {
		a->rc.hits = HITS_JSON;
		o->json = 0;
	}
	if (!given)
		a->rc.kind = a->ps.iupac && !lineopts && !o->json ? REC_AUTO :
		    REC_LINES;
	if (a->rc.hits != HITS_NONE && (lineopts || o->invert || o->count ||
	    o->list || o->list_none))
		fatalx("--hits cannot be combined with -o, -w, -x, -v, -c, -l, "
		    "-L, -n, -b, -z, -T, context, --color, --show-cost, "
		    "--show-edits or --best-match");
	if (given && a->rc.kind != REC_LINES && (lineopts || o->json))
		fatalx("%s cannot be combined with -o, -w, -x, -n, "
		    "-b, -z, -T, context, --color, --show-cost, --show-edits, "
		    "--best-match or --json", a->rc.kind == REC_FASTA ?
		    "--records=fasta" : a->rc.kind == REC_FASTQ ?
		    "--records=fastq" : "--delimiter");
	if ((a->rc.kind == REC_LINES || a->rc.kind == REC_DELIM) &&
	    a->rc.hits == HITS_NONE)
		return;		/* (any pattern: the records are selected) */
	/* One pattern of the set per pattern and strand, compared byte by
	 * byte: pat[] maps back to the names. */
	a->ps.no_expand = 1;
	a->ps.all_ends = a->rc.hits != HITS_NONE;
	a->utf8 = 0;
}

/*
 * The costs of the kinds of edit, once -k is known: --no-indels is
 * insertions and deletions off; substitutions alone at cost 1 are its
 * engine (hm_hamming); other costs weight the search (ps.weighted: the
 * automata, regex/weighted.c).  At -k 0 costs change nothing.
 */
static void
costs_settle(struct options *o, struct args *a)
{
	struct re_costs *c = &a->ps.cost;

	if (a->ps.hamming) {
		if ((c->ins != 1 && c->ins != RE_COST_OFF) ||
		    (c->del != 1 && c->del != RE_COST_OFF))
			fatalx("--no-indels makes no insertions or deletions: "
			    "--insert-cost and --delete-cost do not apply");
		c->ins = c->del = RE_COST_OFF;
	}
	if (c->ins == RE_COST_OFF && c->del == RE_COST_OFF && c->sub == RE_COST_OFF &&
	    o->k > 0)
		fatalx("--insert-cost, --delete-cost and --substitute-cost "
		    "turn every edit off: only -k 0 (an exact search) can "
		    "match");
	if (c->ins == RE_COST_OFF && c->del == RE_COST_OFF && c->sub == 1) {
		a->ps.hamming = 1;
		return;
	}
	a->ps.hamming = 0;
	a->ps.weighted = o->k > 0 && (c->ins != 1 || c->del != 1 ||
	    c->sub != 1);
	if (a->ps.weighted && o->k > RE_MAXK && !o->best)
		fatalx("-k above %d is not supported with edit costs",
		    RE_MAXK);
}

/* After compiling: each pattern one of pat[], longer than k. */
static void
records_check(struct options *o, struct args *a)
{
	if ((a->rc.kind == REC_LINES || a->rc.kind == REC_DELIM) &&
	    a->rc.hits == HITS_NONE)
		return;
	if (a->ps.nre > 0 || a->ps.npat != a->nset)
		fatalx("%s takes plain patterns and classes, not expressions "
		    "with *, +, ?, {m,n}, |, ^, $ or newlines",
		    a->rc.hits != HITS_NONE ? "--hits" : "--dna");
	const int del = a->ps.weighted ? a->ps.cost.del : 1;
	for (size_t i = 0; i < a->ps.npat; i++) {
		const struct pattern *p = &a->ps.pat[i];
		const char *name = a->rc.names[i % a->rc.npat];
		if (del >= RE_COST_OFF || p->len > (size_t)(o->k / del))
			continue;
		/* (a name of its own, -f's line number or a FASTA header,
		 * is given with the sequence) */
		const size_t wn = strlen(name) + p->len + 8;
		char *what = xmalloc(wn);
		if (strlen(name) == p->len && memcmp(name, p->str, p->len) == 0)
			snprintf(what, wn, "'%s'", name);
		else
			snprintf(what, wn, "%s ('%.*s')", name, (int)p->len,
			    (const char *)p->str);
		fatalx("pattern %s is not longer than -k %d: it would match "
		    "everywhere", what, o->k);
	}
}

/* pat_errors' report of pattern r of the set: named by "FILE:LINE: " where
 * it is a line of -f, as grep names it. */
static void
bad_pattern(void *arg, size_t r, const char *msg)
{
	const struct args *a = arg;
	size_t per = 0, e = 0;

	for (size_t i = 0; i < a->rc.npat; i++)
		per += a->nraw[i];
	r %= per;		/* (the other strand: the list again) */
	while (r >= a->nraw[e])
		r -= a->nraw[e++];
	if (a->origin[e] != NULL)
		warnx_("%s: %s", a->origin[e], msg);
	else
		warnx_("%s", msg);
}

/* Frees what option parsing made. */
static void
release(struct options *o, struct args *a)
{
	pat_free(&a->ps);
	for (size_t i = 0; i < a->rc.npat; i++) {
		free(a->rc.names[i]);
		free(a->origin[i]);
	}
	free(a->rc.names);
	free(a->origin);
	free(a->nraw);
	free(a->src);
	for (size_t i = 0; i < a->nglob[0]; i++)
		free((char *)o->globs[i]);
	free(o->globs);
	free(o->exclude_dir);
}

int
main(int argc, char **argv)
{
	struct options o;
	struct args a;
	char err[256];
	int c, status = 0, nfiles, show;

	memset(&o, 0, sizeof(o));
	memset(&a, 0, sizeof(a));
	o.with_name = -1;
	o.max_count = -1;
	o.before = o.after = -1;
	a.context = -1;
	a.utf8 = -1;
	o.eol = '\n';
	o.group_sep = "--";
	o.device = getenv("AGREP_GPU_DEVICE");
	pat_init(&a.ps, 0, 0);
	a.ps.syntax = RE_BASIC;		/* as grep */
#ifdef AGREP_MPI
	mpi_start(&argc, &argv);
#endif
	rewrite_digits(argc, argv);
	while ((c = getopt_long(argc, argv, short_opts, long_opts, NULL)) != -1)
		apply(c, &o, &a);
	opt_silent = o.silent;
	settle(&o, &a);
	(void)cpu_level();	/* a bad AGREP_GPU_ISA stops here, exit 2 */
	if (a.list_devices) {
		int r = ocl_list(stdout);
		printf("host: %s instruction set (AGREP_GPU_ISA caps it)\n",
		    cpu_level_name(cpu_level()));
		return r == 0 ? 0 : 2;
	}
	if (!a.have_pattern) {
		if (optind >= argc)
			usage(stderr);
		a.src = xreallocarray(a.src, 1, sizeof(*a.src));
		a.src[0].file = 0;
		a.src[a.nsrc++].s = argv[optind++];
	}
	add_patterns(&a);
	records_settle(&o, &a);
	a.ps.k = o.k;
	a.ps.icase = o.icase;
	a.ps.utf8 = u8_mode(a.utf8);
	a.ps.chars = o.word || o.show_edits;
	a.ps.xline = o.line;
	costs_settle(&o, &a);
	/* (tests: every expression with repetition or | as an automaton) */
	a.ps.no_expand = getenv("AGREP_GPU_RE_EXPAND") != NULL &&
	    strcmp(getenv("AGREP_GPU_RE_EXPAND"), "0") == 0;
	/* -m 0 selects nothing: as grep, exit 1 before the patterns are
	 * compiled (an invalid expression is no error then); -L still lists
	 * the files (below). */
	if (!o.list_none && o.max_count == 0) {
		release(&o, &a);
		return 1;
	}
	if (pat_compile(&a.ps, err, sizeof(err)) == -1) {
		if (pat_errors(&a.ps, bad_pattern, &a) == 0)
			fatalx("%s", err);
		release(&o, &a);
		return 2;
	}
	records_check(&o, &a);
	if (a.ps.hamming && a.ps.nre > 0 && a.no_indels)
		fatalx("--no-indels takes plain patterns and classes, not "
		    "expressions with *, +, ?, {m,n}, |, ^ or $");
	if (a.ps.hamming && a.ps.nre > 0)
		fatalx("insertions and deletions off with substitutions at "
		    "cost 1 (the search of --no-indels) take plain patterns "
		    "and classes, not expressions with *, +, ?, {m,n}, |, ^ "
		    "or $; --substitute-cost=2 with -k %d is the same search",
		    2 * o.k);
	/* Expressions with repetition, alternation or anchors run as
	 * automata (regex.c): no alignment with a pattern to show yet. */
	if (a.ps.nre > 0 && o.show_edits)
		fatalx("--show-edits is not supported with expressions that "
		    "have *, +, ?, {m,n}, |, ^ or $ (classes and . are)");
	if (a.ps.nre > 0 && o.k > RE_MAXK && !o.best)
		fatalx("-k above %d is not supported with expressions that "
		    "have *, +, ?, {m,n}, |, ^ or $", RE_MAXK);
	o.chunk = env_size("AGREP_GPU_CHUNK", 0, 1);
	if (o.chunk > CHUNK_MAX) {
		warnx_("warning: AGREP_GPU_CHUNK capped at %u bytes", CHUNK_MAX);
		o.chunk = CHUNK_MAX;
	}
	o.slice = env_size("AGREP_GPU_SLICE", 0, 64);
	o.host_max = env_size("AGREP_GPU_HOST_MAX", DEFAULT_HOST_MAX, 0);
	/* Nothing can be selected (-f /dev/null, -v ''; -m 0 exited above):
	 * as grep, open no file and exit 1; -L still lists the files.  (-v of
	 * a set that matches every line otherwise, '' beside other patterns
	 * or one no longer than -k, selects no line but prints -c's counts,
	 * as grep -c -v -e '' -e x does.) */
	int empty = a.ps.npat > 0 && a.ps.nre == 0;
	for (size_t i = 0; i < a.ps.npat; i++)
		empty &= a.ps.pat[i].len == 0;
	if (!o.list_none && ((a.ps.npat == 0 && a.ps.nre == 0 &&
	    !o.invert) || (o.invert && empty && !o.word && !o.line))) {
		release(&o, &a);
		return 1;
	}

	/* Jobs may leave a device's scan in flight (range.c, devq.c) unless
	 * every scan is the host's. */
	pool_start(o.threads, OUT_CAP, o.line_buffered, o.device == NULL ||
	    strcmp(o.device, "host") != 0);
	out_init(&o, &a.ps);
	search_init(&o, &a.ps);
	rec_init(&a.ps, &a.rc);
#ifdef AGREP_MPI
	if (mpi_ranks() > 1)
		search_set_file_hook(mpi_search_file);
	if (mpi_rank() != 0) {
		/* Workers search the ranges rank 0 hands out. */
		mpi_worker();
		pool_end();
		search_end();
		mpi_end();
		pat_free(&a.ps);
		return 0;
	}
#endif
	nfiles = argc - optind;
	show = o.with_name >= 0 ? o.with_name : nfiles > 1;
	if (nfiles > 0 && !o.recursive) {
		/* (the GPUs to list: their number by the work) */
		uint64_t total = 0;
		struct stat st;
		int known = 1;
		for (int i = optind; i < argc; i++)
			if (stat(argv[i], &st) == 0 && S_ISREG(st.st_mode))
				total += (uint64_t)st.st_size;
			else
				known = 0;
		search_gpus(total);
		if (known)
			search_total(total);
	}
	if (nfiles == 0 && o.recursive)
		status |= search_cwd() == -1;
	else if (nfiles == 0)
		status |= search_stdin(show) == -1;
	for (int i = optind; i < argc && !out_quit(); i++)
		status |= search_path(argv[i], show) == -1;
	search_flush();
	pool_end();
	status |= search_jobs_failed();
	search_end();
#ifdef AGREP_MPI
	mpi_end();
#endif
	if (out_finish() == -1 || search_failed())
		status = 1;
	release(&o, &a);
	status = out_quit() ? 0 :	/* -q: a match wins over errors */
	    status ? 2 : search_matched() ? 0 : 1;
	/* A device still building its program, given nothing: the search is
	 * done without it, and the process must not unload OpenCL under
	 * that build (search_end). */
	if (search_abandoned()) {
		fflush(NULL);
		_exit(status);
	}
	return status;
}
