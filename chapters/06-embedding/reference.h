/* reference.h -- chapter 06's independent references: each mechanism in its
 * own minimal coordinates, derived by hand from Lagrange's equations (not
 * from the planar model), with the closed-form kinematics that give every
 * body's position and velocity from them.
 *
 *   pendulum        theta'' = -(3 g / 2 l) cos(theta), and the pin's force on
 *                   the rod m (a_c - g)
 *   slider-crank    m(theta2) theta2'' + m'(theta2) theta2'^2 / 2 = -V'(theta2),
 *                   the generalized mass from the kinematic influence
 *                   coefficients of the three bodies
 *   double-pendulum the two-rod chain in its absolute angles (a 2 x 2 mass
 *                   matrix)
 *
 * The reduced state is y = (angles; rates): 2 entries for the one-degree
 * mechanisms, 4 for the double pendulum.
 */
#ifndef CH06_REFERENCE_H
#define CH06_REFERENCE_H

#include <stddef.h>

#include "mbd/error.h"
#include "model.h"

/* The number of minimal coordinates (1 or 2). */
size_t ch06_reduced_dof(const ch06_model *md);

/* The reduced equations y' = f(t, y); params is a const ch06_model * (the
 * data only: the planar model need not be built). gsl_odeiv2's signature. */
int ch06_reduced_rhs(double t, const double y[], double dydt[], void *params);

/* The reduced initial state of the scenario's data. */
void ch06_reduced_initial(const ch06_model *md, double y[4]);

/* Every body's position and velocity (q, q' in the planar model's order:
 * x, y, theta of each moving body) from the reduced state y. */
void ch06_reduced_to_state(const ch06_model *md, const double y[], double q[], double qd[]);

/* Energy of the reduced state: kinetic + m g y_c of every body (the
 * potential zero at y = 0, as the planar model measures it). */
double ch06_reduced_energy(const ch06_model *md, const double y[]);

/* The pendulum's closed forms: theta'' at (theta, theta') (independent of
 * theta'), and the force of the pin on the rod, m (a_c - g), in the global
 * frame. */
double ch06_pendulum_accel(const ch06_pendulum_data *p, double theta);
void ch06_pendulum_pin_force(const ch06_pendulum_data *p, double theta, double omega,
                             double F[2]);

/* The reduced equations integrated once by Dormand-Prince 5(4) at tolerance
 * eps and read from its dense output at the increasing times t[0..count-1]
 * (t[0] >= 0): the full state (q, q'), 2 n values per time, into states. */
int ch06_reference(const ch06_model *md, double eps, const double *t, size_t count,
                   double *states, mbd_failure *fail);

#endif
