/* Every chapter program, run as a user would: bad usage gets a clear message
 * naming the option and exit status 2; --help, --version, --list exit 0. */
#include <stdio.h>
#include <string.h>

#include "check.h"

/* the chapter programs to test (each added as its chapter lands) */
static const char *const PROGRAMS[] = {"ch01-static-penalty", "ch02-integrators", "ch03-pendulum",
                                       "ch04-scotch-yoke", "ch05-slider-crank", NULL};

static void expect(const char *prog, const char *args, int status, const char *stream,
                   const char *needle)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s %s", test_program(prog), args);
    test_run_result r;
    test_run(cmd, &r);
    CHECK_MSG(r.status == status, "%s %s: exit status %d, expected %d (stderr: %s)", prog, args,
              r.status, status, r.err);
    const char *text = strcmp(stream, "out") == 0 ? r.out : r.err;
    if (needle)
        CHECK_MSG(strstr(text, needle) != NULL, "%s %s: std%s should contain '%s', got: %s", prog,
                  args, stream, needle, text);
    if (status == 2)
        CHECK_MSG(r.out[0] == '\0', "%s %s: bad usage must print nothing on stdout, got: %.200s",
                  prog, args, r.out);
    test_run_free(&r);
}

static void help_version_list(void)
{
    for (const char *const *p = PROGRAMS; *p; p++) {
        expect(*p, "--help", 0, "out", "Usage:");
        expect(*p, "--help", 0, "out", "Exit status");
        expect(*p, "--version", 0, "out", "(mbd) ");
        expect(*p, "--list", 0, "out", NULL);
        /* one blank line between sections, never two */
        char cmd[512];
        test_run_result r;
        snprintf(cmd, sizeof cmd, "%s --help", test_program(*p));
        test_run(cmd, &r);
        CHECK_MSG(strstr(r.out, "\n\n\n") == NULL, "%s --help has a double blank line", *p);
        test_run_free(&r);
    }
    /* a choice whose name is wider than the column keeps its description on
     * the next line, aligned, instead of running into it */
    test_run_result r;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s --list", test_program("ch03-pendulum"));
    test_run(cmd, &r);
    CHECK_MSG(strstr(r.out, "\n  penalty-baumgarte-printed\n                           static penalty")
                  != NULL, "ch03 --list: %s", r.out);
    test_run_free(&r);
}

static void bad_usage_exits_2(void)
{
    for (const char *const *p = PROGRAMS; *p; p++) {
        expect(*p, "--no-such-option", 2, "err", "unknown option '--no-such-option'");
        expect(*p, "--csv", 2, "err", "option --csv needs a value");
        expect(*p, "--bench x", 2, "err", "option --bench: expected a positive whole number, got 'x'");
        expect(*p, "--summary --csv -", 2, "err", "both write to standard output");
        expect(*p, "extra", 2, "err", "unexpected argument 'extra'");
        expect(*p, "--plot ''", 2, "err", "expected a value");
    }
}

/* chapter 01's own options, and the common ones it does not use */
static void ch01_options(void)
{
    const char *p = "ch01-static-penalty";
    expect(p, "--beta0 abc", 2, "err", "option --beta0: expected a number in [-100, 100], got 'abc'");
    expect(p, "--beta0 nan", 2, "err", "got 'nan'");
    expect(p, "--beta0 1e400", 2, "err", "got '1e400'");
    expect(p, "--beta0", 2, "err", "option --beta0 needs a value (MM)");
    expect(p, "--h 0.1", 2, "err", "option --h is not used by ch01-static-penalty");
    expect(p, "--method penalty", 2, "err", "option --method is not used");
    expect(p, "--literal=1", 2, "err", "option --literal takes no value");
    expect(p, "--csv /nonexistent-dir/x.csv", 2, "err", "cannot write CSV file '/nonexistent-dir/x.csv'");
    expect(p, "--summary --literal --beta0 0.5", 0, "out", "literal = 1");
}

