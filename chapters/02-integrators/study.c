/* Chapter 02's schemes (schemes.h): the method table, the slides' tables
 * typed in as printed (document 001), order conditions, the Adams
 * coefficients from the slides' Lagrange form, and run helpers. */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "mbd/io.h"
#include "mbd/run.h"
#include "study.h"

/* ------------------------------------------------------------------------ */
/* The methods                                                               */

const ch02_scheme ch02_schemes[] = {
    {"euler", "explicit Euler, y_{n+1} = y_n + h f_n (order 1)", "Euler method",
     MBD_ODE_RK, &mbd_tableau_euler, 0, 0, 0, 1, 0, 1},
    {"implicit-euler", "implicit Euler, y_{n+1} = y_n + h f_{n+1}, by Newton (order 1)",
     "implicit Euler", MBD_ODE_IMPLICIT_EULER, NULL, 1, 0, 0, 1, 1, -1},
    {"midpoint", "the mid-point rule, second-order family with alpha = 1/2",
     "mid-point method", MBD_ODE_RK, &mbd_tableau_midpoint, 0, 0, 0, 2, 0, 2},
    {"heun", "Heun's method, second-order family with alpha = 1", "Heun's method",
     MBD_ODE_RK, &mbd_tableau_heun, 0, 0, 0, 2, 0, 2},
    {"ralston", "Ralston's method, second-order family with alpha = 2/3", "Ralston's method",
     MBD_ODE_RK, &mbd_tableau_ralston, 0, 0, 0, 2, 0, 2},
    {"rk4", "classical fourth-order Runge-Kutta", "fourth-order Runge-Kutta",
     MBD_ODE_RK, &mbd_tableau_rk4, 0, 0, 0, 4, 0, 4},
    {"ab2", "Adams-Bashforth, 2 steps, order 2, [3, -1]/2 (RK4 start)", "2-step A-B",
     MBD_ODE_AB, NULL, 2, 0, 0, 2, 0, 1},
    {"ab3", "Adams-Bashforth, 3 steps, order 3, [23, -16, 5]/12 (RK4 start)", "3-step A-B",
     MBD_ODE_AB, NULL, 3, 0, 0, 3, 0, 1},
    {"ab4", "Adams-Bashforth, 4 steps, order 4, [55, -59, 37, -9]/24 (RK4 start)", "4-step A-B",
     MBD_ODE_AB, NULL, 4, 0, 0, 4, 0, 1},
    {"am2", "Adams-Moulton order 2: the trapezoidal rule, [1, 1]/2", "trapezoid (the P(EC)^m corrector)",
     MBD_ODE_AM, NULL, 2, 0, 0, 2, 1, -1},
    {"am3", "Adams-Moulton order 3, [5, 8, -1]/12", "two-step A-M",
     MBD_ODE_AM, NULL, 3, 0, 0, 3, 0, -1},
    {"am4", "Adams-Moulton order 4, [9, 19, -5, 1]/24", "(three-step A-M)",
     MBD_ODE_AM, NULL, 4, 0, 0, 4, 0, -1},
    {"am5", "Adams-Moulton order 5, [251, 646, -264, 106, -19]/720", "four-step A-M",
     MBD_ODE_AM, NULL, 5, 0, 0, 5, 0, -1},
    {"pece", "P(EC)^m: AB_k predictor, AM_k corrector (--order k, --corrections m)",
     "predictor-corrector P(EC)^m", MBD_ODE_PECE, NULL, 0, 0, 0, 0, 0, 0},
    {"rk4-doubling", "RK4 with the error estimated by step doubling (adaptive)",
     "step doubling, denominator 15", MBD_ODE_RK, &mbd_tableau_rk4, 0, 1, 1, 4, 0, 11},
    {"rkf23", "Fehlberg 2(3) as printed in the slides, order 3 propagated (adaptive)",
     "Runge-Kutta-Fehlberg", MBD_ODE_RK, &mbd_tableau_rkf23, 0, 1, 0, 3, 0, 4},
    {"cash-karp", "Cash-Karp 5(4) as printed in the slides, order 5 propagated (adaptive)",
     "Cash-Karp", MBD_ODE_RK, &mbd_tableau_cash_karp, 0, 1, 0, 5, 0, 6},
    {NULL, NULL, NULL, MBD_ODE_RK, NULL, 0, 0, 0, 0, 0, 0},
};

const ch02_scheme *ch02_scheme_find(const char *name)
{
    for (const ch02_scheme *s = ch02_schemes; name != NULL && s->name != NULL; s++)
        if (strcmp(s->name, name) == 0)
            return s;
    return NULL;
}

void ch02_settings_default(ch02_settings *s)
{
    memset(s, 0, sizeof *s);
    s->h = 0.01;
    s->rtol = 1e-6;
    s->atol = 1e-6;
    s->pece_order = 4;
    s->corrections = 1;
}

