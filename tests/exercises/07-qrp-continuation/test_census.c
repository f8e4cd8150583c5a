/* Grades exercise 07.1: the rank census and the tangent basis. */
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>

#include "check.h"
#include "ex07.h"
#include "fixture.h"

/* ------------------------------------------------------------------------ */
/* Helpers                                                                   */

/* the census at tol, first without T, then with a T of the size it named;
 * *T_out (may be NULL) receives the basis (NULL when dof = 0). Returns 0
 * when a call failed. */
static int census_of(const char *what, const gsl_matrix *A, double tol, double diag[],
                     ex07_census *c, gsl_matrix **T_out)
{
    const size_t m = A->size1, n = A->size2, p = m < n ? m : n;
    for (size_t i = 0; i < p; i++)
        diag[i] = NAN;
    c->rank = c->d = c->dof = 9999;
    int st = ex07_rank_census(A, tol, diag, c, NULL);
    CHECK_MSG(st == GSL_SUCCESS, "%s, tol = %g, T = NULL: status %d (%s)", what, tol, st,
              mbd_strerror(st));
    if (st != GSL_SUCCESS)
        return 0;
    if (!(c->rank <= p && c->dof <= n)) {
        CHECK_MSG(0, "%s: rank %zu, dof %zu out of range", what, c->rank, c->dof);
        return 0;
    }
    gsl_matrix *T = NULL;
    if (c->dof > 0) {
        T = gsl_matrix_alloc(n, c->dof);
        gsl_matrix_set_all(T, NAN);
        ex07_census c2 = {9999, 9999, 9999};
        st = ex07_rank_census(A, tol, diag, &c2, T);
        CHECK_MSG(st == GSL_SUCCESS, "%s, tol = %g, T of %zu x %zu: status %d (%s)", what, tol, n,
                  c->dof, st, mbd_strerror(st));
        CHECK_MSG(c2.rank == c->rank && c2.d == c->d && c2.dof == c->dof,
                  "%s: the census differs with and without T", what);
        if (st != GSL_SUCCESS) {
            gsl_matrix_free(T);
            return 0;
        }
    }
    if (T_out != NULL)
        *T_out = T;
    else
        gsl_matrix_free(T);
    return 1;
}

/* the largest row norm of A: |R_00| of A^T P = Q R, whose pivoting takes the
 * column of A^T (the row of A) of largest norm first */
static double max_row_norm(const gsl_matrix *A)
{
    double v = 0.0;
    for (size_t i = 0; i < A->size1; i++) {
        double s = 0.0;
        for (size_t j = 0; j < A->size2; j++)
            s += gsl_matrix_get(A, i, j) * gsl_matrix_get(A, i, j);
        v = fmax(v, sqrt(s));
    }
    return v;
}

/* sqrt(det(A A^T)) by Cholesky (A of full row rank) */
static double gram_root(const gsl_matrix *A)
{
    gsl_matrix *G = fx_mul(A, CblasNoTrans, A, CblasTrans);
    double v = NAN;
    if (gsl_linalg_cholesky_decomp1(G) == GSL_SUCCESS) {
        v = 1.0;
        for (size_t i = 0; i < G->size1; i++)
            v *= gsl_matrix_get(G, i, i);
    }
    gsl_matrix_free(G);
    return v;
}

/* the basis: n x dof, orthonormal, A T = 0 relative to |A| */
static void check_basis(const char *what, const gsl_matrix *A, const gsl_matrix *T)
{
    const double eo = fx_orth_error(T), ea = fx_AT_norm(A, T) / fx_frobenius(A);
    CHECK_MSG(eo <= 1e-12, "%s: |T^T T - I| = %.3g, expected 0", what, eo);
    CHECK_MSG(ea <= 1e-12, "%s: |A T| / |A| = %.3g, expected 0", what, ea);
}

