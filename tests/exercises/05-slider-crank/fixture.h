/* The slider-crank for chapter 05's exercise tests, written independently of
 * the code under test: the bodies' energies from their velocities and
 * heights, a mass matrix by polarisation of the kinetic energy, the document's
 * applied forces in general form, and the constrained system for the library
 * (mbd_system), whose mass matrix can be the test's own, the document's, or
 * the one under test (a callback).
 */
#ifndef EX05_FIXTURE_H
#define EX05_FIXTURE_H

#include <math.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_integration.h>
#include <gsl/gsl_math.h>
#include <gsl/gsl_odeiv2.h>

#include "ex05.h"
#include "mbd/formulation.h"
#include "mbd/system.h"

/* a mechanism unlike Table 4 (another gravity too), so that hard-wired
 * numbers show */
static inline ex05_params fx_general(void)
{
    ex05_params p = {4.6, 1.3, 0.7, 2.1, 1.7, 1.7};
    return p;
}

/* and one with unequal rods (no branch th2 = pi - 2 th1) */
static inline ex05_params fx_unequal(void)
{
    ex05_params p = {7.3, 1.3, 0.7, 2.1, 1.5, 2.5};
    return p;
}

static inline double fx_kinetic(const ex05_params *p, const double q[3], const double v[3])
{
    const double a = q[0], b = q[0] + q[1], wa = v[0], wb = v[0] + v[1];
    const double c1x = 0.5 * p->L1 * cos(a) * wa, c1y = 0.5 * p->L1 * sin(a) * wa;
    const double c2x = p->L1 * cos(a) * wa + 0.5 * p->L2 * cos(b) * wb;
    const double c2y = p->L1 * sin(a) * wa + 0.5 * p->L2 * sin(b) * wb;
    return 0.5 * p->m1 * (c1x * c1x + c1y * c1y) + 0.5 * (p->m1 * p->L1 * p->L1 / 12) * wa * wa
           + 0.5 * p->m2 * (c2x * c2x + c2y * c2y) + 0.5 * (p->m2 * p->L2 * p->L2 / 12) * wb * wb
           + 0.5 * p->m3 * v[2] * v[2];
}

static inline double fx_potential(const ex05_params *p, const double q[3])
{
    const double a = q[0], b = q[0] + q[1];
    return p->g * (p->m1 * (-0.5 * p->L1 * cos(a)) + p->m2 * (-p->L1 * cos(a) - 0.5 * p->L2 * cos(b)));
}

/* M by polarisation of the kinetic energy */
static inline void fx_mass(const ex05_params *p, const double q[3], double M[3][3])
{
    for (int i = 0; i < 3; i++) {
        double e[3] = {0, 0, 0};
        e[i] = 1;
        M[i][i] = 2 * fx_kinetic(p, q, e);
    }
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            if (i != j) {
                double e[3] = {0, 0, 0};
                e[i] = e[j] = 1;
                M[i][j] = fx_kinetic(p, q, e) - 0.5 * (M[i][i] + M[j][j]);
            }
}

/* the document's F in general form */
static inline void fx_force(const ex05_params *p, const double q[3], const double v[3], double F[3])
{
    const double a = q[0], b = q[0] + q[1], h = 0.5 * p->m2 * p->L1 * p->L2 * sin(q[1]);
    F[0] = h * (v[1] * v[1] + 2 * v[0] * v[1]) - p->m2 * p->g * (p->L1 * sin(a) + 0.5 * p->L2 * sin(b))
           - p->m1 * p->g * 0.5 * p->L1 * sin(a);
    F[1] = -h * v[0] * v[0] - p->m2 * p->g * 0.5 * p->L2 * sin(b);
    F[2] = 0;
}

/* ------------------------------------------------------------------------ */
/* The constrained system for the library                                    */

enum { FX_MASS_OWN, FX_MASS_DOCUMENT, FX_MASS_UNDER_TEST };

typedef struct {
    ex05_params p;
    int mass;               /* FX_MASS_* */
    int failed;             /* the mass matrix under test returned an error */
    /* FX_MASS_UNDER_TEST: the function under test (only its own test links it) */
    int (*under_test)(const ex05_params *p, const double q[3], gsl_matrix *M);
} fx_model;

static inline void fx_get(const gsl_vector *v, double out[3])
{
    for (size_t i = 0; i < 3; i++)
        out[i] = gsl_vector_get(v, i);
}

