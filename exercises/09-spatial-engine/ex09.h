/* ex09.h -- the functions of chapter 09's exercises (see README.md).
 *
 * The spatial engine in Euler parameters after document 003 (Vignos 2016,
 * "Development and Validation of MATLAB-Based 3D Multibody Kinematics and
 * Dynamics Simulation Engine", simEngine3D), Secs. 4.1 and 6.4-6.5, with the
 * equations its reading guide (seed-notes/003, "the guide") writes out in
 * its Sec. 2.2: the four basic constraints, a joint assembled from them, one
 * step of the kinematics analysis of a fully driven model, the inverse
 * dynamics that turns a driver's multiplier into the torque that drives,
 * and the BDF dynamics of Sec. 6.6: a step in acceleration form, its quasi
 * and full Newton matrices, and the drifts of a run.
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

/* EXERCISE 09.5 -- a step of BDF in acceleration form (document Sec. 6.6;
 * the guide's Sec. 4.6 and Sec. 8, item 4).
 *
 * (a) The coefficients. BDF of order k written for the accelerations: at
 * t_n = t_{n-1} + h_n every quantity x (a coordinate or its rate) obeys
 *     x_n = a_x + beta0 h_n x'_n,   a_x = alpha[0] x_{n-1} + alpha[1] x_{n-2},
 * so that  q'_n = a_v + beta0 h q''_n  and  q_n = a_q + beta0 h q'_n.
 *     order 1 (implicit Euler):  beta0 = 1, alpha = (1, 0)
 *     order 2 (variable step, w = h_n / h_{n-1}):
 *         beta0 = (1 + w) / (1 + 2w),
 *         alpha = ((1 + w)^2 / (1 + 2w), -w^2 / (1 + 2w))
 * (2/3 and (4/3, -1/3) at w = 1). They are the only numbers that make the
 * formula exact for x(t) = 1, t and t^2 (order 2; 1 and t for order 1).
 * w is read at order 2 only. MBD_EINPUT when c is NULL, the order is not 1
 * or 2, or (order 2) w is not finite and > 0. */
typedef struct {
    double beta0;
    double alpha[2];   /* of x_{n-1} and x_{n-2} */
} ex09_bdf_coef;

int ex09_bdf_coefficients(unsigned order, double w, ex09_bdf_coef *c);

/* (b) One step of the index-3 equations of motion of any mbd_system
 *     M(q) q'' + Phi_q(t, q)^T lambda = F(t, q, q'),   Phi(t, q) = 0
 * from t_{n-1} to t = t_n = t_{n-1} + h (mbd/system.h: mass, force,
 * constraint, jacobian; n coordinates, m rows, m may be 0). The unknowns
 * are z = (q''_n, lambda_n); q'_n and q_n follow from q''_n by the BDF map
 * of (a) with a_v, a_q from the past rates and positions. Newton's method
 * on the residual
 *     g(z) = [ M q'' + Phi_q^T lambda - F ;  Phi(t, q) / (beta0^2 h^2) ]
 * (the constraint rows divided by dq_n/dq''_n = beta0^2 h^2, so that their
 * derivative in q'' is Phi_q) with the quasi-Newton matrix of the document
 *     J = [ M(q)  Phi_q(t, q)^T ;  Phi_q(t, q)  0 ]
 * evaluated once, at the q that the guess gives, and factored once (LU
 * with partial pivoting; singular when a pivot |U_kk| <= 1e-12 max|J|:
 * MBD_ESINGULAR). Each iteration: q, q' from the current q'', g, solve
 * J dz = -g, z = z + dz; converged when the positions moved by at most tol,
 * beta0^2 h^2 max|dq''| <= tol, and then q, q' are those of the updated
 * q''. MBD_ENOCONV when max_iter iterations do not converge (a NaN
 * correction does not either).
 *
 * q1, qd1 are q, q' at t_{n-1}; q2, qd2 at t_{n-2} = t_{n-1} - h / w
 * (order 2 only; NULL allowed at order 1). qdd and lambda are in-out: the
 * guess on entry (the last step's values, say), the solution on return;
 * q and qd receive q_n and q'_n, *iterations (may be NULL) the number of
 * iterations (corrections) taken, at least 1.
 * MBD_EINPUT when s, set, q1, qd1, q, qd, qdd or lambda is NULL, q2 or qd2
 * is NULL at order 2, the settings are bad (order not 1 or 2, h not finite
 * and > 0, w (order 2) not finite and > 0, tol not finite and > 0,
 * max_iter = 0), t is not finite or an entry of the past values or of the
 * guess is not finite; GSL_EBADLEN when a vector has the wrong size (n;
 * lambda: m, which may be 0: pass any vector then, it is not read); a
 * model callback's status. */
typedef struct {
    unsigned order;      /* 1 or 2 */
    double h;            /* h_n = t_n - t_{n-1} */
    double w;            /* order 2: h_n / h_{n-1} */
    double tol;          /* on beta0^2 h^2 max|dq''| */
    unsigned max_iter;
} ex09_bdf_settings;

int ex09_bdf_step(const mbd_system *s, double t, const ex09_bdf_settings *set,
                  const gsl_vector *q1, const gsl_vector *qd1, const gsl_vector *q2,
                  const gsl_vector *qd2, gsl_vector *q, gsl_vector *qd, gsl_vector *qdd,
                  gsl_vector *lambda, unsigned *iterations);

