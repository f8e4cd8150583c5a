/* study.c -- one run of the null-space formulation and the story's
 * computations (see study.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_math.h>

#include "mbd/run.h"
#include "study.h"

const char *const ch07_continuation_names[] = {"none", "procrustes", "full", NULL};
const char *const ch07_continuation_descriptions[] = {
    "the traditional basis: a fresh QR factorisation at every step (it flips)",
    "the fresh basis aligned to the previous one by the polar factor (App. A; default)",
    "the skew update of Sec. 4.1.2 predicts the basis, App. A aligns the fresh one to it",
    NULL,
};
const char *const ch07_rank_names[] = {"dynamic", "fixed", NULL};
const char *const ch07_rank_descriptions[] = {
    "inside a singular window integrate with the rank at --tol-sing (the enlarged basis, "
    "eq. 2.15; default)",
    "the structural rank of the start throughout: the motion cannot leave its branch",
    NULL,
};

int ch07_continuation_of(const char *name, mbd_nullspace_continuation *c)
{
    static const mbd_nullspace_continuation modes[] = {MBD_NULLSPACE_NONE, MBD_NULLSPACE_PROCRUSTES,
                                                       MBD_NULLSPACE_FULL};
    for (int k = 0; ch07_continuation_names[k] != NULL; k++)
        if (name != NULL && strcmp(name, ch07_continuation_names[k]) == 0) {
            *c = modes[k];
            return GSL_SUCCESS;
        }
    return MBD_EINPUT;
}

const char *ch07_continuation_name(mbd_nullspace_continuation c)
{
    switch (c) {
    case MBD_NULLSPACE_NONE:
        return "none";
    case MBD_NULLSPACE_FULL:
        return "full";
    default:
        return "procrustes";
    }
}

void ch07_spec_default(ch07_spec *s, ch07_scenario scenario)
{
    memset(s, 0, sizeof *s);
    s->scenario = scenario;
    s->continuation = MBD_NULLSPACE_PROCRUSTES;
    s->tol_rank = MBD_NULLSPACE_TOL_RANK;
    s->tol_sing = MBD_NULLSPACE_TOL_SING;
    s->dynamic_rank = 1;
    mbd_ode_preset("rk4", &s->ode);
    s->ode.h = CH07_H;
    s->t_end = scenario == CH07_SPATIAL_PENDULUM ? 1.0
               : (scenario == CH07_FOURBAR_STOP || scenario == CH07_FOURBAR_TORQUE) ? 1.2
                                                                                     : CH07_T_END;
    s->dt_out = CH07_DT_OUT;
}

/* ------------------------------------------------------------------------ */
/* One run                                                                   */

void ch07_run_init(ch07_run *r)
{
    memset(r, 0, sizeof *r);
    mbd_failure_clear(&r->fail);
    r->E0 = r->max_energy_error = r->max_c_norm = r->max_dv = NAN;
}

void ch07_run_free(ch07_run *r)
{
    free(r->t);
    free(r->q);
    free(r->qd);
    free(r->z);
    free(r->v);
    free(r->r_min);
    free(r->ratio);
    free(r->c_norm);
    free(r->E);
    free(r->dof_used);
    ch07_run_init(r);
}

static int reserve(ch07_run *r, size_t rows)
{
    if (rows <= r->cap)
        return GSL_SUCCESS;
    size_t cap = r->cap ? 2 * r->cap : 1024;
    while (cap < rows)
        cap *= 2;
    const size_t n = r->n;
    double **d[] = {&r->t, &r->r_min, &r->ratio, &r->c_norm, &r->E};
    for (size_t i = 0; i < sizeof d / sizeof d[0]; i++) {
        double *p = realloc(*d[i], cap * sizeof **d[i]);
        if (p == NULL)
            return GSL_ENOMEM;
        *d[i] = p;
    }
    double **w[] = {&r->q, &r->qd, &r->z, &r->v};
    const size_t width[] = {n, n, CH07_MAX_K, CH07_MAX_K};
    for (size_t i = 0; i < sizeof w / sizeof w[0]; i++) {
        double *p = realloc(*w[i], cap * width[i] * sizeof **w[i]);
        if (p == NULL)
            return GSL_ENOMEM;
        *w[i] = p;
    }
    size_t *u = realloc(r->dof_used, cap * sizeof *u);
    if (u == NULL)
        return GSL_ENOMEM;
    r->dof_used = u;
    r->cap = cap;
    return GSL_SUCCESS;
}

