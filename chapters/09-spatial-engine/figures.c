/* figures.c -- chapter 09's figures (--plot PREFIX), from the story's runs:
 * PREFIX-slider.svg (the driven slider-crank's x, x', x'' against the closed
 * form, and the differences), PREFIX-pendulum.svg (the driven pendulum's
 * torque and hinge force against the closed forms, and the differences);
 * part 2: PREFIX-smd.svg (the spring-mass-damper against its closed form),
 * PREFIX-governor.svg (the flyball governor at three C, with the steady
 * states), PREFIX-a01.svg (A01's error against the IFToMM file over time,
 * BDF and rk8pd), PREFIX-a02.svg (A02 N = 40: B0 against the ADAMS file). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "mbd/io.h"
#include "reference.h"
#include "study.h"

/* n columns of r->rows values */
static double *columns(size_t n, size_t rows)
{
    return malloc((n * rows > 0 ? n * rows : 1) * sizeof(double));
}

static int slider_figure(const char *prefix, mbd_failure *fail)
{
    ch09_model md;
    ch09_run r;
    int st = ch09_slider_run(&md, NULL, 1e-3, &r, fail);
    if (st != GSL_SUCCESS)
        return st;
    if (r.status != GSL_SUCCESS) {
        *fail = r.fail;
        st = r.status;
    }
    /* 0..2 computed x, x', x''; 3..5 closed form (every STRIDE-th output,
     * times in 9); 6..8 |difference| (every output) */
    enum { STRIDE = 5 };
    const size_t N = r.rows, Ns = (N + STRIDE - 1) / STRIDE;
    double *c = columns(10, N);
    if (st == GSL_SUCCESS && c == NULL)
        st = mbd_failure_set(fail, GSL_ENOMEM, NAN, "out of memory for a figure");
    if (st == GSL_SUCCESS) {
        size_t c0 = 0;
        mbd_spatial_body_coordinates(md.sm, mbd_spatial_body_index(md.sm, "slider"), &c0);
        for (size_t k = 0; k < N; k++) {
            const double v[3] = {r.q[k * r.n + c0], r.qd[k * r.n + c0], r.qdd[k * r.n + c0]};
            double x[3];
            ch09_slider_exact(r.t[k], x);
            for (int i = 0; i < 3; i++) {
                if (k % STRIDE == 0) {
                    c[i * N + k / STRIDE] = v[i];
                    c[(3 + i) * N + k / STRIDE] = x[i];
                }
                c[(6 + i) * N + k] = fmax(fabs(v[i] - x[i]), 1e-18);
            }
            if (k % STRIDE == 0)
                c[9 * N + k / STRIDE] = r.t[k];
        }
        static const char *const title[3] = {"slider position x", "velocity x'",
                                             "acceleration x''"};
        static const char *const ylab[3] = {"x [m]", "x' [m/s]", "x'' [m/s^2]"};
        mbd_series s[4][3];
        mbd_panel p[4];
        for (int i = 0; i < 3; i++) {
            s[i][0] = (mbd_series){"kinematics", c + 9 * N, c + (size_t)i * N, Ns,
                                   "points pt 7 ps 0.3", 0};
            s[i][1] = (mbd_series){"closed form", c + 9 * N, c + (size_t)(3 + i) * N, Ns,
                                   "lines lw 1", 0};
            p[i] = (mbd_panel){.title = title[i], .xlabel = "t [s]", .ylabel = ylab[i],
                               .series = s[i], .nseries = 2,
                               .extra = "set key bottom right font ',9'"};
        }
        static const char *const dlab[3] = {"x [m]", "x' [m/s]", "x'' [m/s^2]"};
        for (int i = 0; i < 3; i++)
            s[3][i] = (mbd_series){dlab[i], r.t, c + (size_t)(6 + i) * N, N, "lines lw 1", 0};
        p[3] = (mbd_panel){.title = "|kinematics - closed form|",
                           .xlabel = "t [s]", .ylabel = "difference", .logy = 1,
                           .series = s[3], .nseries = 3,
                           .extra = "set key top right font ',9'\nset yrange [1e-18:1e-2]"};
        const mbd_figure fig = {.title = "The driven slider-crank: kinematics against x(theta)",
                                .rows = 2, .cols = 2, .panels = p};
        char path[4096];
        st = mbd_plot_svg(mbd_plot_path(path, sizeof path, prefix, "slider"), &fig, fail);
    }
    free(c);
    ch09_run_free(&r);
    ch09_model_free(&md);
    return st;
}

