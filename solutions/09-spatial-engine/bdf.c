/* Exercise 09.5: a step of BDF in acceleration form -- the variable-step
 * coefficients, and one quasi-Newton-solved step of the index-3 equations
 * of motion (see README.md). */
#include <math.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_permutation.h>

#include "ex09.h"

int ex09_bdf_coefficients(unsigned order, double w, ex09_bdf_coef *c)
{
    /* EXERCISE 09.5 BEGIN */
    if (c == NULL || (order != 1 && order != 2))
        return MBD_EINPUT;
    if (order == 1) {
        c->beta0 = 1.0;
        c->alpha[0] = 1.0;
        c->alpha[1] = 0.0;
        return GSL_SUCCESS;
    }
    if (!(w > 0.0 && isfinite(w)))
        return MBD_EINPUT;
    const double d = 1.0 + 2.0 * w;
    c->beta0 = (1.0 + w) / d;
    c->alpha[0] = (1.0 + w) * (1.0 + w) / d;
    c->alpha[1] = -w * w / d;
    return GSL_SUCCESS;
    /* EXERCISE 09.5 STUB
    (void)order; (void)w; (void)c;
    EXERCISE 09.5 END */
}

int ex09_bdf_step(const mbd_system *s, double t, const ex09_bdf_settings *set,
                  const gsl_vector *q1, const gsl_vector *qd1, const gsl_vector *q2,
                  const gsl_vector *qd2, gsl_vector *q, gsl_vector *qd, gsl_vector *qdd,
                  gsl_vector *lambda, unsigned *iterations)
{
    /* EXERCISE 09.5 BEGIN */
    if (s == NULL || set == NULL || q1 == NULL || qd1 == NULL || q == NULL || qd == NULL
        || qdd == NULL || lambda == NULL)
        return MBD_EINPUT;
    ex09_bdf_coef c;
    if ((set->order == 2 && (q2 == NULL || qd2 == NULL)) || !(set->h > 0 && isfinite(set->h))
        || !(set->tol > 0 && isfinite(set->tol)) || set->max_iter == 0 || !isfinite(t)
        || ex09_bdf_coefficients(set->order, set->w, &c) != GSL_SUCCESS)
        return MBD_EINPUT;
    const size_t n = s->n, m = s->m, N = n + m;
    if (q1->size != n || qd1->size != n || q->size != n || qd->size != n || qdd->size != n
        || (m > 0 && lambda->size != m)
        || (set->order == 2 && (q2->size != n || qd2->size != n)))
        return GSL_EBADLEN;
    const gsl_vector *in[6] = {q1, qd1, qdd, m > 0 ? lambda : NULL, set->order == 2 ? q2 : NULL,
                               set->order == 2 ? qd2 : NULL};
    for (int k = 0; k < 6; k++)
        for (size_t i = 0; in[k] != NULL && i < in[k]->size; i++)
            if (!isfinite(gsl_vector_get(in[k], i)))
                return MBD_EINPUT;
    const double h = set->h, bh = c.beta0 * h, bh2 = bh * bh;
    gsl_vector *aq = gsl_vector_alloc(n), *av = gsl_vector_alloc(n);
    gsl_vector *x = gsl_vector_alloc(n), *v = gsl_vector_alloc(n), *F = gsl_vector_alloc(n);
    gsl_vector *z = gsl_vector_alloc(N), *g = gsl_vector_alloc(N), *dz = gsl_vector_alloc(N);
    gsl_vector *C = m > 0 ? gsl_vector_alloc(m) : NULL;
    gsl_matrix *M = gsl_matrix_alloc(n, n), *Cq = m > 0 ? gsl_matrix_alloc(m, n) : NULL;
    gsl_matrix *J = gsl_matrix_alloc(N, N);
    gsl_permutation *perm = gsl_permutation_alloc(N);
    int st = GSL_SUCCESS;
    unsigned it = 0;
    if (!aq || !av || !x || !v || !F || !z || !g || !dz || (m > 0 && (!C || !Cq)) || !M || !J
        || !perm) {
        st = GSL_ENOMEM;
        goto done;
    }
    /* the BDF combinations of the past values */
    for (size_t i = 0; i < n; i++) {
        double a = c.alpha[0] * gsl_vector_get(q1, i), b = c.alpha[0] * gsl_vector_get(qd1, i);
        if (set->order == 2) {
            a += c.alpha[1] * gsl_vector_get(q2, i);
            b += c.alpha[1] * gsl_vector_get(qd2, i);
        }
        gsl_vector_set(aq, i, a);
        gsl_vector_set(av, i, b);
    }
    gsl_vector_view zq = gsl_vector_subvector(z, 0, n), gq = gsl_vector_subvector(g, 0, n);
    gsl_vector_view dq = gsl_vector_subvector(dz, 0, n);
    gsl_vector_memcpy(&zq.vector, qdd);
    if (m > 0) {
        gsl_vector_view zl = gsl_vector_subvector(z, n, m);
        gsl_vector_memcpy(&zl.vector, lambda);
    }
    for (;;) {
        /* q' = a_v + beta0 h q'', q = a_q + beta0 h q' */
        for (size_t i = 0; i < n; i++) {
            const double vi = gsl_vector_get(av, i) + bh * gsl_vector_get(&zq.vector, i);
            gsl_vector_set(v, i, vi);
            gsl_vector_set(x, i, gsl_vector_get(aq, i) + bh * vi);
        }
        if (it > 0) {
            /* converged when the last correction moved the positions by <= tol */
            double dmax = 0.0;
            for (size_t i = 0; i < n; i++) {
                const double a = fabs(gsl_vector_get(&dq.vector, i));
                dmax = isnan(a) ? INFINITY : fmax(dmax, a);
            }
            if (bh2 * dmax <= set->tol)
                break;
            if (it == set->max_iter) {
                st = MBD_ENOCONV;
                break;
            }
        }
        if ((st = s->mass(s, t, x, M)) != GSL_SUCCESS
            || (st = s->force(s, t, x, v, F)) != GSL_SUCCESS)
            break;
        if (m > 0 && ((st = s->constraint(s, t, x, C)) != GSL_SUCCESS
                      || (st = s->jacobian(s, t, x, Cq)) != GSL_SUCCESS))
            break;
        if (it == 0) {
            /* the quasi-Newton matrix [M Phi_q^T; Phi_q 0] at the guess, once */
            gsl_matrix_set_zero(J);
            gsl_matrix_view J11 = gsl_matrix_submatrix(J, 0, 0, n, n);
            gsl_matrix_memcpy(&J11.matrix, M);
            if (m > 0) {
                gsl_matrix_view J21 = gsl_matrix_submatrix(J, n, 0, m, n);
                gsl_matrix_view J12 = gsl_matrix_submatrix(J, 0, n, n, m);
                gsl_matrix_memcpy(&J21.matrix, Cq);
                gsl_matrix_transpose_memcpy(&J12.matrix, Cq);
            }
            double jmax = 0.0;
            for (size_t i = 0; i < N; i++)
                for (size_t j = 0; j < N; j++)
                    jmax = fmax(jmax, fabs(gsl_matrix_get(J, i, j)));
            int signum;
            gsl_linalg_LU_decomp(J, perm, &signum);
            int singular = 0;
            for (size_t k = 0; k < N; k++)
                singular = singular || !(fabs(gsl_matrix_get(J, k, k)) > 1e-12 * jmax);
            if (singular) {
                st = MBD_ESINGULAR;
                break;
            }
        }
        /* g = [M q'' + Phi_q^T lambda - F; Phi / (beta0^2 h^2)] */
        gsl_vector_memcpy(&gq.vector, F);
        gsl_blas_dgemv(CblasNoTrans, 1.0, M, &zq.vector, -1.0, &gq.vector);
        if (m > 0) {
            gsl_vector_view zl = gsl_vector_subvector(z, n, m), gc = gsl_vector_subvector(g, n, m);
            gsl_blas_dgemv(CblasTrans, 1.0, Cq, &zl.vector, 1.0, &gq.vector);
            gsl_vector_memcpy(&gc.vector, C);
            gsl_vector_scale(&gc.vector, 1.0 / bh2);
        }
        gsl_vector_scale(g, -1.0);
        gsl_linalg_LU_solve(J, perm, g, dz);
        gsl_vector_add(z, dz);
        it++;
    }
    if (st != GSL_SUCCESS)
        goto done;
    gsl_vector_memcpy(q, x);
    gsl_vector_memcpy(qd, v);
    gsl_vector_memcpy(qdd, &zq.vector);
    if (m > 0) {
        gsl_vector_view zl = gsl_vector_subvector(z, n, m);
        gsl_vector_memcpy(lambda, &zl.vector);
    }
    if (iterations != NULL)
        *iterations = it;
done:
    gsl_permutation_free(perm);
    gsl_matrix_free(J);
    gsl_matrix_free(Cq);
    gsl_matrix_free(M);
    gsl_vector_free(C);
    gsl_vector_free(dz);
    gsl_vector_free(g);
    gsl_vector_free(z);
    gsl_vector_free(F);
    gsl_vector_free(v);
    gsl_vector_free(x);
    gsl_vector_free(av);
    gsl_vector_free(aq);
    return st;
    /* EXERCISE 09.5 STUB
    (void)s; (void)t; (void)set; (void)q1; (void)qd1; (void)q2; (void)qd2; (void)q; (void)qd;
    (void)qdd; (void)lambda; (void)iterations;
    EXERCISE 09.5 END */
}
