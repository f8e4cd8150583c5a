/* The common command-line parser, on a spec that uses every common option. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "check.h"
#include "mbd/cli.h"
#include "mbd/error.h"

static const mbd_cli_choice METHODS[] = {{"projection", "Lagrange multipliers"},
                                         {"penalty", "static penalty"},
                                         {NULL, NULL}};
static double mu = 1e5;
static const char *variant = "table";
static const mbd_cli_choice VARIANTS[] = {{"table", ""}, {"listing", ""}, {NULL, NULL}};
static const mbd_cli_extra EXTRA[] = {
    {"mu", MBD_ARG_DOUBLE, &mu, "MU", "penalty factor", NULL, 0.0, HUGE_VAL, 1, 0, NULL},
    {"variant", MBD_ARG_CHOICE, &variant, "NAME", "parameter set", VARIANTS, 0, 0, 0, 0, NULL},
};
static const mbd_cli_spec SPEC = {
    .program = "test-program",
    .common = MBD_OPT_OUTPUT | MBD_OPT_TIME | MBD_OPT_SCENARIO,
    .extra = EXTRA,
    .n_extra = 2,
    .methods = METHODS,
};
static const mbd_cli_spec SMALL = {.program = "small", .common = MBD_OPT_OUTPUT};

static char err_text[4096];

/* parses a NULL-terminated argument list; the error text lands in err_text */
static int parse(const mbd_cli_spec *spec, mbd_cli_common *c, const char *const *args)
{
    char *argv[32];
    int argc = 0;
    argv[argc++] = (char *)"prog";
    for (; *args; args++)
        argv[argc++] = (char *)*args;
    mbd_cli_defaults(c);
    FILE *out = tmpfile(), *err = tmpfile();
    int st = mbd_cli_parse(spec, argc, argv, c, out, err);
    rewind(err);
    size_t n = fread(err_text, 1, sizeof err_text - 1, err);
    err_text[n] = '\0';
    fclose(out);
    fclose(err);
    return st;
}

static void values_and_equals_form(void)
{
    mbd_cli_common c;
    const char *a[] = {"--h", "1e-3", "--t-end=2.5", "--method", "penalty", "--mu=1e7",
                       "--variant", "listing", "--csv", "-", "--no-timing", NULL};
    CHECK_STATUS(parse(&SPEC, &c, a), GSL_SUCCESS);
    CHECK_CLOSE(c.h, 1e-3, 0.0);
    CHECK_MSG(c.h_given && c.t_end_given && !c.rtol_given, "given flags");
    CHECK_CLOSE(c.t_end, 2.5, 0.0);
    CHECK_CLOSE(mu, 1e7, 0.0);
    CHECK_MSG(strcmp(c.method, "penalty") == 0 && strcmp(variant, "listing") == 0, "choices");
    CHECK_MSG(c.csv && strcmp(c.csv, "-") == 0 && c.no_timing, "csv, no-timing");
    CHECK_CLOSE(c.max_violation, 1.0, 0.0);
}

static void expect_usage(const mbd_cli_spec *spec, const char *const *a, const char *needle)
{
    mbd_cli_common c;
    int st = parse(spec, &c, a);
    CHECK_STATUS(st, MBD_EUSAGE);
    CHECK_MSG(strstr(err_text, needle) != NULL, "message should contain '%s', got: %s", needle,
              err_text);
}

static void bad_input_is_named(void)
{
    const char *a1[] = {"--bogus", NULL};
    expect_usage(&SPEC, a1, "unknown option '--bogus'");
    const char *a2[] = {"--h", NULL};
    expect_usage(&SPEC, a2, "option --h needs a value");
    const char *a3[] = {"--h", "fast", NULL};
    expect_usage(&SPEC, a3, "option --h: expected a finite number, got 'fast'");
    const char *a4[] = {"--rtol", "nan", NULL};
    expect_usage(&SPEC, a4, "option --rtol: expected a finite number, got 'nan'");
    const char *a5[] = {"--t-end", "inf", NULL};
    expect_usage(&SPEC, a5, "expected a finite number, got 'inf'");
    const char *a6[] = {"--h", "-0.1", NULL};
    expect_usage(&SPEC, a6, "expected a positive number");
    const char *a7[] = {"--mu", "0", NULL};
    expect_usage(&SPEC, a7, "option --mu: expected a number > 0, got '0'");
    const char *a8[] = {"--method", "euler", NULL};
    expect_usage(&SPEC, a8, "unknown value 'euler'; expected one of: projection, penalty");
    const char *a9[] = {"--h", "1e-3x", NULL};
    expect_usage(&SPEC, a9, "got '1e-3x'");
    const char *a10[] = {"--summary", "--csv", "-", NULL};
    expect_usage(&SPEC, a10, "both write to standard output");
    const char *a11[] = {"stray", NULL};
    expect_usage(&SPEC, a11, "unexpected argument 'stray'");
    const char *a12[] = {"--bench", "0", NULL};
    expect_usage(&SPEC, a12, "expected a positive whole number");
    const char *a13[] = {"--h", "1e999", NULL};
    expect_usage(&SPEC, a13, "expected a finite number");
}

static void unused_common_option_is_refused(void)
{
    const char *a[] = {"--h", "0.1", NULL};
    expect_usage(&SMALL, a, "option --h is not used by small");
    const char *b[] = {"--mu", "5", NULL};
    expect_usage(&SMALL, b, "unknown option '--mu'");
}

static void help_and_version(void)
{
    mbd_cli_common c;
    const char *a[] = {"--help", NULL};
    CHECK_STATUS(parse(&SPEC, &c, a), MBD_CLI_DONE);
    const char *b[] = {"--version", NULL};
    CHECK_STATUS(parse(&SPEC, &c, b), MBD_CLI_DONE);
    const char *d[] = {"--list", NULL};
    CHECK_STATUS(parse(&SPEC, &c, d), MBD_CLI_DONE);
}

static CU_TestInfo tests[] = {
    {"values_and_equals_form", values_and_equals_form},
    {"bad_input_is_named", bad_input_is_named},
    {"unused_common_option_is_refused", unused_common_option_is_refused},
    {"help_and_version", help_and_version},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"cli", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
