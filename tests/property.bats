#!/usr/bin/env bats
# Property tests: agrep-gpu against the naive dynamic-programming oracle
# (tests/oracle.c) on random texts and patterns from tests/randgen.c, through
# every matching path: the host matcher, the OpenCL device with tiny slices and
# chunks, default settings, stdin, and -z.
#
# Knobs (environment): PROPERTY_SEEDS (number of random cases, default 6: each
# flag set on the host and on the device, over the tests that take FLAGSETS
# by seed; 300 with AGREP_GPU_TESTS=full),
# PROPERTY_SEED0 (first seed, default 1).  A failure prints the seed, k, the
# patterns, the exact command and a diff; reproduce it with the printed
# "repro:" line from the top of the repository.  `make check` (quick) runs
# fewer seeds and, where a test crosses settings with cases, each case with
# some of the settings by turns (each test says how); AGREP_GPU_TESTS=full
# every one.
load test_helper

NSEEDS="${PROPERTY_SEEDS:-$(depth 6 300)}"
SEED0="${PROPERTY_SEED0:-1}"
# the oracle against tre-agrep takes the single-pattern cases among the
# first NSEEDS seeds (at most 60 of them), or the first NTRE0 when NSEEDS
# is less: full, 60 (33 cases); quick, 30 (19 cases)
NTRE0=$(depth 30 60)
NTRE=$((NSEEDS > NTRE0 ? NSEEDS : NTRE0))
FLAGSETS=("" "-i" "-v" "-c" "-n" "-i -n" "-v -c" "-i -v -n")
TINY_CHUNKS=(100 257 4096 64)

setup_file() {
    if ! command -v randgen >/dev/null || ! command -v oracle >/dev/null; then
        echo "tests/bin/randgen or tests/bin/oracle missing: run 'make test-progs'" >&2
        return 1
    fi
    local c="$BATS_FILE_TMPDIR/cases" s
    mkdir -p "$c"
    for ((s = SEED0; s < SEED0 + NTRE; s++)); do
        randgen "$s" "$c/t.$s" "$c/p.$s" > "$c/k.$s"
        echo "$s" > "$c/g.$s" # randgen arguments, for the repro line
        # (-z takes the first NSEEDS)
        [ "$s" -ge $((SEED0 + NSEEDS)) ] || tr '\n' '\0' < "$c/t.$s" > "$c/z.$s"
    done
}

setup() {
    CASES="$BATS_FILE_TMPDIR/cases"
    W="$BATS_TEST_TMPDIR"
    FAILS="$W/failures"
    NFAIL=0
    : > "$FAILS"
}

# printable, bounded view of output lines (long random lines, control bytes)
show() { cut -c1-150 | cat -v; }

