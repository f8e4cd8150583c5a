/* mbd/spatial.h -- spatial rigid bodies with Euler parameters, the basic
 * constraints and the joints built from them, drivers, forces, and the
 * analyses of a 3D engine, assembled into an mbd_system.
 *
 * The model end of the pipeline for chapter 09
 *
 *     model (spatial -> mbd_system) -> formulation -> integrator -> output
 *
 * following document 003 (Vignos 2016, "Development and validation of a
 * MATLAB-based 3D multibody kinematics and dynamics simulation engine",
 * simEngine3D) and its reading guide (seed-notes/003, "the guide"). The
 * document gives no constraint equation; it sends the reader to Haug (1989,
 * chs. 9-11) and to Negrut's ME751 notes. The forms below are those of the
 * guide's Sec. 2.2 (Haug's), written out here and checked against finite
 * differences by tests/lib/test_spatial.c.
 *
 * Euler parameters (guide Sec. 2.1). A body's orientation is the unit
 * quaternion p = (e0, e) = (e0, e1, e2, e3), p^T p = 1, and
 *
 *     A(p) = (e0^2 - e^T e) I + 2 e e^T + 2 e0 e~       (rotation matrix)
 *     G(p) = [-e,  -e~ + e0 I]   (3 x 4)    omega_bar = 2 G(p) p'   (body frame)
 *     E(p) = [-e,   e~ + e0 I]   (3 x 4)    omega     = 2 E(p) p'   (global frame)
 *     B(p, a) = d(A(p) a)/dp = 2 [ (e0 I + e~) a,  e a^T - (e0 I + e~) a~ ]   (3 x 4)
 *
 * with a~ the skew matrix (a~ b = a x b). A = E G^T; G G^T = E E^T = |p|^2 I;
 * G p = E p = 0, so p' = G^T omega_bar / 2 and p' = E^T omega / 2 (with p^T
 * p' = 0) invert them. A(p) a is a homogeneous quadratic in p, so B(p, a) p =
 * 2 A(p) a and B(p', a) p' = d^2(A a)/dt^2 - B(p, a) p'' for ANY p: every
 * formula below is exact also off the unit sphere, which is what lets the
 * finite-difference checks move p freely. K(a, b) = d(B(p, a)^T b)/dp (4 x 4,
 * constant) is the one second derivative a full Newton needs.
 *
 * A rotation matrix back to p (document Sec. 6.1, A2p): the document's
 * e0 = sqrt((tr A + 1)/4) fails at e0 = 0 (half turns; guide Sec. 4.1,
 * Sec. 6.2 item 11). mbd_spatial_ep_from_A() uses Shepperd's method: of
 * 4 e0^2 = 1 + tr A and 4 e_k^2 = 1 + 2 A_kk - tr A it takes the largest,
 * its square root, and the other three from the off-diagonal sums and
 * differences divided by it, which never divide by less than 1/2.
 *
 * Bodies (document Sec. 3.2.2). A moving body has the seven coordinates
 * q_b = (r, p): r the global position of its centre of mass (the origin of
 * its body frame, as in the document), p its Euler parameters; q = [r_1;
 * p_1; r_2; p_2; ...] in the order the moving bodies were added (the
 * document's code puts all r before all p, guide Sec. 1.3; here each body's
 * 7 columns are together, so a constraint touches one contiguous block per
 * body). Points s_bar and vectors a_bar are given in the body frame. A
 * ground has no coordinates and the identity pose: its points and vectors
 * are global. There may be any number of grounds, also none (the document
 * requires body 1 to be the one ground, and its code fails without one,
 * guide Sec. 6.2 item 10).
 *
 * Mass matrix, the r-p form (Haug Sec. 11.1; document eq. 15):
 *
 *     M_b = blockdiag(m I_3,  4 G^T J_bar G)
 *
 * with J_bar the centroidal inertia in the body frame. The kinetic energy is
 * (1/2) m r'^T r' + (1/2) omega_bar^T J_bar omega_bar = (1/2) q'^T M q'.
 * 4 G^T J_bar G is SINGULAR: G p = 0, so p is in its null space (a change of
 * |p| is no motion). The normalisation rows (below) remove exactly that
 * direction: the augmented matrix [M C_q^T; C_q 0] with them is regular
 * (mbd_constraints_kkt_solve), M alone is not. Formulations that factor M
 * (projection: Cholesky) need M positive definite; mbd_spatial_set_mass_shift()
 * adds kappa p p^T to each p block and -kappa p (p'^T p') to the force,
 * which changes no solution: on the constraint manifold p^T p'' = -p'^T p',
 * so the two added terms cancel (the multipliers are unchanged too).
 *
 * Generalized forces (guide Sec. 3.4; document Sec. 5), per body:
 *
 *     F_r = m g + sum of the forces F on the body (global frame)
 *     F_p = tau_hat = sum_F B(p, s_bar)^T F + 2 G^T n_bar + 8 G(p')^T J_bar G(p') p
 *
 * a force F at the body point s_bar contributes B(p, s_bar)^T F to F_p (its
 * virtual work F . delta(A s_bar); on |p| = 1 this equals Haug's 2 G^T
 * (s_bar~ A^T F)), a torque n_bar (body frame) 2 G^T n_bar, and the last term
 * is the gyroscopic (quadratic velocity) term of the r-p form. simEngine3D
 * keeps only the moment of the LAST force of a body (guide Sec. 3.4 and
 * Sec. 6.2 item 6, computeTorqueHat); here every force counts.
 *
 * Forces: gravity (set_gravity), constant forces at body points (global
 * frame, fixed direction, as the document's Sec. 5.1; or body frame, turning
 * with the body), constant torques (body frame, as the document; or global),
 * variable torques by a callback (document Sec. 5.2, any state and time), and
 * translational spring-damper-actuators (TSDA, document Sec. 5.3, eqs. 1-6):
 *
 *     d = r_j + A_j s_bar_j^Q - r_i - A_i s_bar_i^P        (1)
 *     l = |d|,  l' = e^T d',  e = d / l                    (2, 3, 5)
 *     f = k (l - l0) + c l' + h(l, l', t)                  (4)
 *
 * with the force +f e on body i at P and -f e on body j at Q (6): a positive
 * f (tension) pulls the points together. The document's eq. 6 does not say
 * which body gets +F (guide Sec. 6.1 item 13); this is its code's choice
 * (guide Sec. 3.3). At l = 0 the direction e is undefined (the document's
 * spring-mass-damper passes through it): for l <= MBD_SPATIAL_TSDA_LMIN the
 * force is k d, the limit of the spring part for l0 = 0, and the damper and
 * actuator parts are dropped.
 *
 * Energy: the kinetic energy, the potential of gravity -sum m g . r (zero at
 * the global origin) and the springs' (1/2) k (l - l0)^2. The work of the
 * other forces (dampers, actuators, torques, constant forces) is not in it.
 *
 * ------------------------------------------------------------------------
 * Constraints. Every row of C is one scalar BASIC constraint (document Sec.
 * 4.1.1; guide Sec. 2.2) between body i and body j, with a prescribed
 * f(t) (zero for a plain joint; time-dependent makes it a driver, document
 * Sec. 4.2), in Haug's sign convention
 *
 *     Phi = g(q) - f(t),   Phi_q q' = nu = f'(t) (= -Phi_t),
 *     Phi_q q'' = gamma = -(Phi_q q')_q q' + f''(t).
 *
 * With d = r_j + A_j s_j - r_i - A_i s_i (points P on i, Q on j), a_i = A_i
 * a_bar_i, a_j = A_j a_bar_j, and dots for time derivatives:
 *
 *   CD   c^T d = f           (coordinate difference; c selects x, y or z)
 *        Phi_ri = -c^T, Phi_rj = c^T, Phi_pi = -c^T B(p_i, s_i), Phi_pj = c^T B(p_j, s_j)
 *        gamma = c^T B(p_i', s_i) p_i' - c^T B(p_j', s_j) p_j' + f''
 *   D    d^T d = f           (distance; f is the SQUARED distance, as in the
 *                             document, Sec. 4.1.1; its f' and f'' are those
 *                             of the squared function, which the document
 *                             does not say, guide Sec. 6.1 item 8)
 *        Phi_ri = -2 d^T, Phi_rj = 2 d^T, Phi_pi = -2 d^T B(p_i, s_i), Phi_pj = 2 d^T B(p_j, s_j)
 *        gamma = -2 d^T (B(p_j', s_j) p_j' - B(p_i', s_i) p_i') - 2 d'^T d' + f''
 *   DP1  a_i^T a_j = f       (dot product of two body vectors)
 *        Phi_pi = a_j^T B(p_i, a_bar_i), Phi_pj = a_i^T B(p_j, a_bar_j)
 *        gamma = -a_i^T B(p_j', a_bar_j) p_j' - a_j^T B(p_i', a_bar_i) p_i' - 2 a_i'^T a_j' + f''
 *   DP2  a_i^T d = f         (a vector of i dotted with the vector P -> Q)
 *        Phi_ri = -a_i^T, Phi_rj = a_i^T, Phi_pi = d^T B(p_i, a_bar_i) - a_i^T B(p_i, s_i),
 *        Phi_pj = a_i^T B(p_j, s_j)
 *        gamma = -a_i^T (B(p_j', s_j) p_j' - B(p_i', s_i) p_i') - d^T B(p_i', a_bar_i) p_i'
 *                - 2 a_i'^T d' + f''
 *
 * A ground side contributes no columns. Two rows that are not in the
 * document's list complete the set:
 *
 *   normalisation   (1/2)(p^T p - 1) = 0, one per moving body (document Sec.
 *                   6.4, eq. 12's Phi^P; guide Sec. 2.6): Phi_p = p^T, gamma =
 *                   -p'^T p'. simEngine3D pairs the value (1/2)(p^T p - 1)
 *                   with the Jacobian row 2 p^T in its kinematic Newton and
 *                   p^T with gamma = -2 p'^T p' in its first dynamics step
 *                   (guide Sec. 6.2 items 1 and 2); here value, row and
 *                   gamma agree everywhere.
 *   orientation     (G(p0) p)_k = 0, k = 1..3: the vector part of the
 *                   relative rotation p0^* p, zero exactly when p = +-p0;
 *                   linear in p (Phi_p = the row k of G(p0), gamma = 0).
 *                   The ground joint's rotational rows.
 *
 * Joints (document Sec. 4.1.2-4.1.3, guide Secs. 2.3-2.4) are tables of
 * basic rows, all with f = 0, in this order:
 *
 *   perpendicular-1   2  DP1(a_i, c_j), DP1(b_i, c_j): c_j normal to the plane (a_i, b_i)
 *   perpendicular-2   2  DP2(a_i, P, Q), DP2(b_i, P, Q): P -> Q normal to that plane
 *   spherical         3  CD x, CD y, CD z of (P, Q): the points coincide
 *   revolute          5  spherical + perpendicular-1: rotation about c_j
 *   cylindrical       4  perpendicular-1 + perpendicular-2: rotation about and
 *                        translation along c_j through P
 *   translational     5  cylindrical + DP1(a_i, a_j): no rotation about the axis
 *   universal         4  spherical + DP1(a_i, a_j): the two cross axes stay normal
 *   revolute-         3  DP1(h_i, h_j), DP2(a_j, Q, P), DP2(b_j, Q, P) (the DP2
 *     cylindrical        rows with body j in DP2's "i" place): P stays on the line
 *                        of j through Q along h_j, i turns about h_i
 *   ground joint      6  CD x, y, z of the body's centre to r0, and the three
 *                        orientation rows for p0: the body held at (r0, p0)
 *
 * The perpendicular constraints are usable on their own (the document's
 * intermediate constraints store f = 0 as a number and fail when used,
 * guide Sec. 2.3 and Sec. 6.2 item 7). The basic constraints are added one
 * by one (1 row each). The rows of C are
 * in the order the joints and basic constraints were added, then one
 * normalisation row per moving body in body order. One list serves C, C_q,
 * C_t and gamma, so they cannot be stacked in different orders (the
 * document's code stacks C as [kinematic; driving; normalisation] but its
 * Jacobian in insertion order, guide Sec. 1.3 and Sec. 6.2 item 9). A
 * joint's rows are the contiguous range [first, first + count) (the
 * row-range table, mbd_spatial_joint_info); each row has a name
 * "<joint>/<label>" (mbd_spatial_row_info), so an analysis can say which
 * rows are redundant or violated.
 *
 * Time functions (document Sec. 4.2; guide Secs. 2.5 and 7.3): f(t) with its
 * f'(t) and f''(t) computed by the library, so they are always consistent
 * (the document's slider-crank driver's f' and f'' differ from the
 * derivatives of its f by O(1e-4), guide Sec. 2.5 and Sec. 6.2 item 13).
 * A plain function is a polynomial (degree <= MBD_SPATIAL_FN_DEGREE) plus
 * up to MBD_SPATIAL_FN_SINES sine terms A sin(w t + phi); sums of plain
 * functions are plain; amp cos(g(t)) and amp sin(g(t)) of a plain g give
 * the DP1 angle drivers (f = cos theta(t)); or the caller's f, f', f''.
 * Such a driver's row is sin(theta) times a unit row: it loses rank where
 * sin theta = 0, which the document does not warn of (guide Sec. 2.5 and
 * Sec. 6.1 item 15); the document's slider-crank offsets theta by 1e-4 so
 * that no step lands there, and near it (|sin theta| ~ 1e-4) cos theta
 * fixes theta only to 1e-16 / sin theta, so velocities and accelerations
 * lose about 8 and 4 digits there (tests/lib/test_spatial.c measures it).
 *
 * ------------------------------------------------------------------------
 * Analyses (document Sec. 6; guide Sec. 4). Each factors the constraint
 * Jacobian by QR with column pivoting of its transpose,
 *
 *     Phi_q^T P = Q R,    R = [R11 R12; 0 0],  rank r = #{|R_ii| > rank_tol |R_11|},
 *
 * which orders the rows of Phi_q: the first r (P's first r columns) are
 * independent, the other m - r depend on them. Such rows are REDUNDANT (at
 * a singular configuration they are the ones that lost rank): the solves
 * drop them and check that they still hold, and the report names them,
 * instead of failing in a singular solve. Which of a set of mutually
 * dependent rows is named is the factorisation's choice. (The document's
 * code removes rows found by LU with complete pivoting and miscounts them,
 * guide Sec. 2.7 and Sec. 6.2 item 12; here no row is removed.) The solution of Phi_q x = b is
 * the minimum-norm one, x = Q [R11^-T (P^T b)_{1..r}; 0].
 *
 *   assembly     (document Sec. 6.2; guide Sec. 4.2) the document minimises
 *                |q - q0|^2 + r |Phi|^2 with fminunc; here Newton's method
 *                with minimum-norm steps (Gauss-Newton), which from a guess
 *                q0 moves to a nearby consistent q with small corrections,
 *                halving a step that does not decrease |Phi| (at most 30
 *                times). Each body's p is first scaled to unit length. It
 *                fails (MBD_ENOCONV) when |Phi|_inf > tol after max_iter
 *                iterations, naming the rows with the largest residuals
 *                (inconsistent redundant rows, an impossible geometry).
 *   position     the same Newton without the scaling (kinematics' position
 *                step, document eq. 12)
 *   velocities   (document Sec. 6.3, eqs. 10-11) Phi_q q' = nu: all known
 *                (case 1: nothing solved, the residual reported), none known
 *                (case 2) or some bodies known (case 3: their columns move to
 *                the right-hand side, any number of them; the document's code
 *                handles one, guide Sec. 4.3), minimum-norm in the unknown
 *                velocities, with the rank and the degrees of freedom left
 *                reported. MBD_EINPUT when the known ones violate a row.
 *                A large one (unknowns x rows of 40000 or more: the N
 *                four-bar from N = 15 or so) is factored by SuiteSparseQR's sparse
 *                QR instead of the dense QRPT: the same rank and minimum-
 *                norm solution; its independent rows are those of a fill-
 *                reducing order with the rows whose remaining norm is at
 *                most rank_tol times the largest row norm set aside, a set
 *                as valid as the dense one's, not always the same rows.
 *   acceleration Phi_q q'' = gamma (document eq. 14), minimum-norm.
 *   kinematics   (document Sec. 6.4) for a fully driven model (rank n, zero
 *                degrees of freedom; redundant rows allowed): at each time,
 *                position by Newton from the Taylor prediction q + h q' +
 *                h^2 q'' / 2, then velocity and acceleration. Newton that does
 *                not converge is a failure (the document's code stops after
 *                49 iterations silently, guide Sec. 6.2 item 5).
 *   inverse      (document Sec. 6.5) after the kinematics, the multipliers
 *     dynamics   of M q'' + Phi_q^T lambda = F (including the normalisation
 *                rows' lambda^P), and each joint's reaction on its bodies
 *                (mbd_spatial_reactions): on body b, from the joint's rows k,
 *                    F = -sum_k Phi_rb,k^T lambda_k           (global frame)
 *                    tau = -sum_k Phi_pb,k^T lambda_k,  n_bar = G(p_b) tau / 2,
 *                the torque n = A_b n_bar about the centre of mass, and about
 *                the joint's point on the body n_P = n - (r_P - r_b) x F
 *                (global frame). The sign is that of the force the joint
 *                exerts on the body (the document gives none, guide Sec. 6.1
 *                item 14).
 *
 * Workspaces: everything the analyses use is allocated by mbd_spatial_finish();
 * no analysis and no system callback allocates. The analyses write into the
 * model's workspace, so one model serves one analysis at a time.
 *
 * Building and errors follow planar.h: each mbd_spatial_add_* returns the
 * index of what it added (bodies, joints and forces numbered separately from
 * 0), or -1 on bad input (MBD_EINPUT: an unknown body, a joint of a body with
 * itself or of two grounds, a zero or parallel direction, a bad time
 * function, a repeated or bad name, a finished model) or when memory ran out
 * (GSL_ENOMEM). The first error is kept (mbd_spatial_failure()); every later
 * addition returns -1 and mbd_spatial_finish() returns its status. The
 * analyses return a status and record the cause in
 * mbd_spatial_last_failure(). Nothing aborts or prints.
 *
 * Names: bodies and joints have names (1-31 characters of letters, digits,
 * '_', '-', '.'), unique among bodies and among joints; coordinates are
 * named x_<body>, y_, z_, e0_, e1_, e2_, e3_<body>; rows "<joint>/<label>"
 * (e.g. "crank_pin/CD x", "rev/DP1 b_i.c_j", "normalisation/crank").
 */
