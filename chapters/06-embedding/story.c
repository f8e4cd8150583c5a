/* story.c -- chapter 06's story: the numbered steps, one run from the
 * command line (summary, report, CSV), and the benchmarks. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_math.h>

#include "mbd/cli.h"
#include "mbd/io.h"
#include "mbd/study.h"
#include "study.h"

#define PROGRAM "ch06-embedding"

/* ------------------------------------------------------------------------ */
/* The story                                                                 */

static const char *coord(const ch06_model *md, size_t k)
{
    const char *const *names = ch06_names(md);
    return names ? names[k] : "?";
}

/* a value for a table: round-off below 5e-13 printed as 0 (no -0.000000) */
static double clean(double v) { return fabs(v) < 5e-13 ? 0.0 : v; }

/* text wrapped at 84 columns after `indent` spaces */
static void wrapped(FILE *out, const char *text, int indent)
{
    const char *p = text;
    while (*p) {
        size_t n = strlen(p);
        if (n > 84) {
            n = 84;
            while (n > 0 && p[n] != ' ')
                n--;
            if (n == 0)
                n = 84;
        }
        fprintf(out, "%*s%.*s\n", indent, "", (int)n, p);
        p += n;
        while (*p == ' ')
            p++;
    }
}

/* max |x[i]| */
static double amax(const double *x, size_t n)
{
    double m = 0.0;
    for (size_t i = 0; i < n; i++)
        m = fmax(m, fabs(x[i]));
    return m;
}

static void step_model(FILE *out, const ch06_study *s)
{
    fprintf(out, "Step 1. The mechanisms, assembled from planar bodies and joints (planar.h)\n"
                 "  Each body carries (x, y, theta) of its reference point (document 001, Sec. 1);\n"
                 "  each joint adds its rows of C, C_q and gamma. The analytic C_q and gamma of\n"
                 "  every model against central differences of C at a random state:\n\n");
    const char *h[] = {"scenario", "n", "m", "dof", "C_q rel. diff", "gamma rel. diff"};
    mbd_table *t = mbd_table_alloc(6, h);
    for (int k = 0; k < CH06_NSCENARIOS; k++) {
        mbd_table_cell(t, "%s", s->md[k].name);
        mbd_table_cell(t, "%zu", s->n[k]);
        mbd_table_cell(t, "%zu", s->m[k]);
        mbd_table_cell(t, "%zu", s->n[k] - s->m[k]);
        mbd_table_num(t, s->fd[k].jacobian_rel, 2);
        mbd_table_num(t, s->fd[k].gamma_rel, 2);
    }
    mbd_table_print(t, out, 2);
    mbd_table_free(t);
    fprintf(out, "  (differences of a second derivative by central differences: 1e-8 is round-off)\n\n");
}

static void step_pendulum(FILE *out, const ch06_study *s)
{
    const ch06_model *md = &s->md[CH06_PENDULUM];
    const double g = CH06_G, l = md->pend.l, m = md->pend.m;
    double worst = 0.0;
    for (int k = 0; k < CH06_NPEND; k++)
        worst = fmax(worst, fabs(s->pend_emb[k] - s->pend_closed[k]));
    fprintf(out,
            "Step 2. The pendulum rod (m = %g kg, l = %g m, pinned at one end)\n"
            "  QR with column pivoting on C_q at theta = 0 keeps %s independent. The embedded\n"
            "  theta'' against the closed form -(3 g / 2 l) cos(theta) at %d states:\n"
            "  largest difference %.1e rad/s^2.\n",
            m, l, coord(md, s->pend_independent), CH06_NPEND, worst);
    fprintf(out,
            "  Released horizontal, the augmented form gives theta'' = %.6f (-3g/2l: %.6f),\n"
            "  R_y'' = %.6f, lambda = (%.6f, %.6f); the pin pushes the rod with\n"
            "  F = (%.6f, %.6f) N: m g / 4 = %.6f N up, as m (a_c - g) says (%.6f).\n",
            s->pend_theta_dd, -1.5 * g / l, s->pend_Ry_dd, clean(s->pend_lambda[0]),
            s->pend_lambda[1], clean(s->pend_pin.F[0]), s->pend_pin.F[1], 0.25 * m * g,
            s->pend_pin_closed[1]);
    fprintf(out,
            "  The choice depends on units: the same rod 4 m long makes the pivoting keep %s\n"
            "  instead (C_q's theta column grows with l, so theta becomes the best dependent\n"
            "  coordinate).\n\n",
            coord(md, s->pend_independent_l4));
}

