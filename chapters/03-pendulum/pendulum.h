/* chapters/03-pendulum/pendulum.h -- the simple pendulum of document 000
 * (Newhart 2019, Sec. 2.4.1, Table 2, listings A.2-A.2.g), its exact solution,
 * and the direct (reduced-coordinate) integration.
 *
 * The model is the document's: a point mass m in Cartesian coordinates
 * q = (x, y, z), on a massless rod of length L from the origin, gravity g along
 * +y (so "down" is +y and the bottom of the swing is y = L), with
 *
 *     M = m I,   F = (0, m g, 0),   C = (x^2 + y^2 - L^2, z),
 *     C_q = [2x 2y 0; 0 0 1],   gamma = (-2 (x'^2 + y'^2), 0),
 *
 * released from rest at x = L, y = 0 (theta0 = pi/2). The angle theta is
 * measured from +y: x = L sin theta, y = L cos theta.
 */
#ifndef CH03_PENDULUM_H
#define CH03_PENDULUM_H

#include <stddef.h>

#include "mbd/error.h"
#include "mbd/ode.h"
#include "mbd/run.h"
#include "mbd/simulate.h"
#include "mbd/system.h"

#define CH03_N 3   /* coordinates x, y, z */
#define CH03_M 2   /* constraints: the circle, and the plane z = 0 */

typedef struct {
    double m;        /* mass [kg] */
    double L;        /* rod length [m] */
    double g;        /* gravity along +y [m/s^2] */
    double theta0;   /* release angle from +y [rad], from rest */
} ch03_pendulum;

/* Table 2: m = 1, L = 1, g = 9.81, released at x = 1, y = 0 (theta0 = pi/2). */
void ch03_pendulum_document(ch03_pendulum *p);

/* The coordinate names x, y, z (for CSV headers). */
extern const char *const ch03_names[CH03_N];

/* Fills s with the pendulum's callbacks (mass, force, constraint, jacobian,
 * gamma, energy; scleronomic) and s->model = p, which must outlive s.
 * The energy is E = m (x'^2 + y'^2 + z'^2) / 2 - m g y: zero at the release. */
void ch03_system(const ch03_pendulum *p, mbd_system *s);

/* The initial state: q0 = (L sin theta0, L cos theta0, 0), qd0 = 0. */
void ch03_initial(const ch03_pendulum *p, double q0[CH03_N], double qd0[CH03_N]);

/* ------------------------------------------------------------------------ */
/* The exact solution (Jacobi elliptic functions)                           */

typedef struct {
    double w;     /* sqrt(g / L) [rad/s] */
    double k;     /* modulus sin(theta0 / 2) */
    double K;     /* complete elliptic integral of the first kind K(k) */
    double T;     /* period 4 K / w [s] */
} ch03_exact;

/* GSL_EDOM when theta0 is not in (0, pi). */
int ch03_exact_init(const ch03_pendulum *p, ch03_exact *e);

/* theta(t) and theta'(t):  sin(theta/2) = k sn(K - w t, k),
 * theta' = -2 k w cn(K - w t, k). */
int ch03_exact_angle(const ch03_exact *e, double t, double *theta, double *omega);

/* The Cartesian state of the angle: x = L sin theta, y = L cos theta, z = 0,
 * x' = L omega cos theta, y' = -L omega sin theta, z' = 0 (eqs. 74-77). */
void ch03_cartesian(const ch03_pendulum *p, double theta, double omega, double q[CH03_N],
                    double qd[CH03_N]);

/* The exact Cartesian state at t. */
int ch03_exact_state(const ch03_pendulum *p, const ch03_exact *e, double t, double q[CH03_N],
                     double qd[CH03_N]);

/* The n-th time (n = 1, 2, ...) the mass passes the bottom (x = 0):
 * (2n - 1) T / 4. */
double ch03_exact_bottom_time(const ch03_exact *e, int n);

/* ------------------------------------------------------------------------ */
/* Errors of a time history against the exact solution                      */

typedef struct {
    double x, y, z, xd, yd, zd;   /* largest |error| of each component */
    double position;              /* largest of x, y, z */
    double velocity;              /* largest of xd, yd, zd */
    double z_abs;                 /* largest |z| (0 when the plane constraint holds exactly) */
    double t_position;            /* when the position error was largest */
} ch03_errors;

/* The largest errors of the rows of h (from this pendulum's initial state)
 * against the exact solution. */
int ch03_compare(const ch03_pendulum *p, const ch03_exact *e, const mbd_history *h,
                 ch03_errors *err);

/* The first time after t_after at which x changes sign in the history
 * (linear interpolation between rows); NAN when it never does. */
double ch03_first_crossing(const mbd_history *h, double t_after);

/* ------------------------------------------------------------------------ */
/* The direct method: theta'' = -(g/L) sin theta (eq. 73)                   */

/* The reduced ODE on y = (theta, theta'), gsl_odeiv2's signature; params is
 * the ch03_pendulum. */
int ch03_direct_rhs(double t, const double y[], double dydt[], void *params);

/* Integrates the reduced ODE with the integrator `ode` from theta0 at rest,
 * through the library's run loop, and records the Cartesian state of eqs.
 * (74)-(77) at every output into hist (may be NULL), with C_norm, Cdot_norm
 * and E computed from the Cartesian state as for the constrained
 * formulations (so C is zero up to rounding). stats gets the run's counters
 * and the same maxima mbd_simulate() gives. */
int ch03_direct_run(const ch03_pendulum *p, const mbd_ode_params *ode, const mbd_sim_params *sp,
                    mbd_history *hist, mbd_sim_stats *stats, mbd_failure *fail);

/* ------------------------------------------------------------------------ */
/* The document's in-function corrections (listings A.2.a, A.2.c, A.2.f)     */

/* MATLAB's `while abs(v) > tol` for a vector v: the loop body runs only when
 * every element of abs(v) > tol is true (and v is not empty). */
int ch03_matlab_while(const double v[], size_t n, double tol);

/* Over the rows of a history: how many states would enter the document's
 * displacement-correction loop (MATLAB's rule on C = (x^2 + y^2 - L^2, z)),
 * and how many have |C_1| > tol, where a loop that tested any element would
 * have run. */
void ch03_dead_corrections(const ch03_pendulum *p, const mbd_history *h, double tol,
                           long *matlab_runs, long *any_runs);

#endif
