#!/bin/bash
# bench/regex.sh: approximate regular expressions (issue 24) against
# tre-agrep, ugrep -Z and agrep 3.0 (glimpse), in one run.  `make bench-regex`.
#
#   BENCH_REGEX_N=60 (the Bible x N; 60 is 258 MB), BENCH_RUNS=3,
#   BENCH_BIN=./agrep-gpu (a copy leaves the tree free to be rebuilt),
#   BENCH_DIR=bench/data, OUT=bench/results/regex.md (written, and printed)
#
# Each case is an extended expression (classes, ?, *, +, alternation,
# anchors, word anchors, up to 53 positions) at k = 1, 2, 3.  agrep-gpu
# (both cores, and -j1: one thread, as the peers run on one file),
# ugrep -Z and agrep 3.0 run over the Bible x N; tre-agrep, about 100x
# slower, over the Bible once (4.3 MB), beside agrep-gpu over the same
# file: its rate is compared with ours over the big file, its lines with
# ours over the small one.  Time: hyperfine's median wall time of
# BENCH_RUNS runs and their mean CPU time (user + system), output to a pipe
# (grep and ugrep stop at the first match when it goes to /dev/null); the
# ratios are of CPU times, agrep-gpu -j1's against the peers' (one thread
# each), which other jobs on a shared machine disturb less than wall time.  Lines: -c of one more run.  ugrep -Z is inexact (it never
# edits the first character, and more): its lines are printed beside ours.
# agrep 3.0 takes a subset of the syntax (no ? + \< \>, anchors only at the
# ends): where it has none, the column says "-"; where an expression can be
# written in its syntax, that form is given.
set -eu
cd "$(dirname "$0")/.."
OUT=${OUT:-bench/results/regex.md}
RUNS=${BENCH_RUNS:-3}
N=${BENCH_REGEX_N:-60}
D=${BENCH_DIR:-bench/data}
B=${BENCH_BIN:-$PWD/agrep-gpu}
for t in hyperfine tre-agrep ugrep agrep bible; do
	command -v $t >/dev/null || { echo "regex.sh: needs $t"; exit 1; }
done
[ -x "$B" ] || { echo "regex.sh: build ./agrep-gpu first (make)"; exit 1; }
mkdir -p "$D"
[ -s "$D/kjv.txt" ] || bible "Gen1:1-Rev22:21" > "$D/kjv.txt"
K1=$D/kjv.txt
KN=$D/kjv-x$N.txt
if [ ! -s "$KN" ]; then
	for _ in $(seq "$N"); do cat "$K1"; done > "$KN.tmp"
	mv "$KN.tmp" "$KN"
fi
S1=$(stat -c %s "$K1")
SN=$(stat -c %s "$KN")
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# secs CMD: hyperfine's median wall seconds of CMD (a string), output to
# a pipe; its mean CPU seconds (user + system) into $TMP/cpu
secs() {
	hyperfine -N -i --style none --output=pipe --warmup 0 --runs "$RUNS" \
	    --export-csv "$TMP/hf.csv" -- "$1" >/dev/null 2>&1 || true
	# (fields from the end: the command may hold commas)
	awk -F, 'NR == 2 { printf "%.3f", $(NF - 3) + $(NF - 2) }' \
	    "$TMP/hf.csv" > "$TMP/cpu"
	awk -F, 'NR == 2 { printf "%.3f", $(NF - 4) }' "$TMP/hf.csv"
}
cpu() { cat "$TMP/cpu"; }
# count CMD: the number CMD (a -c run) prints, or "err"
count() {
	local c
	c=$(bash -c "$1" 2>/dev/null) || true
	case $c in ''|*[!0-9]*) echo err ;; *) echo "$c" ;; esac
}
# rate BYTES SECS: MB/s
rate() { awk -v b="$1" -v s="$2" 'BEGIN { printf "%.0f", (s > 0 ? b / s / 1e6 : 0) }'; }
# ratio A B: A / B, two decimals
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", (b > 0 ? a / b : 0) }'; }
q() { printf "'%s'" "${1//\'/\'\\\'\'}"; }

