/* Chapter 02 at the edges of its command line (issue 12): every option value
 * is honoured exactly or refused with exit status 2 and the option named; a
 * run is limited in steps and outputs, refused up front when it would exceed
 * them and stopped with the cause when it reaches them; every failure names
 * its one true cause, with the time, in --summary runs too; nothing prints a
 * NaN or an infinity, and nothing runs longer than a few seconds. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

#define PROGRAM "ch02-integrators"

/* a run that does not end within 30 s fails its test (exit status 124) rather
 * than hang the suite */
static test_run_result run(const char *args)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "timeout 30 %s %s", test_program(PROGRAM), args);
    test_run_result r;
    test_run(cmd, &r);
    return r;
}

/* "nan" or "inf" as a word of its own ("information" does not count) */
static int has_nan_or_inf(const char *text)
{
    static const char *const words[] = {"nan", "inf", "infinity"};
    for (const char *p = text; *p; p++) {
        if (p != text && isalnum((unsigned char)p[-1]))
            continue;
        for (size_t w = 0; w < 3; w++) {
            const size_t n = strlen(words[w]);
            size_t k = 0;
            while (k < n && tolower((unsigned char)p[k]) == words[w][k])
                k++;
            if (k == n && !isalnum((unsigned char)p[n]))
                return 1;
        }
    }
    return 0;
}

/* a summary line "key = value" exactly */
static int has_line(const char *text, const char *line)
{
    const size_t n = strlen(line);
    for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
        if (strncmp(p, line, n) == 0 && (p[n] == '\n' || p[n] == '\0'))
            return 1;
    return 0;
}

/* a summary key, whatever its value ("none" included) */
static int has_key(const char *text, const char *key)
{
    const size_t n = strlen(key);
    for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
        if (strncmp(p, key, n) == 0 && strncmp(p + n, " = ", 3) == 0)
            return 1;
    return 0;
}

/* exit status, and the words stderr must hold; `lib_count` marks a refusal of
 * a count that overflows a double, which the library words "too many to
 * count" (it once printed "inf") */
static void expect_run(const char *args, int status, const char *const *needles, int lib_count)
{
    test_run_result r = run(args);
    CHECK_MSG(r.status == status, "%s: exit status %d, expected %d (stderr: %s)", args, r.status,
              status, r.err);
    for (const char *const *n = needles; n && *n; n++)
        CHECK_MSG(strstr(r.err, *n) != NULL, "%s: stderr should name '%s', got: %s", args, *n,
                  r.err);
    if (status == 2)
        CHECK_MSG(r.out[0] == '\0', "%s: a refused run prints nothing on stdout, got: %.200s",
                  args, r.out);
    if (status == 1)
        CHECK_MSG(strstr(r.err, "at t = ") != NULL, "%s: a failure says when: %s", args, r.err);
    CHECK_MSG(!has_nan_or_inf(r.out) && !has_nan_or_inf(r.err),
              "%s: NaN or inf printed: %s %s", args, r.out, r.err);
    if (lib_count)
        CHECK_MSG(strstr(r.err, "too many to count") != NULL, "%s: %s", args, r.err);
    test_run_free(&r);
}

static void expect(const char *args, int status, const char *const *needles)
{
    expect_run(args, status, needles, 0);
}

#define NAMES(...) ((const char *const[]){__VA_ARGS__, NULL})

