/* chapters/03-pendulum/study.c -- one run of a method on the pendulum. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_math.h>

#include "mbd/cli.h"
#include "mbd/study.h"
#include "study.h"

void ch03_spec_default(ch03_spec *s)
{
    mbd_study_spec_init(s, "penalty", 5.0, 1e-4);
}

int ch03_method_known(const char *method)
{
    mbd_formulation_params fp;
    return method != NULL
           && (strcmp(method, "direct") == 0 || mbd_formulation_method(method, &fp) == GSL_SUCCESS);
}

int ch03_method_uses_mu(const char *method)
{
    mbd_formulation_params fp;
    return method != NULL && mbd_formulation_method(method, &fp) == GSL_SUCCESS
           && mbd_formulation_uses_mu(&fp);
}

int ch03_method_uses_baumgarte(const char *method)
{
    mbd_formulation_params fp;
    return method != NULL && mbd_formulation_method(method, &fp) == GSL_SUCCESS && fp.baumgarte;
}

/* >> run */
/* the errors against the exact solution, folded at every output as it comes */
static int compare_output(void *ctx, double t, const double q[], const double qd[],
                          double C_norm, double Cdot_norm, double E, double step)
{
    (void)C_norm;
    (void)Cdot_norm;
    (void)E;
    (void)step;
    ch03_compare_state *c = ctx;
    c->status = ch03_compare_row(c, t, q, qd);
    return c->status;
}

int ch03_run(const ch03_pendulum *p, const ch03_spec *spec, mbd_history *hist, ch03_result *r)
{
    memset(r, 0, sizeof *r);
    mbd_failure_clear(&r->fail);
    ch03_exact ex;
    int st = ch03_exact_init(p, &ex);
    if (st != GSL_SUCCESS)
        return st;
    mbd_study_result res;
    if (strcmp(spec->method, "direct") == 0) {
        if (spec->project)
            return MBD_EINPUT;   /* nothing to project: theta has no constraint */
        /* the Cartesian history is built from the angle's after the run */
        mbd_history local;
        mbd_history_init(&local);
        mbd_history *h = hist ? hist : &local;
        st = ch03_direct_run(p, spec, h, &res);
        if (st == GSL_SUCCESS)
            st = ch03_compare(p, &ex, h, &r->err);
        mbd_history_free(&local);
        if (st != GSL_SUCCESS)
            return st;
    } else {
        /* the library's method run: eq. (58) is stiff (rates ~ mu |C_q|^2)
         * and runs with an implicit BDF; its state (q, v) is not projected.
         * The errors are folded at every output, so that a run without a
         * history (hist NULL: a summary) keeps none. */
        mbd_system sys;
        ch03_system(p, &sys);
        double q0[CH03_N], qd0[CH03_N];
        ch03_initial(p, q0, qd0);
        ch03_compare_state cmp;
        ch03_compare_start(&cmp, p, &ex);
        ch03_spec s = *spec;
        s.observe = compare_output;
        s.observe_ctx = &cmp;
        st = mbd_study_run(&sys, &s, q0, qd0, hist, &res);
        if (st != GSL_SUCCESS)
            return st;
        if (cmp.status != GSL_SUCCESS)
            return cmp.status;   /* the exact solution failed: an error, not a finding */
        ch03_compare_finish(&cmp, &r->err);
    }
    r->status = res.status;
    r->fail = res.fail;
    r->stats = res.stats;
    r->seconds = res.seconds;
    r->integrator = res.integrator;
    r->forced_msbdf = res.integrator_replaced;
    return GSL_SUCCESS;
}
/* << run */

double ch03_violation_time(const mbd_history *h, double level)
{
    for (size_t k = 0; k < h->rows; k++)
        if (h->C_norm[k] > level)
            return h->t[k];
    return NAN;
}

/* ------------------------------------------------------------------------ */
/* The document's corrections                                                */

/* >> matlab-while */
/* MATLAB runs `while A` when A is non-empty and all its elements are
 * non-zero: for A = abs(C) > tol, only when every |C_i| exceeds tol. */
