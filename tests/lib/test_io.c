/* io: CSV, tables, summaries, figures; and the test runner's own contract. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <unistd.h>

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
    CHECK_STATUS(st, MBD_EIO);
    CHECK_MSG(strstr(f.cause, "/nonexistent-dir/fig.svg") != NULL, "cause: '%s'", f.cause);
}

/* a directory's names that start with prefix */
static int files_starting(const char *dir, const char *prefix)
{
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; d != NULL && (e = readdir(d)) != NULL;)
        n += strncmp(e->d_name, prefix, strlen(prefix)) == 0;
    if (d != NULL)
        closedir(d);
    return n;
}

/* A figure gnuplot cannot draw (gnuplot not found; a command it refuses)
 * leaves nothing behind: no empty or partial SVG, no temporary file. */
static void plot_failure_leaves_no_file(void)
{
    double x[2] = {0, 1}, y[2] = {0, 1};
    mbd_series s = {NULL, x, y, 2, NULL, 0};
    mbd_panel p = {.series = &s, .nseries = 1};
    mbd_figure fig = {.panels = &p};
    char dir[] = "/tmp/mbd-test-plot-XXXXXX";
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    char path[64];
    snprintf(path, sizeof path, "%s/fig.svg", dir);
    mbd_failure f;
    /* gnuplot not on the PATH */
    const char *saved = getenv("PATH");
    char *old = saved ? strdup(saved) : NULL;
    setenv("PATH", "/nonexistent-dir", 1);
    int st = mbd_plot_svg(path, &fig, &f);
    if (old != NULL) {
        setenv("PATH", old, 1);
        free(old);
    }
    CHECK_STATUS(st, MBD_EEXTERNAL);
    CHECK_MSG(strstr(f.cause, "gnuplot") != NULL, "cause: '%s'", f.cause);
    CU_ASSERT_EQUAL(files_starting(dir, "fig"), 0);
    /* a command gnuplot refuses */
    p.extra = "set nosuchsetting 3";
    st = mbd_plot_svg(path, &fig, &f);
    CHECK_STATUS(st, MBD_EEXTERNAL);
    CU_ASSERT_EQUAL(files_starting(dir, "fig"), 0);
    /* and a good one is there, alone */
    p.extra = NULL;
    CHECK_STATUS(mbd_plot_svg(path, &fig, &f), GSL_SUCCESS);
    CU_ASSERT_EQUAL(files_starting(dir, "fig"), 1);
    remove(path);
    rmdir(dir);
}

/* the squared distance from p to the segment a-b */
static double test_seg_dist2(double ax, double ay, double bx, double by, double px, double py)
{
    double dx = bx - ax, dy = by - ay, len2 = dx * dx + dy * dy;
    double s = len2 > 0 ? ((px - ax) * dx + (py - ay) * dy) / len2 : 0.0;
    s = s < 0 ? 0 : s > 1 ? 1 : s;
    double ex = ax + s * dx - px, ey = ay + s * dy - py;
    return ex * ex + ey * ey;
}

/* Thinning a curve of 10^5 points in pixels: a smooth wave with a one-point
 * spike, a break, and a point asked for.  Few points stay; the spike's tip,
 * the ends of both runs, the break and the point asked for are among them;
 * every point left out is within the tolerance of the segment between the
 * kept points around it. */
