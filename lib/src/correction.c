#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>

#include "mbd/constraints.h"
#include "mbd/correction.h"

struct mbd_projection {
    const mbd_system *s;
    mbd_projection_params p;
    size_t n;
    mbd_constraints *cs;          /* the constraint solver does the linear algebra */
    mbd_projection_stats stats;
    mbd_failure fail;
    /* the simultaneous corrections: R = 2m (+1) rows, N = 2n unknowns */
    double E0;
    int has_E0;
    gsl_matrix *J, *WJt, *A;      /* R x N, N x R, R x R */
    gsl_matrix *Cq, *Cdq, *M;     /* m x n, m x n, n x n */
    gsl_vector *r, *y, *dx;       /* R, R, N */
    gsl_vector *C, *Cd, *Eq, *Eqd, *work, *col;   /* m, m, n, n, 2m + 2n, n */
};

void mbd_projection_free(mbd_projection *w)
{
    if (w == NULL)
        return;
    mbd_constraints_free(w->cs);
    gsl_matrix *mats[] = {w->J, w->WJt, w->A, w->Cq, w->Cdq, w->M};
    gsl_vector *vecs[] = {w->r, w->y, w->dx, w->C, w->Cd, w->Eq, w->Eqd, w->work, w->col};
    for (size_t i = 0; i < sizeof mats / sizeof mats[0]; i++)
        if (mats[i])
            gsl_matrix_free(mats[i]);
    for (size_t i = 0; i < sizeof vecs / sizeof vecs[0]; i++)
        if (vecs[i])
            gsl_vector_free(vecs[i]);
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
    if ((int)w->p.mode < MBD_CORRECTION_SEQUENTIAL || (int)w->p.mode > MBD_CORRECTION_ENERGY
        || (w->p.mode == MBD_CORRECTION_ENERGY && s->energy == NULL)
        || !(isfinite(w->p.tol)) || isnan(w->p.energy_tol)) {
        free(w);
        return NULL;
    }
    if (!(w->p.energy_tol > 0))
        w->p.energy_tol = w->p.tol;
    const size_t n = s->n, m = s->m, N = 2 * n;
    const size_t R = 2 * m + (w->p.mode == MBD_CORRECTION_ENERGY);
    w->n = n;
    w->cs = mbd_constraints_alloc(n, m);
    int ok = w->cs != NULL;
    if (ok && w->p.mode != MBD_CORRECTION_SEQUENTIAL) {
        w->J = gsl_matrix_alloc(R, N);
        w->WJt = gsl_matrix_alloc(N, R);
        w->A = gsl_matrix_alloc(R, R);
        w->Cq = gsl_matrix_alloc(m, n);
        w->Cdq = gsl_matrix_alloc(m, n);
        w->M = gsl_matrix_alloc(n, n);
        w->r = gsl_vector_alloc(R);
        w->y = gsl_vector_alloc(R);
        w->dx = gsl_vector_alloc(N);
        w->C = gsl_vector_alloc(m);
        w->Cd = gsl_vector_alloc(m);
        w->Eq = gsl_vector_alloc(n);
        w->Eqd = gsl_vector_alloc(n);
        w->work = gsl_vector_alloc(2 * m + 2 * n);
        w->col = gsl_vector_alloc(n);
        ok = w->J && w->WJt && w->A && w->Cq && w->Cdq && w->M && w->r && w->y && w->dx && w->C
             && w->Cd && w->Eq && w->Eqd && w->work && w->col;
    }
    if (!ok) {
        mbd_projection_free(w);
        return NULL;
    }
    mbd_failure_clear(&w->fail);
    return w;
}

void mbd_projection_set_energy(mbd_projection *w, double E0)
{
    w->E0 = E0;
    w->has_E0 = 1;
}

const mbd_projection_stats *mbd_projection_get_stats(const mbd_projection *w)
{
    return &w->stats;
}
const mbd_failure *mbd_projection_failure(const mbd_projection *w) { return &w->fail; }

/* the solver's failure, said as the projection's */
static int failed(mbd_projection *w, int st)
{
    const mbd_failure *cf = mbd_constraints_failure(w->cs);
    return mbd_failure_set(&w->fail, cf->status != GSL_SUCCESS ? cf->status : st, cf->time,
                           "projection: %s", cf->cause);
}

/* >> projection-step */
/* Newton's method on C(t, q) = 0 and one step onto C_q q' + C_t = 0, each
 * step dx = -W C_q^T (C_q W C_q^T)^-1 r: the constraint solver's correction
 * (constraints.h: mbd_constraints_newton, mbd_constraints_velocity). */
