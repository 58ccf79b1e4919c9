#!/bin/bash
# bench/gpu-noindels.sh: --no-indels (substitutions only) on the GPU
# machine, issue 40's device target: 1,000 24-base barcodes -k2 over 1 GiB
# of 150-base reads, against the same search with indels; run ON it from
# the project root after
#   bash .devdeps/opencl-setup.sh && make -j16 agrep-gpu
# Inputs: bench/gpu-data.sh (/dev/shm/reads1g, /tmp/pr1000).  Best of RUNS
# (default 3) for the GPU and the default plan, one run for the host; the
# GPU's and the host's rows (-n) compared by md5.
set -u
. bench/gpu-data.sh
RUNS=${RUNS:-3}
A=./agrep-gpu
R=/dev/shm/reads1g
OUT=/tmp/out	# (best.sh's; the device tool's $OUT is a folder)
. bench/best.sh

nvidia-smi --query-gpu=name --format=csv,noheader | head -1
echo "$(nproc) cores, $(date -u +%F), agrep-gpu $(git rev-parse --short HEAD 2>/dev/null)"
for dev in gpu auto host; do
	n=$RUNS; [ $dev = host ] && n=1
	h=$(best $n $A --device=$dev --no-indels -c -k2 -f /tmp/pr1000 $R)
	hc=$(cat /tmp/out)
	e=$(best $n $A --device=$dev -c -k2 -f /tmp/pr1000 $R)
	ec=$(cat /tmp/out)
	echo "reads 1 GiB, 1,000 barcodes -c -k2, --device=$dev: --no-indels $h s ($hc lines), with indels $e s ($ec lines): $(ratio "$e" "$h")x the time of --no-indels"
done
for dev in gpu host; do
	$A --device=$dev --no-indels -n -k2 -f /tmp/pr1000 $R | md5sum | sed "s/-$/--device=$dev -n rows/"
done
