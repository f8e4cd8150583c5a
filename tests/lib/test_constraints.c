/* The constraint solver (constraints.h), against independent computations:
 * the projection's accelerations against the augmented (KKT) solve written
 * out by hand, the correction's defining properties, Newton on a circle
 * against the radial projection, the rank against constructed matrices, and
 * every refusal. The mass matrix is full (coupled) and C_q has no structure,
 * so that no transposed index or diagonal assumption can pass by accident. */
#include <math.h>
#include <string.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>

#include "check.h"
#include "mbd/constraints.h"

enum { N = 4, K = 2 };

/* a full symmetric positive definite M and a general 2 x 4 C_q */
static void example(gsl_matrix *M, gsl_matrix *Cq)
{
    static const double m[N][N] = {{4.0, 1.0, 0.5, 0.2},
                                   {1.0, 3.0, 0.3, 0.1},
                                   {0.5, 0.3, 2.0, 0.4},
                                   {0.2, 0.1, 0.4, 1.5}};
    static const double c[K][N] = {{1.0, -2.0, 0.5, 3.0}, {0.3, 1.0, -1.5, 0.7}};
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            gsl_matrix_set(M, i, j, m[i][j]);
    for (int i = 0; i < K; i++)
        for (int j = 0; j < N; j++)
            gsl_matrix_set(Cq, i, j, c[i][j]);
}

/* [M C^T; C 0] [x; l] = [f; g] by GSL's LU on the matrix written out */
static void kkt_by_hand(const gsl_matrix *M, const gsl_matrix *Cq, const gsl_vector *f,
                        const gsl_vector *g, gsl_vector *x, gsl_vector *l)
{
    const size_t n = M->size1, k = Cq->size1;
    gsl_matrix *A = gsl_matrix_calloc(n + k, n + k);
    gsl_vector *b = gsl_vector_alloc(n + k), *s = gsl_vector_alloc(n + k);
    gsl_permutation *p = gsl_permutation_alloc(n + k);
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < n; j++)
            gsl_matrix_set(A, i, j, gsl_matrix_get(M, i, j));
        for (size_t r = 0; r < k; r++) {
            gsl_matrix_set(A, i, n + r, gsl_matrix_get(Cq, r, i));
            gsl_matrix_set(A, n + r, i, gsl_matrix_get(Cq, r, i));
        }
        gsl_vector_set(b, i, gsl_vector_get(f, i));
    }
    for (size_t r = 0; r < k; r++)
        gsl_vector_set(b, n + r, gsl_vector_get(g, r));
    int sign;
    gsl_linalg_LU_decomp(A, p, &sign);
    gsl_linalg_LU_solve(A, p, b, s);
    for (size_t i = 0; i < n; i++)
        gsl_vector_set(x, i, gsl_vector_get(s, i));
    for (size_t r = 0; r < k; r++)
        gsl_vector_set(l, r, gsl_vector_get(s, n + r));
    gsl_matrix_free(A);
    gsl_vector_free(b);
    gsl_vector_free(s);
    gsl_permutation_free(p);
}

/* The projection's accelerations and multipliers are the KKT system's
 * solution; the solver's own KKT solve agrees with the one by hand. */
