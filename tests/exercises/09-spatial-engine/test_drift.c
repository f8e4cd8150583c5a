/* Grades exercise 09.7: the energy, Euler-norm and constraint drifts of a
 * fixed-step run of the library's BDF dynamics, and their observed order.
 * The tests run the same integrator with their own observer and compute
 * every measure their own way: the energy body by body from m, J_bar and
 * the angular velocity (not from M), the velocity constraints row by row
 * (mbd_spatial_eval_row); the free ME751 bar's energy at t0 in closed
 * form. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_math.h>

#include "check.h"
#include "ex09.h"
#include "fixture.h"
#include "fixture_dyn.h"

static int verbose(void) { return getenv("EX09_VERBOSE") != NULL; }

/* a model with its bodies' masses and inertias, gravity and a start */
typedef struct {
    mbd_spatial_model *sm;
    int nb, body[2];
    double m[2], J[2][3][3], g[3];
    double t0;
    gsl_vector *q, *qd;
} model;

static void model_free(model *md)
{
    gsl_vector_free(md->q);
    gsl_vector_free(md->qd);
    mbd_spatial_free(md->sm);
}

/* The ME751 bar (L = 4, m = 78) on its revolute at O about x, free or
 * driven, at theta = 0.7, theta' = -0.4 from t0 = 0.37 (free), or on the
 * driver's closed-form motion (driven). The Euler parameters scaled by
 * (1 + 2e-7): a start just inside the consistency limit. */
static int bar_build(model *md, int driven)
{
    memset(md, 0, sizeof *md);
    md->t0 = 0.37;
    md->g[0] = 0, md->g[1] = 0, md->g[2] = -FX_G;
    if (driven) {
        fx_pend pd;
        if (fx_pend_build(&pd) != GSL_SUCCESS) {
            mbd_spatial_free(pd.sm);
            return 0;
        }
        md->sm = pd.sm;
        md->body[0] = pd.bar;
    } else {
        const double Jc = FX_PM * FX_PL * FX_PL / 12;
        double J[3][3] = {{0, 0, 0}, {0, Jc, 0}, {0, 0, Jc}};
        const double Y[3] = {0, 1, 0}, Z[3] = {0, 0, 1};
        md->sm = mbd_spatial_alloc();
        const int gr = mbd_spatial_add_ground(md->sm, "ground");
        md->body[0] = mbd_spatial_add_body(md->sm, "bar", FX_PM, J);
        mbd_spatial_set_gravity(md->sm, md->g);
        mbd_spatial_add_revolute(md->sm, "pin", gr, NULL, Y, Z, md->body[0],
                                 (const double[]){-FX_PL / 2, 0, 0}, Z);
        if (mbd_spatial_finish(md->sm) != GSL_SUCCESS)
            return 0;
    }
    md->nb = 1;
    md->m[0] = FX_PM;
    memset(md->J, 0, sizeof md->J);
    md->J[0][1][1] = md->J[0][2][2] = FX_PM * FX_PL * FX_PL / 12;
    md->q = gsl_vector_alloc(7), md->qd = gsl_vector_alloc(7);
    double th[3] = {0.7, -0.4, 0};
    if (driven)
        fx_pend_theta(md->t0, th);
    fx_pend_state(th, md->q, md->qd, NULL);
    for (size_t k = 3; k < 7; k++)
        gsl_vector_set(md->q, k, gsl_vector_get(md->q, k) * (1 + 2e-7));
    return 1;
}

/* the double pendulum of fixture_dyn.h without the spring (gravity only) */
static int dpend_build(model *md)
{
    fx_dpend d;
    memset(md, 0, sizeof *md);
    if (fx_dpend_build(&d, 0, 0, 2.3) != GSL_SUCCESS) {
        fx_dpend_free(&d);
        return 0;
    }
    md->sm = d.sm, md->q = d.q, md->qd = d.qd, md->t0 = d.t0;
    md->nb = 2, md->body[0] = d.bar1, md->body[1] = d.bar2;
    md->m[0] = d.m1, md->m[1] = d.m2;
    memcpy(md->J[0], d.J1, sizeof d.J1);
    memcpy(md->J[1], d.J2, sizeof d.J2);
    memcpy(md->g, d.g, sizeof d.g);
    return 1;
}

/* E from the bodies: (1/2) m r'^T r' + (1/2) w^T J w - m g^T r, with w =
 * 2 G(p) p' (G written out here) */
