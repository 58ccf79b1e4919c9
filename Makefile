# agrep-gpu: approximate grep on OpenCL.  `make deps` installs what a fresh
# Debian 12 machine needs (as root), `make` builds, `make check` tests.

PREFIX	?= /usr/local
BINDIR	 = $(PREFIX)/bin
MANDIR	 = $(PREFIX)/share/man/man1

CC	?= cc
CFLAGS	?= -O2 -g
CFLAGS	+= -std=gnu11 -D_GNU_SOURCE -Wall -Wextra
# libOpenCL is not linked: src/device/clload.c opens it at run time (dlopen, in
# glibc's libc since 2.34; -ldl for older ones).
# The decompressors of --decompress (src/pipeline/decomp.c), Debian's, are
# not linked either: decomp.c opens the one an input needs (dlopen); their
# headers (libisal-dev, libzstd-dev, liblzma-dev, libbz2-dev, liblz4-dev)
# are needed to build.
LDLIBS	 = -ldl -lpthread

# The engine's sources, named once (sources.mk): the test, bench and fuzz
# programs link the same lists.
include sources.mk
SRCS	 = agrep-gpu.c $(ENGINE_SRCS) $(OCL_SRCS) $(TOOL_SRCS)
BIN	?= agrep-gpu
B	 = build
# make MPI=1: an MPI build (mpicc from openmpi): mpirun -n R agrep-gpu ...
# (BIN=build/mpi/agrep-gpu keeps ./agrep-gpu as is).  Only agrep-gpu.c and
# src/pipeline/mpi.c see AGREP_MPI (src/pipeline/mpi.h): they are compiled
# with mpicc into build/mpi, the rest are the plain build's objects (CI's
# MPI pass compiles two files, not forty).
ifeq ($(MPI),1)
MPI_SRCS = agrep-gpu.c src/pipeline/mpi.c
OBJS	 = $(MPI_SRCS:%.c=build/mpi/%.o) \
	   $(filter-out build/agrep-gpu.o,$(SRCS:%.c=$(B)/%.o)) $(B)/kernels.o
LINK_CC	 = mpicc

build/mpi/%.o: %.c $(HDRS)
	@mkdir -p $(dir $@)
	mpicc $(CFLAGS) -DAGREP_MPI -c -o $@ $<
else
OBJS	 = $(SRCS:%.c=$(B)/%.o) $(B)/kernels.o
LINK_CC	 = $(CC)
endif

DEPS_DEBIAN = build-essential pkg-config ocl-icd-opencl-dev opencl-headers \
	   pocl-opencl-icd clinfo bats bats-assert bats-support tre-agrep \
	   bible-kjv clang libclang-rt-14-dev valgrind openmpi-bin libopenmpi-dev python3 \
	   fortunes-ru fortunes-de qemu-user gcc-aarch64-linux-gnu \
	   libc6-dev-arm64-cross parallel \
	   libisal-dev libzstd-dev liblzma-dev libbz2-dev \
	   liblz4-dev gzip pigz tabix zstd xz-utils bzip2 lz4 time \
	   seqkit kleborate-examples artfastqgenerator-examples

all: $(BIN)

$(BIN): $(OBJS)
	@mkdir -p $(dir $@)
	$(LINK_CC) $(CFLAGS) $(LDFLAGS) -o $@ $(OBJS) $(LDLIBS)

