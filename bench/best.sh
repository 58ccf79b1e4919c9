# bench/best.sh: sourced by the bench scripts that time commands by hand.
#   best N CMD...   the best wall seconds of N runs of CMD (output to
#                   $OUT, default /tmp/out), printed with 3 decimals
#   ratio A B       A / B, 2 decimals
best() {
	local n=$1 b="" t0 t i
	shift
	for ((i = 0; i < n; i++)); do
		t0=$EPOCHREALTIME
		"$@" > "${OUT:-/tmp/out}" 2>/dev/null || true
		t=$(awk -v a="$EPOCHREALTIME" -v b="$t0" 'BEGIN { print a - b }')
		if [ -z "$b" ] || awk -v t="$t" -v b="$b" 'BEGIN { exit !(t < b) }'; then
			b=$t
		fi
	done
	printf '%.3f' "$b"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
