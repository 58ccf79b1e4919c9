#!/usr/bin/env bats
# Weighted edit costs (issue 40): --insert-cost, --delete-cost and
# --substitute-cost, tre-agrep's -I/-D/-S, each a number or "off", with -k
# the most total cost.  References: tests/oracle.c (the plain DP with the
# three weights) on random texts and on every small case over {a,b};
# tests/reoracle.c (a Thompson automaton, apart from src/regex) for
# expressions with anchors and assertions; tre-agrep on the Bible;
# tests/recoracle.c for the hit table on FASTA; and the same search with
# every cost doubled and -k doubled, which must print what the unit cost
# search prints (its costs doubled) for every option.
bats_require_minimum_version 1.5.0
load test_helper

D="$BATS_FILE_TMPDIR"
# The host's engines, whatever the run sets (check-pocl, AGREP_GPU_DEVICE=
# gpu): every cost and k is a program of its own for the automaton kernel,
# hundreds of builds; the kernel has its own test below, on POCL.
export AGREP_GPU_DEVICE=host

# gen FIRST LAST: the random cases of seeds FIRST..LAST (one python start
# for all) in $D (p.SEED: patterns, t.SEED: text); prints "K I D S" for
# each, a line a case
gen() {
    python3 - "$1" "$2" "$D" <<'EOF'
import random, sys
d = sys.argv[3]
for seed in range(int(sys.argv[1]), int(sys.argv[2]) + 1):
    random.seed(seed); sfx = "." + str(seed)
    alpha = random.choice(["ab", "abc", "acgt", "abcdefgh"])
    pats = sorted({"".join(random.choice(alpha) for _ in range(random.randint(1, 9)))
                   for _ in range(random.choice([1, 1, 2, 3]))})
    open(d + "/p" + sfx, "w").write("\n".join(pats) + "\n")
    lines = []
    for _ in range(random.randint(1, 40)):
        s = "".join(random.choice(alpha + (" " if random.random() < 0.3 else ""))
                    for _ in range(random.randint(0, 30)))
        if random.random() < 0.5:
            p = random.choice(pats); i = random.randint(0, len(s))
            s = s[:i] + p + s[i:]
        lines.append(s)
    open(d + "/t" + sfx, "w").write("\n".join(lines) + "\n")
    c = [random.choice(["1", "1", "2", "3", "off"]) for _ in range(3)]
    if c == ["off"] * 3:
        c[2] = "1"
    print(random.randint(0, 6), *c)
EOF
}

costs() { echo "--insert-cost=$1 --delete-cost=$2 --substitute-cost=$3"; }
# (the loops' cost sets, without a subshell a run)
C222="--insert-cost=2 --delete-cost=2 --substitute-cost=2"
C3="--insert-cost=off --delete-cost=off --substitute-cost=3"

# seeds SLOW QUICK FULL: fewer cases on a slow build (every case is a
# process start there: the suite's memory errors show in a few), as
# depth otherwise
seeds() {
    depth "$2" "$3" "$1"
}

# quick: whether this is make check's depth (not AGREP_GPU_TESTS=full, not
# a slow build): the loops below then take every other option, k or cost
# set of a case, in turn, so that each still meets half the cases
quick() {
    [ "$(depth quick full slow)" = quick ]
}

