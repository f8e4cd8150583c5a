/* Exercise 08.4: the minimum-norm step in a metric W: Euclidean, W = M^-1
 * and, for x = (q, q'), W = diag(M^-1, M^-1) (see README.md). */
#include <math.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>

#include "ex08.h"

int ex08_weighted_step(const gsl_matrix *J, const gsl_vector *r, const gsl_matrix *M,
                       gsl_vector *dx, double *norm2)
{
    /* EXERCISE 08.4: your code here (see README.md) */
    (void)J; (void)r; (void)M; (void)dx; (void)norm2;
    return MBD_EUNIMPL;
}
