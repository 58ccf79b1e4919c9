#!/bin/bash
# The pattern-parallel GPU kernel (issue 23) against the slice-parallel one:
# run ON the GPU machine from the project root with .devdeps and .devdata
# carried (../shared/device/README.md), after the OpenCL set-up.  The GPU
# alone (AGREP_GPU_HOST_MAX=0 --device=gpu), AGREP_GPU_PP=0 (slices) and 1
# (patterns), over primer sets of 4-10,000 on DNA reads and Bible words.
# Each line: case, kernel, count, wall s, kernel s, and pattern-bytes per
# second of kernel time (patterns x text bytes / kernel s).  The counts of
# the two kernels must agree (a line "DIFFER" otherwise).  PPS="1" runs the
# pattern-parallel kernel alone.
set -u
B=$PWD/agrep-gpu; K=$PWD/.devdata/kjv.txt
G1=/dev/shm/k1g
[ -s $G1 ] || for i in $(seq 250); do cat $K; done > $G1
cc -O2 -o /tmp/gen_dna bench/gen_dna.c
[ -s /dev/shm/reads1g ] || /tmp/gen_dna $((1<<30)) /tmp/unused.pat 150 997 777 \
    > /dev/shm/reads1g 2>/dev/null
[ -s /dev/shm/reads256m ] || head -c $((256<<20)) /dev/shm/reads1g | head -n -1 > /dev/shm/reads256m
python3 - <<'PY'
import random
lines = [l for l in open('/dev/shm/reads256m', 'rb').read(8 << 20).split(b'\n') if len(l) == 150]
random.seed(99)
for n in (4, 16, 64, 100, 256, 1000, 10000):
    ps = set()
    while len(ps) < n:
        l = random.choice(lines); s = random.randrange(0, 150 - 24); ps.add(l[s:s + 24])
    open(f'/tmp/pr{n}', 'wb').write(b'\n'.join(sorted(ps)) + b'\n')
PY
tr -cs 'A-Za-z' '\n' < $K | awk 'length>=6 && length<=14' | sort -u | shuf -n 200 --random-source=$K > /tmp/p200
tr -cs 'A-Za-z' '\n' < $K | awk 'length>=5 && length<=15' | sort -u | shuf -n 1000 --random-source=$K > /tmp/p1000r
AGREP_GPU_HOST_MAX=0 $B --device=gpu -c -k2 mercy $K >/dev/null   # program cache
# one LABEL K PATFILE TEXT: both kernels, GPU alone.
one() {
	local l=$1 k=$2 pf=$3 t=$4 np bytes c0=
	np=$(wc -l < "$pf"); bytes=$(stat -c %s "$t")
	for pp in ${PPS:-0 1}; do
		out=$( { AGREP_GPU_PP=$pp AGREP_GPU_STATS=1 AGREP_GPU_HOST_MAX=0 \
		    /usr/bin/time -f "wall %e" $B --device=gpu -c -k$k -f "$pf" "$t"; } 2>&1)
		c=$(echo "$out" | grep -E '^[0-9]+$')
		w=$(echo "$out" | sed -n 's/^wall //p')
		ks=$(echo "$out" | sed -n 's/.*kernel \([0-9.]*\) s.*/\1/p' | head -1)
		rd=$(echo "$out" | sed -n 's/.*from ready to last scan \([0-9.]*\) s.*/\1/p' | head -1)
		awk -v l="$l" -v pp=$pp -v c="$c" -v w="$w" -v ks="$ks" -v rd="$rd" -v np=$np -v b=$bytes \
		    'BEGIN { printf "%-34s %-8s count %-10s wall %6.2f s  kernel %7.3f s  ready %6.3f s  %6.3f T pattern-B/s\n",
		    l, pp ? "patterns" : "slices", c, w, ks, rd, np * b / ks / 1e12 }'
		[ -z "$c0" ] && c0=$c
		[ "$c" = "$c0" ] || echo "DIFFER: $l: $c0 against $c"
	done
}
export LC_ALL=C
for n in 4 16 64 256 1000; do one "1 GiB reads, $n primers -k4" 4 /tmp/pr$n /dev/shm/reads1g; done
one "1 GiB reads, 1000 primers -k2" 2 /tmp/pr1000 /dev/shm/reads1g
one "256 MB reads, 100 primers -k4" 4 /tmp/pr100 /dev/shm/reads256m
one "1 GiB reads, 10000 primers -k3" 3 /tmp/pr10000 /dev/shm/reads1g
one "1 GiB Bible, 200 words -k2" 2 /tmp/p200 $G1
one "1 GiB Bible, 1000 random words -k1" 1 /tmp/p1000r $G1
