/* The constrained-system interface and its finite-difference checker.
 *
 * The model: a point on a rotating rheonomic circle, q = (x, y), with the
 * single constraint  C = (x - a cos w t)^2 + (y - a sin w t)^2 - L^2  (a moving
 * centre), whose C_q, C_t and gamma are worked out by hand below. A correct
 * model must pass the checker; each of three plausible mistakes must fail it.
 */
#include <math.h>

#include <gsl/gsl_errno.h>

#include "check.h"
#include "mbd/error.h"
#include "mbd/system.h"

typedef struct {
    double a, w, L;
    int mistake;   /* 0 none, 1 Jacobian sign, 2 gamma missing the C_qt term, 3 no C_t */
} circle;

static void centre(const circle *c, double t, double *cx, double *cy, double *vx, double *vy)
{
    *cx = c->a * cos(c->w * t);
    *cy = c->a * sin(c->w * t);
    *vx = -c->a * c->w * sin(c->w * t);
    *vy = c->a * c->w * cos(c->w * t);
}

static int mass(const mbd_system *s, double t, const gsl_vector *q, gsl_matrix *M)
{
    (void)s, (void)t, (void)q;
    gsl_matrix_set_identity(M);
    return GSL_SUCCESS;
}

static int force(const mbd_system *s, double t, const gsl_vector *q, const gsl_vector *qd,
                 gsl_vector *F)
{
    (void)s, (void)t, (void)q, (void)qd;
    gsl_vector_set_zero(F);
    return GSL_SUCCESS;
}

static int constraint(const mbd_system *s, double t, const gsl_vector *q, gsl_vector *C)
{
    const circle *c = s->model;
    double cx, cy, vx, vy;
    centre(c, t, &cx, &cy, &vx, &vy);
    double dx = gsl_vector_get(q, 0) - cx, dy = gsl_vector_get(q, 1) - cy;
    gsl_vector_set(C, 0, dx * dx + dy * dy - c->L * c->L);
    return GSL_SUCCESS;
}

static int jacobian(const mbd_system *s, double t, const gsl_vector *q, gsl_matrix *Cq)
{
    const circle *c = s->model;
    double cx, cy, vx, vy;
    centre(c, t, &cx, &cy, &vx, &vy);
    double sign = c->mistake == 1 ? -1.0 : 1.0;
    gsl_matrix_set(Cq, 0, 0, sign * 2.0 * (gsl_vector_get(q, 0) - cx));
    gsl_matrix_set(Cq, 0, 1, 2.0 * (gsl_vector_get(q, 1) - cy));
    return GSL_SUCCESS;
}

/* C_t = -2 (d . v_c), d = q - c(t) */
static int constraint_t(const mbd_system *s, double t, const gsl_vector *q, gsl_vector *Ct)
{
    const circle *c = s->model;
    double cx, cy, vx, vy;
    centre(c, t, &cx, &cy, &vx, &vy);
    double dx = gsl_vector_get(q, 0) - cx, dy = gsl_vector_get(q, 1) - cy;
    gsl_vector_set(Ct, 0, -2.0 * (dx * vx + dy * vy));
    return GSL_SUCCESS;
}

/* C'' = 2 |q' - v_c|^2 + 2 d . (q'' - a_c), a_c = -w^2 c, so with
 * C_q q'' = 2 d . q'' the rest is -gamma:
 *   gamma = -2 |q' - v_c|^2 + 2 d . a_c
 *         = -2 |q'|^2 + 4 q' . v_c - 2 |v_c|^2 - 2 w^2 (d . c). */
static int gamma_fn(const mbd_system *s, double t, const gsl_vector *q, const gsl_vector *qd,
                    gsl_vector *g)
{
    const circle *c = s->model;
    double cx, cy, vx, vy;
    centre(c, t, &cx, &cy, &vx, &vy);
    double dx = gsl_vector_get(q, 0) - cx, dy = gsl_vector_get(q, 1) - cy;
    double ux = gsl_vector_get(qd, 0), uy = gsl_vector_get(qd, 1);
    double mixed = c->mistake == 2 ? 0.0 : 4.0 * (ux * vx + uy * vy);
    double val = -2.0 * (ux * ux + uy * uy) + mixed - 2.0 * (vx * vx + vy * vy)
                 - 2.0 * c->w * c->w * (dx * cx + dy * cy);
    gsl_vector_set(g, 0, val);
    return GSL_SUCCESS;
}

