/*
 * tests/recoracle.c: an independent oracle for agrep-gpu --dna --hits
 * (FASTA/FASTQ records, IUPAC patterns, both strands), written from the
 * specification only; it shares no code with agrep-gpu.
 *
 *   recoracle gen SEED DIR
 *       write DIR/pats.fa and DIR/text.fa or DIR/text.fq (a random case)
 *       and print "K TEXTFILE" on stdout; with RECORACLE_FINAL_EOL set
 *       (non-empty) the text file always ends in a line end
 *   recoracle run K STRAND PATS FILE
 *       print the expected hit table without the cigar column (columns
 *       1-7); STRAND is both, + or -; exit 1 if there are no rows
 *   recoracle validate K STRAND PATS < TSV
 *       check every row of agrep-gpu's full table: its cigar must align
 *       exactly the row's pattern to match_region, '=' only on matching
 *       bases, 'X' only on mismatching ones, and #X+#I+#D == cost
 *
 * RECORACLE_COSTS="I D S" (each a number or "off") weighs the edits as
 * agrep-gpu's --insert-cost, --delete-cost, --substitute-cost: every
 * distance below is then the least total cost, and validate sums a row's
 * CIGAR with those costs.
 *
 * Sites: C(e) is Sellers' free-start edit distance of the pattern ending at
 * e (C(0) = m).  e is a site iff C(e) <= K, C(e-1) > C(e), and the first
 * C(j) != C(e) for j in e+1 .. min(len, e+L), L = M + K + 2, is higher
 * (or there is none).  Its start is the largest s >= e-(m+K) whose global
 * distance to the pattern is C(e).
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("recoracle: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(2);
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		die("out of memory");
	return p;
}

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die("out of memory");
	return p;
}

static char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

/* ---------------------------------------------------------------- IUPAC */

/* Bit set of bases (A=1 C=2 G=4 T=8) a pattern char stands for; 0 if none. */
static unsigned pat_set(int c)
{
	switch (toupper(c)) {
	case 'A': return 1;
	case 'C': return 2;
	case 'G': return 4;
	case 'T': return 8;
	case 'R': return 1 | 4;
	case 'Y': return 2 | 8;
	case 'S': return 2 | 4;
	case 'W': return 1 | 8;
	case 'K': return 4 | 8;
	case 'M': return 1 | 2;
	case 'B': return 2 | 4 | 8;
	case 'D': return 1 | 4 | 8;
	case 'H': return 1 | 2 | 8;
	case 'V': return 1 | 2 | 4;
	case 'N': return 15;
	default: return 0;
	}
}

/* The base bit of a text byte (A/C/G/T, case folded), else 0. */
static unsigned text_base(int c)
{
	switch (c) {
	case 'A': case 'a': return 1;
	case 'C': case 'c': return 2;
	case 'G': case 'g': return 4;
	case 'T': case 't': return 8;
	default: return 0;
	}
}

static int matches(int textc, int patc)
{
	return (text_base(textc) & pat_set(patc)) != 0;
}

static int comp(int c)
{
	static const char from[] = "ACGTRYKMBVDHSWN";
	static const char to[] = "TGCAYRMKVBHDSWN";
	int up = isupper(c) != 0;
	const char *p = strchr(from, toupper(c));
	if (!p || !c)
		return c;
	int r = to[p - from];
	return up ? r : tolower(r);
}

static char *revcomp(const char *s, int m)
{
	char *r = xmalloc((size_t)m + 1);
	for (int i = 0; i < m; i++)
		r[i] = (char)comp((unsigned char)s[m - 1 - i]);
	r[m] = 0;
	return r;
}

/* ---------------------------------------------------------------- input */

static char *read_file(const char *path, size_t *len)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	if (!f)
		die("%s: %s", path, strerror(errno));
	size_t cap = 1 << 16, n = 0;
	char *buf = xmalloc(cap + 1);
	size_t got;
	while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap)
			buf = xrealloc(buf, (cap *= 2) + 1);
	}
	if (ferror(f))
		die("%s: read error", path);
	if (f != stdin)
		fclose(f);
	buf[n] = 0;
	*len = n;
	return buf;
}

