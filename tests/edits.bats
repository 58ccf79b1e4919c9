#!/usr/bin/env bats
# --show-edits: the CIGAR alignment of a line's least-cost match, or of each
# -o part, checked by tests/cigar.c (an independent DP, and an enumeration
# of every least-cost alignment for the tie rule) over random cases, and
# exactly on hand-made ones; --color marks substituted and inserted bytes.
load test_helper

setup() {
    command -v cigar >/dev/null && command -v casegen >/dev/null ||
        { echo "tests/bin/cigar or casegen missing: run 'make test-progs'" >&2; return 1; }
    W="$BATS_TEST_TMPDIR"
}

@test "--show-edits: hand-made alignments and the tie rule" {
    printf 'mecry\n' > "$W/t"
    run agrep-gpu -x -k2 --show-edits mercy "$W/t"
    assert_output '2=2X1=:mecry'
    run agrep-gpu -k2 -n -b --show-cost --show-edits mercy "$W/t"
    assert_output '1:0:2:2=1D1=1D:mecry'    # the part is "mec": first end within 2
    printf 'a\n' > "$W/t"
    run agrep-gpu -x -k1 --show-edits aa "$W/t"
    assert_output '1D1=:a'                   # indels as early as they can be
    printf 'aa\n' > "$W/t"
    run agrep-gpu -x -k1 --show-edits a "$W/t"
    assert_output '1I1=:aa'
    printf 'abxc\nba\nbab\n' > "$W/t"
    run agrep-gpu -x -k1 --show-edits abc "$W/t"
    assert_output '2=1I1=:abxc'
    run agrep-gpu -x -k2 --show-edits ab "$W/t"
    assert_output "$(printf '2=2I:abxc\n2X:ba\n1I2=:bab')"
    run agrep-gpu -x -k1 --show-edits abab "$W/t"
    assert_output '1D3=:bab'
    run agrep-gpu -x -k1 -i --show-edits ABC "$W/t"
    assert_output '2=1I1=:abxc'
}

@test "--show-edits: after the other prefixes; -o parts; several patterns; context" {
    printf 'his mercy endureth\nfoo\nmarcy and mercy\n' > "$W/t"
    run agrep-gpu -k1 -H -n -b --show-cost --show-edits mercy "$W/t"
    assert_output "$(printf '%s\n' "$W/t:1:0:0:5=:his mercy endureth" "$W/t:3:23:0:5=:marcy and mercy")"   # the least-cost match: the later mercy
    run agrep-gpu -k1 -o -b --show-edits mercy "$W/t"
    assert_output "$(printf '4:5=:mercy\n23:1=1X3=:marcy\n33:5=:mercy')"
    run agrep-gpu -k1 -o --show-edits -e endure -e 'fox' "$W/t"
    assert_output "$(printf '6=:endure\n2=1D:fo')"
    run agrep-gpu -k1 -n -A1 --show-edits endureth "$W/t"
    assert_output "$(printf '1:8=:his mercy endureth\n2-foo')"
    run agrep-gpu -k0 -v -x --show-edits --show-cost foo "$W/t"
    assert_line --index 0 '18:15I3X:his mercy endureth'
}

@test "--show-edits --color: substituted and inserted bytes in ed= (default 01;33)" {
    printf 'xmarcyy\n' > "$W/t"
    run agrep-gpu -k2 --color=always --show-edits mercy "$W/t"
    assert_output "$(printf '1=1X3=\033[36m\033[K:\033[m\033[Kx\033[01;31m\033[Km\033[m\033[K\033[01;33m\033[Ka\033[m\033[K\033[01;31m\033[Krcy\033[m\033[Ky')"
    printf 'mexrcy\n' > "$W/t"
    GREP_COLORS='ms=1:ed=4' run agrep-gpu -x -k1 --color=always --show-edits mercy "$W/t"
    assert_output "$(printf '2=1I3=\033[36m\033[K:\033[m\033[K\033[1m\033[Kme\033[m\033[K\033[4m\033[Kx\033[m\033[K\033[1m\033[Krcy\033[m\033[K')"
    # without --show-edits the colours are as before
    run agrep-gpu -x -k1 --color=always mercy "$W/t"
    assert_output "$(printf '\033[01;31m\033[Kmexrcy\033[m\033[K')"
}

@test "--show-edits: random cases against the DP oracle (tests/cigar.c)" {
    local s k a ic fl n=0 last
    local alphas=(ab az words mixed acgt printable)
    # seeds 1-120 in full, 1-60 in make check, 1-40 on slow builds (92 s
    # of CI's sanitizer pass with 60): every alphabet and -i still met
    last=$(depth 60 120 40)
    for ((s = 1; s <= last; s++)); do
        a=${alphas[s % 6]}
        casegen -n 1:10 -k 0:4 -a "$a" -b 300:1500 -l 0:25 "$s" "$W/t" "$W/p" > "$W/k"
        read -r k _ < "$W/k"
        ic=$((s % 3 == 0)); fl=""; [ "$ic" = 1 ] && fl=-i
        # shellcheck disable=SC2086
        agrep-gpu -F $fl -n --show-cost --show-edits -k "$k" -f "$W/p" "$W/t" > "$W/o" || true
        cigar line "$k" "$ic" "$W/p" < "$W/o" > "$W/r" ||
            { echo "line mode, seed $s ($a $fl k=$k)"; return 1; }
        # shellcheck disable=SC2086
        agrep-gpu -F $fl -o -b --show-edits -k "$k" -f "$W/p" "$W/t" > "$W/o" || true
        cigar part "$k" "$ic" "$W/p" < "$W/o" >> "$W/r" ||
            { echo "-o mode, seed $s ($a $fl k=$k)"; return 1; }
        n=$((n + $(awk '{ s += $1 } END { print s }' "$W/r")))
    done
    echo "$n alignments checked"
    [ "$n" -gt $((last * 8)) ]
}

@test "--show-edits: -j1 and -j3 print the same" {
    local s
    for ((s = 1; s <= 6; s++)); do
        casegen -n 3:10 -k 1:3 -b 2000:6000 "$s" "$W/t$s" "$W/p$s" > "$W/k$s"
    done
    cat "$W"/p? > "$W/p"
    agrep-gpu -F -j1 -k2 -n --show-edits -f "$W/p" "$W"/t? > "$W/a" || true
    agrep-gpu -F -j3 -k2 -n --show-edits -f "$W/p" "$W"/t? > "$W/b" || true
    [ -s "$W/a" ]
    cmp "$W/a" "$W/b"
    agrep-gpu -F -j1 -k2 -o --show-edits -f "$W/p" "$W"/t? > "$W/a" || true
    agrep-gpu -F -j3 -k2 -o --show-edits -f "$W/p" "$W"/t? > "$W/b" || true
    cmp "$W/a" "$W/b"
}
