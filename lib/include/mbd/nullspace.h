/* mbd/nullspace.h -- the tangent basis of the constraints by QR with column
 * pivoting: rank, singularity monitor, and continuation of the basis.
 *
 * Document 002 (Quro 2023, "Projection continuation for singularity
 * detection of redundantly constrained multibody system dynamics"; its
 * reading guide, seed-notes/002, is cited as "the guide"). With A = C_q
 * (m x n) the constraint Jacobian, QR with column pivoting of its transpose
 * (gsl_linalg_QRPT_decomp, the document's eqs. 2.12-2.14 and 4.15-4.16),
 *
 *     A^T P = Q R,      Q = [Q_ns  T]  (n x n, orthogonal),
 *                       R = [R11 R12; 0 0]   (n x m, R11 r x r upper triangular),
 *
 * orders the diagonal of R by decreasing magnitude (GSL pivots on the
 * largest remaining column norm; the workspace sorts a copy anyway). With r
 * the rank, the first r columns of Q span the range of A^T and the last
 * n - r the null space of A, the tangent space of C(t, q) = 0:
 *
 *     T = Q(:, r+1..n)      (n x (n - r)),    A T = 0,   T^T T = I.
 *
 * This one formula covers every case of the document's Sec. 2.4 table:
 * m < n at full rank (T = Q_2, eq. 2.1), m < n at a singular configuration
 * (T = [Q_1s Q_2], eq. 2.15, the enlarged basis), m = n (T = Q_1s, eq. 4.3)
 * and m > n (T = Q_1s, eq. 4.17): redundant constraints are handled, not
 * refused. The degrees of freedom are n - r in every case, the rank
 * deficiency d = min(m, n) - r (the document's "admissible motions" beyond
 * those of a full-rank Jacobian).
 *
 * Rank decision (the document gives no threshold, the guide's gap 11):
 * r = the number of leading diagonal entries with |R_ii| > tol |R_11|;
 * tol_rank defaults to MBD_NULLSPACE_TOL_RANK = 1e-8 (the guide's Sec. 2.6).
 * A = 0 has rank 0.
 *
 * Singularity monitor (Sec. 2.2, Figs. 5.3, 5.15-5.16, 5.27): the sorted
 * |R_ii|, i < min(m, n). A singular configuration is where the last
 * structurally non-zero entry |R_rr| (r the rank of a regular configuration)
 * falls to zero; the formulation (formulation.h, "The null-space
 * formulation") flags it against tol_sing (MBD_NULLSPACE_TOL_SING = 1e-3)
 * relative to |R_11|.
 *
 * Particular solutions, rank-aware (the guide's Sec. 2.4 [DERIVED]; the
 * document writes them for full rank only, eqs. 2.3 and 2.10, where
 * (A Q_1)^-1 is singular once A loses rank): for a right-hand side b of
 * A x = b, the solution in the range of A^T that satisfies the r pivoted
 * rows,
 *
 *     x = Q_ns R11^-T (P^T b)_{1..r}
 *
 * (the minimum-norm solution when b is consistent: the dropped rows are
 * redundant). It gives the document's beta' = Q_1 p' (b = -C_t), beta'' =
 * Q_1 p'' (b = gamma: eq. 2.3b corrected, see formulation_nullspace.c) and
 * the Newton step of eq. 2.10 (b = -C).
 *
 * Continuation (Ch. 3, Sec. 4.1.2, 4.2.2, App. A). A fresh factorisation
 * gives a basis T^ whose columns are fixed only up to an orthogonal k x k
 * factor: between two steps it may flip sign or turn inside its own span
 * (the "traditional" basis, Figs. 5.4, 5.14, 5.34). Two ways back:
 *
 *   procrustes   App. A: T = T^ U with U orthogonal minimising
 *                |T~^T T - I|_F for a reference T~ (the previous basis, or a
 *                prediction): U is the polar factor of C^T, C = T~^T T^
 *                (A.6, A.13-A.14), from the SVD C = W S V^T: U = V W^T
 *                (mbd_nullspace_procrustes). For one column this is
 *                T = sign(T~ . T^) T^.
 *   skew update  Sec. 4.1.2: Omega = Q^T Q' (skew, n x n) from
 *                J = Q^T A'^T P (eqs. 4.5-4.13, 4.20-4.27) with the T-T block
 *                set to zero (no spin of T inside its span): Omega_s =
 *                J21 R11^-1, Omega_L = stril(J11 R11^-1), Omega_ns = Omega_L
 *                - Omega_L^T (mbd_nullspace_omega), and the prediction
 *                Q~ = Q cay(h Omega) over a step (mbd_nullspace_predict), then
 *                re-aligned by procrustes to the fresh basis.
 *
 * Jump rule (mbd_nullspace_jump): a basis T_new is a discontinuous change
 * of T_old (a flip or a jump) when some column turned by more than 60
 * degrees: min_i (T_old^T T_new)_ii < 1/2. A sign flip gives -1 there; a
 * continuous basis over a step of size h, 1 - O(h^2).
 *
 * A workspace is for n coordinates and m rows and allocates everything
 * once; no call allocates. The last factorisation stays in it: rank, basis,
 * monitor and the solves read it.
 */
#ifndef MBD_NULLSPACE_H
#define MBD_NULLSPACE_H

#include <stddef.h>

#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

#include "mbd/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The defaults of the rank decision and of the singularity flag, relative
 * to |R_11| */
