/* Grades exercise 07.4: the continuation update, Omega and the Cayley step. */
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>

#include "check.h"
#include "ex07.h"
#include "fixture.h"

/* ------------------------------------------------------------------------ */
/* Smooth Jacobians A(t)                                                     */

/* A(t) = D (X0 + t X1 + t^2 X2)(Y0 + sin(t) Y1): rank r near t0 whatever m
 * and n, not symmetric, the rows scaled by D so that the largest comes last
 * (the pivoting is not the identity). The 4-bar instead follows its
 * parallelogram motion, theta = 1 + t. */
typedef struct {
    const char *name;
    size_t m, n, r;
    int fourbar;
    gsl_matrix *X0, *X1, *X2, *Y0, *Y1;
} path;

static void path_init(path *p, fx_rng *g)
{
    if (p->fourbar)
        return;
    p->X0 = fx_random(g, p->m, p->r);
    p->X1 = fx_random(g, p->m, p->r);
    p->X2 = fx_random(g, p->m, p->r);
    p->Y0 = fx_random(g, p->r, p->n);
    p->Y1 = fx_random(g, p->r, p->n);
    for (size_t i = 0; i < p->m; i++) {
        const double d = 0.6 + 0.5 * (double)i;
        gsl_vector_view a = gsl_matrix_row(p->X0, i), b = gsl_matrix_row(p->X1, i),
                        c = gsl_matrix_row(p->X2, i);
        gsl_vector_scale(&a.vector, d);
        gsl_vector_scale(&b.vector, 0.5 * d);
        gsl_vector_scale(&c.vector, 0.3 * d);
    }
}

static void path_free(path *p)
{
    gsl_matrix *ms[5] = {p->X0, p->X1, p->X2, p->Y0, p->Y1};
    for (int i = 0; i < 5; i++)
        if (ms[i] != NULL)
            gsl_matrix_free(ms[i]);
    p->X0 = p->X1 = p->X2 = p->Y0 = p->Y1 = NULL;
}

/* the 4-bar's Jacobian and its theta-derivative on the parallelogram */
static void fourbar_dot(double theta, gsl_matrix *Ad)
{
    gsl_matrix_set_zero(Ad);
    for (size_t k = 0; k < 4; k++) {
        const fx_pin *pin = &FX_FOURBAR[k];
        const double ti = pin->i == 1 ? 0.0 : theta, wi = pin->i == 1 ? 0.0 : 1.0;
        const size_t ci = 3 * (size_t)pin->i + 2;
        gsl_matrix_set(Ad, 2 * k, ci, -pin->s_i * cos(ti) * wi);
        gsl_matrix_set(Ad, 2 * k + 1, ci, -pin->s_i * sin(ti) * wi);
        if (pin->j >= 0) {
            const double tj = pin->j == 1 ? 0.0 : theta, wj = pin->j == 1 ? 0.0 : 1.0;
            const size_t cj = 3 * (size_t)pin->j + 2;
            gsl_matrix_set(Ad, 2 * k, cj, pin->s_j * cos(tj) * wj);
            gsl_matrix_set(Ad, 2 * k + 1, cj, pin->s_j * sin(tj) * wj);
        }
    }
}

/* A(t) and, when Ad is not NULL, A'(t) */
static void path_at(const path *p, double t, gsl_matrix *A, gsl_matrix *Ad)
{
    if (p->fourbar) {
        fx_fourbar(1.0 + t, A);
        if (Ad != NULL)
            fourbar_dot(1.0 + t, Ad);
        return;
    }
    const size_t m = p->m, n = p->n, r = p->r;
    gsl_matrix *X = gsl_matrix_alloc(m, r), *Xd = gsl_matrix_alloc(m, r);
    gsl_matrix *Y = gsl_matrix_alloc(r, n), *Yd = gsl_matrix_alloc(r, n);
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < r; j++) {
            gsl_matrix_set(X, i, j, gsl_matrix_get(p->X0, i, j) + t * gsl_matrix_get(p->X1, i, j)
                                        + t * t * gsl_matrix_get(p->X2, i, j));
            gsl_matrix_set(Xd, i, j, gsl_matrix_get(p->X1, i, j) + 2 * t * gsl_matrix_get(p->X2, i, j));
        }
    for (size_t i = 0; i < r; i++)
        for (size_t j = 0; j < n; j++) {
            gsl_matrix_set(Y, i, j, gsl_matrix_get(p->Y0, i, j) + sin(t) * gsl_matrix_get(p->Y1, i, j));
            gsl_matrix_set(Yd, i, j, cos(t) * gsl_matrix_get(p->Y1, i, j));
        }
    gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, X, Y, 0.0, A);
    if (Ad != NULL) {
        gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, Xd, Y, 0.0, Ad);
        gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, X, Yd, 1.0, Ad);
    }
    gsl_matrix_free(Yd);
    gsl_matrix_free(Y);
    gsl_matrix_free(Xd);
    gsl_matrix_free(X);
}

