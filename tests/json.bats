#!/usr/bin/env bats
# --json: every line is JSON (python3's json module), messages in rg's
# format, fields checked against the plain output (-n -b --show-cost, -o -b,
# -C1), non-UTF-8 text and paths as base64, standard input, binary files,
# totals, -j1 against -j3 (all but the elapsed times), refused combinations.
load test_helper

setup() {
    command -v python3 >/dev/null || skip "python3 missing"
    W="$BATS_TEST_TMPDIR"
}

# jq_plain FILE MODE: the JSON output turned into plain output lines.
#   lines: "PATH:LINENO:OFFSET:COST:TEXT" of matches, "PATH-LINENO-OFFSET-TEXT"
#          of context lines
#   parts: "PATH:OFFSET:TEXT" of each submatch (absolute offset)
# Also checks the message structure; exits 1 with a message if it is wrong.
jsplain() {
    python3 - "$@" <<'PY'
import base64, json, sys
path, mode = sys.argv[1], sys.argv[2]
def data(d):
    assert set(d) in ({"text"}, {"bytes"}), d
    return d["text"].encode() if "text" in d else base64.b64decode(d["bytes"])
out = sys.stdout.buffer
msgs = [json.loads(l) for l in open(path, "rb").read().decode().split("\n")[:-1]]
assert msgs and msgs[-1]["type"] == "summary", "summary last"
assert sum(m["type"] == "summary" for m in msgs) == 1
cur = None
tot = dict(searches_with_match=0, bytes_printed=0, matched_lines=0, matches=0)
for m in msgs[:-1]:
    t, d = m["type"], m["data"]
    assert list(m) == ["type", "data"]
    p = data(d["path"])
    if t == "begin":
        assert cur is None; cur = p; nl = nm = 0; continue
    assert cur == p, (cur, p)
    if t == "end":
        st = d["stats"]
        assert st["matched_lines"] == nl and st["matches"] == nm and st["searches"] == 1
        for k in tot: tot[k] += st[k]
        cur = None; continue
    assert t in ("match", "context")
    assert list(d) == ["path", "lines", "line_number", "absolute_offset", "submatches"] + (["cost"] if t == "match" else [])
    line = data(d["lines"])
    body = line[:-1] if line.endswith(b"\n") else line
    if t == "match": nl += 1; nm += len(d["submatches"])
    for s in d["submatches"]:
        assert data(s["match"]) == line[s["start"]:s["end"]]
        if mode == "parts":
            out.write(p + b":%d:" % (d["absolute_offset"] + s["start"]) + data(s["match"]) + b"\n")
    if mode == "lines":
        if t == "match":
            out.write(p + b":%d:%d:%d:" % (d["line_number"], d["absolute_offset"], d["cost"]) + body + b"\n")
        else:
            out.write(p + b"-%d-%d-" % (d["line_number"], d["absolute_offset"]) + body + b"\n")
assert cur is None, "end after begin"
st = msgs[-1]["data"]["stats"]
for k in tot: assert st[k] == tot[k], (k, st[k], tot[k])
assert list(msgs[-1]) == ["data", "type"]
PY
}

mkfiles() {
    printf 'his mercy endureth\nfoo\nmarcy and mercy\nbar\nbaz\nno\xff mercx \xfe\n\nmerc"\\\t\x01y\n' > "$W/a"
    printf 'nothing\n' > "$W/b"
    printf 'last mercy unterminated' > "$W/c"
}

@test "--json: valid JSON Lines; fields equal the plain output's" {
    mkfiles
    run agrep-gpu --json -k1 mercy "$W/a" "$W/b" "$W/c"
    assert_success
    printf '%s\n' "$output" > "$W/j"
    run jsplain "$W/j" lines
    assert_success
    agrep-gpu -H -n -b --show-cost -k1 mercy "$W/a" "$W/b" "$W/c" > "$W/plain"
    assert_output "$(cat "$W/plain")"
    run jsplain "$W/j" parts
    assert_output "$(agrep-gpu -H -o -b -k1 mercy "$W/a" "$W/b" "$W/c")"
    # one begin/end pair per file with a match; the summary counts all three
    run python3 -c 'import json,sys; m=[json.loads(l) for l in open(sys.argv[1])]; print(" ".join(x["type"] for x in m)); s=m[-1]["data"]["stats"]; print(s["searches"], s["searches_with_match"], s["bytes_searched"])' "$W/j"
    assert_line --index 0 "begin match match match match end begin match end summary"
    assert_line --index 1 "3 2 $(( $(stat -c %s "$W/a") + 8 + $(stat -c %s "$W/c") ))"
}

