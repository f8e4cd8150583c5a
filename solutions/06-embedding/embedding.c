/* Exercise 06.3: embedding, the velocity transformation and the embedded
 * equations of motion (see README.md). */
#include <math.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_permutation.h>
#include <gsl/gsl_vector.h>

#include "ex06.h"

int ex06_velocity_transform(const gsl_matrix *Cq, const size_t indep[], gsl_matrix *B)
{
    /* EXERCISE 06.3 BEGIN */
    const size_t m = Cq->size1, n = Cq->size2;
    if (m < 1 || m >= n)
        return GSL_EBADLEN;
    const size_t k = n - m;
    if (B->size1 != n || B->size2 != k)
        return GSL_EBADLEN;
    for (size_t l = 0; l < k; l++) {
        if (indep[l] >= n)
            return GSL_EINVAL;
        for (size_t l2 = 0; l2 < l; l2++)
            if (indep[l2] == indep[l])
                return GSL_EINVAL;
    }
    gsl_matrix *K = gsl_matrix_calloc(n, n);
    gsl_permutation *perm = gsl_permutation_alloc(n);
    gsl_vector *x = gsl_vector_alloc(n);
    int st = GSL_SUCCESS;
    if (K == NULL || perm == NULL || x == NULL) {
        st = GSL_ENOMEM;
        goto done;
    }
    /* K = [C_q; I_d]: row m + l picks the independent coordinate indep[l] */
    for (size_t r = 0; r < m; r++)
        for (size_t c = 0; c < n; c++)
            gsl_matrix_set(K, r, c, gsl_matrix_get(Cq, r, c));
    for (size_t l = 0; l < k; l++)
        gsl_matrix_set(K, m + l, indep[l], 1.0);
    double kmax = 0.0;
    for (size_t r = 0; r < n; r++)
        for (size_t c = 0; c < n; c++)
            kmax = fmax(kmax, fabs(gsl_matrix_get(K, r, c)));
    int signum;
    gsl_linalg_LU_decomp(K, perm, &signum);
    for (size_t r = 0; r < n; r++)
        if (!(fabs(gsl_matrix_get(K, r, r)) > 1e-12 * kmax)) {
            st = MBD_ESINGULAR;   /* C_qd is singular: these q_i cannot be independent */
            goto done;
        }
    /* column l: the velocity with C_q b = 0 and q_i' = e_l, in q's own order */
    for (size_t l = 0; l < k; l++) {
        gsl_vector_set_basis(x, m + l);
        gsl_linalg_LU_svx(K, perm, x);
        for (size_t r = 0; r < n; r++)
            gsl_matrix_set(B, r, l, gsl_vector_get(x, r));
    }
done:
    gsl_vector_free(x);
    gsl_permutation_free(perm);
    gsl_matrix_free(K);
    return st;
    /* EXERCISE 06.3 STUB
    (void)Cq; (void)indep; (void)B;
    EXERCISE 06.3 END */
}

int ex06_dependent_velocities(const gsl_matrix *Cq, const size_t indep[], const double Ct[],
                              const double qd_i[], double qd[])
{
    /* EXERCISE 06.3 BEGIN */
    const size_t m = Cq->size1, n = Cq->size2;
    if (m < 1 || m >= n)
        return GSL_EBADLEN;
    const size_t k = n - m;
    for (size_t l = 0; l < k; l++) {
        if (indep[l] >= n)
            return GSL_EINVAL;
        for (size_t l2 = 0; l2 < l; l2++)
            if (indep[l2] == indep[l])
                return GSL_EINVAL;
    }
    gsl_matrix *K = gsl_matrix_calloc(n, n);
    gsl_permutation *perm = gsl_permutation_alloc(n);
    gsl_vector *x = gsl_vector_alloc(n);
    int st = GSL_SUCCESS;
    if (K == NULL || perm == NULL || x == NULL) {
        st = GSL_ENOMEM;
        goto done;
    }
    for (size_t r = 0; r < m; r++)
        for (size_t c = 0; c < n; c++)
            gsl_matrix_set(K, r, c, gsl_matrix_get(Cq, r, c));
    for (size_t l = 0; l < k; l++)
        gsl_matrix_set(K, m + l, indep[l], 1.0);
    double kmax = 0.0;
    for (size_t r = 0; r < n; r++)
        for (size_t c = 0; c < n; c++)
            kmax = fmax(kmax, fabs(gsl_matrix_get(K, r, c)));
    int signum;
    gsl_linalg_LU_decomp(K, perm, &signum);
    for (size_t r = 0; r < n; r++)
        if (!(fabs(gsl_matrix_get(K, r, r)) > 1e-12 * kmax)) {
            st = MBD_ESINGULAR;
            goto done;
        }
    /* [C_q; I_d] q' = [-C_t; q_i'] (the document's velocity equation) */
    for (size_t r = 0; r < m; r++)
        gsl_vector_set(x, r, Ct != NULL ? -Ct[r] : 0.0);
    for (size_t l = 0; l < k; l++)
        gsl_vector_set(x, m + l, qd_i[l]);
    gsl_linalg_LU_svx(K, perm, x);
    for (size_t r = 0; r < n; r++)
        qd[r] = gsl_vector_get(x, r);
done:
    gsl_vector_free(x);
    gsl_permutation_free(perm);
    gsl_matrix_free(K);
    return st;
    /* EXERCISE 06.3 STUB
    (void)Cq; (void)indep; (void)Ct; (void)qd_i; (void)qd;
    EXERCISE 06.3 END */
}