static int pendulum_figure(const char *prefix, mbd_failure *fail)
{
    ch09_model md;
    ch09_run r;
    int st = ch09_pendulum_run(&md, &r, fail);
    if (st != GSL_SUCCESS)
        return st;
    double m, Jzz, h, g;
    ch09_pendulum_data(&md, &m, &Jzz, &h, &g);
    /* 0 torque, 1 its closed form, 2, 3 hinge Fy, Fz on the bar, 4, 5 closed,
     * 6 |torque difference|, 7 |force difference| */
    const size_t N = r.rows, nj = r.njoints;
    double *c = columns(8, N);
    if (c == NULL)
        st = mbd_failure_set(fail, GSL_ENOMEM, NAN, "out of memory for a figure");
    if (st == GSL_SUCCESS) {
        for (size_t k = 0; k < N; k++) {
            const double *hinge = r.react + k * 6 * nj, *swing = hinge + 6;
            double F[3];
            ch09_pendulum_hinge_force(r.t[k], m, h, g, F);
            c[k] = swing[3];
            c[N + k] = ch09_pendulum_torque(r.t[k], m, Jzz, h, g);
            c[2 * N + k] = -hinge[1];
            c[3 * N + k] = -hinge[2];
            c[4 * N + k] = F[1];
            c[5 * N + k] = F[2];
            c[6 * N + k] = fmax(fabs(c[k] - c[N + k]), 1e-18);
            c[7 * N + k] = fmax(fmax(fabs(-hinge[0] - F[0]), fabs(c[2 * N + k] - F[1])),
                                fmax(fabs(c[3 * N + k] - F[2]), 1e-18));
        }
        mbd_series s0[2] = {{"inverse dynamics", r.t, c, N, "points pt 7 ps 0.3", 0},
                            {"I_O theta'' + m g (L/2) sin theta", r.t, c + N, N, "lines lw 1", 0}};
        mbd_series s1[4] = {{"F_y, inverse dynamics", r.t, c + 2 * N, N, "points pt 7 ps 0.3", 0},
                            {"F_y, m (a_c - g)", r.t, c + 4 * N, N, "lines lw 1", 0},
                            {"F_z, inverse dynamics", r.t, c + 3 * N, N, "points pt 6 ps 0.3", 0},
                            {"F_z, m (a_c - g)", r.t, c + 5 * N, N, "lines lw 1 dt 2", 0}};
        mbd_series s2[2] = {{"torque [N m]", r.t, c + 6 * N, N, "lines lw 1", 0},
                            {"hinge force, largest component [N]", r.t, c + 7 * N, N, "lines lw 1", 0}};
        const mbd_panel p[3] = {
            {.title = "driving torque about x", .xlabel = "t [s]", .ylabel = "n [N m]",
             .series = s0, .nseries = 2,
             .extra = "set key top left font ',9'\nset yrange [-300:350]"},
            {.title = "the hinge's force on the bar (global)", .xlabel = "t [s]",
             .ylabel = "F [N]", .series = s1, .nseries = 4,
             .extra = "set key top left font ',9' maxrows 2\nset yrange [-600:1800]"},
            {.title = "differences from the closed forms", .xlabel = "t [s]",
             .ylabel = "difference", .logy = 1, .series = s2, .nseries = 2,
             .extra = "set key top left font ',9' maxrows 1\nset yrange [1e-16:1e-5]"},
        };
        const mbd_figure fig = {.title = "The driven pendulum: inverse dynamics against the "
                                         "closed forms",
                                .rows = 3, .cols = 1, .width = 900, .height = 1100,
                                .panels = p};
        char path[4096];
        st = mbd_plot_svg(mbd_plot_path(path, sizeof path, prefix, "pendulum"), &fig, fail);
    }
    free(c);
    ch09_run_free(&r);
    ch09_model_free(&md);
    return st;
}