@test "--json: exact messages, UTF-8 escapes, non-UTF-8 as base64, costs, --show-edits" {
    mkfiles
    run agrep-gpu --json --show-edits -k1 mercy "$W/a"
    assert_line --index 0 "{\"type\":\"begin\",\"data\":{\"path\":{\"text\":\"$W/a\"}}}"
    assert_line --index 2 "{\"type\":\"match\",\"data\":{\"path\":{\"text\":\"$W/a\"},\"lines\":{\"text\":\"marcy and mercy\\n\"},\"line_number\":3,\"absolute_offset\":23,\"submatches\":[{\"match\":{\"text\":\"marcy\"},\"start\":0,\"end\":5,\"cost\":1,\"edits\":\"1=1X3=\"},{\"match\":{\"text\":\"mercy\"},\"start\":10,\"end\":15,\"cost\":0,\"edits\":\"5=\"}],\"cost\":0}}"
    assert_line --index 3 "{\"type\":\"match\",\"data\":{\"path\":{\"text\":\"$W/a\"},\"lines\":{\"bytes\":\"$(printf 'no\xff mercx \xfe\n' | base64)\"},\"line_number\":6,\"absolute_offset\":47,\"submatches\":[{\"match\":{\"text\":\"merc\"},\"start\":4,\"end\":8,\"cost\":1,\"edits\":\"4=1D\"}],\"cost\":1}}"
    assert_line --index 4 "{\"type\":\"match\",\"data\":{\"path\":{\"text\":\"$W/a\"},\"lines\":{\"text\":\"merc\\\"\\\\\\t\\u0001y\\n\"},\"line_number\":8,\"absolute_offset\":60,\"submatches\":[{\"match\":{\"text\":\"merc\"},\"start\":0,\"end\":4,\"cost\":1,\"edits\":\"4=1D\"}],\"cost\":1}}"
    assert_line --index 5 --regexp "^\\{\"type\":\"end\",\"data\":\\{\"path\":\\{\"text\":\"$W/a\"\\},\"binary_offset\":null,\"stats\":\\{\"elapsed\":\\{\"secs\":[0-9]+,\"nanos\":[0-9]+,\"human\":\"[0-9]+\\.[0-9]{6}s\"\\},\"searches\":1,\"searches_with_match\":1,\"bytes_searched\":$(stat -c %s "$W/a"),\"bytes_printed\":[0-9]+,\"matched_lines\":4,\"matches\":5\\}\\}\\}$"
    assert_line --index 6 --regexp '^\{"data":\{"elapsed_total":\{"human":"[0-9.]+s","nanos":[0-9]+,"secs":[0-9]+\},"stats":\{"bytes_printed":[0-9]+,"bytes_searched":'"$(stat -c %s "$W/a")"',"elapsed":\{"human":"[0-9.]+s","nanos":[0-9]+,"secs":[0-9]+\},"matched_lines":4,"matches":5,"searches":1,"searches_with_match":1\}\},"type":"summary"\}$'
    # a path that is not UTF-8
    cp "$W/a" "$W/$(printf 'x\xffy')"
    run agrep-gpu --json mercy "$W/$(printf 'x\xffy')"
    assert_line --index 0 "{\"type\":\"begin\",\"data\":{\"path\":{\"bytes\":\"$(printf '%s/x\xffy' "$W" | base64 -w0)\"}}}"
}