static path PATHS[] = {
    {"3 x 6 of full rank", 3, 6, 3, 0, NULL, NULL, NULL, NULL, NULL},
    {"4 x 7 of rank 2", 4, 7, 2, 0, NULL, NULL, NULL, NULL, NULL},
    {"5 x 5 of rank 3", 5, 5, 3, 0, NULL, NULL, NULL, NULL, NULL},
    {"7 x 4 of rank 3 (m > n)", 7, 4, 3, 0, NULL, NULL, NULL, NULL, NULL},
    {"6 x 4 of rank 4 (m > n, no T)", 6, 4, 4, 0, NULL, NULL, NULL, NULL, NULL},
    {"1 x 3", 1, 3, 1, 0, NULL, NULL, NULL, NULL, NULL},
    {"the 4-bar along its motion", 8, 9, 8, 1, NULL, NULL, NULL, NULL, NULL},
};
#define NPATHS (sizeof PATHS / sizeof PATHS[0])
#define T0 0.37

/* The factorisation a continuation works with at t: A^T P = Q R by GSL, the
 * basis block of Q turned by an orthogonal W when turn is set (the
 * continued T is any basis of the span) */
typedef struct {
    gsl_matrix *A, *Ad, *Q, *R;
    gsl_permutation *perm;
} factored;

static void factor_at(const path *p, double t, int turn, fx_rng *g, factored *f)
{
    const size_t m = p->m, n = p->n, k = n - p->r;
    f->A = gsl_matrix_alloc(m, n);
    f->Ad = gsl_matrix_alloc(m, n);
    f->Q = gsl_matrix_alloc(n, n);
    f->R = gsl_matrix_alloc(n, m);
    f->perm = gsl_permutation_alloc(m);
    path_at(p, t, f->A, f->Ad);
    fx_qrpt(f->A, f->Q, f->R, f->perm);
    if (turn && k > 0) {
        gsl_matrix *W = fx_orthonormal(g, k, k);
        gsl_matrix_view T = gsl_matrix_submatrix(f->Q, 0, p->r, n, k);
        gsl_matrix *TW = fx_mul(&T.matrix, CblasNoTrans, W, CblasNoTrans);
        gsl_matrix_memcpy(&T.matrix, TW);
        gsl_matrix_free(TW);
        gsl_matrix_free(W);
    }
}

static void factored_free(factored *f)
{
    gsl_permutation_free(f->perm);
    gsl_matrix_free(f->R);
    gsl_matrix_free(f->Q);
    gsl_matrix_free(f->Ad);
    gsl_matrix_free(f->A);
}

/* Q_ns(t): the first r columns of the factorisation with the pivot of t0
 * held fixed: Householder QR of A(t)^T P(:, 0..r-1), each column's sign
 * chosen so that R_jj keeps the sign it has at t0 (signs of R0). A smooth
 * function of t, the one whose derivative Omega describes. */
