/* Exercise 03.4: the penalty-factor study (see README.md). */
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_errno.h>

#include "ex03.h"
#include "mbd/simulate.h"

int ex03_penalty_sweep(const mbd_system *s, const char *method, const mbd_ode_params *ode,
                       const double mu[], size_t n, const double q0[], const double qd0[],
                       double t_end, double max_C[], long steps[])
{
    /* EXERCISE 03.4 BEGIN */
    if (s == NULL || method == NULL || ode == NULL || mu == NULL || q0 == NULL || qd0 == NULL
        || max_C == NULL || steps == NULL || !(t_end > 0))
        return GSL_EINVAL;
    mbd_formulation_params fp = {.alpha = 20.0, .beta = 20.0};
    if (mbd_formulation_method(method, &fp) != GSL_SUCCESS)
        return GSL_EINVAL;
    mbd_sim_params sp = {.t0 = 0.0, .t_end = t_end, .dt_out = t_end / 500.0,
                         .max_violation = 100.0};
    for (size_t i = 0; i < n; i++) {
        fp.mu = mu[i];
        mbd_formulation *f = mbd_formulation_alloc(s, &fp);
        if (f == NULL)
            return GSL_EINVAL;
        mbd_sim_stats stats;
        mbd_failure fail;
        /* no history: the run's statistics hold the largest |C| */
        int st = mbd_simulate(f, ode, &sp, q0, qd0, NULL, &stats, &fail);
        mbd_formulation_free(f);
        if (st != GSL_SUCCESS)
            return st;
        max_C[i] = stats.max_C;
        steps[i] = stats.run.ode.steps;
    }
    return GSL_SUCCESS;
    /* EXERCISE 03.4 STUB
    (void)s; (void)method; (void)ode; (void)mu; (void)n; (void)q0; (void)qd0; (void)t_end;
    (void)max_C; (void)steps;
    EXERCISE 03.4 END */
}

int ex03_loglog_slope(const double x[], const double y[], size_t n, double *slope)
{
    /* EXERCISE 03.4 BEGIN */
    if (x == NULL || y == NULL || slope == NULL || n < 2)
        return GSL_EINVAL;
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (size_t i = 0; i < n; i++) {
        if (!(x[i] > 0) || !(y[i] > 0))
            return GSL_EINVAL;
        const double lx = log(x[i]), ly = log(y[i]);
        sx += lx;
        sy += ly;
        sxx += lx * lx;
        sxy += lx * ly;
    }
    const double den = (double)n * sxx - sx * sx;
    if (!(den > 1e-12 * (double)n * sxx))
        return GSL_EINVAL;
    *slope = ((double)n * sxy - sx * sy) / den;
    return GSL_SUCCESS;
    /* EXERCISE 03.4 STUB
    (void)x; (void)y; (void)n; (void)slope;
    EXERCISE 03.4 END */
}
