/* Exercise 02.1: one step of the classical Runge-Kutta method (see README.md). */
#include <math.h>

#include <gsl/gsl_errno.h>

#include "ex02.h"

int ex02_rk4_step(mbd_rhs f, void *params, size_t n, double t, const double y[], double h,
                  double y_new[], double work[])
{
    /* EXERCISE 02.1 BEGIN */
    if (n == 0 || !isfinite(h))
        return GSL_EINVAL;
    double *k1 = work, *k2 = work + n, *k3 = work + 2 * n, *k4 = work + 3 * n;
    double *stage = work + 4 * n;   /* the state at which the next slope is taken */
    int st = f(t, y, k1, params);
    if (st != GSL_SUCCESS)
        return st;
    for (size_t i = 0; i < n; i++)
        stage[i] = y[i] + 0.5 * h * k1[i];
    st = f(t + 0.5 * h, stage, k2, params);
    if (st != GSL_SUCCESS)
        return st;
    for (size_t i = 0; i < n; i++)
        stage[i] = y[i] + 0.5 * h * k2[i];
    st = f(t + 0.5 * h, stage, k3, params);
    if (st != GSL_SUCCESS)
        return st;
    for (size_t i = 0; i < n; i++)
        stage[i] = y[i] + h * k3[i];
    st = f(t + h, stage, k4, params);
    if (st != GSL_SUCCESS)
        return st;
    for (size_t i = 0; i < n; i++)
        y_new[i] = y[i] + h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
    return GSL_SUCCESS;
    /* EXERCISE 02.1 STUB
    (void)f; (void)params; (void)n; (void)t; (void)y; (void)h; (void)y_new; (void)work;
    EXERCISE 02.1 END */
}
