#!/usr/bin/env bats
# The host planner (src/engines/hplan.c, issue 36): the host's engines are
# chosen by timing the candidates on the first chunk of 16 KB or more, and
# probed again when the plan runs slower than its runner-up did.  The choice
# must never change the output: the default, the rule's choice
# (AGREP_GPU_HOST_PLAN=rule), a probe on every chunk while the other
# workers scan with the plan of the moment (AGREP_GPU_HOST_PLAN=reprobe),
# and every forced engine give the same bytes, at -j1 and -j2 (in turn in
# make check, both each with AGREP_GPU_TESTS=full), on Bible
# words (where the filters win) and on DNA primers (where the
# pattern-parallel engine does).  The timings themselves are the
# benchmark's (bench/hostplan.sh), not a test's.
bats_require_minimum_version 1.5.0
load test_helper

setup_file() {
    command -v bible >/dev/null ||
        { echo "bible missing: 'make deps' installs bible-kjv" >&2; return 1; }
    export KJV="$BATS_FILE_TMPDIR/kjv.txt"
    bible "Gen1:1-Rev22:21" > "$KJV"
    # 300 words of 5-15 letters that occur in the text
    tr -cs 'A-Za-z' '\n' < "$KJV" | awk 'length >= 5 && length <= 15' |
        sort -u | awk 'NR % 37 == 1' | head -300 > "$BATS_FILE_TMPDIR/words"
    # 2 MB of random DNA in lines of 150, and 40 primers of 24 bases taken
    # from it (so they have hits), some with an edit
    export DNA="$BATS_FILE_TMPDIR/dna.txt"
    awk 'BEGIN { srand(7); for (i = 0; i < 14000; i++) { s = "";
        for (j = 0; j < 150; j++) s = s substr("ACGT", int(rand() * 4) + 1, 1);
        print s } }' > "$DNA"
    awk 'NR % 350 == 3 { p = substr($0, 20, 24);
        if (NR % 700 == 3) p = substr(p, 1, 10) "A" substr(p, 12); print p }' \
        "$DNA" > "$BATS_FILE_TMPDIR/primers"
}

# agree FILE ARGS...: every plan and forced engine against the default
agree() {
    local file=$1 exp out how
    shift
    exp=$(AGREP_GPU_DEVICE=host agrep-gpu "$@" "$file")
    [ -n "$exp" ]
    local i=0 js
    for how in "AGREP_GPU_HOST_PLAN=rule" "AGREP_GPU_HOST_PLAN=reprobe" \
        "AGREP_GPU_HOST_PLAN=reprobe AGREP_GPU_CHUNK=20000" \
        "AGREP_GPU_HOST_ENGINE=nopp" "AGREP_GPU_HOST_ENGINE=pp" \
        "AGREP_GPU_HOST_ENGINE=nofilter" "AGREP_GPU_HOST_ENGINE=nomulti" \
        "AGREP_GPU_HOST_ENGINE=multi" "AGREP_GPU_HOST_ENGINE=seed" \
        "AGREP_GPU_HOST_ENGINE=seed AGREP_GPU_SEED_QMIN=3"; do
        # quick: -j1 and -j2 in turn (the probes shared out by -j2 in
        # every reprobe run); full: both for each
        i=$((i + 1))
        js=$(depth "$((1 + i % 2))" "1 2")
        case $how in *reprobe*) js=$(depth 2 "1 2") ;; esac
        for j in $js; do
            # shellcheck disable=SC2086
            out=$(env AGREP_GPU_DEVICE=host $how agrep-gpu -j$j "$@" "$file")
            [ "$out" = "$exp" ] || { echo "MISMATCH: $how -j$j $*"; return 1; }
        done
    done
}

@test "host planner: Bible words, every plan and engine select the same lines" {
    agree "$KJV" -n -k1 -f "$BATS_FILE_TMPDIR/words"
    agree "$KJV" -c -k2 -i -f "$BATS_FILE_TMPDIR/words"
    agree "$KJV" -b -o -k1 -e mercy -e righteousness -e 'the LORD'
}

@test "host planner: DNA primers, every plan and engine select the same lines" {
    agree "$DNA" -n -k3 -f "$BATS_FILE_TMPDIR/primers"
    agree "$DNA" -c -k1 -f "$BATS_FILE_TMPDIR/primers"
}

