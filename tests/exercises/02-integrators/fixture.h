/* Test problems with closed forms for chapter 02's exercises, written
 * independently of the code under test.
 *
 *   fx_linear     y' = lambda y (params: double *lambda)
 *   fx_nonlinear  y1' = y1 cos t,  y1 = exp(sin t);  y2' = y2 (1 - y2), y2(0) = 1/2,
 *                 y2 = 1 / (1 + exp(-t))   (non-autonomous and nonlinear)
 *   fx_quartic    y' = 4 t^3 + 3 t^2,  y = t^4 + t^3 (+ y(0))
 *   fx_transient  y' = -100 (y - cos t) - sin t, y(0) = 0,  y = cos t - exp(-100 t)
 *   fx_coupled    a coupled, non-autonomous system of three equations
 *   fx_failing, fx_fail_once   right-hand sides that fail
 *   fx_counting   counts the calls of another right-hand side
 *   fx_rk4        one RK4 step, for the tests' own step-by-step results
 */
#ifndef EX02_FIXTURE_H
#define EX02_FIXTURE_H

#include <math.h>

#include <gsl/gsl_errno.h>

#include "mbd/ode.h"

static inline int fx_linear(double t, const double y[], double f[], void *params)
{
    (void)t;
    f[0] = *(const double *)params * y[0];
    return GSL_SUCCESS;
}

static inline int fx_nonlinear(double t, const double y[], double f[], void *params)
{
    (void)params;
    f[0] = y[0] * cos(t);
    f[1] = y[1] * (1.0 - y[1]);
    return GSL_SUCCESS;
}

static inline void fx_nonlinear_exact(double t, double y[2])
{
    y[0] = exp(sin(t));
    y[1] = 1.0 / (1.0 + exp(-t));
}

static inline int fx_quartic(double t, const double y[], double f[], void *params)
{
    (void)y;
    (void)params;
    f[0] = 4.0 * t * t * t + 3.0 * t * t;
    return GSL_SUCCESS;
}

static inline int fx_transient(double t, const double y[], double f[], void *params)
{
    (void)params;
    f[0] = -100.0 * (y[0] - cos(t)) - sin(t);
    return GSL_SUCCESS;
}

static inline double fx_transient_exact(double t) { return cos(t) - exp(-100.0 * t); }

/* A right-hand side that fails on its n-th call (params: int counter). */
static inline int fx_failing(double t, const double y[], double f[], void *params)
{
    (void)t;
    int *calls = params;
    if (--*calls <= 0)
        return GSL_EDOM;
    f[0] = -y[0];
    return GSL_SUCCESS;
}

/* y' = -y + sin t for one equation, failing on its fail_at-th call only (and
 * then with the given status, and writing nothing): a caller that goes on
 * after a failure gets good values from the next call. */
typedef struct {
    long calls, fail_at;
    int status;
} fx_fail_once_params;

static inline int fx_fail_once(double t, const double y[], double f[], void *params)
{
    fx_fail_once_params *p = params;
    if (++p->calls == p->fail_at)
        return p->status;
    f[0] = -y[0] + sin(t);
    return GSL_SUCCESS;
}

/* Counts the calls of another right-hand side (params: fx_counted). */
typedef struct {
    mbd_rhs f;
    void *params;
    long calls;
} fx_counted;

static inline int fx_counting(double t, const double y[], double f[], void *params)
{
    fx_counted *c = params;
    c->calls++;
    return c->f(t, y, f, c->params);
}

/* A coupled, non-autonomous, nonlinear system of three equations:
 *   y1' = y2 + sin t,   y2' = -y1 (1 + y3^2 / 4),   y3' = cos(t) y1 - y3 / 2 */
static inline int fx_coupled(double t, const double y[], double f[], void *params)
{
    (void)params;
    f[0] = y[1] + sin(t);
    f[1] = -y[0] * (1.0 + 0.25 * y[2] * y[2]);
    f[2] = cos(t) * y[0] - 0.5 * y[2];
    return GSL_SUCCESS;
}

/* One classical RK4 step of n <= 4 equations, written here from document
 * 001's formulas, for results that the tests reproduce step by step. */
static inline void fx_rk4(mbd_rhs f, void *params, size_t n, double t, const double y[], double h,
                          double out[])
{
    double k1[4], k2[4], k3[4], k4[4], s[4];
    f(t, y, k1, params);
    for (size_t i = 0; i < n; i++)
        s[i] = y[i] + h / 2 * k1[i];
    f(t + h / 2, s, k2, params);
    for (size_t i = 0; i < n; i++)
        s[i] = y[i] + h / 2 * k2[i];
    f(t + h / 2, s, k3, params);
    for (size_t i = 0; i < n; i++)
        s[i] = y[i] + h * k3[i];
    f(t + h, s, k4, params);
    for (size_t i = 0; i < n; i++)
        out[i] = y[i] + h * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]) / 6;
}

#endif
