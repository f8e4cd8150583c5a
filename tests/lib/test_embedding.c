/* The embedding formulation (coordinate partitioning, document 001's
 * algorithm E): its accelerations against the projection's, its runs through
 * the pipeline, its re-selection of the independent coordinates, and the
 * failure of a forced set at a configuration it cannot describe.
 *
 * Models written here by hand, their derivatives checked against finite
 * differences first:
 *   pendulum  a mass m on a rod of length R about the origin in Cartesian
 *             coordinates (x, y), C = x^2 + y^2 - R^2, gravity -y; its angle
 *             phi from the downward vertical obeys phi'' = -(g/R) sin phi;
 *   double    a double pendulum in the coordinates (x1, y1, u, v) of the
 *             first mass and of the second relative to the first, so that
 *             M = [(m1 + m2) I, m2 I; m2 I, m2 I] is not diagonal, with
 *             C = (x1^2 + y1^2 - L1^2, u^2 + v^2 - L2^2), gravity and a spring
 *             from the second mass to a point off the axis (n = 4, m = 2);
 *   free      a projectile (n = 2, m = 0): the embedding is M q'' = F.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_rng.h>

#include "check.h"
#include "mbd/formulation.h"
#include "mbd/simulate.h"

static const double PI = 3.14159265358979323846;

static double X(const gsl_vector *v, size_t i) { return gsl_vector_get(v, i); }

/* ------------------------------------------------------------------------ */
/* The pendulum in (x, y)                                                    */

typedef struct {
    double m, R, g;
} pendulum;

static int p_mass(const mbd_system *s, double t, const gsl_vector *q, gsl_matrix *M)
{
    const pendulum *p = s->model;
    (void)t, (void)q;
    gsl_matrix_set_identity(M);
    gsl_matrix_scale(M, p->m);
    return GSL_SUCCESS;
}

static int p_force(const mbd_system *s, double t, const gsl_vector *q, const gsl_vector *qd,
                   gsl_vector *F)
{
    const pendulum *p = s->model;
    (void)t, (void)q, (void)qd;
    gsl_vector_set(F, 0, 0.0);
    gsl_vector_set(F, 1, -p->m * p->g);
    return GSL_SUCCESS;
}

static int p_constraint(const mbd_system *s, double t, const gsl_vector *q, gsl_vector *C)
{
    const pendulum *p = s->model;
    (void)t;
    gsl_vector_set(C, 0, X(q, 0) * X(q, 0) + X(q, 1) * X(q, 1) - p->R * p->R);
    return GSL_SUCCESS;
}

static int p_jacobian(const mbd_system *s, double t, const gsl_vector *q, gsl_matrix *Cq)
{
    (void)s, (void)t;
    gsl_matrix_set(Cq, 0, 0, 2 * X(q, 0));
    gsl_matrix_set(Cq, 0, 1, 2 * X(q, 1));
    return GSL_SUCCESS;
}

/* C'' = 2 |q'|^2 + 2 q . q'', so C_q q'' = gamma = -2 |q'|^2 */
static int p_gamma(const mbd_system *s, double t, const gsl_vector *q, const gsl_vector *qd,
                   gsl_vector *g)
{
    (void)s, (void)t, (void)q;
    gsl_vector_set(g, 0, -2.0 * (X(qd, 0) * X(qd, 0) + X(qd, 1) * X(qd, 1)));
    return GSL_SUCCESS;
}

static int p_energy(const mbd_system *s, double t, const gsl_vector *q, const gsl_vector *qd,
                    double *E)
{
    const pendulum *p = s->model;
    (void)t;
    *E = 0.5 * p->m * (X(qd, 0) * X(qd, 0) + X(qd, 1) * X(qd, 1)) + p->m * p->g * X(q, 1);
    return GSL_SUCCESS;
}

static const char *const P_NAMES[] = {"x", "y"};

static mbd_system pendulum_system(pendulum *p)
{
    mbd_system s = {.n = 2, .m = 1, .names = P_NAMES, .model = p, .mass = p_mass,
                    .force = p_force, .constraint = p_constraint, .jacobian = p_jacobian,
                    .gamma = p_gamma, .energy = p_energy};
    return s;
}

static pendulum pendulum_data(void) { return (pendulum){2.0, 1.5, 9.81}; }

/* the state at angle phi from the downward vertical, turning at w */
static void pendulum_state(const pendulum *p, double phi, double w, double q[2], double qd[2])
{
    q[0] = p->R * sin(phi);
    q[1] = -p->R * cos(phi);
    qd[0] = p->R * w * cos(phi);
    qd[1] = p->R * w * sin(phi);
}

/* ------------------------------------------------------------------------ */
/* The double pendulum in (x1, y1, u, v)                                      */

typedef struct {
    double m1, m2, L1, L2, g, k, px, py;
} dpendulum;

static int d_mass(const mbd_system *s, double t, const gsl_vector *q, gsl_matrix *M)
{
    const dpendulum *d = s->model;
    (void)t, (void)q;
    gsl_matrix_set_zero(M);
    for (size_t i = 0; i < 2; i++) {
        gsl_matrix_set(M, i, i, d->m1 + d->m2);
        gsl_matrix_set(M, i, 2 + i, d->m2);
        gsl_matrix_set(M, 2 + i, i, d->m2);
        gsl_matrix_set(M, 2 + i, 2 + i, d->m2);
    }
    return GSL_SUCCESS;
}

/* F = -grad V, V = m1 g y1 + m2 g (y1 + v) + k/2 |r1 + d - p|^2 */
static int d_force(const mbd_system *s, double t, const gsl_vector *q, const gsl_vector *qd,
                   gsl_vector *F)
{
    const dpendulum *d = s->model;
    (void)t, (void)qd;
    const double sx = d->k * (X(q, 0) + X(q, 2) - d->px), sy = d->k * (X(q, 1) + X(q, 3) - d->py);
    gsl_vector_set(F, 0, -sx);
    gsl_vector_set(F, 1, -(d->m1 + d->m2) * d->g - sy);
    gsl_vector_set(F, 2, -sx);
    gsl_vector_set(F, 3, -d->m2 * d->g - sy);
    return GSL_SUCCESS;
}

static int d_constraint(const mbd_system *s, double t, const gsl_vector *q, gsl_vector *C)
{
    const dpendulum *d = s->model;
    (void)t;
    gsl_vector_set(C, 0, X(q, 0) * X(q, 0) + X(q, 1) * X(q, 1) - d->L1 * d->L1);
    gsl_vector_set(C, 1, X(q, 2) * X(q, 2) + X(q, 3) * X(q, 3) - d->L2 * d->L2);
    return GSL_SUCCESS;
}

