#!/usr/bin/env bats
# Long patterns (several 64-bit words, Myers' blocks with Ukkonen's cut-off):
#  - property tests against the naive DP oracle (tests/oracle.c) for pattern
#    lengths 60..300 and a few 500..4096, k 0..12, small random alphabets,
#    planted approximate copies straddling 64-byte slice and small chunk
#    boundaries (tests/casegen.c); through the host matcher, OpenCL with
#    64-byte slices and tiny chunks, OpenCL defaults, default settings, stdin;
#  - the 4096-byte limit with errors (4097 bytes and -k: exit 2, a message
#    naming 4096; at k=0 any length is searched, tests/parity.bats);
#  - tre-agrep on the King James Bible (one verse per line) for 70..200 byte
#    phrases, k up to 10, lines and costs (tre-agrep -s); `make check` on
#    its first five books, AGREP_GPU_TESTS=full on all of it.
#  - make check takes a sample of the paths in the 500..4096-byte tests and
#    the Bible's (each phrase on one setting), every path still met.
#
# Knobs: LONG_SEEDS (random cases, default 6, with which the tiny chunks'
# CHUNKS[s % 6] still meet all six sizes and the host test's FLAGSETS[s %
# 12] and [(s + 5) % 12] all but the plain one; 40 with
# AGREP_GPU_TESTS=full).  A failure prints a repro line to run from the
# top of the repository.
load test_helper
load check_helper

NSEEDS="${LONG_SEEDS:-$(depth 6 40)}"
FLAGSETS=("" "-i" "-v" "-c" "-n" "-i -n" "-v -c" "-n --show-cost" "-x" "-w -i" "-i --show-cost" "-w -n")
CHUNKS=(64 100 192 257 1000 4096)
HUGE="-n 500:4096 -k 0:12 -p 1:2 -b 5000:12000"

# mk SEED OPTIONS: a casegen case in $CASES (t.SEED, p.SEED, k.SEED, g.SEED)
mk() {
    local s=$1 opts=$2
    # shellcheck disable=SC2086
    casegen $opts "$s" "$CASES/t.$s" "$CASES/p.$s" > "$CASES/k.$s"
    echo "tests/bin/casegen $opts $s $CASES/t.$s $CASES/p.$s" > "$CASES/g.$s"
}

# join the 79-column lines of bible(1) into one line per verse
join_verses() {
    awk '/^ +[0-9]+ /{ if (v != "") print v; v = $0; next }
         /^$/       { if (v != "") print v; v = ""; print; next }
                    { if (v != "") v = v " " $0; else print }
         END        { if (v != "") print v }'
}

# a small LCG, so that the phrases do not depend on bash's $RANDOM
lcg() { X=$(( (X * 1103515245 + 12345) % 2147483648 )); R=$(( X / 65536 )); }

