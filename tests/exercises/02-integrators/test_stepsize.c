/* Grades exercise 02.3: the step-size rule, and RK4 with step doubling. */
#include <math.h>

#include <gsl/gsl_errno.h>

#include "check.h"
#include "ex02.h"
#include "fixture.h"

/* Accept exactly when the estimate is within the tolerance. */
static void rule_accepts_within_tolerance(void)
{
    const double ratios[] = {0.0, 1e-3, 0.5, 1.0, 1.0000001, 1.5, 3.0, 1e4};
    for (size_t i = 0; i < sizeof ratios / sizeof ratios[0]; i++) {
        int accept = -1;
        double h_new = NAN;
        REQUIRE_STATUS(ex02_step_rule(ratios[i] * 1e-6, 1e-6, 0.1, 4, &accept, &h_new),
                       GSL_SUCCESS);
        CHECK_MSG(accept == (ratios[i] <= 1.0), "err/tol = %g: accept = %d", ratios[i], accept);
        CHECK_MSG(isfinite(h_new) && h_new > 0, "err/tol = %g: h_new = %g", ratios[i], h_new);
    }
}

/* The proposed step aims below the tolerance: the error it would make,
 * err (h_new/h)^(p+1) since the local error grows as h^(p+1), lies between
 * 0.3 and 0.95 of tol (a safety factor 0.8 ... 0.95), wherever the growth and
 * shrink limits do not bind. */
static void rule_aims_below_tolerance(void)
{
    const unsigned ps[] = {4, 2, 1};
    const double ratios[][6] = {{0.01, 0.1, 0.5, 1.0, 2.0, 100.0},
                                {0.02, 0.1, 0.5, 1.0, 2.0, 40.0},
                                {0.05, 0.1, 0.5, 1.0, 2.0, 10.0}};
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < 6; i++) {
            const double tol = 1e-5, h = 0.02, err = ratios[k][i] * tol;
            int accept;
            double h_new = NAN;
            REQUIRE_STATUS(ex02_step_rule(err, tol, h, ps[k], &accept, &h_new), GSL_SUCCESS);
            const double predicted = err * pow(h_new / h, ps[k] + 1.0);
            CHECK_MSG(predicted >= 0.3 * tol && predicted <= 0.95 * tol,
                      "p = %u, err/tol = %g: h_new/h = %.4g would make err/tol = %.4g, "
                      "expected 0.3 ... 0.95", ps[k], ratios[k][i], h_new / h, predicted / tol);
        }
}

/* The step changes by at most 5 and at least 1/5 at once; err = 0 grows it. */
static void rule_limits(void)
{
    int accept;
    double h_new = NAN;
    REQUIRE_STATUS(ex02_step_rule(1e-20, 1e-6, 0.1, 4, &accept, &h_new), GSL_SUCCESS);
    CHECK_IN(h_new, 0.2, 0.5);
    REQUIRE_STATUS(ex02_step_rule(0.0, 1e-6, 0.1, 4, &accept, &h_new), GSL_SUCCESS);
    CHECK_IN(h_new, 0.2, 0.5);
    REQUIRE_STATUS(ex02_step_rule(1e6, 1e-6, 0.1, 4, &accept, &h_new), GSL_SUCCESS);
    CHECK_IN(h_new, 0.02, 0.05);
    CHECK_STATUS(ex02_step_rule(1e-6, 0.0, 0.1, 4, &accept, &h_new), GSL_EINVAL);
    CHECK_STATUS(ex02_step_rule(1e-6, 1e-6, 0.0, 4, &accept, &h_new), GSL_EINVAL);
    CHECK_STATUS(ex02_step_rule(NAN, 1e-6, 0.1, 4, &accept, &h_new), GSL_EINVAL);
}

/* One accepted step on a smooth problem: the estimate (eta(H/2) - eta(H))/15
 * is the error of the two half steps, which is what the step continues from. */
