/* The formulations, the post-step projection and the assembled pipeline.
 *
 * Models, each with its derivatives written by hand and checked against finite
 * differences first:
 *   circle  a mass m on a circle of radius R about the origin, gravity -y;
 *           the reference is the pendulum-angle equation phi'' = -(g/R) sin phi
 *           integrated separately (a different formulation);
 *   bead    a mass whose x is driven, C = x - a sin(w t) (rheonomic), gravity
 *           -y: x(t) = a sin(w t) and y(t) = y0 - g t^2 / 2 exactly;
 *   double  the circle with its constraint written twice: C_q has rank 1, the
 *           Schur complement is singular;
 *   line    C = x + y - 1 with M = diag(1, 4): the minimum-norm and the
 *           mass-weighted projections step in the closed-form directions
 *           (1, 1) and M^-1 (1, 1).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>

#include "check.h"
#include "mbd/cli.h"
#include "mbd/correction.h"
#include "mbd/formulation.h"
#include "mbd/simulate.h"

enum { CIRCLE, BEAD, DOUBLE, LINE };

typedef struct {
    int kind;
    double m, R, g, a, w;
} model;

static double X(const gsl_vector *v, size_t i) { return gsl_vector_get(v, i); }

static int mass(const mbd_system *s, double t, const gsl_vector *q, gsl_matrix *M)
{
    const model *md = s->model;
    (void)t, (void)q;
    gsl_matrix_set_identity(M);
    gsl_matrix_scale(M, md->m);
    if (md->kind == LINE)
        gsl_matrix_set(M, 1, 1, 4.0);
    return GSL_SUCCESS;
}

static int force(const mbd_system *s, double t, const gsl_vector *q, const gsl_vector *qd,
                 gsl_vector *F)
{
    const model *md = s->model;
    (void)t, (void)q, (void)qd;
    gsl_vector_set(F, 0, 0.0);
    gsl_vector_set(F, 1, -md->m * md->g);
    return GSL_SUCCESS;
}

static int constraint(const mbd_system *s, double t, const gsl_vector *q, gsl_vector *C)
{
    const model *md = s->model;
    double x = X(q, 0), y = X(q, 1);
    switch (md->kind) {
    case BEAD:
        gsl_vector_set(C, 0, x - md->a * sin(md->w * t));
        break;
    case LINE:
        gsl_vector_set(C, 0, x + y - 1.0);
        break;
    case DOUBLE:
        gsl_vector_set(C, 1, x * x + y * y - md->R * md->R);
        /* fall through */
    default:
        gsl_vector_set(C, 0, x * x + y * y - md->R * md->R);
    }
    return GSL_SUCCESS;
}

static int jacobian(const mbd_system *s, double t, const gsl_vector *q, gsl_matrix *Cq)
{
    const model *md = s->model;
    (void)t;
    switch (md->kind) {
    case BEAD:
        gsl_matrix_set(Cq, 0, 0, 1.0);
        gsl_matrix_set(Cq, 0, 1, 0.0);
        break;
    case LINE:
        gsl_matrix_set(Cq, 0, 0, 1.0);
        gsl_matrix_set(Cq, 0, 1, 1.0);
        break;
    default:
        for (size_t i = 0; i < Cq->size1; i++) {
            gsl_matrix_set(Cq, i, 0, 2 * X(q, 0));
            gsl_matrix_set(Cq, i, 1, 2 * X(q, 1));
        }
    }
    return GSL_SUCCESS;
}

static int constraint_t(const mbd_system *s, double t, const gsl_vector *q, gsl_vector *Ct)
{
    const model *md = s->model;
    (void)q;
    gsl_vector_set_zero(Ct);
    if (md->kind == BEAD)
        gsl_vector_set(Ct, 0, -md->a * md->w * cos(md->w * t));
    return GSL_SUCCESS;
}

/* circle: C'' = 2 |q'|^2 + 2 q . q'' so gamma = -2 |q'|^2;
 * bead: C'' = x'' + a w^2 sin(w t) so gamma = -a w^2 sin(w t). */
static int gamma_fn(const mbd_system *s, double t, const gsl_vector *q, const gsl_vector *qd,
                    gsl_vector *g)
{
    const model *md = s->model;
    (void)q;
    double v2 = X(qd, 0) * X(qd, 0) + X(qd, 1) * X(qd, 1);
    switch (md->kind) {
    case BEAD:
        gsl_vector_set(g, 0, -md->a * md->w * md->w * sin(md->w * t));
        break;
    case LINE:
        gsl_vector_set(g, 0, 0.0);
        break;
    default:
        for (size_t i = 0; i < g->size; i++)
            gsl_vector_set(g, i, -2.0 * v2);
    }
    return GSL_SUCCESS;
}

static int energy(const mbd_system *s, double t, const gsl_vector *q, const gsl_vector *qd,
                  double *E)
{
    const model *md = s->model;
    (void)t;
    *E = 0.5 * md->m * (X(qd, 0) * X(qd, 0) + X(qd, 1) * X(qd, 1)) + md->m * md->g * X(q, 1);
    return GSL_SUCCESS;
}

static const char *const NAMES[] = {"x", "y"};

static mbd_system make(model *md)
{
    mbd_system s = {.n = 2, .m = md->kind == DOUBLE ? 2 : 1, .names = NAMES, .model = md,
                    .mass = mass, .force = force, .constraint = constraint, .jacobian = jacobian,
                    .constraint_t = md->kind == BEAD ? constraint_t : NULL, .gamma = gamma_fn,
                    .energy = energy};
    return s;
}

static model circle(void) { return (model){CIRCLE, 2.0, 1.5, 9.81, 0, 0}; }

/* ------------------------------------------------------------------------ */

static void models_are_right(void)
{
    int kinds[] = {CIRCLE, BEAD, LINE};
    for (size_t k = 0; k < 3; k++) {
        model md = {kinds[k], 2.0, 1.5, 9.81, 0.7, 1.3};
        mbd_system s = make(&md);
        double q_[2] = {0.6, -1.1}, qd_[2] = {0.9, -0.4};
        gsl_vector_view q = gsl_vector_view_array(q_, 2), qd = gsl_vector_view_array(qd_, 2);
        mbd_fdcheck fd;
        REQUIRE_STATUS(mbd_system_check_derivatives(&s, 0.4, &q.vector, &qd.vector, 0, &fd),
                       GSL_SUCCESS);
        CHECK_LE(fd.jacobian_rel, 1e-8);
        CHECK_LE(fd.ct_abs, 1e-7);
        CHECK_LE(fd.gamma_abs, 1e-5 * fmax(1, fd.gamma_rel > 0 ? fd.gamma_abs / fd.gamma_rel : 1));
    }
}

