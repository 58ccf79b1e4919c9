# bench/gpu-setup.sh: sourced by bench/gpu-pipeline.sh and
# bench/gpu-multi-pipeline.sh ON the GPU machine (.devdeps and .devdata
# carried): registers OpenCL, builds, shows the machine, makes the Bible
# x250 (G1, 1 GiB) and x2000 (G8, 8.6 GB) in /dev/shm, and defines tm
# (wall time and peak RSS of a command, labelled).
bash .devdeps/opencl-setup.sh >/dev/null 2>&1
make -j"$(nproc)" >/tmp/build.log 2>&1 || { tail -20 /tmp/build.log; exit 1; }
B=$PWD/agrep-gpu; K=$PWD/.devdata/kjv.txt
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc
$B --list-devices
G1=/dev/shm/k1g; G8=/dev/shm/k8g
for i in $(seq 250); do cat "$K"; done > $G1
for i in 1 2 3 4 5 6 7 8; do cat $G1; done > $G8
tm() { local l="$1"; shift; /usr/bin/time -f "$l: wall %e s, rss %M KB" "$@"; }
