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

/* y' = A y for a 3 x 3 A that is not symmetric (params: the matrix,
 * row-major) */
static int fx_matrix(double t, const double y[], double f[], void *params)
{
    (void)t;
    const double *A = params;
    for (int i = 0; i < 3; i++)
        f[i] = A[3 * i] * y[0] + A[3 * i + 1] * y[1] + A[3 * i + 2] * y[2];
    return GSL_SUCCESS;
}

/* A coupled system: on y' = A y one step is the polynomial
 * (I + hA + (hA)^2/2 + (hA)^3/6 + (hA)^4/24) y, forward and backward in time;
 * the step uses the 5 n doubles of work and nothing past them. */
static void coupled_system(void)
{
    const double A[9] = {-1.0, 2.0, 0.0, -0.5, -0.3, 1.5, 0.25, -2.0, -0.8};
    const double hs[] = {0.3, -0.2};
    for (int c = 0; c < 2; c++) {
        const double h = hs[c], y[3] = {1.0, -0.5, 2.0};
        /* term_j = (hA)^j y / j!, summed */
        double term[3] = {y[0], y[1], y[2]}, expect[3] = {y[0], y[1], y[2]};
        for (int j = 1; j <= 4; j++) {
            double next[3];
            for (int i = 0; i < 3; i++)
                next[i] = h * (A[3 * i] * term[0] + A[3 * i + 1] * term[1] + A[3 * i + 2] * term[2]) / j;
            for (int i = 0; i < 3; i++) {
                term[i] = next[i];
                expect[i] += next[i];
            }
        }
        double work[15 + 4], ynew[3] = {NAN, NAN, NAN};
        for (int i = 15; i < 19; i++)
            work[i] = 12345.0;
        REQUIRE_STATUS(ex02_rk4_step(fx_matrix, (void *)A, 3, 0.4, y, h, ynew, work), GSL_SUCCESS);
        for (int i = 0; i < 3; i++)
            CHECK_MSG(fabs(ynew[i] - expect[i]) <= 1e-14 * fmax(1.0, fabs(expect[i])),
                      "h = %g: y_new[%d] = %.15g, the polynomial gives %.15g", h, i, ynew[i],
                      expect[i]);
        for (int i = 15; i < 19; i++)
            CHECK_MSG(work[i] == 12345.0, "work[%d] (past the 5 n doubles) was written", i);
    }
}

/* A failing right-hand side is reported at once, whichever of the four
 * evaluations fails and whatever status it returns; bad arguments are
 * refused. */
static void errors(void)
{
    double work[5], y = 1.0, ynew;
    const int statuses[4] = {GSL_EDOM, GSL_EBADFUNC, MBD_ENONFINITE, GSL_ERANGE};
    for (int fail_at = 1; fail_at <= 4; fail_at++) {
        int calls = fail_at;
        CHECK_STATUS(ex02_rk4_step(fx_failing, &calls, 1, 0.0, &y, 0.1, &ynew, work), GSL_EDOM);
        fx_fail_once_params once = {0, fail_at, statuses[fail_at - 1]};
        CHECK_STATUS(ex02_rk4_step(fx_fail_once, &once, 1, 0.0, &y, 0.1, &ynew, work),
                     statuses[fail_at - 1]);
        CHECK_MSG(once.calls == fail_at, "f failed on call %d, but was called %ld times", fail_at,
                  once.calls);
    }
    double lambda = -1.0;
    CHECK_STATUS(ex02_rk4_step(fx_linear, &lambda, 0, 0.0, &y, 0.1, &ynew, work), GSL_EINVAL);
    CHECK_STATUS(ex02_rk4_step(fx_linear, &lambda, 1, 0.0, &y, NAN, &ynew, work), GSL_EINVAL);
    CHECK_STATUS(ex02_rk4_step(fx_linear, &lambda, 1, 0.0, &y, INFINITY, &ynew, work), GSL_EINVAL);
    CHECK_STATUS(ex02_rk4_step(fx_linear, &lambda, 1, 0.0, &y, -INFINITY, &ynew, work), GSL_EINVAL);
}

static CU_TestInfo tests[] = {
    {"amplification_factor", amplification_factor},
    {"stage_times", stage_times},
    {"observed_order", observed_order},
    {"coupled_system", coupled_system},
    {"errors", errors},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"ex02.1", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