/* Accelerations of a formulation at (t, q, q'), and its multiplier. */
static int accel(const char *method, double mu, model *md, double t, const double q_[2],
                 const double qd_[2], double qdd_[2], double *lam)
{
    mbd_system s = make(md);
    mbd_formulation_params p = {.mu = mu, .alpha = 5.0, .beta = 3.0};
    if (mbd_formulation_method(method, &p) != GSL_SUCCESS)
        return MBD_EINPUT;
    mbd_formulation *f = mbd_formulation_alloc(&s, &p);
    if (f == NULL)
        return GSL_ENOMEM;
    gsl_vector_const_view q = gsl_vector_const_view_array(q_, 2), qd = gsl_vector_const_view_array(qd_, 2);
    gsl_vector_view a = gsl_vector_view_array(qdd_, 2);
    double l[2];
    gsl_vector_view lv = gsl_vector_view_array(l, s.m);
    int st = mbd_formulation_accel(f, t, &q.vector, &qd.vector, &a.vector, &lv.vector);
    if (lam)
        *lam = l[0];
    mbd_formulation_free(f);
    return st;
}

/* The projection's q'' satisfies C_q q'' = gamma and M q'' + C_q^T lambda = F
 * exactly; at the pendulum's bottom (x = 0, y = -R, speed v) the multiplier is
 * the closed form lambda = m (g R + v^2) / (2 R^2) for C = x^2 + y^2 - R^2. */
static void projection_solves_the_dae(void)
{
    model md = circle();
    const double v = 2.5, q[2] = {0.0, -md.R}, qd[2] = {v, 0.0};
    double a[2], lam;
    REQUIRE_STATUS(accel("projection", 0, &md, 0, q, qd, a, &lam), GSL_SUCCESS);
    CHECK_CLOSE(lam, md.m * (md.g * md.R + v * v) / (2 * md.R * md.R), 1e-12);
    CHECK_CLOSE(a[0], 0.0, 1e-12);                 /* no tangential force at the bottom */
    CHECK_CLOSE(a[1], v * v / md.R, 1e-12);       /* centripetal, towards the centre */

    /* a general state, off the constraint and with radial velocity */
    const double q2[2] = {0.8, -1.2}, qd2[2] = {1.1, 0.3};
    REQUIRE_STATUS(accel("projection", 0, &md, 0, q2, qd2, a, &lam), GSL_SUCCESS);
    CHECK_CLOSE(2 * q2[0] * a[0] + 2 * q2[1] * a[1], -2 * (1.1 * 1.1 + 0.3 * 0.3), 1e-12);
    CHECK_CLOSE(md.m * a[0] + 2 * q2[0] * lam, 0.0, 1e-12);
    CHECK_CLOSE(md.m * a[1] + 2 * q2[1] * lam, -md.m * md.g, 1e-12);
}

/* The static penalty's q'' tends to the projection's as 1/mu (a factor 10
 * per decade), and so does its implied multiplier mu (C_q q'' - gamma). */
static void penalty_tends_to_projection(void)
{
    model md = circle();
    const double q[2] = {0.8, -1.2}, qd[2] = {1.1, 0.3};
    double ap[2], lp, prev = NAN;
    REQUIRE_STATUS(accel("projection", 0, &md, 0, q, qd, ap, &lp), GSL_SUCCESS);
    for (double mu = 1e2; mu <= 1e7; mu *= 10) {
        double a[2], l;
        REQUIRE_STATUS(accel("penalty", mu, &md, 0, q, qd, a, &l), GSL_SUCCESS);
        double d = hypot(a[0] - ap[0], a[1] - ap[1]);
        CHECK_LE(fabs(l - lp), 50.0 * fabs(lp) / mu);
        if (isfinite(prev))
            CHECK_IN(prev / d, 9.0, 11.0);
        prev = d;
    }
}

/* Baumgarte: the projection's q'' satisfies C_q q'' = gamma - 2 alpha C' -
 * beta^2 C; the printed sign gives gamma + 2 alpha C' + beta^2 C. */
static void baumgarte_signs(void)
{
    model md = circle();
    const double q[2] = {0.8, -1.2}, qd[2] = {1.1, 0.3};
    const double C = q[0] * q[0] + q[1] * q[1] - md.R * md.R;
    const double Cd = 2 * q[0] * qd[0] + 2 * q[1] * qd[1];
    const double gam = -2 * (qd[0] * qd[0] + qd[1] * qd[1]);
    double a[2];
    REQUIRE_STATUS(accel("projection-baumgarte", 0, &md, 0, q, qd, a, NULL), GSL_SUCCESS);
    CHECK_CLOSE(2 * q[0] * a[0] + 2 * q[1] * a[1], gam - 2 * 5.0 * Cd - 9.0 * C, 1e-12);
    /* the penalty versions approach the same constraint equation as mu grows */
    REQUIRE_STATUS(accel("penalty-baumgarte", 1e9, &md, 0, q, qd, a, NULL), GSL_SUCCESS);
    CHECK_CLOSE(2 * q[0] * a[0] + 2 * q[1] * a[1], gam - 2 * 5.0 * Cd - 9.0 * C, 1e-6);
    REQUIRE_STATUS(accel("penalty-baumgarte-printed", 1e9, &md, 0, q, qd, a, NULL), GSL_SUCCESS);
    CHECK_CLOSE(2 * q[0] * a[0] + 2 * q[1] * a[1], gam + 2 * 5.0 * Cd + 9.0 * C, 1e-6);
}

/* The alternate penalty is M q'' = F - mu C_q^T C, with multiplier mu C. */
static void alternate_penalty_is_a_spring(void)
{
    model md = circle();
    const double q[2] = {0.8, -1.2}, qd[2] = {1.1, 0.3}, mu = 1e3;
    const double C = q[0] * q[0] + q[1] * q[1] - md.R * md.R;
    double a[2], l;
    REQUIRE_STATUS(accel("alternate-penalty", mu, &md, 0, q, qd, a, &l), GSL_SUCCESS);
    CHECK_CLOSE(a[0], -mu * 2 * q[0] * C / md.m, 1e-10);
    CHECK_CLOSE(a[1], (-md.m * md.g - mu * 2 * q[1] * C) / md.m, 1e-10);
    CHECK_CLOSE(l, mu * C, 1e-12);
}

/* The driven bead: q'' = (0, -g) + (-a w^2 sin w t, 0) exactly, with C_t. */
static void rheonomic_constraint(void)
{
    model md = {BEAD, 2.0, 0, 9.81, 0.7, 1.3};
    const double t = 0.9, q[2] = {0.7 * sin(1.3 * 0.9), 0.2}, qd[2] = {0.7 * 1.3 * cos(1.3 * 0.9), -1};
    double a[2];
    REQUIRE_STATUS(accel("projection", 0, &md, t, q, qd, a, NULL), GSL_SUCCESS);
    CHECK_CLOSE(a[0], -0.7 * 1.3 * 1.3 * sin(1.3 * t), 1e-12);
    CHECK_CLOSE(a[1], -9.81, 1e-12);
}

