/* The spatial engine's BDF dynamics (spatial.h, "Dynamics"; document 003
 * Sec. 6.6, guide Sec. 4.6). Every check is against something the
 * integrator did not compute: a closed form, a reduced-coordinate ODE
 * integrated by GSL's rk8pd at a tight tolerance, or a conservation law.
 * DYN_VERBOSE=1 prints the measured errors.
 *
 *   a01            IFToMM A01 (point-mass pendulum) 0-20 s against
 *                  theta'' = -(g/L) cos theta (theta from +x); BDF2 h = 1e-3,
 *                  h = 1e-2 printed; adaptive with interpolated outputs
 *   free_fall      exact parabola (with the BDF1 start's known offset
 *                  0.75 h^2 g) and p unchanged
 *   incline        the block on a 45-degree incline: r'' = (4.905, -4.905, 0)
 *   spinning       a torque-free body: angular momentum and energy kept,
 *                  |p| = 1 to Newton's tolerance
 *   smd            the spring-mass-damper (TSDA) against its closed form
 *   start          the consistent start against the closed-form pendulum
 *                  accelerations (centripetal included), p^T p'' = -p'^T p',
 *                  and the multipliers against mbd_spatial_multipliers
 *   newton         quasi and full Newton agree; full needs fewer iterations
 *   failure        max_iter 1 with a tight tol: MBD_ENOCONV at a time, the
 *                  row named, the outputs before it delivered
 *   order          error ratios when h halves: about 2 (BDF1), 4 (BDF2)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_math.h>
#include <gsl/gsl_odeiv2.h>

#include "check.h"
#include "mbd/spatial.h"

static const double G_ACC = 9.81;

static int verbose(void) { return getenv("DYN_VERBOSE") != NULL; }

/* ------------------------------------------------------------------------ */
/* A recorder                                                                */

#define REC_MAX 25000

typedef struct {
    size_t count, n, m;
    double t[REC_MAX];
    double *q, *qd, *qdd, *lam;   /* count x n (x m) */
    double phi[REC_MAX], drift[REC_MAX], euler[REC_MAX], energy[REC_MAX];
    unsigned iters[REC_MAX];
    int at_step[REC_MAX];
} recorder;

static recorder *rec_alloc(size_t n, size_t m)
{
    recorder *r = calloc(1, sizeof *r);
    r->n = n;
    r->m = m;
    r->q = malloc(REC_MAX * n * sizeof(double));
    r->qd = malloc(REC_MAX * n * sizeof(double));
    r->qdd = malloc(REC_MAX * n * sizeof(double));
    r->lam = malloc(REC_MAX * m * sizeof(double));
    return r;
}

static void rec_free(recorder *r)
{
    free(r->q);
    free(r->qd);
    free(r->qdd);
    free(r->lam);
    free(r);
}

static int record(const mbd_spatial_model *sm, const mbd_spatial_dynamics_point *pt, void *user)
{
    (void)sm;
    recorder *r = user;
    if (r->count >= REC_MAX)
        return GSL_SUCCESS;
    const size_t k = r->count++;
    r->t[k] = pt->t;
    for (size_t i = 0; i < r->n; i++) {
        r->q[k * r->n + i] = gsl_vector_get(pt->q, i);
        r->qd[k * r->n + i] = gsl_vector_get(pt->qd, i);
        r->qdd[k * r->n + i] = gsl_vector_get(pt->qdd, i);
    }
    for (size_t i = 0; i < r->m; i++)
        r->lam[k * r->m + i] = gsl_vector_get(pt->lambda, i);
    r->phi[k] = pt->phi_norm;
    r->drift[k] = pt->velocity_drift;
    r->euler[k] = pt->euler_norm;
    r->energy[k] = pt->energy;
    r->iters[k] = pt->newton_iterations;
    r->at_step[k] = pt->at_step;
    return GSL_SUCCESS;
}

/* ------------------------------------------------------------------------ */
/* Models                                                                    */

/* IFToMM A01: 1 kg at the end of a 1 m massless link, pivot at the origin,
 * released from rest at (-1, 0, 0); the body's frame at the mass (J tiny:
 * 1e-9 adds 1e-9 to the moment about the pivot, a phase error of 5e-10 of
 * the angle travelled, 4e-8 m over 20 s), the pivot its point (1, 0, 0). */
#define A01_J 1e-9
static mbd_spatial_model *a01(gsl_vector **q, gsl_vector **qd, double omega0)
{
    mbd_spatial_model *sm = mbd_spatial_alloc();
    double J[3][3] = {{A01_J, 0, 0}, {0, A01_J, 0}, {0, 0, A01_J}};
    const int g = mbd_spatial_add_ground(sm, "ground");
    const int b = mbd_spatial_add_body(sm, "mass", 1.0, J);
    mbd_spatial_set_gravity(sm, (const double[]){0, -G_ACC, 0});
    mbd_spatial_add_revolute(sm, "pivot", g, NULL, (const double[]){1, 0, 0},
                             (const double[]){0, 1, 0}, b, (const double[]){1, 0, 0},
                             (const double[]){0, 0, 1});
    if (mbd_spatial_finish(sm) != GSL_SUCCESS)
        return NULL;
    *q = gsl_vector_alloc(7);
    *qd = gsl_vector_calloc(7);
    mbd_spatial_set_pose(sm, b, (const double[]){-1, 0, 0}, (const double[]){1, 0, 0, 0}, *q);
    /* theta' = omega0 about z: the mass moves with omega x r = (0, -omega0, 0) */
    mbd_spatial_set_velocity(sm, b, *q, (const double[]){0, -omega0, 0},
                             (const double[]){0, 0, omega0}, MBD_SPATIAL_GLOBAL, *qd);
    return sm;
}

