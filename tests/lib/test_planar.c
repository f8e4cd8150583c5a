/* The planar module: bodies in reference coordinates, joints, drivers,
 * forces, energy and reactions (planar.h; document 001, Secs. 1 and 4).
 *
 *   derivatives    every joint kind's C_q, C_t and gamma against finite
 *                  differences at random states (mbd_system_check_derivatives),
 *                  bodies with their reference points off the centre of mass
 *   inertia        a body's mass matrix and centrifugal force against the closed
 *                  form, and against a body made of point masses (kinetic energy
 *                  summed over the points; Q_v from Lagrange's equation with dM/dtheta
 *                  by differences); kinetic energy about the centre of mass
 *   pendulum       the rod of the reading guide: theta'' = -(3g/2l) cos theta and the
 *                  pin reaction m (a_c - g) (mg/4 up at horizontal release), with the
 *                  reference at the centre and at the pin; a driven pendulum's
 *                  torque; a welded two-rod pendulum, by a rigid joint and by a
 *                  revolute joint with a relative-angle driver
 *   slider         a block on an inclined line (translational joint): acceleration and
 *                  reaction in closed form
 *   slider-crank   the mechanism of chapter 05 from planar bodies against the
 *                  chapter's relative-angle model with its consistent mass matrix,
 *                  re-derived here (the lib tests link only the library): the
 *                  accelerations (theta1'', theta2'', x3''), and the pin force
 *                  at the slider against the chapter's multipliers
 *   building       names, look-ups, forces, and the error paths
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
#include "mbd/formulation.h"
#include "mbd/planar.h"

static const double G = 9.81;

static double uni(gsl_rng *r, double a, double b) { return a + (b - a) * gsl_rng_uniform(r); }

/* Projection accelerations and multipliers of a finished model at (t, q, q'). */
static int accel(const mbd_planar_model *pm, double t, const gsl_vector *q, const gsl_vector *qd,
                 gsl_vector *qdd, gsl_vector *lambda)
{
    mbd_formulation_params p = {.kind = MBD_FORMULATION_PROJECTION};
    mbd_formulation *f = mbd_formulation_alloc(mbd_planar_system(pm), &p);
    if (f == NULL)
        return GSL_EFAILED;
    int st = mbd_formulation_accel(f, t, q, qd, qdd, lambda);
    mbd_formulation_free(f);
    return st;
}

/* |C| and |C_q q' + C_t| at a state (the states built below must be consistent). */
static void violation(const mbd_system *s, double t, const gsl_vector *q, const gsl_vector *qd,
                      double *c, double *cdot)
{
    gsl_vector *C = gsl_vector_alloc(s->m), *Cd = gsl_vector_alloc(s->m);
    gsl_matrix *Cq = gsl_matrix_alloc(s->m, s->n);
    s->constraint(s, t, q, C);
    mbd_system_constraint_rate(s, t, q, qd, Cq, Cd);
    *c = gsl_blas_dnrm2(C);
    *cdot = gsl_blas_dnrm2(Cd);
    gsl_vector_free(C);
    gsl_vector_free(Cd);
    gsl_matrix_free(Cq);
}

/* ------------------------------------------------------------------------ */
/* Derivatives                                                               */

/* f(t) = 0.3 sin(2.1 t) + 0.2 t^2, a driving function with f' and f'' nonzero */
static int wave(double t, double f[3], void *user)
{
    (void)user;
    f[0] = 0.3 * sin(2.1 * t) + 0.2 * t * t;
    f[1] = 0.63 * cos(2.1 * t) + 0.4 * t;
    f[2] = -1.323 * sin(2.1 * t) + 0.4;
    return GSL_SUCCESS;
}

enum { K_REVOLUTE, K_TRANSLATIONAL, K_RIGID, K_GROUND, K_COORD, K_ANGLE, K_ALL };
static const char *const kind_names[] = {"revolute", "translational", "rigid", "ground joint",
                                         "coordinate driver", "angle driver", "all"};

/* Two moving bodies (2, 3), reference points off their centres of mass, a
 * ground (1), and joints of one kind in every arrangement it has: between
 * the two bodies and with the ground on either side. */
static mbd_planar_model *joint_model(int kind)
{
    mbd_planar_model *pm = mbd_planar_alloc();
    const double uc2[2] = {0.31, -0.17}, uc3[2] = {-0.4, 0.22};
    int g = mbd_planar_add_ground(pm, 1);
    int a = mbd_planar_add_body(pm, 2, 1.3, 0.21, uc2);
    int b = mbd_planar_add_body(pm, 3, 0.7, 0.05, uc3);
    const double pa[2] = {0.45, 0.12}, pb[2] = {-0.33, 0.27}, pg[2] = {0.5, -0.8};
    const double axis[2] = {0.6, 0.35};
    const double pose[3] = {0.2, -0.1, 0.4};
    mbd_planar_set_gravity(pm, 0.0, -G);
    if (kind == K_REVOLUTE || kind == K_ALL) {
        mbd_planar_add_revolute(pm, a, pa, b, pb);
        mbd_planar_add_revolute(pm, a, pb, g, pg);
        mbd_planar_add_revolute(pm, g, pg, b, pa);
    }
    if (kind == K_TRANSLATIONAL || kind == K_ALL) {
        mbd_planar_add_translational(pm, a, pa, b, pb, axis, 0.3);
        mbd_planar_add_translational(pm, b, pb, g, pg, axis, -0.2);
        mbd_planar_add_translational(pm, g, pg, a, pa, axis, 0.1);
    }
    if (kind == K_RIGID || kind == K_ALL) {
        mbd_planar_add_rigid(pm, a, pa, b, pb, 0.7);
        mbd_planar_add_rigid(pm, b, pa, g, pg, -0.4);
    }
    if (kind == K_GROUND || kind == K_ALL)
        mbd_planar_add_ground_joint(pm, b, pose);
    if (kind == K_COORD || kind == K_ALL) {
        mbd_planar_add_coordinate_driver(pm, a, MBD_PLANAR_X, mbd_planar_user_function(wave, NULL));
        mbd_planar_add_coordinate_driver(pm, a, MBD_PLANAR_Y, mbd_planar_constant_speed(0.2, -0.7));
        mbd_planar_add_coordinate_driver(pm, b, MBD_PLANAR_THETA,
                                         mbd_planar_constant_accel(0.1, 0.5, -1.3));
    }
    if (kind == K_ANGLE || kind == K_ALL) {
        mbd_planar_add_angle_driver(pm, a, b, mbd_planar_user_function(wave, NULL));
        mbd_planar_add_angle_driver(pm, g, a, mbd_planar_constant_accel(0.4, 1.1, 0.9));
    }
    mbd_planar_finish(pm);
    return pm;
}

/* The step of the second differences that check gamma: the checker's default
 * (1e-4, scaled by max|q| / |q'|) leaves a round-off of eps |C| / h^2, about
 * 1e-6 of gamma at these states (|C| up to 4, |q'| up to 5); at 3e-4 the
 * round-off and the truncation (h^2 C'''' / 12) are both near 1e-8. */
#define GAMMA_STEP 3e-4

static void derivatives_of(int kind)
{
    mbd_planar_model *pm = joint_model(kind);
    const mbd_system *s = mbd_planar_system(pm);
    CHECK_MSG(s != NULL, "%s: %s", kind_names[kind], mbd_planar_failure(pm)->cause);
    if (s == NULL) {
        mbd_planar_free(pm);
        return;
    }
    CHECK_STATUS(mbd_system_validate(s), GSL_SUCCESS);
    const int driven = kind == K_COORD || kind == K_ANGLE || kind == K_ALL;
    CHECK_MSG((s->constraint_t != NULL) == driven, "%s: constraint_t %s", kind_names[kind],
              s->constraint_t ? "present" : "absent");

    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 1234u + (unsigned)kind);
    gsl_vector *q = gsl_vector_alloc(s->n), *qd = gsl_vector_alloc(s->n);
    gsl_vector *gam = gsl_vector_alloc(s->m), *ct = gsl_vector_alloc(s->m);
    double worst_j = 0, worst_t = 0, worst_g = 0, least_gamma = HUGE_VAL, least_ct = HUGE_VAL;
    for (int trial = 0; trial < 20; trial++) {
        for (size_t k = 0; k < s->n; k++) {
            gsl_vector_set(q, k, uni(r, -2.0, 2.0));
            gsl_vector_set(qd, k, uni(r, -3.0, 3.0));
        }
        double t = uni(r, 0.1, 2.0);
        /* C_q and C_t with the checker's default steps; gamma, a second
         * difference, also with the step 3e-4 (see GAMMA_STEP) */
        mbd_fdcheck fd, fd2;
        REQUIRE_STATUS(mbd_system_check_derivatives(s, t, q, qd, 0.0, &fd), GSL_SUCCESS);
        REQUIRE_STATUS(mbd_system_check_derivatives(s, t, q, qd, GAMMA_STEP, &fd2), GSL_SUCCESS);
        worst_j = fmax(worst_j, fd.jacobian_rel);
        worst_t = fmax(worst_t, fd.ct_rel);
        /* a ground joint's gamma is zero: compare absolutely */
        worst_g = fmax(worst_g, kind == K_GROUND ? fd2.gamma_abs : fd2.gamma_rel);
        if (getenv("PLANAR_FD_VERBOSE"))
            printf("%s: jac %.2e ct %.2e gamma(default) %.2e gamma(step) %.2e abs %.2e\n",
                   kind_names[kind], fd.jacobian_rel, fd.ct_rel, fd.gamma_rel, fd2.gamma_rel,
                   fd2.gamma_abs);
        /* the checks compare something: gamma (and C_t when driven) are not small */
        s->gamma(s, t, q, qd, gam);
        least_gamma = fmin(least_gamma, gsl_blas_dnrm2(gam));
        if (driven) {
            s->constraint_t(s, t, q, ct);
            least_ct = fmin(least_ct, gsl_blas_dnrm2(ct));
        }
    }
    CHECK_MSG(worst_j <= 1e-7, "%s: C_q relative difference %.3g", kind_names[kind], worst_j);
    CHECK_MSG(worst_t <= 1e-7, "%s: C_t relative difference %.3g", kind_names[kind], worst_t);
    CHECK_MSG(worst_g <= 1e-6, "%s: gamma relative difference %.3g", kind_names[kind], worst_g);
    if (kind != K_GROUND)      /* a ground joint is linear: gamma = 0 */
        CHECK_MSG(least_gamma >= 0.05, "%s: |gamma| only %.3g", kind_names[kind], least_gamma);
    if (driven)
        CHECK_MSG(least_ct >= 0.05, "%s: |C_t| only %.3g", kind_names[kind], least_ct);
    gsl_vector_free(q);
    gsl_vector_free(qd);
    gsl_vector_free(gam);
    gsl_vector_free(ct);
    gsl_rng_free(r);
    mbd_planar_free(pm);
}

