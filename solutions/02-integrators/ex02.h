/* ex02.h -- the functions of chapter 02's exercises (see README.md).
 *
 * Right-hand sides have the library's signature (mbd_rhs in mbd/ode.h, the
 * same as gsl_odeiv2's):
 *     int f(double t, const double y[], double dydt[], void *params);
 * returning GSL_SUCCESS, or an error status that the functions below pass on.
 * Every function returns GSL_SUCCESS or an error status; none prints.
 */
#ifndef EX02_H
#define EX02_H

#include <stddef.h>

#include "mbd/error.h"
#include "mbd/ode.h"

/* EXERCISE 02.1 -- one step of the classical fourth-order Runge-Kutta method
 * (document 001, "Fourth-Order Runge-Kutta Method"):
 *     k1 = f(t, y),                 k2 = f(t + h/2, y + h/2 k1),
 *     k3 = f(t + h/2, y + h/2 k2),  k4 = f(t + h, y + h k3),
 *     y_new = y + h/6 (k1 + 2 k2 + 2 k3 + k4).
 * n equations; work holds at least 5 n doubles; y_new must not overlap y.
 * Returns GSL_EINVAL for n = 0 or a step h that is not finite, and f's status
 * if f fails. */
int ex02_rk4_step(mbd_rhs f, void *params, size_t n, double t, const double y[], double h,
                  double y_new[], double work[]);

/* EXERCISE 02.2 -- the two-step Adams-Bashforth method with a Runge-Kutta start:
 *     y_{k+1} = y_k + h (3/2 f_k - 1/2 f_{k-1}),   f_k = f(t0 + k h, y_k),
 * the first step y_1 by a one-step method of order 2 or more (Heun's method
 * or RK4). Writes y_k into y_out[k n] ... y_out[k n + n - 1] for k = 0 ...
 * nsteps, so y_out holds (nsteps + 1) n doubles; work holds at least 6 n
 * doubles. Returns GSL_EINVAL for n = 0, nsteps < 1 or h <= 0, and f's status
 * if f fails. */
int ex02_ab2(mbd_rhs f, void *params, size_t n, double t0, const double y0[], double h,
             long nsteps, double y_out[], double work[]);

/* EXERCISE 02.3 -- error-controlled step size.
 *
 * (a) The rule. err >= 0 is the error estimate of a step of size h taken by a
 * method whose local error is O(h^(p+1)); tol > 0 the tolerance. Sets *accept
 * to 1 when err <= tol, else 0, and proposes the next step (or the retry)
 *     h_new = h min(5, max(0.2, s (tol / err)^(1/(p+1)))),
 * with a safety factor s between 0.8 and 0.95 (h_new = 5 h when err = 0).
 * Returns GSL_EINVAL for tol <= 0, h <= 0, p = 0 or err < 0 or NaN. */
int ex02_step_rule(double err, double tol, double h, unsigned p, int *accept, double *h_new);

/* What ex02_rk4_doubling reports. */
typedef struct {
    long accepted, rejected;   /* steps, and attempts thrown away */
    long fevals;               /* right-hand side evaluations */
    double h_min, h_max;       /* over the accepted steps, the last (shortened) one excluded
                                  unless it is the only one */
    double max_estimate;       /* the largest error estimate of an accepted step */
} ex02_adaptive_stats;

/* (b) RK4 with step doubling, from (t0, y0) to t_end (> t0). Each attempt of
 * size H takes one RK4 step of H and two of H/2 from the same point; the
 * estimate of the error of the two half steps is
 *     err = max_i |eta_i(H/2) - eta_i(H)| / (2^4 - 1)
 * (document 001, "Estimate Error": the denominator 15), and ex02_step_rule with
 * p = 4 and tol accepts or rejects the attempt and gives the next H. An accepted
 * attempt continues from the two half steps' result. An attempt that would pass
 * t_end is shortened to end on it. h0 is the first attempt's H. Writes the
 * state at t_end into y_end. Returns GSL_EINVAL for bad arguments, MBD_ESTEPSIZE
 * if H falls below 1e-12 (t_end - t0), and f's status if f fails. */
int ex02_rk4_doubling(mbd_rhs f, void *params, size_t n, double t0, const double y0[],
                      double t_end, double tol, double h0, double y_end[],
                      ex02_adaptive_stats *stats);

/* EXERCISE 02.4 -- a scheme's stability limit, found by running it.
 *
 * (a) Runs the library's scheme p (an mbd_ode_params describing it: kind,
 * tableau, order, corrections; its h, adaptive and doubling fields are
 * replaced: a fixed step h = x) on y' = -y, y(0) = 1, for nsteps steps
 * (nsteps >= 100), and sets *growth to the amplification of |y| per step at
 * the end of the run, where only the dominant root of the scheme's recurrence
 * is left: 0 when |y| has fallen below 1e-250, INFINITY when it has grown
 * past 1e100 or the library reports a non-finite state. Returns GSL_EINVAL for
 * bad arguments or parameters the library refuses, or the library's status if
 * a step fails otherwise. */
int ex02_growth(const mbd_ode_params *p, double x, long nsteps, double *growth);

/* (b) The step x = h |lambda| at which the scheme turns unstable: the x in
 * (x_lo, x_hi] where the growth passes 1, to within tol, by bisection; the
 * scheme must be stable (growth <= 1) at x_lo and unstable at x_hi, else
 * GSL_EINVAL. */
int ex02_stability_limit(const mbd_ode_params *p, double x_lo, double x_hi, double tol,
                         double *x_star);

#endif
