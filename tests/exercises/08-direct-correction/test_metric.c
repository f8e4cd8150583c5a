/* Grades exercise 08.4: the minimum-norm step in the metrics W = I,
 * W = M^-1 and W = diag(M^-1, M^-1). */
#include <math.h>
#include <stdio.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_math.h>

#include "check.h"
#include "ex08.h"
#include "fixture.h"

/* ------------------------------------------------------------------------ */
/* Helpers                                                                   */

/* the step, reported on failure; 0 when it failed */
static int step_of(const char *what, const gsl_matrix *J, const gsl_vector *r, const gsl_matrix *M,
                   gsl_vector *dx, double *norm2)
{
    gsl_vector_set_all(dx, NAN);
    if (norm2 != NULL)
        *norm2 = NAN;
    const int st = ex08_weighted_step(J, r, M, dx, norm2);
    CHECK_MSG(st == GSL_SUCCESS, "%s: status %d (%s)", what, st, mbd_strerror(st));
    return st == GSL_SUCCESS;
}

/* max |J dx + r| */
static double residual(const gsl_matrix *J, const gsl_vector *dx, const gsl_vector *r)
{
    gsl_vector *y = gsl_vector_alloc(r->size);
    gsl_vector_memcpy(y, r);
    gsl_blas_dgemv(CblasNoTrans, 1.0, J, dx, 1.0, y);
    const double v = fx_vmax_abs(y);
    gsl_vector_free(y);
    return v;
}

/* an orthonormal basis of the null space of J (N x (N - R)), by QR of J^T */
static gsl_matrix *null_basis(const gsl_matrix *J)
{
    const size_t R = J->size1, N = J->size2;
    gsl_matrix *Jt = gsl_matrix_alloc(N, R), *Q = gsl_matrix_alloc(N, N), *S = gsl_matrix_alloc(N, R);
    gsl_vector *tau = gsl_vector_alloc(R);
    gsl_matrix_transpose_memcpy(Jt, J);
    gsl_linalg_QR_decomp(Jt, tau);
    gsl_linalg_QR_unpack(Jt, tau, Q, S);
    gsl_matrix *Z = gsl_matrix_alloc(N, N - R);
    gsl_matrix_const_view Q2 = gsl_matrix_const_submatrix(Q, 0, R, N, N - R);
    gsl_matrix_memcpy(Z, &Q2.matrix);
    gsl_vector_free(tau);
    gsl_matrix_free(S);
    gsl_matrix_free(Q);
    gsl_matrix_free(Jt);
    return Z;
}

/* The step is the least in the metric among all solutions: every competitor
 * dx + z (z in the null space of J) weighs more, and dx is W^-1-orthogonal
 * to the null space: z^T W^-1 dx = 0. */
static void check_least(const char *what, fx_rng *g, const gsl_matrix *J, const gsl_matrix *M,
                        const gsl_vector *dx)
{
    const size_t R = J->size1, N = J->size2;
    if (R == N)
        return;
    gsl_matrix *Z = null_basis(J);
    gsl_vector *z = gsl_vector_alloc(N), *c = gsl_vector_alloc(N);
    const double w0 = fx_wnorm2(M, dx);
    double worst_orth = 0.0;
    int beaten = 0;
    for (int k = 0; k < 20; k++) {
        gsl_vector_set_zero(z);
        for (size_t j = 0; j < N - R; j++) {
            gsl_vector_view col = gsl_matrix_column(Z, j);
            gsl_blas_daxpy((k < 10 ? 1e-3 : 0.3) * fx_uniform(g), &col.vector, z);
        }
        /* the cosine of z and dx in the metric */
        worst_orth = fmax(worst_orth,
                          fabs(fx_winner(M, z, dx)) / sqrt(fx_wnorm2(M, z) * w0));
        gsl_vector_memcpy(c, dx);
        gsl_vector_add(c, z);
        const double wp = fx_wnorm2(M, c);
        gsl_vector_memcpy(c, dx);
        gsl_vector_sub(c, z);
        const double wm = fx_wnorm2(M, c);
        if (!(wp >= w0 && wm >= w0))
            beaten = 1;
    }
    CHECK_MSG(worst_orth <= 1e-10, "%s: the step is not orthogonal to the null space of J in "
                                   "the metric (cosine %.3g)", what, worst_orth);
    CHECK_MSG(!beaten, "%s: a competitor dx + z with J z = 0 weighs less than the step", what);
    gsl_vector_free(c);
    gsl_vector_free(z);
    gsl_matrix_free(Z);
}

