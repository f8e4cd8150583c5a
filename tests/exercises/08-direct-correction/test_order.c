/* Grades exercise 08.3: the integrator's order from the uncorrected drift,
 * and the step a target drift needs. */
#include <math.h>
#include <stdio.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_fit.h>
#include <gsl/gsl_math.h>

#include "check.h"
#include "ex08.h"
#include "fixture.h"

/* ------------------------------------------------------------------------ */
/* A small model integrated here: the pendulum in Cartesian coordinates      */

/* A point of unit mass on a massless rod of length 1 about the origin,
 * gravity g along -y, in (x, y, vx, vy) with the rod's force from the
 * acceleration-level constraint (index 1: nothing holds |q| = 1 but the
 * integrator's accuracy):
 *     q'' = -g e_y - lambda q,   lambda = (|v|^2 - g y) / |q|^2. */
static void pendulum_rhs(const double y[4], double f[4])
{
    const double g = 9.81;
    const double lam = (y[2] * y[2] + y[3] * y[3] - g * y[1]) / (y[0] * y[0] + y[1] * y[1]);
    f[0] = y[2];
    f[1] = y[3];
    f[2] = -lam * y[0];
    f[3] = -g - lam * y[1];
}

/* From the horizontal at rest over [0, 2 s] in N fixed steps of the
 * classical RK4 (stages = 4) or Heun's method (stages = 2): the largest
 * | |q|^2 - 1 | at the steps. */
static double drift(int stages, int N)
{
    const double T = 2.0, h = T / N;
    double y[4] = {1.0, 0.0, 0.0, 0.0}, vmax = 0.0;
    for (int s = 0; s < N; s++) {
        double k1[4], k2[4], k3[4], k4[4], t[4];
        pendulum_rhs(y, k1);
        if (stages == 4) {
            for (int i = 0; i < 4; i++)
                t[i] = y[i] + 0.5 * h * k1[i];
            pendulum_rhs(t, k2);
            for (int i = 0; i < 4; i++)
                t[i] = y[i] + 0.5 * h * k2[i];
            pendulum_rhs(t, k3);
            for (int i = 0; i < 4; i++)
                t[i] = y[i] + h * k3[i];
            pendulum_rhs(t, k4);
            for (int i = 0; i < 4; i++)
                y[i] += h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
        } else {
            for (int i = 0; i < 4; i++)
                t[i] = y[i] + h * k1[i];
            pendulum_rhs(t, k2);
            for (int i = 0; i < 4; i++)
                y[i] += 0.5 * h * (k1[i] + k2[i]);
        }
        vmax = fmax(vmax, fabs(y[0] * y[0] + y[1] * y[1] - 1.0));
    }
    return vmax;
}

/* ------------------------------------------------------------------------ */

/* the fit, reported on failure; 0 when it failed */
static int fit_of(const char *what, const double h[], const double v[], size_t count,
                  double v_floor, ex08_fit *f)
{
    *f = (ex08_fit){NAN, NAN, NAN, 9999};
    const int st = ex08_order_fit(h, v, count, v_floor, f);
    CHECK_MSG(st == GSL_SUCCESS, "%s: status %d (%s)", what, st, mbd_strerror(st));
    return st == GSL_SUCCESS;
}

/* GSL's own least squares of ln v on ln h over the points above the floor */
static void gsl_reference(const double h[], const double v[], size_t count, double v_floor,
                          double *p, double *C, double *se, size_t *used)
{
    double x[32], y[32];
    size_t k = 0;
    for (size_t i = 0; i < count; i++)
        if (v[i] > v_floor) {
            x[k] = log(h[i]);
            y[k] = log(v[i]);
            k++;
        }
    double c0, c1, cov00, cov01, cov11, sumsq;
    gsl_fit_linear(x, 1, y, 1, k, &c0, &c1, &cov00, &cov01, &cov11, &sumsq);
    *p = c1;
    *C = exp(c0);
    *se = sqrt(cov11);
    *used = k;
}