#ifndef MBD_SPATIAL_H
#define MBD_SPATIAL_H

#include <stddef.h>

#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

#include "mbd/error.h"
#include "mbd/linsolve.h"
#include "mbd/ode.h"
#include "mbd/system.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Euler parameters (guide Sec. 2.1; the functions allocate nothing)          */

/* (The 3 x 3 and 3 x 4 array parameters that are only read have no const:
 * C11 cannot pass a double[3][3] to a const double[3][3] parameter without
 * a cast. None of these functions writes to an input.) */

/* a~: the skew matrix of a (a~ b = a x b) */
void mbd_spatial_skew(const double a[3], double S[3][3]);
/* A(p), the rotation matrix (exact formula, also for |p| != 1) */
void mbd_spatial_ep_A(const double p[4], double A[3][3]);
/* G(p) = [-e, -e~ + e0 I] and E(p) = [-e, e~ + e0 I] (3 x 4) */
void mbd_spatial_ep_G(const double p[4], double G[3][4]);
void mbd_spatial_ep_E(const double p[4], double E[3][4]);
/* B(p, a) = d(A(p) a)/dp (3 x 4) */
void mbd_spatial_ep_B(const double p[4], const double a[3], double B[3][4]);
/* K(a, b) = d(B(p, a)^T b)/dp (4 x 4, independent of p) */
void mbd_spatial_ep_K(const double a[3], const double b[3], double K[4][4]);
/* omega_bar = 2 G(p) p' (body frame) and omega = 2 E(p) p' (global frame) */
void mbd_spatial_ep_omega_bar(const double p[4], const double pd[4], double wbar[3]);
void mbd_spatial_ep_omega(const double p[4], const double pd[4], double w[3]);
/* p' = G(p)^T omega_bar / 2 and p' = E(p)^T omega / 2 (for |p| = 1; then p^T p' = 0) */
void mbd_spatial_ep_pdot_body(const double p[4], const double wbar[3], double pd[4]);
void mbd_spatial_ep_pdot_global(const double p[4], const double w[3], double pd[4]);
/* p of a rotation matrix by Shepperd's method (any rotation, e0 = 0
 * included), with e0 >= 0 and |p| = 1. MBD_EINPUT (p still written, from the
 * matrix as given) when A is not finite or not a rotation to 1e-6
 * (|A^T A - I|_max or |det A - 1|). */
