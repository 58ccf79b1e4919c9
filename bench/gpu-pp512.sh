#!/bin/bash
# bench/gpu-pp512.sh: the pattern-parallel host engine (src/engines/pp.c,
# issue 36) on an AVX-512 CPU, one thread: first its correctness checks at
# each ISA level (PASS/FAIL lines), then pattern-GB/s (patterns x bytes /
# thread CPU seconds, bench/ppengine.c, best of RUNS) of the AVX-512 and
# AVX2 instances over 8 MiB of random DNA reads (150 bases a line,
# bench/gen_dna.c) for 100, 300 and 1,000 primers of 20-32 bases cut from
# the reads (one in 3 mutated) and 624 23-mers (issue 38's genome
# search), k = 2..5; and, where git has it, the same of commit PP512_BASE
# (64fa01f: AVX-512 without the prefix filter and packed scores, with the
# lazy score where the CPU has VPOPCNTDQ: column "base512"; "base512bw" at
# AGREP_GPU_ISA=avx512bw, no lazy score), built in a scratch folder.  Run
# from the project root after
#   make -j agrep-gpu test-progs bench/bin/ppengine
# as `bash bench/gpu-pp512.sh` (about 3 minutes on 16 cores).  Options
# through the environment: RUNS (2), PP512_SIZE (bytes of reads, 8 MiB),
# PP512_TESTS=0 (the timings alone), PP512_VARIANTS ("avx512 avx2
# base512"; also base512bw, and avx512x: AVX-512 with the prefix filter
# off, AGREP_GPU_PP16=0), PP512_BASE (64fa01f; empty: none), PP512_BASE_TAR
# (the base as a tar of git archive's, where the copy has no git).  On a CPU
# without AVX-512 the avx512 columns are empty ("-"); every column's hits
# must agree ("DIFFER" otherwise).
set -u
cd "$(dirname "$0")/.."
RUNS=${RUNS:-2}
SIZE=${PP512_SIZE:-$((8 << 20))}
VARIANTS=${PP512_VARIANTS:-"avx512 avx2 base512"}
BASE=${PP512_BASE-64fa01f}
fail=0
for b in tests/bin/exhaustive bench/bin/ppengine; do
	if [ ! -x "$b" ]; then
		echo "gpu-pp512.sh: no $b (make -j agrep-gpu test-progs bench/bin/ppengine)" >&2
		exit 2
	fi
done
grep -m1 'model name' /proc/cpuinfo
echo "AVX-512 features: $(grep -o -w 'avx512[a-z_]*' /proc/cpuinfo | sort -u | tr '\n' ' ')"
echo "commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')"

# check NAME ENV...: exhaustive -q under ENV, PASS or FAIL
check() {
	local name=$1 t0=$SECONDS out
	shift
	if out=$(env "$@" tests/bin/exhaustive -q 2>&1) &&
	    echo "$out" | grep -q 'all agree with the DP'; then
		echo "PASS  exhaustive -q $name ($((SECONDS - t0)) s; $(echo "$out" |
		    grep -o 'variants:.*' | head -1))"
	else
		echo "FAIL  exhaustive -q $name"
		echo "$out" | tail -5 | sed 's/^/      /'
		fail=1
	fi
}
if [ "${PP512_TESTS:-1}" != 0 ]; then
	echo "== correctness (the DP oracle, every variant the level runs)"
	check "(native)"
	check "AGREP_GPU_ISA=avx512bw" AGREP_GPU_ISA=avx512bw
	check "AGREP_GPU_ISA=avx2" AGREP_GPU_ISA=avx2
	check "AGREP_GPU_ISA=baseline" AGREP_GPU_ISA=baseline
	# the prefix filter at every block, and switched at each block (each
	# case; pp_blocks in 300-byte blocks too)
	check "AGREP_GPU_PP16=1" AGREP_GPU_PP16=1
	check "AGREP_GPU_PP16=alt" AGREP_GPU_PP16=alt
	# (the host engine's tests: the OpenCL kernel's want POCL)
	if command -v bats >/dev/null && [ -x agrep-gpu ]; then
		t0=$SECONDS
		if out=$(bats -f 'forced|prefix filter' tests/pp.bats 2>&1); then
			echo "PASS  bats tests/pp.bats, the host's 3 tests ($((SECONDS - t0)) s)"
		else
			echo "FAIL  bats -f 'forced|prefix filter' tests/pp.bats"
			echo "$out" | grep -v '^ok' | head -20 | sed 's/^/      /'
			fail=1
		fi
	else
		echo "SKIP  bats tests/pp.bats (no bats or no ./agrep-gpu)"
	fi
