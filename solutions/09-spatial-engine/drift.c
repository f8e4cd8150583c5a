/* Exercise 09.7: the drifts of the BDF dynamics -- energy, Euler norm,
 * position and velocity constraints -- over a fixed-step run of the
 * library's integrator, and their observed order (see README.md). */
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>

#include "ex09.h"

/* Given: an observer that keeps the time, q and q' of every output in
 * memory (recorded states, to be evaluated after the run). */
typedef struct {
    size_t n, count, cap;
    double *t, *q, *qd;    /* count outputs; q and q' n each */
} ex09_record;

static int ex09_record_observer(const mbd_spatial_model *sm, const mbd_spatial_dynamics_point *pt,
                                void *user)
{
    (void)sm;
    ex09_record *r = user;
    if (r->count == r->cap) {
        const size_t cap = r->cap ? 2 * r->cap : 256;
        double *t = realloc(r->t, cap * sizeof *t);
        if (t != NULL)
            r->t = t;
        double *q = realloc(r->q, cap * r->n * sizeof *q);
        if (q != NULL)
            r->q = q;
        double *qd = realloc(r->qd, cap * r->n * sizeof *qd);
        if (qd != NULL)
            r->qd = qd;
        if (t == NULL || q == NULL || qd == NULL)
            return GSL_ENOMEM;
        r->cap = cap;
    }
    r->t[r->count] = pt->t;
    for (size_t i = 0; i < r->n; i++) {
        r->q[r->count * r->n + i] = gsl_vector_get(pt->q, i);
        r->qd[r->count * r->n + i] = gsl_vector_get(pt->qd, i);
    }
    r->count++;
    return GSL_SUCCESS;
}

