/* One simulation of the slider-crank and its measurements (see runs.h). */
#include <math.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_math.h>

#include "mbd/study.h"
#include "runs.h"

void ch05_spec_document(ch05_spec *s)
{
    *s = (ch05_spec){
        .method = "penalty-baumgarte",
        .mass = CH05_MASS_DOCUMENT,
        .mu = 1e5, .alpha = 20.0, .beta = 20.0,
        .project = 0,
        .t_end = 1.8, .dt_out = 1e-4, .max_violation = 1.0,
    };
    mbd_ode_preset("ode23", &s->ode);
}

const char *ch05_branch_name(ch05_branch b)
{
    switch (b) {
    case CH05_BRANCH_SAME:
        return "same";
    case CH05_BRANCH_FOLDED:
        return "folded";
    case CH05_BRANCH_UNDECIDED:
        return "undecided";
    default:
        return "none";
    }
}

void ch05_run_init(ch05_run *r)
{
    memset(r, 0, sizeof *r);
    mbd_history_init(&r->hist);
    mbd_failure_clear(&r->fail);
    r->fold_time = r->fold_reference = NAN;
    r->fold_c2 = r->fold_step = r->fold_rate = NAN;
    r->max_own_cond = NAN;
}

void ch05_run_free(ch05_run *r)
{
    mbd_history_free(&r->hist);
}

/* >> branch */
/* After the fold the two branches part: at th1 the same branch has
 * th2 = pi - 2 th1, x3 = 2 L sin th1, the folded one th2 = pi, x3 = 0. A
 * state is on the one it is much closer to than they are to each other. */
static ch05_branch classify(const ch05_model *m, const double q[3])
{
    const double sep = fmax(2.0 * fabs(q[0]), 2.0 * m->L1 * fabs(sin(q[0])));
    const double same = ch05_branch_residual(m, q), folded = ch05_folded_residual(q);
    if (same < 0.1 * sep && same < folded)
        return CH05_BRANCH_SAME;
    if (folded < 0.1 * sep && folded < same)
        return CH05_BRANCH_FOLDED;
    return CH05_BRANCH_UNDECIDED;
}
/* << branch */

int ch05_run_errors(const ch05_run *r, ch05_reference *ref, double t_max, double *pos,
                    double *vel, double *invariant)
{
    double ep = 0.0, ev = 0.0, inv = 0.0;
    const mbd_history *h = &r->hist;
    for (size_t k = 0; k < h->rows && h->t[k] <= t_max; k++) {
        double q[3], qd[3];
        int st = ch05_reference_state(ref, h->t[k], q, qd);
        if (st != GSL_SUCCESS)
            return st;
        const double *qq = mbd_history_q(h, k), *vv = mbd_history_qd(h, k);
        for (int i = 0; i < 3; i++) {
            ep = fmax(ep, fabs(qq[i] - q[i]));
            ev = fmax(ev, fabs(vv[i] - qd[i]));
        }
        if (!(h->t[k] >= r->fold_time))   /* before the fold (or no fold) */
            inv = fmax(inv, ch05_branch_residual(&r->model, qq));
    }
    if (pos)
        *pos = ep;
    if (vel)
        *vel = ev;
    if (invariant)
        *invariant = inv;
    return GSL_SUCCESS;
}

void ch05_run_difference(const ch05_run *a, const ch05_run *b, double t_max, double diff[6])
{
    for (int i = 0; i < 6; i++)
        diff[i] = 0.0;
    size_t rows = a->hist.rows < b->hist.rows ? a->hist.rows : b->hist.rows;
    for (size_t k = 0; k < rows && a->hist.t[k] <= t_max; k++) {
        const double *qa = mbd_history_q(&a->hist, k), *qb = mbd_history_q(&b->hist, k);
        const double *va = mbd_history_qd(&a->hist, k), *vb = mbd_history_qd(&b->hist, k);
        for (int i = 0; i < 3; i++) {
            diff[i] = fmax(diff[i], fabs(qa[i] - qb[i]));
            diff[3 + i] = fmax(diff[3 + i], fabs(va[i] - vb[i]));
        }
    }
}

double ch05_run_energy_error(const ch05_run *r, double t_max)
{
    double e = 0.0;
    const mbd_history *h = &r->hist;
    for (size_t k = 0; k < h->rows && h->t[k] <= t_max; k++)
        e = fmax(e, fabs(h->E[k] - h->E[0]));
    return e;
}

/* The condition number of the matrix the formulation solves with
 * (mbd_formulation_condition) at every output, on a copy of the model that
 * the probe does not watch: the probe counts the integrator's evaluations only. */
