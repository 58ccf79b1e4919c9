#!/usr/bin/env bats
# The planner (src/plan.c) and the devices' slots (src/devq.c): --device
# puts every scan on the device, the automatic mode keeps small inputs on
# the host, ranges in flight on a device come back in order for every -j,
# a device that fails mid-run hands its ranges back to the host, and the
# measured model is cached.

load test_helper
bats_require_minimum_version 1.5.0

setup() {
	cd "$BATS_TEST_TMPDIR" || return
	# 4,000 lines, some with needle exact or with 1-2 edits.
	awk 'BEGIN { s = 7; for (i = 1; i <= 4000; i++) {
		s = (s * 69069 + 1) % 4294967296; r = int(s / 65536) % 9
		w = r == 0 ? "needle" : r == 1 ? "neXdle" : r == 2 ? "nedle" : "thread"
		printf "%d some text %s and more words here %d\n", i, w, r } }' > text
	# Each test has its own cache directory (the plan's model, the
	# program binaries).  POCL keeps its compiled kernels under it too:
	# full (AGREP_GPU_TESTS=full) leaves them there, so that every test
	# compiles the kernels afresh (9-10 s on the 2-core machine); quick
	# points POCL at the kernel cache the other suites share (what the
	# tests check, agrep-gpu's own files under cache/agrep-gpu, still
	# start empty).
	if [ "$(depth quick full)" = quick ]; then
		export POCL_CACHE_DIR="${POCL_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/pocl/kcache}"
	fi
	export XDG_CACHE_HOME="$BATS_TEST_TMPDIR/cache"
}

@test "plan: --device=cpu scans even a small input on the device, same lines" {
	run -0 --separate-stderr agrep-gpu --device=host -n -k 1 needle text
	local want="$output"
	run -0 --separate-stderr env AGREP_GPU_STATS=1 agrep-gpu --device=cpu \
	    -n -k 1 needle text
	assert_output "$want"
	assert_regex "$stderr" 'stats: .*bytes, kernel'
	# the automatic mode keeps it on the host
	run -0 --separate-stderr env -u AGREP_GPU_DEVICE AGREP_GPU_STATS=1 \
	    agrep-gpu -n -k 1 needle text
	assert_output "$want"
	refute_regex "$stderr" 'stats:'
}

@test "plan: --device=cpu with k=0 (the host's exact path otherwise) scans on the device" {
	run -0 --separate-stderr env AGREP_GPU_STATS=1 agrep-gpu --device=cpu \
	    -c needle text
	assert_output "$(grep -c needle text)"
	assert_regex "$stderr" 'stats: .*bytes, kernel'
}

@test "plan: ranges through the device's slots print in order for every -j and slot count" {
	for i in 1 2 3 4 5 6 7 8; do cat text; done > big
	run -0 agrep-gpu --device=host -n -b -k 1 needle big
	local want="$output" j slots
	for j in 1 2 3; do
		for slots in 1 2 5; do
			run -0 env AGREP_GPU_CHUNK=4096 AGREP_GPU_SLOTS=$slots \
			    agrep-gpu --device=cpu -j $j -n -b -k 1 needle big
			[ "$output" = "$want" ] ||
			    { echo "-j $j, $slots slots differ"; return 1; }
		done
	done
	run -0 env AGREP_GPU_CHUNK=4096 agrep-gpu --device=cpu -j 2 -c -k 1 \
	    needle big text
	assert_output "$(printf 'big:%s\ntext:%s' "$(grep -c -E 'needle|neXdle|nedle' big)" \
	    "$(grep -c -E 'needle|neXdle|nedle' text)")"
}

@test "plan: a device scan that fails mid-run goes to the host, nothing lost" {
	for i in 1 2 3 4 5 6 7 8; do cat text; done > big
	run -0 agrep-gpu --device=host -n -k 1 needle big
	local want="$output" j at
	for j in 1 2 4; do
		for at in 1 3 20; do
			run -0 --separate-stderr env AGREP_GPU_CHUNK=4096 \
			    AGREP_GPU_FAULT=$at agrep-gpu --device=cpu -j $j \
			    -n -k 1 needle big
			[ "$output" = "$want" ] ||
			    { echo "-j $j, fault at $at: lines differ"; return 1; }
			assert_regex "$stderr" 'fault injected'
			assert_regex "$stderr" 'device scan failed; using the host matcher'
		done
	done
	# from a pipe too
	run -0 --separate-stderr env AGREP_GPU_CHUNK=4096 AGREP_GPU_FAULT=2 \
	    sh -c 'cat big | agrep-gpu --device=cpu -n -k 1 needle'
	assert_output "$want"
}

