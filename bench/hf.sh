# bench/hf.sh: sourced by bench/pipeline.sh and bench/utf8.sh (needs RUNS
# and TMP set).
# row LABEL BYTES CMD...: median ms and MB/s of CMD (hyperfine, output to a
# pipe), into $TMP/rows; the lines it prints into $TMP/lines.
row() {
	local label=$1 bytes=$2; shift 2
	hyperfine -N -i --style none --output=pipe --warmup "${WARMUP:-2}" --runs "$RUNS" \
	    --export-csv "$TMP/hf.csv" -- "$*" >/dev/null 2>&1 || true
	local med
	med=$(awk -F, 'NR == 2 { printf "%.2f", $4 * 1000 }' "$TMP/hf.csv")
	local lines
	case " $* " in
	*" -c "*|*myers_ref*) lines=$(bash -c "$* 2>/dev/null" |
	    awk -F: '{ s += $NF } END { print s + 0 }') ;;
	*) lines=$(bash -c "$* 2>/dev/null" | wc -l) ;;
	esac
	awk -v l="$label" -v m="$med" -v b="$bytes" -v n="$lines" 'BEGIN {
	    printf "| %s | %s | %.0f | %s |\n", l, m, b / (m / 1000) / 1e6, n }' >> "$TMP/rows"
}
size() { du -sb "$1" | cut -f1; }