/* The index-2 penalty carries v: pack makes q' start at qd0 even off the
 * constraint, and unpack gives it back. */
static void index2_state(void)
{
    model md = circle();
    mbd_system s = make(&md);
    mbd_formulation_params p = {.mu = 1e3};
    REQUIRE_STATUS(mbd_formulation_method("index2-penalty", &p), GSL_SUCCESS);
    mbd_formulation *f = mbd_formulation_alloc(&s, &p);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    const double q0[2] = {0.9, -1.3}, qd0[2] = {0.4, 0.2};   /* |q| != R */
    double y[4], q[2], qd[2];
    REQUIRE_STATUS(mbd_formulation_pack(f, 0, q0, qd0, y), GSL_SUCCESS);
    CHECK_MSG(fabs(y[2] - qd0[0]) > 1.0, "v should differ from q' off the constraint");
    REQUIRE_STATUS(mbd_formulation_unpack(f, 0, y, q, qd), GSL_SUCCESS);
    CHECK_CLOSE(qd[0], qd0[0], 1e-12);
    CHECK_CLOSE(qd[1], qd0[1], 1e-12);
    /* dq/dt of the right-hand side is that kinematic velocity */
    double dy[4];
    REQUIRE_STATUS(mbd_formulation_rhs(0, y, dy, f), GSL_SUCCESS);
    CHECK_CLOSE(dy[0], qd0[0], 1e-12);
    CHECK_CLOSE(dy[1], qd0[1], 1e-12);
    double a[2];
    gsl_vector_view qv = gsl_vector_view_array(q, 2), qdv = gsl_vector_view_array(qd, 2),
                    av = gsl_vector_view_array(a, 2);
    CHECK_STATUS(mbd_formulation_accel(f, 0, &qv.vector, &qdv.vector, &av.vector, NULL),
                 GSL_EINVAL);
    mbd_formulation_free(f);
}

static void bad_parameters_are_refused(void)
{
    model md = circle();
    mbd_system s = make(&md);
    mbd_formulation_params p = {.mu = 0};
    REQUIRE_STATUS(mbd_formulation_method("penalty", &p), GSL_SUCCESS);
    CU_ASSERT_PTR_NULL(mbd_formulation_alloc(&s, &p));          /* mu = 0 */
    p.mu = 1e5;
    REQUIRE_STATUS(mbd_formulation_method("alternate-penalty", &p), GSL_SUCCESS);
    p.baumgarte = 1;
    CU_ASSERT_PTR_NULL(mbd_formulation_alloc(&s, &p));          /* nothing to stabilise */
    CHECK_STATUS(mbd_formulation_method("lagrange", &p), MBD_EINPUT);
    size_t k = 0;
    for (; mbd_formulation_method_names[k]; k++) {
        CHECK_STATUS(mbd_formulation_method(mbd_formulation_method_names[k], &p), GSL_SUCCESS);
        CU_ASSERT_PTR_NOT_NULL(mbd_formulation_method_descriptions[k]);
    }
    CU_ASSERT_EQUAL(k, 9);
    /* only the index-2 penalty is stiff, and only it gets msbdf instead */
    mbd_ode_params ode;
    mbd_ode_preset("ode23", &ode);
    mbd_formulation_method("penalty", &p);
    CU_ASSERT_EQUAL(mbd_formulation_stiff_integrator(&p, &ode), 0);
    CU_ASSERT_STRING_EQUAL(ode.name, "ode23");
    mbd_formulation_method("index2-penalty", &p);
    CU_ASSERT_EQUAL(mbd_formulation_stiff_integrator(&p, &ode), 1);
    CU_ASSERT_STRING_EQUAL(ode.name, "msbdf");
    CU_ASSERT_EQUAL(mbd_formulation_stiff_integrator(&p, &ode), 0);   /* already */
}

/* Two copies of one constraint: the Schur complement is singular and the
 * projection says so; the static penalty does not need S and goes on. */
static void singular_schur_complement(void)
{
    model md = circle();
    md.kind = DOUBLE;
    const double q[2] = {0.9, -1.2}, qd[2] = {1.0, 0.75};
    double a[2];
    mbd_system s = make(&md);
    mbd_formulation_params p = {.mu = 1e5};
    mbd_formulation_method("projection", &p);
    mbd_formulation *f = mbd_formulation_alloc(&s, &p);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    gsl_vector_const_view qv = gsl_vector_const_view_array(q, 2), qdv = gsl_vector_const_view_array(qd, 2);
    gsl_vector_view av = gsl_vector_view_array(a, 2);
    CHECK_STATUS(mbd_formulation_accel(f, 1.5, &qv.vector, &qdv.vector, &av.vector, NULL),
                 MBD_ESINGULAR);
    const mbd_failure *fl = mbd_formulation_failure(f);
    CHECK_MSG(strstr(fl->cause, "Schur complement") != NULL, "cause: %s", fl->cause);
    CHECK_CLOSE(fl->time, 1.5, 0);
    double y[4] = {q[0], q[1], qd[0], qd[1]}, cond = 0;
    REQUIRE_STATUS(mbd_formulation_condition(f, 0, y, &cond), GSL_SUCCESS);
    CHECK_MSG(cond > 1e14, "cond(S) = %g", cond);
    mbd_formulation_free(f);
    REQUIRE_STATUS(accel("penalty", 1e5, &md, 0, q, qd, a, NULL), GSL_SUCCESS);
    /* the doubled penalty is the single one with 2 mu */
    double a1[2];
    model one = circle();
    REQUIRE_STATUS(accel("penalty", 2e5, &one, 0, q, qd, a1, NULL), GSL_SUCCESS);
    CHECK_CLOSE(a[0], a1[0], 1e-9);
    CHECK_CLOSE(a[1], a1[1], 1e-9);
}

/* ------------------------------------------------------------------------ */
/* The post-step projection                                                  */

static void projection_directions(void)
{
    model md = {LINE, 1.0, 0, 9.81, 0, 0};
    mbd_system s = make(&md);
    for (int weighted = 0; weighted <= 1; weighted++) {
        mbd_projection_params pp = {.mass_weighted = weighted};
        mbd_projection *w = mbd_projection_alloc(&s, &pp);
        CU_ASSERT_PTR_NOT_NULL_FATAL(w);
        double y[4] = {0.5, 1.0, 0.3, 0.5}, changed = 0;
        int ch = 0;
        REQUIRE_STATUS(mbd_projection_apply(w, 0, y, &ch), GSL_SUCCESS);
        (void)changed;
        CU_ASSERT_EQUAL(ch, 1);
        /* C = 0.5 and C' = 0.8 removed along (1, 1) or (1, 1/4) */
        double dx = y[0] - 0.5, dy = y[1] - 1.0;
        CHECK_CLOSE(y[0] + y[1], 1.0, 1e-14);
        CHECK_CLOSE(y[2] + y[3], 0.0, 1e-14);
        CHECK_CLOSE(dy / dx, weighted ? 0.25 : 1.0, 1e-12);
        CHECK_CLOSE((y[3] - 0.5) / (y[2] - 0.3), weighted ? 0.25 : 1.0, 1e-12);
        CU_ASSERT_EQUAL(mbd_projection_get_stats(w)->iterations, 1);   /* linear: exact at once */
        /* a consistent state is left alone */
        REQUIRE_STATUS(mbd_projection_apply(w, 0, y, &ch), GSL_SUCCESS);
        CU_ASSERT_EQUAL(ch, 0);
        mbd_projection_free(w);
    }
}

