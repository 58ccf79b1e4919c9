#!/usr/bin/env bats
# Context lines -A/-B/-C with "--" group separators as GNU grep: against
# grep -F for k=0 (random texts, several context values, overlapping groups,
# -n -b -H, several files, -c -l -v -m -i); for k=1, against the oracle's
# selection rendered by an independent awk model of grep's context rules
# (checked against grep itself for k=0), across tiny chunks on the OpenCL
# device and on the host; --color with context; -r with --include,
# --exclude, --exclude-dir against grep -r.
load test_helper
load check_helper

# Random cases: setup_file makes NCASES (24; the tests with fixed seeds use
# up to 22).  The tests that loop over them run all 24 in full
# (AGREP_GPU_TESTS=full) and in quick the fewest seeds with which each
# rotation still meets all its values: NQ5 (5: CTX[(s + 5i) % 12], i = 0-3,
# all 12 contexts), NQ7 (7: CTX[(s + 7i) % 12] all 12 contexts,
# PFX[(s + 3i) % 10] all 10 prefixes, (s + i) % 3 all 3 paths, CTX[(s + 5i)
# % 12], i = 0-1, all 12, and k 1 and 2 with each -n/-b combination) and
# NQ12 (12: CTX[s % 12] all 12 contexts, PFX[s % 8] all 8 prefixes).
# In quick, setup_file makes the first NMADE (14: the fixed seeds there go
# to 14), and the loops take a sample of their checks, in turns (each
# test says which).
NCASES=24
NMADE=$(depth 14 "$NCASES")
QUICK=0
[ "$(depth quick full)" = full ] || QUICK=1
NQ5=$(depth 5 "$NCASES")
NQ7=$(depth 7 "$NCASES")
NQ12=$(depth 12 "$NCASES")
CTX=("-A1" "-B1" "-C1" "-A2" "-B3" "-C2" "-A3 -B1" "-A1 -B4" "-C5" "-A2 -C1" "-B2 -A5" "-C3")
PFX=("" "-n" "-b" "-n -b" "-i" "-n -i" "-H" "-v -n" "-c" "-l")

setup_file() {
    local s
    need_tools casegen oracle || return 1
    case_dir
    for ((s = 1; s <= NMADE; s++)); do
        # short lines, a few matching ones: groups that touch, overlap or not
        casegen -p 1 -n 3:6 -k 0:1 -a "$( ((s % 2)) && echo mixed || echo words)" \
            -P "$((5 + 3 * s))" -b 400:1500 -l 0:30 "$s" "$CASES/t.$s" "$CASES/p.$s" > "$CASES/k.$s"
        casegen -p 1 -n 3:6 -a words -P 20 -b 100:400 -l 0:30 "$((s + 100))" \
            "$CASES/u.$s" "$CASES/junk.$s" > /dev/null
    done
}

setup() {
    begin_checks
    CASES="$BATS_FILE_TMPDIR/cases"
    W="$BATS_TEST_TMPDIR"
}

gen_of() {
    local s=$1 a
    a=$( ((s % 2)) && echo mixed || echo words)
    echo "tests/bin/casegen -p 1 -n 3:6 -k 0:1 -a $a -P $((5 + 3 * s)) -b 400:1500 -l 0:30 $s $CASES/t.$s $CASES/p.$s && tests/bin/casegen -p 1 -n 3:6 -a words -P 20 -b 100:400 -l 0:30 $((s + 100)) $CASES/u.$s /tmp/agrep-repro/junk"
}

