/* linsolve_klu.c -- the sparse kind of linsolve.h through SuiteSparse's
 * KLU. NOT WRITTEN YET (branch wip/ch09-dynamics): the sparse kind is
 * refused until it is. */
#include <gsl/gsl_errno.h>

#include "linsolve_impl.h"

int mbd_linsolve_sparse_setup(mbd_linsolve *ls)
{
    (void)ls;
    return GSL_EUNIMPL;
}

int mbd_linsolve_sparse_factor(mbd_linsolve *ls, const double *values, int reuse)
{
    (void)ls, (void)values, (void)reuse;
    return GSL_EUNIMPL;
}

int mbd_linsolve_sparse_solve(mbd_linsolve *ls, double *b)
{
    (void)ls, (void)b;
    return GSL_EUNIMPL;
}

void mbd_linsolve_sparse_free(mbd_linsolve *ls)
{
    (void)ls;
}
