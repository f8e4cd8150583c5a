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

/* The proposed step aims below the tolerance: wherever the growth and
 * shrink limits do not bind, h_new / h = s (tol / err)^(1/(p+1)) with one
 * safety factor s in [0.8, 0.95] for every p, err, tol and h. */
static void rule_aims_below_tolerance(void)
{
    const unsigned ps[] = {4, 2, 1};
    const double ratios[][6] = {{0.01, 0.1, 0.5, 1.0, 2.0, 100.0},
                                {0.02, 0.1, 0.5, 1.0, 2.0, 40.0},
                                {0.05, 0.1, 0.5, 1.0, 2.0, 10.0}};
    const double tols[] = {1e-5, 3e-9}, hs[] = {0.02, 7.5};
    double s_first = NAN;
    for (int c = 0; c < 2; c++)
        for (int k = 0; k < 3; k++)
            for (int i = 0; i < 6; i++) {
                const double tol = tols[c], h = hs[c], err = ratios[k][i] * tol;
                int accept;
                double h_new = NAN;
                REQUIRE_STATUS(ex02_step_rule(err, tol, h, ps[k], &accept, &h_new), GSL_SUCCESS);
                const double s = h_new / h / pow(tol / err, 1.0 / (ps[k] + 1.0));
                if (isnan(s_first))
                    s_first = s;
                CHECK_MSG(s >= 0.8 && s <= 0.95 && fabs(s - s_first) <= 1e-12,
                          "p = %u, err/tol = %g, h = %g: h_new/h = %.6g, i.e. a safety factor "
                          "%.6g (the first call's: %.6g); expected one s in [0.8, 0.95]",
                          ps[k], ratios[k][i], h, h_new / h, s, s_first);
            }
}

/* The step changes by exactly 5 and 1/5 at most at once; err = 0 grows it
 * by 5; bad arguments are refused. */
static void rule_limits(void)
{
    int accept;
    double h_new = NAN;
    REQUIRE_STATUS(ex02_step_rule(1e-20, 1e-6, 0.1, 4, &accept, &h_new), GSL_SUCCESS);
    CHECK_REL(h_new, 0.5, 1e-15);
    REQUIRE_STATUS(ex02_step_rule(0.0, 1e-6, 0.1, 4, &accept, &h_new), GSL_SUCCESS);
    CHECK_REL(h_new, 0.5, 1e-15);
    REQUIRE_STATUS(ex02_step_rule(1e-12, 1e-6, 0.3, 2, &accept, &h_new), GSL_SUCCESS);
    CHECK_REL(h_new, 1.5, 1e-15);
    REQUIRE_STATUS(ex02_step_rule(1e6, 1e-6, 0.1, 4, &accept, &h_new), GSL_SUCCESS);
    CHECK_REL(h_new, 0.02, 1e-15);
    REQUIRE_STATUS(ex02_step_rule(1e-3, 1e-6, 0.3, 1, &accept, &h_new), GSL_SUCCESS);
    CHECK_REL(h_new, 0.06, 1e-15);
    CHECK_STATUS(ex02_step_rule(1e-6, 0.0, 0.1, 4, &accept, &h_new), GSL_EINVAL);
    CHECK_STATUS(ex02_step_rule(1e-6, -1e-6, 0.1, 4, &accept, &h_new), GSL_EINVAL);
    CHECK_STATUS(ex02_step_rule(1e-6, 1e-6, 0.0, 4, &accept, &h_new), GSL_EINVAL);
    CHECK_STATUS(ex02_step_rule(1e-6, 1e-6, -0.1, 4, &accept, &h_new), GSL_EINVAL);
    CHECK_STATUS(ex02_step_rule(NAN, 1e-6, 0.1, 4, &accept, &h_new), GSL_EINVAL);
    CHECK_STATUS(ex02_step_rule(-1e-7, 1e-6, 0.1, 4, &accept, &h_new), GSL_EINVAL);
    CHECK_STATUS(ex02_step_rule(1e-7, 1e-6, 0.1, 0, &accept, &h_new), GSL_EINVAL);
}

/* One accepted step on a smooth problem: the estimate (eta(H/2) - eta(H))/15
 * is the error of the two half steps, which is what the step continues from;
 * fevals is the number of calls of f, counted here; a single (last) step is
 * both h_min and h_max. */
static void estimate_is_the_error(void)
{
    const double hs[] = {0.2, 0.1};
    for (int i = 0; i < 2; i++) {
        double y0[2] = {1.0, 0.5}, y[2], ye[2];
        ex02_adaptive_stats st;
        fx_counted count = {fx_nonlinear, NULL, 0};
        REQUIRE_STATUS(ex02_rk4_doubling(fx_counting, &count, 2, 0.0, y0, hs[i], 1.0, hs[i], y, &st),
                       GSL_SUCCESS);
        CHECK_MSG(st.accepted == 1 && st.rejected == 0, "one step: %ld accepted, %ld rejected",
                  st.accepted, st.rejected);
        fx_nonlinear_exact(hs[i], ye);
        const double err = fmax(fabs(y[0] - ye[0]), fabs(y[1] - ye[1]));
        CHECK_MSG(st.max_estimate >= 0.5 * err && st.max_estimate <= 2.0 * err,
                  "h = %g: estimate %.3g, true error of the result %.3g (should agree within 2x)",
                  hs[i], st.max_estimate, err);
        CHECK_MSG(st.fevals == count.calls, "fevals = %ld, but f was called %ld times", st.fevals,
                  count.calls);
        CHECK_MSG(st.h_min == hs[i] && st.h_max == hs[i], "the only step is %g: h_min = %g, "
                  "h_max = %g", hs[i], st.h_min, st.h_max);
    }
}

