#!/usr/bin/env bats
# Threads: -jN prints exactly what -j1 prints (stdout and stderr, in order,
# and the exit status), over the option matrix, large files cut into ranges
# (tiny AGREP_GPU_CHUNK), trees with unreadable and binary files, standard
# input, -m, -q, context, long lines across ranges, and failing outputs.
# Large files searched range by range are also checked against the ring
# path (one job for the whole file, default chunk) of the host matcher.

load test_helper
bats_require_minimum_version 1.5.0

setup_file() {
	cd "$BATS_FILE_TMPDIR" || return
	# About 400 KB of Bible-like text with planted near-matches, a few
	# long lines (up to 40 KB), CRs, and no final newline.
	awk 'function rnd(n) { s = (s * 69069 + 1) % 4294967296; return int(s / 65536) % n }
	BEGIN {
		s = 4242
		split("mercy mercie mrcy merciful MERCY mer cy emrcy mercyy", v, " ")
		split("the and of LORD unto shall his for thee that", wd, " ")
		for (i = 1; i <= 6000; i++) {
			n = rnd(20) == 0 ? rnd(400) : rnd(14)
			if (i % 1500 == 7) n = 5000 + rnd(3000)
			line = ""
			for (j = 0; j < n; j++)
				line = line (j ? " " : "") wd[rnd(10) + 1]
			if (rnd(6) == 0) {
				p = rnd(length(line) + 1)
				line = substr(line, 1, p) v[rnd(8) + 1] substr(line, p + 1)
			}
			if (rnd(30) == 0) line = line "\r"
			printf "%s%s", (i > 1 ? "\n" : ""), line
		}
	}' > text
}

setup() {
	cd "$BATS_FILE_TMPDIR" || return
}

# same_j ENV... -- ARGS...: agrep-gpu ARGS with -j1 and with -j2, -j3 and
# -j8 (env ENV... for each) give the same stdout+stderr bytes and status.
# SAME_J="J...": those -j instead of 2, 3 and 8 (a test's quick sample).
same_j() {
	local envs=() j rc1 rc
	while [ "$1" != -- ]; do envs+=("$1"); shift; done
	shift
	rc1=0
	env "${envs[@]}" agrep-gpu -j1 "$@" > out.1 2>&1 || rc1=$?
	for j in ${SAME_J:-2 3 8}; do
		rc=0
		env "${envs[@]}" agrep-gpu -j$j "$@" > out.$j 2>&1 || rc=$?
		cmp -s out.1 out.$j ||
			fail "-j$j differs from -j1: ${envs[*]} agrep-gpu $*
$(diff out.1 out.$j | head -5)"
		[ "$rc" = "$rc1" ] ||
			fail "-j$j exit $rc, -j1 exit $rc1: ${envs[*]} agrep-gpu $*"
	done
}

