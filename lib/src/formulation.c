#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>

#include "formulation_impl.h"
#include "dense.h"

static const mbd_formulation_ops *ops_of(mbd_formulation_kind kind)
{
    switch (kind) {
    case MBD_FORMULATION_PROJECTION: return &mbd_formulation_projection_ops;
    case MBD_FORMULATION_PENALTY: return &mbd_formulation_penalty_ops;
    case MBD_FORMULATION_ALTERNATE_PENALTY: return &mbd_formulation_alternate_ops;
    case MBD_FORMULATION_INDEX2_PENALTY: return &mbd_formulation_index2_ops;
    case MBD_FORMULATION_EMBEDDING: return &mbd_formulation_embedding_ops;
    case MBD_FORMULATION_NULLSPACE: return &mbd_formulation_nullspace_ops;
    }
    return NULL;
}

const char *mbd_formulation_kind_name(mbd_formulation_kind kind)
{
    const mbd_formulation_ops *ops = ops_of(kind);
    return ops ? ops->kind_name : "unknown";
}

const char *const mbd_formulation_method_names[] = {
    "projection",
    "projection-baumgarte",
    "penalty",
    "penalty-baumgarte",
    "penalty-baumgarte-printed",
    "alternate-penalty",
    "index2-penalty",
    "embedding",
    "nullspace",
    NULL,
};

const char *const mbd_formulation_method_descriptions[] = {
    "Lagrange multipliers through the Schur complement (eqs. 36-49, signs fixed)",
    "projection with Baumgarte's stabilisation gamma - 2 alpha C' - beta^2 C",
    "static penalty (M + mu Cq^T Cq) q'' = F + mu Cq^T gamma (eq. 71')",
    "static penalty with gamma - 2 alpha C' - beta^2 C (eq. 72', the stable sign)",
    "static penalty with eq. (72)'s printed sign gamma + 2 alpha C' + beta^2 C (erratum: unstable)",
    "Goicolea-Garcia Orden: M q'' = F - mu Cq^T C, a stiff spring (eq. 52)",
    "index-2 penalty on (q, v): q' = v - mu Cq^T C, M v' = F - mu Cq^T Cq v (eq. 58; stiff)",
    "coordinate partitioning on (q_i, q_i'): B^T M B q_i'' = B^T (F - M gamma_c), q_d by Newton "
    "(document 001, algorithm E; chapter 06 explains it)",
    "null space by QR on (q, v): T^T M T v' = T^T (F - M beta''), T continued "
    "(document 002; chapter 07 explains it)",
    NULL,
};

int mbd_formulation_method(const char *name, mbd_formulation_params *p)
{
    static const struct {
        mbd_formulation_kind kind;
        int baumgarte, printed;
    } table[] = {
        {MBD_FORMULATION_PROJECTION, 0, 0},        {MBD_FORMULATION_PROJECTION, 1, 0},
        {MBD_FORMULATION_PENALTY, 0, 0},           {MBD_FORMULATION_PENALTY, 1, 0},
        {MBD_FORMULATION_PENALTY, 1, 1},           {MBD_FORMULATION_ALTERNATE_PENALTY, 0, 0},
        {MBD_FORMULATION_INDEX2_PENALTY, 0, 0},    {MBD_FORMULATION_EMBEDDING, 0, 0},
        {MBD_FORMULATION_NULLSPACE, 0, 0},
    };
    if (name == NULL || p == NULL)
        return MBD_EINPUT;
    for (size_t i = 0; mbd_formulation_method_names[i] != NULL; i++) {
        if (strcmp(name, mbd_formulation_method_names[i]) == 0) {
            p->kind = table[i].kind;
            p->baumgarte = table[i].baumgarte;
            p->baumgarte_printed = table[i].printed;
            return GSL_SUCCESS;
        }
    }
    return MBD_EINPUT;
}

int mbd_formulation_is_stiff(const mbd_formulation_params *p)
{
    const mbd_formulation_ops *ops = p ? ops_of(p->kind) : NULL;
    return ops != NULL && ops->stiff;
}

int mbd_formulation_uses_mu(const mbd_formulation_params *p)
{
    const mbd_formulation_ops *ops = p ? ops_of(p->kind) : NULL;
    return ops != NULL && ops->uses_mu;
}

int mbd_formulation_correctable(const mbd_formulation_params *p)
{
    const mbd_formulation_ops *ops = p ? ops_of(p->kind) : NULL;
    return ops != NULL && ops->correctable;
}

int mbd_formulation_stiff_integrator(const mbd_formulation_params *p, mbd_ode_params *ode)
{
    if (!mbd_formulation_is_stiff(p) || (ode->name != NULL && strcmp(ode->name, "msbdf") == 0))
        return 0;
    return mbd_ode_preset("msbdf", ode) == GSL_SUCCESS;
}