/* the step against the fixture's, J dx = -r, the least, and norm2 */
static void check_step(const char *what, fx_rng *g, const gsl_matrix *J, const gsl_vector *r,
                       const gsl_matrix *M)
{
    const size_t N = J->size2;
    gsl_vector *dx = gsl_vector_alloc(N), *ref = gsl_vector_alloc(N);
    double norm2;
    if (step_of(what, J, r, M, dx, &norm2)) {
        fx_reference_step(J, r, M, ref);
        const double e = fx_vmax_diff(dx, ref), scale = fx_vmax_abs(ref);
        CHECK_MSG(e <= 1e-11 * scale, "%s: dx differs from the least step by %.3g (of %.3g)",
                  what, e, scale);
        const double res = residual(J, dx, r);
        CHECK_MSG(res <= 1e-12 * (1 + fx_vmax_abs(r)), "%s: max|J dx + r| = %.3g", what, res);
        const double w = fx_wnorm2(M, ref);
        CHECK_MSG(fabs(norm2 - w) <= 1e-11 * w, "%s: norm2 = %.15g, expected dx^T W^-1 dx = "
                                                "%.15g", what, norm2, w);
        check_least(what, g, J, M, dx);
    }
    gsl_vector_free(ref);
    gsl_vector_free(dx);
}

/* ------------------------------------------------------------------------ */
/* Tests                                                                     */

static const size_t SHAPES[][2] = {{1, 3}, {2, 5}, {4, 6}, {3, 9}, {5, 8}, {6, 7}};
#define NSHAPES (sizeof SHAPES / sizeof SHAPES[0])

/* W = I: the Euclidean minimum-norm step of random, non-symmetric J */
static void euclidean(void)
{
    fx_rng g = {80841ULL};
    for (size_t k = 0; k < NSHAPES; k++) {
        gsl_matrix *J = fx_random(&g, SHAPES[k][0], SHAPES[k][1]);
        gsl_vector *r = fx_random_vector(&g, SHAPES[k][0]);
        char what[64];
        snprintf(what, sizeof what, "W = I, J %zu x %zu", SHAPES[k][0], SHAPES[k][1]);
        check_step(what, &g, J, r, NULL);
        gsl_vector_free(r);
        gsl_matrix_free(J);
    }
}

/* W = M^-1: the step of least kinetic energy, (1/2) dx^T M dx */
static void mass_weighted(void)
{
    fx_rng g = {80842ULL};
    for (size_t k = 0; k < NSHAPES; k++) {
        const size_t R = SHAPES[k][0], N = SHAPES[k][1];
        gsl_matrix *J = fx_random(&g, R, N), *M = fx_spd(&g, N, 0.05, 20.0);
        gsl_vector *r = fx_random_vector(&g, R);
        char what[64];
        snprintf(what, sizeof what, "W = M^-1, J %zu x %zu", R, N);
        check_step(what, &g, J, r, M);
        /* less kinetic energy than the Euclidean step */
        gsl_vector *d1 = gsl_vector_alloc(N), *dm = gsl_vector_alloc(N);
        if (step_of(what, J, r, NULL, d1, NULL) && step_of(what, J, r, M, dm, NULL)) {
            const double e1 = fx_wnorm2(M, d1), em = fx_wnorm2(M, dm);
            CHECK_MSG(em < e1 * (1 - 1e-6),
                      "%s: dx^T M dx = %.6g, not below the Euclidean step's %.6g", what, em, e1);
        }
        gsl_vector_free(dm);
        gsl_vector_free(d1);
        gsl_vector_free(r);
        gsl_matrix_free(M);
        gsl_matrix_free(J);
    }
}

/* W = diag(M^-1, M^-1) for x = (q, q') and J = [Phi_q 0; Phidot_q Phi_q]
 * (eq. 21), and (d)'s energy row below (eq. 36) */
