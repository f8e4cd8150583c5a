/* study.h -- chapter 06's computing: one run of a method on a mechanism
 * (the library's method run with the embedding or the augmented form), its
 * errors against the minimal-coordinate reference, and everything the
 * story, the figures and the tests compute. The chapter's tests link it.
 */
#ifndef CH06_STUDY_H
#define CH06_STUDY_H

#include <stdio.h>

#include "mbd/cli.h"
#include "mbd/formulation.h"
#include "mbd/history.h"
#include "mbd/study.h"
#include "model.h"
#include "reference.h"

#define CH06_REF_EPS 1e-13       /* the reference's tolerance */
#define CH06_T_END 2.0           /* s: the guide's horizon for the slider-crank */
#define CH06_H 1e-3              /* s: the default fixed step (RK4) */
#define CH06_DT_OUT 1e-2         /* s: the default output spacing */
#define CH06_ALPHA 5.0           /* Baumgarte's weights when asked for */
#define CH06_BETA 5.0

/* The chapter's methods (--method) and the library's names for them. */
extern const char *const ch06_method_names[];
extern const char *const ch06_method_descriptions[];
/* The library method ("embedding", "projection", "projection-baumgarte")
 * of a chapter method; NULL for an unknown name. */
const char *ch06_library_method(const char *method);

/* One run: the library's spec (the chapter's method name in .method, the
 * library's in the copy the run makes), and the independent coordinates
 * --independent named (0: automatic), held throughout or, with reselect
 * (--reselect), only where the run starts. */
typedef struct {
    mbd_study_spec run;
    ch06_scenario scenario;
    size_t independent[2];
    size_t n_independent;
    int reselect;
} ch06_spec;

/* The scenario's defaults: embedding, RK4 at h = 1e-3, t = 0 ... 2 s,
 * outputs every 0.01 s, Baumgarte alpha = beta = 5 when asked for. */
void ch06_spec_default(ch06_spec *s, ch06_scenario scenario);

/* One run and its measures. */
typedef struct {
    mbd_study_result res;
    mbd_history h;
    double max_state_error;      /* max |q - q_ref| over the outputs (all coordinates) */
    double max_energy_error;     /* max |E - E0| */
    double E0;
} ch06_run;

void ch06_run_init(ch06_run *r);
void ch06_run_free(ch06_run *r);

/* Runs spec on md (built), measuring against the reference; a setup error
 * (bad method, unknown coordinate) is returned, a failure of the run is in
 * r->res.status with its cause. */
int ch06_run_spec(const ch06_model *md, const ch06_spec *spec, ch06_run *r);

/* Parses --independent: "auto" (n = 0) or comma-separated coordinate names
 * of md, as many as its degrees of freedom; MBD_EINPUT with a message in
 * `why` (size n_why) otherwise. */
int ch06_parse_independent(const ch06_model *md, const char *text, size_t idx[2], size_t *n,
                           char *why, size_t n_why);

/* The names of the coordinates of md (x2, y2, theta2, ...), n of them. */
const char *const *ch06_names(const ch06_model *md);

/* ------------------------------------------------------------------------ */
/* The story's computations                                                  */

#define CH06_NH 4                /* RK4 steps h = 0.01, 0.005, 0.0025, 0.00125 */
#define CH06_NAB 3               /* Baumgarte alpha = beta = 0, 5, 10 */
#define CH06_NRATIO 4            /* re-selection ratios 0.5, 0.1, 0.03, 0.01 (Step 6) */
#define CH06_RATIO_SHOWN 1       /* the one the animation shows (0.1) */
#define CH06_NRANDOM 50          /* random consistent states for the comparisons */
#define CH06_NPEND 8             /* the pendulum's closed-form checks */

extern const double ch06_steps[CH06_NH];
extern const double ch06_weights[CH06_NAB];
extern const double ch06_ratios[CH06_NRATIO];