int mbd_spatial_ep_from_A(double A[3][3], double p[4]);

/* ------------------------------------------------------------------------ */
/* Time functions (document Sec. 4.2)                                        */

#define MBD_SPATIAL_FN_DEGREE 5
#define MBD_SPATIAL_FN_SINES 4

typedef enum {
    MBD_SPATIAL_FN_PLAIN = 0,   /* f = g(t) */
    MBD_SPATIAL_FN_SIN,         /* f = amp sin(g(t)) */
    MBD_SPATIAL_FN_COS,         /* f = amp cos(g(t)) */
    MBD_SPATIAL_FN_USER,        /* the caller's eval */
    MBD_SPATIAL_FN_INVALID      /* a constructor was misused (an error when used) */
} mbd_spatial_fn_kind;

/* f(t), f'(t), f''(t) into f[0..2]; a status */
typedef int (*mbd_spatial_fn_eval_fn)(double t, double f[3], void *user);

/* g(t) = sum_k poly[k] t^k + sum_s sine[s][0] sin(sine[s][1] t + sine[s][2]) */
typedef struct {
    mbd_spatial_fn_kind kind;
    double poly[MBD_SPATIAL_FN_DEGREE + 1];
    size_t nsine;
    double sine[MBD_SPATIAL_FN_SINES][3];   /* amplitude, angular frequency, phase */
    double amp;                             /* SIN, COS */
    mbd_spatial_fn_eval_fn eval;            /* USER */
    void *user;
} mbd_spatial_fn;

