/* Helpers for the dynamics exercises of chapter 09 (09.6, 09.7), written
 * independently of the code under test: a spatial double pendulum with
 * general data (full inertia tensors, a tilted revolute axis off the origin,
 * gravity along no axis, a spring-damper, a rheonomic driver between the
 * bars), posed consistently in closed form; and the BDF residual of a step
 * evaluated through the model's own callbacks. */
#ifndef EX09_FIXTURE_DYN_H
#define EX09_FIXTURE_DYN_H

#include <gsl/gsl_blas.h>

#include "fixture.h"

typedef struct {
    mbd_spatial_model *sm;
    int ground, bar1, bar2;
    double g[3];
    double m1, m2, J1[3][3], J2[3][3];
    double t0;
    gsl_vector *q, *qd;   /* consistent at t0 */
} fx_dpend;

static inline void fx_dpend_free(fx_dpend *d)
{
    gsl_vector_free(d->q);
    gsl_vector_free(d->qd);
    mbd_spatial_free(d->sm);
}

/* spring: whether the bars carry the spring-damper; driver: whether the
 * driver between the bars is added (without it the model has 4 degrees of
 * freedom, with it 3); w1: bar 1's turning rate about the revolute axis. */
static inline int fx_dpend_build(fx_dpend *d, int spring, int driver, double w1)
{
    memset(d, 0, sizeof *d);
    const double P[3] = {0.1, -0.2, 0.3}, s1[3] = {-0.45, 0.05, 0.02}, s12[3] = {0.5, -0.03, 0.04};
    const double s21[3] = {-0.35, 0.02, -0.05};
    const double ai[3] = {1.0, 0.2, -0.1}, bi0[3] = {0.3, 1.0, 0.4};
    double u[3], bi[3];
    fx_cross(ai, bi0, u);
    const double lu = sqrt(fx_dot3(u, u));
    for (int k = 0; k < 3; k++)
        u[k] /= lu;
    fx_cross(u, ai, bi);   /* b_i normal to a_i, both normal to u */
    fx_rng g = {20240917};
    double ax[3], th, p1[4], p2[4], A1[3][3], A2[3][3];
    fx_random_rotation(&g, ax, &th, p1);
    fx_random_rotation(&g, ax, &th, p2);
    fx_A(p1, A1);
    fx_A(p2, A2);
    double cj[3];   /* A1^T u: bar 1's axis */
    for (int k = 0; k < 3; k++)
        cj[k] = A1[0][k] * u[0] + A1[1][k] * u[1] + A1[2][k] * u[2];
    d->m1 = 3.0, d->m2 = 1.7;
    double J1[3][3] = {{0.08, 0.01, -0.006}, {0.01, 0.3, 0.02}, {-0.006, 0.02, 0.33}};
    double J2[3][3] = {{0.05, -0.004, 0.003}, {-0.004, 0.12, 0.01}, {0.003, 0.01, 0.14}};
    memcpy(d->J1, J1, sizeof J1);
    memcpy(d->J2, J2, sizeof J2);
    d->g[0] = 0.5, d->g[1] = -1.2, d->g[2] = -9.7;
    d->t0 = 0.83;
    mbd_spatial_model *sm = d->sm = mbd_spatial_alloc();
    if (sm == NULL)
        return GSL_ENOMEM;
    d->ground = mbd_spatial_add_ground(sm, "ground");
    d->bar1 = mbd_spatial_add_body(sm, "bar1", d->m1, J1);
    d->bar2 = mbd_spatial_add_body(sm, "bar2", d->m2, J2);
    mbd_spatial_set_gravity(sm, d->g);
    mbd_spatial_add_revolute(sm, "pin", d->ground, P, ai, bi, d->bar1, s1, cj);
    mbd_spatial_add_spherical(sm, "ball", d->bar1, s12, d->bar2, s21);
    /* the poses: bar 1's s1 on P, bar 2's s21 on bar 1's s12 */
    double r1[3], r2[3], x[3], y[3];
    fx_matvec(A1, s1, x);
    for (int k = 0; k < 3; k++)
        r1[k] = P[k] - x[k];
    fx_matvec(A1, s12, x);
    fx_matvec(A2, s21, y);
    for (int k = 0; k < 3; k++)
        r2[k] = r1[k] + x[k] - y[k];
    if (spring)
        mbd_spatial_add_tsda(sm, "spring", d->ground, (const double[]){0.6, 0.4, -0.5}, d->bar2,
                             (const double[]){0.3, 0.01, 0.02}, 40.0, 0.3, 2.5, NULL, NULL);
    if (driver) {
        /* DP1(bar 1's a, bar 2's b) = c0 + 0.3 sin(1.7 t), c0 such that it holds at t0 */
        const double a1[3] = {0.2, 1.0, -0.3}, b2[3] = {0.1, 0.4, 1.0};
        double A1a[3], A2b[3];
        fx_matvec(A1, a1, A1a);
        fx_matvec(A2, b2, A2b);
        const double c0 = fx_dot3(A1a, A2b) - 0.3 * sin(1.7 * d->t0);
        mbd_spatial_add_dp1(sm, "driver", d->bar1, a1, d->bar2, b2,
                            mbd_spatial_fn_sum(mbd_spatial_fn_constant(c0),
                                               mbd_spatial_fn_sine(0.3, 1.7, 0.0)));
    }
    int st = mbd_spatial_finish(sm);
    if (st != GSL_SUCCESS)
        return st;
    const size_t n = mbd_spatial_system(sm)->n;
    d->q = gsl_vector_alloc(n);
    d->qd = gsl_vector_alloc(n);
    gsl_vector_set_zero(d->qd);
    mbd_spatial_set_pose(sm, d->bar1, r1, p1, d->q);
    mbd_spatial_set_pose(sm, d->bar2, r2, p2, d->q);
    /* bar 1 turns about the axis through P at w1; bar 2's velocity of least
     * norm that the rows allow (the library's initial-velocity analysis) */
    double w[3] = {w1 * u[0], w1 * u[1], w1 * u[2]}, rp[3], rd[3];
    for (int k = 0; k < 3; k++)
        rp[k] = r1[k] - P[k];
    fx_cross(w, rp, rd);
    mbd_spatial_set_velocity(sm, d->bar1, d->q, rd, w, MBD_SPATIAL_GLOBAL, d->qd);
    int known[3] = {0, 1, 0};
    return mbd_spatial_velocity(sm, d->t0, d->q, d->qd, known, NULL, NULL);
}

