/* Exercise 01.2: the penalty system (see README.md). */
#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>

#include "ex01.h"

int ex01_penalty_system(const gsl_matrix *K, const gsl_vector *F, const gsl_matrix *B,
                        const gsl_vector *beta0, const gsl_vector *fixed, double C,
                        gsl_matrix *Kc, gsl_vector *Fc)
{
    /* EXERCISE 01.2: your code here (see README.md) */
    (void)K; (void)F; (void)B; (void)beta0; (void)fixed; (void)C; (void)Kc; (void)Fc;
    return MBD_EUNIMPL;
}
