#!/bin/bash
# Run ON the 2-GPU machine (device tool, nvidia-h200-x2) from the project
# root with .devdeps and .devdata carried: one GPU against both, through the
# parallel pipeline, on 8.6 GB and on 1,000 patterns over 34 MB.
set -u
. bench/gpu-setup.sh
tr -cs 'A-Za-z' '\n' < $K | awk 'length>=5 && length<=15' | sort -u | head -1000 > /tmp/p1000
head -c 34385912 $G1 > /tmp/k34
$B --device=gpu -c -k2 mercy $G1 >/dev/null; $B --device=all -c -k2 mercy $G1 >/dev/null
for r in 1 2 3; do
	for d in gpu all; do
		AGREP_GPU_STATS=1 tm "k8g --device=$d -c -k2 mercy" $B --device=$d -c -k2 mercy $G8
	done
done 2>&1 | grep -v "context"
for r in 1 2 3; do
	for d in gpu all; do
		AGREP_GPU_STATS=1 tm "34 MB --device=$d -c -k1 -f 1000" $B --device=$d -c -k1 -f /tmp/p1000 /tmp/k34
	done
done 2>&1 | grep -v "context"
a=$($B --device=gpu -n -k1 -f /tmp/p1000 /tmp/k34 | md5sum); b=$($B --device=all -n -k1 -f /tmp/p1000 /tmp/k34 | md5sum)
[ "$a" = "$b" ] && echo "same output on one GPU and both" || echo "OUTPUT DIFFERS"
