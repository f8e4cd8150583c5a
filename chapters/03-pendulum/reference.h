/* chapters/03-pendulum/reference.h -- what chapter 03 is checked against: the
 * pendulum's exact solution (Jacobi elliptic functions), the errors of a
 * history against it, and the direct integration of the angle equation. */
#ifndef CH03_REFERENCE_H
#define CH03_REFERENCE_H

#include "mbd/study.h"
#include "model.h"

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

/* The exact state along increasing times (a history's outputs) at a small
 * fraction of the cost of ch03_exact_state at each: on an evenly spaced run
 * of times, sn, cn and dn step by the addition formulas of the Jacobi
 * functions and are corrected to first order for the round-off of the grid;
 * every CH03_EXACT_ANCHOR steps, and wherever the spacing changes, they are
 * evaluated afresh by GSL. The angle comes from sn, cn, dn by
 * sin(theta) = 2 k sn dn, cos(theta) = 1 - 2 k^2 sn^2 (theta / 2 lies in
 * (-pi/2, pi/2), so cos(theta / 2) = dn), without an inverse sine.
 * Agrees with ch03_exact_state to about 1e-15 L (a test checks 1e-13). */
#define CH03_EXACT_ANCHOR 64
typedef struct {
    const ch03_pendulum *p;
    const ch03_exact *e;
    int anchored, stepped;   /* an anchor exists; sv, cv, dv hold the step v */
    unsigned j;              /* steps taken from the anchor */
    double ua, v;            /* the anchor's argument u = K - w t, the step in u */
    double sv, cv, dv;       /* sn, cn, dn of v */
    double sn, cn, dn;       /* at ua + j v, uncorrected */
} ch03_exact_seq;

void ch03_exact_seq_init(ch03_exact_seq *s, const ch03_pendulum *p, const ch03_exact *e);
int ch03_exact_seq_state(ch03_exact_seq *s, double t, double q[CH03_N], double qd[CH03_N]);

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

/* The same, one row at a time, as the outputs come (a run that keeps no
 * history): start, a row per output in time order, finish. */
typedef struct {
    ch03_exact_seq seq;
    ch03_errors err;
    int status;              /* the last row's (GSL_SUCCESS until one fails) */
} ch03_compare_state;
void ch03_compare_start(ch03_compare_state *c, const ch03_pendulum *p, const ch03_exact *e);
int ch03_compare_row(ch03_compare_state *c, double t, const double q[CH03_N],
                     const double qd[CH03_N]);
void ch03_compare_finish(ch03_compare_state *c, ch03_errors *err);

/* The first time after t_after at which x changes sign in the history
 * (linear interpolation between rows); NAN when it never does. */
double ch03_first_crossing(const mbd_history *h, double t_after);

/* ------------------------------------------------------------------------ */
/* The direct method: theta'' = -(g/L) sin theta (eq. 73)                   */

/* The angle equation as a system of one coordinate and no constraints (per
 * unit inertia: M = 1, F = -(g/L) sin theta); p must outlive it. */
void ch03_direct_system(const ch03_pendulum *p, mbd_system *s);

/* Integrates it through the library's method run (mbd_study_run, the
 * unconstrained form of the embedding) with spec's integrator, grid and
 * limits from theta0 at rest, and records the Cartesian state of eqs.
 * (74)-(77) at every output into hist (may be NULL), with C_norm, Cdot_norm
 * and E computed from the Cartesian state as for the constrained
 * formulations (so C is zero up to rounding); res gets the run's status,
 * counters and those maxima. */
int ch03_direct_run(const ch03_pendulum *p, const mbd_study_spec *spec, mbd_history *hist,
                    mbd_study_result *res);

#endif
