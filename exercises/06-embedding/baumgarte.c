/* Exercise 06.4: Baumgarte's weights, and the drift they leave (see README.md). */
#include <math.h>

#include <gsl/gsl_errno.h>

#include "ex06.h"

int ex06_baumgarte_gamma(const gsl_matrix *Cq, const double qd[], const double C[],
                         const double Ct[], const double gamma[], double alpha, double beta,
                         double gamma_B[])
{
    /* EXERCISE 06.4: your code here (see README.md) */
    (void)Cq; (void)qd; (void)C; (void)Ct; (void)gamma; (void)alpha; (void)beta; (void)gamma_B;
    return MBD_EUNIMPL;
}

int ex06_violation(double alpha, double beta, double t0, double C0, double Cd0, double t,
                   double *C, double *Cd)
{
    /* EXERCISE 06.4: your code here (see README.md) */
    (void)alpha; (void)beta; (void)t0; (void)C0; (void)Cd0; (void)t; (void)C; (void)Cd;
    return MBD_EUNIMPL;
}

int ex06_decay_rate(double alpha, double beta, double *rate)
{
    /* EXERCISE 06.4: your code here (see README.md) */
    (void)alpha; (void)beta; (void)rate;
    return MBD_EUNIMPL;
}