static void step_slider_t0(FILE *out, const ch06_study *s)
{
    const ch06_model *md = &s->md[CH06_SLIDER_CRANK];
    const ch06_slider_data *d = &md->slider;
    fprintf(out,
            "Step 3. The slider-crank in body coordinates (our data: the slides have none)\n"
            "  crank %g m / %g kg, rod %g m / %g kg, slider %g kg; theta2 = pi/3, theta2' = %g rad/s.\n"
            "  The initial state, consistent (|C| = 0 to round-off), E0 = %.12f J:\n\n",
            d->l2, d->m2, d->l3, d->m3, d->m4, d->omega2, s->sc_E0);
    const char *h[] = {"coordinate", "q", "q'", "q'' embedded", "q'' augmented"};
    mbd_table *t = mbd_table_alloc(5, h);
    for (int i = 0; i < 9; i++) {
        mbd_table_cell(t, "%s", coord(md, (size_t)i));
        mbd_table_cell(t, "%.6f", clean(s->sc_q0[i]));
        mbd_table_cell(t, "%.6f", clean(s->sc_qd0[i]));
        mbd_table_cell(t, "%.6f", clean(s->sc_qdd_emb[i]));
        mbd_table_cell(t, "%.6f", clean(s->sc_qdd_aug[i]));
    }
    mbd_table_print(t, out, 2);
    mbd_table_free(t);
    double diff[9];
    for (int i = 0; i < 9; i++)
        diff[i] = s->sc_qdd_emb[i] - s->sc_qdd_aug[i];
    fprintf(out,
            "\n  The pivoting keeps %s independent. Embedded and augmented accelerations agree to\n"
            "  %.1e here and to %.1e (multipliers %.1e) at %d random consistent states.\n"
            "  The multipliers at t = 0 (M q'' + C_q^T lambda = F; revolute O, A, B, then\n"
            "  y4 = 0, theta4 = 0):\n   ",
            coord(md, s->sc_independent), amax(diff, 9), s->sc_max_qdd_diff,
            s->sc_max_lambda_diff, CH06_NRANDOM);
    for (int i = 0; i < 8; i++)
        fprintf(out, " %.6f", clean(s->sc_lambda[i]));
    static const char *const joints[5] = {"O (ground on crank)", "A (rod on crank)",
                                          "B (slider on rod)", "y4 = 0 (guide on slider)",
                                          "theta4 = 0 (guide on slider)"};
    fprintf(out, "\n  and the reactions they mean, each on the joint's first body:\n");
    for (int k = 0; k < 5; k++) {
        const mbd_planar_reaction *r = &s->sc_react[k];
        fprintf(out, "    %-30s F = (%9.4f, %9.4f) N, torque %8.4f N m\n", joints[k],
                clean(r->F[0]), clean(r->F[1]), clean(r->T));
    }
    fprintf(out, "\n");
}

