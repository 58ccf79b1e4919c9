#!/usr/bin/env bats
# Instruction sets (src/cpu.c): AGREP_GPU_ISA caps what the host engines may
# use.  For every level this CPU has (baseline, avx2, avx512bw, avx512), the
# level in use is the cap, and the many-pattern filter, the single-pattern
# filters and SIMD lanes, --show-edits and --json give output byte-identical
# to the uncapped run; the host engines' bounded-exhaustive check passes at
# each level.  Levels above this CPU's are proved by tests/qemu.sh (make
# check-qemu: the same suites as a Haswell and a Nehalem under qemu).
# make check runs the heaviest tests on a sample (each says which): most
# cases at one cap, in turn, every cap meeting several of them; make
# check-full every case at every cap.
load test_helper
bats_require_minimum_version 1.5.0

setup_file() {
    command -v bible >/dev/null ||
        { echo "bible missing: 'make deps' installs it (bible-kjv)" >&2; return 1; }
    bible "Gen1:1-Rev22:21" > "$BATS_FILE_TMPDIR/kjv.txt"
    # the text the levels' outputs are compared on ($K): full, the whole
    # Bible (4.3 MB); quick, every fourth line of it (1.1 MB, lines of
    # every book: each pattern below still has matches; the outputs are
    # compared byte for byte whatever the size, and the runs over the
    # whole text were most of this file's time)
    if [ "$(depth quick full)" = full ]; then
        cp "$BATS_FILE_TMPDIR/kjv.txt" "$BATS_FILE_TMPDIR/same.txt"
    else
        awk 'NR % 4 == 1' "$BATS_FILE_TMPDIR/kjv.txt" > "$BATS_FILE_TMPDIR/same.txt"
    fi
    # 60 words of 5-12 letters (the shared filter: 12 patterns and more),
    # and 300 for the pattern tables' larger sizes
    # (the Bible's words of 3 letters and more, sorted once)
    tr -cs 'A-Za-z' '\n' < "$BATS_FILE_TMPDIR/kjv.txt" | awk 'length > 2' |
        sort -u > "$BATS_FILE_TMPDIR/words"
    awk 'length > 4 && length < 13' "$BATS_FILE_TMPDIR/words" |
        awk 'NR % 37 == 1' | head -60 > "$BATS_FILE_TMPDIR/w60"
    awk 'NR % 41 == 3' "$BATS_FILE_TMPDIR/words" | head -300 > "$BATS_FILE_TMPDIR/w300"
    # random DNA (900 KB of 150-base lines) and 24-base primers taken from
    # it: the filters' give-up rules, where every piece matches everywhere
    awk 'BEGIN { srand(7); for (i = 0; i < 6000; i++) { s = "";
        for (j = 0; j < 150; j++) s = s substr("ACGT", int(rand() * 4) + 1, 1);
        print s } }' > "$BATS_FILE_TMPDIR/rnd"
    awk 'NR % 300 == 1 { print substr($0, NR % 100 + 1, 24) }' "$BATS_FILE_TMPDIR/rnd" \
        > "$BATS_FILE_TMPDIR/rndpat"
    probe_levels > "$BATS_FILE_TMPDIR/levels" || rm -f "$BATS_FILE_TMPDIR/levels"
}

setup() {
    KJV="$BATS_FILE_TMPDIR/kjv.txt"
    K="$BATS_FILE_TMPDIR/same.txt"
    D="$BATS_FILE_TMPDIR"
    export AGREP_GPU_DEVICE=host
}

# The levels this CPU has, lowest first: probe_levels asks agrep-gpu
# --list-devices (a quarter of a second: it looks at the OpenCL devices
# too), levels reads setup_file's answer.
levels() {
    if [ -s "$BATS_FILE_TMPDIR/levels" ]; then
        local l
        while read -r l; do echo "$l"; done < "$BATS_FILE_TMPDIR/levels"
        return 0
    fi
    probe_levels
}
probe_levels() {
    local top all="baseline avx2 avx512bw avx512" l
    top=$(agrep-gpu --list-devices 2>/dev/null | sed -n 's/^host: \([a-z0-9]*\) instruction set.*/\1/p')
    [ -n "$top" ] || { echo "no host line in --list-devices" >&2; return 1; }
    for l in $all; do
        echo "$l"
        [ "$l" = "$top" ] && return 0
    done
}

