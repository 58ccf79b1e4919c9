#!/usr/bin/env bats
# --no-indels (issue 40, its first part): substitutions only, a match as
# long as its pattern (Hamming distance).  References: a plain Hamming
# oracle (Python, below) over random small texts and patterns, every
# option it touches (-c, -v, -x, -o, --show-cost, --show-edits, --hits);
# seqkit locate -m (mismatches, both strands) on real genomes.
bats_require_minimum_version 1.5.0
load test_helper

D="$BATS_FILE_TMPDIR"

@test "--no-indels: substitutions only; -o, --show-cost, --show-edits, -x, --hits" {
    printf 'abcdef\nabxdef\nabdef\nabcxdef\nzzabXdefzz\n' > "$D/h"
    run agrep-gpu --no-indels -k1 abcdef "$D/h"
    assert_output "$(printf 'abcdef\nabxdef\nzzabXdefzz')"
    run agrep-gpu -k1 -c abcdef "$D/h"
    assert_output 5
    run agrep-gpu --no-indels -k1 -o --show-cost --show-edits abcdef "$D/h"
    assert_output "$(printf '0:6=:abcdef\n1:2=1X3=:abxdef\n1:2=1X3=:abXdef')"
    run agrep-gpu --no-indels -k1 -x abcdef "$D/h"
    assert_output "$(printf 'abcdef\nabxdef')"
    run agrep-gpu --no-indels -k1 -i --hits=bed abcdef "$D/h"
    assert_output "$(printf '1\t0\t6\tabcdef\t0\t+\n2\t0\t6\tabcdef\t1\t+\n5\t2\t8\tabcdef\t1\t+')"
    # a pattern no longer than k matches every record as long as it
    run agrep-gpu --no-indels -k3 -c abc "$D/h"
    assert_output 5
    printf 'ab\nabc\n' > "$D/s"
    run agrep-gpu --no-indels -k3 abc "$D/s"
    assert_output abc
    run -2 agrep-gpu --no-indels -E 'ab+c' "$D/h"
    assert_output --partial 'not expressions'
    # the same costs given as costs: a message that names them, and the
    # search that does run (substitutions at 2, k doubled)
    run -2 agrep-gpu -E -k1 --insert-cost=off --delete-cost=off --substitute-cost=1 'ab+c' "$D/h"
    assert_output --partial 'insertions and deletions off with substitutions at cost 1'
    assert_output --partial -- '--substitute-cost=2 with -k 2 is the same search'
    refute_output --partial -- '--no-indels takes'
    # (abcxdef: abccdef with one substitution)
    run -0 agrep-gpu -E -k2 --insert-cost=off --delete-cost=off --substitute-cost=2 'abc+def' "$D/h"
    assert_output "$(printf 'abcdef\nabxdef\nabcxdef\nzzabXdefzz')"
}

@test "--no-indels in UTF-8: a character is one substitution" {
    printf 'un café noir\nun cafè noir\nun cafe noir\n' > "$D/u"
    LC_ALL=C.UTF-8 run agrep-gpu --no-indels -k1 -o --show-edits 'café' "$D/u"
    assert_output "$(printf '4=:café\n3=1X:cafè\n3=1X:cafe')"
    run agrep-gpu --bytes --no-indels -k1 -c 'café' "$D/u"
    assert_output 2
}

