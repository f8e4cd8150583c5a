/* Exercise 09.1: the basic constraints CD, D, DP1 and DP2 -- value, nu,
 * gamma and the two bodies' Jacobian blocks (see README.md). */
#include <math.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "ex09.h"

int ex09_basic_row(const ex09_basic *bc, const ex09_state *bi, const ex09_state *bj,
                   const double f[3], ex09_row *row)
{
    /* EXERCISE 09.1: your code here (see README.md) */
    (void)bc; (void)bi; (void)bj; (void)f; (void)row;
    return MBD_EUNIMPL;
}
