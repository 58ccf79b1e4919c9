#!/usr/bin/env bats
# Basic matching: error counts, edit kinds, pattern sources, case folding,
# option letters that are accepted or refused, line terminators.

load test_helper
bats_require_minimum_version 1.5.0

setup() {
	cd "$BATS_TEST_TMPDIR" || return
	# Edits of "abcdef": exact, substitution, insertion, deletion, far off.
	printf 'abcdef\nabxdef\nabcxdef\nabdef\nzzzzzz\n\n' > edits
}

@test "k=0 selects only exact occurrences, as grep -F" {
	run -0 agrep-gpu abcdef edits
	assert_output "$(grep -F abcdef edits)"
	assert_output abcdef
}

@test "a substitution is found with -k 1" {
	run -0 agrep-gpu -k 1 abxdef edits
	assert_line --index 0 abcdef
	assert_line abxdef
	refute_line zzzzzz
}

@test "an insertion is found with -k 1" {
	printf 'abcXdef\nabcXYdef\n' > f
	run -0 agrep-gpu -k 1 abcdef f
	assert_output abcXdef
}

@test "a deletion is found with -k 1" {
	printf 'abdef\nadef\n' > f
	run -0 agrep-gpu -k 1 abcdef f
	assert_output abdef
}

@test "-k NUM, -kNUM, --max-errors=NUM, --max-errors NUM and -NUM are the same" {
	run -0 agrep-gpu -k 1 abcdef edits
	local want="$output"
	assert_equal "$want" "$(printf 'abcdef\nabxdef\nabcxdef\nabdef')"
	for form in -k1 --max-errors=1 "--max-errors 1" -1; do
		# shellcheck disable=SC2086
		run -0 agrep-gpu $form abcdef edits
		assert_output "$want"
	done
}

@test "-2 allows two errors" {
	printf 'abXdeY\nXbXdeY\n' > f
	run -0 agrep-gpu -2 abcdef f
	assert_output abXdeY
	run -1 agrep-gpu -1 abcdef f
	assert_output ''
}

@test "-10 means ten errors, not -1 then -0" {
	# "ab" is "abcdefghijkl" with 10 deletions: distance 10.
	printf 'ab\nzz\n' > f
	run -0 agrep-gpu -10 abcdefghijkl f
	assert_output ab
	run -1 agrep-gpu -9 abcdefghijkl f
	run -1 agrep-gpu -0 abcdefghijkl f
}

@test "-0 means exact matching" {
	run -0 agrep-gpu -0 abcdef edits
	assert_output abcdef
}

@test "a negative or non-numeric error count is an error (exit 2)" {
	run -2 --separate-stderr agrep-gpu -k x abc edits
	assert_output ''
	[ -n "$stderr" ]
	run -2 --separate-stderr agrep-gpu --max-errors=-1 abc edits
	assert_output ''
	[ -n "$stderr" ]
}

@test "k equal to the pattern length selects every line, the empty one too" {
	run -0 agrep-gpu -k 3 abc edits
	assert_output "$(cat edits)"
	assert_equal "${#lines[@]}" 5   # bats drops the empty line from lines[]
	run -0 agrep-gpu -c -k 3 abc edits
	assert_output 6
}

@test "k greater than the pattern length selects every line" {
	run -0 agrep-gpu -c -k 9 abc edits
	assert_output 6
	run -1 agrep-gpu -v -k 9 abc edits
	assert_output ''
}

@test "k one less than the pattern length does not select every line" {
	run -0 agrep-gpu -c -k 2 abc edits
	assert_output 4   # abcdef abxdef abcxdef abdef; not zzzzzz or the empty line
}

@test "an empty pattern (-e '') selects every line" {
	run -0 agrep-gpu -c -e '' edits
	assert_output 6
	run -0 agrep-gpu -e '' edits
	assert_output "$(grep -e '' edits)"
}

@test "an empty positional pattern selects every line" {
	run -0 agrep-gpu '' edits
	assert_output "$(cat edits)"
}

@test "-e takes a pattern that starts with '-'" {
	printf 'a -v b\nplain\n-x\n' > f
	run -0 agrep-gpu -e -v f
	assert_output 'a -v b'
	run -0 agrep-gpu -e -x f
	assert_output -- -x
}

@test "several -e select lines matching any of them" {
	run -0 agrep-gpu -e zzzzzz -e abdef edits
	assert_output "$(grep -F -e zzzzzz -e abdef edits)"
	assert_output "$(printf 'abdef\nzzzzzz')"
}

@test "-e patterns all get the same error count" {
	printf 'abXdef\nzzzzzY\nnone\n' > f
	run -0 agrep-gpu -k 1 -e abcdef -e zzzzzz f
	assert_output "$(printf 'abXdef\nzzzzzY')"
}

@test "a pattern containing a newline is two patterns" {
	run -0 agrep-gpu "$(printf 'zzzzzz\nabdef')" edits
	assert_output "$(printf 'abdef\nzzzzzz')"
	assert_output "$(grep -F "$(printf 'zzzzzz\nabdef')" edits)"
	run -0 agrep-gpu -e "$(printf 'zzzzzz\nabdef')" edits
	assert_output "$(printf 'abdef\nzzzzzz')"
}

@test "-f FILE reads one pattern per line" {
	printf 'zzzzzz\nabdef\n' > pats
	run -0 agrep-gpu -f pats edits
	assert_output "$(grep -F -f pats edits)"
	assert_output "$(printf 'abdef\nzzzzzz')"
	run -0 agrep-gpu --file=pats edits
	assert_output "$(printf 'abdef\nzzzzzz')"
}

