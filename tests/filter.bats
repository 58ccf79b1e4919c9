#!/usr/bin/env bats
# The pigeonhole filter of the host matcher (src/filter.c, issue 10): a
# pattern cut into k + 1 pieces, the pieces searched exactly, only the
# records holding one verified with Myers.  Forced with
# AGREP_GPU_HOST_ENGINE=filter (pieces of any length, no giving up) on the
# host matcher (AGREP_GPU_DEVICE=host), against the naive DP oracle:
#  - random cases with planted copies near the threshold k (tests/casegen.c):
#    edits anywhere, so inside pieces and across their boundaries; with -i,
#    -w, -x, -v, -c, -n, -z, small chunks (matches straddling them);
#  - copies of a phrase with edits placed at every piece boundary and inside
#    each piece, at the start and at the end of lines, in lines of several KB
#    (the SIMD verification), with case flips for -i;
#  - -o against the scalar engine (the oracle has no -o);
#  - the automatic choice (filter where it pays, giving up when candidates
#    are dense) on the King James Bible, when bible(1) is there;
#  - the automatic choice on random DNA, where the pair tests agree so often
#    that the filter gives up for the engines (SIMD, or scalar past 63
#    bytes) part way through, with planted copies before and after.
# Knobs: FILTER_SEEDS (random cases, default 8; 24 with AGREP_GPU_TESTS=full).
bats_require_minimum_version 1.5.0
load test_helper
load check_helper

NSEEDS="${FILTER_SEEDS:-$(depth 8 24)}"
FORCE="AGREP_GPU_DEVICE=host AGREP_GPU_HOST_ENGINE=filter"

setup_file() {
    local s
    need_tools casegen oracle || return 1
    case_dir
    local alpha=(az mixed words printable)
    for ((s = 1; s <= NSEEDS; s++)); do
        local opts="-n 3:70 -k 0:8 -p 1:2 -b 1500:5000 -a ${alpha[s % 4]}"
        # shellcheck disable=SC2086
        casegen $opts "$s" "$CASES/t.$s" "$CASES/p.$s" > "$CASES/k.$s"
        echo "tests/bin/casegen $opts $s /tmp/agrep-repro/t.$s /tmp/agrep-repro/p.$s" > "$CASES/g.$s"
        tr '\n' '\0' < "$CASES/t.$s" > "$CASES/z.$s"
    done
    # copies with edits at chosen places: PHRASE K -> lines
    edits "for his mercy endureth for ever" > "$CASES/e1"
    edits "And God saw the light, that it was good: and God divided the" > "$CASES/e2"
    edits "righteousness" > "$CASES/e3"
}

# edits PHRASE: for k in 1..5, copies of PHRASE with k edits (substitution,
# deletion, insertion in turn) at the k + 1 piece boundaries (one byte before,
# at, one byte after) and in the middle of pieces; each copy alone on a line,
# at the start of a line, at its end, with upper-case flips, and one inside a
# line of 5000 bytes.
edits() {
    awk -v P="$1" 'BEGIN {
        n = length(P)
        for (k = 1; k <= 5 && k < n; k++) {
            m = k + 1
            for (d = -1; d <= 2; d++) {
                s = P
                for (j = 1; j <= k; j++) {
                    pos = int(j * n / m) + (d == 2 ? -int(n / m / 2) : d)
                    if (pos < 1) pos = 1
                    if (pos > length(s)) pos = length(s)
                    t = (j + d + k) % 3
                    if (t == 0) s = substr(s, 1, pos - 1) "#" substr(s, pos + 1)
                    else if (t == 1) s = substr(s, 1, pos - 1) substr(s, pos + 1)
                    else s = substr(s, 1, pos - 1) "%" substr(s, pos)
                }
                print s
                print "lead " s
                print s " trail"
                print "x" toupper(substr(s, 1, 5)) substr(s, 6) "y"
                pad = ""
                while (length(pad) < 5000) pad = pad "filler words, "
                print substr(pad, 1, 2500) s substr(pad, 1, 2500)
            }
        }
        print ""
        print "nothing here"
    }'
}

