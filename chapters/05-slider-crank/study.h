/* study.h -- one simulation of the slider-crank, and what the chapter
 * measures on it: errors against the reduced reference, the branch
 * invariants, the energy, the fold and the branch taken after it.
 */
#ifndef CH05_STUDY_H
#define CH05_STUDY_H

#include <stdio.h>

#include "mbd/cli.h"
#include "mbd/simulate.h"
#include "mbd/study.h"
#include "reference.h"
#include "model.h"

/* where a run's approach to the fold is measured: th1 = 0.05 rad, some 30 ms before it */
#define CH05_APPROACH 0.05

typedef struct {
    mbd_study_spec run;          /* the library's method run (study.h); its record_condition
                                    here measures the condition number of the formulation's
                                    own matrix at the outputs (runs.c does it) */
    ch05_mass_kind mass;         /* which mass matrix drives the motion */
    int reference_dense;         /* errors against the reference read from one dense-output
                                    run (ch05_reference_tabulate_dense), for a run whose
                                    errors are 1e-6 and larger; 0: stepped onto every output */
    int no_history;              /* keep no history (r->hist stays empty): every measure is
                                    folded at the outputs as they come, so a summary alone
                                    needs none */
} ch05_spec;

/* The document's run: penalty-baumgarte, ode23, the document's mass matrix,
 * mu = 1e5, alpha = beta = 20, 1.8 s, outputs every 1e-4 s, |C| <= 1. */
void ch05_spec_document(ch05_spec *s);

/* Which branch through the fold a state is on. */
typedef enum {
    CH05_BRANCH_NONE,            /* the fold was not passed */
    CH05_BRANCH_SAME,            /* th2 = pi - 2 th1: the reduced reference's */
    CH05_BRANCH_FOLDED,          /* th2 = pi, x3 = 0: the rods folded onto each other */
    CH05_BRANCH_UNDECIDED        /* too close to the fold to tell, or on neither */
} ch05_branch;

const char *ch05_branch_name(ch05_branch b);

typedef struct {
    ch05_model model;
    ch05_probe probe;
    mbd_system sys;
    mbd_history hist;
    mbd_sim_stats stats;
    mbd_failure fail;
    int status;                  /* of mbd_simulate */
    /* against the reduced reference of the run's mass matrix, over all outputs */
    double max_pos_err, max_vel_err;
    double max_invariant;        /* largest distance from the branch th2 = pi - 2 th1 before the fold */
    double max_x3, t_max_x3;     /* the slider's farthest point and when */
    double fold_time;            /* th1 changes sign (interpolated between outputs); NAN: not reached */
    double fold_reference;       /* the reference's fold time */
    double fold_c2;              /* C2 (the height of rod 2's end) at the last output with
                                    th1 >= CH05_APPROACH before the fold: the drift the run brings */
    double fold_step;            /* the integrator's step across the fold, and */
    double fold_rate;            /* th1' there: the step covers |th1'| h of th1 */
    ch05_branch branch;          /* where the run is at its last output */
    double max_schur_cond;       /* the largest cond(S) at the outputs (running mass matrix) */
    double max_own_cond;         /* with record_condition: the largest condition number of the
                                    matrix the formulation solves with (S for the projection,
                                    M + mu C_q^T C_q for the penalty; 1-norm estimate), NAN without */
} ch05_run;

/* Runs the spec and measures it at every output as it comes (the library's
 * output observer, study.h): the reference is set up at the first output. Returns the status of the allocation
 * (MBD_EINPUT for a spec the library refuses); the simulation's own status is
 * in r->status and r->fail (a failure is a result, not an error). ref is the
 * reference of the spec's mass matrix: zeroed ({0}) before its first use, it
 * is set up here, and kept (with its table of output times) for the next run
 * with the same mass matrix. */
int ch05_run_spec(ch05_run *r, const ch05_spec *spec, ch05_reference *ref);
void ch05_run_init(ch05_run *r);
void ch05_run_free(ch05_run *r);

/* Errors of the history against the reference over the outputs with
 * t <= t_max: positions, velocities, the branch invariant. */
int ch05_run_errors(const ch05_run *r, ch05_reference *ref, double t_max, double *pos,
                    double *vel, double *invariant);

/* The largest difference per coordinate (q then q', 6 values) between two
 * histories with the same output times, over t <= t_max. */
