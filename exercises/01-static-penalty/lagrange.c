/* Exercise 01.3: the exact solution by Lagrange multipliers (see README.md). */
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_permutation.h>

#include "ex01.h"

int ex01_lagrange_solve(const gsl_matrix *K, const gsl_vector *F, const gsl_matrix *A,
                        const gsl_vector *b, gsl_vector *Q, gsl_vector *lambda)
{
    /* EXERCISE 01.3: your code here (see README.md) */
    (void)K; (void)F; (void)A; (void)b; (void)Q; (void)lambda;
    return MBD_EUNIMPL;
}
