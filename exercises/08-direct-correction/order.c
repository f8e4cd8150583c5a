/* Exercise 08.3: the integrator's order from the drift it leaves without
 * correction, by least squares on log-log data (see README.md). */
#include <math.h>

#include <gsl/gsl_errno.h>

#include "ex08.h"

int ex08_order_fit(const double h[], const double v[], size_t count, double v_floor,
                   ex08_fit *fit)
{
    /* EXERCISE 08.3: your code here (see README.md) */
    (void)h; (void)v; (void)count; (void)v_floor; (void)fit;
    return MBD_EUNIMPL;
}

int ex08_step_for(const ex08_fit *fit, double target, double *h)
{
    /* EXERCISE 08.3: your code here (see README.md) */
    (void)fit; (void)target; (void)h;
    return MBD_EUNIMPL;
}