/* On the circle Newton converges in a few iterations, the step is radial
 * (minimum norm) and the velocity ends tangential. */
static void projection_on_the_circle(void)
{
    model md = circle();
    mbd_system s = make(&md);
    mbd_projection *w = mbd_projection_alloc(&s, &(mbd_projection_params){.tol = 1e-13});
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    double y[4] = {1.2, -1.6, 0.7, 0.9};   /* |q| = 2, R = 1.5 */
    int ch = 0;
    REQUIRE_STATUS(mbd_projection_apply(w, 0, y, &ch), GSL_SUCCESS);
    CHECK_CLOSE(hypot(y[0], y[1]), md.R, 1e-13);
    CHECK_CLOSE(y[0] / y[1], 1.2 / -1.6, 1e-12);        /* radial */
    CHECK_CLOSE(y[0] * y[2] + y[1] * y[3], 0.0, 1e-13);  /* tangential velocity */
    CHECK_IN((double)mbd_projection_get_stats(w)->iterations, 2, 8);
    /* the centre: C_q = 0, nothing to project along */
    double z[4] = {0, 0, 0, 0};
    CHECK_STATUS(mbd_projection_apply(w, 0, z, &ch), MBD_ESINGULAR);
    mbd_projection_free(w);
}

/* The simultaneous corrections of document 004 (correction.h). */

/* C' = 2 q . q' on the circle: dC'/dq = 2 q'^T; E_q = (0, m g), E_q' = m q' */
static int circle_rate_jacobian(const mbd_system *s, double t, const gsl_vector *q,
                                const gsl_vector *qd, gsl_matrix *J)
{
    (void)s, (void)t, (void)q;
    gsl_matrix_set(J, 0, 0, 2 * X(qd, 0));
    gsl_matrix_set(J, 0, 1, 2 * X(qd, 1));
    return GSL_SUCCESS;
}

static int circle_energy_gradient(const mbd_system *s, double t, const gsl_vector *q,
                                  const gsl_vector *qd, gsl_vector *Eq, gsl_vector *Eqd)
{
    const model *md = s->model;
    (void)t, (void)q;
    gsl_vector_set(Eq, 0, 0.0);
    gsl_vector_set(Eq, 1, md->m * md->g);
    gsl_vector_set(Eqd, 0, md->m * X(qd, 0));
    gsl_vector_set(Eqd, 1, md->m * X(qd, 1));
    return GSL_SUCCESS;
}

/* The library's dC'/dq from gamma (polarisation) and E_q, E_q' by central
 * differences, against the closed forms; and the bead's (rheonomic: C' =
 * x' - a w cos(w t), dC'/dq = 0 although gamma depends on t) */
static void rate_jacobian_and_energy_gradient(void)
{
    model md = circle();
    mbd_system s = make(&md);
    gsl_vector *work = gsl_vector_alloc(8), *Eq = gsl_vector_alloc(2), *Eqd = gsl_vector_alloc(2);
    gsl_vector *Eq2 = gsl_vector_alloc(2), *Eqd2 = gsl_vector_alloc(2);
    gsl_matrix *J = gsl_matrix_alloc(1, 2), *J2 = gsl_matrix_alloc(1, 2);
    double qa[2] = {0.9, -1.2}, va[2] = {-0.7, 1.9};
    gsl_vector_view q = gsl_vector_view_array(qa, 2), v = gsl_vector_view_array(va, 2);
    REQUIRE_STATUS(mbd_system_rate_jacobian(&s, 0.3, &q.vector, &v.vector, J, work), GSL_SUCCESS);
    REQUIRE_STATUS(circle_rate_jacobian(&s, 0.3, &q.vector, &v.vector, J2), GSL_SUCCESS);
    for (int j = 0; j < 2; j++)
        CHECK_CLOSE(gsl_matrix_get(J, 0, j), gsl_matrix_get(J2, 0, j), 1e-14);
    REQUIRE_STATUS(mbd_system_energy_gradient(&s, 0.3, &q.vector, &v.vector, Eq, Eqd, work),
                   GSL_SUCCESS);
    REQUIRE_STATUS(circle_energy_gradient(&s, 0.3, &q.vector, &v.vector, Eq2, Eqd2), GSL_SUCCESS);
    for (int j = 0; j < 2; j++) {
        CHECK_CLOSE(gsl_vector_get(Eq, j), gsl_vector_get(Eq2, j), 1e-8);
        CHECK_CLOSE(gsl_vector_get(Eqd, j), gsl_vector_get(Eqd2, j), 1e-8);
    }
    /* the model's own derivatives are used when it gives them */
    s.rate_jacobian = circle_rate_jacobian;
    s.energy_gradient = circle_energy_gradient;
    REQUIRE_STATUS(mbd_system_energy_gradient(&s, 0.3, &q.vector, &v.vector, Eq, Eqd, work),
                   GSL_SUCCESS);
    CU_ASSERT_EQUAL(gsl_vector_get(Eq, 1), md.m * md.g);   /* bit for bit: not differenced */
    model bead = {BEAD, 2.0, 1.5, 9.81, 0.7, 1.3};
    mbd_system sb = make(&bead);
    REQUIRE_STATUS(mbd_system_rate_jacobian(&sb, 0.4, &q.vector, &v.vector, J, work), GSL_SUCCESS);
    CHECK_CLOSE(gsl_matrix_get(J, 0, 0), 0.0, 1e-15);
    CHECK_CLOSE(gsl_matrix_get(J, 0, 1), 0.0, 1e-15);
    gsl_vector_view small = gsl_vector_subvector(work, 0, 3);   /* 2 m + n = 4 needed */
    CHECK_STATUS(mbd_system_rate_jacobian(&sb, 0.4, &q.vector, &v.vector, J, &small.vector),
                 GSL_EBADLEN);
    gsl_vector_free(work);
    gsl_vector_free(Eq);
    gsl_vector_free(Eqd);
    gsl_vector_free(Eq2);
    gsl_vector_free(Eqd2);
    gsl_matrix_free(J);
    gsl_matrix_free(J2);
}

