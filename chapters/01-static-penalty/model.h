/* chapters/01-static-penalty/model.h -- the rigid bar on two rods (document 000,
 * Sec. 1.2.6, Fig. 1) and the penalty approach to it (the exact answers it is
 * measured against are in reference.h).
 *
 * Degrees of freedom (mm), in the document's order:
 *   Q1  top of rod 1 (attached to the bar 2 m from its hinge)
 *   Q2  top of rod 2 (attached 5 m from the hinge)
 *   Q3  bottom of rod 1 (on the wall)
 *   Q4  bottom of rod 2 (on the wall)
 *   Q5  the tip of the bar, 6 m from the hinge, where the load P acts
 */
#ifndef CH01_MODEL_H
#define CH01_MODEL_H

#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

#define CH01_NDOF 5
#define CH01_NMPC 2   /* multipoint constraints (the bar) */
#define CH01_NSPC 2   /* single-point constraints (the wall) */

typedef struct {
    double E1, A1, L1;   /* rod 1: N/mm^2, mm^2, mm */
    double E2, A2, L2;   /* rod 2 */
    double P;            /* load at the tip, N */
    double r1, r2, r5;   /* distances from the hinge to rod 1, rod 2 and the tip (m) */
    double beta0[CH01_NMPC]; /* right-hand sides of the bar constraints (mm) */
} ch01_bar;

/* Fills in the data of Fig. 1: A1 = 1200, E1 = 200e3, L1 = 4500; A2 = 900,
 * E2 = 70e3, L2 = 3000; P = 30e3; rods at 2 m and 5 m, load at 6 m; beta0 = 0. */
void ch01_bar_document(ch01_bar *b);

/* Rod stiffnesses k = E A / L (N/mm). */
double ch01_k1(const ch01_bar *b);
double ch01_k2(const ch01_bar *b);

/* The global stiffness matrix K (5 x 5) and load F (5), as the document
 * assembles them. */
void ch01_stiffness(const ch01_bar *b, gsl_matrix *K, gsl_vector *F);

/* The constraints: B (2 x 5) and beta0 (2) of the bar, B Q = beta0, and the
 * 0/1 diagonal selection `fixed` (5) of the wall dofs, Q3 = Q4 = 0. */
void ch01_constraints(const ch01_bar *b, gsl_matrix *B, gsl_vector *beta0, gsl_vector *fixed);

/* The penalty factor C = max|K_ij| * 10^k (eq. 63 has k = 4). */
double ch01_penalty_factor(const gsl_matrix *K, double k);

/* The penalty system of the approach:
 *     K_c = K + C (B^T B + C_C),    F_c = F + C B^T beta0
 * with C_C = diag(fixed). `literal` = 1 leaves out C B^T beta0, as eq. (67)
 * and listing A.1 do (harmless only when beta0 = 0). */
void ch01_penalty_system(const gsl_matrix *K, const gsl_vector *F, const gsl_matrix *B,
                         const gsl_vector *beta0, const gsl_vector *fixed, double C, int literal,
                         gsl_matrix *Kc, gsl_vector *Fc);

/* Solves K_c Q = F_c by Cholesky (K_c is symmetric positive definite).
 * work is 5 x 5 scratch. GSL_EDOM if K_c is not numerically positive definite. */
int ch01_solve_spd(const gsl_matrix *Kc, const gsl_vector *Fc, gsl_matrix *work, gsl_vector *Q);

/* The 2-norm condition number sigma_max / sigma_min of a square matrix. */
double ch01_cond2(const gsl_matrix *A);

/* Relative error ||Q - Q_exact||_2 / ||Q_exact||_2. */
double ch01_rel_error(const gsl_vector *Q, const gsl_vector *Qexact);

#endif
