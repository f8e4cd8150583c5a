/* Grades exercise 06.4: Baumgarte's weights and the drift they leave. */
#include <math.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_odeiv2.h>
#include <gsl/gsl_poly.h>

#include "check.h"
#include "ex06.h"
#include "fixture.h"

/* ------------------------------------------------------------------------ */
/* gamma_B                                                                   */

/* a general system: 3 constraints on 5 coordinates, violated and moving */
static const double CQ[3][5] = {
    {1.2, -0.7, 0.4, 2.0, -1.1}, {0.3, 1.5, -0.9, 0.6, 0.8}, {0.5, 0.2, 1.7, -0.4, 1.0}};
static const double QD[5] = {0.6, -1.3, 2.1, 0.4, -0.8};
static const double CV[3] = {0.013, -0.027, 0.041};
static const double CT[3] = {0.9, -0.35, 1.4};
static const double GAM[3] = {-2.2, 0.75, 3.1};

static void gamma_general(void)
{
    const double ab[][2] = {{2.5, 7.0}, {0.0, 3.0}, {4.0, 0.0}, {3.0, 3.0}, {11.0, 0.4}};
    gsl_matrix_const_view Cq = gsl_matrix_const_view_array(&CQ[0][0], 3, 5);
    for (size_t i = 0; i < sizeof ab / sizeof ab[0]; i++)
        for (int with_ct = 0; with_ct < 2; with_ct++) {
            const double alpha = ab[i][0], beta = ab[i][1];
            double gB[3] = {NAN, NAN, NAN};
            int st = ex06_baumgarte_gamma(&Cq.matrix, QD, CV, with_ct ? CT : NULL, GAM, alpha, beta, gB);
            CHECK_STATUS(st, GSL_SUCCESS);
            for (size_t r = 0; r < 3; r++) {
                double Cd = with_ct ? CT[r] : 0.0;
                for (size_t c = 0; c < 5; c++)
                    Cd += CQ[r][c] * QD[c];
                const double ref = GAM[r] - 2 * alpha * Cd - beta * beta * CV[r];
                CHECK_MSG(fabs(gB[r] - ref) <= 1e-13 * (1 + fabs(ref)),
                          "alpha = %g, beta = %g, C_t %s: gamma_B[%zu] = %.14g, expected %.14g", alpha,
                          beta, with_ct ? "given" : "NULL", r, gB[r], ref);
            }
        }
}

/* A body whose point u is driven along a moving ground point P(t): C = R +
 * A u - P(t), so C_t = -P'(t) and gamma = theta'^2 A u + P''(t). From a
 * violated state at t0 the body moves with accelerations that satisfy
 * C_q q'' = gamma_B; then the violation c(t) = C(q(t), t) along that motion
 * has c'' + 2 alpha c' + beta^2 c = 0 at t0 (derivatives by differences). */
static void drive_point(double t, double P[2], double Pd[2], double Pdd[2])
{
    P[0] = 0.6 * cos(1.7 * t) + 0.2;
    P[1] = 0.4 * sin(2.3 * t) - 0.1;
    Pd[0] = -1.02 * sin(1.7 * t);
    Pd[1] = 0.92 * cos(2.3 * t);
    Pdd[0] = -1.734 * cos(1.7 * t);
    Pdd[1] = -2.116 * sin(2.3 * t);
}

static void driven_C(const double q[3], const double u[2], double t, double C[2])
{
    double r[2], P[2], Pd[2], Pdd[2];
    fx_point(q, u, r);
    drive_point(t, P, Pd, Pdd);
    C[0] = r[0] - P[0];
    C[1] = r[1] - P[1];
}

