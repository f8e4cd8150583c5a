/* Grades exercise 09.5: the variable-step BDF coefficients and one
 * quasi-Newton step of BDF in acceleration form -- on a coupled linear
 * system with a rheonomic constraint (exact for quadratic motions), the
 * Cartesian pendulum against its reduced equation (gsl_odeiv2 rk8pd), and
 * the spatial block on an incline through the library's mbd_system (the
 * BDF1 start offset in closed form). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_math.h>
#include <gsl/gsl_odeiv2.h>

#include "check.h"
#include "ex09.h"
#include "fixture.h"

static int verbose(void) { return getenv("EX09_VERBOSE") != NULL; }

/* ------------------------------------------------------------------------ */
/* The coefficients                                                          */

/* Exactness for x = 1, t, t^2 on the grid t_{n-2} = -1/w, t_{n-1} = 0,
 * t_n = 1 (h_n = 1): x_n - alpha0 x_{n-1} - alpha1 x_{n-2} - beta0 x'_n */
static double exactness_defect(const ex09_bdf_coef *c, double w, int degree)
{
    const double tm2 = -1.0 / w;
    switch (degree) {
    case 0:
        return 1.0 - c->alpha[0] - c->alpha[1];
    case 1:
        return 1.0 - c->alpha[1] * tm2 - c->beta0;
    default:
        return 1.0 - c->alpha[1] * tm2 * tm2 - 2.0 * c->beta0;
    }
}

static void coefficients(void)
{
    ex09_bdf_coef c;
    /* w = 1: 2/3, 4/3, -1/3 */
    REQUIRE_STATUS(ex09_bdf_coefficients(2, 1.0, &c), GSL_SUCCESS);
    CHECK_CLOSE(c.beta0, 2.0 / 3.0, 1e-15);
    CHECK_CLOSE(c.alpha[0], 4.0 / 3.0, 1e-15);
    CHECK_CLOSE(c.alpha[1], -1.0 / 3.0, 1e-15);
    /* order 1: implicit Euler, whatever w is (it is not read) */
    const double ws[] = {1.0, 0.37, NAN};
    for (int k = 0; k < 3; k++) {
        REQUIRE_STATUS(ex09_bdf_coefficients(1, ws[k], &c), GSL_SUCCESS);
        CHECK_MSG(c.beta0 == 1.0 && c.alpha[0] == 1.0 && c.alpha[1] == 0.0,
                  "order 1 (w = %g): beta0 %g, alpha (%g, %g), expected 1, (1, 0)", ws[k],
                  c.beta0, c.alpha[0], c.alpha[1]);
    }
    /* order 2 at unequal steps: the only formula exact for 1, t, t^2 */
    const double wv[] = {0.25, 0.5, 0.8, 1.3, 2.0, 2.4};
    for (int k = 0; k < 6; k++) {
        REQUIRE_STATUS(ex09_bdf_coefficients(2, wv[k], &c), GSL_SUCCESS);
        for (int d = 0; d < 3; d++)
            CHECK_MSG(fabs(exactness_defect(&c, wv[k], d)) <= 1e-14,
                      "w = %g: BDF2 not exact for t^%d (defect %.3g; beta0 %g, alpha (%g, %g))",
                      wv[k], d, exactness_defect(&c, wv[k], d), c.beta0, c.alpha[0], c.alpha[1]);
    }
    /* the step ratio's limits: beta0 -> 1 as w -> 0 (a tiny step after a
     * long one), -> 1/2 as w -> infinity */
    REQUIRE_STATUS(ex09_bdf_coefficients(2, 1e-9, &c), GSL_SUCCESS);
    CHECK_CLOSE(c.beta0, 1.0, 1e-8);
    REQUIRE_STATUS(ex09_bdf_coefficients(2, 1e9, &c), GSL_SUCCESS);
    CHECK_CLOSE(c.beta0, 0.5, 1e-8);
}

static void coefficient_refusals(void)
{
    ex09_bdf_coef c = {FX_SENTINEL, {FX_SENTINEL, FX_SENTINEL}};
    CHECK_STATUS(ex09_bdf_coefficients(2, 1.0, NULL), MBD_EINPUT);
    const struct {
        unsigned order;
        double w;
    } bad[] = {{0, 1.0}, {3, 1.0}, {2, 0.0}, {2, -0.5}, {2, NAN}, {2, INFINITY}};
    for (int k = 0; k < 6; k++) {
        const int st = ex09_bdf_coefficients(bad[k].order, bad[k].w, &c);
        CHECK_MSG(st == MBD_EINPUT, "order %u, w = %g: status %d (%s), expected MBD_EINPUT",
                  bad[k].order, bad[k].w, st, mbd_strerror(st));
    }
    CHECK_MSG(c.beta0 == FX_SENTINEL && c.alpha[0] == FX_SENTINEL && c.alpha[1] == FX_SENTINEL,
              "a refused call wrote its output");
}

/* ------------------------------------------------------------------------ */
/* A coupled linear system: constant M (not diagonal) and F, one rheonomic   */
/* row a^T q = f(t) = c0 + c1 t + c2 t^2. Its motion is quadratic in t.      */

static const double LM[3][3] = {{2.0, 0.3, -0.2}, {0.3, 1.5, 0.4}, {-0.2, 0.4, 3.1}};
static const double LF[3] = {0.7, -1.3, 2.2};
static const double LA[3] = {1.0, -0.6, 0.8};
static const double LC[3] = {0.25, -0.4, 0.9};

static double lin_f(double t, int d)
{
    return d == 0 ? LC[0] + t * (LC[1] + t * LC[2]) : d == 1 ? LC[1] + 2 * LC[2] * t : 2 * LC[2];
}