/* >> params */
void ch02_params(const ch02_scheme *s, const ch02_settings *set, mbd_ode_params *p)
{
    memset(p, 0, sizeof *p);
    p->name = s->name;
    p->kind = s->kind;
    p->tableau = s->tableau;
    p->order = s->kind == MBD_ODE_PECE ? set->pece_order : s->lib_order;
    p->corrections = set->corrections;
    p->adaptive = s->adaptive && !set->fixed;
    p->doubling = s->doubling && !set->fixed;
    p->control = MBD_CONTROL_STANDARD;   /* RMS norm of err / (atol + rtol |y|), safety 0.9 */
    p->h = set->h;
    p->rtol = set->rtol;
    p->atol = set->atol;
}
/* << params */

unsigned ch02_order(const ch02_scheme *s, const ch02_settings *set)
{
    return s->kind == MBD_ODE_PECE ? set->pece_order : s->order;
}

/* ------------------------------------------------------------------------ */
/* The slides' variants                                                      */

/* >> pec */
/* Euler predictor, m trapezoidal corrections: stage 1 is f_n, stage 2 is f at
 * the predictor y_n + h f_n, stage j + 1 is f at the corrector
 * y_n + h/2 (f_n + stage j), and y_{n+1} = y_n + h/2 (f_n + stage m + 1). */
static const double pec1_c[] = {0, 1}, pec1_a[] = {0, 0, 1, 0}, pec1_b[] = {0.5, 0.5};
static const double pec2_c[] = {0, 1, 1};
static const double pec2_a[] = {0, 0, 0,
                                1, 0, 0,
                                0.5, 0.5, 0};
static const double pec2_b[] = {0.5, 0, 0.5};
static const double pec3_c[] = {0, 1, 1, 1};
static const double pec3_a[] = {0, 0, 0, 0,
                                1, 0, 0, 0,
                                0.5, 0.5, 0, 0,
                                0.5, 0, 0.5, 0};
static const double pec3_b[] = {0.5, 0, 0, 0.5};
/* << pec */
static const mbd_tableau PEC[CH02_PEC_MAX] = {
    {"P(EC)^1", 2, pec1_c, pec1_a, pec1_b, NULL, 2, 0, 0, 0},
    {"P(EC)^2", 3, pec2_c, pec2_a, pec2_b, NULL, 2, 0, 0, 0},
    {"P(EC)^3", 4, pec3_c, pec3_a, pec3_b, NULL, 2, 0, 0, 0},
};

const mbd_tableau *ch02_tableau_pec(unsigned m)
{
    return m >= 1 && m <= CH02_PEC_MAX ? &PEC[m - 1] : NULL;
}

static const double rk3_c[] = {0, 0.5, 1};
static const double rk3_a[] = {0, 0, 0,
                               0.5, 0, 0,
                               -1, 2, 0};
static const double rk3_b[] = {1.0 / 6, 2.0 / 3, 1.0 / 6};
const mbd_tableau ch02_tableau_rk3 = {"rk3", 3, rk3_c, rk3_a, rk3_b, NULL, 3, 0, 0, 0};

/* >> cash-karp */
/* The slides' "Cash-Karp R-K Formulas" (Cash & Karp 1990), as printed. */
static const double ck_c[6] = {0, 1.0 / 5, 3.0 / 10, 3.0 / 5, 1, 7.0 / 8};
static const double ck_a[36] = {
    0, 0, 0, 0, 0, 0,
    1.0 / 5, 0, 0, 0, 0, 0,
    3.0 / 40, 9.0 / 40, 0, 0, 0, 0,
    3.0 / 10, -9.0 / 10, 6.0 / 5, 0, 0, 0,
    -11.0 / 54, 5.0 / 2, -70.0 / 27, 35.0 / 27, 0, 0,
    1631.0 / 55296, 175.0 / 512, 575.0 / 13824, 44275.0 / 110592, 253.0 / 4096, 0};
static const double ck_b[5][6] = {
    {1, 0, 0, 0, 0, 0},                                                        /* order 1 */
    {-3.0 / 2, 5.0 / 2, 0, 0, 0, 0},                                           /* order 2 */
    {19.0 / 54, 0, -10.0 / 27, 55.0 / 54, 0, 0},                               /* order 3 */
    {2825.0 / 27648, 0, 18575.0 / 48384, 13525.0 / 55296, 277.0 / 14336, 1.0 / 4}, /* 4 */
    {37.0 / 378, 0, 250.0 / 621, 125.0 / 594, 0, 512.0 / 1771}};              /* order 5 */
/* << cash-karp */
static const mbd_tableau CK[5] = {
    {"cash-karp row 1", 6, ck_c, ck_a, ck_b[0], NULL, 1, 0, 0, 0},
    {"cash-karp row 2", 6, ck_c, ck_a, ck_b[1], NULL, 2, 0, 0, 0},
    {"cash-karp row 3", 6, ck_c, ck_a, ck_b[2], NULL, 3, 0, 0, 0},
    {"cash-karp row 4", 6, ck_c, ck_a, ck_b[3], NULL, 4, 0, 0, 0},
    {"cash-karp row 5", 6, ck_c, ck_a, ck_b[4], ck_b[3], 5, 4, 0, 0},
};

const mbd_tableau *ch02_tableau_cash_karp_row(unsigned order)
{
    return order >= 1 && order <= 5 ? &CK[order - 1] : NULL;
}