# grep_ref FLAGS... : grep -F FLAGS into $W/g, its status into GRC
grep_ref() {
    GRC=0
    grep -F "$@" > "$W/g" || GRC=$?
    REF="grep -F $*"
    REF=${REF//$CASES\//\/tmp\/agrep-repro\/}
}

# render A B N BO H SELFILE TEXT [SELFILE TEXT]...: grep's context output for
# the selected line numbers in each SELFILE (one per line), with -n (N=1),
# -b (BO=1), file names (H=1): an awk model, independent of agrep-gpu.
render() {
    local a=$1 b=$2 n=$3 bo=$4 h=$5 any=0 rc
    shift 5
    while [ $# -gt 0 ]; do
        rc=0
        awk -v A="$a" -v B="$b" -v N="$n" -v BO="$bo" -v H="$h" -v any="$any" -v name="$2" '
            FILENAME == ARGV[1] { sel[$1] = 1; next }
            { line[FNR] = $0; off[FNR] = pos + 0; pos += length($0) + 1; L = FNR }
            END {
                for (i = 1; i <= L; i++)
                    if (i in sel)
                        for (j = i - B; j <= i + A; j++)
                            if (j >= 1 && j <= L) pr[j] = 1
                last = -1
                for (i = 1; i <= L; i++) {
                    if (!(i in pr)) continue
                    if (any && i != last + 1) print "--"
                    s = (i in sel) ? ":" : "-"
                    out = ""
                    if (H) out = name s
                    if (N) out = out i s
                    if (BO) out = out off[i] s
                    print out line[i]
                    any = 1; last = i
                }
                exit any ? 10 : 11
            }' "$1" "$2" || rc=$?
        [ "$rc" = 10 ] && any=1
        shift 2
    done
}

# ctx_values "-A2 -B1" -> "2 1"; as in GNU grep, -C only sets what -A and -B
# leave unset, whatever the order ("-A2 -C1" is -A2 -B1)
ctx_values() {
    local a="" b="" c=0 o
    for o in $1; do
        case $o in
            -A*) a=${o#-A} ;;
            -B*) b=${o#-B} ;;
            -C*) c=${o#-C} ;;
        esac
    done
    echo "${a:-$c} ${b:-$c}"
}

@test "the awk model of context output agrees with grep -F (k=0)" {
    local s i pat a b f
    for ((s = 1; s <= NQ5; s++)); do
        pat=$(cat "$CASES/p.$s")
        for i in 0 1 2 3; do
            f=${CTX[(s + i * 5) % 12]}
            read -r a b < <(ctx_values "$f")
            grep -n -F -e "$pat" "$CASES/t.$s" | cut -d: -f1 > "$W/sel1" || true
            # full: both layouts; quick: the first for i = 0-1, the other
            # for i = 2-3 (each still with ten of the twelve contexts)
            if ((!QUICK || i < 2)); then
            grep -n -F -e "$pat" "$CASES/u.$s" | cut -d: -f1 > "$W/sel2" || true
            # shellcheck disable=SC2086
            grep -F $f -n -b -e "$pat" "$CASES/t.$s" "$CASES/u.$s" > "$W/g" || true
            render "$a" "$b" 1 1 1 "$W/sel1" "$CASES/t.$s" "$W/sel2" "$CASES/u.$s" > "$W/m"
            cmp -s "$W/g" "$W/m" || { echo "model differs from grep: seed $s $f"; diff "$W/g" "$W/m" | head; return 1; }
            fi
            if ((!QUICK || i >= 2)); then
            # shellcheck disable=SC2086
            grep -F $f -e "$pat" "$CASES/t.$s" > "$W/g" || true
            render "$a" "$b" 0 0 0 "$W/sel1" "$CASES/t.$s" > "$W/m"
            cmp -s "$W/g" "$W/m" || { echo "model differs from grep: seed $s $f (one file)"; diff "$W/g" "$W/m" | head; return 1; }
            fi
        done
    done
}

@test "-A/-B/-C equal grep -F for k=0 (one and two files, -n -b -H -i -v -c -l)" {
    local s i pat f p envs form
    for ((s = 1; s <= NQ7; s++)); do
        pat=$(cat "$CASES/p.$s")
        GEN=$(gen_of "$s")
        for i in 0 1; do
            f=${CTX[(s + 7 * i) % 12]}
            p=${PFX[(s + 3 * i) % 10]}
            case $(((s + i) % 3)) in
                0) envs="AGREP_GPU_DEVICE=host" ;;
                1) envs="AGREP_GPU_HOST_MAX=0" ;;
                2) envs="" ;;
            esac
            # full: one file, two and standard input; quick: one of them,
            # (s + i + s / 3) % 3, which still meets each path with each
            # input
            form=$(((s + i + s / 3) % 3))
            if ((!QUICK || form == 0)); then
            # shellcheck disable=SC2086
            grep_ref $f $p -e "$pat" "$CASES/t.$s"
            # shellcheck disable=SC2086
            check_ref "$W/g" "$GRC" "$envs" "" $f $p -e "$pat" "$CASES/t.$s"
            fi
            if ((!QUICK || form == 1)); then
            # shellcheck disable=SC2086
            grep_ref $f $p -e "$pat" "$CASES/t.$s" "$CASES/u.$s"
            # shellcheck disable=SC2086
            check_ref "$W/g" "$GRC" "$envs" "" $f $p -e "$pat" "$CASES/t.$s" "$CASES/u.$s"
            fi
            if ((!QUICK || form == 2)); then
            # standard input
            # shellcheck disable=SC2086
            grep_ref $f $p -e "$pat"  < "$CASES/t.$s"
            # shellcheck disable=SC2086
            check_ref "$W/g" "$GRC" "$envs" "$CASES/t.$s" $f $p -e "$pat"
            fi
        done
    done
    end_checks
}