fi

echo "== pattern-GB/s, one thread ($SIZE bytes of reads, best of $RUNS)"
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
cc -O2 -o "$D/gen_dna" bench/gen_dna.c || exit 2
case " $VARIANTS " in
*" base"*)
	if [ -n "${PP512_BASE_TAR:-}" ] && [ -s "$PP512_BASE_TAR" ]; then
		# (a copy without git: the base as a tar, git archive's)
		mkdir "$D/base"
		tar -xf "$PP512_BASE_TAR" -C "$D/base"
		make -C "$D/base" -j"$(nproc)" bench/bin/ppengine >"$D/base.log" 2>&1 ||
		    { echo "(base $PP512_BASE_TAR: the build failed: $(tail -1 "$D/base.log"))"; }
	elif [ -n "$BASE" ] && git cat-file -e "$BASE^{commit}" 2>/dev/null; then
		mkdir "$D/base"
		git archive "$BASE" | tar -x -C "$D/base"
		make -C "$D/base" -j"$(nproc)" bench/bin/ppengine >"$D/base.log" 2>&1 ||
		    { echo "(base $BASE: the build failed: $(tail -1 "$D/base.log"))"; }
	else
		echo "(no base commit '$BASE' in git here: no base columns)"
	fi ;;
esac
"$D/gen_dna" "$SIZE" "$D/unused" 150 0 3636 > "$D/reads" 2>/dev/null
# primers SEED N MIN MAX: N primers of MIN-MAX bases cut from the reads,
# one in 3 with a substitution
primers() {
	awk -v s="$1" -v n="$2" -v lo="$3" -v hi="$4" 'BEGIN { srand(s) }
	    NR <= 20000 { r[NR] = $0 }
	    END { split("a c g t", b, " ")
		for (i = 0; i < n; i++) {
			l = r[int(rand() * (NR < 20000 ? NR : 20000)) + 1]
			len = lo + int(rand() * (hi - lo + 1))
			p = substr(l, 1 + int(rand() * (151 - len)), len)
			if (i % 3 == 1) { x = 1 + int(rand() * len)
				p = substr(p, 1, x - 1) b[int(rand() * 4) + 1] substr(p, x + 1) }
			print p } }' "$D/reads"
}
primers 1 100 20 32 > "$D/p100"
primers 2 300 20 32 > "$D/p300"
primers 3 1000 20 32 > "$D/p1000"
primers 4 624 23 23 > "$D/p624x23"
printf '%-9s %2s' set k
for v in $VARIANTS; do printf ' %9s' "$v"; done
printf '   hits\n'
for set in p100 p300 p1000 p624x23; do
	for k in 2 3 4 5; do
		printf '%-9s %2d' "$set" "$k"
		hits=
		for v in $VARIANTS; do
			bin=bench/bin/ppengine isa=native var=$v f16=
			case $v in
			avx512x) var=avx512 f16=0 ;;
			base512) bin=$D/base/$bin var=avx512 ;;
			base512bw) bin=$D/base/$bin var=avx512 isa=avx512bw ;;
			esac
			line=
			[ -x "$bin" ] && line=$(AGREP_GPU_PP16=$f16 AGREP_GPU_ISA=$isa \
			    "$bin" "$D/reads" "$k" "$D/$set" "$RUNS" "$var" 2>/dev/null)
			r=$(echo "$line" | sed -n 's/.* \([0-9.]*\) pattern-GB\/s.*/\1/p')
			h=$(echo "$line" | sed -n 's/.*hits \([0-9]*\).*/\1/p')
			printf ' %9s' "${r:--}"
			if [ -n "$h" ]; then
				[ -z "$hits" ] && hits=$h
				[ "$h" = "$hits" ] || { hits="$hits DIFFER($v: $h)"; fail=1; }
			fi
		done
		printf '   %s\n' "$hits"
	done
done
[ $fail = 0 ] && echo "ALL PASS" || echo "SOME FAILED"
exit $fail
