/* Grades exercise 09.3: one step of the kinematics analysis -- Newton on the
 * positions, then the velocities and the accelerations -- on the driven
 * spatial slider-crank and the driven pendulum. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_math.h>

#include "check.h"
#include "ex09.h"
#include "fixture.h"

static int verbose(void) { return getenv("EX09_VERBOSE") != NULL; }

/* one step; 0 (and a failed check) when it fails */
static int step(const char *what, const mbd_spatial_model *sm, double t, double tol,
                unsigned max_iter, gsl_vector *q, gsl_vector *qd, gsl_vector *qdd, unsigned *it)
{
    gsl_vector_set_all(qd, NAN);
    gsl_vector_set_all(qdd, NAN);
    *it = 9999;
    const int st = ex09_kinematics_step(sm, t, tol, max_iter, q, qd, qdd, it);
    CHECK_MSG(st == GSL_SUCCESS, "%s at t = %.4f: status %d (%s)", what, t, st, mbd_strerror(st));
    return st == GSL_SUCCESS;
}

/* the model's own residuals at (t, q, q', q''): max |Phi|, max |Phi_q q' -
 * nu| and max |Phi_q q'' - gamma| (nu = -Phi_t), by its mbd_system */
static void residuals(const mbd_spatial_model *sm, double t, const gsl_vector *q,
                      const gsl_vector *qd, const gsl_vector *qdd, double r[3])
{
    const mbd_system *s = mbd_spatial_system(sm);
    gsl_vector *C = gsl_vector_alloc(s->m), *Ct = gsl_vector_alloc(s->m);
    gsl_vector *gam = gsl_vector_alloc(s->m);
    gsl_matrix *Cq = gsl_matrix_alloc(s->m, s->n);
    s->constraint(s, t, q, C);
    r[0] = fx_vmax(C);
    s->jacobian(s, t, q, Cq);
    s->constraint_t(s, t, q, Ct);
    gsl_blas_dgemv(CblasNoTrans, 1.0, Cq, qd, 1.0, Ct);   /* Phi_q q' + Phi_t */
    r[1] = fx_vmax(Ct);
    s->gamma(s, t, q, qd, gam);
    gsl_blas_dgemv(CblasNoTrans, 1.0, Cq, qdd, -1.0, gam);
    r[2] = fx_vmax(gam);
    gsl_matrix_free(Cq);
    gsl_vector_free(gam);
    gsl_vector_free(Ct);
    gsl_vector_free(C);
}

/* ------------------------------------------------------------------------ */
/* The slider-crank against its closed form                                  */

/* A run of steps from the closed-form configuration at t0, each from the
 * Taylor prediction of the previous step's q, q', q''. Compared: the slider's x, x', x''
 * with x(theta) and its derivatives (theta' = -2 pi, theta'' = 0), the
 * crank's angle, angular velocity (-2 pi, 0, 0) and angular acceleration
 * 0; and every row of the model: Phi = 0, Phi_q q' = nu, Phi_q q'' =
 * gamma. */
