/* Exercise 06.1: the generalized inertia of a body whose reference point is
 * not its centre of mass (see README.md). */
#include <math.h>

#include <gsl/gsl_errno.h>

#include "ex06.h"

int ex06_body_mass(double m, double J_c, const double u_c[2], double theta, gsl_matrix *M)
{
    /* EXERCISE 06.1: your code here (see README.md) */
    (void)m; (void)J_c; (void)u_c; (void)theta; (void)M;
    return MBD_EUNIMPL;
}

int ex06_body_quadratic(double m, const double u_c[2], double theta, double theta_d,
                        double Qv[3])
{
    /* EXERCISE 06.1: your code here (see README.md) */
    (void)m; (void)u_c; (void)theta; (void)theta_d; (void)Qv;
    return MBD_EUNIMPL;
}
