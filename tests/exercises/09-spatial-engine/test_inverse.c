/* Grades exercise 09.4: inverse dynamics -- the multipliers, and the force
 * and torque rows exert on a body; the driving torque of the driven
 * pendulum against its closed form. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_math.h>

#include "check.h"
#include "ex09.h"
#include "fixture.h"

static int verbose(void) { return getenv("EX09_VERBOSE") != NULL; }

static int multipliers(const char *what, const mbd_spatial_model *sm, double t,
                       const gsl_vector *q, const gsl_vector *qd, const gsl_vector *qdd,
                       gsl_vector *lambda)
{
    gsl_vector_set_all(lambda, NAN);
    const int st = ex09_multipliers(sm, t, q, qd, qdd, lambda);
    CHECK_MSG(st == GSL_SUCCESS, "%s: status %d (%s)", what, st, mbd_strerror(st));
    return st == GSL_SUCCESS;
}

static int reaction(const char *what, const mbd_spatial_model *sm, size_t first, size_t count,
                    int b, const gsl_vector *q, const gsl_vector *lambda, ex09_reaction *r)
{
    for (int k = 0; k < 3; k++)
        r->F[k] = r->n_bar[k] = r->n[k] = NAN;
    const int st = ex09_reaction_on(sm, first, count, b, q, lambda, r);
    CHECK_MSG(st == GSL_SUCCESS, "%s: status %d (%s)", what, st, mbd_strerror(st));
    return st == GSL_SUCCESS;
}

static void joint_rows(const mbd_spatial_model *sm, int k, size_t *first, size_t *count)
{
    mbd_spatial_joint_info info;
    mbd_spatial_joint_info_get(sm, k, &info);
    *first = info.first;
    *count = info.count;
}

/* A^T n for body b at q: the body-frame components of a global vector */
static void to_body(const mbd_spatial_model *sm, int b, const gsl_vector *q, const double n[3],
                    double nb[3])
{
    double p[4], A[3][3];
    mbd_spatial_pose(sm, b, q, NULL, p);
    fx_A(p, A);
    for (int i = 0; i < 3; i++)
        nb[i] = A[0][i] * n[0] + A[1][i] * n[1] + A[2][i] * n[2];
}

/* ------------------------------------------------------------------------ */
/* The driven pendulum                                                       */

/* the torque that drives, in closed form: about the pivot O the bar's
 * equation is I_O theta'' = n - m g (L/2) sin theta, I_O = m L^2 / 3 */
static double torque_exact(double t)
{
    double th[3];
    fx_pend_theta(t, th);
    const double IO = FX_PM * FX_PL * FX_PL / 3.0, mgl = FX_PM * FX_G * FX_PL / 2;
    return IO * th[2] + mgl * sin(th[0]);
}

/* Over a period from t0 = 0.37, at states in closed form: the driver's row
 * on the bar gives the torque n(t) = -416 pi cos 2t + 1530.36 sin((pi/4)
 * cos 2t) about global x (the bar's z axis), no force, no other component */