static void q_ns(const path *p, double t, const gsl_permutation *perm, const gsl_matrix *R0,
                 gsl_matrix *Qns)
{
    const size_t m = p->m, n = p->n, r = p->r;
    gsl_matrix *A = gsl_matrix_alloc(m, n), *B = gsl_matrix_alloc(n, r);
    gsl_matrix *Qb = gsl_matrix_alloc(n, n), *Rb = gsl_matrix_alloc(n, r);
    gsl_vector *tau = gsl_vector_alloc(r);
    path_at(p, t, A, NULL);
    for (size_t j = 0; j < r; j++)
        for (size_t i = 0; i < n; i++)
            gsl_matrix_set(B, i, j, gsl_matrix_get(A, gsl_permutation_get(perm, j), i));
    gsl_linalg_QR_decomp(B, tau);
    gsl_linalg_QR_unpack(B, tau, Qb, Rb);
    for (size_t j = 0; j < r; j++) {
        const double s = (gsl_matrix_get(Rb, j, j) < 0) == (gsl_matrix_get(R0, j, j) < 0) ? 1.0 : -1.0;
        for (size_t i = 0; i < n; i++)
            gsl_matrix_set(Qns, i, j, s * gsl_matrix_get(Qb, i, j));
    }
    gsl_vector_free(tau);
    gsl_matrix_free(Rb);
    gsl_matrix_free(Qb);
    gsl_matrix_free(B);
    gsl_matrix_free(A);
}

static gsl_matrix *omega_of(const char *what, const factored *f, size_t r)
{
    const size_t n = f->A->size2;
    gsl_matrix *W = gsl_matrix_alloc(n, n);
    gsl_matrix_set_all(W, NAN);
    int st = ex07_omega(f->Q, f->R, f->perm, r, f->Ad, W);
    CHECK_MSG(st == GSL_SUCCESS, "%s: ex07_omega returned %d (%s)", what, st, mbd_strerror(st));
    if (st != GSL_SUCCESS) {
        gsl_matrix_free(W);
        return NULL;
    }
    return W;
}

/* ------------------------------------------------------------------------ */
/* Omega                                                                     */

/* Omega is skew, its T-T block is zero, and every entry is written */
static void omega_structure(void)
{
    fx_rng g = {8008ULL};
    for (size_t q = 0; q < NPATHS; q++) {
        path *p = &PATHS[q];
        path_init(p, &g);
        for (int turn = 0; turn < 2; turn++) {
            factored f;
            factor_at(p, T0, turn, &g, &f);
            char what[96];
            snprintf(what, sizeof what, "%s%s", p->name, turn ? ", T turned" : "");
            gsl_matrix *W = omega_of(what, &f, p->r);
            if (W != NULL) {
                const size_t n = p->n, r = p->r;
                double asym = 0.0, tt = 0.0;
                const double big = fx_max_abs(W);
                for (size_t i = 0; i < n; i++)
                    for (size_t j = 0; j < n; j++) {
                        const double a = fabs(gsl_matrix_get(W, i, j) + gsl_matrix_get(W, j, i));
                        asym = isnan(a) ? NAN : fmax(asym, a);
                        if (i >= r && j >= r)
                            tt = fmax(tt, fabs(gsl_matrix_get(W, i, j)));
                    }
                CHECK_MSG(asym <= 1e-13 * (1 + big), "%s: |Omega + Omega^T| = %.3g, expected 0 "
                          "(Omega_ns = Omega_L - Omega_L^T is skew)", what, asym);
                CHECK_MSG(tt == 0.0, "%s: the T-T block of Omega is not zero (%.3g)", what, tt);
                CHECK_MSG(big > 0, "%s: Omega is zero", what);
            }
            if (W != NULL)
                gsl_matrix_free(W);
            factored_free(&f);
        }
        path_free(p);
    }
}

/* Omega(:, 0..r-1) = Q^T Q_ns': the derivative of the smooth factorisation,
 * by finite differences of Q_ns(t) (fourth order, h = 1e-3) */
