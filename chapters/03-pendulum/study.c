/* chapters/03-pendulum/study.c -- one run of a method on the pendulum. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "mbd/cli.h"
#include "mbd/study.h"
#include "study.h"

void ch03_spec_default(ch03_spec *s)
{
    memset(s, 0, sizeof *s);
    s->method = "penalty";
    mbd_ode_preset("ode23", &s->ode);
    s->mu = 1e5;
    s->alpha = 20.0;
    s->beta = 20.0;
    s->t_end = 5.0;
    s->dt_out = 1e-4;
    s->max_violation = 1.0;
}

int ch03_method_known(const char *method)
{
    mbd_formulation_params fp;
    return method != NULL
           && (strcmp(method, "direct") == 0 || mbd_formulation_method(method, &fp) == GSL_SUCCESS);
}

int ch03_method_uses_mu(const char *method)
{
    mbd_formulation_params fp;
    return method != NULL && mbd_formulation_method(method, &fp) == GSL_SUCCESS
           && fp.kind != MBD_FORMULATION_PROJECTION;
}

int ch03_method_uses_baumgarte(const char *method)
{
    mbd_formulation_params fp;
    return method != NULL && mbd_formulation_method(method, &fp) == GSL_SUCCESS && fp.baumgarte;
}

/* >> run */
int ch03_run(const ch03_pendulum *p, const ch03_spec *spec, mbd_history *hist, ch03_result *r)
{
    memset(r, 0, sizeof *r);
    mbd_failure_clear(&r->fail);
    ch03_exact ex;
    int st = ch03_exact_init(p, &ex);
    if (st != GSL_SUCCESS)
        return st;
    mbd_history local;
    mbd_history_init(&local);
    mbd_history *h = hist ? hist : &local;
    const int direct = strcmp(spec->method, "direct") == 0;
    mbd_ode_params ode = spec->ode;
    r->integrator = ode.name;
    double t0 = 0.0;
    mbd_sim_params sp = {.t0 = 0.0, .t_end = spec->t_end, .dt_out = spec->dt_out,
                         .max_violation = spec->max_violation, .project = spec->project,
                         .max_steps = spec->max_steps, .max_outputs = spec->max_outputs};

    if (direct) {
        if (spec->project)
            return MBD_EINPUT;   /* nothing to project: theta has no constraint */
        t0 = mbd_cli_seconds();
        r->status = ch03_direct_run(p, &ode, &sp, h, &r->stats, &r->fail);
        r->seconds = mbd_cli_seconds() - t0;
    } else {
        /* the library's method run: eq. (58) is stiff (rates ~ mu |C_q|^2)
         * and runs with an implicit BDF; its state (q, v) is not projected */
        mbd_study_spec ss;
        mbd_study_spec_init(&ss, spec->method, spec->t_end, spec->dt_out);
        ss.ode = ode;
        ss.mu = spec->mu;
        ss.alpha = spec->alpha;
        ss.beta = spec->beta;
        ss.project = spec->project;
        ss.max_violation = spec->max_violation;
        ss.max_steps = spec->max_steps;
        ss.max_outputs = spec->max_outputs;
        mbd_system sys;
        ch03_system(p, &sys);
        double q0[CH03_N], qd0[CH03_N];
        ch03_initial(p, q0, qd0);
        mbd_study_result res;
        st = mbd_study_run(&sys, &ss, q0, qd0, h, &res);
        if (st != GSL_SUCCESS) {
            mbd_history_free(&local);
            return st;
        }
        r->status = res.status;
        r->fail = res.fail;
        r->stats = res.stats;
        r->seconds = res.seconds;
        r->integrator = res.integrator;
        r->forced_msbdf = res.integrator_replaced;
    }
    st = ch03_compare(p, &ex, h, &r->err);
    mbd_history_free(&local);
    return st;
}
/* << run */

double ch03_violation_time(const mbd_history *h, double level)
{
    for (size_t k = 0; k < h->rows; k++)
        if (h->C_norm[k] > level)
            return h->t[k];
    return NAN;
}