static void plot_thin_keeps_corners(void)
{
    enum { N = 100000, SPIKE = 31234, BREAK = 60000, ASKED = 45678 };
    const double tol = 0.1;
    double *px = malloc(N * sizeof *px), *py = malloc(N * sizeof *py);
    unsigned char *keep = calloc(N, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(px);
    CU_ASSERT_PTR_NOT_NULL_FATAL(py);
    CU_ASSERT_PTR_NOT_NULL_FATAL(keep);
    for (size_t i = 0; i < N; i++) {
        px[i] = 700.0 * (double)i / (N - 1);
        py[i] = 240.0 + 150.0 * sin(2.0 * 3.14159265358979323846 * 3.0 * px[i] / 700.0);
    }
    py[SPIKE] += 40.0;      /* a corner 40 px high, one point wide */
    py[BREAK] = NAN;        /* the line breaks here */
    keep[ASKED] = 1;
    size_t kept = 0;
    CHECK_STATUS(mbd_plot_thin(N, px, py, tol, keep, &kept), GSL_SUCCESS);
    size_t count = 0;
    for (size_t i = 0; i < N; i++)
        count += keep[i] == 1;
    CHECK_MSG(kept == count, "nkept %zu, but %zu points are marked", kept, count);
    CHECK_MSG(kept > 20 && kept < 3000, "%zu of %d points kept", kept, N);
    CHECK_MSG(keep[0] && keep[N - 1], "the ends of the curve are kept");
    CHECK_MSG(keep[BREAK] && keep[BREAK - 1] && keep[BREAK + 1],
              "the break and the ends of the runs around it are kept");
    CHECK_MSG(keep[SPIKE], "the spike's tip is kept");
    CHECK_MSG(keep[ASKED], "the point asked for is kept");
    /* the extremes of the wave (without the spike): the greatest is within
     * tol of a kept point's height */
    double top = -HUGE_VAL, kept_top = -HUGE_VAL;
    for (size_t i = 0; i < N; i++) {
        if (i == SPIKE || !isfinite(py[i]))
            continue;
        top = fmax(top, py[i]);
        if (keep[i])
            kept_top = fmax(kept_top, py[i]);
    }
    CHECK_CLOSE(kept_top, top, tol);
    /* every point left out lies within tol of its segment */
    size_t a = 0, worst_at = 0;
    double worst = 0;
    for (size_t b = 1; b < N; b++) {
        if (!keep[b])
            continue;
        for (size_t k = a + 1; k < b; k++) {
            double d = sqrt(test_seg_dist2(px[a], py[a], px[b], py[b], px[k], py[k]));
            if (d > worst) {
                worst = d;
                worst_at = k;
            }
        }
        a = b;
    }
    CHECK_MSG(worst <= tol, "point %zu left out is %g px from its segment (tolerance %g)",
              worst_at, worst, tol);
    free(px);
    free(py);
    free(keep);
}

/* Points within the tolerance of a line, but the least or greatest in x or
 * y, are kept: an autoscaled axis is fitted to them. */
static void plot_thin_keeps_extremes(void)
{
    enum { N = 1001 };
    double hx[N], hy[N], vx[N], vy[N];
    unsigned char keep[N];
    for (size_t i = 0; i < N; i++) {
        hx[i] = vy[i] = 0.5 * (double)i;   /* a horizontal and a vertical line */
        hy[i] = vx[i] = 100.0;
    }
    hy[300] += 0.05;
    hy[700] -= 0.05;
    vx[400] += 0.05;
    vx[600] -= 0.05;
    size_t kept = 0;
    memset(keep, 0, sizeof keep);
    CHECK_STATUS(mbd_plot_thin(N, hx, hy, 0.1, keep, &kept), GSL_SUCCESS);
    CHECK_MSG(keep[300] && keep[700], "the highest and lowest points are kept");
    CHECK_MSG(kept == 4, "%zu points kept, expected the ends, the highest and the lowest", kept);
    memset(keep, 0, sizeof keep);
    CHECK_STATUS(mbd_plot_thin(N, vx, vy, 0.1, keep, &kept), GSL_SUCCESS);
    CHECK_MSG(keep[400] && keep[600], "the rightmost and leftmost points are kept");
    CHECK_MSG(kept == 4, "%zu points kept, expected the ends, the rightmost and the leftmost", kept);
}

/* the whole of a file, or NULL */
static char *slurp(const char *path, long *size)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *buf = malloc((size_t)n + 1);
    if (buf != NULL) {
        buf[fread(buf, 1, (size_t)n, f)] = '\0';
        if (size)
            *size = n;
    }
    fclose(f);
    return buf;
}