static void accel_is_the_kkt_solution(void)
{
    gsl_matrix *M = gsl_matrix_alloc(N, N), *Cq = gsl_matrix_alloc(K, N);
    example(M, Cq);
    double fv[N] = {1.0, -0.5, 2.0, 0.25}, gv[K] = {0.3, -1.2};
    gsl_vector_view F = gsl_vector_view_array(fv, N), g = gsl_vector_view_array(gv, K);
    gsl_vector *qdd = gsl_vector_alloc(N), *lam = gsl_vector_alloc(K);
    gsl_vector *x = gsl_vector_alloc(N), *l = gsl_vector_alloc(K);
    gsl_vector *x2 = gsl_vector_alloc(N), *l2 = gsl_vector_alloc(K);
    kkt_by_hand(M, Cq, &F.vector, &g.vector, x, l);

    mbd_constraints *c = mbd_constraints_alloc(N, 3);   /* room for an extra row */
    REQUIRE_STATUS(mbd_constraints_set_mass(c, 0.0, M), GSL_SUCCESS);
    REQUIRE_STATUS(mbd_constraints_accel(c, 0.0, Cq, &F.vector, &g.vector, qdd, lam),
                   GSL_SUCCESS);
    for (int i = 0; i < N; i++)
        CHECK_CLOSE(gsl_vector_get(qdd, i), gsl_vector_get(x, i), 1e-12);
    for (int r = 0; r < K; r++)
        CHECK_CLOSE(gsl_vector_get(lam, r), gsl_vector_get(l, r), 1e-12);
    REQUIRE_STATUS(mbd_constraints_kkt_solve(c, 0.0, M, Cq, &F.vector, &g.vector, x2, l2),
                   GSL_SUCCESS);
    for (int i = 0; i < N; i++)
        CHECK_CLOSE(gsl_vector_get(x2, i), gsl_vector_get(x, i), 1e-12);
    for (int r = 0; r < K; r++)
        CHECK_CLOSE(gsl_vector_get(l2, r), gsl_vector_get(l, r), 1e-12);
    double cond = 0;
    mbd_constraints_schur_condition(c, &cond);
    CHECK_IN(cond, 1.0, 1e4);
    mbd_constraints_free(c);
    gsl_matrix_free(M);
    gsl_matrix_free(Cq);
    gsl_vector_free(qdd);
    gsl_vector_free(lam);
    gsl_vector_free(x);
    gsl_vector_free(l);
    gsl_vector_free(x2);
    gsl_vector_free(l2);
}

/* A singular M (no inertia in one direction) that the constraints fix: the
 * Schur route refuses it, the augmented solve does not (chapter 09's Euler
 * parameters). An augmented matrix that is singular is refused. */
static void kkt_without_positive_mass(void)
{
    gsl_matrix *M = gsl_matrix_alloc(N, N), *Cq = gsl_matrix_alloc(K, N);
    example(M, Cq);
    for (int i = 0; i < N; i++) {   /* M's last row and column zero */
        gsl_matrix_set(M, 3, i, 0.0);
        gsl_matrix_set(M, i, 3, 0.0);
    }
    double fv[N] = {1.0, 2.0, 3.0, 0.0}, gv[K] = {0.5, 0.25};
    gsl_vector_view F = gsl_vector_view_array(fv, N), g = gsl_vector_view_array(gv, K);
    gsl_vector *x = gsl_vector_alloc(N), *l = gsl_vector_alloc(K);
    mbd_constraints *c = mbd_constraints_alloc(N, K);
    CHECK_STATUS(mbd_constraints_set_mass(c, 1.5, M), MBD_ESINGULAR);
    CHECK_MSG(strstr(mbd_constraints_failure(c)->cause, "mass matrix M") != NULL
                  && mbd_constraints_failure(c)->time == 1.5,
              "cause: %s", mbd_constraints_failure(c)->cause);
    REQUIRE_STATUS(mbd_constraints_kkt_solve(c, 0.0, M, Cq, &F.vector, &g.vector, x, l),
                   GSL_SUCCESS);
    /* the residuals of both rows, computed here */
    gsl_vector *r1 = gsl_vector_alloc(N), *r2 = gsl_vector_alloc(K);
    gsl_vector_memcpy(r1, &F.vector);
    gsl_blas_dgemv(CblasNoTrans, 1.0, M, x, -1.0, r1);
    gsl_blas_dgemv(CblasTrans, 1.0, Cq, l, 1.0, r1);
    gsl_vector_memcpy(r2, &g.vector);
    gsl_blas_dgemv(CblasNoTrans, 1.0, Cq, x, -1.0, r2);
    CHECK_LE(gsl_blas_dnrm2(r1), 1e-12);
    CHECK_LE(gsl_blas_dnrm2(r2), 1e-12);
    /* two equal constraint rows: singular */
    for (int j = 0; j < N; j++)
        gsl_matrix_set(Cq, 1, j, gsl_matrix_get(Cq, 0, j));
    CHECK_STATUS(mbd_constraints_kkt_solve(c, 2.0, M, Cq, &F.vector, &g.vector, x, l),
                 MBD_ESINGULAR);
    CHECK_MSG(strstr(mbd_constraints_failure(c)->cause, "augmented") != NULL, "cause: %s",
              mbd_constraints_failure(c)->cause);
    mbd_constraints_free(c);
    gsl_matrix_free(M);
    gsl_matrix_free(Cq);
    gsl_vector_free(x);
    gsl_vector_free(l);
    gsl_vector_free(r1);
    gsl_vector_free(r2);
}

