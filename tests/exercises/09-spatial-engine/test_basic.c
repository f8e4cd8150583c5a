/* Grades exercise 09.1: the basic constraints CD, D, DP1 and DP2. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_math.h>

#include "check.h"
#include "ex09.h"
#include "fixture.h"

static const char *const KIND[4] = {"CD", "D", "DP1", "DP2"};
static const char *const SIDES[3] = {"both bodies moving", "body i the ground",
                                     "body j the ground"};

/* random attributes of a kind: points off the origin, vectors not unit,
 * c a general direction (or a coordinate axis when axis >= 0) */
static ex09_basic random_basic(fx_rng *g, ex09_basic_kind kind, int axis)
{
    ex09_basic bc;
    memset(&bc, 0, sizeof bc);
    bc.kind = kind;
    fx_random3(g, 0.9, bc.sp);
    fx_random3(g, 0.9, bc.sq);
    fx_random3(g, 1.3, bc.ai);
    fx_random3(g, 1.3, bc.aj);
    if (axis >= 0)
        bc.c[axis] = 1.0;
    else
        fx_random3(g, 1.0, bc.c);
    return bc;
}

/* the prescribed function f(t) = 0.3 sin(1.7 t + 0.2) + 0.1 t^2 - 0.4 and
 * its derivatives */
static void f_at(double t, double f[3])
{
    f[0] = 0.3 * sin(1.7 * t + 0.2) + 0.1 * t * t - 0.4;
    f[1] = 0.51 * cos(1.7 * t + 0.2) + 0.2 * t;
    f[2] = -0.867 * sin(1.7 * t + 0.2) + 0.2;
}

/* calls the function; 0 (and a failed check) when it fails */
static int row_of(const char *what, const ex09_basic *bc, const ex09_state *bi,
                  const ex09_state *bj, const double f[3], ex09_row *row)
{
    fx_row_fill(row, NAN);
    const int st = ex09_basic_row(bc, bi, bj, f, row);
    CHECK_MSG(st == GSL_SUCCESS, "%s: status %d (%s)", what, st, mbd_strerror(st));
    return st == GSL_SUCCESS;
}

/* ------------------------------------------------------------------------ */
/* The values against rotations by Rodrigues' formula                        */

/* Phi = g - f and nu = f', g from rotation matrices built by Rodrigues'
 * formula from an axis and an angle (p = (cos th/2, sin th/2 u)): another
 * road to A than the Euler-parameter formula */
static void values(void)
{
    fx_rng g = {90101ULL};
    for (int kind = 0; kind < 4; kind++)
        for (int side = 0; side < 3; side++) {
            const ex09_basic bc = random_basic(&g, (ex09_basic_kind)kind, kind == 0 ? side : -1);
            ex09_state st[2];
            double R[2][3][3];
            for (int s = 0; s < 2; s++) {
                double u[3], th;
                memset(&st[s], 0, sizeof st[s]);
                fx_random_rotation(&g, u, &th, st[s].p);
                fx_random3(&g, 1.5, st[s].r);
                fx_random3(&g, 0.5, st[s].rd);
                fx_rodrigues(u, th, R[s]);
                if ((side == 1 && s == 0) || (side == 2 && s == 1)) {
                    memset(st[s].r, 0, sizeof st[s].r);
                    memset(R[s], 0, sizeof R[s]);
                    R[s][0][0] = R[s][1][1] = R[s][2][2] = 1.0;
                }
            }
            double P[3], Q[3], ai[3], aj[3], d[3];
            fx_matvec(R[0], bc.sp, P);
            fx_matvec(R[1], bc.sq, Q);
            fx_matvec(R[0], bc.ai, ai);
            fx_matvec(R[1], bc.aj, aj);
            for (int k = 0; k < 3; k++)
                d[k] = st[1].r[k] + Q[k] - st[0].r[k] - P[k];
            const double gv[4] = {fx_dot3(bc.c, d), fx_dot3(d, d), fx_dot3(ai, aj),
                                  fx_dot3(ai, d)};
            const double f[3] = {0.37, -1.25, 2.5};
            char what[96];
            snprintf(what, sizeof what, "%s, %s", KIND[kind], SIDES[side]);
            ex09_row row;
            if (!row_of(what, &bc, side == 1 ? NULL : &st[0], side == 2 ? NULL : &st[1], f, &row))
                continue;
            CHECK_MSG(fabs(row.phi - (gv[kind] - f[0])) <= 1e-14 * fmax(1.0, fabs(gv[kind])),
                      "%s: phi = %.15g, expected g - f = %.15g", what, row.phi, gv[kind] - f[0]);
            CHECK_MSG(row.nu == f[1], "%s: nu = %.15g, expected f' = %.15g", what, row.nu, f[1]);
        }
    /* a case by hand: body j at r = (1, 2, 3) turned a quarter about z, Q =
     * (1, 0, 0) on it, at (1, 3, 3); P = (0.5, 0, 0) on the ground: d = (0.5,
     * 3, 3), |d|^2 = 18.25; a_i = x (ground) and a_j = x (body j, now along
     * y): DP1 = 0, DP2 = 0.5 */
    ex09_state b;
    memset(&b, 0, sizeof b);
    b.r[0] = 1, b.r[1] = 2, b.r[2] = 3;
    b.p[0] = b.p[3] = sqrt(0.5);
    const double expect[4] = {3.0, 18.25, 0.0, 0.5}, f0[3] = {0, 0, 0};
    for (int kind = 0; kind < 4; kind++) {
        ex09_basic bc;
        memset(&bc, 0, sizeof bc);
        bc.kind = (ex09_basic_kind)kind;
        bc.sp[0] = 0.5, bc.sq[0] = 1.0, bc.ai[0] = 1.0, bc.aj[0] = 1.0, bc.c[2] = 1.0;
        ex09_row row;
        if (row_of(KIND[kind], &bc, NULL, &b, f0, &row))
            CHECK_MSG(fabs(row.phi - expect[kind]) <= 1e-14,
                      "%s by hand: phi = %.15g, expected %.15g", KIND[kind], row.phi,
                      expect[kind]);
    }
}

