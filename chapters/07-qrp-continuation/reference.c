/* reference.c -- the parallelogram's reduced equation (see reference.h). */
#include <math.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_integration.h>
#include <gsl/gsl_math.h>
#include <gsl/gsl_odeiv2.h>

#include "reference.h"

/* >> reduced */
/* J theta'' = -K g cos(theta): the parallelogram in its crank angle */
static int reduced_rhs(double t, const double y[], double dydt[], void *params)
{
    (void)t;
    const ch07_model *md = params;
    dydt[0] = y[1];
    dydt[1] = -md->K * CH07_G * cos(y[0]) / md->J;
    return GSL_SUCCESS;
}
/* << reduced */

int ch07_reduced_state(const ch07_model *md, double t, double y[2], mbd_failure *fail)
{
    gsl_odeiv2_system sys = {reduced_rhs, NULL, 2, (void *)md};
    gsl_odeiv2_driver *d = gsl_odeiv2_driver_alloc_y_new(&sys, gsl_odeiv2_step_rk8pd, 1e-4,
                                                         1e-13, 1e-13);
    if (d == NULL)
        return mbd_failure_set(fail, GSL_ENOMEM, 0.0, "out of memory for the reference");
    double time = 0.0;
    y[0] = md->theta0;
    y[1] = md->omega;
    int st = t > 0 ? gsl_odeiv2_driver_apply(d, &time, t, y) : GSL_SUCCESS;
    gsl_odeiv2_driver_free(d);
    if (st != GSL_SUCCESS)
        return mbd_failure_set(fail, st, time, "the reduced reference failed: %s",
                               gsl_strerror(st));
    return GSL_SUCCESS;
}

/* >> horizontal */
size_t ch07_horizontal_times(const ch07_model *md, double t_end, double times[], size_t cap)
{
    /* sin(theta) on a grid of 1e-3 s, each sign change bisected */
    const double dt = 1e-3;
    size_t count = 0;
    double ya[2], yb[2];
    mbd_failure fail;
    if (ch07_reduced_state(md, 0.0, ya, &fail) != GSL_SUCCESS)
        return 0;
    double ta = 0.0;
    for (int k = 1; ta < t_end && count < cap; k++) {
        const double tb = fmin(k * dt, t_end);
        if (ch07_reduced_state(md, tb, yb, &fail) != GSL_SUCCESS)
            break;
        const double sa = sin(ya[0]), sb = sin(yb[0]);
        if (sa == 0.0 && ta > 0.0)
            times[count++] = ta;
        else if (sa * sb < 0.0) {
            double lo = ta, hi = tb, slo = sa;
            while (hi - lo > 1e-13) {
                const double mid = 0.5 * (lo + hi);
                double ym[2];
                ch07_reduced_state(md, mid, ym, &fail);
                if ((sin(ym[0]) < 0) == (slo < 0))
                    lo = mid, slo = sin(ym[0]);
                else
                    hi = mid;
            }
            times[count++] = 0.5 * (lo + hi);
        }
        ta = tb;
        ya[0] = yb[0];
        ya[1] = yb[1];
    }
    return count;
}
/* << horizontal */

double ch07_stop_speed(void) { return sqrt(12.0 * CH07_G / 5.0); }

static double stop_integrand(double a, void *p)
{
    (void)p;
    return 1.0 / sqrt(12.0 * CH07_G / 5.0 * sin(a));
}

double ch07_stop_time(void)
{
    /* an integrable 1 / sqrt(a) singularity at a = 0: QAGS */
    gsl_integration_workspace *w = gsl_integration_workspace_alloc(200);
    gsl_function f = {stop_integrand, NULL};
    double r = NAN, err;
    if (w != NULL)
        gsl_integration_qags(&f, 0.0, M_PI / 2, 0.0, 1e-12, 200, w, &r, &err);
    gsl_integration_workspace_free(w);
    return r;
}
