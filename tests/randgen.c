/* randgen.c - deterministic random inputs for agrep-gpu's property tests.
 *
 * usage: randgen [-l] SEED TEXT_OUT PATFILE_OUT
 *        randgen -s SEED TEXT_OUT PATFILE_OUT CONTROL_OUT
 *
 * Mode 1 (default): writes a random text and a pattern file (one pattern per
 * line, no '\n' or NUL inside a pattern) and prints one line on stdout:
 *     K description...
 * where K is the number of errors to search with.  Everything depends only on
 * SEED (own PRNG, no libc rand()), so a failing seed reproduces anywhere.
 *   - alphabets: "ab", "acgt", a-z, a small mixed-case set (for -i), printable
 *     ASCII, and bytes 1..255 except '\n' (\r and high bytes included);
 *   - line lengths 0 to a few hundred bytes, sometimes several KB (crossing
 *     slices and chunks); sometimes CRLF line ends; sometimes no terminator on
 *     the last line; sometimes an empty text;
 *   - 1 to 4 patterns of 1..64 bytes (often 62..64: a full 64-bit word), now
 *     and then an empty one; with -l, most patterns are 65..200 bytes long
 *     (several 64-bit words), some 300..1200, and K is sometimes 7..25;
 *   - K in 0..6, sometimes near or above a pattern's length;
 *   - planted approximate copies of a pattern (0..K+1 random insertions,
 *     deletions and substitutions; sometimes insertions only, which gives the
 *     longest matches, n + K bytes), at random places or straddling a multiple
 *     of 64, 100, 128, 257, 1024 or 4096 bytes of the file.
 *
 * Mode 2 (-s): the "insertion straddling a slice boundary" case.  Each line of
 * TEXT_OUT holds one copy of the single pattern (n distinct bytes) with K
 * insertions (bytes that are not in the pattern), placed so that it starts
 * before B - W and ends at or after B, for B a multiple of 64 of the file
 * offset; the rest of the line is filler that is not in the pattern.  W is a
 * too-short warm-up: n - 1 (the seed paper's overlap), or, for n in 60..64
 * and n + K - 1 > 64, 64 (n - 1 rounded up to a 64-byte word).
 * Every line of TEXT_OUT matches with K errors.  CONTROL_OUT gets, for each
 * line, two lines: the line's bytes before B, and its bytes from B - W on.
 * Neither matches with K errors (checked here by a DP and again by the test
 * with the oracle), so a scanner that warms a slice up with only W bytes
 * misses every line, while the n + K - 1 rule finds them all.
 * Prints "K description" as mode 1.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- PRNG: splitmix64, stable across platforms ---- */
static uint64_t rng_state;

