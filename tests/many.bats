#!/usr/bin/env bats
# Many patterns: -e repeated, -f FILE (one pattern per line), 100 and 10,000
# random patterns of 5..15 bytes against the naive DP oracle (tests/oracle.c),
# 10,000 patterns end to end on 80 KB (quick: 40 KB) of the King James
# Bible (k=0 against grep -F -f, k=1 against the oracle on a sample of
# lines), -f of an empty
# file, CRLF pattern files (the CR is part of the pattern, as in grep), -i
# with many patterns; through the host matcher and OpenCL (tiny chunks too).
# The shared many-pattern filter (src/multi.c): forced
# (AGREP_GPU_HOST_ENGINE=multi: any number of patterns, never giving up)
# and automatic, on random cases with planted copies near k (edits inside
# pieces and across their boundaries), copies with edits placed at every
# piece boundary, at line starts and ends, with case flips; -i, -w, -x, -v,
# -c, -o, -z, small chunks; and the engine choice (many patterns stay on
# the host).  Knobs: MULTI_SEEDS (random cases, default 6; 16 with AGREP_GPU_TESTS=full).
# make check (quick) runs a rotating sample of each test's paths and flag
# sets, in which every path, flag set and k still occurs (each test says
# which); AGREP_GPU_TESTS=full runs all of them.
load test_helper
load check_helper
bats_require_minimum_version 1.5.0

# casegen options for the 100-pattern cases: alphabet and k range chosen so
# that some lines, not all, are selected
HUNDRED=("-a az -k 0:2" "-a acgt -k 0:0" "-a mixed -k 0:1" "-a words -k 0:1"
         "-a printable -k 0:3" "-a az -k 1:1" "-a mixed -k 1:1" "-a az -k 0:0")
FLAGS100=("" "-n" "-c" "-v -n" "-i" "-i -c" "-w" "-x -n" "-n --show-cost" "-i -w --show-cost")

mk() {
    local s=$1 opts=$2
    # shellcheck disable=SC2086
    casegen $opts "$s" "$CASES/t.$s" "$CASES/p.$s" > "$CASES/k.$s"
    echo "tests/bin/casegen $opts $s $CASES/t.$s $CASES/p.$s" > "$CASES/g.$s"
}

join_verses() {
    awk '/^ +[0-9]+ /{ if (v != "") print v; v = $0; next }
         /^$/       { if (v != "") print v; v = ""; print; next }
                    { if (v != "") v = v " " $0; else print }
         END        { if (v != "") print v }'
}

MSEEDS="${MULTI_SEEDS:-$(depth 6 16)}"
MULTI="AGREP_GPU_DEVICE=host AGREP_GPU_HOST_ENGINE=multi"

# mphrases N: N phrases of 4..40 bytes cut from the Bible lines (every 37th
# line), no two alike
mphrases() {
    awk -v n="$1" 'NR % 37 == 5 && length($0) > 50 {
        l = 4 + (c * 13) % 37; p = substr($0, 3 + (c * 7) % 9, l)
        if (!(p in seen)) { seen[p] = 1; print p; if (++c == n) exit } }'
}

# medits K < PATS: lines holding copies of the patterns with K edits
# (substitution, deletion, insertion in turn) at the K + 1 piece boundaries
# (one byte before, at, one after) or in the middle of pieces, alone on a
# line, at its start, at its end, with the first 5 bytes in upper case;
# then lines of filler that hold no copy.
medits() {
    awk -v K="$1" '{
        P = $0; n = length(P); m = K + 1
        if (n < m) next
        for (d = -1; d <= 2; d++) {
            s = P
            for (j = 1; j <= K; j++) {
                pos = int(j * n / m) + (d == 2 ? -int(n / m / 2) : d)
                if (pos < 1) pos = 1
                if (pos > length(s)) pos = length(s)
                t = (j + d + NR) % 3
                if (t == 0) s = substr(s, 1, pos - 1) "#" substr(s, pos + 1)
                else if (t == 1) s = substr(s, 1, pos - 1) substr(s, pos + 1)
                else s = substr(s, 1, pos - 1) "%" substr(s, pos)
            }
            if (d == -1) print s
            else if (d == 0) print "lead " s
            else if (d == 1) print s " trail"
            else print "x" toupper(substr(s, 1, 5)) substr(s, 6) "y"
        }
    }
    END { print ""; print "zz qq zz qq zz qq zz"; print "nothing" }'
}

