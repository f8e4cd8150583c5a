/* Exercise 01.4: the error study (see README.md). */
#include <math.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>

#include "ex01.h"

int ex01_error_sweep(const gsl_matrix *K, const gsl_vector *F, const gsl_matrix *B,
                     const gsl_vector *beta0, const gsl_vector *fixed,
                     const gsl_vector *Qexact, int kmin, int kmax, double *error,
                     double *cond, int *kbest)
{
    /* EXERCISE 01.4: your code here (see README.md) */
    (void)K; (void)F; (void)B; (void)beta0; (void)fixed; (void)Qexact;
    (void)kmin; (void)kmax; (void)error; (void)cond; (void)kbest;
    return MBD_EUNIMPL;
}