/* The residual of a BDF step at z = (q'', lambda):
 *     q' = av + bh q'', q = aq + bh q',
 *     g = [M q'' + Phi_q^T lambda - F; Phi / bh^2]
 * by the model's callbacks. */
static inline void fx_bdf_residual(const mbd_system *s, double t, double bh, const gsl_vector *aq,
                                   const gsl_vector *av, const gsl_vector *z, gsl_vector *g)
{
    const size_t n = s->n, m = s->m;
    gsl_vector *q = gsl_vector_alloc(n), *v = gsl_vector_alloc(n), *F = gsl_vector_alloc(n);
    gsl_vector *C = gsl_vector_alloc(m);
    gsl_matrix *M = gsl_matrix_alloc(n, n), *Cq = gsl_matrix_alloc(m, n);
    for (size_t i = 0; i < n; i++) {
        gsl_vector_set(v, i, gsl_vector_get(av, i) + bh * gsl_vector_get(z, i));
        gsl_vector_set(q, i, gsl_vector_get(aq, i) + bh * gsl_vector_get(v, i));
    }
    s->mass(s, t, q, M);
    s->force(s, t, q, v, F);
    s->constraint(s, t, q, C);
    s->jacobian(s, t, q, Cq);
    gsl_vector_const_view zq = gsl_vector_const_subvector(z, 0, n);
    gsl_vector_const_view zl = gsl_vector_const_subvector(z, n, m);
    gsl_vector_view g1 = gsl_vector_subvector(g, 0, n), g2 = gsl_vector_subvector(g, n, m);
    gsl_vector_memcpy(&g1.vector, F);
    gsl_blas_dgemv(CblasNoTrans, 1.0, M, &zq.vector, -1.0, &g1.vector);
    gsl_blas_dgemv(CblasTrans, 1.0, Cq, &zl.vector, 1.0, &g1.vector);
    gsl_vector_memcpy(&g2.vector, C);
    gsl_vector_scale(&g2.vector, 1.0 / (bh * bh));
    gsl_matrix_free(Cq);
    gsl_matrix_free(M);
    gsl_vector_free(C);
    gsl_vector_free(F);
    gsl_vector_free(v);
    gsl_vector_free(q);
}

#endif
