/* Grades exercise 04.3: the Schur complement S, the residual the static
 * penalty leaves, and the penalty factor chosen from them; checked against
 * matrices built here and the library's penalty formulation (fixture.h). */
#include <math.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>

#include "check.h"
#include "ex04.h"
#include "fixture.h"

/* S = C_q M^-1 C_q^T from the fixture's M and C_q, by GSL */
static double schur_here(const ex04_params *p, double theta)
{
    mbd_system s;
    fx_system(&s, p);
    gsl_matrix *M = gsl_matrix_alloc(2, 2), *Cq = gsl_matrix_alloc(1, 2);
    gsl_vector *x = gsl_vector_alloc(2), *c = gsl_vector_alloc(2);
    gsl_permutation *perm = gsl_permutation_alloc(2);
    double qv[2] = {theta, p->L * cos(theta)};
    gsl_vector_view q = gsl_vector_view_array(qv, 2);
    s.mass(&s, 0.0, &q.vector, M);
    s.jacobian(&s, 0.0, &q.vector, Cq);
    gsl_matrix_get_row(c, Cq, 0);
    int sign;
    gsl_linalg_LU_decomp(M, perm, &sign);
    gsl_linalg_LU_solve(M, perm, c, x);
    double S;
    gsl_blas_ddot(c, x, &S);
    gsl_matrix_free(M);
    gsl_matrix_free(Cq);
    gsl_vector_free(x);
    gsl_vector_free(c);
    gsl_permutation_free(perm);
    return S;
}

static void schur_matches_the_matrices(void)
{
    const double thetas[] = {0.0, 1.0, -0.4, M_PI / 2, 2.7, -4.1};
    for (int r = 0; r < FX_READINGS; r++) {
        const ex04_params p = fx_params(r);
        for (size_t i = 0; i < sizeof thetas / sizeof thetas[0]; i++) {
            double S = NAN;
            REQUIRE_STATUS(ex04_schur(&p, thetas[i], &S), GSL_SUCCESS);
            CHECK_MSG(fabs(S - schur_here(&p, thetas[i])) <= 1e-12 * schur_here(&p, thetas[i]),
                      "reading %d, theta1 = %g: S = %.12g, C_q M^-1 C_q^T = %.12g", r, thetas[i], S,
                      schur_here(&p, thetas[i]));
        }
    }
}

/* The library's static penalty with Baumgarte leaves C_q q'' - gamma_B equal
 * to ratio (C_q M^-1 F - gamma_B): checked at penalty factors where mu S is
 * near 1, where 1/(mu S) and 1/(1 + mu S) differ. */
static void ratio_is_what_the_penalty_leaves(void)
{
    for (int r = 0; r < FX_READINGS; r++) {
        const ex04_params p = fx_params(r);
        /* a state off the constraint, moving */
        const double th = 0.8, w = -1.1, t = 1.3;
        const double q[2] = {th, p.L * cos(th) + 0.01}, qd[2] = {w, -p.L * sin(th) * w + 0.2};
        const double c0 = p.L * sin(th), C = q[1] - p.L * cos(th), Cdot = c0 * qd[0] + qd[1];
        const double gammaB = -p.L * cos(th) * w * w - 2 * 20.0 * Cdot - 400.0 * C;
        const double I1 = p.m1 * (p.L * p.L / 3 + p.b * p.b / 12);
        const double F0 = -p.m1 * p.g * p.L / 2 * cos(th), F1 = p.F0 * sin(p.omega * t);
        const double defect = c0 * F0 / I1 + F1 / p.m2 - gammaB;
        const double S = schur_here(&p, th);
        const double mus[] = {0.1 / S, 1.0 / S, 3.0 / S, 100.0 / S};
        for (int k = 0; k < 4; k++) {
            double qdd[2], ratio = NAN;
            REQUIRE_STATUS(fx_accel(&p, "penalty-baumgarte", mus[k], t, q, qd, qdd), GSL_SUCCESS);
            REQUIRE_STATUS(ex04_residual_ratio(&p, mus[k], th, &ratio), GSL_SUCCESS);
            const double left = c0 * qdd[0] + qdd[1] - gammaB;
            CHECK_MSG(fabs(left - ratio * defect) <= 1e-9 * fabs(defect),
                      "reading %d, mu S = %g: the penalty leaves %.10g of a defect %.10g, i.e. "
                      "%.10g; your ratio is %.10g", r, mus[k] * S, left, defect, left / defect, ratio);
        }
    }
    const ex04_params p = fx_params(FX_TABLE);
    double ratio;
    CHECK_STATUS(ex04_residual_ratio(&p, 0.0, 1.0, &ratio), GSL_EINVAL);
    CHECK_STATUS(ex04_residual_ratio(&p, -1e3, 1.0, &ratio), GSL_EINVAL);
}

