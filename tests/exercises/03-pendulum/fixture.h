/* Systems and references for chapter 03's exercises, written independently
 * of the code under test.
 *
 *   fx_pendulum   the document's pendulum (Sec. 2.4.1): q = (x, y, z), m = 1,
 *                 L = 1, gravity 9.81 along +y, C = (x^2 + y^2 - 1, z)
 *   fx_moving     a harder one: masses (2, 2, 3), a circle whose radius
 *                 r(t) = 1 + 0.2 sin 2t changes in time (C_t != 0), gravity
 *                 along +y and a damping force -0.3 q'
 *   fx_coupled    the general case: q = (x, y, z, s), a full mass matrix M(q),
 *                 a force that depends on t, two moving constraints
 *   fx_failing    any of these with callbacks that fail on demand (or a mass
 *                 matrix that is not positive definite)
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
/* Four coordinates, a full mass matrix that depends on q, a force that       */
/* depends on t, two moving constraints                                       */

/* q = (x, y, z, s): M(q) = D + u u^T + the coupling 0.3 between x and s,
 * D = diag(2, 1.5, 3, 0.8), u = (0.6, 0.4 cos x, 0.5, 0.7 sin y) */
static inline int fxc_mass(const mbd_system *s, double t, const gsl_vector *q, gsl_matrix *M)
{
    (void)s; (void)t;
    const double x = gsl_vector_get(q, 0), y = gsl_vector_get(q, 1);
    const double d[4] = {2.0, 1.5, 3.0, 0.8}, u[4] = {0.6, 0.4 * cos(x), 0.5, 0.7 * sin(y)};
    for (size_t i = 0; i < 4; i++)
        for (size_t j = 0; j < 4; j++)
            gsl_matrix_set(M, i, j, (i == j ? d[i] : 0.0) + u[i] * u[j]);
    gsl_matrix_set(M, 0, 3, gsl_matrix_get(M, 0, 3) + 0.3);
    gsl_matrix_set(M, 3, 0, gsl_matrix_get(M, 3, 0) + 0.3);
    return GSL_SUCCESS;
}

/* damping -0.3 q', gravity 2 g along +y, a spring -s and a drive 0.5 cos 3t on s */
static inline int fxc_force(const mbd_system *s, double t, const gsl_vector *q,
                            const gsl_vector *qd, gsl_vector *F)
{
    (void)s;
    for (size_t i = 0; i < 4; i++)
        gsl_vector_set(F, i, -0.3 * gsl_vector_get(qd, i));
    gsl_vector_set(F, 1, gsl_vector_get(F, 1) + 2.0 * FX_G);
    gsl_vector_set(F, 3, gsl_vector_get(F, 3) - gsl_vector_get(q, 3) + 0.5 * cos(3.0 * t));
    return GSL_SUCCESS;
}

/* C = (x^2 + y^2 - r(t)^2, z + 0.5 sin s - 0.1 x sin t): C_t depends on q */
static inline int fxc_constraint(const mbd_system *s, double t, const gsl_vector *q, gsl_vector *C)
{
    (void)s;
    double r, rd, rdd;
    fxm_radius(t, &r, &rd, &rdd);
    const double x = gsl_vector_get(q, 0), y = gsl_vector_get(q, 1);
    gsl_vector_set(C, 0, x * x + y * y - r * r);
    gsl_vector_set(C, 1, gsl_vector_get(q, 2) + 0.5 * sin(gsl_vector_get(q, 3)) - 0.1 * x * sin(t));
    return GSL_SUCCESS;
}

static inline int fxc_jacobian(const mbd_system *s, double t, const gsl_vector *q, gsl_matrix *Cq)
{
    (void)s;
    gsl_matrix_set_zero(Cq);
    gsl_matrix_set(Cq, 0, 0, 2.0 * gsl_vector_get(q, 0));
    gsl_matrix_set(Cq, 1, 0, -0.1 * sin(t));
    gsl_matrix_set(Cq, 0, 1, 2.0 * gsl_vector_get(q, 1));
    gsl_matrix_set(Cq, 1, 2, 1.0);
    gsl_matrix_set(Cq, 1, 3, 0.5 * cos(gsl_vector_get(q, 3)));
    return GSL_SUCCESS;
}

static inline int fxc_constraint_t(const mbd_system *s, double t, const gsl_vector *q,
                                   gsl_vector *Ct)
{
    (void)s;
    double r, rd, rdd;
    fxm_radius(t, &r, &rd, &rdd);
    gsl_vector_set(Ct, 0, -2.0 * r * rd);
    gsl_vector_set(Ct, 1, -0.1 * gsl_vector_get(q, 0) * cos(t));
    return GSL_SUCCESS;
}