static void crank_run(double t0, double h, int nsteps, double tol, double out[6])
{
    fx_crank c;
    for (int k = 0; k < 6; k++)
        out[k] = NAN;
    if (fx_crank_build(&c, 1, 1e-4) != GSL_SUCCESS) {
        CHECK_MSG(0, "the test's slider-crank did not build");
        mbd_spatial_free(c.sm);
        return;
    }
    const size_t n = mbd_spatial_system(c.sm)->n;
    gsl_vector *q = gsl_vector_alloc(n), *qd = gsl_vector_alloc(n), *qdd = gsl_vector_alloc(n);
    fx_crank_pose(&c, fx_crank_theta(&c, t0), q);
    size_t cs, cc;
    mbd_spatial_body_coordinates(c.sm, c.slider, &cs);
    mbd_spatial_body_coordinates(c.sm, c.crank, &cc);
    double ex = 0, ev = 0, ea = 0, eang = 0, ew = 0, res[3] = {0, 0, 0};
    double vmax = 0, amax = 0;
    for (int k = 0; k <= nsteps; k++) {
        const double t = t0 + k * h, th = fx_crank_theta(&c, t);
        unsigned it;
        if (k > 0) {
            /* the guess: the Taylor prediction q + h q' + h^2 q'' / 2 from the
             * last step (from q alone, Newton jumps to the mirror branch -theta
             * next to the driver's singular angles: cos is even) */
            gsl_blas_daxpy(h, qd, q);
            gsl_blas_daxpy(0.5 * h * h, qdd, q);
        }
        if (!step("the slider-crank", c.sm, t, tol, 20, q, qd, qdd, &it))
            break;
        double x[3];
        fx_crank_x(th, x);
        const double w = -2 * M_PI;
        ex = fmax(ex, fabs(gsl_vector_get(q, cs) - x[0]));
        ev = fmax(ev, fabs(gsl_vector_get(qd, cs) - x[1] * w));
        ea = fmax(ea, fabs(gsl_vector_get(qdd, cs) - x[2] * w * w));
        vmax = fmax(vmax, fabs(x[1] * w));
        amax = fmax(amax, fabs(x[2] * w * w));
        /* the crank: y' = (0, cos th, sin th), omega = 2 E p', its rate 2 E p'' */
        double p[4], pd[4], pdd[4], A[3][3], om[3], al[3];
        for (int i = 0; i < 4; i++) {
            p[i] = gsl_vector_get(q, cc + 3 + (size_t)i);
            pd[i] = gsl_vector_get(qd, cc + 3 + (size_t)i);
            pdd[i] = gsl_vector_get(qdd, cc + 3 + (size_t)i);
        }
        fx_A(p, A);
        eang = fmax(eang, fabs(A[1][1] - cos(th)) + fabs(A[2][1] - sin(th)));
        mbd_spatial_ep_omega(p, pd, om);
        mbd_spatial_ep_omega(p, pdd, al);
        ew = fmax(ew, fabs(om[0] - w) + fabs(om[1]) + fabs(om[2]));
        ew = fmax(ew, (fabs(al[0]) + fabs(al[1]) + fabs(al[2])) / (w * w));
        double r[3];
        residuals(c.sm, t, q, qd, qdd, r);
        for (int i = 0; i < 3; i++)
            res[i] = isnan(r[i]) ? NAN : fmax(res[i], r[i]);
    }
    out[0] = ex, out[1] = ev / vmax, out[2] = ea / amax, out[3] = eang, out[4] = ew;
    out[5] = fmax(res[0], fmax(res[1] / vmax, res[2] / amax));
    if (verbose())
        printf("\n    t0 = %g, h = %g, %d steps: |x - x_cf| %.2e, x' %.2e, x'' %.2e (relative), "
               "crank angle %.2e, omega %.2e; rows: |Phi| %.2e, |Phi_q q' - nu| %.2e, |Phi_q "
               "q'' - gamma| %.2e\n", t0, h, nsteps, ex, ev / vmax, ea / amax, eang, ew, res[0],
               res[1], res[2]);
    gsl_vector_free(qdd);
    gsl_vector_free(qd);
    gsl_vector_free(q);
    mbd_spatial_free(c.sm);
}

static void crank_closed_form(void)
{
    double e[6];
    /* a turn from t0 = 0.013 in steps of 0.01 (the steps nearest the
     * driver's singular angles, t = 0.253 and 0.753, are 0.019 rad from
     * them) */
    crank_run(0.013, 0.01, 100, 1e-12, e);
    CHECK_MSG(e[0] <= 1e-11, "the slider's x differs from the closed form by %.3g", e[0]);
    CHECK_MSG(e[1] <= 1e-9, "the slider's x' differs from the closed form by %.3g of its "
                            "largest value", e[1]);
    CHECK_MSG(e[2] <= 1e-8, "the slider's x'' differs from the closed form by %.3g of its "
                            "largest value", e[2]);
    CHECK_MSG(e[3] <= 1e-11, "the crank's angle differs from theta(t) by %.3g", e[3]);
    CHECK_MSG(e[4] <= 1e-8, "the crank's angular velocity differs from (-2 pi, 0, 0) (or its "
                            "angular acceleration from 0) by %.3g", e[4]);
}

static void crank_rows(void)
{
    double e[6];
    /* backwards in time from t0 = 0.61, steps of -0.023, a looser tol */
    crank_run(0.61, -0.023, 30, 1e-10, e);
    CHECK_MSG(e[5] <= 1e-9, "the model's rows: max of |Phi| and the relative |Phi_q q' - nu| "
                            "and |Phi_q q'' - gamma| is %.3g", e[5]);
    CHECK_MSG(e[0] <= 1e-9, "the slider's x differs from the closed form by %.3g", e[0]);
    CHECK_MSG(e[1] <= 1e-8 && e[2] <= 1e-7,
              "the slider's x' and x'' differ from the closed form by %.3g and %.3g", e[1], e[2]);
}

