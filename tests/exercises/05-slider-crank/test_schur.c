/* Grades exercise 05.3: the Schur complement near the fold. */
#include <math.h>
#include <string.h>

#include <gsl/gsl_eigen.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>

#include "check.h"
#include "ex05.h"
#include "fixture.h"

static gsl_matrix *document_mass(const ex05_params *p)
{
    gsl_matrix *M = gsl_matrix_calloc(3, 3);
    gsl_matrix_set(M, 0, 0, p->m1 * p->L1 * p->L1 / 3);
    gsl_matrix_set(M, 1, 1, p->m2 * p->L2 * p->L2 / 3);
    gsl_matrix_set(M, 2, 2, p->m3);
    return M;
}

/* S on the branch for the document's M, in closed form */
static void branch_schur(const ex05_params *p, double th, double S[2][2])
{
    const double L = p->L1, s = sin(th), c = cos(th);
    const double a = p->m1 * L * L / 3, b = p->m2 * L * L / 3;
    S[0][0] = L * L * c * c / b + 1 / p->m3;
    S[0][1] = S[1][0] = -L * L * s * c / b;
    S[1][1] = (4 * L * L / a + L * L / b) * s * s;
}

/* the 2-norm condition number by GSL's symmetric eigensolver */
static double eigen_condition(double S[2][2])
{
    double a[4] = {S[0][0], S[0][1], S[1][0], S[1][1]}, e[2];
    gsl_matrix_view A = gsl_matrix_view_array(a, 2, 2);
    gsl_vector_view ev = gsl_vector_view_array(e, 2);
    gsl_eigen_symm_workspace *w = gsl_eigen_symm_alloc(2);
    gsl_eigen_symm(&A.matrix, &ev.vector, w);
    gsl_eigen_symm_free(w);
    return fmax(e[0], e[1]) / fmin(e[0], e[1]);
}

static void document_on_branch(void)
{
    const ex05_params ps[] = {ex05_table4(), fx_general()};
    for (size_t k = 0; k < 2; k++) {
        gsl_matrix *M = document_mass(&ps[k]);
        for (double th = 2.0; th > 1e-3; th /= 3) {
            double q[3], v[3], S[2][2], R[2][2], cond = NAN;
            fx_branch(&ps[k], th, 0, q, v);
            int st = ex05_schur_condition(&ps[k], M, q, S, &cond);
            CHECK_STATUS(st, GSL_SUCCESS);
            branch_schur(&ps[k], th, R);
            for (int i = 0; i < 2; i++)
                for (int j = 0; j < 2; j++)
                    CHECK_MSG(fabs(S[i][j] - R[i][j]) <= 1e-12 * (1 + fabs(R[i][j])),
                              "th1 = %g: S(%d,%d) = %.12g, expected %.12g", th, i + 1, j + 1,
                              S[i][j], R[i][j]);
            if (th > 0.01)
                CHECK_REL(cond, eigen_condition(R), 1e-9);
        }
        gsl_matrix_free(M);
    }
}

/* anywhere, with the consistent matrix and with a full symmetric positive
 * definite one (every entry coupled, the slider's too): against S from an
 * explicit inverse */
static void general_state(void)
{
    const ex05_params p = fx_unequal();
    const double qs[][3] = {{0.3, -1.1, 0.2}, {2.3, 2.9, -1.0}, {-1.0, 0.7, 3.0}};
    const double full[3][3] = {{2.5, 0.7, -0.4}, {0.7, 1.8, 0.6}, {-0.4, 0.6, 1.2}};
    for (size_t k = 0; k < 6; k++) {
        double A[3][3], S[2][2], cond = NAN;
        if (k < 3)
            fx_mass(&p, qs[k], A);
        else
            memcpy(A, full, sizeof A);
        gsl_matrix_view Mv = gsl_matrix_view_array(&A[0][0], 3, 3);
        const double *q = qs[k % 3];
        CHECK_STATUS(ex05_schur_condition(&p, &Mv.matrix, q, S, &cond), GSL_SUCCESS);
        /* M^-1 by LU */
        double lu[9], inv[9];
        for (int i = 0; i < 9; i++)
            lu[i] = (&A[0][0])[i];
        gsl_matrix_view LU = gsl_matrix_view_array(lu, 3, 3), Inv = gsl_matrix_view_array(inv, 3, 3);
        gsl_permutation *perm = gsl_permutation_alloc(3);
        int sg;
        gsl_linalg_LU_decomp(&LU.matrix, perm, &sg);
        gsl_linalg_LU_invert(&LU.matrix, perm, &Inv.matrix);
        gsl_permutation_free(perm);
        const double a = q[0], b = q[0] + q[1];
        const double J[2][3] = {{p.L1 * cos(a) + p.L2 * cos(b), p.L2 * cos(b), -1},
                                {p.L1 * sin(a) + p.L2 * sin(b), p.L2 * sin(b), 0}};
        double R[2][2] = {{0, 0}, {0, 0}};
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 2; j++)
                for (int r = 0; r < 3; r++)
                    for (int c = 0; c < 3; c++)
                        R[i][j] += J[i][r] * inv[3 * r + c] * J[j][c];
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 2; j++)
                CHECK_CLOSE(S[i][j], R[i][j], 1e-11 * (1 + fabs(R[i][j])));
        CHECK_REL(cond, eigen_condition(R), 1e-9);
    }
}

