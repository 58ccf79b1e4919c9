#!/usr/bin/env bash
# bench/gpu-kernel.sh: run ON the GPU machine (.devdeps and .devdata carried),
# from the top of the tree.  For patterns of 33-64 bytes it checks that the
# kernel's two 32-bit blocks with Ukkonen's cut-off (PAIR, the GPU default),
# the same without the cut-off (AGREP_GPU_PAIR=2) and the 64-bit word
# (AGREP_GPU_PAIR=0) select the same lines, with the host matcher as a third
# opinion, and times the kernels (AGREP_GPU_STATS: kernel GB/s) on the
# Bible x2000 (8.6 GB in /dev/shm).  Then tests/pair.bats and
# tests/property.bats on the GPU.  Output: the log; bench/results/h100.md
# holds the figures.
# With the argument "kernel": only the kernels' own speed, -j1 on 256 MiB
# chunks of a 1 GiB file with slices of 512 bytes and the default, where the
# default pipeline's small chunks leave the GPU latency-bound (every kernel
# ran 200-300 GB/s there).  (Run at 23c5858, which also timed a rolled loop
# over a block's text words through AGREP_GPU_KERNEL; the PAIR path has
# been rolled since.)
set -o pipefail
if [ "${1:-}" = kernel ]; then
	bash .devdeps/opencl-setup.sh >/dev/null 2>&1
	make -j"$(nproc)" >/tmp/build.log 2>&1 || { tail -20 /tmp/build.log; exit 1; }
	nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
	A="$PWD/agrep-gpu"; G1=/dev/shm/k1g
	for i in $(seq 250); do cat .devdata/kjv.txt; done > $G1
	P43='O give thanks unto the LORD; for he is good'
	P64='In the beginning God created the heaven and the earth and'
	kk() {	# label slice env... : count and kernel GB/s of 2 runs
		local l=$1 sl=$2 r; shift 2
		for r in 1 2; do
			env AGREP_GPU_STATS=1 AGREP_GPU_HOST_MAX=0 AGREP_GPU_CHUNK=268435456 AGREP_GPU_SLICE=$sl "$@" 2>&1 |
			    sed -n -e 's/.*kernel \([0-9.]*\) s, \([0-9.]*\) GB\/s.*/\2/p' -e '/^[0-9]*$/p' | tr '\n' ' '
		done | sed "s/^/$l slice $sl: /"; echo
	}
	for sl in 512 0; do
		kk "32-bit mercy k2" $sl $A --device=gpu -j1 -c -k2 mercy $G1
		kk "32-bit 31B k2" $sl $A --device=gpu -j1 -c -k2 'for his mercy endureth for ever' $G1
		for k in 0 2 4; do
			for v in 0 1 2; do
				kk "43B k$k pair$v" $sl AGREP_GPU_PAIR=$v $A --device=gpu -j1 -c -k$k -e "$P43" $G1
			done
		done
		for v in 0 1; do
			kk "57B k4 pair$v" $sl AGREP_GPU_PAIR=$v $A --device=gpu -j1 -c -k4 -e "$P64" $G1
		done
		kk "57B k8 pair0" $sl AGREP_GPU_PAIR=0 $A --device=gpu -j1 -c -k8 -e "$P64" $G1
		kk "57B k8 pair1" $sl $A --device=gpu -j1 -c -k8 -e "$P64" $G1
	done
	exit 0
fi
. bench/gpu-setup.sh
make -j"$(nproc)" test-progs >/tmp/build-tests.log 2>&1 || tail -5 /tmp/build-tests.log
A="$PWD/agrep-gpu"
K8=/dev/shm/k8x; for i in 1 2 3 4 5 6 7 8; do cat "$K"; done > $K8
P33=(
	'O give thanks unto the LORD; for he is good'
	'And the LORD spake unto Moses, saying'
	'In the beginning God created the heaven and the earth'
	'for his mercy endureth for ever. O give thanks'
	'and the children of Israel went out with an high hand'
	'the son of Jesse the Bethlehemite, a cunning in playing'
	'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'
)
echo "== correctness: 34 MB, -n, kernels 0 (64-bit), 1 (PAIR), 2 (PAIR_FULL), host"
bad=0
for p in "${P33[@]}"; do
	for k in 0 1 2 4 6; do
		h=$(AGREP_GPU_DEVICE=host $A -n -k$k -e "$p" $K8 | md5sum | cut -c1-8)
		line="${#p}B k$k host $h"
		for v in 0 1 2; do
			g=$(AGREP_GPU_HOST_MAX=0 AGREP_GPU_PAIR=$v $A --device=gpu -n -k$k -e "$p" $K8 | md5sum | cut -c1-8)
			line="$line pair$v $g"
			[ "$g" = "$h" ] || bad=$((bad + 1))
		done
		echo "$line"
	done
done
c0=$(AGREP_GPU_PAIR=0 $A --device=gpu -c -k3 -e "${P33[0]}" $G1)
c1=$($A --device=gpu -c -k3 -e "${P33[0]}" $G1)
echo "1 GiB -c -k3: pair0 $c0 pair1 $c1"; [ "$c0" = "$c1" ] || bad=$((bad + 1))
echo "mismatches: $bad"

echo "== kernel GB/s, 8.6 GB, --device=gpu -c (3 runs each)"
kt() {	# label env... -- args
	local l=$1 r; shift
	for r in 1 2 3; do
		env AGREP_GPU_STATS=1 "$@" $G8 2>&1 >/dev/null | sed -n 's/.*kernel \([0-9.]*\) s, \([0-9.]*\) GB\/s.*/\2 GB\/s (\1 s)/p' | tr '\n' ' '
	done | sed "s/^/$l: /"; echo
}
for k in 0 2 4; do
	for v in 0 1 2; do
		kt "43B k$k pair$v" AGREP_GPU_PAIR=$v $A --device=gpu -c -k$k -e "${P33[0]}"
	done
done
kt "53B k2 pair0" AGREP_GPU_PAIR=0 $A --device=gpu -c -k2 -e "${P33[2]}"
kt "53B k2 pair1" $A --device=gpu -c -k2 -e "${P33[2]}"
kt "64B k4 pair0" AGREP_GPU_PAIR=0 $A --device=gpu -c -k4 -e "${P33[2]} and"
kt "64B k4 pair1" $A --device=gpu -c -k4 -e "${P33[2]} and"
kt "5B mercy k2 (32-bit)" $A --device=gpu -c -k2 mercy
kt "31B k2 (32-bit)" $A --device=gpu -c -k2 'for his mercy endureth for ever'
echo "== the same, -j1 (one queue: kernels never overlap)"
kt "-j1 43B k2 pair0" AGREP_GPU_PAIR=0 $A --device=gpu -j1 -c -k2 -e "${P33[0]}"
kt "-j1 43B k2 pair1" $A --device=gpu -j1 -c -k2 -e "${P33[0]}"
kt "-j1 5B mercy k2 (32-bit)" $A --device=gpu -j1 -c -k2 mercy

echo "== bats on the GPU"
export AGREP_GPU_DEVICE=gpu
timeout 150 bats tests/pair.bats
PROPERTY_SEEDS=25 timeout 150 bats tests/property.bats