/* Two accepted steps from t0 = 0.5 on a coupled, non-autonomous system, the
 * second one shortened to land on t_end, reproduced here with the tests' own
 * RK4: the state, the largest estimate (max norm over the components, /15),
 * the step extremes (the shortened last step left out) and the count of f's
 * calls. */
static void two_steps_by_hand(void)
{
    const double t0 = 0.5, H = 0.2, t_end = t0 + H + 0.01, tol = 1e-3;
    const double y0[3] = {1.0, -0.5, 0.8};
    double y[3] = {NAN, NAN, NAN};
    ex02_adaptive_stats st;
    fx_counted count = {fx_coupled, NULL, 0};
    REQUIRE_STATUS(ex02_rk4_doubling(fx_counting, &count, 3, t0, y0, t_end, tol, H, y, &st),
                   GSL_SUCCESS);
    /* by hand: two attempts, both accepted, each continuing from its half steps */
    double ya[3], yb[3], full[3], mid[3], est[2];
    const double t1 = t0 + H, steps[2] = {H, t_end - t1}, starts[2] = {t0, t1};
    for (int i = 0; i < 3; i++)
        ya[i] = y0[i];
    for (int k = 0; k < 2; k++) {
        const double h = steps[k], t = starts[k];
        fx_rk4(fx_coupled, NULL, 3, t, ya, h, full);
        fx_rk4(fx_coupled, NULL, 3, t, ya, h / 2, mid);
        fx_rk4(fx_coupled, NULL, 3, t + h / 2, mid, h / 2, yb);
        est[k] = 0.0;
        for (int i = 0; i < 3; i++) {
            est[k] = fmax(est[k], fabs(yb[i] - full[i]) / 15.0);
            ya[i] = yb[i];
        }
    }
    CHECK_MSG(est[0] <= tol && est[0] > 100.0 * est[1], "the test's own design: estimates %g, %g",
              est[0], est[1]);
    CHECK_MSG(st.accepted == 2 && st.rejected == 0, "two steps: %ld accepted, %ld rejected",
              st.accepted, st.rejected);
    for (int i = 0; i < 3; i++)
        CHECK_MSG(fabs(y[i] - ya[i]) <= 1e-13, "y_end[%d] = %.15g, by hand %.15g", i, y[i], ya[i]);
    CHECK_MSG(fabs(st.max_estimate - est[0]) <= 1e-9 * est[0],
              "max_estimate = %.10g, the first step's estimate max_i |eta_i(H/2) - eta_i(H)| / 15 "
              "= %.10g (the second's %.3g)", st.max_estimate, est[0], est[1]);
    CHECK_MSG(fabs(st.h_min - H) <= 1e-15 && fabs(st.h_max - H) <= 1e-15,
              "h_min = %g, h_max = %g: expected %g for both (the last step, %g, left out)", st.h_min,
              st.h_max, H, steps[1]);
    CHECK_MSG(st.fevals == count.calls, "fevals = %ld, but f was called %ld times", st.fevals,
              count.calls);
}

/* On y' = 4 t^3 + 3 t^2 RK4 is exact, so every estimate is rounding and every
 * step grows by the rule's limit 5: from t0 = 1 with h0 = 0.01 the steps are
 * 0.01, 0.05, 0.25 and a shortened last one. The extremes leave that one out
 * (whether it is the longest or the shortest step); the end state is exact. */
