#!/usr/bin/env bash
# bench/hostengine.sh: the host matcher's scalar engine against the SIMD one
# (src/simd.c) on the King James Bible (4.3 MB) and the Bible x8 (34 MB), one
# core, in two ways:
#   engine: bench/bin/hostengine times hm_scan_scalar and each SIMD variant
#           alone over the whole file (median of RUNS runs);
#   tool:   agrep-gpu --device=host -c with AGREP_GPU_HOST_ENGINE=scalar|simd,
#           wall time (hyperfine's median, else the median of RUNS runs of
#           date +%s%N), taskset to one core.
# Prints a Markdown table per file.  Run from the top of the repository after
# `make agrep-gpu bench/bin/hostengine`; needs bible(1) (bible-kjv).
#   RUNS=5 bash bench/hostengine.sh
set -euo pipefail
RUNS=${RUNS:-5}
D=bench/data
mkdir -p "$D"
[ -s "$D/kjv.txt" ] || bible "Gen1:1-Rev22:21" > "$D/kjv.txt"
[ -s "$D/kjv8.txt" ] || for i in 1 2 3 4 5 6 7 8; do cat "$D/kjv.txt"; done > "$D/kjv8.txt"
CASES=(
    "1|LORD"
    "2|mercy"
    "2|endureth"
    "3|righteousness"
    "2|for his mercy endureth for ever"
    "4|for his mercy endureth for ever"
    "3|And the LORD said unto Moses, Stretch ou"
    "3|And God saw the light, that it was good: and God divided the"
)
PIN=""
command -v taskset >/dev/null && PIN="taskset -c 0"

# median of the numbers on stdin
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# tool_time ENGINE K PATTERN FILE: median wall seconds
tool_time() {
    local e=$1 k=$2 p=$3 f=$4
    if command -v hyperfine >/dev/null; then
        hyperfine -N -w 1 -r "$RUNS" --output=pipe --export-json /tmp/hostengine.$$.json \
            "env AGREP_GPU_HOST_ENGINE=$e $PIN ./agrep-gpu --device=host -c -k $k '$p' $f" \
            >/dev/null 2>&1
        python3 -c "import json;print(json.load(open('/tmp/hostengine.$$.json'))['results'][0]['median'])"
        rm -f /tmp/hostengine.$$.json
    else
        for ((r = 0; r < RUNS; r++)); do
            local t0 t1
            t0=$(date +%s%N)
            AGREP_GPU_HOST_ENGINE=$e $PIN ./agrep-gpu --device=host -c -k "$k" "$p" "$f" > /dev/null
            t1=$(date +%s%N)
            echo "scale=6; ($t1 - $t0) / 1000000000" | bc
        done | median
    fi
}

echo "CPU: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores; $(date -u +%Y-%m-%d)"
for f in "$D/kjv.txt" "$D/kjv8.txt"; do
    size=$(stat -c %s "$f")
    echo
    echo "### $(basename "$f") ($size bytes)"
    echo
    echo "| case | n | engine scalar MB/s | engine SIMD MB/s (variant) | ratio | tool scalar MB/s | tool SIMD MB/s | ratio | lines |"
    echo "|---|---|---|---|---|---|---|---|---|"
    for c in "${CASES[@]}"; do
        k=${c%%|*}
        p=${c#*|}
        out=$($PIN bench/bin/hostengine "$f" "$k" "$p" "$RUNS")
        es=$(awk '$1 == "scalar" {print $2}' <<< "$out")
        best=$(awk '$1 != "scalar" {v = $1; m = $2} END {print v, m}' <<< "$out")
        ev=${best% *}
        em=${best#* }
        ts=$(tool_time scalar "$k" "$p" "$f")
        tv=$(tool_time simd "$k" "$p" "$f")
        lines=$(AGREP_GPU_HOST_ENGINE=simd ./agrep-gpu --device=host -c -k "$k" "$p" "$f")
        ls=$(AGREP_GPU_HOST_ENGINE=scalar ./agrep-gpu --device=host -c -k "$k" "$p" "$f")
        [ "$lines" = "$ls" ] || lines="$lines (scalar: $ls!)"
        awk -v c="$p k=$k" -v n="${#p}" -v es="$es" -v em="$em" -v ev="$ev" \
            -v ts="$ts" -v tv="$tv" -v sz="$size" -v l="$lines" 'BEGIN {
            printf "| %s | %d | %.0f | %.0f (%s) | %.2f | %.0f | %.0f | %.2f | %s |\n",
                c, n, es, em, ev, em / es, sz / ts / 1e6, sz / tv / 1e6, ts / tv, l }'
    done
done