# check SEED HOW ENVS FLAGS
#   HOW: file | stdin | zfile | zstdin.  ENVS: "VAR=value ..." for agrep-gpu.
# Runs agrep-gpu and the oracle on case SEED; on any difference in stdout,
# exit status, or a non-empty stderr, appends a report to $FAILS.
check() {
    local s=$1 how=$2 envs=$3 flags=$4 k desc
    read -r k desc < "$CASES/k.$s"
    local t="$CASES/t.$s" p="$CASES/p.$s" zf="" in
    case $how in z*) zf=-z; t="$CASES/z.$s" ;; esac
    local orc=0 rc=0
    # shellcheck disable=SC2086
    oracle $zf $flags -k "$k" -f "$p" "$t" > "$W/exp" || orc=$?
    case $how in
        *file)
            # shellcheck disable=SC2086
            env $envs agrep-gpu -F -k "$k" $zf $flags -f "$p" "$t" > "$W/out" 2> "$W/err" || rc=$?
            in="\$T" ;;
        *stdin)
            # shellcheck disable=SC2086
            env $envs agrep-gpu -F -k "$k" $zf $flags -f "$p" < "$t" > "$W/out" 2> "$W/err" || rc=$?
            in="< \$T" ;;
    esac
    if [ "$rc" = "$orc" ] && [ ! -s "$W/err" ] && cmp -s "$W/exp" "$W/out"; then
        return 0
    fi
    NFAIL=$((NFAIL + 1))
    [ "$NFAIL" -le 4 ] || return 0 # report the first few in full
    {
        echo "---- FAIL seed=$s k=$k ($desc)"
        echo "  run:      $envs agrep-gpu -F -k $k $zf $flags -f \$P $in"
        local gen="tests/bin/randgen $(cat "$CASES/g.$s") /tmp/T /tmp/P"
        [ -n "$zf" ] && gen="$gen && tr '\\n' '\\0' < /tmp/T > /tmp/Z && mv /tmp/Z /tmp/T"
        echo "  repro:    $gen && T=/tmp/T P=/tmp/P; diff <(tests/bin/oracle $zf $flags -k $k -f \$P \$T) <($envs ./agrep-gpu -F -k $k $zf $flags -f \$P $in)"
        echo "  patterns:"
        local pat
        while IFS= read -r pat || [ -n "$pat" ]; do
            printf '    (%d bytes) %q\n' "${#pat}" "$pat"
        done < "$p"
        echo "  exit status: agrep-gpu $rc, oracle $orc"
        [ -s "$W/err" ] && { echo "  stderr:"; head -5 "$W/err" | show | sed 's/^/    /'; }
        echo "  diff (< oracle, > agrep-gpu; lines cut at 150 bytes):"
        diff <(tr '\0' '\n' < "$W/exp") <(tr '\0' '\n' < "$W/out") | head -12 | show | sed 's/^/    /'
    } >> "$FAILS"
}

# fail the test if check() recorded failures
verdict() {
    if [ "$NFAIL" -gt 0 ]; then
        cat "$FAILS"
        echo "$NFAIL mismatching run(s) out of $1"
        return 1
    fi
}

@test "oracle: hand-computed distances" {
    # oracle self-check, independent of agrep-gpu
    printf 'xxabxx\naxc\na\n\nabc\nxaYbcx\nABC\n' > "$W/t"
    run oracle -k 1 abc "$W/t"
    assert_output "$(printf 'xxabxx\naxc\nabc\nxaYbcx')"
    run oracle -k 0 abc "$W/t"
    assert_output abc
    run oracle -i -k 0 abc "$W/t"
    assert_output "$(printf 'abc\nABC')"
    run oracle -k 2 abc "$W/t"
    assert_output "$(printf 'xxabxx\naxc\na\nabc\nxaYbcx')"   # not "" nor ABC: 3 edits
    run oracle -k 3 abc "$W/t"
    assert_output "$(printf 'xxabxx\naxc\na\n\nabc\nxaYbcx\nABC')" # k >= n: all
    run oracle -c -v -n -k 1 abc "$W/t"
    assert_output 3
    run oracle -n -v -k 1 abc "$W/t"
    assert_output "$(printf '3:a\n4:\n7:ABC')"
    printf 'abc' > "$W/u"                                          # unterminated
    run oracle -k 0 -e zz -e abc "$W/u"
    assert_output abc
    run oracle -k 0 "$(printf 'zz\nbc')" - < "$W/u"                 # '\n' splits
    assert_output abc
    run oracle -k 0 -e '' "$W/t"                                    # empty: all
    assert_output "$(cat "$W/t")"
    run oracle -k 0 zz "$W/t"
    assert_failure 1
}

@test "oracle agrees with tre-agrep on random single-pattern cases" {
    # tre-agrep mangles an unterminated last line: only terminated cases
    local s k desc pat n=0 rc orc
    for ((s = SEED0; s < SEED0 + NTRE && n < 60; s++)); do
        read -r k desc < "$CASES/k.$s"
        [ "$(wc -l < "$CASES/p.$s")" = 1 ] || continue
        case $desc in *unterminated*) continue ;; esac
        pat=$(cat "$CASES/p.$s")
        [ -n "$pat" ] || continue
        n=$((n + 1))
        local flags=${FLAGSETS[s % 3]}  # "", -i, -v
        # shellcheck disable=SC2086
        oracle $flags -k "$k" -f "$CASES/p.$s" "$CASES/t.$s" > "$W/exp" || true
        # shellcheck disable=SC2086
        tre-agrep $flags -k -E "$k" -e "$pat" "$CASES/t.$s" > "$W/out" 2>&1 || true
        if ! cmp -s "$W/exp" "$W/out"; then
            echo "oracle and tre-agrep differ: seed=$s k=$k flags=$flags ($desc)"
            diff "$W/exp" "$W/out" | head -10 | show
            return 1
        fi
    done
    [ "$n" -ge $((NTRE0 / 2)) ]
}

