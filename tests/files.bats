#!/usr/bin/env bats
# Inputs: several files, missing files, directories, recursion, symbolic
# links, binary files, standard input, empty files.

load test_helper
bats_require_minimum_version 1.5.0

setup() {
	cd "$BATS_TEST_TMPDIR" || return
	printf 'one abc\ntwo\nthree abc\n' > a
	printf 'x\ny\n' > b
	printf 'abc\n' > c
}

# make_tree: a small tree under ./tree (names chosen so that creation order
# is not name order), a directory outside it, and symbolic links to both.
make_tree() {
	mkdir -p tree/sub/deep tree/b outside
	printf 'xabc\n' > tree/sub/g
	printf 'abc1\nno\n' > tree/sub/deep/h
	printf 'abc\n' > tree/f
	printf 'abcz\n' > tree/b/i
	printf 'zzz\n' > tree/Z
	printf 'abc out\n' > outside/o
	ln -s ../outside tree/link
	ln -s f tree/flink
}

@test "several files: each line gets a name: prefix" {
	run -0 agrep-gpu abc a b c
	assert_output "$(printf 'a:one abc\na:three abc\nc:abc')"
	assert_output "$(grep -F abc a b c)"
}

@test "one file: no name prefix" {
	run -0 agrep-gpu abc a
	assert_output "$(printf 'one abc\nthree abc')"
}

@test "a missing file is reported, the others searched, exit 2" {
	run -2 --separate-stderr agrep-gpu abc a nosuch c
	assert_output "$(printf 'a:one abc\na:three abc\nc:abc')"
	assert_equal "$stderr" 'agrep-gpu: nosuch: No such file or directory'
}

@test "a missing file alone: exit 2, nothing on stdout" {
	run -2 --separate-stderr agrep-gpu abc nosuch
	assert_output ''
	assert_regex "$stderr" 'nosuch: No such file or directory'
}

@test "an unreadable file is reported and the others searched" {
	[ "$(id -u)" != 0 ] || skip "root reads every file"
	printf 'abc\n' > locked
	chmod 000 locked
	run -2 --separate-stderr agrep-gpu abc locked c
	assert_output c:abc
	assert_regex "$stderr" 'locked: Permission denied'
}

@test "a directory without -r: 'Is a directory' on stderr, exit 2" {
	mkdir d
	printf 'abc\n' > d/f
	run -2 --separate-stderr agrep-gpu abc d
	assert_output ''
	assert_equal "$stderr" 'agrep-gpu: d: Is a directory'
	run -2 --separate-stderr agrep-gpu abc d c
	assert_output c:abc
	assert_regex "$stderr" 'd: Is a directory'
}

@test "-r searches a tree in name order, names shown" {
	make_tree
	run -0 agrep-gpu -r abc tree
	assert_output "$(printf '%s\n' tree/b/i:abcz tree/f:abc \
	    tree/sub/deep/h:abc1 tree/sub/g:xabc)"
	assert_output "$(grep -r abc tree | LC_ALL=C sort)"
	# the same again: the order does not depend on the directory's layout
	run -0 agrep-gpu --recursive abc tree
	assert_output "$(grep -r abc tree | LC_ALL=C sort)"
}

@test "-r with -l, -c and -n" {
	make_tree
	run -0 agrep-gpu -r -l abc tree
	assert_output "$(printf '%s\n' tree/b/i tree/f tree/sub/deep/h tree/sub/g)"
	run -0 agrep-gpu -r -c abc tree/sub
	assert_output "$(printf '%s\n' tree/sub/deep/h:1 tree/sub/g:1)"
	run -0 agrep-gpu -r -n abc tree/sub
	assert_output "$(grep -r -n abc tree/sub | LC_ALL=C sort)"
}

@test "-r with no file operand searches . and names have no ./ prefix" {
	make_tree
	cd tree
	run -0 agrep-gpu -r abc
	assert_output "$(printf '%s\n' b/i:abcz f:abc sub/deep/h:abc1 sub/g:xabc)"
	assert_output "$(grep -r abc | LC_ALL=C sort)"
}

