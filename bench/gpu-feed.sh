#!/bin/bash
# The feed to the GPU (issue 22): run ON the GPU machine from the project
# root with .devdeps and .devdata carried (see ../shared/device/README.md).
# Prints the copy ceiling (h2d.c), then the GPU alone on 8.6 GB of Bible
# (-c -k2 mercy) over worker counts and slots per device, then the default
# plan and the host, -n into a file against -c, and a pipe against cat | cat.
# Each line: the case, wall seconds, and the tool's own plan/kernel figures.
set -u
B=$PWD/agrep-gpu; K=$PWD/.devdata/kjv.txt
G1=/dev/shm/k1g; G8=/dev/shm/k8g
[ -s $G1 ] || for i in $(seq 250); do cat $K; done > $G1
[ -s $G8 ] || for i in 1 2 3 4 5 6 7 8; do cat $G1; done > $G8
tm() { local l="$1"; shift; /usr/bin/time -f "$l: wall %e s" "$@"; }
figs() { grep -E 'wall|from ready|plan: device [0-9]:|plan: host:' | grep -v 'open in'; }
AGREP_GPU_HOST_MAX=0 $B --device=gpu -c -k2 mercy $K >/dev/null   # program cache
if [ -x /tmp/h2d ] || cc -O2 -o /tmp/h2d .devdeps/h2d.c -lOpenCL 2>/dev/null; then
	/tmp/h2d | tail -4
fi
echo "== GPU alone, 8.6 GB -c -k2 mercy"
for j in 16 32; do
	for sl in 8 16 32; do
		AGREP_GPU_SLOTS=$sl AGREP_GPU_STATS=1 \
		    tm "-j$j slots=$sl" $B --device=gpu -j$j -c -k2 mercy $G8 2>&1 | figs
	done
done
echo "== default plan and host"
AGREP_GPU_STATS=1 tm "default" $B -c -k2 mercy $G8 2>&1 | figs
tm "--device=host" $B --device=host -c -k2 mercy $G8
echo "== -n -k1 LORD into a file, against -c"
for d in auto host gpu; do
	AGREP_GPU_STATS=1 tm "--device=$d -n -k1 LORD > file" $B --device=$d -n -k1 LORD $G8 2>&1 >/dev/shm/out | figs
	AGREP_GPU_STATS=1 tm "--device=$d -c -k1 LORD" $B --device=$d -c -k1 LORD $G8 2>&1 | figs
done
rm -f /dev/shm/out
echo "== pipes"
tm "cat | cat" bash -c "cat $G8 | cat > /dev/null"
tm "cat | agrep-gpu -c -k2 mercy" bash -c "cat $G8 | $B -c -k2 mercy"
tm "cat | agrep-gpu --device=gpu -c -k2 mercy" bash -c "cat $G8 | $B --device=gpu -c -k2 mercy"
tm "agrep-gpu -c -k2 mercy (file)" $B -c -k2 mercy $G8
echo "== --device=all (every GPU and POCL) against each alone, 1 GiB, 200 words -k2"
K2=/dev/shm/k1g
tr -cs 'A-Za-z' '\n' < $K | awk 'length>=6 && length<=14' | sort -u | shuf -n 200 --random-source=$K > /tmp/p200
for d in gpu cpu all; do
	AGREP_GPU_STATS=1 tm "--device=$d -c -k2 -f 200 words" $B --device=$d -c -k2 -f /tmp/p200 $K2 2>&1 | figs
done
