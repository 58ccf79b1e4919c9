#!/bin/bash
# tests/aarch64.sh (make check-aarch64): the 64-bit Arm build (issue 19).
# Builds build/aarch64/agrep-gpu and the host engines' bounded-exhaustive
# check with Debian's cross compiler (make cross-aarch64: warnings are
# errors), runs the check (-q) under qemu-aarch64, then a set of host-engine
# searches both under qemu-aarch64 and natively: standard output, standard
# error and exit status must be the same, byte for byte.  On Arm the engines
# take their portable paths (the generic SIMD lanes become NEON), so this
# compares them with the x86-64 build's.
#
# Every search runs with -j1 --device=host: Debian's qemu-user 7.2 hangs on
# any program that starts a second thread, so nothing here may start one.
# -j1 runs the jobs on the calling thread, --device=host opens no OpenCL
# (nor the thread that opens it), and every input is below the 8 MiB from
# which a -j1 search reads a file with several threads (input.c, PAR_MIN).
# Where strace is installed the native runs are traced to prove that no
# thread was started; every qemu run is under timeout, so a hang fails the
# check instead of stalling it.
#
# Needs gcc-aarch64-linux-gnu, libc6-dev-arm64-cross and qemu-user (make
# deps); bible-kjv for the text (else the repository's own files stand in).
# About a minute on the 2-core development machine.
set -eu
cd "$(dirname "$0")/.."
TOP=$PWD
SYSROOT=${AARCH64_SYSROOT:-/usr/aarch64-linux-gnu}
QEMU_TIMEOUT=${QEMU_TIMEOUT:-60}

for tool in aarch64-linux-gnu-gcc qemu-aarch64; do
	if ! command -v "$tool" >/dev/null; then
		echo "aarch64.sh: no $tool (make deps, or apt-get install" \
		    "gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user)" >&2
		exit 1
	fi
done
if [ ! -e "$SYSROOT/lib/ld-linux-aarch64.so.1" ]; then
	echo "aarch64.sh: no aarch64 libc in $SYSROOT (apt-get install" \
	    "libc6-arm64-cross)" >&2
	exit 1
fi

make -s agrep-gpu test-progs
make -s cross-aarch64
file build/aarch64/agrep-gpu | grep -q 'ARM aarch64' || {
	echo "aarch64.sh: build/aarch64/agrep-gpu is not an aarch64 binary" >&2
	exit 1
}

export LC_ALL=C
unset GREP_COLORS GREP_COLOR NO_COLOR AGREP_GPU_CHUNK AGREP_GPU_SLICE \
    AGREP_GPU_HOST_MAX AGREP_GPU_HOST_ENGINE AGREP_GPU_STATS \
    AGREP_GPU_LANES AGREP_GPU_PAIR AGREP_GPU_KERNEL AGREP_GPU_ISA \
    AGREP_GPU_DEVICE_COPIES AGREP_GPU_OPENCL_LIB
export AGREP_GPU_DEVICE=host

