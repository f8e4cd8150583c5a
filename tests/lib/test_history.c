/* Time histories (history.h): the comparisons every chapter makes, on
 * histories built here with known values, so that each maximum is known. */
#include <math.h>

#include <gsl/gsl_errno.h>

#include "check.h"
#include "mbd/history.h"

/* q = (sin t, t^2), q' = (cos t, 2 t), E = t at t = 0, 0.1, ..., 1 */
static void fill(mbd_history *h, double shift)
{
    REQUIRE_STATUS(mbd_history_reset(h, 2, 0, 0), GSL_SUCCESS);
    for (int k = 0; k <= 10; k++) {
        const double t = 0.1 * k;
        const double q[2] = {sin(t) + shift * t, t * t}, qd[2] = {cos(t), 2 * t - shift};
        REQUIRE_STATUS(mbd_history_append(h, t, q, qd, 0, 0, t, 0.1), GSL_SUCCESS);
    }
}

static int exact(void *ctx, double t, double q[], double qd[])
{
    (void)ctx;
    q[0] = sin(t);
    q[1] = t * t;
    qd[0] = cos(t);
    qd[1] = 2 * t;
    return GSL_SUCCESS;
}

static int failing(void *ctx, double t, double q[], double qd[])
{
    (void)ctx, (void)q, (void)qd;
    return t > 0.45 ? GSL_EDOM : exact(NULL, t, q, qd);
}

static void comparisons(void)
{
    mbd_history a, b;
    mbd_history_init(&a);
    mbd_history_init(&b);
    fill(&a, 0.0);
    fill(&b, 0.25);
    double d[4];
    mbd_history_max_difference(&a, &b, INFINITY, d);
    CHECK_CLOSE(d[0], 0.25, 1e-15);     /* 0.25 t at t = 1 */
    CHECK_CLOSE(d[1], 0.0, 0.0);
    CHECK_CLOSE(d[2], 0.0, 0.0);
    CHECK_CLOSE(d[3], 0.25, 1e-15);
    mbd_history_max_difference(&a, &b, 0.5, d);   /* rows up to t = 0.5 only */
    CHECK_CLOSE(d[0], 0.125, 1e-15);
    double e[4];
    REQUIRE_STATUS(mbd_history_max_error(&b, INFINITY, exact, NULL, e), GSL_SUCCESS);
    CHECK_CLOSE(e[0], 0.25, 1e-15);
    CHECK_CLOSE(e[3], 0.25, 1e-15);
    REQUIRE_STATUS(mbd_history_max_error(&a, INFINITY, exact, NULL, e), GSL_SUCCESS);
    CHECK_CLOSE(e[0] + e[1] + e[2] + e[3], 0.0, 0.0);
    CHECK_STATUS(mbd_history_max_error(&a, INFINITY, failing, NULL, e), GSL_EDOM);
    CHECK_CLOSE(mbd_history_energy_drift(&a, INFINITY), 1.0, 1e-15);
    CHECK_CLOSE(mbd_history_energy_drift(&a, 0.35), 0.3, 1e-15);
    /* columns are views over the rows: q1 of b is t^2, its q'0 is cos t */
    gsl_vector_const_view q1 = mbd_history_column(&b, 1);
    CU_ASSERT_EQUAL(q1.vector.size, 11);
    CHECK_CLOSE(gsl_vector_get(&q1.vector, 10), 1.0, 1e-15);
    CHECK_CLOSE(gsl_vector_get(&q1.vector, 5), 0.25, 1e-15);
    gsl_vector_const_view v0 = mbd_history_column(&b, 2);
    CHECK_CLOSE(gsl_vector_get(&v0.vector, 3), cos(0.3), 1e-15);
    gsl_vector_const_view E = mbd_history_column(&b, 2 * 2 + 2);   /* E = t */
    CHECK_CLOSE(gsl_vector_get(&E.vector, 7), 0.7, 1e-15);
    gsl_vector_const_view none = mbd_history_column(&b, 2 * 2 + 4);
    CU_ASSERT_EQUAL(none.vector.size, 0);
    /* a reset empties it for another size */
    REQUIRE_STATUS(mbd_history_reset(&a, 3, 10, 1), GSL_SUCCESS);
    CU_ASSERT_EQUAL(a.rows, 0);
    CU_ASSERT_EQUAL(a.n, 3);
    CU_ASSERT_PTR_NOT_NULL(a.cond);
    mbd_history_free(&a);
    mbd_history_free(&b);
}

static CU_TestInfo tests[] = {
    {"comparisons", comparisons},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"history", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