@test "host planner: AGREP_GPU_STATS says what it chose and why" {
    run env AGREP_GPU_DEVICE=host AGREP_GPU_STATS=1 AGREP_GPU_HOST_PLAN=probe agrep-gpu -c -k1 -f "$BATS_FILE_TMPDIR/words" "$KJV"
    assert_success
    assert_line --regexp '^agrep-gpu: host plan: (rule|nopp|pp|nofilter|nomulti|multi|seed|filter) \( rule [0-9.]+ ms/[0-9]+ KB,.* \); the probe took [0-9.]+ ms$'
    # off: the rule's engines, no probe
    run env AGREP_GPU_DEVICE=host AGREP_GPU_STATS=1 AGREP_GPU_HOST_PLAN=rule agrep-gpu -c -k1 -f "$BATS_FILE_TMPDIR/words" "$KJV"
    refute_line --partial "host plan"
    # inputs too small to time: the rule, no probe
    run env AGREP_GPU_DEVICE=host AGREP_GPU_STATS=1 agrep-gpu -c -k1 mercy <(head -c 8000 "$KJV")
    refute_line --partial "host plan"
}

@test "host planner: a set of over 20,000 patterns probes the shared filters only" {
    # (the per-pattern engines' probe took seconds and gigabytes there)
    awk 'BEGIN { srand(3); for (i = 0; i < 25000; i++) { w = ""
        n = 5 + int(rand() * 6); for (j = 0; j < n; j++)
            w = w substr("abcdefghijklmnopqrstuvwxyz", 1 + int(rand() * 26), 1)
        print w } }' > "$BATS_TEST_TMPDIR/big"
    head -c 100000 "$KJV" > "$BATS_TEST_TMPDIR/t"
    run env AGREP_GPU_DEVICE=host AGREP_GPU_STATS=1 AGREP_GPU_HOST_PLAN=probe agrep-gpu -c -k1 -f "$BATS_TEST_TMPDIR/big" "$BATS_TEST_TMPDIR/t"
    assert_success
    assert_line --regexp '^agrep-gpu: host plan: (nopp|multi|seed) \('
    refute_line --regexp 'host plan: .*( rule | pp | nofilter | nomulti )'
    # (the same count as an engine that scans every pattern: not on the
    # sanitizer builds, where it alone takes 15 s)
    slow_build && return 0
    run env AGREP_GPU_DEVICE=host agrep-gpu -c -k1 -f "$BATS_TEST_TMPDIR/big" "$BATS_TEST_TMPDIR/t"
    local n=$output
    run env AGREP_GPU_HOST_ENGINE=nofilter agrep-gpu -c -k1 -f "$BATS_TEST_TMPDIR/big" "$BATS_TEST_TMPDIR/t"
    assert_output "$n"
}

