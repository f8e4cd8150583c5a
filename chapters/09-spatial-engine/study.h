/* study.h -- chapter 09's computing: one analysis of a model (assembly,
 * kinematics, inverse dynamics; dynamics arrives with part 2) and its record,
 * CSV and summary (WORK IN PROGRESS: issue 19). */
#ifndef CH09_STUDY_H
#define CH09_STUDY_H

#include <stdio.h>

#include "mbd/cli.h"
#include "model.h"

typedef enum { CH09_ASSEMBLY, CH09_KINEMATICS, CH09_INVERSE_DYNAMICS, CH09_DYNAMICS } ch09_analysis;
extern const char *const ch09_analysis_names[];
extern const char *const ch09_analysis_descriptions[];

/* One run: the analysis and its settings. ch09_spec_of_model fills it from
 * the model file's `analysis` (the program's options then override). */
typedef struct {
    ch09_analysis analysis;
    double t0, t_end, h;
    int assemble;                  /* assemble at t0 first (default 1) */
    int auto_analysis;             /* the file has none: kinematics when fully driven, else assembly */
    int reactions;
    mbd_spatial_options opts;      /* Newton's tolerance and iterations (0: the library's) */
    /* dynamics (mbd_spatial_dynamics_*) */
    unsigned integrator;           /* an index into ch09_integrator_names (default bdf2) */
    mbd_spatial_newton newton;     /* default quasi */
    int adaptive;                  /* the file gives rtol or atol */
    double rtol, atol;             /* 0: the library's */
    double dt_out;                 /* 0: every step */
    mbd_linsolve_kind linear_solver;   /* default sparse (KLU) */
} ch09_spec;

/* The integrators of the dynamics, by name: bdf1 ... bdf5 (the index-3 BDF
 * of that highest order), and the index-1 formulation with projection under
 * an explicit Runge-Kutta preset of ode.h (tight, rk8pd); NULL-terminated,
 * with descriptions for --help and --list. */
extern const char *const ch09_integrator_names[];
extern const char *const ch09_integrator_descriptions[];
#define CH09_BDF2 1u               /* the index of bdf2, the document's */
/* the index of a name; MBD_EINPUT for one that is not there */
int ch09_integrator_of(const char *name, unsigned *index);
/* bdf1 ... bdf5: their order; the Runge-Kutta presets (index 1): 0 */
unsigned ch09_integrator_order(unsigned integrator);

#define CH09_T_END 1.0             /* when neither the file nor --t-end says */
#define CH09_H 1e-2
#define CH09_MAX_STEPS 1000000     /* a run records every step */

/* The file's analysis into *spec; a file without one gets kinematics when
 * the model is fully driven and assembly otherwise. MBD_EINPUT (with
 * "FILE:LINE:COL: ..." in fail) for settings this program cannot honour. */
int ch09_spec_of_model(const ch09_model *md, ch09_spec *spec, mbd_failure *fail);

typedef struct {
    size_t n, rows, cap, npoints, njoints;
    double *t, *q, *qd, *qdd, *points, *C, *E, *react;   /* per row: 1, n, n, n, 3 npoints, 1,
                                                            1, 6 njoints; qdd 0 in an assembly */
    mbd_spatial_report assembly;   /* empty when the spec did not assemble */
    int assembly_failed;
    mbd_spatial_report velocity;   /* the initial velocities' solve */
    int ranked;                    /* the next three are known (the start was consistent) */
    size_t rank, dof;              /* of [Phi_q] at the initial configuration */
    mbd_spatial_report structure;  /* that rank decision, with the rows it set aside */
    size_t velocities_known;       /* moving bodies whose velocities the file gives */
    ch09_analysis analysis;        /* the one that ran */
    /* dynamics */
    mbd_spatial_dynamics_stats dynamics;
    size_t newton_iterations;
    double max_euler_norm, max_velocity_drift;
    int status;
    mbd_failure fail;
} ch09_run;

void ch09_run_init(ch09_run *r);
void ch09_run_free(ch09_run *r);
int ch09_run_spec(ch09_model *md, const ch09_spec *spec, ch09_run *r);
int ch09_write_csv(FILE *out, const ch09_model *md, const ch09_run *r, int reactions);
void ch09_write_summary(FILE *out, const ch09_model *md, const ch09_spec *spec, const ch09_run *r);

