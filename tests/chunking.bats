#!/usr/bin/env bats
# Chunking: with tiny chunks and 64-byte slices, the OpenCL path must print
# exactly what the host matcher prints (and grep -F, for k=0), line numbers
# and byte offsets included, from a file and from a pipe.

load test_helper
bats_require_minimum_version 1.5.0

# The text: full (AGREP_GPU_TESTS=full) runs make_text's 300 lines (280 KB);
# quick drops every line of 4,000 bytes or more but the first four (47 KB,
# 248 lines: lines of 4096, 4097 and 4100 bytes kept, every match and CR
# line of the short lines, the last line without a newline).  The sizes
# matter only through a chunk's per-launch cost: a 1-byte chunk from a pipe
# launches a kernel per byte (18 s over the full text).  The first test
# checks that the text in use has what the others need.
setup() {
	cd "$BATS_TEST_TMPDIR" || return
	if [ "$(depth quick full)" = full ]; then
		make_text > text
	else
		make_text | awk 'length($0) < 4000 || ++n <= 4 {
			printf "%s%s", (c++ ? "\n" : ""), $0 }' > text
	fi
}

# make_text: about 300 lines of varied length (0 to 5000 bytes, several
# around the 64-byte slice size and longer than every chunk size tried),
# some holding "needle" exactly or with 1 to 3 edits, placed at random or
# across a multiple of 64 bytes; some lines end in CR; no final newline.
# Deterministic (own LCG), the same on mawk and gawk.
make_text() {
	awk 'function rnd(n) { s = (s * 69069 + 1) % 4294967296; return int(s / 65536) % n }
	BEGIN {
		s = 12345
		split("0 1 5 6 7 63 64 65 99 100 101 127 128 200 700 4095 4097 5000", len, " ")
		split("needle neXdle needdle nedle neeXdlXe nXeYedle eedle needl NEEDLE nee dle Xeedle needleneedle", v, " ")
		alpha = "abcdefghijklmopqrstuvwxyz ,."
		for (i = 1; i <= 300; i++) {
			n = len[rnd(18) + 1]
			line = ""
			for (j = 0; j < n; j++)
				line = line substr(alpha, rnd(length(alpha)) + 1, 1)
			if (rnd(10) < 5) {
				w = v[rnd(12) + 1]
				if (rnd(2) && n > 70)
					p = 64 * (1 + rnd(int(n / 64))) - rnd(length(w))
				else
					p = rnd(n + 1)
				if (p < 0) p = 0
				line = substr(line, 1, p) w substr(line, p + 1)
			}
			if (rnd(8) == 0)
				line = line "\r"
			printf "%s%s", (i > 1 ? "\n" : ""), line
		}
	}'
}

# check_chunk CHUNK [ROT]: for several k and output options, the device with
# this chunk size prints the host matcher's bytes (and grep -F's for k=0),
# with nothing on stderr (no fallback to the host matcher).  Full: every k
# 0-3 with every option set (20 runs a chunk size).  Quick: two runs,
# j = 0, 1: option set (ROT + 2j) % 5 at k = (ROT + j) % 4, ROT the
# chunk size's place (0-4) among the five tests: every chunk size meets
# two k and two option sets, every option set two chunk sizes, every k
# two or three runs (each k=0 run also against grep -F).
check_chunk() {
	local chunk=$1 rot=${2:-0} k opts i j quick=0
	local sets=("" "-n -b" "-c" "-v -n" "-i -b")
	[ "$(depth quick full)" = full ] || quick=1
	for k in 0 1 2 3; do
		for i in 0 1 2 3 4; do
			opts=${sets[i]}
			j=$(((i - rot + 5) % 5))
			((quick == 0 || (j % 2 == 0 && j < 4 && (rot + j / 2) % 4 == k))) || continue
			# shellcheck disable=SC2086
			agrep-gpu --device=host $opts -k "$k" needle text > want
			if [ "$k" = 0 ]; then
				# shellcheck disable=SC2086
				grep -F $opts needle text > want.grep || true
				run cmp want want.grep
				assert_success
			fi
			# shellcheck disable=SC2086
			AGREP_GPU_HOST_MAX=0 AGREP_GPU_SLICE=64 AGREP_GPU_CHUNK=$chunk \
			    agrep-gpu $opts -k "$k" needle text > got 2> err
			run diff want got
			assert_success "chunk $chunk, k=$k, opts '$opts'"
			run cat err
			assert_output ''
		done
	done
}