typedef struct {
    const ch07_model *md;
    const mbd_system *sys;
    mbd_formulation *f;
    mbd_nullspace *ns;           /* the monitor at the outputs */
    gsl_matrix *Cq;
    gsl_vector *C;
    ch07_run *r;
    size_t theta2;               /* bar 2's angle (the torque's potential) */
} recorder;

/* the energy with the constant torque's potential -T theta2 */
static int energy(const recorder *c, double t, const double q[], const double qd[], double *E)
{
    gsl_vector_const_view qv = gsl_vector_const_view_array(q, c->sys->n);
    gsl_vector_const_view qdv = gsl_vector_const_view_array(qd, c->sys->n);
    int st = c->sys->energy(c->sys, t, &qv.vector, &qdv.vector, E);
    if (st == GSL_SUCCESS && c->md->torque != 0.0)
        *E -= c->md->torque * q[c->theta2];
    return st;
}

static int record(void *ctx, double t, const double y[], const mbd_run_info *info,
                  mbd_failure *fail)
{
    (void)info;
    recorder *c = ctx;
    ch07_run *r = c->r;
    const size_t n = r->n, row = r->rows;
    int st = reserve(r, row + 1);
    if (st != GSL_SUCCESS)
        return mbd_failure_set(fail, st, t, "no memory for the record");
    double *q = r->q + row * n, *qd = r->qd + row * n;
    st = mbd_formulation_unpack(c->f, t, y, q, qd);
    if (st != GSL_SUCCESS) {
        *fail = *mbd_formulation_failure(c->f);
        return st;
    }
    double z[64] = {0}, v[64] = {0};
    mbd_formulation_generalized(c->f, y, z, v);
    for (size_t j = 0; j < CH07_MAX_K; j++) {
        r->z[row * CH07_MAX_K + j] = j < r->k ? z[j] : 0.0;
        r->v[row * CH07_MAX_K + j] = j < r->k ? v[j] : 0.0;
    }
    gsl_vector_view qv = gsl_vector_view_array(q, n);
    st = c->sys->jacobian(c->sys, t, &qv.vector, c->Cq);
    if (st == GSL_SUCCESS)
        st = mbd_nullspace_factor(c->ns, c->Cq);
    if (st == GSL_SUCCESS)
        st = c->sys->constraint(c->sys, t, &qv.vector, c->C);
    double E = NAN;
    if (st == GSL_SUCCESS)
        st = energy(c, t, q, qd, &E);
    if (st != GSL_SUCCESS)
        return mbd_failure_set(fail, st, t, "the model failed at an output");
    double diag[64];
    mbd_nullspace_monitor(c->ns, diag);
    r->r_min[row] = r->rep.rank > 0 ? diag[r->rep.rank - 1] : 0.0;
    r->ratio[row] = mbd_nullspace_ratio(c->ns, r->rep.rank);
    r->c_norm[row] = gsl_blas_dnrm2(c->C);
    r->E[row] = E;
    mbd_formulation_nullspace_report rep;
    r->dof_used[row] = mbd_formulation_nullspace_get(c->f, &rep) == GSL_SUCCESS ? rep.dof_used : 0;
    r->t[row] = t;
    /* the singular instants found since the last output (the formulation keeps
     * the latest few; the record keeps the first CH07_MAX_SING and counts all) */
    for (size_t n_now = mbd_formulation_singulars(c->f); r->nsing < n_now; r->nsing++) {
        mbd_formulation_singular_instant ev;
        if (mbd_formulation_singular_get(c->f, r->nsing, &ev) == GSL_SUCCESS
            && r->nsing < CH07_MAX_SING) {
            r->sing_t[r->nsing] = ev.t;
            r->sing_dof[r->nsing] = ev.dof;
        }
    }
    if (!isfinite(E) || !isfinite(r->c_norm[row]))
        return mbd_failure_set(fail, MBD_ENONFINITE, t, "the energy or |C| is not finite");
    r->rows++;
    return GSL_SUCCESS;
}

static int after_step(void *ctx, double t, double y[], int *changed, mbd_failure *fail)
{
    recorder *c = ctx;
    int st = mbd_formulation_post_step(c->f, t, y, changed);
    if (st != GSL_SUCCESS)
        *fail = *mbd_formulation_failure(c->f);
    return st;
}

