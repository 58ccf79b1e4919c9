/* cigar.c - checks agrep-gpu --show-edits output against an independent
 * DP (tests/edits.bats).
 *
 * usage: cigar line|part K ICASE PATFILE < OUTPUT
 *
 *   line: OUTPUT from agrep-gpu -n --show-cost --show-edits -k K -f PATFILE
 *         ("LINENO:COST:CIGAR:LINE"): the CIGAR's cost is COST; it aligns a
 *         pattern with the part of LINE that ends leftmost at that least
 *         cost (over the patterns, the first pattern on ties) and starts as
 *         late as possible.
 *   part: OUTPUT from agrep-gpu -o -b --show-edits -k K -f PATFILE
 *         ("OFFSET:CIGAR:PART"): the CIGAR aligns some pattern with PART
 *         exactly, at cost <= K.
 *   Both: applying the CIGAR to the pattern gives the text ('=' equal
 *   bytes, 'X' different ones, 'I' text bytes, 'D' pattern bytes), its cost
 *   is the least edit distance, and it is the alignment of the tie rule:
 *   of all least-cost alignments (enumerated), the one whose operations read
 *   from the end are smallest with '='/'X' < 'D' < 'I'.
 * Prints "N checked, S tie checks skipped"; exit 1 on the first failure.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int icase;
static char *pats[4096];
static size_t npat;

static int eq(unsigned char a, unsigned char b)
{
    return icase ? tolower(a) == tolower(b) : a == b;
}

static int dist(const char *p, size_t n, const char *t, size_t m)
{
    int *d = malloc((n + 1) * (m + 1) * sizeof(int)), r;
    for (size_t i = 0; i <= n; i++)
        for (size_t j = 0; j <= m; j++) {
            int v;
            if (i == 0 || j == 0)
                v = (int)(i + j);
            else {
                v = d[(i - 1) * (m + 1) + j - 1] + !eq(p[i - 1], t[j - 1]);
                if (d[(i - 1) * (m + 1) + j] + 1 < v) v = d[(i - 1) * (m + 1) + j] + 1;
                if (d[i * (m + 1) + j - 1] + 1 < v) v = d[i * (m + 1) + j - 1] + 1;
            }
            d[i * (m + 1) + j] = v;
        }
    r = d[n * (m + 1) + m];
    free(d);
    return r;
}

/* expands a CIGAR into ops; returns the count, or -1 when malformed */
static long expand(const char *cg, char *ops, size_t cap)
{
    size_t k = 0;
    if (strcmp(cg, "*") == 0)
        return 0;
    while (*cg) {
        char *e;
        long r = strtol(cg, &e, 10);
        if (e == cg || r <= 0 || !strchr("=XID", *e) || *e == '\0')
            return -1;
        for (long i = 0; i < r; i++) {
            if (k >= cap) return -1;
            ops[k++] = *e;
        }
        cg = e + 1;
    }
    return (long)k;
}

/* Applies ops to pattern p over text t from 0; returns the text bytes used,
 * or -1 when they do not fit. */
static long apply(const char *ops, long nops, const char *p, size_t n, const char *t, size_t m)
{
    size_t i = 0, j = 0;
    for (long o = 0; o < nops; o++) {
        switch (ops[o]) {
        case '=': if (i >= n || j >= m || !eq(p[i], t[j])) return -1; i++; j++; break;
        case 'X': if (i >= n || j >= m || eq(p[i], t[j])) return -1; i++; j++; break;
        case 'D': if (i >= n) return -1; i++; break;
        case 'I': if (j >= m) return -1; j++; break;
        }
    }
    return i == n ? (long)j : -1;
}

static int cost_of(const char *ops, long nops)
{
    int c = 0;
    for (long o = 0; o < nops; o++) c += ops[o] != '=';
    return c;
}

/* enumeration of all least-cost alignments, keeping the tie rule's pick */
static const char *ep, *et;
static size_t en, em;
static char cur[1024], best[1024];
static long curn, bestn, nodes;
static int rank_(char c) { return c == 'D' ? 1 : c == 'I' ? 2 : 0; }

static void better(void)
{
    /* compare read from the end */
    long a = curn - 1, b = bestn - 1;
    if (bestn < 0) goto take;
    for (; a >= 0 && b >= 0; a--, b--) {
        if (rank_(cur[a]) != rank_(best[b])) {
            if (rank_(cur[a]) < rank_(best[b])) goto take;
            return;
        }
    }
    if (a < 0 && b >= 0) goto take;
    return;
take:
    memcpy(best, cur, (size_t)curn);
    bestn = curn;
}

static void dfs(size_t i, size_t j, int budget)
{
    long dn = (long)(en - i) - (long)(em - j);
    if (++nodes > 2000000 || budget < (dn < 0 ? -dn : dn))
        return;
    if (i == en && j == em) { better(); return; }
    if (i < en && j < em) {
        int x = !eq(ep[i], et[j]);
        cur[curn++] = x ? 'X' : '=';
        dfs(i + 1, j + 1, budget - x);
        curn--;
    }
    if (i < en) { cur[curn++] = 'D'; dfs(i + 1, j, budget - 1); curn--; }
    if (j < em) { cur[curn++] = 'I'; dfs(i, j + 1, budget - 1); curn--; }
}

