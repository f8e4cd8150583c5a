#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "mbd/io.h"
#include "mbd/simulate.h"

/* After every accepted step, in this order: the formulation's own post-step
 * work, the correction (the post-step projection, on (q, q') through the
 * formulation's unpack and pack, never on the raw state), then one
 * measurement of the constraints, checked against the violation limit, so
 * that a blow-up between two outputs is caught at the step where it happens.
 * The measurement is kept for the output at the step's end, which then does
 * not measure the same state again. */
typedef struct {
    mbd_formulation *f;
    mbd_projection *proj;
    double max_violation;
    double *q, *qd;               /* n scratch each */
    /* the measurement of the last step end */
    int measured;
    double t, C, Cdot, E;
} step_check;

typedef struct {
    mbd_formulation *f;
    const mbd_sim_params *p;
    mbd_history *hist;
    mbd_sim_stats *stats;
    double *q, *qd;               /* n scratch each */
    long seen;                    /* outputs so far */
    const step_check *check;      /* its measurement of the step end, when there is one */
} recorder;

static int after_step(void *ctx, double t, double y[], int *changed, mbd_failure *fail)
{
    step_check *c = ctx;
    *changed = 0;
    c->measured = 0;
    int moved = 0;
    int st = mbd_formulation_post_step(c->f, t, y, &moved);
    if (st != GSL_SUCCESS) {
        *fail = *mbd_formulation_failure(c->f);
        return st;
    }
    *changed |= moved;
    if (c->proj != NULL) {
        const size_t n = mbd_formulation_system(c->f)->n;
        st = mbd_formulation_unpack(c->f, t, y, c->q, c->qd);
        if (st != GSL_SUCCESS) {
            *fail = *mbd_formulation_failure(c->f);
            return st;
        }
        gsl_vector_view q = gsl_vector_view_array(c->q, n), qd = gsl_vector_view_array(c->qd, n);
        int moved_qqd = 0;
        st = mbd_projection_correct(c->proj, t, &q.vector, &qd.vector, &moved_qqd);
        if (st != GSL_SUCCESS) {
            *fail = *mbd_projection_failure(c->proj);
            return st;
        }
        if (moved_qqd) {
            st = mbd_formulation_pack(c->f, t, c->q, c->qd, y);
            if (st != GSL_SUCCESS) {
                *fail = *mbd_formulation_failure(c->f);
                return st;
            }
            *changed = 1;
        }
    }
    if (!(c->max_violation > 0))
        return GSL_SUCCESS;
    st = mbd_formulation_measure(c->f, t, y, &c->C, &c->Cdot, &c->E);
    if (st != GSL_SUCCESS) {
        *fail = *mbd_formulation_failure(c->f);
        return st;
    }
    c->measured = 1;
    c->t = t;
    if (!(c->C <= c->max_violation))
        return mbd_failure_set(fail, MBD_EVIOLATION, t,
                               "the constraint violation |C| = %.6g exceeds %g", c->C,
                               c->max_violation);
    return GSL_SUCCESS;
}

void mbd_sim_stats_add(mbd_sim_stats *s, long output, double C_norm, double Cdot_norm,
                       double E)
{
    if (output == 0)
        s->E0 = E;
    /* comparisons, not fmax (a call); a NaN norm is passed over as fmax
     * passes it over */
    if (C_norm > s->max_C)
        s->max_C = C_norm;
    if (Cdot_norm > s->max_Cdot)
        s->max_Cdot = Cdot_norm;
    if (isfinite(E) && isfinite(s->E0) && fabs(E - s->E0) > s->max_dE)
        s->max_dE = fabs(E - s->E0);
}

static int record(void *ctx, double t, const double y[], const mbd_run_info *info,
                  mbd_failure *fail)
{
    recorder *r = ctx;
    double C = 0, Cd = 0, E = NAN;
    const step_check *c = r->check;
    int st = mbd_formulation_unpack(r->f, t, y, r->q, r->qd);
    const int measured = !info->interpolated && c != NULL && c->measured && c->t == t;
    if (measured) {
        C = c->C;      /* the state the hook measured: not again */
        Cd = c->Cdot;
        E = c->E;
    } else if (st == GSL_SUCCESS) {
        st = mbd_formulation_measure_q(r->f, t, r->q, r->qd, &C, &Cd, &E);
    }
    if (st != GSL_SUCCESS) {
        *fail = *mbd_formulation_failure(r->f);
        return st;
    }
    if (!isfinite(C) || !isfinite(Cd))
        return mbd_failure_set(fail, MBD_ENONFINITE, t, "the constraint violation is not finite");
    mbd_sim_stats *s = r->stats;
    mbd_sim_stats_add(s, r->seen++, C, Cd, E);

    s->rows++;
    if (r->p->observe != NULL) {
        st = r->p->observe(r->p->observe_ctx, t, r->q, r->qd, C, Cd, E, info->h);
        if (st != GSL_SUCCESS)
            return mbd_failure_set(fail, st, t, "the output's observer failed (%s)",
                                   mbd_strerror(st));
    }
    mbd_history *h = r->hist;
    if (h != NULL) {
        if (mbd_history_append(h, t, r->q, r->qd, C, Cd, E, info->h) != GSL_SUCCESS)
            return mbd_failure_set(fail, GSL_ENOMEM, t, "out of memory for the time history");
        if (r->p->record_condition) {
            double cond = INFINITY;
            st = mbd_formulation_condition(r->f, t, y, &cond);
            if (st != GSL_SUCCESS) {
                *fail = *mbd_formulation_failure(r->f);
                return st;
            }
            h->cond[h->rows - 1] = cond;
        }
    }
    if (r->p->max_violation > 0 && C > r->p->max_violation)
        return mbd_failure_set(fail, MBD_EVIOLATION, t,
                               "the constraint violation |C| = %.6g exceeds %g", C,
                               r->p->max_violation);
    return GSL_SUCCESS;
}

