/*
 * utf8.c: edit distance over characters (UTF-8 mode).
 *
 * Every engine (scalar, SIMD, filter, the OpenCL kernels) compares bytes.
 * In UTF-8 mode the patterns and the text are turned into symbols, one byte
 * per character, and the engines search the symbols unchanged:
 *
 *   - an ASCII character is its own byte (so ASCII text needs no work, and
 *     -i folds ASCII in the PEq tables as in byte mode);
 *   - each other character the patterns hold (after folding with -i) gets
 *     a symbol of its own, 0x80 to 0xfe (at most U8_MAXSYM of them);
 *   - any other character of the text is U8_OTHER, which no pattern holds,
 *     and an invalid byte U8_INVALID;
 *   - but when an expression names a POSIX class (or \w, \s, a word
 *     assertion: u8_map_classes), a character no pattern holds is the
 *     symbol of its category instead, 0xf0 to 0xfd: the characters that
 *     are in the same ones of those classes (as the locale's iswctype
 *     says) share one, and U8_OTHER is left to those in none.  So a class
 *     holds a category symbol, or not, exactly as it holds each of its
 *     characters, and holds a pattern's symbol as it holds its character
 *     (u8_sym_classes): [[:alpha:]], \w and \< take every letter, as in
 *     grep.  (glibc 2.36 has 8 categories over all 12 classes: letters
 *     upper, lower, both or neither, punctuation, spaces, controls,
 *     spaces that are controls.)
 *
 * Decoding is greedy and strict (RFC 3629: no overlong forms, surrogates or
 * code points past U+10FFFF): a well-formed sequence is one character, and
 * every byte that does not begin one is a character of its own (an invalid
 * byte equals only the same invalid byte).  So a byte not preceded, within
 * three bytes, by the lead byte of a sequence covering it always begins a
 * character: decoding from any record start gives the same characters.
 *
 * With -i, characters fold as towlower(towupper(c)) (Unicode simple case
 * folding as the C library has it: the Kelvin sign is k, final sigma is
 * sigma).  The text tables hold every code point whose folding is a
 * pattern's character: a direct table below U+0800, a small hash above;
 * with categories, a direct table of the BMP (64 KiB, filled when the
 * map is made: 0.4 ms for one class, 3.7 ms for all 12), and astral
 * characters are classified as they come.
 *
 * Hits found on symbols go back to bytes through checkpoints: the byte
 * offset of every 64th symbol (u8_transcode, u8_hits_to_bytes).
 */
#include <ctype.h>
#include <langinfo.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <wctype.h>

#include "cpu.h"
#include "utf8.h"
#include "util.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define U8_X86 1
#include <immintrin.h>
#endif

#define INV 0x80000000u		/* an invalid byte: INV | the byte */

/* The blocks that hold every code point with a case mapping (towupper or
 * towlower not itself; checked over U+0080..U+10FFFF with glibc 2.36's
 * C.UTF-8): -i looks for folded forms of the patterns' characters there
 * only, 7,000 code points instead of a million. */
static const uint32_t cased[][2] = {
	{ 0x80, 0x590 }, { 0x10a0, 0x1100 }, { 0x13a0, 0x1400 },
	{ 0x1c80, 0x1cc0 }, { 0x1d79, 0x1d7e }, { 0x1d8e, 0x1d8f },
	{ 0x1e00, 0x2000 }, { 0x2100, 0x2190 }, { 0x24b6, 0x24ea },
	{ 0x2c00, 0x2d30 }, { 0xa640, 0xa800 }, { 0xab50, 0xabc0 },
	{ 0xff21, 0xff5b }, { 0x10400, 0x10500 }, { 0x10570, 0x105c0 },
	{ 0x10c80, 0x10d00 }, { 0x118a0, 0x118e0 }, { 0x16e40, 0x16ea0 },
	{ 0x1e900, 0x1e950 },
};

struct u8hash {
	uint32_t	*key;		/* 0: empty (keys are >= 0x80) */
	unsigned char	*val;
	unsigned	 bits;
	size_t		 n;
};

