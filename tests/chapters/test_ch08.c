/* Chapter 08: document 004's direct corrections on the 4-bar in joint
 * coordinates with a cut joint, checked against things computed
 * independently of the chapter's code:
 *   - M(q0), the gravity forces, q''(0), the multipliers and E0 of reading R1
 *     in closed form, typed in here (derived by hand: half a regular hexagon);
 *   - the model's Phi_q, Phidot_q, E_q, E_q' against central differences of
 *     Phi, Phidot = Phi_q q' and E taken here;
 *   - (a) against the uncorrected equations integrated by rk8pd at 1e-12
 *     (a different integrator at a far tighter tolerance), and its drift
 *     falling as h^4 (RK4's order);
 *   - (b), (c), (d) keeping |Phi|, |Phidot| near round-off; only (d) the
 *     energy;
 *   - the eight-bar's three cut joints, and the rhombus' singular crossing
 *     reported as a failure with its time;
 *   - the program: usage errors, CSV columns, summary keys, story. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_math.h>

#include "check.h"
#include "study.h"

#define PROG "ch08-direct-correction"
#define G 9.81

static void build(ch08_model *md, ch08_scenario s, ch08_reading r)
{
    ch08_model_data(md, s, r);
    REQUIRE_STATUS(ch08_model_build(md), GSL_SUCCESS);
}

static void run(ch08_scenario sc, ch08_reading rd, ch08_method m, double h, double t_end,
                ch08_run *r)
{
    ch08_model md;
    build(&md, sc, rd);
    ch08_spec spec;
    ch08_spec_default(&spec);
    spec.method = m;
    spec.run.ode.h = h;
    spec.run.t_end = t_end;
    ch08_run_init(r);
    REQUIRE_STATUS(ch08_run_spec(&md, &spec, r), GSL_SUCCESS);
    ch08_model_free(&md);
}

/* ------------------------------------------------------------------------ */
/* The model                                                                 */

static void closed_forms_at_the_start(void)
{
    ch08_model md;
    build(&md, CH08_FOURBAR, CH08_R1);
    const mbd_system *s = ch08_system(&md);
    double q[3], qd[3], M[9], F[3], A[6], E;
    REQUIRE_STATUS(ch08_initial(&md, q, qd), GSL_SUCCESS);
    gsl_vector_view qv = gsl_vector_view_array(q, 3), qdv = gsl_vector_view_array(qd, 3);
    gsl_matrix_view Mv = gsl_matrix_view_array(M, 3, 3), Av = gsl_matrix_view_array(A, 2, 3);
    gsl_vector_view Fv = gsl_vector_view_array(F, 3);
    REQUIRE_STATUS(s->mass(s, 0, &qv.vector, &Mv.matrix), GSL_SUCCESS);
    REQUIRE_STATUS(s->force(s, 0, &qv.vector, &qdv.vector, &Fv.vector), GSL_SUCCESS);
    REQUIRE_STATUS(s->jacobian(s, 0, &qv.vector, &Av.matrix), GSL_SUCCESS);
    REQUIRE_STATUS(s->energy(s, 0, &qv.vector, &qdv.vector, &E), GSL_SUCCESS);
    /* links at 60, 120, 180 degrees; J = 1/12 */
    const double Mc[9] = {11.0 / 2, 8.0 / 3, 1.0 / 3, 8.0 / 3, 13.0 / 6, 7.0 / 12,
                          1.0 / 3, 7.0 / 12, 1.0 / 3};
    for (int i = 0; i < 9; i++)
        CHECK_CLOSE(M[i], Mc[i], 1e-14);
    CHECK_CLOSE(F[0], 0.0, 1e-13);
    CHECK_CLOSE(F[1], 1.25 * G, 1e-13);
    CHECK_CLOSE(F[2], 0.5 * G, 1e-13);
    const double Ac[6] = {-sqrt(3.0), -sqrt(3.0) / 2, 0.0, -1.0, -1.5, -1.0};
    for (int i = 0; i < 6; i++)
        CHECK_CLOSE(A[i], Ac[i], 1e-14);
    CHECK_CLOSE(E, 2 * sqrt(3.0) * G, 1e-12);
    /* q''(0) = (-g, 2g, -2g): M q'' + A^T lambda = F with A q'' = 0 (at rest,
     * gamma = 0), lambda = (-g / (2 sqrt 3), -g / 3) */
    const double qdd[3] = {-G, 2 * G, -2 * G}, lam[2] = {-G / (2 * sqrt(3.0)), -G / 3};
    for (int i = 0; i < 3; i++) {
        double r = -F[i];
        for (int j = 0; j < 3; j++)
            r += M[3 * i + j] * qdd[j];
        for (int k = 0; k < 2; k++)
            r += A[3 * k + i] * lam[k];
        CHECK_CLOSE(r, 0.0, 1e-12);
    }
    for (int k = 0; k < 2; k++)
        CHECK_CLOSE(A[3 * k] * qdd[0] + A[3 * k + 1] * qdd[1] + A[3 * k + 2] * qdd[2], 0.0, 1e-12);
    ch08_model_free(&md);
}