@test "context with --context=NUM, --after-context, --before-context and bundled -nC2 as grep" {
    local s pat envs e
    # seeds: full (AGREP_GPU_TESTS=full) 3, 8, 13, each with every form on
    # both paths; quick 3 on OpenCL and 8 on the host (a mixed and a words
    # text), each with every form
    for s in $(depth "3 8" "3 8 13"); do
        pat=$(cat "$CASES/p.$s")
        GEN=$(gen_of "$s")
        e=0
        for envs in "AGREP_GPU_DEVICE=host" "AGREP_GPU_HOST_MAX=0"; do
            ((!QUICK || e++ == s % 2)) || continue
            grep_ref --context=2 -e "$pat" "$CASES/t.$s"
            check_ref "$W/g" "$GRC" "$envs" "" --context=2 -e "$pat" "$CASES/t.$s"
            grep_ref --after-context=3 --before-context=1 -e "$pat" "$CASES/t.$s"
            check_ref "$W/g" "$GRC" "$envs" "" --after-context=3 --before-context=1 -e "$pat" "$CASES/t.$s"
            grep_ref -nC2 -e "$pat" "$CASES/t.$s"
            check_ref "$W/g" "$GRC" "$envs" "" -nC2 -e "$pat" "$CASES/t.$s"
            grep_ref -C 1 -A 3 -e "$pat" "$CASES/t.$s"
            check_ref "$W/g" "$GRC" "$envs" "" -C 1 -A 3 -e "$pat" "$CASES/t.$s"
        done
    done
    end_checks
}

@test "-A0/-B0/-C0 print -- between non-adjacent selected lines, as grep" {
    printf 'a\nx\nx\na\nb\na\na\n' > "$W/t"
    local f envs
    for f in -A0 -B0 -C0 "-A0 -n"; do
        for envs in "AGREP_GPU_DEVICE=host" "AGREP_GPU_HOST_MAX=0"; do
            # shellcheck disable=SC2086
            grep_ref $f a "$W/t"
            # shellcheck disable=SC2086
            check_ref "$W/g" "$GRC" "$envs" "" $f a "$W/t"
        done
    done
    end_checks
}

@test "-m NUM with -A prints the trailing context of the last selected line, as grep" {
    printf 'a\nx\ny\na\nz\nw\nq\na\n' > "$W/t"
    printf 'x\na\ny\n' > "$W/u"
    local f
    for f in "-m1 -A2" "-m2 -A1 -n" "-m1 -C1" "-m2 -B1 -A1"; do
        # shellcheck disable=SC2086
        grep_ref $f a "$W/t" "$W/u"
        # shellcheck disable=SC2086
        check_ref "$W/g" "$GRC" "" "" $f a "$W/t" "$W/u"
    done
    end_checks
}

@test "k=0 context across tiny chunks (OpenCL, 64-byte chunks and slices) equals grep -F" {
    # Full (AGREP_GPU_TESTS=full): both settings on the two files and on
    # standard input.  Quick: each seed on one setting, s % 2, with one
    # input, s / 2 % 2: every context and prefix still meets OpenCL's
    # tiny chunks, and each setting both inputs (six seeds each).
    local s i pat f p envs e full=0
    [ "$(depth quick full)" = quick ] || full=1
    for ((s = 1; s <= NQ12; s++)); do
        pat=$(cat "$CASES/p.$s")
        GEN=$(gen_of "$s")
        f=${CTX[s % 12]}
        p=${PFX[s % 8]}
        e=0
        for envs in "AGREP_GPU_HOST_MAX=0 AGREP_GPU_CHUNK=64" \
                    "AGREP_GPU_HOST_MAX=0 AGREP_GPU_SLICE=64 AGREP_GPU_CHUNK=$((64 + 7 * s))"; do
            if ((full || (e == s % 2 && s / 2 % 2 == 0))); then
            # shellcheck disable=SC2086
            grep_ref $f $p -e "$pat" "$CASES/t.$s" "$CASES/u.$s"
            # shellcheck disable=SC2086
            check_ref "$W/g" "$GRC" "$envs" "" $f $p -e "$pat" "$CASES/t.$s" "$CASES/u.$s"
            fi
            if ((full || (e == s % 2 && s / 2 % 2 == 1))); then
            # shellcheck disable=SC2086
            grep_ref $f $p -e "$pat" < "$CASES/t.$s"
            # shellcheck disable=SC2086
            check_ref "$W/g" "$GRC" "$envs" "$CASES/t.$s" $f $p -e "$pat"
            fi
            e=$((e + 1))
        done
    done
    end_checks
}

