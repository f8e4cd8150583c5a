/* Systems and references for chapter 03's exercises, written independently
 * of the code under test.
 *
 *   fx_pendulum   the document's pendulum (Sec. 2.4.1): q = (x, y, z), m = 1,
 *                 L = 1, gravity 9.81 along +y, C = (x^2 + y^2 - 1, z)
 *   fx_moving     a harder one: masses (2, 2, 3), a circle whose radius
 *                 r(t) = 1 + 0.2 sin 2t changes in time (C_t != 0), gravity
 *                 along +y and a damping force -0.3 q'
 *   fx_kkt        the exact accelerations and multipliers: the saddle-point
 *                 system [M C_q^T; C_q 0] [q''; lambda] = [F; g] by LU
 *   fx_reference  theta'' = -(g/L) sin theta by GSL's rk8pd driver at 1e-13
 */
#ifndef EX03_FIXTURE_H
#define EX03_FIXTURE_H

#include <math.h>
#include <string.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_odeiv2.h>
#include <gsl/gsl_permutation.h>
#include <gsl/gsl_vector.h>

#include "mbd/system.h"

#define FX_G 9.81

/* ------------------------------------------------------------------------ */
/* The pendulum of document 000                                              */

static inline int fxp_mass(const mbd_system *s, double t, const gsl_vector *q, gsl_matrix *M)
{
    (void)s; (void)t; (void)q;
    gsl_matrix_set_identity(M);
    return GSL_SUCCESS;
}

static inline int fxp_force(const mbd_system *s, double t, const gsl_vector *q,
                            const gsl_vector *qd, gsl_vector *F)
{
    (void)s; (void)t; (void)q; (void)qd;
    gsl_vector_set_zero(F);
    gsl_vector_set(F, 1, FX_G);
    return GSL_SUCCESS;
}

static inline int fxp_constraint(const mbd_system *s, double t, const gsl_vector *q, gsl_vector *C)
{
    (void)s; (void)t;
    const double x = gsl_vector_get(q, 0), y = gsl_vector_get(q, 1);
    gsl_vector_set(C, 0, x * x + y * y - 1.0);
    gsl_vector_set(C, 1, gsl_vector_get(q, 2));
    return GSL_SUCCESS;
}

static inline int fxp_jacobian(const mbd_system *s, double t, const gsl_vector *q, gsl_matrix *Cq)
{
    (void)s; (void)t;
    gsl_matrix_set_zero(Cq);
    gsl_matrix_set(Cq, 0, 0, 2.0 * gsl_vector_get(q, 0));
    gsl_matrix_set(Cq, 0, 1, 2.0 * gsl_vector_get(q, 1));
    gsl_matrix_set(Cq, 1, 2, 1.0);
    return GSL_SUCCESS;
}

static inline int fxp_gamma(const mbd_system *s, double t, const gsl_vector *q,
                            const gsl_vector *qd, gsl_vector *g)
{
    (void)s; (void)t; (void)q;
    const double xd = gsl_vector_get(qd, 0), yd = gsl_vector_get(qd, 1);
    gsl_vector_set(g, 0, -2.0 * (xd * xd + yd * yd));
    gsl_vector_set(g, 1, 0.0);
    return GSL_SUCCESS;
}

static inline mbd_system fx_pendulum(void)
{
    mbd_system s;
    memset(&s, 0, sizeof s);
    s.n = 3;
    s.m = 2;
    s.mass = fxp_mass;
    s.force = fxp_force;
    s.constraint = fxp_constraint;
    s.jacobian = fxp_jacobian;
    s.gamma = fxp_gamma;
    return s;
}

/* ------------------------------------------------------------------------ */
/* A particle on a breathing circle, unequal masses, damping                 */

#define FXM_M0 2.0
#define FXM_M2 3.0
#define FXM_DAMP 0.3

static inline void fxm_radius(double t, double *r, double *rd, double *rdd)
{
    *r = 1.0 + 0.2 * sin(2.0 * t);
    *rd = 0.4 * cos(2.0 * t);
    *rdd = -0.8 * sin(2.0 * t);
}