@test "filter (forced) agrees with the oracle on random cases, flags and chunks" {
    begin_checks
    local flagsets=("" "-i" "-w" "-x" "-v -c" "-n -i" "-w -i -n" "-x -c")
    local s k desc f i=0
    for ((s = 1; s <= NSEEDS; s++)); do
        read -r k desc < "$CASES/k.$s"
        GEN=$(cat "$CASES/g.$s")
        f=${flagsets[i++ % ${#flagsets[@]}]}
        # shellcheck disable=SC2086
        check "$FORCE" "" $f -k "$k" -f "$CASES/p.$s" "$CASES/t.$s"
        # shellcheck disable=SC2086
        check "$FORCE AGREP_GPU_CHUNK=300" "" $f -k "$k" -f "$CASES/p.$s" "$CASES/t.$s"
        # pieces re-cut at every range (filter.c's cut_pieces): uneven,
        # with gaps
        # shellcheck disable=SC2086
        check "$FORCE AGREP_GPU_FLT_RECUT=1 AGREP_GPU_CHUNK=300" "" $f -k "$k" -f "$CASES/p.$s" "$CASES/t.$s"
        check "$FORCE" "" -z -c -k "$k" -f "$CASES/p.$s" "$CASES/z.$s"
    done
    end_checks
}

@test "filter (forced): short records verified four at a time (AVX2) as the oracle" {
    # hostmatch.c's verify_avx2: the windows of a batch in four lanes, each
    # lane taking the next window when its own ends, the last ones finished
    # alone from their own state (texts of 15-30 KB: the last batch's lanes
    # run out unevenly; a lane refilled just before the windows ran out
    # once kept the state of the window before, a line too many)
    begin_checks
    local alpha=(az mixed words printable) s k desc g
    for ((s = 1; s <= $(depth 40 120); s++)); do
        g="-n 3:70 -k 0:8 -p 1:3 -b 15000:30000 -a ${alpha[s % 4]} $s"
        # shellcheck disable=SC2086
        casegen $g "$CASES/vt.$s" "$CASES/vp.$s" > "$CASES/vk.$s"
        read -r k desc < "$CASES/vk.$s"
        GEN="tests/bin/casegen $g /tmp/agrep-repro/vt.$s /tmp/agrep-repro/vp.$s"
        check "$FORCE" "" -n -k "$k" -f "$CASES/vp.$s" "$CASES/vt.$s"
    done
    # lines of one length: the four lanes end together; 70 windows, so the
    # last two are taken by lanes 0 and 1 as lane 2 finds none; each line
    # before ends in a match, whose state would hit at once in a line
    # taken without its fresh state
    GEN="(a file of 68 lines 'xxxxabcdefgh' and 2 'abcdzzzzzzzz')"
    local i
    for ((i = 0; i < 70; i++)); do
        [ "$i" -lt 68 ] && echo xxxxabcdefgh || echo abcdzzzzzzzz
    done > "$CASES/lanes"
    check "$FORCE" "" -n -k 1 abcdefgh "$CASES/lanes"
    check "$FORCE" "" -c -k 2 abcdefgh "$CASES/lanes"
    end_checks
}

@test "filter (forced): edits at piece boundaries, line ends, long lines, -i" {
    begin_checks
    local e p k f
    for e in 1 2 3; do
        case $e in
            1) p="for his mercy endureth for ever" ;;
            2) p="And God saw the light, that it was good: and God divided the" ;;
            3) p="righteousness" ;;
        esac
        for k in 0 1 2 3 4 5; do
            for f in "" "-i -n" "-c"; do
                # shellcheck disable=SC2086
                check "$FORCE" "" $f -k "$k" "$p" "$CASES/e$e"
            done
            check "$FORCE AGREP_GPU_CHUNK=1000" "$CASES/e$e" -n -k "$k" "$p"
            check "$FORCE AGREP_GPU_FLT_RECUT=1 AGREP_GPU_CHUNK=1000" "$CASES/e$e" -n -k "$k" "$p"
            check "$FORCE AGREP_GPU_FLT_RECUT=1" "" -i -n -k "$k" "$p" "$CASES/e$e"
        done
    done
    end_checks
}