/* >> rkf23 */
/* The slides' "Runge-Kutta-Fehlberg Method" table: nodes alpha_k, stage
 * coefficients beta_kl, weights c_k (Phi_1, order 2) and c-hat_k (Phi_2, order 3). */
static const double f23_alpha[4] = {0, 1.0 / 4, 27.0 / 40, 1};
static const double f23_beta[16] = {
    0, 0, 0, 0,
    1.0 / 4, 0, 0, 0,
    -189.0 / 800, 729.0 / 800, 0, 0,
    214.0 / 891, 1.0 / 33, 650.0 / 891, 0};
static const double f23_c[4] = {214.0 / 891, 1.0 / 33, 650.0 / 891, 0};
static const double f23_chat[4] = {533.0 / 2106, 0, 800.0 / 1053, -1.0 / 78};
/* << rkf23 */
/* Propagating Phi_1 makes the last stage f(t + h, y_{n+1}) (its row is c_k):
 * first same as last, 3 evaluations per step. */
const mbd_tableau ch02_tableau_rkf23_phi1 = {"rkf23 Phi_1", 4, f23_alpha, f23_beta, f23_c,
                                             f23_chat, 2, 3, 1, 0};
const mbd_tableau ch02_tableau_rkf23_phi2 = {"rkf23 Phi_2", 4, f23_alpha, f23_beta, f23_chat,
                                             f23_c, 3, 2, 0, 0};

/* ------------------------------------------------------------------------ */
/* Order conditions                                                          */

#define SMAX 8

/* v = A u for the s x s tableau matrix */
static void amul(const mbd_tableau *tb, const double *u, double *v)
{
    const unsigned s = tb->stages;
    for (unsigned i = 0; i < s; i++) {
        v[i] = 0.0;
        for (unsigned j = 0; j < s; j++)
            v[i] += tb->a[i * s + j] * u[j];
    }
}

static double dot(const double *b, const double *u, unsigned s)
{
    double acc = 0.0;
    for (unsigned i = 0; i < s; i++)
        acc += b[i] * u[i];
    return acc;
}

/* >> order-conditions */
unsigned ch02_tableau_order(const mbd_tableau *tb, const double *b, double tol, double *worst)
{
    const unsigned s = tb->stages;
    double one[SMAX] = {0}, c[SMAX] = {0}, c2[SMAX] = {0}, c3[SMAX] = {0}, c4[SMAX] = {0};
    double Ac[SMAX], Ac2[SMAX], Ac3[SMAX];
    double AAc[SMAX], AAc2[SMAX], AAAc[SMAX], cAc[SMAX], AcAc[SMAX], c2Ac[SMAX], cAc2[SMAX];
    double cAAc[SMAX], AcAc_sq[SMAX];
    if (s == 0 || s > SMAX)
        return 0;
    double rowdefect = 0.0;
    for (unsigned i = 0; i < s; i++) {
        double row = 0.0;
        for (unsigned j = 0; j < s; j++)
            row += tb->a[i * s + j];
        rowdefect = fmax(rowdefect, fabs(row - tb->c[i]));   /* c = A e */
        one[i] = 1.0;
        c[i] = tb->c[i];
        c2[i] = c[i] * c[i];
        c3[i] = c2[i] * c[i];
        c4[i] = c3[i] * c[i];
    }
    amul(tb, c, Ac);
    amul(tb, c2, Ac2);
    amul(tb, c3, Ac3);
    amul(tb, Ac, AAc);
    amul(tb, Ac2, AAc2);
    amul(tb, AAc, AAAc);
    for (unsigned i = 0; i < s; i++) {
        cAc[i] = c[i] * Ac[i];
        c2Ac[i] = c2[i] * Ac[i];
        cAc2[i] = c[i] * Ac2[i];
        cAAc[i] = c[i] * AAc[i];
        AcAc_sq[i] = Ac[i] * Ac[i];
    }
    amul(tb, cAc, AcAc);   /* A (c o A c) */
    /* the rooted-tree conditions  b . phi(tree) = 1 / tree!  by order */
    const struct { unsigned order; const double *phi; double value; } cond[] = {
        {1, one, 1.0},
        {2, c, 1.0 / 2},
        {3, c2, 1.0 / 3}, {3, Ac, 1.0 / 6},
        {4, c3, 1.0 / 4}, {4, cAc, 1.0 / 8}, {4, Ac2, 1.0 / 12}, {4, AAc, 1.0 / 24},
        {5, c4, 1.0 / 5}, {5, c2Ac, 1.0 / 10}, {5, cAc2, 1.0 / 15}, {5, cAAc, 1.0 / 30},
        {5, AcAc_sq, 1.0 / 20}, {5, Ac3, 1.0 / 20}, {5, AcAc, 1.0 / 40}, {5, AAc2, 1.0 / 60},
        {5, AAAc, 1.0 / 120},
    };
    double defect[6] = {0};
    for (size_t k = 0; k < sizeof cond / sizeof cond[0]; k++)
        defect[cond[k].order] = fmax(defect[cond[k].order],
                                     fabs(dot(b, cond[k].phi, s) - cond[k].value));
    defect[1] = fmax(defect[1], rowdefect);
    unsigned p = 0;
    while (p < 5 && defect[p + 1] <= tol)
        p++;
    if (worst)
        *worst = p < 5 ? defect[p + 1] : 0.0;
    return p;
}
/* << order-conditions */