/* ------------------------------------------------------------------------ */
/* The driven pendulum against its closed form                               */

/* the pendulum, theta = (pi/4) cos 2t, from t0 = 0.37 in steps of 0.05:
 * every coordinate, velocity and acceleration against the closed form */
static void pendulum(void)
{
    fx_pend pd;
    if (fx_pend_build(&pd) != GSL_SUCCESS) {
        CHECK_MSG(0, "the test's pendulum did not build");
        mbd_spatial_free(pd.sm);
        return;
    }
    gsl_vector *q = gsl_vector_alloc(7), *qd = gsl_vector_alloc(7), *qdd = gsl_vector_alloc(7);
    gsl_vector *xq = gsl_vector_alloc(7), *xv = gsl_vector_alloc(7), *xa = gsl_vector_alloc(7);
    const double t0 = 0.37, h = 0.05;
    double th[3];
    fx_pend_theta(t0, th);
    fx_pend_state(th, q, NULL, NULL);
    double e[3] = {0, 0, 0};
    unsigned itmax = 0;
    for (int k = 0; k <= 40; k++) {
        const double t = t0 + k * h;
        unsigned it;
        if (!step("the pendulum", pd.sm, t, 1e-12, 10, q, qd, qdd, &it))
            break;
        itmax = it > itmax ? it : itmax;
        fx_pend_theta(t, th);
        fx_pend_state(th, xq, xv, xa);
        gsl_vector_sub(xq, q);
        gsl_vector_sub(xv, qd);
        gsl_vector_sub(xa, qdd);
        e[0] = fmax(e[0], fx_vmax(xq));
        e[1] = fmax(e[1], fx_vmax(xv));
        e[2] = fmax(e[2], fx_vmax(xa));
    }
    if (verbose())
        printf("\n    pendulum: |q - q_cf| %.2e, |q' - q'_cf| %.2e, |q'' - q''_cf| %.2e, Newton "
               "steps <= %u\n", e[0], e[1], e[2], itmax);
    CHECK_MSG(e[0] <= 1e-11 && e[1] <= 1e-10 && e[2] <= 1e-9,
              "the pendulum: q, q', q'' differ from the closed form by %.3g, %.3g, %.3g", e[0],
              e[1], e[2]);
    CHECK_MSG(itmax >= 2, "the pendulum: at most %u Newton steps per step of 0.05 s", itmax);
    gsl_vector_free(xa);
    gsl_vector_free(xv);
    gsl_vector_free(xq);
    gsl_vector_free(qdd);
    gsl_vector_free(qd);
    gsl_vector_free(q);
    mbd_spatial_free(pd.sm);
}

/* ------------------------------------------------------------------------ */
/* Newton's steps                                                            */

/* calls the step expecting a failure; checks the status and that nothing
 * was written (q keeps its input) */
static void failed(const char *what, const mbd_spatial_model *sm, double t, double tol,
                   unsigned max_iter, gsl_vector *q, gsl_vector *qd, gsl_vector *qdd,
                   int expected)
{
    gsl_vector *q0 = gsl_vector_alloc(q->size);
    gsl_vector_memcpy(q0, q);
    gsl_vector_set_all(qd, FX_SENTINEL);
    gsl_vector_set_all(qdd, FX_SENTINEL);
    unsigned it = 4242;
    const int st = ex09_kinematics_step(sm, t, tol, max_iter, q, qd, qdd, &it);
    CHECK_MSG(st == expected, "%s: status %d (%s), expected %d (%s)", what, st, mbd_strerror(st),
              expected, mbd_strerror(expected));
    gsl_vector_sub(q0, q);
    CHECK_MSG(fx_vmax(q0) == 0.0 && fx_vector_is(qd, FX_SENTINEL) && fx_vector_is(qdd, FX_SENTINEL)
                  && it == 4242,
              "%s: an output was written on an error (q moved by %.3g)", what, fx_vmax(q0));
    gsl_vector_free(q0);
}

/* The tests' own Newton from q at t (QR, not LU): the residuals max |Phi|
 * before each step, r[0 .. nr - 1], until it is below 1e-15 or 12 steps */
