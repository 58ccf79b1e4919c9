/* pattern.c: collect patterns (-e, -f, operand) and build their PEq tables. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "multi.h"
#include "pattern.h"
#include "utf8.h"
#include "util.h"

void
pat_init(struct patset *ps, int k, int icase)
{
	memset(ps, 0, sizeof(*ps));
	ps->k = k;
	ps->icase = icase;
}

/* Appends one pattern string; a newline inside it separates several patterns,
 * as in grep.  Lengths are checked by pat_compile. */
void
pat_add(struct patset *ps, const char *s, size_t len)
{
	ps->store = xrealloc(ps->store, ps->storelen + len + 1);
	memcpy(ps->store + ps->storelen, s, len);
	ps->store[ps->storelen + len] = '\n';
	ps->storelen += len + 1;
}

/* Reads patterns from a file, one per line; returns 0, or -1 with errno set. */
int
pat_add_file(struct patset *ps, const char *path)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
	char buf[65536];
	size_t n;

	if (f == NULL)
		return -1;
	/* Concatenate the whole file; pat_compile splits it at newlines. */
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0) {
		ps->store = xrealloc(ps->store, ps->storelen + n + 1);
		memcpy(ps->store + ps->storelen, buf, n);
		ps->storelen += n;
	}
	if (ferror(f)) {
		int e = errno;
		if (f != stdin)
			fclose(f);
		errno = e;
		return -1;
	}
	if (f != stdin)
		fclose(f);
	/* A file of N lines holds N patterns; a final line without '\n' counts. */
	if (ps->storelen > 0 && ps->store[ps->storelen - 1] != '\n')
		ps->store[ps->storelen++] = '\n';
	return 0;
}

/* Fills p->peq from p->str: bit i of PEq[c] is set when pattern byte i
 * equals c (either case with -i). */
static void
build_peq(struct pattern *p, int icase)
{
	size_t nw = p->nwords;

	p->peq = xcalloc(256 * nw, sizeof(*p->peq));
	for (size_t i = 0; i < p->len; i++) {
		unsigned char c = p->str[i];
		uint64_t bit = (uint64_t)1 << (i % 64);
		p->peq[c * nw + i / 64] |= bit;
		if (icase && isascii(c) && isalpha(c)) {
			p->peq[tolower(c) * nw + i / 64] |= bit;
			p->peq[toupper(c) * nw + i / 64] |= bit;
		}
	}
}

/* What a pattern's length counts, for messages. */
const char *
pat_unit(const struct patset *ps)
{
	return ps->utf8 ? "characters" : "bytes";
}

/*
 * UTF-8 mode: do the patterns need symbols?  Not at k = 0 without -i, -w
 * or --show-edits when every pattern is well-formed: a byte occurrence of
 * such a pattern is then an occurrence of its characters (-w looks at the
 * characters around it and --show-edits counts them: refine.c finds them
 * in the symbols' view).
 */
static int
needs_symbols(const struct patset *ps)
{
	if (!ps->utf8)
		return 0;
	if (ps->k > 0 || ps->icase || ps->chars)
		return 1;
	return !u8_valid((const unsigned char *)ps->store, ps->storelen);
}

/* Splits the stored text into patterns and builds their tables.  Returns 0,
 * or -1 with a message in errbuf. */
int
pat_compile(struct patset *ps, char *errbuf, size_t errlen)
{
	size_t start = 0, cap = 0, symat = 0;

	if (needs_symbols(ps)) {
		ps->u8 = u8_map_new(ps->icase);
		ps->symstore = xmalloc(ps->storelen + 1);
	}
	for (size_t i = 0; i < ps->storelen; i++) {
		if (ps->store[i] != '\n')
			continue;
		size_t len = i - start;
		const unsigned char *s = (const unsigned char *)ps->store + start;
		start = i + 1;
		if (ps->u8 != NULL) {
			unsigned char *sym = ps->symstore + symat;
			if (u8_map_pattern(ps->u8, s, len, sym, &len) == -1) {
				snprintf(errbuf, errlen, "the patterns hold "
				    "more than %d different non-ASCII "
				    "characters, the most UTF-8 mode can search "
				    "for (--bytes searches bytes)", U8_MAXSYM);
				return -1;
			}
			s = sym;
			symat += len;
		}
		/* A pattern within k of the empty string matches every
		 * record: no scan is needed (it stays for refinement). */
		if (len <= (size_t)ps->k)
			ps->all_lines = 1;
		/* At k = 0 any length: longer ones are the host's exact
		 * search (hostmatch.c). */
		if (len > PAT_MAXLEN && ps->k > 0) {
			snprintf(errbuf, errlen, "pattern of %zu %s is longer "
			    "than the limit of %d %s with errors (-k)", len,
			    pat_unit(ps), PAT_MAXLEN, pat_unit(ps));
			return -1;
		}
		if (ps->npat == cap) {
			cap = cap ? 2 * cap : 8;
			ps->pat = xreallocarray(ps->pat, cap, sizeof(*ps->pat));
		}
		struct pattern *p = &ps->pat[ps->npat++];
		p->str = s;
		p->len = len;
		p->nwords = (len + 63) / 64;
		build_peq(p, ps->icase);
		if (len > ps->maxlen)
			ps->maxlen = len;
		if (p->nwords > ps->maxwords)
			ps->maxwords = p->nwords;
	}
	if (ps->u8 != NULL)
		u8_map_done(ps->u8);
	return 0;
}

void
pat_free(struct patset *ps)
{
	mf_free(ps->multi);
	for (size_t i = 0; i < ps->npat; i++)
		free(ps->pat[i].peq);
	free(ps->pat);
	free(ps->store);
	free(ps->symstore);
	u8_map_free(ps->u8);
	memset(ps, 0, sizeof(*ps));
}
