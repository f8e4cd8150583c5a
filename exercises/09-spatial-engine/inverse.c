/* Exercise 09.4: inverse dynamics -- the multipliers of a fully driven
 * model, and the force and torque that rows exert on a body (see
 * README.md). */
#include <math.h>
#include <string.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_permutation.h>

#include "ex09.h"

int ex09_multipliers(const mbd_spatial_model *sm, double t, const gsl_vector *q,
                     const gsl_vector *qd, const gsl_vector *qdd, gsl_vector *lambda)
{
    /* EXERCISE 09.4: your code here (see README.md) */
    (void)sm; (void)t; (void)q; (void)qd; (void)qdd; (void)lambda;
    return MBD_EUNIMPL;
}

int ex09_reaction_on(const mbd_spatial_model *sm, size_t first, size_t count, int b,
                     const gsl_vector *q, const gsl_vector *lambda, ex09_reaction *out)
{
    /* EXERCISE 09.4: your code here (see README.md) */
    (void)sm; (void)first; (void)count; (void)b; (void)q; (void)lambda; (void)out;
    return MBD_EUNIMPL;
}
