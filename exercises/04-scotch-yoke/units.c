/* Exercise 04.2: Table 3's units, and what the loads do (see README.md). */
#include <math.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_math.h>

#include "ex04.h"

int ex04_from_table(double m1, double m2, double b, int weights, ex04_params *p)
{
    /* EXERCISE 04.2: your code here (see README.md) */
    (void)m1; (void)m2; (void)b; (void)weights; (void)p;
    return MBD_EUNIMPL;
}

int ex04_loads_at(const ex04_params *p, double theta1, ex04_loads *out)
{
    /* EXERCISE 04.2: your code here (see README.md) */
    (void)p; (void)theta1; (void)out;
    return MBD_EUNIMPL;
}