static void steps_on_a_cubic(void)
{
    const double t_ends[2] = {2.0, 1.315};
    for (int c = 0; c < 2; c++) {
        const double t0 = 1.0, t_end = t_ends[c], y0 = 0.5;
        double y = NAN;
        ex02_adaptive_stats st;
        fx_counted count = {fx_quartic, NULL, 0};
        REQUIRE_STATUS(ex02_rk4_doubling(fx_counting, &count, 1, t0, &y0, t_end, 1e-6, 0.01, &y, &st),
                       GSL_SUCCESS);
        const double exact = y0 + (pow(t_end, 4) + pow(t_end, 3)) - (pow(t0, 4) + pow(t0, 3));
        CHECK_MSG(fabs(y - exact) <= 1e-12, "t_end = %g: y = %.15g, exact %.15g", t_end, y, exact);
        CHECK_MSG(st.accepted == 4 && st.rejected == 0, "t_end = %g: %ld accepted, %ld rejected; "
                  "expected the steps 0.01, 0.05, 0.25, %g", t_end, st.accepted, st.rejected,
                  t_end - 1.31);
        CHECK_MSG(fabs(st.h_min - 0.01) <= 1e-15 && fabs(st.h_max - 0.25) <= 1e-15,
                  "t_end = %g: h_min = %g, h_max = %g; expected 0.01 and 0.25 (the last step, %g, "
                  "left out)", t_end, st.h_min, st.h_max, t_end - 1.31);
        CHECK_MSG(st.fevals == count.calls, "fevals = %ld, but f was called %ld times", st.fevals,
                  count.calls);
        CHECK_LE(st.max_estimate, 1e-13);
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
 * and passes on a failing right-hand side at once, whichever call fails and
 * whatever status it returns. */
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
    const int statuses[3] = {GSL_EDOM, GSL_EBADFUNC, MBD_ENONFINITE};
    for (long fail_at = 1; fail_at <= 30; fail_at++) {
        fx_fail_once_params once = {0, fail_at, statuses[fail_at % 3]};
        CHECK_MSG(ex02_rk4_doubling(fx_fail_once, &once, 1, 0.0, &y0, 1.0, 1e-8, 0.1, &y, &st)
                      == statuses[fail_at % 3] && once.calls == fail_at,
                  "f failed with status %d on its call %ld: the run should stop there and return "
                  "that status (f was called %ld times)", statuses[fail_at % 3], fail_at,
                  once.calls);
    }
}

/* y' = -1e20 (y - cos t) - sin t: no explicit step longer than about 3e-20 is
 * stable, so the step must collapse: every attempt is rejected (the estimate
 * is huge, the step shrinks by the rule's 0.2) until the step would be
 * shorter than 1e-12 (t_end - t0). From t0 = 5 over 1e-3 with h0 = 1e-3 that
 * is after 18 rejected attempts (1e-3 0.2^18 < 1e-15 < 1e-3 0.2^17). */
static int fx_stiff(double t, const double y[], double f[], void *params)
{
    (void)params;
    f[0] = -1e20 * (y[0] - cos(t)) - sin(t);
    return GSL_SUCCESS;
}

/* y' = 1 up to t = 0.5, and NaN past it (a singularity) */
static int fx_nan_after(double t, const double y[], double f[], void *params)
{
    (void)y;
    (void)params;
    f[0] = t <= 0.5 ? 1.0 : NAN;
    return GSL_SUCCESS;
}

/* The failures: the step collapses (MBD_ESTEPSIZE, with the statistics up to
 * then), also when a NaN appears past a point; bad arguments. */
static void failures(void)
{
    double y0 = 0.0, y = NAN;
    ex02_adaptive_stats st;
    CHECK_STATUS(ex02_rk4_doubling(fx_stiff, NULL, 1, 5.0, &y0, 5.001, 1e-8, 1e-3, &y, &st),
                 MBD_ESTEPSIZE);
    CHECK_MSG(st.accepted == 0 && st.rejected >= 17 && st.rejected <= 18,
              "%ld accepted, %ld rejected: expected 0 and 18 (the step falls below "
              "1e-12 (t_end - t0) = 1e-15 after 18 rejections by 0.2)", st.accepted, st.rejected);
    CHECK_STATUS(ex02_rk4_doubling(fx_nan_after, NULL, 1, 0.0, &y0, 1.0, 1e-6, 0.1, &y, &st),
                 MBD_ESTEPSIZE);
    double lambda = -2.0;
    CHECK_STATUS(ex02_rk4_doubling(fx_linear, &lambda, 1, 1.0, &y0, 0.5, 1e-8, 0.1, &y, &st),
                 GSL_EINVAL);
    CHECK_STATUS(ex02_rk4_doubling(fx_linear, &lambda, 1, 1.0, &y0, 1.0, 1e-8, 0.1, &y, &st),
                 GSL_EINVAL);
    CHECK_STATUS(ex02_rk4_doubling(fx_linear, &lambda, 0, 0.0, &y0, 1.0, 1e-8, 0.1, &y, &st),
                 GSL_EINVAL);
    CHECK_STATUS(ex02_rk4_doubling(fx_linear, &lambda, 1, 0.0, &y0, 1.0, 0.0, 0.1, &y, &st),
                 GSL_EINVAL);
    CHECK_STATUS(ex02_rk4_doubling(fx_linear, &lambda, 1, 0.0, &y0, 1.0, 1e-8, 0.0, &y, &st),
                 GSL_EINVAL);
}

static CU_TestInfo tests[] = {
    {"rule_accepts_within_tolerance", rule_accepts_within_tolerance},
    {"rule_aims_below_tolerance", rule_aims_below_tolerance},
    {"rule_limits", rule_limits},
    {"estimate_is_the_error", estimate_is_the_error},
    {"two_steps_by_hand", two_steps_by_hand},
    {"steps_on_a_cubic", steps_on_a_cubic},
    {"transient", transient},
    {"lands_on_t_end", lands_on_t_end},
    {"failures", failures},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"ex02.3", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