static void omega_is_the_derivative(void)
{
    fx_rng g = {9009ULL};
    for (size_t q = 0; q < NPATHS; q++) {
        path *p = &PATHS[q];
        path_init(p, &g);
        const size_t n = p->n, r = p->r;
        for (int turn = 0; turn < 2; turn++) {
            factored f;
            factor_at(p, T0, turn, &g, &f);
            char what[96];
            snprintf(what, sizeof what, "%s%s", p->name, turn ? ", T turned" : "");
            /* the test's Q_ns(t0) is the factorisation's */
            gsl_matrix *Qn = gsl_matrix_alloc(n, r), *Qd = gsl_matrix_alloc(n, r);
            q_ns(p, T0, f.perm, f.R, Qn);
            gsl_matrix_const_view Qf = gsl_matrix_const_submatrix(f.Q, 0, 0, n, r);
            CHECK_MSG(fx_max_diff(Qn, &Qf.matrix) <= 1e-13, "%s: the test's own Q_ns(t0) differs "
                      "from the factorisation's", what);
            /* Q_ns' */
            const double h = 1e-3, wts[4] = {1.0 / 12, -8.0 / 12, 8.0 / 12, -1.0 / 12};
            const double offs[4] = {-2, -1, 1, 2};
            gsl_matrix_set_zero(Qd);
            for (int s = 0; s < 4; s++) {
                q_ns(p, T0 + offs[s] * h, f.perm, f.R, Qn);
                gsl_matrix_scale(Qn, wts[s] / h);
                gsl_matrix_add(Qd, Qn);
            }
            gsl_matrix *ref = fx_mul(f.Q, CblasTrans, Qd, CblasNoTrans);
            gsl_matrix *W = omega_of(what, &f, r);
            if (W != NULL) {
                gsl_matrix_const_view Wc = gsl_matrix_const_submatrix(W, 0, 0, n, r);
                const double e = fx_max_diff(&Wc.matrix, ref), sc = 1 + fx_max_abs(ref);
                CHECK_MSG(e <= 1e-7 * sc, "%s: Omega's first r columns differ from Q^T Q_ns' "
                          "by %.3g (scale %.3g)", what, e, sc);
                gsl_matrix_free(W);
            }
            gsl_matrix_free(ref);
            gsl_matrix_free(Qd);
            gsl_matrix_free(Qn);
            factored_free(&f);
        }
        path_free(p);
    }
}

/* ------------------------------------------------------------------------ */
/* The step: Omega and Cayley together                                       */

/* Over a step h the predicted T~ (Q~'s last k columns) stays tangent to
 * second order: |A(t0 + h) T~| = O(h^2); it differs from the fresh basis of
 * t0 + h, aligned to it, by O(h^2); the basis not updated differs from the
 * fresh one aligned to it by O(h). Orders measured by halving h. */
static void prediction_order(void)
{
    fx_rng g = {1212ULL};
    for (size_t q = 0; q < NPATHS; q++) {
        path *p = &PATHS[q];
        const size_t n = p->n, r = p->r, k = n - r;
        if (k == 0)
            continue;
        path_init(p, &g);
        factored f;
        factor_at(p, T0, 1, &g, &f);
        gsl_matrix *W = omega_of(p->name, &f, r);
        if (W == NULL) {
            factored_free(&f);
            path_free(p);
            continue;
        }
        gsl_matrix_const_view T = gsl_matrix_const_submatrix(f.Q, 0, r, n, k);
        const double hs[3] = {0.04, 0.02, 0.01};
        double e1[3], e2[3], e3[3];
        int ok = 1;
        gsl_matrix *A1 = gsl_matrix_alloc(p->m, n), *Qn = gsl_matrix_alloc(n, n);
        for (int s = 0; s < 3 && ok; s++) {
            gsl_matrix_set_all(Qn, NAN);
            int st = ex07_cayley(f.Q, W, hs[s], Qn);
            CHECK_MSG(st == GSL_SUCCESS, "%s: ex07_cayley returned %d (%s)", p->name, st,
                      mbd_strerror(st));
            if (st != GSL_SUCCESS) {
                ok = 0;
                break;
            }
            gsl_matrix_const_view Tp = gsl_matrix_const_submatrix(Qn, 0, r, n, k);
            path_at(p, T0 + hs[s], A1, NULL);
            e1[s] = fx_AT_norm(A1, &Tp.matrix) / fx_frobenius(A1);
            gsl_matrix *F = fx_null_basis(A1, r), *F0 = gsl_matrix_alloc(n, k);
            gsl_matrix_memcpy(F0, F);
            fx_procrustes(&Tp.matrix, F);
            fx_procrustes(&T.matrix, F0);
            e2[s] = fx_max_diff(&Tp.matrix, F);
            e3[s] = fx_max_diff(&T.matrix, F0);
            gsl_matrix_free(F0);
            gsl_matrix_free(F);
        }
        if (ok) {
            for (int s = 1; s < 3; s++) {
                const double r1 = e1[s - 1] / e1[s], r2 = e2[s - 1] / e2[s], r3 = e3[s - 1] / e3[s];
                CHECK_MSG(r1 >= 3.2 && r1 <= 4.8, "%s: |A(t0 + h) T~| = %.3g at h = %g, %.3g at "
                          "h = %g: ratio %.3g, expected 4 (second order)", p->name, e1[s - 1],
                          hs[s - 1], e1[s], hs[s], r1);
                CHECK_MSG(r2 >= 3.2 && r2 <= 4.8, "%s: |T~ - T_fresh aligned| = %.3g at h = %g, "
                          "%.3g at h = %g: ratio %.3g, expected 4 (second order)", p->name,
                          e2[s - 1], hs[s - 1], e2[s], hs[s], r2);
                CHECK_MSG(r3 >= 1.6 && r3 <= 2.4, "%s: the basis not updated: ratio %.3g, "
                          "expected 2 (first order)", p->name, r3);
            }
            CHECK_MSG(e2[2] <= 0.2 * e3[2], "%s: at h = 0.01 the prediction is off by %.3g, the "
                      "basis not updated by %.3g", p->name, e2[2], e3[2]);
        }
        gsl_matrix_free(Qn);
        gsl_matrix_free(A1);
        gsl_matrix_free(W);
        factored_free(&f);
        path_free(p);
    }
}

