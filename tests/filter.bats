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
# make check takes a case's settings (flags, chunks, engines) in turn, each
# setting still on several cases (on the phrases with edits at the piece
# boundaries, on every phrase), and 16 random short-record cases;
# AGREP_GPU_TESTS=full every setting on every case, and 120.
bats_require_minimum_version 1.5.0
load test_helper
load check_helper

NSEEDS="${FILTER_SEEDS:-$(depth 8 24)}"
ALL=$(depth 0 1)
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
    # (make check: odd seeds the whole text and re-cut pieces in chunks,
    # even ones chunks and -z)
    for ((s = 1; s <= NSEEDS; s++)); do
        read -r k desc < "$CASES/k.$s"
        GEN=$(cat "$CASES/g.$s")
        f=${flagsets[i++ % ${#flagsets[@]}]}
        if ((ALL || s % 2)); then
            # shellcheck disable=SC2086
            check "$FORCE" "" $f -k "$k" -f "$CASES/p.$s" "$CASES/t.$s"
        fi
        if ((ALL || s % 2 == 0)); then
            # shellcheck disable=SC2086
            check "$FORCE AGREP_GPU_CHUNK=300" "" $f -k "$k" -f "$CASES/p.$s" "$CASES/t.$s"
        fi
        # pieces re-cut at every range (filter.c's cut_pieces): uneven,
        # with gaps
        if ((ALL || s % 2)); then
            # shellcheck disable=SC2086
            check "$FORCE AGREP_GPU_FLT_RECUT=1 AGREP_GPU_CHUNK=300" "" $f -k "$k" -f "$CASES/p.$s" "$CASES/t.$s"
        fi
        if ((ALL || s % 2 == 0)); then
            check "$FORCE" "" -z -c -k "$k" -f "$CASES/p.$s" "$CASES/z.$s"
        fi
    done
    end_checks
}

@test "filter (forced): short records verified four at a time (AVX2) as the oracle" {
    # hostmatch.c's verify_avx2: the windows of a batch in four lanes, each
    # lane taking the next window when its own ends, the last ones finished
    # alone from their own state (texts of 15-30 KB: the last batch's lanes
    # run out unevenly; a lane refilled just before the windows ran out
    # once kept the state of the window before, a line too many): full,
    # 120 of them; quick, 16 (each alphabet four times)
    begin_checks
    local alpha=(az mixed words printable) s k desc g
    for ((s = 1; s <= $(depth 16 120); s++)); do
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
    # (make check: one of the six runs a phrase and k, run (k - e) % 6:
    # each run on every phrase, at three k in a row, odd and even)
    begin_checks
    local e p k f j
    for e in 1 2 3; do
        case $e in
            1) p="for his mercy endureth for ever" ;;
            2) p="And God saw the light, that it was good: and God divided the" ;;
            3) p="righteousness" ;;
        esac
        for k in 0 1 2 3 4 5; do
            j=0
            for f in "" "-i -n" "-c"; do
                ((ALL || (k - e + 6) % 6 == j++)) || continue
                # shellcheck disable=SC2086
                check "$FORCE" "" $f -k "$k" "$p" "$CASES/e$e"
            done
            if ((ALL || (k - e + 6) % 6 == 3)); then
                check "$FORCE AGREP_GPU_CHUNK=1000" "$CASES/e$e" -n -k "$k" "$p"
            fi
            if ((ALL || (k - e + 6) % 6 == 4)); then
                check "$FORCE AGREP_GPU_FLT_RECUT=1 AGREP_GPU_CHUNK=1000" "$CASES/e$e" -n -k "$k" "$p"
            fi
            if ((ALL || (k - e + 6) % 6 == 5)); then
                check "$FORCE AGREP_GPU_FLT_RECUT=1" "" -i -n -k "$k" "$p" "$CASES/e$e"
            fi
        done
    done
    end_checks
}

