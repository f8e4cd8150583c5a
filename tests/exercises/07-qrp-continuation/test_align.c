/* Grades exercise 07.2: the traditional and the continued basis. */
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>

#include "check.h"
#include "ex07.h"
#include "fixture.h"

/* ------------------------------------------------------------------------ */
/* Helpers                                                                   */

/* |Tref^T T - I|_F, the document's cost (eqs. A.4-A.7) */
static double cost(const gsl_matrix *Tref, const gsl_matrix *T)
{
    gsl_matrix *C = fx_mul(Tref, CblasTrans, T, CblasNoTrans);
    for (size_t i = 0; i < C->size1; i++)
        *gsl_matrix_ptr(C, i, i) -= 1.0;
    const double v = fx_frobenius(C);
    gsl_matrix_free(C);
    return v;
}

/* the k x k plane rotation by a in the plane (i, j) */
static gsl_matrix *plane_rotation(size_t k, size_t i, size_t j, double a)
{
    gsl_matrix *G = gsl_matrix_alloc(k, k);
    gsl_matrix_set_identity(G);
    gsl_matrix_set(G, i, i, cos(a));
    gsl_matrix_set(G, j, j, cos(a));
    gsl_matrix_set(G, i, j, -sin(a));
    gsl_matrix_set(G, j, i, sin(a));
    return G;
}

/* ex07_align on a copy of T, with a sigma_min; returns the copy (NULL when
 * the call failed) */
static gsl_matrix *aligned(const char *what, const gsl_matrix *Tref, const gsl_matrix *T,
                           double *smin)
{
    gsl_matrix *X = gsl_matrix_alloc(T->size1, T->size2);
    gsl_matrix_memcpy(X, T);
    *smin = NAN;
    int st = ex07_align(Tref, X, smin);
    CHECK_MSG(st == GSL_SUCCESS, "%s: status %d (%s)", what, st, mbd_strerror(st));
    if (st != GSL_SUCCESS) {
        gsl_matrix_free(X);
        return NULL;
    }
    return X;
}

/* ------------------------------------------------------------------------ */
/* The alignment                                                             */

/* T = Tref W for an orthogonal W (rotations, reflections, column swaps): the
 * alignment undoes W exactly, and the spans are the same (sigma_min = 1) */
static void turned_basis_comes_back(void)
{
    fx_rng g = {1001ULL};
    const size_t ks[] = {1, 2, 3, 6};
    const size_t n = 6;
    for (size_t q = 0; q < 4; q++) {
        const size_t k = ks[q];
        gsl_matrix *Tref = fx_orthonormal(&g, n, k);
        for (int kind = 0; kind < 4; kind++) {
            gsl_matrix *W;
            const char *name;
            if (kind == 0) {
                W = fx_orthonormal(&g, k, k);   /* a random orthogonal factor */
                name = "a random orthogonal W";
            } else if (kind == 1) {
                W = fx_orthonormal(&g, k, k);   /* with a reflection */
                gsl_vector_view c = gsl_matrix_column(W, 0);
                gsl_vector_scale(&c.vector, -1.0);
                name = "a random W with a reflection";
            } else if (kind == 2) {
                W = k > 1 ? plane_rotation(k, 0, k - 1, 2.9) : gsl_matrix_alloc(1, 1);
                if (k == 1)
                    gsl_matrix_set(W, 0, 0, -1.0);
                name = "a rotation by 166 degrees (k = 1: a sign flip)";
            } else {
                W = gsl_matrix_alloc(k, k);   /* the columns in reverse order */
                gsl_matrix_set_zero(W);
                for (size_t i = 0; i < k; i++)
                    gsl_matrix_set(W, i, k - 1 - i, 1.0);
                name = "the columns reversed";
            }
            gsl_matrix *T = fx_mul(Tref, CblasNoTrans, W, CblasNoTrans);
            char what[96];
            snprintf(what, sizeof what, "n = %zu, k = %zu, T = Tref W, %s", n, k, name);
            double smin;
            gsl_matrix *X = aligned(what, Tref, T, &smin);
            if (X != NULL) {
                const double e = fx_max_diff(X, Tref);
                CHECK_MSG(e <= 1e-12, "%s: the aligned T differs from Tref by %.3g", what, e);
                CHECK_MSG(fabs(smin - 1.0) <= 1e-12, "%s: sigma_min = %.15g, expected 1", what,
                          smin);
            }
            gsl_matrix_free(X);
            gsl_matrix_free(T);
            gsl_matrix_free(W);
        }
        gsl_matrix_free(Tref);
    }
}