/* one correction of y on the circle; returns the status */
static int correct_once(mbd_correction_mode mode, int weighted, double E0, double y[4],
                        long *iterations)
{
    model md = circle();
    mbd_system s = make(&md);
    mbd_projection_params pp = {.mode = mode, .mass_weighted = weighted, .tol = 1e-13};
    mbd_projection *w = mbd_projection_alloc(&s, &pp);
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    mbd_projection_set_energy(w, E0);
    int ch = 0;
    const int st = mbd_projection_apply(w, 0.0, y, &ch);
    if (iterations)
        *iterations = mbd_projection_get_stats(w)->iterations;
    mbd_projection_free(w);
    return st;
}

static double circle_energy(const double y[4])
{
    const model md = circle();
    return 0.5 * md.m * (y[2] * y[2] + y[3] * y[3]) + md.m * md.g * y[1];
}

/* (c) and (d) put the state on C = 0, C' = 0 (and E = E0) to 1e-13; the
 * step is a minimum-norm one: its part outside the range of J^T (at the
 * start) shrinks like the square of the perturbation */
static void simultaneous_and_energy(void)
{
    const model md = circle();
    const double base[4] = {1.5 * sin(0.8), -1.5 * cos(0.8), 1.1 * cos(0.8), 1.1 * sin(0.8)};
    const double dir[4] = {0.3, -0.2, 0.5, 0.4};
    const double E0 = circle_energy(base);   /* residuals O(eps) in every row */
    for (int mode = MBD_CORRECTION_SIMULTANEOUS; mode <= MBD_CORRECTION_ENERGY; mode++) {
        double off[2];
        for (int k = 0; k < 2; k++) {
            const double eps = k == 0 ? 1e-2 : 1e-3;
            double y[4], y0[4];
            for (int i = 0; i < 4; i++)
                y[i] = y0[i] = base[i] + eps * dir[i];
            long its = 0;
            REQUIRE_STATUS(correct_once((mbd_correction_mode)mode, 0,
                                        mode == MBD_CORRECTION_ENERGY ? E0 : 0.0, y, &its),
                           GSL_SUCCESS);
            const double C = y[0] * y[0] + y[1] * y[1] - md.R * md.R;
            const double Cd = 2 * (y[0] * y[2] + y[1] * y[3]);
            CHECK_LE(fabs(C), 1e-13);
            CHECK_LE(fabs(Cd), 1e-13);
            if (mode == MBD_CORRECTION_ENERGY)
                CHECK_LE(fabs(circle_energy(y) - E0), 1e-13 * fabs(E0));
            CHECK_IN((double)its, 1, 8);
            /* J at the start: rows [2x 2y 0 0], [2x' 2y' 2x 2y], [0 m g m x' m y'] */
            const double J[3][4] = {{2 * y0[0], 2 * y0[1], 0, 0},
                                    {2 * y0[2], 2 * y0[3], 2 * y0[0], 2 * y0[1]},
                                    {0, md.m * md.g, md.m * y0[2], md.m * y0[3]}};
            const int rows = mode == MBD_CORRECTION_ENERGY ? 3 : 2;
            /* the part of dx orthogonal to span(J^T): Gram-Schmidt on the rows */
            double basis[3][4], dx[4];
            for (int i = 0; i < 4; i++)
                dx[i] = y[i] - y0[i];
            for (int r = 0; r < rows; r++) {
                for (int i = 0; i < 4; i++)
                    basis[r][i] = J[r][i];
                for (int p = 0; p < r; p++) {
                    double d = 0;
                    for (int i = 0; i < 4; i++)
                        d += basis[p][i] * J[r][i];
                    for (int i = 0; i < 4; i++)
                        basis[r][i] -= d * basis[p][i];
                }
                double nrm = 0;
                for (int i = 0; i < 4; i++)
                    nrm += basis[r][i] * basis[r][i];
                for (int i = 0; i < 4; i++)
                    basis[r][i] /= sqrt(nrm);
            }
            double rest[4], full = 0, part = 0;
            for (int i = 0; i < 4; i++)
                rest[i] = dx[i];
            for (int r = 0; r < rows; r++) {
                double d = 0;
                for (int i = 0; i < 4; i++)
                    d += basis[r][i] * dx[i];
                for (int i = 0; i < 4; i++)
                    rest[i] -= d * basis[r][i];
            }
            for (int i = 0; i < 4; i++) {
                full += dx[i] * dx[i];
                part += rest[i] * rest[i];
            }
            off[k] = sqrt(part / full);
        }
        /* the off-range part falls with the perturbation (first order in it) */
        CHECK_LE(off[1], 0.2 * off[0] + 1e-12);
    }
    /* an energy 0.05 J off as well: still to round-off in a few iterations */
    {
        double y[4];
        for (int i = 0; i < 4; i++)
            y[i] = base[i] + 1e-2 * dir[i];
        long its = 0;
        REQUIRE_STATUS(correct_once(MBD_CORRECTION_ENERGY, 0, E0 + 0.05, y, &its), GSL_SUCCESS);
        CHECK_LE(fabs(circle_energy(y) - E0 - 0.05), 1e-13 * fabs(E0));
        CHECK_LE(fabs(y[0] * y[0] + y[1] * y[1] - md.R * md.R), 1e-13);
        CHECK_IN((double)its, 1, 8);
    }
    /* the sequential and simultaneous corrections of the same state differ:
     * (c) also moves q to help C' */
    double a[4], b[4];
    for (int i = 0; i < 4; i++)
        a[i] = b[i] = base[i] + 1e-2 * dir[i];
    REQUIRE_STATUS(correct_once(MBD_CORRECTION_SEQUENTIAL, 0, 0, a, NULL), GSL_SUCCESS);
    REQUIRE_STATUS(correct_once(MBD_CORRECTION_SIMULTANEOUS, 0, 0, b, NULL), GSL_SUCCESS);
    CHECK_GE(fabs(a[0] - b[0]) + fabs(a[1] - b[1]), 1e-6);
    /* mass weighting on the line (M = diag(1, 4)): the step along M^-1 J^T */
    model line = {LINE, 1.0, 0, 9.81, 0, 0};
    mbd_system sl = make(&line);
    mbd_projection *w = mbd_projection_alloc(&sl, &(mbd_projection_params){
                                                      .mode = MBD_CORRECTION_SIMULTANEOUS,
                                                      .mass_weighted = 1});
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    double y[4] = {0.5, 1.0, 0.3, 0.5};
    int ch = 0;
    REQUIRE_STATUS(mbd_projection_apply(w, 0, y, &ch), GSL_SUCCESS);
    CHECK_CLOSE(y[0] + y[1], 1.0, 1e-14);
    CHECK_CLOSE(y[2] + y[3], 0.0, 1e-14);
    CHECK_CLOSE((y[1] - 1.0) / (y[0] - 0.5), 0.25, 1e-12);
    CHECK_CLOSE((y[3] - 0.5) / (y[2] - 0.3), 0.25, 1e-12);
    mbd_projection_free(w);
}

