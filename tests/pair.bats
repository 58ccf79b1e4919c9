#!/usr/bin/env bats
# Patterns of 33-64 bytes as two 32-bit blocks (kernel option PAIR, the GPU's
# path, kernels/myers.cl) on POCL, against the DP oracle (tests/oracle.c):
#  - the GPU's shape (AGREP_GPU_LANES=1, which picks PAIR) and PAIR forced
#    with vector lanes (AGREP_GPU_PAIR=1), with 64-byte slices and tiny
#    chunks, from files and standard input;
#  - k near and above 32 (the kernel keeps the 64-bit word there) and
#    pattern sets that mix short and 33-64-byte patterns;
#  - a guard that these checks do reach the PAIR code: a kernel whose PAIR
#    path records no hits must fail them.
#
# Knobs: PAIR_SEEDS (random cases, default 6; 24 with AGREP_GPU_TESTS=full;
# make check samples them: 9 POCL runs, each test says which).  Other
# suites run the same path with AGREP_GPU_LANES=1 in the environment (bats
# tests/property.bats...).
load test_helper
load check_helper

NSEEDS="${PAIR_SEEDS:-$(depth 6 24)}"
FLAGSETS=("" "-n" "-c" "-i" "-v -c" "-n --show-cost" "-w -n" "-x")
CHUNKS=(64 100 192 257 1000)

mk() {
    local s=$1 opts=$2
    # shellcheck disable=SC2086
    casegen $opts "$s" "$CASES/t.$s" "$CASES/p.$s" > "$CASES/k.$s"
    echo "tests/bin/casegen $opts $s $CASES/t.$s $CASES/p.$s" > "$CASES/g.$s"
}

setup_file() {
    need_tools casegen oracle || return 1
    case_dir
    local s
    for ((s = 1; s <= NSEEDS; s++)); do
        mk "$s" "-n 33:64 -k 0:12 -p 1:2 -b 1500:5000"
    done
    # k 28..40: PAIR below 32, the 64-bit word from 32 on (every line
    # matches once k >= the pattern length)
    for s in 101 102 103 104; do
        mk "$s" "-n 33:64 -k 28:40 -p 1 -b 1500:3000"
    done
    # short and 33-64-byte patterns in one set
    for s in 201 202 203 204; do
        mk "$s" "-n 5:64 -k 0:6 -p 3:5 -b 1500:4000"
    done
}

setup() {
    begin_checks
    CASES="$BATS_FILE_TMPDIR/cases"
}

k_of() { local k d; read -r k d < "$CASES/k.$1"; echo "$k"; }

# runcase SEED ENVS FLAGS [stdin]
runcase() {
    local s=$1 envs=$2 flags=$3 how=${4:-file} k
    k=$(k_of "$s")
    GEN=$(cat "$CASES/g.$s")
    WHAT="seed $s: $(cut -d' ' -f2- "$CASES/k.$s")"
    # shellcheck disable=SC2086
    if [ "$how" = stdin ]; then
        check "$envs" "$CASES/t.$s" $flags -k "$k" -f "$CASES/p.$s"
    else
        check "$envs" "" $flags -k "$k" -f "$CASES/p.$s" "$CASES/t.$s"
    fi
}

GPU_SHAPE="AGREP_GPU_HOST_MAX=0 AGREP_GPU_LANES=1 AGREP_GPU_SLICE=64"
VEC_PAIR="AGREP_GPU_HOST_MAX=0 AGREP_GPU_PAIR=1 AGREP_GPU_SLICE=64"

@test "33-64-byte patterns, GPU shape (one lane, PAIR), tiny slices and chunks agree with the oracle" {
    # full (AGREP_GPU_TESTS=full): every seed from its file, and standard
    # input on every fourth seed; quick: seed 5 from its file (64-byte
    # chunks, -n --show-cost) and seed 4 from standard input (100, -x)
    local s full=0
    [ "$(depth quick full)" = quick ] || full=1
    for ((s = 1; s <= NSEEDS; s++)); do
        ((!full && s != 5)) ||
        runcase "$s" "$GPU_SHAPE AGREP_GPU_CHUNK=${CHUNKS[s % 5]}" "${FLAGSETS[s % 8]}"
        if ((s % 4 == 0)); then
            runcase "$s" "$GPU_SHAPE AGREP_GPU_CHUNK=${CHUNKS[(s + 2) % 5]}" \
                "${FLAGSETS[(s + 3) % 8]}" stdin
        fi
    done
    end_checks
}

@test "33-64-byte patterns, PAIR with vector lanes, tiny slices and chunks agree with the oracle" {
    # full: the odd seeds; quick: seeds 1 and 3 (chunks of 192 and 1000
    # bytes, -c and -v -c)
    local s last=$NSEEDS
    [ "$(depth quick full)" = full ] || last=$((NSEEDS < 4 ? NSEEDS : 4))
    for ((s = 1; s <= last; s += 2)); do
        runcase "$s" "$VEC_PAIR AGREP_GPU_CHUNK=${CHUNKS[(s + 1) % 5]}" "${FLAGSETS[(s + 1) % 8]}"
    done
    end_checks
}

@test "PAIR: k around 32 and mixed pattern lengths agree with the oracle" {
    # full (AGREP_GPU_TESTS=full): every case in both shapes; quick: each
    # shape on one case of k 28-40 and one of mixed lengths, the GPU's on
    # 103 and 201 (chunks of 257 and 100 bytes, -x and -n), vector lanes on
    # 101 and 202 (-w -n and -i): with the two tests above, every chunk
    # size and every flag set (the guard's "" below) in make check
    local s full=0
    [ "$(depth quick full)" = quick ] || full=1
    for s in 101 102 103 104 201 202 203 204; do
        ((!full && s != 103 && s != 201)) ||
        runcase "$s" "$GPU_SHAPE AGREP_GPU_CHUNK=${CHUNKS[s % 5]}" "${FLAGSETS[s % 8]}"
        ((!full && s != 101 && s != 202)) ||
        runcase "$s" "$VEC_PAIR" "${FLAGSETS[(s + 1) % 8]}"
    done
    end_checks
}

@test "PAIR guard: a kernel whose PAIR path records no hits fails these checks" {
    local broken="$BATS_TEST_TMPDIR/broken.cl" s bad=0
    sed 's/const uvec hb = y/const uvec hb = 0 \& y/' "$TOP/kernels/myers.cl" > "$broken"
    if cmp -s "$broken" "$TOP/kernels/myers.cl"; then
        echo "the guard's sed no longer changes kernels/myers.cl: update it"; return 1
    fi
    # (seeds: full 1-4, quick 1; the broken kernel fails each of them)
    for s in $(depth 1 "1 2 3 4"); do
        runcase "$s" "$GPU_SHAPE AGREP_GPU_KERNEL=$broken" ""
    done
    [ "$NFAIL" -gt 0 ] || { echo "the broken PAIR kernel passed: the checks miss the PAIR path"; return 1; }
}
