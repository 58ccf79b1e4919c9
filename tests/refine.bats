#!/usr/bin/env bats
# Options that need match positions or costs, computed on the host for the
# selected lines: -w, -x, --show-cost, --best-match against the naive DP
# oracle (tests/oracle.c) over random inputs, through the host matcher and
# OpenCL; -o and --color on hand-made cases with exact expected bytes, and
# against grep -F for k=0; GREP_COLORS, NO_COLOR; -i with each (make
# check: the hand-made cases on the host and OpenCL by turns, each on one;
# AGREP_GPU_TESTS=full: each on both).  With many
# patterns (20 to 10,000; refine.c tries a line's candidate patterns only):
# -o, --show-cost, --json, -w, -x, --color, --show-edits, -v byte for byte
# as with every pattern tried (AGREP_GPU_REFINE=all), and as the oracle.
load test_helper
load check_helper

# casegen options: short patterns, word-ish texts, lines that are often a
# copy alone (for -x), k sometimes >= the pattern length
GENOPTS=("-n 1:12 -k 0:4 -a words -x 30 -b 500:3000 -l 0:40"
         "-n 3:10 -k 0:3 -a mixed -x 30 -b 500:3000 -l 0:40"
         "-n 2:8 -k 0:3 -a printable -x 30 -b 500:2000 -l 0:30"
         "-n 1:4 -k 1:6 -a words -x 40 -b 300:1500 -l 0:12"
         "-n 4:12 -k 0:4 -a az -x 40 -b 500:2000 -l 0:30"
         "-n 2:6 -k 0:3 -a ab -x 40 -b 300:1500 -l 0:20")
FLAGS=("-w" "-w -n" "-x" "-x -c" "--show-cost" "-n --show-cost" "-w --show-cost"
       "-x -n --show-cost" "--best-match" "--best-match -n --show-cost" "-w --best-match"
       "-x --best-match --show-cost" "-i -w" "-i -x -n" "-i --show-cost" "-i --best-match -n"
       "-v -w" "-v -x -n" "-c -w -i" "-w -x")
# Random cases (casegen seeds 1..NCASES, each with a second file): full
# (AGREP_GPU_TESTS=full) 36, quick 20, the fewest with which each test's
# rotation FLAGS[(s + c) % 20] still meets all 20 flag sets, GENOPTS[s % 6]
# all six generators and the OpenCL test's chunks[s % 5] all five sizes.
# (In quick, the two OpenCL tests run a quarter of the seeds each, s % 4
# = 0 and 3: the tiny chunks' test still meets all five sizes, and between
# them they meet all six generators and ten flag sets, with every option
# of FLAGS among them.)
NCASES=$(depth 20 36)
# QUICK: 1 in make check's depth (and on slow builds), 0 at full
QUICK=0
[ "$(depth quick full)" = full ] || QUICK=1

mk() {
    local s=$1 opts=$2
    # shellcheck disable=SC2086
    casegen $opts "$s" "$CASES/t.$s" "$CASES/p.$s" > "$CASES/k.$s"
    echo "tests/bin/casegen $opts $s $CASES/t.$s $CASES/p.$s" > "$CASES/g.$s"
}

setup_file() {
    local s
    need_tools casegen oracle || return 1
    case_dir
    for ((s = 1; s <= NCASES; s++)); do
        mk "$s" "${GENOPTS[s % 6]}"
        # a second, smaller file for --best-match over several inputs
        mk "$((s + 1000))" "${GENOPTS[s % 6]} -b 100:600 -p 1"
    done
}

setup() {
    begin_checks
    CASES="$BATS_FILE_TMPDIR/cases"
    W="$BATS_TEST_TMPDIR"
}

k_of() { local k d; read -r k d < "$CASES/k.$1"; echo "$k"; }

# gen_of SEED: GEN, the commands that make the case's two files
gen_of() {
    local g1 g2
    read -r g1 < "$CASES/g.$1"
    read -r g2 < "$CASES/g.$(($1 + 1000))"
    GEN="$g1 && $g2"
}

runcase() {
    local s=$1 envs=$2 flags=$3 k d
    # (read, no command substitution: a process less each, in a loop of
    # a hundred cases)
    read -r k d < "$CASES/k.$s"
    gen_of "$s"
    WHAT="seed $s: $d"
    # shellcheck disable=SC2086
    case $flags in
        *best-match*) check "$envs" "" $flags -k "$k" -f "$CASES/p.$s" "$CASES/t.$s" "$CASES/t.$((s + 1000))" ;;
        *) check "$envs" "" $flags -k "$k" -f "$CASES/p.$s" "$CASES/t.$s" ;;
    esac
}

# Hand-made cases on two paths (the host, OpenCL): full
# (AGREP_GPU_TESTS=full) runs every case on both, a pass for each; quick
# one pass, the cases taking the two paths by turns.  In each case, nx
# sets envs: `nx; run env $envs agrep-gpu ...`.  Uses $EN (the two
# paths), $full, $pass and the case counter $c.
two_paths() { full=0 c=0; [ "$(depth quick full)" = quick ] || full=1; }
nx() { if ((full)); then envs=${EN[pass]}; else envs=${EN[c++ % 2]}; fi; }

# ---------------------------------------------------------------- the oracle

