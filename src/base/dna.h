/* dna.h: bases and IUPAC codes: complements, reverse complements, and
 * whether a pattern is a sequence (--dna). */
#ifndef AGREP_DNA_H
#define AGREP_DNA_H

#include <stddef.h>

/* dna.c */
unsigned char	 dna_complement(unsigned char);
int		 dna_is_code(unsigned char);
int		 dna_is_sequence(const unsigned char *, size_t);
void		 dna_revcomp(unsigned char *dst, const unsigned char *src,
		    size_t n);

#endif
