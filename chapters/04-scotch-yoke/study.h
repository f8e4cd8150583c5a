/* study.h -- chapter 04's computing: one run of a method on the Scotch yoke
 * against the reference, and everything the story, the figures and the tests
 * compute (the story's runs, the reference tables, the penalty-factor sweep).
 * The chapter's tests link it.
 */
#ifndef CH04_STUDY_H
#define CH04_STUDY_H

#include <stdio.h>

#include "mbd/cli.h"
#include "mbd/study.h"
#include "mbd/system.h"
#include "model.h"
#include "reference.h"

#define NV 2                 /* the two readings of Table 3 */
#define REF_EPS 1e-13        /* the reference's tolerance (rk8pd) */
#define HMIN_EXPLICIT 1e-7   /* the story's adaptive explicit integrators give up below this step */

/* What to run: the library's method-run spec (study.h). */
typedef mbd_study_spec ch04_config;

/* One run: the library's result (status, failure, counters, time), with
 * the history (unless the run keeps none) and its errors against the
 * reference, and the last output. */
typedef struct {
    mbd_study_result res;
    mbd_history h;
    double err[4];               /* max |q - q_ref| for theta1, x2, theta1_dot, x2_dot */
    size_t rows;                 /* the outputs measured */
    double q_end[2], qd_end[2];  /* the last output's q and q' (rows > 0) */
} ch04_run;

/* The reference on an output grid, kept so that every run on that grid is
 * compared with the same numbers. */
typedef struct {
    size_t rows;
    double *t, *states;          /* states: 4 per row */
} ch04_grid;

/* the rows of the story's comparison: the document's two methods and both
 * without Baumgarte, and the projection with a post-step correction */
enum { R_PROJ, R_PROJ_B, R_PEN, R_PEN_B, R_PROJ_POST, NR };
typedef struct {
    const char *method;
    int project;
    const char *label;
} ch04_row;
extern const ch04_row ch04_rows[NR];
enum { I_ODE23, I_TIGHT, NI };
extern const char *const ch04_integrators[NI];

/* the penalty-factor sweep: mu = max(M) 10^k */
#define K_MIN 1
#define K_MAX 8
#define NK (K_MAX - K_MIN + 1)
#define SWEEP_DT 0.01

#define N_TIMES 8                /* the reference table: t = 0.5, 1, ..., 4 */

typedef struct {
    ch04_params p[NV];
    ch04_grid ref[NV];
    ch04_run run[NV][NR][NI];      /* histories kept for ode23 only */
    double diff_b[NV][NI][4];        /* max |penalty-baumgarte - projection-baumgarte| */
    double diff[NV][NI][4];          /* max |penalty - projection| */
    /* Step 1 */
    mbd_fdcheck fd;
    double C0, Cdot0;
    /* Step 3 */
    double table[NV][N_TIMES][4];
    double theta_min[NV], theta_max[NV];
    double ref_self[NV];             /* |reference(eps 1e-11) - reference(eps 1e-13)| in theta1 */
    /* Step 7 */
    double S_lo[NV], S_hi[NV];       /* C_q M^-1 C_q^T over the motion */
    double sweep_mu[NV][NK], sweep_err[NV][NK], sweep_cond[NV][NK];
    long sweep_steps[NV][NK];
    int sweep_status[NV][NK];
    int computed;
} ch04_study;

/* The reference on the run loop's output grid t0 + k dt_out (the last one
 * on t_end); ch04_grid_free releases it. */
int ch04_grid_compute(const ch04_params *p, double t_end, double dt_out, ch04_grid *r,
                      mbd_failure *fail);
void ch04_grid_free(ch04_grid *r);

/* max |history - reference| per state for a history of the run c; ref may
 * be NULL or on another grid, and then the reference is computed at the
 * history's own times (ch04_reference_seq over c's 0 ... t_end): read from
 * one dense-output run when c's tolerance is loose (1e-6 or more), else
 * stepped onto each time. */
int ch04_errors_against(const ch04_params *p, const ch04_config *c, const mbd_history *h,
                        const ch04_grid *ref, double err[4], mbd_failure *fail);

/* The document's run of `method` with `integrator` (a preset) on p: its mu,
 * alpha = beta = 20, 4 s every 1e-4 s, |C| <= 1; the story's adaptive explicit
 * integrators stop below a step of 1e-7 s. */
void ch04_config_default(ch04_config *c, const ch04_params *p, const char *method,
                         const char *integrator);

/* One time history of p with the method, integrator and options of c (the
 * library's mbd_study_run), and its errors against ref. A numerical failure
 * is recorded in r (the history holds the outputs up to it); only bad
 * parameters and lack of memory are returned. */
int ch04_run_case(const ch04_params *p, const ch04_config *c, const ch04_grid *ref,
                  ch04_run *r);

/* The same measures with no history kept (r->h stays empty): each output is
 * compared with the reference as it comes (ch04_reference_seq, the same
 * numbers as the history's comparison without a grid), which is what a
 * --summary run needs. */
int ch04_run_measured(const ch04_params *p, const ch04_config *c, ch04_run *r);

/* Everything the story and the figures show, computed once. */
int ch04_study_compute(ch04_study *s, mbd_failure *fail);
void ch04_study_free(ch04_study *s);

/* The program (main.c reads the options into it; mbd_cli_dispatch calls the
 * parts below). */
typedef struct {
    const mbd_cli_common *opt;
    ch04_params p;               /* one run's model */
    ch04_config c;               /* and spec */
    ch04_study *s;               /* the story's computations */
} ch04_program;
int ch04_program_bench(void *prog, long repeats, mbd_failure *fail);
int ch04_program_figures(void *prog, const char *prefix, mbd_failure *fail);
int ch04_program_run(void *prog, mbd_failure *fail);
int ch04_program_story(void *prog, FILE *out, int no_timing, mbd_failure *fail);

/* The animations (animate.c): one run's (--animate with run options), over
 * the span the options asked for, and the chapter's (--animate alone: the
 * two readings side by side). */
int ch04_animate_run(const char *path, const mbd_cli_common *opt, const ch04_params *p,
                     const ch04_config *c, const ch04_run *r, mbd_failure *fail);
int ch04_program_animate(void *prog, const char *path, mbd_failure *fail);

/* The story (story.c): its numbered steps on `out`. */
int ch04_story(FILE *out, ch04_study *s, int no_timing, mbd_failure *fail);
/* The figures (figures.c): PREFIX-motion.svg, -difference.svg, -error.svg. */
int ch04_write_figures(const char *prefix, ch04_study *s, mbd_failure *fail);
/* One run from the command line (story.c): its summary keys, or a report. */
int ch04_write_summary(FILE *o, const ch04_params *p, const ch04_config *c, const ch04_run *r);
void ch04_write_report(FILE *o, const ch04_params *p, const ch04_config *c, const ch04_run *r);
/* The benchmark cases (story.c): CSV rows on stdout. */
int ch04_bench(long repeats, ch04_study *s);

#endif
