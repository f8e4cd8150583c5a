/* reference.c -- the reduced equation of the Scotch yoke and its tight
 * integration: the independent reference of chapter 04. */
#include <math.h>

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

/* >> reference */
int ch04_reference(const ch04_params *p, double eps, const double *t, size_t count,
                   double *states, mbd_failure *fail)
{
    gsl_odeiv2_system sys = {ch04_reduced_rhs, NULL, 2, (void *)p};
    gsl_odeiv2_driver *d = gsl_odeiv2_driver_alloc_y_new(&sys, gsl_odeiv2_step_rk8pd, 1e-4, eps, eps);
    if (d == NULL)
        return mbd_failure_set(fail, GSL_ENOMEM, 0.0, "out of memory for the reference");
    double time = 0.0, y[2] = {p->theta0, 0.0};
    int st = GSL_SUCCESS;
    for (size_t k = 0; k < count; k++) {
        if (t[k] > time) {
            st = gsl_odeiv2_driver_apply(d, &time, t[k], y);
            if (st != GSL_SUCCESS) {
                mbd_failure_set(fail, st, time, "the reference integration (GSL rk8pd) failed: %s",
                                gsl_strerror(st));
                break;
            }
        }
        ch04_reduced_to_state(p, y, states + 4 * k);
    }
    gsl_odeiv2_driver_free(d);
    return st;
}
/* << reference */

/* >> reference-dense */
int ch04_reference_dense(const ch04_params *p, double eps, const double *t, size_t count,
                         double *states, mbd_failure *fail)
{
    mbd_ode_params op;
    mbd_ode_preset("tight", &op);   /* Dormand-Prince 5(4) with its dense output */
    op.rtol = op.atol = eps;
    const double y0[2] = {p->theta0, 0.0};
    /* (theta1, theta1') at every time into the first half of `states`, then
     * spread to the full states from the last row down (no overlap) */
    int st = mbd_ode_sample(&op, ch04_reduced_rhs, (void *)p, 2, y0, t, count, states, fail);
    for (size_t k = count; st == GSL_SUCCESS && k-- > 0;) {
        const double y[2] = {states[2 * k], states[2 * k + 1]};
        ch04_reduced_to_state(p, y, states + 4 * k);
    }
    return st;
}
/* << reference-dense */