void mbd_formulation_free(mbd_formulation *f)
{
    if (f == NULL)
        return;
    if (f->ops->release)
        f->ops->release(f);
    gsl_matrix *mats[] = {f->M, f->L, f->Cq};
    gsl_vector *vecs[] = {f->F, f->b, f->C, f->Cdot, f->gamma, f->q, f->qd, f->work};
    for (size_t i = 0; i < sizeof mats / sizeof mats[0]; i++)
        if (mats[i])
            gsl_matrix_free(mats[i]);
    for (size_t i = 0; i < sizeof vecs / sizeof vecs[0]; i++)
        if (vecs[i])
            gsl_vector_free(vecs[i]);
    mbd_constraints_free(f->cs);
    free(f);
}

mbd_formulation *mbd_formulation_alloc(const mbd_system *s, const mbd_formulation_params *p)
{
    if (p == NULL || mbd_system_validate(s) != GSL_SUCCESS)
        return NULL;
    const mbd_formulation_ops *ops = ops_of(p->kind);
    if (ops == NULL)
        return NULL;
    if (ops->uses_mu && !(p->mu > 0 && isfinite(p->mu)))
        return NULL;
    if (p->baumgarte && !ops->takes_baumgarte)
        return NULL;
    if (p->baumgarte && !(isfinite(p->alpha) && isfinite(p->beta)))
        return NULL;
    if (s->m == 0 && !ops->unconstrained)
        return NULL;   /* nothing to formulate: integrate M q'' = F directly */

    mbd_formulation *f = calloc(1, sizeof *f);
    if (f == NULL)
        return NULL;
    f->s = s;
    f->p = *p;
    f->ops = ops;
    f->n = s->n;
    f->m = s->m;
    const size_t n = s->n, m = s->m;
    if (m > 0) {   /* without constraints (a kind that accepts m = 0) these stay NULL */
        f->cs = mbd_constraints_alloc(n, m);
        f->Cq = gsl_matrix_alloc(m, n);
        f->C = gsl_vector_alloc(m);
        f->Cdot = gsl_vector_alloc(m);
        f->gamma = gsl_vector_alloc(m);
    }
    f->M = gsl_matrix_alloc(n, n);
    f->L = gsl_matrix_alloc(n, n);
    f->F = gsl_vector_alloc(n);
    f->b = gsl_vector_alloc(n);
    f->q = gsl_vector_alloc(n);
    f->qd = gsl_vector_alloc(n);
    f->work = gsl_vector_alloc(3 * n);
    if ((m > 0 && (!f->cs || !f->Cq || !f->C || !f->Cdot || !f->gamma)) || !f->M || !f->L
        || !f->F || !f->b || !f->q || !f->qd || !f->work) {
        mbd_formulation_free(f);
        return NULL;
    }
    mbd_failure_clear(&f->fail);
    if (ops->init && ops->init(f) != GSL_SUCCESS) {
        mbd_formulation_free(f);
        return NULL;
    }
    return f;
}

const mbd_system *mbd_formulation_system(const mbd_formulation *f) { return f->s; }
const mbd_formulation_params *mbd_formulation_get_params(const mbd_formulation *f)
{
    return &f->p;
}
size_t mbd_formulation_dim(const mbd_formulation *f)
{
    return f->ops->dim ? f->ops->dim(f) : 2 * f->n;
}
const mbd_failure *mbd_formulation_failure(const mbd_formulation *f) { return &f->fail; }

int mbd_formulation_model_failed(mbd_formulation *f, int st, double t, const char *what)
{
    return mbd_failure_set(&f->fail, st, t, "the model's %s failed: %s", what, mbd_strerror(st));
}

int mbd_formulation_solver_failed(mbd_formulation *f, int st)
{
    f->fail = *mbd_constraints_failure(f->cs);
    if (f->fail.status == GSL_SUCCESS)
        f->fail.status = st;
    return st;
}

int mbd_formulation_check_finite(mbd_formulation *f, double t, const gsl_vector *v,
                                 const char *what)
{
    for (size_t i = 0; i < v->size; i++)
        if (!isfinite(gsl_vector_get(v, i)))
            return mbd_failure_set(&f->fail, MBD_ENONFINITE, t, "%s[%zu] is not finite", what, i);
    return GSL_SUCCESS;
}

