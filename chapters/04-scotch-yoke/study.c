/* study.c -- chapter 04's computing (see study.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_math.h>

#include "mbd/cli.h"
#include "mbd/formulation.h"
#include "mbd/io.h"
#include "mbd/study.h"
#include "study.h"

/* ------------------------------------------------------------------------ */
/* One run of the pipeline, and its errors against the reference             */

void ch04_grid_free(ch04_grid *r)
{
    free(r->t);
    free(r->states);
    memset(r, 0, sizeof *r);
}

/* the run loop's output grid: t0 + k dt_out, the last one on t_end */
int ch04_grid_compute(const ch04_params *p, double t_end, double dt_out, ch04_grid *r,
                          mbd_failure *fail)
{
    double ratio = t_end / dt_out;
    size_t n = (size_t)floor(ratio + 1e-9);
    if (fabs(ratio - (double)n) > 1e-9 * fmax(1.0, ratio))
        n++;
    r->rows = n + 1;
    r->t = malloc(r->rows * sizeof *r->t);
    r->states = malloc(4 * r->rows * sizeof *r->states);
    if (r->t == NULL || r->states == NULL) {
        ch04_grid_free(r);
        return mbd_failure_set(fail, GSL_ENOMEM, 0.0, "out of memory for the reference");
    }
    for (size_t k = 0; k < r->rows; k++)
        r->t[k] = k >= n ? t_end : (double)k * dt_out;
    int st = ch04_reference(p, REF_EPS, r->t, r->rows, r->states, fail);
    if (st != GSL_SUCCESS)
        ch04_grid_free(r);
    return st;
}

/* max |history - reference| per state; ref may be NULL or on another grid,
 * and then the reference is computed at the history's own times */
/* a run at a loose tolerance (its errors 1e-6 and more) needs a reference
 * good to about 1e-9: computed once, with dense output; a tighter run gets
 * the reference stepped onto each of its outputs */
static int reference_dense(const ch04_config *c)
{
    return c->ode.adaptive && c->ode.rtol >= 1e-6;
}

/* a row's errors into err */
static void compare_row(double err[4], const double q[], const double qd[], const double state[4])
{
    const double x[4] = {q[0], q[1], qd[0], qd[1]};
    for (int j = 0; j < 4; j++)
        err[j] = fmax(err[j], fabs(x[j] - state[j]));
}

int ch04_errors_against(const ch04_params *p, const ch04_config *c, const mbd_history *h,
                        const ch04_grid *ref, double err[4], mbd_failure *fail)
{
    for (int j = 0; j < 4; j++)
        err[j] = 0.0;
    int same = ref != NULL && ref->rows >= h->rows;
    for (size_t k = 0; same && k < h->rows; k++)
        same = ref->t[k] == h->t[k];
    if (same) {
        for (size_t k = 0; k < h->rows; k++)
            compare_row(err, mbd_history_q(h, k), mbd_history_qd(h, k), ref->states + 4 * k);
        return GSL_SUCCESS;
    }
    ch04_reference_seq *s = ch04_reference_seq_alloc(p, REF_EPS, reference_dense(c), c->t_end);
    if (s == NULL)
        return mbd_failure_set(fail, GSL_ENOMEM, 0.0, "out of memory for the reference");
    int st = GSL_SUCCESS;
    for (size_t k = 0; k < h->rows && st == GSL_SUCCESS; k++) {
        double state[4];
        st = ch04_reference_seq_at(s, h->t[k], state, fail);
        if (st == GSL_SUCCESS)
            compare_row(err, mbd_history_q(h, k), mbd_history_qd(h, k), state);
    }
    ch04_reference_seq_free(s);
    return st;
}

/* >> run */
/* One time history of the model p with the method, integrator and options of
 * c: the library's method run (mbd_study_run: formulation -> integrator ->
 * correction -> output), then the errors against the reference. */
