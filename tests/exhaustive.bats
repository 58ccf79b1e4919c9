#!/usr/bin/env bats
# The host matcher's engines (scalar hm_scan_scalar, the SIMD variants of
# src/simd.c, hm_scan's dispatch) against a Sellers DP, bit by bit, on every
# pattern of length 1-4 over {a,b} with every text of length 0-8 over
# {a,b,\n}, and every pattern of length 1-3 over {a,b,c} with every text of
# length 0-6 over {a,b,c,\n}, every k from 0 to the pattern length, with
# slices of 1 byte and more, and the shared many-pattern filter on every
# pattern, pair and whole set of those (tests/exhaustive.c).  Under `make
# check-sanitize` (AGREP_GPU names the build/san binary) the same program
# built with AddressSanitizer and UBSan runs instead, on smaller sets (-q);
# `make check` runs every pattern of the sets on texts one byte shorter
# (-m: 12 s against 45 on the 2-core EPYC), check-full the whole sets.  The second test runs
# the OpenCL kernel on POCL over the same sets (tests/exhaustive_ocl.c):
# slices of 64 bytes and more, one lane or vector lanes, and chunks cut at
# every offset with the warm-up in the pad (not under the sanitizers: POCL
# is not built for them); `make check` runs it on texts of 0-7 and 0-5
# bytes (-m), check-full and check-pocl on the full sets.
load test_helper

@test "exhaustive: host engines agree with the DP on every small case" {
    local prog=exhaustive q=
    [ "$(depth quick full)" = full ] || q=-m
    # (the sanitizer build on the smaller sets, as tests/tests.mk says)
    case $AGREP_GPU in */san/*) prog=exhaustive-san q=-q ;; esac
    if ! command -v "$prog" >/dev/null; then
        echo "tests/bin/$prog missing: run 'make test-progs'" >&2
        return 1
    fi
    run "$prog" $q
    echo "$output"
    assert_success
    assert_output --partial "all agree with the DP"
    echo "# $output" >&3
}

@test "exhaustive: the OpenCL kernel on POCL agrees with the DP on every small case" {
    case $AGREP_GPU in */san/*) skip "POCL under the sanitizers: not run" ;; esac
    if ! command -v exhaustive-ocl >/dev/null; then
        echo "tests/bin/exhaustive-ocl missing: run 'make test-progs'" >&2
        return 1
    fi
    # full (AGREP_GPU_TESTS=full, and `make check-pocl`, which sets
    # AGREP_GPU_DEVICE): the full bound above, about 60 s on two cores.
    # quick (`make check`): -m, the middle bound: every single pattern of
    # the full sets (1-4 over {a,b}, 1-3 over {a,b,c}, every k) and all of
    # them at once, every shape and chunk cut, on texts of 0-7 bytes over
    # {a,b,\n} and 0-5 over {a,b,c,\n}, pairs of patterns of 1-2 bytes
    # over each alphabet (tests/exhaustive_ocl.c); about 7-12 s.
    local bound=-m
    if [ -n "${AGREP_GPU_DEVICE:-}" ] || [ "$(depth quick full)" = full ]; then
        bound=
    fi
    run exhaustive-ocl $bound
    echo "$output"
    assert_success
    assert_output --partial "all agree with the DP"
    echo "# $output" >&3
}
