#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "mbd/run.h"

static int finite_state(const double *y, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(y[i]))
            return 0;
    return 1;
}

int mbd_run_output_count(double t0, double t_end, double dt_out, long *count,
                         mbd_failure *fail)
{
    mbd_failure scratch;
    if (fail == NULL)
        fail = &scratch;
    const double span = t_end - t0;
    *count = 0;
    if (!(span > 0) || !isfinite(span))
        return mbd_failure_set(fail, MBD_EINPUT, t0, "the end time %g is not after the start %g "
                               "by a finite span", t_end, t0);
    if (!(dt_out > 0)) {
        *count = -1;
        return GSL_SUCCESS;
    }
    const double r = span / dt_out;
    /* compare before converting: a double beyond LONG_MAX has no long */
    if (!isfinite(r) || r > 0.25 * (double)LONG_MAX)
        return mbd_failure_set(fail, MBD_EINPUT, t0, "outputs every %g over %g ... %g would be "
                               "%.3g of them: too many to count", dt_out, t0, t_end, r);
    long nout = (long)floor(r + 1e-9);
    if (fabs(r - (double)nout) > 1e-9 * fmax(1.0, r))
        nout++;   /* t_end is not on the grid: it is the extra last output */
    if (nout < 1)
        nout = 1; /* dt_out beyond the span: t0 and t_end */
    *count = nout + 1;
    return GSL_SUCCESS;
}

double mbd_run_fixed_steps(double t0, double t_end, double h)
{
    return ceil((t_end - t0) / h * (1.0 - 1e-12));
}

/* The step limit was reached at (t, y) after steps of about h: say whether
 * stability holds the step (a stiff problem for an explicit integrator) or the
 * tolerance does (the run is simply longer than the limit allows). */
static int step_limit(const mbd_stepper *s, const mbd_run_params *p, double t, const double y[],
                      double h, mbd_failure *fail)
{
    const char *name = s->name ? s->name : "the integrator";
    const double more = h > 0 ? (p->t_end - t) / h : HUGE_VAL;
    double rho = NAN;
    if (s->spectral_radius == NULL || s->spectral_radius(s->self, t, y, &rho) != GSL_SUCCESS)
        rho = NAN;
    if (!s->adaptive)
        return mbd_failure_set(fail, MBD_ESTEPLIMIT, t,
                               "the limit of %ld steps was reached before t_end = %g: the fixed "
                               "step %.3g of %s needs about %.3g more",
                               p->max_steps, p->t_end, h, name, more);
    if (s->is_explicit && h * rho > 1.5)
        return mbd_failure_set(fail, MBD_ESTEPLIMIT, t,
                               "the limit of %ld steps was reached before t_end = %g: the step "
                               "%.3g is held at the stability limit of %s by a fast mode "
                               "(|lambda| ~ %.3g, h |lambda| ~ %.2g), so the problem is stiff for "
                               "an explicit integrator (a stiff one, msbdf, suits it)",
                               p->max_steps, p->t_end, h, name, rho, h * rho);
    if (isfinite(rho) && h * rho > 1.5)
        return mbd_failure_set(fail, MBD_ESTEPLIMIT, t,
                               "the limit of %ld steps was reached before t_end = %g: %s follows "
                               "a fast mode (|lambda| ~ %.3g) with steps of %.3g that the "
                               "tolerance sets; the rest needs about %.3g more steps",
                               p->max_steps, p->t_end, name, rho, h, more);
    if (isfinite(rho) && rho > 0)
        return mbd_failure_set(fail, MBD_ESTEPLIMIT, t,
                               "the limit of %ld steps was reached before t_end = %g: the "
                               "tolerance sets %s's step to %.3g (the fastest mode has |lambda| ~ "
                               "%.3g, h |lambda| ~ %.2g), and the rest needs about %.3g more steps",
                               p->max_steps, p->t_end, name, h, rho, h * rho, more);
    return mbd_failure_set(fail, MBD_ESTEPLIMIT, t,
                           "the limit of %ld steps was reached before t_end = %g: the tolerance "
                           "sets %s's step to %.3g, and the rest needs about %.3g more steps",
                           p->max_steps, p->t_end, name, h, more);
}

