/* Chapter 04: the Scotch yoke of document 000 (Sec. 2.4.2), checked against
 * things computed here independently of the chapter's code:
 *   - the document's numbers (x2(0) = 13.5076, M11 = 104, the force's sign
 *     read from listing A.3);
 *   - the model's C_q and gamma against finite differences of C;
 *   - a reduced one-degree-of-freedom equation in theta1 written again here
 *     (with the yoke force entering as its virtual work) and integrated with
 *     GSL rk8pd, and the work-energy balance of the chapter's reduced equation;
 *   - the library's formulations on the chapter's model against that
 *     reference (tight projection within 1e-5, the document's penalty within
 *     1e-4), penalty minus projection at ode23 (the reading guide's Sc4), and
 *     the penalty's 1/mu error;
 *   - the program's summary, CSV, story and exit statuses. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_math.h>
#include <gsl/gsl_odeiv2.h>

#include "check.h"
#include "mbd/formulation.h"
#include "mbd/simulate.h"
#include "model.h"
#include "reference.h"
#include "study.h"

#define PROG "ch04-scotch-yoke"

/* ------------------------------------------------------------------------ */
/* The independent reference                                                 */

/* The data of both readings, typed in again from the document (Table 3 and
 * listing A.3). */
typedef struct {
    double m1, m2, L, b, g, mu;
} data;

static const data TABLE = {0.5, 5.0, 25.0, 2.0, 386.4, 1e7};
static const data LISTING = {0.5 / 386.4, 5.0 / 386.4, 25.0, 0.05, 386.4, 1e5};

/* Lagrange's equation for theta with x2 = L cos(theta):
 *   T = (J + m2 L^2 sin^2) w^2 / 2,  J = m1 (L^2/3 + b^2/12)  (the rod about its end),
 *   V = m1 g (L/2) sin(theta),
 *   Q = f(t) dx2/dtheta = -f L sin(theta),  f = sin(pi t / 4) on the yoke along +x. */
static int reduced(double t, const double y[], double dydt[], void *params)
{
    const data *d = params;
    const double J = d->m1 * (d->L * d->L / 3.0 + d->b * d->b / 12.0);
    const double s = sin(y[0]), c = cos(y[0]), mL2 = d->m2 * d->L * d->L;
    const double Q = -sin(M_PI * t / 4.0) * d->L * s;
    const double dVdth = d->m1 * d->g * 0.5 * d->L * c;
    /* d/dt(dT/dw) - dT/dtheta = (J + mL2 s^2) w' + 2 mL2 s c w^2 - mL2 s c w^2 */
    dydt[0] = y[1];
    dydt[1] = (Q - dVdth - mL2 * s * c * y[1] * y[1]) / (J + mL2 * s * s);
    return GSL_SUCCESS;
}

/* theta1, x2, theta1_dot, x2_dot at the times t[0..n-1] */
static void reference(const data *d, const double *t, size_t n, double *out)
{
    gsl_odeiv2_system sys = {reduced, NULL, 2, (void *)d};
    gsl_odeiv2_driver *drv = gsl_odeiv2_driver_alloc_y_new(&sys, gsl_odeiv2_step_rk8pd, 1e-5,
                                                           1e-13, 1e-13);
    double time = 0.0, y[2] = {1.0, 0.0};
    for (size_t k = 0; k < n; k++) {
        if (t[k] > time)
            CHECK_STATUS(gsl_odeiv2_driver_apply(drv, &time, t[k], y), GSL_SUCCESS);
        out[4 * k] = y[0];
        out[4 * k + 1] = d->L * cos(y[0]);
        out[4 * k + 2] = y[1];
        out[4 * k + 3] = -d->L * sin(y[0]) * y[1];
    }
    gsl_odeiv2_driver_free(drv);
}

static const data *data_of(ch04_variant v) { return v == CH04_TABLE ? &TABLE : &LISTING; }

/* ------------------------------------------------------------------------ */
/* The model                                                                 */

static void document_numbers(void)
{
    ch04_params p;
    ch04_params_init(&p, CH04_TABLE);
    double q0[2], qd0[2];
    ch04_initial_state(&p, q0, qd0);
    CHECK_CLOSE(q0[0], 1.0, 0.0);
    CHECK_CLOSE(q0[1], 13.507557646703495, 1e-12);
    CHECK_CLOSE(round(q0[1] * 1e4) / 1e4, 13.5076, 1e-12);   /* Table 3 */
    CHECK_CLOSE(ch04_inertia(&p), 104.33333333333333, 1e-10);   /* the text's "104" */
    CHECK_CLOSE(p.mu, 1e7, 0.0);
    CHECK_CLOSE(p.g, 386.4, 0.0);
    ch04_params_init(&p, CH04_LISTING);
    CHECK_CLOSE(ch04_inertia(&p), 0.5 / 386.4 * (4 * 625.0 + 0.0025) / 12.0, 1e-15);
    CHECK_REL(p.m2, 5.0 / 386.4, 1e-15);
    CHECK_CLOSE(p.b, 0.05, 0.0);
    CHECK_CLOSE(p.mu, 1e5, 0.0);
    ch04_variant v;
    CHECK_STATUS(ch04_variant_of("listing", &v), GSL_SUCCESS);
    CHECK_MSG(v == CH04_LISTING, "listing");
    CHECK_STATUS(ch04_variant_of("code", &v), MBD_EINPUT);
}

