/* Exercise 09.6: the Newton matrix of a BDF step in acceleration form, the
 * document's quasi-Newton matrix and the full one (see README.md). */
#include <math.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>

#include "ex09.h"

int ex09_newton_matrix(const mbd_system *s, mbd_spatial_newton kind, double t, double h,
                       double beta0, const gsl_vector *aq, const gsl_vector *av,
                       const gsl_vector *qdd, const gsl_vector *lambda, gsl_matrix *J)
{
    /* EXERCISE 09.6: your code here (see README.md) */
    (void)s; (void)kind; (void)t; (void)h; (void)beta0; (void)aq; (void)av; (void)qdd;
    (void)lambda; (void)J;
    return MBD_EUNIMPL;
}
