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
 * data, including misfits on both rods. */
static void equilibrium_with_misfits(void)
{
    const double k1 = 12e3, k2 = 34e3, P = 5e3, r1 = 1.5, r2 = 3.5, r5 = 4.0;
    const double beta1 = 0.2, beta2 = -0.35;
    gsl_vector *Q = gsl_vector_alloc(5);
    int st = ex01_rigid_bar(k1, k2, P, r1, r2, r5, beta1, beta2, Q);
    CHECK_STATUS(st, GSL_SUCCESS);
    if (st == GSL_SUCCESS) {
        double Q1 = gsl_vector_get(Q, 0), Q2 = gsl_vector_get(Q, 1), Q5 = gsl_vector_get(Q, 4);
        CHECK_REL(r1 * k1 * Q1 + r2 * k2 * Q2, r5 * P, 1e-12);
        CHECK_CLOSE(Q1 - r1 / r5 * Q5, beta1, 1e-12);
        CHECK_CLOSE(Q2 - r2 / r5 * Q5, beta2, 1e-12);
    }
    gsl_vector_free(Q);
}

/* the document's bar with a misfit of rod 2 against the fixture's formula */
static void misfit_document_bar(void)
{
    double exact[5];
    fx_exact(0.0, 0.5, exact);
    gsl_vector *Q = gsl_vector_alloc(5);
    int st = ex01_rigid_bar(FX_K1, FX_K2, FX_P, 2, 5, 6, 0.0, 0.5, Q);
    CHECK_STATUS(st, GSL_SUCCESS);
    if (st == GSL_SUCCESS)
        for (size_t i = 0; i < 5; i++)
            CHECK_CLOSE(gsl_vector_get(Q, i), exact[i], 1e-12);
    gsl_vector_free(Q);
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
