/* lib/src/dense.c -- small dense kernels in loops, larger ones by GSL (see
 * dense.h). */
#include <math.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>

#include "dense.h"

#define AT(m, i, j) ((m)->data[(i) * (m)->tda + (j)])
#define VAT(v, i) ((v)->data[(i) * (v)->stride])

static int small2(size_t a, size_t b) { return a <= MBD_DENSE_SMALL && b <= MBD_DENSE_SMALL; }

/* The loops keep the order of operations of GSL's reference CBLAS and of
 * gsl_linalg_cholesky_decomp1 (its unblocked gaxpy form, which GSL itself
 * uses at these sizes), so a result is the same to the last bit whichever
 * path computes it: a stiff run that amplifies round-off takes the same steps
 * either way. tests/lib/test_dense.c checks this bit for bit. */

/* y <- beta y (0: y not read) */
static void scale_vector(gsl_vector *y, double beta)
{
    if (beta == 1.0)
        return;
    for (size_t i = 0; i < y->size; i++)
        VAT(y, i) = beta == 0.0 ? 0.0 : beta * VAT(y, i);
}

int mbd_dense_gemv(CBLAS_TRANSPOSE_t trans, double alpha, const gsl_matrix *A, const gsl_vector *x,
                   double beta, gsl_vector *y)
{
    const int t = trans != CblasNoTrans;
    const size_t rows = t ? A->size2 : A->size1, cols = t ? A->size1 : A->size2;
    if (!small2(A->size1, A->size2) || x->size != cols || y->size != rows)
        return gsl_blas_dgemv(trans, alpha, A, x, beta, y);
    if (alpha == 0.0) {
        scale_vector(y, beta);
        return GSL_SUCCESS;
    }
    if (!t) {
        /* y_i = beta y_i + alpha (a_i . x): the scaling and the update of
         * GSL's two passes, in one (every output's C' = C_q q' comes here) */
        const double *a = A->data, *xd = x->data;
        const size_t tda = A->tda, xs = x->stride, ys = y->stride;
        for (size_t i = 0; i < rows; i++, a += tda) {
            double s = 0.0;
            for (size_t j = 0; j < cols; j++)
                s += xd[j * xs] * a[j];
            double *yi = y->data + i * ys;
            *yi = (beta == 0.0 ? 0.0 : beta == 1.0 ? *yi : beta * *yi) + alpha * s;
        }
    } else {
        scale_vector(y, beta);
        for (size_t j = 0; j < cols; j++) {
            const double a = alpha * VAT(x, j);
            if (a != 0.0)
                for (size_t i = 0; i < rows; i++)
                    VAT(y, i) += a * AT(A, j, i);
        }
    }
    return GSL_SUCCESS;
}

int mbd_dense_gemm(CBLAS_TRANSPOSE_t ta, CBLAS_TRANSPOSE_t tb, double alpha, const gsl_matrix *A,
                   const gsl_matrix *B, double beta, gsl_matrix *C)
{
    const int at = ta != CblasNoTrans, bt = tb != CblasNoTrans;
    const size_t m = at ? A->size2 : A->size1, kk = at ? A->size1 : A->size2;
    const size_t n = bt ? B->size1 : B->size2, kb = bt ? B->size2 : B->size1;
    if (!small2(A->size1, A->size2) || !small2(B->size1, B->size2) || kk != kb || C->size1 != m
        || C->size2 != n)
        return gsl_blas_dgemm(ta, tb, alpha, A, B, beta, C);
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < n; j++)
            AT(C, i, j) = beta == 0.0 ? 0.0 : beta == 1.0 ? AT(C, i, j) : beta * AT(C, i, j);
    if (alpha == 0.0)
        return GSL_SUCCESS;
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < n; j++) {
            if (!bt) {   /* term by term, each alpha a_ik first */
                for (size_t l = 0; l < kk; l++) {
                    const double a = alpha * (at ? AT(A, l, i) : AT(A, i, l));
                    if (a != 0.0)
                        AT(C, i, j) += a * AT(B, l, j);
                }
            } else {     /* a dot product, then alpha */
                double s = 0.0;
                for (size_t l = 0; l < kk; l++)
                    s += (at ? AT(A, l, i) : AT(A, i, l)) * AT(B, j, l);
                AT(C, i, j) += alpha * s;
            }
        }
    return GSL_SUCCESS;
}