int ch04_run_case(const ch04_params *p, const ch04_config *c, const ch04_grid *ref, ch04_run *r)
{
    mbd_system sys;
    ch04_system_init(&sys, p);
    double q0[2], qd0[2];
    ch04_initial_state(p, q0, qd0);
    r->rows = 0;
    int st = mbd_study_run(&sys, c, q0, qd0, &r->h, &r->res);
    if (st != GSL_SUCCESS) {
        r->res.status = st;
        return st;
    }
    if (r->h.rows > 0) {
        r->rows = r->h.rows;
        memcpy(r->q_end, mbd_history_q(&r->h, r->rows - 1), sizeof r->q_end);
        memcpy(r->qd_end, mbd_history_qd(&r->h, r->rows - 1), sizeof r->qd_end);
    }
    if (r->res.status == GSL_ENOMEM || (r->res.status == MBD_EINPUT && r->h.rows == 0))
        return r->res.status;
    mbd_failure rf;
    mbd_failure_clear(&rf);
    st = ch04_errors_against(p, c, &r->h, ref, r->err, &rf);
    if (st != GSL_SUCCESS) {
        r->res.fail = rf;
        return st;
    }
    return GSL_SUCCESS;
}
/* << run */

/* the outputs measured as they come */
typedef struct {
    ch04_run *r;
    ch04_reference_seq *ref;
    int status;
    mbd_failure fail;
} measure;

static int measure_output(void *ctx, double t, const double q[], const double qd[],
                          double C_norm, double Cdot_norm, double E, double step)
{
    (void)C_norm, (void)Cdot_norm, (void)E, (void)step;
    measure *m = ctx;
    ch04_run *r = m->r;
    double state[4];
    int st = ch04_reference_seq_at(m->ref, t, state, &m->fail);
    if (st != GSL_SUCCESS)
        return m->status = st;
    compare_row(r->err, q, qd, state);
    memcpy(r->q_end, q, sizeof r->q_end);
    memcpy(r->qd_end, qd, sizeof r->qd_end);
    r->rows++;
    return GSL_SUCCESS;
}

int ch04_run_measured(const ch04_params *p, const ch04_config *c, ch04_run *r)
{
    mbd_system sys;
    ch04_system_init(&sys, p);
    double q0[2], qd0[2];
    ch04_initial_state(p, q0, qd0);
    r->rows = 0;
    for (int j = 0; j < 4; j++)
        r->err[j] = 0.0;
    measure m = {.r = r, .status = GSL_SUCCESS};
    mbd_failure_clear(&m.fail);
    m.ref = ch04_reference_seq_alloc(p, REF_EPS, reference_dense(c), c->t_end);
    if (m.ref == NULL) {
        memset(&r->res, 0, sizeof r->res);
        r->res.status = GSL_ENOMEM;
        return mbd_failure_set(&r->res.fail, GSL_ENOMEM, 0.0, "out of memory for the reference");
    }
    ch04_config own = *c;
    own.observe = measure_output;
    own.observe_ctx = &m;
    int st = mbd_study_run(&sys, &own, q0, qd0, NULL, &r->res);
    ch04_reference_seq_free(m.ref);
    if (st != GSL_SUCCESS) {
        r->res.status = st;
        return st;
    }
    if (m.status != GSL_SUCCESS) {
        r->res.fail = m.fail;
        return m.status;   /* the reference failed */
    }
    if (r->res.status == GSL_ENOMEM || (r->res.status == MBD_EINPUT && r->rows == 0))
        return r->res.status;
    return GSL_SUCCESS;
}

void ch04_config_default(ch04_config *c, const ch04_params *p, const char *method,
                           const char *integrator)
{
    mbd_study_spec_init(c, method, CH04_T_END, CH04_DT_OUT);
    c->mu = p->mu;
    c->alpha = CH04_ALPHA;
    c->beta = CH04_BETA;
    mbd_ode_preset(integrator, &c->ode);
    if (c->ode.kind == MBD_ODE_RK && c->ode.adaptive)
        c->ode.hmin = HMIN_EXPLICIT;
}

/* ------------------------------------------------------------------------ */
/* The story's computations                                                  */

