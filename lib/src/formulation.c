#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>

#include "mbd/formulation.h"

struct mbd_formulation {
    const mbd_system *s;
    mbd_formulation_params p;
    size_t n, m;
    gsl_matrix *M, *L;          /* mass matrix and a Cholesky factor (of M, A or S) */
    gsl_matrix *Cq;             /* m x n */
    gsl_matrix *X;              /* n x m: M^-1 C_q^T */
    gsl_matrix *S, *LS;         /* m x m: Schur complement and its factor */
    gsl_vector *F, *b, *MinvF;  /* n */
    gsl_vector *C, *Ct, *Cdot, *gamma, *r, *lam;   /* m */
    gsl_vector *q, *qd, *qdd;   /* n: views of the caller's arrays are copied here */
    gsl_vector *work;           /* 3 max(n, m): rcond */
    mbd_failure fail;
};

static const char *const kind_names[] = {"projection", "penalty", "alternate penalty",
                                         "index-2 penalty"};

const char *mbd_formulation_kind_name(mbd_formulation_kind kind)
{
    if ((unsigned)kind < sizeof kind_names / sizeof kind_names[0])
        return kind_names[kind];
    return "unknown";
}

const char *const mbd_formulation_method_names[] = {
    "projection",
    "projection-baumgarte",
    "penalty",
    "penalty-baumgarte",
    "penalty-baumgarte-printed",
    "alternate-penalty",
    "index2-penalty",
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
        {MBD_FORMULATION_INDEX2_PENALTY, 0, 0},
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
    return p != NULL && p->kind == MBD_FORMULATION_INDEX2_PENALTY;
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
    gsl_matrix *mats[] = {f->M, f->L, f->Cq, f->X, f->S, f->LS};
    gsl_vector *vecs[] = {f->F, f->b, f->MinvF, f->C, f->Ct, f->Cdot, f->gamma,
                          f->r, f->lam, f->q, f->qd, f->qdd, f->work};
    for (size_t i = 0; i < sizeof mats / sizeof mats[0]; i++)
        if (mats[i])
            gsl_matrix_free(mats[i]);
    for (size_t i = 0; i < sizeof vecs / sizeof vecs[0]; i++)
        if (vecs[i])
            gsl_vector_free(vecs[i]);
    free(f);
}

mbd_formulation *mbd_formulation_alloc(const mbd_system *s, const mbd_formulation_params *p)
{
    if (p == NULL || mbd_system_validate(s) != GSL_SUCCESS)
        return NULL;
    if ((unsigned)p->kind > MBD_FORMULATION_INDEX2_PENALTY)
        return NULL;
    if (p->kind != MBD_FORMULATION_PROJECTION && !(p->mu > 0 && isfinite(p->mu)))
        return NULL;
    if (p->baumgarte && p->kind != MBD_FORMULATION_PROJECTION && p->kind != MBD_FORMULATION_PENALTY)
        return NULL;
    if (p->baumgarte && !(isfinite(p->alpha) && isfinite(p->beta)))
        return NULL;
    if (s->m == 0)
        return NULL;   /* nothing to formulate: integrate M q'' = F directly */

    mbd_formulation *f = calloc(1, sizeof *f);
    if (f == NULL)
        return NULL;
    f->s = s;
    f->p = *p;
    f->n = s->n;
    f->m = s->m;
    size_t n = s->n, m = s->m, big = n > m ? n : m;
    f->M = gsl_matrix_alloc(n, n);
    f->L = gsl_matrix_alloc(n, n);
    f->Cq = gsl_matrix_alloc(m, n);
    f->X = gsl_matrix_alloc(n, m);
    f->S = gsl_matrix_alloc(m, m);
    f->LS = gsl_matrix_alloc(m, m);
    f->F = gsl_vector_alloc(n);
    f->b = gsl_vector_alloc(n);
    f->MinvF = gsl_vector_alloc(n);
    f->C = gsl_vector_alloc(m);
    f->Ct = gsl_vector_alloc(m);
    f->Cdot = gsl_vector_alloc(m);
    f->gamma = gsl_vector_alloc(m);
    f->r = gsl_vector_alloc(m);
    f->lam = gsl_vector_alloc(m);
    f->q = gsl_vector_alloc(n);
    f->qd = gsl_vector_alloc(n);
    f->qdd = gsl_vector_alloc(n);
    f->work = gsl_vector_alloc(3 * big);
    if (!f->M || !f->L || !f->Cq || !f->X || !f->S || !f->LS || !f->F || !f->b || !f->MinvF
        || !f->C || !f->Ct || !f->Cdot || !f->gamma || !f->r || !f->lam || !f->q || !f->qd
        || !f->qdd || !f->work) {
        mbd_formulation_free(f);
        return NULL;
    }
    mbd_failure_clear(&f->fail);
    return f;
}

