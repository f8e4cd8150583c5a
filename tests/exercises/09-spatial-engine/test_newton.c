/* Grades exercise 09.6: the quasi-Newton and the full Newton matrix of a
 * BDF step in acceleration form, on a spatial double pendulum with a
 * spring-damper and a rheonomic driver. The full matrix is checked against
 * the tests' own differences of the whole residual in z = (q'', lambda);
 * both matrices are then used in the tests' own Newton iteration, where the
 * full one must converge quadratically and the quasi one linearly. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_math.h>

#include "check.h"
#include "ex09.h"
#include "fixture.h"
#include "fixture_dyn.h"

static int verbose(void) { return getenv("EX09_VERBOSE") != NULL; }

static double mat_max(const gsl_matrix *A)
{
    double r = 0;
    for (size_t i = 0; i < A->size1; i++)
        for (size_t j = 0; j < A->size2; j++) {
            const double a = fabs(gsl_matrix_get(A, i, j));
            r = isnan(a) ? NAN : fmax(r, a);
        }
    return r;
}

/* A general state: the consistent one of the model with its rates, and a
 * step's data aq, av, q'', lambda from it with every entry disturbed (the
 * matrix is that of the residual at any z, consistent or not). */
typedef struct {
    fx_dpend d;
    const mbd_system *s;
    size_t n, m, N;
    gsl_vector *aq, *av, *qdd, *lam;
} setup;

static int setup_build(setup *u, int spring, int driver, double h, double beta0)
{
    if (fx_dpend_build(&u->d, spring, driver, 2.3) != GSL_SUCCESS) {
        CHECK_MSG(0, "the test's double pendulum did not build");
        fx_dpend_free(&u->d);
        return 0;
    }
    u->s = mbd_spatial_system(u->d.sm);
    u->n = u->s->n, u->m = u->s->m, u->N = u->n + u->m;
    u->aq = gsl_vector_alloc(u->n), u->av = gsl_vector_alloc(u->n);
    u->qdd = gsl_vector_alloc(u->n), u->lam = gsl_vector_alloc(u->m);
    fx_rng g = {99};
    const double bh = beta0 * h;
    for (size_t i = 0; i < u->n; i++) {
        const double a = 0.8 * fx_uniform(&g), v = gsl_vector_get(u->d.qd, i) + 0.01 * fx_uniform(&g);
        gsl_vector_set(u->qdd, i, a);
        gsl_vector_set(u->av, i, v - bh * a);
        gsl_vector_set(u->aq, i, gsl_vector_get(u->d.q, i) + 0.01 * fx_uniform(&g) - bh * v);
    }
    for (size_t i = 0; i < u->m; i++)
        gsl_vector_set(u->lam, i, 5.0 * fx_uniform(&g));
    return 1;
}

static void setup_free(setup *u)
{
    gsl_vector_free(u->lam);
    gsl_vector_free(u->qdd);
    gsl_vector_free(u->av);
    gsl_vector_free(u->aq);
    fx_dpend_free(&u->d);
}

/* dg/dz by the tests' own fourth-order central differences of the whole
 * residual in each entry of z */
static void residual_jacobian(const setup *u, double t, double bh, const gsl_vector *z,
                              gsl_matrix *D)
{
    gsl_vector *zz = gsl_vector_alloc(u->N), *g[4];
    for (int k = 0; k < 4; k++)
        g[k] = gsl_vector_alloc(u->N);
    const double off[4] = {-2, -1, 1, 2};
    for (size_t j = 0; j < u->N; j++) {
        const double zj = gsl_vector_get(z, j), d = 1e-4 * (1 + fabs(zj));
        for (int k = 0; k < 4; k++) {
            gsl_vector_memcpy(zz, z);
            gsl_vector_set(zz, j, zj + off[k] * d);
            fx_bdf_residual(u->s, t, bh, u->aq, u->av, zz, g[k]);
        }
        for (size_t i = 0; i < u->N; i++)
            gsl_matrix_set(D, i, j, (gsl_vector_get(g[0], i) - 8 * gsl_vector_get(g[1], i)
                                     + 8 * gsl_vector_get(g[2], i) - gsl_vector_get(g[3], i))
                                        / (12 * d));
    }
    for (int k = 0; k < 4; k++)
        gsl_vector_free(g[k]);
    gsl_vector_free(zz);
}

