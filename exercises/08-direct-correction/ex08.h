/* ex08.h -- the functions of chapter 08's exercises (see README.md).
 *
 * Direct correction of constraint violations for planar closed loops in
 * joint coordinates with cut joints, after document 004 (Zhang, Rui, Zhang,
 * Gu, Zhang 2023, "Exploring Energy in the Direct Correction Method for
 * Correcting Geometric Constraint Violations", Mathematics 11(6) 1510,
 * Secs. 3-4 and 6): the semi-analytic Jacobians of a cut pin joint, the
 * sequential and the simultaneous correction, the order of the drift that
 * makes a correction necessary, and the metric of the minimum-norm step.
 * The functions work on plain arrays, GSL matrices and callbacks; none
 * needs the chapter program, its model or the library's mbd/correction.h
 * (which does the same things for the chapter: write your own).
 *
 * Conventions:
 *   - The document's constraint c is Phi here: Phi(q) = 0 (m rows), its
 *     Jacobian Phi_q = dPhi/dq (m x n), the velocity constraint
 *     Phidot = Phi_q q' (scleronomic: no explicit time), and the velocity
 *     Jacobian Phidot_q = d(Phi_q q')/dq (m x n; the document's c-dot_q).
 *   - D = [0 -1; 1 0] turns a plane vector a quarter turn counter-clockwise
 *     (eq. 14; the extraction of the document lost its minus sign).
 *   - A(theta) = [cos -sin; sin cos] (eq. 11).
 *   - max|x| is the largest absolute entry (the infinity norm).
 *   - Indices count from 0, like C.
 *
 * Every function returns GSL_SUCCESS or an error status and prints nothing.
 * On every error it writes none of its outputs (they keep what they held;
 * an in-out argument keeps its input). Pointers must be valid (NULL only
 * where a contract allows it).
 */
#ifndef EX08_H
#define EX08_H

#include <stddef.h>

#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

#include "mbd/error.h"

/* EXERCISE 08.1 -- the cut joint's Jacobians by the semi-analytic rule
 * (Sec. 3.2, eqs. 7-17; Sec. 4.2, eqs. 22-27).
 *
 * A planar tree of n rigid bodies, each hanging from its parent (or from
 * the ground) by one pin joint, the tree joint T_i; body i's frame has its
 * origin at T_i. The coordinates are the joints' relative angles:
 *     theta_i = theta_parent(i) + q_i,      omega_i = omega_parent(i) + q'_i
 * (theta and omega of the ground are 0), so for a body on the ground q_i is
 * its absolute angle. Joint i sits at the point joint[i] of the parent's
 * frame (of the ground, i.e. global, when parent(i) = -1):
 *     r_Ti = r_T(parent) + A(theta_parent) joint[i],
 * and a point with coordinates l in body i's frame is at
 *     r = r_Ti + A(theta_i) l,      v = v_Ti + omega_i D (r - r_Ti).
 * A point of the ground is fixed: r = l, v = 0.
 *
 * A cut pin joint k joins a moving marker M and a base marker B (each a
 * point of a body or of the ground); its two rows, x then y, are rows 2k and
 * 2k + 1 of
 *     Phi = r_M - r_B                   (eq. 5),
 *     Phidot = v_M - v_B = Phi_q q'     (eq. 6).
 * Write anc(P) for the joints on the path from the ground to the body that
 * carries P (none for a point of the ground). Turning joint j turns
 * everything outboard of it about r_Tj, so column j of the Jacobians is
 *     Phi_q[:, j]    = [j in anc(M)] D (r_M - r_Tj) - [j in anc(B)] D (r_B - r_Tj),
 *     Phidot_q[:, j] = [j in anc(M)] D (v_M - v_Tj) - [j in anc(B)] D (v_B - v_Tj).
 * The document (eqs. 15, 17, 25, 27) treats a joint "associated with" the
 * B end or the M end; a joint on the path to both ends takes both terms
 * (the reading guide's E5), whose sum is D Phi (not 0 off the constraints).
 */
typedef struct {
    size_t n;                /* bodies = tree joints = coordinates, >= 1 */
    const int *parent;       /* n entries: parent[i] is -1 (the ground) or in 0 .. i-1 */
    const double *joint;     /* 2 n entries: joint i at (joint[2i], joint[2i+1]) in the
                                parent's frame (global for a body on the ground) */
} ex08_tree;

