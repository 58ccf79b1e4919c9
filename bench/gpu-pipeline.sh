#!/bin/bash
# Run ON the GPU machine (device tool) from the project root, with .devdeps and
# .devdata/kjv.txt carried (see ../shared/device/README.md): the parallel
# pipeline's figures.  Builds, checks -jN against -j1 on the GPU, then times
# -j1 against the default (-j16) on the standard cases, the memory bound
# (1 GiB file and 1 GiB stdin), and runs .devdeps/measure.sh (the peers).
# Prints a log; the figures go into bench/results/h100.md by hand.
set -u
. bench/gpu-setup.sh
make test-progs >/dev/null 2>&1
$B -c -k2 mercy $G1 >/dev/null		# program cache
echo "== -jN against -j1 on the GPU (output identical?)"
for a in "-c -k2 mercy" "-n -k1 LORD" "-o -b -k2 mercy" "-v -c -k1 the" "-c mercy"; do
	r1=$($B -j1 $a $G1 | md5sum); r16=$($B $a $G1 | md5sum)
	h=$($B --device=host -j16 $a $G1 | md5sum)
	[ "$r1" = "$r16" ] && [ "$r1" = "$h" ] && echo "same: $a" || echo "DIFFER: $a"
done
if [ -n "${GPU_BATS:-}" ]; then
	AGREP_GPU_DEVICE=gpu bats tests/parity.bats 2>&1 | tail -4
	AGREP_GPU_DEVICE=gpu bats tests/pair.bats 2>&1 | tail -4
	UTF8_SEEDS=${UTF8_SEEDS:-15} AGREP_GPU_DEVICE=gpu bats tests/utf8.bats 2>&1 | tail -8
	[ -n "${GPU_THREADS:-}" ] &&
		PATH=$PATH:/usr/bin AGREP_GPU_DEVICE=gpu bats tests/threads.bats 2>&1 | tail -12
fi
echo "== 33-64-byte patterns (two 32-bit blocks), GPU against host output, kernel rates"
P43='O give thanks unto the LORD; for he is good'
for k in 1 3 6; do
	g=$($B -n -k$k "$P43" $G1 | md5sum); h=$($B --device=host -n -k$k "$P43" $G1 | md5sum)
	[ "$g" = "$h" ] && echo "same GPU/host: -k$k (43 bytes)" || echo "DIFFER GPU/host: -k$k (43 bytes)"
done
for j in 1 16; do
	AGREP_GPU_STATS=1 tm "k8g -j$j -c -k3 '$P43'" $B -j$j -c -k3 "$P43" $G8
	AGREP_GPU_STATS=1 AGREP_GPU_PAIR=0 tm "k8g -j$j -c -k3 '$P43' (64-bit words)" $B -j$j -c -k3 "$P43" $G8
done 2>&1 | grep -v context
if [ -s .devdata/ru1.txt ]; then
	echo "== UTF-8 mode: Russian text (fortunes-ru x300, ~1 GB)"
	RU=/dev/shm/ru; for i in $(seq 300); do cat .devdata/ru1.txt; done > $RU
	ls -l $RU
	for a in "-c -k2 приходит" "-c -i -k1 ПРИХОДИТ" "-n -k2 Евгений" "-o -b -k1 утешение"; do
		g=$($B --utf8 $a $RU | md5sum); h=$($B --utf8 --device=host $a $RU | md5sum)
		[ "$g" = "$h" ] && echo "same GPU/host: --utf8 $a" || echo "DIFFER GPU/host: --utf8 $a"
	done
	for m in --utf8 --bytes; do
		for r in 1 2; do AGREP_GPU_STATS=1 tm "ru $m -c -k2 приходит" $B $m -c -k2 приходит $RU; done 2>&1
		tm "ru $m --device=host -c -k2 приходит" $B $m --device=host -c -k2 приходит $RU
	done
	tm "ru --utf8 -c -i -k1 ПРИХОДИТ" $B --utf8 -c -i -k1 ПРИХОДИТ $RU
	rm -f $RU
fi
echo "== 8.6 GB, -j1 against the default"
for j in 1 16; do
	AGREP_GPU_STATS=1 tm "k8g -j$j -c -k2 mercy" $B -j$j -c -k2 mercy $G8
done 2>&1
for r in 1 2; do AGREP_GPU_STATS=1 tm "k8g -c -k2 mercy" $B -c -k2 mercy $G8; done 2>&1
tm "k8g -n -k1 LORD > /dev/shm/out" bash -c "$B -n -k1 LORD $G8 > /dev/shm/out"; rm -f /dev/shm/out
tm "k8g -c mercy (k=0)" $B -c mercy $G8
tm "k8g --device=host -c -k2 mercy (SIMD host, 16 threads)" $B --device=host -c -k2 mercy $G8
echo "== memory: 1 GiB file and 1 GiB stdin"
tm "k1g file -c -k2 mercy" $B -c -k2 mercy $G1
tm "k1g stdin -c -k2 mercy" bash -c "$B -c -k2 mercy < $G1"
tm "cat k1g | agrep-gpu -c -k2 mercy" bash -c "cat $G1 | $B -c -k2 mercy"
tm "cat k1g | cat" bash -c "cat $G1 | cat > /dev/null"
echo "== measure.sh"
bash .devdeps/measure.sh 2>&1 | grep -v "^agrep-gpu: stats: .*context"
