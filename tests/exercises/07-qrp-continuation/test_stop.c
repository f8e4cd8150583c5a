/* Grades exercise 07.3: the stop at the horizontal. */
#include <math.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_math.h>
#include <gsl/gsl_odeiv2.h>

#include "check.h"
#include "ex07.h"
#include "fixture.h"

/* ------------------------------------------------------------------------ */
/* The reference: the equation of motion integrated here                     */

typedef struct {
    double J, K, g;
} reduced;

/* J theta'' = -K g cos(theta), y = (theta, theta') */
static int reduced_rhs(double t, const double y[], double f[], void *params)
{
    (void)t;
    const reduced *p = params;
    f[0] = y[1];
    f[1] = -p->K * p->g * cos(y[0]) / p->J;
    return GSL_SUCCESS;
}

/* the speed from the energy, (1/2) J w^2 = K g (sin theta1 - sin theta0),
 * the difference of sines written as a product */
static double energy_speed(const reduced *p, double th0, double th1)
{
    const double ds = 2 * cos(0.5 * (th0 + th1)) * sin(0.5 * (th1 - th0));
    const double w = sqrt(2 * p->K * p->g * ds / p->J);
    return th1 > th0 ? w : -w;
}

/* From (th0, w0), the first instant at which theta' changes sign (the
 * turning point) and the angle there, by rk8pd to 1e-13 and bisection of the
 * bracketing step. 0 on success. */
static int turning_point(const reduced *p, double th0, double w0, double *t_turn,
                         double *th_turn)
{
    gsl_odeiv2_system sys = {reduced_rhs, NULL, 2, (void *)p};
    gsl_odeiv2_step *s = gsl_odeiv2_step_alloc(gsl_odeiv2_step_rk8pd, 2);
    gsl_odeiv2_control *c = gsl_odeiv2_control_y_new(1e-14, 1e-13);
    gsl_odeiv2_evolve *e = gsl_odeiv2_evolve_alloc(2);
    const double dir = w0 > 0 ? 1.0 : -1.0;
    double t = 0.0, h = 1e-6, y[2] = {th0, w0};
    double ta = 0.0, ya[2] = {th0, w0};
    int found = 0, steps = 0;
    while (!found && steps++ < 200000) {
        ta = t;
        ya[0] = y[0];
        ya[1] = y[1];
        if (gsl_odeiv2_evolve_apply(e, c, s, &sys, &t, 1e3, &h, y) != GSL_SUCCESS)
            break;
        if (!(y[1] * dir > 0))
            found = 1;
    }
    if (found) {
        /* bisection on [ta, t]: integrate from (ta, ya) to the midpoint */
        double lo = ta, hi = t;
        gsl_odeiv2_driver *d = gsl_odeiv2_driver_alloc_y_new(&sys, gsl_odeiv2_step_rk8pd, 1e-8,
                                                             1e-14, 1e-13);
        for (int it = 0; it < 80 && hi - lo > 1e-15 * (1 + hi); it++) {
            const double mid = 0.5 * (lo + hi);
            double tt = ta, yy[2] = {ya[0], ya[1]};
            gsl_odeiv2_driver_reset(d);
            if (mid > ta && gsl_odeiv2_driver_apply(d, &tt, mid, yy) != GSL_SUCCESS)
                break;
            if (yy[1] * dir > 0)
                lo = mid;
            else
                hi = mid;
            *th_turn = yy[0];
        }
        *t_turn = 0.5 * (lo + hi);
        gsl_odeiv2_driver_free(d);
    }
    gsl_odeiv2_evolve_free(e);
    gsl_odeiv2_control_free(c);
    gsl_odeiv2_step_free(s);
    return found ? 0 : -1;
}

/* ------------------------------------------------------------------------ */

typedef struct {
    const char *what;
    reduced p;
    double th0, th1;
} scase;

