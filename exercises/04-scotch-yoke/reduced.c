/* Exercise 04.1: the reduced one-degree-of-freedom equation of the Scotch
 * yoke, and a reference solution from it (see README.md). */
#include <math.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_odeiv2.h>

#include "ex04.h"

int ex04_reduced_rhs(double t, const double y[], double dydt[], void *params)
{
    /* EXERCISE 04.1: your code here (see README.md) */
    (void)t; (void)y; (void)dydt; (void)params;
    return MBD_EUNIMPL;
}

int ex04_reduced_states(const ex04_params *p, double theta0, double eps, const double *t,
                        size_t n, double *states)
{
    /* EXERCISE 04.1: your code here (see README.md) */
    (void)p; (void)theta0; (void)eps; (void)t; (void)n; (void)states;
    return MBD_EUNIMPL;
}
