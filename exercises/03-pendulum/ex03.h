/* ex03.h -- the functions of chapter 03's exercises (see README.md).
 *
 * The constrained system is the library's mbd_system (mbd/system.h): mass
 * matrix M(q), forces F(t, q, q'), constraints C(t, q), their Jacobian C_q, the
 * partial C_t (NULL when the constraints do not depend on time) and gamma with
 * C_q q'' = gamma. Any n and m: the tests use the chapter's pendulum, a
 * pendulum on a circle whose radius changes in time (unequal masses), and a
 * system of four coordinates with a full mass matrix M(q) (off-diagonal terms),
 * a force that depends on t and two moving constraints.
 * Every function returns GSL_SUCCESS or an error status; none prints.
 */
#ifndef EX03_H
#define EX03_H

#include <complex.h>
#include <stddef.h>

#include "mbd/error.h"
#include "mbd/formulation.h"
#include "mbd/ode.h"
#include "mbd/run.h"
#include "mbd/system.h"

/* EXERCISE 03.1 -- the exact solution of the pendulum released from rest at
 * the angle theta0 (0 < theta0 < pi) from the downward direction, with
 * w = sqrt(g / L) and k = sin(theta0 / 2):
 *     sin(theta / 2) = k sn(K(k) - w t, k),     theta' = -2 k w cn(K(k) - w t, k).
 * Use GSL's gsl_sf_elljac_e (which takes the parameter m = k^2) and
 * gsl_sf_ellint_Kcomp (which takes the modulus k).
 * ex03_exact sets theta(t) and theta'(t) for any t: after many periods, and
 * for t < 0 the swing before the release; ex03_period sets the period
 * T = 4 K(k) / w. Both return GSL_EDOM for g <= 0, L <= 0 or theta0 outside
 * (0, pi). */
int ex03_exact(double g, double L, double theta0, double t, double *theta, double *omega);
int ex03_period(double g, double L, double theta0, double *T);

/* EXERCISE 03.2 -- the static penalty right-hand side (document 000, eqs.
 * 71' and 72'):
 *     (M + mu C_q^T C_q) q'' = F + mu C_q^T gamma_B,
 *     gamma_B = gamma                               (baumgarte = 0)
 *     gamma_B = gamma - 2 alpha C' - beta^2 C        (baumgarte = 1)
 * with C' = C_q q' + C_t (C_t = 0 when s->constraint_t is NULL), for any
 * weights alpha, beta >= 0 (alpha != beta too). M is the system's whole mass
 * matrix at (t, q), which need not be diagonal. Writes q'' (s->n values) and,
 * when lambda is not NULL, the implied multiplier
 * lambda = mu (C_q q'' - gamma_B) (s->m values). Allocates what it needs.
 * GSL_EINVAL for mu <= 0 or a NULL argument (s, p, q, qd, qdd; lambda may be
 * NULL); MBD_ESINGULAR when the matrix M + mu C_q^T C_q is not positive
 * definite; the status of a model callback that fails (mass, force, jacobian,
 * gamma, and with Baumgarte constraint and constraint_t), unchanged. */
typedef struct {
    double mu;
    int baumgarte;
    double alpha, beta;
} ex03_penalty;

int ex03_penalty_accel(const mbd_system *s, const ex03_penalty *p, double t, const double q[],
                       const double qd[], double qdd[], double lambda[]);

/* EXERCISE 03.3 -- Baumgarte's stability, on paper and by running it.
 *
 * (a) The roots of the constraint violation's equation: with the stable sign
 * (printed = 0), C'' + 2 alpha C' + beta^2 C = 0; with the sign of the
 * document's eq. (72) (printed = 1), C'' - 2 alpha C' - beta^2 C = 0.
 * r[0] is the root with the larger real part; for a complex pair (equal real
 * parts) r[0] is the one with the positive imaginary part. alpha = 0 and
 * beta = 0 are allowed; GSL_EINVAL for alpha < 0 or beta < 0. */
int ex03_baumgarte_roots(double alpha, double beta, int printed, double complex r[2]);

