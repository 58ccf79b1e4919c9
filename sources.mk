# The sources named once (included by the Makefile and tests/fuzz/fuzz.mk):
# the expression automaton and its lanes (RE_SRCS), the engine API around
# it (ENGINE_SRCS: patterns, host engines, threads) and the OpenCL runtime
# (OCL_SRCS).  The tool (Makefile: SRCS, with its pipeline), the test, bench
# and fuzz programs (tests/tests.mk, bench/bench.mk, tests/fuzz/fuzz.mk)
# link these lists, so a new source file is added here only.
RE_SRCS	 = src/regex.c src/relanes.c src/cpu.c src/utf8.c src/util.c
ENGINE_SRCS = $(RE_SRCS) src/filter.c src/multi.c src/hostmatch.c src/simd.c src/pp.c \
	   src/pattern.c src/pool.c
OCL_SRCS = src/scan.c src/ocl.c src/clload.c