@test "oracle: -w, -x, --show-cost, --best-match on hand-computed cases" {
    printf 'his mercy endureth\nxmercy\nmercy!\nmerc\n\nmercymercy\n' > "$W/t"
    run oracle -w --show-cost -k 1 merc "$W/t"       # "mercy" is 1 from "merc"
    assert_output "$(printf '1:his mercy endureth\n1:mercy!\n0:merc')"
    run oracle -w -n -k 0 mercy "$W/t"
    assert_output "$(printf '1:his mercy endureth\n3:mercy!')"
    run oracle -w --show-cost -k 1 mercy "$W/t"      # xmercy: the whole word, 1
    assert_output "$(printf '0:his mercy endureth\n1:xmercy\n0:mercy!\n1:merc')"
    run oracle -x --show-cost -k 5 mercy "$W/t"      # the empty line: 5 deletions
    assert_output "$(printf '1:xmercy\n1:mercy!\n1:merc\n5:\n5:mercymercy')"
    run oracle -w --show-cost -k 9 -e '' "$W/t"      # the shortest word, or ""
    assert_output "$(printf '3:his mercy endureth\n6:xmercy\n0:mercy!\n4:merc\n0:')"
    run oracle --best-match --show-cost -x mercy "$W/t"   # no -k: any cost
    assert_output "$(printf '1:xmercy\n1:mercy!\n1:merc')"
    run oracle --best-match -k 0 -x mercy "$W/t"
    assert_failure 1
    run oracle --best-match -n --show-cost mercy "$W/t" /dev/null
    assert_output "$(printf '%s\n' "$W/t:1:0:his mercy endureth" "$W/t:2:0:xmercy" \
        "$W/t:3:0:mercy!" "$W/t:6:0:mercymercy")"
    run oracle -i -x --show-cost -k 2 MERCY! "$W/t"  # xmercy: 2 (x out, ! in)
    assert_output "$(printf '2:xmercy\n0:mercy!\n2:merc')"
}

@test "oracle: -w without word bytes is plain matching; -w/-x at k=0 are grep -F -w/-x" {
    local s k pat rc
    # random cases: full (AGREP_GPU_TESTS=full) 30, quick 2 (each with
    # every flag set)
    for ((s = 1; s <= $(depth 2 30); s++)); do
        # no word byte at all: every start and end is allowed
        casegen -n 1:10 -k 0:4 -a words -b 300:1000 -l 0:30 "$s" "$W/t" "$W/p" > "$W/k"
        tr 'abcdZ9_' '.,;: .,' < "$W/t" > "$W/nw"; tr 'abcdZ9_' '.,;: .,' < "$W/p" > "$W/np"
        read -r k _ < "$W/k"
        oracle -n --show-cost -k "$k" -f "$W/np" "$W/nw" > "$W/a" || true
        oracle -w -n --show-cost -k "$k" -f "$W/np" "$W/nw" > "$W/b" || true
        cmp -s "$W/a" "$W/b" || { echo "oracle -w differs without word bytes: seed $s"; diff "$W/a" "$W/b" | head; return 1; }
        # k=0: GNU grep -F -w and -x (one pattern, and all of them)
        pat=$(head -1 "$W/p")
        [ -n "$pat" ] || continue
        for f in -w -x "-w -i" "-x -i" "-w -c"; do
            rc=0
            # shellcheck disable=SC2086
            grep -F $f -e "$pat" "$W/t" > "$W/g" || rc=$?
            # shellcheck disable=SC2086
            oracle $f -k 0 -e "$pat" "$W/t" > "$W/o" || true
            cmp -s "$W/g" "$W/o" || { echo "oracle $f differs from grep -F $f: seed $s '$pat'"; diff "$W/g" "$W/o" | head; return 1; }
            # shellcheck disable=SC2086
            grep -F $f -f "$W/p" "$W/t" > "$W/g" || true
            # shellcheck disable=SC2086
            oracle $f -k 0 -f "$W/p" "$W/t" > "$W/o" || true
            cmp -s "$W/g" "$W/o" || { echo "oracle $f -f differs from grep -F $f -f: seed $s"; diff "$W/g" "$W/o" | head; return 1; }
        done
    done
}

@test "oracle: --show-cost equals tre-agrep -s on short random cases" {
    local s k pat f
    # random cases: full (AGREP_GPU_TESTS=full) 40, quick 9 (-i on every
    # third)
    for ((s = 1; s <= $(depth 9 40); s++)); do
        casegen -t -p 1 -n 2:20 -k 0:6 -a any -b 300:1500 -l 0:60 "$s" "$W/t" "$W/p" > "$W/k"
        read -r k _ < "$W/k"
        pat=$(cat "$W/p")
        f=""; ((s % 3 == 0)) && f=-i
        # shellcheck disable=SC2086
        oracle $f -n --show-cost -k "$k" -f "$W/p" "$W/t" > "$W/o" || true
        # shellcheck disable=SC2086
        tre-agrep $f -s -n -k -E "$k" -e "$pat" "$W/t" > "$W/r" || true
        cmp -s "$W/o" "$W/r" || { echo "seed $s k=$k $f: oracle vs tre-agrep -s"; diff "$W/o" "$W/r" | head | _show; return 1; }
    done
}

# ------------------------------------------------- agrep-gpu vs the oracle

@test "-w -x --show-cost --best-match: host matcher agrees with the oracle" {
    local s
    # quick: 7 seeds, whose three flag sets (offsets 0, 7, 13) are all 20
    for ((s = 1; s <= $(depth 7 "$NCASES"); s++)); do
        runcase "$s" "AGREP_GPU_DEVICE=host" "${FLAGS[s % 20]}"
        runcase "$s" "AGREP_GPU_DEVICE=host" "${FLAGS[(s + 7) % 20]}"
        runcase "$s" "AGREP_GPU_DEVICE=host" "${FLAGS[(s + 13) % 20]}"
    done
    end_checks
}

@test "-w -x --show-cost --best-match: OpenCL (64-byte slices, tiny chunks) agrees with the oracle" {
    local s chunks=(64 100 128 257 1000) full=0
    # quick: the seeds with s % 4 = 0 (NCASES above)
    [ "$(depth quick full)" = quick ] || full=1
    for ((s = 1; s <= NCASES; s++)); do
        ((full || s % 4 == 0)) || continue
        runcase "$s" "AGREP_GPU_HOST_MAX=0 AGREP_GPU_SLICE=64 AGREP_GPU_CHUNK=${chunks[s % 5]}" "${FLAGS[(s + 3) % 20]}"
    done
    end_checks
}

