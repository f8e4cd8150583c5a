/* ch03-pendulum -- the simple pendulum of document 000 (Newhart 2019,
 * Sec. 2 and 2.4.1, Table 1, Table 2, Figs. 2-13, listings A.2-A.2.g) solved
 * by every method of the document, against the exact solution.
 *
 * The story: the model and its exact solution by Jacobi elliptic functions;
 * the document's setting (MATLAB's ode23 defaults) for every method; the same
 * methods with the integration error taken away; Table 1's penalty-factor
 * study; why the alternate penalty costs more as mu grows and where it turns
 * unstable at a fixed step; the printed Baumgarte sign blowing up; the
 * listings' corrections that never run, and a post-step projection that
 * does; the index-2 penalty under a stiff integrator.
 *
 * With --method, --csv, --summary or any run option the program runs one
 * method instead and prints a short report, the CSV time history, or the
 * summary.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_math.h>
#include <gsl/gsl_vector.h>

#include "mbd/cli.h"
#include "mbd/formulation.h"
#include "mbd/io.h"
#include "pendulum.h"
#include "study.h"

#define PROGRAM "ch03-pendulum"
#define STORY_DT 1e-3     /* output spacing of the story's time histories */
#define SWEEP_DT 1e-2     /* output spacing of the penalty-factor sweeps */
#define N_MU 8            /* mu = 10 ... 1e8 */
#define SQRT20 4.47213595499958
#define CORRECTION_TOL 1e-10   /* the listings' "constraint tolerance" */
#define IDX2_EXPLICIT_T 0.05   /* how long eq. (58) is run with ode23 */

/* The methods in the order of the document's Sec. 2.4.1, with its mean CPU
 * times (100 runs, MATLAB R2014a, Sec. 2.4.1 and Table 1). */
typedef struct {
    const char *method;
    const char *listing;
    double doc_seconds;
} method_row;

static const method_row METHODS[] = {
    {"direct", "A.2.g", 0.8391},
    {"projection", "A.2.c", 1.0887},
    {"projection-baumgarte", "A.2.d", 0.9484},
    {"penalty", "A.2.a", 0.9365},
    {"penalty-baumgarte", "A.2.b*", 1.0045},
    {"alternate-penalty", "A.2.e", 1.6363},
    {"index2-penalty", "A.2.f*", 1.1308},
    {"penalty-baumgarte-printed", "A.2.b", NAN},
};
#define N_METHODS (sizeof METHODS / sizeof METHODS[0])
enum { M_DIRECT, M_PROJ, M_PROJ_B, M_PEN, M_PEN_B, M_ALT, M_IDX2, M_PRINTED };

/* Table 1 (CPU seconds, pendulum, mean of 100 runs) */
static const double DOC_TABLE1[3][N_MU] = {
    {1.1112, 0.9061, 0.9291, 0.9457, 0.9365, 0.9418, 0.9555, 0.9373},
    {0.9679, 0.9441, 0.9461, 0.9825, 1.0045, 0.9546, 0.9673, 0.9409},
    {0.8816, 0.9254, 0.9874, 1.1233, 1.6363, 2.7658, 6.8599, 19.3364},
};
static const char *const SWEEP_METHODS[3] = {"penalty", "penalty-baumgarte", "alternate-penalty"};

/* Everything the story computes, once. */
typedef struct {
    ch03_pendulum p;
    ch03_exact ex;
    mbd_fdcheck fd[3];
    double lambda_bottom, lambda_penalty;
    /* every method under ode23 and under tight (story output spacing) */
    mbd_history h23[N_METHODS], htight[N_METHODS];
    ch03_result r23[N_METHODS], rtight[N_METHODS];
    double vs_direct[N_METHODS];          /* max position difference from direct ode23 */
    /* the text's beta = sqrt(20) (ode23): projection-baumgarte, penalty-baumgarte, printed */
    mbd_history hb[3];
    ch03_result rb[3];
    /* Table 1: penalty, penalty-baumgarte, alternate-penalty under ode23 */
    double mus[N_MU];
    ch03_result sweep[3][N_MU];
    ch03_result tsweep[N_MU];             /* penalty under tight */
    /* the alternate penalty at a fixed step */
    ch03_result go_fixed[2];              /* mu = 1e7, 1e8 */
    /* corrections */
    long matlab_runs, any_runs;
    size_t states;
    ch03_result proj_run[2][2];           /* projection, penalty x (grid outputs, step ends) */
    /* index-2 penalty */
    double idx2_mu[3];
    ch03_result idx2[3];
    mbd_sim_stats idx2_explicit;          /* eq. (58) under ode23 for IDX2_EXPLICIT_T s */
    int idx2_explicit_status;
    /* differences of the document's Figs. 8-10 under ode23 */
    double pen_vs_proj_end, penb_vs_projb;
    double printed_rate[2];
    int computed;
} study;

/* ------------------------------------------------------------------------ */
/* Computing                                                                 */