qrun() {	# qrun PROGRAM ARGS...: an aarch64 program under qemu, bounded
	timeout "$QEMU_TIMEOUT" qemu-aarch64 -L "$SYSROOT" "$@"
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The host engines' bounded-exhaustive check (the portable engines only).
echo "== exhaustive -q under qemu-aarch64"
rc=0
qrun build/aarch64/exhaustive -q || rc=$?
if [ "$rc" != 0 ]; then
	[ "$rc" = 124 ] && echo "aarch64.sh: exhaustive hung under qemu" >&2
	echo "aarch64.sh: FAIL: exhaustive -q under qemu-aarch64 (exit $rc)" >&2
	exit 1
fi

# The expression automaton against its oracle, every range on the lanes
# (src/regex/relanes.c: NEON's table lookups).
echo "== reexh -q under qemu-aarch64, lanes everywhere"
rc=0
AGREP_GPU_RE_LANES_MIN=0 qrun build/aarch64/reexh -q -r 300 >"$tmp/reexh" || rc=$?
tail -1 "$tmp/reexh"
if [ "$rc" != 0 ] || ! tail -1 "$tmp/reexh" | grep -q ', 0 failures$'; then
	grep FAIL "$tmp/reexh" | head -5 >&2
	echo "aarch64.sh: FAIL: reexh under qemu-aarch64 (exit $rc)" >&2
	exit 1
fi

# Both binaries are run from the inputs' directory as "agrep-gpu", so that
# file names and messages read the same.
mkdir "$tmp/in" "$tmp/x86" "$tmp/arm"
ln -s "$TOP/agrep-gpu" "$tmp/x86/agrep-gpu"
ln -s "$TOP/build/aarch64/agrep-gpu" "$tmp/arm/agrep-gpu"
cd "$tmp/in"

# The texts: the Pentateuch (845 KB), random texts and patterns from the
# property tests' generators (every byte value, CRLF, long lines, planted
# near matches; -l: patterns of 65-1,200 bytes), and random UTF-8.
if command -v bible >/dev/null; then
	bible "Gen1:1-Deu34:12" >kjv
else
	cat "$TOP"/man/agrep-gpu.1 "$TOP"/README "$TOP"/src/*/*.c >kjv
fi
printf 'In the beginning God created the heaven and the earth.\n' >>kjv
for s in 1 2 3 4 5 6; do
	"$TOP"/tests/bin/randgen "$s" "r$s" "rp$s" | cut -d' ' -f1 >"rk$s"
done
for s in 1 2 3; do
	"$TOP"/tests/bin/randgen -l "$s" "l$s" "lp$s" | cut -d' ' -f1 >"lk$s"
done
for s in 1 2; do
	"$TOP"/tests/bin/u8gen "$s" "u$s" "up$s" >"uk$s"
done
cat >u8 <<'EOF'
Größe und Maß: Straße, STRASSE, straße.
Привет, мир! ПРИВЕТ, МИР! привет
Ελληνικά: σοφία, ΣΟΦΙΑ, σοφίας
naïve café, NAÏVE CAFÉ, naive cafe
€100 and 〇 and 😀 and K (Kelvin) and ſ
EOF
# 40 words of 2-14 bytes: the many-pattern filter (multi.c)
cat >words <<'EOF'
LORD
Moses
Aaron
Egypt
Pharaoh
tabernacle
wilderness
congregation
firstborn
covenant
Abraham
Isaac
Jacob
Joseph
Canaan
Israel
offering
altar
priest
blood
sabbath
commandment
inheritance
mountain
Jordan
Sinai
brethren
daughter
cattle
famine
blessing
garment
sanctuary
judgment
statutes
ox
fat
bread
Levites
Amorites
EOF
cat >phrases <<'EOF'
the children of Israel
And the LORD spake unto Moses, saying
land of Egypt
burnt offering
the tabernacle of the congregation
the firstborn of Egypt
EOF

P65='the deep. And the Spirit of God moved upon the face of the waters.'
P64='And God said, Let there be light: and there was light. And God s'
P100="$P65 And God said, Let there be light: and ther"
n=0 failed=0
check() {	# check ARGS...: the same output and status here and on Arm
	n=$((n + 1))
	local rcx=0 rca=0
	if command -v strace >/dev/null; then
		strace -f -qq -e trace=clone,clone3,fork,vfork -o "$tmp/trace" \
		    "$tmp/x86/agrep-gpu" -j1 --device=host "$@" \
		    >"$tmp/x86.out" 2>"$tmp/x86.err" || rcx=$?
		if grep -q . "$tmp/trace"; then
			echo "FAIL: -j1 started a thread: agrep-gpu $*" >&2
			cat "$tmp/trace" >&2
			failed=$((failed + 1))
			return
		fi
	else
		"$tmp/x86/agrep-gpu" -j1 --device=host "$@" \
		    >"$tmp/x86.out" 2>"$tmp/x86.err" || rcx=$?
	fi
	local t0=$SECONDS
	qrun "$tmp/arm/agrep-gpu" -j1 --device=host "$@" \
	    >"$tmp/arm.out" 2>"$tmp/arm.err" || rca=$?
	[ -z "${AARCH64_TIMES:-}" ] || echo "$((SECONDS - t0)) s: $*"
	case " $* " in
	*" --json "*)	# the elapsed times differ, of course
		sed -i -E 's/"(secs|nanos)":[0-9]+/"\1":0/g
		    s/"human":"[0-9.]+s"/"human":"0s"/g' \
		    "$tmp/x86.out" "$tmp/arm.out" ;;
	esac
	if [ "$rca" = 124 ]; then
		echo "FAIL: hung under qemu (a second thread?): agrep-gpu $*" >&2
		failed=$((failed + 1))
	elif [ "$rcx" != "$rca" ] ||
	    ! cmp -s "$tmp/x86.out" "$tmp/arm.out" ||
	    ! cmp -s "$tmp/x86.err" "$tmp/arm.err"; then
		echo "FAIL: agrep-gpu -j1 --device=host $*" >&2
		echo "  exit status: x86-64 $rcx, aarch64 $rca" >&2
		diff "$tmp/x86.out" "$tmp/arm.out" | head -20 >&2 || true
		diff "$tmp/x86.err" "$tmp/arm.err" | head -10 >&2 || true
		failed=$((failed + 1))
	fi
}

echo "== host-engine searches: aarch64 (qemu) against x86-64"
# one pattern: exact (memmem), the filters, Myers in one word, the SIMD
# lanes; 1 to 64 bytes, then 65+ (several words: scalar blocks)
check -c LORD kjv
check -n -k1 LORD kjv
check -c -k2 Q kjv
check -c -k1 ab kjv
check -n -k2 'the LORD thy God' kjv
check -c -i -k1 abraham kjv
check -n -w -k1 lord kjv
check -n -x -k3 'In the beginning God created the heaven and the earth.' kjv
check -o -b -k1 Jerusalem kjv
check -c -v -k2 the kjv
check -n -k3 firmament kjv
check -C1 -n -k2 Methuselah kjv
check -c -k4 'wilderness of Sinai' kjv
check -n -k3 "$P64" kjv
check -n -k4 "$P65" kjv
check -n -o -k4 "$P65" kjv
check -c -k20 "$P100" kjv
check -n -i -w -k2 "$P100" kjv
check -m3 -H -n -k1 Egypt kjv
check --show-cost -n -k2 firmament kjv
check --best-match -k3 firmamant kjv
check --show-edits -o -k2 Pharoah kjv
check --json -k1 Eden kjv
# several patterns (lanes), 12+ (the many-pattern filter), -w/-x/-i/-o
check -n -k1 -e Moses -e Aaron -e Miriam kjv
check -c -k0 -f words kjv
check -n -k1 -f words kjv
check -c -i -w -k2 -f words kjv
check -o -n -k1 -f words kjv
check -c -v -k1 -f words kjv
check -n -k3 -f phrases kjv
check -c -x -k4 -f phrases kjv
check --show-cost -n -k2 -f words kjv
check --json -m100 -k1 -f words kjv
# expressions: the prefilter's pieces (a sample's choice, groups, spans,
# find_piece's vectors), anchored windows, assertions
check -c -E -k1 'mercy.*ever' kjv
check -n -E -k2 "(Abraham|Isaac|Jacob)'s (son|daughter|wife)s?" kjv
check -c -E -k1 'And (he|she|they) (said|spake) unto (him|her|them)' kjv
check -c -E -k1 '(^And|LORD\.$)' kjv
check -c -i -E -k1 'the (lord|LORD)+ god' kjv
check -c -E -k2 'j[aeiou]*b' kjv
check -n -E -k1 '\<se(r|v)+ants?\>' kjv
# random texts and patterns, short and long
for s in 1 2 3 4 5 6; do
	k=$(cat "rk$s")
	check -n -k "$k" -f "rp$s" "r$s"
	check -c -i -k "$k" -f "rp$s" "r$s"
done
check -o -b -k "$(cat rk1)" -f rp1 r1
check -w -n -k "$(cat rk2)" -f rp2 r2
for s in 1 2 3; do
	check -n -k "$(cat "lk$s")" -f "lp$s" "l$s"
done
# UTF-8: characters as the unit of an error, Unicode case folding
for s in 1 2; do
	k=$(cat "uk$s")
	check --utf8 -n -k "$k" -f "up$s" "u$s"
	check --utf8 -c -i -k "$k" -f "up$s" "u$s"
done
check --utf8 -n -i -k1 'grösse' u8
check --utf8 -n -i -k1 'привет' u8
check --utf8 -o -i -k1 'ΣΟΦΊΑ' u8
check --utf8 -n -k1 --show-edits 'naive' u8
check --bytes -n -k2 'cafe' u8
LC_ALL=C.UTF-8 check -n -i -k1 'STRASSE' u8

if [ "$failed" != 0 ]; then
	echo "aarch64.sh: FAIL: $failed of $n searches differ on aarch64" >&2
	exit 1
fi
echo "aarch64.sh: $n searches, the same on aarch64 (qemu) and x86-64"