@test "the text has lines longer than every chunk and matches to find" {
	run -0 awk 'length > 4096 { n++ } END { print n + 0 }' text
	(( output >= 3 ))
	run -0 agrep-gpu --device=host -c needle text
	(( output > 10 ))
	run -0 agrep-gpu --device=host -c -k 2 needle text
	(( output > 40 ))
	# matches at every k tried, lines ending in CR, no final newline
	local k
	for k in 1 3; do
		run -0 agrep-gpu --device=host -c -k "$k" needle text
		(( output > 40 ))
	done
	run -0 grep -c $'\r$' text
	(( output > 10 ))
	[ -n "$(tail -c 1 text | tr -d '\n')" ]
}

@test "chunk of 1 byte: device output equals host and grep -F" {
	check_chunk 1 0
}

@test "chunk of 7 bytes: device output equals host and grep -F" {
	check_chunk 7 1
}

@test "chunk of 64 bytes: device output equals host and grep -F" {
	check_chunk 64 2
}

@test "chunk of 100 bytes: device output equals host and grep -F" {
	check_chunk 100 3
}

@test "chunk of 4096 bytes: device output equals host and grep -F" {
	check_chunk 4096 4
}

@test "line numbers and byte offsets stay right across chunks" {
	local chunk
	grep -F -n -b needle text > want
	# (chunk sizes: full 1, 7, 64, 100 and 4096 bytes; quick 1 and 4096,
	# the test through a pipe taking every size with -n -b)
	for chunk in $(depth "1 4096" "1 7 64 100 4096"); do
		AGREP_GPU_HOST_MAX=0 AGREP_GPU_SLICE=64 AGREP_GPU_CHUNK=$chunk \
		    agrep-gpu -n -b needle text > got
		run diff want got
		assert_success "chunk $chunk"
	done
	# and the first and last lines of the text
	grep -F -n -b -v needle text > want
	AGREP_GPU_HOST_MAX=0 AGREP_GPU_SLICE=64 AGREP_GPU_CHUNK=7 \
	    agrep-gpu -n -b -v needle text > got
	run diff want got
	assert_success
}

@test "standard input through a pipe: same output for every chunk size" {
	# Full: every chunk size at k=0 and k=2.  Quick: one k a chunk size by
	# turns, k=2 for 1, 64 and 4096 bytes, k=0 for 7 and 100 (a pipe in
	# 1-byte chunks: 4-5 s a run on the 2-core machine), then k=0 again in
	# 7-byte chunks against grep -F (quick: that run's output from the loop
	# against grep -F, the same command).  Quick pipes the first 16,000
	# bytes in 1-byte chunks (three lines past 4096 bytes, CR lines, a
	# dozen matches at k=2, no final newline): that run costs by the byte
	# (2.7 s for the whole text, 0.6 s for these).
	local chunk k ci in w full=0
	[ "$(depth quick full)" = quick ] || full=1
	for k in 0 2; do
		agrep-gpu --device=host -n -b -k "$k" needle text > want
		ci=0
		for chunk in 1 7 64 100 4096; do
			ci=$((ci + 1))
			((full || (ci % 2) == (k == 2))) || continue
			in=text w=want
			if ((!full && chunk == 1)); then
				head -c 16000 text > text1
				agrep-gpu --device=host -n -b -k "$k" needle text1 > want1
				[ -s want1 ]
				in=text1 w=want1
			fi
			# shellcheck disable=SC2002 # a pipe, on purpose
			cat $in | AGREP_GPU_HOST_MAX=0 AGREP_GPU_SLICE=64 \
			    AGREP_GPU_CHUNK=$chunk agrep-gpu -n -b -k "$k" needle > got 2> err
			run diff $w got
			assert_success "pipe, chunk $chunk, k=$k"
			run cat err
			assert_output ''
			[ "$k$chunk" != 07 ] || cp got got07
		done
	done
	if ((full)); then
		# shellcheck disable=SC2002
		cat text | AGREP_GPU_HOST_MAX=0 AGREP_GPU_SLICE=64 AGREP_GPU_CHUNK=7 \
		    agrep-gpu -n -b needle > got
	else
		cp got07 got
	fi
	grep -F -n -b needle text > want
	run diff want got
	assert_success
}

