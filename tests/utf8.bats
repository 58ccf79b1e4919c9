#!/usr/bin/env bats
# UTF-8 mode: distance over characters (src/utf8.c).  The mode from the
# locale and --utf8/--bytes; hand cases; every engine against the DP oracle
# over code points (tests/oracle.c --utf8) on random texts mixing ASCII,
# 2-, 3- and 4-byte characters and invalid bytes (tests/u8gen.c), with tiny
# slices and chunks; Russian text against tre-agrep in C.UTF-8.
load test_helper
load check_helper

setup_file() {
    need_tools oracle u8gen
    local c="$BATS_FILE_TMPDIR/cases" s
    mkdir -p "$c"
    for ((s = 1; s <= ${UTF8_SEEDS:-$(depth 7 60)}; s++)); do
        u8gen "$s" "$c/t.$s" "$c/p.$s" > "$c/k.$s"
        tr '\n' '\0' < "$c/t.$s" > "$c/z.$s"
    done
}

setup() {
    W="$BATS_TEST_TMPDIR"
    CASES="$BATS_FILE_TMPDIR/cases"
    printf 'café au lait\ncafe noir\nCAFÉ\nnaïve\nΚαλημέρα κόσμε\nthe \xe2\x84\xaaelvin scale\n\xc3 lone lead\nemoji \xf0\x9f\x98\x80!\n' > "$W/t"
}

@test "utf8: the mode comes from the locale; --utf8 and --bytes force it" {
    # café against cafe: 1 edit over characters, 2 over bytes
    run env LC_ALL=C.UTF-8 agrep-gpu -c -k1 café "$W/t"
    assert_output 2
    run env LC_ALL=C agrep-gpu -c -k1 café "$W/t"
    assert_output 1
    run env LC_ALL=C agrep-gpu --utf8 -c -k1 café "$W/t"
    assert_output 2
    run env LC_ALL=C.UTF-8 agrep-gpu --bytes -c -k1 café "$W/t"
    assert_output 1
    # the last of --utf8 and --bytes wins
    run env LC_ALL=C agrep-gpu --bytes --utf8 -c -k1 café "$W/t"
    assert_output 2
    # LC_ALL before LC_CTYPE before LANG; a UTF-8 locale that is not
    # installed still counts by its name
    run env -u LC_ALL LC_CTYPE=C LANG=C.UTF-8 agrep-gpu -c -k1 café "$W/t"
    assert_output 1
    run env -u LC_ALL -u LC_CTYPE LANG=xx_YY.UTF-8 agrep-gpu -c -k1 café "$W/t"
    assert_output 2
    run env -u LC_ALL -u LC_CTYPE LANG=xx_YY.ISO-8859-1 agrep-gpu -c -k1 café "$W/t"
    assert_output 1
}

@test "utf8: hand cases (case folding, invalid bytes, 4-byte characters)" {
    export LC_ALL=C.UTF-8
    # -i folds Unicode: É/é, Greek, the Kelvin sign is k
    run agrep-gpu -i café "$W/t"
    assert_output "$(printf 'café au lait\nCAFÉ')"
    run agrep-gpu -i 'ΚΑΛΗΜΈΡΑ' "$W/t"
    assert_output 'Καλημέρα κόσμε'
    run agrep-gpu -i kelvin "$W/t"
    assert_output "$(printf 'the \xe2\x84\xaaelvin scale')"
    run agrep-gpu kelvin "$W/t"
    assert_failure 1
    # final sigma folds with sigma
    run sh -c "printf 'λόγος\n' | agrep-gpu -i 'ΛΌΓΟΣ'"
    assert_output 'λόγος'
    # an invalid byte is one character, equal only to itself
    run agrep-gpu -c "$(printf '\xc3 lone')" "$W/t"
    assert_output 1
    run agrep-gpu -c -k1 "$(printf 'X lone')" "$W/t"
    assert_output 1
    run agrep-gpu -c -k0 "$(printf '\xc3')" "$W/t"
    assert_output 1
    # one emoji is one edit away from '?'
    run agrep-gpu -k1 'emoji ?!' "$W/t"
    assert_output "$(printf 'emoji \xf0\x9f\x98\x80!')"
    run agrep-gpu --bytes -k1 'emoji ?!' "$W/t"
    assert_failure 1
    # k counts characters: a 4-character pattern with k >= 4 selects all
    run agrep-gpu -c -k4 'ΚΑΛΗ' "$W/t"
    assert_output 8
}