mbd_spatial_fn mbd_spatial_fn_constant(double c);
/* a[0] + a[1] t + ... + a[degree] t^degree (degree <= MBD_SPATIAL_FN_DEGREE) */
mbd_spatial_fn mbd_spatial_fn_poly(size_t degree, const double a[]);
/* amp sin(omega t + phase) */
mbd_spatial_fn mbd_spatial_fn_sine(double amp, double omega, double phase);
/* a + b (both plain; at most MBD_SPATIAL_FN_SINES sines together) */
mbd_spatial_fn mbd_spatial_fn_sum(mbd_spatial_fn a, mbd_spatial_fn b);
/* c a (a plain, sin or cos) */
mbd_spatial_fn mbd_spatial_fn_scale(double c, mbd_spatial_fn a);
/* amp cos(g(t)) and amp sin(g(t)) of a plain g (the DP1 angle drivers) */
mbd_spatial_fn mbd_spatial_fn_cos(double amp, mbd_spatial_fn g);
mbd_spatial_fn mbd_spatial_fn_sin(double amp, mbd_spatial_fn g);
/* the caller's f, f', f'' (user must outlive the model) */
mbd_spatial_fn mbd_spatial_fn_user(mbd_spatial_fn_eval_fn eval, void *user);

/* f, f', f'' at t into v[0..2]. MBD_EINPUT for an invalid function; a user
 * function's own status; MBD_ENONFINITE when a value is not finite. */
int mbd_spatial_fn_eval(const mbd_spatial_fn *f, double t, double v[3]);
/* 1 when f does not depend on t (a plain constant, sin/cos of one), else 0 */
int mbd_spatial_fn_is_constant(const mbd_spatial_fn *f);

/* ------------------------------------------------------------------------ */
/* Model                                                                     */

typedef struct mbd_spatial_model mbd_spatial_model;

#define MBD_SPATIAL_NAME_MAX 63          /* a body's or joint's name (as a model file's) */
#define MBD_SPATIAL_ROW_NAME_MAX 127     /* a row's name "<joint>/<label>" */
#define MBD_SPATIAL_TSDA_LMIN 1e-12      /* TSDA points closer than this coincide */

typedef enum {
    MBD_SPATIAL_GLOBAL,   /* a fixed direction in the global frame */
    MBD_SPATIAL_BODY      /* the body's frame: turns with the body */
} mbd_spatial_frame;

typedef enum {
    MBD_SPATIAL_JOINT_CD,
    MBD_SPATIAL_JOINT_D,
    MBD_SPATIAL_JOINT_DP1,
    MBD_SPATIAL_JOINT_DP2,
    MBD_SPATIAL_JOINT_PERP1,
    MBD_SPATIAL_JOINT_PERP2,
    MBD_SPATIAL_JOINT_SPHERICAL,
    MBD_SPATIAL_JOINT_REVOLUTE,
    MBD_SPATIAL_JOINT_CYLINDRICAL,
    MBD_SPATIAL_JOINT_TRANSLATIONAL,
    MBD_SPATIAL_JOINT_UNIVERSAL,
    MBD_SPATIAL_JOINT_REVCYL,
    MBD_SPATIAL_JOINT_GROUND
} mbd_spatial_joint_kind;

typedef enum {
    MBD_SPATIAL_ROW_CD,
    MBD_SPATIAL_ROW_D,
    MBD_SPATIAL_ROW_DP1,
    MBD_SPATIAL_ROW_DP2,
    MBD_SPATIAL_ROW_ORIENTATION,    /* (G(p0) p)_k */
    MBD_SPATIAL_ROW_NORMALISATION   /* (p^T p - 1) / 2 */
} mbd_spatial_row_kind;

/* The rows each joint kind adds (3 for spherical, 5 for revolute, ...; 1 for
 * the basic constraints) */
size_t mbd_spatial_joint_rows(mbd_spatial_joint_kind kind);
/* "revolute", "DP1", ... */
const char *mbd_spatial_joint_kind_name(mbd_spatial_joint_kind kind);

/* An empty model (no gravity); NULL when memory runs out. */
mbd_spatial_model *mbd_spatial_alloc(void);
void mbd_spatial_free(mbd_spatial_model *sm);