/* the model's derivatives against central differences, at random states off
 * the constraints, for every scenario */
static void derivatives_by_differences(void)
{
    const ch08_scenario sc[3] = {CH08_FOURBAR, CH08_FOURBAR, CH08_EIGHTBAR};
    const ch08_reading rd[3] = {CH08_R1, CH08_R2, CH08_R1};
    unsigned seed = 7u;
    for (int c = 0; c < 3; c++) {
        ch08_model md;
        build(&md, sc[c], rd[c]);
        const size_t n = md.n, m = 2 * md.ncut;
        double q[8], v[8], J[48], Jd[48], Eq[8], Eqd[8];
        ch08_initial(&md, q, v);
        for (size_t i = 0; i < n; i++) {
            seed = seed * 1103515245u + 12345u;
            q[i] += 0.05 * ((double)(seed >> 8) / (1u << 24) - 0.5);
            seed = seed * 1103515245u + 12345u;
            v[i] = 2.0 * ((double)(seed >> 8) / (1u << 24) - 0.5);
        }
        const mbd_system *s = ch08_system(&md);
        gsl_vector_view qv = gsl_vector_view_array(q, n);
        gsl_matrix_view Jv = gsl_matrix_view_array(J, m, n), Jdv = gsl_matrix_view_array(Jd, m, n);
        REQUIRE_STATUS(s->jacobian(s, 0, &qv.vector, &Jv.matrix), GSL_SUCCESS);
        REQUIRE_STATUS(ch08_velocity_jacobian(&md, q, v, &Jdv.matrix), GSL_SUCCESS);
        REQUIRE_STATUS(ch08_energy_gradient(&md, q, v, Eq, Eqd), GSL_SUCCESS);
        double dJ = 0, dJd = 0, dEq = 0, dEqd = 0, scale = 1;
        for (size_t j = 0; j < n; j++) {
            const double h = 1e-6;
            double qp[8], qm[8], vp[8], vm[8], pp[6], pm[6], dp[6], dm[6], Tp, Vp, Tm, Vm;
            memcpy(qp, q, sizeof qp);
            memcpy(qm, q, sizeof qm);
            qp[j] += h;
            qm[j] -= h;
            ch08_cut_violation(&md, qp, v, pp, dp);
            ch08_cut_violation(&md, qm, v, pm, dm);
            for (size_t i = 0; i < m; i++) {
                dJ = fmax(dJ, fabs(J[i * n + j] - (pp[i] - pm[i]) / (2 * h)));
                dJd = fmax(dJd, fabs(Jd[i * n + j] - (dp[i] - dm[i]) / (2 * h)));
                scale = fmax(scale, fabs(Jd[i * n + j]));
            }
            ch08_energy_parts(&md, qp, v, &Tp, &Vp);
            ch08_energy_parts(&md, qm, v, &Tm, &Vm);
            dEq = fmax(dEq, fabs(Eq[j] - (Tp + Vp - Tm - Vm) / (2 * h)) / fmax(1, fabs(Eq[j])));
            memcpy(vp, v, sizeof vp);
            memcpy(vm, v, sizeof vm);
            vp[j] += h;
            vm[j] -= h;
            ch08_energy_parts(&md, q, vp, &Tp, &Vp);
            ch08_energy_parts(&md, q, vm, &Tm, &Vm);
            dEqd = fmax(dEqd, fabs(Eqd[j] - (Tp + Vp - Tm - Vm) / (2 * h)) / fmax(1, fabs(Eqd[j])));
        }
        CHECK_LE(dJ, 1e-8);
        CHECK_LE(dJd / scale, 1e-8);
        CHECK_LE(dEq, 1e-7);
        CHECK_LE(dEqd, 1e-7);
        ch08_model_free(&md);
    }
}

