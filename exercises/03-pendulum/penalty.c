/* Exercise 03.2: the static penalty right-hand side (see README.md). */
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

#include "ex03.h"

int ex03_penalty_accel(const mbd_system *s, const ex03_penalty *p, double t, const double q[],
                       const double qd[], double qdd[], double lambda[])
{
    /* EXERCISE 03.2: your code here (see README.md) */
    (void)s; (void)p; (void)t; (void)q; (void)qd; (void)qdd; (void)lambda;
    return MBD_EUNIMPL;
}
