/* Exercise 05.2: the reduced equation on the branch, and the fold time (see README.md). */
#include <math.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_math.h>
#include <gsl/gsl_odeiv2.h>

#include "ex05.h"

int ex05_reduced_accel(const ex05_params *p, int consistent, double th1, double th1d,
                       double *th1dd)
{
    /* EXERCISE 05.2 BEGIN */
    if (p->L1 != p->L2)
        return GSL_EINVAL;
    /* On the branch q = (th1, pi - 2 th1, 2 L sin th1), q' = J th1' with
     * J = (1, -2, 2 L cos th1). Multiply M q'' = F + C_q^T lambda by J^T: the
     * constraint forces do no work along the branch (C_q J = 0), so
     *     (J^T M J) th1'' = J^T F - J^T M J' th1'^2,   J' = (0, 0, -2 L sin th1).
     * The reduced inertia m = J^T M J: */
    const double L = p->L1, s = sin(th1), c = cos(th1);
    double m;
    if (consistent)
        m = (p->m1 + p->m2) * L * L / 3.0 + (2.0 * p->m2 + 4.0 * p->m3) * L * L * c * c;
    else
        m = (p->m1 + 4.0 * p->m2) * L * L / 3.0 + 4.0 * p->m3 * L * L * c * c;
    /* J^T F: gravity -(m1 + m2) g (L/2) sin th1 (F1 - 2 F2 with sin(th1 + th2) = sin th1),
     * the velocity terms 2 h th1'^2 with h = (1/2) m2 L^2 sin 2 th1, and from the slider
     * -J^T M J' th1'^2 = 4 m3 L^2 sin th1 cos th1 th1'^2 (the same for both M). */
    const double rhs = -(p->m1 + p->m2) * p->g * 0.5 * L * s
                       + (2.0 * p->m2 + 4.0 * p->m3) * L * L * s * c * th1d * th1d;
    *th1dd = rhs / m;
    return GSL_SUCCESS;
    /* EXERCISE 05.2 STUB
    (void)p; (void)consistent; (void)th1; (void)th1d; (void)th1dd;
    EXERCISE 05.2 END */
}

/* Given: the reduced equation as a first-order system y = (th1, th1') with
 * gsl_odeiv2's signature, for gsl_odeiv2_driver (params: a reduced_params). */
typedef struct {
    const ex05_params *p;
    int consistent;
} reduced_params;

static int reduced_rhs(double t, const double y[], double dydt[], void *params)
{
    (void)t;
    const reduced_params *r = params;
    dydt[0] = y[1];
    return ex05_reduced_accel(r->p, r->consistent, y[0], y[1], &dydt[1]);
}

int ex05_fold_time(const ex05_params *p, int consistent, double th10, double t_max,
                   double *t_fold)
{
    /* EXERCISE 05.2 BEGIN */
    *t_fold = NAN;
    if (!(th10 > 0 && th10 < M_PI) || !(t_max > 0))
        return GSL_EINVAL;
    if (p->L1 != p->L2)
        return GSL_EINVAL;
    reduced_params rp = {p, consistent};
    gsl_odeiv2_system sys = {reduced_rhs, NULL, 2, &rp};
    gsl_odeiv2_driver *d = gsl_odeiv2_driver_alloc_y_new(&sys, gsl_odeiv2_step_rk8pd, 1e-3,
                                                         1e-12, 1e-12);
    if (d == NULL)
        return GSL_ENOMEM;
    /* march on a 10 ms grid until th1 changes sign ... */
    const double grid = 0.01;
    double t = 0.0, y[2] = {th10, 0.0}, t0 = 0.0, y0[2] = {th10, 0.0};
    int st = GSL_SUCCESS, found = 0;
    while (st == GSL_SUCCESS && t < t_max) {
        t0 = t;
        y0[0] = y[0];
        y0[1] = y[1];
        st = gsl_odeiv2_driver_apply(d, &t, fmin(t + grid, t_max), y);
        if (st == GSL_SUCCESS && y[0] <= 0.0) {
            found = 1;
            break;
        }
    }
    /* ... then Newton's method on th1(t) = 0 from the last point before it */
    double ts = t;
    for (int it = 0; found && st == GSL_SUCCESS && it < 50; it++) {
        double tt = t0, yy[2] = {y0[0], y0[1]};
        gsl_odeiv2_driver_reset(d);
        if (ts > t0)
            st = gsl_odeiv2_driver_apply(d, &tt, ts, yy);
        if (st != GSL_SUCCESS)
            break;
        double dt = -yy[0] / yy[1];
        ts += dt;
        if (fabs(dt) < 1e-12)
            break;
    }
    gsl_odeiv2_driver_free(d);
    if (st != GSL_SUCCESS)
        return st;
    if (!found)
        return GSL_EMAXITER;
    *t_fold = ts;
    return GSL_SUCCESS;
    /* EXERCISE 05.2 STUB
    (void)p; (void)consistent; (void)th10; (void)t_max; (void)t_fold; (void)reduced_rhs;
    EXERCISE 05.2 END */
}
