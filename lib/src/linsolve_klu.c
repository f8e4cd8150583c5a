/* linsolve_klu.c -- the sparse kind of linsolve.h through SuiteSparse's KLU.
 *
 * Set-up (once, in mbd_linsolve_alloc): the pattern as given becomes KLU's
 * compressed-column form (column pointers Ap, sorted unique row indices Ai
 * per column) and a map slot[k] from each given position k to its place in
 * Ax, where repeated positions meet (their values are summed); then
 * klu_analyze orders it (BTF, then AMD on each block) once. KLU's common
 * object (its parameters and statistics) is the solver's own.
 *
 * A fresh factorisation is klu_factor (KLU chooses the pivots: threshold
 * partial pivoting with a preference for the diagonal; it allocates the
 * factors, whose size depends on those pivots). A factorisation with reused
 * pivots is klu_refactor on the same numeric object (no allocation, no
 * search for pivots). Reused pivots can be poor for new values, so a
 * refactorisation is checked and replaced by a fresh factorisation when
 *   - KLU met a zero pivot (the old pivot order cannot say that the matrix
 *     is singular; a fresh factorisation decides), or
 *   - its reciprocal pivot growth (klu_rgrowth: min over columns of
 *     max |A_ij| / max |U_ij|, O(|A| + |U|)) fell below REUSE_DROP times
 *     that of the last fresh factorisation: the growth bounds the backward
 *     error of the factors, and relative to a fresh factorisation's (KLU's
 *     threshold pivoting accepts growths of 1e3 by itself) a matrix whose
 *     pivots grow by nature is not factored afresh every time, or
 *   - its condition estimate says singular (again a fresh factorisation
 *     decides).
 * klu_rcond (min |U_kk| / max |U_kk|) is no such check: on random matrices
 * whose values change by 30 % it moves by four decades with fresh pivots
 * as well; a tiny pivot that matters shows as growth, and a tiny last one
 * as a large condition number.
 *
 * The reciprocal condition estimate kept in ls->rcond is 1 / klu_condest:
 * the 1-norm estimate (Hager's method with Higham's refinements) the dense
 * kind computes too, so the two kinds report the same quantity; it costs a
 * few solves with the factors. (klu_rcond is not a 1-norm estimate: it can
 * be orders of magnitude off, in both directions.)
 *
 * Indices: KLU's int interface (klu_*), not the long one (klu_l_*). The
 * matrices this toolkit solves have thousands of rows, not billions; int
 * indices halve the memory and bandwidth of the pattern and the factors'
 * index arrays; and the int interface is the same in SuiteSparse 5 and 7.
 * A pattern with n or its number of distinct positions above INT_MAX is
 * refused at set-up (mbd_linsolve_alloc returns NULL), and a factorisation
 * whose factors would overflow int indices (KLU_TOO_LARGE) is GSL_ENOMEM. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_errno.h>
#include <klu.h>

#include "linsolve_impl.h"
#include "mbd/error.h"

/* a refactorisation whose reciprocal pivot growth fell below this fraction
 * of the last fresh factorisation's is replaced by a fresh factorisation */
#define REUSE_DROP 1e-3

typedef struct {
    klu_common common;
    klu_symbolic *symbolic;
    klu_numeric *numeric;        /* NULL until a fresh factorisation succeeds */
    int n, nz;                   /* order, distinct positions */
    int *Ap, *Ai;                /* the compressed-column pattern */
    double *Ax;                  /* its values (summed) */
    int *slot;                   /* slot[k]: given position k's place in Ai/Ax */
    double rgrowth0;             /* the last fresh factorisation's pivot growth */
} klu_state;

/* ------------------------------------------------------------------------ */
/* Set-up                                                                    */

/* Counting sort of the positions by row, then (stably) by column: within
 * each column the rows come out in increasing order. Fills Ap, Ai, slot. */
