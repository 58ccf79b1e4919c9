/* oracle.c - naive dynamic-programming oracle for agrep-gpu's line selection.
 *
 * usage: oracle [-i] [-v] [-z] [-c] [-n] -k K [-e PATTERN]... [-f PATFILE]...
 *               [PATTERN] [FILE]
 *
 * Reads FILE (or stdin when FILE is absent or "-") and prints what agrep-gpu
 * prints with the same flags for a single file:
 *   - a record is the bytes up to '\n' (NUL with -z); a last record without a
 *     terminator is still a record, printed with the terminator added;
 *   - a record is selected when, for some pattern P of length n, Sellers'
 *     approximate substring distance  min_j D[n][j] <= K, where
 *       D[0][j] = 0, D[i][0] = i,
 *       D[i][j] = min(D[i-1][j-1] + (P[i-1] != T[j-1]),
 *                     D[i-1][j] + 1, D[i][j-1] + 1);
 *     (so K >= n selects every record, the empty one too; an empty pattern
 *     selects every record);
 *   - -i folds ASCII case (bytes 'A'..'Z' only), -v inverts the selection,
 *     -n prefixes "N:", -c prints only the number of selected records.
 * Patterns: each -e PATTERN and the positional PATTERN are split at '\n'
 * (as grep does); a -f PATFILE holds one pattern per line (a final '\n' does
 * not add an empty pattern; an empty file adds none).
 * Exit status: 0 when a record was selected, 1 when none, 2 on error.
 *
 * Deliberately simple: the full (n+1) x (m+1) table is computed per record and
 * pattern, with no cleverness beyond stopping when a column reaches <= K.
 * Plain C99, no dependency.
 *
 * Extensions (additive; without them the behaviour above is unchanged):
 *   oracle [-w] [-x] [--show-cost] [--best-match] [other flags above]
 *          [PATTERN] [FILE]...
 *   - the least cost of a record is  min over patterns P and over allowed
 *     substrings S = T[s, e) of lev(P, S)  (plain Levenshtein distance, unit
 *     costs); without -w/-x every substring is allowed (Sellers' min_j D[n][j]);
 *   - -w: S must start at the record start or after a non-word byte, and end
 *     at the record end or before a non-word byte (word bytes: ASCII letters,
 *     digits, '_'); computed naively: one full DP of P against T[s..] for
 *     every allowed start s, read at every allowed end e;
 *   - -x: S is the whole record: lev(P, T);
 *   - a record is selected when its least cost is <= K (with -w/-x as well);
 *   - --show-cost: prefix "COST:" after the -n field (no -v, no -c);
 *   - --best-match: select only the records whose least cost (<= K when -k is
 *     given; any cost without -k) is the minimum over all records of all
 *     files (ties all printed);
 *   - several FILEs: each output line is prefixed "FILE:" (-c: "FILE:COUNT"),
 *     as grep does;
 *   - -k may be left out: K = 0 (as agrep-gpu), or no limit with --best-match.
 *   - -j N is accepted and ignored (agrep-gpu's worker threads).
 *   - --insert-cost=N, --delete-cost=N, --substitute-cost=N (N, or "off"):
 *     the weights of D's three terms (a text byte not in P, a byte of P not
 *     in the text, a substitution), 1 each by default; a cost is the sum.
 *   - --utf8: distance over characters.  Pattern and records are decoded
 *     into code points (a well-formed UTF-8 sequence is one; any other
 *     byte is a character of its own, equal only to the same byte); -i
 *     folds with towlower(towupper(c)) in C.UTF-8; -w's word characters
 *     are iswalnum() ones and '_'.
 */
#include <errno.h>
#include <locale.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wctype.h>

/* A character: a byte, or with --utf8 a code point (BADBYTE | byte for a
 * byte that begins no well-formed sequence). */
typedef uint32_t unit;
#define BADBYTE 0x80000000u

struct pat {
    unit *s;
    size_t n;
    unsigned char *raw;     /* as given; s is made once the options are read */
    size_t rawn;
};

static struct pat *pats;
static size_t npats, cappats;
static int opt_i, opt_v, opt_z, opt_c, opt_n;
static long opt_k = -1;
static unsigned long kmax = 0x7ffffffeUL; /* K, or no limit (--best-match without -k) */
static int opt_w, opt_x, opt_cost, opt_best, opt_u8;

/* The edit costs: insertion (a text unit not in P), deletion, substitution;
 * BIG: off (never reached). */
