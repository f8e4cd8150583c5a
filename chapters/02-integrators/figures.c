/* figures.c -- chapter 02's figures (gnuplot SVG through io.h). */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "mbd/cli.h"
#include "mbd/io.h"
#include "mbd/ode.h"
#include "mbd/run.h"
#include "study.h"

/* ------------------------------------------------------------------------ */
/* Figures                                                                   */

static int figure_stability(const char *prefix, ch02_study *s, mbd_failure *fail)
{
    enum { NT = 720, CAP = 16 * (NT + 2) * 2 };
    typedef struct { const char *label; mbd_ode_params p; } curve;
    mbd_ode_params p;
    curve rk[6], ab[3], am[5], pc[6];
    size_t nrk = 0, nab = 0, nam = 0, npc = 0;
    ch02_params_tableau(&mbd_tableau_euler, 0.01, &p);
    rk[nrk++] = (curve){"order 1 (Euler)", p};
    ch02_params_tableau(&mbd_tableau_heun, 0.01, &p);
    rk[nrk++] = (curve){"order 2", p};
    ch02_params_tableau(&ch02_tableau_rk3, 0.01, &p);
    rk[nrk++] = (curve){"order 3", p};
    ch02_params_tableau(&mbd_tableau_rk4, 0.01, &p);
    rk[nrk++] = (curve){"order 4 (rk4)", p};
    ch02_params_tableau(&mbd_tableau_rkf23, 0.01, &p);
    rk[nrk++] = (curve){"rkf23", p};
    ch02_params_tableau(&mbd_tableau_cash_karp, 0.01, &p);
    rk[nrk++] = (curve){"cash-karp", p};
    for (unsigned k = 2; k <= 4; k++) {
        ch02_params_of(k == 2 ? "ab2" : k == 3 ? "ab3" : "ab4", 4, 1, 1, 0.01, &p);
        ab[nab++] = (curve){k == 2 ? "ab2" : k == 3 ? "ab3" : "ab4", p};
    }
    static const char *const amn[] = {"implicit-euler", "am2", "am3", "am4", "am5"};
    for (size_t i = 0; i < 5; i++) {
        ch02_params_of(amn[i], 4, 1, 1, 0.01, &p);
        am[nam++] = (curve){amn[i], p};
    }
    for (unsigned k = 2; k <= 4; k++) {
        ch02_params_of("pece", k, 1, 1, 0.01, &p);
        pc[npc++] = (curve){k == 2 ? "pece k = 2" : k == 3 ? "pece k = 3" : "pece k = 4", p};
    }
    ch02_params_of("pece", 4, 2, 1, 0.01, &p);
    pc[npc++] = (curve){"pece k = 4, m = 2", p};
    ch02_params_tableau(ch02_tableau_pec(2), 0.01, &p);
    pc[npc++] = (curve){"Euler+trapezoid m = 2", p};
    ch02_params_tableau(ch02_tableau_pec(3), 0.01, &p);
    pc[npc++] = (curve){"Euler+trapezoid m = 3", p};

    const curve *groups[4] = {rk, ab, am, pc};
    const size_t counts[4] = {nrk, nab, nam, npc};
    const double zmax[4] = {8, 4, 12, 6};
    static const char *const titles[4] = {
        "Runge-Kutta: |R(z)| = 1", "Adams-Bashforth", "Adams-Moulton (stable outside its curve: implicit Euler)",
        "Predictor-corrector P(EC)^m E"};
    double *buf = malloc(2 * 4 * 6 * CAP * sizeof *buf);
    if (buf == NULL)
        return mbd_failure_set(fail, GSL_ENOMEM, NAN, "out of memory");
    mbd_series series[4][6];
    mbd_panel panels[4];
    char extra[4][256];
    size_t used = 0;
    for (int g = 0; g < 4; g++) {
        /* the window holds every bounded curve whole (a curve cut at |z| = zmax,
         * the trapezoid's imaginary axis, runs off it) and the origin */
        double box[4] = {0.0, 0.0, 0.0, 0.0};
        for (size_t i = 0; i < counts[g]; i++) {
            ch02_charpoly cp;
            double *re = buf + used, *im = buf + used + CAP;
            size_t n = 0;
            if (ch02_charpoly_of(&groups[g][i].p, &cp) == GSL_SUCCESS)
                n = ch02_boundary_locus(&cp, NT, zmax[g], re, im, CAP);
            used += 2 * CAP;
            series[g][i] = (mbd_series){groups[g][i].label, re, im, n, "lines", 0};
            ch02_locus_window(re, im, n, zmax[g], box);
        }
        /* a margin, and the legend below the panel, where it hides no curve */
        const double pad = 0.06 * fmax(box[1] - box[0], box[3] - box[2]);
        snprintf(extra[g], sizeof extra[g],
                 "set xrange [%.4g:%.4g]\nset yrange [%.4g:%.4g]\nset size ratio -1\n"
                 "set xzeroaxis lt -1\nset yzeroaxis lt -1\nset key below font ',10'",
                 box[0] - pad, box[1] + pad, box[2] - pad, box[3] + pad);
        panels[g] = (mbd_panel){.title = titles[g], .xlabel = "Re h lambda",
                                .ylabel = "Im h lambda", .series = series[g],
                                .nseries = counts[g], .extra = extra[g]};
    }
    const mbd_figure fig = {.title = "Stability boundaries in the complex h lambda plane (document 001)",
                            .rows = 2, .cols = 2, .width = 1100, .height = 1000, .panels = panels};
    char path[1024];
    int st = mbd_plot_svg(mbd_plot_path(path, sizeof path, prefix, "stability"), &fig, fail);
    free(buf);
    (void)s;
    return st;
}