@test "plan: the automatic mode probes the host and says why (AGREP_GPU_STATS)" {
	for i in $(seq 1 40); do cat text; done > big
	run -0 --separate-stderr env -u AGREP_GPU_DEVICE AGREP_GPU_STATS=1 \
	    agrep-gpu -c -k 1 needle big
	assert_output "$(grep -c -E 'needle|neXdle|nedle' big)"
	assert_regex "$stderr" 'plan: at [0-9.]+ s: host probe: [0-9]+ bytes'
	assert_regex "$stderr" 'plan: [0-9]+ bytes: the host alone [0-9.]+ s;'
}

@test "plan: a device's measured figures are cached, and not with AGREP_GPU_NO_CACHE" {
	for i in $(seq 1 120); do cat text; done > big
	run -0 env AGREP_GPU_NO_CACHE=1 agrep-gpu --device=cpu -c -k 1 needle big
	[ ! -e cache/agrep-gpu/plan.txt ]
	run -0 --separate-stderr env AGREP_GPU_STATS=1 agrep-gpu --device=cpu \
	    -c -k 1 needle big
	assert_regex "$stderr" 'plan: device 0: [0-9]+ ranges'
	[ -s cache/agrep-gpu/plan.txt ]
	run -0 awk -F '\t' 'NF == 2 && split($2, f, " ") == 5 { n++ } END { print n }' \
	    cache/agrep-gpu/plan.txt
	assert_output 1
	# the next run starts from it
	run -0 --separate-stderr env AGREP_GPU_STATS=1 agrep-gpu --device=cpu \
	    -c -k 1 needle big
	assert_regex "$stderr" 'model \(cached\)'
	# a damaged cache is ignored
	printf 'garbage\nx\t1 nan 3 4\n' > cache/agrep-gpu/plan.txt
	run -0 --separate-stderr env AGREP_GPU_STATS=1 agrep-gpu --device=cpu \
	    -c -k 1 needle big
	assert_regex "$stderr" 'model \(prior\)'
}

@test "plan: sequence records start the devices where the plan says they pay" {
	# A FASTA genome in the automatic mode: where the planner says "start
	# the devices", they start (records.c once left them unopened, and a
	# 3.1 GB genome ran on the host: 7.3 s where four GPUs take 2.1).  A
	# cached model faster than any device makes it say so here (its
	# start-up 0.1 ms: the host scans these 1.8 MB in about 12 ms, and a
	# start of 10 ms no longer paid once its planner got faster).
	awk 'BEGIN { srand(3); print ">chr1"; for (i = 0; i < 30000; i++) {
		s = ""; for (j = 0; j < 60; j++) s = s substr("ACGT", int(rand() * 4) + 1, 1)
		print s } }' > g.fa
	awk 'NR % 1500 == 2 { print ">p" NR; print substr($0, 10, 24) }' g.fa > p.fa
	mkdir -p cache/agrep-gpu
	printf 'fast [pattern-parallel]\t0 1e12 1e16 0.0001\nfast\t0 1e12 1e16 0.0001\n' \
	    > cache/agrep-gpu/plan.txt
	run -0 agrep-gpu --device=host --dna -c -k2 -f p.fa g.fa
	local want="$output"
	run -0 --separate-stderr env -u AGREP_GPU_DEVICE AGREP_GPU_STATS=1 \
	    agrep-gpu --dna -c -k2 -f p.fa g.fa
	assert_output "$want"
	assert_regex "$stderr" 'plan: [0-9]+ bytes: .*: start the devices'
	assert_regex "$stderr" 'the devices start opening'
}

