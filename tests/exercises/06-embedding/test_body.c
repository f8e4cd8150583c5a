/* Grades exercise 06.1: the generalized inertia of a body whose reference
 * point is not its centre of mass. */
#include <math.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>

#include "check.h"
#include "ex06.h"
#include "fixture.h"

static const double THETAS[] = {0.4, 2.3, -1.9, 4.0, 0.0};
#define NTHETAS (sizeof THETAS / sizeof THETAS[0])

/* (1/2) q'^T M q' is the kinetic energy of the body's point masses, for
 * bodies of every shape (an off-centre reference point in any direction, a
 * point mass with J_c = 0, a centroidal reference point) at every angle */
static void kinetic_energy(void)
{
    gsl_matrix *M = gsl_matrix_alloc(3, 3);
    for (size_t b = 0; b < FX_NBODIES; b++) {
        double m, uc[2], Jc;
        fx_body_props(&FX_BODIES[b], &m, uc, &Jc);
        for (size_t i = 0; i < NTHETAS; i++) {
            fx_fill(M, NAN);   /* every entry must be written, the zeros too */
            int st = ex06_body_mass(m, Jc, uc, THETAS[i], M);
            CHECK_STATUS(st, GSL_SUCCESS);
            if (st != GSL_SUCCESS)
                continue;
            double A[3][3];
            fx_body_mass(&FX_BODIES[b], THETAS[i], A);
            for (size_t r = 0; r < 3; r++)
                for (size_t c = 0; c < 3; c++)
                    CHECK_MSG(fabs(gsl_matrix_get(M, r, c) - A[r][c]) <= 1e-12 * (1 + fabs(A[r][c])),
                              "body %zu (m = %g, J_c = %g, u_c = (%g, %g)), theta = %g: "
                              "M(%zu,%zu) = %.12g, expected %.12g", b, m, Jc, uc[0], uc[1],
                              THETAS[i], r + 1, c + 1, gsl_matrix_get(M, r, c), A[r][c]);
        }
    }
    gsl_matrix_free(M);
}

/* Q_v = dT/dq - (dM/dt) q' (Lagrange's equations of the free body), with T
 * and M of the point masses and the derivatives in theta by central
 * differences; any velocity (x', y' do not enter) */
static void lagrange_force(void)
{
    const double vels[][3] = {{0.3, -1.2, 2.5}, {-2.0, 0.7, -0.8}, {1.1, 1.9, 0.0}, {0, 0, 3.7}};
    const double h = 1e-5;
    for (size_t b = 0; b < FX_NBODIES; b++) {
        double m, uc[2], Jc;
        fx_body_props(&FX_BODIES[b], &m, uc, &Jc);
        for (size_t i = 0; i < NTHETAS; i++)
            for (size_t k = 0; k < sizeof vels / sizeof vels[0]; k++) {
                const double th = THETAS[i], *v = vels[k];
                double Mp[3][3], Mm[3][3], Q[3];
                fx_body_mass(&FX_BODIES[b], th + h, Mp);
                fx_body_mass(&FX_BODIES[b], th - h, Mm);
                const double dTdth = (fx_body_kinetic(&FX_BODIES[b], th + h, v)
                                      - fx_body_kinetic(&FX_BODIES[b], th - h, v)) / (2 * h);
                for (int r = 0; r < 3; r++) {
                    double Mdv = 0;
                    for (int c = 0; c < 3; c++)
                        Mdv += (Mp[r][c] - Mm[r][c]) / (2 * h) * v[2] * v[c];
                    Q[r] = (r == 2 ? dTdth : 0.0) - Mdv;
                }
                double Qv[3] = {NAN, NAN, NAN};
                int st = ex06_body_quadratic(m, uc, th, v[2], Qv);
                CHECK_STATUS(st, GSL_SUCCESS);
                for (int r = 0; r < 3; r++)
                    CHECK_MSG(fabs(Qv[r] - Q[r]) <= 1e-7 * (1 + fabs(Q[r])),
                              "body %zu, theta = %g, q' = (%g, %g, %g): Q_v[%d] = %.10g, "
                              "expected %.10g", b, th, v[0], v[1], v[2], r, Qv[r], Q[r]);
            }
    }
}

/* A free body: its centre of mass moves uniformly and it turns at a constant
 * rate, so its reference point R = r_c - A u_c accelerates (second
 * differences of R(t)) while theta'' = 0. With nothing applied, M q'' = Q_v
 * must hold for the functions' M and Q_v together. */