typedef struct {
	char *name;
	char *seq;
	int len;
} Rec;

typedef struct {
	Rec *v;
	int n, cap;
} Recs;

static void recs_push(Recs *r, char *name, char *seq, int len)
{
	if (r->n == r->cap)
		r->v = xrealloc(r->v, sizeof *r->v * (size_t)(r->cap = r->cap ? 2 * r->cap : 8));
	r->v[r->n].name = name;
	r->v[r->n].seq = seq;
	r->v[r->n].len = len;
	r->n++;
}

/* The first word of a header line (after its '>' or '@'). */
static char *header_name(const char *line, size_t n)
{
	size_t i = 1;
	while (i < n && line[i] != ' ' && line[i] != '\t' && line[i] != '\r')
		i++;
	return xstrndup(line + 1, i - 1);
}

/* Lines: [start, end) without the '\n'. */
typedef struct {
	const char *p;
	size_t n;
} Line;

static Line *split_lines(const char *buf, size_t len, int *nlines)
{
	int cap = 64, n = 0;
	Line *v = xmalloc(sizeof *v * (size_t)cap);
	size_t i = 0;
	while (i < len) {
		size_t j = i;
		while (j < len && buf[j] != '\n')
			j++;
		if (n == cap)
			v = xrealloc(v, sizeof *v * (size_t)(cap *= 2));
		v[n].p = buf + i;
		v[n].n = j - i;
		n++;
		i = j + 1;
	}
	*nlines = n;
	return v;
}

static void append_seq(char **seq, int *len, int *cap, const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (p[i] == '\r' || p[i] == '\n')
			continue;
		if (*len + 1 >= *cap)
			*seq = xrealloc(*seq, (size_t)(*cap = *cap ? 2 * *cap : 256));
		(*seq)[(*len)++] = p[i];
	}
	if (!*seq)
		*seq = xmalloc((size_t)(*cap = 16));
	(*seq)[*len] = 0;
}

static Recs parse_fasta(const char *buf, size_t len)
{
	Recs r = {0};
	int nl;
	Line *l = split_lines(buf, len, &nl);
	char *seq = NULL;
	int slen = 0, scap = 0;
	char *name = NULL;
	for (int i = 0; i < nl; i++) {
		if (l[i].n > 0 && l[i].p[0] == '>') {
			if (name)
				recs_push(&r, name, seq ? seq : xstrndup("", 0), slen);
			name = header_name(l[i].p, l[i].n);
			seq = NULL;
			slen = scap = 0;
		} else if (name) {
			append_seq(&seq, &slen, &scap, l[i].p, l[i].n);
		} else if (l[i].n > 0) {
			die("FASTA: sequence before the first header");
		}
	}
	if (name)
		recs_push(&r, name, seq ? seq : xstrndup("", 0), slen);
	free(l);
	return r;
}

static Recs parse_fastq(const char *buf, size_t len)
{
	Recs r = {0};
	int nl;
	Line *l = split_lines(buf, len, &nl);
	for (int i = 0; i < nl;) {
		if (l[i].n == 0 || (l[i].n == 1 && l[i].p[0] == '\r')) {
			i++;
			continue;
		}
		if (l[i].p[0] != '@' || i + 3 >= nl)
			die("FASTQ: bad record at line %d", i + 1);
		char *name = header_name(l[i].p, l[i].n);
		char *seq = NULL;
		int slen = 0, scap = 0;
		append_seq(&seq, &slen, &scap, l[i + 1].p, l[i + 1].n);
		if (l[i + 2].n == 0 || l[i + 2].p[0] != '+')
			die("FASTQ: no '+' line at line %d", i + 3);
		recs_push(&r, name, seq, slen);
		i += 4;
	}
	free(l);
	return r;
}

static Recs parse_records(const char *path)
{
	size_t len;
	char *buf = read_file(path, &len);
	Recs r;
	if (len > 0 && buf[0] == '@')
		r = parse_fastq(buf, len);
	else
		r = parse_fasta(buf, len);
	free(buf);
	return r;
}

