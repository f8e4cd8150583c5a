/* figures.c -- chapter 04's figures (gnuplot SVG through io.h). */
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
/* Figures                                                                   */

/* the states as figure labels (gnuplot's enhanced text takes _ for a subscript) */
static const char *state_labels[4] = {"theta1 [rad]", "x2 [in]", "dtheta1/dt [rad/s]",
                                      "dx2/dt [in/s]"};

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
int ch04_write_figures(const char *prefix, ch04_study *s, mbd_failure *fail)
{
    int st = ch04_study_compute(s, fail);
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
     * both readings, with the projection's own error against the ch04_grid */
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
                sr[4 * v + m] = (mbd_series){ch04_rows[m].label, d.t, d.y[4 * v + m], n, styles[m], 0};
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

int ch04_program_figures(void *ctx, const char *prefix, mbd_failure *fail)
{
    ch04_program *prog = ctx;
    return ch04_write_figures(prefix, prog->s, fail);
}
