#!/usr/bin/env bash
# bench/decomp.sh: single-stream decompression speed, src/pipeline/decomp.c
# (--decompress) against the command-line decoders, on this machine.
#
# The text is the KJV Bible (bench/data/kjv.txt, .devdata/kjv.txt, or made
# with `bible`; else generated) repeated to about 275 MB, compressed once
# (cached in $DATA) with gzip -6, bgzip, zstd (one frame, and pzstd's many),
# xz, bzip2 and lz4.  Each decoder writes to /dev/null, each search to a
# file (grep and ugrep stop at the first match on /dev/null); the best of
# $RUNS wall times is kept, MB/s = plain bytes / seconds.  The module is timed
# through tests/decomp_test.c at -j1 (the pipe) and -j2 -d (the ring the
# pipeline reads).  (libdeflate for BGZF blocks, measured once against
# ISA-L's stateless inflate, was some 10% slower and is gone.)  Then the
# issue's search: agrep-gpu --decompress -c -k2 mercy over each form,
# against the plain file, igzip -dc | agrep-gpu, zcat | agrep-gpu and
# ugrep -z -c -Z2 (when installed).
#
# Environment: RUNS (default 3), DATA (default bench/data/decomp),
#   OUT (default bench/results/2core-decomp.md), COPIES (default 64).
# Needs: gzip bgzip (tabix) zstd pzstd xz bzip2 lz4 igzip (isal)
#   libdeflate-gunzip (libdeflate-tools) and the -dev packages of
#   tests/decomp.sh.
set -uo pipefail
export LC_ALL=C
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT" || exit 2
RUNS=${RUNS:-3}
DATA=${DATA:-bench/data/decomp}
OUT=${OUT:-bench/results/2core-decomp.md}
COPIES=${COPIES:-64}
mkdir -p "$DATA" "$(dirname "$OUT")" || exit 2

LIBS="-lisal -lzstd -llzma -lbz2 -llz4 -lpthread"
build() {	# build OUT [CFLAGS...]
	local out=$1
	shift
	gcc -std=gnu11 -O2 -Wall -Wextra -D_GNU_SOURCE -o "$out" \
	    tests/decomp_test.c src/pipeline/decomp.c src/base/util.c $LIBS "$@"
}
build "$DATA/dz_isal" || exit 2

# --- the text and its compressed forms (cached) ---------------------------
K=$DATA/kjv.txt
if [[ ! -s $K ]]; then
	for f in bench/data/kjv.txt .devdata/kjv.txt; do
		[[ -s $f ]] && cp "$f" "$K" && break
	done
fi
if [[ ! -s $K ]] && command -v bible >/dev/null; then
	bible "Gen1:1-Rev22:21" >"$K"
fi
if [[ ! -s $K ]]; then	# no Bible: numbered lines of words, 4.3 MB
	seq 1 110000 | awk '{print $1 ":1 And the LORD spake unto Moses, saying,"}' >"$K"
fi
P=$DATA/text
if [[ ! -s $P ]]; then
	for ((i = 0; i < COPIES; i++)); do cat "$K"; done >"$P"
fi
SIZE=$(stat -c %s "$P")
mk() {	# mk SUFFIX COMMAND...: $P.SUFFIX from the command, once
	[[ -s $P.$1 ]] && return
	local s=$1
	shift
	echo "compressing: $*" >&2
	"$@" <"$P" >"$P.$s.tmp" && mv "$P.$s.tmp" "$P.$s"
}
mk gz gzip -6 -c
mk bgz bgzip -@2 -c
mk zst zstd -q -c "--stream-size=$SIZE"
mk pzst pzstd -q -p 2 -c
mk xz xz -1 -T2 -c
mk bz2 bzip2 -c
mk lz4 lz4 -q -c

# --- timing ----------------------------------------------------------------
# best FILE COMMAND...: the best wall time of RUNS runs of COMMAND FILE.
best() {
	local f=$1 b="" t s e i
	shift
	for ((i = 0; i < RUNS; i++)); do
		s=$(date +%s%N)
		"$@" "$f" >"${SINK:-/dev/null}" 2>"$DATA/err" || { [[ $? == 1 ]] && [[ ! -s $DATA/err ]] || { echo fail; return; }; }
		e=$(date +%s%N)
		t=$(( (e - s) / 1000 ))
		[[ -z $b || $t -lt $b ]] && b=$t
	done
	echo "$b"
}
rows=()
row() {	# row INPUT-LABEL DECODER-LABEL FILE COMMAND...
	local in=$1 dec=$2 f=$3 us
	shift 3
	us=$(best "$f" "$@")
	if [[ $us == fail ]]; then
		rows+=("| $in | $dec | failed: $(head -c 80 "$DATA/err") | |")
	else
		rows+=("$(awk -v i="$in" -v d="$dec" -v us="$us" -v n="$SIZE" \
		    'BEGIN { printf "| %s | %s | %.2f | %.0f |", i, d, us / 1e6,
		    n / us }')")
	fi
	echo "${rows[-1]}" >&2
}
mine() {	# mine INPUT-LABEL FILE [BINARY]: the module at -j1 and -j2
	local b=${3:-$DATA/dz_isal} tag=${4:-}
	cmp -s <("$b" -j2 "$2") "$P" || rows+=("| $1 | decomp -j2 | WRONG OUTPUT | |")
	row "$1" "decomp.c -j1$tag" "$2" "$b" -j1
	row "$1" "decomp.c -j2$tag" "$2" "$b" -j2
	row "$1" "decomp.c -j2 -d$tag" "$2" "$b" -j2 -d
}

