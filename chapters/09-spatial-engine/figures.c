/* figures.c -- chapter 09's figures (--plot PREFIX), from the story's runs:
 * PREFIX-slider.svg (the driven slider-crank's x, x', x'' against the closed
 * form, and the differences), PREFIX-pendulum.svg (the driven pendulum's
 * torque and hinge force against the closed forms, and the differences). */
#include <math.h>
#include <stdlib.h>

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

int ch09_figures(const char *prefix, mbd_failure *fail)
{
    int st = slider_figure(prefix, fail);
    return st == GSL_SUCCESS ? pendulum_figure(prefix, fail) : st;
}