@test "weights: a substitution, an insertion, a deletion at their costs" {
    printf 'mercy\nmrcy\nmxrcy\nmerrcy\nmerciful\n' > "$D/m"
    run agrep-gpu -k1 --substitute-cost=2 --show-cost mercy "$D/m"
    assert_output "$(printf '0:mercy\n1:mrcy\n1:merrcy\n1:merciful')"
    run agrep-gpu -k1 --insert-cost=2 --delete-cost=2 mercy "$D/m"
    assert_output "$(printf 'mercy\nmxrcy\nmerciful')"
    run agrep-gpu -k2 --insert-cost=off -o --show-edits mercy "$D/m"
    assert_output "$(printf '5=:mercy\n1=1D3=:mrcy\n1=1X3=:mxrcy\n3=2D:mer\n2D3=:rcy\n4=1D:merc')"
    run agrep-gpu -k2 --insert-cost=off --delete-cost=off -c mercy "$D/m"
    assert_output 4
    # a character is one unit in UTF-8, a byte with --bytes
    printf 'un café noir\nun cafè noir\n' > "$D/u"
    LC_ALL=C.UTF-8 run agrep-gpu -k1 --substitute-cost=2 -o --show-edits 'café' "$D/u"
    assert_output "$(printf '4=:café\n3=1D:caf')"
    # a pattern of classes whose deletion costs more than k selects only
    # the records that hold a match (2 deletions at 2: 4 > 3)
    printf 'xyz\nab\nqq\n' > "$D/cl"
    run agrep-gpu -E -k3 $(costs 2 2 2) -c 'a[bc]' "$D/cl"
    assert_output 1
    run agrep-gpu --bytes -k1 --substitute-cost=2 -c 'café' "$D/u"
    assert_output 2	# (caf and the first byte of é, one deletion)
}

@test "weights: bad costs are refused with grep's status" {
    for bad in -1 x 0 1025 99999999999 ''; do
        run -2 agrep-gpu -k1 "--insert-cost=$bad" a /dev/null
        assert_output --partial 'insert cost'
    done
    run -2 agrep-gpu -k1 --insert-cost=off --delete-cost=off \
        --substitute-cost=off a /dev/null
    assert_output --partial 'turn every edit off'
    run -1 agrep-gpu -k0 --insert-cost=off --delete-cost=off \
        --substitute-cost=off a /dev/null
    run -2 agrep-gpu -k1 --no-indels --delete-cost=2 a /dev/null
    assert_output --partial 'no insertions or deletions'
    run -2 agrep-gpu -k1100 --substitute-cost=2 a /dev/null
    assert_output --partial 'edit costs'
}

@test "weights: plain patterns against tests/oracle.c, random cases" {
    # quick: 8 cases, each with every other option in turn (each option
    # on 4 cases); full 1,000 and slow builds 8, every option
    local fails=0 i c all=1 n cases
    ! quick || all=0
    n=$(seeds 8 8 1000)
    mapfile -t cases < <(gen 1 "$n")
    for s in $(seq 1 "$n"); do
        read -r k ci cd cs <<< "${cases[s - 1]}"
        c="--insert-cost=$ci --delete-cost=$cd --substitute-cost=$cs"
        i=0
        for o in "" -w -x -c --show-cost "-w --show-cost" -v -i; do
            ((all || (s + i++) % 2 == 0)) || continue
            a=$(agrep-gpu -F -n $o -k "$k" $c -f "$D/p.$s" "$D/t.$s" 2>&1) || :
            b=$(oracle -n $o -k "$k" $c -f "$D/p.$s" "$D/t.$s" 2>&1) || :
            if [ "$a" != "$b" ]; then
                echo "MISMATCH seed $s: agrep-gpu -F -n $o -k $k $c"
                fails=$((fails + 1))
            fi
        done
    done
    [ "$fails" -eq 0 ]
}

@test "weights: bounded-exhaustive over {a,b}: patterns to 3, texts to 5, k to 3" {
    python3 -c '
import itertools
for n in range(6):
    for t in itertools.product("ab", repeat=n):
        print("".join(t))' > "$D/ab"
    local fails=0 c k ks n=0 pi=0 ci sets=() all=1
    # the 26 cost sets
    for ci in 1 2 off; do for cd in 1 2 off; do for cs in 1 2 off; do
        [ "$ci$cd$cs" = offoffoff ] || sets+=("$(costs $ci $cd $cs)")
    done; done; done
    # full: every pattern with every cost set at k = 1 and 3; slow builds:
    # every pair at k = 2; quick: a third of the pairs (pattern i with cost
    # set j where i + j is a multiple of 3: each pattern meets eight or
    # nine cost sets, each cost set two or three patterns), each at k = 1
    # or 3 in turn (each k still meets every pattern and every cost set:
    # 61 of the 364 runs)
    ks=$(depth "" "1 3" 2)
    ! quick || all=0
    # (patterns that start with a: b for a gives the same cases)
    for p in a aa ab aaa aab aba abb; do
        ci=0
        for c in "${sets[@]}"; do
            ((all || (pi + ci) % 3 == 0)) || { ci=$((ci + 1)); continue; }
            n=$(((pi / 3 + ci / 3) % 2))
            ci=$((ci + 1))
            for k in ${ks:-$((n ? 3 : 1))}; do
                a=$(agrep-gpu -F --show-cost -k $k $c -e $p "$D/ab") || :
                b=$(oracle --show-cost -k $k $c -e $p "$D/ab") || :
                [ "$a" = "$b" ] || { echo "MISMATCH $p k$k $c"; fails=$((fails + 1)); }
            done
        done
        pi=$((pi + 1))
    done
    [ "$fails" -eq 0 ]
}

