#!/bin/bash
# bench/noindels.sh: --no-indels (substitutions only, issue 40) against
# the same search with indels and against seqkit locate -m, in one run.
# From the project root:  bench/noindels.sh [READS_MB [SEQKIT_MB]]
# (defaults 256 and 8: seqkit locate -m takes minutes a few MB).
#   - READS_MB of 150-base reads (bench/gen_dna.c), 100 24-base barcodes
#     sampled from them, -c -k2: --no-indels, indels, seqkit on SEQKIT_MB;
#   - the Bible x64 (275 MB), -c -k2 'for his mercy endureth': --no-indels
#     and indels.
# Best of 3 wall times each (seqkit: one run).
set -eu
READS_MB=${1:-256}
SEQKIT_MB=${2:-8}
A=${AGREP_GPU:-./agrep-gpu}
T=${TMPDIR:-/tmp}/agrep-noindels-bench
mkdir -p "$T" bench/bin
[ -x bench/bin/gen_dna ] || cc -O2 -o bench/bin/gen_dna bench/gen_dna.c
OUT=$T/out
. bench/best.sh

echo "# bench/noindels.sh $(date -u +%F) on $(nproc) cores: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), agrep-gpu $(git rev-parse --short HEAD 2>/dev/null)"
R=$T/reads$READS_MB
[ -s "$R" ] || bench/bin/gen_dna $((READS_MB << 20)) "$T/unused" 150 997 777 2>/dev/null | tr a-z A-Z > "$R"
python3 - "$R" "$T/bc100" <<'PY'
import random, sys
lines = [l for l in open(sys.argv[1], 'rb').read(8 << 20).split(b'\n') if len(l) == 150]
random.seed(3)
ps = set()
while len(ps) < 100:
    l = random.choice(lines); s = random.randrange(0, 150 - 24); ps.add(l[s:s + 24])
open(sys.argv[2], 'wb').write(b'\n'.join(sorted(ps)) + b'\n')
PY
h=$(best 3 "$A" --no-indels -c -k2 -f "$T/bc100" "$R")
e=$(best 3 "$A" -c -k2 -f "$T/bc100" "$R")
echo "reads ${READS_MB} MB, 100 barcodes -c -k2: --no-indels ${h}s, with indels ${e}s ($(ratio "$e" "$h")x the time of --no-indels)"
head -c $((SEQKIT_MB << 20)) "$R" | awk '{print "@r" NR; print; print "+"; q = $0; gsub(/./, "I", q); print q}' > "$T/small.fq"
awk '{print ">b" NR; print}' "$T/bc100" > "$T/bc100.fa"
h=$(best 3 "$A" --dna --no-indels -c -k2 -f "$T/bc100.fa" "$T/small.fq")
if command -v seqkit >/dev/null; then
	s=$(best 1 seqkit locate -j "$(nproc)" -m 2 -f "$T/bc100.fa" "$T/small.fq")
	echo "FASTQ of ${SEQKIT_MB} MB of reads, both strands: --dna --no-indels -c ${h}s, seqkit locate -m 2 ${s}s ($(ratio "$s" "$h")x)"
fi
K=$T/kjv64
if [ ! -s "$K" ]; then
	command -v bible >/dev/null && bible "Gen1:1-Rev22:21" > "$T/kjv" 2>/dev/null || /usr/games/bible "Gen1:1-Rev22:21" > "$T/kjv"
	for i in $(seq 64); do cat "$T/kjv"; done > "$K"
fi
h=$(best 3 "$A" --no-indels -c -k2 'for his mercy endureth' "$K")
e=$(best 3 "$A" -c -k2 'for his mercy endureth' "$K")
echo "Bible x64, -c -k2 'for his mercy endureth': --no-indels ${h}s, with indels ${e}s ($(ratio "$e" "$h")x)"
