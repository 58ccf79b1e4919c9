#!/usr/bin/env bats
# Device choice: --list-devices, --device=cpu|host|gpu|N, AGREP_GPU_DEVICE,
# and what happens when no OpenCL driver is installed.

load test_helper
bats_require_minimum_version 1.5.0

setup() {
	cd "$BATS_TEST_TMPDIR" || return
	# 200 lines: some exact, some near matches (1 or 2 edits), the rest not.
	# (awk: a shell loop of 200 under bats' traps took 150 ms a test)
	awk 'BEGIN { for (i = 1; i <= 200; i++) { r = i % 7
		if (r == 0) print "line " i " holds needle here"
		else if (r == 1) print "line " i " holds neXdle here"
		else if (r == 2) print "line " i " holds needdle here"
		else if (r == 3) print "line " i " holds nedle, and Needle"
		else if (r == 4) print "line " i " holds nXXdle far"
		else if (r == 5) print ""
		else print "line " i " has nothing of interest" } }' > text
}

has_gpu() {
	agrep-gpu --list-devices 2>/dev/null | grep -q '(gpu'
}

@test "--list-devices lists a CPU device (POCL) and exits 0" {
	run -0 --separate-stderr agrep-gpu --list-devices
	assert_line --regexp '^0: .*cpu'
	assert_equal "$stderr" ''
}

@test "--device=cpu, --device=host and --device=0 give identical output" {
	# (k = 0 is searched on the host whatever the device; k = 1, 2 on it)
	# Full: both device forms at every k; quick: both at k = 0,
	# --device=cpu at k = 1, --device=0 at k = 2.
	local k want full=0
	[ "$(depth quick full)" = quick ] || full=1
	for k in 0 1 2; do
		run -0 --separate-stderr agrep-gpu --device=host -n -b -k "$k" needle text
		want="$output"
		[ "$k" != 0 ] || assert_equal "$want" "$(grep -F -n -b needle text)"
		if ((full || k != 2)); then
		run -0 --separate-stderr env AGREP_GPU_HOST_MAX=0 \
		    agrep-gpu --device=cpu -n -b -k "$k" needle text
		assert_output "$want"
		assert_equal "$stderr" ''
		fi
		((full || k != 1)) || continue
		run -0 --separate-stderr env AGREP_GPU_HOST_MAX=0 \
		    agrep-gpu --device=0 -n -b -k "$k" needle text
		assert_output "$want"
		assert_equal "$stderr" ''
	done
}

@test "the devices agree with -v, -c and -i" {
	local args want
	for args in "-v -k1 needle" "-c -k2 needle" "-i needle" "-i -c -k1 NEEDLE"; do
		# shellcheck disable=SC2086
		run -0 agrep-gpu --device=host $args text
		want="$output"
		# shellcheck disable=SC2086
		run -0 --separate-stderr env AGREP_GPU_HOST_MAX=0 \
		    agrep-gpu --device=cpu $args text
		assert_output "$want"
		assert_equal "$stderr" ''
	done
}

@test "AGREP_GPU_DEVICE chooses the device like --device" {
	run -0 agrep-gpu --device=host -k1 needle text
	local want="$output"
	run -0 --separate-stderr env AGREP_GPU_HOST_MAX=0 AGREP_GPU_DEVICE=0 \
	    agrep-gpu -k1 needle text
	assert_output "$want"
	assert_equal "$stderr" ''
	run -0 --separate-stderr env AGREP_GPU_DEVICE=host agrep-gpu -k1 needle text
	assert_output "$want"
}

# The device is needed only for k >= 1 (k = 0 is an exact search on the host)
# and inputs above AGREP_GPU_HOST_MAX: hence -k 1 and AGREP_GPU_HOST_MAX=0.
# Whether the lines are still printed (by the host matcher) is the tool's
# choice; if they are, they must be right.

@test "--device=gpu without a GPU: a clear error, exit 2" {
	! has_gpu || skip "this machine has an OpenCL GPU"
	run -0 agrep-gpu --device=host -k 1 needle text
	local want="$output"
	run -2 --separate-stderr env AGREP_GPU_HOST_MAX=0 \
	    agrep-gpu --device=gpu -k 1 needle text
	[ -z "$output" ] || assert_output "$want"
	assert_regex "$stderr" 'gpu'
}