/* x - X S^-1 r removes the residual exactly for linear constraints
 * (C_q dx = -r), and dx is W C_q^T times something: the least change in W's
 * norm. Checked with W = I and W = M^-1. */
static void correction_properties(void)
{
    gsl_matrix *M = gsl_matrix_alloc(N, N), *Cq = gsl_matrix_alloc(K, N);
    example(M, Cq);
    mbd_constraints *c = mbd_constraints_alloc(N, K);
    REQUIRE_STATUS(mbd_constraints_set_mass(c, 0.0, M), GSL_SUCCESS);
    for (int weighted = 0; weighted <= 1; weighted++) {
        REQUIRE_STATUS(mbd_constraints_schur(c, 0.0, Cq, weighted, "S"), GSL_SUCCESS);
        double xv[N] = {0.1, 0.2, -0.3, 0.4}, x0[N], rv[K] = {0.7, -0.2};
        memcpy(x0, xv, sizeof xv);
        gsl_vector_view x = gsl_vector_view_array(xv, N), r = gsl_vector_view_array(rv, K);
        REQUIRE_STATUS(mbd_constraints_correct(c, &r.vector, &x.vector), GSL_SUCCESS);
        double dxv[N];
        for (int i = 0; i < N; i++)
            dxv[i] = xv[i] - x0[i];
        gsl_vector_view dx = gsl_vector_view_array(dxv, N);
        double cdx[K];
        gsl_vector_view Cdx = gsl_vector_view_array(cdx, K);
        gsl_blas_dgemv(CblasNoTrans, 1.0, Cq, &dx.vector, 0.0, &Cdx.vector);
        for (int k = 0; k < K; k++)
            CHECK_CLOSE(cdx[k], -rv[k], 1e-13);
        /* the least change: W^-1 dx lies in the row space of C_q */
        double wdx[N];
        gsl_vector_view Wdx = gsl_vector_view_array(wdx, N);
        if (weighted)
            gsl_blas_dgemv(CblasNoTrans, 1.0, M, &dx.vector, 0.0, &Wdx.vector);
        else
            memcpy(wdx, dxv, sizeof dxv);
        /* least squares: W^-1 dx = C_q^T a has a residual of zero */
        gsl_matrix *A = gsl_matrix_alloc(N, K);
        gsl_vector *tau = gsl_vector_alloc(K), *a = gsl_vector_alloc(K), *res = gsl_vector_alloc(N);
        gsl_matrix_transpose_memcpy(A, Cq);
        gsl_linalg_QR_decomp(A, tau);
        gsl_linalg_QR_lssolve(A, tau, &Wdx.vector, a, res);
        CHECK_LE(gsl_blas_dnrm2(res), 1e-13);
        gsl_matrix_free(A);
        gsl_vector_free(tau);
        gsl_vector_free(a);
        gsl_vector_free(res);
    }
    mbd_constraints_free(c);
    gsl_matrix_free(M);
    gsl_matrix_free(Cq);
}

/* a unit circle in the plane, C = x^2 + y^2 - 1, with a moving constraint
 * C_t = 0 but a velocity constraint checked below */
