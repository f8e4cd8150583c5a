/* mbd/simulate.h -- the pipeline assembled, for one time history.
 *
 *     model -> formulation -> integrator -> correction -> output
 *   (system.h) (formulation.h)  (ode.h)   (correction.h)  (mbd_history)
 *                               \___________ run.h ___________/
 *
 * mbd_simulate() joins the stages for a formulation of a system: it allocates
 * the integrator for the formulation's right-hand side, the post-step
 * projection when asked, runs the run loop (run.h), and records at every output
 * time the positions, the kinematic velocities and how well the constraints
 * hold, into a time history (history.h). The mechanism chapters (03-05) are this call with different models and
 * methods; their stories compare the recorded histories.
 */
#ifndef MBD_SIMULATE_H
#define MBD_SIMULATE_H

#include <stddef.h>

#include "mbd/correction.h"
#include "mbd/error.h"
#include "mbd/formulation.h"
#include "mbd/history.h"
#include "mbd/ode.h"
#include "mbd/run.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a history row holds, handed to an observer at every output instead
 * of (or besides) a history: a run whose measures are maxima and sums over
 * its outputs (a --summary) folds them as they come and keeps no rows. q and
 * qd are n values each, valid during the call only. A status other than
 * GSL_SUCCESS stops the run with it. */
typedef int (*mbd_sim_observer)(void *ctx, double t, const double q[], const double qd[],
                                double C_norm, double Cdot_norm, double E, double step);

typedef struct {
    double t0, t_end;
    double dt_out;               /* > 0: outputs every dt_out; <= 0: every step */
    double max_violation;        /* > 0: stop (MBD_EVIOLATION) when |C| exceeds it at an
                                    output or at the end of any step */
    int project;                 /* post-step coordinate projection (correction.h) */
    mbd_projection_params projection;
    int record_condition;        /* fill mbd_history.cond */
    long max_steps;              /* accepted steps before giving up (run.h): 0 picks
                                    MBD_RUN_MAX_STEPS, < 0 means no limit */
    long max_outputs;            /* outputs (history rows) allowed: 0 picks
                                    MBD_RUN_MAX_OUTPUTS, < 0 means no limit; a grid with
                                    more is refused before the run (MBD_EINPUT) */
    mbd_sim_observer observe;    /* may be NULL: called at every output with the row a
                                    history gets (the row of a failing output too) */
    void *observe_ctx;
} mbd_sim_params;

typedef struct {
    mbd_run_stats run;           /* steps, rejections, evaluations, corrections, t reached */
    mbd_projection_stats projection;
    double max_C, max_Cdot;      /* largest |C|, |C'| over the outputs */
    double E0, max_dE;           /* energy at t0, largest |E - E0| (NAN without energy) */
    long rows;                   /* the outputs recorded: the rows a history holds, the
                                    one of a failing output included */
} mbd_sim_stats;

/* Folds one output into the statistics: the largest |C| and |C'|, and |E - E0|
 * with E0 the energy of output 0. For time histories recorded outside
 * mbd_simulate (a reduced-coordinate run) that report the same numbers. */
void mbd_sim_stats_add(mbd_sim_stats *s, long output, double C_norm, double Cdot_norm,
                       double E);

/* Integrates the formulation's ODE from (q0, qd0) at p->t0 to p->t_end with
 * the integrator `ode` (ode.h parameters). `hist` (may be NULL) receives the
 * outputs, replacing what it held; after a failure it holds the outputs up to
 * the failure, and `fail` says what failed and when: the formulation's own
 * cause (a singular Schur complement) when it is the culprit, a violation
 * above p->max_violation, or the integrator's. */
int mbd_simulate(mbd_formulation *f, const mbd_ode_params *ode, const mbd_sim_params *p,
                 const double q0[], const double qd0[], mbd_history *hist,
                 mbd_sim_stats *stats, mbd_failure *fail);

#ifdef __cplusplus
}
#endif

#endif