/* ------------------------------------------------------------- patterns */

typedef struct {
	char **id;   /* per x */
	char **seq;  /* per x */
	int *m;      /* per x */
	char *strand; /* per x: '+' or '-' */
	int n;       /* rows of the set */
	int M;       /* longest pattern of the set */
} PatSet;

static PatSet load_patterns(const char *path, const char *strand)
{
	Recs p = parse_records(path);
	if (p.n == 0)
		die("%s: no patterns", path);
	int fwd = strcmp(strand, "-") != 0, rev = strcmp(strand, "+") != 0;
	if (strcmp(strand, "both") && strcmp(strand, "+") && strcmp(strand, "-"))
		die("STRAND must be both, + or -");
	PatSet s = {0};
	int cap = 2 * p.n;
	s.id = xmalloc(sizeof *s.id * (size_t)cap);
	s.seq = xmalloc(sizeof *s.seq * (size_t)cap);
	s.m = xmalloc(sizeof *s.m * (size_t)cap);
	s.strand = xmalloc((size_t)cap);
	if (fwd)
		for (int i = 0; i < p.n; i++) {
			s.id[s.n] = p.v[i].name;
			s.seq[s.n] = p.v[i].seq;
			s.m[s.n] = p.v[i].len;
			s.strand[s.n] = '+';
			s.n++;
		}
	if (rev)
		for (int i = 0; i < p.n; i++) {
			s.id[s.n] = p.v[i].name;
			s.seq[s.n] = revcomp(p.v[i].seq, p.v[i].len);
			s.m[s.n] = p.v[i].len;
			s.strand[s.n] = '-';
			s.n++;
		}
	for (int x = 0; x < s.n; x++)
		if (s.m[x] > s.M)
			s.M = s.m[x];
	return s;
}

/* ------------------------------------------------------------------ run */

/* The edit costs (RECORACLE_COSTS): insertion, deletion, substitution;
 * BIGC: off. */
#define BIGC (1 << 24)
static int cI = 1, cD = 1, cS = 1;

static void read_costs(void)
{
	const char *e = getenv("RECORACLE_COSTS");
	char w[3][16];
	if (e == NULL || sscanf(e, "%15s %15s %15s", w[0], w[1], w[2]) != 3)
		return;
	int *c[3] = { &cI, &cD, &cS };
	for (int i = 0; i < 3; i++)
		*c[i] = !strcmp(w[i], "off") ? BIGC : atoi(w[i]);
}

static int wadd(int v, int c)
{
	return v >= BIGC || c >= BIGC ? BIGC : v + c;
}

/* C[0..len]: Sellers' free-start edit distance of pat ending at each e. */
static void sellers(const char *pat, int m, const char *t, int len, int *C)
{
	int *D = xmalloc(sizeof *D * (size_t)(m + 1));
	D[0] = 0;
	for (int i = 1; i <= m; i++)
		D[i] = wadd(D[i - 1], cD);
	C[0] = D[m];
	for (int e = 1; e <= len; e++) {
		int c = (unsigned char)t[e - 1];
		int diag = D[0]; /* D_prev[i-1] */
		D[0] = 0;
		for (int i = 1; i <= m; i++) {
			int up = D[i]; /* D_prev[i] */
			int v = matches(c, (unsigned char)pat[i - 1]) ? diag : wadd(diag, cS);
			if (wadd(up, cI) < v)
				v = wadd(up, cI);
			if (wadd(D[i - 1], cD) < v)
				v = wadd(D[i - 1], cD);
			diag = up;
			D[i] = v;
		}
		C[e] = D[m];
	}
	free(D);
}

/* Global edit distance of pat and t[e-l, e) for l = 0..lmax; returns the
 * smallest l whose distance is want, or -1. */
