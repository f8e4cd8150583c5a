/* Exercise 08.3: the integrator's order from the drift it leaves without
 * correction, by least squares on log-log data (see README.md). */
#include <math.h>

#include <gsl/gsl_errno.h>

#include "ex08.h"

int ex08_order_fit(const double h[], const double v[], size_t count, double v_floor,
                   ex08_fit *fit)
{
    /* EXERCISE 08.3 BEGIN */
    if (count < 3 || !(v_floor >= 0 && isfinite(v_floor)))
        return MBD_EINPUT;
    for (size_t k = 0; k < count; k++)
        if (!(h[k] > 0 && isfinite(h[k])) || !(v[k] > 0 && isfinite(v[k])))
            return MBD_EINPUT;
    /* strictly monotone, either way */
    const int up = h[1] > h[0];
    for (size_t k = 1; k < count; k++)
        if (up ? !(h[k] > h[k - 1]) : !(h[k] < h[k - 1]))
            return MBD_EINPUT;
    /* the means of (ln h, ln v) over the points above the floor */
    size_t used = 0;
    double xm = 0.0, ym = 0.0;
    for (size_t k = 0; k < count; k++)
        if (v[k] > v_floor) {
            xm += log(h[k]);
            ym += log(v[k]);
            used++;
        }
    if (used < 3)
        return MBD_EINPUT;
    xm /= (double)used;
    ym /= (double)used;
    double sxx = 0.0, sxy = 0.0;
    for (size_t k = 0; k < count; k++)
        if (v[k] > v_floor) {
            const double dx = log(h[k]) - xm, dy = log(v[k]) - ym;
            sxx += dx * dx;
            sxy += dx * dy;
        }
    const double p = sxy / sxx, lnC = ym - p * xm;
    double see = 0.0;
    for (size_t k = 0; k < count; k++)
        if (v[k] > v_floor) {
            const double e = log(v[k]) - lnC - p * log(h[k]);
            see += e * e;
        }
    fit->order = p;
    fit->constant = exp(lnC);
    fit->order_se = sqrt(see / (double)(used - 2) / sxx);
    fit->used = used;
    return GSL_SUCCESS;
    /* EXERCISE 08.3 STUB
    (void)h; (void)v; (void)count; (void)v_floor; (void)fit;
    EXERCISE 08.3 END */
}

int ex08_step_for(const ex08_fit *fit, double target, double *h)
{
    /* EXERCISE 08.3 BEGIN */
    const double p = fit->order, C = fit->constant;
    if (!(p > 0 && isfinite(p)) || !(C > 0 && isfinite(C)) || !(target > 0 && isfinite(target)))
        return MBD_EINPUT;
    /* in logarithms: (target / C) itself may overflow or underflow */
    const double hh = exp((log(target) - log(C)) / p);
    if (!(hh > 0 && isfinite(hh)))
        return MBD_EINPUT;
    *h = hh;
    return GSL_SUCCESS;
    /* EXERCISE 08.3 STUB
    (void)fit; (void)target; (void)h;
    EXERCISE 08.3 END */
}