/* Spans that differ by known principal angles a_i: Tref = Q0 [e_0 .. e_k-1],
 * the closest basis of the other span is Tc = Q0 [cos a_i e_i + sin a_i
 * e_k+i], and T = Tc W for any orthogonal W must come back to Tc, with
 * sigma_min = cos(max a_i) and Tref^T Tc = diag(cos a_i) */
static void principal_angles(void)
{
    fx_rng g = {2002ULL};
    const size_t n = 7, k = 3;
    const double a[3] = {0.1, 0.7, 1.2};
    gsl_matrix *Q0 = fx_orthonormal(&g, n, n);
    gsl_matrix *Tref = gsl_matrix_alloc(n, k), *Tc = gsl_matrix_alloc(n, k);
    for (size_t j = 0; j < k; j++)
        for (size_t i = 0; i < n; i++) {
            gsl_matrix_set(Tref, i, j, gsl_matrix_get(Q0, i, j));
            gsl_matrix_set(Tc, i, j, cos(a[j]) * gsl_matrix_get(Q0, i, j)
                                         + sin(a[j]) * gsl_matrix_get(Q0, i, k + j));
        }
    for (int rep = 0; rep < 3; rep++) {
        gsl_matrix *W = fx_orthonormal(&g, k, k);
        if (rep == 1) {
            gsl_vector_view c = gsl_matrix_column(W, 2);
            gsl_vector_scale(&c.vector, -1.0);
        }
        gsl_matrix *T = fx_mul(Tc, CblasNoTrans, W, CblasNoTrans);
        char what[64];
        snprintf(what, sizeof what, "principal angles 0.1, 0.7, 1.2, case %d", rep);
        double smin;
        gsl_matrix *X = aligned(what, Tref, T, &smin);
        if (X != NULL) {
            const double e = fx_max_diff(X, Tc);
            CHECK_MSG(e <= 1e-12, "%s: the aligned T differs from the closest basis by %.3g",
                      what, e);
            CHECK_MSG(fabs(smin - cos(1.2)) <= 1e-12,
                      "%s: sigma_min = %.15g, expected cos(1.2) = %.15g (the smallest singular "
                      "value of Tref^T T)", what, smin, cos(1.2));
        }
        gsl_matrix_free(X);
        gsl_matrix_free(T);
        gsl_matrix_free(W);
    }
    gsl_matrix_free(Tc);
    gsl_matrix_free(Tref);
    gsl_matrix_free(Q0);
}

/* General spans: the aligned T spans what T spanned, is orthonormal, makes
 * Tref^T T symmetric positive definite (the mark of the polar solution), and
 * no orthogonal change of it comes closer to Tref: neither random ones nor
 * small turns near the identity (the second-order variation of eq. A.23) */
