/* The fixed-pattern square solver (linsolve.h), both kinds (dense: GSL's LU;
 * sparse: KLU), against an independent solve: GSL's LU of the dense matrix
 * the test builds itself from the same positions and values.
 *
 * Random non-symmetric sparse matrices of sizes 1, 2, 10, 200 and 1000 with
 * repeated positions (summed) and explicit zeros in the pattern: small
 * residuals, and agreement with the reference to a tolerance that scales
 * with the condition; new values of the same pattern refactored over several
 * rounds (counted as refactorisations); values that make the kept pivots bad
 * (a zero or a tiny value where a pivot was) still solved right, by a fresh
 * factorisation (counted as one); singular matrices (a zero column, in the
 * pattern or only in the values; two equal rows) and a nearly singular one
 * (rcond ~1e-16) refused with MBD_ESINGULAR, a merely ill-conditioned one
 * (~1e-10) solved; NaN and infinity refused with MBD_ENONFINITE; bad
 * arguments; the reciprocal condition estimates within a factor of 10 of the
 * exact 1/(|A|_1 |A^-1|_1); and a KKT matrix [M G^T; G 0] of the 3D
 * dynamics' shape (7x7 mass blocks of bodies with Euler parameters, singular
 * by themselves; the Euler-parameter rows and spherical joints in G). */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>

#include "check.h"
#include "mbd/error.h"
#include "mbd/linsolve.h"

static const mbd_linsolve_kind kinds[] = {MBD_LINSOLVE_DENSE, MBD_LINSOLVE_SPARSE};

static unsigned seed = 1;
static double rnd(void)   /* uniform in [-0.5, 0.5) */
{
    seed = seed * 1103515245u + 12345u;
    return (double)(seed >> 8) / (1u << 24) - 0.5;
}
static size_t rnd_index(size_t n)
{
    return (size_t)((rnd() + 0.5) * (double)n) % n;
}

/* ------------------------------------------------------------------------ */
/* A matrix as positions and values, in the order the caller gives them     */

typedef struct {
    size_t n, nnz, cap;
    size_t *rows, *cols;
    double *vals;
} triplets;

static void push(triplets *t, size_t i, size_t j, double v)
{
    if (t->nnz == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 64;
        t->rows = realloc(t->rows, t->cap * sizeof *t->rows);
        t->cols = realloc(t->cols, t->cap * sizeof *t->cols);
        t->vals = realloc(t->vals, t->cap * sizeof *t->vals);
    }
    t->rows[t->nnz] = i;
    t->cols[t->nnz] = j;
    t->vals[t->nnz] = v;
    t->nnz++;
}

static void triplets_free(triplets *t)
{
    free(t->rows);
    free(t->cols);
    free(t->vals);
    memset(t, 0, sizeof *t);
}

/* the dense matrix of the positions and values (repeats summed) */
static gsl_matrix *dense_of(const triplets *t)
{
    gsl_matrix *A = gsl_matrix_calloc(t->n, t->n);
    for (size_t k = 0; k < t->nnz; k++)
        *gsl_matrix_ptr(A, t->rows[k], t->cols[k]) += t->vals[k];
    return A;
}

static double norm1(const gsl_matrix *A)
{
    double m = 0.0;
    for (size_t j = 0; j < A->size2; j++) {
        double c = 0.0;
        for (size_t i = 0; i < A->size1; i++)
            c += fabs(gsl_matrix_get(A, i, j));
        m = fmax(m, c);
    }
    return m;
}

static double norm_inf_vec(const double *x, size_t n)
{
    double m = 0.0;
    for (size_t i = 0; i < n; i++)
        m = fmax(m, fabs(x[i]));
    return m;
}

/* The reference: x = A^-1 b by GSL's LU of the dense matrix; with kappa, the
 * exact 1-norm condition number |A|_1 |A^-1|_1 too (the inverse from the
 * same LU). GSL_SUCCESS, or the failing status. */
static int reference_solve(const gsl_matrix *A, const double *b, double *x, double *kappa)
{
    const size_t n = A->size1;
    gsl_matrix *LU = gsl_matrix_alloc(n, n);
    gsl_permutation *p = gsl_permutation_alloc(n);
    gsl_matrix_memcpy(LU, A);
    int signum;
    int st = gsl_linalg_LU_decomp(LU, p, &signum);
    if (st == GSL_SUCCESS) {
        gsl_vector_const_view bv = gsl_vector_const_view_array(b, n);
        gsl_vector_view xv = gsl_vector_view_array(x, n);
        st = gsl_linalg_LU_solve(LU, p, &bv.vector, &xv.vector);
    }
    if (st == GSL_SUCCESS && kappa != NULL) {
        st = gsl_linalg_LU_invx(LU, p);
        *kappa = norm1(A) * norm1(LU);
    }
    gsl_matrix_free(LU);
    gsl_permutation_free(p);
    return st;
}