@test "-f FILE without a final newline still reads its last pattern" {
	printf 'zzzzzz\nabdef' > pats
	run -0 agrep-gpu -f pats edits
	assert_output "$(printf 'abdef\nzzzzzz')"
}

@test "-f FILE and -e combine" {
	printf 'zzzzzz\n' > pats
	run -0 agrep-gpu -f pats -e abdef edits
	assert_output "$(printf 'abdef\nzzzzzz')"
}

@test "-f of an empty file selects nothing (exit 1)" {
	: > pats
	run -1 agrep-gpu -f pats edits
	assert_output ''
	run -1 grep -F -f pats edits
}

@test "-f of a file holding an empty line selects every line" {
	printf 'nomatch\n\n' > pats
	run -0 agrep-gpu -c -f pats edits
	assert_output 6
}

@test "-f of a missing file is an error (exit 2)" {
	run -2 --separate-stderr agrep-gpu -f nosuch edits
	assert_output ''
	assert_regex "$stderr" 'nosuch'
}

@test "-i folds ASCII case" {
	printf 'ABCDEF\nAbCdEf\nabcdef\nxyz\n' > f
	run -0 agrep-gpu -i abcdef f
	assert_output "$(grep -F -i abcdef f)"
	run -0 agrep-gpu -i ABCDEF f
	assert_output "$(printf 'ABCDEF\nAbCdEf\nabcdef')"
	run -0 agrep-gpu --ignore-case aBcDeF f
	assert_equal "${#lines[@]}" 3
	run -0 agrep-gpu -y abcdef f
	assert_equal "${#lines[@]}" 3
}

@test "-i with errors: case differences are not errors" {
	printf 'ABXDEF\nxyz\n' > f
	run -0 agrep-gpu -i -k 1 abcdef f
	assert_output ABXDEF
	run -1 agrep-gpu -k 1 abcdef f
}

@test "without -i case matters" {
	printf 'ABCDEF\n' > f
	run -1 agrep-gpu abcdef f
	assert_output ''
}

@test "--no-ignore-case undoes an earlier -i" {
	printf 'ABCDEF\nabcdef\n' > f
	run -0 agrep-gpu -i --no-ignore-case abcdef f
	assert_output abcdef
	assert_output "$(grep -F -i --no-ignore-case abcdef f)"
}

@test "-F and --fixed-strings are accepted" {
	printf 'a.c\nabc\n' > f
	run -0 agrep-gpu -F a.c f
	assert_output a.c
	run -0 agrep-gpu --fixed-strings a.c f
	assert_output a.c
}

@test "with -F patterns are literal bytes, not regular expressions" {
	printf 'a.c\nabc\n[x]\nx\n' > f
	run -0 agrep-gpu -F a.c f
	assert_output a.c
	run -0 agrep-gpu -F '[x]' f
	assert_output '[x]'
	# without -F they are basic expressions, as in grep
	run -0 agrep-gpu a.c f
	assert_output "$(grep a.c f)"
	run -0 agrep-gpu '[x]' f
	assert_output "$(grep '[x]' f)"
}

@test "-P is refused with exit 2 and a message on stderr" {
	for opt in -P --perl-regexp; do
		run -2 --separate-stderr agrep-gpu "$opt" abc edits
		assert_output ''
		assert_regex "$stderr" 'Perl regular expressions .* not supported'
	done
}

@test "an unterminated last line is printed with a newline" {
	printf 'xx\nabc' > f
	run -0 bash -c 'agrep-gpu abc f | od -An -c'
	assert_output "$(printf 'abc' | grep abc | od -An -c)"
	assert_output "$(printf 'abc\n' | od -An -c)"
}

@test "an unterminated last line is a line (k >= length, -c, -v)" {
	printf 'one\ntwo' > f
	run -0 agrep-gpu -c -k 5 abc f
	assert_output 2
	run -0 agrep-gpu -v zzz f
	assert_output "$(printf 'one\ntwo')"
}

@test "CRLF: the CR is part of the line and kept in the output" {
	printf 'abc\r\nxyz\r\n' > f
	run -0 bash -c 'agrep-gpu abc f | od -An -c'
	assert_output "$(grep -F abc f | od -An -c)"
	assert_output "$(printf 'abc\r\n' | od -An -c)"
}

@test "CRLF: the CR is a byte a pattern can match or miss" {
	printf 'abc\r\n' > f
	# 'abc\r' matches exactly; 'abcd' needs one substitution of the CR.
	run -0 agrep-gpu "$(printf 'abc\r')" f
	run -1 agrep-gpu abcd f
	run -0 agrep-gpu -k 1 abcd f
}

@test "a match never spans a line break" {
	printf 'ab\ncd\n' > f
	run -1 agrep-gpu abcd f
	assert_output ''
	run -1 agrep-gpu -k 1 abcd f
	assert_output ''
}

@test "the OpenCL device and the host matcher agree on these cases" {
	printf 'abcdef\nabxdef\nabcxdef\nabdef\nzzzzzz\n\nABCDEF\r\nab\nlast abc' > f
	local args
	for args in "-k3 abc" "-e ''" "-k1 abcdef" "-i abcdef" "-10 abcdefghijkl" \
	    "-k2 abc" "-v -k1 abcdef" "-c -k1 -i ABCDEF" "-n -b abc" \
	    "-e zzzzzz -e abdef" "-k1 abc$'\\r'"; do
		run -0 bash -c "set -o pipefail; agrep-gpu --device=host $args f | od -An -c"
		local want="$output"
		run -0 bash -c "set -o pipefail; AGREP_GPU_HOST_MAX=0 agrep-gpu $args f 2>&1 | od -An -c"
		assert_equal "$output" "$want"
	done
}