static void minimises_the_distance(void)
{
    fx_rng g = {3003ULL};
    const size_t dims[][2] = {{5, 2}, {8, 3}, {9, 4}};
    for (size_t q = 0; q < 3; q++) {
        const size_t n = dims[q][0], k = dims[q][1];
        gsl_matrix *Tref = fx_orthonormal(&g, n, k), *T = fx_orthonormal(&g, n, k);
        /* bring T nearer to Tref's span so that the problem is well posed */
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j < k; j++)
                gsl_matrix_set(T, i, j, 0.35 * gsl_matrix_get(T, i, j) + gsl_matrix_get(Tref, i, k - 1 - j));
        {   /* orthonormalise T by QR */
            gsl_vector *tau = gsl_vector_alloc(k);
            gsl_matrix *Qf = gsl_matrix_alloc(n, n), *Rf = gsl_matrix_alloc(n, k);
            gsl_linalg_QR_decomp(T, tau);
            gsl_linalg_QR_unpack(T, tau, Qf, Rf);
            gsl_matrix_const_view Qk = gsl_matrix_const_submatrix(Qf, 0, 0, n, k);
            gsl_matrix_memcpy(T, &Qk.matrix);
            gsl_matrix_free(Rf);
            gsl_matrix_free(Qf);
            gsl_vector_free(tau);
        }
        char what[64];
        snprintf(what, sizeof what, "n = %zu, k = %zu, different spans", n, k);
        double smin;
        gsl_matrix *X = aligned(what, Tref, T, &smin);
        if (X == NULL) {
            gsl_matrix_free(T);
            gsl_matrix_free(Tref);
            continue;
        }
        const double eo = fx_orth_error(X), es = fx_span_distance(X, T);
        CHECK_MSG(eo <= 1e-12, "%s: |T^T T - I| = %.3g after the alignment", what, eo);
        CHECK_MSG(es <= 1e-12, "%s: the aligned T spans another space (%.3g)", what, es);
        gsl_matrix *C = fx_mul(Tref, CblasTrans, X, CblasNoTrans);
        double asym = 0.0;
        for (size_t i = 0; i < k; i++)
            for (size_t j = 0; j < i; j++)
                asym = fmax(asym, fabs(gsl_matrix_get(C, i, j) - gsl_matrix_get(C, j, i)));
        CHECK_MSG(asym <= 1e-12, "%s: Tref^T T is not symmetric after the alignment (%.3g)", what,
                  asym);
        CHECK_MSG(gsl_linalg_cholesky_decomp1(C) == GSL_SUCCESS,
                  "%s: Tref^T T is not positive definite after the alignment", what);
        gsl_matrix_free(C);
        const double c0 = cost(Tref, X);
        double worst = HUGE_VAL;
        for (int rep = 0; rep < 60; rep++) {
            gsl_matrix *W;
            if (rep < 30) {
                W = fx_orthonormal(&g, k, k);
            } else {   /* a small turn in the plane (i, j), i != j */
                const size_t i = (size_t)rep % k, j = (i + 1 + ((size_t)rep / k) % (k - 1)) % k;
                W = plane_rotation(k, i, j, (rep % 2 ? 1 : -1) * 1e-3 * (rep - 29));
            }
            gsl_matrix *XW = fx_mul(X, CblasNoTrans, W, CblasNoTrans);
            worst = fmin(worst, cost(Tref, XW) - c0);
            gsl_matrix_free(XW);
            gsl_matrix_free(W);
        }
        CHECK_MSG(worst >= -1e-13, "%s: an orthogonal change of the aligned T is closer to Tref "
                  "by %.3g", what, -worst);
        gsl_matrix_free(X);
        gsl_matrix_free(T);
        gsl_matrix_free(Tref);
    }
}