@test "--device=99 (no such device): a clear error, exit 2" {
	run -0 agrep-gpu --device=host -k 1 needle text
	local want="$output"
	run -2 --separate-stderr env AGREP_GPU_HOST_MAX=0 \
	    agrep-gpu --device=99 -k 1 needle text
	[ -z "$output" ] || assert_output "$want"
	assert_regex "$stderr" '99'
}

@test "--device=bogus is refused, exit 2, whatever the input size" {
	run -2 --separate-stderr agrep-gpu --device=bogus needle text
	assert_regex "$stderr" 'bogus'
	run -2 --separate-stderr env AGREP_GPU_HOST_MAX=0 \
	    agrep-gpu --device=bogus -k 1 needle text
	assert_regex "$stderr" 'bogus'
}

# Whether the OpenCL loader here lists a GPU even with no vendors named (the
# GPU machines' loader does: the two tests below cannot take the driver
# away there; CI has no GPU, so they always run on it).
vendors_ignored() {
	env OCL_ICD_VENDORS="$PWD/novendors" agrep-gpu --list-devices \
	    2>/dev/null | grep -q '(gpu'
}

@test "no OpenCL driver: a message naming POCL and make deps, exit 2" {
	mkdir novendors
	vendors_ignored && skip "the OpenCL loader finds a GPU whatever OCL_ICD_VENDORS says"
	run -0 agrep-gpu --device=host -k 1 needle text
	local want="$output"
	run -2 --separate-stderr env OCL_ICD_VENDORS="$PWD/novendors" \
	    AGREP_GPU_HOST_MAX=0 agrep-gpu --device=cpu -k 1 needle text
	[ -z "$output" ] || assert_output "$want"
	assert_regex "$stderr" 'POCL'
	assert_regex "$stderr" 'make deps'
}

@test "no OpenCL driver: --list-devices says so, exit 2" {
	mkdir novendors
	vendors_ignored && skip "the OpenCL loader finds a GPU whatever OCL_ICD_VENDORS says"
	run -2 --separate-stderr env OCL_ICD_VENDORS="$PWD/novendors" \
	    agrep-gpu --list-devices
	assert_output --regexp '^host: [a-z0-9]+ instruction set'
	assert_regex "$stderr" 'POCL'
}

@test "no OpenCL driver: --device=host still works" {
	mkdir novendors
	run -0 agrep-gpu --device=host -k1 needle text
	local want="$output"
	run -0 --separate-stderr env OCL_ICD_VENDORS="$PWD/novendors" \
	    AGREP_GPU_HOST_MAX=0 agrep-gpu --device=host -k1 needle text
	assert_output "$want"
	assert_equal "$stderr" ''
}

@test "no OpenCL driver: a small input under the host limit needs no device" {
	mkdir novendors
	run -0 --separate-stderr env -u AGREP_GPU_DEVICE \
	    OCL_ICD_VENDORS="$PWD/novendors" agrep-gpu -n needle text
	assert_output "$(grep -F -n needle text)"
	assert_equal "$stderr" ''
	run -0 agrep-gpu --device=host -n -k 1 needle text
	local want="$output"
	run -0 --separate-stderr env -u AGREP_GPU_DEVICE \
	    OCL_ICD_VENDORS="$PWD/novendors" agrep-gpu -n -k 1 needle text
	assert_output "$want"
	assert_equal "$stderr" ''
}

