/* Grades exercise 08.2: the sequential correction (b), the velocity step
 * first (b'), and the simultaneous correction (c). */
#include <math.h>
#include <stdio.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_math.h>

#include "check.h"
#include "ex08.h"
#include "fixture.h"

/* ------------------------------------------------------------------------ */
/* The mechanisms, as callbacks                                              */

enum { CIRCLE, PENDULUM, FOURBAR, DEPENDENT };

/* CIRCLE: a point (x, y) on the circle of radius R about c,
 *     Phi = (x - cx)^2 + (y - cy)^2 - R^2,   Phi_q = 2 (q - c)^T,   Phidot_q = 2 q'^T.
 * PENDULUM: a bar of half-length a pinned at the origin, in the Cartesian
 * coordinates (x, y, theta) of its centre,
 *     Phi = (x - a cos theta, y - a sin theta).
 * FOURBAR: the document's four-bar (the guide's reading R1) in relative
 * joint angles, Phi = sum_k e_k - (-1, sqrt 3), links of 1 m.
 * DEPENDENT: the pendulum's first row twice, the second time scaled by 0.3:
 * Phi_q Phi_q^T is singular, but round-off may leave its Cholesky
 * factorisation a tiny positive pivot. */
typedef struct {
    int kind;
    double c[2], R;     /* CIRCLE */
    double a;           /* PENDULUM */
    long calls;         /* callback calls */
    long fail_at;       /* > 0: the call with this number fails (GSL_EDOM) */
    int nan;            /* Phi returns NaNs (Phi_q stays finite) */
} model;

static int counted(model *md)
{
    md->calls++;
    return md->fail_at > 0 && md->calls >= md->fail_at ? GSL_EDOM : GSL_SUCCESS;
}

static int m_phi(const double q[], double phi[], void *params)
{
    model *md = params;
    if (counted(md) != GSL_SUCCESS)
        return GSL_EDOM;
    switch (md->kind) {
    case CIRCLE: {
        const double dx = q[0] - md->c[0], dy = q[1] - md->c[1];
        phi[0] = dx * dx + dy * dy - md->R * md->R;
        break;
    }
    case PENDULUM:
        phi[0] = q[0] - md->a * cos(q[2]);
        phi[1] = q[1] - md->a * sin(q[2]);
        break;
    case DEPENDENT:
        phi[0] = q[0] - md->a * cos(q[2]);
        phi[1] = 0.3 * (q[0] - md->a * cos(q[2]));
        break;
    default: {
        const double t1 = q[0], t2 = q[0] + q[1], t3 = q[0] + q[1] + q[2];
        phi[0] = cos(t1) + cos(t2) + cos(t3) + 1.0;
        phi[1] = sin(t1) + sin(t2) + sin(t3) - sqrt(3.0);
        break;
    }
    }
    if (md->nan)
        for (size_t i = 0; i < (md->kind == CIRCLE ? 1u : 2u); i++)
            phi[i] = NAN;
    return GSL_SUCCESS;
}

static int m_phi_q(const double q[], gsl_matrix *A, void *params)
{
    model *md = params;
    if (counted(md) != GSL_SUCCESS)
        return GSL_EDOM;
    switch (md->kind) {
    case CIRCLE:
        gsl_matrix_set(A, 0, 0, 2 * (q[0] - md->c[0]));
        gsl_matrix_set(A, 0, 1, 2 * (q[1] - md->c[1]));
        break;
    case PENDULUM:
        gsl_matrix_set(A, 0, 0, 1.0);
        gsl_matrix_set(A, 0, 1, 0.0);
        gsl_matrix_set(A, 0, 2, md->a * sin(q[2]));
        gsl_matrix_set(A, 1, 0, 0.0);
        gsl_matrix_set(A, 1, 1, 1.0);
        gsl_matrix_set(A, 1, 2, -md->a * cos(q[2]));
        break;
    case DEPENDENT:
        gsl_matrix_set(A, 0, 0, 1.0);
        gsl_matrix_set(A, 0, 1, 0.0);
        gsl_matrix_set(A, 0, 2, md->a * sin(q[2]));
        gsl_matrix_set(A, 1, 0, 0.3);
        gsl_matrix_set(A, 1, 1, 0.0);
        gsl_matrix_set(A, 1, 2, 0.3 * md->a * sin(q[2]));
        break;
    default: {
        const double th[3] = {q[0], q[0] + q[1], q[0] + q[1] + q[2]};
        for (int j = 0; j < 3; j++) {
            double a0 = 0, a1 = 0;
            for (int k = j; k < 3; k++)
                a0 -= sin(th[k]), a1 += cos(th[k]);
            gsl_matrix_set(A, 0, j, a0);
            gsl_matrix_set(A, 1, j, a1);
        }
        break;
    }
    }
    return GSL_SUCCESS;
}

