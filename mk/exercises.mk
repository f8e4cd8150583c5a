# mk/exercises.mk -- exercises, grading and releases (included by the Makefile).
#
#   make stubs                 exercises/NN-slug/ from solutions/NN-slug/, and the
#                              points table of each exercises/NN-slug/README.md
#   make check-stubs           fails (with a diff) when exercises/ is not what
#                              `make stubs` makes, or the manifest names a file,
#                              function, marker or test suite that does not exist
#   make grade [CH=NN] [EX=K]  grades exercises/ (the student's files):
#                              $(BUILD)/grade/results.json (Gradescope), junit.xml
#   make verify-solutions      grades solutions/; fails unless full marks
#   make check-exercises       all of the above checks plus the grader's own tests,
#                              the mutant check and the release tests (make test)
#   make student-release       $(BUILD)/release/mbd-student-$(VERSION).tar.gz
#   make autograder [CH=NN]    $(BUILD)/release/autograder.zip (Gradescope): the
#                              student release's files (no solutions) and the
#                              scripts that grade a submission as an unprivileged
#                              user (tools/autograder/)
#
# Grading options: TIMEOUT=S (seconds per test, overrides the manifest),
# JOBS=N (processes at a time), GRADE_ARGS=... (more mbd-grade options).
#
# The grader compiles with the flags of this build: make writes them to
# $(BUILD)/tools/grade.conf (CC, the project's flags without -Werror for the
# graded files, SAN and OPT included, so `make memcheck` grades under the
# sanitizers too).

TOOLS_COMMON_OBJ := $(BUILD)/obj/tools/tool.o $(BUILD)/obj/tools/manifest.o
GRADER := $(BUILD)/tools/mbd-grade
STUBGEN := $(BUILD)/tools/mbd-stubs
GRADE_CONF := $(BUILD)/tools/grade.conf
GRADER_TEST := $(BUILD)/tests/grader/test_grader
RELEASE_DIR := $(BUILD)/release
STUDENT_TARBALL := $(RELEASE_DIR)/mbd-student-$(VERSION).tar.gz
AUTOGRADER_ZIP := $(RELEASE_DIR)/autograder.zip
# a tree with solutions/ is the teacher's; a student release has none
HAVE_SOLUTIONS := $(wildcard solutions/[0-9][0-9]-*)

$(GRADER): $(BUILD)/obj/tools/grade.o $(TOOLS_COMMON_OBJ)
	@mkdir -p $(@D)
	$(LINK) -o $@ $^ $(YAML_LIBS) -lm

$(STUBGEN): $(BUILD)/obj/tools/stubs.o $(BUILD)/obj/tools/stubgen.o $(TOOLS_COMMON_OBJ)
	@mkdir -p $(@D)
	$(LINK) -o $@ $^ $(YAML_LIBS)

# What the grader compiles with: the project's flags; graded files without
# $(WERROR) (the grader adds it for the tests, and for --strict).
GRADE_CFLAGS = $(CPPFLAGS_MBD) $(OPT) $(WARN) $(SAN) $(CFLAGS) -Itests/support $(CUNIT_CFLAGS)
GRADE_LDFLAGS = $(SAN) $(LDFLAGS)
GRADE_LIBS = $(SUPPORT_LIB) $(LIBA) $(CUNIT_LIBS) $(LIBS_MBD)
# a make value as one single-quoted shell word
shell_word = '$(subst ','\'',$(1))'

# everything the grader needs, and its settings (rewritten every time: cheap,
# and always those of this make's flags)
grade-tools: deps-build $(LIBA) $(SUPPORT_LIB) $(GRADER) $(STUBGEN)
	@$(PKG_CONFIG) --exists cunit 2>/dev/null || [ -e /usr/include/CUnit/CUnit.h ] || { \
	    echo "mbd: grading needs CUnit; install it with: sudo apt-get install libcunit1-dev" >&2; \
	    exit 2; }
	@{ echo "# mbd-grade's compiler settings, written by make (mk/exercises.mk) for BUILD=$(BUILD)"; \
	   printf '%s\n' $(call shell_word,cc = $(CC)) $(call shell_word,cflags = $(GRADE_CFLAGS)) \
	       $(call shell_word,werror = $(WERROR)) $(call shell_word,ldflags = $(GRADE_LDFLAGS)) \
	       $(call shell_word,libs = $(GRADE_LIBS)); } > $(GRADE_CONF)