static int circle_mass(const mbd_system *s, double t, const gsl_vector *q, gsl_matrix *M)
{
    (void)s, (void)t, (void)q;
    gsl_matrix_set_identity(M);
    gsl_matrix_set(M, 0, 1, 0.5);
    gsl_matrix_set(M, 1, 0, 0.5);
    return GSL_SUCCESS;
}
static int circle_force(const mbd_system *s, double t, const gsl_vector *q, const gsl_vector *qd,
                        gsl_vector *F)
{
    (void)s, (void)t, (void)q, (void)qd;
    gsl_vector_set_zero(F);
    return GSL_SUCCESS;
}
static int circle_c(const mbd_system *s, double t, const gsl_vector *q, gsl_vector *C)
{
    (void)s, (void)t;
    const double x = gsl_vector_get(q, 0), y = gsl_vector_get(q, 1);
    gsl_vector_set(C, 0, x * x + y * y - 1.0);
    return GSL_SUCCESS;
}
static int circle_cq(const mbd_system *s, double t, const gsl_vector *q, gsl_matrix *Cq)
{
    (void)s, (void)t;
    gsl_matrix_set(Cq, 0, 0, 2.0 * gsl_vector_get(q, 0));
    gsl_matrix_set(Cq, 0, 1, 2.0 * gsl_vector_get(q, 1));
    return GSL_SUCCESS;
}
static int circle_ct(const mbd_system *s, double t, const gsl_vector *q, gsl_vector *Ct)
{
    (void)s, (void)t, (void)q;
    gsl_vector_set(Ct, 0, 0.3);   /* a driven radius, for the velocity solve */
    return GSL_SUCCESS;
}
static int circle_gamma(const mbd_system *s, double t, const gsl_vector *q, const gsl_vector *qd,
                        gsl_vector *g)
{
    (void)s, (void)t, (void)q;
    const double u = gsl_vector_get(qd, 0), v = gsl_vector_get(qd, 1);
    gsl_vector_set(g, 0, -2.0 * (u * u + v * v));
    return GSL_SUCCESS;
}

static mbd_system circle(void)
{
    return (mbd_system){.n = 2, .m = 1, .mass = circle_mass, .force = circle_force,
                        .constraint = circle_c, .jacobian = circle_cq,
                        .constraint_t = circle_ct, .gamma = circle_gamma};
}

/* Newton with minimum-norm steps moves along the radius: it ends at the
 * radial projection q / |q|. The mass-weighted steps end on the circle too,
 * elsewhere. One iteration is not enough at a tight tolerance: MBD_ENOCONV. */
static void newton_on_a_circle(void)
{
    mbd_system s = circle();
    mbd_constraints *c = mbd_constraints_alloc(2, 1);
    double qv[2] = {1.1, 0.2};
    gsl_vector_view q = gsl_vector_view_array(qv, 2);
    unsigned it = 0;
    REQUIRE_STATUS(mbd_constraints_newton(c, &s, 0.0, &q.vector, 0, 1e-12, 20, &it),
                   GSL_SUCCESS);
    const double r = hypot(1.1, 0.2);
    CHECK_CLOSE(qv[0], 1.1 / r, 1e-12);
    CHECK_CLOSE(qv[1], 0.2 / r, 1e-12);
    CHECK_IN(it, 2, 8);
    /* weighted by M^-1: on the circle, not on the ray */
    qv[0] = 1.1;
    qv[1] = 0.2;
    REQUIRE_STATUS(mbd_constraints_newton(c, &s, 0.0, &q.vector, 1, 1e-12, 20, &it),
                   GSL_SUCCESS);
    CHECK_CLOSE(hypot(qv[0], qv[1]), 1.0, 1e-12);
    CHECK_MSG(fabs(qv[1] / qv[0] - 0.2 / 1.1) > 1e-3, "the weighted step left the ray");
    /* already on it: no iteration */
    REQUIRE_STATUS(mbd_constraints_newton(c, &s, 0.0, &q.vector, 0, 1e-10, 20, &it),
                   GSL_SUCCESS);
    CU_ASSERT_EQUAL(it, 0);
    /* one iteration is not enough */
    qv[0] = 1.5;
    qv[1] = 0.0;
    CHECK_STATUS(mbd_constraints_newton(c, &s, 0.0, &q.vector, 0, 1e-12, 1, &it), MBD_ENOCONV);
    CU_ASSERT_EQUAL(it, 1);
    CHECK_MSG(strstr(mbd_constraints_failure(c)->cause, "after 1 Newton") != NULL, "cause: %s",
              mbd_constraints_failure(c)->cause);
    /* at the centre C_q = 0: S is singular */
    qv[0] = qv[1] = 0.0;
    CHECK_STATUS(mbd_constraints_newton(c, &s, 3.0, &q.vector, 0, 1e-12, 20, &it), MBD_ESINGULAR);
    CHECK_CLOSE(mbd_constraints_failure(c)->time, 3.0, 0);
    double cond = 0;
    mbd_constraints_schur_condition(c, &cond);
    CHECK_MSG(isinf(cond), "no factor, infinite condition: %g", cond);
    mbd_constraints_free(c);
}