static int m_phidot_q(const double q[], const double qd[], gsl_matrix *A, void *params)
{
    model *md = params;
    if (counted(md) != GSL_SUCCESS)
        return GSL_EDOM;
    switch (md->kind) {
    case CIRCLE:
        gsl_matrix_set(A, 0, 0, 2 * qd[0]);
        gsl_matrix_set(A, 0, 1, 2 * qd[1]);
        break;
    case PENDULUM:
        gsl_matrix_set_zero(A);
        gsl_matrix_set(A, 0, 2, md->a * cos(q[2]) * qd[2]);
        gsl_matrix_set(A, 1, 2, md->a * sin(q[2]) * qd[2]);
        break;
    case DEPENDENT:
        gsl_matrix_set_zero(A);
        gsl_matrix_set(A, 0, 2, md->a * cos(q[2]) * qd[2]);
        gsl_matrix_set(A, 1, 2, 0.3 * md->a * cos(q[2]) * qd[2]);
        break;
    default: {
        const double th[3] = {q[0], q[0] + q[1], q[0] + q[1] + q[2]};
        const double w[3] = {qd[0], qd[0] + qd[1], qd[0] + qd[1] + qd[2]};
        for (int j = 0; j < 3; j++) {
            double a0 = 0, a1 = 0;
            for (int k = j; k < 3; k++)
                a0 -= w[k] * cos(th[k]), a1 -= w[k] * sin(th[k]);
            gsl_matrix_set(A, 0, j, a0);
            gsl_matrix_set(A, 1, j, a1);
        }
        break;
    }
    }
    return GSL_SUCCESS;
}

static ex08_constraints constraints_of(model *md)
{
    const size_t n = md->kind == CIRCLE ? 2 : 3, m = md->kind == CIRCLE ? 1 : 2;
    return (ex08_constraints){n, m, m_phi, m_phi_q, m_phidot_q, md};
}

/* max|Phi(q)| and max|Phi_q(q) q'|, computed here */
static void violations_at(model *md, const double q[], const double qd[], double *vphi,
                          double *vdot)
{
    const ex08_constraints c = constraints_of(md);
    double f[2];
    gsl_matrix *A = gsl_matrix_alloc(c.m, c.n);
    m_phi(q, f, md);
    m_phi_q(q, A, md);
    *vphi = *vdot = 0.0;
    for (size_t i = 0; i < c.m; i++) {
        double s = 0.0;
        for (size_t j = 0; j < c.n; j++)
            s += gsl_matrix_get(A, i, j) * qd[j];
        *vphi = fmax(*vphi, fabs(f[i]));
        *vdot = fmax(*vdot, fabs(s));
    }
    gsl_matrix_free(A);
}

/* ------------------------------------------------------------------------ */
/* The tests' own corrections: the same iterations, each step by the
 * fixture's QR-based minimum-norm step */

static void ref_velocity_step(model *md, const double q[], double qd[])
{
    const ex08_constraints c = constraints_of(md);
    gsl_matrix *A = gsl_matrix_alloc(c.m, c.n);
    gsl_vector *r = gsl_vector_alloc(c.m), *dx = gsl_vector_alloc(c.n);
    gsl_vector_view v = gsl_vector_view_array(qd, c.n);
    m_phi_q(q, A, md);
    gsl_blas_dgemv(CblasNoTrans, 1.0, A, &v.vector, 0.0, r);
    fx_reference_step(A, r, NULL, dx);
    gsl_vector_add(&v.vector, dx);
    gsl_vector_free(dx);
    gsl_vector_free(r);
    gsl_matrix_free(A);
}

/* the position Newton; the number of steps, or -1 without convergence */
static int ref_positions(model *md, double q[], double tol, int max_iter)
{
    const ex08_constraints c = constraints_of(md);
    gsl_matrix *A = gsl_matrix_alloc(c.m, c.n);
    gsl_vector *r = gsl_vector_alloc(c.m), *dx = gsl_vector_alloc(c.n);
    int it = 0;
    for (;; it++) {
        double f[2], size = 0.0;
        m_phi(q, f, md);
        for (size_t i = 0; i < c.m; i++) {
            gsl_vector_set(r, i, f[i]);
            size = fmax(size, fabs(f[i]));
        }
        if (size <= tol)
            break;
        if (it == max_iter) {
            it = -1;
            break;
        }
        m_phi_q(q, A, md);
        fx_reference_step(A, r, NULL, dx);
        for (size_t i = 0; i < c.n; i++)
            q[i] += gsl_vector_get(dx, i);
    }
    gsl_vector_free(dx);
    gsl_vector_free(r);
    gsl_matrix_free(A);
    return it;
}

