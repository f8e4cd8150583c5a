/* Grades exercise 06.3: embedding by coordinate partitioning. */
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>

#include "check.h"
#include "ex06.h"
#include "fixture.h"

/* ------------------------------------------------------------------------ */
/* Cases: a Jacobian, a choice of independent coordinates                    */

typedef struct {
    const char *name;
    size_t m, n;
    double Cq[4][6];
    size_t indep[4];
} jcase;

static const fx_dpend DP = {1.3, 0.9, 0.7, 1.4};

/* general non-symmetric Jacobians and unsorted choices; the double pendulum's
 * are filled in by make_cases() */
static jcase CASES[] = {
    {"2 x 5, q_i = (q4, q1, q2)", 2, 5,
     {{1.2, -0.7, 0.4, 2.0, -1.1}, {0.3, 1.5, -0.9, 0.6, 0.8}}, {4, 1, 2}},
    {"2 x 5, q_i = (q0, q2, q3)", 2, 5,
     {{1.2, -0.7, 0.4, 2.0, -1.1}, {0.3, 1.5, -0.9, 0.6, 0.8}}, {0, 2, 3}},
    {"3 x 5, q_i = (q4, q0)", 3, 5,
     {{1.2, -0.7, 0.4, 2.0, -1.1}, {0.3, 1.5, -0.9, 0.6, 0.8}, {0.5, 0.2, 1.7, -0.4, 1.0}}, {4, 0}},
    {"3 x 5, q_i = (q3, q1)", 3, 5,
     {{1.2, -0.7, 0.4, 2.0, -1.1}, {0.3, 1.5, -0.9, 0.6, 0.8}, {0.5, 0.2, 1.7, -0.4, 1.0}}, {3, 1}},
    {"double pendulum, q_i = (th2, th1)", 4, 6, {{0}}, {5, 2}},
    {"double pendulum, q_i = (x1, th2)", 4, 6, {{0}}, {0, 5}},
};
#define NCASES (sizeof CASES / sizeof CASES[0])

/* the double pendulum's pose for the Jacobian cases */
static void dpend_state(double q[6], double v[6])
{
    fx_dpend_pose(&DP, 0.6, -0.9, q);
    const double w1 = 1.3, w2 = -2.2;
    v[0] = -0.5 * DP.l1 * sin(q[2]) * w1;
    v[1] = 0.5 * DP.l1 * cos(q[2]) * w1;
    v[2] = w1;
    v[3] = -DP.l1 * sin(q[2]) * w1 - 0.5 * DP.l2 * sin(q[5]) * w2;
    v[4] = DP.l1 * cos(q[2]) * w1 + 0.5 * DP.l2 * cos(q[5]) * w2;
    v[5] = w2;
}

static gsl_matrix *case_jacobian(const jcase *c)
{
    gsl_matrix *Cq = gsl_matrix_alloc(c->m, c->n);
    if (c->n == 6) {
        double q[6], v[6];
        dpend_state(q, v);
        fx_dpend_jacobian(&DP, q, Cq);
    } else {
        for (size_t i = 0; i < c->m; i++)
            for (size_t j = 0; j < c->n; j++)
                gsl_matrix_set(Cq, i, j, c->Cq[i][j]);
    }
    return Cq;
}

/* a symmetric positive definite n x n matrix, every entry coupled */
static gsl_matrix *full_mass(size_t n)
{
    gsl_matrix *L = gsl_matrix_alloc(n, n), *M = gsl_matrix_alloc(n, n);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            gsl_matrix_set(L, i, j, j <= i ? 0.3 * sin(1.0 + i + 2.7 * j) + (i == j ? 1.5 + 0.2 * i : 0) : 0);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) {
            double s = 0;
            for (size_t k = 0; k < n; k++)
                s += gsl_matrix_get(L, i, k) * gsl_matrix_get(L, j, k);
            gsl_matrix_set(M, i, j, s);
        }
    gsl_matrix_free(L);
    return M;
}

/* ------------------------------------------------------------------------ */

