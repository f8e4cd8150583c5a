/* Exercise 05.3: the Schur complement near the fold (see README.md). */
#include <math.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>

#include "ex05.h"

int ex05_schur_condition(const ex05_params *p, const gsl_matrix *M, const double q[3],
                         double S[2][2], double *cond)
{
    /* EXERCISE 05.3: your code here (see README.md) */
    (void)p; (void)M; (void)q; (void)S; (void)cond;
    return MBD_EUNIMPL;
}

int ex05_fold_constant(const ex05_params *p, double *K)
{
    /* EXERCISE 05.3: your code here (see README.md) */
    (void)p; (void)K;
    return MBD_EUNIMPL;
}