int ch07_run_spec(const ch07_model *md, const ch07_spec *spec, ch07_run *r)
{
    ch07_run_free(r);
    const mbd_system *sys = ch07_system(md);
    if (sys == NULL)
        return MBD_EINPUT;
    const size_t n = sys->n, m = sys->m;
    mbd_formulation_params fp = {0};
    mbd_formulation_method("nullspace", &fp);
    fp.continuation = spec->continuation;
    fp.tol_rank = spec->tol_rank;
    fp.tol_sing = spec->tol_sing;
    fp.dynamic_rank = spec->dynamic_rank;
    recorder c = {.md = md, .sys = sys, .r = r};
    if (md->pm != NULL && md->ncoupler > 0) {
        size_t first = 0;
        mbd_planar_body_coordinates(md->pm, md->coupler[0], &first);
        c.theta2 = first + 2;
    }
    c.f = mbd_formulation_alloc(sys, &fp);
    c.ns = mbd_nullspace_alloc(n, m);
    c.Cq = gsl_matrix_alloc(m, n);
    c.C = gsl_vector_alloc(m);
    double *y = calloc(3 * n, sizeof *y), *q0 = calloc(n, sizeof *q0), *qd0 = calloc(n, sizeof *qd0);
    mbd_ode *o = c.f ? mbd_ode_alloc(&spec->ode, mbd_formulation_dim(c.f), mbd_formulation_rhs, c.f)
                     : NULL;
    int st = (c.f && c.ns && c.Cq && c.C && y && q0 && qd0 && o) ? GSL_SUCCESS : GSL_ENOMEM;
    if (c.f == NULL)
        st = MBD_EINPUT;
    r->n = n;
    r->m = m;
    if (st == GSL_SUCCESS)
        st = ch07_initial(md, q0, qd0);
    if (st == GSL_SUCCESS) {
        st = mbd_formulation_pack(c.f, 0.0, q0, qd0, y);
        if (st != GSL_SUCCESS)
            r->fail = *mbd_formulation_failure(c.f);
    }
    if (st == GSL_SUCCESS) {
        mbd_formulation_nullspace_get(c.f, &r->rep);
        r->k = r->rep.dof < CH07_MAX_K ? r->rep.dof : CH07_MAX_K;
        const mbd_run_params rp = {.t0 = 0.0, .t_end = spec->t_end, .dt_out = spec->dt_out,
                                   .output = record, .output_ctx = &c, .hook = after_step,
                                   .hook_ctx = &c,
                                   .max_steps = spec->max_steps ? spec->max_steps
                                                                : MBD_RUN_MAX_STEPS,
                                   .max_outputs = spec->max_outputs ? spec->max_outputs
                                                                    : MBD_RUN_MAX_OUTPUTS};
        const double t0 = mbd_cli_seconds();
        r->status = mbd_run(o, &rp, y, &r->stats, &r->fail);
        r->seconds = mbd_cli_seconds() - t0;
        const mbd_failure *ff = mbd_formulation_failure(c.f);
        if (r->status != GSL_SUCCESS && ff->status == r->status)
            r->fail = *ff;   /* the formulation's cause, not "the right-hand side failed" */
        mbd_formulation_nullspace_get(c.f, &r->rep);
        /* the measures over the record */
        r->max_energy_error = r->max_c_norm = r->max_dv = 0.0;
        r->E0 = r->rows ? r->E[0] : NAN;
        for (size_t i = 0; i < r->rows; i++) {
            r->max_energy_error = fmax(r->max_energy_error, fabs(r->E[i] - r->E0));
            r->max_c_norm = fmax(r->max_c_norm, r->c_norm[i]);
            for (size_t j = 0; i > 0 && j < r->k; j++)
                r->max_dv = fmax(r->max_dv, fabs(r->v[i * CH07_MAX_K + j]
                                                  - r->v[(i - 1) * CH07_MAX_K + j]));
        }
        st = GSL_SUCCESS;
    } else if (st != MBD_EINPUT) {
        r->status = st;
    }
    mbd_ode_free(o);
    free(y);
    free(q0);
    free(qd0);
    if (c.C)
        gsl_vector_free(c.C);
    if (c.Cq)
        gsl_matrix_free(c.Cq);
    mbd_nullspace_free(c.ns);
    mbd_formulation_free(c.f);
    return st;
}