int mbd_projection_positions(mbd_projection *w, double t, gsl_vector *q, int *moved)
{
    unsigned it = 0;
    int st = mbd_constraints_newton(w->cs, w->s, t, q, w->p.mass_weighted, w->p.tol,
                                    w->p.max_iter, &it);
    *moved = it > 0;
    w->stats.iterations += it;
    w->stats.positions += it > 0;
    return st == GSL_SUCCESS ? st : failed(w, st);
}

int mbd_projection_velocities(mbd_projection *w, double t, const gsl_vector *q, gsl_vector *qd,
                              int *moved)
{
    int st = mbd_constraints_velocity(w->cs, w->s, t, q, qd, w->p.mass_weighted, w->p.tol, moved);
    w->stats.velocities += *moved;
    return st == GSL_SUCCESS ? st : failed(w, st);
}
/* << projection-step */

/* >> correction-simultaneous */
/* the residuals r = [C; C' (; E - E0)] at x = (q, q'), and whether they are
 * within tolerance; *size their largest entries (C, C', |E - E0|) */
static int residuals(mbd_projection *w, double t, const gsl_vector *q, const gsl_vector *qd,
                     int *done, double size[3])
{
    const mbd_system *s = w->s;
    const size_t m = s->m;
    int st = s->constraint(s, t, q, w->C);
    if (st == GSL_SUCCESS)
        st = mbd_system_constraint_rate(s, t, q, qd, w->Cq, w->Cd);
    double E = 0.0;
    if (st == GSL_SUCCESS && w->p.mode == MBD_CORRECTION_ENERGY)
        st = s->energy(s, t, q, qd, &E);
    if (st != GSL_SUCCESS)
        return mbd_failure_set(&w->fail, st, t, "correction: the model failed (%s)",
                               mbd_strerror(st));
    size[0] = size[1] = size[2] = 0.0;
    for (size_t i = 0; i < m; i++) {
        gsl_vector_set(w->r, i, gsl_vector_get(w->C, i));
        gsl_vector_set(w->r, m + i, gsl_vector_get(w->Cd, i));
        size[0] = fmax(size[0], fabs(gsl_vector_get(w->C, i)));
        size[1] = fmax(size[1], fabs(gsl_vector_get(w->Cd, i)));
    }
    if (w->p.mode == MBD_CORRECTION_ENERGY) {
        gsl_vector_set(w->r, 2 * m, E - w->E0);
        size[2] = fabs(E - w->E0);
    }
    if (!(isfinite(size[0]) && isfinite(size[1]) && isfinite(size[2])))
        return mbd_failure_set(&w->fail, MBD_ENONFINITE, t,
                               "correction: the constraint or energy residual is not finite");
    *done = size[0] <= w->p.tol && size[1] <= w->p.tol
            && size[2] <= w->p.energy_tol * fmax(1.0, fabs(w->E0));
    return GSL_SUCCESS;
}

/* J = [C_q 0; C'_q C_q (; E_q E_q')] at x, and W J^T */
static int jacobian(mbd_projection *w, double t, const gsl_vector *q, const gsl_vector *qd)
{
    const mbd_system *s = w->s;
    const size_t n = s->n, m = s->m, R = w->J->size1;
    int st = mbd_system_rate_jacobian(s, t, q, qd, w->Cdq, w->work);
    if (st == GSL_SUCCESS && w->p.mode == MBD_CORRECTION_ENERGY)
        st = mbd_system_energy_gradient(s, t, q, qd, w->Eq, w->Eqd, w->work);
    if (st == GSL_SUCCESS && w->p.mass_weighted)
        st = s->mass(s, t, q, w->M);
    if (st != GSL_SUCCESS)
        return mbd_failure_set(&w->fail, st, t, "correction: the model's derivatives failed (%s)",
                               mbd_strerror(st));
    gsl_matrix_set_zero(w->J);
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < n; j++) {
            const double a = gsl_matrix_get(w->Cq, i, j);
            gsl_matrix_set(w->J, i, j, a);
            gsl_matrix_set(w->J, m + i, j, gsl_matrix_get(w->Cdq, i, j));
            gsl_matrix_set(w->J, m + i, n + j, a);
        }
    if (w->p.mode == MBD_CORRECTION_ENERGY)
        for (size_t j = 0; j < n; j++) {
            gsl_matrix_set(w->J, 2 * m, j, gsl_vector_get(w->Eq, j));
            gsl_matrix_set(w->J, 2 * m, n + j, gsl_vector_get(w->Eqd, j));
        }
    gsl_matrix_transpose_memcpy(w->WJt, w->J);
    if (w->p.mass_weighted) {                      /* W = diag(M^-1, M^-1) */
        if (gsl_linalg_cholesky_decomp1(w->M) != GSL_SUCCESS)
            return mbd_failure_set(&w->fail, MBD_ESINGULAR, t,
                                   "correction: the mass matrix is not positive definite");
        for (size_t k = 0; k < R; k++)
            for (size_t half = 0; half < 2; half++) {
                gsl_vector_view c = gsl_matrix_subcolumn(w->WJt, k, half * n, n);
                gsl_linalg_cholesky_svx(w->M, &c.vector);
            }
    }
    return GSL_SUCCESS;
}

