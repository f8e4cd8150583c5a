/* Exercise 09.6: the Newton matrix of a BDF step in acceleration form, the
 * document's quasi-Newton matrix and the full one (see README.md). */
#include <math.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>

#include "ex09.h"

int ex09_newton_matrix(const mbd_system *s, mbd_spatial_newton kind, double t, double h,
                       double beta0, const gsl_vector *aq, const gsl_vector *av,
                       const gsl_vector *qdd, const gsl_vector *lambda, gsl_matrix *J)
{
    /* EXERCISE 09.6 BEGIN */
    if (s == NULL || aq == NULL || av == NULL || qdd == NULL || lambda == NULL || J == NULL
        || (kind != MBD_SPATIAL_NEWTON_QUASI && kind != MBD_SPATIAL_NEWTON_FULL) || !isfinite(t)
        || !(h > 0 && isfinite(h)) || !(beta0 > 0 && isfinite(beta0)))
        return MBD_EINPUT;
    const size_t n = s->n, m = s->m, N = n + m;
    if (aq->size != n || av->size != n || qdd->size != n || (m > 0 && lambda->size != m)
        || J->size1 != N || J->size2 != N)
        return GSL_EBADLEN;
    const gsl_vector *in[4] = {aq, av, qdd, m > 0 ? lambda : NULL};
    for (int k = 0; k < 4; k++)
        for (size_t i = 0; in[k] != NULL && i < in[k]->size; i++)
            if (!isfinite(gsl_vector_get(in[k], i)))
                return MBD_EINPUT;
    const double bh = beta0 * h;
    gsl_vector *q = gsl_vector_alloc(n), *qd = gsl_vector_alloc(n), *F = gsl_vector_alloc(n);
    gsl_vector *col[2] = {gsl_vector_alloc(n), gsl_vector_alloc(n)};
    gsl_matrix *M = gsl_matrix_alloc(n, n), *D = gsl_matrix_alloc(n, n);
    gsl_matrix *Cq = m > 0 ? gsl_matrix_alloc(m, n) : NULL;
    int st = GSL_SUCCESS;
    if (!q || !qd || !F || !col[0] || !col[1] || !M || !D || (m > 0 && !Cq)) {
        st = GSL_ENOMEM;
        goto done;
    }
    /* the state that q'' gives: q' = a_v + beta0 h q'', q = a_q + beta0 h q' */
    for (size_t i = 0; i < n; i++) {
        const double v = gsl_vector_get(av, i) + bh * gsl_vector_get(qdd, i);
        gsl_vector_set(qd, i, v);
        gsl_vector_set(q, i, gsl_vector_get(aq, i) + bh * v);
    }
    /* the top-left block: M, plus the full matrix's terms */
    if ((st = s->mass(s, t, q, M)) != GSL_SUCCESS)
        goto done;
    gsl_matrix_memcpy(D, M);
    /* the full matrix: column k of beta0^2 h^2 d(M q'' + Phi_q^T lambda - F)/dq_k
     * and of -beta0 h dF/dq'_k, by central differences (x_k moved and
     * restored) */
    for (int which = 0; kind == MBD_SPATIAL_NEWTON_FULL && which < 2; which++) {
        gsl_vector *x = which == 0 ? q : qd;
        const double scale = which == 0 ? bh * bh : bh;
        for (size_t k = 0; k < n; k++) {
            const double xk = gsl_vector_get(x, k), d = 1e-6 * (1.0 + fabs(xk));
            for (int side = 0; side < 2; side++) {
                gsl_vector_set(x, k, xk + (side == 0 ? d : -d));
                gsl_vector *r = col[side];
                if ((st = s->force(s, t, q, qd, F)) != GSL_SUCCESS)
                    goto done;
                gsl_vector_memcpy(r, F);
                gsl_vector_scale(r, -1.0);
                if (which == 0) {
                    if ((st = s->mass(s, t, q, M)) != GSL_SUCCESS)
                        goto done;
                    gsl_blas_dgemv(CblasNoTrans, 1.0, M, qdd, 1.0, r);
                    if (m > 0) {
                        if ((st = s->jacobian(s, t, q, Cq)) != GSL_SUCCESS)
                            goto done;
                        gsl_blas_dgemv(CblasTrans, 1.0, Cq, lambda, 1.0, r);
                    }
                }
            }
            gsl_vector_set(x, k, xk);
            for (size_t i = 0; i < n; i++)
                *gsl_matrix_ptr(D, i, k) += scale * (gsl_vector_get(col[0], i)
                                                     - gsl_vector_get(col[1], i)) / (2 * d);
        }
    }
    if (m > 0 && (st = s->jacobian(s, t, q, Cq)) != GSL_SUCCESS)
        goto done;
    gsl_matrix_set_zero(J);
    gsl_matrix_view J11 = gsl_matrix_submatrix(J, 0, 0, n, n);
    gsl_matrix_memcpy(&J11.matrix, D);
    if (m > 0) {
        /* the constraint rows Phi / (beta0^2 h^2): their derivative is Phi_q */
        gsl_matrix_view J21 = gsl_matrix_submatrix(J, n, 0, m, n);
        gsl_matrix_view J12 = gsl_matrix_submatrix(J, 0, n, n, m);
        gsl_matrix_memcpy(&J21.matrix, Cq);
        gsl_matrix_transpose_memcpy(&J12.matrix, Cq);
    }
done:
    gsl_matrix_free(Cq);
    gsl_matrix_free(D);
    gsl_matrix_free(M);
    gsl_vector_free(col[1]);
    gsl_vector_free(col[0]);
    gsl_vector_free(F);
    gsl_vector_free(qd);
    gsl_vector_free(q);
    return st;
    /* EXERCISE 09.6 STUB
    (void)s; (void)kind; (void)t; (void)h; (void)beta0; (void)aq; (void)av; (void)qdd;
    (void)lambda; (void)J;
    EXERCISE 09.6 END */
}