static void stabilized_motion(void)
{
    const double u[2] = {0.55, -0.3}, t0 = 0.8;
    const double q[3] = {0.5, -0.2, 1.1}, v[3] = {0.3, -0.9, 1.6};
    const double ab[][2] = {{3.0, 5.0}, {6.0, 2.0}, {0.0, 4.0}, {2.5, 0.0}};
    for (size_t i = 0; i < sizeof ab / sizeof ab[0]; i++) {
        const double alpha = ab[i][0], beta = ab[i][1];
        double P[2], Pd[2], Pdd[2], C[2], cq[6];
        drive_point(t0, P, Pd, Pdd);
        driven_C(q, u, t0, C);
        const double c = cos(q[2]), s = sin(q[2]);
        const double Au[2] = {c * u[0] - s * u[1], s * u[0] + c * u[1]}, Atu[2] = {-Au[1], Au[0]};
        cq[0] = 1, cq[1] = 0, cq[2] = Atu[0], cq[3] = 0, cq[4] = 1, cq[5] = Atu[1];
        gsl_matrix_view Cq = gsl_matrix_view_array(cq, 2, 3);
        const double Ct[2] = {-Pd[0], -Pd[1]};
        const double gam[2] = {v[2] * v[2] * Au[0] + Pdd[0], v[2] * v[2] * Au[1] + Pdd[1]};
        double gB[2] = {NAN, NAN};
        int st = ex06_baumgarte_gamma(&Cq.matrix, v, C, Ct, gam, alpha, beta, gB);
        CHECK_STATUS(st, GSL_SUCCESS);
        /* q'' with C_q q'' = gamma_B: any theta'', then R'' */
        const double thdd = 0.7;
        const double a[3] = {gB[0] - Atu[0] * thdd, gB[1] - Atu[1] * thdd, thdd};
        const double h = 1e-3;
        double cc[5][2];
        for (int k = -2; k <= 2; k++) {
            const double tau = k * h;
            double qk[3];
            for (int j = 0; j < 3; j++)
                qk[j] = q[j] + v[j] * tau + 0.5 * a[j] * tau * tau;
            driven_C(qk, u, t0 + tau, cc[k + 2]);
        }
        for (int r = 0; r < 2; r++) {
            const double c1 = (cc[0][r] - 8 * cc[1][r] + 8 * cc[3][r] - cc[4][r]) / (12 * h);
            const double c2 = (-cc[0][r] + 16 * cc[1][r] - 30 * cc[2][r] + 16 * cc[3][r] - cc[4][r])
                              / (12 * h * h);
            const double res = c2 + 2 * alpha * c1 + beta * beta * cc[2][r];
            const double scale = fabs(c2) + 2 * alpha * fabs(c1) + beta * beta * fabs(cc[2][r]);
            CHECK_MSG(fabs(res) <= 1e-7 * (1 + scale),
                      "alpha = %g, beta = %g: C''[%d] + 2 alpha C'[%d] + beta^2 C[%d] = %.3g "
                      "(C = %.6g, C' = %.6g, C'' = %.6g), expected 0", alpha, beta, r, r, r, res,
                      cc[2][r], c1, c2);
        }
    }
}

/* ------------------------------------------------------------------------ */
/* The violation                                                             */

typedef struct {
    double alpha, beta;
} osc;

static int osc_rhs(double t, const double y[], double f[], void *params)
{
    (void)t;
    const osc *o = params;
    f[0] = y[1];
    f[1] = -2 * o->alpha * y[1] - o->beta * o->beta * y[0];
    return GSL_SUCCESS;
}

/* (C, C') at t by integrating the equation from t0 (backwards when t < t0) */
static void integrate(double alpha, double beta, double t0, double C0, double Cd0, double t,
                      double out[2])
{
    osc o = {alpha, beta};
    gsl_odeiv2_system sys = {osc_rhs, NULL, 2, &o};
    gsl_odeiv2_driver *d = gsl_odeiv2_driver_alloc_y_new(&sys, gsl_odeiv2_step_rk8pd,
                                                         t >= t0 ? 1e-4 : -1e-4, 1e-13, 1e-13);
    double tt = t0, y[2] = {C0, Cd0};
    if (t != t0 && gsl_odeiv2_driver_apply(d, &tt, t, y) != GSL_SUCCESS)
        y[0] = y[1] = NAN;
    gsl_odeiv2_driver_free(d);
    out[0] = y[0];
    out[1] = y[1];
}