/* C(q0) and C'(q0) from the model's own callbacks: consistent to 1e-14 */
static void initial_conditions_consistent(void)
{
    for (int v = 0; v < 2; v++) {
        ch04_params p;
        ch04_params_init(&p, (ch04_variant)v);
        mbd_system s;
        ch04_system_init(&s, &p);
        double q0[2], qd0[2];
        ch04_initial_state(&p, q0, qd0);
        gsl_vector_view q = gsl_vector_view_array(q0, 2), qd = gsl_vector_view_array(qd0, 2);
        gsl_vector *C = gsl_vector_alloc(1), *Cd = gsl_vector_alloc(1);
        gsl_matrix *Cq = gsl_matrix_alloc(1, 2);
        REQUIRE_STATUS(s.constraint(&s, 0.0, &q.vector, C), GSL_SUCCESS);
        REQUIRE_STATUS(mbd_system_constraint_rate(&s, 0.0, &q.vector, &qd.vector, Cq, Cd),
                       GSL_SUCCESS);
        CHECK_CLOSE(gsl_vector_get(C, 0), 0.0, 1e-14);
        CHECK_CLOSE(gsl_vector_get(Cd, 0), 0.0, 1e-14);
        gsl_vector_free(C);
        gsl_vector_free(Cd);
        gsl_matrix_free(Cq);
    }
}

/* M, F, C, C_q, gamma at a general state, against the document's formulas */
static void model_matches_document(void)
{
    ch04_params p;
    ch04_params_init(&p, CH04_TABLE);
    mbd_system s;
    ch04_system_init(&s, &p);
    CHECK_MSG(s.n == 2 && s.m == 1 && s.constraint_t == NULL && s.energy == NULL,
              "n = 2, m = 1, scleronomic, no energy");
    CHECK_MSG(s.names && strcmp(s.names[0], "theta1") == 0 && strcmp(s.names[1], "x2") == 0,
              "coordinate names theta1, x2");
    double qv[2] = {-2.2, 7.0}, qdv[2] = {1.7, -3.0};
    const double t = 1.3, th = qv[0];
    gsl_vector_view q = gsl_vector_view_array(qv, 2), qd = gsl_vector_view_array(qdv, 2);
    gsl_matrix *M = gsl_matrix_alloc(2, 2), *Cq = gsl_matrix_alloc(1, 2);
    gsl_vector *F = gsl_vector_alloc(2), *C = gsl_vector_alloc(1), *g = gsl_vector_alloc(1);
    s.mass(&s, t, &q.vector, M);
    s.force(&s, t, &q.vector, &qd.vector, F);
    s.constraint(&s, t, &q.vector, C);
    s.jacobian(&s, t, &q.vector, Cq);
    s.gamma(&s, t, &q.vector, &qd.vector, g);
    CHECK_CLOSE(gsl_matrix_get(M, 0, 0), (4 * 625.0 + 4.0) * 0.5 / 12.0, 1e-12);
    CHECK_CLOSE(gsl_matrix_get(M, 0, 1), 0.0, 0.0);
    CHECK_CLOSE(gsl_matrix_get(M, 1, 1), 5.0, 0.0);
    CHECK_CLOSE(gsl_vector_get(F, 0), -0.5 * 0.5 * 386.4 * 25.0 * cos(th), 1e-10);
    /* listing A.3: F = -sin(t pi/4), f = [...; -F] */
    CHECK_CLOSE(gsl_vector_get(F, 1), -(-sin(t * M_PI / 4.0)), 1e-15);
    CHECK_CLOSE(gsl_vector_get(C, 0), 7.0 - 25.0 * cos(th), 1e-13);
    CHECK_CLOSE(gsl_matrix_get(Cq, 0, 0), sin(th) * 25.0, 1e-13);
    CHECK_CLOSE(gsl_matrix_get(Cq, 0, 1), 1.0, 0.0);
    CHECK_CLOSE(gsl_vector_get(g, 0), -cos(th) * 25.0 * 1.7 * 1.7, 1e-12);
    gsl_matrix_free(M);
    gsl_matrix_free(Cq);
    gsl_vector_free(F);
    gsl_vector_free(C);
    gsl_vector_free(g);
}

