#!/bin/sh
# mkseeds.sh: writes the seed corpora tests/fuzz/corpus_host/,
# tests/fuzz/corpus_ocl/ and tests/fuzz/corpus_utf8/ (input layout:
# fuzz_common.h).  Each seed is
#   k, flags, patterns..., text            for fuzz_host
#   k, flags, slice, cap, mode, patterns..., text   for fuzz_ocl
#   k, flags, engine, patterns..., text    for fuzz_utf8
# flags: 1 -i, 2 NUL terminator, 4 * (patterns - 1).  A literal pattern of
# L <= 256 bytes is the bytes \ooo(L-1) \000 then L bytes; a pattern copied
# from the text: \ooo(L-1) \002, offset (2 bytes), edits, (pos, byte)...
# The shape bytes: slice = 64 * (1 + s % 9) (s % 9 == 8: 0, scan.c picks),
# cap = 64 + 32 * (c % 15),
# mode bit 0: cut records longer than cap (when scan_submit takes 'warm').
set -eu
cd "$(dirname "$0")"
rm -rf corpus_host corpus_ocl corpus_utf8
mkdir -p corpus_host corpus_ocl corpus_utf8

# seed NAME 'k flags' 'slice cap mode' 'patterns' 'text' (printf formats)
seed() {
	printf "$2" > "corpus_host/$1"
	printf "$4$5" >> "corpus_host/$1"
	printf "$2$3" > "corpus_ocl/$1"
	printf "$4$5" >> "corpus_ocl/$1"
}

# Text of N repetitions of a phrase.
rep() {
	i=0
	while [ "$i" -lt "$1" ]; do
		printf '%s' "$2"
		i=$((i + 1))
	done
}

seed basic '\002\000' '\000\000\000' '\004\000hello' \
    'hello world\nsay helo there\nhallo\nnothing here\nhe llo\n'
seed icase '\001\001' '\001\003\000' '\003\000LORD' \
    'And the Lord said\nthe lard is here\nLOD of war\nno match\n'
seed exact '\000\000' '\007\016\000' '\004\000mercy' \
    'his mercy endureth\nmerc y\nMercy\nfor ever mercy'
seed nul '\002\002' '\002\001\000' '\005\000needle' \
    'hay\nneedle\000nedle in hay\000no\nneedl\000\000needle at end'
seed multi '\001\010' '\000\005\000' \
    '\006\000abc\ndef\002\000xyz\011\000longer one' \
    'abd\nxdef\nlonger on\n\nxzy\nlonger  one\nnone\n'
seed word40 '\004\000' '\003\002\000' \
    '\047\000for his mercy endureth for ever and ever' \
    'O give thanks: for his mercy endureth for ever.\nfor his merci endureth fer ever and ever more\nfr hs mrcy ndureth for evr nd evr\nshort\n'
seed edge32 '\001\000' '\000\000\000' \
    '\040\000abcdefghijklmnopqrstuvwxyz0123456' \
    'xxabcdefghijklmnopqrstuvwxyz012345xx\nabcdefghijklmnopqrstuvwxyz0123456\n'
seed allk '\003\000' '\000\000\000' '\001\000ab' 'x\n\ny\n'
seed empty '\000\000' '\000\000\000' '\000\000a' ''
seed iznul '\002\007' '\004\007\000' '\004\000Quick\010\000FOX jumps' \
    'the quick brown\000fox Jumps over\000QUICK\nfx jmps\000'

text="$(rep 6 'the quick brown fox jumps over the lazy dog ')"
# 100-byte pattern copied from the text, 2 edits: the block kernel.
seed copy100 '\003\000' '\000\000\001' \
    '\143\002\012\000\002\005Q\062Z' "$text\\n$text\\nshort line\\n"
# 64- and 65-byte patterns at the word boundary.
seed copy64 '\002\000' '\001\001\000' '\077\002\003\000\001\040#' \
    "$text\\nno\\n$text"
seed copy65 '\002\000' '\001\001\001' '\100\002\003\000\001\040#' \
    "$text\\nno\\n$text"
# 300 bytes (the most), k = 8, one record longer than any small chunk.
seed copy300 '\010\000' '\000\000\000' '\053\003\000\000\003\001a\144b\310c' \
    "$text$text\\nend\\n"
seed autoslice '\002\000' '\010\016\000' '\077\002\003\000\001\040#' \
    "$text\\nno\\n$text"
seed copy300cut '\010\000' '\000\000\001' '\053\003\000\000\003\001a\144b\310c' \
    "$text$text\\nend\\n"
# UTF-8 mode: engine 0 automatic, 1 scalar, 2 SIMD, 3 filter.
u8seed() {
	printf "$2$3$4" > "corpus_utf8/$1"
}
u8seed cafe '\001\000' '\000' '\004\000caf\303\251' \
    'caf\303\251 au lait\ncafe noir\nCAF\303\211\nna\303\257ve\n'
u8seed icase '\000\001' '\001' '\005\000\342\204\252elvin' \
    'the Kelvin scale\nthe \342\204\252elvin\nkelvn\n'
u8seed greek '\002\001' '\002' '\015\000\316\232\316\261\316\273\316\267\316\274\316\255\317\201\316\261' \
    "$(rep 30 '\316\272\316\261\316\273\316\267\316\274\316\265\317\201\316\261 \360\237\230\200 ')\nxyz\n"
u8seed invalid '\001\000' '\003' '\004\000a\303b\377' \
    'a\303b\377\na\303\251b\377\n\200\200a b\377\n'
ls -l corpus_host corpus_ocl corpus_utf8 | awk '$5 > 1024 { print "too big: " $0; exit 1 }'