static void derivatives_revolute(void) { derivatives_of(K_REVOLUTE); }
static void derivatives_translational(void) { derivatives_of(K_TRANSLATIONAL); }
static void derivatives_rigid(void) { derivatives_of(K_RIGID); }
static void derivatives_ground(void) { derivatives_of(K_GROUND); }
static void derivatives_coordinate_driver(void) { derivatives_of(K_COORD); }
static void derivatives_angle_driver(void) { derivatives_of(K_ANGLE); }
static void derivatives_all_together(void) { derivatives_of(K_ALL); }

/* The rows, written out for one revolute joint: C = r_i^P - r_j^P. */
static void revolute_rows_closed_form(void)
{
    mbd_planar_model *pm = joint_model(K_REVOLUTE);
    const mbd_system *s = mbd_planar_system(pm);
    gsl_vector *q = gsl_vector_calloc(s->n), *C = gsl_vector_alloc(s->m);
    gsl_matrix *Cq = gsl_matrix_alloc(s->m, s->n);
    const double xa = 0.3, ya = -0.2, ta = 0.8, xb = 1.1, yb = 0.4, tb = -1.3;
    mbd_planar_set_pose(pm, 1, xa, ya, ta, q);
    mbd_planar_set_pose(pm, 2, xb, yb, tb, q);
    s->constraint(s, 0.0, q, C);
    s->jacobian(s, 0.0, q, Cq);
    /* joint 0: a at (0.45, 0.12), b at (-0.33, 0.27) */
    const double ux = 0.45, uy = 0.12, vx = -0.33, vy = 0.27;
    CHECK_CLOSE(gsl_vector_get(C, 0),
                xa + ux * cos(ta) - uy * sin(ta) - xb - vx * cos(tb) + vy * sin(tb), 1e-15);
    CHECK_CLOSE(gsl_vector_get(C, 1),
                ya + ux * sin(ta) + uy * cos(ta) - yb - vx * sin(tb) - vy * cos(tb), 1e-15);
    /* C_q = [I, A_theta u_i, -I, -A_theta u_j] (document 001, Sec. 4) */
    CHECK_CLOSE(gsl_matrix_get(Cq, 0, 0), 1.0, 0);
    CHECK_CLOSE(gsl_matrix_get(Cq, 0, 2), -ux * sin(ta) - uy * cos(ta), 1e-15);
    CHECK_CLOSE(gsl_matrix_get(Cq, 1, 2), ux * cos(ta) - uy * sin(ta), 1e-15);
    CHECK_CLOSE(gsl_matrix_get(Cq, 0, 3), -1.0, 0);
    CHECK_CLOSE(gsl_matrix_get(Cq, 0, 5), vx * sin(tb) + vy * cos(tb), 1e-15);
    CHECK_CLOSE(gsl_matrix_get(Cq, 1, 5), -(vx * cos(tb) - vy * sin(tb)), 1e-15);
    gsl_vector_free(q);
    gsl_vector_free(C);
    gsl_matrix_free(Cq);
    mbd_planar_free(pm);
}

/* ------------------------------------------------------------------------ */
/* Inertia                                                                   */

static void mass_matrix_closed_form(void)
{
    const double m = 2.5, J = 0.3, ucx = 0.4, ucy = -0.7, th = 0.9, w = 1.7;
    const double uc[2] = {ucx, ucy};
    mbd_planar_model *pm = mbd_planar_alloc();
    int b = mbd_planar_add_body(pm, 7, m, J, uc);
    REQUIRE_STATUS(mbd_planar_finish(pm), GSL_SUCCESS);
    const mbd_system *s = mbd_planar_system(pm);
    gsl_vector *q = gsl_vector_alloc(3), *qd = gsl_vector_alloc(3), *F = gsl_vector_alloc(3);
    gsl_matrix *M = gsl_matrix_alloc(3, 3);
    mbd_planar_set_pose(pm, b, 1.2, -0.3, th, q);
    mbd_planar_set_velocity(pm, b, 0.5, -0.8, w, qd);
    s->mass(s, 0.0, q, M);
    const double c = cos(th), sn = sin(th);
    const double expect[3][3] = {
        {m, 0.0, -m * (sn * ucx + c * ucy)},
        {0.0, m, m * (c * ucx - sn * ucy)},
        {-m * (sn * ucx + c * ucy), m * (c * ucx - sn * ucy), J + m * (ucx * ucx + ucy * ucy)},
    };
    for (size_t i = 0; i < 3; i++)
        for (size_t j = 0; j < 3; j++)
            CHECK_CLOSE(gsl_matrix_get(M, i, j), expect[i][j], 1e-14);
    /* Q_v = [theta'^2 A m u_c; 0], no gravity */
    s->force(s, 0.0, q, qd, F);
    CHECK_CLOSE(gsl_vector_get(F, 0), w * w * m * (c * ucx - sn * ucy), 1e-13);
    CHECK_CLOSE(gsl_vector_get(F, 1), w * w * m * (sn * ucx + c * ucy), 1e-13);
    CHECK_CLOSE(gsl_vector_get(F, 2), 0.0, 1e-13);
    gsl_vector_free(q);
    gsl_vector_free(qd);
    gsl_vector_free(F);
    gsl_matrix_free(M);
    mbd_planar_free(pm);
}

/* A body of four point masses, its reference point off the centre: the
 * kinetic energy (1/2) q'^T M q' equals the sum over the points, and the
 * force equals the quadratic-velocity terms of Lagrange's equation,
 * -(M' q' - dT/dq), with dM/dtheta by central differences. */