/* Newton on [Phi; Phi_q q'] in (q, q'); the steps, or -1 */
static int ref_simultaneous(model *md, double q[], double qd[], double tol, int max_iter)
{
    const ex08_constraints c = constraints_of(md);
    const size_t n = c.n, m = c.m;
    gsl_matrix *A = gsl_matrix_alloc(m, n), *Ad = gsl_matrix_alloc(m, n);
    gsl_matrix *J = gsl_matrix_calloc(2 * m, 2 * n);
    gsl_vector *r = gsl_vector_alloc(2 * m), *dx = gsl_vector_alloc(2 * n);
    int it = 0;
    for (;; it++) {
        double f[2], size = 0.0;
        m_phi(q, f, md);
        m_phi_q(q, A, md);
        for (size_t i = 0; i < m; i++) {
            double s = 0.0;
            for (size_t j = 0; j < n; j++)
                s += gsl_matrix_get(A, i, j) * qd[j];
            gsl_vector_set(r, i, f[i]);
            gsl_vector_set(r, m + i, s);
            size = fmax(size, fmax(fabs(f[i]), fabs(s)));
        }
        if (size <= tol)
            break;
        if (it == max_iter) {
            it = -1;
            break;
        }
        m_phidot_q(q, qd, Ad, md);
        for (size_t i = 0; i < m; i++)
            for (size_t j = 0; j < n; j++) {
                gsl_matrix_set(J, i, j, gsl_matrix_get(A, i, j));
                gsl_matrix_set(J, m + i, j, gsl_matrix_get(Ad, i, j));
                gsl_matrix_set(J, m + i, n + j, gsl_matrix_get(A, i, j));
            }
        fx_reference_step(J, r, NULL, dx);
        for (size_t i = 0; i < n; i++) {
            q[i] += gsl_vector_get(dx, i);
            qd[i] += gsl_vector_get(dx, n + i);
        }
    }
    gsl_vector_free(dx);
    gsl_vector_free(r);
    gsl_matrix_free(J);
    gsl_matrix_free(Ad);
    gsl_matrix_free(A);
    return it;
}

/* ------------------------------------------------------------------------ */

static const char *scheme_name(ex08_scheme s)
{
    return s == EX08_SEQUENTIAL ? "(b)" : s == EX08_VELOCITY_FIRST ? "(b')" : "(c)";
}

/* runs the correction; 0 when it failed (reported) */
static int correct(const char *what, model *md, ex08_scheme s, double tol, unsigned max_iter,
                   double q[], double qd[], ex08_report *rep)
{
    const ex08_constraints c = constraints_of(md);
    rep->iterations = 9999;
    rep->phi = rep->phidot = NAN;
    const int st = ex08_correct(&c, s, tol, max_iter, q, qd, rep);
    CHECK_MSG(st == GSL_SUCCESS, "%s %s: status %d (%s)", what, scheme_name(s), st,
              mbd_strerror(st));
    return st == GSL_SUCCESS;
}

/* the report says what the state is */
static void check_report(const char *what, model *md, ex08_scheme s, const double q[],
                         const double qd[], const ex08_report *rep)
{
    double vphi, vdot;
    violations_at(md, q, qd, &vphi, &vdot);
    CHECK_MSG(fabs(rep->phi - vphi) <= 1e-15 + 1e-12 * vphi
                  && fabs(rep->phidot - vdot) <= 1e-15 + 1e-12 * vdot,
              "%s %s: the report says (max|Phi|, max|Phi_q q'|) = (%.6g, %.6g), the state "
              "returned has (%.6g, %.6g)", what, scheme_name(s), rep->phi, rep->phidot, vphi,
              vdot);
}

/* Newton on rho^2 - R^2 from rho0, as the correction along a ray of the
 * circle: the radius it stops at and the steps */
static double radial_newton(double rho, double R, double tol, unsigned *steps)
{
    *steps = 0;
    while (!(fabs(rho * rho - R * R) <= tol)) {
        rho -= (rho * rho - R * R) / (2 * rho);
        ++*steps;
    }
    return rho;
}

/* ------------------------------------------------------------------------ */
/* Tests                                                                     */

/* (b) and (b') on the circle: the minimum-norm Newton step is radial, so q
 * goes to c + rho u along its ray, rho by Newton on rho^2 - R^2, and the
 * velocity loses its radial part. The normal does not turn along the ray:
 * (b') gives the same state. */