static double energy(const model *md, const gsl_vector *q, const gsl_vector *qd)
{
    double E = 0;
    for (int b = 0; b < md->nb; b++) {
        size_t c;
        mbd_spatial_body_coordinates(md->sm, md->body[b], &c);
        double r[3], rd[3], p[4], pd[4];
        for (size_t k = 0; k < 3; k++)
            r[k] = gsl_vector_get(q, c + k), rd[k] = gsl_vector_get(qd, c + k);
        for (size_t k = 0; k < 4; k++)
            p[k] = gsl_vector_get(q, c + 3 + k), pd[k] = gsl_vector_get(qd, c + 3 + k);
        /* G(p) = [-e, -e~ + e0 I] */
        const double G[3][4] = {{-p[1], p[0], p[3], -p[2]},
                                {-p[2], -p[3], p[0], p[1]},
                                {-p[3], p[2], -p[1], p[0]}};
        double w[3] = {0, 0, 0}, Jw[3];
        for (int i = 0; i < 3; i++)
            for (int k = 0; k < 4; k++)
                w[i] += 2 * G[i][k] * pd[k];
        double Jb[3][3];
        memcpy(Jb, md->J[b], sizeof Jb);
        fx_matvec(Jb, w, Jw);
        E += 0.5 * md->m[b] * fx_dot3(rd, rd) + 0.5 * fx_dot3(w, Jw) - md->m[b] * fx_dot3(md->g, r);
    }
    return E;
}

typedef struct {
    const model *md;
    ex09_drift d;
    int first;
} own;

static int own_observer(const mbd_spatial_model *sm, const mbd_spatial_dynamics_point *pt,
                        void *user)
{
    own *o = user;
    const double E = energy(o->md, pt->q, pt->qd);
    if (o->first) {
        o->d.energy0 = E;
        o->first = 0;
    }
    o->d.energy = fmax(o->d.energy, fabs(E - o->d.energy0));
    for (int b = 0; b < o->md->nb; b++) {
        double r[3], p[4];
        mbd_spatial_pose(sm, o->md->body[b], pt->q, r, p);
        o->d.euler = fmax(o->d.euler, fabs(p[0] * p[0] + p[1] * p[1] + p[2] * p[2] + p[3] * p[3]
                                           - 1));
    }
    /* row by row: Phi and Phi_q q' - nu from each row's blocks */
    const size_t m = mbd_spatial_n_rows(sm);
    for (size_t k = 0; k < m; k++) {
        mbd_spatial_row_info info;
        mbd_spatial_row_eval e;
        mbd_spatial_row_info_get(sm, k, &info);
        mbd_spatial_eval_row(sm, k, pt->t, pt->q, pt->qd, &e);
        double rate = -e.nu;
        for (int s = 0; s < 2; s++) {
            if (info.col[s] == SIZE_MAX)
                continue;
            for (size_t x = 0; x < 3; x++)
                rate += e.phi_r[s][x] * gsl_vector_get(pt->qd, info.col[s] + x);
            for (size_t x = 0; x < 4; x++)
                rate += e.phi_p[s][x] * gsl_vector_get(pt->qd, info.col[s] + 3 + x);
        }
        o->d.phi = fmax(o->d.phi, fabs(e.phi));
        o->d.velocity = fmax(o->d.velocity, fabs(rate));
    }
    return GSL_SUCCESS;
}

/* the tests' own run; 0 on a failure */
static int own_run(const model *md, const mbd_spatial_dynamics_options *o, double t1,
                   ex09_drift *d)
{
    mbd_spatial_dynamics *dyn = mbd_spatial_dynamics_alloc(md->sm, o);
    gsl_vector *q = gsl_vector_alloc(md->q->size), *qd = gsl_vector_alloc(md->q->size);
    gsl_vector_memcpy(q, md->q);
    gsl_vector_memcpy(qd, md->qd);
    own w = {md, {0, 0, 0, 0, 0, 0, 0}, 1};
    const int st = dyn ? mbd_spatial_dynamics_run(dyn, md->t0, t1, 0.0, q, qd, own_observer, &w)
                       : MBD_EINPUT;
    if (st == GSL_SUCCESS) {
        *d = w.d;
        d->steps = mbd_spatial_dynamics_stats_get(dyn)->steps;
        d->newton_iterations = mbd_spatial_dynamics_stats_get(dyn)->newton_iterations;
    }
    mbd_spatial_dynamics_free(dyn);
    gsl_vector_free(qd);
    gsl_vector_free(q);
    CHECK_MSG(st == GSL_SUCCESS, "the tests' own run failed: %s", mbd_strerror(st));
    return st == GSL_SUCCESS;
}