@test "-w -x --show-cost --best-match: OpenCL defaults and default settings agree with the oracle" {
    local s full=0
    # quick: OpenCL on the seeds with s % 4 = 3 (NCASES above), the
    # default settings on those with s % 8 = 2 (-w, -x, -c, -i,
    # --show-cost and --best-match among their flag sets)
    [ "$(depth quick full)" = quick ] || full=1
    for ((s = 1; s <= NCASES; s++)); do
        ((full || s % 4 == 3)) && runcase "$s" "AGREP_GPU_HOST_MAX=0" "${FLAGS[(s + 10) % 20]}"
        ((full || s % 8 == 2)) && runcase "$s" "" "${FLAGS[(s + 16) % 20]}"
    done
    end_checks
}

@test "--best-match without -k: any cost counts (host, OpenCL)" {
    local s envs e full=0
    # seeds: full (AGREP_GPU_TESTS=full) 1-18 on both paths, quick 1-4
    # (each of the four forms, s % 4, once), each on one path by turns
    # (the host on the odd seeds, OpenCL on the even ones)
    [ "$(depth quick full)" = quick ] || full=1
    for ((s = 1; s <= $(depth 4 18); s++)); do
        gen_of "$s"
        e=0
        for envs in "AGREP_GPU_DEVICE=host" "AGREP_GPU_HOST_MAX=0 AGREP_GPU_SLICE=64 AGREP_GPU_CHUNK=100"; do
            ((full || (s + e++) % 2 == 1)) || continue
            case $((s % 4)) in
                0) check "$envs" "" --best-match -n --show-cost -f "$CASES/p.$s" "$CASES/t.$s" "$CASES/t.$((s + 1000))" ;;
                1) check "$envs" "" --best-match -w -f "$CASES/p.$s" "$CASES/t.$s" ;;
                2) check "$envs" "" --best-match -x --show-cost -i -f "$CASES/p.$s" "$CASES/t.$s" ;;
                3) check "$envs" "" --best-match -f "$CASES/p.$s" "$CASES/t.$((s + 1000))" "$CASES/t.$s" ;;
            esac
        done
    done
    end_checks
}

@test "--show-cost and --best-match print 'file:lineno:cost:line' like tre-agrep -s" {
    printf 'his mercy endureth\nhis mrcy\nnothing\n' > "$W/a"
    printf 'merciful\nmercy me\n' > "$W/b"
    cd "$W"
    # tre-agrep -s -n with two files: the format reference
    run tre-agrep -s -n -k -E 2 -e mercy a b
    assert_output "$(printf 'a:1:0:his mercy endureth\na:2:1:his mrcy\nb:1:1:merciful\nb:2:0:mercy me')"
    local envs
    local EN=("AGREP_GPU_DEVICE=host" "AGREP_GPU_HOST_MAX=0") full c pass
    two_paths
    for ((pass = 0; pass < 1 + full; pass++)); do
        nx; run env $envs agrep-gpu --show-cost -n -k 2 mercy a b
        assert_output "$(printf 'a:1:0:his mercy endureth\na:2:1:his mrcy\nb:1:1:merciful\nb:2:0:mercy me')"
        nx; run env $envs agrep-gpu --show-cost -k 2 mercy a b
        assert_output "$(printf 'a:0:his mercy endureth\na:1:his mrcy\nb:1:merciful\nb:0:mercy me')"
        nx; run env $envs agrep-gpu --show-cost -k 2 mercy a
        assert_output "$(printf '0:his mercy endureth\n1:his mrcy')"
        # ties over all inputs are all printed; without -k the best is 0 here
        nx; run env $envs agrep-gpu --best-match -n mercy a b
        assert_output "$(printf 'a:1:his mercy endureth\nb:2:mercy me')"
        nx; run env $envs agrep-gpu --best-match --show-cost mrcy a b
        assert_output "$(printf 'a:0:his mrcy')"
        # the best is 1 ("mercx" is 1 from "mercy" and "merci"; "mrcy" is 2)
        nx; run env $envs agrep-gpu --best-match --show-cost -k 3 mercx a b
        assert_output "$(printf 'a:1:his mercy endureth\nb:1:merciful\nb:1:mercy me')"
        # within k only: none within 0 of "mercx" -> exit 1
        nx; run env $envs agrep-gpu --best-match -k 0 mercx a b
        assert_failure 1
        assert_output ""
        # -i
        nx; run env $envs agrep-gpu --best-match -i -n MERCIFUL a b
        assert_output "b:1:merciful"
    done
}

# ----------------------------------------------------------------- -o

