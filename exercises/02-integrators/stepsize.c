/* Exercise 02.3: error-controlled step size, RK4 with step doubling (see README.md). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "ex02.h"

int ex02_step_rule(double err, double tol, double h, unsigned p, int *accept, double *h_new)
{
    /* EXERCISE 02.3: your code here (see README.md) */
    (void)err; (void)tol; (void)h; (void)p; (void)accept; (void)h_new;
    return MBD_EUNIMPL;
}

/* Given: one step of size h of the explicit Runge-Kutta method tb (here the
 * library's classical RK4 tableau, mbd_tableau_rk4) from (t, y) into y_new.
 * The first slope f(t, y) must already be in k[0 .. n-1]; k holds
 * tb->stages * n doubles and stage n doubles. Adds the evaluations it makes
 * to *fevals. */
static int rk_step(const mbd_tableau *tb, mbd_rhs f, void *params, size_t n, double t,
                   const double y[], double h, double y_new[], double k[], double stage[],
                   long *fevals)
{
    const unsigned s = tb->stages;
    for (unsigned i = 1; i < s; i++) {
        for (size_t j = 0; j < n; j++) {
            double acc = 0.0;
            for (unsigned l = 0; l < i; l++)
                acc += tb->a[i * s + l] * k[l * n + j];
            stage[j] = y[j] + h * acc;
        }
        ++*fevals;
        int st = f(t + tb->c[i] * h, stage, k + i * n, params);
        if (st != GSL_SUCCESS)
            return st;
    }
    for (size_t j = 0; j < n; j++) {
        double acc = 0.0;
        for (unsigned l = 0; l < s; l++)
            acc += tb->b[l] * k[l * n + j];
        y_new[j] = y[j] + h * acc;
    }
    return GSL_SUCCESS;
}

int ex02_rk4_doubling(mbd_rhs f, void *params, size_t n, double t0, const double y0[],
                      double t_end, double tol, double h0, double y_end[],
                      ex02_adaptive_stats *stats)
{
    /* EXERCISE 02.3: your code here (see README.md) */
    (void)f; (void)params; (void)n; (void)t0; (void)y0; (void)t_end; (void)tol; (void)h0;
    (void)y_end; (void)stats; (void)rk_step;
    return MBD_EUNIMPL;
}
