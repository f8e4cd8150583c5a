/* ex07.h -- the functions of chapter 07's exercises (see README.md).
 *
 * QR with column pivoting of the transposed constraint Jacobian, the rank
 * census and the tangent basis it gives, the continuation of that basis from
 * one step to the next, and the stop of the 4-bar at its singular horizontal
 * configuration, after document 002 (Quro 2023, "Projection continuation for
 * singularity detection of redundantly constrained multibody system
 * dynamics", Secs. 2.1-2.2, 3, 4.1-4.2, 5.2.2 and App. A). The functions work
 * on plain numbers and GSL matrices; none needs the chapter program, a model
 * or the library's mbd/nullspace.h (which does the same things for the
 * chapter: write your own).
 *
 * Conventions:
 *   - A = C_q is the constraint Jacobian, m x n (m constraint rows, n
 *     coordinates), any of m < n, m = n and m > n, of any rank r.
 *   - QR with column pivoting of A^T (the document's eqs. 2.12-2.14, 4.1,
 *     4.15-4.16) is GSL's gsl_linalg_QRPT_decomp followed by
 *     gsl_linalg_QR_unpack:
 *         A^T P = Q R,   Q (n x n) orthogonal,   R (n x m) upper trapezoidal,
 *     with P the m x m permutation held in a gsl_permutation p of size m:
 *     column i of A^T P is column p[i] of A^T, i.e. row p[i] of A. Pivoting
 *     makes |R_00| >= |R_11| >= ... (up to round-off).
 *   - At rank r, R = [R11 R12; 0 0] with R11 (r x r) upper triangular and
 *     invertible, and Q = [Q_ns T]: the first r columns span the range of
 *     A^T, the last k = n - r the null space of A, the tangent space
 *     (T^T T = I, A T = 0). The document's cases are all this one formula:
 *     T = Q_2 (eq. 2.1), [Q_1s Q_2] (eqs. 2.15, 4.2), Q_1s (eqs. 4.3, 4.17).
 *   - Indices in these comments count from 0, like C.
 *
 * Every function returns GSL_SUCCESS or an error status and prints nothing.
 * On every error it writes none of its outputs (they keep what they held).
 * Pointers must be valid (NULL only where a contract allows it).
 */
#ifndef EX07_H
#define EX07_H

#include <stddef.h>

#include <gsl/gsl_matrix.h>
#include <gsl/gsl_permutation.h>

#include "mbd/error.h"

/* EXERCISE 07.1 -- the rank census (the document's Table 5.1) and the
 * tangent basis.
 *
 * QR with column pivoting of A^T for A (m x n, any shape), as above. With
 * p = min(m, n) and the |R_ii| sorted in decreasing order,
 *     rank = the number of i < p with |R_ii| > tol |R_00|   (0 when A = 0),
 *     d    = p - rank      (the rank deficiency, Sec. 2.2 and 4.2.1: the
 *                           number of admissible motions beyond those of a
 *                           Jacobian of full rank),
 *     dof  = n - rank      (the degrees of freedom: the columns of T).
 * The document gives no threshold for "|R_ii| is zero"; here it is the
 * argument tol, relative to the largest |R_ii|.
 *
 * Writes diag (p values: the |R_ii|, decreasing), *census, and, when T is not
 * NULL, the tangent basis: T (n x dof) = the last dof columns of Q, so that
 * T^T T = I and A T = 0 (up to the dropped |R_ii|). A caller who does not know
 * dof yet calls with T = NULL first. When dof = 0 there is no basis (a GSL
 * matrix has at least one column): T must be NULL then.
 *
 * MBD_EINPUT when tol is not in (0, 1) (NaN included) or an entry of A is
 * not finite; GSL_EBADLEN when T is not NULL and not n x dof. */
typedef struct {
    size_t rank;   /* r */
    size_t d;      /* min(m, n) - r */
    size_t dof;    /* n - r */
} ex07_census;

int ex07_rank_census(const gsl_matrix *A, double tol, double diag[], ex07_census *census,
                     gsl_matrix *T);