@test "threads: ranges of a large file print what one job prints, every -j" {
	local opts k ks="0 1 2" chunks="4096 65536" oi rot js
	# (the ASan build: one k and one chunk size, a sixth of the runs;
	# check-tsan runs them all on the threads; make check a sixth: each
	# option set at one k, k = its place % 3, each k with 4 or 5 sets, at
	# one chunk size, in turn within a k (each k at both sizes), -j1
	# against -j8 and, by turns, -j2 or -j3)
	rot=$(depth 1 0 0)
	case $AGREP_GPU in */san/*) ks=1 chunks=4096 rot=0 ;; esac
	local -a cha
	read -ra cha <<< "$chunks"
	for k in $ks; do
		oi=-1
		for opts in "" "-n" "-b -n" "-c" "-v -c" "-v -n" "-o -b" "-w -n" \
		    "-x" "--show-cost -n" "-l" "-L" "-i --color=always -n" \
		    "-H -c"; do
			oi=$((oi + 1))
			((!rot || oi % 3 == k)) || continue
			# shellcheck disable=SC2086
			agrep-gpu --device=host -j1 $opts -k $k mercy text > want ||
				true
			js=
			((!rot)) || js="$((2 + oi % 2)) 8"
			for chunk in $( ((!rot)) && echo "$chunks" || echo "${cha[oi / 3 % 2]}"); do
				# shellcheck disable=SC2086
				SAME_J=$js same_j AGREP_GPU_CHUNK=$chunk -- $opts -k $k mercy text
				cmp -s want out.8 || fail "chunk $chunk -j8 $opts -k $k:
$(diff want out.8 | head -5)"
			done
		done
	done
}

@test "threads: the OpenCL device and the host matcher agree under -j" {
	# (full: -j1 against -j2, -j3 and -j8 for every option set; quick:
	# against one of them by turns; the host's output against -j1's, which
	# every other -j equals)
	local opts oi=0 js jq=(2 3 8)
	for opts in "-n" "-c" "-v -b" "-o"; do
		js=$(depth "${jq[oi % 3]}" "2 3 8") oi=$((oi + 1))
		# shellcheck disable=SC2086
		agrep-gpu --device=host -j1 $opts -k2 mercy text > want
		# shellcheck disable=SC2086
		SAME_J=$js same_j AGREP_GPU_CHUNK=65536 AGREP_GPU_HOST_MAX=0 -- --device=cpu \
		    $opts -k2 mercy text
		cmp -s want out.1 || fail "device $opts: $(diff want out.1 | head -5)"
	done
}

@test "threads: UTF-8 mode (symbols, refined records) is the same for every -j" {
	# the text with Greek and accented words and stray bytes in it (-a:
	# a record with a stray byte is binary when printed, as in grep)
	sed 's/the/τhé/g; s/LORD/ΛΟΡΔ/g; s/shall/sh\xc3ll/g' text > u8text
	# (full: -j1 against -j2, -j3 and -j8 for every option set, on the
	# host and on the device; quick: on the host against one of them by
	# turns, each -j over 2 or 3 sets, and the device on every other set
	# (four of the seven), against one -j by turns)
	local opts oi=0 js hjs full=0 jq=(2 3 8)
	[ "$(depth quick full)" = quick ] || full=1
	for opts in "-a -n" "-c -i" "-a -o -b" "-a -w -n -i" \
	    "-a --show-cost --show-edits" "-a -x" "-n"; do
		js=$(depth "${jq[oi / 2 % 3]}" "2 3 8")
		hjs=$(depth "${jq[oi % 3]}" "2 3 8")
		# shellcheck disable=SC2086
		agrep-gpu --utf8 --device=host -j1 $opts -k2 'mércy τhé' u8text > want 2>&1 ||
			true
		# shellcheck disable=SC2086
		SAME_J=$hjs same_j AGREP_GPU_CHUNK=4096 -- --utf8 $opts -k2 'mércy τhé' u8text
		cmp -s want out.1 || fail "utf8 $opts: $(diff want out.1 | head -5)"
		# shellcheck disable=SC2086
		((full || oi % 2 == 0)) &&
		SAME_J=$js same_j AGREP_GPU_CHUNK=65536 AGREP_GPU_HOST_MAX=0 -- --device=cpu \
		    --utf8 $opts -k2 'ΛΟΡΔ' u8text
		oi=$((oi + 1))
	done
}

@test "threads: context, -m and the ring path are the same for every -j" {
	# (full: -j1 against -j2, -j3 and -j8 for every option set; quick:
	# against one of them by turns, each -j over 2 or 3 sets)
	local opts oi=0 js jq=(2 3 8)
	for opts in "-A1 -n" "-B2 -b" "-C1 -v" "-m 5 -n" "-m 3 -A2" \
	    "-C2 -o" "--line-buffered -n"; do
		js=$(depth "${jq[oi % 3]}" "2 3 8") oi=$((oi + 1))
		# shellcheck disable=SC2086
		SAME_J=$js same_j AGREP_GPU_CHUNK=4096 -- $opts -k1 mercy text text
	done
}

@test "threads: a tree of many files, with binary and unreadable ones" {
	mkdir -p tree/a/b tree/c
	# lines 40i to 40i+60 of the text in tree/a/fI.txt and tree/c/gI, I
	# 1 to 120 (one awk, not 240 seds and cps)
	awk '{ for (i = int((NR - 60 + 39) / 40); i <= NR / 40 && i <= 120; i++) {
		if (i < 1) continue
		print > ("tree/a/f" i ".txt"); print > ("tree/c/g" i)
		if (NR == i * 40 + 60) { close("tree/a/f" i ".txt"); close("tree/c/g" i) } } }' text
	printf 'mercy\0binary\nmercy again\n' > tree/a/b/bin
	printf 'no match here\n' > tree/a/b/none
	cp text tree/c/big
	chmod 000 tree/a/f7.txt
	local runas=()
	if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
		chmod -R a+rX tree
		chmod 000 tree/a/f7.txt
		runas=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
	fi
	# (full: -j1 against -j2 and -j8 for every option set; quick: against
	# one of them by turns)
	local oi=0
	for opts in "-r -c" "-r -n" "-r -l" "-r -L" "-r -o -b" "-r -C1" \
	    "-r -a -n" "-r -m1" "-r --include=*.txt -c"; do
		rc1=0
		# shellcheck disable=SC2086
		AGREP_GPU_CHUNK=8192 "${runas[@]}" "$AGREP_GPU" -j1 $opts -k1 \
		    mercy tree > out.1 2>&1 || rc1=$?
		for j in $(depth "$((oi % 2 ? 8 : 2))" "2 8"); do
			rc=0
			# shellcheck disable=SC2086
			AGREP_GPU_CHUNK=8192 "${runas[@]}" "$AGREP_GPU" -j$j \
			    $opts -k1 mercy tree > out.$j 2>&1 || rc=$?
			cmp -s out.1 out.$j || fail "-j$j $opts: $(diff out.1 out.$j | head)"
			[ "$rc" = "$rc1" ] || fail "-j$j $opts: exit $rc vs $rc1"
		done
		oi=$((oi + 1))
	done
	[ ${#runas[@]} -eq 0 ] || grep -q "f7.txt: Permission denied" out.1 ||
		fail "$(cat out.1)" ||
		fail "the unreadable file was not reported"
	[ "$rc1" = 2 ] || [ ${#runas[@]} -eq 0 ] || fail "exit $rc1, not 2"
}

@test "threads: a NUL deep in a large file: the lines before it, then the message" {
	{ head -c 200000 text; printf '\nmercy\0here\n'; tail -c 100000 text; } > bin
	for opts in "-n" "-c" "-o" "-v -c"; do
		# shellcheck disable=SC2086
		same_j AGREP_GPU_CHUNK=4096 -- $opts -k1 mercy bin
	done
	run -0 agrep-gpu -j8 -n -k1 mercy bin
	assert_line 'agrep-gpu: bin: binary file matches'
}

@test "threads: standard input and -q" {
	local j
	for j in 1 2 8; do
		AGREP_GPU_CHUNK=4096 agrep-gpu -j$j -n -k1 mercy - < text > in.$j
	done
	cmp in.1 in.2 && cmp in.1 in.8
	run -0 sh -c 'cat text | agrep-gpu -j4 -c -k2 mercy'
	[ "$output" = "$(agrep-gpu -j1 -c -k2 mercy < text)" ]
	run -0 agrep-gpu -j8 -q -k1 mercy text /nonexistent
	assert_output ''
	run -1 agrep-gpu -j8 -q -k0 zzzqqq text
}

@test "threads: | head -1, /dev/full and a missing file end with grep's status" {
	run -0 bash -c 'AGREP_GPU_CHUNK=4096 agrep-gpu -j8 -n the text text text | head -1'
	assert_output --regexp '^text:1:'
	run -2 --separate-stderr bash -c 'AGREP_GPU_CHUNK=4096 agrep-gpu -j8 -k1 the text text > /dev/full' 
	[ "$stderr" = "agrep-gpu: write error: No space left on device" ] || fail "$stderr"
	same_j -- -c -k1 mercy text /nonexistent text
	grep -q 'nonexistent: No such file' out.8
}

@test "threads: without -j, a short search starts the workers its work needs (search.c, workers_for)" {
	# AGREP_GPU_CPUS=16 stands for a 16-core machine: 4 MB (text x10)
	# searched for one word at k=2 by the host probe's rate needs a few
	# workers, not 16; 300 patterns over it need all; -j16 is obeyed;
	# the output is -j1's
	# (the host alone, as the options or a machine without a device
	# say: make check-pocl's AGREP_GPU_DEVICE=cpu puts the ranges on
	# POCL, whose slots the workers fill, all of them)
	# (the cap follows the probe's rate: a sanitizer or qemu build runs
	# 3-15x slower and may need every worker; there only the output is
	# checked)
	for i in 1 2 3 4 5 6 7 8 9 10; do cat text; echo; done > text10
	run -0 env AGREP_GPU_CPUS=16 AGREP_GPU_STATS=1 agrep-gpu --device=host -c -k2 mercy text10
	slow_build ||
		assert_line --regexp '^agrep-gpu: host: ([1-9]|1[0-5]) of 16 workers for [0-9]+ bytes'
	assert_line "$(agrep-gpu -j1 -c -k2 mercy text10)"
	run -0 env AGREP_GPU_CPUS=16 AGREP_GPU_STATS=1 agrep-gpu --device=host -j16 -c -k2 mercy text10
	refute_line --partial 'of 16 workers'
	tr -cs 'A-Za-z' '\n' < text10 | awk 'length > 2' | sort -u | head -300 > w
	yes | head -300 | paste -d '' w - > w300
	run -0 env AGREP_GPU_CPUS=16 AGREP_GPU_STATS=1 AGREP_GPU_HOST_ENGINE=nofilter agrep-gpu --device=host -c -k1 -f w300 text10
	refute_line --partial 'of 16 workers'
	AGREP_GPU_CPUS=16 agrep-gpu -n -k2 mercy text10 > a
	agrep-gpu -j1 -n -k2 mercy text10 > b
	cmp a b
}