/* The velocity solve puts C_q q' + C_t at zero (C_t = 0.3 here). */
static void velocity_solve(void)
{
    mbd_system s = circle();
    mbd_constraints *c = mbd_constraints_alloc(2, 1);
    double qv[2] = {0.6, 0.8}, vv[2] = {1.0, 2.0};
    gsl_vector_view q = gsl_vector_view_array(qv, 2), v = gsl_vector_view_array(vv, 2);
    for (int weighted = 0; weighted <= 1; weighted++) {
        vv[0] = 1.0;
        vv[1] = 2.0;
        int moved = 0;
        REQUIRE_STATUS(mbd_constraints_velocity(c, &s, 0.0, &q.vector, &v.vector, weighted, 1e-12,
                                                &moved),
                       GSL_SUCCESS);
        CU_ASSERT_TRUE(moved);
        CHECK_CLOSE(2 * 0.6 * vv[0] + 2 * 0.8 * vv[1] + 0.3, 0.0, 1e-13);
    }
    mbd_constraints_free(c);
}

/* The rank of constructed matrices, with the pivot columns. */
static void rank_by_pivoted_qr(void)
{
    gsl_matrix *M = gsl_matrix_alloc(N, N), *C3 = gsl_matrix_alloc(3, N);
    gsl_matrix *Cq = gsl_matrix_alloc(K, N);
    example(M, Cq);
    mbd_constraints *c = mbd_constraints_alloc(N, 3);
    size_t rank = 99, piv[N];
    REQUIRE_STATUS(mbd_constraints_rank(c, Cq, 0, &rank, piv), GSL_SUCCESS);
    CU_ASSERT_EQUAL(rank, 2);
    CU_ASSERT_EQUAL(piv[0], 3);   /* the column of largest norm, (3, 0.7), first */
    /* a third row the sum of the first two: still rank 2 */
    for (int j = 0; j < N; j++) {
        gsl_matrix_set(C3, 0, j, gsl_matrix_get(Cq, 0, j));
        gsl_matrix_set(C3, 1, j, gsl_matrix_get(Cq, 1, j));
        gsl_matrix_set(C3, 2, j, gsl_matrix_get(Cq, 0, j) + gsl_matrix_get(Cq, 1, j));
    }
    REQUIRE_STATUS(mbd_constraints_rank(c, C3, 0, &rank, NULL), GSL_SUCCESS);
    CU_ASSERT_EQUAL(rank, 2);
    /* made independent: rank 3 */
    gsl_matrix_set(C3, 2, 2, gsl_matrix_get(C3, 2, 2) + 1.0);
    REQUIRE_STATUS(mbd_constraints_rank(c, C3, 0, &rank, NULL), GSL_SUCCESS);
    CU_ASSERT_EQUAL(rank, 3);
    /* the Schur complement of the dependent rows is refused, naming it */
    gsl_matrix_set(C3, 2, 2, gsl_matrix_get(C3, 2, 2) - 1.0);
    CHECK_STATUS(mbd_constraints_schur(c, 0.5, C3, 0, "the test's S"), MBD_ESINGULAR);
    CHECK_MSG(strstr(mbd_constraints_failure(c)->cause, "the test's S") != NULL, "cause: %s",
              mbd_constraints_failure(c)->cause);
    /* too many rows for the workspace */
    gsl_matrix *C4 = gsl_matrix_calloc(4, N);
    CHECK_STATUS(mbd_constraints_schur(c, 0.0, C4, 0, "S"), GSL_EBADLEN);
    gsl_matrix_free(C4);
    mbd_constraints_free(c);
    gsl_matrix_free(M);
    gsl_matrix_free(Cq);
    gsl_matrix_free(C3);
}