static inline int fx_sys_mass(const mbd_system *s, double t, const gsl_vector *q, gsl_matrix *M)
{
    (void)t;
    fx_model *m = s->model;
    double qq[3], A[3][3];
    fx_get(q, qq);
    if (m->mass == FX_MASS_UNDER_TEST) {
        int st = m->under_test(&m->p, qq, M);
        if (st != GSL_SUCCESS)
            m->failed = 1;
        return st;
    }
    if (m->mass == FX_MASS_OWN) {
        fx_mass(&m->p, qq, A);
    } else {
        memset(A, 0, sizeof A);
        A[0][0] = m->p.m1 * m->p.L1 * m->p.L1 / 3;
        A[1][1] = m->p.m2 * m->p.L2 * m->p.L2 / 3;
        A[2][2] = m->p.m3;
    }
    for (size_t i = 0; i < 3; i++)
        for (size_t j = 0; j < 3; j++)
            gsl_matrix_set(M, i, j, A[i][j]);
    return GSL_SUCCESS;
}

static inline int fx_sys_force(const mbd_system *s, double t, const gsl_vector *q,
                               const gsl_vector *v, gsl_vector *F)
{
    (void)t;
    const fx_model *m = s->model;
    double qq[3], vv[3], f[3];
    fx_get(q, qq);
    fx_get(v, vv);
    fx_force(&m->p, qq, vv, f);
    for (size_t i = 0; i < 3; i++)
        gsl_vector_set(F, i, f[i]);
    return GSL_SUCCESS;
}

static inline int fx_sys_constraint(const mbd_system *s, double t, const gsl_vector *q,
                                    gsl_vector *C)
{
    (void)t;
    const ex05_params *p = &((const fx_model *)s->model)->p;
    double qq[3];
    fx_get(q, qq);
    gsl_vector_set(C, 0, p->L1 * sin(qq[0]) + p->L2 * sin(qq[0] + qq[1]) - qq[2]);
    gsl_vector_set(C, 1, -p->L1 * cos(qq[0]) - p->L2 * cos(qq[0] + qq[1]));
    return GSL_SUCCESS;
}

static inline int fx_sys_jacobian(const mbd_system *s, double t, const gsl_vector *q,
                                  gsl_matrix *J)
{
    (void)t;
    const ex05_params *p = &((const fx_model *)s->model)->p;
    double qq[3];
    fx_get(q, qq);
    const double a = qq[0], b = qq[0] + qq[1];
    gsl_matrix_set(J, 0, 0, p->L1 * cos(a) + p->L2 * cos(b));
    gsl_matrix_set(J, 0, 1, p->L2 * cos(b));
    gsl_matrix_set(J, 0, 2, -1);
    gsl_matrix_set(J, 1, 0, p->L1 * sin(a) + p->L2 * sin(b));
    gsl_matrix_set(J, 1, 1, p->L2 * sin(b));
    gsl_matrix_set(J, 1, 2, 0);
    return GSL_SUCCESS;
}

static inline int fx_sys_gamma(const mbd_system *s, double t, const gsl_vector *q,
                               const gsl_vector *v, gsl_vector *g)
{
    (void)t;
    const ex05_params *p = &((const fx_model *)s->model)->p;
    double qq[3], vv[3];
    fx_get(q, qq);
    fx_get(v, vv);
    const double a = qq[0], b = qq[0] + qq[1], w1 = vv[0], w12 = vv[0] + vv[1];
    gsl_vector_set(g, 0, p->L1 * sin(a) * w1 * w1 + p->L2 * sin(b) * w12 * w12);
    gsl_vector_set(g, 1, -p->L1 * cos(a) * w1 * w1 - p->L2 * cos(b) * w12 * w12);
    return GSL_SUCCESS;
}

static inline void fx_system(fx_model *m, mbd_system *s)
{
    *s = (mbd_system){.n = 3, .m = 2, .names = NULL, .model = m, .mass = fx_sys_mass,
                      .force = fx_sys_force, .constraint = fx_sys_constraint,
                      .jacobian = fx_sys_jacobian, .constraint_t = NULL, .gamma = fx_sys_gamma,
                      .energy = NULL};
}

/* the state on the branch th2 = pi - 2 th1 (L1 = L2 = L) */
static inline void fx_branch(const ex05_params *p, double th, double w, double q[3], double v[3])
{
    q[0] = th;
    q[1] = M_PI - 2 * th;
    q[2] = 2 * p->L1 * sin(th);
    v[0] = w;
    v[1] = -2 * w;
    v[2] = 2 * p->L1 * cos(th) * w;
}

/* th1'' on the branch by the library's projection of the full system: the
 * reduced equation's answer, without the reduced equation */
