/* Grades exercise 03.1: the exact solution of the pendulum. */
#include <math.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_math.h>

#include "check.h"
#include "ex03.h"
#include "fixture.h"

/* The document's pendulum: T = 2.367842 s (not the small-angle 2.006067 s) */
static void document_period(void)
{
    double T = NAN;
    REQUIRE_STATUS(ex03_period(9.81, 1.0, M_PI / 2, &T), GSL_SUCCESS);
    CHECK_CLOSE(T, 2.367842, 1e-6);
    /* small swings: 2 pi sqrt(L/g) (the correction is theta0^2 / 16) */
    REQUIRE_STATUS(ex03_period(9.81, 2.0, 0.01, &T), GSL_SUCCESS);
    CHECK_REL(T, 2 * M_PI * sqrt(2.0 / 9.81), 1e-5);
}

/* After one period the reference integration is back at theta0, at rest */
static void period_against_reference(void)
{
    const double cases[][3] = {{9.81, 1.0, M_PI / 2}, {3.0, 2.0, 2.5}, {9.81, 0.5, 0.4}};
    for (int i = 0; i < 3; i++) {
        double T = NAN, th, om;
        REQUIRE_STATUS(ex03_period(cases[i][0], cases[i][1], cases[i][2], &T), GSL_SUCCESS);
        fx_reference(cases[i][0], cases[i][1], cases[i][2], T, &th, &om);
        CHECK_MSG(fabs(th - cases[i][2]) < 1e-8 && fabs(om) < 1e-7,
                  "g = %g, L = %g, theta0 = %g: after T = %.9f the pendulum is at theta = %.9f, "
                  "theta' = %.3g (expected theta0, 0)", cases[i][0], cases[i][1], cases[i][2], T,
                  th, om);
        fx_reference(cases[i][0], cases[i][1], cases[i][2], T / 2, &th, &om);
        CHECK_MSG(fabs(th + cases[i][2]) < 1e-8, "after T/2: theta = %.9f, expected %.9f", th,
                  -cases[i][2]);
    }
}

/* theta(t) and theta'(t) against an rk8pd integration of theta'' = -(g/L) sin theta */
static void angle_against_reference(void)
{
    const double cases[][3] = {{9.81, 1.0, M_PI / 2}, {3.0, 2.0, 2.5}, {9.81, 0.5, 0.4},
                               {9.81, 1.0, 3.0}};
    const double ts[] = {0.0, 0.1, 0.5, 1.0, 2.2, 3.7, 5.0};
    for (int i = 0; i < 4; i++)
        for (size_t k = 0; k < sizeof ts / sizeof ts[0]; k++) {
            double th = NAN, om = NAN, thr, omr;
            REQUIRE_STATUS(ex03_exact(cases[i][0], cases[i][1], cases[i][2], ts[k], &th, &om),
                           GSL_SUCCESS);
            fx_reference(cases[i][0], cases[i][1], cases[i][2], ts[k], &thr, &omr);
            CHECK_MSG(fabs(th - thr) < 1e-8 && fabs(om - omr) < 1e-7,
                      "g = %g, L = %g, theta0 = %g, t = %g: (theta, theta') = (%.10f, %.10f), "
                      "reference (%.10f, %.10f)", cases[i][0], cases[i][1], cases[i][2], ts[k],
                      th, om, thr, omr);
        }
}

/* Energy: theta'^2 / 2 - (g/L) cos theta is constant */
static void energy_is_constant(void)
{
    const double g = 9.81, L = 1.0, th0 = M_PI / 2;
    for (double t = 0.0; t < 5.0; t += 0.173) {
        double th, om;
        REQUIRE_STATUS(ex03_exact(g, L, th0, t, &th, &om), GSL_SUCCESS);
        CHECK_CLOSE(0.5 * om * om - (g / L) * cos(th), -(g / L) * cos(th0), 1e-10);
    }
}

/* Any t: after many periods, and before the release (t < 0), when the
 * pendulum was swinging up to theta0: theta(-t) = theta(t), theta'(-t) = -theta'(t) */
static void any_time(void)
{
    const double cases[][3] = {{9.81, 1.0, M_PI / 2}, {3.0, 2.0, 2.5}};
    const double ts[] = {0.4, 1.3, 2.9, 17.3};
    for (int i = 0; i < 2; i++)
        for (size_t k = 0; k < sizeof ts / sizeof ts[0]; k++) {
            double thr, omr;
            fx_reference(cases[i][0], cases[i][1], cases[i][2], ts[k], &thr, &omr);
            for (int sg = -1; sg <= 1; sg += 2) {
                double th = NAN, om = NAN;
                REQUIRE_STATUS(ex03_exact(cases[i][0], cases[i][1], cases[i][2], sg * ts[k], &th,
                                          &om), GSL_SUCCESS);
                CHECK_MSG(fabs(th - thr) < 1e-7 && fabs(om - sg * omr) < 1e-6,
                          "g = %g, L = %g, theta0 = %g, t = %g: (theta, theta') = (%.10f, %.10f), "
                          "reference (%.10f, %.10f)", cases[i][0], cases[i][1], cases[i][2],
                          sg * ts[k], th, om, thr, sg * omr);
            }
        }
}

static void errors(void)
{
    double th, om, T;
    CHECK_STATUS(ex03_exact(9.81, 1.0, 0.0, 1.0, &th, &om), GSL_EDOM);
    CHECK_STATUS(ex03_exact(9.81, 1.0, M_PI, 1.0, &th, &om), GSL_EDOM);
    CHECK_STATUS(ex03_exact(9.81, 1.0, -0.5, 1.0, &th, &om), GSL_EDOM);
    CHECK_STATUS(ex03_exact(0.0, 1.0, 1.0, 1.0, &th, &om), GSL_EDOM);
    CHECK_STATUS(ex03_exact(9.81, -1.0, 1.0, 1.0, &th, &om), GSL_EDOM);
    CHECK_STATUS(ex03_exact(9.81, 1.0, 3.5, 1.0, &th, &om), GSL_EDOM);
    CHECK_STATUS(ex03_exact(-9.81, 1.0, 1.0, 1.0, &th, &om), GSL_EDOM);
    CHECK_STATUS(ex03_exact(9.81, 0.0, 1.0, 1.0, &th, &om), GSL_EDOM);
    CHECK_STATUS(ex03_period(9.81, 1.0, 4.0, &T), GSL_EDOM);
    CHECK_STATUS(ex03_period(9.81, 0.0, 1.0, &T), GSL_EDOM);
    /* every condition of the contract, for ex03_period too */
    CHECK_STATUS(ex03_period(0.0, 1.0, 1.0, &T), GSL_EDOM);
    CHECK_STATUS(ex03_period(-9.81, 1.0, 1.0, &T), GSL_EDOM);
    CHECK_STATUS(ex03_period(9.81, -1.0, 1.0, &T), GSL_EDOM);
    CHECK_STATUS(ex03_period(9.81, 1.0, 0.0, &T), GSL_EDOM);
    CHECK_STATUS(ex03_period(9.81, 1.0, M_PI, &T), GSL_EDOM);
    CHECK_STATUS(ex03_period(9.81, 1.0, -0.3, &T), GSL_EDOM);
}

static CU_TestInfo tests[] = {
    {"document_period", document_period},
    {"period_against_reference", period_against_reference},
    {"angle_against_reference", angle_against_reference},
    {"energy_is_constant", energy_is_constant},
    {"any_time", any_time},
    {"errors", errors},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"ex03.1", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