@test "--no-indels against a Hamming oracle: random texts and patterns over small alphabets" {
    local n
    # (make check's time, and CI's on the slow builds: 20 cases, still
    # with every alphabet, k 0-3, one and several patterns, --hits on 16)
    n=$(depth 20 1500)
    python3 - "$D/r" "$n" <<'PY'
import random, sys
d, n = sys.argv[1], int(sys.argv[2])
random.seed(21)
cases = []
for i in range(n):
    al = random.choice(['ab', 'abc', 'ACGT'])
    lines = [''.join(random.choice(al) for _ in range(random.randint(0, 14)))
             for _ in range(random.randint(1, 8))]
    pats = sorted({''.join(random.choice(al) for _ in range(random.randint(1, 6)))
                   for _ in range(random.randint(1, 3))})
    k = random.randint(0, 3)
    cases.append((lines, pats, k))
with open(d + '.cases', 'w') as f:
    for i, (lines, pats, k) in enumerate(cases):
        open('%s.%d.txt' % (d, i), 'w').write(''.join(l + '\n' for l in lines))
        open('%s.%d.pat' % (d, i), 'w').write(''.join(p + '\n' for p in pats))
        def ham(p, t, s):
            return sum(p[j] != t[s + j] for j in range(len(p)))
        sel, rows, xsel = [], [], []
        for ln, t in enumerate(lines, 1):
            hit = False
            for e in range(1, len(t) + 1):
                for x, p in enumerate(pats):
                    s = e - len(p)
                    if s >= 0 and ham(p, t, s) <= k:
                        rows.append('%d\t%d\t%d\t%d\t%s' % (ln, x + 1, ham(p, t, s), s, t[s:e]))
                        hit = True
            if hit or any(len(p) == 0 for p in pats):
                sel.append(t)
            if any(len(p) == len(t) and ham(p, t, 0) <= k for p in pats):
                xsel.append(t)
        open('%s.%d.sel' % (d, i), 'w').write(''.join(l + '\n' for l in sel))
        open('%s.%d.xsel' % (d, i), 'w').write(''.join(l + '\n' for l in xsel))
        open('%s.%d.rows' % (d, i), 'w').write(''.join(r + '\n' for r in rows))
        f.write('%d %d %d\n' % (i, k, min(len(p) for p in pats)))
PY
    local i k minlen
    # (cmp on files, diff only on a failure: fewer processes a case)
    while read -r i k minlen; do
        agrep-gpu --no-indels -k"$k" -f "$D/r.$i.pat" "$D/r.$i.txt" > "$D/o" || true
        cmp -s "$D/r.$i.sel" "$D/o" ||
            { echo "case $i lines"; diff "$D/r.$i.sel" "$D/o"; return 1; }
        agrep-gpu --no-indels -x -k"$k" -f "$D/r.$i.pat" "$D/r.$i.txt" > "$D/o" || true
        cmp -s "$D/r.$i.xsel" "$D/o" ||
            { echo "case $i -x"; diff "$D/r.$i.xsel" "$D/o"; return 1; }
        [ "$minlen" -gt "$k" ] || continue
        diff "$D/r.$i.rows" <(agrep-gpu --no-indels -k"$k" --hits -f "$D/r.$i.pat" "$D/r.$i.txt" |
            tail -n +2 | awk -F'\t' '{print $2"\t"$1"\t"$3"\t"$5"\t"$7}') ||
            { echo "case $i --hits"; return 1; }
    done < "$D/r.cases"
}