static int lin_mass(const mbd_system *s, double t, const gsl_vector *q, gsl_matrix *M)
{
    (void)s, (void)t, (void)q;
    for (size_t i = 0; i < 3; i++)
        for (size_t j = 0; j < 3; j++)
            gsl_matrix_set(M, i, j, LM[i][j]);
    return GSL_SUCCESS;
}

static int lin_force(const mbd_system *s, double t, const gsl_vector *q, const gsl_vector *qd,
                     gsl_vector *F)
{
    (void)s, (void)t, (void)q, (void)qd;
    for (size_t i = 0; i < 3; i++)
        gsl_vector_set(F, i, LF[i]);
    return GSL_SUCCESS;
}

static int lin_constraint(const mbd_system *s, double t, const gsl_vector *q, gsl_vector *C)
{
    (void)s;
    double g = 0;
    for (size_t i = 0; i < 3; i++)
        g += LA[i] * gsl_vector_get(q, i);
    gsl_vector_set(C, 0, g - lin_f(t, 0));
    if (s->m == 2)   /* the singular variant: the same row twice */
        gsl_vector_set(C, 1, g - lin_f(t, 0));
    return GSL_SUCCESS;
}

static int lin_jacobian(const mbd_system *s, double t, const gsl_vector *q, gsl_matrix *Cq)
{
    (void)t, (void)q;
    /* the singular variant's second row differs from the first by 1e-7 in
     * one entry: the KKT matrix then has a pivot of about
     * (1e-7)^2, below 1e-12 of its largest entry but not exactly zero */
    for (size_t r = 0; r < s->m; r++)
        for (size_t i = 0; i < 3; i++)
            gsl_matrix_set(Cq, r, i, LA[i] + (r == 1 && i == 1 ? 1e-7 : 0.0));
    return GSL_SUCCESS;
}

static int lin_ct(const mbd_system *s, double t, const gsl_vector *q, gsl_vector *Ct)
{
    (void)q;
    for (size_t r = 0; r < s->m; r++)
        gsl_vector_set(Ct, r, -lin_f(t, 1));
    return GSL_SUCCESS;
}

static int lin_gamma(const mbd_system *s, double t, const gsl_vector *q, const gsl_vector *qd,
                     gsl_vector *g)
{
    (void)q, (void)qd;
    for (size_t r = 0; r < s->m; r++)
        gsl_vector_set(g, r, lin_f(t, 2));
    return GSL_SUCCESS;
}

static const mbd_system LIN = {.n = 3, .m = 1, .mass = lin_mass, .force = lin_force,
                               .constraint = lin_constraint, .jacobian = lin_jacobian,
                               .constraint_t = lin_ct, .gamma = lin_gamma};

/* [M a; a^T 0] [x; l] = [F; rhs]: the test's own solve (Cramer's rule on
 * the Schur complement: x = M^-1 (F - a l), a^T x = rhs) */
static void lin_kkt(double rhs, double x[3], double *l)
{
    gsl_matrix *M = gsl_matrix_alloc(3, 3);
    gsl_vector *u = gsl_vector_alloc(3), *v = gsl_vector_alloc(3);
    for (size_t i = 0; i < 3; i++) {
        for (size_t j = 0; j < 3; j++)
            gsl_matrix_set(M, i, j, LM[i][j]);
        gsl_vector_set(u, i, LF[i]);
        gsl_vector_set(v, i, LA[i]);
    }
    gsl_linalg_cholesky_decomp1(M);
    gsl_linalg_cholesky_svx(M, u);   /* M^-1 F */
    gsl_linalg_cholesky_svx(M, v);   /* M^-1 a */
    double aMF = 0, aMa = 0;
    for (size_t i = 0; i < 3; i++) {
        aMF += LA[i] * gsl_vector_get(u, i);
        aMa += LA[i] * gsl_vector_get(v, i);
    }
    *l = (aMF - rhs) / aMa;
    for (size_t i = 0; i < 3; i++)
        x[i] = gsl_vector_get(u, i) - *l * gsl_vector_get(v, i);
    gsl_vector_free(v);
    gsl_vector_free(u);
    gsl_matrix_free(M);
}

/* the exact motion from t0 = 0.7: q0, v0 on the constraint, q'' = a from
 * the KKT system with rhs f'' */
static void lin_exact(double t, double q[3], double v[3], double a[3], double *l)
{
    const double t0 = 0.7;
    double q0[3] = {0.1, 0.2, 0}, v0[3] = {-0.3, 0.5, 0}, acc[3], lam;
    q0[2] = (lin_f(t0, 0) - LA[0] * q0[0] - LA[1] * q0[1]) / LA[2];
    v0[2] = (lin_f(t0, 1) - LA[0] * v0[0] - LA[1] * v0[1]) / LA[2];
    lin_kkt(lin_f(t0, 2), acc, &lam);
    const double tau = t - t0;
    for (int i = 0; i < 3; i++) {
        q[i] = q0[i] + tau * v0[i] + 0.5 * tau * tau * acc[i];
        v[i] = v0[i] + tau * acc[i];
        a[i] = acc[i];
    }
    *l = lam;
}

static void set3(gsl_vector *x, const double v[3])
{
    for (size_t i = 0; i < 3; i++)
        gsl_vector_set(x, i, v[i]);
}

static double diff3(const gsl_vector *x, const double v[3])
{
    double d = 0;
    for (size_t i = 0; i < 3; i++)
        d = fmax(d, fabs(gsl_vector_get(x, i) - v[i]));
    return isnan(gsl_vector_get(x, 0) + gsl_vector_get(x, 1) + gsl_vector_get(x, 2)) ? NAN : d;
}

