#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "mbd/io.h"
#include "mbd/simulate.h"

void mbd_history_init(mbd_history *h) { memset(h, 0, sizeof *h); }

void mbd_history_free(mbd_history *h)
{
    if (h == NULL)
        return;
    free(h->t);
    free(h->q);
    free(h->qd);
    free(h->C_norm);
    free(h->Cdot_norm);
    free(h->E);
    free(h->h);
    free(h->cond);
    mbd_history_init(h);
}

const double *mbd_history_q(const mbd_history *h, size_t k) { return h->q + k * h->n; }
const double *mbd_history_qd(const mbd_history *h, size_t k) { return h->qd + k * h->n; }

size_t mbd_history_row_at(const mbd_history *h, double time)
{
    size_t lo = 0, hi = h->rows;   /* the answer is in [lo, hi) */
    if (hi == 0)
        return 0;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (h->t[mid] <= time)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

static int grow(double **p, size_t count)
{
    double *q = realloc(*p, count * sizeof *q);
    if (q == NULL)
        return GSL_ENOMEM;
    *p = q;
    return GSL_SUCCESS;
}

/* Room for at least `rows` rows. */
static int reserve(mbd_history *h, size_t rows, int with_cond)
{
    if (rows <= h->capacity && (!with_cond || h->cond != NULL))
        return GSL_SUCCESS;
    size_t cap = rows > h->capacity ? rows : h->capacity;
    int st = GSL_SUCCESS;
    double **cols[] = {&h->t, &h->C_norm, &h->Cdot_norm, &h->E, &h->h};
    for (size_t i = 0; i < sizeof cols / sizeof cols[0] && st == GSL_SUCCESS; i++)
        st = grow(cols[i], cap);
    if (st == GSL_SUCCESS)
        st = grow(&h->q, cap * h->n);
    if (st == GSL_SUCCESS)
        st = grow(&h->qd, cap * h->n);
    if (st == GSL_SUCCESS && with_cond)
        st = grow(&h->cond, cap);
    if (st == GSL_SUCCESS)
        h->capacity = cap;
    return st;
}

int mbd_history_append(mbd_history *h, double t, const double q[], const double qd[],
                       double C_norm, double Cdot_norm, double E, double step)
{
    if (h->rows == h->capacity) {
        int st = reserve(h, h->capacity ? 2 * h->capacity : 1024, h->cond != NULL);
        if (st != GSL_SUCCESS)
            return st;
    }
    const size_t k = h->rows++, n = h->n;
    h->t[k] = t;
    memcpy(h->q + k * n, q, n * sizeof *q);
    memcpy(h->qd + k * n, qd, n * sizeof *qd);
    h->C_norm[k] = C_norm;
    h->Cdot_norm[k] = Cdot_norm;
    h->E[k] = E;
    h->h[k] = step;
    if (h->cond != NULL)
        h->cond[k] = NAN;
    return GSL_SUCCESS;
}

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
    s->max_C = fmax(s->max_C, C_norm);
    s->max_Cdot = fmax(s->max_Cdot, Cdot_norm);
    if (isfinite(E) && isfinite(s->E0))
        s->max_dE = fmax(s->max_dE, fabs(E - s->E0));
}

static int record(void *ctx, double t, const double y[], const mbd_run_info *info,
                  mbd_failure *fail)
{
    recorder *r = ctx;
    double C = 0, Cd = 0, E = NAN;
    int st = GSL_SUCCESS;
    const step_check *c = r->check;
    if (!info->interpolated && c != NULL && c->measured && c->t == t) {
        C = c->C;      /* the state the hook measured: not again */
        Cd = c->Cdot;
        E = c->E;
    } else {
        st = mbd_formulation_measure(r->f, t, y, &C, &Cd, &E);
    }
    if (st == GSL_SUCCESS)
        st = mbd_formulation_unpack(r->f, t, y, r->q, r->qd);
    if (st != GSL_SUCCESS) {
        *fail = *mbd_formulation_failure(r->f);
        return st;
    }
    if (!isfinite(C) || !isfinite(Cd))
        return mbd_failure_set(fail, MBD_ENONFINITE, t, "the constraint violation is not finite");
    mbd_sim_stats *s = r->stats;
    mbd_sim_stats_add(s, r->seen++, C, Cd, E);

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
        if (hist->n != n) {
            mbd_history_free(hist);
            hist->n = n;
        }
        hist->rows = 0;
        hist->has_energy = s->energy != NULL;
        hist->adaptive = ode->adaptive;
        size_t want = 1024;
        if (count > 0)
            want = (size_t)count;
        if (reserve(hist, want, p->record_condition) != GSL_SUCCESS)
            return mbd_failure_set(fail, GSL_ENOMEM, p->t0, "out of memory for the time history");
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

int mbd_history_csv(const mbd_history *h, const char *path, const char *const *names,
                    int with_energy, mbd_failure *fail)
{
    const size_t n = h->n;
    const size_t ncols = 1 + 2 * n + 2 + (with_energy ? 1 : 0) + (h->adaptive ? 1 : 0);
    char **header = calloc(ncols, sizeof *header);
    double *row = malloc(ncols * sizeof *row);
    int st = GSL_SUCCESS;
    if (header == NULL || row == NULL) {
        st = mbd_failure_set(fail, GSL_ENOMEM, NAN, "out of memory");
        goto out;
    }
    size_t c = 0;
    header[c++] = strdup("t");
    for (size_t j = 0; j < n; j++) {
        char buf[64];
        snprintf(buf, sizeof buf, "q%zu", j + 1);
        header[c++] = strdup(names ? names[j] : buf);
    }
    for (size_t j = 0; j < n; j++) {
        char buf[96];
        if (names)
            snprintf(buf, sizeof buf, "%s_dot", names[j]);
        else
            snprintf(buf, sizeof buf, "q%zu_dot", j + 1);
        header[c++] = strdup(buf);
    }
    header[c++] = strdup("C_norm");
    header[c++] = strdup("Cdot_norm");
    if (with_energy)
        header[c++] = strdup("E");
    if (h->adaptive)
        header[c++] = strdup("h");
    for (size_t i = 0; i < ncols; i++)
        if (header[i] == NULL) {
            st = mbd_failure_set(fail, GSL_ENOMEM, NAN, "out of memory");
            goto out;
        }
    mbd_csv *csv = mbd_csv_open(path, ncols, (const char *const *)header, &st, fail);
    if (csv == NULL)
        goto out;
    for (size_t k = 0; k < h->rows && st == GSL_SUCCESS; k++) {
        c = 0;
        row[c++] = h->t[k];
        for (size_t j = 0; j < n; j++)
            row[c++] = h->q[k * n + j];
        for (size_t j = 0; j < n; j++)
            row[c++] = h->qd[k * n + j];
        row[c++] = h->C_norm[k];
        row[c++] = h->Cdot_norm[k];
        if (with_energy)
            row[c++] = h->E[k];
        if (h->adaptive)
            row[c++] = h->h[k];
        st = mbd_csv_row(csv, row);
        if (st != GSL_SUCCESS)
            mbd_failure_set(fail, st, h->t[k], "a non-finite value in the CSV row at t = %g",
                            h->t[k]);
    }
    int st2 = mbd_csv_close(csv);
    if (st == GSL_SUCCESS && st2 != GSL_SUCCESS) {
        st = st2;
        mbd_failure_set(fail, st, NAN, "could not finish writing %s", path);
    }
out:
    if (header)
        for (size_t i = 0; i < ncols; i++)
            free(header[i]);
    free(header);
    free(row);
    return st;
}