static void point_mass_body(void)
{
    const double mk[4] = {0.5, 1.2, 0.8, 0.3};
    const double uk[4][2] = {{0.3, 0.1}, {-0.2, 0.5}, {0.7, -0.4}, {-0.6, -0.3}};
    double m = 0, uc[2] = {0, 0}, J = 0;
    for (int k = 0; k < 4; k++) {
        m += mk[k];
        uc[0] += mk[k] * uk[k][0];
        uc[1] += mk[k] * uk[k][1];
    }
    uc[0] /= m;
    uc[1] /= m;
    for (int k = 0; k < 4; k++)
        J += mk[k] * (gsl_pow_2(uk[k][0] - uc[0]) + gsl_pow_2(uk[k][1] - uc[1]));
    mbd_planar_model *pm = mbd_planar_alloc();
    int b = mbd_planar_add_body(pm, 1, m, J, uc);
    REQUIRE_STATUS(mbd_planar_finish(pm), GSL_SUCCESS);
    const mbd_system *s = mbd_planar_system(pm);
    gsl_vector *q = gsl_vector_alloc(3), *qd = gsl_vector_alloc(3), *F = gsl_vector_alloc(3);
    gsl_vector *Mv = gsl_vector_alloc(3);
    gsl_matrix *M = gsl_matrix_alloc(3, 3), *Mp = gsl_matrix_alloc(3, 3),
               *Mm = gsl_matrix_alloc(3, 3);
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 99);
    for (int trial = 0; trial < 10; trial++) {
        const double x = uni(r, -1, 1), y = uni(r, -1, 1), th = uni(r, -3, 3);
        const double vx = uni(r, -2, 2), vy = uni(r, -2, 2), w = uni(r, -4, 4);
        mbd_planar_set_pose(pm, b, x, y, th, q);
        mbd_planar_set_velocity(pm, b, vx, vy, w, qd);
        /* the points' own kinetic energy */
        double T = 0;
        for (int k = 0; k < 4; k++) {
            /* v_k = R' + w (d/dtheta)(A u_k) */
            const double ax = -sin(th) * uk[k][0] - cos(th) * uk[k][1];
            const double ay = cos(th) * uk[k][0] - sin(th) * uk[k][1];
            T += 0.5 * mk[k] * (gsl_pow_2(vx + w * ax) + gsl_pow_2(vy + w * ay));
        }
        s->mass(s, 0.0, q, M);
        gsl_blas_dsymv(CblasUpper, 1.0, M, qd, 0.0, Mv);
        double qMq;
        gsl_blas_ddot(qd, Mv, &qMq);
        CHECK_CLOSE(0.5 * qMq, T, 1e-13 * fmax(1.0, T));
        double E;
        s->energy(s, 0.0, q, qd, &E);
        CHECK_CLOSE(E, T, 1e-13 * fmax(1.0, T));
        /* Lagrange: Q_v = -(dM/dtheta w q' - (1/2) q'^T dM/dtheta q' e_theta) */
        const double h = 1e-6;
        gsl_vector_set(q, 2, th + h);
        s->mass(s, 0.0, q, Mp);
        gsl_vector_set(q, 2, th - h);
        s->mass(s, 0.0, q, Mm);
        gsl_vector_set(q, 2, th);
        gsl_matrix_sub(Mp, Mm);
        gsl_matrix_scale(Mp, 1.0 / (2 * h));              /* dM/dtheta */
        gsl_blas_dgemv(CblasNoTrans, 1.0, Mp, qd, 0.0, Mv);
        double half;
        gsl_blas_ddot(qd, Mv, &half);
        s->force(s, 0.0, q, qd, F);
        for (size_t i = 0; i < 3; i++) {
            double lag = -(w * gsl_vector_get(Mv, i) - (i == 2 ? 0.5 * half : 0.0));
            CHECK_CLOSE(gsl_vector_get(F, i), lag, 1e-7);
        }
    }
    gsl_rng_free(r);
    gsl_vector_free(q);
    gsl_vector_free(qd);
    gsl_vector_free(F);
    gsl_vector_free(Mv);
    gsl_matrix_free(M);
    gsl_matrix_free(Mp);
    gsl_matrix_free(Mm);
    mbd_planar_free(pm);
}

/* A body turning about its centre of mass at w, the centre moving at v_c:
 * T = (1/2)(m |v_c|^2 + J_c w^2), whatever the reference point; with gravity
 * the energy adds -m g . r_c. */
static void kinetic_energy_about_centre(void)
{
    const double m = 1.7, J = 0.23, uc[2] = {-0.35, 0.6}, th = 2.2, w = -3.1;
    const double vc[2] = {0.4, -1.1}, gv[2] = {0.3, -G};
    mbd_planar_model *pm = mbd_planar_alloc();
    int b = mbd_planar_add_body(pm, 4, m, J, uc);
    mbd_planar_set_gravity(pm, gv[0], gv[1]);
    REQUIRE_STATUS(mbd_planar_finish(pm), GSL_SUCCESS);
    const mbd_system *s = mbd_planar_system(pm);
    gsl_vector *q = gsl_vector_alloc(3), *qd = gsl_vector_alloc(3), *Mv = gsl_vector_alloc(3);
    gsl_matrix *M = gsl_matrix_alloc(3, 3);
    const double R[2] = {0.8, 1.9};
    mbd_planar_set_pose(pm, b, R[0], R[1], th, q);
    /* R' = v_c - w k x (A u_c) */
    const double a[2] = {cos(th) * uc[0] - sin(th) * uc[1], sin(th) * uc[0] + cos(th) * uc[1]};
    mbd_planar_set_velocity(pm, b, vc[0] + w * a[1], vc[1] - w * a[0], w, qd);
    double v[2];
    REQUIRE_STATUS(mbd_planar_point_velocity(pm, b, uc, q, qd, v), GSL_SUCCESS);
    CHECK_CLOSE(v[0], vc[0], 1e-15);
    CHECK_CLOSE(v[1], vc[1], 1e-15);
    s->mass(s, 0.0, q, M);
    gsl_blas_dgemv(CblasNoTrans, 1.0, M, qd, 0.0, Mv);
    double qMq;
    gsl_blas_ddot(qd, Mv, &qMq);
    const double T = 0.5 * (m * (vc[0] * vc[0] + vc[1] * vc[1]) + J * w * w);
    CHECK_CLOSE(0.5 * qMq, T, 1e-13);
    double E;
    s->energy(s, 0.0, q, qd, &E);
    const double V = -m * (gv[0] * (R[0] + a[0]) + gv[1] * (R[1] + a[1]));
    CHECK_CLOSE(E, T + V, 1e-13);
    gsl_vector_free(q);
    gsl_vector_free(qd);
    gsl_vector_free(Mv);
    gsl_matrix_free(M);
    mbd_planar_free(pm);
}

/* ------------------------------------------------------------------------ */
/* The pendulum rod (m = 1, l = 1, pinned at one end, gravity 9.81 in -y)      */

/* Reference at the centre (pin at (-l/2, 0)) or at the pin (centre at (l/2, 0)). */
static mbd_planar_model *pendulum(int at_pin, int *rod, int *pin)
{
    const double l = 1.0, m = 1.0;
    mbd_planar_model *pm = mbd_planar_alloc();
    int g = mbd_planar_add_ground(pm, 1);
    const double uc[2] = {at_pin ? l / 2 : 0.0, 0.0};
    const double p[2] = {at_pin ? 0.0 : -l / 2, 0.0}, o[2] = {0.0, 0.0};
    *rod = mbd_planar_add_body(pm, 2, m, m * l * l / 12, uc);
    *pin = mbd_planar_add_revolute(pm, *rod, p, g, o);
    mbd_planar_set_gravity(pm, 0.0, -G);
    mbd_planar_finish(pm);
    return pm;
}

/* the state of the rod at angle th, rate w, for either reference point */
static void pendulum_state(const mbd_planar_model *pm, int rod, int at_pin, double th, double w,
                           gsl_vector *q, gsl_vector *qd)
{
    const double r = at_pin ? 0.0 : 0.5;
    mbd_planar_set_pose(pm, rod, r * cos(th), r * sin(th), th, q);
    mbd_planar_set_velocity(pm, rod, -r * w * sin(th), r * w * cos(th), w, qd);
}

static void pendulum_rod(void)
{
    const double th_list[] = {0.0, 0.4, -1.2, 2.5, M_PI / 2};
    const double w_list[] = {0.0, 1.3, -2.0, 0.7, 3.0};
    for (int at_pin = 0; at_pin < 2; at_pin++) {
        int rod, pin;
        mbd_planar_model *pm = pendulum(at_pin, &rod, &pin);
        const mbd_system *s = mbd_planar_system(pm);
        REQUIRE_STATUS(s != NULL ? GSL_SUCCESS : mbd_planar_failure(pm)->status, GSL_SUCCESS);
        CHECK_MSG(s->n == 3 && s->m == 2, "n = %zu, m = %zu", s->n, s->m);
        gsl_vector *q = gsl_vector_alloc(3), *qd = gsl_vector_alloc(3), *qdd = gsl_vector_alloc(3);
        gsl_vector *lam = gsl_vector_alloc(2);
        for (size_t k = 0; k < sizeof th_list / sizeof th_list[0]; k++) {
            const double th = th_list[k], w = w_list[k];
            pendulum_state(pm, rod, at_pin, th, w, q, qd);
            double c, cd;
            violation(s, 0.0, q, qd, &c, &cd);
            CHECK_LE(c, 1e-15);
            CHECK_LE(cd, 1e-15);
            REQUIRE_STATUS(accel(pm, 0.0, q, qd, qdd, lam), GSL_SUCCESS);
            const double alpha = -1.5 * G * cos(th);        /* -(3g/2l) cos theta */
            CHECK_CLOSE(gsl_vector_get(qdd, 2), alpha, 1e-12);
            /* the pin's force on the rod: m a_c - m g, a_c = alpha k x c - w^2 c */
            const double cx = 0.5 * cos(th), cy = 0.5 * sin(th);
            const double acx = -alpha * cy - w * w * cx, acy = alpha * cx - w * w * cy;
            mbd_planar_reaction on_rod, on_ground;
            REQUIRE_STATUS(mbd_planar_reactions(pm, pin, q, lam, &on_rod, &on_ground),
                           GSL_SUCCESS);
            CHECK_CLOSE(on_rod.F[0], acx, 1e-12);
            CHECK_CLOSE(on_rod.F[1], acy + G, 1e-12);
            CHECK_CLOSE(on_rod.T, 0.0, 1e-12);
            CHECK_CLOSE(on_rod.point[0], 0.0, 1e-15);
            CHECK_CLOSE(on_rod.point[1], 0.0, 1e-15);
            CHECK_CLOSE(on_ground.F[0], -on_rod.F[0], 1e-12);
            CHECK_CLOSE(on_ground.F[1], -on_rod.F[1], 1e-12);
            CHECK_CLOSE(on_ground.T, 0.0, 1e-12);
            if (k == 0) {
                /* released horizontal at rest: theta'' = -14.715, the centre falls at
                 * 7.3575, lambda = (0, -mg/4), the pin holds the rod up with mg/4 */
                CHECK_CLOSE(gsl_vector_get(qdd, 2), -14.715, 1e-12);
                CHECK_CLOSE(on_rod.F[0], 0.0, 1e-12);
                CHECK_CLOSE(on_rod.F[1], G / 4, 1e-12);
                if (!at_pin) {
                    CHECK_CLOSE(gsl_vector_get(qdd, 1), -7.3575, 1e-12);
                    CHECK_CLOSE(gsl_vector_get(lam, 0), 0.0, 1e-12);
                    CHECK_CLOSE(gsl_vector_get(lam, 1), -2.4525, 1e-12);
                }
            }
        }
        gsl_vector_free(q);
        gsl_vector_free(qd);
        gsl_vector_free(qdd);
        gsl_vector_free(lam);
        mbd_planar_free(pm);
    }
}

