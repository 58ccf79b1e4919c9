# The sources named once (included by the Makefile and tests/fuzz/fuzz.mk),
# by the folder that holds them (src/README says what each folder is for):
# the shared helpers (BASE_SRCS), the expression automaton and its lanes
# (RE_SRCS), the engines and the API around them (ENGINE_SRCS: patterns,
# host engines, the worker pool), the OpenCL device layer (OCL_SRCS) and
# the pipeline and output of the tool itself (TOOL_SRCS).  The tool
# (Makefile: SRCS), the test, bench and fuzz programs (tests/tests.mk,
# bench/bench.mk, tests/fuzz/fuzz.mk) link these lists, so a new source file
# is added here only.
BASE_SRCS = src/base/cpu.c src/base/dna.c src/base/utf8.c src/base/util.c
RE_SRCS	 = src/regex/parse.c src/regex/build.c src/regex/scan.c \
	   src/regex/scan_as.c src/regex/prefilter.c src/regex/relanes.c \
	   src/regex/weighted.c \
	   $(BASE_SRCS)
ENGINE_SRCS = $(RE_SRCS) src/engines/filter.c src/engines/multi.c src/engines/seed.c \
	   src/engines/hostmatch.c src/engines/hplan.c src/engines/simd.c src/engines/pp.c \
	   src/engines/pattern.c src/pipeline/pool.c
OCL_SRCS = src/device/scan.c src/device/ocl.c src/device/clload.c
TOOL_SRCS = src/pipeline/input.c src/pipeline/decomp.c src/pipeline/zin.c src/pipeline/range.c src/pipeline/search.c \
	   src/pipeline/walk.c src/pipeline/devq.c src/device/plan.c \
	   src/engines/refine.c src/engines/edits.c src/engines/sites.c \
	   src/pipeline/records.c \
	   src/output/output.c src/output/json.c
HDRS	 = $(wildcard src/*/*.h)

# $(call objs,DIR,SOURCES): the objects of SOURCES compiled in DIR (build/,
# build/san/, build/aarch64/): the test and bench programs link them.
objs = $(patsubst %.c,$(1)/%.o,$(2))
