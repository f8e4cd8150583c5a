/* The spatial module: Euler parameters, basic constraints, joints, drivers,
 * forces and the analyses (spatial.h; document 003, Vignos 2016, and its
 * reading guide, seed-notes/003, "the guide").
 *
 * Every check compares with something the module did not compute: a closed
 * form, central finite differences, Rodrigues' formula, Euler's equations,
 * the power of a force. SPATIAL_VERBOSE=1 prints the measured errors.
 *
 *   euler          A(p) orthogonal, A = E G^T, Rodrigues; B(p, a) and K(a, b)
 *                  against differences at any p; omega = 2 G p' against the
 *                  rotation's rate A^T A'; p from A at half turns (e0 = 0),
 *                  near them and at random rotations (Shepperd)
 *   functions      f', f'' of every kind of time function against
 *                  differences; the values against the formula
 *   derivatives    every basic constraint (CD, D, DP1, DP2 with a driving
 *                  f(t)) and every joint: Phi_q and Phi_t against central
 *                  differences, nu and gamma against the first and second
 *                  time derivative of Phi along a smooth motion with unit p;
 *                  the body blocks against the assembled Jacobian; the rows
 *                  each joint adds
 *   joints         what each joint allows: the motions it keeps Phi = 0 under,
 *                  one it does not, and its degrees of freedom by rank
 *   forces         conservative generalized forces against -dV/dq, the others
 *                  against their power; the r-p mass matrix and gyroscopic
 *                  term against Euler's equations; kinetic energy; the TSDA at
 *                  l = 0; the mass shift leaves the accelerations unchanged
 *   analyses       the normalisation; assembly; initial velocities (cases 1-3,
 *                  minimum norm, rank); the driven spatial slider-crank
 *                  against its closed form; the driven pendulum's torque and
 *                  pin force by inverse dynamics against the analytic ones;
 *                  a block on an incline (reaction); redundant rows named;
 *                  assembly failures reported
 *   building       names, look-ups and the error paths
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_math.h>
#include <gsl/gsl_rng.h>

#include "check.h"
#include "mbd/constraints.h"
#include "mbd/formulation.h"
#include "mbd/spatial.h"

static const double G_ACC = 9.81;

static int verbose(void) { return getenv("SPATIAL_VERBOSE") != NULL; }

static double uni(gsl_rng *r, double a, double b) { return a + (b - a) * gsl_rng_uniform(r); }

static void rand3(gsl_rng *r, double lo, double hi, double v[3])
{
    for (int k = 0; k < 3; k++)
        v[k] = uni(r, lo, hi);
}

static void unit4(gsl_rng *r, double p[4])
{
    double n = 0.0;
    do {
        for (int k = 0; k < 4; k++)
            p[k] = uni(r, -1.0, 1.0);
        n = sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2] + p[3] * p[3]);
    } while (n < 0.2);
    for (int k = 0; k < 4; k++)
        p[k] /= n;
}

static double dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void cross3(const double a[3], const double b[3], double c[3])
{
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

static double norm3(const double a[3]) { return sqrt(dot3(a, a)); }

static void matvec(double A[3][3], const double x[3], double y[3])
{
    for (int r = 0; r < 3; r++)
        y[r] = A[r][0] * x[0] + A[r][1] * x[1] + A[r][2] * x[2];
}

/* Rodrigues: the rotation by angle th about the unit axis u */
static void rodrigues(const double u[3], double th, double R[3][3])
{
    const double c = cos(th), s = sin(th);
    for (int r = 0; r < 3; r++)
        for (int k = 0; k < 3; k++)
            R[r][k] = (r == k ? c : 0.0) + (1.0 - c) * u[r] * u[k];
    R[0][1] -= s * u[2];
    R[0][2] += s * u[1];
    R[1][0] += s * u[2];
    R[1][2] -= s * u[0];
    R[2][0] -= s * u[1];
    R[2][1] += s * u[0];
}

/* ------------------------------------------------------------------------ */
/* Euler parameters                                                          */

static void ep_orthogonal_rodrigues(void)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 11);
    double worst_orth = 0, worst_det = 0, worst_rod = 0, worst_eg = 0;
    for (int trial = 0; trial < 200; trial++) {
        double p[4], A[3][3], E[3][4], G[3][4];
        unit4(r, p);
        mbd_spatial_ep_A(p, A);
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++) {
                double s = A[0][a] * A[0][b] + A[1][a] * A[1][b] + A[2][a] * A[2][b];
                worst_orth = fmax(worst_orth, fabs(s - (a == b)));
            }
        double det = A[0][0] * (A[1][1] * A[2][2] - A[1][2] * A[2][1])
                     - A[0][1] * (A[1][0] * A[2][2] - A[1][2] * A[2][0])
                     + A[0][2] * (A[1][0] * A[2][1] - A[1][1] * A[2][0]);
        worst_det = fmax(worst_det, fabs(det - 1.0));
        /* p = (cos(th/2), sin(th/2) u): Rodrigues' matrix */
        double s = sqrt(p[1] * p[1] + p[2] * p[2] + p[3] * p[3]);
        double u[3] = {p[1] / s, p[2] / s, p[3] / s}, R[3][3];
        rodrigues(u, 2.0 * atan2(s, p[0]), R);
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++)
                worst_rod = fmax(worst_rod, fabs(R[a][b] - A[a][b]));
        /* A = E G^T holds for any p (the quadratic form), here |p| = 2.3 */
        double pp[4];
        for (int k = 0; k < 4; k++)
            pp[k] = 2.3 * p[k];
        mbd_spatial_ep_A(pp, A);
        mbd_spatial_ep_E(pp, E);
        mbd_spatial_ep_G(pp, G);
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++) {
                double v = 0.0;
                for (int k = 0; k < 4; k++)
                    v += E[a][k] * G[b][k];
                worst_eg = fmax(worst_eg, fabs(v - A[a][b]));
            }
    }
    if (verbose())
        printf("\n    A^T A - I %.2e, det - 1 %.2e, Rodrigues %.2e, E G^T - A %.2e\n",
               worst_orth, worst_det, worst_rod, worst_eg);
    CHECK_LE(worst_orth, 1e-14);
    CHECK_LE(worst_det, 1e-14);
    CHECK_LE(worst_rod, 1e-14);
    CHECK_LE(worst_eg, 1e-13);
    gsl_rng_free(r);
}

/* B(p, a) = d(A a)/dp and K(a, b) = d(B(p, a)^T b)/dp by central differences,
 * at p off the unit sphere (the formulas are exact there too) */
static void ep_B_K_differences(void)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 12);
    double worst_B = 0, worst_K = 0;
    const double h = 1e-6;
    for (int trial = 0; trial < 50; trial++) {
        double p[4], a[3], b[3], B[3][4], K[4][4];
        for (int k = 0; k < 4; k++)
            p[k] = uni(r, -1.5, 1.5);
        rand3(r, -2, 2, a);
        rand3(r, -2, 2, b);
        mbd_spatial_ep_B(p, a, B);
        mbd_spatial_ep_K(a, b, K);
        for (int c = 0; c < 4; c++) {
            double pp[4], pm[4], Ap[3][3], Am[3][3], xp[3], xm[3];
            memcpy(pp, p, sizeof p);
            memcpy(pm, p, sizeof p);
            pp[c] += h;
            pm[c] -= h;
            mbd_spatial_ep_A(pp, Ap);
            mbd_spatial_ep_A(pm, Am);
            matvec(Ap, a, xp);
            matvec(Am, a, xm);
            for (int k = 0; k < 3; k++)
                worst_B = fmax(worst_B, fabs((xp[k] - xm[k]) / (2 * h) - B[k][c]));
            double Bp[3][4], Bm[3][4];
            mbd_spatial_ep_B(pp, a, Bp);
            mbd_spatial_ep_B(pm, a, Bm);
            for (int k = 0; k < 4; k++) {
                double up = Bp[0][k] * b[0] + Bp[1][k] * b[1] + Bp[2][k] * b[2];
                double um = Bm[0][k] * b[0] + Bm[1][k] * b[1] + Bm[2][k] * b[2];
                worst_K = fmax(worst_K, fabs((up - um) / (2 * h) - K[k][c]));
            }
        }
    }
    if (verbose())
        printf("\n    B vs FD %.2e, K vs FD %.2e\n", worst_B, worst_K);
    CHECK_LE(worst_B, 1e-8);
    CHECK_LE(worst_K, 1e-8);
    gsl_rng_free(r);
}

/* omega_bar = 2 G p' and omega = 2 E p' against the rotation's rate:
 * A^T A' = omega_bar~ and A' A^T = omega~ along p(s) = (p + s p')/|p + s p'|;
 * and p' from omega back */
static void ep_angular_velocity(void)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 13);
    double worst_wb = 0, worst_w = 0, worst_rt = 0, worst_ppd = 0;
    const double h = 1e-6;
    for (int trial = 0; trial < 50; trial++) {
        double p[4], wbar[3], pd[4], w_body[3], w_glob[3];
        unit4(r, p);
        rand3(r, -3, 3, wbar);
        mbd_spatial_ep_pdot_body(p, wbar, pd);
        const double ppd = p[0] * pd[0] + p[1] * pd[1] + p[2] * pd[2] + p[3] * pd[3];
        worst_ppd = fmax(worst_ppd, fabs(ppd));
        mbd_spatial_ep_omega_bar(p, pd, w_body);
        mbd_spatial_ep_omega(p, pd, w_glob);
        for (int k = 0; k < 3; k++)
            worst_rt = fmax(worst_rt, fabs(w_body[k] - wbar[k]));
        /* global back to p' */
        double pd2[4];
        mbd_spatial_ep_pdot_global(p, w_glob, pd2);
        for (int k = 0; k < 4; k++)
            worst_rt = fmax(worst_rt, fabs(pd2[k] - pd[k]));
        double Ap[3][3], Am[3][3], A[3][3], Ad[3][3];
        double pp[4], pm[4], np = 0, nm = 0;
        for (int k = 0; k < 4; k++) {
            pp[k] = p[k] + h * pd[k];
            pm[k] = p[k] - h * pd[k];
            np += pp[k] * pp[k];
            nm += pm[k] * pm[k];
        }
        for (int k = 0; k < 4; k++) {
            pp[k] /= sqrt(np);
            pm[k] /= sqrt(nm);
        }
        mbd_spatial_ep_A(p, A);
        mbd_spatial_ep_A(pp, Ap);
        mbd_spatial_ep_A(pm, Am);
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++)
                Ad[a][b] = (Ap[a][b] - Am[a][b]) / (2 * h);
        /* S = A^T A' (body), T = A' A^T (global) */
        double S[3][3], T[3][3];
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++) {
                S[a][b] = A[0][a] * Ad[0][b] + A[1][a] * Ad[1][b] + A[2][a] * Ad[2][b];
                T[a][b] = Ad[a][0] * A[b][0] + Ad[a][1] * A[b][1] + Ad[a][2] * A[b][2];
            }
        const double sb[3] = {S[2][1], S[0][2], S[1][0]}, tg[3] = {T[2][1], T[0][2], T[1][0]};
        for (int k = 0; k < 3; k++) {
            worst_wb = fmax(worst_wb, fabs(sb[k] - w_body[k]));
            worst_w = fmax(worst_w, fabs(tg[k] - w_glob[k]));
        }
    }
    if (verbose())
        printf("\n    omega_bar vs A^T A' %.2e, omega vs A' A^T %.2e, round trip %.2e, "
               "p.p' %.2e\n", worst_wb, worst_w, worst_rt, worst_ppd);
    CHECK_LE(worst_wb, 1e-8);
    CHECK_LE(worst_w, 1e-8);
    CHECK_LE(worst_rt, 1e-14);
    CHECK_LE(worst_ppd, 1e-15);
    gsl_rng_free(r);
}

/* p from a rotation matrix: half turns (e0 = 0, where the document's A2p
 * divides by zero), near half turns, the document's Fig. 16 matrix, random
 * rotations; a matrix that is not a rotation is refused */
static void ep_from_rotation_matrix(void)
{
    /* half turns about the axes: p = (0, e_k) */
    for (int k = 0; k < 3; k++) {
        double A[3][3] = {{-1, 0, 0}, {0, -1, 0}, {0, 0, -1}}, p[4];
        A[k][k] = 1.0;
        CHECK_STATUS(mbd_spatial_ep_from_A(A, p), GSL_SUCCESS);
        for (int c = 0; c < 4; c++)
            CHECK_CLOSE(fabs(p[c]), c == k + 1 ? 1.0 : 0.0, 1e-15);
    }
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 14);
    double worst_half = 0, worst_near = 0, worst_rand = 0, worst_p = 0;
    for (int trial = 0; trial < 200; trial++) {
        double u[3], R[3][3], p[4], A[3][3];
        rand3(r, -1, 1, u);
        const double n = norm3(u);
        for (int k = 0; k < 3; k++)
            u[k] /= n;
        /* a half turn about u: Rodrigues at pi; p = +-(0, u) */
        rodrigues(u, M_PI, R);
        CHECK_STATUS(mbd_spatial_ep_from_A(R, p), GSL_SUCCESS);
        mbd_spatial_ep_A(p, A);
        const double sgn = p[1] * u[0] + p[2] * u[1] + p[3] * u[2] >= 0 ? 1.0 : -1.0;
        worst_half = fmax(worst_half, fabs(p[0]));
        for (int k = 0; k < 3; k++)
            worst_half = fmax(worst_half, fabs(p[k + 1] - sgn * u[k]));
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++)
                worst_half = fmax(worst_half, fabs(A[a][b] - R[a][b]));
        /* within 1e-9 of a half turn */
        rodrigues(u, M_PI - 1e-9, R);
        CHECK_STATUS(mbd_spatial_ep_from_A(R, p), GSL_SUCCESS);
        mbd_spatial_ep_A(p, A);
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++)
                worst_near = fmax(worst_near, fabs(A[a][b] - R[a][b]));
        /* a random rotation: p back to +-p */
        double p0[4];
        unit4(r, p0);
        mbd_spatial_ep_A(p0, R);
        CHECK_STATUS(mbd_spatial_ep_from_A(R, p), GSL_SUCCESS);
        mbd_spatial_ep_A(p, A);
        const double s2 = p[0] * p0[0] + p[1] * p0[1] + p[2] * p0[2] + p[3] * p0[3] >= 0 ? 1 : -1;
        for (int c = 0; c < 4; c++)
            worst_p = fmax(worst_p, fabs(p[c] - s2 * p0[c]));
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++)
                worst_rand = fmax(worst_rand, fabs(A[a][b] - R[a][b]));
        CHECK_MSG(p[0] >= 0, "e0 = %g < 0", p[0]);
    }
    if (verbose())
        printf("\n    half turns %.2e, near half turns %.2e, random A %.2e, random p %.2e\n",
               worst_half, worst_near, worst_rand, worst_p);
    CHECK_LE(worst_half, 1e-15);
    CHECK_LE(worst_near, 1e-15);
    CHECK_LE(worst_rand, 1e-15);
    CHECK_LE(worst_p, 1e-15);

    /* the document's Fig. 16 orientation (the ME751 pendulum at 45 degrees) */
    const double s2 = sqrt(2.0) / 2.0;
    double A2[3][3] = {{0, 0, 1}, {s2, s2, 0}, {-s2, s2, 0}}, p[4], A[3][3];
    CHECK_STATUS(mbd_spatial_ep_from_A(A2, p), GSL_SUCCESS);
    mbd_spatial_ep_A(p, A);
    double w = 0;
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++)
            w = fmax(w, fabs(A[a][b] - A2[a][b]));
    CHECK_LE(w, 1e-15);

    /* not a rotation: a reflection, a scaled matrix */
    double Refl[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, -1}};
    CHECK_STATUS(mbd_spatial_ep_from_A(Refl, p), MBD_EINPUT);
    double Sc[3][3] = {{1.1, 0, 0}, {0, 1.1, 0}, {0, 0, 1.1}};
    CHECK_STATUS(mbd_spatial_ep_from_A(Sc, p), MBD_EINPUT);
    gsl_rng_free(r);
}

/* ------------------------------------------------------------------------ */
/* Time functions                                                            */

static int user_fn(double t, double f[3], void *u)
{
    const double a = *(const double *)u;
    f[0] = exp(a * t);
    f[1] = a * f[0];
    f[2] = a * a * f[0];
    return GSL_SUCCESS;
}

