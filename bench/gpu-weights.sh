#!/bin/bash
# bench/gpu-weights.sh: weighted costs on the GPU machine (the automaton
# kernel with costs) against the host and the unit cost automaton; run ON it
# from the project root after bash .devdeps/opencl-setup.sh and the build,
# .devdata carried (bench/gpu-data.sh: the Bible, 1 GiB of it in /dev/shm).
set -u
. bench/gpu-data.sh
OUT=/tmp/out; . bench/best.sh
A=./agrep-gpu
echo "== weighted costs on the GPU (automaton kernel) against the host, the Bible"
for c in "2 2 1" "1 1 2" "off 1 2"; do set -- $c
 for pat in mercy 'merc(y|ies)' 'the L[a-z]+D' 'j[aeiou]+b' '^And' 'for his mercy endureth'; do
  h=$($A --device=host -E -n -k2 --insert-cost=$1 --delete-cost=$2 --substitute-cost=$3 "$pat" $K | md5sum | cut -c1-8)
  g=$(AGREP_GPU_HOST_MAX=0 $A --device=gpu -E -n -k2 --insert-cost=$1 --delete-cost=$2 --substitute-cost=$3 "$pat" $K | md5sum | cut -c1-8)
  echo "I$1 D$2 S$3 '$pat' -k2: host $h gpu $g $([ $h = $g ] && echo same || echo DIFFER)"
 done
done
echo "== 1 GiB of Bible (G1), -c -k2, best of 3: unit automaton (AGREP_GPU_RE_EXPAND=0) and weighted I2 D2 S1, GPU alone and default"
for pat in 'merc(y|ies)' 'the L[a-z]+D' 'mercy'; do
 for dev in gpu auto host; do
  n=3; [ $dev = host ] && n=1
  u=$(AGREP_GPU_RE_EXPAND=0 best $n $A --device=$dev -E -c -k2 "($pat)" $G1)
  w=$(best $n $A --device=$dev -E -c -k2 --insert-cost=2 --delete-cost=2 --substitute-cost=1 "$pat" $G1)
  echo "'$pat' --device=$dev: unit $u s, weighted $w s ($(ratio $w $u)x)"
 done
done
