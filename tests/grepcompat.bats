#!/usr/bin/env bats
# Defects a hunt against GNU grep 3.8 and oracles found (2026-12-07), each
# a case that failed before its fix: -i with negated brackets, -o at k = 0
# with expressions (grep's leftmost-longest parts), --best-match with
# context and -o, -v context after a record left out for an encoding
# error, -NUM after an abbreviated long option, --exclude-from, and -o on a
# long line in a UTF-8 locale (each part converted the whole line again),
# a directory operand without -r (-c and -L count it, as grep); and from a
# later hunt (thirteenth session): -E intervals ({}, {1,2,3}: invalid
# content) and the -- after a binary file that matched.
bats_require_minimum_version 1.5.0
load test_helper

setup() {
	cd "$BATS_TEST_TMPDIR"
}

@test "-i folds a negated bracket before it is complemented, as grep" {
	printf 'ab\nxb\nAb\nxA\nx1\n' > t
	for loc in C C.UTF-8; do
		for e in '[^a]b' 'x[^a]' '[^a-c]b' '[^[:lower:]]' '[^[:upper:]x]'; do
			run env LC_ALL=$loc agrep-gpu -i -n "$e" t
			assert_output "$(LC_ALL=$loc grep -i -n "$e" t)"
		done
	done
	# with errors: [^a] takes neither a nor A
	printf 'ab\n' > u
	run -1 agrep-gpu -i -c -k0 '[^a]b' u
	assert_output 0
}

@test "-o and --color at k = 0 with expressions: grep's leftmost-longest parts" {
	printf 'xbb\nbcx\nxacc\nabcabc\n' > t
	for args in "-e c* -e bb" "-e ^bc -e b" "-e b?(b+cab)|([ab]b?c)?b?c" \
	    "-e a|ab|abc" "-e (a|b)+ -e c"; do
		# shellcheck disable=SC2086
		run agrep-gpu -o -E $args t
		# shellcheck disable=SC2086
		assert_output "$(grep -o -E $args t)"
		# shellcheck disable=SC2086
		run agrep-gpu --color=always -E $args t
		# shellcheck disable=SC2086
		assert_output "$(grep --color=always -E $args t)"
	done
}

@test "--best-match: costlier records are context, and -o parts of the best cost" {
	printf 'hello\nhelo\nxx\nhallo\nyy\n' > t
	run agrep-gpu --best-match -n -A1 hello t
	assert_output "$(printf '1:hello\n2-helo')"
	run agrep-gpu --best-match -A1 -n -k1 hallo t
	assert_output "$(printf '4:hallo\n5-yy')"
	printf 'hallx\nhallo\n' > u
	run agrep-gpu --best-match -B1 -k1 hallo u
	assert_output "$(printf 'hallx\nhallo')"
	printf 'hello\nhelo\n' > v
	run agrep-gpu --best-match -o -b hel v
	assert_output "$(printf '0:hel\n6:hel')"
}

@test "-v with context: no -- inside a run after a record left out (UTF-8 encoding error)" {
	printf 'x\377\ny\n' > t
	run env LC_ALL=C.UTF-8 sh -c 'agrep-gpu -v -A0 a t 2>/dev/null'
	assert_output "$(LC_ALL=C.UTF-8 grep -v -A0 a t 2>/dev/null)"
}

@test "-NUM after an abbreviated long option that takes an argument is its argument" {
	printf 'a-5b\nab\n' > t
	run agrep-gpu --regex -5 t
	assert_output 'a-5b'
	run agrep-gpu --regexp=-5 t
	assert_output 'a-5b'
	run agrep-gpu -e ab -2 t
	assert_output "$(printf 'a-5b\nab')"
}

