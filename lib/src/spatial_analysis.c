/* The spatial model's analyses (spatial.h; document Sec. 6, guide Sec. 4):
 * assembly and the position step (Newton with minimum-norm steps), initial
 * velocities (cases 1-3), accelerations, kinematics and inverse dynamics
 * with the joints' reactions. Every solve goes through one rank-revealing
 * factorisation, QR with column pivoting of the transposed Jacobian, which
 * names the redundant rows instead of failing in a singular solve. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>

#include "mbd/error.h"
#include <SuiteSparseQR_C.h>

#include "mbd/spatial.h"
#include "spatial_impl.h"

#define DEFAULT_TOL 1e-12
#define DEFAULT_MAX_ITER 50u
#define DEFAULT_RANK_TOL 1e-9
#define DEFAULT_CONSISTENCY 1e-8
#define HALVINGS 30

typedef struct {
    double tol, rank_tol, consistency;
    unsigned max_iter;
} opts;

static opts options_of(const mbd_spatial_options *o)
{
    opts r = {DEFAULT_TOL, DEFAULT_RANK_TOL, DEFAULT_CONSISTENCY, DEFAULT_MAX_ITER};
    if (o != NULL) {
        if (o->tol > 0)
            r.tol = o->tol;
        if (o->rank_tol > 0)
            r.rank_tol = o->rank_tol;
        if (o->consistency > 0)
            r.consistency = o->consistency;
        if (o->max_iter > 0)
            r.max_iter = o->max_iter;
    }
    return r;
}

/* ------------------------------------------------------------------------ */
/* The workspace                                                             */

int sp_work_alloc(sp_work *w, size_t n, size_t m)
{
    memset(w, 0, sizeof *w);
    const size_t mn = n < m ? n : m;
    w->Cq = gsl_matrix_alloc(m, n);
    w->W = gsl_matrix_alloc(n, m);
    w->tau = gsl_vector_alloc(mn);
    w->perm = malloc(m * sizeof *w->perm);
    w->norm = gsl_vector_alloc(m);
    w->phi = gsl_vector_alloc(m);
    w->rhs = gsl_vector_alloc(m);
    w->res = gsl_vector_alloc(m);
    w->x = gsl_vector_alloc(n);
    w->xs = gsl_vector_alloc(n);
    w->y = gsl_vector_alloc(n);
    w->qtry = gsl_vector_alloc(n);
    w->qd = gsl_vector_alloc(n);
    w->qdd = gsl_vector_alloc(n);
    w->lambda = gsl_vector_alloc(m);
    w->M = gsl_matrix_alloc(n, n);
    w->F = gsl_vector_alloc(n);
    w->cols = malloc(n * sizeof *w->cols);
    if (!w->Cq || !w->W || !w->tau || !w->perm || !w->norm || !w->phi || !w->rhs || !w->res
        || !w->x || !w->xs || !w->y || !w->qtry || !w->qd || !w->qdd || !w->lambda || !w->M
        || !w->F || !w->cols) {
        sp_work_free(w);
        return GSL_ENOMEM;
    }
    return GSL_SUCCESS;
}

void sp_work_free(sp_work *w)
{
    gsl_matrix_free(w->Cq);
    gsl_matrix_free(w->W);
    gsl_vector_free(w->tau);
    free(w->perm);
    gsl_vector_free(w->norm);
    gsl_vector_free(w->phi);
    gsl_vector_free(w->rhs);
    gsl_vector_free(w->res);
    gsl_vector_free(w->x);
    gsl_vector_free(w->xs);
    gsl_vector_free(w->y);
    gsl_vector_free(w->qtry);
    gsl_vector_free(w->qd);
    gsl_vector_free(w->qdd);
    gsl_vector_free(w->lambda);
    gsl_matrix_free(w->M);
    gsl_vector_free(w->F);
    free(w->cols);
    memset(w, 0, sizeof *w);
}

/* ------------------------------------------------------------------------ */
/* The rank-revealing factorisation                                          */

/* >> spatial-qrpt */
/* >> spatial-rank */
/* W (its top-left nc x k block) holds A^T for a k x nc matrix A (k rows of
 * constraints, nc unknowns). QR with column pivoting, W P = Q R, orders A's
 * rows by how much each adds to the ones before it: the rank r counts the
 * leading |R_ii| > rank_tol |R_11|, and the rows perm[r..k-1] depend on the
 * rows perm[0..r-1] (to that tolerance). */