@test "-r . keeps the ./ prefix, as grep" {
	make_tree
	cd tree
	run -0 agrep-gpu -r abc .
	assert_output "$(grep -r abc . | LC_ALL=C sort)"
	assert_line --index 0 ./b/i:abcz
}

@test "-r on a single regular file prints no name" {
	run -0 agrep-gpu -r abc c
	assert_output abc
	assert_output "$(grep -r abc c)"
}

@test "-r does not follow symbolic links inside the tree" {
	make_tree
	run -0 agrep-gpu -r abc tree
	refute_output --partial link
	refute_output --partial outside
}

@test "-r follows a symbolic link named on the command line" {
	make_tree
	run -0 agrep-gpu -r abc tree/link
	assert_output "$(grep -r abc tree/link)"
	assert_output 'tree/link/o:abc out'
}

@test "-R follows symbolic links" {
	make_tree
	run -0 agrep-gpu -R abc tree
	assert_output "$(printf '%s\n' tree/b/i:abcz tree/f:abc tree/flink:abc \
	    'tree/link/o:abc out' tree/sub/deep/h:abc1 tree/sub/g:xabc)"
	assert_output "$(grep -R abc tree | LC_ALL=C sort)"
	run -0 agrep-gpu --dereference-recursive abc tree
	assert_line 'tree/link/o:abc out'
}

@test "-d recurse is -r" {
	make_tree
	run -0 agrep-gpu -d recurse abc tree
	assert_output "$(grep -r abc tree | LC_ALL=C sort)"
}

@test "-d skip skips directories named as operands" {
	mkdir d
	printf 'abc\n' > d/f
	run -0 --separate-stderr agrep-gpu -d skip abc c d
	assert_output c:abc
	assert_equal "$stderr" ''
	run -1 --separate-stderr agrep-gpu -d skip abc d
	assert_output ''
	assert_equal "$stderr" ''
	run -1 grep -d skip abc d
}

@test "-d read reports a directory like the default" {
	mkdir d
	run -2 --separate-stderr agrep-gpu -d read abc d
	assert_regex "$stderr" 'd: Is a directory'
}

@test "a binary file: 'agrep-gpu: NAME: binary file matches' on stderr, exit 0" {
	printf 'abc\nx\0y\nabcd\nzz\n' > bin
	run -0 --separate-stderr agrep-gpu abc bin
	assert_output ''
	assert_equal "$stderr" 'agrep-gpu: bin: binary file matches'
}

@test "a binary file's message comes once, among the other files' lines" {
	printf 'abc\nx\0y\nabcd\nzz\n' > bin
	run -0 agrep-gpu abc c bin a
	assert_output "$(printf '%s\n' c:abc 'agrep-gpu: bin: binary file matches' \
	    'a:one abc' 'a:three abc')"
}

@test "a NUL in a later range of a large file: the same lines and message whatever -j" {
	# (range.c checks each piece it reads for a NUL, and out_chunk then
	# need not look: the ranges before the NUL's print as text, as grep
	# prints the buffers before the NUL's)
	awk 'BEGIN { for (i = 0; i < 3000; i++) print "line " i " abc" }' > big
	printf 'x\0y abc\n' >> big
	awk 'BEGIN { for (i = 0; i < 300; i++) print "tail " i " abc" }' >> big
	local want j c
	for c in 4096 65536; do
		run -0 --separate-stderr env AGREP_GPU_CHUNK=$c agrep-gpu -j 1 -n -k1 abc big
		want="$output/$stderr"
		[[ $want == *"big: binary file matches" ]]
		[[ $want != *"tail "* ]]
		for j in 2 3; do
			run -0 --separate-stderr env AGREP_GPU_CHUNK=$c agrep-gpu -j $j -n -k1 abc big
			[ "$output/$stderr" = "$want" ] || { echo "chunk $c -j $j"; return 1; }
		done
	done
	# the ranges before the NUL's print
	[[ $want == *"line 2000 abc"* ]]
}

