/* The small dense kernels (lib/src/dense.h, private) against GSL: the same
 * results bit for bit at every size the loops take (1 to MBD_DENSE_SMALL),
 * with the scalings the library uses (alpha = 1, -1, mu; beta = 0, 1, -1,
 * -mu), non-square and transposed operands, and a strided view; a matrix
 * that is not positive definite is refused; a larger one goes to GSL. */
#include <math.h>
#include <string.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>

#include "../../lib/src/dense.h"
#include "check.h"

static unsigned seed = 1;
static double rnd(void)
{
    seed = seed * 1103515245u + 12345u;
    return (double)(seed >> 8) / (1u << 24) - 0.5;
}

static void fill(gsl_matrix *A, double scale)
{
    for (size_t i = 0; i < A->size1; i++)
        for (size_t j = 0; j < A->size2; j++)
            gsl_matrix_set(A, i, j, scale * rnd());
}

static int same_vector(const gsl_vector *a, const gsl_vector *b)
{
    for (size_t i = 0; i < a->size; i++)
        if (memcmp(gsl_vector_const_ptr(a, i), gsl_vector_const_ptr(b, i), sizeof(double)) != 0)
            return 0;
    return 1;
}

static int same_matrix(const gsl_matrix *a, const gsl_matrix *b, int lower_only)
{
    for (size_t i = 0; i < a->size1; i++)
        for (size_t j = 0; j < (lower_only ? i + 1 : a->size2); j++)
            if (memcmp(gsl_matrix_const_ptr(a, i, j), gsl_matrix_const_ptr(b, i, j), sizeof(double))
                != 0)
                return 0;
    return 1;
}

/* S = B B^T + d I: symmetric positive definite, with uneven scales */
static void spd(gsl_matrix *S, double d)
{
    gsl_matrix *B = gsl_matrix_alloc(S->size1, S->size1);
    fill(B, 1.0);
    gsl_blas_dgemm(CblasNoTrans, CblasTrans, 1.0, B, B, 0.0, S);
    for (size_t i = 0; i < S->size1; i++)
        *gsl_matrix_ptr(S, i, i) += d * pow(10.0, -(double)(i % 4));
    gsl_matrix_free(B);
}

static void same_bits_as_gsl(void)
{
    const double alphas[] = {1.0, -1.0, 1e5, 0.37}, betas[] = {0.0, 1.0, -1.0, -1e5, 0.61};
    int differ[8] = {0};
    for (size_t n = 1; n <= MBD_DENSE_SMALL; n++)
        for (size_t m = 1; m <= 6; m++)
            for (int c = 0; c < 4; c++) {
                const double alpha = alphas[c], beta = betas[(n + m + c) % 5];
                gsl_matrix *A = gsl_matrix_alloc(m, n), *At = gsl_matrix_alloc(n, m);
                gsl_vector *x = gsl_vector_alloc(n), *y1 = gsl_vector_alloc(m),
                           *y2 = gsl_vector_alloc(m), *z = gsl_vector_alloc(m),
                           *w1 = gsl_vector_alloc(n), *w2 = gsl_vector_alloc(n);
                fill(A, 3.0);
                gsl_matrix_transpose_memcpy(At, A);
                gsl_matrix_view xv = gsl_matrix_view_array(x->data, n, 1);
                fill(&xv.matrix, 1.0);
                gsl_matrix_view yv = gsl_matrix_view_array(y1->data, m, 1);
                fill(&yv.matrix, 1.0);
                gsl_vector_memcpy(y2, y1);
                gsl_vector_memcpy(z, y1);
                gsl_blas_dgemv(CblasNoTrans, alpha, A, x, beta, y1);
                mbd_dense_gemv(CblasNoTrans, alpha, A, x, beta, y2);
                differ[0] += !same_vector(y1, y2);
                gsl_vector_memcpy(w1, x);
                gsl_vector_memcpy(w2, x);
                gsl_blas_dgemv(CblasTrans, alpha, A, z, beta, w1);
                mbd_dense_gemv(CblasTrans, alpha, A, z, beta, w2);
                differ[1] += !same_vector(w1, w2);
                /* C_q^T C_q (the static penalty) and C_q X (the Schur complement) */
                gsl_matrix *P1 = gsl_matrix_alloc(n, n), *P2 = gsl_matrix_alloc(n, n);
                spd(P1, 1.0);
                gsl_matrix_memcpy(P2, P1);
                gsl_blas_dgemm(CblasTrans, CblasNoTrans, alpha, A, A, beta, P1);
                mbd_dense_gemm(CblasTrans, CblasNoTrans, alpha, A, A, beta, P2);
                differ[2] += !same_matrix(P1, P2, 0);
                gsl_matrix *S1 = gsl_matrix_alloc(m, m), *S2 = gsl_matrix_alloc(m, m);
                gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, alpha, A, At, 0.0, S1);
                mbd_dense_gemm(CblasNoTrans, CblasNoTrans, alpha, A, At, 0.0, S2);
                differ[3] += !same_matrix(S1, S2, 0);
                /* Cholesky and its solves */
                spd(P1, 0.1);
                gsl_matrix_memcpy(P2, P1);
                gsl_linalg_cholesky_decomp1(P1);
                CHECK_STATUS(mbd_dense_cholesky(P2), GSL_SUCCESS);
                differ[4] += !same_matrix(P1, P2, 0);
                gsl_vector_memcpy(w1, x);
                gsl_vector_memcpy(w2, x);
                gsl_linalg_cholesky_svx(P1, w1);
                mbd_dense_cholesky_svx(P1, w2);
                differ[5] += !same_vector(w1, w2);
                gsl_matrix *X1 = gsl_matrix_alloc(n, m), *X2 = gsl_matrix_alloc(n, m);
                gsl_matrix_memcpy(X1, At);
                gsl_matrix_memcpy(X2, At);
                gsl_linalg_cholesky_svx_mat(P1, X1);
                mbd_dense_cholesky_svx_mat(P1, X2);
                differ[6] += !same_matrix(X1, X2, 0);
                /* a strided view (a column of A^T) and its norm */
                gsl_vector_view col = gsl_matrix_column(At, 0);
                differ[7] += gsl_blas_dnrm2(&col.vector) != mbd_dense_nrm2(&col.vector)
                             || gsl_blas_dnrm2(x) != mbd_dense_nrm2(x);
                gsl_matrix_free(A);
                gsl_matrix_free(At);
                gsl_matrix_free(P1);
                gsl_matrix_free(P2);
                gsl_matrix_free(S1);
                gsl_matrix_free(S2);
                gsl_matrix_free(X1);
                gsl_matrix_free(X2);
                gsl_vector_free(x);
                gsl_vector_free(y1);
                gsl_vector_free(y2);
                gsl_vector_free(z);
                gsl_vector_free(w1);
                gsl_vector_free(w2);
            }
    const char *what[] = {"gemv", "gemv^T", "gemm^T", "gemm", "cholesky", "svx", "svx_mat", "nrm2"};
    for (int i = 0; i < 8; i++)
        CHECK_MSG(differ[i] == 0, "%s: %d of %d cases differ from GSL", what[i], differ[i],
                  4 * 6 * MBD_DENSE_SMALL);
}

