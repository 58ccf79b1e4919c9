/*
 * myers_ref: a plain one-thread C implementation of Myers' bit-parallel
 * approximate matching (J. ACM 46(3), 1999), used by bench/bench.sh as a
 * measuring stick.  It is NOT the product (that is agrep-gpu); it exists so the
 * benchmark can say how agrep-gpu compares with the straightforward algorithm
 * on one core.
 *
 * Usage: myers_ref [-i] [-z] [-k NUM] PATTERN [FILE|-]
 *
 * Prints the number of selected lines (like grep -c).  Semantics follow
 * shared/DESIGN.md: a line (bytes up to '\n', or NUL with -z; an unterminated
 * last line is still a line) is selected when some substring of it is within
 * k unit-cost edits of PATTERN (Sellers' approximate substring matching over
 * bytes).  If k >= len(PATTERN) every line is selected, the empty one too.
 * -i folds ASCII case (into the PEq table, not the text).
 * PATTERN is limited to 64 bytes (one machine word).
 *
 * The text is read with read() in large blocks; the Myers state is carried
 * across block boundaries and reset at every record terminator.  Every byte is
 * processed (no skipping after a line is selected), so the cost per byte does
 * not depend on how many lines match.
 *
 * Exit status: 0 if a line was selected, 1 if none, 2 on error.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BLOCK (16u << 20) /* 16 MiB reads */

static void usage(void)
{
    fprintf(stderr, "usage: myers_ref [-i] [-z] [-k NUM] PATTERN [FILE|-]\n");
    exit(2);
}

int main(int argc, char **argv)
{
    int icase = 0;
    unsigned char term = '\n';
    long k = 0;
    int opt;

    while ((opt = getopt(argc, argv, "izk:")) != -1) {
        switch (opt) {
        case 'i': icase = 1; break;
        case 'z': term = '\0'; break;
        case 'k': {
            char *end;
            errno = 0;
            k = strtol(optarg, &end, 10);
            if (errno || *end || k < 0) {
                fprintf(stderr, "myers_ref: bad -k value '%s'\n", optarg);
                return 2;
            }
            break;
        }
        default: usage();
        }
    }
    if (optind >= argc || argc - optind > 2)
        usage();
    const unsigned char *pat = (const unsigned char *)argv[optind];
    size_t m = strlen(argv[optind]);
    const char *path = (argc - optind == 2) ? argv[optind + 1] : "-";
    if (m > 64) {
        fprintf(stderr, "myers_ref: pattern longer than 64 bytes\n");
        return 2;
    }

    int fd = 0;
    if (strcmp(path, "-") != 0) {
        fd = open(path, O_RDONLY);
        if (fd < 0) {
            fprintf(stderr, "myers_ref: %s: %s\n", path, strerror(errno));
            return 2;
        }
    }

    /* PEq table: bit i of peq[c] set when pat[i] == c (ASCII case folded). */
    uint64_t peq[256];
    memset(peq, 0, sizeof peq);
    for (size_t i = 0; i < m; i++) {
        unsigned c = pat[i];
        peq[c] |= (uint64_t)1 << i;
        if (icase) {
            if (c >= 'a' && c <= 'z') peq[c - 32] |= (uint64_t)1 << i;
            if (c >= 'A' && c <= 'Z') peq[c + 32] |= (uint64_t)1 << i;
        }
    }
    const uint64_t ones = m == 64 ? ~(uint64_t)0 : (((uint64_t)1 << m) - 1);
    const uint64_t high = m ? (uint64_t)1 << (m - 1) : 0;
    /* An empty pattern, or k >= m, selects every line: the empty substring is
     * within m <= k edits.  The per-byte update is then irrelevant. */
    const int always = (long)m <= k;

    unsigned char *buf = malloc(BLOCK);
    if (!buf) {
        fprintf(stderr, "myers_ref: out of memory\n");
        return 2;
    }

    uint64_t VP = ones, VN = 0;
    long score = (long)m;
    int matched = always;   /* current line selected so far */
    int in_line = 0;        /* the last byte read was not a terminator */
    unsigned long long count = 0;

    for (;;) {
        ssize_t got = read(fd, buf, BLOCK);
        if (got < 0) {
            if (errno == EINTR) continue;
            fprintf(stderr, "myers_ref: %s: %s\n", path, strerror(errno));
            return 2;
        }
        if (got == 0) break;
        for (ssize_t j = 0; j < got; j++) {
            unsigned c = buf[j];
            if (c == term) {
                count += (unsigned)matched;
                VP = ones; VN = 0; score = (long)m; matched = always;
                continue;
            }
            uint64_t Eq = peq[c];
            uint64_t Xv = Eq | VN;
            uint64_t Xh = (((Eq & VP) + VP) ^ VP) | Eq;
            uint64_t HP = VN | ~(Xh | VP);
            uint64_t HN = VP & Xh;
            score += (HP & high) ? 1 : 0;
            score -= (HN & high) ? 1 : 0;
            HP <<= 1; /* Sellers: the top row is 0, no carry in */
            HN <<= 1;
            VP = (HN | ~(Xv | HP)) & ones;
            VN = HP & Xv;
            matched |= score <= k;
        }
        in_line = buf[got - 1] != term;
    }
    if (in_line) /* unterminated last line */
        count += (unsigned)matched;

    printf("%llu\n", count);
    return count ? 0 : 1;
}