static void driving_torque(void)
{
    /* the guide's constants are the closed form's */
    CHECK_CLOSE(FX_PM * FX_PL * FX_PL / 3.0, 416.0, 1e-12);
    CHECK_CLOSE(FX_PM * FX_G * FX_PL / 2, 1530.36, 1e-10);
    fx_pend pd;
    if (fx_pend_build(&pd) != GSL_SUCCESS) {
        CHECK_MSG(0, "the test's pendulum did not build");
        mbd_spatial_free(pd.sm);
        return;
    }
    gsl_vector *q = gsl_vector_alloc(7), *qd = gsl_vector_alloc(7), *qdd = gsl_vector_alloc(7);
    gsl_vector *lam = gsl_vector_alloc(7);
    size_t first, count;
    joint_rows(pd.sm, pd.j_driver, &first, &count);
    double en = 0.0, eother = 0.0, nmax = 0.0;
    for (int k = 0; k < 40; k++) {
        const double t = 0.37 + M_PI * k / 40.0;
        double th[3];
        fx_pend_theta(t, th);
        fx_pend_state(th, q, qd, qdd);
        const double n = torque_exact(t);
        const double guide = -416 * M_PI * cos(2 * t) + 1530.36 * sin(M_PI / 4 * cos(2 * t));
        CHECK_MSG(fabs(n - guide) <= 1e-9 * 224.7746, "the closed form at t = %g", t);
        char what[64];
        snprintf(what, sizeof what, "the pendulum at t = %.4f", t);
        ex09_reaction r;
        if (!multipliers(what, pd.sm, t, q, qd, qdd, lam)
            || !reaction(what, pd.sm, first, count, pd.bar, q, lam, &r))
            continue;
        nmax = fmax(nmax, fabs(n));
        en = fmax(en, fabs(r.n[0] - n));
        en = fmax(en, fabs(r.n_bar[2] - n));
        eother = fmax(eother, fmax(fabs(r.n[1]), fabs(r.n[2])));
        eother = fmax(eother, fmax(fabs(r.n_bar[0]), fabs(r.n_bar[1])));
        for (int i = 0; i < 3; i++)
            eother = fmax(eother, fabs(r.F[i]));
        CHECK_MSG(fabs(r.n[0] - n) <= 1e-9 * 224.7746 && fabs(r.n_bar[2] - n) <= 1e-9 * 224.7746,
                  "%s: the driving torque n_x = %.10g (n_bar_z = %.10g), expected %.10g N m",
                  what, r.n[0], r.n_bar[2], n);
    }
    if (verbose())
        printf("\n    driving torque: max |n - n_exact| %.2e N m of max %.4f; other components "
               "%.2e\n", en, nmax, eother);
    CHECK_MSG(eother <= 1e-9 * 224.7746,
              "the driver's row gives a force or a torque component other than about x: "
              "%.3g", eother);
    gsl_vector_free(lam);
    gsl_vector_free(qdd);
    gsl_vector_free(qd);
    gsl_vector_free(q);
    mbd_spatial_free(pd.sm);
}

/* The revolute's five rows on the bar: the force m (r'' - g) that moves
 * its centre (the driver's row gives none), and the torques of the pin
 * and the driver about the centre summing to J theta'' about x (J = m
 * L^2 / 12); on the ground, the opposite force, and the opposite torque
 * about O */