#define NCAT (U8_INVALID - U8_CAT)	/* category symbols */

struct u8map {
	int		 icase;
	uint32_t	 keys[U8_MAXSYM]; /* symbol 0x80 + i: keys[i] */
	size_t		 nkeys;
	unsigned char	 inv[256];	/* invalid byte -> symbol */
	unsigned char	 lo[0x800];	/* code point < U+0800 -> symbol */
	struct u8hash	 hi;		/* larger code points -> symbol */
	wctype_t	 wct[U8_NCLASS]; /* the classes, by u8_class_names */
	unsigned	 classes;	/* those that make categories (bits;
					 * 0: none, no categories) */
	unsigned char	*bmp;		/* categories: code point < U+10000
					 * -> symbol (NULL without) */
	uint16_t	 catsig[NCAT];	/* category U8_CAT + i: its classes */
	unsigned	 ncat;
	unsigned char	 sigsym[1 << U8_NCLASS]; /* classes -> category */
};

const char *const u8_class_names[U8_NCLASS] = { "alpha", "digit", "alnum",
	"upper", "lower", "space", "blank", "punct", "print", "graph", "cntrl",
	"xdigit" };

/*
 * Decides the mode: forced 1 (--utf8) or 0 (--bytes), else -1: UTF-8 when
 * the locale's character set is (LC_ALL, LC_CTYPE, LANG, as setlocale reads
 * them; a UTF-8 locale that is not installed still counts by its name).
 * In UTF-8 mode LC_CTYPE is a UTF-8 locale afterwards (C.UTF-8 if need
 * be), for towupper and iswalnum; in byte mode it is "C".
 */
int
u8_mode(int forced)
{
	const char *loc = setlocale(LC_CTYPE, ""), *name = NULL;
	int utf8 = loc != NULL && strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
	int on = forced;

	if (on < 0 && loc == NULL) {
		const char *vars[] = { "LC_ALL", "LC_CTYPE", "LANG" };
		for (size_t i = 0; i < 3 && name == NULL; i++)
			if ((name = getenv(vars[i])) != NULL && *name == '\0')
				name = NULL;
		on = name != NULL && (strcasestr(name, "utf-8") != NULL ||
		    strcasestr(name, "utf8") != NULL);
	} else if (on < 0)
		on = utf8;
	if (!on)
		setlocale(LC_CTYPE, "C");
	else if (!utf8)
		setlocale(LC_CTYPE, "C.UTF-8");
	return on;
}

static int
cont(unsigned char b)
{
	return (b & 0xc0) == 0x80;
}

/* Decodes the character at p (n > 0 bytes there): returns its length and
 * sets *cp to its code point, or to INV | byte for an invalid byte. */
size_t
u8_char(const unsigned char *p, size_t n, uint32_t *cp)
{
	unsigned char b = p[0];
	size_t len;
	unsigned lo = 0x80, hi = 0xbf;	/* the second byte's range */
	uint32_t c;

	if (b < 0x80) {
		*cp = b;
		return 1;
	}
	if (b >= 0xc2 && b <= 0xdf) {
		len = 2;
		c = b & 0x1f;
	} else if (b >= 0xe0 && b <= 0xef) {
		len = 3;
		c = b & 0x0f;
		if (b == 0xe0)
			lo = 0xa0;
		else if (b == 0xed)
			hi = 0x9f;
	} else if (b >= 0xf0 && b <= 0xf4) {
		len = 4;
		c = b & 0x07;
		if (b == 0xf0)
			lo = 0x90;
		else if (b == 0xf4)
			hi = 0x8f;
	} else
		goto invalid;
	if (n < len || p[1] < lo || p[1] > hi)
		goto invalid;
	for (size_t i = 1; i < len; i++) {
		if (!cont(p[i]))
			goto invalid;
		c = c << 6 | (p[i] & 0x3f);
	}
	*cp = c;
	return len;
invalid:
	*cp = INV | b;
	return 1;
}