static void check_against_gsl(const char *what, const double h[], const double v[], size_t count,
                              double v_floor)
{
    double p, C, se;
    size_t used;
    gsl_reference(h, v, count, v_floor, &p, &C, &se, &used);
    ex08_fit f;
    if (!fit_of(what, h, v, count, v_floor, &f))
        return;
    CHECK_MSG(fabs(f.order - p) <= 1e-10 * fabs(p) && fabs(f.constant - C) <= 1e-9 * C
                  && fabs(f.order_se - se) <= 1e-9 * se + 1e-14 && f.used == used,
              "%s: (p, C, se, used) = (%.12g, %.12g, %.6g, %zu), expected (%.12g, %.12g, %.6g, "
              "%zu) (least squares of ln v on ln h)", what, f.order, f.constant, f.order_se,
              f.used, p, C, se, used);
}

/* ------------------------------------------------------------------------ */
/* Tests                                                                     */

/* v = C h^p exactly: p and C come back, the standard error is 0 */
static void exact_power_laws(void)
{
    const double pc[4][2] = {{4.0, 3.7}, {2.0, 0.05}, {1.0, 12.0}, {5.0, 1e3}};
    for (int k = 0; k < 4; k++) {
        double h[6], v[6];
        for (int i = 0; i < 6; i++) {
            h[i] = 0.1 * pow(0.5, i) * (1 + 0.1 * (i % 2));   /* not evenly spaced in ln h */
            v[i] = pc[k][1] * pow(h[i], pc[k][0]);
        }
        char what[64];
        snprintf(what, sizeof what, "v = %g h^%g", pc[k][1], pc[k][0]);
        ex08_fit f;
        if (fit_of(what, h, v, 6, 0.0, &f))
            CHECK_MSG(fabs(f.order - pc[k][0]) <= 1e-12 * pc[k][0]
                          && fabs(f.constant - pc[k][1]) <= 1e-10 * pc[k][1]
                          && f.order_se <= 1e-10 && f.used == 6,
                      "%s: (p, C, se, used) = (%.15g, %.15g, %.3g, %zu)", what, f.order,
                      f.constant, f.order_se, f.used);
    }
}

/* with noise: the least squares fit (against GSL's), near the order, with a
 * standard error that says how near; h increasing or decreasing alike */
static void noisy_data(void)
{
    fx_rng g = {80831ULL};
    const size_t counts[3] = {3, 5, 9};
    for (int k = 0; k < 3; k++) {
        const size_t n = counts[k];
        double h[9], v[9], hr[9], vr[9];
        for (size_t i = 0; i < n; i++) {
            h[i] = 0.02 * pow(0.6, (double)i);
            v[i] = 2.5 * pow(h[i], 4.0) * exp(0.15 * fx_uniform(&g));
        }
        for (size_t i = 0; i < n; i++) {
            hr[i] = h[n - 1 - i];
            vr[i] = v[n - 1 - i];
        }
        char what[64];
        snprintf(what, sizeof what, "%zu noisy points of 2.5 h^4, h decreasing", n);
        check_against_gsl(what, h, v, n, 0.0);
        snprintf(what, sizeof what, "%zu noisy points of 2.5 h^4, h increasing", n);
        check_against_gsl(what, hr, vr, n, 0.0);
        ex08_fit f;
        if (fit_of(what, hr, vr, n, 0.0, &f))
            CHECK_MSG(f.order_se > 1e-3 && fabs(f.order - 4.0) <= 0.5,
                      "%s: p = %.6g +- %.3g, from data of order 4 with 15%% noise", what,
                      f.order, f.order_se);
    }
}

/* round-off below v_floor is left out: a drift that falls as h^4 down to a
 * plateau near 1e-15 */
static void the_floor(void)
{
    double h[8], v[8];
    for (int i = 0; i < 8; i++) {
        h[i] = 0.05 * pow(0.25, i);
        v[i] = fmax(0.4 * pow(h[i], 4.0), 1e-15 * (1 + 0.3 * (i % 3)));
    }
    /* 0.4 h^4 = 2.5e-6, 9.8e-9, 3.8e-11, 1.5e-13, then below 1e-15 */
    ex08_fit f;
    if (fit_of("a plateau, v_floor = 1e-14", h, v, 8, 1e-14, &f))
        CHECK_MSG(fabs(f.order - 4.0) <= 1e-12 && fabs(f.constant - 0.4) <= 1e-10 * 0.4
                      && f.used == 4,
                  "a plateau, v_floor = 1e-14: (p, C, used) = (%.15g, %.15g, %zu), expected (4, "
                  "0.4, 4)", f.order, f.constant, f.used);
    check_against_gsl("a plateau, v_floor = 0 (all kept)", h, v, 8, 0.0);
    check_against_gsl("a plateau, v_floor = 1e-14", h, v, 8, 1e-14);
    /* a point exactly at the floor is left out */
    if (fit_of("v_floor = v[3] exactly", h, v, 8, v[3], &f))
        CHECK_MSG(f.used == 3 && fabs(f.order - 4.0) <= 1e-12,
                  "v_floor = v[3] exactly: %zu points used (p = %.12g), expected 3 (v <= v_floor "
                  "is left out)", f.used, f.order);
}

