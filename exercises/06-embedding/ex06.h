/* ex06.h -- the functions of chapter 06's exercises (see README.md).
 *
 * Planar rigid bodies in reference coordinates, a revolute joint, the
 * embedding technique (coordinate partitioning) and Baumgarte's weights, after
 * document 001 (Chandramouli 2023, "Constrained Dynamics", Sec. 1 to 4). The
 * functions work on plain arrays and GSL matrices; none needs the chapter
 * program or a model.
 *
 * Conventions (those of the library, mbd/planar.h and mbd/system.h):
 *   - Body b has the reference coordinates q_b = (x, y, theta): the global
 *     position R = (x, y) of its reference point O [m] and the angle theta
 *     [rad] of its frame from the global x axis, counter-clockwise positive.
 *   - A point given in the body frame by u [m] (measured from O) is at
 *     r = R + A u, A(theta) = [cos -sin; sin cos]; A_theta = dA/dtheta, so
 *     A_theta u is A u turned a quarter turn counter-clockwise.
 *   - m constraints C(q, t) = 0 on n coordinates q; C_q = dC/dq (m x n),
 *     C_t = dC/dt (zero, and passed as NULL, when C does not depend on time).
 *     The acceleration equation is C_q q'' = gamma, i.e. gamma collects every
 *     term of C'' that holds no acceleration, with the sign flipped:
 *     C'' = C_q q'' - gamma.
 *   - The equations of motion are M q'' + C_q^T lambda = F, F the applied
 *     forces plus the quadratic-velocity inertia forces Q_v.
 * Units are SI (kg, m, s, rad; kg m^2 for moments of inertia, N and N m).
 *
 * Every function returns GSL_SUCCESS or an error status and prints nothing.
 * On every error it writes none of its outputs (they keep what they held).
 * Array lengths follow from the matrix sizes; pointers must be valid (NULL
 * only where a contract allows it).
 */
#ifndef EX06_H
#define EX06_H

#include <stddef.h>

#include <gsl/gsl_matrix.h>

#include "mbd/error.h"

/* EXERCISE 06.1 -- the generalized inertia of a body whose reference point is
 * not its centre of mass.
 *
 * A rigid body of mass m [kg] and moment of inertia J_c [kg m^2] about its
 * centre of mass; the centre of mass sits at u_c [m] in the body frame
 * (measured from the reference point O, any direction, not only along an
 * axis). The body is at the angle theta.
 *
 * (a) Its 3 x 3 mass matrix in q = (x, y, theta): the symmetric matrix with
 * T = (1/2) q'^T M q' for every velocity q', T the body's kinetic energy.
 * Every entry is written, the zeros too. GSL_EBADLEN unless M is 3 x 3;
 * GSL_EINVAL when m <= 0 or J_c < 0 (J_c = 0, all the mass at u_c, is
 * allowed). */
int ex06_body_mass(double m, double J_c, const double u_c[2], double theta, gsl_matrix *M);

/* (b) Its quadratic-velocity inertia force at the angular velocity theta_d
 * [rad/s] (the document's centrifugal inertia force): the generalized force
 * Q_v (3 values: N, N, N m) such that Lagrange's equations of the body read
 * M q'' = Q_v + Q_e for the applied forces Q_e, i.e.
 *     Q_v = dT/dq - (dM/dt) q'.
 * It depends on theta and theta_d only (not on x', y'). GSL_EINVAL when
 * m <= 0. */
int ex06_body_quadratic(double m, const double u_c[2], double theta, double theta_d,
                        double Qv[3]);

/* EXERCISE 06.2 -- the revolute joint.
 *
 * Bodies i and j with reference coordinates q_i, q_j and velocities qd_i,
 * qd_j (3 values each) are pinned together: the point u_i of body i and the
 * point u_j of body j (each in its own body frame, from its reference point)
 * coincide,
 *     C = R_i + A_i u_i - R_j - A_j u_j = 0        (2 equations, m).
 *
 * (a) C (2 values), its Jacobian C_q (2 x 6, the columns of x_i, y_i,
 * theta_i, x_j, y_j, theta_j in this order; every entry written) and gamma
 * (2 values) of C_q q'' = gamma at the velocities (qd_i, qd_j). The state
 * need not satisfy the constraint. GSL_EBADLEN unless Cq is 2 x 6. */
int ex06_revolute(const double q_i[3], const double u_i[2], const double q_j[3],
                  const double u_j[2], const double qd_i[3], const double qd_j[3], double C[2],
                  gsl_matrix *Cq, double gamma[2]);

/* (b) The joint to the ground, the special case of (a) in which body j is the
 * ground: the point u_i of body i is pinned to the fixed point P [m] given in
 * global coordinates,
 *     C = R_i + A_i u_i - P = 0,
 * C (2 values), C_q (2 x 3: the columns of x_i, y_i, theta_i; every entry
 * written) and gamma (2 values). GSL_EBADLEN unless Cq is 2 x 3. */
int ex06_revolute_ground(const double q_i[3], const double u_i[2], const double P[2],
                         const double qd_i[3], double C[2], gsl_matrix *Cq, double gamma[2]);