/* B has C_q B = 0 and I_d B = I (row indep[l] of B is e_l): these fix B, in
 * q's own order, without computing it the way a solution does */
static void transform_properties(void)
{
    for (size_t s = 0; s < NCASES; s++) {
        const jcase *c = &CASES[s];
        const size_t k = c->n - c->m;
        gsl_matrix *Cq = case_jacobian(c), *B = gsl_matrix_alloc(c->n, k);
        fx_fill(B, NAN);
        int st = ex06_velocity_transform(Cq, c->indep, B);
        CHECK_STATUS(st, GSL_SUCCESS);
        if (st == GSL_SUCCESS) {
            double worst = 0, worst_id = 0;
            for (size_t i = 0; i < c->m; i++)
                for (size_t l = 0; l < k; l++) {
                    double s2 = 0;
                    for (size_t j = 0; j < c->n; j++)
                        s2 += gsl_matrix_get(Cq, i, j) * gsl_matrix_get(B, j, l);
                    if (!(fabs(s2) <= worst))
                        worst = fabs(s2);
                }
            for (size_t l = 0; l < k; l++)
                for (size_t l2 = 0; l2 < k; l2++) {
                    const double e = gsl_matrix_get(B, c->indep[l], l2) - (l == l2 ? 1.0 : 0.0);
                    if (!(fabs(e) <= worst_id))
                        worst_id = fabs(e);
                }
            CHECK_MSG(worst <= 1e-12, "%s: |C_q B| reaches %.3g, expected 0", c->name, worst);
            CHECK_MSG(worst_id <= 1e-12, "%s: the rows indep[l] of B differ from the identity "
                      "by %.3g (is B in q's own order?)", c->name, worst_id);
        }
        gsl_matrix_free(B);
        gsl_matrix_free(Cq);
    }
}

/* the rod pinned at its end: B in closed form for theta independent and for
 * x independent (the pin fixes r_P' = R' + theta' A_theta u_P = 0) */
static void transform_pendulum(void)
{
    const double l = 1.2, ths[] = {0.7, 2.6, -1.1};
    gsl_matrix *Cq = gsl_matrix_alloc(2, 3), *B = gsl_matrix_alloc(3, 1);
    for (size_t i = 0; i < 3; i++) {
        const double th = ths[i];
        const double a = 0.5 * l * sin(th), b = -0.5 * l * cos(th);   /* A_theta u_P */
        fx_rod_jacobian(l, th, Cq);
        const size_t it[1] = {2}, ix[1] = {0};
        fx_fill(B, NAN);
        CHECK_STATUS(ex06_velocity_transform(Cq, it, B), GSL_SUCCESS);
        CHECK_CLOSE(gsl_matrix_get(B, 0, 0), -a, 1e-13);
        CHECK_CLOSE(gsl_matrix_get(B, 1, 0), -b, 1e-13);
        CHECK_CLOSE(gsl_matrix_get(B, 2, 0), 1.0, 1e-13);
        fx_fill(B, NAN);
        CHECK_STATUS(ex06_velocity_transform(Cq, ix, B), GSL_SUCCESS);
        CHECK_CLOSE(gsl_matrix_get(B, 0, 0), 1.0, 1e-13);
        CHECK_CLOSE(gsl_matrix_get(B, 1, 0), b / a, 1e-12);
        CHECK_CLOSE(gsl_matrix_get(B, 2, 0), -1.0 / a, 1e-12);
    }
    gsl_matrix_free(B);
    gsl_matrix_free(Cq);
}

/* q' with C_q q' + C_t = 0 and the given independent velocities, for a
 * rheonomic C_t and for NULL; the double pendulum's in closed form */
