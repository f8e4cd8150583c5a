/* ch04-scotch-yoke -- penalty against projection on a forced mechanism: the
 * Scotch yoke of document 000 (Newhart 2019, Sec. 2.4.2, Table 3, Figs. 14-19,
 * listing A.3).
 *
 * The story: write the model, settle what Table 3's units mean (two readings
 * of the same numbers give two different mechanisms), build an independent
 * reference from the reduced one-degree-of-freedom equation, run the
 * document's two methods (projection and static penalty, both with
 * Baumgarte's stabilisation) and both without, measure every run against the
 * reference and the penalty against the projection (Fig. 19), then sweep the
 * penalty factor against the mechanism's own mass scale.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_machine.h>
#include <gsl/gsl_math.h>

#include "mbd/cli.h"
#include "mbd/correction.h"
#include "mbd/formulation.h"
#include "mbd/io.h"
#include "mbd/simulate.h"
#include "scotch.h"

#define PROGRAM "ch04-scotch-yoke"
#define NV 2                 /* the two readings of Table 3 */
#define REF_EPS 1e-13        /* the reference's tolerance (rk8pd) */
#define HMIN_EXPLICIT 1e-7   /* adaptive explicit integrators give up below this step */

/* ------------------------------------------------------------------------ */
/* One run of the pipeline, and its errors against the reference             */

typedef struct {
    const char *method;          /* a library method name (formulation.h) */
    mbd_ode_params ode;
    int project;                 /* post-step coordinate projection */
    double mu, alpha, beta;
    double t_end, dt_out, max_violation;
    long max_steps, max_outputs;   /* the run's limits: 0 for the library's */
} run_config;

typedef struct {
    int status;
    mbd_failure fail;
    mbd_history h;
    mbd_sim_stats stats;
    double err[4];               /* max |q - q_ref| for theta1, x2, theta1_dot, x2_dot */
    double seconds;
} run_result;

/* The reference on an output grid, kept so that every run on that grid is
 * compared with the same numbers. */
typedef struct {
    size_t rows;
    double *t, *states;          /* states: 4 per row */
} reference;

static void reference_free(reference *r)
{
    free(r->t);
    free(r->states);
    memset(r, 0, sizeof *r);
}

/* the run loop's output grid: t0 + k dt_out, the last one on t_end */
static int reference_grid(const ch04_params *p, double t_end, double dt_out, reference *r,
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
        reference_free(r);
        return mbd_failure_set(fail, GSL_ENOMEM, 0.0, "out of memory for the reference");
    }
    for (size_t k = 0; k < r->rows; k++)
        r->t[k] = k >= n ? t_end : (double)k * dt_out;
    int st = ch04_reference(p, REF_EPS, r->t, r->rows, r->states, fail);
    if (st != GSL_SUCCESS)
        reference_free(r);
    return st;
}

/* max |history - reference| per state; ref may be NULL or on another grid,
 * and then the reference is computed at the history's own times */
static int errors_against(const ch04_params *p, const mbd_history *h, const reference *ref,
                          double err[4], mbd_failure *fail)
{
    const double *states = NULL;
    double *own = NULL;
    int same = ref != NULL && ref->rows >= h->rows;
    for (size_t k = 0; same && k < h->rows; k++)
        same = ref->t[k] == h->t[k];
    if (same) {
        states = ref->states;
    } else {
        own = malloc(4 * (h->rows ? h->rows : 1) * sizeof *own);
        if (own == NULL)
            return mbd_failure_set(fail, GSL_ENOMEM, 0.0, "out of memory for the reference");
        int st = ch04_reference(p, REF_EPS, h->t, h->rows, own, fail);
        if (st != GSL_SUCCESS) {
            free(own);
            return st;
        }
        states = own;
    }
    for (int j = 0; j < 4; j++)
        err[j] = 0.0;
    for (size_t k = 0; k < h->rows; k++) {
        const double *q = mbd_history_q(h, k), *qd = mbd_history_qd(h, k);
        const double x[4] = {q[0], q[1], qd[0], qd[1]};
        for (int j = 0; j < 4; j++)
            err[j] = fmax(err[j], fabs(x[j] - states[4 * k + j]));
    }
    free(own);
    return GSL_SUCCESS;
}

/* >> run */
/* One time history of the model p with the method, integrator and options of
 * c: the whole pipeline is mbd_simulate(). A numerical failure is recorded
 * in r (the history holds the outputs up to it); only bad parameters and
 * lack of memory are returned. */
static int run_case(const ch04_params *p, const run_config *c, const reference *ref,
                    run_result *r)
{
    mbd_system sys;
    ch04_system_init(&sys, p);
    mbd_formulation_params fp = {.mu = c->mu, .alpha = c->alpha, .beta = c->beta};
    mbd_failure_clear(&r->fail);
    r->status = GSL_SUCCESS;
    if (mbd_formulation_method(c->method, &fp) != GSL_SUCCESS)
        return mbd_failure_set(&r->fail, MBD_EINPUT, NAN, "unknown method '%s'", c->method);
    mbd_formulation *f = mbd_formulation_alloc(&sys, &fp);
    if (f == NULL)
        return mbd_failure_set(&r->fail, MBD_EINPUT, NAN,
                               "the method '%s' refuses these parameters (mu = %g)", c->method, c->mu);
    const mbd_sim_params sp = {
        .t0 = 0.0,
        .t_end = c->t_end,
        .dt_out = c->dt_out,
        .max_violation = c->max_violation,
        .max_steps = c->max_steps,
        .max_outputs = c->max_outputs,
        .project = c->project,
        .projection = {.mass_weighted = 0, .tol = 1e-10, .max_iter = 20},
    };
    double q0[2], qd0[2];
    ch04_initial_state(p, q0, qd0);
    const double t0 = mbd_cli_seconds();
    r->status = mbd_simulate(f, &c->ode, &sp, q0, qd0, &r->h, &r->stats, &r->fail);
    r->seconds = mbd_cli_seconds() - t0;
    mbd_formulation_free(f);
    if (r->status == GSL_ENOMEM || r->status == MBD_EINPUT)
        return r->status;
    mbd_failure rf;
    mbd_failure_clear(&rf);
    int st = errors_against(p, &r->h, ref, r->err, &rf);
    if (st != GSL_SUCCESS) {
        r->fail = rf;
        return st;
    }
    return GSL_SUCCESS;
}
/* << run */

/* max |a - b| per state over the common outputs of two runs on one grid */
static void difference(const mbd_history *a, const mbd_history *b, double d[4])
{
    size_t rows = a->rows < b->rows ? a->rows : b->rows;
    for (int j = 0; j < 4; j++)
        d[j] = 0.0;
    for (size_t k = 0; k < rows; k++) {
        const double *qa = mbd_history_q(a, k), *qb = mbd_history_q(b, k);
        const double *va = mbd_history_qd(a, k), *vb = mbd_history_qd(b, k);
        const double x[4] = {qa[0] - qb[0], qa[1] - qb[1], va[0] - vb[0], va[1] - vb[1]};
        for (int j = 0; j < 4; j++)
            d[j] = fmax(d[j], fabs(x[j]));
    }
}