/* Is p[0, n) well-formed UTF-8? */
int
u8_valid(const unsigned char *p, size_t n)
{
	uint32_t cp;

	for (size_t i = 0; i < n; ) {
		i += u8_char(p + i, n - i, &cp);
		if (cp & INV)
			return 0;
	}
	return 1;
}

/* Bytes at the end of p[0, n) that may begin a character which the next
 * bytes would complete (0 to 3): where a long record is cut into pieces. */
size_t
u8_tail(const unsigned char *p, size_t n)
{
	for (size_t back = 1; back <= 3 && back <= n; back++) {
		unsigned char b = p[n - back];
		if (cont(b))
			continue;
		size_t len = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
		return len > back ? back : 0;
	}
	return 0;
}

static uint32_t
fold(uint32_t c)
{
	return (uint32_t)towlower(towupper((wint_t)c));
}

static size_t
slot_of(const struct u8hash *h, uint32_t key)
{
	size_t mask = ((size_t)1 << h->bits) - 1;
	size_t i = (size_t)((key * 0x9e3779b1u) >> (32 - h->bits)) & mask;

	while (h->key[i] != 0 && h->key[i] != key)
		i = (i + 1) & mask;
	return i;
}

static void
hash_put(struct u8hash *h, uint32_t key, unsigned char val)
{
	if (h->key == NULL || 2 * (h->n + 1) > ((size_t)1 << h->bits)) {
		struct u8hash g = { NULL, NULL, h->key ? h->bits + 1 : 6, 0 };
		g.key = xcalloc((size_t)1 << g.bits, sizeof(*g.key));
		g.val = xcalloc((size_t)1 << g.bits, 1);
		for (size_t i = 0; h->key && i < ((size_t)1 << h->bits); i++)
			if (h->key[i] != 0)
				hash_put(&g, h->key[i], h->val[i]);
		free(h->key);
		free(h->val);
		*h = g;
	}
	size_t i = slot_of(h, key);
	h->n += h->key[i] == 0;
	h->key[i] = key;
	h->val[i] = val;
}

static unsigned char
hash_get(const struct u8hash *h, uint32_t key)
{
	if (h->key == NULL)
		return U8_OTHER;
	size_t i = slot_of(h, key);
	return h->key[i] == key ? h->val[i] : U8_OTHER;
}

struct u8map *
u8_map_new(int icase)
{
	struct u8map *m = xcalloc(1, sizeof(*m));

	m->icase = icase;
	for (int i = 0; i < U8_NCLASS; i++)
		m->wct[i] = wctype(u8_class_names[i]);
	return m;
}

void
u8_map_free(struct u8map *m)
{
	if (m == NULL)
		return;
	free(m->hi.key);
	free(m->hi.val);
	free(m->bmp);
	free(m);
}

/* The classes of mask (bits) that code point cp is in. */
static unsigned
classes_of(const struct u8map *m, uint32_t cp, unsigned mask)
{
	unsigned in = 0;

	for (; mask != 0; mask &= mask - 1) {
		int i = __builtin_ctz(mask);
		if (iswctype((wint_t)cp, m->wct[i]))
			in |= 1u << i;
	}
	return in;
}

/* The category symbol of an astral code point that no pattern holds
 * (categories on). */
static __attribute__((noinline)) unsigned char
category(const struct u8map *m, uint32_t cp)
{
	return m->sigsym[classes_of(m, cp, m->classes)];
}

/*
 * The expressions name these classes (bits, u8_class_names' order; \w and
 * the word assertions are alnum, \s is space): gives each character that
 * no pattern holds the symbol of its category, the characters in the same
 * ones of them.  With -i, upper and lower are alpha (as in grep: -i
 * '[[:upper:]]' is '[[:alpha:]]').  The BMP is classified here, astral
 * characters as they come (each category of glibc 2.36 has BMP
 * characters; one that had none would be U8_OTHER).  Returns 0, or -1
 * when the categories are more than NCAT.  Call before u8_map_done.
 */
