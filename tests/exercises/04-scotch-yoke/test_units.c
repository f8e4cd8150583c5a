/* Grades exercise 04.2: Table 3 read as masses or as weights, and what its
 * loads do; the accelerations are checked against the library's projection
 * on the constrained model (fixture.h). */
#include <math.h>

#include <gsl/gsl_errno.h>

#include "check.h"
#include "ex04.h"
#include "fixture.h"

static void check_params(const ex04_params *p, double m1, double m2, double b)
{
    CHECK_REL(p->m1, m1, 1e-14);
    CHECK_REL(p->m2, m2, 1e-14);
    CHECK_CLOSE(p->b, b, 0.0);
    CHECK_CLOSE(p->L, 25.0, 0.0);
    CHECK_CLOSE(p->g, 386.4, 0.0);
    CHECK_CLOSE(p->F0, 1.0, 0.0);
    CHECK_CLOSE(p->omega, M_PI / 4.0, 1e-15);
}

/* The text's reading: M11 = 104.3333 (its "104", whence mu = 10^7). */
static void text_reading(void)
{
    ex04_params p;
    REQUIRE_STATUS(ex04_from_table(0.5, 5.0, 2.0, 0, &p), GSL_SUCCESS);
    check_params(&p, 0.5, 5.0, 2.0);
    ex04_loads l;
    REQUIRE_STATUS(ex04_loads_at(&p, 1.0, &l), GSL_SUCCESS);
    CHECK_CLOSE(l.M11, 104.33333333333333, 1e-10);
    CHECK_CLOSE(l.M22, 5.0, 0.0);
}

/* The listing's reading: weights divided by g. */
static void listing_reading(void)
{
    ex04_params p;
    REQUIRE_STATUS(ex04_from_table(0.5, 5.0, 0.05, 1, &p), GSL_SUCCESS);
    check_params(&p, 0.5 / 386.4, 5.0 / 386.4, 0.05);
    ex04_loads l;
    REQUIRE_STATUS(ex04_loads_at(&p, 1.0, &l), GSL_SUCCESS);
    CHECK_CLOSE(l.M11, 0.269583, 5e-7);   /* the reading guide's 0.269583 */
    CHECK_CLOSE(l.M22, 0.01294, 1e-5);
}

/* At rest, theta1'' of the constrained equations is accel_gravity when the
 * force is zero (t = 0) and accel_gravity + accel_force at the force's peak
 * (omega t = pi/2); inertia is what the pin sees; M11 and M22 are M's entries.
 * For both readings and a yoke of other size, gravity and load (FX_OTHER). */
static void loads_match_the_constrained_equations(void)
{
    const double thetas[] = {1.0, 0.0, -0.6, 2.0, -M_PI / 2, 4.0};
    for (int r = 0; r < FX_READINGS; r++) {
        const ex04_params p = fx_params(r);
        for (size_t i = 0; i < sizeof thetas / sizeof thetas[0]; i++) {
            const double th = thetas[i];
            ex04_loads l;
            REQUIRE_STATUS(ex04_loads_at(&p, th, &l), GSL_SUCCESS);
            const double q[2] = {th, p.L * cos(th)}, qd[2] = {0.0, 0.0};
            double a0[2], a2[2];
            REQUIRE_STATUS(fx_accel(&p, "projection", 1.0, 0.0, q, qd, a0), GSL_SUCCESS);
            REQUIRE_STATUS(fx_accel(&p, "projection", 1.0, M_PI / 2 / p.omega, q, qd, a2),
                           GSL_SUCCESS);
            CHECK_REL(l.M11, p.m1 * (p.L * p.L / 3 + p.b * p.b / 12), 1e-12);
            CHECK_REL(l.M22, p.m2, 1e-15);
            CHECK_MSG(fabs(l.accel_gravity - a0[0]) <= 1e-10 * fmax(1.0, fabs(a0[0])),
                      "reading %d, theta1 = %g: accel_gravity = %.10g, the equations give %.10g",
                      r, th, l.accel_gravity, a0[0]);
            CHECK_MSG(fabs(l.accel_force - (a2[0] - a0[0])) <= 1e-10 * fmax(1.0, fabs(a2[0])),
                      "reading %d, theta1 = %g: accel_force = %.10g, the equations give %.10g",
                      r, th, l.accel_force, a2[0] - a0[0]);
            const double I = p.m1 * (p.L * p.L / 3 + p.b * p.b / 12) + p.m2 * pow(p.L * sin(th), 2);
            CHECK_REL(l.inertia, I, 1e-12);
        }
    }
}