/* EXERCISE 07.2 -- the traditional and the continued basis (Ch. 3, App. A).
 *
 * A fresh factorisation fixes T only up to an orthogonal k x k factor: from
 * one step to the next its columns may change sign or turn inside their span
 * (the "traditional" basis). The continued basis is the fresh one turned to be
 * as close as possible to a reference (the previous basis, or a prediction).
 *
 * (a) App. A: T <- T U with U (k x k) the orthogonal matrix that minimises
 * |Tref^T T U - I|_F (eqs. A.1-A.7): with C = Tref^T T (eq. A.6) and its SVD
 * C = W S V^T, U = V W^T, the orthogonal polar factor of C^T (eqs.
 * A.13-A.14). *sigma_min (sigma_min may be NULL) receives the smallest
 * singular value of C: the cosine of the largest principal angle between the
 * spans of Tref and T (1 when they are the same space).
 * Tref and T are n x k with 1 <= k <= n (GSL_EBADLEN otherwise), each with
 * orthonormal columns: MBD_EINPUT when max_ij |(X^T X - I)_ij| > 1e-8 for
 * X = Tref or X = T (a non-finite entry included). MBD_ESINGULAR when
 * sigma_min <= 1e-10: a direction of Tref is orthogonal to the span of T, and
 * the minimiser is not unique. */
int ex07_align(const gsl_matrix *Tref, gsl_matrix *T, double *sigma_min);

/* (b) The jump rule: *jump = 1 when some column of the basis turned by more
 * than 60 degrees from T_old to T_new, i.e. min_j (T_old^T T_new)_jj < 1/2
 * (a sign flip gives -1 there, a swap of two columns 0, a continuous basis
 * over a small step 1 - O(h^2)); else *jump = 0. GSL_EBADLEN unless both are
 * of the same size. */
int ex07_jump(const gsl_matrix *T_old, const gsl_matrix *T_new, int *jump);

/* (c) The jumps of a sequence of bases T[0], ..., T[count - 1] (all n x k,
 * count >= 1; GSL_EBADLEN otherwise): the number of steps s = 1 .. count - 1
 * at which the jump rule (b) fires between the basis in use at step s - 1 and
 * the one in use at step s.
 *   continued = 0: the bases in use are the T[s] as given (the traditional
 *                  basis);
 *   continued != 0: B_0 = T[0], and B_s is T[s] aligned by (a) to B_{s-1}
 *                  (the previous basis in use, itself aligned).
 * The T[s] are not changed. In the continued case the errors of (a) are
 * returned (nothing written). */
int ex07_count_jumps(const gsl_matrix *const T[], size_t count, int continued, size_t *jumps);

/* EXERCISE 07.3 -- the stop at the horizontal (Sec. 5.2.2, Fig. 5.19).
 *
 * On its parallelogram branch the 4-bar is one equation in the crank angle
 * theta (from the +x axis, counter-clockwise), J theta'' = -K g cos(theta):
 * J [kg m^2] the inertia of the mechanism reduced to theta, K [kg m] its
 * first moment, g [m/s^2] gravity. The document's 4-bar (three uniform bars
 * of 1 m and 1 kg) has J = 5/3, K = 2: kinetic energy (1/2) J theta'^2,
 * potential K g sin(theta).
 *
 * Started at theta0 with the speed theta'(0) = omega0, the mechanism stops
 * exactly at theta1 (a turning point: theta' = 0 there, theta'' != 0) when
 * it moves monotonically from theta0 to theta1 and its speed vanishes there
 * and nowhere before. That needs J, K, g finite and > 0, theta0 and theta1
 * finite, and
 *     sin(theta) < sin(theta1) for every theta between theta0 (included)
 *                              and theta1 (excluded),
 * i.e. sin(theta0) < sin(theta1) and no top theta = pi/2 + 2 k pi inside the
 * interval, and, at theta1 itself,
 *     cos(theta1) sgn(theta1 - theta0) > 1e-9
 * (a top is approached only asymptotically, in infinite time; angles within
 * about 1e-9 of cos = 0 are refused as tops). MBD_EINPUT when any of this
 * fails, in (a) and (b) alike. The document's case is theta0 = 3 pi / 2,
 * theta1 = pi: omega0 = -sqrt(12 g / 5) = -4.852216 rad/s (its 4.8522, with
 * the sign of the motion), reached after about 0.5404 s.
 *
 * (a) *omega0 [rad/s]: the initial speed, signed (negative when theta1 <
 * theta0), to 1e-12 relative also when theta1 is close to theta0. */