/* the monitor: decreasing, its first entry the largest row norm */
static void check_monitor(const char *what, const gsl_matrix *A, const double diag[], size_t p)
{
    int sorted = 1;
    for (size_t i = 1; i < p; i++)
        if (!(diag[i] <= diag[i - 1]))
            sorted = 0;
    CHECK_MSG(sorted, "%s: the |R_ii| are not in decreasing order (%.6g, %.6g, ...)", what,
              diag[0], p > 1 ? diag[1] : 0.0);
    const double r0 = max_row_norm(A);
    CHECK_MSG(fabs(diag[0] - r0) <= 1e-13 * r0,
              "%s: |R_00| = %.15g, expected the largest row norm of A, %.15g (pivoting of A^T?)",
              what, diag[0], r0);
}

/* ------------------------------------------------------------------------ */
/* Matrices of known rank, every shape                                       */

typedef struct {
    size_t m, n, r;
} shape;

static const shape SHAPES[] = {{3, 7, 3}, {3, 7, 2}, {5, 5, 5}, {5, 5, 3}, {8, 4, 4},
                               {8, 4, 2}, {6, 9, 1}, {1, 5, 1}, {5, 1, 1}, {1, 1, 1},
                               {9, 6, 5}, {4, 10, 4}};
#define NSHAPES (sizeof SHAPES / sizeof SHAPES[0])

/* A = X Y, X (m x r) and Y (r x n) random, the rows of X scaled so that the
 * rows of A have clearly different norms and the largest is not the first */
static gsl_matrix *known_rank(fx_rng *g, const shape *s)
{
    gsl_matrix *X = fx_random(g, s->m, s->r), *Y = fx_random(g, s->r, s->n);
    for (size_t i = 0; i < s->m; i++) {
        gsl_vector_view row = gsl_matrix_row(X, i);
        gsl_vector_scale(&row.vector, 0.5 + 0.37 * (double)((3 * i + 2) % s->m));
    }
    gsl_matrix *A = fx_mul(X, CblasNoTrans, Y, CblasNoTrans);
    gsl_matrix_free(Y);
    gsl_matrix_free(X);
    return A;
}

static void random_known_rank(void)
{
    fx_rng g = {20230707ULL};
    for (size_t k = 0; k < NSHAPES; k++) {
        const shape *s = &SHAPES[k];
        const size_t p = s->m < s->n ? s->m : s->n;
        char what[96];
        snprintf(what, sizeof what, "%zu x %zu of rank %zu", s->m, s->n, s->r);
        gsl_matrix *A = known_rank(&g, s), *T = NULL;
        double diag[16];
        ex07_census c;
        if (census_of(what, A, 1e-10, diag, &c, &T)) {
            CHECK_MSG(c.rank == s->r, "%s: rank %zu, expected %zu", what, c.rank, s->r);
            CHECK_MSG(c.d == p - s->r, "%s: d = %zu, expected min(m, n) - rank = %zu", what, c.d,
                      p - s->r);
            CHECK_MSG(c.dof == s->n - s->r, "%s: dof = %zu, expected n - rank = %zu", what, c.dof,
                      s->n - s->r);
            check_monitor(what, A, diag, p);
            for (size_t i = s->r; i < p; i++)
                CHECK_MSG(diag[i] <= 1e-12 * diag[0], "%s: |R_%zu%zu| = %.3g, expected 0", what,
                          i, i, diag[i]);
            /* at full row rank the product of the |R_ii| is sqrt(det(A A^T)),
             * whatever the pivoting */
            if (s->r == s->m) {
                double prod = 1.0;
                for (size_t i = 0; i < p; i++)
                    prod *= diag[i];
                const double ref = gram_root(A);
                CHECK_MSG(fabs(prod - ref) <= 1e-11 * ref,
                          "%s: prod |R_ii| = %.15g, expected sqrt(det(A A^T)) = %.15g", what, prod,
                          ref);
            }
            if (T != NULL)
                check_basis(what, A, T);
        }
        gsl_matrix_free(T);
        gsl_matrix_free(A);
    }
}

/* A = 0 has rank 0: everything is a motion, T spans all of R^n; a single
 * non-zero row has rank 1 */