/* the exact 1-norm condition number of A */
static double exact_kappa(const gsl_matrix *A)
{
    const size_t n = A->size1;
    double *b = calloc(n, sizeof *b), *x = calloc(n, sizeof *x), kappa = NAN;
    b[0] = 1.0;
    if (reference_solve(A, b, x, &kappa) != GSL_SUCCESS)
        kappa = NAN;
    free(b);
    free(x);
    return kappa;
}

/* x solves A x = b: a backward error |b - A x|_inf / (|A|_inf |x|_inf +
 * |b|_inf) of a few n eps, and agreement with the reference xref to
 * 100 eps kappa (relative, in the max norm) */
static void check_solution(const char *what, const gsl_matrix *A, const double *b,
                           const double *x, const double *xref, double kappa)
{
    const size_t n = A->size1;
    gsl_vector *r = gsl_vector_alloc(n);
    memcpy(r->data, b, n * sizeof *b);
    gsl_vector_const_view xv = gsl_vector_const_view_array(x, n);
    gsl_blas_dgemv(CblasNoTrans, -1.0, A, &xv.vector, 1.0, r);
    double anorm_inf = 0.0;
    for (size_t i = 0; i < n; i++) {
        double s = 0.0;
        for (size_t j = 0; j < n; j++)
            s += fabs(gsl_matrix_get(A, i, j));
        anorm_inf = fmax(anorm_inf, s);
    }
    const double berr = norm_inf_vec(r->data, n)
                        / (anorm_inf * norm_inf_vec(x, n) + norm_inf_vec(b, n));
    const double btol = 10.0 * (double)n * DBL_EPSILON;
    CHECK_MSG(berr <= btol, "%s: backward error %.3g above %.3g", what, berr, btol);

    double diff = 0.0;
    for (size_t i = 0; i < n; i++)
        diff = fmax(diff, fabs(x[i] - xref[i]));
    const double ferr = diff / norm_inf_vec(xref, n);
    const double ftol = 100.0 * DBL_EPSILON * kappa;
    CHECK_MSG(ferr <= ftol, "%s: |x - x_ref| / |x_ref| = %.3g above 100 eps kappa = %.3g "
              "(kappa %.3g)", what, ferr, ftol, kappa);
    gsl_vector_free(r);
}

static void random_rhs(double *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        b[i] = rnd();
}

/* ------------------------------------------------------------------------ */
/* Random non-symmetric sparse matrices                                      */

/* a random permutation without fixed points (n >= 2) */
static void derangement(size_t *sigma, size_t n)
{
    for (size_t i = 0; i < n; i++)
        sigma[i] = i;
    /* a random cyclic shift of a random ordering has no fixed point */
    size_t *order = malloc(n * sizeof *order);
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    for (size_t i = n - 1; i > 0; i--) {
        size_t j = rnd_index(i + 1), tmp = order[i];
        order[i] = order[j];
        order[j] = tmp;
    }
    for (size_t i = 0; i < n; i++)
        sigma[order[i]] = order[(i + 1) % n];
    free(order);
}

/* Rows carry a diagonal entry (scaled by diag), an entry at a derangement
 * (scaled by perm) and `extra` random entries (scaled by off); the pattern
 * also has, per row, the diagonal repeated (its value split in two), a
 * position whose two values cancel, and an explicit zero. The positions
 * are shuffled, so the pattern comes in no order. */
static void random_sparse(triplets *t, size_t n, int extra, double diag, double perm, double off)
{
    memset(t, 0, sizeof *t);
    t->n = n;
    size_t *sigma = malloc(n * sizeof *sigma);
    if (n > 1)
        derangement(sigma, n);
    for (size_t i = 0; i < n; i++) {
        const double d = diag * (rnd() >= 0 ? 1.0 : -1.0) * (0.5 + rnd() + 0.5);
        push(t, i, i, 0.25 * d);
        push(t, i, i, 0.75 * d);                 /* repeated: summed */
        if (n > 1)
            push(t, i, sigma[i], perm * (1.0 + rnd()));
        for (int e = 0; e < extra; e++)
            push(t, i, rnd_index(n), off * rnd());
        const size_t j = rnd_index(n);
        const double v = rnd();
        push(t, i, j, v);                        /* two values that cancel */
        push(t, i, j, -v);
        push(t, rnd_index(n), i, 0.0);           /* an explicit zero */
    }
    free(sigma);
    /* shuffle the positions */
    for (size_t k = t->nnz - 1; k > 0; k--) {
        size_t m = rnd_index(k + 1);
        size_t r = t->rows[k], c = t->cols[k];
        double v = t->vals[k];
        t->rows[k] = t->rows[m], t->cols[k] = t->cols[m], t->vals[k] = t->vals[m];
        t->rows[m] = r, t->cols[m] = c, t->vals[m] = v;
    }
}