static void dependent_velocities(void)
{
    const double Ct[4] = {0.35, -1.2, 0.8, 0.45};
    for (size_t s = 0; s < NCASES; s++) {
        const jcase *c = &CASES[s];
        const size_t k = c->n - c->m;
        gsl_matrix *Cq = case_jacobian(c);
        const double vi[4] = {0.9, -1.7, 0.6, 2.2};
        for (int with_ct = 0; with_ct < 2; with_ct++) {
            double qd[6] = {NAN, NAN, NAN, NAN, NAN, NAN};
            int st = ex06_dependent_velocities(Cq, c->indep, with_ct ? Ct : NULL, vi, qd);
            CHECK_STATUS(st, GSL_SUCCESS);
            for (size_t i = 0; i < c->m; i++) {
                double r = with_ct ? Ct[i] : 0.0;
                for (size_t j = 0; j < c->n; j++)
                    r += gsl_matrix_get(Cq, i, j) * qd[j];
                CHECK_MSG(fabs(r) <= 1e-12, "%s, C_t %s: (C_q q' + C_t)[%zu] = %.3g, expected 0",
                          c->name, with_ct ? "given" : "NULL", i, r);
            }
            for (size_t l = 0; l < k; l++)
                CHECK_MSG(qd[c->indep[l]] == vi[l] || fabs(qd[c->indep[l]] - vi[l]) <= 1e-13,
                          "%s: q'[%zu] = %.12g, expected the independent velocity %g", c->name,
                          c->indep[l], qd[c->indep[l]], vi[l]);
        }
        gsl_matrix_free(Cq);
    }
    /* the double pendulum from the rods' angular velocities */
    double q[6], v[6], qd[6];
    dpend_state(q, v);
    gsl_matrix *Cq = gsl_matrix_alloc(4, 6);
    fx_dpend_jacobian(&DP, q, Cq);
    const size_t ind[2] = {5, 2};
    const double vi[2] = {v[5], v[2]};
    CHECK_STATUS(ex06_dependent_velocities(Cq, ind, NULL, vi, qd), GSL_SUCCESS);
    for (size_t i = 0; i < 6; i++)
        CHECK_CLOSE(qd[i], v[i], 1e-12);
    gsl_matrix_free(Cq);
}

/* q'' and q_i'' against the augmented system solved here, for a full mass
 * matrix (every entry coupled), forces and gamma, with each choice of q_i;
 * and for the double pendulum's own M, gravity and gamma */
static void against_augmented(void)
{
    for (size_t s = 0; s < NCASES; s++) {
        const jcase *c = &CASES[s];
        const size_t k = c->n - c->m;
        gsl_matrix *Cq = case_jacobian(c), *M = full_mass(c->n);
        const double F[6] = {1.4, -0.6, 2.3, 0.1, -1.8, 0.9}, g[4] = {-0.7, 1.9, 0.4, -1.3};
        for (int physical = 0; physical < (c->n == 6 ? 2 : 1); physical++) {
            double Fx[6], gx[4];
            memcpy(Fx, F, sizeof Fx);
            memcpy(gx, g, sizeof gx);
            if (physical) {   /* the double pendulum under gravity, moving */
                double q[6], v[6];
                dpend_state(q, v);
                gsl_matrix_set_zero(M);
                const double mm[6] = {DP.m1, DP.m1, DP.m1 * DP.l1 * DP.l1 / 12,
                                      DP.m2, DP.m2, DP.m2 * DP.l2 * DP.l2 / 12};
                for (size_t i = 0; i < 6; i++) {
                    gsl_matrix_set(M, i, i, mm[i]);
                    Fx[i] = 0;
                }
                Fx[1] = -9.81 * DP.m1;
                Fx[4] = -9.81 * DP.m2;
                fx_dpend_gamma(&DP, q, v, gx);
            }
            double ref[6], qdd[6] = {NAN, NAN, NAN, NAN, NAN, NAN}, qddi[4] = {NAN, NAN, NAN, NAN};
            fx_kkt(M, Cq, Fx, gx, ref, NULL);
            int st = ex06_embedded_accel(M, Cq, c->indep, Fx, gx, qddi, qdd);
            CHECK_STATUS(st, GSL_SUCCESS);
            for (size_t i = 0; i < c->n; i++)
                CHECK_MSG(fabs(qdd[i] - ref[i]) <= 1e-10 * (1 + fabs(ref[i])),
                          "%s%s: q''[%zu] = %.12g, the augmented system gives %.12g", c->name,
                          physical ? " (gravity)" : "", i, qdd[i], ref[i]);
            for (size_t l = 0; l < k; l++)
                CHECK_MSG(fabs(qddi[l] - ref[c->indep[l]]) <= 1e-10 * (1 + fabs(ref[c->indep[l]])),
                          "%s%s: q_i''[%zu] = %.12g, the augmented system gives %.12g", c->name,
                          physical ? " (gravity)" : "", l, qddi[l], ref[c->indep[l]]);
        }
        gsl_matrix_free(M);
        gsl_matrix_free(Cq);
    }
}

