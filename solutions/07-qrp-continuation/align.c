/* Exercise 07.2: the traditional and the continued basis -- the alignment of
 * App. A and the jump rule (see README.md). */
#include <math.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_vector.h>

#include "ex07.h"

int ex07_align(const gsl_matrix *Tref, gsl_matrix *T, double *sigma_min)
{
    /* EXERCISE 07.2 BEGIN */
    const size_t n = T->size1, k = T->size2;
    if (Tref->size1 != n || Tref->size2 != k || k > n)
        return GSL_EBADLEN;
    /* both bases orthonormal: max |X^T X - I| <= 1e-8 (NaN fails) */
    const gsl_matrix *X[2] = {Tref, T};
    for (int x = 0; x < 2; x++)
        for (size_t a = 0; a < k; a++)
            for (size_t b = 0; b <= a; b++) {
                double s = 0.0;
                for (size_t i = 0; i < n; i++)
                    s += gsl_matrix_get(X[x], i, a) * gsl_matrix_get(X[x], i, b);
                if (!(fabs(s - (a == b ? 1.0 : 0.0)) <= 1e-8))
                    return MBD_EINPUT;
            }
    gsl_matrix *C = gsl_matrix_alloc(k, k), *V = gsl_matrix_alloc(k, k);
    gsl_matrix *U = gsl_matrix_alloc(k, k), *TU = gsl_matrix_alloc(n, k);
    gsl_vector *S = gsl_vector_alloc(k), *work = gsl_vector_alloc(k);
    int st = GSL_SUCCESS;
    if (!C || !V || !U || !TU || !S || !work) {
        st = GSL_ENOMEM;
        goto done;
    }
    /* C = Tref^T T (eq. A.6) = W S V^T; GSL leaves W in C */
    gsl_blas_dgemm(CblasTrans, CblasNoTrans, 1.0, Tref, T, 0.0, C);
    st = gsl_linalg_SV_decomp(C, V, S, work);
    if (st != GSL_SUCCESS)
        goto done;
    const double smin = gsl_vector_min(S);
    if (!(smin > 1e-10)) {
        st = MBD_ESINGULAR;   /* a direction of Tref is orthogonal to span(T) */
        goto done;
    }
    /* U = V W^T, the polar factor of C^T (eqs. A.13-A.14): then
     * Tref^T (T U) = W S W^T, symmetric positive definite */
    gsl_blas_dgemm(CblasNoTrans, CblasTrans, 1.0, V, C, 0.0, U);
    gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, T, U, 0.0, TU);
    gsl_matrix_memcpy(T, TU);
    if (sigma_min != NULL)
        *sigma_min = smin;
done:
    gsl_vector_free(work);
    gsl_vector_free(S);
    gsl_matrix_free(TU);
    gsl_matrix_free(U);
    gsl_matrix_free(V);
    gsl_matrix_free(C);
    return st;
    /* EXERCISE 07.2 STUB
    (void)Tref; (void)T; (void)sigma_min;
    EXERCISE 07.2 END */
}

int ex07_jump(const gsl_matrix *T_old, const gsl_matrix *T_new, int *jump)
{
    /* EXERCISE 07.2 BEGIN */
    const size_t n = T_old->size1, k = T_old->size2;
    if (T_new->size1 != n || T_new->size2 != k)
        return GSL_EBADLEN;
    int j = 0;
    for (size_t c = 0; c < k; c++) {
        double s = 0.0;
        for (size_t i = 0; i < n; i++)
            s += gsl_matrix_get(T_old, i, c) * gsl_matrix_get(T_new, i, c);
        if (s < 0.5)   /* column c turned by more than 60 degrees */
            j = 1;
    }
    *jump = j;
    return GSL_SUCCESS;
    /* EXERCISE 07.2 STUB
    (void)T_old; (void)T_new; (void)jump;
    EXERCISE 07.2 END */
}

int ex07_count_jumps(const gsl_matrix *const T[], size_t count, int continued, size_t *jumps)
{
    /* EXERCISE 07.2 BEGIN */
    if (count < 1)
        return GSL_EBADLEN;
    const size_t n = T[0]->size1, k = T[0]->size2;
    for (size_t s = 1; s < count; s++)
        if (T[s]->size1 != n || T[s]->size2 != k)
            return GSL_EBADLEN;
    gsl_matrix *prev = gsl_matrix_alloc(n, k), *cur = gsl_matrix_alloc(n, k);
    int st = GSL_SUCCESS;
    size_t nj = 0;
    if (!prev || !cur) {
        st = GSL_ENOMEM;
        goto done;
    }
    gsl_matrix_memcpy(prev, T[0]);
    for (size_t s = 1; s < count; s++) {
        gsl_matrix_memcpy(cur, T[s]);
        if (continued) {
            st = ex07_align(prev, cur, NULL);   /* B_s = T[s] aligned to B_{s-1} */
            if (st != GSL_SUCCESS)
                goto done;
        }
        int j;
        st = ex07_jump(prev, cur, &j);
        if (st != GSL_SUCCESS)
            goto done;
        nj += (size_t)j;
        gsl_matrix_memcpy(prev, cur);
    }
    *jumps = nj;
done:
    gsl_matrix_free(cur);
    gsl_matrix_free(prev);
    return st;
    /* EXERCISE 07.2 STUB
    (void)T; (void)count; (void)continued; (void)jumps;
    EXERCISE 07.2 END */
}
