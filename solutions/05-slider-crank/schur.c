/* Exercise 05.3: the Schur complement near the fold (see README.md). */
#include <math.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>

#include "ex05.h"

int ex05_schur_condition(const ex05_params *p, const gsl_matrix *M, const double q[3],
                         double S[2][2], double *cond)
{
    /* EXERCISE 05.3 BEGIN */
    if (M->size1 != 3 || M->size2 != 3)
        return GSL_EBADLEN;
    const double a = q[0], b = q[0] + q[1];
    double X[2][3] = {
        {p->L1 * cos(a) + p->L2 * cos(b), p->L2 * cos(b), -1.0},   /* the rows of C_q */
        {p->L1 * sin(a) + p->L2 * sin(b), p->L2 * sin(b), 0.0},
    };
    const double J[2][3] = {{X[0][0], X[0][1], X[0][2]}, {X[1][0], X[1][1], X[1][2]}};
    double store[9];
    gsl_matrix_view L = gsl_matrix_view_array(store, 3, 3);
    gsl_matrix_memcpy(&L.matrix, M);
    if (gsl_linalg_cholesky_decomp1(&L.matrix) != GSL_SUCCESS)
        return MBD_ESINGULAR;
    for (int i = 0; i < 2; i++) {             /* X_i = M^-1 (row i of C_q)^T */
        gsl_vector_view x = gsl_vector_view_array(X[i], 3);
        gsl_linalg_cholesky_svx(&L.matrix, &x.vector);
    }
    for (int i = 0; i < 2; i++)
        for (int k = 0; k < 2; k++)
            S[i][k] = J[i][0] * X[k][0] + J[i][1] * X[k][1] + J[i][2] * X[k][2];
    /* the eigenvalues of a symmetric 2 x 2 matrix; lambda_min as det / lambda_max,
     * which keeps its digits when it is tiny */
    const double mean = 0.5 * (S[0][0] + S[1][1]);
    const double lmax = mean + hypot(0.5 * (S[0][0] - S[1][1]), S[0][1]);
    const double lmin = (S[0][0] * S[1][1] - S[0][1] * S[1][0]) / lmax;
    *cond = lmin > 0.0 ? lmax / lmin : INFINITY;
    return GSL_SUCCESS;
    /* EXERCISE 05.3 STUB
    (void)p; (void)M; (void)q; (void)S; (void)cond;
    EXERCISE 05.3 END */
}

int ex05_fold_constant(const ex05_params *p, double *K)
{
    /* EXERCISE 05.3 BEGIN */
    if (p->L1 != p->L2)
        return GSL_EINVAL;
    /* On the branch, C_q = [0, -L cos th, -1; 2 L sin th, L sin th, 0] and
     * M^-1 = diag(1/a, 1/b, 1/m3), a = m1 L^2/3, b = m2 L^2/3:
     *   S11 = L^2 cos^2/b + 1/m3,  S12 = -L^2 sin cos / b,  S22 = (4 L^2/a + L^2/b) sin^2.
     * As th -> 0, lambda_max -> S11(0) and lambda_min = det S / lambda_max with
     *   det S / th^2 -> 4 L^4/(a b) + 4 L^2/(a m3) + L^2/(b m3)
     * (S12^2 is of the same order as S11 S22 and must not be dropped), so
     *   cond(S) th^2 -> S11(0)^2 / (det S / th^2). */
    const double L2 = p->L1 * p->L1;
    const double a = p->m1 * L2 / 3.0, b = p->m2 * L2 / 3.0;
    const double S11 = L2 / b + 1.0 / p->m3;
    const double det = 4.0 * L2 * L2 / (a * b) + 4.0 * L2 / (a * p->m3) + L2 / (b * p->m3);
    *K = S11 * S11 / det;
    return GSL_SUCCESS;
    /* EXERCISE 05.3 STUB
    (void)p; (void)K;
    EXERCISE 05.3 END */
}
