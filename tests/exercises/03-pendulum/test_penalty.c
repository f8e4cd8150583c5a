/* Grades exercise 03.2: the static penalty right-hand side (eqs. 71', 72'). */
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>

#include "check.h"
#include "ex03.h"
#include "fixture.h"

/* states off and on the constraints: (t, x, y, z, x', y', z') */
static const double STATES[][7] = {
    {0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0},
    {0.3, 0.6, 0.8, 0.0, -2.4, 1.8, 0.0},
    {0.7, 0.62, 0.79, 0.03, -2.1, 1.6, 0.2},
    {1.9, -0.31, 1.05, -0.02, 3.3, 0.9, -0.4},
};
#define NSTATES (sizeof STATES / sizeof STATES[0])

/* The defining equation, checked in the test: the residual
 * (M + mu C_q^T C_q) q'' - F - mu C_q^T gamma_B, gamma_B computed here. */
static double residual(const mbd_system *s, const ex03_penalty *p, const double *st,
                       const double qdd[3])
{
    const double t = st[0], *q = st + 1, *qd = st + 4;
    gsl_matrix *M = gsl_matrix_alloc(3, 3), *Cq = gsl_matrix_alloc(2, 3);
    gsl_vector *F = gsl_vector_alloc(3), *g = gsl_vector_alloc(2), *r = gsl_vector_alloc(3);
    gsl_vector *cqa = gsl_vector_alloc(2);
    gsl_vector_const_view vq = gsl_vector_const_view_array(q, 3);
    gsl_vector_const_view vqd = gsl_vector_const_view_array(qd, 3);
    gsl_vector_const_view va = gsl_vector_const_view_array(qdd, 3);
    s->mass(s, t, &vq.vector, M);
    s->force(s, t, &vq.vector, &vqd.vector, F);
    s->jacobian(s, t, &vq.vector, Cq);
    s->gamma(s, t, &vq.vector, &vqd.vector, g);
    if (p->baumgarte) {
        double C[2], Cd[2];
        fx_violation(s, t, q, qd, C, Cd);
        for (int i = 0; i < 2; i++)
            gsl_vector_set(g, i, gsl_vector_get(g, i) - 2 * p->alpha * Cd[i]
                                     - p->beta * p->beta * C[i]);
    }
    /* r = M a - F + mu C_q^T (C_q a - gamma_B) */
    gsl_blas_dgemv(CblasNoTrans, 1.0, M, &va.vector, 0.0, r);
    gsl_vector_sub(r, F);
    gsl_blas_dgemv(CblasNoTrans, 1.0, Cq, &va.vector, 0.0, cqa);
    gsl_vector_sub(cqa, g);
    gsl_blas_dgemv(CblasTrans, p->mu, Cq, cqa, 1.0, r);
    /* relative to the size of the terms */
    const double scale = gsl_blas_dnrm2(F) + p->mu * 4.0 * (gsl_blas_dnrm2(g) + 1.0);
    const double res = gsl_blas_dnrm2(r) / scale;
    gsl_matrix_free(M);
    gsl_matrix_free(Cq);
    gsl_vector_free(F);
    gsl_vector_free(g);
    gsl_vector_free(r);
    gsl_vector_free(cqa);
    return res;
}

static void check_residuals(const mbd_system *s, const char *name)
{
    const ex03_penalty ps[] = {{1e2, 0, 0, 0}, {1e5, 0, 0, 0}, {1e5, 1, 20, 20},
                               {1e3, 1, 20, 4.4721}, {1e4, 1, 3, 7}};
    for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++)
        for (size_t k = 0; k < NSTATES; k++) {
            double qdd[3] = {NAN, NAN, NAN};
            REQUIRE_STATUS(ex03_penalty_accel(s, &ps[i], STATES[k][0], STATES[k] + 1,
                                              STATES[k] + 4, qdd, NULL), GSL_SUCCESS);
            const double r = residual(s, &ps[i], STATES[k], qdd);
            CHECK_MSG(r < 1e-12, "%s, mu = %g, baumgarte %d (alpha %g, beta %g), state %zu: the "
                      "equation (M + mu Cq^T Cq) q'' = F + mu Cq^T gamma_B is off by %.3g "
                      "(relative)", name, ps[i].mu, ps[i].baumgarte, ps[i].alpha, ps[i].beta,
                      k, r);
        }
}

static void pendulum_equation(void)
{
    mbd_system s = fx_pendulum();
    check_residuals(&s, "pendulum");
}

/* unequal masses, damping and a constraint that moves (C_t != 0) */
static void moving_circle_equation(void)
{
    mbd_system s = fx_moving();
    check_residuals(&s, "moving circle");
}

/* As mu grows, q'' and the implied multiplier tend to the exact ones
 * (Lagrange multipliers), the difference falling as 1/mu. */