const mbd_system *mbd_formulation_system(const mbd_formulation *f) { return f->s; }
const mbd_formulation_params *mbd_formulation_get_params(const mbd_formulation *f)
{
    return &f->p;
}
size_t mbd_formulation_dim(const mbd_formulation *f) { return 2 * f->n; }
const mbd_failure *mbd_formulation_failure(const mbd_formulation *f) { return &f->fail; }

/* A model callback failed: say which. */
static int model_failed(mbd_formulation *f, int st, double t, const char *what)
{
    return mbd_failure_set(&f->fail, st, t, "the model's %s failed: %s", what, mbd_strerror(st));
}

static int check_finite(mbd_formulation *f, double t, const gsl_vector *v, const char *what)
{
    for (size_t i = 0; i < v->size; i++)
        if (!isfinite(gsl_vector_get(v, i)))
            return mbd_failure_set(&f->fail, MBD_ENONFINITE, t, "%s[%zu] is not finite", what, i);
    return GSL_SUCCESS;
}

/* Cholesky factor of A into L; MBD_ESINGULAR with `what` named when A is not
 * (numerically) positive definite. */
static int factor(mbd_formulation *f, double t, const gsl_matrix *A, gsl_matrix *L,
                  const char *what)
{
    gsl_matrix_memcpy(L, A);
    int st = gsl_linalg_cholesky_decomp1(L);
    if (st != GSL_SUCCESS)
        return mbd_failure_set(&f->fail, MBD_ESINGULAR, t, "%s is not positive definite", what);
    double rcond = 0.0;
    gsl_vector_view w = gsl_vector_subvector(f->work, 0, 3 * A->size1);
    st = gsl_linalg_cholesky_rcond(L, &rcond, &w.vector);
    if (st != GSL_SUCCESS || !(rcond > 4 * DBL_EPSILON))
        return mbd_failure_set(&f->fail, MBD_ESINGULAR, t,
                               "%s is singular to working precision (condition number %.3g)", what,
                               rcond > 0 ? 1.0 / rcond : INFINITY);
    return GSL_SUCCESS;
}

/* M, F at (t, q, q'), and C_q with gamma. */
static int evaluate(mbd_formulation *f, double t, const gsl_vector *q, const gsl_vector *qd,
                    int need_gamma)
{
    const mbd_system *s = f->s;
    int st = s->mass(s, t, q, f->M);
    if (st != GSL_SUCCESS)
        return model_failed(f, st, t, "mass matrix");
    st = s->force(s, t, q, qd, f->F);
    if (st != GSL_SUCCESS)
        return model_failed(f, st, t, "force");
    st = s->jacobian(s, t, q, f->Cq);
    if (st != GSL_SUCCESS)
        return model_failed(f, st, t, "constraint Jacobian");
    if (need_gamma) {
        st = s->gamma(s, t, q, qd, f->gamma);
        if (st != GSL_SUCCESS)
            return model_failed(f, st, t, "gamma");
    }
    return GSL_SUCCESS;
}

/* C and C' = C_q q' + C_t (C_q already evaluated). */
static int evaluate_violation(mbd_formulation *f, double t, const gsl_vector *q,
                              const gsl_vector *qd)
{
    const mbd_system *s = f->s;
    int st = s->constraint(s, t, q, f->C);
    if (st != GSL_SUCCESS)
        return model_failed(f, st, t, "constraint");
    if (s->constraint_t) {
        st = s->constraint_t(s, t, q, f->Cdot);
        if (st != GSL_SUCCESS)
            return model_failed(f, st, t, "constraint time derivative");
    } else {
        gsl_vector_set_zero(f->Cdot);
    }
    if (qd != NULL)
        gsl_blas_dgemv(CblasNoTrans, 1.0, f->Cq, qd, 1.0, f->Cdot);
    return GSL_SUCCESS;
}

/* >> gamma-baumgarte */
/* gamma_B = gamma - 2 alpha C' - beta^2 C, or with the printed sign
 * gamma + 2 alpha C' + beta^2 C (document 000, eq. 72 and listing A.2.b). */
