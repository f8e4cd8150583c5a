#define _DEFAULT_SOURCE   /* madvise's MADV_HUGEPAGE (Linux), where there is one */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <gsl/gsl_errno.h>

#include "mbd/history.h"
#include "mbd/io.h"

void mbd_history_init(mbd_history *h) { memset(h, 0, sizeof *h); }

void mbd_history_free(mbd_history *h)
{
    if (h == NULL)
        return;
    free(h->block);   /* every column lives in it */
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

/* One block for all the columns. A long history is a few megabytes that a
 * fresh process touches page by page, and a first touch costs a page fault:
 * a block of 2 MiB or more is aligned to 2 MiB and offered to the kernel for
 * transparent huge pages (one fault per 2 MiB instead of per 4 KiB), where
 * the system has them. */
#define HUGE_PAGE ((size_t)2 << 20)
static double *block_alloc(size_t count)
{
    const size_t bytes = count * sizeof(double);
    if (bytes < HUGE_PAGE)
        return malloc(bytes > 0 ? bytes : 1);
    void *p = NULL;
    const size_t rounded = (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
    if (posix_memalign(&p, HUGE_PAGE, rounded) != 0)
        return NULL;
#ifdef MADV_HUGEPAGE
    madvise(p, rounded, MADV_HUGEPAGE);   /* advice: ignored where not supported */
#endif
    return p;
}

/* Room for at least `rows` rows: a new block laid out column by column
 * (t, C_norm, Cdot_norm, E, h, q, qd, cond), the rows so far copied over. */
static int reserve(mbd_history *h, size_t rows, int with_cond)
{
    if (rows <= h->capacity && (!with_cond || h->cond != NULL))
        return GSL_SUCCESS;
    const size_t cap = rows > h->capacity ? rows : h->capacity, n = h->n;
    const int cond = with_cond || h->cond != NULL;
    double *b = block_alloc(cap * (5 + 2 * n + (cond ? 1 : 0)));
    if (b == NULL)
        return GSL_ENOMEM;
    double *cols[] = {b, b + cap, b + 2 * cap, b + 3 * cap, b + 4 * cap};
    double **old[] = {&h->t, &h->C_norm, &h->Cdot_norm, &h->E, &h->h};
    for (size_t i = 0; i < 5; i++) {
        if (h->rows > 0)
            memcpy(cols[i], *old[i], h->rows * sizeof(double));
        *old[i] = cols[i];
    }
    double *q = b + 5 * cap, *qd = q + cap * n, *c = cond ? qd + cap * n : NULL;
    if (h->rows > 0) {
        memcpy(q, h->q, h->rows * n * sizeof(double));
        memcpy(qd, h->qd, h->rows * n * sizeof(double));
        if (c != NULL && h->cond != NULL)
            memcpy(c, h->cond, h->rows * sizeof(double));
    }
    if (c != NULL && h->cond == NULL)
        for (size_t k = 0; k < h->rows; k++)
            c[k] = NAN;
    h->q = q;
    h->qd = qd;
    h->cond = c;
    free(h->block);
    h->block = b;
    h->capacity = cap;
    return GSL_SUCCESS;
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
