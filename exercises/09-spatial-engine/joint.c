/* Exercise 09.2: a joint's rows from basic constraints -- spherical,
 * revolute, cylindrical, universal (see README.md). */
#include <math.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "ex09.h"

int ex09_joint_rows(const ex09_joint *jt, const ex09_state *bi, const ex09_state *bj,
                    ex09_basic_fn basic, ex09_row rows[], size_t *count)
{
    /* EXERCISE 09.2: your code here (see README.md) */
    (void)jt; (void)bi; (void)bj; (void)basic; (void)rows; (void)count;
    return MBD_EUNIMPL;
}
