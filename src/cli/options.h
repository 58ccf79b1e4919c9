/* options.h: every setting of a run, written only by option parsing. */
#ifndef AGREP_OPTIONS_H
#define AGREP_OPTIONS_H

#include <stddef.h>

struct options {
	int		 k;		/* errors allowed (-k, -NUM) */
	int		 icase;		/* -i: fold ASCII case */
	int		 invert;	/* -v: select non-matching lines */
	int		 count;		/* -c: print counts only */
	int		 list;		/* -l: names of files with a match */
	int		 list_none;	/* -L: names of files without one */
	int		 lineno;	/* -n: line numbers */
	int		 byteoff;	/* -b: byte offsets */
	int		 with_name;	/* -H 1, -h 0, default -1 (auto) */
	int		 quiet;		/* -q */
	int		 silent;	/* -s: no messages about files */
	long long	 max_count;	/* -m NUM; -1 when unlimited */
	int		 recursive;	/* -r 1, -R 2 (follow links) */
	int		 skip_dirs;	/* -d skip */
	int		 text;		/* -a: binary files as text */
	const char	*label;		/* --label: name of stdin */
	int		 decompress;	/* --decompress: compressed inputs
					 * searched decoded (zin.c) */
	unsigned char	 eol;		/* record terminator: '\n', or NUL (-z) */
	int		 null_name;	/* -Z: NUL after file names */
	int		 line_buffered;	/* --line-buffered */
	const char	*device;	/* --device or AGREP_GPU_DEVICE */
	int		 threads;	/* -j: worker threads (0: online CPUs) */
	int		 threads_auto;	/* no -j: as many as the work needs
					 * (search.c, workers_for) */
	size_t		 chunk;		/* chunk bytes, 0 = auto (AGREP_GPU_CHUNK) */
	size_t		 slice;		/* slice bytes, 0 = auto (AGREP_GPU_SLICE) */
	size_t		 host_max;	/* inputs this small use the host matcher */
	int		 k_given;	/* -k or -NUM was given */
	int		 word;		/* -w: match at word boundaries */
	int		 line;		/* -x: match the whole record */
	int		 only;		/* -o: print matched parts only */
	int		 color;		/* --color: highlight (resolved) */
	int		 show_cost;	/* --show-cost */
	int		 best;		/* --best-match */
	int		 show_edits;	/* --show-edits: CIGAR of the match */
	int		 json;		/* --json: rg's JSON Lines */
	long long	 before;	/* -B NUM context lines */
	long long	 after;		/* -A NUM */
	int		 context;	/* -A, -B or -C given: "--" separators */
	const char	**globs;	/* --include=GLOB ("+GLOB") and --exclude
					 * ("-GLOB") in order, NULL-ended */
	const char	**exclude_dir;	/* --exclude-dir=GLOB */
	const char	*group_sep;	/* --group-separator; NULL: none */
	int		 binary_nomatch; /* -I, --binary-files=without-match */
	int		 initial_tab;	/* -T: a tab after the prefixes */
	int		 skip_devices;	/* -D skip */
};

#endif