int ex09_drift_run(mbd_spatial_model *sm, const double g[3],
                   const mbd_spatial_dynamics_options *o, double t0, double t1,
                   const gsl_vector *q0, const gsl_vector *qd0, ex09_drift *out)
{
    /* EXERCISE 09.7 BEGIN */
    if (sm == NULL || g == NULL || o == NULL || q0 == NULL || qd0 == NULL || out == NULL)
        return MBD_EINPUT;
    const mbd_system *s = mbd_spatial_system(sm);
    if (s == NULL || o->adaptive || !isfinite(t0) || !isfinite(t1) || !(t1 > t0)
        || !isfinite(g[0]) || !isfinite(g[1]) || !isfinite(g[2]))
        return MBD_EINPUT;
    const size_t n = s->n, m = s->m, nb = mbd_spatial_n_bodies(sm);
    if (q0->size != n || qd0->size != n)
        return GSL_EBADLEN;
    mbd_spatial_dynamics *dyn = mbd_spatial_dynamics_alloc(sm, o);
    if (dyn == NULL)
        return MBD_EINPUT;
    ex09_record rec = {n, 0, 0, NULL, NULL, NULL};
    gsl_matrix *M = gsl_matrix_alloc(n, n), *Cq = gsl_matrix_alloc(m, n);
    gsl_vector *Mv = gsl_vector_alloc(n), *C = gsl_vector_alloc(m), *Ct = gsl_vector_alloc(m);
    gsl_vector *q = gsl_vector_alloc(n), *qd = gsl_vector_alloc(n);
    int st;
    if (!M || !Cq || !Mv || !C || !Ct || !q || !qd) {
        st = GSL_ENOMEM;
        goto done;
    }
    gsl_vector_memcpy(q, q0);
    gsl_vector_memcpy(qd, qd0);
    /* outputs at every step's end (dt_out = 0), t0 included */
    if ((st = mbd_spatial_dynamics_run(dyn, t0, t1, 0.0, q, qd, ex09_record_observer, &rec))
        != GSL_SUCCESS)
        goto done;
    ex09_drift d = {0};
    for (size_t k = 0; k < rec.count; k++) {
        const double t = rec.t[k];
        gsl_vector_const_view qk = gsl_vector_const_view_array(rec.q + k * n, n);
        gsl_vector_const_view vk = gsl_vector_const_view_array(rec.qd + k * n, n);
        /* E = (1/2) q'^T M q' - sum_b m_b g^T r_b, m_b from M's r block */
        if ((st = s->mass(s, t, &qk.vector, M)) != GSL_SUCCESS)
            goto done;
        double T, V = 0.0;
        gsl_blas_dgemv(CblasNoTrans, 1.0, M, &vk.vector, 0.0, Mv);
        gsl_blas_ddot(&vk.vector, Mv, &T);
        for (size_t b = 0; b < nb; b++) {
            size_t c;
            if (mbd_spatial_body_coordinates(sm, (int)b, &c) != GSL_SUCCESS)
                continue;   /* a ground */
            const double mb = gsl_matrix_get(M, c, c);
            double pp = 0.0;
            for (size_t x = 0; x < 3; x++)
                V -= mb * g[x] * gsl_vector_get(&qk.vector, c + x);
            for (size_t x = 0; x < 4; x++)
                pp += gsl_vector_get(&qk.vector, c + 3 + x) * gsl_vector_get(&qk.vector, c + 3 + x);
            d.euler = fmax(d.euler, fabs(pp - 1.0));
        }
        const double E = 0.5 * T + V;
        if (k == 0)
            d.energy0 = E;
        d.energy = fmax(d.energy, fabs(E - d.energy0));
        /* Phi, and Phi_q q' - nu = Phi_q q' + Phi_t */
        if ((st = s->constraint(s, t, &qk.vector, C)) != GSL_SUCCESS
            || (st = s->jacobian(s, t, &qk.vector, Cq)) != GSL_SUCCESS)
            goto done;
        if (s->constraint_t != NULL) {
            if ((st = s->constraint_t(s, t, &qk.vector, Ct)) != GSL_SUCCESS)
                goto done;
        } else {
            gsl_vector_set_zero(Ct);
        }
        gsl_blas_dgemv(CblasNoTrans, 1.0, Cq, &vk.vector, 1.0, Ct);
        for (size_t i = 0; i < m; i++) {
            d.phi = fmax(d.phi, fabs(gsl_vector_get(C, i)));
            d.velocity = fmax(d.velocity, fabs(gsl_vector_get(Ct, i)));
        }
    }
    const mbd_spatial_dynamics_stats *stats = mbd_spatial_dynamics_stats_get(dyn);
    d.steps = stats->steps;
    d.newton_iterations = stats->newton_iterations;
    *out = d;
done:
    free(rec.qd);
    free(rec.q);
    free(rec.t);
    gsl_vector_free(qd);
    gsl_vector_free(q);
    gsl_vector_free(Ct);
    gsl_vector_free(C);
    gsl_vector_free(Mv);
    gsl_matrix_free(Cq);
    gsl_matrix_free(M);
    mbd_spatial_dynamics_free(dyn);
    return st;
    /* EXERCISE 09.7 STUB
    (void)sm; (void)g; (void)o; (void)t0; (void)t1; (void)q0; (void)qd0; (void)out;
    (void)ex09_record_observer;
    EXERCISE 09.7 END */
}

int ex09_drift_order(mbd_spatial_model *sm, const double g[3],
                     const mbd_spatial_dynamics_options *o, double t0, double t1,
                     const gsl_vector *q0, const gsl_vector *qd0, double order[2])
{
    /* EXERCISE 09.7 BEGIN */
    if (o == NULL || order == NULL || !(o->h > 0))
        return MBD_EINPUT;
    ex09_drift d[2];
    mbd_spatial_dynamics_options oh = *o;
    for (int k = 0; k < 2; k++) {
        oh.h = k == 0 ? o->h : o->h / 2;
        const int st = ex09_drift_run(sm, g, &oh, t0, t1, q0, qd0, &d[k]);
        if (st != GSL_SUCCESS)
            return st;
    }
    if (!(d[0].energy > 0 && d[1].energy > 0 && d[0].velocity > 0 && d[1].velocity > 0))
        return GSL_EDOM;
    order[0] = log2(d[0].energy / d[1].energy);
    order[1] = log2(d[0].velocity / d[1].velocity);
    return GSL_SUCCESS;
    /* EXERCISE 09.7 STUB
    (void)sm; (void)g; (void)o; (void)t0; (void)t1; (void)q0; (void)qd0; (void)order;
    EXERCISE 09.7 END */
}