static void spec_for(ch03_spec *s, const char *method, const char *integrator, double dt_out)
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
static int bottom_multiplier(study *S)
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
static int compute(study *S)
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
        spec_for(&spec, METHODS[i].method, "ode23", STORY_DT);
        st = ch03_run(&S->p, &spec, &S->h23[i], &S->r23[i]);
        if (st == GSL_SUCCESS) {
            spec_for(&spec, METHODS[i].method, "tight", STORY_DT);
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
        spec_for(&spec, bm[i], "ode23", STORY_DT);
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
            spec_for(&spec, SWEEP_METHODS[m], "ode23", SWEEP_DT);
            spec.mu = S->mus[k];
            spec.max_violation = 100;
            st = ch03_run(&S->p, &spec, NULL, &S->sweep[m][k]);
        }
    /* the static penalty without integration error */
    for (int k = 0; k < N_MU && st == GSL_SUCCESS; k++) {
        spec_for(&spec, "penalty", "tight", SWEEP_DT);
        spec.mu = S->mus[k];
        spec.max_violation = 100;
        st = ch03_run(&S->p, &spec, NULL, &S->tsweep[k]);
    }
    /* << sweep */

    /* the alternate penalty at the fixed step h = 1e-4 the document believed in */
    for (int i = 0; i < 2 && st == GSL_SUCCESS; i++) {
        /* outputs (and the violation check) after every step of 1e-4 */
        spec_for(&spec, "alternate-penalty", "fixed", 1e-4);
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
            spec_for(&spec, pm[i], "ode23", j == 0 ? STORY_DT : 0.0);
            spec.project = 1;
            st = ch03_run(&S->p, &spec, NULL, &S->proj_run[i][j]);
        }

    /* the index-2 penalty: mu = 1e2, 1e3 (mu = 1e5 is r23[M_IDX2]) */
    S->idx2_mu[0] = 1e2;
    S->idx2_mu[1] = 1e3;
    S->idx2_mu[2] = 1e5;
    for (int i = 0; i < 2 && st == GSL_SUCCESS; i++) {
        spec_for(&spec, "index2-penalty", "msbdf", STORY_DT);
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

static study *study_alloc(void)
{
    study *S = calloc(1, sizeof *S);
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

static void study_free(study *S)
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

/* ------------------------------------------------------------------------ */
/* The story                                                                 */

/* a run's time in milliseconds, or "-" with --no-timing */
static const char *seconds(char *buf, size_t size, double s, int no_timing)
{
    if (no_timing || !isfinite(s))
        snprintf(buf, size, "-");
    else
        snprintf(buf, size, "%.3g ms", 1e3 * s);
    return buf;
}

/* "|C| exceeds 1 at t = 0.327 s: stopped" for a run stopped by the violation limit */
static void print_stop(FILE *out, const char *indent, const ch03_result *r)
{
    if (r->status == MBD_EVIOLATION)
        fprintf(out, "%s|C| exceeds 1 at t = %.3g s: stopped\n", indent, r->fail.time);
    else if (r->status != GSL_SUCCESS)
        fprintf(out, "%sstopped at t = %.4g s: %s\n", indent, r->fail.time, r->fail.cause);
}

static void method_table(FILE *out, const study *S, const ch03_result *r, int with_doc,
                         int with_direct, int no_timing)
{
    const char *h[] = {"method", "steps", "f evals", "time", "pos. error", "vel. error",
                       "max |C|", "max |C'|", "max |E - E0|", "vs direct", "document"};
    const size_t nc = 9 + (with_direct ? 1 : 0) + (with_doc ? 1 : 0);
    const char *hh[11];
    size_t c = 0;
    for (size_t i = 0; i < 9; i++)
        hh[c++] = h[i];
    if (with_direct)
        hh[c++] = h[9];
    if (with_doc)
        hh[c++] = h[10];
    mbd_table *t = mbd_table_alloc(nc, hh);
    char buf[32];
    for (size_t i = 0; i < N_METHODS; i++) {
        if (i == M_PRINTED)
            continue;   /* it blows up: reported on its own */
        const ch03_result *x = &r[i];
        if (i == M_IDX2)
            mbd_table_cell(t, "%s (%s)", METHODS[i].method, x->integrator);
        else
            mbd_table_cell(t, "%s", METHODS[i].method);
        mbd_table_cell(t, "%ld", x->stats.run.ode.steps);
        mbd_table_cell(t, "%ld", x->stats.run.ode.fevals);
        mbd_table_cell(t, "%s", seconds(buf, sizeof buf, x->seconds, no_timing));
        mbd_table_num(t, x->err.position, 3);
        mbd_table_num(t, x->err.velocity, 3);
        mbd_table_num(t, x->stats.max_C, 3);
        mbd_table_num(t, x->stats.max_Cdot, 3);
        mbd_table_num(t, x->stats.max_dE, 3);
        if (with_direct)
            mbd_table_num(t, S->vs_direct[i], 3);
        if (with_doc)
            mbd_table_cell(t, "%.4f s", METHODS[i].doc_seconds);
    }
    mbd_table_print(t, out, 2);
    mbd_table_free(t);
}

static int story(FILE *out, study *S, int no_timing)
{
    int st = compute(S);
    if (st != GSL_SUCCESS)
        return st;
    const ch03_pendulum *p = &S->p;
    const ch03_exact *e = &S->ex;
    char buf[32];

    fprintf(out, "Chapter 03 -- The simple pendulum, by every method of the document\n");
    fprintf(out, "Reproduces document 000 (Newhart 2019), Sec. 2 and 2.4.1: Table 1, Table 2,\n"
                 "Figs. 2-13 and listings A.2-A.2.g.\n\n");

    /* ---------------------------------------------------------------- 1 */
    fprintf(out, "Step 1. The model: a point mass in Cartesian coordinates q = (x, y, z)\n");
    fprintf(out, "  Table 2: m = %g kg, L = %g m, g = %g m/s^2 along +y, released from rest at\n"
                 "  x = %g, y = 0 (theta0 = 90 deg from +y); 5 s.\n", p->m, p->L, p->g, p->L);
    fprintf(out, "  M = m I,  F = (0, m g, 0),  C = (x^2 + y^2 - L^2, z),\n"
                 "  C_q = [2x 2y 0; 0 0 1],  gamma = (-2 (x'^2 + y'^2), 0)   (C_q q'' = gamma)\n");
    fprintf(out, "  The document prints gamma as a 2x3 matrix; its listings use the vector above.\n");
    fprintf(out, "  C_q and gamma against central differences of C (mbd_system_check_derivatives):\n");
    {
        const char *h[] = {"state (x, y, z, x', y', z')", "|C_q - FD|", "|gamma - FD|",
                           "rel. gamma"};
        const char *names[3] = {"(1, 0, 0, 0, 0, 0)", "(0.6, 0.8, 0.05, -2.1, 1.6, 0.3)",
                                "(-0.28, 0.96, 0, -4.2, -1.2, 0)"};
        mbd_table *t = mbd_table_alloc(4, h);
        for (int i = 0; i < 3; i++) {
            mbd_table_cell(t, "%s", names[i]);
            mbd_table_num(t, S->fd[i].jacobian_abs, 2);
            mbd_table_num(t, S->fd[i].gamma_abs, 2);
            mbd_table_num(t, S->fd[i].gamma_rel, 2);
        }
        mbd_table_print(t, out, 2);
        mbd_table_free(t);
    }
    fprintf(out, "\n");

    /* ---------------------------------------------------------------- 2 */
    fprintf(out, "Step 2. The exact solution (Jacobi elliptic functions)\n");
    fprintf(out, "  w = sqrt(g/L) = %.6f rad/s, k = sin(theta0/2) = %.6f, K(k) = %.8f\n", e->w, e->k,
            e->K);
    fprintf(out, "  sin(theta/2) = k sn(K - w t, k),  theta' = -2 k w cn(K - w t, k)\n");
    fprintf(out, "  period T = 4 K / w = %.6f s; the small-angle 2 pi / w = %.6f s does not apply: Sec.\n"
                 "  2.4.1 expects a simple harmonic oscillator, but a release from the horizontal is far\n"
                 "  from one\n",
            e->T, 2 * M_PI / e->w);
    fprintf(out, "  bottom (x = 0) at t =");
    for (int n = 1; n <= 4; n++)
        fprintf(out, " %.7f", ch03_exact_bottom_time(e, n));
    fprintf(out, " s;\n  turning points at t =");
    for (int n = 1; n <= 4; n++)
        fprintf(out, " %.7f", n * e->T / 2);
    fprintf(out, " s\n");
    fprintf(out, "  max |x'| = sqrt(2 g L) = %.6f m/s (bottom), max |y'| = %.6f m/s (cos theta = 1/sqrt 3)\n",
            sqrt(2 * p->g * p->L), sqrt(2 * p->g * p->L * 2 / (3 * sqrt(3.0))));
    fprintf(out, "  multiplier at the bottom (projection, M q'' + C_q^T lambda = F): lambda = %.6f\n"
                 "  = (C_q M^-1 F - gamma) / S = (19.62 + 39.24) / 4; the rod pulls with 2 lambda L =\n"
                 "  %.3f N = 3 m g. The static penalty's implied multiplier at mu = 1e8: %.6f\n",
            S->lambda_bottom, 2 * S->lambda_bottom * p->L, S->lambda_penalty);
    {
        const char *h[] = {"t [s]", "theta [rad]", "x", "y", "x'", "y'"};
        mbd_table *t = mbd_table_alloc(6, h);
        for (int k = 1; k <= 5; k++) {
            double th, om, q[3], qd[3];
            ch03_exact_angle(e, k, &th, &om);
            ch03_cartesian(p, th, om, q, qd);
            mbd_table_cell(t, "%d", k);
            mbd_table_cell(t, "%.6f", th);
            mbd_table_cell(t, "%.6f", q[0]);
            mbd_table_cell(t, "%.6f", q[1]);
            mbd_table_cell(t, "%.6f", qd[0]);
            mbd_table_cell(t, "%.6f", qd[1]);
        }
        mbd_table_print(t, out, 2);
        mbd_table_free(t);
    }
    fprintf(out, "\n");

    /* ---------------------------------------------------------------- 3 */
    const ch03_result *d = &S->r23[M_DIRECT];
    fprintf(out, "Step 3. The document's baseline: theta'' = -(g/L) sin theta by ode23 (eq. 73)\n");
    fprintf(out, "  ode23 is Bogacki-Shampine 3(2) with MATLAB's defaults, RelTol 1e-3, AbsTol 1e-6:\n"
                 "  the document's time vector 0:1e-4:5 only sets where the solution is reported\n"
                 "  (by interpolation); the steps are chosen by the error control. Here:\n");
    fprintf(out, "  %ld steps (%ld rejected), %ld f evaluations, mean step %.3f s.\n",
            d->stats.run.ode.steps, d->stats.run.ode.rejected, d->stats.run.ode.fevals,
            5.0 / (double)d->stats.run.ode.steps);
    fprintf(out, "  Its largest errors against the exact solution over 0-5 s:\n"
                 "    x %.3e, y %.3e, x' %.3e, y' %.3e\n",
            d->err.x, d->err.y, d->err.xd, d->err.yd);
    fprintf(out, "  Every error the document plots (Figs. 7, 8, 11-13) is measured against this run:\n"
                 "  a difference of two solutions, each about 1e-2 off. The chapter measures against\n"
                 "  the exact solution instead.\n\n");

    /* ---------------------------------------------------------------- 4 */
    fprintf(out, "Step 4. Every method as the document ran it: ode23, mu = 1e5, alpha = beta = 20\n");
    fprintf(out, "  (errors: largest |q - q_exact| and |q' - q'_exact| over the outputs, every %g s;\n"
                 "  vs direct: largest |q - q_direct|, the document's measure; document: its mean time)\n",
            STORY_DT);
    method_table(out, S, S->r23, 1, 1, no_timing);
    fprintf(out, "  index2-penalty is stiff (eq. 58: rates ~ mu |C_q|^2 = 4e5 /s): it runs with msbdf.\n");
    fprintf(out, "  penalty-baumgarte-printed (eq. 72's sign, listing A.2.b):\n");
    print_stop(out, "    ", &S->r23[M_PRINTED]);
    fprintf(out, "  Penalty and projection: largest position difference %.2e at t = 5 s -- the\n"
                 "  document's 'no discernible difference' (Fig. 8). Penalty-Baumgarte against\n"
                 "  projection-Baumgarte: %.2e over 0-5 s.\n",
            S->pen_vs_proj_end, S->penb_vs_projb);
    fprintf(out, "  With alpha = beta = 20 the Baumgarte runs are LESS accurate than the plain ones at\n"
                 "  these tolerances (position %.3f against %.3f), the opposite of Fig. 11's 'slight\n"
                 "  increase in accuracy'. With the text's beta = sqrt(20) = %.4f:\n",
            S->r23[M_PEN_B].err.position, S->r23[M_PEN].err.position, SQRT20);
    {
        const char *h[] = {"beta = sqrt(20)", "steps", "pos. error", "vel. error", "max |C|"};
        mbd_table *t = mbd_table_alloc(5, h);
        for (int i = 0; i < 2; i++) {
            mbd_table_cell(t, "%s", i == 0 ? "projection-baumgarte" : "penalty-baumgarte");
            mbd_table_cell(t, "%ld", S->rb[i].stats.run.ode.steps);
            mbd_table_num(t, S->rb[i].err.position, 3);
            mbd_table_num(t, S->rb[i].err.velocity, 3);
            mbd_table_num(t, S->rb[i].stats.max_C, 3);
        }
        mbd_table_print(t, out, 2);
        mbd_table_free(t);
    }
    fprintf(out, "  -- comparable to the plain methods: the claim depends on alpha, beta and the\n"
                 "  tolerance, and at ode23's tolerances the integration error decides.\n\n");

    /* ---------------------------------------------------------------- 5 */
    fprintf(out, "Step 5. The same methods with the integration error taken away: 'tight'\n"
                 "  (Dormand-Prince 5(4), RelTol 1e-10, AbsTol 1e-12; index2-penalty: msbdf)\n");
    method_table(out, S, S->rtight, 0, 0, no_timing);
    fprintf(out, "  first x = 0 crossing of the tight projection run: %.7f s (exact %.7f s)\n",
            ch03_first_crossing(&S->htight[M_PROJ], 0.0), ch03_exact_bottom_time(e, 1));
    fprintf(out, "  Now each method shows its own error. Projection keeps the constraint to the\n"
                 "  integration tolerance; the static penalty is off by O(1/mu) (%.1e at mu = 1e5);\n"
                 "  Baumgarte pulls the penalty's drift back (%.1e); the alternate penalty's spring\n"
                 "  costs %ld steps; the index-2 penalty holds |C| to %.0e, but its error, like the\n"
                 "  static penalty's, is of order 1/mu.\n"
                 "  penalty-baumgarte-printed: ",
            S->rtight[M_PEN].err.position, S->rtight[M_PEN_B].err.position,
            S->rtight[M_ALT].stats.run.ode.steps, S->rtight[M_IDX2].stats.max_C);
    print_stop(out, "", &S->rtight[M_PRINTED]);
    fprintf(out, "\n");

    /* ---------------------------------------------------------------- 6 */
    fprintf(out, "Step 6. Table 1 again: the penalty factor from 10 to 1e8, ode23\n");
    fprintf(out, "  (a) cost: accepted steps and time of one run here, and Table 1's CPU seconds\n"
                 "  (doc: MATLAB R2014a on a 2011 laptop, mean of 100 runs)\n");
    {
        const char *h[] = {"mu", "penalty", "time", "doc", "penalty-baumgarte", "time", "doc",
                           "alternate", "time", "doc"};
        mbd_table *t = mbd_table_alloc(10, h);
        for (int k = 0; k < N_MU; k++) {
            mbd_table_cell(t, "1e%d", k + 1);
            for (int m = 0; m < 3; m++) {
                const ch03_result *x = &S->sweep[m][k];
                mbd_table_cell(t, "%ld", x->stats.run.ode.steps);
                mbd_table_cell(t, "%s", seconds(buf, sizeof buf, x->seconds, no_timing));
                mbd_table_cell(t, "%.4f s", DOC_TABLE1[m][k]);
            }
        }
        mbd_table_print(t, out, 2);
        mbd_table_free(t);
    }
    fprintf(out, "  (b) accuracy: max |C| and the largest position error against the exact solution\n");
    {
        const char *h[] = {"mu", "penalty: max |C|", "error", "penalty-baumgarte: max |C|", "error",
                           "alternate: max |C|", "error"};
        mbd_table *t = mbd_table_alloc(7, h);
        for (int k = 0; k < N_MU; k++) {
            mbd_table_cell(t, "1e%d", k + 1);
            for (int m = 0; m < 3; m++) {
                mbd_table_num(t, S->sweep[m][k].stats.max_C, 2);
                mbd_table_num(t, S->sweep[m][k].err.position, 2);
            }
        }
        mbd_table_print(t, out, 2);
        mbd_table_free(t);
    }
    fprintf(out, "  Projection: %ld steps (document 1.0887 s); projection-Baumgarte: %ld (0.9484 s).\n",
            S->r23[M_PROJ].stats.run.ode.steps, S->r23[M_PROJ_B].stats.run.ode.steps);
    fprintf(out, "  - penalty: at mu = 10 the mass leaves the circle (max |C| = %.2f); from 1e5 on\n"
                 "    the integrator's own drift (~%.0e) hides the penalty's 1/mu: 'large deviations\n"
                 "    in accuracy, small variation of time', as the document saw.\n",
            S->sweep[0][0].stats.max_C, S->sweep[0][N_MU - 1].stats.max_C);
    fprintf(out, "  - penalty-baumgarte: %ld to %ld steps for mu = 1e2 ... 1e8; the cost does not move.\n",
            S->sweep[1][1].stats.run.ode.steps, S->sweep[1][N_MU - 1].stats.run.ode.steps);
    fprintf(out, "  - alternate penalty: steps x %.2f, x %.2f, x %.2f over the last three decades\n"
                 "    (sqrt(10) = 3.16); the document's times grew x %.2f, x %.2f, x %.2f.\n",
            (double)S->sweep[2][5].stats.run.ode.steps / (double)S->sweep[2][4].stats.run.ode.steps,
            (double)S->sweep[2][6].stats.run.ode.steps / (double)S->sweep[2][5].stats.run.ode.steps,
            (double)S->sweep[2][7].stats.run.ode.steps / (double)S->sweep[2][6].stats.run.ode.steps,
            DOC_TABLE1[2][5] / DOC_TABLE1[2][4], DOC_TABLE1[2][6] / DOC_TABLE1[2][5],
            DOC_TABLE1[2][7] / DOC_TABLE1[2][6]);
    fprintf(out, "\n");

    /* ---------------------------------------------------------------- 7 */
    fprintf(out, "Step 7. The static penalty's own error: 1/mu (tight, no integration drift)\n");
    {
        const char *h[] = {"mu", "steps", "max |C|", "ratio to previous", "mu max |C|",
                           "position error"};
        mbd_table *t = mbd_table_alloc(6, h);
        for (int k = 0; k < N_MU; k++) {
            const ch03_result *x = &S->tsweep[k];
            mbd_table_cell(t, "1e%d", k + 1);
            mbd_table_cell(t, "%ld", x->stats.run.ode.steps);
            mbd_table_num(t, x->stats.max_C, 3);
            if (k > 0)
                mbd_table_cell(t, "%.2f", S->tsweep[k - 1].stats.max_C / x->stats.max_C);
            else
                mbd_table_cell(t, "-");
            mbd_table_num(t, S->mus[k] * x->stats.max_C, 3);
            mbd_table_num(t, x->err.position, 3);
        }
        mbd_table_print(t, out, 2);
        mbd_table_free(t);
    }
    fprintf(out, "  The penalty solves C_q q'' - gamma = (I + mu S)^-1 (C_q M^-1 F - gamma) instead of 0,\n"
                 "  S = C_q M^-1 C_q^T: an acceleration residual of order 1/mu, which the run integrates\n"
                 "  twice. So max |C| falls tenfold per decade of mu, and mu max |C| settles at %.0f.\n"
                 "  The document's rule 'mu = 1e5 x the largest mass' buys about 1e-3 here.\n\n",
            S->mus[N_MU - 2] * S->tsweep[N_MU - 2].stats.max_C);

    /* ---------------------------------------------------------------- 8 */
    {
        const double w7 = 2 * sqrt(1e7 / p->m), w8 = 2 * sqrt(1e8 / p->m), h = 1e-4;
        const ch03_result *g7 = &S->go_fixed[0], *g8 = &S->go_fixed[1];
        fprintf(out, "Step 8. Why the alternate penalty costs more as mu grows, and where it fails\n");
        fprintf(out, "  M q'' = F - mu C_q^T C is a spring on C = x^2 + y^2 - L^2 ~ 2 L dr: the radial\n"
                     "  stiffness is 4 mu L^2 and the radial frequency w_r = 2 L sqrt(mu/m): %.0f rad/s\n"
                     "  (period %.2f ms) at mu = 1e5. An explicit integrator must resolve it, so its\n"
                     "  steps grow as sqrt(mu) (Step 6).\n",
                2 * sqrt(1e5 / p->m), 1e3 * 2 * M_PI / (2 * sqrt(1e5 / p->m)));
        fprintf(out, "  At a fixed step h, Bogacki-Shampine 3(2) multiplies an undamped oscillation by\n"
                     "  R(i w h) = 1 + z + z^2/2 + z^3/6, z = i w h, with |R| <= 1 only for w h <= sqrt(3).\n");
        const double a7 = sqrt(pow(1 - w7 * w7 * h * h / 2, 2) + pow(w7 * h - pow(w7 * h, 3) / 6, 2));
        const double a8 = sqrt(pow(1 - w8 * w8 * h * h / 2, 2) + pow(w8 * h - pow(w8 * h, 3) / 6, 2));
        fprintf(out, "  fixed h = 1e-4, mu = 1e7: w_r h = %.3f, |R| = %.8f per step\n", w7 * h, a7);
        if (g7->status == GSL_SUCCESS)
            fprintf(out, "    runs 5 s: %ld steps, max |C| %.2e, position error %.2e\n",
                    g7->stats.run.ode.steps, g7->stats.max_C, g7->err.position);
        else
            print_stop(out, "    ", g7);
        fprintf(out, "  fixed h = 1e-4, mu = 1e8: w_r h = %.3f > sqrt(3) = %.3f, |R| = %.4f per step\n",
                w8 * h, sqrt(3.0), a8);
        if (g8->status == GSL_SUCCESS)
            fprintf(out, "    ran to the end (unexpected)\n");
        else
            print_stop(out, "    ", g8);
        fprintf(out, "  So the document's 19.3 s at mu = 1e8 cannot have come from fixed steps of 1e-4:\n"
                     "  that run blows up after %ld steps. ode23 survived by shrinking its steps (%ld).\n\n",
                g8->stats.run.ode.steps, S->sweep[2][N_MU - 1].stats.run.ode.steps);
    }

    /* ---------------------------------------------------------------- 9 */
    {
        const double a = 20, b2[2] = {400, 20};
        fprintf(out, "Step 9. The printed Baumgarte sign (eq. 72, listing A.2.b) blows up\n");
        fprintf(out, "  gamma_B = gamma - 2 alpha C' - beta^2 C makes the violation obey C'' + 2 alpha C' +\n"
                     "  beta^2 C = 0; eq. (72) and A.2.b use gamma + 2 alpha C' + beta^2 C, i.e.\n"
                     "  C'' - 2 alpha C' - beta^2 C = 0, with roots alpha +- sqrt(alpha^2 + beta^2):\n");
        const ch03_result *pr[2] = {&S->r23[M_PRINTED], &S->rb[2]};
        const ch03_result *ok[2] = {&S->r23[M_PEN_B], &S->rb[1]};
        for (int i = 0; i < 2; i++) {
            const double r = sqrt(a * a + b2[i]);
            const double disc = a * a - b2[i];
            fprintf(out, "  alpha = 20, beta = %s: printed roots %+.2f, %+.2f /s; ", i == 0 ? "20" : "sqrt(20)",
                    a + r, a - r);
            if (disc == 0)
                fprintf(out, "stable sign: %+.2f twice (critical damping)\n", -a);
            else if (disc > 0)
                fprintf(out, "stable sign: %+.2f, %+.2f\n", -a + sqrt(disc), -a - sqrt(disc));
            else
                fprintf(out, "stable sign: %+.2f +- %.2f i\n", -a, sqrt(-disc));
            fprintf(out, "    printed, ode23: ");
            print_stop(out, "", pr[i]);
            fprintf(out, "    |C| grows at %.1f /s from 1e-4 to 1e-1 (root %.2f)\n",
                    S->printed_rate[i], a + r);
            fprintf(out, "    stable sign, ode23: bounded, max |C| = %.2e over 5 s\n", ok[i]->stats.max_C);
        }
        fprintf(out, "  The document reports stable Baumgarte runs (Figs. 9, 11; 1.0045 s): the code it ran\n"
                     "  cannot have been A.2.b as printed. The chapter's penalty-baumgarte is eq. (72')\n"
                     "  with the stable sign; penalty-baumgarte-printed keeps the erratum to show it.\n\n");
    }

    /* ---------------------------------------------------------------- 10 */
    {
        fprintf(out, "Step 10. The listings' corrections never run; a post-step projection does\n");
        fprintf(out, "  A.2.a, A.2.c and A.2.f begin with `while abs(C) > 1e-10` (C = [x^2+y^2-1; z]).\n"
                     "  MATLAB enters a `while` on a vector only when ALL its elements are true, and\n"
                     "  C(2) = z is exactly 0 (z'' = 0 from rest). On the %zu states of the penalty run:\n",
                S->states);
        fprintf(out, "    MATLAB's condition true: %ld states; |C(1)| > 1e-10: %ld states; largest |z| = %g\n",
                S->matlab_runs, S->any_runs, S->r23[M_PEN].err.z_abs);
        fprintf(out, "  So the loops are dead code, and had they run they would have moved only the\n"
                     "  function's local copy of q, never the integrator's state. The document's\n"
                     "  'unstabilised' runs are the plain index-1 formulations above.\n");
        fprintf(out, "  The correction done right (correction.h): after each step, Newton on C(q) = 0 with\n"
                     "  dq = -C_q^T (C_q C_q^T)^-1 C, then q' onto C_q q' = 0; the run loop restarts the\n"
                     "  integrator's FSAL stage after each change (--project):\n");
        const char *h[] = {"ode23 + projection", "corrections", "f evals", "max |C| on the grid",
                           "max |C| at step ends", "pos. error", "vel. error"};
        mbd_table *t = mbd_table_alloc(7, h);
        const char *pm[2] = {"projection", "penalty"};
        for (int i = 0; i < 2; i++) {
            const ch03_result *g = &S->proj_run[i][0], *s = &S->proj_run[i][1];
            mbd_table_cell(t, "%s", pm[i]);
            mbd_table_cell(t, "%ld", g->stats.run.corrections);
            mbd_table_cell(t, "%ld", g->stats.run.ode.fevals);
            mbd_table_num(t, g->stats.max_C, 3);
            mbd_table_num(t, s->stats.max_C, 3);
            mbd_table_num(t, g->err.position, 3);
            mbd_table_num(t, g->err.velocity, 3);
        }
        mbd_table_print(t, out, 2);
        mbd_table_free(t);
        fprintf(out, "  At the end of every step the state is back on the constraints; outputs between\n"
                     "  step ends come from the step's interpolant and carry one step's drift. The\n"
                     "  projection removes the drift, not ode23's error along the circle.\n\n");
    }

    /* ---------------------------------------------------------------- 11 */
    {
        fprintf(out, "Step 11. The index-2 penalty (eq. 58) under a stiff integrator (msbdf, RelTol 1e-8)\n");
        fprintf(out, "  q' = v - mu C_q^T C, M v' = F - mu C_q^T (C_q v): two penalties, on positions and\n"
                     "  on the carried velocity v. Errors of the positions and of the kinematic velocity q'\n"
                     "  against the exact solution:\n");
        const char *h[] = {"mu", "steps", "f evals", "max |C|", "x", "y", "x'", "y'"};
        mbd_table *t = mbd_table_alloc(8, h);
        for (int i = 0; i < 3; i++) {
            const ch03_result *x = &S->idx2[i];
            mbd_table_cell(t, "1e%.0f", log10(S->idx2_mu[i]));
            mbd_table_cell(t, "%ld", x->stats.run.ode.steps);
            mbd_table_cell(t, "%ld", x->stats.run.ode.fevals);
            mbd_table_num(t, x->stats.max_C, 3);
            mbd_table_num(t, x->err.x, 3);
            mbd_table_num(t, x->err.y, 3);
            mbd_table_num(t, x->err.xd, 3);
            mbd_table_num(t, x->err.yd, 3);
        }
        mbd_table_print(t, out, 2);
        mbd_table_free(t);
        fprintf(out, "  The error falls as 1/mu; |C| falls as 1/mu^2 until msbdf's tolerance (AbsTol 1e-10)\n"
                     "  takes over. Penalising the kinematic q' in the second row instead of v leaves\n"
                     "  v + mu C_q^T C free to drift, and the mass leaves the circle (see formulation.c).\n");
        const mbd_sim_stats *x = &S->idx2_explicit;
        if (S->idx2_explicit_status == GSL_SUCCESS && x->run.ode.steps > 0)
            fprintf(out, "  With ode23 instead, eq. (58) at mu = 1e5 takes %ld steps for its first %g s (mean\n"
                         "  step %.1e s, held down by stability): some %.0f thousand steps for 5 s. The document's\n"
                         "  1.1308 s, next to 0.9365 s for the static penalty's few hundred steps, fits what\n"
                         "  listing A.2.f does as printed: it computes this q', discards it, and integrates\n"
                         "  eq. (71).\n\n",
                    x->run.ode.steps, IDX2_EXPLICIT_T, IDX2_EXPLICIT_T / (double)x->run.ode.steps,
                    5.0 / IDX2_EXPLICIT_T * (double)x->run.ode.steps / 1000.0);
        else
            fprintf(out, "  With ode23 instead, eq. (58) failed within %g s.\n\n", IDX2_EXPLICIT_T);
    }

    /* ---------------------------------------------------------------- 12 */
    fprintf(out, "Step 12. Errata and claims in Sec. 2.4.1 (document 000), and what the chapter does\n");
    fprintf(out, "  - Eq. (72) and A.2.b: the Baumgarte terms' sign is destabilising (Step 9);\n"
                 "    penalty-baumgarte uses gamma - 2 alpha C' - beta^2 C, and beta is squared.\n"
                 "  - Eq. (71) has F - mu C_q^T gamma (with eq. 69's sign of gamma); with gamma of\n"
                 "    eq. (22), as every listing has it, it is F + mu C_q^T gamma (eq. 71').\n"
                 "  - The printed gamma is a 2x3 matrix; it is the vector (-2 (x'^2 + y'^2), 0).\n"
                 "  - 'ODE23 steps through the timespan at the specified time step': it does not;\n"
                 "    0.0001 s is the output spacing (Step 3). Fixed steps would break the alternate\n"
                 "    penalty at mu = 1e8 (Step 8).\n"
                 "  - 'Expected to represent a simple harmonic oscillator': T = %.4f s, not %.4f s.\n"
                 "  - The text cites eq. (72) for the direct integration; it means eq. (73).\n"
                 "  - Text alpha = 20, beta = 4.4721; listings alpha = beta = 20 (Step 4 shows both).\n"
                 "  - The correction loops never run and act on a local copy (Step 10).\n"
                 "  - A.2.f discards its q' and integrates eq. (71); the index-2 penalty is here\n"
                 "    eq. (58) as written (Step 11).\n"
                 "  - Fig. 11's accuracy gain from Baumgarte is not robust (Step 4).\n",
            e->T, 2 * M_PI / e->w);
    return GSL_SUCCESS;
}

/* ------------------------------------------------------------------------ */
/* Figures                                                                   */

#define PLOT_STRIDE 5   /* plot every 5th output of the story's histories */

static size_t decimate(const mbd_history *h, size_t stride, double *t, double *v, int col,
                       int kind)
{
    /* kind 0: q[col], 1: qd[col] */
    size_t n = 0;
    for (size_t k = 0; k < h->rows; k += stride) {
        t[n] = h->t[k];
        v[n] = kind == 0 ? mbd_history_q(h, k)[col] : mbd_history_qd(h, k)[col];
        n++;
    }
    return n;
}

static int figure_motion(const char *prefix, const study *S, mbd_failure *fail)
{
    const mbd_history *h = &S->h23[M_PEN];
    const size_t cap = h->rows / PLOT_STRIDE + 2, stride_pts = 10 * PLOT_STRIDE;
    const size_t cap_pts = h->rows / stride_pts + 2;
    double *buf = malloc(4 * (2 * cap + 2 * cap_pts) * sizeof *buf);
    if (buf == NULL)
        return mbd_failure_set(fail, GSL_ENOMEM, NAN, "out of memory");
    mbd_panel panels[4];
    mbd_series series[4][2];
    const char *titles[4] = {"x [m]", "y [m] (gravity along +y)", "x' [m/s]", "y' [m/s]"};
    double *at = buf;
    for (int c = 0; c < 4; c++) {
        double *t = at, *ve = at + cap, *tp = at + 2 * cap, *vp = at + 2 * cap + cap_pts;
        at += 2 * cap + 2 * cap_pts;
        /* the exact solution on a fine grid, the run's outputs every 0.05 s as points */
        const size_t n = decimate(h, PLOT_STRIDE, t, ve, c % 2, c / 2);
        for (size_t k = 0; k < n; k++) {
            double q[3], qd[3];
            ch03_exact_state(&S->p, &S->ex, t[k], q, qd);
            ve[k] = c < 2 ? q[c % 2] : qd[c % 2];
        }
        const size_t np = decimate(h, stride_pts, tp, vp, c % 2, c / 2);
        series[c][0] = (mbd_series){"exact (elliptic functions)", t, ve, n, "lines lc rgb '#999999'", 0};
        series[c][1] = (mbd_series){"static penalty, mu = 1e5, ode23", tp, vp, np,
                                    "points pt 6 ps 0.6 lc rgb '#0072b2'", 0};
        /* one key, under the curve of the first panel */
        panels[c] = (mbd_panel){.title = titles[c], .xlabel = "t [s]", .series = series[c],
                                .nseries = 2,
                                .extra = c == 0 ? "set yrange [-1.6:1.1]\nset key bottom center horizontal font ',10'"
                                                : "unset key"};
    }
    const mbd_figure fig = {.title = "The simple pendulum released from x = 1 (document 000, Fig. 6)",
                            .rows = 2, .cols = 2, .width = 1100, .height = 760, .panels = panels};
    char path[1024];
    int st = mbd_plot_svg(mbd_plot_path(path, sizeof path, prefix, "motion"), &fig, fail);
    free(buf);
    return st;
}

static int figure_errors(const char *prefix, const study *S, mbd_failure *fail)
{
    /* the projections last and dashed: at mu = 1e5 the penalty runs lie on
     * them within a line's width, and drawn first they were hidden */
    static const size_t show[] = {M_DIRECT, M_PEN, M_PEN_B, M_ALT, M_IDX2, M_PROJ, M_PROJ_B};
    enum { NS = sizeof show / sizeof show[0] };
    static const char *const colour[NS] = {
        "lines lc rgb 'black'", "lines lc rgb '#d55e00'", "lines lc rgb '#e69f00'",
        "lines lc rgb '#009e73'", "lines lc rgb '#cc79a7'",
        "lines lc rgb '#0072b2' dt (6,4) lw 2", "lines lc rgb '#56b4e9' dt (2,3) lw 2.5"};
    const size_t cap = S->h23[M_DIRECT].rows / PLOT_STRIDE + 2;
    double *buf = malloc(3 * NS * cap * sizeof *buf);
    if (buf == NULL)
        return mbd_failure_set(fail, GSL_ENOMEM, NAN, "out of memory");
    mbd_series left[NS], right[NS];
    char labels[NS][64];
    for (size_t i = 0; i < NS; i++) {
        const mbd_history *h = &S->h23[show[i]];
        double *t = buf + 3 * i * cap, *ep = t + cap, *ev = t + 2 * cap;
        size_t n = 0;
        for (size_t k = 0; k < h->rows && n < cap; k += PLOT_STRIDE) {
            double q[3], qd[3];
            ch03_exact_state(&S->p, &S->ex, h->t[k], q, qd);
            const double *hq = mbd_history_q(h, k), *hv = mbd_history_qd(h, k);
            double dp = 0, dv = 0;
            for (int j = 0; j < 3; j++) {
                dp = fmax(dp, fabs(hq[j] - q[j]));
                dv = fmax(dv, fabs(hv[j] - qd[j]));
            }
            t[n] = h->t[k];
            ep[n] = dp > 0 ? dp : NAN;   /* log axis */
            ev[n] = dv > 0 ? dv : NAN;
            n++;
        }
        if (show[i] == M_IDX2)
            snprintf(labels[i], sizeof labels[i], "%s (msbdf)", METHODS[show[i]].method);
        else
            snprintf(labels[i], sizeof labels[i], "%s", METHODS[show[i]].method);
        left[i] = (mbd_series){labels[i], t, ep, n, colour[i], 0};
        right[i] = (mbd_series){labels[i], t, ev, n, colour[i], 0};
    }
    const mbd_panel panels[2] = {
        {.title = "position error max(|x - x_e|, |y - y_e|, |z|)", .xlabel = "t [s]",
         .ylabel = "error [m]", .logy = 1, .series = left, .nseries = NS,
         .extra = "set key bottom right font ',10'\nset yrange [1e-8:1]"},
        {.title = "velocity error max(|x' - x'_e|, |y' - y'_e|, |z'|)", .xlabel = "t [s]",
         .ylabel = "error [m/s]", .logy = 1, .series = right, .nseries = NS,
         .extra = "set key bottom right font ',10'\nset yrange [1e-7:10]"},
    };
    const mbd_figure fig = {
        .title = "Error against the exact solution, ode23 as in document 000 (Figs. 7-13), mu = 1e5, alpha = beta = 20",
        .rows = 1, .cols = 2, .width = 1300, .height = 520, .panels = panels};
    char path[1024];
    int st = mbd_plot_svg(mbd_plot_path(path, sizeof path, prefix, "errors"), &fig, fail);
    free(buf);
    return st;
}

static int figure_penalty(const char *prefix, const study *S, mbd_failure *fail)
{
    double C[4][N_MU], steps[3][N_MU], inv[N_MU], root[N_MU];
    for (int k = 0; k < N_MU; k++) {
        for (int m = 0; m < 3; m++) {
            C[m][k] = S->sweep[m][k].stats.max_C;
            steps[m][k] = (double)S->sweep[m][k].stats.run.ode.steps;
        }
        C[3][k] = S->tsweep[k].stats.max_C;
    }
    for (int k = 0; k < N_MU; k++) {
        /* trend lines, drawn a little above the data they describe */
        inv[k] = 3.0 * S->tsweep[N_MU - 1].stats.max_C * S->mus[N_MU - 1] / S->mus[k];
        root[k] = 2.0 * steps[2][N_MU - 1] * sqrt(S->mus[k] / S->mus[N_MU - 1]);
    }
    const mbd_series left[] = {
        {"penalty, ode23", S->mus, C[0], N_MU, "linespoints pt 7 lc rgb '#d55e00'", 0},
        {"penalty, tight", S->mus, C[3], N_MU, "linespoints pt 5 lc rgb '#0072b2'", 0},
        {"penalty-baumgarte, ode23", S->mus, C[1], N_MU, "linespoints pt 9 lc rgb '#e69f00'", 0},
        {"alternate-penalty, ode23", S->mus, C[2], N_MU, "linespoints pt 11 lc rgb '#009e73'", 0},
        {"slope 1/mu", S->mus, inv, N_MU, "lines dt 2 lc rgb 'gray40'", 0},
    };
    const mbd_series right[] = {
        {"penalty", S->mus, steps[0], N_MU, "linespoints pt 7 lc rgb '#d55e00'", 0},
        {"penalty-baumgarte", S->mus, steps[1], N_MU, "linespoints pt 9 lc rgb '#e69f00'", 0},
        {"alternate-penalty", S->mus, steps[2], N_MU, "linespoints pt 11 lc rgb '#009e73'", 0},
        {"slope sqrt(mu)", S->mus, root, N_MU, "lines dt 2 lc rgb 'gray40'", 0},
    };
    const mbd_panel panels[2] = {
        {.title = "largest constraint violation over 0-5 s", .xlabel = "penalty factor mu",
         .ylabel = "max |C|", .logx = 1, .logy = 1, .series = left, .nseries = 5,
         .extra = "set key bottom left font ',10'"},
        {.title = "accepted steps of ode23 over 0-5 s", .xlabel = "penalty factor mu",
         .ylabel = "steps", .logx = 1, .logy = 1, .series = right, .nseries = 4,
         .extra = "set key top left font ',10'"},
    };
    const mbd_figure fig = {.title = "The penalty factor study (document 000, Table 1 and Figs. 2-4)",
                            .rows = 1, .cols = 2, .width = 1200, .height = 500, .panels = panels};
    char path[1024];
    return mbd_plot_svg(mbd_plot_path(path, sizeof path, prefix, "penalty-factor"), &fig, fail);
}

static int figure_baumgarte(const char *prefix, const study *S, mbd_failure *fail)
{
    const mbd_history *hs[3] = {&S->h23[M_PEN_B], &S->h23[M_PRINTED], &S->hb[2]};
    const char *labels[3] = {"stable sign (eq. 72'), alpha = beta = 20",
                             "printed sign (eq. 72), alpha = beta = 20",
                             "printed sign, alpha = 20, beta = sqrt(20)"};
    const char *styles[3] = {"lines lc rgb '#0072b2'", "lines lc rgb '#d55e00'",
                             "lines lc rgb '#e69f00'"};
    size_t cap = 0;
    for (int i = 0; i < 3; i++)
        cap += hs[i]->rows;
    double *buf = malloc(2 * (cap + 64) * sizeof *buf);
    if (buf == NULL)
        return mbd_failure_set(fail, GSL_ENOMEM, NAN, "out of memory");
    mbd_series s[4];
    double *at = buf;
    for (int i = 0; i < 3; i++) {
        double *t = at, *c = at + hs[i]->rows;
        for (size_t k = 0; k < hs[i]->rows; k++) {
            t[k] = hs[i]->t[k];
            c[k] = hs[i]->C_norm[k] > 0 ? hs[i]->C_norm[k] : NAN;
        }
        s[i] = (mbd_series){labels[i], t, c, hs[i]->rows, styles[i], 0};
        at += 2 * hs[i]->rows;
    }
    /* the root alpha + sqrt(alpha^2 + beta^2) = 48.28 /s through |C| = 1e-4 */
    const double rate = 20 + sqrt(800.0), t1 = ch03_violation_time(hs[1], 1e-4);
    double *tr = at, *cr = at + 32;
    size_t nr = 0;
    if (isfinite(t1))
        for (int k = 0; k < 32; k++) {
            tr[k] = t1 - 0.15 + 0.3 * k / 31.0;
            cr[k] = 1e-4 * exp(rate * (tr[k] - t1));
            nr++;
        }
    s[3] = (mbd_series){"exp(48.3 t)", tr, cr, nr, "lines dt 2 lc rgb 'gray40'", 0};
    const mbd_panel panel = {.title = "constraint violation |C| under ode23, mu = 1e5",
                             .xlabel = "t [s]", .ylabel = "|C|", .logy = 1, .series = s,
                             .nseries = 4,
                             .extra = "set key bottom right font ',10'\nset yrange [1e-10:10]\nset xrange [0:1]"};
    const mbd_figure fig = {.title = "Baumgarte's sign: C'' + 2 alpha C' + beta^2 C = 0, or its unstable mirror image",
                            .panels = &panel, .width = 900, .height = 520};
    char path[1024];
    int st = mbd_plot_svg(mbd_plot_path(path, sizeof path, prefix, "baumgarte"), &fig, fail);
    free(buf);
    return st;
}

static int write_figures(const char *prefix, study *S, mbd_failure *fail)
{
    int st = compute(S);
    if (st != GSL_SUCCESS)
        return mbd_failure_set(fail, st, NAN, "the story's computations failed: %s", mbd_strerror(st));
    st = figure_motion(prefix, S, fail);
    if (st == GSL_SUCCESS)
        st = figure_errors(prefix, S, fail);
    if (st == GSL_SUCCESS)
        st = figure_penalty(prefix, S, fail);
    if (st == GSL_SUCCESS)
        st = figure_baumgarte(prefix, S, fail);
    return st;
}

/* ------------------------------------------------------------------------ */
/* One run                                                                   */

static int write_summary(FILE *out, const ch03_spec *spec, const ch03_result *r,
                         const ch03_exact *e)
{
    int bad = 0;
    bad |= mbd_summary_string(out, "method", spec->method);
    bad |= mbd_summary_string(out, "integrator", r->integrator);
    bad |= mbd_summary_long(out, "integrator_replaced", r->forced_msbdf);
    bad |= mbd_summary_double(out, "mu", spec->mu);
    bad |= mbd_summary_double(out, "alpha", spec->alpha);
    bad |= mbd_summary_double(out, "beta", spec->beta);
    bad |= mbd_summary_long(out, "project", spec->project);
    bad |= mbd_summary_double(out, "t_end", spec->t_end);
    bad |= mbd_summary_double(out, "dt_out", spec->dt_out);
    bad |= mbd_summary_double(out, "t_reached", r->stats.run.t_reached);
    bad |= mbd_summary_long(out, "steps", r->stats.run.ode.steps);
    bad |= mbd_summary_long(out, "rejected", r->stats.run.ode.rejected);
    bad |= mbd_summary_long(out, "fevals", r->stats.run.ode.fevals);
    bad |= mbd_summary_long(out, "corrections", r->stats.run.corrections);
    /* over the outputs up to t_reached; none when not one output was made */
    const int any = r->stats.run.outputs > 0;
    bad |= mbd_summary_optional(out, "max_C_norm", r->stats.max_C, any);
    bad |= mbd_summary_optional(out, "max_Cdot_norm", r->stats.max_Cdot, any);
    bad |= mbd_summary_optional(out, "max_energy_error", r->stats.max_dE, any);
    bad |= mbd_summary_optional(out, "max_position_error", r->err.position, any);
    bad |= mbd_summary_optional(out, "max_velocity_error", r->err.velocity, any);
    bad |= mbd_summary_optional(out, "error_x", r->err.x, any);
    bad |= mbd_summary_optional(out, "error_y", r->err.y, any);
    bad |= mbd_summary_optional(out, "error_x_dot", r->err.xd, any);
    bad |= mbd_summary_optional(out, "error_y_dot", r->err.yd, any);
    bad |= mbd_summary_optional(out, "max_abs_z", r->err.z_abs, any);
    bad |= mbd_summary_double(out, "period_exact", e->T);
    bad |= mbd_summary_string(out, "status", mbd_status_word(r->status));
    return bad ? MBD_ENONFINITE : GSL_SUCCESS;
}

static void write_report(FILE *out, const ch03_spec *spec, const ch03_result *r,
                         const mbd_history *h, const ch03_pendulum *p, const ch03_exact *e,
                         int no_timing)
{
    char buf[32];
    fprintf(out, "%s: %s", PROGRAM, spec->method);
    if (ch03_method_uses_mu(spec->method))
        fprintf(out, ", mu = %g", spec->mu);
    if (ch03_method_uses_baumgarte(spec->method))
        fprintf(out, ", alpha = %g, beta = %g", spec->alpha, spec->beta);
    if (spec->project)
        fprintf(out, ", post-step projection");
    fprintf(out, ", integrator %s", r->integrator);
    if (r->forced_msbdf)
        fprintf(out, " (eq. 58 is stiff: msbdf replaces %s)", spec->ode.name);
    fprintf(out, ", t = 0 ... %g s, outputs every %g s\n", spec->t_end, spec->dt_out);
    fprintf(out, "  steps %ld (rejected %ld), f evaluations %ld, corrections %ld, time %s\n",
            r->stats.run.ode.steps, r->stats.run.ode.rejected, r->stats.run.ode.fevals,
            r->stats.run.corrections, seconds(buf, sizeof buf, r->seconds, no_timing));
    fprintf(out, "  against the exact solution: position error %.3e (x %.3e, y %.3e, z %.3e),\n"
                 "  velocity error %.3e (x' %.3e, y' %.3e)\n",
            r->err.position, r->err.x, r->err.y, r->err.z, r->err.velocity, r->err.xd, r->err.yd);
    fprintf(out, "  max |C| %.3e, max |C'| %.3e, max |E - E0| %.3e\n", r->stats.max_C,
            r->stats.max_Cdot, r->stats.max_dE);
    if (h->rows > 0) {
        const size_t k = h->rows - 1;
        double q[3], qd[3];
        ch03_exact_state(p, e, h->t[k], q, qd);
        const double *hq = mbd_history_q(h, k), *hv = mbd_history_qd(h, k);
        fprintf(out, "  at t = %g s: x = %.6f, y = %.6f, x' = %.6f, y' = %.6f\n", h->t[k], hq[0],
                hq[1], hv[0], hv[1]);
        fprintf(out, "       exact: x = %.6f, y = %.6f, x' = %.6f, y' = %.6f\n", q[0], q[1], qd[0],
                qd[1]);
    }
}

/* ------------------------------------------------------------------------ */
/* Benchmarks                                                                */

typedef struct {
    const ch03_pendulum *p;
    ch03_spec spec;
    study *S;
} bench_case;

static int bench_run(void *ctx, long *steps, long *fevals)
{
    bench_case *b = ctx;
    ch03_result r;
    int st = ch03_run(b->p, &b->spec, NULL, &r);
    *steps = r.stats.run.ode.steps;
    *fevals = r.stats.run.ode.fevals;
    return st != GSL_SUCCESS ? st : r.status;
}

static int bench_story(void *ctx, long *steps, long *fevals)
{
    bench_case *b = ctx;
    FILE *null = fopen("/dev/null", "w");
    if (null == NULL)
        return MBD_EIO;
    b->S->computed = 0;
    int st = story(null, b->S, 1);
    fclose(null);
    *steps = 0;
    *fevals = 0;
    return st;
}

static int bench(long repeats, study *S)
{
    static const struct { const char *method, *integrator; double mu; } cases[] = {
        {"direct", "ode23", 0},
        {"projection", "ode23", 0},
        {"penalty", "ode23", 1e5},
        {"penalty-baumgarte", "ode23", 1e5},
        {"alternate-penalty", "ode23", 1e5},
        {"alternate-penalty", "ode23", 1e8},
        {"index2-penalty", "msbdf", 1e5},
        {"projection", "tight", 0},
        {"penalty", "tight", 1e5},
    };
    ch03_pendulum p;
    ch03_pendulum_document(&p);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        bench_case b = {&p, {0}, S};
        spec_for(&b.spec, cases[i].method, cases[i].integrator, 0.01);
        if (cases[i].mu > 0)
            b.spec.mu = cases[i].mu;
        char name[64], method[64];
        snprintf(name, sizeof name, "pendulum-%s", cases[i].integrator);
        if (cases[i].mu > 0)
            snprintf(method, sizeof method, "%s mu=%g", cases[i].method, cases[i].mu);
        else
            snprintf(method, sizeof method, "%s", cases[i].method);
        int st = mbd_cli_bench(stdout, PROGRAM, name, method, repeats, bench_run, &b);
        if (st != GSL_SUCCESS)
            return st;
    }
    bench_case b = {&p, {0}, S};
    return mbd_cli_bench(stdout, PROGRAM, "story", "", repeats, bench_story, &b);
}

/* ------------------------------------------------------------------------ */

int main(int argc, char **argv)
{
    gsl_set_error_handler_off();

    double mu = 1e5, alpha = 20.0, beta = 20.0;
    int mu_given = 0, alpha_given = 0, beta_given = 0, project = 0, project_given = 0;
    const mbd_cli_extra extra[] = {
        {"mu", MBD_ARG_DOUBLE, &mu, "MU", "penalty factor of the penalty methods (default 1e5)",
         NULL, 0.0, 1e15, 1, 0, &mu_given},
        {"alpha", MBD_ARG_DOUBLE, &alpha, "A",
         "Baumgarte velocity weight (default 20, as in the listings)", NULL, 0.0, 1e6, 0, 0,
         &alpha_given},
        {"beta", MBD_ARG_DOUBLE, &beta, "B",
         "Baumgarte position weight in beta^2 C (default 20 as in the listings; the text has 4.4721)",
         NULL, 0.0, 1e6, 0, 0, &beta_given},
        {"project", MBD_ARG_FLAG, &project, NULL,
         "post-step coordinate projection onto C = 0 and C' = 0 (not for index2-penalty, direct)",
         NULL, 0, 0, 0, 0, &project_given},
    };
    mbd_cli_choice methods[16], integrators[16];
    size_t nm = mbd_cli_choices(mbd_formulation_method_names, mbd_formulation_method_descriptions,
                                methods, 16);
    methods[nm++] = (mbd_cli_choice){"direct", "theta'' = -(g/L) sin theta in the angle (eq. 73)"};
    methods[nm] = (mbd_cli_choice){NULL, NULL};
    mbd_cli_choices(mbd_ode_preset_names, mbd_ode_preset_descriptions, integrators, 16);
    const mbd_cli_spec spec = {
        .program = PROGRAM,
        .purpose = "The simple pendulum by projection, static penalty, Baumgarte, alternate and index-2\n"
                   "penalty and the direct angle equation, against the exact elliptic-function solution.",
        .source = "document 000 (Newhart 2019), Sec. 2 and 2.4.1, Tables 1-2, Figs. 2-13, listings A.2",
        .common = MBD_OPT_OUTPUT | MBD_OPT_TIME,
        .extra = extra,
        .n_extra = sizeof extra / sizeof extra[0],
        .methods = methods,
        .integrators = integrators,
        .csv_columns = "t,x,y,z,x_dot,y_dot,z_dot,C_norm,Cdot_norm,E (and h for adaptive integrators);\n"
                       "C = (x^2 + y^2 - L^2, z), E = kinetic - m g y",
        .notes = "With --method, --csv, --summary or any run option: one run (default penalty, ode23,\n"
                 "mu 1e5, alpha = beta = 20, t_end 5, outputs every 1e-4 s as Table 2). index2-penalty\n"
                 "always runs with msbdf (eq. 58 is stiff; --h, --rtol, --atol apply to it).\n"
                 "A violation |C| > --max-violation (default 1) stops the run with status 1.\n"
                 "--summary keys: method, integrator, integrator_replaced, mu, alpha, beta, project,\n"
                 "t_end, dt_out, t_reached, steps, rejected, fevals, corrections, max_C_norm,\n"
                 "max_Cdot_norm, max_energy_error, max_position_error, max_velocity_error, error_x,\n"
                 "error_y, error_x_dot, error_y_dot, max_abs_z, period_exact, status.\n"
                 "The story uses the document's data whatever the options say.\n"
                 "Figures (--plot PREFIX, from the story's runs): PREFIX-motion.svg, PREFIX-errors.svg,\n"
                 "PREFIX-penalty-factor.svg, PREFIX-baumgarte.svg.",
    };
    mbd_cli_common opt;
    mbd_cli_defaults(&opt);
    int st = mbd_cli_parse(&spec, argc, argv, &opt, stdout, stderr);
    if (st == MBD_CLI_DONE)
        return MBD_EXIT_OK;
    if (st != GSL_SUCCESS)
        return MBD_EXIT_USAGE;

#define USAGE(...) return mbd_cli_exit_status(mbd_cli_usage_error(&spec, stderr, __VA_ARGS__))
    const char *method = opt.method_given ? opt.method : "penalty";
    const int is_direct = strcmp(method, "direct") == 0;
    const int is_index2 = strcmp(method, "index2-penalty") == 0;
    if (project && is_direct)
        USAGE("--project: the direct method integrates the angle theta, which has no constraint "
              "to project onto");
    if (mbd_cli_check_method_options(&spec, method, mu_given, alpha_given, beta_given, project,
                                     stderr) != GSL_SUCCESS)
        return MBD_EXIT_USAGE;
    ch03_spec rs;
    ch03_spec_default(&rs);
    rs.method = method;
    rs.mu = mu;
    rs.alpha = alpha;
    rs.beta = beta;
    rs.project = project;
    if (opt.t_end_given)
        rs.t_end = opt.t_end;
    if (opt.dt_out_given)
        rs.dt_out = opt.dt_out;
    rs.max_violation = opt.max_violation;
    rs.max_steps = opt.max_steps;
    rs.max_outputs = opt.max_outputs;
    {
        mbd_cli_common o2 = opt;
        if (is_index2)
            o2.integrator_given = 0;   /* eq. (58) is stiff: msbdf, with --h, --rtol, --atol */
        st = mbd_cli_integrator(&spec, &o2, is_index2 ? "msbdf" : "ode23", &rs.ode, stderr);
        if (st != GSL_SUCCESS)
            return MBD_EXIT_USAGE;
    }
    if (mbd_cli_check_run(&spec, &opt, 0.0, rs.t_end, rs.dt_out, &rs.ode, stderr) != GSL_SUCCESS)
        return MBD_EXIT_USAGE;
#undef USAGE
    const int run_mode = opt.method_given || opt.csv || opt.summary || opt.integrator_given
                         || opt.t_end_given || opt.h_given || opt.dt_out_given || opt.rtol_given
                         || opt.atol_given || opt.max_violation_given || mu_given || alpha_given
                         || beta_given || project_given;

    study *S = study_alloc();
    if (S == NULL)
        return MBD_EXIT_NUMERICAL;
    mbd_failure fail;
    mbd_failure_clear(&fail);
    int exit_code = MBD_EXIT_OK;
    mbd_history h;
    mbd_history_init(&h);

    if (opt.bench) {
        st = bench(opt.bench, S);
        if (st != GSL_SUCCESS) {
            mbd_failure_set(&fail, st, NAN, "a benchmark case failed: %s", mbd_strerror(st));
            goto failed;
        }
        goto done;
    }

    /* figures first: a bad --plot path must not leave a story half printed */
    if (opt.plot) {
        st = write_figures(opt.plot, S, &fail);
        if (st != GSL_SUCCESS)
            goto failed;
    }
    if (run_mode) {
        ch03_pendulum p;
        ch03_pendulum_document(&p);
        ch03_exact e;
        ch03_exact_init(&p, &e);
        ch03_result r;
        const char *asked = opt.integrator_given ? opt.integrator : "ode23";
        st = ch03_run(&p, &rs, &h, &r);
        if (st != GSL_SUCCESS) {
            mbd_failure_set(&fail, st, NAN, "the run could not be set up (%s)", mbd_strerror(st));
            goto failed;
        }
        if (is_index2 && strcmp(asked, "msbdf") != 0) {
            r.forced_msbdf = 1;
            rs.ode.name = asked;   /* for the report: what was asked for */
        }
        if (opt.csv) {
            if (r.forced_msbdf && strcmp(opt.csv, "-") != 0)
                fprintf(stderr, PROGRAM ": note: index2-penalty is stiff (eq. 58): integrated with "
                                "msbdf, not %s\n", asked);
            int sc = mbd_history_csv(&h, opt.csv, ch03_names, 1, &fail);
            if (sc != GSL_SUCCESS) {
                st = sc;
                goto failed;
            }
        }
        /* a failed run is reported by its own cause, whatever else went wrong */
        int sum_st = GSL_SUCCESS;
        if (opt.summary)
            sum_st = write_summary(stdout, &rs, &r, &e);
        if (!opt.csv && !opt.summary)
            write_report(stdout, &rs, &r, &h, &p, &e, opt.no_timing);
        if (r.status != GSL_SUCCESS) {
            fail = r.fail;
            goto failed;
        }
        if (sum_st != GSL_SUCCESS) {
            mbd_failure_set(&fail, sum_st, r.stats.run.t_reached,
                            "a summary value is not finite");
            goto failed;
        }
    } else {
        st = story(stdout, S, opt.no_timing);
        if (st != GSL_SUCCESS) {
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
    mbd_history_free(&h);
    study_free(S);
    return exit_code;
}