@test "-o prints each matched part (hand-made cases)" {
    local envs
    local EN=("AGREP_GPU_DEVICE=host" "AGREP_GPU_HOST_MAX=0 AGREP_GPU_SLICE=64 AGREP_GPU_CHUNK=64") full c pass
    two_paths
    for ((pass = 0; pass < 1 + full; pass++)); do
        nx; run env $envs agrep-gpu -o -k1 mercy <<< 'his mercy endureth'
        assert_output mercy
        nx; run env $envs agrep-gpu -o -k1 mercy <<< 'his mrcy endureth'
        assert_output mrcy
        nx; run env $envs agrep-gpu -o -k1 mercy <<< 'his merxy endureth'
        assert_output merxy
        nx; run env $envs agrep-gpu -o -b mercy <<< 'mercy and mercy, mercy!'
        assert_output "$(printf '0:mercy\n10:mercy\n17:mercy')"
        nx; run env $envs agrep-gpu -o -n mercy < <(printf 'a mercy\nno\nmercy mercy\n')
        assert_output "$(printf '1:mercy\n3:mercy\n3:mercy')"
        nx; run env $envs agrep-gpu -o -w -b mercy <<< 'mercyful mercy'
        assert_output "9:mercy"
        nx; run env $envs agrep-gpu -o -i mercy <<< 'His MERCY endureth'
        assert_output MERCY
        nx; run env $envs agrep-gpu -o -i -k1 MERCY <<< 'his Mrcy endureth'
        assert_output Mrcy
        nx; run env $envs agrep-gpu -o -x -k1 mercy < <(printf 'mercy\nmercy me\nmercx\n')
        assert_output "$(printf 'mercy\nmercx')"
        nx; run env $envs agrep-gpu -o -w -i -k1 MERCY <<< 'mercyful merxy'
        assert_output merxy
        nx; run env $envs agrep-gpu -o -e endureth -e his <<< 'his mercy endureth'
        assert_output "$(printf 'his\nendureth')"
        nx; run env $envs agrep-gpu -o nomatch <<< 'his mercy endureth'
        assert_failure 1
        assert_output ""
    done
    printf 'his mercy\n' > "$W/a"; printf 'no\nmercy\n' > "$W/b"
    run agrep-gpu -o -n mercy "$W/a" "$W/b"
    assert_output "$(printf '%s\n' "$W/a:1:mercy" "$W/b:2:mercy")"
}

# ------------------------------------------------------------- --color

@test "--color=always highlights the matched part with GNU grep's sequences" {
    local envs on=$'\33[01;31m\33[K' off=$'\33[m\33[K'
    local EN=("AGREP_GPU_DEVICE=host" "AGREP_GPU_HOST_MAX=0 AGREP_GPU_SLICE=64 AGREP_GPU_CHUNK=64") full c pass
    two_paths
    for ((pass = 0; pass < 1 + full; pass++)); do
        nx; run env $envs agrep-gpu --color=always mercy <<< 'his mercy endureth'
        assert_output "his ${on}mercy${off} endureth"
        nx; run env $envs agrep-gpu --color=always -k1 mercy <<< 'his mrcy endureth'
        assert_output "his ${on}mrcy${off} endureth"
        nx; run env $envs agrep-gpu --color=always mercy <<< 'mercy and mercy'
        assert_output "${on}mercy${off} and ${on}mercy${off}"
        nx; run env $envs agrep-gpu --color=always -i mercy <<< 'His MERCY endureth'
        assert_output "His ${on}MERCY${off} endureth"
        nx; run env $envs agrep-gpu --color=always -w mercy <<< 'mercyful mercy'
        assert_output "mercyful ${on}mercy${off}"
        nx; run env $envs agrep-gpu --color=always -o -k1 mercy <<< 'his mercy endureth'
        assert_output "${on}mercy${off}"
        nx; run env $envs agrep-gpu --color=always -x -k1 mercy <<< 'mercx'
        assert_output "${on}mercx${off}"
        # GREP_COLORS: mt= and ms= set the match colour (the later one wins)
        nx; run env $envs GREP_COLORS='mt=01;32' agrep-gpu --color=always mercy <<< 'his mercy'
        assert_output $'his \33[01;32m\33[Kmercy\33[m\33[K'
        nx; run env $envs GREP_COLORS='ms=04;35' agrep-gpu --color=always -i MERCY <<< 'his mercy'
        assert_output $'his \33[04;35m\33[Kmercy\33[m\33[K'
        nx; run env $envs GREP_COLORS='fn=35:ms=01;33:mt=01;34' agrep-gpu --color=always mercy <<< 'his mercy'
        assert_output $'his \33[01;34m\33[Kmercy\33[m\33[K'
        # never, and auto into a pipe: no escape sequence at all
        nx; run env $envs agrep-gpu --color=never mercy <<< 'his mercy'
        assert_output 'his mercy'
        nx; run env $envs agrep-gpu --color=auto mercy <<< 'his mercy'
        assert_output 'his mercy'
        nx; run env $envs NO_COLOR=1 agrep-gpu --color=never -i MERCY <<< 'his mercy'
        assert_output 'his mercy'
    done
}

@test "--color=auto on a terminal colours, unless NO_COLOR is set (non-empty)" {
    command -v script >/dev/null || skip "script(1) (util-linux) needed for a pseudo-terminal"
    printf 'his mercy endureth\n' > "$W/t"
    local on=$'\33[01;31m\33[K' off=$'\33[m\33[K'
    script -qec "agrep-gpu --color=auto mercy '$W/t'" /dev/null < /dev/null | tr -d '\r' > "$W/o1"
    [ "$(cat "$W/o1")" = "his ${on}mercy${off} endureth" ] ||
        { echo "--color=auto on a tty: $(cat -v "$W/o1")"; return 1; }
    script -qec "agrep-gpu --color mercy '$W/t'" /dev/null < /dev/null | tr -d '\r' > "$W/o1"
    [ "$(cat "$W/o1")" = "his ${on}mercy${off} endureth" ] ||
        { echo "--color (auto) on a tty: $(cat -v "$W/o1")"; return 1; }
    script -qec "NO_COLOR=1 agrep-gpu --color=auto mercy '$W/t'" /dev/null < /dev/null | tr -d '\r' > "$W/o2"
    [ "$(cat "$W/o2")" = "his mercy endureth" ] ||
        { echo "NO_COLOR=1 --color=auto on a tty: $(cat -v "$W/o2")"; return 1; }
    script -qec "NO_COLOR=1 agrep-gpu -k1 --color=never mercy '$W/t'" /dev/null < /dev/null | tr -d '\r' > "$W/o2"
    [ "$(cat "$W/o2")" = "his mercy endureth" ] ||
        { echo "NO_COLOR=1 --color=never on a tty: $(cat -v "$W/o2")"; return 1; }
}

