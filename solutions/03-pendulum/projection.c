/* Exercise 03.5: the listings' corrections, done right (see README.md). */
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

#include "ex03.h"

int ex03_matlab_while(const double v[], size_t n, double tol)
{
    /* EXERCISE 03.5 BEGIN */
    /* `while A` runs when A is not empty and all its elements are non-zero */
    int all = n > 0;
    for (size_t i = 0; i < n; i++)
        all = all && fabs(v[i]) > tol;
    return all;
    /* EXERCISE 03.5 STUB
    (void)v; (void)n; (void)tol;
    EXERCISE 03.5 END */
}

/* Given: the minimum-norm correction of a residual r (m values) for the
 * Jacobian Cq (m x n): dx = -Cq^T (Cq Cq^T)^-1 r, added to x (n values).
 * G is m x m scratch, z m values. MBD_ESINGULAR when Cq Cq^T is not
 * positive definite. */
static int min_norm_correct(const gsl_matrix *Cq, const gsl_vector *r, gsl_matrix *G,
                            gsl_vector *z, gsl_vector *x)
{
    gsl_blas_dgemm(CblasNoTrans, CblasTrans, 1.0, Cq, Cq, 0.0, G);
    if (gsl_linalg_cholesky_decomp1(G) != GSL_SUCCESS)
        return MBD_ESINGULAR;
    gsl_linalg_cholesky_solve(G, r, z);
    return gsl_blas_dgemv(CblasTrans, -1.0, Cq, z, 1.0, x);
}

int ex03_project_hook(void *ctx, double t, double y[], int *changed, mbd_failure *fail)
{
    /* EXERCISE 03.5 BEGIN */
    ex03_projector *w = ctx;
    const mbd_system *s = w->s;
    const size_t n = s->n, m = s->m;
    *changed = 0;
    gsl_matrix *Cq = gsl_matrix_calloc(m, n), *G = gsl_matrix_alloc(m, m);
    gsl_vector *r = gsl_vector_alloc(m), *z = gsl_vector_alloc(m);
    gsl_vector_view q = gsl_vector_view_array(y, n), qd = gsl_vector_view_array(y + n, n);
    int st = (Cq && G && r && z) ? GSL_SUCCESS : GSL_ENOMEM;

    /* positions: Newton on C(t, q) = 0 */
    unsigned it = 0;
    while (st == GSL_SUCCESS) {
        st = s->constraint(s, t, &q.vector, r);
        if (st != GSL_SUCCESS || gsl_blas_dnrm2(r) <= w->tol)
            break;
        if (it++ == w->max_iter) {
            st = mbd_failure_set(fail, MBD_ENOCONV, t,
                                 "position projection: |C| = %.3g after %u Newton steps",
                                 gsl_blas_dnrm2(r), w->max_iter);
            break;
        }
        st = s->jacobian(s, t, &q.vector, Cq);
        if (st == GSL_SUCCESS && min_norm_correct(Cq, r, G, z, &q.vector) != GSL_SUCCESS)
            st = mbd_failure_set(fail, MBD_ESINGULAR, t,
                                 "position projection: C_q C_q^T is singular");
        *changed = 1;   /* and iterate: C is not linear in q */
    }
    /* velocities, at the corrected positions: C_q q' + C_t = 0 */
    if (st == GSL_SUCCESS)
        st = s->jacobian(s, t, &q.vector, Cq);   /* C_q at the new positions */
    if (st == GSL_SUCCESS) {
        if (s->constraint_t)
            st = s->constraint_t(s, t, &q.vector, r);
        else
            gsl_vector_set_zero(r);
    }
    if (st == GSL_SUCCESS) {
        gsl_blas_dgemv(CblasNoTrans, 1.0, Cq, &qd.vector, 1.0, r);
        if (gsl_blas_dnrm2(r) > w->tol) {
            if (min_norm_correct(Cq, r, G, z, &qd.vector) != GSL_SUCCESS)
                st = mbd_failure_set(fail, MBD_ESINGULAR, t,
                                     "velocity projection: C_q C_q^T is singular");
            *changed = 1;
        }
    }
    if (st != GSL_SUCCESS && fail->status == GSL_SUCCESS)
        mbd_failure_set(fail, st, t, "the projection failed: %s", mbd_strerror(st));
    if (st == GSL_SUCCESS && *changed)
        w->corrected++;
    gsl_matrix_free(Cq);
    gsl_matrix_free(G);
    gsl_vector_free(r);
    gsl_vector_free(z);
    return st;
    /* EXERCISE 03.5 STUB
    (void)ctx; (void)t; (void)y; (void)changed; (void)fail; (void)min_norm_correct;
    EXERCISE 03.5 END */
}
