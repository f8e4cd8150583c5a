/* mbd/run.h -- the one driver loop every time history goes through.
 *
 *     model -> formulation -> integrator -> correction -> output
 *                              \______________ run ______________/
 *
 * mbd_run_stepper() steps an integrator from t0 to t_end through the stepper
 * interface below (the toolkit's integrators of ode.h, GSL's steppers behind
 * them, and any other, such as chapter 09's index-3 BDF), and
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
    int interpolated;  /* 1: y comes from the step's interpolant; 0: it is the state at the
                          step's end (or t0), as the post-step hook left it */
} mbd_run_info;

/* What the run loop needs of an integrator. `self` is the integrator's own
 * workspace; the functions have the semantics of their ode.h namesakes. */
typedef struct {
    void *self;
    const char *name;              /* for messages */
    size_t dim;
    int adaptive;                  /* error-controlled steps */
    int is_explicit;               /* its step is held by stability on a stiff problem */
    double h;                      /* the fixed step (adaptive: the initial one, or <= 0) */
    int exact_output;              /* 1: no interpolant; the loop steps onto every output */
    int (*start)(void *self, double t0, const double y0[], double t_end);
    int (*step)(void *self, double *t, double y[], double t_stop);
    int (*interpolate)(const void *self, double t, double y_out[]);
    int (*reset)(void *self, double t, const double y[]);   /* after a state change */
    /* an estimate of the spectral radius of df/dy, for diagnosing a step
     * limit (may be NULL) */
    int (*spectral_radius)(void *self, double t, const double y[], double *rho);
    const mbd_ode_stats *(*stats)(const void *self);
    const mbd_failure *(*failure)(const void *self);
} mbd_stepper;

/* The toolkit's integrator o (ode.h) as a stepper. */
void mbd_stepper_of_ode(mbd_stepper *s, mbd_ode *o);

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
    long max_steps;                /* > 0: fail (MBD_ESTEPLIMIT) rather than take more accepted
                                      steps, with the cause diagnosed (a stiff problem for an
                                      explicit integrator, or steps set by the tolerance);
                                      a fixed step that needs more is refused up front
                                      (MBD_EINPUT); <= 0: no limit */
    long max_outputs;              /* > 0: refuse (MBD_EINPUT) up front a grid of more outputs;
                                      <= 0: no limit (the grid must still be countable) */
} mbd_run_params;

/* The limits the programs apply unless told otherwise (--max-steps,
 * --max-outputs): a million steps is a few seconds of the cheapest right-hand
 * side and about ten of the dearest; a million outputs of a planar mechanism
 * is some tens of megabytes of history. */
#define MBD_RUN_MAX_STEPS 1000000L
#define MBD_RUN_MAX_OUTPUTS 1000000L

/* The number of outputs of a run from t0 to t_end every dt_out: t0, every
 * t0 + k dt_out before t_end, and t_end itself (the last grid time, or an
 * extra one when t_end is not on the grid); 2 when dt_out exceeds the span,
 * and when dt_out <= 0 (outputs after every step) the count is not known in
 * advance: *count = -1. MBD_EINPUT (with the reason in `fail`, may be NULL)
 * when the span is not positive or the count is not finite or does not fit a
 * long; no undefined arithmetic for any finite or infinite input. */
int mbd_run_output_count(double t0, double t_end, double dt_out, long *count,
                         mbd_failure *fail);

/* The number of fixed steps of size h from t0 to t_end (the last one
 * shortened), as a double so that it can exceed any integer type. */
double mbd_run_fixed_steps(double t0, double t_end, double h);

typedef struct {
    mbd_ode_stats ode;             /* the integrator's counters */
    long corrections;              /* hook calls that changed the state */
    long outputs;
    double t_reached;              /* the last time with a valid state */
} mbd_run_stats;

/* Runs from p->t0 (state y) to p->t_end; on return y holds the final state,
 * or the last good one after a failure. Returns GSL_SUCCESS or the failing
 * status, with `fail` saying what and when. */
int mbd_run_stepper(const mbd_stepper *s, const mbd_run_params *p, double y[],
                    mbd_run_stats *stats, mbd_failure *fail);

/* mbd_run_stepper() with the toolkit's integrator o. */
int mbd_run(mbd_ode *o, const mbd_run_params *p, double y[], mbd_run_stats *stats,
            mbd_failure *fail);

#ifdef __cplusplus
}
#endif

#endif
