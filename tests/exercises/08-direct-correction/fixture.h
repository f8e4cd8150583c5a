/* Helpers for chapter 08's exercise tests, written independently of the code
 * under test: a seeded generator, matrix measures, and the minimum-norm step
 * in a metric computed another way than the contract's formula -- by a QR
 * factorisation of the transposed Jacobian in variables scaled by the
 * Cholesky factor of M, never by forming J W J^T.
 */
#ifndef EX08_FIXTURE_H
#define EX08_FIXTURE_H

#include <math.h>
#include <string.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_math.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

#include "ex08.h"

/* a value no function writes: outputs are filled with it to see what was left
 * alone on an error */
#define FX_SENTINEL 12345.678

static inline int fx_all_equal(const double *x, size_t n, double v)
{
    for (size_t i = 0; i < n; i++)
        if (!(x[i] == v))
            return 0;
    return 1;
}

static inline int fx_matrix_all_equal(const gsl_matrix *A, double v)
{
    for (size_t i = 0; i < A->size1; i++)
        for (size_t j = 0; j < A->size2; j++)
            if (!(gsl_matrix_get(A, i, j) == v))
                return 0;
    return 1;
}

static inline int fx_vector_all_equal(const gsl_vector *x, double v)
{
    for (size_t i = 0; i < x->size; i++)
        if (!(gsl_vector_get(x, i) == v))
            return 0;
    return 1;
}

/* ------------------------------------------------------------------------ */
/* A seeded generator (a 64-bit LCG): the same numbers on every machine      */

typedef struct {
    unsigned long long s;
} fx_rng;

/* uniform in (-1, 1) */
static inline double fx_uniform(fx_rng *g)
{
    g->s = g->s * 6364136223846793005ULL + 1442695040888963407ULL;
    return ((double)(g->s >> 11) + 0.5) / 9007199254740992.0 * 2.0 - 1.0;
}

static inline gsl_matrix *fx_random(fx_rng *g, size_t m, size_t n)
{
    gsl_matrix *A = gsl_matrix_alloc(m, n);
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < n; j++)
            gsl_matrix_set(A, i, j, fx_uniform(g));
    return A;
}

static inline gsl_vector *fx_random_vector(fx_rng *g, size_t n)
{
    gsl_vector *x = gsl_vector_alloc(n);
    for (size_t i = 0; i < n; i++)
        gsl_vector_set(x, i, fx_uniform(g));
    return x;
}

/* a random symmetric positive definite n x n matrix, not diagonal, with
 * eigenvalues spread over [lo, hi]: Q diag Q^T */
static inline gsl_matrix *fx_spd(fx_rng *g, size_t n, double lo, double hi)
{
    gsl_matrix *X = fx_random(g, n, n), *Q = gsl_matrix_alloc(n, n), *R = gsl_matrix_alloc(n, n);
    gsl_vector *tau = gsl_vector_alloc(n);
    gsl_linalg_QR_decomp(X, tau);
    gsl_linalg_QR_unpack(X, tau, Q, R);
    gsl_matrix *M = gsl_matrix_calloc(n, n);
    for (size_t k = 0; k < n; k++) {
        const double lam = n == 1 ? hi : lo + (hi - lo) * (double)k / (double)(n - 1);
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j < n; j++)
                *gsl_matrix_ptr(M, i, j) += lam * gsl_matrix_get(Q, i, k) * gsl_matrix_get(Q, j, k);
    }
    /* exactly symmetric */
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < i; j++)
            gsl_matrix_set(M, j, i, gsl_matrix_get(M, i, j));
    gsl_vector_free(tau);
    gsl_matrix_free(R);
    gsl_matrix_free(Q);
    gsl_matrix_free(X);
    return M;
}

/* the largest |entry| */
static inline double fx_max_abs(const gsl_matrix *A)
{
    double v = 0.0;
    for (size_t i = 0; i < A->size1; i++)
        for (size_t j = 0; j < A->size2; j++)
            v = fmax(v, fabs(gsl_matrix_get(A, i, j)));
    return v;
}

static inline double fx_vmax_abs(const gsl_vector *x)
{
    double v = 0.0;
    for (size_t i = 0; i < x->size; i++)
        v = fmax(v, fabs(gsl_vector_get(x, i)));
    return v;
}

/* max |X - Y| (NaN when an entry is NaN) */
static inline double fx_max_diff(const gsl_matrix *X, const gsl_matrix *Y)
{
    double v = 0.0;
    for (size_t i = 0; i < X->size1; i++)
        for (size_t j = 0; j < X->size2; j++) {
            const double d = fabs(gsl_matrix_get(X, i, j) - gsl_matrix_get(Y, i, j));
            v = isnan(d) ? NAN : fmax(v, d);
        }
    return v;
}

