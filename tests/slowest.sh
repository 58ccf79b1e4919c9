#!/bin/sh
# tests/slowest.sh REPORT.xml: the slowest suites and tests of a bats run,
# from its JUnit report (bats --report-formatter junit), so that whoever
# adds a suite sees what it costs.  make check prints it at the end.
f=${1:?usage: tests/slowest.sh REPORT.xml}
[ -r "$f" ] || exit 0
echo "== the slowest suites (seconds of one job; make check runs $(nproc) at once)"
sed -n 's/.*<testsuite name="\([^"]*\)".* tests="\([0-9]*\)".* time="\([0-9.]*\)".*/\3 \1 (\2 tests)/p' "$f" |
	sort -rn | head -8 | awk '{ printf "%8.1f  %s %s %s\n", $1, $2, $3, $4 }'
echo "== the slowest tests"
sed -n 's/.*<testcase classname="\([^"]*\)" name="\([^"]*\)" time="\([0-9.]*\)".*/\3 \1: \2/p' "$f" |
	sed "s/&#39;/'/g; s/&lt;/</g; s/&gt;/>/g; s/&quot;/\"/g; s/&amp;/\&/g" | sort -rn | head -5 | awk '{ t = $1; $1 = ""; printf "%8.1f %s\n", t, substr($0, 1, 100) }'