/* The rod's angle driven at constant angular acceleration: theta'' = f'' and
 * the driver's torque on the rod is J_pin theta'' + m g (l/2) cos theta. */
static void driven_pendulum(void)
{
    int rod, pin;
    mbd_planar_model *pm = mbd_planar_alloc();
    int g = mbd_planar_add_ground(pm, 1);
    const double uc[2] = {0.5, 0.0}, o[2] = {0.0, 0.0};
    rod = mbd_planar_add_body(pm, 2, 1.0, 1.0 / 12, uc);
    pin = mbd_planar_add_revolute(pm, rod, o, g, o);
    const double th0 = 0.3, w0 = -0.8, acc = 2.5, t = 0.7;
    int drv = mbd_planar_add_coordinate_driver(pm, rod, MBD_PLANAR_THETA,
                                               mbd_planar_constant_accel(th0, w0, acc));
    mbd_planar_set_gravity(pm, 0.0, -G);
    REQUIRE_STATUS(mbd_planar_finish(pm), GSL_SUCCESS);
    const mbd_system *s = mbd_planar_system(pm);
    gsl_vector *q = gsl_vector_alloc(3), *qd = gsl_vector_alloc(3), *qdd = gsl_vector_alloc(3);
    gsl_vector *lam = gsl_vector_alloc(3);
    const double th = th0 + w0 * t + 0.5 * acc * t * t, w = w0 + acc * t;
    mbd_planar_set_pose(pm, rod, 0.0, 0.0, th, q);
    mbd_planar_set_velocity(pm, rod, 0.0, 0.0, w, qd);
    double c, cd;
    violation(s, t, q, qd, &c, &cd);
    CHECK_LE(c, 1e-15);
    CHECK_LE(cd, 1e-15);
    REQUIRE_STATUS(accel(pm, t, q, qd, qdd, lam), GSL_SUCCESS);
    CHECK_CLOSE(gsl_vector_get(qdd, 2), acc, 1e-12);
    mbd_planar_reaction d, dg, p;
    REQUIRE_STATUS(mbd_planar_reactions(pm, drv, q, lam, &d, &dg), GSL_SUCCESS);
    CHECK_CLOSE(d.T, acc / 3.0 + G * 0.5 * cos(th), 1e-12);
    CHECK_CLOSE(d.F[0], 0.0, 1e-15);
    CHECK_CLOSE(d.F[1], 0.0, 1e-15);
    CHECK_CLOSE(dg.T, -d.T, 1e-15);
    /* and the pin carries m a_c - m g */
    REQUIRE_STATUS(mbd_planar_reactions(pm, pin, q, lam, &p, NULL), GSL_SUCCESS);
    const double cx = 0.5 * cos(th), cy = 0.5 * sin(th);
    CHECK_CLOSE(p.F[0], -acc * cy - w * w * cx, 1e-12);
    CHECK_CLOSE(p.F[1], acc * cx - w * w * cy + G, 1e-12);
    gsl_vector_free(q);
    gsl_vector_free(qd);
    gsl_vector_free(qdd);
    gsl_vector_free(lam);
    mbd_planar_free(pm);
}

/* Two unit rods end to end, the first pinned at the origin: welded by a rigid
 * joint, or pinned and held straight by an angle driver theta_3 - theta_2 = 0.
 * Both are a rod of length 2 and mass 2: theta'' = -(3g/4) cos theta; the
 * joint carries the same force and bending moment. */
static mbd_planar_model *two_rods(int welded, int *weld)
{
    mbd_planar_model *pm = mbd_planar_alloc();
    int g = mbd_planar_add_ground(pm, 1);
    const double o[2] = {0, 0}, left[2] = {-0.5, 0}, right[2] = {0.5, 0}, half[2] = {0.5, 0};
    int a = mbd_planar_add_body(pm, 2, 1.0, 1.0 / 12, NULL);   /* reference at its centre */
    int b = mbd_planar_add_body(pm, 3, 1.0, 1.0 / 12, half);   /* reference at its left end */
    mbd_planar_add_revolute(pm, a, left, g, o);
    if (welded) {
        *weld = mbd_planar_add_rigid(pm, a, right, b, o, 0.0);
    } else {
        mbd_planar_add_revolute(pm, a, right, b, o);
        *weld = mbd_planar_add_angle_driver(pm, a, b, mbd_planar_constant_speed(0.0, 0.0));
    }
    mbd_planar_set_gravity(pm, 0.0, -G);
    mbd_planar_finish(pm);
    return pm;
}

static void welded_rods(void)
{
    const double th = 0.6, w = 1.4;
    double qdd_w[6] = {0}, T_w = 0, F_w[2] = {0, 0};
    for (int welded = 1; welded >= 0; welded--) {
        int weld;
        mbd_planar_model *pm = two_rods(welded, &weld);
        const mbd_system *s = mbd_planar_system(pm);
        REQUIRE_STATUS(s != NULL ? GSL_SUCCESS : mbd_planar_failure(pm)->status, GSL_SUCCESS);
        gsl_vector *q = gsl_vector_alloc(6), *qd = gsl_vector_alloc(6), *qdd = gsl_vector_alloc(6);
        gsl_vector *lam = gsl_vector_alloc(s->m);
        const double c = cos(th), sn = sin(th);
        mbd_planar_set_pose(pm, 1, 0.5 * c, 0.5 * sn, th, q);
        mbd_planar_set_velocity(pm, 1, -0.5 * w * sn, 0.5 * w * c, w, qd);
        mbd_planar_set_pose(pm, 2, c, sn, th, q);
        mbd_planar_set_velocity(pm, 2, -w * sn, w * c, w, qd);
        double cv, cd;
        violation(s, 0.0, q, qd, &cv, &cd);
        CHECK_LE(cv, 1e-15);
        CHECK_LE(cd, 1e-15);
        REQUIRE_STATUS(accel(pm, 0.0, q, qd, qdd, lam), GSL_SUCCESS);
        const double alpha = -0.75 * G * c;
        CHECK_CLOSE(gsl_vector_get(qdd, 2), alpha, 1e-12);
        CHECK_CLOSE(gsl_vector_get(qdd, 5), alpha, 1e-12);
        /* the reaction on rod 3 at the joint, in closed form: its centre at
         * 1.5 (c, s) from the pin accelerates at a_c; F = m (a_c - g),
         * T about the joint point P = J alpha - (P - r_c) x F */
        const double acx = 1.5 * (-alpha * sn - w * w * c), acy = 1.5 * (alpha * c - w * w * sn);
        const double F[2] = {acx, acy + G};
        const double arm[2] = {-0.5 * c, -0.5 * sn};       /* P - r_c */
        const double T = alpha / 12 - (arm[0] * F[1] - arm[1] * F[0]);
        mbd_planar_reaction on_a, on_b;
        REQUIRE_STATUS(mbd_planar_reactions(pm, weld, q, lam, &on_a, &on_b), GSL_SUCCESS);
        if (welded) {
            CHECK_CLOSE(on_b.F[0], F[0], 1e-12);
            CHECK_CLOSE(on_b.F[1], F[1], 1e-12);
            CHECK_CLOSE(on_b.T, T, 1e-12);
            CHECK_CLOSE(on_a.F[0], -F[0], 1e-12);
            CHECK_CLOSE(on_a.T, -T, 1e-12);
            CHECK_CLOSE(on_b.point[0], c, 1e-15);
            CHECK_CLOSE(on_b.point[1], sn, 1e-15);
            for (size_t i = 0; i < 6; i++)
                qdd_w[i] = gsl_vector_get(qdd, i);
            T_w = on_b.T;
            F_w[0] = on_b.F[0];
            F_w[1] = on_b.F[1];
        } else {
            for (size_t i = 0; i < 6; i++)
                CHECK_CLOSE(gsl_vector_get(qdd, i), qdd_w[i], 1e-12);
            /* the driver carries the moment (a pure torque), the pin the force */
            CHECK_CLOSE(on_b.T, T_w, 1e-12);
            CHECK_CLOSE(on_b.F[0], 0.0, 1e-15);
            CHECK_CLOSE(on_a.T, -T_w, 1e-12);
            mbd_planar_reaction pin_b;
            REQUIRE_STATUS(mbd_planar_reactions(pm, 1, q, lam, NULL, &pin_b), GSL_SUCCESS);
            CHECK_CLOSE(pin_b.F[0], F_w[0], 1e-12);
            CHECK_CLOSE(pin_b.F[1], F_w[1], 1e-12);
            CHECK_CLOSE(pin_b.T, 0.0, 1e-12);
        }
        gsl_vector_free(q);
        gsl_vector_free(qd);
        gsl_vector_free(qdd);
        gsl_vector_free(lam);
        mbd_planar_free(pm);
    }
}