/* gamma = -(C_q q')_q q' - 2 C_qt q' - C_tt */
static inline int fxc_gamma(const mbd_system *s, double t, const gsl_vector *q,
                            const gsl_vector *qd, gsl_vector *g)
{
    (void)s;
    double r, rd, rdd;
    fxm_radius(t, &r, &rd, &rdd);
    const double xd = gsl_vector_get(qd, 0), yd = gsl_vector_get(qd, 1);
    const double sv = gsl_vector_get(q, 3), sd = gsl_vector_get(qd, 3);
    gsl_vector_set(g, 0, -2.0 * (xd * xd + yd * yd) + 2.0 * (rd * rd + r * rdd));
    gsl_vector_set(g, 1, 0.5 * sin(sv) * sd * sd + 0.2 * cos(t) * xd
                             - 0.1 * sin(t) * gsl_vector_get(q, 0));
    return GSL_SUCCESS;
}

static inline mbd_system fx_coupled(void)
{
    mbd_system s;
    memset(&s, 0, sizeof s);
    s.n = 4;
    s.m = 2;
    s.mass = fxc_mass;
    s.force = fxc_force;
    s.constraint = fxc_constraint;
    s.jacobian = fxc_jacobian;
    s.constraint_t = fxc_constraint_t;
    s.gamma = fxc_gamma;
    return s;
}

/* ------------------------------------------------------------------------ */
/* A system whose callbacks fail on demand                                   */

enum {
    FXF_MASS = 1, FXF_FORCE = 2, FXF_CONSTRAINT = 4, FXF_JACOBIAN = 8, FXF_CT = 16,
    FXF_GAMMA = 32
};
#define FXF_STATUS GSL_EBADFUNC   /* the status a failing callback returns */

typedef struct {
    const mbd_system *base;
    unsigned fail;          /* FXF_* of the callbacks that fail ... */
    double after;           /* ... when t > after */
    int negate_mass;        /* M -> -M: not positive definite */
    double t_seen;          /* the largest t any callback was called with */
} fx_fail_model;

static inline int fxf_check(const mbd_system *s, double t, unsigned which)
{
    fx_fail_model *f = s->model;
    if (t > f->t_seen)
        f->t_seen = t;
    return (f->fail & which) && t > f->after ? FXF_STATUS : GSL_SUCCESS;
}

static inline int fxf_mass(const mbd_system *s, double t, const gsl_vector *q, gsl_matrix *M)
{
    const fx_fail_model *f = s->model;
    int st = fxf_check(s, t, FXF_MASS);
    if (st == GSL_SUCCESS)
        st = f->base->mass(f->base, t, q, M);
    if (st == GSL_SUCCESS && f->negate_mass)
        gsl_matrix_scale(M, -1.0);
    return st;
}

static inline int fxf_force(const mbd_system *s, double t, const gsl_vector *q,
                            const gsl_vector *qd, gsl_vector *F)
{
    const fx_fail_model *f = s->model;
    int st = fxf_check(s, t, FXF_FORCE);
    return st == GSL_SUCCESS ? f->base->force(f->base, t, q, qd, F) : st;
}

static inline int fxf_constraint(const mbd_system *s, double t, const gsl_vector *q, gsl_vector *C)
{
    const fx_fail_model *f = s->model;
    int st = fxf_check(s, t, FXF_CONSTRAINT);
    return st == GSL_SUCCESS ? f->base->constraint(f->base, t, q, C) : st;
}

static inline int fxf_jacobian(const mbd_system *s, double t, const gsl_vector *q, gsl_matrix *Cq)
{
    const fx_fail_model *f = s->model;
    int st = fxf_check(s, t, FXF_JACOBIAN);
    return st == GSL_SUCCESS ? f->base->jacobian(f->base, t, q, Cq) : st;
}

static inline int fxf_constraint_t(const mbd_system *s, double t, const gsl_vector *q,
                                   gsl_vector *Ct)
{
    const fx_fail_model *f = s->model;
    int st = fxf_check(s, t, FXF_CT);
    return st == GSL_SUCCESS ? f->base->constraint_t(f->base, t, q, Ct) : st;
}

static inline int fxf_gamma(const mbd_system *s, double t, const gsl_vector *q,
                            const gsl_vector *qd, gsl_vector *g)
{
    const fx_fail_model *f = s->model;
    int st = fxf_check(s, t, FXF_GAMMA);
    return st == GSL_SUCCESS ? f->base->gamma(f->base, t, q, qd, g) : st;
}

/* base with the failures of fm (fm->base = base) */
static inline mbd_system fx_failing(fx_fail_model *fm)
{
    mbd_system s;
    memset(&s, 0, sizeof s);
    s.n = fm->base->n;
    s.m = fm->base->m;
    s.model = fm;
    s.mass = fxf_mass;
    s.force = fxf_force;
    s.constraint = fxf_constraint;
    s.jacobian = fxf_jacobian;
    s.constraint_t = fm->base->constraint_t ? fxf_constraint_t : NULL;
    s.gamma = fxf_gamma;
    fm->t_seen = -HUGE_VAL;
    return s;
}