static int d_jacobian(const mbd_system *s, double t, const gsl_vector *q, gsl_matrix *Cq)
{
    (void)s, (void)t;
    gsl_matrix_set_zero(Cq);
    gsl_matrix_set(Cq, 0, 0, 2 * X(q, 0));
    gsl_matrix_set(Cq, 0, 1, 2 * X(q, 1));
    gsl_matrix_set(Cq, 1, 2, 2 * X(q, 2));
    gsl_matrix_set(Cq, 1, 3, 2 * X(q, 3));
    return GSL_SUCCESS;
}

static int d_gamma(const mbd_system *s, double t, const gsl_vector *q, const gsl_vector *qd,
                   gsl_vector *g)
{
    (void)s, (void)t, (void)q;
    gsl_vector_set(g, 0, -2.0 * (X(qd, 0) * X(qd, 0) + X(qd, 1) * X(qd, 1)));
    gsl_vector_set(g, 1, -2.0 * (X(qd, 2) * X(qd, 2) + X(qd, 3) * X(qd, 3)));
    return GSL_SUCCESS;
}

static int d_energy(const mbd_system *s, double t, const gsl_vector *q, const gsl_vector *qd,
                    double *E)
{
    const dpendulum *d = s->model;
    (void)t;
    const double a = X(qd, 0), b = X(qd, 1), c = X(qd, 0) + X(qd, 2), e = X(qd, 1) + X(qd, 3);
    const double sx = X(q, 0) + X(q, 2) - d->px, sy = X(q, 1) + X(q, 3) - d->py;
    *E = 0.5 * d->m1 * (a * a + b * b) + 0.5 * d->m2 * (c * c + e * e)
         + d->m1 * d->g * X(q, 1) + d->m2 * d->g * (X(q, 1) + X(q, 3))
         + 0.5 * d->k * (sx * sx + sy * sy);
    return GSL_SUCCESS;
}

static const char *const D_NAMES[] = {"x1", "y1", "u", "v"};

static mbd_system double_system(dpendulum *d)
{
    mbd_system s = {.n = 4, .m = 2, .names = D_NAMES, .model = d, .mass = d_mass,
                    .force = d_force, .constraint = d_constraint, .jacobian = d_jacobian,
                    .gamma = d_gamma, .energy = d_energy};
    return s;
}

static dpendulum double_data(void) { return (dpendulum){1.3, 0.7, 1.1, 0.6, 9.81, 4.0, 0.5, -1.0}; }

/* angles th1, th2 from the downward vertical, rates w1, w2 */
static void double_state(const dpendulum *d, double th1, double th2, double w1, double w2,
                         double q[4], double qd[4])
{
    q[0] = d->L1 * sin(th1);
    q[1] = -d->L1 * cos(th1);
    q[2] = d->L2 * sin(th2);
    q[3] = -d->L2 * cos(th2);
    qd[0] = d->L1 * w1 * cos(th1);
    qd[1] = d->L1 * w1 * sin(th1);
    qd[2] = d->L2 * w2 * cos(th2);
    qd[3] = d->L2 * w2 * sin(th2);
}

/* ------------------------------------------------------------------------ */
/* Helpers                                                                   */

static mbd_formulation *make(const mbd_system *s, const char *method,
                             const mbd_formulation_params *extra)
{
    mbd_formulation_params p = {0};
    if (extra)
        p = *extra;
    if (mbd_formulation_method(method, &p) != GSL_SUCCESS)
        return NULL;
    return mbd_formulation_alloc(s, &p);
}

/* q'' and lambda of a formulation at (t, q, q') */
static int accel_of(mbd_formulation *f, double t, const double *q, const double *qd,
                    double *qdd, double *lambda)
{
    const size_t n = mbd_formulation_system(f)->n, m = mbd_formulation_system(f)->m;
    gsl_vector_const_view qv = gsl_vector_const_view_array(q, n);
    gsl_vector_const_view qdv = gsl_vector_const_view_array(qd, n);
    gsl_vector_view a = gsl_vector_view_array(qdd, n);
    gsl_vector_view l = gsl_vector_view_array(lambda, m);
    return mbd_formulation_accel(f, t, &qv.vector, &qdv.vector, &a.vector, &l.vector);
}

static void check_model(const mbd_system *s, const double *q_, const double *qd_)
{
    gsl_vector_const_view q = gsl_vector_const_view_array(q_, s->n);
    gsl_vector_const_view qd = gsl_vector_const_view_array(qd_, s->n);
    mbd_fdcheck fd;
    REQUIRE_STATUS(mbd_system_check_derivatives(s, 0.3, &q.vector, &qd.vector, 0, &fd),
                   GSL_SUCCESS);
    CHECK_LE(fd.jacobian_rel, 1e-8);
    CHECK_LE(fd.gamma_rel, 1e-5);
}

/* ------------------------------------------------------------------------ */
/* Tests                                                                     */

static void models_are_right(void)
{
    pendulum p = pendulum_data();
    mbd_system s = pendulum_system(&p);
    const double q[2] = {0.6, -1.1}, qd[2] = {0.9, -0.4};
    check_model(&s, q, qd);
    dpendulum d = double_data();
    mbd_system s2 = double_system(&d);
    const double q2[4] = {0.5, -0.9, 0.4, -0.3}, qd2[4] = {0.7, -0.2, 1.1, 0.8};
    check_model(&s2, q2, qd2);
}

/* (1) The pendulum at random consistent states: the right-hand side on
 * (q_i, q_i') agrees with the projection's q'' in the independent
 * coordinate, and with the closed form phi'' = -(g/R) sin phi; unpack gives
 * back the full state; mbd_formulation_accel gives the projection's q'' and
 * multiplier, on and off the constraint. */