static void config_default(run_config *c, const ch04_params *p, const char *method,
                           const char *integrator)
{
    *c = (run_config){
        .method = method,
        .mu = p->mu,
        .alpha = CH04_ALPHA,
        .beta = CH04_BETA,
        .t_end = CH04_T_END,
        .dt_out = CH04_DT_OUT,
        .max_violation = 1.0,
    };
    mbd_ode_preset(integrator, &c->ode);
    if (c->ode.kind == MBD_ODE_RK && c->ode.adaptive)
        c->ode.hmin = HMIN_EXPLICIT;
}

/* ------------------------------------------------------------------------ */
/* The story's computations                                                  */

/* the rows of the story's comparison: the document's two methods and both
 * without Baumgarte, and the projection with a post-step correction */
enum { R_PROJ, R_PROJ_B, R_PEN, R_PEN_B, R_PROJ_POST, NR };
static const struct {
    const char *method;
    int project;
    const char *label;
} ROWS[NR] = {
    {"projection", 0, "projection"},
    {"projection-baumgarte", 0, "projection-baumgarte"},
    {"penalty", 0, "penalty"},
    {"penalty-baumgarte", 0, "penalty-baumgarte"},
    {"projection", 1, "projection --project"},
};
enum { I_ODE23, I_TIGHT, NI };
static const char *const INTEGRATORS[NI] = {"ode23", "tight"};

/* the penalty-factor sweep: mu = max(M) 10^k */
#define K_MIN 1
#define K_MAX 8
#define NK (K_MAX - K_MIN + 1)
#define SWEEP_DT 0.01

#define N_TIMES 8                /* the reference table: t = 0.5, 1, ..., 4 */

typedef struct {
    ch04_params p[NV];
    reference ref[NV];
    run_result run[NV][NR][NI];      /* histories kept for ode23 only */
    double diff_b[NV][NI][4];        /* max |penalty-baumgarte - projection-baumgarte| */
    double diff[NV][NI][4];          /* max |penalty - projection| */
    /* Step 1 */
    mbd_fdcheck fd;
    double C0, Cdot0;
    /* Step 3 */
    double table[NV][N_TIMES][4];
    double theta_min[NV], theta_max[NV];
    double ref_self[NV];             /* |reference(eps 1e-11) - reference(eps 1e-13)| in theta1 */
    /* Step 7 */
    double S_lo[NV], S_hi[NV];       /* C_q M^-1 C_q^T over the motion */
    double sweep_mu[NV][NK], sweep_err[NV][NK], sweep_cond[NV][NK];
    long sweep_steps[NV][NK];
    int sweep_status[NV][NK];
    int computed;
} study;

static void study_free(study *s)
{
    for (int v = 0; v < NV; v++) {
        reference_free(&s->ref[v]);
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

static int study_compute(study *s, mbd_failure *fail)
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
        st = reference_grid(p, CH04_T_END, CH04_DT_OUT, &s->ref[v], fail);
        if (st != GSL_SUCCESS)
            return st;
        const reference *r = &s->ref[v];
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
                run_config c;
                config_default(&c, p, ROWS[m].method, INTEGRATORS[i]);
                c.project = ROWS[m].project;
                st = run_case(p, &c, r, &s->run[v][m][i]);
                if (st == GSL_SUCCESS)
                    st = s->run[v][m][i].status;   /* none of these runs should fail */
                if (st != GSL_SUCCESS) {
                    *fail = s->run[v][m][i].fail;
                    return st;
                }
            }
            difference(&s->run[v][R_PEN_B][i].h, &s->run[v][R_PROJ_B][i].h, s->diff_b[v][i]);
            difference(&s->run[v][R_PEN][i].h, &s->run[v][R_PROJ][i].h, s->diff[v][i]);
            if (i != I_ODE23)
                for (int m = 0; m < NR; m++)
                    mbd_history_free(&s->run[v][m][i].h);
        }

        /* Step 7: the penalty factor against the mass scale */
        const double maxM = fmax(ch04_inertia(p), p->m2);
        for (int k = 0; k < NK; k++) {
            run_config c;
            config_default(&c, p, "penalty-baumgarte", "tight");
            c.mu = maxM * pow(10.0, K_MIN + k);
            c.dt_out = SWEEP_DT;
            run_result rr;
            mbd_history_init(&rr.h);
            st = run_case(p, &c, NULL, &rr);
            s->sweep_mu[v][k] = c.mu;
            st = condition_at_start(p, c.mu, &s->sweep_cond[v][k], fail);
            if (st != GSL_SUCCESS) {
                mbd_history_free(&rr.h);
                return st;
            }
            s->sweep_status[v][k] = rr.status;
            s->sweep_err[v][k] = rr.err[0];
            s->sweep_steps[v][k] = rr.stats.run.ode.steps;
            mbd_history_free(&rr.h);
            if (st != GSL_SUCCESS) {
                *fail = rr.fail;
                return st;
            }
        }
    }
    s->computed = 1;
    return GSL_SUCCESS;
}

/* ------------------------------------------------------------------------ */
/* The story                                                                 */

/* the states as figure labels (gnuplot's enhanced text takes _ for a subscript) */
static const char *state_labels[4] = {"theta1 [rad]", "x2 [in]", "dtheta1/dt [rad/s]",
                                      "dx2/dt [in/s]"};

static void num_or_status(mbd_table *t, const run_result *r, double value, int digits)
{
    if (r->status != GSL_SUCCESS && r->h.rows == 0)
        mbd_table_cell(t, "-");
    else
        mbd_table_num(t, value, digits);
}

static void errors_table(FILE *out, const study *s, int v)
{
    const char *h[] = {"method", "integrator", "steps", "f evals", "max |C| [in]",
                       "max |C'| [in/s]", "theta1 err", "x2 err", "theta1_dot err", "x2_dot err"};
    mbd_table *t = mbd_table_alloc(10, h);
    for (int i = 0; i < NI; i++)
        for (int m = 0; m < NR; m++) {
            const run_result *r = &s->run[v][m][i];
            mbd_table_cell(t, "%s", ROWS[m].label);
            mbd_table_cell(t, "%s", INTEGRATORS[i]);
            mbd_table_cell(t, "%ld", r->stats.run.ode.steps);
            mbd_table_cell(t, "%ld", r->stats.run.ode.fevals);
            num_or_status(t, r, r->stats.max_C, 2);
            num_or_status(t, r, r->stats.max_Cdot, 2);
            for (int j = 0; j < 4; j++)
                num_or_status(t, r, r->err[j], 2);
        }
    mbd_table_print(t, out, 2);
    mbd_table_free(t);
}

/* the sweep's exponent with the smallest error */
static int best_k(const study *s, int v)
{
    int best = 0;
    for (int k = 1; k < NK; k++)
        if (s->sweep_status[v][k] == GSL_SUCCESS && s->sweep_err[v][k] < s->sweep_err[v][best])
            best = k;
    return K_MIN + best;
}

