#!/usr/bin/env bash
# bench/hostengine.sh: the host matcher's scalar engine against the SIMD
# lanes one (src/simd.c) on the King James Bible (4.3 MB) and the Bible x8
# (34 MB), one core, in two ways:
#   engine: bench/bin/hostengine times hm_scan_scalar, each SIMD variant
#           and hm_scan's automatic choice alone over the
#           whole file (median of RUNS runs; HOSTENGINE_CPUTIME=1: thread
#           CPU time, for loaded machines);
#   tool:   agrep-gpu --device=host -c with AGREP_GPU_HOST_ENGINE=scalar|simd
#           and unset (the automatic choice), wall time (hyperfine's
#           median, else the median of RUNS runs of date +%s%N), taskset to
#           one core.
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
    echo "| case | n | engine scalar | lanes (variant) | hm_scan auto | tool scalar | tool lanes | tool auto | lines |"
    echo "|---|---|---|---|---|---|---|---|---|"
    for c in "${CASES[@]}"; do
        k=${c%%|*}
        p=${c#*|}
        out=$($PIN bench/bin/hostengine "$f" "$k" "$p" "$RUNS")
        es=$(awk '$1 == "scalar" {print $2}' <<< "$out")
        lanes=$(awk '$1 == "generic" || $1 == "avx2" || $1 == "avx512" {v = $1; m = $2} END {print v, m}' <<< "$out")
        auto=$(awk '$1 == "hm_scan" {print $2}' <<< "$out")
        ts=$(tool_time scalar "$k" "$p" "$f")
        tv=$(tool_time simd "$k" "$p" "$f")
        tu=$(tool_time "" "$k" "$p" "$f")
        lines=$(./agrep-gpu --device=host -c -k "$k" "$p" "$f")
        for e in scalar simd; do
            l=$(AGREP_GPU_HOST_ENGINE=$e ./agrep-gpu --device=host -c -k "$k" "$p" "$f")
            [ "$lines" = "$l" ] || lines="$lines ($e: $l!)"
        done
        awk -v c="$p k=$k" -v n="${#p}" -v es="$es" -v lv="${lanes% *}" -v lm="${lanes#* }" \
            -v au="$auto" \
            -v ts="$ts" -v tv="$tv" -v tu="$tu" -v sz="$size" -v l="$lines" 'BEGIN {
            printf "| %s | %d | %.0f | %.0f (%s) | %.0f | %.0f | %.0f | %.0f | %s |\n",
                c, n, es, lm, lv, au, sz / ts / 1e6, sz / tv / 1e6, sz / tu / 1e6, l }'
    done
done