static int build_pattern(const mbd_linsolve *ls, klu_state *s)
{
    const size_t n = ls->n, nnz = ls->nnz;
    size_t *count = calloc(n + 1, sizeof *count);
    size_t *by_row = malloc(nnz * sizeof *by_row);
    size_t *by_col = malloc(nnz * sizeof *by_col);
    int st = GSL_ENOMEM;
    if (count == NULL || by_row == NULL || by_col == NULL)
        goto done;

    for (size_t k = 0; k < nnz; k++)
        count[ls->rows[k] + 1]++;
    for (size_t i = 0; i < n; i++)
        count[i + 1] += count[i];
    for (size_t k = 0; k < nnz; k++)
        by_row[count[ls->rows[k]]++] = k;

    for (size_t i = 0; i <= n; i++)
        count[i] = 0;
    for (size_t k = 0; k < nnz; k++)
        count[ls->cols[k] + 1]++;
    for (size_t j = 0; j < n; j++)
        count[j + 1] += count[j];
    for (size_t t = 0; t < nnz; t++) {
        const size_t k = by_row[t];
        by_col[count[ls->cols[k]]++] = k;
    }

    /* walk the positions column by column; a row repeated within a column
     * shares the previous slot */
    size_t nz = 0, t = 0;
    for (size_t j = 0; j < n; j++) {
        s->Ap[j] = (int)nz;
        size_t last_row = n;   /* none */
        for (; t < nnz && ls->cols[by_col[t]] == j; t++) {
            const size_t k = by_col[t];
            if (ls->rows[k] != last_row) {
                if (nz >= (size_t)INT_MAX) {
                    st = GSL_EINVAL;   /* too many distinct positions for int */
                    goto done;
                }
                last_row = ls->rows[k];
                s->Ai[nz++] = (int)last_row;
            }
            s->slot[k] = (int)nz - 1;
        }
    }
    s->Ap[n] = (int)nz;
    s->nz = (int)nz;
    st = GSL_SUCCESS;
done:
    free(count);
    free(by_row);
    free(by_col);
    return st;
}

int mbd_linsolve_sparse_setup(mbd_linsolve *ls)
{
    if (ls->n > (size_t)INT_MAX - 1)
        return GSL_EINVAL;
    klu_state *s = calloc(1, sizeof *s);
    if (s == NULL)
        return GSL_ENOMEM;
    ls->sparse = s;   /* mbd_linsolve_sparse_free cleans up from here on */
    klu_defaults(&s->common);
    s->n = (int)ls->n;
    s->Ap = malloc((ls->n + 1) * sizeof *s->Ap);
    s->Ai = malloc(ls->nnz * sizeof *s->Ai);
    s->slot = malloc(ls->nnz * sizeof *s->slot);
    if (s->Ap == NULL || s->Ai == NULL || s->slot == NULL)
        return GSL_ENOMEM;
    int st = build_pattern(ls, s);
    if (st != GSL_SUCCESS)
        return st;
    s->Ax = malloc((size_t)s->nz * sizeof *s->Ax);
    if (s->Ax == NULL)
        return GSL_ENOMEM;
    /* a structurally singular pattern is analysed all the same (KLU warns
     * with KLU_SINGULAR); its factorisations will report it singular */
    s->symbolic = klu_analyze(s->n, s->Ap, s->Ai, &s->common);
    if (s->symbolic == NULL)
        return s->common.status == KLU_OUT_OF_MEMORY ? GSL_ENOMEM : GSL_EINVAL;
    return GSL_SUCCESS;
}

void mbd_linsolve_sparse_free(mbd_linsolve *ls)
{
    klu_state *s = ls->sparse;
    if (s == NULL)
        return;
    if (s->numeric != NULL)
        klu_free_numeric(&s->numeric, &s->common);
    if (s->symbolic != NULL)
        klu_free_symbolic(&s->symbolic, &s->common);
    free(s->Ap);
    free(s->Ai);
    free(s->Ax);
    free(s->slot);
    free(s);
    ls->sparse = NULL;
}

/* ------------------------------------------------------------------------ */
/* Factorisation                                                             */

/* KLU's status after a failed call, as a status of ours */
static int klu_status(const klu_state *s)
{
    switch (s->common.status) {
    case KLU_SINGULAR:
        return MBD_ESINGULAR;
    case KLU_OUT_OF_MEMORY:
    case KLU_TOO_LARGE:
        return GSL_ENOMEM;
    default:
        return GSL_EFAILED;
    }
}