@test "plan: on a machine of several GPUs, only as many are listed as the work pays for" {
	# (AGREP_GPU_NVIDIA_PROC stands for /proc/driver/nvidia/gpus: four
	# GPUs; the prior model of a GPU: a small input is worth one)
	mkdir -p gpus/0000:01 gpus/0000:02 gpus/0000:03 gpus/0000:04
	run -0 --separate-stderr env -u AGREP_GPU_DEVICE AGREP_GPU_STATS=1 \
	    AGREP_GPU_NVIDIA_PROC=gpus agrep-gpu -c -k1 needle text
	assert_output "$(agrep-gpu --device=host -c -k1 needle text)"
	assert_regex "$stderr" 'plan: 4 GPUs present, [0-9.]+ s of work on one \(prior\): 1 listed'
	# not where CUDA_VISIBLE_DEVICES says already, nor outside the
	# automatic mode
	run -0 --separate-stderr env -u AGREP_GPU_DEVICE AGREP_GPU_STATS=1 \
	    CUDA_VISIBLE_DEVICES=0,1 AGREP_GPU_NVIDIA_PROC=gpus agrep-gpu -c -k1 needle text
	refute_regex "$stderr" 'GPUs present'
	run -0 --separate-stderr env AGREP_GPU_STATS=1 AGREP_GPU_NVIDIA_PROC=gpus \
	    agrep-gpu --device=host -c -k1 needle text
	refute_regex "$stderr" 'GPUs present'
}

@test "plan: a start-up cached with one count of GPUs listed is moved to this run's count" {
	# (plan.c, plan_listed: GPU_LIST_EACH, 0.3 s a GPU; a line without the
	# count, as older caches wrote it, is taken as it is)
	mkdir -p gpus/0000:01 gpus/0000:02 gpus/0000:03 gpus/0000:04 cache/agrep-gpu
	for i in $(seq 1 120); do cat text; done > big
	printf 'NVIDIA H200\t1 2e10 5e11 1.4 4\n' > cache/agrep-gpu/plan.txt
	run -0 --separate-stderr env -u AGREP_GPU_DEVICE AGREP_GPU_STATS=1 \
	    AGREP_GPU_NVIDIA_PROC=gpus agrep-gpu -c -k1 needle big
	assert_output "$(agrep-gpu --device=host -c -k1 needle big)"
	assert_regex "$stderr" 'plan: 4 GPUs present, [0-9.]+ s of work on one \(cached\): 1 listed'
	assert_regex "$stderr" 'plan: 1 GPUs listed: the cached start-up 1.40 s, measured with another count, is taken as 0.50 s'
	# CUDA_VISIBLE_DEVICES says how many the driver lists
	printf 'NVIDIA H200\t1 2e10 5e11 0.3 1\n' > cache/agrep-gpu/plan.txt
	run -0 --separate-stderr env -u AGREP_GPU_DEVICE AGREP_GPU_STATS=1 \
	    CUDA_VISIBLE_DEVICES=0,1,2,3 agrep-gpu -c -k1 needle big
	assert_regex "$stderr" 'plan: 4 GPUs listed: the cached start-up 0.30 s, measured with another count, is taken as 1.20 s'
	printf 'NVIDIA H200\t1 2e10 5e11 0.3\n' > cache/agrep-gpu/plan.txt
	run -0 --separate-stderr env -u AGREP_GPU_DEVICE AGREP_GPU_STATS=1 \
	    CUDA_VISIBLE_DEVICES=0,1,2,3 agrep-gpu -c -k1 needle big
	refute_regex "$stderr" 'GPUs listed'
	assert_regex "$stderr" 'NVIDIA H200 \(cached\).*start 0.30 s'
}