/* the condition of A = L L^T from L: exact up to order 16 (against an
 * independent inverse by LU), GSL's estimate above (never above the truth,
 * within a factor 10 of it here); a factor without a positive diagonal is
 * reported singular */
static double exact_cond1(const gsl_matrix *A)
{
    const size_t k = A->size1;
    gsl_matrix *LU = gsl_matrix_alloc(k, k), *inv = gsl_matrix_alloc(k, k);
    gsl_permutation *p = gsl_permutation_alloc(k);
    int sign;
    gsl_matrix_memcpy(LU, A);
    gsl_linalg_LU_decomp(LU, p, &sign);
    gsl_linalg_LU_invert(LU, p, inv);
    double na = 0.0, ni = 0.0;
    for (size_t j = 0; j < k; j++) {
        double ca = 0.0, ci = 0.0;
        for (size_t i = 0; i < k; i++) {
            ca += fabs(gsl_matrix_get(A, i, j));
            ci += fabs(gsl_matrix_get(inv, i, j));
        }
        na = fmax(na, ca);
        ni = fmax(ni, ci);
    }
    gsl_matrix_free(LU);
    gsl_matrix_free(inv);
    gsl_permutation_free(p);
    return na * ni;
}

static void cholesky_rcond_exact_when_small(void)
{
    gsl_vector *work = gsl_vector_alloc(3 * 20);
    unsigned seed = 7;
    const size_t sizes[] = {1, 2, 3, 5, 8, 12, 16, 20};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        const size_t k = sizes[s];
        gsl_matrix *B = gsl_matrix_alloc(k, k), *A = gsl_matrix_alloc(k, k);
        for (size_t i = 0; i < k; i++)
            for (size_t j = 0; j < k; j++) {
                seed = seed * 1103515245u + 12345u;
                gsl_matrix_set(B, i, j, (double)(seed >> 8) / (1u << 24) - 0.5);
            }
        /* A = B B^T + a graded diagonal: non-symmetric B, uneven scales */
        gsl_blas_dgemm(CblasNoTrans, CblasTrans, 1.0, B, B, 0.0, A);
        for (size_t i = 0; i < k; i++)
            gsl_matrix_set(A, i, i, gsl_matrix_get(A, i, i) + pow(10.0, -(double)i / 2));
        const double truth = exact_cond1(A);
        gsl_linalg_cholesky_decomp1(A);
        double rcond = -1.0;
        gsl_vector_view w = gsl_vector_subvector(work, 0, 3 * k);
        CHECK_STATUS(mbd_constraints_cholesky_rcond(A, &rcond, &w.vector), GSL_SUCCESS);
        if (k <= MBD_CONSTRAINTS_EXACT_RCOND)
            CHECK_CLOSE(1.0 / rcond, truth, 1e-11 * truth);
        else
            CHECK_MSG(1.0 / rcond <= truth * (1 + 1e-12) && 1.0 / rcond > 0.1 * truth,
                      "order %zu: estimate %g, truth %g", k, 1.0 / rcond, truth);
        if (k == 3) {
            gsl_matrix_set(A, 1, 1, 0.0);   /* not a Cholesky factor */
            CHECK_STATUS(mbd_constraints_cholesky_rcond(A, &rcond, &w.vector), GSL_SUCCESS);
            CU_ASSERT_EQUAL(rcond, 0.0);
        }
        gsl_matrix_free(A);
        gsl_matrix_free(B);
    }
    gsl_vector_free(work);
}

static CU_TestInfo tests[] = {
    {"accel_is_the_kkt_solution", accel_is_the_kkt_solution},
    {"kkt_without_positive_mass", kkt_without_positive_mass},
    {"correction_properties", correction_properties},
    {"newton_on_a_circle", newton_on_a_circle},
    {"velocity_solve", velocity_solve},
    {"rank_by_pivoted_qr", rank_by_pivoted_qr},
    {"cholesky_rcond_exact_when_small", cholesky_rcond_exact_when_small},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"constraints", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