double mbd_dense_nrm2(const gsl_vector *x)
{
    const size_t n = x->size;
    if (n == 0)
        return 0.0;
    if (n == 1)
        return fabs(VAT(x, 0));
    /* scaled: neither overflows nor underflows */
    double scale = 0.0, ssq = 1.0;
    for (size_t i = 0; i < n; i++) {
        const double v = VAT(x, i);
        if (v != 0.0) {
            const double a = fabs(v);
            if (scale < a) {
                ssq = 1.0 + ssq * (scale / a) * (scale / a);
                scale = a;
            } else {
                ssq += (a / scale) * (a / scale);
            }
        }
    }
    return scale * sqrt(ssq);
}

int mbd_dense_cholesky(gsl_matrix *A)
{
    const size_t n = A->size1;
    if (A->size2 != n)
        return GSL_ENOTSQR;
    if (n > MBD_DENSE_SMALL)
        return gsl_linalg_cholesky_decomp1(A);
    /* the original matrix kept in the upper triangle, as GSL keeps it */
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++)
            AT(A, i, j) = AT(A, j, i);
    for (size_t j = 0; j < n; j++) {
        for (size_t i = j; j > 0 && i < n; i++) {
            double s = 0.0;
            for (size_t k = 0; k < j; k++)
                s += AT(A, j, k) * AT(A, i, k);
            AT(A, i, j) += -1.0 * s;
        }
        const double d = AT(A, j, j);
        if (!(d > 0.0) || !isfinite(d))
            return GSL_EDOM;
        const double r = 1.0 / sqrt(d);
        for (size_t i = j; i < n; i++)
            AT(A, i, j) *= r;
    }
    return GSL_SUCCESS;
}

/* L L^T x = b for one column: forward, then backward substitution; the
 * backward sums run up (as dtrsv) or down (as dtrsm) */
static void solve_column(const gsl_matrix *L, double *x, size_t stride, int down)
{
    const size_t n = L->size1;
    for (size_t i = 0; i < n; i++) {
        double s = x[i * stride];
        for (size_t k = 0; k < i; k++)
            s -= AT(L, i, k) * x[k * stride];
        x[i * stride] = s / AT(L, i, i);
    }
    for (size_t i = n; i-- > 0;) {
        double s = x[i * stride];
        if (down)
            for (size_t k = n; k-- > i + 1;)
                s -= AT(L, k, i) * x[k * stride];
        else
            for (size_t k = i + 1; k < n; k++)
                s -= AT(L, k, i) * x[k * stride];
        x[i * stride] = s / AT(L, i, i);
    }
}

int mbd_dense_cholesky_svx(const gsl_matrix *L, gsl_vector *x)
{
    if (L->size1 > MBD_DENSE_SMALL || x->size != L->size1)
        return gsl_linalg_cholesky_svx(L, x);
    solve_column(L, x->data, x->stride, 0);
    return GSL_SUCCESS;
}

int mbd_dense_cholesky_svx_mat(const gsl_matrix *L, gsl_matrix *X)
{
    if (L->size1 > MBD_DENSE_SMALL || X->size1 != L->size1)
        return gsl_linalg_cholesky_svx_mat(L, X);
    for (size_t j = 0; j < X->size2; j++)
        solve_column(L, X->data + j, X->tda, 1);
    return GSL_SUCCESS;
}

int mbd_dense_cholesky_solve(const gsl_matrix *L, const gsl_vector *b, gsl_vector *x)
{
    if (L->size1 > MBD_DENSE_SMALL || b->size != L->size1 || x->size != L->size1)
        return gsl_linalg_cholesky_solve(L, b, x);
    if (x != b)
        gsl_vector_memcpy(x, b);
    solve_column(L, x->data, x->stride, 0);
    return GSL_SUCCESS;
}
