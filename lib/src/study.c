#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gsl/gsl_errno.h>

#include "mbd/io.h"
#include "mbd/study.h"

void mbd_study_spec_init(mbd_study_spec *s, const char *method, double t_end, double dt_out)
{
    memset(s, 0, sizeof *s);
    s->method = method;
    mbd_ode_preset("ode23", &s->ode);
    s->mu = 1e5;
    s->alpha = 20.0;
    s->beta = 20.0;
    s->projection = (mbd_projection_params){.mass_weighted = 0, .tol = 1e-10, .max_iter = 20};
    s->t_end = t_end;
    s->dt_out = dt_out;
    s->max_violation = 1.0;
}

static double seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* >> study-run */
int mbd_study_run(const mbd_system *sys, const mbd_study_spec *spec, const double q0[],
                  const double qd0[], mbd_history *hist, mbd_study_result *r)
{
    memset(r, 0, sizeof *r);
    mbd_failure_clear(&r->fail);
    mbd_ode_params ode = spec->ode;
    r->integrator = ode.name;
    mbd_formulation_params fp = {.mu = spec->mu, .alpha = spec->alpha, .beta = spec->beta,
                                 .independent = spec->independent,
                                 .n_independent = spec->n_independent,
                                 .reselect_independent = spec->reselect_independent,
                                 .reselect_ratio = spec->reselect_ratio};
    if (mbd_formulation_method(spec->method, &fp) != GSL_SUCCESS)
        return mbd_failure_set(&r->fail, MBD_EINPUT, spec->t0, "unknown method '%s'",
                               spec->method ? spec->method : "(none)");
    if (spec->project && !mbd_formulation_correctable(&fp))
        return mbd_failure_set(&r->fail, MBD_EINPUT, spec->t0,
                               "post-step projection needs the state (q, q'), which the %s "
                               "does not carry", mbd_formulation_kind_name(fp.kind));
    /* a stiff formulation (rates ~ mu |C_q|^2) runs with an implicit BDF */
    r->integrator_replaced = mbd_formulation_stiff_integrator(&fp, &ode)
                             || spec->integrator_asked != NULL;
    r->integrator = ode.name;
    mbd_formulation *f = mbd_formulation_alloc(sys, &fp);
    if (f == NULL)
        return mbd_failure_set(&r->fail, MBD_EINPUT, spec->t0,
                               "the method '%s' refuses these parameters (mu = %g)", spec->method,
                               spec->mu);
    const mbd_sim_params sp = {
        .t0 = spec->t0,
        .t_end = spec->t_end,
        .dt_out = spec->dt_out,
        .max_violation = spec->max_violation,
        .project = spec->project,
        .projection = spec->projection,
        .record_condition = spec->record_condition,
        .max_steps = spec->max_steps,
        .max_outputs = spec->max_outputs,
        .observe = spec->observe,
        .observe_ctx = spec->observe_ctx,
    };
    /* the embedding's independent set at the start (the run packs the same) */
    size_t idx[4];
    const size_t k = mbd_formulation_independent(f, NULL);
    if (k > 0 && k <= 4) {
        double *y = malloc(mbd_formulation_dim(f) * sizeof *y);
        if (y != NULL && mbd_formulation_pack(f, spec->t0, q0, qd0, y) == GSL_SUCCESS) {
            mbd_formulation_independent(f, idx);
            r->n_independent = k;
            memcpy(r->independent0, idx, k * sizeof idx[0]);
        }
        free(y);
    }
    const double start = seconds_now();
    r->status = mbd_simulate(f, &ode, &sp, q0, qd0, hist, &r->stats, &r->fail);
    r->seconds = seconds_now() - start;
    /* the embedding's partition at the end, and the events that changed it */
    if (r->n_independent > 0) {
        mbd_formulation_independent(f, idx);
        memcpy(r->independent_end, idx, k * sizeof idx[0]);
        r->reselections = mbd_formulation_reselections(f);
        for (size_t e = 0; e < r->reselections && r->n_events < MBD_FORMULATION_RESELECTIONS_KEPT;
             e++)
            if (mbd_formulation_reselection_get(f, e, &r->events[r->n_events]) == GSL_SUCCESS)
                r->n_events++;
    }
    mbd_formulation_free(f);
    if (r->status == GSL_ENOMEM)
        return r->status;
    return GSL_SUCCESS;
}
/* << study-run */

int mbd_study_summary(FILE *out, const mbd_study_spec *spec, const mbd_study_result *r,
                      const mbd_history *hist)
{
    int bad = 0;
    bad |= mbd_summary_string(out, "method", spec->method);
    bad |= mbd_summary_string(out, "integrator", r->integrator ? r->integrator : spec->ode.name);
    bad |= mbd_summary_long(out, "integrator_replaced", r->integrator_replaced);
    bad |= mbd_summary_long(out, "project", spec->project);
    bad |= mbd_summary_double(out, "mu", spec->mu);
    bad |= mbd_summary_double(out, "alpha", spec->alpha);
    bad |= mbd_summary_double(out, "beta", spec->beta);
    bad |= mbd_summary_double(out, "t_end", spec->t_end);
    bad |= mbd_summary_double(out, "dt_out", spec->dt_out);
    if (spec->ode.adaptive) {
        bad |= mbd_summary_double(out, "rtol", spec->ode.rtol);
        bad |= mbd_summary_double(out, "atol", spec->ode.atol);
    } else {
        bad |= mbd_summary_double(out, "h", spec->ode.h);
    }
    const mbd_sim_stats *s = &r->stats;
    bad |= mbd_summary_double(out, "t_reached", s->run.t_reached);
    bad |= mbd_summary_long(out, "steps", s->run.ode.steps);
    bad |= mbd_summary_long(out, "rejected", s->run.ode.rejected);
    bad |= mbd_summary_long(out, "fevals", s->run.ode.fevals);
    bad |= mbd_summary_long(out, "corrections", s->run.corrections);
    const long outputs = hist != NULL ? (long)hist->rows : s->rows;
    bad |= mbd_summary_long(out, "outputs", outputs);
    const int any = outputs > 0;
    bad |= mbd_summary_optional(out, "max_C_norm", s->max_C, any);
    bad |= mbd_summary_optional(out, "max_Cdot_norm", s->max_Cdot, any);
    return bad ? MBD_ENONFINITE : GSL_SUCCESS;
}

int mbd_study_write(const mbd_study_result *r, const mbd_history *h, const char *csv,
                    const char *const *names, int with_energy, int summary,
                    mbd_study_writer summary_fn, mbd_study_writer report_fn, void *ctx,
                    mbd_failure *fail)
{
    mbd_failure_clear(fail);
    if (csv != NULL) {
        int st = mbd_history_csv(h, csv, names, with_energy, fail);
        if (st != GSL_SUCCESS)
            return st;   /* it names the file and the system's reason */
    }
    int sum_st = GSL_SUCCESS;
    if (summary && summary_fn)
        sum_st = summary_fn(ctx, stdout);
    else if (!summary && csv == NULL && report_fn)
        sum_st = report_fn(ctx, stdout);
    if (r->status != GSL_SUCCESS) {
        *fail = r->fail;
        return r->status;
    }
    if (sum_st != GSL_SUCCESS)
        return mbd_failure_set(fail, sum_st, r->stats.run.t_reached,
                               "a summary value is not finite");
    return GSL_SUCCESS;
}

int mbd_study_summary_status(FILE *out, const mbd_study_result *r)
{
    return mbd_summary_string(out, "status", mbd_status_word(r->status));
}
