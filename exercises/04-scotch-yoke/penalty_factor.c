/* Exercise 04.3: the penalty factor against the mechanism's own scale (see
 * README.md). */
#include <math.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_math.h>

#include "ex04.h"

int ex04_schur(const ex04_params *p, double theta1, double *S)
{
    /* EXERCISE 04.3: your code here (see README.md) */
    (void)p; (void)theta1; (void)S;
    return MBD_EUNIMPL;
}

int ex04_residual_ratio(const ex04_params *p, double mu, double theta1, double *ratio)
{
    /* EXERCISE 04.3: your code here (see README.md) */
    (void)p; (void)mu; (void)theta1; (void)ratio;
    return MBD_EUNIMPL;
}

int ex04_choose_mu(const ex04_params *p, double theta_lo, double theta_hi, double ratio_max,
                   double *mu)
{
    /* EXERCISE 04.3: your code here (see README.md) */
    (void)p; (void)theta_lo; (void)theta_hi; (void)ratio_max; (void)mu;
    return MBD_EUNIMPL;
}
