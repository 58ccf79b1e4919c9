#!/usr/bin/env bash
# shellcheck disable=SC2016 # the sample's commands are single-quoted on purpose
# tests/valgrind.sh: run a sample of agrep-gpu invocations under valgrind's
# memcheck and fail if any of them reports a memory error or a definite leak.
#
#   tests/valgrind.sh            (from the top of the tree, after make)
#   AGREP_GPU=path/to/binary tests/valgrind.sh
#   VALGRIND_KEEP=1 tests/valgrind.sh   keep the logs (the directory is printed)
#
# The sample covers the host matcher, the OpenCL path on POCL (with
# AGREP_GPU_HOST_MAX=0), tiny chunks, -o/--color, context, a pattern longer
# than 64 bytes (the blocks kernel), standard input (redirected and piped),
# recursion, and the error paths (missing file, no OpenCL platform, kernel
# build failure, buffer allocation failure).  Each run's standard output and
# exit status must also equal those of the same command without valgrind.
#
# POCL's own noise is suppressed with tests/valgrind.supp (each entry says
# why).  Under valgrind the CPU looks different to LLVM (no AVX-512: POCL's
# device is pthread-haswell), so each kernel variant would be compiled again
# for that CPU, under valgrind: 300-400 s a variant on the 2-core EPYC, 90%
# of this pass.  Where qemu-x86_64 -cpu Haswell shows the same device, each
# check that may use OpenCL runs under qemu first (a compile there: 45 s),
# which fills agrep-gpu's program cache (~/.cache/agrep-gpu) with the
# kernels the run under valgrind then loads.
#
# Exit status: 0 if every run was clean, 1 otherwise.

set -u
export LC_ALL=C
unset GREP_COLORS NO_COLOR AGREP_GPU_CHUNK AGREP_GPU_SLICE AGREP_GPU_HOST_MAX \
    AGREP_GPU_KERNEL AGREP_GPU_STATS
export AGREP_GPU_DEVICE=${AGREP_GPU_DEVICE:-cpu}

top=$(cd "$(dirname "$0")/.." && pwd)
bin=${AGREP_GPU:-$top/agrep-gpu}
supp=$top/tests/valgrind.supp
[ -x "$bin" ] || { echo "valgrind.sh: $bin not built (make)" >&2; exit 1; }
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")	# we cd below
command -v valgrind > /dev/null || { echo "valgrind.sh: no valgrind" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/agrep-vg.XXXXXX")
if [ -n "${VALGRIND_KEEP:-}" ]; then
	echo "valgrind.sh: logs in $work"
else
	trap 'rm -rf "$work"' EXIT
fi
cd "$work" || exit 1

# --- inputs ---------------------------------------------------------------
# text: ~600 lines of varied length, with "needle" exactly and with edits,
# some CRLF lines, some lines longer than the tiny chunks used below, and
# no final newline.  Deterministic.
awk 'function rnd(n) { s = (s * 69069 + 1) % 4294967296; return int(s / 65536) % n }
BEGIN {
	s = 7
	split("needle neXdle needdle nedle NEEDLE nXXdle", v, " ")
	alpha = "abcdefghijklmopqrstuvwxyz ,."
	for (i = 1; i <= 600; i++) {
		n = rnd(10) == 0 ? 300 + rnd(700) : rnd(80)
		line = ""
		for (j = 0; j < n; j++)
			line = line substr(alpha, rnd(length(alpha)) + 1, 1)
		if (rnd(3) == 0) {
			p = rnd(n + 1)
			line = substr(line, 1, p) v[rnd(6) + 1] substr(line, p + 1)
		}
		if (i == 300)
			line = line "the quick brown fox jumps over the lazy dog and then runs far away, twice"
		if (rnd(9) == 0)
			line = line "\r"
		printf "%s%s", (i > 1 ? "\n" : ""), line
	}
}' > text
printf 'abc\nx\0y\nabcd\n' > bin
mkdir -p tree/sub
printf 'needle\nnope\n' > tree/a
printf 'neXdle\n' > tree/sub/b
printf 'nothing\n' > tree/sub/c
mkdir novendors
echo '__kernel void broken( { this is not OpenCL' > bad.cl
export LONGPAT='the quick brown fox jumps over the lazy dog and then runs far away!'

# --- runner ---------------------------------------------------------------
# check NAME COMMAND: COMMAND is run by bash, once with $AG the plain binary
# (the reference) and once with $AG the binary under valgrind; stdout and
# exit status must agree and valgrind must report nothing.
# summarize LOG: each distinct error of a valgrind log (its kind and first
# four frames, with a count), the leak summary and the error summary
summarize() {
	awk '
	(/^==[0-9]+== [A-Z][a-z]/ && !/ERROR SUMMARY|LEAK SUMMARY|HEAP SUMMARY|Memcheck|Copyright|Using Valgrind|Command:|Parent PID|Thread [0-9]+:|Reachable|To see|For lists|Use --track|Warning:|More than|Rerun with|Final error|Valgrind, because/) ||
	    /definitely lost in loss record/ {
		if (key != "") n[key]++
		key = $0; sub(/^==[0-9]+== /, "", key); depth = 0; next
	}
	/^==[0-9]+== +(at|by) / && key != "" && depth < 4 {
		f = $0; sub(/^==[0-9]+== +(at|by) 0x[0-9A-F]+: /, "", f)
		key = key "\n         " f; depth++; next
	}
	/ERROR SUMMARY|definitely lost:/ { s = s "\n     " $0 }
	END {
		if (key != "") n[key]++
		shown = 0
		for (k in n) if (shown++ < 12) printf "     (%dx) %s\n", n[k], k
		print s
	}' "$1" | sed 's/==[0-9]*== //'
}

n=0 nfail=0
# warm: the command that fills the program cache for valgrind's CPU, or
# nothing (no qemu, or another device under it than under valgrind)
warm=
if command -v qemu-x86_64 > /dev/null; then
	dv=$(valgrind -q "$bin" --list-devices 2> /dev/null | grep '^0:')
	dq=$(qemu-x86_64 -cpu Haswell "$bin" --list-devices 2> /dev/null | grep '^0:')
	if [ -n "$dv" ] && [ "$dv" = "$dq" ]; then
		warm="qemu-x86_64 -cpu Haswell"
	else
		echo "valgrind.sh: no qemu device like valgrind's ($dv; $dq): kernels compile under valgrind"
	fi
fi
# (--child-silent-after-fork: POCL forks to run the linker when it compiles
# a kernel; the child execs at once and has nothing to report)
VG="valgrind --error-exitcode=3 --leak-check=full --errors-for-leak-kinds=definite
    --show-leak-kinds=definite --num-callers=40 --child-silent-after-fork=yes
    --suppressions=$supp"

# bad_logs NAME: the valgrind logs of a check that report an error, or that
# lack the final summary (a crash of valgrind or of the program)
bad_logs() {
	local f
	for f in "$1".vg.*; do
		[ -s "$f" ] || continue
		grep -q 'ERROR SUMMARY: 0 errors' "$f" || echo "$f"
	done
}
check() {
	local name=$1 cmd=$2 want_rc got_rc t0 t1
	n=$((n + 1))
	AG="$bin" bash -c "$cmd" > "$name.want" 2> "$name.want.err"
	want_rc=$?
	t0=$(date +%s)
	case $cmd in
	*--device=host*) ;;
	*) [ -z "$warm" ] || AG="$warm $bin" bash -c "$cmd" > /dev/null 2>&1 ;;
	esac
	AG="$VG --log-file=$work/$name.vg.%p $bin" bash -c "$cmd" \
	    > "$name.got" 2> "$name.got.err"
	got_rc=$?
	t1=$(date +%s)
	local bad=""
	[ "$got_rc" != 3 ] || bad="valgrind reported errors"
	# a run in a pipeline does not give its status: read the logs too
	ls "$name".vg.* > /dev/null 2>&1 || bad="no valgrind log"
	[ -z "$(bad_logs "$name")" ] || bad="valgrind reported errors"
	[ -n "$bad" ] || [ "$got_rc" = "$want_rc" ] ||
	    bad="exit status $got_rc under valgrind, $want_rc without"
	[ -n "$bad" ] || cmp -s "$name.want" "$name.got" ||
	    bad="standard output differs under valgrind"
	if [ -n "$bad" ]; then
		nfail=$((nfail + 1))
		printf 'FAIL %-22s %3ss  %s\n     %s\n' "$name" $((t1 - t0)) "$bad" "$cmd"
		local f
		for f in $(bad_logs "$name"); do
			summarize "$f"
		done
	else
		printf 'ok   %-22s %3ss  exit %s\n' "$name" $((t1 - t0)) "$got_rc"
	fi
}