@test "--json: context lines (-C1, -A, -B) equal the plain output's" {
    mkfiles
    for c in -C1 -A2 -B1 "-C1 -v" "-C1 -m1"; do
        # shellcheck disable=SC2086
        agrep-gpu --json $c -k1 mercy "$W/a" "$W/c" > "$W/j" || true
        run jsplain "$W/j" lines
        assert_success
        # shellcheck disable=SC2086
        agrep-gpu -H -n -b --show-cost $c -k1 mercy "$W/a" "$W/c" | grep -v '^--$' > "$W/plain" || true
        assert_output "$(cat "$W/plain")"
    done
    # context lines: no cost, no submatches; with -v they hold the matches
    run agrep-gpu --json -v -A1 -k0 foo "$W/a"
    assert_line --index 2 "{\"type\":\"context\",\"data\":{\"path\":{\"text\":\"$W/a\"},\"lines\":{\"text\":\"foo\\n\"},\"line_number\":2,\"absolute_offset\":19,\"submatches\":[{\"match\":{\"text\":\"foo\"},\"start\":0,\"end\":3,\"cost\":0}]}}"
    assert_line --index 1 --partial '"submatches":[],"cost":3}}'
}

@test "--json: standard input is <stdin> (or --label); -z; binary files" {
    printf 'a mercy\n' | agrep-gpu --json mercy > "$W/j"
    run jsplain "$W/j" parts
    assert_output '<stdin>:2:mercy'
    printf 'a mercy\n' | agrep-gpu --json --label=in mercy - > "$W/j"
    run jsplain "$W/j" parts
    assert_output 'in:2:mercy'
    printf 'a mercy\0b\0' | agrep-gpu --json -z mercy > "$W/j"
    run head -2 "$W/j"
    assert_line --index 1 --partial '"lines":{"text":"a mercy\u0000"}'
    # a binary file: "begin", then "end" with the offset of its first NUL
    printf 'abc\nxy\0z\nmercy\n' > "$W/bin"
    run agrep-gpu --json mercy "$W/bin"
    assert_line --index 0 "{\"type\":\"begin\",\"data\":{\"path\":{\"text\":\"$W/bin\"}}}"
    assert_line --index 1 --partial '"binary_offset":6,'
    assert_line --index 1 --partial '"searches_with_match":1,"bytes_searched":15,"bytes_printed":'
    assert_line --index 2 --partial '"type":"summary"'
    run agrep-gpu --json -a mercy "$W/bin"
    assert_line --index 1 --partial '"line_number":3,"absolute_offset":9,'
    assert_line --index 2 --partial '"binary_offset":null,'
}

@test "--json: -j1 and -j3 print the same but for the elapsed times" {
    local s
    for ((s = 1; s <= 8; s++)); do
        casegen -n 3:10 -k 1:3 -b 2000:9000 "$s" "$W/t$s" "$W/p$s" > "$W/k$s"
    done
    cat "$W"/p? > "$W/p"
    for f in "" "-C1" "-v -k1" "--show-edits -i"; do
        # shellcheck disable=SC2086
        agrep-gpu -F -j1 --json -k2 $f -f "$W/p" "$W"/t? > "$W/a" || true
        # shellcheck disable=SC2086
        agrep-gpu -F -j3 --json -k2 $f -f "$W/p" "$W"/t? > "$W/b" || true
        sed -E 's/"(elapsed|elapsed_total)":\{[^}]*\}/"\1":T/g' "$W/a" > "$W/a2"
        sed -E 's/"(elapsed|elapsed_total)":\{[^}]*\}/"\1":T/g' "$W/b" > "$W/b2"
        [ "$(wc -l < "$W/a2")" -gt 10 ]
        cmp "$W/a2" "$W/b2"
        run jsplain "$W/a" lines
        assert_success
    done
}

@test "--json: -c, -l, -L, --best-match are refused; -q prints nothing" {
    printf 'mercy\n' > "$W/a"
    for o in -c -l -L --best-match; do
        run agrep-gpu --json "$o" mercy "$W/a"
        assert_failure 2
        assert_output --partial "--json cannot be combined with"
    done
    run agrep-gpu --json -q mercy "$W/a"
    assert_success
    assert_output ''
}