static inline int fxm_mass(const mbd_system *s, double t, const gsl_vector *q, gsl_matrix *M)
{
    (void)s; (void)t; (void)q;
    gsl_matrix_set_zero(M);
    gsl_matrix_set(M, 0, 0, FXM_M0);
    gsl_matrix_set(M, 1, 1, FXM_M0);
    gsl_matrix_set(M, 2, 2, FXM_M2);
    return GSL_SUCCESS;
}

static inline int fxm_force(const mbd_system *s, double t, const gsl_vector *q,
                            const gsl_vector *qd, gsl_vector *F)
{
    (void)s; (void)t; (void)q;
    for (size_t i = 0; i < 3; i++)
        gsl_vector_set(F, i, -FXM_DAMP * gsl_vector_get(qd, i));
    gsl_vector_set(F, 1, gsl_vector_get(F, 1) + FXM_M0 * FX_G);
    return GSL_SUCCESS;
}

static inline int fxm_constraint(const mbd_system *s, double t, const gsl_vector *q, gsl_vector *C)
{
    (void)s;
    double r, rd, rdd;
    fxm_radius(t, &r, &rd, &rdd);
    const double x = gsl_vector_get(q, 0), y = gsl_vector_get(q, 1);
    gsl_vector_set(C, 0, x * x + y * y - r * r);
    gsl_vector_set(C, 1, gsl_vector_get(q, 2));
    return GSL_SUCCESS;
}

static inline int fxm_constraint_t(const mbd_system *s, double t, const gsl_vector *q,
                                   gsl_vector *Ct)
{
    (void)s; (void)q;
    double r, rd, rdd;
    fxm_radius(t, &r, &rd, &rdd);
    gsl_vector_set(Ct, 0, -2.0 * r * rd);
    gsl_vector_set(Ct, 1, 0.0);
    return GSL_SUCCESS;
}

/* gamma = -(C_q q')_q q' - 2 C_qt q' - C_tt, C_tt = -2 (r'^2 + r r'') */
static inline int fxm_gamma(const mbd_system *s, double t, const gsl_vector *q,
                            const gsl_vector *qd, gsl_vector *g)
{
    (void)s; (void)q;
    double r, rd, rdd;
    fxm_radius(t, &r, &rd, &rdd);
    const double xd = gsl_vector_get(qd, 0), yd = gsl_vector_get(qd, 1);
    gsl_vector_set(g, 0, -2.0 * (xd * xd + yd * yd) + 2.0 * (rd * rd + r * rdd));
    gsl_vector_set(g, 1, 0.0);
    return GSL_SUCCESS;
}

static inline mbd_system fx_moving(void)
{
    mbd_system s;
    memset(&s, 0, sizeof s);
    s.n = 3;
    s.m = 2;
    s.mass = fxm_mass;
    s.force = fxm_force;
    s.constraint = fxm_constraint;
    s.jacobian = fxp_jacobian;
    s.constraint_t = fxm_constraint_t;
    s.gamma = fxm_gamma;
    return s;
}

/* ------------------------------------------------------------------------ */
/* Helpers                                                                   */

/* C and C' = C_q q' + C_t of s at (t, q, q') (m = 2). */
static inline void fx_violation(const mbd_system *s, double t, const double q[3],
                                const double qd[3], double C[2], double Cd[2])
{
    gsl_vector_const_view vq = gsl_vector_const_view_array(q, 3);
    gsl_vector_const_view vqd = gsl_vector_const_view_array(qd, 3);
    gsl_vector_view vC = gsl_vector_view_array(C, 2), vCd = gsl_vector_view_array(Cd, 2);
    gsl_matrix *Cq = gsl_matrix_alloc(2, 3);
    s->constraint(s, t, &vq.vector, &vC.vector);
    s->jacobian(s, t, &vq.vector, Cq);
    if (s->constraint_t)
        s->constraint_t(s, t, &vq.vector, &vCd.vector);
    else
        gsl_vector_set_zero(&vCd.vector);
    gsl_blas_dgemv(CblasNoTrans, 1.0, Cq, &vqd.vector, 1.0, &vCd.vector);
    gsl_matrix_free(Cq);
}