/* BDF2 from the exact past values at t_{n-2} = t_{n-1} - h / w and t_{n-1}
 * is exact for the quadratic motion, at any w; from a rough guess a linear
 * problem takes two iterations (the first correction solves it, the second
 * is round-off), from the exact solution one. */
static void linear_exact(void)
{
    gsl_vector *q1 = gsl_vector_alloc(3), *v1 = gsl_vector_alloc(3), *q2 = gsl_vector_alloc(3);
    gsl_vector *v2 = gsl_vector_alloc(3), *q = gsl_vector_alloc(3), *v = gsl_vector_alloc(3);
    gsl_vector *a = gsl_vector_alloc(3), *l = gsl_vector_alloc(1);
    const double wv[] = {0.45, 1.0, 1.8};
    for (int k = 0; k < 3; k++) {
        const double w = wv[k], h = 0.05, tn1 = 1.0, tn = tn1 + h, tn2 = tn1 - h / w;
        double x[3], xv[3], xa[3], xl;
        lin_exact(tn2, x, xv, xa, &xl);
        set3(q2, x), set3(v2, xv);
        lin_exact(tn1, x, xv, xa, &xl);
        set3(q1, x), set3(v1, xv);
        gsl_vector_set_zero(a);
        gsl_vector_set_zero(l);
        const ex09_bdf_settings set = {2, h, w, 1e-12, 20};
        unsigned it = 999;
        const int st = ex09_bdf_step(&LIN, tn, &set, q1, v1, q2, v2, q, v, a, l, &it);
        CHECK_MSG(st == GSL_SUCCESS, "w = %g: status %d (%s)", w, st, mbd_strerror(st));
        if (st != GSL_SUCCESS)
            continue;
        lin_exact(tn, x, xv, xa, &xl);
        const double e[4] = {diff3(q, x), diff3(v, xv), diff3(a, xa),
                             fabs(gsl_vector_get(l, 0) - xl)};
        if (verbose())
            printf("\n    w = %g: |q - q(t)| %.1e, q' %.1e, q'' %.1e, lambda %.1e, %u "
                   "iterations", w, e[0], e[1], e[2], e[3], it);
        CHECK_MSG(e[0] <= 1e-13 && e[1] <= 1e-12 && e[2] <= 1e-10 && e[3] <= 1e-10,
                  "w = %g: BDF2 is exact for this quadratic motion; q, q', q'', lambda differ "
                  "by %.3g, %.3g, %.3g, %.3g", w, e[0], e[1], e[2], e[3]);
        CHECK_MSG(it == 2, "w = %g: %u iterations on a linear problem (expected 2: one that "
                           "solves it, one that finds the correction negligible)", w, it);
        /* from the solution: one iteration, nothing moves */
        it = 999;
        if (ex09_bdf_step(&LIN, tn, &set, q1, v1, q2, v2, q, v, a, l, &it) == GSL_SUCCESS)
            CHECK_MSG(it == 1 && diff3(a, xa) <= 1e-10,
                      "w = %g, from the solution: %u iterations (expected 1), q'' off by %.3g", w,
                      it, diff3(a, xa));
    }
    gsl_vector_free(l);
    gsl_vector_free(a);
    gsl_vector_free(v);
    gsl_vector_free(q);
    gsl_vector_free(v2);
    gsl_vector_free(q2);
    gsl_vector_free(v1);
    gsl_vector_free(q1);
}

/* BDF1 from the exact state at t_{n-1}: q' = q'_{n-1} + h q'', q = q_{n-1} +
 * h q', with the row a^T q_n = f(t_n) fixing a^T q'' = (f(t_n) - f(t_{n-1})
 * - h f'(t_{n-1})) / h^2 = c2, half of f'' (the index-3 method puts the
 * constraint on the positions): the step's q'' and lambda are the KKT
 * solution with that right-hand side. */
static void linear_bdf1(void)
{
    gsl_vector *q1 = gsl_vector_alloc(3), *v1 = gsl_vector_alloc(3), *q = gsl_vector_alloc(3);
    gsl_vector *v = gsl_vector_alloc(3), *a = gsl_vector_alloc(3), *l = gsl_vector_alloc(1);
    const double h = 0.04, tn1 = 1.13, tn = tn1 + h;
    double x[3], xv[3], xa[3], xl;
    lin_exact(tn1, x, xv, xa, &xl);
    set3(q1, x), set3(v1, xv);
    gsl_vector_set_all(a, 0.5);
    gsl_vector_set_all(l, -2.0);
    const ex09_bdf_settings set = {1, h, NAN, 1e-12, 20};
    unsigned it;
    const int st = ex09_bdf_step(&LIN, tn, &set, q1, v1, NULL, NULL, q, v, a, l, &it);
    CHECK_STATUS(st, GSL_SUCCESS);
    if (st == GSL_SUCCESS) {
        double ea[3], el, eq[3], ev[3];
        lin_kkt((lin_f(tn, 0) - lin_f(tn1, 0) - h * lin_f(tn1, 1)) / (h * h), ea, &el);
        for (int i = 0; i < 3; i++) {
            ev[i] = xv[i] + h * ea[i];
            eq[i] = x[i] + h * ev[i];
        }
        CHECK_MSG(diff3(q, eq) <= 1e-13 && diff3(v, ev) <= 1e-12 && diff3(a, ea) <= 1e-10
                      && fabs(gsl_vector_get(l, 0) - el) <= 1e-10,
                  "BDF1: q, q', q'', lambda differ from the closed form by %.3g, %.3g, %.3g, "
                  "%.3g", diff3(q, eq), diff3(v, ev), diff3(a, ea),
                  fabs(gsl_vector_get(l, 0) - el));
        /* and from the exact past the position error is h^2 (q'' - q''_exact)
         * on top of the exact motion: not the exact motion */
        lin_exact(tn, x, xv, xa, &xl);
        CHECK_MSG(diff3(q, x) > 1e-6, "BDF1 reproduced the quadratic motion exactly: it "
                                      "cannot (it is exact for linear motions only)");
    }
    gsl_vector_free(l);
    gsl_vector_free(a);
    gsl_vector_free(v);
    gsl_vector_free(q);
    gsl_vector_free(v1);
    gsl_vector_free(q1);
}

