/* u8gen.c - deterministic random UTF-8 inputs for the UTF-8 mode's tests.
 *
 * usage: u8gen SEED TEXT_OUT PATFILE_OUT
 *
 * Writes a random text and a pattern file (one pattern per line) built from
 * a small pool of "characters": ASCII letters (k and s among them, which
 * fold with the Kelvin sign and long s), 2-byte (é É ß σ ς Σ ſ), 3-byte
 * (€, the Kelvin sign, 〇), 4-byte (U+1F600, U+1D538) characters, and bytes
 * that are not UTF-8 (a lone lead byte, a lone continuation byte, 0xff, a
 * truncated 3-byte sequence).  Patterns hold 1 to 12 characters (sometimes
 * 30 to 70, crossing 32- and 64-bit words), from the same pool, invalid
 * bytes included now and then.  Lines are 0 to 200 characters long, a few
 * several thousand bytes (crossing slices and chunks), with planted copies
 * of a pattern carrying up to K + 1 character edits.  Prints "K" on stdout.
 * Everything depends only on SEED.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t state;

static uint32_t rnd(uint32_t n)
{
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (uint32_t)((state >> 33) % n);
}

static const char *const pool[] = {
    "a", "b", "k", "s", "K", "S", " ", "_",
    "\xc3\xa9", "\xc3\x89", "\xc3\x9f", "\xcf\x83", "\xcf\x82", "\xce\xa3",
    "\xc5\xbf",
    "\xe2\x82\xac", "\xe2\x84\xaa", "\xe3\x80\x87",
    "\xf0\x9f\x98\x80", "\xf0\x9d\x94\xb8",
    "\xc3", "\x80", "\xff", "\xe2\x82",
};
#define NPOOL (sizeof(pool) / sizeof(pool[0]))
#define NVALID (NPOOL - 4)

/* A character of the pool: invalid bytes once in 'bad' draws. */
static const char *pick(int bad)
{
    if (bad && rnd((uint32_t)bad) == 0)
        return pool[NVALID + rnd(4)];
    return pool[rnd(NVALID)];
}

struct str {
    const char *c[128];
    int n;
};

static void put_str(FILE *f, const struct str *s)
{
    for (int i = 0; i < s->n; i++)
        fputs(s->c[i], f);
}

int main(int argc, char **argv)
{
    struct str pats[4];
    int npat, k;
    FILE *t, *p;

    if (argc != 4) {
        fputs("usage: u8gen SEED TEXT_OUT PATFILE_OUT\n", stderr);
        return 2;
    }
    state = strtoull(argv[1], NULL, 10) * 2654435761u + 1;
    t = fopen(argv[2], "wb");
    p = fopen(argv[3], "wb");
    if (!t || !p) {
        perror("u8gen");
        return 2;
    }
    npat = 1 + (int)rnd(3);
    k = (int)rnd(4);
    for (int i = 0; i < npat; i++) {
        int n = rnd(6) ? 1 + (int)rnd(12) : 30 + (int)rnd(41);
        pats[i].n = n;
        for (int j = 0; j < n; j++)
            pats[i].c[j] = pick(rnd(3) ? 0 : 8);
        put_str(p, &pats[i]);
        fputc('\n', p);
    }
    int lines = 5 + (int)rnd(60);
    for (int l = 0; l < lines; l++) {
        int len = rnd(12) ? (int)rnd(60) : (int)rnd(2000);
        int plant = (int)rnd(len + 1);
        for (int i = 0; i <= len; i++) {
            if (i == plant && rnd(3)) {
                /* a copy of a pattern with up to k + 1 edits */
                const struct str *s = &pats[rnd((uint32_t)npat)];
                int edits = (int)rnd((uint32_t)k + 2);
                for (int j = 0; j < s->n; j++) {
                    int e = edits > 0 && rnd(4) == 0 ? 1 + (int)rnd(3) : 0;
                    edits -= e != 0;
                    if (e == 1)
                        continue;		/* deleted */
                    if (e == 2)
                        fputs(pick(8), t);	/* inserted before */
                    fputs(e == 3 ? pick(8) : s->c[j], t);
                }
            }
            if (i < len)
                fputs(pick(20), t);
        }
        if (l + 1 < lines || rnd(2))
            fputc('\n', t);
    }
    fclose(t);
    fclose(p);
    printf("%d\n", k);
    return 0;
}
