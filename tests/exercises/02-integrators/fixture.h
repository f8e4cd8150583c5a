/* Test problems with closed forms for chapter 02's exercises, written
 * independently of the code under test.
 *
 *   fx_linear     y' = lambda y (params: double *lambda)
 *   fx_nonlinear  y1' = y1 cos t,  y1 = exp(sin t);  y2' = y2 (1 - y2), y2(0) = 1/2,
 *                 y2 = 1 / (1 + exp(-t))   (non-autonomous and nonlinear)
 *   fx_quartic    y' = 4 t^3 + 3 t^2,  y = t^4 + t^3 (+ y(0))
 *   fx_transient  y' = -100 (y - cos t) - sin t, y(0) = 0,  y = cos t - exp(-100 t)
 */
#ifndef EX02_FIXTURE_H
#define EX02_FIXTURE_H

#include <math.h>

#include <gsl/gsl_errno.h>

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

#endif
