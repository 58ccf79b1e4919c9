#!/bin/bash
# Records counted on the device (count_records, issue 22) and every GPU at
# once (issue 25): run ON the GPU machine from the project root with
# .devdeps and .devdata carried (see ../shared/device/README.md), after
# opencl-setup.sh and make.  Prints, for 8.6 GB of Bible (-c -k2 mercy) and
# the many-pattern cases, the GPUs alone with the host counting records from
# the bitmaps (AGREP_GPU_COUNTS=0) and with the devices counting them, over
# slots per device, on the first GPU and on every GPU (--device=gpu); then
# the default plan and the host.  Each line: the case, wall seconds, and the
# tool's own plan/kernel figures.  SECTIONS="check mercy many mix" picks
# parts; SLOTS="8 16" the slots a device tried.
set -u
B=$PWD/agrep-gpu
. bench/gpu-data.sh
want() { case " ${SECTIONS:-all} " in *" all "*|*" $1 "*) return 0;; esac; return 1; }
tm() { local l="$1"; shift; timeout "${TM_LIMIT:-120}" /usr/bin/time -f "$l: wall %e s" "$@"; }
figs() { grep -E 'wall|from ready|plan: device [0-9]:|plan: host:|^[0-9]+$' | grep -v 'open in'; }
g1=$($B --list-devices | grep -m1 -i '(gpu' | cut -d: -f1)
ngpu=$($B --list-devices | grep -c '(gpu')
echo "GPUs: $ngpu, the first: device $g1; $(nproc) cores"
AGREP_GPU_HOST_MAX=0 $B --device=gpu -c -k2 mercy $K >/dev/null   # program cache
if want check; then
	echo "== the same counts every way (GPU forced, 1 GiB)"
	for a in "-c -k2 mercy" "-c -v -k2 mercy" "-c -k1 -i LORD" "-l -k3 righteousness"; do
		# shellcheck disable=SC2086
		h=$($B --device=host $a $G1)
		for d in $g1 gpu; do
			for c in 0 1; do
				# shellcheck disable=SC2086
				r=$(AGREP_GPU_COUNTS=$c AGREP_GPU_HOST_MAX=0 $B --device=$d $a $G1)
				[ "$r" = "$h" ] && echo "ok: $a --device=$d counts=$c" ||
				    echo "DIFFER: $a --device=$d counts=$c: $r, host $h"
			done
		done
	done
fi
if want mercy; then
	echo "== GPU alone, 8.6 GB -c -k2 mercy: host counting (0) or device (1)"
	for d in $g1 gpu; do
		for sl in ${SLOTS:-8 16 32}; do
			for c in 0 1; do
				AGREP_GPU_COUNTS=$c AGREP_GPU_SLOTS=$sl AGREP_GPU_STATS=1 AGREP_GPU_HOST_MAX=0 \
				    tm "--device=$d slots=$sl counts=$c" $B --device=$d -c -k2 mercy $G8 2>&1 | figs
			done
		done
	done
	AGREP_GPU_STATS=1 tm "default" $B -c -k2 mercy $G8 2>&1 | figs
	tm "--device=host" $B --device=host -c -k2 mercy $G8
fi
if want many; then
	echo "== many patterns: the first GPU against every GPU (GPU alone)"
	for d in $g1 gpu; do
		AGREP_GPU_STATS=1 AGREP_GPU_HOST_MAX=0 tm "--device=$d 1 GiB -c -k2 -f 200 words" $B --device=$d -c -k2 -f /tmp/p200 $G1 2>&1 | figs
		LC_ALL=C AGREP_GPU_STATS=1 AGREP_GPU_HOST_MAX=0 tm "--device=$d 1 GiB reads -c -k4 -f 1,000 primers" $B --device=$d -c -k4 -f /tmp/pr1000 /dev/shm/reads1g 2>&1 | figs
	done
	AGREP_GPU_STATS=1 tm "default 1 GiB -c -k2 -f 200 words" $B -c -k2 -f /tmp/p200 $G1 2>&1 | figs
	LC_ALL=C AGREP_GPU_STATS=1 tm "default 1 GiB reads -c -k4 -f 1,000 primers" $B -c -k4 -f /tmp/pr1000 /dev/shm/reads1g 2>&1 | figs
fi
if want mix; then
	echo "== default plan against the host, three runs each"
	for i in 1 2 3; do
		AGREP_GPU_STATS=1 tm "default -c -k8 57-byte phrase" $B -c -k8 'and God saw the light, that it was good: and God divided' $G8 2>&1 | figs
		tm "--device=host -c -k8 57-byte phrase" $B --device=host -c -k8 'and God saw the light, that it was good: and God divided' $G8
		tm "default -c -k2 mercy" $B -c -k2 mercy $G8
		tm "--device=host -c -k2 mercy" $B --device=host -c -k2 mercy $G8
	done
fi