int
u8_map_classes(struct u8map *m, unsigned classes)
{
	const unsigned ul = 1u << U8_UPPER | 1u << U8_LOWER;

	if (m->icase && (classes & ul) != 0)
		classes = (classes & ~ul) | 1u << U8_ALPHA;
	classes &= (1u << U8_NCLASS) - 1;
	if (classes == 0 || m->bmp != NULL)
		return 0;
	m->classes = classes;
	m->bmp = xmalloc(0x10000);
	memset(m->sigsym, U8_OTHER, sizeof(m->sigsym));
	memset(m->bmp, U8_OTHER, 0x80);
	for (uint32_t cp = 0x80; cp < 0x10000; cp++) {
		if (cp == 0xd800)
			memset(m->bmp + cp, U8_OTHER, 0x800);
		if (cp >= 0xd800 && cp < 0xe000)
			continue;	/* surrogates: never decoded */
		unsigned sig = classes_of(m, cp, classes);
		if (sig != 0 && m->sigsym[sig] == U8_OTHER) {
			if (m->ncat == NCAT)
				return -1;
			m->catsig[m->ncat] = (uint16_t)sig;
			m->sigsym[sig] = (unsigned char)(U8_CAT + m->ncat++);
		}
		m->bmp[cp] = m->sigsym[sig];
	}
	return 0;
}

/*
 * The classes of every symbol >= 0x80 (bits, U8_INVAL for invalid bytes):
 * a pattern's character is in the classes of its code point (with -i, of
 * it or its upper case: the symbol stands for both), a category in its
 * own; U8_OTHER in none.
 */
void
u8_sym_classes(const struct u8map *m, uint16_t cls[256])
{
	const unsigned all = (1u << U8_NCLASS) - 1;

	memset(cls, 0, 256 * sizeof(*cls));
	for (size_t i = 0; i < m->nkeys; i++) {
		uint32_t c = m->keys[i];
		cls[0x80 + i] = (uint16_t)(c & INV ? U8_INVAL :
		    classes_of(m, c, all) | (m->icase ? classes_of(m,
		    (uint32_t)towupper((wint_t)c), all) : 0));
	}
	for (unsigned i = 0; i < m->ncat; i++)
		cls[U8_CAT + i] = m->catsig[i];
	cls[U8_INVALID] = U8_INVAL;
}

/* A pattern character's symbol; -1 when the symbols are all taken. */
static int
pattern_symbol(struct u8map *m, uint32_t cp)
{
	if (!(cp & INV) && m->icase)
		cp = fold(cp);
	if (cp < 0x80)
		return m->icase ? tolower((int)cp) : (int)cp;
	for (size_t i = 0; i < m->nkeys; i++)
		if (m->keys[i] == cp)
			return 0x80 + (int)i;
	if (m->nkeys == U8_MAXSYM)
		return -1;
	m->keys[m->nkeys] = cp;
	return 0x80 + (int)m->nkeys++;
}

/* -i: gives the code points of [lo, hi) that fold to a key (keys: key ->
 * symbol) or to an ASCII character that symbol. */
static void
fold_range(struct u8map *m, const struct u8hash *keys, uint32_t lo,
    uint32_t hi)
{
	for (uint32_t c = lo; c < hi; c++) {
		uint32_t f = fold(c);
		unsigned char s = f < 0x80 ? (unsigned char)tolower((int)f) :
		    hash_get(keys, f);
		if (s == U8_OTHER)
			continue;
		if (c < 0x800)
			m->lo[c] = s;
		else
			hash_put(&m->hi, c, s);
	}
}

/* Text tables: which symbol each code point and invalid byte of the text
 * is. */