static inline int fx_projected_accel(const ex05_params *p, int consistent, double th, double w,
                                     double *acc)
{
    fx_model m = {*p, consistent ? FX_MASS_OWN : FX_MASS_DOCUMENT, 0, NULL};
    mbd_system s;
    fx_system(&m, &s);
    mbd_formulation_params fp = {.mu = 1.0};
    mbd_formulation_method("projection", &fp);
    mbd_formulation *f = mbd_formulation_alloc(&s, &fp);
    if (f == NULL)
        return GSL_ENOMEM;
    double q[3], v[3], a[3];
    fx_branch(p, th, w, q, v);
    gsl_vector_view qv = gsl_vector_view_array(q, 3), vv = gsl_vector_view_array(v, 3);
    gsl_vector_view av = gsl_vector_view_array(a, 3);
    int st = mbd_formulation_accel(f, 0.0, &qv.vector, &vv.vector, &av.vector, NULL);
    mbd_formulation_free(f);
    *acc = a[0];
    return st;
}

/* ------------------------------------------------------------------------ */
/* Fold times, computed here                                                 */

/* the reduced equation by numeric projection onto J = (1, -2, 2 L cos th) with
 * the test's matrices: (J^T M J) th'' = J^T (F - M J' th'^2) */
typedef struct {
    ex05_params p;
    int consistent;
} fx_reduced;

static inline int fx_reduced_rhs(double t, const double y[], double f[], void *params)
{
    (void)t;
    const fx_reduced *r = params;
    const ex05_params *p = &r->p;
    double q[3], v[3], M[3][3] = {{0}}, F[3];
    fx_branch(p, y[0], y[1], q, v);
    if (r->consistent)
        fx_mass(p, q, M);
    else {
        M[0][0] = p->m1 * p->L1 * p->L1 / 3;
        M[1][1] = p->m2 * p->L2 * p->L2 / 3;
        M[2][2] = p->m3;
    }
    fx_force(p, q, v, F);
    const double J[3] = {1, -2, 2 * p->L1 * cos(y[0])}, Jd[3] = {0, 0, -2 * p->L1 * sin(y[0]) * y[1]};
    double num = 0, den = 0;
    for (int i = 0; i < 3; i++) {
        num += J[i] * F[i];
        for (int j = 0; j < 3; j++) {
            num -= J[i] * M[i][j] * Jd[j] * y[1];
            den += J[i] * M[i][j] * J[j];
        }
    }
    f[0] = y[1];
    f[1] = num / den;
    return GSL_SUCCESS;
}

/* th1(t) from rest at th10 */
static inline double fx_theta_at(const ex05_params *p, int consistent, double th10, double t)
{
    fx_reduced r = {*p, consistent};
    gsl_odeiv2_system sys = {fx_reduced_rhs, NULL, 2, &r};
    gsl_odeiv2_driver *d = gsl_odeiv2_driver_alloc_y_new(&sys, gsl_odeiv2_step_rk8pd, 1e-4,
                                                         1e-13, 1e-13);
    double tt = 0, y[2] = {th10, 0};
    if (t > 0)
        gsl_odeiv2_driver_apply(d, &tt, t, y);
    gsl_odeiv2_driver_free(d);
    return y[0];
}

/* the first th1 = 0, by bisection on restarts from the release */
static inline double fx_fold_by_bisection(const ex05_params *p, int consistent, double th10)
{
    double lo = 0, hi = 0;
    for (double t = 0.05; t < 10; t += 0.05) {
        if (fx_theta_at(p, consistent, th10, t) <= 0) {
            hi = t;
            break;
        }
        lo = t;
    }
    for (int it = 0; it < 50; it++) {
        double mid = 0.5 * (lo + hi);
        if (fx_theta_at(p, consistent, th10, mid) > 0)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

/* the consistent model conserves T + V: t_fold = integral over th from 0 to
 * th10 of sqrt(m(th) / (2 (V(th10) - V(th)))), m = 2 T at unit rate */
typedef struct {
    ex05_params p;
    double th10;
} fx_quad;

static inline double fx_fold_integrand(double th, void *params)
{
    const fx_quad *x = params;
    double q[3], v[3], q0[3], v0[3];
    fx_branch(&x->p, th, 1.0, q, v);
    fx_branch(&x->p, x->th10, 0.0, q0, v0);
    return sqrt(2 * fx_kinetic(&x->p, q, v) / (2 * (fx_potential(&x->p, q0) - fx_potential(&x->p, q))));
}

static inline double fx_fold_by_quadrature(const ex05_params *p, double th10)
{
    fx_quad x = {*p, th10};
    gsl_integration_workspace *w = gsl_integration_workspace_alloc(1000);
    gsl_function f = {fx_fold_integrand, &x};
    double t = NAN, err;
    gsl_integration_qags(&f, 0.0, th10, 1e-13, 1e-13, 1000, w, &t, &err);
    gsl_integration_workspace_free(w);
    return t;
}

#endif
