/* Chapter 03: the simple pendulum of document 000 (Sec. 2.4.1), against
 *   - closed forms: the period 4 K(sin 45 deg) / sqrt(g/L) = 2.367842 s, the
 *     bottom passages (2n - 1) T / 4, the multiplier 14.715 at the bottom
 *     (= 3 m g / 2, from Newton's law for circular motion), the Baumgarte roots;
 *   - an independent reference: theta'' = -(g/L) sin theta integrated here with
 *     GSL's rk8pd driver at 1e-13 (not through the library or the chapter);
 *   - the reading guide's checks P1-P11 (seed note 000, Sec. 6.3);
 *   - the model's derivatives against finite differences;
 *   - the program's command line. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_math.h>
#include <gsl/gsl_odeiv2.h>

#include "check.h"
#include "mbd/formulation.h"
#include "model.h"
#include "reference.h"
#include "study.h"

#define PROG "ch03-pendulum"

/* ------------------------------------------------------------------------ */
/* The independent reference                                                 */

static int ref_rhs(double t, const double y[], double f[], void *params)
{
    (void)t;
    (void)params;
    f[0] = y[1];
    f[1] = -9.81 * sin(y[0]);
    return GSL_SUCCESS;
}

/* theta and theta' at t from theta(0) = pi/2 at rest, GSL rk8pd at 1e-13 */
static void reference(double t, double *theta, double *omega)
{
    gsl_odeiv2_system sys = {ref_rhs, NULL, 2, NULL};
    gsl_odeiv2_driver *d = gsl_odeiv2_driver_alloc_y_new(&sys, gsl_odeiv2_step_rk8pd, 1e-3,
                                                         1e-13, 1e-13);
    double y[2] = {M_PI / 2, 0.0}, t0 = 0.0;
    int st = gsl_odeiv2_driver_apply(d, &t0, t, y);
    CHECK_STATUS(st, GSL_SUCCESS);
    gsl_odeiv2_driver_free(d);
    *theta = y[0];
    *omega = y[1];
}

static ch03_pendulum doc(void)
{
    ch03_pendulum p;
    ch03_pendulum_document(&p);
    return p;
}

/* One run; asserts it could be set up. */
static ch03_result run(const char *method, const char *integrator, double mu, double dt_out,
                       double max_violation, mbd_history *h)
{
    ch03_pendulum p = doc();
    ch03_spec s;
    ch03_spec_default(&s);
    s.method = method;
    CHECK_STATUS(mbd_ode_preset(integrator, &s.ode), GSL_SUCCESS);
    s.mu = mu;
    s.dt_out = dt_out;
    s.max_violation = max_violation;
    ch03_result r;
    int st = ch03_run(&p, &s, h, &r);
    CHECK_MSG(st == GSL_SUCCESS, "%s/%s: ch03_run failed: %s", method, integrator, mbd_strerror(st));
    return r;
}

/* ------------------------------------------------------------------------ */
/* The model and the exact solution                                          */

static void document_data(void)
{
    ch03_pendulum p = doc();
    CHECK_CLOSE(p.m, 1.0, 0);
    CHECK_CLOSE(p.L, 1.0, 0);
    CHECK_CLOSE(p.g, 9.81, 0);
    double q0[3], qd0[3];
    ch03_initial(&p, q0, qd0);
    CHECK_CLOSE(q0[0], 1.0, 0);
    CHECK_CLOSE(q0[1], 0.0, 0);
    CHECK_CLOSE(q0[2], 0.0, 0);
    for (int i = 0; i < 3; i++)
        CHECK_CLOSE(qd0[i], 0.0, 0);
}