typedef struct {
    double t[64], y[64];
    size_t n;
} history;

static int history_output(void *ctx, double t, const double y[], const mbd_run_info *info,
                          mbd_failure *fail)
{
    (void)info;
    (void)fail;
    history *hist = ctx;
    if (hist->n < 64) {
        hist->t[hist->n] = t;
        hist->y[hist->n] = y[0];
        hist->n++;
    }
    return GSL_SUCCESS;
}

static int figure_euler(const char *prefix, mbd_failure *fail)
{
    ch02_problem pr;
    ch02_problem_init(&pr, CH02_DECAY, ALPHA, OMEGA);
    static const struct { const char *method; double h; int panel; const char *label; } runs[] = {
        {"euler", 0.05, 0, "Euler, h = 0.05"},
        {"euler", 0.02, 0, "Euler, h = 0.02"},
        {"euler", 0.15, 1, "Euler, h = 0.15 (alpha h = 1.5)"},
        {"euler", 0.22, 1, "Euler, h = 0.22 (alpha h = 2.2)"},
        {"implicit-euler", 0.05, 2, "implicit Euler, h = 0.05"},
        {"implicit-euler", 0.25, 2, "implicit Euler, h = 0.25"},
        {"implicit-euler", 0.5, 2, "implicit Euler, h = 0.5"},
    };
    enum { NR = sizeof runs / sizeof runs[0] };
    static history hist[NR];
    double te[201], ye[201];
    for (int i = 0; i <= 200; i++) {
        te[i] = 0.01 * i;
        ye[i] = exp(-ALPHA * te[i]);
    }
    mbd_series ser[3][4];
    size_t ns[3] = {0, 0, 0};
    for (int g = 0; g < 3; g++)
        ser[g][ns[g]++] = (mbd_series){"exact exp(-10 t)", te, ye, 201, "lines lc rgb 'black'", 0};
    for (size_t i = 0; i < NR; i++) {
        mbd_ode_params p;
        ch02_params_of(runs[i].method, 4, 1, 1, runs[i].h, &p);
        hist[i].n = 0;
        ch02_result r;
        int st = ch02_solve(&p, &pr, 2.0, 0.0, NULL, history_output, &hist[i], &r);
        if (st != GSL_SUCCESS)
            return mbd_failure_set(fail, st, NAN, "the figure's %s run failed", runs[i].label);
        const int g = runs[i].panel;
        ser[g][ns[g]++] = (mbd_series){runs[i].label, hist[i].t, hist[i].y, hist[i].n,
                                      "linespoints pt 7 ps 0.6", 0};
    }
    static const char *const titles[3] = {"Convergence of Euler (alpha = 10)",
                                          "Instability of Euler (alpha = 10)",
                                          "Implicit Euler (alpha = 10)"};
    static const char *const extras[3] = {"set yrange [-0.1:1.05]\nset xrange [0:1]",
                                          "set yrange [-3:3]\nset xrange [0:2]",
                                          "set yrange [-0.1:1.05]\nset xrange [0:2]"};
    mbd_panel panels[3];
    for (int g = 0; g < 3; g++)
        panels[g] = (mbd_panel){.title = titles[g], .xlabel = "t", .ylabel = "y",
                                .series = ser[g], .nseries = ns[g], .extra = extras[g]};
    const mbd_figure fig = {.title = "dy/dt = -10 y, y(0) = 1: the three alpha = 10 figures of document 001",
                            .rows = 1, .cols = 3, .width = 1350, .height = 450, .panels = panels};
    char path[1024];
    return mbd_plot_svg(mbd_plot_path(path, sizeof path, prefix, "euler"), &fig, fail);
}

