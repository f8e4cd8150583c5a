/* figures.c -- chapter 08's figures (--plot PREFIX), from the story's runs:
 * PREFIX-violations.svg (cut joint 1 of the 4-bar, x and y, position and
 * velocity, the four scenarios: the document's Figs. 4-7), PREFIX-energy.svg
 * (its Fig. 8), PREFIX-eightbar.svg (its Figs. 10-11 for the stand-in). */
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_math.h>

#include "mbd/io.h"
#include "study.h"

static const char *const LABELS[CH08_NMETHODS] = {"(a) none", "(b) sequential",
                                                  "(c) simultaneous", "(d) with the energy"};
/* (b) and (c) often run on top of each other: (c) is dashed, so that the two
 * are told apart without their colours; (d) is drawn heavier */
static const char *const STYLES[CH08_NMETHODS] = {"lines", "lines", "lines dt 2", "lines lw 2"};

/* |value| of a run's column, floored at 1e-18 for a log axis: field 0..3 =
 * phi_x, phi_y, phidot_x, phidot_y of cut joint `cut`, 4 = |E - E0| */
static double *column(const ch08_model *md, const ch08_run *r, int field, size_t cut)
{
    double *c = malloc((r->h.rows ? r->h.rows : 1) * sizeof *c);
    for (size_t k = 0; c != NULL && k < r->h.rows; k++) {
        double phi[CH08_MAX_ROWS], phidot[CH08_MAX_ROWS], v;
        if (field == 4) {
            v = r->h.E[k] - r->E0;
        } else {
            ch08_cut_violation(md, mbd_history_q(&r->h, k), mbd_history_qd(&r->h, k), phi, phidot);
            v = field < 2 ? phi[2 * cut + (size_t)field] : phidot[2 * cut + (size_t)field - 2];
        }
        c[k] = fmax(fabs(v), 1e-18);
    }
    return c;
}

static int panels(const ch08_model *md, const ch08_run runs[CH08_NMETHODS], const int *fields,
                  int nfields, size_t cut, const char *const *titles, const char *const *ylabels,
                  const char *path, mbd_failure *fail)
{
    double *cols[4][CH08_NMETHODS] = {{NULL}};
    mbd_series ser[4][CH08_NMETHODS];
    mbd_panel pan[4];
    int st = GSL_SUCCESS;
    for (int f = 0; f < nfields; f++) {
        for (int k = 0; k < CH08_NMETHODS; k++) {
            cols[f][k] = column(md, &runs[k], fields[f], cut);
            if (cols[f][k] == NULL)
                st = GSL_ENOMEM;
            ser[f][k] = (mbd_series){LABELS[k], runs[k].h.t, cols[f][k], runs[k].h.rows,
                                     STYLES[k], 0};
        }
        pan[f] = (mbd_panel){.title = titles[f], .xlabel = "t [s]", .ylabel = ylabels[f],
                             .logy = 1, .series = ser[f], .nseries = CH08_NMETHODS,
                             .extra = "set key top left font ',9'\nset yrange [1e-18:1e2]"};
    }
    if (st == GSL_SUCCESS) {
        const mbd_figure fig = {.rows = nfields > 2 ? 2 : nfields, .cols = nfields > 2 ? 2 : 1,
                                .panels = pan};
        st = mbd_plot_svg(path, &fig, fail);
    } else {
        mbd_failure_set(fail, st, NAN, "out of memory for a figure");
    }
    for (int f = 0; f < nfields; f++)
        for (int k = 0; k < CH08_NMETHODS; k++)
            free(cols[f][k]);
    return st;
}

int ch08_figures(ch08_study *s, const char *prefix, mbd_failure *fail)
{
    ch08_model four, eight;
    ch08_model_data(&four, CH08_FOURBAR, CH08_R1);
    ch08_model_data(&eight, CH08_EIGHTBAR, CH08_R1);
    int st = ch08_model_build(&four);
    if (st == GSL_SUCCESS)
        st = ch08_model_build(&eight);
    char path[4096];
    if (st == GSL_SUCCESS) {
        const int f[4] = {0, 1, 2, 3};
        const char *t[4] = {"4-bar: position violation, x (Fig. 4)",
                            "position violation, y (Fig. 5)", "velocity violation, x (Fig. 6)",
                            "velocity violation, y (Fig. 7)"};
        const char *y[4] = {"|phi_x| [m]", "|phi_y| [m]", "|phidot_x| [m/s]", "|phidot_y| [m/s]"};
        st = panels(&four, s->four, f, 4, 0, t, y,
                    mbd_plot_path(path, sizeof path, prefix, "violations"), fail);
    }
    if (st == GSL_SUCCESS) {
        const int f[1] = {4};
        const char *t[1] = {"4-bar: the energy's change |E - E0| (Fig. 8)"};
        const char *y[1] = {"|E - E0| [J]"};
        st = panels(&four, s->four, f, 1, 0, t, y,
                    mbd_plot_path(path, sizeof path, prefix, "energy"), fail);
    }
    if (st == GSL_SUCCESS) {
        const int f[4] = {0, 1, 3, 4};
        const char *t[4] = {"eight-bar, cut joint Q: position x (Fig. 10)", "position y",
                            "velocity y", "the energy's change (Fig. 11)"};
        const char *y[4] = {"|phi_x| [m]", "|phi_y| [m]", "|phidot_y| [m/s]", "|E - E0| [J]"};
        st = panels(&eight, s->eight, f, 4, 2, t, y,
                    mbd_plot_path(path, sizeof path, prefix, "eightbar"), fail);
    }
    ch08_model_free(&four);
    ch08_model_free(&eight);
    return st;
}
