#!/usr/bin/env bash
# bench/hostplan.sh: the host planner's matrix (issue 36).  For each case,
# agrep-gpu --device=host with its own choice of host engine (the default)
# against every engine forced by AGREP_GPU_HOST_ENGINE (scalar simd filter
# nofilter multi nomulti pp nopp seed, src/engines/hostmatch.c: hm_engine), wall
# time, with a check that every engine prints the same bytes as the default.
# One Markdown row a case: the default's seconds, the best forced engine and
# its seconds, their ratio, OVER when the default is more than 10% (and more
# than 5 ms) slower than the best, then each engine's seconds.  A summary
# line at the end.
#
# Inputs, built once into bench/data/ (cached): the King James Bible
# (kjv.txt, from .devdata/kjv.txt or bible(1), package bible-kjv), the Bible
# x8 (kjv-x8.txt, as bench/bench.sh names it), random DNA reads of 150 bases
# (bench/bin/gen_dna, ~32 MB), and under bench/data/hostplan/ the pattern
# lists: words (distinct 5-15 letter words of the Bible), primers (20-32
# base substrings of the reads, one in three with 1-2 substitutions) and
# phrases (10-64 byte pieces of verses, starting at a word), fixed seeds.
#
# Run from anywhere (it works at the top of the repository):
#   bash bench/hostplan.sh                    # the full matrix, ~15 min on 2 cores
#   HOSTPLAN_QUICK=1 bash bench/hostplan.sh   # a smoke run, ~2 min
#   OUT=bench/results/2core-hostplan.md bash bench/hostplan.sh
# Environment:
#   BIN               the binary (default ./agrep-gpu)
#   JOBS              passed as -j JOBS (default: agrep-gpu's own, the CPUs)
#   AGREP_GPU_ISA     passed through (and named in the header)
#   OUT               also write the header and table to this file
#   HOSTPLAN_QUICK=1  a subset of the cases (marked q), one run each, cap 5 s
#   HOSTPLAN_CASES    only the cases whose name matches this ERE
#   HOSTPLAN_ENGINES  forced engines to time (default all nine)
#   HOSTPLAN_RUNS     runs per engine, best taken (default 3; 1 when quick)
#   HOSTPLAN_FASTRUNS runs when the first is under 0.1 s (5; 3 when quick)
#   HOSTPLAN_SLOW     a first run longer than this (s) is not repeated (1.5)
#   HOSTPLAN_CAP      a forced engine is killed after this many s (default 20)
#   HOSTPLAN_CAPX     ... or after CAPX times the best so far (default 10,
#                     never under HOSTPLAN_CAPMIN, 0.5 s); shown as ">cap"
#   HOSTPLAN_CONFIRM  rounds in which the default and the engines within
#                     1.3x of the best run again, interleaved, each keeping
#                     its best (default 4; 0 when quick; cases under 1.5 s)
#   HOSTPLAN_COPIES   copies of the Bible in the big text (default 8)
#   HOSTPLAN_READS_MB size of the reads in MiB (default 32)
#   HOSTPLAN_DATA     cache folder (default bench/data)
set -uo pipefail
export LC_ALL=C
cd "$(dirname "$0")/.." || exit 2
BIN=${BIN:-./agrep-gpu}
D=${HOSTPLAN_DATA:-bench/data}
H=$D/hostplan
QUICK=${HOSTPLAN_QUICK:-0}
[[ $QUICK == 0 ]] && QUICK=""
RUNS=${HOSTPLAN_RUNS:-$([[ -n $QUICK ]] && echo 1 || echo 3)}
FASTRUNS=${HOSTPLAN_FASTRUNS:-$([[ -n $QUICK ]] && echo 3 || echo 5)}
SLOW=${HOSTPLAN_SLOW:-1.5}
CAP=${HOSTPLAN_CAP:-$([[ -n $QUICK ]] && echo 5 || echo 20)}
CAPX=${HOSTPLAN_CAPX:-10}
CAPMIN=${HOSTPLAN_CAPMIN:-0.5}
COPIES=${HOSTPLAN_COPIES:-8}
CONFIRM=${HOSTPLAN_CONFIRM:-$([[ -n $QUICK ]] && echo 0 || echo 4)}
READS_MB=${HOSTPLAN_READS_MB:-32}
ENGINES=(${HOSTPLAN_ENGINES:-scalar simd filter nofilter multi nomulti pp nopp seed})
# the order engines run in: the likely fast first, so the cap is tight early
ORDER=(multi nopp pp seed filter simd nofilter nomulti scalar)
JOPT=()
[[ -n ${JOBS:-} ]] && JOPT=(-j "$JOBS")
unset AGREP_GPU_HOST_ENGINE
[[ -x $BIN ]] || { echo "hostplan: no $BIN (make agrep-gpu, or BIN=path)" >&2; exit 2; }
log() { echo "hostplan: $*" >&2; }