static void rank_zero_and_one(void)
{
    const size_t ms[] = {3, 5, 4}, ns[] = {5, 3, 4};
    for (size_t k = 0; k < 3; k++) {
        const size_t m = ms[k], n = ns[k], p = m < n ? m : n;
        gsl_matrix *A = gsl_matrix_calloc(m, n), *T = NULL;
        double diag[8];
        ex07_census c;
        char what[64];
        snprintf(what, sizeof what, "the zero %zu x %zu", m, n);
        if (census_of(what, A, 1e-8, diag, &c, &T)) {
            CHECK_MSG(c.rank == 0 && c.d == p && c.dof == n,
                      "%s: (rank, d, dof) = (%zu, %zu, %zu), expected (0, %zu, %zu)", what, c.rank,
                      c.d, c.dof, p, n);
            CHECK_MSG(fx_all_equal(diag, p, 0.0), "%s: the |R_ii| are not all 0", what);
            if (T != NULL) {
                const double eo = fx_orth_error(T);
                CHECK_MSG(eo <= 1e-14, "%s: |T^T T - I| = %.3g", what, eo);
            }
        }
        gsl_matrix_free(T);
        T = NULL;
        /* one non-zero row, not the first */
        for (size_t j = 0; j < n; j++)
            gsl_matrix_set(A, m - 1, j, 0.3 + 0.1 * (double)j);
        snprintf(what, sizeof what, "%zu x %zu with one non-zero row", m, n);
        if (census_of(what, A, 1e-8, diag, &c, &T)) {
            CHECK_MSG(c.rank == 1 && c.d == p - 1 && c.dof == n - 1,
                      "%s: (rank, d, dof) = (%zu, %zu, %zu), expected (1, %zu, %zu)", what, c.rank,
                      c.d, c.dof, p - 1, n - 1);
            check_monitor(what, A, diag, p);
            if (T != NULL)
                check_basis(what, A, T);
        }
        gsl_matrix_free(T);
        gsl_matrix_free(A);
    }
}

/* The tolerance decides: singular values 1, 1e-3, 1e-6, 1e-9 (and zeros).
 * For any n x k orthonormal T, |A T|_F^2 >= the sum of the k smallest
 * sigma^2 (zeros included): T cannot do better than the dropped singular
 * values; and a basis that follows the rank it reports does not do much worse
 * than the first of them. */
static void tolerance_varied(void)
{
    const double s[4] = {1.0, 1e-3, 1e-6, 1e-9};
    const double tols[] = {3e-2, 3e-5, 3e-8, 1e-11, 0.5};
    const size_t ranks[] = {1, 2, 3, 4, 1};
    const shape shapes[] = {{6, 8, 4}, {9, 5, 4}};
    fx_rng g = {77ULL};
    for (size_t q = 0; q < 2; q++) {
        const size_t m = shapes[q].m, n = shapes[q].n, p = m < n ? m : n;
        gsl_matrix *A = fx_with_singular_values(&g, m, n, 4, s);
        for (size_t k = 0; k < sizeof tols / sizeof tols[0]; k++) {
            char what[96];
            snprintf(what, sizeof what, "%zu x %zu, singular values 1, 1e-3, 1e-6, 1e-9, tol = %g",
                     m, n, tols[k]);
            double diag[16];
            ex07_census c;
            gsl_matrix *T = NULL;
            if (!census_of(what, A, tols[k], diag, &c, &T))
                continue;
            const size_t r = ranks[k];
            CHECK_MSG(c.rank == r && c.d == p - r && c.dof == n - r,
                      "%s: (rank, d, dof) = (%zu, %zu, %zu), expected (%zu, %zu, %zu)", what,
                      c.rank, c.d, c.dof, r, p - r, n - r);
            if (T != NULL && c.rank == r) {
                double lower = 0.0;
                for (size_t i = r; i < 4; i++)
                    lower += s[i] * s[i];
                lower = sqrt(lower);
                const double at = fx_AT_norm(A, T), eo = fx_orth_error(T);
                CHECK_MSG(eo <= 1e-12, "%s: |T^T T - I| = %.3g", what, eo);
                CHECK_MSG(at >= lower * (1 - 1e-6) && at <= 100 * (r < 4 ? s[r] : 1e-15),
                          "%s: |A T|_F = %.3g, expected between %.3g (the dropped singular "
                          "values) and 100 sigma_%zu", what, at, lower, r);
            }
            gsl_matrix_free(T);
        }
        /* the tolerance is relative: the units of A do not change the rank */
        const double scales[2] = {1e4, 1e-4};
        for (size_t k = 0; k < 2; k++) {
            gsl_matrix *B = gsl_matrix_alloc(m, n);
            gsl_matrix_memcpy(B, A);
            gsl_matrix_scale(B, scales[k]);
            for (size_t j = 1; j < 3; j++) {
                char what[96];
                snprintf(what, sizeof what, "%zu x %zu as above times %g, tol = %g", m, n,
                         scales[k], tols[j]);
                double diag[16];
                ex07_census c;
                if (census_of(what, B, tols[j], diag, &c, NULL))
                    CHECK_MSG(c.rank == ranks[j], "%s: rank %zu, expected %zu (the rank of A "
                              "does not depend on its units)", what, c.rank, ranks[j]);
            }
            gsl_matrix_free(B);
        }
        gsl_matrix_free(A);
    }
}

