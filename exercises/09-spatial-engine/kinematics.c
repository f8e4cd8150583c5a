/* Exercise 09.3: one step of the kinematics analysis of a fully driven
 * spatial model -- Newton on the positions, then the velocities and the
 * accelerations (see README.md). */
#include <math.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_permutation.h>

#include "ex09.h"

int ex09_kinematics_step(const mbd_spatial_model *sm, double t, double tol, unsigned max_iter,
                         gsl_vector *q, gsl_vector *qd, gsl_vector *qdd, unsigned *iterations)
{
    /* EXERCISE 09.3: your code here (see README.md) */
    (void)sm; (void)t; (void)tol; (void)max_iter; (void)q; (void)qd; (void)qdd; (void)iterations;
    return MBD_EUNIMPL;
}
