/* chapters/03-pendulum/study.h -- one run of a method on the pendulum, and
 * its accuracy against the exact solution.
 *
 * A method is one of the library's formulations by name (formulation.h:
 * projection, projection-baumgarte, penalty, penalty-baumgarte,
 * penalty-baumgarte-printed, alternate-penalty, index2-penalty) or "direct",
 * the reduced ODE theta'' = -(g/L) sin theta. Everything but "direct" goes
 * through mbd_simulate(): formulation -> integrator -> (projection) -> output.
 */
#ifndef CH03_STUDY_H
#define CH03_STUDY_H

#include "mbd/simulate.h"
#include "mbd/study.h"
#include <stdio.h>

#include "mbd/cli.h"
#include "mbd/io.h"
#include "model.h"
#include "reference.h"

/* A run of the chapter: the library's method-run spec (study.h), whose
 * method may also be "direct". */
typedef mbd_study_spec ch03_spec;

/* The document's defaults: penalty, ode23, mu = 1e5, alpha = beta = 20,
 * t_end = 5 s, dt_out = 1e-4 s (Table 2), max_violation 1. */
void ch03_spec_default(ch03_spec *s);

typedef struct {
    int status;              /* GSL_SUCCESS, or what stopped the run */
    mbd_failure fail;
    mbd_sim_stats stats;     /* counters, max |C|, |C'|, |E - E0| */
    ch03_errors err;         /* against the exact solution, up to where it ran */
    double seconds;          /* wall-clock time of the integration */
    const char *integrator;  /* the integrator actually used */
    int forced_msbdf;        /* index2-penalty: msbdf replaced the one asked for */
} ch03_result;

/* 1 when `method` names a method of the chapter. */
int ch03_method_known(const char *method);
/* 1 for the methods that use mu, and alpha/beta. */
int ch03_method_uses_mu(const char *method);
int ch03_method_uses_baumgarte(const char *method);

/* Runs spec on the pendulum p; hist (may be NULL) receives the outputs. A
 * failure of the run (a violation above max_violation, a non-finite state) is
 * not an error of this function: it is in r->status and r->fail, with the
 * history and errors up to that time. Returns MBD_EINPUT for a bad spec (an
 * unknown method, --project with index2-penalty or direct), or a status of
 * the comparison. */
int ch03_run(const ch03_pendulum *p, const ch03_spec *spec, mbd_history *hist, ch03_result *r);

/* The time the run's |C| first exceeded `level` (NAN when it never did). */
double ch03_violation_time(const mbd_history *h, double level);

/* ------------------------------------------------------------------------ */
/* The document's in-function corrections (listings A.2.a, A.2.c, A.2.f)     */

/* MATLAB's `while abs(v) > tol` for a vector v: the loop body runs only when
 * every element of abs(v) > tol is true (and v is not empty). */
int ch03_matlab_while(const double v[], size_t n, double tol);

/* Over the rows of a history: how many states would enter the document's
 * displacement-correction loop (MATLAB's rule on C = (x^2 + y^2 - L^2, z)),
 * and how many have |C_1| > tol, where a loop that tested any element would
 * have run. */
void ch03_dead_corrections(const ch03_pendulum *p, const mbd_history *h, double tol,
                           long *matlab_runs, long *any_runs);

/* ------------------------------------------------------------------------ */
/* The story's computations                                                  */

#define STORY_DT 1e-3     /* output spacing of the story's time histories */
#define SWEEP_DT 1e-2     /* output spacing of the penalty-factor sweeps */
#define N_MU 8            /* mu = 10 ... 1e8 */
#define SQRT20 4.47213595499958
#define CORRECTION_TOL 1e-10   /* the listings' "constraint tolerance" */
#define IDX2_EXPLICIT_T 0.05   /* how long eq. (58) is run with ode23 */

/* The methods in the order of the document's Sec. 2.4.1, with its mean CPU
 * times (100 runs, MATLAB R2014a, Sec. 2.4.1 and Table 1). */
typedef struct {
    const char *method;
    const char *listing;
    double doc_seconds;
} method_row;

static const method_row METHODS[] = {
    {"direct", "A.2.g", 0.8391},
    {"projection", "A.2.c", 1.0887},
    {"projection-baumgarte", "A.2.d", 0.9484},
    {"penalty", "A.2.a", 0.9365},
    {"penalty-baumgarte", "A.2.b*", 1.0045},
    {"alternate-penalty", "A.2.e", 1.6363},
    {"index2-penalty", "A.2.f*", 1.1308},
    {"penalty-baumgarte-printed", "A.2.b", NAN},
};
#define N_METHODS (sizeof METHODS / sizeof METHODS[0])
enum { M_DIRECT, M_PROJ, M_PROJ_B, M_PEN, M_PEN_B, M_ALT, M_IDX2, M_PRINTED };