static int figure_energy(const char *prefix, const ch02_study *s, mbd_failure *fail)
{
    mbd_series left[N_ENERGY], right[N_ENERGY];
    static double dev[N_ENERGY][256];
    /* one colour per scheme in both panels */
    static const char *const style[N_ENERGY] = {
        "lines lc rgb '#9400d3'", "lines lc rgb '#009e73'", "lines lc rgb '#56b4e9'",
        "lines lc rgb '#e69f00'", "lines lc rgb '#0072b2'", "lines lc rgb '#d55e00'",
        "lines lc rgb '#cc79a7'"};
    size_t nl = 0, nr = 0;
    for (size_t i = 0; i < s->nenergy; i++) {
        const energy_row *r = &s->energy[i];
        left[nl++] = (mbd_series){r->method, r->t, r->E, r->n, style[i], 0};
        if (strcmp(r->method, "euler") == 0 || strcmp(r->method, "implicit-euler") == 0)
            continue;
        for (size_t k = 0; k < r->n; k++)
            dev[i][k] = k > 0 ? fabs(r->E[k] - 1.0) : NAN;   /* log axis: E/E_0 - 1 = 0 at t = 0 */
        right[nr++] = (mbd_series){r->method, r->t, dev[i], r->n, style[i], 0};
    }
    const mbd_panel panels[2] = {
        {.title = "E / E_0: Euler gains (1 + (h omega)^2)^n, implicit Euler loses",
         .xlabel = "t", .ylabel = "E / E_0", .logy = 1, .series = left, .nseries = nl,
         .extra = "set key top left font ',11'\nset yrange [0.1:10]"},
        {.title = "|E / E_0 - 1| of the nearly conservative schemes",
         .xlabel = "t", .ylabel = "|E / E_0 - 1|", .logy = 1, .series = right, .nseries = nr,
         .extra = "set key bottom right font ',11'\nset yrange [1e-17:1]"},
    };
    const mbd_figure fig = {.title = "Energy of d^2x/dt^2 = -x with h omega = 0.1: E_{n+1}/E_n = |R(i h omega)|^2",
                            .rows = 1, .cols = 2, .width = 1200, .height = 480, .panels = panels};
    char path[1024];
    return mbd_plot_svg(mbd_plot_path(path, sizeof path, prefix, "energy"), &fig, fail);
}