/* Newton on r(x) = 0 for x = (q, q') with dx = -W J^T (J W J^T)^-1 r */
static int simultaneous(mbd_projection *w, double t, gsl_vector *q, gsl_vector *qd, int *changed)
{
    const size_t n = w->n;
    if (w->p.mode == MBD_CORRECTION_ENERGY && !w->has_E0)
        return mbd_failure_set(&w->fail, MBD_EINPUT, t,
                               "correction: the energy to hold was never set");
    double size[3] = {0.0, 0.0, 0.0};
    unsigned it = 0;
    int done = 0, tiny = 0;
    for (;; it++) {
        int st = residuals(w, t, q, qd, &done, size);
        if (st != GSL_SUCCESS)
            return st;
        if (done || tiny)
            break;
        if (it == w->p.max_iter)
            return mbd_failure_set(&w->fail, MBD_ENOCONV, t,
                                   "correction (%s) did not converge: |C| = %.3g, |C'| = %.3g, "
                                   "|E - E0| = %.3g after %u iterations",
                                   w->p.mode == MBD_CORRECTION_ENERGY ? "position, velocity, energy"
                                                                      : "position and velocity",
                                   size[0], size[1], size[2], it);
        st = jacobian(w, t, q, qd);
        if (st != GSL_SUCCESS)
            return st;
        gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, w->J, w->WJt, 0.0, w->A);
        gsl_vector_memcpy(w->y, w->r);
        if (gsl_linalg_cholesky_decomp1(w->A) != GSL_SUCCESS)
            return mbd_failure_set(&w->fail, MBD_ESINGULAR, t,
                                   "correction: J W J^T is singular (the %s rows are dependent)",
                                   w->p.mode == MBD_CORRECTION_ENERGY ? "energy and constraint"
                                                                      : "constraint");
        gsl_linalg_cholesky_svx(w->A, w->y);
        gsl_blas_dgemv(CblasNoTrans, -1.0, w->WJt, w->y, 0.0, w->dx);
        double step = 0.0, scale = 0.0;
        for (size_t i = 0; i < 2 * n; i++) {
            gsl_vector *x = i < n ? q : qd;
            const size_t k = i < n ? i : i - n;
            const double xi = gsl_vector_get(x, k) + gsl_vector_get(w->dx, i);
            gsl_vector_set(x, k, xi);
            step = fmax(step, fabs(gsl_vector_get(w->dx, i)));
            scale = fmax(scale, fabs(xi));
        }
        tiny = step <= 16.0 * DBL_EPSILON * (1.0 + scale);
    }
    *changed = it > 0;
    w->stats.iterations += it;
    w->stats.positions += it > 0;
    w->stats.velocities += it > 0;
    if ((long)it > w->stats.max_iterations)
        w->stats.max_iterations = it;
    return GSL_SUCCESS;
}
/* << correction-simultaneous */

int mbd_projection_correct(mbd_projection *w, double t, gsl_vector *q, gsl_vector *qd,
                           int *changed)
{
    w->stats.calls++;
    *changed = 0;
    if (w->p.mode != MBD_CORRECTION_SEQUENTIAL)
        return simultaneous(w, t, q, qd, changed);
    int moved_q = 0, moved_v = 0;
    const long before = w->stats.iterations;
    int st = mbd_projection_positions(w, t, q, &moved_q);
    if (st == GSL_SUCCESS)
        st = mbd_projection_velocities(w, t, q, qd, &moved_v);
    if (w->stats.iterations - before > w->stats.max_iterations)
        w->stats.max_iterations = w->stats.iterations - before;
    *changed = moved_q || moved_v;
    return st;
}

int mbd_projection_apply(mbd_projection *w, double t, double y[], int *changed)
{
    gsl_vector_view q = gsl_vector_view_array(y, w->n);
    gsl_vector_view qd = gsl_vector_view_array(y + w->n, w->n);
    return mbd_projection_correct(w, t, &q.vector, &qd.vector, changed);
}

int mbd_projection_hook(void *ctx, double t, double y[], int *changed, mbd_failure *fail)
{
    mbd_projection *w = ctx;
    int st = mbd_projection_apply(w, t, y, changed);
    if (st != GSL_SUCCESS && fail != NULL)
        *fail = w->fail;
    return st;
}