static int story(FILE *out, study *s, int no_timing, mbd_failure *fail)
{
    int st = study_compute(s, fail);
    if (st != GSL_SUCCESS)
        return st;
    const ch04_params *pt = &s->p[CH04_TABLE], *pl = &s->p[CH04_LISTING];
    char buf[64];

    fprintf(out, "Chapter 04 -- The Scotch yoke: penalty against projection on a forced mechanism\n");
    fprintf(out, "Reproduces document 000 (Newhart 2019), Sec. 2.4.2, Table 3, Figs. 14-19 and listing A.3.\n\n");

    fprintf(out, "Step 1. The mechanism and its equations\n");
    fprintf(out, "  a rod (length L = %g in, width b) turns about a pin at the origin; its tip rides in\n"
                 "  the vertical slot of a yoke that slides along x. q = (theta1, x2): the rod's angle\n"
                 "  from +x, the yoke's position. Gravity acts in -y (g = %g in/s^2).\n", pt->L, pt->g);
    fprintf(out, "    M     = diag(m1 (4 L^2 + b^2)/12, m2)\n"
                 "    F     = [-m1 g L cos(theta1)/2;  sin(pi t/4)]\n"
                 "    C     = x2 - L cos(theta1)            (the tip stays in the slot)\n"
                 "    C_q   = [L sin(theta1), 1]\n"
                 "    gamma = -L cos(theta1) theta1_dot^2     (C_q q'' = gamma)\n");
    fprintf(out, "  The force on the yoke: listing A.3 sets F = -sin(t pi/4) and applies -F, so the\n"
                 "  generalized force on x2 is +sin(pi t/4) lbf; the text's \"f = -sin\" alone leaves the\n"
                 "  sign open, the listing decides it.\n");
    fprintf(out, "  Derivatives against central finite differences of C at theta1 = 0.7, x2 = 19,\n"
                 "  theta1_dot = -1.3, x2_dot = 2.5:\n");
    fprintf(out, "    |C_q - dC/dq| = %.1e (relative %.1e);  |gamma + d2C/ds2| = %.1e (relative %.1e)\n",
            s->fd.jacobian_abs, s->fd.jacobian_rel, s->fd.gamma_abs, s->fd.gamma_rel);
    {
        double q0[2], qd0[2];
        ch04_initial_state(pt, q0, qd0);
        fprintf(out, "  Initial state: theta1 = %g rad, x2 = L cos(1) = %.6f in (Table 3: 13.5076), at rest;\n"
                     "  C(q0) = %.1e in, C'(q0) = %.1e in/s: consistent.\n\n",
                q0[0], q0[1], s->C0, s->Cdot0);
    }

    fprintf(out, "Step 2. Table 3's units: one set of numbers, two mechanisms\n");
    fprintf(out, "  Table 3 lists m1 = 0.5 and m2 = 5 in [lbf], a unit of force: they are weights. The\n"
                 "  text uses them as masses (M11 = 104, hence mu = 10^7); listing A.3 divides them by g\n"
                 "  (mass in lbf s^2/in, which it calls \"slug\") and also takes b = 0.05 in and mu = 10^5.\n");
    {
        const char *h[] = {"reading", "m1 [lbf s^2/in]", "m2 [lbf s^2/in]", "b [in]", "M11 [lbf s^2 in]",
                           "M22", "mu", "mu / max M", "gravity/M11 [1/s^2]", "force/M11 [1/s^2]"};
        mbd_table *t = mbd_table_alloc(10, h);
        for (int v = 0; v < NV; v++) {
            const ch04_params *p = &s->p[v];
            const double I1 = ch04_inertia(p);
            mbd_table_cell(t, "%s", p->name);
            mbd_table_cell(t, "%.6g", p->m1);
            mbd_table_cell(t, "%.6g", p->m2);
            mbd_table_cell(t, "%g", p->b);
            mbd_table_cell(t, "%.6g", I1);
            mbd_table_cell(t, "%.6g", p->m2);
            mbd_table_cell(t, "%g", p->mu);
            mbd_table_cell(t, "%.3g", p->mu / fmax(I1, p->m2));
            mbd_table_cell(t, "%.5g", 0.5 * p->m1 * p->g * p->L / I1);
            mbd_table_cell(t, "%.5g", p->F0 * p->L / I1);
        }
        mbd_table_print(t, out, 2);
        mbd_table_free(t);
    }
    const double grav_t = 0.5 * pt->m1 * pt->g * pt->L / ch04_inertia(pt);
    const double grav_l = 0.5 * pl->m1 * pl->g * pl->L / ch04_inertia(pl);
    const double force_t = pt->F0 * pt->L / ch04_inertia(pt), force_l = pl->F0 * pl->L / ch04_inertia(pl);
    fprintf(out, "  (gravity/M11 = m1 g L / (2 M11) and force/M11 = F0 L / M11 are the angular\n"
                 "  accelerations the two loads can give the rod alone.) Dividing every mass by g leaves\n"
                 "  gravity's effect as it was (ratio %.4f: only the width, 2 -> 0.05 in, changes M11),\n"
                 "  but the force is given in lbf and is not scaled: its effect grows by g = 386.4\n"
                 "  (%.1f with the narrower rod).\n"
                 "  In the table reading gravity's moment is about %.0f times the force's and the rod\n"
                 "  falls; in the listing reading the force is %.1f times gravity and pushes the yoke\n"
                 "  back and forth. Only the listing is dimensionally what Table 3 says (weights of\n"
                 "  0.5 and 5 lbf); the text's M11 = 104 treats a weight as a mass.\n\n",
            grav_l / grav_t, force_l / force_t, 0.5 * pt->m1 * pt->g / pt->F0,
            pl->F0 / (0.5 * pl->m1 * pl->g));

    fprintf(out, "Step 3. An independent reference: the reduced one-degree-of-freedom equation\n");
    fprintf(out, "  With x2 = L cos(theta1) the constraint is solved, and Lagrange's equation in theta1 is\n"
                 "    (I1 + m2 L^2 sin^2) theta1'' + m2 L^2 sin cos theta1'^2 = -m1 g L cos / 2 - F2 L sin,\n"
                 "  I1 = M11, F2 = sin(pi t/4). Integrated with GSL's rk8pd (tolerance %.0e):\n", REF_EPS);
    {
        const char *h[] = {"t [s]", "theta1, table [rad]", "theta1, listing [rad]"};
        mbd_table *t = mbd_table_alloc(3, h);
        for (int k = 0; k < N_TIMES; k++) {
            mbd_table_cell(t, "%.1f", 0.5 * (k + 1));
            mbd_table_cell(t, "%.10f", s->table[CH04_TABLE][k][0]);
            mbd_table_cell(t, "%.10f", s->table[CH04_LISTING][k][0]);
        }
        mbd_table_print(t, out, 2);
        mbd_table_free(t);
    }
    for (int v = 0; v < NV; v++) {
        const double *e = s->table[v][N_TIMES - 1];
        fprintf(out, "  %-7s at t = 4: x2 = %.8f in, theta1_dot = %.8f rad/s, x2_dot = %.8f in/s;\n"
                     "          theta1 stays in [%.6f, %.6f] rad\n",
                s->p[v].name, e[1], e[2], e[3], s->theta_min[v], s->theta_max[v]);
    }
    fprintf(out, "  The table-reading rod falls through the bottom (-pi/2) and swings up almost to the\n"
                 "  mirror height -pi - 1 = %.4f; the listing-reading rod is pushed to and fro by the\n"
                 "  force. The same integration at tolerance 1e-11 differs in theta1 by at most %.1e\n"
                 "  (table) and %.1e (listing) at these times.\n\n",
            -M_PI - 1.0, s->ref_self[CH04_TABLE], s->ref_self[CH04_LISTING]);

    fprintf(out, "Step 4. The document's runs: ode23 (RelTol 1e-3, AbsTol 1e-6), outputs every 1e-4 s,\n"
                 "  table reading, mu = 10^7, alpha = beta = 20 (Figs. 17 and 18)\n");
    {
        const run_result *pb = &s->run[CH04_TABLE][R_PROJ_B][I_ODE23];
        const run_result *nb = &s->run[CH04_TABLE][R_PEN_B][I_ODE23];
        const reference *r = &s->ref[CH04_TABLE];
        const char *h[] = {"t [s]", "theta1 proj-B", "theta1 pen-B", "theta1 ref", "x2 proj-B",
                           "x2 pen-B", "x2 ref"};
        mbd_table *t = mbd_table_alloc(7, h);
        for (int k = 1; k <= 4; k++) {
            size_t row = (size_t)k * 10000;
            mbd_table_cell(t, "%d", k);
            mbd_table_cell(t, "%.6f", mbd_history_q(&pb->h, row)[0]);
            mbd_table_cell(t, "%.6f", mbd_history_q(&nb->h, row)[0]);
            mbd_table_cell(t, "%.6f", r->states[4 * row]);
            mbd_table_cell(t, "%.5f", mbd_history_q(&pb->h, row)[1]);
            mbd_table_cell(t, "%.5f", mbd_history_q(&nb->h, row)[1]);
            mbd_table_cell(t, "%.5f", r->states[4 * row + 1]);
        }
        mbd_table_print(t, out, 2);
        mbd_table_free(t);
        const char *h2[] = {"method", "steps", "rejected", "f evals", "run time", "document (mean of 100)"};
        t = mbd_table_alloc(6, h2);
        const run_result *rr[2] = {nb, pb};
        const char *names[2] = {"penalty-baumgarte", "projection-baumgarte"};
        const char *doc[2] = {"0.7528 s", "0.7214 s"};
        for (int m = 0; m < 2; m++) {
            mbd_table_cell(t, "%s", names[m]);
            mbd_table_cell(t, "%ld", rr[m]->stats.run.ode.steps);
            mbd_table_cell(t, "%ld", rr[m]->stats.run.ode.rejected);
            mbd_table_cell(t, "%ld", rr[m]->stats.run.ode.fevals);
            mbd_table_cell(t, "%s", mbd_cli_format_seconds(buf, sizeof buf, rr[m]->seconds, no_timing));
            mbd_table_cell(t, "%s", doc[m]);
        }
        mbd_table_print(t, out, 2);
        mbd_table_free(t);
        fprintf(out, "  The two methods take the same steps and agree to the digits shown; both are\n"
                     "  off the reference in the third decimal of theta1: that is ode23's RelTol 1e-3.\n"
                     "  (Run times include recording 40001 outputs; the document's were MATLAB's.)\n\n");
    }

    fprintf(out, "Step 5. Every run against the reference (max over the outputs, 0 ... 4 s)\n");
    for (int v = 0; v < NV; v++) {
        fprintf(out, "  %s reading (mu = %g, alpha = beta = 20):\n", s->p[v].name, s->p[v].mu);
        errors_table(out, s, v);
    }
    {
        const run_result *a = &s->run[CH04_TABLE][R_PROJ][I_ODE23];
        const run_result *b = &s->run[CH04_TABLE][R_PROJ_B][I_ODE23];
        fprintf(out, "  Without stabilisation the constraint drifts (max |C| = %.2g in with ode23) and the\n"
                     "  error grows with it; Baumgarte's terms hold |C| to %.2g and cut the error in theta1\n"
                     "  by %.1fx. A post-step projection (--project) puts the state back on C = 0 after\n"
                     "  every step; the outputs between steps come from the step's interpolant, which\n"
                     "  misses by up to %.1g in. Whatever the method, ode23's RelTol 1e-3 sets the error.\n"
                     "  With the tight integrator the projection is within %.1e rad of the reference\n"
                     "  and the penalty's own error, of order 1/mu, shows: %.1e (penalty-baumgarte).\n\n",
                a->stats.max_C, b->stats.max_C, a->err[0] / b->err[0],
                s->run[CH04_TABLE][R_PROJ_POST][I_ODE23].stats.max_C,
                s->run[CH04_TABLE][R_PROJ_B][I_TIGHT].err[0], s->run[CH04_TABLE][R_PEN_B][I_TIGHT].err[0]);
    }

    fprintf(out, "Step 6. Penalty minus projection (Fig. 19): max |difference| over 0 ... 4 s\n");
    {
        const char *h[] = {"reading", "integrator", "pair", "theta1", "x2", "theta1_dot", "x2_dot"};
        mbd_table *t = mbd_table_alloc(7, h);
        for (int v = 0; v < NV; v++)
            for (int i = 0; i < NI; i++)
                for (int b = 1; b >= 0; b--) {
                    mbd_table_cell(t, "%s", s->p[v].name);
                    mbd_table_cell(t, "%s", INTEGRATORS[i]);
                    mbd_table_cell(t, "%s", b ? "with Baumgarte" : "without");
                    for (int j = 0; j < 4; j++)
                        mbd_table_num(t, b ? s->diff_b[v][i][j] : s->diff[v][i][j], 2);
                }
        mbd_table_print(t, out, 2);
        mbd_table_free(t);
        const double *d = s->diff_b[CH04_TABLE][I_ODE23];
        const run_result *pb = &s->run[CH04_TABLE][R_PROJ_B][I_ODE23];
        fprintf(out, "  With ode23 the difference (theta1 %.1e) is %.0fx smaller than either method's\n"
                     "  error against the reference (%.1e): Fig. 19 shows how alike the two methods are,\n"
                     "  not how accurate. The difference is the same with ode23 and with tight: the two\n"
                     "  runs take the same steps, so the integrator's error cancels, and what is left is\n"
                     "  the penalty's own O(1/(mu S)) error (Step 5, tight: %.1e).\n\n",
                d[0], pb->err[0] / d[0], pb->err[0], s->run[CH04_TABLE][R_PEN_B][I_TIGHT].err[0]);
    }

    fprintf(out, "Step 7. The penalty factor against the mass scale (penalty-baumgarte, tight)\n");
    fprintf(out, "  The penalty leaves a residual in the acceleration constraint,\n"
                 "    C_q q'' - gamma_B = (C_q M^-1 F - gamma_B) / (1 + mu S),   S = C_q M^-1 C_q^T,\n"
                 "  so mu S, not mu, decides. Over the motion S runs from %.4g to %.4g (table) and\n"
                 "  from %.4g to %.4g (listing): dividing the masses by g multiplies S by g.\n",
            s->S_lo[CH04_TABLE], s->S_hi[CH04_TABLE], s->S_lo[CH04_LISTING], s->S_hi[CH04_LISTING]);
    {
        const char *h[] = {"k", "mu table", "eps cond", "theta1 err", "steps", "mu listing",
                           "eps cond", "theta1 err", "steps"};
        mbd_table *t = mbd_table_alloc(9, h);
        for (int k = 0; k < NK; k++) {
            mbd_table_cell(t, "%d", K_MIN + k);
            for (int v = 0; v < NV; v++) {
                mbd_table_cell(t, "%.3g", s->sweep_mu[v][k]);
                mbd_table_num(t, GSL_DBL_EPSILON * s->sweep_cond[v][k], 2);
                if (s->sweep_status[v][k] == GSL_SUCCESS)
                    mbd_table_num(t, s->sweep_err[v][k], 2);
                else
                    mbd_table_cell(t, "failed");
                mbd_table_cell(t, "%ld", s->sweep_steps[v][k]);
            }
        }
        mbd_table_print(t, out, 2);
        mbd_table_free(t);
    }
    fprintf(out, "  mu = max(M) x 10^k; eps cond is the rounding level of solving with M + mu C_q^T C_q\n"
                 "  at the start (eps = 2.2e-16 times its condition number). In both readings the error\n"
                 "  falls as 1/mu, and it turns at the same k: mu S is the same function of k in both,\n"
                 "  since M and 1/S scale together. The document's rule (k = 5) is the table reading's\n"
                 "  10^7; the listing's 10^5 is k = %.2f. Past the best k (%d and %d here) rounding in\n"
                 "  the solve is noise in q'' that the error controller chases with ever smaller steps,\n"
                 "  and the error grows again. How far mu can go depends on the tolerance: the noise\n"
                 "  must stay below it.\n\n",
            log10(pl->mu / ch04_inertia(pl)), best_k(s, CH04_TABLE), best_k(s, CH04_LISTING));

    fprintf(out, "Step 8. What the document shows, and what it does not\n");
    fprintf(out, "  - Fig. 17, \"Scotch Penalty Motion\", is drawn from the projection run: listing A.3\n"
                 "    plots qp (the projection's states) under the title \"Penalty\". The difference\n"
                 "    plot (Fig. 19) does use both runs. This chapter's motion figure is the penalty's.\n"
                 "  - Table 3's masses are weights in lbf; the text reads them as masses, the listing\n"
                 "    divides by g and changes b (2 -> 0.05 in) and mu (10^7 -> 10^5) (Step 2).\n"
                 "  - The force: text f = -sin(pi t/4) on body 2; the listing applies -f (Step 1).\n"
                 "  - \"Solutions are compared with the example problem solution\": no such solution or\n"
                 "    error is given; Step 3's reduced equation is one, and Step 5 the comparison.\n"
                 "  - Listing A.3's timing loops have their ends commented out, so it would not run as\n"
                 "    printed; A.3.a's comment says \"Slider Crank\". Its Baumgarte sign (gamma - B) is\n"
                 "    the stable one (unlike eq. 72 and listing A.2.b).\n"
                 "  - Table 3's \"dt = 0.0001\" is the output spacing: ode23 chose %ld steps (Step 4).\n",
            s->run[CH04_TABLE][R_PEN_B][I_ODE23].stats.run.ode.steps);
    return GSL_SUCCESS;
}