@test "host matcher (AGREP_GPU_DEVICE=host) agrees with the oracle" {
    local s
    for ((s = SEED0; s < SEED0 + NSEEDS; s++)); do
        check "$s" file "AGREP_GPU_DEVICE=host" "${FLAGSETS[s % 8]}"
        check "$s" file "AGREP_GPU_DEVICE=host" "${FLAGSETS[(s + 3) % 8]}"
    done
    verdict $((2 * NSEEDS))
}

@test "OpenCL with 64-byte slices and tiny chunks agrees with the oracle" {
    local s
    for ((s = SEED0; s < SEED0 + NSEEDS; s++)); do
        check "$s" file "AGREP_GPU_HOST_MAX=0 AGREP_GPU_SLICE=64 AGREP_GPU_CHUNK=${TINY_CHUNKS[s % 4]}" \
            "${FLAGSETS[(s + 1) % 8]}"
    done
    verdict "$NSEEDS"
}

@test "OpenCL with default slices and chunks agrees with the oracle" {
    local s
    for ((s = SEED0; s < SEED0 + NSEEDS; s++)); do
        check "$s" file "AGREP_GPU_HOST_MAX=0" "${FLAGSETS[(s + 2) % 8]}"
    done
    verdict "$NSEEDS"
}

@test "default settings agree with the oracle" {
    local s
    for ((s = SEED0; s < SEED0 + NSEEDS; s++)); do
        check "$s" file "" "${FLAGSETS[(s + 5) % 8]}"
    done
    verdict "$NSEEDS"
}

@test "standard input agrees with the oracle (default, host, OpenCL tiny chunks)" {
    local s
    for ((s = SEED0; s < SEED0 + NSEEDS; s++)); do
        case $((s % 3)) in
            0) check "$s" stdin "" "${FLAGSETS[(s + 4) % 8]}" ;;
            1) check "$s" stdin "AGREP_GPU_DEVICE=host" "${FLAGSETS[(s + 4) % 8]}" ;;
            2) check "$s" stdin "AGREP_GPU_HOST_MAX=0 AGREP_GPU_SLICE=64 AGREP_GPU_CHUNK=${TINY_CHUNKS[s % 4]}" \
                "${FLAGSETS[(s + 4) % 8]}" ;;
        esac
    done
    verdict "$NSEEDS"
}

@test "-z (NUL-terminated records) agrees with the oracle" {
    local s n=0
    for ((s = SEED0; s < SEED0 + NSEEDS; s += 2)); do
        check "$s" zfile "AGREP_GPU_DEVICE=host" "${FLAGSETS[(s + 6) % 8]}"
        check "$s" zfile "AGREP_GPU_HOST_MAX=0 AGREP_GPU_SLICE=64 AGREP_GPU_CHUNK=${TINY_CHUNKS[s % 4]}" \
            "${FLAGSETS[(s + 7) % 8]}"
        check "$s" zstdin "AGREP_GPU_HOST_MAX=0" "${FLAGSETS[s % 8]}"
        n=$((n + 3))
    done
    verdict "$n"
}