/* ------------------------------------------------------------------------ */
/* Part 2: the dynamics                                                      */

/* a run that must succeed */
static int run_ok(ch09_model *md, const char *file, const ch09_variant *v, ch09_run *r,
                  mbd_failure *fail)
{
    int st = ch09_run_variant(md, file, NULL, v, r, NULL, fail);
    if (st == GSL_SUCCESS && r->status != GSL_SUCCESS) {
        *fail = r->fail;
        st = r->status;
        ch09_run_free(r);
        ch09_model_free(md);
    }
    return st;
}

/* PREFIX-a01.svg: A01's error against the benchmark's file over time, for
 * BDF2 at two steps, adaptive BDF5, and the file's rk8pd */
static int a01_figure(const char *prefix, mbd_failure *fail)
{
    double *t, *x, *y;
    size_t n;
    int st = ch09_benchmark_load("A01_pendulum_reference.csv", &t, &x, &y, &n, fail);
    if (st != GSL_SUCCESS)
        return st;
    enum { NRUN = 4 };
    static const char *const label[NRUN] = {"BDF2, h = 1e-2 (the document's)", "BDF2, h = 1e-3",
                                           "BDF5, rtol = atol = 1e-10",
                                           "rk8pd (index 1), rtol = atol = 1e-8 (the file's)"};
    const ch09_variant v[NRUN] = {
        {.integrator = "bdf2", .fixed = 1, .h = 1e-2, .t_end = 200, .dt_out = 0.5},
        {.integrator = "bdf2", .fixed = 1, .h = 1e-3, .t_end = 200, .dt_out = 0.5},
        {.integrator = "bdf5", .rtol = 1e-10, .atol = 1e-10, .h = 1e-3, .t_end = 200,
         .dt_out = 0.5},
        {.dt_out = 0.5},
    };
    double *e = columns(NRUN, n);
    if (e == NULL)
        st = mbd_failure_set(fail, GSL_ENOMEM, NAN, "out of memory for a figure");
    for (int k = 0; k < NRUN && st == GSL_SUCCESS; k++) {
        ch09_model md;
        ch09_run r;
        st = run_ok(&md, "a01-pendulum.yaml", &v[k], &r, fail);
        if (st != GSL_SUCCESS)
            break;
        ch09_point_error(&r, t, x, y, n, NULL, e + (size_t)k * n);
        for (size_t i = 0; i < n; i++)   /* t = 0: exact; a log axis shows none */
            if (t[i] <= 0 || !(e[(size_t)k * n + i] > 0))
                e[(size_t)k * n + i] = NAN;
        ch09_run_free(&r);
        ch09_model_free(&md);
    }
    if (st == GSL_SUCCESS) {
        static const char *const style[NRUN] = {"lines lw 1.5", "lines lw 1.5", "lines lw 1.5",
                                               "lines lw 1.5 dt 2"};
        mbd_series s[NRUN + 1];
        for (int k = 0; k < NRUN; k++)
            s[k] = (mbd_series){label[k], t, e + (size_t)k * n, n, style[k], 0};
        const double bx[2] = {0.5, 2000}, by[2] = {1e-3, 1e-3};
        s[NRUN] = (mbd_series){"the benchmark's high precision, 1e-3 m", bx, by, 2,
                               "lines lw 1 lc rgb 'black' dt 3", 0};
        const mbd_panel p = {
            .title = "A01: the mass's position against the IFToMM reference (every 0.5 s)",
            .xlabel = "t [s]", .ylabel = "max(|x - x_{ref}|, |y - y_{ref}|) [m]", .logx = 1,
            .logy = 1, .series = s, .nseries = NRUN + 1,
            .extra = "set key bottom right font ',9'\nset xrange [0.5:2000]\n"
                     "set yrange [1e-9:1]\nset format y '10^{%L}'"};
        const mbd_figure fig = {.title = "A01 over 2000 s: BDF's numerical damping against an "
                                         "explicit method",
                                .rows = 1, .cols = 1, .width = 900, .height = 560, .panels = &p};
        char path[4096];
        st = mbd_plot_svg(mbd_plot_path(path, sizeof path, prefix, "a01"), &fig, fail);
    }
    free(e);
    free(t);
    free(x);
    free(y);
    return st;
}

