/* io: CSV, tables, summaries, figures; and the test runner's own contract. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "check.h"
#include "mbd/io.h"

static char *read_all(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static void csv_full_precision_and_header(void)
{
    const char *names[] = {"t", "x", "x_dot"};
    const char *path = "/tmp/mbd-test-io.csv";
    int st;
    mbd_csv *c = mbd_csv_open(path, 3, names, &st, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    double row[3] = {0.1, 1.0 / 3.0, -2.5e-300};
    CHECK_STATUS(mbd_csv_row(c, row), GSL_SUCCESS);
    CHECK_STATUS(mbd_csv_close(c), GSL_SUCCESS);
    char *text = read_all(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CHECK_MSG(strncmp(text, "t,x,x_dot\n", 10) == 0, "header: got '%.20s'", text);
    double a, b, d;
    CHECK_MSG(sscanf(text + 10, "%lf,%lf,%lf", &a, &b, &d) == 3, "row not parsed: '%s'", text + 10);
    CHECK_MSG(b == 1.0 / 3.0 && d == -2.5e-300, "values do not round-trip exactly");
    remove(path);
}

static void csv_refuses_nonfinite(void)
{
    const char *names[] = {"t", "x"};
    const char *path = "/tmp/mbd-test-io-nan.csv";
    int st;
    mbd_csv *c = mbd_csv_open(path, 2, names, &st, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    double good[2] = {0, 1}, bad[2] = {0.5, NAN}, inf[2] = {INFINITY, 1};
    CHECK_STATUS(mbd_csv_row(c, good), GSL_SUCCESS);
    CHECK_STATUS(mbd_csv_row(c, bad), MBD_ENONFINITE);
    CHECK_STATUS(mbd_csv_row(c, inf), MBD_ENONFINITE);
    mbd_csv_close(c);
    char *text = read_all(path);
    CHECK_MSG(text && strstr(text, "nan") == NULL && strstr(text, "inf") == NULL,
              "a non-finite value reached the file: '%s'", text ? text : "");
    CHECK_MSG(text && strcmp(text, "t,x\n0,1\n") == 0, "file is '%s'", text ? text : "");
    remove(path);
}

static void csv_unwritable_path(void)
{
    const char *names[] = {"t"};
    int st;
    mbd_failure f;
    mbd_failure_clear(&f);
    mbd_csv *c = mbd_csv_open("/nonexistent-dir/x.csv", 1, names, &st, &f);
    CU_ASSERT_PTR_NULL(c);
    CHECK_STATUS(st, MBD_EIO);
    CHECK_MSG(strstr(f.cause, "/nonexistent-dir/x.csv") != NULL, "cause names the file: '%s'", f.cause);
}

static void summary_refuses_nonfinite(void)
{
    FILE *f = tmpfile();
    CHECK_STATUS(mbd_summary_double(f, "x", NAN), MBD_ENONFINITE);
    CHECK_STATUS(mbd_summary_double(f, "y", 0.1), GSL_SUCCESS);
    rewind(f);
    char line[64] = "";
    CHECK_MSG(fgets(line, sizeof line, f) && strcmp(line, "y = 0.10000000000000001\n") == 0,
              "summary line '%s'", line);
    fclose(f);
}

static void table_aligns_and_marks_missing(void)
{
    const char *h[] = {"k", "value"};
    mbd_table *t = mbd_table_alloc(2, h);
    mbd_table_cell(t, "1");
    mbd_table_num(t, 123.456, 4);
    mbd_table_cell(t, "10");
    mbd_table_num(t, NAN, 4);
    FILE *f = tmpfile();
    mbd_table_print(t, f, 0);
    mbd_table_free(t);
    rewind(f);
    char buf[256];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    CHECK_MSG(strcmp(buf, " k  value\n---------\n 1  123.5\n10      -\n") == 0, "table:\n%s", buf);
}

static void plot_writes_svg(void)
{
    double x[3] = {1, 10, 100}, y[3] = {1, 0.1, NAN};
    mbd_series s = {"y", x, y, 3, "linespoints", 0};
    mbd_panel p = {.title = "test", .xlabel = "x", .ylabel = "y", .logx = 1, .logy = 1,
                   .series = &s, .nseries = 1};
    mbd_figure fig = {.panels = &p};
    mbd_failure f;
    mbd_failure_clear(&f);
    const char *path = "/tmp/mbd-test-plot.svg";
    int st = mbd_plot_svg(path, &fig, &f);
    CHECK_MSG(st == GSL_SUCCESS, "plot failed: %s", f.cause);
    char *text = read_all(path);
    CHECK_MSG(text && strstr(text, "<svg") != NULL, "no SVG written");
    remove(path);
}

/* Labels with what formulas need -- primes, quotes, backslashes, a tilde,
 * an ampersand -- reach the figure as written, in a file whose name has an
 * ampersand and a tilde too. */