/* ------------------------------------------------------------------------ */
/* A block on an inclined line                                               */

static void block_on_incline(void)
{
    const double m = 2.0, J = 0.2, uc[2] = {0.3, 0.2}, p[2] = {-0.1, 0.05};
    const double beta = 0.4, axis[2] = {cos(0.4), sin(0.4)}, through[2] = {1.0, 2.0};
    const double phi0 = 0.25, sp = 0.7, sd = -1.3;        /* position and speed on the line */
    mbd_planar_model *pm = mbd_planar_alloc();
    int g = mbd_planar_add_ground(pm, 1);
    int b = mbd_planar_add_body(pm, 5, m, J, uc);
    const double twice[2] = {2 * axis[0], 2 * axis[1]};   /* the axis need not be unit */
    int k = mbd_planar_add_translational(pm, b, p, g, through, twice, phi0);
    mbd_planar_set_gravity(pm, 0.0, -G);
    REQUIRE_STATUS(mbd_planar_finish(pm), GSL_SUCCESS);
    const mbd_system *s = mbd_planar_system(pm);
    gsl_vector *q = gsl_vector_alloc(3), *qd = gsl_vector_alloc(3), *qdd = gsl_vector_alloc(3);
    gsl_vector *lam = gsl_vector_alloc(2);
    const double c = cos(phi0), sn = sin(phi0);
    const double P[2] = {through[0] + sp * axis[0], through[1] + sp * axis[1]};
    mbd_planar_set_pose(pm, b, P[0] - (c * p[0] - sn * p[1]), P[1] - (sn * p[0] + c * p[1]), phi0,
                        q);
    mbd_planar_set_velocity(pm, b, sd * axis[0], sd * axis[1], 0.0, qd);
    double cv, cd;
    violation(s, 0.0, q, qd, &cv, &cd);
    CHECK_LE(cv, 1e-15);
    CHECK_LE(cd, 1e-15);
    REQUIRE_STATUS(accel(pm, 0.0, q, qd, qdd, lam), GSL_SUCCESS);
    const double a = -G * sin(beta);                      /* along the axis */
    CHECK_CLOSE(gsl_vector_get(qdd, 0), a * axis[0], 1e-12);
    CHECK_CLOSE(gsl_vector_get(qdd, 1), a * axis[1], 1e-12);
    CHECK_CLOSE(gsl_vector_get(qdd, 2), 0.0, 1e-12);
    /* F = m (a_c - g) at P (the normal force m g cos beta), and the moment
     * that keeps the block from turning: T = (r_c - P) x F */
    const double F[2] = {m * a * axis[0], m * a * axis[1] + m * G};
    const double rc[2] = {gsl_vector_get(q, 0) + c * uc[0] - sn * uc[1],
                          gsl_vector_get(q, 1) + sn * uc[0] + c * uc[1]};
    const double T = (rc[0] - P[0]) * F[1] - (rc[1] - P[1]) * F[0];
    mbd_planar_reaction on_b, on_g;
    REQUIRE_STATUS(mbd_planar_reactions(pm, k, q, lam, &on_b, &on_g), GSL_SUCCESS);
    CHECK_CLOSE(on_b.point[0], P[0], 1e-15);
    CHECK_CLOSE(on_b.point[1], P[1], 1e-15);
    CHECK_CLOSE(on_b.F[0], F[0], 1e-12);
    CHECK_CLOSE(on_b.F[1], F[1], 1e-12);
    CHECK_CLOSE(-on_b.F[0] * sin(beta) + on_b.F[1] * cos(beta), m * G * cos(beta), 1e-12);
    CHECK_CLOSE(on_b.T, T, 1e-12);
    CHECK_CLOSE(on_g.F[0], -F[0], 1e-12);
    CHECK_CLOSE(on_g.F[1], -F[1], 1e-12);
    CHECK_CLOSE(on_g.T, -T, 1e-12);
    gsl_vector_free(q);
    gsl_vector_free(qd);
    gsl_vector_free(qdd);
    gsl_vector_free(lam);
    mbd_planar_free(pm);
}

/* ------------------------------------------------------------------------ */
/* The slider-crank of chapter 05                                            */

/* Chapter 05's model (document 000, Sec. 2.4.3), re-derived here: angles from
 * the downward vertical, the crank (rod 1: m1, L1) about the origin, rod 2
 * (m2, L2) at the relative angle th2 from the crank, the slider (m3) at x3
 * on the x axis; q = (th1, th2, x3); the consistent mass matrix of the
 * two-rod chain, gravity and the chain's velocity terms; the end of rod 2
 * held at (x3, 0). The accelerations and multipliers of
 * [M C_q^T; C_q 0] [q''; lambda] = [F; gamma]. */
typedef struct {
    double g, m1, m2, m3, L1, L2;
} crank_data;

static void ch05_reference(const crank_data *d, const double q[3], const double qd[3],
                           double qdd[3], double lambda[2])
{
    const double a = q[0], b = q[0] + q[1], w1 = qd[0], w2 = qd[1], w12 = w1 + w2;
    const double I1 = d->m1 * d->L1 * d->L1 / 3, I2 = d->m2 * d->L2 * d->L2 / 3;
    const double cc = d->m2 * d->L1 * d->L2 * cos(q[1]);
    const double h = 0.5 * d->m2 * d->L1 * d->L2 * sin(q[1]);
    double K[25] = {0}, rhs[5];
    /* M */
    K[0 * 5 + 0] = I1 + d->m2 * d->L1 * d->L1 + I2 + cc;
    K[0 * 5 + 1] = K[1 * 5 + 0] = I2 + 0.5 * cc;
    K[1 * 5 + 1] = I2;
    K[2 * 5 + 2] = d->m3;
    /* C_q and its transpose */
    const double Cq[2][3] = {
        {d->L1 * cos(a) + d->L2 * cos(b), d->L2 * cos(b), -1.0},
        {d->L1 * sin(a) + d->L2 * sin(b), d->L2 * sin(b), 0.0},
    };
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 3; j++)
            K[(3 + i) * 5 + j] = K[j * 5 + 3 + i] = Cq[i][j];
    /* F: gravity and the velocity terms of Lagrange's equation */
    rhs[0] = h * (w2 * w2 + 2 * w1 * w2) - d->m2 * d->g * (d->L1 * sin(a) + 0.5 * d->L2 * sin(b))
             - d->m1 * d->g * 0.5 * d->L1 * sin(a);
    rhs[1] = -h * w1 * w1 - d->m2 * d->g * 0.5 * d->L2 * sin(b);
    rhs[2] = 0.0;
    /* gamma = -(C_q q')_q q' */
    rhs[3] = d->L1 * sin(a) * w1 * w1 + d->L2 * sin(b) * w12 * w12;
    rhs[4] = -(d->L1 * cos(a) * w1 * w1 + d->L2 * cos(b) * w12 * w12);
    gsl_matrix_view Km = gsl_matrix_view_array(K, 5, 5);
    gsl_vector_view r = gsl_vector_view_array(rhs, 5);
    gsl_vector *x = gsl_vector_alloc(5);
    gsl_permutation *perm = gsl_permutation_alloc(5);
    int sgn;
    gsl_linalg_LU_decomp(&Km.matrix, perm, &sgn);
    gsl_linalg_LU_solve(&Km.matrix, perm, &r.vector, x);
    for (int i = 0; i < 3; i++)
        qdd[i] = gsl_vector_get(x, i);
    for (int i = 0; i < 2; i++)
        lambda[i] = gsl_vector_get(x, 3 + i);
    gsl_vector_free(x);
    gsl_permutation_free(perm);
}

/* The same mechanism from planar bodies: ground 0, crank 1 with its reference
 * at the pivot (off its centre), rod 2 with its reference at its centre,
 * slider 3 with its reference at the pin; revolute joints at the pivot, the
 * crank pin and the slider pin, the slider on the x axis. Its planar angles
 * are phi = th - pi/2 (from +x). */
typedef struct {
    int crank, rod, slider, pivot, pin_a, pin_b, guide;
} crank_ids;