GRADE_RUN = $(GRADER) --config $(GRADE_CONF) --chapter '$(CH)' --exercise '$(EX)' \
    $(if $(TIMEOUT),--timeout '$(TIMEOUT)') $(if $(JOBS),--jobs '$(JOBS)') $(GRADE_ARGS)

grade: grade-tools
	@$(GRADE_RUN) --src exercises --out $(BUILD)/grade

ifneq ($(HAVE_SOLUTIONS),)

stubs: $(STUBGEN)
	@$(STUBGEN) --write

check-stubs: $(STUBGEN)
	@echo "--- check-stubs"
	@$(STUBGEN) --check

verify-solutions: grade-tools
	@echo "--- verify-solutions"
	@$(GRADE_RUN) --src solutions --solutions solutions --out $(BUILD)/verify-solutions \
	    --strict --require-full || { \
	    echo "verify-solutions: the solutions must score full marks" >&2; exit 1; }

# the grader's own tests: prepared submissions graded, the stub generator's
# and the manifest reader's error messages
check-grader: grade-tools $(GRADER_TEST)
	@echo "--- $(GRADER_TEST)"
	@$(GRADER_TEST)

# every plausible wrong answer of tests/exercises/*/mutants.txt must lose points
check-mutants: grade-tools
	@if [ -n "$(CH)" ] && [ -z "$(SELECTED)" ]; then \
	    echo "make check-mutants: no chapter $(CH) (chapters: $(CHAPTERS))" >&2; exit 2; fi
	@echo "--- mutants$(if $(CH), (chapter $(CH)))"
	@bash tests/grader/mutants.sh $(GRADER) $(GRADE_CONF) $(BUILD)/tests/grader/mutants $(CH)

# the student release holds no solution, builds on its own and grades 0;
# the autograder bundle holds no solution and grades a prepared submission,
# and (as root) a hostile one gets nothing of the course's files
check-release: grade-tools student-release autograder
	@echo "--- release"
	@bash tests/grader/release.sh $(BUILD) $(VERSION) '$(CC)' '$(OPT)' '$(SAN)'

check-exercises:
	@$(MAKE) check-stubs
	@$(MAKE) verify-solutions
	@$(MAKE) check-grader
	@$(MAKE) check-mutants
	@$(MAKE) check-release

student-release: $(STUBGEN)
	@$(STUBGEN) --check > /dev/null || { $(STUBGEN) --check; \
	    echo "student-release: exercises/ is stale; run make stubs first" >&2; exit 1; }
	@bash tools/release.sh student $(BUILD) $(VERSION) $(STUBGEN)

autograder: $(STUBGEN)
	@$(STUBGEN) --check > /dev/null || { $(STUBGEN) --check; \
	    echo "autograder: exercises/ is stale; run make stubs first" >&2; exit 1; }
	@bash tools/release.sh autograder $(BUILD) $(VERSION) $(STUBGEN) '$(CH)'

else   # a student release: no solutions/

NO_SOLUTIONS = echo "$(1): this tree has no solutions/ (it is a student release)"

stubs check-stubs verify-solutions student-release autograder check-grader check-mutants check-release:
	@$(call NO_SOLUTIONS,make $@); exit 2

check-exercises:
	@$(call NO_SOLUTIONS,check-exercises); \
	echo "    skipped: the stub check, verify-solutions and the grader's own tests."; \
	echo "    Grade your own work with: make grade   (or make grade CH=NN EX=K)"

endif

$(GRADER_TEST): $(BUILD)/obj/tests/grader/test_grader.o $(SUPPORT_LIB) $(LIBA)
	@mkdir -p $(@D)
	$(LINK) -o $@ $< $(TEST_LINK_LIBS)

.PHONY: grade-tools grade stubs check-stubs verify-solutions check-grader check-mutants \
    check-release check-exercises student-release autograder
