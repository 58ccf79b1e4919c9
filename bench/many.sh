#!/usr/bin/env bash
# bench/many.sh: many patterns at once (-f), k=1, over the King James Bible:
# agrep-gpu on each device against ugrep -Z1 -f and a loop of tre-agrep
# (timed on a sample of the patterns and extrapolated).  Appends a Markdown
# section to $OUT (default bench/RESULTS-many.md).
#   AGREP_GPU_DEVICES  devices to time (default: those --list-devices shows,
#                      and host)
#   MANY_COUNTS        pattern counts (default "1000 10000")
set -uo pipefail
export LC_ALL=C
cd "$(dirname "$0")/.." || exit 2
B=${AGREP_GPU:-./agrep-gpu}
OUT=${OUT:-bench/RESULTS-many.md}
D=bench/data
mkdir -p "$D"
K=$D/kjv.txt
[ -s "$K" ] || { [ -s .devdata/kjv.txt ] && cp .devdata/kjv.txt "$K"; } ||
    bible "Gen1:1-Rev22:21" > "$K"
DEVS=${AGREP_GPU_DEVICES:-"$($B --list-devices 2>/dev/null | cut -d: -f1 | tr '\n' ' ')host"}

# patterns N: N distinct random 5-15 byte substrings of the Bible (fixed seed).
patterns() {
	awk -v n="$1" 'BEGIN { srand(7) } { t = t $0 "\n" } END {
		while (c < n) { l = 5 + int(rand() * 11); i = 1 + int(rand() * (length(t) - l))
			s = substr(t, i, l); if (s ~ /\n/ || s in seen) continue
			seen[s] = 1; print s; c++ } }' "$K"
}
secs() { /usr/bin/time -f %e "$@" 2>&1 >/dev/null | tail -1; }

{
echo "## Many patterns (-f, k=1) over the Bible ($(stat -c %s $K) bytes)"
echo
echo "$(date -u +%F) on $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), commit $(git rev-parse --short HEAD 2>/dev/null)."
echo "Lines are the selected lines; kernel time from AGREP_GPU_STATS."
echo
echo "| patterns | tool | wall s | kernel s | lines |"
echo "|---|---|---|---|---|"
for n in ${MANY_COUNTS:-1000 10000}; do
	P=$D/pat$n.txt
	[ -s "$P" ] || patterns "$n" > "$P"
	for d in $DEVS; do
		env AGREP_GPU_HOST_MAX=0 $B --device=$d -c -k1 -f "$P" "$K" >/dev/null 2>&1
		w=$(secs env AGREP_GPU_HOST_MAX=0 $B --device=$d -c -k1 -f "$P" "$K")
		ks=$(AGREP_GPU_STATS=1 AGREP_GPU_HOST_MAX=0 $B --device=$d -c -k1 -f "$P" "$K" 2>&1 >/dev/null |
		    sed -n 's/.*kernel \([0-9.]*\) s.*/\1/p')
		l=$(AGREP_GPU_HOST_MAX=0 $B --device=$d -c -k1 -f "$P" "$K" 2>/dev/null)
		echo "| $n | agrep-gpu --device=$d | $w | ${ks:--} | $l |"
	done
	if command -v ugrep >/dev/null; then
		w=$(secs ugrep -c -U -F -Z1 -f "$P" "$K")
		l=$(ugrep -c -U -F -Z1 -f "$P" "$K")
		echo "| $n | ugrep -Z1 -f (first byte must match) | $w | - | $l |"
	fi
	if command -v tre-agrep >/dev/null; then
		head -20 "$P" > $D/sample.txt
		t0=$(date +%s.%N)
		while IFS= read -r p; do tre-agrep -c -k -1 -- "$p" "$K" >/dev/null; done < $D/sample.txt
		t1=$(date +%s.%N)
		w=$(awk -v a="$t0" -v b="$t1" -v n="$n" 'BEGIN { printf "%.0f", (b - a) / 20 * n }')
		echo "| $n | tre-agrep, one run per pattern (20 timed, extrapolated) | ~$w | - | - |"
	fi
done
echo
} | tee -a "$OUT"