/* 1. an output spacing that gives no outputs, or too many to count */
static void output_spacing(void)
{
    expect("--dt-out 1e308", 2, NAMES("--dt-out", "longer than the run"));
    expect("--method cash-karp --dt-out 2", 2, NAMES("--dt-out"));
    expect("--dt-out 1e-300", 2, NAMES("--dt-out", "--max-outputs"));
    expect("--dt-out 1e-7", 2, NAMES("--dt-out", "--max-outputs"));
    expect("--dt-out 0.5 --max-outputs 2", 2, NAMES("--dt-out", "--max-outputs 2"));
    /* a refused run writes nothing, figures included */
    remove("/tmp/mbd-test-ch02-limits-stability.svg");
    expect("--dt-out 1e308 --plot /tmp/mbd-test-ch02-limits", 2, NAMES("--dt-out"));
    CHECK_MSG(access("/tmp/mbd-test-ch02-limits-stability.svg", F_OK) != 0,
              "a refused run drew its figures");

    /* a spacing that is honoured: the grid times, and statistics over every step */
    test_run_result r = run("--method am3 --dt-out 0.3 --csv -");
    CHECK_MSG(r.status == 0, "exit status %d: %s", r.status, r.err);
    CHECK_MSG(strncmp(r.out, "t,y\n0,1\n0.29999999999999999,", 28) == 0
                  || strncmp(r.out, "t,y\n0,1\n0.3,", 12) == 0,
              "rows at t = 0, 0.3, ...: %.80s", r.out);
    int rows = -1;
    for (const char *p = r.out; *p; p++)
        rows += *p == '\n';
    CHECK_MSG(rows == 5, "t = 0, 0.3, 0.6, 0.9, 1: %d rows", rows);
    test_run_free(&r);

    test_run_result a = run("--method cash-karp --problem transient --summary");
    test_run_result b = run("--method cash-karp --problem transient --dt-out 0.5 --summary");
    CHECK_MSG(a.status == 0 && b.status == 0, "exit status %d, %d", a.status, b.status);
    CHECK_CLOSE(test_summary(b.out, "steps"), test_summary(a.out, "steps"), 0);
    CHECK_CLOSE(test_summary(b.out, "outputs"), 5, 0);   /* t = 0, 0.5, 1, 1.5, 2 */
    CHECK_CLOSE(test_summary(b.out, "h_min"), test_summary(a.out, "h_min"), 0);
    CHECK_CLOSE(test_summary(b.out, "h_max"), test_summary(a.out, "h_max"), 0);
    CHECK_GE(test_summary(b.out, "max_error"), test_summary(a.out, "max_error"));
    CHECK_LE(test_summary(b.out, "h_min"), 1e-3);   /* the transient's first steps */
    test_run_free(&a);
    test_run_free(&b);
}

/* 4. a run's work is limited, and the limit is said up front */
static void step_limit_up_front(void)
{
    expect("--h 1e-300", 2, NAMES("--h"));
    expect("--h 1e-9", 2, NAMES("--h", "--max-steps"));
    expect("--method ab4 --h 1e-7", 2, NAMES("--h", "--max-steps"));
    expect("--method implicit-euler --t-end 1e7", 2, NAMES("--t-end", "--max-steps"));
    expect_run("--method pece --t-end 1e308", 2, NAMES("--t-end", "--max-steps"), 1);
    expect("--max-steps 1", 2, NAMES("--max-steps 1"));
    expect("--method cash-karp --t-end 1e308", 2,
           NAMES("--t-end", "--max-steps", "cannot be longer than 0.373", "turns unstable"));
    expect("--method rk4-doubling --problem transient --t-end 1e6", 2,
           NAMES("--t-end", "--max-steps", "h x 100"));
    expect("--method cash-karp --problem oscillator --t-end 1e308", 2,
           NAMES("--t-end", "--max-steps", "doubles the amplitude"));
    expect("--method rkf23 --problem oscillator --t-end 1e9", 2,
           NAMES("--t-end", "--max-steps", "h omega"));
    /* raising the limit lets the same run go */
    expect("--h 1e-6 --max-steps 1000000 --dt-out 0.1", 0, NULL);
    expect("--h 1e-6 --max-steps 999999 --dt-out 0.1", 2, NAMES("--max-steps 999999"));
    /* after every step a million steps are a million and one outputs */
    expect("--h 1e-6 --max-steps 1000000", 2, NAMES("--max-outputs", "--dt-out"));
}

/* 4. ... and a run that reaches a limit stops, saying what held its step */
static void step_limit_reached(void)
{
    /* on the decay problem the tolerance sets the first steps */
    expect("--method cash-karp --max-steps 10", 1,
           NAMES("limit of 10 steps", "--max-steps", "tolerance"));
    /* long after the transient, the steps are held by stability: stiff */
    expect("--method cash-karp --problem transient --max-steps 100", 1,
           NAMES("limit of 100 steps", "held by stability", "stiff"));
    expect("--method rk4-doubling --problem transient --max-steps 60", 1,
           NAMES("held by stability", "stiff"));
    test_run_result r = run("--method cash-karp --max-steps 10 --summary");
    CHECK_MSG(r.status == 1, "exit status %d", r.status);
    CHECK_MSG(strstr(r.err, "msbdf") == NULL && strstr(r.err, "not smooth") == NULL,
              "a step limit is blamed on nothing else: %s", r.err);
    CHECK_MSG(has_line(r.out, "status = step-limit"), "summary status: %s", r.out);
    CHECK_CLOSE(test_summary(r.out, "steps"), 10, 0);
    CHECK_CLOSE(test_summary(r.out, "t_end"), 1, 0);
    CHECK_IN(test_summary(r.out, "t_reached"), 0.1, 0.99);
    CHECK_LE(test_summary(r.out, "error_end"), 1e-5);
    test_run_free(&r);
}