# k1_context I ENV1 ENV2: for every case, agrep-gpu -k1/-k2 with context
# under each ENV against the oracle's selection in the awk model of grep's
# layout (full: i = 0 and 1); quick: the cases with i = I, under ENV1 or
# ENV2 by s / 2 % 2 (each ENV still with both k and every -n/-b
# combination; the two tests, I = 0 and 1, meet all twelve contexts)
k1_context() {
    local s i f p a b n bo envs k erc e
    local only=$1
    shift
    for ((s = 1; s <= NQ7; s++)); do
        GEN=$(gen_of "$s")
        for i in 0 1; do
            ((!QUICK || i == only)) || continue
            f=${CTX[(s + 5 * i) % 12]}
            read -r a b < <(ctx_values "$f")
            k=$((1 + (s + i) % 2))
            n=$(((s + i) % 2)); bo=$(((s / 2 + i) % 2))
            p=""; ((n)) && p="$p -n"; ((bo)) && p="$p -b"
            oracle -n -k "$k" -f "$CASES/p.$s" "$CASES/t.$s" | cut -d: -f1 > "$W/sel1" || true
            oracle -n -k "$k" -f "$CASES/p.$s" "$CASES/u.$s" | cut -d: -f1 > "$W/sel2" || true
            render "$a" "$b" "$n" "$bo" 1 "$W/sel1" "$CASES/t.$s" "$W/sel2" "$CASES/u.$s" > "$W/exp"
            erc=1
            [ -s "$W/sel1" ] || [ -s "$W/sel2" ] && erc=0
            REF="oracle -n -k $k selections in the awk context model"
            e=0
            for envs in "$@"; do
                ((!QUICK || e++ == s / 2 % 2)) || continue
                # shellcheck disable=SC2086
                check_ref "$W/exp" "$erc" "$envs" "" $f $p -k "$k" -f "$CASES/p.$s" "$CASES/t.$s" "$CASES/u.$s"
            done
        done
    done
}

@test "k=1,2 context on the host and OpenCL defaults: the oracle's lines in grep's layout" {
    k1_context 0 "AGREP_GPU_DEVICE=host" "AGREP_GPU_HOST_MAX=0"
    end_checks
}

@test "k=1,2 context across tiny chunks (OpenCL, 64-byte chunks): the oracle's lines in grep's layout, as --device=host" {
    k1_context 1 "AGREP_GPU_CHUNK=64 AGREP_GPU_HOST_MAX=0" "AGREP_GPU_CHUNK=64 AGREP_GPU_HOST_MAX=0 AGREP_GPU_SLICE=64"
    # and byte for byte the output of --device=host (seeds 1, 4, 7; quick
    # 1 and 7)
    local s f
    for ((s = 1; s <= NQ7; s += QUICK ? 6 : 3)); do
        f=${CTX[s % 12]}
        # shellcheck disable=SC2086
        AGREP_GPU_CHUNK=64 AGREP_GPU_HOST_MAX=0 agrep-gpu -F $f -n -k 1 -f "$CASES/p.$s" "$CASES/t.$s" "$CASES/u.$s" > "$W/dev" || true
        # shellcheck disable=SC2086
        agrep-gpu -F --device=host $f -n -k 1 -f "$CASES/p.$s" "$CASES/t.$s" "$CASES/u.$s" > "$W/host" || true
        NCHECK=$((NCHECK + 1))
        cmp -s "$W/dev" "$W/host" ||
            { NFAIL=$((NFAIL + 1)); echo "seed $s $f -n -k 1: AGREP_GPU_CHUNK=64 AGREP_GPU_HOST_MAX=0 and --device=host differ" >> "$FAILS"; }
    done
    end_checks
}