/* C_q and gamma against central finite differences of C, at several states */
static void derivatives_by_finite_differences(void)
{
    const double states[][4] = {{1.0, 13.5, 0.0, 0.0},  {0.7, 19.0, -1.3, 2.5},
                                {-2.5, -20.0, 3.0, -1.0}, {3.1, -24.9, -0.2, 40.0},
                                {-4.1, -14.0, 0.07, -1.4}};
    for (int v = 0; v < 2; v++) {
        ch04_params p;
        ch04_params_init(&p, (ch04_variant)v);
        mbd_system s;
        ch04_system_init(&s, &p);
        for (size_t i = 0; i < sizeof states / sizeof states[0]; i++) {
            double qv[2] = {states[i][0], states[i][1]}, qdv[2] = {states[i][2], states[i][3]};
            gsl_vector_view q = gsl_vector_view_array(qv, 2), qd = gsl_vector_view_array(qdv, 2);
            mbd_fdcheck fd;
            REQUIRE_STATUS(mbd_system_check_derivatives(&s, 0.5, &q.vector, &qd.vector, 0.0, &fd),
                           GSL_SUCCESS);
            CHECK_MSG(fd.jacobian_rel <= 1e-8, "state %zu: C_q differs from dC/dq by %.2e (rel)", i,
                      fd.jacobian_rel);
            CHECK_MSG(fd.gamma_abs <= 1e-5 * fmax(1.0, 25.0 * qdv[0] * qdv[0]),
                      "state %zu: gamma differs from -d2C/ds2 by %.2e", i, fd.gamma_abs);
            CHECK_MSG(fd.ct_abs == 0.0 || fd.ct_abs <= 1e-8, "state %zu: C_t = 0", i);
        }
    }
}

/* ------------------------------------------------------------------------ */
/* The reduced equation and the reference                                    */

/* The chapter's reduced equation agrees with the one written here. */
static void reduced_equation_agrees(void)
{
    for (int v = 0; v < 2; v++) {
        ch04_params p;
        ch04_params_init(&p, (ch04_variant)v);
        const double ys[][3] = {{1.0, 0.0, 0.0}, {-2.0, 1.5, 0.7}, {0.3, -4.0, 3.3}, {-4.1, 0.1, 3.9}};
        for (size_t i = 0; i < 4; i++) {
            double y[2] = {ys[i][0], ys[i][1]}, a[2], b[2];
            ch04_reduced_rhs(ys[i][2], y, a, &p);
            reduced(ys[i][2], y, b, (void *)data_of((ch04_variant)v));
            CHECK_CLOSE(a[0], b[0], 0.0);
            CHECK_CLOSE(a[1], b[1], 1e-12 * fmax(1.0, fabs(b[1])));
        }
    }
}

/* Work and energy: along the chapter's reduced solution, T + V changes by the
 * work of the yoke force, W = int f x2' dt (f = sin(pi t/4)). */
typedef struct {
    ch04_params p;
} energy_ctx;

static int with_work(double t, const double y[], double dydt[], void *params)
{
    energy_ctx *c = params;
    ch04_reduced_rhs(t, y, dydt, &c->p);
    dydt[2] = sin(M_PI * t / 4.0) * (-c->p.L * sin(y[0]) * y[1]);   /* f x2' */
    return GSL_SUCCESS;
}

static double mech_energy(const ch04_params *p, const double y[2])
{
    const double I1 = p->m1 * (4 * p->L * p->L + p->b * p->b) / 12.0;
    const double x2d = -p->L * sin(y[0]) * y[1];
    return 0.5 * I1 * y[1] * y[1] + 0.5 * p->m2 * x2d * x2d + p->m1 * p->g * 0.5 * p->L * sin(y[0]);
}

static void reduced_equation_balances_work(void)
{
    for (int v = 0; v < 2; v++) {
        energy_ctx c;
        ch04_params_init(&c.p, (ch04_variant)v);
        gsl_odeiv2_system sys = {with_work, NULL, 3, &c};
        gsl_odeiv2_driver *d = gsl_odeiv2_driver_alloc_y_new(&sys, gsl_odeiv2_step_rk8pd, 1e-5,
                                                             1e-12, 1e-12);
        double t = 0.0, y[3] = {1.0, 0.0, 0.0};
        const double E0 = mech_energy(&c.p, y);
        double worst = 0.0, scale = fabs(E0);
        for (int k = 1; k <= 40; k++) {
            REQUIRE_STATUS(gsl_odeiv2_driver_apply(d, &t, 0.1 * k, y), GSL_SUCCESS);
            const double E = mech_energy(&c.p, y);
            worst = fmax(worst, fabs(E - E0 - y[2]));
            scale = fmax(scale, fabs(E));
        }
        gsl_odeiv2_driver_free(d);
        CHECK_MSG(worst <= 1e-9 * scale, "%s: |T + V - E0 - W| = %.3e (energy scale %.3e)",
                  c.p.name, worst, scale);
    }
}

