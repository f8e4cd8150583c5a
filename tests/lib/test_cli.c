/* The common command-line parser, on a spec that uses every common option. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

#include "check.h"
#include "mbd/cli.h"
#include "mbd/error.h"
#include "mbd/io.h"

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

/* ------------------------------------------------------------------------ */
/* Benchmarks: the one CSV schema                                           */

#define BENCH_COLUMNS 22

/* the lines of a stream from its start (at most 8, each at most 511 chars) */
static size_t read_lines(FILE *f, char lines[8][512])
{
    rewind(f);
    size_t n = 0;
    while (n < 8 && fgets(lines[n], 512, f) != NULL) {
        lines[n][strcspn(lines[n], "\n")] = '\0';
        n++;
    }
    return n;
}

/* field k (from 0) of a CSV line into buf; the number of fields */
static int csv_field(const char *line, int k, char *buf, size_t size)
{
    int i = 0;
    buf[0] = '\0';
    for (const char *p = line;; i++) {
        size_t len = strcspn(p, ",");
        if (i == k) {
            size_t c = len < size - 1 ? len : size - 1;
            memcpy(buf, p, c);
            buf[c] = '\0';
        }
        if (p[len] == '\0')
            return i + 1;
        p += len + 1;
    }
}

/* field `name` of row `row` by the header's column names, as a number (NAN
 * when empty) */
static double bench_value(char lines[8][512], size_t row, const char *name)
{
    char buf[128];
    for (int k = 0; k < BENCH_COLUMNS; k++) {
        csv_field(lines[0], k, buf, sizeof buf);
        if (strcmp(buf, name) == 0) {
            csv_field(lines[row], k, buf, sizeof buf);
            return buf[0] ? strtod(buf, NULL) : NAN;
        }
    }
    return NAN;
}

static void bench_text(char lines[8][512], size_t row, const char *name, char *buf, size_t size)
{
    char head[128];
    buf[0] = '\0';
    for (int k = 0; k < BENCH_COLUMNS; k++) {
        csv_field(lines[0], k, head, sizeof head);
        if (strcmp(head, name) == 0)
            csv_field(lines[row], k, buf, size);
    }
}

static int count_calls;
static FILE *tmp_out;
static int bench_counted(void *ctx, mbd_cli_bench_counts *n)
{
    (void)ctx;
    count_calls++;
    n->steps = 10;
    n->fevals = 31;
    volatile double x = 0.0;
    for (int i = 0; i < 1000; i++)
        x += sqrt((double)i);
    return GSL_SUCCESS;
}

static int bench_failing(void *ctx, mbd_cli_bench_counts *n)
{
    (void)ctx;
    (void)n;
    return GSL_EFAILED;
}

