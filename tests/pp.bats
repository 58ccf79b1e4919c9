#!/usr/bin/env bats
# The pattern-parallel host engine (src/pp.c, issue 23): many short
# patterns at a high k, one pattern per SIMD lane.  Random DNA reads (150
# bases a line, 400 lines) with 40 primers of 8-32 bases cut from them
# (some mutated, some in upper case for -i), k 0..6, with -c, -n, -o, -w
# and -i (-o: against forced off only; the oracle has no -o): the engine forced on (AGREP_GPU_HOST_ENGINE=pp; at every ISA
# level: AGREP_GPU_ISA=baseline, avx2, uncapped), forced off (nopp) and
# automatic, against the oracle; tiny chunks (the warm-up across chunk
# boundaries).  Then 300 primers on 6,000 reads (-o and -w on 300) (several vectors of
# patterns, several blocks of text), forced on against forced off.  The
# pattern-parallel OpenCL kernel (kernels/myers.cl, myers_pp) forced on
# POCL, with and without its lazy score, against the oracle and the host.
# make check takes fewer cases, a case's settings in turn (ALL below), and
# runs the prefix filter's exhaustive check on smaller blocks; make
# check-full more cases, every setting on every case, and the blocks of 1 MB.
load test_helper
load check_helper
bats_require_minimum_version 1.5.0

# reads SEED LINES: LINES random reads of 150 bases (awk's PRNG, seeded)
reads() {
    awk -v s="$1" -v n="$2" 'BEGIN { srand(s); split("a c g t", b, " ")
        for (i = 0; i < n; i++) { l = ""
            for (j = 0; j < 150; j++) l = l b[int(rand() * 4) + 1]
            print l } }'
}

# primers SEED N FILE: N primers of 8-32 bases cut from the reads of FILE,
# one in 3 with a substitution, one in 5 in upper case
primers() {
    awk -v s="$1" -v n="$2" 'BEGIN { srand(s) } { r[NR] = $0 }
        END { split("a c g t", b, " ")
            for (i = 0; i < n; i++) {
                l = r[int(rand() * NR) + 1]; len = 8 + int(rand() * 25)
                p = substr(l, 1 + int(rand() * (151 - len)), len)
                if (i % 3 == 1) { x = 1 + int(rand() * len)
                    p = substr(p, 1, x - 1) b[int(rand() * 4) + 1] substr(p, x + 1) }
                if (i % 5 == 2) p = toupper(p)
                print p } }' "$3"
}

setup_file() {
    need_tools oracle
    case_dir
    reads 23 400 > "$CASES/reads"
    primers 5 40 "$CASES/reads" > "$CASES/primers"
    reads 7 6000 > "$CASES/big"
    primers 11 300 "$CASES/big" > "$CASES/p300"
    head -300 "$CASES/big" > "$CASES/small"
}

setup() {
    begin_checks
    GEN="(reads/primers: tests/pp.bats setup_file)"
}

FLAGS=("-c" "-n" "-w" "-c -i" "-n -w" "-i -n")
# ALL: 1 in check-full, where each case runs every setting; make check takes
# the settings in turn (each still on several cases, at several k)
ALL=$(depth 0 1)

