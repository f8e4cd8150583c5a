/* Exercise 01.3: the exact solution by Lagrange multipliers (see README.md). */
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_permutation.h>

#include "ex01.h"

int ex01_lagrange_solve(const gsl_matrix *K, const gsl_vector *F, const gsl_matrix *A,
                        const gsl_vector *b, gsl_vector *Q, gsl_vector *lambda)
{
    /* EXERCISE 01.3 BEGIN */
    const size_t n = K->size1, m = A->size1, N = n + m;
    if (K->size2 != n || F->size != n || A->size2 != n || b->size != m || Q->size != n
        || lambda->size != m)
        return GSL_EBADLEN;

    /* [K A^T; A 0] [Q; lambda] = [F; b] */
    gsl_matrix *S = gsl_matrix_calloc(N, N);
    gsl_vector *rhs = gsl_vector_alloc(N), *x = gsl_vector_alloc(N);
    gsl_permutation *perm = gsl_permutation_alloc(N);
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < n; j++)
            gsl_matrix_set(S, i, j, gsl_matrix_get(K, i, j));
        gsl_vector_set(rhs, i, gsl_vector_get(F, i));
    }
    for (size_t r = 0; r < m; r++) {
        for (size_t j = 0; j < n; j++) {
            gsl_matrix_set(S, n + r, j, gsl_matrix_get(A, r, j));
            gsl_matrix_set(S, j, n + r, gsl_matrix_get(A, r, j));
        }
        gsl_vector_set(rhs, n + r, gsl_vector_get(b, r));
    }

    /* the matrix is symmetric but indefinite: LU with partial pivoting. A
     * zero pivot means it is singular. */
    int signum, status = gsl_linalg_LU_decomp(S, perm, &signum);
    for (size_t i = 0; status == GSL_SUCCESS && i < N; i++)
        if (gsl_matrix_get(S, i, i) == 0.0)
            status = MBD_ESINGULAR;
    if (status == GSL_SUCCESS)
        status = gsl_linalg_LU_solve(S, perm, rhs, x);
    if (status == GSL_SUCCESS) {
        for (size_t i = 0; i < n; i++)
            gsl_vector_set(Q, i, gsl_vector_get(x, i));
        for (size_t r = 0; r < m; r++)
            gsl_vector_set(lambda, r, gsl_vector_get(x, n + r));
    } else {
        status = MBD_ESINGULAR;
    }
    gsl_matrix_free(S);
    gsl_vector_free(rhs);
    gsl_vector_free(x);
    gsl_permutation_free(perm);
    return status;
    /* EXERCISE 01.3 STUB
    (void)K; (void)F; (void)A; (void)b; (void)Q; (void)lambda;
    EXERCISE 01.3 END */
}