const ch04_row ch04_rows[NR] = {
    {"projection", 0, "projection"},
    {"projection-baumgarte", 0, "projection-baumgarte"},
    {"penalty", 0, "penalty"},
    {"penalty-baumgarte", 0, "penalty-baumgarte"},
    {"projection", 1, "projection --project"},
};
const char *const ch04_integrators[NI] = {"ode23", "tight"};

void ch04_study_free(ch04_study *s)
{
    for (int v = 0; v < NV; v++) {
        ch04_grid_free(&s->ref[v]);
        for (int m = 0; m < NR; m++)
            for (int i = 0; i < NI; i++)
                mbd_history_free(&s->run[v][m][i].h);
    }
    s->computed = 0;
}

static double schur(const ch04_params *p, double theta)
{
    const double s = p->L * sin(theta);
    return s * s / ch04_inertia(p) + 1.0 / p->m2;
}

/* the 1-norm condition number of M + mu C_q^T C_q at the initial state */
static int condition_at_start(const ch04_params *p, double mu, double *cond, mbd_failure *fail)
{
    mbd_system sys;
    ch04_system_init(&sys, p);
    mbd_formulation_params fp = {.mu = mu, .alpha = CH04_ALPHA, .beta = CH04_BETA};
    mbd_formulation_method("penalty-baumgarte", &fp);
    mbd_formulation *f = mbd_formulation_alloc(&sys, &fp);
    if (f == NULL)
        return mbd_failure_set(fail, MBD_EINPUT, NAN, "the penalty refuses mu = %g", mu);
    double q0[2], qd0[2], y[4];
    ch04_initial_state(p, q0, qd0);
    int st = mbd_formulation_pack(f, 0.0, q0, qd0, y);
    if (st == GSL_SUCCESS)
        st = mbd_formulation_condition(f, 0.0, y, cond);
    if (st != GSL_SUCCESS)
        *fail = *mbd_formulation_failure(f);
    mbd_formulation_free(f);
    return st;
}