@test "several patterns of different lengths with tiny chunks" {
	# Full: every chunk size at k=1 and k=3.  Quick: k=1 in chunks of 1
	# byte, k=3 in chunks of 7 (100 bytes: the other tests).
	local k chunk full=0
	[ "$(depth quick full)" = quick ] || full=1
	for k in 1 3; do
		agrep-gpu --device=host -n -b -k "$k" -e ab -e needleneedle \
		    -e abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijkl \
		    text > want
		for chunk in 1 7 100; do
			((full || (chunk == 7) == (k == 3) && chunk != 100)) || continue
			AGREP_GPU_HOST_MAX=0 AGREP_GPU_SLICE=64 AGREP_GPU_CHUNK=$chunk \
			    agrep-gpu -n -b -k "$k" -e ab -e needleneedle \
			    -e abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijkl \
			    text > got
			run diff want got
			assert_success "chunk $chunk, k=$k"
		done
	done
}

@test "a pipe that delivers the text in small pieces gives the same output" {
	agrep-gpu --device=host -n -k 1 needle text > want
	# dd with a small output block size: many short writes into the pipe
	dd if=text bs=37 2>/dev/null | AGREP_GPU_HOST_MAX=0 AGREP_GPU_SLICE=64 \
	    AGREP_GPU_CHUNK=100 agrep-gpu -n -k 1 needle > got
	run diff want got
	assert_success
}

@test "several files with tiny chunks: names and counts stay right" {
	head -c 30000 text > part1
	tail -c 30000 text > part2
	agrep-gpu --device=host -c -k 1 needle part1 text part2 > want
	AGREP_GPU_HOST_MAX=0 AGREP_GPU_SLICE=64 AGREP_GPU_CHUNK=7 \
	    agrep-gpu -c -k 1 needle part1 text part2 > got
	run diff want got
	assert_success
	grep -F -n needle part1 text part2 > want
	AGREP_GPU_HOST_MAX=0 AGREP_GPU_SLICE=64 AGREP_GPU_CHUNK=64 \
	    agrep-gpu -n needle part1 text part2 > got
	run diff want got
	assert_success
}

@test "-z records with tiny chunks" {
	tr '\n' '\0' < text > ztext
	agrep-gpu --device=host -z -b -k 1 needle ztext > want
	AGREP_GPU_HOST_MAX=0 AGREP_GPU_SLICE=64 AGREP_GPU_CHUNK=7 \
	    agrep-gpu -z -b -k 1 needle ztext > got
	run cmp want got
	assert_success
	grep -F -z -b needle ztext > want
	AGREP_GPU_HOST_MAX=0 AGREP_GPU_SLICE=64 AGREP_GPU_CHUNK=100 \
	    agrep-gpu -z -b needle ztext > got
	run cmp want got
	assert_success
}

