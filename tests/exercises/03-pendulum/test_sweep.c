/* Grades exercise 03.4: the penalty-factor study. */
#include <math.h>
#include <string.h>

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
    /* two points are enough */
    const double x2[2] = {3.0, 12.0}, y2[2] = {5.0, 0.625};
    REQUIRE_STATUS(ex03_loglog_slope(x2, y2, 2, &s), GSL_SUCCESS);
    CHECK_CLOSE(s, -1.5, 1e-12);
}

static void slope_errors(void)
{
    const double x[3] = {1, 2, 3}, y[3] = {1, -2, 3}, same[3] = {2, 2, 2};
    double s;
    CHECK_STATUS(ex03_loglog_slope(x, x, 1, &s), GSL_EINVAL);
    CHECK_STATUS(ex03_loglog_slope(x, y, 3, &s), GSL_EINVAL);
    CHECK_STATUS(ex03_loglog_slope(y, x, 3, &s), GSL_EINVAL);
    CHECK_STATUS(ex03_loglog_slope(same, x, 3, &s), GSL_EINVAL);
    CHECK_STATUS(ex03_loglog_slope(x, x, 0, &s), GSL_EINVAL);
    CHECK_STATUS(ex03_loglog_slope(x, x, 3, NULL), GSL_EINVAL);
}

/* The run the contract describes, done here: the largest |C| over the outputs
 * and the accepted steps, and the status. */
static int own_run(const mbd_system *s, const char *method, double mu, const mbd_ode_params *ode,
                   const double q0[], const double qd0[], double t_end, double *max_C, long *steps)
{
    mbd_formulation_params fp = {.mu = mu, .alpha = 20, .beta = 20};
    mbd_formulation_method(method, &fp);
    mbd_formulation *f = mbd_formulation_alloc(s, &fp);
    if (f == NULL)
        return GSL_ENOMEM;
    mbd_sim_params sp = {.t0 = 0, .t_end = t_end, .dt_out = t_end / 500, .max_violation = 100};
    mbd_sim_stats st;
    memset(&st, 0, sizeof st);
    mbd_failure fail;
    const int status = mbd_simulate(f, ode, &sp, q0, qd0, NULL, &st, &fail);
    mbd_formulation_free(f);
    *max_C = st.max_C;
    *steps = st.run.ode.steps;
    return status;
}

/* The largest |C| and the steps of each run, as the library's pipeline
 * reports them for the same run (computed here): the pendulum from rest, and
 * the moving circle (C_t != 0, damping) started off the circle and moving;
 * the Baumgarte methods with alpha = beta = 20. */
static void sweep_records_each_run(void)
{
    mbd_system sys[2] = {fx_pendulum(), fx_moving()};
    mbd_ode_params ode;
    mbd_ode_preset("ode23", &ode);
    const double mu[3] = {1e2, 1e3, 1e5};
    const double q0[2][3] = {{1, 0, 0}, {0.9, 0.5, 0.05}};
    const double qd0[2][3] = {{0, 0, 0}, {0.7, -1.1, 0.4}};
    const char *methods[4] = {"penalty", "alternate-penalty", "penalty-baumgarte",
                              "projection-baumgarte"};
    for (int k = 0; k < 2; k++)
        for (int j = 0; j < 4; j++) {
            if (k == 0 && j >= 2)
                continue;
            double C[3] = {NAN, NAN, NAN};
            long steps[3] = {-1, -1, -1};
            REQUIRE_STATUS(ex03_penalty_sweep(&sys[k], methods[j], &ode, mu, 3, q0[k], qd0[k], 2.0,
                                              C, steps), GSL_SUCCESS);
            for (int i = 0; i < 3; i++) {
                double mc;
                long ms;
                REQUIRE_STATUS(own_run(&sys[k], methods[j], mu[i], &ode, q0[k], qd0[k], 2.0, &mc,
                                       &ms), GSL_SUCCESS);
                CHECK_MSG(fabs(C[i] - mc) <= 1e-9 * mc && steps[i] == ms,
                          "%s, %s, mu = %g: max |C| %.10g, steps %ld; the run gives %.10g and %ld",
                          k ? "moving circle" : "pendulum", methods[j], mu[i], C[i], steps[i], mc,
                          ms);
            }
        }
}

/* A run that fails makes the sweep fail with its status: the alternate
 * penalty at mu = 1e-3 barely holds the pendulum, which falls until |C|
 * passes the violation limit 100 (at about 1.4 s); and a force that fails. */
static void failed_run_fails(void)
{
    mbd_system s = fx_pendulum();
    mbd_ode_params ode;
    mbd_ode_preset("ode23", &ode);
    const double mu[2] = {1e3, 1e-3}, q0[3] = {1, 0, 0}, qd0[3] = {0, 0, 0};
    double C[2], mc;
    long steps[2], ms;
    int lib = own_run(&s, "alternate-penalty", mu[1], &ode, q0, qd0, 2.0, &mc, &ms);
    CHECK_MSG(lib == MBD_EVIOLATION, "test set-up: the run gave %d", lib);
    int st = ex03_penalty_sweep(&s, "alternate-penalty", &ode, mu, 2, q0, qd0, 2.0, C, steps);
    CHECK_MSG(st == MBD_EVIOLATION, "mu = 1e-3: |C| passes the limit 100; the sweep returned %d "
              "(%s), expected MBD_EVIOLATION", st, mbd_strerror(st));

    fx_fail_model fm = {&s, FXF_FORCE, 0.5, 0, 0};
    mbd_system f = fx_failing(&fm);
    lib = own_run(&f, "penalty", mu[0], &ode, q0, qd0, 2.0, &mc, &ms);
    CHECK_MSG(lib != GSL_SUCCESS, "test set-up: the run did not fail");
    st = ex03_penalty_sweep(&f, "penalty", &ode, mu, 1, q0, qd0, 2.0, C, steps);
    CHECK_MSG(st == lib, "the force fails at t = 0.5 s and the run with status %d (%s); the "
              "sweep returned %d (%s)", lib, mbd_strerror(lib), st, mbd_strerror(st));
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
    {"failed_run_fails", failed_run_fails},
    {"penalty_violation_one_over_mu", penalty_violation_one_over_mu},
    {"steps_against_mu", steps_against_mu},
    {"sweep_errors", sweep_errors},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"ex03.4", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