/* theta'' = -(g / L) cos theta: theta the angle of the mass from +x, the
 * mass at (L cos theta, L sin theta), V = m g L sin theta */
static int pend_rhs(double t, const double y[], double f[], void *p)
{
    (void)t, (void)p;
    f[0] = y[1];
    f[1] = -G_ACC * cos(y[0]);
    return GSL_SUCCESS;
}

/* max |x - x_ref|, |y - y_ref| over the recorded times */
static double a01_error(const recorder *r, double omega0)
{
    gsl_odeiv2_system sys = {pend_rhs, NULL, 2, NULL};
    gsl_odeiv2_driver *drv =
        gsl_odeiv2_driver_alloc_y_new(&sys, gsl_odeiv2_step_rk8pd, 1e-6, 1e-13, 0.0);
    double t = 0.0, y[2] = {M_PI, omega0}, err = 0.0;
    for (size_t k = 0; k < r->count; k++) {
        if (r->t[k] > t && gsl_odeiv2_driver_apply(drv, &t, r->t[k], y) != GSL_SUCCESS)
            return HUGE_VAL;
        err = fmax(err, fabs(r->q[k * r->n] - cos(y[0])));
        err = fmax(err, fabs(r->q[k * r->n + 1] - sin(y[0])));
    }
    gsl_odeiv2_driver_free(drv);
    return err;
}

static double run_a01_with(const mbd_spatial_dynamics_options *o, double t1, double dt_out,
                           mbd_spatial_dynamics_stats *stats, recorder **keep)
{
    gsl_vector *q = NULL, *qd = NULL;
    mbd_spatial_model *sm = a01(&q, &qd, 0.0);
    mbd_spatial_dynamics *d = mbd_spatial_dynamics_alloc(sm, o);
    recorder *r = rec_alloc(7, mbd_spatial_n_rows(sm));
    int st = mbd_spatial_dynamics_run(d, 0.0, t1, dt_out, q, qd, record, r);
    CHECK_STATUS(st, GSL_SUCCESS);
    if (st != GSL_SUCCESS)
        printf("\n  %s\n", mbd_spatial_last_failure(sm)->cause);
    const double err = st == GSL_SUCCESS ? a01_error(r, 0.0) : HUGE_VAL;
    if (stats != NULL)
        *stats = *mbd_spatial_dynamics_stats_get(d);
    if (keep != NULL)
        *keep = r;
    else
        rec_free(r);
    mbd_spatial_dynamics_free(d);
    mbd_spatial_free(sm);
    gsl_vector_free(q);
    gsl_vector_free(qd);
    return err;
}

static double run_a01(double h, unsigned order, mbd_spatial_newton newton, double t1,
                      double dt_out, int adaptive, mbd_spatial_dynamics_stats *stats,
                      recorder **keep)
{
    mbd_spatial_dynamics_options o = {.order = order, .newton = newton, .h = h,
                                      .adaptive = adaptive, .rtol = 1e-8, .atol = 1e-10};
    return run_a01_with(&o, t1, dt_out, stats, keep);
}

/* ------------------------------------------------------------------------ */

static void a01_pendulum(void)
{
    mbd_spatial_dynamics_stats s3, s2, sa;
    recorder *r;
    const double e3 = run_a01(1e-3, 2, MBD_SPATIAL_NEWTON_QUASI, 20.0, 0.5, 0, &s3, &r);
    const double e2 = run_a01(1e-2, 2, MBD_SPATIAL_NEWTON_QUASI, 20.0, 0.5, 0, &s2, NULL);
    const double ea = run_a01(1e-3, 2, MBD_SPATIAL_NEWTON_QUASI, 20.0, 0.5, 1, &sa, NULL);
    printf("\n  A01 0-20 s, BDF2 quasi-Newton: max |dx|,|dy| = %.3g (h = 1e-3, %zu steps, "
           "%.2f Newton it/step), %.3g (h = 1e-2), %.3g (adaptive rtol 1e-8: %zu steps, "
           "%zu rejected) ",
           e3, s3.steps, (double)s3.newton_iterations / (double)s3.steps, e2, ea, sa.steps,
           sa.rejected);
    CHECK_LE(e3, 1e-3);
    CHECK_LE(ea, 1e-3);
    CHECK_MSG(s3.steps == 20000, "20000 steps (%zu)", s3.steps);
    /* the constraints hold to Newton's tolerance, p stays unit; the velocity
     * constraints drift (index 3 does not enforce them) but stay small;
     * energy (conservative) stays near 0 within BDF2's damping */
    double phi = 0, eul = 0, drift = 0, dE = 0;
    for (size_t k = 0; k < r->count; k++) {
        phi = fmax(phi, r->phi[k]);
        eul = fmax(eul, r->euler[k]);
        drift = fmax(drift, r->drift[k]);
        dE = fmax(dE, fabs(r->energy[k] - r->energy[0]));
    }
    if (verbose())
        printf("\n  |Phi| %.3g, |p^T p - 1| %.3g, velocity drift %.3g, |E - E0| %.3g ", phi,
               eul, drift, dE);
    CHECK_LE(phi, 1e-8);
    CHECK_LE(eul, 1e-8);
    CHECK_LE(drift, 1e-4);
    CHECK_LE(dE, 1e-2);
    rec_free(r);
}