/* ------------------------------------------------------------------------ */
/* The mechanisms of Table 5.1                                               */

/* the 4-bar (m, n) = (8, 9): d = 0 and one degree of freedom on the
 * parallelogram branch, d = 1 and two at the horizontal (theta = 0, pi),
 * where the coupler can also fold about a crank tip */
static void fourbar(void)
{
    gsl_matrix *A = gsl_matrix_alloc(8, 9);
    double v[9];
    /* regular configurations */
    const double ths[] = {M_PI / 2, M_PI / 3, 2.0, -0.7, 3 * M_PI / 2};
    for (size_t k = 0; k < sizeof ths / sizeof ths[0]; k++) {
        char what[64];
        snprintf(what, sizeof what, "4-bar at theta = %.4f", ths[k]);
        fx_fourbar(ths[k], A);
        double diag[8];
        ex07_census c;
        gsl_matrix *T = NULL;
        if (!census_of(what, A, 1e-8, diag, &c, &T))
            continue;
        CHECK_MSG(c.rank == 8 && c.d == 0 && c.dof == 1,
                  "%s: (rank, d, dof) = (%zu, %zu, %zu), expected Table 5.1's d = 0, dof 1", what,
                  c.rank, c.d, c.dof);
        check_monitor(what, A, diag, 8);
        double prod = 1.0;
        for (size_t i = 0; i < 8; i++)
            prod *= diag[i];
        const double ref = gram_root(A);
        CHECK_MSG(fabs(prod - ref) <= 1e-11 * ref && fabs(ref - sqrt(3.5) * fabs(sin(ths[k]))) <= 1e-12,
                  "%s: prod |R_ii| = %.15g, expected sqrt(det(A A^T)) = sqrt(3.5) |sin theta| = %.15g",
                  what, prod, ref);
        if (T != NULL && c.dof == 1) {
            check_basis(what, A, T);
            /* the one motion is the parallelogram's */
            fx_parallelogram(3, ths[k], v);
            double dot = 0.0, vv = 0.0;
            for (size_t i = 0; i < 9; i++) {
                dot += gsl_matrix_get(T, i, 0) * v[i];
                vv += v[i] * v[i];
            }
            CHECK_MSG(fabs(fabs(dot) - sqrt(vv)) <= 1e-12 * sqrt(vv),
                      "%s: T is not along the parallelogram motion (|T . v| / |v| = %.15g)", what,
                      fabs(dot) / sqrt(vv));
        }
        gsl_matrix_free(T);
    }
    /* the horizontal: theta = pi (cranks to the left) and 0 (to the right) */
    const double hs[] = {M_PI, 0.0};
    for (size_t k = 0; k < 2; k++) {
        char what[64];
        snprintf(what, sizeof what, "4-bar horizontal, theta = %g", hs[k]);
        fx_fourbar(hs[k], A);
        double diag[8];
        ex07_census c;
        gsl_matrix *T = NULL;
        if (!census_of(what, A, 1e-8, diag, &c, &T))
            continue;
        CHECK_MSG(c.rank == 7 && c.d == 1 && c.dof == 2,
                  "%s: (rank, d, dof) = (%zu, %zu, %zu), expected (7, 1, 2)", what, c.rank, c.d,
                  c.dof);
        check_monitor(what, A, diag, 8);
        CHECK_MSG(diag[7] <= 1e-14 * diag[0] && diag[6] > 1e-3 * diag[0],
                  "%s: the last |R_ii| = %.3g, %.3g: expected exactly one that vanishes", what,
                  diag[6], diag[7]);
        if (T != NULL && c.dof == 2) {
            check_basis(what, A, T);
            /* the two motions there, in (x', y', theta') per bar: the
             * parallelogram, and a fold. At theta = pi the tip D of crank 2
             * lies on the pivot A: crank 2 stays, crank 1 and the coupler turn
             * together about A = D. At theta = 0 the tip B of crank 1 lies on
             * the pivot C: crank 1 stays, the coupler and crank 2 turn about
             * B = C. Built and checked here, then orthonormalised to compare
             * spans. */
            static const double fold[2][9] = {{0, -0.5, 1, 0, -0.5, 1, 0, 0, 0},
                                              {0, 0, 0, 0, 0.5, 1, 0, 0.5, 1}};
            gsl_matrix *W = gsl_matrix_calloc(9, 2);
            fx_parallelogram(3, hs[k], v);
            for (size_t i = 0; i < 9; i++) {
                gsl_matrix_set(W, i, 0, v[i]);
                gsl_matrix_set(W, i, 1, fold[k][i]);
            }
            CHECK_MSG(fx_AT_norm(A, W) <= 1e-14, "the test's own motions violate A w = 0");
            gsl_vector *tau = gsl_vector_alloc(2);
            gsl_matrix *Qw = gsl_matrix_alloc(9, 9), *Rw = gsl_matrix_alloc(9, 2);
            gsl_linalg_QR_decomp(W, tau);
            gsl_linalg_QR_unpack(W, tau, Qw, Rw);
            gsl_matrix_const_view B = gsl_matrix_const_submatrix(Qw, 0, 0, 9, 2);
            const double dist = fx_span_distance(T, &B.matrix);
            CHECK_MSG(dist <= 1e-12, "%s: T does not span the parallelogram and the fold (%.3g)",
                      what, dist);
            gsl_matrix_free(Rw);
            gsl_matrix_free(Qw);
            gsl_vector_free(tau);
            gsl_matrix_free(W);
        }
        gsl_matrix_free(T);
    }
    /* near the horizontal the tolerance decides: |R_77| ~ |theta - pi| */
    fx_fourbar(M_PI + 1e-5, A);
    double diag[8];
    ex07_census c;
    if (census_of("4-bar at theta = pi + 1e-5, tol = 1e-8", A, 1e-8, diag, &c, NULL))
        CHECK_MSG(c.rank == 8 && c.dof == 1,
                  "4-bar at pi + 1e-5, tol = 1e-8: rank %zu, dof %zu, expected 8, 1", c.rank,
                  c.dof);
    if (census_of("4-bar at theta = pi + 1e-5, tol = 1e-3", A, 1e-3, diag, &c, NULL))
        CHECK_MSG(c.rank == 7 && c.dof == 2,
                  "4-bar at pi + 1e-5, tol = 1e-3 (the singularity flag): rank %zu, dof %zu, "
                  "expected 7, 2", c.rank, c.dof);
    gsl_matrix_free(A);
}