int mbd_simulate(mbd_formulation *f, const mbd_ode_params *ode, const mbd_sim_params *p,
                 const double q0[], const double qd0[], mbd_history *hist,
                 mbd_sim_stats *stats, mbd_failure *fail)
{
    mbd_sim_stats local;
    if (stats == NULL)
        stats = &local;
    memset(stats, 0, sizeof *stats);
    stats->E0 = NAN;
    mbd_failure_clear(fail);
    const mbd_system *s = mbd_formulation_system(f);
    const size_t n = s->n, dim = mbd_formulation_dim(f);

    if (p->project && !mbd_formulation_correctable(mbd_formulation_get_params(f)))
        return mbd_failure_set(fail, MBD_EINPUT, p->t0,
                               "post-step projection needs the state [q; q'], which the "
                               "%s does not carry",
                               mbd_formulation_kind_name(mbd_formulation_get_params(f)->kind));
    /* the output grid is checked before anything is allocated for it */
    const long max_outputs = p->max_outputs == 0 ? MBD_RUN_MAX_OUTPUTS : p->max_outputs;
    long count = 0;
    int st = mbd_run_output_count(p->t0, p->t_end, p->dt_out, &count, fail);
    if (st != GSL_SUCCESS)
        return st;
    if (max_outputs > 0 && count > max_outputs)
        return mbd_failure_set(fail, MBD_EINPUT, p->t0,
                               "outputs every %g from %g to %g are %ld, more than the limit of "
                               "%ld", p->dt_out, p->t0, p->t_end, count, max_outputs);
    if (hist != NULL) {
        if (mbd_history_reset(hist, n, count > 0 ? (size_t)count : 0, p->record_condition)
            != GSL_SUCCESS)
            return mbd_failure_set(fail, GSL_ENOMEM, p->t0, "out of memory for the time history");
        hist->has_energy = s->energy != NULL;
        hist->adaptive = ode->adaptive;
    }

    double *y = malloc((dim + 4 * n) * sizeof *y);   /* y, and (q, q') scratch for two */
    mbd_ode *o = mbd_ode_alloc(ode, dim, mbd_formulation_rhs, f);
    mbd_projection *proj = p->project ? mbd_projection_alloc(s, &p->projection) : NULL;
    if (y == NULL || o == NULL || (p->project && proj == NULL)) {
        st = mbd_failure_set(fail, o == NULL && y != NULL ? MBD_EINPUT : GSL_ENOMEM, p->t0,
                             o == NULL && y != NULL ? "bad integrator parameters (%s)"
                                                    : "out of memory (%s)",
                             ode->name ? ode->name : "unnamed");
        goto done;
    }
    step_check check = {f, proj, p->max_violation, y + dim + 2 * n, y + dim + 3 * n, 0, 0, 0, 0, 0};
    recorder r = {f, p, hist, stats, y + dim, y + dim + n, 0, &check};

    st = mbd_formulation_pack(f, p->t0, q0, qd0, y);
    if (st != GSL_SUCCESS) {
        *fail = *mbd_formulation_failure(f);
        goto done;
    }
    if (proj != NULL && p->projection.mode == MBD_CORRECTION_ENERGY) {
        /* the energy correction holds the energy of the state the run starts from */
        double E0 = NAN;
        gsl_vector_view qv = gsl_vector_view_array(y + dim, n), qdv = gsl_vector_view_array(y + dim + n, n);
        st = mbd_formulation_unpack(f, p->t0, y, y + dim, y + dim + n);
        if (st == GSL_SUCCESS)
            st = s->energy(s, p->t0, &qv.vector, &qdv.vector, &E0);
        if (st != GSL_SUCCESS) {
            st = mbd_failure_set(fail, st, p->t0, "the initial energy for the correction failed");
            goto done;
        }
        mbd_projection_set_energy(proj, E0);
    }
    mbd_run_params rp = {
        .t0 = p->t0,
        .t_end = p->t_end,
        .dt_out = p->dt_out,
        .output = record,
        .output_ctx = &r,
        .hook = after_step,
        .hook_ctx = &check,
        .max_steps = p->max_steps == 0 ? MBD_RUN_MAX_STEPS : p->max_steps,
        .max_outputs = max_outputs,
    };
    st = mbd_run(o, &rp, y, &stats->run, fail);
    if (st != GSL_SUCCESS) {
        /* the formulation knows better why its right-hand side failed
         * ("the Schur complement ... is singular" rather than "the
         * right-hand side failed") */
        const mbd_failure *ff = mbd_formulation_failure(f);
        if (ff->status != GSL_SUCCESS && ff->status == fail->status)
            *fail = *ff;
    }
    if (proj)
        stats->projection = *mbd_projection_get_stats(proj);
done:
    mbd_projection_free(proj);
    mbd_ode_free(o);
    free(y);
    return st;
}

