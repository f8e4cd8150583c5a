# mbd -- a literate teaching toolkit for constrained multibody dynamics.
#
# Every entry point is a target here (README.md has the tour):
#
#   make                    the library and the chapter programs
#   make run [CH=NN]        every chapter's story, in order (or one)
#   make test               every suite that must pass (includes verify-solutions)
#   make docs               the book, build/docs/index.html
#   make animations         the book's animations, build/docs/anim/*.gif (make docs uses it)
#   make grade [CH=NN] [EX=K]   grade exercises/ (the student's files)
#   make verify-solutions   grade solutions/; must score full marks
#   make check-mutants [CH=NN]  every plausible wrong answer loses points (or one chapter's)
#   make stubs              regenerate exercises/ from solutions/
#   make bench              build/bench/results.csv (BENCH_REPEATS=N)
#   make bench-octave       the Octave comparison of issue 15 (whole processes)
#   make memcheck           the suites under AddressSanitizer + UBSan
#   make fuzz               the model-file reader under libFuzzer (FUZZ_SECONDS=600)
#   make install PREFIX=... library, headers, mbd.pc, programs
#   make student-release    build/release/mbd-student-<version>.tar.gz
#   make autograder         build/release/autograder.zip (Gradescope)
#   make clean
#
# All output goes to $(BUILD) (default build/).

SHELL := /bin/bash
.DEFAULT_GOAL := all
.SUFFIXES:
.DELETE_ON_ERROR:
.SECONDARY:
MAKEFLAGS += --no-print-directory

VERSION := $(shell sed -n 's/^\#define MBD_VERSION "\(.*\)"/\1/p' lib/include/mbd/cli.h)
BUILD ?= build
PREFIX ?= /usr/local
CH ?=
EX ?=

CC ?= cc
PKG_CONFIG ?= pkg-config
OPT ?= -O2 -g
WARN := -Wall -Wextra -Wpedantic
WERROR ?= -Werror
SAN ?=

# Found when used (recursively expanded), so a fresh machine can install the
# packages first and then build in the same command.
GSL_CFLAGS = $(shell $(PKG_CONFIG) --cflags gsl 2>/dev/null)
GSL_LIBS = $(shell $(PKG_CONFIG) --libs gsl 2>/dev/null || echo -lgsl -lgslcblas)
YAML_CFLAGS = $(shell $(PKG_CONFIG) --cflags yaml-0.1 2>/dev/null)
YAML_LIBS = $(shell $(PKG_CONFIG) --libs yaml-0.1 2>/dev/null || echo -lyaml)
CUNIT_CFLAGS = $(shell $(PKG_CONFIG) --cflags cunit 2>/dev/null)
CUNIT_LIBS = $(shell $(PKG_CONFIG) --libs cunit 2>/dev/null || echo -lcunit)
# SuiteSparse's KLU (lib/src/linsolve_klu.c): SuiteSparse 7 ships a
# pkg-config file (KLU); 5.x (Debian 12's libsuitesparse-dev) has none and
# puts klu.h in /usr/include/suitesparse (mk/deps.sh looks in the same places).
KLU_HAVE_PC = $(shell $(PKG_CONFIG) --exists KLU 2>/dev/null && echo yes)
KLU_CFLAGS = $(if $(KLU_HAVE_PC),$(shell $(PKG_CONFIG) --cflags KLU),$(shell test -f /usr/include/suitesparse/klu.h && echo -I/usr/include/suitesparse))
# SuiteSparseQR (SPQR, with CHOLMOD) comes in the same package: the sparse
# QR of lib/src/spatial_analysis.c's large velocity analyses.
KLU_LIBS = $(if $(KLU_HAVE_PC),$(shell $(PKG_CONFIG) --libs KLU SPQR CHOLMOD),-lspqr -lcholmod -lklu -lamd -lcolamd -lbtf -lsuitesparseconfig)

# HAVE_INLINE: GSL's element access (gsl_vector_get, gsl_matrix_set, ...)
# compiled inline, with its range checks kept, instead of a call into the
# shared library for every element a model callback touches.
CPPFLAGS_MBD = -std=c11 -D_POSIX_C_SOURCE=200809L -DHAVE_INLINE -Ilib/include $(GSL_CFLAGS) $(YAML_CFLAGS) $(KLU_CFLAGS)
CFLAGS_MBD = $(OPT) $(WARN) $(WERROR) $(SAN) -fPIC -MMD -MP
LIBS_MBD = $(GSL_LIBS) $(YAML_LIBS) $(KLU_LIBS) -lm
COMPILE = $(CC) $(CPPFLAGS_MBD) $(CFLAGS_MBD) $(CFLAGS)
LINK = $(CC) $(SAN) $(LDFLAGS)

