# Shared setup for every bats file: the freshly built binary first on PATH,
# deterministic settings, and the bats-assert helpers.
# Every test loads this file anew, so it forks nothing it can avoid: the
# libraries' load.bash files name their parts with a $(dirname) each (15
# forks, 0.1 s a test on the 2-core EPYC: a fifth of make check); their
# parts are sourced here directly, as load.bash lists them.
bats_lib() {
	local dir=$1 line n=0
	while IFS= read -r line; do
		# shellcheck disable=SC2016 # load.bash's own words
		case $line in
		'source "$(dirname "${BASH_SOURCE[0]}")/'*'.bash"')
			line=${line#*)/}
			# shellcheck disable=SC1090
			source "$dir/${line%\"}" && n=$((n + 1)) ;;
		esac
	done < "$dir/load.bash"
	[ "$n" -gt 0 ] || load "$dir/load"
}
bats_lib /usr/lib/bats/bats-support
bats_lib /usr/lib/bats/bats-assert

TOP=${BATS_TEST_DIRNAME%/*}
case $TOP in /*) ;; *) TOP="$(cd "$BATS_TEST_DIRNAME/.." && pwd)" ;; esac
# AGREP_GPU may name another build (e.g. the sanitizer one); default: ./agrep-gpu
AGREP_GPU="${AGREP_GPU:-$TOP/agrep-gpu}"
[ -d "$BATS_RUN_TMPDIR/bin" ] || mkdir -p "$BATS_RUN_TMPDIR/bin"
# AGREP_GPU_LEAKS=N (make check-sanitize-pocl: 4): on the sanitizer build,
# one run in N of a suite file (every N-th, in the order they run) looks
# for leaks, the others run with detect_leaks=0.  LeakSanitizer's walk of
# the heap at exit is most of a run's cost on POCL (LLVM's heap: 0.2-0.3 s
# of 0.5-0.7 on the 2-core EPYC); the runs that skip it are checked by
# ASan and UBSan all the same.
if [ -n "${AGREP_GPU_LEAKS:-}" ]; then
	export AGREP_GPU_LEAKN="$BATS_FILE_TMPDIR/leak-count"
	if [ ! -f "$BATS_RUN_TMPDIR/bin/agrep-gpu" ]; then
		printf '%s\n' '#!/bin/bash' 'n=0' \
		    '[ -r "$AGREP_GPU_LEAKN" ] && read -r n < "$AGREP_GPU_LEAKN"' \
		    '[ -z "$AGREP_GPU_LEAKN" ] || echo $((n + 1)) > "$AGREP_GPU_LEAKN"' \
		    '[ $((n % AGREP_GPU_LEAKS)) = 0 ] ||' \
		    '    export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"' \
		    "exec '$AGREP_GPU' \"\$@\"" > "$BATS_RUN_TMPDIR/bin/.agrep-gpu.$$"
		chmod +x "$BATS_RUN_TMPDIR/bin/.agrep-gpu.$$"
		mv -f "$BATS_RUN_TMPDIR/bin/.agrep-gpu.$$" "$BATS_RUN_TMPDIR/bin/agrep-gpu"
	fi
elif [ ! -L "$BATS_RUN_TMPDIR/bin/agrep-gpu" ]; then
	# (made once a run, and renamed into place: files run side by side)
	ln -sf "$AGREP_GPU" "$BATS_RUN_TMPDIR/bin/.agrep-gpu.$$"
	mv -f "$BATS_RUN_TMPDIR/bin/.agrep-gpu.$$" "$BATS_RUN_TMPDIR/bin/agrep-gpu"
fi
# tests/bin holds the test programs the Makefile builds (oracle, generators).
export PATH="$BATS_RUN_TMPDIR/bin:$TOP/tests/bin:$PATH"
# Tests run in automatic mode (the host, on a machine without a GPU) unless
# they choose otherwise (AGREP_GPU_HOST_MAX=0: the devices) or the run sets
# AGREP_GPU_DEVICE: `make check-pocl` puts every scan on POCL, and on a GPU
# machine AGREP_GPU_DEVICE=gpu every scan on the GPU.  Tests of the
# automatic choice unset it.
export LC_ALL=C
# AGREP_GPU_DEVICE_EXCEPT="SUITE ..." (make check-sanitize-pocl): the
# suites named (file names without .bats) leave AGREP_GPU_DEVICE unset,
# so that their searches choose their device as in make check: the host
# engines' suites, whose device runs name their device themselves.
if [ -n "${AGREP_GPU_DEVICE_EXCEPT:-}" ]; then
	_suite=${BATS_TEST_FILENAME##*/}
	case " $AGREP_GPU_DEVICE_EXCEPT " in
	*" ${_suite%.bats} "*) unset AGREP_GPU_DEVICE ;;
	esac
fi
unset GREP_COLORS NO_COLOR AGREP_GPU_CHUNK AGREP_GPU_SLICE AGREP_GPU_HOST_MAX
# depth QUICK FULL: the default of a suite's random-case knob: QUICK for
# `make check` (a contributor's run, minutes), FULL when AGREP_GPU_TESTS=full
# (`make check-full`: every seed the suites had before they were trimmed).
# depth QUICK FULL SLOW: SLOW on a slow build (below), when the suite is not
# run whole.
depth() {
	if [ "${AGREP_GPU_TESTS:-quick}" = full ]; then echo "$2"
	elif [ $# -gt 2 ] && slow_build; then echo "$3"
	else echo "$1"; fi
}
# slow_build: whether agrep-gpu is a build that runs 3-10x slower than the
# plain one: ASan/UBSan or TSan (make check-sanitize-pocl, check-tsan), or
# an emulated CPU (tests/qemu.sh sets AGREP_GPU_SLOW).  CI runs the suites
# on all three: the heaviest random-case loops take a sample there (CI's
# 35 minutes), and run whole in make check and check-full.
slow_build() {
	[ -n "${AGREP_GPU_SLOW:-}" ] && return 0
	case $AGREP_GPU in */san/*|*/tsan/*) return 0 ;; esac
	return 1
}
