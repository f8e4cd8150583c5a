/* figures.c -- chapter 05's figures (gnuplot SVG through io.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_math.h>

#include "mbd/cli.h"
#include "mbd/io.h"
#include "mbd/simulate.h"
#include "study.h"

/* ------------------------------------------------------------------------ */
/* Figures                                                                   */

/* positions (left) and velocities (right) of a run, as Figs. 24 and 25 */
int ch05_motion_figure(const char *path, const char *title, const ch05_run *r,
                         mbd_failure *fail)
{
    const mbd_history *h = &r->hist;
    size_t n = h->rows;
    double *buf = malloc(6 * (n ? n : 1) * sizeof *buf);
    if (buf == NULL)
        return mbd_failure_set(fail, GSL_ENOMEM, NAN, "out of memory");
    for (size_t k = 0; k < n; k++)
        for (int i = 0; i < 3; i++) {
            buf[i * n + k] = mbd_history_q(h, k)[i];
            buf[(3 + i) * n + k] = mbd_history_qd(h, k)[i];
        }
    const mbd_series sq[] = {
        {"th1 [rad]", h->t, buf, n, "lines", 0},
        {"th2 [rad]", h->t, buf + n, n, "lines dt 2", 0},
        {"x3 [m]", h->t, buf + 2 * n, n, "lines dt 3", 0},
    };
    const mbd_series sv[] = {
        {"th1' [rad/s]", h->t, buf + 3 * n, n, "lines", 0},
        {"th2' [rad/s]", h->t, buf + 4 * n, n, "lines dt 2", 0},
        {"x3' [m/s]", h->t, buf + 5 * n, n, "lines dt 3", 0},
    };
    const mbd_panel panels[] = {
        {.title = "positions", .xlabel = "t [s]", .ylabel = "q", .series = sq, .nseries = 3,
         .extra = "set key bottom left"},
        {.title = "velocities", .xlabel = "t [s]", .ylabel = "dq/dt", .series = sv, .nseries = 3,
         .extra = "set key bottom left"},
    };
    const mbd_figure fig = {.title = title, .rows = 1, .cols = 2, .width = 1100, .height = 440,
                            .panels = panels};
    int st = mbd_plot_svg(path, &fig, fail);
    free(buf);
    return st;
}