int ch03_matlab_while(const double v[], size_t n, double tol)
{
    if (n == 0)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!(fabs(v[i]) > tol))
            return 0;
    return 1;
}
/* << matlab-while */

void ch03_dead_corrections(const ch03_pendulum *p, const mbd_history *h, double tol,
                           long *matlab_runs, long *any_runs)
{
    *matlab_runs = *any_runs = 0;
    for (size_t k = 0; k < h->rows; k++) {
        const double *q = mbd_history_q(h, k);
        const double C[CH03_M] = {q[0] * q[0] + q[1] * q[1] - p->L * p->L, q[2]};
        *matlab_runs += ch03_matlab_while(C, CH03_M, tol);
        *any_runs += fabs(C[0]) > tol || fabs(C[1]) > tol;
    }
}

/* ------------------------------------------------------------------------ */
/* Computing                                                                 */

void ch03_spec_for(ch03_spec *s, const char *method, const char *integrator, double dt_out)
{
    ch03_spec_default(s);
    s->method = method;
    mbd_ode_preset(integrator, &s->ode);
    s->dt_out = dt_out;
}


/* The largest position difference between two histories on the same grid,
 * and the one at their last common row. */
static void history_difference(const mbd_history *a, const mbd_history *b, double *max_pos,
                               double *at_end)
{
    const size_t rows = a->rows < b->rows ? a->rows : b->rows;
    *max_pos = 0.0;
    *at_end = NAN;
    for (size_t k = 0; k < rows; k++) {
        const double *qa = mbd_history_q(a, k), *qb = mbd_history_q(b, k);
        double d = 0.0;
        for (size_t i = 0; i < CH03_N; i++)
            d = fmax(d, fabs(qa[i] - qb[i]));
        *max_pos = fmax(*max_pos, d);
        *at_end = d;
    }
}

/* The growth rate of |C| where it climbs from 1e-4 to 1e-1. */
static double growth_rate(const mbd_history *h)
{
    const double t1 = ch03_violation_time(h, 1e-4), t2 = ch03_violation_time(h, 1e-1);
    if (!isfinite(t1) || !isfinite(t2) || !(t2 > t1))
        return NAN;
    return log(1e3) / (t2 - t1);
}

/* The multiplier of the projection (and the static penalty's implied one) at
 * the exact state of the first passage through the bottom. */
static int bottom_multiplier(ch03_study *S)
{
    double q[CH03_N], qd[CH03_N];
    int st = ch03_exact_state(&S->p, &S->ex, ch03_exact_bottom_time(&S->ex, 1), q, qd);
    if (st != GSL_SUCCESS)
        return st;
    q[0] = 0.0;      /* exactly the bottom: (0, L, 0) */
    q[1] = S->p.L;
    qd[1] = 0.0;
    mbd_system sys;
    ch03_system(&S->p, &sys);
    const char *methods[2] = {"projection", "penalty"};
    double *out[2] = {&S->lambda_bottom, &S->lambda_penalty};
    for (int i = 0; i < 2; i++) {
        mbd_formulation_params fp = {.mu = 1e8, .alpha = 20, .beta = 20};
        mbd_formulation_method(methods[i], &fp);
        mbd_formulation *f = mbd_formulation_alloc(&sys, &fp);
        if (f == NULL)
            return GSL_ENOMEM;
        gsl_vector_view vq = gsl_vector_view_array(q, CH03_N), vqd = gsl_vector_view_array(qd, CH03_N);
        gsl_vector *qdd = gsl_vector_alloc(CH03_N), *lam = gsl_vector_alloc(CH03_M);
        st = mbd_formulation_accel(f, 0.0, &vq.vector, &vqd.vector, qdd, lam);
        *out[i] = gsl_vector_get(lam, 0);
        gsl_vector_free(qdd);
        gsl_vector_free(lam);
        mbd_formulation_free(f);
        if (st != GSL_SUCCESS)
            return st;
    }
    return GSL_SUCCESS;
}

/* Every run the story and the figures need. A failure of a run itself (a
 * blow-up, a violation) is a finding, kept in its result's status; only a run
 * that cannot be set up is an error here. */