/* ode.h's integrator behind the stepper interface */
static int ode_start(void *o, double t0, const double y0[], double t_end)
{
    return mbd_ode_start(o, t0, y0, t_end);
}
static int ode_step(void *o, double *t, double y[], double t_stop)
{
    return mbd_ode_step(o, t, y, t_stop);
}
static int ode_interpolate(const void *o, double t, double y[])
{
    return mbd_ode_interpolate(o, t, y);
}
static int ode_reset(void *o, double t, const double y[]) { return mbd_ode_reset(o, t, y); }
static int ode_radius(void *o, double t, const double y[], double *rho)
{
    return mbd_ode_spectral_radius(o, t, y, rho);
}
static const mbd_ode_stats *ode_stats(const void *o) { return mbd_ode_get_stats(o); }
static const mbd_failure *ode_failure(const void *o) { return mbd_ode_failure(o); }

void mbd_stepper_of_ode(mbd_stepper *s, mbd_ode *o)
{
    const mbd_ode_params *op = mbd_ode_get_params(o);
    *s = (mbd_stepper){
        .self = o,
        .name = op->name,
        .dim = mbd_ode_dim(o),
        .adaptive = op->adaptive,
        .is_explicit = mbd_ode_is_explicit(op),
        .h = op->h,
        .exact_output = op->kind == MBD_ODE_GSL,   /* no interpolant worth the name */
        .start = ode_start,
        .step = ode_step,
        .interpolate = ode_interpolate,
        .reset = ode_reset,
        .spectral_radius = ode_radius,
        .stats = ode_stats,
        .failure = ode_failure,
    };
}

int mbd_run(mbd_ode *o, const mbd_run_params *p, double y[], mbd_run_stats *stats,
            mbd_failure *fail)
{
    mbd_stepper s;
    mbd_stepper_of_ode(&s, o);
    return mbd_run_stepper(&s, p, y, stats, fail);
}