static int qr_factor(sp_work *w, size_t nc, size_t k, double rank_tol)
{
    gsl_matrix_view W = gsl_matrix_submatrix(w->W, 0, 0, nc, k);
    for (size_t a = 0; a < nc; a++)
        for (size_t b = 0; b < k; b++)
            if (!isfinite(gsl_matrix_get(&W.matrix, a, b)))
                return MBD_ENONFINITE;
    const size_t mn = nc < k ? nc : k;
    gsl_permutation perm = {k, w->perm};
    gsl_vector_view tau = gsl_vector_subvector(w->tau, 0, mn);
    gsl_vector_view norm = gsl_vector_subvector(w->norm, 0, k);
    int sign = 0;
    int st = gsl_linalg_QRPT_decomp(&W.matrix, &tau.vector, &perm, &sign, &norm.vector);
    if (st != GSL_SUCCESS)
        return st;
    const double r11 = mn > 0 ? fabs(gsl_matrix_get(&W.matrix, 0, 0)) : 0.0;
    size_t r = 0;
    while (r < mn && r11 > 0 && fabs(gsl_matrix_get(&W.matrix, r, r)) > rank_tol * r11)
        r++;
    w->k = k;
    w->cols_used = nc;
    w->rank = r;
    return GSL_SUCCESS;
}
/* << spatial-rank */

/* >> spatial-sparse-min-norm */
/* The velocity analysis of a large model (nc x k at least
 * SP_SPARSE_QR_MIN): the same rank, independent rows and minimum-norm
 * solution as qr_factor and qr_min_norm, from SuiteSparseQR's sparse QR of
 * W = A^T (nc x k; A the Jacobian's unknown columns, w->W holds W) instead
 * of the dense QRPT, whose O(nc k^2) work dominates the start of the N
 * four-bar with N = 40 (0.45 s of 560 x 566). W E = Q R with E a fill-
 * reducing order of A's rows that puts the rows SPQR finds dependent (a
 * column norm at most tol = rank_tol times W's largest column norm, Heath's
 * test, where the dense path compares |R_ii| with rank_tol |R_11|) last:
 * E's first r rows are independent and R11 (r x r) is upper triangular.
 * Then x = Q_1 R11^-T (E^T b)_1, the least |x| with A_I x = b_I. w->perm,
 * w->rank, w->k, w->cols_used as qr_factor leaves them. */
#define SP_SPARSE_QR_MIN 40000

static int sparse_min_norm(sp_work *w, size_t nc, size_t k, double rank_tol,
                           const gsl_vector *b, gsl_vector *x)
{
    gsl_matrix_view W = gsl_matrix_submatrix(w->W, 0, 0, nc, k);
    size_t nz = 0;
    double cmax = 0.0;
    for (size_t j = 0; j < k; j++) {
        double c2 = 0.0;
        for (size_t i = 0; i < nc; i++) {
            const double v = gsl_matrix_get(&W.matrix, i, j);
            if (!isfinite(v))
                return MBD_ENONFINITE;
            if (v != 0.0) {
                nz++;
                c2 += v * v;
            }
        }
        cmax = fmax(cmax, sqrt(c2));
    }
    cholmod_common cc;
    cholmod_l_start(&cc);
    cc.print = 0;
    int st = GSL_ENOMEM;
    cholmod_sparse *S = cholmod_l_allocate_sparse(nc, k, nz > 0 ? nz : 1, 1, 1, 0, CHOLMOD_REAL,
                                                  &cc);
    cholmod_sparse *Q = NULL, *R = NULL;
    SuiteSparse_long *E = NULL;
    if (S != NULL) {
        SuiteSparse_long *Sp = S->p, *Si = S->i;
        double *Sx = S->x;
        size_t at = 0;
        for (size_t j = 0; j < k; j++) {
            Sp[j] = (SuiteSparse_long)at;
            for (size_t i = 0; i < nc; i++) {
                const double v = gsl_matrix_get(&W.matrix, i, j);
                if (v != 0.0) {
                    Si[at] = (SuiteSparse_long)i;
                    Sx[at++] = v;
                }
            }
        }
        Sp[k] = (SuiteSparse_long)at;
        const SuiteSparse_long r = SuiteSparseQR_C_QR(SPQR_ORDERING_DEFAULT, rank_tol * cmax,
                                                      (SuiteSparse_long)k, S, &Q, &R, &E, &cc);
        if (r >= 0 && Q != NULL && R != NULL) {
            const size_t rank = (size_t)r;
            for (size_t j = 0; j < k; j++)
                w->perm[j] = E != NULL ? (size_t)E[j] : j;
            /* R11^T y = (E^T b)_1 by forward substitution over R's columns
             * (column i holds R_li, l <= i, rows ascending) */
            const SuiteSparse_long *Rp = R->p, *Ri = R->i;
            const double *Rx = R->x;
            double *y = w->x->data;   /* scratch: n >= rank values (x is w->y's) */
            st = GSL_SUCCESS;
            for (size_t i = 0; i < rank && st == GSL_SUCCESS; i++) {
                double s = gsl_vector_get(b, w->perm[i]), d = 0.0;
                for (SuiteSparse_long e = Rp[i]; e < Rp[i + 1]; e++) {
                    const size_t l = (size_t)Ri[e];
                    if (l < i)
                        s -= Rx[e] * y[l];
                    else if (l == i)
                        d = Rx[e];
                }
                if (d == 0.0)
                    st = MBD_ESINGULAR;
                y[i] = s / d;
            }
            /* x = Q_1 y */
            gsl_vector_set_zero(x);
            const SuiteSparse_long *Qp = Q->p, *Qi = Q->i;
            const double *Qx = Q->x;
            for (size_t i = 0; i < rank && st == GSL_SUCCESS; i++)
                for (SuiteSparse_long e = Qp[i]; e < Qp[i + 1]; e++)
                    x->data[(size_t)Qi[e] * x->stride] += Qx[e] * y[i];
            w->k = k;
            w->cols_used = nc;
            w->rank = rank;
        } else if (cc.status == CHOLMOD_OUT_OF_MEMORY) {
            st = GSL_ENOMEM;
        } else {
            st = GSL_EFAILED;
        }
    }
    cholmod_l_free_sparse(&S, &cc);
    cholmod_l_free_sparse(&Q, &cc);
    cholmod_l_free_sparse(&R, &cc);
    if (E != NULL)
        cholmod_l_free(k, sizeof(SuiteSparse_long), E, &cc);
    cholmod_l_finish(&cc);
    return st;
}
/* << spatial-sparse-min-norm */

