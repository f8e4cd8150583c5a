/* reference.h -- chapter 04's independent reference: the reduced
 * one-degree-of-freedom equation of the Scotch yoke in theta1 alone,
 * integrated by GSL's rk8pd at a tight tolerance. The constrained runs of the
 * chapter are measured against it.
 */
#ifndef CH04_REFERENCE_H
#define CH04_REFERENCE_H

#include "model.h"

/* ------------------------------------------------------------------------ */
/* The reduced one-degree-of-freedom equation (the independent reference)     */

/* y = (theta1, theta1_dot); params is a const ch04_params *. The same
 * signature as gsl_odeiv2's right-hand sides. */
int ch04_reduced_rhs(double t, const double y[], double dydt[], void *params);

/* (theta1, theta1_dot) -> (theta1, x2, theta1_dot, x2_dot). */
void ch04_reduced_to_state(const ch04_params *p, const double y[2], double state[4]);

/* Integrates the reduced equation with GSL's rk8pd driver (absolute and
 * relative tolerance eps, e.g. 1e-13) from rest at theta0, t = 0, through the
 * increasing times t[0 .. count-1] (t[0] >= 0), and writes the state
 * (theta1, x2, theta1_dot, x2_dot) at t[k] into states[4 k .. 4 k + 3]. */
int ch04_reference(const ch04_params *p, double eps, const double *t, size_t count,
                   double *states, mbd_failure *fail);

/* The same states by one Dormand-Prince 5(4) run at tolerance eps over the
 * whole interval, each time interpolated from the step it falls in (the
 * method's own dense output): the reference computed once rather than stepped
 * onto every output. At eps = 1e-13 it stays within 1e-8 of ch04_reference on
 * the chapter's default runs (a test checks it) for about a tenth of the work. */
int ch04_reference_dense(const ch04_params *p, double eps, const double *t, size_t count,
                         double *states, mbd_failure *fail);

/* Either of the two one time at a time, for a run that measures its outputs
 * as they come and keeps no history: the same numbers, bit for bit (the two
 * above are loops over it), for increasing t in [0, t_end]. NULL from alloc
 * when there is no memory. */
typedef struct ch04_reference_seq ch04_reference_seq;
ch04_reference_seq *ch04_reference_seq_alloc(const ch04_params *p, double eps, int dense,
                                             double t_end);
int ch04_reference_seq_at(ch04_reference_seq *s, double t, double state[4], mbd_failure *fail);
void ch04_reference_seq_free(ch04_reference_seq *s);

#endif