@test "filter (forced): the nibble search (AVX2) from one piece on, as the oracle" {
    # (filter.c's search_nibble: 4-8 pieces of 3 bytes or more by default;
    # AGREP_GPU_FLT_NIBBLE=1 from one piece: every piece count, starts
    # lagging their fingerprints, the tail, small chunks)
    begin_checks
    local flagsets=("-n" "-i -c" "-w" "-x" "-v -c" "-n -i")
    local s k desc f i=0 e p
    for ((s = 1; s <= NSEEDS; s++)); do
        read -r k desc < "$CASES/k.$s"
        GEN=$(cat "$CASES/g.$s")
        f=${flagsets[i++ % ${#flagsets[@]}]}
        # shellcheck disable=SC2086
        check "$FORCE AGREP_GPU_FLT_NIBBLE=1" "" $f -k "$k" -f "$CASES/p.$s" "$CASES/t.$s"
        # shellcheck disable=SC2086
        check "$FORCE AGREP_GPU_FLT_NIBBLE=1 AGREP_GPU_CHUNK=300" "" $f -k "$k" -f "$CASES/p.$s" "$CASES/t.$s"
    done
    GEN=
    # a match at the text's end whose one exact piece (wxyz: its
    # fingerprint xyz, one byte in) starts just before the vector loop's
    # end and is known by bytes after it (the tail takes the starts that
    # loop left untested): the line at every offset of 40
    local pad
    for ((pad = 0; pad < 40; pad++)); do
        { printf 'a line before\n'; printf '%*s' "$pad" '' | tr ' ' x
          printf ' abXdwxyz\n'; } > "$BATS_TEST_TMPDIR/end"
        run -0 env $FORCE AGREP_GPU_FLT_NIBBLE=1 agrep-gpu -c -k1 abcdwxyz "$BATS_TEST_TMPDIR/end"
        [ "$output" = 1 ] || { echo "pad $pad: $output lines"; return 1; }
    done
    for e in 1 2; do
        case $e in
            1) p="for his mercy endureth for ever" ;;
            2) p="And God saw the light, that it was good: and God divided the" ;;
        esac
        for k in 1 2 3 4 5; do
            check "$FORCE AGREP_GPU_FLT_NIBBLE=1" "" -n -i -k "$k" "$p" "$CASES/e$e"
            check "$FORCE AGREP_GPU_FLT_NIBBLE=1 AGREP_GPU_CHUNK=1000" "$CASES/e$e" -c -k "$k" "$p"
        done
    done
    end_checks
}

@test "the tail prefilter (hostmatch.c: a pattern's last 15 bytes first) as the oracle" {
    # AGREP_GPU_TAIL=1: wherever it can run (16-63 bytes, k < 15, any
    # range), alone (nofilter) and behind the filter's give-up, at the
    # native level and at AVX2
    begin_checks
    local flagsets=("-n" "-i -c" "-w" "-x" "-v -c" "-n -i")
    local s k desc f i=0 isa
    for ((s = 1; s <= NSEEDS; s++)); do
        read -r k desc < "$CASES/k.$s"
        GEN=$(cat "$CASES/g.$s")
        f=${flagsets[i++ % ${#flagsets[@]}]}
        for isa in "" avx2; do
            # shellcheck disable=SC2086
            check "AGREP_GPU_DEVICE=host AGREP_GPU_HOST_ENGINE=nofilter AGREP_GPU_TAIL=1 AGREP_GPU_ISA=$isa" "" $f -k "$k" -f "$CASES/p.$s" "$CASES/t.$s"
        done
        # shellcheck disable=SC2086
        check "AGREP_GPU_DEVICE=host AGREP_GPU_TAIL=1 AGREP_GPU_CHUNK=300" "" $f -k "$k" -f "$CASES/p.$s" "$CASES/t.$s"
    done
    GEN=
    local e p
    for e in 1 2; do
        case $e in
            1) p="for his mercy endureth for ever" ;;
            2) p="And God saw the light, that it was good: and God divided the" ;;
        esac
        for k in 0 1 2 3 4 5; do
            check "AGREP_GPU_DEVICE=host AGREP_GPU_HOST_ENGINE=nofilter AGREP_GPU_TAIL=1" "" -n -i -k "$k" "$p" "$CASES/e$e"
        done
    done
    end_checks
}

@test "filter (forced): -o and --show-cost as the scalar engine gives them" {
    begin_checks
    local s k desc f
    for ((s = 1; s <= 8; s++)); do
        read -r k desc < "$CASES/k.$s"
        for f in "-o" "-o -i -n" "-n --show-cost"; do
            # shellcheck disable=SC2086
            AGREP_GPU_DEVICE=host AGREP_GPU_HOST_ENGINE=scalar agrep-gpu -F $f -k "$k" \
                -f "$CASES/p.$s" "$CASES/t.$s" > "$BATS_TEST_TMPDIR/ref" && rc=0 || rc=$?
            # shellcheck disable=SC2086
            REF="agrep-gpu $f (AGREP_GPU_HOST_ENGINE=scalar)" check_ref "$BATS_TEST_TMPDIR/ref" \
                "$rc" "$FORCE" "" $f -k "$k" -f "$CASES/p.$s" "$CASES/t.$s"
        done
    done
    end_checks
}

@test "filter (automatic, giving up on dense candidates) on the King James Bible" {
    command -v bible >/dev/null || skip "bible(1) missing (bible-kjv)"
    local kjv="$BATS_FILE_TMPDIR/kjv.txt"
    bible "Gen1:1-Rev22:21" | head -c 1500000 > "$kjv"
    begin_checks
    local c
    # pieces of 2..15 bytes: sparse candidates (filter kept) and dense ones
    # (the LORD, k=2: the filter gives up and the SIMD engine takes the rest)
    for c in "1|LORD" "3|righteousness" "4|for his mercy endureth for ever" \
             "2|the LORD" "4|and the LORD said" "5|And God saw the light, that it was good: and God divided the" \
             "10|And God saw the light, that it was good: and God divided the light from the darkness."; do
        check "AGREP_GPU_DEVICE=host" "" -c -k "${c%%|*}" "${c#*|}" "$kjv"
        check "AGREP_GPU_DEVICE=host" "" -n -i -k "${c%%|*}" "${c#*|}" "$kjv"
    done
    # dense even pieces ("f Israel "), re-cut where the text says they are
    # rare (filter.c's cut_pieces), forced and by density
    for c in "5|and the children of Israel went out with an high hand" "3|the children of Israel"; do
        check "$FORCE" "" -n -k "${c%%|*}" "${c#*|}" "$kjv"
        check "$FORCE AGREP_GPU_FLT_RECUT=1" "" -n -i -k "${c%%|*}" "${c#*|}" "$kjv"
    done
    end_checks
}

@test "filter (automatic, giving up on noisy pair tests) on random DNA" {
    # 1,600 random lines of 250 bases (400 KB); every 37th line holds a copy
    # of a 60-byte (SIMD engine) or 105-byte (scalar engine) pattern with
    # 0-6 random edits.  The pair tests agree at 18-34 % of the positions:
    # the filter gives up after 70-330 KB, the engines take the rest.
    local p60=gtaccgcaacgcacccgtcgagcacacaactacgtttgctgaagtgtaggtctagaccgc
    local p105=${p60}acgtacgtagctagctagcatcgatcgactagctacgatcgatcg
    local dna="$BATS_TEST_TMPDIR/dna"
    awk -v P1="$p60" -v P2="$p105" 'BEGIN {
        srand(7); split("a c g t", B, " ")
        for (l = 1; l <= 1600; l++) {
            s = ""
            for (i = 0; i < 250; i++) s = s B[int(rand() * 4) + 1]
            if (l % 37 == 0) {
                c = l % 2 ? P1 : P2
                for (e = int(rand() * 7); e > 0; e--) {
                    pos = int(rand() * length(c)) + 1; t = int(rand() * 3)
                    b = B[int(rand() * 4) + 1]
                    if (t == 0) c = substr(c, 1, pos - 1) b substr(c, pos + 1)
                    else if (t == 1) c = substr(c, 1, pos - 1) substr(c, pos + 1)
                    else c = substr(c, 1, pos - 1) b substr(c, pos)
                }
                at = int(rand() * 150)
                s = substr(s, 1, at) c substr(s, at + 1)
            }
            print s
        }
    }' > "$dna"
    begin_checks
    local k
    for k in 1 3 5; do
        check "AGREP_GPU_DEVICE=host" "" -c -k "$k" "$p60" "$dna"
        check "AGREP_GPU_DEVICE=host" "" -n -k "$k" "$p60" "$dna"
    done
    for k in 3 6 10; do
        check "AGREP_GPU_DEVICE=host" "" -n -k "$k" "$p105" "$dna"
    done
    end_checks
}
