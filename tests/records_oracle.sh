#!/bin/bash
# tests/records_oracle.sh [N_SEEDS [FIRST_SEED]]: compare agrep-gpu --dna
# --hits on random FASTA/FASTQ cases against tests/bin/recoracle (an
# independent implementation of the hit table), run from the top of the
# tree with ./agrep-gpu and tests/bin/recoracle built:
#   cc -O2 -std=gnu11 -Wall -Wextra -o tests/bin/recoracle tests/recoracle.c
# Each seed varies the case (recoracle gen), the strand, -j1 or not, tiny
# record pieces and batches (AGREP_GPU_REC_PIECE, AGREP_GPU_REC_BATCH), the
# spans of a FASTA file read side by side (AGREP_GPU_REC_SPAN), the hit
# table's lanes for every set (AGREP_GPU_SITES_LANES) and a forced host
# engine (AGREP_GPU_HOST_ENGINE): none may change the output.
# Columns 1-7 must equal the oracle's byte for byte, as must the exit
# status; every row's cigar must pass recoracle validate.
# RECORACLE_COSTS="I D S" runs both with those edit costs (agrep-gpu's
# --insert-cost, --delete-cost, --substitute-cost).  The first
# mismatch prints its seed, command and a diff, keeps its files and exits 1.
set -u
n=${1:-150}
first=${2:-1}
agrep=${AGREP_GPU:-./agrep-gpu}
oracle=tests/bin/recoracle
for f in "$agrep" "$oracle"; do
	[ -x "$f" ] || { echo "records_oracle: $f is not built" >&2; exit 2; }
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/records_oracle.XXXXXX") || exit 2
keep=
trap '[ -n "$keep" ] || rm -rf "$tmp"' EXIT
engines=(scalar nofilter pp nopp seed)

fail() {
	keep=1
	echo "records_oracle: FAIL at seed $seed: $1"
	echo "  command: (cd $PWD && $cmd)"
	echo "  files kept in $dir (again: $oracle gen $seed DIR${RECORACLE_FINAL_EOL:+, RECORACLE_FINAL_EOL=$RECORACLE_FINAL_EOL})"
	shift
	[ $# -gt 0 ] && printf '%s\n' "$@"
	exit 1
}

for ((seed = first; seed < first + n; seed++)); do
	dir=$tmp/$seed
	mkdir -p "$dir"
	read -r K file < <("$oracle" gen "$seed" "$dir") || { keep=1; echo "gen failed at seed $seed"; exit 2; }
	RANDOM=$seed
	case $((RANDOM % 3)) in
	0) strand=both ;; 1) strand=+ ;; *) strand=- ;;
	esac
	if [ -n "${RECORACLE_COSTS:-}" ]; then
		read -r ci cd cs <<< "$RECORACLE_COSTS"
		args=(--dna --hits -k "$K" "--insert-cost=$ci" "--delete-cost=$cd"
		    "--substitute-cost=$cs")
	else
		args=(--dna --hits -k "$K")
	fi
	[ "$strand" = both ] || args+=("--strand=$strand")
	((RANDOM % 2)) && args+=(-j1)
	args+=(-f "$dir/pats.fa" "$file")
	envs=()
	if ((RANDOM % 3 == 0)); then
		envs+=("AGREP_GPU_REC_PIECE=$((RANDOM % 300 + 1))" "AGREP_GPU_REC_BATCH=$((RANDOM % 2000 + 1))")
	fi
	if ((RANDOM % 4 == 0)); then
		envs+=("AGREP_GPU_HOST_ENGINE=${engines[RANDOM % 5]}")
		# the seed filter with keys as short as 1-8 bases, so that
		# the oracle's short patterns are covered too (seed.c)
		envs+=("AGREP_GPU_SEED_QMIN=$((RANDOM % 8 + 1))")
	fi
	# the hit table's lanes (sites.c) for any number of patterns
	if ((RANDOM % 2 == 0)); then
		envs+=("AGREP_GPU_SITES_LANES=1")
	fi
	# a FASTA file in spans of a few bytes to a few kilobytes (records.c)
	if ((RANDOM % 2 == 0)); then
		envs+=("AGREP_GPU_REC_SPAN=$((RANDOM % 3000 + 1))")
	fi
	cmd="env ${envs[*]} $agrep ${args[*]}"

	"$oracle" run "$K" "$strand" "$dir/pats.fa" "$file" > "$dir/expected"
	erc=$?
	[ "$erc" -le 1 ] || fail "recoracle run failed (exit $erc)"
	env "${envs[@]}" "$agrep" "${args[@]}" > "$dir/out" 2> "$dir/err"
	rc=$?
	if [ "$rc" -ne "$erc" ]; then
		fail "exit status $rc, expected $erc" "stderr:" "$(head -c 2000 "$dir/err")" \
			"diff expected actual(cut -f1-7):" "$(cut -f1-7 "$dir/out" | diff "$dir/expected" - | head -40)"
	fi
	if ! cut -f1-7 "$dir/out" | cmp -s "$dir/expected" -; then
		fail "hit table differs" "diff expected actual(cut -f1-7):" \
			"$(cut -f1-7 "$dir/out" | diff "$dir/expected" - | head -40)"
	fi
	if ! msg=$("$oracle" validate "$K" "$strand" "$dir/pats.fa" < "$dir/out" 2>&1); then
		fail "bad cigar" "$(printf '%s\n' "$msg" | head -20)"
	fi
	rm -rf "$dir"
done
echo "records_oracle: $n seeds ($first..$((first + n - 1))) agree"