int ch03_compute(ch03_study *S)
{
    if (S->computed)
        return GSL_SUCCESS;
    ch03_pendulum_document(&S->p);
    int st = ch03_exact_init(&S->p, &S->ex);
    if (st != GSL_SUCCESS)
        return st;

    /* Step 1: the model's derivatives against finite differences */
    {
        mbd_system sys;
        ch03_system(&S->p, &sys);
        const double states[3][6] = {{1, 0, 0, 0, 0, 0},
                                     {0.6, 0.8, 0.05, -2.1, 1.6, 0.3},
                                     {-0.28, 0.96, 0, -4.2, -1.2, 0}};
        for (int i = 0; i < 3 && st == GSL_SUCCESS; i++) {
            gsl_vector_const_view q = gsl_vector_const_view_array(states[i], 3);
            gsl_vector_const_view qd = gsl_vector_const_view_array(states[i] + 3, 3);
            st = mbd_system_check_derivatives(&sys, 0.0, &q.vector, &qd.vector, 0.0, &S->fd[i]);
        }
        if (st != GSL_SUCCESS)
            return st;
    }
    st = bottom_multiplier(S);
    if (st != GSL_SUCCESS)
        return st;

    ch03_spec spec;
    for (size_t i = 0; i < N_METHODS && st == GSL_SUCCESS; i++) {
        ch03_spec_for(&spec, METHODS[i].method, "ode23", STORY_DT);
        st = ch03_run(&S->p, &spec, &S->h23[i], &S->r23[i]);
        if (st == GSL_SUCCESS) {
            ch03_spec_for(&spec, METHODS[i].method, "tight", STORY_DT);
            st = ch03_run(&S->p, &spec, &S->htight[i], &S->rtight[i]);
        }
    }
    for (size_t i = 0; i < N_METHODS && st == GSL_SUCCESS; i++) {
        double end;
        history_difference(&S->h23[i], &S->h23[M_DIRECT], &S->vs_direct[i], &end);
    }
    if (st == GSL_SUCCESS) {
        double mx;
        history_difference(&S->h23[M_PEN], &S->h23[M_PROJ], &mx, &S->pen_vs_proj_end);
        history_difference(&S->h23[M_PEN_B], &S->h23[M_PROJ_B], &S->penb_vs_projb, &mx);
    }
    const char *bm[3] = {"projection-baumgarte", "penalty-baumgarte", "penalty-baumgarte-printed"};
    for (int i = 0; i < 3 && st == GSL_SUCCESS; i++) {
        ch03_spec_for(&spec, bm[i], "ode23", STORY_DT);
        spec.beta = SQRT20;
        st = ch03_run(&S->p, &spec, &S->hb[i], &S->rb[i]);
    }
    S->printed_rate[0] = growth_rate(&S->h23[M_PRINTED]);
    S->printed_rate[1] = growth_rate(&S->hb[2]);

    /* >> sweep */
    /* Table 1: mu = 10 ... 1e8 for the three penalties under ode23 (a wide
     * violation limit: how far the mass leaves the circle is the result, and
     * only a run that diverges is stopped) */
    for (int k = 0; k < N_MU; k++)
        S->mus[k] = pow(10.0, k + 1);
    for (int m = 0; m < 3 && st == GSL_SUCCESS; m++)
        for (int k = 0; k < N_MU && st == GSL_SUCCESS; k++) {
            ch03_spec_for(&spec, SWEEP_METHODS[m], "ode23", SWEEP_DT);
            spec.mu = S->mus[k];
            spec.max_violation = 100;
            st = ch03_run(&S->p, &spec, NULL, &S->sweep[m][k]);
        }
    /* the static penalty without integration error */
    for (int k = 0; k < N_MU && st == GSL_SUCCESS; k++) {
        ch03_spec_for(&spec, "penalty", "tight", SWEEP_DT);
        spec.mu = S->mus[k];
        spec.max_violation = 100;
        st = ch03_run(&S->p, &spec, NULL, &S->tsweep[k]);
    }
    /* << sweep */

    /* the alternate penalty at the fixed step h = 1e-4 the document believed in */
    for (int i = 0; i < 2 && st == GSL_SUCCESS; i++) {
        /* outputs (and the violation check) after every step of 1e-4 */
        ch03_spec_for(&spec, "alternate-penalty", "fixed", 1e-4);
        spec.mu = i == 0 ? 1e7 : 1e8;
        st = ch03_run(&S->p, &spec, NULL, &S->go_fixed[i]);
    }

    /* the listings' corrections, on every state of the penalty run */
    ch03_dead_corrections(&S->p, &S->h23[M_PEN], CORRECTION_TOL, &S->matlab_runs, &S->any_runs);
    S->states = S->h23[M_PEN].rows;
    /* a post-step projection that runs: outputs on the grid (interpolated
     * inside steps), and after every step (where the projection acts) */
    const char *pm[2] = {"projection", "penalty"};
    for (int i = 0; i < 2 && st == GSL_SUCCESS; i++)
        for (int j = 0; j < 2 && st == GSL_SUCCESS; j++) {
            ch03_spec_for(&spec, pm[i], "ode23", j == 0 ? STORY_DT : 0.0);
            spec.project = 1;
            st = ch03_run(&S->p, &spec, NULL, &S->proj_run[i][j]);
        }

    /* the index-2 penalty: mu = 1e2, 1e3 (mu = 1e5 is r23[M_IDX2]) */
    S->idx2_mu[0] = 1e2;
    S->idx2_mu[1] = 1e3;
    S->idx2_mu[2] = 1e5;
    for (int i = 0; i < 2 && st == GSL_SUCCESS; i++) {
        ch03_spec_for(&spec, "index2-penalty", "msbdf", STORY_DT);
        spec.mu = S->idx2_mu[i];
        st = ch03_run(&S->p, &spec, NULL, &S->idx2[i]);
    }
    S->idx2[2] = S->r23[M_IDX2];
    /* and what an explicit integrator makes of eq. (58): its first 0.05 s under
     * ode23 (the chapter's runs replace ode23 by msbdf, so this one goes
     * through the library directly) */
    if (st == GSL_SUCCESS) {
        mbd_system sys;
        ch03_system(&S->p, &sys);
        mbd_formulation_params fp = {.kind = MBD_FORMULATION_INDEX2_PENALTY, .mu = 1e5};
        mbd_formulation *f = mbd_formulation_alloc(&sys, &fp);
        mbd_ode_params o23;
        mbd_ode_preset("ode23", &o23);
        mbd_sim_params sp = {.t0 = 0.0, .t_end = IDX2_EXPLICIT_T, .dt_out = 0.01,
                             .max_violation = 1.0};
        double q0[CH03_N], qd0[CH03_N];
        ch03_initial(&S->p, q0, qd0);
        mbd_failure fl;
        if (f == NULL)
            st = GSL_ENOMEM;
        else
            S->idx2_explicit_status = mbd_simulate(f, &o23, &sp, q0, qd0, NULL,
                                                   &S->idx2_explicit, &fl);
        mbd_formulation_free(f);
    }
    if (st == GSL_SUCCESS)
        S->computed = 1;
    return st;
}

ch03_study *ch03_study_alloc(void)
{
    ch03_study *S = calloc(1, sizeof *S);
    if (S == NULL)
        return NULL;
    for (size_t i = 0; i < N_METHODS; i++) {
        mbd_history_init(&S->h23[i]);
        mbd_history_init(&S->htight[i]);
    }
    for (int i = 0; i < 3; i++)
        mbd_history_init(&S->hb[i]);
    return S;
}

void ch03_study_free(ch03_study *S)
{
    if (S == NULL)
        return;
    for (size_t i = 0; i < N_METHODS; i++) {
        mbd_history_free(&S->h23[i]);
        mbd_history_free(&S->htight[i]);
    }
    for (int i = 0; i < 3; i++)
        mbd_history_free(&S->hb[i]);
    free(S);
}
