#!/bin/bash
# decomp.sh: checks src/pipeline/decomp.c (--decompress) through
# tests/decomp_test.c against the system's own compressors.
#
# Build, as this script does it (from the top of the tree):
#   gcc -std=gnu11 -O2 -Wall -Wextra -D_GNU_SOURCE -o decomp_test \
#     tests/decomp_test.c src/pipeline/decomp.c src/base/util.c \
#     -lisal -lzstd -llzma -lbz2 -llz4 -lpthread
#
# Usage: tests/decomp.sh [workdir]   (default: a fresh temporary folder)
#   SAN="-fsanitize=address,undefined" or SAN=-fsanitize=thread builds
#   with a sanitizer (then -O1 -g, smaller big inputs, no RSS check).
# Needs: gzip pigz bgzip (tabix) zstd pzstd xz bzip2 lz4 /usr/bin/time,
#   and libisal-dev libzstd-dev liblzma-dev libbz2-dev
#   liblz4-dev.  Every input is made here, in the work folder.
#
# For each input and compressor: decomp_test -j1 (the pipe) and -j2 -d
# (dz_fill, as the pipeline reads) (file and
# standard input) must print exactly what the tool's own -dc prints.  A
# truncated or corrupted input must exit 2, name a byte offset, and print
# a prefix of the plain text.  -m 100 (read 100 bytes, then dz_close) must
# not hang or die of SIGPIPE.  200 MB of zeros must decode in < 100 MB RSS.
set -u
cd "$(dirname "$0")/.." || exit 2
W=${1:-$(mktemp -d /tmp/decomp.XXXXXX)}
mkdir -p "$W" || exit 2
SAN=${SAN:-}
OPT="-O2"
[[ -n $SAN ]] && OPT="-O1 -g -fno-omit-frame-pointer $SAN"
CC=${CC:-gcc}
LIBS="-lisal -lzstd -llzma -lbz2 -llz4 -lpthread"
T=$W/decomp_test
$CC -std=gnu11 $OPT -Wall -Wextra -D_GNU_SOURCE -o "$T" \
    tests/decomp_test.c src/pipeline/decomp.c src/base/util.c $LIBS || exit 2
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1

fails=0 passes=0
# -j2 reads through dz_fill (-d, the pipeline's way), -j1 through the pipe
DIRECT=("" "" "-d")
pass() { passes=$((passes + 1)); }
fail() { fails=$((fails + 1)); echo "FAIL: $*"; }

# --- Inputs ---------------------------------------------------------------
P=$W/plain
mkdir -p "$P"
: >"$P/empty"
printf x >"$P/onebyte"
KJV=""
for f in bench/data/kjv.txt .devdata/kjv.txt; do
	[[ -s $f ]] && KJV=$f && break
done
if [[ -n $KJV ]]; then
	cp "$KJV" "$P/kjv"
elif command -v bible >/dev/null; then
	bible "Gen1:1-Rev22:21" >"$P/kjv"
else	# generated text: numbered lines of words
	seq 1 400000 | awk '{print $1, "and the LORD spake unto", $1 % 97}' \
	    >"$P/kjv"
fi
[[ -s /usr/share/dict/words ]] && cp /usr/share/dict/words "$P/words"
head -c 1000000 /dev/urandom >"$P/random"
cat "$P/kjv" "$P/random" "$P/kjv" >"$P/mixed"

# tool name, compress command (stdin -> stdout), decompress command
declare -A COMP=(
	[gzip]="gzip -c" [pigz]="pigz -c -p 2" [bgzip]="bgzip -c"
	[zstd]="zstd -q -c" [xz]="xz -c" [bzip2]="bzip2 -c" [lz4]="lz4 -q -c"
	[xzmt]="xz -T2 --block-size=1MiB -c" [zstd19]="zstd -q -c -19"
	[lz4dep]="lz4 -q -c -BD --content-size"
)
declare -A DEC=(
	[gzip]="gzip -dc" [pigz]="gzip -dc" [bgzip]="bgzip -dc"
	[zstd]="zstd -dcq" [xz]="xz -dc" [bzip2]="bzip2 -dc" [lz4]="lz4 -dcq"
	[xzmt]="xz -dc" [zstd19]="zstd -dcq" [lz4dep]="lz4 -dcq"
	[zstdfile]="zstd -dcq" [pzstd]="zstd -dcq"
)
C=$W/comp
mkdir -p "$C"
# compress NAME PLAIN: writes $C/PLAIN.NAME
compress() {
	local t=$1 in=$2 b
	b=$(basename "$in")
	case $t in
	zstdfile) zstd -q -c "$in" >"$C/$b.$t" ;;	# content size known
	pzstd) pzstd -q -p 2 -c "$in" >"$C/$b.$t" ;;
	*) ${COMP[$t]} <"$in" >"$C/$b.$t" ;;
	esac
}