setup_file() {
    need_tools casegen oracle || return 1
    case_dir
    local s
    for ((s = 1; s <= NSEEDS; s++)); do
        mk "$s" "-n 60:300 -k 0:12"
    done
    for s in 1001 1002 1003 1004 1005 1006; do
        mk "$s" "$HUGE"
    done

    # ---- the Bible, one verse per line, and phrases for tre-agrep
    need_tools bible tre-agrep || return 1
    local B="$BATS_FILE_TMPDIR/bible"
    mkdir -p "$B"
    bible "Gen1:1-Rev22:21" | join_verses > "$B/kjv.txt"
    [ "$(wc -l < "$B/kjv.txt")" -gt 33000 ] && [ "$(wc -l < "$B/kjv.txt")" -lt 36000 ] ||
        { echo "unexpected output from bible(1): $(wc -l < "$B/kjv.txt") lines" >&2; return 1; }
    # The text: full, the whole Bible (4.3 MB); quick, the five books of
    # Moses, Genesis-Deuteronomy (845 KB, 6,414 lines: still 13 chunks of
    # 64 KiB; tre-agrep's time on the text is the cost): the hand-picked
    # phrases are from Leviticus and Numbers, the random ones from its
    # long verses.
    if [ "$(depth quick full)" = quick ]; then
        awk '/^Joshua 1$/ { exit } { print }' "$B/kjv.txt" > "$B/moses.txt"
        mv "$B/moses.txt" "$B/kjv.txt"
        [ "$(wc -l < "$B/kjv.txt")" -gt 6000 ] ||
            { echo "Genesis-Deuteronomy: $(wc -l < "$B/kjv.txt") lines" >&2; return 1; }
    fi
    # hand-picked phrases with many near-repeats (Numbers 7, Leviticus)
    local i=0
    printf '%s\n' "his offering was one silver charger, the weight thereof was an hundred and thirty shekels, one silver bowl of seventy shekels" > "$B/ph.$i"
    echo "6" > "$B/k.$i"; echo "" > "$B/f.$i"; i=$((i + 1))
    cp "$B/ph.0" "$B/ph.$i"; echo "10" > "$B/k.$i"; echo "" > "$B/f.$i"; i=$((i + 1))
    printf '%s\n' "And the LORD spake unto Moses, saying, Speak unto the children of Israel, and say unto them" > "$B/ph.$i"
    echo "8" > "$B/k.$i"; echo "" > "$B/f.$i"; i=$((i + 1))
    printf '%s\n' "BOTH OF THEM WERE FULL OF FINE FLOUR MINGLED WITH OIL FOR A MEAT OFFERING" > "$B/ph.$i"
    echo "4" > "$B/k.$i"; echo "-i" > "$B/f.$i"; i=$((i + 1))
    # random phrases of 70..200 bytes from long verses, with k edits ('#' is
    # not in the Bible: the source verse is then at cost k, or just below)
    local -a V
    mapfile -t V < <(awk 'length >= 215' "$B/kjv.txt")
    local ks=(0 2 4 7 9 10) len start v e ph pos op
    X=20261122
    for k in "${ks[@]}"; do
        lcg; v=${V[R % ${#V[@]}]}
        lcg; len=$((70 + R % 131))
        lcg; start=$((6 + R % (${#v} - len - 6)))
        ph=${v:start:len}
        e=$k
        while ((e-- > 0)); do
            lcg; pos=$((R % ${#ph}))
            lcg; op=$((R % 3))
            case $op in
                0) ph=${ph:0:pos}#${ph:pos+1} ;;
                1) ph=${ph:0:pos}${ph:pos+1} ;;
                2) ph=${ph:0:pos}#${ph:pos} ;;
            esac
        done
        if ((k == 4 || k == 9)); then
            ph=${ph^^}; echo "-i" > "$B/f.$i"
        else
            echo "" > "$B/f.$i"
        fi
        printf '%s\n' "$ph" > "$B/ph.$i"
        echo "$k" > "$B/k.$i"
        i=$((i + 1))
    done
    echo "$i" > "$B/count"
    # tre-agrep -s -n, two at a time (2-4 s each on 4.3 MB)
    local lane
    for lane in 0 1; do
        (
            local j f
            for ((j = lane; j < i; j += 2)); do
                f=$(cat "$B/f.$j")
                rc=0
                # shellcheck disable=SC2086
                tre-agrep $f -s -n -k -E "$(cat "$B/k.$j")" -e "$(cat "$B/ph.$j")" "$B/kjv.txt" \
                    > "$B/tre.$j" 2> "$B/tre-err.$j" || rc=$?
                echo "$rc" > "$B/rc.$j"
                sed 's/^[0-9]*:[0-9]*://' "$B/tre.$j" > "$B/exp.$j"
            done
        ) &
    done
    wait
}

setup() {
    begin_checks
    CASES="$BATS_FILE_TMPDIR/cases"
    B="$BATS_FILE_TMPDIR/bible"
    W="$BATS_TEST_TMPDIR"
}

# runcase SEED ENVS FLAGS [stdin]
runcase() {
    local s=$1 envs=$2 flags=$3 how=${4:-file} k d
    # (read, no command substitution: a process less each)
    read -r k d < "$CASES/k.$s"
    read -r GEN < "$CASES/g.$s"
    WHAT="seed $s: $d"
    # shellcheck disable=SC2086
    if [ "$how" = stdin ]; then
        check "$envs" "$CASES/t.$s" $flags -k "$k" -f "$CASES/p.$s"
    else
        check "$envs" "" $flags -k "$k" -f "$CASES/p.$s" "$CASES/t.$s"
    fi
}

@test "oracle: least costs of long patterns agree with tre-agrep -s" {
    # the oracle itself, on long patterns (single pattern, terminated text)
    # (full: 12 cases, quick 8: 29 selected lines)
    local s k pat n=0 last
    last=$((2000 + $(depth 8 12)))
    for ((s = 2001; s <= last; s++)); do
        casegen -t -p 1 -n 60:160 -k 0:12 -b 1500:3000 "$s" "$W/t" "$W/p" > "$W/k"
        read -r k _ < "$W/k"
        pat=$(cat "$W/p")
        oracle -n --show-cost -k "$k" -f "$W/p" "$W/t" > "$W/exp" || true
        tre-agrep -s -n -k -E "$k" -e "$pat" "$W/t" > "$W/tre" || true
        if ! cmp -s "$W/exp" "$W/tre"; then
            echo "oracle and tre-agrep differ: casegen -t -p 1 -n 60:160 -k 0:12 -b 1500:3000 $s, k=$k"
            diff "$W/exp" "$W/tre" | head -6 | _show
            return 1
        fi
        n=$((n + $(wc -l < "$W/exp")))
    done
    [ "$n" -ge 20 ] # enough selected lines to mean something
}

@test "long patterns, host matcher (AGREP_GPU_DEVICE=host) agree with the oracle" {
    local s
    for ((s = 1; s <= NSEEDS; s++)); do
        runcase "$s" "AGREP_GPU_DEVICE=host" "${FLAGSETS[s % 12]}"
        runcase "$s" "AGREP_GPU_DEVICE=host" "${FLAGSETS[(s + 5) % 12]}"
    done
    end_checks
}

@test "long patterns, OpenCL with 64-byte slices and tiny chunks agree with the oracle" {
    local s
    for ((s = 1; s <= NSEEDS; s++)); do
        runcase "$s" "AGREP_GPU_HOST_MAX=0 AGREP_GPU_SLICE=64 AGREP_GPU_CHUNK=${CHUNKS[s % 6]}" \
            "${FLAGSETS[(s + 1) % 12]}"
    done
    end_checks
}

@test "long patterns, OpenCL with default slices and chunks agree with the oracle" {
    local s
    for ((s = 1; s <= NSEEDS; s++)); do
        runcase "$s" "AGREP_GPU_HOST_MAX=0" "${FLAGSETS[(s + 2) % 12]}"
    done
    end_checks
}

@test "long patterns, default settings and standard input agree with the oracle" {
    local s
    for ((s = 1; s <= NSEEDS; s += 2)); do
        runcase "$s" "" "${FLAGSETS[(s + 3) % 12]}"
        runcase "$((s + 1))" "AGREP_GPU_HOST_MAX=0 AGREP_GPU_SLICE=64 AGREP_GPU_CHUNK=${CHUNKS[s % 6]}" \
            "${FLAGSETS[(s + 4) % 12]}" stdin
    done
    end_checks
}

@test "patterns of 500..4096 bytes agree with the oracle (host, OpenCL tiny chunks, default)" {
    # full: every case on the three paths; slow builds: one path a case,
    # in turns, s % 3 (each path on two cases; the oracle's time on these
    # patterns is the cost): the host on 1002 and 1005, OpenCL tiny chunks
    # on 1003 and 1006, OpenCL defaults on 1001 and 1004; quick: the same
    # turns but the cases 1002-1004 only, one a path (the host on 1002,
    # OpenCL defaults on 1003, OpenCL tiny chunks, 192 bytes, on 1004 at
    # k = 8; 1001 selects no line)
    local s full= how
    how=$(depth quick full slow)
    for s in 1001 1002 1003 1004 1005 1006; do
        [ "$how" != quick ] || ((s >= 1002 && s <= 1004)) || continue
        if [ "$how" = full ] || [ $((s % 3)) = 0 ]; then
            runcase "$s" "AGREP_GPU_DEVICE=host" "${FLAGSETS[s % 12]}"
        fi
        if [ "$how" = full ] || { [ "$how" = quick ] && [ $((s % 3)) = 2 ]; } ||
            { [ "$how" = slow ] && [ $((s % 3)) = 1 ]; }; then
            runcase "$s" "AGREP_GPU_HOST_MAX=0 AGREP_GPU_SLICE=64 AGREP_GPU_CHUNK=${CHUNKS[s % 6]}" "${FLAGSETS[(s + 1) % 12]}"
        fi
        if [ "$how" = full ] || { [ "$how" = quick ] && [ $((s % 3)) = 1 ]; } ||
            { [ "$how" = slow ] && [ $((s % 3)) = 2 ]; }; then
            runcase "$s" "AGREP_GPU_HOST_MAX=0" "-n"
        fi
    done
    end_checks
}

@test "a 4096-byte pattern is found exactly and with 12 edits, across chunks" {
    # pattern: 4096 bytes over a-z; line 2 holds it, line 4 a copy with 12
    # substitutions, line 6 a copy with 13 (not within 12), line 8 the
    # pattern minus its last byte (1 edit)
    casegen -t -p 1 -n 4096 -k 0 -a az -b 1:1 -P 0 7 "$W/junk" "$W/p" > /dev/null
    local pat sub12 sub13 i
    pat=$(cat "$W/p")
    [ "${#pat}" = 4096 ]
    sub12=$pat
    for ((i = 0; i < 12; i++)); do sub12=${sub12:0:i*300+5}0${sub12:i*300+6}; done
    sub13=${sub12:0:4000}1${sub12:4001}
    { echo "before"; echo "xx${pat}yy"; echo "between"; echo "$sub12"; echo;
      echo "$sub13"; echo "zz"; echo "${pat:0:4095}"; } > "$W/t"
    # full: each setting at k = 0, 12 and 13 both ways (-n -f, -c -i -e),
    # and -x -n -k 12.  quick: one k and way per setting (the host and
    # the tiny slices -n at 12, against the oracle's run below that is
    # checked against the construction, OpenCL's defaults -c -i at 0),
    # -x on the tiny slices; k = 13 (line 6 found, at cost 13) is the
    # --show-cost -k 13 run's, for every setting (the oracle's runs, a
    # second each, cached by arguments, are most of this test's time)
    local envs k ex=0 full=
    [ "$(depth quick full)" = quick ] || full=1
    # the oracle agrees with the construction
    run oracle -n -k 12 -f "$W/p" "$W/t"
    assert_output "$(printf '2:xx%syy\n4:%s\n8:%s' "$pat" "$sub12" "${pat:0:4095}")"
    printf '%s\n' "$output" > "$W/o12"
    REF="oracle -n -k 12 -f P T (checked against the construction above)"
    for envs in "AGREP_GPU_DEVICE=host" "AGREP_GPU_HOST_MAX=0" \
                "AGREP_GPU_HOST_MAX=0 AGREP_GPU_SLICE=64 AGREP_GPU_CHUNK=1000"; do
        ex=$((ex + 1))
        if [ -n "$full" ]; then
            for k in 0 12 13; do
                check "$envs" "" -n -k "$k" -f "$W/p" "$W/t"
                check "$envs" "" -c -i -k "$k" -e "${pat^^}" "$W/t"
            done
        else
            case $ex in
                2) check "$envs" "" -c -i -k 0 -e "${pat^^}" "$W/t" ;;
                *) check_ref "$W/o12" 0 "$envs" "" -n -k 12 -f "$W/p" "$W/t" ;;
            esac
        fi
        check "$envs" "" -n --show-cost -k 13 -f "$W/p" "$W/t"
        if [ -n "$full" ] || [ "$ex" = 3 ]; then
            check "$envs" "" -x -n -k 12 -f "$W/p" "$W/t"
        fi
    done
    end_checks
}

@test "a 4097-byte pattern with -k: exit 2 and a message naming the 4096-byte limit" {
    local p4097 envs
    p4097=$(head -c 4097 /dev/zero | tr '\0' a)
    printf 'aaa\nbbb\n' > "$W/t"
    printf '%s\n' "$p4097" > "$W/p1"
    printf 'aaa\n%s\nbbb\n' "$p4097" > "$W/p3"
    head -c 4096 /dev/zero | tr '\0' a > "$W/ok"
    for envs in "AGREP_GPU_DEVICE=host" "AGREP_GPU_HOST_MAX=0" ""; do
        # positional, -e, -f, -f among shorter patterns, with -k, stdin
        for args in "POS" "-e" "-f p1" "-f p3" "-k5 -f p1" "-i -c -f p3"; do
            case $args in
                POS) run env $envs agrep-gpu -k1 "$p4097" "$W/t" ;;
                -e) run env $envs agrep-gpu -k1 -e "$p4097" "$W/t" ;;
                *) # shellcheck disable=SC2086
                   run env $envs agrep-gpu -k1 ${args% *} "$W/${args##* }" "$W/t" ;;
            esac
            if [ "$status" != 2 ] || [[ "$output" != *4096* ]]; then
                echo "4097-byte pattern ($envs, $args): exit $status, output: ${output:0:200}"
                return 1
            fi
        done
        run env $envs agrep-gpu -k1 -c -f "$W/p1" < "$W/t"
        [ "$status" = 2 ] && [[ "$output" == *4096* ]] ||
            { echo "4097 via stdin ($envs): exit $status: ${output:0:200}"; return 1; }
        # nothing on stdout
        env $envs agrep-gpu -k 9999 -f "$W/p1" "$W/t" > "$W/out" 2>/dev/null || true
        [ ! -s "$W/out" ] || { echo "4097: stdout not empty ($envs)"; return 1; }
        # at k=0 it is searched
        run env $envs agrep-gpu -c -f "$W/p3" "$W/t"
        [ "$status" = 0 ] && [ "$output" = 2 ] ||
            { echo "4097 at k=0 ($envs): exit $status: ${output:0:200}"; return 1; }
        # 4096 is accepted
        run env $envs agrep-gpu -c -k 4093 -f "$W/ok" "$W/t"
        [ "$status" = 0 ] && [ "$output" = 1 ] ||
            { echo "4096 refused or wrong ($envs): exit $status: ${output:0:200}"; return 1; }
    done
}

# bible_case I ENVS HOW: agrep-gpu against tre-agrep's lines for phrase I
bible_case() {
    local i=$1 envs=$2 how=$3 k f ph rc
    # (read, no command substitution: four processes less each)
    read -r k < "$B/k.$i"; read -r f < "$B/f.$i"; IFS= read -r ph < "$B/ph.$i"
    read -r rc < "$B/rc.$i"
    REF="tre-agrep $f -s -n -k -E $k -e '$ph' (kjv, verses joined)"
    WHAT="Bible phrase $i (${#ph} bytes, k=$k $f)"
    # shellcheck disable=SC2086
    case $how in
        file) check_ref "$B/exp.$i" "$rc" "$envs" "" $f -k "$k" -e "$ph" "$B/kjv.txt" ;;
        stdin) check_ref "$B/exp.$i" "$rc" "$envs" "$B/kjv.txt" $f -k "$k" -e "$ph" ;;
        cost) check_ref "$B/tre.$i" "$rc" "$envs" "" $f -n --show-cost -k "$k" -e "$ph" "$B/kjv.txt" ;;
    esac
}

