#!/bin/bash
# bench/gpu-decomp16.sh: issue 37's parallel-decoding target on the GPU
# machine (16 cores): BGZF and multi-frame zstd (pzstd) decoded on every
# core, at least 10x the single-thread rate.  Run ON it from the project
# root after
#   bash .devdeps/opencl-setup.sh; . .devdeps/dz-setup.sh
#   CFLAGS="-O2 -g $DZ_CFLAGS" LDFLAGS="$DZ_LDFLAGS" make -j agrep-gpu
# (.devdeps/dz-setup.sh and .devdeps/dz: bench/gpu-dz-fetch.sh, run on the
# development machine; bgzip and pzstd come from them).  Self-contained,
# under 3 minutes: 1 GiB of 150-base reads (bench/gen_dna.c, in /dev/shm),
# compressed once with bgzip -@N and pzstd -p N; then, each the best of
# RUNS wall times with its CPU time (user+sys) beside it, on the host
# (--device=host):
#  - "decode": --decompress -c of a string that never occurs (the exact
#    search costs next to nothing: the rate of the decoding);
#  - "search": --decompress -c -k2 of a 14-base pattern in lower case, as
#    gen_dna writes (a cheap approximate scan beside the decoding, the
#    2-core case's kind);
# at -j1, -j8 and -jN (N = nproc), with the plain file's times and the
# ratio -j1 / -jN (the issue's target: 10x for .bgz and .zst).  The
# reference decoders' times follow, then the machine's own ceiling: the
# reads cut in N parts, each compressed alone (zstd -3, bgzip), and one
# part decoded by the reference decoder (zstd -t, bgzip -dc) alone against
# all N parts by N of them at once: N x alone / (all at once) is the most
# that N cores give that decoder on this machine, whatever the program.
# Environment: RUNS (3), A (./agrep-gpu; another build's, to compare), R
# (the reads).
set -u
export LC_ALL=C
N=$(nproc)
RUNS=${RUNS:-3}
A=${A:-./agrep-gpu}
R=${R:-/dev/shm/reads1g}
command -v bgzip >/dev/null && command -v pzstd >/dev/null ||
	{ echo "bgzip or pzstd missing: source .devdeps/dz-setup.sh" >&2; exit 2; }
[ -x "$A" ] || { echo "$A missing: build it first" >&2; exit 2; }
if [ ! -s $R ]; then
	cc -O2 -o /tmp/gen_dna bench/gen_dna.c || exit 2
	/tmp/gen_dna $((1 << 30)) /tmp/unused.pat 150 997 777 >$R 2>/dev/null
fi
[ -s $R.bgz ] || bgzip -@ "$N" -c $R >$R.bgz
[ -s $R.zst ] || pzstd -q -p "$N" -c $R >$R.zst

# best CMD...: "wall cpu" of the run with the best wall time of RUNS,
# output to a file (the count, kept for the table)
best() {
	local b="" bc="" i out t
	for ((i = 0; i < RUNS; i++)); do
		out=$( { TIMEFORMAT='%R %U %S'; time "$@" >/tmp/gd16.out 2>&1; } 2>&1 )
		t=$(awk '{ printf "%.3f %.2f", $1, $2 + $3 }' <<<"$out")
		if [ -z "$b" ] || awk -v a="${t% *}" -v b="$b" 'BEGIN { exit !(a < b) }'; then
			b=${t% *} bc=${t#* }
		fi
	done
	echo "$b $bc"
}

echo "## --decompress on $N cores ($(lscpu | sed -n 's/^Model name: *//p')), $(date -u '+%F %H:%M UTC'), commit $(git rev-parse --short HEAD 2>/dev/null)"
echo
echo "$R: $(stat -c %s $R) bytes; .bgz (bgzip -@$N) $(stat -c %s $R.bgz), .zst (pzstd -p $N) $(stat -c %s $R.zst); best of $RUNS; wall s (CPU s)"
echo
echo "| input | case | -j1 | -j8 | -j$N | -j1 / -j$N | count |"
echo "|---|---|---|---|---|---|---|"
for f in "" .bgz .zst; do
	for c in decode search; do
		case $c in
		decode) pat=(-c ZZZZZZZZZZ) ;;
		search) pat=(-c -k2 gattacagattaca) ;;
		esac
		row="| reads1g$f | $c |"
		for j in 1 8 "$N"; do
			r=$(best "$A" -j"$j" --device=host --decompress "${pat[@]}" $R$f)
			row="$row ${r% *} (${r#* }) |"
			eval "t$j=${r% *}"
		done
		ratio=$(awk -v a="$t1" -v b="$(eval echo "\$t$N")" 'BEGIN { printf "%.1f", a / b }')
		echo "$row ${ratio}x | $(head -c 40 /tmp/gd16.out) |"
	done
done
echo
echo "References (one thread unless said): $(for c in "bgzip -dc -@1 $R.bgz" "bgzip -dc -@$N $R.bgz" "zstd -dcq $R.zst" "pzstd -dcq -p $N $R.zst"; do r=$(best bash -c "$c | wc -c"); printf '%s: %s s; ' "$c | wc -c" "${r% *}"; done)"

# The ceiling: N independent single-thread decoders, one part each.
rm -f $R.part.*
split -n "$N" -d -a 3 $R $R.part.
for p in $R.part.???; do (zstd -3 -q -c $p >$p.zst; bgzip -c $p >$p.bgz) & done
wait
echo
echo "The machine's ceiling: $N parts of $R (each compressed alone: zstd -3, bgzip), wall s of one part decoded alone and of all $N decoded at once by $N processes, each the best of $RUNS:"
echo
echo "| decoder | one part alone | all $N at once | ceiling: $N x alone / all |"
echo "|---|---|---|---|"
for c in "zstd -tq %.zst" "bgzip -dc %.bgz >/dev/null"; do
	alone=$(best bash -c "${c//%/$R.part.001}")
	all=$(best bash -c "for p in $R.part.???; do ${c//%/\$p} & done; wait")
	echo "| \`${c%% *}\` | ${alone% *} | ${all% *} | $(awk -v n="$N" -v a="${alone% *}" -v b="${all% *}" 'BEGIN { printf "%.1fx", n * a / b }') |"
done
rm -f $R.part.*