/* A moving body: mass m > 0, J the centroidal inertia tensor in the body
 * frame (symmetric, positive semidefinite; NULL: zero, a point mass). */
int mbd_spatial_add_body(mbd_spatial_model *sm, const char *name, double m, double J[3][3]);
/* A ground (no coordinates, the global frame). */
int mbd_spatial_add_ground(mbd_spatial_model *sm, const char *name);

/* Basic constraints (1 row each). Points sp (on i), sq (on j) and vectors in
 * the bodies' frames (NULL points: the origin); f the prescribed value. */
int mbd_spatial_add_cd(mbd_spatial_model *sm, const char *name, int i, const double sp[3], int j,
                       const double sq[3], const double c[3], mbd_spatial_fn f);
/* f: the SQUARED distance */
int mbd_spatial_add_d(mbd_spatial_model *sm, const char *name, int i, const double sp[3], int j,
                      const double sq[3], mbd_spatial_fn f);
int mbd_spatial_add_dp1(mbd_spatial_model *sm, const char *name, int i, const double ai[3], int j,
                        const double aj[3], mbd_spatial_fn f);
int mbd_spatial_add_dp2(mbd_spatial_model *sm, const char *name, int i, const double ai[3],
                        const double sp[3], int j, const double sq[3], mbd_spatial_fn f);

/* Derived constraints and joints (the table above; names as in guide Sec. 2.4).
 * Direction vectors must be nonzero; the two that span a plane must not be
 * parallel. */
int mbd_spatial_add_perp1(mbd_spatial_model *sm, const char *name, int i, const double ai[3],
                          const double bi[3], int j, const double cj[3]);
int mbd_spatial_add_perp2(mbd_spatial_model *sm, const char *name, int i, const double ai[3],
                          const double bi[3], const double sp[3], int j, const double sq[3]);
int mbd_spatial_add_spherical(mbd_spatial_model *sm, const char *name, int i, const double sp[3],
                              int j, const double sq[3]);
/* rotation about c_j (normal to the plane (a_i, b_i)) through P = Q */
int mbd_spatial_add_revolute(mbd_spatial_model *sm, const char *name, int i, const double sp[3],
                             const double ai[3], const double bi[3], int j, const double sq[3],
                             const double cj[3]);
int mbd_spatial_add_cylindrical(mbd_spatial_model *sm, const char *name, int i,
                                const double sp[3], const double ai[3], const double bi[3], int j,
                                const double sq[3], const double cj[3]);
/* aj: on j, normal to a_i at assembly (fixes the rotation about the axis) */
int mbd_spatial_add_translational(mbd_spatial_model *sm, const char *name, int i,
                                  const double sp[3], const double ai[3], const double bi[3],
                                  int j, const double sq[3], const double cj[3],
                                  const double aj[3]);
/* the cross axes a_i (on i) and a_j (on j) through P = Q */
int mbd_spatial_add_universal(mbd_spatial_model *sm, const char *name, int i, const double sp[3],
                              const double ai[3], int j, const double sq[3], const double aj[3]);
/* h_i the revolute axis on i; h_j the translation axis on j; a_j, b_j on j
 * span the plane normal to h_j (guide Sec. 2.4; the document's advice to add
 * a D row between P and Q is the caller's) */
int mbd_spatial_add_revcyl(mbd_spatial_model *sm, const char *name, int i, const double sp[3],
                           const double hi[3], int j, const double sq[3], const double hj[3],
                           const double aj[3], const double bj[3]);
/* body b held at r0 (NULL: origin) and p0 (NULL: identity; scaled to unit) */
int mbd_spatial_add_ground_joint(mbd_spatial_model *sm, const char *name, int b,
                                 const double r0[3], const double p0[4]);

/* Gravity (e.g. (0, -9.81, 0)); replaces any earlier. A status. */
int mbd_spatial_set_gravity(mbd_spatial_model *sm, const double g[3]);
/* A constant force F at the point s (body frame) of body b, F in `frame`. */
int mbd_spatial_add_force(mbd_spatial_model *sm, const char *name, int b, const double s[3],
                          const double F[3], mbd_spatial_frame frame);
/* A constant torque n on body b, n in `frame`. */
int mbd_spatial_add_torque(mbd_spatial_model *sm, const char *name, int b, const double n[3],
                           mbd_spatial_frame frame);

/* A variable torque: n[3] (in the frame it was added with) at (t, q, q'); a
 * status. The model is passed for its look-ups (mbd_spatial_pose, ...). */
typedef int (*mbd_spatial_torque_fn)(const mbd_spatial_model *sm, double t, const gsl_vector *q,
                                     const gsl_vector *qd, double n[3], void *user);
int mbd_spatial_add_variable_torque(mbd_spatial_model *sm, const char *name, int b,
                                    mbd_spatial_torque_fn fn, mbd_spatial_frame frame,
                                    void *user);

/* The actuator h(l, l', t) of a TSDA into *h; a status. */
typedef int (*mbd_spatial_actuator_fn)(double l, double ldot, double t, double *h, void *user);
/* A TSDA between P (sp on i) and Q (sq on j); k, c >= 0, l0 >= 0, h may be
 * NULL (no actuator). */
int mbd_spatial_add_tsda(mbd_spatial_model *sm, const char *name, int i, const double sp[3],
                         int j, const double sq[3], double k, double l0, double c,
                         mbd_spatial_actuator_fn h, void *user);

/* kappa_b = s * 4 tr(J_b) / 3 added as kappa_b p p^T to each p block of M
 * (and -kappa_b p (p'^T p') to F): s = 0 (the default) is the plain r-p form;
 * s = 1 makes the p direction as stiff as the mean of the others, and M
 * positive definite for bodies with J positive definite. s >= 0; a status. */
int mbd_spatial_set_mass_shift(mbd_spatial_model *sm, double s);

/* Fixes n = 7 (moving bodies) and m (the rows), names everything, allocates
 * the workspaces. MBD_EINPUT when there is no moving body or it was finished
 * already; the status of the first building error. */
int mbd_spatial_finish(mbd_spatial_model *sm);

/* The assembled system (s->model is sm); NULL before a successful finish. */
const mbd_system *mbd_spatial_system(const mbd_spatial_model *sm);

/* The first building error (status GSL_SUCCESS when there was none). */
const mbd_failure *mbd_spatial_failure(const mbd_spatial_model *sm);
/* The last analysis failure (status GSL_SUCCESS after a successful one). */
const mbd_failure *mbd_spatial_last_failure(const mbd_spatial_model *sm);

/* ------------------------------------------------------------------------ */
/* Looking things up                                                         */