@test "utf8: -o, --color, -b, --show-cost, --show-edits and --json count characters" {
    export LC_ALL=C.UTF-8
    # (the matched part ends at the first end within k: caf, not café)
    run agrep-gpu -o -k1 cafe "$W/t"
    assert_output "$(printf 'caf\ncafe\ncale')"
    run agrep-gpu --show-cost -k2 Καλημερα "$W/t"
    assert_output '1:Καλημέρα κόσμε'
    # é for e is one substitution; in bytes the least-cost match is rcy
    run sh -c "printf 'mércy\n' | agrep-gpu --show-cost --show-edits -k2 mercy"
    assert_output '1:1=1X3=:mércy'
    run sh -c "printf 'mércy\n' | agrep-gpu --bytes --show-cost --show-edits -k2 mercy"
    assert_output '2:2D3=:mércy'
    run sh -c "printf 'mércy\n' | agrep-gpu --show-edits -o -k2 mercy"
    assert_output '1=1X3=:mércy'
    # k = 0 too counts characters
    run sh -c "printf 'un café noir\n' | agrep-gpu --show-edits -o café"
    assert_output '4=:café'
    # the substituted é is coloured whole (both bytes)
    run sh -c "printf 'mércy\n' | agrep-gpu --color=always --show-edits -o -k1 mercy"
    assert_output "$(printf '1=1X3=\033[36m\033[K:\033[m\033[K\033[01;31m\033[Km\033[m\033[K\033[01;33m\033[K\xc3\xa9\033[m\033[K\033[01;31m\033[Krcy\033[m\033[K')"
    # -b -o and JSON offsets are bytes
    run agrep-gpu -b -o -k1 noir "$W/t"
    assert_output '19:noir'
    run sh -c "agrep-gpu --json -k1 Καλημερα '$W/t' | sed -n 2p"
    assert_output --partial '"submatches":[{"match":{"text":"Καλημέρα"},"start":0,"end":16,"cost":1}]'
    # -w: Greek letters are word characters
    run sh -c "printf 'ΑΒΓ αβγδ\n' | agrep-gpu -w -k0 αβγ"
    assert_failure 1
    run sh -c "printf 'ΑΒΓ αβγδ\n' | agrep-gpu -w -k1 αβγ"
    assert_output 'ΑΒΓ αβγδ'
    run sh -c "printf 'ΑΒΓ αβγδ\n' | agrep-gpu --bytes -w -k0 αβγ"
    assert_output 'ΑΒΓ αβγδ'
}

@test "utf8: patterns with too many distinct non-ASCII characters are refused" {
    local p
    p=$(printf '%s' 'абвгдежзийклмнопрстуфхцчшщъыьэюяАБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯαβγδεζηθικλμνξοπρστυφχψωΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩàáâãäåæçèéêëìíîïðñòóôõöøùúûüý')
    run env LC_ALL=C.UTF-8 agrep-gpu -k1 "$p" "$W/t"
    assert_failure 2
    assert_output --partial 'more than 112 different non-ASCII characters'
    run env LC_ALL=C.UTF-8 agrep-gpu --bytes -c -k1 "$p" "$W/t"
    assert_output 0
}

# In a UTF-8 locale a record to be printed that holds an encoding error is
# binary (grep 3.8): left out, "binary file matches" at the file's end; -a
# prints it; -c, -l and -o's valid parts are not changed.  Context and
# "--" as grep prints them (its -v -A after such a record aside: it then
# prints a record from before as context).  full: every option on the four
# files; quick: each option on one of them by turns ((option + file) % 4:
# each file meets a quarter of the options).
@test "utf8: records with encoding errors are binary when printed, as grep 3.8" {
    export LC_ALL=C.UTF-8
    cd "$W"
    printf 'un caf\xc3 x\nabc caf\nzz\n' > e1
    printf 'abc caf\nun caf\xc3 x\nabc caf\nzz\n\xff\xfe caf\n' > e2
    printf 'x\ny\nabc\n\xff bad\nabc\nq\nw\ne\n\xfe\nabc\n' > e3
    printf 'abc\n\xff\nzz\nabc\nq\n\xfe\n\xfe\nabc\nabc\n\xf0\nw\n' > e4
    local f o want got fx=0 ox full=
    [ "$(depth quick full)" = quick ] || full=1
    for f in e1 e2 e3 e4; do
        fx=$((fx + 1)) ox=0
        for o in "caf" "-n caf" "-o caf" "-c caf" "-I caf" "-A1 abc" \
            "-B1 abc" "-C1 abc" "-v zz" "-l caf" "-a caf" "-C1 zz" \
            "-n -v abc" "-H -b caf" "--color=always caf" "-A2 -n abc" \
            "-B2 abc" "-v -C1 abc" "-C2 -n abc" "-m2 -A3 abc" "-v -B2 abc" \
            "-o -C1 abc" "-m1 -A2 abc" "-k1 -n cbf"; do
            ox=$((ox + 1))
            [ -n "$full" ] || [ $(((ox + fx) % 4)) = 0 ] || continue
            # shellcheck disable=SC2086
            want=$(grep ${o/-k1 -n cbf/-n caf} $f 2>&1 | sed 's/^grep:/agrep-gpu:/'; echo "rc=${PIPESTATUS[0]}")
            # shellcheck disable=SC2086
            got=$(agrep-gpu $o $f 2>&1; echo "rc=$?")
            [ "$got" = "$want" ] || { echo "agrep-gpu $o $f:"; echo "$got"; echo "grep:"; echo "$want"; return 1; }
        done
    done
}