size_t ch07_run_row(const ch07_run *r, double t)
{
    size_t best = 0;
    for (size_t i = 1; i < r->rows; i++)
        if (fabs(r->t[i] - t) < fabs(r->t[best] - t))
            best = i;
    return best;
}

double ch07_run_position_difference(const ch07_run *a, const ch07_run *b)
{
    /* the outputs both runs have (the same time to 1e-9 s), whatever their spacing */
    double d = 0.0;
    size_t j = 0;
    for (size_t i = 0; i < a->rows && a->n == b->n; i++) {
        while (j < b->rows && b->t[j] < a->t[i] - 1e-9)
            j++;
        if (j == b->rows)
            break;
        if (fabs(b->t[j] - a->t[i]) <= 1e-9)
            for (size_t k = 0; k < a->n; k++)
                d = fmax(d, fabs(a->q[i * a->n + k] - b->q[j * b->n + k]));
    }
    return d;
}

/* ------------------------------------------------------------------------ */
/* Census and the modes at the horizontal                                    */

/* the Jacobian of md at q, factored into ns */
static int factor_at(const ch07_model *md, const double q[], mbd_nullspace *ns, gsl_matrix *Cq)
{
    const mbd_system *s = ch07_system(md);
    gsl_vector_const_view qv = gsl_vector_const_view_array(q, s->n);
    int st = s->jacobian(s, 0.0, &qv.vector, Cq);
    return st == GSL_SUCCESS ? mbd_nullspace_factor(ns, Cq) : st;
}

int ch07_census_of(const ch07_model *md, ch07_census *c)
{
    const mbd_system *s = ch07_system(md);
    if (s == NULL)
        return MBD_EINPUT;
    memset(c, 0, sizeof *c);
    const size_t n = s->n, m = s->m;
    c->n = n;
    c->m = m;
    mbd_nullspace *ns = mbd_nullspace_alloc(n, m);
    gsl_matrix *Cq = gsl_matrix_alloc(m, n);
    double *q = calloc(n, sizeof *q), *qd = calloc(n, sizeof *qd);
    int st = ns && Cq && q && qd ? GSL_SUCCESS : GSL_ENOMEM;
    if (st == GSL_SUCCESS)
        st = ch07_initial(md, q, qd);
    if (st == GSL_SUCCESS)
        st = factor_at(md, q, ns, Cq);
    if (st == GSL_SUCCESS) {
        c->rank = mbd_nullspace_rank(ns, 0.0);
        c->d = mbd_nullspace_deficiency(ns, 0.0);
        c->dof = mbd_nullspace_dof(ns, 0.0);
        const size_t p = mbd_nullspace_monitor(ns, NULL);
        double diag[256];
        mbd_nullspace_monitor(ns, p <= 256 ? diag : NULL);
        c->prod = 1.0;
        for (size_t i = 0; i < p && i < 256; i++) {
            if (i < 64)
                c->diag[i] = diag[i];
            c->prod *= diag[i];
        }
        gsl_vector_view qv = gsl_vector_view_array(q, n), qdv = gsl_vector_view_array(qd, n);
        st = s->energy(s, 0.0, &qv.vector, &qdv.vector, &c->E0);
        c->speed0 = gsl_blas_dnrm2(&qdv.vector);
    }
    if (st == GSL_SUCCESS && md->scenario != CH07_SPATIAL_PENDULUM) {
        st = ch07_state(md, M_PI, 0.0, q, qd);            /* every bar horizontal */
        if (st == GSL_SUCCESS)
            st = factor_at(md, q, ns, Cq);
        if (st == GSL_SUCCESS) {
            c->rank_h = mbd_nullspace_rank(ns, 0.0);
            c->d_h = mbd_nullspace_deficiency(ns, 0.0);
            c->dof_h = mbd_nullspace_dof(ns, 0.0);
        }
    }
    free(q);
    free(qd);
    if (Cq)
        gsl_matrix_free(Cq);
    mbd_nullspace_free(ns);
    return st;
}

