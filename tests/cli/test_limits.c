/* The mechanism chapters (03-05) under extreme option values, as a new user
 * tried them (issue 12): every value is honoured exactly or refused with exit
 * status 2 and the option named; a run that fails says its one true cause and
 * its summary still carries every key; nothing prints NaN. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static const char *const MECHANISMS[] = {"ch03-pendulum", "ch04-scotch-yoke", "ch05-slider-crank",
                                         NULL};

static void run(const char *prog, const char *args, test_run_result *r)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s %s", test_program(prog), args);
    test_run(cmd, r);
}

/* exit 2, nothing on stdout, and the message names what it must */
static void refused(const char *prog, const char *args, const char *needle1, const char *needle2)
{
    test_run_result r;
    run(prog, args, &r);
    CHECK_MSG(r.status == 2, "%s %s: exit status %d, expected 2 (stderr: %s)", prog, args,
              r.status, r.err);
    CHECK_MSG(r.out[0] == '\0', "%s %s: a refused run prints nothing on stdout, got %.300s", prog,
              args, r.out);
    CHECK_MSG(strstr(r.err, needle1) != NULL, "%s %s: stderr should name '%s': %s", prog, args,
              needle1, r.err);
    if (needle2)
        CHECK_MSG(strstr(r.err, needle2) != NULL, "%s %s: stderr should name '%s': %s", prog,
                  args, needle2, r.err);
    test_run_free(&r);
}

/* the keys of a summary, one per line, as "key\n" strings in one buffer */
static char *keys_of(const char *summary)
{
    char *keys = calloc(strlen(summary) + 1, 1);
    const char *line = summary;
    while (*line) {
        const char *eq = strstr(line, " = ");
        const char *nl = strchr(line, '\n');
        if (eq == NULL || nl == NULL || eq > nl)
            break;
        strncat(keys, line, (size_t)(eq - line));
        strcat(keys, "\n");
        line = nl + 1;
    }
    return keys;
}

/* An output spacing whose grid is empty, uncountable or too large, a span
 * too long for the grid, a fixed step that cannot finish: refused before any
 * work, naming the option and the limit. These made wrong numbers with status
 * ok before (every statistic from the t = 0 row). */
static void grids_and_steps_refused(void)
{
    for (const char *const *p = MECHANISMS; *p; p++) {
        refused(*p, "--dt-out 1e308 --summary", "--dt-out", "longer than the run");
        refused(*p, "--dt-out 1e-300 --summary", "--dt-out", "--max-outputs 1000000");
        refused(*p, "--t-end 1e308 --summary", "--t-end", "too many to count");
        refused(*p, "--dt-out 1e-3 --max-outputs 100 --summary", "--max-outputs 100", NULL);
        refused(*p, "--integrator fixed --h 1e-9 --summary", "--h", "--max-steps 1000000");
        refused(*p, "--integrator rk4 --h 1e-4 --max-steps 10 --summary", "--max-steps 10", NULL);
        refused(*p, "--h 1e308 --summary", "--h", "longer than the run");
        refused(*p, "--h 1e-300 --summary", "--h", "smallest step");
        refused(*p, "--max-steps 0", "--max-steps", "positive whole number");
        refused(*p, "--max-outputs 1.5", "--max-outputs", "positive whole number");
    }
}

/* A run exactly at its limits is honoured: max-outputs equal to the grid. */
static void limits_are_inclusive(void)
{
    for (const char *const *p = MECHANISMS; *p; p++) {
        test_run_result r;
        run(*p, "--t-end 0.5 --dt-out 0.01 --max-outputs 51 --summary", &r);
        CHECK_MSG(r.status == 0 && strstr(r.out, "status = ok\n"), "%s: 51 outputs at a limit "
                  "of 51: status %d, %s", *p, r.status, r.err);
        CHECK_CLOSE(test_summary(r.out, "t_reached"), 0.5, 1e-12);
        test_run_free(&r);
    }
}

/* A tiny span is honoured exactly: the run ends at t_end and its end state
 * is the one the run computed (close to the initial one, but at t_end). */
static void tiny_span_honoured(void)
{
    for (const char *const *p = MECHANISMS; *p; p++) {
        test_run_result r;
        run(*p, "--t-end 1e-300 --summary", &r);
        CHECK_MSG(r.status == 0 && strstr(r.out, "status = ok\n"), "%s --t-end 1e-300: status "
                  "%d, %s", *p, r.status, r.err);
        CHECK_CLOSE(test_summary(r.out, "t_reached"), 1e-300, 0.0);
        CHECK_MSG(strstr(r.out, "nan") == NULL && strstr(r.out, "inf\n") == NULL, "%s: %s", *p,
                  r.out);
        test_run_free(&r);
    }
}

/* The step limit: exit 1, status step-limit, the cause names the limit and
 * the time; the summary carries the same keys as a successful run, computed
 * up to t_reached. */