@test "pp: forced on, off and automatic agree with the oracle on primers in DNA reads" {
    # (check-full: ten flag sets and k, a quarter of the 42; make check:
    # seven, a sixth, each flag set and each k once, forced on at one level
    # and one of forced off, automatic and tiny chunks, each in turn: every
    # level and every other setting on two or three of the seven)
    local k f i=0 n=0 isa j every
    every=$(depth 6 4)
    for k in 0 1 2 3 4 5 6; do
        for f in "${FLAGS[@]}"; do
            i=$((i + 1))
            [ $((i % every)) -eq $((k % every)) ] || continue
            n=$((n + 1))
            j=0
            for isa in baseline avx2 ""; do
                ((ALL || n % 3 == j++)) || continue
                # shellcheck disable=SC2086
                check "AGREP_GPU_DEVICE=host AGREP_GPU_HOST_ENGINE=pp AGREP_GPU_ISA=$isa" "" \
                    $f -k "$k" -f "$CASES/primers" "$CASES/reads"
            done
            if ((ALL || (n + n / 3) % 3 == 0)); then
                # shellcheck disable=SC2086
                check "AGREP_GPU_DEVICE=host AGREP_GPU_HOST_ENGINE=nopp" "" \
                    $f -k "$k" -f "$CASES/primers" "$CASES/reads"
            fi
            if ((ALL || (n + n / 3) % 3 == 1)); then
                # shellcheck disable=SC2086
                check "AGREP_GPU_DEVICE=host" "" $f -k "$k" -f "$CASES/primers" "$CASES/reads"
            fi
            if ((ALL || (n + n / 3) % 3 == 2)); then
                # shellcheck disable=SC2086
                check "AGREP_GPU_DEVICE=host AGREP_GPU_HOST_ENGINE=pp AGREP_GPU_CHUNK=$((300 + 41 * k))" "" \
                    $f -k "$k" -f "$CASES/primers" "$CASES/reads"
            fi
        done
    done
    end_checks
}

@test "pp: 300 primers on 6,000 reads, forced on agrees with forced off" {
    # (make check: every other flag set a k, in turn (-c and -o -i at k 0
    # and 4, -n and -w at 3, -c at 6: seven of the thirteen), forced on at
    # AVX2 or at the native level, in turn: -c at both, -o -i and -n at
    # AVX2, -w at the native level; check-full: all thirteen, each flag
    # set and each k below 6 at both)
    local k f in n=0 isa j kn=0
    for k in 0 3 4 6; do
        kn=$((kn + 1))
        for f in -c -n "-o -i" -w; do
            [ "$k" -lt 6 ] || [ "$f" = -c ] || continue
            n=$((n + 1))
            ((ALL || k == 6 || (n + kn) % 2 == 0)) || continue
            # -o and -w refine every selected line: on 500 reads only
            in=$CASES/big
            case $f in -o*|-w) in=$CASES/small ;; esac
            # shellcheck disable=SC2086
            AGREP_GPU_DEVICE=host AGREP_GPU_HOST_ENGINE=nopp agrep-gpu $f -k "$k" \
                -f "$CASES/p300" "$in" > "$BATS_TEST_TMPDIR/want" || true
            j=0
            for isa in avx2 ""; do
                ((ALL || (n + n / 4 + j++) % 2)) || continue
                # shellcheck disable=SC2086
                AGREP_GPU_DEVICE=host AGREP_GPU_HOST_ENGINE=pp AGREP_GPU_ISA=$isa \
                    agrep-gpu $f -k "$k" -f "$CASES/p300" "$in" \
                    > "$BATS_TEST_TMPDIR/got" || true
                if ! cmp -s "$BATS_TEST_TMPDIR/want" "$BATS_TEST_TMPDIR/got"; then
                    echo "differs: AGREP_GPU_ISA=$isa agrep-gpu $f -k $k -f p300 $in"
                    diff "$BATS_TEST_TMPDIR/want" "$BATS_TEST_TMPDIR/got" | head -5
                    return 1
                fi
            done
        done
    done
    # and the automatic choice at k = 4 (the engine without the filters)
    AGREP_GPU_DEVICE=host agrep-gpu -c -k4 -f "$CASES/p300" "$CASES/big" > "$BATS_TEST_TMPDIR/a"
    AGREP_GPU_DEVICE=host AGREP_GPU_HOST_ENGINE=nopp agrep-gpu -c -k4 -f "$CASES/p300" "$CASES/big" > "$BATS_TEST_TMPDIR/b"
    cmp "$BATS_TEST_TMPDIR/a" "$BATS_TEST_TMPDIR/b"
}

