# check_helper.bash: comparison helpers shared by long.bats, many.bats,
# refine.bats and context.bats (load it after test_helper).
#
#   begin_checks                 start collecting failures (call in setup; call
#                                again after rewriting an input file: the
#                                oracle's answers are cached by arguments)
#   GEN="..."                    how to rebuild the input files, for repro lines
#   check ENVS STDIN ARGS...     oracle ARGS  vs  env ENVS agrep-gpu -F ARGS
#                                (both reading STDIN when it is not "")
#   check_ref REFFILE REFRC ENVS STDIN ARGS...
#                                a precomputed expected output and exit status
#                                (from grep -F or tre-agrep) vs env ENVS agrep-gpu -F ARGS
#
# Both references read patterns as strings (the oracle, grep -F): agrep-gpu
# gets -F, its patterns being basic expressions by default.
#   end_checks                   fail the test if any check failed
#
# Paths under $CASES (a directory of generated files) are shown as /tmp/agrep-repro/
# in the repro lines, so that GEN (which writes there) and the command meet.
# Expected outputs come from the oracle, grep or tre-agrep: never from
# agrep-gpu itself.

begin_checks() {
    NFAIL=0
    NCHECK=0
    FAILS="$BATS_TEST_TMPDIR/failures"
    : > "$FAILS"
    GEN=""
    rm -rf "$BATS_TEST_TMPDIR/oc"
    mkdir -p "$BATS_TEST_TMPDIR/oc"
}

# printable, bounded view of output lines
_show() { cut -c1-160 | cat -v; }

# _quote ARGS...: the arguments as a shell command line, case paths rewritten
_quote() {
    local a out=""
    for a in "$@"; do
        [ -n "${CASES:-}" ] && a=${a//$CASES\//\/tmp\/agrep-repro\/}
        out+=" $(printf '%q' "$a")"
    done
    printf '%s' "${out# }"
}

# _report WHAT ENVS STDIN EXPFILE OUTFILE ERRFILE RC REFRC REFNAME ARGS...
_report() {
    local what=$1 envs=$2 stdin=$3 exp=$4 out=$5 err=$6 rc=$7 refrc=$8 ref=$9
    shift 9
    NFAIL=$((NFAIL + 1))
    [ "$NFAIL" -le 4 ] || return 0
    local in="" gen=${GEN:-}
    [ -n "$stdin" ] && in=" < $(_quote "$stdin")"
    [ -n "${CASES:-}" ] && gen=${gen//$CASES\//\/tmp\/agrep-repro\/}
    {
        echo "---- FAIL: $what"
        echo "  run:   $envs agrep-gpu -F $(_quote "$@")$in"
        if [ "$ref" = oracle ]; then
            echo "  repro: mkdir -p /tmp/agrep-repro && ${gen:+$gen && }diff <(tests/bin/oracle $(_quote "$@")$in) <($envs ./agrep-gpu -F $(_quote "$@")$in)"
        else
            echo "  reference: $ref"
            [ -n "$gen" ] && echo "  files: mkdir -p /tmp/agrep-repro && $gen"
        fi
        echo "  exit status: agrep-gpu $rc, $(echo "$ref" | cut -d' ' -f1) $refrc"
        [ -s "$err" ] && { echo "  stderr:"; head -3 "$err" | _show | sed 's/^/    /'; }
        echo "  diff (< expected, > agrep-gpu; lines cut at 160 bytes):"
        diff <(tr '\0' '\n' < "$exp") <(tr '\0' '\n' < "$out") | head -12 | _show | sed 's/^/    /'
    } >> "$FAILS"
}

check() {
    local envs=$1 stdin=$2 w="$BATS_TEST_TMPDIR" orc=0 rc=0
    shift 2
    NCHECK=$((NCHECK + 1))
    # the oracle's answer, cached by arguments within a test (begin_checks
    # empties the cache: call it again after rewriting an input file)
    local key
    key=$(printf '%s\0' "$stdin" "$@" | md5sum | cut -c1-32)
    if [ -f "$w/oc/$key.rc" ]; then
        orc=$(cat "$w/oc/$key.rc")
        cp "$w/oc/$key" "$w/exp"
        : > "$w/oerr"
    else
        if [ -n "$stdin" ]; then
            oracle "$@" < "$stdin" > "$w/exp" 2> "$w/oerr" || orc=$?
        else
            oracle "$@" > "$w/exp" 2> "$w/oerr" || orc=$?
        fi
        cp "$w/exp" "$w/oc/$key"
        echo "$orc" > "$w/oc/$key.rc"
    fi
    if [ -n "$stdin" ]; then
        # shellcheck disable=SC2086
        env $envs agrep-gpu -F "$@" < "$stdin" > "$w/out" 2> "$w/err" || rc=$?
    else
        # shellcheck disable=SC2086
        env $envs agrep-gpu -F "$@" > "$w/out" 2> "$w/err" || rc=$?
    fi
    if [ "$orc" -gt 1 ]; then
        echo "oracle failed ($orc): $(head -2 "$w/oerr") for: oracle $(_quote "$@")" >> "$FAILS"
        NFAIL=$((NFAIL + 1))
        return 0
    fi
    if [ "$rc" = "$orc" ] && [ ! -s "$w/err" ] && cmp -s "$w/exp" "$w/out"; then
        return 0
    fi
    _report "${WHAT:-agrep-gpu vs oracle}" "$envs" "$stdin" "$w/exp" "$w/out" "$w/err" \
        "$rc" "$orc" oracle "$@"
}

check_ref() {
    local exp=$1 refrc=$2 envs=$3 stdin=$4 w="$BATS_TEST_TMPDIR" rc=0
    shift 4
    NCHECK=$((NCHECK + 1))
    if [ -n "$stdin" ]; then
        # shellcheck disable=SC2086
        env $envs agrep-gpu -F "$@" < "$stdin" > "$w/out" 2> "$w/err" || rc=$?
    else
        # shellcheck disable=SC2086
        env $envs agrep-gpu -F "$@" > "$w/out" 2> "$w/err" || rc=$?
    fi
    if [ "$rc" = "$refrc" ] && [ ! -s "$w/err" ] && cmp -s "$exp" "$w/out"; then
        return 0
    fi
    _report "${WHAT:-agrep-gpu vs reference}" "$envs" "$stdin" "$exp" "$w/out" "$w/err" \
        "$rc" "$refrc" "${REF:-reference}" "$@"
}

end_checks() {
    if [ "$NFAIL" -gt 0 ]; then
        cat "$FAILS"
        echo "$NFAIL failing check(s) out of $NCHECK"
        return 1
    fi
    echo "# $NCHECK checks" >&3
}

# need_tools TOOL...: fails (in setup_file) with a message when a tool is
# missing: the test programs come from `make test-progs`, bible and
# tre-agrep from `make deps`.
need_tools() {
    local t
    for t in "$@"; do
        command -v "$t" >/dev/null ||
            { echo "$t missing: run 'make test-progs' (and 'make deps' for bible-kjv and tre-agrep)" >&2; return 1; }
    done
}

# case_dir: exports CASES, the directory of the file's generated cases, and
# makes it.
case_dir() {
    export CASES="$BATS_FILE_TMPDIR/cases"
    mkdir -p "$CASES"
}
