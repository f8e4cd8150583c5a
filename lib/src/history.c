#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "mbd/history.h"
#include "mbd/io.h"

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
    double *hq = h->q + k * n, *hqd = h->qd + k * n;
    for (size_t j = 0; j < n; j++) {   /* a loop: n is a handful, a memcpy call costs more */
        hq[j] = q[j];
        hqd[j] = qd[j];
    }
    h->C_norm[k] = C_norm;
    h->Cdot_norm[k] = Cdot_norm;
    h->E[k] = E;
    h->h[k] = step;
    if (h->cond != NULL)
        h->cond[k] = NAN;
    return GSL_SUCCESS;
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

int mbd_history_reset(mbd_history *h, size_t n, size_t rows, int with_cond)
{
    if (h->n != n) {
        mbd_history_free(h);
        h->n = n;
    }
    h->rows = 0;
    return reserve(h, rows > 0 ? rows : 1024, with_cond);
}

void mbd_history_max_difference(const mbd_history *a, const mbd_history *b, double t_max,
                                double diff[])
{
    const size_t n = a->n;
    for (size_t j = 0; j < 2 * n; j++)
        diff[j] = 0.0;
    const size_t rows = a->rows < b->rows ? a->rows : b->rows;
    for (size_t k = 0; k < rows && a->t[k] <= t_max; k++) {
        const double *qa = mbd_history_q(a, k), *qb = mbd_history_q(b, k);
        const double *va = mbd_history_qd(a, k), *vb = mbd_history_qd(b, k);
        for (size_t j = 0; j < n; j++) {
            diff[j] = fmax(diff[j], fabs(qa[j] - qb[j]));
            diff[n + j] = fmax(diff[n + j], fabs(va[j] - vb[j]));
        }
    }
}

int mbd_history_max_error(const mbd_history *h, double t_max, mbd_reference_fn ref, void *ctx,
                          double err[])
{
    const size_t n = h->n;
    double q[2 * 64], *buf = n <= 64 ? q : malloc(2 * n * sizeof *buf);
    if (buf == NULL)
        return GSL_ENOMEM;
    for (size_t j = 0; j < 2 * n; j++)
        err[j] = 0.0;
    int st = GSL_SUCCESS;
    for (size_t k = 0; k < h->rows && h->t[k] <= t_max && st == GSL_SUCCESS; k++) {
        st = ref(ctx, h->t[k], buf, buf + n);
        const double *hq = mbd_history_q(h, k), *hv = mbd_history_qd(h, k);
        for (size_t j = 0; j < n && st == GSL_SUCCESS; j++) {
            err[j] = fmax(err[j], fabs(hq[j] - buf[j]));
            err[n + j] = fmax(err[n + j], fabs(hv[j] - buf[n + j]));
        }
    }
    if (buf != q)
        free(buf);
    return st;
}

double mbd_history_energy_drift(const mbd_history *h, double t_max)
{
    double e = 0.0;
    for (size_t k = 0; k < h->rows && h->t[k] <= t_max; k++)
        if (isfinite(h->E[k]) && isfinite(h->E[0]))
            e = fmax(e, fabs(h->E[k] - h->E[0]));
    return e;
}

_gsl_vector_const_view mbd_history_column(const mbd_history *h, size_t j)
{
    const size_t n = h->n;
    if (h->rows == 0 || j >= 2 * n + 4) {
        const gsl_vector_const_view none = {{0, 0, NULL, NULL, 0}};
        return none;
    }
    if (j < 2 * n)
        return gsl_vector_const_view_array_with_stride(j < n ? h->q + j : h->qd + (j - n), n,
                                                       h->rows);
    const double *cols[4] = {h->C_norm, h->Cdot_norm, h->E, h->h};
    return gsl_vector_const_view_array(cols[j - 2 * n], h->rows);
}