/* ------------------------------------------------------------------------ */
/* Adams coefficients                                                        */

/* >> adams */
void ch02_adams(int implicit, unsigned k, double beta[])
{
    /* nodes in units of h from t_n: explicit t_n, t_{n-1}, ...; implicit t_{n+1}, t_n, ... */
    double node[5];
    for (unsigned i = 0; i < k; i++)
        node[i] = (implicit ? 1.0 : 0.0) - (double)i;
    for (unsigned i = 0; i < k; i++) {
        /* L_i(s) = prod_{m != i} (s - s_m) / (s_i - s_m), as coefficients of s^d */
        double poly[5] = {1.0, 0, 0, 0, 0};
        unsigned deg = 0;
        for (unsigned m = 0; m < k; m++) {
            if (m == i)
                continue;
            const double scale = 1.0 / (node[i] - node[m]);
            for (unsigned d = deg + 1; d > 0; d--)
                poly[d] = (poly[d - 1] - node[m] * poly[d]) * scale;
            poly[0] = -node[m] * poly[0] * scale;
            deg++;
        }
        /* beta_i = int_0^1 L_i(s) ds: the integral over [t_n, t_{n+1}] divided by h */
        beta[i] = 0.0;
        for (unsigned d = 0; d <= deg; d++)
            beta[i] += poly[d] / (double)(d + 1);
    }
}
/* << adams */

/* ------------------------------------------------------------------------ */
/* Runs                                                                      */

const ch02_limits ch02_limits_default = {MBD_RUN_MAX_STEPS, MBD_RUN_MAX_OUTPUTS, 0};

typedef struct {
    const ch02_problem *pr;
    ch02_result *r;
    const ch02_limits *lim;
    mbd_run_output_fn user;
    void *user_ctx;
} track;

static int track_output(void *ctx, double t, const double y[], const mbd_run_info *info,
                        mbd_failure *fail)
{
    track *tr = ctx;
    ch02_result *r = tr->r;
    if (tr->lim->max_outputs > 0 && r->outputs >= tr->lim->max_outputs) {
        /* with an output after every step the two limits come together: the step
         * limit, which would stop the run before its next step, is the cause */
        const long max_steps = tr->lim->max_steps;
        r->limit = max_steps > 0 && info->step >= max_steps && !info->final ? CH02_LIMIT_STEPS
                                                                             : CH02_LIMIT_OUTPUTS;
        return mbd_failure_set(fail, MBD_ESTEPLIMIT, t, "the limit of %ld %s was reached at t = "
                               "%.6g", r->limit == CH02_LIMIT_STEPS ? max_steps : r->outputs,
                               r->limit == CH02_LIMIT_STEPS ? "steps" : "outputs", t);
    }
    r->outputs++;
    r->max_error = fmax(r->max_error, ch02_error(tr->pr, t, y));
    return tr->user ? tr->user(tr->user_ctx, t, y, info, fail) : GSL_SUCCESS;
}

/* after every accepted step, whether or not it made an output: the steps'
 * sizes and the error at their ends */
static int track_step(void *ctx, double t, double y[], int *changed, mbd_failure *fail)
{
    (void)fail;
    track *tr = ctx;
    ch02_result *r = tr->r;
    const double h = mbd_ode_last_h(r->ode);
    *changed = 0;
    r->h_last = h;
    /* h_min, h_max start at +-inf (NAN again after a run without steps) */
    if (h < r->h_min)
        r->h_min = h;
    if (h > r->h_max)
        r->h_max = h;
    if (tr->lim->error_every_step)
        r->max_error = fmax(r->max_error, ch02_error(tr->pr, t, y));
    return GSL_SUCCESS;
}

int ch02_solve(const mbd_ode_params *p, const ch02_problem *pr, double t_end, double dt_out,
               const ch02_limits *lim, mbd_run_output_fn output, void *ctx, ch02_result *r)
{
    memset(r, 0, sizeof *r);
    mbd_failure_clear(&r->fail);
    r->h_min = INFINITY;
    r->h_max = -INFINITY;
    r->h_last = NAN;
    if (lim == NULL)
        lim = &ch02_limits_default;
    mbd_ode *o = mbd_ode_alloc(p, pr->dim, ch02_rhs, (void *)pr);
    if (o == NULL)
        return mbd_failure_set(&r->fail, GSL_EINVAL, NAN, "bad integrator parameters for %s",
                               p->name ? p->name : "the scheme");
    r->ode = o;
    track tr = {pr, r, lim, output, ctx};
    mbd_run_params rp = {.t0 = 0.0, .t_end = t_end, .dt_out = dt_out, .output = track_output,
                         .output_ctx = &tr, .hook = track_step, .hook_ctx = &tr,
                         .max_steps = lim->max_steps, .max_outputs = lim->max_outputs};
    r->y[0] = pr->y0[0];
    r->y[1] = pr->y0[1];
    int st = mbd_run(o, &rp, r->y, &r->stats, &r->fail);
    if (r->stats.ode.steps == 0)
        r->h_min = r->h_max = NAN;
    r->t = st == GSL_SUCCESS ? t_end : r->stats.t_reached;
    r->error = ch02_error(pr, r->t, r->y);
    if (st != GSL_SUCCESS && r->limit == CH02_LIMIT_NONE && lim->max_steps > 0
        && r->stats.ode.steps >= lim->max_steps)
        r->limit = CH02_LIMIT_STEPS;
    r->ode = NULL;
    mbd_ode_free(o);
    return st;
}

