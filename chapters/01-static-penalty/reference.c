/* reference.c -- chapter 01's exact answers: the Lagrange-multiplier solve
 * and the rigid-bar closed form (see reference.h). */
#include <math.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_permutation.h>

#include "reference.h"

/* >> lagrange */
int ch01_lagrange(const gsl_matrix *K, const gsl_vector *F, const gsl_matrix *B,
                  const gsl_vector *beta0, const gsl_vector *fixed, gsl_vector *Q,
                  gsl_vector *lambda)
{
    const size_t n = K->size1, nb = B->size1;
    size_t m = nb;
    for (size_t i = 0; i < n; i++)
        m += gsl_vector_get(fixed, i) != 0.0;

    /* the saddle-point matrix [K A^T; A 0] and right-hand side [F; b] */
    gsl_matrix *S = gsl_matrix_calloc(n + m, n + m);
    gsl_vector *rhs = gsl_vector_calloc(n + m), *x = gsl_vector_alloc(n + m);
    gsl_permutation *p = gsl_permutation_alloc(n + m);
    gsl_matrix_view SK = gsl_matrix_submatrix(S, 0, 0, n, n);
    gsl_matrix_memcpy(&SK.matrix, K);
    for (size_t i = 0; i < nb; i++)
        for (size_t j = 0; j < n; j++) {
            gsl_matrix_set(S, n + i, j, gsl_matrix_get(B, i, j));
            gsl_matrix_set(S, j, n + i, gsl_matrix_get(B, i, j));
        }
    for (size_t i = 0, row = n + nb; i < n; i++)
        if (gsl_vector_get(fixed, i) != 0.0) {
            gsl_matrix_set(S, row, i, 1.0);   /* Q_i = 0 */
            gsl_matrix_set(S, i, row, 1.0);
            row++;
        }
    gsl_vector_view rF = gsl_vector_subvector(rhs, 0, n);
    gsl_vector_memcpy(&rF.vector, F);
    for (size_t i = 0; i < nb; i++)
        gsl_vector_set(rhs, n + i, gsl_vector_get(beta0, i));

    /* symmetric but indefinite: LU with partial pivoting */
    int signum, st = gsl_linalg_LU_decomp(S, p, &signum);
    if (st == GSL_SUCCESS)
        st = gsl_linalg_LU_solve(S, p, rhs, x);   /* GSL_EDOM when singular */
    if (st == GSL_SUCCESS) {
        gsl_vector_view xQ = gsl_vector_subvector(x, 0, n);
        gsl_vector_memcpy(Q, &xQ.vector);
        for (size_t i = 0; i < m && i < lambda->size; i++)
            gsl_vector_set(lambda, i, gsl_vector_get(x, n + i));
    }
    gsl_matrix_free(S);
    gsl_vector_free(rhs);
    gsl_vector_free(x);
    gsl_permutation_free(p);
    return st;
}
/* << lagrange */

/* >> closed-form */
void ch01_closed_form(const ch01_bar *b, gsl_vector *Q)
{
    const double k1 = ch01_k1(b), k2 = ch01_k2(b);
    /* moments about the hinge: r1 k1 Q1 + r2 k2 Q2 = r5 P,
     * with Q1 = r1 theta + beta0_1 and Q2 = r2 theta + beta0_2 */
    const double theta = (b->r5 * b->P - b->r1 * k1 * b->beta0[0] - b->r2 * k2 * b->beta0[1])
                         / (b->r1 * b->r1 * k1 + b->r2 * b->r2 * k2);
    gsl_vector_set(Q, 0, b->r1 * theta + b->beta0[0]);
    gsl_vector_set(Q, 1, b->r2 * theta + b->beta0[1]);
    gsl_vector_set(Q, 2, 0.0);
    gsl_vector_set(Q, 3, 0.0);
    gsl_vector_set(Q, 4, b->r5 * theta);
}
/* << closed-form */