# check FILE DECOMPRESSOR: decomp_test output vs the tool's own.
check() {
	local f=$1 dec=$2 j exp=$W/expect got=$W/got
	$dec <"$f" >"$exp" 2>/dev/null || { fail "$dec failed on $f"; return; }
	for j in 1 2; do
		if "$T" ${DIRECT[$j]} -j$j "$f" >"$got" 2>"$W/err" && cmp -s "$got" "$exp"
		then pass
		else fail "-j$j $f: $(head -c 200 "$W/err")"
		fi
	done
	if "$T" -d -j2 - <"$f" >"$got" 2>"$W/err" && cmp -s "$got" "$exp"
	then pass
	else fail "-j2 stdin $f: $(head -c 200 "$W/err")"
	fi
	# BGZF and zstd: the splitter too (spans of 64 KB, one block each;
	# the rest through its stream decoder), from the file and stdin
	case $f in
	*bgzip|*zstd|*zstdfile|*pzstd|*.gz|*.zst)
		if "$T" -s 65536 -j3 "$f" >"$got" 2>"$W/err" &&
		    cmp -s "$got" "$exp" && "$T" -s 200000 -j2 - <"$f" \
		    >"$got" 2>"$W/err" && cmp -s "$got" "$exp"
		then pass
		else fail "-s $f: $(head -c 200 "$W/err")"
		fi
	esac
}

echo "== round trips"
for p in "$P"/*; do
	check "$p" cat
	for t in gzip pigz bgzip zstd zstdfile pzstd xz xzmt bzip2 lz4 lz4dep \
	    zstd19; do
		[[ $t == zstd19 && $p != */kjv ]] && continue
		compress $t "$p"
		check "$C/$(basename "$p").$t" "${DEC[$t]}"
	done
done

echo "== several members, streams and frames"
k=$(basename "$P/kjv")
for t in gzip pigz bgzip zstd zstdfile pzstd xz bzip2 lz4; do
	f=$C/multi.$t
	cat "$C/$k.$t" "$C/onebyte.$t" "$C/empty.$t" "$C/$k.$t" >"$f"
	check "$f" "${DEC[$t]}"
done
# BGZF, then plain gzip members: the block path hands over to the stream
cat "$C/$k.bgzip" "$C/$k.gzip" "$C/$k.bgzip" >"$C/bgzmix.gz"
check "$C/bgzmix.gz" "gzip -dc"
# pzstd's skippable frames, then a frame of unknown size, then known
cat "$C/$k.pzstd" "$C/$k.zstd" "$C/$k.zstdfile" >"$C/zmix.zst"
check "$C/zmix.zst" "zstd -dcq"
# a skippable frame alone in front of lz4 frames
{ printf '\x50\x2a\x4d\x18\x03\x00\x00\x00abc'; cat "$C/$k.lz4"; } \
    >"$C/skip.lz4"
check "$C/skip.lz4" "lz4 -dcq"

echo "== damaged inputs"
# bad FILE PLAIN WHAT [DEC]: exit 2, "at byte N", a prefix of PLAIN; with
# DEC (a byte flipped inside the data, which decodes to garbage before a
# checksum tells), agreeing with what DEC writes as far as both go.
bad() {
	local f=$1 plain=$2 what=$3 dec=${4:-} j got=$W/got n m
	if [[ -n $dec ]]; then
		$dec <"$f" >"$W/tool" 2>/dev/null
		plain=$W/tool
	fi
	for j in 1 2; do
		timeout 60 "$T" ${DIRECT[$j]} -j$j "$f" >"$got" 2>"$W/err"
		local rc=$?
		n=$(stat -c %s "$got")
		m=$(stat -c %s "$plain")
		(( m < n )) && n=$m
		if [[ $rc == 2 ]] && grep -q "at byte [0-9]" "$W/err" &&
		    cmp -s -n "$n" "$got" "$plain"; then
			pass
			[[ $j == 1 ]] && printf '  %-28s %8d bytes out: %s\n' \
			    "$what" "$(stat -c %s "$got")" "$(sed 's/^[^:]*: [^:]*: //' "$W/err")"
		else
			fail "$what -j$j: rc $rc, $n bytes, $(head -c 200 "$W/err")"
		fi
	done
	# the splitter: the same output and message as -j2 -d's
	case $f in
	*bgzip|*zstd|*zstdfile|*pzstd|*.bgz|*.zst)
		timeout 60 "$T" -d -j2 "$f" >"$W/got1" 2>"$W/err1"
		timeout 60 "$T" -s 65536 -j3 "$f" >"$got" 2>"$W/err"
		if [[ $? == 2 ]] && cmp -s "$got" "$W/got1" &&
		    cmp -s "$W/err" "$W/err1"; then pass
		else fail "$what -s: $(head -c 200 "$W/err")"
		fi
	esac
}
# flip FILE OFFSET OUT: OUT is FILE with the byte at OFFSET inverted.
flip() {
	cp "$1" "$3"
	printf "$(printf '\\%03o' $(( $(od -An -tu1 -j "$2" -N1 "$1") ^ 255 )))" |
	    dd of="$3" bs=1 seek="$2" conv=notrunc status=none
}
for t in gzip bgzip zstd zstdfile pzstd xz bzip2 lz4; do
	f=$C/$k.$t
	size=$(stat -c %s "$f")
	head -c $((size / 2)) "$f" >"$C/trunc.$t"
	bad "$C/trunc.$t" "$P/kjv" "$t cut at half"
	head -c $((size - 3)) "$f" >"$C/trunc3.$t"
	bad "$C/trunc3.$t" "$P/kjv" "$t less 3 bytes"
	flip "$f" $((size / 3)) "$C/mid.$t"
	bad "$C/mid.$t" "$P/kjv" "$t byte flipped at 1/3" "${DEC[$t]}"
