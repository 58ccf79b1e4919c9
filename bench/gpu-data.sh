# Sourced by bench/gpu-counts.sh and bench/gpu-slots.sh (run ON the GPU machine
# from the project root, .devdata carried): the inputs of the issues' cases, made
# once per machine, as ../shared/device/measure.sh makes them.
#   $G1 (1 GiB of Bible), $G8 (8.6 GB), /tmp/p200 (200 Bible words),
#   /dev/shm/reads1g (1 GiB of 150-base reads, bench/gen_dna.c), /tmp/pr1000
#   (1,000 24-base primers sampled from them)
K=$PWD/.devdata/kjv.txt
G1=/dev/shm/k1g; G8=/dev/shm/k8g
[ -s $G1 ] || for i in $(seq 250); do cat $K; done > $G1
[ -s $G8 ] || for i in 1 2 3 4 5 6 7 8; do cat $G1; done > $G8
tr -cs 'A-Za-z' '\n' < $K | awk 'length>=6 && length<=14' | sort -u | shuf -n 200 --random-source=$K > /tmp/p200
cc -O2 -o /tmp/gen_dna bench/gen_dna.c
[ -s /dev/shm/reads1g ] || /tmp/gen_dna $((1<<30)) /tmp/unused.pat 150 997 777 > /dev/shm/reads1g 2>/dev/null
python3 - <<'PY'
import random
lines = [l for l in open('/dev/shm/reads1g', 'rb').read(8 << 20).split(b'\n') if len(l) == 150]
random.seed(99)
ps = set()
while len(ps) < 1000:
    l = random.choice(lines); s = random.randrange(0, 150 - 24); ps.add(l[s:s + 24])
open('/tmp/pr1000', 'wb').write(b'\n'.join(sorted(ps)) + b'\n')
PY