/* failures said with the time and the cause; refusals at alloc */
static void correction_failures(void)
{
    model md = circle();
    /* at rest at the bottom the energy row is parallel to the constraint row */
    double y[4] = {0.0, -md.R, 0.0, 0.0};
    mbd_system s = make(&md);
    mbd_projection *w = mbd_projection_alloc(&s, &(mbd_projection_params){
                                                     .mode = MBD_CORRECTION_ENERGY});
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    int ch = 0;
    CHECK_STATUS(mbd_projection_apply(w, 0.7, y, &ch), MBD_EINPUT);   /* E0 never set */
    mbd_projection_set_energy(w, circle_energy(y) + 1.0);
    CHECK_STATUS(mbd_projection_apply(w, 0.7, y, &ch), MBD_ESINGULAR);
    const mbd_failure *f = mbd_projection_failure(w);
    CHECK_MSG(strstr(f->cause, "singular") != NULL && f->time == 0.7, "cause %s at %g", f->cause,
              f->time);
    mbd_projection_free(w);
    /* one iteration is not enough far off the circle */
    w = mbd_projection_alloc(&s, &(mbd_projection_params){.mode = MBD_CORRECTION_SIMULTANEOUS,
                                                          .max_iter = 1, .tol = 1e-14});
    double z[4] = {1.2, -1.6, 0.7, 0.9};
    CHECK_STATUS(mbd_projection_apply(w, 1.5, z, &ch), MBD_ENOCONV);
    f = mbd_projection_failure(w);
    CHECK_MSG(strstr(f->cause, "did not converge") && strstr(f->cause, "1 iterations")
                  && f->time == 1.5, "cause %s", f->cause);
    mbd_projection_free(w);
    /* no energy, no energy correction; an unknown mode */
    s.energy = NULL;
    CU_ASSERT_PTR_NULL(mbd_projection_alloc(&s, &(mbd_projection_params){
                                                    .mode = MBD_CORRECTION_ENERGY}));
    s.energy = energy;
    CU_ASSERT_PTR_NULL(mbd_projection_alloc(&s, &(mbd_projection_params){
                                                    .mode = (mbd_correction_mode)9}));
}

/* In the pipeline (ode23, 5 s): (d) holds the energy to round-off, (b) and
 * (c) hold the constraints but not the energy */
static void energy_correction_in_the_pipeline(void)
{
    model md = circle();
    mbd_system s = make(&md);
    double E_err[3] = {0}, C_max[3] = {0};
    const mbd_correction_mode modes[3] = {MBD_CORRECTION_SEQUENTIAL, MBD_CORRECTION_SIMULTANEOUS,
                                          MBD_CORRECTION_ENERGY};
    for (int k = 0; k < 3; k++) {
        mbd_formulation_params p = {0};
        mbd_formulation_method("projection", &p);
        mbd_formulation *f = mbd_formulation_alloc(&s, &p);
        mbd_ode_params op;
        mbd_ode_preset("ode23", &op);
        mbd_sim_params sp = {.t0 = 0, .t_end = 5, .dt_out = 0, .project = 1,
                             .projection = {.mode = modes[k], .tol = 1e-12}};
        double q0[2] = {md.R * sin(1.2), -md.R * cos(1.2)}, qd0[2] = {0, 0};
        mbd_sim_stats st;
        mbd_failure fl;
        REQUIRE_STATUS(mbd_simulate(f, &op, &sp, q0, qd0, NULL, &st, &fl), GSL_SUCCESS);
        E_err[k] = st.max_dE;
        C_max[k] = fmax(st.max_C, st.max_Cdot);
        mbd_formulation_free(f);
    }
    for (int k = 0; k < 3; k++)
        CHECK_LE(C_max[k], 1e-11);
    CHECK_LE(E_err[2], 1e-11);
    CHECK_GE(E_err[0], 1e-6);
    CHECK_GE(E_err[1], 1e-6);
}

/* ------------------------------------------------------------------------ */
/* The pipeline                                                              */

/* the pendulum-angle reference: phi from the downward vertical */
static int angle_rhs(double t, const double y[], double dydt[], void *params)
{
    const model *md = params;
    (void)t;
    dydt[0] = y[1];
    dydt[1] = -(md->g / md->R) * sin(y[0]);
    return GSL_SUCCESS;
}

typedef struct {
    double t[64], phi[64], phid[64];
    int n;
} angles;

static int keep(void *ctx, double t, const double y[], const mbd_run_info *info, mbd_failure *f)
{
    angles *a = ctx;
    (void)info, (void)f;
    a->t[a->n] = t;
    a->phi[a->n] = y[0];
    a->phid[a->n++] = y[1];
    return GSL_SUCCESS;
}

static void reference(model *md, double phi0, double t_end, double dt, angles *a)
{
    mbd_ode_params op;
    mbd_ode_preset("rk8pd", &op);
    mbd_ode *o = mbd_ode_alloc(&op, 2, angle_rhs, md);
    double y[2] = {phi0, 0};
    a->n = 0;
    mbd_run_params rp = {.t0 = 0, .t_end = t_end, .dt_out = dt, .output = keep, .output_ctx = a};
    mbd_failure fl;
    CHECK_STATUS(mbd_run(o, &rp, y, NULL, &fl), GSL_SUCCESS);
    mbd_ode_free(o);
}

static int simulate(const char *method, const char *integrator, double mu, int project,
                    model *md, double t_end, double dt, mbd_history *h, mbd_sim_stats *st,
                    mbd_failure *fl)
{
    mbd_system s = make(md);
    mbd_formulation_params p = {.mu = mu, .alpha = 20, .beta = 20};
    mbd_formulation_method(method, &p);
    mbd_formulation *f = mbd_formulation_alloc(&s, &p);
    mbd_ode_params op;
    mbd_ode_preset(integrator, &op);
    mbd_sim_params sp = {.t0 = 0, .t_end = t_end, .dt_out = dt, .max_violation = 1,
                         .project = project};
    const double phi0 = 1.2;
    double q0[2] = {md->R * sin(phi0), -md->R * cos(phi0)}, qd0[2] = {0, 0};
    if (md->kind == BEAD) {
        q0[0] = 0;
        q0[1] = 0.2;
        qd0[0] = md->a * md->w;
        qd0[1] = 0;
    }
    int r = mbd_simulate(f, &op, &sp, q0, qd0, h, st, fl);
    mbd_formulation_free(f);
    return r;
}