/* factor (or refactor) and solve with one kind, and check against the
 * reference; returns the solver's rcond */
static double solve_and_check(mbd_linsolve *ls, const triplets *t, int refactor,
                              const char *what)
{
    const size_t n = t->n;
    gsl_matrix *A = dense_of(t);
    double *b = malloc(n * sizeof *b), *x = malloc(n * sizeof *x),
           *xref = malloc(n * sizeof *xref);
    random_rhs(b, n);
    memcpy(x, b, n * sizeof *b);
    double kappa = NAN;
    /* the exact condition where the inverse is cheap; above, the dense
     * kind's estimate (a lower bound, within a small factor) */
    int st = reference_solve(A, b, xref, n <= 250 ? &kappa : NULL);
    CHECK_STATUS(st, GSL_SUCCESS);
    st = refactor ? mbd_linsolve_refactor(ls, t->vals) : mbd_linsolve_factor(ls, t->vals);
    CHECK_MSG(st == GSL_SUCCESS, "%s (%s): factor: %s", what,
              mbd_linsolve_kind_name(mbd_linsolve_kind_get(ls)), mbd_strerror(st));
    const double rcond = mbd_linsolve_rcond(ls);
    if (st == GSL_SUCCESS) {
        if (isnan(kappa))
            kappa = 1.0 / rcond;
        CHECK_STATUS(mbd_linsolve_solve(ls, x), GSL_SUCCESS);
        char label[160];
        snprintf(label, sizeof label, "%s (%s)", what,
                 mbd_linsolve_kind_name(mbd_linsolve_kind_get(ls)));
        check_solution(label, A, b, x, xref, kappa);
    }
    gsl_matrix_free(A);
    free(b);
    free(x);
    free(xref);
    return rcond;
}

/* ------------------------------------------------------------------------ */
/* The tests                                                                 */

static void random_sizes(void)
{
    const size_t sizes[] = {1, 2, 10, 200, 1000};
    seed = 11;
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        const size_t n = sizes[s];
        triplets t;
        random_sparse(&t, n, 3, 1.0, 1.0, 1.0);
        for (size_t k = 0; k < 2; k++) {
            mbd_linsolve *ls = mbd_linsolve_alloc(kinds[k], n, t.nnz, t.rows, t.cols);
            CHECK_MSG(ls != NULL, "n = %zu: alloc", n);
            if (ls == NULL)
                continue;
            CHECK_MSG(mbd_linsolve_kind_get(ls) == kinds[k], "kind");
            CHECK_MSG(mbd_linsolve_size(ls) == n && mbd_linsolve_nnz(ls) == t.nnz,
                      "size and nnz");
            char what[64];
            snprintf(what, sizeof what, "random n = %zu", n);
            solve_and_check(ls, &t, 0, what);
            CHECK_MSG(mbd_linsolve_factorisations(ls) == 1
                          && mbd_linsolve_refactorisations(ls) == 0,
                      "%s: counted %zu fresh, %zu reused", what,
                      mbd_linsolve_factorisations(ls), mbd_linsolve_refactorisations(ls));
            mbd_linsolve_free(ls);
        }
        triplets_free(&t);
    }
}

/* the same pattern with new values, several rounds: refactorisations with
 * the kept pivots, right answers */
