/* figures.c -- chapter 06's figures (--plot PREFIX), from the story's runs:
 * PREFIX-motion.svg, PREFIX-drift.svg, PREFIX-independent.svg. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_math.h>

#include "mbd/io.h"
#include "study.h"

/* the slider-crank's motion (embedded, h = 0.00125): the crank angle, the
 * rod's angle and the slider's position */
static int motion(const ch06_study *s, const char *prefix, mbd_failure *fail)
{
    const mbd_history *h = &s->emb[CH06_NH - 1].h;
    double *buf = malloc(3 * h->rows * sizeof *buf);
    if (buf == NULL)
        return mbd_failure_set(fail, GSL_ENOMEM, NAN, "out of memory for a figure");
    double *th2 = buf, *th3 = buf + h->rows, *x4 = buf + 2 * h->rows;
    for (size_t k = 0; k < h->rows; k++) {
        const double *q = mbd_history_q(h, k);
        th2[k] = remainder(q[2], 2.0 * M_PI);   /* the crank's angle within one turn */
        if (k > 0 && fabs(th2[k] - th2[k - 1]) > M_PI)
            th2[k - 1] = NAN;                    /* no line across the wrap */
        th3[k] = q[5];
        x4[k] = q[6];
    }
    const mbd_series top[] = {
        {"crank theta_2 (within a turn)", h->t, th2, h->rows, "lines", 0},
        {"rod theta_3", h->t, th3, h->rows, "lines", 0},
    };
    const mbd_series bottom[] = {{"slider x_4", h->t, x4, h->rows, "lines", 0}};
    const mbd_panel panels[] = {
        {.title = "Slider-crank, embedded (RK4, h = 0.00125 s): the angles", .xlabel = "t [s]",
         .ylabel = "angle [rad]", .series = top, .nseries = 2},
        {.title = "The slider: dead centres where x_4 turns back", .xlabel = "t [s]",
         .ylabel = "x_4 [m]", .series = bottom, .nseries = 1},
    };
    const mbd_figure fig = {.rows = 2, .panels = panels};
    char path[4096];
    int st = mbd_plot_svg(mbd_plot_path(path, sizeof path, prefix, "motion"), &fig, fail);
    free(buf);
    return st;
}

/* |C| over time: the augmented form without and with Baumgarte, and the
 * embedding, at h = 0.005 */
static int drift(const ch06_study *s, const char *prefix, mbd_failure *fail)
{
    const int k = 1;
    const ch06_run *runs[4] = {&s->aug[0][k], &s->aug[1][k], &s->aug[2][k], &s->emb[k]};
    const char *labels[4] = {"augmented", "augmented, alpha = beta = 5",
                             "augmented, alpha = beta = 10", "embedded"};
    mbd_series ser[4];
    double *floor[4] = {NULL};
    int st = GSL_SUCCESS;
    for (int i = 0; i < 4 && st == GSL_SUCCESS; i++) {
        const mbd_history *h = &runs[i]->h;
        floor[i] = malloc(h->rows * sizeof *floor[i]);
        if (floor[i] == NULL) {
            st = mbd_failure_set(fail, GSL_ENOMEM, NAN, "out of memory for a figure");
            break;
        }
        for (size_t r = 0; r < h->rows; r++)   /* a log axis: exact zeros at 1e-17 */
            floor[i][r] = fmax(h->C_norm[r], 1e-17);
        ser[i] = (mbd_series){labels[i], h->t, floor[i], h->rows, i == 3 ? "lines dt 2" : "lines", 0};
    }
    if (st == GSL_SUCCESS) {
        const mbd_panel panel = {
            .title = "Constraint drift of the slider-crank (RK4, h = 0.005 s)", .xlabel = "t [s]",
            .ylabel = "|C| [m]", .logy = 1, .series = ser, .nseries = 4,
            .extra = "set key top left\nset yrange [1e-17:1e-1]"};
        const mbd_figure fig = {.panels = &panel};
        char path[4096];
        st = mbd_plot_svg(mbd_plot_path(path, sizeof path, prefix, "drift"), &fig, fail);
    }
    for (int i = 0; i < 4; i++)
        free(floor[i]);
    return st;
}

/* the double pendulum's independent set over time: each coordinate's row
 * drawn where it is independent */
static int independent(const ch06_study *s, const char *prefix, mbd_failure *fail)
{
    const ch06_run *r = &s->dp_emb;
    const mbd_history *h = &r->h;
    const size_t n = s->n[CH06_DOUBLE_PENDULUM];
    double *y = malloc(n * h->rows * sizeof *y);
    if (y == NULL)
        return mbd_failure_set(fail, GSL_ENOMEM, NAN, "out of memory for a figure");
    size_t set[4] = {r->res.independent0[0], r->res.independent0[1]};
    size_t e = 0;
    for (size_t k = 0; k < h->rows; k++) {
        while (e < r->res.n_events && r->res.events[e].t <= h->t[k]) {
            const mbd_formulation_reselection *ev = &r->res.events[e++];
            for (int j = 0; j < 2; j++)
                if (set[j] == ev->left)
                    set[j] = ev->joined;
        }
        for (size_t c = 0; c < n; c++)
            y[c * h->rows + k] = (set[0] == c || set[1] == c) ? (double)c : NAN;
    }
    const char *const *names = ch06_names(&s->md[CH06_DOUBLE_PENDULUM]);
    mbd_series ser[6];
    for (size_t c = 0; c < n; c++)
        ser[c] = (mbd_series){names[c], h->t, y + c * h->rows, h->rows, "lines lw 6", 0};
    char extra[512];
    snprintf(extra, sizeof extra,
             "set yrange [-0.5:%zu.5]\nset ytics (\"x1\" 0, \"y1\" 1, \"theta1\" 2, \"x2\" 3, "
             "\"y2\" 4, \"theta2\" 5)\nset key outside right",
             n - 1);
    const mbd_panel panel = {
        .title = "Double pendulum, embedded: which coordinates are independent (RK4, h = 1e-3)",
        .xlabel = "t [s]", .ylabel = "coordinate", .series = ser, .nseries = n, .extra = extra};
    const mbd_figure fig = {.panels = &panel};
    char path[4096];
    int st = mbd_plot_svg(mbd_plot_path(path, sizeof path, prefix, "independent"), &fig, fail);
    free(y);
    return st;
}

int ch06_figures(ch06_study *s, const char *prefix, mbd_failure *fail)
{
    int st = motion(s, prefix, fail);
    if (st == GSL_SUCCESS)
        st = drift(s, prefix, fail);
    if (st == GSL_SUCCESS)
        st = independent(s, prefix, fail);
    return st;
}
