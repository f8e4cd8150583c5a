/* chapters/03-pendulum/study.c -- one run of a method on the pendulum. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "mbd/cli.h"
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
        mbd_formulation_params fp = {.mu = spec->mu, .alpha = spec->alpha, .beta = spec->beta};
        if (mbd_formulation_method(spec->method, &fp) != GSL_SUCCESS)
            return MBD_EINPUT;
        if (mbd_formulation_is_stiff(&fp)) {
            if (spec->project)
                return MBD_EINPUT;   /* its state is (q, v), not (q, q') */
            /* eq. (58) is stiff (rates ~ mu |C_q|^2): an implicit BDF */
            r->forced_msbdf = mbd_formulation_stiff_integrator(&fp, &ode);
            r->integrator = ode.name;
        }
        mbd_system sys;
        ch03_system(p, &sys);
        mbd_formulation *f = mbd_formulation_alloc(&sys, &fp);
        if (f == NULL)
            return MBD_EINPUT;
        double q0[CH03_N], qd0[CH03_N];
        ch03_initial(p, q0, qd0);
        t0 = mbd_cli_seconds();
        r->status = mbd_simulate(f, &ode, &sp, q0, qd0, h, &r->stats, &r->fail);
        r->seconds = mbd_cli_seconds() - t0;
        mbd_formulation_free(f);
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