/* ------------------------------------------------------------------------ */
/* The derivatives                                                           */

/* 8th-order central differences of g along the motions mi, mj (NULL: the
 * ground) at t: dg/dt and d^2 g/dt^2 */
static double g_on_motion(const ex09_basic *bc, const fx_motion *mi, const fx_motion *mj, double t)
{
    ex09_state si, sj;
    if (mi)
        fx_motion_at(mi, t, &si, NULL, NULL);
    if (mj)
        fx_motion_at(mj, t, &sj, NULL, NULL);
    double x[14], v[14];
    fx_pack(mi ? &si : NULL, mj ? &sj : NULL, x, v);
    return fx_g(bc, x);
}

static void g_rates(const ex09_basic *bc, const fx_motion *mi, const fx_motion *mj, double t,
                    double *g1, double *g2)
{
    static const double c1[5] = {0.0, 4.0 / 5, -1.0 / 5, 4.0 / 105, -1.0 / 280};
    static const double c2[5] = {-205.0 / 72, 8.0 / 5, -1.0 / 5, 8.0 / 315, -1.0 / 560};
    const double h = 2e-3;
    double s1 = 0.0, s2 = c2[0] * g_on_motion(bc, mi, mj, t);
    for (int k = 1; k <= 4; k++) {
        const double gp = g_on_motion(bc, mi, mj, t + k * h);
        const double gm = g_on_motion(bc, mi, mj, t - k * h);
        s1 += c1[k] * (gp - gm);
        s2 += c2[k] * (gp + gm);
    }
    *g1 = s1 / h;
    *g2 = s2 / (h * h);
}

/* One kind at random states of both bodies and of one body against the
 * ground, on either side:
 *   - phi against g - f, nu = f';
 *   - Phi_r and Phi_p against the exact gradient of g (five-point stencils,
 *     exact for g's degree), a ground's blocks exactly zero;
 *   - gamma against -d^2 g/ds^2 + f'' along the straight line q + s q' (the
 *     definition -(Phi_q q')_q q' + f'', exact);
 *   - along a smooth motion (p(t) = normalize(u0 + t u1 + t^2 u2), r(t)
 *     cubic, f(t) not polynomial): Phi_q q' - nu = dPhi/dt and Phi_q q'' -
 *     gamma = d^2 Phi/dt^2 (Phi_q the test's), the rates by eighth-order
 *     central differences in t. */