static void bench_rows_have_every_column(void)
{
    setenv("MBD_BENCH_COMMIT", "abc1234,-dirty", 1);
    setenv("MBD_BENCH_DATE", "2024-01-02T03:04:05Z", 1);
    FILE *f = tmpfile();
    mbd_cli_bench_header(f);
    count_calls = 0;
    int st = mbd_cli_bench(f, "prog", "case", "method", MBD_CLI_BENCH_WHOLE_RUN, 3,
                           bench_counted, NULL);
    CHECK_STATUS(st, GSL_SUCCESS);
    char lines[8][512], buf[128];
    size_t n = read_lines(f, lines);
    fclose(f);
    unsetenv("MBD_BENCH_COMMIT");
    unsetenv("MBD_BENCH_DATE");
    CHECK_MSG(n == 2, "a header and one row, got %zu lines", n);
    if (n != 2)
        return;
    CHECK_MSG(csv_field(lines[0], 0, buf, sizeof buf) == BENCH_COLUMNS, "header: %s", lines[0]);
    CHECK_MSG(csv_field(lines[1], 0, buf, sizeof buf) == BENCH_COLUMNS, "row: %s", lines[1]);
    bench_text(lines, 1, "commit", buf, sizeof buf);
    CHECK_MSG(strcmp(buf, "abc1234_-dirty") == 0, "a comma in the commit is replaced: %s", buf);
    bench_text(lines, 1, "date", buf, sizeof buf);
    CHECK_MSG(strcmp(buf, "2024-01-02T03:04:05Z") == 0, "date: %s", buf);
    bench_text(lines, 1, "kind", buf, sizeof buf);
    CHECK_MSG(strcmp(buf, "whole-run") == 0, "kind: %s", buf);
    const double lo = bench_value(lines, 1, "min_s"), mid = bench_value(lines, 1, "median_s"),
                 hi = bench_value(lines, 1, "max_s");
    CHECK_MSG(lo > 0 && lo <= mid && mid <= hi, "0 < min <= median <= max: %g %g %g", lo, mid, hi);
    CHECK_CLOSE(bench_value(lines, 1, "repeats"), 3, 0);
    CHECK_CLOSE(bench_value(lines, 1, "steps"), 10, 0);
    CHECK_CLOSE(bench_value(lines, 1, "fevals"), 31, 0);
    CHECK_REL(bench_value(lines, 1, "per_step_s"), mid / 10, 1e-5);
    CHECK_MSG(isnan(bench_value(lines, 1, "outputs")) && isnan(bench_value(lines, 1, "overhead")),
              "what does not apply is empty");
    /* each repetition lasts MBD_CLI_BENCH_MIN_SECONDS: calls x per call */
    const double calls = bench_value(lines, 1, "calls");
    CHECK_GE(calls * lo, 0.5 * MBD_CLI_BENCH_MIN_SECONDS);
    CHECK_GE(count_calls, 1 + 3 * calls);
}

static void bench_failure_writes_nothing(void)
{
    FILE *f = tmpfile();
    int st = mbd_cli_bench(f, "prog", "case", "", MBD_CLI_BENCH_INTEGRATION, 2, bench_failing,
                           NULL);
    CHECK_STATUS(st, GSL_EFAILED);
    CHECK_MSG(ftell(f) == 0, "nothing written");
    fclose(f);
    CHECK_MSG(strcmp(mbd_cli_bench_kind_name(MBD_CLI_BENCH_OUTPUT), "output") == 0
                  && strcmp(mbd_cli_bench_kind_name(MBD_CLI_BENCH_RHS), "rhs") == 0,
              "kind names");
}

/* a program's bench part: two cases; with ctx != NULL the second case's name
 * changes after the first pass, or it fails */
typedef struct {
    int passes, rename, fail;
} fake_program;

static int fake_bench(void *ctx, long repeats, mbd_failure *fail)
{
    fake_program *fp = ctx;
    fp->passes++;
    int st = mbd_cli_bench(tmp_out, "prog", "first", "a", MBD_CLI_BENCH_WHOLE_RUN, repeats,
                           bench_counted, NULL);
    if (st == GSL_SUCCESS)
        st = mbd_cli_bench(tmp_out, "prog", fp->rename && fp->passes > 1 ? "renamed" : "second",
                           "b", MBD_CLI_BENCH_INTEGRATION, repeats,
                           fp->fail && fp->passes > 2 ? bench_failing : bench_counted, NULL);
    if (st != GSL_SUCCESS)
        mbd_failure_set(fail, st, NAN, "a case failed");
    return st;
}

