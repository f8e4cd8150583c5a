/* study.h -- chapter 07's computing: one run of the null-space formulation
 * (the projected equations on the QR tangent basis, the library's
 * "nullspace" kind) on a mechanism, with its per-output record (positions,
 * velocities, the generalised coordinates and speeds, the singularity
 * monitor, constraint and energy), and everything the story, the figures
 * and the tests compute. The chapter's tests link it.
 */
#ifndef CH07_STUDY_H
#define CH07_STUDY_H

#include <stdio.h>

#include "mbd/cli.h"
#include "mbd/formulation.h"
#include "mbd/nullspace.h"
#include "mbd/ode.h"
#include "model.h"
#include "reference.h"

#define CH07_T_END 2.0           /* s: the document's span */
#define CH07_H 1e-4              /* s: its step (RK4 here) */
#define CH07_DT_OUT 1e-3         /* s: the default output spacing */
#define CH07_MAX_K 8             /* the most generalised coordinates a record keeps */
#define CH07_MAX_SING 64         /* the singular instants a record keeps (the first) */

/* --continuation and --rank */
extern const char *const ch07_continuation_names[];
extern const char *const ch07_continuation_descriptions[];
int ch07_continuation_of(const char *name, mbd_nullspace_continuation *c);
const char *ch07_continuation_name(mbd_nullspace_continuation c);
extern const char *const ch07_rank_names[];
extern const char *const ch07_rank_descriptions[];

/* One run's settings */
typedef struct {
    ch07_scenario scenario;
    double omega;                /* the cranks' initial speed (rad/s) */
    int omega_given;             /* 0: the scenario's */
    mbd_nullspace_continuation continuation;
    double tol_rank, tol_sing;
    int dynamic_rank;            /* 1: the rank at tol_sing inside singular windows */
    mbd_ode_params ode;
    double t_end, dt_out;
    long max_steps, max_outputs;
} ch07_spec;

/* The scenario's defaults: procrustes continuation, RK4 at h = 1e-4 s,
 * t = 0 ... 2 s (the stop cases 1.2 s, the pendulum 1 s), outputs every
 * 1e-3 s, tol_rank 1e-8, tol_sing 1e-3, dynamic rank. */
void ch07_spec_default(ch07_spec *s, ch07_scenario scenario);

/* One run and its record. Rows are the outputs; per row n positions and
 * velocities, k generalised coordinates and speeds (k = the structural
 * degrees of freedom; in a singular window the extra ones are not kept),
 * and the scalars. */
typedef struct {
    size_t n, m, k, rows, cap;
    double *t, *q, *qd, *z, *v;
    double *r_min;               /* |R_rr| (r the structural rank) at the output */
    double *ratio;               /* |R_rr| / |R_11| */
    double *c_norm, *E;          /* |C| and the energy (with the torque's potential) */
    size_t *dof_used;            /* the basis integrated with at the last step end */
    mbd_formulation_nullspace_report rep;
    size_t nsing;                /* the singular instants detected; the first
                                    CH07_MAX_SING of them, their times and dof */
    double sing_t[CH07_MAX_SING];
    size_t sing_dof[CH07_MAX_SING];
    mbd_run_stats stats;
    int status;                  /* GSL_SUCCESS or what stopped the run */
    mbd_failure fail;
    double E0, max_energy_error, max_c_norm;
    double max_dv;               /* the largest change of a generalised speed between outputs */
    double seconds;
} ch07_run;

void ch07_run_init(ch07_run *r);
void ch07_run_free(ch07_run *r);

/* Runs spec on md (built, with spec's omega applied by the caller through
 * md->omega). A setup error (bad settings, no memory) is returned; a
 * failure of the run is in r->status with its cause in r->fail (the record
 * up to it kept). */
int ch07_run_spec(const ch07_model *md, const ch07_spec *spec, ch07_run *r);

/* The row of r nearest to time t. */
size_t ch07_run_row(const ch07_run *r, double t);

/* The largest |q_a - q_b| between two runs' positions at the output times
 * both have. */
double ch07_run_position_difference(const ch07_run *a, const ch07_run *b);

/* ------------------------------------------------------------------------ */
/* Census and the basis at a singular configuration                          */

typedef struct {
    size_t n, m, rank, d, dof;           /* at the regular start (tol_rank) */
    size_t rank_h, d_h, dof_h;           /* with every bar horizontal (tol_rank) */
    double diag[64];                     /* the sorted |R_ii| at the start (min(m, n)) */
    double prod;                         /* their product */
    double E0, speed0;                   /* E at the start, |q'(0)| */
} ch07_census;

