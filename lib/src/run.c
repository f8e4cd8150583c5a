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

int mbd_run(mbd_ode *o, const mbd_run_params *p, double y[], mbd_run_stats *stats,
            mbd_failure *fail)
{
    mbd_run_stats local;
    if (stats == NULL)
        stats = &local;
    memset(stats, 0, sizeof *stats);
    mbd_failure_clear(fail);

    const mbd_ode_params *op = mbd_ode_get_params(o);
    const int exact_output = op->kind == MBD_ODE_GSL;   /* no interpolant worth the name */
    const size_t n = mbd_ode_dim(o);

    double t = p->t0;
    double *yi = NULL;                /* an interpolated state */
    const double span = p->t_end - p->t0;
    if (!(span > 0))
        return mbd_failure_set(fail, GSL_EINVAL, t, "t_end %g is not after t0 %g", p->t_end, p->t0);

    /* output times t0 + k dt_out, k = 0 .. nout, the last one moved onto t_end */
    long nout = 0;
    if (p->dt_out > 0) {
        double r = span / p->dt_out;
        nout = (long)floor(r + 1e-9);
        if (fabs(r - (double)nout) > 1e-9 * fmax(1.0, r))
            nout++;   /* t_end is not on the grid: it is the extra last output */
    }
#define OUT_TIME(k) ((k) >= nout ? p->t_end : p->t0 + (double)(k) * p->dt_out)

    /* a fixed step that cannot reach t_end within the step limit fails at once */
    if (p->max_steps > 0 && !op->adaptive && op->h > 0 && span / op->h > (double)p->max_steps)
        return mbd_failure_set(fail, MBD_ESTEPSIZE, t,
                               "the fixed step %.3g of %s needs %.3g steps to reach %g, more "
                               "than the limit of %ld; choose a larger one",
                               op->h, op->name ? op->name : "this integrator", span / op->h,
                               p->t_end, p->max_steps);
    yi = malloc(n * sizeof *yi);
    if (yi == NULL)
        return mbd_failure_set(fail, GSL_ENOMEM, t, "out of memory");
    int st = mbd_ode_start(o, t, y, p->t_end);
    if (st != GSL_SUCCESS)
        goto ode_failed;

    mbd_run_info info = {0.0, 0, 0};
    if (p->output) {
        st = p->output(p->output_ctx, t, y, &info, fail);
        if (st != GSL_SUCCESS)
            goto done;
        stats->outputs++;
    }
    long next = 1;                    /* the next output index */

    while (t < p->t_end) {
        if (p->max_steps > 0 && mbd_ode_get_stats(o)->steps >= p->max_steps) {
            const char *name = op->name ? op->name : "this integrator";
            if (op->adaptive)
                st = mbd_failure_set(fail, MBD_ESTEPSIZE, t,
                                     "%ld steps reached only t = %.6g of %g (last step %.3g): the "
                                     "problem is too stiff for %s",
                                     p->max_steps, t, p->t_end, info.h, name);
            else
                st = mbd_failure_set(fail, MBD_ESTEPSIZE, t,
                                     "%ld steps reached only t = %.6g of %g: the fixed step %.3g "
                                     "of %s is too small to get there; choose a larger one",
                                     p->max_steps, t, p->t_end, info.h, name);
            goto done;
        }
        double t_prev = t;
        double t_stop = (exact_output && nout > 0) ? OUT_TIME(next) : p->t_end;
        st = mbd_ode_step(o, &t, y, t_stop);
        if (st != GSL_SUCCESS)
            goto ode_failed;
        const double h = t - t_prev;
        const double tol = 1e-10 * fmax(fabs(t), fabs(h));
        info.h = h;
        info.step = mbd_ode_get_stats(o)->steps;

        /* outputs strictly inside the step, from its interpolant */
        if (nout > 0) {
            while (next <= nout && OUT_TIME(next) < t - tol) {
                double to = OUT_TIME(next);
                st = mbd_ode_interpolate(o, to, yi);
                if (st != GSL_SUCCESS) {
                    mbd_failure_set(fail, st, to, "interpolation failed at t = %g", to);
                    goto done;
                }
                if (p->output) {
                    info.final = 0;
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
                st = mbd_ode_reset(o, t, y);
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
    *fail = *mbd_ode_failure(o);
    if (fail->status == GSL_SUCCESS)
        mbd_failure_set(fail, st, t, "the integrator failed: %s", mbd_strerror(st));
done:
    free(yi);
    stats->ode = *mbd_ode_get_stats(o);
    return st;
#undef OUT_TIME
}
