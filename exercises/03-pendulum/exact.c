/* Exercise 03.1: the exact solution of the pendulum (see README.md). */
#include <math.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_math.h>
#include <gsl/gsl_sf_elljac.h>
#include <gsl/gsl_sf_ellint.h>

#include "ex03.h"

int ex03_exact(double g, double L, double theta0, double t, double *theta, double *omega)
{
    /* EXERCISE 03.1: your code here (see README.md) */
    (void)g; (void)L; (void)theta0; (void)t; (void)theta; (void)omega;
    return MBD_EUNIMPL;
}

int ex03_period(double g, double L, double theta0, double *T)
{
    /* EXERCISE 03.1: your code here (see README.md) */
    (void)g; (void)L; (void)theta0; (void)T;
    return MBD_EUNIMPL;
}