/* ch04_reference against the reference written here, at t = 0.5 ... 4 */
static void reference_agrees(void)
{
    double t[9];
    for (int k = 0; k < 9; k++)
        t[k] = 0.5 * k;
    for (int v = 0; v < 2; v++) {
        ch04_params p;
        ch04_params_init(&p, (ch04_variant)v);
        double a[36], b[36];
        mbd_failure f;
        REQUIRE_STATUS(ch04_reference(&p, 1e-13, t, 9, a, &f), GSL_SUCCESS);
        reference(data_of((ch04_variant)v), t, 9, b);
        for (int i = 0; i < 36; i++)
            CHECK_CLOSE(a[i], b[i], 1e-9 * fmax(1.0, fabs(b[i])));
        /* the shape of the motion: the table-reading rod swings to its mirror
         * height near -pi - 1; the listing-reading rod stays within (-pi/2, 1] */
        if (v == CH04_TABLE)
            CHECK_IN(a[4 * 8], -M_PI - 1.0, -4.0);
        else
            CHECK_IN(a[4 * 8], -M_PI / 2, 1.0);
    }
}

/* The reference computed once with dense output (what a loose run's errors
 * are measured against) within 1e-8 of the one stepped onto every time, on a
 * grid of 4001 outputs and at times off any step, for both readings. */
static void dense_reference_agrees(void)
{
    enum { N = 4001 };
    static double t[N + 2], a[4 * (N + 2)], b[4 * (N + 2)];
    for (int k = 0; k < N; k++)
        t[k] = k == N - 1 ? 4.0 : 1e-3 * k;
    t[N - 1] = 3.9995;   /* between grid times, then the end */
    t[N] = 3.99999;
    t[N + 1] = 4.0;
    for (int v = 0; v < 2; v++) {
        ch04_params p;
        ch04_params_init(&p, (ch04_variant)v);
        mbd_failure f;
        REQUIRE_STATUS(ch04_reference(&p, 1e-13, t, N + 2, a, &f), GSL_SUCCESS);
        REQUIRE_STATUS(ch04_reference_dense(&p, 1e-13, t, N + 2, b, &f), GSL_SUCCESS);
        double worst = 0;
        for (int i = 0; i < 4 * (N + 2); i++)
            worst = fmax(worst, fabs(a[i] - b[i]) / fmax(1.0, fabs(a[i])));
        CHECK_LE(worst, 1e-8);
    }
}

/* ------------------------------------------------------------------------ */
/* The formulations on the chapter's model                                   */

typedef struct {
    int status;
    mbd_history h;
    mbd_sim_stats stats;
    double err[4];
} outcome;

static void run(ch04_variant v, const char *method, const char *integrator, double mu, outcome *o)
{
    ch04_params p;
    ch04_params_init(&p, v);
    mbd_system s;
    ch04_system_init(&s, &p);
    mbd_formulation_params fp = {.mu = mu > 0 ? mu : p.mu, .alpha = 20.0, .beta = 20.0};
    CHECK_STATUS(mbd_formulation_method(method, &fp), GSL_SUCCESS);
    mbd_formulation *f = mbd_formulation_alloc(&s, &fp);
    mbd_ode_params op;
    CHECK_STATUS(mbd_ode_preset(integrator, &op), GSL_SUCCESS);
    const mbd_sim_params sp = {.t0 = 0.0, .t_end = 4.0, .dt_out = 1e-2, .max_violation = 1.0};
    double q0[2], qd0[2];
    ch04_initial_state(&p, q0, qd0);
    mbd_failure fail;
    mbd_history_init(&o->h);
    o->status = mbd_simulate(f, &op, &sp, q0, qd0, &o->h, &o->stats, &fail);
    mbd_formulation_free(f);
    CHECK_MSG(o->status == GSL_SUCCESS, "%s/%s/%s: %s", p.name, method, integrator, fail.cause);
    double *ref = malloc(4 * o->h.rows * sizeof *ref);
    reference(data_of(v), o->h.t, o->h.rows, ref);
    for (int j = 0; j < 4; j++)
        o->err[j] = 0.0;
    for (size_t k = 0; k < o->h.rows; k++) {
        const double x[4] = {mbd_history_q(&o->h, k)[0], mbd_history_q(&o->h, k)[1],
                             mbd_history_qd(&o->h, k)[0], mbd_history_qd(&o->h, k)[1]};
        for (int j = 0; j < 4; j++)
            o->err[j] = fmax(o->err[j], fabs(x[j] - ref[4 * k + j]));
    }
    free(ref);
}