@test "--color=auto on a terminal: an empty NO_COLOR does not turn colour off (no-color.org)" {
    command -v script >/dev/null || skip "script(1) (util-linux) needed for a pseudo-terminal"
    printf 'his mercy endureth\n' > "$W/t"
    local on=$'\33[01;31m\33[K' off=$'\33[m\33[K'
    script -qec "NO_COLOR= agrep-gpu --color=auto mercy '$W/t'" /dev/null < /dev/null | tr -d '\r' > "$W/o3"
    [ "$(cat "$W/o3")" = "his ${on}mercy${off} endureth" ] ||
        { echo "NO_COLOR='' (empty) --color=auto on a tty should colour (no-color.org): $(cat -v "$W/o3")"; return 1; }
}

@test "k=0: -o, --color=always, -w, -x with prefixes are byte for byte grep -F" {
    local s pat f envs rc e c=0 full=0
    [ "$(depth quick full)" = quick ] || full=1
    local -a flagsets=("" "-n" "-i" "-b" "-w" "-x" "-o" "-o -b -n" "-w -o" "-v" "-H -n" "-i -o" "-o -i -w" "-n -b -i")
    # random cases: full (AGREP_GPU_TESTS=full) 16, quick 5: the three flag
    # sets of seeds 1-5, flagsets[s % 14], [(s + 5) % 14], [(s + 9) % 14],
    # are all fourteen
    local n
    n=$(depth 5 16)
    for ((s = 1; s <= n; s++)); do
        casegen -t -p 1 -n 2:5 -k 0 -a words -b 500:2000 -l 0:50 -P 40 "$s" "$W/t.$s" "$W/p.$s" > /dev/null
        casegen -t -p 1 -n 2:5 -k 0 -a words -b 100:500 -l 0:50 "$((s + 500))" "$W/u.$s" "$W/q.$s" > /dev/null
    done
    for ((s = 1; s <= n; s++)); do
        pat=$(cat "$W/p.$s")
        GEN="tests/bin/casegen -t -p 1 -n 2:5 -k 0 -a words -b 500:2000 -l 0:50 -P 40 $s /tmp/agrep-repro/t /tmp/agrep-repro/p && tests/bin/casegen -t -p 1 -n 2:5 -k 0 -a words -b 100:500 -l 0:50 $((s + 500)) /tmp/agrep-repro/u /tmp/agrep-repro/q"
        for f in "${flagsets[(s) % 14]}" "${flagsets[(s + 5) % 14]}" "${flagsets[(s + 9) % 14]}"; do
            # full: both paths with both forms (coloured over two files,
            # plain over one); quick: the c-th flag set of the run on one
            # path, (c + 1) % 2, in one form, c / 2 % 2: OpenCL takes eight
            # of the fourteen (-o, -w, -x, -i, -b, -n, -v and -H among
            # them), the host the other six and -H -n, each path both forms
            e=0
            for envs in "AGREP_GPU_DEVICE=host" "AGREP_GPU_HOST_MAX=0 AGREP_GPU_SLICE=64 AGREP_GPU_CHUNK=100"; do
                if ((full || (e == (c + 1) % 2 && c / 2 % 2 == 0))); then
                rc=0
                # shellcheck disable=SC2086
                grep -F --color=always $f -e "$pat" "$W/t.$s" "$W/u.$s" > "$W/g" || rc=$?
                REF="grep -F --color=always $f -e '$pat' T U"
                # shellcheck disable=SC2086
                check_ref "$W/g" "$rc" "$envs" "" --color=always $f -e "$pat" "$W/t.$s" "$W/u.$s"
                fi
                if ((full || (e == (c + 1) % 2 && c / 2 % 2 == 1))); then
                rc=0
                # shellcheck disable=SC2086
                grep -F $f -e "$pat" "$W/t.$s" > "$W/g" || rc=$?
                REF="grep -F $f -e '$pat' T"
                # shellcheck disable=SC2086
                check_ref "$W/g" "$rc" "$envs" "" $f -e "$pat" "$W/t.$s"
                fi
                e=$((e + 1))
            done
            c=$((c + 1))
        done
    done
    end_checks
}

@test "--color=always with -c and -l colours file names as grep does" {
    printf 'his mercy\n' > "$W/a"; printf 'nothing\n' > "$W/b"
    cd "$W"
    local f rc
    for f in -c -l -L "-c -i"; do
        rc=0
        # shellcheck disable=SC2086
        grep -F --color=always $f mercy a b > "$W/g" || rc=$?
        REF="grep -F --color=always $f mercy a b"
        # shellcheck disable=SC2086
        check_ref "$W/g" "$rc" "" "" --color=always $f mercy a b
    done
    end_checks
}

@test "-o with several patterns: a -z record's newlines are ordinary bytes to the matched part" {
	# refine.c rules patterns out with Myers before its DP: that scan must
	# not take '\n' for a terminator inside a NUL-terminated record
	run sh -c "printf 'ab\ncd\0zz\0' | agrep-gpu -z -o -k1 -e bxc -e qqqq | od -An -c | tr -s ' '"
	assert_output ' b \n c \0'
	run sh -c "printf 'ab\ncd\nzz\n' | agrep-gpu -o -k1 -e bxc -e qqqq"
	assert_failure 1
}

# ------------------------------------------ many patterns: the candidates
# With RF_MINPAT patterns or more, refine.c tries on a record only the
# patterns the shared filter finds may match it (src/refine.c,
# candidates() and best_first()); AGREP_GPU_REFINE=all is the slow path of
# before (every pattern on every record), AGREP_GPU_REFINE=cand forces the
# candidates for any number of patterns.

