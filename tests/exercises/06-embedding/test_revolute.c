/* Grades exercise 06.2: the revolute joint, and its gamma. */
#include <math.h>

#include <gsl/gsl_errno.h>

#include "check.h"
#include "ex06.h"
#include "fixture.h"

/* states that do not satisfy the joint: both bodies moved and turned, the
 * points off both axes, the bodies turning at different rates */
typedef struct {
    double qi[3], ui[2], qj[3], uj[2], vi[3], vj[3];
} pair_state;

static const pair_state PAIRS[] = {
    {{0.3, -0.4, 0.7}, {0.8, 0.25}, {1.1, 0.2, -1.3}, {-0.6, 0.45}, {0.5, -0.3, 1.7}, {-0.2, 0.9, -2.6}},
    {{-1.2, 2.0, 2.9}, {-0.35, -1.1}, {0.4, -0.7, 0.4}, {1.3, -0.2}, {1.5, 0.1, -0.6}, {0.7, -1.4, 3.1}},
    {{0.0, 0.0, -2.2}, {1.5, 0.0}, {-0.8, 1.6, 5.0}, {0.0, -0.9}, {0.0, 0.0, 4.2}, {0.3, 0.3, 0.0}},
};
#define NPAIRS (sizeof PAIRS / sizeof PAIRS[0])

/* the test's own C of the pair at the six coordinates x */
static void pair_C(const pair_state *p, const double x[6], double C[2])
{
    double ri[2], rj[2];
    fx_point(x, p->ui, ri);
    fx_point(x + 3, p->uj, rj);
    C[0] = ri[0] - rj[0];
    C[1] = ri[1] - rj[1];
}

static void ground_C(const double x[3], const double u[2], const double P[2], double C[2])
{
    double r[2];
    fx_point(x, u, r);
    C[0] = r[0] - P[0];
    C[1] = r[1] - P[1];
}

static void pair_x(const pair_state *p, double x[6], double v[6])
{
    for (int k = 0; k < 3; k++) {
        x[k] = p->qi[k];
        x[3 + k] = p->qj[k];
        v[k] = p->vi[k];
        v[3 + k] = p->vj[k];
    }
}

/* C, and C_q against central differences of the test's C, every entry written */
static void constraint_and_jacobian(void)
{
    gsl_matrix *Cq = gsl_matrix_alloc(2, 6);
    const double h = 1e-6;
    for (size_t s = 0; s < NPAIRS; s++) {
        const pair_state *p = &PAIRS[s];
        double x[6], v[6], C[2] = {NAN, NAN}, g[2], R[2];
        pair_x(p, x, v);
        fx_fill(Cq, NAN);
        int st = ex06_revolute(p->qi, p->ui, p->qj, p->uj, p->vi, p->vj, C, Cq, g);
        CHECK_STATUS(st, GSL_SUCCESS);
        pair_C(p, x, R);
        for (int i = 0; i < 2; i++)
            CHECK_MSG(fabs(C[i] - R[i]) <= 1e-13 * (1 + fabs(R[i])),
                      "state %zu: C[%d] = %.15g, expected %.15g", s, i, C[i], R[i]);
        for (int c = 0; c < 6; c++) {
            double xp[6], xm[6], Cp[2], Cm[2];
            memcpy(xp, x, sizeof x);
            memcpy(xm, x, sizeof x);
            xp[c] += h;
            xm[c] -= h;
            pair_C(p, xp, Cp);
            pair_C(p, xm, Cm);
            for (int r = 0; r < 2; r++) {
                const double d = (Cp[r] - Cm[r]) / (2 * h);
                CHECK_MSG(fabs(gsl_matrix_get(Cq, r, c) - d) <= 1e-8,
                          "state %zu: C_q(%d,%d) = %.12g, but dC%d/dq%d = %.12g", s, r + 1, c + 1,
                          gsl_matrix_get(Cq, r, c), r + 1, c + 1, d);
            }
        }
    }
    gsl_matrix_free(Cq);
}

/* gamma = C_q q'' - C'': along q(t) = q + q' t (q'' = 0) it is -C''(0),
 * taken here by a fourth-order central difference of the test's C */