/* outputs: a run has at least two; after every step they count like steps */
static void output_limit(void)
{
    expect("--max-outputs 1", 2, NAMES("--max-outputs 1"));
    expect("--t-end 0.03 --max-outputs 3", 2, NAMES("--max-outputs 3", "--dt-out"));
    expect("--method cash-karp --max-outputs 5", 1, NAMES("limit of 5 outputs", "--dt-out"));
    test_run_result r = run("--t-end 0.03 --max-outputs 4 --csv -");
    CHECK_MSG(r.status == 0, "four outputs are allowed: %d %s", r.status, r.err);
    test_run_free(&r);
    /* the rows up to the limit are written, no more */
    r = run("--method cash-karp --max-outputs 5 --csv -");
    int rows = -1;
    for (const char *p = r.out; *p; p++)
        rows += *p == '\n';
    CHECK_MSG(r.status == 1 && rows == 5, "exit %d, %d rows (expected 1, 5)", r.status, rows);
    test_run_free(&r);
    /* with a grid the limit is known before the run */
    expect("--method cash-karp --dt-out 0.1 --max-outputs 10", 2, NAMES("--max-outputs 10"));
    expect("--method cash-karp --dt-out 0.1 --max-outputs 11", 0, NULL);   /* 0, 0.1, ..., 1 */
}

/* 5. one failure, one true cause */
static void true_causes(void)
{
    /* a tolerance below round-off, also where y(0) = 0 */
    static const char *const tol[] = {
        "--method cash-karp --rtol 1e-300 --atol 1e-300",
        "--method rkf23 --problem transient --rtol 1e-300 --atol 1e-300",
        "--method rk4-doubling --problem oscillator --rtol 1e-300 --atol 1e-300"};
    for (int i = 0; i < 3; i++) {
        expect(tol[i], 1, NAMES("round-off"));
        test_run_result r = run(tol[i]);
        CHECK_MSG(strstr(r.err, "not smooth") == NULL, "%s: %s", tol[i], r.err);
        test_run_free(&r);
    }
    test_run_result r = run("--method cash-karp --rtol 1e-300 --atol 1e-300 --summary");
    CHECK_MSG(has_line(r.out, "status = step-size"), "summary status: %s", r.out);
    test_run_free(&r);
    /* a tolerance so loose that the steps pass the stability limit */
    expect("--method rk4-doubling --rtol 1 --atol 1 --alpha 1e6", 1,
           NAMES("blew up", "stability limit"));
    /* a fixed step past the stability limit */
    expect("--alpha 1e6", 1, NAMES("non-finite", "beyond rk4's stability limit"));
    expect("--method euler --h 0.5 --t-end 400", 1, NAMES("h alpha = 5", "limit 2"));
    expect("--method heun --problem oscillator --omega 1e6", 1, NAMES("multiplies the solution"));
    /* tiny and huge end times */
    expect("--t-end 1e-300", 0, NULL);
    expect("--method cash-karp --t-end 1e-300", 0, NULL);
    expect("--method ab3 --t-end 1e-300", 0, NULL);
    expect("--t-end 1e-300 --h 0.01", 2, NAMES("--h", "longer than the run"));
    expect_run("--t-end 1e308", 2, NAMES("--t-end", "--max-steps"), 1);
}

/* 6. the system's reason for a CSV error, and the step reported is the step taken */
static void csv_and_step(void)
{
    expect("--csv /nonexistent-dir/x.csv", 2,
           NAMES("cannot write CSV file '/nonexistent-dir/x.csv'", "No such file or directory"));
    if (access("/dev/full", W_OK) == 0)
        expect("--csv /dev/full", 2, NAMES("/dev/full", "No space left on device"));
    expect("--h 1e308", 2, NAMES("--h", "longer than the run"));
    expect("--method cash-karp --h 2", 2, NAMES("--h"));

    test_run_result r = run("--method rk4 --h 0.4 --summary");
    CHECK_MSG(r.status == 0, "exit status %d: %s", r.status, r.err);
    CHECK_CLOSE(test_summary(r.out, "h"), 0.4, 0);
    CHECK_CLOSE(test_summary(r.out, "h_max"), 0.4, 0);
    CHECK_CLOSE(test_summary(r.out, "h_min"), 0.2, 1e-15);   /* the last step, cut to t = 1 */
    CHECK_CLOSE(test_summary(r.out, "steps"), 3, 0);
    test_run_free(&r);
    /* the default step longer than the run: the step taken is the run */
    r = run("--t-end 1e-3 --summary");
    CHECK_MSG(r.status == 0, "exit status %d: %s", r.status, r.err);
    CHECK_CLOSE(test_summary(r.out, "h"), 1e-3, 0);
    CHECK_CLOSE(test_summary(r.out, "steps"), 1, 0);
    test_run_free(&r);
    r = run("--t-end 1e-3");
    CHECK_MSG(strstr(r.out, "h = 0.001: 1 steps") != NULL, "the report: %s", r.out);
    test_run_free(&r);
}

