/* Grades exercise 05.2: the reduced equation on the branch, and the fold time. */
#include <math.h>

#include <gsl/gsl_errno.h>

#include "check.h"
#include "ex05.h"
#include "fixture.h"

/* th1'' equals what the library's projection of the full system gives on the
 * branch, for both mass matrices and mechanisms unlike Table 4 (another g) */
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

/* for either mass matrix */
static void unequal_rods(void)
{
    const ex05_params p = fx_unequal();
    for (int c = 0; c < 2; c++) {
        double a, t;
        CHECK_STATUS(ex05_reduced_accel(&p, c, 1.0, 0.0, &a), GSL_EINVAL);
        CHECK_STATUS(ex05_fold_time(&p, c, 2.0, 5.0, &t), GSL_EINVAL);
    }
}

/* The fold time to within the contract's 1e-9 s (the references are far
 * better than that). */
#define FOLD_TOL 1.2e-9

/* the consistent model: against the energy integral */
static void fold_time_consistent(void)
{
    const ex05_params ps[] = {ex05_table4(), fx_general(), fx_general()};
    const double th10[] = {3 * M_PI / 4, 2.0, 0.4};
    for (size_t k = 0; k < 3; k++) {
        double t = NAN;
        CHECK_STATUS(ex05_fold_time(&ps[k], 1, th10[k], 8.0, &t), GSL_SUCCESS);
        CHECK_CLOSE(t, fx_fold_by_quadrature(&ps[k], th10[k]), FOLD_TOL);
    }
    /* inside the document's 1.8 s */
    double t = NAN;
    ex05_fold_time(&ps[0], 1, 3 * M_PI / 4, 5.0, &t);
    CHECK_CLOSE(t, 1.7325290737, FOLD_TOL);
}

/* the document's model: against the test's own integration */
static void fold_time_document(void)
{
    const ex05_params ps[] = {ex05_table4(), fx_general()};
    const double th10[] = {3 * M_PI / 4, 2.0};
    for (size_t k = 0; k < 2; k++) {
        double t = NAN;
        CHECK_STATUS(ex05_fold_time(&ps[k], 0, th10[k], 5.0, &t), GSL_SUCCESS);
        CHECK_CLOSE(t, fx_fold_by_bisection(&ps[k], 0, th10[k]), FOLD_TOL);
    }
    double t = NAN;
    ex05_fold_time(&ps[0], 0, 3 * M_PI / 4, 5.0, &t);
    CHECK_CLOSE(t, 1.9307371230, FOLD_TOL);   /* just after the document's 1.8 s */
}

/* t_max is held exactly: a fold a microsecond after t_max is not reached, a
 * microsecond before it is */
static void fold_not_reached(void)
{
    const ex05_params p = ex05_table4();
    double t = 0;
    CHECK_STATUS(ex05_fold_time(&p, 0, 3 * M_PI / 4, 1.8, &t), GSL_EMAXITER);
    CHECK_MSG(isnan(t), "t_fold = %g, expected NAN", t);
    const ex05_params g = fx_general();
    for (int c = 0; c < 2; c++) {
        const double tf = c ? fx_fold_by_quadrature(&g, 2.0) : fx_fold_by_bisection(&g, 0, 2.0);
        t = 0;
        int st = ex05_fold_time(&g, c, 2.0, tf - 1e-6, &t);
        CHECK_MSG(st == GSL_EMAXITER && isnan(t), "%s M: the fold at %.9f s, t_max 1 us before: "
                  "status %d (%s), t_fold = %.9g; expected GSL_EMAXITER and NAN",
                  c ? "consistent" : "document's", tf, st, mbd_strerror(st), t);
        t = NAN;
        st = ex05_fold_time(&g, c, 2.0, tf + 1e-6, &t);
        CHECK_MSG(st == GSL_SUCCESS && fabs(t - tf) <= FOLD_TOL, "%s M: the fold at %.9f s, "
                  "t_max 1 us after: status %d (%s), t_fold = %.9f",
                  c ? "consistent" : "document's", tf, st, mbd_strerror(st), t);
    }
}

/* a release outside (0, pi) or no time to run is refused, t_fold = NAN */
static void bad_arguments(void)
{
    const ex05_params p = ex05_table4();
    const double bad[][2] = {{0.0, 5.0}, {M_PI, 5.0}, {-0.4, 5.0}, {3.5, 5.0}, {2.0, 0.0},
                             {2.0, -1.0}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        double t = 0;
        const int st = ex05_fold_time(&p, 1, bad[i][0], bad[i][1], &t);
        CHECK_MSG(st == GSL_EINVAL && isnan(t), "th10 = %g, t_max = %g: status %d (%s), t_fold = "
                  "%g; expected GSL_EINVAL and NAN", bad[i][0], bad[i][1], st, mbd_strerror(st), t);
    }
    const ex05_params u = fx_unequal();
    double t = 0;
    CHECK_STATUS(ex05_fold_time(&u, 0, 2.0, 5.0, &t), GSL_EINVAL);
    CHECK_MSG(isnan(t), "L1 != L2: t_fold = %g, expected NAN", t);
}

static CU_TestInfo tests[] = {
    {"th1'' agrees with the projected full system", against_the_full_system},
    {"Table 4's closed forms", table4_closed_forms},
    {"unequal rods have no such branch", unequal_rods},
    {"fold time, consistent M (energy integral)", fold_time_consistent},
    {"fold time, document's M", fold_time_document},
    {"a fold not reached", fold_not_reached},
    {"bad arguments", bad_arguments},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"ex05.2", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