static mbd_planar_model *planar_slider_crank(const crank_data *d, crank_ids *id)
{
    mbd_planar_model *pm = mbd_planar_alloc();
    int g = mbd_planar_add_ground(pm, 0);
    const double o[2] = {0, 0}, ucc[2] = {d->L1 / 2, 0}, tip[2] = {d->L1, 0};
    const double rod_a[2] = {-d->L2 / 2, 0}, rod_b[2] = {d->L2 / 2, 0}, x_axis[2] = {1, 0};
    id->crank = mbd_planar_add_body(pm, 1, d->m1, d->m1 * d->L1 * d->L1 / 12, ucc);
    id->rod = mbd_planar_add_body(pm, 2, d->m2, d->m2 * d->L2 * d->L2 / 12, NULL);
    id->slider = mbd_planar_add_body(pm, 3, d->m3, 0.05, NULL);
    id->pivot = mbd_planar_add_revolute(pm, id->crank, o, g, o);
    id->pin_a = mbd_planar_add_revolute(pm, id->crank, tip, id->rod, rod_a);
    id->pin_b = mbd_planar_add_revolute(pm, id->rod, rod_b, id->slider, o);
    id->guide = mbd_planar_add_translational(pm, id->slider, o, g, o, x_axis, 0.0);
    mbd_planar_set_gravity(pm, 0.0, -d->g);
    mbd_planar_finish(pm);
    return pm;
}

/* A consistent state of the chapter's model from th1, th1' and the branch of
 * rod 2 (sign of its absolute angle's sine... by acos): cos b = -L1 cos th1 / L2. */
static void crank_state(const crank_data *d, double th1, double w1, int branch, double q[3],
                        double qd[3])
{
    double b = acos(-d->L1 * cos(th1) / d->L2);
    if (branch)
        b = -b;
    q[0] = th1;
    q[1] = b - th1;
    q[2] = d->L1 * sin(th1) + d->L2 * sin(b);
    /* C_q q' = 0 with th1' given */
    const double w2 = -(d->L1 * sin(th1) + d->L2 * sin(b)) * w1 / (d->L2 * sin(b));
    qd[0] = w1;
    qd[1] = w2;
    qd[2] = (d->L1 * cos(th1) + d->L2 * cos(b)) * w1 + d->L2 * cos(b) * w2;
}

/* The chapter's state in planar coordinates. */
static void to_planar(const crank_data *d, const crank_ids *id, const mbd_planar_model *pm,
                      const double q[3], const double qd[3], gsl_vector *Q, gsl_vector *Qd)
{
    const double a = q[0], b = q[0] + q[1], w1 = qd[0], w12 = qd[0] + qd[1];
    gsl_vector_set_zero(Q);
    gsl_vector_set_zero(Qd);
    mbd_planar_set_pose(pm, id->crank, 0.0, 0.0, a - M_PI / 2, Q);
    mbd_planar_set_velocity(pm, id->crank, 0.0, 0.0, w1, Qd);
    /* rod 2's centre: the crank tip plus half the rod */
    const double cx = d->L1 * sin(a) + 0.5 * d->L2 * sin(b);
    const double cy = -d->L1 * cos(a) - 0.5 * d->L2 * cos(b);
    const double vx = d->L1 * cos(a) * w1 + 0.5 * d->L2 * cos(b) * w12;
    const double vy = d->L1 * sin(a) * w1 + 0.5 * d->L2 * sin(b) * w12;
    mbd_planar_set_pose(pm, id->rod, cx, cy, b - M_PI / 2, Q);
    mbd_planar_set_velocity(pm, id->rod, vx, vy, w12, Qd);
    mbd_planar_set_pose(pm, id->slider, q[2], 0.0, 0.0, Q);
    mbd_planar_set_velocity(pm, id->slider, qd[2], 0.0, 0.0, Qd);
}

static void slider_crank_against(const crank_data *d, const char *what)
{
    crank_ids id;
    mbd_planar_model *pm = planar_slider_crank(d, &id);
    const mbd_system *s = mbd_planar_system(pm);
    CHECK_MSG(s != NULL, "%s: %s", what, mbd_planar_failure(pm)->cause);
    if (s == NULL) {
        mbd_planar_free(pm);
        return;
    }
    CHECK_MSG(s->n == 9 && s->m == 8, "%s: n = %zu, m = %zu", what, s->n, s->m);
    gsl_vector *Q = gsl_vector_alloc(9), *Qd = gsl_vector_alloc(9), *Qdd = gsl_vector_alloc(9);
    gsl_vector *lam = gsl_vector_alloc(8);
    size_t ith1, ith2, ix3;
    REQUIRE_STATUS(mbd_planar_coordinate(pm, "theta1", &ith1), GSL_SUCCESS);
    REQUIRE_STATUS(mbd_planar_coordinate(pm, "theta2", &ith2), GSL_SUCCESS);
    REQUIRE_STATUS(mbd_planar_coordinate(pm, "x3", &ix3), GSL_SUCCESS);
    const double th1s[] = {3 * M_PI / 4, 0.4, 2.0, -1.1, 2.9, -2.5};
    const double w1s[] = {0.0, 2.5, -1.7, 4.0, 0.3, -3.2};
    double worst = 0, worst_pin = 0;
    for (size_t k = 0; k < sizeof th1s / sizeof th1s[0]; k++) {
        double q[3], qd[3], qdd[3], lr[2];
        crank_state(d, th1s[k], w1s[k], (int)(k % 2), q, qd);
        ch05_reference(d, q, qd, qdd, lr);
        to_planar(d, &id, pm, q, qd, Q, Qd);
        double cv, cd;
        violation(s, 0.0, Q, Qd, &cv, &cd);
        CHECK_MSG(cv <= 1e-13 && cd <= 1e-13, "%s state %zu: |C| %.3g, |C'| %.3g", what, k, cv,
                  cd);
        REQUIRE_STATUS(accel(pm, 0.0, Q, Qd, Qdd, lam), GSL_SUCCESS);
        const double p1 = gsl_vector_get(Qdd, ith1), p2 = gsl_vector_get(Qdd, ith2);
        const double p3 = gsl_vector_get(Qdd, ix3);
        /* theta1'' = phi1'', theta2'' = phi2'' - phi1'' (relative), x3'' */
        const double diff[3] = {p1 - qdd[0], (p2 - p1) - qdd[1], p3 - qdd[2]};
        for (int i = 0; i < 3; i++) {
            const double e = fabs(diff[i]) / fmax(1.0, fabs(qdd[i]));
            worst = fmax(worst, e);
        }
        /* the pin at the slider: the chapter's lambda is the force on the slider */
        mbd_planar_reaction on_rod, on_slider, guide;
        REQUIRE_STATUS(mbd_planar_reactions(pm, id.pin_b, Q, lam, &on_rod, &on_slider),
                       GSL_SUCCESS);
        REQUIRE_STATUS(mbd_planar_reactions(pm, id.guide, Q, lam, &guide, NULL), GSL_SUCCESS);
        const double scale = fmax(1.0, fmax(fabs(lr[0]), fabs(lr[1])));
        worst_pin = fmax(worst_pin, fabs(on_slider.F[0] - lr[0]) / scale);
        worst_pin = fmax(worst_pin, fabs(on_slider.F[1] - lr[1]) / scale);
        worst_pin = fmax(worst_pin, fabs(on_rod.F[0] + lr[0]) / scale);
        worst_pin = fmax(worst_pin, fabs(on_rod.F[1] + lr[1]) / scale);
        /* the guide takes the slider's weight less the pin's push, no x force, no moment */
        CHECK_CLOSE(guide.F[0], 0.0, 1e-10 * scale);
        CHECK_CLOSE(guide.F[1], d->m3 * d->g - lr[1], 1e-10 * scale);
        CHECK_CLOSE(guide.T, 0.0, 1e-10 * scale);
        if (k == 0)
            CHECK_MSG(fabs(qdd[0]) > 0.1, "%s: the reference theta1'' is %g", what, qdd[0]);
    }
    CHECK_MSG(worst <= 1e-10, "%s: accelerations differ by %.3g (relative)", what, worst);
    CHECK_MSG(worst_pin <= 1e-10, "%s: pin force differs by %.3g (relative)", what, worst_pin);
    gsl_vector_free(Q);
    gsl_vector_free(Qd);
    gsl_vector_free(Qdd);
    gsl_vector_free(lam);
    mbd_planar_free(pm);
}

/* Table 4's data (unit masses, L1 = L2 = 2), and unequal rods and masses. */
static void slider_crank_chapter05(void)
{
    const crank_data doc = {.g = 9.81, .m1 = 1, .m2 = 1, .m3 = 1, .L1 = 2, .L2 = 2};
    slider_crank_against(&doc, "chapter 05 data");
    const crank_data other = {.g = 9.81, .m1 = 1.5, .m2 = 0.7, .m3 = 2.0, .L1 = 1.0, .L2 = 2.5};
    slider_crank_against(&other, "unequal rods");
}

/* ------------------------------------------------------------------------ */
/* Building: names, look-ups, forces                                         */

