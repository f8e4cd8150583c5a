/* Exercise 06.3: embedding, the velocity transformation and the embedded
 * equations of motion (see README.md). */
#include <math.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_permutation.h>
#include <gsl/gsl_vector.h>

#include "ex06.h"

int ex06_velocity_transform(const gsl_matrix *Cq, const size_t indep[], gsl_matrix *B)
{
    /* EXERCISE 06.3: your code here (see README.md) */
    (void)Cq; (void)indep; (void)B;
    return MBD_EUNIMPL;
}

int ex06_dependent_velocities(const gsl_matrix *Cq, const size_t indep[], const double Ct[],
                              const double qd_i[], double qd[])
{
    /* EXERCISE 06.3: your code here (see README.md) */
    (void)Cq; (void)indep; (void)Ct; (void)qd_i; (void)qd;
    return MBD_EUNIMPL;
}

int ex06_embedded_accel(const gsl_matrix *M, const gsl_matrix *Cq, const size_t indep[],
                        const double F[], const double gamma[], double qdd_i[], double qdd[])
{
    /* EXERCISE 06.3: your code here (see README.md) */
    (void)M; (void)Cq; (void)indep; (void)F; (void)gamma; (void)qdd_i; (void)qdd;
    return MBD_EUNIMPL;
}
