#!/usr/bin/env bats
# agrep-gpu against tre-agrep (literal mode, -k) on the King James Bible
# (Debian package bible-kjv, 4.3 MB), the seed paper's corpus.  The Bible text
# ends with a newline, so tre-agrep's unterminated-last-line bug does not bite.
# make check searches the first quarter of it, AGREP_GPU_TESTS=full all of it.
# Each case compares the selected lines exactly (file, stdin, host matcher,
# OpenCL with small chunks; make check: two or three of these ways a case,
# by turns) and the -c count.  On a mismatch, the naive oracle
# (tests/bin/oracle) is run too, to say which side is wrong.
load test_helper

setup_file() {
    local tool
    for tool in bible tre-agrep; do
        command -v "$tool" >/dev/null ||
            { echo "$tool missing: 'make deps' installs it (bible-kjv, tre-agrep)" >&2; return 1; }
    done
    KJV="$BATS_FILE_TMPDIR/kjv.txt"
    bible "Gen1:1-Rev22:21" > "$KJV"
    # sanity: the whole Bible, newline-terminated
    [ "$(wc -c < "$KJV")" -gt 4000000 ] && [ "$(tail -c 1 "$KJV" | od -An -c | tr -d ' ')" = '\n' ] ||
        { echo "unexpected output from bible(1)" >&2; return 1; }
    # make check: the first quarter of the Bible (tre-agrep takes 1-2 s a
    # case on the whole); AGREP_GPU_TESTS=full: all of it
    if [ "$(depth quick full)" = quick ]; then
        head -n 25000 "$KJV" > "$KJV.q" && mv "$KJV.q" "$KJV"
    fi
}

setup() {
    KJV="$BATS_FILE_TMPDIR/kjv.txt"
    W="$BATS_TEST_TMPDIR"
}

