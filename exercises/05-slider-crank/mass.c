/* Exercise 05.1: the consistent mass matrix and the true energy (see README.md). */
#include <math.h>

#include <gsl/gsl_errno.h>

#include "ex05.h"

int ex05_mass_consistent(const ex05_params *p, const double q[3], gsl_matrix *M)
{
    /* EXERCISE 05.1: your code here (see README.md) */
    (void)p; (void)q; (void)M;
    return MBD_EUNIMPL;
}

int ex05_energy(const ex05_params *p, const double q[3], const double qd[3], double *E)
{
    /* EXERCISE 05.1: your code here (see README.md) */
    (void)p; (void)q; (void)qd; (void)E;
    return MBD_EUNIMPL;
}