# search LABEL FILE COMMAND...: the search's seconds (output to a file)
srows=()
search() {
	local in=$1 f=$2 us
	shift 2
	us=$(SINK=$DATA/out best "$f" "$@")
	srows+=("$(awk -v i="$in" -v c="$*" -v us="$us" \
	    'BEGIN { printf "| %s | %s | %.3f |", i, c, us / 1e6 }')")
	echo "${srows[-1]}" >&2
}
zpipe() {	# zpipe DECODER FILE: DECODER -dc FILE | agrep-gpu -c -k2 mercy
	"$1" -dc "$2" | ./agrep-gpu -c -k2 mercy
}

row "gzip -6" "zcat (zlib, gzip -dc)" "$P.gz" gzip -dc
row "gzip -6" "igzip -dc (ISA-L)" "$P.gz" igzip -dc
row "gzip -6" "libdeflate-gunzip -c" "$P.gz" libdeflate-gunzip -c
mine "gzip -6" "$P.gz"
row "BGZF" "zcat (zlib, gzip -dc)" "$P.bgz" gzip -dc
row "BGZF" "bgzip -dc (htslib)" "$P.bgz" bgzip -dc
row "BGZF" "bgzip -dc -@2 (htslib)" "$P.bgz" bgzip -dc -@2
row "BGZF" "igzip -dc (ISA-L)" "$P.bgz" igzip -dc
row "BGZF" "libdeflate-gunzip -c" "$P.bgz" libdeflate-gunzip -c
mine "BGZF" "$P.bgz" "$DATA/dz_isal" " (ISA-L blocks)"
row "zstd -3, one frame" "zstd -dc" "$P.zst" zstd -dcq
mine "zstd -3, one frame" "$P.zst"
row "pzstd -p2 frames" "zstd -dc" "$P.pzst" zstd -dcq
row "pzstd -p2 frames" "pzstd -dc -p2" "$P.pzst" pzstd -dcq -p 2
mine "pzstd -p2 frames" "$P.pzst"
row "xz -1" "xz -dc" "$P.xz" xz -dc
mine "xz -1" "$P.xz"
row "bzip2 -9" "bzip2 -dc" "$P.bz2" bzip2 -dc
mine "bzip2 -9" "$P.bz2"
row "lz4 -1" "lz4 -dc" "$P.lz4" lz4 -dcq
mine "lz4 -1" "$P.lz4"

if [[ -x ./agrep-gpu ]]; then
	search "plain" "$P" ./agrep-gpu -c -k2 mercy
	search "gzip -6" "$P.gz" ./agrep-gpu --decompress -c -k2 mercy
	search "gzip -6" "$P.gz" zpipe igzip
	search "gzip -6" "$P.gz" zpipe gzip
	command -v ugrep >/dev/null &&
	    search "gzip -6" "$P.gz" ugrep -z -c -Z2 mercy
	search "BGZF" "$P.bgz" ./agrep-gpu --decompress -c -k2 mercy
	search "BGZF" "$P.bgz" ./agrep-gpu -j1 --decompress -c -k2 mercy
	search "pzstd frames" "$P.pzst" ./agrep-gpu --decompress -c -k2 mercy
	search "pzstd frames" "$P.pzst" ./agrep-gpu -j1 --decompress -c -k2 mercy
	search "xz -1" "$P.xz" ./agrep-gpu --decompress -c -k2 mercy
	search "lz4 -1" "$P.lz4" ./agrep-gpu --decompress -c -k2 mercy
fi

{
	echo "# Decompression: src/pipeline/decomp.c against the command-line decoders"
	echo
	echo "$(date +%F), $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores;" \
	    "the KJV Bible x $COPIES = $SIZE bytes, compressed:" \
	    "$(cd "$DATA" && for s in gz bgz zst pzst xz bz2 lz4; do
		printf '%s %d MB, ' "$s" $(( $(stat -c %s "text.$s") >> 20 ))
	    done | sed 's/, $//')." \
	    "Decoders' output to /dev/null; best of $RUNS runs; MB/s = plain bytes / s." \
	    "decomp.c is timed through tests/decomp_test.c (its pipe and a copy" \
	    "to stdout included); -jN: N decoder threads (BGZF, zstd frames)."
	echo
	echo "| input | decoder | s | MB/s |"
	echo "|---|---|---|---|"
	printf '%s\n' "${rows[@]}"
	if ((${#srows[@]})); then
		echo
		echo "The search, \`-c -k2 mercy\` (best of $RUNS, seconds):"
		echo
		echo "| input | command | s |"
		echo "|---|---|---|"
		printf '%s\n' "${srows[@]}"
	fi
} >"$OUT"
echo "wrote $OUT" >&2
