/* The static (acceleration-level) penalty (document 000, eq. 71'), state
 * y = [q; q']. */
#include <math.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>

#include "formulation_impl.h"
#include "dense.h"

/* A = M + mu C_q^T C_q into f->L */
static void penalty_matrix(mbd_formulation *f)
{
    gsl_matrix_memcpy(f->L, f->M);
    mbd_dense_gemm(CblasTrans, CblasNoTrans, f->p.mu, f->Cq, f->Cq, 1.0, f->L);
}

/* >> static-penalty */
/* A = M + mu C_q^T C_q, b = F + mu C_q^T gamma_B, A q'' = b. No multiplier
 * is solved for; the one the penalty implies is mu (C_q q'' - gamma_B), which
 * tends to the projection's as mu grows. */
static int accel(mbd_formulation *f, double t, const gsl_vector *q, const gsl_vector *qd,
                 gsl_vector *qdd, gsl_vector *lambda)
{
    int st = mbd_formulation_evaluate_gamma(f, t, q, qd);
    if (st != GSL_SUCCESS)
        return st;
    const double mu = f->p.mu;
    penalty_matrix(f);                                             /* A */
    if (mbd_dense_cholesky(f->L) != GSL_SUCCESS)
        return mbd_failure_set(&f->fail, MBD_ESINGULAR, t,
                               "M + mu C_q^T C_q is not positive definite");
    gsl_vector_memcpy(f->b, f->F);
    mbd_dense_gemv(CblasTrans, mu, f->Cq, f->gamma, 1.0, f->b);   /* b */
    mbd_dense_cholesky_solve(f->L, f->b, qdd);
    if (lambda) {
        gsl_vector_memcpy(lambda, f->gamma);
        mbd_dense_gemv(CblasNoTrans, mu, f->Cq, qdd, -mu, lambda); /* mu (C_q q'' - gamma_B) */
    }
    return GSL_SUCCESS;
}
/* << static-penalty */

/* the condition number of A = M + mu C_q^T C_q */
static int condition(mbd_formulation *f, double t, double *cond)
{
    (void)t;
    penalty_matrix(f);
    if (mbd_dense_cholesky(f->L) != GSL_SUCCESS)
        return GSL_SUCCESS;   /* INFINITY: not positive definite */
    double rcond = 0.0;
    if (mbd_constraints_cholesky_rcond(f->L, &rcond, f->work) == GSL_SUCCESS && rcond > 0)
        *cond = 1.0 / rcond;
    return GSL_SUCCESS;
}

const mbd_formulation_ops mbd_formulation_penalty_ops = {
    .kind_name = "penalty",
    .correctable = 1,
    .uses_mu = 1,
    .takes_baumgarte = 1,
    .accel = accel,
    .condition = condition,
};
