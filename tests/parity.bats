#!/usr/bin/env bats
# GNU grep 3.8 parity (issue 12): behaviours grep's own test suite checks.
# Where k=0, grep -F 3.8 (/usr/bin/grep) itself is the reference: same
# arguments, same stdout, same stderr (program name substituted), same exit
# status, with -j1 and -j3 (make check: one of them a call, by turns).
# Where agrep-gpu differs on purpose (k>0), the documented rule is checked.

load test_helper
bats_require_minimum_version 1.5.0

setup() {
	cd "$BATS_TEST_TMPDIR" || return
	# the calls of like_grep and like_grep_sh in this test so far; whether
	# each runs both -j (below)
	NCALL=0
	BOTH_J=$(depth 0 1)
}

# lg_js: the -j a like_grep call runs: full (AGREP_GPU_TESTS=full) 1 and
# 3; quick, one of them by turns (a test's 1st call -j1, its 2nd -j3...)
lg_js() {
	if [ "$BOTH_J" = 1 ]; then JS="1 3"; else JS=$((NCALL % 2 * 2 + 1)); fi
	NCALL=$((NCALL + 1))
}

# as_ours NAME: in the variable NAME, grep's messages read as agrep-gpu's
# (a line's "grep: " or "/usr/bin/grep: "), without a sed
as_ours() {
	local -n v=$1
	v=$'\n'$v
	v=${v//$'\n'\/usr\/bin\/grep: /$'\n'agrep-gpu: }
	v=${v//$'\n'grep: /$'\n'agrep-gpu: }
	v=${v#$'\n'}
}

# like_grep ARGS...: agrep-gpu -j1 and -j3 (quick: one of them, lg_js)
# give grep -F's stdout (byte for byte, cmp), stderr (as_ours) and exit
# status.  (Files in $BATS_FILE_TMPDIR, outside the trees the tests
# search, and no pipes: a call costs its two programs and a cmp.)
like_grep() {
	local want_rc=0 rc j JS wes ges o="$BATS_FILE_TMPDIR"
	lg_js
	/usr/bin/grep -F "$@" > "$o/want.out" 2> "$o/want.err" || want_rc=$?
	IFS= read -r -d '' wes < "$o/want.err" || true
	as_ours wes
	for j in $JS; do
		rc=0
		agrep-gpu -j$j "$@" > "$o/got.out" 2> "$o/got.err" || rc=$?
		cmp -s "$o/want.out" "$o/got.out" ||
			fail "agrep-gpu -j$j $*: stdout is not grep -F's:
$(diff "$o/want.out" "$o/got.out" | head -5)"
		IFS= read -r -d '' ges < "$o/got.err" || true
		assert_equal "$ges" "$wes"
		assert_equal "$rc" "$want_rc"
	done
}

# like_grep_sh CMD: the same for a shell command line naming $G (grep -F
# or agrep-gpu -jN): stdout and stderr together, and the exit status.
like_grep_sh() {
	local want got j want_rc=0 rc JS
	lg_js
	want=$(G='/usr/bin/grep -F' bash -c "$1" 2>&1) || want_rc=$?
	as_ours want
	for j in $JS; do
		rc=0
		got=$(bash -c "G='agrep-gpu -j$j'; $1" 2>&1) || rc=$?
		assert_equal "$got" "$want"
		assert_equal "$rc" "$want_rc"
	done
}

# --- 1. -m on standard input from a regular file

@test "-m leaves a regular standard input just after the last selected line" {
	printf 'a1\nb\na2\nc\na3\n' > f
	like_grep_sh '($G -m1 a; echo ==; cat) < f'
	like_grep_sh '($G -m1 -A2 a; echo ==; cat) < f'
	like_grep_sh '($G -m2 -n a; echo ==; $G -m1 a; echo ==; cat) < f'
	like_grep_sh '($G -c -m1 a; echo ==; cat) < f'
	like_grep_sh '($G -v -m2 a; echo ==; cat) < f'
	like_grep_sh '(cat; $G -m1 a) < f'
	# not reached: the input is read to its end
	like_grep_sh '($G -m5 a; echo ==; cat) < f'
}

# --- 2. binary files

@test "a binary file: 'binary file matches' on stderr, exit 0, -s too" {
	printf 'a\nb\0\na\n' > bin
	printf 'xyz a\n' > txt
	like_grep a bin
	like_grep a txt bin txt
	like_grep -s -n a bin txt
	like_grep -c a bin
	like_grep -l a bin txt
	like_grep -L a bin txt
	like_grep -q a bin
	like_grep -a a bin
	like_grep zzz bin
	printf 'abc\0\n' | agrep-gpu b 2> err
	assert_equal "$(cat err)" 'agrep-gpu: (standard input): binary file matches'
}

@test "a binary file: lines before grep's first binary buffer are printed, context too" {
	# the NUL lies in grep's 4th 96 KiB block, which starts at a record
	# (12-byte records; with 32 KiB ranges the block starts range 9)
	awk 'BEGIN { for (i = 0; i < 24676; i++) printf "lin%06d a\n", i }' > big
	printf 'nul\0 a\nafter a\n' >> big
	awk 'BEGIN { for (i = 0; i < 100; i++) print "tail a" }' >> big
	like_grep a big
	like_grep -n -A1 a big
	like_grep -c a big
	AGREP_GPU_CHUNK=65536 like_grep -b a big
	AGREP_GPU_CHUNK=65536 like_grep -I a big
	# the block starts inside a record: that record is binary too
	awk 'BEGIN { for (i = 0; i < 30000; i++) printf "line %d a\n", i }' > big2
	printf 'nul\0 a\nafter a\n' >> big2
	like_grep -n a big2
	# in the first buffer: nothing but the message
	printf 'a\nb\na\0\n' > small
	like_grep -n a small
}

@test "--binary-files=TYPE and -I" {
	printf 'a\nb\0\na\n' > bin
	printf 'a\n' > txt
	like_grep -I a bin txt
	like_grep -c -I a bin txt
	like_grep -L -I a bin txt
	like_grep -l -I a bin txt
	like_grep --binary-files=without-match a bin
	like_grep --binary-files=text a bin
	like_grep --binary-files=binary a bin
	like_grep -I -a a bin
	run -2 agrep-gpu --binary-files=nope a bin
	assert_output --partial 'nope'
}

# --- 3. input file is also the output

@test "an input that is also the output is skipped with a message, exit 2" {
	like_grep_sh 'echo a > o; $G a o g >> o; echo "rc=$?"; cat o'
	like_grep_sh 'echo a > o; $G -s a o >> o; echo "rc=$?"; cat o'
	like_grep_sh 'echo a > o; echo a > p; $G a p o >> o; echo "rc=$?"; cat o'
	like_grep_sh ': > e; $G a e >> e; echo "rc=$?"'
	like_grep_sh 'echo a > o; $G a < o >> o; echo "rc=$?"; cat o'
	like_grep_sh 'mkdir -p d; echo a > d/x; echo a > d/y; $G -r a d >> d/y; echo "rc=$?"; cat d/y'
	# the output cannot grow from it: searched
	for o in -m1 -c -l -L -q; do
		like_grep_sh 'echo a > o; $G '"$o"' a o >> o; echo "rc=$?"; cat o'
	done
}

# --- 4. -o with several patterns at k=0: leftmost, then longest

@test "-o at k=0: the leftmost, then longest match of all patterns" {
	printf 'xccc\nabcd bc\nab ab\n' > f
	like_grep -o -e c -e cc -e ccc f
	like_grep -o -e ccc -e c f
	like_grep -o -b -e c -e cc f
	like_grep -o -e bc -e abc -e b f
	like_grep -o -e b -e abcd -e cd f
	like_grep -o -i -e B -e AB f
	like_grep -o -w -e ab -e b f
	like_grep --color=always -e c -e cc f
	like_grep -o -e '' -e cc f
}

@test "-o with k>0: the first end of a match, then the shortest (documented)" {
	printf 'xccc\n' > f
	run -0 agrep-gpu -o -k1 -e ccx f
	assert_output 'cc'
	# leftmost-longest would take xccc (cost 1); the rule stops at xcc
	run -0 agrep-gpu -o -b -k1 -e xcc -e ccc f
	assert_output '0:xcc'
}

# --- 5. nothing can be selected

@test "nothing selectable (-m0, -f /dev/null, -v ''): exit 1, no file opened" {
	echo y > y
	for opts in "-m0 y" "-f /dev/null" "-v ''" "-c -m0 y" "-l -f /dev/null" "-q -v ''" "-r -m0 y"; do
		eval "like_grep $opts nosuch"
		eval "like_grep $opts y nosuch"
	done
	# -m0 compiles no pattern: an invalid one is no error (as grep)
	run -1 grep -m0 -G '[' y
	run -1 agrep-gpu -m0 -G '[' y
	assert_output ''
	run -1 grep -m0 -E 'a{1,2,3}' y
	run -1 agrep-gpu -m0 -E 'a{1,2,3}' y
	assert_output ''
	# -L still names the files
	like_grep -L -m0 y y nosuch
	like_grep -L -f /dev/null y
	# -v with -x can select
	like_grep -v -x '' y
	run -0 agrep-gpu -k1 -v -x abc y
	assert_output y
	# only a set of empty patterns is nothing selectable: '' beside
	# another pattern, or a pattern no longer than -k, matches every
	# line, and -c -v prints the counts (0), as grep -c -v -e '' -e x
	printf 'abc\nxyz\n' > s
	like_grep -c -v -e '' -e ax s y
	like_grep -c -v -e '' -e '' s y
	like_grep -L -v -e '' -e ax s y
	run -1 agrep-gpu -c -v -k3 abc s y
	assert_output "$(printf 's:0\ny:0')"
	run -1 agrep-gpu -c -v -k3 -e '' -e abc s
	assert_output 0
}

# --- 6. -o with context and -v

@test "-o with -v and context prints the matched parts of the context lines" {
	printf 'xabc\nabcab\nzz\nab q ab\nyy\n' > t
	seq 1 12 > s
	like_grep -v -C1 -o ab t
	like_grep -v -o ab t
	like_grep -n -v -A1 -o ab t
	like_grep -b -n -v -B1 -o ab t
	like_grep -o -C1 -n ab t
	like_grep -o -C1 -e 1 -e 8 s
	like_grep -v -o -n -C1 -e 5 -e 9 s
	like_grep -v -C1 --color=always ab t
}

# --- 7. --exclude-dir=dir/

@test "--exclude-dir=dir/ excludes dir as without the slash" {
	mkdir -p top/dir/sub top/other
	echo a > top/dir/f; echo a > top/dir/sub/g; echo a > top/other/h
	like_grep -r --exclude-dir=dir/ a top
	like_grep -r --exclude-dir=dir// a top
	like_grep -r --exclude-dir=sub/ a top
	cd top
	like_grep -r --exclude-dir=dir/ a
}

# --- 8. options grep users reach for

@test "--group-separator=SEP and --no-group-separator" {
	seq 1 20 > s
	like_grep -A1 -e 3 -e 9 s
	like_grep --group-separator='::' -A1 -e 3 -e 9 s
	like_grep --group-separator= -B1 -e 3 -e 9 s
	like_grep --group-separator="$(printf '%0100d' 0)" -C1 -e 3 -e 9 s
	like_grep --no-group-separator -C1 -e 3 -e 9 s
	like_grep --no-group-separator --group-separator=XX -C1 -e 3 -e 9 s
	like_grep --color=always --group-separator='@@' -A1 -e 3 -e 9 s
	seq 1 20 > s2
	like_grep --group-separator='==' -A1 -e 3 -e 9 s s2
	like_grep --no-group-separator -A1 -e 3 -e 9 s s2
}

@test "-T, --initial-tab" {
	printf 'xabc\nabcab\n\nzz\nab q ab\n' > t
	cp t u
	like_grep -T ab t
	like_grep -T -H ab t
	like_grep -T -n ab t
	like_grep --initial-tab -n -b ab t u
	like_grep -T -n -C1 ab t
	like_grep -T -n -e ab -e '' t
	like_grep -T -o -b ab t
	like_grep -T -c ab t u
	like_grep -T -H -Z ab t
	like_grep -T -n --color=always ab t
	like_grep_sh '$G -T -n ab < t'
	like_grep_sh 'cat t | $G -T -n -b ab'
}

@test "-D ACTION, --devices=ACTION" {
	mkfifo fifo
	echo a > f
	like_grep -D skip a fifo f
	like_grep --devices=skip a /dev/null f
	like_grep -D read a /dev/null f
	like_grep_sh 'echo a | $G -D skip a -'
	like_grep_sh 'echo a | $G -D skip -H a'
	run -2 agrep-gpu -D nope a f
	assert_output --partial 'nope'
}

@test "GREP_COLOR: the match colour, with grep's deprecation warning" {
	printf 'xabc\nzz\n' > t
	export GREP_COLOR='01;32'
	like_grep --color=always ab t
	like_grep --color=always -v -A1 zz t
	like_grep --color=never ab t
	like_grep ab t
	like_grep -q --color=always ab t
	GREP_COLORS='mt=01;34' like_grep --color=always ab t
	GREP_COLORS='ms=34' like_grep --color=always ab t
	GREP_COLORS='ms=34:mc=35' like_grep --color=always -v -A1 zz t
	GREP_COLORS='fn=33' like_grep --color=always -H ab t
	GREP_COLOR='1;x' like_grep --color=always ab t
	GREP_COLOR= like_grep --color=always ab t
}

# --- 9. pattern length at k=0

@test "k=0: a pattern of 10,001 bytes is searched; with -k it is refused" {
	local p
	p=$(head -c 10001 /dev/zero | tr '\0' a)
	{ echo x; echo "y${p}z"; echo "${p:1}"; echo "${p}${p}"; } > t
	printf '%s\n' "$p" > pf
	like_grep -c "$p" t
	like_grep -n -f pf t
	like_grep -c -i -f pf t
	like_grep -c -e "$p" -e x t
	like_grep -c -i -e "${p^^}" -e x t
	like_grep -c -v -f pf t
	like_grep -o -b -f pf t
	like_grep -c -w -e "y${p}z" t
	like_grep_sh '$G -c -f pf < t'
	# a file larger than a chunk, so that records cross chunks
	for i in 1 2 3 4 5 6 7 8; do cat t; done > t8
	AGREP_GPU_CHUNK=4096 like_grep -c -n -f pf t8
	AGREP_GPU_CHUNK=4096 like_grep -c -i -e "$p" -e zzz t8
	run -2 agrep-gpu -k1 -c "$p" t
	assert_output --partial 4096
}
