#!/bin/sh
# tests/passes.sh MAKE [ARGS...] -- PASS...: run `MAKE ARGS PASS` for each
# pass in turn (make check-extra's passes), stop at the first that fails,
# and print how long each took, so that whoever adds a pass sees what it
# costs CI.  The times also go to .check-times (make clean keeps it: the
# .deb pass runs make clean).
set -u
cmd=
while [ $# -gt 0 ] && [ "$1" != -- ]; do cmd="$cmd $1"; shift; done
shift
: > .check-times
status=0
for pass in "$@"; do
	start=$(date +%s)
	echo "== $pass"
	# shellcheck disable=SC2086 # the make command's words
	$cmd "$pass" || status=$?
	echo "$pass $(( $(date +%s) - start ))" >> .check-times
	[ "$status" -eq 0 ] || break
done
echo "== the passes' times (seconds)"
awk '{ printf "%8d  %s\n", $2, $1; s += $2 } END { printf "%8d  in all\n", s }' .check-times
[ "$status" -eq 0 ] || echo "== $pass failed (exit $status)"
exit "$status"
