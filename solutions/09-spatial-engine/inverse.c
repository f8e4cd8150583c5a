/* Exercise 09.4: inverse dynamics -- the multipliers of a fully driven
 * model, and the force and torque that rows exert on a body (see
 * README.md). */
#include <math.h>
#include <string.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_permutation.h>

#include "ex09.h"

int ex09_multipliers(const mbd_spatial_model *sm, double t, const gsl_vector *q,
                     const gsl_vector *qd, const gsl_vector *qdd, gsl_vector *lambda)
{
    /* EXERCISE 09.4 BEGIN */
    if (sm == NULL || q == NULL || qd == NULL || qdd == NULL || lambda == NULL)
        return MBD_EINPUT;
    const mbd_system *s = mbd_spatial_system(sm);
    if (s == NULL || s->m != s->n || !isfinite(t))
        return MBD_EINPUT;
    const size_t n = s->n;
    if (q->size != n || qd->size != n || qdd->size != n || lambda->size != n)
        return GSL_EBADLEN;
    for (size_t i = 0; i < n; i++)
        if (!isfinite(gsl_vector_get(q, i)) || !isfinite(gsl_vector_get(qd, i))
            || !isfinite(gsl_vector_get(qdd, i)))
            return MBD_EINPUT;
    gsl_matrix *M = gsl_matrix_alloc(n, n), *Cq = gsl_matrix_alloc(n, n);
    gsl_matrix *LU = gsl_matrix_alloc(n, n);
    gsl_vector *F = gsl_vector_alloc(n), *lam = gsl_vector_alloc(n);
    gsl_permutation *perm = gsl_permutation_alloc(n);
    int st = GSL_SUCCESS;
    if (!M || !Cq || !LU || !F || !lam || !perm) {
        st = GSL_ENOMEM;
        goto done;
    }
    if ((st = s->mass(s, t, q, M)) != GSL_SUCCESS || (st = s->force(s, t, q, qd, F)) != GSL_SUCCESS
        || (st = s->jacobian(s, t, q, Cq)) != GSL_SUCCESS)
        goto done;
    /* the right-hand side F - M q'' */
    gsl_blas_dgemv(CblasNoTrans, -1.0, M, qdd, 1.0, F);
    /* Phi_q^T lambda = F - M q'', by the LU factors of Phi_q^T */
    double cmax = 0.0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            cmax = fmax(cmax, fabs(gsl_matrix_get(Cq, i, j)));
    gsl_matrix_transpose_memcpy(LU, Cq);
    int signum;
    gsl_linalg_LU_decomp(LU, perm, &signum);
    for (size_t k = 0; k < n; k++)
        if (!(fabs(gsl_matrix_get(LU, k, k)) > 1e-12 * cmax)) {
            st = MBD_ESINGULAR;
            goto done;
        }
    gsl_linalg_LU_solve(LU, perm, F, lam);
    gsl_vector_memcpy(lambda, lam);
done:
    gsl_permutation_free(perm);
    gsl_vector_free(lam);
    gsl_vector_free(F);
    gsl_matrix_free(LU);
    gsl_matrix_free(Cq);
    gsl_matrix_free(M);
    return st;
    /* EXERCISE 09.4 STUB
    (void)sm; (void)t; (void)q; (void)qd; (void)qdd; (void)lambda;
    EXERCISE 09.4 END */
}

int ex09_reaction_on(const mbd_spatial_model *sm, size_t first, size_t count, int b,
                     const gsl_vector *q, const gsl_vector *lambda, ex09_reaction *out)
{
    /* EXERCISE 09.4 BEGIN */
    if (sm == NULL || q == NULL || lambda == NULL || out == NULL)
        return MBD_EINPUT;
    const mbd_system *s = mbd_spatial_system(sm);
    if (s == NULL || count == 0 || first > s->m || count > s->m - first || b < 0
        || (size_t)b >= mbd_spatial_n_bodies(sm))
        return MBD_EINPUT;
    if (q->size != s->n || lambda->size != s->m)
        return GSL_EBADLEN;
    /* the sums over the rows of body b's blocks times the multipliers */
    double F[3] = {0.0, 0.0, 0.0}, tau[4] = {0.0, 0.0, 0.0, 0.0};
    for (size_t k = first; k < first + count; k++) {
        mbd_spatial_row_info info;
        mbd_spatial_row_eval e;
        int st = mbd_spatial_row_info_get(sm, k, &info);
        if (st != GSL_SUCCESS)
            return st;
        const int side = info.body[0] == b ? 0 : info.body[1] == b ? 1 : -1;
        if (side < 0)
            return MBD_EINPUT;
        if ((st = mbd_spatial_eval_row(sm, k, 0.0, q, NULL, &e)) != GSL_SUCCESS)
            return st;
        const double l = gsl_vector_get(lambda, k);
        for (int x = 0; x < 3; x++)
            F[x] -= e.phi_r[side][x] * l;
        for (int x = 0; x < 4; x++)
            tau[x] -= e.phi_p[side][x] * l;
    }
    /* n_bar = G(p) tau / 2 in the body frame, n = A n_bar globally */
    double p[4], G[3][4], A[3][3];
    const int st = mbd_spatial_pose(sm, b, q, NULL, p);
    if (st != GSL_SUCCESS)
        return st;
    mbd_spatial_ep_G(p, G);
    mbd_spatial_ep_A(p, A);
    ex09_reaction r;
    for (int x = 0; x < 3; x++) {
        r.F[x] = F[x];
        r.n_bar[x] = 0.5 * (G[x][0] * tau[0] + G[x][1] * tau[1] + G[x][2] * tau[2]
                            + G[x][3] * tau[3]);
    }
    for (int x = 0; x < 3; x++)
        r.n[x] = A[x][0] * r.n_bar[0] + A[x][1] * r.n_bar[1] + A[x][2] * r.n_bar[2];
    *out = r;
    return GSL_SUCCESS;
    /* EXERCISE 09.4 STUB
    (void)sm; (void)first; (void)count; (void)b; (void)q; (void)lambda; (void)out;
    EXERCISE 09.4 END */
}