static void derivatives_of(ex09_basic_kind kind)
{
    fx_rng g = {90110ULL + (unsigned long long)kind};
    double worst[5] = {0, 0, 0, 0, 0};
    for (int trial = 0; trial < 9; trial++) {
        const int side = trial < 5 ? 0 : 1 + trial % 2;
        const ex09_basic bc = random_basic(&g, kind, trial == 1 ? 1 : -1);
        fx_motion m[2];
        fx_random_motion(&g, &m[0]);
        fx_random_motion(&g, &m[1]);
        const fx_motion *mi = side == 1 ? NULL : &m[0], *mj = side == 2 ? NULL : &m[1];
        const double t = 0.8 * fx_uniform(&g);
        ex09_state si, sj;
        double rdd[2][3], pdd[2][4];
        fx_motion_at(&m[0], t, &si, rdd[0], pdd[0]);
        fx_motion_at(&m[1], t, &sj, rdd[1], pdd[1]);
        const ex09_state *bi = mi ? &si : NULL, *bj = mj ? &sj : NULL;
        double f[3];
        f_at(t, f);
        char what[96];
        snprintf(what, sizeof what, "%s, %s, trial %d", KIND[kind], SIDES[side], trial);
        ex09_row row;
        if (!row_of(what, &bc, bi, bj, f, &row))
            continue;
        double x[14], v[14], a[14], grad[14];
        fx_pack(bi, bj, x, v);
        fx_gradient(&bc, x, grad);
        memcpy(a, rdd[0], sizeof rdd[0]);
        memcpy(a + 3, pdd[0], sizeof pdd[0]);
        memcpy(a + 7, rdd[1], sizeof rdd[1]);
        memcpy(a + 10, pdd[1], sizeof pdd[1]);
        if (!mi)
            memset(a, 0, 7 * sizeof *a);
        if (!mj)
            memset(a + 7, 0, 7 * sizeof *a);
        const double gx = fx_g(&bc, x);
        double scale = fmax(1.0, fabs(gx));
        for (int k = 0; k < 14; k++)
            scale = fmax(scale, fabs(grad[k]));
        /* the value and nu */
        const double e_phi = fabs(row.phi - (gx - f[0]));
        CHECK_MSG(e_phi <= 1e-13 * scale, "%s: phi = %.15g, expected g - f = %.15g", what,
                  row.phi, gx - f[0]);
        CHECK_MSG(row.nu == f[1], "%s: nu = %.15g, expected f' = %.15g", what, row.nu, f[1]);
        /* the blocks */
        const ex09_state *st[2] = {bi, bj};
        double e_jac = 0.0;
        for (int s = 0; s < 2; s++)
            for (int k = 0; k < 7; k++) {
                const double got = k < 3 ? row.phi_r[s][k] : row.phi_p[s][k - 3];
                if (st[s] == NULL) {
                    CHECK_MSG(got == 0.0, "%s: the ground's %s block entry %d is %.6g, expected 0",
                              what, k < 3 ? "Phi_r" : "Phi_p", k < 3 ? k : k - 3, got);
                    continue;
                }
                const double e = fabs(got - grad[7 * s + k]);
                e_jac = isnan(e) ? NAN : fmax(e_jac, e);
                CHECK_MSG(e <= 1e-12 * scale,
                          "%s: %s_%c[%d] = %.15g, expected %.15g (the derivative of g)", what,
                          k < 3 ? "Phi_r" : "Phi_p", s == 0 ? 'i' : 'j', k < 3 ? k : k - 3, got,
                          grad[7 * s + k]);
            }
        /* gamma by its definition, along the straight line */
        const double gam = -fx_g_d2(&bc, x, v) + f[2];
        const double gscale = fmax(scale, fabs(gam));
        const double e_gam = fabs(row.gamma - gam);
        CHECK_MSG(e_gam <= 1e-11 * gscale,
                  "%s: gamma = %.15g, expected -(Phi_q q')_q q' + f'' = %.15g", what, row.gamma,
                  gam);
        /* along the smooth motion */
        double g1, g2;
        g_rates(&bc, mi, mj, t, &g1, &g2);
        double jqdd = 0.0, ujqd = 0.0;
        for (int k = 0; k < 14; k++)
            jqdd += grad[k] * a[k];
        for (int s = 0; s < 2; s++)
            for (int k = 0; k < 7; k++)
                ujqd += (k < 3 ? row.phi_r[s][k] : row.phi_p[s][k - 3]) * v[7 * s + k];
        const double e_nu = fabs((ujqd - row.nu) - (g1 - f[1]));
        CHECK_MSG(e_nu <= 1e-9 * gscale,
                  "%s: along the motion, Phi_q q' - nu = %.12g, but dPhi/dt = %.12g", what,
                  ujqd - row.nu, g1 - f[1]);
        const double e_acc = fabs((jqdd - row.gamma) - (g2 - f[2]));
        CHECK_MSG(e_acc <= 1e-8 * gscale,
                  "%s: along the motion, Phi_q q'' - gamma = %.12g, but d^2 Phi/dt^2 = %.12g",
                  what, jqdd - row.gamma, g2 - f[2]);
        const double e[5] = {e_phi / scale, e_jac / scale, e_gam / gscale, e_nu / gscale,
                             e_acc / gscale};
        for (int k = 0; k < 5; k++)
            worst[k] = isnan(e[k]) ? NAN : fmax(worst[k], e[k]);
    }
    if (getenv("EX09_VERBOSE"))
        printf("\n    %s: relative errors phi %.2e, blocks %.2e, gamma %.2e, along the motion "
               "%.2e and %.2e\n", KIND[kind], worst[0], worst[1], worst[2], worst[3], worst[4]);
}

