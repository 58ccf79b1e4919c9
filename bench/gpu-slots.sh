B=$PWD/agrep-gpu; K=$PWD/.devdata/kjv.txt; G1=/dev/shm/k1g
for i in $(seq 250); do cat $K; done > $G1
tr -cs 'A-Za-z' '\n' < $K | awk 'length>=6 && length<=14' | sort -u | shuf -n 200 --random-source=$K > /tmp/p200
cc -O2 -o /tmp/gen_dna bench/gen_dna.c; /tmp/gen_dna $((1<<30)) /tmp/unused.pat 150 997 777 > /dev/shm/reads1g 2>/dev/null
python3 - <<'PY'
import random
lines = [l for l in open('/dev/shm/reads1g', 'rb').read(8 << 20).split(b'\n') if len(l) == 150]
random.seed(99)
ps = set()
while len(ps) < 1000:
    l = random.choice(lines); s = random.randrange(0, 150 - 24); ps.add(l[s:s + 24])
open('/tmp/pr1000', 'wb').write(b'\n'.join(sorted(ps)) + b'\n')
PY
g1=$($B --list-devices | grep -m1 -i '(gpu' | cut -d: -f1)
export LC_ALL=C AGREP_GPU_HOST_MAX=0 AGREP_GPU_STATS=1
$B --device=gpu -c -k4 -f /tmp/pr1000 /dev/shm/reads1g >/dev/null 2>&1; $B --device=$g1 -c -k4 -f /tmp/pr1000 /dev/shm/reads1g >/dev/null 2>&1
for rep in 1 2; do for d in $g1 gpu; do for sl in 8 16 24; do
  /usr/bin/time -f "primers --device=$d slots=$sl: wall %e s" env AGREP_GPU_SLOTS=$sl $B --device=$d -c -k4 -f /tmp/pr1000 /dev/shm/reads1g 2>&1 | grep -E "wall|from ready"
  /usr/bin/time -f "200 words --device=$d slots=$sl: wall %e s" env AGREP_GPU_SLOTS=$sl $B --device=$d -c -k2 -f /tmp/p200 $G1 2>&1 | grep -E "wall|from ready"
done; done; done