static void norms_at_the_extremes(void)
{
    double big[3] = {1e200, -3e200, 2e200}, tiny[2] = {3e-170, 4e-170};
    gsl_vector_view b = gsl_vector_view_array(big, 3), t = gsl_vector_view_array(tiny, 2);
    CHECK_REL(mbd_dense_nrm2(&b.vector), sqrt(14.0) * 1e200, 1e-15);
    CHECK_REL(mbd_dense_nrm2(&t.vector), 5e-170, 1e-15);
}

static void not_positive_definite(void)
{
    double a[9] = {4, 2, 0, 2, 1, 0, 0, 0, 1};   /* singular: rows 1 and 2 agree */
    gsl_matrix_view A = gsl_matrix_view_array(a, 3, 3);
    CHECK_STATUS(mbd_dense_cholesky(&A.matrix), GSL_EDOM);
    double nan_m[4] = {NAN, 0, 0, 1};
    gsl_matrix_view N = gsl_matrix_view_array(nan_m, 2, 2);
    CHECK_STATUS(mbd_dense_cholesky(&N.matrix), GSL_EDOM);
}

/* above MBD_DENSE_SMALL the kernels are GSL's: A x against a solve */
static void large_goes_to_gsl(void)
{
    const size_t n = MBD_DENSE_SMALL + 5;
    gsl_matrix *S = gsl_matrix_alloc(n, n), *L = gsl_matrix_alloc(n, n);
    gsl_vector *x = gsl_vector_alloc(n), *b = gsl_vector_alloc(n), *y = gsl_vector_alloc(n);
    spd(S, 1.0);
    gsl_matrix_memcpy(L, S);
    for (size_t i = 0; i < n; i++)
        gsl_vector_set(x, i, rnd());
    CHECK_STATUS(mbd_dense_gemv(CblasNoTrans, 1.0, S, x, 0.0, b), GSL_SUCCESS);
    CHECK_STATUS(mbd_dense_cholesky(L), GSL_SUCCESS);
    CHECK_STATUS(mbd_dense_cholesky_solve(L, b, y), GSL_SUCCESS);
    for (size_t i = 0; i < n; i++)
        CHECK_CLOSE(gsl_vector_get(y, i), gsl_vector_get(x, i), 1e-9);
    gsl_matrix_free(S);
    gsl_matrix_free(L);
    gsl_vector_free(x);
    gsl_vector_free(b);
    gsl_vector_free(y);
}

static CU_TestInfo tests[] = {
    {"same_bits_as_gsl", same_bits_as_gsl},
    {"norms_at_the_extremes", norms_at_the_extremes},
    {"not_positive_definite", not_positive_definite},
    {"large_goes_to_gsl", large_goes_to_gsl},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"dense", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
