#!/usr/bin/env bats
# Approximate regular expressions (issue 24): -G (the default), -E, -F; the
# automaton (src/regex.c) and the classes in PEq tables against the naive
# oracle (tests/reoracle.c: a Thompson automaton and a plain DP), the
# bounded-exhaustive check (tests/reexh.c), grep's messages for bad
# expressions, grep's lines at k = 0, and tre-agrep on the Bible.
bats_require_minimum_version 1.5.0
load test_helper

setup() {
	W="$BATS_TEST_TMPDIR"
	cd "$W"
	printf 'color\ncolour\ncolr\ngrey\ngray\ngruy\nfoo bar\n[x]\na.c\nabc\n\n' > t
}

@test "-G is the default, as in grep: . [ * ^ \$ \\ are special, + ? | ( are not" {
	for e in 'a.c' '[x]' 'colou*r' '^gr' 'r$' 'a\.c' 'colou\?r' 'gr\(a\|e\)y' \
	    'colou?r' 'gr(a|e)y' '\[x\]' 'o\{2\}'; do
		run agrep-gpu "$e" t
		assert_output "$(grep "$e" t)"
	done
}

@test "-E reads extended expressions as grep -E does at k = 0" {
	# (full: each expression's lines and -c; quick: its lines, and -c
	# for every other one)
	local i=0 full=
	[ "$(depth quick full)" = quick ] || full=1
	for e in 'colou?r' 'gr(a|e)y' 'gr[ae]y' '^(gr|co)' 'o{2}' 'colo(u)+r' \
	    'c.l' '[[:upper:]]' '[^a-z]' 'x|y' '\w+ \w+' 'a\.c' '(a|)c' \
	    '[]x[]' '^$' 'l{0,1}r' '*o' '(+l)' '{1}x' '^*g' '^+g' 'r|?x' '{x'; do
		run agrep-gpu -E "$e" t
		assert_output "$(grep -E "$e" t 2>/dev/null)"
		i=$((i + 1))
		[ -n "$full" ] || [ $((i % 2)) = 1 ] || continue
		run agrep-gpu -E -c "$e" t
		assert_output "$(grep -E -c "$e" t 2>/dev/null)"
	done
}

@test "anchors: empty lines, -v '^\$', -c '^', k > 0" {
	printf 'a\n\nb\n\nab' > e
	run agrep-gpu -v '^$' e
	assert_output "$(grep -v '^$' e)"
	run agrep-gpu -c '^$' e
	assert_output 2
	run agrep-gpu -c '^' e
	assert_output 5
	run agrep-gpu -n -A1 '^$' e
	assert_output "$(grep -n -A1 '^$' e)"
	run agrep-gpu -n -k1 '^b$' e
	assert_output "$(printf '1:a\n2:\n3:b\n4:\n5:ab')"
	run agrep-gpu -n -k1 -E 'ab$' e
	assert_output "$(printf '1:a\n3:b\n5:ab')"
	# (an empty match at the end of a last line without its terminator)
	run agrep-gpu -E -c '()$' e
	assert_output 5
	run agrep-gpu -E -c 'x?$' e
	assert_output 5
}

@test "a pattern without special characters is the same pattern with -F" {
	for e in colour 'foo bar' gr; do
		for k in 0 1 2; do
			run agrep-gpu -k$k -n "$e" t
			assert_output "$(agrep-gpu -F -k$k -n "$e" t)"
		done
	done
}

@test "bad expressions get grep's messages and exit 2" {
	for x in "-E (" "-E a{2,1}" "-G \\(a" "-G a\\{1" "-E [a" "-G [[:alpha:]" \
	    "-E [[:foo:]]" "-E [b-a]" "-E [:alpha:]" "-E \\1" "-G \\" "-E a\\"; do
		set -- $x
		run -2 --separate-stderr agrep-gpu "$1" "$2" t
		want=$(grep "$1" -- "$2" t 2>&1 >/dev/null | sed 's/^grep: //')
		[ -n "$want" ]
		assert_equal "${stderr#agrep-gpu: }" "$want"
	done
}

@test "back-references and -P are refused with a message" {
	run -2 --separate-stderr agrep-gpu -E '(a)\1' t
	assert_regex "$stderr" 'back-references .* not supported'
	run -2 --separate-stderr agrep-gpu -P 'a' t
	assert_regex "$stderr" 'Perl'
	run -2 --separate-stderr agrep-gpu -E -k1 --show-edits 'colou*r' t
	assert_regex "$stderr" 'show-edits'
}

@test "the automaton agrees with the oracle on every small case (bounded-exhaustive)" {
	# full: the full sets and 5,000 random expressions; quick: the
	# smaller sets (-q) and 30
	run reexh $( [ "$(depth quick full)" = quick ] && echo -q -r 30 || echo -r 5000 )
	echo "$output" | tail -3
	assert_success
	assert_output --partial ", 0 failures"
}