@test "pp: the pattern-parallel OpenCL kernel (POCL, AGREP_GPU_PP=1) agrees with the oracle" {
    # (each flag set at a third of the k in check-full; make check and
    # slow builds, a sixth: each flag set and each k once; make check: of
    # the three runs below one a flag set and k, in turn, each at two or
    # three of the seven, low k and high)
    local k f i=0 n=0 every
    every=$(depth 6 3 6)
    for k in 0 1 2 3 4 5 6; do
        for f in "${FLAGS[@]}"; do
            i=$((i + 1))
            [ $((i % every)) -eq $((k % every)) ] || continue
            n=$((n + 1))
            if ((ALL || (n + n / 3) % 3 == 0)); then
                # shellcheck disable=SC2086
                check "AGREP_GPU_DEVICE=cpu AGREP_GPU_PP=1" "" \
                    $f -k "$k" -f "$CASES/primers" "$CASES/reads"
            fi
            # the lazy score (calm strides skip it), forced
            if ((ALL || (n + n / 3) % 3 == 1)); then
                # shellcheck disable=SC2086
                check "AGREP_GPU_DEVICE=cpu AGREP_GPU_PP=1 AGREP_GPU_PP_LAZY=1" "" \
                    $f -k "$k" -f "$CASES/primers" "$CASES/reads"
            fi
            # chunks cut inside records: the warm-up before a slice
            if ((ALL || (n + n / 3) % 3 == 2)); then
                # shellcheck disable=SC2086
                check "AGREP_GPU_DEVICE=cpu AGREP_GPU_PP=1 AGREP_GPU_CHUNK=$((300 + 41 * k))" "" \
                    $f -k "$k" -f "$CASES/primers" "$CASES/reads"
            fi
        done
    done
    end_checks
}

@test "pp: 300 primers on 6,000 reads, the pattern-parallel OpenCL kernel agrees with the host" {
    # (make check: with and without the lazy score in turn, at k 2 with, 4
    # without; check-full: k 0, 2 and 4, both)
    local k lazy
    for k in $(depth "2 4" "0 2 4"); do
        AGREP_GPU_DEVICE=host agrep-gpu -n -k "$k" -f "$CASES/p300" "$CASES/big" \
            > "$BATS_TEST_TMPDIR/want" || true
        for lazy in $(depth $((k / 2 % 2)) "0 1"); do
            AGREP_GPU_DEVICE=cpu AGREP_GPU_PP=1 AGREP_GPU_PP_LAZY=$lazy agrep-gpu \
                -n -k "$k" -f "$CASES/p300" "$CASES/big" > "$BATS_TEST_TMPDIR/got" || true
            if ! cmp -s "$BATS_TEST_TMPDIR/want" "$BATS_TEST_TMPDIR/got"; then
                echo "differs: AGREP_GPU_PP_LAZY=$lazy -n -k $k -f p300 big"
                diff "$BATS_TEST_TMPDIR/want" "$BATS_TEST_TMPDIR/got" | head -5
                return 1
            fi
        done
    done
}

@test "pp: the prefix filter (AVX2, AVX-512) on at every block, and on every other block, agrees with the DP (exhaustive -q)" {
    # (src/engines/pp_body.h, PP_FILT16: AGREP_GPU_PP16=1 verifies every
    # candidate, alt switches to the exact step and back at each 16 KB
    # block: the warm-ups; on a CPU without AVX2 the generic engine runs)
    # (make check: exhaustive's own pp_blocks, which set AGREP_GPU_PP16
    # themselves and were two thirds of each run, on 256 KB at k 3 and 5,
    # as tests/qemu.sh runs them; exhaustive.bats scans their 1 MB)
    local e blocks
    blocks=$(depth 256 "")
    for e in 1 alt; do
        run -0 env ${blocks:+EXH_PP_BLOCKS_KB=$blocks} AGREP_GPU_PP16=$e exhaustive -q
        assert_output --partial "all agree with the DP"
    done
}