# turn N: CAPS, the levels case N of a test runs at: every level in
# check-full; in make check one, level N + N / L of the L levels, so that
# each run of L cases meets every level and the next run of L meets them
# one case on (a loop over four k: each k at every level, each level at
# every k).  (It sets CAPS rather than printing it: no subshell a case.)
turn() {
    local -a lv
    [ -n "${LEVELS:-}" ] || LEVELS=$(levels)
    [ -n "${EVERY:-}" ] || EVERY=$(depth no yes)
    CAPS=$LEVELS
    [ "$EVERY" = yes ] && return 0
    mapfile -t lv <<< "$LEVELS"
    CAPS=${lv[($1 + $1 / ${#lv[@]}) % ${#lv[@]}]}
}

# same ARGS...: the output and status of every capped level are the
# uncapped run's.  (The outputs go to files and cmp, byte for byte, NULs
# and trailing newlines included: bash took a second to hold and compare
# the megabytes of some of them; the levels are asked for once a test;
# only --json's outputs go through sed.)
# With BY_TURNS set (the heaviest tests), the caps of the test's Nth call
# are turn N's: in make check one cap a call, every cap in check-full.
same() {
    local l rc=0 wrc=0 d="$BATS_TEST_TMPDIR" caps
    [ -n "${LEVELS:-}" ] || LEVELS=$(levels)
    caps=$LEVELS
    if [ -n "${BY_TURNS:-}" ]; then
        turn "${NSAME:-0}"
        caps=$CAPS
        NSAME=$((${NSAME:-0} + 1))
    fi
    # (--json's elapsed times differ from run to run)
    local json=
    case " $* " in *" --json "*) json=1 ;; esac
    if [ -n "$json" ]; then
        agrep-gpu "$@" > "$d/same.out" || wrc=$?
        sed 's/"elapsed[^}]*}//g' "$d/same.out" > "$d/same.want"
    else
        agrep-gpu "$@" > "$d/same.want" || wrc=$?
    fi
    [ "$wrc" -le 1 ] || { echo "uncapped: exit $wrc: $*"; return 1; }
    for l in $caps; do
        rc=0
        if [ -n "$json" ]; then
            AGREP_GPU_ISA=$l agrep-gpu "$@" > "$d/same.out" || rc=$?
            sed 's/"elapsed[^}]*}//g' "$d/same.out" > "$d/same.got"
        else
            AGREP_GPU_ISA=$l agrep-gpu "$@" > "$d/same.got" || rc=$?
        fi
        if [ "$rc" != "$wrc" ] || ! cmp -s "$d/same.want" "$d/same.got"; then
            echo "AGREP_GPU_ISA=$l differs (exit $rc, uncapped $wrc): agrep-gpu $*"
            diff "$d/same.want" "$d/same.got" | head -5
            return 1
        fi
    done
}

@test "isa: each cap is the level in use, and a bad cap is an error" {
    local l
    run -0 probe_levels
    [ "$output" = "$(levels)" ]
    for l in $(levels); do
        run -0 --separate-stderr env AGREP_GPU_ISA=$l AGREP_GPU_STATS=1 agrep-gpu -c -k1 LORD "$KJV"
        assert_output 6386
        assert_regex "$stderr" "host: [0-9]+ workers, $l instruction set"
    done
    run -2 --separate-stderr env AGREP_GPU_ISA=sse9 agrep-gpu -c LORD "$KJV"
    assert_output ''
    assert_regex "$stderr" "AGREP_GPU_ISA: unknown instruction set 'sse9'"
}

@test "isa: many patterns (the shared filter), every cap, same output" {
    # (make check: each case at one cap, in turn: every cap on two or
    # three of the nine; check-full, every case at every cap)
    local k BY_TURNS=1
    for k in 0 1 2; do
        same -c -k "$k" -f "$D/w60" "$K"
    done
    same -n -k1 -i -f "$D/w300" "$K"
    same -o -b -k1 -f "$D/w60" "$K"
    same -w -n -k1 -f "$D/w60" "$K"
    same -x -c -k1 -f "$D/w60" "$K"
    same -c -k3 -f "$D/rndpat" "$D/rnd"
    same -n -k1 -f "$D/rndpat" "$D/rnd"
}

@test "isa: one pattern (SIMD lanes, filters, scalar), every cap, same output" {
    # (make check: two of a pattern's three cases, in turn (pattern i
    # leaves out case i mod 3: each case on four or five of the seven
    # patterns), each at one cap, in turn: on four levels every pattern
    # meets two caps, every cap three or four of the patterns; check-full,
    # every case of every pattern at every cap)
    local k p BY_TURNS=1 i=0 c all=1
    [ "$(depth quick full)" = full ] || all=0
    for p in LORD mercy endureth righteousness 'for his mercy endureth for ever' \
        'And it came to pass, when the LORD would take up Elijah into heaven' \
        'Abraham begat Isaac; and Isaac begat Jacob; and Jacob begat Judas and his brethren'; do
        c=0
        for k in 1 3; do
            ((all || c++ != i % 3)) || continue
            same -c -k "$k" "$p" "$K"
        done
        if ((all || i % 3 != 2)); then
            same -n -i -k2 "$p" "$K"
        fi
        i=$((i + 1))
    done
    same -c -k2 -j1 ACGTACGTTGCA "$D/rnd"
    same -c -k5 "$(head -c 60 "$D/rnd")" "$D/rnd"
}

@test "isa: k=0, one pattern (filter.c flt_find), every cap, as grep -F" {
    local l p f
    # an a/b text: three bytes agree often, and whole strings of a and b
    awk 'BEGIN { srand(11); for (i = 0; i < 400; i++) { s = "";
        n = int(rand() * 90); for (j = 0; j < n; j++) s = s (rand() < 0.7 ? "a" : "b");
        print s } }' > "$D/ab"
    # patterns taken from each text at every length from 1 to 40, the
    # last unit changed in every third (none or few occurrences), then
    # longer than any line
    for f in "$D/ab" "$K" "$D/rnd"; do
        awk -v f="$f" 'BEGIN { srand(5) } { l[NR] = $0 } END {
            for (n = 1; n <= 40; n++) { x = l[int(rand() * NR) + 1];
                if (length(x) < n) continue;
                s = substr(x, int(rand() * (length(x) - n + 1)) + 1, n);
                if (n % 3 == 0) s = substr(s, 1, n - 1) "b"; print f "\t" s } }' "$f"
    done > "$D/pats"
    printf '%s\t%s\n' "$D/ab" "$(printf 'a%.0s' $(seq 95))" "$D/rnd" "$(head -c 149 "$D/rnd")" >> "$D/pats"
    [ "$(wc -l < "$D/pats")" -gt 60 ]
    # each pattern at every cap (check-full), or every other pattern
    # (the odd lengths of a text, or the even, and the two long ones) at
    # one cap in turn (make check: each cap meets some of every text's
    # lengths, changed or not)
    local i=0
    if [ "$(depth quick full)" = full ]; then
        cp "$D/pats" "$D/pats.run"
    else
        awk '{ a[NR] = $0 } END { for (i = 1; i <= NR; i++) if (i % 2 || i > NR - 2) print a[i] }' \
            "$D/pats" > "$D/pats.run"
    fi
    while IFS=$'\t' read -r f p; do
        grep -n -F -e "$p" "$f" > "$D/want" || true
        turn $((i++))
        for l in $CAPS; do
            AGREP_GPU_ISA=$l agrep-gpu -n -F -e "$p" "$f" > "$D/got" || true
            cmp -s "$D/want" "$D/got" ||
                { echo "AGREP_GPU_ISA=$l: -n -F -e '$p' $f differs from grep"; return 1; }
        done
    done < "$D/pats.run"
}