static void bench_passes_write_rows_after_the_last(void)
{
    fake_program fp = {0};
    const mbd_cli_program prog = {"prog", &fp, fake_bench, NULL, NULL, NULL};
    mbd_failure fail;
    mbd_failure_clear(&fail);
    FILE *out = tmpfile();
    tmp_out = tmpfile();   /* where the cases are told to write: nothing goes there */
    count_calls = 0;
    int st = mbd_cli_bench_passes(&prog, 4, out, &fail);
    CHECK_STATUS(st, GSL_SUCCESS);
    CHECK_MSG(fp.passes == 4, "4 passes, not %d", fp.passes);
    CHECK_MSG(ftell(tmp_out) == 0, "the rows are written by the passes, on their stream");
    char lines[8][512], buf[128];
    size_t n = read_lines(out, lines);
    CHECK_MSG(n == 3, "a header and two rows, got %zu lines", n);
    if (n == 3) {
        CHECK_MSG(strncmp(lines[0], "commit,date,program,", 20) == 0, "header first: %s", lines[0]);
        bench_text(lines, 1, "case", buf, sizeof buf);
        CHECK_MSG(strcmp(buf, "first") == 0, "the cases in their order: %s", buf);
        bench_text(lines, 2, "kind", buf, sizeof buf);
        CHECK_MSG(strcmp(buf, "integration") == 0, "kind: %s", buf);
        CHECK_CLOSE(bench_value(lines, 1, "repeats"), 4, 0);
        CHECK_CLOSE(bench_value(lines, 2, "repeats"), 4, 0);
        /* calibrated once: a warm-up call and batches, then 4 repetitions */
        const double calls = bench_value(lines, 1, "calls") + bench_value(lines, 2, "calls");
        CHECK_GE(count_calls, 2 + 4 * calls);
        CHECK_LE(count_calls, 2 + 9 * calls);
    }
    fclose(out);

    fake_program renamed = {.rename = 1};
    const mbd_cli_program prog2 = {"prog", &renamed, fake_bench, NULL, NULL, NULL};
    out = tmpfile();
    st = mbd_cli_bench_passes(&prog2, 3, out, &fail);
    CHECK_STATUS(st, MBD_EINPUT);
    CHECK_MSG(ftell(out) == 0, "cases that differ between passes: nothing written");
    fclose(out);

    fake_program failing = {.fail = 1};
    const mbd_cli_program prog3 = {"prog", &failing, fake_bench, NULL, NULL, NULL};
    out = tmpfile();
    st = mbd_cli_bench_passes(&prog3, 3, out, &fail);
    CHECK_STATUS(st, GSL_EFAILED);
    CHECK_MSG(ftell(out) == 0, "a case that fails: nothing written");
    fclose(out);
    fclose(tmp_out);
    tmp_out = NULL;
}

/* a pendulum in (x, y): M = I, F = (0, -g), C = x^2 + y^2 - 1 */
static int pend_mass(const mbd_system *s, double t, const gsl_vector *q, gsl_matrix *M)
{
    (void)s, (void)t, (void)q;
    gsl_matrix_set_identity(M);
    return GSL_SUCCESS;
}
static int pend_force(const mbd_system *s, double t, const gsl_vector *q, const gsl_vector *qd,
                      gsl_vector *F)
{
    (void)s, (void)t, (void)q, (void)qd;
    gsl_vector_set(F, 0, 0.0);
    gsl_vector_set(F, 1, -9.81);
    return GSL_SUCCESS;
}
static int pend_constraint(const mbd_system *s, double t, const gsl_vector *q, gsl_vector *C)
{
    (void)s, (void)t;
    const double x = gsl_vector_get(q, 0), y = gsl_vector_get(q, 1);
    gsl_vector_set(C, 0, x * x + y * y - 1.0);
    return GSL_SUCCESS;
}
static int pend_jacobian(const mbd_system *s, double t, const gsl_vector *q, gsl_matrix *Cq)
{
    (void)s, (void)t;
    gsl_matrix_set(Cq, 0, 0, 2.0 * gsl_vector_get(q, 0));
    gsl_matrix_set(Cq, 0, 1, 2.0 * gsl_vector_get(q, 1));
    return GSL_SUCCESS;
}
static int pend_gamma(const mbd_system *s, double t, const gsl_vector *q, const gsl_vector *qd,
                      gsl_vector *g)
{
    (void)s, (void)t, (void)q;
    const double u = gsl_vector_get(qd, 0), v = gsl_vector_get(qd, 1);
    gsl_vector_set(g, 0, -2.0 * (u * u + v * v));
    return GSL_SUCCESS;
}