@test "filter (forced): the nibble search (AVX2) from one piece on, as the oracle" {
    # (filter.c's search_nibble: 4-8 pieces of 3 bytes or more by default;
    # AGREP_GPU_FLT_NIBBLE=1 from one piece: every piece count, starts
    # lagging their fingerprints, the tail, small chunks)
    # (make check: the whole text or small chunks, in turn a case; -n -i
    # or chunked -c, in turn a phrase and k)
    begin_checks
    local flagsets=("-n" "-i -c" "-w" "-x" "-v -c" "-n -i")
    local s k desc f i=0 e p
    for ((s = 1; s <= NSEEDS; s++)); do
        read -r k desc < "$CASES/k.$s"
        GEN=$(cat "$CASES/g.$s")
        f=${flagsets[i++ % ${#flagsets[@]}]}
        if ((ALL || s % 2)); then
            # shellcheck disable=SC2086
            check "$FORCE AGREP_GPU_FLT_NIBBLE=1" "" $f -k "$k" -f "$CASES/p.$s" "$CASES/t.$s"
        fi
        if ((ALL || s % 2 == 0)); then
            # shellcheck disable=SC2086
            check "$FORCE AGREP_GPU_FLT_NIBBLE=1 AGREP_GPU_CHUNK=300" "" $f -k "$k" -f "$CASES/p.$s" "$CASES/t.$s"
        fi
    done
    GEN=
    # a match at the text's end whose one exact piece (wxyz: its
    # fingerprint xyz, one byte in) starts just before the vector loop's
    # end and is known by bytes after it (the tail takes the starts that
    # loop left untested): the line at every offset of 40
    # (each file written by printf -v and printf, no pipe and tr: those
    # forks were a third of the loop's time)
    local pad x
    for ((pad = 0; pad < 40; pad++)); do
        printf -v x '%*s' "$pad" ''
        printf 'a line before\n%s abXdwxyz\n' "${x// /x}" > "$BATS_TEST_TMPDIR/end"
        run -0 env $FORCE AGREP_GPU_FLT_NIBBLE=1 agrep-gpu -c -k1 abcdwxyz "$BATS_TEST_TMPDIR/end"
        [ "$output" = 1 ] || { echo "pad $pad: $output lines"; return 1; }
    done
    for e in 1 2; do
        case $e in
            1) p="for his mercy endureth for ever" ;;
            2) p="And God saw the light, that it was good: and God divided the" ;;
        esac
        for k in 1 2 3 4 5; do
            if ((ALL || (e + k) % 2)); then
                check "$FORCE AGREP_GPU_FLT_NIBBLE=1" "" -n -i -k "$k" "$p" "$CASES/e$e"
            fi
            if ((ALL || (e + k) % 2 == 0)); then
                check "$FORCE AGREP_GPU_FLT_NIBBLE=1 AGREP_GPU_CHUNK=1000" "$CASES/e$e" -c -k "$k" "$p"
            fi
        done
    done
    end_checks
}

@test "the tail prefilter (hostmatch.c: a pattern's last 15 bytes first) as the oracle" {
    # AGREP_GPU_TAIL=1: wherever it can run (16-63 bytes, k < 15, any
    # range), alone (nofilter) and behind the filter's give-up, at the
    # native level and at AVX2 (make check: one of the three, in turn a
    # case)
    begin_checks
    local flagsets=("-n" "-i -c" "-w" "-x" "-v -c" "-n -i")
    local s k desc f i=0 isa j
    for ((s = 1; s <= NSEEDS; s++)); do
        read -r k desc < "$CASES/k.$s"
        GEN=$(cat "$CASES/g.$s")
        f=${flagsets[i++ % ${#flagsets[@]}]}
        j=0
        for isa in "" avx2; do
            ((ALL || s % 3 == j++)) || continue
            # shellcheck disable=SC2086
            check "AGREP_GPU_DEVICE=host AGREP_GPU_HOST_ENGINE=nofilter AGREP_GPU_TAIL=1 AGREP_GPU_ISA=$isa" "" $f -k "$k" -f "$CASES/p.$s" "$CASES/t.$s"
        done
        if ((ALL || s % 3 == 2)); then
            # shellcheck disable=SC2086
            check "AGREP_GPU_DEVICE=host AGREP_GPU_TAIL=1 AGREP_GPU_CHUNK=300" "" $f -k "$k" -f "$CASES/p.$s" "$CASES/t.$s"
        fi
    done
    GEN=
    local e p
    for e in 1 2; do
        case $e in
            1) p="for his mercy endureth for ever" ;;
            2) p="And God saw the light, that it was good: and God divided the" ;;
        esac
        for k in 0 1 2 3 4 5; do
            # (make check: each k on one of the two phrases, in turn)
            ((ALL || (e + k) % 2)) || continue
            check "AGREP_GPU_DEVICE=host AGREP_GPU_HOST_ENGINE=nofilter AGREP_GPU_TAIL=1" "" -n -i -k "$k" "$p" "$CASES/e$e"
        done
    done
    end_checks
}

@test "filter (forced): -o and --show-cost as the scalar engine gives them" {
    # (make check: one of the three flag sets a seed, in turn)
    begin_checks
    local s k desc f j
    for ((s = 1; s <= 8; s++)); do
        read -r k desc < "$CASES/k.$s"
        j=0
        for f in "-o" "-o -i -n" "-n --show-cost"; do
            ((ALL || s % 3 == j++)) || continue
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
    local c i=0
    # pieces of 2..15 bytes: sparse candidates (filter kept) and dense ones
    # (the LORD, k=2: the filter gives up and the SIMD engine takes the rest)
    # (make check: -c or -n -i, in turn a phrase)
    for c in "1|LORD" "3|righteousness" "4|for his mercy endureth for ever" \
             "2|the LORD" "4|and the LORD said" "5|And God saw the light, that it was good: and God divided the" \
             "10|And God saw the light, that it was good: and God divided the light from the darkness."; do
        i=$((i + 1))
        if ((ALL || i % 2)); then
            check "AGREP_GPU_DEVICE=host" "" -c -k "${c%%|*}" "${c#*|}" "$kjv"
        fi
        if ((ALL || i % 2 == 0)); then
            check "AGREP_GPU_DEVICE=host" "" -n -i -k "${c%%|*}" "${c#*|}" "$kjv"
        fi
    done
    # dense even pieces ("f Israel "), re-cut where the text says they are
    # rare (filter.c's cut_pieces), forced and by density (make check: one
    # way a phrase, in turn)
    for c in "5|and the children of Israel went out with an high hand" "3|the children of Israel"; do
        i=$((i + 1))
        if ((ALL || i % 2)); then
            check "$FORCE" "" -n -k "${c%%|*}" "${c#*|}" "$kjv"
        fi
        if ((ALL || i % 2 == 0)); then
            check "$FORCE AGREP_GPU_FLT_RECUT=1" "" -n -i -k "${c%%|*}" "${c#*|}" "$kjv"
        fi
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
    # (make check: -c at k 1 and 5, -n at 3)
    for k in 1 3 5; do
        if ((ALL || k != 3)); then
            check "AGREP_GPU_DEVICE=host" "" -c -k "$k" "$p60" "$dna"
        fi
        if ((ALL || k == 3)); then
            check "AGREP_GPU_DEVICE=host" "" -n -k "$k" "$p60" "$dna"
        fi
    done
    for k in 3 6 10; do
        check "AGREP_GPU_DEVICE=host" "" -n -k "$k" "$p105" "$dna"
    done
    end_checks
}