static void pendulum_against_projection(void)
{
    pendulum p = pendulum_data();
    mbd_system s = pendulum_system(&p);
    mbd_formulation *emb = make(&s, "embedding", NULL), *proj = make(&s, "projection", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(emb);
    CU_ASSERT_PTR_NOT_NULL_FATAL(proj);
    CU_ASSERT_EQUAL(mbd_formulation_dim(emb), 2);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 16);
    int seen[2] = {0, 0};
    for (int trial = 0; trial < 40; trial++) {
        const double phi = 2 * PI * gsl_rng_uniform(rng) - PI;
        const double w = 8 * gsl_rng_uniform(rng) - 4, t = gsl_rng_uniform(rng);
        double q[2], qd[2], y[2], dy[2], qa[2], lam, qe[2], lame, qb[2], qdb[2];
        pendulum_state(&p, phi, w, q, qd);
        REQUIRE_STATUS(mbd_formulation_pack(emb, t, q, qd, y), GSL_SUCCESS);
        size_t ind = 9;
        CU_ASSERT_EQUAL(mbd_formulation_independent(emb, &ind), 1);
        CU_ASSERT_TRUE_FATAL(ind < 2);
        seen[ind] = 1;
        /* the better pivoted coordinate is dependent: |C_q_d| >= |C_q_i| */
        CHECK_MSG(fabs(q[1 - ind]) >= fabs(q[ind]), "phi = %g: %s independent", phi,
                  P_NAMES[ind]);
        CHECK_CLOSE(y[0], q[ind], 0);
        CHECK_CLOSE(y[1], qd[ind], 0);
        REQUIRE_STATUS(mbd_formulation_unpack(emb, t, y, qb, qdb), GSL_SUCCESS);
        for (int i = 0; i < 2; i++) {
            CHECK_CLOSE(qb[i], q[i], 1e-12);
            CHECK_CLOSE(qdb[i], qd[i], 1e-12);
        }
        REQUIRE_STATUS(mbd_formulation_rhs(t, y, dy, emb), GSL_SUCCESS);
        REQUIRE_STATUS(accel_of(proj, t, q, qd, qa, &lam), GSL_SUCCESS);
        CHECK_CLOSE(dy[0], qd[ind], 0);
        CHECK_CLOSE(dy[1], qa[ind], 1e-10);
        /* the closed form */
        const double phidd = -(p.g / p.R) * sin(phi);
        const double exact[2] = {p.R * (phidd * cos(phi) - w * w * sin(phi)),
                                 p.R * (phidd * sin(phi) + w * w * cos(phi))};
        CHECK_CLOSE(dy[1], exact[ind], 1e-10);
        /* accel: all of q'' and the multiplier */
        REQUIRE_STATUS(accel_of(emb, t, q, qd, qe, &lame), GSL_SUCCESS);
        CHECK_CLOSE(qe[0], qa[0], 1e-10);
        CHECK_CLOSE(qe[1], qa[1], 1e-10);
        CHECK_CLOSE(lame, lam, 1e-10);
    }
    CHECK_MSG(seen[0] && seen[1], "both coordinates should have been chosen independent");
    /* off the constraint, with radial velocity: the same linear system */
    const double q[2] = {0.8, -1.2}, qd[2] = {1.1, 0.3};
    double qa[2], lam, qe[2], lame;
    REQUIRE_STATUS(accel_of(proj, 0, q, qd, qa, &lam), GSL_SUCCESS);
    REQUIRE_STATUS(accel_of(emb, 0, q, qd, qe, &lame), GSL_SUCCESS);
    CHECK_CLOSE(qe[0], qa[0], 1e-10);
    CHECK_CLOSE(qe[1], qa[1], 1e-10);
    CHECK_CLOSE(lame, lam, 1e-10);
    gsl_rng_free(rng);
    mbd_formulation_free(emb);
    mbd_formulation_free(proj);
}

/* (2) The double pendulum (non-diagonal M, a spring off the axis) at random
 * consistent states: embedding against projection for q_i'' (rhs), q'' and
 * lambda (accel), to 1e-10 relative to the size of the value. */
static void double_pendulum_against_projection(void)
{
    dpendulum d = double_data();
    mbd_system s = double_system(&d);
    mbd_formulation *emb = make(&s, "embedding", NULL), *proj = make(&s, "projection", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(emb);
    CU_ASSERT_PTR_NOT_NULL_FATAL(proj);
    CU_ASSERT_EQUAL(mbd_formulation_dim(emb), 4);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 4);
    for (int trial = 0; trial < 40; trial++) {
        double th[2], w[2];
        for (int i = 0; i < 2; i++) {
            th[i] = 2 * PI * gsl_rng_uniform(rng) - PI;
            w[i] = 6 * gsl_rng_uniform(rng) - 3;
        }
        double q[4], qd[4], y[4], dy[4], qa[4], lam[2], qe[4], lame[2];
        double_state(&d, th[0], th[1], w[0], w[1], q, qd);
        REQUIRE_STATUS(mbd_formulation_pack(emb, 0, q, qd, y), GSL_SUCCESS);
        size_t ind[2];
        CU_ASSERT_EQUAL(mbd_formulation_independent(emb, ind), 2);
        REQUIRE_STATUS(mbd_formulation_rhs(0, y, dy, emb), GSL_SUCCESS);
        REQUIRE_STATUS(accel_of(proj, 0, q, qd, qa, lam), GSL_SUCCESS);
        REQUIRE_STATUS(accel_of(emb, 0, q, qd, qe, lame), GSL_SUCCESS);
        for (int j = 0; j < 2; j++) {
            CHECK_CLOSE(dy[j], qd[ind[j]], 0);
            CHECK_CLOSE(dy[2 + j], qa[ind[j]], 1e-10 * fmax(1, fabs(qa[ind[j]])));
            CHECK_CLOSE(lame[j], lam[j], 1e-10 * fmax(1, fabs(lam[j])));
        }
        for (int i = 0; i < 4; i++)
            CHECK_CLOSE(qe[i], qa[i], 1e-10 * fmax(1, fabs(qa[i])));
    }
    gsl_rng_free(rng);
    mbd_formulation_free(emb);
    mbd_formulation_free(proj);
}

/* one run of a formulation through the pipeline */
static int run(const mbd_system *s, const char *method, const mbd_formulation_params *extra,
               const char *integrator, double h, double t_end, double dt_out, const double *q0,
               const double *qd0, mbd_history *hist, mbd_sim_stats *st, mbd_failure *fl,
               size_t *reselections, mbd_formulation_reselection *first)
{
    mbd_formulation *f = make(s, method, extra);
    if (f == NULL)
        return GSL_ENOMEM;
    mbd_ode_params op;
    mbd_ode_preset(integrator, &op);
    if (h > 0)
        op.h = h;
    mbd_sim_params sp = {.t0 = 0, .t_end = t_end, .dt_out = dt_out, .max_violation = 1};
    int r = mbd_simulate(f, &op, &sp, q0, qd0, hist, st, fl);
    if (reselections)
        *reselections = mbd_formulation_reselections(f);
    if (first && mbd_formulation_reselection_get(f, 0, first) != GSL_SUCCESS)
        first->t = NAN;
    mbd_formulation_free(f);
    return r;
}

