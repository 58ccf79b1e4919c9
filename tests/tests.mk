# Test programs for the bats suites (included by the top Makefile; also usable
# alone: make -f tests/tests.mk test-progs).  tests/bin is git-ignored.
CC	?= cc
CFLAGS	?= -O2 -g -Wall -Wextra

TEST_PROGS = tests/bin/oracle tests/bin/randgen tests/bin/casegen

test-progs: $(TEST_PROGS)

tests/bin/%: tests/%.c tests/buf.h
	@mkdir -p tests/bin
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $<

.PHONY: test-progs