int ch07_census_of(const ch07_model *md, ch07_census *c);

/* The principal angles (radians, ascending) between the span of the
 * null-space basis at the horizontal (rank at tol_sing) of the 4-bar and
 * the analytic modes (parallelogram, folding about A = D) of the guide's
 * Sec. 8; returns the basis's column count. */
size_t ch07_fourbar_modes(const ch07_model *md, double theta, double tol, double angles[2],
                          double T[], size_t cap);

/* ------------------------------------------------------------------------ */
/* The story's computations                                                  */

#define CH07_NMON 9               /* the story's sample of the 4-bar's monitor */
#define CH07_NTOL 3              /* the torque at tol_sing = 1e-2, 1e-3, 1e-4 */
#define CH07_NOTHERS 5            /* double, mod2, mod2x2, mod3, mod2x3 */
#define CH07_H_OTHERS 1e-3        /* s: their step in the story (a tenth of the cost) */
#define CH07_TOL_SING_OTHERS 1e-2 /* and the singular flag that steps of 1e-3 s resolve */
extern const double ch07_tol_sings[CH07_NTOL];
extern const ch07_scenario ch07_others[CH07_NOTHERS];

/* |theta3 - pi| and |theta2 - (theta1 - pi)| (mod 2 pi) at the end of a
 * 4-bar run: both 0 on the folded branch */
void ch07_branch_of(const ch07_run *r, double *bar3, double *fold);

typedef struct {
    ch07_census census[CH07_NSCENARIOS];
    /* Step 2: the 4-bar at omega = 4: continued, traditional, skew update */
    ch07_run four_cont, four_trad, four_full;
    double ref_times[8];
    size_t n_ref;
    double max_time_error;               /* detected vs reference horizontal instants */
    double position_difference;          /* continued vs traditional */
    double position_difference_full;     /* continued vs the skew update */
    double sqrt_S;                       /* |q'(0)| / omega */
    double q_invariant_error;            /* |z -+ sqrt(S)(theta1 - theta1(0))| */
    int q_invariant_sign;
    double modes[2];                     /* principal angles at theta = pi */
    size_t modes_k;
    double T_sing[9 * 2];
    double four_min_ratio;
    size_t n_mon;                        /* the monitor and the speeds at a few instants */
    double mon_t[CH07_NMON], mon_diag[CH07_NMON][8], mon_v_trad[CH07_NMON],
        mon_v_cont[CH07_NMON];
    /* Step 3: the stop */
    ch07_run stop;
    double stop_speed, stop_time, stop_min_speed, stop_t_min_speed, stop_min_ratio;
    /* Step 4: the torque */
    ch07_run torque[CH07_NTOL], fixed_torque;
    double torque_bar3[CH07_NTOL], torque_fold[CH07_NTOL], fixed_bar3, fixed_fold;
    /* Step 5: the other systems, continued */
    ch07_run other[CH07_NOTHERS];
    double other_time_error[CH07_NOTHERS];
    /* Step 6: the pendulum at h = 1e-4 and 1e-3 */
    ch07_run pend_h4, pend_h3;
    double pend_difference, pend_r_min, pend_r_max;
    int computed;
} ch07_study;

ch07_study *ch07_study_alloc(void);
void ch07_study_free(ch07_study *s);
int ch07_study_compute(ch07_study *s, mbd_failure *fail);

/* The program (main.c reads the options into it; mbd_cli_dispatch calls the
 * parts below, in story.c). */
typedef struct {
    const mbd_cli_common *opt;
    ch07_spec spec;
    ch07_model md;
    ch07_study *s;
} ch07_program;
int ch07_program_bench(void *prog, long repeats, mbd_failure *fail);
int ch07_program_figures(void *prog, const char *prefix, mbd_failure *fail);
int ch07_program_run(void *prog, mbd_failure *fail);
int ch07_program_story(void *prog, FILE *out, int no_timing, mbd_failure *fail);

/* The animations (animate.c): one run's (--animate with run options), over
 * the span the options asked for, and the chapter's (--animate alone: the
 * 4-bar through the horizontal, traditional basis beside continued). */
int ch07_animate_run(const char *path, const mbd_cli_common *opt, const ch07_model *md,
                     const ch07_spec *spec, const ch07_run *r, mbd_failure *fail);
int ch07_program_animate(void *prog, const char *path, mbd_failure *fail);

int ch07_story(FILE *out, ch07_study *s, int no_timing, mbd_failure *fail);
int ch07_figures(ch07_study *s, const char *prefix, mbd_failure *fail);

#endif