static void circle_sequential(void)
{
    const double cases[4][7] = {/* cx, cy, R, rho0 / R, angle, qd */
                                {0.3, -0.2, 1.3, 1.3, 0.7, 0.8, -0.45},
                                {-1.0, 2.0, 0.5, 0.6, 2.9, -1.5, 0.2},
                                {0.0, 0.0, 2.0, 1.02, -1.2, 0.3, 0.9},
                                {5.0, 1.0, 1.0, 1.7, 4.0, 0.0, 2.0}};
    const double tols[2] = {1e-10, 1e-3};
    for (int k = 0; k < 4; k++)
        for (int t = 0; t < 2; t++)
            for (int s = 0; s < 2; s++) {
                const double *cs = cases[k], tol = tols[t];
                model md = {CIRCLE, {cs[0], cs[1]}, cs[2], 0, 0, 0, 0};
                const double u[2] = {cos(cs[4]), sin(cs[4])}, rho0 = cs[3] * cs[2];
                double q[2] = {cs[0] + rho0 * u[0], cs[1] + rho0 * u[1]}, qd[2] = {cs[5], cs[6]};
                unsigned steps;
                const double rho = radial_newton(rho0, cs[2], tol, &steps);
                const double vr = qd[0] * u[0] + qd[1] * u[1];
                const double qe[2] = {cs[0] + rho * u[0], cs[1] + rho * u[1]};
                const double ve[2] = {qd[0] - vr * u[0], qd[1] - vr * u[1]};
                const ex08_scheme sc = s == 0 ? EX08_SEQUENTIAL : EX08_VELOCITY_FIRST;
                char what[96];
                snprintf(what, sizeof what, "the circle, case %d, tol %g", k, tol);
                ex08_report rep;
                if (!correct(what, &md, sc, tol, 20, q, qd, &rep))
                    continue;
                CHECK_MSG(hypot(q[0] - qe[0], q[1] - qe[1]) <= 1e-14 * (1 + hypot(qe[0], qe[1])),
                          "%s %s: q = (%.15g, %.15g), expected (%.15g, %.15g): radially onto "
                          "the circle, %u Newton steps", what, scheme_name(sc), q[0], q[1], qe[0],
                          qe[1], steps);
                CHECK_MSG(hypot(qd[0] - ve[0], qd[1] - ve[1]) <= 1e-13,
                          "%s %s: q' = (%.15g, %.15g), expected its tangential part (%.15g, "
                          "%.15g)", what, scheme_name(sc), qd[0], qd[1], ve[0], ve[1]);
                CHECK_MSG(rep.iterations == steps, "%s %s: %u iterations, expected %u", what,
                          scheme_name(sc), rep.iterations, steps);
                CHECK_MSG(rep.phi <= tol && rep.phidot <= 1e-13, "%s %s: the report says %.3g, %.3g",
                          what, scheme_name(sc), rep.phi, rep.phidot);
                check_report(what, &md, sc, q, qd, &rep);
            }
}

/* (c) on the circle in closed form.
 * A tangential velocity stays as it is and q goes radially, as in (b).
 * A velocity violation alone, at q = c + R u with q' = a u + b u_perp
 * (u_perp = D u), takes one step (by hand: J = [2R u^T 0; 2 q'^T 2R u^T],
 * r = (0, 2 R a)):
 *     q  <- c + R u - (R a b / (b^2 + R^2)) u_perp,
 *     q' <- (a b^2 / (b^2 + R^2)) u + b u_perp,
 * which satisfies Phi_q q' = 0 exactly and Phi only to second order,
 * (R a b / (b^2 + R^2))^2: to correct a velocity, (c) moves the position.
 * (b) leaves q alone there (no Newton step) and removes the radial part a. */
static void circle_simultaneous(void)
{
    const double c[2] = {0.3, -0.2}, R = 1.3, ang = 0.7;
    const double u[2] = {cos(ang), sin(ang)}, up[2] = {-sin(ang), cos(ang)};
    /* tangential, from outside */
    {
        model md = {CIRCLE, {c[0], c[1]}, R, 0, 0, 0, 0};
        const double rho0 = 1.4 * R, b = -0.8;
        double q[2] = {c[0] + rho0 * u[0], c[1] + rho0 * u[1]}, qd[2] = {b * up[0], b * up[1]};
        unsigned steps;
        const double rho = radial_newton(rho0, R, 1e-11, &steps);
        ex08_report rep;
        if (correct("the circle, tangential q'", &md, EX08_SIMULTANEOUS, 1e-11, 20, q, qd, &rep)) {
            CHECK_MSG(hypot(q[0] - c[0] - rho * u[0], q[1] - c[1] - rho * u[1]) <= 1e-14
                          && hypot(qd[0] - b * up[0], qd[1] - b * up[1]) <= 1e-14,
                      "the circle, tangential q', (c): (q, q') = (%.15g, %.15g, %.15g, %.15g), "
                      "expected (%.15g, %.15g, %.15g, %.15g)", q[0], q[1], qd[0], qd[1],
                      c[0] + rho * u[0], c[1] + rho * u[1], b * up[0], b * up[1]);
            CHECK_MSG(rep.iterations == steps, "the circle, tangential q', (c): %u iterations, "
                                               "expected %u", rep.iterations, steps);
            check_report("the circle, tangential q'", &md, EX08_SIMULTANEOUS, q, qd, &rep);
        }
    }
    /* a velocity violation alone: one step */
    const double ab[2][2] = {{0.02, 0.9}, {-0.05, -0.4}};
    for (int k = 0; k < 2; k++) {
        const double a = ab[k][0], b = ab[k][1], den = b * b + R * R;
        model md = {CIRCLE, {c[0], c[1]}, R, 0, 0, 0, 0};
        double q[2] = {c[0] + R * u[0], c[1] + R * u[1]};
        double qd[2] = {a * u[0] + b * up[0], a * u[1] + b * up[1]};
        const double s = R * a * b / den;
        const double qe[2] = {c[0] + R * u[0] - s * up[0], c[1] + R * u[1] - s * up[1]};
        const double ve[2] = {a * b * b / den * u[0] + b * up[0], a * b * b / den * u[1] + b * up[1]};
        const double tol = 1e-3;   /* between s^2 and 2 R |a| */
        CHECK_MSG(s * s < tol && 2 * R * fabs(a) > tol, "the test's case %d is not a one-step case",
                  k);
        ex08_report rep;
        double q2[2] = {q[0], q[1]}, qd2[2] = {qd[0], qd[1]};
        if (correct("the circle, a velocity violation", &md, EX08_SIMULTANEOUS, tol, 20, q, qd,
                    &rep)) {
            CHECK_MSG(hypot(q[0] - qe[0], q[1] - qe[1]) <= 1e-14
                          && hypot(qd[0] - ve[0], qd[1] - ve[1]) <= 1e-14,
                      "the circle, (a, b) = (%g, %g), (c): (q, q') = (%.15g, %.15g, %.15g, "
                      "%.15g), expected (%.15g, %.15g, %.15g, %.15g)", a, b, q[0], q[1], qd[0],
                      qd[1], qe[0], qe[1], ve[0], ve[1]);
            CHECK_MSG(rep.iterations == 1, "the circle, (a, b) = (%g, %g), (c): %u iterations, "
                                           "expected 1", a, b, rep.iterations);
            CHECK_MSG(fabs(rep.phi - s * s) <= 1e-12 && rep.phidot <= 1e-14,
                      "the circle, (a, b) = (%g, %g), (c): the report (%.6g, %.3g), expected "
                      "((R a b / (b^2 + R^2))^2 = %.6g, 0)", a, b, rep.phi, rep.phidot, s * s);
        }
        /* (b) keeps q and drops the radial velocity */
        if (correct("the circle, a velocity violation", &md, EX08_SEQUENTIAL, tol, 20, q2, qd2,
                    &rep)) {
            CHECK_MSG(q2[0] == c[0] + R * u[0] && q2[1] == c[1] + R * u[1]
                          && hypot(qd2[0] - b * up[0], qd2[1] - b * up[1]) <= 1e-14
                          && rep.iterations == 0,
                      "the circle, (a, b) = (%g, %g), (b): (q, q') = (%.15g, %.15g, %.15g, "
                      "%.15g) after %u steps, expected q untouched, q' = b u_perp, 0 steps", a, b,
                      q2[0], q2[1], qd2[0], qd2[1], rep.iterations);
        }
    }
}

