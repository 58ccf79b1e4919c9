#!/bin/bash
# tests/qemu.sh (make check-qemu): the host engines as x86-64 CPUs without
# AVX-512 run them.  Under qemu-x86_64 (Debian's qemu-user; its TCG runs
# AVX2 but not AVX-512) the binary sees a Haswell (AVX2) or a Nehalem
# (SSE4.2, no AVX) CPU: it must say so (AGREP_GPU_STATS), pass the host
# engines' bounded-exhaustive check and the suites that exercise the SIMD
# lanes, the filters and the many-pattern filter, on --device=host.  The
# AVX-512 level is the native run's (make check); AGREP_GPU_ISA caps it to
# each lower level there too (tests/isa.bats).
set -eu
cd "$(dirname "$0")/.."
TOP=$PWD
if ! command -v qemu-x86_64 >/dev/null; then
	echo "qemu.sh: no qemu-x86_64 (make deps, or apt-get install qemu-user)" >&2
	exit 1
fi
case $(uname -m) in
x86_64) ;;
*) echo "qemu.sh: not an x86-64 machine: nothing to do"; exit 0 ;;
esac
SUITES=${QEMU_SUITES:-"tests/many.bats tests/edits.bats tests/json.bats tests/filter.bats tests/kjv.bats"}
jobs=
command -v parallel >/dev/null &&
	jobs="--jobs $(nproc) --no-parallelize-within-files"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# (the features TCG lacks are dropped: qemu would warn on stderr)
for cpu in "Nehalem:baseline" "Haswell-noTSX,-pcid,-x2apic,-tsc-deadline,-invpcid:avx2"; do
	model=${cpu%:*} want=${cpu##*:}
	run="$tmp/agrep-gpu-${want}"
	printf '#!/bin/sh\nexec qemu-x86_64 -cpu %s %s "$@"\n' "$model" \
	    "$TOP/agrep-gpu" >"$run"
	chmod +x "$run"
	got=$(printf 'x\n' | AGREP_GPU_STATS=1 "$run" --device=host x 2>&1 >/dev/null |
	    sed -n 's/.*host: .* workers, \([a-z0-9]*\) instruction set.*/\1/p')
	if [ "$got" != "$want" ]; then
		echo "qemu.sh: ${model%%,*}: the host uses '$got', not '$want'" >&2
		exit 1
	fi
	echo "== ${model%%,*}: $want"
	# (the prefix filter's blocks over 128 KB, not 1 MB: minutes under
	# emulation)
	EXH_PP_BLOCKS_KB=128 qemu-x86_64 -cpu "$model" tests/bin/exhaustive -q
	# shellcheck disable=SC2086
	AGREP_GPU="$run" AGREP_GPU_SLOW=1 AGREP_GPU_DEVICE=host bats $jobs $SUITES
done
