#!/usr/bin/env bats
# Several devices in one process: AGREP_GPU_DEVICE_COPIES=N opens N copies
# of the POCL device (own context, queue and buffers each), so chunks go
# round all of them; the output must keep the input order, exactly as one
# device and the host matcher print it.
load test_helper
bats_require_minimum_version 1.5.0

setup_file() {
	bible "Gen1:1-Rev22:21" > "$BATS_FILE_TMPDIR/kjv.txt"
}

setup() {
	cd "$BATS_FILE_TMPDIR"
	export AGREP_GPU_HOST_MAX=0
}

# Runs agrep-gpu with 1, 2 and 3 device copies and small chunks (so that
# every device gets many), and the host matcher; all must agree.  The
# scans are started by the workers (one device) or by n - 1 submitting
# threads a device (devq.c; the TSan pass runs this file).
agree() {
	run -- agrep-gpu --device=host "$@"
	local want="$output" want_rc="$status" n
	for n in 1 2 3; do
		run -- env AGREP_GPU_DEVICE_COPIES=$n AGREP_GPU_CHUNK=65536 \
		    AGREP_GPU_SUBMITTERS=$((n - 1)) agrep-gpu "$@"
		assert_equal "$status" "$want_rc"
		assert_equal "$output" "$want"
	done
}

@test "chunks spread over 1, 2 and 3 devices print in input order" {
	agree -n -k2 mercy kjv.txt
	agree -b -k1 LORD kjv.txt
	agree -c -v -k1 the kjv.txt
	agree -C2 -n -k2 'for his mercy endureth for ever' kjv.txt
	agree -m 100 -n -k1 righteousness kjv.txt
	agree -k3 -e 'And it came to pass, when men began to multiply on the face of the earth' kjv.txt
}

@test "several files and standard input over several devices" {
	head -c 100000 kjv.txt > part.txt
	agree -c -k1 LORD kjv.txt part.txt kjv.txt
	run bash -c 'cat kjv.txt | AGREP_GPU_DEVICE_COPIES=3 AGREP_GPU_CHUNK=65536 agrep-gpu -n -k2 mercy'
	assert_success
	assert_output "$(agrep-gpu --device=host -n -k2 mercy kjv.txt)"
}

@test "--device=all is accepted and searches like one device" {
	run agrep-gpu --device=all -c -k1 LORD kjv.txt
	assert_success
	assert_output "$(agrep-gpu --device=host -c -k1 LORD kjv.txt)"
}