/* (b) The exponential rate at which |C| grows (> 0) or decays (< 0) in a run:
 * integrates the formulation fp of the system s with the integrator ode from
 * (q0, qd0) at t = 0 to t_end (mbd_simulate, outputs every t_end / 4000, no
 * violation limit but a run whose |C| passes 1e3 stops), and fits
 * log|C(t)| = a + rate t by least squares over the outputs with
 * c_lo <= |C| <= c_hi (|C| the Euclidean norm the history records). A run
 * stopped by that limit still gives its rate. Any formulation and any
 * integrator: the run is the one fp and ode describe, from any q0 and qd0.
 * GSL_EINVAL for bad arguments (a NULL pointer, t_end <= 0, 0 < c_lo < c_hi
 * not true) or fewer than 10 outputs in the band (10 are enough); a run that
 * fails otherwise makes the function fail with the run's status (that of
 * mbd_simulate), whatever outputs it recorded before. */
int ex03_violation_rate(const mbd_system *s, const mbd_formulation_params *fp,
                        const mbd_ode_params *ode, const double q0[], const double qd0[],
                        double t_end, double c_lo, double c_hi, double *rate);

/* EXERCISE 03.4 -- the penalty-factor study (Table 1 done properly).
 *
 * (a) For each mu[i] (i < n), runs `method` (a library method name, e.g.
 * "penalty"; the Baumgarte ones with alpha = beta = 20) on s from (q0, qd0)
 * over [0, t_end] with the integrator ode through mbd_simulate (outputs every
 * t_end / 500, violation limit 100) and records the largest
 * |C| over the outputs in max_C[i] and the accepted steps in steps[i].
 * GSL_EINVAL for bad arguments (a NULL pointer, t_end <= 0) or an unknown
 * method; a run that fails (a model callback, the integrator, or |C| above
 * the violation limit: MBD_EVIOLATION) makes the sweep fail with that run's
 * status (that of mbd_simulate). */
int ex03_penalty_sweep(const mbd_system *s, const char *method, const mbd_ode_params *ode,
                       const double mu[], size_t n, const double q0[], const double qd0[],
                       double t_end, double max_C[], long steps[]);

/* (b) The slope of log y against log x by least squares (n >= 2 points, all
 * x and y > 0, not all x equal): y ~ x^slope. GSL_EINVAL otherwise (and for
 * a NULL pointer). */
int ex03_loglog_slope(const double x[], const double y[], size_t n, double *slope);

/* EXERCISE 03.5 -- the corrections of listings A.2.a/c/f, done right.
 *
 * (a) MATLAB's `while abs(v) > tol` for a vector v of n values: 1 when the
 * loop body would run (v not empty and every |v_i| > tol), else 0. */
int ex03_matlab_while(const double v[], size_t n, double tol);

/* (b) A post-step coordinate projection, as a run-loop hook (mbd/run.h):
 * y = [q; q'] (2 n values, n = s->n). First the positions, by Newton's method
 * with the minimum-norm step (not weighted by the mass matrix)
 *     q <- q - C_q^T (C_q C_q^T)^-1 C(t, q)
 * until |C| <= tol (at most max_iter steps, max_iter = 0 allowing none; no
 * step when |C| <= tol already); then the velocities at the corrected
 * positions, in one step
 *     q' <- q' - C_q^T (C_q C_q^T)^-1 (C_q q' + C_t)
 * (none when |C_q q' + C_t| <= tol already). |.| is the Euclidean norm, and
 * tol is the projector's own. Sets *changed to 1 when q or q' moved, else 0,
 * and adds 1 to `corrected` when it moved them. MBD_ENOCONV when |C| > tol
 * after max_iter steps, MBD_ESINGULAR when C_q C_q^T is not positive definite,
 * and the status of a model callback that fails, each with `fail` filled in
 * (mbd_failure_set: the status, t, and a cause). */
typedef struct {
    const mbd_system *s;
    double tol;             /* e.g. 1e-10 */
    unsigned max_iter;      /* e.g. 20 (0: no Newton step; the library's 0 means 20) */
    long corrected;         /* hook calls that changed the state (the hook counts them) */
} ex03_projector;

int ex03_project_hook(void *ctx, double t, double y[], int *changed, mbd_failure *fail);

#endif