double ch02_error_at(const mbd_ode_params *p, const ch02_problem *pr, double t_end, double h)
{
    mbd_ode_params q = *p;
    q.h = h;
    ch02_result r;
    int st = ch02_solve(&q, pr, t_end, t_end, NULL, NULL, NULL, &r);
    return st == GSL_SUCCESS ? r.error : NAN;
}

double ch02_observed_order(const mbd_ode_params *p, const ch02_problem *pr, double t_end,
                           double h0, int n, double err[], double order[])
{
    double h = h0;
    for (int k = 0; k < n; k++, h *= 0.5) {
        err[k] = ch02_error_at(p, pr, t_end, h);
        order[k] = k > 0 ? log2(err[k - 1] / err[k]) : NAN;
    }
    return n > 1 ? order[n - 1] : NAN;
}

/* ------------------------------------------------------------------------ */
/* Helpers                                                                   */

void ch02_params_of(const char *method, unsigned k, unsigned m, int fixed, double h,
                      mbd_ode_params *p)
{
    ch02_settings set;
    ch02_settings_default(&set);
    set.pece_order = k;
    set.corrections = m;
    set.fixed = fixed;
    set.h = h;
    ch02_params(ch02_scheme_find(method), &set, p);
}

void ch02_params_tableau(const mbd_tableau *tb, double h, mbd_ode_params *p)
{
    memset(p, 0, sizeof *p);
    p->name = tb->name;
    p->kind = MBD_ODE_RK;
    p->tableau = tb;
    p->h = h;
}

/* ------------------------------------------------------------------------ */
/* Stability                                                                 */

static stab_row *add_stab(ch02_study *s, const char *label, const char *slides, const char *method,
                          const mbd_ode_params *p)
{
    stab_row *r = &s->stab[s->nstab++];
    memset(r, 0, sizeof *r);
    snprintf(r->label, sizeof r->label, "%s", label);
    r->slides = slides;
    r->method = method;
    r->p = *p;
    return r;
}

static void stability_rows(ch02_study *s)
{
    mbd_ode_params p;
    static const struct { const char *method, *label, *slides; } one[] = {
        {"euler", "euler", "Euler"},
        {"heun", "heun (= midpoint, ralston)", "2nd-order family"},
        {"rk4", "rk4", "fourth-order R-K"},
        {"rkf23", "rkf23 (Phi_2, propagated)", "R-K-Fehlberg"},
        {"cash-karp", "cash-karp (order 5)", "Cash-Karp"},
        {"ab2", "ab2", ""},
        {"ab3", "ab3", "3-step A-B"},
        {"ab4", "ab4", ""},
        {"am3", "am3", "two-step A-M"},
        {"am4", "am4", ""},
        {"am5", "am5", "four-step A-M"},
    };
    for (size_t i = 0; i < sizeof one / sizeof one[0]; i++) {
        ch02_params_of(one[i].method, 4, 1, 1, 0.01, &p);
        add_stab(s, one[i].label, one[i].slides, one[i].method, &p);
    }
    ch02_params_tableau(&ch02_tableau_rk3, 0.01, &p);
    add_stab(s, "rk3 (Kutta, order 3)", "R-K order 3 (figure)", NULL, &p);
    ch02_params_tableau(&ch02_tableau_rkf23_phi1, 0.01, &p);
    add_stab(s, "rkf23 Phi_1 (order 2)", "R-K-Fehlberg", NULL, &p);
    ch02_params_tableau(ch02_tableau_cash_karp_row(4), 0.01, &p);
    add_stab(s, "cash-karp row 4", "Cash-Karp", NULL, &p);
    for (unsigned k = 2; k <= 4; k++) {
        char label[48];
        snprintf(label, sizeof label, "pece --order %u", k);
        ch02_params_of("pece", k, 1, 1, 0.01, &p);
        add_stab(s, label, "", k == 4 ? "pece" : NULL, &p);   /* --order 4 is the default */
    }
    ch02_params_of("pece", 4, 2, 1, 0.01, &p);
    add_stab(s, "pece --order 4 --corrections 2", "", NULL, &p);
    for (unsigned m = 1; m <= CH02_PEC_MAX; m++) {
        char label[48];
        snprintf(label, sizeof label, "Euler + trapezoid, m = %u", m);
        ch02_params_tableau(ch02_tableau_pec(m), 0.01, &p);
        add_stab(s, label, "P(EC)^m", NULL, &p);
    }
    ch02_params_of("implicit-euler", 4, 1, 1, 0.01, &p);
    add_stab(s, "implicit-euler", "implicit Euler", "implicit-euler", &p);
    ch02_params_of("am2", 4, 1, 1, 0.01, &p);
    add_stab(s, "am2 (trapezoid)", "P(EC)^m corrector", "am2", &p);
}