static void bench_pipeline_rows(void)
{
    const mbd_system sys = {.n = 2, .m = 1, .mass = pend_mass, .force = pend_force,
                            .constraint = pend_constraint, .jacobian = pend_jacobian,
                            .gamma = pend_gamma};
    const double q0[2] = {1.0, 0.0}, qd0[2] = {0.0, 0.0};
    mbd_study_spec spec;
    mbd_study_spec_init(&spec, "projection", 0.2, 1e-3);
    FILE *f = tmpfile();
    mbd_cli_bench_header(f);
    int st = mbd_cli_bench_pipeline(f, "prog", "pendulum", "projection (test)", 1, &sys, &spec,
                                    q0, qd0, MBD_CLI_BENCH_PIPELINE);
    CHECK_STATUS(st, GSL_SUCCESS);
    char lines[8][512], buf[128];
    size_t n = read_lines(f, lines);
    fclose(f);
    CHECK_MSG(n == 4, "a header and three rows, got %zu lines", n);
    if (n != 4)
        return;
    static const char *const kinds[] = {"integration", "output", "rhs"};
    for (size_t r = 1; r < 4; r++) {
        CHECK_MSG(csv_field(lines[r], 0, buf, sizeof buf) == BENCH_COLUMNS, "row: %s", lines[r]);
        bench_text(lines, r, "kind", buf, sizeof buf);
        CHECK_MSG(strcmp(buf, kinds[r - 1]) == 0, "row %zu is %s, not %s", r, buf, kinds[r - 1]);
        bench_text(lines, r, "method", buf, sizeof buf);
        CHECK_MSG(strcmp(buf, "projection (test)") == 0, "method column: %s", buf);
    }
    /* 0 ... 0.2 every 1e-3: 201 outputs; the output kind, with fewer than
     * 10 000, is timed on a grid of 10 000: 9 999 more than at the ends only */
    CHECK_CLOSE(bench_value(lines, 1, "outputs"), 201, 0);
    CHECK_CLOSE(bench_value(lines, 2, "outputs"), 9999, 0);
    CHECK_REL(bench_value(lines, 2, "per_output_s"), bench_value(lines, 2, "median_s"), 1e-5);
    /* beside it the model callbacks of one output, and the pipeline's own
     * work: the difference (of 6-digit fields) */
    const double per = bench_value(lines, 2, "per_output_s"),
                 model = bench_value(lines, 2, "output_model_s"),
                 own = bench_value(lines, 2, "output_own_s");
    CHECK_MSG(model > 0 && model < 1e-3, "output_model_s %g", model);
    CHECK_MSG(fabs(own - (per - model)) <= 1e-5 * (fabs(per) + fabs(model)), "own %g, %g - %g",
              own, per, model);
    for (size_t r = 1; r < 4; r += 2)
        CHECK_MSG(isnan(bench_value(lines, r, "output_model_s"))
                      && isnan(bench_value(lines, r, "output_own_s")),
                  "row %zu has output measures", r);
    CHECK_CLOSE(bench_value(lines, 3, "kkt_size"), 3, 0);
    CHECK_CLOSE(bench_value(lines, 3, "fevals"), 1, 0);
    const double rhs = bench_value(lines, 3, "per_rhs_s"), lu = bench_value(lines, 3, "kkt_lu_s");
    CHECK_MSG(rhs > 0 && lu > 0, "rhs %g, LU %g", rhs, lu);
    CHECK_REL(bench_value(lines, 3, "overhead"), rhs / lu, 1e-4);
}

/* One method run's spec from the options (mbd_cli_study_spec), on the
 * mechanism options as the chapters bind them. */
static int study_spec(const char *const *args, const char *method, mbd_study_spec *spec,
                      char *err_out, size_t err_size)
{
    mbd_cli_mechanism mech = {.mu = 1e5, .alpha = 20.0, .beta = 20.0};
    mbd_cli_extra extra[4];
    mbd_cli_mechanism_options(&mech, 1e15, NULL, extra);
    mbd_cli_choice methods[16], integrators[16];
    mbd_cli_mechanism_choices(methods, integrators, 16);
    const mbd_cli_spec cli = {.program = "mech", .common = MBD_OPT_OUTPUT | MBD_OPT_TIME,
                              .extra = extra, .n_extra = 4, .methods = methods,
                              .integrators = integrators};
    char *argv[32];
    int argc = 0;
    argv[argc++] = (char *)"mech";
    for (; *args; args++)
        argv[argc++] = (char *)*args;
    mbd_cli_common c;
    mbd_cli_defaults(&c);
    FILE *out = tmpfile(), *err = tmpfile();
    int st = mbd_cli_parse(&cli, argc, argv, &c, out, err);
    mbd_study_spec_init(spec, "penalty", 3.0, 1e-2);
    spec->mu = 7e3;   /* a chapter's own default */
    if (st == GSL_SUCCESS)
        st = mbd_cli_study_spec(&cli, &c, &mech, method ? method : (c.method_given ? c.method
                                                                                  : "penalty"),
                                "ode23", spec, err);
    rewind(err);
    size_t n = fread(err_out, 1, err_size - 1, err);
    err_out[n] = '\0';
    fclose(out);
    fclose(err);
    return st;
}

