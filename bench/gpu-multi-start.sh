#!/bin/bash
# bench/gpu-multi-start.sh: issue 39's compute-bound cases on a machine of
# several GPUs (nvidia-h100-x4 and the like), and where a run's time goes:
# 10,000 and 1,000 24-base primers (-c -k3, -c -k4) over 1 GiB of 150-base
# reads, on one GPU, two (CUDA_VISIBLE_DEVICES), every GPU and the default
# plan, with AGREP_GPU_STATS' marks (platforms listed, devices open, first
# and last range, closed).  Run ON the machine from the project root, with
# .devdeps carried (bench/results/h100x4.md has its figures).
# Note: POCL is device 0 there; --device=1 is the first GPU.
# RUNS (default 2): runs of each case's wall time.
set -u
RUNS=${RUNS:-2}
bash .devdeps/opencl-setup.sh >/dev/null 2>&1
if [ -f .devdeps/dz-setup.sh ]; then
	. .devdeps/dz-setup.sh >/dev/null 2>&1
	export CFLAGS="-O2 -g $DZ_CFLAGS" LDFLAGS="$DZ_LDFLAGS"
fi
make -j"$(nproc)" agrep-gpu >/dev/null 2>&1 || { echo "build failed"; exit 1; }
cc -O2 -o /tmp/gen_dna bench/gen_dna.c
R=/dev/shm/reads1g
[ -s $R ] || /tmp/gen_dna $((1 << 30)) /tmp/unused.pat 150 997 777 > $R 2>/dev/null
python3 - <<'PY'
import random
lines = [l for l in open('/dev/shm/reads1g', 'rb').read(64 << 20).split(b'\n') if len(l) == 150]
for n, seed, name in ((10000, 7, '/tmp/pr10000'), (1000, 99, '/tmp/pr1000')):
    random.seed(seed)
    ps = set()
    while len(ps) < n:
        l = random.choice(lines); s = random.randrange(0, 150 - 24); ps.add(l[s:s + 24])
    open(name, 'wb').write(b'\n'.join(sorted(ps)) + b'\n')
PY
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "$(nproc) cores, $(date -u '+%F %H:%M UTC'), agrep-gpu $(git rev-parse --short HEAD 2>/dev/null)"
A=./agrep-gpu
# the programs compiled once (the binary cache)
$A --device=gpu -c -k3 -f /tmp/pr10000 $R >/dev/null
$A --device=gpu -c -k4 -f /tmp/pr1000 $R >/dev/null
marks="listed|open early|start opening|: open in|ranges from|closed|search is done"
for c in "-k3 /tmp/pr10000" "-k4 /tmp/pr1000"; do
	set -- $c
	for how in one two all auto; do
		case $how in
		one) env=; dev=--device=1 ;;
		two) env=CUDA_VISIBLE_DEVICES=0,1; dev=--device=gpu ;;
		all) env=; dev=--device=gpu ;;
		auto) env=; dev= ;;
		esac
		echo "== $(wc -l < "$2") primers -c $1, $how"
		env $env AGREP_GPU_STATS=1 $A $dev -c "$1" -f "$2" $R 2>&1 |
		    grep -E "$marks" | sed 's/^agrep-gpu: //'
		for ((r = 0; r < RUNS; r++)); do
			env $env /usr/bin/time -f "wall %e s" $A $dev -c "$1" -f "$2" $R 2>&1 | tail -1
		done
	done
done