static int compute_stability(ch02_study *s)
{
    for (size_t i = 0; i < s->nstab; i++) {
        stab_row *r = &s->stab[i];
        int st = ch02_charpoly_of(&r->p, &r->cp);
        if (st != GSL_SUCCESS)
            return st;
        r->theory_found = ch02_limit_theory(&r->cp, X_MAX, &r->x_theory);
        st = ch02_limit_measured(&r->p, ALPHA, X_MAX, LIMIT_TOL, &r->x_measured, &r->found,
                                 &r->runs);
        if (st != GSL_SUCCESS)
            return st;
        if (r->theory_found) {
            const double xb = 0.98 * r->x_theory, xa = 1.02 * r->x_theory;
            st = ch02_amplification(&r->p, ALPHA, xb, CH02_STABILITY_STEPS, &r->below);
            if (st == GSL_SUCCESS)
                st = ch02_amplification(&r->p, ALPHA, xa, CH02_STABILITY_STEPS, &r->above);
            if (st != GSL_SUCCESS)
                return st;
            r->r_below = ch02_root_modulus(&r->cp, -xb);
            r->r_above = ch02_root_modulus(&r->cp, -xa);
        }
    }
    return GSL_SUCCESS;
}

/* ------------------------------------------------------------------------ */
/* Convergence                                                               */

static void add_conv(ch02_study *s, const char *label, const char *method, const mbd_ode_params *p,
                     unsigned order, double h0, double h0_tr, const char *note)
{
    conv_row *r = &s->conv[s->nconv++];
    memset(r, 0, sizeof *r);
    snprintf(r->label, sizeof r->label, "%s", label);
    r->method = method;
    r->p = *p;
    r->order = order;
    r->note = note;
    r->h0 = h0;
    r->h0_tr = h0_tr;
}

/* the first steps of the halving sequences: order 5 needs longer steps to stay
 * clear of rounding */
#define H0(order) ((order) >= 5 ? 0.04 : 0.01)
#define H0_TR(order) ((order) >= 5 ? 0.005 : 0.002)
#define T_CONV 1.0
#define T_CONV_TR 0.05

static void convergence_rows(ch02_study *s)
{
    mbd_ode_params p;
    static const char *const methods[] = {"euler", "implicit-euler", "midpoint", "heun",
                                          "ralston", "rk4", "ab2", "ab3", "ab4", "am2",
                                          "am3", "am4", "am5"};
    for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++) {
        const ch02_scheme *sc = ch02_scheme_find(methods[i]);
        ch02_params_of(methods[i], 4, 1, 1, 0.01, &p);
        add_conv(s, methods[i], methods[i], &p, sc->order, H0(sc->order), H0_TR(sc->order), NULL);
    }
    for (unsigned k = 2; k <= 4; k++) {
        char label[48];
        snprintf(label, sizeof label, "pece --order %u", k);
        ch02_params_of("pece", k, 1, 1, 0.01, &p);
        add_conv(s, label, k == 4 ? "pece" : NULL, &p, k, H0(k), H0_TR(k), NULL);
    }
    ch02_params_of("pece", 4, 2, 1, 0.01, &p);
    add_conv(s, "pece --order 4 --corrections 2", NULL, &p, 4, H0(4), H0_TR(4), NULL);
    ch02_params_tableau(ch02_tableau_pec(2), 0.01, &p);
    add_conv(s, "Euler + trapezoid, m = 2", NULL, &p, 2, H0(2), H0_TR(2), NULL);
    ch02_params_of("rkf23", 4, 1, 1, 0.01, &p);
    add_conv(s, "rkf23 (Phi_2)", "rkf23", &p, 3, H0(3), H0_TR(3), NULL);
    ch02_params_tableau(&ch02_tableau_rkf23_phi1, 0.01, &p);
    add_conv(s, "rkf23 Phi_1", NULL, &p, 2, H0(2), H0_TR(2), "*");
    add_conv(s, "rkf23 Phi_1, h0 = 1e-4, 2e-5", NULL, &p, 2, 1e-4, 2e-5, "*");
    for (unsigned k = 1; k <= 5; k++) {
        char label[48];
        snprintf(label, sizeof label, k == 5 ? "cash-karp (row %u)" : "cash-karp row %u", k);
        ch02_params_tableau(ch02_tableau_cash_karp_row(k), 0.01, &p);
        add_conv(s, label, k == 5 ? "cash-karp" : NULL, &p, k, H0(k), H0_TR(k), NULL);
    }
}

static void compute_convergence(ch02_study *s)
{
    ch02_problem decay, transient;
    ch02_problem_init(&decay, CH02_DECAY, ALPHA, OMEGA);
    ch02_problem_init(&transient, CH02_TRANSIENT, ALPHA, OMEGA);
    for (size_t i = 0; i < s->nconv; i++) {
        conv_row *r = &s->conv[i];
        ch02_observed_order(&r->p, &decay, T_CONV, r->h0, 4, r->err, r->ord);
        ch02_observed_order(&r->p, &transient, T_CONV_TR, r->h0_tr, 4, r->err_tr, r->ord_tr);
    }
}

/* ------------------------------------------------------------------------ */
/* Energy                                                                    */

