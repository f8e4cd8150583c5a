/* Exercise 02.3: error-controlled step size, RK4 with step doubling (see README.md). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "ex02.h"

int ex02_step_rule(double err, double tol, double h, unsigned p, int *accept, double *h_new)
{
    /* EXERCISE 02.3 BEGIN */
    if (!(tol > 0) || !(h > 0) || p == 0 || !(err >= 0))
        return GSL_EINVAL;
    /* The slides' rule: the error of a step grows as h^(p+1), so the step that
     * would just meet the tolerance is h (tol / err)^(1/(p+1)). Aim below it
     * (safety factor 0.9), and do not change h by more than 5 or 1/5 at once. */
    const double safety = 0.9, grow = 5.0, shrink = 0.2;
    *accept = err <= tol;
    double factor = err == 0.0 ? grow : safety * pow(tol / err, 1.0 / (double)(p + 1));
    *h_new = h * fmin(grow, fmax(shrink, factor));
    return GSL_SUCCESS;
    /* EXERCISE 02.3 STUB
    (void)err; (void)tol; (void)h; (void)p; (void)accept; (void)h_new;
    EXERCISE 02.3 END */
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
    /* EXERCISE 02.3 BEGIN */
    memset(stats, 0, sizeof *stats);
    if (n == 0 || !(t_end > t0) || !(tol > 0) || !(h0 > 0))
        return GSL_EINVAL;
    /* y, the RK4 slopes (4 n), one full step, the half-way state, two half steps,
     * a stage, f at y and f at the half-way state */
    double *buf = malloc(11 * n * sizeof *buf);
    if (buf == NULL)
        return GSL_ENOMEM;
    double *y = buf, *k = buf + n, *full = buf + 5 * n, *mid = buf + 6 * n,
           *half = buf + 7 * n, *stage = buf + 8 * n, *k1 = buf + 9 * n, *kmid = buf + 10 * n;
    memcpy(y, y0, n * sizeof *y);
    const double hmin = 1e-12 * (t_end - t0);
    double t = t0, H = h0;
    int st = f(t, y, k1, params);
    stats->fevals = 1;
    stats->h_min = HUGE_VAL;
    while (st == GSL_SUCCESS && t < t_end) {
        const int last = t + H >= t_end;
        const double step = last ? t_end - t : H;
        if (step < hmin) {
            st = MBD_ESTEPSIZE;
            break;
        }
        /* eta(t + H; H): one step */
        memcpy(k, k1, n * sizeof *k);
        st = rk_step(&mbd_tableau_rk4, f, params, n, t, y, step, full, k, stage, &stats->fevals);
        /* eta(t + H; H/2): two steps, the first sharing k1 */
        if (st == GSL_SUCCESS) {
            memcpy(k, k1, n * sizeof *k);
            st = rk_step(&mbd_tableau_rk4, f, params, n, t, y, 0.5 * step, mid, k, stage,
                         &stats->fevals);
        }
        if (st == GSL_SUCCESS) {
            st = f(t + 0.5 * step, mid, kmid, params);
            stats->fevals++;
        }
        if (st == GSL_SUCCESS) {
            memcpy(k, kmid, n * sizeof *k);
            st = rk_step(&mbd_tableau_rk4, f, params, n, t + 0.5 * step, mid, 0.5 * step, half, k,
                         stage, &stats->fevals);
        }
        if (st != GSL_SUCCESS)
            break;
        /* the error of the two half steps: (eta(H/2) - eta(H)) / (2^p - 1), in
         * the max norm; a NaN must reach err (fmax would drop it) and be
         * rejected like an infinity */
        double err = 0.0;
        for (size_t i = 0; i < n; i++) {
            const double d = fabs(half[i] - full[i]) / 15.0;
            if (!(d <= err))
                err = d;
        }
        if (!isfinite(err))
            err = HUGE_VAL;
        int accept;
        double next;
        st = ex02_step_rule(err, tol, step, 4, &accept, &next);
        if (st != GSL_SUCCESS)
            break;
        if (accept) {
            t = last ? t_end : t + step;
            memcpy(y, half, n * sizeof *y);
            stats->accepted++;
            stats->max_estimate = fmax(stats->max_estimate, err);
            if (!last || stats->accepted == 1) {
                stats->h_min = fmin(stats->h_min, step);
                stats->h_max = fmax(stats->h_max, step);
            }
            if (t < t_end) {
                st = f(t, y, k1, params);
                stats->fevals++;
            }
        } else {
            stats->rejected++;
        }
        H = next;
    }
    if (st == GSL_SUCCESS)
        memcpy(y_end, y, n * sizeof *y);
    free(buf);
    return st;
    /* EXERCISE 02.3 STUB
    (void)f; (void)params; (void)n; (void)t0; (void)y0; (void)t_end; (void)tol; (void)h0;
    (void)y_end; (void)stats; (void)rk_step;
    EXERCISE 02.3 END */
}