/* >> spatial-min-norm */
/* The minimum-norm x (nc) of A x = b (b: k) over the independent rows:
 * A^T P = Q R gives P^T A = R^T Q^T, so with y = Q^T x the independent rows
 * read R11^T y_1 = (P^T b)_{1..r}; y_2 = 0 is the least |x| = |y|. */
static void qr_min_norm(sp_work *w, const gsl_vector *b, gsl_vector *x)
{
    gsl_matrix_view W = gsl_matrix_submatrix(w->W, 0, 0, w->cols_used, w->k);
    const size_t mn = w->cols_used < w->k ? w->cols_used : w->k;
    gsl_vector_view tau = gsl_vector_subvector(w->tau, 0, mn);
    gsl_vector_set_zero(x);
    for (size_t i = 0; i < w->rank; i++) {
        /* forward substitution with R11^T (row i of R11^T is column i of R11) */
        double s = gsl_vector_get(b, w->perm[i]);
        for (size_t l = 0; l < i; l++)
            s -= gsl_matrix_get(&W.matrix, l, i) * gsl_vector_get(x, l);
        gsl_vector_set(x, i, s / gsl_matrix_get(&W.matrix, i, i));
    }
    gsl_linalg_QR_Qvec(&W.matrix, &tau.vector, x);
}
/* << spatial-min-norm */

/* The basic solution lambda (k) of A^T lambda = c (c: nc): Q R P^T lambda =
 * c, so mu = P^T lambda has mu_1 = R11^-1 (Q^T c)_{1..r} and mu_2 = 0 (the
 * dependent rows carry no multiplier). tmp: nc entries. */
static void qr_transpose_solve(sp_work *w, const gsl_vector *c, gsl_vector *lambda,
                               gsl_vector *tmp)
{
    gsl_matrix_view W = gsl_matrix_submatrix(w->W, 0, 0, w->cols_used, w->k);
    const size_t mn = w->cols_used < w->k ? w->cols_used : w->k;
    gsl_vector_view tau = gsl_vector_subvector(w->tau, 0, mn);
    gsl_vector_memcpy(tmp, c);
    gsl_linalg_QR_QTvec(&W.matrix, &tau.vector, tmp);
    gsl_vector_set_zero(lambda);
    for (size_t ii = w->rank; ii-- > 0;) {
        double s = gsl_vector_get(tmp, ii);
        for (size_t l = ii + 1; l < w->rank; l++)
            s -= gsl_matrix_get(&W.matrix, ii, l) * gsl_vector_get(lambda, w->perm[l]);
        gsl_vector_set(lambda, w->perm[ii], s / gsl_matrix_get(&W.matrix, ii, ii));
    }
}
/* << spatial-qrpt */

/* W = Cq^T (all columns) */
static void fill_transpose(sp_work *w, const gsl_matrix *Cq)
{
    gsl_matrix_view W = gsl_matrix_submatrix(w->W, 0, 0, Cq->size2, Cq->size1);
    gsl_matrix_transpose_memcpy(&W.matrix, Cq);
}

static double inf_norm(const gsl_vector *v, size_t *where)
{
    double worst = 0.0;
    size_t at = 0;
    for (size_t k = 0; k < v->size; k++) {
        const double a = fabs(gsl_vector_get(v, k));
        if (!(a <= worst)) {   /* a NaN wins */
            worst = a;
            at = k;
        }
    }
    if (where != NULL)
        *where = at;
    return worst;
}

static void report_fill(const mbd_spatial_model *sm, mbd_spatial_report *rep, unsigned iter,
                        double residual, size_t worst, size_t unknowns)
{
    if (rep == NULL)
        return;
    const sp_work *w = &sm->w;
    memset(rep, 0, sizeof *rep);
    rep->iterations = iter;
    rep->residual = residual;
    rep->rows = w->k;
    rep->unknowns = unknowns;
    rep->rank = w->rank;
    rep->dof = unknowns > w->rank ? unknowns - w->rank : 0;
    rep->n_dropped = w->k > w->rank ? w->k - w->rank : 0;
    for (size_t i = 0; i < rep->n_dropped && i < MBD_SPATIAL_REPORT_ROWS; i++)
        rep->dropped[i] = w->perm[w->rank + i];
    rep->worst = worst;
}

