/* Exercise 09.5: a step of BDF in acceleration form -- the variable-step
 * coefficients, and one quasi-Newton-solved step of the index-3 equations
 * of motion (see README.md). */
#include <math.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_permutation.h>

#include "ex09.h"

int ex09_bdf_coefficients(unsigned order, double w, ex09_bdf_coef *c)
{
    /* EXERCISE 09.5: your code here (see README.md) */
    (void)order; (void)w; (void)c;
    return MBD_EUNIMPL;
}

int ex09_bdf_step(const mbd_system *s, double t, const ex09_bdf_settings *set,
                  const gsl_vector *q1, const gsl_vector *qd1, const gsl_vector *q2,
                  const gsl_vector *qd2, gsl_vector *q, gsl_vector *qd, gsl_vector *qdd,
                  gsl_vector *lambda, unsigned *iterations)
{
    /* EXERCISE 09.5: your code here (see README.md) */
    (void)s; (void)t; (void)set; (void)q1; (void)qd1; (void)q2; (void)qd2; (void)q; (void)qd;
    (void)qdd; (void)lambda; (void)iterations;
    return MBD_EUNIMPL;
}