static void pin_reaction(void)
{
    fx_pend pd;
    if (fx_pend_build(&pd) != GSL_SUCCESS) {
        CHECK_MSG(0, "the test's pendulum did not build");
        mbd_spatial_free(pd.sm);
        return;
    }
    gsl_vector *q = gsl_vector_alloc(7), *qd = gsl_vector_alloc(7), *qdd = gsl_vector_alloc(7);
    gsl_vector *lam = gsl_vector_alloc(7);
    size_t fp, cp, fd, cd;
    joint_rows(pd.sm, pd.j_pin, &fp, &cp);
    joint_rows(pd.sm, pd.j_driver, &fd, &cd);
    const double Jc = FX_PM * FX_PL * FX_PL / 12;
    double ef = 0, en = 0, eg = 0, scale = 0;
    for (int k = 0; k < 12; k++) {
        const double t = -0.8 + 0.29 * k;
        double th[3];
        fx_pend_theta(t, th);
        fx_pend_state(th, q, qd, qdd);
        char what[64];
        snprintf(what, sizeof what, "the pendulum at t = %.2f", t);
        ex09_reaction pin, drv, gnd;
        if (!multipliers(what, pd.sm, t, q, qd, qdd, lam)
            || !reaction(what, pd.sm, fp, cp, pd.bar, q, lam, &pin)
            || !reaction(what, pd.sm, fd, cd, pd.bar, q, lam, &drv)
            || !reaction(what, pd.sm, fp, cp, pd.ground, q, lam, &gnd))
            continue;
        const double F[3] = {FX_PM * gsl_vector_get(qdd, 0), FX_PM * gsl_vector_get(qdd, 1),
                             FX_PM * (gsl_vector_get(qdd, 2) + FX_G)};
        const double n[3] = {Jc * th[2], 0.0, 0.0};
        double r[3], rxF[3], nb[3];
        for (int i = 0; i < 3; i++)
            r[i] = gsl_vector_get(q, (size_t)i);
        fx_cross(r, pin.F, rxF);
        to_body(pd.sm, pd.bar, q, pin.n, nb);
        for (int i = 0; i < 3; i++) {
            scale = fmax(scale, fmax(fabs(F[i]), fabs(n[i])));
            ef = fmax(ef, fabs(pin.F[i] - F[i]));
            en = fmax(en, fabs(pin.n[i] + drv.n[i] - n[i]));
            en = fmax(en, fabs(pin.n_bar[i] - nb[i]));
            /* the ground: -F, and about O the opposite of the bar's torque
             * about O, n + r x F */
            eg = fmax(eg, fabs(gnd.F[i] + pin.F[i]));
            eg = fmax(eg, fabs(gnd.n[i] + pin.n[i] + rxF[i]));
            eg = fmax(eg, fabs(gnd.n_bar[i] - gnd.n[i]));
        }
    }
    if (verbose())
        printf("\n    the pin: |F - m (r'' - g)| %.2e, torques %.2e, the ground's side %.2e (of "
               "%.1f)\n", ef, en, eg, scale);
    CHECK_MSG(ef <= 1e-9 * scale, "the pin's force on the bar differs from m (r'' - g) by %.3g N",
              ef);
    CHECK_MSG(en <= 1e-9 * scale,
              "the pin's and the driver's torques on the bar about its centre do not sum to "
              "J theta'' about x (or n_bar is not A^T n): off by %.3g N m", en);
    CHECK_MSG(eg <= 1e-9 * scale,
              "the pin on the ground: not the opposite force and torque about O (off by %.3g)",
              eg);
    gsl_vector_free(lam);
    gsl_vector_free(qdd);
    gsl_vector_free(qd);
    gsl_vector_free(q);
    mbd_spatial_free(pd.sm);
}

/* ------------------------------------------------------------------------ */
/* Against the library                                                       */

/* a consistent state of the slider-crank at t by the library's analyses */
static int crank_state(fx_crank *c, double t, gsl_vector *q, gsl_vector *qd, gsl_vector *qdd)
{
    fx_crank_pose(c, fx_crank_theta(c, t), q);
    gsl_vector_set_zero(qd);
    int st = mbd_spatial_position(c->sm, t, q, NULL, NULL);
    if (st == GSL_SUCCESS)
        st = mbd_spatial_velocity(c->sm, t, q, qd, NULL, NULL, NULL);
    if (st == GSL_SUCCESS)
        st = mbd_spatial_acceleration(c->sm, t, q, qd, qdd, NULL, NULL);
    CHECK_MSG(st == GSL_SUCCESS, "the test's slider-crank state at t = %g: %s", t,
              mbd_strerror(st));
    return st == GSL_SUCCESS;
}

/* Phi_q^T lambda - (F - M q''), by the model's callbacks */
static double balance(const mbd_spatial_model *sm, double t, const gsl_vector *q,
                      const gsl_vector *qd, const gsl_vector *qdd, const gsl_vector *lam,
                      double *scale)
{
    const mbd_system *s = mbd_spatial_system(sm);
    gsl_matrix *M = gsl_matrix_alloc(s->n, s->n), *Cq = gsl_matrix_alloc(s->m, s->n);
    gsl_vector *F = gsl_vector_alloc(s->n);
    s->mass(s, t, q, M);
    s->force(s, t, q, qd, F);
    s->jacobian(s, t, q, Cq);
    gsl_blas_dgemv(CblasNoTrans, -1.0, M, qdd, 1.0, F);
    *scale = fmax(1.0, fx_vmax(F));
    gsl_blas_dgemv(CblasTrans, 1.0, Cq, lam, -1.0, F);
    const double e = fx_vmax(F);
    gsl_vector_free(F);
    gsl_matrix_free(Cq);
    gsl_matrix_free(M);
    return e;
}

