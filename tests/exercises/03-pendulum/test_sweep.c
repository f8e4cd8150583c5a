/* Grades exercise 03.4: the penalty-factor study. */
#include <math.h>

#include <gsl/gsl_errno.h>

#include "check.h"
#include "ex03.h"
#include "fixture.h"
#include "mbd/simulate.h"

static void slope_of_power_laws(void)
{
    double x[6], y[6], s = NAN;
    for (int i = 0; i < 6; i++) {
        x[i] = pow(10.0, i + 1);
        y[i] = 3.0 * pow(x[i], -1.5);
    }
    REQUIRE_STATUS(ex03_loglog_slope(x, y, 6, &s), GSL_SUCCESS);
    CHECK_CLOSE(s, -1.5, 1e-12);
    /* uneven points, a positive power */
    const double xs[4] = {2.0, 3.0, 17.0, 1000.0};
    double ys[4];
    for (int i = 0; i < 4; i++)
        ys[i] = 0.2 * sqrt(xs[i]);
    REQUIRE_STATUS(ex03_loglog_slope(xs, ys, 4, &s), GSL_SUCCESS);
    CHECK_CLOSE(s, 0.5, 1e-12);
    /* least squares through scattered points: y = x^2 (1 +- 10 %) */
    const double xr[4] = {1, 2, 4, 8}, yr[4] = {1.1, 3.6, 17.6, 57.6};
    REQUIRE_STATUS(ex03_loglog_slope(xr, yr, 4, &s), GSL_SUCCESS);
    /* the normal equations of this data, solved by hand: */
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (int i = 0; i < 4; i++) {
        sx += log(xr[i]);
        sy += log(yr[i]);
        sxx += log(xr[i]) * log(xr[i]);
        sxy += log(xr[i]) * log(yr[i]);
    }
    CHECK_CLOSE(s, (4 * sxy - sx * sy) / (4 * sxx - sx * sx), 1e-12);
}

static void slope_errors(void)
{
    const double x[3] = {1, 2, 3}, y[3] = {1, -2, 3}, same[3] = {2, 2, 2};
    double s;
    CHECK_STATUS(ex03_loglog_slope(x, x, 1, &s), GSL_EINVAL);
    CHECK_STATUS(ex03_loglog_slope(x, y, 3, &s), GSL_EINVAL);
    CHECK_STATUS(ex03_loglog_slope(y, x, 3, &s), GSL_EINVAL);
    CHECK_STATUS(ex03_loglog_slope(same, x, 3, &s), GSL_EINVAL);
}

/* The largest |C| and the steps of each run, as the library's pipeline
 * reports them for the same run (computed here). */
static void sweep_records_each_run(void)
{
    mbd_system s = fx_pendulum();
    mbd_ode_params ode;
    mbd_ode_preset("ode23", &ode);
    const double mu[3] = {1e2, 1e3, 1e5}, q0[3] = {1, 0, 0}, qd0[3] = {0, 0, 0};
    const char *methods[2] = {"penalty", "alternate-penalty"};
    for (int j = 0; j < 2; j++) {
        double C[3] = {NAN, NAN, NAN};
        long steps[3] = {-1, -1, -1};
        REQUIRE_STATUS(ex03_penalty_sweep(&s, methods[j], &ode, mu, 3, q0, qd0, 2.0, C, steps),
                       GSL_SUCCESS);
        for (int i = 0; i < 3; i++) {
            mbd_formulation_params fp = {.mu = mu[i]};
            mbd_formulation_method(methods[j], &fp);
            mbd_formulation *f = mbd_formulation_alloc(&s, &fp);
            mbd_sim_params sp = {.t0 = 0, .t_end = 2.0, .dt_out = 2.0 / 500, .max_violation = 100};
            mbd_sim_stats st;
            mbd_failure fail;
            REQUIRE_STATUS(mbd_simulate(f, &ode, &sp, q0, qd0, NULL, &st, &fail), GSL_SUCCESS);
            mbd_formulation_free(f);
            CHECK_MSG(fabs(C[i] - st.max_C) <= 1e-9 * st.max_C && steps[i] == st.run.ode.steps,
                      "%s, mu = %g: max |C| %.10g, steps %ld; the run gives %.10g and %ld",
                      methods[j], mu[i], C[i], steps[i], st.max_C, st.run.ode.steps);
        }
    }
}