# Every engine against the oracle over code points: the host matcher (the
# scalar one on small inputs, SIMD and the filter forced), POCL by default
# and with tiny slices and chunks (records longer than a chunk go piece by
# piece: a character must not be cut into wrong answers), stdin, -j3, -z.
# full: 60 cases, every case through the seven, the many patterns through
# both paths with the three options over texts 1-6; quick: 7 cases, the
# j-th of the seven (1-7) takes the cases s of s + j even, half of them
# (the seven flag sets, s % 7, each once over cases 1-7), and over texts
# 1-3, text s, the many patterns take option s % 3 through path s % 2
# (each option once, each path).
@test "utf8: every engine against the oracle over code points (random cases)" {
    begin_checks
    local s k fl flags=("" "-i" "-w" "-x -i" "-c -v" "-n --show-cost" "-w -i -n")
    local full= fx
    [ "$(depth quick full)" = quick ] || full=1
    # (quick: whether the j-th path takes case s)
    takes() { [ -n "$full" ] || [ $(((s + $1) % 2)) = 0 ]; }
    export LC_ALL=C.UTF-8
    for ((s = 1; s <= ${UTF8_SEEDS:-$(depth 7 60)}; s++)); do
        k=$(cat "$CASES/k.$s")
        # (-a: u8gen writes invalid bytes, and a record that holds one is
        # binary when printed, as grep 3.8 has it; utf8: "binary")
        fl="--utf8 -a ${flags[s % ${#flags[@]}]}"
        # shellcheck disable=SC2086
        {
            ! takes 1 || check "AGREP_GPU_DEVICE=host" "" $fl -k "$k" -f "$CASES/p.$s" "$CASES/t.$s"
            ! takes 2 || check "AGREP_GPU_DEVICE=host AGREP_GPU_HOST_ENGINE=simd" "$CASES/t.$s" $fl -k "$k" -f "$CASES/p.$s"
            ! takes 3 || check "AGREP_GPU_DEVICE=host AGREP_GPU_HOST_ENGINE=filter AGREP_GPU_CHUNK=300" "" $fl -k "$k" -f "$CASES/p.$s" "$CASES/t.$s"
            ! takes 4 || check "AGREP_GPU_HOST_MAX=0" "" $fl -k "$k" -f "$CASES/p.$s" "$CASES/t.$s"
            ! takes 5 || check "AGREP_GPU_HOST_MAX=0 AGREP_GPU_SLICE=64 AGREP_GPU_CHUNK=100" "$CASES/t.$s" $fl -k "$k" -f "$CASES/p.$s"
            ! takes 6 || check "AGREP_GPU_CHUNK=257" "" -j3 $fl -k "$k" -f "$CASES/p.$s" "$CASES/t.$s"
        }
        ! takes 7 || check "AGREP_GPU_HOST_MAX=0 AGREP_GPU_CHUNK=200" "" --utf8 -z -c -k "$k" -f "$CASES/p.$s" "$CASES/z.$s"
    done
    # many patterns at once (the shared filter, multi.c, over symbols)
    cat "$CASES"/p.* > "$W/many"
    local nt
    nt=$(depth 3 6)
    for ((s = 1; s <= nt; s++)); do
        fx=0
        for fl in "-k1" "-i -k1" "-c -k2"; do
            fx=$((fx + 1))
            [ -n "$full" ] || [ $((fx % 3)) = $((s % 3)) ] || continue
            # shellcheck disable=SC2086
            {
                ! takes 0 || check "" "" --utf8 -a $fl -f "$W/many" "$CASES/t.$s"
                ! takes 1 || check "AGREP_GPU_HOST_ENGINE=multi" "" --utf8 -a $fl -f "$W/many" "$CASES/t.$s"
            }
        done
    done
    end_checks
}