static void free_body(void)
{
    gsl_matrix *M = gsl_matrix_alloc(3, 3);
    const double h = 1e-4;
    for (size_t b = 0; b < FX_NBODIES; b++) {
        double m, uc[2], Jc;
        fx_body_props(&FX_BODIES[b], &m, uc, &Jc);
        const double rc0[2] = {0.4, -1.3}, vc[2] = {1.7, 0.6};
        const double th0 = 0.9 + b, w = b % 2 ? -2.3 : 1.6, t = 0.35;
        double R[3][2];
        for (int s = -1; s <= 1; s++) {
            const double tt = t + s * h, th = th0 + w * tt;
            R[s + 1][0] = rc0[0] + vc[0] * tt - (cos(th) * uc[0] - sin(th) * uc[1]);
            R[s + 1][1] = rc0[1] + vc[1] * tt - (sin(th) * uc[0] + cos(th) * uc[1]);
        }
        const double qdd[3] = {(R[2][0] - 2 * R[1][0] + R[0][0]) / (h * h),
                               (R[2][1] - 2 * R[1][1] + R[0][1]) / (h * h), 0.0};
        double Qv[3];
        const double th = th0 + w * t;
        CHECK_STATUS(ex06_body_mass(m, Jc, uc, th, M), GSL_SUCCESS);
        CHECK_STATUS(ex06_body_quadratic(m, uc, th, w, Qv), GSL_SUCCESS);
        for (size_t r = 0; r < 3; r++) {
            double Mq = 0;
            for (size_t c = 0; c < 3; c++)
                Mq += gsl_matrix_get(M, r, c) * qdd[c];
            CHECK_MSG(fabs(Mq - Qv[r]) <= 1e-5 * (1 + m * w * w),
                      "body %zu turning at %g rad/s: (M q'')[%zu] = %.8g but Q_v[%zu] = %.8g",
                      b, w, r, Mq, r, Qv[r]);
        }
    }
    gsl_matrix_free(M);
}

/* every size but 3 x 3; m <= 0 (and NaN) and J_c < 0 refused, one at a time,
 * with nothing written; J_c = 0 is allowed (the point mass above) */
static void bad_arguments(void)
{
    const double uc[2] = {0.3, -0.4};
    const size_t sizes[][2] = {{2, 3}, {3, 2}, {4, 4}, {3, 4}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        gsl_matrix *M = gsl_matrix_alloc(sizes[i][0], sizes[i][1]);
        fx_fill(M, FX_SENTINEL);
        const int st = ex06_body_mass(1.5, 0.2, uc, 0.3, M);
        CHECK_MSG(st == GSL_EBADLEN, "M of %zu x %zu: status %d (%s), expected GSL_EBADLEN",
                  sizes[i][0], sizes[i][1], st, mbd_strerror(st));
        CHECK_MSG(fx_matrix_all_equal(M, FX_SENTINEL), "M of %zu x %zu was written on an error",
                  sizes[i][0], sizes[i][1]);
        gsl_matrix_free(M);
    }
    gsl_matrix *M = gsl_matrix_alloc(3, 3);
    const double masses[] = {0.0, -2.0, NAN};
    for (size_t i = 0; i < 3; i++) {
        fx_fill(M, FX_SENTINEL);
        int st = ex06_body_mass(masses[i], 0.2, uc, 0.3, M);
        CHECK_MSG(st == GSL_EINVAL, "m = %g: ex06_body_mass returned %d (%s), expected GSL_EINVAL",
                  masses[i], st, mbd_strerror(st));
        CHECK_MSG(fx_matrix_all_equal(M, FX_SENTINEL), "m = %g: M was written on an error", masses[i]);
        double Qv[3] = {FX_SENTINEL, FX_SENTINEL, FX_SENTINEL};
        st = ex06_body_quadratic(masses[i], uc, 0.3, 2.0, Qv);
        CHECK_MSG(st == GSL_EINVAL, "m = %g: ex06_body_quadratic returned %d (%s), expected "
                  "GSL_EINVAL", masses[i], st, mbd_strerror(st));
        CHECK_MSG(fx_all_equal(Qv, 3, FX_SENTINEL), "m = %g: Q_v was written on an error", masses[i]);
    }
    fx_fill(M, FX_SENTINEL);
    int st = ex06_body_mass(1.5, -0.1, uc, 0.3, M);
    CHECK_MSG(st == GSL_EINVAL, "J_c = -0.1: status %d (%s), expected GSL_EINVAL", st,
              mbd_strerror(st));
    CHECK_MSG(fx_matrix_all_equal(M, FX_SENTINEL), "J_c = -0.1: M was written on an error");
    gsl_matrix_free(M);
}

static CU_TestInfo tests[] = {
    {"(1/2) q'^T M q' is the kinetic energy of the body", kinetic_energy},
    {"Q_v from Lagrange's equations", lagrange_force},
    {"a free body: M q'' = Q_v", free_body},
    {"bad arguments", bad_arguments},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"ex06.1", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
