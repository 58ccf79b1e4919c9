/* casegen.c - deterministic random cases for long.bats, many.bats and
 * refine.bats: a text and a pattern file, with planted approximate copies of
 * the patterns, many of them straddling 64-byte slice and small chunk
 * boundaries.
 *
 * usage: casegen [-n MIN:MAX] [-k MIN:MAX] [-p MIN:MAX] [-a ALPHABET]
 *                [-b MIN:MAX] [-l MIN:MAX] [-P PCT] [-x PCT] [-t]
 *                SEED TEXT_OUT PATFILE_OUT
 *
 *   -n  pattern lengths (default 60:300)
 *   -k  K, the number of errors to search with (default 0:12)
 *   -p  number of patterns (default 1:3)
 *   -a  alphabet: ab, acgt, az, mixed (aAbBcC xX, case flips in copies),
 *       words (a few word bytes, blanks and punctuation: for -w), printable,
 *       bytes (1..255 except '\n'), or any (default: one of the first six)
 *   -b  text size in bytes, roughly (default 2000:8000)
 *   -l  lengths of the random filler of a line (default 0:3*max pattern)
 *   -P  percentage of lines with a planted copy (default 50)
 *   -x  percentage of planted lines that hold the copy alone (default 10)
 *   -t  always end the last line with '\n' (default: 25% of the cases not)
 *
 * Prints "K description" on stdout.  Everything depends only on SEED and
 * the options (own PRNG, splitmix64).  Patterns never hold '\n'.
 * Copies carry e edits, e mostly in K-2..K+2 (near the threshold, where
 * mistakes show), else 0..K; half of them are placed to straddle a multiple
 * of 64, 100, 128, 192, 257 or 1000 bytes of the file offset.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng_state;

static uint64_t rnd64(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static long rnd(long lo, long hi)
{
    if (hi <= lo)
        return lo;
    return lo + (long)(rnd64() % (uint64_t)(hi - lo + 1));
}

static int chance(int pct) { return rnd(0, 99) < pct; }

#include "buf.h"

static unsigned char alpha[256];
static int nalpha, mixed;
static const char *alpha_name;

static void set_alphabet(const char *name)
{
    static const char *names[] = {"ab", "acgt", "az", "mixed", "words", "printable"};
    int c;
    if (!strcmp(name, "any"))
        name = names[rnd(0, 5)];
    alpha_name = name;
    nalpha = 0;
    mixed = 0;
    if (!strcmp(name, "ab") || !strcmp(name, "acgt")) {
        for (c = 0; name[c]; c++)
            alpha[nalpha++] = (unsigned char)name[c];
    } else if (!strcmp(name, "az")) {
        for (c = 'a'; c <= 'z'; c++)
            alpha[nalpha++] = (unsigned char)c;
    } else if (!strcmp(name, "mixed")) {
        const char *s = "aAbBcC xX";
        for (c = 0; s[c]; c++)
            alpha[nalpha++] = (unsigned char)s[c];
        mixed = 1;
    } else if (!strcmp(name, "words")) {
        const char *s = "aabbccd_ZZ9  .,-";
        for (c = 0; s[c]; c++)
            alpha[nalpha++] = (unsigned char)s[c];
    } else if (!strcmp(name, "printable")) {
        for (c = ' '; c <= '~'; c++)
            alpha[nalpha++] = (unsigned char)c;
    } else if (!strcmp(name, "bytes")) {
        for (c = 1; c <= 255; c++)
            if (c != '\n')
                alpha[nalpha++] = (unsigned char)c;
    } else {
        fprintf(stderr, "casegen: unknown alphabet %s\n", name);
        exit(2);
    }
}

static unsigned char rnd_char(void) { return alpha[rnd(0, nalpha - 1)]; }

static unsigned char flip(unsigned char c)
{
    if (c >= 'a' && c <= 'z')
        return (unsigned char)(c - 'a' + 'A');
    if (c >= 'A' && c <= 'Z')
        return (unsigned char)(c - 'A' + 'a');
    return c;
}

/* copy of p with `edits` random edits (kind 0 mixed, 1 insertions only) */
static void mutate(const struct buf *p, int edits, int kind, struct buf *out)
{
    int e;
    size_t i;
    out->len = 0;
    putn(out, p->p, p->len);
    for (e = 0; e < edits; e++) {
        int op = kind ? 0 : (int)rnd(0, 2);
        size_t at;
        if (op == 1 && out->len == 0)
            op = 0;
        if (op == 0) {
            at = (size_t)rnd(0, (long)out->len);
            reserve(out, 1);
            memmove(out->p + at + 1, out->p + at, out->len - at);
            out->p[at] = rnd_char();
            out->len++;
        } else if (op == 1) {
            at = (size_t)rnd(0, (long)out->len - 1);
            memmove(out->p + at, out->p + at + 1, out->len - at - 1);
            out->len--;
        } else if (out->len) {
            at = (size_t)rnd(0, (long)out->len - 1);
            out->p[at] = rnd_char();
        }
    }
    if (mixed) /* case flips: free with -i, edits without */
        for (i = 0; i < out->len; i++)
            if (chance(10))
                out->p[i] = flip(out->p[i]);
}

