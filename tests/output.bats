#!/usr/bin/env bats
# Output control: what is printed for the selected lines, and the exit status.
# Where k=0, GNU grep -F is the reference.

load test_helper
bats_require_minimum_version 1.5.0

setup() {
	cd "$BATS_TEST_TMPDIR" || return
	printf 'one abc\ntwo\nthree abc\nfour\n' > a
	printf 'x\ny\n' > b
	printf 'abc\n' > c
}

# same_as_grep ARGS...: agrep-gpu and grep -F print the same bytes on stdout
# and exit with the same status.
same_as_grep() {
	run bash -c 'grep -F "$@" 2>/dev/null | od -An -c; exit "${PIPESTATUS[0]}"' _ "$@"
	local want="$output" want_rc="$status"
	run bash -c 'agrep-gpu "$@" 2>/dev/null | od -An -c; exit "${PIPESTATUS[0]}"' _ "$@"
	assert_equal "$output" "$want"
	assert_equal "$status" "$want_rc"
}

@test "-v prints the lines that do not match" {
	run -0 agrep-gpu -v abc a
	assert_output "$(printf 'two\nfour')"
	same_as_grep -v abc a b c
	run -0 agrep-gpu --invert-match abc a
	assert_output "$(printf 'two\nfour')"
}

@test "-v with errors prints lines farther than k from the pattern" {
	printf 'abcdef\nabXdef\nXXXdef\n' > f
	run -0 agrep-gpu -v -k 1 abcdef f
	assert_output XXXdef
}

@test "-v selecting nothing exits 1" {
	run -1 agrep-gpu -v abc c
	assert_output ''
}

@test "-c prints the number of selected lines" {
	run -0 agrep-gpu -c abc a
	assert_output 2
	run -0 agrep-gpu --count abc a
	assert_output 2
	same_as_grep -c abc a
}

@test "-c with no selected line prints 0 and exits 1" {
	run -1 agrep-gpu -c abc b
	assert_output 0
	same_as_grep -c abc b
}

@test "-c with -v counts the lines that do not match" {
	run -0 agrep-gpu -c -v abc a
	assert_output 2
	same_as_grep -cv abc a b c
}

@test "-c with several files prints name:count for each" {
	run -0 agrep-gpu -c abc a b c
	assert_output "$(printf 'a:2\nb:0\nc:1')"
	same_as_grep -c abc a b c
}

@test "-l prints the names of files with a selected line" {
	run -0 agrep-gpu -l abc a b c
	assert_output "$(printf 'a\nc')"
	same_as_grep -l abc a b c
	run -0 agrep-gpu --files-with-matches abc a b c
	assert_output "$(printf 'a\nc')"
}

@test "-l with no selected line exits 1" {
	run -1 agrep-gpu -l abc b
	assert_output ''
}

@test "-L prints the names of files without a selected line" {
	run -0 agrep-gpu -L abc a b c
	assert_output b
	same_as_grep -L abc a b c
	run -0 agrep-gpu --files-without-match abc a b c
	assert_output b
}

@test "-L exits 0 iff some line matched (GNU grep 3.8)" {
	# b has no match: its name is printed, but no line matched: exit 1.
	run -1 agrep-gpu -L abc b
	assert_output b
	same_as_grep -L abc b
	# a has a match: nothing printed, exit 0.
	run -0 agrep-gpu -L abc a
	assert_output ''
	same_as_grep -L abc a
	same_as_grep -L abc a b
}

@test "-n prefixes the line number" {
	run -0 agrep-gpu -n abc a
	assert_output "$(printf '1:one abc\n3:three abc')"
	same_as_grep -n abc a b c
	same_as_grep --line-number -v abc a
}

@test "-b prefixes the byte offset of the line" {
	run -0 agrep-gpu -b abc a
	assert_output "$(printf '0:one abc\n12:three abc')"
	same_as_grep -b abc a b c
	same_as_grep --byte-offset -v abc a
}

@test "-H prefixes the file name even for one file" {
	run -0 agrep-gpu -H abc c
	assert_output c:abc
	same_as_grep -H abc c
	run -0 agrep-gpu --with-filename abc c
	assert_output c:abc
}

@test "-h drops the file name even for several files" {
	run -0 agrep-gpu -h abc a c
	assert_output "$(printf 'one abc\nthree abc\nabc')"
	same_as_grep -h abc a b c
	run -0 agrep-gpu --no-filename abc a c
	assert_line --index 2 abc
}

@test "-n -b -H together print file:line:byte:" {
	run -0 agrep-gpu -n -b -H abc a
	assert_output "$(printf 'a:1:0:one abc\na:3:12:three abc')"
	same_as_grep -nbH abc a b c
	same_as_grep -H -b -n abc a
}