static void free_fall(void)
{
    mbd_spatial_model *sm = mbd_spatial_alloc();
    double J[3][3] = {{0.1, 0, 0}, {0, 0.2, 0}, {0, 0, 0.3}};
    const int b = mbd_spatial_add_body(sm, "ball", 2.0, J);
    mbd_spatial_set_gravity(sm, (const double[]){0, -G_ACC, 0});
    REQUIRE_STATUS(mbd_spatial_finish(sm), GSL_SUCCESS);
    gsl_vector *q = gsl_vector_alloc(7), *qd = gsl_vector_calloc(7);
    const double p0[4] = {0.5, 0.5, 0.5, 0.5}, v0[3] = {1.0, 3.0, -0.5}, r0[3] = {0.1, 0.2, 0.3};
    mbd_spatial_set_pose(sm, b, r0, p0, q);
    mbd_spatial_set_velocity(sm, b, q, v0, (const double[]){0, 0, 0}, MBD_SPATIAL_GLOBAL, qd);
    const double h = 1e-3;
    mbd_spatial_dynamics_options o = {.order = 2, .h = h};
    mbd_spatial_dynamics *d = mbd_spatial_dynamics_alloc(sm, &o);
    recorder *r = rec_alloc(7, 1);
    REQUIRE_STATUS(mbd_spatial_dynamics_run(d, 0.0, 2.0, 0.1, q, qd, record, r), GSL_SUCCESS);
    /* BDF1's first step puts q_1 = q_0 + h v_0 + h^2 a (h^2 a / 2 too far);
     * BDF2 has no local error on the parabola after it, and the offset obeys
     * e_n = (4/3) e_{n-1} - (1/3) e_{n-2}, e_0 = 0, e_1 = h^2 a / 2: e_n =
     * (3/4)(1 - 3^-n) h^2 a, tending to the guide's 0.75 h^2 a (its Sec. 5.2
     * case 2). The velocities are exact. */
    double ex = 0, ev = 0, ep = 0;
    for (size_t k = 0; k < r->count; k++) {
        const double t = r->t[k];
        const double a[3] = {0, -G_ACC, 0};
        for (int i = 0; i < 3; i++) {
            const double off = 0.75 * (1.0 - pow(3.0, -round(t / h))) * h * h * a[i];
            ex = fmax(ex, fabs(r->q[k * 7 + i] - (r0[i] + v0[i] * t + 0.5 * a[i] * t * t + off)));
            ev = fmax(ev, fabs(r->qd[k * 7 + i] - (v0[i] + a[i] * t)));
        }
        for (int i = 0; i < 4; i++)
            ep = fmax(ep, fabs(r->q[k * 7 + 3 + i] - p0[i]) + fabs(r->qd[k * 7 + 3 + i]));
    }
    if (verbose())
        printf("\n  free fall: position %.3g (after the offset), velocity %.3g, p %.3g ", ex, ev,
               ep);
    CHECK_LE(ex, 1e-10);
    CHECK_LE(ev, 1e-10);
    CHECK_LE(ep, 1e-12);
    rec_free(r);
    mbd_spatial_dynamics_free(d);
    mbd_spatial_free(sm);
    gsl_vector_free(q);
    gsl_vector_free(qd);
}

static void incline(void)
{
    mbd_spatial_model *sm = mbd_spatial_alloc();
    double J[3][3] = {{1e-4, 0, 0}, {0, 1e-4, 0}, {0, 0, 1e-4}};
    const int g = mbd_spatial_add_ground(sm, "ground");
    const int b = mbd_spatial_add_body(sm, "block", 2.0, J);
    const double s45 = sin(M_PI / 4), c45 = cos(M_PI / 4);
    mbd_spatial_set_gravity(sm, (const double[]){0, -G_ACC, 0});
    mbd_spatial_add_translational(sm, "incline", g, NULL, (const double[]){s45, c45, 0},
                                  (const double[]){0, 0, 1}, b, (const double[]){1, 0, 0},
                                  (const double[]){1, 0, 0}, (const double[]){0, 0, 1});
    REQUIRE_STATUS(mbd_spatial_finish(sm), GSL_SUCCESS);
    gsl_vector *q = gsl_vector_alloc(7), *qd = gsl_vector_calloc(7);
    double A[3][3] = {{c45, s45, 0}, {-s45, c45, 0}, {0, 0, 1}};
    mbd_spatial_set_pose_A(sm, b, NULL, A, q);
    mbd_spatial_dynamics_options o = {.order = 2, .h = 1e-2};
    mbd_spatial_dynamics *d = mbd_spatial_dynamics_alloc(sm, &o);
    recorder *r = rec_alloc(7, mbd_spatial_n_rows(sm));
    REQUIRE_STATUS(mbd_spatial_dynamics_run(d, 0.0, 5.0, 0.0, q, qd, record, r), GSL_SUCCESS);
    double ea = 0, ex = 0;
    for (size_t k = 0; k < r->count; k++) {
        const double t = r->t[k], a = G_ACC / 2;
        ea = fmax(ea, fabs(r->qdd[k * 7] - a) + fabs(r->qdd[k * 7 + 1] + a)
                          + fabs(r->qdd[k * 7 + 2]));
        /* the BDF1 start's offset (3/4)(1 - 3^-n) h^2 a, as for the free fall */
        const double off = 0.75 * (1.0 - pow(3.0, -(double)k)) * 1e-4;
        ex = fmax(ex, fabs(r->q[k * 7] - a * (t * t / 2 + off)));
        ex = fmax(ex, fabs(r->q[k * 7 + 1] + a * (t * t / 2 + off)));
    }
    if (verbose())
        printf("\n  incline: |r'' - (4.905, -4.905, 0)| %.3g, position %.3g ", ea, ex);
    CHECK_LE(ea, 1e-6);
    CHECK_LE(ex, 1e-6);
    rec_free(r);
    mbd_spatial_dynamics_free(d);
    mbd_spatial_free(sm);
    gsl_vector_free(q);
    gsl_vector_free(qd);
}