/* Table 1 (CPU seconds, pendulum, mean of 100 runs) */
static const double DOC_TABLE1[3][N_MU] = {
    {1.1112, 0.9061, 0.9291, 0.9457, 0.9365, 0.9418, 0.9555, 0.9373},
    {0.9679, 0.9441, 0.9461, 0.9825, 1.0045, 0.9546, 0.9673, 0.9409},
    {0.8816, 0.9254, 0.9874, 1.1233, 1.6363, 2.7658, 6.8599, 19.3364},
};
static const char *const SWEEP_METHODS[3] = {"penalty", "penalty-baumgarte", "alternate-penalty"};

/* Everything the story computes, once. */
typedef struct {
    ch03_pendulum p;
    ch03_exact ex;
    mbd_fdcheck fd[3];
    double lambda_bottom, lambda_penalty;
    /* every method under ode23 and under tight (story output spacing) */
    mbd_history h23[N_METHODS], htight[N_METHODS];
    ch03_result r23[N_METHODS], rtight[N_METHODS];
    double vs_direct[N_METHODS];          /* max position difference from direct ode23 */
    /* the text's beta = sqrt(20) (ode23): projection-baumgarte, penalty-baumgarte, printed */
    mbd_history hb[3];
    ch03_result rb[3];
    /* Table 1: penalty, penalty-baumgarte, alternate-penalty under ode23 */
    double mus[N_MU];
    ch03_result sweep[3][N_MU];
    ch03_result tsweep[N_MU];             /* penalty under tight */
    /* the alternate penalty at a fixed step */
    ch03_result go_fixed[2];              /* mu = 1e7, 1e8 */
    /* corrections */
    long matlab_runs, any_runs;
    size_t states;
    ch03_result proj_run[2][2];           /* projection, penalty x (grid outputs, step ends) */
    /* index-2 penalty */
    double idx2_mu[3];
    ch03_result idx2[3];
    mbd_sim_stats idx2_explicit;          /* eq. (58) under ode23 for IDX2_EXPLICIT_T s */
    int idx2_explicit_status;
    /* differences of the document's Figs. 8-10 under ode23 */
    double pen_vs_proj_end, penb_vs_projb;
    double printed_rate[2];
    int computed;
} ch03_study;

/* A spec of the document's data for method and integrator (a preset). */
void ch03_spec_for(ch03_spec *s, const char *method, const char *integrator, double dt_out);
/* Everything the story and the figures show, computed once. */
int ch03_compute(ch03_study *S);
ch03_study *ch03_study_alloc(void);
void ch03_study_free(ch03_study *S);

/* The program (main.c reads the options into it; mbd_cli_dispatch calls the
 * parts below). */
typedef struct {
    const mbd_cli_common *opt;
    ch03_spec spec;              /* one run's */
    ch03_study *S;               /* the story's computations */
} ch03_program;
int ch03_program_bench(void *prog, long repeats, mbd_failure *fail);
int ch03_program_figures(void *prog, const char *prefix, mbd_failure *fail);
int ch03_program_run(void *prog, mbd_failure *fail);
int ch03_program_story(void *prog, FILE *out, int no_timing, mbd_failure *fail);

/* The story (story.c) and the figures (figures.c). */
int ch03_story(FILE *out, ch03_study *S, int no_timing);
int ch03_write_figures(const char *prefix, ch03_study *S, mbd_failure *fail);
/* One run from the command line (story.c): its summary keys, or a report. */
int ch03_write_summary(FILE *out, const ch03_spec *spec, const ch03_result *r,
                       const ch03_exact *e);
void ch03_write_report(FILE *out, const ch03_spec *spec, const ch03_result *r,
                       const mbd_history *h, const ch03_pendulum *p, const ch03_exact *e,
                       int no_timing);
/* The benchmark cases (story.c): CSV rows on stdout. */
int ch03_bench(long repeats, ch03_study *S);

/* The animations (animate.c): one run's (--animate with run options), over
 * the span the options asked for, and the chapter's (--animate alone: the
 * stable and the printed Baumgarte sign side by side). */
int ch03_animate_run(const char *path, const mbd_cli_common *opt, const ch03_spec *spec,
                     const ch03_result *r, const mbd_history *h, mbd_failure *fail);
int ch03_program_animate(void *prog, const char *path, mbd_failure *fail);

#endif
