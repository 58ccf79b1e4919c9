#!/bin/bash
# gpu-run.sh: build, check and time agrep-gpu on the GPU machine (see
# ../shared/device/README.md).  Needs .devdeps (OpenCL loader, bats debs)
# and .devdata (kjv.txt, pattern files) carried along.  Prints a report.
set -u
bash .devdeps/opencl-setup.sh >/dev/null 2>&1
make -j16 >/dev/null && make test-progs >/dev/null || exit 1
B=./agrep-gpu
T="/usr/bin/time -f"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
$B --list-devices
K=.devdata/kjv.txt
echo "== correctness: GPU vs host matcher on kjv.txt (-n output md5)"
for c in "1 LORD" "2 mercy" "2 endureth" "3 righteousness" "2 for his mercy endureth for ever" "4 for his mercy endureth for ever" "1 -i lord" "5 and God saw the light, that it was good: and God divided the" "10 And it came to pass, when men began to multiply on the face of the earth, and daughters were born unto them"; do
	k=${c%% *}; p=${c#* }
	a=$(AGREP_GPU_HOST_MAX=0 $B --device=gpu -n -k$k $p $K | md5sum)
	h=$($B --device=host -n -k$k $p $K | md5sum)
	[ "$a" = "$h" ] && echo "ok   k=$k $p" || echo "DIFF k=$k $p"
done
a=$(AGREP_GPU_HOST_MAX=0 $B --device=gpu -c -k1 -f .devdata/pat1000.txt $K)
h=$($B --device=host -c -k1 -f .devdata/pat1000.txt $K)
echo "1000 patterns: gpu $a host $h"
echo "== start-up: 1 KB input through the GPU (HOST_MAX=0), and host path"
head -c 1000 $K > /tmp/1k.txt
for i in 1 2 3; do $T "gpu start-up wall %e s" env AGREP_GPU_HOST_MAX=0 $B --device=gpu -c LORD -k1 /tmp/1k.txt; done
$T "host path wall %e s" $B -c LORD -k1 /tmp/1k.txt
echo "== many patterns on the Bible (4.3 MB), k=1, kernel time"
for f in pat1000 pat10000; do
	$T "$f wall %e s rss %M KB" env AGREP_GPU_STATS=1 AGREP_GPU_HOST_MAX=0 $B --device=gpu -c -k1 -f .devdata/$f.txt $K
done
G=/dev/shm/kjv1g.txt
for i in $(seq 250); do cat $K; done > $G
cat $G > /dev/null
echo "== 1 GiB file ($(stat -c %s $G) bytes) in page cache, --device=gpu -c, 3 runs each"
for c in "1 LORD" "2 mercy" "3 righteousness" "2 for his mercy endureth for ever" "4 for his mercy endureth for ever" "5 and God saw the light, that it was good: and God divided the" "0 mercy"; do
	k=${c%% *}; p=${c#* }
	for r in 1 2 3; do
		$T "wall %e s rss %M KB  k=$k $p" env AGREP_GPU_STATS=1 $B --device=gpu -c -k$k "$p" $G
	done 2>&1 | grep -v '^[0-9]*$' | tail -4
done
echo "== printing lines (-n -k1 LORD) to /dev/null"
$T "wall %e s rss %M KB" $B --device=gpu -n -k1 LORD $G > /dev/null
echo "== stdin from a pipe"
$T "cat|agrep wall %e s" bash -c "cat $G | AGREP_GPU_STATS=1 $B --device=gpu -c -k2 mercy"
$T "<file (stdin redirect) wall %e s rss %M KB" bash -c "$B --device=gpu -c -k2 mercy < $G"
[ -n "${GPU_RUN_QUICK:-}" ] && exit 0
echo "== chunk / slice sweep, k=2 mercy (kernel GB/s)"
for ch in 33554432 67108864 134217728; do for sl in 0 512 1024; do
	echo -n "chunk $ch slice $sl: "; AGREP_GPU_CHUNK=$ch AGREP_GPU_SLICE=$sl AGREP_GPU_STATS=1 $T "wall %e" $B --device=gpu -c -k2 mercy $G 2>&1 | tr '\n' ' '; echo
done; done
echo "== POCL on this host ($(nproc) cores), 1 GiB, k=2 mercy"
$B --device=cpu -c -k2 mercy .devdata/kjv.txt >/dev/null
$T "wall %e s" env AGREP_GPU_STATS=1 $B --device=cpu -c -k2 mercy $G
echo "== test suites on the GPU"
for f in .devdeps/bats*.deb; do dpkg -x $f /; done
AGREP_GPU_DEVICE=gpu timeout 300 bats tests/chunking.bats tests/basic.bats 2>&1 | tail -3