static void baumgarte(mbd_formulation *f)
{
    const double sign = f->p.baumgarte_printed ? 1.0 : -1.0;
    gsl_blas_daxpy(sign * 2.0 * f->p.alpha, f->Cdot, f->gamma);
    gsl_blas_daxpy(sign * f->p.beta * f->p.beta, f->C, f->gamma);
}
/* << gamma-baumgarte */

/* >> projection */
/* The projection method: with X = M^-1 C_q^T and the Schur complement
 * S = C_q X, solve S lambda = C_q M^-1 F - gamma_B, then
 * q'' = M^-1 F - X lambda, i.e. M q'' = F - C_q^T lambda. */
static int accel_projection(mbd_formulation *f, double t, gsl_vector *qdd, gsl_vector *lambda)
{
    int st = factor(f, t, f->M, f->L, "the mass matrix M");
    if (st != GSL_SUCCESS)
        return st;
    gsl_matrix_transpose_memcpy(f->X, f->Cq);
    gsl_linalg_cholesky_svx_mat(f->L, f->X);                       /* X = M^-1 C_q^T */
    gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, f->Cq, f->X, 0.0, f->S);   /* S */
    st = factor(f, t, f->S, f->LS, "the Schur complement C_q M^-1 C_q^T");
    if (st != GSL_SUCCESS)
        return st;
    gsl_vector_memcpy(f->MinvF, f->F);
    gsl_linalg_cholesky_svx(f->L, f->MinvF);                       /* M^-1 F */
    gsl_vector_memcpy(f->r, f->gamma);
    gsl_blas_dgemv(CblasNoTrans, 1.0, f->Cq, f->MinvF, -1.0, f->r); /* C_q M^-1 F - gamma_B */
    gsl_linalg_cholesky_solve(f->LS, f->r, f->lam);                /* lambda */
    gsl_vector_memcpy(qdd, f->MinvF);
    gsl_blas_dgemv(CblasNoTrans, -1.0, f->X, f->lam, 1.0, qdd);    /* q'' */
    if (lambda)
        gsl_vector_memcpy(lambda, f->lam);
    return GSL_SUCCESS;
}
/* << projection */

/* >> static-penalty */
/* The static penalty (eq. 71'): A = M + mu C_q^T C_q, b = F + mu C_q^T gamma_B,
 * A q'' = b. No multiplier is solved for; the one the penalty implies is
 * mu (C_q q'' - gamma_B), which tends to the projection's as mu grows. */
static int accel_penalty(mbd_formulation *f, double t, gsl_vector *qdd, gsl_vector *lambda)
{
    const double mu = f->p.mu;
    gsl_matrix_memcpy(f->L, f->M);
    gsl_blas_dgemm(CblasTrans, CblasNoTrans, mu, f->Cq, f->Cq, 1.0, f->L);   /* A */
    int st = gsl_linalg_cholesky_decomp1(f->L);
    if (st != GSL_SUCCESS)
        return mbd_failure_set(&f->fail, MBD_ESINGULAR, t,
                               "M + mu C_q^T C_q is not positive definite");
    gsl_vector_memcpy(f->b, f->F);
    gsl_blas_dgemv(CblasTrans, mu, f->Cq, f->gamma, 1.0, f->b);     /* b */
    gsl_linalg_cholesky_solve(f->L, f->b, qdd);
    if (lambda) {
        gsl_vector_memcpy(lambda, f->gamma);
        gsl_blas_dgemv(CblasNoTrans, mu, f->Cq, qdd, -mu, lambda);  /* mu (C_q q'' - gamma_B) */
    }
    return GSL_SUCCESS;
}
/* << static-penalty */

/* >> alternate-penalty */
/* Goicolea and Garcia Orden (eq. 52): M q'' = F - mu C_q^T C, a spring of
 * stiffness mu on the constraint itself; its multiplier is mu C. */
static int accel_alternate(mbd_formulation *f, double t, gsl_vector *qdd, gsl_vector *lambda)
{
    int st = factor(f, t, f->M, f->L, "the mass matrix M");
    if (st != GSL_SUCCESS)
        return st;
    gsl_vector_memcpy(qdd, f->F);
    gsl_blas_dgemv(CblasTrans, -f->p.mu, f->Cq, f->C, 1.0, qdd);
    gsl_linalg_cholesky_svx(f->L, qdd);
    if (lambda) {
        gsl_vector_memcpy(lambda, f->C);
        gsl_vector_scale(lambda, f->p.mu);
    }
    return GSL_SUCCESS;
}
/* << alternate-penalty */