typedef struct {
    int body;                /* -1: the ground; else 0 .. n-1 */
    double at[2];            /* coordinates in the body's frame (global on the ground) */
} ex08_marker;

typedef struct {
    ex08_marker M, B;        /* Phi = r_M - r_B */
} ex08_cut;

/* The violations and the Jacobians at (q, q'): phi and phidot (2 ncut
 * values each), Phi_q and Phidot_q (2 ncut x n each, every entry written),
 * the Jacobians by the rule above: exact to round-off (a finite-difference
 * quotient is not accurate enough: the tests compare with complex-step
 * derivatives to 1e-12 max(1, the largest entry)). MBD_EINPUT when n = 0,
 * ncut = 0, a parent or a marker's body is out of range, or an entry of
 * joint, of a marker's at, of q or of q' is not finite; GSL_EBADLEN when a
 * matrix is not 2 ncut x n. */
int ex08_cut_jacobians(const ex08_tree *tree, const ex08_cut cut[], size_t ncut, const double q[],
                       const double qd[], double phi[], double phidot[], gsl_matrix *Phi_q,
                       gsl_matrix *Phidot_q);

/* EXERCISE 08.2 -- the sequential and the simultaneous correction (Secs.
 * 3.1 and 4.1, eqs. 3-4 and 18-21; the document's scenarios (b) and (c) of
 * Sec. 6), and the order of the steps.
 *
 * A scleronomic system with n coordinates and m constraints, 1 <= m <= n,
 * given by callbacks that return GSL_SUCCESS or an error status (which the
 * correction then returns). Each Newton step is the minimum-norm step
 *     dx = -J^T (J J^T)^-1 r,
 * the shortest dx (Euclidean) with J dx = -r. G = J J^T counts as singular
 * when its Cholesky factorisation (gsl_linalg_cholesky_decomp1) fails or
 * some pivot L_ii^2 is <= 1e-12 max_k G_kk: MBD_ESINGULAR.
 */
typedef struct {
    size_t n, m;
    /* phi: the m values Phi(q) */
    int (*phi)(const double q[], double phi[], void *params);
    /* phi_q: Phi_q(q), m x n */
    int (*phi_q)(const double q[], gsl_matrix *Phi_q, void *params);
    /* phidot_q: Phidot_q(q, q') = d(Phi_q q')/dq, m x n; used by
     * EX08_SIMULTANEOUS only, and may be NULL for the other schemes */
    int (*phidot_q)(const double q[], const double qd[], gsl_matrix *Phidot_q, void *params);
    void *params;
} ex08_constraints;

typedef enum {
    EX08_SEQUENTIAL = 0,   /* (b): Newton on Phi(q) = 0; then one step onto Phi_q q' = 0 at the
                              corrected q */
    EX08_VELOCITY_FIRST,   /* (b'): one step onto Phi_q q' = 0 at the given q; then Newton on
                              Phi(q) = 0 (q' is not touched again) */
    EX08_SIMULTANEOUS      /* (c): Newton on r = [Phi(q); Phi_q(q) q'] = 0 in x = (q, q') */
} ex08_scheme;

typedef struct {
    unsigned iterations;   /* Newton steps taken (of the position Newton for (b) and (b')) */
    double phi;            /* max|Phi(q)| at the returned q */
    double phidot;         /* max|Phi_q(q) q'| at the returned (q, q') */
} ex08_report;