static int near(double a, double b) { return fabs(a - b) <= 1e-8 * fabs(b) + 1e-15; }

/* the student's drifts against the tests' own, for one model and options */
static void compare(const char *what, const model *md, const mbd_spatial_dynamics_options *o,
                    double t1)
{
    ex09_drift mine, yours;
    if (!own_run(md, o, t1, &mine))
        return;
    const int st = ex09_drift_run(md->sm, md->g, o, md->t0, t1, md->q, md->qd, &yours);
    CHECK_MSG(st == GSL_SUCCESS, "%s: status %d (%s)", what, st, mbd_strerror(st));
    if (st != GSL_SUCCESS)
        return;
    if (verbose())
        printf("\n    %s: E0 %.6g, energy %.3e, euler %.3e, phi %.3e, velocity %.3e, %zu steps, "
               "%zu iterations", what, mine.energy0, mine.energy, mine.euler, mine.phi,
               mine.velocity, mine.steps, mine.newton_iterations);
#define CMP(f)                                                                                \
    CHECK_MSG(near(yours.f, mine.f), "%s: " #f " = %.10g, the tests' own computation %.10g", \
              what, (double)yours.f, (double)mine.f)
    CHECK_MSG(fabs(yours.energy0 - mine.energy0) <= 1e-10 * (1 + fabs(mine.energy0)),
              "%s: energy0 = %.12g, the tests' own %.12g", what, yours.energy0, mine.energy0);
    CHECK_MSG(fabs(yours.energy - mine.energy) <= 1e-10 * (1 + fabs(mine.energy0)),
              "%s: energy = %.10g, the tests' own %.10g", what, yours.energy, mine.energy);
    CMP(euler);
    CHECK_MSG(fabs(yours.phi - mine.phi) <= 1e-8 * mine.phi + 1e-14,
              "%s: phi = %.10g, the tests' own %.10g", what, yours.phi, mine.phi);
    CHECK_MSG(fabs(yours.velocity - mine.velocity) <= 1e-8 * mine.velocity + 1e-12,
              "%s: velocity = %.10g, the tests' own %.10g", what, yours.velocity, mine.velocity);
    CHECK_MSG(yours.steps == mine.steps && yours.newton_iterations == mine.newton_iterations,
              "%s: %zu steps and %zu Newton iterations, the tests' own run %zu and %zu", what,
              yours.steps, yours.newton_iterations, mine.steps, mine.newton_iterations);
#undef CMP
}

/* the free bar: E(t0) in closed form, (1/2) I_O th'^2 - m g (L/2) cos th,
 * I_O = m L^2 / 3 (the rotation about the centre included) */
static void bar_free(void)
{
    model md;
    if (!bar_build(&md, 0)) {
        CHECK_MSG(0, "the test's bar did not build");
        model_free(&md);
        return;
    }
    const mbd_spatial_dynamics_options o = {.order = 2, .h = 0.01};
    ex09_drift d;
    const int st = ex09_drift_run(md.sm, md.g, &o, md.t0, md.t0 + 1.5, md.q, md.qd, &d);
    CHECK_STATUS(st, GSL_SUCCESS);
    if (st == GSL_SUCCESS) {
        const double IO = FX_PM * FX_PL * FX_PL / 3, th = 0.7, w = -0.4;
        /* the scaled p leaves the kinetic energy (quadratic in p) scaled by
         * (1 + 2e-7)^2 in the rotational part */
        const double E0 = 0.5 * IO * w * w - FX_PM * FX_G * FX_PL / 2 * cos(th);
        CHECK_MSG(fabs(d.energy0 - E0) <= 1e-5 * fabs(E0),
                  "the free bar: E(t0) = %.8g, the closed form (1/2) I_O th'^2 - m g (L/2) cos "
                  "th = %.8g", d.energy0, E0);
        CHECK_MSG(d.energy > 1e-6 && d.energy < 0.05 * fabs(E0),
                  "the free bar: an energy drift of %.3g J over 1.5 s at h = 0.01", d.energy);
        CHECK_MSG(fabs(d.euler - (pow(1 + 2e-7, 2) - 1)) <= 1e-12,
                  "the free bar: the Euler-norm drift %.6g, expected (1 + 2e-7)^2 - 1 = %.6g "
                  "(the start's, which the first step corrects)", d.euler,
                  pow(1 + 2e-7, 2) - 1);
    }
    compare("the free bar, BDF2, quasi, h = 0.01", &md, &o, md.t0 + 1.5);
    model_free(&md);
}