typedef struct {
    energy_row *row;
    const ch02_problem *pr;
    double E0, Eprev;
    long n;
} energy_ctx;

/* >> energy */
static int energy_output(void *ctx, double t, const double y[], const mbd_run_info *info,
                         mbd_failure *fail)
{
    (void)fail;
    energy_ctx *c = ctx;
    energy_row *r = c->row;
    const double E = ch02_energy(c->pr, y);
    if (info->step == 0) {
        c->E0 = c->Eprev = E;
    } else {
        /* the ratio of one step, against its closed form */
        r->max_dev = fmax(r->max_dev, fabs(E / c->Eprev / r->closed - 1.0));
        c->Eprev = E;
        c->n = info->step;
    }
    if (r->n < sizeof r->t / sizeof r->t[0]) {
        r->t[r->n] = t;
        r->E[r->n] = E / c->E0;
        r->n++;
    }
    return GSL_SUCCESS;
}
/* << energy */

static int compute_energy(ch02_study *s)
{
    const double y = H_ENERGY * OMEGA, y2 = y * y;
    static const struct { const char *method, *text; } rows[] = {
        {"euler", "1 + y^2"},
        {"implicit-euler", "1 / (1 + y^2)"},
        {"heun", "1 + y^4/4"},
        {"rk4", "1 - y^6/72 + y^8/576"},
        {"am2", "1"},
        {"ab2", "(multistep)"},
        {"pece", "(multistep)"},
    };
    const double closed[] = {1 + y2, 1 / (1 + y2), 1 + y2 * y2 / 4,
                             1 - y2 * y2 * y2 / 72 + y2 * y2 * y2 * y2 / 576, 1, 1, 1};
    ch02_problem pr;
    ch02_problem_init(&pr, CH02_OSCILLATOR, ALPHA, OMEGA);
    s->nenergy = 0;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        energy_row *r = &s->energy[s->nenergy++];
        memset(r, 0, sizeof *r);
        r->method = rows[i].method;
        r->closed_text = rows[i].text;
        r->closed = closed[i];
        mbd_ode_params p;
        ch02_params_of(rows[i].method, 4, 1, 1, H_ENERGY, &p);
        ch02_charpoly cp;
        r->one_step = ch02_charpoly_of(&p, &cp) == GSL_SUCCESS && cp.kdeg == 1;
        if (r->one_step && strcmp(r->method, "am2") != 0) {
            double complex R = ch02_amp_factor(&cp, I * y);
            r->theory = creal(R * conj(R));
        } else if (strcmp(r->method, "am2") == 0) {
            r->one_step = 1;   /* the trapezoid needs no history: (1 + z/2) / (1 - z/2) */
            double complex R = (1 + I * y / 2) / (1 - I * y / 2);
            r->theory = creal(R * conj(R));
        } else {
            r->theory = NAN;
        }
        energy_ctx c = {r, &pr, 0, 0, 0};
        ch02_result res;
        int st = ch02_solve(&p, &pr, T_ENERGY, 0.0, NULL, energy_output, &c, &res);
        if (st != GSL_SUCCESS)
            return st;
        r->ratio_end = ch02_energy(&pr, res.y) / c.E0;
        r->factor = pow(r->ratio_end, 1.0 / (double)c.n);
        if (!r->one_step)
            r->max_dev = NAN;
    }
    return GSL_SUCCESS;
}

/* ------------------------------------------------------------------------ */
/* Step-size control                                                         */

typedef struct {
    step_row *row;
    ch02_result *res;
} step_ctx;

/* >> step-history */
static int step_output(void *ctx, double t, const double y[], const mbd_run_info *info,
                       mbd_failure *fail)
{
    step_ctx *c = ctx;
    step_row *r = c->row;
    if (info->step == 0)
        return GSL_SUCCESS;
    if (r->n == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 256;
        double *nt = realloc(r->t, cap * sizeof *nt), *nh = NULL, *ny = NULL, *ne = NULL;
        if (nt)
            r->t = nt;
        nh = nt ? realloc(r->h, cap * sizeof *nh) : NULL;
        if (nh)
            r->h = nh;
        ny = nh ? realloc(r->y, cap * sizeof *ny) : NULL;
        if (ny)
            r->y = ny;
        ne = ny ? realloc(r->est, cap * sizeof *ne) : NULL;
        if (ne)
            r->est = ne;
        long *nr = ne ? realloc(r->rej, cap * sizeof *nr) : NULL;
        if (nr == NULL)
            return mbd_failure_set(fail, GSL_ENOMEM, t, "out of memory");
        r->rej = nr;
        r->cap = cap;
    }
    r->t[r->n] = t;
    r->h[r->n] = info->h;
    r->y[r->n] = y[0];
    r->est[r->n] = mbd_ode_last_error(c->res->ode);          /* err / tol of this step */
    r->rej[r->n] = mbd_ode_get_stats(c->res->ode)->rejected; /* attempts rejected so far */
    r->n++;
    return GSL_SUCCESS;
}
/* << step-history */

void ch02_free_steps(ch02_study *s)
{
    for (size_t i = 0; i < s->nstep; i++) {
        free(s->step[i].t);
        free(s->step[i].h);
        free(s->step[i].y);
        free(s->step[i].est);
        free(s->step[i].rej);
    }
    s->nstep = 0;
}