/* Corrects (q, q') in place (n values each) by the scheme:
 *   - the position Newton (b, b'): while max|Phi(q)| > tol, take the step
 *     dq = -Phi_q^T (Phi_q Phi_q^T)^-1 Phi(q) (eq. 3); none when
 *     max|Phi(q)| <= tol already;
 *   - the velocity step (b, b'), always exactly one, at the q of the scheme:
 *     dq' = -Phi_q^T (Phi_q Phi_q^T)^-1 Phi_q q' (eq. 4; Phidot is linear in
 *     q', so one step is exact);
 *   - the simultaneous Newton (c): while max|r| > tol, take the step
 *     dx = -J^T (J J^T)^-1 r with x = (q, q'), r = [Phi; Phi_q q'] and the
 *     2m x 2n Jacobian of eq. 21,
 *         J = [ Phi_q      0     ]
 *             [ Phidot_q   Phi_q ]   (Phidot_q' = Phi_q).
 * Each Newton loop takes at most max_iter steps: MBD_ENOCONV when the
 * residual is still above tol after them. rep (may be NULL) receives the
 * steps taken and the violations at the returned state, evaluated there.
 * MBD_EINPUT when n = 0, m = 0, m > n, phi or phi_q is NULL, phidot_q is
 * NULL for EX08_SIMULTANEOUS, the scheme is not one of the three, tol is
 * not finite and > 0, max_iter = 0, or an entry of q or q' is not finite;
 * MBD_ESINGULAR as above; MBD_ENONFINITE when a residual is not finite; a
 * callback's error status. */
int ex08_correct(const ex08_constraints *c, ex08_scheme scheme, double tol, unsigned max_iter,
                 double q[], double qd[], ex08_report *rep);

/* EXERCISE 08.3 -- the integrator's order from the uncorrected drift
 * (scenario (a) of Sec. 6: fixed-step RK4, dt = 0.001 s).
 *
 * (a) Given count runs of one integration at the step sizes h[k] and the
 * largest constraint violation v[k] each left (over the same time span),
 * fits v ~ C h^p by least squares on (x, y) = (ln h, ln v) over the points
 * with v[k] > v_floor (the others are round-off, not drift: left out;
 * v_floor = 0 keeps all):
 *     p = sum (x - xm)(y - ym) / sum (x - xm)^2,   ln C = ym - p xm,
 * xm and ym the means over those points, and the standard error of p,
 *     se = sqrt( sum e^2 / (used - 2) / sum (x - xm)^2 ),   e = y - ln C - p x.
 * MBD_EINPUT when count < 3, an h[k] or v[k] is not finite and > 0, the
 * h[k] are not strictly increasing or strictly decreasing (all of them, the
 * points left out included), v_floor is not finite and >= 0, or fewer than 3
 * points are left to fit. */
typedef struct {
    double order;          /* p */
    double constant;       /* C */
    double order_se;       /* se */
    size_t used;           /* the points fitted */
} ex08_fit;

int ex08_order_fit(const double h[], const double v[], size_t count, double v_floor,
                   ex08_fit *fit);

/* (b) The step size at which the fitted drift is target:
 *     *h = (target / C)^(1/p).
 * MBD_EINPUT when fit->order or fit->constant is not finite and > 0, target
 * is not finite and > 0, or *h would not be a finite number > 0. */
int ex08_step_for(const ex08_fit *fit, double target, double *h);

/* EXERCISE 08.4 -- the metric of the minimum-norm step (the document's
 * Fig. 1 "orthogonal" step, the reading guide's E13).
 *
 * Among all dx with J dx = -r (J: R x N, 1 <= R <= N, full row rank), the
 * one of least dx^T W^-1 dx:
 *     dx = -W J^T (J W J^T)^-1 r,
 * with W given by M:
 *     M = NULL:          W = I (N x N), the Euclidean step;
 *     M n x n, N = n:    W = M^-1, the step of least kinetic energy
 *                        (1/2) dx^T M dx when dx is a velocity change;
 *     M n x n, N = 2n:   W = diag(M^-1, M^-1), for x = (q, q').
 * M must be symmetric (|M_ij - M_ji| <= 1e-12 max_kl |M_kl|) and positive
 * definite (its Cholesky factorisation succeeds). *norm2 (norm2 may be NULL)
 * receives dx^T W^-1 dx (= r^T (J W J^T)^-1 r). G = J W J^T counts as
 * singular as in 08.2 (Cholesky fails, or some L_ii^2 <= 1e-12 max_k
 * G_kk): MBD_ESINGULAR. GSL_EBADLEN when R > N, r is not of size R, dx not
 * of size N, or M is not square or N is neither n nor 2n; MBD_EINPUT when
 * an entry of J, r or M is not finite or M is not symmetric positive
 * definite. */
int ex08_weighted_step(const gsl_matrix *J, const gsl_vector *r, const gsl_matrix *M,
                       gsl_vector *dx, double *norm2);

#endif