# slow_vs_fast FILE...: the same run with every pattern (the reference) and
# with the candidates (default and forced), the whole outputs compared;
# --json's elapsed times are taken out of both.  Uses $FL (flags), $K, $P.
# (Quick: with RF_MINPAT (4) patterns or more, where the default is the
# candidates' path and AGREP_GPU_REFINE=cand differs from it only in -x's
# lookup of whole records (refine.c, rf_init's line_set), the forced run
# is left out but with -x.)
slow_vs_fast() {
    local rc=0 envs cand="AGREP_GPU_REFINE=cand" n=0 l
    if ((QUICK)) && [[ $FL != *-x* ]]; then
        while ((n < 4)) && read -r l; do n=$((n + 1)); done < "$P"
        ((n < 4)) || cand=""
    fi
    # shellcheck disable=SC2086
    AGREP_GPU_REFINE=all agrep-gpu -F $FL -k "$K" -f "$P" "$@" > "$W/ref" 2>&1 || rc=$?
    for envs in "" $cand; do
        case $FL in
        *--json*)
            local rc2=0
            # shellcheck disable=SC2086
            env $envs agrep-gpu -F $FL -k "$K" -f "$P" "$@" > "$W/out" 2>&1 || rc2=$?
            NCHECK=$((NCHECK + 1))
            if [ "$rc" != "$rc2" ] || ! cmp -s <(sed 's/"elapsed.*//' "$W/ref") \
                <(sed 's/"elapsed.*//' "$W/out"); then
                NFAIL=$((NFAIL + 1))
                echo "---- FAIL: $envs agrep-gpu -F $FL -k $K -f $P $* (exit $rc2, slow path $rc)" >> "$FAILS"
                diff <(sed 's/"elapsed.*//' "$W/ref") <(sed 's/"elapsed.*//' "$W/out") |
                    head -6 | cut -c1-160 >> "$FAILS"
            fi ;;
        *)
            # shellcheck disable=SC2086
            REF="AGREP_GPU_REFINE=all agrep-gpu -F $FL" check_ref "$W/ref" "$rc" "$envs" "" \
                $FL -k "$K" -f "$P" "$@" ;;
        esac
    done
}

# cases_vs_slow N BASE GENFN FLAGS I...: N random cases, case s made by
# casegen with the options `GENFN s` prints and the seed BASE + s, each run
# with the flag sets FLAGS[(s + I) % their number] (FLAGS: an array's name)
# against the slow path (slow_vs_fast).
cases_vs_slow() {
    local n=$1 base=$2 gen=$3 s i opts
    local -n fl=$4
    shift 4
    for ((s = 1; s <= n; s++)); do
        opts=$("$gen" "$s")
        # shellcheck disable=SC2086
        casegen $opts "$((s + base))" "$W/t" "$W/p" > "$W/k"
        GEN="tests/bin/casegen $opts $((s + base)) $W/t $W/p"
        read -r K _ < "$W/k"
        P="$W/p"
        for i in "$@"; do
            FL="${fl[(s + i) % ${#fl[@]}]}"
            slow_vs_fast "$W/t"
        done
    done
}

# shellcheck disable=SC2034 # (cases_vs_slow takes it by name)
MANYFLAGS=("-o" "-o -n -b" "--show-cost" "-n --show-cost" "--json" "--json --show-edits"
           "-w -o" "-x" "-x --show-cost" "-w --show-cost" "--color=always" "-o --show-edits"
           "--best-match --show-cost" "-v --show-cost" "-v -w" "-i -o" "-i -w --json"
           "--show-edits" "-c -w" "-o -x")

@test "many patterns: -o, --show-cost, --json, -w, -x, --color, --show-edits as with every pattern tried (random cases)" {
    local GOPTS=("-a words -n 3:12 -k 0:2" "-a mixed -n 4:14 -k 1:2" "-a az -n 3:10 -k 0:3"
                 "-a acgt -n 16:30 -k 2:4" "-a printable -n 2:9 -k 0:2" "-a ab -n 5:12 -k 1:3")
    # random cases: full (AGREP_GPU_TESTS=full) 30, quick 7, the fewest with
    # which MANYFLAGS[(s + 0, 7, 14) % 20] still meets all 20 flag sets and
    # GOPTS[s % 6] all six generators
    many_opts() { echo "${GOPTS[$1 % 6]} -p 20:300 -b 2000:8000 -x 20"; }
    cases_vs_slow "$(depth 7 30)" 700 many_opts MANYFLAGS 0 7 14
    end_checks
}

@test "many patterns: -w, -x, --show-cost, --best-match, -v agree with the oracle (random cases)" {
    local s opts f
    local OFLAGS=("-w --show-cost" "-x --show-cost" "--show-cost -n" "-v -w -n" "--best-match --show-cost"
                  "-w -x" "-i -w --show-cost" "-v -x -n")
    # random cases: full (AGREP_GPU_TESTS=full) 24, quick 5, the fewest
    # with which OFLAGS[s % 8] and [(s + 3) % 8] still meet all eight
    for ((s = 1; s <= $(depth 5 24); s++)); do
        opts="-a words -n 3:12 -k 0:2 -p 50:200 -b 1500:5000 -x 30"
        # shellcheck disable=SC2086
        # (file names by seed: the oracle's answers are cached by arguments)
        casegen $opts "$((s + 800))" "$W/t$s" "$W/p$s" > "$W/k"
        GEN="tests/bin/casegen $opts $((s + 800)) $W/t$s $W/p$s"
        read -r K _ < "$W/k"
        for f in "${OFLAGS[s % 8]}" "${OFLAGS[(s + 3) % 8]}"; do
            # shellcheck disable=SC2086
            check "" "" $f -k "$K" -f "$W/p$s" "$W/t$s"
        done
    done
    end_checks
}

