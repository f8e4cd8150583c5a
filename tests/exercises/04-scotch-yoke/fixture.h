/* The Scotch yoke for chapter 04's exercise tests, written independently of
 * the code under test: the document's two readings of Table 3, and the
 * constrained model (q = (theta1, x2), C = x2 - L cos(theta1)) as an
 * mbd_system for the library's formulations.
 *
 *   fx_params(FX_TABLE, FX_LISTING or FX_OTHER)   the parameters (ex04_params)
 *   fx_system(&s, &p)                    the constrained model
 *   fx_accel(p, method, mu, t, q, qd, qdd)   the library's accelerations
 *   fx_run(p, method, integrator, times, n, states)   a library time history
 */
#ifndef EX04_FIXTURE_H
#define EX04_FIXTURE_H

#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_math.h>

#include "ex04.h"
#include "mbd/formulation.h"
#include "mbd/simulate.h"

/* FX_OTHER: a yoke of other size, units and load, with no value of Table 3
 * (SI units: a 3 m rod, g = 9.81 m/s^2, a 2.5 N force at 3 rad/s) */
enum { FX_TABLE, FX_LISTING, FX_OTHER, FX_READINGS };

static inline ex04_params fx_params(int reading)
{
    const double g = 386.4;
    ex04_params p = {.L = 25.0, .g = g, .F0 = 1.0, .omega = M_PI / 4.0};
    if (reading == FX_OTHER)
        return (ex04_params){.m1 = 1.3, .m2 = 0.7, .L = 3.0, .b = 0.4, .g = 9.81, .F0 = 2.5,
                             .omega = 3.0};
    if (reading == FX_TABLE) {
        p.m1 = 0.5;
        p.m2 = 5.0;
        p.b = 2.0;
    } else {
        p.m1 = 0.5 / g;
        p.m2 = 5.0 / g;
        p.b = 0.05;
    }
    return p;
}

static inline int fx_mass(const mbd_system *s, double t, const gsl_vector *q, gsl_matrix *M)
{
    (void)t;
    (void)q;
    const ex04_params *p = s->model;
    gsl_matrix_set_zero(M);
    /* a uniform rod L x b about one end: m (L^2/3 + b^2/12) */
    gsl_matrix_set(M, 0, 0, p->m1 * (p->L * p->L / 3.0 + p->b * p->b / 12.0));
    gsl_matrix_set(M, 1, 1, p->m2);
    return GSL_SUCCESS;
}

static inline int fx_force(const mbd_system *s, double t, const gsl_vector *q,
                           const gsl_vector *qd, gsl_vector *F)
{
    (void)qd;
    const ex04_params *p = s->model;
    gsl_vector_set(F, 0, -p->m1 * p->g * (p->L / 2.0) * cos(gsl_vector_get(q, 0)));
    gsl_vector_set(F, 1, p->F0 * sin(p->omega * t));
    return GSL_SUCCESS;
}

static inline int fx_constraint(const mbd_system *s, double t, const gsl_vector *q, gsl_vector *C)
{
    (void)t;
    const ex04_params *p = s->model;
    gsl_vector_set(C, 0, gsl_vector_get(q, 1) - p->L * cos(gsl_vector_get(q, 0)));
    return GSL_SUCCESS;
}

static inline int fx_jacobian(const mbd_system *s, double t, const gsl_vector *q, gsl_matrix *Cq)
{
    (void)t;
    const ex04_params *p = s->model;
    gsl_matrix_set(Cq, 0, 0, p->L * sin(gsl_vector_get(q, 0)));
    gsl_matrix_set(Cq, 0, 1, 1.0);
    return GSL_SUCCESS;
}

static inline int fx_gamma(const mbd_system *s, double t, const gsl_vector *q,
                           const gsl_vector *qd, gsl_vector *g)
{
    (void)t;
    const ex04_params *p = s->model;
    const double w = gsl_vector_get(qd, 0);
    gsl_vector_set(g, 0, -p->L * cos(gsl_vector_get(q, 0)) * w * w);
    return GSL_SUCCESS;
}

static inline void fx_system(mbd_system *s, const ex04_params *p)
{
    *s = (mbd_system){.n = 2, .m = 1, .model = (void *)p, .mass = fx_mass, .force = fx_force,
                      .constraint = fx_constraint, .jacobian = fx_jacobian, .gamma = fx_gamma};
}

/* The library's accelerations q'' for a method (formulation.h names) with
 * Baumgarte weights alpha = beta = 20. */
static inline int fx_accel(const ex04_params *p, const char *method, double mu, double t,
                           const double q[2], const double qd[2], double qdd[2])
{
    mbd_system s;
    fx_system(&s, p);
    mbd_formulation_params fp = {.mu = mu, .alpha = 20.0, .beta = 20.0};
    int st = mbd_formulation_method(method, &fp);
    if (st != GSL_SUCCESS)
        return st;
    mbd_formulation *f = mbd_formulation_alloc(&s, &fp);
    if (f == NULL)
        return GSL_EINVAL;
    double qc[2] = {q[0], q[1]}, qdc[2] = {qd[0], qd[1]};
    gsl_vector_view vq = gsl_vector_view_array(qc, 2), vqd = gsl_vector_view_array(qdc, 2),
                    va = gsl_vector_view_array(qdd, 2);
    st = mbd_formulation_accel(f, t, &vq.vector, &vqd.vector, &va.vector, NULL);
    mbd_formulation_free(f);
    return st;
}

/* A time history from rest at theta1 = theta0 by the library (method,
 * integrator preset), sampled at times[0 .. n-1] (multiples of 0.01 s):
 * states (theta1, x2, theta1_dot, x2_dot). */
static inline int fx_run(const ex04_params *p, const char *method, const char *integrator,
                         double theta0, const double *times, size_t n, double *states)
{
    mbd_system s;
    fx_system(&s, p);
    mbd_formulation_params fp = {.mu = 1e7, .alpha = 20.0, .beta = 20.0};
    int st = mbd_formulation_method(method, &fp);
    if (st != GSL_SUCCESS)
        return st;
    mbd_formulation *f = mbd_formulation_alloc(&s, &fp);
    mbd_ode_params op;
    mbd_ode_preset(integrator, &op);
    double t_end = times[n - 1];
    const mbd_sim_params sp = {.t0 = 0.0, .t_end = t_end, .dt_out = 0.01, .max_violation = 1.0};
    double q0[2] = {theta0, p->L * cos(theta0)}, qd0[2] = {0.0, 0.0};
    mbd_history h;
    mbd_history_init(&h);
    mbd_failure fail;
    st = mbd_simulate(f, &op, &sp, q0, qd0, &h, NULL, &fail);
    for (size_t k = 0; k < n && st == GSL_SUCCESS; k++) {
        size_t row = mbd_history_row_at(&h, times[k] + 1e-9);
        states[4 * k] = mbd_history_q(&h, row)[0];
        states[4 * k + 1] = mbd_history_q(&h, row)[1];
        states[4 * k + 2] = mbd_history_qd(&h, row)[0];
        states[4 * k + 3] = mbd_history_qd(&h, row)[1];
    }
    mbd_history_free(&h);
    mbd_formulation_free(f);
    return st;
}

#endif