typedef struct {
    ch06_model md[CH06_NSCENARIOS];          /* built */
    /* Step 1: the model and its derivatives */
    size_t n[CH06_NSCENARIOS], m[CH06_NSCENARIOS];
    mbd_fdcheck fd[CH06_NSCENARIOS];
    /* Step 2: the pendulum */
    size_t pend_independent;                 /* chosen at theta = 0 */
    size_t pend_independent_l4;              /* with l = 4 (the units' effect) */
    double pend_theta[CH06_NPEND], pend_omega[CH06_NPEND];
    double pend_emb[CH06_NPEND], pend_closed[CH06_NPEND];
    double pend_Ry_dd, pend_theta_dd, pend_lambda[2];
    mbd_planar_reaction pend_pin;            /* the pin's force on the rod at release */
    double pend_pin_closed[2];
    /* Step 3: the slider-crank at t = 0 and at random consistent states */
    double sc_q0[9], sc_qd0[9], sc_E0;
    size_t sc_independent;
    double sc_qdd_emb[9], sc_qdd_aug[9], sc_lambda[8];
    mbd_planar_reaction sc_react[5];         /* each joint on its first body */
    double sc_max_qdd_diff, sc_max_lambda_diff;   /* over CH06_NRANDOM states */
    /* Step 4: embedded RK4 */
    ch06_run emb[CH06_NH];
    double emb_theta2_end[CH06_NH];
    /* Step 5: augmented drift */
    ch06_run aug[CH06_NAB][CH06_NH];
    ch06_run euler[CH06_NAB];                /* explicit Euler, h = 1e-3 */
    /* Step 6: a forced independent coordinate; the same at the start, re-selected
     * at each ratio (the crank angle theta2 at the first re-selection, from the
     * reference); the automatic choice */
    ch06_run forced, switched[CH06_NRATIO], automatic;
    double switch_theta2[CH06_NRATIO];
    /* Step 7: the double pendulum */
    double dp_BMB[2][2];
    size_t dp_independent[2];
    double dp_max_qdd_diff;
    ch06_run dp_emb, dp_aug;
    /* Step 8: cost per step (s per right-hand side), embedding, augmented, with Baumgarte */
    double cost[3];
    int computed;
} ch06_study;

int ch06_study_compute(ch06_study *s, mbd_failure *fail);
ch06_study *ch06_study_alloc(void);
void ch06_study_free(ch06_study *s);

/* The B^T M B of the embedding at (q, q') with the independent set idx
 * (n - m entries), into BMB ((n - m) x (n - m), row-major); a status. */
int ch06_embedded_mass(const ch06_model *md, const double q[], const size_t idx[], double BMB[]);

/* The program (main.c reads the options into it; mbd_cli_dispatch calls the
 * parts below, in story.c). */
typedef struct {
    const mbd_cli_common *opt;
    ch06_spec spec;              /* one run's */
    ch06_model md;               /* its mechanism, built */
    ch06_study *s;               /* the story's computations */
} ch06_program;
int ch06_program_bench(void *prog, long repeats, mbd_failure *fail);
int ch06_program_figures(void *prog, const char *prefix, mbd_failure *fail);
int ch06_program_run(void *prog, mbd_failure *fail);
int ch06_program_story(void *prog, FILE *out, int no_timing, mbd_failure *fail);

/* The animations (animate.c): one run's (--animate with run options), over
 * the span the options asked for, and the chapter's (--animate alone: x4
 * forced independent beside the set chosen by pivoting). */
int ch06_animate_run(const char *path, const mbd_cli_common *opt, const ch06_model *md,
                     const ch06_spec *spec, const ch06_run *r, mbd_failure *fail);
int ch06_program_animate(void *prog, const char *path, mbd_failure *fail);

/* The story (story.c) and the figures (figures.c). */
int ch06_story(FILE *out, ch06_study *s, int no_timing, mbd_failure *fail);
int ch06_figures(ch06_study *s, const char *prefix, mbd_failure *fail);
int ch06_bench(long repeats, ch06_study *s);

#endif