/* ------------------------------------------------------------------------ */
/* The Cayley map                                                            */

/* Omega = V diag(w1 J, w2 J, 0) V^T (J the quarter turn): the Cayley map
 * turns each plane by exactly 2 atan(h w / 2) */
static void cayley_exact(void)
{
    fx_rng g = {1313ULL};
    const size_t n = 5;
    gsl_matrix *V = fx_orthonormal(&g, n, n), *Q = fx_orthonormal(&g, n, n);
    gsl_matrix *D = gsl_matrix_calloc(n, n), *G = gsl_matrix_calloc(n, n);
    const double w1 = 2.0, w2 = -5.0;
    gsl_matrix_set(D, 1, 0, w1);
    gsl_matrix_set(D, 0, 1, -w1);
    gsl_matrix_set(D, 3, 2, w2);
    gsl_matrix_set(D, 2, 3, -w2);
    gsl_matrix *VD = fx_mul(V, CblasNoTrans, D, CblasNoTrans);
    gsl_matrix *Om = fx_mul(VD, CblasNoTrans, V, CblasTrans);
    for (size_t i = 0; i < n; i++)   /* exactly skew */
        for (size_t j = 0; j < i; j++)
            gsl_matrix_set(Om, j, i, -gsl_matrix_get(Om, i, j));
    for (size_t i = 0; i < n; i++)
        gsl_matrix_set(Om, i, i, 0.0);
    const double hs[] = {0.3, -0.7, 10.0, 0.0};
    gsl_matrix *Qn = gsl_matrix_alloc(n, n);
    for (size_t q = 0; q < sizeof hs / sizeof hs[0]; q++) {
        const double h = hs[q], p1 = 2 * atan(0.5 * h * w1), p2 = 2 * atan(0.5 * h * w2);
        gsl_matrix_set_identity(G);
        gsl_matrix_set(G, 0, 0, cos(p1));
        gsl_matrix_set(G, 1, 1, cos(p1));
        gsl_matrix_set(G, 1, 0, sin(p1));
        gsl_matrix_set(G, 0, 1, -sin(p1));
        gsl_matrix_set(G, 2, 2, cos(p2));
        gsl_matrix_set(G, 3, 3, cos(p2));
        gsl_matrix_set(G, 3, 2, sin(p2));
        gsl_matrix_set(G, 2, 3, -sin(p2));
        gsl_matrix *VG = fx_mul(V, CblasNoTrans, G, CblasNoTrans);
        gsl_matrix *C = fx_mul(VG, CblasNoTrans, V, CblasTrans);
        gsl_matrix *ref = fx_mul(Q, CblasNoTrans, C, CblasNoTrans);
        gsl_matrix_set_all(Qn, NAN);
        int st = ex07_cayley(Q, Om, h, Qn);
        CHECK_MSG(st == GSL_SUCCESS, "h = %g: status %d (%s)", h, st, mbd_strerror(st));
        const double e = fx_max_diff(Qn, ref);
        CHECK_MSG(e <= 1e-13, "h = %g: Qnew differs from Q turned by 2 atan(h w / 2) in each "
                  "plane by %.3g", h, e);
        gsl_matrix_free(ref);
        gsl_matrix_free(C);
        gsl_matrix_free(VG);
    }
    gsl_matrix_free(Qn);
    gsl_matrix_free(Om);
    gsl_matrix_free(VD);
    gsl_matrix_free(G);
    gsl_matrix_free(D);
    gsl_matrix_free(Q);
    gsl_matrix_free(V);
}