static int own_condition(ch05_run *r, const mbd_formulation_params *fp)
{
    ch05_model m = r->model;
    m.probe = NULL;
    mbd_system s;
    ch05_system(&m, &s);
    mbd_formulation *f = mbd_formulation_alloc(&s, fp);
    if (f == NULL)
        return GSL_ENOMEM;
    const mbd_history *h = &r->hist;
    int st = GSL_SUCCESS;
    r->max_own_cond = -INFINITY;
    for (size_t k = 0; k < h->rows && st == GSL_SUCCESS; k++) {
        double y[6], c = INFINITY;
        for (int i = 0; i < 3; i++) {
            y[i] = mbd_history_q(h, k)[i];
            y[3 + i] = mbd_history_qd(h, k)[i];
        }
        st = mbd_formulation_condition(f, h->t[k], y, &c);
        r->max_own_cond = fmax(r->max_own_cond, c);
    }
    mbd_formulation_free(f);
    if (h->rows == 0)
        r->max_own_cond = NAN;
    return st;
}

int ch05_run_spec(ch05_run *r, const ch05_spec *spec, ch05_reference *ref)
{
    ch05_run_free(r);
    ch05_run_init(r);
    ch05_model_document(&r->model);
    r->model.mass = spec->mass;
    ch05_probe_reset(&r->probe);
    r->model.probe = &r->probe;
    ch05_system(&r->model, &r->sys);

    mbd_formulation_params fp = {.mu = spec->mu, .alpha = spec->alpha, .beta = spec->beta};
    int st = mbd_formulation_method(spec->method, &fp);
    if (st != GSL_SUCCESS)
        return mbd_failure_set(&r->fail, MBD_EINPUT, NAN, "unknown method '%s'", spec->method);

    /* the library's method run (study.h) */
    double q0[3], qd0[3];
    ch05_initial(&r->model, q0, qd0);
    mbd_study_spec ss;
    mbd_study_spec_init(&ss, spec->method, spec->t_end, spec->dt_out);
    ss.ode = spec->ode;
    ss.mu = spec->mu;
    ss.alpha = spec->alpha;
    ss.beta = spec->beta;
    ss.project = spec->project;
    ss.max_violation = spec->max_violation;
    ss.max_steps = spec->max_steps;
    ss.max_outputs = spec->max_outputs;
    ss.record_condition = 0;   /* measured below, without the probe watching */
    mbd_study_result res;
    st = mbd_study_run(&r->sys, &ss, q0, qd0, &r->hist, &res);
    r->status = st != GSL_SUCCESS ? st : res.status;
    r->fail = res.fail;
    r->stats = res.stats;
    if (st != GSL_SUCCESS || (r->status == MBD_EINPUT && r->hist.rows == 0))
        return r->status;   /* refused before it started (e.g. projection of index-2) */

    /* the fold: the first sign change of th1 between outputs */
    const mbd_history *h = &r->hist;
    r->max_x3 = -INFINITY;
    for (size_t k = 0; k < h->rows; k++) {
        const double *q = mbd_history_q(h, k);
        if (q[2] > r->max_x3) {
            r->max_x3 = q[2];
            r->t_max_x3 = h->t[k];
        }
        r->max_schur_cond = fmax(r->max_schur_cond,
                                 ch05_schur_condition(&r->model, spec->mass, q));
        if (isnan(r->fold_time) && q[0] >= CH05_APPROACH) {
            double C[2];
            ch05_constraint(&r->model, q, C);
            r->fold_c2 = C[1];
        }
        if (k > 0 && isnan(r->fold_time)) {
            const double a = mbd_history_q(h, k - 1)[0], b = q[0];
            if (a > 0.0 && b <= 0.0) {
                r->fold_time = h->t[k - 1] + a / (a - b) * (h->t[k] - h->t[k - 1]);
                r->fold_step = h->h[k];
                r->fold_rate = mbd_history_qd(h, k)[0];
            }
        }
    }
    if (spec->record_condition) {
        st = own_condition(r, &fp);
        if (st != GSL_SUCCESS)
            return st;
    }
    if (h->rows > 0 && isfinite(r->fold_time))
        r->branch = classify(&r->model, mbd_history_q(h, h->rows - 1));
    else
        r->branch = CH05_BRANCH_NONE;

    /* the reference of this mass matrix: kept from an earlier run when it fits */
    st = GSL_SUCCESS;
    if (ref->driver == NULL || ref->params.kind != spec->mass) {
        ch05_reference_free(ref);
        st = ch05_reference_init(ref, &r->model, spec->mass);
    }
    if (st == GSL_SUCCESS && spec->dt_out > 0)
        st = ch05_reference_tabulate(ref, spec->dt_out, spec->t_end);
    if (st == GSL_SUCCESS)
        st = ch05_reference_fold(ref, &r->fold_reference);
    if (st == GSL_EMAXITER)
        st = GSL_SUCCESS;   /* no fold within 3 s: fold_reference stays NAN */
    if (st == GSL_SUCCESS)
        st = ch05_run_errors(r, ref, INFINITY, &r->max_pos_err, &r->max_vel_err,
                             &r->max_invariant);
    return st;
}
