/* ex09.h -- the functions of chapter 09's exercises (see README.md).
 *
 * The spatial engine in Euler parameters after document 003 (Vignos 2016,
 * "Development and Validation of MATLAB-Based 3D Multibody Kinematics and
 * Dynamics Simulation Engine", simEngine3D), Secs. 4.1 and 6.4-6.5, with the
 * equations its reading guide (seed-notes/003, "the guide") writes out in
 * its Sec. 2.2: the four basic constraints, a joint assembled from them, one
 * step of the kinematics analysis of a fully driven model, and the inverse
 * dynamics that turns a driver's multiplier into the torque that drives.
 *
 * 09.1 and 09.2 work on plain arrays; 09.3 and 09.4 on a finished
 * mbd_spatial_model (mbd/spatial.h) built by the caller. What the library
 * already has, a solution may call: the Euler-parameter helpers
 * (mbd_spatial_ep_A, _B, _G, _E, ...) everywhere; the model's look-ups, its
 * mbd_system callbacks and mbd_spatial_eval_row in 09.3 and 09.4. It must
 * not call what does the exercise itself: mbd_spatial_eval_row in 09.1,
 * the analyses mbd_spatial_position, _velocity, _acceleration, _kinematics
 * in 09.3, mbd_spatial_multipliers, _reactions and _inverse_dynamics in
 * 09.4.
 *
 * Conventions (those of mbd/spatial.h):
 *   - Euler parameters p = (e0, e) = (e0, e1, e2, e3). A(p) is the
 *     homogeneous quadratic
 *         A(p) = (e0^2 - e^T e) I + 2 e e^T + 2 e0 e~,
 *     and B(p, a) = d(A(p) a)/dp = 2 [(e0 I + e~) a, e a^T - (e0 I + e~) a~]
 *     its exact derivative (3 x 4), a~ the skew matrix (a~ b = a x b).
 *     Then d(A a)/dt = B(p, a) p' and d^2(A a)/dt^2 = B(p, a) p'' +
 *     B(p', a) p': the same formula with p' in the place of p.
 *     G(p) = [-e, -e~ + e0 I], E(p) = [-e, e~ + e0 I] (3 x 4); the angular
 *     velocity is omega_bar = 2 G(p) p' in the body frame, omega = 2 E(p) p'
 *     in the global frame.
 *   - Haug's signs (the guide's Sec. 2.1): every row is
 *         Phi = g(q) - f(t),   Phi_q q' = nu = f'(t),
 *         Phi_q q'' = gamma = -(Phi_q q')_q q' + f''(t).
 *   - A moving body has the seven coordinates (r, p): r the origin of its
 *     frame (its centre of mass), p its Euler parameters. In a model's q
 *     each moving body's seven are together, r then p, in the order the
 *     bodies were added: mbd_spatial_body_coordinates() gives the index of
 *     r, p follows at +3. A ground has no coordinates; its frame is the
 *     global one.
 *   - Points s_bar and vectors a_bar are given in their body's frame.
 *   - max|x| is the largest absolute entry. Indices count from 0, like C.
 *
 * Every function returns GSL_SUCCESS or an error status and prints nothing.
 * On every error it writes none of its outputs (they keep what they held;
 * an in-out argument keeps its input). Pointers must be valid (NULL only
 * where a contract allows it).
 */
#ifndef EX09_H
#define EX09_H

#include <stddef.h>

#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

#include "mbd/error.h"
#include "mbd/spatial.h"

/* EXERCISE 09.1 -- the basic constraints CD, D, DP1 and DP2 (document Sec.
 * 4.1.1; the equations of the guide's Sec. 2.2).
 *
 * Body i carries P (s_bar_i^P) and a_bar_i, body j carries Q (s_bar_j^Q)
 * and a_bar_j. With
 *     d   = r_j + A_j s_j - r_i - A_i s_i          (from P to Q),
 *     a_i = A_i a_bar_i,    a_j = A_j a_bar_j,
 * the four constraints are
 *     CD    g = c^T d          (c a global direction; e_x, e_y, e_z select
 *                               a coordinate, as in the document)
 *     D     g = d^T d          (f is the SQUARED distance, as the document
 *                               asks, and f', f'' are the derivatives of
 *                               that squared function)
 *     DP1   g = a_i^T a_j
 *     DP2   g = a_i^T d
 * and each row is Phi = g - f(t). The row's outputs:
 *     phi           Phi = g(q) - f
 *     nu            f'
 *     gamma         -(Phi_q q')_q q' + f'', written with B(p', a) p' (the
 *                   guide's Sec. 2.2 gives the four)
 *     phi_r[0], phi_p[0]   dPhi/dr_i, dPhi/dp_i (body i's blocks)
 *     phi_r[1], phi_p[1]   dPhi/dr_j, dPhi/dp_j (body j's blocks)
 * The derivatives are those of g written with the A(p) above, so they
 * hold for any p, unit or not.
 *
 * A ground side is given as NULL: its frame is the global one (r = 0,
 * A = I, at rest), it has no coordinates, and its two blocks are written
 * as zeros. Either side may be the ground, not both.
 */