/* lambda against mbd_spatial_multipliers and the balance Phi_q^T lambda = F
 * - M q'': the slider-crank at consistent states, then with a q'' that is
 * not (the system is square, so any q'' has its multipliers); the pendulum
 * at t0 = 0.37 */
static void against_library_multipliers(void)
{
    fx_crank c;
    if (fx_crank_build(&c, 1, 1e-4) != GSL_SUCCESS) {
        CHECK_MSG(0, "the test's slider-crank did not build");
        mbd_spatial_free(c.sm);
        return;
    }
    const size_t n = 21;
    gsl_vector *q = gsl_vector_alloc(n), *qd = gsl_vector_alloc(n), *qdd = gsl_vector_alloc(n);
    gsl_vector *lam = gsl_vector_alloc(n), *ref = gsl_vector_alloc(n);
    fx_rng g = {90400ULL};
    double worst = 0.0, wb = 0.0;
    for (int k = 0; k < 5; k++) {
        const double t = 0.07 + 0.21 * k;
        if (!crank_state(&c, t, q, qd, qdd))
            break;
        if (k == 4)
            for (size_t i = 0; i < n; i++)
                gsl_vector_set(qdd, i, gsl_vector_get(qdd, i) + 3.0 * fx_uniform(&g));
        char what[64];
        snprintf(what, sizeof what, "the slider-crank at t = %.2f%s", t,
                 k == 4 ? ", q'' perturbed" : "");
        if (!multipliers(what, c.sm, t, q, qd, qdd, lam))
            continue;
        mbd_spatial_multipliers(c.sm, t, q, qd, qdd, ref, NULL, NULL);
        double scale;
        const double eb = balance(c.sm, t, q, qd, qdd, lam, &scale);
        gsl_vector_sub(ref, lam);
        const double e = fx_vmax(ref) / fmax(1.0, fx_vmax(lam));
        worst = fmax(worst, e);
        wb = fmax(wb, eb / scale);
        CHECK_MSG(e <= 1e-9, "%s: lambda differs from the library's by %.3g (relative)", what, e);
        CHECK_MSG(eb <= 1e-10 * scale, "%s: Phi_q^T lambda - (F - M q'') = %.3g", what, eb);
    }
    if (verbose())
        printf("\n    the slider-crank: lambda off the library's by %.2e, the balance by %.2e\n",
               worst, wb);
    gsl_vector_free(ref);
    gsl_vector_free(lam);
    gsl_vector_free(qdd);
    gsl_vector_free(qd);
    gsl_vector_free(q);
    mbd_spatial_free(c.sm);
    /* the pendulum */
    fx_pend pd;
    if (fx_pend_build(&pd) != GSL_SUCCESS) {
        CHECK_MSG(0, "the test's pendulum did not build");
        mbd_spatial_free(pd.sm);
        return;
    }
    q = gsl_vector_alloc(7), qd = gsl_vector_alloc(7), qdd = gsl_vector_alloc(7);
    lam = gsl_vector_alloc(7), ref = gsl_vector_alloc(7);
    double th[3];
    fx_pend_theta(0.37, th);
    fx_pend_state(th, q, qd, qdd);
    if (multipliers("the pendulum at t = 0.37", pd.sm, 0.37, q, qd, qdd, lam)) {
        mbd_spatial_multipliers(pd.sm, 0.37, q, qd, qdd, ref, NULL, NULL);
        gsl_vector_sub(ref, lam);
        CHECK_MSG(fx_vmax(ref) <= 1e-9 * fx_vmax(lam),
                  "the pendulum at t = 0.37: lambda differs from the library's by %.3g",
                  fx_vmax(ref));
    }
    gsl_vector_free(ref);
    gsl_vector_free(lam);
    gsl_vector_free(qdd);
    gsl_vector_free(qd);
    gsl_vector_free(q);
    mbd_spatial_free(pd.sm);
}

/* Every joint of the slider-crank on both of its bodies (the grounds
 * included) against mbd_spatial_reactions: F and n; n_bar = A^T n; and one
 * row of a joint on its own, summed with the others, gives the joint */