/* H = A J omega_bar (global frame) */
static void momentum(const mbd_spatial_model *sm, const gsl_vector *q, const gsl_vector *qd,
                     double J[3][3], double H[3])
{
    double wb[3], p[4], r[3], A[3][3], Jw[3];
    mbd_spatial_angular_velocity(sm, 0, q, qd, MBD_SPATIAL_BODY, wb);
    mbd_spatial_pose(sm, 0, q, r, p);
    mbd_spatial_ep_A(p, A);
    for (int i = 0; i < 3; i++)
        Jw[i] = J[i][0] * wb[0] + J[i][1] * wb[1] + J[i][2] * wb[2];
    for (int i = 0; i < 3; i++)
        H[i] = A[i][0] * Jw[0] + A[i][1] * Jw[1] + A[i][2] * Jw[2];
}

static void spinning(void)
{
    mbd_spatial_model *sm = mbd_spatial_alloc();
    double J[3][3] = {{1.0, 0, 0}, {0, 2.0, 0}, {0, 0, 3.0}};
    const int b = mbd_spatial_add_body(sm, "top", 1.5, J);
    REQUIRE_STATUS(mbd_spatial_finish(sm), GSL_SUCCESS);
    gsl_vector *q = gsl_vector_alloc(7), *qd = gsl_vector_calloc(7);
    mbd_spatial_set_pose(sm, b, (const double[]){0, 0, 0}, (const double[]){0.9, 0.1, 0.3, 0.2},
                         q);
    mbd_spatial_set_velocity(sm, b, q, (const double[]){0.2, 0, 0}, (const double[]){3.0, 0.4, 0.5},
                             MBD_SPATIAL_BODY, qd);
    double H0[3], H[3];
    momentum(sm, q, qd, J, H0);
    mbd_spatial_dynamics_options o = {.order = 2, .h = 1e-3, .newton = MBD_SPATIAL_NEWTON_FULL};
    mbd_spatial_dynamics *d = mbd_spatial_dynamics_alloc(sm, &o);
    recorder *r = rec_alloc(7, 1);
    REQUIRE_STATUS(mbd_spatial_dynamics_run(d, 0.0, 3.0, 0.0, q, qd, record, r), GSL_SUCCESS);
    double eH = 0, eE = 0, eul = 0;
    const double Hn = sqrt(H0[0] * H0[0] + H0[1] * H0[1] + H0[2] * H0[2]);
    gsl_vector_view vq, vqd;
    for (size_t k = 0; k < r->count; k++) {
        vq = gsl_vector_view_array(&r->q[k * 7], 7);
        vqd = gsl_vector_view_array(&r->qd[k * 7], 7);
        momentum(sm, &vq.vector, &vqd.vector, J, H);
        for (int i = 0; i < 3; i++)
            eH = fmax(eH, fabs(H[i] - H0[i]) / Hn);
        eE = fmax(eE, fabs(r->energy[k] - r->energy[0]) / r->energy[0]);
        eul = fmax(eul, r->euler[k]);
    }
    if (verbose())
        printf("\n  spinning (3 s, h = 1e-3): |dH|/|H| %.3g, |dE|/E %.3g, |p^T p - 1| %.3g ", eH,
               eE, eul);
    /* BDF2 is dissipative: O(h^2) per unit time; 3 s at |w| ~ 3 */
    CHECK_LE(eH, 1e-4);
    CHECK_LE(eE, 1e-4);
    CHECK_LE(eul, 1e-9);
    rec_free(r);
    mbd_spatial_dynamics_free(d);
    mbd_spatial_free(sm);
    gsl_vector_free(q);
    gsl_vector_free(qd);
}