static void study_spec_from_options(void)
{
    mbd_study_spec s;
    char err[1024];
    /* nothing given: the chapter's defaults stay, ode23 */
    const char *none[] = {NULL};
    CHECK_STATUS(study_spec(none, NULL, &s, err, sizeof err), GSL_SUCCESS);
    CU_ASSERT_STRING_EQUAL(s.method, "penalty");
    CU_ASSERT_STRING_EQUAL(s.ode.name, "ode23");
    CU_ASSERT_EQUAL(s.mu, 7e3);
    CU_ASSERT_EQUAL(s.t_end, 3.0);
    CU_ASSERT_EQUAL(s.dt_out, 1e-2);
    CU_ASSERT_PTR_NULL(s.integrator_asked);
    /* each option once */
    const char *all[] = {"--method", "penalty-baumgarte", "--mu", "2e6", "--alpha", "3", "--beta",
                         "4", "--project", "--integrator", "rk4", "--h", "1e-3", "--t-end", "0.5",
                         "--dt-out", "0.01", "--max-violation", "0.25", "--max-steps", "5000",
                         "--max-outputs", "900", NULL};
    CHECK_STATUS(study_spec(all, NULL, &s, err, sizeof err), GSL_SUCCESS);
    CU_ASSERT_STRING_EQUAL(s.method, "penalty-baumgarte");
    CU_ASSERT_STRING_EQUAL(s.ode.name, "rk4");
    CU_ASSERT_EQUAL(s.ode.h, 1e-3);
    CU_ASSERT_EQUAL(s.mu, 2e6);
    CU_ASSERT_EQUAL(s.alpha, 3.0);
    CU_ASSERT_EQUAL(s.beta, 4.0);
    CU_ASSERT_EQUAL(s.project, 1);
    CU_ASSERT_EQUAL(s.t_end, 0.5);
    CU_ASSERT_EQUAL(s.dt_out, 0.01);
    CU_ASSERT_EQUAL(s.max_violation, 0.25);
    CU_ASSERT_EQUAL(s.max_steps, 5000);
    CU_ASSERT_EQUAL(s.max_outputs, 900);
    CU_ASSERT_STRING_EQUAL(err, "");
    /* a stiff method: msbdf with the step options, the replaced one named,
     * a note only when it was asked for by name */
    const char *stiff[] = {"--method", "index2-penalty", "--rtol", "1e-9", NULL};
    CHECK_STATUS(study_spec(stiff, NULL, &s, err, sizeof err), GSL_SUCCESS);
    CU_ASSERT_STRING_EQUAL(s.ode.name, "msbdf");
    CU_ASSERT_EQUAL(s.ode.rtol, 1e-9);
    CHECK_MSG(s.integrator_asked && strcmp(s.integrator_asked, "ode23") == 0, "asked %s",
              s.integrator_asked ? s.integrator_asked : "NULL");
    CU_ASSERT_STRING_EQUAL(err, "");
    const char *named[] = {"--method", "index2-penalty", "--integrator", "rk4", "--h", "1e-4",
                           NULL};
    CHECK_STATUS(study_spec(named, NULL, &s, err, sizeof err), GSL_SUCCESS);
    CU_ASSERT_STRING_EQUAL(s.ode.name, "msbdf");
    CU_ASSERT_EQUAL(s.ode.h, 1e-4);
    CU_ASSERT_STRING_EQUAL(s.integrator_asked, "rk4");
    CHECK_MSG(strstr(err, "integrated with msbdf, not rk4") != NULL, "note: %s", err);
    const char *bdf[] = {"--method", "index2-penalty", "--integrator", "msbdf", NULL};
    CHECK_STATUS(study_spec(bdf, NULL, &s, err, sizeof err), GSL_SUCCESS);
    CU_ASSERT_PTR_NULL(s.integrator_asked);
    /* refusals, each naming its option */
    const char *mu_proj[] = {"--method", "projection", "--mu", "1e3", NULL};
    CHECK_STATUS(study_spec(mu_proj, NULL, &s, err, sizeof err), MBD_EUSAGE);
    CHECK_MSG(strstr(err, "--mu") != NULL, "%s", err);
    const char *proj2[] = {"--method", "index2-penalty", "--project", NULL};
    CHECK_STATUS(study_spec(proj2, NULL, &s, err, sizeof err), MBD_EUSAGE);
    CHECK_MSG(strstr(err, "--project") != NULL, "%s", err);
    const char *emb_proj[] = {"--method", "embedding", "--project", NULL};
    CHECK_STATUS(study_spec(emb_proj, NULL, &s, err, sizeof err), MBD_EUSAGE);
    CHECK_MSG(strstr(err, "--project") && strstr(err, "nothing to project"), "%s", err);
    const char *ns_proj[] = {"--method", "nullspace", "--project", NULL};
    CHECK_STATUS(study_spec(ns_proj, NULL, &s, err, sizeof err), MBD_EUSAGE);
    CHECK_MSG(strstr(err, "null-space") && strstr(err, "nothing more to project"), "%s", err);
    const char *emb_mu[] = {"--method", "embedding", "--mu", "1e3", NULL};
    CHECK_STATUS(study_spec(emb_mu, NULL, &s, err, sizeof err), MBD_EUSAGE);
    CHECK_MSG(strstr(err, "--mu") != NULL, "%s", err);
    const char *fixed_rtol[] = {"--integrator", "rk4", "--rtol", "1e-6", NULL};
    CHECK_STATUS(study_spec(fixed_rtol, NULL, &s, err, sizeof err), MBD_EUSAGE);
    CHECK_MSG(strstr(err, "--rtol") != NULL, "%s", err);
    const char *long_out[] = {"--t-end", "0.1", "--dt-out", "0.5", NULL};
    CHECK_STATUS(study_spec(long_out, NULL, &s, err, sizeof err), MBD_EUSAGE);
    CHECK_MSG(strstr(err, "--dt-out") != NULL, "%s", err);
}