static void range(const char *s, long *lo, long *hi)
{
    char *end;
    *lo = strtol(s, &end, 10);
    if (*end == ':')
        *hi = strtol(end + 1, &end, 10);
    else
        *hi = *lo;
    if (*end || *lo < 0 || *hi < *lo) {
        fprintf(stderr, "casegen: bad range %s\n", s);
        exit(2);
    }
}

int main(int argc, char **argv)
{
    static const long bounds[] = {64, 100, 128, 192, 257, 1000};
    long nlo = 60, nhi = 300, klo = 0, khi = 12, plo = 1, phi = 3;
    long blo = 2000, bhi = 8000, llo = -1, lhi = -1, plant_pct = 50, alone_pct = 10;
    const char *alphabet = "any";
    int always_term = 0, a, k, npat, i, lines = 0, planted = 0, straddled = 0;
    int unterminated, kind_all;
    size_t maxbytes, minn = (size_t)-1, maxn = 0;
    struct buf *pat, text = {0}, pf = {0}, copy = {0};
    char *end;
    unsigned long long seed;

    for (a = 1; a < argc && argv[a][0] == '-' && argv[a][1]; a++) {
        char o = argv[a][1];
        const char *v = NULL;
        if (o == 't') {
            always_term = 1;
            continue;
        }
        if (a + 1 >= argc)
            goto usage;
        v = argv[++a];
        switch (o) {
        case 'n': range(v, &nlo, &nhi); break;
        case 'k': range(v, &klo, &khi); break;
        case 'p': range(v, &plo, &phi); break;
        case 'b': range(v, &blo, &bhi); break;
        case 'l': range(v, &llo, &lhi); break;
        case 'P': plant_pct = atol(v); break;
        case 'x': alone_pct = atol(v); break;
        case 'a': alphabet = v; break;
        default: goto usage;
        }
    }
    if (argc - a != 3)
        goto usage;
    seed = strtoull(argv[a], &end, 10);
    if (*end || end == argv[a])
        goto usage;
    rng_state = seed * 0x2545F4914F6CDD1DULL + 12345;
    rnd64();

    set_alphabet(alphabet);
    npat = (int)rnd(plo, phi);
    pat = calloc((size_t)npat + 1, sizeof *pat);
    for (i = 0; i < npat; i++) {
        long n = rnd(nlo, nhi), j;
        for (j = 0; j < n; j++)
            put(&pat[i], rnd_char());
        if ((size_t)n < minn)
            minn = (size_t)n;
        if ((size_t)n > maxn)
            maxn = (size_t)n;
        putn(&pf, pat[i].p, pat[i].len);
        put(&pf, '\n');
    }
    k = (int)rnd(klo, khi);
    if (llo < 0) {
        llo = 0;
        lhi = 3 * (long)maxn + 10;
    }
    maxbytes = (size_t)rnd(blo, bhi);
    unterminated = !always_term && chance(25);
    kind_all = chance(20);

    while (text.len < maxbytes) {
        size_t start = text.len, j;
        long len = chance(5) ? 0 : rnd(llo, lhi);
        lines++;
        if (npat && chance((int)plant_pct)) {
            const struct buf *p = &pat[rnd(0, npat - 1)];
            int edits = chance(70) ? (int)rnd(k > 2 ? k - 2 : 0, k + 2) : (int)rnd(0, k);
            mutate(p, edits, kind_all || chance(20), &copy);
            planted++;
            if (chance((int)alone_pct)) {
                putn(&text, copy.p, copy.len);
            } else {
                size_t at = (size_t)len;
                if (copy.len >= 2 && chance(50)) {
                    long M = bounds[rnd(0, 5)];
                    size_t back = (size_t)rnd(1, (long)copy.len - 1), B;
                    B = (start / (size_t)M + 1) * (size_t)M;
                    while (B < start + back)
                        B += (size_t)M;
                    at = B - back - start;
                    straddled++;
                } else {
                    at = (size_t)rnd(0, len);
                }
                for (j = 0; j < at; j++)
                    put(&text, rnd_char());
                if (chance(30) && text.len > start)
                    text.p[text.len - 1] = ' '; /* a word boundary before */
                putn(&text, copy.p, copy.len);
                if (chance(30))
                    put(&text, ' ');
                for (j = at; j < (size_t)len; j++)
                    put(&text, rnd_char());
            }
        } else {
            for (j = 0; j < (size_t)len; j++)
                put(&text, rnd_char());
        }
        if (text.len < maxbytes || !unterminated)
            put(&text, '\n');
    }

    write_file(argv[a + 1], &text);
    write_file(argv[a + 2], &pf);
    printf("%d alphabet=%s patterns=%d n=%zu..%zu lines=%d bytes=%zu planted=%d "
           "straddling=%d%s%s\n", k, alpha_name, npat, npat ? minn : 0, maxn, lines,
           text.len, planted, straddled, kind_all ? " insertions-only" : "",
           unterminated ? " unterminated" : "");
    return 0;

usage:
    fputs("usage: casegen [-n MIN:MAX] [-k MIN:MAX] [-p MIN:MAX] [-a ALPHABET]\n"
          "               [-b MIN:MAX] [-l MIN:MAX] [-P PCT] [-x PCT] [-t]\n"
          "               SEED TEXT_OUT PATFILE_OUT\n", stderr);
    return 2;
}