/* P1: T = 4 K(k) / sqrt(g/L), k = sin 45 deg */
static void exact_period(void)
{
    ch03_pendulum p = doc();
    ch03_exact e;
    REQUIRE_STATUS(ch03_exact_init(&p, &e), GSL_SUCCESS);
    CHECK_CLOSE(e.T, 2.367842, 1e-6);
    CHECK_CLOSE(e.K, 1.85407468, 1e-8);
    CHECK_CLOSE(e.w, sqrt(9.81), 1e-15);
    CHECK_CLOSE(ch03_exact_bottom_time(&e, 1), 0.591961, 1e-6);
    /* the state repeats after a period, and is mirrored after half of one */
    double q[3], qd[3], q2[3], qd2[3];
    ch03_exact_state(&p, &e, 0.3, q, qd);
    ch03_exact_state(&p, &e, 0.3 + e.T, q2, qd2);
    CHECK_CLOSE(q2[0], q[0], 1e-12);
    CHECK_CLOSE(qd2[1], qd[1], 1e-12);
    ch03_exact_state(&p, &e, 0.3 + e.T / 2, q2, qd2);
    CHECK_CLOSE(q2[0], -q[0], 1e-12);
    CHECK_CLOSE(q2[1], q[1], 1e-12);
}

/* The elliptic-function solution against the independent rk8pd integration,
 * and its energy. */
static void exact_against_reference(void)
{
    ch03_pendulum p = doc();
    ch03_exact e;
    REQUIRE_STATUS(ch03_exact_init(&p, &e), GSL_SUCCESS);
    const double ts[] = {0.0, 0.25, 0.591961, 1.0, 2.0, 3.0, 4.0, 5.0};
    for (size_t i = 0; i < sizeof ts / sizeof ts[0]; i++) {
        double th, om, thr = M_PI / 2, omr = 0.0;
        REQUIRE_STATUS(ch03_exact_angle(&e, ts[i], &th, &om), GSL_SUCCESS);
        if (ts[i] > 0)
            reference(ts[i], &thr, &omr);
        CHECK_MSG(fabs(th - thr) < 1e-9 && fabs(om - omr) < 1e-9,
                  "t = %g: exact (%.12f, %.12f), reference (%.12f, %.12f)", ts[i], th, om, thr, omr);
        double q[3], qd[3];
        ch03_cartesian(&p, th, om, q, qd);
        const double E = 0.5 * (qd[0] * qd[0] + qd[1] * qd[1]) - 9.81 * q[1];
        CHECK_CLOSE(E, 0.0, 1e-12);
        CHECK_CLOSE(q[0] * q[0] + q[1] * q[1], 1.0, 1e-14);
    }
    /* the extreme speeds: sqrt(2 g L) at the bottom */
    double q[3], qd[3];
    ch03_exact_state(&p, &e, ch03_exact_bottom_time(&e, 1), q, qd);
    CHECK_CLOSE(fabs(qd[0]), sqrt(2 * 9.81), 1e-9);
    CHECK_CLOSE(q[1], 1.0, 1e-12);
}

/* The stepped exact solution (addition formulas between anchors) against
 * GSL's elliptic functions at every time: the run loop's grid t0 + k dt with
 * a short last step, a grid from t0 != 0 with another spacing, and uneven
 * times; a modulus near 1 (theta0 = 170 deg) where sn, dn vary fastest. */
static void exact_sequence(void)
{
    const double theta0[] = {M_PI / 2, 170.0 * M_PI / 180.0};
    for (int c = 0; c < 2; c++) {
        ch03_pendulum p = doc();
        p.theta0 = theta0[c];
        p.L = 0.75;
        ch03_exact e;
        REQUIRE_STATUS(ch03_exact_init(&p, &e), GSL_SUCCESS);
        for (int grid = 0; grid < 3; grid++) {
            ch03_exact_seq seq;
            ch03_exact_seq_init(&seq, &p, &e);
            double worst = 0.0, worst_v = 0.0;
            unsigned seed = 11;
            double t = 0.0;
            for (int k = 0; k <= 20001; k++) {
                if (grid == 0)
                    t = k <= 20000 ? k * 2.5e-4 : 5.0 + 1e-5;
                else if (grid == 1)
                    t = 0.3 + k * 1e-3;
                else {
                    seed = seed * 1103515245u + 12345u;
                    t += 1e-4 * ((seed >> 16) % 3);   /* spacings 0, 1e-4, 2e-4 */
                }
                double q[3], qd[3], qe[3], qde[3];
                REQUIRE_STATUS(ch03_exact_seq_state(&seq, t, q, qd), GSL_SUCCESS);
                REQUIRE_STATUS(ch03_exact_state(&p, &e, t, qe, qde), GSL_SUCCESS);
                for (int i = 0; i < 3; i++) {
                    worst = fmax(worst, fabs(q[i] - qe[i]));
                    worst_v = fmax(worst_v, fabs(qd[i] - qde[i]));
                }
            }
            CHECK_MSG(worst < 1e-13 * p.L && worst_v < 1e-13 * p.L * e.w,
                      "theta0 %g, grid %d: position %.3g, velocity %.3g", theta0[c], grid, worst,
                      worst_v);
        }
    }
}