static void block_metric(void)
{
    fx_rng g = {80843ULL};
    const size_t dims[3][2] = {{1, 2}, {2, 3}, {3, 5}};   /* m, n */
    for (int k = 0; k < 3; k++) {
        const size_t m = dims[k][0], n = dims[k][1];
        gsl_matrix *A = fx_random(&g, m, n), *Ad = fx_random(&g, m, n);
        gsl_matrix *M = fx_spd(&g, n, 0.1, 8.0);
        for (int energy = 0; energy < 2; energy++) {
            const size_t R = 2 * m + (size_t)energy;
            gsl_matrix *J = gsl_matrix_calloc(R, 2 * n);
            for (size_t i = 0; i < m; i++)
                for (size_t j = 0; j < n; j++) {
                    gsl_matrix_set(J, i, j, gsl_matrix_get(A, i, j));
                    gsl_matrix_set(J, m + i, j, gsl_matrix_get(Ad, i, j));
                    gsl_matrix_set(J, m + i, n + j, gsl_matrix_get(A, i, j));
                }
            if (energy)
                for (size_t j = 0; j < 2 * n; j++)
                    gsl_matrix_set(J, 2 * m, j, fx_uniform(&g));
            gsl_vector *r = fx_random_vector(&g, R);
            char what[96];
            snprintf(what, sizeof what, "W = diag(M^-1, M^-1), m = %zu, n = %zu%s", m, n,
                     energy ? ", with an energy row" : "");
            check_step(what, &g, J, r, M);
            gsl_vector_free(r);
            gsl_matrix_free(J);
        }
        gsl_matrix_free(M);
        gsl_matrix_free(Ad);
        gsl_matrix_free(A);
    }
}

/* a square J leaves no choice: dx = -J^-1 r in every metric */
static void square(void)
{
    fx_rng g = {80844ULL};
    for (size_t N = 1; N <= 6; N += 5) {
        gsl_matrix *J = fx_random(&g, N, N), *M = fx_spd(&g, N, 0.2, 5.0);
        gsl_matrix *Mh = fx_spd(&g, N / 2 > 0 ? N / 2 : 1, 0.2, 5.0);
        gsl_vector *r = fx_random_vector(&g, N), *ref = gsl_vector_alloc(N);
        gsl_vector *dx = gsl_vector_alloc(N);
        /* -J^-1 r by LU */
        gsl_matrix *LU = gsl_matrix_alloc(N, N);
        gsl_permutation *p = gsl_permutation_alloc(N);
        int sg;
        gsl_matrix_memcpy(LU, J);
        gsl_linalg_LU_decomp(LU, p, &sg);
        gsl_linalg_LU_solve(LU, p, r, ref);
        gsl_vector_scale(ref, -1.0);
        const gsl_matrix *Ms[3] = {NULL, M, N % 2 == 0 ? Mh : NULL};
        for (int w = 0; w < 3; w++) {
            char what[64];
            snprintf(what, sizeof what, "square %zu x %zu, metric %d", N, N, w);
            if (step_of(what, J, r, Ms[w], dx, NULL))
                CHECK_MSG(fx_vmax_diff(dx, ref) <= 1e-10 * fx_vmax_abs(ref),
                          "%s: dx differs from -J^-1 r by %.3g", what, fx_vmax_diff(dx, ref));
        }
        gsl_permutation_free(p);
        gsl_matrix_free(LU);
        gsl_vector_free(dx);
        gsl_vector_free(ref);
        gsl_vector_free(r);
        gsl_matrix_free(Mh);
        gsl_matrix_free(M);
        gsl_matrix_free(J);
    }
}

/* what the step does not depend on: the scaling of the rows (J, r -> S J,
 * S r: the same constraints) and of M (M -> c M: the same metric up to a
 * factor, which norm2 carries); norm2 = NULL is allowed */