#define MBD_NULLSPACE_TOL_RANK 1e-8
#define MBD_NULLSPACE_TOL_SING 1e-3

/* How the basis used by the formulation goes from one step to the next
 * (0 picks the default, procrustes) */
typedef enum {
    MBD_NULLSPACE_CONTINUATION_DEFAULT = 0,
    MBD_NULLSPACE_NONE,          /* the traditional basis: a fresh factorisation at every step */
    MBD_NULLSPACE_PROCRUSTES,    /* the fresh basis aligned to the previous one (App. A) */
    MBD_NULLSPACE_FULL           /* the skew update predicts, procrustes aligns (Sec. 4.1.2 +
                                    App. A) */
} mbd_nullspace_continuation;

typedef struct mbd_nullspace mbd_nullspace;

/* A workspace for n coordinates and m constraint rows (n, m > 0); NULL
 * when a size is 0 or memory runs out. */
mbd_nullspace *mbd_nullspace_alloc(size_t n, size_t m);
void mbd_nullspace_free(mbd_nullspace *w);

/* Factors A^T P = Q R for A = Cq (m x n) and sorts the monitor. GSL_EBADLEN
 * for a Cq of another size, MBD_ENONFINITE when Cq has a non-finite entry. */
int mbd_nullspace_factor(mbd_nullspace *w, const gsl_matrix *Cq);

/* The rank at tolerance tol relative to |R_11| (tol <= 0: MBD_NULLSPACE_TOL_RANK). */
size_t mbd_nullspace_rank(const mbd_nullspace *w, double tol);
/* d = min(m, n) - rank at tol, and the degrees of freedom n - rank at tol */
size_t mbd_nullspace_deficiency(const mbd_nullspace *w, double tol);
size_t mbd_nullspace_dof(const mbd_nullspace *w, double tol);

/* The singularity monitor: the min(m, n) values |R_ii|, decreasing, into
 * diag (may be NULL); returns min(m, n). */
size_t mbd_nullspace_monitor(const mbd_nullspace *w, double diag[]);
/* |R_rr| / |R_11| for 1 <= r <= min(m, n) (the r-th sorted entry): the
 * singularity ratio of a mechanism of rank r; 0 when R_11 = 0 or r is out
 * of range. */
double mbd_nullspace_ratio(const mbd_nullspace *w, size_t r);

/* The fresh basis for rank r: T = Q(:, r+1..n) into T (n x (n - r)).
 * GSL_EBADLEN for a T of another size. */
int mbd_nullspace_basis(const mbd_nullspace *w, size_t r, gsl_matrix *T);
/* The whole Q (n x n): the range basis Q_ns in its first r columns. */
int mbd_nullspace_q(const mbd_nullspace *w, gsl_matrix *Q);

/* u = R11^-T (P^T b)_{1..r} (r entries of u, which has at least r), the
 * coordinates in Q_ns of the particular solution of A x = b; and the
 * solution itself x = Q_ns u (n), rank-aware as the overview says. */
int mbd_nullspace_coords(mbd_nullspace *w, size_t r, const gsl_vector *b, gsl_vector *u);
int mbd_nullspace_particular(mbd_nullspace *w, size_t r, const gsl_vector *b, gsl_vector *x);

/* The basic solution of A^T lambda = c (c: n, lambda: m): (P^T lambda)_{1..r}
 * = R11^-1 Q_ns^T c, the other m - r entries 0 (the multipliers of M q'' +
 * A^T lambda = F from c = F - M q''; unique at full rank r = m). */
int mbd_nullspace_transpose_solve(mbd_nullspace *w, size_t r, const gsl_vector *c,
                                  gsl_vector *lambda);

/* App. A: T <- T U, U = polar((Tref^T T)^T) the orthogonal k x k factor
 * that brings T closest to Tref (both n x k, k <= n). *sigma_min (may be
 * NULL) receives the smallest singular value of Tref^T T: near 1 when the
 * spans agree, 0 when a direction of Tref has left T's span (the
 * alignment is then not unique). */
int mbd_nullspace_procrustes(mbd_nullspace *w, const gsl_matrix *Tref, gsl_matrix *T,
                             double *sigma_min);

/* 1 when T_new is a discontinuous change of T_old (the jump rule above),
 * else 0; both n x k. */
int mbd_nullspace_jump(const gsl_matrix *T_old, const gsl_matrix *T_new);

/* Sec. 4.1.2 (eqs. 4.5-4.13; for m > n eqs. 4.20-4.27): the skew Omega
 * (n x n) of Q' = Q Omega at the last factorisation, rank r, with T (n x
 * (n - r)) the basis in use in Q's last columns, and A' = dC_q/dt (m x n)
 * along the motion. Omega's T-T block is zero. */
int mbd_nullspace_omega(mbd_nullspace *w, size_t r, const gsl_matrix *T, const gsl_matrix *Adot,
                        gsl_matrix *Omega);
/* The prediction over a step h of the basis of Q0 = [Q_ns T] (n x n, the
 * basis in its last k columns) by the Cayley map, Q~ = Q0 (I - h Omega / 2)^-1
 * (I + h Omega / 2) (orthogonal like the document's exp(Omega h), eq. 4.14,
 * and second-order accurate like it): Tpred (n x k) = Q~'s last k columns. */
int mbd_nullspace_predict(mbd_nullspace *w, const gsl_matrix *Q0, const gsl_matrix *Omega,
                          double h, gsl_matrix *Tpred);

#ifdef __cplusplus
}
#endif

#endif