/* a general skew Omega: Qnew orthogonal, Y = Q^T Qnew solves the implicit
 * midpoint rule Y - I = (h/2) Omega (I + Y), and Y - e^{h Omega} = O(h^3) */
static void cayley_general(void)
{
    fx_rng g = {1414ULL};
    const size_t n = 6;
    gsl_matrix *Q = fx_orthonormal(&g, n, n), *Om = fx_random(&g, n, n);
    for (size_t i = 0; i < n; i++) {
        gsl_matrix_set(Om, i, i, 0.0);
        for (size_t j = 0; j < i; j++)
            gsl_matrix_set(Om, j, i, -gsl_matrix_get(Om, i, j));
    }
    gsl_matrix_scale(Om, 3.0);
    const double hs[] = {0.02, 0.01, 0.005};
    double ee[3];
    gsl_matrix *Qn = gsl_matrix_alloc(n, n), *E = gsl_matrix_alloc(n, n), *hO = gsl_matrix_alloc(n, n);
    for (size_t q = 0; q < 3; q++) {
        const double h = hs[q];
        gsl_matrix_set_all(Qn, NAN);
        int st = ex07_cayley(Q, Om, h, Qn);
        CHECK_MSG(st == GSL_SUCCESS, "h = %g: status %d (%s)", h, st, mbd_strerror(st));
        CHECK_MSG(fx_orth_error(Qn) <= 1e-13, "h = %g: Qnew is not orthogonal (%.3g)", h,
                  fx_orth_error(Qn));
        gsl_matrix *Y = fx_mul(Q, CblasTrans, Qn, CblasNoTrans);
        /* residual of Y - I - (h/2) Omega (I + Y) */
        gsl_matrix *IY = gsl_matrix_alloc(n, n);
        gsl_matrix_memcpy(IY, Y);
        for (size_t i = 0; i < n; i++)
            *gsl_matrix_ptr(IY, i, i) += 1.0;
        gsl_matrix *res = fx_mul(Om, CblasNoTrans, IY, CblasNoTrans);
        gsl_matrix_scale(res, -0.5 * h);
        gsl_matrix_add(res, Y);
        for (size_t i = 0; i < n; i++)
            *gsl_matrix_ptr(res, i, i) -= 1.0;
        CHECK_MSG(fx_max_abs(res) <= 1e-14, "h = %g: Y - I - (h/2) Omega (I + Y) = %.3g, expected 0",
                  h, fx_max_abs(res));
        gsl_matrix_memcpy(hO, Om);
        gsl_matrix_scale(hO, h);
        gsl_linalg_exponential_ss(hO, E, GSL_PREC_DOUBLE);
        ee[q] = fx_max_diff(Y, E);
        gsl_matrix_free(res);
        gsl_matrix_free(IY);
        gsl_matrix_free(Y);
    }
    for (size_t q = 1; q < 3; q++)
        CHECK_MSG(ee[q - 1] / ee[q] >= 6.5 && ee[q - 1] / ee[q] <= 9.5,
                  "|Q^T Qnew - e^{h Omega}| = %.3g at h = %g, %.3g at h = %g: ratio %.3g, expected "
                  "8 (O(h^3))", ee[q - 1], hs[q - 1], ee[q], hs[q], ee[q - 1] / ee[q]);
    /* h = 0 and Omega = 0 leave Q */
    gsl_matrix_set_all(Qn, NAN);
    CHECK_STATUS(ex07_cayley(Q, Om, 0.0, Qn), GSL_SUCCESS);
    CHECK_MSG(fx_max_diff(Qn, Q) <= 1e-15, "h = 0: Qnew differs from Q by %.3g", fx_max_diff(Qn, Q));
    gsl_matrix_set_zero(hO);
    gsl_matrix_set_all(Qn, NAN);
    CHECK_STATUS(ex07_cayley(Q, hO, 0.5, Qn), GSL_SUCCESS);
    CHECK_MSG(fx_max_diff(Qn, Q) <= 1e-15, "Omega = 0: Qnew differs from Q by %.3g",
              fx_max_diff(Qn, Q));
    gsl_matrix_free(hO);
    gsl_matrix_free(E);
    gsl_matrix_free(Qn);
    gsl_matrix_free(Om);
    gsl_matrix_free(Q);
}