static void gamma_by_differences(void)
{
    gsl_matrix *Cq = gsl_matrix_alloc(2, 6);
    const double h = 1e-3;
    for (size_t s = 0; s < NPAIRS; s++) {
        const pair_state *p = &PAIRS[s];
        double x[6], v[6], C[2], g[2] = {NAN, NAN};
        pair_x(p, x, v);
        CHECK_STATUS(ex06_revolute(p->qi, p->ui, p->qj, p->uj, p->vi, p->vj, C, Cq, g),
                     GSL_SUCCESS);
        double c[5][2];
        for (int k = -2; k <= 2; k++) {
            double xk[6];
            for (int i = 0; i < 6; i++)
                xk[i] = x[i] + v[i] * k * h;
            pair_C(p, xk, c[k + 2]);
        }
        for (int r = 0; r < 2; r++) {
            const double Cdd = (-c[0][r] + 16 * c[1][r] - 30 * c[2][r] + 16 * c[3][r] - c[4][r])
                               / (12 * h * h);
            CHECK_MSG(fabs(g[r] + Cdd) <= 1e-7 * (1 + fabs(Cdd)),
                      "state %zu: gamma[%d] = %.10g, expected -C''[%d] = %.10g", s, r, g[r], r, -Cdd);
        }
    }
    gsl_matrix_free(Cq);
}

/* Two bodies moving so that the pin stays together: the pin P(t) runs along
 * a curve, the bodies turn with constant angular accelerations, and each
 * body's reference point is placed at P - A u. Then C = 0, C_q q' = 0 and
 * C_q q'' = gamma at every t (q'' written out analytically). */
static void joint_kept_together(void)
{
    gsl_matrix *Cq = gsl_matrix_alloc(2, 6);
    const double ui[2] = {0.7, -0.3}, uj[2] = {-0.45, 0.6};
    for (int k = 0; k < 4; k++) {
        const double t = 0.3 + 0.55 * k;
        /* P = (cos 1.3t + 0.2 t^2, 0.5 sin 2t) */
        const double P[2] = {cos(1.3 * t) + 0.2 * t * t, 0.5 * sin(2 * t)};
        const double Pd[2] = {-1.3 * sin(1.3 * t) + 0.4 * t, cos(2 * t)};
        const double Pdd[2] = {-1.69 * cos(1.3 * t) + 0.4, -2 * sin(2 * t)};
        const double thi = 0.2 + 1.4 * t + 0.35 * t * t, wi = 1.4 + 0.7 * t, ai = 0.7;
        const double thj = -1.0 - 2.1 * t - 0.6 * t * t, wj = -2.1 - 1.2 * t, aj = -1.2;
        double q[6], v[6], a[6];
        const double th[2] = {thi, thj}, w[2] = {wi, wj}, al[2] = {ai, aj};
        const double *u[2] = {ui, uj};
        for (int b = 0; b < 2; b++) {
            const double c = cos(th[b]), s = sin(th[b]);
            const double Au[2] = {c * u[b][0] - s * u[b][1], s * u[b][0] + c * u[b][1]};
            const double Atu[2] = {-Au[1], Au[0]};
            q[3 * b] = P[0] - Au[0];
            q[3 * b + 1] = P[1] - Au[1];
            q[3 * b + 2] = th[b];
            v[3 * b] = Pd[0] - w[b] * Atu[0];
            v[3 * b + 1] = Pd[1] - w[b] * Atu[1];
            v[3 * b + 2] = w[b];
            a[3 * b] = Pdd[0] - al[b] * Atu[0] + w[b] * w[b] * Au[0];
            a[3 * b + 1] = Pdd[1] - al[b] * Atu[1] + w[b] * w[b] * Au[1];
            a[3 * b + 2] = al[b];
        }
        double C[2], g[2];
        CHECK_STATUS(ex06_revolute(q, ui, q + 3, uj, v, v + 3, C, Cq, g), GSL_SUCCESS);
        for (int r = 0; r < 2; r++) {
            double Cqv = 0, Cqa = 0;
            for (int c = 0; c < 6; c++) {
                Cqv += gsl_matrix_get(Cq, r, c) * v[c];
                Cqa += gsl_matrix_get(Cq, r, c) * a[c];
            }
            CHECK_CLOSE(C[r], 0.0, 1e-13);
            CHECK_CLOSE(Cqv, 0.0, 1e-12);
            CHECK_MSG(fabs(Cqa - g[r]) <= 1e-11 * (1 + fabs(Cqa)),
                      "t = %g: (C_q q'')[%d] = %.12g but gamma[%d] = %.12g", t, r, Cqa, r, g[r]);
        }
    }
    gsl_matrix_free(Cq);
}