@test "--no-indels on real genomes: every site seqkit locate -m finds, both strands" {
    local dir=/usr/share/doc/kleborate/examples/data f p
    command -v seqkit >/dev/null && [ -d "$dir" ] ||
        skip "seqkit or kleborate-examples missing: 'make deps' installs them"
    f=$(ls "$dir"/*.fna.xz | head -1)
    # full (AGREP_GPU_TESTS=full): the whole genome; quick: its chromosome
    # from 3.0 to 4.05 Mb (80-byte lines 37,501-50,625: 2, 3 and 1 of the
    # 11, 7 and 9 sites, on both strands) and its six plasmids (seqkit
    # takes 2-3 s a pattern over all of it on the 2-core machine)
    xz -dc "$f" | if [ "$(depth quick full)" = quick ]; then
        awk '/^>/ { r++ } r != 1 || /^>/ || (++l > 37500 && l <= 50625)'
    else cat; fi > "$D/k.fna"
    for p in GTGCCAGCAGCCGCGGTAA:3 ACGTTTGACCAGTTAGGCAT:4 ATTAGATACCCTGGTAGTCC:2; do
        seqkit locate -m "${p#*:}" -p "${p%:*}" "$D/k.fna" | tail -n +2 |
            awk -F'\t' '{print $1"\t"$4"\t"$5-1"\t"$6}' | sort > "$D/sk"
        agrep-gpu --dna --no-indels -k"${p#*:}" --hits "${p%:*}" "$D/k.fna" | tail -n +2 |
            awk -F'\t' '{print $2"\t"$4"\t"$5"\t"$6}' | sort > "$D/ag"
        diff "$D/sk" "$D/ag"
        [ -s "$D/ag" ]
    done
}

@test "--no-indels with many patterns: the shared filter, each pattern's filter and the plain count agree" {
    python3 - "$D/long.fa" "$D/g.fa" <<'PY'
import random, sys
random.seed(8)
s = bytearray(random.choices(b'ACGT', k=300000))
g = []
for i in range(60):
    a = random.randrange(len(s) - 24)
    w = bytearray(s[a:a + 24])
    g.append(bytes(w))
    for _ in range(3):                  # plant copies with substitutions
        b = random.randrange(len(s) - 24)
        c = bytearray(w)
        for _ in range(random.randint(0, 3)):
            c[random.randrange(24)] = random.choice(b'ACGT')
        s[b:b + 24] = c
with open(sys.argv[1], 'wb') as f:
    f.write(b'>long\n')
    for i in range(0, len(s), 70):
        f.write(bytes(s[i:i + 70]) + b'\n')
with open(sys.argv[2], 'wb') as f:
    for i, w in enumerate(g):
        f.write(b'>g%d\n%s\n' % (i, w))
PY
    agrep-gpu --dna --no-indels --hits -k3 -f "$D/g.fa" "$D/long.fa" > "$D/ref"
    [ "$(tail -n +2 "$D/ref" | wc -l)" -ge 120 ]
    AGREP_GPU_HOST_ENGINE=scalar agrep-gpu --dna --no-indels --hits -k3 -f "$D/g.fa" "$D/long.fa" | diff "$D/ref" -
    head -6 "$D/g.fa" > "$D/g3.fa"	# three patterns: their own filters
    agrep-gpu --dna --no-indels --hits -k3 -f "$D/g3.fa" "$D/long.fa" > "$D/ref3"
    AGREP_GPU_HOST_ENGINE=scalar agrep-gpu --dna --no-indels --hits -k3 -f "$D/g3.fa" "$D/long.fa" | diff "$D/ref3" -
    diff <(tail -n +2 "$D/ref" | awk -F'\t' '$1 == "g0" || $1 == "g1" || $1 == "g2"') \
        <(tail -n +2 "$D/ref3")
}

@test "--no-indels on the pattern-parallel kernel (POCL) agrees with the host" {
    case $AGREP_GPU in */san/*) skip "POCL under the sanitizers: not run" ;; esac
    python3 - "$D/pr" "$D/pp" <<'PY'
import random, sys
random.seed(31)
reads = [''.join(random.choice('ACGT') for _ in range(150)) for _ in range(3000)]
pats = sorted({r[s:s + random.randint(12, 32)] for r in random.sample(reads, 40)
               for s in [random.randrange(0, 110)]})
for i in range(0, len(reads), 7):   # copies with substitutions
    p = random.choice(pats); s = random.randrange(0, 150 - len(p))
    q = list(p)
    for _ in range(random.randint(0, 3)):
        q[random.randrange(len(q))] = random.choice('ACGT')
    reads[i] = reads[i][:s] + ''.join(q) + reads[i][s + len(p):]
open(sys.argv[1], 'w').write(''.join(r + '\n' for r in reads))
open(sys.argv[2], 'w').write(''.join(p + '\n' for p in pats))
PY
    # (k: full 1 and 3, quick 3)
    for k in $(depth 3 "1 3"); do
        agrep-gpu --device=host --no-indels -n -k$k -f "$D/pp" "$D/pr" > "$D/h$k"
        AGREP_GPU_DEVICE=cpu AGREP_GPU_HOST_MAX=0 AGREP_GPU_PP=1 AGREP_GPU_STATS=1 \
            agrep-gpu --no-indels -n -k$k -f "$D/pp" "$D/pr" > "$D/d$k" 2> "$D/st"
        grep -q pattern-parallel "$D/st"
        diff "$D/h$k" "$D/d$k"
        [ -s "$D/h$k" ]
    done
    # one pattern: the same kernel, without being asked for it
    head -1 "$D/pp" > "$D/p1"
    agrep-gpu --device=host --no-indels -c -k2 -f "$D/p1" "$D/pr" > "$D/h1"
    AGREP_GPU_DEVICE=cpu AGREP_GPU_HOST_MAX=0 AGREP_GPU_STATS=1 \
        agrep-gpu --no-indels -c -k2 -f "$D/p1" "$D/pr" > "$D/d1" 2> "$D/st"
    grep -q pattern-parallel "$D/st"
    diff "$D/h1" "$D/d1"
    [ "$(cat "$D/h1")" -gt 0 ]
}
