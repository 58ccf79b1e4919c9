#!/usr/bin/env bash
# bench/many.sh: many patterns at once (-f), k=1, over the King James Bible:
# agrep-gpu by default (the engine it chooses), on the host matcher with and
# without the shared many-pattern filter, on each OpenCL device, against
# ugrep -Z1 -f and a loop of tre-agrep (timed on a sample of the patterns and
# extrapolated).  Appends a Markdown section to $OUT (default
# bench/results/many.md).
#   AGREP_GPU_DEVICES  OpenCL devices to time (default: those --list-devices
#                      shows; "" for none)
#   MANY_COUNTS        pattern counts (default "1000 10000")
#   MANY_RUNS          hyperfine runs per case (default 10)
#   MANY_SLOW          also time the host without the shared filter
#                      (AGREP_GPU_HOST_ENGINE=nomulti; 10-150 s a run)
# Times: with hyperfine, mean +- sd and the fastest run, the output to a pipe
# (GNU grep and ugrep stop at the first match when it is /dev/null); else one
# run of /usr/bin/time.
set -uo pipefail
export LC_ALL=C
cd "$(dirname "$0")/.." || exit 2
B=${AGREP_GPU:-./agrep-gpu}
OUT=${OUT:-bench/results/many.md}
RUNS=${MANY_RUNS:-10}
D=bench/data
mkdir -p "$D"
K=$D/kjv.txt
[ -s "$K" ] || { [ -s .devdata/kjv.txt ] && cp .devdata/kjv.txt "$K"; } ||
    bible "Gen1:1-Rev22:21" > "$K"
DEVS=${AGREP_GPU_DEVICES-"$($B --list-devices 2>/dev/null | cut -d: -f1 | tr '\n' ' ')"}

# patterns N: N distinct random 5-15 byte substrings of the Bible (fixed seed).
patterns() {
	awk -v n="$1" 'BEGIN { srand(7) } { t = t $0 "\n" } END {
		while (c < n) { l = 5 + int(rand() * 11); i = 1 + int(rand() * (length(t) - l))
			s = substr(t, i, l); if (s ~ /\n/ || s in seen) continue
			seen[s] = 1; print s; c++ } }' "$K"
}
# timed CMD...: "mean +- sd (min)" in seconds
timed() {
	if command -v hyperfine >/dev/null; then
		local j=$D/hf.json
		hyperfine -N --output=pipe -w 1 -r "$RUNS" --export-json "$j" "$(printf '%q ' "$@")" >/dev/null 2>&1 &&
		    python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"][0]
print("%.4f +- %.4f (min %.4f)" % (r["mean"], r["stddev"] or 0, r["min"]))' "$j"
	else
		/usr/bin/time -f %e "$@" 2>&1 >/dev/null | tail -1
	fi
}
secs() { /usr/bin/time -f %e "$@" 2>&1 >/dev/null | tail -1; }

{
echo "## Many patterns (-f, k=1) over the Bible ($(stat -c %s $K) bytes)"
echo
echo "$(date -u +%F) on $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), commit $(git rev-parse --short HEAD 2>/dev/null), load average $(cut -d' ' -f1-3 /proc/loadavg)."
echo "Lines: lines selected (-c).  Wall: seconds, $( command -v hyperfine >/dev/null && echo "hyperfine, $RUNS runs, output to a pipe" || echo "one run")."
echo
echo "| patterns | tool | wall s | lines |"
echo "|---|---|---|---|"
for n in ${MANY_COUNTS:-1000 10000}; do
	P=$D/pat$n.txt
	[ -s "$P" ] || patterns "$n" > "$P"
	row() {	# row LABEL CMD...
		local label=$1; shift
		echo "| $n | $label | $(timed "$@") | $("$@" 2>/dev/null) |"
	}
	row "agrep-gpu (default)" $B -c -k1 -f "$P" "$K"
	row "agrep-gpu --device=host" $B --device=host -c -k1 -f "$P" "$K"
	[ -n "${MANY_SLOW:-}" ] &&
	    echo "| $n | agrep-gpu --device=host, without the shared filter | $(secs env AGREP_GPU_HOST_ENGINE=nomulti $B --device=host -c -k1 -f "$P" "$K") | $(AGREP_GPU_HOST_ENGINE=nomulti $B --device=host -c -k1 -f "$P" "$K") |"
	for d in $DEVS; do
		env AGREP_GPU_HOST_MAX=0 $B --device=$d -c -k1 -f "$P" "$K" >/dev/null 2>&1
		echo "| $n | agrep-gpu --device=$d (OpenCL) | $(secs env AGREP_GPU_HOST_MAX=0 $B --device=$d -c -k1 -f "$P" "$K") | $(AGREP_GPU_HOST_MAX=0 $B --device=$d -c -k1 -f "$P" "$K" 2>/dev/null) |"
	done
	if command -v ugrep >/dev/null; then
		row "ugrep -Z1 -f (never edits the first byte)" ugrep -c -U -F -Z1 -f "$P" "$K"
	fi
	if command -v tre-agrep >/dev/null; then
		head -20 "$P" > $D/sample.txt
		t0=$(date +%s.%N)
		while IFS= read -r p; do tre-agrep -c -k -1 -- "$p" "$K" >/dev/null; done < $D/sample.txt
		t1=$(date +%s.%N)
		w=$(awk -v a="$t0" -v b="$t1" -v n="$n" 'BEGIN { printf "%.0f", (b - a) / 20 * n }')
		echo "| $n | tre-agrep, one run per pattern (20 timed, extrapolated) | ~$w | - |"
	fi
done
echo
} | tee -a "$OUT"