static void derivatives_cd(void) { derivatives_of(EX09_CD); }
static void derivatives_d(void) { derivatives_of(EX09_D); }
static void derivatives_dp1(void) { derivatives_of(EX09_DP1); }
static void derivatives_dp2(void) { derivatives_of(EX09_DP2); }

/* ------------------------------------------------------------------------ */
/* The ground                                                                */

/* A ground side gives what a body at the global frame at rest would give,
 * except that its blocks are zero; the moving side's blocks do not change */
static void ground_sides(void)
{
    fx_rng g = {90120ULL};
    ex09_state rest;
    memset(&rest, 0, sizeof rest);
    rest.p[0] = 1.0;
    for (int kind = 0; kind < 4; kind++)
        for (int side = 0; side < 2; side++) {
            const ex09_basic bc = random_basic(&g, (ex09_basic_kind)kind, -1);
            fx_motion m;
            fx_random_motion(&g, &m);
            ex09_state s;
            fx_motion_at(&m, 0.3, &s, NULL, NULL);
            double f[3];
            f_at(0.3, f);
            char what[96];
            snprintf(what, sizeof what, "%s, %s", KIND[kind], SIDES[1 + side]);
            ex09_row with_ground, with_rest;
            const ex09_state *bi = side == 0 ? NULL : &s, *bj = side == 0 ? &s : NULL;
            if (!row_of(what, &bc, bi, bj, f, &with_ground)
                || !row_of(what, &bc, bi ? bi : &rest, bj ? bj : &rest, f, &with_rest))
                continue;
            /* the ground's blocks zero, the rest as for the body at rest */
            ex09_row expect = with_rest;
            memset(expect.phi_r[side], 0, sizeof expect.phi_r[side]);
            memset(expect.phi_p[side], 0, sizeof expect.phi_p[side]);
            const double e = fx_row_diff(&with_ground, &expect);
            CHECK_MSG(e <= 1e-14 * fmax(1.0, fx_row_size(&expect)),
                      "%s: differs from the same row with a body at rest at the global frame "
                      "(its blocks zeroed) by %.3g", what, e);
            /* and the ground's side of the body at rest is not zero (so the
             * comparison above says something): Phi_r or Phi_p there */
            double sz = 0.0;
            for (int k = 0; k < 3; k++)
                sz = fmax(sz, fabs(with_rest.phi_r[side][k]));
            for (int k = 0; k < 4; k++)
                sz = fmax(sz, fabs(with_rest.phi_p[side][k]));
            CHECK_MSG(sz > 1e-3, "%s: the body at rest has no block on the ground's side", what);
        }
}

/* ------------------------------------------------------------------------ */
/* Refusals                                                                  */

static void refused(const char *what, const ex09_basic *bc, const ex09_state *bi,
                    const ex09_state *bj, const double f[3])
{
    ex09_row row;
    fx_row_fill(&row, FX_SENTINEL);
    const int st = ex09_basic_row(bc, bi, bj, f, &row);
    CHECK_MSG(st == MBD_EINPUT, "%s: status %d (%s), expected MBD_EINPUT", what, st,
              mbd_strerror(st));
    CHECK_MSG(fx_row_is(&row, FX_SENTINEL), "%s: the row was written on an error", what);
}

