#!/bin/bash
# bench/small.sh: small inputs, where the process costs more than the engine
# (issue 20).  Each case is timed with hyperfine in one run (output to a
# pipe: grep and ugrep stop at the first match on /dev/null), with the page
# faults and system time of one run beside it (/usr/bin/time); GNU grep -F
# is the floor.  Writes bench/results/2core-small.md (OUT=... to change) and
# prints it.  `make bench-small`.
#   the Bible (4.3 MB): k=0 against grep -c -F; k=1..3 against grep -c -F
#     of the same pattern, ugrep -c -Z and agrep 3.0 (glimpse)
#   a 1 KB file: against grep
#   the Bible, a 53-byte phrase at k=0 and k=5: against grep -c -F
set -eu
cd "$(dirname "$0")/.."
OUT=${OUT:-bench/results/2core-small.md}
RUNS=${BENCH_RUNS:-40}
B=$PWD/agrep-gpu
D=${BENCH_DIR:-bench/data}
command -v hyperfine >/dev/null || { echo "small.sh: needs hyperfine"; exit 1; }
[ -x /usr/bin/time ] || { echo "small.sh: needs /usr/bin/time (package time)"; exit 1; }
mkdir -p "$D"
[ -s "$D/kjv.txt" ] || bible "Gen1:1-Rev22:21" > "$D/kjv.txt"
K=$D/kjv.txt
head -c 1024 "$K" > "$D/k1k.txt"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# mean CMD: mean ms of hyperfine over RUNS runs (its mean system ms in
# $TMP/sys)
mean() {
	hyperfine -N -i --style none --output=pipe --warmup 5 --runs "$RUNS" \
	    --export-csv "$TMP/hf.csv" -- "$1" >/dev/null 2>&1 || true
	awk -F, 'NR == 2 { printf "%.2f", $6 * 1000 > "'"$TMP/sys"'";
	    printf "%.2f", $2 * 1000 }' "$TMP/hf.csv"
}
# faults CMD: "minor faults of one run / mean system ms" (after mean CMD)
faults() {
	# shellcheck disable=SC2086 # the command's words
	/usr/bin/time -o "$TMP/tm" -f '%R' $1 > "$TMP/o" 2>/dev/null || true
	printf '%d / %s' "$(tail -1 "$TMP/tm")" "$(cat "$TMP/sys")"
}
# row LABEL FLOOR CMD...: one line of the table, the ratio to FLOOR's mean
row() {
	local label=$1 floor=$2; shift 2
	local fm c m line
	fm=$(mean "$floor")
	line="| $label | grep $fm ms, $(faults "$floor") |"
	for c in "$@"; do
		m=$(mean "$c")
		line="$line $m ms ($(awk -v a="$m" -v b="$fm" 'BEGIN { printf "%.2f", a / b }')x), $(faults "$c") |"
	done
	echo "$line" >> "$TMP/rows"
	echo "$line" >&2
}

{
	echo "# Small inputs (bench/small.sh)"
	echo
	echo "$(date -u +%Y-%m-%d), $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p' | head -1)," \
	    "host level $("$B" --list-devices 2>/dev/null | sed -n 's/^host: \([a-z0-9]*\).*/\1/p')."
	echo "Mean of $RUNS runs (hyperfine, output to a pipe), then the minor page"
	echo "faults of one run / hyperfine's mean system ms; the ratio is to grep -c -F"
	echo "of the same pattern."
	echo
} > "$TMP/head"

: > "$TMP/rows"
for p in Abraham LORD mercy; do
	row "k=0 \`-c $p\`" "grep -c -F $p $K" "$B -c $p $K"
done
echo "| case | grep -c -F | agrep-gpu | ugrep -c -Z | agrep 3.0 |" > "$TMP/t1"
echo "|---|---|---|---|---|" >> "$TMP/t1"
mv "$TMP/rows" "$TMP/r0"; : > "$TMP/rows"
have_agrep=$(command -v agrep || true)
for c in "1 Abraham" "1 LORD" "2 mercy" "2 endureth" "3 righteousness"; do
	set -- $c
	row "k=$1 \`-c $2\`" "grep -c -F $2 $K" "$B -c -k$1 $2 $K" \
	    "ugrep -c -Z$1 $2 $K" "${have_agrep:+agrep -$1 -c $2 $K}"
done
mv "$TMP/rows" "$TMP/r1"; : > "$TMP/rows"
row "1 KB file, \`-c -k1 Abraham\`" "grep -c -F Abraham $D/k1k.txt" \
    "$B -c -k1 Abraham $D/k1k.txt"
# issue 36's phrase (53 bytes): -k5 within 1.5x of grep -F of the same phrase
# (a pattern file: the commands are split on blanks)
echo "In the beginning God created the heaven and the earth" > "$D/phrase53.txt"
for k in 0 5; do
	row "the Bible, \`-c -k$k -f\` a 53-byte phrase" \
	    "grep -c -F -f $D/phrase53.txt $K" "$B -c -k$k -f $D/phrase53.txt $K"
done
{
	cat "$TMP/head"
	echo "| case | grep -c -F | agrep-gpu |"
	echo "|---|---|---|"
	cat "$TMP/r0"
	echo
	cat "$TMP/t1" "$TMP/r1"
	echo
	echo "| case | grep -c -F | agrep-gpu |"
	echo "|---|---|---|"
	cat "$TMP/rows"
} > "$OUT"
cat "$OUT"