#define BIG 0x3fffffffu
static unsigned cI = 1, cD = 1, cS = 1;

static unsigned wadd(unsigned v, unsigned c)
{
    unsigned long r = (unsigned long)v + c;
    return r > BIG ? BIG : (unsigned)r;
}

static void die(const char *msg, const char *arg)
{
    fprintf(stderr, "oracle: %s%s%s\n", msg, arg ? ": " : "", arg ? arg : "");
    exit(2);
}

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        die("out of memory", NULL);
    return q;
}

static unit fold(unit c)
{
    if (opt_u8)
        return opt_i && !(c & BADBYTE) ? (unit)towlower(towupper((wint_t)c)) : c;
    return (opt_i && c >= 'A' && c <= 'Z') ? c - 'A' + 'a' : c;
}

/* The characters of s[0, len) (malloc'd; their number in *n).  UTF-8: the
 * lead byte gives the length; the sequence counts when its continuation
 * bytes are there and it is neither overlong, a surrogate nor past
 * U+10FFFF; otherwise its first byte alone is a character. */
static unit *to_units(const unsigned char *s, size_t len, size_t *n)
{
    static const unit least[5] = { 0, 0, 0x80, 0x800, 0x10000 };
    unit *u = xrealloc(NULL, (len ? len : 1) * sizeof *u);
    size_t i = 0, k = 0, l, j;

    while (i < len) {
        unit c = s[i];
        l = !opt_u8 || c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 :
            (c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 ? 4 : 0;
        if (l > 1) {
            c &= 0x3f >> (l - 1);
            for (j = 1; j < l && i + j < len && (s[i + j] & 0xc0) == 0x80; j++)
                c = c << 6 | (s[i + j] & 0x3f);
            if (j < l || c < least[l] || (c >= 0xd800 && c <= 0xdfff) || c > 0x10ffff)
                l = 0;
        }
        if (l == 0) {
            c = BADBYTE | s[i];
            l = 1;
        }
        u[k++] = c;
        i += l;
    }
    *n = k;
    return u;
}

static void add_pattern(const unsigned char *s, size_t n)
{
    if (npats == cappats) {
        cappats = cappats ? 2 * cappats : 8;
        pats = xrealloc(pats, cappats * sizeof *pats);
    }
    pats[npats].raw = xrealloc(NULL, n);
    if (n)
        memcpy(pats[npats].raw, s, n);
    pats[npats].rawn = n;
    npats++;
}

/* Split at '\n'; if drop_last_empty, a trailing '\n' ends the last pattern
 * rather than starting an empty one (pattern-file convention). */
static void add_patterns(const unsigned char *s, size_t len, int drop_last_empty)
{
    size_t start = 0, i;
    if (drop_last_empty && len == 0)
        return;
    for (i = 0; i <= len; i++) {
        if (i == len || s[i] == '\n') {
            if (i == len && drop_last_empty && start == len)
                break;
            add_pattern(s + start, i - start);
            start = i + 1;
        }
    }
}

static unsigned char *read_all(FILE *f, size_t *lenp)
{
    size_t cap = 1 << 16, len = 0, r;
    unsigned char *buf = xrealloc(NULL, cap);
    while ((r = fread(buf + len, 1, cap - len, f)) > 0) {
        len += r;
        if (len == cap) {
            cap *= 2;
            buf = xrealloc(buf, cap);
        }
    }
    if (ferror(f))
        die("read error", strerror(errno));
    *lenp = len;
    return buf;
}

/* Distance table, reused between records; grows as needed. */
static unsigned *D;
static size_t Dcap;

static int record_matches_pattern(const unit *t, size_t m, const struct pat *p)
{
    size_t n = p->n, i, j, w = m + 1;
    if ((unsigned long)opt_k >= (unsigned long)cD * n)
        return 1; /* D[n][0] = n * cD <= K */
    if ((n + 1) * w > Dcap) {
        Dcap = (n + 1) * w;
        D = xrealloc(D, Dcap * sizeof *D);
    }
#define AT(i, j) D[(i) * w + (j)]
    for (j = 0; j <= m; j++)
        AT(0, j) = 0;
    for (i = 1; i <= n; i++)
        AT(i, 0) = wadd(AT(i - 1, 0), cD);
    for (j = 1; j <= m; j++) {
        unit c = fold(t[j - 1]);
        for (i = 1; i <= n; i++) {
            unsigned best = fold(p->s[i - 1]) != c ?
                wadd(AT(i - 1, j - 1), cS) : AT(i - 1, j - 1);
            if (wadd(AT(i - 1, j), cD) < best)
                best = wadd(AT(i - 1, j), cD);
            if (wadd(AT(i, j - 1), cI) < best)
                best = wadd(AT(i, j - 1), cI);
            AT(i, j) = best;
        }
        if (AT(n, j) <= (unsigned long)opt_k)
            return 1;
    }
#undef AT
    return 0;
}

static int record_selected(const unit *t, size_t m)
{
    size_t p;
    int hit = 0;
    for (p = 0; p < npats && !hit; p++)
        hit = record_matches_pattern(t, m, &pats[p]);
    return hit != opt_v;
}

/* ---- least cost (--show-cost, --best-match, -w, -x) ---- */

#define NOCOST 0x7fffffffUL

static int isword(unit c)
{
    if (opt_u8 && c >= 0x80)
        return !(c & BADBYTE) && iswalnum((wint_t)c);
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '_';
}

/* may a matched substring start at offset s / end at offset e of t[0, m)? */
static int start_allowed(const unit *t, size_t s)
{
    if (opt_x)
        return s == 0;
    if (opt_w)
        return s == 0 || !isword(t[s - 1]);
    return 1;
}

static int end_allowed(const unit *t, size_t m, size_t e)
{
    if (opt_x)
        return e == m;
    if (opt_w)
        return e == m || !isword(t[e]);
    return 1;
}

/* Sellers: min_j D[n][j] over the whole record, no early stop. */
static unsigned long sellers_cost(const unit *t, size_t m, const struct pat *p)
{
    size_t n = p->n, i, j;
    unsigned long best;
    unsigned *col = xrealloc(NULL, (n + 1) * sizeof *col);
    col[0] = 0;
    for (i = 1; i <= n; i++)
        col[i] = wadd(col[i - 1], cD);
    best = col[n];
    for (j = 1; j <= m; j++) {
        unsigned diag = col[0], up;
        unit c = fold(t[j - 1]);
        col[0] = 0;
        for (i = 1; i <= n; i++) {
            unsigned v = fold(p->s[i - 1]) != c ? wadd(diag, cS) : diag;
            if (wadd(col[i], cI) < v)
                v = wadd(col[i], cI);
            if (wadd(col[i - 1], cD) < v)
                v = wadd(col[i - 1], cD);
            up = col[i];
            col[i] = v;
            diag = up;
        }
        if (col[n] < best)
            best = col[n];
    }
    free(col);
    return best;
}

/* -w / -x: for every allowed start s, the full DP of P against t[s..]
 * (C[i] = lev(P[0,i), t[s,e)) for e = s, s+1, ...), read at allowed ends.
 * The only shortcuts: a column whose minimum is not below the best cost
 * found cannot lead to a lower one (column minima never decrease), and a cost
 * above K is never printed nor selects, so costs above K all read as K + 1. */
static unsigned long anchored_cost(const unit *t, size_t m, const struct pat *p)
{
    size_t n = p->n, i, s, e;
    unsigned long best = kmax + 1;
    unsigned *col = xrealloc(NULL, (n + 1) * sizeof *col);
    for (s = 0; s <= m; s++) {
        if (!start_allowed(t, s))
            continue;
        col[0] = 0;
        for (i = 1; i <= n; i++)
            col[i] = wadd(col[i - 1], cD);
        if (end_allowed(t, m, s) && col[n] < best)
            best = col[n];
        for (e = s + 1; e <= m; e++) {
            unsigned diag = col[0], up, cmin;
            unit c = fold(t[e - 1]);
            col[0] = wadd(col[0], cI);
            cmin = col[0];
            for (i = 1; i <= n; i++) {
                unsigned v = fold(p->s[i - 1]) != c ? wadd(diag, cS) : diag;
                if (wadd(col[i], cI) < v)
                    v = wadd(col[i], cI);
                if (wadd(col[i - 1], cD) < v)
                    v = wadd(col[i - 1], cD);
                up = col[i];
                col[i] = v;
                diag = up;
                if (v < cmin)
                    cmin = v;
            }
            if (end_allowed(t, m, e) && col[n] < best)
                best = col[n];
            if (cmin >= best)
                break;
        }
    }
    free(col);
    return best;
}

/* least cost of a record over all patterns (with -w/-x: K + 1 for any cost
 * above K) */
static unsigned long record_cost(const unit *t, size_t m)
{
    size_t p;
    unsigned long best = NOCOST, c;
    for (p = 0; p < npats; p++) {
        c = (opt_w || opt_x) ? anchored_cost(t, m, &pats[p]) : sellers_cost(t, m, &pats[p]);
        if (c < best)
            best = c;
    }
    return best;
}

static void usage(void)
{
    fputs("usage: oracle [-i] [-v] [-z] [-c] [-n] [-w] [-x] [--show-cost] "
          "[--best-match] [--utf8] -k K\n"
          "              [-e PATTERN]... [-f PATFILE]... [PATTERN] [FILE]...\n", stderr);
    exit(2);
}

static long parse_k(const char *s)
{
    char *end;
    long k;
    errno = 0;
    k = strtol(s, &end, 10);
    if (errno || end == s || *end || k < 0)
        die("bad -k value", s);
    return k;
}

/* One input file, read whole. */
struct input {
    const char *name;
    unsigned char *text;
    size_t len;
};

/* Calls fn for every record of in: (record, length, line number). */
#define FOR_RECORDS(in, rec, m, lineno, BODY)                                  \
    do {                                                                       \
        size_t st_ = 0, i_, en_;                                               \
        unsigned char term_ = opt_z ? '\0' : '\n';                             \
        (lineno) = 0;                                                          \
        for (i_ = 0; i_ < (in)->len; i_ = st_) {                               \
            en_ = i_;                                                          \
            while (en_ < (in)->len && (in)->text[en_] != term_)                \
                en_++;                                                         \
            (lineno)++;                                                        \
            (rec) = (in)->text + i_;                                           \
            (m) = en_ - i_;                                                    \
            BODY;                                                              \
            st_ = en_ + 1;                                                     \
        }                                                                      \
    } while (0)

int main(int argc, char **argv)
{
    int a, have_pattern_opt = 0, nfiles, f;
    char **pos = xrealloc(NULL, (size_t)argc * sizeof *pos);
    int npos = 0, only_operands = 0;
    struct input *in;
    unsigned long total = 0, bestcost = NOCOST;
    int need_cost;

    for (a = 1; a < argc; a++) {
        const char *arg = argv[a];
        if (only_operands || arg[0] != '-' || arg[1] == '\0') {
            pos[npos++] = argv[a];
            continue;
        }
        if (!strcmp(arg, "--")) {
            only_operands = 1;
            continue;
        }
        if (!strcmp(arg, "--show-cost")) {
            opt_cost = 1;
            continue;
        }
        if (!strncmp(arg, "--insert-cost=", 14) ||
            !strncmp(arg, "--delete-cost=", 14) ||
            !strncmp(arg, "--substitute-cost=", 18)) {
            const char *v = strchr(arg, '=') + 1;
            unsigned c = !strcmp(v, "off") ? BIG : (unsigned)atoi(v);
            *(arg[2] == 'i' ? &cI : arg[2] == 'd' ? &cD : &cS) = c;
            continue;
        }
        if (!strcmp(arg, "--best-match")) {
            opt_best = 1;
            continue;
        }
        if (!strcmp(arg, "--utf8")) {
            opt_u8 = 1;
            if (!setlocale(LC_CTYPE, "C.UTF-8"))
                die("no C.UTF-8 locale", NULL);
            continue;
        }
        if (arg[1] == '-')
            usage();
        for (arg++; *arg; arg++) {
            const char *val;
            switch (*arg) {
            case 'i': opt_i = 1; continue;
            case 'v': opt_v = 1; continue;
            case 'z': opt_z = 1; continue;
            case 'c': opt_c = 1; continue;
            case 'n': opt_n = 1; continue;
            case 'w': opt_w = 1; continue;
            case 'x': opt_x = 1; continue;
            case 'a': continue;	/* binary files as text: all are here */
            case 'k': case 'e': case 'f': case 'j':
                if (arg[1])
                    val = arg + 1;
                else if (a + 1 < argc)
                    val = argv[++a];
                else
                    usage();
                if (*arg == 'j') {
                    /* agrep-gpu's threads: the answer is the same */
                } else if (*arg == 'k') {
                    opt_k = parse_k(val);
                } else if (*arg == 'e') {
                    add_patterns((const unsigned char *)val, strlen(val), 0);
                    have_pattern_opt = 1;
                } else {
                    FILE *pf = fopen(val, "rb");
                    size_t len;
                    unsigned char *buf;
                    if (!pf)
                        die(strerror(errno), val);
                    buf = read_all(pf, &len);
                    fclose(pf);
                    add_patterns(buf, len, 1);
                    free(buf);
                    have_pattern_opt = 1;
                }
                break;
            default:
                usage();
            }
            break; /* an option with a value ends this argument */
        }
    }
    if (opt_k < 0 && !opt_best)
        opt_k = 0; /* as agrep-gpu: exact matching by default */
    if ((opt_cost || opt_best) && opt_v)
        die("--show-cost and --best-match are not defined with -v", NULL);
    if (opt_best && opt_c)
        die("--best-match is not defined with -c", NULL);
    if (opt_k >= 0)
        kmax = (unsigned long)opt_k;
    need_cost = opt_w || opt_x || opt_cost || opt_best;
    a = 0;
    if (!have_pattern_opt) {
        if (npos < 1)
            usage();
        add_patterns((const unsigned char *)pos[0], strlen(pos[0]), 0);
        a = 1;
    }
    for (f = 0; f < (int)npats; f++)
        pats[f].s = to_units(pats[f].raw, pats[f].rawn, &pats[f].n);

    /* Nothing can be selected (no pattern; or -v and only empty
     * patterns, without -w or -x): as grep (-f /dev/null, -v ''), no
     * file is read, nothing printed, exit 1.  (-v of a set some pattern
     * of which every record matches otherwise, '' beside others or one
     * whose deletion costs k or less, reads the files: -c prints 0s, as
     * grep -c -v -e '' -e x.) */
    int all_empty = npats > 0;
    for (f = 0; f < (int)npats; f++)
        all_empty &= pats[f].n == 0;
    if (!opt_best && (npats == 0 ? !opt_v : opt_v && !opt_w && !opt_x &&
        all_empty))
        return 1;
    nfiles = npos - a;
    in = xrealloc(NULL, (size_t)(nfiles ? nfiles : 1) * sizeof *in);
    if (nfiles == 0) {
        in[0].name = "(standard input)";
        in[0].text = read_all(stdin, &in[0].len);
        nfiles = 1;
    } else {
        for (f = 0; f < nfiles; f++) {
            FILE *fp = stdin;
            in[f].name = pos[a + f];
            if (strcmp(pos[a + f], "-")) {
                fp = fopen(pos[a + f], "rb");
                if (!fp)
                    die(strerror(errno), pos[a + f]);
            } else {
                in[f].name = "(standard input)";
            }
            in[f].text = read_all(fp, &in[f].len);
            if (fp != stdin)
                fclose(fp);
        }
    }

    /* --best-match: the least cost (within K when given) over all inputs */
    if (opt_best) {
        for (f = 0; f < nfiles; f++) {
            const unsigned char *rec;
            size_t m;
            unsigned long lineno, c;
            FOR_RECORDS(&in[f], rec, m, lineno, {
                size_t nu;
                unit *u = to_units(rec, m, &nu);
                c = record_cost(u, nu);
                free(u);
                if (c <= kmax && c < bestcost)
                    bestcost = c;
            });
        }
    }

    for (f = 0; f < nfiles; f++) {
        const unsigned char *rec;
        size_t m;
        unsigned long lineno, count = 0, c = 0;
        unsigned char term = opt_z ? '\0' : '\n';
        int sel;
        FOR_RECORDS(&in[f], rec, m, lineno, {
            size_t nu;
            unit *u = to_units(rec, m, &nu);
            if (need_cost) {
                c = record_cost(u, nu);
                sel = c <= kmax;
                if (opt_best)
                    sel = sel && c == bestcost;
                sel = sel != opt_v;
            } else {
                sel = record_selected(u, nu);
            }
            free(u);
            if (sel) {
                count++;
                if (!opt_c) {
                    if (npos - a > 1)
                        printf("%s:", in[f].name);
                    if (opt_n)
                        printf("%lu:", lineno);
                    if (opt_cost)
                        printf("%lu:", c);
                    fwrite(rec, 1, m, stdout);
                    putchar(term);
                }
            }
        });
        if (opt_c) {
            if (npos - a > 1)
                printf("%s:", in[f].name);
            printf("%lu\n", count);
        }
        total += count;
        free(in[f].text);
    }
    if (fflush(stdout) || ferror(stdout))
        die("write error", NULL);
    return total ? 0 : 1;
}
