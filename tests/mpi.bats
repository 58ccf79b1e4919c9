#!/usr/bin/env bats
# The MPI build (make MPI=1): mpirun -n 3 gives exactly the output and exit
# status of one process, for a matrix of options, on POCL.
load test_helper
bats_require_minimum_version 1.5.0

setup_file() {
	export MPI_BIN="${AGREP_GPU_MPI:-$TOP/build/mpi/agrep-gpu}"
	[ -x "$MPI_BIN" ] || return 0
	bible "Gen1:1-Rev22:21" > "$BATS_FILE_TMPDIR/kjv.txt"
	printf 'LORD\nmercy\nabc\n' > "$BATS_FILE_TMPDIR/small.txt"
	printf 'Lord\nlord\nx\n' > "$BATS_FILE_TMPDIR/pats.txt"
}

setup() {
	[ -x "$MPI_BIN" ] || skip "no MPI build (make MPI=1 BIN=build/mpi/agrep-gpu)"
	command -v mpirun >/dev/null || skip "no mpirun (openmpi-bin)"
	# Spread every file over the ranks, small ones too.
	export AGREP_GPU_MPI_MIN=0
	export OMPI_MCA_btl_vader_single_copy_mechanism=none
	export OMPI_MCA_rmaps_base_oversubscribe=1
	cd "$BATS_FILE_TMPDIR"
}

mpi3() {
	timeout 120 mpirun --oversubscribe --allow-run-as-root -n 3 "$MPI_BIN" "$@"
}

# Runs the MPI build and one process with the same arguments and asserts
# the same stdout and exit status.
same_as_one() {
	run --separate-stderr agrep-gpu "$@"
	local want="$output" want_rc="$status"
	run --separate-stderr mpi3 "$@"
	assert_equal "$status" "$want_rc"
	assert_equal "$output" "$want"
}

@test "mpirun -n 3 prints what one process prints, option by option" {
	same_as_one -k1 LORD kjv.txt
	same_as_one -n -k2 mercy kjv.txt
	same_as_one -c -k1 LORD kjv.txt
	same_as_one -b -n -k2 endureth kjv.txt
	same_as_one -v -c -k1 the kjv.txt
	same_as_one -C2 -n -k2 'for his mercy endureth for ever' kjv.txt
	same_as_one -A1 -B3 -k1 righteousness kjv.txt
	same_as_one -o -i -k1 lord kjv.txt
	same_as_one -w -x -k3 'In the beginning God created the heaven and the earth.' kjv.txt
	same_as_one --show-cost -n -k2 endureth kjv.txt
	same_as_one -m 5 -n -k1 LORD kjv.txt
	same_as_one -k1 -f pats.txt kjv.txt
}

@test "several files, -l, -L, -H and -c keep their order and names" {
	same_as_one -l -k1 LORD kjv.txt small.txt kjv.txt
	same_as_one -L -k1 zzzzzz kjv.txt small.txt
	same_as_one -c -k2 mercy small.txt kjv.txt
	same_as_one -H -n -k1 abd small.txt
}

@test "tiny chunks and slices on every rank give the same output" {
	export AGREP_GPU_CHUNK=4096 AGREP_GPU_SLICE=64 AGREP_GPU_HOST_MAX=0
	same_as_one -n -k2 mercy kjv.txt
	same_as_one -c -k3 righteousness kjv.txt
}

@test "no line selected gives exit 1 under mpirun too" {
	run --separate-stderr mpi3 -k0 zzzzqqqq kjv.txt
	assert_equal "$status" 1
	assert_output ""
}

@test "standard input is searched by rank 0" {
	run bash -c "cat kjv.txt | timeout 120 mpirun --oversubscribe --allow-run-as-root -n 3 '$MPI_BIN' -c -k1 LORD"
	assert_success
	assert_output "$(agrep-gpu -c -k1 LORD kjv.txt)"
}

@test "a rank that fails is reported, its part searched by rank 0, exit 2, no hang" {
	export AGREP_GPU_MPI_FAIL_RANK=1
	run --separate-stderr mpi3 -c -k1 LORD kjv.txt
	assert_equal "$status" 2
	assert_output "$(agrep-gpu -c -k1 LORD kjv.txt)"
	[[ "$stderr" == *"rank 1 failed"* ]]
}

@test "a missing file among others: message, the rest searched, exit 2" {
	run --separate-stderr mpi3 -c -k1 LORD kjv.txt nonexistent small.txt
	assert_equal "$status" 2
	assert_line -n 0 "kjv.txt:$(agrep-gpu -c -k1 LORD kjv.txt)"
	assert_line -n 1 "small.txt:1"
	[[ "$stderr" == *"nonexistent"* ]]
}
