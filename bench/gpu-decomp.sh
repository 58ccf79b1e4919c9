#!/bin/bash
# bench/gpu-decomp.sh: --decompress on the GPU machine (issue 37's targets),
# run ON it from the project root after
#   bash .devdeps/opencl-setup.sh && source .devdeps/dz-setup.sh &&
#   CFLAGS="-O2 -g $DZ_CFLAGS" LDFLAGS="$DZ_LDFLAGS" make -j16 agrep-gpu
# (.devdeps/dz-setup.sh, written by bench/gpu-dz-fetch.sh on the
# development machine: the decompression libraries and compressors
# unpacked into /tmp/dz).  Inputs from bench/gpu-data.sh: 1 GiB of 150-base
# reads in /dev/shm, 1,000 primers.  Prints, each the best of RUNS:
#  - the decoding rate: --decompress -c of a string that never occurs (the
#    exact search costs next to nothing), -j1 against -jN, for BGZF
#    (bgzip -@N), multi-frame zstd (pzstd -p N), gzip (igzip -T N: one stream)
#    beside igzip -dc | agrep-gpu and bgzip -dc | wc -c;
#  - 1,000 primers -k4 -c over the reads: the plain file against the
#    BGZF and zstd ones (default plan: host and GPU).
set -u
. bench/gpu-data.sh
N=$(nproc)
RUNS=${RUNS:-3}
R=/dev/shm/reads1g
A=./agrep-gpu
[ -s $R.bgz ] || bgzip -@ "$N" -c $R > $R.bgz
[ -s $R.zst ] || pzstd -q -p "$N" -c $R > $R.zst
[ -s $R.gz ] || igzip -1 -T "$N" -c $R > $R.gz || gzip -1 -c $R > $R.gz

# best CMD...: the best wall time of RUNS runs, output to a file
best() {
	local b="" t0 t
	for ((i = 0; i < RUNS; i++)); do
		t0=$EPOCHREALTIME
		eval "$@" > /tmp/gpu-decomp.out 2>&1
		t=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.3f", b - a }')
		[ -z "$b" ] && b=$t
		b=$(awk -v a="$b" -v c="$t" 'BEGIN { print (c < a ? c : a) }')
	done
	echo "$b"
}

echo "## --decompress on $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1), $N cores ($(lscpu | sed -n 's/^Model name: *//p')), $(date -u '+%F %H:%M UTC'), commit $(git rev-parse --short HEAD 2>/dev/null)"
echo
echo "Inputs: $R $(stat -c %s $R) bytes; .bgz $(stat -c %s $R.bgz), .zst (pzstd) $(stat -c %s $R.zst), .gz (igzip) $(stat -c %s $R.gz); best of $RUNS, seconds"
echo
echo "| input | -j1 | -j$N | ratio | reference |"
echo "|---|---|---|---|---|"
for f in bgz zst gz; do
	j1=$(best "$A -j1 --device=host --decompress -c ZZZZZZZZZZ $R.$f")
	jn=$(best "$A -j$N --device=host --decompress -c ZZZZZZZZZZ $R.$f")
	case $f in
	bgz) ref="bgzip -dc -@1 \| wc -c: $(best "bgzip -dc -@1 $R.bgz | wc -c")" ;;
	zst) ref="zstd -dc \| wc -c: $(best "zstd -dc $R.zst | wc -c")" ;;
	gz) ref="igzip -dc \| agrep-gpu: $(best "igzip -dc $R.gz | $A -c ZZZZZZZZZZ")" ;;
	esac
	echo "| $f | $j1 | $jn | $(awk -v a="$j1" -v b="$jn" 'BEGIN { printf "%.1f", a / b }') | $ref |"
done
echo
echo "1,000 primers -k4 -c, default plan:"
echo
echo "| input | seconds | count |"
echo "|---|---|---|"
for f in "" .bgz .zst; do
	t=$(best "$A --decompress -c -k4 -f /tmp/pr1000 $R$f")
	echo "| reads1g$f | $t | $(cat /tmp/gpu-decomp.out) |"
done