size_t ch07_fourbar_modes(const ch07_model *md, double theta, double tol, double angles[2],
                          double Tout[], size_t cap)
{
    const mbd_system *s = ch07_system(md);
    if (s == NULL || s->n != 9)
        return 0;
    double q[9], qd[9];
    mbd_nullspace *ns = mbd_nullspace_alloc(9, s->m);
    gsl_matrix *Cq = gsl_matrix_alloc(s->m, 9), *Tm = gsl_matrix_alloc(9, 9);
    gsl_matrix *Mo = gsl_matrix_alloc(9, 2), *X = gsl_matrix_alloc(9, 2), *V = gsl_matrix_alloc(2, 2);
    gsl_vector *tau = gsl_vector_alloc(2), *S = gsl_vector_alloc(2), *w = gsl_vector_alloc(2);
    size_t k = 0;
    if (ns && Cq && Tm && Mo && X && V && tau && S && w && ch07_state(md, theta, 0.0, q, qd) == 0
        && factor_at(md, q, ns, Cq) == GSL_SUCCESS) {
        k = mbd_nullspace_dof(ns, tol);
        gsl_matrix_view T = gsl_matrix_submatrix(Tm, 0, 0, 9, k);
        mbd_nullspace_basis(ns, 9 - k, &T.matrix);
        for (size_t i = 0; i < 9 && Tout != NULL; i++)
            for (size_t j = 0; j < k && i * k + j < cap; j++)
                Tout[i * k + j] = gsl_matrix_get(&T.matrix, i, j);
        /* the analytic modes at theta (the folding one exists at pi only):
         * parallelogram, cranks (-sin/2, cos/2, 1), coupler (-sin, cos, 0);
         * folding about A = D, bars 1 and 2 (-sin/2, cos/2, 1), bar 3 at rest */
        const double sn = sin(theta), cs = cos(theta);
        const double par[9] = {-0.5 * sn, 0.5 * cs, 1, -sn, cs, 0, -0.5 * sn, 0.5 * cs, 1};
        const double fold[9] = {-0.5 * sn, 0.5 * cs, 1, -0.5 * sn, 0.5 * cs, 1, 0, 0, 0};
        for (size_t i = 0; i < 9; i++) {
            gsl_matrix_set(Mo, i, 0, par[i]);
            gsl_matrix_set(Mo, i, 1, fold[i]);
        }
        /* orthonormal modes (thin QR), then the singular values of T^T Qm */
        gsl_linalg_QR_decomp(Mo, tau);
        gsl_matrix *Q = gsl_matrix_alloc(9, 9), *R = gsl_matrix_alloc(9, 2);
        if (Q && R) {
            gsl_linalg_QR_unpack(Mo, tau, Q, R);
            gsl_matrix_view Qm = gsl_matrix_submatrix(Q, 0, 0, 9, 2);
            gsl_matrix_view Xk = gsl_matrix_submatrix(X, 0, 0, 9, 2);
            gsl_matrix_memcpy(&Xk.matrix, &Qm.matrix);
            /* the projection of the modes on span(T): X = T T^T Qm; its
             * singular values are the cosines of the principal angles */
            gsl_matrix *P = gsl_matrix_alloc(k ? k : 1, 2);
            if (P && k > 0) {
                gsl_blas_dgemm(CblasTrans, CblasNoTrans, 1.0, &T.matrix, &Qm.matrix, 0.0, P);
                gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, &T.matrix, P, 0.0, &Xk.matrix);
                gsl_linalg_SV_decomp(&Xk.matrix, V, S, w);
                for (int i = 0; i < 2; i++)
                    angles[i] = acos(fmin(1.0, gsl_vector_get(S, (size_t)i)));
            }
            if (P)
                gsl_matrix_free(P);
        }
        if (Q)
            gsl_matrix_free(Q);
        if (R)
            gsl_matrix_free(R);
    }
    gsl_vector *vecs[] = {tau, S, w};
    gsl_matrix *mats[] = {Cq, Tm, Mo, X, V};
    for (size_t i = 0; i < 3; i++)
        if (vecs[i])
            gsl_vector_free(vecs[i]);
    for (size_t i = 0; i < 5; i++)
        if (mats[i])
            gsl_matrix_free(mats[i]);
    mbd_nullspace_free(ns);
    return k;
}

/* ------------------------------------------------------------------------ */
/* The story's computations                                                  */