# libOpenCL is loaded at run time (src/clload.c): AGREP_GPU_OPENCL_LIB
# names another file, here one that is missing or that is no OpenCL library.
@test "no OpenCL library: the no-driver message, the host's lines, exit 2" {
	run -0 agrep-gpu --device=host -k 1 needle text
	local want="$output" lib
	for lib in "$PWD/missing/libOpenCL.so.1" libm.so.6; do
		run -2 --separate-stderr env AGREP_GPU_OPENCL_LIB="$lib" \
		    AGREP_GPU_HOST_MAX=0 agrep-gpu --device=cpu -k 1 needle text
		[ -z "$output" ] || assert_output "$want"
		assert_regex "$stderr" 'no OpenCL platform or device found'
		assert_regex "$stderr" 'POCL'
		run -2 --separate-stderr env AGREP_GPU_OPENCL_LIB="$lib" \
		    agrep-gpu --list-devices
		assert_output --regexp '^host: [a-z0-9]+ instruction set'
		assert_regex "$stderr" 'no OpenCL platform or device found'
	done
}

@test "no OpenCL library: the host matcher and small inputs need none" {
	run -0 agrep-gpu --device=host -n -k 1 needle text
	local want="$output"
	run -0 --separate-stderr env AGREP_GPU_OPENCL_LIB=/nonexistent.so \
	    AGREP_GPU_HOST_MAX=0 agrep-gpu --device=host -n -k 1 needle text
	assert_output "$want"
	assert_equal "$stderr" ''
	run -0 --separate-stderr env -u AGREP_GPU_DEVICE \
	    AGREP_GPU_OPENCL_LIB=/nonexistent.so agrep-gpu -n -k 1 needle text
	assert_output "$want"
	assert_equal "$stderr" ''
}

@test "libOpenCL is loaded only when a device is looked for" {
	# LD_DEBUG=files: the dynamic loader names each library it opens
	run -0 --separate-stderr env LD_DEBUG=files \
	    agrep-gpu --device=host -c -k 1 needle text
	assert_output "$(agrep-gpu --device=host -c -k 1 needle text)"
	refute_regex "$stderr" 'libOpenCL'
	run -0 --separate-stderr env -u AGREP_GPU_DEVICE LD_DEBUG=files \
	    agrep-gpu -c -k 1 needle text
	refute_regex "$stderr" 'libOpenCL'
	run --separate-stderr env LD_DEBUG=files agrep-gpu --list-devices
	assert_regex "$stderr" 'file=libOpenCL\.so\.1'
}

@test "automatic device: with CPU devices only (POCL) the host keeps an input past its limit; --device=cpu still sends it to POCL" {
	has_gpu && skip "a GPU is installed: the automatic choice takes it"
	# 100 patterns of 71 bytes, two Myers words each: with -j1 the host's
	# limit is 512 MiB / 200 words, about 2.7 MB, and the input is 3.4 MB.
	local i
	for ((i = 0; i < 100; i++)); do
		printf 'line %03d holds a pattern of more than sixty-four bytes, needle %03d here\n' \
		    "$((i * 7))" "$i"
	done > pats
	# 700 copies of text (one cat: 700 of them under bats' traps took 1.8 s)
	printf 'text\n%.0s' {1..700} | xargs cat > big
	printf 'line 014 holds a pattern of more than sixty-four bytes, neXdle 002 here\n' >> big
	[ "$(wc -c < big)" -gt 3000000 ]
	run -0 --separate-stderr env -u AGREP_GPU_DEVICE AGREP_GPU_STATS=1 \
	    agrep-gpu -j1 -c -k2 -f pats big
	assert_output 1
	# AGREP_GPU_STATS reports kernels only when an OpenCL device scanned
	[[ "$stderr" != *"stats:"* ]] || { echo "a device scanned: $stderr"; return 1; }
	assert_regex "$stderr" 'host: 1 workers, [a-z0-9]+ instruction set'
	run -0 --separate-stderr env -u AGREP_GPU_DEVICE AGREP_GPU_STATS=1 \
	    agrep-gpu --device=cpu -j1 -c -k2 -f pats big
	assert_output 1
	[[ "$stderr" == *"stats:"*"kernel"* ]] || { echo "POCL did not scan: $stderr"; return 1; }
}

