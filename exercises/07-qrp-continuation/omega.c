/* Exercise 07.4: the continuation update -- the skew Omega = Q^T Q' with the
 * T-T block zero, and the Cayley step of Q (see README.md). */
#include <math.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_vector.h>

#include "ex07.h"

int ex07_omega(const gsl_matrix *Q, const gsl_matrix *R, const gsl_permutation *perm, size_t r,
               const gsl_matrix *Adot, gsl_matrix *Omega)
{
    /* EXERCISE 07.4: your code here (see README.md) */
    (void)Q; (void)R; (void)perm; (void)r; (void)Adot; (void)Omega;
    return MBD_EUNIMPL;
}

int ex07_cayley(const gsl_matrix *Q, const gsl_matrix *Omega, double h, gsl_matrix *Qnew)
{
    /* EXERCISE 07.4: your code here (see README.md) */
    (void)Q; (void)Omega; (void)h; (void)Qnew;
    return MBD_EUNIMPL;
}