int ex06_embedded_accel(const gsl_matrix *M, const gsl_matrix *Cq, const size_t indep[],
                        const double F[], const double gamma[], double qdd_i[], double qdd[])
{
    /* EXERCISE 06.3 BEGIN */
    const size_t m = Cq->size1, n = Cq->size2;
    if (m < 1 || m >= n || M->size1 != n || M->size2 != n)
        return GSL_EBADLEN;
    const size_t k = n - m;
    gsl_matrix *B = gsl_matrix_alloc(n, k), *MB = gsl_matrix_alloc(n, k);
    gsl_matrix *Mii = gsl_matrix_alloc(k, k);
    gsl_vector *gc = gsl_vector_alloc(n), *r = gsl_vector_alloc(n), *x = gsl_vector_alloc(k);
    gsl_vector *ng = gsl_vector_alloc(m), *zero = gsl_vector_calloc(k);
    int st = GSL_SUCCESS;
    if (!B || !MB || !Mii || !gc || !r || !x || !ng || !zero) {
        st = GSL_ENOMEM;
        goto done;
    }
    st = ex06_velocity_transform(Cq, indep, B);
    if (st != GSL_SUCCESS)
        goto done;
    /* gamma_c solves [C_q; I_d] gamma_c = [gamma; 0]: the velocity equation of
     * (b) with -C_t replaced by gamma and q_i' by 0. Then q'' = B q_i'' + gamma_c
     * satisfies C_q q'' = gamma for every q_i''. */
    for (size_t i = 0; i < m; i++)
        gsl_vector_set(ng, i, -gamma[i]);
    st = ex06_dependent_velocities(Cq, indep, ng->data, zero->data, gc->data);
    if (st != GSL_SUCCESS)
        goto done;
    /* B^T (M q'' - F) = 0: (B^T M B) q_i'' = B^T (F - M gamma_c) */
    for (size_t i = 0; i < n; i++)
        gsl_vector_set(r, i, F[i]);
    gsl_blas_dgemv(CblasNoTrans, -1.0, M, gc, 1.0, r);
    gsl_blas_dgemv(CblasTrans, 1.0, B, r, 0.0, x);
    gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, M, B, 0.0, MB);
    gsl_blas_dgemm(CblasTrans, CblasNoTrans, 1.0, B, MB, 0.0, Mii);
    if (gsl_linalg_cholesky_decomp1(Mii) != GSL_SUCCESS) {
        st = MBD_ESINGULAR;   /* M is not positive definite on the tangent space */
        goto done;
    }
    gsl_linalg_cholesky_svx(Mii, x);
    gsl_blas_dgemv(CblasNoTrans, 1.0, B, x, 1.0, gc);
    for (size_t l = 0; l < k; l++)
        qdd_i[l] = gsl_vector_get(x, l);
    for (size_t i = 0; i < n; i++)
        qdd[i] = gsl_vector_get(gc, i);
done:
    gsl_vector_free(zero);
    gsl_vector_free(ng);
    gsl_vector_free(x);
    gsl_vector_free(r);
    gsl_vector_free(gc);
    gsl_matrix_free(Mii);
    gsl_matrix_free(MB);
    gsl_matrix_free(B);
    return st;
    /* EXERCISE 06.3 STUB
    (void)M; (void)Cq; (void)indep; (void)F; (void)gamma; (void)qdd_i; (void)qdd;
    EXERCISE 06.3 END */
}
