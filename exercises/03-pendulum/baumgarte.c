/* Exercise 03.3: Baumgarte's stability on paper and by running it (see README.md). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "ex03.h"
#include "mbd/simulate.h"

int ex03_baumgarte_roots(double alpha, double beta, int printed, double complex r[2])
{
    /* EXERCISE 03.3: your code here (see README.md) */
    (void)alpha; (void)beta; (void)printed; (void)r;
    return MBD_EUNIMPL;
}

int ex03_violation_rate(const mbd_system *s, const mbd_formulation_params *fp,
                        const mbd_ode_params *ode, const double q0[], const double qd0[],
                        double t_end, double c_lo, double c_hi, double *rate)
{
    /* EXERCISE 03.3: your code here (see README.md) */
    (void)s; (void)fp; (void)ode; (void)q0; (void)qd0; (void)t_end; (void)c_lo; (void)c_hi;
    (void)rate;
    return MBD_EUNIMPL;
}
