/* Exercise 02.2: two-step Adams-Bashforth with a Runge-Kutta start (see README.md). */
#include <math.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "ex02.h"

int ex02_ab2(mbd_rhs f, void *params, size_t n, double t0, const double y0[], double h,
             long nsteps, double y_out[], double work[])
{
    /* EXERCISE 02.2: your code here (see README.md) */
    (void)f; (void)params; (void)n; (void)t0; (void)y0; (void)h; (void)nsteps;
    (void)y_out; (void)work;
    return MBD_EUNIMPL;
}
