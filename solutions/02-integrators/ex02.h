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
 * n equations; any t (f may depend on it); h may be negative (a step back in
 * time). work holds 5 n doubles (no more are used); y_new must not overlap y.
 * Returns GSL_EINVAL for n = 0 or a step h that is not finite (NaN or an
 * infinity), and f's status, whatever it is, as soon as f fails. */
int ex02_rk4_step(mbd_rhs f, void *params, size_t n, double t, const double y[], double h,
                  double y_new[], double work[]);

/* EXERCISE 02.2 -- the two-step Adams-Bashforth method with a Runge-Kutta start:
 *     y_{k+1} = y_k + h (3/2 f_k - 1/2 f_{k-1}),   f_k = f(t0 + k h, y_k),
 * the first step y_1 by a one-step method of order 2 or more (Heun's method
 * or RK4). Any start time t0 (f may depend on t). Writes y_k into
 * y_out[k n] ... y_out[k n + n - 1] for k = 0 ... nsteps (y_0 = y0), so y_out
 * holds (nsteps + 1) n doubles and nothing past them is written; work holds
 * 6 n doubles (no more are used). Returns GSL_EINVAL for n = 0, nsteps < 1 or
 * an h that is not a positive finite number, and f's status, whatever it is,
 * as soon as f fails. */
int ex02_ab2(mbd_rhs f, void *params, size_t n, double t0, const double y0[], double h,
             long nsteps, double y_out[], double work[]);

/* EXERCISE 02.3 -- error-controlled step size.
 *
 * (a) The rule. err >= 0 is the error estimate of a step of size h taken by a
 * method whose local error is O(h^(p+1)); tol > 0 the tolerance. Sets *accept
 * to 1 when err <= tol, else 0, and proposes the next step (or the retry)
 *     h_new = h min(5, max(0.2, s (tol / err)^(1/(p+1)))),
 * with one safety factor s between 0.8 and 0.95 for every call (h_new = 5 h
 * when err = 0): the limits 5 and 0.2 are exact. Returns GSL_EINVAL for
 * tol <= 0, h <= 0, p = 0 or err < 0 or NaN. */
int ex02_step_rule(double err, double tol, double h, unsigned p, int *accept, double *h_new);

/* What ex02_rk4_doubling reports. */
typedef struct {
    long accepted, rejected;   /* steps, and attempts thrown away */
    long fevals;               /* right-hand side evaluations: every call of f made */
    double h_min, h_max;       /* over the accepted steps, the last (shortened) one excluded
                                  unless it is the only one */
    double max_estimate;       /* the largest error estimate of an accepted step */
} ex02_adaptive_stats;

/* (b) RK4 with step doubling, from (t0, y0) to t_end (> t0). Each attempt of
 * size H takes one RK4 step of H and two of H/2 from the same point; the
 * estimate of the error of the two half steps is
 *     err = max_i |eta_i(H/2) - eta_i(H)| / (2^4 - 1)
 * (document 001, "Estimate Error": the denominator 15; the max norm over the n
 * components), and ex02_step_rule with p = 4 and tol accepts or rejects the
 * attempt and gives the next H. An attempt whose estimate is not finite (a NaN
 * or an infinity in either result) is rejected like one with an infinite
 * estimate. An accepted attempt continues from the two half steps' result. An
 * attempt that would pass t_end is shortened to end on it. t0 is any time (f
 * may depend on t); h0 is the first attempt's H. Writes the state at t_end into
 * y_end. Returns GSL_EINVAL for bad arguments (n = 0, t_end <= t0, tol <= 0,
 * h0 <= 0), MBD_ESTEPSIZE if an attempt's step would be shorter than
 * 1e-12 (t_end - t0), and f's status, whatever it is, as soon as f fails; on
 * a failure stats describe the run up to it. */
int ex02_rk4_doubling(mbd_rhs f, void *params, size_t n, double t0, const double y0[],
                      double t_end, double tol, double h0, double y_end[],
                      ex02_adaptive_stats *stats);

/* EXERCISE 02.4 -- a scheme's stability limit, found by running it.
 *
 * (a) Runs the library's scheme p (an mbd_ode_params describing it: kind,
 * tableau, order, corrections; its h, adaptive and doubling fields are
 * replaced, whatever they hold: a fixed step h = x) on y' = -y, y(0) = 1, for nsteps steps
 * (nsteps >= 100), and sets *growth to the amplification of |y| per step at
 * the end of the run, where only the dominant root of the scheme's recurrence
 * is left: 0 as soon as |y| has fallen below 1e-250, INFINITY as soon as it
 * has grown past 1e100 or the library reports a non-finite state
 * (MBD_ENONFINITE). Returns GSL_EINVAL for x <= 0, nsteps < 100 or parameters
 * the library refuses, or the library's status if a step fails otherwise (for
 * example MBD_ENOCONV when an implicit scheme's fixed-point iteration
 * diverges). */
int ex02_growth(const mbd_ode_params *p, double x, long nsteps, double *growth);

/* (b) The step x = h |lambda| at which the scheme turns unstable: the x in
 * (x_lo, x_hi] where the growth of (a) passes 1, by bisection to within tol:
 * |x_star - x| <= tol. The scheme must be stable (growth <= 1) at x_lo and
 * unstable at x_hi, else GSL_EINVAL; GSL_EINVAL also for x_lo <= 0,
 * x_hi <= x_lo or tol <= 0, and (a)'s status if a run fails. */
int ex02_stability_limit(const mbd_ode_params *p, double x_lo, double x_hi, double tol,
                         double *x_star);

#endif
