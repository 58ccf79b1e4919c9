#!/bin/bash
# gpu-multi.sh: one GPU against all of them (--device=all) on the GPU
# machine: a large replicated Bible and a 1,000-pattern search.  Needs
# .devdeps and .devdata carried along.  Prints a report.
set -u
bash .devdeps/opencl-setup.sh >/dev/null 2>&1
make -j16 >/dev/null || exit 1
B=./agrep-gpu
T="/usr/bin/time -f"
nvidia-smi --query-gpu=name --format=csv,noheader
$B --list-devices
K=.devdata/kjv.txt
G=/dev/shm/kjv-big.txt
n=${MULTI_COPIES:-1000}
for i in $(seq $n); do cat $K; done > $G
ls -l $G
cat $G > /dev/null
P=/dev/shm/p1000.txt
cp .devdata/pat1000.txt $P
K8=/dev/shm/kjv8.txt
for i in $(seq 8); do cat $K; done > $K8
for dev in 1 all; do
	d=$dev; [ $dev = 1 ] && d=gpu
	echo "== --device=$d"
	for r in 1 2; do
		$T "big -c -k2 mercy: wall %e s rss %M KB" env AGREP_GPU_STATS=1 $B --device=$d -c -k2 mercy $G 2>&1 | grep -v stats:.*context
	done
	for r in 1 2; do
		$T "1000 patterns k=1 over 34 MB: wall %e s" env AGREP_GPU_STATS=1 AGREP_GPU_HOST_MAX=0 $B --device=$d -c -k1 -f $P $K8 2>&1 | grep -v stats:.*context
	done
done