/* The guide's case 6: m = 1, k = 100, c = 2, l0 = 0, x(0) = 0.02, at rest */
static mbd_spatial_model *smd(gsl_vector **q, gsl_vector **qd)
{
    mbd_spatial_model *sm = mbd_spatial_alloc();
    double J[3][3] = {{1e-4, 0, 0}, {0, 1e-4, 0}, {0, 0, 1e-4}};
    const int g = mbd_spatial_add_ground(sm, "ground");
    const int b = mbd_spatial_add_body(sm, "mass", 1.0, J);
    mbd_spatial_set_gravity(sm, (const double[]){0, -G_ACC, 0});
    mbd_spatial_add_tsda(sm, "spring", g, NULL, b, NULL, 100.0, 0.0, 2.0, NULL, NULL);
    mbd_spatial_add_translational(sm, "slide", g, NULL, (const double[]){0, 1, 0},
                                  (const double[]){0, 0, 1}, b, (const double[]){3, 0, 0},
                                  (const double[]){1, 0, 0}, (const double[]){0, 0, 1});
    if (mbd_spatial_finish(sm) != GSL_SUCCESS)
        return NULL;
    *q = gsl_vector_alloc(7);
    *qd = gsl_vector_calloc(7);
    mbd_spatial_set_pose(sm, b, (const double[]){0.02, 0, 0}, (const double[]){1, 0, 0, 0}, *q);
    return sm;
}

static double smd_exact(double t)
{
    const double w = sqrt(99.0);
    return 0.02 * exp(-t) * (cos(w * t) + sin(w * t) / w);
}

/* max |x - x_exact| over outputs every dt_out from t0 to t0 + t1 (the
 * closed form shifted to t0) */
static double run_smd_with(const mbd_spatial_dynamics_options *o, double t0, double t1,
                           double dt_out, mbd_spatial_dynamics_stats *stats)
{
    gsl_vector *q = NULL, *qd = NULL;
    mbd_spatial_model *sm = smd(&q, &qd);
    mbd_spatial_dynamics *d = mbd_spatial_dynamics_alloc(sm, o);
    recorder *r = rec_alloc(7, mbd_spatial_n_rows(sm));
    const int st = mbd_spatial_dynamics_run(d, t0, t0 + t1, dt_out, q, qd, record, r);
    CHECK_STATUS(st, GSL_SUCCESS);
    double err = st == GSL_SUCCESS ? 0.0 : HUGE_VAL;
    for (size_t k = 0; k < r->count; k++)
        err = fmax(err, fabs(r->q[k * 7] - smd_exact(r->t[k] - t0)));
    if (stats != NULL)
        *stats = *mbd_spatial_dynamics_stats_get(d);
    rec_free(r);
    mbd_spatial_dynamics_free(d);
    mbd_spatial_free(sm);
    gsl_vector_free(q);
    gsl_vector_free(qd);
    return err;
}

static double run_smd(double h, unsigned order, mbd_spatial_newton newton, double t1,
                      mbd_spatial_dynamics_stats *stats)
{
    mbd_spatial_dynamics_options o = {.order = order, .h = h, .newton = newton};
    return run_smd_with(&o, 0.0, t1, 0.05, stats);
}

static void spring_mass_damper(void)
{
    const double e = run_smd(1e-3, 2, MBD_SPATIAL_NEWTON_QUASI, 4.0, NULL);
    if (verbose())
        printf("\n  spring-mass-damper 0-4 s, BDF2 h = 1e-3: max |x - x_exact| %.3g ", e);
    CHECK_LE(e, 5e-5);
}