/* the modified 2 4-bar (m = n = 12, d = 1) and the modified 3 4-bar
 * (m = 16 > n = 15, d = 1): redundant, one degree of freedom; d = 2 and two
 * at the horizontal */
static void redundant(void)
{
    struct {
        const char *name;
        size_t m, n, nbars;
        void (*build)(double, gsl_matrix *);
    } mech[] = {{"modified 2 4-bar", 12, 12, 4, fx_mod2}, {"modified 3 4-bar", 16, 15, 5, fx_mod3}};
    for (size_t q = 0; q < 2; q++) {
        const size_t m = mech[q].m, n = mech[q].n, p = m < n ? m : n;
        gsl_matrix *A = gsl_matrix_alloc(m, n);
        const double ths[] = {M_PI / 2, 1.1, M_PI, 0.0};
        for (size_t k = 0; k < 4; k++) {
            const int horizontal = k >= 2;
            char what[80];
            snprintf(what, sizeof what, "%s at theta = %.4f", mech[q].name, ths[k]);
            mech[q].build(ths[k], A);
            double diag[16];
            ex07_census c;
            gsl_matrix *T = NULL;
            if (!census_of(what, A, 1e-8, diag, &c, &T))
                continue;
            const size_t d = horizontal ? 2 : 1, r = p - d;
            CHECK_MSG(c.rank == r && c.d == d && c.dof == n - r,
                      "%s: (rank, d, dof) = (%zu, %zu, %zu), expected (%zu, %zu, %zu)", what,
                      c.rank, c.d, c.dof, r, d, n - r);
            check_monitor(what, A, diag, p);
            if (T != NULL && c.rank == r) {
                check_basis(what, A, T);
                /* the parallelogram motion lies in the span of T */
                double v[15], res = 0.0, vv = 0.0;
                fx_parallelogram(mech[q].nbars, ths[k], v);
                for (size_t i = 0; i < n; i++) {
                    double s = 0.0;
                    for (size_t j = 0; j < T->size2; j++) {
                        double tj = 0.0;
                        for (size_t l = 0; l < n; l++)
                            tj += gsl_matrix_get(T, l, j) * v[l];
                        s += gsl_matrix_get(T, i, j) * tj;
                    }
                    res += (s - v[i]) * (s - v[i]);
                    vv += v[i] * v[i];
                }
                CHECK_MSG(sqrt(res) <= 1e-12 * sqrt(vv),
                          "%s: the parallelogram motion is not in the span of T (%.3g)", what,
                          sqrt(res / vv));
            }
            gsl_matrix_free(T);
        }
        gsl_matrix_free(A);
    }
}