# ---------------------------------------------------------------- inputs
mkdir -p "$D" "$H"
KJV=$D/kjv.txt
[[ -s $KJV ]] || { [[ -s .devdata/kjv.txt ]] && cp .devdata/kjv.txt "$KJV"; }
if [[ ! -s $KJV ]]; then
	command -v bible >/dev/null ||
	    { echo "hostplan: no $KJV and no bible(1) (apt-get install bible-kjv)" >&2; exit 2; }
	log "making $KJV"
	bible "Gen1:1-Rev22:21" > "$KJV.tmp" && mv "$KJV.tmp" "$KJV"
fi
KJV_B=$(stat -c %s "$KJV")
BIG=$D/kjv-x$COPIES.txt
if [[ ! -f $BIG || $(stat -c %s "$BIG") != $((COPIES * KJV_B)) ]]; then
	log "making $BIG"
	for ((i = 0; i < COPIES; i++)); do cat "$KJV"; done > "$BIG.tmp" && mv "$BIG.tmp" "$BIG"
fi
READS=$D/reads150-${READS_MB}m.txt
if [[ ! -s $READS ]]; then
	if [[ ! -x bench/bin/gen_dna || bench/gen_dna.c -nt bench/bin/gen_dna ]]; then
		mkdir -p bench/bin
		${CC:-cc} -O2 -o bench/bin/gen_dna bench/gen_dna.c || exit 2
	fi
	log "making $READS"
	bench/bin/gen_dna $((READS_MB << 20)) "$READS.pat" 150 1000 36 > "$READS.tmp" 2> /dev/null &&
	    mv "$READS.tmp" "$READS"
fi
declare -A CORPUS=([kjv]=$KJV [kjv8]=$BIG [reads]=$READS)

# words N: N distinct random words of 5-15 letters of the Bible
words() {
	grep -o '[A-Za-z]*' "$KJV" | awk 'length >= 5 && length <= 15' | sort -u |
	    awk -v n="$1" 'BEGIN { srand(36) } { w[NR] = $0 } END {
		for (i = NR; i > 1; i--) { j = 1 + int(rand() * i); t = w[i]; w[i] = w[j]; w[j] = t }
		for (i = 1; i <= n && i <= NR; i++) print w[i] }'
}
# primers N: N pieces of 20-32 bases of reads spread over the file, one in
# three with 1 or 2 substitutions
primers() {
	awk -v n="$1" -v nl="$(wc -l < "$READS")" 'BEGIN { srand(36 + n); step = int(nl / n) }
	    NR % step == 1 && c < n {
		l = 20 + int(rand() * 13); i = 1 + int(rand() * (length($0) - l + 1))
		s = substr($0, i, l)
		if (rand() < 1 / 3)
			for (m = 1 + int(rand() * 2); m > 0; m--) {
				p = 1 + int(rand() * l)
				s = substr(s, 1, p - 1) substr("acgt", 1 + int(rand() * 4), 1) substr(s, p + 1)
			}
		print s; c++ }' "$READS"
}
# phrases N: N distinct pieces of 10-64 bytes of the verses, from a word's
# start, no trailing blank
phrases() {
	awk -v n="$1" 'BEGIN { srand(64 + n) } { sub(/^ *[0-9]+ /, "") }
	    length($0) >= 10 { t[++m] = $0 } END {
		while (c < n) {
			s = t[1 + int(rand() * m)]; l = 10 + int(rand() * 55)
			if (l > length(s)) l = length(s)
			i = 1 + int(rand() * (length(s) - l + 1))
			while (i > 1 && substr(s, i - 1, 1) != " ") i--
			p = substr(s, i, l); sub(/ +$/, "", p)
			if (length(p) < 10 || p in seen) continue
			seen[p] = 1; print p; c++ } }' "$KJV"
}
for n in 1 10 100 1000 3000 10000; do
	[[ -s $H/words$n.txt ]] || words $n > "$H/words$n.txt"
done
for n in 1 10 100 300 1000; do
	[[ -s $H/primers$n.txt && $H/primers$n.txt -nt $READS ]] || primers $n > "$H/primers$n.txt"