static void invariances(void)
{
    fx_rng g = {80845ULL};
    const size_t R = 3, N = 7;
    gsl_matrix *J = fx_random(&g, R, N), *M = fx_spd(&g, N, 0.1, 10.0);
    gsl_vector *r = fx_random_vector(&g, R);
    gsl_matrix *SJ = gsl_matrix_alloc(R, N), *cM = gsl_matrix_alloc(N, N);
    gsl_vector *Sr = gsl_vector_alloc(R);
    const double S[3] = {1e3, -0.02, 7.0}, c = 250.0;
    gsl_matrix_memcpy(SJ, J);
    gsl_vector_memcpy(Sr, r);
    for (size_t i = 0; i < R; i++) {
        gsl_vector_view row = gsl_matrix_row(SJ, i);
        gsl_vector_scale(&row.vector, S[i]);
        gsl_vector_set(Sr, i, S[i] * gsl_vector_get(r, i));
    }
    gsl_matrix_memcpy(cM, M);
    gsl_matrix_scale(cM, c);
    gsl_vector *d0 = gsl_vector_alloc(N), *d1 = gsl_vector_alloc(N), *d2 = gsl_vector_alloc(N);
    double n0, n2;
    for (int w = 0; w < 2; w++) {
        const gsl_matrix *W = w ? M : NULL;
        const char *name = w ? "W = M^-1" : "W = I";
        if (!step_of(name, J, r, W, d0, &n0) || !step_of(name, SJ, Sr, W, d1, NULL))
            continue;
        CHECK_MSG(fx_vmax_diff(d0, d1) <= 1e-11 * fx_vmax_abs(d0),
                  "%s: the rows scaled by (1e3, -0.02, 7) change dx by %.3g", name,
                  fx_vmax_diff(d0, d1));
        if (w && step_of("W = (250 M)^-1", J, r, cM, d2, &n2)) {
            CHECK_MSG(fx_vmax_diff(d0, d2) <= 1e-11 * fx_vmax_abs(d0),
                      "M -> 250 M changes dx by %.3g (the metric's scale cannot matter)",
                      fx_vmax_diff(d0, d2));
            CHECK_MSG(fabs(n2 - c * n0) <= 1e-11 * c * n0,
                      "M -> 250 M: norm2 = %.12g, expected 250 times %.12g", n2, n0);
        }
    }
    gsl_vector_free(d2);
    gsl_vector_free(d1);
    gsl_vector_free(d0);
    gsl_vector_free(Sr);
    gsl_matrix_free(cM);
    gsl_matrix_free(SJ);
    gsl_vector_free(r);
    gsl_matrix_free(M);
    gsl_matrix_free(J);
}

/* The four-bar R1 at q0 (the guide's Sec. 7): Phi_q = [-sqrt3 -sqrt3/2 0;
 * -1 -3/2 -1], null space v = (1, -2, 2), M(q0) = [11/2 8/3 1/3; 8/3 13/6
 * 7/12; 1/3 7/12 1/3] (J_C = 1/12). The velocity correction q' + dq' lands
 * on alpha v: the Euclidean projection has alpha = v.q' / v.v, the
 * mass-weighted one alpha = v^T M q' / v^T M v, and its change has the
 * least kinetic energy. */
static void fourbar_velocity(void)
{
    const double r3 = sqrt(3.0);
    const double a[6] = {-r3, -r3 / 2, 0.0, -1.0, -1.5, -1.0};
    const double mm[9] = {5.5, 8.0 / 3, 1.0 / 3, 8.0 / 3, 13.0 / 6, 7.0 / 12,
                          1.0 / 3, 7.0 / 12, 1.0 / 3};
    gsl_matrix_const_view A = gsl_matrix_const_view_array(a, 2, 3);
    gsl_matrix_const_view M = gsl_matrix_const_view_array(mm, 3, 3);
    const double v[3] = {1.0, -2.0, 2.0}, qd[3] = {0.7, -0.1, 1.3};
    gsl_vector_const_view qv = gsl_vector_const_view_array(qd, 3);
    gsl_vector *r = gsl_vector_alloc(2), *dx = gsl_vector_alloc(3);
    gsl_blas_dgemv(CblasNoTrans, 1.0, &A.matrix, &qv.vector, 0.0, r);
    double Mq[3] = {0, 0, 0}, Mv[3] = {0, 0, 0};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            Mq[i] += mm[3 * i + j] * qd[j];
            Mv[i] += mm[3 * i + j] * v[j];
        }
    const double aI = (v[0] * qd[0] + v[1] * qd[1] + v[2] * qd[2]) / 9.0;
    const double aM = (v[0] * Mq[0] + v[1] * Mq[1] + v[2] * Mq[2])
                      / (v[0] * Mv[0] + v[1] * Mv[1] + v[2] * Mv[2]);
    double T[2] = {NAN, NAN};
    for (int w = 0; w < 2; w++) {
        const double al = w ? aM : aI;
        const char *name = w ? "the four-bar, W = M^-1" : "the four-bar, W = I";
        double n2;
        if (!step_of(name, &A.matrix, r, w ? &M.matrix : NULL, dx, &n2))
            continue;
        double e = 0.0;
        for (int i = 0; i < 3; i++)
            e = fmax(e, fabs(qd[i] + gsl_vector_get(dx, i) - al * v[i]));
        CHECK_MSG(e <= 1e-14, "%s: q' + dq' = (%.15g, %.15g, %.15g), expected %.15g (1, -2, 2)",
                  name, qd[0] + gsl_vector_get(dx, 0), qd[1] + gsl_vector_get(dx, 1),
                  qd[2] + gsl_vector_get(dx, 2), al);
        T[w] = 0.5 * fx_wnorm2(&M.matrix, dx);
        if (w)
            CHECK_MSG(fabs(n2 - 2 * T[1]) <= 1e-13 * T[1],
                      "%s: norm2 = %.15g, expected twice the kinetic energy of dq', %.15g", name,
                      n2, 2 * T[1]);
    }
    CHECK_MSG(T[1] < T[0], "the four-bar: the kinetic energy of the velocity change is %.6g with "
                           "W = M^-1, %.6g with W = I", T[1], T[0]);
    gsl_vector_free(dx);
    gsl_vector_free(r);
}