static void step_embedded(FILE *out, const ch06_study *s)
{
    fprintf(out,
            "Step 4. The embedded slider-crank, RK4 on (theta2, theta2') for 2 s\n"
            "  The dependent coordinates come from Newton on C = 0 at every evaluation, so |C|\n"
            "  stays at the Newton tolerance; the energy error is the integrator's (order 4):\n\n");
    const char *h[] = {"h [s]", "max |C| [m]", "max |E - E0| [J]", "ratio", "max error",
                       "theta2(2) [rad]", "re-selections"};
    mbd_table *t = mbd_table_alloc(7, h);
    for (int k = 0; k < CH06_NH; k++) {
        const ch06_run *r = &s->emb[k];
        mbd_table_cell(t, "%g", ch06_steps[k]);
        mbd_table_num(t, r->res.stats.max_C, 2);
        mbd_table_num(t, r->max_energy_error, 3);
        if (k == 0)
            mbd_table_cell(t, "-");
        else
            mbd_table_cell(t, "%.1f", s->emb[k - 1].max_energy_error / r->max_energy_error);
        mbd_table_num(t, r->max_state_error, 2);
        mbd_table_cell(t, "%.9f", s->emb_theta2_end[k]);
        mbd_table_cell(t, "%zu", r->res.reselections);
    }
    mbd_table_print(t, out, 2);
    mbd_table_free(t);
    fprintf(out,
            "  (max error: the largest |q - q_ref| of any coordinate over the outputs, q_ref\n"
            "  from the reduced equation in theta2 integrated at 1e-13.) The crank turns %.1f\n"
            "  times and passes every dead centre: theta2 never stops being a good coordinate.\n\n",
            s->emb_theta2_end[CH06_NH - 1] / (2.0 * M_PI));
}

static void step_augmented(FILE *out, const ch06_study *s)
{
    fprintf(out,
            "Step 5. The augmented form integrates all nine coordinates and drifts\n"
            "  Only C'' = 0 is imposed; C itself wanders. max |C| [m] over 2 s, RK4:\n\n");
    const char *h[] = {"h [s]", "alpha = beta = 0", "alpha = beta = 5", "alpha = beta = 10",
                       "embedded"};
    mbd_table *t = mbd_table_alloc(5, h);
    for (int k = 0; k < CH06_NH; k++) {
        mbd_table_cell(t, "%g", ch06_steps[k]);
        for (int a = 0; a < CH06_NAB; a++)
            mbd_table_num(t, s->aug[a][k].res.stats.max_C, 2);
        mbd_table_num(t, s->emb[k].res.stats.max_C, 2);
    }
    mbd_table_cell(t, "Euler 0.001");
    for (int a = 0; a < CH06_NAB; a++)
        mbd_table_num(t, s->euler[a].res.stats.max_C, 2);
    mbd_table_cell(t, "-");
    mbd_table_print(t, out, 2);
    mbd_table_free(t);
    fprintf(out,
            "  Without stabilisation the drift falls %.1f, %.1f, %.1f times per halving (RK4's\n"
            "  16); Baumgarte's C'' + 2 alpha C' + beta^2 C = 0 pulls it back, by %.0fx at\n"
            "  alpha = beta = 5 and h = 0.00125, but nothing in the document says how to choose\n"
            "  alpha and beta, and no choice reaches the embedding's round-off level.\n\n",
            s->aug[0][0].res.stats.max_C / s->aug[0][1].res.stats.max_C,
            s->aug[0][1].res.stats.max_C / s->aug[0][2].res.stats.max_C,
            s->aug[0][2].res.stats.max_C / s->aug[0][3].res.stats.max_C,
            s->aug[0][CH06_NH - 1].res.stats.max_C / s->aug[1][CH06_NH - 1].res.stats.max_C);
}

