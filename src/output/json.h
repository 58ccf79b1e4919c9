/* json.h: --json, JSON Lines in ripgrep's format (rg --json). */
#ifndef AGREP_JSON_H
#define AGREP_JSON_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

/* A file's state for --json (in struct fstate). */
struct jstate {
	int		 begun;		/* its "begin" message went out */
	struct timespec	 t0;		/* when its search began */
	uintmax_t	 binoff;	/* offset of its first NUL, or UINTMAX_MAX */
	uintmax_t	 printed;	/* bytes of its messages so far */
	uintmax_t	 lines;		/* "match" messages */
	uintmax_t	 matches;	/* submatches in them */
};

/* A growing output buffer. */
struct jbuf {
	char		*p;
	size_t		 len, cap;
};

struct fstate;
struct options;
struct patset;

/* json.c */
void	json_init(const struct options *, const struct patset *);
void	json_file_start(struct jstate *);
void	json_binary(struct fstate *, size_t at);
void	json_record(struct jbuf *, struct fstate *, const unsigned char *line,
	    size_t len, int terminated, uintmax_t lineno, uintmax_t off,
	    int selected, int cost);
void	json_end(struct jbuf *, struct fstate *);
void	json_summary(struct jbuf *);
void	json_bytes(struct jbuf *, const void *, size_t);
void	json_num(struct jbuf *, uintmax_t);
void	json_str(struct jbuf *, const unsigned char *, size_t);

#endif