/* ------------------------------------------------------------------------ */
/* Refusals                                                                  */

static void check_refused(const char *what, const gsl_matrix *J, const gsl_vector *r,
                          const gsl_matrix *M, size_t N, int expected)
{
    gsl_vector *dx = gsl_vector_alloc(N);
    gsl_vector_set_all(dx, FX_SENTINEL);
    double n2 = FX_SENTINEL;
    const int st = ex08_weighted_step(J, r, M, dx, &n2);
    CHECK_MSG(st == expected, "%s: status %d (%s), expected %d (%s)", what, st, mbd_strerror(st),
              expected, mbd_strerror(expected));
    CHECK_MSG(fx_vector_all_equal(dx, FX_SENTINEL) && n2 == FX_SENTINEL,
              "%s: an output was written on an error", what);
    gsl_vector_free(dx);
}

static void refusals(void)
{
    fx_rng g = {80846ULL};
    const size_t R = 3, N = 6;
    gsl_matrix *J = fx_random(&g, R, N), *M = fx_spd(&g, N, 0.5, 4.0);
    gsl_vector *r = fx_random_vector(&g, R);
    /* dependent rows: a copy, a zero row, a combination */
    gsl_matrix *D = gsl_matrix_alloc(R, N);
    for (int k = 0; k < 3; k++) {
        gsl_matrix_memcpy(D, J);
        for (size_t j = 0; j < N; j++) {
            const double a = gsl_matrix_get(J, 0, j), b = gsl_matrix_get(J, 1, j);
            gsl_matrix_set(D, 2, j, k == 0 ? a : k == 1 ? 0.0 : 0.3 * a - 1.7 * b);
        }
        const char *name[3] = {"row 2 = row 0", "row 2 = 0", "row 2 = 0.3 row 0 - 1.7 row 1"};
        char what[96];
        snprintf(what, sizeof what, "%s, W = I", name[k]);
        check_refused(what, D, r, NULL, N, MBD_ESINGULAR);
        snprintf(what, sizeof what, "%s, W = M^-1", name[k]);
        check_refused(what, D, r, M, N, MBD_ESINGULAR);
    }
    /* a scaled copy of a row, twelve times: round-off leaves some of these
     * Gram matrices a tiny positive Cholesky pivot instead of a failure */
    fx_rng g2 = {80847ULL};
    for (int k = 0; k < 12; k++) {
        gsl_matrix *C = fx_random(&g2, R, N);
        const double s = 2 * fx_uniform(&g2);
        for (size_t j = 0; j < N; j++)
            gsl_matrix_set(C, 2, j, s * gsl_matrix_get(C, 0, j));
        char what[96];
        snprintf(what, sizeof what, "row 2 = %.6g row 0 (case %d), W = I", s, k);
        check_refused(what, C, r, NULL, N, MBD_ESINGULAR);
        snprintf(what, sizeof what, "row 2 = %.6g row 0 (case %d), W = M^-1", s, k);
        check_refused(what, C, r, M, N, MBD_ESINGULAR);
        gsl_matrix_free(C);
    }
    /* nearly dependent (the Gram matrix's condition about 1e8) is fine */
    gsl_matrix_memcpy(D, J);
    for (size_t j = 0; j < N; j++)
        gsl_matrix_set(D, 2, j, gsl_matrix_get(J, 0, j) + 1e-4 * gsl_matrix_get(J, 2, j));
    gsl_vector *dx = gsl_vector_alloc(N);
    if (step_of("row 2 = row 0 + 1e-4 row 2", D, r, NULL, dx, NULL))
        CHECK_MSG(residual(D, dx, r) <= 1e-6, "row 2 = row 0 + 1e-4 row 2: max|J dx + r| = %.3g",
                  residual(D, dx, r));
    /* M not symmetric, not positive definite, not finite */
    gsl_matrix *B = gsl_matrix_alloc(N, N);
    gsl_matrix_memcpy(B, M);
    *gsl_matrix_ptr(B, 1, 4) += 1e-6;
    check_refused("M not symmetric (1e-6)", J, r, B, N, MBD_EINPUT);
    gsl_matrix_memcpy(B, M);
    gsl_matrix_set(B, 2, 2, -1.0);
    check_refused("M indefinite", J, r, B, N, MBD_EINPUT);
    gsl_matrix_set_zero(B);
    check_refused("M = 0", J, r, B, N, MBD_EINPUT);
    gsl_matrix_memcpy(B, M);
    gsl_matrix_set(B, 5, 5, NAN);
    check_refused("M with a NaN", J, r, B, N, MBD_EINPUT);
    /* J and r not finite */
    gsl_matrix_memcpy(D, J);
    gsl_matrix_set(D, 1, 3, INFINITY);
    check_refused("J with an infinity", D, r, NULL, N, MBD_EINPUT);
    gsl_vector *rb = gsl_vector_alloc(R);
    gsl_vector_memcpy(rb, r);
    gsl_vector_set(rb, 2, NAN);
    check_refused("r with a NaN", J, rb, NULL, N, MBD_EINPUT);
    /* sizes */
    gsl_matrix *T = fx_random(&g, 4, 3);
    gsl_vector *r4 = fx_random_vector(&g, 4), *r2 = fx_random_vector(&g, 2);
    check_refused("J 4 x 3 (more rows than columns)", T, r4, NULL, 3, GSL_EBADLEN);
    check_refused("r of size 2 for 3 rows", J, r2, NULL, N, GSL_EBADLEN);
    check_refused("dx of size 5 for 6 columns", J, r, NULL, N - 1, GSL_EBADLEN);
    gsl_matrix *M4 = fx_spd(&g, 4, 0.5, 2.0), *M2 = fx_spd(&g, 2, 0.5, 2.0);
    gsl_matrix *Mr = gsl_matrix_alloc(6, 3);
    gsl_matrix_set_all(Mr, 1.0);
    check_refused("M 4 x 4 for N = 6", J, r, M4, N, GSL_EBADLEN);
    check_refused("M 2 x 2 for N = 6 (three blocks)", J, r, M2, N, GSL_EBADLEN);
    check_refused("M 6 x 3", J, r, Mr, N, GSL_EBADLEN);
    gsl_matrix_free(Mr);
    gsl_matrix_free(M2);
    gsl_matrix_free(M4);
    gsl_vector_free(r2);
    gsl_vector_free(r4);
    gsl_matrix_free(T);
    gsl_vector_free(rb);
    gsl_matrix_free(B);
    gsl_vector_free(dx);
    gsl_matrix_free(D);
    gsl_vector_free(r);
    gsl_matrix_free(M);
    gsl_matrix_free(J);
}

static CU_TestInfo tests[] = {
    {"W = I: J dx = -r, the least |dx|", euclidean},
    {"W = M^-1: the least kinetic energy", mass_weighted},
    {"W = diag(M^-1, M^-1) for (q, q'), with and without an energy row", block_metric},
    {"a square J: -J^-1 r in every metric", square},
    {"scaled rows, a scaled M, norm2 = NULL", invariances},
    {"the four-bar's velocity correction in closed form", fourbar_velocity},
    {"singular J W J^T, bad M, bad values and sizes are refused", refusals},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"ex08.4", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