/* ------------------------------------------------------------------------ */
/* Figures                                                                   */

#define PLOT_EVERY 20   /* every 20th output (2 ms): 2001 points a curve */

typedef struct {
    size_t n;
    double *t, *y[8];
} plot_data;

static void plot_data_free(plot_data *d)
{
    free(d->t);
    for (int j = 0; j < 8; j++)
        free(d->y[j]);
}

/* A time column and eight curves of n points; GSL_ENOMEM (nothing held) when
 * memory runs out. */
static int plot_data_alloc(plot_data *d, size_t n)
{
    d->n = n;
    d->t = malloc(n * sizeof *d->t);
    int ok = d->t != NULL;
    for (int j = 0; j < 8; j++) {
        d->y[j] = malloc(n * sizeof *d->y[j]);
        ok = ok && d->y[j] != NULL;
    }
    if (ok)
        return GSL_SUCCESS;
    plot_data_free(d);
    return GSL_ENOMEM;
}

/* >> figures */
static int write_figures(const char *prefix, study *s, mbd_failure *fail)
{
    int st = study_compute(s, fail);
    if (st != GSL_SUCCESS)
        return st;
    const size_t rows = s->run[CH04_TABLE][R_PEN_B][I_ODE23].h.rows;
    const size_t n = (rows + PLOT_EVERY - 1) / PLOT_EVERY;
    char path[1024];

    /* motion: the penalty-baumgarte runs (what Fig. 17 meant to show) */
    {
        plot_data d;
        if (plot_data_alloc(&d, n) != GSL_SUCCESS)
            return mbd_failure_set(fail, GSL_ENOMEM, NAN, "out of memory for a figure");
        for (int v = 0; v < NV; v++) {
            const mbd_history *h = &s->run[v][R_PEN_B][I_ODE23].h;
            for (size_t k = 0; k < n; k++) {
                size_t row = k * PLOT_EVERY < h->rows ? k * PLOT_EVERY : h->rows - 1;
                d.t[k] = h->t[row];
                d.y[4 * v + 0][k] = mbd_history_q(h, row)[0];
                d.y[4 * v + 1][k] = mbd_history_q(h, row)[1];
                d.y[4 * v + 2][k] = mbd_history_qd(h, row)[0];
                d.y[4 * v + 3][k] = mbd_history_qd(h, row)[1];
            }
        }
        mbd_series sr[8];
        mbd_panel pn[4];
        for (int v = 0; v < NV; v++) {
            sr[4 * v + 0] = (mbd_series){"theta1 [rad]", d.t, d.y[4 * v + 0], n, "lines", 0};
            sr[4 * v + 1] = (mbd_series){"x2 [in] (right axis)", d.t, d.y[4 * v + 1], n, "lines dt 2", 1};
            sr[4 * v + 2] = (mbd_series){"dtheta1/dt [rad/s]", d.t, d.y[4 * v + 2], n, "lines", 0};
            sr[4 * v + 3] = (mbd_series){"dx2/dt [in/s] (right axis)", d.t, d.y[4 * v + 3], n,
                                         "lines dt 2", 1};
        }
        static char titles[4][96];
        for (int v = 0; v < NV; v++) {
            snprintf(titles[2 * v], sizeof titles[0], "%s reading: positions", s->p[v].name);
            snprintf(titles[2 * v + 1], sizeof titles[0], "%s reading: velocities", s->p[v].name);
            pn[2 * v] = (mbd_panel){.title = titles[2 * v], .xlabel = "t [s]", .ylabel = "theta1 [rad]",
                                    .y2label = "x2 [in]", .series = sr + 4 * v, .nseries = 2,
                                    .extra = "set key below"};
            pn[2 * v + 1] = (mbd_panel){.title = titles[2 * v + 1], .xlabel = "t [s]",
                                        .ylabel = "dtheta1/dt [rad/s]", .y2label = "dx2/dt [in/s]",
                                        .series = sr + 4 * v + 2, .nseries = 2,
                                        .extra = "set key below"};
        }
        const mbd_figure fig = {
            .title = "Scotch yoke, penalty-baumgarte with ode23 (document 000, Figs. 17-18)",
            .rows = 2, .cols = 2, .panels = pn};
        st = mbd_plot_svg(mbd_plot_path(path, sizeof path, prefix, "motion"), &fig, fail);
        plot_data_free(&d);
        if (st != GSL_SUCCESS)
            return st;
    }

    /* difference: |penalty-baumgarte - projection-baumgarte| per state (Fig. 19),
     * both readings, with the projection's own error against the reference */
    {
        plot_data d;
        if (plot_data_alloc(&d, n) != GSL_SUCCESS)
            return mbd_failure_set(fail, GSL_ENOMEM, NAN, "out of memory for a figure");
        for (int v = 0; v < NV; v++) {
            const mbd_history *a = &s->run[v][R_PEN_B][I_ODE23].h, *b = &s->run[v][R_PROJ_B][I_ODE23].h;
            for (size_t k = 0; k < n; k++) {
                size_t row = k * PLOT_EVERY < a->rows ? k * PLOT_EVERY : a->rows - 1;
                d.t[k] = a->t[row];
                const double x[4] = {mbd_history_q(a, row)[0] - mbd_history_q(b, row)[0],
                                     mbd_history_q(a, row)[1] - mbd_history_q(b, row)[1],
                                     mbd_history_qd(a, row)[0] - mbd_history_qd(b, row)[0],
                                     mbd_history_qd(a, row)[1] - mbd_history_qd(b, row)[1]};
                for (int j = 0; j < 4; j++)
                    d.y[4 * v + j][k] = fabs(x[j]) > 0 ? fabs(x[j]) : NAN;
            }
        }
        mbd_series sr[8];
        mbd_panel pn[4];
        static char titles[4][64];
        for (int j = 0; j < 4; j++) {
            sr[2 * j] = (mbd_series){"table reading", d.t, d.y[j], n, "lines", 0};
            sr[2 * j + 1] = (mbd_series){"listing reading", d.t, d.y[4 + j], n, "lines", 0};
            snprintf(titles[j], sizeof titles[j], "|penalty - projection|: %s", state_labels[j]);
            pn[j] = (mbd_panel){.title = titles[j], .xlabel = "t [s]", .ylabel = "difference",
                                .logy = 1, .series = sr + 2 * j, .nseries = 2,
                                .extra = "set key bottom right"};
        }
        const mbd_figure fig = {
            .title = "Penalty minus projection, both with Baumgarte, ode23 (document 000, Fig. 19)",
            .rows = 2, .cols = 2, .panels = pn};
        st = mbd_plot_svg(mbd_plot_path(path, sizeof path, prefix, "difference"), &fig, fail);
        plot_data_free(&d);
        if (st != GSL_SUCCESS)
            return st;
    }

    /* error: theta1 against the reference, four methods, ode23, both readings */
    {
        plot_data d;
        if (plot_data_alloc(&d, n) != GSL_SUCCESS)
            return mbd_failure_set(fail, GSL_ENOMEM, NAN, "out of memory for a figure");
        for (int v = 0; v < NV; v++)
            for (int m = 0; m < 4; m++) {
                const mbd_history *h = &s->run[v][m][I_ODE23].h;
                for (size_t k = 0; k < n; k++) {
                    size_t row = k * PLOT_EVERY < h->rows ? k * PLOT_EVERY : h->rows - 1;
                    d.t[k] = h->t[row];
                    double e = fabs(mbd_history_q(h, row)[0] - s->ref[v].states[4 * row]);
                    d.y[4 * v + m][k] = e > 0 ? e : NAN;
                }
            }
        mbd_series sr[8];
        mbd_panel pn[2];
        static const char *styles[4] = {"lines", "lines", "lines dt 2", "lines dt 2"};
        static char titles[2][64];
        for (int v = 0; v < NV; v++) {
            for (int m = 0; m < 4; m++)
                sr[4 * v + m] = (mbd_series){ROWS[m].label, d.t, d.y[4 * v + m], n, styles[m], 0};
            snprintf(titles[v], sizeof titles[v], "%s reading", s->p[v].name);
            pn[v] = (mbd_panel){.title = titles[v], .xlabel = "t [s]",
                                .ylabel = "|theta1 - theta1_{ref}| [rad]", .logy = 1,
                                .series = sr + 4 * v, .nseries = 4, .extra = "set key bottom right"};
        }
        const mbd_figure fig = {.title = "Error against the reduced-equation reference, ode23",
                                .rows = 1, .cols = 2, .panels = pn};
        st = mbd_plot_svg(mbd_plot_path(path, sizeof path, prefix, "error"), &fig, fail);
        plot_data_free(&d);
    }
    return st;
}
/* << figures */

