/* figures.c -- chapter 01's figure (gnuplot SVG through io.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_machine.h>

#include "mbd/cli.h"
#include "mbd/io.h"
#include "study.h"

int ch01_write_figures(const char *prefix, const ch01_problem *p, mbd_failure *fail)
{
    double k[N_SWEEP], eps_cond[N_SWEEP], slope[N_SWEEP];
    for (int i = 0; i < N_SWEEP; i++) {
        k[i] = p->sweep_C[i];
        eps_cond[i] = GSL_DBL_EPSILON * p->sweep_cond[i];
        slope[i] = p->sweep_error[0] * p->sweep_C[0] / p->sweep_C[i];   /* ~ 1/C */
    }
    const mbd_series s[] = {
        {"penalty error ||Q - Q_{exact}|| / ||Q_{exact}||", k, p->sweep_error, N_SWEEP, "linespoints", 0},
        {"1/C trend", k, slope, N_SWEEP, "lines dt 2", 0},
        {"rounding scale eps cond_2(K_c)", k, eps_cond, N_SWEEP, "lines dt 3", 0},
    };
    /* a vertical line at the document's choice, C = max|K| x 10^4 */
    char extra[256] = "set key bottom left\nset yrange [1e-17:1]\n";
    mbd_plot_marker(extra, sizeof extra, p->C, "document's C", 0);
    const mbd_panel panel = {
        .title = "Static penalty: error against the penalty factor (document 000, Fig. 1 bar)",
        .xlabel = "penalty factor C  [N/mm]",
        .ylabel = "relative error",
        .logx = 1, .logy = 1,
        .series = s, .nseries = 3,
        .extra = extra,
    };
    const mbd_figure fig = {.panels = &panel};
    char path[1024];
    return mbd_plot_svg(mbd_plot_path(path, sizeof path, prefix, "sweep"), &fig, fail);
}
/* << figure */

int ch01_program_figures(void *ctx, const char *prefix, mbd_failure *fail)
{
    ch01_program *prog = ctx;
    return ch01_write_figures(prefix, &prog->p, fail);
}