# The symbols' hits go back to bytes a block of 64 symbols at a time, and
# ASCII runs are copied up to 16 bytes at a time (utf8.c): long ASCII runs
# with 2-, 3- and 4-byte characters at every offset, where an ASCII pattern
# at k=0 must match at the same bytes as in byte mode (and as grep).
@test "utf8: hits map back to the bytes across ASCII runs and 64-symbol blocks" {
    # a line each (i = 0-599): a character or not, i % 200 x's, one
    # "ab", one more character, xx (one awk: a shell loop of 600 was
    # most of the test's time)
    awk 'BEGIN { split("é 中 😀 ü", c, " "); for (i = 0; i < 600; i++) {
        l = i % 3 ? c[i % 4 + 1] : ""; for (j = 0; j < i % 200; j++) l = l "x"
        print l "ab" c[int(i / 4) % 4 + 1] "xx" } }' > "$W/runs"
    export LC_ALL=C.UTF-8
    # (at k=1 the search runs over symbols: zab matches each line's ab only)
    grep -n ab "$W/runs" > "$W/want"
    [ "$(wc -l < "$W/want")" = 600 ]
    for env in "AGREP_GPU_DEVICE=host" "AGREP_GPU_CHUNK=4096" \
        "AGREP_GPU_HOST_MAX=0 AGREP_GPU_CHUNK=65536"; do
        run env $env agrep-gpu --utf8 -n -k1 zab "$W/runs"
        assert_success
        assert_output "$(cat "$W/want")"
    done
}

# Real text: Russian and German (Debian's fortunes-ru and fortunes-de, UTF-8)
# against tre-agrep, which counts characters in a UTF-8 locale.
@test "utf8: Russian and German text against tre-agrep in C.UTF-8" {
    local ru=/usr/share/games/fortunes/ru de=/usr/share/games/fortunes/de
    [ -d "$ru" ] && [ -d "$de" ] && command -v tre-agrep >/dev/null ||
        skip "fortunes-ru, fortunes-de or tre-agrep missing: make deps installs them"
    begin_checks
    export LC_ALL=C.UTF-8
    # whole, valid UTF-8 files only (tre-agrep stops at invalid bytes)
    for f in "$ru"/2001.0[3-6] "$de"/anekdoten "$de"/wusstensie; do
        [ -f "$f" ] && iconv -f UTF-8 -t UTF-8 "$f" >/dev/null 2>&1 && cat "$f"
    done > "$W/text"
    # full: every pattern at every k, with -i and without, on the host
    # and on POCL; quick: the i-th pattern (1-6) at one k, i % 3, with -i
    # or without by turns ((i + k) % 2: each k meets both), on the host
    # and on POCL (each k twice)
    local pat k fl rc px=0 fx full=
    [ "$(depth quick full)" = quick ] || full=1
    for pat in 'приходит' 'Евгений Кащеев' 'утешение' 'ÄRGER' 'größer' 'Straße'; do
        px=$((px + 1))
        for k in 0 1 2; do
            [ -n "$full" ] || [ "$k" = $((px % 3)) ] || continue
            fx=0
            for fl in "" "-i"; do
                fx=$((fx + 1))
                [ -n "$full" ] || [ $(((px + k + fx) % 2)) = 0 ] || continue
                rc=0
                # shellcheck disable=SC2086
                tre-agrep $fl -k -E "$k" -e "$pat" "$W/text" > "$W/ref" || rc=$?
                REF="tre-agrep $fl -E $k" WHAT="$pat" check_ref "$W/ref" "$rc" "" "" $fl -k "$k" -e "$pat" "$W/text"
                [ -n "$full" ] || [ $((px % 3)) = "$k" ] || continue
                REF="tre-agrep $fl -E $k" WHAT="$pat (POCL)" check_ref "$W/ref" "$rc" "AGREP_GPU_HOST_MAX=0" "" $fl -k "$k" -e "$pat" "$W/text"
            done
        done
    done
    end_checks
}