static void
build_tables(struct u8map *m)
{
	struct u8hash keys = { NULL, NULL, 0, 0 };

	memset(m->inv, U8_INVALID, sizeof(m->inv));
	if (m->bmp != NULL)
		memcpy(m->lo, m->bmp, sizeof(m->lo));
	else
		memset(m->lo, U8_OTHER, sizeof(m->lo));
	free(m->hi.key);
	free(m->hi.val);
	memset(&m->hi, 0, sizeof(m->hi));
	for (size_t i = 0; i < m->nkeys; i++)
		if (m->keys[i] & INV)
			m->inv[m->keys[i] & 0xff] = (unsigned char)(0x80 + i);
		else
			hash_put(&keys, m->keys[i], (unsigned char)(0x80 + i));
	/* Each key stands for itself, and with -i every code point that
	 * folds to it. */
	for (size_t i = 0; i < m->nkeys; i++) {
		uint32_t c = m->keys[i];
		if (c & INV)
			continue;
		if (c < 0x800)
			m->lo[c] = (unsigned char)(0x80 + i);
		else
			hash_put(&m->hi, c, (unsigned char)(0x80 + i));
	}
	for (size_t r = 0; m->icase && r < sizeof(cased) / sizeof(cased[0]);
	    r++)
		fold_range(m, &keys, cased[r][0], cased[r][1]);
	free(keys.key);
	free(keys.val);
	/* with categories the BMP table says it all */
	for (size_t i = 0; m->bmp && m->hi.key &&
	    i < ((size_t)1 << m->hi.bits); i++)
		if (m->hi.key[i] != 0 && m->hi.key[i] < 0x10000)
			m->bmp[m->hi.key[i]] = m->hi.val[i];
}

/*
 * Turns a pattern's bytes into symbols (at most len of them) and adds its
 * characters to the map.  Returns 0, or -1 when the patterns hold more than
 * U8_MAXSYM distinct non-ASCII characters.
 */
int
u8_map_pattern(struct u8map *m, const unsigned char *raw, size_t len,
    unsigned char *sym, size_t *nsym)
{
	size_t n = 0;
	uint32_t cp;

	for (size_t i = 0; i < len;) {
		int s;
		i += u8_char(raw + i, len - i, &cp);
		if ((s = pattern_symbol(m, cp)) < 0)
			return -1;
		sym[n++] = (unsigned char)s;
	}
	*nsym = n;
	return 0;
}

/* Builds the text tables once every pattern is in the map. */
void
u8_map_done(struct u8map *m)
{
	build_tables(m);
}

/* The symbol of a text character; cat: categories are on (a constant:
 * the loop without them tests nothing more than before them). */
static inline unsigned char
text_symbol(const struct u8map *m, uint32_t cp, int cat)
{
	if (cp < 0x80)
		return (unsigned char)cp;
	if (cp & INV)
		return m->inv[cp & 0xff];
	if (cp < 0x800)
		return m->lo[cp];
	if (cat && cp < 0x10000)
		return m->bmp[cp];
	unsigned char s = hash_get(&m->hi, cp);
	return cat && s == U8_OTHER ? category(m, cp) : s;
}

/* Does p[0, n) hold only ASCII bytes?  (256 bytes at a time in vector
 * registers: this runs over every chunk in UTF-8 mode.) */
int
u8_ascii(const unsigned char *p, size_t n)
{
	typedef unsigned char v16 __attribute__((vector_size(16)));
	size_t i = 0;
	unsigned char tail = 0;

	for (; i + 256 <= n; i += 256) {
		v16 acc = { 0 }, v;
		for (size_t j = 0; j < 256; j += 16) {
			memcpy(&v, p + i + j, 16);
			acc |= v;
		}
		uint64_t lo, hi;
		memcpy(&lo, &acc, 8);
		memcpy(&hi, (const unsigned char *)&acc + 8, 8);
		if ((lo | hi) & 0x8080808080808080ull)
			return 0;
	}
	for (; i < n; i++)
		tail |= p[i];
	return tail < 0x80;
}

#ifdef U8_X86
/* u8_check's pass over both, 256 bytes at a time: the bytes done (a
 * multiple of 256), up to the block where either answer turns. */