/* one column: the alignment is a sign, sigma_min the |cosine| */
static void one_column(void)
{
    fx_rng g = {4004ULL};
    const size_t n = 5;
    gsl_matrix *B = fx_orthonormal(&g, n, 2);
    const double as[] = {0.4, 2.5, M_PI, -1.3};
    for (size_t q = 0; q < 4; q++) {
        gsl_matrix *Tref = gsl_matrix_alloc(n, 1), *T = gsl_matrix_alloc(n, 1);
        for (size_t i = 0; i < n; i++) {
            gsl_matrix_set(Tref, i, 0, gsl_matrix_get(B, i, 0));
            gsl_matrix_set(T, i, 0, cos(as[q]) * gsl_matrix_get(B, i, 0)
                                        + sin(as[q]) * gsl_matrix_get(B, i, 1));
        }
        char what[48];
        snprintf(what, sizeof what, "one column at %g rad", as[q]);
        double smin;
        gsl_matrix *X = aligned(what, Tref, T, &smin);
        if (X != NULL) {
            const double sg = cos(as[q]) < 0 ? -1.0 : 1.0;
            double e = 0.0;
            for (size_t i = 0; i < n; i++)
                e = fmax(e, fabs(gsl_matrix_get(X, i, 0) - sg * gsl_matrix_get(T, i, 0)));
            CHECK_MSG(e <= 1e-14, "%s: expected %s (differs by %.3g)", what,
                      sg < 0 ? "-T" : "T unchanged", e);
            CHECK_MSG(fabs(smin - fabs(cos(as[q]))) <= 1e-14, "%s: sigma_min = %.15g, expected "
                      "|cos| = %.15g", what, smin, fabs(cos(as[q])));
        }
        gsl_matrix_free(X);
        /* sigma_min may be NULL */
        int st = ex07_align(Tref, T, NULL);
        CHECK_MSG(st == GSL_SUCCESS, "%s, sigma_min = NULL: status %d (%s)", what, st,
                  mbd_strerror(st));
        gsl_matrix_free(T);
        gsl_matrix_free(Tref);
    }
    gsl_matrix_free(B);
}

/* ------------------------------------------------------------------------ */
/* The jump rule                                                             */

/* T_old = three columns of Q0; T_new the same with column c turned by a in
 * the plane of (column c, column 3 + c) */
static gsl_matrix *turned(const gsl_matrix *Q0, size_t c, double a)
{
    gsl_matrix *T = gsl_matrix_alloc(Q0->size1, 3);
    for (size_t i = 0; i < Q0->size1; i++)
        for (size_t j = 0; j < 3; j++)
            gsl_matrix_set(T, i, j, j == c ? cos(a) * gsl_matrix_get(Q0, i, j)
                                                 + sin(a) * gsl_matrix_get(Q0, i, 3 + j)
                                           : gsl_matrix_get(Q0, i, j));
    return T;
}

static void jump_rule(void)
{
    fx_rng g = {5005ULL};
    const size_t n = 7;
    gsl_matrix *Q0 = fx_orthonormal(&g, n, n);
    gsl_matrix *Told = turned(Q0, 0, 0.0);
    const double deg = M_PI / 180;
    struct {
        size_t c;
        double a;
        int jump;
    } cases[] = {{0, 0.0, 0},        {2, 59 * deg, 0},  {2, 61 * deg, 1},  {1, 30 * deg, 0},
                 {0, 89 * deg, 1},   {2, M_PI, 1},      {1, -59 * deg, 0}, {1, -61 * deg, 1}};
    for (size_t q = 0; q < sizeof cases / sizeof cases[0]; q++) {
        gsl_matrix *Tnew = turned(Q0, cases[q].c, cases[q].a);
        int j = -7;
        int st = ex07_jump(Told, Tnew, &j);
        CHECK_STATUS(st, GSL_SUCCESS);
        CHECK_MSG(j == cases[q].jump, "column %zu of 3 turned by %.1f degrees: jump = %d, "
                  "expected %d", cases[q].c, cases[q].a / deg, j, cases[q].jump);
        gsl_matrix_free(Tnew);
    }
    /* a swap of the last two columns (cosines 0 there), a turn of the whole
     * basis inside its span by 40 degrees (no jump) and by 70 (a jump) */
    gsl_matrix *S = gsl_matrix_alloc(n, 3);
    gsl_matrix_memcpy(S, Told);
    gsl_matrix_swap_columns(S, 1, 2);
    int j = -7;
    CHECK_STATUS(ex07_jump(Told, S, &j), GSL_SUCCESS);
    CHECK_MSG(j == 1, "two columns swapped: jump = %d, expected 1", j);
    const double spins[] = {40 * deg, 70 * deg};
    for (size_t q = 0; q < 2; q++) {
        gsl_matrix *G = plane_rotation(3, 0, 2, spins[q]);
        gsl_matrix *Tn = fx_mul(Told, CblasNoTrans, G, CblasNoTrans);
        j = -7;
        CHECK_STATUS(ex07_jump(Told, Tn, &j), GSL_SUCCESS);
        CHECK_MSG(j == (q == 1), "the basis turned inside its span by %.0f degrees: jump = %d, "
                  "expected %d", spins[q] / deg, j, q == 1);
        gsl_matrix_free(Tn);
        gsl_matrix_free(G);
    }
    gsl_matrix_free(S);
    gsl_matrix_free(Told);
    gsl_matrix_free(Q0);
}

