/* The projection method (document 000, eqs. 36-49 with the signs fixed):
 * Lagrange multipliers through the Schur complement, state y = [q; q']. */
#include <math.h>

#include <gsl/gsl_errno.h>

#include "formulation_impl.h"

/* >> projection */
/* With X = M^-1 C_q^T and the Schur complement S = C_q X, solve
 * S lambda = C_q M^-1 F - gamma_B, then q'' = M^-1 F - X lambda, i.e.
 * M q'' = F - C_q^T lambda. The linear algebra is the constraint solver's
 * (constraints.h: mbd_constraints_accel). */
static int accel(mbd_formulation *f, double t, const gsl_vector *q, const gsl_vector *qd,
                 gsl_vector *qdd, gsl_vector *lambda)
{
    int st = mbd_formulation_evaluate_gamma(f, t, q, qd);
    if (st != GSL_SUCCESS)
        return st;
    st = mbd_constraints_set_mass(f->cs, t, f->M);
    if (st == GSL_SUCCESS)
        st = mbd_constraints_accel(f->cs, t, f->Cq, f->F, f->gamma, qdd, lambda);
    return st == GSL_SUCCESS ? st : mbd_formulation_solver_failed(f, st);
}
/* << projection */

/* the condition number of S */
static int condition(mbd_formulation *f, double t, double *cond)
{
    mbd_constraints_set_mass(f->cs, t, f->M);
    mbd_constraints_schur(f->cs, t, f->Cq, 1, "the Schur complement C_q M^-1 C_q^T");
    return mbd_constraints_schur_condition(f->cs, cond);
}

const mbd_formulation_ops mbd_formulation_projection_ops = {
    .kind_name = "projection",
    .correctable = 1,
    .takes_baumgarte = 1,
    .accel = accel,
    .condition = condition,
};
