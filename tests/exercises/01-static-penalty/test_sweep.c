/* Grades exercise 01.4: the error study. */
#include <math.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>

#include "check.h"
#include "ex01.h"
#include "fixture.h"

#define KMIN 1
#define KMAX 12
#define NK (KMAX - KMIN + 1)

static int run(double error[NK], double cond[NK], int *kbest, double beta2)
{
    fx_bar x;
    fx_bar_alloc(&x);
    gsl_vector_set(x.beta0, 1, beta2);
    double exact[5];
    fx_exact(0, beta2, exact);
    gsl_vector_view Qe = gsl_vector_view_array(exact, 5);
    int st = ex01_error_sweep(x.K, x.F, x.B, x.beta0, x.fixed, &Qe.vector, KMIN, KMAX, error,
                              cond, kbest);
    fx_bar_free(&x);
    return st;
}

/* At the document's C (k = 4) the relative error is about max|K|/C = 1e-4,
 * and it falls tenfold per decade while rounding is negligible. */
static void error_falls_as_one_over_C(void)
{
    double error[NK], cond[NK];
    int kbest = 0;
    int st = run(error, cond, &kbest, 0.0);
    REQUIRE_STATUS(st, GSL_SUCCESS);
    CHECK_IN(error[4 - KMIN], 0.9e-4, 1.2e-4);
    for (int k = 2; k <= 6; k++)
        CHECK_IN(error[k - KMIN] / error[k + 1 - KMIN], 9.0, 11.0);
}

/* The condition number against one computed here from the singular values of
 * K + C (B^T B + C_C), and its growth in proportion to C. */
static void condition_number(void)
{
    double error[NK], cond[NK];
    int kbest = 0;
    int st = run(error, cond, &kbest, 0.0);
    REQUIRE_STATUS(st, GSL_SUCCESS);
    fx_bar x;
    fx_bar_alloc(&x);
    gsl_matrix *Kc = gsl_matrix_alloc(5, 5), *V = gsl_matrix_alloc(5, 5);
    gsl_vector *s = gsl_vector_alloc(5), *w = gsl_vector_alloc(5);
    const int ks[2] = {3, 6};
    for (int t = 0; t < 2; t++) {
        double C = FX_K1 * pow(10.0, ks[t]);
        gsl_matrix_memcpy(Kc, x.K);
        for (size_t i = 0; i < 5; i++)
            for (size_t j = 0; j < 5; j++) {
                double bb = gsl_matrix_get(x.B, 0, i) * gsl_matrix_get(x.B, 0, j)
                            + gsl_matrix_get(x.B, 1, i) * gsl_matrix_get(x.B, 1, j);
                double cc = i == j ? gsl_vector_get(x.fixed, i) : 0.0;
                *gsl_matrix_ptr(Kc, i, j) += C * (bb + cc);
            }
        gsl_linalg_SV_decomp(Kc, V, s, w);
        CHECK_REL(cond[ks[t] - KMIN], gsl_vector_get(s, 0) / gsl_vector_get(s, 4), 1e-6);
    }
    for (int k = 3; k <= 8; k++)
        CHECK_IN(cond[k + 1 - KMIN] / cond[k - KMIN], 9.5, 10.5);
    gsl_matrix_free(Kc);
    gsl_matrix_free(V);
    gsl_vector_free(s);
    gsl_vector_free(w);
    fx_bar_free(&x);
}

/* Past some k rounding wins: the best exponent is where the falling penalty
 * error meets the rising rounding error, near the middle of double precision,
 * and the error at k = 12 is far above the best. */
static void best_exponent(void)
{
    double error[NK], cond[NK];
    int kbest = 0;
    int st = run(error, cond, &kbest, 0.0);
    REQUIRE_STATUS(st, GSL_SUCCESS);
    CHECK_IN(kbest, 6, 9);
    for (int k = KMIN; k <= KMAX; k++)
        CHECK_MSG(error[kbest - KMIN] <= error[k - KMIN],
                  "kbest = %d (error %.3g) but k = %d has error %.3g", kbest,
                  error[kbest - KMIN], k, error[k - KMIN]);
    CHECK_GE(error[KMAX - KMIN], 100.0 * error[kbest - KMIN]);
}

/* A misfit must enter the load (C B^T beta0): the error stays at 1e-4. */
static void misfit(void)
{
    double error[NK], cond[NK];
    int kbest = 0;
    int st = run(error, cond, &kbest, 0.5);
    REQUIRE_STATUS(st, GSL_SUCCESS);
    CHECK_IN(error[4 - KMIN], 0.5e-4, 2e-4);
}

static CU_TestInfo tests[] = {
    {"error_falls_as_one_over_C", error_falls_as_one_over_C},
    {"condition_number", condition_number},
    {"best_exponent", best_exponent},
    {"misfit", misfit},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"ex01.4", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
