/* ex01.h -- the functions of chapter 01's exercises (see README.md).
 *
 * The bar of document 000, Fig. 1: dofs Q1, Q2 (rod tops), Q3, Q4 (rod
 * bottoms, on the wall), Q5 (bar tip), in mm; forces in N.
 * Every function returns GSL_SUCCESS, or an error status; none prints.
 */
#ifndef EX01_H
#define EX01_H

#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

#include "mbd/error.h"

/* EXERCISE 01.1 -- the rigid-bar closed form.
 * Rods of stiffness k1, k2 (N/mm) hold a rigid bar hinged at one end, at
 * distances r1, r2 from the hinge; the load P acts at distance r5. The bar
 * constraints are Q1 - (r1/r5) Q5 = beta1 and Q2 - (r2/r5) Q5 = beta2; the
 * rod bottoms are fixed (Q3 = Q4 = 0). Writes the exact displacements into all
 * five entries of Q. Returns GSL_EBADLEN if Q does not hold 5 entries, and
 * MBD_ESINGULAR, leaving Q as it was, when r1^2 k1 + r2^2 k2 = 0 (no rod resists
 * the bar's turning). */
int ex01_rigid_bar(double k1, double k2, double P, double r1, double r2, double r5,
                   double beta1, double beta2, gsl_vector *Q);

/* EXERCISE 01.2 -- the penalty system.
 *     K_c = K + C (B^T B + diag(fixed)),    F_c = F + C B^T beta0
 * K (n x n, not necessarily symmetric), F (n), B (m x n), beta0 (m), fixed (n,
 * 0/1 entries, any of them 1, the first and the last included), Kc (n x n), Fc
 * (n). Kc and Fc are overwritten: what they held before does not matter.
 * Returns GSL_EBADLEN if any size does not fit (each one is checked). The inputs
 * are not modified. */
int ex01_penalty_system(const gsl_matrix *K, const gsl_vector *F, const gsl_matrix *B,
                        const gsl_vector *beta0, const gsl_vector *fixed, double C,
                        gsl_matrix *Kc, gsl_vector *Fc);

/* EXERCISE 01.3 -- the exact solution by Lagrange multipliers.
 * Solves  K Q + A^T lambda = F,  A Q = b  for Q (n) and lambda (m), with
 * K (n x n, not necessarily symmetric), A (m x n). Returns MBD_ESINGULAR when
 * the system is singular (for example when A has dependent rows, or when K does
 * not resist a motion that A leaves free), and GSL_EBADLEN for bad sizes; Q and
 * lambda are written only on success. */
int ex01_lagrange_solve(const gsl_matrix *K, const gsl_vector *F, const gsl_matrix *A,
                        const gsl_vector *b, gsl_vector *Q, gsl_vector *lambda);

/* EXERCISE 01.4 -- the error study.
 * K (n x n) is symmetric (it need not be positive definite). For k = kmin ...
 * kmax (kmin may be negative), with C = max_ij |K_ij| 10^k, assemble and solve
 * the penalty system of 01.2 (constraints B Q = beta0 and the fixed dofs) by
 * Cholesky, and store
 *     error[k - kmin] = ||Q_C - Qexact||_2 / ||Qexact||_2
 *     cond[k - kmin]  = the 2-norm condition number of K_c, sigma_max / sigma_min
 * (error and cond hold kmax - kmin + 1 entries), and in *kbest the k with the
 * smallest error (the smallest such k on a tie, so kmin if every solve failed).
 * A solve that fails (K_c not numerically positive definite: Cholesky fails)
 * gets error = INFINITY; its cond is stored all the same. Returns GSL_EBADLEN
 * if the sizes do not fit together or kmax < kmin, and GSL_EDOM when
 * Qexact = 0 (the relative error is not defined). */
int ex01_error_sweep(const gsl_matrix *K, const gsl_vector *F, const gsl_matrix *B,
                     const gsl_vector *beta0, const gsl_vector *fixed,
                     const gsl_vector *Qexact, int kmin, int kmax, double *error,
                     double *cond, int *kbest);

#endif