/* Every formulation against the angle reference, on the output grid. */
static void methods_against_reference(void)
{
    model md = circle();
    angles ref;
    reference(&md, 1.2, 3.0, 0.1, &ref);
    CU_ASSERT_EQUAL_FATAL(ref.n, 31);
    const struct {
        const char *method, *integrator;
        double mu, tol;
    } cases[] = {
        {"projection", "tight", 0, 1e-7},
        {"projection-baumgarte", "tight", 0, 1e-7},
        {"penalty", "tight", 1e8, 1e-5},
        {"penalty-baumgarte", "tight", 1e6, 1e-5},
        {"alternate-penalty", "tight", 1e6, 5e-3},   /* its radial ringing */
        {"index2-penalty", "msbdf", 1e6, 1e-3},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        mbd_history h;
        mbd_history_init(&h);
        mbd_sim_stats st;
        mbd_failure fl;
        int r = simulate(cases[c].method, cases[c].integrator, cases[c].mu, 0, &md, 3.0, 0.1, &h,
                         &st, &fl);
        CHECK_MSG(r == GSL_SUCCESS, "%s: %s", cases[c].method, fl.cause);
        CU_ASSERT_EQUAL(h.rows, 31);
        double err = 0;
        for (size_t k = 0; k < h.rows && k < 31; k++) {
            CHECK_CLOSE(h.t[k], ref.t[k], 0);
            const double *q = mbd_history_q(&h, k), *qd = mbd_history_qd(&h, k);
            double ph = ref.phi[k], w = ref.phid[k];
            err = fmax(err, fabs(q[0] - md.R * sin(ph)));
            err = fmax(err, fabs(q[1] + md.R * cos(ph)));
            err = fmax(err, fabs(qd[0] - md.R * w * cos(ph)));
            err = fmax(err, fabs(qd[1] - md.R * w * sin(ph)));
        }
        CHECK_MSG(err <= cases[c].tol, "%s: max error %g > %g", cases[c].method, err,
                  cases[c].tol);
        CHECK_MSG(st.max_C <= 10 * cases[c].tol, "%s: max |C| %g", cases[c].method, st.max_C);
        mbd_history_free(&h);
    }
}

/* The rheonomic bead: x follows the drive, y falls freely. */
static void driven_bead(void)
{
    model md = {BEAD, 2.0, 0, 9.81, 0.7, 1.3};
    mbd_history h;
    mbd_history_init(&h);
    mbd_sim_stats st;
    mbd_failure fl;
    REQUIRE_STATUS(simulate("projection", "tight", 0, 0, &md, 2.0, 0.25, &h, &st, &fl),
                   GSL_SUCCESS);
    CU_ASSERT_EQUAL(h.rows, 9);
    for (size_t k = 0; k < h.rows; k++) {
        double t = h.t[k];
        CHECK_CLOSE(mbd_history_q(&h, k)[0], 0.7 * sin(1.3 * t), 1e-9);
        CHECK_CLOSE(mbd_history_q(&h, k)[1], 0.2 - 0.5 * 9.81 * t * t, 1e-9);
        CHECK_CLOSE(mbd_history_qd(&h, k)[0], 0.7 * 1.3 * cos(1.3 * t), 1e-9);
        CHECK_LE(h.Cdot_norm[k], 1e-9);   /* C' includes C_t */
    }
    mbd_history_free(&h);
}

/* The printed Baumgarte sign is stopped by the violation limit: a finding,
 * with the outputs up to it kept and finite. */
static void violation_stops_the_run(void)
{
    model md = circle();
    mbd_history h;
    mbd_history_init(&h);
    mbd_sim_stats st;
    mbd_failure fl;
    int r = simulate("penalty-baumgarte-printed", "ode23", 1e5, 0, &md, 5.0, 1e-3, &h, &st, &fl);
    CHECK_STATUS(r, MBD_EVIOLATION);
    CHECK_IN(fl.time, 0.05, 2.0);
    CHECK_MSG(strstr(fl.cause, "exceeds 1") != NULL, "cause: %s", fl.cause);
    CU_ASSERT_TRUE(h.rows > 10);
    CHECK_LE(h.t[h.rows - 1], fl.time);
    CHECK_GE(h.t[h.rows - 1], fl.time - 0.05);
    for (size_t k = 0; k < h.rows; k++)
        CU_ASSERT_TRUE(isfinite(h.C_norm[k]) && isfinite(mbd_history_qd(&h, k)[1]));
    /* with outputs only every second the limit is still caught at the step
     * where it is passed, before the state overflows */
    r = simulate("penalty-baumgarte-printed", "ode23", 1e5, 0, &md, 5.0, 1.0, &h, &st, &fl);
    CHECK_STATUS(r, MBD_EVIOLATION);
    CHECK_IN(fl.time, 0.05, 1.0);
    CU_ASSERT_EQUAL(h.rows, 1);
    /* the stable sign stays on the circle */
    r = simulate("penalty-baumgarte", "ode23", 1e5, 0, &md, 5.0, 1e-3, &h, &st, &fl);
    CHECK_STATUS(r, GSL_SUCCESS);
    CHECK_LE(st.max_C, 1e-2);
    mbd_history_free(&h);
}

/* The post-step projection through the run loop keeps |C| at its tolerance
 * where ode23 alone drifts, and resets the integrator each time it acts.
 * Outputs at every step's end (dt_out = 0) see the corrected state; outputs
 * inside a step come from that step's interpolant, before the correction. */
static void projection_hook_in_the_pipeline(void)
{
    model md = circle();
    mbd_sim_stats plain, proj;
    mbd_failure fl;
    REQUIRE_STATUS(simulate("projection", "ode23", 0, 0, &md, 5.0, 0, NULL, &plain, &fl),
                   GSL_SUCCESS);
    REQUIRE_STATUS(simulate("projection", "ode23", 0, 1, &md, 5.0, 0, NULL, &proj, &fl),
                   GSL_SUCCESS);
    CHECK_GE(plain.max_C, 1e-4);
    CHECK_LE(proj.max_C, 1e-9);
    CHECK_LE(proj.max_Cdot, 1e-9);
    CU_ASSERT_TRUE(proj.run.corrections > 10);
    CU_ASSERT_EQUAL(proj.run.ode.resets, proj.run.corrections);
    CU_ASSERT_TRUE(proj.projection.positions > 10);
    /* the energy is the model's */
    CHECK_CLOSE(proj.E0, 2.0 * 9.81 * -1.5 * cos(1.2), 1e-12);
    /* the index-2 penalty has no [q; q'] state to project */
    CHECK_STATUS(simulate("index2-penalty", "msbdf", 1e5, 1, &md, 1.0, 0.1, NULL, &proj, &fl),
                 MBD_EINPUT);
}

/* A stiff spring (alternate penalty, mu = 1e9) under ode23 crawls; the step
 * limit turns the crawl into a failure that says so, with the outputs up to
 * there kept. */
