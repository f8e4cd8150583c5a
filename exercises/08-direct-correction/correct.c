/* Exercise 08.2: the sequential correction (b), the same with the velocity
 * step first (b'), and the simultaneous correction (c), each with the
 * minimum-norm Newton step (see README.md). */
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>

#include "ex08.h"

int ex08_correct(const ex08_constraints *c, ex08_scheme scheme, double tol, unsigned max_iter,
                 double q[], double qd[], ex08_report *rep)
{
    /* EXERCISE 08.2: your code here (see README.md) */
    (void)c; (void)scheme; (void)tol; (void)max_iter; (void)q; (void)qd; (void)rep;
    return MBD_EUNIMPL;
}