static void consistent_start(void)
{
    gsl_vector *q = NULL, *qd = NULL;
    const double w = 2.0;
    mbd_spatial_model *sm = a01(&q, &qd, w);
    const size_t m = mbd_spatial_n_rows(sm);
    mbd_spatial_dynamics *d = mbd_spatial_dynamics_alloc(sm, NULL);
    REQUIRE_STATUS(d != NULL ? GSL_SUCCESS : GSL_ENOMEM, GSL_SUCCESS);
    gsl_vector *qdd = gsl_vector_alloc(7), *lam = gsl_vector_alloc(m),
               *lam2 = gsl_vector_alloc(m);
    REQUIRE_STATUS(mbd_spatial_dynamics_start(d, 0.0, q, qd, qdd, lam), GSL_SUCCESS);
    /* at theta = pi, theta' = w: the body turns with the link, so its Jzz
     * adds to the pivot's inertia: theta'' = -m g L cos(pi) / (m L^2 + Jzz) =
     * alpha; the mass's acceleration alpha (-sin, cos) - w^2 (cos, sin) =
     * (w^2, -alpha) */
    const double alpha = G_ACC / (1.0 + A01_J);
    CHECK_CLOSE(gsl_vector_get(qdd, 0), w * w, 1e-9);
    CHECK_CLOSE(gsl_vector_get(qdd, 1), -alpha, 1e-9);
    CHECK_CLOSE(gsl_vector_get(qdd, 2), 0.0, 1e-9);
    /* p = (cos(phi/2), 0, 0, sin(phi/2)), phi = theta - pi: at phi = 0
     * p'' = (-w^2/4, 0, 0, alpha/2) */
    CHECK_CLOSE(gsl_vector_get(qdd, 3), -w * w / 4, 1e-9);
    CHECK_CLOSE(gsl_vector_get(qdd, 4), 0.0, 1e-9);
    CHECK_CLOSE(gsl_vector_get(qdd, 5), 0.0, 1e-9);
    CHECK_CLOSE(gsl_vector_get(qdd, 6), alpha / 2, 1e-9);
    double ptp = 0, pdpd = 0;
    for (int a = 3; a < 7; a++) {
        ptp += gsl_vector_get(q, a) * gsl_vector_get(qdd, a);
        pdpd += gsl_vector_get(qd, a) * gsl_vector_get(qd, a);
    }
    CHECK_CLOSE(ptp, -pdpd, 1e-12);   /* the Euler row done right (guide 6.2 item 1) */
    /* the multipliers of the inverse dynamics at these accelerations */
    REQUIRE_STATUS(mbd_spatial_multipliers(sm, 0.0, q, qd, qdd, lam2, NULL, NULL), GSL_SUCCESS);
    for (size_t k = 0; k < m; k++)
        CHECK_CLOSE(gsl_vector_get(lam, k), gsl_vector_get(lam2, k), 1e-8);
    /* and the pivot's force on the mass: m (a - g) = (w^2, g - alpha, 0) */
    mbd_spatial_reaction on;
    REQUIRE_STATUS(mbd_spatial_reactions(sm, 0, q, lam, NULL, &on), GSL_SUCCESS);
    CHECK_CLOSE(on.F[0], w * w, 1e-9);
    CHECK_CLOSE(on.F[1], G_ACC - alpha, 1e-9);
    /* an inconsistent start is refused, the row named */
    gsl_vector_set(q, 1, 1e-3);
    CHECK_STATUS(mbd_spatial_dynamics_start(d, 0.0, q, qd, qdd, lam), MBD_EINPUT);
    CHECK_MSG(strstr(mbd_spatial_last_failure(sm)->cause, "pivot/CD y") != NULL, "%s",
              mbd_spatial_last_failure(sm)->cause);
    gsl_vector_free(qdd);
    gsl_vector_free(lam);
    gsl_vector_free(lam2);
    mbd_spatial_dynamics_free(d);
    mbd_spatial_free(sm);
    gsl_vector_free(q);
    gsl_vector_free(qd);
}

static void quasi_vs_full(void)
{
    mbd_spatial_dynamics_stats sq, sf;
    recorder *rq, *rf;
    run_a01(1e-2, 2, MBD_SPATIAL_NEWTON_QUASI, 4.0, 0.0, 0, &sq, &rq);
    run_a01(1e-2, 2, MBD_SPATIAL_NEWTON_FULL, 4.0, 0.0, 0, &sf, &rf);
    double diff = 0;
    for (size_t k = 0; k < rq->count && k < rf->count; k++)
        for (size_t i = 0; i < 7; i++)
            diff = fmax(diff, fabs(rq->q[k * 7 + i] - rf->q[k * 7 + i]));
    mbd_spatial_dynamics_stats tq, tf;
    run_smd(1e-2, 2, MBD_SPATIAL_NEWTON_QUASI, 2.0, &tq);
    run_smd(1e-2, 2, MBD_SPATIAL_NEWTON_FULL, 2.0, &tf);
    if (verbose())
        printf("\n  quasi vs full (A01 h = 1e-2, 4 s): |dq| %.3g, iterations %zu vs %zu, "
               "matrices %zu vs %zu; SMD: %zu vs %zu ",
               diff, sq.newton_iterations, sf.newton_iterations, sq.matrices, sf.matrices,
               tq.newton_iterations, tf.newton_iterations);
    CHECK_MSG(rq->count == rf->count, "the same steps (%zu, %zu)", rq->count, rf->count);
    CHECK_LE(diff, 1e-8);
    CHECK_MSG(sf.newton_iterations < sq.newton_iterations, "full %zu < quasi %zu",
              sf.newton_iterations, sq.newton_iterations);
    CHECK_MSG(tf.newton_iterations < tq.newton_iterations, "SMD full %zu < quasi %zu",
              tf.newton_iterations, tq.newton_iterations);
    CHECK_MSG(sq.matrices == sq.steps + 1, "quasi: the start's and one per step (%zu, %zu)",
              sq.matrices, sq.steps);
    /* modified Newton (the quasi matrix kept across steps): the same
     * solution to Newton's tolerance with far fewer matrices, a few more
     * iterations; at h = 1e-2 the pendulum turns fast against the step and
     * the matrix is renewed on most steps, at h = 1e-3 it lasts for many */
    mbd_spatial_dynamics_stats sm1, sm3, sq3;
    recorder *rm;
    run_a01(1e-2, 2, MBD_SPATIAL_NEWTON_MODIFIED, 4.0, 0.0, 0, &sm1, &rm);
    run_a01(1e-3, 2, MBD_SPATIAL_NEWTON_MODIFIED, 4.0, 0.5, 0, &sm3, NULL);
    run_a01(1e-3, 2, MBD_SPATIAL_NEWTON_QUASI, 4.0, 0.5, 0, &sq3, NULL);
    double dm = 0;
    for (size_t k = 0; k < rq->count && k < rm->count; k++)
        for (size_t i = 0; i < 7; i++)
            dm = fmax(dm, fabs(rq->q[k * 7 + i] - rm->q[k * 7 + i]));
    printf("\n  modified Newton (A01, 4 s): h = 1e-2 |dq| vs quasi %.3g, matrices %zu (quasi "
           "%zu), iterations %zu (%zu); h = 1e-3: matrices %zu (%zu), iterations %zu (%zu) ",
           dm, sm1.matrices, sq.matrices, sm1.newton_iterations, sq.newton_iterations,
           sm3.matrices, sq3.matrices, sm3.newton_iterations, sq3.newton_iterations);
    CHECK_MSG(rm->count == rq->count, "the same steps (%zu, %zu)", rm->count, rq->count);
    CHECK_LE(dm, 1e-8);
    CHECK_MSG(sm1.matrices < sq.matrices, "modified %zu matrices, quasi %zu", sm1.matrices,
              sq.matrices);
    CHECK_MSG(20 * sm3.matrices < sq3.matrices, "modified %zu matrices, quasi %zu",
              sm3.matrices, sq3.matrices);
    CHECK_MSG(sm3.newton_iterations < 2 * sq3.newton_iterations, "iterations %zu, quasi %zu",
              sm3.newton_iterations, sq3.newton_iterations);
    rec_free(rm);
    rec_free(rq);
    rec_free(rf);
}