setup_file() {
    local s i
    need_tools casegen oracle bible || return 1
    case_dir
    # the shared filter: 20..200 patterns of 2..40 bytes, k 0..3; every
    # fourth case with lines of up to 900 bytes (longer than the small
    # chunks below: a record cut by a chunk boundary)
    local alpha=(az mixed words printable bytes)
    for ((s = 1; s <= MSEEDS; s++)); do
        local l=""
        [ $((s % 4)) = 0 ] && l="-l 0:900"
        mk "$((500 + s))" "-p 20:200 -n 2:40 -k 0:3 -b 3000:9000 -P 40 $l -a ${alpha[s % 5]}"
        tr '\n' '\0' < "$CASES/t.$((500 + s))" > "$CASES/z.$((500 + s))"
    done
    for ((i = 0; i < ${#HUNDRED[@]}; i++)); do
        mk "$((100 + i))" "-p 100 -n 5:15 -b 3000:6000 -l 0:80 -P 30 ${HUNDRED[i]}"
    done
    mk 10001 "-p 10000 -n 5:15 -k 0:0 -a az -b 1500:2500 -l 0:60 -P 30"
    mk 10002 "-p 10000 -n 5:15 -k 1:1 -a az -b 1500:2500 -l 0:60 -P 30"
    mk 10003 "-p 10000 -n 5:15 -k 0:0 -a mixed -b 1500:2500 -l 0:60 -P 30"
    # several -e: 2..6 patterns of 1..150 bytes (one and several words)
    for ((s = 1; s <= 16; s++)); do
        mk "$s" "-p 2:6 -n 1:150 -k 0:6 -b 1000:4000"
    done

    # the Bible, one verse per line: the first ~80 KB in full
    # (AGREP_GPU_TESTS=full), ~40 KB in quick (10,000 patterns cost 10,000
    # passes over the text: 1.4 s a run on POCL over 80 KB; over 40 KB,
    # 202 of 365 lines selected at k=0, 310 at k=1)
    local B="$BATS_FILE_TMPDIR/bible"
    mkdir -p "$B"
    bible "Gen1:1-Rev22:21" | join_verses > "$B/kjv.txt"
    awk -v max="$(depth 40000 80000)" '{ n += length($0) + 1; print } n > max { exit }' \
        "$B/kjv.txt" > "$B/part.txt"
    # 10,000 patterns of 10..15 bytes from every 9th verse of the whole
    # Bible: 1 in 9 exact, 3 in 9 with a '#' inserted (1 edit), the others
    # with '%' and '#' inserted (2 edits)
    awk 'NR % 9 == 0 && length($0) > 40 {
             for (j = 0; j < 3; j++) {
                 n++
                 len = 10 + (n * 7) % 6
                 p = substr($0, 6 + (n * 13) % (length($0) - 21), len)
                 if (n % 9 >= 1 && n % 9 <= 3) p = substr(p, 1, 4) "#" substr(p, 5)
                 else if (n % 9 > 3) p = substr(p, 1, 2) "%" substr(p, 3, 5) "#" substr(p, 8)
                 print p
                 if (n == 10000) exit
             }
         }' "$B/kjv.txt" > "$B/pats"
    # phrases and copies with edits at piece boundaries, K = 1..3
    mphrases 60 < "$B/kjv.txt" > "$B/mp"
    for i in 1 2 3; do medits "$i" < "$B/mp" > "$B/me$i"; done
}

setup() {
    begin_checks
    CASES="$BATS_FILE_TMPDIR/cases"
    B="$BATS_FILE_TMPDIR/bible"
    W="$BATS_TEST_TMPDIR"
}

k_of() { local k d; read -r k d < "$CASES/k.$1"; echo "$k"; }

# runcase SEED ENVS FLAGS: agrep-gpu FLAGS -k K -f PATFILE TEXT vs the oracle
runcase() {
    local s=$1 envs=$2 flags=$3 k
    k=$(k_of "$s")
    GEN=$(cat "$CASES/g.$s")
    WHAT="seed $s: $(cut -d' ' -f2- "$CASES/k.$s")"
    # shellcheck disable=SC2086
    check "$envs" "" $flags -k "$k" -f "$CASES/p.$s" "$CASES/t.$s"
}

@test "several -e: lines matching any pattern, each within k (host, OpenCL, tiny chunks)" {
    local s k envs
    local -a pats eargs
    # seeds: full (AGREP_GPU_TESTS=full) 1-16, every form on each; quick
    # 1-4 (each path of the s % 4 rotation once; -f takes the next seed's
    # file, made for all 16), -n on each and the other two forms by turns
    # (-c -i on the odd seeds, OpenCL's two; -e with -f on the even ones)
    local full=0
    [ "$(depth quick full)" = quick ] || full=1
    for ((s = 1; s <= $(depth 4 16); s++)); do
        k=$(k_of "$s")
        mapfile -t pats < "$CASES/p.$s"
        eargs=()
        for p in "${pats[@]}"; do eargs+=(-e "$p"); done
        GEN=$(cat "$CASES/g.$s")
        WHAT="seed $s, ${#pats[@]} -e patterns: $(cut -d' ' -f2- "$CASES/k.$s")"
        case $((s % 4)) in
            0) envs="AGREP_GPU_DEVICE=host" ;;
            1) envs="AGREP_GPU_HOST_MAX=0 AGREP_GPU_SLICE=64 AGREP_GPU_CHUNK=100" ;;
            2) envs="AGREP_GPU_HOST_MAX=0" ;;
            3) envs="" ;;
        esac
        check "$envs" "" -n -k "$k" "${eargs[@]}" "$CASES/t.$s"
        ((!full && s % 2 == 0)) ||
        check "$envs" "" -c -i -k "$k" "${eargs[@]}" "$CASES/t.$s"
        # -e and -f together: the union
        ((!full && s % 2 == 1)) ||
        check "$envs" "" -k "$k" -e "${pats[0]}" -f "$CASES/p.$((s % 16 + 1))" "$CASES/t.$s"
    done
    end_checks
}