static void refactor_rounds(void)
{
    const size_t sizes[] = {10, 200, 1000};
    seed = 23;
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        const size_t n = sizes[s];
        triplets t;
        random_sparse(&t, n, 3, 1.0, 1.0, 1.0);
        double *v0 = malloc(t.nnz * sizeof *v0);
        memcpy(v0, t.vals, t.nnz * sizeof *v0);
        for (size_t k = 0; k < 2; k++) {
            if (n == 1000 && kinds[k] == MBD_LINSOLVE_DENSE)
                continue;   /* each dense factorisation of n = 1000 takes long */
            memcpy(t.vals, v0, t.nnz * sizeof *v0);
            mbd_linsolve *ls = mbd_linsolve_alloc(kinds[k], n, t.nnz, t.rows, t.cols);
            CHECK_MSG(ls != NULL, "alloc");
            if (ls == NULL)
                continue;
            /* a refactorisation before any factorisation is a factorisation */
            char what[64];
            snprintf(what, sizeof what, "n = %zu, first", n);
            solve_and_check(ls, &t, 1, what);
            const int rounds = 4;
            for (int r = 1; r <= rounds; r++) {
                for (size_t m = 0; m < t.nnz; m++)
                    t.vals[m] = v0[m] * (1.0 + 0.3 * rnd());
                snprintf(what, sizeof what, "n = %zu, round %d", n, r);
                solve_and_check(ls, &t, 1, what);
            }
            CHECK_MSG(mbd_linsolve_factorisations(ls) == 1
                          && mbd_linsolve_refactorisations(ls) == (size_t)rounds,
                      "n = %zu (%s): %zu fresh and %zu reused, not 1 and %d", n,
                      mbd_linsolve_kind_name(kinds[k]), mbd_linsolve_factorisations(ls),
                      mbd_linsolve_refactorisations(ls), rounds);
            /* and a fresh one on request */
            solve_and_check(ls, &t, 0, "fresh after rounds");
            CHECK_MSG(mbd_linsolve_factorisations(ls) == 2, "a fresh factorisation counted");
            mbd_linsolve_free(ls);
        }
        free(v0);
        triplets_free(&t);
    }
}

/* [[d,1,1],[1,d,1],[1,1,d]]: with d = 4 the pivots are on the diagonal; with
 * d = 0 or tiny the matrix is as well conditioned, but those pivots are
 * zero or tiny */
static void fill_3x3(triplets *t, double d)
{
    t->nnz = 0;
    t->n = 3;
    for (size_t i = 0; i < 3; i++)
        for (size_t j = 0; j < 3; j++)
            push(t, i, j, i == j ? d : 1.0);
}

static void refactor_fallback(void)
{
    const double bad[] = {0.0, 1e-13};
    for (size_t k = 0; k < 2; k++)
        for (size_t b = 0; b < 2; b++) {
            triplets t = {0};
            fill_3x3(&t, 4.0);
            mbd_linsolve *ls = mbd_linsolve_alloc(kinds[k], 3, t.nnz, t.rows, t.cols);
            CHECK_MSG(ls != NULL, "alloc");
            if (ls == NULL)
                continue;
            solve_and_check(ls, &t, 0, "3x3, d = 4");
            solve_and_check(ls, &t, 1, "3x3, d = 4 again");
            fill_3x3(&t, bad[b]);
            char what[64];
            snprintf(what, sizeof what, "3x3, d = %g after d = 4", bad[b]);
            solve_and_check(ls, &t, 1, what);
            if (kinds[k] == MBD_LINSOLVE_SPARSE)
                CHECK_MSG(mbd_linsolve_factorisations(ls) == 2
                              && mbd_linsolve_refactorisations(ls) == 1,
                          "%s: %zu fresh and %zu reused, not 2 and 1 (the fallback is fresh)",
                          what, mbd_linsolve_factorisations(ls),
                          mbd_linsolve_refactorisations(ls));
            /* the new pivots are kept for the next values */
            fill_3x3(&t, 2.0 * bad[b]);
            solve_and_check(ls, &t, 1, "3x3, then reused");
            if (kinds[k] == MBD_LINSOLVE_SPARSE)
                CHECK_MSG(mbd_linsolve_refactorisations(ls) == 2, "the new pivots reused");
            mbd_linsolve_free(ls);
            triplets_free(&t);
        }

    /* n = 200: diagonally dominant first (diagonal pivots), then dominated
     * by a permutation with a zero or tiny diagonal */
    for (size_t b = 0; b < 2; b++) {
        seed = 31;
        triplets t;
        random_sparse(&t, 200, 3, 10.0, 0.1, 0.1);
        mbd_linsolve *ls = mbd_linsolve_alloc(MBD_LINSOLVE_SPARSE, 200, t.nnz, t.rows, t.cols);
        CHECK_MSG(ls != NULL, "alloc");
        if (ls == NULL) {
            triplets_free(&t);
            continue;
        }
        solve_and_check(ls, &t, 0, "n = 200, diagonally dominant");
        seed = 31;
        triplets u;
        random_sparse(&u, 200, 3, bad[b], 10.0, 0.1);   /* the same positions */
        CHECK_MSG(memcmp(u.rows, t.rows, t.nnz * sizeof *t.rows) == 0
                      && memcmp(u.cols, t.cols, t.nnz * sizeof *t.cols) == 0,
                  "the same pattern");
        char what[64];
        snprintf(what, sizeof what, "n = 200, diagonal %g, permutation-dominated", bad[b]);
        solve_and_check(ls, &u, 1, what);
        CHECK_MSG(mbd_linsolve_factorisations(ls) == 2 && mbd_linsolve_refactorisations(ls) == 0,
                  "%s: %zu fresh and %zu reused, not 2 and 0", what,
                  mbd_linsolve_factorisations(ls), mbd_linsolve_refactorisations(ls));
        mbd_linsolve_free(ls);
        triplets_free(&t);
        triplets_free(&u);
    }
}