@test "--label names standard input" {
	run -0 agrep-gpu --label=foo -H abc < a
	assert_output "$(printf 'foo:one abc\nfoo:three abc')"
	run -0 agrep-gpu --label=foo -c abc c - < a
	assert_output "$(printf 'c:1\nfoo:2')"
	run bash -c 'grep -F --label=foo -c abc c - < a'
	assert_output "$(printf 'c:1\nfoo:2')"
}

@test "standard input is named (standard input) without --label" {
	run -0 agrep-gpu -H abc < c
	assert_output '(standard input):abc'
}

@test "-q prints nothing and exits 0 when a line matches" {
	run -0 --separate-stderr agrep-gpu -q abc a b
	assert_output ''
	assert_equal "$stderr" ''
	run -0 agrep-gpu --quiet abc a
	assert_output ''
	run -0 agrep-gpu --silent abc a
	assert_output ''
}

@test "-q exits 1 when nothing matches" {
	run -1 agrep-gpu -q abc b
	assert_output ''
}

@test "-q with a match exits 0 even if a file is missing" {
	run -0 agrep-gpu -q abc nosuch a
	same_as_grep -q abc nosuch a
	same_as_grep -q abc a nosuch
}

@test "-s suppresses messages about missing files but still exits 2" {
	run -2 --separate-stderr agrep-gpu -s abc nosuch a
	assert_output "$(printf 'a:one abc\na:three abc')"
	assert_equal "$stderr" ''
	run -2 --separate-stderr agrep-gpu --no-messages abc nosuch
	assert_output ''
	assert_equal "$stderr" ''
}

@test "-m NUM stops a file after NUM selected lines" {
	run -0 agrep-gpu -m 1 abc a
	assert_output 'one abc'
	run -0 agrep-gpu --max-count=1 abc a
	assert_output 'one abc'
	same_as_grep -m1 abc a b c
	same_as_grep -m 2 -n abc a
}

@test "-m 0 prints nothing and exits 1" {
	run -1 agrep-gpu -m 0 abc a
	assert_output ''
	same_as_grep -m 0 abc a
}

@test "-m NUM below 0 is no limit, -m -0 is 0 (GNU grep)" {
	same_as_grep -m -1 abc a b c
	same_as_grep -m -99999999999999999999999 -c abc a b c
	same_as_grep -m -0 abc a
	run -2 agrep-gpu -m -x abc a
	assert_output --partial "invalid max count: '-x'"
}

@test "-m with -c caps the count" {
	run -0 agrep-gpu -m 1 -c abc a
	assert_output 1
	same_as_grep -m1 -c abc a b c
}

@test "-m with -v counts the inverted selection" {
	run -0 agrep-gpu -m 1 -v abc a
	assert_output two
	same_as_grep -m1 -v abc a b c
	same_as_grep -m1 -v -c abc a
}

@test "-z reads and writes NUL-terminated records" {
	printf 'abc\0x\0y\nabc\0no\0' > z
	run -0 bash -c 'agrep-gpu -z abc z | od -An -c'
	assert_output "$(printf 'abc\0y\nabc\0' | od -An -c)"
	same_as_grep -z abc z
	same_as_grep --null-data -v abc z
	same_as_grep -z -n -b abc z
}

@test "-z: newline is an ordinary byte inside a record" {
	printf 'ab\ncd\0xyz\0' > z
	run -1 agrep-gpu -z abcd z
	# deleting the newline is one edit
	run -0 bash -c 'agrep-gpu -z -k 1 abcd z | od -An -c'
	assert_output "$(printf 'ab\ncd\0' | od -An -c)"
	run -0 bash -c 'agrep-gpu -z cd z | od -An -c'
	assert_output "$(printf 'ab\ncd\0' | od -An -c)"
	same_as_grep -z cd z
	same_as_grep -z -c -v cd z
}

@test "-z: an unterminated last record gets a NUL" {
	printf 'x\0abc' > z
	run -0 bash -c 'agrep-gpu -z abc z | od -An -c'
	assert_output "$(printf 'abc\0' | od -An -c)"
	same_as_grep -z abc z
}

@test "-z with -c counts records" {
	printf 'abc\0x\0abcd' > z
	run -0 agrep-gpu -z -c abc z
	assert_output 2
}

@test "-Z prints a NUL after file names with -l" {
	run -0 bash -c 'agrep-gpu -Z -l abc a b c | od -An -c'
	assert_output "$(printf 'a\0c\0' | od -An -c)"
	same_as_grep -Z -l abc a b c
	same_as_grep --null -L abc a b c
}

@test "-Z puts a NUL instead of ':' after the file name of a line" {
	run -0 bash -c 'agrep-gpu -Z abc a c | od -An -c'
	assert_output "$(printf 'a\0one abc\na\0three abc\nc\0abc\n' | od -An -c)"
	same_as_grep -Z -n abc a c
	same_as_grep -Z -c abc a b
}