int mbd_run_stepper(const mbd_stepper *s, const mbd_run_params *p, double y[],
                    mbd_run_stats *stats, mbd_failure *fail)
{
    mbd_run_stats local;
    if (stats == NULL)
        stats = &local;
    memset(stats, 0, sizeof *stats);
    mbd_failure_clear(fail);

    const int exact_output = s->exact_output;
    const size_t n = s->dim;

    double t = p->t0;
    double *yi = NULL;                /* an interpolated state */

    /* output times t0 + k dt_out, k = 0 .. nout, the last one moved onto t_end */
    long count = 0;
    int st = mbd_run_output_count(p->t0, p->t_end, p->dt_out, &count, fail);
    if (st != GSL_SUCCESS)
        return st;
    if (p->max_outputs > 0 && count > p->max_outputs)
        return mbd_failure_set(fail, MBD_EINPUT, t,
                               "outputs every %g from %g to %g are %ld, more than the limit of "
                               "%ld", p->dt_out, p->t0, p->t_end, count, p->max_outputs);
    const long nout = count > 0 ? count - 1 : 0;
#define OUT_TIME(k) ((k) >= nout ? p->t_end : p->t0 + (double)(k) * p->dt_out)

    /* a fixed step that cannot reach t_end within the step limit is refused */
    if (p->max_steps > 0 && !s->adaptive && s->h > 0
        && mbd_run_fixed_steps(p->t0, p->t_end, s->h) > (double)p->max_steps)
        return mbd_failure_set(fail, MBD_EINPUT, t,
                               "the fixed step %.3g of %s needs %.3g steps to reach %g, more "
                               "than the limit of %ld",
                               s->h, s->name ? s->name : "this integrator",
                               mbd_run_fixed_steps(p->t0, p->t_end, s->h), p->t_end,
                               p->max_steps);
    yi = malloc(n * sizeof *yi);
    if (yi == NULL)
        return mbd_failure_set(fail, GSL_ENOMEM, t, "out of memory");
    st = s->start(s->self, t, y, p->t_end);
    if (st != GSL_SUCCESS)
        goto ode_failed;

    mbd_run_info info = {0.0, 0, 0, 0};
    if (p->output) {
        st = p->output(p->output_ctx, t, y, &info, fail);
        if (st != GSL_SUCCESS)
            goto done;
        stats->outputs++;
    }
    long next = 1;                    /* the next output index */

    while (t < p->t_end) {
        if (p->max_steps > 0 && info.step >= p->max_steps) {
            st = step_limit(s, p, t, y, info.h, fail);
            goto done;
        }
        double t_prev = t;
        double t_stop = (exact_output && nout > 0) ? OUT_TIME(next) : p->t_end;
        st = s->step(s->self, &t, y, t_stop);
        if (st != GSL_SUCCESS)
            goto ode_failed;
        const double h = t - t_prev;
        const double tol = 1e-10 * fmax(fabs(t), fabs(h));
        info.h = h;
        info.step++;   /* one accepted step per call (the stepper's own count agrees) */

        /* outputs strictly inside the step, from its interpolant */
        if (nout > 0) {
            while (next <= nout && OUT_TIME(next) < t - tol) {
                double to = OUT_TIME(next);
                st = s->interpolate(s->self, to, yi);
                if (st != GSL_SUCCESS) {
                    mbd_failure_set(fail, st, to, "interpolation failed at t = %g", to);
                    goto done;
                }
                if (p->output) {
                    info.final = 0;
                    info.interpolated = 1;
                    st = p->output(p->output_ctx, to, yi, &info, fail);
                    if (st != GSL_SUCCESS)
                        goto done;
                    stats->outputs++;
                }
                next++;
            }
        }

        /* the post-step hook: a correction may change the state */
        if (p->hook) {
            int changed = 0;
            st = p->hook(p->hook_ctx, t, y, &changed, fail);
            if (st != GSL_SUCCESS) {
                if (fail->status == GSL_SUCCESS)
                    mbd_failure_set(fail, st, t, "the post-step correction failed");
                goto done;
            }
            if (changed) {
                stats->corrections++;
                if (!finite_state(y, n)) {
                    st = mbd_failure_set(fail, MBD_ENONFINITE, t,
                                         "the post-step correction produced a non-finite state");
                    goto done;
                }
                st = s->reset(s->self, t, y);
                if (st != GSL_SUCCESS)
                    goto ode_failed;
            }
        }
        stats->t_reached = t;

        /* outputs at the end of the step (after the hook) */
        int at_end = t >= p->t_end;
        if (p->dt_out <= 0 || at_end) {
            if (p->output && (p->dt_out <= 0 || next <= nout)) {
                info.final = at_end;
                info.interpolated = 0;
                st = p->output(p->output_ctx, at_end ? p->t_end : t, y, &info, fail);
                if (st != GSL_SUCCESS)
                    goto done;
                stats->outputs++;
            }
            next = nout + 1;
        } else {
            while (next <= nout && fabs(OUT_TIME(next) - t) <= tol) {
                if (p->output) {
                    /* the grid time, not the sum of the steps (5, not 4.9999999999999982) */
                    info.final = 0;
                    info.interpolated = 0;
                    st = p->output(p->output_ctx, OUT_TIME(next), y, &info, fail);
                    if (st != GSL_SUCCESS)
                        goto done;
                    stats->outputs++;
                }
                next++;
            }
        }
    }
    st = GSL_SUCCESS;
    goto done;

ode_failed:
    *fail = *s->failure(s->self);
    if (fail->status == GSL_SUCCESS)
        mbd_failure_set(fail, st, t, "the integrator failed: %s", mbd_strerror(st));
done:
    free(yi);
    stats->ode = *s->stats(s->self);
    return st;
#undef OUT_TIME
}
