/*
 * gen_dna: deterministic random DNA corpus for bench/bench.sh.
 *
 * Usage: gen_dna BYTES PATFILE [LINE_LEN [EVERY [SEED]]] > corpus
 *
 * Writes about BYTES bytes of random lower-case acgt text in lines of LINE_LEN
 * bases (default 250) plus '\n'.  A random 60-base pattern is written to
 * PATFILE (no newline).  Into one line in EVERY (default 1000) an approximate
 * copy of the pattern is planted: 0 to 5 random edits (substitution,
 * insertion, deletion), so it is within edit distance 5 of the pattern.
 * Reports the number of planted lines, and how many were exact copies, on
 * stderr.  Same arguments, same bytes (xorshift64* PRNG).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PATLEN 60

static uint64_t s;
static uint64_t rnd(void)
{
    s ^= s >> 12; s ^= s << 25; s ^= s >> 27;
    return s * 0x2545F4914F6CDD1DULL;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: gen_dna BYTES PATFILE [LINE_LEN [EVERY [SEED]]]\n");
        return 2;
    }
    unsigned long long total = strtoull(argv[1], NULL, 10);
    size_t linelen = argc > 3 ? strtoul(argv[3], NULL, 10) : 250;
    unsigned long every = argc > 4 ? strtoul(argv[4], NULL, 10) : 1000;
    s = argc > 5 ? strtoull(argv[5], NULL, 10) : 0x9E3779B97F4A7C15ULL;
    if (!s) s = 1;
    if (linelen < PATLEN + 10) linelen = PATLEN + 10;
    static const char acgt[4] = {'a', 'c', 'g', 't'};

    char pat[PATLEN + 1];
    for (int i = 0; i < PATLEN; i++) pat[i] = acgt[rnd() & 3];
    pat[PATLEN] = 0;
    FILE *pf = fopen(argv[2], "w");
    if (!pf || fputs(pat, pf) < 0 || fclose(pf)) { perror(argv[2]); return 2; }

    char *line = malloc(linelen + 1);
    unsigned long long written = 0, nlines = 0, planted = 0, exact = 0;
    char copy[PATLEN + 8];
    while (written < total) {
        for (size_t i = 0; i < linelen; i += 16) {
            uint64_t r = rnd();
            for (size_t j = 0; j < 16 && i + j < linelen; j++, r >>= 2)
                line[i + j] = acgt[r & 3];
        }
        if (every && nlines % every == every / 2) {
            /* approximate copy with e edits, 0 <= e <= 5 */
            memcpy(copy, pat, PATLEN);
            size_t len = PATLEN;
            int e = (int)(rnd() % 6);
            for (int t = 0; t < e; t++) {
                size_t at = rnd() % len;
                switch (rnd() % 3) {
                case 0: copy[at] = acgt[rnd() & 3]; break;               /* substitute */
                case 1: memmove(copy + at + 1, copy + at, len - at);     /* insert */
                        copy[at] = acgt[rnd() & 3]; len++; break;
                default: memmove(copy + at, copy + at + 1, len - at - 1); /* delete */
                        len--; break;
                }
            }
            size_t pos = rnd() % (linelen - len);
            memcpy(line + pos, copy, len);
            planted++;
            exact += e == 0;
        }
        line[linelen] = '\n';
        fwrite(line, 1, linelen + 1, stdout);
        written += linelen + 1;
        nlines++;
    }
    if (fflush(stdout)) { perror("stdout"); return 2; }
    fprintf(stderr, "gen_dna: %llu bytes, %llu lines, %llu planted copies (%llu exact), pattern %s\n",
            written, nlines, planted, exact, pat);
    return 0;
}