/* The order of the steps. From a state off both constraints, (b) and (c)
 * end within the tolerance; (b') corrects the velocities at the uncorrected
 * q and leaves Phi_q(q*) q'' != 0 -- to first order Phidot_q(q0, q'')
 * (q* - q0), the block (c) has in its Jacobian. The positions of (b) and
 * (b') are the same Newton iteration; the states of all three are the
 * tests' own iterations. */
static void velocity_first(void)
{
    typedef struct {
        const char *name;
        model md;
        double q[3], qd[3];
    } start;
    const start S[3] = {
        {"the pendulum (a = 0.6)", {PENDULUM, {0, 0}, 0, 0.6, 0, 0, 0},
         {0.6 * cos(0.9) + 0.03, 0.6 * sin(0.9) - 0.02, 0.9 + 0.05}, {0.4, -0.7, 1.8}},
        {"the pendulum (a = 1.5)", {PENDULUM, {0, 0}, 0, 1.5, 0, 0, 0},
         {1.5 * cos(-2.2) - 0.01, 1.5 * sin(-2.2) + 0.04, -2.2 - 0.02}, {-1.1, 0.3, -0.6}},
        {"the four-bar R1", {FOURBAR, {0, 0}, 0, 0, 0, 0, 0},
         {M_PI / 3 + 0.02, M_PI / 3 - 0.03, M_PI / 3 + 0.015}, {0.9, -1.6, 1.7}},
    };
    const double tol = 1e-12;
    for (int k = 0; k < 3; k++) {
        model md = S[k].md;
        const size_t n = 3;
        double qb[3], vb[3], qp[3], vp[3], qc[3], vc[3];
        double rq[3], rv[3], cq[3], cv[3];
        for (size_t i = 0; i < n; i++) {
            qb[i] = qp[i] = qc[i] = rq[i] = cq[i] = S[k].q[i];
            vb[i] = vp[i] = vc[i] = rv[i] = cv[i] = S[k].qd[i];
        }
        /* the tests' own (b) and (c) */
        const int nb = ref_positions(&md, rq, tol, 20);
        ref_velocity_step(&md, rq, rv);
        const int nc = ref_simultaneous(&md, cq, cv, tol, 20);
        /* (b') by hand: q'' = the velocity projected at q0 */
        double vpp[3] = {S[k].qd[0], S[k].qd[1], S[k].qd[2]};
        ref_velocity_step(&md, S[k].q, vpp);
        ex08_report rb, rp, rc;
        const int okb = correct(S[k].name, &md, EX08_SEQUENTIAL, tol, 20, qb, vb, &rb);
        const int okp = correct(S[k].name, &md, EX08_VELOCITY_FIRST, tol, 20, qp, vp, &rp);
        const int okc = correct(S[k].name, &md, EX08_SIMULTANEOUS, tol, 20, qc, vc, &rc);
        double eb = 0, ep = 0, ec = 0;
        for (size_t i = 0; i < n; i++) {
            eb = fmax(eb, fmax(fabs(qb[i] - rq[i]), fabs(vb[i] - rv[i])));
            ep = fmax(ep, fmax(fabs(qp[i] - rq[i]), fabs(vp[i] - vpp[i])));
            ec = fmax(ec, fmax(fabs(qc[i] - cq[i]), fabs(vc[i] - cv[i])));
        }
        if (okb) {
            CHECK_MSG(eb <= 1e-12 && (int)rb.iterations == nb,
                      "%s (b): the state differs from Newton on the positions and one velocity "
                      "step at the corrected q by %.3g, %u steps (expected %d)", S[k].name, eb,
                      rb.iterations, nb);
            CHECK_MSG(rb.phi <= tol && rb.phidot <= 1e-14,
                      "%s (b): violations (%.3g, %.3g) left", S[k].name, rb.phi, rb.phidot);
            check_report(S[k].name, &md, EX08_SEQUENTIAL, qb, vb, &rb);
        }
        if (okc) {
            CHECK_MSG(ec <= 1e-12 && (int)rc.iterations == nc,
                      "%s (c): the state differs from Newton on (q, q') by %.3g, %u steps "
                      "(expected %d)", S[k].name, ec, rc.iterations, nc);
            CHECK_MSG(rc.phi <= tol && rc.phidot <= tol, "%s (c): violations (%.3g, %.3g) left",
                      S[k].name, rc.phi, rc.phidot);
            check_report(S[k].name, &md, EX08_SIMULTANEOUS, qc, vc, &rc);
        }
        if (okp) {
            CHECK_MSG(ep <= 1e-12 && (int)rp.iterations == nb,
                      "%s (b'): the state differs from (q* of (b), q' projected at q0) by %.3g, "
                      "%u steps (expected %d)", S[k].name, ep, rp.iterations, nb);
            check_report(S[k].name, &md, EX08_VELOCITY_FIRST, qp, vp, &rp);
            /* the first-order prediction Phidot_q(q0, q'') (q* - q0) */
            gsl_matrix *Ad = gsl_matrix_alloc(2, 3);
            m_phidot_q(S[k].q, vpp, Ad, &md);
            double pred = 0.0;
            for (size_t i = 0; i < 2; i++) {
                double s = 0.0;
                for (size_t j = 0; j < 3; j++)
                    s += gsl_matrix_get(Ad, i, j) * (rq[j] - S[k].q[j]);
                pred = fmax(pred, fabs(s));
            }
            gsl_matrix_free(Ad);
            CHECK_MSG(rp.phidot > 1e6 * tol && fabs(rp.phidot - pred) <= 0.05 * pred,
                      "%s (b'): max|Phi_q q'| = %.6g left, expected about max|Phidot_q(q0, q'') "
                      "(q* - q0)| = %.6g (and far above tol)", S[k].name, rp.phidot, pred);
        }
    }
}

