/* mbd/constraints.h -- the one constraint solver.
 *
 * Every method that enforces C(t, q) = 0 meets the same linear algebra: the
 * constraint Jacobian C_q (m x n) against a weight W (the inverse mass matrix,
 * or the identity),
 *
 *     X = W C_q^T  (n x m),      S = C_q X = C_q W C_q^T  (m x m),
 *
 * S's Cholesky factor and whether S is singular (C_q has lost rank), and the
 * solves built on them:
 *
 *   accelerations   S lambda = C_q M^-1 F - gamma,  q'' = M^-1 F - X lambda
 *                   (the projection formulation, formulation.h)
 *   corrections     x <- x - X S^-1 r, which removes a residual r = C_q dx to
 *                   first order with the smallest step in W's norm: Newton on
 *                   C(t, q) = 0 for positions, one step onto C_q q' + C_t = 0
 *                   for velocities (correction.h)
 *   augmented       [M C_q^T; C_q 0] [x; lambda] = [f; g] by QR with pivoting,
 *                   which needs no positive definite M (the Euler-parameter
 *                   mass matrix of chapter 09 is singular on its own)
 *   rank            of C_q by QR with column pivoting, with the columns that
 *                   carry it (redundant constraints, singular configurations)
 *
 * The formulations and the corrections are built on it, and so are the later
 * chapters' methods: embedding, null-space projection, and direct correction,
 * whose extra rows (an energy row under the m constraint rows) are simply a
 * taller C_q: a workspace is sized for at most `rows` rows and each call uses
 * as many as the matrix it is given has.
 *
 * A workspace allocates everything once; no call allocates. Failures record
 * the time and which matrix was singular (mbd_constraints_failure).
 */
#ifndef MBD_CONSTRAINTS_H
#define MBD_CONSTRAINTS_H

#include <stddef.h>

#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

#include "mbd/error.h"
#include "mbd/system.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mbd_constraints mbd_constraints;

/* A workspace for n coordinates and at most `rows` constraint rows. NULL when
 * a size is 0 or memory runs out. */
mbd_constraints *mbd_constraints_alloc(size_t n, size_t rows);
void mbd_constraints_free(mbd_constraints *c);

/* Factors the mass matrix M (Cholesky) for the weighted operations, with its
 * reciprocal condition checked against round-off. MBD_ESINGULAR when M is
 * not positive definite or singular to working precision. */
int mbd_constraints_set_mass(mbd_constraints *c, double t, const gsl_matrix *M);

/* x = M^-1 b with the factored M (x may be b). */
int mbd_constraints_mass_solve(mbd_constraints *c, const gsl_vector *b, gsl_vector *x);

/* Forms X = W C_q^T and S = C_q X for C_q (k x n, k <= rows), W = M^-1 (the
 * M of mbd_constraints_set_mass) when `weighted`, else the identity, and
 * factors S. `what` names S in a failure ("the Schur complement C_q M^-1
 * C_q^T"). MBD_ESINGULAR when S is not positive definite or its reciprocal
 * condition number is below 4 eps. */
int mbd_constraints_schur(mbd_constraints *c, double t, const gsl_matrix *Cq, int weighted,
                          const char *what);

/* With S factored: z = S^-1 r. */
int mbd_constraints_schur_solve(mbd_constraints *c, const gsl_vector *r, gsl_vector *z);

/* With S factored: x <- x - X S^-1 r, the first-order correction that
 * removes the residual r = C_q dx with the least |dx| in W's norm. */
int mbd_constraints_correct(mbd_constraints *c, const gsl_vector *r, gsl_vector *x);

/* The accelerations of the projection method, with M factored: the
 * multipliers of S lambda = C_q M^-1 F - gamma and q'' = M^-1 F - X lambda
 * (M q'' + C_q^T lambda = F, C_q q'' = gamma). lambda may be NULL. */
int mbd_constraints_accel(mbd_constraints *c, double t, const gsl_matrix *Cq, const gsl_vector *F,
                          const gsl_vector *gamma, gsl_vector *qdd, gsl_vector *lambda);

/* The augmented (KKT) system
 *     [ M    C_q^T ] [ x      ]   [ f ]
 *     [ C_q  0     ] [ lambda ] = [ g ]
 * by QR with column pivoting; M need not be positive definite, only the
 * whole matrix regular. MBD_ESINGULAR (with its condition estimate) when it
 * is singular to working precision. */
int mbd_constraints_kkt_solve(mbd_constraints *c, double t, const gsl_matrix *M,
                              const gsl_matrix *Cq, const gsl_vector *f, const gsl_vector *g,
                              gsl_vector *x, gsl_vector *lambda);

/* Newton's method on C(t, q) = 0 from q, each step the correction of the
 * residual C (weighted by M^-1 at the current q when `weighted`), until
 * |C| <= tol. *iterations counts the steps taken (q moved when > 0).
 * MBD_ENOCONV when |C| > tol after max_iter steps, MBD_ESINGULAR when S
 * cannot be factored, MBD_ENONFINITE when C is not finite. */
int mbd_constraints_newton(mbd_constraints *c, const mbd_system *s, double t, gsl_vector *q,
                           int weighted, double tol, unsigned max_iter, unsigned *iterations);

/* The velocity solve: q' moved onto C_q q' + C_t = 0 by one correction,
 * when |C_q q' + C_t| > tol (*moved says whether it was). */
int mbd_constraints_velocity(mbd_constraints *c, const mbd_system *s, double t,
                             const gsl_vector *q, gsl_vector *qd, int weighted, double tol,
                             int *moved);

/* The reciprocal 1-norm condition number of A = L L^T from its Cholesky
 * factor L (the lower triangle, as gsl_linalg_cholesky_decomp1 leaves it):
 * exact, from the explicit inverse, up to order MBD_CONSTRAINTS_EXACT_RCOND;
 * above it GSL's estimate (gsl_linalg_cholesky_rcond, work of 3 k). 0 when
 * L has a diagonal entry that is not positive and finite. The checks of S
 * and M below use it. */
#define MBD_CONSTRAINTS_EXACT_RCOND 16
int mbd_constraints_cholesky_rcond(const gsl_matrix *L, double *rcond, gsl_vector *work);

/* The 1-norm condition numbers of the last S and M the workspace
 * factored (from the check the factoring made; nothing is recomputed), also
 * when the check refused them; INFINITY when there was no Cholesky factor
 * (not positive definite). */
int mbd_constraints_schur_condition(mbd_constraints *c, double *cond);
int mbd_constraints_mass_condition(mbd_constraints *c, double *cond);

/* The numerical rank of C_q (k x n) by QR with column pivoting: the number
 * of diagonal entries of R above tol |R_11| (tol <= 0: max(k, n) eps).
 * `pivots` (may be NULL, n entries) receives the column order, the
 * independent columns first. */
int mbd_constraints_rank(mbd_constraints *c, const gsl_matrix *Cq, double tol, size_t *rank,
                         size_t *pivots);

const mbd_failure *mbd_constraints_failure(const mbd_constraints *c);

#ifdef __cplusplus
}
#endif

#endif