/* Without integration error the static penalty's violation falls as 1/mu */
static void penalty_violation_one_over_mu(void)
{
    mbd_system s = fx_pendulum();
    mbd_ode_params ode;
    mbd_ode_preset("tight", &ode);
    const double mu[4] = {1e4, 1e5, 1e6, 1e7}, q0[3] = {1, 0, 0}, qd0[3] = {0, 0, 0};
    double C[4], slope = NAN;
    long steps[4];
    REQUIRE_STATUS(ex03_penalty_sweep(&s, "penalty", &ode, mu, 4, q0, qd0, 2.0, C, steps),
                   GSL_SUCCESS);
    REQUIRE_STATUS(ex03_loglog_slope(mu, C, 4, &slope), GSL_SUCCESS);
    CHECK_CLOSE(slope, -1.0, 0.03);
    CHECK_IN(C[1], 5e-5, 5e-4);   /* 1.3e-4 over 2 s at mu = 1e5 */
}

/* ode23's steps: the alternate penalty's grow as sqrt(mu) (a radial spring of
 * frequency 2 sqrt(mu/m)); the stabilised static penalty's stay put. */
static void steps_against_mu(void)
{
    mbd_system s = fx_pendulum();
    mbd_ode_params ode;
    mbd_ode_preset("ode23", &ode);
    const double mu[3] = {1e6, 1e7, 1e8}, q0[3] = {1, 0, 0}, qd0[3] = {0, 0, 0};
    double C[3], x[3], slope = NAN;
    long steps[3];
    REQUIRE_STATUS(ex03_penalty_sweep(&s, "alternate-penalty", &ode, mu, 3, q0, qd0, 2.0, C,
                                      steps), GSL_SUCCESS);
    for (int i = 0; i < 3; i++)
        x[i] = (double)steps[i];
    REQUIRE_STATUS(ex03_loglog_slope(mu, x, 3, &slope), GSL_SUCCESS);
    CHECK_IN(slope, 0.4, 0.6);
    REQUIRE_STATUS(ex03_penalty_sweep(&s, "penalty-baumgarte", &ode, mu, 3, q0, qd0, 2.0, C,
                                      steps), GSL_SUCCESS);
    for (int i = 0; i < 3; i++)
        x[i] = (double)steps[i];
    REQUIRE_STATUS(ex03_loglog_slope(mu, x, 3, &slope), GSL_SUCCESS);
    CHECK_CLOSE(slope, 0.0, 0.03);
    CHECK_LE(C[2], 1e-2);
}

static void sweep_errors(void)
{
    mbd_system s = fx_pendulum();
    mbd_ode_params ode;
    mbd_ode_preset("ode23", &ode);
    const double mu[1] = {1e3}, q0[3] = {1, 0, 0}, qd0[3] = {0, 0, 0};
    double C[1];
    long steps[1];
    CHECK_STATUS(ex03_penalty_sweep(&s, "no-such-method", &ode, mu, 1, q0, qd0, 1.0, C, steps),
                 GSL_EINVAL);
    CHECK_STATUS(ex03_penalty_sweep(&s, "penalty", &ode, mu, 1, q0, qd0, 0.0, C, steps),
                 GSL_EINVAL);
}

static CU_TestInfo tests[] = {
    {"slope_of_power_laws", slope_of_power_laws},
    {"slope_errors", slope_errors},
    {"sweep_records_each_run", sweep_records_each_run},
    {"penalty_violation_one_over_mu", penalty_violation_one_over_mu},
    {"steps_against_mu", steps_against_mu},
    {"sweep_errors", sweep_errors},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"ex03.4", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