@test "several -e: hand-made cases (oracle checked by hand)" {
    printf 'colour\ncolor\ncoler\nkolor\ncalendar\n\nflavour\n' > "$W/t"
    run oracle -k 1 -e colour -e flavor "$W/t"
    assert_output "$(printf 'colour\ncolor\nflavour')" # coler, kolor: 2 edits
    # full (AGREP_GPU_TESTS=full): every case on every path; quick: each
    # case on one path of the three, turning with the case ((path + case)
    # % 3 = 0, both counted from 0), so that every path meets 2 or 3 of
    # the 7 cases
    local envs e=0 c full=0
    [ "$(depth quick full)" = quick ] || full=1
    for envs in "AGREP_GPU_DEVICE=host" "AGREP_GPU_HOST_MAX=0 AGREP_GPU_SLICE=64 AGREP_GPU_CHUNK=64" ""; do
        c=0
        ((!full && (e + c++) % 3 != 0)) || check "$envs" "" -k 1 -e colour -e flavor "$W/t"
        ((!full && (e + c++) % 3 != 0)) || check "$envs" "" -k 0 -e colour -e color -e xyz "$W/t"
        ((!full && (e + c++) % 3 != 0)) || check "$envs" "" -n -k 2 -e "$(printf 'calender\nflavr')" -e kolor "$W/t"
        ((!full && (e + c++) % 3 != 0)) || check "$envs" "" -k 0 -e zzz -e '' "$W/t"      # an empty pattern: all
        ((!full && (e + c++) % 3 != 0)) || check "$envs" "" -c -k 3 -e ab -e "$(printf '%0200d' 0)" "$W/t" # k >= one length
        ((!full && (e + c++) % 3 != 0)) || check "$envs" "" -v -k 1 -e colour -e calendar "$W/t"
        ((!full && (e + c++) % 3 != 0)) || check "$envs" "" -i -k 0 -e COLOR -e FLAVOUR "$W/t"
        e=$((e + 1))
    done
    end_checks
}