/* chapter 02's own options, their ranges and combinations */
static void ch02_options(void)
{
    const char *p = "ch02-integrators";
    expect(p, "--list", 0, "out", "rk4-doubling");
    expect(p, "--method nosuch", 2, "err", "option --method: unknown value 'nosuch'");
    expect(p, "--problem nope", 2, "err",
           "option --problem: unknown value 'nope'; expected one of: decay, oscillator, transient");
    expect(p, "--alpha 0", 2, "err", "option --alpha: expected a number in (0, 1e+06], got '0'");
    expect(p, "--omega -1", 2, "err", "option --omega: expected a number in (0, 1e+06]");
    expect(p, "--method pece --order 5", 2, "err", "option --order: expected a whole number");
    expect(p, "--method pece --corrections 0", 2, "err", "option --corrections: expected a whole number");
    expect(p, "--method pece --order 2.5", 2, "err", "got '2.5'");
    expect(p, "--order 3", 2, "err", "option --order applies to --method pece only");
    expect(p, "--method rk4 --corrections 2", 2, "err", "option --corrections applies to --method pece only");
    expect(p, "--alpha 5 --problem oscillator", 2, "err", "option --alpha applies to --problem decay only");
    expect(p, "--omega 2", 2, "err", "option --omega applies to --problem oscillator only");
    expect(p, "--method rk4 --rtol 1e-3", 2, "err", "apply to the adaptive methods");
    expect(p, "--h 0", 2, "err", "option --h: expected a positive number, got '0'");
    expect(p, "--integrator rk4", 2, "err", "option --integrator is not used by ch02-integrators");
    expect(p, "--scenario x", 2, "err", "option --scenario is not used");
    expect(p, "--max-violation 1", 2, "err", "option --max-violation is not used");
    expect(p, "--csv /nonexistent-dir/x.csv", 2, "err", "cannot write CSV file '/nonexistent-dir/x.csv'");
    expect(p, "--plot /nonexistent-dir/fig --summary", 2, "err", "cannot write figure");
    expect(p, "--method pece --order 3 --corrections 2 --summary", 0, "out", "pece_order = 3");
    expect(p, "--method heun --problem oscillator --omega 2 --summary", 0, "out", "problem = oscillator");
    expect(p, "--method am2 --problem decay --alpha 1000 --h 0.1 --summary", 0, "out", "a_stable = 1");
    expect(p, "--method euler --h 0.5 --t-end 400", 1, "err", "non-finite");
}

/* chapters 03-05 share one command line for the mechanisms: the library's
 * formulations by name, the integrator presets, --mu, --alpha, --beta,
 * --project; the same mistakes get the same answers in all three */
static const char *const MECHANISMS[] = {"ch03-pendulum", "ch04-scotch-yoke", "ch05-slider-crank",
                                         NULL};

static void mechanism_options(void)
{
    for (const char *const *p = MECHANISMS; *p; p++) {
        expect(*p, "--list", 0, "out", "penalty-baumgarte-printed");
        expect(*p, "--list", 0, "out", "rk8pd");
        expect(*p, "--method nosuch", 2, "err", "option --method: unknown value 'nosuch'");
        expect(*p, "--integrator nosuch", 2, "err", "option --integrator: unknown value 'nosuch'");
        expect(*p, "--mu 0", 2, "err", "option --mu: expected a number in (0, ");
        expect(*p, "--alpha -1", 2, "err", "option --alpha: expected a number in [0, ");
        expect(*p, "--beta x", 2, "err", "option --beta: expected a number");
        expect(*p, "--method index2-penalty --project", 2, "err", "--project");
        expect(*p, "--integrator fixed --rtol 1e-3", 2, "err",
               "the integrator 'fixed' takes fixed steps and has no tolerance");
        expect(*p, "--t-end -1", 2, "err", "option --t-end");
        expect(*p, "--csv /nonexistent-dir/x.csv --t-end 0.01", 2, "err", "/nonexistent-dir/x.csv");
        /* the printed Baumgarte sign is a numerical failure: exit 1, the time said */
        expect(*p, "--method penalty-baumgarte-printed --summary", 1, "err",
               "exceeds 1");
        /* the index-2 penalty is stiff and runs with msbdf whatever is asked */
        expect(*p, "--method index2-penalty --integrator ode23 --t-end 0.2 --summary", 0, "out",
               "integrator = msbdf");
    }
    expect("ch03-pendulum", "--method direct --project", 2, "err", "--project");
    expect("ch04-scotch-yoke", "--variant code", 2, "err", "expected one of: table, listing");
    expect("ch04-scotch-yoke", "--list", 0, "out", "--variant:");   /* a chapter's own choices */
    expect("ch05-slider-crank", "--list", 0, "out", "--mass:");
    expect("ch05-slider-crank", "--mass other", 2, "err", "expected one of: document, consistent");
}

static CU_TestInfo tests[] = {
    {"help_version_list", help_version_list},
    {"bad_usage_exits_2", bad_usage_exits_2},
    {"ch01_options", ch01_options},
    {"ch02_options", ch02_options},
    {"mechanism_options", mechanism_options},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"cli", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