static gsl_vector *z_of(const setup *u)
{
    gsl_vector *z = gsl_vector_alloc(u->N);
    for (size_t i = 0; i < u->n; i++)
        gsl_vector_set(z, i, gsl_vector_get(u->qdd, i));
    for (size_t i = 0; i < u->m; i++)
        gsl_vector_set(z, u->n + i, gsl_vector_get(u->lam, i));
    return z;
}

/* the quasi matrix is [M Phi_q^T; Phi_q 0] at the q the data give */
static void quasi_matrix(void)
{
    setup u;
    const double h = 0.05, beta0 = 0.6, t = 1.17;
    if (!setup_build(&u, 1, 1, h, beta0))
        return;
    gsl_matrix *J = gsl_matrix_alloc(u.N, u.N), *M = gsl_matrix_alloc(u.n, u.n);
    gsl_matrix *Cq = gsl_matrix_alloc(u.m, u.n);
    gsl_vector *q = gsl_vector_alloc(u.n);
    const int st = ex09_newton_matrix(u.s, MBD_SPATIAL_NEWTON_QUASI, t, h, beta0, u.aq, u.av,
                                      u.qdd, u.lam, J);
    CHECK_STATUS(st, GSL_SUCCESS);
    if (st == GSL_SUCCESS) {
        const double bh = beta0 * h;
        for (size_t i = 0; i < u.n; i++)
            gsl_vector_set(q, i, gsl_vector_get(u.aq, i)
                                     + bh * (gsl_vector_get(u.av, i)
                                             + bh * gsl_vector_get(u.qdd, i)));
        u.s->mass(u.s, t, q, M);
        u.s->jacobian(u.s, t, q, Cq);
        double e = 0;
        for (size_t i = 0; i < u.N; i++)
            for (size_t j = 0; j < u.N; j++) {
                const double x = i < u.n && j < u.n   ? gsl_matrix_get(M, i, j)
                                 : i < u.n            ? gsl_matrix_get(Cq, j - u.n, i)
                                 : j < u.n            ? gsl_matrix_get(Cq, i - u.n, j)
                                                      : 0.0;
                const double a = fabs(gsl_matrix_get(J, i, j) - x);
                e = isnan(a) ? NAN : fmax(e, a);
            }
        CHECK_MSG(e <= 1e-13 * mat_max(J), "quasi: J differs from [M Phi_q^T; Phi_q 0] at "
                                           "q = a_q + beta0 h (a_v + beta0 h q'') by %.3g", e);
    }
    gsl_vector_free(q);
    gsl_matrix_free(Cq);
    gsl_matrix_free(M);
    gsl_matrix_free(J);
    setup_free(&u);
}

/* the full matrix against the differences of the residual, at several h
 * and beta0, with and without the spring-damper and the driver */
static void full_matrix(void)
{
    const struct {
        int spring, driver;
        double h, beta0, t;
    } cases[] = {{1, 1, 0.05, 0.6, 1.17},
                 {1, 1, 0.02, 1.0, 0.31},
                 {0, 1, 0.08, 2.0 / 3.0, 2.4},
                 {1, 0, 0.03, 0.75, -0.6}};
    for (int c = 0; c < 4; c++) {
        setup u;
        if (!setup_build(&u, cases[c].spring, cases[c].driver, cases[c].h, cases[c].beta0))
            return;
        gsl_matrix *J = gsl_matrix_alloc(u.N, u.N), *D = gsl_matrix_alloc(u.N, u.N);
        gsl_matrix *Q = gsl_matrix_alloc(u.N, u.N);
        gsl_vector *z = z_of(&u);
        const int st = ex09_newton_matrix(u.s, MBD_SPATIAL_NEWTON_FULL, cases[c].t, cases[c].h,
                                          cases[c].beta0, u.aq, u.av, u.qdd, u.lam, J);
        CHECK_STATUS(st, GSL_SUCCESS);
        if (st == GSL_SUCCESS) {
            residual_jacobian(&u, cases[c].t, cases[c].beta0 * cases[c].h, z, D);
            ex09_newton_matrix(u.s, MBD_SPATIAL_NEWTON_QUASI, cases[c].t, cases[c].h,
                               cases[c].beta0, u.aq, u.av, u.qdd, u.lam, Q);
            const double scale = mat_max(D);
            gsl_matrix_sub(Q, D);
            const double fq = mat_max(Q);   /* how far the quasi matrix is from the exact */
            gsl_matrix_sub(D, J);
            const double e = mat_max(D);
            if (verbose())
                printf("\n    case %d: |J - dg/dz| %.2e of max %.2e (quasi differs by %.2e)", c,
                       e, scale, fq);
            CHECK_MSG(e <= 1e-7 * scale,
                      "h = %g, beta0 = %g, t = %g%s%s: the full matrix differs from the "
                      "derivative of the residual by %.3g (%.3g of its largest entry; the "
                      "quasi matrix differs by %.3g)", cases[c].h, cases[c].beta0, cases[c].t,
                      cases[c].spring ? ", spring-damper" : "", cases[c].driver ? ", driver" : "",
                      e, e / scale, fq);
            CHECK_MSG(fq >= 1e-4 * scale, "case %d: the test cannot tell quasi from full", c);
        }
        gsl_vector_free(z);
        gsl_matrix_free(Q);
        gsl_matrix_free(D);
        gsl_matrix_free(J);
        setup_free(&u);
    }
}