/* the pinned rod under gravity: theta'' = -(3 g / 2 l) cos theta whatever
 * theta' is, and R'' = -theta'' A_theta u_P + theta'^2 A u_P, with theta or
 * y independent */
static void pendulum_closed_form(void)
{
    const double mass = 1.7, l = 1.2, g = 9.81;
    gsl_matrix *Cq = gsl_matrix_alloc(2, 3), *M = gsl_matrix_calloc(3, 3);
    gsl_matrix_set(M, 0, 0, mass);
    gsl_matrix_set(M, 1, 1, mass);
    gsl_matrix_set(M, 2, 2, mass * l * l / 12);
    const double F[3] = {0, -mass * g, 0};
    const double ths[] = {0.3, 2.2, -2.5}, ws[] = {0.0, 2.5, -4.0};
    for (size_t i = 0; i < 3; i++)
        for (size_t j = 0; j < 3; j++) {
            const double th = ths[i], w = ws[j];
            double gam[2];
            fx_rod_jacobian(l, th, Cq);
            fx_rod_gamma(l, th, w, gam);
            const double thdd = -1.5 * g / l * cos(th);
            const double Au[2] = {-0.5 * l * cos(th), -0.5 * l * sin(th)}, Atu[2] = {-Au[1], Au[0]};
            const double ref[3] = {-thdd * Atu[0] + w * w * Au[0], -thdd * Atu[1] + w * w * Au[1], thdd};
            const size_t choices[2][1] = {{2}, {1}};
            for (size_t ch = 0; ch < 2; ch++) {
                double qdd[3] = {NAN, NAN, NAN}, qddi[1] = {NAN};
                int st = ex06_embedded_accel(M, Cq, choices[ch], F, gam, qddi, qdd);
                CHECK_STATUS(st, GSL_SUCCESS);
                for (size_t r = 0; r < 3; r++)
                    CHECK_MSG(fabs(qdd[r] - ref[r]) <= 1e-11 * (1 + fabs(ref[r])),
                              "theta = %g, theta' = %g, q_i = q%zu: q''[%zu] = %.12g, expected %.12g",
                              th, w, choices[ch][0], r, qdd[r], ref[r]);
                CHECK_CLOSE(qddi[0], ref[choices[ch][0]], 1e-11 * (1 + fabs(ref[choices[ch][0]])));
            }
        }
    gsl_matrix_free(M);
    gsl_matrix_free(Cq);
}

