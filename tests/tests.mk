# Test programs for the bats suites (included by the top Makefile, which
# names the sources in sources.mk).  tests/bin is git-ignored.
#
# The engine's objects are compiled once, in build/ (the tool's own, the
# Makefile's pattern rule) or build/san/ (AddressSanitizer and UBSan, the
# check-sanitize build), and every test program links them: a test program
# compiles only its own file.  make -j builds them side by side.

# The small programs: the oracles and the generators (one file each).
TEST_PROGS = tests/bin/oracle tests/bin/randgen tests/bin/casegen tests/bin/cigar \
	     tests/bin/u8gen tests/bin/reoracle tests/bin/recoracle

tests/bin/%: tests/%.c tests/buf.h
	@mkdir -p tests/bin
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $<

# tests/exhaustive.bats: the host engines against a DP on every small case
# (tests/bin/exhaustive); make check-sanitize runs the same program built
# with AddressSanitizer/UBSan on a smaller set (exhaustive-san, -q).
EXH_OBJS = $(call objs,build,$(ENGINE_SRCS))
TEST_PROGS += tests/bin/exhaustive

tests/bin/exhaustive: tests/exhaustive.c tests/exh_common.h $(EXH_OBJS)
	@mkdir -p tests/bin
	$(CC) $(CFLAGS) -o $@ tests/exhaustive.c $(EXH_OBJS) -lpthread

tests/bin/exhaustive-san: tests/exhaustive.c tests/exh_common.h $(call objs,build/san,$(ENGINE_SRCS))
	@mkdir -p tests/bin
	$(CC) $(CFLAGS) $(SAN_FLAGS) -o $@ tests/exhaustive.c \
	    $(call objs,build/san,$(ENGINE_SRCS)) -lpthread

# tests/exhaustive_ocl.c: the OpenCL kernel on POCL against the same DP;
# tests/reocl.c: the automaton kernel on POCL against re_scan and reoracle.
OCL_TEST_OBJS = $(call objs,build,$(ENGINE_SRCS) $(OCL_SRCS)) build/kernels.o
TEST_PROGS += tests/bin/exhaustive-ocl tests/bin/reocl

tests/bin/exhaustive-ocl: tests/exhaustive_ocl.c tests/exh_common.h $(OCL_TEST_OBJS)
	@mkdir -p tests/bin
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ tests/exhaustive_ocl.c $(OCL_TEST_OBJS) $(LDLIBS)

tests/bin/reocl: tests/reocl.c tests/reoracle.c tests/re_common.h tests/exh_common.h $(OCL_TEST_OBJS)
	@mkdir -p tests/bin
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ tests/reocl.c $(OCL_TEST_OBJS) $(LDLIBS)

# tests/regex.bats: the expression automaton (src/regex/) against the naive
# oracle of tests/reoracle.c on every small case (tests/reexh.c); the
# sanitizer build runs under make check-sanitize.
TEST_PROGS += tests/bin/reexh

tests/bin/reexh: tests/reexh.c tests/reoracle.c tests/re_common.h $(call objs,build,$(RE_SRCS))
	@mkdir -p tests/bin
	$(CC) $(CFLAGS) -o $@ tests/reexh.c $(call objs,build,$(RE_SRCS)) -lpthread

tests/bin/reexh-san: tests/reexh.c tests/reoracle.c tests/re_common.h $(call objs,build/san,$(RE_SRCS))
	@mkdir -p tests/bin
	$(CC) $(CFLAGS) $(SAN_FLAGS) -o $@ tests/reexh.c \
	    $(call objs,build/san,$(RE_SRCS)) -lpthread

SAN_TEST_PROGS = tests/bin/exhaustive-san tests/bin/reexh-san

test-progs: $(TEST_PROGS)

.PHONY: test-progs
