/* reference.c -- the reduced equation of the Scotch yoke and its tight
 * integration: the independent reference of chapter 04. */
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_odeiv2.h>

#include "mbd/ode.h"
#include "reference.h"

/* >> reduced */
/* With x2 = L cos(theta), x2' = -L sin(theta) theta', the kinetic energy is
 * T = (I1 + m2 L^2 sin^2 theta) theta'^2 / 2, and Lagrange's equation in the
 * one coordinate theta, with the generalized forces of gravity and of the
 * yoke force F2 (which does virtual work F2 dx2 = -F2 L sin(theta) dtheta), is
 *   (I1 + m2 L^2 sin^2) theta'' + m2 L^2 sin cos theta'^2
 *       = -m1 g L cos / 2 - F2 L sin. */
int ch04_reduced_rhs(double t, const double y[], double dydt[], void *params)
{
    const ch04_params *p = params;
    const double s = sin(y[0]), c = cos(y[0]), L2 = p->L * p->L;
    const double inertia = ch04_inertia(p) + p->m2 * L2 * s * s;
    const double rhs = -0.5 * p->m1 * p->g * p->L * c - ch04_yoke_force(p, t) * p->L * s
                       - p->m2 * L2 * s * c * y[1] * y[1];
    dydt[0] = y[1];
    dydt[1] = rhs / inertia;
    return GSL_SUCCESS;
}
/* << reduced */

void ch04_reduced_to_state(const ch04_params *p, const double y[2], double state[4])
{
    state[0] = y[0];
    state[1] = p->L * cos(y[0]);
    state[2] = y[1];
    state[3] = -p->L * sin(y[0]) * y[1];
}

/* The reference, one time at a time: stepped onto it by GSL's rk8pd driver,
 * or read from the Dormand-Prince run's dense output (ch04_reference_dense). */
struct ch04_reference_seq {
    const ch04_params *p;
    gsl_odeiv2_system sys;      /* the driver keeps a pointer to it */
    gsl_odeiv2_driver *d;       /* stepped onto each time (rk8pd), or */
    mbd_ode_sampler *dense;     /* read from the steps' dense output (Dormand-Prince) */
    double time, y[2];
};

ch04_reference_seq *ch04_reference_seq_alloc(const ch04_params *p, double eps, int dense,
                                             double t_end)
{
    ch04_reference_seq *s = calloc(1, sizeof *s);
    if (s == NULL)
        return NULL;
    s->p = p;
    s->y[0] = p->theta0;   /* from rest */
    if (dense) {
        mbd_ode_params op;
        mbd_ode_preset("tight", &op);   /* Dormand-Prince 5(4) with its dense output */
        op.rtol = op.atol = eps;
        s->dense = mbd_ode_sampler_alloc(&op, ch04_reduced_rhs, (void *)p, 2, s->y, t_end);
    } else {
        s->sys = (gsl_odeiv2_system){ch04_reduced_rhs, NULL, 2, (void *)p};
        s->d = gsl_odeiv2_driver_alloc_y_new(&s->sys, gsl_odeiv2_step_rk8pd, 1e-4, eps, eps);
    }
    if (s->d == NULL && s->dense == NULL) {
        free(s);
        return NULL;
    }
    return s;
}

void ch04_reference_seq_free(ch04_reference_seq *s)
{
    if (s == NULL)
        return;
    if (s->d != NULL)
        gsl_odeiv2_driver_free(s->d);
    mbd_ode_sampler_free(s->dense);
    free(s);
}

static int reference_on(const ch04_params *p, double eps, int dense, const double *t,
                        size_t count, double *states, mbd_failure *fail)
{
    if (count == 0)
        return GSL_SUCCESS;
    ch04_reference_seq *s = ch04_reference_seq_alloc(p, eps, dense, t[count - 1]);
    if (s == NULL)
        return mbd_failure_set(fail, GSL_ENOMEM, 0.0, "out of memory for the reference");
    int st = GSL_SUCCESS;
    for (size_t k = 0; k < count && st == GSL_SUCCESS; k++)
        st = ch04_reference_seq_at(s, t[k], states + 4 * k, fail);
    ch04_reference_seq_free(s);
    return st;
}

/* >> reference */
int ch04_reference_seq_at(ch04_reference_seq *s, double t, double state[4], mbd_failure *fail)
{
    if (s->dense != NULL) {
        double y[2];
        int st = mbd_ode_sampler_at(s->dense, t, y, fail);
        if (st == GSL_SUCCESS)
            ch04_reduced_to_state(s->p, y, state);
        return st;
    }
    if (t > s->time) {
        int st = gsl_odeiv2_driver_apply(s->d, &s->time, t, s->y);
        if (st != GSL_SUCCESS)
            return mbd_failure_set(fail, st, s->time, "the reference integration (GSL rk8pd) "
                                   "failed: %s", gsl_strerror(st));
    }
    ch04_reduced_to_state(s->p, s->y, state);
    return GSL_SUCCESS;
}

int ch04_reference(const ch04_params *p, double eps, const double *t, size_t count,
                   double *states, mbd_failure *fail)
{
    return reference_on(p, eps, 0, t, count, states, fail);
}
/* << reference */

/* >> reference-dense */
int ch04_reference_dense(const ch04_params *p, double eps, const double *t, size_t count,
                         double *states, mbd_failure *fail)
{
    return reference_on(p, eps, 1, t, count, states, fail);
}
/* << reference-dense */