$(B)/%.o: %.c $(HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<

build/kernels.c: kernels/myers.cl tools/embed.sh
	@mkdir -p build
	sh tools/embed.sh myers_cl_src kernels/myers.cl > $@

$(B)/kernels.o: build/kernels.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<

deps:
	apt-get update
	DEBIAN_FRONTEND=noninteractive apt-get install -y $(DEPS_DEBIAN)

-include tests/tests.mk
-include bench/bench.mk
-include tests/fuzz/fuzz.mk

# The whole suite, then again on a build with AddressSanitizer and
# UndefinedBehaviorSanitizer (POCL's own leaks are suppressed, see
# tests/lsan.supp).
SAN_FLAGS = -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
	   -fno-sanitize-recover=undefined
SAN_OBJS = $(SRCS:%.c=build/san/%.o) build/san/kernels.o

# make check: the suite a contributor runs (every engine against the
# oracle).  make check-all: that, then POCL forced, the sanitizer, TSan, MPI, qemu
# (other instruction sets, aarch64), fuzzing, valgrind and .deb passes (CI).
# BATS runs the suites' files two at a time (or one per core) when GNU
# parallel is there; AGREP_GPU_TESTS=full (make check-full) runs every
# random case the suites have, make check a quarter of them.
NPROC	?= $(shell nproc 2>/dev/null || echo 2)
BATS	?= bats $(shell command -v parallel >/dev/null 2>&1 && \
	   echo --jobs $(NPROC) --no-parallelize-within-files)

# The suites, the heaviest first (make check's times on the 2-core EPYC),
# so that the jobs end together; a new suite runs last until it is named.
HEAVY_SUITES = regex exhaustive many refine robust pair weights isa pp \
	   records property parity threads long noindels kjv
CHECK_SUITES = $(HEAVY_SUITES:%=tests/%.bats) \
	   $(filter-out $(HEAVY_SUITES:%=tests/%.bats),$(sort $(wildcard tests/*.bats)))

# make check builds the tool and the test programs on every core first
# (objects compiled once, linked by each program), then prints the slowest
# suites and tests of the run (tests/slowest.sh).
check:
	$(MAKE) -j$(NPROC) agrep-gpu test-progs
	@rm -rf build/report && mkdir -p build/report
	$(BATS) --report-formatter junit -o build/report $(CHECK_SUITES); \
	    s=$$?; sh tests/slowest.sh build/report/report.xml; exit $$s

check-full: agrep-gpu test-progs
	AGREP_GPU_TESTS=full $(BATS) tests/

# Every suite with every scan on POCL (--device=cpu: the device path, the
# planner's slots and their threads); on a GPU machine
# AGREP_GPU_DEVICE=gpu make check does the same on the GPU.
# The suites whose every search names its device (--device, or
# AGREP_GPU_HOST_MAX=0, or a test program that opens POCL itself) run the
# same in make check, so check-pocl leaves them out: chunking, filter, isa,
# multidev, pair, plan and pp (a trace of make check's agrep-gpu runs,
# 2026-11-27: 4 of their 1,089 runs chose their device automatically).
POCL_SAME = chunking filter isa multidev pair plan pp weights
POCL_SUITES = $(filter-out $(POCL_SAME:%=tests/%.bats),$(sort $(wildcard tests/*.bats)))
check-pocl: agrep-gpu test-progs
	AGREP_GPU_DEVICE=cpu $(BATS) $(POCL_SUITES)

CHECK_FUZZ_SECONDS ?= 15
check-all: check
	$(MAKE) check-extra

# Everything check-all runs after make check (CI runs this, then the
# README's test command, so make check runs once).  Each pass is its own
# target, run with every core for its builds; check-extra times each and
# prints the times at the end (tests/passes.sh), so whoever adds a pass
# sees what it costs CI (35 minutes at most on a 2-core machine, make deps
# and make check included).
EXTRA_PASSES = check-sanitize-pocl check-tsan check-mpi check-qemu \
	   check-aarch64 check-fuzz check-decomp check-valgrind check-deb
check-extra: agrep-gpu test-progs
	sh tests/passes.sh $(MAKE) -j$(NPROC) -- $(EXTRA_PASSES)

# libFuzzer for CHECK_FUZZ_SECONDS a target (tests/fuzz/fuzz.mk), the
# targets side by side.
check-fuzz:
	$(MAKE) -j$(NPROC) fuzz-build
	$(MAKE) -j$(NPROC) fuzz FUZZ_SECONDS=$(CHECK_FUZZ_SECONDS)

# The decoders of --decompress alone, under ThreadSanitizer, against the
# system's compressors: every format and variant, -j1 and -j2, damaged
# inputs, early stops (tests/decomp.sh; the pipeline's side is
# tests/decompress.bats).
check-decomp:
	SAN=-fsanitize=thread bash tests/decomp.sh

# A sample of runs under valgrind's memcheck (tests/valgrind.sh).
check-valgrind: agrep-gpu
	bash tests/valgrind.sh

# The Debian package built (in a copy of the tree: dpkg-buildpackage runs
# make clean), installed, checked and removed (tests/deb.sh).
check-deb:
	sh tests/deb.sh

# The host engines' suites as CPUs without AVX-512 (Haswell: AVX2) and
# without AVX (Nehalem) run them, under qemu-x86_64 (tests/qemu.sh).
check-qemu: agrep-gpu test-progs
	bash tests/qemu.sh

# The MPI build against single-process runs (tests/mpi.bats), when Open MPI
# is installed.
check-mpi: agrep-gpu test-progs
	@if command -v mpicc >/dev/null && command -v mpirun >/dev/null; then \
		$(MAKE) MPI=1 BIN=build/mpi/agrep-gpu && \
		AGREP_GPU_MPI=$(CURDIR)/build/mpi/agrep-gpu bats tests/mpi.bats; \
	else echo "check-mpi: no mpicc/mpirun (apt-get install openmpi-bin libopenmpi-dev)"; fi

# 64-bit Arm (issue 19): make cross-aarch64 builds build/aarch64/agrep-gpu
# with Debian's cross compiler (gcc-aarch64-linux-gnu), warnings as errors;
# the host engines take their portable paths there.  make check-aarch64
# runs the host engines' cases under qemu-aarch64 with -j1 against this
# machine's output, and the bounded-exhaustive check (tests/aarch64.sh).
CROSS_CC = aarch64-linux-gnu-gcc
CROSS_OBJS = $(SRCS:%.c=build/aarch64/%.o) build/aarch64/kernels.o

build/aarch64/%.o: %.c $(HDRS)
	@mkdir -p $(dir $@)
	$(CROSS_CC) $(CFLAGS) -Werror -c -o $@ $<

# The cross build has no arm64 decompression libraries (Debian's are per
# architecture): its --decompress says so (decomp.c, AGREP_NO_DECOMPRESS).
build/aarch64/src/pipeline/decomp.o: CFLAGS += -DAGREP_NO_DECOMPRESS

build/aarch64/kernels.o: build/kernels.c
	@mkdir -p $(dir $@)
	$(CROSS_CC) $(CFLAGS) -Werror -c -o $@ $<

build/aarch64/agrep-gpu: $(CROSS_OBJS)
	$(CROSS_CC) $(CFLAGS) $(LDFLAGS) -o $@ $(CROSS_OBJS) $(LDLIBS)

build/aarch64/exhaustive: tests/exhaustive.c tests/exh_common.h $(call objs,build/aarch64,$(ENGINE_SRCS))
	$(CROSS_CC) $(CFLAGS) -Werror -o $@ tests/exhaustive.c \
	    $(call objs,build/aarch64,$(ENGINE_SRCS)) -lpthread

# (the expression automaton's check; the lanes run NEON there)
build/aarch64/reexh: tests/reexh.c tests/reoracle.c tests/re_common.h $(call objs,build/aarch64,$(RE_SRCS))
	$(CROSS_CC) $(CFLAGS) -Werror -o $@ tests/reexh.c \
	    $(call objs,build/aarch64,$(RE_SRCS)) -lpthread

cross-aarch64: build/aarch64/agrep-gpu build/aarch64/exhaustive build/aarch64/reexh

check-aarch64: agrep-gpu
	bash tests/aarch64.sh

build/san/%.o: %.c $(HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(SAN_FLAGS) -c -o $@ $<

build/san/kernels.o: build/kernels.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(SAN_FLAGS) -c -o $@ $<

build/san/agrep-gpu: $(SAN_OBJS)
	$(CC) $(CFLAGS) $(SAN_FLAGS) $(LDFLAGS) -o $@ $(SAN_OBJS) $(LDLIBS)

SAN_ENV	 = AGREP_GPU=$(CURDIR)/build/san/agrep-gpu \
	   ASAN_OPTIONS=abort_on_error=1:detect_leaks=1 \
	   LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0 \
	   UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
check-sanitize: build/san/agrep-gpu test-progs $(SAN_TEST_PROGS)
	$(SAN_ENV) $(BATS) tests/

# CI's one pass for both (check-extra): every suite on the sanitizer build,
# the searches of the pipeline's suites on POCL unless they name their
# device (AGREP_GPU_DEVICE=cpu), the host engines' suites (SAN_HOST) as
# make check runs them: their device runs name their device, the rest run
# on the host engines they test (an ASan run on POCL costs 0.3-0.5 s on the
# 2-core EPYC, one on the host 0.07-0.1 s).  The device path of every
# option is proven under the sanitizers by the pipeline's suites, the host
# engines by their own.  One run in four looks for leaks (AGREP_GPU_LEAKS,
# tests/test_helper.bash: LeakSanitizer's walk of POCL's heap at every
# exit was a third of the pass).  The host engines are also under the
# sanitizers in exhaustive-san, reexh-san and the fuzzers; the kernel's
# bounded-exhaustive check (exhaustive-ocl, not sanitized: POCL is not
# built for it) runs in make check.
# (records and robust stay on POCL: their big inputs cost more on the
# instrumented host engines than in POCL's kernels, which ASan does not
# see: the pass took 910 s with them on the host, 870 without.)
SAN_HOST = completion exhaustive hplan kjv long many noindels property \
	   refine regex utf8
check-sanitize-pocl: build/san/agrep-gpu test-progs $(SAN_TEST_PROGS)
	$(SAN_ENV) AGREP_GPU_DEVICE=cpu AGREP_GPU_DEVICE_EXCEPT="$(SAN_HOST)" \
	    AGREP_GPU_LEAKS=4 $(BATS) $(CHECK_SUITES)

# ThreadSanitizer over the suites that run several threads hardest: threads
# (-j1 against -j2, -j3, -j8 over the option matrix, trees, stdin, -q,
# failing outputs), multidev, parity and chunking (tiny chunks through the
# devices' slots).  atexit_sleep_ms=0: TSan otherwise sleeps a second at
# every exit, which made these suites take eight minutes instead of two.
# robust.bats's 5 MB exact searches are quadratic under TSan's memmem
# interceptor.  Each suppression in tests/tsan.supp says why it is there.
TSAN_FLAGS = -O1 -g -fno-omit-frame-pointer -fsanitize=thread
TSAN_OBJS = $(SRCS:%.c=build/tsan/%.o) build/tsan/kernels.o
TSAN_SUITES = tests/threads.bats tests/multidev.bats tests/parity.bats tests/plan.bats \
	      tests/chunking.bats tests/decompress.bats tests/records.bats

build/tsan/%.o: %.c $(HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(TSAN_FLAGS) -c -o $@ $<

build/tsan/kernels.o: build/kernels.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(TSAN_FLAGS) -c -o $@ $<

build/tsan/agrep-gpu: $(TSAN_OBJS)
	$(CC) $(CFLAGS) $(TSAN_FLAGS) $(LDFLAGS) -o $@ $(TSAN_OBJS) $(LDLIBS)

check-tsan: build/tsan/agrep-gpu test-progs
	AGREP_GPU=$(CURDIR)/build/tsan/agrep-gpu \
	TSAN_OPTIONS="halt_on_error=1 exitcode=66 atexit_sleep_ms=0 suppressions=$(CURDIR)/tests/tsan.supp" \
	$(BATS) $(TSAN_SUITES)

install: agrep-gpu
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)
	install -m 755 agrep-gpu $(DESTDIR)$(BINDIR)/agrep-gpu
	install -m 644 man/agrep-gpu.1 $(DESTDIR)$(MANDIR)/agrep-gpu.1
	install -d $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR) \
	    $(DESTDIR)$(FISHCOMPDIR)
	install -m 644 completions/agrep-gpu.bash \
	    $(DESTDIR)$(BASHCOMPDIR)/agrep-gpu
	install -m 644 completions/_agrep-gpu $(DESTDIR)$(ZSHCOMPDIR)/_agrep-gpu
	install -m 644 completions/agrep-gpu.fish \
	    $(DESTDIR)$(FISHCOMPDIR)/agrep-gpu.fish

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/agrep-gpu $(DESTDIR)$(MANDIR)/agrep-gpu.1
	rm -f $(DESTDIR)$(BASHCOMPDIR)/agrep-gpu \
	    $(DESTDIR)$(ZSHCOMPDIR)/_agrep-gpu \
	    $(DESTDIR)$(FISHCOMPDIR)/agrep-gpu.fish

# Shell completions (the paths Debian's bash-completion, zsh and fish read).
BASHCOMPDIR = $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR  = $(PREFIX)/share/zsh/vendor-completions
FISHCOMPDIR = $(PREFIX)/share/fish/vendor_completions.d

# A Debian package (debian/), moved to build/: apt-get install ./build/agrep-gpu_*.deb
# dpkg-buildpackage cleans first (make clean) and writes its files to ../.
deb:
	dpkg-buildpackage -us -uc -b
	@mkdir -p build
	v=$$(dpkg-parsechangelog -S Version) && \
	a=$$(dpkg-architecture -qDEB_HOST_ARCH) && \
	for f in agrep-gpu_$${v}_$$a.deb agrep-gpu-dbgsym_$${v}_$$a.deb \
	    agrep-gpu_$${v}_$$a.buildinfo agrep-gpu_$${v}_$$a.changes; do \
		if [ -e ../$$f ]; then mv -f ../$$f build/; fi; \
	done && ls -l build/agrep-gpu_$${v}_$$a.deb

clean:
	rm -rf build agrep-gpu tests/bin bench/bin tests/fuzz/bin tests/fuzz/work

.PHONY: all deps check check-full check-pocl check-all check-extra check-fuzz check-decomp check-valgrind check-deb check-qemu check-aarch64 cross-aarch64 check-sanitize check-sanitize-pocl check-tsan check-mpi install uninstall clean deb