/* a C_qd that is singular: MBD_ESINGULAR from all three, nothing written */
static void check_singular(const char *what, const gsl_matrix *Cq, const size_t *indep,
                           const gsl_matrix *M)
{
    const size_t n = Cq->size2, k = n - Cq->size1;
    gsl_matrix *B = gsl_matrix_alloc(n, k);
    fx_fill(B, FX_SENTINEL);
    int st = ex06_velocity_transform(Cq, indep, B);
    CHECK_MSG(st == MBD_ESINGULAR, "%s: ex06_velocity_transform returned %d (%s), expected "
              "MBD_ESINGULAR", what, st, mbd_strerror(st));
    CHECK_MSG(fx_matrix_all_equal(B, FX_SENTINEL), "%s: B was written on an error", what);
    gsl_matrix_free(B);
    double qd[6], qdd[6], qddi[6];
    const double vi[6] = {1, 2, 3, 4, 5, 6}, F[6] = {1, -2, 0.5, 0.3, 0.2, 0.1};
    const double g[6] = {0.3, -0.2, 0.1, 0.4, 0.5, 0.6};
    for (size_t i = 0; i < 6; i++)
        qd[i] = qdd[i] = qddi[i] = FX_SENTINEL;
    st = ex06_dependent_velocities(Cq, indep, g, vi, qd);
    CHECK_MSG(st == MBD_ESINGULAR, "%s: ex06_dependent_velocities returned %d (%s), expected "
              "MBD_ESINGULAR", what, st, mbd_strerror(st));
    CHECK_MSG(fx_all_equal(qd, n, FX_SENTINEL), "%s: q' was written on an error", what);
    st = ex06_embedded_accel(M, Cq, indep, F, g, qddi, qdd);
    CHECK_MSG(st == MBD_ESINGULAR, "%s: ex06_embedded_accel returned %d (%s), expected "
              "MBD_ESINGULAR", what, st, mbd_strerror(st));
    CHECK_MSG(fx_all_equal(qdd, n, FX_SENTINEL) && fx_all_equal(qddi, k, FX_SENTINEL),
              "%s: q'' or q_i'' was written on an error", what);
}

static void singular_partition(void)
{
    const double l = 1.2;
    gsl_matrix *Cq = gsl_matrix_alloc(2, 3), *M = gsl_matrix_calloc(3, 3);
    gsl_matrix_set(M, 0, 0, 1.0);
    gsl_matrix_set(M, 1, 1, 1.0);
    gsl_matrix_set(M, 2, 2, 0.12);
    /* the rod level (theta = 0): x' = 0 whatever theta' is, x cannot be independent */
    const size_t ix[1] = {0}, iy[1] = {1};
    fx_rod_jacobian(l, 0.0, Cq);
    check_singular("rod at theta = 0, q_i = x", Cq, ix, M);
    /* the rod upright (theta = pi/2, cos theta rounded): y cannot be independent */
    fx_rod_jacobian(l, M_PI / 2, Cq);
    check_singular("rod at theta = pi/2, q_i = y", Cq, iy, M);
    gsl_matrix_free(Cq);
    gsl_matrix_free(M);
    /* a general C_q whose columns 0 and 1 are parallel: they cannot both be dependent */
    double a[8] = {1.5, 3.0, 0.7, -1.0, -0.5, -1.0, 2.0, 0.4};
    gsl_matrix_view Cv = gsl_matrix_view_array(a, 2, 4);
    gsl_matrix *M4 = full_mass(4);
    const size_t i23[2] = {3, 2};
    check_singular("C_q with parallel columns 0 and 1, q_i = (q3, q2)", &Cv.matrix, i23, M4);
    /* ... while with q1 independent it is regular */
    const size_t i13[2] = {1, 3};
    gsl_matrix *B = gsl_matrix_alloc(4, 2);
    CHECK_STATUS(ex06_velocity_transform(&Cv.matrix, i13, B), GSL_SUCCESS);
    gsl_matrix_free(B);
    gsl_matrix_free(M4);
}

/* B^T M B not positive definite: a zero and an indefinite mass matrix */
static void mass_not_definite(void)
{
    const double l = 1.2, F[3] = {0.3, -1.0, 0.2}, g[2] = {0.5, -0.1};
    const size_t it[1] = {2};
    gsl_matrix *Cq = gsl_matrix_alloc(2, 3), *M = gsl_matrix_calloc(3, 3);
    fx_rod_jacobian(l, 0.8, Cq);
    for (int kind = 0; kind < 2; kind++) {
        if (kind == 1) {   /* B = (-A_theta u_P; 1): B^T M B = (l/2)^2 - 5 < 0 */
            gsl_matrix_set(M, 0, 0, 1.0);
            gsl_matrix_set(M, 1, 1, 1.0);
            gsl_matrix_set(M, 2, 2, -5.0);
        }
        double qdd[3] = {FX_SENTINEL, FX_SENTINEL, FX_SENTINEL}, qddi[1] = {FX_SENTINEL};
        int st = ex06_embedded_accel(M, Cq, it, F, g, qddi, qdd);
        CHECK_MSG(st == MBD_ESINGULAR, "%s mass matrix: status %d (%s), expected MBD_ESINGULAR",
                  kind ? "an indefinite" : "a zero", st, mbd_strerror(st));
        CHECK_MSG(fx_all_equal(qdd, 3, FX_SENTINEL) && fx_all_equal(qddi, 1, FX_SENTINEL),
                  "%s mass matrix: q'' or q_i'' was written on an error", kind ? "an indefinite" : "a zero");
    }
    gsl_matrix_free(M);
    gsl_matrix_free(Cq);
}

