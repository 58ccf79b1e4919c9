#!/usr/bin/env bash
# bench/refine.sh: the options that refine each selected line (-o,
# --show-cost, --json, -w, -x) with many patterns, -k1 Bible words and
# -k3 DNA primers, for two builds: BEFORE (default: ./agrep-gpu with
# AGREP_GPU_REFINE=all, every pattern tried on every line) and ./agrep-gpu
# (the line's candidate patterns).  Checks that both print the same bytes
# (--json: but for the elapsed times) and prints a Markdown table.
#   BEFORE=PATH   another build as the reference (e.g. one of before the
#                 candidates, whose -v-less --show-cost also refined the
#                 lines the scan did not select)
#   RUNS=N        runs per case (default 3; the fastest is shown)
#   SKIP_BEFORE=1 time only ./agrep-gpu
# Data: /tmp/kjv.txt (bible "Gen1:1-Rev22:21"), bench/bin/gen_dna.
set -uo pipefail
export LC_ALL=C
cd "$(dirname "$0")/.." || exit 2
A=./agrep-gpu
D=${DATA:-bench/data/refine}
RUNS=${RUNS:-3}
mkdir -p "$D"
K=/tmp/kjv.txt
[ -s "$K" ] || bible "Gen1:1-Rev22:21" > "$K"
[ -s "$D/kjv10.txt" ] || head -c 430000 "$K" | sed '$d' > "$D/kjv10.txt"
# distinct Bible words of 3+ letters, 1,000 and 10,000 of them (fixed seed)
tr -cs 'A-Za-z' '\n' < "$K" | awk 'length($0) >= 3' | sort -u > "$D/words"
[ -s "$D/w1000" ] || shuf -n 1000 --random-source=<(yes 1) "$D/words" > "$D/w1000"
[ -s "$D/w10000" ] || shuf -n 10000 --random-source=<(yes 2) "$D/words" > "$D/w10000"
# 8 MB of 150-base reads, 1,000 primers: 24-base substrings of them
if [ ! -s "$D/dna8" ]; then
	make -s bench/bin/gen_dna >/dev/null
	bench/bin/gen_dna 8388608 "$D/dnapat" 150 > "$D/dna8" 2>/dev/null
fi
# (python3's random, seed 23, after a draw of 100: the numbers in
# bench/results/many.md)
[ -s "$D/p1000" ] || python3 -c 'import random, sys
random.seed(23)
t = [l for l in open(sys.argv[1]).read().split("\n") if len(l) >= 150]
for n in (100, 1000):
    out = set()
    while len(out) < n:
        l = random.choice(t); i = random.randrange(0, len(l) - 24); out.add(l[i:i + 24])
print("\n".join(sorted(out)))' "$D/dna8" > "$D/p1000"
# best CMD...: the fastest of RUNS runs, "wall (user)" seconds (output to
# $D/out): on a shared machine the user time moves less with the load
best() {
	local b="" t i
	for ((i = 0; i < RUNS; i++)); do
		/usr/bin/time -f "%e %U" -o "$D/time" "$@" > "$D/out" 2>/dev/null
		t=$(tail -1 "$D/time")
		[ -z "$b" ] || awk -v a="${t% *}" -v b="${b% *}" 'BEGIN { exit !(a < b) }' && b=$t
	done
	echo "${b% *} (${b#* })"
}
strip() { sed 's/"elapsed.*//' "$1"; }

echo "$(date -u +%F) $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) CPUs, commit $(git rev-parse --short HEAD), load average $(cut -d' ' -f1-3 /proc/loadavg); fastest of $RUNS runs"
echo
echo "| patterns | text | flags | before s (user) | after s (user) | same output |"
echo "|---|---|---|---:|---:|---|"
row() {	# row LABEL TEXTLABEL PATFILE TEXT FLAGS...
	local label=$1 tl=$2 p=$3 t=$4 b a same=-
	shift 4
	if [ -z "${SKIP_BEFORE:-}" ]; then
		if [ -n "${BEFORE:-}" ]; then
			b=$(best "$BEFORE" "$@" -f "$p" "$t")
		else
			b=$(best env AGREP_GPU_REFINE=all $A "$@" -f "$p" "$t")
		fi
		cp "$D/out" "$D/out.before"
	else
		b=-
	fi
	a=$(best $A "$@" -f "$p" "$t")
	[ -z "${SKIP_BEFORE:-}" ] && { cmp -s <(strip "$D/out.before") <(strip "$D/out") && same=yes || same=NO; }
	echo "| $label | $tl | $* | $b | $a | $same |"
}
for f in "-c" "-o" "--show-cost" "--json" "-w -o" "-x"; do
	row "1,000 words" "Bible (4.3 MB)" "$D/w1000" "$K" -k1 $f
done
for f in "-c" "-o" "--show-cost" "-w -o"; do
	row "10,000 words" "Bible, first 430 KB" "$D/w10000" "$D/kjv10.txt" -k1 $f
done
for f in "-c" "-o" "--show-cost" "--json"; do
	row "1,000 primers" "DNA reads (8 MB)" "$D/p1000" "$D/dna8" -k3 $f
done