/* ------------------------------------------------------------------------ */
/* One run from the command line                                             */

static int write_summary(FILE *o, const ch04_params *p, const run_config *c, const run_result *r)
{
    int bad = 0;
    bad |= mbd_summary_string(o, "variant", p->name);
    bad |= mbd_summary_string(o, "method", c->method);
    bad |= mbd_summary_string(o, "integrator", c->ode.name);
    bad |= mbd_summary_long(o, "project", c->project);
    bad |= mbd_summary_double(o, "mu", c->mu);
    bad |= mbd_summary_double(o, "alpha", c->alpha);
    bad |= mbd_summary_double(o, "beta", c->beta);
    bad |= mbd_summary_double(o, "m1", p->m1);
    bad |= mbd_summary_double(o, "m2", p->m2);
    bad |= mbd_summary_double(o, "b", p->b);
    bad |= mbd_summary_double(o, "M11", ch04_inertia(p));
    if (c->ode.adaptive) {
        bad |= mbd_summary_double(o, "rtol", c->ode.rtol);
        bad |= mbd_summary_double(o, "atol", c->ode.atol);
    } else {
        bad |= mbd_summary_double(o, "h", c->ode.h);
    }
    bad |= mbd_summary_double(o, "dt_out", c->dt_out);
    bad |= mbd_summary_double(o, "t_end", c->t_end);
    bad |= mbd_summary_double(o, "t_reached", r->stats.run.t_reached);
    bad |= mbd_summary_long(o, "steps", r->stats.run.ode.steps);
    bad |= mbd_summary_long(o, "rejected", r->stats.run.ode.rejected);
    bad |= mbd_summary_long(o, "fevals", r->stats.run.ode.fevals);
    bad |= mbd_summary_long(o, "corrections", r->stats.run.corrections);
    bad |= mbd_summary_long(o, "outputs", (long)r->h.rows);
    bad |= mbd_summary_double(o, "max_C_norm", r->stats.max_C);
    bad |= mbd_summary_double(o, "max_Cdot_norm", r->stats.max_Cdot);
    bad |= mbd_summary_double(o, "max_theta1_error", r->err[0]);
    bad |= mbd_summary_double(o, "max_x2_error", r->err[1]);
    bad |= mbd_summary_double(o, "max_theta1_dot_error", r->err[2]);
    bad |= mbd_summary_double(o, "max_x2_dot_error", r->err[3]);
    /* the last output (at t_reached's output time after a failure) */
    const int any = r->h.rows > 0;
    const size_t k = any ? r->h.rows - 1 : 0;
    bad |= mbd_summary_optional(o, "theta1_end", any ? mbd_history_q(&r->h, k)[0] : 0, any);
    bad |= mbd_summary_optional(o, "x2_end", any ? mbd_history_q(&r->h, k)[1] : 0, any);
    bad |= mbd_summary_optional(o, "theta1_dot_end", any ? mbd_history_qd(&r->h, k)[0] : 0, any);
    bad |= mbd_summary_optional(o, "x2_dot_end", any ? mbd_history_qd(&r->h, k)[1] : 0, any);
    bad |= mbd_summary_string(o, "status", mbd_status_word(r->status));
    return bad ? MBD_ENONFINITE : GSL_SUCCESS;
}