@test "insertions straddling a slice boundary are found" {
    # Each line holds the pattern with k insertions, starting before
    # B - (n - 1) and ending at or after B, B a multiple of 64.  A slice that
    # warms up with only n - 1 bytes misses it; n + k - 1 bytes find it.
    # full: 12 cases, each through the five settings; quick: the first 5,
    # each through one of them by turns, setting s % 5 (each setting
    # once; the first four are the device's)
    local s k desc lines i
    local -a sets=("AGREP_GPU_HOST_MAX=0 AGREP_GPU_SLICE=64" \
                   "AGREP_GPU_HOST_MAX=0 AGREP_GPU_SLICE=64 AGREP_GPU_CHUNK=64" \
                   "AGREP_GPU_HOST_MAX=0 AGREP_GPU_SLICE=64 AGREP_GPU_CHUNK=192" \
                   "AGREP_GPU_HOST_MAX=0" \
                   "AGREP_GPU_DEVICE=host")
    for s in $(seq 1 "$(depth 5 12)"); do
        randgen -s "$s" "$W/t" "$W/p" "$W/ctl" > "$W/info"
        read -r k desc < "$W/info"
        lines=$(wc -l < "$W/t")
        # the case is genuine: every line matches, neither half of any does
        run oracle -c -k "$k" -f "$W/p" "$W/t"
        assert_output "$lines"
        run oracle -c -k "$k" -f "$W/p" "$W/ctl"
        assert_output 0
        local envs
        for ((i = 0; i < 5; i++)); do
            envs=${sets[i]}
            [ "$(depth quick full)" = full ] || [ "$i" = $((s % 5)) ] || continue
            # shellcheck disable=SC2086
            run env $envs agrep-gpu -F -k "$k" -f "$W/p" "$W/t"
            if [ "$status" -ne 0 ] || [ "$output" != "$(cat "$W/t")" ]; then
                echo "straddling match missed: seed=$s k=$k ($desc)"
                echo "repro: tests/bin/randgen -s $s /tmp/T /tmp/P /tmp/C && $envs ./agrep-gpu -F -k $k -f /tmp/P /tmp/T | diff /tmp/T -"
                diff <(cat "$W/t") <(printf '%s\n' "$output") | head -10
                return 1
            fi
        done
    done
}