__attribute__((target("avx2"))) static size_t
check_avx2(const unsigned char *p, size_t n)
{
	const __m256i z = _mm256_setzero_si256();
	size_t i = 0;

	for (; i + 256 <= n; i += 256) {
		__m256i hi = z, nul = z;
		for (size_t j = 0; j < 256; j += 32) {
			__m256i v = _mm256_loadu_si256((const void *)(p + i +
			    j));
			hi = _mm256_or_si256(hi, v);
			nul = _mm256_or_si256(nul, _mm256_cmpeq_epi8(v, z));
		}
		if (_mm256_movemask_epi8(hi) != 0 ||
		    !_mm256_testz_si256(nul, nul))
			break;
	}
	return i;
}
#endif

/*
 * Clears *ascii if p[0, n) holds a byte of 0x80 or more and *nonul if it
 * holds a NUL, each looked for only while set: the bytes a range has just
 * read, in the cache still (range.c).  Both in one pass where both are
 * asked (two passes were 9% of a 53-byte phrase's -k5 search over the
 * Bible on one thread).
 */
void
u8_check(const unsigned char *p, size_t n, int *ascii, int *nonul)
{
#ifdef U8_X86
	if (*ascii && *nonul && cpu_has(CPU_AVX2)) {
		size_t i = check_avx2(p, n);
		p += i;
		n -= i;
	}
#endif
	if (*ascii && !u8_ascii(p, n))
		*ascii = 0;
	if (*nonul && memchr(p, '\0', n) != NULL)
		*nonul = 0;
}

/*
 * Writes the symbols of raw[0, len) (a text that begins at a character) to
 * sym, and the byte offset of symbol 64 i to ck[i] (len / 64 + 2 entries are
 * enough).  Returns the number of symbols.
 */
static inline __attribute__((always_inline)) size_t
transcode(const struct u8map *m, const unsigned char *raw, size_t len,
    unsigned char *sym, uint32_t *ck, int cat)
{
	size_t i = 0, s = 0;
	uint32_t cp;
	uint64_t w;

	while (i < len) {
		if ((s & 63) == 0)
			ck[s >> 6] = (uint32_t)i;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		/* The ASCII bytes up to the next character that is not (16
		 * at most, and not past a checkpoint), in one step: the
		 * stores run past them, but s <= i, so not past len. */
		if (raw[i] < 0x80 && i + 16 <= len) {
			uint64_t w1, h0, h1;
			size_t run, room = 64 - (s & 63);
			memcpy(&w, raw + i, 8);
			memcpy(&w1, raw + i + 8, 8);
			h0 = w & 0x8080808080808080ull;
			h1 = w1 & 0x8080808080808080ull;
			run = h0 ? (size_t)__builtin_ctzll(h0) >> 3 :
			    h1 ? 8 + ((size_t)__builtin_ctzll(h1) >> 3) : 16;
			if (run > room)
				run = room;
			memcpy(sym + s, &w, 8);
			memcpy(sym + s + 8, &w1, 8);
			s += run;	/* (>= 1: raw[i] is ASCII) */
			i += run;
			continue;
		}
#else
		if ((s & 63) <= 56 && i + 8 <= len &&
		    (memcpy(&w, raw + i, 8), (w & 0x8080808080808080ull) == 0)) {
			memcpy(sym + s, &w, 8);
			s += 8;
			i += 8;
			continue;
		}
#endif
		unsigned char b = raw[i];
		if (b < 0x80) {
			sym[s++] = b;
			i++;
			continue;
		}
		/* Two-byte characters (Latin, Greek, Cyrillic...) directly */
		if (b >= 0xc2 && b <= 0xdf && i + 1 < len &&
		    cont(raw[i + 1])) {
			sym[s++] = m->lo[(b & 0x1f) << 6 | (raw[i + 1] & 0x3f)];
			i += 2;
			continue;
		}
		i += u8_char(raw + i, len - i, &cp);
		sym[s++] = text_symbol(m, cp, cat);
	}
	if ((s & 63) == 0)
		ck[s >> 6] = (uint32_t)i;	/* the end */
	return s;
}

static __attribute__((noinline)) size_t
transcode_cat(const struct u8map *m, const unsigned char *raw, size_t len,
    unsigned char *sym, uint32_t *ck)
{
	return transcode(m, raw, len, sym, ck, 1);
}