/* The tests' own Newton on the residual of a BDF2-like step of h = 0.04
 * from the consistent state, with the student's matrix (quasi: once at the
 * start; full: at every iterate). Returns the iterations, the corrections'
 * sizes |dz|_inf in c[], the final residual in *res. */
static int own_newton(setup *u, mbd_spatial_newton kind, double t, double h, double beta0,
                      gsl_vector *z, double c[40], double *res)
{
    gsl_matrix *J = gsl_matrix_alloc(u->N, u->N);
    gsl_vector *g = gsl_vector_alloc(u->N), *dz = gsl_vector_alloc(u->N);
    gsl_vector *qdd = gsl_vector_alloc(u->n), *lam = gsl_vector_alloc(u->m);
    gsl_permutation *perm = gsl_permutation_alloc(u->N);
    int k = 0, signum;
    for (; k < 40; k++) {
        if (k == 0 || kind == MBD_SPATIAL_NEWTON_FULL) {
            for (size_t i = 0; i < u->n; i++)
                gsl_vector_set(qdd, i, gsl_vector_get(z, i));
            for (size_t i = 0; i < u->m; i++)
                gsl_vector_set(lam, i, gsl_vector_get(z, u->n + i));
            if (ex09_newton_matrix(u->s, kind, t, h, beta0, u->aq, u->av, qdd, lam, J)
                != GSL_SUCCESS) {
                k = -1;
                break;
            }
            gsl_linalg_LU_decomp(J, perm, &signum);
        }
        fx_bdf_residual(u->s, t, beta0 * h, u->aq, u->av, z, g);
        gsl_vector_scale(g, -1.0);
        gsl_linalg_LU_solve(J, perm, g, dz);
        gsl_vector_add(z, dz);
        c[k] = fx_vmax(dz);
        if (!(c[k] > 1e-13 * (1 + fx_vmax(z)))) {
            k++;
            break;
        }
    }
    fx_bdf_residual(u->s, t, beta0 * h, u->aq, u->av, z, g);
    *res = fx_vmax(g);
    gsl_permutation_free(perm);
    gsl_vector_free(lam);
    gsl_vector_free(qdd);
    gsl_vector_free(dz);
    gsl_vector_free(g);
    gsl_matrix_free(J);
    return k;
}