/* A01 at h = 1e-2 with Newton cut short: the status, the failure's time,
 * and the outputs delivered before it (each step's end) */
static void failure_case(unsigned max_iter, double tol, size_t min_outputs)
{
    gsl_vector *q = NULL, *qd = NULL;
    mbd_spatial_model *sm = a01(&q, &qd, 0.0);
    mbd_spatial_dynamics_options o = {.order = 2, .h = 1e-2, .max_iter = max_iter, .tol = tol};
    mbd_spatial_dynamics *d = mbd_spatial_dynamics_alloc(sm, &o);
    recorder *r = rec_alloc(7, mbd_spatial_n_rows(sm));
    const int st = mbd_spatial_dynamics_run(d, 0.0, 20.0, 0.0, q, qd, record, r);
    CHECK_STATUS(st, MBD_ENOCONV);
    const mbd_failure *f = mbd_spatial_last_failure(sm);
    if (verbose())
        printf("\n  max_iter %u, tol %g: failure at t = %g after %zu outputs: %s ", max_iter, tol,
               f->time, r->count, f->cause);
    CHECK_MSG(strstr(f->cause, "Newton did not converge") != NULL
                  && strstr(f->cause, "row 'pivot/") != NULL,
              "the cause names Newton and a row: %s", f->cause);
    /* the outputs before it: t0 and every step's end up to the one before */
    CHECK_MSG(r->count >= min_outputs, "at least %zu outputs delivered (%zu)", min_outputs,
              r->count);
    if (r->count > 0) {
        CHECK_CLOSE(r->t[0], 0.0, 0.0);
        CHECK_CLOSE(f->time, r->t[r->count - 1] + 1e-2, 1e-9);
        /* q holds the last accepted state */
        CHECK_CLOSE(gsl_vector_get(q, 0), r->q[(r->count - 1) * 7], 0.0);
    }
    rec_free(r);
    mbd_spatial_dynamics_free(d);
    mbd_spatial_free(sm);
    gsl_vector_free(q);
    gsl_vector_free(qd);
}

static void failure_path(void)
{
    failure_case(1, 1e-12, 1);    /* the first step fails: only t0 was delivered */
    failure_case(2, 1e-11, 3);    /* the pendulum speeds up, corrections grow: a later step */
}

static void order_ratios(void)
{
    const double e1a = run_smd(2e-3, 1, MBD_SPATIAL_NEWTON_QUASI, 1.0, NULL);
    const double e1b = run_smd(1e-3, 1, MBD_SPATIAL_NEWTON_QUASI, 1.0, NULL);
    const double e2a = run_smd(2e-3, 2, MBD_SPATIAL_NEWTON_QUASI, 1.0, NULL);
    const double e2b = run_smd(1e-3, 2, MBD_SPATIAL_NEWTON_QUASI, 1.0, NULL);
    if (verbose())
        printf("\n  SMD 0-1 s: BDF1 %.3g -> %.3g (ratio %.2f); BDF2 %.3g -> %.3g (ratio %.2f) ",
               e1a, e1b, e1a / e1b, e2a, e2b, e2a / e2b);
    CHECK_IN(e1a / e1b, 1.8, 2.2);
    CHECK_IN(e2a / e2b, 3.6, 4.4);
}

/* Orders 3 and 4 in fixed steps (with their start-up of doubling steps) on
 * the spring-mass-damper against its closed form, t0 = 0.3: the error falls
 * by 2^k when h halves. Order 5 adaptive meets a tight tolerance with far
 * fewer steps than order 2. */
