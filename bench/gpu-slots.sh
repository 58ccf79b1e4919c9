#!/bin/bash
# Slots a device (AGREP_GPU_SLOTS 8, 16, 24) for the pattern-parallel kernel, on the
# first GPU and on every GPU, GPU alone: 1,000 primers -k4 over 1 GiB of reads and
# 200 Bible words -k2 over 1 GiB, two runs each.  Run ON the GPU machine from the
# project root with .devdeps and .devdata carried, after opencl-setup.sh and make.
B=$PWD/agrep-gpu
. bench/gpu-data.sh
g1=$($B --list-devices | grep -m1 -i '(gpu' | cut -d: -f1)
export LC_ALL=C AGREP_GPU_HOST_MAX=0 AGREP_GPU_STATS=1
$B --device=gpu -c -k4 -f /tmp/pr1000 /dev/shm/reads1g >/dev/null 2>&1; $B --device=$g1 -c -k4 -f /tmp/pr1000 /dev/shm/reads1g >/dev/null 2>&1
for rep in 1 2; do for d in $g1 gpu; do for sl in 8 16 24; do
  /usr/bin/time -f "primers --device=$d slots=$sl: wall %e s" env AGREP_GPU_SLOTS=$sl $B --device=$d -c -k4 -f /tmp/pr1000 /dev/shm/reads1g 2>&1 | grep -E "wall|from ready"
  /usr/bin/time -f "200 words --device=$d slots=$sl: wall %e s" env AGREP_GPU_SLOTS=$sl $B --device=$d -c -k2 -f /tmp/p200 $G1 2>&1 | grep -E "wall|from ready"
done; done; done
