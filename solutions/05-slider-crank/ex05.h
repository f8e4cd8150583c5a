/* ex05.h -- the functions of chapter 05's exercises (see README.md).
 *
 * The slider-crank of document 000, Sec. 2.4.3. Angles from the downward
 * vertical: the crank (rod 1, length L1, mass m1) turns about the origin, its
 * tip at (L1 sin th1, -L1 cos th1); the connecting rod (rod 2, L2, m2) hangs
 * from the crank tip at the relative angle th2 (absolute angle th1 + th2); its
 * end carries the slider (m3) on the x axis at x3. The rods are uniform; gravity
 * g acts in -y. q = (th1, th2, x3) and the constraints are
 *
 *     C = [ L1 sin th1 + L2 sin(th1 + th2) - x3 ;  -L1 cos th1 - L2 cos(th1 + th2) ].
 *
 * The document's mass matrix is diag(m1 L1^2/3, m2 L2^2/3, m3).
 * Every function returns GSL_SUCCESS, or an error status; none prints.
 */
#ifndef EX05_H
#define EX05_H

#include <gsl/gsl_matrix.h>

#include "mbd/error.h"

typedef struct {
    double g, m1, m2, m3, L1, L2;
} ex05_params;

/* Table 4 of the document: g = 9.81, unit masses, L1 = L2 = 2. */
static inline ex05_params ex05_table4(void)
{
    ex05_params p = {9.81, 1.0, 1.0, 1.0, 2.0, 2.0};
    return p;
}

/* EXERCISE 05.1 -- the consistent mass matrix, and the true energy.
 *
 * (a) The mass matrix of the two-rod chain with the slider in the coordinates
 * q, derived from the kinetic energy T = (1/2) q'^T M(q) q' of the three
 * bodies (each rod: its centre's velocity and its rotation about the centre,
 * inertia m L^2 / 12). Every entry of M is written, the zeros too. M must be
 * 3 x 3 (GSL_EBADLEN for any other number of rows or columns); GSL_EINVAL when
 * a mass or a length (m1, m2, m3, L1, L2) is not positive. Any g is allowed. */
int ex05_mass_consistent(const ex05_params *p, const double q[3], gsl_matrix *M);

/* (b) The true mechanical energy T + V of the state (q, q'): T the kinetic
 * energy of (a), V the gravity of both rods with the zero of potential at the
 * height of the crank pivot (the slider's line y = 0), for the gravity p->g.
 * GSL_EINVAL as in (a). */
int ex05_energy(const ex05_params *p, const double q[3], const double qd[3], double *E);

/* EXERCISE 05.2 -- the reduced equation on the branch, and the fold time.
 *
 * (a) With L1 = L2 = L the mechanism released on the branch th2 = pi - 2 th1,
 * x3 = 2 L sin th1 stays on it, and the equations of motion reduce to one
 * equation for th1. Compute th1'' at (th1, th1') for the document's mass matrix
 * (consistent = 0) or the consistent one (consistent = 1); the applied forces
 * are the document's F in its general form (gravity and the chain's velocity
 * terms (1/2) m2 L1 L2 sin th2 (th2'^2 + 2 th1' th2') and -(1/2) m2 L1 L2
 * sin th2 th1'^2). GSL_EINVAL when L1 != L2. */
int ex05_reduced_accel(const ex05_params *p, int consistent, double th1, double th1d,
                       double *th1dd);

/* (b) Released from rest at th1 = th10 (0 < th10 < pi) on the branch, the time
 * at which th1 first reaches 0 (the fold), found by integrating (a) to within
 * 1e-9 s. GSL_EMAXITER when it is not reached by t_max (a fold just after
 * t_max is not reached); GSL_EINVAL when th10 is outside (0, pi), t_max <= 0
 * or L1 != L2. *t_fold = NAN on every error. */
int ex05_fold_time(const ex05_params *p, int consistent, double th10, double t_max,
                   double *t_fold);

/* EXERCISE 05.3 -- the Schur complement near the fold.
 *
 * (a) S = C_q M^-1 C_q^T (2 x 2) at q for the given mass matrix M: any
 * symmetric positive definite 3 x 3 matrix, every entry of which counts (not
 * only the document's or the consistent one); GSL_EBADLEN for any other number
 * of rows or columns, MBD_ESINGULAR when M is not positive definite. Also its
 * 2-norm condition number lambda_max / lambda_min, INFINITY when S is singular
 * (lambda_min <= 0). */
int ex05_schur_condition(const ex05_params *p, const gsl_matrix *M, const double q[3],
                         double S[2][2], double *cond);

/* (b) For the document's mass matrix and L1 = L2, the constant K of
 * cond(S) ~ K / th1^2 as the mechanism approaches the fold th1 = 0 along the
 * branch th2 = pi - 2 th1, in closed form (Table 4: K = 16/51). GSL_EINVAL when
 * L1 != L2. */
int ex05_fold_constant(const ex05_params *p, double *K);

#endif