/* the chapter's own options at their edges */
static void own_options(void)
{
    expect("--problem oscillator --omega 1e-300", 2, NAMES("--omega"));
    expect("--problem oscillator --omega 1e-150 --summary", 0, NULL);
    expect("--alpha 1e-300 --summary", 0, NULL);
    expect("--method am5 --alpha 1e6 --summary", 0, NULL);
    expect("--method implicit-euler --alpha 1e6 --summary", 0, NULL);
    expect("--method pece --order 4 --corrections 10 --summary", 0, NULL);
    expect("--method pece --order 2 --corrections 10 --alpha 1e6", 1, NAMES("stability limit"));
}

/* every key on every run, failed or not, with a status */
static void summary_keys(void)
{
    static const char *const common[] = {
        "method", "problem", "order", "pece_order", "corrections", "a_stable", "limit",
        "limit_measured", "stable_to", "h_limit", "rtol", "atol", "h", "h_min", "h_max",
        "t_end", "t_reached", "steps", "rejected", "fevals", "outputs", "error_end",
        "max_error", "status", NULL};
    static const char *const scalar[] = {"y_end", "y_exact", NULL};
    static const char *const osc[] = {"x_end", "x_dot_end", "x_exact", "E_end", "E_ratio",
                                      "energy_factor", "energy_factor_theory", NULL};
    static const struct { const char *args; int status; const char *word; } runs[] = {
        {"--method rk4 --summary", 0, "ok"},
        {"--method cash-karp --problem oscillator --summary", 0, "ok"},
        {"--method cash-karp --max-steps 3 --summary", 1, "step-limit"},
        {"--method euler --problem oscillator --omega 1e6 --summary", 1, "non-finite"},
        {"--method euler --h 0.5 --t-end 400 --summary", 1, "non-finite"},
    };
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        test_run_result r = run(runs[i].args);
        CHECK_MSG(r.status == runs[i].status, "%s: exit status %d", runs[i].args, r.status);
        for (const char *const *k = common; *k; k++)
            CHECK_MSG(has_key(r.out, *k), "%s: summary key %s missing", runs[i].args, *k);
        const int is_osc = strstr(runs[i].args, "oscillator") != NULL;
        for (const char *const *k = is_osc ? osc : scalar; *k; k++)
            CHECK_MSG(has_key(r.out, *k), "%s: summary key %s missing", runs[i].args, *k);
        char line[64];
        snprintf(line, sizeof line, "status = %s", runs[i].word);
        CHECK_MSG(has_line(r.out, line), "%s: %s expected: %s", runs[i].args, line, r.out);
        CHECK_MSG(!has_nan_or_inf(r.out), "%s: NaN or inf: %s", runs[i].args, r.out);
        /* nothing from rows that do not exist: the state is the last one reached */
        double tr = NAN, te = NAN;
        test_summary_value(r.out, "t_reached", &tr);
        test_summary_value(r.out, "t_end", &te);
        CHECK_MSG(runs[i].status == 0 ? tr == te : tr < te, "%s: t_reached %g, t_end %g",
                  runs[i].args, tr, te);
        test_run_free(&r);
    }
}

/* every method on every problem, as is: exit 0, status ok, no NaN */
static void every_method(void)
{
    static const char *const methods[] = {
        "euler", "implicit-euler", "midpoint", "heun", "ralston", "rk4", "ab2", "ab3", "ab4",
        "am2", "am3", "am4", "am5", "pece", "rk4-doubling", "rkf23", "cash-karp", NULL};
    static const char *const problems[] = {"decay", "oscillator", "transient", NULL};
    for (const char *const *m = methods; *m; m++)
        for (const char *const *p = problems; *p; p++) {
            char args[256];
            snprintf(args, sizeof args, "--method %s --problem %s --summary", *m, *p);
            test_run_result r = run(args);
            CHECK_MSG(r.status == 0 && has_line(r.out, "status = ok"), "%s: exit %d, %s", args,
                      r.status, r.err);
            CHECK_MSG(!has_nan_or_inf(r.out), "%s: NaN or inf: %s", args, r.out);
            test_run_free(&r);
        }
}

static CU_TestInfo tests[] = {
    {"output_spacing", output_spacing},
    {"step_limit_up_front", step_limit_up_front},
    {"step_limit_reached", step_limit_reached},
    {"output_limit", output_limit},
    {"true_causes", true_causes},
    {"csv_and_step", csv_and_step},
    {"own_options", own_options},
    {"summary_keys", summary_keys},
    {"every_method", every_method},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"ch02_limits", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