static int start_len(const char *pat, int m, const char *t, int e, int lmax, int want)
{
	int *G = xmalloc(sizeof *G * (size_t)(m + 1));
	int found = -1;
	/* G[i]: distance of pat[m-i, m) and t[e-l, e) */
	G[0] = 0;
	for (int i = 1; i <= m; i++)
		G[i] = wadd(G[i - 1], cD);
	if (G[m] == want)
		found = 0;
	for (int l = 1; l <= lmax && found < 0; l++) {
		int c = (unsigned char)t[e - l];
		int diag = G[0];
		G[0] = wadd(G[0], cI);
		for (int i = 1; i <= m; i++) {
			int up = G[i];
			int v = matches(c, (unsigned char)pat[m - i]) ? diag : wadd(diag, cS);
			if (wadd(up, cI) < v)
				v = wadd(up, cI);
			if (wadd(G[i - 1], cD) < v)
				v = wadd(G[i - 1], cD);
			diag = up;
			G[i] = v;
		}
		if (G[m] == want)
			found = l;
	}
	free(G);
	return found;
}

static int is_site(const int *C, int len, int e, int K, int L)
{
	if (C[e] > K || C[e - 1] <= C[e])
		return 0;
	int hi = e + L < len ? e + L : len;
	for (int j = e + 1; j <= hi; j++)
		if (C[j] != C[e])
			return C[j] > C[e];
	return 1;
}

static int cmd_run(int K, const char *strand, const char *pats, const char *file)
{
	PatSet s = load_patterns(pats, strand);
	Recs r = parse_records(file);
	int L = s.M + K + 2, rows = 0;
	for (int ri = 0; ri < r.n; ri++) {
		const Rec *rec = &r.v[ri];
		int len = rec->len;
		int **C = xmalloc(sizeof *C * (size_t)s.n);
		for (int x = 0; x < s.n; x++) {
			C[x] = xmalloc(sizeof **C * (size_t)(len + 1));
			sellers(s.seq[x], s.m[x], rec->seq, len, C[x]);
		}
		for (int e = 1; e <= len; e++)
			for (int x = 0; x < s.n; x++) {
				if (!is_site(C[x], len, e, K, L))
					continue;
				int m = s.m[x];
				int lmax = e < m + K ? e : m + K;
				int l = start_len(s.seq[x], m, rec->seq, e, lmax, C[x][e]);
				if (l < 0)
					die("internal: no start for %s at %s:%d", s.id[x], rec->name, e);
				if (!rows++)
					fputs("pat_id\ttext_id\tcost\tstrand\tstart\tend\tmatch_region\n", stdout);
				printf("%s\t%s\t%d\t%c\t%d\t%d\t%.*s\n", s.id[x], rec->name, C[x][e],
				       s.strand[x], e - l, e, l, rec->seq + e - l);
			}
		for (int x = 0; x < s.n; x++)
			free(C[x]);
		free(C);
	}
	return rows ? 0 : 1;
}

/* ------------------------------------------------------------- validate */