static void plot_labels_are_quoted(void)
{
    double x[2] = {0, 1}, y[2] = {0, 1};
    mbd_series s = {"C'' + 2 alpha C' ~ 0", x, y, 2, "lines lw 3", 0};
    mbd_panel p = {.title = "x'' and \"y\" & back\\slash", .xlabel = "t", .ylabel = "q''",
                   .series = &s, .nseries = 1};
    mbd_figure fig = {.title = "two\nlines", .panels = &p};
    mbd_failure f;
    mbd_failure_clear(&f);
    const char *path = "/tmp/mbd-test-plot-&~.svg";
    int st = mbd_plot_svg(path, &fig, &f);
    CHECK_MSG(st == GSL_SUCCESS, "plot failed: %s", f.cause);
    char *text = read_all(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CHECK_MSG(strstr(text, "C'' + 2 alpha C' ~ 0") != NULL, "the legend lost characters");
    CHECK_MSG(strstr(text, "x'' and") != NULL, "the title lost its primes");
    remove(path);
}

static void plot_reports_unwritable_path(void)
{
    double x[2] = {0, 1}, y[2] = {0, 1};
    mbd_series s = {NULL, x, y, 2, NULL, 0};
    mbd_panel p = {.series = &s, .nseries = 1};
    mbd_figure fig = {.panels = &p};
    mbd_failure f;
    mbd_failure_clear(&f);
    int st = mbd_plot_svg("/nonexistent-dir/fig.svg", &fig, &f);
    CHECK_STATUS(st, MBD_EEXTERNAL);
    CHECK_MSG(strstr(f.cause, "/nonexistent-dir/fig.svg") != NULL, "cause: '%s'", f.cause);
}

static void strerror_names_codes(void)
{
    CHECK_MSG(strcmp(mbd_strerror(MBD_EUNIMPL), "not implemented") == 0, "MBD_EUNIMPL");
    CHECK_MSG(strcmp(mbd_strerror(GSL_EDOM), "input domain error") == 0, "GSL_EDOM: '%s'",
              mbd_strerror(GSL_EDOM));
    mbd_failure f;
    mbd_failure_clear(&f);
    CHECK_STATUS(mbd_failure_set(&f, MBD_ESINGULAR, 0.25, "Schur complement at step %d", 7),
                 MBD_ESINGULAR);
    CHECK_CLOSE(f.time, 0.25, 0.0);
    CHECK_MSG(strcmp(f.cause, "Schur complement at step 7") == 0, "cause '%s'", f.cause);
}

/* The runner must exit non-zero when a test fails (CUnit's basic run does
 * not): run a throw-away binary built from this file with a failing test
 * selected. */
static void deliberately_failing(void)
{
    if (getenv("MBD_TEST_SELF_FAIL") != NULL)
        CHECK_CLOSE(1.0, 2.0, 0.5);
}

static void runner_reports_failure(void)
{
    test_run_result r;
    test_run("MBD_TEST_SELF_FAIL=1 " MBD_BUILD_DIR "/tests/lib/test_io --run io deliberately_failing", &r);
    CHECK_MSG(r.status == 1, "runner exit status %d, expected 1", r.status);
    CHECK_MSG(strstr(r.out, "observed 1, expected 2, absolute tolerance 0.5") != NULL,
              "the failure message shows observed, expected and tolerance: '%s'", r.out);
    test_run_free(&r);
    test_run(MBD_BUILD_DIR "/tests/lib/test_io --run io deliberately_failing", &r);
    CHECK_MSG(r.status == 0, "a passing test exits 0, got %d", r.status);
    test_run_free(&r);
    test_run(MBD_BUILD_DIR "/tests/lib/test_io --run io no_such_test", &r);
    CHECK_MSG(r.status == 3, "an unknown test exits 3, got %d", r.status);
    test_run_free(&r);
}

static CU_TestInfo tests[] = {
    {"csv_full_precision_and_header", csv_full_precision_and_header},
    {"csv_refuses_nonfinite", csv_refuses_nonfinite},
    {"csv_unwritable_path", csv_unwritable_path},
    {"summary_refuses_nonfinite", summary_refuses_nonfinite},
    {"table_aligns_and_marks_missing", table_aligns_and_marks_missing},
    {"plot_writes_svg", plot_writes_svg},
    {"plot_labels_are_quoted", plot_labels_are_quoted},
    {"plot_reports_unwritable_path", plot_reports_unwritable_path},
    {"strerror_names_codes", strerror_names_codes},
    {"deliberately_failing", deliberately_failing},
    {"runner_reports_failure", runner_reports_failure},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"io", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