/* PREFIX-a02.svg: A02 N = 40 at the file's settings: B0 against the ADAMS
 * file and the reduced equation, and the differences */
static int a02_figure(const char *prefix, mbd_failure *fail)
{
    double *t, *x, *y;
    size_t n;
    int st = ch09_benchmark_load("A02_N40_B0_reference.csv", &t, &x, &y, &n, fail);
    if (st != GSL_SUCCESS)
        return st;
    ch09_model md;
    ch09_run r;
    const ch09_variant v = {.dt_out = 0.05};
    st = run_ok(&md, "a02-n40.yaml", &v, &r, fail);
    double *c = st == GSL_SUCCESS ? columns(6, r.rows) : NULL;
    if (st == GSL_SUCCESS && c == NULL)
        st = mbd_failure_set(fail, GSL_ENOMEM, NAN, "out of memory for a figure");
    if (st == GSL_SUCCESS) {
        const size_t N = r.rows;
        /* 0, 1 B0's x, y; 2, 3 the reduced equation's; 4 |B0 - file|, 5 |B0 - reduced| */
        st = ch09_benchmark_reduced(CH09_A02, 40, r.t, N, c + 2 * N, c + 3 * N);
        ch09_point_error(&r, t, x, y, n, NULL, c + 4 * N);   /* n = N rows, same times */
        for (size_t k = 0; k < N && st == GSL_SUCCESS; k++) {
            c[k] = r.points[3 * k * r.npoints];
            c[N + k] = r.points[3 * k * r.npoints + 1];
            c[5 * N + k] = fmax(fabs(c[k] - c[2 * N + k]), fabs(c[N + k] - c[3 * N + k]));
            if (k >= n || !(c[4 * N + k] > 0))
                c[4 * N + k] = NAN;
            if (!(c[5 * N + k] > 0))
                c[5 * N + k] = NAN;
        }
    }
    if (st == GSL_SUCCESS) {
        const size_t N = r.rows;
        mbd_series s0[4] = {
            {"x, BDF4 (the file's settings)", r.t, c, N, "lines lw 1.5", 0},
            {"y, BDF4", r.t, c + N, N, "lines lw 1.5", 0},
            {"x, ADAMS (IFToMM file)", t, x, n < N ? n : N, "points pt 6 ps 0.5 lc rgb 'black'", 0},
            {"y, ADAMS", t, y, n < N ? n : N, "points pt 4 ps 0.5 lc rgb 'black'", 0}};
        mbd_series s1[2] = {
            {"against the ADAMS file", r.t, c + 4 * N, N, "lines lw 1.5", 0},
            {"against theta'' = K_{40} sin theta (rk8pd)", r.t, c + 5 * N, N,
             "lines lw 1 dt 2", 0}};
        const mbd_panel p[2] = {
            {.title = "B0, the first crank's tip", .xlabel = "t [s]", .ylabel = "[m]",
             .series = s0, .nseries = 4,
             .extra = "set key outside bottom center horizontal font ',9'\nset yrange [-1.1:1.1]"},
            {.title = "|B0 - reference|, largest component", .xlabel = "t [s]",
             .ylabel = "[m]", .logy = 1, .series = s1, .nseries = 2,
             .extra = "set key outside bottom center horizontal font ',9'\nset yrange [1e-9:1e-2]\n"
                      "set format y '10^{%L}'"},
        };
        const mbd_figure fig = {.title = "A02, the N four-bar with N = 40: 81 bars through the "
                                         "horizontal again and again",
                                .rows = 2, .cols = 1, .width = 900, .height = 760, .panels = p};
        char path[4096];
        st = mbd_plot_svg(mbd_plot_path(path, sizeof path, prefix, "a02"), &fig, fail);
    }
    free(c);
    if (c != NULL || st == GSL_SUCCESS) {
        ch09_run_free(&r);
        ch09_model_free(&md);
    }
    free(t);
    free(x);
    free(y);
    return st;
}

