/* Exercise 03.3: Baumgarte's stability on paper and by running it (see README.md). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "ex03.h"
#include "mbd/simulate.h"

int ex03_baumgarte_roots(double alpha, double beta, int printed, double complex r[2])
{
    /* EXERCISE 03.3 BEGIN */
    if (!(alpha >= 0) || !(beta >= 0))
        return GSL_EINVAL;
    /* C = e^{rt}: r^2 + 2 alpha r + beta^2 = 0 (stable sign) or
     * r^2 - 2 alpha r - beta^2 = 0 (the printed sign) */
    const double a = printed ? alpha : -alpha;
    const double disc = printed ? alpha * alpha + beta * beta : alpha * alpha - beta * beta;
    if (disc >= 0) {
        r[0] = a + sqrt(disc);
        r[1] = a - sqrt(disc);
    } else {
        r[0] = a + I * sqrt(-disc);
        r[1] = a - I * sqrt(-disc);
    }
    return GSL_SUCCESS;
    /* EXERCISE 03.3 STUB
    (void)alpha; (void)beta; (void)printed; (void)r;
    EXERCISE 03.3 END */
}

int ex03_violation_rate(const mbd_system *s, const mbd_formulation_params *fp,
                        const mbd_ode_params *ode, const double q0[], const double qd0[],
                        double t_end, double c_lo, double c_hi, double *rate)
{
    /* EXERCISE 03.3 BEGIN */
    if (s == NULL || fp == NULL || ode == NULL || q0 == NULL || qd0 == NULL || rate == NULL
        || !(t_end > 0) || !(c_lo > 0) || !(c_hi > c_lo))
        return GSL_EINVAL;
    mbd_formulation *f = mbd_formulation_alloc(s, fp);
    if (f == NULL)
        return GSL_EINVAL;
    mbd_sim_params sp = {.t0 = 0.0, .t_end = t_end, .dt_out = t_end / 4000.0,
                         .max_violation = 1e3};
    mbd_history h;
    mbd_history_init(&h);
    mbd_sim_stats stats;
    mbd_failure fail;
    int st = mbd_simulate(f, ode, &sp, q0, qd0, &h, &stats, &fail);
    mbd_formulation_free(f);
    if (st == MBD_EVIOLATION)
        st = GSL_SUCCESS;   /* a blow-up stopped at |C| = 1e3: its growth is the result */
    if (st == GSL_SUCCESS) {
        /* least squares for log|C| = a + rate t over the band */
        double sx = 0, sy = 0, sxx = 0, sxy = 0;
        long cnt = 0;
        for (size_t k = 0; k < h.rows; k++) {
            const double c = h.C_norm[k];
            if (!(c >= c_lo && c <= c_hi))
                continue;
            const double x = h.t[k], y = log(c);
            sx += x;
            sy += y;
            sxx += x * x;
            sxy += x * y;
            cnt++;
        }
        const double den = (double)cnt * sxx - sx * sx;
        if (cnt < 10 || !(den > 0))
            st = GSL_EINVAL;
        else
            *rate = ((double)cnt * sxy - sx * sy) / den;
    }
    mbd_history_free(&h);
    return st;
    /* EXERCISE 03.3 STUB
    (void)s; (void)fp; (void)ode; (void)q0; (void)qd0; (void)t_end; (void)c_lo; (void)c_hi;
    (void)rate;
    EXERCISE 03.3 END */
}