/* C_q and gamma of the model against finite differences of C */
static void model_derivatives(void)
{
    ch03_pendulum p = doc();
    mbd_system s;
    ch03_system(&p, &s);
    REQUIRE_STATUS(mbd_system_validate(&s), GSL_SUCCESS);
    const double states[][6] = {{1, 0, 0, 0, 0, 0},
                                {0.6, 0.8, 0.05, -2.1, 1.6, 0.3},
                                {-0.28, 0.96, 0.0, -4.2, -1.2, 0.0},
                                {0.3, -0.2, -0.4, 0.7, 2.5, -1.1}};
    for (size_t i = 0; i < sizeof states / sizeof states[0]; i++) {
        gsl_vector_const_view q = gsl_vector_const_view_array(states[i], 3);
        gsl_vector_const_view qd = gsl_vector_const_view_array(states[i] + 3, 3);
        mbd_fdcheck fd;
        REQUIRE_STATUS(mbd_system_check_derivatives(&s, 0.0, &q.vector, &qd.vector, 0.0, &fd),
                       GSL_SUCCESS);
        CHECK_MSG(fd.jacobian_rel < 1e-8, "state %zu: Jacobian differs by %.3g (rel)", i,
                  fd.jacobian_rel);
        CHECK_MSG(fd.gamma_rel < 1e-5, "state %zu: gamma differs by %.3g (rel)", i, fd.gamma_rel);
    }
    /* the energy callback: E = v^2/2 - g y */
    double q[3] = {0.6, 0.8, 0}, qd[3] = {1, 2, 0}, E = NAN;
    gsl_vector_view vq = gsl_vector_view_array(q, 3), vqd = gsl_vector_view_array(qd, 3);
    REQUIRE_STATUS(s.energy(&s, 0.0, &vq.vector, &vqd.vector, &E), GSL_SUCCESS);
    CHECK_CLOSE(E, 2.5 - 9.81 * 0.8, 1e-14);
}

/* P8: the projection's multiplier at the bottom, lambda = 14.715 (C scaled as
 * x^2 + y^2 - 1): the rod force 2 lambda = m g + m v^2 / L = 3 m g. */
static void multiplier_at_the_bottom(void)
{
    ch03_pendulum p = doc();
    ch03_exact e;
    ch03_exact_init(&p, &e);
    double q[3], qd[3];
    ch03_exact_state(&p, &e, ch03_exact_bottom_time(&e, 1), q, qd);
    mbd_system s;
    ch03_system(&p, &s);
    const char *methods[] = {"projection", "penalty"};
    for (int i = 0; i < 2; i++) {
        mbd_formulation_params fp = {.mu = 1e8};
        REQUIRE_STATUS(mbd_formulation_method(methods[i], &fp), GSL_SUCCESS);
        mbd_formulation *f = mbd_formulation_alloc(&s, &fp);
        CHECK_MSG(f != NULL, "formulation %s", methods[i]);
        if (f == NULL)
            return;
        gsl_vector_view vq = gsl_vector_view_array(q, 3), vqd = gsl_vector_view_array(qd, 3);
        gsl_vector *qdd = gsl_vector_alloc(3), *lam = gsl_vector_alloc(2);
        CHECK_STATUS(mbd_formulation_accel(f, 0.0, &vq.vector, &vqd.vector, qdd, lam), GSL_SUCCESS);
        CHECK_REL(gsl_vector_get(lam, 0), 14.715, 1e-4);
        CHECK_REL(2 * gsl_vector_get(lam, 0), 3 * 9.81, 1e-4);
        /* the centripetal acceleration v^2 / L towards the origin (-y) */
        CHECK_REL(gsl_vector_get(qdd, 1), -2 * 9.81, 1e-4);
        gsl_vector_free(qdd);
        gsl_vector_free(lam);
        mbd_formulation_free(f);
    }
}

