/* Grades exercise 02.2: two-step Adams-Bashforth with a Runge-Kutta start. */
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_errno.h>

#include "check.h"
#include "ex02.h"
#include "fixture.h"

/* runs ex02_ab2 on the nonlinear, non-autonomous system from its exact state
 * at t0 over [t0, t0 + 2] with n steps; the error at step k (k = 1 or n) */
static int run_nonlinear(double t0, long n, long k, double *err)
{
    double *y = calloc((size_t)(n + 1) * 2, sizeof *y), work[12], y0[2], ye[2];
    fx_nonlinear_exact(t0, y0);
    const double h = 2.0 / (double)n;
    int st = ex02_ab2(fx_nonlinear, NULL, 2, t0, y0, h, n, y, work);
    fx_nonlinear_exact(t0 + (double)k * h, ye);
    *err = st == GSL_SUCCESS ? fmax(fabs(y[2 * k] - ye[0]), fabs(y[2 * k + 1] - ye[1])) : NAN;
    free(y);
    return st;
}

/* The global error falls as h^2, starting at t0 = 0 and at t0 = 1.3. */
static void observed_order(void)
{
    const double t0s[2] = {0.0, 1.3};
    for (int c = 0; c < 2; c++) {
        double e[4];
        for (int k = 0; k < 4; k++)
            REQUIRE_STATUS(run_nonlinear(t0s[c], 40L << k, 40L << k, &e[k]), GSL_SUCCESS);
        for (int k = 1; k < 4; k++)
            CHECK_MSG(log2(e[k - 1] / e[k]) >= 1.8 && log2(e[k - 1] / e[k]) <= 2.2,
                      "t0 = %g: the error fell by 2^%.3f when h halved, expected 2^2", t0s[c],
                      log2(e[k - 1] / e[k]));
        CHECK_LE(e[0], 1e-2);
    }
}

/* The start: y_1 from a one-step method of order >= 2 has a local error
 * O(h^3); an Euler start (O(h^2)) would add an error of the size of the
 * method's own global error and is not accepted. At t0 = 1.3 the start's
 * evaluations must be at t0 and t0 + h (or t0 + h/2). */
static void runge_kutta_start(void)
{
    const double t0s[2] = {0.0, 1.3};
    for (int c = 0; c < 2; c++) {
        double e[4];
        for (int k = 0; k < 4; k++)
            REQUIRE_STATUS(run_nonlinear(t0s[c], 10L << k, 1, &e[k]), GSL_SUCCESS);
        for (int k = 1; k < 4; k++)
            CHECK_MSG(log2(e[k - 1] / e[k]) >= 2.7, "t0 = %g: the error of y_1 fell by 2^%.3f "
                      "when h halved, expected 2^3", t0s[c], log2(e[k - 1] / e[k]));
    }
}

/* y' = lambda y + sin(3 t) (params: lambda) */
static int fx_forced(double t, const double y[], double f[], void *params)
{
    f[0] = *(const double *)params * y[0] + sin(3.0 * t);
    return GSL_SUCCESS;
}

/* After the start every step is y_{k+1} = y_k + h (3/2 f_k - 1/2 f_{k-1})
 * with the factor h (document 001 prints the Adams form without it), with
 * f_k = f(t0 + k h, y_k) for a start time t0 = 0.7 and an f that depends on t.
 * y_0 is y0; nothing past y_out[nsteps n + n - 1] and work[6 n - 1] is written. */