/* 1 / klu_condest of the factors in s->numeric (0 when a pivot is zero or
 * the estimate is not finite) */
static double condition(klu_state *s)
{
    if (!klu_condest(s->Ap, s->Ax, s->symbolic, s->numeric, &s->common))
        return 0.0;
    const double c = s->common.condest;
    return isfinite(c) && c > 0 ? 1.0 / c : 0.0;
}

/* klu_refactor with the pivots of the last fresh factorisation, and its
 * checks; 1 when the result can stand (ls->rcond set), 0 when a fresh
 * factorisation must be made instead */
static int refactor(mbd_linsolve *ls, klu_state *s)
{
    if (!klu_refactor(s->Ap, s->Ai, s->Ax, s->symbolic, s->numeric, &s->common))
        return 0;   /* a zero pivot; the numeric object stays usable */
    if (!klu_rgrowth(s->Ap, s->Ai, s->Ax, s->symbolic, s->numeric, &s->common)
        || !(s->common.rgrowth >= REUSE_DROP * s->rgrowth0))
        return 0;
    const double rc = condition(s);
    if (!(rc >= MBD_LINSOLVE_RCOND_MIN))
        return 0;
    ls->rcond = rc;
    return 1;
}

/* klu_factor afresh: pivots chosen, the checks' reference values kept */
static int factor_fresh(mbd_linsolve *ls, klu_state *s)
{
    if (s->numeric != NULL)
        klu_free_numeric(&s->numeric, &s->common);
    s->numeric = klu_factor(s->Ap, s->Ai, s->Ax, s->symbolic, &s->common);
    if (s->numeric == NULL) {
        const int st = klu_status(s);
        if (st == MBD_ESINGULAR)
            ls->rcond = 0.0;
        return st;
    }
    s->rgrowth0 = klu_rgrowth(s->Ap, s->Ai, s->Ax, s->symbolic, s->numeric, &s->common)
                      ? s->common.rgrowth : 1.0;
    ls->rcond = condition(s);
    return ls->rcond >= MBD_LINSOLVE_RCOND_MIN ? GSL_SUCCESS : MBD_ESINGULAR;
}

int mbd_linsolve_sparse_factor(mbd_linsolve *ls, const double *values, int reuse)
{
    klu_state *s = ls->sparse;
    for (size_t k = 0; k < ls->nnz; k++)
        if (!isfinite(values[k])) {
            /* counted as asked, as the dense kind does */
            if (reuse)
                ls->refactorisations++;
            else
                ls->factorisations++;
            return MBD_ENONFINITE;
        }
    for (int i = 0; i < s->nz; i++)
        s->Ax[i] = 0.0;
    for (size_t k = 0; k < ls->nnz; k++)
        s->Ax[s->slot[k]] += values[k];
    /* sums of finite values can overflow */
    for (int i = 0; i < s->nz; i++)
        if (!isfinite(s->Ax[i])) {
            if (reuse)
                ls->refactorisations++;
            else
                ls->factorisations++;
            return MBD_ENONFINITE;
        }

    if (reuse && s->numeric != NULL && refactor(ls, s)) {
        ls->refactorisations++;
        return GSL_SUCCESS;
    }
    /* fresh, asked for or as the fallback of a refactorisation */
    ls->factorisations++;
    return factor_fresh(ls, s);
}

/* ------------------------------------------------------------------------ */
/* Solve                                                                     */

int mbd_linsolve_sparse_solve(mbd_linsolve *ls, double *b)
{
    klu_state *s = ls->sparse;
    if (s == NULL || s->numeric == NULL)
        return GSL_EINVAL;
    if (!klu_solve(s->symbolic, s->numeric, s->n, 1, b, &s->common))
        return klu_status(s);
    for (size_t i = 0; i < ls->n; i++)
        if (!isfinite(b[i]))
            return MBD_ENONFINITE;
    return GSL_SUCCESS;
}