static void time_functions(void)
{
    const double a3[4] = {0.3, -1.2, 0.7, 0.25};
    double ua = -0.8;
    mbd_spatial_fn fns[] = {
        mbd_spatial_fn_constant(2.5),
        mbd_spatial_fn_poly(3, a3),
        mbd_spatial_fn_sine(0.7, 3.1, 0.4),
        mbd_spatial_fn_sum(mbd_spatial_fn_poly(3, a3), mbd_spatial_fn_sine(0.7, 3.1, 0.4)),
        mbd_spatial_fn_scale(-2.0, mbd_spatial_fn_sine(0.7, 3.1, 0.4)),
        mbd_spatial_fn_cos(1.0,
                           mbd_spatial_fn_poly(1, (const double[]){M_PI / 2 + 1e-4, -2 * M_PI})),
        mbd_spatial_fn_sin(0.5, mbd_spatial_fn_sum(mbd_spatial_fn_constant(0.3),
                                                   mbd_spatial_fn_sine(M_PI / 4, 2.0, M_PI / 2))),
        mbd_spatial_fn_user(user_fn, &ua),
    };
    const size_t nf = sizeof fns / sizeof fns[0];
    double worst1 = 0, worst2 = 0;
    const double h = 1e-5;
    for (size_t k = 0; k < nf; k++)
        for (double t = -0.7; t < 2.0; t += 0.37) {
            double v[3], vp[3], vm[3];
            REQUIRE_STATUS(mbd_spatial_fn_eval(&fns[k], t, v), GSL_SUCCESS);
            REQUIRE_STATUS(mbd_spatial_fn_eval(&fns[k], t + h, vp), GSL_SUCCESS);
            REQUIRE_STATUS(mbd_spatial_fn_eval(&fns[k], t - h, vm), GSL_SUCCESS);
            worst1 = fmax(worst1, fabs((vp[0] - vm[0]) / (2 * h) - v[1]) / fmax(1, fabs(v[1])));
            worst2 = fmax(worst2, fabs((vp[1] - vm[1]) / (2 * h) - v[2]) / fmax(1, fabs(v[2])));
        }
    if (verbose())
        printf("\n    f' vs FD %.2e, f'' vs FD %.2e\n", worst1, worst2);
    CHECK_LE(worst1, 1e-8);
    CHECK_LE(worst2, 1e-8);
    /* values against the formulas */
    double v[3];
    const double t = 0.37;
    mbd_spatial_fn_eval(&fns[1], t, v);
    CHECK_CLOSE(v[0], 0.3 - 1.2 * t + 0.7 * t * t + 0.25 * t * t * t, 1e-15);
    CHECK_CLOSE(v[2], 1.4 + 1.5 * t, 1e-14);
    mbd_spatial_fn_eval(&fns[5], t, v);
    CHECK_CLOSE(v[0], cos(M_PI / 2 + 1e-4 - 2 * M_PI * t), 1e-15);
    CHECK_CLOSE(v[1], 2 * M_PI * sin(M_PI / 2 + 1e-4 - 2 * M_PI * t), 1e-13);
    mbd_spatial_fn_eval(&fns[6], t, v);
    CHECK_CLOSE(v[0], 0.5 * sin(0.3 + M_PI / 4 * cos(2 * t)), 1e-15);
    CHECK_MSG(mbd_spatial_fn_is_constant(&fns[0]), "a constant is constant");
    CHECK_MSG(!mbd_spatial_fn_is_constant(&fns[2]), "a sine is not constant");
    CHECK_MSG(!mbd_spatial_fn_is_constant(&fns[7]), "a user function is not constant");
    /* misuse: too many sines, a sum with a cos, a degree too high, NaN */
    mbd_spatial_fn s = mbd_spatial_fn_sine(1, 1, 0);
    for (int k = 0; k < MBD_SPATIAL_FN_SINES; k++)
        s = mbd_spatial_fn_sum(s, mbd_spatial_fn_sine(1, 1, 0));
    CHECK_STATUS(mbd_spatial_fn_eval(&s, 0, v), MBD_EINPUT);
    s = mbd_spatial_fn_sum(fns[5], fns[0]);
    CHECK_STATUS(mbd_spatial_fn_eval(&s, 0, v), MBD_EINPUT);
    s = mbd_spatial_fn_poly(MBD_SPATIAL_FN_DEGREE + 1, (const double[8]){0});
    CHECK_STATUS(mbd_spatial_fn_eval(&s, 0, v), MBD_EINPUT);
    s = mbd_spatial_fn_constant(NAN);
    CHECK_STATUS(mbd_spatial_fn_eval(&s, 0, v), MBD_EINPUT);
}

/* ------------------------------------------------------------------------ */
/* Derivatives of the rows                                                   */

/* A smooth motion of every moving body: r(t) = r0 + t r1 + t^2 r2 and
 * p(t) = u(t)/|u(t)| with u(t) = u0 + t u1 + t^2 u2, so |p| = 1 at all t,
 * and its exact first and second derivatives. */
typedef struct {
    double r[3][3], u[3][4];
} body_motion;

static void motion_at(const body_motion *mo, double t, double q[7], double qd[7], double qdd[7])
{
    for (int k = 0; k < 3; k++) {
        q[k] = mo->r[0][k] + t * mo->r[1][k] + t * t * mo->r[2][k];
        qd[k] = mo->r[1][k] + 2 * t * mo->r[2][k];
        qdd[k] = 2 * mo->r[2][k];
    }
    double u[4], ud[4], udd[4], n = 0;
    for (int k = 0; k < 4; k++) {
        u[k] = mo->u[0][k] + t * mo->u[1][k] + t * t * mo->u[2][k];
        ud[k] = mo->u[1][k] + 2 * t * mo->u[2][k];
        udd[k] = 2 * mo->u[2][k];
        n += u[k] * u[k];
    }
    n = sqrt(n);
    double p[4], pd[4], s = 0, sd = 0;
    for (int k = 0; k < 4; k++)
        p[k] = u[k] / n;
    for (int k = 0; k < 4; k++)
        s += p[k] * ud[k];                           /* n' = p . u' */
    for (int k = 0; k < 4; k++)
        pd[k] = (ud[k] - p[k] * s) / n;
    for (int k = 0; k < 4; k++)
        sd += pd[k] * ud[k] + p[k] * udd[k];
    for (int k = 0; k < 4; k++) {
        q[3 + k] = p[k];
        qd[3 + k] = pd[k];
        qdd[3 + k] = (udd[k] - 2 * pd[k] * s - p[k] * sd) / n;
    }
}

static void system_motion(const mbd_spatial_model *sm, const body_motion *mo, double t,
                          gsl_vector *q, gsl_vector *qd, gsl_vector *qdd)
{
    size_t mb = 0;
    for (size_t b = 0; b < mbd_spatial_n_bodies(sm); b++) {
        size_t c;
        if (mbd_spatial_body_coordinates(sm, (int)b, &c) != GSL_SUCCESS)
            continue;
        double a[7], ad[7], add[7];
        motion_at(&mo[mb++], t, a, ad, add);
        for (int k = 0; k < 7; k++) {
            gsl_vector_set(q, c + k, a[k]);
            if (qd)
                gsl_vector_set(qd, c + k, ad[k]);
            if (qdd)
                gsl_vector_set(qdd, c + k, add[k]);
        }
    }
}

typedef struct {
    double jac, ct, nu, gamma, blocks, lib_gamma;   /* relative errors */
    double gamma_size, ct_size;                    /* the least |gamma|, |C_t| seen */
} deriv_errors;

/* All rows of a finished model against differences at random smooth motions */
static void check_rows(const mbd_spatial_model *sm, unsigned seed, deriv_errors *out)
{
    const mbd_system *s = mbd_spatial_system(sm);
    const size_t n = s->n, m = s->m;
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, seed);
    gsl_vector *q = gsl_vector_alloc(n), *qd = gsl_vector_alloc(n), *qdd = gsl_vector_alloc(n);
    gsl_vector *qa = gsl_vector_alloc(n), *C0 = gsl_vector_alloc(m), *Cp = gsl_vector_alloc(m),
               *Cm = gsl_vector_alloc(m), *Cp2 = gsl_vector_alloc(m),
               *Cm2 = gsl_vector_alloc(m), *gam = gsl_vector_alloc(m), *ct = gsl_vector_alloc(m),
               *Jq = gsl_vector_alloc(m);
    gsl_matrix *Cq = gsl_matrix_alloc(m, n);
    body_motion mo[8];
    memset(out, 0, sizeof *out);
    out->gamma_size = out->ct_size = HUGE_VAL;
    for (int trial = 0; trial < 12; trial++) {
        /* u0 a unit vector, u1 and u2 smaller: |u(t)| >= 1 - 0.6 - 0.3 on t in
         * [0, 1], so p(t) stays smooth (a |u| near 0 would turn p fast) */
        for (int b = 0; b < 8; b++) {
            for (int k = 0; k < 3; k++)
                rand3(r, -1.5, 1.5, mo[b].r[k]);
            unit4(r, mo[b].u[0]);
            for (int c = 0; c < 4; c++) {
                mo[b].u[1][c] = uni(r, -0.3, 0.3);
                mo[b].u[2][c] = uni(r, -0.15, 0.15);
            }
        }
        const double t = uni(r, 0.05, 0.95);
        system_motion(sm, mo, t, q, qd, qdd);
        /* the library's central differences of C in q and t (and its own
         * gamma check along the straight line q + s q', where |p| != 1) */
        mbd_fdcheck fd;
        REQUIRE_STATUS(mbd_system_check_derivatives(s, t, q, qd, 1e-6, &fd), GSL_SUCCESS);
        out->jac = fmax(out->jac, fd.jacobian_rel);
        out->ct = fmax(out->ct, fd.ct_rel);
        mbd_fdcheck fd2;
        REQUIRE_STATUS(mbd_system_check_derivatives(s, t, q, qd, 3e-4, &fd2), GSL_SUCCESS);
        out->lib_gamma = fmax(out->lib_gamma, fd2.gamma_rel);
        /* along the smooth motion: dPhi/dt = Phi_q q' - nu, d2Phi/dt2 = Phi_q q'' - gamma */
        s->jacobian(s, t, q, Cq);
        s->gamma(s, t, q, qd, gam);
        if (s->constraint_t)
            s->constraint_t(s, t, q, ct);
        else
            gsl_vector_set_zero(ct);
        /* fourth-order central differences of Phi(t, q(t)), step h and 2h */
        const double h = 1e-3;
        system_motion(sm, mo, t + h, qa, NULL, NULL);
        s->constraint(s, t + h, qa, Cp);
        system_motion(sm, mo, t - h, qa, NULL, NULL);
        s->constraint(s, t - h, qa, Cm);
        system_motion(sm, mo, t + 2 * h, qa, NULL, NULL);
        s->constraint(s, t + 2 * h, qa, Cp2);
        system_motion(sm, mo, t - 2 * h, qa, NULL, NULL);
        s->constraint(s, t - 2 * h, qa, Cm2);
        s->constraint(s, t, q, C0);
        double e_nu = 0, e_g = 0, sc_nu = 1, sc_g = 1;
        for (size_t k = 0; k < m; k++) {
            mbd_spatial_row_eval e;
            REQUIRE_STATUS(mbd_spatial_eval_row(sm, k, t, q, qd, &e), GSL_SUCCESS);
            /* nu = -C_t; gamma the same as the system's */
            out->blocks = fmax(out->blocks, fabs(e.nu + gsl_vector_get(ct, k)));
            out->blocks = fmax(out->blocks, fabs(e.gamma - gsl_vector_get(gam, k)));
            CHECK_MSG(e.phi == gsl_vector_get(C0, k), "row %zu: Phi differs", k);
            /* the blocks sit where the Jacobian has them */
            mbd_spatial_row_info info;
            mbd_spatial_row_info_get(sm, k, &info);
            double rowsum = 0.0;
            for (int sd = 0; sd < 2; sd++) {
                if (info.col[sd] == (size_t)-1)
                    continue;
                const size_t c0 = info.col[sd];
                for (int x = 0; x < 3; x++)
                    out->blocks = fmax(out->blocks,
                                       fabs(e.phi_r[sd][x] - gsl_matrix_get(Cq, k, c0 + x)));
                for (int x = 0; x < 4; x++)
                    out->blocks = fmax(out->blocks,
                                       fabs(e.phi_p[sd][x] - gsl_matrix_get(Cq, k, c0 + 3 + x)));
                for (int x = 0; x < 7; x++)
                    rowsum += fabs(gsl_matrix_get(Cq, k, info.col[sd] + x));
            }
            double total = 0.0;
            for (size_t c = 0; c < n; c++)
                total += fabs(gsl_matrix_get(Cq, k, c));
            CHECK_MSG(fabs(total - rowsum) <= 1e-15 * total,
                      "row %zu has entries outside its bodies' columns", k);
            double jqd = 0, jqdd = 0;
            for (size_t c = 0; c < n; c++) {
                jqd += gsl_matrix_get(Cq, k, c) * gsl_vector_get(qd, c);
                jqdd += gsl_matrix_get(Cq, k, c) * gsl_vector_get(qdd, c);
            }
            const double p1 = gsl_vector_get(Cp, k), m1 = gsl_vector_get(Cm, k);
            const double p2 = gsl_vector_get(Cp2, k), m2 = gsl_vector_get(Cm2, k);
            const double c0 = gsl_vector_get(C0, k);
            const double d1 = (8 * (p1 - m1) - (p2 - m2)) / (12 * h);
            const double d2 = (16 * (p1 + m1) - (p2 + m2) - 30 * c0) / (12 * h * h);
            e_nu = fmax(e_nu, fabs(d1 - (jqd - e.nu)));
            e_g = fmax(e_g, fabs(d2 - (jqdd - e.gamma)));
            sc_nu = fmax(sc_nu, fmax(fabs(jqd), fabs(e.nu)));
            sc_g = fmax(sc_g, fmax(fabs(jqdd), fabs(e.gamma)));
        }
        out->nu = fmax(out->nu, e_nu / sc_nu);
        out->gamma = fmax(out->gamma, e_g / sc_g);
        /* the checks compare something: gamma and C_t are not small */
        double gn = 0, cn = 0;
        for (size_t k = 0; k + mbd_spatial_n_bodies(sm) < m + 1 && k < m; k++) {
            mbd_spatial_row_info info;
            mbd_spatial_row_info_get(sm, k, &info);
            if (info.kind == MBD_SPATIAL_ROW_ORIENTATION)
                continue;
            gn = fmax(gn, fabs(gsl_vector_get(gam, k)));
            cn = fmax(cn, fabs(gsl_vector_get(ct, k)));
        }
        out->gamma_size = fmin(out->gamma_size, gn);
        out->ct_size = fmin(out->ct_size, cn);
    }
    gsl_vector_free(q);
    gsl_vector_free(qd);
    gsl_vector_free(qdd);
    gsl_vector_free(qa);
    gsl_vector_free(C0);
    gsl_vector_free(Cp);
    gsl_vector_free(Cm);
    gsl_vector_free(Cp2);
    gsl_vector_free(Cm2);
    gsl_vector_free(gam);
    gsl_vector_free(ct);
    gsl_vector_free(Jq);
    gsl_matrix_free(Cq);
    gsl_rng_free(r);
}

static mbd_spatial_fn wave(void)
{
    /* f = 0.3 + t + 0.1 t^2 + 0.25 sin(2.3 t + 0.4): f' >= 1 - 0.575, f'' nonzero */
    return mbd_spatial_fn_sum(mbd_spatial_fn_poly(2, (const double[]){0.3, 1.0, 0.1}),
                              mbd_spatial_fn_sine(0.25, 2.3, 0.4));
}

static double J_a[3][3] = {{0.4, 0.02, -0.01}, {0.02, 0.3, 0.03}, {-0.01, 0.03, 0.5}};
static double J_b[3][3] = {{0.2, 0, 0}, {0, 0.25, 0}, {0, 0, 0.1}};

enum { K_CD, K_D, K_DP1, K_DP2, K_PERP1, K_PERP2, K_SPHERICAL, K_REVOLUTE, K_CYLINDRICAL,
       K_TRANSLATIONAL, K_UNIVERSAL, K_REVCYL, K_GROUND, K_ALL };
static const char *const kname[] = {"CD", "D", "DP1", "DP2", "perp1", "perp2", "spherical",
                                    "revolute", "cylindrical", "translational", "universal",
                                    "revcyl", "ground", "all"};

/* Two moving bodies (a, b) and a ground; the constraint of one kind in each
 * arrangement: a-b, ground-a, b-ground. Arbitrary points and vectors. */