/* real drift: RK4 and Heun integrate the pendulum here without correction;
 * their orders come out, and the predicted step for a drift of 1e-9 gives
 * about that */
static void integrated_drift(void)
{
    const int steps[5] = {50, 100, 200, 400, 800};
    const int stages[2] = {4, 2};
    const double order[2] = {4.0, 2.0};
    for (int k = 0; k < 2; k++) {
        double h[5], v[5];
        for (int i = 0; i < 5; i++) {
            h[i] = 2.0 / steps[i];
            v[i] = drift(stages[k], steps[i]);
        }
        const char *name = k == 0 ? "RK4" : "Heun";
        check_against_gsl(name, h, v, 5, 0.0);
        ex08_fit f;
        if (!fit_of(name, h, v, 5, 0.0, &f))
            continue;
        CHECK_MSG(fabs(f.order - order[k]) <= 0.15, "%s: p = %.6g, expected about %g", name,
                  f.order, order[k]);
        const double target = k == 0 ? 1e-9 : 1e-6;
        double hs = NAN;
        const int st = ex08_step_for(&f, target, &hs);
        CHECK_MSG(st == GSL_SUCCESS, "%s: ex08_step_for status %d (%s)", name, st,
                  mbd_strerror(st));
        if (st != GSL_SUCCESS)
            continue;
        const double he = exp((log(target) - log(f.constant)) / f.order);
        CHECK_MSG(fabs(hs - he) <= 1e-12 * he, "%s: the step for %g is %.12g, expected (target / "
                  "C)^(1/p) = %.12g", name, target, hs, he);
        const int N = (int)ceil(2.0 / hs);
        const double got = drift(stages[k], N);
        CHECK_MSG(got <= 2 * target && got >= target / 4,
                  "%s: run at the predicted step (N = %d), the drift is %.3g, asked %.3g", name,
                  N, got, target);
    }
}

/* the step: (target / C)^(1/p), also where target / C underflows */
static void step_for(void)
{
    const double cases[5][3] = {/* p, C, target */
                                {4.0, 3.7, 1e-10},   {2.0, 0.05, 1e-7},  {1.0, 12.0, 0.3},
                                {8.0, 1e200, 1e-200}, {0.5, 1e-3, 2.0}};
    for (int k = 0; k < 5; k++) {
        const ex08_fit f = {cases[k][0], cases[k][1], 0.1, 5};
        const double he = exp((log(cases[k][2]) - log(cases[k][1])) / cases[k][0]);
        double h = NAN;
        const int st = ex08_step_for(&f, cases[k][2], &h);
        CHECK_MSG(st == GSL_SUCCESS && fabs(h - he) <= 1e-13 * he,
                  "p = %g, C = %g, target %g: status %d, h = %.15g, expected %.15g", cases[k][0],
                  cases[k][1], cases[k][2], st, h, he);
    }
    /* round trip: C h^p = target */
    const ex08_fit f = {3.3, 0.72, 0.01, 4};
    double h = NAN;
    if (ex08_step_for(&f, 4e-8, &h) == GSL_SUCCESS)
        CHECK_REL(f.constant * pow(h, f.order), 4e-8, 1e-13);
    else
        CHECK_MSG(0, "p = 3.3, C = 0.72, target 4e-8: refused");
}

/* ------------------------------------------------------------------------ */
/* Refusals                                                                  */

static void fit_refused(const char *what, const double h[], const double v[], size_t count,
                        double v_floor)
{
    ex08_fit f = {FX_SENTINEL, FX_SENTINEL, FX_SENTINEL, 7777};
    const int st = ex08_order_fit(h, v, count, v_floor, &f);
    CHECK_MSG(st == MBD_EINPUT, "%s: status %d (%s), expected MBD_EINPUT", what, st,
              mbd_strerror(st));
    CHECK_MSG(f.order == FX_SENTINEL && f.constant == FX_SENTINEL && f.order_se == FX_SENTINEL
                  && f.used == 7777,
              "%s: the fit was written on an error", what);
}