# ---------------------------------------------------------------------------
# The library

LIB_SRC := $(sort $(wildcard lib/src/*.c))
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
LIB_HEADERS := $(sort $(wildcard lib/include/mbd/*.h))
LIBA := $(BUILD)/lib/libmbd.a
SOMAJOR := 0
LIBSO := $(BUILD)/lib/libmbd.so.$(VERSION)

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(COMPILE) -c -o $@ $<

$(LIBA): $(LIB_OBJ)
	@mkdir -p $(@D)
	@rm -f $@
	ar rcs $@ $^

$(LIBSO): $(LIB_OBJ)
	@mkdir -p $(@D)
	$(LINK) -shared -Wl,-soname,libmbd.so.$(SOMAJOR) -o $@ $^ $(LIBS_MBD)
	ln -sf libmbd.so.$(VERSION) $(BUILD)/lib/libmbd.so.$(SOMAJOR)
	ln -sf libmbd.so.$(SOMAJOR) $(BUILD)/lib/libmbd.so

lib: $(LIBA) $(LIBSO)

# ---------------------------------------------------------------------------
# The chapter programs: chapters/NN-slug/*.c -> $(BUILD)/bin/chNN-slug

CHAPTER_DIRS := $(sort $(wildcard chapters/[0-9][0-9]-*))
CHAPTERS := $(notdir $(CHAPTER_DIRS))
PROGRAMS := $(CHAPTERS:%=$(BUILD)/bin/ch%)
# the chapters selected by CH=NN (all when empty)
SELECTED := $(if $(CH),$(filter $(CH)-%,$(CHAPTERS)),$(CHAPTERS))

# a chapter's objects other than main.o (chapter tests link them)
chapter_objs = $(patsubst %.c,$(BUILD)/obj/%.o,$(filter-out %/main.c,$(wildcard chapters/$(1)/*.c)))

define chapter_rules
$(BUILD)/bin/ch$(1): $(BUILD)/obj/chapters/$(1)/main.o $(call chapter_objs,$(1)) $(LIBA)
	@mkdir -p $$(@D)
	$$(LINK) -o $$@ $$^ $$(LIBS_MBD)
endef
$(foreach c,$(CHAPTERS),$(eval $(call chapter_rules,$(c))))

# chapter 09 finds its models from any working directory (model.c)
$(BUILD)/obj/chapters/09-spatial-engine/model.o: \
    CFLAGS += -DCH09_MODELS_DIR='"$(abspath chapters/09-spatial-engine/models)/"'

all: deps-build lib $(PROGRAMS)

deps-build:
	@bash mk/deps.sh check build
deps-run:
	@bash mk/deps.sh install run
deps-test:
	@bash mk/deps.sh install test
deps-docs:
	@bash mk/deps.sh install docs

run: deps-run
	@if [ -n "$(CH)" ] && [ -z "$(SELECTED)" ]; then \
	    echo "make run: no chapter $(CH) (chapters: $(CHAPTERS))" >&2; exit 2; fi
	@echo "make run: building the library and $(words $(SELECTED)) chapter program(s)"
	@$(MAKE) -s lib $(SELECTED:%=$(BUILD)/bin/ch%)
	@for c in $(SELECTED); do \
	    echo; echo "==================== ch$$c ===================="; echo; \
	    $(BUILD)/bin/ch$$c || exit $$?; \
	done

.PHONY: all lib run deps-build deps-run deps-test deps-docs

# ---------------------------------------------------------------------------
# Tests (CUnit). One binary per test source; tests/support is linked into all.

SUPPORT_SRC := $(sort $(wildcard tests/support/*.c))
SUPPORT_OBJ := $(SUPPORT_SRC:%.c=$(BUILD)/obj/%.o)
SUPPORT_LIB := $(BUILD)/lib/libmbdtest.a
TEST_COMPILE = $(COMPILE) -Itests/support $(CUNIT_CFLAGS) -DMBD_BUILD_DIR='"$(BUILD)"'

$(BUILD)/obj/tests/%.o: tests/%.c
	@mkdir -p $(@D)
	$(TEST_COMPILE) -c -o $@ $<

$(SUPPORT_LIB): $(SUPPORT_OBJ)
	@mkdir -p $(@D)
	@rm -f $@
	ar rcs $@ $^

TEST_LINK_LIBS = $(SUPPORT_LIB) $(LIBA) $(CUNIT_LIBS) $(LIBS_MBD)

# library tests: tests/lib/test_X.c
LIB_TESTS := $(patsubst tests/lib/%.c,$(BUILD)/tests/lib/%,$(sort $(wildcard tests/lib/test_*.c)))
$(BUILD)/tests/lib/%: $(BUILD)/obj/tests/lib/%.o $(SUPPORT_LIB) $(LIBA)
	@mkdir -p $(@D)
	$(LINK) -o $@ $< $(TEST_LINK_LIBS)

# chapter tests: tests/chapters/test_chNN.c and test_chNN_<suffix>.c link
# chapter NN's model code ($(1) is NN or NN_<suffix>; test_chapter is NN-slug)
CHAPTER_TESTS :=
test_chapter = $(filter $(firstword $(subst _, ,$(1)))-%,$(CHAPTERS))
define chapter_test_rules
CHAPTER_TESTS += $(BUILD)/tests/chapters/test_ch$(1)
$(BUILD)/tests/chapters/test_ch$(1): $(BUILD)/obj/tests/chapters/test_ch$(1).o \
    $(call chapter_objs,$(call test_chapter,$(1))) $(SUPPORT_LIB) $(LIBA)
	@mkdir -p $$(@D)
	$$(LINK) -o $$@ $$(filter %.o,$$^) $$(TEST_LINK_LIBS)
$(BUILD)/obj/tests/chapters/test_ch$(1).o: TEST_COMPILE += -Ichapters/$(call test_chapter,$(1))
endef
$(foreach t,$(patsubst tests/chapters/test_ch%.c,%,$(wildcard tests/chapters/test_ch*.c)),\
    $(eval $(call chapter_test_rules,$(t))))

# command-line tests: they run the programs
CLI_TESTS := $(patsubst tests/cli/%.c,$(BUILD)/tests/cli/%,$(sort $(wildcard tests/cli/test_*.c)))
$(BUILD)/tests/cli/%: $(BUILD)/obj/tests/cli/%.o $(SUPPORT_LIB) $(LIBA)
	@mkdir -p $(@D)
	$(LINK) -o $@ $< $(TEST_LINK_LIBS)

# run a list of test binaries; fail at the end if any failed
define run_tests
	@fail=0; for t in $(1); do \
	    echo "--- $$t"; \
	    $$t || { fail=1; echo "FAILED: $$t"; }; \
	done; exit $$fail
endef

test: deps-test
	@$(MAKE) check

# everything `make test` runs, without the dependency step
check: all $(LIB_TESTS) $(CHAPTER_TESTS) $(CLI_TESTS)
	$(call run_tests,$(LIB_TESTS) $(CHAPTER_TESTS) $(CLI_TESTS))
	@bash tests/install/run.sh $(BUILD) '$(CC)'
	@$(MAKE) check-exercises
	@$(MAKE) check-book
	@echo; echo "make test: all suites passed."

# the suites under AddressSanitizer and UndefinedBehaviorSanitizer
memcheck: deps-test
	@$(MAKE) BUILD=$(BUILD)/memcheck OPT="-O1 -g" \
	    SAN="-fsanitize=address,undefined,float-cast-overflow -fno-omit-frame-pointer -fno-sanitize-recover=all" \
	    memcheck-suites

memcheck-suites: all $(LIB_TESTS) $(CHAPTER_TESTS) $(CLI_TESTS)
	$(call run_tests,$(LIB_TESTS) $(CHAPTER_TESTS) $(CLI_TESTS))
	@for c in $(CHAPTERS); do echo "--- story ch$$c"; \
	    $(BUILD)/bin/ch$$c --no-timing > /dev/null || exit 1; done
	@$(MAKE) check-exercises
	@echo "make memcheck: clean."

.PHONY: test check memcheck memcheck-suites

# ---------------------------------------------------------------------------
# Fuzzing (not part of `make test`): the model-file reader under libFuzzer,
# with AddressSanitizer and UndefinedBehaviorSanitizer, for FUZZ_SECONDS
# (default 600), starting from the seed corpus tests/fuzz/corpus/model_file/
# with the format's keys as a dictionary. The inputs it finds go to
# $(BUILD)/fuzz/corpus/model_file/ (kept between runs), and an input that
# crashes, leaks or times out to $(BUILD)/fuzz/crash-* (leak-*, timeout-*):
# rerun it with `$(BUILD)/fuzz/fuzz_model_file FILE`. Needs clang (FUZZ_CC).

FUZZ_CC ?= clang
FUZZ_SECONDS ?= 600
FUZZ_BIN := $(BUILD)/fuzz/fuzz_model_file
FUZZ_SRC := tests/fuzz/fuzz_model_file.c lib/src/model_file.c lib/src/error.c
FUZZ_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L -Ilib/include $(GSL_CFLAGS) $(YAML_CFLAGS) \
    -g -O1 $(WARN) $(WERROR) -fno-omit-frame-pointer \
    -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all

$(FUZZ_BIN): $(FUZZ_SRC) lib/include/mbd/model_file.h lib/include/mbd/error.h
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $(FUZZ_SRC) $(GSL_LIBS) $(YAML_LIBS) -lm

fuzz: $(FUZZ_BIN)
	@mkdir -p $(BUILD)/fuzz/corpus/model_file
	$(FUZZ_BIN) -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 \
	    -print_final_stats=1 -dict=tests/fuzz/model_file.dict -artifact_prefix=$(BUILD)/fuzz/ \
	    $(BUILD)/fuzz/corpus/model_file tests/fuzz/corpus/model_file

.PHONY: fuzz

# ---------------------------------------------------------------------------
# Benchmarks: every chapter times its cases (--bench N) inside the program,
# each kind of case defined once for all chapters (lib/include/mbd/cli.h):
# whole-run, integration, rhs (beside a bare LU solve of the same KKT size),
# output; N repetitions with min, median and max, under the commit and the
# date. `make bench-octave` times the Octave comparison of issue 15 as whole
# processes (tools/bench-octave.sh); it is not part of `make test`.

BENCH_REPEATS ?= 5
BENCH_CSV := $(BUILD)/bench/results.csv
bench: all
	@if [ -n "$(CH)" ] && [ -z "$(SELECTED)" ]; then \
	    echo "make bench: no chapter $(CH) (chapters: $(CHAPTERS))" >&2; exit 2; fi
	@mkdir -p $(BUILD)/bench
	@set -o pipefail; \
	commit=$$(git rev-parse --short HEAD 2>/dev/null) || commit=unknown; \
	if [ "$$commit" != unknown ] && [ -n "$$(git status --porcelain 2>/dev/null)" ]; then \
	    commit=$$commit-dirty; fi; \
	export MBD_BENCH_COMMIT=$$commit MBD_BENCH_DATE=$$(date -u +%Y-%m-%dT%H:%M:%SZ); \
	echo "make bench: $(words $(SELECTED)) program(s), $(BENCH_REPEATS) repetitions each case (BENCH_REPEATS)"; \
	{ for c in $(SELECTED); do \
	    $(BUILD)/bin/ch$$c --bench $(BENCH_REPEATS) || exit 1; \
	done; } | awk 'NR == 1 || !/^commit,/' > $(BENCH_CSV).tmp
	@awk -F, 'NR == 1 { n = NF } NF != n { printf "make bench: row %d has %d fields, not %d\n", NR, NF, n; bad = 1 } \
	    END { exit bad }' $(BENCH_CSV).tmp >&2
	@mv $(BENCH_CSV).tmp $(BENCH_CSV)
	@echo
	@awk -F, -f tools/bench-table.awk $(BENCH_CSV) \
	    | { column -t -s "$$(printf '\t')" 2>/dev/null || tr '\t' ' '; }
	@echo
	@awk -F, 'NR == 2 { printf "commit %s, %s: CPU time, the median of %s repetitions (min, max beside it)\n", $$1, $$2, $$7 }' \
	    $(BENCH_CSV)
	@echo "wrote $(BENCH_CSV)"

bench-octave: all
	@bash tools/bench-octave.sh $(BUILD)

.PHONY: bench bench-octave

# ---------------------------------------------------------------------------
# Install

install: all
	install -d $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/include/mbd $(DESTDIR)$(PREFIX)/bin
	install -m 644 $(LIBA) $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(LIBSO) $(DESTDIR)$(PREFIX)/lib/
	ln -sf libmbd.so.$(VERSION) $(DESTDIR)$(PREFIX)/lib/libmbd.so.$(SOMAJOR)
	ln -sf libmbd.so.$(SOMAJOR) $(DESTDIR)$(PREFIX)/lib/libmbd.so
	install -m 644 $(LIB_HEADERS) $(DESTDIR)$(PREFIX)/include/mbd/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' \
	    -e 's|@REQUIRES_PRIVATE@|$(if $(KLU_HAVE_PC),KLU)|' \
	    -e 's|@LIBS_PRIVATE@|$(if $(KLU_HAVE_PC),,$(KLU_LIBS))|' lib/mbd.pc.in \
	    > $(DESTDIR)$(PREFIX)/lib/pkgconfig/mbd.pc
	install -m 755 $(PROGRAMS) $(DESTDIR)$(PREFIX)/bin/

.PHONY: install

# ---------------------------------------------------------------------------

clean:
	rm -rf $(BUILD)

.PHONY: clean

include mk/exercises.mk
include mk/docs.mk

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