static mbd_spatial_model *row_model(int kind)
{
    mbd_spatial_model *sm = mbd_spatial_alloc();
    const int g = mbd_spatial_add_ground(sm, "ground");
    const int a = mbd_spatial_add_body(sm, "a", 1.3, J_a);
    const int b = mbd_spatial_add_body(sm, "b", 0.7, J_b);
    const double s1[3] = {0.3, -0.2, 0.5}, s2[3] = {-0.4, 0.1, 0.25}, s3[3] = {0.6, 0.7, -0.3};
    const double v1[3] = {0.8, 0.1, -0.3}, v2[3] = {-0.2, 0.9, 0.4}, v3[3] = {0.3, -0.5, 0.8};
    const double v4[3] = {0.5, 0.5, -0.2}, cx[3] = {1, 0, 0}, cz[3] = {0, 0, 1};
    const int pairs[3][2] = {{a, b}, {g, a}, {b, g}};
    char name[32];
    for (int k = 0; k < 3; k++) {
        const int i = pairs[k][0], j = pairs[k][1];
        snprintf(name, sizeof name, "%s%d", kname[kind == K_ALL ? 0 : kind], k);
#define NM(s) (snprintf(name, sizeof name, "%s%d", s, k), name)
        if (kind == K_CD || kind == K_ALL)
            mbd_spatial_add_cd(sm, NM("cd"), i, s1, j, s2, k == 1 ? cz : cx, wave());
        if (kind == K_D || kind == K_ALL)
            mbd_spatial_add_d(sm, NM("d"), i, s1, j, s2, wave());
        if (kind == K_DP1 || kind == K_ALL)
            mbd_spatial_add_dp1(sm, NM("dp1"), i, v1, j, v2, wave());
        if (kind == K_DP2 || kind == K_ALL)
            mbd_spatial_add_dp2(sm, NM("dp2"), i, v1, s1, j, s3, wave());
        if (kind == K_PERP1 || kind == K_ALL)
            mbd_spatial_add_perp1(sm, NM("perp1"), i, v1, v2, j, v3);
        if (kind == K_PERP2 || kind == K_ALL)
            mbd_spatial_add_perp2(sm, NM("perp2"), i, v1, v2, s1, j, s2);
        if (kind == K_SPHERICAL || kind == K_ALL)
            mbd_spatial_add_spherical(sm, NM("sph"), i, s1, j, s2);
        if (kind == K_REVOLUTE || kind == K_ALL)
            mbd_spatial_add_revolute(sm, NM("rev"), i, s1, v1, v2, j, s2, v3);
        if (kind == K_CYLINDRICAL || kind == K_ALL)
            mbd_spatial_add_cylindrical(sm, NM("cyl"), i, s1, v1, v2, j, s3, v3);
        if (kind == K_TRANSLATIONAL || kind == K_ALL)
            mbd_spatial_add_translational(sm, NM("tra"), i, s2, v1, v2, j, s3, v3, v4);
        if (kind == K_UNIVERSAL || kind == K_ALL)
            mbd_spatial_add_universal(sm, NM("uni"), i, s1, v2, j, s2, v4);
        if (kind == K_REVCYL || kind == K_ALL)
            mbd_spatial_add_revcyl(sm, NM("rc"), i, s1, v3, j, s2, v1, v2, v4);
#undef NM
    }
    if (kind == K_GROUND || kind == K_ALL) {
        const double r0[3] = {0.2, -0.3, 0.4}, p0[4] = {0.9, 0.1, -0.3, 0.2};
        mbd_spatial_add_ground_joint(sm, "fix_a", a, r0, p0);
        mbd_spatial_add_ground_joint(sm, "fix_b", b, NULL, NULL);
    }
    mbd_spatial_finish(sm);
    return sm;
}

static void derivatives_of(int kind)
{
    mbd_spatial_model *sm = row_model(kind);
    const mbd_system *s = mbd_spatial_system(sm);
    CHECK_MSG(s != NULL, "%s: %s", kname[kind], mbd_spatial_failure(sm)->cause);
    if (s == NULL) {
        mbd_spatial_free(sm);
        return;
    }
    CHECK_STATUS(mbd_system_validate(s), GSL_SUCCESS);
    /* the rows: each joint adds its kind's count, then 2 normalisation rows */
    size_t rows = 0;
    for (size_t k = 0; k < mbd_spatial_n_joints(sm); k++) {
        mbd_spatial_joint_info info;
        REQUIRE_STATUS(mbd_spatial_joint_info_get(sm, (int)k, &info), GSL_SUCCESS);
        CHECK_MSG(info.first == rows, "%s: joint %zu starts at row %zu", kname[kind], k,
                  info.first);
        CHECK_MSG(info.count == mbd_spatial_joint_rows(info.kind), "%s: %zu rows", info.name,
                  info.count);
        rows += info.count;
    }
    CHECK_MSG(s->m == rows + 2 && s->n == 14, "%s: m = %zu (joints' %zu + 2), n = %zu",
              kname[kind], s->m, rows, s->n);
    const int driven = kind <= K_DP2 || kind == K_ALL;
    CHECK_MSG((s->constraint_t != NULL) == driven, "%s: constraint_t", kname[kind]);
    deriv_errors e;
    check_rows(sm, 100u + (unsigned)kind, &e);
    if (verbose())
        printf("\n    %-13s Phi_q %.2e  Phi_t %.2e  nu %.2e  gamma %.2e  (line %.2e)  "
               "blocks %.1e  |gamma| >= %.2f  |Phi_t| >= %.2f\n",
               kname[kind], e.jac, e.ct, e.nu, e.gamma, e.lib_gamma, e.blocks, e.gamma_size,
               driven ? e.ct_size : 0.0);
    CHECK_MSG(e.jac <= 1e-8, "%s: Phi_q relative difference %.3g", kname[kind], e.jac);
    CHECK_MSG(e.ct <= 1e-8, "%s: Phi_t relative difference %.3g", kname[kind], e.ct);
    CHECK_MSG(e.nu <= 1e-9, "%s: nu relative difference %.3g", kname[kind], e.nu);
    CHECK_MSG(e.gamma <= 1e-7, "%s: gamma relative difference %.3g", kname[kind], e.gamma);
    CHECK_MSG(e.lib_gamma <= 1e-6, "%s: gamma (straight line) relative difference %.3g",
              kname[kind], e.lib_gamma);
    CHECK_MSG(e.blocks == 0.0, "%s: blocks differ from the Jacobian by %.3g", kname[kind],
              e.blocks);
    /* the ground joint's gamma is zero (its CD rows hold the centre, its
     * orientation rows are linear): there d2Phi/dt2 = Phi_q q'' is the check */
    if (kind != K_GROUND)
        CHECK_MSG(e.gamma_size >= 0.02, "%s: |gamma| only %.3g", kname[kind], e.gamma_size);
    if (driven)
        CHECK_MSG(e.ct_size >= 0.05, "%s: |Phi_t| only %.3g", kname[kind], e.ct_size);
    mbd_spatial_free(sm);
}

static void derivatives_cd(void) { derivatives_of(K_CD); }
static void derivatives_d(void) { derivatives_of(K_D); }
static void derivatives_dp1(void) { derivatives_of(K_DP1); }
static void derivatives_dp2(void) { derivatives_of(K_DP2); }
static void derivatives_perp1(void) { derivatives_of(K_PERP1); }
static void derivatives_perp2(void) { derivatives_of(K_PERP2); }
static void derivatives_spherical(void) { derivatives_of(K_SPHERICAL); }
static void derivatives_revolute(void) { derivatives_of(K_REVOLUTE); }
static void derivatives_cylindrical(void) { derivatives_of(K_CYLINDRICAL); }
static void derivatives_translational(void) { derivatives_of(K_TRANSLATIONAL); }
static void derivatives_universal(void) { derivatives_of(K_UNIVERSAL); }
static void derivatives_revcyl(void) { derivatives_of(K_REVCYL); }
static void derivatives_ground(void) { derivatives_of(K_GROUND); }
static void derivatives_all(void) { derivatives_of(K_ALL); }

/* The rows each joint adds (guide Sec. 2.4 and the guide's U6) */
static void row_counts(void)
{
    static const struct {
        mbd_spatial_joint_kind kind;
        size_t rows;
    } want[] = {
        {MBD_SPATIAL_JOINT_CD, 1}, {MBD_SPATIAL_JOINT_D, 1}, {MBD_SPATIAL_JOINT_DP1, 1},
        {MBD_SPATIAL_JOINT_DP2, 1}, {MBD_SPATIAL_JOINT_PERP1, 2}, {MBD_SPATIAL_JOINT_PERP2, 2},
        {MBD_SPATIAL_JOINT_SPHERICAL, 3}, {MBD_SPATIAL_JOINT_REVOLUTE, 5},
        {MBD_SPATIAL_JOINT_CYLINDRICAL, 4}, {MBD_SPATIAL_JOINT_TRANSLATIONAL, 5},
        {MBD_SPATIAL_JOINT_UNIVERSAL, 4}, {MBD_SPATIAL_JOINT_REVCYL, 3},
        {MBD_SPATIAL_JOINT_GROUND, 6},
    };
    for (size_t k = 0; k < sizeof want / sizeof want[0]; k++)
        CHECK_MSG(mbd_spatial_joint_rows(want[k].kind) == want[k].rows, "%s: %zu rows, not %zu",
                  mbd_spatial_joint_kind_name(want[k].kind), mbd_spatial_joint_rows(want[k].kind),
                  want[k].rows);
    /* and in a model: the "all" model has 3 of each two-body kind, 2 ground joints */
    mbd_spatial_model *sm = row_model(K_ALL);
    size_t total = 0;
    for (size_t k = 0; k < sizeof want / sizeof want[0]; k++)
        total += (want[k].kind == MBD_SPATIAL_JOINT_GROUND ? 2 : 3) * want[k].rows;
    CHECK_MSG(mbd_spatial_n_rows(sm) == total + 2, "rows %zu, expected %zu",
              mbd_spatial_n_rows(sm), total + 2);
    mbd_spatial_free(sm);
}

/* ------------------------------------------------------------------------ */
/* What the joints allow                                                     */

/* The pose of body b after the rigid motion x -> c + R (x - c) + v */
static void move_body(const mbd_spatial_model *sm, int b, double R[3][3], const double c[3],
                      const double v[3], const gsl_vector *q, gsl_vector *q2)
{
    double r[3], p[4], A[3][3], RA[3][3], d[3], Rd[3];
    mbd_spatial_pose(sm, b, q, r, p);
    mbd_spatial_ep_A(p, A);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            RA[i][j] = R[i][0] * A[0][j] + R[i][1] * A[1][j] + R[i][2] * A[2][j];
    for (int k = 0; k < 3; k++)
        d[k] = r[k] - c[k];
    matvec(R, d, Rd);
    double r2[3];
    for (int k = 0; k < 3; k++)
        r2[k] = c[k] + Rd[k] + v[k];
    gsl_vector_memcpy(q2, q);
    mbd_spatial_set_pose_A(sm, b, r2, RA, q2);
}

static double constraint_norm_at(const mbd_system *s, double t, const gsl_vector *q)
{
    gsl_vector *C = gsl_vector_alloc(s->m);
    s->constraint(s, t, q, C);
    double v = gsl_vector_max(C) > -gsl_vector_min(C) ? gsl_vector_max(C) : -gsl_vector_min(C);
    gsl_vector_free(C);
    return v;
}

static double constraint_norm(const mbd_system *s, const gsl_vector *q)
{
    return constraint_norm_at(s, 0.0, q);
}

/* A joint between the ground and a body, set up consistent: the joint's
 * point at P0, its axis along u. Then: every motion the joint allows keeps
 * Phi = 0, one it does not allow breaks it, and the degrees of freedom by
 * the rank of Phi_q (reported by the velocity analysis) */
static void joint_motions(void)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 21);
    const int kinds[] = {K_SPHERICAL, K_REVOLUTE, K_CYLINDRICAL, K_TRANSLATIONAL, K_UNIVERSAL,
                         K_REVCYL, K_GROUND};
    /* 6 - rows: the normalisation row takes the seventh coordinate */
    const size_t dof_want[] = {3, 1, 2, 1, 2, 3, 0};
    for (size_t kk = 0; kk < sizeof kinds / sizeof kinds[0]; kk++) {
        const int kind = kinds[kk];
        /* a frame: axis u, and w1, w2 normal to it */
        double u[3], w1[3], w2[3], P0[3] = {0.3, -0.2, 0.5}, pb[4], A[3][3], sq[3];
        rand3(r, -1, 1, u);
        const double nu = norm3(u);
        for (int k = 0; k < 3; k++)
            u[k] /= nu;
        const double t0[3] = {0.3, 0.9, -0.2};
        cross3(u, t0, w1);
        const double n1 = norm3(w1);
        for (int k = 0; k < 3; k++)
            w1[k] /= n1;
        cross3(u, w1, w2);
        unit4(r, pb);
        mbd_spatial_ep_A(pb, A);
        rand3(r, -0.5, 0.5, sq);
        /* the body's vectors: u, w1, w2 in its frame (A^T) */
        double ub[3], w1b[3], w2b[3], Asq[3];
        double At[3][3];
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++)
                At[i][j] = A[j][i];
        matvec(At, u, ub);
        matvec(At, w1, w1b);
        matvec(At, w2, w2b);
        matvec(A, sq, Asq);
        double rb[3];
        for (int k = 0; k < 3; k++)
            rb[k] = P0[k] - Asq[k];                     /* Q on the body at P0 */

        mbd_spatial_model *sm = mbd_spatial_alloc();
        const int g = mbd_spatial_add_ground(sm, "ground");
        const int b = mbd_spatial_add_body(sm, "body", 1.0, J_b);
        switch (kind) {
        case K_SPHERICAL:
            mbd_spatial_add_spherical(sm, "j", g, P0, b, sq);
            break;
        case K_REVOLUTE:
            mbd_spatial_add_revolute(sm, "j", g, P0, w1, w2, b, sq, ub);
            break;
        case K_CYLINDRICAL:
            mbd_spatial_add_cylindrical(sm, "j", g, P0, w1, w2, b, sq, ub);
            break;
        case K_TRANSLATIONAL:
            mbd_spatial_add_translational(sm, "j", g, P0, w1, w2, b, sq, ub, w2b);
            break;
        case K_UNIVERSAL:
            /* the ground's axis u, the body's axis w1 (normal to u) */
            mbd_spatial_add_universal(sm, "j", g, P0, u, b, sq, w1b);
            break;
        case K_REVCYL:
            /* the ground turns about h_i = w1 ... here i = ground, j = body:
             * P (ground, at P0) stays on the body's line through Q along h_j = u */
            mbd_spatial_add_revcyl(sm, "j", g, P0, w1, b, sq, ub, w1b, w2b);
            break;
        case K_GROUND:
            mbd_spatial_add_ground_joint(sm, "j", b, rb, pb);
            break;
        }
        REQUIRE_STATUS(mbd_spatial_finish(sm), GSL_SUCCESS);
        const mbd_system *s = mbd_spatial_system(sm);
        gsl_vector *q = gsl_vector_alloc(s->n), *q2 = gsl_vector_alloc(s->n);
        gsl_vector *qd = gsl_vector_calloc(s->n);
        mbd_spatial_set_pose(sm, b, rb, pb, q);
        CHECK_MSG(constraint_norm(s, q) <= 1e-14, "%s: |Phi| = %.3g at the set-up",
                  kname[kind], constraint_norm(s, q));
        /* allowed motions */
        double R[3][3], I3[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, zero[3] = {0, 0, 0};
        double along[3], across[3], rx[3][3], ry[3][3];
        for (int k = 0; k < 3; k++) {
            along[k] = 0.37 * u[k];
            across[k] = 0.21 * w1[k];
        }
        rodrigues(u, 0.8, R);                         /* about the axis through P0 */
        rodrigues(w1, 0.6, rx);                       /* about w1 through P0 */
        rodrigues(w2, -0.5, ry);                      /* about w2 through P0 */
        /* the universal joint's axes are u (ground) and w1 (body); the
         * revolute-cylindrical's revolute axis is w1 (ground), its line u */
        const int about_u = kind == K_SPHERICAL || kind == K_REVOLUTE || kind == K_CYLINDRICAL
                            || kind == K_UNIVERSAL || kind == K_REVCYL;
        struct {
            const char *what;
            double (*R)[3];
            const double *v;
            int allowed;
        } tries[] = {
            {"turn about the axis u", R, zero, about_u},
            {"slide along the axis u", I3, along,
             kind == K_CYLINDRICAL || kind == K_TRANSLATIONAL || kind == K_REVCYL},
            {"turn about w1", rx, zero,
             kind == K_SPHERICAL || kind == K_UNIVERSAL || kind == K_REVCYL},
            {"turn about w2", ry, zero, kind == K_SPHERICAL},
            {"slide across the axis", I3, across, 0},
        };
        for (size_t t = 0; t < sizeof tries / sizeof tries[0]; t++) {
            move_body(sm, b, tries[t].R, P0, tries[t].v, q, q2);
            const double c = constraint_norm(s, q2);
            if (tries[t].allowed)
                CHECK_MSG(c <= 1e-14, "%s: %s is allowed, |Phi| = %.3g", kname[kind],
                          tries[t].what, c);
            else
                CHECK_MSG(c >= 1e-3, "%s: %s is not allowed, |Phi| = %.3g", kname[kind],
                          tries[t].what, c);
        }
        /* the degrees of freedom by rank */
        mbd_spatial_report rep;
        CHECK_STATUS(mbd_spatial_velocity(sm, 0.0, q, qd, NULL, NULL, &rep), GSL_SUCCESS);
        CHECK_MSG(rep.dof == dof_want[kk], "%s: %zu degrees of freedom (rank %zu), expected %zu",
                  kname[kind], rep.dof, rep.rank, dof_want[kk]);
        gsl_vector_free(q);
        gsl_vector_free(q2);
        gsl_vector_free(qd);
        mbd_spatial_free(sm);
    }
    gsl_rng_free(r);
}