int mbd_formulation_accel(mbd_formulation *f, double t, const gsl_vector *q,
                          const gsl_vector *qd, gsl_vector *qdd, gsl_vector *lambda)
{
    if (f->p.kind == MBD_FORMULATION_INDEX2_PENALTY)
        return mbd_failure_set(&f->fail, GSL_EINVAL, t,
                               "the index-2 penalty has no accelerations of (q, q')");
    const int need_gamma = f->p.kind != MBD_FORMULATION_ALTERNATE_PENALTY;
    int st = evaluate(f, t, q, qd, need_gamma);
    if (st != GSL_SUCCESS)
        return st;
    if (f->p.baumgarte || f->p.kind == MBD_FORMULATION_ALTERNATE_PENALTY) {
        st = evaluate_violation(f, t, q, qd);
        if (st != GSL_SUCCESS)
            return st;
        if (f->p.baumgarte)
            baumgarte(f);
    }
    switch (f->p.kind) {
    case MBD_FORMULATION_PROJECTION:
        st = accel_projection(f, t, qdd, lambda);
        break;
    case MBD_FORMULATION_PENALTY:
        st = accel_penalty(f, t, qdd, lambda);
        break;
    default:
        st = accel_alternate(f, t, qdd, lambda);
        break;
    }
    if (st != GSL_SUCCESS)
        return st;
    return check_finite(f, t, qdd, "q''");
}

/* >> index2-penalty */
/* The index-2 penalty (eq. 58) on the state (q, v):
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
        return model_failed(f, st, t, "constraint Jacobian");
    st = s->constraint(s, t, q, f->C);
    if (st != GSL_SUCCESS)
        return model_failed(f, st, t, "constraint");
    gsl_vector_memcpy(qd, v);
    return gsl_blas_dgemv(CblasTrans, -f->p.mu, f->Cq, f->C, 1.0, qd);
}

static int rhs_index2(mbd_formulation *f, double t, const gsl_vector *q, const gsl_vector *v,
                      gsl_vector *qd, gsl_vector *vd)
{
    int st = kinematic_velocity(f, t, q, v, qd);
    if (st != GSL_SUCCESS)
        return st;
    st = evaluate(f, t, q, qd, 0);
    if (st != GSL_SUCCESS)
        return st;
    st = evaluate_violation(f, t, q, v);                          /* C_q v + C_t */
    if (st != GSL_SUCCESS)
        return st;
    st = factor(f, t, f->M, f->L, "the mass matrix M");
    if (st != GSL_SUCCESS)
        return st;
    gsl_vector_memcpy(vd, f->F);
    gsl_blas_dgemv(CblasTrans, -f->p.mu, f->Cq, f->Cdot, 1.0, vd);
    gsl_linalg_cholesky_svx(f->L, vd);
    return GSL_SUCCESS;
}
/* << index2-penalty */

int mbd_formulation_rhs(double t, const double y[], double dydt[], void *formulation)
{
    mbd_formulation *f = formulation;
    const size_t n = f->n;
    gsl_vector_const_view q = gsl_vector_const_view_array(y, n);
    gsl_vector_const_view v = gsl_vector_const_view_array(y + n, n);
    gsl_vector_view dq = gsl_vector_view_array(dydt, n);
    gsl_vector_view dv = gsl_vector_view_array(dydt + n, n);
    int st;
    if (f->p.kind == MBD_FORMULATION_INDEX2_PENALTY) {
        st = rhs_index2(f, t, &q.vector, &v.vector, &dq.vector, &dv.vector);
        if (st == GSL_SUCCESS)
            st = check_finite(f, t, &dv.vector, "v'");
    } else {
        gsl_vector_memcpy(&dq.vector, &v.vector);
        st = mbd_formulation_accel(f, t, &q.vector, &v.vector, &dv.vector, NULL);
    }
    /* GSL's drivers treat any status but GSL_EBADFUNC as "try a smaller step";
     * a singular matrix or a failed model is not cured by that. */
    return st;
}

