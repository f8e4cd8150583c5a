/* Exercise 01.1: the rigid-bar closed form (see README.md). */
#include <gsl/gsl_errno.h>

#include "ex01.h"

int ex01_rigid_bar(double k1, double k2, double P, double r1, double r2, double r5,
                   double beta1, double beta2, gsl_vector *Q)
{
    /* EXERCISE 01.1 BEGIN */
    if (Q->size != 5)
        return GSL_EBADLEN;
    /* The bar turns by theta; the rod tops follow it plus their misfits:
     *   Q1 = r1 theta + beta1,  Q2 = r2 theta + beta2,  Q5 = r5 theta.
     * Moments about the hinge: r1 (k1 Q1) + r2 (k2 Q2) = r5 P. */
    double denom = r1 * r1 * k1 + r2 * r2 * k2;
    if (denom == 0.0)
        return MBD_ESINGULAR;
    double theta = (r5 * P - r1 * k1 * beta1 - r2 * k2 * beta2) / denom;
    gsl_vector_set(Q, 0, r1 * theta + beta1);
    gsl_vector_set(Q, 1, r2 * theta + beta2);
    gsl_vector_set(Q, 2, 0.0);
    gsl_vector_set(Q, 3, 0.0);
    gsl_vector_set(Q, 4, r5 * theta);
    return GSL_SUCCESS;
    /* EXERCISE 01.1 STUB
    (void)k1; (void)k2; (void)P; (void)r1; (void)r2; (void)r5;
    (void)beta1; (void)beta2; (void)Q;
    EXERCISE 01.1 END */
}