# --- the sample -----------------------------------------------------------
T0=$(date +%s)
# host matcher
check host-k1          '$AG --device=host -n -b -k1 needle text bin'
check host-exact       '$AG -c needle text'
check host-icase-v     '$AG --device=host -i -v -c -k2 needle text'
check host-o-color     '$AG --device=host -o --color=always -n -k1 needle text'
check host-context     '$AG --device=host -C 2 -n -k1 needle text'
check host-long        '$AG --device=host -k3 "$LONGPAT" text'
check host-cost-best   '$AG --device=host --show-cost -k2 needle text && $AG --device=host --best-match -k2 -w needle text'
check host-stdin-pipe  'cat text | $AG --device=host -k1 -w -n needle'
check host-recursive   '$AG -r -c -k1 needle tree'
check host-z-a         'tr "\n" "\0" < text | $AG --device=host -z -k1 needle | tr "\0" "\n"; $AG -a -k1 xy bin'
check missing-file     '$AG -k1 needle nosuch text'
# OpenCL on POCL: each run costs POCL's start under valgrind (about 20 s),
# so a few runs cover the device paths (chunks, slices, the blocks kernel,
# standard input, several patterns); the output paths are the host's, above,
# and the whole suite runs on POCL under ASan/UBSan (make check-sanitize).
export AGREP_GPU_HOST_MAX=0
check ocl-tiny-chunks  'AGREP_GPU_CHUNK=100 AGREP_GPU_SLICE=64 $AG -n -b -k2 needle text bin'
check ocl-stdin-pipe   'cat text | AGREP_GPU_CHUNK=4096 $AG -i -k1 -n -C1 needle'
check ocl-several-pats '$AG -o -k1 -e needle -e fox -e "$LONGPAT" text'
check ocl-no-platform  'OCL_ICD_VENDORS=$PWD/novendors $AG -k1 needle text'
check ocl-kernel-fails 'AGREP_GPU_KERNEL=$PWD/bad.cl $AG -k1 needle text'
check ocl-buffer-fails 'AGREP_GPU_CHUNK=4294967296 $AG -k1 needle text'
T1=$(date +%s)

echo "valgrind.sh: $n runs, $nfail failed, $((T1 - T0)) s"
[ "$nfail" = 0 ]
