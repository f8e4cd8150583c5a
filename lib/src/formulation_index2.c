/* The index-2 penalty (document 000, eq. 58): a first-order form whose
 * state y = [q; v] carries a velocity v that is not dq/dt. */
#include <string.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>

#include "formulation_impl.h"
#include "dense.h"

/* >> index2-penalty */
/* On the state (q, v):
 *     q' = v - mu C_q^T C,        M v' = F(t, q, q') - mu C_q^T (C_q v + C_t).
 * The first row pulls the positions back onto C = 0 at the rate mu |C_q|^2,
 * the second damps the velocity-level violation of v at the rate
 * mu |C_q|^2 / m; both are stiff for large mu. The velocity penalised is the
 * carried v: penalising the kinematic q' instead (C' = C_q q' + C_t) leaves
 * v + mu C_q^T C free to drift under a steady load, and the constraint
 * violation then grows linearly in time. */
static int kinematic_velocity(mbd_formulation *f, double t, const gsl_vector *q,
                              const gsl_vector *v, gsl_vector *qd)
{
    const mbd_system *s = f->s;
    int st = s->jacobian(s, t, q, f->Cq);
    if (st != GSL_SUCCESS)
        return mbd_formulation_model_failed(f, st, t, "constraint Jacobian");
    st = s->constraint(s, t, q, f->C);
    if (st != GSL_SUCCESS)
        return mbd_formulation_model_failed(f, st, t, "constraint");
    gsl_vector_memcpy(qd, v);
    return mbd_dense_gemv(CblasTrans, -f->p.mu, f->Cq, f->C, 1.0, qd);
}

static int rhs(mbd_formulation *f, double t, const double y[], double dydt[])
{
    const size_t n = f->n;
    gsl_vector_const_view q = gsl_vector_const_view_array(y, n);
    gsl_vector_const_view v = gsl_vector_const_view_array(y + n, n);
    gsl_vector_view qd = gsl_vector_view_array(dydt, n);
    gsl_vector_view vd = gsl_vector_view_array(dydt + n, n);
    int st = kinematic_velocity(f, t, &q.vector, &v.vector, &qd.vector);
    if (st != GSL_SUCCESS)
        return st;
    st = mbd_formulation_evaluate(f, t, &q.vector, &qd.vector, 0);
    if (st != GSL_SUCCESS)
        return st;
    st = mbd_formulation_violation(f, t, &q.vector, &v.vector);   /* C_q v + C_t */
    if (st != GSL_SUCCESS)
        return st;
    st = mbd_constraints_set_mass(f->cs, t, f->M);
    if (st != GSL_SUCCESS)
        return mbd_formulation_solver_failed(f, st);
    gsl_vector_memcpy(&vd.vector, f->F);
    mbd_dense_gemv(CblasTrans, -f->p.mu, f->Cq, f->Cdot, 1.0, &vd.vector);
    mbd_constraints_mass_solve(f->cs, &vd.vector, &vd.vector);
    return mbd_formulation_check_finite(f, t, &vd.vector, "v'");
}
/* << index2-penalty */

/* v0 = q'0 + mu C_q^T C(q0), so that the kinematic q' starts at q'0 */
static int pack(mbd_formulation *f, double t, const double q0[], const double qd0[], double y[])
{
    const size_t n = f->n;
    memcpy(y, q0, n * sizeof *y);
    memcpy(y + n, qd0, n * sizeof *y);
    gsl_vector_const_view q = gsl_vector_const_view_array(q0, n);
    int st = f->s->jacobian(f->s, t, &q.vector, f->Cq);
    if (st != GSL_SUCCESS)
        return mbd_formulation_model_failed(f, st, t, "constraint Jacobian");
    st = f->s->constraint(f->s, t, &q.vector, f->C);
    if (st != GSL_SUCCESS)
        return mbd_formulation_model_failed(f, st, t, "constraint");
    gsl_vector_view v = gsl_vector_view_array(y + n, n);
    return mbd_dense_gemv(CblasTrans, f->p.mu, f->Cq, f->C, 1.0, &v.vector);
}

static int unpack(mbd_formulation *f, double t, const double y[], double q[], double qd[])
{
    const size_t n = f->n;
    if (q != NULL)
        memcpy(q, y, n * sizeof *q);
    if (qd == NULL)
        return GSL_SUCCESS;
    gsl_vector_const_view qv = gsl_vector_const_view_array(y, n);
    gsl_vector_const_view v = gsl_vector_const_view_array(y + n, n);
    gsl_vector_view out = gsl_vector_view_array(qd, n);
    return kinematic_velocity(f, t, &qv.vector, &v.vector, &out.vector);
}

const mbd_formulation_ops mbd_formulation_index2_ops = {
    .kind_name = "index-2 penalty",
    .stiff = 1,
    .uses_mu = 1,
    .pack = pack,
    .unpack = unpack,
    .rhs = rhs,
    .condition = mbd_formulation_mass_condition,
};
