#!/usr/bin/env bash
# bench/mpi.sh: the MPI build with 1..N ranks on this host, a compute-heavy
# search (1,000 patterns, k=1) and a plain one, on the Bible replicated 8
# times.  Needs `make MPI=1 BIN=build/mpi/agrep-gpu` and Open MPI.  Appends
# a Markdown table to $OUT (default bench/results/2core-mpi.md).
set -uo pipefail
export LC_ALL=C OMPI_MCA_btl_vader_single_copy_mechanism=none
cd "$(dirname "$0")/.." || exit 2
M=${AGREP_GPU_MPI:-build/mpi/agrep-gpu}
OUT=${OUT:-bench/results/2core-mpi.md}
D=bench/data
mkdir -p $D
[ -s $D/kjv.txt ] || bible "Gen1:1-Rev22:21" > $D/kjv.txt
[ -s $D/kjv-x8.txt ] || for i in 1 2 3 4 5 6 7 8; do cat $D/kjv.txt; done > $D/kjv-x8.txt
[ -s $D/pat1000.txt ] || bash bench/many.sh >/dev/null 2>&1
P=$D/pat1000.txt
secs() { /usr/bin/time -f %e "$@" 2>&1 >/dev/null | tail -1; }
{
echo "## MPI ranks on one host ($(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), $(date -u +%F), commit $(git rev-parse --short HEAD)"
echo
echo "Bible x8 ($(stat -c %s $D/kjv-x8.txt) bytes); each rank searches its part on POCL (AGREP_GPU_HOST_MAX=0, AGREP_GPU_MPI_MIN=0); wall seconds, median of 3."
echo
echo "| ranks | 1,000 patterns -k1 -c | -k2 -c mercy | lines |"
echo "|---|---|---|---|"
for n in ${MPI_RANKS:-1 2 3}; do
	a=(); b=()
	for r in 1 2 3; do
		a+=("$(secs env AGREP_GPU_HOST_MAX=0 AGREP_GPU_MPI_MIN=0 mpirun --oversubscribe --allow-run-as-root -n $n $M -c -k1 -f $P $D/kjv-x8.txt)")
		b+=("$(secs env AGREP_GPU_HOST_MAX=0 AGREP_GPU_MPI_MIN=0 mpirun --oversubscribe --allow-run-as-root -n $n $M -c -k2 mercy $D/kjv-x8.txt)")
	done
	l=$(AGREP_GPU_HOST_MAX=0 AGREP_GPU_MPI_MIN=0 mpirun --oversubscribe --allow-run-as-root -n $n $M -c -k1 -f $P $D/kjv-x8.txt 2>/dev/null)
	ma=$(printf '%s\n' "${a[@]}" | sort -n | sed -n 2p)
	mb=$(printf '%s\n' "${b[@]}" | sort -n | sed -n 2p)
	echo "| $n | $ma | $mb | $l |"
done
echo
} | tee -a "$OUT"