static void step_forced(FILE *out, const ch06_study *s)
{
    const ch06_model *md = &s->md[CH06_SLIDER_CRANK];
    const ch06_run *f = &s->forced, *a = &s->automatic;
    fprintf(out,
            "Step 6. A bad independent coordinate: the slider's x4 (--independent x4)\n"
            "  x4(theta2) turns back at the dead centres, so there it no longer fixes theta2:\n"
            "  C_q_d loses rank. Forced to keep x4, the embedding stops (status %s) at\n"
            "  t = %.4f s:\n",
            mbd_status_word(f->res.status), f->res.fail.time);
    wrapped(out, f->res.fail.cause, 4);
    fprintf(out,
            "\n  Started with x4 and re-selected (--independent x4 --reselect --reselect-ratio R),\n"
            "  the set leaves x4 once its pivot falls below R times the best set's:\n\n");
    const char *h[] = {"R", "x4 leaves at", "theta2 there", "joins", "max |q - q_ref|",
                       "max |E - E0|"};
    mbd_table *t = mbd_table_alloc(6, h);
    for (int k = 0; k < CH06_NRATIO; k++) {
        const ch06_run *r = &s->switched[k];
        const int known = isfinite(s->switch_theta2[k]);
        mbd_table_cell(t, "%g", ch06_ratios[k]);
        if (known) {
            mbd_table_cell(t, "%.4f s", r->res.events[0].t);
            mbd_table_cell(t, "%.1f deg", fmod(s->switch_theta2[k], 2.0 * M_PI) * 180.0 / M_PI);
            mbd_table_cell(t, "%s", coord(md, r->res.events[0].joined));
        } else {
            for (int c = 0; c < 3; c++)
                mbd_table_cell(t, "-");
        }
        mbd_table_cell(t, "%.1e", r->max_state_error);
        mbd_table_cell(t, "%.1e", r->max_energy_error);
    }
    mbd_table_print(t, out, 2);
    mbd_table_free(t);
    fprintf(out,
            "\n  The dead centre is theta2 = 180 deg. Near it x4 hardly moves while the crank\n"
            "  turns: the dependent velocities are x4' over a vanishing dx4/dtheta2, and so is\n"
            "  RK4's error in x4. The later the switch, the larger the error the run carries\n"
            "  on with; the earlier, the more often a set is left that would still have done.\n"
            "  Chosen by pivoting, the set starts as {%s} and is re-selected %zu times in 2 s\n"
            "  (status %s, max |C| %.1e m).\n\n",
            coord(md, a->res.independent0[0]), a->res.reselections,
            mbd_status_word(a->res.status), a->res.stats.max_C);
}

static void step_double(FILE *out, const ch06_study *s)
{
    const ch06_model *md = &s->md[CH06_DOUBLE_PENDULUM];
    const ch06_run *e = &s->dp_emb, *g = &s->dp_aug;
    fprintf(out,
            "Step 7. Two degrees of freedom: the double pendulum released horizontal\n"
            "  The pivoting keeps {%s, %s}; B^T M B is a 2 x 2 matrix there:\n"
            "    [%10.6f %10.6f]\n    [%10.6f %10.6f]\n"
            "  Embedded and augmented q'' agree to %.1e at %d random states. Over 5 s (RK4,\n"
            "  h = 1e-3) the embedding keeps max |C| = %.1e m and max |E - E0| = %.1e J, and is\n"
            "  within %.1e of the reference in every coordinate; it re-selects %zu time%s:\n",
            coord(md, s->dp_independent[0]), coord(md, s->dp_independent[1]), s->dp_BMB[0][0],
            s->dp_BMB[0][1], s->dp_BMB[1][0], s->dp_BMB[1][1], s->dp_max_qdd_diff, CH06_NRANDOM,
            e->res.stats.max_C, e->max_energy_error, e->max_state_error, e->res.reselections,
            e->res.reselections == 1 ? "" : "s");
    for (size_t k = 0; k < e->res.n_events; k++) {
        const mbd_formulation_reselection *ev = &e->res.events[k];
        fprintf(out, "    t = %.3f s: %s leaves the independent set, %s joins (pivot ratio %.3f)\n",
                ev->t, ev->left < s->n[CH06_DOUBLE_PENDULUM] ? coord(md, ev->left) : "-",
                ev->joined < s->n[CH06_DOUBLE_PENDULUM] ? coord(md, ev->joined) : "-", ev->ratio);
    }
    fprintf(out, "  The augmented form, same steps: max |C| = %.1e m, max |E - E0| = %.1e J.\n\n",
            g->res.stats.max_C, g->max_energy_error);
}