static void write_report(FILE *o, const ch04_params *p, const run_config *c, const run_result *r)
{
    fprintf(o, "%s: %s%s, %s reading (m1 = %.6g, m2 = %.6g, b = %g", PROGRAM, c->method,
            c->project ? " with post-step projection" : "", p->name, p->m1, p->m2, p->b);
    if (strstr(c->method, "penalty") != NULL)
        fprintf(o, ", mu = %g", c->mu);
    if (strstr(c->method, "baumgarte") != NULL)
        fprintf(o, ", alpha = %g, beta = %g", c->alpha, c->beta);
    fprintf(o, ")\n  integrator %s", c->ode.name);
    if (c->ode.adaptive)
        fprintf(o, " (rtol %g, atol %g)", c->ode.rtol, c->ode.atol);
    else
        fprintf(o, " (h = %g)", c->ode.h);
    fprintf(o, ", t = 0 ... %g s, outputs every %g s\n", c->t_end, c->dt_out);
    fprintf(o, "  %ld steps accepted, %ld rejected, %ld f evaluations, %ld corrections\n",
            r->stats.run.ode.steps, r->stats.run.ode.rejected, r->stats.run.ode.fevals,
            r->stats.run.corrections);
    fprintf(o, "  max |C| = %.3e in, max |C'| = %.3e in/s\n", r->stats.max_C, r->stats.max_Cdot);
    fprintf(o, "  largest error against the reduced-equation reference (rk8pd, %.0e):\n"
               "    theta1 %.3e rad, x2 %.3e in, theta1_dot %.3e rad/s, x2_dot %.3e in/s\n",
            REF_EPS, r->err[0], r->err[1], r->err[2], r->err[3]);
    /* the state at whole seconds */
    const char *h[] = {"t [s]", "theta1 [rad]", "x2 [in]", "theta1_dot [rad/s]", "x2_dot [in/s]",
                       "|C| [in]"};
    mbd_table *t = mbd_table_alloc(6, h);
    for (double tt = 0.0; tt <= c->t_end + 1e-9; tt += fmax(1.0, c->t_end / 8.0)) {
        size_t k = mbd_history_row_at(&r->h, tt);
        if (r->h.rows == 0 || r->h.t[k] < tt - 1e-9)
            break;
        mbd_table_cell(t, "%g", r->h.t[k]);
        mbd_table_cell(t, "%.8f", mbd_history_q(&r->h, k)[0]);
        mbd_table_cell(t, "%.6f", mbd_history_q(&r->h, k)[1]);
        mbd_table_cell(t, "%.6f", mbd_history_qd(&r->h, k)[0]);
        mbd_table_cell(t, "%.6f", mbd_history_qd(&r->h, k)[1]);
        mbd_table_num(t, r->h.C_norm[k], 2);
    }
    mbd_table_print(t, o, 2);
    mbd_table_free(t);
}