@test "host planner: a plan is remembered by pattern set and kind of text, and revised" {
    export XDG_CACHE_HOME="$BATS_TEST_TMPDIR/cache"
    local w="$BATS_FILE_TMPDIR/words" exp
    exp=$(AGREP_GPU_DEVICE=host AGREP_GPU_HOST_PLAN=rule agrep-gpu -c -k1 -f "$w" "$KJV")
    run env AGREP_GPU_DEVICE=host AGREP_GPU_STATS=1 agrep-gpu -c -k1 -f "$w" "$KJV"
    assert_line --regexp '^agrep-gpu: host plan: [a-z]+ \( rule .*; the probe took'
    assert_line "$exp"
    [ "$(wc -l < "$XDG_CACHE_HOME/agrep-gpu/hplan.txt")" -eq 1 ]
    run env AGREP_GPU_DEVICE=host AGREP_GPU_STATS=1 agrep-gpu -c -k1 -f "$w" "$KJV"
    assert_line --regexp '^agrep-gpu: host plan: [a-z]+ \(cached, [0-9.]+ MB a CPU second in its probe, run 1 of 15\)$'
    refute_line --partial "the probe took"
    assert_line "$exp"
    # probed again after 15 runs took it from the cache
    local i
    for i in $(seq 2 15); do
        AGREP_GPU_DEVICE=host AGREP_GPU_STATS=1 agrep-gpu -c -k1 -f "$w" "$KJV" 2>&1 >/dev/null |
            grep -q "run $i of 15" || { echo "run $i: not cached"; return 1; }
    done
    run env AGREP_GPU_DEVICE=host AGREP_GPU_STATS=1 agrep-gpu -c -k1 -f "$w" "$KJV"
    assert_line --partial "the probe took"
    assert_line "$exp"
    # another k, another kind of text (DNA): probed, remembered apart
    run env AGREP_GPU_DEVICE=host AGREP_GPU_STATS=1 agrep-gpu -c -k2 -f "$w" "$KJV"
    assert_line --partial "the probe took"
    run env AGREP_GPU_DEVICE=host AGREP_GPU_STATS=1 agrep-gpu -c -k1 -f "$w" "$DNA"
    assert_line --partial "the probe took"
    [ "$(wc -l < "$XDG_CACHE_HOME/agrep-gpu/hplan.txt")" -eq 3 ]
    # a plan cached as faster than it runs is probed again (a damaged or
    # foreign entry: every rate a thousand times the truth)
    awk '{ $3 = $3 * 1000; print }' "$XDG_CACHE_HOME/agrep-gpu/hplan.txt" > "$BATS_TEST_TMPDIR/h" &&
        mv "$BATS_TEST_TMPDIR/h" "$XDG_CACHE_HOME/agrep-gpu/hplan.txt"
    cp "$XDG_CACHE_HOME/agrep-gpu/hplan.txt" "$BATS_TEST_TMPDIR/inflated"
    big="$BATS_TEST_TMPDIR/big"
    for i in 1 2 3; do cat "$KJV"; done > "$big"
    exp=$(AGREP_GPU_DEVICE=host AGREP_GPU_HOST_PLAN=rule agrep-gpu -c -k1 -f "$w" "$big")
    run env AGREP_GPU_DEVICE=host AGREP_GPU_STATS=1 agrep-gpu -j1 -c -k1 -f "$w" "$big"
    assert_line --partial "(cached,"
    assert_line --partial "probing again"
    assert_line "$exp"
    # ... unless less than 4 MB of the inputs are left (the Bible's 4.3 MB
    # was probed again at 4.2 MB); a stream's size is not known
    cp "$BATS_TEST_TMPDIR/inflated" "$XDG_CACHE_HOME/agrep-gpu/hplan.txt"
    exp=$(AGREP_GPU_DEVICE=host AGREP_GPU_HOST_PLAN=rule agrep-gpu -c -k1 -f "$w" "$KJV")
    run env AGREP_GPU_DEVICE=host AGREP_GPU_STATS=1 agrep-gpu -j1 -c -k1 -f "$w" "$KJV"
    assert_line --partial "(cached,"
    assert_line --partial "too little text left to probe again"
    refute_line --partial "probing again"
    refute_line --partial "the probe took"
    assert_line "$exp"
    cp "$BATS_TEST_TMPDIR/inflated" "$XDG_CACHE_HOME/agrep-gpu/hplan.txt"
    run env AGREP_GPU_DEVICE=host AGREP_GPU_STATS=1 agrep-gpu -j1 -c -k1 -f "$w" < <(cat "$KJV")
    assert_line --partial "(cached,"
    assert_line --partial "probing again"
    assert_line "$exp"
    # a damaged file is read past, never trusted; none with AGREP_GPU_NO_CACHE
    printf 'zz\n0000000000000001 nosuch 5\n' > "$XDG_CACHE_HOME/agrep-gpu/hplan.txt"
    run env AGREP_GPU_DEVICE=host AGREP_GPU_STATS=1 agrep-gpu -c -k1 -f "$w" "$KJV"
    assert_line --partial "the probe took"
    run env AGREP_GPU_DEVICE=host AGREP_GPU_STATS=1 AGREP_GPU_NO_CACHE=1 agrep-gpu -c -k1 -f "$w" "$KJV"
    assert_line --partial "the probe took"
}

@test "host planner: a shared table's building is not counted as the chunk's scan (no probe again every run)" {
    # 1,000 primers -k2 over 6 MB of DNA: the seed filter's table
    # (160,000 variants) was built inside the first chunk the plan timed,
    # which then ran at a third of the probe's rate, and every run that
    # found the plan cached probed again
    slow_build && skip "a comparison of timings: not under the sanitizers or qemu"
    local d="$BATS_TEST_TMPDIR/dna6" p="$BATS_TEST_TMPDIR/pr1000" r
    export XDG_CACHE_HOME="$BATS_TEST_TMPDIR/cache"
    cat "$DNA" "$DNA" "$DNA" > "$d"
    awk '{ for (o = 1; o <= 121 && n < 1000; o += 40) { print substr($0, o, 24); n++ } }
        n >= 1000 { exit }' "$DNA" | sort -u > "$p"
    run -0 env AGREP_GPU_DEVICE=host AGREP_GPU_STATS=1 agrep-gpu -c -k2 -f "$p" "$d"
    assert_line --partial "the probe took"
    case $output in
    *"host plan: seed ("*) ;;
    *) skip "the probe picked another engine than the seed filter here" ;;
    esac
    for r in 1 2; do
        run -0 env AGREP_GPU_DEVICE=host AGREP_GPU_STATS=1 agrep-gpu -c -k2 -f "$p" "$d"
        assert_line --regexp "host plan: seed \\(cached, .* run $r of 15\\)"
        refute_line --partial "probing again"
    done
}