static void step_cost(FILE *out, const ch06_study *s, int no_timing)
{
    fprintf(out, "Step 8. What each costs (slider-crank, RK4, h = 0.00125 s)\n\n");
    const char *h[] = {"method", "state", "solves per evaluation", "time each"};
    mbd_table *t = mbd_table_alloc(4, h);
    static const char *const rows[3][3] = {
        {"embedding", "2", "Newton, velocity: [C_q; I_d] 9x9; B^T M B 1x1"},
        {"augmented", "18", "M 9x9; Schur complement 8x8"},
        {"augmented-baumgarte", "18", "the same, with C, C' in gamma_B"},
    };
    for (int k = 0; k < 3; k++) {
        char b[32];
        mbd_table_cell(t, "%s", rows[k][0]);
        mbd_table_cell(t, "%s", rows[k][1]);
        mbd_table_cell(t, "%s", rows[k][2]);
        mbd_table_cell(t, "%s", mbd_cli_format_seconds(b, sizeof b, s->cost[k], no_timing));
    }
    mbd_table_print(t, out, 2);
    mbd_table_free(t);
    fprintf(out, "  The embedding pays for constraints kept at round-off with the solves that\n"
                 "  recover the dependent coordinates at every evaluation.\n\n");
}

int ch06_story(FILE *out, ch06_study *s, int no_timing, mbd_failure *fail)
{
    int st = ch06_study_compute(s, fail);
    if (st != GSL_SUCCESS)
        return st;
    fprintf(out, "%s: embedding by coordinate partitioning against the augmented form\n"
                 "(document 001, Chandramouli 2023, \"Constrained Dynamics\", Secs. 1-4)\n\n",
            PROGRAM);
    step_model(out, s);
    step_pendulum(out, s);
    step_slider_t0(out, s);
    step_embedded(out, s);
    step_augmented(out, s);
    step_forced(out, s);
    step_double(out, s);
    step_cost(out, s, no_timing);
    fprintf(out,
            "What the document gets wrong or leaves out\n"
            "  - q_d = -C_q_d^-1 C_q_i q_i holds for linear constraints only; the program solves\n"
            "    C(q_d; q_i) = 0 by Newton on [C_q; I_d], as the slides' next step does.\n"
            "  - The virtual-displacement condition is C_q dq = 0, not C_q_d dq = 0.\n"
            "  - U is singular for redundant constraints, not \"redundant co-ordinates\".\n"
            "  - Q_v is dropped from the multibody equations; the planar module keeps it (it is\n"
            "    zero here, every rod's reference point being its centre of mass).\n"
            "  - Baumgarte's \"q = a1 t + a2\" is the violation C, not q (Step 5 measures it).\n"
            "  - How to choose and re-choose the independent set is not said: Step 6.\n");
    return GSL_SUCCESS;
}

/* ------------------------------------------------------------------------ */
/* One run                                                                   */

typedef struct {
    const ch06_program *prog;
    const ch06_run *r;
} one_run;

static int summary_of(void *ctx, FILE *out)
{
    const one_run *o = ctx;
    const ch06_program *p = o->prog;
    const ch06_run *r = o->r;
    int bad = mbd_summary_string(out, "scenario", p->md.name);
    bad |= mbd_study_summary(out, &p->spec.run, &r->res, &r->h) != GSL_SUCCESS;
    char set[64] = "", end[64] = "";
    for (size_t k = 0; k < r->res.n_independent; k++) {
        snprintf(set + strlen(set), sizeof set - strlen(set), "%s%s", k ? "," : "",
                 coord(&p->md, r->res.independent0[k]));
        snprintf(end + strlen(end), sizeof end - strlen(end), "%s%s", k ? "," : "",
                 coord(&p->md, r->res.independent_end[k]));
    }
    const int emb = r->res.n_independent > 0;
    bad |= mbd_summary_string(out, "independent", emb ? set : "none");
    bad |= mbd_summary_string(out, "independent_end", emb ? end : "none");
    bad |= mbd_summary_long(out, "reselections", (long)r->res.reselections);
    const int any = r->h.rows > 0;
    bad |= mbd_summary_optional(out, "E0", r->E0, any);
    bad |= mbd_summary_optional(out, "max_energy_error", r->max_energy_error, any);
    bad |= mbd_summary_optional(out, "max_state_error", r->max_state_error,
                                any && isfinite(r->max_state_error));
    bad |= mbd_study_summary_status(out, &r->res) != GSL_SUCCESS;
    return bad ? MBD_ENONFINITE : GSL_SUCCESS;
}