typedef struct {
    const char *what;
    double alpha, beta, t0, C0, Cd0, t;
} vcase;

static void check_against_integration(const vcase *v)
{
    double C = NAN, Cd = NAN, ref[2];
    int st = ex06_violation(v->alpha, v->beta, v->t0, v->C0, v->Cd0, v->t, &C, &Cd);
    CHECK_STATUS(st, GSL_SUCCESS);
    integrate(v->alpha, v->beta, v->t0, v->C0, v->Cd0, v->t, ref);
    const double tol = 1e-9 * (fabs(v->C0) + fabs(v->Cd0));
    CHECK_MSG(fabs(C - ref[0]) <= tol && fabs(Cd - ref[1]) <= tol,
              "%s (alpha = %g, beta = %g, from C = %g, C' = %g at t0 = %g): at t = %g you give "
              "C = %.12g, C' = %.12g; integrating the equation gives C = %.12g, C' = %.12g",
              v->what, v->alpha, v->beta, v->C0, v->Cd0, v->t0, v->t, C, Cd, ref[0], ref[1]);
}

static void violation_cases(void)
{
    const vcase cases[] = {
        {"under-damped", 1.3, 4.1, 1.7, 0.02, -0.3, 3.2},
        {"under-damped, later", 1.3, 4.1, 1.7, 0.02, -0.3, 5.9},
        {"over-damped", 5.0, 2.0, 1.7, 0.03, 0.25, 3.5},
        {"over-damped, from rest", 3.0, 1.0, 0.4, -0.06, 0.0, 1.9},
        {"no damping (alpha = 0)", 0.0, 3.0, 0.5, 0.1, 0.2, 2.6},
        {"no stiffness (beta = 0)", 2.0, 0.0, 0.5, 0.1, -0.3, 2.0},
        {"backwards in time (t < t0)", 1.0, 2.5, 1.5, 0.05, 0.1, 0.7},
        {"backwards, over-damped", 3.5, 1.5, 2.0, -0.02, 0.07, 1.2},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        check_against_integration(&cases[i]);
    /* at t = t0 the initial values themselves */
    double C = NAN, Cd = NAN;
    CHECK_STATUS(ex06_violation(2.0, 5.0, 3.3, 0.07, -0.4, 3.3, &C, &Cd), GSL_SUCCESS);
    CHECK_CLOSE(C, 0.07, 1e-15);
    CHECK_CLOSE(Cd, -0.4, 1e-15);
}

/* alpha = beta exactly, against integration and the closed form
 * e^{-alpha tau} (C0 + (Cd0 + alpha C0) tau); and alpha a hair away from
 * beta on either side, which must give (nearly) the same */
static void critical_damping(void)
{
    const double bs[] = {0.8, 2.7, 12.0};
    for (size_t i = 0; i < 3; i++) {
        const double b = bs[i], t0 = 0.9, t = 2.1, C0 = 0.04, Cd0 = -0.5, tau = t - t0;
        const vcase v = {"critically damped", b, b, t0, C0, Cd0, t};
        check_against_integration(&v);
        double C = NAN, Cd = NAN;
        CHECK_STATUS(ex06_violation(b, b, t0, C0, Cd0, t, &C, &Cd), GSL_SUCCESS);
        const double e = exp(-b * tau);
        CHECK_CLOSE(C, e * (C0 + (Cd0 + b * C0) * tau), 1e-13);
        CHECK_CLOSE(Cd, e * (Cd0 - (b * Cd0 + b * b * C0) * tau), 1e-13);
        const double near[] = {1 + 1e-9, 1 - 1e-9, 1 + 1e-6, 1 - 1e-6};
        for (size_t k = 0; k < 4; k++) {
            const vcase w = {"next to critical", b * near[k], b, t0, C0, Cd0, t};
            check_against_integration(&w);
        }
    }
}

/* large alpha over long times: e^{-alpha tau} underflows while the slow
 * root keeps the violation alive; the reference is the sum of the two
 * exponentials of the roots, written here */
static void long_times(void)
{
    const double alpha = 400, beta = 10, t0 = 0.3, C0 = 0.02, Cd0 = -0.7;
    const double w = sqrt(alpha * alpha - beta * beta);
    const double s1 = -beta * beta / (alpha + w), s2 = -alpha - w;
    const double a1 = (Cd0 - s2 * C0) / (s1 - s2), a2 = (s1 * C0 - Cd0) / (s1 - s2);
    const double taus[] = {0.01, 2.0, 20.0, 100.0};
    for (size_t i = 0; i < 4; i++) {
        const double tau = taus[i];
        const double refC = a1 * exp(s1 * tau) + a2 * exp(s2 * tau);
        const double refCd = a1 * s1 * exp(s1 * tau) + a2 * s2 * exp(s2 * tau);
        double C = NAN, Cd = NAN;
        CHECK_STATUS(ex06_violation(alpha, beta, t0, C0, Cd0, t0 + tau, &C, &Cd), GSL_SUCCESS);
        CHECK_MSG(isfinite(C) && isfinite(Cd) && fabs(C - refC) <= 1e-10 * fabs(refC) + 1e-300
                  && fabs(Cd - refCd) <= 1e-10 * fabs(refCd) + 1e-300,
                  "alpha = 400, beta = 10, t - t0 = %g: C = %.12g, C' = %.12g; expected "
                  "C = %.12g, C' = %.12g", tau, C, Cd, refC, refCd);
    }
    /* and a lightly damped, fast one far out */
    const vcase v = {"lightly damped, far out", 0.05, 40.0, 0.3, 0.02, -0.7, 30.3};
    check_against_integration(&v);
}

/* ------------------------------------------------------------------------ */
/* The decay rate                                                            */

/* the largest real part of the roots of s^2 + 2 alpha s + beta^2 by GSL's
 * quadratic solver, a real root polished by Newton in long double */
static double reference_rate(double alpha, double beta)
{
    gsl_complex z[2];
    gsl_poly_complex_solve_quadratic(1.0, 2 * alpha, beta * beta, &z[0], &z[1]);
    double best = -HUGE_VAL;
    for (int i = 0; i < 2; i++) {
        double re = GSL_REAL(z[i]);
        if (GSL_IMAG(z[i]) == 0 && alpha > beta) {
            long double s = re;
            for (int it = 0; it < 4; it++) {
                const long double p = s * s + 2.0L * alpha * s + (long double)beta * beta;
                s -= p / (2.0L * s + 2.0L * alpha);
            }
            re = (double)s;
        }
        best = fmax(best, re);
    }
    return best;
}

static void decay_rate(void)
{
    const double ab[][2] = {{1.0, 3.0}, {3.0, 3.0}, {5.0, 2.0}, {0.0, 2.0}, {7.0, 6.999},
                            {1e4, 1.0}, {1e6, 3.0}, {40.0, 0.5}};
    for (size_t i = 0; i < sizeof ab / sizeof ab[0]; i++) {
        double r = NAN;
        CHECK_STATUS(ex06_decay_rate(ab[i][0], ab[i][1], &r), GSL_SUCCESS);
        const double ref = reference_rate(ab[i][0], ab[i][1]);
        CHECK_MSG(fabs(r - ref) <= 1e-12 * fabs(ref),
                  "alpha = %g, beta = %g: rate = %.16g, expected %.16g", ab[i][0], ab[i][1], r, ref);
    }
    /* nothing pulls C back: beta = 0 (and alpha = beta = 0) */
    const double zero[][2] = {{2.0, 0.0}, {0.0, 0.0}};
    for (size_t i = 0; i < 2; i++) {
        double r = NAN;
        CHECK_STATUS(ex06_decay_rate(zero[i][0], zero[i][1], &r), GSL_SUCCESS);
        CHECK_MSG(r == 0.0, "alpha = %g, beta = %g: rate = %g, expected 0", zero[i][0], zero[i][1], r);
    }
    /* alpha = beta is the fastest decay for a given beta; heavy damping is slow,
     * rate ~ -beta^2 / (2 alpha) */
    const double beta = 4.0;
    double crit = NAN;
    CHECK_STATUS(ex06_decay_rate(beta, beta, &crit), GSL_SUCCESS);
    const double f[] = {0.3, 0.9, 1.1, 3.0};
    for (size_t i = 0; i < 4; i++) {
        double r = NAN;
        CHECK_STATUS(ex06_decay_rate(f[i] * beta, beta, &r), GSL_SUCCESS);
        CHECK_MSG(crit < r, "rate at alpha = beta = %g is %g, not below the rate %g at alpha = %g",
                  beta, crit, r, f[i] * beta);
    }
    double slow = NAN;
    CHECK_STATUS(ex06_decay_rate(1e4 * beta, beta, &slow), GSL_SUCCESS);
    CHECK_REL(slow, -beta / (2e4), 1e-7);
}

/* ------------------------------------------------------------------------ */

static void bad_arguments(void)
{
    const double ab[][2] = {{-1.0, 2.0}, {2.0, -1.0}, {NAN, 2.0}, {2.0, NAN}};
    gsl_matrix_const_view Cq = gsl_matrix_const_view_array(&CQ[0][0], 3, 5);
    for (size_t i = 0; i < 4; i++) {
        const double alpha = ab[i][0], beta = ab[i][1];
        double gB[3] = {FX_SENTINEL, FX_SENTINEL, FX_SENTINEL};
        int st = ex06_baumgarte_gamma(&Cq.matrix, QD, CV, CT, GAM, alpha, beta, gB);
        CHECK_MSG(st == GSL_EINVAL && fx_all_equal(gB, 3, FX_SENTINEL),
                  "ex06_baumgarte_gamma with alpha = %g, beta = %g: status %d (%s)%s, expected "
                  "GSL_EINVAL and nothing written", alpha, beta, st, mbd_strerror(st),
                  fx_all_equal(gB, 3, FX_SENTINEL) ? "" : ", gamma_B written");
        double C = FX_SENTINEL, Cd = FX_SENTINEL;
        st = ex06_violation(alpha, beta, 0.0, 0.1, 0.2, 1.0, &C, &Cd);
        CHECK_MSG(st == GSL_EINVAL && C == FX_SENTINEL && Cd == FX_SENTINEL,
                  "ex06_violation with alpha = %g, beta = %g: status %d (%s), expected GSL_EINVAL "
                  "and nothing written", alpha, beta, st, mbd_strerror(st));
        double r = FX_SENTINEL;
        st = ex06_decay_rate(alpha, beta, &r);
        CHECK_MSG(st == GSL_EINVAL && r == FX_SENTINEL,
                  "ex06_decay_rate with alpha = %g, beta = %g: status %d (%s), expected GSL_EINVAL "
                  "and nothing written", alpha, beta, st, mbd_strerror(st));
    }
}

static CU_TestInfo tests[] = {
    {"gamma_B of a general system, with and without C_t", gamma_general},
    {"with gamma_B the violation obeys C'' + 2 alpha C' + beta^2 C = 0", stabilized_motion},
    {"the violation against integration", violation_cases},
    {"critical damping, and next to it", critical_damping},
    {"large alpha, long times", long_times},
    {"the decay rate", decay_rate},
    {"bad arguments", bad_arguments},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"ex06.4", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