done
s=$(stat -c %s "$C/$k.gzip")
flip "$C/$k.gzip" $((s - 7)) "$C/crc.gz"
bad "$C/crc.gz" "$P/kjv" "gzip CRC flipped"
s=$(stat -c %s "$C/$k.bgzip")
flip "$C/$k.bgzip" $((s - 28 - 7)) "$C/crc.bgz"	# before the EOF block
bad "$C/crc.bgz" "$P/kjv" "BGZF CRC flipped"
s=$(stat -c %s "$C/$k.zstdfile")
flip "$C/$k.zstdfile" $((s - 2)) "$C/crc.zst"
bad "$C/crc.zst" "$P/kjv" "zstd checksum flipped"
s=$(stat -c %s "$C/$k.lz4")
flip "$C/$k.lz4" $((s - 2)) "$C/crc.lz4"
bad "$C/crc.lz4" "$P/kjv" "lz4 checksum flipped"
s=$(stat -c %s "$C/$k.bzip2")
flip "$C/$k.bzip2" $((s - 3)) "$C/crc.bz2"
bad "$C/crc.bz2" "$P/kjv" "bzip2 stream CRC flipped"
cat "$C/$k.gzip" "$P/onebyte" "$P/onebyte" >"$C/garbage.gz"
bad "$C/garbage.gz" "$P/kjv" "gzip trailing garbage"

echo "== early close (-m 100)"
head -c 100 "$P/kjv" >"$W/first100"
for t in gzip bgzip zstd zstdfile pzstd xz bzip2 lz4; do
	for j in 1 2 s; do
		if [[ $j == s ]]; then
			timeout 20 "$T" -s 65536 -j2 -m 100 "$C/$k.$t" >"$W/got" 2>"$W/err"
		else
			timeout 20 "$T" ${DIRECT[$j]} -j$j -m 100 "$C/$k.$t" >"$W/got" 2>"$W/err"
		fi
		rc=$?
		if [[ $rc == 0 ]] && cmp -s "$W/got" "$W/first100"; then pass
		else fail "early close $t -j$j: rc $rc $(head -c 200 "$W/err")"
		fi
	done
done
# a standard input that stays open: dz_close must not wait for it
exec 3< <(cat "$C/$k.gzip"; sleep 30)
sleeper=$!
timeout 10 "$T" -m 100 - <&3 >"$W/got" 2>"$W/err"
rc=$?
exec 3<&-
kill "$sleeper" 2>/dev/null
if [[ $rc == 0 ]] && cmp -s "$W/got" "$W/first100"; then pass
else fail "early close on an open pipe: rc $rc"
fi

echo "== zeros: bounded memory"
zmb=200
[[ -n $SAN ]] && zmb=20
head -c ${zmb}M /dev/zero >"$W/zeros"
for t in gzip bgzip zstd zstdfile pzstd xz bzip2 lz4; do
	[[ $t == xz ]] && COMP[xz]="xz -1 -c"
	compress $t "$W/zeros"
	for j in 1 2; do
		/usr/bin/time -v "$T" ${DIRECT[$j]} -j$j "$C/zeros.$t" 2>"$W/time" |
		    cmp -s - "$W/zeros"
		ok=$?
		rss=$(awk '/Maximum resident/ {print $6}' "$W/time")
		if [[ $ok == 0 && ( -n $SAN || $rss -lt 102400 ) ]]; then pass
		else fail "zeros $t -j$j: cmp $ok, max RSS $rss KB"
		fi
		printf '  %-9s -j%d max RSS %6d KB\n' "$t" "$j" "$rss"
	done
done
rm -f "$W/zeros" "$C"/zeros.*

echo "decomp.sh: $passes passed, $fails failed (${SAN:-no sanitizer}; $W)"
[[ $fails == 0 ]]