/* ------------------------------------------------------------------------ */
/* The scenarios                                                             */

static void uncorrected_against_reference_and_order(void)
{
    ch08_run a[2];
    run(CH08_FOURBAR, CH08_R1, CH08_A, 1e-3, 2.0, &a[0]);
    run(CH08_FOURBAR, CH08_R1, CH08_A, 5e-4, 2.0, &a[1]);
    ch08_model md;
    build(&md, CH08_FOURBAR, CH08_R1);
    double err[2];
    mbd_failure fail;
    for (int k = 0; k < 2; k++)
        REQUIRE_STATUS(ch08_reference_error(&md, &a[k], &err[k], &fail), GSL_SUCCESS);
    CHECK_LE(err[0], 1e-5);
    CHECK_IN(err[0] / err[1], 12.0, 20.0);   /* RK4: h^4 */
    /* the drift is real and falls as h^4 */
    CHECK_GE(a[0].max_phi_all, 1e-10);
    CHECK_IN(a[0].max_phi_all / a[1].max_phi_all, 12.0, 20.0);
    CHECK_IN(a[0].max_energy_error / a[1].max_energy_error, 12.0, 20.0);
    for (int k = 0; k < 2; k++)
        ch08_run_free(&a[k]);
    ch08_model_free(&md);
}

static void corrections_hold_the_constraints(void)
{
    ch08_run r[CH08_NMETHODS];
    for (int k = 0; k < CH08_NMETHODS; k++)
        run(CH08_FOURBAR, CH08_R1, (ch08_method)k, 1e-3, 10.0, &r[k]);
    CHECK_GE(r[CH08_A].max_phi_all, 1e-8);
    CHECK_GE(r[CH08_A].max_energy_error, 1e-6);
    for (int k = CH08_B; k <= CH08_D; k++) {
        CHECK_STATUS(r[k].res.status, GSL_SUCCESS);
        CHECK_LE(r[k].max_phi_all, 1e-13);
        CHECK_LE(r[k].max_phidot_all, 1e-13);
        CHECK_GE((double)r[k].iterations, 1000.0);
    }
    /* only (d) holds the energy, to round-off */
    CHECK_LE(r[CH08_D].max_energy_error, 1e-12);
    CHECK_GE(r[CH08_B].max_energy_error, 1e-9);
    CHECK_GE(r[CH08_C].max_energy_error, 1e-9);
    /* the corrected runs stay with the exact motion (q against (a)'s) */
    double d = 0.0;
    for (size_t i = 0; i < r[CH08_D].h.rows; i++)
        for (size_t j = 0; j < 3; j++)
            d = fmax(d, fabs(mbd_history_q(&r[CH08_D].h, i)[j] - mbd_history_q(&r[CH08_A].h, i)[j]));
    CHECK_LE(d, 1e-4);
    for (int k = 0; k < CH08_NMETHODS; k++)
        ch08_run_free(&r[k]);
}

static void eightbar_and_rhombus(void)
{
    ch08_run e;
    run(CH08_EIGHTBAR, CH08_R1, CH08_D, 1e-3, 3.0, &e);
    CU_ASSERT_EQUAL(e.ncut, 3);
    for (size_t i = 0; i < 6; i++) {
        CHECK_LE(e.max_phi[i], 1e-13);
        CHECK_LE(e.max_phidot[i], 1e-13);
    }
    CHECK_LE(e.max_energy_error, 1e-12);
    ch08_run_free(&e);
    /* the rhombus: (d) fails at the turning point, where every link lies on
     * one line, t* = 2 K(sin 75 deg) / sqrt(6 g / 5) = 1.6135 s (the
     * pendulum (5/3) phi'' = -2 g cos phi from 60 to 120 degrees) */
    ch08_run r;
    run(CH08_FOURBAR, CH08_R2, CH08_D, 1e-3, 4.0, &r);
    CHECK_STATUS(r.res.status, MBD_ESINGULAR);
    CHECK_CLOSE(r.res.stats.run.t_reached, 1.6135, 5e-3);
    CHECK_MSG(strstr(r.res.fail.cause, "singular") != NULL, "cause: %s", r.res.fail.cause);
    ch08_run_free(&r);
}

/* ------------------------------------------------------------------------ */
/* The program                                                               */