/* (2) The double pendulum through the run loop: |C| below 1e-10 at every
 * step, the energy kept to the integrator's accuracy (Dormand-Prince at
 * 1e-10; RK4's error falls about 16-fold per halving of h), the motion the
 * projection's. */
static void double_pendulum_run(void)
{
    dpendulum d = double_data();
    mbd_system s = double_system(&d);
    double q0[4], qd0[4];
    double_state(&d, 2.0, -0.5, 0.0, 3.0, q0, qd0);
    mbd_history he, hp;
    mbd_history_init(&he);
    mbd_history_init(&hp);
    mbd_sim_stats se, sp;
    mbd_failure fl;
    size_t count = 0;
    int st = run(&s, "embedding", NULL, "tight", 0, 5.0, 0.0, q0, qd0, NULL, &se, &fl, &count,
                 NULL);
    CHECK_MSG(st == GSL_SUCCESS, "embedding: %s", fl.cause);
    CHECK_LE(se.max_C, 1e-10);
    CHECK_LE(se.max_Cdot, 1e-10);
    CHECK_LE(se.max_dE, 1e-6);   /* E0 = 8.32 J */
    CU_ASSERT_EQUAL(se.run.corrections, (long)count);   /* a re-selection resets the integrator */
    /* against the projection on a common grid */
    REQUIRE_STATUS(run(&s, "embedding", NULL, "tight", 0, 5.0, 0.05, q0, qd0, &he, &se, &fl, NULL,
                       NULL),
                   GSL_SUCCESS);
    REQUIRE_STATUS(run(&s, "projection", NULL, "tight", 0, 5.0, 0.05, q0, qd0, &hp, &sp, &fl, NULL,
                       NULL),
                   GSL_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(he.rows, hp.rows);
    double diff = 0;
    for (size_t k = 0; k < he.rows; k++)
        for (size_t i = 0; i < 4; i++)
            diff = fmax(diff, fabs(mbd_history_q(&he, k)[i] - mbd_history_q(&hp, k)[i]));
    CHECK_LE(diff, 1e-6);
    CHECK_LE(se.max_C, 1e-10);   /* interpolated outputs are unpacked onto C = 0 too */
    /* RK4 at h and h/2: the energy error falls by 2^4 */
    mbd_sim_stats s1, s2;
    REQUIRE_STATUS(run(&s, "embedding", NULL, "rk4", 4e-3, 2.0, 0.0, q0, qd0, NULL, &s1, &fl,
                       NULL, NULL),
                   GSL_SUCCESS);
    REQUIRE_STATUS(run(&s, "embedding", NULL, "rk4", 2e-3, 2.0, 0.0, q0, qd0, NULL, &s2, &fl,
                       NULL, NULL),
                   GSL_SUCCESS);
    CHECK_LE(s1.max_C, 1e-10);
    CHECK_IN(s1.max_dE / s2.max_dE, 12.0, 24.0);
    mbd_history_free(&he);
    mbd_history_free(&hp);
}

/* the pendulum from the bottom with v^2 = 3 g R: it swings above the
 * horizontal (to y = R / 2) and back */
static void swing_start(const pendulum *p, double q0[2], double qd0[2])
{
    pendulum_state(p, 0.0, sqrt(3 * p->g * p->R) / p->R, q0, qd0);
}

/* the first times of the projection's history at which the rod is at 45
 * degrees below the horizontal and at the horizontal */
static void swing_times(const mbd_history *h, double *t45, double *th)
{
    *t45 = *th = NAN;
    for (size_t k = 0; k < h->rows; k++) {
        const double *q = mbd_history_q(h, k);
        if (isnan(*t45) && fabs(q[0]) >= fabs(q[1]))
            *t45 = h->t[k];
        if (isnan(*th) && q[1] >= 0) {
            *th = h->t[k];
            break;
        }
    }
}

/* (3) Starting at the bottom, x is independent; before the rod reaches the
 * horizontal (x = +-R, where C_q_d = 2y vanishes) x's pivot falls below half
 * of y's and y takes over, and back again near the bottom. Each
 * re-selection is counted, resets the integrator, and the motion is the
 * projection's to the integrators' tolerance. */
static void reselection_at_the_horizontal(void)
{
    pendulum p = pendulum_data();
    mbd_system s = pendulum_system(&p);
    double q0[2], qd0[2];
    swing_start(&p, q0, qd0);
    mbd_history he, hp;
    mbd_history_init(&he);
    mbd_history_init(&hp);
    mbd_sim_stats se, sp;
    mbd_failure fl;
    size_t count = 0;
    mbd_formulation_reselection first;
    int st = run(&s, "embedding", NULL, "tight", 0, 4.0, 1e-3, q0, qd0, &he, &se, &fl, &count,
                 &first);
    CHECK_MSG(st == GSL_SUCCESS, "embedding: %s", fl.cause);
    REQUIRE_STATUS(run(&s, "projection", NULL, "tight", 0, 4.0, 1e-3, q0, qd0, &hp, &sp, &fl,
                       NULL, NULL),
                   GSL_SUCCESS);
    double t45, th;
    swing_times(&hp, &t45, &th);
    CU_ASSERT_FATAL(isfinite(t45) && isfinite(th));
    CHECK_GE(count, 4);
    CU_ASSERT_EQUAL(se.run.corrections, (long)count);
    CU_ASSERT_EQUAL(se.run.ode.resets, (long)count);
    CU_ASSERT_EQUAL(first.left, 0);     /* x */
    CU_ASSERT_EQUAL(first.joined, 1);   /* y */
    CU_ASSERT_EQUAL(first.swapped, 1);
    CU_ASSERT_EQUAL(first.cause, MBD_FORMULATION_RESELECT_PIVOT);
    CHECK_IN(first.ratio, 0.3, 0.5);
    CHECK_IN(first.t, t45, th);
    CU_ASSERT_EQUAL_FATAL(he.rows, hp.rows);
    double diff = 0, vdiff = 0;
    for (size_t k = 0; k < he.rows; k++)
        for (size_t i = 0; i < 2; i++) {
            diff = fmax(diff, fabs(mbd_history_q(&he, k)[i] - mbd_history_q(&hp, k)[i]));
            vdiff = fmax(vdiff, fabs(mbd_history_qd(&he, k)[i] - mbd_history_qd(&hp, k)[i]));
        }
    CHECK_LE(diff, 1e-7);
    CHECK_LE(vdiff, 1e-6);
    CHECK_LE(se.max_C, 1e-10);
    CHECK_LE(se.max_dE, 1e-6);   /* E0 = 14.7 J */
    /* the events kept: alternating x -> y, y -> x, at increasing times */
    mbd_formulation *f = make(&s, "embedding", NULL);
    mbd_ode_params op;
    mbd_ode_preset("tight", &op);
    mbd_sim_params sim = {.t0 = 0, .t_end = 4.0, .dt_out = 0.1};
    REQUIRE_STATUS(mbd_simulate(f, &op, &sim, q0, qd0, NULL, NULL, &fl), GSL_SUCCESS);
    const size_t n_ev = mbd_formulation_reselections(f);
    CU_ASSERT_EQUAL(n_ev, count);
    double last = -1;
    for (size_t k = 0; k < n_ev; k++) {
        mbd_formulation_reselection ev;
        REQUIRE_STATUS(mbd_formulation_reselection_get(f, k, &ev), GSL_SUCCESS);
        CU_ASSERT_EQUAL(ev.left, k % 2);
        CU_ASSERT_EQUAL(ev.joined, 1 - k % 2);
        CU_ASSERT_TRUE(ev.t > last);
        last = ev.t;
    }
    mbd_formulation_reselection ev;
    CHECK_STATUS(mbd_formulation_reselection_get(f, n_ev, &ev), MBD_EINPUT);
    mbd_formulation_free(f);
    mbd_history_free(&he);
    mbd_history_free(&hp);
}

/* (4) The same swing with x forced independent: at the horizontal C_q_d = 2y
 * is singular and x cannot pass x = R; the run stops there with the time
 * and the cause, nothing re-selected. Forcing y at the bottom (where
 * C_q_d = 2x = 0) is refused at once. */
static void forced_set_fails(void)
{
    pendulum p = pendulum_data();
    mbd_system s = pendulum_system(&p);
    double q0[2], qd0[2];
    swing_start(&p, q0, qd0);
    mbd_history hp, he;
    mbd_history_init(&hp);
    mbd_history_init(&he);
    mbd_sim_stats st;
    mbd_failure fl;
    REQUIRE_STATUS(run(&s, "projection", NULL, "tight", 0, 4.0, 1e-3, q0, qd0, &hp, &st, &fl,
                       NULL, NULL),
                   GSL_SUCCESS);
    double t45, th;
    swing_times(&hp, &t45, &th);
    const size_t x = 0, y = 1;
    const char *integrators[] = {"tight", "ode23", "rk4"};
    for (size_t i = 0; i < 3; i++) {
        mbd_formulation_params fp = {.independent = &x, .n_independent = 1};
        size_t count = 99;
        int r = run(&s, "embedding", &fp, integrators[i], 1e-3, 4.0, 1e-3, q0, qd0, &he, &st, &fl,
                    &count, NULL);
        CHECK_MSG(r == MBD_ENOCONV || r == MBD_ESINGULAR, "%s: status %d (%s)", integrators[i], r,
                  mbd_strerror(r));
        CHECK_IN(fl.time, t45, th + 0.01);
        CHECK_MSG((strstr(fl.cause, "Newton") || strstr(fl.cause, "singular"))
                      && strstr(fl.cause, "(y)") && strstr(fl.cause, "(x)"),
                  "%s: cause: %s", integrators[i], fl.cause);
        CU_ASSERT_EQUAL(count, 0);
        CU_ASSERT_TRUE(he.rows > 10);
        CHECK_LE(he.t[he.rows - 1], fl.time);
        CHECK_LE(st.max_C, 1e-10);   /* what was recorded held the constraint */
    }
    /* y forced at the bottom: C_q_d = 2x = 0 */
    mbd_formulation_params fp = {.independent = &y, .n_independent = 1};
    mbd_formulation *f = make(&s, "embedding", &fp);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    double yy[2];
    CHECK_STATUS(mbd_formulation_pack(f, 0.5, q0, qd0, yy), MBD_ESINGULAR);
    CHECK_CLOSE(mbd_formulation_failure(f)->time, 0.5, 0);
    CHECK_MSG(strstr(mbd_formulation_failure(f)->cause, "C_q_d") != NULL, "cause: %s",
              mbd_formulation_failure(f)->cause);
    mbd_formulation_free(f);
    mbd_history_free(&hp);
    mbd_history_free(&he);
}

/* (5) A given set that may be left (reselect_independent): released from
 * rest at 0.6 rad from the bottom with y given independent, C_q_d = 2x's
 * pivot is tan(phi) of the best block's (2|y|); the run starts with y,
 * keeps it while tan(phi) >= 0.5 and hands over to x once, as the rod
 * passes atan(0.5), and moves as the projection does. A second pack starts
 * from y again: the given set, not the one the last run ended with. */
static void given_set_reselected(void)
{
    pendulum p = pendulum_data();
    mbd_system s = pendulum_system(&p);
    double q0[2], qd0[2];
    pendulum_state(&p, 0.6, 0.0, q0, qd0);
    const size_t y = 1;
    mbd_formulation_params fp = {.independent = &y, .n_independent = 1,
                                 .reselect_independent = 1};
    mbd_formulation *f = make(&s, "embedding", &fp);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    double yy[2];
    size_t ind = 9;
    REQUIRE_STATUS(mbd_formulation_pack(f, 0.0, q0, qd0, yy), GSL_SUCCESS);
    CU_ASSERT_EQUAL(mbd_formulation_independent(f, &ind), 1);
    CU_ASSERT_EQUAL(ind, y);
    mbd_ode_params op;
    mbd_ode_preset("tight", &op);
    mbd_sim_params sp = {.t0 = 0, .t_end = 1.0, .dt_out = 1e-3, .max_violation = 1};
    mbd_history he, hp;
    mbd_history_init(&he);
    mbd_history_init(&hp);
    mbd_sim_stats se, sps;
    mbd_failure fl;
    REQUIRE_STATUS(mbd_simulate(f, &op, &sp, q0, qd0, &he, &se, &fl), GSL_SUCCESS);
    REQUIRE_STATUS(run(&s, "projection", NULL, "tight", 0, 1.0, 1e-3, q0, qd0, &hp, &sps, &fl,
                       NULL, NULL),
                   GSL_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(mbd_formulation_reselections(f), 1);
    mbd_formulation_reselection ev;
    REQUIRE_STATUS(mbd_formulation_reselection_get(f, 0, &ev), GSL_SUCCESS);
    CU_ASSERT_EQUAL(ev.left, y);
    CU_ASSERT_EQUAL(ev.joined, 0);
    CU_ASSERT_EQUAL(ev.cause, MBD_FORMULATION_RESELECT_PIVOT);
    CHECK_IN(ev.ratio, 0.4, 0.5);
    /* the projection's first output with tan(phi) = x / -y below 0.5 */
    double t_cross = NAN;
    for (size_t k = 0; k < hp.rows && isnan(t_cross); k++) {
        const double *q = mbd_history_q(&hp, k);
        if (q[0] < -0.5 * q[1])
            t_cross = hp.t[k];
    }
    CU_ASSERT_FATAL(isfinite(t_cross));
    CHECK_IN(ev.t, t_cross - 1e-3, t_cross + 0.05);   /* at the end of the step across */
    CU_ASSERT_EQUAL_FATAL(he.rows, hp.rows);
    double diff = 0;
    for (size_t k = 0; k < he.rows; k++)
        for (size_t i = 0; i < 2; i++)
            diff = fmax(diff, fabs(mbd_history_q(&he, k)[i] - mbd_history_q(&hp, k)[i]));
    CHECK_LE(diff, 1e-7);
    CHECK_LE(se.max_C, 1e-10);
    mbd_formulation_independent(f, &ind);
    CU_ASSERT_EQUAL(ind, 0);                          /* the run ended with x */
    REQUIRE_STATUS(mbd_formulation_pack(f, 0.0, q0, qd0, yy), GSL_SUCCESS);
    mbd_formulation_independent(f, &ind);
    CU_ASSERT_EQUAL(ind, y);                          /* a new run starts from y */
    CU_ASSERT_EQUAL(mbd_formulation_reselections(f), 0);
    mbd_formulation_free(f);
    /* held throughout, y goes on past atan(0.5) until the rod nears the
     * bottom, where C_q_d = 2x vanishes: a failure, nothing re-selected */
    fp.reselect_independent = 0;
    size_t count = 99;
    const int r = run(&s, "embedding", &fp, "tight", 0, 1.0, 1e-3, q0, qd0, &he, &se, &fl, &count,
                      NULL);
    CHECK_MSG(r == MBD_ESINGULAR || r == MBD_ENOCONV, "held y: status %d", r);
    CU_ASSERT_EQUAL(count, 0);
    CHECK_GE(fl.time, t_cross);
    mbd_history_free(&he);
    mbd_history_free(&hp);
}

/* The condition number is that of K = [C_q; I_d]: with x independent,
 * K = [2x 2y; 1 0], |K|_1 = max(2|x| + 1, 2|y|), |K^-1|_1 = max(1/(2|y|),
 * 1 + |x/y|); it grows without bound towards the horizontal. */
static void condition_of_K(void)
{
    pendulum p = pendulum_data();
    mbd_system s = pendulum_system(&p);
    const size_t x = 0;
    mbd_formulation_params fp = {.independent = &x, .n_independent = 1};
    mbd_formulation *f = make(&s, "embedding", &fp);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    double prev = 0;
    for (double phi = 0.3; phi < 1.57; phi += 0.3) {
        double q[2], qd[2], yv[2], cond = 0;
        pendulum_state(&p, phi, 0.7, q, qd);
        REQUIRE_STATUS(mbd_formulation_pack(f, 0, q, qd, yv), GSL_SUCCESS);
        REQUIRE_STATUS(mbd_formulation_condition(f, 0, yv, &cond), GSL_SUCCESS);
        const double ax = fabs(q[0]), ay = fabs(q[1]);
        const double exact = fmax(2 * ax + 1, 2 * ay) * fmax(1 / (2 * ay), 1 + ax / ay);
        CHECK_CLOSE(cond, exact, 1e-12 * exact);
        CU_ASSERT_TRUE(cond > prev);
        prev = cond;
    }
    CHECK_GE(prev, 30);
    mbd_formulation_free(f);
}

/* A step that ends where Newton cannot follow the current set (x past R,
 * as a coarse step can land) is re-selected by projecting the state onto
 * C = 0 and C' = 0 first; the event says so. */
static void newton_failure_reselects(void)
{
    pendulum p = pendulum_data();
    mbd_system s = pendulum_system(&p);
    mbd_formulation *f = make(&s, "embedding", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    double q0[2], qd0[2], y[2];
    swing_start(&p, q0, qd0);
    REQUIRE_STATUS(mbd_formulation_pack(f, 0, q0, qd0, y), GSL_SUCCESS);
    size_t ind = 9;
    mbd_formulation_independent(f, &ind);
    CU_ASSERT_EQUAL(ind, 0);
    y[0] = 1.01 * p.R;   /* no y solves x^2 + y^2 = R^2 */
    y[1] = 0.3;
    int changed = 0;
    REQUIRE_STATUS(mbd_formulation_post_step(f, 0.2, y, &changed), GSL_SUCCESS);
    CU_ASSERT_EQUAL(changed, 1);
    CU_ASSERT_EQUAL(mbd_formulation_reselections(f), 1);
    mbd_formulation_reselection ev;
    REQUIRE_STATUS(mbd_formulation_reselection_get(f, 0, &ev), GSL_SUCCESS);
    CU_ASSERT_EQUAL(ev.cause, MBD_FORMULATION_RESELECT_NEWTON);
    CU_ASSERT(isnan(ev.ratio));
    CHECK_CLOSE(ev.t, 0.2, 0);
    double C = 1, Cd = 1, E;
    REQUIRE_STATUS(mbd_formulation_measure(f, 0.2, y, &C, &Cd, &E), GSL_SUCCESS);
    CHECK_LE(C, 1e-12);
    CHECK_LE(Cd, 1e-12);
    CU_ASSERT_EQUAL(mbd_formulation_failure(f)->status, GSL_SUCCESS);
    /* with x forced the same end of step is the formulation's failure */
    const size_t x = 0;
    mbd_formulation_params fp = {.independent = &x, .n_independent = 1};
    mbd_formulation *g = make(&s, "embedding", &fp);
    REQUIRE_STATUS(mbd_formulation_pack(g, 0, q0, qd0, y), GSL_SUCCESS);
    y[0] = 1.01 * p.R;
    CHECK_STATUS(mbd_formulation_post_step(g, 0.2, y, &changed), MBD_ENOCONV);
    CHECK_CLOSE(mbd_formulation_failure(g)->time, 0.2, 0);
    mbd_formulation_free(g);
    mbd_formulation_free(f);
}

/* An inconsistent start is moved onto the constraints with its independent
 * coordinate and velocity held (the document's set-up). */
static void pack_holds_the_independent_coordinates(void)
{
    pendulum p = pendulum_data();
    mbd_system s = pendulum_system(&p);
    mbd_formulation *f = make(&s, "embedding", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    const double q0[2] = {0.3, -1.7}, qd0[2] = {1.0, 0.4};   /* |q| != R, q . q' != 0 */
    double y[2], q[2], qd[2];
    REQUIRE_STATUS(mbd_formulation_pack(f, 0, q0, qd0, y), GSL_SUCCESS);
    CHECK_CLOSE(y[0], 0.3, 0);
    CHECK_CLOSE(y[1], 1.0, 0);
    REQUIRE_STATUS(mbd_formulation_unpack(f, 0, y, q, qd), GSL_SUCCESS);
    CHECK_CLOSE(q[1], -sqrt(p.R * p.R - 0.09), 1e-13);   /* the branch of y0 */
    CHECK_CLOSE(q[0] * qd[0] + q[1] * qd[1], 0.0, 1e-12);
    mbd_formulation_free(f);
}

/* m = 0: the embedding is M q'' = F on [q; q']; a projectile. */
static int f_mass(const mbd_system *s, double t, const gsl_vector *q, gsl_matrix *M)
{
    (void)s, (void)t, (void)q;
    gsl_matrix_set_identity(M);
    gsl_matrix_scale(M, 3.0);
    return GSL_SUCCESS;
}

static int f_force(const mbd_system *s, double t, const gsl_vector *q, const gsl_vector *qd,
                   gsl_vector *F)
{
    (void)s, (void)t, (void)q, (void)qd;
    gsl_vector_set(F, 0, 0.0);
    gsl_vector_set(F, 1, -3.0 * 9.81);
    return GSL_SUCCESS;
}

static void unconstrained_system(void)
{
    mbd_system s = {.n = 2, .m = 0, .names = P_NAMES, .mass = f_mass, .force = f_force};
    mbd_formulation *proj = make(&s, "projection", NULL);
    CU_ASSERT_PTR_NULL(proj);                          /* the other kinds refuse m = 0 */
    mbd_formulation *f = make(&s, "embedding", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_EQUAL(mbd_formulation_dim(f), 4);
    size_t ind[2];
    CU_ASSERT_EQUAL(mbd_formulation_independent(f, ind), 2);
    const double q0[2] = {0.0, 1.0}, qd0[2] = {2.0, 5.0};
    double y[4], dy[4];
    REQUIRE_STATUS(mbd_formulation_pack(f, 0, q0, qd0, y), GSL_SUCCESS);
    REQUIRE_STATUS(mbd_formulation_rhs(0, y, dy, f), GSL_SUCCESS);
    CHECK_CLOSE(dy[0], 2.0, 0);
    CHECK_CLOSE(dy[1], 5.0, 0);
    CHECK_CLOSE(dy[2], 0.0, 1e-15);
    CHECK_CLOSE(dy[3], -9.81, 1e-14);
    mbd_ode_params op;
    mbd_ode_preset("tight", &op);
    mbd_sim_params sp = {.t0 = 0, .t_end = 1.0, .dt_out = 0.25};
    mbd_history h;
    mbd_history_init(&h);
    mbd_sim_stats st;
    mbd_failure fl;
    REQUIRE_STATUS(mbd_simulate(f, &op, &sp, q0, qd0, &h, &st, &fl), GSL_SUCCESS);
    CU_ASSERT_EQUAL(h.rows, 5);
    for (size_t k = 0; k < h.rows; k++) {
        const double t = h.t[k];
        CHECK_CLOSE(mbd_history_q(&h, k)[0], 2.0 * t, 1e-10);
        CHECK_CLOSE(mbd_history_q(&h, k)[1], 1.0 + 5.0 * t - 0.5 * 9.81 * t * t, 1e-10);
        CHECK_CLOSE(h.C_norm[k], 0.0, 0);
    }
    double cond = 0;
    REQUIRE_STATUS(mbd_formulation_condition(f, 0, y, &cond), GSL_SUCCESS);
    CHECK_CLOSE(cond, 1.0, 0);
    mbd_history_free(&h);
    mbd_formulation_free(f);
}

/* A driven (rheonomic) constraint: a bead whose x is driven,
 * C = x - a sin(w t), falling freely in y. x is dependent (C_q = [1 0]); its
 * velocity comes from C_t, its acceleration from gamma = -a w^2 sin(w t). */
static int b_constraint(const mbd_system *s, double t, const gsl_vector *q, gsl_vector *C)
{
    (void)s;
    gsl_vector_set(C, 0, X(q, 0) - 0.7 * sin(1.3 * t));
    return GSL_SUCCESS;
}

static int b_jacobian(const mbd_system *s, double t, const gsl_vector *q, gsl_matrix *Cq)
{
    (void)s, (void)t, (void)q;
    gsl_matrix_set(Cq, 0, 0, 1.0);
    gsl_matrix_set(Cq, 0, 1, 0.0);
    return GSL_SUCCESS;
}

static int b_constraint_t(const mbd_system *s, double t, const gsl_vector *q, gsl_vector *Ct)
{
    (void)s, (void)q;
    gsl_vector_set(Ct, 0, -0.7 * 1.3 * cos(1.3 * t));
    return GSL_SUCCESS;
}

static int b_gamma(const mbd_system *s, double t, const gsl_vector *q, const gsl_vector *qd,
                   gsl_vector *g)
{
    (void)s, (void)q, (void)qd;
    gsl_vector_set(g, 0, -0.7 * 1.3 * 1.3 * sin(1.3 * t));
    return GSL_SUCCESS;
}

static void driven_constraint(void)
{
    pendulum p = pendulum_data();   /* for the mass and gravity */
    mbd_system s = {.n = 2, .m = 1, .names = P_NAMES, .model = &p, .mass = p_mass,
                    .force = p_force, .constraint = b_constraint, .jacobian = b_jacobian,
                    .constraint_t = b_constraint_t, .gamma = b_gamma};
    mbd_formulation *f = make(&s, "embedding", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    const double q0[2] = {0.0, 0.2}, qd0[2] = {0.0, 0.0};   /* x' set by the drive */
    double y[2], q[2], qd[2];
    REQUIRE_STATUS(mbd_formulation_pack(f, 0, q0, qd0, y), GSL_SUCCESS);
    size_t ind = 9;
    mbd_formulation_independent(f, &ind);
    CU_ASSERT_EQUAL(ind, 1);
    REQUIRE_STATUS(mbd_formulation_unpack(f, 0, y, q, qd), GSL_SUCCESS);
    CHECK_CLOSE(qd[0], 0.7 * 1.3, 1e-14);
    mbd_ode_params op;
    mbd_ode_preset("tight", &op);
    mbd_sim_params sp = {.t0 = 0, .t_end = 2.0, .dt_out = 0.25};
    mbd_history h;
    mbd_history_init(&h);
    mbd_failure fl;
    REQUIRE_STATUS(mbd_simulate(f, &op, &sp, q0, qd0, &h, NULL, &fl), GSL_SUCCESS);
    CU_ASSERT_EQUAL(h.rows, 9);
    for (size_t k = 0; k < h.rows; k++) {
        const double t = h.t[k];
        CHECK_CLOSE(mbd_history_q(&h, k)[0], 0.7 * sin(1.3 * t), 1e-12);
        CHECK_CLOSE(mbd_history_q(&h, k)[1], 0.2 - 0.5 * p.g * t * t, 1e-9);
        CHECK_CLOSE(mbd_history_qd(&h, k)[0], 0.7 * 1.3 * cos(1.3 * t), 1e-12);
        CHECK_LE(h.Cdot_norm[k], 1e-12);
    }
    mbd_history_free(&h);
    mbd_formulation_free(f);
}

static void parameters_and_names(void)
{
    pendulum p = pendulum_data();
    mbd_system s = pendulum_system(&p);
    mbd_formulation_params fp = {0};
    REQUIRE_STATUS(mbd_formulation_method("embedding", &fp), GSL_SUCCESS);
    CU_ASSERT_EQUAL(fp.kind, MBD_FORMULATION_EMBEDDING);
    CU_ASSERT_STRING_EQUAL(mbd_formulation_kind_name(fp.kind), "embedding");
    CU_ASSERT_FALSE(mbd_formulation_correctable(&fp));
    CU_ASSERT_FALSE(mbd_formulation_uses_mu(&fp));
    CU_ASSERT_FALSE(mbd_formulation_is_stiff(&fp));
    size_t k = 0;
    while (mbd_formulation_method_names[k] && strcmp(mbd_formulation_method_names[k], "embedding"))
        k++;
    CU_ASSERT_PTR_NOT_NULL(mbd_formulation_method_names[k]);
    CU_ASSERT_PTR_NOT_NULL(mbd_formulation_method_descriptions[k]);
    /* refused: a set of the wrong size, out of range, repeated; a count
     * without a set; re-selection of a set not given; a ratio above 1; a negative tolerance; Baumgarte */
    const size_t two[2] = {0, 1}, big = 2;
    const mbd_formulation_params bad[] = {
        {.independent = two, .n_independent = 2},
        {.independent = &big, .n_independent = 1},
        {.n_independent = 1},
        {.reselect_independent = 1},
        {.reselect_ratio = 1.5},
        {.newton_tol = -1e-12},
        {.baumgarte = 1, .alpha = 1, .beta = 1},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        mbd_formulation_params b = bad[i];
        b.kind = MBD_FORMULATION_EMBEDDING;
        CHECK_MSG(mbd_formulation_alloc(&s, &b) == NULL, "case %zu should be refused", i);
    }
    dpendulum d = double_data();
    mbd_system s2 = double_system(&d);
    const size_t same[2] = {1, 1};
    mbd_formulation_params rep = {.kind = MBD_FORMULATION_EMBEDDING, .independent = same,
                                  .n_independent = 2};
    CU_ASSERT_PTR_NULL(mbd_formulation_alloc(&s2, &rep));
    /* the forced set is copied: the caller's array may go */
    size_t mine[2] = {3, 0};
    rep.independent = mine;
    mbd_formulation *f = mbd_formulation_alloc(&s2, &rep);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    mine[0] = mine[1] = 7;
    size_t ind[2];
    CU_ASSERT_EQUAL(mbd_formulation_independent(f, ind), 2);
    CU_ASSERT_EQUAL(ind[0], 0);
    CU_ASSERT_EQUAL(ind[1], 3);
    CU_ASSERT_EQUAL(mbd_formulation_get_params(f)->independent[1], 3);
    /* the other kinds have no partition */
    mbd_formulation *proj = make(&s2, "projection", NULL);
    CU_ASSERT_EQUAL(mbd_formulation_independent(proj, ind), 0);
    CU_ASSERT_EQUAL(mbd_formulation_reselections(proj), 0);
    mbd_formulation_reselection ev;
    CHECK_STATUS(mbd_formulation_reselection_get(proj, 0, &ev), MBD_EINPUT);
    /* the post-step projection needs [q; q'] */
    mbd_ode_params op;
    mbd_ode_preset("ode23", &op);
    mbd_sim_params sp = {.t0 = 0, .t_end = 1, .dt_out = 0.1, .project = 1};
    double q0[4], qd0[4];
    double_state(&d, 0.3, 0.2, 0, 0, q0, qd0);
    mbd_failure fl;
    CHECK_STATUS(mbd_simulate(f, &op, &sp, q0, qd0, NULL, NULL, &fl), MBD_EINPUT);
    mbd_formulation_free(proj);
    mbd_formulation_free(f);
}

static CU_TestInfo embedding_tests[] = {
    {"models_are_right", models_are_right},
    {"pendulum_against_projection", pendulum_against_projection},
    {"double_pendulum_against_projection", double_pendulum_against_projection},
    {"double_pendulum_run", double_pendulum_run},
    {"reselection_at_the_horizontal", reselection_at_the_horizontal},
    {"forced_set_fails", forced_set_fails},
    {"given_set_reselected", given_set_reselected},
    {"condition_of_K", condition_of_K},
    {"newton_failure_reselects", newton_failure_reselects},
    {"pack_holds_the_independent_coordinates", pack_holds_the_independent_coordinates},
    {"unconstrained_system", unconstrained_system},
    {"driven_constraint", driven_constraint},
    {"parameters_and_names", parameters_and_names},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"embedding", NULL, NULL, NULL, NULL, embedding_tests},
    CU_SUITE_INFO_NULL,
};
