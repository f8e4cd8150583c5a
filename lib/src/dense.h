/* lib/src/dense.h -- the few dense kernels the pipeline calls on every
 * right-hand side and output (private).
 *
 * A mechanism's matrices are small: M is 3 x 3 for the slider-crank, C_q
 * 2 x 3, the Schur complement 1 x 1 for the pendulum. At these sizes a call
 * through GSL's BLAS and blocked factorisations costs far more than its
 * arithmetic (a 3 x 3 Cholesky factorisation and solve through GSL takes
 * several times as long as the loops below). Each kernel here runs plain
 * loops when every dimension is at most MBD_DENSE_SMALL and hands larger
 * problems to GSL, with the same meaning and the same operations in the same
 * order, so the same bits, either way:
 *
 *   mbd_dense_gemv         y = alpha op(A) x + beta y   (gsl_blas_dgemv; beta = 0: y not read)
 *   mbd_dense_gemm         C = alpha op(A) op(B) + beta C   (gsl_blas_dgemm)
 *   mbd_dense_nrm2         |x|_2, without overflow or underflow (gsl_blas_dnrm2)
 *   mbd_dense_cholesky     A = L L^T in place: L in the lower triangle, A kept in
 *                          the upper; GSL_EDOM when A is not positive definite
 *                          (gsl_linalg_cholesky_decomp1)
 *   mbd_dense_cholesky_svx x <- A^-1 x from the factor (gsl_linalg_cholesky_svx)
 *   mbd_dense_cholesky_svx_mat   the same for each column of X
 *   mbd_dense_cholesky_solve     x = A^-1 b from the factor (gsl_linalg_cholesky_solve)
 *   mbd_const_view         a vector view of n contiguous doubles, built in place
 *                          (gsl_vector_const_view_array, which is a library call)
 */
#ifndef MBD_DENSE_H
#define MBD_DENSE_H

#include <gsl/gsl_blas.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

#define MBD_DENSE_SMALL 16

int mbd_dense_gemv(CBLAS_TRANSPOSE_t trans, double alpha, const gsl_matrix *A, const gsl_vector *x,
                   double beta, gsl_vector *y);
int mbd_dense_gemm(CBLAS_TRANSPOSE_t ta, CBLAS_TRANSPOSE_t tb, double alpha, const gsl_matrix *A,
                   const gsl_matrix *B, double beta, gsl_matrix *C);
double mbd_dense_nrm2(const gsl_vector *x);
int mbd_dense_cholesky(gsl_matrix *A);
int mbd_dense_cholesky_svx(const gsl_matrix *L, gsl_vector *x);
int mbd_dense_cholesky_svx_mat(const gsl_matrix *L, gsl_matrix *X);
int mbd_dense_cholesky_solve(const gsl_matrix *L, const gsl_vector *b, gsl_vector *x);

static inline _gsl_vector_const_view mbd_const_view(const double *a, size_t n)
{
    /* GSL's own views hold const data through a non-const pointer, too */
    _gsl_vector_const_view v = {{.size = n, .stride = 1, .data = (double *)a, .block = NULL,
                                .owner = 0}};
    return v;
}

#endif