static void tight_projection_matches_reference(void)
{
    const char *methods[] = {"projection", "projection-baumgarte"};
    for (int v = 0; v < 2; v++)
        for (int m = 0; m < 2; m++) {
            outcome o;
            run((ch04_variant)v, methods[m], "tight", 0, &o);
            CHECK_MSG(o.err[0] <= 1e-5, "%s, %s: theta1 error %.3e > 1e-5", v ? "listing" : "table",
                      methods[m], o.err[0]);
            /* the reading guide's Sc2/Sc3: 1e-6 in theta1, 1e-5 in x2 */
            CHECK_MSG(o.err[0] <= 1e-6 && o.err[1] <= 1e-5, "%s, %s: errors %.3e, %.3e",
                      v ? "listing" : "table", methods[m], o.err[0], o.err[1]);
            mbd_history_free(&o.h);
        }
}

static void document_penalty_matches_reference(void)
{
    for (int v = 0; v < 2; v++) {
        outcome o;
        run((ch04_variant)v, "penalty-baumgarte", "tight", 0, &o);
        CHECK_MSG(o.err[0] <= 1e-4, "%s: theta1 error %.3e > 1e-4", v ? "listing" : "table", o.err[0]);
        /* the reading guide's Sc2: 1e-5 in theta1, 2e-4 in x2 */
        CHECK_MSG(o.err[0] <= 1e-5 && o.err[1] <= 2e-4, "%s: errors %.3e, %.3e",
                  v ? "listing" : "table", o.err[0], o.err[1]);
        /* and it is the penalty's error, not the integrator's: well above the projection's */
        CHECK_MSG(o.err[0] >= 1e-7, "%s: penalty error %.3e is not of order 1/mu", v ? "listing" : "table",
                  o.err[0]);
        mbd_history_free(&o.h);
    }
}

/* Sc4: with ode23 the penalty and the projection (both with Baumgarte) differ
 * by little: theta1 <= 1e-4, x2 <= 1e-3 in, x2_dot <= 5e-3 in/s (table), 1e-2 (listing) */
static void penalty_minus_projection_at_ode23(void)
{
    const double x2dot_tol[2] = {5e-3, 1e-2};
    for (int v = 0; v < 2; v++) {
        outcome a, b;
        run((ch04_variant)v, "penalty-baumgarte", "ode23", 0, &a);
        run((ch04_variant)v, "projection-baumgarte", "ode23", 0, &b);
        REQUIRE_STATUS(a.h.rows == b.h.rows ? GSL_SUCCESS : GSL_EBADLEN, GSL_SUCCESS);
        double d[4] = {0};
        for (size_t k = 0; k < a.h.rows; k++) {
            d[0] = fmax(d[0], fabs(mbd_history_q(&a.h, k)[0] - mbd_history_q(&b.h, k)[0]));
            d[1] = fmax(d[1], fabs(mbd_history_q(&a.h, k)[1] - mbd_history_q(&b.h, k)[1]));
            d[3] = fmax(d[3], fabs(mbd_history_qd(&a.h, k)[1] - mbd_history_qd(&b.h, k)[1]));
        }
        CHECK_LE(d[0], 1e-4);
        CHECK_LE(d[1], 1e-3);
        CHECK_LE(d[3], x2dot_tol[v]);
        /* both far from the reference: ode23's RelTol 1e-3 dominates */
        CHECK_GE(b.err[0], 1e-4);
        CHECK_LE(b.err[0], 0.05);
        mbd_history_free(&a.h);
        mbd_history_free(&b.h);
    }
}

/* the static penalty's error falls as 1/mu while it dominates */
static void penalty_error_falls_as_one_over_mu(void)
{
    outcome a, b;
    run(CH04_TABLE, "penalty-baumgarte", "tight", 1e5, &a);
    run(CH04_TABLE, "penalty-baumgarte", "tight", 1e6, &b);
    CHECK_IN(a.err[0] / b.err[0], 7.0, 13.0);
    CHECK_IN(a.stats.max_C / b.stats.max_C, 7.0, 13.0);
    mbd_history_free(&a.h);
    mbd_history_free(&b.h);
}

/* ------------------------------------------------------------------------ */
/* The program                                                               */