/* the marker of a figure: appended after what the panel had, at x */
static void plot_marker_appends(void)
{
    char buf[256] = "set key left";
    mbd_plot_marker(buf, sizeof buf, 1.8, "document's horizon", 1);
    CHECK_MSG(strncmp(buf, "set key left\nset arrow from 1.8, graph 0 to 1.8, graph 1", 56) == 0,
              "%s", buf);
    CHECK_MSG(strstr(buf, "set label \"document's horizon\" at 1.8, graph 0.95 right offset "
                          "-0.5,0") != NULL, "%s", buf);
    char tiny[8] = "abc";
    mbd_plot_marker(tiny, sizeof tiny, 1.0, "x", 0);
    CU_ASSERT_EQUAL(strlen(tiny), 7);   /* truncated, still terminated */
    FILE *sink = mbd_cli_bench_sink();
    CU_ASSERT_PTR_NOT_NULL(sink);
    CU_ASSERT_PTR_EQUAL(mbd_cli_bench_sink(), sink);   /* one for the process */
}

static CU_TestInfo tests[] = {
    {"values_and_equals_form", values_and_equals_form},
    {"bad_input_is_named", bad_input_is_named},
    {"unused_common_option_is_refused", unused_common_option_is_refused},
    {"help_and_version", help_and_version},
    {"bench_rows_have_every_column", bench_rows_have_every_column},
    {"bench_failure_writes_nothing", bench_failure_writes_nothing},
    {"bench_passes_write_rows_after_the_last", bench_passes_write_rows_after_the_last},
    {"bench_pipeline_rows", bench_pipeline_rows},
    {"study_spec_from_options", study_spec_from_options},
    {"plot_marker_appends", plot_marker_appends},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"cli", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