/* ------------------------------------------------------------------------ */
/* Forces                                                                    */

static int spin_torque(const mbd_spatial_model *sm, double t, const gsl_vector *q,
                       const gsl_vector *qd, double n[3], void *user)
{
    (void)sm;
    (void)qd;
    (void)user;
    n[0] = 0.3 * sin(t) + gsl_vector_get(q, 0);
    n[1] = -0.2;
    n[2] = 0.5 * gsl_vector_get(q, 2);
    return GSL_SUCCESS;
}

static int actuator(double l, double ldot, double t, double *h, void *user)
{
    (void)user;
    *h = 2.0 * l - 0.5 * ldot + sin(t);
    return GSL_SUCCESS;
}

static const double F1[3] = {0.5, -1.0, 2.0}, S1[3] = {0.2, 0.4, -0.1}, S2[3] = {-0.3, 0.1, 0.6};
static const double GRAV[3] = {0.0, -9.81, 1.5};

/* The potential of the conservative forces of the model below at q: gravity
 * -m g . r, the springs (1/2) k (l - l0)^2 (l from the points' positions), and
 * -F . r_P for the constant global force F at P */
static double potential(const mbd_spatial_model *sm, const gsl_vector *q)
{
    const int a = mbd_spatial_body_index(sm, "a"), b = mbd_spatial_body_index(sm, "b");
    const int g = mbd_spatial_body_index(sm, "ground");
    double ra[3], rb[3], P[3], Q[3], V = 0;
    mbd_spatial_pose(sm, a, q, ra, NULL);
    mbd_spatial_pose(sm, b, q, rb, NULL);
    V -= 1.3 * dot3(GRAV, ra) + 0.7 * dot3(GRAV, rb);
    /* spring a-b: k = 40, l0 = 0.3 */
    mbd_spatial_point_position(sm, a, S1, q, P);
    mbd_spatial_point_position(sm, b, S2, q, Q);
    double d[3] = {Q[0] - P[0], Q[1] - P[1], Q[2] - P[2]};
    V += 0.5 * 40.0 * pow(norm3(d) - 0.3, 2);
    /* spring ground-b: k = 15, l0 = 0.8 */
    const double G0[3] = {1.0, 0.5, -0.2};
    mbd_spatial_point_position(sm, g, G0, q, P);
    mbd_spatial_point_position(sm, b, S1, q, Q);
    double d2[3] = {Q[0] - P[0], Q[1] - P[1], Q[2] - P[2]};
    V += 0.5 * 15.0 * pow(norm3(d2) - 0.8, 2);
    /* the constant global force F1 at S2 on a */
    mbd_spatial_point_position(sm, a, S2, q, P);
    V -= dot3(F1, P);
    return V;
}

static mbd_spatial_model *force_model(int conservative_only)
{
    mbd_spatial_model *sm = mbd_spatial_alloc();
    const int g = mbd_spatial_add_ground(sm, "ground");
    const int a = mbd_spatial_add_body(sm, "a", 1.3, J_a);
    const int b = mbd_spatial_add_body(sm, "b", 0.7, J_b);
    const double G0[3] = {1.0, 0.5, -0.2};
    mbd_spatial_set_gravity(sm, GRAV);
    mbd_spatial_add_tsda(sm, "spring", a, S1, b, S2, 40.0, 0.3, 0.0, NULL, NULL);
    mbd_spatial_add_tsda(sm, "anchor", g, G0, b, S1, 15.0, 0.8, 0.0, NULL, NULL);
    mbd_spatial_add_force(sm, "push", a, S2, F1, MBD_SPATIAL_GLOBAL);
    if (!conservative_only) {
        const double Fb[3] = {-0.4, 0.3, 0.9}, nb[3] = {0.2, -0.7, 0.4}, ng[3] = {1.1, 0.3, -0.5};
        mbd_spatial_add_force(sm, "follower", b, S1, Fb, MBD_SPATIAL_BODY);
        mbd_spatial_add_torque(sm, "body_torque", a, nb, MBD_SPATIAL_BODY);
        mbd_spatial_add_torque(sm, "global_torque", b, ng, MBD_SPATIAL_GLOBAL);
        mbd_spatial_add_variable_torque(sm, "vtorque", a, spin_torque, MBD_SPATIAL_BODY, NULL);
        mbd_spatial_add_tsda(sm, "damper", a, S2, b, S1, 5.0, 0.1, 3.0, actuator, NULL);
    }
    mbd_spatial_finish(sm);
    return sm;
}

/* Gravity, springs and a constant global force: Q = -dV/dq by central
 * differences, at q with |p| != 1 as well (Q_p = B(p, s)^T F is the exact
 * partial of the point's position there too) and q' = 0 (no gyroscopic term) */
static void conservative_forces(void)
{
    mbd_spatial_model *sm = force_model(1);
    const mbd_system *s = mbd_spatial_system(sm);
    REQUIRE_STATUS(s != NULL ? GSL_SUCCESS : GSL_EFAILED, GSL_SUCCESS);
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 31);
    gsl_vector *q = gsl_vector_alloc(s->n), *qd = gsl_vector_calloc(s->n),
               *F = gsl_vector_alloc(s->n), *qp = gsl_vector_alloc(s->n);
    double worst = 0, size = 0, worst_E = 0;
    for (int trial = 0; trial < 20; trial++) {
        for (size_t k = 0; k < s->n; k++)
            gsl_vector_set(q, k, uni(r, -1.2, 1.2));
        if (trial % 2 == 0) {                 /* unit p half the time */
            for (size_t c = 3; c < s->n; c += 7) {
                gsl_vector_view p = gsl_vector_subvector(q, c, 4);
                gsl_vector_scale(&p.vector, 1.0 / gsl_blas_dnrm2(&p.vector));
            }
        }
        REQUIRE_STATUS(s->force(s, 0.0, q, qd, F), GSL_SUCCESS);
        const double h = 1e-6;
        for (size_t c = 0; c < s->n; c++) {
            gsl_vector_memcpy(qp, q);
            gsl_vector_set(qp, c, gsl_vector_get(q, c) + h);
            const double Vp = potential(sm, qp);
            gsl_vector_set(qp, c, gsl_vector_get(q, c) - h);
            const double Vm = potential(sm, qp);
            const double Q = -(Vp - Vm) / (2 * h);
            worst = fmax(worst, fabs(Q - gsl_vector_get(F, c)));
            size = fmax(size, fabs(Q));
        }
        /* energy at rest = the potential without the constant force's part */
        double E, P[3];
        s->energy(s, 0.0, q, qd, &E);
        mbd_spatial_point_position(sm, mbd_spatial_body_index(sm, "a"), S2, q, P);
        worst_E = fmax(worst_E, fabs(E - (potential(sm, q) + dot3(F1, P))));
    }
    if (verbose())
        printf("\n    Q vs -dV/dq %.2e (relative %.2e of %.3g), energy %.2e\n", worst,
               worst / size, size, worst_E);
    CHECK_LE(worst / size, 1e-8);
    CHECK_LE(worst_E, 1e-12);
    gsl_vector_free(q);
    gsl_vector_free(qd);
    gsl_vector_free(F);
    gsl_vector_free(qp);
    gsl_rng_free(r);
    mbd_spatial_free(sm);
}

/* All forces: the power Q . q' (gyroscopic term aside) equals the sum of
 * F . v_P over the forces, n . omega over the torques and -f l' over the
 * TSDAs, with v_P, omega and l' by differences along the motion (|p| = 1,
 * p^T p' = 0); the gyroscopic term alone does no work (Q_gyro . p' = 0) */
static void force_power(void)
{
    mbd_spatial_model *sm = force_model(0);
    const mbd_system *s = mbd_spatial_system(sm);
    REQUIRE_STATUS(s != NULL ? GSL_SUCCESS : GSL_EFAILED, GSL_SUCCESS);
    const int a = mbd_spatial_body_index(sm, "a"), b = mbd_spatial_body_index(sm, "b");
    const int g = mbd_spatial_body_index(sm, "ground");
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 32);
    gsl_vector *q = gsl_vector_alloc(s->n), *qd = gsl_vector_alloc(s->n),
               *F = gsl_vector_alloc(s->n), *qp = gsl_vector_alloc(s->n),
               *qm = gsl_vector_alloc(s->n);
    double worst = 0, size = 0, worst_T = 0;
    const double h = 1e-6, t = 0.7;
    for (int trial = 0; trial < 20; trial++) {
        for (int body = a; body <= b; body++) {
            double rr[3], p[4], v[3], w[3];
            rand3(r, -1, 1, rr);
            unit4(r, p);
            rand3(r, -2, 2, v);
            rand3(r, -3, 3, w);
            mbd_spatial_set_pose(sm, body, rr, p, q);
            mbd_spatial_set_velocity(sm, body, q, v, w, MBD_SPATIAL_GLOBAL, qd);
        }
        s->force(s, t, q, qd, F);
        /* the motion q(e) = (r + e r', (p + e p')/|..|) */
        gsl_vector_memcpy(qp, q);
        gsl_blas_daxpy(h, qd, qp);
        gsl_vector_memcpy(qm, q);
        gsl_blas_daxpy(-h, qd, qm);
        for (size_t c = 3; c < s->n; c += 7) {
            gsl_vector_view pp = gsl_vector_subvector(qp, c, 4);
            gsl_vector_view pm = gsl_vector_subvector(qm, c, 4);
            gsl_vector_scale(&pp.vector, 1.0 / gsl_blas_dnrm2(&pp.vector));
            gsl_vector_scale(&pm.vector, 1.0 / gsl_blas_dnrm2(&pm.vector));
        }
        /* velocities of points and angular velocities by differences */
        double omega[2][3], Ap[3][3], Am[3][3], A[3][3];
        for (int body = a; body <= b; body++) {
            double p[4], pp[4], pm[4];
            mbd_spatial_pose(sm, body, q, NULL, p);
            mbd_spatial_pose(sm, body, qp, NULL, pp);
            mbd_spatial_pose(sm, body, qm, NULL, pm);
            mbd_spatial_ep_A(p, A);
            mbd_spatial_ep_A(pp, Ap);
            mbd_spatial_ep_A(pm, Am);
            double T[3][3];
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < 3; j++) {
                    T[i][j] = 0;
                    for (int k = 0; k < 3; k++)
                        T[i][j] += (Ap[i][k] - Am[i][k]) / (2 * h) * A[j][k];
                }
            omega[body - a][0] = T[2][1];
            omega[body - a][1] = T[0][2];
            omega[body - a][2] = T[1][0];
        }
#define VEL(body, s_, v_) do { double xp_[3], xm_[3]; \
        mbd_spatial_point_position(sm, body, s_, qp, xp_); \
        mbd_spatial_point_position(sm, body, s_, qm, xm_); \
        for (int k_ = 0; k_ < 3; k_++) (v_)[k_] = (xp_[k_] - xm_[k_]) / (2 * h); } while (0)
#define POS(body, s_, x_, qq) mbd_spatial_point_position(sm, body, s_, qq, x_)
        double P = 0, v[3], A_[3][3], ptmp[4];
        const double zero[3] = {0, 0, 0};
        /* gravity */
        VEL(a, zero, v);
        P += 1.3 * dot3(GRAV, v);
        VEL(b, zero, v);
        P += 0.7 * dot3(GRAV, v);
        /* push: F1 (global) at S2 on a */
        VEL(a, S2, v);
        P += dot3(F1, v);
        /* follower: Fb (body frame of b) at S1 on b */
        const double Fb[3] = {-0.4, 0.3, 0.9}, nb[3] = {0.2, -0.7, 0.4}, ng[3] = {1.1, 0.3, -0.5};
        double Fg[3];
        mbd_spatial_pose(sm, b, q, NULL, ptmp);
        mbd_spatial_ep_A(ptmp, A_);
        matvec(A_, Fb, Fg);
        VEL(b, S1, v);
        P += dot3(Fg, v);
        /* torques: n (global) . omega */
        double ng_a[3];
        mbd_spatial_pose(sm, a, q, NULL, ptmp);
        mbd_spatial_ep_A(ptmp, A_);
        matvec(A_, nb, ng_a);
        P += dot3(ng_a, omega[0]);
        P += dot3(ng, omega[1]);
        double vt[3];
        spin_torque(sm, t, q, qd, vt, NULL);
        matvec(A_, vt, ng_a);
        P += dot3(ng_a, omega[0]);
        /* TSDAs: -f l' with l' by differences */
        struct {
            int i;
            const double *si;
            int j;
            const double *sj;
            double k, l0, c;
            int act;
        } ts[3] = {
            {a, S1, b, S2, 40.0, 0.3, 0.0, 0},
            {g, (const double[]){1.0, 0.5, -0.2}, b, S1, 15.0, 0.8, 0.0, 0},
            {a, S2, b, S1, 5.0, 0.1, 3.0, 1},
        };
        double tl[3];
        for (int k = 0; k < 3; k++) {
            double Pi[3], Qj[3], lp, lm, l;
            POS(ts[k].i, ts[k].si, Pi, qp);
            POS(ts[k].j, ts[k].sj, Qj, qp);
            lp = sqrt(pow(Qj[0] - Pi[0], 2) + pow(Qj[1] - Pi[1], 2) + pow(Qj[2] - Pi[2], 2));
            POS(ts[k].i, ts[k].si, Pi, qm);
            POS(ts[k].j, ts[k].sj, Qj, qm);
            lm = sqrt(pow(Qj[0] - Pi[0], 2) + pow(Qj[1] - Pi[1], 2) + pow(Qj[2] - Pi[2], 2));
            POS(ts[k].i, ts[k].si, Pi, q);
            POS(ts[k].j, ts[k].sj, Qj, q);
            l = sqrt(pow(Qj[0] - Pi[0], 2) + pow(Qj[1] - Pi[1], 2) + pow(Qj[2] - Pi[2], 2));
            tl[k] = l;
            const double ld = (lp - lm) / (2 * h);
            double f = ts[k].k * (l - ts[k].l0) + ts[k].c * ld;
            if (ts[k].act)
                f += 2.0 * l - 0.5 * ld + sin(t);
            P -= f * ld;
        }
        /* the gyroscopic term 8 G(p')^T J G(p') p is in F; it does no work
         * (G(p') p' = 0), so Q . q' is the applied forces' power */
        double Pq = 0;
        gsl_blas_ddot(F, qd, &Pq);
        worst = fmax(worst, fabs(Pq - P));
        size = fmax(size, fabs(P));

        /* the energy: (1/2) m v^2 + (1/2) omega^T A J A^T omega, gravity, springs */
        double E, Tk = 0, Vk = 0;
        s->energy(s, t, q, qd, &E);
        for (int body = a; body <= b; body++) {
            double vp_[3], vm_[3], vv[3], p[4], Ab[3][3], At[3][3], wb[3], Jw[3];
            mbd_spatial_point_position(sm, body, zero, qp, vp_);
            mbd_spatial_point_position(sm, body, zero, qm, vm_);
            for (int k = 0; k < 3; k++)
                vv[k] = (vp_[k] - vm_[k]) / (2 * h);
            mbd_spatial_pose(sm, body, q, vp_, p);
            mbd_spatial_ep_A(p, Ab);
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < 3; j++)
                    At[i][j] = Ab[j][i];
            matvec(At, omega[body - a], wb);
            matvec(body == a ? J_a : J_b, wb, Jw);
            const double mass = body == a ? 1.3 : 0.7;
            Tk += 0.5 * mass * dot3(vv, vv) + 0.5 * dot3(wb, Jw);
            Vk -= mass * dot3(GRAV, vp_);
        }
        for (int k = 0; k < 3; k++)
            Vk += 0.5 * ts[k].k * pow(tl[k] - ts[k].l0, 2);
        worst_T = fmax(worst_T, fabs(E - (Tk + Vk)) / fabs(Tk));
    }
#undef VEL
#undef POS
    if (verbose())
        printf("\n    power Q.q' vs sum F.v + n.omega - f l' %.2e (relative %.2e of %.3g), "
               "energy (relative to T) %.2e\n", worst, worst / size, size, worst_T);
    CHECK_LE(worst / size, 1e-8);
    CHECK_LE(worst_T, 1e-8);
    gsl_vector_free(q);
    gsl_vector_free(qd);
    gsl_vector_free(F);
    gsl_vector_free(qp);
    gsl_vector_free(qm);
    gsl_rng_free(r);
    mbd_spatial_free(sm);
}