/* EXERCISE 06.3 -- embedding: the velocity transformation and the embedded
 * equations of motion.
 *
 * n coordinates q, m constraints (1 <= m < n) with the Jacobian C_q (m x n:
 * any matrix, not symmetric, not that of a particular mechanism). The
 * k = n - m independent coordinates are q_i = (q[indep[0]], ...,
 * q[indep[k-1]]), in the order indep gives them (it need not be sorted); the
 * other m coordinates are the dependent ones, q_d. I_d is the k x n Boolean
 * matrix with I_d q = q_i, and
 *     K = [ C_q ; I_d ]       (n x n)
 * is invertible exactly when C_qd, the columns of C_q of the dependent
 * coordinates, is.
 *
 * Errors, common to (a), (b) and (c): GSL_EBADLEN when C_q does not have
 * 1 <= m < n or another matrix has the wrong size; GSL_EINVAL when an entry
 * of indep is >= n or appears twice; MBD_ESINGULAR when K is singular to
 * working precision. The tests' K are either singular in exact arithmetic
 * (they must be refused with MBD_ESINGULAR, never answered with NaN or
 * infinities) or have a condition number below 1e6 (they must be solved);
 * the reference solution refuses K when LU with partial pivoting leaves a
 * pivot of magnitude <= 1e-12 max_ij |K_ij|. Nothing is written on an error.
 *
 * (a) The velocity transformation B (n x k): q' = B q_i' for every velocity
 * with C_q q' = 0, with the rows in the ORIGINAL order of q (row r belongs to
 * q[r]), so C_q B = 0 and I_d B = I (column l of B solves K b_l = [0; e_l]).
 * The document's B_i = [-C_qd^-1 C_qi; I] lists q_d first: the same rows,
 * reordered. GSL_EBADLEN unless B is n x k. */
int ex06_velocity_transform(const gsl_matrix *Cq, const size_t indep[], gsl_matrix *B);

/* (b) All n velocities q' from the independent ones qd_i (k values) and C_t
 * (m values; NULL when the constraints do not depend on time): the q' with
 * C_q q' + C_t = 0 and q'[indep[l]] = qd_i[l]. */
int ex06_dependent_velocities(const gsl_matrix *Cq, const size_t indep[], const double Ct[],
                              const double qd_i[], double qd[]);

/* (c) The embedded accelerations: for the mass matrix M (n x n, symmetric,
 * positive definite at least on the null space of C_q; it need not be
 * diagonal or block diagonal), the forces F (n values) and gamma (m values),
 * with gamma_c the solution of K gamma_c = [gamma; 0] and B of (a),
 *     (B^T M B) qdd_i = B^T (F - M gamma_c),     qdd = B qdd_i + gamma_c:
 * the accelerations of M q'' + C_q^T lambda = F, C_q q'' = gamma. Writes
 * qdd_i (k values) and qdd (n values, original order). GSL_EBADLEN unless M
 * is n x n; MBD_ESINGULAR also when B^T M B is not positive definite. */
int ex06_embedded_accel(const gsl_matrix *M, const gsl_matrix *Cq, const size_t indep[],
                        const double F[], const double gamma[], double qdd_i[], double qdd[]);

/* EXERCISE 06.4 -- Baumgarte's weights, and the drift they leave.
 *
 * Baumgarte replaces C'' = 0 by C'' + 2 alpha C' + beta^2 C = 0, alpha and
 * beta [1/s] both >= 0 (GSL_EINVAL for a negative or NaN one, in (a), (b)
 * and (c)).
 *
 * (a) The stabilized right-hand side gamma_B (m values) of
 * C_q q'' = gamma_B, the one with which C'' + 2 alpha C' + beta^2 C = 0:
 *     gamma_B = gamma - 2 alpha C' - beta^2 C,    C' = C_q q' + C_t,
 * for C_q (m x n, any), q' (n values), C, gamma (m values) and C_t (m
 * values, or NULL when the constraints do not depend on time). */
int ex06_baumgarte_gamma(const gsl_matrix *Cq, const double qd[], const double C[],
                         const double Ct[], const double gamma[], double alpha, double beta,
                         double gamma_B[]);

/* (b) One component of the violation under Baumgarte's equation, in closed
 * form: the solution of C'' + 2 alpha C' + beta^2 C = 0 with C(t0) = C0,
 * C'(t0) = Cd0, evaluated at the time t (any t, also t < t0): *C = C(t) and
 * *Cd = C'(t). Under-damped (alpha < beta), critically damped (alpha = beta)
 * and over-damped (alpha > beta) alike, continuous across alpha = beta; the
 * result is finite wherever the true one is, also when e^{-alpha (t - t0)}
 * underflows (large alpha, long times). */
int ex06_violation(double alpha, double beta, double t0, double C0, double Cd0, double t,
                   double *C, double *Cd);

/* (c) The decay rate [1/s]: the largest real part of the roots s of
 * s^2 + 2 alpha s + beta^2 = 0 (|C| ~ e^{rate t} as t grows; 0 when nothing
 * pulls C back), to a relative accuracy of 1e-12 for every alpha and beta,
 * also alpha >> beta, where -alpha + sqrt(alpha^2 - beta^2) cancels. */
int ex06_decay_rate(double alpha, double beta, double *rate);

#endif