/* the settings: the tolerance decides the steps; max_iter too few is a
 * failure that writes nothing; no step when already within tol; rep may be
 * NULL */
static void settings(void)
{
    model md = {PENDULUM, {0, 0}, 0, 0.8, 0, 0, 0};
    const double q0[3] = {0.8 * cos(1.1) + 0.05, 0.8 * sin(1.1) - 0.04, 1.1 + 0.1};
    const double v0[3] = {0.2, 0.5, -1.0};
    const double tols[2] = {1e-3, 1e-13};
    for (int s = 0; s < 3; s++) {
        const ex08_scheme sc = (ex08_scheme)s;
        int counts[2];
        for (int t = 0; t < 2; t++) {
            double q[3] = {q0[0], q0[1], q0[2]}, qd[3] = {v0[0], v0[1], v0[2]};
            counts[t] = sc == EX08_SIMULTANEOUS ? ref_simultaneous(&md, q, qd, tols[t], 20)
                                                : ref_positions(&md, q, tols[t], 20);
            double q2[3] = {q0[0], q0[1], q0[2]}, qd2[3] = {v0[0], v0[1], v0[2]};
            ex08_report rep;
            if (correct("the pendulum", &md, sc, tols[t], 20, q2, qd2, &rep)) {
                CHECK_MSG((int)rep.iterations == counts[t] && rep.phi <= tols[t],
                          "the pendulum %s, tol %g: %u steps, max|Phi| %.3g, expected %d steps",
                          scheme_name(sc), tols[t], rep.iterations, rep.phi, counts[t]);
                /* the same with rep = NULL */
                const ex08_constraints c = constraints_of(&md);
                double q3[3] = {q0[0], q0[1], q0[2]}, qd3[3] = {v0[0], v0[1], v0[2]};
                const int st = ex08_correct(&c, sc, tols[t], 20, q3, qd3, NULL);
                CHECK_MSG(st == GSL_SUCCESS && q3[0] == q2[0] && q3[1] == q2[1] && q3[2] == q2[2]
                              && qd3[0] == qd2[0] && qd3[1] == qd2[1] && qd3[2] == qd2[2],
                          "the pendulum %s with rep = NULL: status %d, or another state",
                          scheme_name(sc), st);
            }
        }
        CHECK_MSG(counts[0] < counts[1], "the test's counts %d, %d", counts[0], counts[1]);
        /* max_iter one short: MBD_ENOCONV, nothing written; exactly enough: fine */
        const ex08_constraints c = constraints_of(&md);
        double q[3] = {q0[0], q0[1], q0[2]}, qd[3] = {v0[0], v0[1], v0[2]};
        ex08_report rep = {7777, FX_SENTINEL, FX_SENTINEL};
        int st = ex08_correct(&c, sc, tols[1], (unsigned)counts[1] - 1, q, qd, &rep);
        CHECK_MSG(st == MBD_ENOCONV, "the pendulum %s, max_iter = %d (one short): status %d (%s), "
                                     "expected MBD_ENOCONV", scheme_name(sc), counts[1] - 1, st,
                  mbd_strerror(st));
        CHECK_MSG(q[0] == q0[0] && q[1] == q0[1] && q[2] == q0[2] && qd[0] == v0[0]
                      && qd[1] == v0[1] && qd[2] == v0[2] && rep.iterations == 7777
                      && rep.phi == FX_SENTINEL && rep.phidot == FX_SENTINEL,
                  "the pendulum %s, max_iter one short: the state or the report was written",
                  scheme_name(sc));
        st = ex08_correct(&c, sc, tols[1], (unsigned)counts[1], q, qd, &rep);
        CHECK_MSG(st == GSL_SUCCESS, "the pendulum %s, max_iter = %d (enough): status %d (%s)",
                  scheme_name(sc), counts[1], st, mbd_strerror(st));
    }
    /* on the constraint already: no Newton step, q untouched, q' projected */
    const double qc[3] = {0.8 * cos(-0.4), 0.8 * sin(-0.4), -0.4};
    for (int s = 0; s < 2; s++) {
        double q[3] = {qc[0], qc[1], qc[2]}, qd[3] = {v0[0], v0[1], v0[2]};
        double ve[3] = {v0[0], v0[1], v0[2]};
        ref_velocity_step(&md, qc, ve);
        ex08_report rep;
        const ex08_scheme sc = s == 0 ? EX08_SEQUENTIAL : EX08_VELOCITY_FIRST;
        if (correct("the pendulum on its circle", &md, sc, 1e-12, 20, q, qd, &rep))
            CHECK_MSG(rep.iterations == 0 && q[0] == qc[0] && q[1] == qc[1] && q[2] == qc[2]
                          && fabs(qd[0] - ve[0]) + fabs(qd[1] - ve[1]) + fabs(qd[2] - ve[2])
                                 <= 1e-14,
                      "the pendulum on its circle %s: %u steps, q moved or q' not projected",
                      scheme_name(sc), rep.iterations);
    }
}