static int report_of(void *ctx, FILE *out)
{
    const one_run *o = ctx;
    const ch06_program *p = o->prog;
    const ch06_run *r = o->r;
    const mbd_study_spec *s = &p->spec.run;
    char buf[32];
    fprintf(out, "%s: %s, %s", PROGRAM, p->md.name, s->method);
    if (strcmp(s->method, "augmented-baumgarte") == 0)
        fprintf(out, " (alpha = %g, beta = %g)", s->alpha, s->beta);
    fprintf(out, ", %s", r->res.integrator);
    if (!s->ode.adaptive)
        fprintf(out, " at h = %g s", s->ode.h);
    fprintf(out, ", t = 0 ... %g s\n", s->t_end);
    fprintf(out, "  steps %ld, f evaluations %ld, time %s\n", r->res.stats.run.ode.steps,
            r->res.stats.run.ode.fevals, mbd_cli_format_seconds(buf, sizeof buf, r->res.seconds,
                                                                 p->opt->no_timing));
    if (r->res.n_independent > 0) {
        fprintf(out, "  independent:");
        for (size_t k = 0; k < r->res.n_independent; k++)
            fprintf(out, " %s", coord(&p->md, r->res.independent0[k]));
        fprintf(out, " at the start; %zu re-selection%s\n", r->res.reselections,
                r->res.reselections == 1 ? "" : "s");
        for (size_t k = 0; k < r->res.n_events; k++) {
            const mbd_formulation_reselection *ev = &r->res.events[k];
            const size_t n = ch06_system(&p->md)->n;
            fprintf(out, "    t = %.4f s: %s out, %s in\n", ev->t,
                    ev->left < n ? coord(&p->md, ev->left) : "-",
                    ev->joined < n ? coord(&p->md, ev->joined) : "-");
        }
    }
    if (r->h.rows > 0)
        fprintf(out, "  max |C| %.3e, max |C'| %.3e, max |E - E0| %.3e (E0 = %.9f J),\n"
                     "  max |q - q_ref| %.3e\n",
                r->res.stats.max_C, r->res.stats.max_Cdot, r->max_energy_error, r->E0,
                r->max_state_error);
    if (r->res.status != GSL_SUCCESS) {
        fprintf(out, "  stopped at t = %.6g s:\n", r->res.fail.time);
        wrapped(out, r->res.fail.cause, 4);
    }
    return GSL_SUCCESS;
}

int ch06_program_run(void *ctx, mbd_failure *fail)
{
    ch06_program *prog = ctx;
    ch06_run r;
    ch06_run_init(&r);
    int st = ch06_run_spec(&prog->md, &prog->spec, &r);
    if (st != GSL_SUCCESS) {
        *fail = r.res.fail;
        if (fail->status == GSL_SUCCESS)
            mbd_failure_set(fail, st, NAN, "the run could not be set up (%s)", mbd_strerror(st));
    }
    /* the run's animation, of what it computed, failed or not */
    if (st == GSL_SUCCESS && prog->opt->animate)
        st = ch06_animate_run(prog->opt->animate, prog->opt, &prog->md, &prog->spec, &r, fail);
    if (st == GSL_SUCCESS) {
        one_run o = {prog, &r};
        st = mbd_study_write(&r.res, &r.h, prog->opt->csv, ch06_names(&prog->md), 1,
                             prog->opt->summary, summary_of, report_of, &o, fail);
    }
    ch06_run_free(&r);
    return st;
}