@test "--exclude-from=FILE skips the files matching its globs, as grep" {
	mkdir -p d/sub
	echo hello > d/a.c
	echo hello > d/b.h
	echo hello > d/sub/c.txt
	printf '*.h\n*.txt\n' > globs
	run agrep-gpu -r --exclude-from=globs hello d
	assert_output "$(grep -r --exclude-from=globs hello d | sort)"
	run -2 agrep-gpu -r --exclude-from=nonesuch hello d
	assert_output --partial 'nonesuch'
}

@test "-o, --color and --json on a long line in a UTF-8 locale: each part in its place, quickly" {
	# (200,000 parts of a 1 MB line took 8 minutes: the line was turned
	# into symbols again for each part)
	awk 'BEGIN { for (i = 0; i < 200000; i++) printf "ab12 "; print "" }' > t
	run env LC_ALL=C.UTF-8 timeout 60 agrep-gpu -o -E '[0-9]+' t
	assert_success
	[ "${#lines[@]}" -eq 200000 ]
	run env LC_ALL=C.UTF-8 timeout 60 agrep-gpu -o -k1 -c ab12 t
	assert_output 1
	run env LC_ALL=C.UTF-8 sh -c "timeout 60 agrep-gpu -o -k1 -b 'ab12' t | tail -1"
	assert_output '999995:ab12'
	printf 'caf\303\251 x caf\303\251 y cafe\n' > u
	run env LC_ALL=C.UTF-8 agrep-gpu -o -b -k1 "$(printf 'caf\303\251')" u
	assert_output "$(printf '0:caf\303\251\n8:caf\303\251\n16:caf')"
}

@test "-r with a directory named with trailing slashes: one slash in the names, as grep" {
	mkdir -p sub/x
	echo hello > sub/b.c
	echo hello > sub/x/c
	for d in sub sub/ sub// sub/// ./sub//; do
		run agrep-gpu -r hello "$d"
		assert_output "$(grep -r hello "$d" | sort)"
	done
}

@test "a directory named without -r: 'Is a directory', and -c, -L count it as an input without lines, as grep" {
	mkdir sub
	echo hello > a
	for args in "-c hello a sub" "-c hello sub a" "-L hello a sub" "-l hello a sub" \
	    "hello sub" "-s -c hello sub" "-q hello sub a" "-d skip -c hello sub a" \
	    "-c -v hello sub"; do
		local rc=0 grc=0
		# shellcheck disable=SC2086
		agrep-gpu $args > out 2> err || rc=$?
		# shellcheck disable=SC2086
		grep $args > gout 2> gerr || grc=$?
		[ "$rc" = "$grc" ] || { echo "$args: exit $rc, grep $grc"; false; }
		cmp out gout || { echo "$args:"; cat out gout; false; }
		sed 's/^grep:/agrep-gpu:/' gerr | cmp - err
		# the same through --decompress (a directory is not decoded)
		rc=0
		# shellcheck disable=SC2086
		agrep-gpu --decompress $args > out 2> err || rc=$?
		[ "$rc" = "$grc" ] || { echo "--decompress $args: exit $rc, grep $grc"; false; }
		cmp out gout || { echo "--decompress $args:"; cat out gout; false; }
	done
}

