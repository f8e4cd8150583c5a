/* Grades exercise 05.2: the reduced equation on the branch, and the fold time. */
#include <math.h>

#include <gsl/gsl_errno.h>

#include "check.h"
#include "ex05.h"
#include "fixture.h"

/* th1'' equals what the library's projection of the full system gives on the
 * branch, for both mass matrices and mechanisms unlike Table 4 */
static void against_the_full_system(void)
{
    const ex05_params ps[] = {ex05_table4(), fx_general()};
    const double ths[] = {2.3, 1.4, 0.6, 0.05, -0.3, -1.2};
    const double ws[] = {0.0, -1.5, 2.5};
    for (size_t k = 0; k < 2; k++)
        for (int c = 0; c < 2; c++)
            for (size_t i = 0; i < sizeof ths / sizeof ths[0]; i++)
                for (size_t j = 0; j < sizeof ws / sizeof ws[0]; j++) {
                    double a = NAN, ref = NAN;
                    int st = ex05_reduced_accel(&ps[k], c, ths[i], ws[j], &a);
                    CHECK_STATUS(st, GSL_SUCCESS);
                    REQUIRE_STATUS(fx_projected_accel(&ps[k], c, ths[i], ws[j], &ref), GSL_SUCCESS);
                    CHECK_MSG(fabs(a - ref) <= 1e-9 * (1 + fabs(ref)),
                              "%s M, mechanism %zu, th1 = %g, th1' = %g: th1'' = %.10g, expected %.10g",
                              c ? "consistent" : "document", k, ths[i], ws[j], a, ref);
                }
}

/* Table 4: (-2 g sin th + 24 sin th cos th th'^2) / (20/3 + 16 cos^2 th) and
 * the same over 8/3 + 24 cos^2 th */
static void table4_closed_forms(void)
{
    const ex05_params p = ex05_table4();
    for (double th = -2.0; th <= 2.4; th += 0.55)
        for (double w = -2; w <= 2; w += 1.5) {
            const double s = sin(th), c = cos(th);
            const double num = -2 * 9.81 * s + 24 * s * c * w * w;
            double a = NAN;
            CHECK_STATUS(ex05_reduced_accel(&p, 0, th, w, &a), GSL_SUCCESS);
            CHECK_CLOSE(a, num / (20.0 / 3 + 16 * c * c), 1e-12);
            CHECK_STATUS(ex05_reduced_accel(&p, 1, th, w, &a), GSL_SUCCESS);
            CHECK_CLOSE(a, num / (8.0 / 3 + 24 * c * c), 1e-12);
        }
}

static void unequal_rods(void)
{
    const ex05_params p = fx_unequal();
    double a, t;
    CHECK_STATUS(ex05_reduced_accel(&p, 1, 1.0, 0.0, &a), GSL_EINVAL);
    CHECK_STATUS(ex05_fold_time(&p, 1, 2.0, 5.0, &t), GSL_EINVAL);
}

/* the consistent model: against the energy integral */
static void fold_time_consistent(void)
{
    const ex05_params ps[] = {ex05_table4(), fx_general()};
    const double th10[] = {3 * M_PI / 4, 2.0};
    for (size_t k = 0; k < 2; k++) {
        double t = NAN;
        CHECK_STATUS(ex05_fold_time(&ps[k], 1, th10[k], 5.0, &t), GSL_SUCCESS);
        CHECK_CLOSE(t, fx_fold_by_quadrature(&ps[k], th10[k]), 1e-8);
    }
    /* inside the document's 1.8 s */
    double t = NAN;
    ex05_fold_time(&ps[0], 1, 3 * M_PI / 4, 5.0, &t);
    CHECK_CLOSE(t, 1.7325290737, 1e-9);
}

/* the document's model: against the test's own integration */
static void fold_time_document(void)
{
    const ex05_params ps[] = {ex05_table4(), fx_general()};
    const double th10[] = {3 * M_PI / 4, 2.0};
    for (size_t k = 0; k < 2; k++) {
        double t = NAN;
        CHECK_STATUS(ex05_fold_time(&ps[k], 0, th10[k], 5.0, &t), GSL_SUCCESS);
        CHECK_CLOSE(t, fx_fold_by_bisection(&ps[k], 0, th10[k]), 1e-8);
    }
    double t = NAN;
    ex05_fold_time(&ps[0], 0, 3 * M_PI / 4, 5.0, &t);
    CHECK_CLOSE(t, 1.9307371230, 1e-9);   /* just after the document's 1.8 s */
}

static void fold_not_reached(void)
{
    const ex05_params p = ex05_table4();
    double t = 0;
    CHECK_STATUS(ex05_fold_time(&p, 0, 3 * M_PI / 4, 1.8, &t), GSL_EMAXITER);
    CHECK_MSG(isnan(t), "t_fold = %g, expected NAN", t);
}

static CU_TestInfo tests[] = {
    {"th1'' agrees with the projected full system", against_the_full_system},
    {"Table 4's closed forms", table4_closed_forms},
    {"unequal rods have no such branch", unequal_rods},
    {"fold time, consistent M (energy integral)", fold_time_consistent},
    {"fold time, document's M", fold_time_document},
    {"a fold not reached", fold_not_reached},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"ex05.2", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
