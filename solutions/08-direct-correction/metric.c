/* Exercise 08.4: the minimum-norm step in a metric W: Euclidean, W = M^-1
 * and, for x = (q, q'), W = diag(M^-1, M^-1) (see README.md). */
#include <math.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>

#include "ex08.h"

int ex08_weighted_step(const gsl_matrix *J, const gsl_vector *r, const gsl_matrix *M,
                       gsl_vector *dx, double *norm2)
{
    /* EXERCISE 08.4 BEGIN */
    const size_t R = J->size1, N = J->size2;
    if (R > N || r->size != R || dx->size != N)
        return GSL_EBADLEN;
    size_t n = N, blocks = 1;
    if (M != NULL) {
        n = M->size1;
        if (M->size2 != n || (N != n && N != 2 * n))
            return GSL_EBADLEN;
        blocks = N / n;
    }
    for (size_t i = 0; i < R; i++) {
        if (!isfinite(gsl_vector_get(r, i)))
            return MBD_EINPUT;
        for (size_t j = 0; j < N; j++)
            if (!isfinite(gsl_matrix_get(J, i, j)))
                return MBD_EINPUT;
    }
    gsl_matrix *L = NULL;
    if (M != NULL) {
        double big = 0.0;
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j < n; j++) {
                if (!isfinite(gsl_matrix_get(M, i, j)))
                    return MBD_EINPUT;
                big = fmax(big, fabs(gsl_matrix_get(M, i, j)));
            }
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j < i; j++)
                if (!(fabs(gsl_matrix_get(M, i, j) - gsl_matrix_get(M, j, i)) <= 1e-12 * big))
                    return MBD_EINPUT;
        L = gsl_matrix_alloc(n, n);
        if (L == NULL)
            return GSL_ENOMEM;
        gsl_matrix_memcpy(L, M);
        if (gsl_linalg_cholesky_decomp1(L) != GSL_SUCCESS) {
            gsl_matrix_free(L);
            return MBD_EINPUT;   /* not positive definite */
        }
    }
    gsl_matrix *WJt = gsl_matrix_alloc(N, R), *G = gsl_matrix_alloc(R, R);
    gsl_vector *y = gsl_vector_alloc(R);
    int st = GSL_SUCCESS;
    if (!WJt || !G || !y) {
        st = GSL_ENOMEM;
        goto done;
    }
    /* W J^T: M^-1 applied to each block of n rows of every column of J^T */
    gsl_matrix_transpose_memcpy(WJt, J);
    if (L != NULL)
        for (size_t k = 0; k < R; k++)
            for (size_t b = 0; b < blocks; b++) {
                gsl_vector_view c = gsl_matrix_subcolumn(WJt, k, b * n, n);
                gsl_linalg_cholesky_svx(L, &c.vector);
            }
    /* G = J W J^T, by Cholesky with the singularity rule of 08.2 */
    gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, J, WJt, 0.0, G);
    double gmax = 0.0;
    for (size_t i = 0; i < R; i++)
        gmax = fmax(gmax, gsl_matrix_get(G, i, i));
    int singular = gsl_linalg_cholesky_decomp1(G) != GSL_SUCCESS;
    for (size_t i = 0; i < R && !singular; i++) {
        const double l = gsl_matrix_get(G, i, i);
        singular = !(l * l > 1e-12 * gmax);
    }
    if (singular) {
        st = MBD_ESINGULAR;
        goto done;
    }
    /* dx = -W J^T y with G y = r; dx^T W^-1 dx = y^T J W J^T y = r^T y */
    gsl_linalg_cholesky_solve(G, r, y);
    gsl_blas_dgemv(CblasNoTrans, -1.0, WJt, y, 0.0, dx);
    if (norm2 != NULL)
        gsl_blas_ddot(r, y, norm2);
done:
    gsl_vector_free(y);
    gsl_matrix_free(G);
    gsl_matrix_free(WJt);
    gsl_matrix_free(L);
    return st;
    /* EXERCISE 08.4 STUB
    (void)J; (void)r; (void)M; (void)dx; (void)norm2;
    EXERCISE 08.4 END */
}