/* Same numbers, same width: reading them as weights leaves gravity's effect
 * as it was and multiplies the force's by g. */
static void weights_scale_the_force_not_gravity(void)
{
    ex04_params a, b;
    REQUIRE_STATUS(ex04_from_table(0.5, 5.0, 2.0, 0, &a), GSL_SUCCESS);
    REQUIRE_STATUS(ex04_from_table(0.5, 5.0, 2.0, 1, &b), GSL_SUCCESS);
    const double thetas[] = {1.0, 0.3, -1.2, 2.5};
    for (size_t i = 0; i < 4; i++) {
        ex04_loads la, lb;
        REQUIRE_STATUS(ex04_loads_at(&a, thetas[i], &la), GSL_SUCCESS);
        REQUIRE_STATUS(ex04_loads_at(&b, thetas[i], &lb), GSL_SUCCESS);
        CHECK_REL(lb.accel_gravity, la.accel_gravity, 1e-12);
        CHECK_REL(lb.accel_force / la.accel_force, 386.4, 1e-12);
        CHECK_REL(la.inertia / lb.inertia, 386.4, 1e-12);
    }
}

/* Each non-positive mass and a negative width are refused (b = 0 is a thin
 * rod); loads_at refuses a mechanism whose inertia is not positive (a
 * massless rod at theta1 = 0), leaving out as it was. */
static void bad_arguments(void)
{
    ex04_params p;
    CHECK_STATUS(ex04_from_table(0.0, 5.0, 2.0, 0, &p), GSL_EINVAL);
    CHECK_STATUS(ex04_from_table(-0.5, 5.0, 2.0, 1, &p), GSL_EINVAL);
    CHECK_STATUS(ex04_from_table(0.5, 0.0, 2.0, 0, &p), GSL_EINVAL);
    CHECK_STATUS(ex04_from_table(0.5, -5.0, 2.0, 1, &p), GSL_EINVAL);
    CHECK_STATUS(ex04_from_table(0.5, 5.0, -2.0, 1, &p), GSL_EINVAL);
    CHECK_STATUS(ex04_from_table(0.5, 5.0, 0.0, 1, &p), GSL_SUCCESS);
    ex04_params q = fx_params(FX_OTHER);
    q.m1 = 0.0;
    ex04_loads l = {7.0, 7.0, 7.0, 7.0, 7.0};
    CHECK_STATUS(ex04_loads_at(&q, 0.0, &l), MBD_ESINGULAR);
    CHECK_MSG(l.M11 == 7.0 && l.M22 == 7.0 && l.inertia == 7.0 && l.accel_gravity == 7.0
                  && l.accel_force == 7.0, "a failed call wrote out");
    CHECK_STATUS(ex04_loads_at(&q, 1.0, &l), GSL_SUCCESS);
    CHECK_REL(l.inertia, q.m2 * pow(q.L * sin(1.0), 2), 1e-12);
}

static CU_TestInfo tests[] = {
    {"text_reading", text_reading},
    {"listing_reading", listing_reading},
    {"loads_match_the_constrained_equations", loads_match_the_constrained_equations},
    {"weights_scale_the_force_not_gravity", weights_scale_the_force_not_gravity},
    {"bad_arguments", bad_arguments},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"ex04.2", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
