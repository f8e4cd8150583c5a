/* Grades exercise 01.1: the rigid-bar closed form. */
#include <gsl/gsl_errno.h>

#include "check.h"
#include "ex01.h"
#include "fixture.h"

/* The document's bar: Q to the digits of the reading guide's closed form and
 * the document's printed (penalty) Q to its 4 decimals' neighbourhood. */
static void document_bar(void)
{
    gsl_vector *Q = gsl_vector_alloc(5);
    gsl_vector_set_all(Q, NAN);   /* all five entries must be written */
    int st = ex01_rigid_bar(FX_K1, FX_K2, FX_P, 2, 5, 6, 0, 0, Q);
    CHECK_STATUS(st, GSL_SUCCESS);
    if (st == GSL_SUCCESS) {
        CHECK_CLOSE(gsl_vector_get(Q, 0), 0.487585, 1e-6);
        CHECK_CLOSE(gsl_vector_get(Q, 1), 1.218962, 1e-6);
        CHECK_CLOSE(gsl_vector_get(Q, 2), 0.0, 0.0);
        CHECK_CLOSE(gsl_vector_get(Q, 3), 0.0, 0.0);
        CHECK_CLOSE(gsl_vector_get(Q, 4), 1.462754, 1e-6);
    }
    gsl_vector_free(Q);
}

/* Moments about the hinge balance, and the bar constraints hold, for any
 * data, including misfits on both rods; the rod bottoms stay at 0. */
static void equilibrium_with_misfits(void)
{
    const double data[][8] = {   /* k1, k2, P, r1, r2, r5, beta1, beta2 */
        {12e3, 34e3, 5e3, 1.5, 3.5, 4.0, 0.2, -0.35},
        {7e3, 2e3, -3e3, 2.5, 0.5, 3.0, -0.1, 0.6},
    };
    gsl_vector *Q = gsl_vector_alloc(5);
    for (size_t c = 0; c < 2; c++) {
        const double k1 = data[c][0], k2 = data[c][1], P = data[c][2], r1 = data[c][3],
                     r2 = data[c][4], r5 = data[c][5], beta1 = data[c][6], beta2 = data[c][7];
        gsl_vector_set_all(Q, NAN);
        int st = ex01_rigid_bar(k1, k2, P, r1, r2, r5, beta1, beta2, Q);
        CHECK_STATUS(st, GSL_SUCCESS);
        if (st == GSL_SUCCESS) {
            double Q1 = gsl_vector_get(Q, 0), Q2 = gsl_vector_get(Q, 1), Q5 = gsl_vector_get(Q, 4);
            CHECK_REL(r1 * k1 * Q1 + r2 * k2 * Q2, r5 * P, 1e-12);
            CHECK_CLOSE(Q1 - r1 / r5 * Q5, beta1, 1e-12);
            CHECK_CLOSE(Q2 - r2 / r5 * Q5, beta2, 1e-12);
            CHECK_CLOSE(gsl_vector_get(Q, 2), 0.0, 0.0);
            CHECK_CLOSE(gsl_vector_get(Q, 3), 0.0, 0.0);
        }
    }
    gsl_vector_free(Q);
}

/* The document's bar with a misfit of rod 2 against the fixture's formula;
 * then the failures: a Q of the wrong size, and a bar that nothing holds
 * (k1 = k2 = 0: no moment resists the turning), which leaves Q as it was. */
static void misfit_document_bar(void)
{
    double exact[5];
    fx_exact(0.0, 0.5, exact);
    gsl_vector *Q = gsl_vector_alloc(5);
    gsl_vector_set_all(Q, NAN);
    int st = ex01_rigid_bar(FX_K1, FX_K2, FX_P, 2, 5, 6, 0.0, 0.5, Q);
    CHECK_STATUS(st, GSL_SUCCESS);
    if (st == GSL_SUCCESS)
        for (size_t i = 0; i < 5; i++)
            CHECK_CLOSE(gsl_vector_get(Q, i), exact[i], 1e-12);
    gsl_vector *Q4 = gsl_vector_alloc(4), *Q6 = gsl_vector_alloc(6);
    CHECK_STATUS(ex01_rigid_bar(FX_K1, FX_K2, FX_P, 2, 5, 6, 0, 0, Q4), GSL_EBADLEN);
    CHECK_STATUS(ex01_rigid_bar(FX_K1, FX_K2, FX_P, 2, 5, 6, 0, 0, Q6), GSL_EBADLEN);
    gsl_vector_set_all(Q, 7.0);
    CHECK_STATUS(ex01_rigid_bar(0.0, 0.0, FX_P, 2, 5, 6, 0.1, 0.2, Q), MBD_ESINGULAR);
    for (size_t i = 0; i < 5; i++)
        CHECK_MSG(gsl_vector_get(Q, i) == 7.0, "a failed call wrote Q[%zu] = %g", i,
                  gsl_vector_get(Q, i));
    gsl_vector_free(Q);
    gsl_vector_free(Q4);
    gsl_vector_free(Q6);
}

static CU_TestInfo tests[] = {
    {"document_bar", document_bar},
    {"equilibrium_with_misfits", equilibrium_with_misfits},
    {"misfit_document_bar", misfit_document_bar},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"ex01.1", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