static void step_refused(const char *what, double p, double C, double target)
{
    const ex08_fit f = {p, C, 0.1, 5};
    double h = FX_SENTINEL;
    const int st = ex08_step_for(&f, target, &h);
    CHECK_MSG(st == MBD_EINPUT, "%s: status %d (%s), expected MBD_EINPUT", what, st,
              mbd_strerror(st));
    CHECK_MSG(h == FX_SENTINEL, "%s: h was written on an error", what);
}

static void refusals(void)
{
    const double h[5] = {0.1, 0.05, 0.025, 0.0125, 0.00625};
    const double v[5] = {1e-4, 6.5e-6, 3.9e-7, 2.5e-8, 1.6e-9};
    fit_refused("2 points", h, v, 2, 0.0);
    fit_refused("0 points", h, v, 0, 0.0);
    const double hz[5] = {0.1, 0.05, 0.0, -0.0125, -0.025};
    fit_refused("h = 0 and h < 0", hz, v, 5, 0.0);
    const double hn[5] = {0.1, 0.05, NAN, 0.0125, 0.00625};
    fit_refused("h = NaN", hn, v, 5, 0.0);
    const double hi[5] = {INFINITY, 0.05, 0.025, 0.0125, 0.00625};
    fit_refused("h = inf", hi, v, 5, 0.0);
    const double v0[5] = {1e-4, 6.5e-6, 0.0, 2.5e-8, 1.6e-9};
    fit_refused("v = 0", h, v0, 5, 0.0);
    const double vneg[5] = {1e-4, 6.5e-6, 3.9e-7, 2.5e-8, -1.6e-9};
    fit_refused("v < 0", h, vneg, 5, 0.0);
    const double vinf[5] = {INFINITY, 6.5e-6, 3.9e-7, 2.5e-8, 1.6e-9};
    fit_refused("v = inf", h, vinf, 5, 0.0);
    const double vnan[5] = {1e-4, NAN, 3.9e-7, 2.5e-8, 1.6e-9};
    fit_refused("v = NaN", h, vnan, 5, 0.0);
    const double hm[5] = {0.1, 0.05, 0.07, 0.0125, 0.00625};
    fit_refused("h not monotone (0.1, 0.05, 0.07, ...)", hm, v, 5, 0.0);
    const double hm2[5] = {0.1, 0.05, 0.025, 0.0125, 0.02};
    fit_refused("h not monotone at the end (..., 0.0125, 0.02)", hm2, v, 5, 0.0);
    const double he[5] = {0.1, 0.05, 0.05, 0.0125, 0.00625};
    fit_refused("two equal h", he, v, 5, 0.0);
    fit_refused("v_floor < 0", h, v, 5, -1e-15);
    fit_refused("v_floor = NaN", h, v, 5, NAN);
    fit_refused("v_floor = inf", h, v, 5, INFINITY);
    fit_refused("v_floor leaves 2 points", h, v, 5, 3.9e-7);
    /* the step */
    step_refused("p = 0", 0.0, 1.0, 1e-6);
    step_refused("p < 0", -2.0, 1.0, 1e-6);
    step_refused("p = NaN", NAN, 1.0, 1e-6);
    step_refused("p = inf", INFINITY, 1.0, 1e-6);
    step_refused("C = 0", 4.0, 0.0, 1e-6);
    step_refused("C < 0", 4.0, -3.0, 1e-6);
    step_refused("C = inf", 4.0, INFINITY, 1e-6);
    step_refused("target = 0", 4.0, 1.0, 0.0);
    step_refused("target < 0", 4.0, 1.0, -1e-6);
    step_refused("target = NaN", 4.0, 1.0, NAN);
    step_refused("h would overflow (p = 1e-3, target / C = 1e10)", 1e-3, 1.0, 1e10);
}

static CU_TestInfo tests[] = {
    {"exact power laws: p, C, se = 0", exact_power_laws},
    {"noisy data: least squares, either direction of h", noisy_data},
    {"round-off below v_floor left out", the_floor},
    {"RK4 and Heun integrated here: orders 4 and 2, the step for a drift", integrated_drift},
    {"the step for a target, also where target / C underflows", step_for},
    {"too few points, bad data, non-monotone h, bad fits are refused", refusals},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"ex08.3", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