/* ------------------------------------------------------------------------ */
/* The methods                                                               */

/* P2, P3: the projection under tight tolerances follows the exact solution */
static void tight_projection(void)
{
    mbd_history h;
    mbd_history_init(&h);
    ch03_result r = run("projection", "tight", 1e5, 1e-4, 1.0, &h);
    CHECK_STATUS(r.status, GSL_SUCCESS);
    CHECK_LE(r.err.position, 1e-6);
    CHECK_LE(r.err.velocity, 1e-6);
    CHECK_LE(r.stats.max_C, 1e-6);
    CHECK_LE(r.stats.max_dE, 1e-6);
    CHECK_CLOSE(ch03_first_crossing(&h, 0.0), 0.591961, 1e-5);
    /* and against the independent reference at t = 5 s */
    double th, om;
    reference(5.0, &th, &om);
    const double *q = mbd_history_q(&h, h.rows - 1), *qd = mbd_history_qd(&h, h.rows - 1);
    CHECK_CLOSE(h.t[h.rows - 1], 5.0, 1e-12);
    CHECK_CLOSE(q[0], sin(th), 1e-6);
    CHECK_CLOSE(q[1], cos(th), 1e-6);
    CHECK_CLOSE(qd[0], om * cos(th), 1e-6);
    CHECK_CLOSE(qd[1], -om * sin(th), 1e-6);
    mbd_history_free(&h);
}

/* The direct method: C = 0 up to rounding, and tight within 1e-8 */
static void direct_method(void)
{
    ch03_result r = run("direct", "tight", 1e5, 1e-3, 1.0, NULL);
    CHECK_STATUS(r.status, GSL_SUCCESS);
    CHECK_LE(r.stats.max_C, 1e-14);
    CHECK_LE(r.stats.max_Cdot, 1e-13);
    CHECK_LE(r.err.position, 1e-8);
    CHECK_LE(r.err.velocity, 1e-7);
    /* the document's baseline (ode23) is ~1e-2 off */
    r = run("direct", "ode23", 1e5, 1e-3, 1.0, NULL);
    CHECK_IN(r.err.position, 1e-3, 5e-2);
    CHECK_IN(r.err.velocity, 1e-2, 2e-1);
}

/* P4: the static penalty's max |C| falls tenfold per decade of mu */
static void penalty_one_over_mu(void)
{
    double C[6];
    for (int k = 0; k < 6; k++) {
        ch03_result r = run("penalty", "tight", pow(10.0, k + 3), 1e-3, 10.0, NULL);
        CHECK_STATUS(r.status, GSL_SUCCESS);
        C[k] = r.stats.max_C;
        if (k == 2)
            CHECK_IN(C[k], 2e-4, 3e-3);
        if (k == 5)
            CHECK_LE(r.err.position, 1e-5);
    }
    for (int k = 1; k < 6; k++)
        CHECK_MSG(C[k - 1] / C[k] > 8.0 && C[k - 1] / C[k] < 12.5,
                  "max|C|(1e%d) / max|C|(1e%d) = %.3f, expected about 10", k + 2, k + 3,
                  C[k - 1] / C[k]);
    CHECK_IN(C[2] / C[5], 500.0, 2000.0);
}

/* P5, P9: the stable Baumgarte variant stays bounded; the printed sign
 * exceeds the violation limit, and its |C| grows at the root
 * alpha + sqrt(alpha^2 + beta^2) = 48.28 /s. */