static void program_summary(void)
{
    char cmd[512];
    test_run_result r;
    snprintf(cmd, sizeof cmd, "%s --summary --integrator tight --method projection --variant listing",
             test_program(PROG));
    test_run(cmd, &r);
    CHECK_MSG(r.status == 0, "exit status %d, stderr: %s", r.status, r.err);
    CHECK_MSG(strstr(r.out, "variant = listing") && strstr(r.out, "method = projection")
                  && strstr(r.out, "integrator = tight") && strstr(r.out, "status = ok"),
              "summary names the run: %s", r.out);
    CHECK_LE(test_summary(r.out, "max_theta1_error"), 1e-5);
    CHECK_LE(test_summary(r.out, "max_x2_error"), 1e-4);
    CHECK_CLOSE(test_summary(r.out, "mu"), 1e5, 0.0);
    CHECK_CLOSE(test_summary(r.out, "t_reached"), 4.0, 1e-12);
    CHECK_REL(test_summary(r.out, "m1"), 0.5 / 386.4, 1e-12);
    CHECK_CLOSE(test_summary(r.out, "corrections"), 0.0, 0.0);
    double ref[4];
    const double t4 = 4.0;
    reference(&LISTING, &t4, 1, ref);
    CHECK_CLOSE(test_summary(r.out, "theta1_end"), ref[0], 1e-6);
    CHECK_CLOSE(test_summary(r.out, "x2_dot_end"), ref[3], 1e-3);
    for (const char *const *k = (const char *const[]){"alpha", "beta", "t_end", "steps", "rejected",
                                                      "fevals", "max_C_norm", "max_Cdot_norm", NULL};
         *k; k++)
        CHECK_MSG(strstr(r.out, *k) != NULL, "summary key %s", *k);
    test_run_free(&r);

    /* the default run: the document's (penalty-baumgarte, ode23, table, mu = 1e7) */
    snprintf(cmd, sizeof cmd, "%s --summary", test_program(PROG));
    test_run(cmd, &r);
    CHECK_MSG(r.status == 0, "exit status %d", r.status);
    CHECK_MSG(strstr(r.out, "method = penalty-baumgarte") && strstr(r.out, "integrator = ode23")
                  && strstr(r.out, "variant = table"), "the default run: %s", r.out);
    CHECK_CLOSE(test_summary(r.out, "mu"), 1e7, 0.0);
    CHECK_CLOSE(test_summary(r.out, "outputs"), 40001, 0.0);
    CHECK_IN(test_summary(r.out, "max_theta1_error"), 1e-4, 0.05);
    test_run_free(&r);

    /* --mu overrides the variant's; --project counts corrections */
    snprintf(cmd, sizeof cmd, "%s --summary --mu 1e3 --method penalty --project", test_program(PROG));
    test_run(cmd, &r);
    CHECK_MSG(r.status == 0, "exit status %d", r.status);
    CHECK_CLOSE(test_summary(r.out, "mu"), 1e3, 0.0);
    CHECK_GE(test_summary(r.out, "corrections"), 10.0);
    test_run_free(&r);
    /* --mu with a method that has no penalty factor is refused, as in ch03 */
    snprintf(cmd, sizeof cmd, "%s --summary --mu 1e3 --method projection", test_program(PROG));
    test_run(cmd, &r);
    CHECK_MSG(r.status == 2 && strstr(r.err, "--mu applies to the penalty methods")
                  && r.out[0] == '\0', "projection with --mu: status %d, stderr %s", r.status,
              r.err);
    test_run_free(&r);
}

static void program_csv(void)
{
    char cmd[512];
    test_run_result r;
    snprintf(cmd, sizeof cmd, "%s --csv - --integrator tight --dt-out 0.5", test_program(PROG));
    test_run(cmd, &r);
    CHECK_MSG(r.status == 0, "exit status %d, stderr: %s", r.status, r.err);
    const char *header = "t,theta1,x2,theta1_dot,x2_dot,C_norm,Cdot_norm,h\n";
    CHECK_MSG(strncmp(r.out, header, strlen(header)) == 0, "CSV header: %.80s", r.out);
    int rows = 0;
    double t[9], ref[36];
    for (int k = 0; k < 9; k++)
        t[k] = 0.5 * k;
    reference(&TABLE, t, 9, ref);
    for (char *line = strchr(r.out, '\n'); line && line[1]; line = strchr(line + 1, '\n')) {
        double v[8];
        if (sscanf(line + 1, "%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf", &v[0], &v[1], &v[2], &v[3], &v[4],
                   &v[5], &v[6], &v[7]) == 8 && rows < 9) {
            CHECK_CLOSE(v[0], t[rows], 1e-12);
            CHECK_CLOSE(v[1], ref[4 * rows], 1e-4);
            CHECK_CLOSE(v[2], ref[4 * rows + 1], 2e-4);
        }
        rows++;
    }
    CHECK_MSG(rows == 9, "9 rows (t = 0, 0.5, ..., 4), got %d", rows);
    test_run_free(&r);

    /* a fixed-step integrator: no h column */
    snprintf(cmd, sizeof cmd, "%s --csv - --integrator rk4 --t-end 0.01 --dt-out 0.005", test_program(PROG));
    test_run(cmd, &r);
    CHECK_MSG(r.status == 0 && strncmp(r.out, "t,theta1,x2,theta1_dot,x2_dot,C_norm,Cdot_norm\n", strlen("t,theta1,x2,theta1_dot,x2_dot,C_norm,Cdot_norm\n")) == 0,
              "fixed-step CSV header: %.80s", r.out);
    test_run_free(&r);
}