/* factor and expect a status; then a solve is refused */
static void expect_factor(const triplets *t, int refactor, int expected, const char *what)
{
    for (size_t k = 0; k < 2; k++) {
        mbd_linsolve *ls = mbd_linsolve_alloc(kinds[k], t->n, t->nnz, t->rows, t->cols);
        CHECK_MSG(ls != NULL, "%s: alloc", what);
        if (ls == NULL)
            continue;
        if (refactor) {
            /* first a good factorisation (the identity), then the values */
            double *ok = calloc(t->nnz, sizeof *ok);
            gsl_matrix *seen = gsl_matrix_calloc(t->n, t->n);
            for (size_t m = 0; m < t->nnz; m++)
                if (t->rows[m] == t->cols[m] && gsl_matrix_get(seen, t->rows[m], t->rows[m]) == 0) {
                    ok[m] = 1.0;
                    gsl_matrix_set(seen, t->rows[m], t->rows[m], 1.0);
                }
            CHECK_STATUS(mbd_linsolve_factor(ls, ok), GSL_SUCCESS);
            free(ok);
            gsl_matrix_free(seen);
        }
        const int st = refactor ? mbd_linsolve_refactor(ls, t->vals)
                                : mbd_linsolve_factor(ls, t->vals);
        CHECK_MSG(st == expected, "%s (%s): %s, not %s (rcond %.3g)", what,
                  mbd_linsolve_kind_name(kinds[k]), mbd_strerror(st), mbd_strerror(expected),
                  mbd_linsolve_rcond(ls));
        if (expected == MBD_ESINGULAR)
            CHECK_MSG(mbd_linsolve_rcond(ls) < MBD_LINSOLVE_RCOND_MIN, "%s (%s): rcond %.3g",
                      what, mbd_linsolve_kind_name(kinds[k]), mbd_linsolve_rcond(ls));
        double *b = calloc(t->n, sizeof *b);
        CHECK_STATUS(mbd_linsolve_solve(ls, b), GSL_EINVAL);
        free(b);
        mbd_linsolve_free(ls);
    }
}

/* a dense-pattern n x n random matrix */
static void random_full(triplets *t, size_t n)
{
    memset(t, 0, sizeof *t);
    t->n = n;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            push(t, i, j, rnd() + (i == j ? 2.0 : 0.0));
}

static void singular(void)
{
    seed = 41;
    triplets t;
    /* a zero column in the values (its positions are in the pattern) */
    random_sparse(&t, 10, 3, 1.0, 1.0, 1.0);
    for (size_t m = 0; m < t.nnz; m++)
        if (t.cols[m] == 4)
            t.vals[m] = 0.0;
    expect_factor(&t, 0, MBD_ESINGULAR, "a zero column");
    expect_factor(&t, 1, MBD_ESINGULAR, "a zero column, refactored");
    triplets_free(&t);

    /* a zero column in the pattern (structurally singular) */
    random_sparse(&t, 10, 3, 1.0, 1.0, 1.0);
    for (size_t m = 0; m < t.nnz; m++)
        if (t.cols[m] == 4)
            t.cols[m] = 5;
    expect_factor(&t, 0, MBD_ESINGULAR, "an empty column");
    triplets_free(&t);

    /* two equal rows */
    random_full(&t, 10);
    for (size_t m = 0; m < t.nnz; m++)
        if (t.rows[m] == 7)
            t.vals[m] = t.vals[m - 7 * 10 + 2 * 10];   /* row 7 := row 2 */
    expect_factor(&t, 0, MBD_ESINGULAR, "two equal rows");
    expect_factor(&t, 1, MBD_ESINGULAR, "two equal rows, refactored");
    triplets_free(&t);

    /* all zero, n = 1 */
    t = (triplets){0};
    t.n = 1;
    push(&t, 0, 0, 0.0);
    expect_factor(&t, 0, MBD_ESINGULAR, "[0]");
    triplets_free(&t);
}

/* row 9 := row 8 + delta (random): rcond about delta */
static void near_singular_matrix(triplets *t, double delta)
{
    seed = 43;
    random_full(t, 10);
    for (size_t j = 0; j < 10; j++)
        t->vals[9 * 10 + j] = t->vals[8 * 10 + j] + delta * rnd();
}