@test "--line-buffered prints the same lines" {
	run -0 agrep-gpu --line-buffered abc a b c
	assert_output "$(printf 'a:one abc\na:three abc\nc:abc')"
	same_as_grep --line-buffered -n abc a b c
}

@test "--line-buffered prints a line before its input has ended" {
	mkfifo fifo
	# fd 3 belongs to bats: keep it away from the background job.
	agrep-gpu --line-buffered abc < fifo > out 3>&- &
	local pid=$! _ early
	exec 5> fifo
	printf 'abc1\nxyz\n' >&5
	for _ in $(seq 50); do
		grep -q abc1 out && break
		sleep 0.1
	done
	early=$(cat out)
	printf 'abc2\n' >&5
	exec 5>&-
	wait "$pid"
	assert_equal "$early" abc1
	run cat out
	assert_output "$(printf 'abc1\nabc2')"
}

@test "a pipe that stays open: -m, -q, -l and -c -m end at the first match, as grep" {
	# input.c's in_fill_paced: what a pipe gives is searched when it
	# pauses (it used to wait for a chunk of 16 MiB or the end); the
	# writer holds the pipe open 5 s, each search must end at once; so
	# with --decompress (zin.c: a pipe's first bytes, not compressed,
	# were passed on through a decoder read a buffer at a time)
	local o t0 ms wpid pre
	mkfifo fifo
	for pre in "" "--decompress "; do
	for o in "-m1 abc" "-m1 -k1 abd" "-q abc" "-q -k1 abd" "-l abc" \
	    "-c -m1 abc" "-n -m2 -e abc -e xyz" "split"; do
		o="$pre$o"
		[ "$o" = "${pre}split" ] && o=split
		if [ "$o" = split ]; then
			# a line split across writes is read whole
			o="$pre-m1 abc"
			{ printf 'ab'; sleep 0.3; printf 'c\nxyz\n'; sleep 5; } > fifo 3>&- &
		else
			{ printf 'abc\nxyz\n'; sleep 5; } > fifo 3>&- &
		fi
		wpid=$!
		t0=$(date +%s%N)
		# shellcheck disable=SC2086
		run timeout 4 agrep-gpu $o < fifo
		ms=$(( ($(date +%s%N) - t0) / 1000000 ))
		kill "$wpid" 2>/dev/null || true
		wait "$wpid" 2>/dev/null || true
		[ "$status" -ne 124 ] && [ "$ms" -lt 3000 ] ||
			{ echo "agrep-gpu $o: still reading after $ms ms"; return 1; }
		o=${o#--decompress }
		# shellcheck disable=SC2086
		assert_equal "$output" "$(printf 'abc\nxyz\n' | grep ${o/-k1 abd/abc})"
	done
	done
}

@test "a pipe that pauses, on a terminal: the lines before the pause are shown" {
	command -v script >/dev/null || skip "script (bsdutils) missing"
	mkfifo fifo
	# both paths: the ranges (no option) and the ring (-n -A0 -m9)
	local o _ early
	for o in "" "-n -A0 -m9"; do
		rm -f out
		script -q -f -c "agrep-gpu $o -e abc < fifo" out > /dev/null 3>&- &
		local pid=$!
		exec 5> fifo
		printf 'abc1\nxyz\n' >&5
		for _ in $(seq 50); do
			grep -q abc1 out 2>/dev/null && break
			sleep 0.1
		done
		early=$(grep -c abc1 out)
		printf 'abc2\n' >&5
		exec 5>&-
		wait "$pid"
		assert_equal "$early" 1
		run grep -c abc2 out
		assert_output 1
	done
}

@test "--help prints the usage on stdout and exits 0" {
	run -0 --separate-stderr agrep-gpu --help
	assert_line --partial --index 0 'Usage: agrep-gpu'
	assert_output --partial -- --max-errors
	assert_equal "$stderr" ''
}

@test "-V and --version print the version and exit 0" {
	run -0 --separate-stderr agrep-gpu -V
	assert_output --regexp '^agrep-gpu [0-9]'
	assert_equal "$stderr" ''
	local v="$output"
	run -0 agrep-gpu --version
	assert_output "$v"
}

@test "an unknown option exits 2 with the usage on stderr" {
	run -2 --separate-stderr agrep-gpu --bogus abc a
	assert_output ''
	assert_regex "$stderr" "unrecognized option '--bogus'"
	assert_regex "$stderr" 'Usage: agrep-gpu'
	run -2 --separate-stderr agrep-gpu -J abc a
	assert_output ''
	assert_regex "$stderr" 'Usage: agrep-gpu'
}

@test "no pattern exits 2 with the usage on stderr" {
	run -2 --separate-stderr agrep-gpu
	assert_output ''
	assert_regex "$stderr" 'Usage: agrep-gpu'
}

@test "an option missing its argument exits 2" {
	run -2 --separate-stderr agrep-gpu abc a -m
	assert_output ''
	[ -n "$stderr" ]
}