static void program_failures(void)
{
    char cmd[512];
    test_run_result r;
    snprintf(cmd, sizeof cmd, "%s --method index2-penalty --project", test_program(PROG));
    test_run(cmd, &r);
    CHECK_MSG(r.status == 2 && strstr(r.err, "--project") && r.out[0] == '\0',
              "--project with index2-penalty: status %d, stderr %s", r.status, r.err);
    test_run_free(&r);

    /* the printed Baumgarte sign diverges: exit 1, the time named, rows written */
    snprintf(cmd, sizeof cmd, "%s --method penalty-baumgarte-printed --csv /tmp/mbd-test-ch04.csv",
             test_program(PROG));
    test_run(cmd, &r);
    CHECK_MSG(r.status == 1 && strstr(r.err, "at t = ") && strstr(r.err, "exceeds"),
              "printed sign: status %d, stderr %s", r.status, r.err);
    char *csv = test_read_file("/tmp/mbd-test-ch04.csv");
    CHECK_MSG(csv != NULL && strncmp(csv, "t,theta1", 8) == 0 && strlen(csv) > 1000,
              "rows up to the failure were written");
    free(csv);
    remove("/tmp/mbd-test-ch04.csv");
    test_run_free(&r);

    /* a spring of stiffness 1e16 on the slot rings at |lambda| ~ 1e8 /s, and
     * ode23 must follow it: the step limit stops the crawl, naming the step
     * limit and the fast mode, with every summary key up to there */
    snprintf(cmd, sizeof cmd, "%s --method alternate-penalty --mu 1e16 --max-steps 20000 --summary",
             test_program(PROG));
    test_run(cmd, &r);
    CHECK_MSG(r.status == 1 && strstr(r.out, "status = step-limit")
                  && strstr(r.err, "limit of 20000 steps") && strstr(r.err, "|lambda| ~ 1")
                  && strstr(r.out, "theta1_end = ") && !strstr(r.out, "nan"),
              "alternate-penalty, mu = 1e16, with ode23: status %d, stderr %s", r.status, r.err);
    CHECK_IN(test_summary(r.out, "steps"), 20000, 20000);
    CHECK_IN(test_summary(r.out, "t_reached"), 1e-6, 0.01);
    test_run_free(&r);
    /* the index-2 penalty is stiff by construction: msbdf replaces ode23, the
     * summary says so, and stderr too when the integrator was named */
    snprintf(cmd, sizeof cmd, "%s --method index2-penalty --t-end 1 --summary", test_program(PROG));
    test_run(cmd, &r);
    CHECK_MSG(r.status == 0 && strstr(r.out, "integrator = msbdf")
                  && strstr(r.out, "integrator_replaced = 1") && r.err[0] == '\0',
              "index2-penalty: status %d, stderr %s", r.status, r.err);
    test_run_free(&r);
    snprintf(cmd, sizeof cmd, "%s --method index2-penalty --integrator rk4 --t-end 1 --summary",
             test_program(PROG));
    test_run(cmd, &r);
    CHECK_MSG(r.status == 0 && strstr(r.out, "integrator = msbdf")
                  && strstr(r.err, "integrated with msbdf, not rk4"),
              "index2-penalty --integrator rk4: status %d, stderr %s", r.status, r.err);
    test_run_free(&r);

    snprintf(cmd, sizeof cmd, "%s --variant code", test_program(PROG));
    test_run(cmd, &r);
    CHECK_MSG(r.status == 2 && strstr(r.err, "table, listing"), "--variant code: %d %s", r.status, r.err);
    test_run_free(&r);
}