/* ------------------------------------------------------------------------ */
/* The Cartesian pendulum: a mass on a circle about P, gravity not along    */
/* an axis. Reduced: x = P + L (sin th, -cos th), th'' = (gx cos th + gy    */
/* sin th) / L.                                                              */

#define PL 1.3
#define PM 0.8
static const double PP[2] = {0.3, -0.2}, PG[2] = {1.2, -9.5};

static int pend_mass(const mbd_system *s, double t, const gsl_vector *q, gsl_matrix *M)
{
    (void)s, (void)t, (void)q;
    gsl_matrix_set_identity(M);
    gsl_matrix_scale(M, PM);
    return GSL_SUCCESS;
}

static int pend_force(const mbd_system *s, double t, const gsl_vector *q, const gsl_vector *qd,
                      gsl_vector *F)
{
    (void)s, (void)t, (void)q, (void)qd;
    gsl_vector_set(F, 0, PM * PG[0]);
    gsl_vector_set(F, 1, PM * PG[1]);
    return GSL_SUCCESS;
}

static int pend_constraint(const mbd_system *s, double t, const gsl_vector *q, gsl_vector *C)
{
    (void)s, (void)t;
    const double dx = gsl_vector_get(q, 0) - PP[0], dy = gsl_vector_get(q, 1) - PP[1];
    gsl_vector_set(C, 0, dx * dx + dy * dy - PL * PL);
    return GSL_SUCCESS;
}

static int pend_jacobian(const mbd_system *s, double t, const gsl_vector *q, gsl_matrix *Cq)
{
    (void)s, (void)t;
    gsl_matrix_set(Cq, 0, 0, 2 * (gsl_vector_get(q, 0) - PP[0]));
    gsl_matrix_set(Cq, 0, 1, 2 * (gsl_vector_get(q, 1) - PP[1]));
    return GSL_SUCCESS;
}

static int pend_gamma(const mbd_system *s, double t, const gsl_vector *q, const gsl_vector *qd,
                      gsl_vector *g)
{
    (void)s, (void)t, (void)q;
    const double u = gsl_vector_get(qd, 0), v = gsl_vector_get(qd, 1);
    gsl_vector_set(g, 0, -2 * (u * u + v * v));
    return GSL_SUCCESS;
}

static const mbd_system PEND = {.n = 2, .m = 1, .mass = pend_mass, .force = pend_force,
                                .constraint = pend_constraint, .jacobian = pend_jacobian,
                                .gamma = pend_gamma};

static int reduced_rhs(double t, const double y[], double dy[], void *p)
{
    (void)t, (void)p;
    dy[0] = y[1];
    dy[1] = (PG[0] * cos(y[0]) + PG[1] * sin(y[0])) / PL;
    return GSL_SUCCESS;
}

#define PT0 0.4
#define PTH0 0.9
#define PW0 -1.1

/* theta, theta' at t by rk8pd from (PTH0, PW0) at PT0 */
static void reduced_at(double t, double y[2])
{
    gsl_odeiv2_system sys = {reduced_rhs, NULL, 2, NULL};
    gsl_odeiv2_driver *d = gsl_odeiv2_driver_alloc_y_new(&sys, gsl_odeiv2_step_rk8pd, 1e-4,
                                                         1e-13, 1e-13);
    double tt = PT0;
    y[0] = PTH0, y[1] = PW0;
    gsl_odeiv2_driver_apply(d, &tt, t, y);
    gsl_odeiv2_driver_free(d);
}

static void pend_state(const double y[2], gsl_vector *q, gsl_vector *v)
{
    gsl_vector_set(q, 0, PP[0] + PL * sin(y[0]));
    gsl_vector_set(q, 1, PP[1] - PL * cos(y[0]));
    gsl_vector_set(v, 0, PL * cos(y[0]) * y[1]);
    gsl_vector_set(v, 1, PL * sin(y[0]) * y[1]);
}

/* A run of steps hs[0], hs[1], ... (cycled) from PT0 to t1 with the
 * student's step: the first at order 1, then at `order` with w = h_n /
 * h_{n-1}. err[0]: max |q - q_ref| at t1, err[1]: |lambda - lambda_ref|
 * there, lambda_ref = m (g . e + L th'^2) / (2 L). 0 on a failure. */