static void nearly_singular(void)
{
    triplets t;
    near_singular_matrix(&t, 1e-16);
    gsl_matrix *A = dense_of(&t);
    const double k = exact_kappa(A);
    CHECK_MSG(!(1.0 / k > 1e-15), "the test's matrix: rcond %.3g, not about 1e-16", 1.0 / k);
    gsl_matrix_free(A);
    expect_factor(&t, 0, MBD_ESINGULAR, "rcond ~1e-16");
    expect_factor(&t, 1, MBD_ESINGULAR, "rcond ~1e-16, refactored");
    triplets_free(&t);

    /* ill-conditioned, but above the limit: solved, rcond about right */
    near_singular_matrix(&t, 1e-9);
    A = dense_of(&t);
    const double exact = 1.0 / exact_kappa(A);
    CHECK_IN(exact, 1e-12, 1e-9);
    gsl_matrix_free(A);
    for (size_t kk = 0; kk < 2; kk++) {
        mbd_linsolve *ls = mbd_linsolve_alloc(kinds[kk], 10, t.nnz, t.rows, t.cols);
        const double rc = solve_and_check(ls, &t, 0, "rcond ~1e-10");
        CHECK_MSG(rc >= exact / 10 && rc <= exact * 10, "rcond ~1e-10 (%s): %.3g, exact %.3g",
                  mbd_linsolve_kind_name(kinds[kk]), rc, exact);
        mbd_linsolve_free(ls);
    }
    triplets_free(&t);
}

static void nonfinite(void)
{
    seed = 47;
    triplets t;
    random_sparse(&t, 10, 3, 1.0, 1.0, 1.0);
    double *v = malloc(t.nnz * sizeof *v);
    const double bad[] = {NAN, INFINITY, -INFINITY};
    for (size_t k = 0; k < 2; k++) {
        mbd_linsolve *ls = mbd_linsolve_alloc(kinds[k], 10, t.nnz, t.rows, t.cols);
        CHECK_MSG(ls != NULL, "alloc");
        if (ls == NULL)
            continue;
        double b[10] = {0};
        for (size_t i = 0; i < 3; i++) {
            memcpy(v, t.vals, t.nnz * sizeof *v);
            v[5] = bad[i];
            CHECK_STATUS(mbd_linsolve_factor(ls, v), MBD_ENONFINITE);
            CHECK_STATUS(mbd_linsolve_solve(ls, b), GSL_EINVAL);
            solve_and_check(ls, &t, 1, "good values after non-finite ones");
            CHECK_STATUS(mbd_linsolve_refactor(ls, v), MBD_ENONFINITE);
            CHECK_STATUS(mbd_linsolve_solve(ls, b), GSL_EINVAL);
        }
        /* two huge finite values that overflow when summed: both kinds
         * check the sums */
        {
            memcpy(v, t.vals, t.nnz * sizeof *v);
            for (size_t m = 0; m < t.nnz; m++)
                if (t.rows[m] == 3 && t.cols[m] == 3)
                    v[m] = DBL_MAX;
            CHECK_STATUS(mbd_linsolve_factor(ls, v), MBD_ENONFINITE);
            solve_and_check(ls, &t, 0, "good values again");
        }
        mbd_linsolve_free(ls);
    }
    free(v);
    triplets_free(&t);
}