static void higher_orders(void)
{
    double e[2][2];
    mbd_spatial_dynamics_stats st;
    for (unsigned k = 3; k <= 4; k++)
        for (int i = 0; i < 2; i++) {
            mbd_spatial_dynamics_options o = {.order = k, .h = i == 0 ? 1e-2 : 5e-3};
            e[k - 3][i] = run_smd_with(&o, 0.3, 1.0, 0.05, &st);
            /* the grid's 100 or 200 steps and the start-up's */
            CHECK_MSG(st.steps > (i == 0 ? 100u : 200u) && st.steps < (i == 0 ? 130u : 230u),
                      "order %u, h %g: %zu steps", k, o.h, st.steps);
        }
    mbd_spatial_dynamics_options a5 = {.order = 5, .adaptive = 1, .rtol = 1e-9, .atol = 1e-11,
                                       .h = 1e-5};
    mbd_spatial_dynamics_options a2 = a5;
    a2.order = 2;
    mbd_spatial_dynamics_stats s5, s2;
    const double e5 = run_smd_with(&a5, 0.3, 1.0, 0.05, &s5);
    const double e2 = run_smd_with(&a2, 0.3, 1.0, 0.05, &s2);
    printf("\n  SMD 0.3-1.3 s: BDF3 %.3g -> %.3g (ratio %.2f), BDF4 %.3g -> %.3g (ratio %.2f); "
           "adaptive rtol 1e-9: BDF5 %.3g in %zu steps, BDF2 %.3g in %zu ",
           e[0][0], e[0][1], e[0][0] / e[0][1], e[1][0], e[1][1], e[1][0] / e[1][1], e5,
           s5.steps, e2, s2.steps);
    CHECK_IN(e[0][0] / e[0][1], 6.5, 9.5);
    CHECK_IN(e[1][0] / e[1][1], 13.0, 19.0);
    CHECK_LE(e5, 1e-7);
    CHECK_LE(e2, 1e-6);
    CHECK_MSG(4 * s5.steps < s2.steps, "BDF5 %zu steps, BDF2 %zu", s5.steps, s2.steps);
}

/* Outputs between steps come from the quintic Hermite interpolant: with
 * steps of up to 5 ms (adaptive BDF5) the outputs every 1e-3 s, nearly all
 * interpolated, are as accurate as the steps' own values (a wrong basis
 * function or a lost derivative would show at once). */
static void interpolated_outputs(void)
{
    mbd_spatial_dynamics_options o = {.order = 5, .adaptive = 1, .rtol = 1e-10, .atol = 1e-12,
                                      .h = 1e-5};
    mbd_spatial_dynamics_stats st;
    const double e_steps = run_smd_with(&o, 0.0, 1.0, 0.0, &st);
    const double e_dense = run_smd_with(&o, 0.0, 1.0, 1e-3, NULL);
    printf("\n  SMD adaptive BDF5: at the %zu steps %.3g, at 1000 outputs %.3g (h up to %.3g) ",
           st.steps, e_steps, e_dense, st.h_max);
    CHECK_LE(e_dense, 2.0 * e_steps);
    CHECK_MSG(st.h_max > 4e-3, "h_max %g", st.h_max);
}

/* The index-1 comparison (rk8pd with projection): A01 over 0-20 s against
 * the reduced equation; the projection keeps the constraints; and a fixed
 * BDF option it does not use changes nothing */
static void index1_rk(void)
{
    mbd_spatial_dynamics_options o = {.method = MBD_SPATIAL_INDEX1_RK};
    CHECK_STATUS(mbd_ode_preset("rk8pd", &o.ode), GSL_SUCCESS);
    o.ode.rtol = 1e-10;
    o.ode.atol = 1e-12;
    mbd_spatial_dynamics_stats st;
    recorder *r;
    const double e = run_a01_with(&o, 20.0, 0.5, &st, &r);
    double phi = 0, drift = 0, dE = 0;
    for (size_t k = 0; k < r->count; k++) {
        phi = fmax(phi, r->phi[k]);
        drift = fmax(drift, r->drift[k]);
        dE = fmax(dE, fabs(r->energy[k] - r->energy[0]));
    }
    printf("\n  A01 0-20 s, index 1 + rk8pd (rtol 1e-10): max |dx|,|dy| = %.3g in %zu steps, "
           "%zu right-hand sides, %zu projections; |Phi| %.3g, drift %.3g, |E - E0| %.3g ",
           e, st.steps, st.rhs_evals, st.projections, phi, drift, dE);
    CHECK_LE(e, 1e-7);
    CHECK_LE(phi, 1e-9);
    CHECK_LE(drift, 1e-9);
    CHECK_LE(dE, 1e-7);
    CHECK_MSG(st.steps > 100 && st.steps < 2000, "%zu steps", st.steps);
    CHECK_MSG(st.rhs_evals >= 12 * st.steps, "%zu right-hand sides", st.rhs_evals);
    CHECK_MSG(r->count == 41, "%zu outputs", r->count);
    rec_free(r);
    o.order = 1;
    o.h = 0.3;
    const double e1 = run_a01_with(&o, 20.0, 0.5, NULL, NULL);
    CHECK_MSG(e1 == e, "%.17g against %.17g", e1, e);
}

static CU_TestInfo tests[] = {
    {"a01_pendulum", a01_pendulum},
    {"free_fall", free_fall},
    {"incline", incline},
    {"spinning", spinning},
    {"spring_mass_damper", spring_mass_damper},
    {"consistent_start", consistent_start},
    {"quasi_vs_full", quasi_vs_full},
    {"failure_path", failure_path},
    {"order_ratios", order_ratios},
    {"higher_orders", higher_orders},
    {"interpolated_outputs", interpolated_outputs},
    {"index1_rk", index1_rk},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"spatial_dynamics", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