int ch04_study_compute(ch04_study *s, mbd_failure *fail)
{
    if (s->computed)
        return GSL_SUCCESS;
    memset(s, 0, sizeof *s);
    for (int v = 0; v < NV; v++) {
        ch04_params_init(&s->p[v], (ch04_variant)v);
        for (int m = 0; m < NR; m++)
            for (int i = 0; i < NI; i++)
                mbd_history_init(&s->run[v][m][i].h);
    }
    int st;

    /* Step 1: the model's derivatives and the initial state */
    {
        const ch04_params *p = &s->p[CH04_TABLE];
        mbd_system sys;
        ch04_system_init(&sys, p);
        double qv[2] = {0.7, 19.0}, qdv[2] = {-1.3, 2.5};
        gsl_vector_view q = gsl_vector_view_array(qv, 2), qd = gsl_vector_view_array(qdv, 2);
        st = mbd_system_check_derivatives(&sys, 0.3, &q.vector, &qd.vector, 0.0, &s->fd);
        if (st != GSL_SUCCESS)
            return mbd_failure_set(fail, st, NAN, "the finite-difference check failed");
        /* C and C' at the initial state, from the model's own callbacks */
        double q0[2], qd0[2], C[1], Cd[1], Cq[2];
        ch04_initial_state(p, q0, qd0);
        gsl_vector_view vq = gsl_vector_view_array(q0, 2), vqd = gsl_vector_view_array(qd0, 2);
        gsl_vector_view vC = gsl_vector_view_array(C, 1), vCd = gsl_vector_view_array(Cd, 1);
        gsl_matrix_view mCq = gsl_matrix_view_array(Cq, 1, 2);
        st = sys.constraint(&sys, 0.0, &vq.vector, &vC.vector);
        if (st == GSL_SUCCESS)
            st = mbd_system_constraint_rate(&sys, 0.0, &vq.vector, &vqd.vector, &mCq.matrix,
                                            &vCd.vector);
        if (st != GSL_SUCCESS)
            return mbd_failure_set(fail, st, 0.0, "the constraint at the initial state failed");
        s->C0 = C[0];
        s->Cdot0 = Cd[0];
    }

    for (int v = 0; v < NV; v++) {
        const ch04_params *p = &s->p[v];
        /* Step 3: the reference on the document's output grid */
        st = ch04_grid_compute(p, CH04_T_END, CH04_DT_OUT, &s->ref[v], fail);
        if (st != GSL_SUCCESS)
            return st;
        const ch04_grid *r = &s->ref[v];
        s->theta_min[v] = s->theta_max[v] = r->states[0];
        s->S_lo[v] = s->S_hi[v] = schur(p, r->states[0]);
        for (size_t k = 0; k < r->rows; k++) {
            const double th = r->states[4 * k];
            s->theta_min[v] = fmin(s->theta_min[v], th);
            s->theta_max[v] = fmax(s->theta_max[v], th);
            s->S_lo[v] = fmin(s->S_lo[v], schur(p, th));
            s->S_hi[v] = fmax(s->S_hi[v], schur(p, th));
        }
        for (int k = 0; k < N_TIMES; k++) {
            size_t row = (size_t)(k + 1) * 5000;   /* t = 0.5 (k + 1) on the 1e-4 grid */
            memcpy(s->table[v][k], r->states + 4 * row, 4 * sizeof(double));
        }
        /* how many digits the reference has: the same at tolerance 1e-11 */
        {
            double tk[N_TIMES], loose[4 * N_TIMES];
            for (int k = 0; k < N_TIMES; k++)
                tk[k] = 0.5 * (k + 1);
            st = ch04_reference(p, 1e-11, tk, N_TIMES, loose, fail);
            if (st != GSL_SUCCESS)
                return st;
            s->ref_self[v] = 0.0;
            for (int k = 0; k < N_TIMES; k++)
                s->ref_self[v] = fmax(s->ref_self[v], fabs(loose[4 * k] - s->table[v][k][0]));
        }

        /* Steps 4-6: every method with ode23 and tight */
        for (int i = 0; i < NI; i++) {
            for (int m = 0; m < NR; m++) {
                ch04_config c;
                ch04_config_default(&c, p, ch04_rows[m].method, ch04_integrators[i]);
                c.project = ch04_rows[m].project;
                st = ch04_run_case(p, &c, r, &s->run[v][m][i]);
                if (st == GSL_SUCCESS)
                    st = s->run[v][m][i].res.status;   /* none of these runs should fail */
                if (st != GSL_SUCCESS) {
                    *fail = s->run[v][m][i].res.fail;
                    return st;
                }
            }
            mbd_history_max_difference(&s->run[v][R_PEN_B][i].h, &s->run[v][R_PROJ_B][i].h, INFINITY,
                                       s->diff_b[v][i]);
            mbd_history_max_difference(&s->run[v][R_PEN][i].h, &s->run[v][R_PROJ][i].h, INFINITY,
                                       s->diff[v][i]);
            if (i != I_ODE23)
                for (int m = 0; m < NR; m++)
                    mbd_history_free(&s->run[v][m][i].h);
        }

        /* Step 7: the penalty factor against the mass scale */
        const double maxM = fmax(ch04_inertia(p), p->m2);
        for (int k = 0; k < NK; k++) {
            ch04_config c;
            ch04_config_default(&c, p, "penalty-baumgarte", "tight");
            c.mu = maxM * pow(10.0, K_MIN + k);
            c.dt_out = SWEEP_DT;
            ch04_run rr;
            mbd_history_init(&rr.h);
            st = ch04_run_case(p, &c, NULL, &rr);
            s->sweep_mu[v][k] = c.mu;
            st = condition_at_start(p, c.mu, &s->sweep_cond[v][k], fail);
            if (st != GSL_SUCCESS) {
                mbd_history_free(&rr.h);
                return st;
            }
            s->sweep_status[v][k] = rr.res.status;
            s->sweep_err[v][k] = rr.err[0];
            s->sweep_steps[v][k] = rr.res.stats.run.ode.steps;
            mbd_history_free(&rr.h);
            if (st != GSL_SUCCESS) {
                *fail = rr.res.fail;
                return st;
            }
        }
    }
    s->computed = 1;
    return GSL_SUCCESS;
}