/* Accelerations of a model at (t, q, q') from the augmented system
 * [M Phi_q^T; Phi_q 0] [q''; lambda] = [F; gamma] (the library's KKT solve:
 * M alone is singular in the r-p form) */
static int kkt_accel(const mbd_system *s, double t, const gsl_vector *q, const gsl_vector *qd,
                     gsl_vector *qdd, gsl_vector *lambda)
{
    gsl_matrix *M = gsl_matrix_alloc(s->n, s->n), *Cq = gsl_matrix_alloc(s->m, s->n);
    gsl_vector *F = gsl_vector_alloc(s->n), *gam = gsl_vector_alloc(s->m);
    mbd_constraints *c = mbd_constraints_alloc(s->n, s->m);
    int st = s->mass(s, t, q, M);
    if (st == GSL_SUCCESS)
        st = s->force(s, t, q, qd, F);
    if (st == GSL_SUCCESS)
        st = s->jacobian(s, t, q, Cq);
    if (st == GSL_SUCCESS)
        st = s->gamma(s, t, q, qd, gam);
    if (st == GSL_SUCCESS)
        st = mbd_constraints_kkt_solve(c, t, M, Cq, F, gam, qdd, lambda);
    mbd_constraints_free(c);
    gsl_matrix_free(M);
    gsl_matrix_free(Cq);
    gsl_vector_free(F);
    gsl_vector_free(gam);
    return st;
}

/* One free body: the r-p equations M q'' + Phi_q^T lambda = F with the
 * normalisation row give r'' = g and omega_bar' = 2 G p'' that obeys Euler's
 * equations J w' + w x J w = n_bar (Haug Sec. 11.1; the 8 G'^T J G' p term
 * is what makes the gyroscopic part right). The projection formulation
 * refuses the singular M and, with the mass shift, gives the same q''. */
static void euler_equations(void)
{
    mbd_spatial_model *sm = mbd_spatial_alloc();
    const int b = mbd_spatial_add_body(sm, "b", 2.5, J_a);
    const double nbar[3] = {0.3, -1.2, 0.8};
    mbd_spatial_set_gravity(sm, GRAV);
    mbd_spatial_add_torque(sm, "motor", b, nbar, MBD_SPATIAL_BODY);
    REQUIRE_STATUS(mbd_spatial_finish(sm), GSL_SUCCESS);
    const mbd_system *s = mbd_spatial_system(sm);
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 41);
    gsl_vector *q = gsl_vector_alloc(7), *qd = gsl_vector_alloc(7), *qdd = gsl_vector_alloc(7),
               *qdd2 = gsl_vector_alloc(7), *lam = gsl_vector_alloc(1);
    double worst = 0, worst_r = 0, size = 0, worst_shift = 0;
    /* J^-1 by LU */
    gsl_matrix *Jm = gsl_matrix_alloc(3, 3);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            gsl_matrix_set(Jm, i, j, J_a[i][j]);
    gsl_permutation *perm = gsl_permutation_alloc(3);
    int sg;
    gsl_linalg_LU_decomp(Jm, perm, &sg);
    mbd_formulation_params fp = {.kind = MBD_FORMULATION_PROJECTION};
    for (int trial = 0; trial < 20; trial++) {
        double rr[3], p[4], v[3], w[3];
        rand3(r, -1, 1, rr);
        unit4(r, p);
        rand3(r, -2, 2, v);
        rand3(r, -4, 4, w);
        mbd_spatial_set_pose(sm, b, rr, p, q);
        mbd_spatial_set_velocity(sm, b, q, v, w, MBD_SPATIAL_BODY, qd);
        REQUIRE_STATUS(kkt_accel(s, 0.0, q, qd, qdd, lam), GSL_SUCCESS);
        for (int k = 0; k < 3; k++)
            worst_r = fmax(worst_r, fabs(gsl_vector_get(qdd, k) - GRAV[k]));
        double pdd[4], wd[3];
        for (int k = 0; k < 4; k++)
            pdd[k] = gsl_vector_get(qdd, 3 + k);
        mbd_spatial_ep_omega_bar(p, pdd, wd);     /* 2 G p'' (2 G' p' = 0) */
        double Jw[3], wJw[3], rhs[3];
        matvec(J_a, w, Jw);
        cross3(w, Jw, wJw);
        for (int k = 0; k < 3; k++)
            rhs[k] = nbar[k] - wJw[k];
        gsl_vector_view rv = gsl_vector_view_array(rhs, 3);
        gsl_linalg_LU_svx(Jm, perm, &rv.vector);
        for (int k = 0; k < 3; k++) {
            worst = fmax(worst, fabs(wd[k] - rhs[k]));
            size = fmax(size, fabs(rhs[k]));
        }
        /* projection: singular M refused; with the shift, the same q'' */
        mbd_spatial_set_mass_shift(sm, 0.0);
        mbd_formulation *f = mbd_formulation_alloc(s, &fp);
        CHECK_MSG(mbd_formulation_accel(f, 0.0, q, qd, qdd2, lam) != GSL_SUCCESS,
                  "the projection formulation accepted the singular r-p mass matrix");
        mbd_formulation_free(f);
        mbd_spatial_set_mass_shift(sm, 1.0);
        f = mbd_formulation_alloc(s, &fp);
        REQUIRE_STATUS(mbd_formulation_accel(f, 0.0, q, qd, qdd2, lam), GSL_SUCCESS);
        mbd_formulation_free(f);
        mbd_spatial_set_mass_shift(sm, 0.0);
        for (int k = 0; k < 7; k++)
            worst_shift = fmax(worst_shift, fabs(gsl_vector_get(qdd2, k) - gsl_vector_get(qdd, k)));
    }
    if (verbose())
        printf("\n    r'' - g %.2e, omega_bar' vs Euler %.2e (of %.3g), shifted projection %.2e\n",
               worst_r, worst, size, worst_shift);
    CHECK_LE(worst_r, 1e-12);
    CHECK_LE(worst / size, 1e-12);
    CHECK_LE(worst_shift, 1e-11);
    gsl_matrix_free(Jm);
    gsl_permutation_free(perm);
    gsl_vector_free(q);
    gsl_vector_free(qd);
    gsl_vector_free(qdd);
    gsl_vector_free(qdd2);
    gsl_vector_free(lam);
    gsl_rng_free(r);
    mbd_spatial_free(sm);
}

/* The document's spring-mass-damper TSDA (case 6: k = 100, c = 2, l0 = 0,
 * both points at the origins): the force on the mass is -(k x + c x') along
 * x; at l = 0 (where e_ij = d/l is undefined) it is finite, k d = 0, and
 * just off it k d. */
static void tsda_through_zero(void)
{
    mbd_spatial_model *sm = mbd_spatial_alloc();
    const int g = mbd_spatial_add_ground(sm, "ground");
    const int b = mbd_spatial_add_body(sm, "mass", 1.0, J_b);
    mbd_spatial_add_tsda(sm, "smd", g, NULL, b, NULL, 100.0, 0.0, 2.0, NULL, NULL);
    REQUIRE_STATUS(mbd_spatial_finish(sm), GSL_SUCCESS);
    const mbd_system *s = mbd_spatial_system(sm);
    gsl_vector *q = gsl_vector_alloc(7), *qd = gsl_vector_calloc(7), *F = gsl_vector_alloc(7);
    const double xs[3] = {0.02, 0.0, 1e-14};
    for (int k = 0; k < 3; k++) {
        const double r[3] = {xs[k], 0, 0}, v[3] = {0.3, 0, 0};
        mbd_spatial_set_pose(sm, b, r, NULL, q);
        mbd_spatial_set_velocity(sm, b, q, v, NULL, MBD_SPATIAL_GLOBAL, qd);
        REQUIRE_STATUS(s->force(s, 0.0, q, qd, F), GSL_SUCCESS);
        const double want = k == 0 ? -(100.0 * 0.02 + 2.0 * 0.3) : -100.0 * xs[k];
        CHECK_CLOSE(gsl_vector_get(F, 0), want, 1e-13);
        CHECK_CLOSE(gsl_vector_get(F, 1), 0.0, 1e-15);
        CHECK_CLOSE(gsl_vector_get(F, 2), 0.0, 1e-15);
        for (int c = 3; c < 7; c++)
            CHECK_CLOSE(gsl_vector_get(F, c), 0.0, 1e-15);
    }
    gsl_vector_free(q);
    gsl_vector_free(qd);
    gsl_vector_free(F);
    mbd_spatial_free(sm);
}

/* ------------------------------------------------------------------------ */
/* The normalisation rows                                                    */

static void normalisation(void)
{
    mbd_spatial_model *sm = mbd_spatial_alloc();
    const int b = mbd_spatial_add_body(sm, "b", 1.0, J_a);
    REQUIRE_STATUS(mbd_spatial_finish(sm), GSL_SUCCESS);
    const mbd_system *s = mbd_spatial_system(sm);
    CHECK_MSG(s->m == 1, "one row for one body (got %zu)", s->m);
    mbd_spatial_row_info info;
    REQUIRE_STATUS(mbd_spatial_row_info_get(sm, 0, &info), GSL_SUCCESS);
    CHECK_MSG(strcmp(info.name, "normalisation/b") == 0 && info.joint == -1
              && info.kind == MBD_SPATIAL_ROW_NORMALISATION, "row 0: '%s'", info.name);
    /* at p = (2, 1, 0, -1), p' = (0.1, 0.2, -0.3, 0.4): Phi = (6 - 1)/2, Phi_p = p^T,
     * gamma = -p'^T p' = -0.3 */
    gsl_vector *q = gsl_vector_calloc(7), *qd = gsl_vector_calloc(7);
    const double p[4] = {2, 1, 0, -1}, pd[4] = {0.1, 0.2, -0.3, 0.4};
    for (int k = 0; k < 4; k++) {
        gsl_vector_set(q, 3 + k, p[k]);
        gsl_vector_set(qd, 3 + k, pd[k]);
    }
    mbd_spatial_row_eval e;
    REQUIRE_STATUS(mbd_spatial_eval_row(sm, 0, 0.0, q, qd, &e), GSL_SUCCESS);
    CHECK_CLOSE(e.phi, 2.5, 1e-15);
    CHECK_CLOSE(e.gamma, -0.3, 1e-15);
    for (int k = 0; k < 4; k++)
        CHECK_CLOSE(e.phi_p[0][k], p[k], 0.0);
    for (int k = 0; k < 3; k++)
        CHECK_CLOSE(e.phi_r[0][k], 0.0, 0.0);
    /* M's p block has p in its null space: singular; the KKT matrix with the
     * normalisation row is regular */
    gsl_matrix *M = gsl_matrix_alloc(7, 7);
    s->mass(s, 0.0, q, M);
    double Mp[4] = {0, 0, 0, 0}, Mmax = 0;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            Mp[i] += gsl_matrix_get(M, 3 + i, 3 + j) * p[j];
            Mmax = fmax(Mmax, fabs(gsl_matrix_get(M, 3 + i, 3 + j)));
        }
    for (int i = 0; i < 4; i++)
        CHECK_CLOSE(Mp[i] / Mmax, 0.0, 1e-15);
    CHECK_MSG(Mmax > 0.5, "M's p block is not zero (%g)", Mmax);
    gsl_vector *qdd = gsl_vector_alloc(7), *lam = gsl_vector_alloc(1);
    CHECK_STATUS(kkt_accel(s, 0.0, q, qd, qdd, lam), GSL_SUCCESS);
    /* assembly puts p on the unit sphere */
    mbd_spatial_report rep;
    REQUIRE_STATUS(mbd_spatial_assemble(sm, 0.0, q, NULL, &rep), GSL_SUCCESS);
    double r0[3], p1[4];
    mbd_spatial_pose(sm, b, q, r0, p1);
    CHECK_CLOSE(p1[0] * p1[0] + p1[1] * p1[1] + p1[2] * p1[2] + p1[3] * p1[3], 1.0, 1e-15);
    CHECK_CLOSE(p1[0], 2 / sqrt(6.0), 1e-15);
    /* and Newton alone (no scaling first) gets there too */
    for (int k = 0; k < 4; k++)
        gsl_vector_set(q, 3 + k, 3.0 * p[k]);
    REQUIRE_STATUS(mbd_spatial_position(sm, 0.0, q, NULL, &rep), GSL_SUCCESS);
    mbd_spatial_pose(sm, b, q, r0, p1);
    CHECK_CLOSE(p1[0] * p1[0] + p1[1] * p1[1] + p1[2] * p1[2] + p1[3] * p1[3], 1.0, 1e-12);
    CHECK_MSG(rep.iterations >= 3, "Newton on the normalisation took %u iterations",
              rep.iterations);
    gsl_matrix_free(M);
    gsl_vector_free(q);
    gsl_vector_free(qd);
    gsl_vector_free(qdd);
    gsl_vector_free(lam);
    mbd_spatial_free(sm);
}

/* ------------------------------------------------------------------------ */
/* The spatial slider-crank (Haug Sec. 10.2 / 12.2; the guide's case 4)       */

typedef struct {
    mbd_spatial_model *sm;
    int ground, crank, rod, slider;
} crank_model;

static const double EPS_DRIVER = 1e-4;   /* the document's offset */

static int build_slider_crank(crank_model *cm, int driven)
{
    static double Jc[3][3] = {{1e-4, 0, 0}, {0, 1e-5, 0}, {0, 0, 1e-4}};
    static double Jr[3][3] = {{0.004, 0, 0}, {0, 0.0004, 0}, {0, 0, 0.004}};
    static double Js[3][3] = {{1e-4, 0, 0}, {0, 1e-4, 0}, {0, 0, 1e-4}};
    const double X[3] = {1, 0, 0}, Y[3] = {0, 1, 0}, Z[3] = {0, 0, 1};
    mbd_spatial_model *sm = mbd_spatial_alloc();
    cm->sm = sm;
    cm->ground = mbd_spatial_add_ground(sm, "ground");
    cm->crank = mbd_spatial_add_body(sm, "crank", 0.12, Jc);
    cm->rod = mbd_spatial_add_body(sm, "rod", 0.5, Jr);
    cm->slider = mbd_spatial_add_body(sm, "slider", 2.0, Js);
    mbd_spatial_set_gravity(sm, (const double[]){0, 0, -G_ACC});
    /* revolute ground-crank at A = (0, 0.1, 0.12), axis x */
    mbd_spatial_add_revolute(sm, "crank_rev", cm->ground, (const double[]){0, 0.1, 0.12}, Y, Z,
                             cm->crank, NULL, X);
    /* spherical crank-rod: the crank pin 0.08 along the crank's y, the rod's end */
    mbd_spatial_add_spherical(sm, "pin", cm->crank, (const double[]){0, 0.08, 0}, cm->rod,
                              (const double[]){-0.15, 0, 0});
    /* revolute-cylindrical rod-slider, and the distance the document adds */
    mbd_spatial_add_revcyl(sm, "rod_slider", cm->rod, (const double[]){0.15, 0, 0}, Y,
                           cm->slider, X, X, Y, Z);
    mbd_spatial_add_translational(sm, "slide", cm->ground, (const double[]){2, 0, 0}, Y, Z,
                                  cm->slider, (const double[]){0.1, 0, 0}, X, Z);
    mbd_spatial_add_d(sm, "rod_length", cm->rod, (const double[]){0.15, 0, 0}, cm->slider, X,
                      mbd_spatial_fn_constant(1.0));
    if (driven)
        /* crank y' . ground y = cos(theta(t)), theta = pi/2 - 2 pi t + 1e-4 */
        mbd_spatial_add_dp1(sm, "driver", cm->crank, Y, cm->ground, Y,
                            mbd_spatial_fn_cos(1.0, mbd_spatial_fn_poly(1, (const double[]){
                                                             M_PI / 2 + EPS_DRIVER, -2 * M_PI})));
    return mbd_spatial_finish(sm);
}

/* the document's initial guesses (guide Sec. 5.2, case 4) */
static void slider_crank_guess(const crank_model *cm, gsl_vector *q)
{
    mbd_spatial_set_pose(cm->sm, cm->crank, (const double[]){0, 0.1, 0.12},
                         (const double[]){0.7042, 0.71, 0, 0}, q);
    mbd_spatial_set_pose(cm->sm, cm->rod, (const double[]){0.1, 0.05, 0.1},
                         (const double[]){0.8865, -0.21, 0.4, -0.1}, q);
    mbd_spatial_set_pose(cm->sm, cm->slider, (const double[]){0.2, 0, 0},
                         (const double[]){1, 0, 0, 0}, q);
}

/* x(theta) = sqrt(0.09 - (0.1 + 0.08 cos)^2 - (0.12 + 0.08 sin)^2) and its first
 * two derivatives in theta (the slider's centre, theta the crank's angle from
 * global y toward z) */