static void against_library_reactions(void)
{
    fx_crank c;
    if (fx_crank_build(&c, 1, 1e-4) != GSL_SUCCESS) {
        CHECK_MSG(0, "the test's slider-crank did not build");
        mbd_spatial_free(c.sm);
        return;
    }
    const size_t n = 21;
    gsl_vector *q = gsl_vector_alloc(n), *qd = gsl_vector_alloc(n), *qdd = gsl_vector_alloc(n);
    gsl_vector *lam = gsl_vector_alloc(n);
    double worst = 0.0;
    const int joints[5] = {c.j_rev, c.j_pin, c.j_uni, c.j_slide, c.j_driver};
    for (int k = 0; k < 3; k++) {
        const double t = 0.11 + 0.3 * k;
        if (!crank_state(&c, t, q, qd, qdd))
            break;
        mbd_spatial_multipliers(c.sm, t, q, qd, qdd, lam, NULL, NULL);
        for (int j = 0; j < 5; j++) {
            mbd_spatial_joint_info info;
            mbd_spatial_joint_info_get(c.sm, joints[j], &info);
            mbd_spatial_reaction lib[2];
            mbd_spatial_reactions(c.sm, joints[j], q, lam, &lib[0], &lib[1]);
            for (int s = 0; s < 2; s++) {
                char what[96];
                snprintf(what, sizeof what, "t = %.2f, joint '%s' on body %d", t, info.name,
                         info.body[s]);
                ex09_reaction r;
                if (!reaction(what, c.sm, info.first, info.count, info.body[s], q, lam, &r))
                    continue;
                double nb[3], e = 0.0, sc = 1e-3;
                to_body(c.sm, info.body[s], q, r.n, nb);
                for (int i = 0; i < 3; i++) {
                    sc = fmax(sc, fmax(fabs(lib[s].F[i]), fabs(lib[s].n[i])));
                    e = fmax(e, fabs(r.F[i] - lib[s].F[i]));
                    e = fmax(e, fabs(r.n[i] - lib[s].n[i]));
                    e = fmax(e, fabs(r.n_bar[i] - nb[i]));
                }
                worst = fmax(worst, e / sc);
                CHECK_MSG(e <= 1e-10 * sc,
                          "%s: (F, n) = (%.6g, %.6g, %.6g; %.6g, %.6g, %.6g), the library's "
                          "(%.6g, %.6g, %.6g; %.6g, %.6g, %.6g), or n_bar is not A^T n", what,
                          r.F[0], r.F[1], r.F[2], r.n[0], r.n[1], r.n[2], lib[s].F[0],
                          lib[s].F[1], lib[s].F[2], lib[s].n[0], lib[s].n[1], lib[s].n[2]);
                /* row by row: the sum of the single rows is the joint */
                if (k == 0) {
                    double F[3] = {0, 0, 0}, nn[3] = {0, 0, 0};
                    for (size_t rw = 0; rw < info.count; rw++) {
                        ex09_reaction one;
                        if (!reaction(what, c.sm, info.first + rw, 1, info.body[s], q, lam, &one))
                            break;
                        for (int i = 0; i < 3; i++)
                            F[i] += one.F[i], nn[i] += one.n[i];
                    }
                    double es = 0.0;
                    for (int i = 0; i < 3; i++)
                        es = fmax(es, fmax(fabs(F[i] - r.F[i]), fabs(nn[i] - r.n[i])));
                    CHECK_MSG(es <= 1e-12 * sc, "%s: the rows one by one do not sum to the joint "
                                                "(%.3g)", what, es);
                }
            }
        }
    }
    if (verbose())
        printf("\n    the slider-crank's joints: largest relative difference from the library's "
               "reactions %.2e\n", worst);
    gsl_vector_free(lam);
    gsl_vector_free(qdd);
    gsl_vector_free(qd);
    gsl_vector_free(q);
    mbd_spatial_free(c.sm);
}

/* ------------------------------------------------------------------------ */
/* Refusals                                                                  */