static void convergence(void)
{
    setup u;
    const double h = 0.04, beta0 = 2.0 / 3.0;
    if (!setup_build(&u, 1, 1, h, beta0))
        return;
    /* the start: q'' and lambda of the consistent state (the library's
     * start solve), and the BDF data of a step from it */
    mbd_spatial_dynamics *dyn = mbd_spatial_dynamics_alloc(u.d.sm, NULL);
    gsl_vector *a0 = gsl_vector_alloc(u.n), *l0 = gsl_vector_alloc(u.m);
    if (dyn == NULL || mbd_spatial_dynamics_start(dyn, u.d.t0, u.d.q, u.d.qd, a0, l0)
                           != GSL_SUCCESS) {
        CHECK_MSG(0, "the test's double pendulum has no consistent start");
    } else {
        for (size_t i = 0; i < u.n; i++) {
            const double q = gsl_vector_get(u.d.q, i), v = gsl_vector_get(u.d.qd, i);
            const double a = gsl_vector_get(a0, i);
            gsl_vector_set(u.av, i, v + h / 3 * a);
            gsl_vector_set(u.aq, i, q + h / 3 * v);
        }
        gsl_vector_memcpy(u.qdd, a0);
        gsl_vector_memcpy(u.lam, l0);
        double c[2][40], res[2];
        int k[2];
        for (int kind = 0; kind < 2; kind++) {
            gsl_vector *z = z_of(&u);
            k[kind] = own_newton(&u, kind == 0 ? MBD_SPATIAL_NEWTON_QUASI
                                               : MBD_SPATIAL_NEWTON_FULL,
                                 u.d.t0 + h, h, beta0, z, c[kind], &res[kind]);
            gsl_vector_free(z);
            if (verbose()) {
                printf("\n    %s: %d iterations, corrections", kind ? "full" : "quasi", k[kind]);
                for (int i = 0; i < k[kind]; i++)
                    printf(" %.1e", c[kind][i]);
                printf(", |g| %.1e", res[kind]);
            }
        }
        CHECK_MSG(k[1] >= 2 && k[1] <= 6 && res[1] <= 1e-8,
                  "full Newton: %d iterations (expected 2 to 6), final |g| %.3g", k[1], res[1]);
        /* quadratic: once the corrections are small, each is at most a
         * modest multiple of the square of the one before */
        int quadratic = 1;
        for (int i = 0; i + 1 < k[1]; i++)
            if (c[1][i] < 1e-2 && c[1][i + 1] > 1e-11 && c[1][i + 1] > 100 * c[1][i] * c[1][i])
                quadratic = 0;
        CHECK_MSG(quadratic, "full Newton does not converge quadratically (see the "
                             "corrections with EX09_VERBOSE=1)");
        CHECK_MSG(k[0] > k[1] + 1 && k[0] < 40 && res[0] <= 1e-8,
                  "quasi-Newton: %d iterations, full Newton %d (quasi converges linearly, so "
                  "takes more), final |g| %.3g", k[0], k[1], res[0]);
        /* linear: the ratio of successive corrections settles between 1e-4 and 0.5 */
        int linear = k[0] >= 4;
        for (int i = 1; i + 2 < k[0]; i++) {
            const double r = c[0][i + 1] / c[0][i];
            if (!(r >= 1e-4 && r <= 0.5))
                linear = 0;
        }
        CHECK_MSG(linear, "quasi-Newton: the corrections do not shrink by a steady factor "
                          "(see them with EX09_VERBOSE=1)");
    }
    gsl_vector_free(l0);
    gsl_vector_free(a0);
    mbd_spatial_dynamics_free(dyn);
    setup_free(&u);
}

/* as h -> 0 the full matrix tends to the quasi one, the difference like
 * beta0 h (the damper's F_q') */
static void small_h(void)
{
    double diff[2];
    for (int k = 0; k < 2; k++) {
        setup u;
        const double h = k == 0 ? 1e-3 : 1e-4;
        if (!setup_build(&u, 1, 1, h, 0.7))
            return;
        gsl_matrix *J = gsl_matrix_alloc(u.N, u.N), *Q = gsl_matrix_alloc(u.N, u.N);
        ex09_newton_matrix(u.s, MBD_SPATIAL_NEWTON_FULL, 0.4, h, 0.7, u.aq, u.av, u.qdd, u.lam,
                           J);
        ex09_newton_matrix(u.s, MBD_SPATIAL_NEWTON_QUASI, 0.4, h, 0.7, u.aq, u.av, u.qdd, u.lam,
                           Q);
        gsl_matrix_sub(J, Q);
        diff[k] = mat_max(J);
        gsl_matrix_free(Q);
        gsl_matrix_free(J);
        setup_free(&u);
    }
    CHECK_MSG(diff[0] > 0 && diff[0] / diff[1] >= 8 && diff[0] / diff[1] <= 12,
              "|J_full - J_quasi| = %.3g at h = 1e-3 and %.3g at 1e-4: expected a ratio near 10",
              diff[0], diff[1]);
}

