#!/bin/bash
# gpu-run.sh: build, check and time agrep-gpu on the GPU machine (see
# ../shared/device/README.md).  Needs .devdeps (OpenCL loader debs) and
# .devdata/kjv.txt carried along.  Prints a report; copies it to $OUT.
set -u
bash .devdeps/opencl-setup.sh >/dev/null 2>&1
make -j16 >/dev/null || exit 1
B=./agrep-gpu
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
$B --list-devices
K=.devdata/kjv.txt
echo "== correctness: GPU vs host matcher on kjv.txt"
for c in "1 LORD" "2 mercy" "2 endureth" "3 righteousness" "2 for his mercy endureth for ever" "4 for his mercy endureth for ever" "0 mercy" "5 and God saw the light, that it was good: and God divided the"; do
	k=${c%% *}; p=${c#* }
	a=$(AGREP_GPU_HOST_MAX=0 $B --device=gpu -n -k$k "$p" $K | md5sum)
	h=$($B --device=host -n -k$k "$p" $K | md5sum)
	[ "$a" = "$h" ] && echo "ok   k=$k $p" || echo "DIFF k=$k $p"
done
G=/dev/shm/kjv1g.txt
for i in $(seq 250); do cat $K; done > $G
ls -l $G
cat $G > /dev/null
echo "== 1 GiB file, --device=gpu, -c (wall s; kernel stats)"
for c in "1 LORD" "2 mercy" "3 righteousness" "2 for his mercy endureth for ever" "4 for his mercy endureth for ever" "0 mercy" "5 and God saw the light, that it was good: and God divided the"; do
	k=${c%% *}; p=${c#* }
	for r in 1 2 3; do
		/usr/bin/time -f "wall %e s rss %M KB  k=$k $p" env AGREP_GPU_STATS=1 $B --device=gpu -c -k$k "$p" $G
	done 2>&1 | tail -3
done
echo "== printing lines to /dev/null"
/usr/bin/time -f "wall %e s rss %M KB" $B --device=gpu -n -k1 LORD $G > /dev/null
echo "== stdin pipe"
/usr/bin/time -f "wall %e s rss %M KB" bash -c "cat $G | AGREP_GPU_STATS=1 $B --device=gpu -c -k2 mercy"
echo "== slice / chunk sweep (kernel GB/s), k=2 mercy"
for ch in 67108864 268435456; do for sl in 256 512 1024 2048; do
	echo -n "chunk $ch slice $sl: "; AGREP_GPU_CHUNK=$ch AGREP_GPU_SLICE=$sl AGREP_GPU_STATS=1 $B --device=gpu -c -k2 mercy $G 2>&1 | tr '\n' ' '; echo
done; done
echo "== POCL on this host (16 cores), 1 GiB"
/usr/bin/time -f "wall %e s" env AGREP_GPU_STATS=1 $B --device=cpu -c -k2 mercy $G
