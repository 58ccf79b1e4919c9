/* utf8.h: distance over characters.  In UTF-8 mode the patterns and the
 * text are turned into symbols, one byte per character, and every engine
 * searches the symbols as it searches bytes (see utf8.c). */
#ifndef AGREP_UTF8_H
#define AGREP_UTF8_H

#include <stddef.h>
#include <stdint.h>

#define U8_OTHER 0xff		/* a character no pattern holds (and in
				 * none of the classes they name) */
#define U8_INVALID 0xfe		/* an invalid byte no pattern holds */
#define U8_CAT 0xf0		/* categories, 0xf0 to 0xfd: characters
				 * no pattern holds, by the classes they
				 * are in (u8_map_classes) */
#define U8_MAXSYM (U8_CAT - 0x80) /* non-ASCII characters the patterns
				 * may hold: 112 */

/* The POSIX classes: bit U8_ALPHA... of a set of classes, as the names of
 * u8_class_names; U8_INVAL: an invalid byte (in no class; ., [^...], \W
 * and \S do not hold it, as in grep). */
enum { U8_ALPHA, U8_DIGIT, U8_ALNUM, U8_UPPER, U8_LOWER, U8_SPACE,
    U8_BLANK, U8_PUNCT, U8_PRINT, U8_GRAPH, U8_CNTRL, U8_XDIGIT, U8_NCLASS };
#define U8_INVAL (1u << U8_NCLASS)
extern const char *const u8_class_names[U8_NCLASS];

struct u8map;

/* A record (or a part of one) as symbols: sym[i] is character i, which
 * begins at byte off[i] (off[n] is the length in bytes); word[i] is 1 when
 * it is a word character (-w).  A record of ASCII bytes alone (ascii) has
 * character i at byte i and no off (a 40 MB line took 320 MB more).
 * Buffers grow as needed (cap: sym and word; ocap: off); u8_view_free. */
struct u8view {
	unsigned char	*sym;
	size_t		*off;
	unsigned char	*word;
	size_t		 n, cap, ocap;
	int		 ascii;
};

/* utf8.c */
int	 u8_mode(int forced);
size_t	 u8_char(const unsigned char *p, size_t n, uint32_t *cp);
int	 u8_valid(const unsigned char *p, size_t n);
struct u8map *u8_map_new(int icase);
int	 u8_map_pattern(struct u8map *, const unsigned char *raw, size_t len,
	    unsigned char *sym, size_t *nsym);
int	 u8_map_classes(struct u8map *, unsigned classes);
void	 u8_map_done(struct u8map *);
void	 u8_sym_classes(const struct u8map *, uint16_t cls[256]);
void	 u8_map_free(struct u8map *);
int	 u8_ascii(const unsigned char *p, size_t n);
void	 u8_check(const unsigned char *p, size_t n, int *ascii, int *nonul);
size_t	 u8_transcode(const struct u8map *, const unsigned char *raw,
	    size_t len, unsigned char *sym, uint32_t *ck);
void	 u8_hits_to_bytes(const unsigned char *raw, size_t len,
	    const uint32_t *ck, size_t nsym, const uint64_t *sbm, uint64_t *bbm);
size_t	 u8_tail(const unsigned char *p, size_t n);
void	 u8_view(const struct u8map *, const unsigned char *raw, size_t len,
	    struct u8view *);
size_t	 u8_view_index(const struct u8view *, size_t byte);
size_t	 u8_view_byte(const struct u8view *, size_t i);
void	 u8_view_free(struct u8view *);

#endif
