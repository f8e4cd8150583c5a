#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>

#include "mbd/correction.h"

struct mbd_projection {
    const mbd_system *s;
    mbd_projection_params p;
    size_t n, m;
    gsl_matrix *M, *Cq, *X, *G;   /* n x n, m x n, n x m (W C_q^T), m x m */
    gsl_vector *C, *z, *dq;       /* m, m, n */
    gsl_vector *work;             /* 3m */
    mbd_projection_stats stats;
    mbd_failure fail;
};

void mbd_projection_free(mbd_projection *w)
{
    if (w == NULL)
        return;
    gsl_matrix_free(w->M);
    gsl_matrix_free(w->Cq);
    gsl_matrix_free(w->X);
    gsl_matrix_free(w->G);
    gsl_vector_free(w->C);
    gsl_vector_free(w->z);
    gsl_vector_free(w->dq);
    gsl_vector_free(w->work);
    free(w);
}

mbd_projection *mbd_projection_alloc(const mbd_system *s, const mbd_projection_params *p)
{
    if (mbd_system_validate(s) != GSL_SUCCESS || s->m == 0)
        return NULL;
    mbd_projection *w = calloc(1, sizeof *w);
    if (w == NULL)
        return NULL;
    w->s = s;
    if (p)
        w->p = *p;
    if (!(w->p.tol > 0))
        w->p.tol = 1e-10;
    if (w->p.max_iter == 0)
        w->p.max_iter = 20;
    w->n = s->n;
    w->m = s->m;
    w->M = gsl_matrix_alloc(s->n, s->n);
    w->Cq = gsl_matrix_alloc(s->m, s->n);
    w->X = gsl_matrix_alloc(s->n, s->m);
    w->G = gsl_matrix_alloc(s->m, s->m);
    w->C = gsl_vector_alloc(s->m);
    w->z = gsl_vector_alloc(s->m);
    w->dq = gsl_vector_alloc(s->n);
    w->work = gsl_vector_alloc(3 * s->m);
    if (!w->M || !w->Cq || !w->X || !w->G || !w->C || !w->z || !w->dq || !w->work) {
        mbd_projection_free(w);
        return NULL;
    }
    mbd_failure_clear(&w->fail);
    return w;
}

const mbd_projection_stats *mbd_projection_get_stats(const mbd_projection *w)
{
    return &w->stats;
}
const mbd_failure *mbd_projection_failure(const mbd_projection *w) { return &w->fail; }

/* >> projection-step */
/* With C_q at q: X = W C_q^T and the factored G = C_q X, so that the
 * correction of a residual r is -X G^-1 r. */
static int prepare(mbd_projection *w, double t, const gsl_vector *q)
{
    const mbd_system *s = w->s;
    int st = s->jacobian(s, t, q, w->Cq);
    if (st != GSL_SUCCESS)
        return mbd_failure_set(&w->fail, st, t, "projection: the model's Jacobian failed");
    gsl_matrix_transpose_memcpy(w->X, w->Cq);
    if (w->p.mass_weighted) {
        st = s->mass(s, t, q, w->M);
        if (st == GSL_SUCCESS)
            st = gsl_linalg_cholesky_decomp1(w->M);
        if (st != GSL_SUCCESS)
            return mbd_failure_set(&w->fail, MBD_ESINGULAR, t,
                                   "projection: the mass matrix is not positive definite");
        gsl_linalg_cholesky_svx_mat(w->M, w->X);              /* X = M^-1 C_q^T */
    }
    gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, w->Cq, w->X, 0.0, w->G);
    double rcond = 0.0;
    if (gsl_linalg_cholesky_decomp1(w->G) != GSL_SUCCESS
        || gsl_linalg_cholesky_rcond(w->G, &rcond, w->work) != GSL_SUCCESS
        || !(rcond > 4 * DBL_EPSILON))
        return mbd_failure_set(&w->fail, MBD_ESINGULAR, t,
                               "projection: C_q W C_q^T is singular (C_q has lost rank)");
    return GSL_SUCCESS;
}

/* x <- x - X G^-1 r */
static void correct(mbd_projection *w, const gsl_vector *r, gsl_vector *x)
{
    gsl_linalg_cholesky_solve(w->G, r, w->z);
    gsl_blas_dgemv(CblasNoTrans, -1.0, w->X, w->z, 1.0, x);
}
/* << projection-step */

int mbd_projection_positions(mbd_projection *w, double t, gsl_vector *q, int *moved)
{
    const mbd_system *s = w->s;
    *moved = 0;
    double norm = INFINITY;
    for (unsigned it = 0;; it++) {
        int st = s->constraint(s, t, q, w->C);
        if (st != GSL_SUCCESS)
            return mbd_failure_set(&w->fail, st, t, "projection: the model's constraint failed");
        norm = gsl_blas_dnrm2(w->C);
        if (!isfinite(norm))
            return mbd_failure_set(&w->fail, MBD_ENONFINITE, t,
                                   "projection: the constraint violation is not finite");
        if (norm <= w->p.tol)
            return GSL_SUCCESS;
        if (it == w->p.max_iter)
            break;
        st = prepare(w, t, q);
        if (st != GSL_SUCCESS)
            return st;
        correct(w, w->C, q);
        w->stats.iterations++;
        if (!*moved)
            w->stats.positions++;
        *moved = 1;
    }
    return mbd_failure_set(&w->fail, MBD_ENOCONV, t,
                           "projection: |C| = %.3g is still above %.3g after %u Newton iterations",
                           norm, w->p.tol, w->p.max_iter);
}

int mbd_projection_velocities(mbd_projection *w, double t, const gsl_vector *q, gsl_vector *qd,
                              int *moved)
{
    *moved = 0;
    int st = mbd_system_constraint_rate(w->s, t, q, qd, w->Cq, w->C);   /* C' into C */
    if (st != GSL_SUCCESS)
        return mbd_failure_set(&w->fail, st, t, "projection: the model's Jacobian failed");
    double norm = gsl_blas_dnrm2(w->C);
    if (!isfinite(norm))
        return mbd_failure_set(&w->fail, MBD_ENONFINITE, t,
                               "projection: the velocity violation is not finite");
    if (norm <= w->p.tol)
        return GSL_SUCCESS;
    st = prepare(w, t, q);
    if (st != GSL_SUCCESS)
        return st;
    correct(w, w->C, qd);
    w->stats.velocities++;
    *moved = 1;
    return GSL_SUCCESS;
}

int mbd_projection_apply(mbd_projection *w, double t, double y[], int *changed)
{
    gsl_vector_view q = gsl_vector_view_array(y, w->n);
    gsl_vector_view qd = gsl_vector_view_array(y + w->n, w->n);
    int moved_q = 0, moved_v = 0;
    w->stats.calls++;
    *changed = 0;
    int st = mbd_projection_positions(w, t, &q.vector, &moved_q);
    if (st == GSL_SUCCESS)
        st = mbd_projection_velocities(w, t, &q.vector, &qd.vector, &moved_v);
    *changed = moved_q || moved_v;
    return st;
}

int mbd_projection_hook(void *ctx, double t, double y[], int *changed, mbd_failure *fail)
{
    mbd_projection *w = ctx;
    int st = mbd_projection_apply(w, t, y, changed);
    if (st != GSL_SUCCESS && fail != NULL)
        *fail = w->fail;
    return st;
}
