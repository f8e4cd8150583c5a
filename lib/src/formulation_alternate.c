/* The alternate penalty of Goicolea and Garcia Orden (document 000, eq. 52):
 * a stiff spring on the constraint, state y = [q; q']. */
#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>

#include "formulation_impl.h"
#include "dense.h"

/* >> alternate-penalty */
/* M q'' = F - mu C_q^T C, a spring of stiffness mu on the constraint itself;
 * its multiplier is mu C. */
static int accel(mbd_formulation *f, double t, const gsl_vector *q, const gsl_vector *qd,
                 gsl_vector *qdd, gsl_vector *lambda)
{
    int st = mbd_formulation_evaluate(f, t, q, qd, 0);
    if (st == GSL_SUCCESS)
        st = mbd_formulation_violation(f, t, q, qd);
    if (st != GSL_SUCCESS)
        return st;
    st = mbd_constraints_set_mass(f->cs, t, f->M);
    if (st != GSL_SUCCESS)
        return mbd_formulation_solver_failed(f, st);
    gsl_vector_memcpy(qdd, f->F);
    mbd_dense_gemv(CblasTrans, -f->p.mu, f->Cq, f->C, 1.0, qdd);
    mbd_constraints_mass_solve(f->cs, qdd, qdd);
    if (lambda) {
        gsl_vector_memcpy(lambda, f->C);
        gsl_vector_scale(lambda, f->p.mu);
    }
    return GSL_SUCCESS;
}
/* << alternate-penalty */

const mbd_formulation_ops mbd_formulation_alternate_ops = {
    .kind_name = "alternate penalty",
    .correctable = 1,
    .uses_mu = 1,
    .accel = accel,
    .condition = mbd_formulation_mass_condition,
};
