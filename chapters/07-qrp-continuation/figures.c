/* figures.c -- chapter 07's figures (--plot PREFIX), from the story's runs:
 * PREFIX-monitor.svg (the singularity monitor), PREFIX-speeds.svg (the
 * generalised speed and coordinate with and without continuation),
 * PREFIX-angles.svg (the stop and the torque's branch switch). */
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_math.h>

#include "mbd/io.h"
#include "study.h"

static int figure(const char *prefix, const char *name, const mbd_figure *fig, mbd_failure *fail)
{
    char path[4096];
    return mbd_plot_svg(mbd_plot_path(path, sizeof path, prefix, name), fig, fail);
}

/* a column of a run's record: field 0 ratio, 1 v1, 2 z1, 3.. q[i - 3] */
static double *column(const ch07_run *r, int field, size_t index)
{
    double *c = malloc((r->rows ? r->rows : 1) * sizeof *c);
    for (size_t i = 0; c != NULL && i < r->rows; i++) {
        switch (field) {
        case 0:
            c[i] = fmax(r->ratio[i], 1e-12);   /* a log axis */
            break;
        case 1:
            c[i] = r->v[i * CH07_MAX_K + index];
            break;
        case 2:
            c[i] = r->z[i * CH07_MAX_K + index];
            break;
        default:
            c[i] = r->q[i * r->n + index];
            break;
        }
    }
    return c;
}

/* the ratio |R_rr| / |R_11| of the 4-bar at 4 rad/s, the stop, and the 2 4-bar */
static int monitor(const ch07_study *s, const char *prefix, mbd_failure *fail)
{
    const ch07_run *runs[3] = {&s->four_cont, &s->stop, &s->other[0]};
    const char *labels[3] = {"4-bar, 4 rad/s (V-shaped dips)", "4-bar stopping at the horizontal",
                             "2 4-bar (h = 1e-3 s)"};
    double *c[3];
    mbd_series ser[3];
    int st = GSL_SUCCESS;
    for (int i = 0; i < 3; i++) {
        c[i] = column(runs[i], 0, 0);
        if (c[i] == NULL)
            st = GSL_ENOMEM;
        ser[i] = (mbd_series){labels[i], runs[i]->t, c[i], runs[i]->rows, "lines", 0};
    }
    if (st == GSL_SUCCESS) {
        const mbd_panel panel = {
            .title = "Singularity monitor: the last structural |R_{rr}| / |R_{11}| of QR with pivoting",
            .xlabel = "t [s]", .ylabel = "|R_{rr}| / |R_{11}|", .logy = 1, .series = ser,
            .nseries = 3, .extra = "set key bottom right\nset yrange [1e-8:2]"};
        const mbd_figure fig = {.panels = &panel};
        st = figure(prefix, "monitor", &fig, fail);
    } else {
        mbd_failure_set(fail, st, NAN, "out of memory for a figure");
    }
    for (int i = 0; i < 3; i++)
        free(c[i]);
    return st;
}

/* the 4-bar's generalised speed and coordinate, traditional and continued */
static int speeds(const ch07_study *s, const char *prefix, mbd_failure *fail)
{
    const ch07_run *a = &s->four_trad, *b = &s->four_cont;
    double *va = column(a, 1, 0), *vb = column(b, 1, 0), *za = column(a, 2, 0),
           *zb = column(b, 2, 0);
    int st = va && vb && za && zb ? GSL_SUCCESS : GSL_ENOMEM;
    if (st == GSL_SUCCESS) {
        const mbd_series top[] = {{"traditional basis (flips)", a->t, va, a->rows, "lines", 0},
                                  {"continued basis", b->t, vb, b->rows, "lines lw 2", 0}};
        const mbd_series bottom[] = {{"traditional basis", a->t, za, a->rows, "lines", 0},
                                     {"continued basis", b->t, zb, b->rows, "lines lw 2", 0}};
        const mbd_panel panels[] = {
            {.title = "4-bar, 4 rad/s: the generalised speed qdot_1 = T^T x'", .xlabel = "t [s]",
             .ylabel = "qdot_1", .series = top, .nseries = 2},
            {.title = "the generalised coordinate q_1 (the integral of qdot_1)",
             .xlabel = "t [s]", .ylabel = "q_1", .series = bottom, .nseries = 2,
             .extra = "set key top left"},
        };
        const mbd_figure fig = {.rows = 2, .panels = panels};
        st = figure(prefix, "speeds", &fig, fail);
    } else {
        mbd_failure_set(fail, st, NAN, "out of memory for a figure");
    }
    free(va);
    free(vb);
    free(za);
    free(zb);
    return st;
}

/* the bars' angles: the stop (parallelogram) and the torque (folded after the window) */
static int angles(const ch07_study *s, const char *prefix, mbd_failure *fail)
{
    const ch07_run *a = &s->stop, *b = &s->torque[1];
    double *c[6];
    int st = GSL_SUCCESS;
    for (int i = 0; i < 3; i++) {
        c[i] = column(a, 3, (size_t)(3 * i + 2));
        c[3 + i] = column(b, 3, (size_t)(3 * i + 2));
        if (c[i] == NULL || c[3 + i] == NULL)
            st = GSL_ENOMEM;
    }
    if (st == GSL_SUCCESS) {
        const mbd_series top[] = {{"theta_1", a->t, c[0], a->rows, "lines", 0},
                                  {"theta_2", a->t, c[1], a->rows, "lines", 0},
                                  {"theta_3", a->t, c[2], a->rows, "lines dt 2", 0}};
        const mbd_series bottom[] = {{"theta_1", b->t, c[3], b->rows, "lines", 0},
                                     {"theta_2", b->t, c[4], b->rows, "lines", 0},
                                     {"theta_3", b->t, c[5], b->rows, "lines dt 2", 0}};
        const mbd_panel panels[] = {
            {.title = "Released at -sqrt(12 g / 5): the bars stop horizontal and fall back",
             .xlabel = "t [s]", .ylabel = "angle [rad]", .series = top, .nseries = 3},
            {.title = "The same with -20 N m on bar 2: bar 3 locks at pi, bars 1 and 2 fold",
             .xlabel = "t [s]", .ylabel = "angle [rad]", .series = bottom, .nseries = 3},
        };
        const mbd_figure fig = {.rows = 2, .panels = panels};
        st = figure(prefix, "angles", &fig, fail);
    } else {
        mbd_failure_set(fail, st, NAN, "out of memory for a figure");
    }
    for (int i = 0; i < 6; i++)
        free(c[i]);
    return st;
}

int ch07_figures(ch07_study *s, const char *prefix, mbd_failure *fail)
{
    int st = monitor(s, prefix, fail);
    if (st == GSL_SUCCESS)
        st = speeds(s, prefix, fail);
    if (st == GSL_SUCCESS)
        st = angles(s, prefix, fail);
    return st;
}