/* ------------------------------------------------------------------------ */
/* Helpers                                                                   */

/* C and C' = C_q q' + C_t of s at (t, q, q') (s->m values each). */
static inline void fx_violation(const mbd_system *s, double t, const double q[],
                                const double qd[], double C[], double Cd[])
{
    gsl_vector_const_view vq = gsl_vector_const_view_array(q, s->n);
    gsl_vector_const_view vqd = gsl_vector_const_view_array(qd, s->n);
    gsl_vector_view vC = gsl_vector_view_array(C, s->m), vCd = gsl_vector_view_array(Cd, s->m);
    gsl_matrix *Cq = gsl_matrix_alloc(s->m, s->n);
    s->constraint(s, t, &vq.vector, &vC.vector);
    s->jacobian(s, t, &vq.vector, Cq);
    if (s->constraint_t)
        s->constraint_t(s, t, &vq.vector, &vCd.vector);
    else
        gsl_vector_set_zero(&vCd.vector);
    gsl_blas_dgemv(CblasNoTrans, 1.0, Cq, &vqd.vector, 1.0, &vCd.vector);
    gsl_matrix_free(Cq);
}

/* the Euclidean norm of v (k values) */
static inline double fx_norm(const double v[], size_t k)
{
    double s = 0;
    for (size_t i = 0; i < k; i++)
        s += v[i] * v[i];
    return sqrt(s);
}

/* The saddle-point system [M C_q^T; C_q 0] [q''; lambda] = [F; gB], solved by
 * LU, where gB = gamma - 2 alpha C' - beta^2 C (alpha = beta = 0: gamma);
 * q'' has s->n values, lambda s->m. */
static inline int fx_kkt(const mbd_system *s, double t, const double q[], const double qd[],
                         double alpha, double beta, double qdd[], double lambda[])
{
    const size_t n = s->n, m = s->m;
    gsl_matrix *K = gsl_matrix_calloc(n + m, n + m), *M = gsl_matrix_alloc(n, n);
    gsl_matrix *Cq = gsl_matrix_alloc(m, n);
    gsl_vector *rhs = gsl_vector_alloc(n + m), *x = gsl_vector_alloc(n + m);
    gsl_vector *F = gsl_vector_alloc(n), *g = gsl_vector_alloc(m);
    gsl_vector *C = gsl_vector_alloc(m), *Cd = gsl_vector_alloc(m);
    gsl_permutation *perm = gsl_permutation_alloc(n + m);
    gsl_vector_const_view vq = gsl_vector_const_view_array(q, n);
    gsl_vector_const_view vqd = gsl_vector_const_view_array(qd, n);
    s->mass(s, t, &vq.vector, M);
    s->force(s, t, &vq.vector, &vqd.vector, F);
    s->jacobian(s, t, &vq.vector, Cq);
    s->gamma(s, t, &vq.vector, &vqd.vector, g);
    fx_violation(s, t, q, qd, C->data, Cd->data);
    for (size_t i = 0; i < m; i++)
        gsl_vector_set(g, i, gsl_vector_get(g, i) - 2 * alpha * gsl_vector_get(Cd, i)
                                 - beta * beta * gsl_vector_get(C, i));
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < n; j++)
            gsl_matrix_set(K, i, j, gsl_matrix_get(M, i, j));
        for (size_t k = 0; k < m; k++) {
            gsl_matrix_set(K, i, n + k, gsl_matrix_get(Cq, k, i));
            gsl_matrix_set(K, n + k, i, gsl_matrix_get(Cq, k, i));
        }
        gsl_vector_set(rhs, i, gsl_vector_get(F, i));
    }
    for (size_t k = 0; k < m; k++)
        gsl_vector_set(rhs, n + k, gsl_vector_get(g, k));
    int sign;
    int st = gsl_linalg_LU_decomp(K, perm, &sign);
    if (st == GSL_SUCCESS)
        st = gsl_linalg_LU_solve(K, perm, rhs, x);
    for (size_t i = 0; i < n; i++)
        qdd[i] = gsl_vector_get(x, i);
    for (size_t k = 0; k < m; k++)
        lambda[k] = gsl_vector_get(x, n + k);
    gsl_matrix_free(K);
    gsl_matrix_free(M);
    gsl_matrix_free(Cq);
    gsl_vector_free(rhs);
    gsl_vector_free(x);
    gsl_vector_free(F);
    gsl_vector_free(g);
    gsl_vector_free(C);
    gsl_vector_free(Cd);
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