size_t mbd_spatial_n_bodies(const mbd_spatial_model *sm);   /* grounds included */
size_t mbd_spatial_n_joints(const mbd_spatial_model *sm);   /* basic constraints included */
size_t mbd_spatial_n_rows(const mbd_spatial_model *sm);     /* m, after finish */
/* by name; -1 when there is none */
int mbd_spatial_body_index(const mbd_spatial_model *sm, const char *name);
int mbd_spatial_joint_index(const mbd_spatial_model *sm, const char *name);
const char *mbd_spatial_body_name(const mbd_spatial_model *sm, int b);   /* NULL: bad index */
/* The index in q of body b's r (its p follows at +3). MBD_EINPUT for a bad
 * index or a ground. */
int mbd_spatial_body_coordinates(const mbd_spatial_model *sm, int b, size_t *first);

typedef struct {
    const char *name;
    mbd_spatial_joint_kind kind;
    int body[2];              /* i and j */
    size_t first, count;      /* its rows: [first, first + count) (after finish) */
} mbd_spatial_joint_info;
int mbd_spatial_joint_info_get(const mbd_spatial_model *sm, int k, mbd_spatial_joint_info *info);

typedef struct {
    const char *name;         /* "<joint>/<label>" */
    mbd_spatial_row_kind kind;
    int joint;                /* its joint, -1 for a normalisation row */
    int body[2];              /* body i, body j (-1: the global frame) */
    size_t col[2];            /* first column (r; p at +3) of each, SIZE_MAX when it has none */
    int rheonomic;            /* f depends on t */
} mbd_spatial_row_info;
/* Row k (0 <= k < m) of a finished model. */
int mbd_spatial_row_info_get(const mbd_spatial_model *sm, size_t k, mbd_spatial_row_info *info);

/* One row's value and derivatives at (t, q, q'), body blocks as the
 * overview: Phi_r[s] and Phi_p[s] for side s = 0 (body i), 1 (body j),
 * filled also for a ground side (as if it had coordinates at the identity
 * pose; the reactions use them). qd may be NULL (gamma is then 0). */
typedef struct {
    double phi;               /* Phi = g(q) - f(t) */
    double nu;                /* f'(t) = -Phi_t */
    double gamma;             /* -(Phi_q q')_q q' + f''(t) */
    double phi_r[2][3];
    double phi_p[2][4];
} mbd_spatial_row_eval;
int mbd_spatial_eval_row(const mbd_spatial_model *sm, size_t k, double t, const gsl_vector *q,
                         const gsl_vector *qd, mbd_spatial_row_eval *out);

/* ------------------------------------------------------------------------ */
/* States (after finish; q, qd of size n)                                    */

/* Body b's pose into q, from p (scaled to unit) or from a rotation matrix */
int mbd_spatial_set_pose(const mbd_spatial_model *sm, int b, const double r[3],
                         const double p[4], gsl_vector *q);
int mbd_spatial_set_pose_A(const mbd_spatial_model *sm, int b, const double r[3],
                           double A[3][3], gsl_vector *q);
/* Body b's velocity into qd: r' and the angular velocity w in `frame`
 * (p' = G^T w / 2 or E^T w / 2 at the p in q) */
int mbd_spatial_set_velocity(const mbd_spatial_model *sm, int b, const gsl_vector *q,
                             const double rd[3], const double w[3], mbd_spatial_frame frame,
                             gsl_vector *qd);
/* Body b's r and p (a ground: 0 and the identity) */
int mbd_spatial_pose(const mbd_spatial_model *sm, int b, const gsl_vector *q, double r[3],
                     double p[4]);
/* Body b's angular velocity in `frame` */
int mbd_spatial_angular_velocity(const mbd_spatial_model *sm, int b, const gsl_vector *q,
                                 const gsl_vector *qd, mbd_spatial_frame frame, double w[3]);
/* The global position and velocity of the point s (body b's frame) */
int mbd_spatial_point_position(const mbd_spatial_model *sm, int b, const double s[3],
                               const gsl_vector *q, double x[3]);
int mbd_spatial_point_velocity(const mbd_spatial_model *sm, int b, const double s[3],
                               const gsl_vector *q, const gsl_vector *qd, double v[3]);

/* ------------------------------------------------------------------------ */
/* Analyses (document Sec. 6)                                                */

typedef struct {
    double tol;           /* Newton: |Phi|_inf <= tol; 0: 1e-12 */
    unsigned max_iter;    /* Newton's iteration limit; 0: 50 */
    double rank_tol;      /* rank: |R_ii| > rank_tol |R_11|; 0: 1e-9 */
    double consistency;   /* a dropped row holds when |residual| <= consistency
                             max(1, |right-hand side|_inf); 0: 1e-8 */
} mbd_spatial_options;

#define MBD_SPATIAL_REPORT_ROWS 8

/* What an analysis found. For the multipliers (the transposed system
 * Phi_q^T lambda = c) rows and unknowns are both m, dof is n - rank (zero
 * for a fully driven model), the dropped rows are those whose multipliers
 * were set to zero, and worst is a coordinate. */
typedef struct {
    unsigned iterations;  /* Newton iterations (0 for the linear solves) */
    double residual;      /* at the end: |Phi|_inf, or |A x - b|_inf of the linear solve */
    size_t rows;          /* rows of the system solved */
    size_t unknowns;      /* its unknowns */
    size_t rank;          /* of its matrix */
    size_t dof;           /* unknowns - rank */
    size_t n_dropped;     /* rows - rank: rows outside the independent set */
    size_t dropped[MBD_SPATIAL_REPORT_ROWS];   /* the first of them (row indices) */
    size_t worst;         /* the row with the largest residual */
} mbd_spatial_report;

/* Any of o and rep may be NULL (defaults; no report). */

/* Newton on Phi(t, q) = 0 from q (the kinematics' position step). */
int mbd_spatial_position(mbd_spatial_model *sm, double t, gsl_vector *q,
                         const mbd_spatial_options *o, mbd_spatial_report *rep);
/* Assembly: each p scaled to unit, then Newton with step halving. */
int mbd_spatial_assemble(mbd_spatial_model *sm, double t, gsl_vector *q,
                         const mbd_spatial_options *o, mbd_spatial_report *rep);
/* Initial velocities: known[b] != 0 marks body b's velocity in qd as known
 * (known has one entry per body, grounds included; NULL: none known). The
 * others are solved (minimum norm) and written into qd. */
int mbd_spatial_velocity(mbd_spatial_model *sm, double t, const gsl_vector *q, gsl_vector *qd,
                         const int *known, const mbd_spatial_options *o,
                         mbd_spatial_report *rep);