/* "'a' 1.2e-01, 'b' 3e-02, 'c' 1e-05": the three largest |v_k| with their
 * rows' names */
static void largest_rows(const mbd_spatial_model *sm, const gsl_vector *v, double floor, char *buf,
                         size_t len)
{
    size_t top[3] = {SP_NONE, SP_NONE, SP_NONE};
    for (size_t k = 0; k < v->size; k++) {
        const double a = fabs(gsl_vector_get(v, k));
        for (int s = 0; s < 3; s++) {
            if (top[s] == SP_NONE || a > fabs(gsl_vector_get(v, top[s]))
                || (isnan(a) && !isnan(gsl_vector_get(v, top[s])))) {
                for (int u = 2; u > s; u--)
                    top[u] = top[u - 1];
                top[s] = k;
                break;
            }
        }
    }
    buf[0] = '\0';
    size_t used = 0;
    for (int s = 0; s < 3 && top[s] != SP_NONE; s++) {
        /* the largest always; the others only when they are above the floor */
        if (s > 0 && !(fabs(gsl_vector_get(v, top[s])) > floor))
            break;
        int wr = snprintf(buf + used, len - used, "%s'%s' %.3g", s ? ", " : "",
                          sm->rows[top[s]].name, gsl_vector_get(v, top[s]));
        if (wr < 0 || (size_t)wr >= len - used)
            break;
        used += (size_t)wr;
    }
}

/* "'a', 'b'": the dependent rows of the last factorisation (at most 3) */
static void dropped_rows(const mbd_spatial_model *sm, char *buf, size_t len)
{
    const sp_work *w = &sm->w;
    buf[0] = '\0';
    size_t used = 0;
    for (size_t i = w->rank; i < w->k && i < w->rank + 3; i++) {
        int wr = snprintf(buf + used, len - used, "%s'%s'", i > w->rank ? ", " : "",
                          sm->rows[w->perm[i]].name);
        if (wr < 0 || (size_t)wr >= len - used)
            return;
        used += (size_t)wr;
    }
    if (w->k > w->rank + 3)
        snprintf(buf + used, len - used, " and %zu more", w->k - w->rank - 3);
}

static int finished(mbd_spatial_model *sm, const gsl_vector *a, const gsl_vector *b)
{
    if (sm == NULL || !sm->finished || a == NULL)
        return MBD_EINPUT;
    if (a->size != sm->n || (b != NULL && b->size != sm->n))
        return GSL_EBADLEN;
    mbd_failure_clear(&sm->last);
    return GSL_SUCCESS;
}

/* nu = -C_t (m) into v */
static int nu_of(mbd_spatial_model *sm, double t, const gsl_vector *q, gsl_vector *v)
{
    const mbd_system *s = &sm->sys;
    if (s->constraint_t == NULL) {
        gsl_vector_set_zero(v);
        return GSL_SUCCESS;
    }
    int st = s->constraint_t(s, t, q, v);
    if (st == GSL_SUCCESS)
        gsl_vector_scale(v, -1.0);
    return st;
}

/* ------------------------------------------------------------------------ */
/* Positions: Newton with minimum-norm steps                                 */

