# Test programs for the bats suites (included by the top Makefile; also usable
# alone: make -f tests/tests.mk test-progs).  tests/bin is git-ignored.
CC	?= cc
CFLAGS	?= -O2 -g -Wall -Wextra

TEST_PROGS = tests/bin/oracle tests/bin/randgen tests/bin/casegen tests/bin/cigar \
	     tests/bin/u8gen tests/bin/reoracle

test-progs: $(TEST_PROGS)

tests/bin/%: tests/%.c tests/buf.h
	@mkdir -p tests/bin
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $<

.PHONY: test-progs

# tests/exhaustive.bats: the host engines against a DP on every small case,
# plain and with AddressSanitizer/UBSan (run there on a smaller set: -q).
EXH_SRCS = tests/exhaustive.c $(ENGINE_SRCS)
EXH_DEPS = $(EXH_SRCS) tests/exh_common.h src/engines/simd_body.h src/engines/pp_body.h src/regex/relanes_body.h \
	   $(HDRS)
TEST_PROGS += tests/bin/exhaustive tests/bin/exhaustive-san

tests/bin/exhaustive: $(EXH_DEPS)
	@mkdir -p tests/bin
	$(CC) $(CFLAGS) -std=gnu11 -D_GNU_SOURCE -o $@ $(EXH_SRCS) -lpthread

tests/bin/exhaustive-san: $(EXH_DEPS)
	@mkdir -p tests/bin
	$(CC) $(CFLAGS) -std=gnu11 -D_GNU_SOURCE -O1 -fno-omit-frame-pointer \
	    -fsanitize=address,undefined -fno-sanitize-recover=undefined \
	    -o $@ $(EXH_SRCS) -lpthread

# tests/exhaustive_ocl.c: the OpenCL kernel on POCL against the same DP.
EXHO_SRCS = tests/exhaustive_ocl.c $(ENGINE_SRCS) $(OCL_SRCS) build/kernels.c
TEST_PROGS += tests/bin/exhaustive-ocl

tests/bin/exhaustive-ocl: $(EXHO_SRCS) tests/exh_common.h $(HDRS)
	@mkdir -p tests/bin
	$(CC) $(CFLAGS) -std=gnu11 -D_GNU_SOURCE -o $@ $(EXHO_SRCS) $(LDLIBS)

# tests/reocl.c: the automaton kernel on POCL against re_scan and reoracle.
REOCL_SRCS = tests/reocl.c $(filter-out tests/exhaustive_ocl.c,$(EXHO_SRCS))
TEST_PROGS += tests/bin/reocl

tests/bin/reocl: $(REOCL_SRCS) tests/reoracle.c tests/re_common.h tests/exh_common.h $(HDRS)
	@mkdir -p tests/bin
	$(CC) $(CFLAGS) -std=gnu11 -D_GNU_SOURCE -o $@ $(REOCL_SRCS) $(LDLIBS)

# tests/regex.bats: the expression automaton (src/regex/) against the naive
# oracle of tests/reoracle.c on every small case (tests/reexh.c).
TEST_PROGS += tests/bin/reexh tests/bin/reexh-san

tests/bin/reexh: tests/reexh.c tests/reoracle.c tests/re_common.h $(RE_SRCS) $(HDRS)
	@mkdir -p tests/bin
	$(CC) $(CFLAGS) -std=gnu11 -D_GNU_SOURCE -o $@ tests/reexh.c $(RE_SRCS) -lpthread

tests/bin/reexh-san: tests/reexh.c tests/reoracle.c tests/re_common.h $(RE_SRCS) $(HDRS)
	@mkdir -p tests/bin
	$(CC) $(CFLAGS) -std=gnu11 -D_GNU_SOURCE -O1 -fno-omit-frame-pointer \
	    -fsanitize=address,undefined -fno-sanitize-recover=undefined \
	    -o $@ tests/reexh.c $(RE_SRCS) -lpthread

# (test-progs' prerequisites were expanded above, before these were added)
test-progs: tests/bin/exhaustive tests/bin/exhaustive-san tests/bin/exhaustive-ocl tests/bin/reexh \
	tests/bin/reexh-san tests/bin/reocl