static int pend_run(unsigned order, const double *hs, int nh, double t1, double err[2])
{
    gsl_vector *q = gsl_vector_alloc(2), *v = gsl_vector_alloc(2), *a = gsl_vector_alloc(2);
    gsl_vector *q1 = gsl_vector_alloc(2), *v1 = gsl_vector_alloc(2), *q2 = gsl_vector_alloc(2);
    gsl_vector *v2 = gsl_vector_alloc(2), *l = gsl_vector_alloc(1);
    double y[2] = {PTH0, PW0}, t = PT0, hprev = 0;
    pend_state(y, q1, v1);
    gsl_vector_set_zero(a);
    gsl_vector_set_zero(l);
    int ok = 1;
    for (int k = 0; t < t1 - 1e-12; k++) {
        const double h = hs[k % nh];
        const ex09_bdf_settings set = {k == 0 ? 1 : order, h, k == 0 ? 1.0 : h / hprev, 1e-12, 30};
        const int st = ex09_bdf_step(&PEND, t + h, &set, q1, v1, q2, v2, q, v, a, l, NULL);
        if (st != GSL_SUCCESS) {
            CHECK_MSG(0, "the pendulum, step %d at t = %.4f: status %d (%s)", k, t + h, st,
                      mbd_strerror(st));
            ok = 0;
            break;
        }
        gsl_vector_memcpy(q2, q1), gsl_vector_memcpy(v2, v1);
        gsl_vector_memcpy(q1, q), gsl_vector_memcpy(v1, v);
        t += h, hprev = h;
    }
    if (ok) {
        reduced_at(t, y);
        gsl_vector *qr = gsl_vector_alloc(2), *vr = gsl_vector_alloc(2);
        pend_state(y, qr, vr);
        err[0] = fmax(fabs(gsl_vector_get(q, 0) - gsl_vector_get(qr, 0)),
                      fabs(gsl_vector_get(q, 1) - gsl_vector_get(qr, 1)));
        const double e[2] = {sin(y[0]), -cos(y[0])};
        const double lr = PM * (PG[0] * e[0] + PG[1] * e[1] + PL * y[1] * y[1]) / (2 * PL);
        err[1] = fabs(gsl_vector_get(l, 0) - lr);
        gsl_vector_free(vr);
        gsl_vector_free(qr);
    }
    gsl_vector_free(l);
    gsl_vector_free(v2);
    gsl_vector_free(q2);
    gsl_vector_free(v1);
    gsl_vector_free(q1);
    gsl_vector_free(a);
    gsl_vector_free(v);
    gsl_vector_free(q);
    return ok;
}

/* The order of accuracy at t1 = 1.9: the error ratio when every step halves
 * is about 4 for BDF2 (equal steps, and steps alternating h and 1.5 h), about
 * 2 for BDF1 */
static void pendulum_order(void)
{
    const double t1 = PT0 + 1.5;
    struct {
        const char *what;
        unsigned order;
        double hs[2];
        int nh;
        double lo, hi, bq, bl;
    } cases[] = {{"BDF2, equal steps", 2, {0.02, 0}, 1, 3.5, 4.6, 2.5e-3, 1e-2},
                 {"BDF2, steps h and 1.5 h", 2, {0.02, 0.03}, 2, 3.5, 4.6, 4e-3, 5e-2},
                 {"BDF1", 1, {0.02, 0}, 1, 1.6, 2.3, 6e-2, 0.4}};
    for (int c = 0; c < 3; c++) {
        double e1[2], e2[2], half[2] = {cases[c].hs[0] / 2, cases[c].hs[1] / 2};
        if (!pend_run(cases[c].order, cases[c].hs, cases[c].nh, t1, e1)
            || !pend_run(cases[c].order, half, cases[c].nh, t1, e2))
            continue;
        const double ratio = e1[0] / e2[0];
        if (verbose())
            printf("\n    %s: |q - q_ref| %.3e, %.3e (ratio %.3f); |lambda - lambda_ref| %.3e, "
                   "%.3e", cases[c].what, e1[0], e2[0], ratio, e1[1], e2[1]);
        CHECK_MSG(ratio >= cases[c].lo && ratio <= cases[c].hi,
                  "%s: the error ratio when h halves is %.3f (errors %.3g, %.3g), expected "
                  "%.1f to %.1f", cases[c].what, ratio, e1[0], e2[0], cases[c].lo, cases[c].hi);
        CHECK_MSG(e2[0] <= cases[c].bq && e2[1] <= cases[c].bl,
                  "%s: at the smaller h, q differs from the reduced solution by %.3g (bound "
                  "%.3g), lambda by %.3g (bound %.3g)", cases[c].what, e2[0], cases[c].bq, e2[1],
                  cases[c].bl);
    }
}

/* ------------------------------------------------------------------------ */
/* The spatial block on an incline (the guide's Sec. 7.5, C3): a body on a   */
/* translational joint along u, gravity -z. Its acceleration is (g . u) u;   */
/* from a consistent start, BDF1 then BDF2 leave the positions behind by     */
/* (3/4) h^2 a (1 - 3^-n) (the guide's Sec. 8, item 4), velocities exact.    */

