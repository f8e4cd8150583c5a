/* Exercise 03.5: the listings' corrections, done right (see README.md). */
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

#include "ex03.h"

int ex03_matlab_while(const double v[], size_t n, double tol)
{
    /* EXERCISE 03.5: your code here (see README.md) */
    (void)v; (void)n; (void)tol;
    return MBD_EUNIMPL;
}

/* Given: the minimum-norm correction of a residual r (m values) for the
 * Jacobian Cq (m x n): dx = -Cq^T (Cq Cq^T)^-1 r, added to x (n values).
 * G is m x m scratch, z m values. MBD_ESINGULAR when Cq Cq^T is not
 * positive definite. */
static int min_norm_correct(const gsl_matrix *Cq, const gsl_vector *r, gsl_matrix *G,
                            gsl_vector *z, gsl_vector *x)
{
    gsl_blas_dgemm(CblasNoTrans, CblasTrans, 1.0, Cq, Cq, 0.0, G);
    if (gsl_linalg_cholesky_decomp1(G) != GSL_SUCCESS)
        return MBD_ESINGULAR;
    gsl_linalg_cholesky_solve(G, r, z);
    return gsl_blas_dgemv(CblasTrans, -1.0, Cq, z, 1.0, x);
}

int ex03_project_hook(void *ctx, double t, double y[], int *changed, mbd_failure *fail)
{
    /* EXERCISE 03.5: your code here (see README.md) */
    (void)ctx; (void)t; (void)y; (void)changed; (void)fail; (void)min_norm_correct;
    return MBD_EUNIMPL;
}