static void bad_arguments(void)
{
    const size_t r[] = {0, 1, 1}, c[] = {0, 1, 0}, out[] = {0, 2, 1};
    for (size_t k = 0; k < 2; k++) {
        CHECK_MSG(mbd_linsolve_alloc(kinds[k], 0, 3, r, c) == NULL, "n = 0");
        CHECK_MSG(mbd_linsolve_alloc(kinds[k], 2, 0, r, c) == NULL, "nnz = 0");
        CHECK_MSG(mbd_linsolve_alloc(kinds[k], 2, 3, out, c) == NULL, "a row out of range");
        CHECK_MSG(mbd_linsolve_alloc(kinds[k], 2, 3, r, out) == NULL, "a column out of range");
        CHECK_MSG(mbd_linsolve_alloc(kinds[k], 2, 3, NULL, c) == NULL, "no rows");
        CHECK_MSG(mbd_linsolve_alloc(kinds[k], 2, 3, r, NULL) == NULL, "no columns");
        mbd_linsolve *ls = mbd_linsolve_alloc(kinds[k], 2, 3, r, c);
        CHECK_MSG(ls != NULL, "a good pattern");
        if (ls == NULL)
            continue;
        double b[2] = {1, 2};
        const double v[3] = {2, 3, 1};
        CHECK_STATUS(mbd_linsolve_solve(ls, b), GSL_EINVAL);   /* before a factorisation */
        CHECK_MSG(isnan(mbd_linsolve_rcond(ls)), "no rcond before a factorisation");
        CHECK_STATUS(mbd_linsolve_factor(ls, NULL), GSL_EINVAL);
        CHECK_STATUS(mbd_linsolve_refactor(ls, NULL), GSL_EINVAL);
        CHECK_STATUS(mbd_linsolve_factor(NULL, v), GSL_EINVAL);
        CHECK_STATUS(mbd_linsolve_refactor(NULL, v), GSL_EINVAL);
        CHECK_STATUS(mbd_linsolve_solve(NULL, b), GSL_EINVAL);
        CHECK_STATUS(mbd_linsolve_factor(ls, v), GSL_SUCCESS);
        CHECK_STATUS(mbd_linsolve_solve(ls, NULL), GSL_EINVAL);
        /* [2 0; 1 3] x = [1; 2]: x = [0.5; 0.5] */
        CHECK_STATUS(mbd_linsolve_solve(ls, b), GSL_SUCCESS);
        CHECK_CLOSE(b[0], 0.5, 1e-15);
        CHECK_CLOSE(b[1], 0.5, 1e-15);
        mbd_linsolve_free(ls);
    }
    CHECK_MSG(mbd_linsolve_alloc((mbd_linsolve_kind)7, 2, 3, r, c) == NULL, "an unknown kind");
    mbd_linsolve_free(NULL);

    mbd_linsolve_kind kind = MBD_LINSOLVE_DENSE;
    CHECK_STATUS(mbd_linsolve_kind_of("sparse", &kind), GSL_SUCCESS);
    CHECK_MSG(kind == MBD_LINSOLVE_SPARSE, "sparse");
    CHECK_STATUS(mbd_linsolve_kind_of("dense", &kind), GSL_SUCCESS);
    CHECK_MSG(kind == MBD_LINSOLVE_DENSE, "dense");
    CHECK_STATUS(mbd_linsolve_kind_of("klu", &kind), GSL_EINVAL);
    CHECK_STATUS(mbd_linsolve_kind_of(NULL, &kind), GSL_EINVAL);
    CHECK_MSG(strcmp(mbd_linsolve_kind_name(MBD_LINSOLVE_SPARSE), "sparse") == 0
                  && strcmp(mbd_linsolve_kind_name(MBD_LINSOLVE_DENSE), "dense") == 0,
              "kind names");
}

/* rcond of both kinds against the exact 1/(|A|_1 |A^-1|_1), on matrices
 * with rows and columns scaled over several decades */
static void rcond_vs_exact(void)
{
    const size_t sizes[] = {4, 10, 50, 120};
    seed = 53;
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
        for (int scaled = 0; scaled < 2; scaled++) {
            const size_t n = sizes[s];
            triplets t;
            random_sparse(&t, n, 4, 1.0, 1.0, 1.0);
            if (scaled)
                for (size_t m = 0; m < t.nnz; m++)
                    t.vals[m] *= pow(10.0, (double)(t.rows[m] % 5) - (double)(t.cols[m] % 3));
            gsl_matrix *A = dense_of(&t);
            const double exact = 1.0 / exact_kappa(A);
            gsl_matrix_free(A);
            for (size_t k = 0; k < 2; k++) {
                mbd_linsolve *ls = mbd_linsolve_alloc(kinds[k], n, t.nnz, t.rows, t.cols);
                char what[64];
                snprintf(what, sizeof what, "rcond, n = %zu%s", n, scaled ? ", scaled" : "");
                const double rc = solve_and_check(ls, &t, 0, what);
                CHECK_MSG(rc >= exact / 10 && rc <= exact * 10,
                          "%s (%s): %.3g, exact %.3g (ratio %.3g)", what,
                          mbd_linsolve_kind_name(kinds[k]), rc, exact, rc / exact);
                mbd_linsolve_free(ls);
            }
            triplets_free(&t);
        }
}

/* ------------------------------------------------------------------------ */
/* A KKT matrix of the 3D dynamics' shape                                   */

/* nb bodies with coordinates (r, p) (7 each, p unit Euler parameters) and
 * mass blocks diag(m I3, 4 G(p)^T J G(p)) (the 4x4 block is singular: p is
 * its null vector); constraints: the Euler-parameter rows p^T (on the p
 * columns), a spherical joint of body 0 to the ground (3 rows on body 0) and
 * one between each body and the next (3 rows on 14 columns: I3 and a dense
 * 3x4 block for each body). The matrix [M G^T; G 0], with G and G^T given
 * as separate positions, and M's diagonal given twice (mass and a second
 * term, as a BDF iteration matrix adds one). */