/* the texts of an SVG (titles, tick labels, legends), in order, joined by | */
static void svg_texts(const char *svg, char *out, size_t size)
{
    size_t len = 0;
    out[0] = '\0';
    for (const char *p = strstr(svg, "<tspan"); p != NULL; p = strstr(p, "<tspan")) {
        const char *start = strchr(p, '>');
        const char *end = start ? strstr(start, "</tspan>") : NULL;
        if (end == NULL)
            break;
        int n = snprintf(out + len, size - len, "%.*s|", (int)(end - start - 1), start + 1);
        if (n < 0 || (size_t)n >= size - len)
            break;
        len += (size_t)n;
        p = end;
    }
}

/* A line of 10^5 points is drawn in an SVG far below the book's 300 kB
 * limit, and its axes end where they end for the same data drawn whole (as
 * points): thinning keeps the extremes an autoscaled axis is fitted to. */
static void plot_thins_long_lines(void)
{
    enum { N = 100000 };
    double *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y);
    CU_ASSERT_PTR_NOT_NULL_FATAL(x);
    CU_ASSERT_PTR_NOT_NULL_FATAL(y);
    for (size_t i = 0; i < N; i++) {
        x[i] = 4.0 * (double)i / (N - 1);
        /* up from 16 to a hair below the tick at 26, then a plateau with a
         * bump 2e-5 high in its middle: the bump is far less than a pixel,
         * but its top is a hair above 26, and gnuplot extends the
         * autoscaled axis to the next tick, 28; without the top the axis
         * would end at 26 */
        double base = 26.0 - 1e-5, u = (x[i] - 2.5) / 1.5;
        y[i] = x[i] < 1.0 ? base - 10.0 * (1.0 - x[i]) : base + 2e-5 * (1.0 - u * u);
    }
    mbd_failure f;
    mbd_failure_clear(&f);
    mbd_series line = {NULL, x, y, N, "lines", 0};
    mbd_panel p = {.xlabel = "t", .ylabel = "y", .series = &line, .nseries = 1};
    mbd_figure fig = {.panels = &p};
    const char *thin = "/tmp/mbd-test-plot-thin.svg", *whole = "/tmp/mbd-test-plot-whole.svg";
    int st = mbd_plot_svg(thin, &fig, &f);
    CHECK_MSG(st == GSL_SUCCESS, "plot failed: %s", f.cause);
    /* the same data as points: written whole (10^4 of them, to keep it quick) */
    mbd_series points = {NULL, x, y, N, "points pt 0", 0};
    for (size_t i = 0; i < N / 10; i++) {
        x[i] = x[10 * i];
        y[i] = y[10 * i];
    }
    points.n = N / 10;
    mbd_panel pw = {.xlabel = "t", .ylabel = "y", .series = &points, .nseries = 1};
    fig.panels = &pw;
    st = mbd_plot_svg(whole, &fig, &f);
    CHECK_MSG(st == GSL_SUCCESS, "plot failed: %s", f.cause);

    long size = 0;
    char *a = slurp(thin, &size), *b = slurp(whole, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    CHECK_MSG(size < 300000 / 4, "a line of %d points takes %ld bytes of SVG", N, size);
    static char ta[4096], tb[4096];
    svg_texts(a, ta, sizeof ta);
    svg_texts(b, tb, sizeof tb);
    CHECK_MSG(strstr(ta, "|28|") != NULL, "the y axis of the thinned line does not reach 28: %s",
              ta);
    CHECK_MSG(strcmp(ta, tb) == 0, "the axes differ:\nthinned %s\nwhole   %s", ta, tb);
    free(a);
    free(b);
    free(x);
    free(y);
    remove(thin);
    remove(whole);
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
    {"plot_failure_leaves_no_file", plot_failure_leaves_no_file},
    {"plot_thin_keeps_corners", plot_thin_keeps_corners},
    {"plot_thin_keeps_extremes", plot_thin_keeps_extremes},
    {"plot_thins_long_lines", plot_thins_long_lines},
    {"strerror_names_codes", strerror_names_codes},
    {"deliberately_failing", deliberately_failing},
    {"runner_reports_failure", runner_reports_failure},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"io", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
