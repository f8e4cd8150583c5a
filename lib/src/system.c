#include <float.h>
#include <math.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>

#include "mbd/error.h"
#include "mbd/system.h"
#include "dense.h"

int mbd_system_validate(const mbd_system *s)
{
    if (s == NULL || s->n == 0)
        return MBD_EINPUT;
    if (s->mass == NULL || s->force == NULL)
        return MBD_EINPUT;
    if (s->m > 0 && (s->constraint == NULL || s->jacobian == NULL || s->gamma == NULL))
        return MBD_EINPUT;
    return GSL_SUCCESS;
}

int mbd_system_constraint_rate(const mbd_system *s, double t, const gsl_vector *q,
                               const gsl_vector *qd, gsl_matrix *Cq, gsl_vector *Cdot)
{
    int st = s->jacobian(s, t, q, Cq);
    if (st != GSL_SUCCESS)
        return st;
    if (s->constraint_t != NULL) {
        st = s->constraint_t(s, t, q, Cdot);
        if (st != GSL_SUCCESS)
            return st;
    } else {
        gsl_vector_set_zero(Cdot);
    }
    return mbd_dense_gemv(CblasNoTrans, 1.0, Cq, qd, 1.0, Cdot);
}

/* >> rate-jacobian */
int mbd_system_rate_jacobian(const mbd_system *s, double t, const gsl_vector *q,
                             const gsl_vector *qd, gsl_matrix *Cdot_q, gsl_vector *work)
{
    const size_t n = s->n, m = s->m;
    if (Cdot_q->size1 != m || Cdot_q->size2 != n || work->size < 2 * m + n)
        return GSL_EBADLEN;
    if (s->rate_jacobian != NULL)
        return s->rate_jacobian(s, t, q, qd, Cdot_q);
    gsl_vector_view g1 = gsl_vector_subvector(work, 0, m), g2 = gsl_vector_subvector(work, m, m);
    gsl_vector_view uv = gsl_vector_subvector(work, 2 * m, n);
    gsl_vector *u = &uv.vector;
    int st = GSL_SUCCESS;
    for (size_t j = 0; j < n && st == GSL_SUCCESS; j++) {
        gsl_vector_memcpy(u, qd);
        *gsl_vector_ptr(u, j) += 1.0;
        st = s->gamma(s, t, q, u, &g1.vector);
        *gsl_vector_ptr(u, j) -= 2.0;
        if (st == GSL_SUCCESS)
            st = s->gamma(s, t, q, u, &g2.vector);
        for (size_t i = 0; i < m && st == GSL_SUCCESS; i++)
            gsl_matrix_set(Cdot_q, i, j,
                           -0.25 * (gsl_vector_get(&g1.vector, i) - gsl_vector_get(&g2.vector, i)));
    }
    return st;
}
/* << rate-jacobian */

/* >> energy-gradient */
int mbd_system_energy_gradient(const mbd_system *s, double t, const gsl_vector *q,
                               const gsl_vector *qd, gsl_vector *E_q, gsl_vector *E_qd,
                               gsl_vector *work)
{
    const size_t n = s->n;
    if (E_q->size != n || E_qd->size != n || work->size < 2 * n)
        return GSL_EBADLEN;
    if (s->energy_gradient != NULL)
        return s->energy_gradient(s, t, q, qd, E_q, E_qd);
    if (s->energy == NULL)
        return MBD_EINPUT;
    gsl_vector_view x = gsl_vector_subvector(work, 0, n), v = gsl_vector_subvector(work, n, n);
    gsl_vector_memcpy(&x.vector, q);
    gsl_vector_memcpy(&v.vector, qd);
    const double step = cbrt(DBL_EPSILON);
    int st = GSL_SUCCESS;
    for (int block = 0; block < 2 && st == GSL_SUCCESS; block++) {
        gsl_vector *z = block == 0 ? &x.vector : &v.vector, *g = block == 0 ? E_q : E_qd;
        for (size_t j = 0; j < n && st == GSL_SUCCESS; j++) {
            const double z0 = gsl_vector_get(z, j), hj = step * (1.0 + fabs(z0));
            double Ep = 0.0, Em = 0.0;
            gsl_vector_set(z, j, z0 + hj);
            st = s->energy(s, t, &x.vector, &v.vector, &Ep);
            gsl_vector_set(z, j, z0 - hj);
            if (st == GSL_SUCCESS)
                st = s->energy(s, t, &x.vector, &v.vector, &Em);
            gsl_vector_set(z, j, z0);
            gsl_vector_set(g, j, (Ep - Em) / (2.0 * hj));
        }
    }
    return st;
}
/* << energy-gradient */

/* Largest |a_i - b_i| and the index where it occurs; scale = max |a_i|, |b_i|. */
static double max_diff(const gsl_vector *a, const gsl_vector *b, size_t *where, double *scale)
{
    double worst = 0.0, big = 0.0;
    *where = 0;
    for (size_t i = 0; i < a->size; i++) {
        double ai = gsl_vector_get(a, i), bi = gsl_vector_get(b, i);
        double d = fabs(ai - bi);
        if (!(d <= worst)) {      /* also catches NaN */
            worst = d;
            *where = i;
        }
        big = fmax(big, fmax(fabs(ai), fabs(bi)));
    }
    *scale = big;
    return worst;
}