void ch05_run_difference(const ch05_run *a, const ch05_run *b, double t_max, double diff[6]);

/* The largest |E - E0| over the outputs with t <= t_max. */
double ch05_run_energy_error(const ch05_run *r, double t_max);

/* ------------------------------------------------------------------------ */
/* The story's computations                                                  */

#define T_DOC 1.8           /* the document's horizon, before the document model's fold */
#define T_CONSISTENT 1.7    /* before the consistent model's fold */
#define T_THROUGH 2.0       /* runs through both folds */

/* Table 4 as printed, and the document's mean run times (Sec. 2.4.3) */
static const double DOC_Q0[3] = {2.3562, -1.5708, 2.8284};
static const double DOC_SECONDS_PROJECTION = 0.3085, DOC_SECONDS_PENALTY = 0.3141;

enum { M_PROJ, M_PROJ_B, M_PEN, M_PEN_B, N_METHODS };
static const char *const METHODS[N_METHODS] = {"projection", "projection-baumgarte", "penalty",
                                               "penalty-baumgarte"};
enum { I_ODE23, I_TIGHT, N_INTEG };
static const char *const INTEGRATORS[N_INTEG] = {"ode23", "tight"};
static const double HORIZON[2] = {T_DOC, T_CONSISTENT};   /* by mass kind */

/* Everything the story computes. */
typedef struct {
    ch05_model model;                       /* Table 4, document's mass matrix */
    double q0[3], qd0[3], E0, C0[2];
    mbd_fdcheck fd_code, fd_printed;
    double vel_terms_doc[3], vel_terms_lagrange[3];
    double Md[9], Mc[9];                    /* at q0 */
    ch05_reference ref[2];                  /* by mass kind */
    double fold[2], t_x3max[2];
    double E_ref_max_drift, E_ref_min, t_E_ref_min;   /* document model, true energy */
    /* Step 4: the document's two runs */
    ch05_run pen, proj;
    double seconds_pen, seconds_proj;
    /* Steps 5 and 7: mass x method x integrator, to T_THROUGH */
    ch05_run runs[2][N_METHODS][N_INTEG];
    ch05_run post[2];                       /* projection + post-step projection, ode23 */
    /* Step 7: the exact fold */
    int fold_status[2];
    char fold_cause[2][256];
    ch05_run on_fold[2];                    /* tight projection stopping on the fold */
    /* Step 8 */
    ch05_run printed;
} ch05_study;

/* The story's runs: method x integrator on the study's model. */
int ch05_run_one(ch05_study *s, ch05_run *r, const char *method, const char *integrator,
                 ch05_mass_kind mass, double t_end, int project);
/* Everything the story and the figures show, computed once. */
int ch05_compute(ch05_study *s);
ch05_study *ch05_study_alloc(void);
void ch05_study_free(ch05_study *s);

/* The story (story.c) and the figures (figures.c). */
int ch05_story(FILE *out, ch05_study *s, int no_timing);
int ch05_write_figures(const char *prefix, ch05_study *s, mbd_failure *fail);
/* One run's motion: theta1, theta2, x3 against time (figures.c). */
int ch05_motion_figure(const char *path, const char *title, const ch05_run *r,
                       mbd_failure *fail);

/* The program (main.c reads the options into it; mbd_cli_dispatch calls the
 * parts below, in story.c). */
typedef struct {
    const mbd_cli_common *opt;
    ch05_spec spec;              /* one run's */
    ch05_study *s;               /* the story's computations */
    int computed;
} ch05_program;
int ch05_program_bench(void *prog, long repeats, mbd_failure *fail);
int ch05_program_figures(void *prog, const char *prefix, mbd_failure *fail);
int ch05_program_run(void *prog, mbd_failure *fail);
int ch05_program_story(void *prog, FILE *out, int no_timing, mbd_failure *fail);

/* The benchmark cases (story.c): CSV rows on stdout. */
int ch05_run_benchmarks(long repeats);

/* The animations (animate.c): one run's (--animate with run options), over
 * the span the options asked for, and the chapter's (--animate alone: the
 * penalty with and without Baumgarte through the fold). */
int ch05_animate_run(const char *path, const mbd_cli_common *opt, const ch05_spec *spec,
                     const ch05_run *r, mbd_failure *fail);
int ch05_program_animate(void *prog, const char *path, mbd_failure *fail);

#endif