/* the joint to the ground: C, C_q by differences, gamma by differences, and a
 * body swinging about the fixed point with C_q q'' = gamma */
static void ground_joint(void)
{
    gsl_matrix *Cq = gsl_matrix_alloc(2, 3);
    const double P[2] = {0.9, -1.6};
    for (size_t s = 0; s < NPAIRS; s++) {
        const pair_state *p = &PAIRS[s];
        const double *x = p->qi, *u = p->ui, *v = p->vi;
        double C[2] = {NAN, NAN}, g[2] = {NAN, NAN}, R[2];
        fx_fill(Cq, NAN);
        int st = ex06_revolute_ground(x, u, P, v, C, Cq, g);
        CHECK_STATUS(st, GSL_SUCCESS);
        ground_C(x, u, P, R);
        for (int i = 0; i < 2; i++)
            CHECK_MSG(fabs(C[i] - R[i]) <= 1e-13 * (1 + fabs(R[i])),
                      "state %zu: C[%d] = %.15g, expected %.15g", s, i, C[i], R[i]);
        const double h = 1e-6;
        for (int c = 0; c < 3; c++) {
            double xp[3], xm[3], Cp[2], Cm[2];
            memcpy(xp, x, sizeof xp);
            memcpy(xm, x, sizeof xm);
            xp[c] += h;
            xm[c] -= h;
            ground_C(xp, u, P, Cp);
            ground_C(xm, u, P, Cm);
            for (int r = 0; r < 2; r++)
                CHECK_MSG(fabs(gsl_matrix_get(Cq, r, c) - (Cp[r] - Cm[r]) / (2 * h)) <= 1e-8,
                          "state %zu: C_q(%d,%d) = %.12g, expected %.12g", s, r + 1, c + 1,
                          gsl_matrix_get(Cq, r, c), (Cp[r] - Cm[r]) / (2 * h));
        }
        const double hh = 1e-3;
        double c5[5][2];
        for (int k = -2; k <= 2; k++) {
            double xk[3];
            for (int i = 0; i < 3; i++)
                xk[i] = x[i] + v[i] * k * hh;
            ground_C(xk, u, P, c5[k + 2]);
        }
        for (int r = 0; r < 2; r++) {
            const double Cdd = (-c5[0][r] + 16 * c5[1][r] - 30 * c5[2][r] + 16 * c5[3][r] - c5[4][r])
                               / (12 * hh * hh);
            CHECK_MSG(fabs(g[r] + Cdd) <= 1e-7 * (1 + fabs(Cdd)),
                      "state %zu: gamma[%d] = %.10g, expected %.10g", s, r, g[r], -Cdd);
        }
    }
    /* swinging about P: theta = 0.5 + 2 t - 1.5 t^2, R = P - A u */
    const double u[2] = {-0.55, 0.3};
    for (int k = 0; k < 3; k++) {
        const double t = 0.2 + 0.7 * k, th = 0.5 + 2 * t - 1.5 * t * t, w = 2 - 3 * t, al = -3;
        const double c = cos(th), s = sin(th);
        const double Au[2] = {c * u[0] - s * u[1], s * u[0] + c * u[1]}, Atu[2] = {-Au[1], Au[0]};
        const double q[3] = {P[0] - Au[0], P[1] - Au[1], th};
        const double v[3] = {-w * Atu[0], -w * Atu[1], w};
        const double a[3] = {-al * Atu[0] + w * w * Au[0], -al * Atu[1] + w * w * Au[1], al};
        double C[2], g[2];
        CHECK_STATUS(ex06_revolute_ground(q, u, P, v, C, Cq, g), GSL_SUCCESS);
        for (int r = 0; r < 2; r++) {
            double Cqv = 0, Cqa = 0;
            for (int cc = 0; cc < 3; cc++) {
                Cqv += gsl_matrix_get(Cq, r, cc) * v[cc];
                Cqa += gsl_matrix_get(Cq, r, cc) * a[cc];
            }
            CHECK_CLOSE(C[r], 0.0, 1e-13);
            CHECK_CLOSE(Cqv, 0.0, 1e-12);
            CHECK_CLOSE(g[r], Cqa, 1e-11 * (1 + fabs(Cqa)));
        }
    }
    gsl_matrix_free(Cq);
}