# same FLAGS K PATTERN: tre-agrep FLAGS -k -E K -e PATTERN  vs  agrep-gpu
# Full (AGREP_GPU_TESTS=full): the seven ways below for every case, and -c
# by default and on OpenCL, from the file and from standard input, and
# tre-agrep -c against tre-agrep's lines.  Quick: the file by default, by
# turns (the test's number % 3) one of the next three ways, and one POCL
# run a case (its start-up and the scan are the cost): on an even number
# the ((number / 2) % 3)-th of the three OpenCL ways, on an odd one -c on
# OpenCL, from the file or standard input by turns ((number / 2) % 2);
# -c by default both ways, against tre-agrep's lines (tre-agrep -c, a
# second run of the reference, in full only).
same() {
    local flags=$1 k=$2 pat=$3 rc trc=0 envs how n hi=0 full=0 t=$((BATS_TEST_NUMBER % 3))
    local nb=$BATS_TEST_NUMBER o=$((BATS_TEST_NUMBER / 2 % 3)) ocl=$((BATS_TEST_NUMBER / 2 % 2))
    [ "$(depth quick full)" = quick ] || full=1
    # shellcheck disable=SC2086
    tre-agrep $flags -k -E "$k" -e "$pat" "$KJV" > "$W/exp" || trc=$?
    [ "$trc" -le 1 ] || { echo "tre-agrep failed ($trc)"; return 1; }
    n=$(wc -l < "$W/exp")
    for how in "file|" "stdin|" "file|AGREP_GPU_DEVICE=host" "stdin|AGREP_GPU_DEVICE=host" \
               "file|AGREP_GPU_HOST_MAX=0 AGREP_GPU_CHUNK=65536" \
               "stdin|AGREP_GPU_HOST_MAX=0 AGREP_GPU_CHUNK=100000" \
               "file|AGREP_GPU_HOST_MAX=0 AGREP_GPU_SLICE=64"; do
        hi=$((hi + 1))
        ((full || hi == 1 || hi == 2 + t || (nb % 2 == 0 && hi == 5 + o))) || continue
        envs=${how#*|}
        rc=0
        if [ "${how%%|*}" = file ]; then
            # shellcheck disable=SC2086
            env $envs agrep-gpu $flags -k "$k" -e "$pat" "$KJV" > "$W/out" 2> "$W/err" || rc=$?
        else
            # shellcheck disable=SC2086
            env $envs agrep-gpu $flags -k "$k" -e "$pat" < "$KJV" > "$W/out" 2> "$W/err" || rc=$?
        fi
        if [ "$rc" != "$trc" ] || [ -s "$W/err" ] || ! cmp -s "$W/exp" "$W/out"; then
            echo "MISMATCH ($how): $envs agrep-gpu $flags -k $k -e '$pat' (kjv.txt)"
            echo "exit status: agrep-gpu $rc, tre-agrep $trc; lines: agrep-gpu $(wc -l < "$W/out"), tre-agrep $n"
            [ -s "$W/err" ] && head -3 "$W/err"
            echo "diff (< tre-agrep, > agrep-gpu):"
            diff "$W/exp" "$W/out" | head -10
            # shellcheck disable=SC2086
            echo "oracle selects $(oracle $flags -c -k "$k" -e "$pat" "$KJV") lines"
            return 1
        fi
    done
    # the count, with -c, against tre-agrep -c
    local tc=$n
    if ((full)); then
        # shellcheck disable=SC2086
        tc=$(tre-agrep $flags -c -k -E "$k" -e "$pat" "$KJV") || true
        [ "$tc" = "$n" ] || { echo "tre-agrep -c says $tc, its lines $n"; return 1; }
    fi
    for envs in "" "AGREP_GPU_HOST_MAX=0 AGREP_GPU_CHUNK=65536"; do
        ((full)) || [ -z "$envs" ] || ((nb % 2 == 1)) || continue
        if ((full)) || [ -z "$envs" ] || ((ocl == 0)); then
        # shellcheck disable=SC2086
        run env $envs agrep-gpu $flags -c -k "$k" -e "$pat" "$KJV"
        [ "$output" = "$tc" ] || { echo "$envs agrep-gpu -c: $output, tre-agrep -c: $tc"; return 1; }
        fi
        ((full)) || [ -z "$envs" ] || ((ocl == 1)) || continue
        # shellcheck disable=SC2086
        run env $envs agrep-gpu $flags -c -k "$k" -e "$pat" < "$KJV"
        [ "$output" = "$tc" ] || { echo "$envs agrep-gpu -c (stdin): $output, tre-agrep -c: $tc"; return 1; }
    done
    echo "# $flags -k $k '$pat': $n lines" >&3
}

@test "kjv: LORD k=1" { same "" 1 LORD; }
@test "kjv: mercy k=2" { same "" 2 mercy; }
@test "kjv: endureth k=2" { same "" 2 endureth; }
@test "kjv: righteousness k=3" { same "" 3 righteousness; }
@test "kjv: 'for his mercy endureth for ever' k=2" { same "" 2 "for his mercy endureth for ever"; }
@test "kjv: 'for his mercy endureth for ever' k=4" { same "" 4 "for his mercy endureth for ever"; }
@test "kjv: mercy k=0" { same "" 0 mercy; }
@test "kjv: Jerusalem k=2" { same "" 2 Jerusalem; }
@test "kjv: begat k=1, -n" { same "-n" 1 begat; }
@test "kjv: 52-byte phrase k=5" { same "" 5 "Speak unto the children of Israel, and say unto them"; }
@test "kjv: 64-byte phrase k=8" { same "" 8 "Speak unto the children of Israel, and say unto them, When ye be"; }
@test "kjv: 50-byte phrase k=10 (two-digit k)" { same "" 10 "thus saith the Lord GOD; Behold, I am against thee"; }
@test "kjv: -i lord k=1" { same "-i" 1 lord; }
@test "kjv: -i JERUSALEM k=2" { same "-i" 2 JERUSALEM; }
@test "kjv: -i 'holy ghost' k=2" { same "-i" 2 "holy ghost"; }
@test "kjv: -i 'in the beginning god created the heaven and the earth' k=5" {
    same "-i" 5 "in the beginning god created the heaven and the earth"
}
@test "kjv: -v the k=1, -i" { same "-i -v" 1 the; }
@test "kjv: no line: qqqqq k=1" { same "" 1 qqqqq; }
@test "kjv: k >= length: LORD k=4 selects every line" { same "" 4 LORD; }
