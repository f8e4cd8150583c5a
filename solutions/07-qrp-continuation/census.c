/* Exercise 07.1: the rank census and the tangent basis by QR with column
 * pivoting of A^T (see README.md). */
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_permutation.h>
#include <gsl/gsl_vector.h>

#include "ex07.h"

int ex07_rank_census(const gsl_matrix *A, double tol, double diag[], ex07_census *census,
                     gsl_matrix *T)
{
    /* EXERCISE 07.1 BEGIN */
    const size_t m = A->size1, n = A->size2, p = m < n ? m : n;
    if (!(tol > 0 && tol < 1))
        return MBD_EINPUT;
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < n; j++)
            if (!isfinite(gsl_matrix_get(A, i, j)))
                return MBD_EINPUT;
    gsl_matrix *QR = gsl_matrix_alloc(n, m), *Q = gsl_matrix_alloc(n, n);
    gsl_matrix *R = gsl_matrix_alloc(n, m);
    gsl_vector *tau = gsl_vector_alloc(p), *norm = gsl_vector_alloc(m);
    gsl_permutation *perm = gsl_permutation_alloc(m);
    double *d = malloc(p * sizeof *d);
    int st = GSL_SUCCESS;
    if (!QR || !Q || !R || !tau || !norm || !perm || !d) {
        st = GSL_ENOMEM;
        goto done;
    }
    /* A^T P = Q R (eq. 2.12): pivoting brings the largest remaining column
     * norm forward, so the |R_ii| come out in decreasing order */
    gsl_matrix_transpose_memcpy(QR, A);
    int signum;
    gsl_linalg_QRPT_decomp(QR, tau, perm, &signum, norm);
    gsl_linalg_QR_unpack(QR, tau, Q, R);
    /* the monitor, sorted anyway: round-off may swap two nearly equal entries */
    for (size_t i = 0; i < p; i++) {
        const double v = fabs(gsl_matrix_get(R, i, i));
        size_t k = i;
        while (k > 0 && d[k - 1] < v) {
            d[k] = d[k - 1];
            k--;
        }
        d[k] = v;
    }
    size_t r = 0;
    while (r < p && d[r] > tol * d[0])
        r++;
    const size_t dof = n - r;
    if (T != NULL && (T->size1 != n || T->size2 != dof)) {
        st = GSL_EBADLEN;
        goto done;
    }
    /* the tangent basis: Q's last n - r columns, orthogonal to the range of
     * A^T that the first r span (eqs. 2.1, 2.15, 4.2, 4.3, 4.17) */
    if (T != NULL) {
        gsl_matrix_const_view Q2 = gsl_matrix_const_submatrix(Q, 0, r, n, dof);
        gsl_matrix_memcpy(T, &Q2.matrix);
    }
    for (size_t i = 0; i < p; i++)
        diag[i] = d[i];
    census->rank = r;
    census->d = p - r;
    census->dof = dof;
done:
    free(d);
    gsl_permutation_free(perm);
    gsl_vector_free(norm);
    gsl_vector_free(tau);
    gsl_matrix_free(R);
    gsl_matrix_free(Q);
    gsl_matrix_free(QR);
    return st;
    /* EXERCISE 07.1 STUB
    (void)A; (void)tol; (void)diag; (void)census; (void)T;
    EXERCISE 07.1 END */
}
