/* ex04.h -- the functions of chapter 04's exercises (see README.md).
 *
 * The Scotch yoke of document 000, Sec. 2.4.2: a rod of length L and width b
 * (mass m1) turns about a pin at the origin, at the angle theta1 from +x; its
 * tip rides in the slot of a yoke (mass m2) that slides along x at x2. The
 * constraint is C = x2 - L cos(theta1) = 0. Gravity g acts in -y; the force
 * F0 sin(omega t) pushes the yoke along +x. The mass matrix is
 *     M = diag(M11, M22),  M11 = m1 (4 L^2 + b^2) / 12,  M22 = m2.
 * Units: inches, seconds, lbf; masses in lbf s^2/in.
 * Every function returns GSL_SUCCESS, or an error status; none prints.
 */
#ifndef EX04_H
#define EX04_H

#include <stddef.h>

#include "mbd/error.h"

typedef struct {
    double m1, m2;      /* masses, lbf s^2/in */
    double L, b;        /* rod length and width, in */
    double g;           /* in/s^2 */
    double F0, omega;   /* the yoke force F0 sin(omega t): lbf, rad/s */
} ex04_params;

/* EXERCISE 04.1 -- the reduced one-degree-of-freedom equation.
 *
 * (a) The right-hand side of the reduced equation in y = (theta1, theta1_dot),
 * with params a const ex04_params * (every field used as it is given: no
 * value of Table 3 built in): the constraint solved (x2 = L cos theta1),
 * Lagrange's equation for theta1 alone, with gravity and the yoke force as
 * generalized forces. gsl_odeiv2's signature. Returns MBD_ESINGULAR, leaving
 * dydt as it was, when the inertia the pin sees, M11 + m2 L^2 sin^2(theta1),
 * is not positive (a massless rod at a dead point theta1 = k pi). */
int ex04_reduced_rhs(double t, const double y[], double dydt[], void *params);

/* (b) Integrates (a) from rest at theta1 = theta0, t = 0, with GSL's rk8pd
 * driver at absolute and relative tolerance eps, through the times
 * t[0 .. n-1] (0 <= t[0] <= t[1] <= ...), and writes the state
 * (theta1, x2, theta1_dot, x2_dot) at t[k] into states[4 k .. 4 k + 3].
 * Returns GSL_EINVAL for n = 0, eps <= 0, a negative or decreasing time, and
 * the driver's status if the integration fails (the right-hand side's own
 * status when (a) fails: GSL's driver passes it on). */
int ex04_reduced_states(const ex04_params *p, double theta0, double eps, const double *t,
                        size_t n, double *states);

/* EXERCISE 04.2 -- Table 3's units.
 *
 * (a) The parameters of Table 3 (L = 25 in, g = 386.4 in/s^2, F0 = 1 lbf,
 * omega = pi/4 rad/s) with the table's "m1 [lbf]", "m2 [lbf]" and b: read as
 * weights (weights = 1: the mass is the weight divided by g, as listing A.3
 * does) or as masses (weights = 0: the numbers used as they stand, as the
 * text does). GSL_EINVAL for a non-positive m1, m2 or a negative b. */
int ex04_from_table(double m1, double m2, double b, int weights, ex04_params *p);

/* What the loads can do to the mechanism at rest at the angle theta1. */
typedef struct {
    double M11, M22;          /* the mass matrix's entries */
    double inertia;           /* the inertia the pin sees, M11 + m2 L^2 sin^2(theta1) */
    double accel_gravity;     /* theta1'' from gravity alone */
    double accel_force;       /* theta1'' from the yoke force alone, at its peak F0 */
} ex04_loads;

/* (b) Fills `out` for p at the angle theta1 (the mechanism at rest), every
 * field of p used as it is given. Returns MBD_ESINGULAR, leaving out as it
 * was, when the inertia is not positive (no acceleration is defined). */
int ex04_loads_at(const ex04_params *p, double theta1, ex04_loads *out);

/* EXERCISE 04.3 -- the penalty factor against the mechanism's own scale.
 *
 * (a) S = C_q M^-1 C_q^T at the angle theta1 (a 1 x 1 matrix: a number).
 * Returns MBD_ESINGULAR, leaving *S as it was, when M11 or M22 is not positive
 * (M has no inverse, or is not a mass matrix). (b) and (c) pass this on. */
int ex04_schur(const ex04_params *p, double theta1, double *S);

/* (b) The fraction of the acceleration-constraint defect that the static
 * penalty (M + mu C_q^T C_q) q'' = F + mu C_q^T gamma_B leaves:
 *     C_q q'' - gamma_B = ratio (C_q M^-1 F - gamma_B).
 * GSL_EINVAL for mu <= 0 (a negative mu included). */
int ex04_residual_ratio(const ex04_params *p, double mu, double theta1, double *ratio);

/* (c) The smallest penalty factor mu for which the ratio of (b) is at most
 * ratio_max for every theta1 in [theta_lo, theta_hi]. GSL_EINVAL for
 * theta_lo > theta_hi or ratio_max outside (0, 1). */
int ex04_choose_mu(const ex04_params *p, double theta_lo, double theta_hi, double ratio_max,
                   double *mu);

#endif