static size_t own_newton(const mbd_spatial_model *sm, double t, const gsl_vector *q0, double r[16])
{
    const mbd_system *s = mbd_spatial_system(sm);
    const size_t n = s->n;
    gsl_vector *q = gsl_vector_alloc(n), *C = gsl_vector_alloc(n), *dq = gsl_vector_alloc(n);
    gsl_vector *tau = gsl_vector_alloc(n);
    gsl_matrix *J = gsl_matrix_alloc(n, n);
    gsl_vector_memcpy(q, q0);
    size_t k = 0;
    for (; k < 13; k++) {
        s->constraint(s, t, q, C);
        r[k] = fx_vmax(C);
        if (r[k] <= 1e-15 || k == 12)
            break;
        s->jacobian(s, t, q, J);
        gsl_linalg_QR_decomp(J, tau);
        gsl_vector_scale(C, -1.0);
        gsl_linalg_QR_solve(J, tau, C, dq);
        gsl_vector_add(q, dq);
    }
    gsl_matrix_free(J);
    gsl_vector_free(tau);
    gsl_vector_free(dq);
    gsl_vector_free(C);
    gsl_vector_free(q);
    return k + 1;
}

/* From a consistent q: no step, q unchanged. From the configuration of
 * the previous 0.05 s: k steps; max_iter = k gives the same result,
 * max_iter = k - 1 fails with nothing written; the number of steps for a
 * tol just above and just below each residual of the tests' own Newton; a
 * looser tol takes no more steps and leaves max |Phi| below it. */
static void newton_steps(void)
{
    fx_crank c;
    if (fx_crank_build(&c, 1, 1e-4) != GSL_SUCCESS) {
        CHECK_MSG(0, "the test's slider-crank did not build");
        mbd_spatial_free(c.sm);
        return;
    }
    const size_t n = mbd_spatial_system(c.sm)->n;
    gsl_vector *q = gsl_vector_alloc(n), *qd = gsl_vector_alloc(n), *qdd = gsl_vector_alloc(n);
    gsl_vector *q1 = gsl_vector_alloc(n), *guess = gsl_vector_alloc(n);
    const double t = 0.431;
    unsigned it;
    /* consistent: the closed form, refined by a first call */
    fx_crank_pose(&c, fx_crank_theta(&c, t), q);
    if (step("from the closed form", c.sm, t, 1e-12, 20, q, qd, qdd, &it)) {
        gsl_vector_memcpy(q1, q);
        if (step("from a consistent q", c.sm, t, 1e-12, 20, q, qd, qdd, &it)) {
            CHECK_MSG(it == 0, "from a consistent q: %u Newton steps, expected 0", it);
            gsl_vector_sub(q1, q);
            CHECK_MSG(fx_vmax(q1) == 0.0, "from a consistent q: q moved by %.3g", fx_vmax(q1));
        }
    }
    /* from the configuration at t - 0.05 */
    fx_crank_pose(&c, fx_crank_theta(&c, t - 0.05), guess);
    gsl_vector_memcpy(q, guess);
    unsigned k = 0;
    if (step("from t - 0.05", c.sm, t, 1e-12, 50, q, qd, qdd, &k)) {
        if (verbose())
            printf("\n    %u Newton steps from the configuration 0.05 s earlier\n", k);
        CHECK_MSG(k >= 3 && k <= 8, "from t - 0.05: %u Newton steps (Newton's method takes 3 "
                                    "to 8 here)", k);
        double x[3], r[3];
        fx_crank_x(fx_crank_theta(&c, t), x);
        size_t cs;
        mbd_spatial_body_coordinates(c.sm, c.slider, &cs);
        CHECK_CLOSE(gsl_vector_get(q, cs), x[0], 1e-12);
        residuals(c.sm, t, q, qd, qdd, r);
        CHECK_LE(r[0], 1e-12);
        gsl_vector_memcpy(q1, q);
        /* max_iter = k: the same */
        gsl_vector_memcpy(q, guess);
        unsigned k2;
        if (k >= 1 && step("max_iter = k", c.sm, t, 1e-12, k, q, qd, qdd, &k2)) {
            gsl_vector_sub(q1, q);
            CHECK_MSG(k2 == k && fx_vmax(q1) == 0.0,
                      "max_iter = %u: %u steps (expected %u), q differs by %.3g", k, k2, k,
                      fx_vmax(q1));
        }
        /* max_iter = k - 1: not converged */
        if (k >= 2) {
            gsl_vector_memcpy(q, guess);
            char what[64];
            snprintf(what, sizeof what, "max_iter = %u (%u needed)", k - 1, k);
            failed(what, c.sm, t, 1e-12, k - 1, q, qd, qdd, MBD_ENOCONV);
        }
        /* the stopping rule: with tol just above the residual after j
         * steps (the tests' own Newton says what it is), j steps; just
         * below it, j + 1 */
        double rr[16];
        const size_t nr = own_newton(c.sm, t, guess, rr);
        if (verbose()) {
            printf("    the tests' Newton: residuals");
            for (size_t i = 0; i < nr; i++)
                printf(" %.1e", rr[i]);
            printf("\n");
        }
        for (unsigned j = 1; j + 1 < nr && rr[j] > 1e-11; j++)
            for (int above = 0; above < 2; above++) {
                const double tj = above ? 3.0 * rr[j] : rr[j] / 3.0;
                const unsigned expect = above ? j : j + 1;
                gsl_vector_memcpy(q, guess);
                unsigned kj;
                char what[64];
                snprintf(what, sizeof what, "tol = %.3g", tj);
                if (step(what, c.sm, t, tj, 50, q, qd, qdd, &kj))
                    CHECK_MSG(kj == expect, "tol = %.3g (the residual after %u steps is %.3g): %u "
                                            "steps, expected %u", tj, j, rr[j], kj, expect);
            }
        /* a looser tol */
        gsl_vector_memcpy(q, guess);
        unsigned k3;
        if (step("tol = 1e-5", c.sm, t, 1e-5, 50, q, qd, qdd, &k3)) {
            residuals(c.sm, t, q, qd, qdd, r);
            CHECK_MSG(k3 <= k && k3 >= 1 && r[0] <= 1e-5,
                      "tol = 1e-5: %u steps (%u for 1e-12), max |Phi| = %.3g", k3, k, r[0]);
        }
    }
    gsl_vector_free(guess);
    gsl_vector_free(q1);
    gsl_vector_free(qdd);
    gsl_vector_free(qd);
    gsl_vector_free(q);
    mbd_spatial_free(c.sm);
}