/* ------------------------------------------------------------------------ */
/* Refusals                                                                  */

static void omega_refusals(void)
{
    fx_rng g = {1515ULL};
    path p = {"5 x 7 of rank 3", 5, 7, 3, 0, NULL, NULL, NULL, NULL, NULL};
    path_init(&p, &g);
    factored f;
    factor_at(&p, T0, 0, &g, &f);
    gsl_matrix *W = gsl_matrix_alloc(7, 7);
    /* r = 0: Omega = 0, every entry written */
    gsl_matrix_set_all(W, NAN);
    int st = ex07_omega(f.Q, f.R, f.perm, 0, f.Ad, W);
    CHECK_STATUS(st, GSL_SUCCESS);
    CHECK_MSG(fx_matrix_all_equal(W, 0.0), "r = 0: Omega is not all zero");
    /* r above min(m, n), r above the rank */
    const size_t rs[2] = {6, 4};
    const int want[2] = {MBD_EINPUT, MBD_ESINGULAR};
    for (int k = 0; k < 2; k++) {
        gsl_matrix_set_all(W, FX_SENTINEL);
        st = ex07_omega(f.Q, f.R, f.perm, rs[k], f.Ad, W);
        CHECK_MSG(st == want[k], "5 x 7 of rank 3 with r = %zu: status %d (%s), expected %s",
                  rs[k], st, mbd_strerror(st), mbd_strerror(want[k]));
        CHECK_MSG(fx_matrix_all_equal(W, FX_SENTINEL), "r = %zu: Omega was written on an error",
                  rs[k]);
    }
    /* sizes */
    gsl_matrix *Q6 = gsl_matrix_alloc(6, 6), *Q76 = gsl_matrix_alloc(7, 6), *R75 = gsl_matrix_alloc(7, 4);
    gsl_matrix *R57 = gsl_matrix_alloc(5, 7), *W6 = gsl_matrix_alloc(6, 6), *W76 = gsl_matrix_alloc(7, 6);
    gsl_permutation *p4 = gsl_permutation_alloc(4);
    gsl_matrix_set_identity(Q6);
    gsl_matrix_set_zero(Q76);
    gsl_matrix_memcpy(R57, f.A);
    gsl_matrix_set_zero(R75);
    struct {
        const char *what;
        const gsl_matrix *Q, *R;
        const gsl_permutation *perm;
        gsl_matrix *W;
    } bad[] = {{"Q of 6 x 6", Q6, f.R, f.perm, W},     {"Q of 7 x 6", Q76, f.R, f.perm, W},
               {"R of 7 x 4", f.Q, R75, f.perm, W},    {"R of 5 x 7", f.Q, R57, f.perm, W},
               {"perm of size 4", f.Q, f.R, p4, W},    {"Omega of 6 x 6", f.Q, f.R, f.perm, W6},
               {"Omega of 7 x 6", f.Q, f.R, f.perm, W76}};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        gsl_matrix_set_all(bad[k].W, FX_SENTINEL);
        st = ex07_omega(bad[k].Q, bad[k].R, bad[k].perm, 3, f.Ad, bad[k].W);
        CHECK_MSG(st == GSL_EBADLEN, "%s (A is 5 x 7): status %d (%s), expected GSL_EBADLEN",
                  bad[k].what, st, mbd_strerror(st));
        CHECK_MSG(fx_matrix_all_equal(bad[k].W, FX_SENTINEL), "%s: Omega was written on an error",
                  bad[k].what);
    }
    gsl_permutation_free(p4);
    gsl_matrix_free(W76);
    gsl_matrix_free(W6);
    gsl_matrix_free(R57);
    gsl_matrix_free(R75);
    gsl_matrix_free(Q76);
    gsl_matrix_free(Q6);
    gsl_matrix_free(W);
    factored_free(&f);
    path_free(&p);
}