static void block_run(void)
{
    double u[3] = {0.6, -0.3, -0.74}, b1[3], b2[3], tmp[3] = {0, 0, 1};
    const double lu = sqrt(fx_dot3(u, u));
    for (int k = 0; k < 3; k++)
        u[k] /= lu;
    fx_cross(u, tmp, b1);
    const double l1 = sqrt(fx_dot3(b1, b1));
    for (int k = 0; k < 3; k++)
        b1[k] /= l1;
    fx_cross(u, b1, b2);
    /* the block turned by a general rotation: its frame's vectors */
    double ax[3], th, p0[4], A[3][3], cu[3], cb[3];
    fx_rng g = {77};
    fx_random_rotation(&g, ax, &th, p0);
    fx_A(p0, A);
    for (int k = 0; k < 3; k++) {
        cu[k] = A[0][k] * u[0] + A[1][k] * u[1] + A[2][k] * u[2];   /* A^T u */
        cb[k] = A[0][k] * b2[0] + A[1][k] * b2[1] + A[2][k] * b2[2];
    }
    double J[3][3] = {{0.4, 0.05, -0.02}, {0.05, 0.3, 0.01}, {-0.02, 0.01, 0.5}};
    mbd_spatial_model *sm = mbd_spatial_alloc();
    const int gr = mbd_spatial_add_ground(sm, "ground");
    const int bk = mbd_spatial_add_body(sm, "block", 2.5, J);
    mbd_spatial_set_gravity(sm, (const double[]){0, 0, -9.81});
    mbd_spatial_add_translational(sm, "slide", gr, (const double[]){0.2, 0.1, 0.3}, b1, b2, bk,
                                  (const double[]){0.05, -0.1, 0.02}, cu, cb);
    if (mbd_spatial_finish(sm) != GSL_SUCCESS) {
        CHECK_MSG(0, "the test's block did not build");
        mbd_spatial_free(sm);
        return;
    }
    const mbd_system *s = mbd_spatial_system(sm);
    const size_t n = s->n, m = s->m;
    /* the point Q of the block on the line through P along u: r0 = P + s u - A sq */
    double r0[3], sq[3] = {0.05, -0.1, 0.02}, Asq[3], P[3] = {0.2, 0.1, 0.3};
    fx_matvec(A, sq, Asq);
    for (int k = 0; k < 3; k++)
        r0[k] = P[k] + 0.4 * u[k] - Asq[k];
    gsl_vector *q1 = gsl_vector_alloc(n), *v1 = gsl_vector_alloc(n), *q2 = gsl_vector_alloc(n);
    gsl_vector *v2 = gsl_vector_alloc(n), *q = gsl_vector_alloc(n), *v = gsl_vector_alloc(n);
    gsl_vector *a = gsl_vector_alloc(n), *l = gsl_vector_alloc(m), *r = gsl_vector_alloc(n);
    gsl_matrix *Cq = gsl_matrix_alloc(m, n), *M = gsl_matrix_alloc(n, n);
    gsl_vector *C = gsl_vector_alloc(m);
    mbd_spatial_set_pose(sm, bk, r0, p0, q1);
    gsl_vector_set_zero(v1);
    const double t0 = 0.35, h = 0.02, v0 = 0.4, acc = -9.81 * u[2];
    for (int k = 0; k < 3; k++)
        gsl_vector_set(v1, (size_t)k, v0 * u[k]);
    gsl_vector_set_zero(a);
    gsl_vector_set_zero(l);
    double eq = 0, ev = 0, ea = 0, ep = 0, eres = 0, ephi = 0;
    int ok = 1;
    for (int k = 1; k <= 12 && ok; k++) {
        const ex09_bdf_settings set = {k == 1 ? 1 : 2, h, 1.0, 1e-14, 20};
        const double t = t0 + k * h;
        const int st = ex09_bdf_step(s, t, &set, q1, v1, q2, v2, q, v, a, l, NULL);
        if (st != GSL_SUCCESS) {
            CHECK_MSG(0, "the block, step %d: status %d (%s)", k, st, mbd_strerror(st));
            ok = 0;
            break;
        }
        const double tau = k * h;
        for (int x = 0; x < 3; x++) {
            const double s0 = 0.4 + v0 * tau + 0.5 * acc * tau * tau + 0.75 * h * h * acc
                                                                           * (1 - pow(3.0, -k));
            eq = fmax(eq, fabs(gsl_vector_get(q, (size_t)x) - (P[x] + s0 * u[x] - Asq[x])));
            ev = fmax(ev, fabs(gsl_vector_get(v, (size_t)x) - (v0 + acc * tau) * u[x]));
            ea = fmax(ea, fabs(gsl_vector_get(a, (size_t)x) - acc * u[x]));
        }
        for (size_t x = 0; x < 4; x++)
            ep = fmax(ep, fabs(gsl_vector_get(q, 3 + x) - p0[x]) + fabs(gsl_vector_get(v, 3 + x))
                              + fabs(gsl_vector_get(a, 3 + x)));
        /* lambda: the equations of motion hold with it (the model's callbacks) */
        s->mass(s, t, q, M);
        s->force(s, t, q, v, r);
        s->jacobian(s, t, q, Cq);
        gsl_blas_dgemv(CblasNoTrans, 1.0, M, a, -1.0, r);
        gsl_blas_dgemv(CblasTrans, 1.0, Cq, l, 1.0, r);
        eres = fmax(eres, fx_vmax(r));
        s->constraint(s, t, q, C);
        ephi = fmax(ephi, fx_vmax(C));
        gsl_vector_memcpy(q2, q1), gsl_vector_memcpy(v2, v1);
        gsl_vector_memcpy(q1, q), gsl_vector_memcpy(v1, v);
    }
    if (verbose())
        printf("\n    block: r vs closed form with offset %.1e, r' %.1e, r'' %.1e, p %.1e, EOM "
               "residual %.1e, |Phi| %.1e", eq, ev, ea, ep, eres, ephi);
    if (ok) {
        CHECK_MSG(eq <= 1e-12, "the block's r differs from r(t) + (3/4) h^2 a (1 - 3^-n) u by "
                               "%.3g", eq);
        CHECK_MSG(ev <= 1e-11 && ea <= 1e-9, "the block's r', r'' differ from the exact ones "
                                             "by %.3g, %.3g", ev, ea);
        CHECK_MSG(ep <= 1e-10, "the block's orientation moved (|dp| + |p'| + |p''| = %.3g)", ep);
        CHECK_MSG(eres <= 1e-9 && ephi <= 1e-12,
                  "the block: |M q'' + Phi_q^T lambda - F| = %.3g, |Phi| = %.3g", eres, ephi);
    }
    gsl_vector_free(C);
    gsl_matrix_free(M);
    gsl_matrix_free(Cq);
    gsl_vector_free(r);
    gsl_vector_free(l);
    gsl_vector_free(a);
    gsl_vector_free(v);
    gsl_vector_free(q);
    gsl_vector_free(v2);
    gsl_vector_free(q2);
    gsl_vector_free(v1);
    gsl_vector_free(q1);
    mbd_spatial_free(sm);
}

