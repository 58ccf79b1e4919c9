#!/usr/bin/env bats
# The text-along-the-word engine of the host matcher (src/sassy.c, issue 10):
# Myers' rows over 64 text bytes with an early stop per block.  Forced with
# AGREP_GPU_HOST_ENGINE=sassy (and each variant) on the host matcher
# (AGREP_GPU_DEVICE=host), and hm_scan's timed choice between it and the
# lanes engine with a tiny probe forced either way (AGREP_GPU_SASSY_PROBE),
# against the naive DP oracle: random cases with planted copies near the
# threshold k (tests/casegen.c), with -i, -w, -x, -v, -c, -n, -z and small
# chunks (matches straddling them); and the Bible cases of the benchmark.
# Knobs: SASSY_SEEDS (random cases, default 4; 12 with AGREP_GPU_TESTS=full).
load test_helper
load check_helper

NSEEDS="${SASSY_SEEDS:-$(depth 4 12)}"
FORCE="AGREP_GPU_DEVICE=host AGREP_GPU_HOST_ENGINE=sassy"

setup_file() {
    local s
    need_tools casegen oracle || return 1
    case_dir
    local alpha=(az mixed words printable)
    for ((s = 1; s <= NSEEDS; s++)); do
        local opts="-n 2:63 -k 0:6 -p 1:2 -b 1500:5000 -a ${alpha[s % 4]}"
        # shellcheck disable=SC2086
        casegen $opts "$s" "$CASES/t.$s" "$CASES/p.$s" > "$CASES/k.$s"
        tr '\n' '\0' < "$CASES/t.$s" > "$CASES/z.$s"
    done
}

@test "sassy (forced, each variant) agrees with the oracle on random cases, flags and chunks" {
    begin_checks
    local flagsets=("" "-i" "-w" "-x" "-v -c" "-n -i" "-w -i -n" "-x -c")
    local variants=(sassy sassy-generic sassy-avx2 sassy-avx512)
    local s k desc f v i=0
    for ((s = 1; s <= NSEEDS; s++)); do
        read -r k desc < "$CASES/k.$s"
        f=${flagsets[i % ${#flagsets[@]}]}
        v=${variants[i++ % ${#variants[@]}]}
        # shellcheck disable=SC2086
        check "AGREP_GPU_DEVICE=host AGREP_GPU_HOST_ENGINE=$v" "" $f -k "$k" -f "$CASES/p.$s" "$CASES/t.$s"
        # shellcheck disable=SC2086
        check "$FORCE AGREP_GPU_CHUNK=300" "" $f -k "$k" -f "$CASES/p.$s" "$CASES/t.$s"
        check "$FORCE" "" -z -c -k "$k" -f "$CASES/p.$s" "$CASES/z.$s"
    done
    end_checks
}

@test "sassy or lanes by the timed probe (forced each way, tiny probes) agrees with the oracle" {
    begin_checks
    local s k desc p
    for ((s = 1; s <= NSEEDS; s++)); do
        read -r k desc < "$CASES/k.$s"
        for p in 64:sassy 192:lanes 64; do
            check "AGREP_GPU_DEVICE=host AGREP_GPU_HOST_ENGINE=nofilter AGREP_GPU_SASSY_PROBE=$p" "" \
                -n -k "$k" -f "$CASES/p.$s" "$CASES/t.$s"
        done
    done
    end_checks
}

@test "sassy (forced) on the King James Bible" {
    command -v bible >/dev/null || skip "bible(1) missing (bible-kjv)"
    local kjv="$BATS_FILE_TMPDIR/kjv.txt"
    bible "Gen1:1-Rev22:21" | head -c 600000 > "$kjv"
    begin_checks
    local c
    for c in "1|LORD" "2|mercy" "3|righteousness" "4|for his mercy endureth for ever" \
             "3|And God saw the light, that it was good: and God divided the"; do
        check "$FORCE" "" -c -k "${c%%|*}" "${c#*|}" "$kjv"
        check "$FORCE" "" -n -i -k "${c%%|*}" "${c#*|}" "$kjv"
        check "AGREP_GPU_DEVICE=host" "" -c -k "${c%%|*}" "${c#*|}" "$kjv"
    done
    end_checks
}