done
for n in 1 10 100 1000; do
	[[ -s $H/phrases$n.txt ]] || phrases $n > "$H/phrases$n.txt"
done

# ---------------------------------------------------------------- cases
# corpus patterns k output [q: in the quick run]; output c: -c, o: the lines
# to a file
CASES=(
	"kjv words1 0 c q"	"kjv words1 1 c"	"kjv words1 3 c"
	"kjv words10 0 c"	"kjv words10 1 c q"	"kjv words10 2 c"
	"kjv words100 0 c"	"kjv words100 1 c"	"kjv words100 2 c q"
	"kjv words1000 0 c"	"kjv words1000 1 c q"	"kjv words1000 2 c"
	"kjv words3000 0 c"	"kjv words3000 1 c"	"kjv words3000 2 c"
	"kjv words10000 0 c"	"kjv words10000 1 c"	"kjv words10000 2 c"
	"kjv phrases1 2 c"	"kjv phrases1 5 c q"	"kjv phrases10 3 c"
	"kjv phrases100 3 c"	"kjv phrases100 5 c"	"kjv phrases1000 4 c"
	"kjv8 words1 1 c"	"kjv8 words10 2 c"	"kjv8 words100 1 c"
	"kjv8 words1000 1 c"	"kjv8 words3000 0 c"	"kjv8 phrases1 4 c q"
	"kjv8 phrases10 5 c"
	"reads primers1 0 c"	"reads primers1 2 c"	"reads primers1 5 c q"
	"reads primers10 1 c"	"reads primers10 3 c"	"reads primers100 0 c"
	"reads primers100 2 c q"	"reads primers100 4 c"	"reads primers300 1 c"
	"reads primers300 3 c"	"reads primers1000 0 c"	"reads primers1000 2 c"
	"kjv words10 1 o"	"kjv words1000 1 o q"	"kjv phrases100 3 o"
	"kjv8 words100 2 o"	"reads primers100 2 o"
)

# ---------------------------------------------------------------- timing
TMP=$(mktemp -d "${TMPDIR:-/tmp}/hostplan.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

# the binary, copied: the same one for the whole matrix while others rebuild
XB=$TMP/agrep-gpu
cp "$BIN" "$XB" || exit 2
BIN_ID="$BIN ($(stat -c %y "$BIN" | cut -d. -f1), sha256 $(sha256sum "$BIN" | cut -c1-12))"

# run1 ENGINE CAP OUTFILE ARGS...: one run; sets T (wall s) and RC (124 or
# 137: capped)
run1() {
	local e=$1 cap=$2 of=$3 t0 t1
	shift 3
	t0=$EPOCHREALTIME
	if [[ -z $e ]]; then
		timeout -k 2 "$cap" "$XB" "$@" > "$of" 2> "$of.err"
	elif [[ $e == rule ]]; then
		AGREP_GPU_HOST_PLAN=rule timeout -k 2 "$cap" "$XB" "$@" > "$of" 2> "$of.err"
	else
		AGREP_GPU_HOST_ENGINE=$e timeout -k 2 "$cap" "$XB" "$@" > "$of" 2> "$of.err"
	fi
	RC=$?
	t1=$EPOCHREALTIME
	T=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }')
}
# best ENGINE CAP OUTFILE ARGS...: the best of RUNS runs (one when the first
# is slower than SLOW, FASTRUNS when it is under 0.1 s); sets B ("" when
# capped), RC, and RUNDIFF (1: a later run printed other bytes than the first)
best() {
	local e=$1 cap=$2 of=$3 r n=$RUNS
	shift 3
	RUNDIFF=0
	run1 "$e" "$cap" "$of" "$@"
	(( RC == 137 || RC == 124 )) && { B=""; return; }
	B=$T
	awk -v t="$T" -v s="$SLOW" 'BEGIN { exit !(t > s) }' && return
	awk -v t="$T" 'BEGIN { exit !(t < 0.1) }' && (( FASTRUNS > n )) && n=$FASTRUNS
	for ((r = 1; r < n; r++)); do
		run1 "$e" "$cap" "$of.again" "$@"
		(( RC == 137 || RC == 124 )) && break	# keep the runs before
		cmp -s "$of" "$of.again" || RUNDIFF=1
		B=$(awk -v a="$B" -v b="$T" 'BEGIN { print (b < a ? b : a) }')
	done
}

