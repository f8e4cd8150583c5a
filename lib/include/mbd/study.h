/* mbd/study.h -- a method run as the chapters use it.
 *
 * A mechanism chapter runs one method on its model again and again: a
 * formulation by name with its parameters, an integrator preset, an optional
 * post-step projection, a time span and an output spacing, limits. This
 * module is that run, once for every chapter:
 *
 *   mbd_study_spec     what to run (defaults: mbd_study_spec_init)
 *   mbd_study_run      the shared rules, then the pipeline (simulate.h):
 *                      a stiff formulation runs with msbdf whatever the
 *                      integrator asked for (and says so in the result); a
 *                      post-step projection of a state that is not (q, q') is
 *                      refused; the run is timed
 *   mbd_study_result   its status, failure, counters and time
 *   mbd_study_summary  the `key = value` lines every run shares, in one order
 *                      and with one status vocabulary (mbd_status_word); the
 *                      chapter writes its own keys after them, and
 *                      mbd_study_summary_status last
 *
 * A numerical failure of the run is a result (r->status, r->fail, with the
 * history up to it), not an error of mbd_study_run, which fails only for a
 * spec it refuses (MBD_EINPUT) or lack of memory.
 */
#ifndef MBD_STUDY_H
#define MBD_STUDY_H

#include <stdio.h>

#include "mbd/formulation.h"
#include "mbd/simulate.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    const char *method;          /* a formulation method name (formulation.h) */
    mbd_ode_params ode;          /* the integrator (a preset with its overrides) */
    double mu, alpha, beta;      /* penalty factor, Baumgarte weights */
    int project;                 /* post-step projection (correction.h) */
    mbd_projection_params projection;
    double t0, t_end, dt_out;    /* dt_out <= 0: an output after every step */
    double max_violation;        /* > 0: stop when |C| exceeds it */
    long max_steps, max_outputs; /* 0: the library's limits (run.h) */
    int record_condition;        /* the history gets the formulation's condition number */
    const size_t *independent;   /* the embedding: a forced set of independent coordinates
                                    (n - m indices into q), or NULL to choose them */
    size_t n_independent;
    int reselect_independent;    /* 1: `independent` is the start, re-selected as it degrades */
    double reselect_ratio;       /* the embedding's re-selection threshold (formulation.h); 0:
                                    its default */
    mbd_sim_observer observe;    /* may be NULL: every output's row (simulate.h), for a
                                    run that measures as it goes and keeps no history */
    void *observe_ctx;
    const char *integrator_asked; /* when not NULL: the integrator asked for, which ode
                                    replaced (a stiff method runs with msbdf; see
                                    mbd_cli_study_spec); the result says so */
} mbd_study_spec;

/* method, ode23, mu = 1e5, alpha = beta = 20, no projection (tolerance
 * 1e-10, 20 iterations when asked), t = 0 ... t_end every dt_out, |C| <= 1. */
void mbd_study_spec_init(mbd_study_spec *s, const char *method, double t_end, double dt_out);

typedef struct {
    int status;                  /* GSL_SUCCESS, or what stopped the run */
    mbd_failure fail;
    mbd_sim_stats stats;         /* counters, t reached, max |C|, |C'|, |E - E0| */
    double seconds;              /* wall-clock time of the integration */
    const char *integrator;      /* the integrator actually used */
    int integrator_replaced;     /* a stiff formulation: msbdf replaced the one asked for */
    /* the embedding: its independent set at the start and at the end, and the
     * re-selections (counted; the first MBD_FORMULATION_RESELECTIONS_KEPT kept) */
    size_t independent0[4], independent_end[4], n_independent;
    size_t reselections, n_events;
    mbd_formulation_reselection events[MBD_FORMULATION_RESELECTIONS_KEPT];
} mbd_study_result;

/* Runs spec on the system from (q0, q'0) at spec->t0; hist (may be NULL)
 * receives the outputs. */
int mbd_study_run(const mbd_system *sys, const mbd_study_spec *spec, const double q0[],
                  const double qd0[], mbd_history *hist, mbd_study_result *r);

/* method, integrator, integrator_replaced, project, mu, alpha, beta, t_end,
 * dt_out, rtol and atol (adaptive) or h (fixed step), t_reached, steps,
 * rejected, fevals, corrections, outputs (the rows of hist, which holds the
 * one at a failure too; the same count, r->stats.rows, when hist is NULL), max_C_norm,
 * max_Cdot_norm. A value that is not finite fails with MBD_ENONFINITE after
 * writing the rest. */
int mbd_study_summary(FILE *out, const mbd_study_spec *spec, const mbd_study_result *r,
                      const mbd_history *hist);

/* status = ok, violation, step-limit, ... (the last line of a summary) */
int mbd_study_summary_status(FILE *out, const mbd_study_result *r);

/* A chapter's writer of one run's summary or report on `out`. */
typedef int (*mbd_study_writer)(void *ctx, FILE *out);

/* What one run from the command line writes, in the one order of every
 * chapter: the CSV of the history to `csv` (when not NULL; the coordinate
 * names, E when with_energy), then on stdout the summary (when `summary`)
 * or else, without a CSV, the report (either writer may be NULL). A failed
 * run is reported by its own cause (r->fail), whatever else went wrong; then a
 * CSV that could not be written (with the system's reason) or a summary
 * value that is not finite. Returns the status, with `fail` said. */
int mbd_study_write(const mbd_study_result *r, const mbd_history *h, const char *csv,
                    const char *const *names, int with_energy, int summary,
                    mbd_study_writer summary_fn, mbd_study_writer report_fn, void *ctx,
                    mbd_failure *fail);

#ifdef __cplusplus
}
#endif

#endif
