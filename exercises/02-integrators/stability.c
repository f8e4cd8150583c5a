/* Exercise 02.4: a scheme's stability limit, found by running it (see README.md). */
#include <math.h>

#include <gsl/gsl_errno.h>

#include "ex02.h"

/* Given: y' = -y, the test problem of document 001 with alpha = 1. */
static int decay(double t, const double y[], double f[], void *params)
{
    (void)t;
    (void)params;
    f[0] = -y[0];
    return GSL_SUCCESS;
}

int ex02_growth(const mbd_ode_params *p, double x, long nsteps, double *growth)
{
    /* EXERCISE 02.4: your code here (see README.md) */
    (void)p; (void)x; (void)nsteps; (void)growth; (void)decay;
    return MBD_EUNIMPL;
}

int ex02_stability_limit(const mbd_ode_params *p, double x_lo, double x_hi, double tol,
                         double *x_star)
{
    /* EXERCISE 02.4: your code here (see README.md) */
    (void)p; (void)x_lo; (void)x_hi; (void)tol; (void)x_star;
    return MBD_EUNIMPL;
}
