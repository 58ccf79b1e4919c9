/* records.h: sequence files read as records (FASTA, FASTQ), both strands,
 * and the hit table (--hits). */
#ifndef AGREP_RECORDS_H
#define AGREP_RECORDS_H

#include <stddef.h>

#include "../cli/options.h"
#include "../engines/pattern.h"

/* --records */
enum rec_kind { REC_AUTO, REC_LINES, REC_FASTA, REC_FASTQ, REC_DELIM };
/* --hits */
enum rec_hits { HITS_NONE, HITS_TSV, HITS_BED, HITS_JSON };

struct rec_conf {
	int	 kind;		/* enum rec_kind: REC_AUTO finds FASTA and
				 * FASTQ by content with --dna */
	int	 hits;		/* enum rec_hits */
	size_t	 npat;		/* patterns given: ps->pat[x] is pattern
				 * x % npat on strand x / npat */
	int	 minus;		/* the only strand is the minus one */
	char	**names;	/* the patterns' names, npat of them */
	const char *delim;	/* --delimiter (REC_DELIM) */
};

/* records.c */
void	rec_init(const struct patset *, const struct rec_conf *);
int	rec_submit(const char *path, const char *name, int show_name,
	    void (*flush)(void));

#endif