/* ------------------------------------------------------------------------ */
/* Counting jumps                                                            */

static void free_sequence(gsl_matrix **T, size_t count)
{
    for (size_t s = 0; s < count; s++)
        gsl_matrix_free(T[s]);
}

/* counts both ways and checks that the inputs are unchanged */
static void check_counts(const char *what, gsl_matrix **T, size_t count, size_t trad,
                         size_t cont)
{
    gsl_matrix **copy = malloc(count * sizeof *copy);
    for (size_t s = 0; s < count; s++) {
        copy[s] = gsl_matrix_alloc(T[s]->size1, T[s]->size2);
        gsl_matrix_memcpy(copy[s], T[s]);
    }
    for (int c = 0; c < 2; c++) {
        size_t nj = 9999;
        int st = ex07_count_jumps((const gsl_matrix *const *)T, count, c ? 3 : 0, &nj);
        CHECK_MSG(st == GSL_SUCCESS, "%s, %s: status %d (%s)", what,
                  c ? "continued" : "traditional", st, mbd_strerror(st));
        const size_t want = c ? cont : trad;
        CHECK_MSG(nj == want, "%s, %s: %zu jumps, expected %zu", what,
                  c ? "continued" : "traditional", nj, want);
    }
    int same = 1;
    for (size_t s = 0; s < count; s++)
        same = same && fx_matrix_same(copy[s], T[s]);
    CHECK_MSG(same, "%s: the input bases were changed", what);
    free_sequence(copy, count);
    free(copy);
}

