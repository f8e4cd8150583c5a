/* linsolve.c -- the pattern, the dense kind (GSL's LU with a 1-norm
 * condition estimate) and the dispatch to the sparse kind (linsolve_klu.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>

#include "linsolve_impl.h"
#include "mbd/error.h"

const char *mbd_linsolve_kind_name(mbd_linsolve_kind kind)
{
    return kind == MBD_LINSOLVE_SPARSE ? "sparse" : "dense";
}

int mbd_linsolve_kind_of(const char *name, mbd_linsolve_kind *kind)
{
    if (name != NULL && strcmp(name, "dense") == 0)
        *kind = MBD_LINSOLVE_DENSE;
    else if (name != NULL && strcmp(name, "sparse") == 0)
        *kind = MBD_LINSOLVE_SPARSE;
    else
        return GSL_EINVAL;
    return GSL_SUCCESS;
}

mbd_linsolve *mbd_linsolve_alloc(mbd_linsolve_kind kind, size_t n, size_t nnz,
                                 const size_t *rows, const size_t *cols)
{
    if (n == 0 || nnz == 0 || rows == NULL || cols == NULL
        || (kind != MBD_LINSOLVE_DENSE && kind != MBD_LINSOLVE_SPARSE))
        return NULL;
    for (size_t k = 0; k < nnz; k++)
        if (rows[k] >= n || cols[k] >= n)
            return NULL;
    mbd_linsolve *ls = calloc(1, sizeof *ls);
    if (ls == NULL)
        return NULL;
    ls->kind = kind;
    ls->n = n;
    ls->nnz = nnz;
    ls->rcond = NAN;
    ls->rows = malloc(nnz * sizeof *ls->rows);
    ls->cols = malloc(nnz * sizeof *ls->cols);
    int ok = ls->rows != NULL && ls->cols != NULL;
    if (ok) {
        memcpy(ls->rows, rows, nnz * sizeof *rows);
        memcpy(ls->cols, cols, nnz * sizeof *cols);
    }
    if (ok && kind == MBD_LINSOLVE_DENSE) {
        ls->A = gsl_matrix_alloc(n, n);
        ls->perm = gsl_permutation_alloc(n);
        ls->work = gsl_vector_alloc(n);
        ls->work2 = gsl_vector_alloc(n);
        ls->work3 = gsl_vector_alloc(n);
        ok = ls->A && ls->perm && ls->work && ls->work2 && ls->work3;
    } else if (ok) {
        ok = mbd_linsolve_sparse_setup(ls) == GSL_SUCCESS;
    }
    if (!ok) {
        mbd_linsolve_free(ls);
        return NULL;
    }
    return ls;
}

void mbd_linsolve_free(mbd_linsolve *ls)
{
    if (ls == NULL)
        return;
    if (ls->kind == MBD_LINSOLVE_SPARSE)
        mbd_linsolve_sparse_free(ls);
    if (ls->A)
        gsl_matrix_free(ls->A);
    if (ls->perm)
        gsl_permutation_free(ls->perm);
    if (ls->work)
        gsl_vector_free(ls->work);
    if (ls->work2)
        gsl_vector_free(ls->work2);
    if (ls->work3)
        gsl_vector_free(ls->work3);
    free(ls->rows);
    free(ls->cols);
    free(ls);
}

mbd_linsolve_kind mbd_linsolve_kind_get(const mbd_linsolve *ls) { return ls->kind; }
size_t mbd_linsolve_size(const mbd_linsolve *ls) { return ls->n; }
size_t mbd_linsolve_nnz(const mbd_linsolve *ls) { return ls->nnz; }
double mbd_linsolve_rcond(const mbd_linsolve *ls) { return ls->rcond; }
size_t mbd_linsolve_factorisations(const mbd_linsolve *ls) { return ls->factorisations; }
size_t mbd_linsolve_refactorisations(const mbd_linsolve *ls) { return ls->refactorisations; }

/* ------------------------------------------------------------------------ */
/* The dense kind                                                            */

/* z := A^-T z from PA = LU: A^T = U^T L^T P, so U^T s = z, L^T u = s, and
 * z = P^T u (z[p[i]] = u[i]); work2 holds u */
static void lu_solve_transposed(const mbd_linsolve *ls, gsl_vector *z, gsl_vector *u)
{
    gsl_blas_dtrsv(CblasUpper, CblasTrans, CblasNonUnit, ls->A, z);
    gsl_blas_dtrsv(CblasLower, CblasTrans, CblasUnit, ls->A, z);
    gsl_vector_memcpy(u, z);
    for (size_t i = 0; i < ls->n; i++)
        gsl_vector_set(z, gsl_permutation_get(ls->perm, i), gsl_vector_get(u, i));
}