/* ------------------------------------------------------------------------ */
/* Refusals                                                                  */

static void check_refused(const char *what, const ex08_constraints *c, ex08_scheme s, double tol,
                          unsigned max_iter, const double q0[], const double v0[], int expected)
{
    double q[3], qd[3];
    for (size_t i = 0; i < 3; i++)
        q[i] = q0[i], qd[i] = v0[i];
    ex08_report rep = {7777, FX_SENTINEL, FX_SENTINEL};
    const int st = ex08_correct(c, s, tol, max_iter, q, qd, &rep);
    CHECK_MSG(st == expected, "%s: status %d (%s), expected %d (%s)", what, st, mbd_strerror(st),
              expected, mbd_strerror(expected));
    int same = rep.iterations == 7777 && rep.phi == FX_SENTINEL && rep.phidot == FX_SENTINEL;
    for (size_t i = 0; i < 3; i++)
        same = same && (q[i] == q0[i] || (isnan(q[i]) && isnan(q0[i])))
               && (qd[i] == v0[i] || (isnan(qd[i]) && isnan(v0[i])));
    CHECK_MSG(same, "%s: an output was written on an error", what);
}

static void refusals(void)
{
    model md = {PENDULUM, {0, 0}, 0, 0.8, 0, 0, 0};
    const double q0[3] = {0.5, 0.7, 1.0}, v0[3] = {0.1, -0.2, 0.3};
    const ex08_constraints c = constraints_of(&md);
    ex08_constraints b = c;
    b.n = 0;
    check_refused("n = 0", &b, EX08_SEQUENTIAL, 1e-10, 10, q0, v0, MBD_EINPUT);
    b = c;
    b.m = 0;
    check_refused("m = 0", &b, EX08_SEQUENTIAL, 1e-10, 10, q0, v0, MBD_EINPUT);
    b = c;
    b.n = 1;
    check_refused("m = 2 > n = 1", &b, EX08_SIMULTANEOUS, 1e-10, 10, q0, v0, MBD_EINPUT);
    b = c;
    b.phi = NULL;
    check_refused("phi = NULL", &b, EX08_SEQUENTIAL, 1e-10, 10, q0, v0, MBD_EINPUT);
    b = c;
    b.phi_q = NULL;
    check_refused("phi_q = NULL", &b, EX08_VELOCITY_FIRST, 1e-10, 10, q0, v0, MBD_EINPUT);
    b = c;
    b.phidot_q = NULL;
    check_refused("phidot_q = NULL for (c)", &b, EX08_SIMULTANEOUS, 1e-10, 10, q0, v0, MBD_EINPUT);
    check_refused("the scheme 3", &c, (ex08_scheme)3, 1e-10, 10, q0, v0, MBD_EINPUT);
    check_refused("the scheme -1", &c, (ex08_scheme)-1, 1e-10, 10, q0, v0, MBD_EINPUT);
    const double bad_tol[4] = {0.0, -1e-10, NAN, INFINITY};
    for (int k = 0; k < 4; k++) {
        char what[48];
        snprintf(what, sizeof what, "tol = %g", bad_tol[k]);
        check_refused(what, &c, EX08_SEQUENTIAL, bad_tol[k], 10, q0, v0, MBD_EINPUT);
    }
    check_refused("max_iter = 0", &c, EX08_SIMULTANEOUS, 1e-10, 0, q0, v0, MBD_EINPUT);
    const double qn[3] = {0.5, NAN, 1.0}, vn[3] = {0.1, -0.2, INFINITY};
    check_refused("q[1] = NaN", &c, EX08_SEQUENTIAL, 1e-10, 10, qn, v0, MBD_EINPUT);
    check_refused("q'[2] = inf", &c, EX08_SEQUENTIAL, 1e-10, 10, q0, vn, MBD_EINPUT);
    /* phidot_q = NULL is fine for (b) and (b') */
    b = c;
    b.phidot_q = NULL;
    double q[3] = {q0[0], q0[1], q0[2]}, qd[3] = {v0[0], v0[1], v0[2]};
    int st = ex08_correct(&b, EX08_SEQUENTIAL, 1e-10, 10, q, qd, NULL);
    CHECK_MSG(st == GSL_SUCCESS, "phidot_q = NULL for (b): status %d (%s), expected success", st,
              mbd_strerror(st));
    /* singular: the circle at its centre has Phi_q = 0 */
    model mc = {CIRCLE, {0.4, -0.3}, 1.0, 0, 0, 0, 0};
    const ex08_constraints cc = constraints_of(&mc);
    const double qz[3] = {0.4, -0.3, 0.0}, vz[3] = {0.5, 0.5, 0.0};
    for (int s = 0; s < 3; s++)
        check_refused("the circle at its centre (Phi_q = 0)", &cc, (ex08_scheme)s, 1e-10, 10, qz,
                      vz, MBD_ESINGULAR);
    /* singular by dependent rows, whatever the round-off */
    for (int k = 0; k < 6; k++) {
        model md2 = {DEPENDENT, {0, 0}, 0, 0.7 + 0.13 * k, 0, 0, 0};
        const ex08_constraints c2 = constraints_of(&md2);
        const double th = 0.2 + 0.37 * k;
        const double q2[3] = {md2.a * cos(th) + 0.01, md2.a * sin(th), th};
        const double v2[3] = {0.3, -0.1 * k, 0.7};
        for (int s = 0; s < 3; s++) {
            char what[96];
            snprintf(what, sizeof what, "a row repeated, scaled by 0.3 (case %d)", k);
            check_refused(what, &c2, (ex08_scheme)s, 1e-12, 10, q2, v2, MBD_ESINGULAR);
        }
    }
    /* a residual that is not finite */
    model mn = md;
    mn.nan = 1;
    const ex08_constraints cn = constraints_of(&mn);
    for (int s = 0; s < 3; s++)
        check_refused("Phi = NaN", &cn, (ex08_scheme)s, 1e-10, 10, q0, v0, MBD_ENONFINITE);
    /* a callback that fails, early and late (the last call: the report's
     * own evaluation) */
    for (int s = 0; s < 3; s++) {
        model mf = md;
        const ex08_constraints cf = constraints_of(&mf);
        double q1[3] = {q0[0], q0[1], q0[2]}, v1[3] = {v0[0], v0[1], v0[2]};
        ex08_report rep;
        mf.calls = 0;
        st = ex08_correct(&cf, (ex08_scheme)s, 1e-12, 20, q1, v1, &rep);
        const long total = mf.calls;
        CHECK_MSG(st == GSL_SUCCESS && total >= 3, "%s: status %d with %ld callback calls",
                  scheme_name((ex08_scheme)s), st, total);
        const long at[3] = {1, 2, total};
        for (int k = 0; k < 3; k++) {
            char what[96];
            snprintf(what, sizeof what, "%s, callback call %ld of %ld fails",
                     scheme_name((ex08_scheme)s), at[k], total);
            mf.calls = 0;
            mf.fail_at = at[k];
            check_refused(what, &cf, (ex08_scheme)s, 1e-12, 20, q0, v0, GSL_EDOM);
            mf.fail_at = 0;
        }
    }
}

static CU_TestInfo tests[] = {
    {"(b) and (b') on the circle: radially, and the tangential velocity", circle_sequential},
    {"(c) on the circle in closed form", circle_simultaneous},
    {"(b') leaves Phidot_q dq; (b) and (c) do not", velocity_first},
    {"tol, max_iter, a state on the constraint, rep = NULL", settings},
    {"bad arguments, singular Phi_q, failing callbacks", refusals},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"ex08.2", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
