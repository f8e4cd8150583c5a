/* Grades exercise 03.3: Baumgarte's stability, on paper and by running it. */
#include <complex.h>
#include <math.h>

#include <gsl/gsl_errno.h>

#include "check.h"
#include "ex03.h"
#include "fixture.h"

static void check_roots(double alpha, double beta, int printed, double complex e0,
                        double complex e1)
{
    double complex r[2] = {NAN, NAN};
    REQUIRE_STATUS(ex03_baumgarte_roots(alpha, beta, printed, r), GSL_SUCCESS);
    CHECK_MSG(cabs(r[0] - e0) < 1e-9 * (1 + cabs(e0)) && cabs(r[1] - e1) < 1e-9 * (1 + cabs(e1)),
              "alpha = %g, beta = %g, %s sign: roots %.6g%+.6gi, %.6g%+.6gi; expected "
              "%.6g%+.6gi, %.6g%+.6gi", alpha, beta, printed ? "printed" : "stable",
              creal(r[0]), cimag(r[0]), creal(r[1]), cimag(r[1]), creal(e0), cimag(e0),
              creal(e1), cimag(e1));
    /* each root solves its characteristic equation */
    for (int i = 0; i < 2; i++) {
        const double complex z = r[i];
        const double complex p = printed ? z * z - 2 * alpha * z - beta * beta
                                         : z * z + 2 * alpha * z + beta * beta;
        CHECK_MSG(cabs(p) < 1e-9 * (1 + alpha * alpha + beta * beta),
                  "root %d does not solve its equation (residual %.3g)", i, cabs(p));
    }
}

static void roots(void)
{
    const double s20 = sqrt(20.0), s800 = sqrt(800.0), s380 = sqrt(380.0);
    check_roots(20, 20, 0, -20, -20);                  /* critically damped */
    check_roots(20, s20, 0, -20 + s380, -20 - s380);   /* -0.506, -39.49 */
    check_roots(1, 5, 0, -1 + I * sqrt(24.0), -1 - I * sqrt(24.0));
    check_roots(20, 20, 1, 20 + s800, 20 - s800);      /* +48.28: unstable */
    check_roots(20, s20, 1, 20 + sqrt(420.0), 20 - sqrt(420.0));
    double complex r[2];
    CHECK_STATUS(ex03_baumgarte_roots(-1, 2, 0, r), GSL_EINVAL);
    CHECK_STATUS(ex03_baumgarte_roots(1, -2, 1, r), GSL_EINVAL);
}

static double rate_of(const char *method, double mu, double alpha, double beta,
                      const double q0[3], double t_end, double lo, double hi)
{
    mbd_system s = fx_pendulum();
    mbd_formulation_params fp = {.mu = mu, .alpha = alpha, .beta = beta};
    mbd_formulation_method(method, &fp);
    mbd_ode_params ode;
    mbd_ode_preset("tight", &ode);
    const double qd0[3] = {0, 0, 0};
    double rate = NAN;
    int st = ex03_violation_rate(&s, &fp, &ode, q0, qd0, t_end, lo, hi, &rate);
    CHECK_MSG(st == GSL_SUCCESS, "%s, alpha %g, beta %g: status %d", method, alpha, beta, st);
    return rate;
}

/* The printed sign: |C| grows at the root alpha + sqrt(alpha^2 + beta^2) */
static void printed_sign_grows(void)
{
    const double q0[3] = {1, 0, 0};
    const double r1 = rate_of("penalty-baumgarte-printed", 1e6, 20, 20, q0, 2.0, 1e-5, 1e-1);
    CHECK_REL(r1, 20 + sqrt(800.0), 0.01);
    const double r2 = rate_of("penalty-baumgarte-printed", 1e6, 20, sqrt(20.0), q0, 2.0, 1e-5, 1e-1);
    CHECK_REL(r2, 20 + sqrt(420.0), 0.01);
}

/* The stable sign with the text's beta^2 = 20: a start off the circle decays
 * at the slow root -20 + sqrt(380) = -0.506 /s. */
static void stable_sign_decays(void)
{
    const double q0[3] = {1.02, 0, 0};
    const double r = rate_of("penalty-baumgarte", 1e8, 20, sqrt(20.0), q0, 6.0, 1e-3, 2e-2);
    CHECK_REL(r, -20 + sqrt(380.0), 0.01);
    /* the projection with the same weights: the same equation for C */
    const double rp = rate_of("projection-baumgarte", 1e8, 20, sqrt(20.0), q0, 6.0, 1e-3, 2e-2);
    CHECK_REL(rp, -20 + sqrt(380.0), 0.01);
}

static void errors(void)
{
    mbd_system s = fx_pendulum();
    mbd_formulation_params fp = {.mu = 1e5, .alpha = 20, .beta = 20};
    mbd_formulation_method("penalty-baumgarte", &fp);
    mbd_ode_params ode;
    mbd_ode_preset("ode23", &ode);
    const double q0[3] = {1, 0, 0}, qd0[3] = {0, 0, 0};
    double rate;
    CHECK_STATUS(ex03_violation_rate(&s, &fp, &ode, q0, qd0, 0.0, 1e-5, 1e-1, &rate), GSL_EINVAL);
    CHECK_STATUS(ex03_violation_rate(&s, &fp, &ode, q0, qd0, 1.0, 1e-1, 1e-5, &rate), GSL_EINVAL);
    /* the stable sign from the circle never reaches 0.5: no outputs in the band */
    CHECK_STATUS(ex03_violation_rate(&s, &fp, &ode, q0, qd0, 1.0, 0.5, 1.0, &rate), GSL_EINVAL);
}

static CU_TestInfo tests[] = {
    {"roots", roots},
    {"printed_sign_grows", printed_sign_grows},
    {"stable_sign_decays", stable_sign_decays},
    {"errors", errors},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"ex03.3", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
