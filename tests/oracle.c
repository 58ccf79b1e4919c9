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
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct pat {
    unsigned char *s;
    size_t n;
};

static struct pat *pats;
static size_t npats, cappats;
static int opt_i, opt_v, opt_z, opt_c, opt_n;
static long opt_k = -1;

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

static unsigned char fold(unsigned char c)
{
    return (opt_i && c >= 'A' && c <= 'Z') ? (unsigned char)(c - 'A' + 'a') : c;
}

static void add_pattern(const unsigned char *s, size_t n)
{
    if (npats == cappats) {
        cappats = cappats ? 2 * cappats : 8;
        pats = xrealloc(pats, cappats * sizeof *pats);
    }
    pats[npats].s = xrealloc(NULL, n);
    if (n)
        memcpy(pats[npats].s, s, n);
    pats[npats].n = n;
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

static int record_matches_pattern(const unsigned char *t, size_t m, const struct pat *p)
{
    size_t n = p->n, i, j, w = m + 1;
    if ((unsigned long)opt_k >= n)
        return 1; /* D[n][0] = n <= K */
    if ((n + 1) * w > Dcap) {
        Dcap = (n + 1) * w;
        D = xrealloc(D, Dcap * sizeof *D);
    }
#define AT(i, j) D[(i) * w + (j)]
    for (j = 0; j <= m; j++)
        AT(0, j) = 0;
    for (i = 1; i <= n; i++)
        AT(i, 0) = (unsigned)i;
    for (j = 1; j <= m; j++) {
        unsigned char c = fold(t[j - 1]);
        for (i = 1; i <= n; i++) {
            unsigned best = AT(i - 1, j - 1) + (fold(p->s[i - 1]) != c);
            if (AT(i - 1, j) + 1 < best)
                best = AT(i - 1, j) + 1;
            if (AT(i, j - 1) + 1 < best)
                best = AT(i, j - 1) + 1;
            AT(i, j) = best;
        }
        if (AT(n, j) <= (unsigned long)opt_k)
            return 1;
    }
#undef AT
    return 0;
}

static int record_selected(const unsigned char *t, size_t m)
{
    size_t p;
    int hit = 0;
    for (p = 0; p < npats && !hit; p++)
        hit = record_matches_pattern(t, m, &pats[p]);
    return hit != opt_v;
}

static void usage(void)
{
    fputs("usage: oracle [-i] [-v] [-z] [-c] [-n] -k K [-e PATTERN]... "
          "[-f PATFILE]... [PATTERN] [FILE]\n", stderr);
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

int main(int argc, char **argv)
{
    int a, have_pattern_opt = 0;
    const char *file = NULL;
    char **pos = xrealloc(NULL, (size_t)argc * sizeof *pos);
    int npos = 0, only_operands = 0;

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
        for (arg++; *arg; arg++) {
            const char *val;
            switch (*arg) {
            case 'i': opt_i = 1; continue;
            case 'v': opt_v = 1; continue;
            case 'z': opt_z = 1; continue;
            case 'c': opt_c = 1; continue;
            case 'n': opt_n = 1; continue;
            case 'k': case 'e': case 'f':
                if (arg[1])
                    val = arg + 1;
                else if (a + 1 < argc)
                    val = argv[++a];
                else
                    usage();
                if (*arg == 'k') {
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
    if (opt_k < 0)
        usage();
    a = 0;
    if (!have_pattern_opt) {
        if (npos < 1)
            usage();
        add_patterns((const unsigned char *)pos[0], strlen(pos[0]), 0);
        a = 1;
    }
    if (npos - a > 1)
        usage();
    if (npos - a == 1)
        file = pos[a];

    {
        FILE *in = stdin;
        size_t len, start = 0, i;
        unsigned long lineno = 0, count = 0;
        unsigned char *text;
        unsigned char term = opt_z ? '\0' : '\n';

        if (file && strcmp(file, "-")) {
            in = fopen(file, "rb");
            if (!in)
                die(strerror(errno), file);
        }
        text = read_all(in, &len);
        if (in != stdin)
            fclose(in);
        for (i = 0; i < len; i = start) {
            size_t end = i;
            while (end < len && text[end] != term)
                end++;
            lineno++;
            if (record_selected(text + i, end - i)) {
                count++;
                if (!opt_c) {
                    if (opt_n)
                        printf("%lu:", lineno);
                    fwrite(text + i, 1, end - i, stdout);
                    putchar(term);
                }
            }
            start = end + 1; /* past the terminator (or past len) */
        }
        if (opt_c)
            printf("%lu\n", count);
        free(text);
        if (fflush(stdout) || ferror(stdout))
            die("write error", NULL);
        return count ? 0 : 1;
    }
}