int mbd_formulation_evaluate(mbd_formulation *f, double t, const gsl_vector *q,
                             const gsl_vector *qd, int need_gamma)
{
    const mbd_system *s = f->s;
    int st = s->mass(s, t, q, f->M);
    if (st != GSL_SUCCESS)
        return mbd_formulation_model_failed(f, st, t, "mass matrix");
    st = s->force(s, t, q, qd, f->F);
    if (st != GSL_SUCCESS)
        return mbd_formulation_model_failed(f, st, t, "force");
    if (f->m == 0)
        return GSL_SUCCESS;   /* no constraints: no C_q, no gamma */
    st = s->jacobian(s, t, q, f->Cq);
    if (st != GSL_SUCCESS)
        return mbd_formulation_model_failed(f, st, t, "constraint Jacobian");
    if (need_gamma) {
        st = s->gamma(s, t, q, qd, f->gamma);
        if (st != GSL_SUCCESS)
            return mbd_formulation_model_failed(f, st, t, "gamma");
    }
    return GSL_SUCCESS;
}

int mbd_formulation_violation(mbd_formulation *f, double t, const gsl_vector *q,
                              const gsl_vector *qd)
{
    const mbd_system *s = f->s;
    if (f->m == 0)
        return GSL_SUCCESS;   /* nothing to violate */
    int st = s->constraint(s, t, q, f->C);
    if (st != GSL_SUCCESS)
        return mbd_formulation_model_failed(f, st, t, "constraint");
    if (s->constraint_t) {
        st = s->constraint_t(s, t, q, f->Cdot);
        if (st != GSL_SUCCESS)
            return mbd_formulation_model_failed(f, st, t, "constraint time derivative");
    }
    /* C' = C_t + C_q q' (C_q q' alone for a scleronomic model) */
    const double beta = s->constraint_t ? 1.0 : 0.0;
    if (qd != NULL)
        mbd_dense_gemv(CblasNoTrans, 1.0, f->Cq, qd, beta, f->Cdot);
    else if (!s->constraint_t)
        gsl_vector_set_zero(f->Cdot);
    return GSL_SUCCESS;
}

int mbd_formulation_evaluate_gamma(mbd_formulation *f, double t, const gsl_vector *q,
                                   const gsl_vector *qd)
{
    int st = mbd_formulation_evaluate(f, t, q, qd, 1);
    if (st != GSL_SUCCESS || !f->p.baumgarte)
        return st;
    st = mbd_formulation_violation(f, t, q, qd);
    if (st == GSL_SUCCESS)
        mbd_formulation_baumgarte(f);
    return st;
}

/* >> gamma-baumgarte */
/* gamma_B = gamma - 2 alpha C' - beta^2 C, or with the printed sign
 * gamma + 2 alpha C' + beta^2 C (document 000, eq. 72 and listing A.2.b). */
void mbd_formulation_baumgarte(mbd_formulation *f)
{
    const double sign = f->p.baumgarte_printed ? 1.0 : -1.0;
    gsl_blas_daxpy(sign * 2.0 * f->p.alpha, f->Cdot, f->gamma);
    gsl_blas_daxpy(sign * f->p.beta * f->p.beta, f->C, f->gamma);
}
/* << gamma-baumgarte */

int mbd_formulation_accel(mbd_formulation *f, double t, const gsl_vector *q,
                          const gsl_vector *qd, gsl_vector *qdd, gsl_vector *lambda)
{
    if (f->ops->accel == NULL)
        return mbd_failure_set(&f->fail, GSL_EINVAL, t, "the %s has no accelerations of (q, q')",
                               f->ops->kind_name);
    int st = f->ops->accel(f, t, q, qd, qdd, lambda);
    if (st != GSL_SUCCESS)
        return st;
    return mbd_formulation_check_finite(f, t, qdd, "q''");
}

int mbd_formulation_rhs(double t, const double y[], double dydt[], void *formulation)
{
    mbd_formulation *f = formulation;
    /* GSL's drivers treat any status but GSL_EBADFUNC as "try a smaller step";
     * a singular matrix or a failed model is not cured by that. */
    if (f->ops->rhs)
        return f->ops->rhs(f, t, y, dydt);
    const size_t n = f->n;
    gsl_vector_const_view q = gsl_vector_const_view_array(y, n);
    gsl_vector_const_view qd = gsl_vector_const_view_array(y + n, n);
    gsl_vector_view qdd = gsl_vector_view_array(dydt + n, n);
    memcpy(dydt, y + n, n * sizeof *dydt);
    return mbd_formulation_accel(f, t, &q.vector, &qd.vector, &qdd.vector, NULL);
}

int mbd_formulation_pack(mbd_formulation *f, double t, const double q0[], const double qd0[],
                         double y[])
{
    mbd_failure_clear(&f->fail);   /* a new run starts */
    if (f->ops->pack)
        return f->ops->pack(f, t, q0, qd0, y);
    memcpy(y, q0, f->n * sizeof *y);
    memcpy(y + f->n, qd0, f->n * sizeof *y);
    return GSL_SUCCESS;
}