static void kkt(triplets *t, size_t nb)
{
    const size_t nq = 7 * nb, nc = nb + 3 * nb;
    memset(t, 0, sizeof *t);
    t->n = nq + nc;
    double (*p)[4] = malloc(nb * sizeof *p);
    for (size_t b = 0; b < nb; b++) {
        double norm = 0.0;
        for (int i = 0; i < 4; i++) {
            p[b][i] = rnd() + (i == 0 ? 0.7 : 0.0);
            norm += p[b][i] * p[b][i];
        }
        for (int i = 0; i < 4; i++)
            p[b][i] /= sqrt(norm);
        const double m = 1.0 + rnd(), J[3] = {0.1 + 0.1 * rnd(), 0.2 + 0.1 * rnd(), 0.3};
        const size_t o = 7 * b;
        for (size_t i = 0; i < 3; i++) {
            push(t, o + i, o + i, 0.9 * m);
            push(t, o + i, o + i, 0.1 * m);
        }
        /* G(p) = [-e, -skew(e) + e0 I] */
        const double e0 = p[b][0], e1 = p[b][1], e2 = p[b][2], e3 = p[b][3];
        const double G[3][4] = {{-e1, e0, e3, -e2}, {-e2, -e3, e0, e1}, {-e3, e2, -e1, e0}};
        for (size_t i = 0; i < 4; i++)
            for (size_t j = 0; j < 4; j++) {
                double v = 0.0;
                for (size_t l = 0; l < 3; l++)
                    v += 4.0 * G[l][i] * J[l] * G[l][j];
                push(t, o + 3 + i, o + 3 + j, v);
            }
        /* the Euler-parameter row, and its transpose */
        for (size_t i = 0; i < 4; i++) {
            push(t, nq + b, o + 3 + i, p[b][i]);
            push(t, o + 3 + i, nq + b, p[b][i]);
        }
    }
    /* spherical joints: rows nq + nb + 3 b .. +2 join body b - 1 (the
     * ground for b = 0) and body b */
    for (size_t b = 0; b < nb; b++) {
        const size_t row = nq + nb + 3 * b;
        for (size_t side = 0; side < 2; side++) {
            if (side == 0 && b == 0)
                continue;
            const size_t body = side == 0 ? b - 1 : b, o = 7 * body;
            const double sign = side == 0 ? 1.0 : -1.0;
            for (size_t i = 0; i < 3; i++) {
                push(t, row + i, o + i, sign);
                push(t, o + i, row + i, sign);
                for (size_t j = 0; j < 4; j++) {
                    const double v = 0.5 * rnd();
                    push(t, row + i, o + 3 + j, v);
                    push(t, o + 3 + j, row + i, v);
                }
            }
        }
    }
    free(p);
}

static void kkt_both_kinds(void)
{
    seed = 59;
    triplets t;
    kkt(&t, 12);
    gsl_matrix *A = dense_of(&t);
    const double exact = 1.0 / exact_kappa(A);
    gsl_matrix_free(A);
    for (size_t k = 0; k < 2; k++) {
        mbd_linsolve *ls = mbd_linsolve_alloc(kinds[k], t.n, t.nnz, t.rows, t.cols);
        CHECK_MSG(ls != NULL, "alloc");
        if (ls == NULL)
            continue;
        const double rc = solve_and_check(ls, &t, 0, "KKT, 12 bodies");
        CHECK_MSG(rc >= exact / 10 && rc <= exact * 10, "KKT (%s): rcond %.3g, exact %.3g",
                  mbd_linsolve_kind_name(kinds[k]), rc, exact);
        /* the bodies move a little: the same pattern, new values */
        for (int r = 0; r < 3; r++) {
            seed = 61 + (unsigned)r;
            triplets u;
            kkt(&u, 12);
            for (size_t m = 0; m < t.nnz; m++)
                u.vals[m] = t.vals[m] + 0.05 * u.vals[m];
            solve_and_check(ls, &u, 1, "KKT, 12 bodies, moved");
            triplets_free(&u);
        }
        CHECK_MSG(mbd_linsolve_factorisations(ls) == 1 && mbd_linsolve_refactorisations(ls) == 3,
                  "KKT (%s): %zu fresh, %zu reused", mbd_linsolve_kind_name(kinds[k]),
                  mbd_linsolve_factorisations(ls), mbd_linsolve_refactorisations(ls));
        mbd_linsolve_free(ls);
    }
    triplets_free(&t);
}

static CU_TestInfo tests[] = {
    {"random_sizes", random_sizes},
    {"refactor_rounds", refactor_rounds},
    {"refactor_fallback", refactor_fallback},
    {"singular", singular},
    {"nearly_singular", nearly_singular},
    {"nonfinite", nonfinite},
    {"bad_arguments", bad_arguments},
    {"rcond_vs_exact", rcond_vs_exact},
    {"kkt_both_kinds", kkt_both_kinds},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"linsolve", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