@test "a binary file without a match prints nothing, exit 1" {
	printf 'no\0\nnothing\n' > bin
	run -1 agrep-gpu abc bin
	assert_output ''
}

@test "a binary file on standard input is named (standard input)" {
	printf 'abc\0\n' > bin
	run -0 agrep-gpu abc < bin
	assert_output 'agrep-gpu: (standard input): binary file matches'
}

@test "-a prints the lines of a binary file" {
	printf 'abc\nx\0y\nabcd\nzz\n' > bin
	run -0 bash -c 'agrep-gpu -a abc bin | od -An -c'
	assert_output "$(printf 'abc\nabcd\n' | od -An -c)"
	assert_output "$(grep -a abc bin | od -An -c)"
	run -0 bash -c 'agrep-gpu --text -k 1 xy bin | od -An -c'
	assert_output "$(printf 'x\0y\n' | od -An -c)"
}

@test "-c counts the selected lines of a binary file" {
	printf 'abc\nx\0y\nabcd\nzz\n' > bin
	run -0 agrep-gpu -c abc bin
	assert_output 2
	assert_output "$(grep -c abc bin)"
}

@test "-l names a binary file with a match" {
	printf 'abc\nx\0y\n' > bin
	run -0 agrep-gpu -l abc bin c
	assert_output "$(printf 'bin\nc')"
}

@test "-q on a binary file with a match: exit 0, no output" {
	printf 'abc\nx\0y\n' > bin
	run -0 agrep-gpu -q abc bin
	assert_output ''
}

@test "standard input via '-'" {
	run -0 agrep-gpu abc - < a
	assert_output "$(printf 'one abc\nthree abc')"
	run -0 agrep-gpu abc c - < a
	assert_output "$(printf 'c:abc\n(standard input):one abc\n(standard input):three abc')"
}

@test "standard input when there is no file operand" {
	run -0 agrep-gpu abc < a
	assert_output "$(printf 'one abc\nthree abc')"
	run -0 bash -c 'cat a | agrep-gpu -n abc'
	assert_output "$(printf '1:one abc\n3:three abc')"
}

@test "an empty file selects nothing, exit 1" {
	: > empty
	run -1 --separate-stderr agrep-gpu abc empty
	assert_output ''
	assert_equal "$stderr" ''
	run -1 agrep-gpu -c abc empty
	assert_output 0
}

@test "an empty file has no line even for k >= pattern length" {
	: > empty
	run -1 agrep-gpu -k 5 abc empty
	assert_output ''
	run -1 agrep-gpu -e '' empty
	assert_output ''
	run -1 agrep-gpu -e '' < empty
	assert_output ''
}

@test "an empty file is listed by -L" {
	: > empty
	run -0 agrep-gpu -L abc empty c
	assert_output empty
}

@test "standard input from a large file is read in ranges like a file argument, same output" {
	local i
	for i in $(seq 400); do
		printf 'line %d abc\nmercy and truth %d\nno match here\n' "$i" "$i"
	done > big
	# ranges of 4 KiB: many of them (AGREP_GPU_CHUNK halves into ranges)
	for j in 1 2; do
		AGREP_GPU_CHUNK=8192 agrep-gpu -j$j -H -n -b -k1 mercx big |
		    sed 's/^big:/(standard input):/' > want
		AGREP_GPU_CHUNK=8192 agrep-gpu -j$j -H -n -b -k1 mercx < big > got
		cmp want got
		AGREP_GPU_CHUNK=8192 agrep-gpu -j$j -c -k1 mercx < big > got
		[ "$(cat got)" = 400 ]
	done
	# read partly before: the rest is searched, from where it was left
	(dd bs=1 count=100 of=/dev/null 2>/dev/null
	 AGREP_GPU_CHUNK=8192 agrep-gpu -c -k1 abc) < big > got
	tail -c +101 big | agrep-gpu -c -k1 abc > want
	cmp want got
}