static void limit_is_the_exact_solution(void)
{
    mbd_system sys[2] = {fx_pendulum(), fx_moving()};
    for (int j = 0; j < 2; j++)
        for (size_t k = 1; k < NSTATES; k++) {
            for (int b = 0; b < 2; b++) {
                const double *st = STATES[k];
                double a_ex[3], l_ex[2];
                REQUIRE_STATUS(fx_kkt(&sys[j], st[0], st + 1, st + 4, b ? 20 : 0, b ? 20 : 0,
                                      a_ex, l_ex), GSL_SUCCESS);
                double err[2];
                for (int e = 0; e < 2; e++) {
                    ex03_penalty p = {e == 0 ? 1e5 : 1e7, b, 20, 20};
                    double a[3], l[2];
                    REQUIRE_STATUS(ex03_penalty_accel(&sys[j], &p, st[0], st + 1, st + 4, a, l),
                                   GSL_SUCCESS);
                    err[e] = 0;
                    for (int i = 0; i < 3; i++)
                        err[e] = fmax(err[e], fabs(a[i] - a_ex[i]) / (1 + fabs(a_ex[i])));
                    if (e == 1)
                        for (int i = 0; i < 2; i++)
                            CHECK_MSG(fabs(l[i] - l_ex[i]) <= 1e-4 * (1 + fabs(l_ex[i])),
                                      "system %d, state %zu, Baumgarte %d: lambda[%d] = %.8g, "
                                      "exact %.8g", j, k, b, i, l[i], l_ex[i]);
                }
                CHECK_MSG(err[1] < 1e-5 && err[0] > 30 * err[1],
                          "system %d, state %zu, Baumgarte %d: |q'' - exact| = %.3g at mu = 1e5, "
                          "%.3g at mu = 1e7 (expected ~1/mu)", j, k, b, err[0], err[1]);
            }
        }
}

/* The library's own static penalty agrees */
static void agrees_with_the_library(void)
{
    mbd_system s = fx_moving();
    const char *methods[2] = {"penalty", "penalty-baumgarte"};
    for (int b = 0; b < 2; b++) {
        mbd_formulation_params fp = {.mu = 1e4, .alpha = 5, .beta = 9};
        mbd_formulation_method(methods[b], &fp);
        mbd_formulation *f = mbd_formulation_alloc(&s, &fp);
        CHECK_MSG(f != NULL, "library formulation");
        if (f == NULL)
            return;
        for (size_t k = 0; k < NSTATES; k++) {
            const double *st = STATES[k];
            gsl_vector_const_view q = gsl_vector_const_view_array(st + 1, 3);
            gsl_vector_const_view qd = gsl_vector_const_view_array(st + 4, 3);
            gsl_vector *a = gsl_vector_alloc(3), *l = gsl_vector_alloc(2);
            mbd_formulation_accel(f, st[0], &q.vector, &qd.vector, a, l);
            ex03_penalty p = {1e4, b, 5, 9};
            double qdd[3], lam[2];
            REQUIRE_STATUS(ex03_penalty_accel(&s, &p, st[0], st + 1, st + 4, qdd, lam),
                           GSL_SUCCESS);
            for (int i = 0; i < 3; i++)
                CHECK_MSG(fabs(qdd[i] - gsl_vector_get(a, i)) <= 1e-9 * (1 + fabs(qdd[i])),
                          "%s, state %zu: q''[%d] = %.12g, library %.12g", methods[b], k, i,
                          qdd[i], gsl_vector_get(a, i));
            for (int i = 0; i < 2; i++)
                CHECK_MSG(fabs(lam[i] - gsl_vector_get(l, i)) <= 1e-6 * (1 + fabs(lam[i])),
                          "%s, state %zu: lambda[%d] = %.10g, library %.10g", methods[b], k, i,
                          lam[i], gsl_vector_get(l, i));
            gsl_vector_free(a);
            gsl_vector_free(l);
        }
        mbd_formulation_free(f);
    }
}

static void errors(void)
{
    mbd_system s = fx_pendulum();
    const double q[3] = {1, 0, 0}, qd[3] = {0, 0, 0};
    double a[3];
    ex03_penalty p = {0.0, 0, 0, 0};
    CHECK_STATUS(ex03_penalty_accel(&s, &p, 0.0, q, qd, a, NULL), GSL_EINVAL);
    p.mu = -1;
    CHECK_STATUS(ex03_penalty_accel(&s, &p, 0.0, q, qd, a, NULL), GSL_EINVAL);
    p.mu = 1e5;
    CHECK_STATUS(ex03_penalty_accel(&s, NULL, 0.0, q, qd, a, NULL), GSL_EINVAL);
    CHECK_STATUS(ex03_penalty_accel(&s, &p, 0.0, q, qd, NULL, NULL), GSL_EINVAL);
}

static CU_TestInfo tests[] = {
    {"pendulum_equation", pendulum_equation},
    {"moving_circle_equation", moving_circle_equation},
    {"limit_is_the_exact_solution", limit_is_the_exact_solution},
    {"agrees_with_the_library", agrees_with_the_library},
    {"errors", errors},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"ex03.2", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