/* ------------------------------------------------------------------------ */
/* Benchmarks                                                                */

typedef struct {
    const ch04_params *p;
    run_config c;
    study *s;
} bench_case;

static int bench_run(void *ctx, long *steps, long *fevals)
{
    bench_case *b = ctx;
    run_result r;
    mbd_history_init(&r.h);
    mbd_system sys;
    ch04_system_init(&sys, b->p);
    mbd_formulation_params fp = {.mu = b->c.mu, .alpha = b->c.alpha, .beta = b->c.beta};
    mbd_formulation_method(b->c.method, &fp);
    mbd_formulation *f = mbd_formulation_alloc(&sys, &fp);
    if (f == NULL)
        return MBD_EINPUT;
    const mbd_sim_params sp = {.t0 = 0.0, .t_end = b->c.t_end, .dt_out = b->c.dt_out,
                               .max_violation = b->c.max_violation};
    double q0[2], qd0[2];
    ch04_initial_state(b->p, q0, qd0);
    int st = mbd_simulate(f, &b->c.ode, &sp, q0, qd0, &r.h, &r.stats, &r.fail);
    mbd_formulation_free(f);
    mbd_history_free(&r.h);
    *steps = r.stats.run.ode.steps;
    *fevals = r.stats.run.ode.fevals;
    return st;
}

static int bench_reference(void *ctx, long *steps, long *fevals)
{
    bench_case *b = ctx;
    reference r;
    mbd_failure f;
    int st = reference_grid(b->p, CH04_T_END, CH04_DT_OUT, &r, &f);
    if (st == GSL_SUCCESS)
        reference_free(&r);
    *steps = 0;
    *fevals = 0;
    return st;
}

static int bench_story(void *ctx, long *steps, long *fevals)
{
    bench_case *b = ctx;
    FILE *null = fopen("/dev/null", "w");
    if (null == NULL)
        return MBD_EIO;
    study_free(b->s);
    mbd_failure fail;
    int st = story(null, b->s, 1, &fail);
    fclose(null);
    *steps = 0;
    *fevals = 0;
    return st;
}

static int bench(long repeats, study *s)
{
    ch04_params p[NV];
    for (int v = 0; v < NV; v++)
        ch04_params_init(&p[v], (ch04_variant)v);
    static const char *const methods[] = {"penalty-baumgarte", "projection-baumgarte"};
    for (int v = 0; v < NV; v++)
        for (int m = 0; m < 2; m++) {
            bench_case b = {.p = &p[v], .s = s};
            config_default(&b.c, &p[v], methods[m], "ode23");
            char name[32];
            snprintf(name, sizeof name, "%s-ode23", p[v].name);
            int st = mbd_cli_bench(stdout, PROGRAM, name, methods[m], repeats, bench_run, &b);
            if (st != GSL_SUCCESS)
                return st;
        }
    bench_case b = {.p = &p[CH04_TABLE], .s = s};
    int st = mbd_cli_bench(stdout, PROGRAM, "table-reference", "reduced-rk8pd", repeats,
                           bench_reference, &b);
    if (st != GSL_SUCCESS)
        return st;
    return mbd_cli_bench(stdout, PROGRAM, "story", "", repeats, bench_story, &b);
}

/* ------------------------------------------------------------------------ */