/* EXERCISE 09.6 -- the Newton matrix of a BDF step, quasi and full
 * (document Sec. 6.6; the guide's Sec. 4.6).
 *
 * The residual g(z) of 09.5 at z = (q'', lambda), with q' = a_v + beta0 h
 * q'' and q = a_q + beta0 h q' (aq, av given), has the Jacobian
 *     dg/dz = [ M + beta0^2 h^2 ((M q'')_q + (Phi_q^T lambda)_q - F_q)
 *                 - beta0 h F_q'                               Phi_q^T ]
 *             [ Phi_q                                          0       ]
 * all at (t, q, q'): (M q'')_q is the derivative of M(q) q'' with q''
 * held, (Phi_q^T lambda)_q that of Phi_q(t, q)^T lambda with lambda held,
 * F_q and F_q' those of F(t, q, q'). Write into J ((n + m) x (n + m)):
 *     MBD_SPATIAL_NEWTON_QUASI   the document's quasi-Newton matrix
 *                                [M Phi_q^T; Phi_q 0] (the limit h -> 0);
 *     MBD_SPATIAL_NEWTON_FULL    dg/dz, the full Newton matrix.
 * The three derivative terms may be taken by central differences of the
 * model's callbacks (a step of about 1e-6 (1 + |x_k|) in each coordinate
 * x_k keeps them to about 1e-9 of their size) or analytically; J must
 * agree with the exact Jacobian to 1e-7 of its largest entry.
 * MBD_EINPUT when s, aq, av, qdd, lambda or J is NULL, the kind is not one
 * of the two, t is not finite, h or beta0 is not finite and > 0, or an
 * entry of aq, av, qdd, lambda is not finite; GSL_EBADLEN when aq, av, qdd
 * do not have n entries, lambda m (any vector when m = 0) or J is not
 * (n + m) x (n + m); a model callback's status. */
int ex09_newton_matrix(const mbd_system *s, mbd_spatial_newton kind, double t, double h,
                       double beta0, const gsl_vector *aq, const gsl_vector *av,
                       const gsl_vector *qdd, const gsl_vector *lambda, gsl_matrix *J);

/* EXERCISE 09.7 -- energy, Euler-norm and constraint drift of the BDF
 * dynamics, and their order (document Sec. 6.6 and Sec. 7; the guide's
 * Sec. 7.4, E4, and Sec. 7.5, S1-S3).
 *
 * (a) A fixed-step run of the library's dynamics (mbd_spatial_dynamics_alloc
 * with the options o, mbd_spatial_dynamics_run from t0 to t1 with outputs
 * at every step's end, dt_out = 0) from (q0, qd0), and the largest drifts
 * over every output, t0 included:
 *     energy     max |E(t_k) - E(t0)|,  E = (1/2) q'^T M(q) q' - sum_b m_b g^T r_b
 *                (the kinetic energy from the model's mass matrix, whose
 *                4 G^T J_bar G blocks carry the rotation; m_b read from it;
 *                g the gravity the model was built with: the model must
 *                have no other applied force)
 *     euler      max_b |p_b^T p_b - 1|  (every moving body)
 *     phi        max|Phi(t_k, q_k)|  (every row, the normalisation rows too)
 *     velocity   max|Phi_q q' - nu|  (nu = -Phi_t; index 3 does not enforce it)
 * with energy0 = E(t0), and the run's steps and Newton iterations
 * (mbd_spatial_dynamics_stats_get). Compute E yourself: do not use the
 * model's energy callback or the observer point's energy.
 * MBD_EINPUT when sm, g, o, q0, qd0 or out is NULL, the model is not
 * finished, o asks for an adaptive run, t0, t1 or an entry of g is not
 * finite, or t1 <= t0; GSL_EBADLEN when q0 or qd0 does not have n entries;
 * the status of the allocation (NULL: MBD_EINPUT) or of the run (a start
 * that is not consistent, MBD_ENOCONV, ...). Nothing is written then. */
typedef struct {
    double energy0;      /* E(t0) */
    double energy;       /* max_k |E(t_k) - E(t0)| */
    double euler;        /* max_k max_b |p_b^T p_b - 1| */
    double phi;          /* max_k max|Phi| */
    double velocity;     /* max_k max|Phi_q q' - nu| */
    size_t steps;
    size_t newton_iterations;
} ex09_drift;

int ex09_drift_run(mbd_spatial_model *sm, const double g[3],
                   const mbd_spatial_dynamics_options *o, double t0, double t1,
                   const gsl_vector *q0, const gsl_vector *qd0, ex09_drift *out);

/* (b) The observed orders of the energy drift and of the velocity drift:
 * two runs of (a), with o->h and with o->h / 2 (the other options as they
 * are), and order[0] = log2(energy(h) / energy(h/2)), order[1] =
 * log2(velocity(h) / velocity(h/2)). GSL_EDOM when a drift of either
 * run is zero (no order can be read); the statuses of (a);
 * MBD_EINPUT also when order is NULL or o->h is not > 0 (the default step
 * is not halved). Nothing is written on an error. */
int ex09_drift_order(mbd_spatial_model *sm, const double g[3],
                     const mbd_spatial_dynamics_options *o, double t0, double t1,
                     const gsl_vector *q0, const gsl_vector *qd0, double order[2]);

#endif