@test "weights: costs doubled and -k doubled print the unit cost search" {
    # quick: 5 cases, each with every other option in turn (each option
    # on 2 or 3 cases), --show-cost and --no-indels on all; full 400 and
    # slow builds 5, every option
    local fails=0 i all=1 n cases
    ! quick || all=0
    n=$(seeds 5 5 400)
    mapfile -t cases < <(gen 1 "$n")
    for s in $(seq 1 "$n"); do
        read -r k _ <<< "${cases[s - 1]}"
        i=0
        for o in -o "-o -w" --color=always "--show-edits -o" --show-edits -c \
            "--best-match -o" -l; do
            ((all || (s + i++) % 2 == 0)) || continue
            a=$(agrep-gpu -F -n $o -k "$k" -f "$D/p.$s" "$D/t.$s" 2>&1) || :
            b=$(agrep-gpu -F -n $o -k $((2 * k)) $C222 -f "$D/p.$s" "$D/t.$s" 2>&1) || :
            [ "$a" = "$b" ] || { echo "MISMATCH seed $s $o"; fails=$((fails + 1)); }
        done
        a=$(agrep-gpu -F -n --show-cost -k "$k" -f "$D/p.$s" "$D/t.$s" |
            awk -F: '{ $2 = 2 * $2; print }' OFS=:)
        b=$(agrep-gpu -F -n --show-cost -k $((2 * k)) $C222 -f "$D/p.$s" "$D/t.$s") || :
        [ "$a" = "$b" ] || { echo "MISMATCH seed $s --show-cost"; fails=$((fails + 1)); }
        # substitutions alone at 3 are --no-indels at a third of k
        a=$(agrep-gpu -F -n -o --no-indels -k "$k" -f "$D/p.$s" "$D/t.$s" 2>&1) || :
        b=$(agrep-gpu -F -n -o -k $((3 * k)) $C3 -f "$D/p.$s" "$D/t.$s" 2>&1) || :
        [ "$a" = "$b" ] || { echo "MISMATCH seed $s --no-indels"; fails=$((fails + 1)); }
    done
    [ "$fails" -eq 0 ]
}

@test "weights: expressions with anchors and assertions against tests/reoracle.c" {
    python3 -c '
import random
random.seed(7)
w = ["mercy", "ever", "And", "the", "LORD", "go", "gone", "for"]
for _ in range(400):
    print(" ".join(random.choice(w + ["x", "merc", "evermore", "mercies"])
                   for _ in range(random.randint(0, 8))) + random.choice(["", "."]))' > "$D/e"
    # full: every cost set with every expression at k = 1 and 3; quick:
    # half the pairs (cost set i with expression j where i + j is even:
    # each cost set meets four or five expressions, each expression two or
    # three cost sets), each at one k, in turn (each k still meets every
    # cost set and expression)
    local fails=0 ks n=0 ci=0 pj all=1
    ks=$(depth "" "1 3")
    [ -n "$ks" ] || all=0
    for c in "1 2 2" "2 1 1" "1 1 3" "off 1 2" "1 off 1"; do
        pj=0
        for pat in 'ever\>' 'ever\.$' '\<mercy' '^And' 'merc(y|ies)' '\bgo\B' 'L[A-Z]+D' \
            'g.n' 'g[aeo]'; do
            ((all || (ci + pj++) % 2 == 0)) || continue
            n=$((n + 1))
            set -- $c
            for k in ${ks:-$((n % 2 ? 3 : 1))}; do
                a=$(agrep-gpu -E -k $k --insert-cost=$1 --delete-cost=$2 --substitute-cost=$3 "$pat" "$D/e") || :
                b=$(reoracle -I $1 -D $2 -S $3 -k $k "$pat" "$D/e") || :
                [ "$a" = "$b" ] || { echo "MISMATCH $c '$pat' k$k"; fails=$((fails + 1)); }
            done
        done
        ci=$((ci + 1))
    done
    [ "$fails" -eq 0 ]
}