static int cmd_validate(int K, const char *strand, const char *pats)
{
	PatSet s = load_patterns(pats, strand);
	size_t len;
	char *buf = read_file("-", &len);
	int nl, bad = 0;
	Line *l = split_lines(buf, len, &nl);
	for (int li = 0; li < nl; li++) {
		char *line = xstrndup(l[li].p, l[li].n);
		if (li == 0 && !strcmp(line, "pat_id\ttext_id\tcost\tstrand\tstart\tend\tmatch_region\tcigar")) {
			free(line);
			continue;
		}
		char *f[9];
		int nf = 0;
		char *p = line;
		for (;;) {
			if (nf < 9)
				f[nf] = p;
			nf++;
			char *t = strchr(p, '\t');
			if (!t)
				break;
			*t = 0;
			p = t + 1;
		}
#define BAD(...) do { fprintf(stderr, "validate: line %d: ", li + 1); \
		fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); bad++; goto next; } while (0)
		if (nf != 8)
			BAD("%d fields, not 8", nf);
		{
			int x = -1;
			for (int i = 0; i < s.n; i++)
				if (!strcmp(s.id[i], f[0]) && f[3][0] == s.strand[i] && !f[3][1])
					x = i;
			if (x < 0)
				BAD("no pattern %s on strand %s", f[0], f[3]);
			char *end;
			long cost = strtol(f[2], &end, 10);
			if (*end || end == f[2] || cost < 0 || cost > K)
				BAD("bad cost %s", f[2]);
			long st = strtol(f[4], &end, 10);
			if (*end || end == f[4] || st < 0)
				BAD("bad start %s", f[4]);
			long en = strtol(f[5], &end, 10);
			if (*end || end == f[5] || en < st)
				BAD("bad end %s", f[5]);
			const char *reg = f[6], *pat = s.seq[x];
			long rl = (long)strlen(reg), m = s.m[x];
			if (rl != en - st)
				BAD("match_region length %ld != end-start %ld", rl, en - st);
			long ti = 0, pi = 0, edits = 0;
			const char *c = f[7];
			if (!*c)
				BAD("empty cigar");
			while (*c) {
				if (!isdigit((unsigned char)*c))
					BAD("cigar %s: no count", f[7]);
				long n = strtol(c, &end, 10);
				c = end;
				char op = *c++;
				if (n <= 0)
					BAD("cigar %s: count %ld", f[7], n);
				for (long k = 0; k < n; k++) {
					switch (op) {
					case '=':
					case 'X':
						if (ti >= rl || pi >= m)
							BAD("cigar %s overruns pattern or region", f[7]);
						if ((op == '=') != matches((unsigned char)reg[ti], (unsigned char)pat[pi]))
							BAD("cigar %s: '%c' at pattern %ld (%c) vs text %ld (%c)",
							    f[7], op, pi, pat[pi], ti, reg[ti]);
						if (op == 'X')
							edits += cS;
						ti++, pi++;
						break;
					case 'I':
						if (ti >= rl)
							BAD("cigar %s overruns region", f[7]);
						ti++, edits += cI;
						break;
					case 'D':
						if (pi >= m)
							BAD("cigar %s overruns pattern", f[7]);
						pi++, edits += cD;
						break;
					default:
						BAD("cigar %s: op '%c'", f[7], op);
					}
				}
			}
			if (ti != rl || pi != m)
				BAD("cigar %s consumes %ld/%ld pattern and %ld/%ld region", f[7], pi, m, ti, rl);
			if (edits != cost)
				BAD("cigar %s has %ld edits, cost %ld", f[7], edits, cost);
		}
next:
		free(line);
#undef BAD
	}
	free(l);
	free(buf);
	return bad ? 1 : 0;
}

/* ------------------------------------------------------------------ gen */

static uint64_t rng_state;

static uint64_t rnd64(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform in [0, n). */
static int rn(int n)
{
	return n <= 1 ? 0 : (int)(rnd64() % (uint64_t)n);
}

static int coin(int n) /* true with probability 1/n */
{
	return rn(n) == 0;
}

static const char ACGT[] = "ACGT";
static const char IUPAC_AMB[] = "RYSWKMBDHVN";

/* A random base the pattern char stands for. */
static char concrete(int c)
{
	unsigned set = pat_set(c);
	if (!set)
		return 'A';
	for (;;) {
		int b = rn(4);
		if (set & (1u << b))
			return ACGT[b];
	}
}

typedef struct {
	char *p;
	int n, cap;
} Buf;

static void bput(Buf *b, char c)
{
	if (b->n + 1 >= b->cap)
		b->p = xrealloc(b->p, (size_t)(b->cap = b->cap ? 2 * b->cap : 256));
	b->p[b->n++] = c;
	b->p[b->n] = 0;
}

static void bputs(Buf *b, const char *s)
{
	while (*s)
		bput(b, *s++);
}

static void beol(Buf *b, int crlf)
{
	if (crlf)
		bput(b, '\r');
	bput(b, '\n');
}

static void write_file(const char *dir, const char *name, const Buf *b)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "wb");
	if (!f)
		die("%s: %s", path, strerror(errno));
	if (b->n && fwrite(b->p, 1, (size_t)b->n, f) != (size_t)b->n)
		die("%s: write error", path);
	if (fclose(f))
		die("%s: write error", path);
}

