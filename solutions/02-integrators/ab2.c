/* Exercise 02.2: two-step Adams-Bashforth with a Runge-Kutta start (see README.md). */
#include <math.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "ex02.h"

int ex02_ab2(mbd_rhs f, void *params, size_t n, double t0, const double y0[], double h,
             long nsteps, double y_out[], double work[])
{
    /* EXERCISE 02.2 BEGIN */
    if (n == 0 || nsteps < 1 || !(h > 0) || !isfinite(h))
        return GSL_EINVAL;
    double *fprev = work, *fcur = work + n, *k2 = work + 2 * n, *stage = work + 3 * n;
    memcpy(y_out, y0, n * sizeof *y0);

    /* the start: one step of Heun's method (order 2, so its local error
     * O(h^3) does not spoil the global O(h^2) of the multistep method) */
    int st = f(t0, y0, fprev, params);
    if (st != GSL_SUCCESS)
        return st;
    for (size_t i = 0; i < n; i++)
        stage[i] = y0[i] + h * fprev[i];
    st = f(t0 + h, stage, k2, params);
    if (st != GSL_SUCCESS)
        return st;
    for (size_t i = 0; i < n; i++)
        y_out[n + i] = y0[i] + 0.5 * h * (fprev[i] + k2[i]);

    /* then y_{k+1} = y_k + h (3/2 f_k - 1/2 f_{k-1}): one new f per step */
    for (long k = 1; k < nsteps; k++) {
        const double *yk = y_out + (size_t)k * n;
        double *ynext = y_out + (size_t)(k + 1) * n;
        st = f(t0 + (double)k * h, yk, fcur, params);
        if (st != GSL_SUCCESS)
            return st;
        for (size_t i = 0; i < n; i++)
            ynext[i] = yk[i] + h * (1.5 * fcur[i] - 0.5 * fprev[i]);
        double *swap = fprev;   /* f_k becomes f_{k-1} of the next step */
        fprev = fcur;
        fcur = swap;
    }
    return GSL_SUCCESS;
    /* EXERCISE 02.2 STUB
    (void)f; (void)params; (void)n; (void)t0; (void)y0; (void)h; (void)nsteps;
    (void)y_out; (void)work;
    EXERCISE 02.2 END */
}