@test "edge cases: empty input, empty lines, unterminated line, k >= n, empty and multi-line patterns" {
    printf '' > "$W/empty"
    printf '\n' > "$W/nl"
    printf '\n\n\n' > "$W/nls"
    printf 'abc' > "$W/unterm"
    printf 'abc\r\nxbc\r\n\r\nab\r\n' > "$W/crlf"
    printf 'hello\n\nworld\nhelo\n\nHELLO wrld\n' > "$W/words"
    # full: every file with every setting, every argument set and every
    # -e form; quick: each file with a quarter of the argument sets
    # ((file + set) % 4 = 0: each set meets one or two files), each with
    # one setting by turns ((file + setting + set) % 3 = 0: every file
    # meets the three settings, file + set being 4, 8, 12 and 16 or 8,
    # 12, 16 and 20), and one -e form a file, at setting file % 3 + 1,
    # the form (file + setting + form) % 3 = 0 (each form twice, at one
    # setting each, every setting twice)
    local f envs a rc orc n=0 fx=0 ex ax full=
    [ "$(depth quick full)" = quick ] || full=1
    local -a argsets=(
        "-k 0 abc" "-k 1 abc" "-k 3 abc" "-k 2 abc" "-k 5 abc" "-k 0 a" "-k 1 a"
        "-c -k 3 abc" "-v -k 1 abc" "-n -k 2 abc" "-k 1 hello" "-i -k 0 hello"
        "-i -k 1 world" "-v -c -k 9 hello" "-k 4 hello" "-k 5 hello"
    )
    for f in empty nl nls unterm crlf words; do
        fx=$((fx + 1)) ex=0
        for envs in "AGREP_GPU_DEVICE=host" "AGREP_GPU_HOST_MAX=0 AGREP_GPU_SLICE=64 AGREP_GPU_CHUNK=100" ""; do
            ex=$((ex + 1)) ax=0
            for a in "${argsets[@]}"; do
                ax=$((ax + 1))
                [ -n "$full" ] || { [ $(((fx + ax) % 4)) = 0 ] && [ $(((fx + ex + ax) % 3)) = 0 ]; } || continue
                n=$((n + 1))
                rc=0 orc=0
                # shellcheck disable=SC2086
                oracle $a "$W/$f" > "$W/exp" || orc=$?
                # shellcheck disable=SC2086
                env $envs agrep-gpu $a "$W/$f" > "$W/out" 2> "$W/err" || rc=$?
                if [ "$rc" != "$orc" ] || [ -s "$W/err" ] || ! cmp -s "$W/exp" "$W/out"; then
                    echo "mismatch: $envs agrep-gpu $a on $(od -An -c "$W/$f" | tr -s ' ' | head -2)"
                    echo "exit $rc (oracle $orc); stderr: $(head -2 "$W/err")"
                    diff "$W/exp" "$W/out" | head -10
                    return 1
                fi
            done
            [ -n "$full" ] || [ "$ex" = $((fx % 3 + 1)) ] || continue
            # -e with an empty pattern, a pattern with '\n', several -e, stdin
            if [ -n "$full" ] || [ $(((fx + ex + 1) % 3)) = 0 ]; then
                rc=0 orc=0
                oracle -k 0 -e '' "$W/$f" > "$W/exp" || orc=$?
                # shellcheck disable=SC2086
                env $envs agrep-gpu -k 0 -e '' < "$W/$f" > "$W/out" 2> "$W/err" || rc=$?
                [ "$rc" = "$orc" ] && cmp -s "$W/exp" "$W/out" ||
                    { echo "empty pattern: $envs on $f: exit $rc"; diff "$W/exp" "$W/out"; return 1; }
            fi
            if [ -n "$full" ] || [ $(((fx + ex + 2) % 3)) = 0 ]; then
                rc=0 orc=0
                oracle -k 1 "$(printf 'xyz\nbc')" "$W/$f" > "$W/exp" || orc=$?
                # shellcheck disable=SC2086
                env $envs agrep-gpu -k 1 "$(printf 'xyz\nbc')" "$W/$f" > "$W/out" 2> "$W/err" || rc=$?
                [ "$rc" = "$orc" ] && cmp -s "$W/exp" "$W/out" ||
                    { echo "pattern with newline: $envs on $f: exit $rc"; diff "$W/exp" "$W/out"; return 1; }
            fi
            if [ -n "$full" ] || [ $(((fx + ex + 3) % 3)) = 0 ]; then
                rc=0 orc=0
                oracle -k 1 -e wrld -e xbc "$W/$f" > "$W/exp" || orc=$?
                # shellcheck disable=SC2086
                env $envs agrep-gpu -1 -e wrld -e xbc "$W/$f" > "$W/out" 2> "$W/err" || rc=$?
                [ "$rc" = "$orc" ] && cmp -s "$W/exp" "$W/out" ||
                    { echo "-1 -e -e: $envs on $f: exit $rc"; diff "$W/exp" "$W/out"; return 1; }
            fi
        done
    done
    # every run made: 6 files x 16 argument sets x 3 settings (quick: a
    # quarter of the pairs x 1)
    [ "$n" = $((6 * ${#argsets[@]} * $(depth 1 12) / 4)) ]
}

@test "patterns longer than 64 bytes (several words) agree with the oracle" {
    local s n=0 l0=$((100000 + SEED0 - 1)) nl
    # a separate set of cases (randgen -l), in $CASES under seeds 100000+:
    # full, 40 of them; quick, 6 (each flag set on one path or more,
    # each tiny chunk size)
    nl=$(depth 6 40)
    for ((s = l0; s < l0 + nl; s++)); do
        randgen -l "$s" "$CASES/t.$s" "$CASES/p.$s" > "$CASES/k.$s"
        echo "-l $s" > "$CASES/g.$s"
    done
    for ((s = l0; s < l0 + nl; s++)); do
        check "$s" file "AGREP_GPU_DEVICE=host" "${FLAGSETS[s % 8]}"
        check "$s" file "AGREP_GPU_HOST_MAX=0 AGREP_GPU_SLICE=64 AGREP_GPU_CHUNK=${TINY_CHUNKS[s % 4]}" "${FLAGSETS[(s + 1) % 8]}"
        check "$s" stdin "" "${FLAGSETS[(s + 2) % 8]}"
        n=$((n + 3))
    done
    verdict "$n"
}