@test "-m stops at the right line with tiny chunks" {
	grep -F -n -m 5 needle text > want
	AGREP_GPU_HOST_MAX=0 AGREP_GPU_SLICE=64 AGREP_GPU_CHUNK=7 \
	    agrep-gpu -n -m 5 needle text > got
	run diff want got
	assert_success
}

@test "-m: a last allowed record around and past the chunk size is printed as selected, host and device" {
	# Lines 2 and 4 short with an 'a', line 5 of L bytes of a-h and spaces
	# (L around the 4096-byte chunk and far past it), then more lines with
	# an 'a': -m 3 ends on the long line, which is selected (':'), not
	# context; found tried as a new user would (issue 22).
	# Full: both forms (-A1, -k0) for every L, -m and path.  Quick: one form
	# an L and -m on the host, -A1 where the place of L plus m is odd, -k0
	# where even; one run on the device for every other L (odd places:
	# 4094, 4096, 8191, 8193, 70000), -m 3 + (place / 4) % 2, -A1 where
	# place / 2 + m is even, -k0 where odd: every L meets both forms and
	# both -m on the host, and the device every -m with every form.
	local L m how par q fail=0 li=0 full=0
	[ "$(depth quick full)" = quick ] || full=1
	for L in 4000 4094 4095 4096 4097 4100 8191 8192 8193 70000; do
		{ echo "line one"; echo "a short"; echo "line three"; echo "another a"
		  awk -v n="$L" 'BEGIN { srand(n); s = ""; for (i = 0; i < n; i++)
		      s = s substr("abcdefgh ", int(rand() * 9) + 1, 1); print s }'
		  echo "sixth a"; echo "seventh"; } > mtext
		for m in 3 4; do
			for how in "--device=host" "--device=cpu AGREP_GPU_HOST_MAX=0"; do
				# quick: -A1 on this path where (place + m) % 2 = par
				par=0 q=$((li / 2 + m))
				[ "$how" != --device=host ] || par=1 q=$((li + m))
				((full)) || [ "$how" = --device=host ] || ((li % 2 == 1 && m == 3 + li / 4 % 2)) || continue
				if ((full || q % 2 == par)); then
				grep -n -m "$m" -A1 a mtext > want
				# shellcheck disable=SC2086
				env AGREP_GPU_CHUNK=4096 ${how#* } agrep-gpu ${how%% *} -n -m "$m" -A1 a mtext > got
				cmp -s want got || { echo "L=$L -m $m $how: $(diff want got | cut -c1-40 | head -4)"; fail=1; }
				fi
				if ((full || q % 2 != par)); then
				grep -n -m "$m" a mtext > want
				# shellcheck disable=SC2086
				env AGREP_GPU_CHUNK=4096 ${how#* } agrep-gpu ${how%% *} -k0 -n -m "$m" a mtext > got
				cmp -s want got || { echo "L=$L -m $m -k0 $how: $(diff want got | cut -c1-40 | head -4)"; fail=1; }
				fi
			done
		done
		li=$((li + 1))
	done
	[ "$fail" = 0 ]
}

@test "on the device, each file is searched on its own bytes" {
	printf 'xx needle\n' > s1
	printf 'nothing\nneedle\n' > s2
	printf 'abcdefghij neXdle\n' > s3
	agrep-gpu --device=host -n -k 1 needle s1 s2 s3 s1 > want
	AGREP_GPU_HOST_MAX=0 agrep-gpu -n -k 1 needle s1 s2 s3 s1 > got
	run diff want got
	assert_success
}

@test "a file after one large enough for the device is searched right (default settings)" {
	# (default settings: on the host since AGREP_GPU_HOST_MAX is 1 GiB)
	yes 'filler line without the word' | head -c 1200000 > large
	printf 'nothing\nneedle\n' > small
	run -0 agrep-gpu -n -k 1 needle large small
	assert_output 'small:2:needle'
	run -0 agrep-gpu -c -k 1 needle small large small
	assert_output "$(printf 'small:1\nlarge:0\nsmall:1')"
}
