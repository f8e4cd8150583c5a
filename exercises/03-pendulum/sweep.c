/* Exercise 03.4: the penalty-factor study (see README.md). */
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_errno.h>

#include "ex03.h"
#include "mbd/simulate.h"

int ex03_penalty_sweep(const mbd_system *s, const char *method, const mbd_ode_params *ode,
                       const double mu[], size_t n, const double q0[], const double qd0[],
                       double t_end, double max_C[], long steps[])
{
    /* EXERCISE 03.4: your code here (see README.md) */
    (void)s; (void)method; (void)ode; (void)mu; (void)n; (void)q0; (void)qd0; (void)t_end;
    (void)max_C; (void)steps;
    return MBD_EUNIMPL;
}

int ex03_loglog_slope(const double x[], const double y[], size_t n, double *slope)
{
    /* EXERCISE 03.4: your code here (see README.md) */
    (void)x; (void)y; (void)n; (void)slope;
    return MBD_EUNIMPL;
}