/* >> spatial-newton */
static int newton(mbd_spatial_model *sm, double t, gsl_vector *q, const opts *o, int halving,
                  const char *what, mbd_spatial_report *rep)
{
    const mbd_system *s = &sm->sys;
    sp_work *w = &sm->w;
    char rows[200], drop[160];
    double res = HUGE_VAL;
    size_t worst = 0;
    int st;
    for (unsigned it = 0;; it++) {
        st = s->constraint(s, t, q, w->phi);
        if (st != GSL_SUCCESS)
            return mbd_failure_set(&sm->last, st, t, "%s: the constraints could not be "
                                   "evaluated (%s)", what, mbd_strerror(st));
        res = inf_norm(w->phi, &worst);
        if (!isfinite(res))
            return mbd_failure_set(&sm->last, MBD_ENONFINITE, t, "%s: row '%s' is not finite",
                                   what, sm->rows[worst].name);
        if (res <= o->tol) {
            report_fill(sm, rep, it, res, worst, sm->n);
            return GSL_SUCCESS;
        }
        if (it == o->max_iter)
            break;
        /* the step: Phi_q dq = -Phi, minimum norm over the independent rows */
        st = s->jacobian(s, t, q, w->Cq);
        if (st == GSL_SUCCESS) {
            fill_transpose(w, w->Cq);
            st = qr_factor(w, sm->n, sm->m, o->rank_tol);
        }
        if (st != GSL_SUCCESS)
            return mbd_failure_set(&sm->last, st, t, "%s: the Jacobian could not be evaluated "
                                   "or factored (%s)", what, mbd_strerror(st));
        gsl_vector_memcpy(w->rhs, w->phi);
        gsl_vector_scale(w->rhs, -1.0);
        qr_min_norm(w, w->rhs, w->x);
        if (!halving) {
            gsl_vector_add(q, w->x);
            continue;
        }
        /* assembly from a poor guess: halve the step until |Phi| decreases */
        const double before = gsl_blas_dnrm2(w->phi);
        double alpha = 1.0;
        int better = 0;
        for (int h = 0; h <= HALVINGS && !better; h++, alpha *= 0.5) {
            gsl_vector_memcpy(w->qtry, q);
            gsl_blas_daxpy(alpha, w->x, w->qtry);
            st = s->constraint(s, t, w->qtry, w->res);
            if (st != GSL_SUCCESS)
                return mbd_failure_set(&sm->last, st, t, "%s: the constraints could not be "
                                       "evaluated (%s)", what, mbd_strerror(st));
            better = gsl_blas_dnrm2(w->res) < before;
        }
        if (!better) {
            largest_rows(sm, w->phi, o->tol, rows, sizeof rows);
            report_fill(sm, rep, it, res, worst, sm->n);
            return mbd_failure_set(&sm->last, MBD_ENOCONV, t,
                                   "%s: stuck at |Phi|_inf = %.3g: no step along Newton's "
                                   "direction decreases |Phi| (the constraints may have no "
                                   "common solution); residuals above the tolerance: %s",
                                   what, res, rows);
        }
        gsl_vector_memcpy(q, w->qtry);
    }
    report_fill(sm, rep, o->max_iter, res, worst, sm->n);
    largest_rows(sm, w->phi, o->tol, rows, sizeof rows);
    if (w->rank < w->k) {
        dropped_rows(sm, drop, sizeof drop);
        return mbd_failure_set(&sm->last, MBD_ENOCONV, t,
                               "%s: |Phi| = %.3g after %u iterations; largest residuals: %s "
                               "(rank %zu of %zu rows; dependent: %s)",
                               what, res, o->max_iter, rows, w->rank, w->k, drop);
    }
    return mbd_failure_set(&sm->last, MBD_ENOCONV, t,
                           "%s: |Phi| = %.3g after %u iterations; largest residuals: %s", what,
                           res, o->max_iter, rows);
}
/* << spatial-newton */

int mbd_spatial_position(mbd_spatial_model *sm, double t, gsl_vector *q,
                         const mbd_spatial_options *o, mbd_spatial_report *rep)
{
    int st = finished(sm, q, NULL);
    if (st != GSL_SUCCESS)
        return st;
    const opts op = options_of(o);
    return newton(sm, t, q, &op, 0, "position analysis", rep);
}

int mbd_spatial_assemble(mbd_spatial_model *sm, double t, gsl_vector *q,
                         const mbd_spatial_options *o, mbd_spatial_report *rep)
{
    int st = finished(sm, q, NULL);
    if (st != GSL_SUCCESS)
        return st;
    /* each p onto the unit sphere first: the normalisation rows hold */
    for (size_t b = 0; b < sm->nb; b++) {
        if (sm->bodies[b].ground)
            continue;
        gsl_vector_view p = gsl_vector_subvector(q, sm->bodies[b].col + 3, 4);
        const double len = gsl_blas_dnrm2(&p.vector);
        if (!(len > 0 && isfinite(len)))
            return mbd_failure_set(&sm->last, MBD_EINPUT, t, "assembly: body '%s' has p = 0 "
                                   "or a non-finite p", sm->bodies[b].name);
        gsl_vector_scale(&p.vector, 1.0 / len);
    }
    const opts op = options_of(o);
    return newton(sm, t, q, &op, 1, "assembly", rep);
}

/* ------------------------------------------------------------------------ */
/* Velocities and accelerations                                              */

/* The residual A x - b of the rows of the whole Jacobian against the
 * right-hand side b (m): its largest entry must be within the tolerance */
static int check_rows(mbd_spatial_model *sm, double t, const gsl_vector *x, const gsl_vector *b,
                      const opts *o, int status, const char *what, double *res, size_t *worst)
{
    sp_work *w = &sm->w;
    gsl_vector_memcpy(w->res, b);
    gsl_blas_dgemv(CblasNoTrans, 1.0, w->Cq, x, -1.0, w->res);
    *res = inf_norm(w->res, worst);
    const double scale = fmax(1.0, inf_norm(b, NULL));
    if (*res <= o->consistency * scale)
        return GSL_SUCCESS;
    char rows[200];
    largest_rows(sm, w->res, 0.0, rows, sizeof rows);
    return mbd_failure_set(&sm->last, status, t, "%s: rows not satisfied (rank %zu of %zu); "
                           "largest residuals: %s", what, w->rank, w->k, rows);
}