static void crank_closed_form(double th, double x[3])
{
    const double a = 0.1 + 0.08 * cos(th), b = 0.12 + 0.08 * sin(th);
    const double ad = -0.08 * sin(th), bd = 0.08 * cos(th), add = -0.08 * cos(th),
                 bdd = -0.08 * sin(th);
    const double g = 0.09 - a * a - b * b;
    const double gd = -2 * (a * ad + b * bd);
    const double gdd = -2 * (ad * ad + a * add + bd * bd + b * bdd);
    x[0] = sqrt(g);
    x[1] = gd / (2 * x[0]);
    x[2] = (gdd - 2 * x[1] * x[1]) / (2 * x[0]);
}

typedef struct {
    const crank_model *cm;
    double ex, ev, ea, enorm, phi;
    double ev_near, ea_near;     /* at the two steps with |sin theta| < 1e-3 */
    size_t near;
    double xmin, xmax, tmin, tmax;
    size_t calls;
} crank_obs;

static int crank_observer(const mbd_spatial_model *sm, double t, const gsl_vector *q,
                          const gsl_vector *qd, const gsl_vector *qdd, const gsl_vector *lambda,
                          void *user)
{
    (void)lambda;
    crank_obs *o = user;
    size_t c;
    mbd_spatial_body_coordinates(sm, o->cm->slider, &c);
    const double th = M_PI / 2 - 2 * M_PI * t + EPS_DRIVER, w = -2 * M_PI;
    double x[3];
    crank_closed_form(th, x);
    o->ex = fmax(o->ex, fabs(gsl_vector_get(q, c) - x[0]));
    const double ev = fabs(gsl_vector_get(qd, c) - x[1] * w);
    const double ea = fabs(gsl_vector_get(qdd, c) - x[2] * w * w);
    if (fabs(sin(th)) < 1e-3) {
        /* the driver's row is sin(theta) times the others there (guide Sec.
         * 2.5): cos(theta) = 1 - 5e-9 resolves theta to 1e-16 / sin(theta) =
         * 1e-12, 1e-8 of theta itself, and the velocity and acceleration
         * solves divide by sin(theta) again */
        o->ev_near = fmax(o->ev_near, ev);
        o->ea_near = fmax(o->ea_near, ea);
        o->near++;
    } else {
        o->ev = fmax(o->ev, ev);
        o->ea = fmax(o->ea, ea);
    }
    if (gsl_vector_get(q, c) < o->xmin) {
        o->xmin = gsl_vector_get(q, c);
        o->tmin = t;
    }
    if (gsl_vector_get(q, c) > o->xmax) {
        o->xmax = gsl_vector_get(q, c);
        o->tmax = t;
    }
    for (int b = 1; b <= 3; b++) {
        double p[4];
        mbd_spatial_pose(sm, b, q, NULL, p);
        o->enorm = fmax(o->enorm, fabs(p[0] * p[0] + p[1] * p[1] + p[2] * p[2] + p[3] * p[3] - 1));
    }
    const mbd_system *s = mbd_spatial_system(sm);
    gsl_vector *C = gsl_vector_alloc(s->m);
    s->constraint(s, t, q, C);
    o->phi = fmax(o->phi, fmax(gsl_vector_max(C), -gsl_vector_min(C)));
    gsl_vector_free(C);
    o->calls++;
    return GSL_SUCCESS;
}

static void slider_crank_kinematics(void)
{
    crank_model cm;
    REQUIRE_STATUS(build_slider_crank(&cm, 1), GSL_SUCCESS);
    const mbd_system *s = mbd_spatial_system(cm.sm);
    CHECK_MSG(s->n == 21 && s->m == 21, "n = %zu, m = %zu (18 joint rows + 3)", s->n, s->m);
    gsl_vector *q = gsl_vector_alloc(s->n);
    slider_crank_guess(&cm, q);
    mbd_spatial_report rep;
    REQUIRE_STATUS(mbd_spatial_assemble(cm.sm, 0.0, q, NULL, &rep), GSL_SUCCESS);
    double x0[3];
    crank_closed_form(M_PI / 2 + EPS_DRIVER, x0);
    size_t c;
    mbd_spatial_body_coordinates(cm.sm, cm.slider, &c);
    if (verbose())
        printf("\n    assembly: %u iterations, |Phi| %.2e, rank %zu of %zu; x(0) = %.15f "
               "(closed form %.15f)\n", rep.iterations, rep.residual, rep.rank, rep.rows,
               gsl_vector_get(q, c), x0[0]);
    CHECK_CLOSE(gsl_vector_get(q, c), x0[0], 1e-12);
    CHECK_MSG(rep.rank == 21 && rep.n_dropped == 0, "rank %zu", rep.rank);
    mbd_spatial_options o = {.tol = 1e-13};
    crank_obs ob = {.cm = &cm, .xmin = HUGE_VAL, .xmax = -HUGE_VAL};
    REQUIRE_STATUS(mbd_spatial_kinematics(cm.sm, 0.0, 1.0, 1e-3, q, &o, crank_observer, &ob),
                   GSL_SUCCESS);
    if (verbose())
        printf("    kinematics 0..1 s, h = 1e-3: |x - x_cf| %.2e, |x' - x'_cf| %.2e, "
               "|x'' - x''_cf| %.2e (at the %zu steps 1e-4 from the driver's singular angles: "
               "%.2e, %.2e), |p^T p - 1| %.2e, |Phi| %.2e; x_min %.6f at %.3f s, "
               "x_max %.6f at %.3f s\n", ob.ex, ob.ev, ob.ea, ob.near, ob.ev_near, ob.ea_near,
               ob.enorm, ob.phi, ob.xmin, ob.tmin, ob.xmax, ob.tmax);
    CHECK_MSG(ob.calls == 1001, "%zu outputs", ob.calls);
    CHECK_MSG(ob.near == 2, "%zu steps near the singular angles", ob.near);
    CHECK_LE(ob.ex, 1e-9);                  /* positions everywhere */
    CHECK_LE(ob.ev, 1e-11);
    CHECK_LE(ob.ea, 1e-8);
    CHECK_LE(ob.ev_near, 1e-8);
    CHECK_LE(ob.ea_near, 1e-3);
    CHECK_LE(ob.enorm, 1e-12);
    CHECK_LE(ob.phi, 1e-12);
    /* the guide's values of the closed form (x_min 0.184952 near 0.1106 s,
     * x_max 0.290160 near 0.6106 s) on the 1 ms grid */
    CHECK_CLOSE(ob.xmin, 0.184952, 2e-6);
    CHECK_CLOSE(ob.xmax, 0.290160, 2e-6);
    CHECK_CLOSE(ob.tmin, 0.1106, 1e-3);
    CHECK_CLOSE(ob.tmax, 0.6106, 1e-3);
    gsl_vector_free(q);
    mbd_spatial_free(cm.sm);
}

/* The crank's angle theta from global y toward z */
static double crank_angle(const crank_model *cm, const gsl_vector *q)
{
    double p[4], A[3][3];
    mbd_spatial_pose(cm->sm, cm->crank, q, NULL, p);
    mbd_spatial_ep_A(p, A);
    return atan2(A[2][1], A[1][1]);
}

/* Initial velocities (document Sec. 6.3): case 3 (the crank known,
 * omega_bar = (6, 0, 0), the document's second slider-crank run), case 2
 * (none known) on a driven model with a free degree of freedom: the
 * minimum-norm solution and its rank; case 1 (all known) checked; known
 * velocities that violate the constraints refused, naming the rows. */
static void initial_velocities(void)
{
    crank_model cm;
    REQUIRE_STATUS(build_slider_crank(&cm, 0), GSL_SUCCESS);
    const mbd_system *s = mbd_spatial_system(cm.sm);
    gsl_vector *q = gsl_vector_alloc(s->n), *qd = gsl_vector_calloc(s->n);
    slider_crank_guess(&cm, q);
    mbd_spatial_report rep;
    REQUIRE_STATUS(mbd_spatial_assemble(cm.sm, 0.0, q, NULL, &rep), GSL_SUCCESS);
    CHECK_MSG(rep.dof == 1, "the free slider-crank has %zu degrees of freedom", rep.dof);
    const double th = crank_angle(&cm, q);
    double x[3];
    crank_closed_form(th, x);
    size_t c;
    mbd_spatial_body_coordinates(cm.sm, cm.slider, &c);
    CHECK_CLOSE(gsl_vector_get(q, c), x[0], 1e-12);
    /* case 3 */
    int known[4] = {0, 1, 0, 0};
    mbd_spatial_set_velocity(cm.sm, cm.crank, q, NULL, (const double[]){6, 0, 0},
                             MBD_SPATIAL_BODY, qd);
    REQUIRE_STATUS(mbd_spatial_velocity(cm.sm, 0.0, q, qd, known, NULL, &rep), GSL_SUCCESS);
    if (verbose())
        printf("\n    case 3: x' = %.15f (closed form %.15f), rank %zu of %zu rows, %zu unknowns, "
               "%zu dof, %zu dropped, residual %.2e\n", gsl_vector_get(qd, c), x[1] * 6.0,
               rep.rank, rep.rows, rep.unknowns, rep.dof, rep.n_dropped, rep.residual);
    CHECK_CLOSE(gsl_vector_get(qd, c), x[1] * 6.0, 1e-12);
    /* the rows of the crank alone (its revolute's 5 and its normalisation)
     * have no unknown: they drop out, and hold */
    CHECK_MSG(rep.unknowns == 14 && rep.rank == 14 && rep.dof == 0 && rep.n_dropped == 6,
              "case 3: %zu unknowns, rank %zu, dof %zu, dropped %zu", rep.unknowns, rep.rank,
              rep.dof, rep.n_dropped);
    /* the known crank keeps its velocity */
    double w[3];
    mbd_spatial_angular_velocity(cm.sm, cm.crank, q, qd, MBD_SPATIAL_BODY, w);
    CHECK_CLOSE(w[0], 6.0, 1e-14);
    /* case 1: all known and consistent */
    int all[4] = {0, 1, 1, 1};
    CHECK_STATUS(mbd_spatial_velocity(cm.sm, 0.0, q, qd, all, NULL, &rep), GSL_SUCCESS);
    CHECK_LE(rep.residual, 1e-12);
    /* ... and not: the slider pushed sideways */
    gsl_vector_set(qd, c + 1, 0.5);
    CHECK_STATUS(mbd_spatial_velocity(cm.sm, 0.0, q, qd, all, NULL, &rep), MBD_EINPUT);
    CHECK_MSG(strstr(mbd_spatial_last_failure(cm.sm)->cause, "'slide/") != NULL,
              "the failure names the translational joint's rows: %s",
              mbd_spatial_last_failure(cm.sm)->cause);
    /* a known crank velocity its revolute joint forbids */
    mbd_spatial_set_velocity(cm.sm, cm.crank, q, (const double[]){0.2, 0, 0},
                             (const double[]){6, 0, 0}, MBD_SPATIAL_BODY, qd);
    CHECK_STATUS(mbd_spatial_velocity(cm.sm, 0.0, q, qd, known, NULL, &rep), MBD_EINPUT);
    CHECK_MSG(strstr(mbd_spatial_last_failure(cm.sm)->cause, "'crank_rev/CD x'") != NULL,
              "the failure names the revolute's row: %s", mbd_spatial_last_failure(cm.sm)->cause);
    gsl_vector_free(q);
    gsl_vector_free(qd);
    mbd_spatial_free(cm.sm);

    /* case 2 with one free degree of freedom: a body on a cylindrical joint
     * (axis z through the origin, its centre 0.3 off the axis) whose angle is
     * driven, theta = t + 0.2 (DP1: body x . ground y = sin theta); sliding
     * along z is free. The minimum-norm q' is orthogonal to that motion. */
    mbd_spatial_model *sm = mbd_spatial_alloc();
    const int g = mbd_spatial_add_ground(sm, "ground");
    const int b = mbd_spatial_add_body(sm, "b", 1.0, J_a);
    const double X[3] = {1, 0, 0}, Y[3] = {0, 1, 0}, Z[3] = {0, 0, 1};
    mbd_spatial_add_cylindrical(sm, "cyl", g, NULL, X, Y, b, (const double[]){-0.3, 0, 0}, Z);
    mbd_spatial_add_dp1(sm, "angle", b, X, g, Y, mbd_spatial_fn_sine(1.0, 1.0, 0.2));
    REQUIRE_STATUS(mbd_spatial_finish(sm), GSL_SUCCESS);
    s = mbd_spatial_system(sm);
    q = gsl_vector_alloc(7);
    qd = gsl_vector_calloc(7);
    const double t = 0.5, thb = 0.7;
    double R[3][3];
    rodrigues(Z, thb, R);
    mbd_spatial_set_pose_A(sm, b, (const double[]){0.3 * cos(thb), 0.3 * sin(thb), 0.4}, R, q);
    CHECK_LE(constraint_norm_at(s, t, q), 1e-15);
    REQUIRE_STATUS(mbd_spatial_velocity(sm, t, q, qd, NULL, NULL, &rep), GSL_SUCCESS);
    CHECK_MSG(rep.rank == 6 && rep.dof == 1 && rep.rows == 6 && rep.n_dropped == 0,
              "case 2: rank %zu, dof %zu, rows %zu", rep.rank, rep.dof, rep.rows);
    mbd_spatial_angular_velocity(sm, b, q, qd, MBD_SPATIAL_GLOBAL, w);
    CHECK_CLOSE(w[2], 1.0, 1e-14);                  /* theta' = 1 */
    CHECK_CLOSE(gsl_vector_get(qd, 2), 0.0, 1e-15); /* no sliding: minimum norm */
    CHECK_CLOSE(gsl_vector_get(qd, 0), -0.3 * sin(thb), 1e-14);
    CHECK_CLOSE(gsl_vector_get(qd, 1), 0.3 * cos(thb), 1e-14);
    CHECK_LE(rep.residual, 1e-14);
    gsl_vector_free(q);
    gsl_vector_free(qd);
    mbd_spatial_free(sm);
}

/* ------------------------------------------------------------------------ */
/* The driven pendulum by inverse dynamics (the document's Fig. 16, the
 * ME751 bar; the guide's E3)                                                 */

typedef struct {
    int joint_driver, joint_pin, bar;
    double et, torque_max, ef, ecross, force_max;
} pend_obs;

static const double PL = 4.0, PM = 78.0;

static int pendulum_observer(const mbd_spatial_model *sm, double t, const gsl_vector *q,
                             const gsl_vector *qd, const gsl_vector *qdd,
                             const gsl_vector *lambda, void *user)
{
    (void)qd;
    (void)qdd;
    pend_obs *o = user;
    /* theta = (pi/4) cos 2t about +x from -z; I_O = m L^2 / 3 = 416 */
    const double th = M_PI / 4 * cos(2 * t), thd = -M_PI / 2 * sin(2 * t),
                 thdd = -M_PI * cos(2 * t);
    const double IO = PM * PL * PL / 3.0;
    const double n_exact = IO * thdd + PM * G_ACC * (PL / 2) * sin(th);
    mbd_spatial_reaction drv, pin;
    mbd_spatial_reactions(sm, o->joint_driver, q, lambda, &drv, NULL);
    mbd_spatial_reactions(sm, o->joint_pin, q, lambda, NULL, &pin);
    o->et = fmax(o->et, fabs(drv.n[0] - n_exact));
    o->torque_max = fmax(o->torque_max, fabs(n_exact));
    o->ecross = fmax(o->ecross, fmax(fabs(drv.n[1]), fabs(drv.n[2])));
    o->ecross = fmax(o->ecross, fmax(fabs(drv.F[0]), fmax(fabs(drv.F[1]), fabs(drv.F[2]))));
    /* the pin force on the bar: m (a_c - g), a_c of the centre at (L/2) u,
     * u = (0, sin, -cos), u' = (0, cos, sin) theta' */
    const double h = PL / 2;
    const double ac[3] = {0, h * (thdd * cos(th) - thd * thd * sin(th)),
                          h * (thdd * sin(th) + thd * thd * cos(th))};
    const double Fw[3] = {PM * ac[0], PM * ac[1], PM * (ac[2] + G_ACC)};
    for (int k = 0; k < 3; k++) {
        o->ef = fmax(o->ef, fabs(pin.F[k] - Fw[k]));
        o->force_max = fmax(o->force_max, fabs(Fw[k]));
    }
    return GSL_SUCCESS;
}