static void count_jumps(void)
{
    fx_rng g = {6006ULL};
    const double deg = M_PI / 180;
    gsl_matrix *Q0 = fx_orthonormal(&g, 6, 6);
    gsl_matrix *T[12];

    /* one column turning by 5 degrees a step in the plane of Q0's first two
     * columns, with its sign flipped by the factorisation at some steps */
    const int sign[12] = {1, 1, 1, -1, -1, 1, 1, -1, 1, 1, 1, 1};
    for (size_t s = 0; s < 12; s++) {
        T[s] = gsl_matrix_alloc(6, 1);
        for (size_t i = 0; i < 6; i++)
            gsl_matrix_set(T[s], i, 0, sign[s] * (cos(5 * deg * s) * gsl_matrix_get(Q0, i, 0)
                                                  + sin(5 * deg * s) * gsl_matrix_get(Q0, i, 1)));
    }
    check_counts("one column, signs + + + - - + + - + + + +", T, 12, 4, 0);
    /* the sign alternating at every step */
    for (size_t s = 0; s < 12; s++)
        if (s % 2)
            gsl_matrix_scale(T[s], -1.0);
    /* signs now: + - + + - - + + + - + - : changes at 1,2,4,6,9,10,11 */
    check_counts("one column, signs + - + + - - + + + - + -", T, 12, 7, 0);
    free_sequence(T, 12);

    /* a genuine turn: steps of 10, 10, 70, 10, 50 degrees: only the 70
     * degree step is a jump, whichever basis */
    const double steps[5] = {10, 10, 70, 10, 50};
    double ang = 0.0;
    for (size_t s = 0; s < 6; s++) {
        if (s > 0)
            ang += steps[s - 1] * deg;
        T[s] = gsl_matrix_alloc(6, 1);
        for (size_t i = 0; i < 6; i++)
            gsl_matrix_set(T[s], i, 0, (s == 4 ? -1.0 : 1.0) * (cos(ang) * gsl_matrix_get(Q0, i, 0)
                                                               + sin(ang) * gsl_matrix_get(Q0, i, 1)));
    }
    check_counts("one column, steps of 10, 10, 70, 10, 50 degrees, a sign flip at step 4", T, 6, 3,
                 1);
    free_sequence(T, 6);

    /* two columns: a span turning slowly, the factorisation's basis of it
     * turned inside the span by 30 degrees at step 2, its columns swapped at
     * steps 4 and 5, a column reflected at steps 7 and 8 */
    for (size_t s = 0; s < 10; s++) {
        const double a = 4 * deg * s, b = 3 * deg * s;
        gsl_matrix *Bs = gsl_matrix_alloc(6, 2);
        for (size_t i = 0; i < 6; i++) {
            gsl_matrix_set(Bs, i, 0, cos(a) * gsl_matrix_get(Q0, i, 0) + sin(a) * gsl_matrix_get(Q0, i, 2));
            gsl_matrix_set(Bs, i, 1, cos(b) * gsl_matrix_get(Q0, i, 1) + sin(b) * gsl_matrix_get(Q0, i, 3));
        }
        gsl_matrix *G;
        if (s == 2) {
            G = plane_rotation(2, 0, 1, 30 * deg);
        } else {
            G = gsl_matrix_alloc(2, 2);
            gsl_matrix_set_identity(G);
            if (s == 4 || s == 5) {
                gsl_matrix_set_zero(G);
                gsl_matrix_set(G, 0, 1, 1.0);
                gsl_matrix_set(G, 1, 0, 1.0);
            } else if (s == 7 || s == 8) {
                gsl_matrix_set(G, 1, 1, -1.0);
            }
        }
        T[s] = fx_mul(Bs, CblasNoTrans, G, CblasNoTrans);
        gsl_matrix_free(G);
        gsl_matrix_free(Bs);
    }
    check_counts("two columns, a 30 degree spin, a swap, a reflection", T, 10, 4, 0);
    free_sequence(T, 10);

    /* two columns: the factorisation spins the basis by 45 degrees inside the
     * span (not a jump: cos 45 > 1/2), then one direction of the span, the
     * one at 45 degrees to the continued columns, turns by 65 degrees.
     * Column by column that is a jump for the basis whose columns lie along
     * the turning direction (the raw one: cos 65 < 1/2), and none for the
     * continued basis, each of whose columns turns by about 44 degrees. */
    {
        gsl_matrix *U = gsl_matrix_alloc(6, 2);   /* u, v: Q0's q0, q1 turned by 45 degrees */
        const double c = cos(65 * deg), sn = sin(65 * deg);
        for (size_t i = 0; i < 6; i++) {
            const double u = (gsl_matrix_get(Q0, i, 0) + gsl_matrix_get(Q0, i, 1)) / sqrt(2.0);
            const double v = (-gsl_matrix_get(Q0, i, 0) + gsl_matrix_get(Q0, i, 1)) / sqrt(2.0);
            gsl_matrix_set(U, i, 0, u);
            gsl_matrix_set(U, i, 1, c * v + sn * gsl_matrix_get(Q0, i, 2));
        }
        T[0] = gsl_matrix_alloc(6, 2);
        gsl_matrix_const_view Q01 = gsl_matrix_const_submatrix(Q0, 0, 0, 6, 2);
        gsl_matrix_memcpy(T[0], &Q01.matrix);
        gsl_matrix *G = plane_rotation(2, 0, 1, 45 * deg);
        T[1] = fx_mul(T[0], CblasNoTrans, G, CblasNoTrans);   /* = [u, v] */
        T[2] = U;
        check_counts("two columns, a 45 degree spin, then a 65 degree turn of one direction", T, 3,
                     1, 0);
        gsl_matrix_free(G);
        free_sequence(T, 3);
    }

    /* one basis: no step */
    T[0] = gsl_matrix_alloc(6, 2);
    gsl_matrix_const_view Q2 = gsl_matrix_const_submatrix(Q0, 0, 0, 6, 2);
    gsl_matrix_memcpy(T[0], &Q2.matrix);
    check_counts("a single basis", T, 1, 0, 0);
    gsl_matrix_free(T[0]);
    gsl_matrix_free(Q0);
}

