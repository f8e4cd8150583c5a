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

/* and of the coupled system (n = 4): (t, x, y, z, s, x', y', z', s') */
static const double CSTATES[][9] = {
    {0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0},
    {0.45, 0.7, 0.85, -0.3, 0.4, -1.9, 1.2, 0.6, 1.3},
    {1.3, -0.5, 1.02, 0.2, -0.8, 2.2, 0.7, -0.9, 0.4},
    {2.6, 0.9, -0.35, -0.05, 1.7, 0.4, 1.5, 0.3, -2.0},
};
#define NCSTATES (sizeof CSTATES / sizeof CSTATES[0])

/* state k of system s (the pendulum's STATES for n = 3, CSTATES for n = 4):
 * its time, q and q' */
static const double *state(const mbd_system *s, size_t k, double *t, const double **qd)
{
    const double *st = s->n == 4 ? CSTATES[k] : STATES[k];
    *t = st[0];
    *qd = st + 1 + s->n;
    return st + 1;
}

static size_t nstates(const mbd_system *s)
{
    return s->n == 4 ? NCSTATES : NSTATES;
}

/* The defining equation, checked in the test: the residual
 * (M + mu C_q^T C_q) q'' - F - mu C_q^T gamma_B, gamma_B computed here. */
static double residual(const mbd_system *s, const ex03_penalty *p, double t, const double *q,
                       const double *qd, const double qdd[])
{
    const size_t n = s->n, m = s->m;
    gsl_matrix *M = gsl_matrix_alloc(n, n), *Cq = gsl_matrix_alloc(m, n);
    gsl_vector *F = gsl_vector_alloc(n), *g = gsl_vector_alloc(m), *r = gsl_vector_alloc(n);
    gsl_vector *cqa = gsl_vector_alloc(m);
    gsl_vector_const_view vq = gsl_vector_const_view_array(q, n);
    gsl_vector_const_view vqd = gsl_vector_const_view_array(qd, n);
    gsl_vector_const_view va = gsl_vector_const_view_array(qdd, n);
    s->mass(s, t, &vq.vector, M);
    s->force(s, t, &vq.vector, &vqd.vector, F);
    s->jacobian(s, t, &vq.vector, Cq);
    s->gamma(s, t, &vq.vector, &vqd.vector, g);
    if (p->baumgarte) {
        double C[2], Cd[2];
        fx_violation(s, t, q, qd, C, Cd);
        for (size_t i = 0; i < m; i++)
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
                               {1e3, 1, 20, 4.4721}, {1e4, 1, 3, 7}, {0.5, 1, 6, 2}};
    for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++)
        for (size_t k = 0; k < nstates(s); k++) {
            double t, qdd[4] = {NAN, NAN, NAN, NAN};
            const double *qd, *q = state(s, k, &t, &qd);
            REQUIRE_STATUS(ex03_penalty_accel(s, &ps[i], t, q, qd, qdd, NULL), GSL_SUCCESS);
            const double r = residual(s, &ps[i], t, q, qd, qdd);
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

/* the general case: four coordinates, a full mass matrix M(q) with
 * off-diagonal terms, a force that depends on t, two moving constraints */
static void coupled_mass_equation(void)
{
    mbd_system s = fx_coupled();
    check_residuals(&s, "coupled system");
}

/* As mu grows, q'' and the implied multiplier tend to the exact ones
 * (Lagrange multipliers), the difference falling as 1/mu; Baumgarte's
 * weights alpha != beta. */
static void limit_is_the_exact_solution(void)
{
    mbd_system sys[3] = {fx_pendulum(), fx_moving(), fx_coupled()};
    const double alpha = 7, beta = 13;
    for (int j = 0; j < 3; j++)
        for (size_t k = 1; k < nstates(&sys[j]); k++) {
            for (int b = 0; b < 2; b++) {
                double t, a_ex[4], l_ex[2];
                const double *qd, *q = state(&sys[j], k, &t, &qd);
                const size_t n = sys[j].n;
                REQUIRE_STATUS(fx_kkt(&sys[j], t, q, qd, b ? alpha : 0, b ? beta : 0, a_ex, l_ex),
                               GSL_SUCCESS);
                double err[2];
                for (int e = 0; e < 2; e++) {
                    ex03_penalty p = {e == 0 ? 1e5 : 1e7, b, alpha, beta};
                    double a[4], l[2];
                    REQUIRE_STATUS(ex03_penalty_accel(&sys[j], &p, t, q, qd, a, l), GSL_SUCCESS);
                    err[e] = 0;
                    for (size_t i = 0; i < n; i++)
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
    mbd_system sys[2] = {fx_moving(), fx_coupled()};
    const char *methods[2] = {"penalty", "penalty-baumgarte"};
    for (int j = 0; j < 2; j++)
        for (int b = 0; b < 2; b++) {
            const mbd_system *s = &sys[j];
            const size_t n = s->n;
            mbd_formulation_params fp = {.mu = 1e4, .alpha = 5, .beta = 9};
            mbd_formulation_method(methods[b], &fp);
            mbd_formulation *f = mbd_formulation_alloc(s, &fp);
            CHECK_MSG(f != NULL, "library formulation");
            if (f == NULL)
                return;
            for (size_t k = 0; k < nstates(s); k++) {
                double t;
                const double *qd, *q = state(s, k, &t, &qd);
                gsl_vector_const_view vq = gsl_vector_const_view_array(q, n);
                gsl_vector_const_view vqd = gsl_vector_const_view_array(qd, n);
                gsl_vector *a = gsl_vector_alloc(n), *l = gsl_vector_alloc(2);
                mbd_formulation_accel(f, t, &vq.vector, &vqd.vector, a, l);
                ex03_penalty p = {1e4, b, 5, 9};
                double qdd[4], lam[2];
                int st = ex03_penalty_accel(s, &p, t, q, qd, qdd, lam);
                CHECK_STATUS(st, GSL_SUCCESS);
                for (size_t i = 0; st == GSL_SUCCESS && i < n; i++)
                    CHECK_MSG(fabs(qdd[i] - gsl_vector_get(a, i)) <= 1e-9 * (1 + fabs(qdd[i])),
                              "system %d, %s, state %zu: q''[%zu] = %.12g, library %.12g", j,
                              methods[b], k, i, qdd[i], gsl_vector_get(a, i));
                for (size_t i = 0; st == GSL_SUCCESS && i < 2; i++)
                    CHECK_MSG(fabs(lam[i] - gsl_vector_get(l, i)) <= 1e-6 * (1 + fabs(lam[i])),
                              "system %d, %s, state %zu: lambda[%zu] = %.10g, library %.10g", j,
                              methods[b], k, i, lam[i], gsl_vector_get(l, i));
                gsl_vector_free(a);
                gsl_vector_free(l);
            }
            mbd_formulation_free(f);
        }
}

/* A model callback that fails makes the function fail with its status, each
 * callback in turn; a matrix that is not positive definite is MBD_ESINGULAR. */
static void failures(void)
{
    const mbd_system base = fx_coupled();
    const double t = CSTATES[1][0], *q = CSTATES[1] + 1, *qd = CSTATES[1] + 5;
    const unsigned which[] = {FXF_MASS, FXF_FORCE, FXF_JACOBIAN, FXF_GAMMA, FXF_CONSTRAINT, FXF_CT};
    const char *names[] = {"mass", "force", "jacobian", "gamma", "constraint", "constraint_t"};
    for (size_t i = 0; i < sizeof which / sizeof which[0]; i++) {
        fx_fail_model fm = {&base, which[i], -1.0, 0, 0};
        mbd_system s = fx_failing(&fm);
        ex03_penalty p = {1e4, 1, 5, 9};   /* Baumgarte: C and C_t are needed too */
        double a[4], l[2];
        const int st = ex03_penalty_accel(&s, &p, t, q, qd, a, l);
        CHECK_MSG(st == FXF_STATUS, "the %s callback fails with status %d (%s): "
                  "ex03_penalty_accel returned %d (%s)", names[i], FXF_STATUS,
                  mbd_strerror(FXF_STATUS), st, mbd_strerror(st));
    }
    /* M = -(the coupled system's): M + mu C_q^T C_q is not positive definite */
    fx_fail_model neg = {&base, 0, 0.0, 1, 0};
    mbd_system s = fx_failing(&neg);
    for (int b = 0; b < 2; b++) {
        ex03_penalty p = {1e-2, b, 2, 3};
        double a[4], l[2];
        CHECK_STATUS(ex03_penalty_accel(&s, &p, t, q, qd, a, l), MBD_ESINGULAR);
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
    CHECK_STATUS(ex03_penalty_accel(NULL, &p, 0.0, q, qd, a, NULL), GSL_EINVAL);
    CHECK_STATUS(ex03_penalty_accel(&s, &p, 0.0, NULL, qd, a, NULL), GSL_EINVAL);
    CHECK_STATUS(ex03_penalty_accel(&s, &p, 0.0, q, NULL, a, NULL), GSL_EINVAL);
}

static CU_TestInfo tests[] = {
    {"pendulum_equation", pendulum_equation},
    {"moving_circle_equation", moving_circle_equation},
    {"coupled_mass_equation", coupled_mass_equation},
    {"limit_is_the_exact_solution", limit_is_the_exact_solution},
    {"agrees_with_the_library", agrees_with_the_library},
    {"failures", failures},
    {"errors", errors},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"ex03.2", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
