/* Grades exercise 02.1: one step of the classical Runge-Kutta method. */
#include <math.h>

#include <gsl/gsl_errno.h>

#include "check.h"
#include "ex02.h"
#include "fixture.h"

/* On y' = lambda y one step multiplies y by R(z) = 1 + z + z^2/2 + z^3/6 + z^4/24,
 * z = h lambda: the closed form of RK4's amplification. */
static void amplification_factor(void)
{
    const double zs[] = {-0.5, -2.0, -2.7, 0.3, 1.0};
    double work[5], y = 1.0, ynew = NAN;
    for (size_t i = 0; i < sizeof zs / sizeof zs[0]; i++) {
        double lambda = -4.0, h = zs[i] / lambda, z = zs[i];
        REQUIRE_STATUS(ex02_rk4_step(fx_linear, &lambda, 1, 0.3, &y, h, &ynew, work), GSL_SUCCESS);
        double R = 1 + z + z * z / 2 + z * z * z / 6 + z * z * z * z / 24;
        CHECK_REL(ynew, R, 1e-14);
    }
}

/* The stages are taken at t, t + h/2, t + h/2, t + h: then RK4 reproduces the
 * integral of any cubic in t exactly (it is Simpson's rule there). */
static void stage_times(void)
{
    double work[5], y = 2.0, ynew = NAN;
    const double ts[] = {0.0, 0.7, -1.3}, hs[] = {0.5, 0.25, 1.1};
    for (int i = 0; i < 3; i++) {
        const double t = ts[i], h = hs[i];
        REQUIRE_STATUS(ex02_rk4_step(fx_quartic, NULL, 1, t, &y, h, &ynew, work), GSL_SUCCESS);
        const double a = t + h;
        /* y + int_t^{t+h} (4 s^3 + 3 s^2) ds, which Simpson's rule gets exactly */
        const double exact = y + (a * a * a * a + a * a * a) - (t * t * t * t + t * t * t);
        CHECK_CLOSE(ynew, exact, 1e-12);
    }
}

/* The global error on a nonlinear, non-autonomous system falls as h^4. */
static void observed_order(void)
{
    double work[10], e[4];
    for (int k = 0; k < 4; k++) {
        const int n = 10 << k;
        const double h = 2.0 / n;
        double y[2] = {1.0, 0.5}, ynew[2], ye[2];
        for (int s = 0; s < n; s++) {
            REQUIRE_STATUS(ex02_rk4_step(fx_nonlinear, NULL, 2, s * h, y, h, ynew, work),
                           GSL_SUCCESS);
            y[0] = ynew[0];
            y[1] = ynew[1];
        }
        fx_nonlinear_exact(2.0, ye);
        e[k] = fmax(fabs(y[0] - ye[0]), fabs(y[1] - ye[1]));
    }
    for (int k = 1; k < 4; k++)
        CHECK_IN(log2(e[k - 1] / e[k]), 3.8, 4.2);
    CHECK_LE(e[0], 1e-4);
}

/* A failing right-hand side is reported, and bad arguments refused. */
static void errors(void)
{
    double work[5], y = 1.0, ynew;
    for (int fail_at = 1; fail_at <= 4; fail_at++) {
        int calls = fail_at;
        CHECK_STATUS(ex02_rk4_step(fx_failing, &calls, 1, 0.0, &y, 0.1, &ynew, work), GSL_EDOM);
    }
    double lambda = -1.0;
    CHECK_STATUS(ex02_rk4_step(fx_linear, &lambda, 0, 0.0, &y, 0.1, &ynew, work), GSL_EINVAL);
    CHECK_STATUS(ex02_rk4_step(fx_linear, &lambda, 1, 0.0, &y, NAN, &ynew, work), GSL_EINVAL);
}

static CU_TestInfo tests[] = {
    {"amplification_factor", amplification_factor},
    {"stage_times", stage_times},
    {"observed_order", observed_order},
    {"errors", errors},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"ex02.1", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