/* >> spatial-velocity */
int mbd_spatial_velocity(mbd_spatial_model *sm, double t, const gsl_vector *q, gsl_vector *qd,
                         const int *known, const mbd_spatial_options *o,
                         mbd_spatial_report *rep)
{
    int st = finished(sm, q, qd);
    if (st != GSL_SUCCESS)
        return st;
    if (qd == NULL)
        return MBD_EINPUT;
    const opts op = options_of(o);
    const mbd_system *s = &sm->sys;
    sp_work *w = &sm->w;
    st = s->jacobian(s, t, q, w->Cq);
    if (st == GSL_SUCCESS)
        st = nu_of(sm, t, q, w->rhs);
    if (st != GSL_SUCCESS)
        return mbd_failure_set(&sm->last, st, t, "velocity analysis: the model failed (%s)",
                               mbd_strerror(st));
    /* the unknown columns, and x = the known part of q' (zero elsewhere) */
    size_t nc = 0;
    int any_known = 0;
    gsl_vector_memcpy(w->xs, qd);
    for (size_t b = 0; b < sm->nb; b++) {
        const sp_body *bd = &sm->bodies[b];
        if (bd->ground)
            continue;
        if (known != NULL && known[b]) {
            any_known = 1;
            continue;
        }
        for (size_t c = 0; c < 7; c++) {
            w->cols[nc++] = bd->col + c;
            gsl_vector_set(w->xs, bd->col + c, 0.0);
        }
    }
    /* b = nu - Phi_q,known q'_known  (document eq. 11) */
    gsl_vector_memcpy(w->phi, w->rhs);
    gsl_blas_dgemv(CblasNoTrans, -1.0, w->Cq, w->xs, 1.0, w->phi);
    if (nc > 0) {
        gsl_matrix_view W = gsl_matrix_submatrix(w->W, 0, 0, nc, sm->m);
        for (size_t c = 0; c < nc; c++)
            for (size_t r = 0; r < sm->m; r++)
                gsl_matrix_set(&W.matrix, c, r, gsl_matrix_get(w->Cq, r, w->cols[c]));
        gsl_vector_view y = gsl_vector_subvector(w->y, 0, nc);
        if (nc * sm->m >= SP_SPARSE_QR_MIN) {
            st = sparse_min_norm(w, nc, sm->m, op.rank_tol, w->phi, &y.vector);
        } else {
            st = qr_factor(w, nc, sm->m, op.rank_tol);
            if (st == GSL_SUCCESS)
                qr_min_norm(w, w->phi, &y.vector);
        }
        if (st != GSL_SUCCESS)
            return mbd_failure_set(&sm->last, st, t, "velocity analysis: the Jacobian could "
                                   "not be factored (%s)", mbd_strerror(st));
        for (size_t c = 0; c < nc; c++)
            gsl_vector_set(w->xs, w->cols[c], gsl_vector_get(&y.vector, c));
    } else {
        /* case 1, nothing to solve: every row is only checked */
        w->k = sm->m;
        w->cols_used = 0;
        w->rank = 0;
        for (size_t r = 0; r < sm->m; r++)
            w->perm[r] = r;
    }
    double res;
    size_t worst;
    st = check_rows(sm, t, w->xs, w->rhs, &op, any_known ? MBD_EINPUT : MBD_ESINGULAR,
                    any_known ? "velocity analysis: the known velocities" : "velocity analysis",
                    &res, &worst);
    report_fill(sm, rep, 0, res, worst, nc);
    if (st != GSL_SUCCESS)
        return st;
    gsl_vector_memcpy(qd, w->xs);
    return GSL_SUCCESS;
}
/* << spatial-velocity */

int mbd_spatial_acceleration(mbd_spatial_model *sm, double t, const gsl_vector *q,
                             const gsl_vector *qd, gsl_vector *qdd, const mbd_spatial_options *o,
                             mbd_spatial_report *rep)
{
    int st = finished(sm, q, qd);
    if (st == GSL_SUCCESS && (qd == NULL || qdd == NULL))
        st = MBD_EINPUT;
    if (st == GSL_SUCCESS && qdd->size != sm->n)
        st = GSL_EBADLEN;
    if (st != GSL_SUCCESS)
        return st;
    const opts op = options_of(o);
    const mbd_system *s = &sm->sys;
    sp_work *w = &sm->w;
    st = s->jacobian(s, t, q, w->Cq);
    if (st == GSL_SUCCESS)
        st = s->gamma(s, t, q, qd, w->rhs);
    if (st == GSL_SUCCESS) {
        fill_transpose(w, w->Cq);
        st = qr_factor(w, sm->n, sm->m, op.rank_tol);
    }
    if (st != GSL_SUCCESS)
        return mbd_failure_set(&sm->last, st, t, "acceleration analysis: the model failed (%s)",
                               mbd_strerror(st));
    qr_min_norm(w, w->rhs, w->x);
    double res;
    size_t worst;
    st = check_rows(sm, t, w->x, w->rhs, &op, MBD_ESINGULAR, "acceleration analysis", &res,
                    &worst);
    report_fill(sm, rep, 0, res, worst, sm->n);
    if (st != GSL_SUCCESS)
        return st;
    gsl_vector_memcpy(qdd, w->x);
    return GSL_SUCCESS;
}

