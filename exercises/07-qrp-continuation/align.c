/* Exercise 07.2: the traditional and the continued basis -- the alignment of
 * App. A and the jump rule (see README.md). */
#include <math.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_vector.h>

#include "ex07.h"

int ex07_align(const gsl_matrix *Tref, gsl_matrix *T, double *sigma_min)
{
    /* EXERCISE 07.2: your code here (see README.md) */
    (void)Tref; (void)T; (void)sigma_min;
    return MBD_EUNIMPL;
}

int ex07_jump(const gsl_matrix *T_old, const gsl_matrix *T_new, int *jump)
{
    /* EXERCISE 07.2: your code here (see README.md) */
    (void)T_old; (void)T_new; (void)jump;
    return MBD_EUNIMPL;
}

int ex07_count_jumps(const gsl_matrix *const T[], size_t count, int continued, size_t *jumps)
{
    /* EXERCISE 07.2: your code here (see README.md) */
    (void)T; (void)count; (void)continued; (void)jumps;
    return MBD_EUNIMPL;
}