static void baumgarte_signs(void)
{
    ch03_result r = run("penalty-baumgarte", "tight", 1e5, 1e-3, 1.0, NULL);
    CHECK_STATUS(r.status, GSL_SUCCESS);
    CHECK_LE(r.stats.max_C, 1e-5);
    CHECK_LE(r.err.position, 2e-5);
    CHECK_LE(r.stats.max_dE, 1e-4);
    mbd_history h;
    mbd_history_init(&h);
    r = run("penalty-baumgarte-printed", "tight", 1e5, 1e-3, 1.0, &h);
    CHECK_STATUS(r.status, MBD_EVIOLATION);
    CHECK_IN(r.fail.time, 0.1, 5.0);
    CHECK_GE(r.stats.max_C, 1.0);
    const double t1 = ch03_violation_time(&h, 1e-4), t2 = ch03_violation_time(&h, 1e-1);
    const double rate = log(1e3) / (t2 - t1);
    CHECK_REL(rate, 20 + sqrt(800.0), 0.05);
    mbd_history_free(&h);
    /* ode23, the stable variant bounded over 5 s */
    r = run("penalty-baumgarte", "ode23", 1e5, 1e-3, 1.0, NULL);
    CHECK_STATUS(r.status, GSL_SUCCESS);
    CHECK_LE(r.stats.max_C, 1e-2);
}

/* P6: in MATLAB mode the methods agree as the document says, and none is
 * further than 0.1 (position) and 0.3 (velocity) from the exact solution. */
static void matlab_mode(void)
{
    const char *m[] = {"projection", "projection-baumgarte", "penalty", "penalty-baumgarte",
                       "alternate-penalty"};
    mbd_history h[5];
    for (int i = 0; i < 5; i++) {
        mbd_history_init(&h[i]);
        ch03_result r = run(m[i], "ode23", 1e5, 1e-3, 1.0, &h[i]);
        CHECK_STATUS(r.status, GSL_SUCCESS);
        CHECK_MSG(r.err.position <= 0.1 && r.err.velocity <= 0.3,
                  "%s: position error %.3g, velocity error %.3g", m[i], r.err.position,
                  r.err.velocity);
        CHECK_MSG(r.err.z_abs == 0.0, "%s: z = %g, not exactly 0", m[i], r.err.z_abs);
    }
    /* penalty-baumgarte vs projection-baumgarte: everywhere; penalty vs projection at t = 5 */
    double d_b = 0.0, d_end = 0.0;
    for (size_t k = 0; k < h[0].rows && k < h[2].rows; k++)
        for (int j = 0; j < 3; j++) {
            d_b = fmax(d_b, fabs(mbd_history_q(&h[1], k)[j] - mbd_history_q(&h[3], k)[j]));
            d_b = fmax(d_b, fabs(mbd_history_qd(&h[1], k)[j] - mbd_history_qd(&h[3], k)[j]));
        }
    const size_t last = h[0].rows - 1;
    for (int j = 0; j < 3; j++)
        d_end = fmax(d_end, fabs(mbd_history_q(&h[0], last)[j] - mbd_history_q(&h[2], last)[j]));
    CHECK_LE(d_b, 1e-4);
    CHECK_LE(d_end, 5e-3);
    for (int i = 0; i < 5; i++)
        mbd_history_free(&h[i]);
}

/* P7: z is identically 0 for every method and integrator */
static void z_stays_zero(void)
{
    const char *m[] = {"projection", "projection-baumgarte", "penalty", "penalty-baumgarte",
                       "alternate-penalty", "index2-penalty", "direct"};
    for (int i = 0; i < 7; i++) {
        mbd_history h;
        mbd_history_init(&h);
        run(m[i], "ode23", 1e5, 1e-2, 1.0, &h);
        double zmax = 0.0;
        for (size_t k = 0; k < h.rows; k++)
            zmax = fmax(zmax, fabs(mbd_history_q(&h, k)[2]) + fabs(mbd_history_qd(&h, k)[2]));
        CHECK_MSG(zmax <= 1e-15, "%s: |z| + |z'| reaches %g", m[i], zmax);
        mbd_history_free(&h);
    }
}

/* P10: ode23's steps for the alternate penalty grow as sqrt(mu); the
 * stabilised static penalty's do not move. */
static void steps_against_mu(void)
{
    ch03_result r7 = run("alternate-penalty", "ode23", 1e7, 1e-2, 10.0, NULL);
    ch03_result r8 = run("alternate-penalty", "ode23", 1e8, 1e-2, 10.0, NULL);
    const double ratio = (double)r8.stats.run.ode.steps / (double)r7.stats.run.ode.steps;
    CHECK_IN(ratio, 2.5, 3.5);
    long lo = 1L << 30, hi = 0;
    for (int k = 2; k <= 8; k++) {
        ch03_result r = run("penalty-baumgarte", "ode23", pow(10.0, k), 1e-2, 10.0, NULL);
        lo = r.stats.run.ode.steps < lo ? r.stats.run.ode.steps : lo;
        hi = r.stats.run.ode.steps > hi ? r.stats.run.ode.steps : hi;
    }
    CHECK_MSG(hi <= 1.15 * lo, "penalty-baumgarte steps range from %ld to %ld", lo, hi);
}