/* ||A^-1||_1 estimated from the LU factors by Hager's method (Higham's
 * refinement of the sign vector), at most five pairs of solves */
static double inverse_norm1(const mbd_linsolve *ls, gsl_vector *x, gsl_vector *z,
                            gsl_vector *u)
{
    const size_t n = ls->n;
    gsl_vector_set_all(x, 1.0 / (double)n);
    double est = 0.0;
    size_t jlast = n;
    for (int it = 0; it < 5; it++) {
        gsl_linalg_LU_svx(ls->A, ls->perm, x);   /* x := A^-1 x */
        double norm = 0.0;
        for (size_t i = 0; i < n; i++) {
            const double v = gsl_vector_get(x, i);
            norm += fabs(v);
            gsl_vector_set(z, i, v >= 0 ? 1.0 : -1.0);
        }
        if (it > 0 && norm <= est)
            break;
        est = norm;
        /* z := A^-T sign(x); the next x is the unit vector at max |z| */
        lu_solve_transposed(ls, z, u);
        size_t j = 0;
        for (size_t i = 1; i < n; i++)
            if (fabs(gsl_vector_get(z, i)) > fabs(gsl_vector_get(z, j)))
                j = i;
        if (j == jlast)
            break;
        jlast = j;
        gsl_vector_set_basis(x, j);
    }
    return est;
}

static int dense_factor(mbd_linsolve *ls, const double *values)
{
    gsl_matrix_set_zero(ls->A);
    for (size_t k = 0; k < ls->nnz; k++) {
        if (!isfinite(values[k]))
            return MBD_ENONFINITE;
        double *a = gsl_matrix_ptr(ls->A, ls->rows[k], ls->cols[k]);
        *a += values[k];
    }
    /* a sum of finite values can overflow */
    for (size_t i = 0; i < ls->n; i++)
        for (size_t j = 0; j < ls->n; j++)
            if (!isfinite(gsl_matrix_get(ls->A, i, j)))
                return MBD_ENONFINITE;
    double anorm = 0.0;
    for (size_t j = 0; j < ls->n; j++) {
        double c = 0.0;
        for (size_t i = 0; i < ls->n; i++)
            c += fabs(gsl_matrix_get(ls->A, i, j));
        anorm = fmax(anorm, c);
    }
    int signum;
    gsl_linalg_LU_decomp(ls->A, ls->perm, &signum);
    for (size_t i = 0; i < ls->n; i++)
        if (gsl_matrix_get(ls->A, i, i) == 0.0) {
            ls->rcond = 0.0;
            return MBD_ESINGULAR;
        }
    const double inv = inverse_norm1(ls, ls->work, ls->work2, ls->work3);
    ls->rcond = anorm > 0 && inv > 0 ? 1.0 / (anorm * inv) : 0.0;
    return ls->rcond < MBD_LINSOLVE_RCOND_MIN ? MBD_ESINGULAR : GSL_SUCCESS;
}

/* ------------------------------------------------------------------------ */
/* Dispatch                                                                  */

static int factor(mbd_linsolve *ls, const double *values, int reuse)
{
    if (ls == NULL || values == NULL)
        return GSL_EINVAL;
    ls->factored = 0;
    int st = ls->kind == MBD_LINSOLVE_DENSE ? dense_factor(ls, values)
                                            : mbd_linsolve_sparse_factor(ls, values, reuse);
    if (ls->kind == MBD_LINSOLVE_DENSE) {
        if (reuse)
            ls->refactorisations++;
        else
            ls->factorisations++;
    }
    ls->factored = st == GSL_SUCCESS;
    return st;
}

int mbd_linsolve_factor(mbd_linsolve *ls, const double *values)
{
    return factor(ls, values, 0);
}

int mbd_linsolve_refactor(mbd_linsolve *ls, const double *values)
{
    if (ls == NULL)
        return GSL_EINVAL;
    return factor(ls, values, ls->factorisations > 0);
}

int mbd_linsolve_solve(mbd_linsolve *ls, double *b)
{
    if (ls == NULL || b == NULL || !ls->factored)
        return GSL_EINVAL;
    if (ls->kind == MBD_LINSOLVE_SPARSE)
        return mbd_linsolve_sparse_solve(ls, b);
    gsl_vector_view v = gsl_vector_view_array(b, ls->n);
    gsl_linalg_LU_svx(ls->A, ls->perm, &v.vector);
    for (size_t i = 0; i < ls->n; i++)
        if (!isfinite(b[i]))
            return MBD_ENONFINITE;
    return GSL_SUCCESS;
}
