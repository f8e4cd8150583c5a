/* Exercise 03.1: the exact solution of the pendulum (see README.md). */
#include <math.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_math.h>
#include <gsl/gsl_sf_elljac.h>
#include <gsl/gsl_sf_ellint.h>

#include "ex03.h"

int ex03_exact(double g, double L, double theta0, double t, double *theta, double *omega)
{
    /* EXERCISE 03.1 BEGIN */
    if (!(g > 0) || !(L > 0) || !(theta0 > 0 && theta0 < M_PI))
        return GSL_EDOM;
    /* Energy gives theta'^2 = 2 (g/L) (cos theta - cos theta0); with
     * sin(theta/2) = k s and k = sin(theta0/2) this becomes s'^2 = w^2 (1 - s^2)
     * (1 - k^2 s^2), solved by s = sn(K - w t, k): s = 1 (theta = theta0) at t = 0. */
    const double w = sqrt(g / L), k = sin(0.5 * theta0);
    const double K = gsl_sf_ellint_Kcomp(k, GSL_PREC_DOUBLE);
    double sn, cn, dn;
    int st = gsl_sf_elljac_e(K - w * t, k * k, &sn, &cn, &dn);
    if (st != GSL_SUCCESS)
        return st;
    *theta = 2.0 * asin(k * sn);
    *omega = -2.0 * k * w * cn;
    return GSL_SUCCESS;
    /* EXERCISE 03.1 STUB
    (void)g; (void)L; (void)theta0; (void)t; (void)theta; (void)omega;
    EXERCISE 03.1 END */
}

int ex03_period(double g, double L, double theta0, double *T)
{
    /* EXERCISE 03.1 BEGIN */
    if (!(g > 0) || !(L > 0) || !(theta0 > 0 && theta0 < M_PI))
        return GSL_EDOM;
    /* sn has the period 4 K in its argument */
    *T = 4.0 * gsl_sf_ellint_Kcomp(sin(0.5 * theta0), GSL_PREC_DOUBLE) / sqrt(g / L);
    return GSL_SUCCESS;
    /* EXERCISE 03.1 STUB
    (void)g; (void)L; (void)theta0; (void)T;
    EXERCISE 03.1 END */
}