static void pendulum_inverse_dynamics(void)
{
    mbd_spatial_model *sm = mbd_spatial_alloc();
    double J[3][3] = {{0, 0, 0}, {0, PM * PL * PL / 12, 0}, {0, 0, PM * PL * PL / 12}};
    const int g = mbd_spatial_add_ground(sm, "ground");
    const int bar = mbd_spatial_add_body(sm, "bar", PM, J);
    const double Y[3] = {0, 1, 0}, Z[3] = {0, 0, 1}, mZ[3] = {0, 0, -1};
    mbd_spatial_set_gravity(sm, (const double[]){0, 0, -G_ACC});
    pend_obs ob = {0};
    ob.bar = bar;
    ob.joint_pin = mbd_spatial_add_revolute(sm, "pin", g, NULL, Y, Z, bar,
                                            (const double[]){-PL / 2, 0, 0}, Z);
    /* bar y' . ground (-z) = cos(theta + pi/2), theta = (pi/4) cos 2t =
     * (pi/4) sin(2t + pi/2) */
    ob.joint_driver = mbd_spatial_add_dp1(
        sm, "driver", bar, Y, g, mZ,
        mbd_spatial_fn_cos(1.0, mbd_spatial_fn_sum(mbd_spatial_fn_constant(M_PI / 2),
                                                   mbd_spatial_fn_sine(M_PI / 4, 2.0, M_PI / 2))));
    REQUIRE_STATUS(mbd_spatial_finish(sm), GSL_SUCCESS);
    gsl_vector *q = gsl_vector_alloc(7);
    const double s2 = sqrt(2.0) / 2;
    double A2[3][3] = {{0, 0, 1}, {s2, s2, 0}, {-s2, s2, 0}};
    REQUIRE_STATUS(mbd_spatial_set_pose_A(sm, bar, (const double[]){0, sqrt(2.0), -sqrt(2.0)},
                                          A2, q), GSL_SUCCESS);
    CHECK_LE(constraint_norm(mbd_spatial_system(sm), q), 1e-15);
    REQUIRE_STATUS(mbd_spatial_inverse_dynamics(sm, 0.0, 4.0, 1e-2, q, NULL, pendulum_observer,
                                                &ob), GSL_SUCCESS);
    if (verbose())
        printf("\n    driver torque: max |n_x - n_exact| %.2e N m (relative %.2e of %.4f), "
               "other components %.2e; pin force %.2e N (relative %.2e)\n", ob.et,
               ob.et / ob.torque_max, ob.torque_max, ob.ecross, ob.ef, ob.ef / ob.force_max);
    CHECK_CLOSE(ob.torque_max, 224.7746, 1e-4);   /* the guide's extreme */
    CHECK_LE(ob.et / ob.torque_max, 1e-6);
    CHECK_LE(ob.ecross / ob.torque_max, 1e-9);
    CHECK_LE(ob.ef / ob.force_max, 1e-6);
    gsl_vector_free(q);
    mbd_spatial_free(sm);
}

/* ------------------------------------------------------------------------ */
/* The block on an incline (the document's case 3)                          */

static void block_on_incline(void)
{
    mbd_spatial_model *sm = mbd_spatial_alloc();
    double J[3][3] = {{1e-4, 0, 0}, {0, 1e-4, 0}, {0, 0, 1e-4}};
    const int g = mbd_spatial_add_ground(sm, "ground");
    const int b = mbd_spatial_add_body(sm, "block", 2.0, J);
    const double s45 = sin(M_PI / 4), c45 = cos(M_PI / 4);
    mbd_spatial_set_gravity(sm, (const double[]){0, -G_ACC, 0});
    const int jt = mbd_spatial_add_translational(sm, "incline", g, NULL,
                                                 (const double[]){s45, c45, 0},
                                                 (const double[]){0, 0, 1}, b,
                                                 (const double[]){1, 0, 0},
                                                 (const double[]){1, 0, 0},
                                                 (const double[]){0, 0, 1});
    REQUIRE_STATUS(mbd_spatial_finish(sm), GSL_SUCCESS);
    const mbd_system *s = mbd_spatial_system(sm);
    gsl_vector *q = gsl_vector_alloc(7), *qd = gsl_vector_calloc(7), *qdd = gsl_vector_alloc(7),
               *lam = gsl_vector_alloc(s->m), *lam2 = gsl_vector_alloc(s->m);
    double A[3][3] = {{c45, s45, 0}, {-s45, c45, 0}, {0, 0, 1}};
    mbd_spatial_set_pose_A(sm, b, NULL, A, q);
    mbd_spatial_report rep;
    REQUIRE_STATUS(mbd_spatial_assemble(sm, 0.0, q, NULL, &rep), GSL_SUCCESS);
    CHECK_MSG(rep.iterations == 0, "the set-up is consistent (%u iterations)", rep.iterations);
    REQUIRE_STATUS(kkt_accel(s, 0.0, q, qd, qdd, lam), GSL_SUCCESS);
    /* the document: x'' = +4.905, y'' = -4.905 */
    CHECK_CLOSE(gsl_vector_get(qdd, 0), G_ACC / 2, 1e-12);
    CHECK_CLOSE(gsl_vector_get(qdd, 1), -G_ACC / 2, 1e-12);
    CHECK_CLOSE(gsl_vector_get(qdd, 2), 0.0, 1e-12);
    for (int k = 3; k < 7; k++)
        CHECK_CLOSE(gsl_vector_get(qdd, k), 0.0, 1e-12);
    /* the joint holds the block with m (a - g) = (9.81, 9.81, 0), no torque
     * about its centre */
    mbd_spatial_reaction on_block;
    REQUIRE_STATUS(mbd_spatial_reactions(sm, jt, q, lam, NULL, &on_block), GSL_SUCCESS);
    CHECK_CLOSE(on_block.F[0], G_ACC, 1e-12);
    CHECK_CLOSE(on_block.F[1], G_ACC, 1e-12);
    CHECK_CLOSE(on_block.F[2], 0.0, 1e-12);
    for (int k = 0; k < 3; k++)
        CHECK_CLOSE(on_block.n[k], 0.0, 1e-12);
    /* the ground feels the opposite force */
    mbd_spatial_reaction on_ground;
    mbd_spatial_reactions(sm, jt, q, lam, &on_ground, NULL);
    for (int k = 0; k < 3; k++)
        CHECK_CLOSE(on_ground.F[k], -on_block.F[k], 1e-12);
    /* the multipliers of the inverse dynamics from these accelerations are the same */
    REQUIRE_STATUS(mbd_spatial_multipliers(sm, 0.0, q, qd, qdd, lam2, NULL, &rep), GSL_SUCCESS);
    for (size_t k = 0; k < s->m; k++)
        CHECK_CLOSE(gsl_vector_get(lam2, k), gsl_vector_get(lam, k), 1e-11);
    /* and other accelerations have none: the block is free to slide */
    gsl_vector_set_zero(qdd);
    CHECK_STATUS(mbd_spatial_multipliers(sm, 0.0, q, qd, qdd, lam2, NULL, &rep), MBD_EINPUT);
    CHECK_MSG(strstr(mbd_spatial_last_failure(sm)->cause, "not fully driven") != NULL, "%s",
              mbd_spatial_last_failure(sm)->cause);
    gsl_vector_free(q);
    gsl_vector_free(qd);
    gsl_vector_free(qdd);
    gsl_vector_free(lam);
    gsl_vector_free(lam2);
    mbd_spatial_free(sm);
}

/* ------------------------------------------------------------------------ */
/* Redundant rows, and failures                                              */

/* A door on two hinges along z (rows 5 + 5: five of them repeat the others),
 * driven theta = t + 0.3 (door x . ground y = sin theta) */
static mbd_spatial_model *door(int driven, double offset)
{
    mbd_spatial_model *sm = mbd_spatial_alloc();
    static double J[3][3] = {{0.1, 0, 0}, {0, 0.2, 0}, {0, 0, 0.1}};
    const int g = mbd_spatial_add_ground(sm, "ground");
    const int b = mbd_spatial_add_body(sm, "door", 1.0, J);
    const double X[3] = {1, 0, 0}, Y[3] = {0, 1, 0}, Z[3] = {0, 0, 1};
    mbd_spatial_set_gravity(sm, (const double[]){0, -G_ACC, 0});
    mbd_spatial_add_revolute(sm, "hinge1", g, NULL, X, Y, b, (const double[]){-0.5, 0, 0}, Z);
    mbd_spatial_add_revolute(sm, "hinge2", g, (const double[]){offset, 0, 1}, X, Y, b,
                             (const double[]){-0.5, 0, 1}, Z);
    if (driven)
        mbd_spatial_add_dp1(sm, "angle", b, X, g, Y, mbd_spatial_fn_sine(1.0, 1.0, 0.3));
    mbd_spatial_finish(sm);
    return sm;
}

static void door_pose(mbd_spatial_model *sm, double th, gsl_vector *q)
{
    double R[3][3];
    rodrigues((const double[]){0, 0, 1}, th, R);
    mbd_spatial_set_pose_A(sm, 1, (const double[]){0.5 * cos(th), 0.5 * sin(th), 0}, R, q);
}

typedef struct {
    double eth;
} door_obs;

static int door_observer(const mbd_spatial_model *sm, double t, const gsl_vector *q,
                         const gsl_vector *qd, const gsl_vector *qdd, const gsl_vector *lambda,
                         void *user)
{
    (void)qd;
    (void)qdd;
    (void)lambda;
    double p[4], A[3][3];
    mbd_spatial_pose(sm, 1, q, NULL, p);
    mbd_spatial_ep_A(p, A);
    door_obs *o = user;
    o->eth = fmax(o->eth, fabs(atan2(A[1][0], A[0][0]) - (t + 0.3)));
    return GSL_SUCCESS;
}

static void redundant_rows(void)
{
    /* undriven: 11 rows, rank 6, 1 degree of freedom, 5 rows named */
    mbd_spatial_model *sm = door(0, 0.0);
    REQUIRE_STATUS(mbd_spatial_system(sm) ? GSL_SUCCESS : GSL_EFAILED, GSL_SUCCESS);
    gsl_vector *q = gsl_vector_alloc(7), *qd = gsl_vector_calloc(7);
    door_pose(sm, 0.4, q);
    mbd_spatial_report rep;
    REQUIRE_STATUS(mbd_spatial_velocity(sm, 0.0, q, qd, NULL, NULL, &rep), GSL_SUCCESS);
    CHECK_MSG(rep.rows == 11 && rep.rank == 6 && rep.dof == 1 && rep.n_dropped == 5,
              "rows %zu, rank %zu, dof %zu, dropped %zu", rep.rows, rep.rank, rep.dof,
              rep.n_dropped);
    /* which 5 of the 11 are called dependent is the factorisation's choice
     * (any 6 independent ones span the rest); the rows left must still
     * have rank 6: drop the named ones and count again */
    {
        const mbd_system *s = mbd_spatial_system(sm);
        gsl_matrix *Cq = gsl_matrix_alloc(s->m, s->n);
        s->jacobian(s, 0.0, q, Cq);
        for (size_t k = 0; k < rep.n_dropped; k++) {
            mbd_spatial_row_info info;
            mbd_spatial_row_info_get(sm, rep.dropped[k], &info);
            if (verbose())
                printf("%s'%s'", k ? ", " : "\n    door, dropped: ", info.name);
            gsl_vector_view row = gsl_matrix_row(Cq, rep.dropped[k]);
            gsl_vector_set_zero(&row.vector);
        }
        /* the singular values of the m x n matrix of the rows kept */
        gsl_vector *S = gsl_vector_alloc(s->n), *wk = gsl_vector_alloc(s->n);
        gsl_matrix *V = gsl_matrix_alloc(s->n, s->n);
        REQUIRE_STATUS(gsl_linalg_SV_decomp(Cq, V, S, wk), GSL_SUCCESS);
        size_t rk = 0;
        for (size_t k = 0; k < s->n; k++)
            rk += gsl_vector_get(S, k) > 1e-9 * gsl_vector_get(S, 0);
        CHECK_MSG(rk == 6, "the rows kept have rank %zu (SVD), not 6", rk);
        gsl_matrix_free(Cq);
        gsl_matrix_free(V);
        gsl_vector_free(S);
        gsl_vector_free(wk);
        if (verbose())
            printf("\n");
    }
    /* not fully driven: kinematics refuses, naming the degrees of freedom */
    CHECK_STATUS(mbd_spatial_kinematics(sm, 0.0, 1.0, 0.1, q, NULL, NULL, NULL), MBD_EINPUT);
    CHECK_MSG(strstr(mbd_spatial_last_failure(sm)->cause, "not fully driven") != NULL, "%s",
              mbd_spatial_last_failure(sm)->cause);
    mbd_spatial_free(sm);

    /* driven: 12 rows of rank 7; the kinematics runs through the redundancy */
    sm = door(1, 0.0);
    door_pose(sm, 0.25, q);                     /* near theta(0) = 0.3 */
    door_obs ob = {0};
    REQUIRE_STATUS(mbd_spatial_kinematics(sm, 0.0, 1.0, 0.01, q, NULL, door_observer, &ob),
                   GSL_SUCCESS);
    if (verbose())
        printf("    driven door: |theta - (t + 0.3)| %.2e\n", ob.eth);
    CHECK_LE(ob.eth, 1e-12);
    REQUIRE_STATUS(mbd_spatial_position(sm, 1.0, q, NULL, &rep), GSL_SUCCESS);
    mbd_spatial_free(sm);

    /* the second hinge 5 cm off the first one's axis: no configuration
     * satisfies both; assembly fails and names hinge rows */
    sm = door(1, 0.05);
    door_pose(sm, 0.3, q);
    CHECK_STATUS(mbd_spatial_assemble(sm, 0.0, q, NULL, &rep), MBD_ENOCONV);
    const char *cause = mbd_spatial_last_failure(sm)->cause;
    if (verbose())
        printf("    misaligned hinges: %s\n", cause);
    CHECK_MSG(strstr(cause, "residuals above the tolerance: 'hinge") != NULL, "%s", cause);
    CHECK_MSG(rep.residual > 1e-3, "residual %.3g", rep.residual);
    mbd_spatial_free(sm);
    gsl_vector_free(q);
    gsl_vector_free(qd);

    /* one row repeated exactly: a pendulum's revolute and a CD x on the same
     * points. Only those two depend on each other: one of them is named. */
    sm = mbd_spatial_alloc();
    const int g = mbd_spatial_add_ground(sm, "ground");
    const int b = mbd_spatial_add_body(sm, "bob", 1.0, J_a);
    const double X[3] = {1, 0, 0}, Y[3] = {0, 1, 0}, Z[3] = {0, 0, 1}, S[3] = {-1, 0, 0};
    mbd_spatial_add_revolute(sm, "pivot", g, NULL, X, Y, b, S, Z);
    mbd_spatial_add_cd(sm, "again", g, NULL, b, S, X, mbd_spatial_fn_constant(0.0));
    mbd_spatial_add_dp1(sm, "swing", b, X, g, Y, mbd_spatial_fn_sine(1.0, 2.0, 0.4));
    REQUIRE_STATUS(mbd_spatial_finish(sm), GSL_SUCCESS);
    q = gsl_vector_alloc(7);
    qd = gsl_vector_calloc(7);
    double R[3][3];
    rodrigues(Z, 0.4, R);
    mbd_spatial_set_pose_A(sm, b, (const double[]){cos(0.4), sin(0.4), 0}, R, q);
    REQUIRE_STATUS(mbd_spatial_velocity(sm, 0.0, q, qd, NULL, NULL, &rep), GSL_SUCCESS);
    CHECK_MSG(rep.rows == 8 && rep.rank == 7 && rep.dof == 0 && rep.n_dropped == 1,
              "pendulum: rows %zu, rank %zu, dof %zu, dropped %zu", rep.rows, rep.rank, rep.dof,
              rep.n_dropped);
    mbd_spatial_row_info info;
    mbd_spatial_row_info_get(sm, rep.dropped[0], &info);
    if (verbose())
        printf("    pendulum with a repeated row: dropped '%s'\n", info.name);
    CHECK_MSG(strcmp(info.name, "pivot/CD x") == 0 || strcmp(info.name, "again/CD") == 0,
              "dropped '%s'", info.name);
    /* the velocity is the driven one all the same: theta' = 2 cos(0.4)/cos(0.4) */
    double w[3];
    mbd_spatial_angular_velocity(sm, b, q, qd, MBD_SPATIAL_GLOBAL, w);
    CHECK_CLOSE(w[2], 2.0, 1e-14);
    /* and inverse dynamics names no failure: the basic solution */
    gsl_vector *lam = gsl_vector_alloc(8), *qdd = gsl_vector_alloc(7);
    REQUIRE_STATUS(mbd_spatial_acceleration(sm, 0.0, q, qd, qdd, NULL, &rep), GSL_SUCCESS);
    REQUIRE_STATUS(mbd_spatial_multipliers(sm, 0.0, q, qd, qdd, lam, NULL, &rep), GSL_SUCCESS);
    CHECK_MSG(gsl_vector_get(lam, rep.dropped[0]) == 0.0, "the dropped row's multiplier %g",
              gsl_vector_get(lam, rep.dropped[0]));
    gsl_vector_free(lam);
    gsl_vector_free(qdd);
    gsl_vector_free(q);
    gsl_vector_free(qd);
    mbd_spatial_free(sm);
}

