#!/bin/bash
# bench/utf8.sh: UTF-8 mode (distance over characters) against byte mode
# and the peers that count characters, timed in one run with hyperfine
# (output to a pipe).  Writes its section into bench/results/2core.md between
# the markers <!-- utf8 --> and <!-- /utf8 --> (OUT=... to change), prints it.
#   Russian text (Debian's fortunes-ru, valid UTF-8 files, 12 copies, 42 MB):
#     agrep-gpu --utf8 (automatic engine, host, POCL) against --bytes,
#     ugrep -Z (Unicode characters, first one never edited) and, on one
#     copy (3.5 MB), tre-agrep in C.UTF-8
#   the Bible x8 (34 MB, ASCII): --utf8 against --bytes (ASCII must not
#     slow down)
set -eu
cd "$(dirname "$0")/.."
OUT=${OUT:-bench/results/2core.md}
RUNS=${BENCH_RUNS:-5}
B=$PWD/agrep-gpu
D=${BENCH_DIR:-bench/data}
command -v hyperfine >/dev/null || { echo "utf8.sh: needs hyperfine"; exit 1; }
mkdir -p "$D"
export LC_ALL=C.UTF-8
[ -s "$D/kjv.txt" ] || bible "Gen1:1-Rev22:21" > "$D/kjv.txt"
[ -s "$D/kjv8.txt" ] || for i in 1 2 3 4 5 6 7 8; do cat "$D/kjv.txt"; done > "$D/kjv8.txt"
if [ ! -s "$D/ru1.txt" ]; then
	for f in /usr/share/games/fortunes/ru/*; do
		case $f in *.dat|*.u8) continue ;; esac
		iconv -f UTF-8 -t UTF-8 "$f" >/dev/null 2>&1 && cat "$f"
	done > "$D/ru1.txt"
fi
[ -s "$D/ru1.txt" ] || { echo "utf8.sh: needs fortunes-ru (make deps)"; exit 1; }
[ -s "$D/ru12.txt" ] || for i in $(seq 12); do cat "$D/ru1.txt"; done > "$D/ru12.txt"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

WARMUP=1
. bench/hf.sh

: > "$TMP/rows"
R=$D/ru12.txt
rb=$(size "$R")
for c in "1 приходит" "2 приходит" "2 Евгений Кащеев" "1 -i ПРИХОДИТ"; do
	k=${c%% *}; p=${c#* }; i=""
	case $p in -i\ *) i="-i "; p=${p#-i } ;; esac
	row "Russian 42 MB: agrep-gpu --utf8 -c ${i}-k$k '$p'" "$rb" "$B --utf8 -c $i-k$k '$p' $R"
	row "Russian 42 MB: agrep-gpu --utf8 --device=host -c ${i}-k$k '$p'" "$rb" "$B --utf8 --device=host -c $i-k$k '$p' $R"
	row "Russian 42 MB: agrep-gpu --utf8 --device=cpu (POCL) -c ${i}-k$k '$p'" "$rb" "$B --utf8 --device=cpu -c $i-k$k '$p' $R"
	row "Russian 42 MB: agrep-gpu --bytes -c ${i}-k$k '$p' (bytes: other lines)" "$rb" "$B --bytes -c $i-k$k '$p' $R"
	row "Russian 42 MB: ugrep -c -Z$k ${i}'$p'" "$rb" "ugrep -c -Z$k $i'$p' $R"
done
r1=$(size "$D/ru1.txt")
row "Russian 3.5 MB: agrep-gpu --utf8 -c -k2 'приходит'" "$r1" "$B --utf8 -c -k2 'приходит' $D/ru1.txt"
row "Russian 3.5 MB: tre-agrep -c -2 'приходит'" "$r1" "tre-agrep -c -2 'приходит' $D/ru1.txt"
kb=$(size "$D/kjv8.txt")
for m in --utf8 --bytes; do
	row "Bible x8 34 MB (ASCII): agrep-gpu $m -c -k2 mercy" "$kb" "$B $m -c -k2 mercy $D/kjv8.txt"
	row "Bible x8 34 MB (ASCII): agrep-gpu $m -c -i -k1 LORD" "$kb" "$B $m -c -i -k1 LORD $D/kjv8.txt"
done

{
echo "<!-- utf8 -->"
echo "## UTF-8 mode (bench/utf8.sh)"
echo
echo "$(date -u +%Y-%m-%d), $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores, commit" \
    "$(git rev-parse --short HEAD 2>/dev/null); hyperfine -N, $RUNS runs after a warm-up," \
    "output to a pipe, LC_ALL=C.UTF-8; median ms; MB/s = input bytes / median." \
    "Lines: the -c counts summed (byte mode and ugrep -Z select other lines)."
echo
echo "| case | median ms | MB/s | lines |"
echo "|---|---|---|---|"
cat "$TMP/rows"
echo "<!-- /utf8 -->"
} > "$TMP/section"
cat "$TMP/section"
if grep -q '^<!-- utf8 -->' "$OUT" 2>/dev/null; then
	awk -v f="$TMP/section" '/^<!-- utf8 -->/ { while ((getline l < f) > 0) print l; skip = 1; next }
	    /^<!-- \/utf8 -->/ { skip = 0; next } !skip' "$OUT" > "$TMP/out" && cp "$TMP/out" "$OUT"
else
	{ echo; cat "$TMP/section"; } >> "$OUT"
fi