int ch06_program_story(void *ctx, FILE *out, int no_timing, mbd_failure *fail)
{
    ch06_program *prog = ctx;
    return ch06_story(out, prog->s, no_timing, fail);
}

int ch06_program_figures(void *ctx, const char *prefix, mbd_failure *fail)
{
    ch06_program *prog = ctx;
    int st = ch06_study_compute(prog->s, fail);
    return st != GSL_SUCCESS ? st : ch06_figures(prog->s, prefix, fail);
}

/* ------------------------------------------------------------------------ */
/* Benchmarks                                                                */

/* The kinds of case are cli.h's, the same in every chapter: the three
 * methods on the slider-crank as one run from the command line runs them
 * (RK4, h = 1e-3, 2 s, outputs every 0.01 s: whole run, and the pipeline's
 * integration, output and right-hand side), and the story. */

typedef struct {
    const ch06_model *md;
    ch06_spec spec;
    FILE *null;
} bench_case;

static int bench_whole_run(void *ctx, mbd_cli_bench_counts *n)
{
    bench_case *b = ctx;
    ch06_run r;
    ch06_run_init(&r);
    int st = ch06_run_spec(b->md, &b->spec, &r);
    if (st == GSL_SUCCESS)
        st = r.res.status;
    n->steps = r.res.stats.run.ode.steps;
    n->fevals = r.res.stats.run.ode.fevals;
    n->outputs = (long)r.h.rows;
    ch06_run_free(&r);
    return st;
}

static int bench_story(void *ctx, mbd_cli_bench_counts *n)
{
    (void)n;
    bench_case *b = ctx;
    ch06_study *s = ch06_study_alloc();
    if (s == NULL)
        return GSL_ENOMEM;
    mbd_failure fail;
    int st = ch06_story(b->null, s, 1, &fail);
    ch06_study_free(s);   /* leave the memory as the next pass's cases found it */
    return st;
}

int ch06_bench(long repeats, ch06_study *s)
{
    (void)s;   /* the cases build their own model; the story case its own study */
    ch06_model md;
    ch06_model_data(&md, CH06_SLIDER_CRANK);
    bench_case b = {.md = &md, .null = mbd_cli_bench_sink()};
    if (b.null == NULL)
        return MBD_EIO;
    int st = ch06_model_build(&md);
    for (int k = 0; ch06_method_names[k] != NULL && st == GSL_SUCCESS; k++) {
        ch06_spec_default(&b.spec, CH06_SLIDER_CRANK);
        b.spec.run.method = ch06_method_names[k];
        st = mbd_cli_bench(stdout, PROGRAM, "slider-crank-rk4", ch06_method_names[k],
                           MBD_CLI_BENCH_WHOLE_RUN, repeats, bench_whole_run, &b);
        if (st == GSL_SUCCESS) {
            double q0[9], qd0[9];
            ch06_initial(&md, q0, qd0);
            mbd_study_spec lib = b.spec.run;
            lib.method = ch06_library_method(ch06_method_names[k]);
            st = mbd_cli_bench_pipeline(stdout, PROGRAM, "slider-crank-rk4", ch06_method_names[k],
                                        repeats, ch06_system(&md), &lib, q0, qd0,
                                        MBD_CLI_BENCH_PIPELINE);
        }
    }
    if (st == GSL_SUCCESS)
        st = mbd_cli_bench(stdout, PROGRAM, "story", "", MBD_CLI_BENCH_WHOLE_RUN, repeats,
                           bench_story, &b);
    ch06_model_free(&md);
    return st;
}

int ch06_program_bench(void *ctx, long repeats, mbd_failure *fail)
{
    (void)fail;   /* mbd_cli_bench_passes names a failed case */
    ch06_program *prog = ctx;
    return ch06_bench(repeats, prog->s);
}