static void cayley_refusals(void)
{
    fx_rng g = {1616ULL};
    const size_t n = 4;
    gsl_matrix *Q = fx_orthonormal(&g, n, n), *Om = gsl_matrix_calloc(n, n);
    gsl_matrix *Qn = gsl_matrix_alloc(n, n);
    gsl_matrix_set(Om, 1, 0, 0.3);
    gsl_matrix_set(Om, 0, 1, -0.3);
    gsl_matrix_set(Om, 3, 2, -1.1);
    gsl_matrix_set(Om, 2, 3, 1.1);
    /* not skew: a symmetric part of 1e-6, a diagonal entry; a NaN */
    const size_t pos[3][2] = {{0, 1}, {2, 2}, {3, 1}};
    const double add[3] = {1e-6, 1e-3, NAN};
    for (int k = 0; k < 3; k++) {
        gsl_matrix *B = gsl_matrix_alloc(n, n);
        gsl_matrix_memcpy(B, Om);
        *gsl_matrix_ptr(B, pos[k][0], pos[k][1]) += add[k];
        gsl_matrix_set_all(Qn, FX_SENTINEL);
        int st = ex07_cayley(Q, B, 0.1, Qn);
        CHECK_MSG(st == MBD_EINPUT, "Omega with %g added to (%zu, %zu): status %d (%s), expected "
                  "MBD_EINPUT", add[k], pos[k][0], pos[k][1], st, mbd_strerror(st));
        CHECK_MSG(fx_matrix_all_equal(Qn, FX_SENTINEL), "Omega with %g added: Qnew was written",
                  add[k]);
        gsl_matrix_free(B);
    }
    const double hs[3] = {NAN, INFINITY, -INFINITY};
    for (int k = 0; k < 3; k++) {
        gsl_matrix_set_all(Qn, FX_SENTINEL);
        int st = ex07_cayley(Q, Om, hs[k], Qn);
        CHECK_MSG(st == MBD_EINPUT && fx_matrix_all_equal(Qn, FX_SENTINEL),
                  "h = %g: status %d (%s), expected MBD_EINPUT and nothing written", hs[k], st,
                  mbd_strerror(st));
    }
    gsl_matrix *Q3 = gsl_matrix_alloc(3, 3), *Q43 = gsl_matrix_alloc(4, 3), *O3 = gsl_matrix_calloc(3, 3);
    gsl_matrix *N3 = gsl_matrix_alloc(3, 3), *N43 = gsl_matrix_alloc(4, 3);
    gsl_matrix_set_identity(Q3);
    gsl_matrix_set_zero(Q43);
    struct {
        const char *what;
        const gsl_matrix *Q, *O;
        gsl_matrix *N;
    } bad[] = {{"Q of 3 x 3", Q3, Om, Qn}, {"Q of 4 x 3", Q43, Om, Qn}, {"Omega of 3 x 3", Q, O3, Qn},
               {"Qnew of 3 x 3", Q, Om, N3}, {"Qnew of 4 x 3", Q, Om, N43}};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        gsl_matrix_set_all(bad[k].N, FX_SENTINEL);
        int st = ex07_cayley(bad[k].Q, bad[k].O, 0.1, bad[k].N);
        CHECK_MSG(st == GSL_EBADLEN && fx_matrix_all_equal(bad[k].N, FX_SENTINEL),
                  "%s: status %d (%s), expected GSL_EBADLEN and nothing written", bad[k].what, st,
                  mbd_strerror(st));
    }
    gsl_matrix_free(N43);
    gsl_matrix_free(N3);
    gsl_matrix_free(O3);
    gsl_matrix_free(Q43);
    gsl_matrix_free(Q3);
    gsl_matrix_free(Qn);
    gsl_matrix_free(Om);
    gsl_matrix_free(Q);
}

static CU_TestInfo tests[] = {
    {"Omega is skew with a zero T-T block, every shape", omega_structure},
    {"Omega is Q^T Q' of the smooth factorisation", omega_is_the_derivative},
    {"the predicted basis is second order, the old one first", prediction_order},
    {"the Cayley map turns each plane by 2 atan(h w / 2)", cayley_exact},
    {"the Cayley map: orthogonal, implicit midpoint, O(h^3) from exp", cayley_general},
    {"Omega: bad ranks and sizes are refused", omega_refusals},
    {"Cayley: a non-skew Omega, a bad h, bad sizes are refused", cayley_refusals},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"ex07.4", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