# expression <TAB> agrep 3.0 form ("-": none)
cat > "$TMP/cases" <<'EOF'
se(r|v)+ant	se(r|v)(r|v)*ant
the (LORD|Lord)+ God	the (LORD|Lord)(LORD|Lord)* God
mercy.*ever	mercy.*ever
j[aeiou]*b	j[aeiou]*b
[A-Z][a-z]+ of [A-Z][a-z]+	[A-Z][a-z][a-z]* of [A-Z][a-z][a-z]*
wh(o|ic)h?	-
(Abraham|Isaac|Jacob)'s (son|daughter|wife)s?	-
^(And|But) the	^(And|But) the
(^And|LORD\.$)	-
\<se(r|v)+ants?\>	-
And (he|she|they) (said|spake) unto (him|her|them|Moses|Aaron), [A-Z][a-z]+	-
EOF

{
	echo "# Approximate regular expressions (bench/regex.sh)"
	echo
	echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p' | head -1)," \
	    "host level $("$B" --list-devices 2>/dev/null | sed -n 's/^host: \([a-z0-9]*\).*/\1/p'), commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')."
	echo "Load average at the start: $(cut -d' ' -f1-3 /proc/loadavg) (other jobs share the machine)."
	echo "The Bible x$N ($((SN / 1000000)) MB) in the page cache; $RUNS runs each (hyperfine,"
	echo "output to a pipe). agrep-gpu: median wall seconds with its default threads"
	echo "(both cores), then CPU seconds (user + system, mean) with -j1 (one thread) and"
	echo "MB/s of CPU; the peers (one thread each over one file): CPU seconds (MB/s)."
	echo "Lines: -c. tre-agrep over the Bible once ($((S1 / 1000000)) MB): its CPU seconds (MB/s), and"
	echo "its lines beside agrep-gpu's over that file. x: the peer's CPU seconds over"
	echo "agrep-gpu -j1's (tre-agrep: agrep-gpu -j1's MB/s over its MB/s)."
	echo
	echo "| expression | k | agrep-gpu wall | -j1 CPU | lines | ugrep -Z | lines | x | agrep 3.0 | lines | x | tre-agrep (x1) | lines x1 (ours) | x |"
	echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
} > "$TMP/out"
cat "$TMP/out"

while IFS=$'\t' read -r e ae; do
	for k in 1 2 3; do
		ours="$B -c -E -k$k $(q "$e") $KN"
		w0=$(secs "$ours")
		secs "$B -j1 -c -E -k$k $(q "$e") $KN" >/dev/null
		t0=$(cpu)
		l0=$(count "$ours")
		ug="ugrep -c -E -Z$k $(q "$e") $KN"
		secs "$ug" >/dev/null
		t1=$(cpu)
		l1=$(count "$ug")
		if [ "$ae" = - ]; then
			acol="- | - | -"
		else
			ag="agrep -c -$k $(q "$ae") $KN"
			secs "$ag" >/dev/null
			t2=$(cpu)
			l2=$(count "$ag")
			acol="$t2 ($(rate "$SN" "$t2")) | $l2 | $(ratio "$t2" "$t0")"
		fi
		tre="tre-agrep -c -E $k -e $(q "$e") $K1"
		secs "$tre" >/dev/null
		t3=$(cpu)
		l3=$(count "$tre")
		l4=$(count "$B -c -E -k$k $(q "$e") $K1")
		r0=$(rate "$SN" "$t0")
		r3=$(rate "$S1" "$t3")
		line="| \`${e//|/\\|}\` | $k | $w0 | $t0 ($r0) | $l0 | $t1 ($(rate "$SN" "$t1")) | $l1 | $(ratio "$t1" "$t0") | $acol | $t3 ($r3) | $l3 ($l4) | $(ratio "$r0" "$r3") |"
		echo "$line" | tee -a "$TMP/out"
	done
done < "$TMP/cases"
cp "$TMP/out" "$OUT"
