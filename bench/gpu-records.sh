#!/bin/bash
# bench/gpu-records.sh: sequence records, both strands and the hit table on
# the GPU machine (issue 38's targets), run ON it from the project root
# after
#   bash .devdeps/opencl-setup.sh && source .devdeps/dz-setup.sh &&
#   CFLAGS="-O2 -g $DZ_CFLAGS" LDFLAGS="$DZ_LDFLAGS" make -j16 agrep-gpu
# Inputs (bench/gpu-data.sh): 1 GiB of 150-base reads as lines, the same as
# FASTQ, 1,000 24-base primers; a genome of GENOME_GBP (default 1) Gbp in
# 60-base lines, one record, and 312 23-base guides from it.
# Prints the wall time of each case (best of RUNS for the GPU's, one run
# for the host's) and the ratios the targets name.
set -u
. bench/gpu-data.sh
RUNS=${RUNS:-3}
GENOME_GBP=${GENOME_GBP:-1}
A=./agrep-gpu
R=/dev/shm/reads1g
Q=/dev/shm/reads1g.fq
G=/dev/shm/genome.fa
[ -s $Q ] || awk 'BEGIN { q = sprintf("%150s", ""); gsub(/ /, "I", q) }
	{ print "@r" NR; print; print "+"; print substr(q, 1, length($0)) }' $R > $Q
python3 - <<'PY'
comp = bytes.maketrans(b'ACGTacgt', b'TGCAtgca')
ps = open('/tmp/pr1000', 'rb').read().split()
open('/tmp/pr1000.both', 'wb').write(b'\n'.join(ps + [p.translate(comp)[::-1] for p in ps]) + b'\n')
PY
[ -s $G ] || { echo '>chrG bench'; /tmp/gen_dna $((GENOME_GBP * 1000000000)) /tmp/g.pat 60 100000 5 2>/dev/null; } > $G
python3 - <<'PY'
import random
random.seed(11)
with open('/dev/shm/genome.fa', 'rb') as f:
    f.readline()
    s = f.read(64 << 20).replace(b'\n', b'')
with open('/tmp/guides312', 'wb') as f:
    for i in range(312):
        a = random.randrange(len(s) - 23)
        f.write(b'>g%d\n%s\n' % (i, s[a:a + 23]))
PY

. bench/best.sh

nvidia-smi --query-gpu=name --format=csv,noheader | head -1
echo "$(nproc) cores, $(date -u +%F), agrep-gpu $(git rev-parse --short HEAD 2>/dev/null)"
DEVS=${DEVS:-auto gpu host}
for dev in $DEVS; do
	n=$RUNS; [ $dev = host ] && n=1
	l=$(best $n $A --device=$dev -c -k4 -f /tmp/pr1000.both $R)
	c=$(best $n $A --device=$dev --dna -c -k4 -f /tmp/pr1000 $Q)
	h=$(best $n $A --device=$dev --dna --hits -k4 -f /tmp/pr1000 $Q)
	rows="$(tail -n +2 /tmp/out | wc -l) rows, md5 $(md5sum < /tmp/out | cut -c1-8)"
	echo "reads 1 GiB, 1,000 primers -k4, --device=$dev: lines (2,000 patterns) $l s, FASTQ both strands -c $c s ($(ratio $c $l)x), --hits $h s ($(ratio $h $l)x, $rows)"
done
for dev in $DEVS; do
	n=$RUNS; [ $dev = host ] && n=1
	l=$(best $n $A --device=$dev --dna --records=lines -c -k3 -f /tmp/guides312 $G)
	h=$(best $n $A --device=$dev --dna --hits -k3 -f /tmp/guides312 $G)
	rows="$(tail -n +2 /tmp/out | wc -l) rows, md5 $(md5sum < /tmp/out | cut -c1-8)"
	echo "genome $GENOME_GBP Gbp (60-base lines), 312 guides -k3 both strands, --device=$dev: lines -c $l s, records --hits $h s ($(ratio $h $l)x, $rows)"
done