static int figure_steps(const char *prefix, const ch02_study *s, mbd_failure *fail)
{
    double te[401], ye[401];
    for (int i = 0; i <= 400; i++) {
        te[i] = 1e-4 * pow(T_STEP / 1e-4, i / 400.0);
        ye[i] = cos(te[i]) - exp(-CH02_TRANSIENT_RATE * te[i]);
    }
    const step_row *show = &s->step[3];   /* cash-karp's accepted steps on the solution */
    mbd_series top[2], middle[N_STEP + 1], bottom[2 * N_STEP + 1];
    size_t nt = 0, nm = 0, nb = 0;
    top[nt++] = (mbd_series){"exact cos t - exp(-100 t)", te, ye, 401, "lines lc rgb 'black'", 0};
    top[nt++] = (mbd_series){"cash-karp, accepted steps", show->t, show->y, show->n,
                             "points pt 7 ps 0.5", 0};
    static double err[N_STEP][1024];
    static double rt[N_STEP][512], rh[N_STEP][512];
    static char labels[N_STEP][64];
    size_t nrej[N_STEP] = {0};
    for (size_t i = 0; i < s->nstep; i++) {
        const step_row *r = &s->step[i];
        ch02_problem pr;
        ch02_problem_init(&pr, CH02_TRANSIENT, ALPHA, OMEGA);
        const size_t n = r->n < 1024 ? r->n : 1024;
        for (size_t k = 0; k < n; k++)
            err[i][k] = ch02_error(&pr, r->t[k], &r->y[k]);
        middle[nm++] = (mbd_series){r->label, r->t, err[i], n, "lines", 0};
        bottom[nb++] = (mbd_series){r->label, r->t, r->h, r->n, "linespoints pt 7 ps 0.3", 0};
        long prev = 0;
        for (size_t k = 0; k < r->n; k++) {
            if (r->rej[k] > prev && nrej[i] < 512) {
                rt[i][nrej[i]] = r->t[k] - r->h[k];   /* where the rejected attempt started */
                rh[i][nrej[i]] = r->h[k];
                nrej[i]++;
            }
            prev = r->rej[k];
        }
    }
    double tt[2] = {1e-4, T_STEP}, tol[2] = {TOL_STEP, TOL_STEP};
    middle[nm++] = (mbd_series){"tolerance", tt, tol, 2, "lines dt 2 lc rgb 'black'", 0};
    double rx[1024], ry[1024];
    size_t nx = 0;
    for (size_t i = 0; i < s->nstep; i++)
        for (size_t k = 0; k < nrej[i] && nx < 1024; k++, nx++) {
            rx[nx] = rt[i][k];
            ry[nx] = rh[i][k];
        }
    snprintf(labels[0], sizeof labels[0], "after a rejected attempt");
    if (nx > 0)
        bottom[nb++] = (mbd_series){labels[0], rx, ry, nx, "points pt 2 ps 1.2 lc rgb 'black'", 0};
    char extra[512];
    const double hl = s->step[1].x_limit / CH02_TRANSIENT_RATE;
    snprintf(extra, sizeof extra,
             "set key bottom right font ',10'\nset xrange [1e-4:%g]\nset yrange [1e-4:0.1]\n"
             "set arrow from 1e-4, %g to %g, %g nohead dt 2 lc rgb 'gray40'\n"
             "set label 'rkf23 (Phi_2) stable for h < %.4f' at 1.5e-4, %g offset 0,0.7 tc rgb 'gray40' font ',10'",
             T_STEP, hl, T_STEP, hl, hl, hl);
    const mbd_panel panels[3] = {
        {.title = "dy/dt = -100 (y - cos t) - sin t, y(0) = 0: a fast transient, then cos t",
         .xlabel = "t", .ylabel = "y", .logx = 1, .series = top, .nseries = nt,
         .extra = "set key bottom right font ',10'\nset xrange [1e-4:2]"},
        {.title = "|error| at the accepted steps (rtol = atol = 1e-6)", .xlabel = "t",
         .ylabel = "|y - y_{exact}|", .logx = 1, .logy = 1, .series = middle, .nseries = nm,
         .extra = "set key bottom right font ',10'\nset xrange [1e-4:2]\nset yrange [1e-10:1e-3]"},
        {.title = "Step history: h of each accepted step", .xlabel = "t", .ylabel = "h",
         .logx = 1, .logy = 1, .series = bottom, .nseries = nb, .extra = extra},
    };
    const mbd_figure fig = {.rows = 3, .cols = 1, .width = 900, .height = 1250, .panels = panels};
    char path[1024];
    return mbd_plot_svg(mbd_plot_path(path, sizeof path, prefix, "steps"), &fig, fail);
}

int ch02_write_figures(const char *prefix, ch02_study *s, mbd_failure *fail)
{
    int st = ch02_compute_all(s);
    if (st != GSL_SUCCESS)
        return mbd_failure_set(fail, st, NAN, "the study failed: %s", mbd_strerror(st));
    st = figure_stability(prefix, s, fail);
    if (st == GSL_SUCCESS)
        st = figure_euler(prefix, fail);
    if (st == GSL_SUCCESS)
        st = figure_energy(prefix, s, fail);
    if (st == GSL_SUCCESS)
        st = figure_steps(prefix, s, fail);
    return st;
}

int ch02_program_figures(void *ctx, const char *prefix, mbd_failure *fail)
{
    ch02_program *prog = ctx;
    return ch02_write_figures(prefix, prog->s, fail);
}
