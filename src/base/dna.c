/*
 * dna.c: the complement of a base or IUPAC code (A-T, C-G, R-Y, K-M, B-V,
 * D-H; S, W and N are their own; U, RNA's T, pairs with A), case kept, and
 * the reverse complement of a sequence, as every DNA tool takes the minus
 * strand (--dna searches both).
 */
#include "dna.h"

static const char pairs[] = "ATCGRYKMBVDHSSWWNNUA";

/* The complement of code c (the same case), or 0 when c is none. */
unsigned char
dna_complement(unsigned char c)
{
	int lower = c >= 'a' && c <= 'z';
	unsigned char u = lower ? (unsigned char)(c - ('a' - 'A')) : c;

	for (size_t i = 0; pairs[i] != '\0'; i++)
		if ((unsigned char)pairs[i] == u) {
			unsigned char m = (unsigned char)pairs[i ^ 1];
			return lower ? (unsigned char)(m + ('a' - 'A')) : m;
		}
	return 0;
}

/* Is c a base or an IUPAC code (either case)? */
int
dna_is_code(unsigned char c)
{
	return dna_complement(c) != 0;
}

/* Is s[0, n) a sequence of bases and codes, with nothing else? */
int
dna_is_sequence(const unsigned char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!dna_is_code(s[i]))
			return 0;
	return 1;
}

/* dst[0, n): the reverse complement of src[0, n) (a sequence). */
void
dna_revcomp(unsigned char *dst, const unsigned char *src, size_t n)
{
	for (size_t i = 0; i < n; i++)
		dst[n - 1 - i] = dna_complement(src[i]);
}
