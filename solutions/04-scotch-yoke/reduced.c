/* Exercise 04.1: the reduced one-degree-of-freedom equation of the Scotch
 * yoke, and a reference solution from it (see README.md). */
#include <math.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_odeiv2.h>

#include "ex04.h"

int ex04_reduced_rhs(double t, const double y[], double dydt[], void *params)
{
    /* EXERCISE 04.1 BEGIN */
    const ex04_params *p = params;
    const double s = sin(y[0]), c = cos(y[0]);
    const double mL2 = p->m2 * p->L * p->L;
    const double I1 = p->m1 * (4.0 * p->L * p->L + p->b * p->b) / 12.0;
    /* T = (I1 + m2 L^2 sin^2) theta'^2 / 2 since x2' = -L sin(theta) theta';
     * V = m1 g (L/2) sin(theta); the yoke force f does the virtual work
     * f dx2 = -f L sin(theta) dtheta. Lagrange's equation:
     * (I1 + mL2 s^2) theta'' + mL2 s c theta'^2 = -m1 g L c / 2 - f L s */
    const double inertia = I1 + mL2 * s * s;
    if (!(inertia > 0))
        return MBD_ESINGULAR;   /* a massless rod at a dead point: no theta'' */
    const double f = p->F0 * sin(p->omega * t);
    dydt[0] = y[1];
    dydt[1] = (-0.5 * p->m1 * p->g * p->L * c - f * p->L * s - mL2 * s * c * y[1] * y[1])
              / inertia;
    return GSL_SUCCESS;
    /* EXERCISE 04.1 STUB
    (void)t; (void)y; (void)dydt; (void)params;
    EXERCISE 04.1 END */
}

int ex04_reduced_states(const ex04_params *p, double theta0, double eps, const double *t,
                        size_t n, double *states)
{
    /* EXERCISE 04.1 BEGIN */
    if (n == 0 || !(eps > 0) || !(t[0] >= 0))
        return GSL_EINVAL;
    for (size_t k = 1; k < n; k++)
        if (!(t[k] >= t[k - 1]))
            return GSL_EINVAL;
    gsl_odeiv2_system sys = {ex04_reduced_rhs, NULL, 2, (void *)p};
    gsl_odeiv2_driver *d = gsl_odeiv2_driver_alloc_y_new(&sys, gsl_odeiv2_step_rk8pd, 1e-4, eps, eps);
    if (d == NULL)
        return GSL_ENOMEM;
    double time = 0.0, y[2] = {theta0, 0.0};
    int st = GSL_SUCCESS;
    for (size_t k = 0; k < n && st == GSL_SUCCESS; k++) {
        if (t[k] > time)
            st = gsl_odeiv2_driver_apply(d, &time, t[k], y);
        states[4 * k] = y[0];
        states[4 * k + 1] = p->L * cos(y[0]);
        states[4 * k + 2] = y[1];
        states[4 * k + 3] = -p->L * sin(y[0]) * y[1];   /* d/dt of L cos(theta) */
    }
    gsl_odeiv2_driver_free(d);
    return st;
    /* EXERCISE 04.1 STUB
    (void)p; (void)theta0; (void)eps; (void)t; (void)n; (void)states;
    EXERCISE 04.1 END */
}