int main(int argc, char **argv)
{
    gsl_set_error_handler_off();

    const char *variant = "table";
    double mu = 0.0, alpha = CH04_ALPHA, beta = CH04_BETA;
    int variant_given = 0, mu_given = 0, alpha_given = 0, beta_given = 0, project = 0,
        project_given = 0;
    static const mbd_cli_choice variants[] = {
        {"table", "Table 3 read as masses: m1 = 0.5, m2 = 5, b = 2 in, mu = 1e7 (the text)"},
        {"listing", "listing A.3: m1 = 0.5/g, m2 = 5/g, b = 0.05 in, mu = 1e5"},
        {NULL, NULL}};
    const mbd_cli_extra extra[] = {
        {"variant", MBD_ARG_CHOICE, &variant, "NAME",
         "table (default) or listing: which reading of the document's parameters", variants, 0, 0,
         0, 0, &variant_given},
        {"mu", MBD_ARG_DOUBLE, &mu, "MU",
         "penalty factor (default: the variant's, 1e7 or 1e5)", NULL, 0.0, 1e20, 1, 0, &mu_given},
        {"alpha", MBD_ARG_DOUBLE, &alpha, "ALPHA", "Baumgarte velocity weight (default 20)", NULL,
         0.0, 1e6, 0, 0, &alpha_given},
        {"beta", MBD_ARG_DOUBLE, &beta, "BETA",
         "Baumgarte position weight, used squared (default 20)", NULL, 0.0, 1e6, 0, 0, &beta_given},
        {"project", MBD_ARG_FLAG, &project, NULL,
         "project positions and velocities back onto the constraint after every step "
         "(correction.h; not for index2-penalty)",
         NULL, 0, 0, 0, 0, &project_given},
    };
    mbd_cli_choice methods[16], integrators[16];
    mbd_cli_choices(mbd_formulation_method_names, mbd_formulation_method_descriptions, methods, 16);
    mbd_cli_choices(mbd_ode_preset_names, mbd_ode_preset_descriptions, integrators, 16);
    const mbd_cli_spec spec = {
        .program = PROGRAM,
        .purpose = "The Scotch yoke: static penalty against projection on a forced mechanism, with an\n"
                   "independent reference from the reduced one-degree-of-freedom equation.",
        .source = "document 000 (Newhart 2019), Sec. 2.4.2, Table 3, Figs. 14-19, listing A.3",
        .common = MBD_OPT_OUTPUT | MBD_OPT_TIME,
        .extra = extra,
        .n_extra = sizeof extra / sizeof extra[0],
        .methods = methods,
        .integrators = integrators,
        .csv_columns = "t,theta1,x2,theta1_dot,x2_dot,C_norm,Cdot_norm, then h for adaptive integrators",
        .notes = "With --method, --csv, --summary or any option of a run (--variant, --integrator, --mu,\n"
                 "--alpha, --beta, --project, --t-end, --h, --dt-out, --rtol, --atol, --max-violation):\n"
                 "one run (default penalty-baumgarte, ode23, table reading, t = 0 ... 4 s, outputs every\n"
                 "1e-4 s, as the document ran it), measured against the reduced-equation reference.\n"
                 "index2-penalty is stiff and runs with msbdf whatever --integrator says. A run stops\n"
                 "at --max-steps steps and says whether stiffness or the tolerance held its step.\n"
                 "--summary keys: variant, method, integrator, project, mu, alpha, beta, m1, m2, b, M11,\n"
                 "rtol, atol (or h), dt_out, t_end, t_reached, steps, rejected, fevals, corrections,\n"
                 "outputs, max_C_norm, max_Cdot_norm, max_theta1_error, max_x2_error,\n"
                 "max_theta1_dot_error, max_x2_dot_error, theta1_end, x2_end, theta1_dot_end,\n"
                 "x2_dot_end, status (ok, violation, step-limit, step-size, singular, ...).\n"
                 "Figures (--plot PREFIX): PREFIX-motion.svg, PREFIX-difference.svg, PREFIX-error.svg.",
    };
    mbd_cli_common opt;
    mbd_cli_defaults(&opt);
    int st = mbd_cli_parse(&spec, argc, argv, &opt, stdout, stderr);
    if (st == MBD_CLI_DONE)
        return MBD_EXIT_OK;
    if (st != GSL_SUCCESS)
        return MBD_EXIT_USAGE;

    const char *method = opt.method_given ? opt.method : "penalty-baumgarte";
    if (mbd_cli_check_method_options(&spec, method, mu_given, alpha_given, beta_given, project,
                                     stderr) != GSL_SUCCESS)
        return MBD_EXIT_USAGE;
    ch04_params p;
    ch04_variant var = CH04_TABLE;
    ch04_variant_of(variant, &var);
    ch04_params_init(&p, var);
    run_config c;
    config_default(&c, &p, method, "ode23");
    if (mbd_cli_integrator(&spec, &opt, "ode23", &c.ode, stderr) != GSL_SUCCESS)
        return MBD_EXIT_USAGE;
    /* the index-2 penalty is stiff: it runs with msbdf whatever --integrator says
     * (as in chapter 03) */
    mbd_formulation_params fp = {0};
    const char *asked = c.ode.name;
    if (!project && mbd_formulation_method(method, &fp) == GSL_SUCCESS
        && mbd_formulation_stiff_integrator(&fp, &c.ode))
        fprintf(stderr, "%s: %s is stiff (rates ~ mu |C_q|^2): msbdf replaces %s\n", PROGRAM,
                method, asked);
    /* one run has no step floor of its own: the step limit stops a crawl and
     * says whether stiffness or the tolerance holds the step */
    c.ode.hmin = 0.0;
    c.max_steps = opt.max_steps;
    c.max_outputs = opt.max_outputs;
    c.project = project;
    if (mu_given)
        c.mu = mu;
    c.alpha = alpha;
    c.beta = beta;
    if (opt.t_end_given)
        c.t_end = opt.t_end;
    if (opt.dt_out_given)
        c.dt_out = opt.dt_out;
    c.max_violation = opt.max_violation;
    if (mbd_cli_check_run(&spec, &opt, 0.0, c.t_end, c.dt_out, &c.ode, stderr) != GSL_SUCCESS)
        return MBD_EXIT_USAGE;
    const int run_mode = opt.method_given || opt.csv || opt.summary || variant_given || mu_given
                         || alpha_given || beta_given || project_given || opt.integrator_given
                         || opt.t_end_given || opt.h_given || opt.dt_out_given || opt.rtol_given
                         || opt.atol_given || opt.max_violation_given;

    study *s = calloc(1, sizeof *s);
    if (s == NULL)
        return MBD_EXIT_NUMERICAL;
    mbd_failure fail;
    mbd_failure_clear(&fail);
    int exit_code = MBD_EXIT_OK;
    run_result r;
    mbd_history_init(&r.h);

    if (opt.bench) {
        st = bench(opt.bench, s);
        if (st != GSL_SUCCESS) {
            mbd_failure_set(&fail, st, NAN, "a benchmark case failed");
            goto failed;
        }
        goto done;
    }

    /* figures first: a bad --plot path must not leave a story half printed */
    if (opt.plot) {
        st = write_figures(opt.plot, s, &fail);
        if (st != GSL_SUCCESS)
            goto failed;
    }
    if (run_mode) {
        st = run_case(&p, &c, NULL, &r);
        if (st != GSL_SUCCESS) {
            fail = r.fail;
            goto failed;
        }
        if (opt.csv) {
            mbd_failure cf;
            st = mbd_history_csv(&r.h, opt.csv, ch04_names, 0, &cf);
            if (st != GSL_SUCCESS) {
                fail = cf;   /* it names the file and the system's reason */
                goto failed;
            }
        }
        /* a failed run is reported by its own cause, whatever else went wrong */
        int sum_st = GSL_SUCCESS;
        if (opt.summary)
            sum_st = write_summary(stdout, &p, &c, &r);
        if (!opt.csv && !opt.summary)
            write_report(stdout, &p, &c, &r);
        if (r.status != GSL_SUCCESS) {
            fail = r.fail;
            goto failed;
        }
        if (sum_st != GSL_SUCCESS) {
            mbd_failure_set(&fail, sum_st, r.stats.run.t_reached, "a summary value is not finite");
            goto failed;
        }
    } else {
        st = story(stdout, s, opt.no_timing, &fail);
        if (st != GSL_SUCCESS) {
            if (fail.status == GSL_SUCCESS)
                mbd_failure_set(&fail, st, NAN, "the story failed: %s", mbd_strerror(st));
            goto failed;
        }
    }
    goto done;

failed:
    fflush(stdout);
    mbd_report_failure(stderr, PROGRAM, &fail);
    exit_code = mbd_cli_exit_status(fail.status);
done:
    mbd_history_free(&r.h);
    study_free(s);
    free(s);
    return exit_code;
}