@test "the automaton kernel on POCL agrees with re_scan and the oracle (tests/reocl.c)" {
	case $AGREP_GPU in */san/*) skip "POCL under the sanitizers: not run" ;; esac
	if ! command -v reocl >/dev/null; then
		echo "tests/bin/reocl missing: run 'make test-progs'" >&2
		return 1
	fi
	# full: the full sets and 1,000 random expressions; quick: the
	# smaller sets (-q) and 25 (each of its six k some 4 times)
	run reocl $( [ "$(depth quick full)" = quick ] && echo -q -r 25 || echo -r 1000 )
	echo "$output" | tail -3
	assert_success
	assert_output --partial ": all agree"
	echo "# ${lines[-1]}" >&3
}

@test "expressions on the device (POCL): the host's output byte for byte, the oracle's lines" {
	case $AGREP_GPU in */san/*) skip "POCL under the sanitizers: not run" ;; esac
	local e k f envs dev="AGREP_GPU_DEVICE=${AGREP_GPU_DEVICE:-cpu} AGREP_GPU_HOST_MAX=0"
	# lines of 0-199 bytes (records across 64-byte slices and 4 KiB
	# chunks), one of 9,000 (across many of both), the last one
	# without its terminator
	awk 'BEGIN { srand(11); for (i = 0; i < 400; i++) {
	    m = int(rand() * (i % 5 ? 30 : 200)); l = ""; for (j = 0; j < m; j++)
	    l = l substr("abc -", int(rand() * 5) + 1, 1); print l }
	    l = ""; for (j = 0; j < 9000; j++) l = l substr("abc -", int(rand() * 5) + 1, 1);
	    print l; printf "ab cab" }' > d
	# the device takes them (AGREP_GPU_STATS names its kernel); not with
	# AGREP_GPU_RE=0, nor with an assertion inside
	env $dev AGREP_GPU_STATS=1 agrep-gpu -E -c 'a(b|c)*a' d 2> err
	grep -q 'automaton' err
	env $dev AGREP_GPU_STATS=1 AGREP_GPU_RE=0 agrep-gpu -E -c 'a(b|c)*a' d 2> err
	! grep -q 'automaton' err
	env $dev AGREP_GPU_STATS=1 agrep-gpu -E -c '\<a(b|c)*a' d 2> err
	! grep -q 'automaton' err
	# The output formats x the settings on the device, each against the
	# host's output.  full: all 15 at every expression and k.  quick: one
	# device run an expression: the i-th (from 0), unless i % 3 = 0, with
	# format i % 5 at k = i % 4 with setting (i + i / 3) % 3 (7 runs
	# instead of 660, in which every format, k and setting occurs; a POCL
	# start-up, ~70 ms, is the cost of a run).
	# The oracle's lines, the default settings and stdin on the device:
	# full, every expression and k, in both; quick, the i-th expression at
	# k = i % 4, the oracle's against the host's lines, and stdin on the
	# device for the others (i = 0, 3, 6, 9: k = 0, 3, 2, 1).
	local -a fmts=("" -c -n -v -l) sets=("" "AGREP_GPU_CHUNK=4096 AGREP_GPU_SLICE=64" \
	    "AGREP_GPU_SLICE=128")
	local full= i=0 fx si hostrun
	[ "$(depth quick full)" = quick ] || full=1
	# (quick: whether run i has format fx, k and setting si)
	quick_run() {
		[ $((i % 3)) != 0 ] && [ $((i % 5)) = "$fx" ] && [ $((i % 4)) = "$k" ] &&
		    [ $(((i + i / 3) % 3)) = "$si" ]
	}
	for e in 'a(b|c)*a' '(ab|ba)+ c' '^ab*' 'c[^a]$' '^(a|c)+$' 'a.*b.*c' \
	    '(a|bc){2,3}-' '^.?a' 'b?c?a$' '()$' 'ca+b'; do
		for k in 0 1 2 3; do
			for ((fx = 0; fx < 5; fx++)); do
				f=${fmts[fx]} hostrun=
				for ((si = 0; si < 3; si++)); do
					envs=${sets[si]}
					[ -n "$full" ] || quick_run || continue
					[ -n "$hostrun" ] || { AGREP_GPU_DEVICE=host agrep-gpu -E -k$k $f "$e" d > host || true; hostrun=1; }
					env $dev $envs agrep-gpu -E -k$k $f "$e" d > got || true
					cmp host got || { echo "$envs -k$k $f '$e'"; diff host got | head; return 1; }
				done
			done
			[ -n "$full" ] || [ $((i % 4)) = "$k" ] || continue
			reoracle -k$k "$e" d > want || true
			agrep-gpu -E -k$k "$e" d > host || true
			cmp want host || { echo "oracle: -k$k '$e'"; return 1; }
			[ -n "$full" ] || [ $((i % 3)) = 0 ] || continue
			env $dev AGREP_GPU_CHUNK=4096 agrep-gpu -E -k$k "$e" - < d > got || true
			cmp want got || { echo "stdin: -k$k '$e'"; return 1; }
		done
		i=$((i + 1))
	done
	# UTF-8 mode: the kernel reads a chunk's symbols, as the host does
	# (full: each expression at k = 0-2; quick: the x-th at k = x)
	printf 'caf\xc3\xa9 cr\xc3\xa8me\ncafe creme\ncaf crm\n\xc3\xa9t\xc3\xa9 caf\xc3\xa9\n' > u
	i=0
	for e in 'caf. cr.+me' '^.t.' $'c(a|\xc3\xa9)f.*e$'; do
		for k in 0 1 2; do
			[ -n "$full" ] || [ "$i" = "$k" ] || continue
			LC_ALL=C.UTF-8 AGREP_GPU_DEVICE=host agrep-gpu -E -n -k$k "$e" u > host || true
			LC_ALL=C.UTF-8 env $dev AGREP_GPU_STATS=1 agrep-gpu -E -n -k$k "$e" u > got 2> err || true
			cmp host got || { echo "UTF-8: -k$k '$e'"; return 1; }
			grep -q automaton err
		done
		i=$((i + 1))
	done
}

@test "several expressions on the device (POCL), a launch each: the host's output byte for byte, the oracle's lines" {
	case $AGREP_GPU in */san/*) skip "POCL under the sanitizers: not run" ;; esac
	local k f envs dev="AGREP_GPU_DEVICE=${AGREP_GPU_DEVICE:-cpu} AGREP_GPU_HOST_MAX=0"
	awk 'BEGIN { srand(12); for (i = 0; i < 500; i++) {
	    m = int(rand() * (i % 7 ? 25 : 300)); l = ""; for (j = 0; j < m; j++)
	    l = l substr("abcd -", int(rand() * 6) + 1, 1); print l } }' > d
	# automata of 1 to 3 groups of states (their tables padded to the
	# most), anchored or not
	printf '%s\n' 'a(b|c)*d' '^d[ab]+' 'c.-+a$' 'd+ -' \
	    '(abcd|bcda|cdab|dabc)(a|b)?c' > e
	env $dev AGREP_GPU_STATS=1 agrep-gpu -E -c -f e d 2> err
	grep -q 'automaton' err
	# per k and format, the device's output with each setting against
	# the host's: full, both settings; quick, one format at k, format k
	# with setting k % 2 (every format and every setting occurs)
	local full= fx si
	[ "$(depth quick full)" = quick ] || full=1
	local -a fmts=("" -c -n -v) sets=("" "AGREP_GPU_CHUNK=4096 AGREP_GPU_SLICE=64")
	for k in 0 1 2 3; do
		while read -r x; do reoracle -k$k "$x" d || true; done < e |
		    sort -u > want
		for ((fx = 0; fx < 4; fx++)); do
			f=${fmts[fx]}
			[ -n "$full" ] || [ "$fx" = "$k" ] || continue
			AGREP_GPU_DEVICE=host agrep-gpu -E -k$k $f -f e d > host || true
			for ((si = 0; si < 2; si++)); do
				envs=${sets[si]}
				[ -n "$full" ] || [ $((k % 2)) = "$si" ] || continue
				env $dev $envs agrep-gpu -E -k$k $f -f e d > got || true
				cmp host got || { echo "$envs -k$k $f"; diff host got | head; return 1; }
			done
		done
		env $dev agrep-gpu -E -k$k -f e d | sort -u > got || true
		cmp want got || { echo "oracle: -k$k"; return 1; }
	done
	# more than the kernel takes at once: the host
	for i in 1 2 3 4 5 6 7 8 9; do echo "a(b|c)*$i"; done > many
	env $dev AGREP_GPU_STATS=1 agrep-gpu -E -c -f many d 2> err || true
	! grep -q 'automaton' err
}

@test "the parser and the automaton under AddressSanitizer and UBSan (small set)" {
	# (make check-sanitize runs it, with the sanitizer build of the tool)
	case $AGREP_GPU in */san/*) ;; *) skip "the sanitizer pass: make check-sanitize" ;; esac
	[ -x "$TOP/tests/bin/reexh-san" ] || { echo "tests/bin/reexh-san missing" >&2; return 1; }
	run "$TOP/tests/bin/reexh-san" -q -r 200
	echo "$output" | tail -3
	assert_success
	assert_output --partial ", 0 failures"
	# every range on the SIMD lanes (relanes.c), rows of two bytes too
	run env AGREP_GPU_RE_LANES_MIN=0 "$TOP/tests/bin/reexh-san" -q -r 100
	echo "$output" | tail -3
	assert_success
	assert_output --partial "random, 9-16 positions: 100 expressions"
	assert_output --partial ", 0 failures"
}

# random expressions over {a, b, c} with the tool itself, lines and costs
@test "random expressions: lines, -c, -x and --show-cost as the oracle (host and default)" {
	local n=0 e k
	exprs=('a(b|c)*a' '[ab]c?b' '(ab|ba)+' 'a.b' '^ab*' 'c[^a]$' '(a|bc){2,3}'
	    'b?c?a' '.(a|b).' '^(a|c)+$' 'abca?b' '[a-b]+c' '(a(b)?)*c' 'a|b|cc'
	    'ab{1,3}c' '^.?a')
	for s in 1 2 3; do
		awk -v s="$s" 'BEGIN { srand(s); for (i = 0; i < 300; i++) {
		    m = int(rand() * 14); l = ""; for (j = 0; j < m; j++)
		    l = l substr("abc", int(rand() * 3) + 1, 1); print l } }' > r$s
	done
	# full: every expression at every k over each of the three texts, its
	# lines with the three settings, -c, and --show-cost and -x with the
	# expansion and without.  quick (and the sanitizer build): the i-th
	# expression (from 0) at one k, i % 3, over one text, text
	# (i + k) % 3 + 1 (each k meets the three); the host's lines and, by
	# turns, the default's or those with AGREP_GPU_RE_EXPAND=0; one of the
	# five others (-c, --show-cost and -x expanded, and not), the n-th case
	# the (n % 5)-th (each k meets the five)
	local ei=0 ss ks="0 1 2" full= ex o
	[ "$(depth quick full)" = quick ] || full=1
	# (quick: whether the n-th case makes the o-th of the five)
	makes() { [ -n "$full" ] || [ $((n % 5)) = "$1" ]; }
	for e in "${exprs[@]}"; do
		[ -n "$full" ] || ks=$((ei % 3))
		# (the sanitizer build: one k an expression, in turn; CI's time)
		! slow_build || ks=$((ei % 3))
		for k in $ks; do
			ss="1 2 3"
			[ "$(depth quick full)" = full ] || ss=$(((ei + k) % 3 + 1))
			for s in $ss; do
				n=$((n + 1))
				want=$(reoracle -k$k "$e" r$s || true)
				ex=0
				for envs in "AGREP_GPU_DEVICE=host" "" "AGREP_GPU_RE_EXPAND=0"; do
					ex=$((ex + 1))
					[ -n "$full" ] || [ "$ex" = 1 ] || [ $(((ei + k + ex) % 2)) = 0 ] || continue
					got=$(env $envs agrep-gpu -E -k$k "$e" r$s || true)
					[ "$got" = "$want" ] || { echo "lines: $envs -k$k '$e' r$s"; diff <(echo "$want") <(echo "$got"); return 1; }
				done
				if makes 0; then
					got=$(agrep-gpu -E -k$k -c "$e" r$s || true)
					# (counted from the oracle's output itself: \$(...)
					# drops trailing empty lines)
					[ "$got" = "$(reoracle -k$k "$e" r$s | wc -l)" ] || { echo "-c: -k$k '$e'"; return 1; }
				fi
				o=1
				for x in 1 0; do
					if makes $o; then
						got=$(AGREP_GPU_RE_EXPAND=$x agrep-gpu -E -k$k --show-cost "$e" r$s || true)
						[ "$got" = "$(reoracle -s -k$k "$e" r$s || true)" ] || { echo "cost: -k$k '$e' expand=$x"; return 1; }
					fi
					if makes $((o + 1)); then
						got=$(AGREP_GPU_RE_EXPAND=$x agrep-gpu -E -x -k$k "$e" r$s || true)
						[ "$got" = "$(reoracle -x -k$k "$e" r$s || true)" ] || { echo "-x: -k$k '$e' expand=$x"; return 1; }
					fi
					o=$((o + 2))
				done
			done
		done
		ei=$((ei + 1))
	done
	echo "# $n cases" >&3
}

@test "classes of fixed length run through every Myers engine as the oracle says" {
	local e k eng
	# 2,000 random lines (quick: the first 1,000; 11 chunks of 4 KiB)
	awk -v n="$(depth 1000 2000)" 'BEGIN { srand(7); for (i = 0; i < n; i++) {
	    m = int(rand() * 90); l = ""; for (j = 0; j < m; j++)
	    l = l substr("abcd", int(rand() * 4) + 1, 1); print l } }' > r
	# full: every engine, the OpenCL kernel and the many copies at every
	# k; quick: the i-th expression (1-5) at two k, i % 4 and (i + 1) % 4,
	# each engine at those where (i + k + engine) % 2 = 0 (every engine
	# meets every k over the expressions), the kernel at the first k
	# (every k, k = 1 twice) and the many copies at the second
	local ei=0 nx full= ks
	[ "$(depth quick full)" = quick ] || full=1
	for e in 'a[bc]d' 'ab.d[^a]c' '[ab][cd][ab][cd]ab' 'a.......b' \
	    'abc[ad]abcdabc[^d]ab[a-c]bcdab..dabcd'; do
		ei=$((ei + 1))
		ks="0 1 2 3"
		[ -n "$full" ] || ks="$((ei % 4)) $(((ei + 1) % 4))"
		for k in $ks; do
			want=$(reoracle -k$k "$e" r || true)
			nx=0
			for eng in scalar simd simd-generic filter multi pp; do
				nx=$((nx + 1))
				[ -n "$full" ] || [ $(((ei + k + nx) % 2)) = 0 ] || continue
				got=$(AGREP_GPU_DEVICE=host AGREP_GPU_HOST_ENGINE=$eng agrep-gpu -k$k "$e" r || true)
				[ "$got" = "$want" ] || { echo "$eng -k$k '$e'"; diff <(echo "$want") <(echo "$got") | head; return 1; }
			done
			# the OpenCL kernel (POCL), tiny chunks and slices
			if [ -n "$full" ] || [ "$k" = $((ei % 4)) ]; then
				got=$(AGREP_GPU_HOST_MAX=0 AGREP_GPU_SLICE=64 AGREP_GPU_CHUNK=4096 agrep-gpu -k$k "$e" r || true)
				[ "$got" = "$want" ] || { echo "OpenCL -k$k '$e'"; return 1; }
			fi
			# many copies: the shared filter and pattern-parallel engines
			[ -n "$full" ] || [ "$k" = $(((ei + 1) % 4)) ] || continue
			got=$(AGREP_GPU_DEVICE=host agrep-gpu -k$k -e "$e" -e "$e" -e "$e" -e "$e" -e "$e" -e "$e" -e "$e" -e "$e" r || true)
			[ "$got" = "$want" ] || { echo "many -k$k '$e'"; return 1; }
		done
	done
}

@test "classes: -o, --show-cost, --show-edits and -i use the class" {
	run agrep-gpu -k1 -o 'gr[ae]y' t
	assert_output "$(printf 'grey\ngray\ngruy')"
	run agrep-gpu -k1 --show-cost --show-edits 'gr[ae]y' t
	assert_output "$(printf '0:4=:grey\n0:4=:gray\n1:2=1X1=:gruy')"
	run agrep-gpu -i 'GR[AE]Y' t
	assert_output "$(printf 'grey\ngray')"
	run agrep-gpu -i '[[:upper:]]R' t
	assert_output "$(printf 'color\ncolour\ncolr\ngrey\ngray\ngruy\nfoo bar')"
}

@test "expressions: -o, --color, -w, --best-match, --json" {
	run agrep-gpu -E -o '[a-z]+our?' t
	assert_output "$(grep -E -o '[a-z]+our?' t)"
	# (a finite language is its words: -o as for those strings)
	run agrep-gpu -E -k1 -o 'colou?r' t
	assert_output "$(agrep-gpu -F -k1 -o -e color -e colour t)"
	run env AGREP_GPU_RE_EXPAND=0 agrep-gpu -E -k1 -o 'colou?r' t
	assert_output "$(printf 'color\ncolour\ncolr')"
	run agrep-gpu -E --color=always 'o+' t
	assert_output "$(grep -E --color=always 'o+' t)"
	run agrep-gpu -E -w 'ba?r' t
	assert_output 'foo bar'
	run agrep-gpu -E -w -k1 'fo+' t
	assert_output 'foo bar'
	run agrep-gpu -E --best-match 'gra+y' t
	assert_output 'gray'
	run agrep-gpu -E --json -k1 'gr(e|a)y' t
	assert_line --index 0 --partial '"type":"begin"'
	assert_output --partial '"cost":1'
}

@test "--dna reads IUPAC codes as their bases (a degenerate primer)" {
	printf 'xxGTGCCAGCAGCCGCGGTAAxx\nxxGTGTCAGCCGCCGCGGTAAxx\nGTGACAGCAGCCGCGGTAA\ngtgccagcagccgcggtaa\n' > d
	run agrep-gpu --dna --no-ignore-case GTGYCAGCMGCCGCGGTAA d
	assert_output "$(head -2 d)"
	run agrep-gpu --iupac --no-ignore-case -k1 GTGYCAGCMGCCGCGGTAA d
	assert_output "$(head -3 d)"
	# --dna folds case: soft-masked bases are bases
	run agrep-gpu --dna -c GTGYCAGCMGCCGCGGTAA d
	assert_output 3
	run agrep-gpu -F --dna --no-ignore-case GTGNCAG d
	assert_output "$(head -3 d)"
	run -1 agrep-gpu GTGYCAG d
}

@test "small finite languages are searched as their words (colou?r, (a|b)c)" {
	local n=0
	for e in 'colou?r' '(a|b)c' 'gr(a|e)y' 'o{1,2}' 'timeout|timed out'; do
		# (quick and slow builds: two k an expression, in turns)
		n=$((n + 1))
		for k in $(depth "$((n % 3)) $(((n + 1) % 3))" "0 1 2" "$((n % 3)) $(((n + 1) % 3))"); do
			run agrep-gpu -E -k$k -n "$e" t
			assert_output "$(AGREP_GPU_RE_EXPAND=0 agrep-gpu -E -k$k -n "$e" t)"
			run agrep-gpu -E -k$k -o "$e" t
			[ "$k" -gt 0 ] || assert_output "$(grep -E -o "$e" t)"
		done
	done
	# --show-edits then works: the words are patterns
	run agrep-gpu -E -k1 --show-edits 'colou?r' t
	assert_output "$(agrep-gpu -F -k1 --show-edits -e color -e colour t)"
}

@test "a list of words past the automaton's 1023 positions is searched as its words" {
	# (an alternation of 300 words as one expression, as grep users write
	# it: it was refused, "expression too long")
	awk 'BEGIN { srand(7); for (i = 0; i < 300; i++) { w = ""
		n = 4 + int(rand() * 6); for (j = 0; j < n; j++)
			w = w substr("abcdefghijklmnopqrstuvwxyz", 1 + int(rand() * 26), 1)
		print w } }' > words
	awk 'BEGIN { srand(8); for (i = 0; i < 400; i++) { l = ""
		n = 10 + int(rand() * 50); for (j = 0; j < n; j++)
			l = l substr("abcdefghijklmnopqrstuvwxyz  ", 1 + int(rand() * 28), 1)
		print l } }' > text
	local e
	e=$(paste -sd'|' words)
	# (full: each option at every k; quick: the o-th option (from 0) at
	# k = o % 3; slow builds: each at k = 1)
	local ox samp=$(depth 1 "" "")
	for k in $(depth "0 1 2" "0 1 2" "1"); do
		ox=0
		for o in -n "-o -b" "-w -c" "-x -c" "-v -c"; do
			ox=$((ox + 1))
			[ -z "$samp" ] || [ $(((ox - 1) % 3)) = "$k" ] || continue
			run agrep-gpu -F -k$k $o -f words text
			local want=$output st=$status
			run agrep-gpu -E -k$k $o "$e" text
			[ "$status" -eq "$st" ] && [ "$status" -lt 2 ]
			assert_output "$want"
		done
	done
	run agrep-gpu -E -n "$e" text
	assert_output "$(grep -E -n "$e" text)"
	# an infinite language stays the automaton's, and that one too long
	run -2 agrep-gpu -E -c "($e)+" text
	assert_output --partial 'expression too long: more than 1023 positions'
	# a word past the pattern limit is named, not the language's total
	run -2 agrep-gpu -E -k1 -c "$e|$(printf 'x%.0s' $(seq 5000))" text
	assert_output --partial 'expression of 5000 positions is longer than the limit of 4096'
}

@test "expressions of 300,000 alternatives, a 2 MB string, groups 100,000 deep: a message or a search, not a crash" {
	# (the parser's chains were walked by recursion down their spine:
	# the stack overflowed)
	printf 'abab\nxyz\n' > s
	awk 'BEGIN { for (i = 0; i < 300000; i++) printf "%s%d", i ? "|" : "", i; print "" }' > alts
	run -2 agrep-gpu -E -c -f alts s
	assert_output --partial 'expression too long'
	awk 'BEGIN { for (i = 0; i < 500000; i++) printf "abab"; print "" }' > long
	for o in -E -G; do
		run -1 agrep-gpu $o -c -f long s
		assert_output 0
	done
	# groups 100,000 deep, repetitions 50,000 in a row: a message (grep:
	# "stack overflow")
	awk 'BEGIN { for (i = 0; i < 100000; i++) printf "("; printf "a"
		for (i = 0; i < 100000; i++) printf ")"; print "" }' > deep
	run -2 agrep-gpu -E -c -f deep s
	assert_output --partial 'expression nested too deeply'
	awk 'BEGIN { printf "a"; for (i = 0; i < 50000; i++) printf "{1}"; print "" }' > deep
	run -2 agrep-gpu -E -c -f deep s
	assert_output --partial 'expression nested too deeply'
	# 60,000 alternatives: its words, as with -f
	awk 'BEGIN { for (i = 0; i < 60000; i++) printf "%s%d", i ? "|" : "", 100000 + i; print "" }' > alts
	printf '1x0123y\nz159999z\n160000\n' > n
	run agrep-gpu -E -n -f alts n
	assert_output '2:z159999z'
}

@test "several -e: literals, classes and expressions in one pass" {
	run agrep-gpu -E -e 'colou?r' -e 'gr[ae]y' -e foo t
	assert_output "$(grep -E -e 'colou?r' -e 'gr[ae]y' -e foo t)"
	run agrep-gpu -E -k1 -c -e 'colou?r' -e 'gr[ae]y' t
	assert_output 6
}

@test "UTF-8 mode: . and classes are characters" {
	printf 'caf\xc3\xa9\ncafe\ncaf\n\xc3\xa9t\xc3\xa9\n' > u
	LC_ALL=C.UTF-8 run agrep-gpu -x 'caf.' u
	assert_output "$(printf 'caf\xc3\xa9\ncafe')"
	LC_ALL=C.UTF-8 run agrep-gpu -E $'^[\xc3\xa9e]t' u
	assert_output "$(printf '\xc3\xa9t\xc3\xa9')"
	LC_ALL=C.UTF-8 run agrep-gpu -E -c $'caf(\xc3\xa9)?$' u
	assert_output 2
	LC_ALL=C.UTF-8 run -2 --separate-stderr agrep-gpu $'[a-\xc3\xa9]' u
	assert_regex "$stderr" 'non-ASCII'
	LC_ALL=C run agrep-gpu -x 'caf.' u
	assert_output cafe
}

@test "-i: the prefilter's pieces are found without case; the lines of the same search over the text in lower case" {
	command -v bible >/dev/null || skip "bible missing ('make deps')"
	# every letter's case flipped at random: a piece matched with memmem
	# (or a fold that misses a case) loses lines
	bible "Gen1:1-Rev22:21" | awk 'BEGIN { srand(24) }
	    { o = ""; for (i = 1; i <= length($0); i++) { c = substr($0, i, 1);
	      o = o (rand() < 0.3 ? toupper(c) : tolower(c)) } print o }' > mixed
	tr 'A-Z' 'a-z' < mixed > lower
	local n=0
	for e in 'mercy.*ever' "(Abraham|Isaac|Jacob)'s (son|daughter|wife)s?" \
	    'the (LORD|Lord)+ God' 'And (he|she|they) (said|spake) unto' \
	    '^  [0-9]+ And' 'L(ORD|ord) of h' 'SE(R|V)+ANTS? of'; do
		l=$(printf '%s' "$e" | tr 'A-Z' 'a-z')
		# (quick and slow builds: one k an expression, in turns)
		n=$((n + 1))
		for k in $(depth $((n % 3)) "0 1 2" $((n % 3))); do
			agrep-gpu -i -n -E -k$k "$e" mixed | cut -d: -f1 > got
			agrep-gpu -n -E -k$k "$l" lower | cut -d: -f1 > want
			[ -s want ] || fail "'$l' -k$k selects nothing: a useless case"
			cmp -s got want || fail "-i -E -k$k '$e': $(wc -l < got) lines, $(wc -l < want) over the lower-case text"
		done
	done
}

@test "expressions on the Bible: the lines of tre-agrep" {
	command -v bible >/dev/null && command -v tre-agrep >/dev/null ||
		skip "bible or tre-agrep missing ('make deps')"
	bible "Gen1:1-Rev22:21" | head -n 8000 > kjv
	# (tre-agrep does not count an insertion before $, and misses some
	# matches with a deleted position between repetitions, e.g.
	# '[0-9]+:[0-9]+ Th' k=2 in "12 When" (the oracle agrees with us))
	# (nor an insertion before \>: '\<the\>' k=1 in "them,")
	# full: every expression at k = 0-2; quick: the i-th (from 0) at
	# k = i % 3
	local ei=0 full=
	[ "$(depth quick full)" = quick ] || full=1
	for e in 'colou?r' 'gr[ae]y' 'the (LORD|Lord) God' 'mercy.*ever' '^And' \
	    'a[bc]+d' 'j[aeiou]*b' 'se(r|v)+ant' 'wh(o|ic)h?' 'L(ORD|ord) of h' \
	    '(^And|LORD\.$)' 'Egypt|^And the' '(^|, )and the' 'th(e|at)($|,)' \
	    '\<(the|that) \<L' '\<se(r|v)+an' '^\w+ \<s' '(\<b|d\>)' \
	    "(Abraham|Isaac|Jacob)'s (son|daughter|wife)s?" 'And (he|she|they) (said|spake) unto'; do
		for k in 0 1 2; do
			[ -n "$full" ] || [ "$k" = $((ei % 3)) ] || continue
			run agrep-gpu -E -k$k -c "$e" kjv
			assert_output "$(tre-agrep -c -E $k -e "$e" kjv)"
		done
		ei=$((ei + 1))
	done
}

@test "word anchors, \\w and ^ \$ inside an expression: grep's lines, -o and --color at k = 0" {
	printf '\n a\nab cd\n-\nfoo bar\nfoobar\nbarfoo x\nfoo_bar9 x-y\n' > w
	# full: every expression with the four options; quick: the i-th (from
	# 0) with option i % 4 (each option over 7 of the 28)
	local i=0 ox full=
	[ "$(depth quick full)" = quick ] || full=1
	for e in '\<' '\>' '\b' '\B' '\<bar' 'foo\>' '\bfoo\b' 'o\Bb' '\Bo' 'o\B' \
	    '\<[a-z]+\>' '\w+\b' '\b.' '\B.' 'o*\>' '\W' '\w\W\w' '^\B$' \
	    '(^a|o$)' 'x|^b' 'a|^b' '(^|x)f' 'r($|x)' '\`f' "r\\'" 'x*(b|a)' \
	    '\<(foo|bar)\>' '9\>' '\<_'; do
		ox=0
		for o in -c -n -o --color=always; do
			ox=$((ox + 1))
			[ -n "$full" ] || [ $((ox - 1)) = $((i % 4)) ] || continue
			run agrep-gpu -E $o "$e" w
			assert_output "$(grep -E $o "$e" w)"
		done
		i=$((i + 1))
	done
	# basic syntax: ^ after \( and \|, $ before \) and \|
	for e in '\(^a\|o$\)' 'x\|^b' 'a\|b$' '\<b\w*' 'o\>'; do
		run agrep-gpu -n "$e" w
		assert_output "$(grep -n "$e" w)"
	done
}

@test "assertions with errors: lines, -c, -x and --show-cost as the oracle" {
	local n=0 e k
	exprs=('\<ab' 'ab\>' '\bc\b' 'a\Bb' '\<a[bc]*\>' '(^a|c$)' 'b|^c' '(\<a|b\>)+'
	    'a\> \<b' '\w+ \w' '\W\<a' 'c\B' '(^|-)ab' 'ab($|-)' '\B(ab|c)\B' 'a^b' 'a$b')
	for s in 1 2; do
		awk -v s="$s" 'BEGIN { srand(s); for (i = 0; i < 300; i++) {
		    m = int(rand() * 14); l = ""; for (j = 0; j < m; j++)
		    l = l substr("abc a-", int(rand() * 6) + 1, 1); print l } }' > r$s
	done
	# full: every expression at every k over both texts, its lines, -c,
	# --show-cost and -x; quick: the i-th expression (from 0) at one k,
	# i % 3, over one text, text (i + k) % 2 + 1, its lines and one of -c,
	# --show-cost and -x by turns, (i + k + i / 3) % 3 (each k meets the
	# three)
	local ei=0 ss full= c
	[ "$(depth quick full)" = quick ] || full=1
	for e in "${exprs[@]}"; do
		for k in 0 1 2; do
			[ -n "$full" ] || [ "$k" = $((ei % 3)) ] || continue
			ss="1 2"
			[ "$(depth quick full)" = full ] || ss=$(((ei + k) % 2 + 1))
			for s in $ss; do
				n=$((n + 1))
				want=$(reoracle -k$k "$e" r$s || true)
				got=$(agrep-gpu -E -k$k "$e" r$s || true)
				[ "$got" = "$want" ] || { echo "lines: -k$k '$e' r$s"; diff <(echo "$want") <(echo "$got"); return 1; }
				c=$(((ei + k + ei / 3) % 3))
				if [ -n "$full" ] || [ "$c" = 0 ]; then
					got=$(agrep-gpu -E -k$k -c "$e" r$s || true)
					[ "$got" = "$(reoracle -k$k "$e" r$s | wc -l)" ] || { echo "-c: -k$k '$e'"; return 1; }
				fi
				if [ -n "$full" ] || [ "$c" = 1 ]; then
					got=$(agrep-gpu -E -k$k --show-cost "$e" r$s || true)
					[ "$got" = "$(reoracle -s -k$k "$e" r$s || true)" ] || { echo "cost: -k$k '$e'"; return 1; }
				fi
				if [ -n "$full" ] || [ "$c" = 2 ]; then
					got=$(agrep-gpu -E -x -k$k "$e" r$s || true)
					[ "$got" = "$(reoracle -x -k$k "$e" r$s || true)" ] || { echo "-x: -k$k '$e'"; return 1; }
				fi
			done
		done
		ei=$((ei + 1))
	done
	echo "# $n cases" >&3
}

@test "alternatives each anchored (scanned as windows at the records' edges): the oracle's lines" {
	# (^And|LORD\.$): each branch is an automaton of its own whose
	# matches lie in the first or the last maxlen + k units of a record
	local n=0 e k
	awk 'BEGIN { srand(11); for (i = 0; i < 400; i++) {
	    m = int(rand() * 40); l = ""; for (j = 0; j < m; j++)
	    l = l substr("abc a-", int(rand() * 6) + 1, 1); print l } }' > w
	printf 'abcab' > w2	# no terminator on the last record
	# full: every expression at every k, its lines on both files,
	# --show-cost, -x, and POCL against the host with 64-byte chunks.
	# quick: the i-th (1-14) at one k, i % 4 (each k meets 3 or 4
	# expressions), its lines on both, then by turns (i % 3) --show-cost
	# and POCL (i = 3, 6, 9, 12: k = 3, 2, 1, 0), -x (i = 1, 4, 7, 10, 13:
	# every k) or --show-cost alone (a POCL start-up is most of a run's
	# time)
	local ei=0 ks full=
	[ "$(depth quick full)" = quick ] || full=1
	for e in '(^ab|c-$)' '^a|bc$' '(^a|^bc|ca$)' '^(ab|c)|a?c$' '^$|ab$' \
	    '^a.b|-a$' '(^abca|b$)' '^a*b|c$' '^|a$' '(^b|ab$)' 'b^|a$' '^abc' \
	    'ca-$' '^ab$|^c'; do
		ei=$((ei + 1))
		ks="0 1 2 3"
		[ -n "$full" ] || ks=$((ei % 4))
		for k in $ks; do
			for f in w w2; do
				n=$((n + 1))
				want=$(reoracle -k$k "$e" $f || true)
				got=$(agrep-gpu -E -k$k "$e" $f || true)
				[ "$got" = "$want" ] || { echo "lines: -k$k '$e' $f"; diff <(echo "$want") <(echo "$got"); return 1; }
			done
			if [ -n "$full" ] || [ $((ei % 3)) = 1 ]; then
				got=$(agrep-gpu -E -x -k$k "$e" w || true)
				[ "$got" = "$(reoracle -x -k$k "$e" w || true)" ] || { echo "-x: -k$k '$e'"; return 1; }
			fi
			[ -n "$full" ] || [ $((ei % 3)) != 1 ] || continue
			got=$(agrep-gpu -E -k$k --show-cost "$e" w || true)
			[ "$got" = "$(reoracle -s -k$k "$e" w || true)" ] || { echo "cost: -k$k '$e'"; return 1; }
			[ -n "$full" ] || [ $((ei % 3)) = 0 ] || continue
			got=$(env AGREP_GPU_CHUNK=64 agrep-gpu -E -k$k -n "$e" w || true)
			[ "$got" = "$(agrep-gpu --device=cpu -E -k$k -n "$e" w || true)" ] || { echo "POCL: -k$k '$e'"; return 1; }
		done
	done
	echo "# $n cases" >&3
}

@test "prefilter pieces chosen on a sample (groups, spans of groups, rarest units first): the oracle's lines" {
	# 24 KB of words: the pieces are chosen on the first 16 KB
	awk 'BEGIN { srand(17); split("and he she they said spake unto him her them", w);
	    for (i = 0; i < 1500; i++) { m = int(rand() * 6) + 1; l = "";
	    for (j = 0; j < m; j++) l = l (j ? " " : "") w[int(rand() * 10) + 1];
	    print l } }' > p
	[ "$(wc -c < p)" -gt 20000 ]
	# (full: every expression at k = 0-3; quick: the i-th (1-6) at one,
	# i % 4)
	local n=0 e k ei=0
	for e in 'and (he|she|they) (said|spake) unto' '(said|spake) unto (him|her|them)' \
	    'she (said|spake)' '(he|she) said (unto|him)' 'they.*(him|her)' 'unto (him|her),?'; do
		ei=$((ei + 1))
		for k in $(depth "$((ei % 4))" "0 1 2 3"); do
			n=$((n + 1))
			want=$(reoracle -k$k "$e" p || true)
			got=$(agrep-gpu -j1 -E -k$k "$e" p || true)
			[ "$got" = "$want" ] || { echo "lines: -k$k '$e'"; diff <(echo "$want") <(echo "$got") | head; return 1; }
			got=$(agrep-gpu -j1 -i -E -k$k "$(echo "$e" | tr a-z A-Z)" p || true)
			[ "$got" = "$want" ] || { echo "-i: -k$k '$e'"; return 1; }
		done
	done
	echo "# $n cases" >&3
}

@test "assertions: a record no assertion holds in is not selected, whatever k" {
	printf '   \n\n--\na b\n' > s
	run agrep-gpu -c -k3 '\<a' s
	assert_output 1
	run agrep-gpu -c -k3 '\Bx' s
	assert_output 3
	run agrep-gpu -c -k5 -E 'x^y' s
	assert_output 4
}

@test "assertions and anchors across chunks and long records as in one piece" {
	# 3,000 short records (quick: the first 1,500, 11 chunks of 4 KiB)
	awk -v n="$(depth 1500 3000)" 'BEGIN { srand(5); for (i = 0; i < n; i++) { m = int(rand() * 60);
	    l = ""; for (j = 0; j < m; j++) l = l substr("ab c-", int(rand() * 5) + 1, 1);
	    print l } }' > c
	# the long record: full, 300,000 bytes (73 chunks of 4 KiB); quick,
	# its first 50,000 (13 chunks; the oracle's time on it is the cost)
	awk -v n="$(depth 50000 300000)" 'BEGIN { srand(6); l = ""; for (j = 0; j < n; j++)
	    l = l substr("ab c-", int(rand() * 5) + 1, 1); print l; print "x abc" }' > long
	# (full: every expression at k = 0 and 1, over c with the default
	# chunks and with chunks of 4 KiB, and over the long record; quick:
	# the i-th at k = i % 2 only, over c in 4 KiB chunks and over the
	# long record, and over c with the default chunks when i % 3 = 0
	# (i = 3, 6, 9: k = 1, 0, 1))
	local want i=0
	for e in '\<abc\>' 'c\B(a|b)+\>' '(^|-)ab c' 'cab\b' '^(ab|c-)c' 'a c?b$' \
	    '^a.?b$' '\<ab c' 'b\Bc-'; do
		i=$((i + 1))
		for k in 0 1; do
			[ "$(depth quick full)" = full ] || [ $((i % 2)) = "$k" ] || continue
			want=$(reoracle -k$k "$e" c | wc -l)
			if [ "$(depth quick full)" = full ] || [ $((i % 3)) = 0 ]; then
				run agrep-gpu -E -k$k -c "$e" c
				assert_output "$want"
			fi
			run env AGREP_GPU_CHUNK=4096 agrep-gpu -E -k$k -c "$e" c
			assert_output "$want"
			run env AGREP_GPU_CHUNK=4096 agrep-gpu -E -k$k -c "$e" long
			assert_output "$(reoracle -k$k "$e" long | wc -l)"
		done
	done
}

@test "a record longer than a chunk: * and + span the pieces, ^ and \$ see its edges" {
	awk 'BEGIN { l = "mercy"; for (j = 0; j < 30000; j++) l = l "x";
	    print l "ever"; print "mercy ever"; print l; print "ab" l "ab" }' > m
	# full: every expression at every k with the three chunk sizes;
	# quick: the i-th (1-9) at one k, i % 3, with one chunk size, by
	# turns, (i / 3) % 3 (each k meets the three)
	local i=0 cs
	for e in 'mercy.*ever' 'mer.y.*ever' 'cy(x|z)+ev' '^mercyx' 'xxever$' \
	    '^ab' 'ab$' 'xab\>' '\<merc'; do
		i=$((i + 1))
		for k in 0 1 2; do
			[ "$(depth quick full)" = full ] || [ "$k" = $((i % 3)) ] || continue
			# (the oracle's lines, once per expression and k)
			reoracle -k$k "$e" m > lines
			want=$(wc -l < lines)
			cs=(4096 65536 "")
			[ "$(depth quick full)" = full ] || cs=("${cs[(i / 3) % 3]}")
			for c in "${cs[@]}"; do
				run env AGREP_GPU_CHUNK=$c agrep-gpu -E -k$k -c "$e" m
				assert_output "$want"
				env AGREP_GPU_CHUNK=$c agrep-gpu -E -k$k "$e" - < m > got || true
				cmp got lines
			done
		done
	done
	run agrep-gpu -c 'mercy.*ever' m
	assert_output "$(grep -c 'mercy.*ever' m)"
}

# A UTF-8 text for the classes: accented Latin, Greek, Cyrillic, CJK,
# titlecase letters, non-ASCII punctuation, spaces (U+00A0 is punctuation
# to glibc; U+1680, U+2003, U+3000 are spaces), controls (U+0085, U+2028),
# digits of other scripts (letters to glibc), astral letters and symbols;
# with invalid bytes unless $2 is "valid".
u8_classes_text() {
	printf '%s\n' 'café crème brûlée' 'NAÏVE Élan x' 'Καλημέρα κόσμε ΑΒΓ' \
	    'Привет, мир! ЁЖ' '日本語のテキスト、漢字。' \
	    '«quote» — dash ¡hola! ¿qué? “x” …' 'emoji 😀 math 𝐀𝐛 x' \
	    'snake_case_é word' 'plain ascii line' '' '   ' 'é' '_' > "$1"
	printf 'nbsp: a\xc2\xa0b|em: a\xe2\x80\x83b|ideo: a\xe3\x80\x80b|ogham a\xe1\x9a\x80b\n' >> "$1"
	printf 'digits 123 \xd9\xa3\xd9\xa4 \xef\xbc\x93\xef\xbc\x94 \xc2\xb9\xc2\xb2 \xef\xbd\x81\n' >> "$1"
	printf 'title \xc7\x85x \xc7\x88y\nctrl a\xc2\x85b \xc2\x9f\nline a\xe2\x80\xa8b\ntab\there\n\xc2\xa0\n' >> "$1"
	[ "${2:-}" = valid ] || printf 'bad\xffbyte \xc3 lone\n\xe2\x82 cut x\n' >> "$1"
}

# agrep-gpu -k0 -E EXPR FILE prints what grep -a -E does, with and without
# -i, for each output option given in OPTS (a list of words: "-n", "-o -n").
same_as_grep() {
	local file=$1 e=$2 f o
	shift 2
	for f in "" -i; do
		for o in "$@"; do
			same_as_grep1 "$file" "$e" "$f" "$o"
		done
	done
}

# same_as_grep1 FILE EXPR F O: one of those runs (F: "" or -i; O: options)
same_as_grep1() {
	run agrep-gpu -a -k0 -E $3 $4 "$2" "$1"
	assert_output "$(grep -a -E $3 $4 "$2" "$1")"
}

@test "UTF-8 mode: the POSIX classes, \\w \\W \\s \\S and [^...] are the locale's, as in grep" {
	local c e
	u8_classes_text u
	export LC_ALL=C.UTF-8
	# full: each expression with and without -i, with each option.
	# quick: one run a class, the c-th (from 0) with form c % 4 and the
	# (c + c / 4) % 4-th of (-n, -i -n, -o -n, -i -o -n) (classes 0-11
	# make every form with three of the four, each of the four with three
	# forms); the i-th expression after
	# (from 0) takes one of -n, -o -n and -c, the (i % 3)-th, with -i when
	# i / 3 is odd (each option over 6 expressions, 3 of them with -i)
	local full= ci=0 i j o f r
	local -a o2=(-n "-o -n") o3=(-n "-o -n" -c)
	[ "$(depth quick full)" = quick ] || full=1
	for c in alpha digit alnum upper lower space blank punct print graph cntrl xdigit; do
		j=0
		for e in "[[:$c:]]" "[^[:$c:]]" "a[[:$c:]]b" "[[:$c:]]+"; do
			if [ -n "$full" ]; then
				same_as_grep u "$e" -n "-o -n"
			else
				for r in $ci; do
					[ $((r % 4)) = "$j" ] || continue
					i=$(((r + r / 4) % 4))
					f=$([ $((i % 2)) = 0 ] || echo -i)
					same_as_grep1 u "$e" "$f" "${o2[i / 2]}"
				done
			fi
			j=$((j + 1))
		done
		ci=$((ci + 1))
	done
	i=0
	for e in '\w' '\W' '\s' '\S' '\w+' '\W+' '\s\S' '\S+\s' 'caf\w' '[[:alpha:]]ve' \
	    '[^[:alpha:][:space:]]' '.' 'e.x' '[é[:digit:]]' '[^é]' '[[:upper:]][[:lower:]]' \
	    '[[:punct:]]{2}' 'x|\W'; do
		if [ -n "$full" ]; then
			same_as_grep u "$e" -n "-o -n" -c
		else
			f=$([ $((i / 3 % 2)) = 0 ] || echo -i)
			same_as_grep1 u "$e" "$f" "${o3[i % 3]}"
		fi
		i=$((i + 1))
	done
	# an invalid byte is no character of a class, of . or of [^...]
	run agrep-gpu -c -E 'd[^a]b|d.b|d\Wb' u
	assert_output 0
	# byte mode: the classes are ASCII there
	run agrep-gpu -c 'caf[[:alpha:]]' u
	assert_output 1
	run agrep-gpu --bytes -c 'caf[[:alpha:]]' u
	assert_output 0
}

@test "UTF-8 mode: \\< \\> \\b \\B and -w take the locale's word characters, as grep" {
	local e f o w i=0 fq full=
	u8_classes_text v valid
	export LC_ALL=C.UTF-8
	# full: each expression with and without -i, with -n and -o -n, and
	# each word with and without -i.  quick: the i-th expression (from 0)
	# with one of the four, (-i or not) x (-n, -o -n) numbered 0-3, the
	# (i % 4)-th (each of the four over 5 or 6 expressions); the i-th
	# word (from 1) with -i when i is even (ΚΑΛΗΜΈΡΑ among them), else
	# without, and as -w when (i / 2) % 2 = 0, else as \<word\> (each
	# form with -i and without)
	[ "$(depth quick full)" = quick ] || full=1
	local -a o2=(-n "-o -n")
	for e in '\<' '\>' '\b' '\B' '\<\w' '\w\>' '\bx' '\B.' '.\b' 'x\b' '\<[[:alpha:]]+\>' \
	    '\W\w' '\<café\>' '\<é' 'é\>' '\<caf' 'мир\>' '\<日' '\Bb' 'a\B' '\w+\b'; do
		if [ -n "$full" ]; then
			same_as_grep v "$e" -n "-o -n"
		else
			o=$((i % 4))
			same_as_grep1 v "$e" "$([ "$o" -lt 2 ] || echo -i)" "${o2[o % 2]}"
		fi
		i=$((i + 1))
	done
	i=0
	for w in é x a caf b мир ΑΒΓ 日本語 123 _ case_é ΚΑΛΗΜΈΡΑ; do
		i=$((i + 1)) fq=
		[ $((i % 2)) = 1 ] || fq=-i
		for f in "" -i; do
			[ -n "$full" ] || [ "$f" = "$fq" ] || continue
			if [ -n "$full" ] || [ $((i / 2 % 2)) = 0 ]; then
				run agrep-gpu -k0 -n -w $f "$w" v
				assert_output "$(grep -a -n -w $f "$w" v)"
			fi
			[ -n "$full" ] || [ $((i / 2 % 2)) = 1 ] || continue
			run agrep-gpu -k0 -n -E $f "\\<$w\\>" v
			assert_output "$(grep -a -n -w $f "$w" v)"
		done
	done
	# an invalid byte is not a word character, for -w as for \< and \>
	# (grep's -w says so too; its \< \> read the byte as a Latin-1
	# character: \xff is y with diaeresis, a letter)
	printf 'bad\xffbyte\nbad\xc2byte x\n' > iv
	run agrep-gpu -c '\<byte\>' iv
	assert_output 2
	run agrep-gpu -c -w byte iv
	assert_output 2
	run agrep-gpu -c -E 'd\B|\Bb' iv
	assert_output 0
	run agrep-gpu -c -E $'d\\>\xff\\<b' iv
	assert_output 1
	run agrep-gpu -c -E 'd\>\W\<b|d\>.\<b' iv
	assert_output 0
	# the symbols of a pattern's characters are the class's even when
	# another pattern names them
	printf 'caf\xc3\xa9\n' > c
	run agrep-gpu -c -e 'caf\w' -e 'é' c
	assert_output 1
	run agrep-gpu -c -e 'é' -e 'caf\w\>' c
	assert_output 1
}

@test "UTF-8 mode: classes and word assertions with errors: lines, --show-cost and -x as the oracle over characters" {
	local e k n=0 ei=0 ks k0 full=
	u8_classes_text u
	export LC_ALL=C.UTF-8
	# full: every expression at every k, its lines, --show-cost and -x;
	# quick: the i-th (from 0) at k = i % 3, its lines, and --show-cost
	# when i % 4 = 0, -x when i % 4 = 2 (each k meets the three)
	[ "$(depth quick full)" = quick ] || full=1
	for e in '[[:alpha:]]+e' 'caf\w' '\<caf' 'é\>' '[[:upper:]][[:lower:]]' '\w\W\w' \
	    'a[[:space:]]b' '[[:punct:]]x' '[^[:alpha:]]+a' 'é[[:alnum:]]' '(\w|[[:punct:]])e' \
	    'a\sb' '\bx' 'b\B' '\<[[:alpha:]]+\>' 'x[[:digit:]]' '[[:cntrl:]]b' '[[:blank:]]b' \
	    'a[[:graph:]]b' '[[:print:]]{3}' 'Κ[[:lower:]]+' 'мир\>' '\<日' 'te\w' 'a.b' \
	    '[^é]t' '\S\s\S' '[[:xdigit:]]+'; do
		# (the sanitizer build: two k an expression, in turn; CI's time)
		ks="0 1 2" k0=$((ei % 3))
		! slow_build || ks="$k0 $(((ei + 1) % 3))"
		[ -n "$full" ] || ks=$k0
		ei=$((ei + 1))
		for k in $ks; do
			n=$((n + 1))
			# (-a: u holds invalid bytes, binary when printed)
			run agrep-gpu -a -E -k$k "$e" u
			assert_output "$(reoracle -u -k$k "$e" u)"
			if [ -n "$full" ] || [ $((ei % 4)) = 1 ]; then
				run agrep-gpu -a -E -k$k --show-cost "$e" u
				assert_output "$(reoracle -u -s -k$k "$e" u)"
			fi
			if [ -n "$full" ] || [ $((ei % 4)) = 3 ]; then
				run agrep-gpu -a -E -k$k -x "$e" u
				assert_output "$(reoracle -u -x -k$k "$e" u)"
			fi
		done
	done
	echo "# $n cases" >&3
}

@test "UTF-8 mode: classes on the device (POCL): the host's output byte for byte" {
	case $AGREP_GPU in */san/*) skip "POCL under the sanitizers: not run" ;; esac
	local e k f dev="AGREP_GPU_DEVICE=${AGREP_GPU_DEVICE:-cpu} AGREP_GPU_HOST_MAX=0"
	u8_classes_text u
	export LC_ALL=C.UTF-8
	# classes in PEq tables (Myers), and in the automaton kernel.
	# full: each expression at every k with every option; quick: the
	# i-th (from 0) with option i % 4 at k = i % 3 (each option at two or
	# three k, each k with three or four options; a POCL start-up is most
	# of a run's time)
	local ei=0 fx
	for e in '[[:alpha:]]+e' 'caf\w' '[[:upper:]][[:lower:]]' '\w\W\w' 'a[[:space:]]b' \
	    '[[:punct:]]x' '[^[:alpha:]]+' 'é[[:alnum:]]' '(\w|[[:punct:]])e' 'a\sb'; do
		ei=$((ei + 1))
		for k in 0 1 2; do
			fx=0
			for f in "" -i -c -o; do
				fx=$((fx + 1))
				[ "$(depth quick full)" = full ] ||
				    { [ $(((ei - 1) % 4 + 1)) = "$fx" ] && [ $(((ei - 1) % 3)) = "$k" ]; } || continue
				AGREP_GPU_DEVICE=host agrep-gpu -E -n $f -k$k "$e" u > host || true
				env $dev agrep-gpu -E -n $f -k$k "$e" u > got || true
				cmp host got || { echo "-k$k $f '$e'"; diff host got | head; return 1; }
			done
		done
	done
	env $dev AGREP_GPU_STATS=1 agrep-gpu -E -c -k1 '[[:alpha:]]+e' u 2> err
	grep -q automaton err
}
