#!/usr/bin/env bats
# shellcheck disable=SC2002,SC2016,SC2154
# (pipes from cat on purpose; commands for bash -c in single quotes; bats
# sets stderr_lines)
# Robustness: bad usage, odd and hostile inputs, output that fails, device
# faults, load.  Each case checks the message on stderr, the exit status
# (0 selected, 1 none, 2 error), that the other files are still searched and
# that no line is lost.  Where basic.bats, output.bats, files.bats or
# devices.bats already check a case on the host matcher, the case here adds
# what they leave out: the OpenCL path (AGREP_GPU_HOST_MAX=0), standard
# input, several files around the bad one.
#
# Expected outputs come from grep -F (k = 0) or from --device=host (k >= 1),
# never from the run under test.

load test_helper
bats_require_minimum_version 1.5.0

setup() {
	cd "$BATS_TEST_TMPDIR" || return
	printf 'one abc\ntwo\nthree abc\n' > a
	printf 'x\ny\n' > b
	printf 'abc\n' > c
	# near matches of "abcdef" for k = 1
	printf 'abcdef\nabXdef\nzzzzzz\nabcdXef\n' > d
}

# same_bytes WANTFILE GOTFILE [MSG]: the two files are byte for byte equal.
same_bytes() {
	run cmp "$1" "$2"
	assert_success "${3:-$1 and $2 differ}"
}