/* C_q of any other size is refused, and nothing is written */
static void bad_sizes(void)
{
    const pair_state *p = &PAIRS[0];
    const size_t pair_sizes[][2] = {{2, 5}, {3, 6}, {2, 3}, {6, 2}};
    for (size_t i = 0; i < sizeof pair_sizes / sizeof pair_sizes[0]; i++) {
        gsl_matrix *Cq = gsl_matrix_alloc(pair_sizes[i][0], pair_sizes[i][1]);
        fx_fill(Cq, FX_SENTINEL);
        double C[2] = {FX_SENTINEL, FX_SENTINEL}, g[2] = {FX_SENTINEL, FX_SENTINEL};
        const int st = ex06_revolute(p->qi, p->ui, p->qj, p->uj, p->vi, p->vj, C, Cq, g);
        CHECK_MSG(st == GSL_EBADLEN, "ex06_revolute with C_q of %zu x %zu: status %d (%s), "
                  "expected GSL_EBADLEN", pair_sizes[i][0], pair_sizes[i][1], st, mbd_strerror(st));
        CHECK_MSG(fx_matrix_all_equal(Cq, FX_SENTINEL) && fx_all_equal(C, 2, FX_SENTINEL)
                  && fx_all_equal(g, 2, FX_SENTINEL),
                  "ex06_revolute with C_q of %zu x %zu wrote its outputs on an error",
                  pair_sizes[i][0], pair_sizes[i][1]);
        gsl_matrix_free(Cq);
    }
    const size_t ground_sizes[][2] = {{2, 6}, {3, 3}, {2, 2}, {3, 2}};
    const double P[2] = {0.1, 0.2};
    for (size_t i = 0; i < sizeof ground_sizes / sizeof ground_sizes[0]; i++) {
        gsl_matrix *Cq = gsl_matrix_alloc(ground_sizes[i][0], ground_sizes[i][1]);
        fx_fill(Cq, FX_SENTINEL);
        double C[2] = {FX_SENTINEL, FX_SENTINEL}, g[2] = {FX_SENTINEL, FX_SENTINEL};
        const int st = ex06_revolute_ground(p->qi, p->ui, P, p->vi, C, Cq, g);
        CHECK_MSG(st == GSL_EBADLEN, "ex06_revolute_ground with C_q of %zu x %zu: status %d (%s), "
                  "expected GSL_EBADLEN", ground_sizes[i][0], ground_sizes[i][1], st,
                  mbd_strerror(st));
        CHECK_MSG(fx_matrix_all_equal(Cq, FX_SENTINEL) && fx_all_equal(C, 2, FX_SENTINEL)
                  && fx_all_equal(g, 2, FX_SENTINEL),
                  "ex06_revolute_ground with C_q of %zu x %zu wrote its outputs on an error",
                  ground_sizes[i][0], ground_sizes[i][1]);
        gsl_matrix_free(Cq);
    }
}

static CU_TestInfo tests[] = {
    {"C, and C_q against differences of C", constraint_and_jacobian},
    {"gamma against the second difference of C", gamma_by_differences},
    {"a motion that keeps the pin together: C_q q'' = gamma", joint_kept_together},
    {"the joint to the ground", ground_joint},
    {"bad sizes", bad_sizes},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"ex06.2", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
