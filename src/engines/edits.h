/* edits.h: --show-edits, the alignment of a matched part with its pattern
 * as a CIGAR string. */
#ifndef AGREP_EDITS_H
#define AGREP_EDITS_H

#include <stddef.h>
#include <stdint.h>

#include "../regex/regex.h"

/* edits.c; w: the edits' costs (NULL: 1 each) */
char	*ed_ops(const unsigned char *pat, size_t n, const unsigned char *text,
	    size_t m, int icase, const struct re_costs *w, size_t *nops);
char	*ed_ops_peq(const uint64_t *peq, size_t nw, size_t n,
	    const unsigned char *text, size_t m, const struct re_costs *w,
	    size_t *nops);
char	*ed_cigar(const char *ops, size_t nops);
char	*ed_cigar_of(const unsigned char *pat, size_t n,
	    const unsigned char *text, size_t m, int icase);
const char *ed_color(void);

#endif
