/* chapters/03-pendulum/figures.c -- the figures (gnuplot SVG through io.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_math.h>

#include "mbd/cli.h"
#include "mbd/formulation.h"
#include "mbd/io.h"
#include "study.h"

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

static int figure_motion(const char *prefix, const ch03_study *S, mbd_failure *fail)
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

static int figure_errors(const char *prefix, const ch03_study *S, mbd_failure *fail)
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

static int figure_penalty(const char *prefix, const ch03_study *S, mbd_failure *fail)
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

static int figure_baumgarte(const char *prefix, const ch03_study *S, mbd_failure *fail)
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

int ch03_write_figures(const char *prefix, ch03_study *S, mbd_failure *fail)
{
    int st = ch03_compute(S);
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

int ch03_program_figures(void *ctx, const char *prefix, mbd_failure *fail)
{
    ch03_program *prog = ctx;
    return ch03_write_figures(prefix, prog->S, fail);
}