static void names_and_lookups(void)
{
    const crank_data d = {.g = 9.81, .m1 = 1, .m2 = 1, .m3 = 1, .L1 = 2, .L2 = 2};
    crank_ids id;
    mbd_planar_model *pm = planar_slider_crank(&d, &id);
    const mbd_system *s = mbd_planar_system(pm);
    REQUIRE_STATUS(s != NULL ? GSL_SUCCESS : MBD_EINPUT, GSL_SUCCESS);
    static const char *const expect[9] = {"x1", "y1", "theta1", "x2", "y2", "theta2",
                                          "x3", "y3", "theta3"};
    for (size_t k = 0; k < 9; k++) {
        CHECK_MSG(strcmp(s->names[k], expect[k]) == 0, "name %zu: %s, expected %s", k,
                  s->names[k], expect[k]);
        size_t idx = 99;
        CHECK_STATUS(mbd_planar_coordinate(pm, expect[k], &idx), GSL_SUCCESS);
        CHECK_MSG(idx == k, "%s at %zu", expect[k], idx);
    }
    size_t idx;
    CHECK_STATUS(mbd_planar_coordinate(pm, "x4", &idx), MBD_EINPUT);
    CHECK_STATUS(mbd_planar_coordinate(pm, "x0", &idx), MBD_EINPUT);   /* the ground's */
    CHECK_MSG(mbd_planar_body_index(pm, 2) == id.rod, "body labelled 2");
    CHECK_MSG(mbd_planar_body_index(pm, 0) == 0, "the ground is body index 0");
    CHECK_MSG(mbd_planar_body_index(pm, 9) == -1, "no body labelled 9");
    CHECK_MSG(mbd_planar_n_bodies(pm) == 4 && mbd_planar_n_joints(pm) == 4, "counts");
    size_t first = 0, count = 0;
    mbd_planar_joint_kind kind;
    int i, j;
    CHECK_STATUS(mbd_planar_joint_info(pm, id.guide, &first, &count, &kind, &i, &j), GSL_SUCCESS);
    CHECK_MSG(first == 6 && count == 2 && kind == MBD_PLANAR_TRANSLATIONAL && i == id.slider
                  && j == 0,
              "guide: rows %zu+%zu, kind %d, bodies %d %d", first, count, (int)kind, i, j);
    CHECK_STATUS(mbd_planar_body_coordinates(pm, id.slider, &first), GSL_SUCCESS);
    CHECK_MSG(first == 6, "slider's x at %zu", first);
    /* a point's position and velocity */
    gsl_vector *q = gsl_vector_calloc(9), *qd = gsl_vector_calloc(9);
    mbd_planar_set_pose(pm, id.rod, 1.0, 2.0, 0.5, q);
    mbd_planar_set_velocity(pm, id.rod, 0.3, -0.2, 2.0, qd);
    const double p[2] = {0.4, -0.1};
    double r[2], v[2], pose[3];
    CHECK_STATUS(mbd_planar_point_position(pm, id.rod, p, q, r), GSL_SUCCESS);
    CHECK_CLOSE(r[0], 1.0 + 0.4 * cos(0.5) + 0.1 * sin(0.5), 1e-15);
    CHECK_CLOSE(r[1], 2.0 + 0.4 * sin(0.5) - 0.1 * cos(0.5), 1e-15);
    CHECK_STATUS(mbd_planar_point_velocity(pm, id.rod, p, q, qd, v), GSL_SUCCESS);
    CHECK_CLOSE(v[0], 0.3 - 2.0 * (0.4 * sin(0.5) - 0.1 * cos(0.5)), 1e-15);
    CHECK_CLOSE(v[1], -0.2 + 2.0 * (0.4 * cos(0.5) + 0.1 * sin(0.5)), 1e-15);
    CHECK_STATUS(mbd_planar_pose(pm, id.rod, q, pose), GSL_SUCCESS);
    CHECK_MSG(pose[0] == 1.0 && pose[1] == 2.0 && pose[2] == 0.5, "pose");
    CHECK_STATUS(mbd_planar_point_position(pm, 0, p, q, r), GSL_SUCCESS);   /* ground: global */
    CHECK_MSG(r[0] == p[0] && r[1] == p[1], "a ground point is global");
    gsl_vector_free(q);
    gsl_vector_free(qd);
    mbd_planar_free(pm);
}

/* a user force: the constant force of the other test, applied through the
 * helper, plus a linear spring from the origin to the body's point */
typedef struct {
    int body;
    double p[2], F[2], k;
} spring;

static int user_force(const mbd_planar_model *pm, double t, const gsl_vector *q,
                      const gsl_vector *qd, gsl_vector *Q, void *user)
{
    (void)t, (void)qd;
    const spring *sp = user;
    double r[2];
    int st = mbd_planar_point_position(pm, sp->body, sp->p, q, r);
    if (st != GSL_SUCCESS)
        return st;
    const double F[2] = {sp->F[0] - sp->k * r[0], sp->F[1] - sp->k * r[1]};
    return mbd_planar_apply_force(pm, sp->body, sp->p, F, q, Q);
}

static void applied_forces(void)
{
    const double uc[2] = {0.2, 0.1}, p[2] = {0.5, -0.3}, Fv[2] = {1.5, -0.4};
    const double th = 1.1, x = 0.6, y = -0.2, T = 0.75, k = 3.0;
    const double c = cos(th), sn = sin(th);
    const double a[2] = {c * p[0] - sn * p[1], sn * p[0] + c * p[1]};   /* A p */
    for (int variant = 0; variant < 3; variant++) {
        mbd_planar_model *pm = mbd_planar_alloc();
        int b = mbd_planar_add_body(pm, 1, 2.0, 0.1, uc);
        spring sp = {.body = b, .p = {p[0], p[1]}, .F = {Fv[0], Fv[1]}, .k = k};
        if (variant == 0)
            mbd_planar_add_force(pm, b, p, Fv, MBD_PLANAR_GLOBAL);
        else if (variant == 1)
            mbd_planar_add_force(pm, b, p, Fv, MBD_PLANAR_BODY);
        else
            mbd_planar_add_user_force(pm, user_force, &sp);
        mbd_planar_add_torque(pm, b, T);
        REQUIRE_STATUS(mbd_planar_finish(pm), GSL_SUCCESS);
        const mbd_system *s = mbd_planar_system(pm);
        gsl_vector *q = gsl_vector_alloc(3), *qd = gsl_vector_calloc(3), *F = gsl_vector_alloc(3);
        mbd_planar_set_pose(pm, b, x, y, th, q);
        REQUIRE_STATUS(s->force(s, 0.0, q, qd, F), GSL_SUCCESS);
        double Fg[2] = {Fv[0], Fv[1]};
        if (variant == 1) {                                /* turns with the body */
            Fg[0] = c * Fv[0] - sn * Fv[1];
            Fg[1] = sn * Fv[0] + c * Fv[1];
        } else if (variant == 2) {                         /* the spring as well */
            Fg[0] -= k * (x + a[0]);
            Fg[1] -= k * (y + a[1]);
        }
        CHECK_CLOSE(gsl_vector_get(F, 0), Fg[0], 1e-14);
        CHECK_CLOSE(gsl_vector_get(F, 1), Fg[1], 1e-14);
        CHECK_CLOSE(gsl_vector_get(F, 2), T + a[0] * Fg[1] - a[1] * Fg[0], 1e-14);
        gsl_vector_free(q);
        gsl_vector_free(qd);
        gsl_vector_free(F);
        mbd_planar_free(pm);
    }
}

/* ------------------------------------------------------------------------ */
/* Errors                                                                    */

static void expect_refused(mbd_planar_model *pm, int index, const char *word)
{
    CHECK_MSG(index == -1, "the addition was accepted (index %d)", index);
    const mbd_failure *f = mbd_planar_failure(pm);
    CHECK_STATUS(f->status, MBD_EINPUT);
    CHECK_MSG(strstr(f->cause, word) != NULL, "cause \"%s\" does not say \"%s\"", f->cause, word);
    CHECK_STATUS(mbd_planar_finish(pm), MBD_EINPUT);
    CHECK_MSG(mbd_planar_system(pm) == NULL, "a system after a refused addition");
}

/* a fresh model with a ground (0) and two bodies (1, 2) */
static mbd_planar_model *base(void)
{
    mbd_planar_model *pm = mbd_planar_alloc();
    mbd_planar_add_ground(pm, 1);
    mbd_planar_add_body(pm, 2, 1.0, 0.1, NULL);
    mbd_planar_add_body(pm, 3, 1.0, 0.1, NULL);
    return pm;
}