@test "-E intervals: {} and a third field are invalid content, a field of other characters a literal brace, lenient where nothing is repeated, as grep -E" {
	printf 'xa{}aa{1}a{b\nab{\naa\n{}\n}}\n{2,1}x\n' > t
	local e rc grc
	for e in '{2,1}' '{1,2,3}' '{}' '{,}' '{1}' '({})' 'a|{}' '^{}' '({2,1})' \
	    'a|{1,2,3}' '(*{})' '(){}' '(){1,2,3}' '^*{}' 'a{' 'a{1' 'a{1,' 'a{}' \
	    'a{,}' 'a{,2}' 'a{x}' 'a{1,2,3}' 'a{2,1}' 'a{1}b' 'a{,,' 'a{1a}' 'a{ 1}' \
	    'a{1}{2}' 'a*{2}' 'a{1,,}' 'a{,1,}' 'a{1,x}' 'a{1,x,}' 'a{,x}' 'a{1,2' \
	    'a{0}' 'a{2,}' 'x{1}}' 'a{01}' '(ab){2}' 'a{1,2,x}' 'a{x,1,}' 'a{}}' \
	    'a{1}{' '[{]{2}' 'a*{}' 'a+{1,2,3}' '^{2,1}' '^+{}' 'a^{}' '$^{}' \
	    '(^{})' 'a|^{1,2,3}' 'a${}' '\<{}' 'a\b{2,1}'; do
		rc=0 grc=0
		agrep-gpu -E -n -- "$e" t > out 2> err || rc=$?
		grep -E -n -- "$e" t > gout 2> gerr || grc=$?
		[ "$rc" = "$grc" ] || { echo "-E '$e': exit $rc, grep $grc: $(cat err)"; false; }
		cmp out gout || { echo "-E '$e':"; cat out gout; false; }
		grep -v warning gerr | sed 's/^grep:/agrep-gpu:/' | cmp - err
	done
}

@test "a binary file that matched counts as output for the -- before the next file's group, as grep" {
	printf 'x\0\n' > f0
	printf 'x\n' > f1
	printf 'y\0\n' > f2
	local args rc grc
	for args in "-A1 x f0 f1" "-A0 x f0 f1" "-B1 x f0 f0 f1" "-A1 -o x f0 f1" \
	    "-A1 -h x f0 f1 f0 f1" "-C1 -m1 x f0 f1" "-A1 x f2 f1" "-A1 x f1 f0 f1" \
	    "-A1 -a x f0 f1" "-A1 --binary-files=without-match x f0 f1"; do
		rc=0 grc=0
		# shellcheck disable=SC2086
		agrep-gpu $args > out 2> err || rc=$?
		# shellcheck disable=SC2086
		grep $args > gout 2> gerr || grc=$?
		[ "$rc" = "$grc" ] || { echo "$args: exit $rc, grep $grc"; false; }
		cmp out gout || { echo "$args:"; od -c out; od -c gout; false; }
		sed 's/^grep:/agrep-gpu:/' gerr | cmp - err
	done
}

