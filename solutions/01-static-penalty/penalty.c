/* Exercise 01.2: the penalty system (see README.md). */
#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>

#include "ex01.h"

int ex01_penalty_system(const gsl_matrix *K, const gsl_vector *F, const gsl_matrix *B,
                        const gsl_vector *beta0, const gsl_vector *fixed, double C,
                        gsl_matrix *Kc, gsl_vector *Fc)
{
    /* EXERCISE 01.2 BEGIN */
    const size_t n = K->size1, m = B->size1;
    if (K->size2 != n || F->size != n || B->size2 != n || beta0->size != m
        || fixed->size != n || Kc->size1 != n || Kc->size2 != n || Fc->size != n)
        return GSL_EBADLEN;

    /* K_c = K + C B^T B, then C on the diagonal of every fixed dof */
    gsl_matrix_memcpy(Kc, K);
    gsl_blas_dgemm(CblasTrans, CblasNoTrans, C, B, B, 1.0, Kc);
    for (size_t i = 0; i < n; i++)
        *gsl_matrix_ptr(Kc, i, i) += C * gsl_vector_get(fixed, i);

    /* F_c = F + C B^T beta0 */
    gsl_vector_memcpy(Fc, F);
    gsl_blas_dgemv(CblasTrans, C, B, beta0, 1.0, Fc);
    return GSL_SUCCESS;
    /* EXERCISE 01.2 STUB
    (void)K; (void)F; (void)B; (void)beta0; (void)fixed; (void)C; (void)Kc; (void)Fc;
    EXERCISE 01.2 END */
}
