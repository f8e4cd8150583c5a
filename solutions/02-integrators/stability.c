/* Exercise 02.4: a scheme's stability limit, found by running it (see README.md). */
#include <math.h>

#include <gsl/gsl_errno.h>

#include "ex02.h"

/* Given: y' = -y, the test problem of document 001 with alpha = 1. */
static int decay(double t, const double y[], double f[], void *params)
{
    (void)t;
    (void)params;
    f[0] = -y[0];
    return GSL_SUCCESS;
}

int ex02_growth(const mbd_ode_params *p, double x, long nsteps, double *growth)
{
    /* EXERCISE 02.4 BEGIN */
    if (p == NULL || !(x > 0) || nsteps < 100)
        return GSL_EINVAL;
    mbd_ode_params q = *p;
    q.h = x;
    q.adaptive = 0;
    q.doubling = 0;
    mbd_ode *o = mbd_ode_alloc(&q, 1, decay, NULL);
    if (o == NULL)
        return GSL_EINVAL;
    /* Compare the largest |y| over the last quarter of the run with the largest
     * over the quarter before: by then the other roots of the recurrence (the
     * decaying true solution, or what the start put into the parasitic ones)
     * are gone, and the maximum over a quarter does not depend on where an
     * oscillation happens to be. */
    const long q4 = nsteps / 4, w1 = nsteps - 2 * q4, w2 = nsteps - q4;
    double y = 1.0, t = 0.0, m1 = 0.0, m2 = 0.0;
    const double t_stop = (double)(nsteps + 2) * x;
    int st = mbd_ode_start(o, t, &y, t_stop);
    *growth = NAN;
    for (long n = 1; st == GSL_SUCCESS && n <= nsteps; n++) {
        st = mbd_ode_step(o, &t, &y, t_stop);
        if (st == MBD_ENONFINITE || (st == GSL_SUCCESS && !(fabs(y) <= 1e100))) {
            *growth = INFINITY;
            st = GSL_SUCCESS;
            break;
        }
        if (st != GSL_SUCCESS)
            break;
        if (fabs(y) < 1e-250) {
            *growth = 0.0;
            break;
        }
        if (n > w2)
            m2 = fmax(m2, fabs(y));
        else if (n > w1)
            m1 = fmax(m1, fabs(y));
    }
    if (st == GSL_SUCCESS && isnan(*growth))
        *growth = pow(m2 / m1, 1.0 / (double)q4);
    mbd_ode_free(o);
    return st;
    /* EXERCISE 02.4 STUB
    (void)p; (void)x; (void)nsteps; (void)growth; (void)decay;
    EXERCISE 02.4 END */
}

int ex02_stability_limit(const mbd_ode_params *p, double x_lo, double x_hi, double tol,
                         double *x_star)
{
    /* EXERCISE 02.4 BEGIN */
    if (!(x_lo > 0) || !(x_hi > x_lo) || !(tol > 0))
        return GSL_EINVAL;
    const long nsteps = 2000;
    double g;
    int st = ex02_growth(p, x_lo, nsteps, &g);
    if (st != GSL_SUCCESS)
        return st;
    if (!(g <= 1.0))
        return GSL_EINVAL;   /* not stable at x_lo */
    st = ex02_growth(p, x_hi, nsteps, &g);
    if (st != GSL_SUCCESS)
        return st;
    if (g <= 1.0)
        return GSL_EINVAL;   /* still stable at x_hi */
    double lo = x_lo, hi = x_hi;
    while (hi - lo > tol) {
        const double mid = 0.5 * (lo + hi);
        st = ex02_growth(p, mid, nsteps, &g);
        if (st != GSL_SUCCESS)
            return st;
        if (g <= 1.0)
            lo = mid;
        else
            hi = mid;
    }
    *x_star = 0.5 * (lo + hi);
    return GSL_SUCCESS;
    /* EXERCISE 02.4 STUB
    (void)p; (void)x_lo; (void)x_hi; (void)tol; (void)x_star;
    EXERCISE 02.4 END */
}