/* The alternate penalty at the fixed step 1e-4: w_r h = 2 sqrt(mu) h is
 * 0.63 at mu = 1e7 (stable) and 2 > sqrt(3) at mu = 1e8 (unstable). */
static void alternate_penalty_fixed_step(void)
{
    ch03_result r = run("alternate-penalty", "fixed", 1e8, 1e-4, 1.0, NULL);
    CHECK_STATUS(r.status, MBD_EVIOLATION);
    CHECK_IN(r.fail.time, 1e-3, 0.1);
    /* the growth per step, |R(2i)| = |(-1) + (2/3) i| = 1.2019: from the
     * quasi-static stretch ~1e-8 to 1 takes ~100 steps */
    CHECK_IN((double)r.stats.run.ode.steps, 50.0, 400.0);
    r = run("alternate-penalty", "fixed", 1e7, 1e-2, 1.0, NULL);
    CHECK_STATUS(r.status, GSL_SUCCESS);
    CHECK_LE(r.err.position, 1e-3);
}

/* P11: the index-2 penalty (eq. 58) with msbdf, whatever integrator is asked */
static void index2_penalty(void)
{
    ch03_result r = run("index2-penalty", "ode23", 1e5, 1e-3, 1.0, NULL);
    CHECK_STATUS(r.status, GSL_SUCCESS);
    CHECK_MSG(strcmp(r.integrator, "msbdf") == 0 && r.forced_msbdf, "integrator %s, forced %d",
              r.integrator, r.forced_msbdf);
    CHECK_LE(r.stats.max_C, 1e-6);
    CHECK_LE(r.err.position, 2e-3);
    /* the error ~ 1/mu */
    ch03_result r3 = run("index2-penalty", "msbdf", 1e3, 1e-3, 1.0, NULL);
    CHECK_IN(r3.err.position / r.err.position, 30.0, 300.0);
}

/* The listings' corrections never run: MATLAB's `while` on a vector */
static void dead_corrections(void)
{
    const double a[] = {1e-3, 0.0}, b[] = {1e-3, -1e-3}, c[] = {1e-11, 1.0};
    CHECK_MSG(!ch03_matlab_while(a, 2, 1e-10), "[1e-3, 0]: MATLAB does not run the loop");
    CHECK_MSG(ch03_matlab_while(b, 2, 1e-10), "[1e-3, -1e-3]: MATLAB runs the loop");
    CHECK_MSG(!ch03_matlab_while(c, 2, 1e-10), "[1e-11, 1]: MATLAB does not run the loop");
    CHECK_MSG(!ch03_matlab_while(a, 0, 1e-10), "an empty condition is false");
    mbd_history h;
    mbd_history_init(&h);
    run("penalty", "ode23", 1e5, 1e-3, 1.0, &h);
    long matlab = -1, any = -1;
    ch03_pendulum p = doc();
    ch03_dead_corrections(&p, &h, 1e-10, &matlab, &any);
    CHECK_MSG(matlab == 0, "MATLAB's condition held on %ld states", matlab);
    CHECK_MSG(any > (long)h.rows / 2, "|C_1| > 1e-10 on only %ld of %zu states", any, h.rows);
    mbd_history_free(&h);
}

/* --project: at every step end the state is on the constraints */
static void post_step_projection(void)
{
    ch03_pendulum p = doc();
    ch03_spec s;
    ch03_spec_default(&s);
    s.method = "penalty";
    s.project = 1;
    s.dt_out = 0.0;   /* outputs after every step, after the projection */
    ch03_result r;
    REQUIRE_STATUS(ch03_run(&p, &s, NULL, &r), GSL_SUCCESS);
    CHECK_STATUS(r.status, GSL_SUCCESS);
    CHECK_LE(r.stats.max_C, 1e-9);
    CHECK_LE(r.stats.max_Cdot, 1e-9);
    CHECK_GE((double)r.stats.run.corrections, 100.0);
    s.method = "index2-penalty";
    CHECK_STATUS(ch03_run(&p, &s, NULL, &r), MBD_EINPUT);
    s.method = "direct";
    CHECK_STATUS(ch03_run(&p, &s, NULL, &r), MBD_EINPUT);
}

