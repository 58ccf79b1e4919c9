#!/bin/bash
# bench/peers.sh: agrep-gpu's sequence search side by side with the peers
# Debian ships (issue 38): seqkit (grep, locate), cutadapt, bbduk (bbmap) and
# edlib-aligner, in one run on one machine, with what each one searches
# (edits or mismatches only, strands, IUPAC codes, every site or the best),
# so that the counts are read with their differences in mind.  From the
# project root, after `make`:
#
#   bench/peers.sh [READS_MB [GENOME_MBP [PRIMERS]]]   (defaults 8, 10, 50)
#
# Cases (best of RUNS wall seconds, output to a file; a peer that is not
# installed is skipped, one that runs past PEER_CAP seconds is cut: >cap):
#   reads: READS_MB of 150-base reads (bench/gen_dna.c) as FASTQ, PRIMERS
#     24-base primers sampled from them, at most 2 errors, both strands:
#     the reads with a hit (agrep-gpu --dna -c; seqkit grep -s -m 2;
#     cutadapt -b with -O 24 -e 2 --revcomp; bbduk k=24 hdist=2 and
#     edist=2), and every site (agrep-gpu --hits; seqkit locate -m 2)
#   genome: one FASTA record of GENOME_MBP random bases in 60-base lines
#     (soft-masked and N runs), 312 guides of 23 bases, at most 3 errors:
#     every site, both strands (agrep-gpu --hits; seqkit locate -m 3), and
#     each guide's best places (edlib-aligner -m HW -k 3, the guides and
#     their reverse complements as queries)
# Requires python3; the peers from Debian: apt-get install seqkit cutadapt
# bbmap edlib-aligner.  Prints the table; OUT=FILE writes it there too
# (bench/results/2core-peers.md is the 2-core machine's).
set -u
READS_MB=${1:-8}
GENOME_MBP=${2:-10}
NPRIMERS=${3:-50}
A=${AGREP_GPU:-./agrep-gpu}
T=${TMPDIR:-/tmp}/agrep-peers-bench
RUNS=${RUNS:-3}
CAP=${PEER_CAP:-300}
J=$(nproc)
mkdir -p "$T" bench/bin
[ -x bench/bin/gen_dna ] || cc -O2 -o bench/bin/gen_dna bench/gen_dna.c
. bench/best.sh

# cap N CMD...: best of N runs like best(), but "" when a run passes CAP
cap() {
	local n=$1
	shift
	local t0=$EPOCHREALTIME
	timeout "$CAP" "$@" > "$OUT1" 2>/dev/null
	local rc=$?
	[ $rc = 124 ] && { echo ">$CAP"; return; }
	local t
	t=$(awk -v a="$EPOCHREALTIME" -v b="$t0" 'BEGIN { printf "%.3f", a - b }')
	if [ "$n" -gt 1 ]; then
		local b
		b=$(OUT=/dev/null best $((n - 1)) "$@")
		awk -v a="$t" -v b="$b" 'BEGIN { printf "%.3f", a < b ? a : b }'
	else
		echo "$t"
	fi
}
OUT1=$T/out
rows=()
row() { rows+=("| $1 | $2 | $3 | $4 | $5 |"); echo "$1: $3 s, $4" >&2; }
fq_count() { echo $(( $(wc -l < "$1") / 4 )); }

# ---- reads
R=$T/reads$READS_MB
if [ ! -s "$R.fq" ]; then
	bench/bin/gen_dna $((READS_MB << 20)) "$T/unused.pat" 150 997 777 2>/dev/null | tr a-z A-Z > "$R.txt"
	awk '{q = $0; gsub(/./, "I", q); print "@r" NR; print; print "+"; print q}' "$R.txt" > "$R.fq"