static void refusals(void)
{
    fx_rng g = {90130ULL};
    fx_motion m;
    ex09_state si, sj;
    fx_random_motion(&g, &m);
    fx_motion_at(&m, 0.1, &si, NULL, NULL);
    fx_random_motion(&g, &m);
    fx_motion_at(&m, -0.2, &sj, NULL, NULL);
    const double f[3] = {0.1, 0.2, 0.3};
    ex09_basic bc[4];
    for (int k = 0; k < 4; k++)
        bc[k] = random_basic(&g, (ex09_basic_kind)k, -1);
    /* pointers, the kind, two grounds */
    refused("bc = NULL", NULL, &si, &sj, f);
    refused("f = NULL", &bc[0], &si, &sj, NULL);
    CHECK_STATUS(ex09_basic_row(&bc[1], &si, &sj, f, NULL), MBD_EINPUT);
    refused("both sides the ground", &bc[0], NULL, NULL, f);
    ex09_basic b = bc[2];
    b.kind = (ex09_basic_kind)4;
    refused("kind 4", &b, &si, &sj, f);
    /* zero directions */
    b = bc[0];
    memset(b.c, 0, sizeof b.c);
    refused("CD with c = 0", &b, &si, &sj, f);
    b = bc[2];
    memset(b.ai, 0, sizeof b.ai);
    refused("DP1 with a_bar_i = 0", &b, &si, NULL, f);
    b = bc[2];
    memset(b.aj, 0, sizeof b.aj);
    refused("DP1 with a_bar_j = 0", &b, &si, &sj, f);
    b = bc[3];
    memset(b.ai, 0, sizeof b.ai);
    refused("DP2 with a_bar_i = 0", &b, NULL, &sj, f);
    /* a moving body without an orientation */
    ex09_state z = sj;
    memset(z.p, 0, sizeof z.p);
    refused("p_j = 0", &bc[1], &si, &z, f);
    /* entries that are not finite */
    ex09_state w = si;
    w.r[1] = NAN;
    refused("r_i with a NaN", &bc[0], &w, &sj, f);
    w = si;
    w.p[0] = INFINITY;
    refused("p_i with an infinity", &bc[2], &w, NULL, f);
    w = sj;
    w.rd[2] = NAN;
    refused("r_j' with a NaN", &bc[1], NULL, &w, f);
    w = sj;
    w.pd[3] = -INFINITY;
    refused("p_j' with an infinity", &bc[3], &si, &w, f);
    b = bc[0];
    b.sp[2] = NAN;
    refused("CD with a NaN in P", &b, &si, &sj, f);
    b = bc[1];
    b.sq[0] = INFINITY;
    refused("D with an infinity in Q", &b, &si, &sj, f);
    b = bc[0];
    b.c[1] = NAN;
    refused("CD with a NaN in c", &b, &si, &sj, f);
    b = bc[2];
    b.aj[1] = NAN;
    refused("DP1 with a NaN in a_bar_j", &b, &si, &sj, f);
    b = bc[3];
    b.ai[0] = NAN;
    refused("DP2 with a NaN in a_bar_i", &b, &si, &sj, f);
    b = bc[3];
    b.sp[1] = NAN;
    refused("DP2 with a NaN in P", &b, &si, &sj, f);
    const double fnan[3] = {0.1, 0.2, NAN};
    refused("f'' = NaN", &bc[2], &si, &sj, fnan);
    /* what a kind does not use is not read: CD with a_bar_i = NaN and a_bar_j
     * = 0, DP1 with a NaN in P and Q and c = 0 */
    ex09_row row;
    b = bc[0];
    b.ai[0] = NAN;
    memset(b.aj, 0, sizeof b.aj);
    CHECK_MSG(ex09_basic_row(&b, &si, &sj, f, &row) == GSL_SUCCESS,
              "CD with a NaN in a_bar_i, which CD does not use, was refused");
    b = bc[2];
    b.sp[0] = b.sq[2] = NAN;
    memset(b.c, 0, sizeof b.c);
    CHECK_MSG(ex09_basic_row(&b, &si, &sj, f, &row) == GSL_SUCCESS,
              "DP1 with NaNs in P and Q and c = 0, which DP1 does not use, was refused");
}

static CU_TestInfo tests[] = {
    {"Phi and nu against rotations by Rodrigues' formula", values},
    {"CD: blocks, gamma, and along a smooth motion", derivatives_cd},
    {"D: blocks, gamma, and along a smooth motion", derivatives_d},
    {"DP1: blocks, gamma, and along a smooth motion", derivatives_dp1},
    {"DP2: blocks, gamma, and along a smooth motion", derivatives_dp2},
    {"the ground on either side", ground_sides},
    {"bad attributes, states and pointers are refused", refusals},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"ex09.1", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
