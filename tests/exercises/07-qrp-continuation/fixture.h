/* Helpers for chapter 07's exercise tests, written independently of the code
 * under test: a seeded generator, random matrices of known rank and known
 * singular values, random orthogonal matrices, measures of orthonormality,
 * of A T and of the distance between two spans, the Jacobians of planar bar
 * mechanisms (the 4-bar of Table 5.1 and its modifications) built from their
 * pins, and an orthogonal Procrustes alignment of the tests' own.
 */
#ifndef EX07_FIXTURE_H
#define EX07_FIXTURE_H

#include <math.h>
#include <string.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_math.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_permutation.h>
#include <gsl/gsl_vector.h>

#include "ex07.h"

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

/* the same entries (NaN matching NaN) */
static inline int fx_matrix_same(const gsl_matrix *A, const gsl_matrix *B)
{
    if (A->size1 != B->size1 || A->size2 != B->size2)
        return 0;
    for (size_t i = 0; i < A->size1; i++)
        for (size_t j = 0; j < A->size2; j++)
            if (!(gsl_matrix_get(A, i, j) == gsl_matrix_get(B, i, j))
                && !(isnan(gsl_matrix_get(A, i, j)) && isnan(gsl_matrix_get(B, i, j))))
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

/* a random n x k matrix with orthonormal columns (Householder QR of a random
 * matrix; k <= n) */
static inline gsl_matrix *fx_orthonormal(fx_rng *g, size_t n, size_t k)
{
    gsl_matrix *X = fx_random(g, n, n), *Q = gsl_matrix_alloc(n, n), *R = gsl_matrix_alloc(n, n);
    gsl_vector *tau = gsl_vector_alloc(n);
    gsl_linalg_QR_decomp(X, tau);
    gsl_linalg_QR_unpack(X, tau, Q, R);
    gsl_matrix *B = gsl_matrix_alloc(n, k);
    gsl_matrix_const_view Qk = gsl_matrix_const_submatrix(Q, 0, 0, n, k);
    gsl_matrix_memcpy(B, &Qk.matrix);
    gsl_vector_free(tau);
    gsl_matrix_free(R);
    gsl_matrix_free(Q);
    gsl_matrix_free(X);
    return B;
}

/* A B, allocated */
static inline gsl_matrix *fx_mul(const gsl_matrix *A, CBLAS_TRANSPOSE_t ta, const gsl_matrix *B,
                                 CBLAS_TRANSPOSE_t tb)
{
    const size_t m = ta == CblasNoTrans ? A->size1 : A->size2;
    const size_t n = tb == CblasNoTrans ? B->size2 : B->size1;
    gsl_matrix *C = gsl_matrix_alloc(m, n);
    gsl_blas_dgemm(ta, tb, 1.0, A, B, 0.0, C);
    return C;
}

/* m x n of rank r (0 < r <= min(m, n)) with the singular values s[0..r-1]:
 * U diag(s) V^T, U and V random with orthonormal columns */
static inline gsl_matrix *fx_with_singular_values(fx_rng *g, size_t m, size_t n, size_t r,
                                                  const double s[])
{
    gsl_matrix *U = fx_orthonormal(g, m, r), *V = fx_orthonormal(g, n, r);
    for (size_t j = 0; j < r; j++) {
        gsl_vector_view c = gsl_matrix_column(U, j);
        gsl_vector_scale(&c.vector, s[j]);
    }
    gsl_matrix *A = fx_mul(U, CblasNoTrans, V, CblasTrans);
    gsl_matrix_free(V);
    gsl_matrix_free(U);
    return A;
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

static inline double fx_frobenius(const gsl_matrix *A)
{
    double v = 0.0;
    for (size_t i = 0; i < A->size1; i++)
        for (size_t j = 0; j < A->size2; j++)
            v += gsl_matrix_get(A, i, j) * gsl_matrix_get(A, i, j);
    return sqrt(v);
}

/* max |(X^T X - I)_ij|; NaN entries give NaN */
static inline double fx_orth_error(const gsl_matrix *X)
{
    gsl_matrix *G = fx_mul(X, CblasTrans, X, CblasNoTrans);
    double e = 0.0;
    for (size_t i = 0; i < G->size1; i++)
        for (size_t j = 0; j < G->size2; j++) {
            const double d = fabs(gsl_matrix_get(G, i, j) - (i == j ? 1.0 : 0.0));
            e = isnan(d) ? NAN : fmax(e, d);
        }
    gsl_matrix_free(G);
    return e;
}

/* |A T|_F */
static inline double fx_AT_norm(const gsl_matrix *A, const gsl_matrix *T)
{
    gsl_matrix *AT = fx_mul(A, CblasNoTrans, T, CblasNoTrans);
    const double v = fx_frobenius(AT);
    gsl_matrix_free(AT);
    return v;
}

/* max |(X X^T - Y Y^T)_ij|: 0 when X and Y (orthonormal columns) span the
 * same space, whatever bases they are */
static inline double fx_span_distance(const gsl_matrix *X, const gsl_matrix *Y)
{
    gsl_matrix *P = fx_mul(X, CblasNoTrans, X, CblasTrans);
    gsl_matrix *S = fx_mul(Y, CblasNoTrans, Y, CblasTrans);
    gsl_matrix_sub(P, S);
    const double v = fx_max_abs(P);
    gsl_matrix_free(S);
    gsl_matrix_free(P);
    return v;
}

/* max |X - Y| */
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

/* ------------------------------------------------------------------------ */
/* Planar bar mechanisms                                                     */

/* Bar b has the coordinates (x_b, y_b, theta_b) of its centre of mass and its
 * angle, columns 3b, 3b+1, 3b+2. The point at the signed distance s from the
 * centre along the bar is at (x + s cos theta, y + s sin theta). A pin joins
 * the point s_i of bar i to the point s_j of bar j, or, when j < 0, to the
 * fixed point P: two rows of the Jacobian,
 *     d/dx_i = (1, 0), d/dy_i = (0, 1), d/dtheta_i = s_i (-sin theta_i, cos theta_i),
 * and the same with a minus sign for bar j. */
typedef struct {
    int i;
    double s_i;
    int j;        /* < 0: the ground */
    double s_j;
} fx_pin;

static inline void fx_bars_jacobian(size_t nbars, const double theta[], size_t npins,
                                    const fx_pin pins[], gsl_matrix *A)
{
    (void)nbars;
    gsl_matrix_set_zero(A);
    for (size_t k = 0; k < npins; k++) {
        const fx_pin *p = &pins[k];
        const size_t r = 2 * k;
        const size_t ci = 3 * (size_t)p->i;
        gsl_matrix_set(A, r, ci, 1.0);
        gsl_matrix_set(A, r + 1, ci + 1, 1.0);
        gsl_matrix_set(A, r, ci + 2, -p->s_i * sin(theta[p->i]));
        gsl_matrix_set(A, r + 1, ci + 2, p->s_i * cos(theta[p->i]));
        if (p->j >= 0) {
            const size_t cj = 3 * (size_t)p->j;
            gsl_matrix_set(A, r, cj, -1.0);
            gsl_matrix_set(A, r + 1, cj + 1, -1.0);
            gsl_matrix_set(A, r, cj + 2, p->s_j * sin(theta[p->j]));
            gsl_matrix_set(A, r + 1, cj + 2, -p->s_j * cos(theta[p->j]));
        }
    }
}

/* The 4-bar of Sec. 5.2 (three bars of 1 m; ground pivots A = (0, 0) and
 * C = (1, 0)): bar 0 the crank at A, bar 1 the coupler, bar 2 the crank at C.
 * On the parallelogram branch both cranks are at theta and the coupler at 0:
 * B = (cos theta, sin theta), D = B + (1, 0) = C + (cos theta, sin theta).
 * 8 rows (pins A, B, C, D), 9 columns. */
static const fx_pin FX_FOURBAR[] = {
    {0, -0.5, -1, 0.0}, {0, 0.5, 1, -0.5}, {2, -0.5, -1, 0.0}, {2, 0.5, 1, 0.5}};

static inline void fx_fourbar(double theta, gsl_matrix *A)
{
    const double th[3] = {theta, 0.0, theta};
    fx_bars_jacobian(3, th, 4, FX_FOURBAR, A);
}

/* The modified 2 4-bar of Sec. 5.4: cranks (1 m) at (0, 0), (1, 0), (2, 0)
 * (bars 0, 2, 3) and one coupler of 2 m (bar 1) pinned to their tips at
 * s = -1, 0, 1: 12 rows, 12 columns. */
static const fx_pin FX_MOD2[] = {{0, -0.5, -1, 0.0}, {0, 0.5, 1, -1.0}, {2, -0.5, -1, 0.0},
                                 {2, 0.5, 1, 0.0},   {3, -0.5, -1, 0.0}, {3, 0.5, 1, 1.0}};

static inline void fx_mod2(double theta, gsl_matrix *A)
{
    const double th[4] = {theta, 0.0, theta, theta};
    fx_bars_jacobian(4, th, 6, FX_MOD2, A);
}

/* The modified 3 4-bar of Sec. 5.6: cranks at (0, 0) ... (3, 0) (bars 0, 2,
 * 3, 4) and one coupler of 3 m (bar 1) pinned to their tips at
 * s = -1.5, -0.5, 0.5, 1.5: 16 rows, 15 columns. */
static const fx_pin FX_MOD3[] = {{0, -0.5, -1, 0.0}, {0, 0.5, 1, -1.5}, {2, -0.5, -1, 0.0},
                                 {2, 0.5, 1, -0.5},  {3, -0.5, -1, 0.0}, {3, 0.5, 1, 0.5},
                                 {4, -0.5, -1, 0.0}, {4, 0.5, 1, 1.5}};

static inline void fx_mod3(double theta, gsl_matrix *A)
{
    const double th[5] = {theta, 0.0, theta, theta, theta};
    fx_bars_jacobian(5, th, 8, FX_MOD3, A);
}

/* The parallelogram motion of these mechanisms at unit crank speed: every
 * crank (all bars but bar 1) turns about its ground pivot, its centre at
 * (-sin, cos) theta / 2, the coupler (bar 1) translates with the crank tips. */
static inline void fx_parallelogram(size_t nbars, double theta, double v[])
{
    for (size_t b = 0; b < nbars; b++) {
        const double f = b == 1 ? 1.0 : 0.5;
        v[3 * b] = -f * sin(theta);
        v[3 * b + 1] = f * cos(theta);
        v[3 * b + 2] = b == 1 ? 0.0 : 1.0;
    }
}

/* ------------------------------------------------------------------------ */
/* The tests' own factorisation and alignment                                */

/* A^T P = Q R by GSL (Q n x n, R n x m, perm of size m, all allocated by the
 * caller) */
static inline void fx_qrpt(const gsl_matrix *A, gsl_matrix *Q, gsl_matrix *R,
                           gsl_permutation *perm)
{
    const size_t m = A->size1, n = A->size2, p = m < n ? m : n;
    gsl_matrix *QR = gsl_matrix_alloc(n, m);
    gsl_vector *tau = gsl_vector_alloc(p), *norm = gsl_vector_alloc(m);
    int signum;
    gsl_matrix_transpose_memcpy(QR, A);
    gsl_linalg_QRPT_decomp(QR, tau, perm, &signum, norm);
    gsl_linalg_QR_unpack(QR, tau, Q, R);
    gsl_vector_free(norm);
    gsl_vector_free(tau);
    gsl_matrix_free(QR);
}

/* the orthonormal basis of the null space of A at rank r: the last n - r
 * columns of the pivoted Q (allocated) */
static inline gsl_matrix *fx_null_basis(const gsl_matrix *A, size_t r)
{
    const size_t m = A->size1, n = A->size2;
    gsl_matrix *Q = gsl_matrix_alloc(n, n), *R = gsl_matrix_alloc(n, m);
    gsl_permutation *perm = gsl_permutation_alloc(m);
    fx_qrpt(A, Q, R, perm);
    gsl_matrix *T = gsl_matrix_alloc(n, n - r);
    gsl_matrix_const_view Q2 = gsl_matrix_const_submatrix(Q, 0, r, n, n - r);
    gsl_matrix_memcpy(T, &Q2.matrix);
    gsl_permutation_free(perm);
    gsl_matrix_free(R);
    gsl_matrix_free(Q);
    return T;
}

/* T <- T U, U orthogonal minimising |Tref^T T U - I|_F: with the SVD
 * Tref^T T = W S V^T, U = V W^T (the orthogonal Procrustes problem) */
static inline void fx_procrustes(const gsl_matrix *Tref, gsl_matrix *T)
{
    const size_t n = T->size1, k = T->size2;
    gsl_matrix *C = fx_mul(Tref, CblasTrans, T, CblasNoTrans);
    gsl_matrix *V = gsl_matrix_alloc(k, k);
    gsl_vector *S = gsl_vector_alloc(k), *work = gsl_vector_alloc(k);
    gsl_linalg_SV_decomp(C, V, S, work);
    gsl_matrix *U = fx_mul(V, CblasNoTrans, C, CblasTrans);
    gsl_matrix *TU = fx_mul(T, CblasNoTrans, U, CblasNoTrans);
    gsl_matrix_memcpy(T, TU);
    (void)n;
    gsl_matrix_free(TU);
    gsl_matrix_free(U);
    gsl_vector_free(work);
    gsl_vector_free(S);
    gsl_matrix_free(V);
    gsl_matrix_free(C);
}

#endif