/* Phi_q q'' = gamma, minimum norm */
int mbd_spatial_acceleration(mbd_spatial_model *sm, double t, const gsl_vector *q,
                             const gsl_vector *qd, gsl_vector *qdd, const mbd_spatial_options *o,
                             mbd_spatial_report *rep);
/* Phi_q^T lambda = F(t, q, q') - M(q) q'' (lambda: m, the normalisation
 * rows' last); the basic solution (dropped rows 0) when rows are redundant.
 * MBD_EINPUT when it has no solution (the motion is not one the constraints
 * and forces can produce: a model with free degrees of freedom). */
int mbd_spatial_multipliers(mbd_spatial_model *sm, double t, const gsl_vector *q,
                            const gsl_vector *qd, const gsl_vector *qdd, gsl_vector *lambda,
                            const mbd_spatial_options *o, mbd_spatial_report *rep);

/* What a joint does to one of its bodies (global frame) */
typedef struct {
    double F[3];          /* force */
    double n[3];          /* torque about the body's centre of mass */
    double point[3];      /* the joint's point on the body (its centre of mass when it has none) */
    double n_point[3];    /* torque about `point` */
} mbd_spatial_reaction;

/* Joint k's reactions on its body i and body j (either may be NULL) at q
 * from the multipliers lambda (all m). */
int mbd_spatial_reactions(const mbd_spatial_model *sm, int k, const gsl_vector *q,
                          const gsl_vector *lambda, mbd_spatial_reaction *on_i,
                          mbd_spatial_reaction *on_j);

/* Called at every time of a kinematics or inverse dynamics run; lambda is
 * NULL in kinematics. A status other than GSL_SUCCESS stops the run and is
 * returned. */
typedef int (*mbd_spatial_observer)(const mbd_spatial_model *sm, double t, const gsl_vector *q,
                                    const gsl_vector *qd, const gsl_vector *qdd,
                                    const gsl_vector *lambda, void *user);

/* Kinematics at the times t_k = t0 + k (t1 - t0) / N, N = ceil((t1 - t0) / h)
 * (to within 1e-9 of a step): q holds a consistent (or nearly consistent)
 * configuration at t0 on entry, the last one on return. MBD_EINPUT when the
 * model is not fully driven (rank < n at t0), the failures of the solves
 * otherwise (time and rows in mbd_spatial_last_failure). */
int mbd_spatial_kinematics(mbd_spatial_model *sm, double t0, double t1, double h, gsl_vector *q,
                           const mbd_spatial_options *o, mbd_spatial_observer obs, void *user);
/* The same with the multipliers at every time. */
int mbd_spatial_inverse_dynamics(mbd_spatial_model *sm, double t0, double t1, double h,
                                 gsl_vector *q, const mbd_spatial_options *o,
                                 mbd_spatial_observer obs, void *user);

/* ------------------------------------------------------------------------ */
/* Dynamics (document Sec. 6.6; guide Sec. 4.6): BDF in acceleration form    */

/* The index-3 equations of motion M(q) q'' + Phi_q^T lambda = F(t, q, q'),
 * Phi(t, q) = 0 (the normalisation rows included) are advanced by BDF of
 * order 1 or 2 (up to 5: the option `order`) written for the accelerations
 * (Negrut's ME751, the
 * document's approach): at t_n = t_{n-1} + h the unknowns are q''_n and
 * lambda_n, and
 *
 *     q'_n = a_v + beta0 h q''_n,     q_n = a_q + beta0 h q'_n
 *
 * with a_v, a_q the BDF combinations of the past values (order 1: beta0 = 1,
 * a = the last value; order 2 with the step ratio w = h_n / h_{n-1}: beta0 =
 * (1 + w) / (1 + 2w), a = ((1 + w)^2 x_{n-1} - w^2 x_{n-2}) / (1 + 2w), the
 * variable-step BDF2, which is 2/3, 4/3, -1/3 at w = 1). Newton solves
 *
 *     g(q'', lambda) = [ M q'' + Phi_q^T lambda - F ;  Phi(t_n, q_n) / (beta0^2 h^2) ] = 0.
 *
 * The constraint rows are divided by beta0^2 h^2 = dq_n/dq''_n, so their
 * derivative is Phi_q itself: the Newton matrix
 *
 *     [ M + beta0^2 h^2 ((M q'')_q + (Phi_q^T lambda)_q - F_q) - beta0 h F_q'   Phi_q^T ]
 *     [ Phi_q                                                                   0       ]
 *
 * tends to the regular [M Phi_q^T; Phi_q 0] as h -> 0 and its condition
 * does not grow like 1/h^2 (as it would with Phi unscaled). The quasi-Newton
 * matrix is that limit, evaluated at the first iteration of each step (the
 * document's); full Newton re-evaluates the whole matrix at every iteration.
 * Order 2 takes its first step (and every step after a restart) at order 1.
 * The details, what is analytic in the full matrix and what is a finite
 * difference, and what remains, are in lib/src/spatial_dynamics.c. */

/* QUASI: the document's (above); FULL: the whole matrix at every iteration;
 * MODIFIED: the quasi matrix kept across steps (it depends on q only, not on
 * h or the order) and evaluated afresh only when the iteration stops
 * contracting well, which saves most factorisations when the steps are
 * small against the motion. */
typedef enum {
    MBD_SPATIAL_NEWTON_QUASI,
    MBD_SPATIAL_NEWTON_FULL,
    MBD_SPATIAL_NEWTON_MODIFIED
} mbd_spatial_newton;

/* The formulation a run integrates. INDEX3_BDF: the BDF above (the
 * document's). INDEX1_RK: the planar chapters' approach for comparison,
 * the index-1 equations [M Phi_q^T; Phi_q 0] [q''; lambda] = [F; gamma]
 * (the same matrix and the same solver as the BDF's Newton) as the
 * right-hand side of y = [q; q'] for an integrator of ode.h (an explicit
 * Runge-Kutta method, `ode`), driven by run.h's loop; after every step the
 * positions and then the velocities are projected back onto Phi = 0 and
 * Phi_q q' = nu in the kinetic-energy metric, by Newton on [M Phi_q^T;
 * Phi_q 0] [dq; mu] = [0; -Phi] (the same matrix again: M is singular in
 * p, the normalisation rows make the whole regular), until |Phi|_inf <= tol
 * (1 + |q|_inf) and |Phi_q q' - nu|_inf <= tol (1 + |q'|_inf). The
 * explicit method has no numerical damping: a long undamped run (A01's
 * 2000 s) keeps its phase where BDF loses it. */
typedef enum { MBD_SPATIAL_INDEX3_BDF, MBD_SPATIAL_INDEX1_RK } mbd_spatial_method;

/* "quasi", "full", "modified"; and the kind of a name (GSL_EINVAL for an
 * unknown one) */