static const scase CASES[] = {
    {"the document's 4-bar, 3pi/2 -> pi", {5.0 / 3, 2.0, 9.81}, 3 * M_PI / 2, M_PI},
    {"J = 2.3, K = 1.7, -2 -> 0.4 (upwards, to the right)", {2.3, 1.7, 9.81}, -2.0, 0.4},
    {"J = 0.8, K = 0.35, g = 3.7, 2.5 -> 2.0", {0.8, 0.35, 3.7}, 2.5, 2.0},
    {"the 2 4-bar (J = 3, K = 3.5), 3pi/2 + 2pi -> 3pi", {3.0, 3.5, 9.81}, 7 * M_PI / 2, 3 * M_PI},
    {"J = 5/3, K = 2, -pi/2 -> 1.45 (near the top)", {5.0 / 3, 2.0, 9.81}, -M_PI / 2, 1.45},
    {"J = 5/3, K = 2, -pi/2 -> 1.565 (cos theta1 = 0.006)", {5.0 / 3, 2.0, 9.81}, -M_PI / 2, 1.565},
    {"J = 1.2, K = 0.9, 0.3 -> 0.3 + 1e-6 (a short way)", {1.2, 0.9, 9.81}, 0.3, 0.3 + 1e-6},
    {"J = 4, K = 1, g = 20, -4 -> -4.5 (backwards)", {4.0, 1.0, 20.0}, -4.0, -4.5},
};
#define NCASES (sizeof CASES / sizeof CASES[0])

/* the speed: the energy, and, integrated, the stop at theta1 */
static void speed_general(void)
{
    for (size_t k = 0; k < NCASES; k++) {
        const scase *c = &CASES[k];
        double w = NAN;
        int st = ex07_stop_speed(c->p.J, c->p.K, c->p.g, c->th0, c->th1, &w);
        CHECK_MSG(st == GSL_SUCCESS, "%s: status %d (%s)", c->what, st, mbd_strerror(st));
        if (st != GSL_SUCCESS)
            continue;
        const double ref = energy_speed(&c->p, c->th0, c->th1);
        CHECK_MSG(fabs(w - ref) <= 1e-12 * fabs(ref),
                  "%s: omega0 = %.15g, expected %.15g from the energy", c->what, w, ref);
        double tt = NAN, th = NAN;
        if (isfinite(w) && w != 0 && turning_point(&c->p, c->th0, w, &tt, &th) == 0)
            CHECK_MSG(fabs(th - c->th1) <= 1e-7 * (1 + fabs(c->th1 - c->th0)),
                      "%s: started at %.15g rad/s the mechanism turns at %.12g rad, expected "
                      "%.12g", c->what, w, th, c->th1);
        else
            CHECK_MSG(0, "%s: started at %.15g rad/s the mechanism never turns", c->what, w);
    }
}

/* the document's numbers: -sqrt(12 g / 5) = -4.852216 rad/s, about 0.5404 s */
static void document_case(void)
{
    const double g = 9.81;
    double w = NAN, t = NAN;
    CHECK_STATUS(ex07_stop_speed(5.0 / 3, 2.0, g, 3 * M_PI / 2, M_PI, &w), GSL_SUCCESS);
    CHECK_STATUS(ex07_stop_time(5.0 / 3, 2.0, g, 3 * M_PI / 2, M_PI, &t), GSL_SUCCESS);
    CHECK_MSG(fabs(w + sqrt(12 * g / 5)) <= 1e-13 * sqrt(12 * g / 5) && fabs(w + 4.8522) <= 5e-5,
              "3pi/2 -> pi: omega0 = %.15g, expected -sqrt(12 g / 5) = %.15g (the document's "
              "-4.8522)", w, -sqrt(12 * g / 5));
    CHECK_MSG(fabs(t - 0.5404) <= 5e-5, "3pi/2 -> pi: t = %.10g s, expected about 0.5404 s", t);
    /* the same motion two turns later, and mirrored: theta -> pi - theta maps
     * the equation onto itself */
    double w2 = NAN, t2 = NAN, w3 = NAN, t3 = NAN;
    CHECK_STATUS(ex07_stop_speed(5.0 / 3, 2.0, g, 3 * M_PI / 2 + 4 * M_PI, 5 * M_PI, &w2),
                 GSL_SUCCESS);
    CHECK_STATUS(ex07_stop_time(5.0 / 3, 2.0, g, 3 * M_PI / 2 + 4 * M_PI, 5 * M_PI, &t2),
                 GSL_SUCCESS);
    CHECK_STATUS(ex07_stop_speed(5.0 / 3, 2.0, g, -M_PI / 2, 0.0, &w3), GSL_SUCCESS);
    CHECK_STATUS(ex07_stop_time(5.0 / 3, 2.0, g, -M_PI / 2, 0.0, &t3), GSL_SUCCESS);
    CHECK_MSG(fabs(w2 - w) <= 1e-12 * fabs(w) && fabs(t2 - t) <= 1e-10 * t,
              "two turns later: (%.15g, %.15g), expected (%.15g, %.15g)", w2, t2, w, t);
    CHECK_MSG(fabs(w3 + w) <= 1e-12 * fabs(w) && fabs(t3 - t) <= 1e-10 * t,
              "mirrored, -pi/2 -> 0: (%.15g, %.15g), expected (%.15g, %.15g)", w3, t3, -w, t);
}