/* The program (main.c reads the options into it; story.c does the rest) */
typedef struct {
    const mbd_cli_common *opt;
    const char *model;            /* --model, or NULL: the story */
    const char *analysis;         /* --analysis, or NULL: the file's */
    int reactions;
    const char *newton, *linear_solver;   /* --newton, --linear-solver, or NULL */
    ch09_model_params params;             /* --governor-c, for the --model run */
} ch09_program;
int ch09_program_run(void *prog, mbd_failure *fail);
int ch09_program_story(void *prog, FILE *out, int no_timing, mbd_failure *fail);
int ch09_program_figures(void *prog, const char *prefix, mbd_failure *fail);
int ch09_program_bench(void *prog, long repeats, mbd_failure *fail);

/* The animations (animate.c): one run's (--animate with --model), over the
 * run's span (its start alone for an assembly), and the chapter's (--animate
 * alone: the flyball governor, 0-10 s). ch09_animation_end is the last frame's
 * time: the spec's t_end, or t0 for an assembly (r: the run that was made, or
 * NULL before it: the spec's analysis). */
double ch09_animation_end(const ch09_spec *spec, const ch09_run *r);
int ch09_animate_run(const char *path, const mbd_cli_common *opt, const ch09_model *md,
                     const ch09_spec *spec, const ch09_run *r, mbd_failure *fail);
int ch09_program_animate(void *prog, const char *path, mbd_failure *fail);

/* The story and the runs it shares with the figures and the tests */
int ch09_story(FILE *out, int no_timing, mbd_failure *fail);
int ch09_figures(const char *prefix, mbd_failure *fail);
/* One of the chapter's models (file, or text given the file's name) run
 * with the file's analysis settings, except: analysis (CH09_FILE: the
 * file's), h (0: the file's), reactions. On GSL_SUCCESS *md and *r are the
 * caller's to free, and r->status says whether the run itself succeeded;
 * with `strict` a failed run is returned as its status with fail filled in
 * and nothing left allocated. */
#define CH09_FILE (-1)
int ch09_run_model(ch09_model *md, const char *file, const char *text, int analysis, double h,
                   int reactions, int strict, ch09_run *r, mbd_failure *fail);
/* the driven slider-crank's kinematics at step h (text: the model file's
 * text to use instead of models/slider-crank-driven.yaml, or NULL); on
 * success *md and *r are the caller's to free (a failed run is in r) */
int ch09_slider_run(ch09_model *md, const char *text, double h, ch09_run *r, mbd_failure *fail);
/* the driven pendulum's inverse dynamics with reactions (models/pendulum-
 * driven.yaml), and its data for reference.c */
int ch09_pendulum_run(ch09_model *md, ch09_run *r, mbd_failure *fail);
void ch09_pendulum_data(const ch09_model *md, double *m, double *Jzz, double *h, double *g);

/* ------------------------------------------------------------------------ */
/* Part 2: the dynamics runs the story and the figures share                 */

/* How a run differs from its model file's analysis (each zero or NULL: the
 * file's setting) */
typedef struct {
    const char *integrator;   /* a name of ch09_integrator_names */
    int fixed;                /* 1: fixed steps (the file's rtol and atol dropped) */
    double h, t_end, dt_out;
    double rtol, atol;        /* > 0: adaptive (BDF), or the Runge-Kutta's tolerances */
    double governor_c;        /* > 0: governor_spring's C (the default otherwise) */
    int reactions;            /* 1: record every joint's and constraint's reaction */
} ch09_variant;

/* One of the chapter's models (file, or text given the file's name) run as
 * its file says but for v; *seconds (may be NULL) the wall-clock time of the
 * whole run as the program does it: read, build, assemble, start,
 * integrate. As ch09_run_model with strict = 0: on GSL_SUCCESS *md and *r
 * are the caller's, and r->status says whether the run succeeded. */
int ch09_run_variant(ch09_model *md, const char *file, const char *text, const ch09_variant *v,
                     ch09_run *r, double *seconds, mbd_failure *fail);

/* The largest |x - x_ref|, |y - y_ref| of the record's first output point
 * over the rows at the reference's times t[0..n-1] (to 1e-9 s); *matched
 * (may be NULL) counts them. err (may be NULL): that difference per
 * reference row, NAN where the record has no row. */
double ch09_point_error(const ch09_run *r, const double *t, const double *x, const double *y,
                        size_t n, size_t *matched, double *err);


#endif