@test "weights: tre-agrep's -I/-D/-S on the Bible" {
    command -v tre-agrep >/dev/null && command -v bible >/dev/null ||
        skip "tre-agrep or bible missing: make deps installs them"
    bible "Gen1:1-Rev22:21" > "$D/kjv"
    # full: every expression with both cost sets; quick: each expression
    # with one, in turn (each cost set on one or two)
    local fails=0 n=0 all=1
    ! quick || all=0
    for c in "1 2 2" "2 1 3"; do
        set -- $c
        for pat in mercy 'merc(y|ies)' 'the L[a-z]+D'; do
            ((all || n++ % 2 == 0)) || continue
            a=$(agrep-gpu -E -c -k3 $(costs $c) "$pat" "$D/kjv") || :
            b=$(tre-agrep -E 3 -I $1 -D $2 -S $3 -c "$pat" "$D/kjv") || :
            [ "$a" = "$b" ] || { echo "MISMATCH $c '$pat': $a vs $b"; fails=$((fails + 1)); }
        done
    done
    [ "$fails" -eq 0 ]
}

@test "weights: the hit table against tests/recoracle.c, both strands" {
    [ -x "$TOP/tests/bin/recoracle" ] || skip "tests/bin/recoracle missing: make test-progs"
    cd "$TOP"
    # full: seeds 1-200 with each cost set, slow builds 1-4; quick: seeds
    # 1-12, four with each cost set (1-4, 5-8, 9-12: strands, -j1, pieces,
    # spans, lanes and the seed, nofilter and pp engines, as 1-15 had)
    local n first=1
    n=$(seeds 4 4 200)
    for c in "1 1 2" "2 1 1" "off 1 1"; do
        RECORACLE_COSTS="$c" run tests/records_oracle.sh "$n" "$first"
        assert_success
        ! quick || first=$((first + n))
    done
}

@test "weights: the automaton kernel on POCL agrees with the host" {
    case $AGREP_GPU in */san/*) skip "POCL under the sanitizers: not run" ;; esac
    gen 3 3 > /dev/null
    python3 -c '
import random
random.seed(5)
w = ["mercy", "ever", "And", "the", "LORD", "gone", "mercies", "merc", "jacob"]
for _ in range(300):
    print(" ".join(random.choice(w) for _ in range(random.randint(0, 8))))' > "$D/k"
    # full: every expression with every cost set; quick: each expression
    # with one, in turn (each cost set on one or two expressions; every
    # run on POCL builds its kernel)
    local fails=0 ci=0 pj all=1
    ! quick || all=0
    for c in "2 2 1" "1 1 2" "off 1 2"; do
        pj=0
        for pat in mercy 'merc(y|ies)' 'the L[A-Z]+D' 'j[aeiou]+b' '^And'; do
            ((all || pj++ % 3 == ci)) || continue
            a=$(AGREP_GPU_DEVICE=host agrep-gpu -E -n -k2 $(costs $c) "$pat" "$D/k") || :
            b=$(AGREP_GPU_DEVICE=cpu AGREP_GPU_HOST_MAX=0 AGREP_GPU_STATS=1 \
                agrep-gpu -E -n -k2 $(costs $c) "$pat" "$D/k" 2> "$D/st") || :
            grep -q automaton "$D/st" || { echo "not on the kernel: $c '$pat'"; fails=$((fails + 1)); }
            [ "$a" = "$b" ] || { echo "MISMATCH $c '$pat'"; fails=$((fails + 1)); }
        done
        ci=$((ci + 1))
    done
    [ "$fails" -eq 0 ]
}