static double relative(double abs_err, double scale)
{
    if (abs_err == 0.0)
        return 0.0;
    return abs_err / fmax(scale, DBL_MIN);
}

int mbd_system_check_derivatives(const mbd_system *s, double t, const gsl_vector *q,
                                 const gsl_vector *qd, double h, mbd_fdcheck *out)
{
    int st = mbd_system_validate(s);
    if (st != GSL_SUCCESS)
        return st;
    const size_t n = s->n, m = s->m;
    *out = (mbd_fdcheck){0};
    if (m == 0)
        return GSL_SUCCESS;

    const double h1 = h > 0 ? h : 1e-5;   /* first derivatives */
    const double h2 = h > 0 ? h : 1e-4;   /* second derivatives */

    gsl_matrix *Cq = gsl_matrix_alloc(m, n);
    gsl_vector *qp = gsl_vector_alloc(n);
    gsl_vector *cp = gsl_vector_alloc(m), *cm = gsl_vector_alloc(m), *c0 = gsl_vector_alloc(m);
    gsl_vector *model = gsl_vector_alloc(m), *fd = gsl_vector_alloc(m);

    st = s->jacobian(s, t, q, Cq);

    /* C_q column by column: (C(q + h e_j) - C(q - h e_j)) / 2h */
    double jac_abs = 0.0, jac_scale = 0.0;
    for (size_t j = 0; j < n && st == GSL_SUCCESS; j++) {
        double hj = h1 * fmax(1.0, fabs(gsl_vector_get(q, j)));
        gsl_vector_memcpy(qp, q);
        gsl_vector_set(qp, j, gsl_vector_get(q, j) + hj);
        st = s->constraint(s, t, qp, cp);
        if (st != GSL_SUCCESS)
            break;
        gsl_vector_set(qp, j, gsl_vector_get(q, j) - hj);
        st = s->constraint(s, t, qp, cm);
        if (st != GSL_SUCCESS)
            break;
        for (size_t i = 0; i < m; i++) {
            double d = (gsl_vector_get(cp, i) - gsl_vector_get(cm, i)) / (2.0 * hj);
            double a = gsl_matrix_get(Cq, i, j);
            double e = fabs(a - d);
            if (!(e <= jac_abs)) {
                jac_abs = e;
                out->jacobian_row = i;
                out->jacobian_col = j;
            }
            jac_scale = fmax(jac_scale, fmax(fabs(a), fabs(d)));
        }
    }
    out->jacobian_abs = jac_abs;
    out->jacobian_rel = relative(jac_abs, jac_scale);

    /* C_t: (C(t + h, q) - C(t - h, q)) / 2h, against zero when absent */
    if (st == GSL_SUCCESS) {
        double ht = h1 * fmax(1.0, fabs(t));
        st = s->constraint(s, t + ht, q, cp);
        if (st == GSL_SUCCESS)
            st = s->constraint(s, t - ht, q, cm);
        if (st == GSL_SUCCESS) {
            for (size_t i = 0; i < m; i++)
                gsl_vector_set(fd, i, (gsl_vector_get(cp, i) - gsl_vector_get(cm, i)) / (2.0 * ht));
            if (s->constraint_t != NULL)
                st = s->constraint_t(s, t, q, model);
            else
                gsl_vector_set_zero(model);
        }
        if (st == GSL_SUCCESS) {
            size_t where;
            double scale;
            out->ct_abs = max_diff(model, fd, &where, &scale);
            out->ct_rel = relative(out->ct_abs, scale);
        }
    }

    /* gamma: along t + s, q + s q' the acceleration is zero, so
     * d2C/ds2 = C_q * 0 - gamma = -gamma. */
    if (st == GSL_SUCCESS) {
        double qscale = 1.0;
        for (size_t j = 0; j < n; j++)
            qscale = fmax(qscale, fabs(gsl_vector_get(q, j)));
        double hs = h2 * qscale / fmax(1.0, gsl_blas_dnrm2(qd));
        gsl_vector_memcpy(qp, q);
        gsl_blas_daxpy(hs, qd, qp);
        st = s->constraint(s, t + hs, qp, cp);
        if (st == GSL_SUCCESS) {
            gsl_vector_memcpy(qp, q);
            gsl_blas_daxpy(-hs, qd, qp);
            st = s->constraint(s, t - hs, qp, cm);
        }
        if (st == GSL_SUCCESS)
            st = s->constraint(s, t, q, c0);
        if (st == GSL_SUCCESS)
            st = s->gamma(s, t, q, qd, model);
        if (st == GSL_SUCCESS) {
            for (size_t i = 0; i < m; i++) {
                double d2 = (gsl_vector_get(cp, i) - 2.0 * gsl_vector_get(c0, i)
                             + gsl_vector_get(cm, i)) / (hs * hs);
                gsl_vector_set(fd, i, -d2);
            }
            double scale;
            out->gamma_abs = max_diff(model, fd, &out->gamma_row, &scale);
            out->gamma_rel = relative(out->gamma_abs, scale);
        }
    }

    gsl_matrix_free(Cq);
    gsl_vector_free(qp);
    gsl_vector_free(cp);
    gsl_vector_free(cm);
    gsl_vector_free(c0);
    gsl_vector_free(model);
    gsl_vector_free(fd);
    return st;
}