@test "invalid expressions: each one reported, a line of -f named by FILE:LINE, as grep" {
	printf 'ok\na\\{1\nb\\{1\n' > pats
	printf 'x\n' > t
	run -2 agrep-gpu -f pats t
	assert_line --index 0 "agrep-gpu: pats:2: Unmatched \\{"
	assert_line --index 1 "agrep-gpu: pats:3: Unmatched \\{"
	assert_equal "${#lines[@]}" 2
	# -e: no name, still each one; the operand as -e
	run -2 agrep-gpu -e 'a\{1' -e ok -e 'b\(' t
	assert_line --index 0 "agrep-gpu: Unmatched \\{"
	assert_line --index 1 "agrep-gpu: Unmatched ( or \\("
	assert_equal "${#lines[@]}" 2
	# the lines of a -f after -e and a pattern of two lines: numbered in
	# their file; the same with errors allowed and both strands (--dna
	# patterns with a bracket left open)
	run -2 agrep-gpu -E -e 'x(' -f pats -e 'y
(z' t
	assert_output "agrep-gpu: Unmatched ( or \\(
agrep-gpu: Unmatched ( or \\("
	printf 'ACGT\nAC[GT\n' > dna
	run -2 agrep-gpu -k1 --dna --strand=+ -f dna t
	assert_output "agrep-gpu: dna:2: Unmatched [, [^, [:, [., or [="
	# grep names the lines the same way
	run grep -f pats t
	assert_line --index 0 --partial "pats:2: "
}

@test "a binary file's NULs end lines, as grep's: -c, -v, -x, anchors, -w, and matches that would span one; on the host, through the device and from a pipe" {
	# a NUL in the first line; then the Bible's start with NULs for some
	# spaces and line ends after 100 KB (chunks of 4 KB on POCL: the device
	# counts with a NUL flag and the host scans such ranges again).  Under
	# the sanitizers (every run on POCL) a few cases: each run costs a
	# second there.
	command -v bible > /dev/null || skip "bible-kjv missing: make deps"
	printf 'foo\0bar\nbaz\n' > small
	bible "Gen1:1-Exo40:38" | head -c 300000 | perl -pe 'BEGIN { srand(5) } if ($. > 2700) { s/ the / the\0/ if rand() < 0.02; s/\n/\0/ if rand() < 0.01 }' > big
	[ "$(tr -cd '\0' < big | wc -c)" -gt 20 ]
	tr '\0' '\n' < big > zapped
	# full (AGREP_GPU_TESTS=full): every file and option set in the three
	# settings and from a pipe; quick: each by turns, -j1 and the pipe
	# where the places of file and option set add up to an odd number, the
	# host's default and the device where even: each option set meets the
	# three settings and the pipe over the two files
	local f a cfg rc grc opts cfgs ks fx=0 ax cx full=0
	[ "$(depth quick full slow)" = quick ] || full=1
	if [ "$(depth quick full slow)" = slow ]; then
		opts=("-c -x bar" "-c -v foo" "-c -v LORD" "-c ^And" "-c -w the")
		cfgs=("--device=cpu")
		ks=("-c -v -k1 mercy")
	else
		opts=("-c bar" "-c -x bar" "-c ^bar" "-c -v foo" "-c LORD" "-c -v LORD" "-c -x And" "-c ^And" "-c LORD\$" "-c -w the" "-l LORD" "-q bar" "-c -E ^(And|But)" "-c -F -e foo -e LORD")
		cfgs=("--device=host -j1" "--device=host" "--device=cpu")
		ks=("-c -k1 LORD" "-c -k2 -x LORD" "-c -v -k1 mercy" "-c -k1 -w thee")
	fi
	for f in small big; do
		fx=$((fx + 1)) ax=0
		for a in "${opts[@]}"; do
			ax=$((ax + 1)) cx=0
			for cfg in "${cfgs[@]}"; do
				cx=$((cx + 1))
				((full || (cx == 1) == ((fx + ax) % 2 == 1))) || continue
				rc=0 grc=0
				# shellcheck disable=SC2086
				AGREP_GPU_HOST_MAX=0 AGREP_GPU_SLICE=64 AGREP_GPU_CHUNK=4096 agrep-gpu $cfg $a $f > out 2> err || rc=$?
				# shellcheck disable=SC2086
				grep $a $f > gout 2> gerr || grc=$?
				[ "$rc" = "$grc" ] || { echo "$cfg $a $f: exit $rc, grep $grc"; false; }
				cmp out gout || { echo "$cfg $a $f:"; cat out gout; false; }
			done
			[ "${#cfgs[@]}" -gt 1 ] || continue
			((full || (fx + ax) % 2 == 1)) || continue
			# shellcheck disable=SC2086
			cat $f | agrep-gpu $a > out 2>&1 || true
			# shellcheck disable=SC2086
			cat $f | grep $a > gout 2>&1 || true
			sed 's/^grep:/agrep-gpu:/' gout | cmp - out
		done
	done
	# with errors: the counts of the file with its NULs as line ends
	for a in "${ks[@]}"; do
		# shellcheck disable=SC2086
		want=$(agrep-gpu -a $a zapped || true)
		for cfg in "${cfgs[@]}"; do
			# shellcheck disable=SC2086
			run env AGREP_GPU_HOST_MAX=0 AGREP_GPU_CHUNK=4096 agrep-gpu $cfg $a big
			assert_output "$want"
		done
	done
	# -a and -z keep NULs as bytes
	run agrep-gpu -a -c -x bar small
	assert_output 0
	run agrep-gpu -c -k1 'foo bar' small
	assert_output 0
	run agrep-gpu -a -c -k1 'foo bar' small
	assert_output 1
}