size_t
u8_transcode(const struct u8map *m, const unsigned char *raw, size_t len,
    unsigned char *sym, uint32_t *ck)
{
	if (m->bmp != NULL)
		return transcode_cat(m, raw, len, sym, ck);
	return transcode(m, raw, len, sym, ck, 0);
}

/*
 * Turns a bitmap over nsym symbols of raw[0, len) (bit i: a match ends at
 * symbol i) into one over the bytes: the bit of the character's last byte.
 */
void
u8_hits_to_bytes(const unsigned char *raw, size_t len, const uint32_t *ck,
    size_t nsym, const uint64_t *sbm, uint64_t *bbm)
{
	uint32_t cp;

	memset(bbm, 0, (len + 63) / 64 * sizeof(*bbm));
	for (size_t w = 0; w * 64 < nsym; w++) {
		uint64_t bits = sbm[w];
		size_t pos = ck[w];
		if (nsym - w * 64 < 64)
			bits &= ((uint64_t)1 << (nsym - w * 64)) - 1;
		else if (bits != 0 && ck[w + 1] - pos == 64) {
			/* 64 symbols of one byte each: the bits as they are */
			bbm[pos / 64] |= bits << (pos % 64);
			if (pos % 64 != 0)
				bbm[pos / 64 + 1] |= bits >> (64 - pos % 64);
			continue;
		}
		for (size_t i = 0; bits != 0; i++, bits >>= 1) {
			size_t l = raw[pos] < 0x80 ? 1 :
			    u8_char(raw + pos, len - pos, &cp);
			if (bits & 1) {
				size_t e = pos + l - 1;
				bbm[e / 64] |= (uint64_t)1 << (e % 64);
			}
			pos += l;
		}
	}
}

static void
view_grow(struct u8view *v, size_t n, int offsets)
{
	if (n + 1 > v->cap) {
		v->cap = (n + 1) + (n + 1) / 2;
		v->sym = xrealloc(v->sym, v->cap);
		v->word = xrealloc(v->word, v->cap);
	}
	if (offsets && n + 1 > v->ocap) {
		v->ocap = (n + 1) + (n + 1) / 2;
		v->off = xreallocarray(v->off, v->ocap, sizeof(*v->off));
	}
}

/* Fills v with the symbols, offsets and word flags of raw[0, len). */
void
u8_view(const struct u8map *m, const unsigned char *raw, size_t len,
    struct u8view *v)
{
	size_t n = 0;
	uint32_t cp;

	v->ascii = u8_ascii(raw, len);
	view_grow(v, len, !v->ascii);
	if (v->ascii) {
		memcpy(v->sym, raw, len);	/* (text_symbol's for ASCII) */
		for (size_t i = 0; i < len; i++)
			v->word[i] = isalnum(raw[i]) || raw[i] == '_';
		v->n = len;
		return;
	}
	for (size_t i = 0; i < len; n++) {
		size_t l = u8_char(raw + i, len - i, &cp);
		v->sym[n] = text_symbol(m, cp, m->bmp != NULL);
		v->off[n] = i;
		v->word[n] = cp < 0x80 ? isalnum((int)cp) || cp == '_' :
		    !(cp & INV) && iswalnum((wint_t)cp);
		i += l;
	}
	v->off[n] = len;
	v->n = n;
}

/* The byte where symbol i of v begins (i <= v->n). */
size_t
u8_view_byte(const struct u8view *v, size_t i)
{
	return v->ascii ? i : v->off[i];
}

/* The first symbol of v that begins at or after byte 'byte'. */
size_t
u8_view_index(const struct u8view *v, size_t byte)
{
	size_t lo = 0, hi = v->n;

	if (v->ascii)
		return byte < v->n ? byte : v->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (v->off[mid] < byte)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void
u8_view_free(struct u8view *v)
{
	free(v->sym);
	free(v->off);
	free(v->word);
	memset(v, 0, sizeof(*v));
}