int ex07_stop_speed(double J, double K, double g, double theta0, double theta1,
                    double *omega0);

/* (b) *t_stop [s]: the time to get from theta0 to theta1 with that speed,
 *     t = integral from theta0 to theta1 of dtheta / |theta'(theta)|,
 * to 1e-9 relative; the integrand is infinite (integrably) at theta1. */
int ex07_stop_time(double J, double K, double g, double theta0, double theta1,
                   double *t_stop);

/* EXERCISE 07.4 -- the continuation update (Sec. 4.1.2, eqs. 4.4-4.14; for
 * m > n, Sec. 4.2.2, eqs. 4.18-4.28).
 *
 * (a) The skew matrix Omega = Q^T Q' (n x n) of a factorisation that follows
 * the motion, with the T-T block set to zero (no spin of T inside its own
 * span). The inputs: the factorisation A^T P = Q R of A (m x n) at rank r as
 * above -- Q (n x n), R (n x m) and the pivot perm (size m) from
 * gsl_linalg_QRPT_decomp and gsl_linalg_QR_unpack -- in which the last
 * k = n - r columns of Q may be replaced by any orthonormal basis of the same
 * span (the basis in use, Q = [Q_ns T]); and Adot = dA/dt (m x n) along the
 * motion. With P held fixed, differentiating gives (eqs. 4.4-4.7)
 *     J = Q^T Adot^T P = Omega R + R'.
 * Only the first r columns of J are needed; split its rows r | k:
 *     Omega_s  = J21 R11^-1                       (k x r, eq. 4.10),
 *     Omega_L  = stril(J11 R11^-1)                (strictly lower, eq. 4.12),
 *     Omega_ns = Omega_L - Omega_L^T              (r x r, eqs. 4.13 corrected, 4.27),
 *     Omega    = [Omega_ns  -Omega_s^T ; Omega_s  0].
 * The document's eq. 4.13 prints Omega_ns = Omega_L - Omega^T, which is not
 * skew; eq. 4.27, for m > n, has it right. For m > n the same equations hold
 * with Q = Q_1 (the document's eqs. 4.20-4.21 keep the first n columns of P;
 * the first r are all these formulas use).
 * r = 0 gives Omega = 0. GSL_EBADLEN when Q is not n x n, R not n x m,
 * perm not of size m, or Omega not n x n (n, m from Adot); MBD_EINPUT when
 * r > min(m, n); MBD_ESINGULAR when some |R_ii|, i < r, is <= 1e-12 |R_00|
 * (r exceeds the rank). Every entry of Omega is written. */
int ex07_omega(const gsl_matrix *Q, const gsl_matrix *R, const gsl_permutation *perm, size_t r,
               const gsl_matrix *Adot, gsl_matrix *Omega);

/* (b) The update of Q over a step h with Omega held constant: the Cayley map
 *     Qnew = Q (I - h Omega / 2)^-1 (I + h Omega / 2)
 * (n x n), orthogonal when Q is, and equal to the document's Q e^{Omega h}
 * (eq. 4.14) up to O(h^3) per step. Any finite h (negative too). Q, Omega
 * and Qnew are n x n (GSL_EBADLEN otherwise) and Qnew must not overlap Q;
 * MBD_EINPUT when h is not finite or Omega is not skew:
 * max_ij |Omega_ij + Omega_ji| > 1e-12 max_ij |Omega_ij| (a non-finite entry
 * included). */
int ex07_cayley(const gsl_matrix *Q, const gsl_matrix *Omega, double h, gsl_matrix *Qnew);

#endif