@test "1,000 and 10,000 Bible words, k=1: -o, --show-cost, --json, -w, -x as with every pattern tried" {
    need_tools bible || return 1
    bible "Gen1:1-Deu34:12" > "$W/gen"
    # The texts: full (AGREP_GPU_TESTS=full) 40,000 bytes for 1,000
    # patterns and 2,500 (44 lines) for 10,000; quick 2,500 (44 lines)
    # and 400 (10 lines), sanitizer builds 5,000 (86 lines) and 500 (11
    # lines), each still with lines selected by every flag set, -x and -v
    # included.  (The reference, AGREP_GPU_REFINE=all, tries every pattern
    # on every line: 40 s of the full test.)
    head -c "$(depth 2500 40000 5000)" "$W/gen" > "$W/t1"
    head -c "$(depth 400 2500 500)" "$W/gen" > "$W/t2"
    tr -cs 'A-Za-z' '\n' < "$W/gen" | awk 'length($0) >= 2' | sort -u > "$W/words"
    awk 'NR % 4 == 0' "$W/words" | head -1000 > "$W/p1000"
    [ "$(wc -l < "$W/p1000")" = 1000 ]
    # 10,000 patterns: the words, and each with a letter changed
    { cat "$W/words"; sed 's/^\(.\)./\1x/' "$W/words"; sed 's/.$/q/' "$W/words"; } |
        awk '!seen[$0]++' | head -10000 > "$W/p10000"
    [ "$(wc -l < "$W/p10000")" = 10000 ]
    K=1
    P="$W/p1000"
    # (on the sanitizer build, 53 s of CI's sanitizer pass: every other
    # flag set, which still covers -o, --json, -x, -v and --show-edits;
    # quick too, but of f2 the two that the sanitizer pass leaves out,
    # -n --show-cost and -x)
    local f1=("-o -n" "--show-cost" "--json" "-w -o" "-x --show-cost" "--color=always -i" "-o --show-edits"
        "-v --show-cost" "-v -w --show-edits") f2=("-o" "-n --show-cost" "-w --json" "-x") step=1 i2=0
    ! slow_build || step=2
    if ! slow_build && [ "$(depth quick full)" = quick ]; then
        step=2 i2=1
    fi
    for ((i = 0; i < ${#f1[@]}; i += step)); do
        FL=${f1[i]}
        slow_vs_fast "$W/t1"
    done
    P="$W/p10000"
    for ((i = i2; i < ${#f2[@]}; i += step)); do
        FL=${f2[i]}
        slow_vs_fast "$W/t2"
    done
    # (k = 0: quick -w -o -i only, full -o too)
    K=0
    local -a f0=("-o" "-w -o -i")
    ((!QUICK)) || f0=("-w -o -i")
    for FL in "${f0[@]}"; do
        slow_vs_fast "$W/t2"
    done
    end_checks
}

@test "many patterns in UTF-8 mode (-i folds é and É) and with -z: as with every pattern tried" {
    need_tools bible || return 1
    bible "Gen1:1-Gen5:32" | sed 's/e\([a-z]\)/é\1/g; s/A/À/g' > "$W/t"
    tr -cs 'A-Za-z' '\n' < "$W/t" | awk 'length($0) >= 3' | sort -u | head -300 |
        sed '0~3s/e/É/; 0~5s/a/ä/' > "$W/p"
    P="$W/p"
    K=1
    # (quick: -i -o is the --show-edits -o -i run's)
    local -a ufl=("-o" "-i -o" "-i --show-cost" "-i -w --json" "--show-edits -o -i")
    ((!QUICK)) || ufl=("-o" "-i --show-cost" "-i -w --json" "--show-edits -o -i")
    for FL in "${ufl[@]}"; do
        LC_ALL=C.UTF-8 slow_vs_fast "$W/t"
    done
    tr '\n' '\0' < "$W/t" > "$W/z"
    for FL in "-z -o" "-z --show-cost"; do
        slow_vs_fast "$W/z"
    done
    end_checks
}

@test "many patterns, -v: the least cost (and its edits) of each line without a match, over every pattern" {
    printf 'hello world\nnothing here\nxyz\n' > "$W/t"
    printf 'hello\nworld\nabcdef\nqqqqq\nzzzzzz\nmmmmm\nppppp\nrrrrr\n' > "$W/p"
    local envs
    for envs in "" "AGREP_GPU_REFINE=cand" "AGREP_GPU_REFINE=all"; do
        # "here" is 3 edits from "hello"; "xyz" shares no byte with any
        run env $envs agrep-gpu -v -n --show-cost -k1 -f "$W/p" "$W/t"
        assert_output "$(printf '2:3:nothing here\n3:5:xyz')"
        run env $envs agrep-gpu -v --show-edits -k1 -f "$W/p" "$W/t"
        assert_output "$(printf '2=3D:nothing here\n5D:xyz')"
        run env $envs agrep-gpu -v -w --show-cost -k1 -f "$W/p" "$W/t"
        assert_output "$(printf '3:nothing here\n5:xyz')"
    done
}

@test "AGREP_GPU_REFINE=cand with 1 to 3 patterns: as the oracle (-w, -x, --show-cost, --best-match) and as every pattern (-o, --color, --json)" {
    local s i full=0
    # full (AGREP_GPU_TESTS=full): every seed; quick: the seeds with s % 4
    # = 0, whose flag sets hold -w, -x, --show-cost, --best-match, -i, -v
    # and -n
    [ "$(depth quick full)" = quick ] || full=1
    for ((s = 1; s <= NCASES; s++)); do
        ((full || s % 4 == 0)) || continue
        runcase "$s" "AGREP_GPU_DEVICE=host AGREP_GPU_REFINE=cand" "${FLAGS[(s + 5) % 20]}"
    done
    # every third seed: full with each of the three flag sets; quick every
    # sixth (1, 7, 13, 19) with one of them in turn (each on one or two)
    for ((s = 1; s <= NCASES; s += full ? 3 : 6)); do
        K=$(k_of "$s")
        P="$CASES/p.$s"
        i=0
        for FL in "-o -n" "--color=always" "--json --show-edits"; do
            ((full || i++ == s / 3 % 3)) || continue
            slow_vs_fast "$CASES/t.$s"
        done
    done
    end_checks
}

@test "long records: -o, --color, -w, --show-cost, --show-edits, --json, weights from Myers' ends equal the DP over the whole record" {
    # refine.c's forward() with first starts its DP near the next end that
    # Myers finds (next_end: windows of 256 units doubling to 16 KB) and
    # starts again near the one after when -w, -x or the costs leave that
    # end out; first_end keeps each pattern's next end while a record's
    # parts are found; part_from starts a part's search near the next end
    # of any pattern the engines find over the record (hm_scan_ends), and
    # the shared filter's walk skips to it; a record's least cost (-w,
    # --show-cost) is found so
    # where it is within k, by the whole DP where it is not and is asked
    # for (-v --show-cost).  Records of 3-60 KB (filler far longer than a
    # window) with planted copies, 1-3 patterns (refine's path without the
    # shared filter) and 5 (with it), against AGREP_GPU_REFINE=all (the
    # DP from the part's start over the whole record, every pattern).
    # (Quick and sanitizer builds: filler of 2-10 KB a line, texts of 6-15
    # KB: the reference's time grows with the square of a record's length;
    # the primers and the records without a match below are longer.)
    local opts
    local GOPTS=("-a acgt -n 12:30 -k 1:4" "-a words -n 4:12 -k 1:3" "-a mixed -n 5:14 -k 1:3"
                 "-a ab -n 6:12 -k 1:3" "-a az -n 3:9 -k 1:2")
    # shellcheck disable=SC2034 # (cases_vs_slow takes it by name)
    local LFLAGS=("-o -b" "--color=always" "-w -o" "-o --show-edits" "--json"
                  "-i -o -n" "-o --no-indels" "-o --substitute-cost=2 --insert-cost=3"
                  "-w --color=always --delete-cost=2" "-o -b -z" "-w -n --show-cost"
                  "-v --show-cost --insert-cost=2")
    # random cases: full 30, quick 5 (the fewest with which LFLAGS[(s + 0,
    # 3, 7) % 12] still meets all twelve flag sets and GOPTS[s % 5] all
    # five generators; s = 4 has five patterns), sanitizer builds 3 (the
    # slow path is the plain DP over records of up to 30 KB, 10 KB in
    # quick and on sanitizer builds)
    local sizes
    sizes=$(depth "-b 6000:15000 -l 2000:10000" "-b 15000:40000 -l 2000:30000")
    long_opts() {
        echo "${GOPTS[$1 % 5]} -p $(( $1 % 4 == 0 ? 5 : 1 + $1 % 3 )) $sizes -P 70"
    }
    cases_vs_slow "$(depth 5 30 3)" 900 long_opts LFLAGS 0 3 7
    # the flag sets of the primers and of the UTF-8 line below: full
    # (AGREP_GPU_TESTS=full) all, quick one and two (-w -o -n,
    # --color=always and -i -o --show-edits; -o -b is the random cases')
    local -a pfl=("-o -b" "--color=always" "-w -o -n") ufl=("-o -b" "--color=always" "-w -o" "-i -o --show-edits")
    if ((QUICK)); then
        pfl=("-w -o -n") ufl=("--color=always" "-i -o --show-edits")
    fi
    # primers on long DNA lines: part_from's ends from the pattern-parallel
    # engine, the shared filter's walk skipping to them
    opts="-a acgt -n 18:30 -k 3:4 -p 8 -b 60000:80000 -l 20000:40000 -P 80"
    # shellcheck disable=SC2086
    casegen $opts 950 "$W/t" "$W/p" > "$W/k"
    GEN="tests/bin/casegen $opts 950 $W/t $W/p"
    read -r K _ < "$W/k"
    P="$W/p"
    for FL in "${pfl[@]}"; do
        slow_vs_fast "$W/t"
    done
    # UTF-8: a long line of é, ü and ASCII (its characters are not bytes):
    # full 28 KB, quick 14 KB
    printf 'h\303\251llo w\303\274rld %.0s' $(seq "$(depth 1000 2000)") > "$W/u"
    printf 'zz hallo welt zz\n' >> "$W/u"
    printf 'h\303\251llo\nwelt\n' > "$W/up"
    P="$W/up" K=1
    for FL in "${ufl[@]}"; do
        LC_ALL=C.UTF-8 slow_vs_fast "$W/u"
    done
    # long records with no match within k: their least cost is asked for
    # (-v --show-cost), by the whole DP
    awk 'BEGIN { srand(7); for (l = 0; l < 5; l++) { s = ""
        for (i = 0; i < 3000 + 4000 * l; i++) s = s substr("abcd", int(rand() * 4) + 1, 1)
        print s } }' > "$W/nm"
    printf 'abcdxyzzyxdcba\nbbbbxxxxaaaa\n' > "$W/nmp"
    # (quick: the last two, -v --show-cost with -n -w and with a weight)
    P="$W/nmp" K=2
    local -a nfl=("-v --show-cost" "-v -n -w --show-cost" "-v --show-cost --insert-cost=2")
    ((!QUICK)) || nfl=("${nfl[@]:1}")
    for FL in "${nfl[@]}"; do
        slow_vs_fast "$W/nm"
    done
    end_checks
}