/* >> adaptive */
static int compute_steps(ch02_study *s)
{
    static const struct { const char *label, *method; const mbd_tableau *tb; } rows[N_STEP] = {
        {"rk4-doubling", "rk4-doubling", NULL},
        {"rkf23", "rkf23", NULL},
        {"rkf23, Phi_1 propagated", NULL, &ch02_tableau_rkf23_phi1},
        {"cash-karp", "cash-karp", NULL},
    };
    ch02_problem pr, smooth;
    ch02_problem_init(&pr, CH02_TRANSIENT, ALPHA, OMEGA);
    ch02_problem_init(&smooth, CH02_SMOOTH, ALPHA, OMEGA);
    ch02_free_steps(s);
    for (size_t i = 0; i < N_STEP; i++) {
        step_row *r = &s->step[s->nstep++];
        memset(r, 0, sizeof *r);
        r->label = rows[i].label;
        r->method = rows[i].method;
        ch02_settings set;
        ch02_settings_default(&set);
        set.h = 0.0;                      /* the first step is chosen */
        set.rtol = set.atol = TOL_STEP;
        ch02_params(ch02_scheme_find(rows[i].method ? rows[i].method : "rkf23"), &set, &r->p);
        if (rows[i].tb) {
            r->p.tableau = rows[i].tb;
            r->p.name = rows[i].label;
        }
        step_ctx c = {r, &r->r};
        r->status = ch02_solve(&r->p, &pr, T_STEP, 0.0, NULL, step_output, &c, &r->r);
        if (r->status != GSL_SUCCESS)
            return r->status;
        ch02_result rs;
        int st = ch02_solve(&r->p, &smooth, T_STEP, 0.0, NULL, NULL, NULL, &rs);
        if (st != GSL_SUCCESS)
            return st;
        r->smooth_steps = rs.stats.ode.steps;
        r->hmin = HUGE_VAL;
        double late = 0.0;
        long nlate = 0;
        for (size_t k = 0; k < r->n; k++) {
            r->hmin = fmin(r->hmin, r->h[k]);
            if (k + 1 < r->n)              /* the last step is cut to land on t_end */
                r->hmax = fmax(r->hmax, r->h[k]);
            if (r->t[k] > 0.5 && k + 1 < r->n) {
                late += r->h[k] * CH02_TRANSIENT_RATE;
                nlate++;
            }
        }
        r->late_x = nlate ? late / (double)nlate : NAN;
        /* the propagated formula's real-axis limit (step doubling: each RK4 half step) */
        mbd_ode_params pf = r->p;
        pf.adaptive = pf.doubling = 0;
        ch02_charpoly cp;
        if (ch02_charpoly_of(&pf, &cp) != GSL_SUCCESS || !ch02_limit_theory(&cp, X_MAX, &r->x_limit))
            r->x_limit = NAN;
    }
    return GSL_SUCCESS;
}

/* One adaptive step of size h = z on y' = -y, y(0) = 1, with atol = 1 and
 * rtol = 0, so that the library's error norm is the raw estimate |err|. */
static int one_step_estimate(const mbd_ode_params *p0, double z, double *est, double *err)
{
    ch02_problem pr;
    ch02_problem_init(&pr, CH02_DECAY, 1.0, OMEGA);
    mbd_ode_params p = *p0;
    p.h = z;
    p.atol = 1.0;
    p.rtol = 0.0;
    mbd_ode *o = mbd_ode_alloc(&p, 1, ch02_rhs, &pr);
    if (o == NULL)
        return GSL_EINVAL;
    double y = 1.0, t = 0.0;
    int st = mbd_ode_start(o, t, &y, z);
    if (st == GSL_SUCCESS)
        st = mbd_ode_step(o, &t, &y, z);
    *est = mbd_ode_last_error(o);
    *err = fabs(y - exp(-z));
    mbd_ode_free(o);
    return st;
}

static int compute_estimates(ch02_study *s)
{
    const double zs[N_EST] = {0.02, 0.1, 0.3, 1.0, 2.0};
    const size_t rows[3] = {0, 1, 3};      /* rk4-doubling, rkf23, cash-karp */
    for (size_t i = 0; i < N_EST; i++) {
        s->est[i].z = zs[i];
        for (size_t k = 0; k < 3; k++) {
            int st = one_step_estimate(&s->step[rows[k]].p, zs[i], &s->est[i].est[k],
                                       &s->est[i].err[k]);
            if (st != GSL_SUCCESS)
                return st;
        }
    }
    return GSL_SUCCESS;
}
/* << adaptive */

int ch02_compute_all(ch02_study *s)
{
    if (s->computed)
        return GSL_SUCCESS;
    s->nstab = s->nconv = 0;
    stability_rows(s);
    int st = compute_stability(s);
    if (st != GSL_SUCCESS)
        return st;
    convergence_rows(s);
    compute_convergence(s);
    st = compute_energy(s);
    if (st == GSL_SUCCESS)
        st = compute_steps(s);
    if (st == GSL_SUCCESS)
        st = compute_estimates(s);
    if (st == GSL_SUCCESS)
        s->computed = 1;
    return st;
}