/* the time against the integrated motion, in every case */
static void time_against_ode(void)
{
    for (size_t k = 0; k < NCASES; k++) {
        const scase *c = &CASES[k];
        double t = NAN;
        int st = ex07_stop_time(c->p.J, c->p.K, c->p.g, c->th0, c->th1, &t);
        CHECK_MSG(st == GSL_SUCCESS, "%s: status %d (%s)", c->what, st, mbd_strerror(st));
        if (st != GSL_SUCCESS)
            continue;
        double tt = NAN, th = NAN;
        const double w0 = energy_speed(&c->p, c->th0, c->th1);
        if (turning_point(&c->p, c->th0, w0, &tt, &th) != 0) {
            CHECK_MSG(0, "%s: the test's own integration found no turning point", c->what);
            continue;
        }
        CHECK_MSG(fabs(t - tt) <= 1e-9 * tt,
                  "%s: t = %.15g s, expected %.15g s (the turning point of the integrated "
                  "motion)", c->what, t, tt);
    }
}

/* the time scales as sqrt(J / (K g)): checked on one motion with the
 * inertia, the first moment and gravity changed one at a time */
static void time_scaling(void)
{
    const double th0 = 4.0, th1 = 3.3;
    double t0 = NAN;
    CHECK_STATUS(ex07_stop_time(1.0, 1.0, 1.0, th0, th1, &t0), GSL_SUCCESS);
    const double f[3][3] = {{2.5, 1.0, 1.0}, {1.0, 0.3, 1.0}, {1.0, 1.0, 9.81}};
    for (int k = 0; k < 3; k++) {
        double t = NAN, w = NAN, w0 = NAN;
        CHECK_STATUS(ex07_stop_time(f[k][0], f[k][1], f[k][2], th0, th1, &t), GSL_SUCCESS);
        CHECK_STATUS(ex07_stop_speed(f[k][0], f[k][1], f[k][2], th0, th1, &w), GSL_SUCCESS);
        CHECK_STATUS(ex07_stop_speed(1.0, 1.0, 1.0, th0, th1, &w0), GSL_SUCCESS);
        const double sc = sqrt(f[k][0] / (f[k][1] * f[k][2]));
        CHECK_MSG(fabs(t - t0 * sc) <= 1e-10 * t0 * sc,
                  "(J, K, g) = (%g, %g, %g): t = %.15g, expected %.15g (t scales as sqrt(J / K g))",
                  f[k][0], f[k][1], f[k][2], t, t0 * sc);
        CHECK_MSG(fabs(w - w0 / sc) <= 1e-12 * fabs(w0 / sc),
                  "(J, K, g) = (%g, %g, %g): omega0 = %.15g, expected %.15g (omega0 scales as "
                  "sqrt(K g / J))", f[k][0], f[k][1], f[k][2], w, w0 / sc);
    }
}

/* ------------------------------------------------------------------------ */
/* Refusals                                                                  */