static void step_limit_is_the_cause(void)
{
    for (const char *const *p = MECHANISMS; *p; p++) {
        test_run_result ok, lim;
        run(*p, "--summary", &ok);
        run(*p, "--max-steps 30 --summary", &lim);
        CHECK_MSG(ok.status == 0, "%s --summary: status %d", *p, ok.status);
        CHECK_MSG(lim.status == 1 && strstr(lim.out, "status = step-limit\n")
                      && strstr(lim.err, "limit of 30 steps") && strstr(lim.err, "at t = "),
                  "%s --max-steps 30: status %d, stdout %s, stderr %s", *p, lim.status, lim.out,
                  lim.err);
        CHECK_MSG(strstr(lim.err, "too stiff") == NULL && strstr(lim.err, "below its minimum")
                      == NULL, "%s: one cause, the step limit: %s", *p, lim.err);
        CHECK_CLOSE(test_summary(lim.out, "steps"), 30, 0);
        const double t_end = test_summary(ok.out, "t_end");
        CHECK_IN(test_summary(lim.out, "t_reached"), 1e-6, 0.999 * t_end);
        char *k_ok = keys_of(ok.out), *k_lim = keys_of(lim.out);
        CHECK_MSG(strcmp(k_ok, k_lim) == 0, "%s: a failed run drops no key:\nok:\n%s\nfailed:\n%s",
                  *p, k_ok, k_lim);
        free(k_ok);
        free(k_lim);
        CHECK_MSG(strstr(lim.out, "nan") == NULL, "%s: %s", *p, lim.out);
        test_run_free(&ok);
        test_run_free(&lim);
    }
}

/* Tolerances below round-off: the step collapses at once, and the cause says
 * so (not stiffness, not the step limit). A tiny rtol with a sound atol is an
 * absolute tolerance, and honoured. */
static void tolerance_below_roundoff(void)
{
    for (const char *const *p = MECHANISMS; *p; p++) {
        test_run_result r;
        run(*p, "--rtol 1e-300 --atol 1e-300 --summary", &r);
        CHECK_MSG(r.status == 1 && strstr(r.out, "status = step-size\n")
                      && strstr(r.err, "below the round-off") && !strstr(r.err, "stiff"),
                  "%s: status %d, stderr %s", *p, r.status, r.err);
        test_run_free(&r);
        run(*p, "--rtol 1e-300 --summary", &r);
        CHECK_MSG(r.status == 0 && strstr(r.out, "status = ok\n"), "%s --rtol 1e-300 (atol "
                  "1e-6 holds): status %d, %s", *p, r.status, r.err);
        CHECK_CLOSE(test_summary(r.out, "t_reached"), test_summary(r.out, "t_end"), 0);
        test_run_free(&r);
    }
}

/* The same option rules in every mechanism chapter, and a CSV that cannot be
 * written names the system's reason. */
static void same_rules_everywhere(void)
{
    for (const char *const *p = MECHANISMS; *p; p++) {
        refused(*p, "--method projection --mu 1e5 --summary", "--mu applies to the penalty", NULL);
        refused(*p, "--method penalty --alpha 5 --summary", "--alpha applies to the Baumgarte",
                NULL);
        refused(*p, "--method index2-penalty --project --summary", "--project", NULL);
        test_run_result r;
        run(*p, "--csv /nonexistent-mbd-dir/x.csv", &r);
        CHECK_MSG(r.status == 2 && strstr(r.err, "/nonexistent-mbd-dir/x.csv")
                      && strstr(r.err, "No such file or directory"),
                  "%s: status %d, stderr %s", *p, r.status, r.err);
        test_run_free(&r);
    }
}

/* Chapter 05 writes fold_time on every run: none when the run did not reach
 * the fold, the time when it did. */
static void ch05_fold_time_always(void)
{
    test_run_result r;
    run("ch05-slider-crank", "--summary", &r);
    CHECK_MSG(strstr(r.out, "fold_time = none\n") && strstr(r.out, "fold_time_reference = "),
              "the document's run ends before the fold: %s", r.out);
    test_run_free(&r);
    run("ch05-slider-crank", "--t-end 2 --summary", &r);
    CHECK_IN(test_summary(r.out, "fold_time"), 1.9, 1.96);
    test_run_free(&r);
}

static CU_TestInfo tests[] = {
    {"grids_and_steps_refused", grids_and_steps_refused},
    {"limits_are_inclusive", limits_are_inclusive},
    {"tiny_span_honoured", tiny_span_honoured},
    {"step_limit_is_the_cause", step_limit_is_the_cause},
    {"tolerance_below_roundoff", tolerance_below_roundoff},
    {"same_rules_everywhere", same_rules_everywhere},
    {"ch05_fold_time_always", ch05_fold_time_always},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"limits", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