/* >> spatial-multipliers */
int mbd_spatial_multipliers(mbd_spatial_model *sm, double t, const gsl_vector *q,
                            const gsl_vector *qd, const gsl_vector *qdd, gsl_vector *lambda,
                            const mbd_spatial_options *o, mbd_spatial_report *rep)
{
    int st = finished(sm, q, qd);
    if (st == GSL_SUCCESS && (qd == NULL || qdd == NULL || lambda == NULL))
        st = MBD_EINPUT;
    if (st == GSL_SUCCESS && (qdd->size != sm->n || lambda->size != sm->m))
        st = GSL_EBADLEN;
    if (st != GSL_SUCCESS)
        return st;
    const opts op = options_of(o);
    const mbd_system *s = &sm->sys;
    sp_work *w = &sm->w;
    /* c = F - M q'' */
    st = s->mass(s, t, q, w->M);
    if (st == GSL_SUCCESS)
        st = s->force(s, t, q, qd, w->F);
    if (st == GSL_SUCCESS)
        st = s->jacobian(s, t, q, w->Cq);
    if (st == GSL_SUCCESS) {
        fill_transpose(w, w->Cq);
        st = qr_factor(w, sm->n, sm->m, op.rank_tol);
    }
    if (st != GSL_SUCCESS)
        return mbd_failure_set(&sm->last, st, t, "inverse dynamics: the model failed (%s)",
                               mbd_strerror(st));
    gsl_vector_memcpy(w->y, w->F);
    gsl_blas_dgemv(CblasNoTrans, -1.0, w->M, qdd, 1.0, w->y);
    qr_transpose_solve(w, w->y, lambda, w->xs);
    /* Phi_q^T lambda = c must hold in all n equations */
    gsl_vector_memcpy(w->x, w->y);
    gsl_blas_dgemv(CblasTrans, 1.0, w->Cq, lambda, -1.0, w->x);
    size_t worst;
    const double res = inf_norm(w->x, &worst);
    report_fill(sm, rep, 0, res, worst, sm->m);
    if (rep != NULL)
        rep->dof = sm->n > w->rank ? sm->n - w->rank : 0;
    if (!(res <= op.consistency * fmax(1.0, inf_norm(w->y, NULL))))
        return mbd_failure_set(&sm->last, MBD_EINPUT, t,
                               "inverse dynamics: no multipliers balance the forces in "
                               "coordinate %s (residual %.3g; rank %zu of %zu coordinates: the "
                               "model is not fully driven)", sm->name_ptrs[worst], res, w->rank,
                               sm->n);
    return GSL_SUCCESS;
}
/* << spatial-multipliers */

/* ------------------------------------------------------------------------ */
/* Reactions                                                                 */

/* >> spatial-reactions */
static void reaction_on(const mbd_spatial_model *sm, const sp_joint *jt, int side,
                        const gsl_vector *q, const gsl_vector *lambda, mbd_spatial_reaction *out)
{
    const int b = side == 0 ? jt->i : jt->j;
    double F[3] = {0.0, 0.0, 0.0}, tau[4] = {0.0, 0.0, 0.0, 0.0};
    for (size_t k = jt->first; k < jt->first + jt->count; k++) {
        const sp_row *r = &sm->rows[k];
        mbd_spatial_row_eval e;
        sp_row_blocks(sm, k, q, &e);
        /* the row's side that is this body (the revolute-cylindrical joint's
         * DP2 rows have the bodies the other way round) */
        const int sd = r->i == b ? 0 : 1;
        const double lam = gsl_vector_get(lambda, k);
        for (int x = 0; x < 3; x++)
            F[x] -= e.phi_r[sd][x] * lam;
        for (int x = 0; x < 4; x++)
            tau[x] -= e.phi_p[sd][x] * lam;
    }
    sp_side z;
    sp_side_of(sm, b, q, NULL, &z);
    /* n_bar = G tau / 2 (tau = 2 G^T n_bar, G G^T = I on |p| = 1); n = A n_bar */
    double G[3][4], nbar[3];
    mbd_spatial_ep_G(z.p, G);
    sp_mul34(G, tau, nbar);
    for (int x = 0; x < 3; x++)
        nbar[x] *= 0.5;
    memcpy(out->F, F, sizeof F);
    sp_matvec3(&z.A[0][0], nbar, out->n);
    double a[3] = {0.0, 0.0, 0.0};
    if (jt->has_point)
        sp_matvec3(&z.A[0][0], side == 0 ? jt->sp : jt->sq, a);
    double axF[3];
    sp_cross3(a, F, axF);
    for (int x = 0; x < 3; x++) {
        out->point[x] = z.r[x] + a[x];
        out->n_point[x] = out->n[x] - axF[x];
    }
}
/* << spatial-reactions */