typedef struct {
    double r[3];     /* the origin of the body's frame, global */
    double p[4];     /* its Euler parameters */
    double rd[3];    /* r' */
    double pd[4];    /* p' */
} ex09_state;

typedef enum {
    EX09_CD = 0,     /* coordinate difference c^T d */
    EX09_D,          /* squared distance d^T d */
    EX09_DP1,        /* dot product a_i^T a_j */
    EX09_DP2         /* dot product a_i^T d */
} ex09_basic_kind;

typedef struct {
    ex09_basic_kind kind;
    double sp[3];    /* P on body i (CD, D, DP2) */
    double sq[3];    /* Q on body j (CD, D, DP2) */
    double ai[3];    /* a_bar_i on body i (DP1, DP2) */
    double aj[3];    /* a_bar_j on body j (DP1) */
    double c[3];     /* the global direction of CD */
} ex09_basic;

typedef struct {
    double phi, nu, gamma;
    double phi_r[2][3];   /* [0]: body i, [1]: body j */
    double phi_p[2][4];
} ex09_row;

/* One basic constraint's row at the states of its bodies (bi, bj; NULL:
 * the ground), f = (f, f', f'') the prescribed function and its first two
 * derivatives at the time of the states. A kind uses only its own
 * attributes (the others are not read).
 * MBD_EINPUT when bc, f or row is NULL, the kind is not one of the four,
 * both sides are the ground, an attribute the kind uses is zero where it is
 * a direction (c of CD, a_bar_i of DP1 and DP2, a_bar_j of DP1), a moving
 * body's p is zero, or an entry the row uses (of the moving bodies' states,
 * of the kind's attributes, of f) is not finite. */
int ex09_basic_row(const ex09_basic *bc, const ex09_state *bi, const ex09_state *bj,
                   const double f[3], ex09_row *row);

/* EXERCISE 09.2 -- a joint assembled from basic constraints (document Sec.
 * 4.1.3; the guide's Sec. 2.4 and spatial.h's table).
 *
 * Each graded file is graded on its own, so the joint does not call
 * ex09_basic_row by name: it is given the basic-constraint evaluator as a
 * parameter (pass your own ex09_basic_row; the tests pass theirs). Every
 * row of a joint is a basic constraint with f = (0, 0, 0), and the rows
 * come in this order:
 *     spherical     3   CD(e_x; P, Q), CD(e_y; P, Q), CD(e_z; P, Q)
 *     revolute      5   the spherical's 3, DP1(a_i, c_j), DP1(b_i, c_j)
 *     cylindrical   4   DP1(a_i, c_j), DP1(b_i, c_j), DP2(a_i; P, Q), DP2(b_i; P, Q)
 *     universal     4   the spherical's 3, DP1(a_i, a_j)
 * (the revolute's and the cylindrical's DP1 pair is the perpendicular-1
 * constraint, the cylindrical's DP2 pair the perpendicular-2, document Sec.
 * 4.1.2). P and Q coincide in the spherical, revolute and universal joints;
 * c_j, on j, is the axis normal to the plane that a_i and b_i span on i;
 * a_i and a_j are the universal joint's cross axes.
 */
typedef int (*ex09_basic_fn)(const ex09_basic *bc, const ex09_state *bi, const ex09_state *bj,
                             const double f[3], ex09_row *row);

typedef enum {
    EX09_SPHERICAL = 0,
    EX09_REVOLUTE,
    EX09_CYLINDRICAL,
    EX09_UNIVERSAL
} ex09_joint_kind;

#define EX09_JOINT_MAX_ROWS 5

typedef struct {
    ex09_joint_kind kind;
    double sp[3];    /* P on body i */
    double sq[3];    /* Q on body j */
    double ai[3];    /* revolute, cylindrical: with bi, the plane on i; universal: i's axis */
    double bi[3];    /* revolute, cylindrical */
    double cj[3];    /* revolute, cylindrical: the axis on j */
    double aj[3];    /* universal: j's axis */
} ex09_joint;

/* The joint's rows at the states bi, bj (NULL: the ground) into rows[0 ..
 * *count - 1] (room for EX09_JOINT_MAX_ROWS), each from one call of basic,
 * in the order above. MBD_EINPUT when jt, basic, rows or count is NULL, the
 * kind is not one of the four, both sides are the ground, an attribute the
 * kind uses is not finite, a direction it uses is zero (a_i, b_i, c_j of
 * the revolute and the cylindrical, a_i, a_j of the universal), or a_i and
 * b_i are parallel (|a_i x b_i| <= 1e-12 |a_i| |b_i|); basic's status when
 * a call fails (nothing is written then). */