static void program_story(void)
{
    char cmd[512];
    test_run_result r;
    snprintf(cmd, sizeof cmd, "%s --no-timing --plot /tmp/mbd-test-ch04", test_program(PROG));
    test_run(cmd, &r);
    CHECK_MSG(r.status == 0, "exit status %d, stderr: %s", r.status, r.err);
    for (int k = 1; k <= 8; k++) {
        char step[32];
        snprintf(step, sizeof step, "Step %d.", k);
        CHECK_MSG(strstr(r.out, step) != NULL, "story has %s", step);
    }
    CHECK_MSG(strstr(r.out, "nan") == NULL && strstr(r.out, "inf") == NULL, "no NaN or Inf");
    CHECK_MSG(strstr(r.out, "13.507558") != NULL, "x2(0) printed");
    CHECK_MSG(strstr(r.out, "104.333") != NULL, "M11 of the table reading printed");
    /* the reference table: theta1 at t = 4 for both readings, to 10 decimals, as
     * computed here */
    double t4 = 4.0, ref[4];
    char num[32];
    reference(&TABLE, &t4, 1, ref);
    snprintf(num, sizeof num, "%.10f", ref[0]);
    CHECK_MSG(strstr(r.out, num) != NULL, "story prints theta1(4) = %s (table)", num);
    reference(&LISTING, &t4, 1, ref);
    snprintf(num, sizeof num, "%.10f", ref[0]);
    CHECK_MSG(strstr(r.out, num) != NULL, "story prints theta1(4) = %s (listing)", num);
    const char *figs[] = {"motion", "difference", "error"};
    for (int i = 0; i < 3; i++) {
        char path[128];
        snprintf(path, sizeof path, "/tmp/mbd-test-ch04-%s.svg", figs[i]);
        char *svg = test_read_file(path);
        CHECK_MSG(svg != NULL && strstr(svg, "<svg") != NULL, "figure %s written", path);
        free(svg);
        remove(path);
    }
    test_run_free(&r);
}

/* A --summary run keeps no history and measures each output as it comes
 * (ch04_run_measured); its errors, last output and counts must be the
 * history run's (ch04_run_case), for a run that reaches the end (tight and
 * loose tolerance: the stepped and the dense reference) and for one that a
 * violation limit stops (the errors themselves are checked against this
 * file's own reference above). */
static void measured_run_is_the_history_run(void)
{
    ch04_params p;
    ch04_params_init(&p, CH04_LISTING);
    const char *integrators[3] = {"ode23", "tight", "ode23"};
    for (int k = 0; k < 3; k++) {
        ch04_config c;
        ch04_config_default(&c, &p, "projection-baumgarte", integrators[k]);
        c.dt_out = 1e-3;
        if (k == 2)
            c.max_violation = 1e-4;   /* stops early */
        ch04_run h, m;
        mbd_history_init(&h.h);
        mbd_history_init(&m.h);
        REQUIRE_STATUS(ch04_run_case(&p, &c, NULL, &h), GSL_SUCCESS);
        REQUIRE_STATUS(ch04_run_measured(&p, &c, &m), GSL_SUCCESS);
        CU_ASSERT_EQUAL(m.h.rows, 0);
        CU_ASSERT_EQUAL(m.rows, h.h.rows);
        CU_ASSERT_EQUAL(m.res.status, h.res.status);
        CU_ASSERT_EQUAL(m.res.stats.run.ode.steps, h.res.stats.run.ode.steps);
        for (int j = 0; j < 4; j++)
            CHECK_MSG(m.err[j] == h.err[j], "%s: err[%d] %.17g, history %.17g",
                      integrators[k], j, m.err[j], h.err[j]);
        for (int j = 0; j < 2; j++) {
            CU_ASSERT_EQUAL(m.q_end[j], mbd_history_q(&h.h, h.h.rows - 1)[j]);
            CU_ASSERT_EQUAL(m.qd_end[j], mbd_history_qd(&h.h, h.h.rows - 1)[j]);
        }
        if (k == 2)
            CHECK_MSG(h.res.status == MBD_EVIOLATION && h.h.t[h.h.rows - 1] < 4.0,
                      "the limit should stop the run: status %d", h.res.status);
        mbd_history_free(&h.h);
    }
}

static CU_TestInfo tests[] = {
    {"document_numbers", document_numbers},
    {"dense_reference_agrees", dense_reference_agrees},
    {"initial_conditions_consistent", initial_conditions_consistent},
    {"model_matches_document", model_matches_document},
    {"derivatives_by_finite_differences", derivatives_by_finite_differences},
    {"reduced_equation_agrees", reduced_equation_agrees},
    {"reduced_equation_balances_work", reduced_equation_balances_work},
    {"reference_agrees", reference_agrees},
    {"tight_projection_matches_reference", tight_projection_matches_reference},
    {"document_penalty_matches_reference", document_penalty_matches_reference},
    {"penalty_minus_projection_at_ode23", penalty_minus_projection_at_ode23},
    {"penalty_error_falls_as_one_over_mu", penalty_error_falls_as_one_over_mu},
    {"measured_run_is_the_history_run", measured_run_is_the_history_run},
    {"program_summary", program_summary},
    {"program_csv", program_csv},
    {"program_failures", program_failures},
    {"program_story", program_story},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"ch04", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
