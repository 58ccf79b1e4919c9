#!/bin/bash
# bench/records.sh: sequence records, both strands and the hit table (issue
# 38), against line mode and seqkit, in one run.  From the project root:
#
#   bench/records.sh [READS_MB [GENOME_MBP]]     (defaults 64 and 10)
#
# Cases (best of 3 wall times; hyperfine is not needed):
#   reads: READS_MB of 150-base reads (bench/gen_dna.c) as FASTQ, P
#     24-base primers sampled from them (P = 100 and 1,000), -k K:
#       lines  the sequence lines alone, the P patterns and their reverse
#              complements given as 2P patterns (no records, no --dna)
#       -c     --dna -c over the FASTQ (records, both strands)
#       hits   --dna --hits over the FASTQ
#   genome: one FASTA record of GENOME_MBP random bases in 60-base lines
#     with soft-masked and N runs, 312 guides of 23 bases, -k3:
#       -c, hits (both strands), and seqkit locate -m 3 (mismatches only,
#       both strands) when seqkit is installed.
# Prints the machine, every time and the ratios the issue's targets name.
set -eu
READS_MB=${1:-64}
GENOME_MBP=${2:-10}
A=${AGREP_GPU:-./agrep-gpu}
T=${TMPDIR:-/tmp}/agrep-records-bench
mkdir -p "$T" bench/bin
[ -x bench/bin/gen_dna ] || cc -O2 -o bench/bin/gen_dna bench/gen_dna.c

RUNS=3
OUT=$T/out
. bench/best.sh

echo "# bench/records.sh $(date -u +%Y-%m-%d) on $(nproc) cores: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "# agrep-gpu $(git rev-parse --short HEAD 2>/dev/null)"

# Reads
R=$T/reads$READS_MB
if [ ! -s "$R.fq" ]; then
	bench/bin/gen_dna $((READS_MB << 20)) "$T/unused.pat" 150 997 777 2>/dev/null | tr a-z A-Z > "$R.txt"
	awk '{q = $0; gsub(/./, "I", q); print "@r" NR; print; print "+"; print q}' "$R.txt" > "$R.fq"
fi
for P in 100 1000; do
	python3 bench/gen_primers.py "$R.txt" "$P" "$T/pr$P"
	for K in 2 4; do
		l=$(best $RUNS "$A" -c -k$K -f "$T/pr$P.both" "$R.txt")
		c=$(best $RUNS "$A" --dna -c -k$K -f "$T/pr$P" "$R.fq")
		h=$(best $RUNS "$A" --dna --hits -k$K -f "$T/pr$P" "$R.fq")
		rows=$("$A" --dna --hits -k$K -f "$T/pr$P" "$R.fq" | tail -n +2 | wc -l)
		echo "reads ${READS_MB} MB, $P primers -k$K: lines ${l}s, records -c ${c}s ($(ratio $c $l)x lines), --hits ${h}s ($(ratio $h $c)x -c, $rows rows)"
	done
done

# Genome
G=$T/genome$GENOME_MBP.fa
if [ ! -s "$G" ]; then
	python3 bench/gen_genome.py "$GENOME_MBP" "$G" "$T/guides312"
fi
# -c of one record stops at its first site; the lines' -c reads them all.
l=$(best $RUNS "$A" --dna --records=lines -c -k3 -f "$T/guides312" "$G")
c=$(best $RUNS "$A" --dna -c -k3 -f "$T/guides312" "$G")
h=$(best $RUNS "$A" --dna --hits -k3 -f "$T/guides312" "$G")
rows=$("$A" --dna --hits -k3 -f "$T/guides312" "$G" | tail -n +2 | wc -l)
line="genome ${GENOME_MBP} Mbp, 312 guides -k3 both strands: 60-base lines -c ${l}s, record -c ${c}s, --hits ${h}s ($(ratio $h $l)x lines -c, $rows rows)"
if command -v seqkit >/dev/null; then
	RUNS=1
	s=$(best $RUNS seqkit locate -j "$(nproc)" -m 3 -f "$T/guides312" "$G")
	line="$line, seqkit locate -m 3 ${s}s ($(ratio $s $h)x slower than --hits)"
fi
echo "$line"