static void check_refused(const char *what, double J, double K, double g, double th0, double th1)
{
    double w = FX_SENTINEL, t = FX_SENTINEL;
    int s1 = ex07_stop_speed(J, K, g, th0, th1, &w), s2 = ex07_stop_time(J, K, g, th0, th1, &t);
    CHECK_MSG(s1 == MBD_EINPUT && s2 == MBD_EINPUT,
              "%s: statuses %d (%s), %d (%s), expected MBD_EINPUT", what, s1, mbd_strerror(s1), s2,
              mbd_strerror(s2));
    CHECK_MSG(w == FX_SENTINEL && t == FX_SENTINEL, "%s: an output was written on an error", what);
}

static void unreachable_targets(void)
{
    check_refused("the same angle", 5.0 / 3, 2.0, 9.81, 2.0, 2.0);
    check_refused("downhill, 2 -> pi (it cannot stop there)", 5.0 / 3, 2.0, 9.81, 2.0, M_PI);
    check_refused("downhill, 0 -> -0.5", 5.0 / 3, 2.0, 9.81, 0.0, -0.5);
    check_refused("the same height, pi/4 -> 3pi/4", 5.0 / 3, 2.0, 9.81, M_PI / 4, 3 * M_PI / 4);
    check_refused("over the top, 0 -> 2.5 (it stops at 0.64 first)", 5.0 / 3, 2.0, 9.81, 0.0, 2.5);
    check_refused("over the top, -2 -> 0.4 - 2pi (through -3pi/2)", 5.0 / 3, 2.0, 9.81, -2.0,
                  0.4 - 2 * M_PI);
    check_refused("a whole turn and more, 0.4 -> 0.5 + 2pi", 5.0 / 3, 2.0, 9.81, 0.4,
                  0.5 + 2 * M_PI);
    check_refused("backwards, a whole turn and more, 2.1 + 2pi -> 2 (through 5pi/2)", 5.0 / 3,
                  2.0, 9.81, 2.1 + 2 * M_PI, 2.0);
    check_refused("the top, 0 -> pi/2 (reached only in infinite time)", 5.0 / 3, 2.0, 9.81, 0.0,
                  M_PI / 2);
    check_refused("the top, pi -> pi/2", 5.0 / 3, 2.0, 9.81, M_PI, M_PI / 2);
    check_refused("the top, 2pi + 0.2 -> 5pi/2", 5.0 / 3, 2.0, 9.81, 2 * M_PI + 0.2,
                  5 * M_PI / 2);
}

static void bad_parameters(void)
{
    const double bad[] = {0.0, -1.0, NAN, INFINITY};
    for (size_t k = 0; k < 4; k++) {
        char what[64];
        snprintf(what, sizeof what, "J = %g", bad[k]);
        check_refused(what, bad[k], 2.0, 9.81, 3 * M_PI / 2, M_PI);
        snprintf(what, sizeof what, "K = %g", bad[k]);
        check_refused(what, 5.0 / 3, bad[k], 9.81, 3 * M_PI / 2, M_PI);
        snprintf(what, sizeof what, "g = %g", bad[k]);
        check_refused(what, 5.0 / 3, 2.0, bad[k], 3 * M_PI / 2, M_PI);
    }
    check_refused("theta0 = NaN", 5.0 / 3, 2.0, 9.81, NAN, M_PI);
    check_refused("theta1 = NaN", 5.0 / 3, 2.0, 9.81, 3 * M_PI / 2, NAN);
    check_refused("theta0 = -inf", 5.0 / 3, 2.0, 9.81, -INFINITY, M_PI);
    check_refused("theta1 = inf", 5.0 / 3, 2.0, 9.81, 3 * M_PI / 2, INFINITY);
}

static CU_TestInfo tests[] = {
    {"the speed: the energy, and the stop at theta1 when integrated", speed_general},
    {"the document's case: -sqrt(12 g / 5), 0.5404 s", document_case},
    {"the time against the integrated motion", time_against_ode},
    {"J, K and g each varied: the scaling", time_scaling},
    {"targets that cannot be stopped at are refused", unreachable_targets},
    {"bad parameters are refused", bad_parameters},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"ex07.3", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