@test "plan: a GPU kept closed only by its cached start-up is opened again a few runs later" {
	# The start-up is measured only where the GPU opens: one slow open (a
	# fresh machine's first) once kept it closed for good.  A cached GPU
	# (gpu 1, fast, the pattern-parallel kernel's) whose start alone declines it: the cache's figure
	# moves halfway to the prior each run, until the devices start (here
	# POCL's).  The text: 300 kbp of DNA for the host's probe, then
	# zeros, sparse, to 400 MB; -q stops at the first line.  The scalar
	# engine, for a host slow enough that a GPU could pay.
	export AGREP_GPU_HOST_ENGINE=scalar
	python3 - <<'PY'
import random
r = random.Random(3)
s = ''.join(r.choice('ACGT') for _ in range(300000))
open('g.txt', 'w').write('\n'.join(s[i:i + 150] for i in range(0, len(s), 150)) + '\n')
open('p.txt', 'w').write('\n'.join(s[i * 5000 + 7:i * 5000 + 31] for i in range(40)) + '\n')
PY
	cp g.txt big
	truncate -s 400M big
	mkdir -p cache/agrep-gpu
	local host start i
	# the host alone's time here; the cached start-up three quarters of
	# it (the GPU then never pays: opening beside the workers counts it
	# twice)
	run -0 --separate-stderr env -u AGREP_GPU_DEVICE AGREP_GPU_STATS=1 \
	    AGREP_GPU_NO_CACHE=1 agrep-gpu -q -k2 -f p.txt big
	host=$(printf '%s\n' "$stderr" | sed -n 's/.*bytes: the host alone \([0-9.]*\) s;.*/\1/p')
	[ -n "$host" ]
	start=$(awk -v h="$host" 'BEGIN { printf "%.2f", h * 0.75 }')
	awk -v h="$host" 'BEGIN { exit !(h > 1.6) }' || skip "the host alone takes $host s here: too fast to tell"
	printf 'slowgpu [pattern-parallel]\t1 1e12 1e16 %s\n' "$start" > cache/agrep-gpu/plan.txt
	run -0 --separate-stderr env -u AGREP_GPU_DEVICE AGREP_GPU_STATS=1 \
	    agrep-gpu -q -k2 -f p.txt big
	assert_regex "$stderr" "start $start s: the host alone"
	assert_regex "$stderr" 'only the cached start-up keeps the GPU closed: the cache.s figure moves to [0-9.]+ s'
	# halfway to the prior (0.5 s)
	run -0 awk -F '\t' -v s="$start" '$1 == "slowgpu [pattern-parallel]" { split($2, f, " ");
	    d = f[4] - (0.5 + (s - 0.5) / 2); print (d < 0.01 && d > -0.01) }' \
	    cache/agrep-gpu/plan.txt
	assert_output 1
	for i in 1 2 3 4 5; do
		run -0 --separate-stderr env -u AGREP_GPU_DEVICE AGREP_GPU_STATS=1 \
		    agrep-gpu -q -k2 -f p.txt big
		[[ $stderr != *"slowgpu [pattern-parallel] (cached)"*": start the devices"* ]] || break
	done
	assert_regex "$stderr" 'slowgpu \[pattern-parallel\] \(cached\).*: start the devices'
	# where the prior's start-up would not pay either, the figure stays
	printf 'slowgpu [pattern-parallel]\t1 1e3 1e4 %s\n' "$start" > cache/agrep-gpu/plan.txt
	run -0 --separate-stderr env -u AGREP_GPU_DEVICE AGREP_GPU_STATS=1 \
	    agrep-gpu -q -k2 -f p.txt big
	refute_regex "$stderr" 'only the cached start-up'
	run -0 cut -f2 cache/agrep-gpu/plan.txt
	assert_output "1 1e3 1e4 $start"
}

@test "plan: the devices open before the host's probe only where the probe would outlast half their start-up" {
	# (plan.c, plan_open_early: about 50 us of probe a pattern word; a
	# cached GPU slow enough to pay for opening on 400 MB; -q stops at
	# the first line)
	python3 - <<'PY'
import random
r = random.Random(5)
s = ''.join(r.choice('ACGT') for _ in range(300000))
open('g.txt', 'w').write('\n'.join(s[i:i + 150] for i in range(0, len(s), 150)) + '\n')
open('p.txt', 'w').write('\n'.join(s[i * 5000 + 7:i * 5000 + 31] for i in range(40)) + '\n')
PY
	truncate -s 400M g.txt
	mkdir -p cache/agrep-gpu
	run -0 agrep-gpu --device=host -q -k2 -f p.txt g.txt
	local start
	for start in 0.0001 1.0; do
		printf 'slowgpu [pattern-parallel]\t1 1e3 1e4 %s\n' "$start" > cache/agrep-gpu/plan.txt
		run -0 --separate-stderr env -u AGREP_GPU_DEVICE AGREP_GPU_STATS=1 \
		    agrep-gpu -q -k2 -f p.txt g.txt
		if [ "$start" = 1.0 ]; then
			refute_regex "$stderr" 'the devices open early'
		else
			assert_regex "$stderr" 'the devices open early'
		fi
	done
	# AGREP_GPU_EARLY=1: from 16 pattern words whatever the start-up
	printf 'slowgpu [pattern-parallel]\t1 1e3 1e4 1.0\n' > cache/agrep-gpu/plan.txt
	run -0 --separate-stderr env -u AGREP_GPU_DEVICE AGREP_GPU_STATS=1 \
	    AGREP_GPU_EARLY=1 agrep-gpu -q -k2 -f p.txt g.txt
	assert_regex "$stderr" 'the devices open early'
}