/* ------------------------------------------------------------------------ */
/* Refusals                                                                  */

static int untouched(const double diag[], size_t p, const ex07_census *c, const gsl_matrix *T)
{
    return fx_all_equal(diag, p, FX_SENTINEL) && c->rank == 777 && c->d == 777 && c->dof == 777
           && (T == NULL || fx_matrix_all_equal(T, FX_SENTINEL));
}

static void bad_tolerance_or_entry(void)
{
    gsl_matrix *A = gsl_matrix_alloc(8, 9), *T = gsl_matrix_alloc(9, 1);
    fx_fourbar(M_PI / 2, A);
    const double tols[] = {0.0, -1e-8, 1.0, 2.5, NAN, INFINITY, -INFINITY};
    for (size_t k = 0; k < sizeof tols / sizeof tols[0]; k++) {
        double diag[8];
        ex07_census c = {777, 777, 777};
        for (size_t i = 0; i < 8; i++)
            diag[i] = FX_SENTINEL;
        gsl_matrix_set_all(T, FX_SENTINEL);
        int st = ex07_rank_census(A, tols[k], diag, &c, T);
        CHECK_MSG(st == MBD_EINPUT, "tol = %g: status %d (%s), expected MBD_EINPUT", tols[k], st,
                  mbd_strerror(st));
        CHECK_MSG(untouched(diag, 8, &c, T), "tol = %g: an output was written on an error", tols[k]);
    }
    const double bad[] = {NAN, INFINITY, -INFINITY};
    for (size_t k = 0; k < 3; k++) {
        fx_fourbar(M_PI / 2, A);
        gsl_matrix_set(A, 5, 7, bad[k]);
        double diag[8];
        ex07_census c = {777, 777, 777};
        for (size_t i = 0; i < 8; i++)
            diag[i] = FX_SENTINEL;
        gsl_matrix_set_all(T, FX_SENTINEL);
        int st = ex07_rank_census(A, 1e-8, diag, &c, T);
        CHECK_MSG(st == MBD_EINPUT, "A with an entry %g: status %d (%s), expected MBD_EINPUT",
                  bad[k], st, mbd_strerror(st));
        CHECK_MSG(untouched(diag, 8, &c, T), "A with an entry %g: an output was written", bad[k]);
    }
    gsl_matrix_free(T);
    gsl_matrix_free(A);
}