int ch05_write_figures(const char *prefix, ch05_study *s, mbd_failure *fail)
{
    char path[1024];
    int st;

    /* >> figure-mechanism */
    {
        /* snapshots of the document's penalty run (Fig. 20's mechanism in motion) */
        const double ts[] = {0.0, 0.3, 0.6, 0.9, 1.2, 1.5, 1.8};
        enum { NS = sizeof ts / sizeof ts[0] };
        double x[NS][3], y[NS][3];
        char labels[NS][32];
        mbd_series ser[NS];
        for (int i = 0; i < NS; i++) {
            size_t k = mbd_history_row_at(&s->pen.hist, ts[i] + 1e-9);
            const double *q = mbd_history_q(&s->pen.hist, k);
            x[i][0] = 0.0;
            y[i][0] = 0.0;
            x[i][1] = s->model.L1 * sin(q[0]);
            y[i][1] = -s->model.L1 * cos(q[0]);
            x[i][2] = q[2];
            y[i][2] = 0.0;
            snprintf(labels[i], sizeof labels[i], "t = %.1f s", ts[i]);
            ser[i] = (mbd_series){labels[i], x[i], y[i], 3, "linespoints pt 7 ps 0.8", 0};
        }
        const mbd_panel panel = {
            .title = "The slider-crank in motion (document M, penalty with Baumgarte, ode23)",
            .xlabel = "x [m]", .ylabel = "y [m]", .series = ser, .nseries = NS,
            .extra = "set size ratio -1\nset xrange [-0.5:4.5]\nset yrange [-2.2:1.8]\n"
                     "set key outside right\n"
                     "set arrow from -0.5,0 to 4.5,0 nohead lc rgb 'gray60' dt 2",
        };
        const mbd_figure fig = {.width = 900, .height = 520, .panels = &panel};
        st = mbd_plot_svg(mbd_plot_path(path, sizeof path, prefix, "mechanism"), &fig, fail);
        if (st != GSL_SUCCESS)
            return st;
    }
    /* << figure-mechanism */

    st = ch05_motion_figure(mbd_plot_path(path, sizeof path, prefix, "penalty"),
                       "Penalty with Baumgarte (document M, ode23, mu = 1e5): Fig. 24", &s->pen,
                       fail);
    if (st != GSL_SUCCESS)
        return st;
    st = ch05_motion_figure(mbd_plot_path(path, sizeof path, prefix, "projection"),
                       "Projection with Baumgarte (document M, ode23): Fig. 25", &s->proj, fail);
    if (st != GSL_SUCCESS)
        return st;

    /* Fig. 26: |penalty - projection| per state, with the errors against the reference */
    {
        const mbd_history *a = &s->pen.hist, *b = &s->proj.hist;
        size_t n = a->rows < b->rows ? a->rows : b->rows;
        double *buf = malloc(12 * (n ? n : 1) * sizeof *buf);
        if (buf == NULL)
            return mbd_failure_set(fail, GSL_ENOMEM, NAN, "out of memory");
        ch05_reference *ref = &s->ref[CH05_MASS_DOCUMENT];
        for (size_t k = 0; k < n; k++) {
            double q[3], qd[3];
            ch05_reference_state(ref, a->t[k], q, qd);
            for (int i = 0; i < 3; i++) {
                buf[i * n + k] = fabs(mbd_history_q(a, k)[i] - mbd_history_q(b, k)[i]);
                buf[(3 + i) * n + k] = fabs(mbd_history_qd(a, k)[i] - mbd_history_qd(b, k)[i]);
                buf[(6 + i) * n + k] = fabs(mbd_history_q(a, k)[i] - q[i]);
                buf[(9 + i) * n + k] = fabs(mbd_history_qd(a, k)[i] - qd[i]);
            }
        }
        /* zeros are not drawn on a log axis */
        for (size_t k = 0; k < 12 * n; k++)
            if (!(buf[k] > 0))
                buf[k] = NAN;
        static const char *const names[] = {"th1", "th2", "x3", "th1'", "th2'", "x3'"};
        mbd_series ser[6][2];
        mbd_panel panels[6];
        for (int i = 0; i < 6; i++) {
            ser[i][0] = (mbd_series){"|penalty - projection|", a->t, buf + (size_t)i * n, n, "lines", 0};
            ser[i][1] = (mbd_series){"|penalty - reference|", a->t, buf + (size_t)(6 + i) * n, n,
                                     "lines lc rgb 'gray50'", 0};
            panels[i] = (mbd_panel){.title = names[i], .xlabel = "t [s]", .ylabel = "difference",
                                    .logy = 1, .series = ser[i], .nseries = 2,
                                    .extra = i == 0 ? "set key bottom right font ',10'" : "unset key"};
        }
        const mbd_figure fig = {.title = "Penalty against projection, both with Baumgarte (document M, "
                                         "ode23): Fig. 26",
                                .rows = 2, .cols = 3, .width = 1200, .height = 700, .panels = panels};
        st = mbd_plot_svg(mbd_plot_path(path, sizeof path, prefix, "difference"), &fig, fail);
        free(buf);
        if (st != GSL_SUCCESS)
            return st;
    }

    /* the true energy of both models along their references */
    {
        enum { N = 2001 };
        static double t[N], Ed[N], Ec[N], Eown[N];
        for (int i = 0; i < N; i++) {
            double q[3], qd[3];
            t[i] = 1e-3 * i;
            ch05_reference_state(&s->ref[0], t[i], q, qd);
            Ed[i] = ch05_energy(&s->model, q, qd);
            double Md[9];
            gsl_matrix_view M = gsl_matrix_view_array(Md, 3, 3);
            ch05_mass_matrix(&s->model, CH05_MASS_DOCUMENT, q, &M.matrix);
            Eown[i] = 0.5 * (Md[0] * qd[0] * qd[0] + Md[4] * qd[1] * qd[1] + Md[8] * qd[2] * qd[2])
                      + ch05_potential(&s->model, q);
            ch05_reference_state(&s->ref[1], t[i], q, qd);
            Ec[i] = ch05_energy(&s->model, q, qd);
        }
        const mbd_series ser[] = {
            {"true energy, consistent M", t, Ec, N, "lines", 0},
            {"true energy, document M", t, Ed, N, "lines dt 2", 0},
            {"(1/2) q'^T M_{doc} q' + V, document M", t, Eown, N, "lines dt 3", 0},
        };
        char extra[256] = "set key bottom left\n";
        mbd_plot_marker(extra, sizeof extra, T_DOC, "document horizon", 1);
        const mbd_panel panel = {.title = "Energy along the reduced references (zero at the pivot's height)",
                                 .xlabel = "t [s]", .ylabel = "E [J]", .series = ser, .nseries = 3,
                                 .extra = extra};
        const mbd_figure fig = {.panels = &panel};
        st = mbd_plot_svg(mbd_plot_path(path, sizeof path, prefix, "energy"), &fig, fail);
        if (st != GSL_SUCCESS)
            return st;
    }

    /* >> figure-condition */
    /* cond(S) as the fold approaches, along both references */
    {
        enum { N = 141 };
        static double dt[N], cd[N], cc[N], slope[N];
        for (int i = 0; i < N; i++) {
            dt[i] = pow(10.0, -1.0 - 0.05 * i);     /* 1e-1 ... 1e-8 s before the fold */
            for (int k = 0; k < 2; k++) {
                double q[3], qd[3];
                ch05_reference_state(&s->ref[k], s->fold[k] - dt[i], q, qd);
                (k ? cc : cd)[i] = ch05_schur_condition(&s->model, (ch05_mass_kind)k, q);
            }
            slope[i] = 1.0 / (GSL_DBL_EPSILON);
        }
        const mbd_series ser[] = {
            {"cond(S), document M", dt, cd, N, "lines", 0},
            {"cond(S), consistent M", dt, cc, N, "lines dt 2", 0},
            {"1/eps", dt, slope, N, "lines dt 4 lc rgb 'gray40'", 0},
        };
        const mbd_panel panel = {
            .title = "The Schur complement C_q M^{-1} C_q^T turns singular at the fold",
            .xlabel = "time to the fold  t_{fold} - t  [s]", .ylabel = "2-norm condition number",
            .logx = 1, .logy = 1, .series = ser, .nseries = 3,
            .extra = "set key top left\nset xrange [1e-1:1e-8]",
        };
        const mbd_figure fig = {.panels = &panel};
        st = mbd_plot_svg(mbd_plot_path(path, sizeof path, prefix, "condition"), &fig, fail);
        if (st != GSL_SUCCESS)
            return st;
    }
    /* << figure-condition */

    /* the two branches through the fold, and the runs that took each */
    {
        enum { NB = 201 };
        static double u[NB], vsame[NB], vfold[NB];
        for (int i = 0; i < NB; i++) {
            u[i] = -0.5 + 0.005 * i;
            vsame[i] = M_PI - 2.0 * u[i];
            vfold[i] = M_PI;
        }
        const ch05_run *show[] = {&s->runs[1][M_PEN][I_ODE23], &s->runs[1][M_PEN_B][I_ODE23],
                                  &s->runs[0][M_PROJ][I_TIGHT]};
        const char *labels[] = {"penalty, ode23, consistent M", "penalty-baumgarte, ode23, consistent M",
                                "projection, tight, document M"};
        const char *styles[] = {"lines lc rgb '#d95f02'", "lines lc rgb '#1b9e77'",
                                "lines dt 2 lc rgb '#7570b3'"};
        mbd_series ser[5];
        double *buf[3] = {NULL, NULL, NULL};
        ser[0] = (mbd_series){"branch th2 = pi - 2 th1", u, vsame, NB, "lines lc rgb 'gray60'", 0};
        ser[1] = (mbd_series){"folded branch th2 = pi", u, vfold, NB, "lines lc rgb 'gray80'", 0};
        st = GSL_SUCCESS;
        for (int r = 0; r < 3; r++) {
            const mbd_history *h = &show[r]->hist;
            buf[r] = malloc(2 * (h->rows ? h->rows : 1) * sizeof *buf[r]);
            if (buf[r] == NULL) {
                st = mbd_failure_set(fail, GSL_ENOMEM, NAN, "out of memory");
                continue;
            }
            for (size_t k = 0; k < h->rows; k++) {
                const double *q = mbd_history_q(h, k);
                int in = fabs(q[0]) <= 0.5;
                buf[r][k] = in ? q[0] : NAN;
                buf[r][h->rows + k] = in ? q[1] : NAN;
            }
            ser[2 + r] = (mbd_series){labels[r], buf[r], buf[r] + h->rows, h->rows, styles[r], 0};
        }
        if (st == GSL_SUCCESS) {
            const mbd_panel panel = {
                .title = "Through the fold: which branch each run takes",
                .xlabel = "th1 [rad]", .ylabel = "th2 [rad]", .series = ser, .nseries = 5,
                .extra = "set key top left font ',11'\nset xrange [0.5:-0.5]",
            };
            const mbd_figure fig = {.panels = &panel};
            st = mbd_plot_svg(mbd_plot_path(path, sizeof path, prefix, "branches"), &fig, fail);
        }
        for (int r = 0; r < 3; r++)
            free(buf[r]);
        if (st != GSL_SUCCESS)
            return st;
    }
    return GSL_SUCCESS;
}