/* cond(S) grows as 1/th1^2 towards the fold, with either mass matrix */
static void inverse_square(void)
{
    const ex05_params p = ex05_table4();
    for (int consistent = 0; consistent < 2; consistent++) {
        double prev = NAN;
        for (double th = 1e-2; th >= 0.99e-8; th /= 10) {
            double q[3], v[3], S[2][2], A[3][3], cond = NAN;
            fx_branch(&p, th, 0, q, v);
            gsl_matrix *M = document_mass(&p);
            if (consistent) {
                fx_mass(&p, q, A);
                for (size_t i = 0; i < 3; i++)
                    for (size_t j = 0; j < 3; j++)
                        gsl_matrix_set(M, i, j, A[i][j]);
            }
            CHECK_STATUS(ex05_schur_condition(&p, M, q, S, &cond), GSL_SUCCESS);
            gsl_matrix_free(M);
            if (isfinite(prev))
                CHECK_REL(cond / prev, 100.0, 1e-3);
            prev = cond;
        }
    }
}

static void singular_and_bad(void)
{
    const ex05_params p = ex05_table4();
    gsl_matrix *M = document_mass(&p);
    double S[2][2], cond = 0;
    /* straight down: the second row of C_q is exactly zero */
    const double q[3] = {0, 0, 0};
    CHECK_STATUS(ex05_schur_condition(&p, M, q, S, &cond), GSL_SUCCESS);
    CHECK_MSG(isinf(cond) && cond > 0, "cond = %g, expected INFINITY", cond);
    /* a mass matrix that is not positive definite */
    gsl_matrix_set(M, 2, 2, -1.0);
    const double q1[3] = {1, 1, 1};
    CHECK_STATUS(ex05_schur_condition(&p, M, q1, S, &cond), MBD_ESINGULAR);
    gsl_matrix_free(M);
    /* M must be 3 x 3: rows and columns */
    const size_t sizes[][2] = {{2, 2}, {3, 2}, {2, 3}, {4, 4}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        M = gsl_matrix_calloc(sizes[i][0], sizes[i][1]);
        for (size_t j = 0; j < sizes[i][0] && j < sizes[i][1]; j++)
            gsl_matrix_set(M, j, j, 1.0);
        const int st = ex05_schur_condition(&p, M, q1, S, &cond);
        CHECK_MSG(st == GSL_EBADLEN, "M of %zu x %zu: status %d (%s), expected GSL_EBADLEN",
                  sizes[i][0], sizes[i][1], st, mbd_strerror(st));
        gsl_matrix_free(M);
    }
}

/* K = lim th1^2 cond(S): 16/51 for Table 4; for other masses against the
 * closed-form S near the fold */
static void fold_constant(void)
{
    double K = NAN;
    const ex05_params t4 = ex05_table4();
    CHECK_STATUS(ex05_fold_constant(&t4, &K), GSL_SUCCESS);
    CHECK_CLOSE(K, 16.0 / 51.0, 1e-12);
    const ex05_params ps[] = {fx_general(), {9.81, 0.4, 2.5, 0.3, 0.8, 0.8}};
    for (size_t k = 0; k < 2; k++) {
        CHECK_STATUS(ex05_fold_constant(&ps[k], &K), GSL_SUCCESS);
        double S[2][2];
        const double th = 1e-6;
        branch_schur(&ps[k], th, S);
        const double tr = S[0][0] + S[1][1], det = S[0][0] * S[1][1] - S[0][1] * S[1][0];
        const double lmax = 0.5 * tr + sqrt(0.25 * tr * tr - det);
        CHECK_REL(K, lmax * lmax / det * th * th, 1e-6);
    }
    const ex05_params u = fx_unequal();
    CHECK_STATUS(ex05_fold_constant(&u, &K), GSL_EINVAL);
}

static CU_TestInfo tests[] = {
    {"S and cond(S) on the branch, document's M", document_on_branch},
    {"S and cond(S) anywhere, consistent M", general_state},
    {"cond(S) grows as 1/th1^2 towards the fold", inverse_square},
    {"singular S, bad M", singular_and_bad},
    {"the fold constant K", fold_constant},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"ex05.3", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
