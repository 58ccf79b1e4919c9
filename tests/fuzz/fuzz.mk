# libFuzzer targets (included by the top Makefile; also usable alone:
# make -f tests/fuzz/fuzz.mk fuzz-build fuzz).  Needs clang and its runtime
# (Debian: clang libclang-rt-14-dev), and POCL for fuzz_ocl.
#
#   make fuzz-build                  builds tests/fuzz/bin/fuzz_host, fuzz_ocl,
#                                    fuzz_utf8, fuzz_decomp, fuzz_records
#   make fuzz [FUZZ_SECONDS=60]      runs each for FUZZ_SECONDS over a copy of
#                                    its seed corpus; a crash, a sanitizer
#                                    report, a timeout or an oracle mismatch
#                                    (the targets abort) fails the target
#
# A failing input is saved as tests/fuzz/work/<target>-crashes/crash-<sha1>
# (or timeout-, oom-); replay it with tests/fuzz/bin/fuzz_<target> FILE.

FUZZ_CC		?= clang
FUZZ_SECONDS	?= 60
FUZZ_DIR	 = tests/fuzz
FUZZ_BIN	 = $(FUZZ_DIR)/bin
FUZZ_WORK	 = $(FUZZ_DIR)/work
FUZZ_CFLAGS	 = -g -O1 -fno-omit-frame-pointer -std=gnu11 -D_GNU_SOURCE \
		   -Wall -Wextra -Isrc \
		   -fsanitize=fuzzer,address,undefined \
		   -fno-sanitize-recover=undefined
FUZZ_LDLIBS	 = -ldl -lpthread
# The engine API only: patterns, host matcher, scanner, OpenCL runtime,
# messages, and the kernel source.  agrep-gpu.c (main), search.c, output.c,
# input.c and refine.c belong to the tool's pipeline and are not needed.
ifndef ENGINE_SRCS
include sources.mk
endif
# The engine's objects are compiled once (with the fuzzer's instrumentation)
# for the three targets.
FUZZ_SRCS	 = $(ENGINE_SRCS) $(OCL_SRCS)
FUZZ_OBJS	 = $(FUZZ_SRCS:%.c=$(FUZZ_BIN)/obj/%.o) $(FUZZ_BIN)/obj/kernels.o
FUZZ_HDRS	 = $(HDRS) $(FUZZ_DIR)/fuzz_common.h
FUZZ_TARGETS	 = $(FUZZ_BIN)/fuzz_host $(FUZZ_BIN)/fuzz_ocl $(FUZZ_BIN)/fuzz_utf8 \
		   $(FUZZ_BIN)/fuzz_decomp $(FUZZ_BIN)/fuzz_records
# fuzz_decomp: the decoders of --decompress (src/pipeline/decomp.c) alone,
# with Debian's decompression libraries (not instrumented themselves).
FUZZ_DZ_OBJS	 = $(FUZZ_BIN)/obj/src/pipeline/decomp.o \
		   $(FUZZ_BIN)/obj/src/base/util.o
FUZZ_DZ_LIBS	?= -lisal -lzstd -llzma -lbz2 -llz4
# fuzz_records: the records reader (src/pipeline/records.c) through the
# tool's pipeline (rec_submit): the engine's objects and the tool's, but
# agrep-gpu.c (main).
FUZZ_REC_OBJS	 = $(FUZZ_OBJS) $(TOOL_SRCS:%.c=$(FUZZ_BIN)/obj/%.o)
# The scanners instantiated for many constants (always_inline generics: 32
# copies each of the automaton's scans, the pattern-parallel engine's ISA
# bodies) take clang 2-3 minutes each with UBSan's pointer-overflow,
# alignment and null checks (145-190 s against 20-27 s without them, 2-core
# EPYC): those three checks are left out of these files here, every other
# sanitizer stays.  make check-sanitize (gcc, the whole suite) and
# reexh-san run them with every UBSan check.
FUZZ_HEAVY	 = src/regex/scan.c src/regex/scan_as.c src/engines/pp.c
$(FUZZ_HEAVY:%.c=$(FUZZ_BIN)/obj/%.o): FUZZ_CFLAGS += \
		   -fno-sanitize=pointer-overflow,alignment,null

# libFuzzer flags for every run.  -timeout: an input running 30 s is a hang.
FUZZ_FLAGS	 = -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
		   -timeout=30 -rss_limit_mb=4096
