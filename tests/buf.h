/* tests/buf.h: a growable byte buffer for the test generators (randgen.c,
 * casegen.c): append bytes, write the buffer to a file. */
#ifndef TESTS_BUF_H
#define TESTS_BUF_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct buf {
    unsigned char *p;
    size_t len, cap;
};

static void reserve(struct buf *b, size_t extra)
{
    if (b->len + extra > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + extra)
            cap *= 2;
        b->p = realloc(b->p, cap);
        if (!b->p) {
            fputs("test generator: out of memory\n", stderr);
            exit(2);
        }
        b->cap = cap;
    }
}

static void put(struct buf *b, unsigned char c)
{
    reserve(b, 1);
    b->p[b->len++] = c;
}

static void putn(struct buf *b, const unsigned char *s, size_t n)
{
    reserve(b, n);
    if (n)
        memcpy(b->p + b->len, s, n);
    b->len += n;
}

static void write_file(const char *path, const struct buf *b)
{
    FILE *f = fopen(path, "wb");
    if (!f || (b->len && fwrite(b->p, 1, b->len, f) != b->len) || fclose(f)) {
        perror(path);
        exit(2);
    }
}

#endif
