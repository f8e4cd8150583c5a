/* Exercise 07.4: the continuation update -- the skew Omega = Q^T Q' with the
 * T-T block zero, and the Cayley step of Q (see README.md). */
#include <math.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_vector.h>

#include "ex07.h"

int ex07_omega(const gsl_matrix *Q, const gsl_matrix *R, const gsl_permutation *perm, size_t r,
               const gsl_matrix *Adot, gsl_matrix *Omega)
{
    /* EXERCISE 07.4 BEGIN */
    const size_t m = Adot->size1, n = Adot->size2, p = m < n ? m : n;
    if (Q->size1 != n || Q->size2 != n || R->size1 != n || R->size2 != m || perm->size != m
        || Omega->size1 != n || Omega->size2 != n)
        return GSL_EBADLEN;
    if (r > p)
        return MBD_EINPUT;
    for (size_t i = 0; i < r; i++)
        if (!(fabs(gsl_matrix_get(R, i, i)) > 1e-12 * fabs(gsl_matrix_get(R, 0, 0))))
            return MBD_ESINGULAR;
    if (r == 0) {
        gsl_matrix_set_zero(Omega);
        return GSL_SUCCESS;
    }
    gsl_matrix *X = gsl_matrix_alloc(n, r);
    if (X == NULL)
        return GSL_ENOMEM;
    /* J = Q^T Adot^T P, first r columns (eq. 4.7): column i is Q^T times
     * row perm[i] of Adot */
    for (size_t i = 0; i < r; i++) {
        const size_t row = gsl_permutation_get(perm, i);
        for (size_t a = 0; a < n; a++) {
            double s = 0.0;
            for (size_t b = 0; b < n; b++)
                s += gsl_matrix_get(Q, b, a) * gsl_matrix_get(Adot, row, b);
            gsl_matrix_set(X, a, i, s);
        }
    }
    /* X = J R11^-1 row by row: x R11 = j  <=>  R11^T x^T = j^T */
    gsl_matrix_const_view R11 = gsl_matrix_const_submatrix(R, 0, 0, r, r);
    for (size_t a = 0; a < n; a++) {
        gsl_vector_view xa = gsl_matrix_row(X, a);
        gsl_blas_dtrsv(CblasUpper, CblasTrans, CblasNonUnit, &R11.matrix, &xa.vector);
    }
    gsl_matrix_set_zero(Omega);   /* the T-T block stays zero */
    /* Omega_ns = Omega_L - Omega_L^T, Omega_L = stril(J11 R11^-1) (eqs. 4.12, 4.27;
     * eq. 4.13's "Omega_L - Omega^T" is a misprint) */
    for (size_t a = 1; a < r; a++)
        for (size_t b = 0; b < a; b++) {
            const double l = gsl_matrix_get(X, a, b);
            gsl_matrix_set(Omega, a, b, l);
            gsl_matrix_set(Omega, b, a, -l);
        }
    /* Omega_s = J21 R11^-1 (eq. 4.10) below, -Omega_s^T beside */
    for (size_t a = r; a < n; a++)
        for (size_t b = 0; b < r; b++) {
            const double s = gsl_matrix_get(X, a, b);
            gsl_matrix_set(Omega, a, b, s);
            gsl_matrix_set(Omega, b, a, -s);
        }
    gsl_matrix_free(X);
    return GSL_SUCCESS;
    /* EXERCISE 07.4 STUB
    (void)Q; (void)R; (void)perm; (void)r; (void)Adot; (void)Omega;
    EXERCISE 07.4 END */
}

int ex07_cayley(const gsl_matrix *Q, const gsl_matrix *Omega, double h, gsl_matrix *Qnew)
{
    /* EXERCISE 07.4 BEGIN */
    const size_t n = Q->size1;
    if (Q->size2 != n || Omega->size1 != n || Omega->size2 != n || Qnew->size1 != n
        || Qnew->size2 != n)
        return GSL_EBADLEN;
    if (!isfinite(h))
        return MBD_EINPUT;
    double big = 0.0, asym = 0.0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) {
            const double w = gsl_matrix_get(Omega, i, j);
            if (!isfinite(w))
                return MBD_EINPUT;
            big = fmax(big, fabs(w));
            asym = fmax(asym, fabs(w + gsl_matrix_get(Omega, j, i)));
        }
    if (!(asym <= 1e-12 * big))
        return MBD_EINPUT;
    gsl_matrix *K = gsl_matrix_alloc(n, n), *Y = gsl_matrix_alloc(n, n);
    gsl_permutation *pm = gsl_permutation_alloc(n);
    gsl_vector *col = gsl_vector_alloc(n);
    int st = GSL_SUCCESS;
    if (!K || !Y || !pm || !col) {
        st = GSL_ENOMEM;
        goto done;
    }
    /* K = I - h Omega / 2, never singular for a skew Omega (eigenvalues 1 - i h w / 2) */
    gsl_matrix_memcpy(K, Omega);
    gsl_matrix_scale(K, -0.5 * h);
    for (size_t i = 0; i < n; i++)
        *gsl_matrix_ptr(K, i, i) += 1.0;
    int signum;
    gsl_linalg_LU_decomp(K, pm, &signum);
    /* Y = K^-1 (I + h Omega / 2), column by column */
    for (size_t j = 0; j < n; j++) {
        for (size_t i = 0; i < n; i++)
            gsl_vector_set(col, i, 0.5 * h * gsl_matrix_get(Omega, i, j) + (i == j ? 1.0 : 0.0));
        gsl_linalg_LU_svx(K, pm, col);
        gsl_matrix_set_col(Y, j, col);
    }
    gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, Q, Y, 0.0, Qnew);
done:
    gsl_vector_free(col);
    gsl_permutation_free(pm);
    gsl_matrix_free(Y);
    gsl_matrix_free(K);
    return st;
    /* EXERCISE 07.4 STUB
    (void)Q; (void)Omega; (void)h; (void)Qnew;
    EXERCISE 07.4 END */
}
