#!/bin/bash
# bench/weights.sh: weighted edit costs (--insert-cost, --delete-cost,
# --substitute-cost; issue 40) against the unit cost search of the same
# expression by the automaton, and against tre-agrep -I/-D/-S, in one run.
# From the project root:  bench/weights.sh [COPIES]
#   the Bible x COPIES (default 8: 34 MB), -c -k K for each case below,
#   costs S1 I2 D2 (OCR: substitutions cheap) and S2 I1 D1; the unit row
#   is the same expression with AGREP_GPU_RE_EXPAND=0 (every expression
#   with | as an automaton; plain patterns go to Myers' engines, so their
#   unit row is the automaton of the pattern as an expression, (mercy)).
# Best of 3 wall times (tre-agrep: one run); the counts must agree with
# tre-agrep's, and a mismatch is printed.
set -eu
COPIES=${1:-8}
A=${AGREP_GPU:-./agrep-gpu}
T=${TMPDIR:-/tmp}/agrep-weights-bench
mkdir -p "$T"
OUT=$T/out
. bench/best.sh

echo "# bench/weights.sh $(date -u +%F) on $(nproc) cores: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), agrep-gpu $(git rev-parse --short HEAD 2>/dev/null)"
K=$T/kjv$COPIES
if [ ! -s "$K" ]; then
	if [ -s bench/data/kjv.txt ]; then
		src=bench/data/kjv.txt
	else
		bible "Gen1:1-Rev22:21" > "$T/kjv1"
		src=$T/kjv1
	fi
	for ((i = 0; i < COPIES; i++)); do cat "$src"; done > "$K"
fi
echo "text: the Bible x $COPIES, $(wc -c < "$K") bytes"
echo
echo "| expression | k | costs | unit automaton s | weighted s | ratio | tre-agrep s | tre / weighted |"
echo "|---|---|---|---|---|---|---|---|"
row() {	# row EXPR K I D S
	local e=$1 k=$2 ci=$3 cd=$4 cs=$5 u w t n1 n2
	u=$(AGREP_GPU_RE_EXPAND=0 best 3 "$A" -E -c -k"$k" "($e)" "$K")
	w=$(best 3 "$A" -E -c -k"$k" --insert-cost="$ci" --delete-cost="$cd" \
	    --substitute-cost="$cs" "$e" "$K")
	n1=$(cat "$OUT")
	t=-
	if command -v tre-agrep >/dev/null; then
		t=$(best 1 tre-agrep -E "$k" -I "$ci" -D "$cd" -S "$cs" -c "$e" "$K")
		n2=$(cat "$OUT")
		[ "$n1" = "$n2" ] || echo "MISMATCH $e -k$k I$ci D$cd S$cs: $n1 vs tre-agrep $n2"
	fi
	echo "| \`$e\` | $k | I$ci D$cd S$cs | $u | $w | $(ratio "$w" "$u") | $t | $([ "$t" = - ] && echo - || ratio "$t" "$w") |"
}
for c in "2 2 1" "1 1 2"; do
	set -- $c
	row mercy 2 "$@"
	row 'for his mercy endureth' 4 "$@"
	row 'merc(y|ies)' 2 "$@"
	row 'the L[a-z]+D' 2 "$@"
	row 'j[aeiou]+b' 1 "$@"
	row '(said|spake) unto' 2 "$@"
	row 'ever\.$' 2 "$@"
	row '\<mercy' 2 "$@"
done