static inline double fx_vmax_diff(const gsl_vector *x, const gsl_vector *y)
{
    double v = 0.0;
    for (size_t i = 0; i < x->size; i++) {
        const double d = fabs(gsl_vector_get(x, i) - gsl_vector_get(y, i));
        v = isnan(d) ? NAN : fmax(v, d);
    }
    return v;
}

/* the weight of x in the metric of W^-1 for the blocks of M (M NULL: the
 * Euclidean |x|^2; else x^T diag(M, ..., M) x) */
static inline double fx_wnorm2(const gsl_matrix *M, const gsl_vector *x)
{
    double s = 0.0;
    if (M == NULL) {
        for (size_t i = 0; i < x->size; i++)
            s += gsl_vector_get(x, i) * gsl_vector_get(x, i);
        return s;
    }
    const size_t n = M->size1;
    for (size_t b = 0; b < x->size / n; b++)
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j < n; j++)
                s += gsl_vector_get(x, b * n + i) * gsl_matrix_get(M, i, j)
                     * gsl_vector_get(x, b * n + j);
    return s;
}

/* x^T diag(M, ..) y (M NULL: x . y) */
static inline double fx_winner(const gsl_matrix *M, const gsl_vector *x, const gsl_vector *y)
{
    double s = 0.0;
    if (M == NULL) {
        for (size_t i = 0; i < x->size; i++)
            s += gsl_vector_get(x, i) * gsl_vector_get(y, i);
        return s;
    }
    const size_t n = M->size1;
    for (size_t b = 0; b < x->size / n; b++)
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j < n; j++)
                s += gsl_vector_get(x, b * n + i) * gsl_matrix_get(M, i, j)
                     * gsl_vector_get(y, b * n + j);
    return s;
}

/* ------------------------------------------------------------------------ */
/* The reference step                                                        */

/* The dx with J dx = -r of least x^T diag(M, ..) x (M NULL: Euclidean), J
 * (R x N, R <= N) of full row rank: with M = L L^T and z = diag(L^T) dx the
 * problem is the Euclidean one for K = J diag(L^-T); K^T = Q [S; 0] by QR,
 * so K z = S^T Q1^T z = -r gives z = -Q1 S^-T r, and dx = diag(L^-T) z.
 * 0 on success. */
static inline int fx_reference_step(const gsl_matrix *J, const gsl_vector *r, const gsl_matrix *M,
                                    gsl_vector *dx)
{
    const size_t R = J->size1, N = J->size2, n = M ? M->size1 : N;
    gsl_matrix *Kt = gsl_matrix_alloc(N, R);
    gsl_matrix_transpose_memcpy(Kt, J);
    gsl_matrix *L = NULL;
    if (M != NULL) {
        L = gsl_matrix_alloc(n, n);
        gsl_matrix_memcpy(L, M);
        gsl_linalg_cholesky_decomp1(L);
        /* rows of K^T = L^-1 (J^T) per block: L z = j */
        for (size_t k = 0; k < R; k++)
            for (size_t b = 0; b < N / n; b++) {
                gsl_vector_view c = gsl_matrix_subcolumn(Kt, k, b * n, n);
                gsl_blas_dtrsv(CblasLower, CblasNoTrans, CblasNonUnit, L, &c.vector);
            }
    }
    gsl_vector *tau = gsl_vector_alloc(R);
    gsl_matrix *Q = gsl_matrix_alloc(N, N), *S = gsl_matrix_alloc(N, R);
    gsl_linalg_QR_decomp(Kt, tau);
    gsl_linalg_QR_unpack(Kt, tau, Q, S);
    /* w = -S1^-T r (S1 the upper R x R block), z = Q1 w */
    gsl_vector *w = gsl_vector_alloc(R);
    gsl_vector_memcpy(w, r);
    gsl_vector_scale(w, -1.0);
    gsl_matrix_view S1 = gsl_matrix_submatrix(S, 0, 0, R, R);
    int ok = 1;
    for (size_t i = 0; i < R; i++)
        if (!(fabs(gsl_matrix_get(&S1.matrix, i, i)) > 0))
            ok = 0;
    if (ok) {
        gsl_blas_dtrsv(CblasUpper, CblasTrans, CblasNonUnit, &S1.matrix, w);
        gsl_matrix_view Q1 = gsl_matrix_submatrix(Q, 0, 0, N, R);
        gsl_blas_dgemv(CblasNoTrans, 1.0, &Q1.matrix, w, 0.0, dx);
        if (L != NULL)
            for (size_t b = 0; b < N / n; b++) {
                gsl_vector_view c = gsl_vector_subvector(dx, b * n, n);
                gsl_blas_dtrsv(CblasLower, CblasTrans, CblasNonUnit, L, &c.vector);
            }
    }
    gsl_vector_free(w);
    gsl_matrix_free(S);
    gsl_matrix_free(Q);
    gsl_vector_free(tau);
    gsl_matrix_free(L);
    gsl_matrix_free(Kt);
    return ok ? 0 : -1;
}

#endif
