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
    /* EXERCISE 01.4 BEGIN */
    const size_t n = K->size1;
    if (kmax < kmin || K->size2 != n || F->size != n || B->size2 != n || fixed->size != n
        || Qexact->size != n || beta0->size != B->size1)
        return GSL_EBADLEN;
    const double norm_exact = gsl_blas_dnrm2(Qexact);
    if (norm_exact == 0.0)
        return GSL_EDOM;   /* no relative error against a zero solution */

    double maxK = 0.0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            maxK = fmax(maxK, fabs(gsl_matrix_get(K, i, j)));

    gsl_matrix *Kc = gsl_matrix_alloc(n, n), *L = gsl_matrix_alloc(n, n), *V = gsl_matrix_alloc(n, n);
    gsl_vector *Fc = gsl_vector_alloc(n), *Q = gsl_vector_alloc(n);
    gsl_vector *s = gsl_vector_alloc(n), *work = gsl_vector_alloc(n);
    *kbest = kmin;

    for (int k = kmin; k <= kmax; k++) {
        const double C = maxK * pow(10.0, k);
        const size_t i = (size_t)(k - kmin);
        gsl_matrix_memcpy(Kc, K);
        gsl_blas_dgemm(CblasTrans, CblasNoTrans, C, B, B, 1.0, Kc);
        for (size_t d = 0; d < n; d++)
            *gsl_matrix_ptr(Kc, d, d) += C * gsl_vector_get(fixed, d);
        gsl_vector_memcpy(Fc, F);
        gsl_blas_dgemv(CblasTrans, C, B, beta0, 1.0, Fc);

        /* the singular values of K_c give its 2-norm condition number */
        gsl_matrix_memcpy(L, Kc);
        gsl_linalg_SV_decomp(L, V, s, work);
        cond[i] = gsl_vector_get(s, 0) / gsl_vector_get(s, n - 1);

        gsl_matrix_memcpy(L, Kc);
        if (gsl_linalg_cholesky_decomp1(L) == GSL_SUCCESS
            && gsl_linalg_cholesky_solve(L, Fc, Q) == GSL_SUCCESS) {
            gsl_vector_sub(Q, Qexact);
            error[i] = gsl_blas_dnrm2(Q) / norm_exact;
        } else {
            error[i] = INFINITY;
        }
        if (error[i] < error[*kbest - kmin])
            *kbest = k;
    }
    gsl_matrix_free(Kc);
    gsl_matrix_free(L);
    gsl_matrix_free(V);
    gsl_vector_free(Fc);
    gsl_vector_free(Q);
    gsl_vector_free(s);
    gsl_vector_free(work);
    return GSL_SUCCESS;
    /* EXERCISE 01.4 STUB
    (void)K; (void)F; (void)B; (void)beta0; (void)fixed; (void)Qexact;
    (void)kmin; (void)kmax; (void)error; (void)cond; (void)kbest;
    EXERCISE 01.4 END */
}