@test "Bible: 70-200 byte phrases, k up to 10, lines as tre-agrep" {
    local i n total=0 full=0
    [ "$(depth quick full)" = quick ] || full=1
    n=$(cat "$B/count")
    for ((i = 0; i < n; i++)); do
        [ -s "$B/tre-err.$i" ] && { echo "tre-agrep failed on phrase $i: $(head -2 "$B/tre-err.$i")"; return 1; }
        total=$((total + $(wc -l < "$B/exp.$i")))
        # full: every phrase with the four settings; quick: each with one
        # of them, i % 4 (each setting on two or three phrases; the
        # --show-cost test below runs every phrase too)
        if ((full || i % 4 == 0)); then
            bible_case "$i" "" file
        fi
        if ((full || i % 4 == 1)); then
            bible_case "$i" "AGREP_GPU_DEVICE=host" file
        fi
        if ((full || i % 4 == 2)); then
            bible_case "$i" "AGREP_GPU_HOST_MAX=0 AGREP_GPU_SLICE=64 AGREP_GPU_CHUNK=65536" file
        fi
        if ((full || i % 4 == 3)); then
            bible_case "$i" "AGREP_GPU_HOST_MAX=0 AGREP_GPU_CHUNK=100000" stdin
        fi
    done
    echo "# $n phrases, $total lines selected by tre-agrep" >&3
    [ "$total" -ge 20 ]
    end_checks
}

@test "Bible: --show-cost -n equals tre-agrep -s -n for the phrases" {
    local i n full=0
    [ "$(depth quick full)" = quick ] || full=1
    n=$(cat "$B/count")
    for ((i = 0; i < n; i++)); do
        # full: both settings; quick: one, the other than the lines' test
        # takes for the phrase (i % 2)
        if ((full || i % 2 == 1)); then
            bible_case "$i" "" cost
        fi
        if ((full || i % 2 == 0)); then
            bible_case "$i" "AGREP_GPU_DEVICE=host" cost
        fi
    done
    end_checks
}