/* ------------------------------------------------------------------------ */
/* A singular Jacobian, and refusals                                         */

/* The driver without the document's offset (eps = 0) at t = 0.25: theta =
 * 0, the crank's y axis on the ground's, where d cos(theta)/d theta = 0.
 * The driver's row is 2 (0, 0, 0, 1, 0, 0, 0) in the crank's columns, twice
 * the crank's normalisation row p^T: Phi_q is singular. */
static void singular(void)
{
    fx_crank c;
    if (fx_crank_build(&c, 1, 0.0) != GSL_SUCCESS) {
        CHECK_MSG(0, "the test's slider-crank did not build");
        mbd_spatial_free(c.sm);
        return;
    }
    const size_t n = mbd_spatial_system(c.sm)->n;
    gsl_vector *q = gsl_vector_alloc(n), *qd = gsl_vector_alloc(n), *qdd = gsl_vector_alloc(n);
    fx_crank_pose(&c, 0.0, q);
    failed("eps = 0, at theta = 0 (t = 0.25)", c.sm, 0.25, 1e-10, 20, q, qd, qdd, MBD_ESINGULAR);
    /* at theta = 1e-14 round-off leaves the factorisation a pivot of about
     * 1e-13 instead of 0: singular by the rule, 1e-12 max |Phi_q| */
    fx_crank_pose(&c, 1e-14, q);
    failed("eps = 0, at theta = 1e-14 (t = 0.25)", c.sm, 0.25, 1e-10, 20, q, qd, qdd,
           MBD_ESINGULAR);
    fx_crank_pose(&c, 0.0, q);
    /* and a step from there to t = 0.27 works (the Jacobian at the guess
     * is singular too: no Newton step can be taken from it) */
    failed("eps = 0, from theta = 0 to t = 0.27", c.sm, 0.27, 1e-10, 20, q, qd, qdd,
           MBD_ESINGULAR);
    fx_crank_pose(&c, fx_crank_theta(&c, 0.265), q);
    unsigned it;
    step("eps = 0, from t = 0.265 to t = 0.27", c.sm, 0.27, 1e-12, 20, q, qd, qdd, &it);
    gsl_vector_free(qdd);
    gsl_vector_free(qd);
    gsl_vector_free(q);
    mbd_spatial_free(c.sm);
}