static void mult_refused(const char *what, const mbd_spatial_model *sm, double t,
                         const gsl_vector *q, const gsl_vector *qd, const gsl_vector *qdd,
                         gsl_vector *lambda, int expected)
{
    gsl_vector_set_all(lambda, FX_SENTINEL);
    const int st = ex09_multipliers(sm, t, q, qd, qdd, lambda);
    CHECK_MSG(st == expected, "%s: status %d (%s), expected %d (%s)", what, st, mbd_strerror(st),
              expected, mbd_strerror(expected));
    CHECK_MSG(fx_vector_is(lambda, FX_SENTINEL), "%s: lambda was written on an error", what);
}

static void react_refused(const char *what, const mbd_spatial_model *sm, size_t first,
                          size_t count, int b, const gsl_vector *q, const gsl_vector *lambda,
                          int expected)
{
    ex09_reaction r;
    for (int k = 0; k < 3; k++)
        r.F[k] = r.n_bar[k] = r.n[k] = FX_SENTINEL;
    const int st = ex09_reaction_on(sm, first, count, b, q, lambda, &r);
    CHECK_MSG(st == expected, "%s: status %d (%s), expected %d (%s)", what, st, mbd_strerror(st),
              expected, mbd_strerror(expected));
    int untouched = 1;
    for (int k = 0; k < 3; k++)
        untouched = untouched && r.F[k] == FX_SENTINEL && r.n_bar[k] == FX_SENTINEL
                    && r.n[k] == FX_SENTINEL;
    CHECK_MSG(untouched, "%s: the reaction was written on an error", what);
}