/* The saddle-point system [M C_q^T; C_q 0] [q''; lambda] = [F; gB], solved by
 * LU, where gB = gamma - 2 alpha C' - beta^2 C (alpha = beta = 0: gamma). */
static inline int fx_kkt(const mbd_system *s, double t, const double q[3], const double qd[3],
                         double alpha, double beta, double qdd[3], double lambda[2])
{
    gsl_matrix *K = gsl_matrix_calloc(5, 5), *M = gsl_matrix_alloc(3, 3), *Cq = gsl_matrix_alloc(2, 3);
    gsl_vector *rhs = gsl_vector_alloc(5), *x = gsl_vector_alloc(5);
    gsl_vector *F = gsl_vector_alloc(3), *g = gsl_vector_alloc(2);
    gsl_permutation *perm = gsl_permutation_alloc(5);
    gsl_vector_const_view vq = gsl_vector_const_view_array(q, 3);
    gsl_vector_const_view vqd = gsl_vector_const_view_array(qd, 3);
    s->mass(s, t, &vq.vector, M);
    s->force(s, t, &vq.vector, &vqd.vector, F);
    s->jacobian(s, t, &vq.vector, Cq);
    s->gamma(s, t, &vq.vector, &vqd.vector, g);
    double C[2], Cd[2];
    fx_violation(s, t, q, qd, C, Cd);
    for (size_t i = 0; i < 2; i++)
        gsl_vector_set(g, i, gsl_vector_get(g, i) - 2 * alpha * Cd[i] - beta * beta * C[i]);
    for (size_t i = 0; i < 3; i++) {
        for (size_t j = 0; j < 3; j++)
            gsl_matrix_set(K, i, j, gsl_matrix_get(M, i, j));
        for (size_t k = 0; k < 2; k++) {
            gsl_matrix_set(K, i, 3 + k, gsl_matrix_get(Cq, k, i));
            gsl_matrix_set(K, 3 + k, i, gsl_matrix_get(Cq, k, i));
        }
        gsl_vector_set(rhs, i, gsl_vector_get(F, i));
    }
    for (size_t k = 0; k < 2; k++)
        gsl_vector_set(rhs, 3 + k, gsl_vector_get(g, k));
    int sign;
    int st = gsl_linalg_LU_decomp(K, perm, &sign);
    if (st == GSL_SUCCESS)
        st = gsl_linalg_LU_solve(K, perm, rhs, x);
    for (size_t i = 0; i < 3; i++)
        qdd[i] = gsl_vector_get(x, i);
    for (size_t k = 0; k < 2; k++)
        lambda[k] = gsl_vector_get(x, 3 + k);
    gsl_matrix_free(K);
    gsl_matrix_free(M);
    gsl_matrix_free(Cq);
    gsl_vector_free(rhs);
    gsl_vector_free(x);
    gsl_vector_free(F);
    gsl_vector_free(g);
    gsl_permutation_free(perm);
    return st;
}

static inline int fx_reference_rhs(double t, const double y[], double f[], void *params)
{
    (void)t;
    const double *gl = params;   /* g / L */
    f[0] = y[1];
    f[1] = -*gl * sin(y[0]);
    return GSL_SUCCESS;
}

/* theta(t), theta'(t) from theta0 at rest, rk8pd at 1e-13 */
static inline int fx_reference(double g, double L, double theta0, double t, double *theta,
                               double *omega)
{
    double gl = g / L;
    gsl_odeiv2_system sys = {fx_reference_rhs, NULL, 2, &gl};
    gsl_odeiv2_driver *d =
        gsl_odeiv2_driver_alloc_y_new(&sys, gsl_odeiv2_step_rk8pd, 1e-3, 1e-13, 1e-13);
    double y[2] = {theta0, 0.0}, t0 = 0.0;
    int st = t > 0 ? gsl_odeiv2_driver_apply(d, &t0, t, y) : GSL_SUCCESS;
    gsl_odeiv2_driver_free(d);
    *theta = y[0];
    *omega = y[1];
    return st;
}

#endif