# fuzz_utf8 runs half as long (its engines are fuzz_host's, behind utf8.c),
# and fuzz_decomp (a small module); fuzz_records a third (a parser, fast:
# with make -j2 the five targets take FUZZ_SECONDS x 1.9, the four
# before it x 1.6).
FUZZ_FLAGS_UTF8	 = $(FUZZ_FLAGS) -max_total_time=$$(( $(FUZZ_SECONDS) / 2 + 1 ))
FUZZ_FLAGS_REC	 = $(FUZZ_FLAGS) -max_total_time=$$(( $(FUZZ_SECONDS) / 3 + 1 ))
FUZZ_ENV	 = UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# POCL, and the LLVM it embeds, keep allocations for the life of the process
# (device tables, compiler state, the kernel cache) and its worker threads
# hold more; LeakSanitizer would report them when the fuzzer exits, or when
# libFuzzer checks an input for leaks.  They are not ours: fuzz_ocl runs with
# tests/lsan.supp (libpocl, libLLVM, libOpenCL, libhwloc), so that leaks in
# our own code are still reported.  Should a POCL build leak through a frame
# the file does not name, run with FUZZ_OCL_LEAKS=-detect_leaks=0.
FUZZ_OCL_LEAKS	?=
FUZZ_OCL_ENV	 = $(FUZZ_ENV) \
		   LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0

fuzz-build: $(FUZZ_TARGETS)

$(FUZZ_BIN)/kernels.c: kernels/myers.cl tools/embed.sh
	@mkdir -p $(FUZZ_BIN)
	sh tools/embed.sh myers_cl_src kernels/myers.cl > $@

$(FUZZ_BIN)/obj/%.o: %.c $(FUZZ_HDRS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -c -o $@ $<

$(FUZZ_BIN)/obj/kernels.o: $(FUZZ_BIN)/kernels.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -c -o $@ $<

.SECONDARY: $(FUZZ_REC_OBJS)

$(FUZZ_BIN)/fuzz_decomp: $(FUZZ_DIR)/fuzz_decomp.c $(FUZZ_DZ_OBJS) $(FUZZ_HDRS)
	@mkdir -p $(FUZZ_BIN)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $< $(FUZZ_DZ_OBJS) $(FUZZ_DZ_LIBS) \
	    $(FUZZ_LDLIBS)

$(FUZZ_BIN)/fuzz_records: $(FUZZ_DIR)/fuzz_records.c $(FUZZ_REC_OBJS) \
    $(FUZZ_HDRS)
	@mkdir -p $(FUZZ_BIN)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $< $(FUZZ_REC_OBJS) $(FUZZ_DZ_LIBS) \
	    $(FUZZ_LDLIBS)

$(FUZZ_BIN)/%: $(FUZZ_DIR)/%.c $(FUZZ_OBJS) $(FUZZ_HDRS)
	@mkdir -p $(FUZZ_BIN)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $< $(FUZZ_OBJS) $(FUZZ_LDLIBS)

# Each run works on a copy of the seed corpus (libFuzzer adds what it finds
# to the corpus directory), so the seeds in git stay as they are.
# The targets are independent: make -j2 fuzz runs them side by side.
fuzz: fuzz-host fuzz-utf8 fuzz-ocl fuzz-decomp fuzz-records

fuzz-host fuzz-utf8 fuzz-ocl fuzz-decomp fuzz-records: fuzz-%: $(FUZZ_BIN)/fuzz_%
	rm -rf $(FUZZ_WORK)/$* $(FUZZ_WORK)/$*-crashes
	mkdir -p $(FUZZ_WORK)/$* $(FUZZ_WORK)/$*-crashes
	cp $(FUZZ_DIR)/corpus_$*/* $(FUZZ_WORK)/$*/
	$(if $(filter ocl,$*),$(FUZZ_OCL_ENV),$(FUZZ_ENV)) $(FUZZ_BIN)/fuzz_$* \
	    $(if $(filter utf8 decomp,$*),$(FUZZ_FLAGS_UTF8),$(if \
	    $(filter records,$*),$(FUZZ_FLAGS_REC),$(FUZZ_FLAGS))) \
	    $(if $(filter ocl,$*),$(FUZZ_OCL_LEAKS)) \
	    -artifact_prefix=$(FUZZ_WORK)/$*-crashes/ $(FUZZ_WORK)/$*

# Replays the seed corpora and the inputs kept under tests/fuzz/crashes/
# (host-* and ocl-*: inputs that once failed, each must pass now).
fuzz-replay: fuzz-build
	$(FUZZ_ENV) $(FUZZ_BIN)/fuzz_host $(FUZZ_DIR)/corpus_host/* \
	    $(wildcard $(FUZZ_DIR)/crashes/host-*)
	$(FUZZ_ENV) $(FUZZ_BIN)/fuzz_utf8 $(FUZZ_DIR)/corpus_utf8/*
	$(FUZZ_ENV) $(FUZZ_BIN)/fuzz_decomp $(FUZZ_DIR)/corpus_decomp/*
	$(FUZZ_ENV) $(FUZZ_BIN)/fuzz_records $(FUZZ_DIR)/corpus_records/*
	$(FUZZ_OCL_ENV) $(FUZZ_BIN)/fuzz_ocl $(FUZZ_OCL_LEAKS) \
	    $(FUZZ_DIR)/corpus_ocl/* $(wildcard $(FUZZ_DIR)/crashes/ocl-*)

fuzz-clean:
	rm -rf $(FUZZ_BIN) $(FUZZ_WORK)

.PHONY: fuzz-build fuzz fuzz-host fuzz-utf8 fuzz-ocl fuzz-decomp fuzz-records \
	fuzz-replay fuzz-clean