static void refusals(void)
{
    fx_crank c, free_crank;
    if (fx_crank_build(&c, 1, 1e-4) != GSL_SUCCESS || fx_crank_build(&free_crank, 0, 0.0)
                                                          != GSL_SUCCESS) {
        CHECK_MSG(0, "the test's slider-crank did not build");
        mbd_spatial_free(c.sm);
        mbd_spatial_free(free_crank.sm);
        return;
    }
    const size_t n = 21;
    gsl_vector *q = gsl_vector_alloc(n), *qd = gsl_vector_alloc(n), *qdd = gsl_vector_alloc(n);
    gsl_vector *s20 = gsl_vector_alloc(20);
    fx_crank_pose(&c, 0.9, q);
    const double t = 0.1;
    /* pointers, the model */
    failed("sm = NULL", NULL, t, 1e-12, 20, q, qd, qdd, MBD_EINPUT);
    CHECK_STATUS(ex09_kinematics_step(c.sm, t, 1e-12, 20, NULL, qd, qdd, NULL), MBD_EINPUT);
    CHECK_STATUS(ex09_kinematics_step(c.sm, t, 1e-12, 20, q, NULL, qdd, NULL), MBD_EINPUT);
    CHECK_STATUS(ex09_kinematics_step(c.sm, t, 1e-12, 20, q, qd, NULL, NULL), MBD_EINPUT);
    mbd_spatial_model *unfinished = mbd_spatial_alloc();
    mbd_spatial_add_body(unfinished, "b", 1.0, NULL);
    failed("a model not finished", unfinished, t, 1e-12, 20, q, qd, qdd, MBD_EINPUT);
    mbd_spatial_free(unfinished);
    failed("the free slider-crank (20 rows, 21 coordinates)", free_crank.sm, t, 1e-12, 20, q, qd,
           qdd, MBD_EINPUT);
    /* settings */
    failed("tol = 0", c.sm, t, 0.0, 20, q, qd, qdd, MBD_EINPUT);
    failed("tol = -1e-12", c.sm, t, -1e-12, 20, q, qd, qdd, MBD_EINPUT);
    failed("tol = NaN", c.sm, t, NAN, 20, q, qd, qdd, MBD_EINPUT);
    failed("tol = inf", c.sm, t, INFINITY, 20, q, qd, qdd, MBD_EINPUT);
    failed("max_iter = 0", c.sm, t, 1e-12, 0, q, qd, qdd, MBD_EINPUT);
    failed("t = NaN", c.sm, NAN, 1e-12, 20, q, qd, qdd, MBD_EINPUT);
    gsl_vector_set(q, 9, NAN);
    failed("q[9] = NaN", c.sm, t, 1e-12, 20, q, qd, qdd, MBD_EINPUT);
    gsl_vector_set(q, 9, 0.5);
    gsl_vector_set(q, 0, -INFINITY);
    failed("q[0] = -inf", c.sm, t, 1e-12, 20, q, qd, qdd, MBD_EINPUT);
    fx_crank_pose(&c, 0.9, q);
    /* sizes */
    gsl_vector_set_all(s20, FX_SENTINEL);
    CHECK_STATUS(ex09_kinematics_step(c.sm, t, 1e-12, 20, s20, qd, qdd, NULL), GSL_EBADLEN);
    CHECK_MSG(fx_vector_is(s20, FX_SENTINEL), "q of 20 entries: written on an error");
    failed("q' of 20 entries", c.sm, t, 1e-12, 20, q, s20, qdd, GSL_EBADLEN);
    gsl_vector_set_all(s20, FX_SENTINEL);
    failed("q'' of 20 entries", c.sm, t, 1e-12, 20, q, qd, s20, GSL_EBADLEN);
    gsl_vector_free(s20);
    gsl_vector_free(qdd);
    gsl_vector_free(qd);
    gsl_vector_free(q);
    mbd_spatial_free(free_crank.sm);
    mbd_spatial_free(c.sm);
}

static CU_TestInfo tests[] = {
    {"the slider-crank over a turn against its closed form", crank_closed_form},
    {"the slider-crank backwards in time: every row holds", crank_rows},
    {"the driven pendulum from t0 = 0.37 against its closed form", pendulum},
    {"Newton's steps, max_iter and tol", newton_steps},
    {"a singular Jacobian (the driver at theta = 0)", singular},
    {"bad models, settings, states and sizes are refused", refusals},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"ex09.3", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