static void step_limit(void)
{
    model md = circle();
    mbd_system s = make(&md);
    mbd_formulation_params p = {.mu = 1e9};
    mbd_formulation_method("alternate-penalty", &p);
    mbd_formulation *f = mbd_formulation_alloc(&s, &p);
    mbd_ode_params op;
    mbd_ode_preset("ode23", &op);
    mbd_sim_params sp = {.t0 = 0, .t_end = 5, .dt_out = 1e-3, .max_steps = 2000};
    const double q0[2] = {md.R, 0}, qd0[2] = {0, 0};
    mbd_history h;
    mbd_history_init(&h);
    mbd_sim_stats st;
    mbd_failure fl;
    CHECK_STATUS(mbd_simulate(f, &op, &sp, q0, qd0, &h, &st, &fl), MBD_ESTEPLIMIT);
    CHECK_MSG(strstr(fl.cause, "2000 steps") && strstr(fl.cause, "stability limit of ode23")
              && strstr(fl.cause, "stiff for an explicit integrator"),
              "cause: %s", fl.cause);
    CU_ASSERT_EQUAL(st.run.ode.steps, 2000);
    CHECK_IN(fl.time, 1e-3, 1.0);
    CU_ASSERT_TRUE(h.rows >= 2);
    CHECK_LE(h.t[h.rows - 1], fl.time);
    /* a fixed step too small to get there is refused before the first step,
     * as bad input (the request, not the numerics, is at fault) */
    mbd_ode_preset("fixed", &op);
    op.h = 1e-9;
    CHECK_STATUS(mbd_simulate(f, &op, &sp, q0, qd0, &h, &st, &fl), MBD_EINPUT);
    CHECK_MSG(strstr(fl.cause, "fixed step 1e-09") != NULL, "cause: %s", fl.cause);
    CU_ASSERT_EQUAL(st.run.ode.steps, 0);
    mbd_history_free(&h);
    mbd_formulation_free(f);
}

static void history_csv(void)
{
    model md = circle();
    mbd_history h;
    mbd_history_init(&h);
    mbd_sim_stats st;
    mbd_failure fl;
    REQUIRE_STATUS(simulate("penalty", "ode23", 1e5, 0, &md, 1.0, 0.25, &h, &st, &fl),
                   GSL_SUCCESS);
    char path[] = "/tmp/mbd-test-history-XXXXXX";
    int fd = mkstemp(path);
    CU_ASSERT_TRUE_FATAL(fd >= 0);
    REQUIRE_STATUS(mbd_history_csv(&h, path, NAMES, 1, &fl), GSL_SUCCESS);
    char *text = test_read_file(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CHECK_MSG(strncmp(text, "t,x,y,x_dot,y_dot,C_norm,Cdot_norm,E,h\n", 39) == 0, "header: %.60s",
              text);
    size_t lines = 0;
    for (const char *p = text; *p; p++)
        lines += *p == '\n';
    CU_ASSERT_EQUAL(lines, 1 + 5);
    free(text);
    remove(path);
    CU_ASSERT_EQUAL(mbd_history_row_at(&h, 0.6), 2);
    CU_ASSERT_EQUAL(mbd_history_row_at(&h, 1.0), 4);
    /* rows appended by hand (a reference from elsewhere), past the capacity */
    mbd_history g;
    mbd_history_init(&g);
    g.n = 2;
    for (int k = 0; k < 3000; k++) {
        double q[2] = {k, -k}, qd[2] = {2 * k, 0.5};
        REQUIRE_STATUS(mbd_history_append(&g, 0.01 * k, q, qd, 0, 0, NAN, 0.01), GSL_SUCCESS);
    }
    CU_ASSERT_EQUAL(g.rows, 3000);
    CHECK_CLOSE(mbd_history_q(&g, 2999)[1], -2999, 0);
    CHECK_CLOSE(mbd_history_qd(&g, 1234)[0], 2468, 0);
    CU_ASSERT_EQUAL(mbd_history_row_at(&g, 12.345), 1234);
    mbd_history_free(&g);
    mbd_history_free(&h);
}

static void cli_integrator(void)
{
    mbd_cli_spec spec = {.program = "test"};
    mbd_cli_common c;
    mbd_cli_defaults(&c);
    mbd_ode_params p;
    REQUIRE_STATUS(mbd_cli_integrator(&spec, &c, "ode23", &p, stderr), GSL_SUCCESS);
    CHECK_CLOSE(p.rtol, 1e-3, 0);
    c.integrator = "fixed";
    c.integrator_given = 1;
    c.h = 2e-3;
    c.h_given = 1;
    REQUIRE_STATUS(mbd_cli_integrator(&spec, &c, "ode23", &p, stderr), GSL_SUCCESS);
    CHECK_CLOSE(p.h, 2e-3, 0);
    CU_ASSERT_FALSE(p.adaptive);
    c.rtol = 1e-6;
    c.rtol_given = 1;
    FILE *devnull = fopen("/dev/null", "w");
    CHECK_STATUS(mbd_cli_integrator(&spec, &c, "ode23", &p, devnull), MBD_EUSAGE);
    fclose(devnull);
    mbd_cli_choice ch[4];
    CU_ASSERT_EQUAL(mbd_cli_choices(mbd_formulation_method_names,
                                    mbd_formulation_method_descriptions, ch, 4), 3);
    CU_ASSERT_PTR_NULL(ch[3].name);
}

static CU_TestInfo formulation_tests[] = {
    {"models_are_right", models_are_right},
    {"projection_solves_the_dae", projection_solves_the_dae},
    {"penalty_tends_to_projection", penalty_tends_to_projection},
    {"baumgarte_signs", baumgarte_signs},
    {"alternate_penalty_is_a_spring", alternate_penalty_is_a_spring},
    {"rheonomic_constraint", rheonomic_constraint},
    {"index2_state", index2_state},
    {"bad_parameters_are_refused", bad_parameters_are_refused},
    {"singular_schur_complement", singular_schur_complement},
    CU_TEST_INFO_NULL,
};

static CU_TestInfo correction_tests[] = {
    {"projection_directions", projection_directions},
    {"projection_on_the_circle", projection_on_the_circle},
    {"rate_jacobian_and_energy_gradient", rate_jacobian_and_energy_gradient},
    {"simultaneous_and_energy", simultaneous_and_energy},
    {"correction_failures", correction_failures},
    {"energy_correction_in_the_pipeline", energy_correction_in_the_pipeline},
    CU_TEST_INFO_NULL,
};

static CU_TestInfo simulate_tests[] = {
    {"methods_against_reference", methods_against_reference},
    {"driven_bead", driven_bead},
    {"violation_stops_the_run", violation_stops_the_run},
    {"projection_hook_in_the_pipeline", projection_hook_in_the_pipeline},
    {"step_limit", step_limit},
    {"history_csv", history_csv},
    {"cli_integrator", cli_integrator},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"formulation", NULL, NULL, NULL, NULL, formulation_tests},
    {"correction", NULL, NULL, NULL, NULL, correction_tests},
    {"simulate", NULL, NULL, NULL, NULL, simulate_tests},
    CU_SUITE_INFO_NULL,
};