@test "-f with 100 random patterns agrees with the oracle (host, OpenCL tiny chunks, default)" {
    local i s full=0
    # full (AGREP_GPU_TESTS=full): the five runs of every case; quick: two
    # runs a case, one OpenCL run (tiny chunks on an even case, defaults
    # on an odd one) and one other (the host's first on an even case, the
    # default settings on cases 1 and 5, the host's second on 3 and 7), so
    # that every run meets two to four cases and the ten flag sets all
    # still occur
    [ "$(depth quick full)" = quick ] || full=1
    for ((i = 0; i < ${#HUNDRED[@]}; i++)); do
        s=$((100 + i))
        ((!full && i % 2)) ||
        runcase "$s" "AGREP_GPU_DEVICE=host" "${FLAGS100[i % 10]}"
        ((!full && i % 4 != 3)) ||
        runcase "$s" "AGREP_GPU_DEVICE=host" "${FLAGS100[(i + 5) % 10]}"
        ((!full && i % 2)) ||
        runcase "$s" "AGREP_GPU_HOST_MAX=0 AGREP_GPU_SLICE=64 AGREP_GPU_CHUNK=$((64 + 37 * i))" "${FLAGS100[(i + 1) % 10]}"
        ((!full && !(i % 2))) ||
        runcase "$s" "AGREP_GPU_HOST_MAX=0" "${FLAGS100[(i + 2) % 10]}"
        ((!full && i % 4 != 1)) ||
        runcase "$s" "" "${FLAGS100[(i + 3) % 10]}"
    done
    end_checks
}

@test "-f with 10,000 random patterns agrees with the oracle" {
    [ "$(wc -l < "$CASES/p.10001")" = 10000 ]
    runcase 10001 "AGREP_GPU_DEVICE=host" "-n"
    runcase 10001 "AGREP_GPU_HOST_MAX=0 AGREP_GPU_SLICE=64 AGREP_GPU_CHUNK=257" "-n"
    runcase 10002 "AGREP_GPU_HOST_MAX=0 AGREP_GPU_SLICE=64 AGREP_GPU_CHUNK=100" ""
    runcase 10003 "AGREP_GPU_DEVICE=host" "-i -n"
    # (make check and slow builds: the five above, but this one with the
    # host's -i -n, whose oracle's answer is cached: the oracle's run with
    # 10,000 patterns costs as much as OpenCL's)
    if [ "$(depth quick full slow)" = full ]; then
        runcase 10003 "AGREP_GPU_HOST_MAX=0 AGREP_GPU_CHUNK=64" ""
    else
        runcase 10003 "AGREP_GPU_HOST_MAX=0 AGREP_GPU_CHUNK=64" "-i -n"
    fi
    if [ "$(depth quick full slow)" = full ]; then
        runcase 10001 "AGREP_GPU_HOST_MAX=0" "-c"
        runcase 10002 "AGREP_GPU_DEVICE=host" "-n"
        runcase 10002 "" "-v"
        runcase 10003 "AGREP_GPU_HOST_MAX=0" "-i"
    fi
    end_checks
}

@test "10,000 patterns on the Bible, k=0: the lines of grep -F -f" {
    [ "$(wc -l < "$B/pats")" = 10000 ]
    ! grep -qx '' "$B/pats"   # no empty pattern (it would select everything)
    local rc=0 n
    grep -F -f "$B/pats" "$B/part.txt" > "$W/grep" || rc=$?
    n=$(wc -l < "$W/grep")
    [ "$n" -gt 100 ] && [ "$n" -lt "$(wc -l < "$B/part.txt")" ]
    REF="grep -F -f PATS (10,000 patterns) on $(wc -c < "$B/part.txt") bytes of the Bible"
    check_ref "$W/grep" "$rc" "" "" -f "$B/pats" "$B/part.txt"
    # (quick: OpenCL by the -c run from standard input below only)
    [ "$(depth quick full)" = quick ] ||
    check_ref "$W/grep" "$rc" "AGREP_GPU_HOST_MAX=0" "" -k 0 -f "$B/pats" "$B/part.txt"
    grep -c -F -f "$B/pats" "$B/part.txt" > "$W/grepc" || true
    check_ref "$W/grepc" "$rc" "AGREP_GPU_HOST_MAX=0 AGREP_GPU_CHUNK=65536" "$B/part.txt" -c -f "$B/pats"
    echo "# $n of $(wc -l < "$B/part.txt") lines selected" >&3
    end_checks
}

@test "-F -x -f: records that are one of a list (hostmatch.c hm_lines), as grep -F -x -f" {
    local o envs rc want got l
    # the list: a third of the words, some lines whole and some line
    # beginnings, a word in capitals, duplicates, a CR line; xle adds an
    # empty one (every record a candidate: refine.c asks hm_line_in)
    tr -cs 'A-Za-z' '\n' < "$B/part.txt" | grep -v '^$' | sort -u | awk 'NR % 3 == 1' > "$W/xl"
    awk 'NR % 97 == 1' "$B/part.txt" | grep -v '^$' >> "$W/xl"
    awk 'NR % 89 == 5 { print substr($0, 1, 12) }' "$B/part.txt" | grep -v '^$' >> "$W/xl"
    head -3 "$W/xl" >> "$W/xl"
    printf 'JERUSALEM\nsaid\r\nMoses\n' >> "$W/xl"
    # the text: the part, then words alone on lines (in either case, with
    # a CR, a trailing blank), and a last line without its newline
    { cat "$B/part.txt"; printf 'Jerusalem\nJERUSALEM\njerusalem\nsaid\r\nsaid\nAaron\n\nAbraham \n'
      tr -cs 'A-Za-z' '\n' < "$B/part.txt" | awk 'NR % 10 == 3'; printf 'Moses'; } > "$W/xt"
    [ "$(grep -c -F -x -f "$W/xl" "$W/xt")" -gt 100 ]
    { cat "$W/xl"; echo; } > "$W/xle"
    # full (AGREP_GPU_TESTS=full): every list and option set in the three
    # settings; quick: the default setting, and on half of them one of
    # the other two by turns (the n-th list and option set: 4 KiB chunks
    # where n % 4 = 1, the OpenCL device where n % 4 = 2; each list meets
    # both, each option set one or two of them)
    local n=0 ei full=0
    [ "$(depth quick full)" = quick ] || full=1
    for l in xl xle; do
    for o in "-c" "-n" "-v -c" "-i -n" "-o -b" "--color=always" "-w -n" "-i -v -c" "-c -m 50"; do
        rc=0 n=$((n + 1)) ei=0
        # shellcheck disable=SC2086
        grep -F -x $o -f "$W/$l" "$W/xt" > "$W/want" || rc=$?
        for envs in "" "AGREP_GPU_CHUNK=4096" "AGREP_GPU_HOST_MAX=0 AGREP_GPU_CHUNK=65536"; do
            ei=$((ei + 1))
            ((full || ei == 1 || (ei == 2 && n % 4 == 1) || (ei == 3 && n % 4 == 2))) || continue
            got=0
            # shellcheck disable=SC2086
            env $envs agrep-gpu -F -x $o -f "$W/$l" "$W/xt" > "$W/got" || got=$?
            [ "$got" = "$rc" ] && cmp -s "$W/want" "$W/got" ||
                { echo "$envs agrep-gpu -F -x $o -f $l: exit $got (grep $rc)"; diff "$W/want" "$W/got" | head -5; return 1; }
        done
    done
    done
}

@test "10,000 patterns on the Bible, k=1: a sample of lines agrees with the oracle" {
    local rc=0 total sel
    agrep-gpu -n -k 1 -f "$B/pats" "$B/part.txt" > "$W/out" 2> "$W/err" || rc=$?
    [ "$rc" = 0 ] && [ ! -s "$W/err" ] || { echo "exit $rc: $(head -3 "$W/err")"; return 1; }
    total=$(wc -l < "$B/part.txt")
    cut -d: -f1 "$W/out" > "$W/selected"
    sel=$(wc -l < "$W/selected")
    [ "$sel" -gt 100 ] && [ "$sel" -lt "$total" ] # a real mix
    # the sample: every 23rd line, plus every 13th selected line, with their
    # line numbers; the oracle decides each of them with all 10,000 patterns
    { awk -v t="$total" 'BEGIN { for (i = 5; i <= t; i += 23) print i }'
      awk 'NR % 13 == 1' "$W/selected"; } | sort -nu > "$W/sample"
    awk 'NR == FNR { want[$1] = 1; next } FNR in want { print FNR ":" $0 }' \
        "$W/sample" "$B/part.txt" > "$W/sample.txt"
    # each sampled line alone, numbered: "N:line" lines; the oracle selects
    # among "line" texts, so strip the numbers for it and put them back
    cut -d: -f2- "$W/sample.txt" > "$W/sample.lines"
    oracle -n -k 1 -f "$B/pats" "$W/sample.lines" > "$W/osel" || true
    awk -F: 'NR == FNR { num[NR] = $1; next } { i = $1; sub(/^[0-9]+:/, ""); print num[i] ":" $0 }' \
        "$W/sample.txt" "$W/osel" > "$W/expected"
    # agrep-gpu's selection restricted to the sample
    awk -F: 'NR == FNR { want[$1] = 1; next } ($1 in want)' "$W/sample" "$W/out" > "$W/got"
    if ! cmp -s "$W/expected" "$W/got"; then
        echo "10,000 patterns, k=1: agrep-gpu and the oracle disagree on sampled lines"
        echo "(< oracle, > agrep-gpu -n -k 1 -f PATS BIBLE-PART)"
        diff "$W/expected" "$W/got" | head -10 | _show
        return 1
    fi
    echo "# $(wc -l < "$W/sample") sampled lines, $(wc -l < "$W/expected") selected; $sel of $total in all" >&3
    # OpenCL with small chunks selects the same lines as the default run
    # (both checked: the sample above, and the k=0 test against grep)
    # and -c counts them
    run agrep-gpu -c -k 1 -f "$B/pats" "$B/part.txt"
    [ "$output" = "$sel" ] || { echo "-c says $output, lines $sel"; return 1; }
}

@test "-f of an empty file selects nothing (also with -k, -i, -c), but -v selects every line" {
    : > "$W/empty"
    printf 'alpha\n\nbeta\ngamma' > "$W/t"
    # full (AGREP_GPU_TESTS=full): every case on every path; quick: each
    # case on two paths of the three ((path + case) % 3 = 2 left out, both
    # counted from 0: every path meets 4 of the 6 cases)
    local envs e=0 c full=0
    [ "$(depth quick full)" = quick ] || full=1
    for envs in "AGREP_GPU_DEVICE=host" "AGREP_GPU_HOST_MAX=0" ""; do
        c=0
        ((!full && (e + c++) % 3 == 2)) || check "$envs" "" -f "$W/empty" "$W/t"
        ((!full && (e + c++) % 3 == 2)) || check "$envs" "" -k 5 -f "$W/empty" "$W/t"
        ((!full && (e + c++) % 3 == 2)) || check "$envs" "" -c -i -k 2 -f "$W/empty" "$W/t"
        ((!full && (e + c++) % 3 == 2)) || check "$envs" "" -v -f "$W/empty" "$W/t"
        ((!full && (e + c++) % 3 == 2)) || check "$envs" "" -k 1 -f "$W/empty" -e beta "$W/t"
        ((!full && (e + c++) % 3 == 2)) || check "$envs" "" -k 1 -f "$W/empty" "$W/t" "$W/empty"
        e=$((e + 1))
    done
    # and grep agrees where it can (k=0)
    run agrep-gpu -f "$W/empty" "$W/t"
    [ "$status" = 1 ] && [ -z "$output" ]
    run agrep-gpu -v -f "$W/empty" "$W/t"
    [ "$status" = 0 ] && [ "$output" = "$(grep -v -F -f "$W/empty" "$W/t")" ]
    end_checks
}

@test "-f with CRLF lines: the CR is part of each pattern, as in grep" {
    printf 'abc\r\ndefgh\r\n' > "$W/p"
    printf 'abc\r\nabc\nxdefgh\r\ndefgh\nabx\r\n\r\ndefg\r\n' > "$W/t"
    local envs k rc=0
    # grep -F -f for k=0 (the CR of "abc\r" must match a CR in the text)
    grep -F -f "$W/p" "$W/t" > "$W/grep" || rc=$?
    [ "$(cat -v "$W/grep")" = "$(printf 'abc^M\nxdefgh^M')" ]
    REF="grep -F -f CRLF-PATTERNS"
    # full (AGREP_GPU_TESTS=full): every path with every k and every form;
    # quick: a Latin square, form (path + k) % 3, so that every path meets
    # every k and every form, and every k every form
    local e=0 full=0
    [ "$(depth quick full)" = quick ] || full=1
    for envs in "AGREP_GPU_DEVICE=host" "AGREP_GPU_HOST_MAX=0 AGREP_GPU_SLICE=64 AGREP_GPU_CHUNK=64" ""; do
        check_ref "$W/grep" "$rc" "$envs" "" -f "$W/p" "$W/t"
        for k in 0 1 2; do
            ((!full && (e + k) % 3 != 0)) ||
            check "$envs" "" -n -k "$k" -f "$W/p" "$W/t"
            ((!full && (e + k) % 3 != 1)) ||
            check "$envs" "" -x -n -k "$k" -f "$W/p" "$W/t"
            ((!full && (e + k) % 3 != 2)) ||
            check "$envs" "" -n --show-cost -k "$k" -f "$W/p" "$W/t"
        done
        e=$((e + 1))
    done
    # the oracle, by hand: "abc\r" is one deletion from "abc"
    run oracle -x -n -k 1 -f "$W/p" "$W/t"
    assert_output "$(printf '1:abc\r\n2:abc\n3:xdefgh\r\n4:defgh\n5:abx\r\n7:defg\r')"
    end_checks
}

@test "-i with many patterns: upper-case pattern files on lower/mixed-case text" {
    local i s
    # cases: full (AGREP_GPU_TESTS=full) 0, 2, 5 and 7 (a-z text at k 0-2,
    # mixed case at k 0-1, a-z at k 1 and at k 0), each with the five
    # runs; quick 0 and 2 (a-z and mixed-case text), the runs by turns
    # (case 0 the 1st, 3rd and 5th, case 2 the 2nd and 4th)
    local full=0 j
    [ "$(depth quick full)" = quick ] || full=1
    for i in $(depth "0 2" "0 2 5 7"); do
        s=$((100 + i))
        tr 'a-z' 'A-Z' < "$CASES/p.$s" > "$CASES/P.$s"
        GEN="$(cat "$CASES/g.$s") && tr a-z A-Z < $CASES/p.$s > $CASES/P.$s"
        k=$(k_of "$s")
        j=$((i / 2))
        ((!full && j++ % 2)) ||
        check "AGREP_GPU_DEVICE=host" "" -i -n -k "$k" -f "$CASES/P.$s" "$CASES/t.$s"
        ((!full && j++ % 2)) ||
        check "AGREP_GPU_HOST_MAX=0 AGREP_GPU_SLICE=64 AGREP_GPU_CHUNK=128" "" -i -k "$k" -f "$CASES/P.$s" "$CASES/t.$s"
        ((!full && j++ % 2)) ||
        check "" "" -i -c -k "$k" -f "$CASES/P.$s" "$CASES/t.$s"
        ((!full && j++ % 2)) ||
        check "" "" -i -w -k "$k" -f "$CASES/P.$s" "$CASES/t.$s"
        # without -i the upper-case patterns find (almost) nothing: still the oracle's answer
        ((!full && j++ % 2)) ||
        check "AGREP_GPU_HOST_MAX=0" "" -c -k "$k" -f "$CASES/P.$s" "$CASES/t.$s"
    done
    # 10,000 upper-case Bible patterns, k=0, against grep -i -F -f
    tr 'a-z' 'A-Z' < "$B/pats" > "$W/PATS"
    local rc=0
    grep -i -F -f "$W/PATS" "$B/part.txt" > "$W/grep" || rc=$?
    REF="grep -i -F -f UPPER-CASE-PATS (10,000)"
    check_ref "$W/grep" "$rc" "AGREP_GPU_HOST_MAX=0" "" -i -f "$W/PATS" "$B/part.txt"
    end_checks
}

@test "shared filter (forced and automatic): random many-pattern cases agree with the oracle" {
    local flagsets=("" "-i" "-w" "-x" "-v -c" "-n -i" "-w -i -n" "-x -c" "-c" "-v -i")
    local s k desc f i=0 full=0
    # full (AGREP_GPU_TESTS=full): the six runs of every case; quick: the
    # forced filter on every case, the forced filter in small chunks on
    # even seeds (504's long lines among them), the host's automatic
    # choice on odd ones (both with the forced run's flags: the oracle's
    # answer cached), and one of the default path with -n, -z -c and -z
    # in small chunks by turns (s % 3: each on two cases)
    [ "$(depth quick full)" = quick ] || full=1
    for ((s = 501; s < 501 + MSEEDS; s++)); do
        k=$(k_of "$s")
        GEN=$(cat "$CASES/g.$s")
        f=${flagsets[i++ % ${#flagsets[@]}]}
        # shellcheck disable=SC2086
        check "$MULTI" "" $f -k "$k" -f "$CASES/p.$s" "$CASES/t.$s"
        # shellcheck disable=SC2086
        ((!full && s % 2 == 1)) || check "$MULTI AGREP_GPU_CHUNK=300" "" $f -k "$k" -f "$CASES/p.$s" "$CASES/t.$s"
        # shellcheck disable=SC2086
        ((!full && s % 2 == 0)) || check "AGREP_GPU_DEVICE=host" "" $f -k "$k" -f "$CASES/p.$s" "$CASES/t.$s"
        # shellcheck disable=SC2086
        ((!full && s % 3 != 0)) || check "" "" $f -n -k "$k" -f "$CASES/p.$s" "$CASES/t.$s"
        ((!full && s % 3 != 1)) || check "$MULTI" "" -z -c -k "$k" -f "$CASES/p.$s" "$CASES/z.$s"
        ((!full && s % 3 != 2)) || check "AGREP_GPU_DEVICE=host AGREP_GPU_CHUNK=500" "" -z -k "$k" -f "$CASES/p.$s" "$CASES/z.$s"
    done
    end_checks
}

@test "shared filter: edits at piece boundaries, line starts and ends, -i, small chunks" {
    [ "$(wc -l < "$B/mp")" = 60 ]
    # full (AGREP_GPU_TESTS=full): every k, path and form; quick: one form
    # a k and path, the form whose place plus path plus k is a multiple
    # of 4, so that every k meets every path and every form, and every
    # path three of the four forms
    local k f envs e fx full=0
    [ "$(depth quick full)" = quick ] || full=1
    for k in 1 2 3; do
        GEN="(copies of 60 Bible phrases with $k edits at piece boundaries)"
        e=0
        for envs in "$MULTI" "$MULTI AGREP_GPU_CHUNK=200" "AGREP_GPU_DEVICE=host" ""; do
            fx=0
            for f in "-n" "-i -c" "-x -n" "-w -i"; do
                ((!full && (e + k + fx++) % 4 != 0)) && continue
                # shellcheck disable=SC2086
                check "$envs" "" $f -k "$k" -f "$B/mp" "$B/me$k"
            done
            e=$((e + 1))
        done
        # one edit fewer than the copies hold: only the lines where two
        # phrases overlap, or none (quick: -n for k = 1 and 3, -v -c for 2)
        ((!full && k % 2 == 0)) || check "$MULTI" "" -n -k "$((k - 1))" -f "$B/mp" "$B/me$k"
        ((!full && k % 2 == 1)) || check "$MULTI" "" -v -c -k "$((k - 1))" -f "$B/mp" "$B/me$k"
    done
    # every copy line is selected with k edits: all but the three filler lines
    run agrep-gpu -c -k 3 -f "$B/mp" "$B/me3"
    [ "$output" -ge $(($(wc -l < "$B/me3") - 3)) ] || { echo "-c -k3: $output"; return 1; }
    end_checks
}

@test "shared filter: -o and --show-cost as without it" {
    # (-o refines every selected line against every pattern: 20 patterns)
    # full (AGREP_GPU_TESTS=full): every case with every flag set; quick:
    # each case with two of the three, the one left out turning with the
    # case (each flag set on 2 or 3 of the 4 cases)
    local s k f rc fx full=0
    [ "$(depth quick full)" = quick ] || full=1
    for s in 501 502 503 504; do
        k=$(k_of "$s")
        head -20 "$CASES/p.$s" > "$W/p20"
        fx=0
        for f in "-o" "-o -i -n" "-n --show-cost"; do
            ((!full && (s + fx++) % 3 == 0)) && continue
            # shellcheck disable=SC2086
            AGREP_GPU_DEVICE=host AGREP_GPU_HOST_ENGINE=nomulti agrep-gpu -F $f -k "$k" \
                -f "$W/p20" "$CASES/t.$s" > "$W/ref" && rc=0 || rc=$?
            # shellcheck disable=SC2086
            REF="agrep-gpu $f (AGREP_GPU_HOST_ENGINE=nomulti)" check_ref "$W/ref" \
                "$rc" "$MULTI" "" $f -k "$k" -f "$W/p20" "$CASES/t.$s"
        done
    done
    end_checks
}

@test "engine choice: 1,000 patterns stay on the host (no OpenCL device used), same lines" {
    head -c 1000000 "$B/kjv.txt" > "$W/mb"
    awk 'NR % 3 == 1 && length($0) > 30 { print substr($0, 10, 5 + NR % 11) }' \
        "$B/kjv.txt" | awk '!seen[$0]++' | head -1000 > "$W/p1000"
    [ "$(wc -l < "$W/p1000")" = 1000 ]
    run --separate-stderr env -u AGREP_GPU_DEVICE AGREP_GPU_STATS=1 agrep-gpu -c -k 1 -f "$W/p1000" "$W/mb"
    [ "$status" = 0 ]
    # AGREP_GPU_STATS reports kernels only when an OpenCL device scanned
    [[ "$stderr" != *"stats:"* ]] || { echo "a device was used: $stderr"; return 1; }
    [ "${#lines[@]}" = 1 ] || { echo "unexpected output: $output"; return 1; }
    local n=${lines[0]}
    run env AGREP_GPU_HOST_ENGINE=nomulti AGREP_GPU_DEVICE=host agrep-gpu -c -k 1 -f "$W/p1000" "$W/mb"
    [ "$output" = "$n" ] || { echo "with the filter $n lines, without $output"; return 1; }
    echo "# $n lines selected" >&3
}