/* the double pendulum: each option varied once */
static void dpend_options(void)
{
    model md;
    if (!dpend_build(&md)) {
        CHECK_MSG(0, "the test's double pendulum did not build");
        return;
    }
    const double t1 = md.t0 + 0.6;
    mbd_spatial_dynamics_options o = {.order = 2, .h = 0.01};
    compare("BDF2, quasi, h = 0.01", &md, &o, t1);
    o.order = 1;
    compare("BDF1", &md, &o, t1);
    o.order = 2, o.newton = MBD_SPATIAL_NEWTON_FULL;
    compare("full Newton", &md, &o, t1);
    o.newton = MBD_SPATIAL_NEWTON_QUASI, o.h = 0.0125;
    compare("h = 0.0125", &md, &o, t1);
    o.h = 0.01, o.tol = 1e-6;
    compare("tol = 1e-6", &md, &o, t1);
    model_free(&md);
}

/* the driven bar: nu = f' is not zero, and the velocity drift is
 * |Phi_q q' - nu| */
static void bar_driven(void)
{
    model md;
    if (!bar_build(&md, 1)) {
        CHECK_MSG(0, "the test's driven bar did not build");
        model_free(&md);
        return;
    }
    const mbd_spatial_dynamics_options o = {.order = 2, .h = 0.02};
    compare("the driven bar", &md, &o, md.t0 + 1.0);
    model_free(&md);
}

/* the observed orders: the tests' own drifts at h and h/2, and what they
 * should be: about 2 for BDF2 and 1 for BDF1 */
static void orders(void)
{
    model md;
    if (!bar_build(&md, 0)) {
        CHECK_MSG(0, "the test's bar did not build");
        model_free(&md);
        return;
    }
    const double t1 = md.t0 + 2.0;
    for (unsigned order = 1; order <= 2; order++) {
        mbd_spatial_dynamics_options o = {.order = order, .h = 0.02};
        double p[2] = {NAN, NAN};
        const int st = ex09_drift_order(md.sm, md.g, &o, md.t0, t1, md.q, md.qd, p);
        CHECK_MSG(st == GSL_SUCCESS, "BDF%u: status %d (%s)", order, st, mbd_strerror(st));
        ex09_drift a, b;
        if (st != GSL_SUCCESS || !own_run(&md, &o, t1, &a))
            continue;
        o.h /= 2;
        if (!own_run(&md, &o, t1, &b))
            continue;
        const double pe = log2(a.energy / b.energy), pv = log2(a.velocity / b.velocity);
        if (verbose())
            printf("\n    BDF%u: orders %.3f (energy), %.3f (velocity)", order, pe, pv);
        CHECK_MSG(fabs(p[0] - pe) <= 1e-6 && fabs(p[1] - pv) <= 1e-6,
                  "BDF%u: orders %.6g, %.6g; the tests' own drifts at h and h/2 give %.6g, %.6g",
                  order, p[0], p[1], pe, pv);
        CHECK_MSG(fabs(pe - order) <= 0.3, "BDF%u: the energy drift's order %.3f", order, pe);
    }
    model_free(&md);
}

