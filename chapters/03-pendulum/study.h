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
#include "pendulum.h"

typedef struct {
    const char *method;      /* a formulation name, or "direct" */
    mbd_ode_params ode;      /* the integrator (index2-penalty: replaced by msbdf) */
    double mu, alpha, beta;  /* penalty factor, Baumgarte weights */
    int project;             /* post-step coordinate projection (correction.h) */
    double t_end, dt_out;
    double max_violation;    /* > 0: stop when |C| exceeds it */
    long max_steps;          /* the run's limits (mbd_sim_params): 0 for the library's */
    long max_outputs;
} ch03_spec;

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

#endif