@test "k=1 context with -c, -l, -v and -i: the oracle's lines in grep's layout" {
    local s envs k f j=0 e
    # seeds: full (AGREP_GPU_TESTS=full) 2, 5, 9, 14, 19, 22, each with
    # both checks on both paths; quick 2, 5, 14 (words, mixed and words
    # texts), each with both checks on one path, OpenCL, the host, OpenCL
    for s in $(depth "2 5 14" "2 5 9 14 19 22"); do
        GEN=$(gen_of "$s")
        k=1
        e=0
        for envs in "AGREP_GPU_CHUNK=64 AGREP_GPU_HOST_MAX=0" "AGREP_GPU_DEVICE=host"; do
            ((!QUICK || e++ == j % 2)) || continue
            # -c ignores context: the oracle's own -c
            oracle -c -k "$k" -f "$CASES/p.$s" "$CASES/t.$s" "$CASES/u.$s" > "$W/exp" || true
            REF="oracle -c -k $k"
            check_ref "$W/exp" "$(grep -q ':[1-9]' "$W/exp" && echo 0 || echo 1)" "$envs" "" \
                -C2 -c -k "$k" -f "$CASES/p.$s" "$CASES/t.$s" "$CASES/u.$s"
            # -v -i with context: the oracle's selection, rendered
            oracle -v -i -n -k "$k" -f "$CASES/p.$s" "$CASES/t.$s" | cut -d: -f1 > "$W/sel" || true
            render 2 1 1 0 0 "$W/sel" "$CASES/t.$s" > "$W/exp"
            REF="oracle -v -i -n -k $k in the awk context model"
            check_ref "$W/exp" "$( [ -s "$W/sel" ] && echo 0 || echo 1)" "$envs" "" \
                -A2 -B1 -n -v -i -k "$k" -f "$CASES/p.$s" "$CASES/t.$s"
        done
        j=$((j + 1))
    done
    end_checks
}

@test "--color=always with context: separators and context lines as grep (k=0)" {
    local s f pat
    # seeds: full (AGREP_GPU_TESTS=full) 1, 4, 7, 10; quick 1 and 4 (a
    # mixed and a words text)
    for s in $(depth "1 4" "1 4 7 10"); do
        pat=$(cat "$CASES/p.$s")
        GEN=$(gen_of "$s")
        for f in "-C1" "-A2 -n" "-B1 -n -b"; do
            # shellcheck disable=SC2086
            grep_ref --color=always $f -e "$pat" "$CASES/t.$s" "$CASES/u.$s"
            # shellcheck disable=SC2086
            check_ref "$W/g" "$GRC" "AGREP_GPU_DEVICE=host" "" --color=always $f -e "$pat" "$CASES/t.$s" "$CASES/u.$s"
        done
    done
    end_checks
}

@test "--color=always -v with context highlights the matches in context lines, as grep" {
    printf 'a\nx\nx\nab\nb\n' > "$W/t"
    grep_ref --color=always -v -A1 a "$W/t"
    check_ref "$W/g" "$GRC" "" "" --color=always -v -A1 a "$W/t"
    end_checks
}

@test "-o with context prints no context lines and no separators, as grep" {
    printf 'a\nx\nx\na\nb\nxa\n' > "$W/t"
    local f
    for f in -C1 "-A2 -n" "-B1 -b"; do
        # shellcheck disable=SC2086
        grep_ref -o $f a "$W/t"
        # shellcheck disable=SC2086
        check_ref "$W/g" "$GRC" "" "" -o $f a "$W/t"
    done
    end_checks
}

# ------------------------------------------------------------ -r filters

mktree() {
    local d=$1 f
    mkdir -p "$d/sub/skip" "$d/skip" "$d/.hid" "$d/sub2/deep" "$d/logs.d"
    for f in a.txt b.c c.log x.TXT sub/d.txt sub/e.log skip/f.txt sub/skip/g.txt \
             .hid/h.txt sub2/deep/i.txt sub2/deep/j.c logs.d/k.txt sub2/l.log; do
        printf 'his mercy endureth (%s)\nnothing here\nMERCY upper\nmercx typo\n' "$f" > "$d/$f"
    done
}