/* bad sizes (GSL_EBADLEN) and bad indices (GSL_EINVAL), nothing written */
static void bad_arguments(void)
{
    const jcase *c = &CASES[0];   /* 2 x 5, k = 3 */
    gsl_matrix *Cq = case_jacobian(c), *M = full_mass(5);
    const double vi[5] = {1, 2, 3, 4, 5}, F[5] = {1, 0, -1, 2, 0.5}, g[5] = {0.2, -0.4, 0, 0, 0};
    /* C_q with m >= n */
    const size_t sq[][2] = {{3, 3}, {4, 3}};
    for (size_t i = 0; i < 2; i++) {
        gsl_matrix *C2 = gsl_matrix_alloc(sq[i][0], sq[i][1]), *B = gsl_matrix_alloc(3, 1);
        gsl_matrix *M3 = full_mass(3);
        for (size_t r = 0; r < sq[i][0]; r++)
            for (size_t j = 0; j < sq[i][1]; j++)
                gsl_matrix_set(C2, r, j, r == j ? 2.0 : 0.3 * (r + 1) - 0.1 * j);
        const size_t ind[1] = {0};
        fx_fill(B, FX_SENTINEL);
        double qd[3] = {FX_SENTINEL, FX_SENTINEL, FX_SENTINEL}, qdd[3] = {FX_SENTINEL, FX_SENTINEL, FX_SENTINEL};
        double qddi[1] = {FX_SENTINEL};
        int st1 = ex06_velocity_transform(C2, ind, B);
        int st2 = ex06_dependent_velocities(C2, ind, NULL, vi, qd);
        int st3 = ex06_embedded_accel(M3, C2, ind, F, g, qddi, qdd);
        CHECK_MSG(st1 == GSL_EBADLEN && st2 == GSL_EBADLEN && st3 == GSL_EBADLEN,
                  "C_q of %zu x %zu (m >= n): statuses %d, %d, %d, expected GSL_EBADLEN (%d)",
                  sq[i][0], sq[i][1], st1, st2, st3, GSL_EBADLEN);
        CHECK_MSG(fx_matrix_all_equal(B, FX_SENTINEL) && fx_all_equal(qd, 3, FX_SENTINEL)
                  && fx_all_equal(qdd, 3, FX_SENTINEL) && fx_all_equal(qddi, 1, FX_SENTINEL),
                  "C_q of %zu x %zu: an output was written on an error", sq[i][0], sq[i][1]);
        gsl_matrix_free(M3);
        gsl_matrix_free(B);
        gsl_matrix_free(C2);
    }
    /* B of the wrong size */
    const size_t bs[][2] = {{5, 2}, {5, 4}, {4, 3}, {3, 5}};
    for (size_t i = 0; i < 4; i++) {
        gsl_matrix *B = gsl_matrix_alloc(bs[i][0], bs[i][1]);
        fx_fill(B, FX_SENTINEL);
        int st = ex06_velocity_transform(Cq, c->indep, B);
        CHECK_MSG(st == GSL_EBADLEN, "B of %zu x %zu (expected 5 x 3): status %d (%s), expected "
                  "GSL_EBADLEN", bs[i][0], bs[i][1], st, mbd_strerror(st));
        CHECK_MSG(fx_matrix_all_equal(B, FX_SENTINEL), "B of %zu x %zu was written on an error",
                  bs[i][0], bs[i][1]);
        gsl_matrix_free(B);
    }
    /* M of the wrong size */
    const size_t ms[][2] = {{4, 4}, {5, 4}, {4, 5}, {6, 6}};
    for (size_t i = 0; i < 4; i++) {
        gsl_matrix *Mb = gsl_matrix_calloc(ms[i][0], ms[i][1]);
        for (size_t j = 0; j < ms[i][0] && j < ms[i][1]; j++)
            gsl_matrix_set(Mb, j, j, 1.0);
        double qdd[6] = {FX_SENTINEL, FX_SENTINEL, FX_SENTINEL, FX_SENTINEL, FX_SENTINEL, FX_SENTINEL};
        double qddi[3] = {FX_SENTINEL, FX_SENTINEL, FX_SENTINEL};
        const double F6[6] = {1, 0, -1, 2, 0.5, 0.1};
        int st = ex06_embedded_accel(Mb, Cq, c->indep, F6, g, qddi, qdd);
        CHECK_MSG(st == GSL_EBADLEN, "M of %zu x %zu (expected 5 x 5): status %d (%s), expected "
                  "GSL_EBADLEN", ms[i][0], ms[i][1], st, mbd_strerror(st));
        CHECK_MSG(fx_all_equal(qdd, 5, FX_SENTINEL) && fx_all_equal(qddi, 3, FX_SENTINEL),
                  "M of %zu x %zu: an output was written on an error", ms[i][0], ms[i][1]);
        gsl_matrix_free(Mb);
    }
    /* indices out of range or repeated */
    const size_t bad[][3] = {{4, 1, 5}, {0, 2, 7}, {4, 1, 4}, {2, 2, 3}};
    for (size_t i = 0; i < 4; i++) {
        gsl_matrix *B = gsl_matrix_alloc(5, 3);
        fx_fill(B, FX_SENTINEL);
        double qd[5], qdd[5], qddi[3] = {FX_SENTINEL, FX_SENTINEL, FX_SENTINEL};
        for (size_t j = 0; j < 5; j++)
            qd[j] = qdd[j] = FX_SENTINEL;
        int st1 = ex06_velocity_transform(Cq, bad[i], B);
        int st2 = ex06_dependent_velocities(Cq, bad[i], NULL, vi, qd);
        int st3 = ex06_embedded_accel(M, Cq, bad[i], F, g, qddi, qdd);
        CHECK_MSG(st1 == GSL_EINVAL && st2 == GSL_EINVAL && st3 == GSL_EINVAL,
                  "indep = (%zu, %zu, %zu) for n = 5: statuses %d, %d, %d, expected GSL_EINVAL (%d)",
                  bad[i][0], bad[i][1], bad[i][2], st1, st2, st3, GSL_EINVAL);
        CHECK_MSG(fx_matrix_all_equal(B, FX_SENTINEL) && fx_all_equal(qd, 5, FX_SENTINEL)
                  && fx_all_equal(qdd, 5, FX_SENTINEL) && fx_all_equal(qddi, 3, FX_SENTINEL),
                  "indep = (%zu, %zu, %zu): an output was written on an error", bad[i][0],
                  bad[i][1], bad[i][2]);
        gsl_matrix_free(B);
    }
    gsl_matrix_free(M);
    gsl_matrix_free(Cq);
}

static CU_TestInfo tests[] = {
    {"B: C_q B = 0 and I_d B = I, in q's own order", transform_properties},
    {"B of the pinned rod in closed form", transform_pendulum},
    {"the dependent velocities, with and without C_t", dependent_velocities},
    {"q'' against the augmented system", against_augmented},
    {"the pinned rod: theta'' = -(3g/2l) cos theta at any theta'", pendulum_closed_form},
    {"a singular C_qd is refused", singular_partition},
    {"B^T M B not positive definite is refused", mass_not_definite},
    {"bad arguments", bad_arguments},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"ex06.3", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