static void usage_errors(void)
{
    const char *bad[][2] = {
        {"--method e", "'e'"},
        {"--method a --tol 1e-12", "--tol"},
        {"--method a --metric mass", "--metric"},
        {"--tol 0", "--tol"},
        {"--tol 1e-300", "--tol"},
        {"--max-iter 0", "--max-iter"},
        {"--scenario eightbar --reading R2", "--reading"},
        {"--reading R3", "R3"},
        {"--h 20", "--h"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        char cmd[512];
        test_run_result r;
        snprintf(cmd, sizeof cmd, "%s %s", test_program(PROG), bad[k][0]);
        test_run(cmd, &r);
        CHECK_MSG(r.status == 2 && strstr(r.err, bad[k][1]) && r.out[0] == '\0',
                  "%s: exit %d, stderr %s", bad[k][0], r.status, r.err);
        test_run_free(&r);
    }
}

static void csv_summary_and_failure(void)
{
    char cmd[512];
    test_run_result r;
    snprintf(cmd, sizeof cmd, "%s --scenario eightbar --csv - --t-end 0.02 --dt-out 0.01",
             test_program(PROG));
    test_run(cmd, &r);
    const char *head = "t,q1,q2,q3,q4,q5,q6,q7,q8,q1_dot,q2_dot,q3_dot,q4_dot,q5_dot,q6_dot,"
                       "q7_dot,q8_dot,phi_x1,phi_y1,phidot_x1,phidot_y1,phi_x2,phi_y2,phidot_x2,"
                       "phidot_y2,phi_x3,phi_y3,phidot_x3,phidot_y3,E\n";
    CHECK_MSG(r.status == 0 && strncmp(r.out, head, strlen(head)) == 0, "header: %.300s", r.out);
    size_t lines = 0;
    for (const char *p = r.out; *p; p++)
        lines += *p == '\n';
    CU_ASSERT_EQUAL(lines, 4);
    test_run_free(&r);
    snprintf(cmd, sizeof cmd, "%s --method c --metric mass --tol 1e-12 --t-end 2 --summary",
             test_program(PROG));
    test_run(cmd, &r);
    CHECK_MSG(r.status == 0 && strstr(r.out, "method = c") && strstr(r.out, "metric = mass")
                  && strstr(r.out, "status = ok"), "c: %d %s", r.status, r.err);
    CHECK_LE(test_summary(r.out, "max_phi"), 1e-12);
    CHECK_LE(test_summary(r.out, "max_phidot"), 1e-12);
    CHECK_GE(test_summary(r.out, "newton_iterations"), 100);
    CHECK_CLOSE(test_summary(r.out, "tol"), 1e-12, 0);
    CHECK_CLOSE(test_summary(r.out, "E0"), 2 * sqrt(3.0) * G, 1e-12);
    test_run_free(&r);
    /* one iteration cannot reach 1e-16 from a step's drift: a reported failure */
    snprintf(cmd, sizeof cmd, "%s --max-iter 1 --tol 1e-16 --summary", test_program(PROG));
    test_run(cmd, &r);
    CHECK_MSG(r.status == 1 && strstr(r.err, "did not converge") && strstr(r.err, "t = ")
                  && strstr(r.out, "status = "),
              "no convergence: exit %d, %s", r.status, r.err);
    CU_ASSERT_PTR_NULL(strstr(r.out, "nan"));
    test_run_free(&r);
}

static void story_runs(void)
{
    char cmd[512];
    test_run_result r;
    snprintf(cmd, sizeof cmd, "%s --no-timing", test_program(PROG));
    test_run(cmd, &r);
    CHECK_MSG(r.status == 0 && strstr(r.out, "Step 8.") && !strstr(r.out, "nan"),
              "story: exit %d %s", r.status, r.err);
    test_run_free(&r);
}

static CU_TestInfo tests[] = {
    {"R1 at the start: M, Q_g, q'', lambda, E0 in closed form", closed_forms_at_the_start},
    {"Phi_q, Phidot_q, E_q, E_q' by differences", derivatives_by_differences},
    {"(a) against rk8pd at 1e-12; drift as h^4", uncorrected_against_reference_and_order},
    {"(b), (c), (d) at round-off; only (d) holds E", corrections_hold_the_constraints},
    {"eight-bar's three cuts; the rhombus' singular crossing", eightbar_and_rhombus},
    {"usage errors", usage_errors},
    {"csv, summary, a correction that does not converge", csv_summary_and_failure},
    {"story", story_runs},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"ch08", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
