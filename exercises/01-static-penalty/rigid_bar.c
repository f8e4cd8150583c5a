/* Exercise 01.1: the rigid-bar closed form (see README.md). */
#include <gsl/gsl_errno.h>

#include "ex01.h"

int ex01_rigid_bar(double k1, double k2, double P, double r1, double r2, double r5,
                   double beta1, double beta2, gsl_vector *Q)
{
    /* EXERCISE 01.1: your code here (see README.md) */
    (void)k1; (void)k2; (void)P; (void)r1; (void)r2; (void)r5;
    (void)beta1; (void)beta2; (void)Q;
    return MBD_EUNIMPL;
}