int mbd_spatial_reactions(const mbd_spatial_model *sm, int k, const gsl_vector *q,
                          const gsl_vector *lambda, mbd_spatial_reaction *on_i,
                          mbd_spatial_reaction *on_j)
{
    if (sm == NULL || !sm->finished || q == NULL || lambda == NULL || k < 0
        || (size_t)k >= sm->nj)
        return MBD_EINPUT;
    if (q->size != sm->n || lambda->size != sm->m)
        return GSL_EBADLEN;
    const sp_joint *jt = &sm->joints[k];
    if (on_i != NULL)
        reaction_on(sm, jt, 0, q, lambda, on_i);
    if (on_j != NULL)
        reaction_on(sm, jt, 1, q, lambda, on_j);
    return GSL_SUCCESS;
}

/* ------------------------------------------------------------------------ */
/* Kinematics and inverse dynamics over time                                 */

/* >> spatial-kinematics */
static int run(mbd_spatial_model *sm, double t0, double t1, double h, gsl_vector *q,
               const mbd_spatial_options *o, mbd_spatial_observer obs, void *user,
               int inverse)
{
    int st = finished(sm, q, NULL);
    if (st != GSL_SUCCESS)
        return st;
    const char *what = inverse ? "inverse dynamics" : "kinematics";
    if (!(isfinite(t0) && isfinite(t1) && t1 >= t0 && h > 0 && isfinite(h)))
        return mbd_failure_set(&sm->last, MBD_EINPUT, t0, "%s: bad times t0 = %g, t1 = %g, "
                               "h = %g", what, t0, t1, h);
    const opts op = options_of(o);
    sp_work *w = &sm->w;
    const double span = t1 - t0;
    const double steps = ceil(span / h - 1e-9);
    if (steps > 1e9)
        return mbd_failure_set(&sm->last, MBD_EINPUT, t0, "%s: %g steps are too many", what,
                               steps);
    const size_t N = (size_t)steps;
    mbd_spatial_report rep;
    double tprev = t0;
    for (size_t k = 0; k <= N; k++) {
        const double t = N > 0 ? t0 + span * (double)k / (double)N : t0;
        if (k > 0) {
            /* the Taylor prediction, then Newton (document eq. 12) */
            const double hk = t - tprev;
            gsl_blas_daxpy(hk, w->qd, q);
            gsl_blas_daxpy(0.5 * hk * hk, w->qdd, q);
        }
        st = newton(sm, t, q, &op, 0, what, &rep);
        if (st != GSL_SUCCESS)
            return st;
        if (k == 0) {
            /* fully driven: Phi_q has rank n (the rows may be more, redundant) */
            st = sm->sys.jacobian(&sm->sys, t, q, w->Cq);
            if (st == GSL_SUCCESS) {
                fill_transpose(w, w->Cq);
                st = qr_factor(w, sm->n, sm->m, op.rank_tol);
            }
            if (st != GSL_SUCCESS)
                return mbd_failure_set(&sm->last, st, t, "%s: the Jacobian failed", what);
            if (w->rank < sm->n)
                return mbd_failure_set(&sm->last, MBD_EINPUT, t,
                                       "%s: the model is not fully driven: Phi_q has rank %zu "
                                       "for %zu coordinates (%zu degrees of freedom; %zu rows)",
                                       what, w->rank, sm->n, sm->n - w->rank, sm->m);
        }
        gsl_vector_set_zero(w->qd);
        st = mbd_spatial_velocity(sm, t, q, w->qd, NULL, o, NULL);          /* eq. 13 */
        if (st == GSL_SUCCESS)
            st = mbd_spatial_acceleration(sm, t, q, w->qd, w->qdd, o, NULL); /* eq. 14 */
        if (st == GSL_SUCCESS && inverse)
            st = mbd_spatial_multipliers(sm, t, q, w->qd, w->qdd, w->lambda, o, NULL);
        if (st != GSL_SUCCESS)
            return st;
        if (obs != NULL) {
            st = obs(sm, t, q, w->qd, w->qdd, inverse ? w->lambda : NULL, user);
            if (st != GSL_SUCCESS)
                return mbd_failure_set(&sm->last, st, t, "%s: the observer stopped the run (%s)",
                                       what, mbd_strerror(st));
        }
        tprev = t;
    }
    return GSL_SUCCESS;
}
/* << spatial-kinematics */

int mbd_spatial_kinematics(mbd_spatial_model *sm, double t0, double t1, double h, gsl_vector *q,
                           const mbd_spatial_options *o, mbd_spatial_observer obs, void *user)
{
    return run(sm, t0, t1, h, q, o, obs, user, 0);
}

int mbd_spatial_inverse_dynamics(mbd_spatial_model *sm, double t0, double t1, double h,
                                 gsl_vector *q, const mbd_spatial_options *o,
                                 mbd_spatial_observer obs, void *user)
{
    return run(sm, t0, t1, h, q, o, obs, user, 1);
}