static mbd_system make(circle *c)
{
    mbd_system s = {
        .n = 2, .m = 1, .model = c,
        .mass = mass, .force = force, .constraint = constraint, .jacobian = jacobian,
        .constraint_t = c->mistake == 3 ? NULL : constraint_t, .gamma = gamma_fn,
    };
    return s;
}

static void evaluate(int mistake, mbd_fdcheck *r)
{
    circle c = {.a = 0.3, .w = 2.0, .L = 1.0, .mistake = mistake};
    mbd_system s = make(&c);
    double qd_[2] = {0.7, -1.3}, q_[2] = {1.1, 0.4};
    gsl_vector_view q = gsl_vector_view_array(q_, 2), qd = gsl_vector_view_array(qd_, 2);
    int st = mbd_system_check_derivatives(&s, 0.37, &q.vector, &qd.vector, 0.0, r);
    CHECK_STATUS(st, GSL_SUCCESS);
}

static void correct_model_passes(void)
{
    mbd_fdcheck r;
    evaluate(0, &r);
    CHECK_LE(r.jacobian_rel, 1e-8);
    CHECK_LE(r.ct_rel, 1e-8);
    CHECK_LE(r.gamma_rel, 1e-6);
}

static void jacobian_sign_error_is_caught(void)
{
    mbd_fdcheck r;
    evaluate(1, &r);
    CHECK_GE(r.jacobian_rel, 0.1);
    CHECK_MSG(r.jacobian_row == 0 && r.jacobian_col == 0, "the worst entry is C_q(0,0), got (%zu,%zu)",
              r.jacobian_row, r.jacobian_col);
}

static void missing_gamma_term_is_caught(void)
{
    mbd_fdcheck r;
    evaluate(2, &r);
    CHECK_LE(r.jacobian_rel, 1e-8);
    CHECK_GE(r.gamma_rel, 0.01);
}

static void missing_ct_is_caught(void)
{
    mbd_fdcheck r;
    evaluate(3, &r);
    CHECK_GE(r.ct_abs, 0.1);
}

static void validate_rejects_incomplete_models(void)
{
    circle c = {.a = 0.3, .w = 2.0, .L = 1.0};
    mbd_system s = make(&c);
    CHECK_STATUS(mbd_system_validate(&s), GSL_SUCCESS);
    s.gamma = NULL;
    CHECK_STATUS(mbd_system_validate(&s), MBD_EINPUT);
    s = make(&c);
    s.n = 0;
    CHECK_STATUS(mbd_system_validate(&s), MBD_EINPUT);
}

/* C' = C_q q' + C_t: against a central difference of C along the motion */
static void constraint_rate(void)
{
    circle c = {.a = 0.3, .w = 2.0, .L = 1.0};
    mbd_system s = make(&c);
    double q_[2] = {1.1, 0.4}, qd_[2] = {0.7, -1.3}, t = 0.37, h = 1e-6;
    gsl_vector_view q = gsl_vector_view_array(q_, 2), qd = gsl_vector_view_array(qd_, 2);
    gsl_matrix *Cq = gsl_matrix_alloc(1, 2);
    gsl_vector *Cdot = gsl_vector_alloc(1), *cp = gsl_vector_alloc(1), *cm = gsl_vector_alloc(1);
    CHECK_STATUS(mbd_system_constraint_rate(&s, t, &q.vector, &qd.vector, Cq, Cdot), GSL_SUCCESS);
    double qp[2] = {q_[0] + h * qd_[0], q_[1] + h * qd_[1]}, qm[2] = {q_[0] - h * qd_[0], q_[1] - h * qd_[1]};
    gsl_vector_view vp = gsl_vector_view_array(qp, 2), vm = gsl_vector_view_array(qm, 2);
    constraint(&s, t + h, &vp.vector, cp);
    constraint(&s, t - h, &vm.vector, cm);
    double fd = (gsl_vector_get(cp, 0) - gsl_vector_get(cm, 0)) / (2 * h);
    CHECK_CLOSE(gsl_vector_get(Cdot, 0), fd, 1e-7);
    gsl_matrix_free(Cq);
    gsl_vector_free(Cdot);
    gsl_vector_free(cp);
    gsl_vector_free(cm);
}

static CU_TestInfo tests[] = {
    {"correct_model_passes", correct_model_passes},
    {"jacobian_sign_error_is_caught", jacobian_sign_error_is_caught},
    {"missing_gamma_term_is_caught", missing_gamma_term_is_caught},
    {"missing_ct_is_caught", missing_ct_is_caught},
    {"validate_rejects_incomplete_models", validate_rejects_incomplete_models},
    {"constraint_rate", constraint_rate},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"system", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
