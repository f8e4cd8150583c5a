/* Exercise 07.3: the stop at the horizontal -- the speed that stops the
 * parallelogram at a target angle, and the time it takes (see README.md). */
#include <math.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_integration.h>
#include <gsl/gsl_math.h>

#include "ex07.h"

int ex07_stop_speed(double J, double K, double g, double theta0, double theta1,
                    double *omega0)
{
    /* EXERCISE 07.3: your code here (see README.md) */
    (void)J; (void)K; (void)g; (void)theta0; (void)theta1; (void)omega0;
    return MBD_EUNIMPL;
}

int ex07_stop_time(double J, double K, double g, double theta0, double theta1,
                   double *t_stop)
{
    /* EXERCISE 07.3: your code here (see README.md) */
    (void)J; (void)K; (void)g; (void)theta0; (void)theta1; (void)t_stop;
    return MBD_EUNIMPL;
}
