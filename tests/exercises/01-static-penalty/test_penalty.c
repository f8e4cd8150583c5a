/* Grades exercise 01.2: the penalty system. */
#include <math.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>

#include "check.h"
#include "ex01.h"
#include "fixture.h"

#define C_DOC (FX_K1 * 1e4)   /* max|K_ij| x 10^4 */

/* K_c / 10^8 rounds to the document's printed matrix, entry by entry. */
static void document_matrix(void)
{
    fx_bar x;
    fx_bar_alloc(&x);
    gsl_matrix *Kc = gsl_matrix_alloc(5, 5);
    gsl_vector *Fc = gsl_vector_alloc(5);
    int st = ex01_penalty_system(x.K, x.F, x.B, x.beta0, x.fixed, C_DOC, Kc, Fc);
    CHECK_STATUS(st, GSL_SUCCESS);
    if (st == GSL_SUCCESS)
        for (size_t i = 0; i < 5; i++)
            for (size_t j = 0; j < 5; j++)
                CHECK_MSG(fabs(round(gsl_matrix_get(Kc, i, j) / 1e4) - FX_DOC_KC[i][j] * 1e4) < 0.5,
                          "K_c(%zu,%zu) / 1e8: observed %.6f, document %.4f", i + 1, j + 1,
                          gsl_matrix_get(Kc, i, j) / 1e8, FX_DOC_KC[i][j]);
    gsl_matrix_free(Kc);
    gsl_vector_free(Fc);
    fx_bar_free(&x);
}

/* Solving the document's system gives the document's Q to 4 decimals. */
static void document_displacements(void)
{
    fx_bar x;
    fx_bar_alloc(&x);
    gsl_matrix *Kc = gsl_matrix_alloc(5, 5);
    gsl_vector *Fc = gsl_vector_alloc(5), *Q = gsl_vector_alloc(5);
    int st = ex01_penalty_system(x.K, x.F, x.B, x.beta0, x.fixed, C_DOC, Kc, Fc);
    CHECK_STATUS(st, GSL_SUCCESS);
    if (st == GSL_SUCCESS) {
        st = gsl_linalg_cholesky_decomp1(Kc);
        CHECK_MSG(st == GSL_SUCCESS, "K_c must be symmetric positive definite (Cholesky failed)");
        if (st == GSL_SUCCESS) {
            gsl_linalg_cholesky_solve(Kc, Fc, Q);
            for (size_t i = 0; i < 5; i++)
                CHECK_CLOSE(gsl_vector_get(Q, i), FX_DOC_Q[i], 5e-5);
        }
    }
    gsl_matrix_free(Kc);
    gsl_vector_free(Fc);
    gsl_vector_free(Q);
    fx_bar_free(&x);
}

/* With misfits, F_c = F + C B^T beta0, and the penalty solution comes within
 * the penalty error (about 1e-4) of the exact rigid-bar answer. */
static void misfit_load_term(void)
{
    fx_bar x;
    fx_bar_alloc(&x);
    gsl_vector_set(x.beta0, 0, 0.1);
    gsl_vector_set(x.beta0, 1, 0.5);
    gsl_matrix *Kc = gsl_matrix_alloc(5, 5);
    gsl_vector *Fc = gsl_vector_alloc(5), *Q = gsl_vector_alloc(5);
    int st = ex01_penalty_system(x.K, x.F, x.B, x.beta0, x.fixed, C_DOC, Kc, Fc);
    CHECK_STATUS(st, GSL_SUCCESS);
    if (st == GSL_SUCCESS) {
        double expect[5] = {C_DOC * 0.1, C_DOC * 0.5, 0, 0,
                            FX_P - C_DOC * (0.1 * 2.0 / 6.0 + 0.5 * 5.0 / 6.0)};
        for (size_t i = 0; i < 5; i++)
            CHECK_CLOSE(gsl_vector_get(Fc, i), expect[i], 1e-9 * C_DOC);
        double exact[5];
        fx_exact(0.1, 0.5, exact);
        gsl_linalg_cholesky_decomp1(Kc);
        gsl_linalg_cholesky_solve(Kc, Fc, Q);
        for (size_t i = 0; i < 5; i++)
            CHECK_CLOSE(gsl_vector_get(Q, i), exact[i], 3e-4);
    }
    gsl_matrix_free(Kc);
    gsl_vector_free(Fc);
    gsl_vector_free(Q);
    fx_bar_free(&x);
}

/* The inputs stay untouched; K_c is symmetric; a general system (3 dofs,
 * one constraint, one fixed dof) gives K + C (b b^T + e e^T) exactly. */
static void general_and_pure(void)
{
    double kdat[9] = {4, -1, 0, -1, 5, -2, 0, -2, 3};
    gsl_matrix_view K = gsl_matrix_view_array(kdat, 3, 3);
    double fdat[3] = {1, 2, 3}, bdat[3] = {1, -2, 0.5}, b0 = 0.25, fixdat[3] = {0, 0, 1};
    gsl_vector_view F = gsl_vector_view_array(fdat, 3), fixed = gsl_vector_view_array(fixdat, 3);
    gsl_matrix_view B = gsl_matrix_view_array(bdat, 1, 3);
    gsl_vector_view beta0 = gsl_vector_view_array(&b0, 1);
    gsl_matrix *Kc = gsl_matrix_alloc(3, 3);
    gsl_vector *Fc = gsl_vector_alloc(3);
    const double C = 100.0;
    int st = ex01_penalty_system(&K.matrix, &F.vector, &B.matrix, &beta0.vector, &fixed.vector,
                                 C, Kc, Fc);
    CHECK_STATUS(st, GSL_SUCCESS);
    if (st == GSL_SUCCESS) {
        for (size_t i = 0; i < 3; i++) {
            for (size_t j = 0; j < 3; j++) {
                double e = kdat[3 * i + j] + C * bdat[i] * bdat[j] + (i == j ? C * fixdat[i] : 0.0);
                CHECK_CLOSE(gsl_matrix_get(Kc, i, j), e, 1e-12);
            }
            CHECK_CLOSE(gsl_vector_get(Fc, i), fdat[i] + C * bdat[i] * b0, 1e-12);
        }
        CHECK_CLOSE(kdat[0], 4.0, 0.0);
        CHECK_CLOSE(fdat[2], 3.0, 0.0);
        CHECK_CLOSE(bdat[1], -2.0, 0.0);
    }
    gsl_matrix_free(Kc);
    gsl_vector_free(Fc);
}

static void bad_sizes(void)
{
    fx_bar x;
    fx_bar_alloc(&x);
    gsl_matrix *Kc = gsl_matrix_alloc(4, 4);
    gsl_vector *Fc = gsl_vector_alloc(5);
    CHECK_STATUS(ex01_penalty_system(x.K, x.F, x.B, x.beta0, x.fixed, C_DOC, Kc, Fc), GSL_EBADLEN);
    gsl_matrix_free(Kc);
    fx_bar_free(&x);
    gsl_vector_free(Fc);
}

static CU_TestInfo tests[] = {
    {"document_matrix", document_matrix},
    {"document_displacements", document_displacements},
    {"misfit_load_term", misfit_load_term},
    {"general_and_pure", general_and_pure},
    {"bad_sizes", bad_sizes},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"ex01.2", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