/* PREFIX-governor.svg: the collar's height and the shaft's speed at C =
 * 7500, 12500, 17500 with their steady states */
static int governor_figure(const char *prefix, mbd_failure *fail)
{
    static const double Cs[3] = {7500.0, 12500.0, 17500.0};
    ch09_run r[3];
    ch09_model md[3];
    int nrun = 0, st = GSL_SUCCESS;
    double *w[3] = {NULL, NULL, NULL}, *yc[3] = {NULL, NULL, NULL};
    double tt[2] = {0.0, 10.0}, ws[3][2], ys[3][2];
    for (int i = 0; i < 3 && st == GSL_SUCCESS; i++) {
        const ch09_variant v = {.governor_c = Cs[i], .dt_out = 0.01};
        st = run_ok(&md[i], "flyball-governor.yaml", &v, &r[i], fail);
        if (st != GSL_SUCCESS)
            break;
        nrun++;
        w[i] = columns(2, r[i].rows);
        if (w[i] == NULL) {
            st = mbd_failure_set(fail, GSL_ENOMEM, NAN, "out of memory for a figure");
            break;
        }
        yc[i] = w[i] + r[i].rows;
        size_t cs = 0, cc = 0;
        mbd_spatial_body_coordinates(md[i].sm, mbd_spatial_body_index(md[i].sm, "shaft"), &cs);
        mbd_spatial_body_coordinates(md[i].sm, mbd_spatial_body_index(md[i].sm, "collar"), &cc);
        for (size_t k = 0; k < r[i].rows; k++) {
            double om[3];
            mbd_spatial_ep_omega(r[i].q + k * r[i].n + cs + 3, r[i].qd + k * r[i].n + cs + 3, om);
            w[i][k] = om[1];
            yc[i][k] = 100.0 * r[i].q[k * r[i].n + cc + 1];   /* cm */
        }
        const double y_ss = 0.05 - 25.0 / Cs[i];
        ys[i][0] = ys[i][1] = 100.0 * y_ss;
        ws[i][0] = ws[i][1] = ch09_governor_omega(y_ss, NULL);
    }
    if (st == GSL_SUCCESS) {
        static const char *const lab[3] = {"C = 7500", "C = 12500", "C = 17500"};
        static const char *const col[3] = {"#1f77b4", "#d62728", "#2ca02c"};
        mbd_series s0[6], s1[6];
        char sty[3][64], sty2[3][64];
        for (int i = 0; i < 3; i++) {
            snprintf(sty[i], sizeof sty[i], "lines lw 1.5 lc rgb '%s'", col[i]);
            snprintf(sty2[i], sizeof sty2[i], "lines lw 1 dt 2 lc rgb '%s'", col[i]);
            s0[i] = (mbd_series){lab[i], r[i].t, yc[i], r[i].rows, sty[i], 0};
            s0[3 + i] = (mbd_series){i == 0 ? "steady states 0.05 - 25/C" : NULL, tt, ys[i], 2,
                                     sty2[i], 0};
            s1[i] = (mbd_series){lab[i], r[i].t, w[i], r[i].rows, sty[i], 0};
            s1[3 + i] = (mbd_series){i == 0 ? "steady states (the arms' balance)" : NULL, tt,
                                     ws[i], 2, sty2[i], 0};
        }
        const mbd_panel p[2] = {
            {.title = "the collar's height", .xlabel = "t [s]", .ylabel = "y [cm]",
             .series = s0, .nseries = 6, .extra = "set key bottom left font ',9'"},
            {.title = "the shaft's angular velocity", .xlabel = "t [s]",
             .ylabel = "omega [rad/s]", .series = s1, .nseries = 6,
             .extra = "set key bottom left font ',9'"},
        };
        const mbd_figure fig = {.title = "The flyball governor (BDF2, h = 1e-3) against its "
                                         "steady states",
                                .rows = 2, .cols = 1, .width = 900, .height = 800, .panels = p};
        char path[4096];
        st = mbd_plot_svg(mbd_plot_path(path, sizeof path, prefix, "governor"), &fig, fail);
    }
    for (int i = 0; i < nrun; i++) {
        free(w[i]);
        ch09_run_free(&r[i]);
        ch09_model_free(&md[i]);
    }
    return st;
}

