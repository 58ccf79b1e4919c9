# bench/bench.mk: the benchmark, included by the top-level Makefile
# (`include bench/bench.mk`), or used alone: `make -f bench/bench.mk bench`.
#   make bench                      full run (sizes 4.3M 34M 256M 1G) -> bench/results/2core.md
#   make bench BENCH_QUICK=1        quick check of the script (4.3M, 34M, 3 runs)
#   make bench OUT=bench/results/h100.md AGREP_GPU_DEVICES="0 host"
# Every BENCH_* / AGREP_GPU* / OUT variable given on the command line or in the
# environment is passed to bench/bench.sh (see its header).

BENCH_CC     ?= $(or $(CC),cc)
BENCH_CFLAGS ?= -O2 -Wall -Wextra

bench/bin/myers_ref: bench/myers_ref.c
	@mkdir -p bench/bin
	$(BENCH_CC) $(BENCH_CFLAGS) -o $@ $<

bench/bin/gen_dna: bench/gen_dna.c
	@mkdir -p bench/bin
	$(BENCH_CC) $(BENCH_CFLAGS) -o $@ $<

# Included by the top-level Makefile, bench depends on its agrep-gpu target;
# used alone (make -f bench/bench.mk), bench.sh takes ./agrep-gpu as it is and
# skips it with a note when it is missing.
BENCH_DEPS ?= $(if $(filter-out bench/bench.mk,$(MAKEFILE_LIST)),agrep-gpu)

.PHONY: bench
bench: bench/bin/myers_ref bench/bin/gen_dna $(BENCH_DEPS)
	$(foreach v,$(filter BENCH_% AGREP_GPU% OUT CSV SVG SCALING_SVG,$(.VARIABLES)),$(if $(filter command line environment,$(origin $(v))),$(v)='$($(v))')) \
	bash bench/bench.sh

# The host matcher's engines alone (bench/hostengine.sh).
# (it links the tool's objects, compiled once in build/)
HOSTENGINE_OBJS = $(call objs,build,$(ENGINE_SRCS) $(OCL_SRCS)) build/kernels.o
bench/bin/hostengine: bench/hostengine.c $(HOSTENGINE_OBJS)
	@mkdir -p bench/bin
	$(BENCH_CC) $(BENCH_CFLAGS) -std=gnu11 -D_GNU_SOURCE -o $@ bench/hostengine.c $(HOSTENGINE_OBJS) -ldl -lpthread

# The pattern-parallel engine alone (bench/ppengine.c).
bench/bin/ppengine: bench/ppengine.c $(HOSTENGINE_OBJS)
	@mkdir -p bench/bin
	$(BENCH_CC) $(BENCH_CFLAGS) -std=gnu11 -D_GNU_SOURCE -o $@ bench/ppengine.c $(HOSTENGINE_OBJS) -ldl -lpthread

# The parallel pipeline's cases against the peers (bench/pipeline.sh).
.PHONY: bench-pipeline
bench-pipeline: bench/bin/myers_ref $(BENCH_DEPS)
	bash bench/pipeline.sh

# Small inputs against grep, with page faults (bench/small.sh).
.PHONY: bench-small
bench-small: $(BENCH_DEPS)
	bash bench/small.sh

# Approximate regular expressions against tre-agrep, ugrep -Z and agrep 3.0
# (bench/regex.sh; BENCH_REGEX_N, BENCH_RUNS, BENCH_BIN, OUT).
.PHONY: bench-regex
bench-regex: $(BENCH_DEPS)
	bash bench/regex.sh
