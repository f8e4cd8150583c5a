/* Exercise 02.1: one step of the classical Runge-Kutta method (see README.md). */
#include <math.h>

#include <gsl/gsl_errno.h>

#include "ex02.h"

int ex02_rk4_step(mbd_rhs f, void *params, size_t n, double t, const double y[], double h,
                  double y_new[], double work[])
{
    /* EXERCISE 02.1: your code here (see README.md) */
    (void)f; (void)params; (void)n; (void)t; (void)y; (void)h; (void)y_new; (void)work;
    return MBD_EUNIMPL;
}