fi
P=$T/pr$NPRIMERS
python3 bench/gen_primers.py "$R.txt" "$NPRIMERS" "$P"
C="reads $READS_MB MB, $NPRIMERS primers, <= 2 errors, both strands"
t=$(cap "$RUNS" "$A" --dna -c -k2 -f "$P.fa" "$R.fq")
row "$C: reads with a hit" "agrep-gpu --dna -c -k2" "$t" "$(cat "$OUT1") reads" "edits, IUPAC"
t=$(cap "$RUNS" "$A" --dna --hits -k2 -f "$P.fa" "$R.fq")
row "$C: every site" "agrep-gpu --dna --hits -k2" "$t" "$(($(wc -l < "$OUT1") - 1)) sites" "edits, IUPAC; the site where the cost stops falling"
if command -v seqkit >/dev/null; then
	t=$(cap 1 seqkit grep -j "$J" -s -m 2 -f "$P" "$R.fq")
	row "$C: reads with a hit" "seqkit grep -s -m 2" "$t" "$(fq_count "$OUT1") reads" "mismatches only"
	t=$(cap 1 seqkit locate -j "$J" -m 2 -f "$P.fa" "$R.fq")
	row "$C: every site" "seqkit locate -m 2" "$t" "$(($(wc -l < "$OUT1") - 1)) sites" "mismatches only; every end position"
fi
if command -v cutadapt >/dev/null; then
	t=$(cap 1 cutadapt -j "$J" -b "file:$P.fa" -e 2 -O 24 --revcomp --action=none --discard-untrimmed -o "$T/cut.fq" "$R.fq")
	row "$C: reads with a hit" "cutadapt -b -e 2 -O 24 --revcomp" "$t" "$(fq_count "$T/cut.fq") reads" "edits; a read's best adapter only; no IUPAC in reads"
fi
if command -v bbduk.sh >/dev/null; then
	for d in hdist edist; do
		t=$(cap 1 bbduk.sh -Xmx2g threads="$J" in="$R.fq" ref="$P.fa" k=24 "$d=2" rcomp=t outm="$T/bb.fq" overwrite=t)
		row "$C: reads with a hit" "bbduk k=24 $d=2" "$t" "$(fq_count "$T/bb.fq") reads" "k-mers of the primer's length; $([ $d = hdist ] && echo mismatches only || echo edits within a k-mer)"
	done
fi

# ---- genome
G=$T/genome$GENOME_MBP.fa
if [ ! -s "$G" ]; then
	python3 bench/gen_genome.py "$GENOME_MBP" "$G" "$T/guides312"
fi
C="genome $GENOME_MBP Mbp, 312 guides, <= 3 errors, both strands"
t=$(cap "$RUNS" "$A" --dna --hits -k3 -f "$T/guides312" "$G")
row "$C: every site" "agrep-gpu --dna --hits -k3" "$t" "$(($(wc -l < "$OUT1") - 1)) sites" "edits, IUPAC, soft-masked bases as bases"
if command -v seqkit >/dev/null; then
	t=$(cap 1 seqkit locate -j "$J" -m 3 -f "$T/guides312" "$G")
	row "$C: every site" "seqkit locate -m 3" "$t" "$(($(wc -l < "$OUT1") - 1)) sites" "mismatches only"
fi
if command -v edlib-aligner >/dev/null; then
	# (one target sequence: the genome in upper case, one line)
	[ -s "$G.one" ] || { echo '>chrB'; grep -v '>' "$G" | tr -d '\n' | tr a-z A-Z; echo; } > "$G.one"
	t=$(cap 1 edlib-aligner -m HW -k 3 "$T/guides312.both" "$G.one")
	row "$C: each guide's best places" "edlib-aligner -m HW -k 3" "$t" "$(awk '/^#[0-9]+: [0-3] / { q++; s += $3 } END { print q + 0 " of 624 queries, " s + 0 " places" }' "$OUT1")" "edits; one core; each query's best cost and its places only, not every site within k"
fi

{
	echo "## Sequence search beside the peers (bench/peers.sh)"
	echo
	echo "- $(date -u '+%Y-%m-%d %H:%M') UTC; $(nproc) cores: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); load average at the end $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "- agrep-gpu $(git rev-parse --short HEAD 2>/dev/null); $(seqkit version 2>/dev/null | head -1); cutadapt $(cutadapt --version 2>/dev/null); $(bbduk.sh --version 2>&1 | grep -m1 'BBMap version'); edlib-aligner (Debian)"
	echo "- wall seconds, best of $RUNS for agrep-gpu, one run for each peer (-j/threads = $J), cut at $CAP s"
	echo
	echo "| case | tool | seconds | found | what it searches |"
	echo "|---|---|---|---|---|"
	printf '%s\n' "${rows[@]}"
} | tee ${OUT:+"$OUT"}