/* ------------------------------------------------------------------------ */
/* Newton: max_iter, tol, and the failures                                  */

typedef struct {
    gsl_vector *q1, *v1, *q2, *v2, *q, *v, *a, *l;
} pstep;

static void pstep_init(pstep *p)
{
    double y[2] = {PTH0, PW0}, y1[2];
    p->q1 = gsl_vector_alloc(2), p->v1 = gsl_vector_alloc(2), p->q2 = gsl_vector_alloc(2);
    p->v2 = gsl_vector_alloc(2), p->q = gsl_vector_alloc(2), p->v = gsl_vector_alloc(2);
    p->a = gsl_vector_alloc(2), p->l = gsl_vector_alloc(1);
    reduced_at(PT0 + 0.06, y1);
    pend_state(y, p->q2, p->v2);
    pend_state(y1, p->q1, p->v1);
    gsl_vector_set_zero(p->a);
    gsl_vector_set_zero(p->l);
}

static void pstep_free(pstep *p)
{
    gsl_vector *all[] = {p->q1, p->v1, p->q2, p->v2, p->q, p->v, p->a, p->l};
    for (int k = 0; k < 8; k++)
        gsl_vector_free(all[k]);
}

/* a step expected to fail: the status, and nothing written (q, q' keep the
 * sentinel, q'' and lambda the guess, the count its value) */
static void refused(const char *what, const mbd_system *s, double t, const ex09_bdf_settings *set,
                    pstep *p, const gsl_vector *q2, const gsl_vector *v2, int expected)
{
    gsl_vector *a0 = gsl_vector_alloc(p->a->size), *l0 = gsl_vector_alloc(p->l->size);
    gsl_vector_memcpy(a0, p->a);
    gsl_vector_memcpy(l0, p->l);
    gsl_vector_set_all(p->q, FX_SENTINEL);
    gsl_vector_set_all(p->v, FX_SENTINEL);
    unsigned it = 4242;
    const int st = ex09_bdf_step(s, t, set, p->q1, p->v1, q2, v2, p->q, p->v, p->a, p->l, &it);
    CHECK_MSG(st == expected, "%s: status %d (%s), expected %d (%s)", what, st, mbd_strerror(st),
              expected, mbd_strerror(expected));
    gsl_vector_sub(a0, p->a);
    gsl_vector_sub(l0, p->l);
    CHECK_MSG(fx_vector_is(p->q, FX_SENTINEL) && fx_vector_is(p->v, FX_SENTINEL)
                  && fx_vmax(a0) == 0.0 && fx_vmax(l0) == 0.0 && it == 4242,
              "%s: an output was written on an error", what);
    gsl_vector_set_zero(p->a);
    gsl_vector_set_zero(p->l);
    gsl_vector_free(l0);
    gsl_vector_free(a0);
}

/* A BDF2 step of the pendulum (h = 0.06, w = 0.75) from q'' = 0, lambda = 0:
 * k iterations; max_iter = k gives the same, k - 1 fails; a looser tol
 * takes fewer and lands within it */
static void newton_limits(void)
{
    pstep p;
    pstep_init(&p);
    const double t = PT0 + 0.06 + 0.045;
    ex09_bdf_settings set = {2, 0.045, 0.75, 1e-12, 50};
    unsigned k = 0;
    const int st = ex09_bdf_step(&PEND, t, &set, p.q1, p.v1, p.q2, p.v2, p.q, p.v, p.a, p.l, &k);
    CHECK_STATUS(st, GSL_SUCCESS);
    if (st == GSL_SUCCESS) {
        if (verbose())
            printf("\n    %u iterations from q'' = 0", k);
        CHECK_MSG(k >= 3 && k <= 20, "%u iterations from q'' = 0 (expected 3 to 20)", k);
        gsl_vector *qk = gsl_vector_alloc(2);
        gsl_vector_memcpy(qk, p.q);
        /* the step satisfies the constraint at t and the BDF map */
        gsl_vector *C = gsl_vector_alloc(1);
        pend_constraint(&PEND, t, p.q, C);
        CHECK_LE(fabs(gsl_vector_get(C, 0)), 1e-11);
        gsl_vector_free(C);
        /* max_iter = k */
        gsl_vector_set_zero(p.a), gsl_vector_set_zero(p.l);
        set.max_iter = k;
        unsigned k2 = 0;
        if (ex09_bdf_step(&PEND, t, &set, p.q1, p.v1, p.q2, p.v2, p.q, p.v, p.a, p.l, &k2)
            == GSL_SUCCESS) {
            gsl_vector_sub(qk, p.q);
            CHECK_MSG(k2 == k && fx_vmax(qk) == 0.0, "max_iter = %u: %u iterations, q differs "
                                                     "by %.3g", k, k2, fx_vmax(qk));
        } else {
            CHECK_MSG(0, "max_iter = %u (the iterations it takes) failed", k);
        }
        gsl_vector_set_zero(p.a), gsl_vector_set_zero(p.l);
        set.max_iter = k - 1;
        refused("max_iter one less than needed", &PEND, t, &set, &p, p.q2, p.v2, MBD_ENOCONV);
        /* a looser tol */
        set.max_iter = 50;
        set.tol = 1e-3;
        unsigned k3 = 0;
        gsl_vector_memcpy(qk, p.q);
        if (ex09_bdf_step(&PEND, t, &set, p.q1, p.v1, p.q2, p.v2, p.q, p.v, p.a, p.l, &k3)
            == GSL_SUCCESS)
            CHECK_MSG(k3 < k && k3 >= 1, "tol = 1e-3: %u iterations (%u at 1e-12)", k3, k);
        else
            CHECK_MSG(0, "tol = 1e-3 failed");
        gsl_vector_free(qk);
    }
    pstep_free(&p);
}