const double ch07_tol_sings[CH07_NTOL] = {1e-2, 1e-3, 1e-4};
const ch07_scenario ch07_others[CH07_NOTHERS] = {CH07_DOUBLE, CH07_MOD2, CH07_MOD2X2, CH07_MOD3,
                                                 CH07_MOD2X3};

ch07_study *ch07_study_alloc(void)
{
    ch07_study *s = calloc(1, sizeof *s);
    if (s == NULL)
        return NULL;
    ch07_run *all[] = {&s->four_cont, &s->four_trad, &s->four_full, &s->stop, &s->fixed_torque,
                       &s->pend_h4, &s->pend_h3};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        ch07_run_init(all[i]);
    for (int i = 0; i < CH07_NTOL; i++)
        ch07_run_init(&s->torque[i]);
    for (int i = 0; i < CH07_NOTHERS; i++)
        ch07_run_init(&s->other[i]);
    return s;
}

void ch07_study_free(ch07_study *s)
{
    if (s == NULL)
        return;
    ch07_run *all[] = {&s->four_cont, &s->four_trad, &s->four_full, &s->stop, &s->fixed_torque,
                       &s->pend_h4, &s->pend_h3};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        ch07_run_free(all[i]);
    for (int i = 0; i < CH07_NTOL; i++)
        ch07_run_free(&s->torque[i]);
    for (int i = 0; i < CH07_NOTHERS; i++)
        ch07_run_free(&s->other[i]);
    free(s);
}

/* a scenario run with the defaults but for the continuation, the step, tol_sing and the rank */
static int run_scenario_out(ch07_scenario sc, ch07_run *r, mbd_nullspace_continuation cont,
                            double h, double tol_sing, int dynamic, double dt_out,
                            mbd_failure *fail);

static int run_scenario(ch07_scenario sc, ch07_run *r, mbd_nullspace_continuation cont,
                        double h, double tol_sing, int dynamic, mbd_failure *fail)
{
    return run_scenario_out(sc, r, cont, h, tol_sing, dynamic, CH07_DT_OUT, fail);
}

static int run_scenario_out(ch07_scenario sc, ch07_run *r, mbd_nullspace_continuation cont,
                            double h, double tol_sing, int dynamic, double dt_out,
                            mbd_failure *fail)
{
    ch07_model md;
    ch07_model_data(&md, sc);
    ch07_spec spec;
    ch07_spec_default(&spec, sc);
    spec.omega = md.omega;
    spec.continuation = cont;
    spec.ode.h = h;
    spec.tol_sing = tol_sing;
    spec.dynamic_rank = dynamic;
    spec.dt_out = dt_out;
    int st = ch07_model_build(&md);
    if (st == GSL_SUCCESS)
        st = ch07_run_spec(&md, &spec, r);
    if (st == GSL_SUCCESS && r->status != GSL_SUCCESS) {
        st = r->status;
        *fail = r->fail;
    } else if (st != GSL_SUCCESS) {
        mbd_failure_set(fail, st, NAN, "the %s run could not be set up", ch07_scenario_names[sc]);
    }
    ch07_model_free(&md);
    return st;
}

/* the branch at the end of a 4-bar run: |theta3 - pi| and |theta2 - (theta1 - pi)| (mod 2 pi) */
static double wrap(double a) { return remainder(a, 2.0 * M_PI); }

void ch07_branch_of(const ch07_run *r, double *bar3, double *fold)
{
    const double *q = r->q + (r->rows - 1) * r->n;
    *bar3 = fabs(wrap(q[8] - M_PI));
    *fold = fabs(wrap(q[5] - (q[2] - M_PI)));
}