static void error_paths(void)
{
    const double o[2] = {0, 0}, zero_axis[2] = {0, 0}, pose[3] = {0, 0, 0};
    mbd_planar_model *pm;

    pm = base();
    expect_refused(pm, mbd_planar_add_revolute(pm, 1, o, 7, o), "no body with index 7");
    /* the error sticks: a good addition after it is refused too */
    CHECK_MSG(mbd_planar_add_revolute(pm, 1, o, 2, o) == -1, "addition after an error");
    CHECK_MSG(strstr(mbd_planar_failure(pm)->cause, "index 7") != NULL, "the first cause kept");
    mbd_planar_free(pm);

    pm = base();
    expect_refused(pm, mbd_planar_add_revolute(pm, -1, o, 2, o), "no body with index -1");
    mbd_planar_free(pm);

    pm = base();
    expect_refused(pm, mbd_planar_add_rigid(pm, 2, o, 2, o, 0.0), "itself");
    mbd_planar_free(pm);

    pm = base();
    expect_refused(pm, mbd_planar_add_angle_driver(pm, 1, 1, mbd_planar_constant_speed(0, 1)),
                   "itself");
    mbd_planar_free(pm);

    pm = base();
    mbd_planar_add_ground(pm, 9);
    expect_refused(pm, mbd_planar_add_revolute(pm, 0, o, 3, o), "two grounds");
    mbd_planar_free(pm);

    pm = base();
    expect_refused(pm, mbd_planar_add_translational(pm, 1, o, 0, o, zero_axis, 0.0), "axis");
    mbd_planar_free(pm);

    pm = base();
    expect_refused(pm, mbd_planar_add_ground_joint(pm, 0, pose), "ground");
    mbd_planar_free(pm);

    pm = base();
    expect_refused(pm,
                   mbd_planar_add_coordinate_driver(pm, 0, MBD_PLANAR_X,
                                                    mbd_planar_constant_speed(0, 1)),
                   "ground");
    mbd_planar_free(pm);

    pm = base();
    expect_refused(pm, mbd_planar_add_body(pm, 4, -1.0, 0.1, NULL), "mass");
    mbd_planar_free(pm);

    pm = base();
    expect_refused(pm, mbd_planar_add_body(pm, 5, 1.0, -0.1, NULL), "inertia");
    mbd_planar_free(pm);

    pm = base();
    expect_refused(pm, mbd_planar_add_body(pm, 2, 1.0, 0.1, NULL), "label");
    mbd_planar_free(pm);

    pm = base();
    expect_refused(pm, mbd_planar_add_torque(pm, 0, 1.0), "ground");
    mbd_planar_free(pm);

    pm = base();
    expect_refused(pm, mbd_planar_add_force(pm, 5, o, o, MBD_PLANAR_GLOBAL), "index 5");
    mbd_planar_free(pm);

    /* no moving body */
    pm = mbd_planar_alloc();
    mbd_planar_add_ground(pm, 1);
    CHECK_STATUS(mbd_planar_finish(pm), MBD_EINPUT);
    CHECK_MSG(strstr(mbd_planar_failure(pm)->cause, "no moving body") != NULL, "cause: %s",
              mbd_planar_failure(pm)->cause);
    CHECK_MSG(mbd_planar_system(pm) == NULL, "a system without bodies");
    mbd_planar_free(pm);

    /* after finish: no more additions; states checked */
    pm = base();
    REQUIRE_STATUS(mbd_planar_finish(pm), GSL_SUCCESS);
    CHECK_MSG(mbd_planar_system(pm) != NULL, "finished");
    gsl_vector *q = gsl_vector_calloc(6), *short_q = gsl_vector_calloc(3), *lam = gsl_vector_calloc(1);
    double r[2];
    CHECK_STATUS(mbd_planar_set_pose(pm, 3, 0, 0, 0, q), MBD_EINPUT);
    CHECK_STATUS(mbd_planar_set_pose(pm, 0, 0, 0, 0, q), MBD_EINPUT);     /* a ground */
    CHECK_STATUS(mbd_planar_set_velocity(pm, -2, 0, 0, 0, q), MBD_EINPUT);
    CHECK_STATUS(mbd_planar_set_pose(pm, 1, 0, 0, 0, short_q), GSL_EBADLEN);
    CHECK_STATUS(mbd_planar_point_position(pm, 4, o, q, r), MBD_EINPUT);
    CHECK_STATUS(mbd_planar_reactions(pm, 0, q, lam, NULL, NULL), MBD_EINPUT);  /* no joints */
    size_t first;
    CHECK_STATUS(mbd_planar_body_coordinates(pm, 0, &first), MBD_EINPUT);
    CHECK_STATUS(mbd_planar_joint_info(pm, 0, NULL, NULL, NULL, NULL, NULL), MBD_EINPUT);
    CHECK_STATUS(mbd_planar_finish(pm), MBD_EINPUT);
    CHECK_MSG(mbd_planar_add_body(pm, 8, 1.0, 0.1, NULL) == -1, "a body after finish");
    gsl_vector_free(q);
    gsl_vector_free(short_q);
    gsl_vector_free(lam);
    mbd_planar_free(pm);

    /* states before finish */
    pm = base();
    q = gsl_vector_calloc(6);
    CHECK_STATUS(mbd_planar_set_pose(pm, 1, 0, 0, 0, q), MBD_EINPUT);
    CHECK_STATUS(mbd_planar_coordinate(pm, "x2", &first), MBD_EINPUT);
    gsl_vector_free(q);
    mbd_planar_free(pm);

    /* reactions: a joint index out of range, lambda of the wrong size */
    int rod, pin;
    pm = pendulum(0, &rod, &pin);
    q = gsl_vector_calloc(3);
    lam = gsl_vector_calloc(2);
    gsl_vector *lam3 = gsl_vector_calloc(3);
    mbd_planar_reaction re;
    CHECK_STATUS(mbd_planar_reactions(pm, 1, q, lam, &re, NULL), MBD_EINPUT);
    CHECK_STATUS(mbd_planar_reactions(pm, -1, q, lam, &re, NULL), MBD_EINPUT);
    CHECK_STATUS(mbd_planar_reactions(pm, pin, q, lam3, &re, NULL), GSL_EBADLEN);
    gsl_vector_free(q);
    gsl_vector_free(lam);
    gsl_vector_free(lam3);
    mbd_planar_free(pm);

    /* NULL model */
    CHECK_MSG(mbd_planar_add_body(NULL, 1, 1.0, 1.0, NULL) == -1, "NULL model");
    CHECK_STATUS(mbd_planar_finish(NULL), MBD_EINPUT);
    CHECK_MSG(mbd_planar_system(NULL) == NULL, "NULL model's system");
}

/* A user driving function's failure comes back from the system's callbacks. */
static int failing(double t, double f[3], void *user)
{
    (void)t, (void)user;
    f[0] = f[1] = f[2] = 0.0;
    return GSL_EDOM;
}

static void driver_failure_propagates(void)
{
    mbd_planar_model *pm = mbd_planar_alloc();
    int b = mbd_planar_add_body(pm, 1, 1.0, 0.1, NULL);
    mbd_planar_add_coordinate_driver(pm, b, MBD_PLANAR_X, mbd_planar_user_function(failing, NULL));
    REQUIRE_STATUS(mbd_planar_finish(pm), GSL_SUCCESS);
    const mbd_system *s = mbd_planar_system(pm);
    gsl_vector *q = gsl_vector_calloc(3), *C = gsl_vector_alloc(1);
    gsl_matrix *Cq = gsl_matrix_alloc(1, 3);
    CHECK_STATUS(s->constraint(s, 0.0, q, C), GSL_EDOM);
    CHECK_STATUS(s->constraint_t(s, 0.0, q, C), GSL_EDOM);
    CHECK_STATUS(s->gamma(s, 0.0, q, q, C), GSL_EDOM);
    CHECK_STATUS(s->jacobian(s, 0.0, q, Cq), GSL_SUCCESS);   /* C_q does not need f */
    gsl_vector_free(q);
    gsl_vector_free(C);
    gsl_matrix_free(Cq);
    mbd_planar_free(pm);
}

static CU_TestInfo derivative_tests[] = {
    {"revolute", derivatives_revolute},
    {"translational", derivatives_translational},
    {"rigid", derivatives_rigid},
    {"ground_joint", derivatives_ground},
    {"coordinate_driver", derivatives_coordinate_driver},
    {"angle_driver", derivatives_angle_driver},
    {"all_together", derivatives_all_together},
    {"revolute_rows_closed_form", revolute_rows_closed_form},
    CU_TEST_INFO_NULL,
};

static CU_TestInfo inertia_tests[] = {
    {"mass_matrix_closed_form", mass_matrix_closed_form},
    {"point_mass_body", point_mass_body},
    {"kinetic_energy_about_centre", kinetic_energy_about_centre},
    CU_TEST_INFO_NULL,
};

static CU_TestInfo dynamics_tests[] = {
    {"pendulum_rod", pendulum_rod},
    {"driven_pendulum", driven_pendulum},
    {"welded_rods", welded_rods},
    {"block_on_incline", block_on_incline},
    {"slider_crank_chapter05", slider_crank_chapter05},
    CU_TEST_INFO_NULL,
};

static CU_TestInfo building_tests[] = {
    {"names_and_lookups", names_and_lookups},
    {"applied_forces", applied_forces},
    {"error_paths", error_paths},
    {"driver_failure_propagates", driver_failure_propagates},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"planar_derivatives", NULL, NULL, NULL, NULL, derivative_tests},
    {"planar_inertia", NULL, NULL, NULL, NULL, inertia_tests},
    {"planar_dynamics", NULL, NULL, NULL, NULL, dynamics_tests},
    {"planar_building", NULL, NULL, NULL, NULL, building_tests},
    CU_SUITE_INFO_NULL,
};