static uint64_t rnd64(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* uniform in [lo, hi] */
static long rnd(long lo, long hi)
{
    return lo + (long)(rnd64() % (uint64_t)(hi - lo + 1));
}

static int chance(int percent)
{
    return rnd(0, 99) < percent;
}

#include "buf.h"

/* ---- alphabets ---- */
static unsigned char alpha[256];
static int nalpha;
static const char *alpha_name;

static void set_alphabet(int which)
{
    int c;
    nalpha = 0;
    switch (which) {
    case 0: alpha_name = "ab"; break;
    case 1: alpha_name = "acgt"; break;
    case 2: alpha_name = "a-z"; break;
    case 3: alpha_name = "aAbBcC xyXY"; break;
    case 4: alpha_name = "printable"; break;
    default: alpha_name = "bytes"; break;
    }
    if (which <= 1 || which == 3) {
        for (c = 0; alpha_name[c]; c++)
            alpha[nalpha++] = (unsigned char)alpha_name[c];
    } else if (which == 2) {
        for (c = 'a'; c <= 'z'; c++)
            alpha[nalpha++] = (unsigned char)c;
    } else if (which == 4) {
        for (c = ' '; c <= '~'; c++)
            alpha[nalpha++] = (unsigned char)c;
    } else {
        for (c = 1; c <= 255; c++)
            if (c != '\n')
                alpha[nalpha++] = (unsigned char)c;
    }
}

static unsigned char rnd_char(void)
{
    /* bytes alphabet: make \r and a few specials frequent enough to matter */
    if (nalpha > 200 && chance(5))
        return (unsigned char)"\r\t\x7f\x80\xff"[rnd(0, 4)];
    return alpha[rnd(0, nalpha - 1)];
}

/* ---- patterns ---- */
#define MAXPAT 4
static struct buf pat[MAXPAT];
static int npat;
static int long_patterns; /* -l */

/* an approximate copy of pattern p with `edits` random edits; kind: 0 mixed,
 * 1 insertions only, 2 deletions only, 3 substitutions only */
static void mutate(const struct buf *p, int edits, int kind, struct buf *out)
{
    int e;
    out->len = 0;
    putn(out, p->p, p->len);
    for (e = 0; e < edits; e++) {
        int op = kind ? kind - 1 : (int)rnd(0, 2);
        size_t at;
        if (op == 1 && out->len == 0)
            op = 0;
        if (op == 0) { /* insert */
            at = (size_t)rnd(0, (long)out->len);
            reserve(out, 1);
            memmove(out->p + at + 1, out->p + at, out->len - at);
            out->p[at] = rnd_char();
            out->len++;
        } else if (op == 1) { /* delete */
            at = (size_t)rnd(0, (long)out->len - 1);
            memmove(out->p + at, out->p + at + 1, out->len - at - 1);
            out->len--;
        } else if (out->len) { /* substitute (maybe by the same byte) */
            at = (size_t)rnd(0, (long)out->len - 1);
            out->p[at] = rnd_char();
        }
    }
}

/* ---- Sellers DP (mode 2's self-check) ---- */
static unsigned sellers_min(const unsigned char *t, size_t m, const unsigned char *p, size_t n)
{
    unsigned *col = malloc((n + 1) * sizeof *col), best;
    size_t i, j;
    for (i = 0; i <= n; i++)
        col[i] = (unsigned)i;
    best = col[n];
    for (j = 1; j <= m; j++) {
        unsigned diag = col[0], tmp;
        col[0] = 0;
        for (i = 1; i <= n; i++) {
            unsigned v = diag + (p[i - 1] != t[j - 1]);
            if (col[i] + 1 < v)
                v = col[i] + 1;
            if (col[i - 1] + 1 < v)
                v = col[i - 1] + 1;
            tmp = col[i];
            col[i] = v;
            diag = tmp;
        }
        if (col[n] < best)
            best = col[n];
    }
    free(col);
    return best;
}

/* ---- mode 1 ---- */
static int mode_random(const char *text_out, const char *pat_out)
{
    static const long boundaries[] = {64, 100, 128, 257, 1024, 4096};
    struct buf text = {0}, pf = {0}, copy = {0};
    int k, i, nlines, lines, crlf, unterminated, planted = 0, straddled = 0;
    int minlen = 1 << 30, plant_pct, kind_all;
    size_t max_bytes;
    char lens[128];
    size_t lp = 0;

    set_alphabet((int)rnd(0, 5));

    npat = chance(70) ? 1 : (int)rnd(2, MAXPAT);
    for (i = 0; i < npat; i++) {
        long n, j;
        int r = (int)rnd(0, 99);
        if (long_patterns && r >= 85)
            n = rnd(300, 1200);
        else if (long_patterns && r >= 40)
            n = rnd(65, 200);
        else if (r < 2)
            n = 0;
        else if (r < 45)
            n = rnd(1, 16);
        else if (r < 88)
            n = rnd(17, 64);
        else /* a full 64-bit word, or nearly */
            n = rnd(62, 64);
        pat[i].len = 0;
        for (j = 0; j < n; j++)
            put(&pat[i], rnd_char());
        if ((int)n < minlen)
            minlen = (int)n;
        if (lp < sizeof lens - 8)
            lp += (size_t)snprintf(lens + lp, sizeof lens - lp, "%s%ld", i ? "," : "", n);
        putn(&pf, pat[i].p, pat[i].len);
        put(&pf, '\n');
    }

    {
        int r = (int)rnd(0, 99);
        if (long_patterns && r < 30)
            k = (int)rnd(7, 25);
        else if (r < 75)
            k = (int)rnd(0, 6);
        else if (r < 90)
            k = (int)rnd(0, 2);
        else { /* around the shortest pattern's length: all lines, or nearly */
            k = minlen + (int)rnd(-1, 1);
            if (k < 0)
                k = 0;
        }
    }

    crlf = alpha_name[0] != 'b' && chance(15);
    unterminated = chance(30);
    plant_pct = (int)rnd(5, 60);
    kind_all = chance(25) ? 1 : 0; /* this case plants insertions only */
    max_bytes = chance(20) ? (size_t)rnd(20000, 80000) : (size_t)rnd(0, 12000);
    nlines = chance(5) ? 0 : (int)rnd(1, 400);

    for (lines = 0; lines < nlines && text.len < max_bytes; lines++) {
        long len;
        int r = (int)rnd(0, 99);
        size_t start = text.len, j;
        if (r < 8)
            len = 0;
        else if (r < 65)
            len = rnd(1, 80);
        else if (r < 92)
            len = rnd(80, 400);
        else
            len = rnd(1000, 9000);
        for (j = 0; j < (size_t)len; j++)
            put(&text, rnd_char());

        if (npat && chance(plant_pct)) {
            const struct buf *p = &pat[rnd(0, npat - 1)];
            int edits = (int)rnd(0, k + 1);
            int kind = kind_all ? 1 : (chance(40) ? 0 : (int)rnd(1, 3));
            size_t at;
            mutate(p, edits, kind, &copy);
            planted++;
            if (copy.len >= 2 && chance(50)) {
                /* straddle the next multiple of M after the line start */
                long M = boundaries[rnd(0, 5)];
                size_t B = (start / (size_t)M + 1) * (size_t)M;
                /* bytes of the copy before B: any, or most of it (then
                 * the copy starts long before B: a long warm-up needed) */
                size_t back = chance(50)
                    ? (size_t)rnd(1, (long)copy.len - 1)
                    : copy.len - (size_t)rnd(1, copy.len - 1 < 8 ? (long)copy.len - 1 : 8);
                while (B < start + back)
                    B += (size_t)M;
                if (B - start <= 10000) {
                    at = B - back - start;
                    straddled++;
                } else {
                    at = (size_t)rnd(0, len);
                }
            } else {
                at = (size_t)rnd(0, len);
            }
            /* make room: line becomes at least at + copy.len long */
            while (text.len < start + at + copy.len)
                put(&text, rnd_char());
            if (copy.len)
                memcpy(text.p + start + at, copy.p, copy.len);
            if (chance(30)) { /* random tail after the copy */
                long tail = rnd(0, 100);
                while (tail-- > 0)
                    put(&text, rnd_char());
            }
        }
        if (lines + 1 < nlines && text.len < max_bytes) {
            if (crlf)
                put(&text, '\r');
            put(&text, '\n');
        } else if (!unterminated) {
            if (crlf)
                put(&text, '\r');
            put(&text, '\n');
        }
    }

    write_file(text_out, &text);
    write_file(pat_out, &pf);
    printf("%d alphabet=%s patterns=%d lens=%s lines=%d bytes=%zu planted=%d "
           "straddling=%d%s%s%s\n",
           k, alpha_name, npat, npat ? lens : "-", lines, text.len, planted,
           straddled, kind_all ? " insertions-only" : "", crlf ? " crlf" : "",
           unterminated ? " unterminated" : "");
    for (i = 0; i < npat; i++)
        free(pat[i].p);
    free(text.p);
    free(pf.p);
    free(copy.p);
    return 0;
}

/* ---- mode 2 ---- */
static int mode_straddle(const char *text_out, const char *pat_out, const char *ctl_out)
{
    static const char set[] =
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+/";
    struct buf text = {0}, pf = {0}, ctl = {0}, p = {0}, copy = {0};
    unsigned char letters[64];
    int k, n, lines = 0, tries = 0, i;
    size_t W; /* the too-short warm-up that must miss every line */

    if (rnd(0, 1)) {
        /* exact rule: W = n - 1 */
        k = (int)rnd(1, 6);
        n = (int)rnd(2 * k + 4, 40);
        W = (size_t)n - 1;
    } else {
        /* n - 1 rounded up to a 64-byte word is 64 < n + k - 1: also catches
         * an n - 1 warm-up that is rounded up to whole 64-byte words */
        n = (int)rnd(60, 64);
        k = (int)rnd(66 - n, 6);
        W = 64;
    }
    for (i = 0; i < 64; i++)
        letters[i] = (unsigned char)set[i];
    for (i = 63; i > 0; i--) { /* shuffle: pattern of n distinct bytes */
        int j = (int)rnd(0, i);
        unsigned char t = letters[i];
        letters[i] = letters[j];
        letters[j] = t;
    }
    putn(&p, letters, (size_t)n);
    putn(&pf, p.p, p.len);
    put(&pf, '\n');

    while (lines < 24 && tries < 10000) {
        size_t start = text.len, B, s, h, at, j;
        int a;
        tries++;
        /* the copy: the pattern with k insertions between positions a-1, a */
        a = (int)rnd(k + 1, n - k - 1);
        copy.len = 0;
        putn(&copy, p.p, (size_t)a);
        for (i = 0; i < k; i++)
            put(&copy, (unsigned char)"!#$%&*=?@~"[rnd(0, 9)]);
        putn(&copy, p.p + a, (size_t)(n - a));
        /* start s = B - W - h: h bytes of the copy lie before B - W, and
         * the copy (n + k bytes) ends at or after B: h in 1..n+k-1-W */
        h = (size_t)rnd(1, (long)((size_t)(n + k - 1) - W));
        B = (start / 64 + 1) * 64;
        while (B < start + W + h + (size_t)rnd(0, 40))
            B += 64;
        s = B - W - h;
        /* filler up to s, the copy, filler after */
        for (j = start; j < s; j++)
            put(&text, (unsigned char)".-_ "[rnd(0, 3)]);
        putn(&text, copy.p, copy.len);
        at = (size_t)rnd(0, 60);
        for (j = 0; j < at; j++)
            put(&text, (unsigned char)".-_ "[rnd(0, 3)]);
        /* keep the line only if the whole matches and neither part does */
        if (sellers_min(text.p + start, text.len - start, p.p, p.len) <= (unsigned)k &&
            sellers_min(text.p + start, B - start, p.p, p.len) > (unsigned)k &&
            sellers_min(text.p + B - W, text.len - (B - W), p.p, p.len) > (unsigned)k) {
            putn(&ctl, text.p + start, B - start);
            put(&ctl, '\n');
            putn(&ctl, text.p + B - W, text.len - (B - W));
            put(&ctl, '\n');
            put(&text, '\n');
            lines++;
        } else {
            text.len = start; /* discard, try another placement */
        }
    }
    write_file(text_out, &text);
    write_file(pat_out, &pf);
    write_file(ctl_out, &ctl);
    printf("%d straddle n=%d short-warm-up=%zu lines=%d bytes=%zu pattern=%.*s\n", k, n, W,
           lines, text.len, n, (const char *)p.p);
    free(text.p);
    free(pf.p);
    free(ctl.p);
    free(p.p);
    free(copy.p);
    return lines ? 0 : 1;
}

int main(int argc, char **argv)
{
    int straddle = argc > 1 && !strcmp(argv[1], "-s");
    int a;
    char *end;
    unsigned long long seed;
    long_patterns = argc > 1 && !strcmp(argv[1], "-l");
    a = 1 + straddle + long_patterns;
    if (argc - a != (straddle ? 4 : 3)) {
        fputs("usage: randgen [-l] SEED TEXT_OUT PATFILE_OUT\n"
              "       randgen -s SEED TEXT_OUT PATFILE_OUT CONTROL_OUT\n", stderr);
        return 2;
    }
    seed = strtoull(argv[a], &end, 10);
    if (*end || end == argv[a]) {
        fputs("randgen: SEED must be a number\n", stderr);
        return 2;
    }
    rng_state = seed * 0x2545F4914F6CDD1DULL + (straddle ? 77 : 0) + (long_patterns ? 7 : 0);
    rnd64();
    return straddle ? mode_straddle(argv[a + 1], argv[a + 2], argv[a + 3])
                    : mode_random(argv[a + 1], argv[a + 2]);
}
