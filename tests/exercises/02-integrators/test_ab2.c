/* Grades exercise 02.2: two-step Adams-Bashforth with a Runge-Kutta start. */
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_errno.h>

#include "check.h"
#include "ex02.h"
#include "fixture.h"

/* runs ex02_ab2 on the nonlinear system to t = 2 with n steps; the error at
 * step k (k = 1 or n) */
static int run_nonlinear(long n, long k, double *err)
{
    double *y = calloc((size_t)(n + 1) * 2, sizeof *y), work[12], y0[2] = {1.0, 0.5}, ye[2];
    const double h = 2.0 / (double)n;
    int st = ex02_ab2(fx_nonlinear, NULL, 2, 0.0, y0, h, n, y, work);
    fx_nonlinear_exact((double)k * h, ye);
    *err = st == GSL_SUCCESS ? fmax(fabs(y[2 * k] - ye[0]), fabs(y[2 * k + 1] - ye[1])) : NAN;
    free(y);
    return st;
}

/* The global error falls as h^2. */
static void observed_order(void)
{
    double e[4];
    for (int k = 0; k < 4; k++)
        REQUIRE_STATUS(run_nonlinear(40L << k, 40L << k, &e[k]), GSL_SUCCESS);
    for (int k = 1; k < 4; k++)
        CHECK_IN(log2(e[k - 1] / e[k]), 1.8, 2.2);
    CHECK_LE(e[0], 1e-2);
}

/* The start: y_1 from a one-step method of order >= 2 has a local error
 * O(h^3); an Euler start (O(h^2)) would add an error of the size of the
 * method's own global error and is not accepted. */
static void runge_kutta_start(void)
{
    double e[4];
    for (int k = 0; k < 4; k++)
        REQUIRE_STATUS(run_nonlinear(10L << k, 1, &e[k]), GSL_SUCCESS);
    for (int k = 1; k < 4; k++)
        CHECK_GE(log2(e[k - 1] / e[k]), 2.7);
}

/* After the start every step is y_{k+1} = y_k + h (3/2 f_k - 1/2 f_{k-1})
 * with the factor h (document 001 prints the Adams form without it). */
static void the_formula(void)
{
    double lambda = -3.0, y0 = 1.0, y[21], work[6];
    const double h = 0.05;
    REQUIRE_STATUS(ex02_ab2(fx_linear, &lambda, 1, 0.0, &y0, h, 20, y, work), GSL_SUCCESS);
    CHECK_REL(y[0], 1.0, 0.0);
    for (int k = 1; k < 20; k++) {
        double expect = y[k] + h * (1.5 * lambda * y[k] - 0.5 * lambda * y[k - 1]);
        CHECK_REL(y[k + 1], expect, 1e-14);
    }
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

static void errors(void)
{
    double lambda = -1.0, y0 = 1.0, y[11], work[6];
    CHECK_STATUS(ex02_ab2(fx_linear, &lambda, 1, 0.0, &y0, 0.1, 0, y, work), GSL_EINVAL);
    CHECK_STATUS(ex02_ab2(fx_linear, &lambda, 1, 0.0, &y0, 0.0, 10, y, work), GSL_EINVAL);
    CHECK_STATUS(ex02_ab2(fx_linear, &lambda, 0, 0.0, &y0, 0.1, 10, y, work), GSL_EINVAL);
    int calls = 6;
    CHECK_STATUS(ex02_ab2(fx_failing, &calls, 1, 0.0, &y0, 0.1, 10, y, work), GSL_EDOM);
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