# sanitized: the binary under test is the sanitizer build (make
# check-sanitize).  ASan's memmem interceptor checks the whole rest of the
# buffer on every call, which makes the exact search (k = 0, one memmem per
# match) quadratic in the chunk size: timed cases use k = 1 there.
sanitized() {
	[ -n "${ASAN_OPTIONS:-}${UBSAN_OPTIONS:-}" ] || [[ $AGREP_GPU == */san/* ]]
}

# secs: seconds since the epoch, with a fraction.
secs() { date +%s.%N; }

# elapsed_lt START LIMIT: less than LIMIT seconds since START.
elapsed_lt() {
	awk -v s="$1" -v e="$(secs)" -v l="$2" 'BEGIN { exit !(e - s < l) }' ||
	    fail "took $(awk -v s="$1" -v e="$(secs)" 'BEGIN { print e - s }') s, limit $2 s"
}

# -------------------------------------------------------------------------
# Usage errors
# -------------------------------------------------------------------------

@test "usage: no pattern: usage on stderr, exit 2, standard input not read" {
	# (agrep-gpu with no argument at all: output.bats)
	run -2 --separate-stderr agrep-gpu -k 1 -n
	assert_output ''
	assert_regex "$stderr" 'Usage: agrep-gpu'
	# with input waiting on stdin it must not read it, nor hang: yes(1)
	# dies of SIGPIPE once agrep-gpu has exited
	run -2 --separate-stderr timeout 20 bash -c 'yes abc | agrep-gpu -c'
	assert_output ''
	assert_regex "$stderr" 'Usage: agrep-gpu'
	# -e and -f without their argument
	run -2 --separate-stderr agrep-gpu -n -e
	assert_output ''
	[ -n "$stderr" ]
	run -2 --separate-stderr agrep-gpu -f
	assert_output ''
	[ -n "$stderr" ]
}

@test "usage: an empty pattern selects every line, as grep, on every path" {
	printf 'no newline at the end' > nonl
	: > empty
	grep -e '' a empty nonl b > want
	agrep-gpu '' a empty nonl b > got
	same_bytes want got
	AGREP_GPU_HOST_MAX=0 agrep-gpu -e '' a empty nonl b > got 2> err
	same_bytes want got "OpenCL path"
	run cat err
	assert_output ''
	# with errors allowed, counted, inverted, from standard input
	run -0 agrep-gpu -c -k 2 '' a empty nonl
	assert_output "$(grep -c '' a empty nonl)"
	run -0 env AGREP_GPU_HOST_MAX=0 agrep-gpu -c -k 1 -e '' a empty nonl
	assert_output "$(printf 'a:3\nempty:0\nnonl:1')"
	run -1 agrep-gpu -v '' a b
	assert_output ''
	run -1 grep -v '' a b
	run -0 bash -c "agrep-gpu -n '' < nonl"
	assert_output '1:no newline at the end'
	# an empty input still has no line
	run -1 --separate-stderr agrep-gpu '' < empty
	assert_output ''
	assert_equal "$stderr" ''
}

@test "usage: a negative -k is an error naming the value; nothing searched" {
	local form
	for form in "-k -1" "-k-1" "--max-errors=-1" "--max-errors -5" "-k -2147483648"; do
		# shellcheck disable=SC2086
		run -2 --separate-stderr agrep-gpu $form abc a
		assert_output ''
		assert_regex "$stderr" '^agrep-gpu: .*-[0-9]'
		assert_equal "${#stderr_lines[@]}" 1
	done
	# after the pattern and the files too (GNU getopt permutes)
	run -2 --separate-stderr agrep-gpu abc a -k -1
	assert_output ''
	assert_regex "$stderr" "'-1'"
}

@test "usage: a non-numeric -k is an error naming the value" {
	local v
	for v in x 1x '' 1.5 0x10 one -; do
		run -2 --separate-stderr agrep-gpu -k "$v" abc a
		assert_output ''
		assert_regex "$stderr" "errors.*'$v'"
	done
	# (-1x is -1 -x, as getopt groups letters; -k -0 is k = 0)
}

@test "usage: a huge -k is refused, never wrapped around" {
	# 2^64 + 1, 2^32 + 1 and 2^31 would become 1, 1 and negative if the
	# number wrapped: then lines would be selected with the wrong k
	local v
	for v in 99999999999999999999 18446744073709551617 4294967297 \
	    2147483648 -99999999999999999999; do
		run -2 --separate-stderr agrep-gpu -c -k "$v" abcdef d
		assert_output ''
		assert_regex "$stderr" "$v"
		assert_equal "${#stderr_lines[@]}" 1
	done
	run -2 --separate-stderr agrep-gpu -c -99999999999999999999 abcdef d
	assert_output ''
	assert_regex "$stderr" 99999999999999999999
	# the largest accepted k is just a large k: every line, both paths
	run -0 agrep-gpu -c -k 1048576 abcdef d
	assert_output 4
	run -0 env AGREP_GPU_HOST_MAX=0 agrep-gpu -c -k 1048576 abcdef d
	assert_output 4
}

@test "usage: unknown options, ambiguous ones, and arguments to flags" {
	# (--bogus and -j before the pattern: output.bats)
	run -2 --separate-stderr agrep-gpu abc a --bogus
	assert_output ''
	assert_regex "$stderr" "unrecognized option '--bogus'"
	assert_regex "$stderr" 'Usage: agrep-gpu'
	run -2 --separate-stderr agrep-gpu --co abc a
	assert_output ''
	assert_regex "$stderr" "'--co' is ambiguous"
	run -2 --separate-stderr agrep-gpu --count=3 abc a
	assert_output ''
	assert_regex "$stderr" "'--count' doesn't allow an argument"
	run -2 --separate-stderr agrep-gpu --color=sometimes abc a
	assert_output ''
	assert_regex "$stderr" 'sometimes'
	run -2 --separate-stderr agrep-gpu -d nowhere abc a
	assert_output ''
	assert_regex "$stderr" 'nowhere'
	# "--" ends the options: a pattern that looks like one
	printf -- '--bogus\n' > opt
	run -0 agrep-gpu -- --bogus opt
	assert_output -- --bogus
}

@test "usage: --best-match conflicts with -c, -l, -L, -q and -v" {
	local opt
	for opt in -c -l -L -q -v --count; do
		run -2 --separate-stderr agrep-gpu --best-match "$opt" -k 1 abcdef d
		assert_output ''
		assert_regex "$stderr" '--best-match'
		assert_equal "${#stderr_lines[@]}" 1
		# either order
		run -2 --separate-stderr agrep-gpu "$opt" --best-match -k 1 abcdef d
		assert_output ''
		assert_regex "$stderr" '--best-match'
	done
	# without the conflict it works
	run -0 agrep-gpu --best-match -k 1 abcdef d
	assert_output abcdef
}

# -------------------------------------------------------------------------
# Files
# -------------------------------------------------------------------------

@test "files: a missing file on the OpenCL path and under -r: others searched" {
	# (the host matcher and the exact message: files.bats)
	agrep-gpu --device=host -k 1 abcdef d c d > want
	run -2 --separate-stderr env AGREP_GPU_HOST_MAX=0 \
	    agrep-gpu -k 1 abcdef d nosuch c d
	assert_output "$(cat want)"
	assert_equal "$stderr" 'agrep-gpu: nosuch: No such file or directory'
	run -2 --separate-stderr env AGREP_GPU_HOST_MAX=0 \
	    agrep-gpu -c -k 1 abcdef nosuch d nosuch2
	assert_output d:3
	assert_equal "${#stderr_lines[@]}" 2
	mkdir t && cp d t/
	run -2 --separate-stderr agrep-gpu -r -l abcdef nosuch t
	assert_output t/d
	assert_regex "$stderr" 'nosuch: No such file or directory'
}

@test "files: an unreadable file (as a non-root user): reported, others searched" {
	local run_as=()
	if [ "$(id -u)" = 0 ]; then
		command -v setpriv > /dev/null || skip "root, and no setpriv to drop it"
		id nobody > /dev/null 2>&1 || skip "root, and no user nobody"
		run_as=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
	fi
	# a directory every user can enter (bats' own are private)
	local dir
	dir=$(mktemp -d /tmp/agrep-robust.XXXXXX)
	chmod 755 "$dir"
	printf 'abc\nabcdef\n' > "$dir/locked"
	cp a c d "$dir/"
	chmod 644 "$dir"/a "$dir"/c "$dir"/d
	chmod 000 "$dir/locked"
	mkdir "$dir/sub"
	printf 'abc sub\n' > "$dir/sub/ok"
	cp "$dir/locked" "$dir/sub/locked2"
	chmod 000 "$dir/sub/locked2"
	cd "$dir"
	"${run_as[@]}" test -r a && ! "${run_as[@]}" test -r locked ||
	    { rm -rf "$dir"; skip "cannot make an unreadable file here"; }
	run -2 --separate-stderr "${run_as[@]}" env -u AGREP_GPU_DEVICE \
	    "$AGREP_GPU" abc a locked c
	local out="$output" err="$stderr"
	run -2 --separate-stderr "${run_as[@]}" "$AGREP_GPU" --device=host -c -k 1 \
	    abcdef locked d
	local out2="$output" err2="$stderr"
	run -2 --separate-stderr "${run_as[@]}" env -u AGREP_GPU_DEVICE \
	    "$AGREP_GPU" -r abc sub
	local out3="$output" err3="$stderr"
	cd "$BATS_TEST_TMPDIR"
	rm -rf "$dir"
	assert_equal "$out" "$(printf 'a:one abc\na:three abc\nc:abc')"
	assert_equal "$err" 'agrep-gpu: locked: Permission denied'
	assert_equal "$out2" "$(printf 'd:3')"
	assert_regex "$err2" 'locked: Permission denied'
	assert_equal "$out3" 'sub/ok:abc sub'
	assert_regex "$err3" 'sub/locked2: Permission denied'
}

@test "files: a directory without -r, on the OpenCL path and on stdin" {
	# (the host matcher with a file operand: files.bats)
	mkdir dir
	printf 'abcdef\n' > dir/f
	agrep-gpu --device=host -n -k 1 abcdef d > want
	run -2 --separate-stderr env AGREP_GPU_HOST_MAX=0 \
	    agrep-gpu -h -n -k 1 abcdef dir d dir
	assert_output "$(cat want)"
	assert_equal "${#stderr_lines[@]}" 2
	assert_regex "${stderr_lines[0]}" '^agrep-gpu: dir: Is a directory$'
	# -c and -L count it as an input without lines, -l does not list it
	# (grep 3.8: its read fails after the open)
	run -2 --separate-stderr agrep-gpu -c abc dir c
	assert_output "$(printf 'dir:0\nc:1')"
	run -2 --separate-stderr agrep-gpu -L abc dir b
	assert_output "$(printf 'dir\nb')"
	run -2 --separate-stderr agrep-gpu -l abc dir c
	assert_output c
	# a directory as standard input
	run -2 --separate-stderr bash -c 'agrep-gpu abc < dir'
	assert_output ''
	assert_regex "$stderr" 'Is a directory'
}

@test "files: a FIFO operand with a writer is read to its end" {
	mkfifo f1 f2
	# fd 3 belongs to bats: keep it away from the background writers
	(printf 'abc\nxyz\nabcdef\n' > f1 &) 3>&-
	run -0 --separate-stderr timeout 20 agrep-gpu -n abc a f1 c
	assert_output "$(printf 'a:1:one abc\na:3:three abc\nf1:1:abc\nf1:3:abcdef\nc:1:abc')"
	assert_equal "$stderr" ''
	# more than a pipe holds, through OpenCL, with tiny chunks
	seq 1 200000 | sed 's/^/line /; 150000s/$/ abcdef/' > big
	agrep-gpu --device=host -n -k 1 abcdef big > want
	(cat big > f2 &) 3>&-
	AGREP_GPU_HOST_MAX=0 AGREP_GPU_CHUNK=4096 timeout 60 \
	    agrep-gpu -n -k 1 abcdef f2 > got 2> err
	same_bytes want got
	run cat err
	assert_output ''
	# a FIFO met under -r is not opened (it could block for ever), as grep
	mkdir t
	cp c t/
	mkfifo t/fifo
	run -0 --separate-stderr timeout 20 agrep-gpu -r abc t
	assert_output 't/c:abc'
	assert_equal "$stderr" ''
}

@test "files: an empty file on the OpenCL path and on stdin" {
	# (the host matcher: files.bats)
	: > empty
	run -0 --separate-stderr env AGREP_GPU_HOST_MAX=0 \
	    agrep-gpu -c -k 1 abcdef empty d empty
	assert_output "$(printf 'empty:0\nd:3\nempty:0')"
	assert_equal "$stderr" ''
	run -1 --separate-stderr env AGREP_GPU_HOST_MAX=0 agrep-gpu -k 3 abc empty
	assert_output ''
	assert_equal "$stderr" ''
	run -1 bash -c 'cat empty | AGREP_GPU_HOST_MAX=0 agrep-gpu -c -k 1 abc'
	assert_output 0
	run -0 env AGREP_GPU_HOST_MAX=0 agrep-gpu -L -k 1 abc empty a
	assert_output empty
}

@test "files: a file without a final newline, on every path" {
	printf 'abc\nxyz\nlast abcdef' > nonl
	printf 'first abc\n' > next
	# the last line ends before the next file's lines, with a newline added
	grep -F abc nonl next > want
	agrep-gpu abc nonl next > got
	same_bytes want got
	agrep-gpu --device=host -n -b -k 1 abcdef nonl next > want1
	head -n 1 want1 > want2
	# full (AGREP_GPU_TESTS=full): the files and standard input in every
	# chunk size; quick: the files in chunks of 1 and 7 bytes, standard
	# input in chunks of 5 and 4096
	local chunk ci=0 full=0
	[ "$(depth quick full)" = quick ] || full=1
	for chunk in 1 5 7 4096; do
		ci=$((ci + 1))
		if ((full || ci % 2)); then
		AGREP_GPU_HOST_MAX=0 AGREP_GPU_CHUNK=$chunk AGREP_GPU_SLICE=64 \
		    agrep-gpu -n -b -k 1 abcdef nonl next > got 2> err
		same_bytes want1 got "OpenCL, chunk $chunk"
		run cat err
		assert_output ''
		fi
		((full || ci % 2 == 0)) || continue
		cat nonl | AGREP_GPU_HOST_MAX=0 AGREP_GPU_CHUNK=$chunk \
		    agrep-gpu -n -b -k 1 --label=nonl -H abcdef > got
		same_bytes want2 got "stdin, chunk $chunk"
	done
	run -0 env AGREP_GPU_HOST_MAX=0 agrep-gpu -c -v -k 1 abcdef nonl
	assert_output 2
	run -0 bash -c 'agrep-gpu -k 1 abcdef nonl | od -An -c'
	assert_output "$(printf 'last abcdef\n' | od -An -c)"
}

@test "files: CRLF lines: the CR is part of the line, on the OpenCL path" {
	# (the host matcher: basic.bats)
	printf 'abc\r\nabcdef\r\nxyz\r\n\r\nabc' > crlf
	grep -F abc crlf > want
	AGREP_GPU_HOST_MAX=0 agrep-gpu abc crlf > got
	same_bytes want got
	# full (AGREP_GPU_TESTS=full): every argument set from the file and
	# from standard input; quick: the file and standard input by turns
	# (the file for the 1st, 3rd and 5th set)
	local args ai=0 full=0
	[ "$(depth quick full)" = quick ] || full=1
	for args in "-k 1 abcdef" "-x -k 1 abc" "-o -k 1 abcdef" "-n -b -v -k 1 abcdef" \
	    "-c -x abc"; do
		ai=$((ai + 1))
		# shellcheck disable=SC2086
		agrep-gpu --device=host $args crlf > want
		if ((full || ai % 2)); then
		# shellcheck disable=SC2086
		AGREP_GPU_HOST_MAX=0 agrep-gpu $args crlf > got
		same_bytes want got "args $args"
		fi
		((full || ai % 2 == 0)) || continue
		# shellcheck disable=SC2086
		AGREP_GPU_HOST_MAX=0 agrep-gpu $args < crlf > got
		same_bytes want got "stdin, args $args"
	done
	# -x: 'abc' is one edit from 'abc\r' (the last line has no CR)
	run -0 agrep-gpu -c -x abc crlf
	assert_output 1
	run -0 agrep-gpu -c -x -k 1 abc crlf
	assert_output 2
}

@test "files: NUL bytes: 'binary file matches' message, -a prints the lines, all paths" {
	# (a small binary file on the host matcher: files.bats)
	printf 'abc\nx\0y\nabcdef\nzz\n' > bin
	run -0 --separate-stderr env AGREP_GPU_HOST_MAX=0 agrep-gpu -k 1 abc c bin a
	assert_output "$(printf 'c:abc\na:one abc\na:three abc')"
	assert_equal "$stderr" 'agrep-gpu: bin: binary file matches'
	run -0 bash -c 'AGREP_GPU_HOST_MAX=0 agrep-gpu -a -k 1 xy bin | od -An -c'
	assert_output "$(printf 'x\0y\n' | od -An -c)"
	run -0 bash -c 'AGREP_GPU_HOST_MAX=0 agrep-gpu -a -n abc bin | od -An -c'
	assert_output "$(grep -a -n abc bin | od -An -c)"
	run -0 bash -c 'cat bin | AGREP_GPU_HOST_MAX=0 agrep-gpu -k 1 abcdef 2>&1'
	assert_output 'agrep-gpu: (standard input): binary file matches'
	# a NUL far into a file (after the first chunks): the lines before it
	# may be printed, as GNU grep does; the message comes, no line is lost
	{ echo 'abc first'; yes filler | head -c 3000000; printf 'x\0y\nabc after\n'; } > late
	run -0 --separate-stderr env AGREP_GPU_CHUNK=65536 agrep-gpu abc late
	assert_line 'abc first'
	refute_line 'abc after'
	assert_equal "$stderr" 'agrep-gpu: late: binary file matches'
	run -0 agrep-gpu -c abc late
	assert_output 2
	run -0 bash -c 'AGREP_GPU_HOST_MAX=0 AGREP_GPU_CHUNK=65536 agrep-gpu -a -k 1 abc late | grep -c abc'
	assert_output 2
}

# line_whole PREFIX GOT MSG: GOT is PREFIX, the bytes of the file long and
# a newline (the test below: cmp over the file, not over a 200 MB pipe)
line_whole() {
	local p=${#1} n
	n=$(stat -c %s long)
	run stat -c %s "$2"
	assert_output "$((p + n + 1))"
	run head -c "$p" "$2"
	assert_output "$1"
	run cmp -i "0:$p" -n "$n" long "$2"
	assert_success "$3"
	run bash -c 'tail -c 1 "$1" | od -An -tx1' _ "$2"
	assert_output ' 0a'
}

@test "files: a single 200 MB line: bounded memory, the match at its end found" {
	command -v /usr/bin/time > /dev/null || skip "no /usr/bin/time"
	local limit_kb=400000 rss base
	{ head -c 200000000 /dev/zero | tr '\0' x; printf needle; } > long
	# The bound is on what the line adds: an OpenCL runtime's own
	# memory comes first (POCL's is tens of MB, NVIDIA's CUDA runtime
	# over 300 MB), measured on a one-line file with the same settings.
	printf 'needle\n' > short
	AGREP_GPU_HOST_MAX=0 /usr/bin/time -f %M -o rss \
	    agrep-gpu -k 1 neXdle short > got 2> err
	base=$(cat rss)
	(( base + 250000 < limit_kb )) || limit_kb=$((base + 250000))
	# the OpenCL path, from the file
	AGREP_GPU_HOST_MAX=0 /usr/bin/time -f %M -o rss \
	    agrep-gpu -k 1 neXdle long > got 2> err
	run cat err
	assert_output ''
	rss=$(cat rss)
	(( rss < limit_kb )) || fail "OpenCL, file: peak RSS $rss kB"
	line_whole '' got "OpenCL, file: the line is printed whole"
	# the OpenCL path, from a pipe
	cat long | AGREP_GPU_HOST_MAX=0 /usr/bin/time -f %M -o rss \
	    agrep-gpu -c -k 1 neXdle > got 2> err
	run cat got err
	assert_output 1
	rss=$(cat rss)
	(( rss < limit_kb )) || fail "OpenCL, pipe: peak RSS $rss kB"
	# the default path (k = 0, exact search), from a pipe, line printed
	cat long | /usr/bin/time -f %M -o rss agrep-gpu -b needle > got 2> err
	run cat err
	assert_output ''
	rss=$(cat rss)
	(( rss < limit_kb )) || fail "host, pipe: peak RSS $rss kB"
	line_whole 0: got "host, pipe: the line is printed whole"
	rm -f long short got
}

@test "files: a file truncated while it is read: no crash, no hang, no garbage" {
	# full (AGREP_GPU_TESTS=full): both AGREP_GPU_HOST_MAX with both
	# delays; quick: 1 MiB with the short delay, 0 with the long one (each
	# run writes a file of 300 MB first)
	local hm delay rc line='abc needle line' full=0
	[ "$(depth quick full)" = quick ] || full=1
	for hm in 1048576 0; do
		for delay in 0.05 0.3; do
			case $full$hm:$delay in 01048576:0.3|00:0.05) continue ;; esac
			yes "$line" | head -c 300000000 > big
			(sleep "$delay"; truncate -s 1000 big) 3>&- &
			local tpid=$!
			rc=0
			AGREP_GPU_HOST_MAX=$hm timeout 60 \
			    agrep-gpu -n -k 1 needle big > got 2> err || rc=$?
			wait "$tpid"
			# 0, 1 or 2; not 124 (timeout) nor 128 + a signal
			(( rc <= 2 )) || fail "HOST_MAX=$hm, delay $delay: exit $rc, stderr: $(head -c 500 err)"
			run grep -E -c -v "^[0-9]+:$line\$" got
			# at most one line, the last, cut short by the truncation
			(( output <= 1 )) || fail "HOST_MAX=$hm, delay $delay: $output bad lines: $(grep -E -v -m 3 "^[0-9]+:$line\$" got)"
			# line numbers run 1, 2, 3... without a gap or a repeat
			run awk -F: '$1 != NR { print "line " NR ": " $0; exit 1 }' got
			assert_success "HOST_MAX=$hm, delay $delay"
			run grep -E 'Bus error|Segmentation|core dumped|Aborted|sanitizer' err
			assert_failure
		done
	done
	rm -f big got
}

@test "files: symbolic link loops under -R are reported or skipped, never followed for ever" {
	mkdir -p t/sub
	printf 'abc\n' > t/f
	printf 'abc sub\n' > t/sub/g
	ln -s . t/loop
	ln -s .. t/sub/up
	# -r does not follow links inside the tree: no loop to meet
	run -0 --separate-stderr timeout 20 agrep-gpu -r abc t
	assert_output "$(printf 't/f:abc\nt/sub/g:abc sub')"
	assert_equal "$stderr" ''
	# -R: each file once; the loops reported (as grep, exit 2) or skipped
	run --separate-stderr timeout 20 agrep-gpu -R abc t
	(( status == 0 || status == 2 )) || fail "exit $status"
	assert_output "$(printf 't/f:abc\nt/sub/g:abc sub')"
	if [ "$status" = 2 ]; then
		assert_regex "$stderr" 'loop'
	fi
	# a loop named on the command line
	run --separate-stderr timeout 20 agrep-gpu -R -c abc t/loop
	(( status == 0 || status == 2 )) || fail "exit $status"
	assert_line 't/loop/f:1'
	# the same through the OpenCL path, with -l
	run --separate-stderr timeout 20 env AGREP_GPU_HOST_MAX=0 \
	    agrep-gpu -R -l -k 1 abc t
	(( status == 0 || status == 2 )) || fail "exit $status"
	assert_output "$(printf 't/f\nt/sub/g')"
}

@test "files: a dangling symbolic link under -R is reported, as grep" {
	mkdir t
	printf 'abc\n' > t/f
	ln -s nowhere t/dangling
	run -2 grep -R abc t
	run -2 --separate-stderr agrep-gpu -R abc t
	assert_output 't/f:abc'
	assert_regex "$stderr" 't/dangling: No such file or directory'
	# -r does not follow it: nothing to report, as grep
	run -0 --separate-stderr agrep-gpu -r abc t
	assert_equal "$stderr" ''
}

# -------------------------------------------------------------------------
# Output
# -------------------------------------------------------------------------

@test "output: standard output closed early: prompt end, no message" {
	# (a file of 200 MB; quick, 50 MB: either is thousands of pipe buffers
	# of output)
	yes 'abc line' | head -c "$(depth 50000000 200000000)" > big
	local start hm k k0=0 full=0
	! sanitized || k0=1
	# full (AGREP_GPU_TESTS=full): both paths with both k; quick: the
	# host (1 MiB limit) with the first k, OpenCL (limit 0) with k = 1
	[ "$(depth quick full)" = quick ] || full=1
	for hm in 1048576 0; do
		for k in $k0 1; do
			((full || (hm == 0) == (k == 1))) || continue
			start=$(secs)
			run --separate-stderr timeout 30 bash -c \
			    "set -o pipefail; AGREP_GPU_HOST_MAX=$hm agrep-gpu -k $k abc big | head -n 1"
			# killed by SIGPIPE (141), as grep; never the timeout (124)
			assert_equal "$status" 141
			assert_output 'abc line'
			assert_equal "$stderr" ''
			elapsed_lt "$start" 10
		done
	done
	# SIGPIPE ignored: a write error, exit 2, promptly, as grep
	start=$(secs)
	run --separate-stderr timeout 30 bash -c \
	    "trap '' PIPE; set -o pipefail; agrep-gpu -k $k0 abc big | head -n 1"
	assert_equal "$status" 2
	assert_output 'abc line'
	assert_regex "$stderr" 'write error'
	assert_equal "${#stderr_lines[@]}" 1
	elapsed_lt "$start" 10
	rm -f big
}

@test "output: > /dev/full: 'write error' once on stderr, exit 2" {
	[ -w /dev/full ] || skip "no /dev/full"
	yes 'abc line' | head -c 5000000 > big
	# full (AGREP_GPU_TESTS=full): every argument set on both paths;
	# quick: the OpenCL path for every third one (the 2nd, -c, and the
	# 5th, -o on the big file)
	local args ai=0 full=0
	[ "$(depth quick full)" = quick ] || full=1
	for args in "abc a" "-c abc a" "-l abc a b" "-n abc big" "-o -k 1 abc big" \
	    "--color=always abc big"; do
		ai=$((ai + 1))
		run -2 --separate-stderr bash -c "agrep-gpu $args > /dev/full"
		assert_regex "$stderr" 'write error'
		assert_equal "${#stderr_lines[@]}" 1
		((full || ai % 3 == 2)) || continue
		run -2 --separate-stderr bash -c \
		    "AGREP_GPU_HOST_MAX=0 agrep-gpu -k 1 $args > /dev/full"
		assert_regex "$stderr" 'write error'
		assert_equal "${#stderr_lines[@]}" 1
	done
	# nothing to write: no error
	run -1 --separate-stderr bash -c 'agrep-gpu zzz a > /dev/full'
	assert_equal "$stderr" ''
	run -0 --separate-stderr bash -c 'agrep-gpu -q abc a > /dev/full'
	assert_equal "$stderr" ''
}

@test "output: -q stops at the first match, on an endless input" {
	local start k0=0
	! sanitized || k0=1
	start=$(secs)
	run -0 --separate-stderr timeout 20 bash -c "yes abc | agrep-gpu -q -k $k0 abc"
	assert_output ''
	assert_equal "$stderr" ''
	run -0 --separate-stderr timeout 20 bash -c \
	    'yes abc | AGREP_GPU_HOST_MAX=0 agrep-gpu -q -k 1 abd'
	assert_equal "$stderr" ''
	# the match comes after a while
	run -0 timeout 20 bash -c \
	    "{ yes xyz | head -n 100000; yes abc; } | agrep-gpu -q -k $k0 abc"
	# -m 1 stops too
	run -0 timeout 20 bash -c "yes abc | agrep-gpu -m 1 -n -k $k0 abc"
	assert_output 1:abc
	elapsed_lt "$start" 15
	# -q with the match in the first file does not need the next ones
	mkfifo never
	run -0 timeout 20 agrep-gpu -q abc a never
}

# -------------------------------------------------------------------------
# Device faults (the device is needed: -k 1 and AGREP_GPU_HOST_MAX=0)
# -------------------------------------------------------------------------

@test "device: no OpenCL platform: one message naming POCL and make deps, exit 2, right output" {
	# (one small file: devices.bats)
	mkdir novendors
	yes 'filler abXdef' | head -c 2000000 > big
	agrep-gpu --device=host -n -k 1 abcdef d big c > want
	run -2 --separate-stderr env OCL_ICD_VENDORS="$PWD/novendors" \
	    AGREP_GPU_HOST_MAX=0 agrep-gpu -n -k 1 abcdef d big c
	assert_output "$(cat want)"
	assert_regex "$stderr" 'POCL'
	assert_regex "$stderr" 'make deps'
	# said once, not once per file
	assert_equal "$(grep -c POCL <<< "$stderr")" 1
	# only the file above AGREP_GPU_HOST_MAX needs the device
	run -2 --separate-stderr env OCL_ICD_VENDORS="$PWD/novendors" \
	    AGREP_GPU_HOST_MAX=1000000 agrep-gpu -c -k 1 abcdef d big
	assert_output "$(agrep-gpu --device=host -c -k 1 abcdef d big)"
	# standard input
	run -2 --separate-stderr bash -c \
	    'cat d | OCL_ICD_VENDORS=$PWD/novendors AGREP_GPU_HOST_MAX=0 agrep-gpu -k 1 abcdef'
	assert_output "$(agrep-gpu --device=host -k 1 abcdef d)"
	assert_regex "$stderr" 'POCL'
}

@test "device: kernel build failure: build log, one warning, right output, usual exit" {
	echo '__kernel void myers_scan( { this is not OpenCL' > bad.cl
	agrep-gpu --device=host -n -k 1 abcdef d a d > want
	run -0 --separate-stderr env AGREP_GPU_KERNEL="$PWD/bad.cl" \
	    AGREP_GPU_HOST_MAX=0 agrep-gpu -n -k 1 abcdef d a d
	assert_output "$(cat want)"
	# the compiler's own words (the build log)...
	assert_regex "$stderr" 'error'
	assert_regex "$stderr" 'build log'
	# ...and one warning line, for all three inputs
	assert_equal "$(grep -c warning <<< "$stderr")" 1
	# nothing selected: exit 1, not 2
	run -1 --separate-stderr env AGREP_GPU_KERNEL="$PWD/bad.cl" \
	    AGREP_GPU_HOST_MAX=0 agrep-gpu -k 1 abcdef a b
	assert_output ''
	assert_equal "$(grep -c warning <<< "$stderr")" 1
	# -c, and standard input
	run -0 --separate-stderr bash -c \
	    'cat d | AGREP_GPU_KERNEL=$PWD/bad.cl AGREP_GPU_HOST_MAX=0 agrep-gpu -c -k 1 abcdef'
	assert_output 3
	# an empty kernel file (it builds, but has no kernel): same outcome
	: > empty.cl
	run -0 --separate-stderr env AGREP_GPU_KERNEL="$PWD/empty.cl" \
	    AGREP_GPU_HOST_MAX=0 agrep-gpu -n -k 1 abcdef d a d
	assert_output "$(cat want)"
	assert_regex "$stderr" 'warning'
}

@test "device: a corrupt program-binary cache file: no crash, right output" {
	# agrep-gpu keeps built kernels in $XDG_CACHE_HOME/agrep-gpu/*.bin; a
	# damaged one (disk error, full disk, another POCL) must be rebuilt,
	# not handed to the driver to crash on.  POCL keeps its compiled
	# kernels under $XDG_CACHE_HOME too: full (AGREP_GPU_TESTS=full) starts
	# it empty, POCL compiling the kernels afresh (9-10 s on the 2-core
	# machine); quick starts from a copy of the kernel cache the other
	# suites share (a copy: damaged binaries go to POCL here).  agrep-gpu's
	# own cache, xdg/agrep-gpu, starts empty in both.
	local pocl_kc="${POCL_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/pocl/kcache}"
	export XDG_CACHE_HOME="$PWD/xdg"
	if [ "$(depth quick full)" = quick ] && [ -d "$pocl_kc" ]; then
		mkdir -p xdg/pocl/kcache
		# (its entries, not POCL's leftover temporary files)
		find "$pocl_kc" -mindepth 1 -maxdepth 1 -type d \
		    -exec cp -r {} xdg/pocl/kcache/ \;
		export POCL_CACHE_DIR="$PWD/xdg/pocl/kcache"
	fi
	agrep-gpu --device=host -n -k 1 abcdef d a > want
	AGREP_GPU_HOST_MAX=0 agrep-gpu -n -k 1 abcdef d a > got
	same_bytes want got "cold cache"
	run ls xdg/agrep-gpu
	(( ${#lines[@]} > 0 )) || skip "no binary cache written"
	# the damage: cut in the binary (half, to 200 bytes), no longer than
	# the header (20, 0 bytes), bytes flipped (flip); quick: one of each
	# (half, 0, flip)
	local f how
	for f in xdg/agrep-gpu/*.bin; do cp "$f" "$f.good"; done
	for how in $(depth "half 0 flip" "half 200 20 0 flip"); do
		for f in xdg/agrep-gpu/*.bin; do
			case $how in
			half) head -c "$(( $(stat -c %s "$f.good") / 2 ))" "$f.good" > "$f" ;;
			flip) python3 -c 'import sys
b = bytearray(open(sys.argv[1], "rb").read())
for i in range(100, len(b), 97): b[i] ^= 0xff
open(sys.argv[2], "wb").write(b)' "$f.good" "$f" ;;
			*) head -c "$how" "$f.good" > "$f" ;;
			esac
		done
		run --separate-stderr env AGREP_GPU_HOST_MAX=0 timeout 60 \
		    agrep-gpu -n -k 1 abcdef d a
		(( status == 0 )) || fail "cache file cut/damaged ($how): exit $status; stderr: ${stderr:0:300}"
		assert_output "$(cat want)"
	done
}

@test "device: buffers larger than the device allows: a warning, right output" {
	# 4 GiB chunks: more than POCL's largest buffer (CL_DEVICE_MAX_MEM_ALLOC_SIZE)
	agrep-gpu --device=host -n -k 1 abcdef d a > want
	run -0 --separate-stderr env AGREP_GPU_CHUNK=4294967296 \
	    AGREP_GPU_HOST_MAX=0 agrep-gpu -n -k 1 abcdef d a
	assert_output "$(cat want)"
	assert_regex "$stderr" 'warning'
	run -1 --separate-stderr env AGREP_GPU_CHUNK=4294967296 \
	    AGREP_GPU_HOST_MAX=0 agrep-gpu -k 1 abcdef a b
	assert_output ''
}

@test "device: buffer allocation failure (AGREP_GPU_CHUNK=1 TiB): a warning, right output" {
	agrep-gpu --device=host -n -k 1 abcdef d a > want
	run --separate-stderr env AGREP_GPU_CHUNK=1099511627776 \
	    AGREP_GPU_HOST_MAX=0 agrep-gpu -n -k 1 abcdef d a
	# not a crash, not an abort
	(( status <= 2 )) || fail "exit $status (a signal?); stderr: $stderr"
	assert_regex "$stderr" 'warning|memory'
	# AGREP_GPU_CHUNK does not change what is selected (agrep-gpu(1)),
	# and a device that fails does not change the exit status
	assert_output "$(cat want)"
	assert_equal "$status" 0
}

# -------------------------------------------------------------------------
# Load
# -------------------------------------------------------------------------

@test "load: 1,000 files under -r: -c and -l as grep (k=0) and the host matcher (k=1)" {
	# tree/dD/sS/fF.txt, file number n = DSF: its first line, "has needle
	# n" if 3 divides n, "has neeXdle n" if 5 does, "needle needle" if 7
	# does, and a last line (awk: the shell loop took 1.9 s under bats)
	mkdir -p tree/d{0..9}/s{0..9}
	awk 'BEGIN { for (n = 0; n < 1000; n++) {
		f = sprintf("tree/d%d/s%d/f%d.txt", int(n / 100), int(n / 10) % 10, n % 10)
		printf "file %d first line\n", n > f
		if (n % 3 == 0) printf "has needle %d\n", n > f
		if (n % 5 == 0) printf "has neeXdle %d\n", n > f
		if (n % 7 == 0) print "needle needle" > f
		print "last line" > f
		close(f) } }'
	run find tree -type f
	assert_equal "${#lines[@]}" 1000
	grep -F -r -c needle tree | LC_ALL=C sort > want
	agrep-gpu -r -c needle tree > got
	same_bytes want got "-c, k=0"
	grep -F -r -l needle tree | LC_ALL=C sort > want
	agrep-gpu -r -l needle tree > got
	same_bytes want got "-l, k=0"
	# (quick: -c on the OpenCL path is the run under a low limit below;
	# -l runs on the host only, -n on both)
	local opts full=0
	[ "$(depth quick full)" = quick ] || full=1
	for opts in "-c" "-l" "-n"; do
		# shellcheck disable=SC2086
		agrep-gpu --device=host -r $opts -k 1 needle tree > want
		# shellcheck disable=SC2086
		agrep-gpu -r $opts -k 1 needle tree > got
		same_bytes want got "$opts, k=1"
		((full)) || [ "$opts" = -n ] || continue
		# shellcheck disable=SC2086
		AGREP_GPU_HOST_MAX=0 agrep-gpu -r $opts -k 1 needle tree > got 2> err
		same_bytes want got "$opts, k=1, OpenCL"
		run cat err
		assert_output ''
	done
	# no descriptor kept open per file: a low limit on open files is enough
	agrep-gpu --device=host -r -c -k 1 needle tree > want
	run -0 bash -c 'ulimit -n 32 && AGREP_GPU_HOST_MAX=0 agrep-gpu -r -c -k 1 needle tree'
	assert_output "$(cat want)"
}

@test "load: concurrent agrep-gpu processes on POCL (50; quick 8), each output right" {
	# full (AGREP_GPU_TESTS=full): 50 processes at once; quick: 8, four
	# a core on the 2-core machine, still all at once
	local i n
	n=$(depth 8 50)
	yes 'some filler text, a neXdle, needle and nedle' | head -n 20000 > text
	for i in $(seq 1 50); do printf 'line %d needle\nno\n' "$i"; done >> text
	agrep-gpu --device=host -n -k 1 needle text > want
	# one run first, so that the 50 share POCL's kernel cache, not build it
	AGREP_GPU_HOST_MAX=0 agrep-gpu -c -k 1 needle text > /dev/null
	for i in $(seq 1 "$n"); do
		(
			AGREP_GPU_HOST_MAX=0 timeout 300 agrep-gpu -n -k 1 needle text \
			    > "out.$i" 2> "err.$i"
			echo $? > "rc.$i"
		) 3>&- &
	done
	wait
	local bad=0
	for i in $(seq 1 "$n"); do
		if [ "$(cat "rc.$i")" != 0 ] || [ -s "err.$i" ] ||
		    ! cmp -s want "out.$i"; then
			bad=$((bad + 1))
			echo "# process $i: exit $(cat "rc.$i"), $(head -c 300 "err.$i")" >&3
		fi
	done
	assert_equal "$bad" 0
}