/* A body on a spherical joint at the origin cannot reach a ground point 10
 * away with a 1 m tether: assembly fails naming the tether first. */
static void assembly_failure(void)
{
    mbd_spatial_model *sm = mbd_spatial_alloc();
    const int g = mbd_spatial_add_ground(sm, "ground");
    const int b = mbd_spatial_add_body(sm, "b", 1.0, J_a);
    mbd_spatial_add_spherical(sm, "ball", g, NULL, b, (const double[]){-1, 0, 0});
    mbd_spatial_add_d(sm, "tether", b, (const double[]){1, 0, 0}, g,
                      (const double[]){10, 0, 0}, mbd_spatial_fn_constant(1.0));
    REQUIRE_STATUS(mbd_spatial_finish(sm), GSL_SUCCESS);
    gsl_vector *q = gsl_vector_alloc(7);
    mbd_spatial_set_pose(sm, b, (const double[]){0.5, 0.7, 0.2},
                         (const double[]){0.9, 0.2, -0.1, 0.3}, q);
    mbd_spatial_report rep;
    CHECK_STATUS(mbd_spatial_assemble(sm, 0.0, q, NULL, &rep), MBD_ENOCONV);
    const mbd_failure *f = mbd_spatial_last_failure(sm);
    if (verbose())
        printf("\n    %s (at t = %g)\n", f->cause, f->time);
    CHECK_MSG(strstr(f->cause, "assembly") != NULL
              && strstr(f->cause, "residuals above the tolerance: 'tether/D'") != NULL, "%s",
              f->cause);
    CHECK_MSG(f->time == 0.0, "time %g", f->time);
    /* far from consistent (Newton's steps reduce |Phi|_2, trading the
     * spherical rows against the tether's) */
    CHECK_GE(rep.residual, 1.0);
    gsl_vector_free(q);
    mbd_spatial_free(sm);
}

/* ------------------------------------------------------------------------ */
/* Building                                                                  */

static void names_and_lookups(void)
{
    crank_model cm;
    REQUIRE_STATUS(build_slider_crank(&cm, 1), GSL_SUCCESS);
    const mbd_system *s = mbd_spatial_system(cm.sm);
    CHECK_MSG(strcmp(s->names[0], "x_crank") == 0 && strcmp(s->names[6], "e3_crank") == 0
                  && strcmp(s->names[20], "e3_slider") == 0 && strcmp(s->names[7], "x_rod") == 0,
              "names %s %s %s", s->names[0], s->names[6], s->names[20]);
    CHECK_MSG(mbd_spatial_body_index(cm.sm, "rod") == cm.rod, "rod");
    CHECK_MSG(mbd_spatial_body_index(cm.sm, "nothing") == -1, "no body");
    CHECK_MSG(mbd_spatial_joint_index(cm.sm, "driver") == 5, "driver");
    CHECK_MSG(strcmp(mbd_spatial_body_name(cm.sm, cm.slider), "slider") == 0, "slider");
    mbd_spatial_joint_info ji;
    REQUIRE_STATUS(mbd_spatial_joint_info_get(cm.sm, 2, &ji), GSL_SUCCESS);
    CHECK_MSG(ji.kind == MBD_SPATIAL_JOINT_REVCYL && ji.first == 8 && ji.count == 3
                  && ji.body[0] == cm.rod && ji.body[1] == cm.slider,
              "rod_slider: rows %zu+%zu", ji.first, ji.count);
    mbd_spatial_row_info ri;
    REQUIRE_STATUS(mbd_spatial_row_info_get(cm.sm, 0, &ri), GSL_SUCCESS);
    CHECK_MSG(strcmp(ri.name, "crank_rev/CD x") == 0 && ri.col[0] == (size_t)-1 && ri.col[1] == 0,
              "row 0 '%s' cols %zu %zu", ri.name, ri.col[0], ri.col[1]);
    REQUIRE_STATUS(mbd_spatial_row_info_get(cm.sm, 9, &ri), GSL_SUCCESS);
    CHECK_MSG(strcmp(ri.name, "rod_slider/DP2 a_j.QP") == 0 && ri.body[0] == cm.slider
                  && ri.body[1] == cm.rod, "row 9 '%s' bodies %d %d", ri.name, ri.body[0],
              ri.body[1]);
    REQUIRE_STATUS(mbd_spatial_row_info_get(cm.sm, 17, &ri), GSL_SUCCESS);
    CHECK_MSG(strcmp(ri.name, "driver/DP1") == 0 && ri.rheonomic, "row 17 '%s'", ri.name);
    REQUIRE_STATUS(mbd_spatial_row_info_get(cm.sm, 20, &ri), GSL_SUCCESS);
    CHECK_MSG(strcmp(ri.name, "normalisation/slider") == 0 && ri.joint == -1, "row 20 '%s'",
              ri.name);
    CHECK_STATUS(mbd_spatial_row_info_get(cm.sm, 21, &ri), MBD_EINPUT);
    size_t first;
    CHECK_STATUS(mbd_spatial_body_coordinates(cm.sm, cm.ground, &first), MBD_EINPUT);
    CHECK_STATUS(mbd_spatial_body_coordinates(cm.sm, cm.slider, &first), GSL_SUCCESS);
    CHECK_MSG(first == 14, "slider at %zu", first);
    /* states of the wrong size */
    gsl_vector *small = gsl_vector_alloc(5);
    CHECK_STATUS(mbd_spatial_set_pose(cm.sm, cm.rod, NULL, NULL, small), GSL_EBADLEN);
    CHECK_STATUS(mbd_spatial_assemble(cm.sm, 0.0, small, NULL, NULL), GSL_EBADLEN);
    gsl_vector_free(small);
    mbd_spatial_free(cm.sm);
}

static void expect_refused(mbd_spatial_model *sm, int index, const char *word)
{
    CHECK_MSG(index == -1, "'%s' was accepted", word);
    const mbd_failure *f = mbd_spatial_failure(sm);
    CHECK_MSG(f->status != GSL_SUCCESS && strstr(f->cause, word) != NULL,
              "expected a failure mentioning '%s', got '%s'", word, f->cause);
}

static int failing_fn(double t, double f[3], void *user)
{
    (void)t;
    (void)f;
    (void)user;
    return GSL_EDOM;
}

/* A fresh model with a ground g and two bodies a, b for each refusal */
#define FRESH()                                                                                \
    mbd_spatial_model *sm = mbd_spatial_alloc();                                               \
    const int g = mbd_spatial_add_ground(sm, "ground");                                        \
    const int a = mbd_spatial_add_body(sm, "a", 1.0, J);                                       \
    const int b = mbd_spatial_add_body(sm, "b", 1.0, J);                                       \
    (void)g;                                                                                   \
    (void)a;                                                                                   \
    (void)b

static void error_paths(void)
{
    const double X[3] = {1, 0, 0}, Y[3] = {0, 1, 0}, Z[3] = {0, 0, 1}, O[3] = {0, 0, 0};
    double J[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    double Jns[3][3] = {{1, 0.5, 0}, {0, 1, 0}, {0, 0, 1}};
    double Jneg[3][3] = {{1, 0, 0}, {0, -1, 0}, {0, 0, 1}};
    {
        FRESH();
        expect_refused(sm, mbd_spatial_add_body(sm, "a", 1.0, J), "taken");
        /* the first error is kept; finish returns it */
        CHECK_MSG(mbd_spatial_add_body(sm, "c", 1.0, J) == -1, "accepted after an error");
        CHECK_STATUS(mbd_spatial_finish(sm), MBD_EINPUT);
        CHECK_MSG(strstr(mbd_spatial_failure(sm)->cause, "taken") != NULL, "%s",
                  mbd_spatial_failure(sm)->cause);
        CHECK_MSG(mbd_spatial_system(sm) == NULL, "a system after a failed finish");
        mbd_spatial_free(sm);
    }
    /* the last: MBD_SPATIAL_NAME_MAX + 1 = 64 characters */
    const char *bad_names[] = {"", "two words", "a/b",
                               "abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcd"};
    for (size_t k = 0; k < 4; k++) {
        FRESH();
        expect_refused(sm, mbd_spatial_add_body(sm, bad_names[k], 1.0, J), "name");
        mbd_spatial_free(sm);
    }
    {
        /* the longest name a model file may give (63 characters) is taken,
         * and its rows and coordinates keep it whole */
        mbd_spatial_model *sm = mbd_spatial_alloc();
        const char *longest = bad_names[3] + 1;
        const int g = mbd_spatial_add_ground(sm, "ground");
        const int b = mbd_spatial_add_body(sm, longest, 1.0, J);
        CHECK_MSG(b >= 0, "a 63-character name refused: %s", mbd_spatial_failure(sm)->cause);
        const int j = mbd_spatial_add_spherical(sm, longest + 1, g, NULL, b, NULL);
        CHECK_MSG(j >= 0, "a 62-character joint name refused");
        CHECK_STATUS(mbd_spatial_finish(sm), GSL_SUCCESS);
        mbd_spatial_row_info info;
        CHECK_STATUS(mbd_spatial_row_info_get(sm, 0, &info), GSL_SUCCESS);
        CHECK_MSG(strncmp(info.name, longest + 1, 62) == 0 && info.name[62] == '/',
                  "row name '%s'", info.name);
        const mbd_system *sys = mbd_spatial_system(sm);
        CHECK_MSG(sys != NULL && strstr(sys->names[0], longest) != NULL, "coordinate name '%s'",
                  sys ? sys->names[0] : "");
        mbd_spatial_free(sm);
    }
    {
        FRESH();
        expect_refused(sm, mbd_spatial_add_body(sm, "c", -1.0, J), "mass");
        mbd_spatial_free(sm);
    }
    {
        FRESH();
        expect_refused(sm, mbd_spatial_add_body(sm, "c", 1.0, Jns), "symmetric");
        mbd_spatial_free(sm);
    }
    {
        FRESH();
        expect_refused(sm, mbd_spatial_add_body(sm, "c", 1.0, Jneg), "semidefinite");
        mbd_spatial_free(sm);
    }
    {
        FRESH();
        expect_refused(sm, mbd_spatial_add_spherical(sm, "s", a, O, a, O), "itself");
        mbd_spatial_free(sm);
    }
    {
        FRESH();
        const int g2 = mbd_spatial_add_ground(sm, "ground2");
        expect_refused(sm, mbd_spatial_add_spherical(sm, "s", g, O, g2, O), "two grounds");
        mbd_spatial_free(sm);
    }
    {
        FRESH();
        expect_refused(sm, mbd_spatial_add_spherical(sm, "s", a, O, 7, O), "no body");
        mbd_spatial_free(sm);
    }
    {
        FRESH();
        expect_refused(sm, mbd_spatial_add_revolute(sm, "r", a, O, X, X, b, O, Z), "parallel");
        mbd_spatial_free(sm);
    }
    {
        FRESH();
        expect_refused(sm, mbd_spatial_add_dp1(sm, "d", a, O, b, Y, mbd_spatial_fn_constant(0)),
                       "zero");
        mbd_spatial_free(sm);
    }
    {
        FRESH();
        mbd_spatial_fn bad =
            mbd_spatial_fn_cos(1.0, mbd_spatial_fn_cos(1.0, mbd_spatial_fn_constant(0)));
        expect_refused(sm, mbd_spatial_add_dp1(sm, "d", a, X, b, Y, bad), "invalid");
        mbd_spatial_free(sm);
    }
    {
        FRESH();
        mbd_spatial_add_spherical(sm, "s", a, O, b, O);
        expect_refused(sm, mbd_spatial_add_spherical(sm, "s", a, X, b, O), "taken");
        mbd_spatial_free(sm);
    }
    {
        FRESH();
        expect_refused(sm, mbd_spatial_add_tsda(sm, "t", a, O, b, O, -1, 0, 0, NULL, NULL),
                       ">= 0");
        mbd_spatial_free(sm);
    }
    {
        FRESH();
        expect_refused(sm, mbd_spatial_add_variable_torque(sm, "v", a, NULL, MBD_SPATIAL_BODY,
                                                           NULL), "no function");
        mbd_spatial_free(sm);
    }
    {
        FRESH();
        expect_refused(sm, mbd_spatial_add_force(sm, "f", g, O, X, MBD_SPATIAL_GLOBAL), "ground");
        mbd_spatial_free(sm);
    }
    {
        FRESH();
        expect_refused(sm, mbd_spatial_add_ground_joint(sm, "f", g, NULL, NULL), "ground");
        mbd_spatial_free(sm);
    }
    {
        FRESH();
        REQUIRE_STATUS(mbd_spatial_finish(sm), GSL_SUCCESS);
        expect_refused(sm, mbd_spatial_add_spherical(sm, "late", a, O, b, O), "finished");
        mbd_spatial_free(sm);
    }
    {
        mbd_spatial_model *sm = mbd_spatial_alloc();
        mbd_spatial_add_ground(sm, "ground");
        CHECK_STATUS(mbd_spatial_finish(sm), MBD_EINPUT);
        CHECK_MSG(strstr(mbd_spatial_failure(sm)->cause, "no moving body") != NULL, "%s",
                  mbd_spatial_failure(sm)->cause);
        mbd_spatial_free(sm);
    }
    CHECK_STATUS(mbd_spatial_finish(NULL), MBD_EINPUT);
    {
        /* a driver function that fails: the constraints return its status,
         * and an analysis says what failed */
        FRESH();
        mbd_spatial_add_dp1(sm, "bad_driver", a, X, b, Y, mbd_spatial_fn_user(failing_fn, NULL));
        REQUIRE_STATUS(mbd_spatial_finish(sm), GSL_SUCCESS);
        const mbd_system *s = mbd_spatial_system(sm);
        gsl_vector *q = gsl_vector_calloc(s->n), *C = gsl_vector_alloc(s->m);
        gsl_vector_set(q, 3, 1.0);
        gsl_vector_set(q, 10, 1.0);
        CHECK_STATUS(s->constraint(s, 0.0, q, C), GSL_EDOM);
        CHECK_STATUS(mbd_spatial_assemble(sm, 0.0, q, NULL, NULL), GSL_EDOM);
        CHECK_MSG(strstr(mbd_spatial_last_failure(sm)->cause, "assembly") != NULL, "%s",
                  mbd_spatial_last_failure(sm)->cause);
        gsl_vector_free(q);
        gsl_vector_free(C);
        mbd_spatial_free(sm);
    }
}
#undef FRESH

static CU_TestInfo euler_tests[] = {
    {"orthogonal_rodrigues", ep_orthogonal_rodrigues},
    {"B_K_differences", ep_B_K_differences},
    {"angular_velocity", ep_angular_velocity},
    {"from_rotation_matrix", ep_from_rotation_matrix},
    {"time_functions", time_functions},
    CU_TEST_INFO_NULL,
};

static CU_TestInfo derivative_tests[] = {
    {"cd", derivatives_cd},
    {"d", derivatives_d},
    {"dp1", derivatives_dp1},
    {"dp2", derivatives_dp2},
    {"perpendicular1", derivatives_perp1},
    {"perpendicular2", derivatives_perp2},
    {"spherical", derivatives_spherical},
    {"revolute", derivatives_revolute},
    {"cylindrical", derivatives_cylindrical},
    {"translational", derivatives_translational},
    {"universal", derivatives_universal},
    {"revolute_cylindrical", derivatives_revcyl},
    {"ground_joint", derivatives_ground},
    {"all_together", derivatives_all},
    {"row_counts", row_counts},
    {"joint_motions", joint_motions},
    CU_TEST_INFO_NULL,
};

static CU_TestInfo force_tests[] = {
    {"conservative_forces", conservative_forces},
    {"force_power", force_power},
    {"euler_equations", euler_equations},
    {"tsda_through_zero", tsda_through_zero},
    CU_TEST_INFO_NULL,
};

static CU_TestInfo analysis_tests[] = {
    {"normalisation", normalisation},
    {"slider_crank_kinematics", slider_crank_kinematics},
    {"initial_velocities", initial_velocities},
    {"pendulum_inverse_dynamics", pendulum_inverse_dynamics},
    {"block_on_incline", block_on_incline},
    {"redundant_rows", redundant_rows},
    {"assembly_failure", assembly_failure},
    CU_TEST_INFO_NULL,
};

static CU_TestInfo building_tests[] = {
    {"names_and_lookups", names_and_lookups},
    {"error_paths", error_paths},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"spatial_euler", NULL, NULL, NULL, NULL, euler_tests},
    {"spatial_derivatives", NULL, NULL, NULL, NULL, derivative_tests},
    {"spatial_forces", NULL, NULL, NULL, NULL, force_tests},
    {"spatial_analyses", NULL, NULL, NULL, NULL, analysis_tests},
    {"spatial_building", NULL, NULL, NULL, NULL, building_tests},
    CU_SUITE_INFO_NULL,
};