git_rev=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
git diff --quiet HEAD -- src agrep-gpu.c kernels 2>/dev/null || git_rev="$git_rev (with uncommitted changes in src/)"
header() {
	echo "## Host planner matrix (bench/hostplan.sh${QUICK:+, quick})"
	echo
	echo "- $(date -u '+%F %H:%M UTC'); CPU: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) CPUs; load average at start $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "- ISA: ${AGREP_GPU_ISA:-auto (AGREP_GPU_ISA unset)}; commit $git_rev; binary $BIN_ID; threads ${JOBS:-default}"
	echo "- \`$BIN --device=host -F -k K -f PATTERNS [-c] FILE\`, LC_ALL=C; wall seconds, best of $RUNS (of $FASTRUNS under 0.1 s, one run when the first takes over ${SLOW} s); a forced engine is killed after min(${CAP} s, ${CAPX} x the best so far, at least ${CAPMIN} s): >cap; then $CONFIRM rounds of the default and the engines within 1.3x of the best, interleaved, each keeping its best (cases under 1.5 s)"
	echo "- kjv: the Bible, $KJV_B bytes; kjv8: $COPIES copies, $(stat -c %s "$BIG") bytes; reads: $(wc -l < "$READS") random reads of 150 bases, $(stat -c %s "$READS") bytes"
	echo "- ratio: default / best forced engine; OVER: the default more than 10% and 5 ms slower than the best; rule: AGREP_GPU_HOST_PLAN=rule, the choice by thresholds that the planner replaced, and its ratio to the best; output: c = -c, o = the lines to a file"
	echo
	printf '| case | lines | default s | best forced | best s | ratio | flag | rule s | rule ratio |'
	printf ' %s |' "${ENGINES[@]}"
	echo
	printf '|---|---|---|---|---|---|---|---|---|'
	printf -- '---|%.0s' "${ENGINES[@]}"
	echo
}
if [[ -n ${OUT:-} ]]; then
	mkdir -p "$(dirname "$OUT")"
	: > "$OUT"
	emit() { tee -a "$OUT"; }
else
	emit() { cat; }
fi
header | emit

