/* Exercise 07.1: the rank census and the tangent basis by QR with column
 * pivoting of A^T (see README.md). */
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_permutation.h>
#include <gsl/gsl_vector.h>

#include "ex07.h"

int ex07_rank_census(const gsl_matrix *A, double tol, double diag[], ex07_census *census,
                     gsl_matrix *T)
{
    /* EXERCISE 07.1: your code here (see README.md) */
    (void)A; (void)tol; (void)diag; (void)census; (void)T;
    return MBD_EUNIMPL;
}