int mbd_formulation_pack(mbd_formulation *f, double t, const double q0[], const double qd0[],
                         double y[])
{
    const size_t n = f->n;
    mbd_failure_clear(&f->fail);   /* a new run starts */
    memcpy(y, q0, n * sizeof *y);
    memcpy(y + n, qd0, n * sizeof *y);
    if (f->p.kind != MBD_FORMULATION_INDEX2_PENALTY)
        return GSL_SUCCESS;
    gsl_vector_const_view q = gsl_vector_const_view_array(q0, n);
    int st = f->s->jacobian(f->s, t, &q.vector, f->Cq);
    if (st != GSL_SUCCESS)
        return model_failed(f, st, t, "constraint Jacobian");
    st = f->s->constraint(f->s, t, &q.vector, f->C);
    if (st != GSL_SUCCESS)
        return model_failed(f, st, t, "constraint");
    gsl_vector_view v = gsl_vector_view_array(y + n, n);
    return gsl_blas_dgemv(CblasTrans, f->p.mu, f->Cq, f->C, 1.0, &v.vector);
}

int mbd_formulation_unpack(mbd_formulation *f, double t, const double y[], double q[],
                           double qd[])
{
    const size_t n = f->n;
    if (q != NULL)
        memcpy(q, y, n * sizeof *q);
    if (qd == NULL)
        return GSL_SUCCESS;
    if (f->p.kind != MBD_FORMULATION_INDEX2_PENALTY) {
        memcpy(qd, y + n, n * sizeof *qd);
        return GSL_SUCCESS;
    }
    gsl_vector_const_view qv = gsl_vector_const_view_array(y, n);
    gsl_vector_const_view v = gsl_vector_const_view_array(y + n, n);
    gsl_vector_view out = gsl_vector_view_array(qd, n);
    return kinematic_velocity(f, t, &qv.vector, &v.vector, &out.vector);
}

int mbd_formulation_measure(mbd_formulation *f, double t, const double y[], double *C_norm,
                            double *Cdot_norm, double *E)
{
    int st = mbd_formulation_unpack(f, t, y, f->q->data, f->qd->data);
    if (st != GSL_SUCCESS)
        return st;
    st = f->s->jacobian(f->s, t, f->q, f->Cq);
    if (st != GSL_SUCCESS)
        return model_failed(f, st, t, "constraint Jacobian");
    st = evaluate_violation(f, t, f->q, f->qd);
    if (st != GSL_SUCCESS)
        return st;
    if (C_norm)
        *C_norm = gsl_blas_dnrm2(f->C);
    if (Cdot_norm)
        *Cdot_norm = gsl_blas_dnrm2(f->Cdot);
    if (E) {
        *E = NAN;
        if (f->s->energy) {
            st = f->s->energy(f->s, t, f->q, f->qd, E);
            if (st != GSL_SUCCESS)
                return model_failed(f, st, t, "energy");
        }
    }
    return GSL_SUCCESS;
}

int mbd_formulation_condition(mbd_formulation *f, double t, const double y[], double *cond)
{
    int st = mbd_formulation_unpack(f, t, y, f->q->data, f->qd->data);
    if (st != GSL_SUCCESS)
        return st;
    st = evaluate(f, t, f->q, f->qd, 0);
    if (st != GSL_SUCCESS)
        return st;
    gsl_matrix *A = f->M, *L = f->L;
    if (f->p.kind == MBD_FORMULATION_PENALTY) {
        gsl_matrix_memcpy(f->L, f->M);
        gsl_blas_dgemm(CblasTrans, CblasNoTrans, f->p.mu, f->Cq, f->Cq, 1.0, f->L);
        A = NULL;   /* already in L */
    }
    if (A != NULL)
        gsl_matrix_memcpy(L, A);
    *cond = INFINITY;
    if (gsl_linalg_cholesky_decomp1(L) != GSL_SUCCESS)
        return GSL_SUCCESS;
    double rcond = 0.0;
    gsl_vector_view w = gsl_vector_subvector(f->work, 0, 3 * f->n);
    if (f->p.kind == MBD_FORMULATION_PROJECTION) {
        gsl_matrix_transpose_memcpy(f->X, f->Cq);
        gsl_linalg_cholesky_svx_mat(L, f->X);
        gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, f->Cq, f->X, 0.0, f->LS);
        if (gsl_linalg_cholesky_decomp1(f->LS) != GSL_SUCCESS)
            return GSL_SUCCESS;
        L = f->LS;
        w = gsl_vector_subvector(f->work, 0, 3 * f->m);
    }
    if (gsl_linalg_cholesky_rcond(L, &rcond, &w.vector) == GSL_SUCCESS && rcond > 0)
        *cond = 1.0 / rcond;
    return GSL_SUCCESS;
}