static void estimate_is_the_error(void)
{
    const double hs[] = {0.2, 0.1};
    for (int i = 0; i < 2; i++) {
        double y0[2] = {1.0, 0.5}, y[2], ye[2];
        ex02_adaptive_stats st;
        REQUIRE_STATUS(ex02_rk4_doubling(fx_nonlinear, NULL, 2, 0.0, y0, hs[i], 1.0, hs[i], y, &st),
                       GSL_SUCCESS);
        CHECK_MSG(st.accepted == 1 && st.rejected == 0, "one step: %ld accepted, %ld rejected",
                  st.accepted, st.rejected);
        fx_nonlinear_exact(hs[i], ye);
        const double err = fmax(fabs(y[0] - ye[0]), fabs(y[1] - ye[1]));
        CHECK_MSG(st.max_estimate >= 0.5 * err && st.max_estimate <= 2.0 * err,
                  "h = %g: estimate %.3g, true error of the result %.3g (should agree within 2x)",
                  hs[i], st.max_estimate, err);
        CHECK_IN(st.fevals, 8, 12);
    }
}

/* The transient problem, where a fixed step fails: the steps that suit cos t
 * are unstable for the fast mode exp(-100 t). The controlled run keeps the
 * error near the tolerance, with few rejections. */
static void transient(void)
{
    const double tols[] = {1e-5, 1e-7};
    for (int i = 0; i < 2; i++) {
        double y0 = 0.0, y;
        ex02_adaptive_stats st;
        REQUIRE_STATUS(ex02_rk4_doubling(fx_transient, NULL, 1, 0.0, &y0, 2.0, tols[i], 1e-4, &y, &st),
                       GSL_SUCCESS);
        const double err = fabs(y - fx_transient_exact(2.0));
        CHECK_MSG(err <= 10.0 * tols[i], "tol %g: error at t = 2 is %.3g", tols[i], err);
        CHECK_LE(st.max_estimate, tols[i]);
        CHECK_MSG(st.rejected <= st.accepted / 5 + 2, "tol %g: %ld rejected of %ld accepted",
                  tols[i], st.rejected, st.accepted);
        CHECK_MSG(st.accepted < 1000, "tol %g: %ld steps", tols[i], st.accepted);
        CHECK_IN(st.h_min, 1e-6, 2e-3);
        /* a fixed RK4 step as long as the longest accepted one fails */
        double yf = 0.0;
        const long n = (long)ceil(2.0 / st.h_max);
        const double h = 2.0 / (double)n;
        for (long k = 0; k < n && fabs(yf) < 1e10; k++) {
            double k1, k2, k3, k4, t = k * h, s;
            fx_transient(t, &yf, &k1, NULL);
            s = yf + 0.5 * h * k1;
            fx_transient(t + 0.5 * h, &s, &k2, NULL);
            s = yf + 0.5 * h * k2;
            fx_transient(t + 0.5 * h, &s, &k3, NULL);
            s = yf + h * k3;
            fx_transient(t + h, &s, &k4, NULL);
            yf += h / 6 * (k1 + 2 * k2 + 2 * k3 + k4);
        }
        CHECK_MSG(!(fabs(yf - fx_transient_exact(2.0)) < 1e3 * tols[i]),
                  "a fixed step of the run's longest h = %.4g should fail, got error %.3g",
                  st.h_max, fabs(yf - fx_transient_exact(2.0)));
    }
}

/* The run ends on t_end, also when the first step is longer than the interval,
 * and passes on a failing right-hand side. */
static void lands_on_t_end(void)
{
    double lambda = -2.0, y0 = 1.0, y = NAN;
    ex02_adaptive_stats st;
    REQUIRE_STATUS(ex02_rk4_doubling(fx_linear, &lambda, 1, 1.0, &y0, 1.3, 1e-10, 5.0, &y, &st),
                   GSL_SUCCESS);
    CHECK_REL(y, exp(-0.6), 1e-8);
    int calls = 20;
    CHECK_STATUS(ex02_rk4_doubling(fx_failing, &calls, 1, 0.0, &y0, 1.0, 1e-8, 0.1, &y, &st),
                 GSL_EDOM);
    CHECK_STATUS(ex02_rk4_doubling(fx_linear, &lambda, 1, 1.0, &y0, 0.5, 1e-8, 0.1, &y, &st),
                 GSL_EINVAL);
}

static CU_TestInfo tests[] = {
    {"rule_accepts_within_tolerance", rule_accepts_within_tolerance},
    {"rule_aims_below_tolerance", rule_aims_below_tolerance},
    {"rule_limits", rule_limits},
    {"estimate_is_the_error", estimate_is_the_error},
    {"transient", transient},
    {"lands_on_t_end", lands_on_t_end},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"ex02.3", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