ncase=0 nok=0 nover=0 nmis=0 rok=0 worst=0 worstcase="" start=$EPOCHREALTIME
for c in "${CASES[@]}"; do
	read -r corpus pset k mode q <<< "$c"
	name="$corpus $pset k=$k"
	[[ $mode == o ]] && name="$name out"
	[[ -n $QUICK && $q != q ]] && continue
	[[ -n ${HOSTPLAN_CASES:-} && ! $name =~ ${HOSTPLAN_CASES} ]] && continue
	args=(--device=host -F -k "$k" -f "$H/$pset.txt" "${JOPT[@]}")
	[[ $mode == c ]] && args+=(-c)
	args+=("${CORPUS[$corpus]}")
	log "$name"
	best "" 600 "$TMP/out.default" "${args[@]}"
	if [[ -z $B ]]; then
		echo "| $name | - | >600 | | | | FAILED |" | emit
		continue
	fi
	def=$B
	(( RUNDIFF )) && echo "hostplan: MISMATCH: $name: the default prints other bytes from run to run" >&2
	if [[ $mode == c ]]; then lines=$(cat "$TMP/out.default"); else lines=$(wc -l < "$TMP/out.default"); fi
	best rule 600 "$TMP/out.rule" "${args[@]}"
	rulet=$B
	cmp -s "$TMP/out.default" "$TMP/out.rule" || { rulet="$rulet MISMATCH"; echo "hostplan: MISMATCH: $name: the rule prints other bytes than the default" >&2; }
	declare -A ET=()
	bestv=$def beste="" bestf="" mis=""
	(( RUNDIFF )) && mis=" default"
	for e in "${ORDER[@]}"; do
		[[ " ${ENGINES[*]} " == *" $e "* ]] || continue
		cap=$(awk -v b="$bestv" -v x="$CAPX" -v m="$CAPMIN" -v c="$CAP" 'BEGIN {
			t = b * x; if (t < m) t = m; if (t > c) t = c; printf "%.2f", t }')
		best "$e" "$cap" "$TMP/out.$e" "${args[@]}"
		if [[ -z $B ]]; then
			ET[$e]=">$cap"
			continue
		fi
		ET[$e]=$B
		if (( RUNDIFF )) || ! cmp -s "$TMP/out.default" "$TMP/out.$e"; then
			ET[$e]="$B MISMATCH"
			mis="$mis $e"
			echo "hostplan: MISMATCH: $name: AGREP_GPU_HOST_ENGINE=$e prints other bytes than the default" >&2
			continue
		fi
		if [[ -z $bestf ]] || awk -v a="$B" -v b="$bestf" 'BEGIN { exit !(a < b) }'; then
			bestf=$B beste=$e
		fi
		awk -v a="$B" -v b="$bestv" 'BEGIN { exit !(a < b) }' && bestv=$B
	done
	# Confirm: the default and the engines near the best run again in
	# interleaved rounds, each keeping its best, so that a drift of the
	# machine (seen: 15-20% between minutes on the 2-core VM) does not
	# fall on the default alone, which ran first; the rounds rotate who
	# runs first.
	if [[ -n $bestf ]] && (( CONFIRM > 0 )) &&
	    awk -v a="$def" -v b="$bestf" 'BEGIN { exit !(a < 1.5) }'; then
		near=()
		for e in "${ORDER[@]}"; do
			[[ -n ${ET[$e]:-} && ${ET[$e]} != ">"* && ${ET[$e]} != *MISMATCH ]] || continue
			awk -v a="${ET[$e]}" -v b="$bestf" 'BEGIN { exit !(a <= 1.3 * b) }' && near+=("$e")
		done
		# each round starts one further along the list, so that no
		# engine always runs first (after the bookkeeping's pause)
		local_list=(default "${near[@]}")
		for ((r = 0; r < CONFIRM; r++)); do
			for ((x = 0; x < ${#local_list[@]}; x++)); do
				e=${local_list[(x + r) % ${#local_list[@]}]}
				if [[ $e == default ]]; then
					run1 "" 600 "$TMP/out.again" "${args[@]}"
					def=$(awk -v a="$def" -v b="$T" 'BEGIN { print (b < a ? b : a) }')
				else
					run1 "$e" 600 "$TMP/out.again" "${args[@]}"
					ET[$e]=$(awk -v a="${ET[$e]}" -v b="$T" 'BEGIN { print (b < a ? b : a) }')
				fi
			done
		done
		bestf="" beste=""
		for e in "${near[@]}"; do
			if [[ -z $bestf ]] || awk -v a="${ET[$e]}" -v b="$bestf" 'BEGIN { exit !(a < b) }'; then
				bestf=${ET[$e]} beste=$e
			fi
		done
	fi
	ncase=$((ncase + 1))
	flag=""
	if [[ -n $bestf ]]; then
		ratio=$(awk -v a="$def" -v b="$bestf" 'BEGIN { printf "%.2f", a / b }')
		if awk -v a="$def" -v b="$bestf" 'BEGIN { exit !(a > 1.10 * b && a - b > 0.005) }'; then
			flag=OVER nover=$((nover + 1))
		else
			nok=$((nok + 1))
		fi
		if awk -v r="$ratio" -v w="$worst" 'BEGIN { exit !(r > w) }'; then
			worst=$ratio worstcase="$name ($beste)"
		fi
	else
		ratio="-"
	fi
	[[ -n $mis ]] && { flag="$flag MISMATCH($mis )"; nmis=$((nmis + 1)); }
	rratio=-
	[[ -n $bestf && -n $rulet ]] && awk -v a="${rulet%% *}" -v b="$bestf" 'BEGIN { exit !(a <= 1.10 * b || a - b <= 0.005) }' && rok=$((rok + 1))
	[[ -n $bestf && -n $rulet ]] && rratio=$(awk -v a="${rulet%% *}" -v b="$bestf" 'BEGIN { printf "%.2f", a / b }')
	row="| $name | $lines | $def | ${beste:--} | ${bestf:--} | $ratio | $flag | $rulet | $rratio |"
	for e in "${ENGINES[@]}"; do row="$row ${ET[$e]:-} |"; done
	echo "$row" | emit
	[[ -n $mis ]] && echo "MISMATCH in $name:$mis" >&2
	unset ET
done
el=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.0f", b - a }')
{
	echo
	echo "Summary: $ncase cases, $nok with the default within 10% of the best forced engine (or 5 ms), $nover OVER; worst ratio $worst: $worstcase; the rule (thresholds, before the planner) within 10% on $rok; $nmis with a MISMATCH; ${el} s; load average at the end $(cut -d' ' -f1-3 /proc/loadavg)."
	[[ $nmis -gt 0 ]] && echo "MISMATCH: $nmis cases where a forced engine's output differs from the default's (see the rows)"
} | emit
[[ $nmis -eq 0 ]]