@test "records counted on the device (-c, -l, -L, -q, -v) equal the host's, ranges finishing in any order, a failed scan too" {
	# Lines of 0 to 70,000 bytes (records across the counting kernel's
	# work-groups of 32 KiB and across ranges), matches at their ends,
	# and a last line without a terminator.  Full (AGREP_GPU_TESTS=full):
	# 400 lines, 3.5 MB (15 lines over 32 KiB); quick: the first 100 of
	# them, 850 KB (5 over 32 KiB, 61 over a range of 2 KiB).
	awk -v nl="$(depth 100 400)" 'BEGIN { srand(7); for (i = 1; i <= nl; i++) {
		n = int(rand() * rand() * rand() * 70000); s = ""
		while (length(s) < n) s = s "abcdefg hij "
		s = substr(s, 1, n)
		if (i % 5 == 0) s = s "needle"; else if (i % 7 == 0) s = "nedle" s
		print s } printf "last neXdle" }' > long
	local args f want j fx=0 ai ji full=0 sub
	# Full: the device and the automatic choice with every -j for every
	# file and form, and every file and form from a pipe.  Quick: one -j of
	# three on the device, turning with the file and the form ((file +
	# form) % 3), and the next one in the automatic choice, so that every
	# file meets every -j both ways and every form two of them; from a
	# pipe, each form on one of the files, by turns (each file half the
	# forms).
	[ "$(depth quick full)" = quick ] || full=1
	for f in text long; do
		ai=0
		for args in "-c -k1 needle" "-c -v -k1 needle" "-c -k0 needle" \
		    "-l -k2 needle" "-L -k1 needle" "-L -k0 zzzzz" "-c -i -k1 NEEDLE"; do
			# shellcheck disable=SC2086
			run agrep-gpu --device=host $args $f
			want="$output/$status"
			# (ranges finish in any order here: two device
			# contexts, several workers, the host and the devices)
			ji=0
			for j in 1 2 4; do
				if ((full || (fx + ai) % 3 == ji)); then
				# shellcheck disable=SC2086
				# (the scans started by the workers, -j 1,
				# or by one or two submitting threads)
				sub=$((j == 1 ? 0 : j == 2 ? 2 : 1))
				run --separate-stderr env AGREP_GPU_HOST_MAX=0 \
				    AGREP_GPU_CHUNK=4096 AGREP_GPU_DEVICE_COPIES=2 \
				    AGREP_GPU_SUBMITTERS=$sub \
				    agrep-gpu -j $j --device=cpu $args $f
				[ "$output/$status" = "$want" ] ||
				    { echo "$f $args -j $j, $sub submitters: '$output/$status', want '$want'"; return 1; }
				assert_equal "$stderr" ''
				fi
				((full || (fx + ai + 1) % 3 == ji++)) || continue
				# shellcheck disable=SC2086
				run env AGREP_GPU_CHUNK=4096 agrep-gpu -j $j $args $f
				[ "$output/$status" = "$want" ] ||
				    { echo "$f $args -j $j, auto: '$output/$status', want '$want'"; return 1; }
			done
			if ((full || (fx + ai) % 2 == 0)); then
			# shellcheck disable=SC2086
			run sh -c "cat $f | AGREP_GPU_HOST_MAX=0 AGREP_GPU_CHUNK=4096 agrep-gpu -j 4 --device=cpu $args"
			[ "${output#(standard input)}/$status" = "${want#$f}" ] ||
			    { echo "$f $args from a pipe: '$output/$status', want '$want'"; return 1; }
			fi
			ai=$((ai + 1))
		done
		fx=$((fx + 1))
		run -0 env AGREP_GPU_HOST_MAX=0 agrep-gpu --device=cpu -q -k1 needle $f
		run -1 env AGREP_GPU_HOST_MAX=0 agrep-gpu --device=cpu -q -k0 zzzzz $f
	done
	# a scan that fails: its range is counted on the host
	run -0 agrep-gpu --device=host -c -k1 needle long
	want="$output"
	run -0 --separate-stderr env AGREP_GPU_HOST_MAX=0 AGREP_GPU_CHUNK=4096 \
	    AGREP_GPU_FAULT=2 agrep-gpu --device=cpu -c -k1 needle long
	assert_output "$want"
	assert_regex "$stderr" 'device scan failed; using the host matcher'
}