static void failures(void)
{
    model md;
    if (!bar_build(&md, 0)) {
        CHECK_MSG(0, "the test's bar did not build");
        model_free(&md);
        return;
    }
    const double t1 = md.t0 + 0.5;
    mbd_spatial_dynamics_options o = {.order = 2, .h = 0.01};
    ex09_drift d;
    double p[2];
#define FAIL(what, call, expected)                                                            \
    do {                                                                                      \
        memset(&d, 0x5a, sizeof d);                                                           \
        p[0] = p[1] = FX_SENTINEL;                                                            \
        const int st_ = (call);                                                               \
        ex09_drift ref_;                                                                      \
        memset(&ref_, 0x5a, sizeof ref_);                                                     \
        CHECK_MSG(st_ == (expected), "%s: status %d (%s), expected %s", what, st_,            \
                  mbd_strerror(st_), #expected);                                              \
        CHECK_MSG(memcmp(&d, &ref_, sizeof d) == 0 && p[0] == FX_SENTINEL                     \
                      && p[1] == FX_SENTINEL,                                                 \
                  "%s: an output was written on an error", what);                             \
    } while (0)
    /* Newton cannot converge in one iteration */
    o.max_iter = 1;
    FAIL("max_iter = 1", ex09_drift_run(md.sm, md.g, &o, md.t0, t1, md.q, md.qd, &d),
         MBD_ENOCONV);
    FAIL("max_iter = 1 (orders)", ex09_drift_order(md.sm, md.g, &o, md.t0, t1, md.q, md.qd, p),
         MBD_ENOCONV);
    o.max_iter = 0;
    o.adaptive = 1;
    FAIL("adaptive", ex09_drift_run(md.sm, md.g, &o, md.t0, t1, md.q, md.qd, &d), MBD_EINPUT);
    o.adaptive = 0;
    FAIL("t1 = t0", ex09_drift_run(md.sm, md.g, &o, md.t0, md.t0, md.q, md.qd, &d), MBD_EINPUT);
    FAIL("t1 < t0", ex09_drift_run(md.sm, md.g, &o, md.t0, md.t0 - 1, md.q, md.qd, &d),
         MBD_EINPUT);
    FAIL("t0 = NaN", ex09_drift_run(md.sm, md.g, &o, NAN, t1, md.q, md.qd, &d), MBD_EINPUT);
    FAIL("sm = NULL", ex09_drift_run(NULL, md.g, &o, md.t0, t1, md.q, md.qd, &d), MBD_EINPUT);
    FAIL("g = NULL", ex09_drift_run(md.sm, NULL, &o, md.t0, t1, md.q, md.qd, &d), MBD_EINPUT);
    FAIL("o = NULL", ex09_drift_run(md.sm, md.g, NULL, md.t0, t1, md.q, md.qd, &d), MBD_EINPUT);
    FAIL("q0 = NULL", ex09_drift_run(md.sm, md.g, &o, md.t0, t1, NULL, md.qd, &d), MBD_EINPUT);
    CHECK_STATUS(ex09_drift_run(md.sm, md.g, &o, md.t0, t1, md.q, md.qd, NULL), MBD_EINPUT);
    CHECK_STATUS(ex09_drift_order(md.sm, md.g, &o, md.t0, t1, md.q, md.qd, NULL), MBD_EINPUT);
    const double gn[3] = {0, NAN, -9.81};
    FAIL("g with a NaN", ex09_drift_run(md.sm, gn, &o, md.t0, t1, md.q, md.qd, &d), MBD_EINPUT);
    gsl_vector *q6 = gsl_vector_alloc(6);
    gsl_vector_set_zero(q6);
    FAIL("q0 of 6 entries", ex09_drift_run(md.sm, md.g, &o, md.t0, t1, q6, md.qd, &d),
         GSL_EBADLEN);
    FAIL("qd0 of 6 entries", ex09_drift_run(md.sm, md.g, &o, md.t0, t1, md.q, q6, &d),
         GSL_EBADLEN);
    gsl_vector_free(q6);
    /* a start off the constraints: the run's own refusal */
    gsl_vector_set(md.q, 1, gsl_vector_get(md.q, 1) + 1e-3);
    FAIL("a start off the constraints", ex09_drift_run(md.sm, md.g, &o, md.t0, t1, md.q, md.qd, &d),
         MBD_EINPUT);
    gsl_vector_set(md.q, 1, gsl_vector_get(md.q, 1) - 1e-3);
    o.h = 0;
    FAIL("orders with h = 0", ex09_drift_order(md.sm, md.g, &o, md.t0, t1, md.q, md.qd, p),
         MBD_EINPUT);
#undef FAIL
    model_free(&md);
}

static CU_TestInfo tests[] = {
    {"the free bar: E(t0) in closed form, and the drifts", bar_free},
    {"the double pendulum: order, Newton, h and tol varied", dpend_options},
    {"the driven bar: the velocity drift with nu", bar_driven},
    {"the observed orders of BDF1 and BDF2", orders},
    {"failures: Newton, bad settings, sizes, an inconsistent start", failures},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"ex09.7", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