/* The chosen mu makes the ratio ratio_max at the worst angle of the range and
 * no larger anywhere in it. */
static void choose_mu_bounds_the_ratio(void)
{
    const double ranges[][2] = {{0.5, 1.2}, {-1.5, 1.0}, {2.0, 4.0}, {-4.2, -3.5}, {1.0, 1.0},
                                {-3.0, -0.2}};
    const double rmax[] = {1e-6, 1e-3, 0.5};
    for (int r = 0; r < FX_READINGS; r++) {
        const ex04_params p = fx_params(r);
        for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++)
            for (int j = 0; j < 3; j++) {
                const double lo = ranges[i][0], hi = ranges[i][1];
                double mu = NAN;
                REQUIRE_STATUS(ex04_choose_mu(&p, lo, hi, rmax[j], &mu), GSL_SUCCESS);
                double worst = 0.0;
                for (int k = 0; k <= 2000; k++) {
                    const double th = lo + (hi - lo) * k / 2000.0;
                    worst = fmax(worst, 1.0 / (1.0 + mu * schur_here(&p, th)));
                }
                /* the smallest S in the range: at k pi inside it, else at an end */
                double Smin = fmin(schur_here(&p, lo), schur_here(&p, hi));
                if (floor(hi / M_PI) >= ceil(lo / M_PI))
                    Smin = 1.0 / p.m2;
                const double exact = 1.0 / (1.0 + mu * Smin);
                CHECK_MSG(worst <= rmax[j] * (1 + 1e-9) && fabs(exact - rmax[j]) <= 1e-9 * rmax[j],
                          "reading %d, [%g, %g], ratio_max %g: mu = %.6g gives a worst ratio %.6g "
                          "on a grid and %.6g at the smallest S", r, lo, hi, rmax[j], mu, worst, exact);
            }
    }
}

/* The two readings: the same numbers divided by g need a mu g times smaller. */
static void readings_differ_by_g(void)
{
    ex04_params a = fx_params(FX_TABLE), b = a;
    b.m1 /= 386.4;
    b.m2 /= 386.4;
    double mua, mub;
    REQUIRE_STATUS(ex04_choose_mu(&a, -4.2, 1.0, 1e-7, &mua), GSL_SUCCESS);
    REQUIRE_STATUS(ex04_choose_mu(&b, -4.2, 1.0, 1e-7, &mub), GSL_SUCCESS);
    CHECK_REL(mua / mub, 386.4, 1e-12);
    double mu;
    CHECK_STATUS(ex04_choose_mu(&a, 1.0, 0.5, 1e-3, &mu), GSL_EINVAL);
    CHECK_STATUS(ex04_choose_mu(&a, 0.5, 1.0, 0.0, &mu), GSL_EINVAL);
    CHECK_STATUS(ex04_choose_mu(&a, 0.5, 1.0, 1.0, &mu), GSL_EINVAL);
}

/* A mass matrix without an inverse (a massless rod, or yoke) has no S:
 * MBD_ESINGULAR, *S left as it was, and (b) and (c) pass it on. */
static void singular_mass(void)
{
    ex04_params rod = fx_params(FX_OTHER), yoke = rod;
    rod.m1 = 0.0;
    yoke.m2 = 0.0;
    const ex04_params *bad[2] = {&rod, &yoke};
    for (int i = 0; i < 2; i++) {
        double S = 7.0, ratio = 7.0, mu = 7.0;
        CHECK_STATUS(ex04_schur(bad[i], 1.0, &S), MBD_ESINGULAR);
        CHECK_MSG(S == 7.0, "m1 = %g, m2 = %g: a failed call wrote S = %g", bad[i]->m1,
                  bad[i]->m2, S);
        CHECK_STATUS(ex04_residual_ratio(bad[i], 1e3, 1.0, &ratio), MBD_ESINGULAR);
        CHECK_STATUS(ex04_choose_mu(bad[i], 0.5, 1.0, 1e-3, &mu), MBD_ESINGULAR);
    }
}

static CU_TestInfo tests[] = {
    {"schur_matches_the_matrices", schur_matches_the_matrices},
    {"ratio_is_what_the_penalty_leaves", ratio_is_what_the_penalty_leaves},
    {"choose_mu_bounds_the_ratio", choose_mu_bounds_the_ratio},
    {"readings_differ_by_g", readings_differ_by_g},
    {"singular_mass", singular_mass},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"ex04.3", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