/* ------------------------------------------------------------------------ */
/* The command line                                                          */

static void cli_usage_errors(void)
{
    const char *bad[] = {"--bogus", "--method index2-penalty --project", "--method direct --project",
                         "--method nonsense", "--mu 1e3 --method projection",
                         "--alpha 5 --method penalty", "--integrator fixed --rtol 1e-6",
                         "--mu -1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char cmd[512];
        snprintf(cmd, sizeof cmd, "%s %s", test_program(PROG), bad[i]);
        test_run_result r;
        test_run(cmd, &r);
        CHECK_MSG(r.status == 2, "'%s': exit %d, expected 2", bad[i], r.status);
        CHECK_MSG(strstr(r.err, PROG) != NULL && r.out[0] == '\0', "'%s': stderr '%s', stdout '%s'",
                  bad[i], r.err, r.out);
        test_run_free(&r);
    }
}

static size_t count_lines(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

static void cli_csv(void)
{
    char cmd[512];
    test_run_result r;
    snprintf(cmd, sizeof cmd, "%s --method penalty --csv - --t-end 0.05 --dt-out 0.01",
             test_program(PROG));
    test_run(cmd, &r);
    CHECK_STATUS(r.status, 0);
    CHECK_MSG(strncmp(r.out, "t,x,y,z,x_dot,y_dot,z_dot,C_norm,Cdot_norm,E,h\n", 47) == 0,
              "header: %.80s", r.out);
    CHECK_MSG(count_lines(r.out) == 7, "%zu lines, expected a header and 6 rows", count_lines(r.out));
    CHECK_MSG(strstr(r.out, "nan") == NULL && strstr(r.out, "inf") == NULL, "non-finite values");
    test_run_free(&r);
    /* fixed steps: no h column; direct: C = 0 up to rounding */
    snprintf(cmd, sizeof cmd, "%s --method direct --integrator fixed --csv - --t-end 0.002 --dt-out 0.001",
             test_program(PROG));
    test_run(cmd, &r);
    CHECK_STATUS(r.status, 0);
    CHECK_MSG(strncmp(r.out, "t,x,y,z,x_dot,y_dot,z_dot,C_norm,Cdot_norm,E\n", 45) == 0,
              "header: %.80s", r.out);
    CHECK_MSG(count_lines(r.out) == 4, "%zu lines", count_lines(r.out));
    const char *last = strrchr(r.out, '\n');
    while (last > r.out && last[-1] != '\n')
        last--;
    double v[10];
    int n = sscanf(last, "%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf", &v[0], &v[1], &v[2], &v[3],
                   &v[4], &v[5], &v[6], &v[7], &v[8], &v[9]);
    CHECK_MSG(n == 10, "last row '%s'", last);
    CHECK_CLOSE(v[0], 0.002, 1e-15);
    CHECK_LE(v[7], 1e-15);
    CHECK_LE(v[8], 1e-14);
    test_run_free(&r);
}

static void cli_summary(void)
{
    char cmd[512];
    test_run_result r;
    snprintf(cmd, sizeof cmd, "%s --summary --method projection --integrator tight --dt-out 1e-3",
             test_program(PROG));
    test_run(cmd, &r);
    CHECK_STATUS(r.status, 0);
    const char *keys[] = {"method", "integrator", "mu", "alpha", "beta", "t_end", "t_reached",
                          "steps", "rejected", "fevals", "corrections", "max_C_norm",
                          "max_Cdot_norm", "max_energy_error", "max_position_error",
                          "max_velocity_error", "status"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        char k[64];
        snprintf(k, sizeof k, "\n%s = ", keys[i]);
        CHECK_MSG(strstr(r.out, k) != NULL || strncmp(r.out, k + 1, strlen(k) - 1) == 0,
                  "summary key '%s' missing", keys[i]);
    }
    CHECK_MSG(strstr(r.out, "method = projection\n") && strstr(r.out, "integrator = tight\n")
                  && strstr(r.out, "status = ok\n"), "summary: %s", r.out);
    CHECK_LE(test_summary(r.out, "max_position_error"), 1e-6);
    CHECK_CLOSE(test_summary(r.out, "t_reached"), 5.0, 1e-12);
    CHECK_CLOSE(test_summary(r.out, "period_exact"), 2.367842, 1e-6);
    /* every line is key = value */
    for (const char *l = r.out; *l; l = strchr(l, '\n') + 1)
        CHECK_MSG(strstr(l, " = ") != NULL && strstr(l, " = ") < strchr(l, '\n'), "line '%.40s'", l);
    test_run_free(&r);
}

/* A numerical failure: the summary says so, stderr names the time, exit 1 */
static void cli_failure(void)
{
    char cmd[512];
    test_run_result r;
    snprintf(cmd, sizeof cmd, "%s --summary --method penalty-baumgarte-printed", test_program(PROG));
    test_run(cmd, &r);
    CHECK_STATUS(r.status, 1);
    CHECK_MSG(strstr(r.out, "status = violation\n") != NULL, "summary: %s", r.out);
    CHECK_MSG(strstr(r.err, "at t = ") != NULL && strstr(r.err, "exceeds") != NULL, "stderr: %s",
              r.err);
    CHECK_MSG(strstr(r.out, "nan") == NULL, "a NaN printed");
    CHECK_IN(test_summary(r.out, "t_reached"), 0.1, 1.0);
    test_run_free(&r);
    /* index2-penalty says what it ran with */
    snprintf(cmd, sizeof cmd, "%s --summary --method index2-penalty --t-end 0.2", test_program(PROG));
    test_run(cmd, &r);
    CHECK_STATUS(r.status, 0);
    CHECK_MSG(strstr(r.out, "integrator = msbdf\n") && strstr(r.out, "integrator_replaced = 1\n"),
              "summary: %s", r.out);
    test_run_free(&r);
}

static void story_runs(void)
{
    char cmd[512];
    test_run_result r;
    snprintf(cmd, sizeof cmd, "%s --no-timing", test_program(PROG));
    test_run(cmd, &r);
    CHECK_STATUS(r.status, 0);
    for (int s = 1; s <= 12; s++) {
        char step[32];
        snprintf(step, sizeof step, "Step %d. ", s);
        CHECK_MSG(strstr(r.out, step) != NULL, "'%s' missing", step);
    }
    CHECK_MSG(strstr(r.out, "nan") == NULL && strstr(r.out, "inf ") == NULL, "non-finite output");
    CHECK_MSG(strstr(r.out, "|C| exceeds 1 at t = 0.") != NULL, "the printed sign's blow-up");
    CHECK_MSG(strstr(r.out, "2.367842") != NULL, "the period");
    test_run_free(&r);
}

static CU_TestInfo tests[] = {
    {"document data (Table 2)", document_data},
    {"P1 exact period", exact_period},
    {"exact solution vs rk8pd reference", exact_against_reference},
    {"exact solution stepped along a grid", exact_sequence},
    {"model derivatives vs finite differences", model_derivatives},
    {"P8 multiplier at the bottom", multiplier_at_the_bottom},
    {"P2 P3 tight projection", tight_projection},
    {"direct method", direct_method},
    {"P4 penalty 1/mu", penalty_one_over_mu},
    {"P5 P9 Baumgarte signs", baumgarte_signs},
    {"P6 MATLAB mode", matlab_mode},
    {"P7 z identically 0", z_stays_zero},
    {"P10 steps against mu", steps_against_mu},
    {"alternate penalty at a fixed step", alternate_penalty_fixed_step},
    {"P11 index-2 penalty", index2_penalty},
    {"dead corrections", dead_corrections},
    {"post-step projection", post_step_projection},
    {"cli usage errors", cli_usage_errors},
    {"cli csv", cli_csv},
    {"cli summary", cli_summary},
    {"cli failure", cli_failure},
    {"story", story_runs},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"ch03", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