const char *mbd_spatial_newton_name(mbd_spatial_newton kind);
int mbd_spatial_newton_of(const char *name, mbd_spatial_newton *kind);

typedef struct {
    mbd_spatial_method method;          /* the zero value: the index-3 BDF */
    unsigned order;       /* BDF: the highest order, 1 ... 5; 0: 2. Orders 1 and 2 are the
                             document's; k >= 3 are the variable-coefficient BDF of order
                             k (the derivative at t_n of the polynomial through the last k
                             + 1 steps), reached from order 1 as the past steps come; in
                             fixed steps the start is a run of doubling steps from h /
                             2^m, h / 2^m <= h^((k+1)/2) (lib/src/spatial_dynamics.c says
                             why) */
    mbd_spatial_newton newton;          /* the zero value: quasi */
    double h;             /* the step (fixed), or the first step (adaptive); 0: 1e-3 */
    int adaptive;         /* 0: fixed steps h' = (t1 - t0) / ceil((t1 - t0) / h) */
    double rtol, atol;    /* the error test (adaptive); 0: 1e-6 and 1e-8 */
    double tol;           /* Newton: the scaled correction |dq|_inf / (1 + |q|_inf) <= tol;
                             0: 1e-10 */
    unsigned max_iter;    /* Newton's iteration limit per step; 0: 20 */
    double hmin, hmax;    /* adaptive step limits; 0: 1e-10 and t1 - t0 */
    mbd_linsolve_kind linear_solver;    /* the zero value: dense */
    double consistency;   /* the start is refused when |Phi|_inf or |Phi_q q' - nu|_inf
                             exceeds this; 0: 1e-6 */
    mbd_ode_params ode;   /* INDEX1_RK: the integrator (ode.h; mbd_ode_preset() fills one,
                             its rtol and atol are the ones used); the BDF options order,
                             newton, h, adaptive, rtol, atol, hmin, hmax do not apply, tol
                             is the projection's */
} mbd_spatial_dynamics_options;

typedef struct {
    size_t steps;              /* accepted */
    size_t rejected;           /* by the error test */
    size_t newton_failures;    /* steps retried with h / 4 (adaptive) */
    size_t newton_iterations;
    size_t matrices;           /* Newton matrices evaluated */
    size_t factorisations;     /* fresh (pivots chosen) */
    size_t refactorisations;   /* with the pivot order reused */
    size_t force_evals;        /* F(t, q, q') evaluations of the whole vector (full
                                * Newton's differences evaluate one body's terms at a
                                * time and are not counted) */
    size_t rhs_evals;          /* INDEX1_RK: right-hand sides */
    size_t projections;        /* INDEX1_RK: steps whose state the projection moved */
    double h_min, h_max;       /* the smallest and largest accepted step */
} mbd_spatial_dynamics_stats;

/* What the observer sees at an output time */
typedef struct {
    double t;
    const gsl_vector *q, *qd, *qdd, *lambda;   /* n, n, n, m */
    double phi_norm;          /* |Phi(t, q)|_2, all rows */
    double velocity_drift;    /* |Phi_q q' - nu|_2 (index 3 does not enforce it) */
    double euler_norm;        /* max over bodies |p^T p - 1| */
    double energy;            /* the system's energy; NAN without one */
    unsigned newton_iterations;   /* of the step that produced this time (0 at t0) */
    double h;                 /* that step (0 at t0) */
    double error;             /* its scaled error estimate (accepted when <= 1) */
    int at_step;              /* 1: a step's end (or t0); 0: interpolated within a step */
} mbd_spatial_dynamics_point;

/* Called at t0 and at every output time; a status other than GSL_SUCCESS
 * stops the run and is returned. */
typedef int (*mbd_spatial_dynamics_observer)(const mbd_spatial_model *sm,
                                              const mbd_spatial_dynamics_point *pt, void *user);

typedef struct mbd_spatial_dynamics mbd_spatial_dynamics;

/* A dynamics workspace for a finished model (NULL o: the defaults); all its
 * memory is allocated here, the linear solver's pattern given once. NULL on
 * bad options (order not 1 or 2, negative values), an unfinished model, or
 * no memory. */
mbd_spatial_dynamics *mbd_spatial_dynamics_alloc(mbd_spatial_model *sm,
                                                 const mbd_spatial_dynamics_options *o);
void mbd_spatial_dynamics_free(mbd_spatial_dynamics *d);

/* The consistent start: [M Phi_q^T; Phi_q 0] [q''; lambda] = [F; gamma] at
 * (t, q, q'), with the normalisation rows' gamma = -p'^T p' (the document's
 * code pairs p^T with -2 p'^T p', guide Sec. 6.2 item 1). qdd, lambda may be
 * NULL. MBD_EINPUT (the worst row named) when (q, q') violates Phi or the
 * velocity constraints by more than the consistency limit; MBD_ESINGULAR
 * when the matrix is singular (redundant rows: this integrator needs an
 * independent set). */
int mbd_spatial_dynamics_start(mbd_spatial_dynamics *d, double t, const gsl_vector *q,
                               const gsl_vector *qd, gsl_vector *qdd, gsl_vector *lambda);

/* A run from t0 (q, qd consistent there) to t1, through run.h's loop (the
 * BDF is its stepper; the index-1 path its ode.h integrator): outputs at t0
 * + k dt_out (and t1) by the step's interpolant, or at every step's end when
 * dt_out is 0. The interpolant on [t_{n-1}, t_n] is the quintic Hermite of q
 * with q, q', q'' at both ends, q' and q'' its derivatives, lambda linear:
 * an O(h^6) interpolation error in q, below the method's; an output within
 * run.h's tolerance of a step's end is that step's values, at the grid's
 * time. More than MBD_RUN_MAX_STEPS steps fail (fixed steps: refused at
 * the start). q, qd hold the last step's state on return (also after a
 * failure). Failures: MBD_ENOCONV (Newton, with the time, the
 * correction and the largest residual's row or coordinate named),
 * MBD_ESTEPSIZE (adaptive: h below hmin), MBD_ESINGULAR, MBD_ENONFINITE, the
 * model's and the observer's statuses; the cause in
 * mbd_spatial_last_failure(). The outputs up to the last accepted step have
 * been delivered. */
int mbd_spatial_dynamics_run(mbd_spatial_dynamics *d, double t0, double t1, double dt_out,
                             gsl_vector *q, gsl_vector *qd, mbd_spatial_dynamics_observer obs,
                             void *user);

/* The counters of the last run (reset by each run) */
const mbd_spatial_dynamics_stats *mbd_spatial_dynamics_stats_get(const mbd_spatial_dynamics *d);


#ifdef __cplusplus
}
#endif

#endif