int ex09_joint_rows(const ex09_joint *jt, const ex09_state *bi, const ex09_state *bj,
                    ex09_basic_fn basic, ex09_row rows[], size_t *count);

/* EXERCISE 09.3 -- one step of the kinematics analysis (document Sec. 6.4,
 * eqs. 12-14; the guide's Sec. 4.4).
 *
 * A fully driven model: as many rows as coordinates (m = n; the
 * normalisation rows included) and Phi_q regular. At the time t, from the
 * guess q (the previous step's configuration):
 *   - Newton's method on Phi(q, t) = 0 (eq. 12): while max|Phi(q, t)| > tol,
 *     solve Phi_q(q, t) dq = -Phi(q, t) and set q = q + dq; no step when
 *     max|Phi| <= tol already. At most max_iter steps: MBD_ENOCONV when the
 *     residual is still above tol after them;
 *   - the velocities (eq. 13): Phi_q q' = nu (= -Phi_t);
 *   - the accelerations (eq. 14): Phi_q q'' = gamma(q, q', t);
 * both with Phi_q at the final q. The model gives Phi, Phi_q, Phi_t and
 * gamma through its mbd_system (mbd_spatial_system: constraint, jacobian,
 * constraint_t, gamma) and row by row through mbd_spatial_eval_row.
 * Phi_q counts as singular when its LU factorisation with partial pivoting
 * (gsl_linalg_LU_decomp) has a pivot |U_kk| <= 1e-12 max|Phi_q|:
 * MBD_ESINGULAR.
 * On success q holds the new configuration, qd and qdd (n each) the
 * velocities and accelerations, *iterations (iterations may be NULL) the
 * Newton steps taken. MBD_EINPUT when sm, q, qd or qdd is NULL, the model is
 * not finished, m != n, t is not finite, tol is not finite and > 0,
 * max_iter = 0, or an entry of q is not finite; GSL_EBADLEN when q, qd or
 * qdd does not have n entries; a model callback's status. */
int ex09_kinematics_step(const mbd_spatial_model *sm, double t, double tol, unsigned max_iter,
                         gsl_vector *q, gsl_vector *qd, gsl_vector *qdd, unsigned *iterations);

/* EXERCISE 09.4 -- inverse dynamics: the multipliers and the reactions
 * (document Sec. 6.5; the guide's Sec. 4.5).
 *
 * (a) For a fully driven model (m = n) at a consistent state (t, q, q',
 * q''), the multipliers of
 *     M(q) q'' + Phi_q^T lambda = F(t, q, q')
 * (the equations of motion of mbd/system.h): Phi_q^T lambda = F - M q'',
 * with M, F and Phi_q from the model's mbd_system (mass, force, jacobian).
 * lambda has m entries, one per row, the normalisation rows' last.
 * Phi_q^T counts as singular as in 09.3 (a pivot of its LU factorisation
 * |U_kk| <= 1e-12 max|Phi_q|): MBD_ESINGULAR. MBD_EINPUT when a pointer is
 * NULL, the model is not finished, m != n, or an entry of t, q, q' or q''
 * is not finite; GSL_EBADLEN when q, qd, qdd or lambda has the wrong
 * size; a model callback's status. */
int ex09_multipliers(const mbd_spatial_model *sm, double t, const gsl_vector *q,
                     const gsl_vector *qd, const gsl_vector *qdd, gsl_vector *lambda);

/* (b) What the rows first .. first + count - 1 do to body b (a moving body
 * or a ground; each row must have b as its body i or its body j):
 *     F     = -sum_k Phi_r^T lambda_k      (the force, global frame)
 *     tau   = -sum_k Phi_p^T lambda_k      (4 entries)
 *     n_bar = G(p_b) tau / 2               (the torque about the body's
 *                                           centre of mass, body frame)
 *     n     = A(p_b) n_bar                 (the same torque, global frame)
 * with Phi_r and Phi_p body b's blocks of row k (mbd_spatial_eval_row at
 * any t: the blocks do not depend on it; for a ground they are those at
 * the identity pose, and p_b = (1, 0, 0, 0)). It is the force and torque
 * the rows exert on the body: for a driver's row, the torque that drives
 * it. MBD_EINPUT when a pointer is NULL, the model is not finished, count =
 * 0, first + count > m, b is not a body of the model, or a row of the range
 * does not involve b; GSL_EBADLEN when q does not have n or lambda m
 * entries. */
typedef struct {
    double F[3];
    double n_bar[3];
    double n[3];
} ex09_reaction;

int ex09_reaction_on(const mbd_spatial_model *sm, size_t first, size_t count, int b,
                     const gsl_vector *q, const gsl_vector *lambda, ex09_reaction *out);

#endif