/* Write seq as FASTA sequence lines of width w (0: one line). */
static void put_wrapped(Buf *b, const char *seq, int n, int w, int crlf)
{
	if (w <= 0)
		w = n > 0 ? n : 1;
	for (int i = 0; i < n; i += w) {
		for (int j = i; j < n && j < i + w; j++)
			bput(b, seq[j]);
		beol(b, crlf);
	}
}

static int cmd_gen(unsigned long long seed, const char *dir)
{
	rng_state = seed * 0x2545f4914f6cdd1dull + 12345;
	(void)rnd64();

	/* patterns */
	int npat = 1 + rn(4);
	int plen[4], minlen = 1 << 30;
	char *pat[4];
	for (int i = 0; i < npat; i++) {
		plen[i] = coin(3) ? 3 + rn(38) : 3 + rn(12);
		if (plen[i] < minlen)
			minlen = plen[i];
	}
	int kmax = minlen - 1 < 4 ? minlen - 1 : 4;
	int K = rn(kmax + 1);
	Buf pb = {0};
	for (int i = 0; i < npat; i++) {
		int m = plen[i];
		int amb = coin(3), lower = rn(6);
		pat[i] = xmalloc((size_t)m + 1);
		for (int j = 0; j < m; j++) {
			char c = amb && coin(6) ? IUPAC_AMB[rn((int)sizeof IUPAC_AMB - 1)] : ACGT[rn(4)];
			if (lower == 0 || (lower == 1 && coin(2)))
				c = (char)tolower(c);
			pat[i][j] = c;
		}
		pat[i][m] = 0;
		char h[64];
		snprintf(h, sizeof h, ">p%d%s", i + 1, coin(4) ? " some pattern" : "");
		bputs(&pb, h);
		bput(&pb, '\n');
		put_wrapped(&pb, pat[i], m, coin(3) ? 1 + rn(m) : 0, 0);
	}
	write_file(dir, "pats.fa", &pb);

	/* text */
	int fastq = coin(2), crlf = coin(4), nrec = 1 + rn(6);
	int filewrap = coin(8) ? 1 : coin(2) ? 2 + rn(79) : 0;
	Buf tb = {0};
	for (int r = 0; r < nrec; r++) {
		int len = coin(4) ? 1 + rn(3000) : coin(3) ? 1 + rn(20) : 1 + rn(200);
		char *s = xmalloc((size_t)len + 1);
		if (coin(6)) { /* repetitive */
			char unit[8];
			int ul;
			switch (rn(4)) {
			case 0: strcpy(unit, "A"); ul = 1; break;
			case 1: strcpy(unit, "AC"); ul = 2; break;
			case 2: strcpy(unit, "ACG"); ul = 3; break;
			default:
				ul = 1 + rn(5);
				for (int j = 0; j < ul; j++)
					unit[j] = ACGT[rn(4)];
				unit[ul] = 0;
			}
			for (int j = 0; j < len; j++)
				s[j] = unit[j % ul];
			int muts = coin(2) ? rn(4) : 0;
			for (int j = 0; j < muts; j++)
				s[rn(len)] = ACGT[rn(4)];
		} else {
			for (int j = 0; j < len; j++)
				s[j] = ACGT[rn(4)];
		}
		s[len] = 0;
		if (coin(4)) { /* N runs */
			int runs = 1 + rn(3);
			for (int q = 0; q < runs; q++) {
				int a = rn(len), l = 1 + rn(20);
				char nc = coin(3) ? 'n' : 'N';
				for (int j = a; j < len && j < a + l; j++)
					s[j] = nc;
			}
		}
		if (coin(6)) { /* rare other IUPAC letters */
			int q = 1 + rn(3);
			for (int j = 0; j < q; j++)
				s[rn(len)] = IUPAC_AMB[rn((int)sizeof IUPAC_AMB - 1)];
		}
		if (coin(12)) { /* rare bytes that are no IUPAC code */
			static const char odd[] = "UuXx-*.?0";
			int q = 1 + rn(3);
			for (int j = 0; j < q; j++)
				s[rn(len)] = odd[rn((int)sizeof odd - 1)];
		}
		int plants = rn(6);
		for (int q = 0; q < plants; q++) {
			int i = rn(npat), m = plen[i];
			char *src = coin(2) ? revcomp(pat[i], m) : xstrndup(pat[i], (size_t)m);
			char occ[128];
			int n = 0;
			for (int j = 0; j < m; j++)
				occ[n++] = coin(12) ? src[j] : concrete(src[j]);
			free(src);
			int edits = coin(6) ? K + 1 : rn(K + 1);
			for (int d = 0; d < edits && n > 1; d++) {
				int at = rn(n);
				switch (rn(3)) {
				case 0:
					occ[at] = ACGT[rn(4)];
					break;
				case 1:
					memmove(occ + at + 1, occ + at, (size_t)(n - at));
					occ[at] = ACGT[rn(4)];
					n++;
					break;
				default:
					memmove(occ + at, occ + at + 1, (size_t)(n - at - 1));
					n--;
				}
			}
			int lc = coin(5);
			if (n > len)
				continue;
			int at = rn(len - n + 1);
			for (int j = 0; j < n; j++)
				s[at + j] = lc ? (char)tolower(occ[j]) : occ[j];
		}
		if (coin(3)) { /* lower-case runs */
			int runs = 1 + rn(3);
			for (int q = 0; q < runs; q++) {
				int a = rn(len), l = 1 + rn(len);
				for (int j = a; j < len && j < a + l; j++)
					s[j] = (char)tolower(s[j]);
			}
		}

		/* now and then a record with no sequence (a read trimmed to
		 * nothing; not the last, whose line end may be cut off) */
		if (r < nrec - 1 && coin(10)) {
			len = 0;
			s[0] = 0;
		}
		char h[96];
		int desc = rn(4);
		snprintf(h, sizeof h, "%cr%d%s", fastq ? '@' : '>', r + 1,
			 desc == 0 ? " a description" : desc == 1 ? "\tx=1" : "");
		bputs(&tb, h);
		beol(&tb, crlf);
		if (fastq) {
			bputs(&tb, s);
			beol(&tb, crlf);
			bputs(&tb, coin(3) ? "+" : (h[0] = '+', h));
			beol(&tb, crlf);
			for (int j = 0; j < len; j++)
				bput(&tb, (char)('!' + rn('J' - '!' + 1)));
			beol(&tb, crlf);
		} else {
			int w = coin(4) ? (coin(3) ? 1 : coin(2) ? 2 + rn(79) : 0) : filewrap;
			put_wrapped(&tb, s, len, w, crlf);
		}
		free(s);
	}
	/* no final line end (RECORACLE_FINAL_EOL set: always one) */
	const char *eol = getenv("RECORACLE_FINAL_EOL");
	if (coin(8) && !(eol && *eol)) {
		tb.n -= crlf ? 2 : 1;
		tb.p[tb.n] = 0;
	}
	const char *tname = fastq ? "text.fq" : "text.fa";
	write_file(dir, tname, &tb);
	printf("%d %s/%s\n", K, dir, tname);
	for (int i = 0; i < npat; i++)
		free(pat[i]);
	free(pb.p);
	free(tb.p);
	return 0;
}

/* ----------------------------------------------------------------- main */

static int parse_k(const char *s)
{
	char *end;
	long k = strtol(s, &end, 10);
	if (*end || end == s || k < 0 || k > 1000)
		die("bad K %s", s);
	return (int)k;
}

int main(int argc, char **argv)
{
	read_costs();
	if (argc == 4 && !strcmp(argv[1], "gen"))
		return cmd_gen(strtoull(argv[2], NULL, 10), argv[3]);
	if (argc == 6 && !strcmp(argv[1], "run"))
		return cmd_run(parse_k(argv[2]), argv[3], argv[4], argv[5]);
	if (argc == 5 && !strcmp(argv[1], "validate"))
		return cmd_validate(parse_k(argv[2]), argv[3], argv[4]);
	fputs("usage: recoracle gen SEED DIR\n"
	      "       recoracle run K STRAND PATS FILE\n"
	      "       recoracle validate K STRAND PATS < TSV\n", stderr);
	return 2;
}