static void refusals(void)
{
    fx_pend pd;
    fx_crank fc;
    if (fx_pend_build(&pd) != GSL_SUCCESS || fx_crank_build(&fc, 0, 0.0) != GSL_SUCCESS) {
        CHECK_MSG(0, "the test's models did not build");
        mbd_spatial_free(pd.sm);
        mbd_spatial_free(fc.sm);
        return;
    }
    gsl_vector *q = gsl_vector_alloc(7), *qd = gsl_vector_alloc(7), *qdd = gsl_vector_alloc(7);
    gsl_vector *lam = gsl_vector_alloc(7), *v6 = gsl_vector_alloc(6), *v8 = gsl_vector_alloc(8);
    double th[3];
    fx_pend_theta(0.5, th);
    fx_pend_state(th, q, qd, qdd);
    /* the multipliers */
    mult_refused("sm = NULL", NULL, 0.5, q, qd, qdd, lam, MBD_EINPUT);
    mult_refused("q = NULL", pd.sm, 0.5, NULL, qd, qdd, lam, MBD_EINPUT);
    mult_refused("q' = NULL", pd.sm, 0.5, q, NULL, qdd, lam, MBD_EINPUT);
    mult_refused("q'' = NULL", pd.sm, 0.5, q, qd, NULL, lam, MBD_EINPUT);
    CHECK_STATUS(ex09_multipliers(pd.sm, 0.5, q, qd, qdd, NULL), MBD_EINPUT);
    mbd_spatial_model *unfinished = mbd_spatial_alloc();
    mbd_spatial_add_body(unfinished, "b", 1.0, NULL);
    mult_refused("a model not finished", unfinished, 0.5, q, qd, qdd, lam, MBD_EINPUT);
    {
        gsl_vector *q21 = gsl_vector_calloc(21), *l21 = gsl_vector_alloc(21);
        fx_crank_pose(&fc, 0.3, q21);
        mult_refused("the free slider-crank (20 rows, 21 coordinates)", fc.sm, 0.5, q21, q21,
                     q21, l21, MBD_EINPUT);
        gsl_vector_free(l21);
        gsl_vector_free(q21);
    }
    mult_refused("t = NaN", pd.sm, NAN, q, qd, qdd, lam, MBD_EINPUT);
    gsl_vector_set(qd, 4, NAN);
    mult_refused("q'[4] = NaN", pd.sm, 0.5, q, qd, qdd, lam, MBD_EINPUT);
    fx_pend_state(th, q, qd, qdd);
    gsl_vector_set(qdd, 1, INFINITY);
    mult_refused("q''[1] = inf", pd.sm, 0.5, q, qd, qdd, lam, MBD_EINPUT);
    fx_pend_state(th, q, qd, qdd);
    gsl_vector_set(q, 6, NAN);
    mult_refused("q[6] = NaN", pd.sm, 0.5, q, qd, qdd, lam, MBD_EINPUT);
    fx_pend_state(th, q, qd, qdd);
    mult_refused("q of 6 entries", pd.sm, 0.5, v6, qd, qdd, lam, GSL_EBADLEN);
    mult_refused("q'' of 8 entries", pd.sm, 0.5, q, qd, v8, lam, GSL_EBADLEN);
    mult_refused("lambda of 8 entries", pd.sm, 0.5, q, qd, qdd, v8, GSL_EBADLEN);
    /* singular: the bar horizontal (theta = -pi/2), its y axis on -z, where
     * the driver's row d cos(.)/d(.) vanishes */
    double ths[3] = {-M_PI / 2, 0.3, 0.0};
    fx_pend_state(ths, q, qd, qdd);
    mult_refused("the pendulum at theta = -pi/2 (the driver singular)", pd.sm, 0.5, q, qd, qdd,
                 lam, MBD_ESINGULAR);
    /* the reactions */
    fx_pend_state(th, q, qd, qdd);
    gsl_vector_set_all(lam, 1.5);
    react_refused("sm = NULL", NULL, 0, 5, pd.bar, q, lam, MBD_EINPUT);
    react_refused("q = NULL", pd.sm, 0, 5, pd.bar, NULL, lam, MBD_EINPUT);
    react_refused("lambda = NULL", pd.sm, 0, 5, pd.bar, q, NULL, MBD_EINPUT);
    CHECK_STATUS(ex09_reaction_on(pd.sm, 0, 5, pd.bar, q, lam, NULL), MBD_EINPUT);
    react_refused("a model not finished", unfinished, 0, 1, 0, q, lam, MBD_EINPUT);
    react_refused("count = 0", pd.sm, 0, 0, pd.bar, q, lam, MBD_EINPUT);
    react_refused("rows 5 .. 7 of 7", pd.sm, 5, 3, pd.bar, q, lam, MBD_EINPUT);
    react_refused("row 7 of 7", pd.sm, 7, 1, pd.bar, q, lam, MBD_EINPUT);
    react_refused("first = SIZE_MAX", pd.sm, (size_t)-1, 2, pd.bar, q, lam, MBD_EINPUT);
    react_refused("body 2 of 2", pd.sm, 0, 5, 2, q, lam, MBD_EINPUT);
    react_refused("body -1", pd.sm, 0, 5, -1, q, lam, MBD_EINPUT);
    react_refused("the normalisation row on the ground", pd.sm, 6, 1, pd.ground, q, lam,
                  MBD_EINPUT);
    react_refused("rows 4 .. 6 on the ground (the last is the bar's alone)", pd.sm, 4, 3,
                  pd.ground, q, lam, MBD_EINPUT);
    react_refused("q of 6 entries", pd.sm, 0, 5, pd.bar, v6, lam, GSL_EBADLEN);
    react_refused("lambda of 8 entries", pd.sm, 0, 5, pd.bar, q, v8, GSL_EBADLEN);
    mbd_spatial_free(unfinished);
    gsl_vector_free(v8);
    gsl_vector_free(v6);
    gsl_vector_free(lam);
    gsl_vector_free(qdd);
    gsl_vector_free(qd);
    gsl_vector_free(q);
    mbd_spatial_free(fc.sm);
    mbd_spatial_free(pd.sm);
}

static CU_TestInfo tests[] = {
    {"the pendulum's driving torque over a period from t0 = 0.37", driving_torque},
    {"the pendulum's pin: m (r'' - g), Euler's equation, the ground's side", pin_reaction},
    {"lambda against the library's multipliers", against_library_multipliers},
    {"every joint of the slider-crank against the library's reactions",
     against_library_reactions},
    {"bad models, states, rows, bodies and sizes are refused", refusals},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"ex09.4", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
