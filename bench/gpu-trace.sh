#!/bin/bash
# Issue 25: where each GPU's time goes when one or every GPU runs (GPU alone),
# from AGREP_GPU_TRACE (src/scan.c) summed by bench/trace.awk.  Run ON the GPU
# machine from the project root, .devdeps and .devdata carried.
set -u
B=$PWD/agrep-gpu; . bench/gpu-data.sh >/dev/null 2>&1
$B --list-devices
gpus=$($B --list-devices | grep -i '(gpu' | cut -d: -f1 | tr '\n' ' ')
echo "GPUs: $gpus"
run() {	# label, then the arguments
	local l=$1; shift
	rm -f /tmp/tr
	AGREP_GPU_STATS=1 AGREP_GPU_TRACE=/tmp/tr AGREP_GPU_HOST_MAX=0 \
	    /usr/bin/time -f "$l: wall %e s" "$@" 2>&1 >/dev/null |
	    grep -E 'wall|from ready|plan: device [0-9]:'
	sort -t'	' -k1,1 -k5,5n /tmp/tr | awk -F'\t' -f bench/trace.awk
}
export LC_ALL=C
for d in $gpus gpu; do	# program caches
	AGREP_GPU_HOST_MAX=0 $B --device=$d -c -k4 -f /tmp/pr1000 /dev/shm/reads1g >/dev/null
	AGREP_GPU_HOST_MAX=0 $B --device=$d -c -k2 -f /tmp/p200 $K >/dev/null
done
for i in 1 2; do
	for d in $gpus gpu; do
		run "--device=$d 1,000 primers -k4" $B --device=$d -c -k4 -f /tmp/pr1000 /dev/shm/reads1g
	done
	for d in $gpus gpu; do
		run "--device=$d 200 words -k2" $B --device=$d -c -k2 -f /tmp/p200 $G1
	done
	for d in $gpus gpu; do
		run "--device=$d mercy -k2 8.6 GB" $B --device=$d -c -k2 mercy $G8
	done
done
