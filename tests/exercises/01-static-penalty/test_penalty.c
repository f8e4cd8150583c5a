/* Grades exercise 01.2: the penalty system. */
#include <math.h>
#include <string.h>

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
    gsl_matrix_set_all(Kc, NAN);
    gsl_vector_set_all(Fc, NAN);
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
    gsl_matrix_set_all(Kc, NAN);
    gsl_vector_set_all(Fc, NAN);
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
    gsl_matrix_set_all(Kc, NAN);
    gsl_vector_set_all(Fc, NAN);
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

/* The general case: a 4-dof K that is not symmetric, two constraint rows,
 * the first and the last dof fixed; K_c and F_c hold garbage on entry (they
 * are to be overwritten) and every input stays untouched. Expected, entry by
 * entry: K_ij + C (sum_r B_ri B_rj + fixed_i [i = j]) and F_i + C sum_r B_ri beta0_r. */
static void general_and_pure(void)
{
    double kdat[16] = {4, -1, 0.5, 0, -2, 5, -2, 1, 0, -3, 3, 0.25, 1.5, 0, -1, 6};
    double fdat[4] = {1, 2, 3, -4}, bdat[8] = {1, -2, 0.5, 0, 0, 0.75, 0, -1.5};
    double b0[2] = {0.25, -0.4}, fixdat[4] = {1, 0, 0, 1};
    double kcopy[16], fcopy[4], bcopy[8], b0copy[2], fixcopy[4];
    memcpy(kcopy, kdat, sizeof kdat);
    memcpy(fcopy, fdat, sizeof fdat);
    memcpy(bcopy, bdat, sizeof bdat);
    memcpy(b0copy, b0, sizeof b0);
    memcpy(fixcopy, fixdat, sizeof fixdat);
    gsl_matrix_view K = gsl_matrix_view_array(kdat, 4, 4), B = gsl_matrix_view_array(bdat, 2, 4);
    gsl_vector_view F = gsl_vector_view_array(fdat, 4), fixed = gsl_vector_view_array(fixdat, 4);
    gsl_vector_view beta0 = gsl_vector_view_array(b0, 2);
    gsl_matrix *Kc = gsl_matrix_alloc(4, 4);
    gsl_vector *Fc = gsl_vector_alloc(4);
    const double Cs[2] = {100.0, 7.5};
    for (int c = 0; c < 2; c++) {
        const double C = Cs[c];
        gsl_matrix_set_all(Kc, c == 0 ? NAN : 1e3);
        gsl_vector_set_all(Fc, c == 0 ? NAN : 1e3);
        int st = ex01_penalty_system(&K.matrix, &F.vector, &B.matrix, &beta0.vector, &fixed.vector,
                                     C, Kc, Fc);
        CHECK_STATUS(st, GSL_SUCCESS);
        if (st != GSL_SUCCESS)
            continue;
        for (size_t i = 0; i < 4; i++) {
            for (size_t j = 0; j < 4; j++) {
                double bb = bcopy[i] * bcopy[j] + bcopy[4 + i] * bcopy[4 + j];
                double e = kcopy[4 * i + j] + C * (bb + (i == j ? fixcopy[i] : 0.0));
                CHECK_MSG(fabs(gsl_matrix_get(Kc, i, j) - e) <= 1e-12 * fmax(1.0, fabs(e)),
                          "C = %g: K_c(%zu,%zu) = %.12g, expected %.12g", C, i + 1, j + 1,
                          gsl_matrix_get(Kc, i, j), e);
            }
            double e = fcopy[i] + C * (bcopy[i] * b0copy[0] + bcopy[4 + i] * b0copy[1]);
            CHECK_MSG(fabs(gsl_vector_get(Fc, i) - e) <= 1e-12 * fmax(1.0, fabs(e)),
                      "C = %g: F_c(%zu) = %.12g, expected %.12g", C, i + 1, gsl_vector_get(Fc, i), e);
        }
    }
    CHECK_MSG(memcmp(kcopy, kdat, sizeof kdat) == 0, "K was modified");
    CHECK_MSG(memcmp(fcopy, fdat, sizeof fdat) == 0, "F was modified");
    CHECK_MSG(memcmp(bcopy, bdat, sizeof bdat) == 0, "B was modified");
    CHECK_MSG(memcmp(b0copy, b0, sizeof b0) == 0, "beta0 was modified");
    CHECK_MSG(memcmp(fixcopy, fixdat, sizeof fixdat) == 0, "fixed was modified");
    gsl_matrix_free(Kc);
    gsl_vector_free(Fc);
}

/* Each size that does not fit is refused, one at a time. */
static void bad_sizes(void)
{
    fx_bar x;
    fx_bar_alloc(&x);
    gsl_matrix *Kc = gsl_matrix_alloc(5, 5), *Kc4 = gsl_matrix_alloc(4, 4),
               *Kc54 = gsl_matrix_alloc(5, 4), *K54 = gsl_matrix_calloc(5, 4),
               *B4 = gsl_matrix_calloc(2, 4);
    gsl_vector *Fc = gsl_vector_alloc(5), *v4 = gsl_vector_calloc(4), *b3 = gsl_vector_calloc(3);
    CHECK_STATUS(ex01_penalty_system(x.K, x.F, x.B, x.beta0, x.fixed, C_DOC, Kc4, Fc), GSL_EBADLEN);
    CHECK_STATUS(ex01_penalty_system(x.K, x.F, x.B, x.beta0, x.fixed, C_DOC, Kc54, Fc), GSL_EBADLEN);
    CHECK_STATUS(ex01_penalty_system(x.K, x.F, x.B, x.beta0, x.fixed, C_DOC, Kc, v4), GSL_EBADLEN);
    CHECK_STATUS(ex01_penalty_system(K54, x.F, x.B, x.beta0, x.fixed, C_DOC, Kc, Fc), GSL_EBADLEN);
    CHECK_STATUS(ex01_penalty_system(x.K, v4, x.B, x.beta0, x.fixed, C_DOC, Kc, Fc), GSL_EBADLEN);
    CHECK_STATUS(ex01_penalty_system(x.K, x.F, B4, x.beta0, x.fixed, C_DOC, Kc, Fc), GSL_EBADLEN);
    CHECK_STATUS(ex01_penalty_system(x.K, x.F, x.B, b3, x.fixed, C_DOC, Kc, Fc), GSL_EBADLEN);
    CHECK_STATUS(ex01_penalty_system(x.K, x.F, x.B, x.beta0, v4, C_DOC, Kc, Fc), GSL_EBADLEN);
    gsl_matrix_free(Kc);
    gsl_matrix_free(Kc4);
    gsl_matrix_free(Kc54);
    gsl_matrix_free(K54);
    gsl_matrix_free(B4);
    gsl_vector_free(Fc);
    gsl_vector_free(v4);
    gsl_vector_free(b3);
    fx_bar_free(&x);
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