/* ------------------------------------------------------------------------ */
/* Refusals                                                                  */

static void refusals(void)
{
    fx_rng g = {7007ULL};
    gsl_matrix *Q0 = fx_orthonormal(&g, 5, 5);
    gsl_matrix *A = gsl_matrix_alloc(5, 2), *B = gsl_matrix_alloc(5, 2), *X = gsl_matrix_alloc(5, 2);
    for (size_t i = 0; i < 5; i++)
        for (size_t j = 0; j < 2; j++) {
            gsl_matrix_set(A, i, j, gsl_matrix_get(Q0, i, j));
            gsl_matrix_set(B, i, j, gsl_matrix_get(Q0, i, j + (j == 1 ? 2 : 0)));
        }
    /* B = [q0, q3]: its second direction is orthogonal to A = [q0, q1] */
    struct {
        const char *what;
        gsl_matrix *Tref, *T;
        int status;
    } cases[] = {{"spans with an orthogonal direction", A, B, MBD_ESINGULAR},
                 {"Tref not orthonormal", NULL, NULL, MBD_EINPUT},
                 {"T not orthonormal", NULL, NULL, MBD_EINPUT},
                 {"T with a NaN", NULL, NULL, MBD_EINPUT}};
    gsl_matrix *A2 = gsl_matrix_alloc(5, 2), *B2 = gsl_matrix_alloc(5, 2), *N = gsl_matrix_alloc(5, 2);
    gsl_matrix_memcpy(A2, A);
    gsl_matrix_scale(A2, 1.001);
    gsl_matrix_memcpy(B2, A);
    gsl_matrix_set(B2, 3, 1, gsl_matrix_get(B2, 3, 1) + 1e-6);
    gsl_matrix_memcpy(N, A);
    gsl_matrix_set(N, 2, 0, NAN);
    cases[1].Tref = A2, cases[1].T = A;
    cases[2].Tref = A, cases[2].T = B2;
    cases[3].Tref = A, cases[3].T = N;
    for (size_t q = 0; q < 4; q++) {
        gsl_matrix_memcpy(X, cases[q].T);
        double smin = FX_SENTINEL;
        int st = ex07_align(cases[q].Tref, X, &smin);
        CHECK_MSG(st == cases[q].status, "align, %s: status %d (%s), expected %s", cases[q].what,
                  st, mbd_strerror(st), mbd_strerror(cases[q].status));
        CHECK_MSG(smin == FX_SENTINEL && fx_matrix_same(X, cases[q].T),
                  "align, %s: an output was written on an error", cases[q].what);
    }
    /* one column orthogonal to the reference */
    gsl_matrix_const_view a0 = gsl_matrix_const_submatrix(Q0, 0, 0, 5, 1);
    gsl_matrix *x1 = gsl_matrix_alloc(5, 1);
    gsl_matrix_const_view q4 = gsl_matrix_const_submatrix(Q0, 0, 4, 5, 1);
    gsl_matrix_memcpy(x1, &q4.matrix);
    double smin = FX_SENTINEL;
    int st = ex07_align(&a0.matrix, x1, &smin);
    CHECK_MSG(st == MBD_ESINGULAR, "align, one column orthogonal to Tref: status %d (%s), expected "
              "MBD_ESINGULAR", st, mbd_strerror(st));
    CHECK_MSG(smin == FX_SENTINEL && fx_matrix_same(x1, &q4.matrix),
              "align, one column orthogonal to Tref: an output was written on an error");
    /* sizes */
    gsl_matrix *C3 = gsl_matrix_alloc(5, 3), *D4 = gsl_matrix_alloc(4, 2), *W34 = gsl_matrix_alloc(3, 4);
    gsl_matrix_set_all(C3, FX_SENTINEL);
    gsl_matrix_set_all(D4, FX_SENTINEL);
    gsl_matrix_set_all(W34, FX_SENTINEL);
    smin = FX_SENTINEL;
    int s1 = ex07_align(A, C3, &smin), s2 = ex07_align(A, D4, &smin);
    int s3 = ex07_align(W34, W34, &smin);
    CHECK_MSG(s1 == GSL_EBADLEN && s2 == GSL_EBADLEN && s3 == GSL_EBADLEN,
              "align with 5 x 2 and 5 x 3, 5 x 2 and 4 x 2, 3 x 4 and 3 x 4: statuses %d, %d, %d, "
              "expected GSL_EBADLEN", s1, s2, s3);
    CHECK_MSG(smin == FX_SENTINEL && fx_matrix_all_equal(C3, FX_SENTINEL)
                  && fx_matrix_all_equal(D4, FX_SENTINEL) && fx_matrix_all_equal(W34, FX_SENTINEL),
              "align with bad sizes: an output was written on an error");
    int j = -7;
    st = ex07_jump(A, C3, &j);
    CHECK_MSG(st == GSL_EBADLEN && j == -7, "jump with 5 x 2 and 5 x 3: status %d, jump %d, "
              "expected GSL_EBADLEN and nothing written", st, j);
    st = ex07_jump(A, D4, &j);
    CHECK_MSG(st == GSL_EBADLEN && j == -7, "jump with 5 x 2 and 4 x 2: status %d, jump %d, "
              "expected GSL_EBADLEN and nothing written", st, j);
    /* sequences */
    size_t nj = 777;
    const gsl_matrix *seq_size[3] = {A, A, C3};
    const gsl_matrix *seq_orth[3] = {A, B, A};
    const gsl_matrix *seq_bad[3] = {A, B2, A};
    for (int c = 0; c < 2; c++) {
        st = ex07_count_jumps(seq_size, 3, c, &nj);
        CHECK_MSG(st == GSL_EBADLEN && nj == 777, "count_jumps (%s) with a 5 x 3 among 5 x 2: "
                  "status %d, %zu jumps: expected GSL_EBADLEN, nothing written",
                  c ? "continued" : "traditional", st, nj);
        st = ex07_count_jumps(seq_size, 0, c, &nj);
        CHECK_MSG(st == GSL_EBADLEN && nj == 777, "count_jumps (%s) of no basis: status %d, %zu "
                  "jumps: expected GSL_EBADLEN, nothing written", c ? "continued" : "traditional",
                  st, nj);
    }
    st = ex07_count_jumps(seq_orth, 3, 1, &nj);
    CHECK_MSG(st == MBD_ESINGULAR && nj == 777, "count_jumps (continued) over a step to an "
              "orthogonal direction: status %d (%s), %zu jumps: expected MBD_ESINGULAR, nothing "
              "written", st, mbd_strerror(st), nj);
    st = ex07_count_jumps(seq_bad, 3, 1, &nj);
    CHECK_MSG(st == MBD_EINPUT && nj == 777, "count_jumps (continued) with a basis that is not "
              "orthonormal: status %d (%s), %zu jumps: expected MBD_EINPUT, nothing written", st,
              mbd_strerror(st), nj);
    gsl_matrix_free(W34);
    gsl_matrix_free(D4);
    gsl_matrix_free(C3);
    gsl_matrix_free(x1);
    gsl_matrix_free(N);
    gsl_matrix_free(B2);
    gsl_matrix_free(A2);
    gsl_matrix_free(X);
    gsl_matrix_free(B);
    gsl_matrix_free(A);
    gsl_matrix_free(Q0);
}

static CU_TestInfo tests[] = {
    {"a basis turned inside its span comes back exactly", turned_basis_comes_back},
    {"spans at known principal angles: the closest basis", principal_angles},
    {"the aligned basis keeps its span and minimises |Tref^T T - I|", minimises_the_distance},
    {"one column: a sign", one_column},
    {"the jump rule: 60 degrees", jump_rule},
    {"jumps of sequences, traditional and continued", count_jumps},
    {"refusals", refusals},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"ex07.2", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