static void bad_basis_size(void)
{
    /* the 4-bar: dof 1 regular, 2 at the horizontal; a 5 x 3 of rank 3: dof 0 */
    gsl_matrix *A = gsl_matrix_alloc(8, 9);
    const double ths[] = {M_PI / 2, M_PI};
    const size_t sizes[][2][2] = {{{9, 2}, {8, 1}}, {{9, 1}, {9, 3}}};
    for (size_t k = 0; k < 2; k++) {
        fx_fourbar(ths[k], A);
        for (size_t z = 0; z < 2; z++) {
            gsl_matrix *T = gsl_matrix_alloc(sizes[k][z][0], sizes[k][z][1]);
            gsl_matrix_set_all(T, FX_SENTINEL);
            double diag[8];
            ex07_census c = {777, 777, 777};
            for (size_t i = 0; i < 8; i++)
                diag[i] = FX_SENTINEL;
            int st = ex07_rank_census(A, 1e-8, diag, &c, T);
            CHECK_MSG(st == GSL_EBADLEN, "4-bar at %g, T of %zu x %zu: status %d (%s), expected "
                      "GSL_EBADLEN", ths[k], T->size1, T->size2, st, mbd_strerror(st));
            CHECK_MSG(untouched(diag, 8, &c, T), "4-bar at %g, T of %zu x %zu: an output was "
                      "written on an error", ths[k], T->size1, T->size2);
            gsl_matrix_free(T);
        }
    }
    gsl_matrix_free(A);
    /* dof = 0: no basis exists, any T is the wrong size, T = NULL works */
    fx_rng g = {5ULL};
    const shape s = {5, 3, 3};
    gsl_matrix *B = known_rank(&g, &s), *T = gsl_matrix_alloc(3, 1);
    gsl_matrix_set_all(T, FX_SENTINEL);
    double diag[3] = {FX_SENTINEL, FX_SENTINEL, FX_SENTINEL};
    ex07_census c = {777, 777, 777};
    int st = ex07_rank_census(B, 1e-8, diag, &c, T);
    CHECK_MSG(st == GSL_EBADLEN, "5 x 3 of rank 3 (dof 0) with a T of 3 x 1: status %d (%s), "
              "expected GSL_EBADLEN", st, mbd_strerror(st));
    CHECK_MSG(untouched(diag, 3, &c, T), "dof 0 with a T: an output was written on an error");
    st = ex07_rank_census(B, 1e-8, diag, &c, NULL);
    CHECK_STATUS(st, GSL_SUCCESS);
    CHECK_MSG(c.rank == 3 && c.d == 0 && c.dof == 0,
              "5 x 3 of rank 3: (rank, d, dof) = (%zu, %zu, %zu), expected (3, 0, 0)", c.rank, c.d,
              c.dof);
    gsl_matrix_free(T);
    gsl_matrix_free(B);
}

static CU_TestInfo tests[] = {
    {"matrices of known rank, m < n, m = n, m > n", random_known_rank},
    {"rank 0 and rank 1", rank_zero_and_one},
    {"the tolerance decides the rank", tolerance_varied},
    {"the 4-bar: Table 5.1, dof 1, and 2 at the horizontal", fourbar},
    {"the redundant mechanisms: m = n and m > n", redundant},
    {"bad tolerances and non-finite entries are refused", bad_tolerance_or_entry},
    {"a basis of the wrong size is refused", bad_basis_size},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"ex07.1", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