static void failures(void)
{
    pstep p;
    pstep_init(&p);
    const double t = PT0 + 0.1;
    const ex09_bdf_settings good = {2, 0.04, 1.5, 1e-12, 20};
    /* the same row twice, up to 1e-7: [M Phi_q^T; Phi_q 0] is singular by the
     * rule (a pivot of about 1e-14), though no pivot is exactly zero */
    mbd_system twice = LIN;
    twice.m = 2;
    {
        pstep r;
        r.q1 = gsl_vector_alloc(3), r.v1 = gsl_vector_alloc(3), r.q2 = gsl_vector_alloc(3);
        r.v2 = gsl_vector_alloc(3), r.q = gsl_vector_alloc(3), r.v = gsl_vector_alloc(3);
        r.a = gsl_vector_alloc(3), r.l = gsl_vector_alloc(2);
        double x[3], xv[3], xa[3], xl;
        lin_exact(1.0, x, xv, xa, &xl);
        set3(r.q1, x), set3(r.v1, xv);
        lin_exact(0.97, x, xv, xa, &xl);
        set3(r.q2, x), set3(r.v2, xv);
        gsl_vector_set_zero(r.a), gsl_vector_set_zero(r.l);
        refused("a row twice, up to 1e-7 (singular by the rule)", &twice, 1.04, &good, &r, r.q2, r.v2, MBD_ESINGULAR);
        pstep_free(&r);
    }
    /* refusals */
    ex09_bdf_settings bad = good;
    refused("s = NULL", NULL, t, &good, &p, p.q2, p.v2, MBD_EINPUT);
    refused("set = NULL", &PEND, t, NULL, &p, p.q2, p.v2, MBD_EINPUT);
    refused("q2 = NULL at order 2", &PEND, t, &good, &p, NULL, p.v2, MBD_EINPUT);
    refused("qd2 = NULL at order 2", &PEND, t, &good, &p, p.q2, NULL, MBD_EINPUT);
    bad.order = 3;
    refused("order 3", &PEND, t, &bad, &p, p.q2, p.v2, MBD_EINPUT);
    bad = good, bad.h = 0;
    refused("h = 0", &PEND, t, &bad, &p, p.q2, p.v2, MBD_EINPUT);
    bad = good, bad.h = -0.01;
    refused("h < 0", &PEND, t, &bad, &p, p.q2, p.v2, MBD_EINPUT);
    bad = good, bad.w = 0;
    refused("w = 0 at order 2", &PEND, t, &bad, &p, p.q2, p.v2, MBD_EINPUT);
    bad = good, bad.w = NAN;
    refused("w = NaN at order 2", &PEND, t, &bad, &p, p.q2, p.v2, MBD_EINPUT);
    bad = good, bad.tol = 0;
    refused("tol = 0", &PEND, t, &bad, &p, p.q2, p.v2, MBD_EINPUT);
    bad = good, bad.tol = INFINITY;
    refused("tol = inf", &PEND, t, &bad, &p, p.q2, p.v2, MBD_EINPUT);
    bad = good, bad.max_iter = 0;
    refused("max_iter = 0", &PEND, t, &bad, &p, p.q2, p.v2, MBD_EINPUT);
    refused("t = NaN", &PEND, NAN, &good, &p, p.q2, p.v2, MBD_EINPUT);
    gsl_vector_set(p.v1, 1, NAN);
    refused("q'_{n-1} with a NaN", &PEND, t, &good, &p, p.q2, p.v2, MBD_EINPUT);
    gsl_vector_set(p.v1, 1, 0.1);
    gsl_vector_set(p.a, 0, INFINITY);
    refused("a guess q'' with an inf", &PEND, t, &good, &p, p.q2, p.v2, MBD_EINPUT);
    gsl_vector *three = gsl_vector_alloc(3);
    gsl_vector_set_zero(three);
    refused("q_{n-2} of 3 entries", &PEND, t, &good, &p, three, p.v2, GSL_EBADLEN);
    gsl_vector *l1 = p.l;
    p.l = three;
    refused("lambda of 3 entries", &PEND, t, &good, &p, p.q2, p.v2, GSL_EBADLEN);
    p.l = l1;
    gsl_vector_free(three);
    /* order 1 needs no q_{n-2}, and does not read w */
    const ex09_bdf_settings one = {1, 0.04, NAN, 1e-12, 20};
    CHECK_STATUS(ex09_bdf_step(&PEND, t, &one, p.q1, p.v1, NULL, NULL, p.q, p.v, p.a, p.l, NULL),
                 GSL_SUCCESS);
    pstep_free(&p);
}

static CU_TestInfo tests[] = {
    {"the coefficients: exact for 1, t, t^2 at any step ratio", coefficients},
    {"the coefficients: bad orders and step ratios refused", coefficient_refusals},
    {"BDF2 is exact for a quadratic motion (coupled, rheonomic, any w)", linear_exact},
    {"BDF1 on the coupled system in closed form", linear_bdf1},
    {"the pendulum against its reduced equation: the order", pendulum_order},
    {"the spatial block on an incline: the BDF1 start offset", block_run},
    {"Newton: max_iter and tol", newton_limits},
    {"a singular matrix, and bad settings, states and sizes", failures},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"ex09.5", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