@test "isa: --show-edits, --show-cost and --json, every cap, same output" {
    # (make check: each case at one cap, in turn, every cap once;
    # check-full, every case at every cap)
    local BY_TURNS=1
    same -n --show-edits -k2 mercy "$K"
    same --show-cost -o -k3 righteousness "$K"
    same --json -k1 -f "$D/w60" "$K"
    same --json --show-edits -k1 'for his mercy endureth for ever' "$K"
}

@test "isa: the host engines agree with the DP at every cap (exhaustive -q)" {
    # (make check: the caps below the top, where there are some, the top
    # cap being no cap (the first test) and exhaustive.bats running the
    # program uncapped on larger sets (-m); the prefix filter's blocks,
    # pp_blocks, on 256 KB at k 3 and 5, as tests/qemu.sh runs them: on
    # 1 MB they took two thirds of the time, and exhaustive.bats's run
    # scans those with every variant)
    local l blocks top=
    blocks=$(depth 256 "")
    [ "$(levels | wc -l)" -lt 2 ] || top=$(depth "$(levels | tail -1)" "")
    for l in $(levels); do
        [ "$l" != "$top" ] || continue
        run -0 env ${blocks:+EXH_PP_BLOCKS_KB=$blocks} AGREP_GPU_ISA=$l exhaustive -q
        assert_output --partial "all agree with the DP"
    done
}

