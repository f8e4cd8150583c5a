/* mbd/run.h -- the one driver loop every time history goes through.
 *
 *     model -> formulation -> integrator -> correction -> output
 *                              \______________ run ______________/
 *
 * mbd_run() steps an integrator (ode.h) from t0 to t_end and
 *   - reports the state at t0, at every output time t0 + k dt_out (from the
 *     step's interpolant, or by stepping onto it for GSL's steppers) and at
 *     t_end, through the `output` callback;
 *   - after every accepted step calls the post-step `hook` (a correction, a
 *     basis continuation), which may change the state; when it does, the
 *     integrator's history (first-same-as-last stage, multistep past values) is
 *     reset, since it belongs to the state before the change;
 *   - checks the state for NaN and infinity, and records the time and cause of
 *     any failure (an integrator's, the hook's, or the output's).
 */
#ifndef MBD_RUN_H
#define MBD_RUN_H

#include "mbd/error.h"
#include "mbd/ode.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What an output callback learns besides (t, y). */
typedef struct {
    double h;          /* the step that produced this output (0 at t0) */
    long step;         /* accepted steps so far */
    int final;         /* 1 at t_end */
} mbd_run_info;

/* Returns GSL_SUCCESS to go on; any other status stops the run, and the
 * callback should describe it in `fail` (e.g. a constraint violation). */
typedef int (*mbd_run_output_fn)(void *ctx, double t, const double y[], const mbd_run_info *info,
                                 mbd_failure *fail);

/* Called after each accepted step; may change y and then sets *changed = 1. */
typedef int (*mbd_run_hook_fn)(void *ctx, double t, double y[], int *changed, mbd_failure *fail);

typedef struct {
    double t0, t_end;
    double dt_out;                 /* > 0: outputs every dt_out; <= 0: after every step */
    mbd_run_output_fn output;      /* may be NULL */
    void *output_ctx;
    mbd_run_hook_fn hook;          /* may be NULL */
    void *hook_ctx;
    long max_steps;                /* > 0: fail (MBD_ESTEPSIZE) rather than take more accepted
                                      steps: a guard against an integrator crawling through a
                                      problem too stiff for it; <= 0: no limit */
} mbd_run_params;

typedef struct {
    mbd_ode_stats ode;             /* the integrator's counters */
    long corrections;              /* hook calls that changed the state */
    long outputs;
    double t_reached;              /* the last time with a valid state */
} mbd_run_stats;

/* Runs from p->t0 (state y) to p->t_end; on return y holds the final state,
 * or the last good one after a failure. Returns GSL_SUCCESS or the failing
 * status, with `fail` saying what and when. */
int mbd_run(mbd_ode *o, const mbd_run_params *p, double y[], mbd_run_stats *stats,
            mbd_failure *fail);

#ifdef __cplusplus
}
#endif

#endif