/* PREFIX-smd.svg: the spring-mass-damper against its closed form at the
 * document's h and at h/2 */
static double smd_closed(double t)
{
    const double w = sqrt(99.0);
    return 0.02 * exp(-t) * (cos(w * t) + sin(w * t) / w);
}

static int smd_figure(const char *prefix, mbd_failure *fail)
{
    ch09_model md[2];
    ch09_run r[2];
    double *c[2] = {NULL, NULL};
    int nrun = 0, st = GSL_SUCCESS;
    for (int i = 0; i < 2 && st == GSL_SUCCESS; i++) {
        const ch09_variant v = {.h = i == 0 ? 0.0 : 5e-3};
        st = run_ok(&md[i], "spring-mass-damper.yaml", &v, &r[i], fail);
        if (st != GSL_SUCCESS)
            break;
        nrun++;
        c[i] = columns(3, r[i].rows);
        if (c[i] == NULL) {
            st = mbd_failure_set(fail, GSL_ENOMEM, NAN, "out of memory for a figure");
            break;
        }
        size_t cm = 0;
        mbd_spatial_body_coordinates(md[i].sm, mbd_spatial_body_index(md[i].sm, "mass"), &cm);
        const size_t N = r[i].rows;
        for (size_t k = 0; k < N; k++) {
            c[i][k] = r[i].q[k * r[i].n + cm];
            c[i][N + k] = smd_closed(r[i].t[k]);
            const double d = fabs(c[i][k] - c[i][N + k]);
            c[i][2 * N + k] = d > 0 ? d : NAN;
        }
    }
    if (st == GSL_SUCCESS) {
        const size_t N0 = r[0].rows, N1 = r[1].rows;
        mbd_series s0[2] = {{"BDF2, h = 1e-2", r[0].t, c[0], N0, "points pt 7 ps 0.35", 0},
                            {"0.02 e^{-t} (cos wt + sin(wt)/w), w = sqrt(99)", r[0].t,
                             c[0] + N0, N0, "lines lw 1", 0}};
        mbd_series s1[2] = {{"h = 1e-2", r[0].t, c[0] + 2 * N0, N0, "lines lw 1.5", 0},
                            {"h = 5e-3", r[1].t, c[1] + 2 * N1, N1, "lines lw 1.5", 0}};
        const mbd_panel p[2] = {
            {.title = "x of the mass", .xlabel = "t [s]", .ylabel = "x [m]", .series = s0,
             .nseries = 2, .extra = "set key top right font ',9'"},
            {.title = "|x - closed form|", .xlabel = "t [s]", .ylabel = "[m]", .logy = 1,
             .series = s1, .nseries = 2,
             .extra = "set key top right font ',9'\nset yrange [1e-9:1e-3]\n"
                      "set format y '10^{%L}'"},
        };
        const mbd_figure fig = {.title = "The spring-mass-damper (k = 100, c = 2, m = 1) against "
                                         "its closed form",
                                .rows = 1, .cols = 2, .width = 1000, .height = 420, .panels = p};
        char path[4096];
        st = mbd_plot_svg(mbd_plot_path(path, sizeof path, prefix, "smd"), &fig, fail);
    }
    for (int i = 0; i < nrun; i++) {
        free(c[i]);
        ch09_run_free(&r[i]);
        ch09_model_free(&md[i]);
    }
    return st;
}

int ch09_figures(const char *prefix, mbd_failure *fail)
{
    int st = slider_figure(prefix, fail);
    if (st == GSL_SUCCESS)
        st = pendulum_figure(prefix, fail);
    if (st == GSL_SUCCESS)
        st = smd_figure(prefix, fail);
    if (st == GSL_SUCCESS)
        st = governor_figure(prefix, fail);
    if (st == GSL_SUCCESS)
        st = a01_figure(prefix, fail);
    if (st == GSL_SUCCESS)
        st = a02_figure(prefix, fail);
    return st;
}