@test "isa: small expressions on lanes (src/relanes.c), every cap, same lines and bits" {
    # (make check: each case at one cap, in turn; one k an expression, 0,
    # 1, 2 and 3 in turn: on four levels each k on two expressions, each
    # cap on two; check-full, every k at every cap)
    local e k l nr BY_TURNS=1 all=1 o m
    # (the last three: rows of two bytes, 9-16 positions)
    for e in 'j[aeiou]*b' 'wh(o|ic)h?' '[A-Z][a-z]+ of [A-Z][a-z]+' 'se(r|v)+ant' '(a|e)[^ ]*th' \
        'mercy.*ever' 'the (LORD|Lord)+ God' '[Ss]on of [A-Z][a-z]+'; do
        # (slow builds: two k an expression, in turns)
        l=$((l + 1))
        for k in $(depth "$((l % 4))" "0 1 2 3" "$((l % 4))"); do
            same -n -E -k$k "$e" "$K"
        done
    done
    same -c -i -E -k1 'LO+RD' "$K"
    same -c -i -E -k2 'the (LORD|Lord)+ God' "$K"
    same -c -E -k2 'wh(o|ic)h?' -z "$K"
    same -o -b -E -k1 '[A-Z][a-z]+ of [A-Z][a-z]+' "$K"
    # a small language: its words are the patterns, its automaton the
    # host's scan where the lanes are (pattern.c: ps->sel); check-full:
    # every case of every language, make check: case j of language i
    # where i + j is a multiple of 3 (every case once, every language once
    # or twice)
    [ "$(depth quick full)" = full ] || all=0
    local -a opts=("-n -o -E -k1" "--show-edits -E -k1" "-c -w -E -k2" "-c -x -E -k2" \
        "--color=always -E -k0")
    m=0
    for e in 'colou?r' 'wh(o|ic)h?' 'Jo(b|el)'; do
        for ((o = 0; o < ${#opts[@]}; o++)); do
            ((all || (m + o) % 3 == 0)) || continue
            # shellcheck disable=SC2086
            same ${opts[o]} "$e" "$K"
        done
        m=$((m + 1))
    done
    # every range through the lanes, however short: the oracle's lines
    # (reexh's bounded-exhaustive sets, -q, then random expressions:
    # full, 300 of them at every cap; quick, 100 at every other cap from
    # the top: here avx512 and avx2, 64 lanes and 32; avx512bw has
    # avx512's 64 (relanes.c), baseline none: reexh there is regex.bats's
    # check)
    nr=$(depth 100 300)
    local -a lv
    mapfile -t lv < <(levels)
    for ((l = ${#lv[@]} - 1; l >= 0; l -= $(depth 2 1))); do
        run -0 env AGREP_GPU_RE_LANES_MIN=0 AGREP_GPU_ISA=${lv[l]} reexh -q -r "$nr"
        assert_output --partial "all: "
        assert_output --partial ", 0 failures"
        assert_output --partial "random, 9-16 positions: $nr expressions"
        refute_output --partial "FAIL"
    done
}
