/* reference.h -- chapter 01's exact answers, which the penalty solutions are
 * measured against: the saddle-point (Lagrange-multiplier) system and the
 * rigid bar's closed form. */
#ifndef CH01_REFERENCE_H
#define CH01_REFERENCE_H

#include "model.h"

/* The exact solution by Lagrange multipliers: the saddle-point system
 *     [ K  A^T ] [ Q      ]   [ F ]
 *     [ A  0   ] [ lambda ] = [ b ]
 * with A = [B; wall rows], b = [beta0; 0]; lambda (4) are the constraint
 * forces with the sign of  K Q + A^T lambda = F. */
int ch01_lagrange(const gsl_matrix *K, const gsl_vector *F, const gsl_matrix *B,
                  const gsl_vector *beta0, const gsl_vector *fixed, gsl_vector *Q,
                  gsl_vector *lambda);

/* The rigid-bar closed form: the bar turns by theta (mm of displacement per m
 * of length) with  r1^2 k1 theta + r2 k2 (r2 theta + beta0_2) = r5 P  (moments
 * about the hinge), so Q1 = r1 theta + beta0_1, Q2 = r2 theta + beta0_2,
 * Q3 = Q4 = 0, Q5 = r5 theta. Exact for beta0_1 = 0; with beta0_1 != 0 the
 * first term uses (r1 theta + beta0_1). */
void ch01_closed_form(const ch01_bar *b, gsl_vector *Q);

#endif