static void refusals(void)
{
    setup u;
    if (!setup_build(&u, 1, 1, 0.05, 0.6))
        return;
    gsl_matrix *J = gsl_matrix_alloc(u.N, u.N), *Js = gsl_matrix_alloc(u.N - 1, u.N);
    gsl_vector *short_v = gsl_vector_alloc(u.n - 1);
    gsl_vector_set_zero(short_v);
#define REFUSE(what, call, expected)                                                          \
    do {                                                                                      \
        gsl_matrix_set_all(J, FX_SENTINEL);                                                   \
        const int st_ = (call);                                                               \
        CHECK_MSG(st_ == (expected), "%s: status %d (%s), expected %s", what, st_,            \
                  mbd_strerror(st_), #expected);                                              \
        int same_ = 1;                                                                        \
        for (size_t i_ = 0; i_ < u.N; i_++)                                                   \
            for (size_t j_ = 0; j_ < u.N; j_++)                                               \
                same_ = same_ && gsl_matrix_get(J, i_, j_) == FX_SENTINEL;                    \
        CHECK_MSG(same_, "%s: J was written on an error", what);                              \
    } while (0)
    const mbd_spatial_newton F = MBD_SPATIAL_NEWTON_FULL;
    REFUSE("s = NULL", ex09_newton_matrix(NULL, F, 1, 0.05, 0.6, u.aq, u.av, u.qdd, u.lam, J),
           MBD_EINPUT);
    REFUSE("aq = NULL", ex09_newton_matrix(u.s, F, 1, 0.05, 0.6, NULL, u.av, u.qdd, u.lam, J),
           MBD_EINPUT);
    REFUSE("lambda = NULL", ex09_newton_matrix(u.s, F, 1, 0.05, 0.6, u.aq, u.av, u.qdd, NULL, J),
           MBD_EINPUT);
    CHECK_STATUS(ex09_newton_matrix(u.s, F, 1, 0.05, 0.6, u.aq, u.av, u.qdd, u.lam, NULL),
                 MBD_EINPUT);
    REFUSE("kind 7", ex09_newton_matrix(u.s, (mbd_spatial_newton)7, 1, 0.05, 0.6, u.aq, u.av,
                                        u.qdd, u.lam, J), MBD_EINPUT);
    REFUSE("h = 0", ex09_newton_matrix(u.s, F, 1, 0.0, 0.6, u.aq, u.av, u.qdd, u.lam, J),
           MBD_EINPUT);
    REFUSE("h = NaN", ex09_newton_matrix(u.s, F, 1, NAN, 0.6, u.aq, u.av, u.qdd, u.lam, J),
           MBD_EINPUT);
    REFUSE("beta0 = -0.6", ex09_newton_matrix(u.s, F, 1, 0.05, -0.6, u.aq, u.av, u.qdd, u.lam, J),
           MBD_EINPUT);
    REFUSE("t = inf", ex09_newton_matrix(u.s, F, INFINITY, 0.05, 0.6, u.aq, u.av, u.qdd, u.lam, J),
           MBD_EINPUT);
    gsl_vector_set(u.qdd, 4, NAN);
    REFUSE("q'' with a NaN", ex09_newton_matrix(u.s, F, 1, 0.05, 0.6, u.aq, u.av, u.qdd, u.lam, J),
           MBD_EINPUT);
    gsl_vector_set(u.qdd, 4, 0.1);
    gsl_vector_set(u.lam, 2, -INFINITY);
    REFUSE("lambda with an inf",
           ex09_newton_matrix(u.s, F, 1, 0.05, 0.6, u.aq, u.av, u.qdd, u.lam, J), MBD_EINPUT);
    gsl_vector_set(u.lam, 2, 0.1);
    REFUSE("av of n - 1 entries",
           ex09_newton_matrix(u.s, F, 1, 0.05, 0.6, u.aq, short_v, u.qdd, u.lam, J), GSL_EBADLEN);
    REFUSE("lambda of n - 1 entries",
           ex09_newton_matrix(u.s, F, 1, 0.05, 0.6, u.aq, u.av, u.qdd, short_v, J), GSL_EBADLEN);
    gsl_matrix_set_all(Js, FX_SENTINEL);
    CHECK_STATUS(ex09_newton_matrix(u.s, F, 1, 0.05, 0.6, u.aq, u.av, u.qdd, u.lam, Js),
                 GSL_EBADLEN);
#undef REFUSE
    gsl_vector_free(short_v);
    gsl_matrix_free(Js);
    gsl_matrix_free(J);
    setup_free(&u);
}

static CU_TestInfo tests[] = {
    {"the quasi matrix is [M Phi_q^T; Phi_q 0]", quasi_matrix},
    {"the full matrix is the derivative of the residual", full_matrix},
    {"Newton with your matrices: full quadratic, quasi linear", convergence},
    {"as h -> 0 the full matrix tends to the quasi one like h", small_h},
    {"bad kinds, steps, states and sizes are refused", refusals},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"ex09.6", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