int ch07_study_compute(ch07_study *s, mbd_failure *fail)
{
    if (s->computed)
        return GSL_SUCCESS;
    /* Step 1: the census */
    for (int k = 0; k < CH07_NSCENARIOS; k++) {
        ch07_model md;
        ch07_model_data(&md, (ch07_scenario)k);
        int st = ch07_model_build(&md);
        if (st == GSL_SUCCESS)
            st = ch07_census_of(&md, &s->census[k]);
        if (st == GSL_SUCCESS && k == CH07_FOURBAR)
            s->modes_k = ch07_fourbar_modes(&md, M_PI, MBD_NULLSPACE_TOL_SING, s->modes,
                                            s->T_sing, sizeof s->T_sing / sizeof s->T_sing[0]);
        if (st == GSL_SUCCESS && k == CH07_FOURBAR) {
            s->n_ref = ch07_horizontal_times(&md, CH07_T_END, s->ref_times, 8);
            s->sqrt_S = s->census[k].speed0 / md.omega;
        }
        ch07_model_free(&md);
        if (st != GSL_SUCCESS)
            return mbd_failure_set(fail, st, NAN, "the census of %s failed",
                                   ch07_scenario_names[k]);
    }
    /* Step 2: the 4-bar at 4 rad/s, three ways */
    /* outputs at every step: the traditional basis' flips last a step or two */
    int st = run_scenario_out(CH07_FOURBAR, &s->four_cont, MBD_NULLSPACE_PROCRUSTES, CH07_H,
                              MBD_NULLSPACE_TOL_SING, 1, CH07_H, fail);
    if (st == GSL_SUCCESS)
        st = run_scenario_out(CH07_FOURBAR, &s->four_trad, MBD_NULLSPACE_NONE, CH07_H,
                              MBD_NULLSPACE_TOL_SING, 1, CH07_H, fail);
    if (st == GSL_SUCCESS)
        st = run_scenario(CH07_FOURBAR, &s->four_full, MBD_NULLSPACE_FULL, CH07_H,
                          MBD_NULLSPACE_TOL_SING, 1, fail);
    if (st != GSL_SUCCESS)
        return st;
    s->max_time_error = s->four_cont.nsing == s->n_ref ? 0.0 : INFINITY;   /* n_ref <= 8 */
    for (size_t i = 0; i < s->n_ref && i < s->four_cont.nsing; i++)
        s->max_time_error = fmax(s->max_time_error, fabs(s->four_cont.sing_t[i] - s->ref_times[i]));
    s->position_difference = ch07_run_position_difference(&s->four_cont, &s->four_trad);
    s->position_difference_full = ch07_run_position_difference(&s->four_cont, &s->four_full);
    /* z = +-sqrt(S) (theta1 - theta1(0)) with S = |q'(0)|^2 / omega^2 */
    {
        const ch07_run *r = &s->four_cont;
        double e[2] = {0.0, 0.0};
        for (size_t i = 0; i < r->rows; i++) {
            const double dth = r->q[i * r->n + 2] - r->q[2], z = r->z[i * CH07_MAX_K];
            e[0] = fmax(e[0], fabs(z - s->sqrt_S * dth));
            e[1] = fmax(e[1], fabs(z + s->sqrt_S * dth));
        }
        s->q_invariant_error = fmin(e[0], e[1]);
        s->q_invariant_sign = e[0] <= e[1] ? 1 : -1;
    }
    /* Step 3: the stop */
    st = run_scenario(CH07_FOURBAR_STOP, &s->stop, MBD_NULLSPACE_PROCRUSTES, CH07_H,
                      MBD_NULLSPACE_TOL_SING, 1, fail);
    if (st != GSL_SUCCESS)
        return st;
    s->stop_speed = ch07_stop_speed();
    s->stop_time = ch07_stop_time();
    s->stop_min_speed = INFINITY;
    s->stop_min_ratio = INFINITY;
    for (size_t i = 0; i < s->stop.rows; i++) {
        const double w = fabs(s->stop.qd[i * s->stop.n + 2]);
        if (w < s->stop_min_speed) {
            s->stop_min_speed = w;
            s->stop_t_min_speed = s->stop.t[i];
        }
        s->stop_min_ratio = fmin(s->stop_min_ratio, s->stop.ratio[i]);
    }
    /* the sorted |R_ii| and qdot1 of both bases at a few instants, one the
     * first singular instant's nearest output */
    {
        ch07_model md;
        ch07_model_data(&md, CH07_FOURBAR);
        mbd_nullspace *ns = mbd_nullspace_alloc(9, 8);
        gsl_matrix *Cq = gsl_matrix_alloc(8, 9);
        st = ns && Cq ? ch07_model_build(&md) : GSL_ENOMEM;
        const double first = s->four_cont.nsing ? s->four_cont.sing_t[0] : 0.3;
        const double when[CH07_NMON] = {0.0, 0.1, 0.2, 0.3, first, 0.4, 0.5, 0.6, first + 0.428};
        s->n_mon = 0;
        for (int i = 0; i < CH07_NMON && st == GSL_SUCCESS; i++) {
            const size_t row = ch07_run_row(&s->four_cont, when[i]);
            st = factor_at(&md, s->four_cont.q + row * 9, ns, Cq);
            if (st == GSL_SUCCESS) {
                s->mon_t[i] = s->four_cont.t[row];
                mbd_nullspace_monitor(ns, s->mon_diag[i]);
                s->mon_v_cont[i] = s->four_cont.v[row * CH07_MAX_K];
                s->mon_v_trad[i] = s->four_trad.v[ch07_run_row(&s->four_trad, when[i]) * CH07_MAX_K];
                s->n_mon++;
            }
        }
        if (Cq)
            gsl_matrix_free(Cq);
        mbd_nullspace_free(ns);
        ch07_model_free(&md);
        if (st != GSL_SUCCESS)
            return mbd_failure_set(fail, st, NAN, "the 4-bar's monitor could not be sampled");
    }
    s->four_min_ratio = INFINITY;
    for (size_t i = 0; i < s->four_cont.rows; i++)
        s->four_min_ratio = fmin(s->four_min_ratio, s->four_cont.ratio[i]);
    /* Step 4: the torque, at three tol_sing and with the fixed rank */
    for (int i = 0; i < CH07_NTOL && st == GSL_SUCCESS; i++) {
        st = run_scenario(CH07_FOURBAR_TORQUE, &s->torque[i], MBD_NULLSPACE_PROCRUSTES, CH07_H,
                          ch07_tol_sings[i], 1, fail);
        if (st == GSL_SUCCESS)
            ch07_branch_of(&s->torque[i], &s->torque_bar3[i], &s->torque_fold[i]);
    }
    if (st == GSL_SUCCESS)
        st = run_scenario(CH07_FOURBAR_TORQUE, &s->fixed_torque, MBD_NULLSPACE_PROCRUSTES, CH07_H,
                          MBD_NULLSPACE_TOL_SING, 0, fail);
    if (st != GSL_SUCCESS)
        return st;
    ch07_branch_of(&s->fixed_torque, &s->fixed_bar3, &s->fixed_fold);
    /* Step 5: the others (h = 1e-3: the story's time), against their reduced equations */
    for (int i = 0; i < CH07_NOTHERS && st == GSL_SUCCESS; i++) {
        st = run_scenario(ch07_others[i], &s->other[i], MBD_NULLSPACE_PROCRUSTES, CH07_H_OTHERS,
                          CH07_TOL_SING_OTHERS, 1, fail);
        ch07_model md;
        ch07_model_data(&md, ch07_others[i]);
        if (st == GSL_SUCCESS && ch07_model_build(&md) == GSL_SUCCESS) {
            double ref[8];
            const size_t nr = ch07_horizontal_times(&md, CH07_T_END, ref, 8);
            const ch07_run *r = &s->other[i];
            s->other_time_error[i] = nr == r->nsing ? 0.0 : INFINITY;
            for (size_t j = 0; j < nr && j < r->nsing; j++)
                s->other_time_error[i] = fmax(s->other_time_error[i], fabs(r->sing_t[j] - ref[j]));
        }
        ch07_model_free(&md);
    }
    /* Step 6: the pendulum at two steps */
    if (st == GSL_SUCCESS)
        st = run_scenario(CH07_SPATIAL_PENDULUM, &s->pend_h4, MBD_NULLSPACE_PROCRUSTES, 1e-4,
                          MBD_NULLSPACE_TOL_SING, 1, fail);
    if (st == GSL_SUCCESS)
        st = run_scenario(CH07_SPATIAL_PENDULUM, &s->pend_h3, MBD_NULLSPACE_PROCRUSTES, 1e-3,
                          MBD_NULLSPACE_TOL_SING, 1, fail);
    if (st != GSL_SUCCESS)
        return st;
    s->pend_difference = ch07_run_position_difference(&s->pend_h4, &s->pend_h3);
    s->pend_r_min = INFINITY;
    s->pend_r_max = 0.0;
    for (size_t i = 0; i < s->pend_h4.rows; i++) {
        s->pend_r_min = fmin(s->pend_r_min, s->pend_h4.r_min[i]);
        s->pend_r_max = fmax(s->pend_r_max, s->pend_h4.r_min[i]);
    }
    s->computed = 1;
    return GSL_SUCCESS;
}