int mbd_formulation_unpack(mbd_formulation *f, double t, const double y[], double q[],
                           double qd[])
{
    if (f->ops->unpack)
        return f->ops->unpack(f, t, y, q, qd);
    /* loops: n is a handful at every output, where a memcpy call costs more */
    const size_t n = f->n;
    if (q != NULL)
        for (size_t i = 0; i < n; i++)
            q[i] = y[i];
    if (qd != NULL)
        for (size_t i = 0; i < n; i++)
            qd[i] = y[n + i];
    return GSL_SUCCESS;
}

int mbd_formulation_post_step(mbd_formulation *f, double t, double y[], int *changed)
{
    *changed = 0;
    return f->ops->post_step ? f->ops->post_step(f, t, y, changed) : GSL_SUCCESS;
}

int mbd_formulation_measure(mbd_formulation *f, double t, const double y[], double *C_norm,
                            double *Cdot_norm, double *E)
{
    int st = mbd_formulation_unpack(f, t, y, f->q->data, f->qd->data);
    if (st != GSL_SUCCESS)
        return st;
    return mbd_formulation_measure_q(f, t, f->q->data, f->qd->data, C_norm, Cdot_norm, E);
}

/* The Euclidean norm of a measured violation: the root of the sum of
 * squares, and the scaled sum (mbd_dense_nrm2) only where that would
 * overflow or lose digits to underflow. Measures are reported, never
 * stepped on, so they need no bit-equality with GSL's dnrm2 (which scales
 * always, at a division per entry): the two differ by an ulp or so. */
static double measured_norm(const gsl_vector *v)
{
    if (v->size == 1)
        return fabs(v->data[0]);   /* what the root of x^2 gives, without the root */
    double ss = 0.0;
    for (size_t i = 0; i < v->size; i++) {
        const double x = v->data[i * v->stride];
        ss += x * x;
    }
    if (ss > 1e-280 && ss < 1e280)
        return sqrt(ss);
    return ss == 0.0 ? 0.0 : mbd_dense_nrm2(v);
}

int mbd_formulation_measure_q(mbd_formulation *f, double t, const double q[], const double qd[],
                              double *C_norm, double *Cdot_norm, double *E)
{
    /* the model reads the caller's arrays through views: no copies */
    gsl_vector_const_view qv = mbd_const_view(q, f->n);
    gsl_vector_const_view qdv = mbd_const_view(qd, f->n);
    int st = GSL_SUCCESS;
    if (f->m > 0) {
        st = f->s->jacobian(f->s, t, &qv.vector, f->Cq);
        if (st != GSL_SUCCESS)
            return mbd_formulation_model_failed(f, st, t, "constraint Jacobian");
        st = mbd_formulation_violation(f, t, &qv.vector, &qdv.vector);
        if (st != GSL_SUCCESS)
            return st;
    }
    if (C_norm)
        *C_norm = f->m > 0 ? measured_norm(f->C) : 0.0;
    if (Cdot_norm)
        *Cdot_norm = f->m > 0 ? measured_norm(f->Cdot) : 0.0;
    if (E) {
        *E = NAN;
        if (f->s->energy) {
            st = f->s->energy(f->s, t, &qv.vector, &qdv.vector, E);
            if (st != GSL_SUCCESS)
                return mbd_formulation_model_failed(f, st, t, "energy");
        }
    }
    return GSL_SUCCESS;
}

int mbd_formulation_condition(mbd_formulation *f, double t, const double y[], double *cond)
{
    int st = mbd_formulation_unpack(f, t, y, f->q->data, f->qd->data);
    if (st != GSL_SUCCESS)
        return st;
    /* the matrices the kinds solve with need M and C_q only */
    const mbd_system *s = f->s;
    st = s->mass(s, t, f->q, f->M);
    if (st != GSL_SUCCESS)
        return mbd_formulation_model_failed(f, st, t, "mass matrix");
    st = f->m > 0 ? s->jacobian(s, t, f->q, f->Cq) : GSL_SUCCESS;
    if (st != GSL_SUCCESS)
        return mbd_formulation_model_failed(f, st, t, "constraint Jacobian");
    *cond = INFINITY;
    return f->ops->condition(f, t, cond);
}

/* The condition number of the factored mass matrix (alternate and index-2
 * penalties); shared by the kinds that solve with M alone. */
int mbd_formulation_mass_condition(mbd_formulation *f, double t, double *cond)
{
    mbd_constraints_set_mass(f->cs, t, f->M);
    return mbd_constraints_mass_condition(f->cs, cond);
}