static void the_formula(void)
{
    double lambda = -3.0, y0 = 1.0, y[22], work[6 + 3];
    const double h = 0.05, t0 = 0.7;
    for (int k = 0; k < 22; k++)
        y[k] = NAN;
    y[21] = 12345.0;
    for (int i = 6; i < 9; i++)
        work[i] = 12345.0;
    REQUIRE_STATUS(ex02_ab2(fx_forced, &lambda, 1, t0, &y0, h, 20, y, work), GSL_SUCCESS);
    CHECK_CLOSE(y[0], 1.0, 0.0);
    for (int k = 1; k < 20; k++) {
        double fk, fk1;
        fx_forced(t0 + k * h, &y[k], &fk, &lambda);
        fx_forced(t0 + (k - 1) * h, &y[k - 1], &fk1, &lambda);
        double expect = y[k] + h * (1.5 * fk - 0.5 * fk1);
        CHECK_MSG(fabs(y[k + 1] - expect) <= 1e-14 * fmax(1.0, fabs(expect)),
                  "y_%d = %.15g, y_%d + h (3/2 f_%d - 1/2 f_%d) = %.15g", k + 1, y[k + 1], k, k,
                  k - 1, expect);
    }
    CHECK_MSG(y[21] == 12345.0, "y_out was written past its (nsteps + 1) n doubles");
    for (int i = 6; i < 9; i++)
        CHECK_MSG(work[i] == 12345.0, "work[%d] (past the 6 n doubles) was written", i);
}

/* AB2 is stable on y' = -y for h < 1 (the root zeta = -1 of
 * zeta^2 - (1 - 3h/2) zeta - h/2 at h = 1) and unstable above. */
static void stability(void)
{
    double lambda = -1.0, y0 = 1.0, work[6];
    enum { N = 400 };
    double *y = calloc(N + 1, sizeof *y);
    REQUIRE_STATUS(ex02_ab2(fx_linear, &lambda, 1, 0.0, &y0, 0.95, N, y, work), GSL_SUCCESS);
    CHECK_LE(fabs(y[N]), 1e-6);
    REQUIRE_STATUS(ex02_ab2(fx_linear, &lambda, 1, 0.0, &y0, 1.05, N, y, work), GSL_SUCCESS);
    CHECK_MSG(!(fabs(y[N]) < 1e3), "at h = 1.05 |y_400| should have grown past 1e3, got %g",
              fabs(y[N]));
    free(y);
}

/* Bad arguments are refused; a failing right-hand side is reported at once,
 * whichever evaluation fails (the start's two, the first and a later step's)
 * and whatever status it returns. */
static void errors(void)
{
    double lambda = -1.0, y0 = 1.0, y[11], work[6];
    CHECK_STATUS(ex02_ab2(fx_linear, &lambda, 1, 0.0, &y0, 0.1, 0, y, work), GSL_EINVAL);
    CHECK_STATUS(ex02_ab2(fx_linear, &lambda, 1, 0.0, &y0, 0.0, 10, y, work), GSL_EINVAL);
    CHECK_STATUS(ex02_ab2(fx_linear, &lambda, 1, 0.0, &y0, -0.1, 10, y, work), GSL_EINVAL);
    CHECK_STATUS(ex02_ab2(fx_linear, &lambda, 1, 0.0, &y0, NAN, 10, y, work), GSL_EINVAL);
    CHECK_STATUS(ex02_ab2(fx_linear, &lambda, 1, 0.0, &y0, INFINITY, 10, y, work), GSL_EINVAL);
    CHECK_STATUS(ex02_ab2(fx_linear, &lambda, 0, 0.0, &y0, 0.1, 10, y, work), GSL_EINVAL);
    int calls = 6;
    CHECK_STATUS(ex02_ab2(fx_failing, &calls, 1, 0.0, &y0, 0.1, 10, y, work), GSL_EDOM);
    const long fail_at[4] = {1, 2, 3, 7};
    const int statuses[4] = {GSL_EBADFUNC, GSL_EDOM, MBD_ENONFINITE, GSL_ERANGE};
    for (int i = 0; i < 4; i++) {
        fx_fail_once_params once = {0, fail_at[i], statuses[i]};
        CHECK_STATUS(ex02_ab2(fx_fail_once, &once, 1, 0.5, &y0, 0.1, 10, y, work), statuses[i]);
        CHECK_MSG(once.calls == fail_at[i], "f failed on call %ld, but was called %ld times",
                  fail_at[i], once.calls);
    }
}

static CU_TestInfo tests[] = {
    {"observed_order", observed_order},
    {"runge_kutta_start", runge_kutta_start},
    {"the_formula", the_formula},
    {"stability", stability},
    {"errors", errors},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"ex02.2", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
