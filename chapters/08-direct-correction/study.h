/* study.h -- chapter 08's computing: one run of a mechanism with one of
 * document 004's correction scenarios after every step (the library's
 * method run: the KKT equations of Lagrange's multipliers, RK4, and the
 * correction module as the post-step hook), its per-output violations of
 * every cut joint, and everything the story, the figures and the tests
 * compute. The chapter's tests link it.
 */
#ifndef CH08_STUDY_H
#define CH08_STUDY_H

#include <stdio.h>

#include "mbd/cli.h"
#include "mbd/correction.h"
#include "mbd/history.h"
#include "mbd/study.h"
#include "model.h"

#define CH08_T_END 10.0          /* s: the story's span (the document states none) */
#define CH08_H 1e-3              /* s: the document's RK4 step */
#define CH08_DT_OUT 1e-2         /* s: the default output spacing */
#define CH08_TOL 1e-14           /* the corrections' tolerance (the guide's Sec. 3.6) */
#define CH08_MAX_ITER 10         /* and iteration limit */

/* --method: the document's scenarios (a) none, (b) sequential, (c)
 * simultaneous, (d) with the energy */
typedef enum { CH08_A, CH08_B, CH08_C, CH08_D, CH08_NMETHODS } ch08_method;
extern const char *const ch08_method_names[];
extern const char *const ch08_method_descriptions[];
int ch08_method_of(const char *name, ch08_method *m);
extern const char *const ch08_metric_names[];
extern const char *const ch08_metric_descriptions[];

/* One run's settings */
typedef struct {
    ch08_method method;
    int mass_metric;             /* 0: euclidean (the document's minimum norm); 1: M^-1 */
    double tol;
    unsigned max_iter;
    mbd_study_spec run;          /* the library's: projection, RK4 at h, t_end, dt_out */
} ch08_spec;

/* The defaults: (d), euclidean, tol 1e-14, 10 iterations, RK4 at 1e-3 s,
 * t = 0 ... 10 s, outputs every 0.01 s. */
void ch08_spec_default(ch08_spec *s);

/* One run and its measures over the outputs */
typedef struct {
    mbd_study_result res;
    mbd_history h;
    size_t ncut;
    double max_phi[2 * CH08_MAX_CUTS];       /* per cut joint: max |phi_x|, |phi_y| */
    double max_phidot[2 * CH08_MAX_CUTS];    /* max |phidot_x|, |phidot_y| */
    double max_phi_all, max_phidot_all;
    double E0, max_energy_error;
    long iterations, max_iterations;         /* Newton iterations in all, the most in a step */
} ch08_run;

void ch08_run_init(ch08_run *r);
void ch08_run_free(ch08_run *r);

/* Runs spec on md (built). A setup error is returned; a failure of the run
 * (a correction that does not converge, a singular KKT matrix) is in
 * r->res.status with its cause in r->res.fail, the outputs before it kept. */
int ch08_run_spec(const ch08_model *md, const ch08_spec *spec, ch08_run *r);

/* The largest |q - q_ref| over the outputs of r against the uncorrected
 * equations integrated to 1e-12 (rk8pd) on the same grid. */
int ch08_reference_error(const ch08_model *md, const ch08_run *r, double *err,
                         mbd_failure *fail);

/* ------------------------------------------------------------------------ */
/* The story's computations                                                  */

#define CH08_NH 3                /* (a) at h = 2e-3, 1e-3, 5e-4: the drift's order */
#define CH08_NTOL 3              /* tolerances 1e-10, 1e-12, 1e-14 */

extern const double ch08_steps[CH08_NH];
extern const double ch08_tols[CH08_NTOL];

typedef struct {
    /* Step 1: the model at the start and its derivatives */
    double M0[9], Qg0[3], qdd0[3], lambda0[2], E0;
    double fd_phiq, fd_phidotq, fd_Eq, fd_Eqd;     /* relative differences to FD */
    double lib_phidotq, lib_Eq, lib_Eqd;           /* the library's generic forms vs the document's */
    /* Step 2: the four scenarios on the 4-bar (R1), 10 s */
    ch08_run four[CH08_NMETHODS];
    double four_ref_error;                         /* (a) against the tight reference */
    double four_sigma_min, four_t_sigma_min;       /* the smallest singular value of Phi_q */
    /* Step 3: (a) at three steps */
    ch08_run drift[CH08_NH];
    /* Step 4: the ranking against the tolerance ((b), (c), (d)) */
    ch08_run tolrun[CH08_NTOL][3];
    /* Step 5: the mass metric, (c) and (d) */
    ch08_run mass[2];
    /* Step 6: R2, the rhombus, through its singular configurations */
    ch08_run rhombus[CH08_NMETHODS];
    double rhombus_sigma_min, rhombus_t_sigma_min;
    /* Step 7: the eightbar */
    ch08_run eight[CH08_NMETHODS];
    double eight_sigma_min, eight_t_sigma_min;
    /* Step 8: the slider-crank of chapter 06 with (b) and (d) */
    ch08_run slider[2];
    int computed;
} ch08_study;

ch08_study *ch08_study_alloc(void);
void ch08_study_free(ch08_study *s);
int ch08_study_compute(ch08_study *s, mbd_failure *fail);

/* The program (main.c reads the options into it; mbd_cli_dispatch calls the
 * parts below, in story.c). */
typedef struct {
    const mbd_cli_common *opt;
    ch08_spec spec;
    ch08_model md;
    ch08_study *s;
} ch08_program;
int ch08_program_bench(void *prog, long repeats, mbd_failure *fail);
int ch08_program_figures(void *prog, const char *prefix, mbd_failure *fail);
int ch08_program_run(void *prog, mbd_failure *fail);
int ch08_program_story(void *prog, FILE *out, int no_timing, mbd_failure *fail);

/* The animations (animate.c): one run's (--animate with run options), over
 * the span the options asked for, and the chapter's (--animate alone: the
 * four-bar uncorrected beside energy-corrected). */
int ch08_animate_run(const char *path, const mbd_cli_common *opt, const ch08_model *md,
                     const ch08_spec *spec, const ch08_run *r, mbd_failure *fail);
int ch08_program_animate(void *prog, const char *path, mbd_failure *fail);

int ch08_story(FILE *out, ch08_study *s, int no_timing, mbd_failure *fail);
int ch08_figures(ch08_study *s, const char *prefix, mbd_failure *fail);

#endif