@test "-r with --include, --exclude, --exclude-dir: the files grep -r searches" {
    mktree "$W/d"
    cd "$W"
    local o envs k arc
    local -a opts=("--include=*.txt" "--exclude=*.log" "--exclude-dir=skip" "--include=*.txt --exclude=a*"
                   "--exclude-dir=s*" "--include=*.c --include=*.log" "--exclude-dir=sub"
                   "--exclude-dir=.hid" "--include=*.txt --exclude-dir=deep" "--exclude=*"
                   "--exclude-dir=sub/skip" "--include=*.TXT" "--include=[ab].*" "--exclude=?.c"
                   "--exclude-dir=*.d --include=*.txt" "--include=*.txt --exclude=*.log")
    # full (AGREP_GPU_TESTS=full): every filter with every output form on
    # both paths, and at k=1; quick: the default path one output form a
    # filter, in turn (each form with four filters), OpenCL one on every
    # other filter, in turn (each form with two), k=1 on every fourth
    # filter (the first, fifth, ninth and thirteenth)
    local oi=0 ki full=0
    [ "$(depth quick full)" = quick ] || full=1
    for o in "${opts[@]}"; do
        for envs in "" "AGREP_GPU_HOST_MAX=0 AGREP_GPU_CHUNK=64"; do
            ki=-1
            for k in "" "-i" "-l" "-c -n"; do
                ki=$((ki + 1))
                if ((!full)); then
                    if [ -z "$envs" ]; then
                        ((ki == oi % 4)) || continue
                    else
                        ((oi % 2 == 1 && ki == oi / 2 % 4)) || continue
                    fi
                fi
                # shellcheck disable=SC2086
                grep -r $o $k mercy d | sort > "$W/g" || true
                REF="grep -r $o $k mercy d | sort"
                arc=0
                # shellcheck disable=SC2086
                env $envs agrep-gpu -r $o $k mercy d > "$W/a" 2> "$W/e" || arc=$?
                sort "$W/a" > "$W/as"
                NCHECK=$((NCHECK + 1))
                if ! cmp -s "$W/g" "$W/as" || [ -s "$W/e" ]; then
                    NFAIL=$((NFAIL + 1))
                    { echo "---- FAIL: $envs agrep-gpu -r $o $k mercy d (sorted) vs $REF (exit $arc)"
                      diff "$W/g" "$W/as" | head -6; head -2 "$W/e"; } >> "$FAILS"
                fi
            done
        done
        # k=1: the oracle over the files grep -r would search
        if ((full || oi % 4 == 0)); then
        mapfile -t files < <(grep -r -l $o '' d | sort)
        if [ "${#files[@]}" -gt 0 ]; then
            # shellcheck disable=SC2086
            oracle -n -k 1 mercy "${files[@]}" /dev/null | sort > "$W/g" || true
            agrep-gpu -r -n -k 1 $o mercy d | sort > "$W/as" || true
            NCHECK=$((NCHECK + 1))
            cmp -s "$W/g" "$W/as" || { NFAIL=$((NFAIL + 1)); echo "---- FAIL -k1 -n -r $o: vs oracle over grep -r -l '' $o d"; diff "$W/g" "$W/as" | head -6; } >> "$FAILS"
        fi
        fi
        oi=$((oi + 1))
    done
    end_checks
}

@test "--exclude before --include: the last matching option wins, as grep" {
    mktree "$W/d"
    cd "$W"
    local o
    for o in "--exclude=a* --include=*.txt" "--exclude=*.log --include=*.txt" "--exclude=b* --include=*.c"; do
        # shellcheck disable=SC2086
        grep -r $o mercy d | sort > "$W/g"
        # shellcheck disable=SC2086
        agrep-gpu -r $o mercy d | sort > "$W/as" || true
        NCHECK=$((NCHECK + 1))
        cmp -s "$W/g" "$W/as" || { NFAIL=$((NFAIL + 1)); { echo "---- FAIL: agrep-gpu -r $o mercy d (sorted) vs grep"; diff "$W/g" "$W/as" | head -6; } >> "$FAILS"; }
    done
    end_checks
}

@test "--include/--exclude/--exclude-dir also apply to command-line operands, as grep" {
    mktree "$W/d"
    cd "$W"
    local o args
    for o in "--exclude=a*" "--include=*.c" "--exclude=d/a.txt" "--exclude-dir=sub" "--exclude-dir=s*"; do
        for args in "d/a.txt d/sub" "d/sub/ d/b.c"; do
            # shellcheck disable=SC2086
            grep -r $o mercy $args | sort > "$W/g"
            # shellcheck disable=SC2086
            agrep-gpu -r $o mercy $args | sort > "$W/as" || true
            NCHECK=$((NCHECK + 1))
            cmp -s "$W/g" "$W/as" || { NFAIL=$((NFAIL + 1)); { echo "---- FAIL: agrep-gpu -r $o mercy $args (sorted) vs grep"; diff "$W/g" "$W/as" | head -6; } >> "$FAILS"; }
        done
    done
    end_checks
}