static int skipped;

/* Checks ops as the alignment of p with t[0, m): optimal and the tie
 * rule's; returns 0 or a message. */
static const char *check(const char *ops, long nops, const char *p, const char *t, size_t m)
{
    size_t n = strlen(p);
    int d = dist(p, n, t, m);
    if (apply(ops, nops, p, n, t, m) != (long)m) return "does not turn the pattern into the text";
    if (cost_of(ops, nops) != d) return "not of least cost";
    if (n + m >= sizeof(cur)) { skipped++; return 0; }
    ep = p; et = t; en = n; em = m; curn = 0; bestn = -1; nodes = 0;
    dfs(0, 0, d);
    if (nodes > 2000000) { skipped++; return 0; }
    if (bestn != nops || memcmp(best, ops, (size_t)nops) != 0) return "not the tie rule's alignment";
    return 0;
}

/* least cost of pattern p ending at each end e of t (Sellers) */
static void ends(const char *p, const char *t, size_t m, int *out)
{
    size_t n = strlen(p);
    int *col = malloc((n + 1) * sizeof(int));
    for (size_t i = 0; i <= n; i++) col[i] = (int)i;
    out[0] = col[n];
    for (size_t j = 1; j <= m; j++) {
        int diag = col[0];
        col[0] = 0;
        for (size_t i = 1; i <= n; i++) {
            int up = col[i], v = diag + !eq(p[i - 1], t[j - 1]);
            if (up + 1 < v) v = up + 1;
            if (col[i - 1] + 1 < v) v = col[i - 1] + 1;
            col[i] = v;
            diag = up;
        }
        out[j] = col[n];
    }
    free(col);
}

int main(int argc, char **argv)
{
    char line[65536], ops[65536];
    FILE *pf;
    long checked = 0;
    int part, k;

    if (argc != 5) { fprintf(stderr, "usage: cigar line|part K ICASE PATFILE\n"); return 2; }
    part = strcmp(argv[1], "part") == 0;
    k = atoi(argv[2]);
    icase = atoi(argv[3]);
    if (!(pf = fopen(argv[4], "r"))) { perror(argv[4]); return 2; }
    while (npat < 4096 && fgets(line, sizeof(line), pf)) {
        line[strcspn(line, "\n")] = '\0';
        pats[npat++] = strdup(line);
    }
    fclose(pf);
    while (fgets(line, sizeof(line), stdin)) {
        char *f1, *f2, *f3, *text;
        const char *why = "no pattern fits";
        long nops;
        size_t m;
        line[strcspn(line, "\n")] = '\0';
        f1 = line;
        if (!(f2 = strchr(f1, ':'))) goto bad;
        *f2++ = '\0';
        if (!(f3 = strchr(f2, ':'))) goto bad;
        *f3++ = '\0';
        if (!part) {
            if (!(text = strchr(f3, ':'))) goto bad;
            *text++ = '\0';
        } else
            text = f3, f3 = f2;
        m = strlen(text);
        if ((nops = expand(f3, ops, sizeof(ops))) < 0) { why = "malformed CIGAR"; goto fail; }
        if (part) {
            /* some pattern: exact fit, cost <= k, optimal, tie rule */
            const char *w = "no pattern fits";
            for (size_t q = 0; q < npat && w; q++)
                if (apply(ops, nops, pats[q], strlen(pats[q]), text, m) == (long)m)
                    w = check(ops, nops, pats[q], text, m);
            if (w) { why = w; goto fail; }
            if (cost_of(ops, nops) > k) { why = "cost above k"; goto fail; }
        } else {
            /* the least-cost match: leftmost end, first pattern, latest start */
            int bc = 1 << 30, *e = malloc((m + 1) * sizeof(int));
            size_t be = 0, bq = 0, bs = 0;
            for (size_t q = 0; q < npat; q++) {
                ends(pats[q], text, m, e);
                for (size_t j = 0; j <= m; j++)
                    if (e[j] < bc || (e[j] == bc && j < be)) { bc = e[j]; be = j; bq = q; }
            }
            free(e);
            if (bc != atoi(f2)) { why = "--show-cost is not the least cost"; goto fail; }
            for (size_t s = be + 1; s-- > 0;)
                if (dist(pats[bq], strlen(pats[bq]), text + s, be - s) == bc) { bs = s; break; }
            if (cost_of(ops, nops) != bc) { why = "CIGAR cost is not --show-cost"; goto fail; }
            if ((why = check(ops, nops, pats[bq], text + bs, be - bs))) goto fail;
        }
        checked++;
        continue;
bad:
        fprintf(stderr, "cigar: cannot parse: %s\n", line);
        return 1;
fail:
        fprintf(stderr, "cigar: %s: CIGAR %s, text '%s'\n", why, f3, text);
        return 1;
    }
    printf("%ld checked, %d tie checks skipped\n", checked, skipped);
    return 0;
}
