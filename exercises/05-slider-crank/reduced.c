/* Exercise 05.2: the reduced equation on the branch, and the fold time (see README.md). */
#include <math.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_math.h>
#include <gsl/gsl_odeiv2.h>

#include "ex05.h"

int ex05_reduced_accel(const ex05_params *p, int consistent, double th1, double th1d,
                       double *th1dd)
{
    /* EXERCISE 05.2: your code here (see README.md) */
    (void)p; (void)consistent; (void)th1; (void)th1d; (void)th1dd;
    return MBD_EUNIMPL;
}

/* Given: the reduced equation as a first-order system y = (th1, th1') with
 * gsl_odeiv2's signature, for gsl_odeiv2_driver (params: a reduced_params). */
typedef struct {
    const ex05_params *p;
    int consistent;
} reduced_params;

static int reduced_rhs(double t, const double y[], double dydt[], void *params)
{
    (void)t;
    const reduced_params *r = params;
    dydt[0] = y[1];
    return ex05_reduced_accel(r->p, r->consistent, y[0], y[1], &dydt[1]);
}

int ex05_fold_time(const ex05_params *p, int consistent, double th10, double t_max,
                   double *t_fold)
{
    /* EXERCISE 05.2: your code here (see README.md) */
    (void)p; (void)consistent; (void)th10; (void)t_max; (void)t_fold; (void)reduced_rhs;
    return MBD_EUNIMPL;
}
