/* Chapter 06: planar bodies and joints, embedding against the augmented form
 * (document 001), checked against things computed independently of the
 * chapter's code:
 *   - the reading guide's numbers for the slider-crank (theta3(0), x_B(0),
 *     q'(0), E0) and the pendulum's closed forms (theta'' = -(3g/2l) cos,
 *     the pin's m g / 4 at horizontal release), typed in here;
 *   - each model's C_q and gamma against finite differences of C;
 *   - the planar models' accelerations against the mechanisms' minimal-
 *     coordinate equations, derived by hand (reference.c), and the embedding
 *     against the augmented form, at random consistent states;
 *   - the embedded run's constraints and RK4's energy error per halving;
 *   - the program: a forced independent coordinate failing at the dead
 *     centre (exit 1, the time and the cause) while the automatic choice
 *     runs through; usage errors, CSV, summary, story. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_math.h>

#include "check.h"
#include "mbd/formulation.h"
#include "study.h"

#define PROG "ch06-embedding"
#define G 9.81

static unsigned seed = 12345u;
static double uniform(double lo, double hi)
{
    seed = seed * 1103515245u + 12345u;
    return lo + (hi - lo) * (double)(seed >> 8) / (1u << 24);
}

static void build(ch06_model *md, ch06_scenario s)
{
    ch06_model_data(md, s);
    REQUIRE_STATUS(ch06_model_build(md), GSL_SUCCESS);
}

/* q'' and lambda of a library method at (q, q') */
static void accel(const ch06_model *md, const char *method, const double q[], const double qd[],
                  double qdd[], double lambda[])
{
    const mbd_system *s = ch06_system(md);
    mbd_formulation_params fp = {0};
    REQUIRE_STATUS(mbd_formulation_method(method, &fp), GSL_SUCCESS);
    mbd_formulation *f = mbd_formulation_alloc(s, &fp);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    gsl_vector_const_view qv = gsl_vector_const_view_array(q, s->n),
                          qdv = gsl_vector_const_view_array(qd, s->n);
    gsl_vector_view a = gsl_vector_view_array(qdd, s->n), l = gsl_vector_view_array(lambda, s->m);
    CHECK_STATUS(mbd_formulation_accel(f, 0.0, &qv.vector, &qdv.vector, &a.vector, &l.vector),
                 GSL_SUCCESS);
    mbd_formulation_free(f);
}

/* ------------------------------------------------------------------------ */
/* The models                                                                */

/* the reading guide's initial state and energy (its section 7.3, exercise 4) */
static void slider_crank_data(void)
{
    ch06_model md;
    build(&md, CH06_SLIDER_CRANK);
    const mbd_system *s = ch06_system(&md);
    CU_ASSERT_EQUAL(s->n, 9);
    CU_ASSERT_EQUAL(s->m, 8);
    double q[9], qd[9];
    REQUIRE_STATUS(ch06_initial(&md, q, qd), GSL_SUCCESS);
    CHECK_CLOSE(q[5], -0.3537416059, 1e-10);
    CHECK_CLOSE(q[6], 0.5690415760, 1e-10);
    const double guide[9] = {-0.433013, 0.25, 5, -0.958344, 0.25, -1.066004, -1.050663, 0, 0};
    for (int i = 0; i < 9; i++)
        CHECK_CLOSE(qd[i], guide[i], 1e-6);
    gsl_vector_view qv = gsl_vector_view_array(q, 9), qdv = gsl_vector_view_array(qd, 9);
    gsl_vector *C = gsl_vector_alloc(8);
    s->constraint(s, 0.0, &qv.vector, C);
    for (int i = 0; i < 8; i++)
        CHECK_CLOSE(gsl_vector_get(C, i), 0.0, 1e-15);
    double E;
    REQUIRE_STATUS(s->energy(s, 0.0, &qv.vector, &qdv.vector, &E), GSL_SUCCESS);
    CHECK_CLOSE(E, 3.995949932874, 1e-12);
    gsl_vector_free(C);
    ch06_model_free(&md);
}

/* every model's C_q and gamma against central differences at random states */
static void derivatives(void)
{
    for (int k = 0; k < CH06_NSCENARIOS; k++) {
        ch06_model md;
        build(&md, (ch06_scenario)k);
        const mbd_system *s = ch06_system(&md);
        for (int trial = 0; trial < 5; trial++) {
            double q[9], qd[9];
            for (size_t i = 0; i < s->n; i++) {
                q[i] = uniform(-2, 2);
                qd[i] = uniform(-1, 1);
            }
            gsl_vector_view qv = gsl_vector_view_array(q, s->n), qdv = gsl_vector_view_array(qd, s->n);
            mbd_fdcheck fd;
            /* C_q with the checker's own step; gamma, a second difference of C,
             * with 3e-4, between its truncation (h^2 |q'|^4 |C|) and round-off
             * (eps |C| / h^2) */
            mbd_fdcheck fd2;
            REQUIRE_STATUS(mbd_system_check_derivatives(s, 0.0, &qv.vector, &qdv.vector, 0.0, &fd),
                           GSL_SUCCESS);
            REQUIRE_STATUS(mbd_system_check_derivatives(s, 0.0, &qv.vector, &qdv.vector, 3e-4, &fd2),
                           GSL_SUCCESS);
            /* gamma in absolute terms: with |q'| <= 1 it is of order 1, and a
             * missing or mis-signed term is of that order too */
            CHECK_MSG(fd.jacobian_rel < 1e-7 && fd2.gamma_abs < 1e-6,
                      "%s: C_q %.2g, gamma %.2g", md.name, fd.jacobian_rel, fd2.gamma_abs);
        }
        ch06_model_free(&md);
    }
}

/* ------------------------------------------------------------------------ */
/* The pendulum's closed forms                                               */

static void pendulum_closed_form(void)
{
    ch06_model md;
    build(&md, CH06_PENDULUM);
    const double l = 1.0, m = 1.0;
    for (int k = 0; k < 20; k++) {
        const double th = uniform(-M_PI, M_PI), w = uniform(-4, 4);
        /* the rod's centre at (l/2)(cos, sin) from the pin at the origin */
        const double q[3] = {0.5 * l * cos(th), 0.5 * l * sin(th), th};
        const double qd[3] = {-0.5 * l * sin(th) * w, 0.5 * l * cos(th) * w, w};
        double a[3], lam[2];
        accel(&md, "embedding", q, qd, a, lam);
        CHECK_CLOSE(a[2], -1.5 * G / l * cos(th), 1e-12);
        accel(&md, "projection", q, qd, a, lam);
        CHECK_CLOSE(a[2], -1.5 * G / l * cos(th), 1e-12);
    }
    /* released horizontal: the pin carries m g / 4 */
    const double q[3] = {0.5 * l, 0.0, 0.0}, qd[3] = {0.0, 0.0, 0.0};
    double a[3], lam[2];
    accel(&md, "projection", q, qd, a, lam);
    CHECK_CLOSE(a[1], -0.75 * G, 1e-12);
    gsl_vector_const_view qv = gsl_vector_const_view_array(q, 3);
    gsl_vector_view lv = gsl_vector_view_array(lam, 2);
    mbd_planar_reaction on_rod;
    REQUIRE_STATUS(mbd_planar_reactions(md.pm, 0, &qv.vector, &lv.vector, &on_rod, NULL),
                   GSL_SUCCESS);
    CHECK_CLOSE(on_rod.F[0], 0.0, 1e-12);
    CHECK_CLOSE(on_rod.F[1], 0.25 * m * G, 1e-12);
    ch06_model_free(&md);
}

/* ------------------------------------------------------------------------ */
/* Embedded, augmented and the hand-derived minimal coordinates              */

static void three_ways_agree(void)
{
    for (int k = CH06_SLIDER_CRANK; k <= CH06_DOUBLE_PENDULUM; k++) {
        ch06_model md;
        build(&md, (ch06_scenario)k);
        const size_t n = ch06_system(&md)->n, dof = ch06_reduced_dof(&md);
        double worst_ea = 0.0, worst_er = 0.0;
        for (int trial = 0; trial < 30; trial++) {
            double y[4], dy[4], q[9], qd[9], ae[9], aa[9], le[8], la[8];
            for (size_t i = 0; i < 2 * dof; i++)
                y[i] = uniform(-M_PI, M_PI);
            ch06_reduced_to_state(&md, y, q, qd);
            accel(&md, "embedding", q, qd, ae, le);
            accel(&md, "projection", q, qd, aa, la);
            ch06_reduced_rhs(0.0, y, dy, &md);
            for (size_t i = 0; i < n; i++)
                worst_ea = fmax(worst_ea, fabs(ae[i] - aa[i]));
            /* the crank's (or each rod's) angular acceleration */
            const size_t th[2] = {2, 5};
            for (size_t j = 0; j < dof; j++)
                worst_er = fmax(worst_er, fabs(ae[th[j]] - dy[dof + j]));
        }
        CHECK_MSG(worst_ea < 1e-10, "%s: embedded - augmented %.3g", md.name, worst_ea);
        CHECK_MSG(worst_er < 1e-10, "%s: embedded - minimal coordinates %.3g", md.name, worst_er);
        ch06_model_free(&md);
    }
}

/* ------------------------------------------------------------------------ */
/* Runs                                                                      */

static void run(const ch06_model *md, const char *method, double h, double alpha, ch06_run *r)
{
    ch06_spec spec;
    ch06_spec_default(&spec, md->scenario);
    spec.run.method = method;
    spec.run.ode.h = h;
    spec.run.alpha = spec.run.beta = alpha;
    spec.run.t0 = 0.0;
    ch06_run_init(r);
    REQUIRE_STATUS(ch06_run_spec(md, &spec, r), GSL_SUCCESS);
    CHECK_STATUS(r->res.status, GSL_SUCCESS);
}

static void embedded_runs(void)
{
    ch06_model md;
    build(&md, CH06_SLIDER_CRANK);
    const double hs[3] = {0.005, 0.0025, 0.00125};
    double dE[3];
    for (int k = 0; k < 3; k++) {
        ch06_run r;
        run(&md, "embedding", hs[k], 0.0, &r);
        double worst = 0.0;
        for (size_t i = 0; i < r.h.rows; i++)
            worst = fmax(worst, r.h.C_norm[i]);
        CHECK_MSG(worst < 1e-10, "h = %g: max |C| %.3g", hs[k], worst);
        CU_ASSERT_EQUAL(r.h.rows, 201);
        dE[k] = r.max_energy_error;
        CHECK_LE(r.max_state_error, 1e-3);
        ch06_run_free(&r);
    }
    CHECK_MSG(dE[0] / dE[1] >= 14 && dE[1] / dE[2] >= 14, "energy ratios %.2f %.2f",
              dE[0] / dE[1], dE[1] / dE[2]);
    /* the augmented form drifts, and Baumgarte holds it closer */
    ch06_run plain, stab;
    run(&md, "augmented", 0.005, 0.0, &plain);
    run(&md, "augmented-baumgarte", 0.005, 5.0, &stab);
    CHECK_GE(plain.res.stats.max_C, 1e-7);
    CHECK_LE(stab.res.stats.max_C, 0.2 * plain.res.stats.max_C);
    ch06_run_free(&plain);
    ch06_run_free(&stab);
    ch06_model_free(&md);
}

/* x4 given at the start and re-selected: at ratio 0.1 the set switches to
 * theta2 once, before the dead centre theta2 = pi (the reference's crank
 * angle at the switch between 150 and 180 degrees), and the run goes on to
 * 2 s within 1e-5 of the reference where the held x4 stops; at 0.5 (the
 * library's default) x4 is below half of theta2's pivot already and is left
 * at the first step. */
static void given_x4_switches_at_the_dead_centre(void)
{
    ch06_model md;
    build(&md, CH06_SLIDER_CRANK);
    size_t x4, th2;
    REQUIRE_STATUS(mbd_planar_coordinate(md.pm, "x4", &x4), GSL_SUCCESS);
    REQUIRE_STATUS(mbd_planar_coordinate(md.pm, "theta2", &th2), GSL_SUCCESS);
    const double ratios[2] = {0.1, 0.5};
    for (int k = 0; k < 2; k++) {
        ch06_spec spec;
        ch06_spec_default(&spec, CH06_SLIDER_CRANK);
        spec.independent[0] = x4;
        spec.n_independent = 1;
        spec.reselect = 1;
        spec.run.reselect_ratio = ratios[k];
        ch06_run r;
        ch06_run_init(&r);
        REQUIRE_STATUS(ch06_run_spec(&md, &spec, &r), GSL_SUCCESS);
        CHECK_STATUS(r.res.status, GSL_SUCCESS);
        CU_ASSERT_EQUAL(r.res.independent0[0], x4);
        CU_ASSERT_EQUAL(r.res.independent_end[0], th2);
        CU_ASSERT_EQUAL_FATAL(r.res.reselections, 1);
        const mbd_formulation_reselection *ev = &r.res.events[0];
        CU_ASSERT_EQUAL(ev->left, x4);
        CU_ASSERT_EQUAL(ev->joined, th2);
        CHECK_LE(ev->ratio, ratios[k]);
        CHECK_LE(r.max_state_error, 1e-5);
        CHECK_CLOSE(r.h.t[r.h.rows - 1], 2.0, 1e-12);
        if (k == 0) {
            double state[18];
            mbd_failure fl;
            REQUIRE_STATUS(ch06_reference(&md, 1e-12, &ev->t, 1, state, &fl), GSL_SUCCESS);
            CHECK_IN(state[th2] * 180.0 / M_PI, 150.0, 180.0);
        } else {
            CHECK_CLOSE(ev->t, spec.run.ode.h, 1e-12);
        }
        ch06_run_free(&r);
    }
    ch06_model_free(&md);
}

/* ------------------------------------------------------------------------ */
/* The program                                                               */

static void forced_coordinate_fails(void)
{
    char cmd[512];
    test_run_result r;
    snprintf(cmd, sizeof cmd, "%s --independent x4 --summary", test_program(PROG));
    test_run(cmd, &r);
    CHECK_MSG(r.status == 1 && strstr(r.out, "status = singular") && strstr(r.err, "x4")
                  && strstr(r.err, "0.33"),
              "forced x4: exit %d, stderr %s", r.status, r.err);
    CHECK_IN(test_summary(r.out, "t_reached"), 0.30, 0.34);
    CU_ASSERT_PTR_NULL(strstr(r.out, "nan"));
    test_run_free(&r);
    snprintf(cmd, sizeof cmd, "%s --summary", test_program(PROG));
    test_run(cmd, &r);
    CHECK_MSG(r.status == 0 && strstr(r.out, "independent = theta2")
                  && strstr(r.out, "status = ok"),
              "automatic: exit %d, %s", r.status, r.err);
    CHECK_LE(test_summary(r.out, "max_C_norm"), 1e-10);
    CHECK_CLOSE(test_summary(r.out, "t_reached"), 2.0, 1e-12);
    CHECK_CLOSE(test_summary(r.out, "E0"), 3.995949932874, 1e-12);
    CHECK_IN(test_summary(r.out, "reselections"), 0, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "independent_end = theta2\n"));
    test_run_free(&r);
    /* x4 at the start, re-selected at ratio 0.1 (the report names the event) */
    snprintf(cmd, sizeof cmd, "%s --independent x4 --reselect --reselect-ratio 0.1 --summary",
             test_program(PROG));
    test_run(cmd, &r);
    CHECK_MSG(r.status == 0 && strstr(r.out, "independent = x4\n")
                  && strstr(r.out, "independent_end = theta2\n") && strstr(r.out, "status = ok"),
              "x4 re-selected: exit %d, %s", r.status, r.err);
    CHECK_IN(test_summary(r.out, "reselections"), 1, 1);
    CHECK_LE(test_summary(r.out, "max_state_error"), 1e-5);
    test_run_free(&r);
    snprintf(cmd, sizeof cmd, "%s --independent x4 --reselect --reselect-ratio 0.1",
             test_program(PROG));
    test_run(cmd, &r);
    CHECK_MSG(r.status == 0 && strstr(r.out, "t = 0.3") && strstr(r.out, "x4 out, theta2 in"),
              "x4 re-selected, report: %s", r.out);
    test_run_free(&r);
}

static void usage_errors(void)
{
    const char *bad[][2] = {
        {"--method augmented --independent theta2", "--independent"},
        {"--alpha 3", "--alpha"},
        {"--method augmented --beta 3", "--beta"},
        {"--independent x9", "x9"},
        {"--independent theta2,x4", "more coordinates"},
        {"--scenario double-pendulum --independent theta1", "needs 2"},
        {"--independent theta2,theta2 --scenario double-pendulum", "twice"},
        {"--scenario triple", "triple"},
        {"--method embedding --mu 5", "mu"},
        {"--method embedding --project", "project"},
        {"--reselect", "--reselect needs --independent"},
        {"--independent auto --reselect", "--reselect needs --independent"},
        {"--independent x4 --reselect-ratio 0.1", "held throughout"},
        {"--independent x4 --reselect --reselect-ratio 0", "reselect-ratio"},
        {"--independent x4 --reselect --reselect-ratio 1.5", "reselect-ratio"},
        {"--reselect-ratio nan", "reselect-ratio"},
        {"--method augmented --reselect-ratio 0.2", "--reselect-ratio applies"},
        {"--method augmented --independent x4 --reselect", "--independent applies"},
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

static void csv_and_other_scenarios(void)
{
    char cmd[512];
    test_run_result r;
    snprintf(cmd, sizeof cmd, "%s --scenario double-pendulum --csv - --t-end 0.5 --dt-out 0.1",
             test_program(PROG));
    test_run(cmd, &r);
    CHECK_MSG(r.status == 0 && strncmp(r.out, "t,x1,y1,theta1,x2,y2,theta2,x1_dot,y1_dot,"
                                               "theta1_dot,x2_dot,y2_dot,theta2_dot,C_norm,"
                                               "Cdot_norm,E\n", 95) == 0,
              "header: %.120s", r.out);
    size_t lines = 0;
    for (const char *p = r.out; *p; p++)
        lines += *p == '\n';
    CU_ASSERT_EQUAL(lines, 7);   /* the header and t = 0, 0.1, ..., 0.5 */
    test_run_free(&r);
    /* the pendulum by the augmented form with Baumgarte, from t0 != 0 is not
     * offered; its summary names everything asked for */
    snprintf(cmd, sizeof cmd, "%s --scenario pendulum --method augmented-baumgarte --alpha 10 "
                              "--beta 7 --integrator tight --summary", test_program(PROG));
    test_run(cmd, &r);
    CHECK_MSG(r.status == 0 && strstr(r.out, "scenario = pendulum")
                  && strstr(r.out, "method = augmented-baumgarte") && strstr(r.out, "alpha = 10")
                  && strstr(r.out, "beta = 7") && strstr(r.out, "independent = none"),
              "pendulum: %d %s", r.status, r.err);
    CHECK_LE(test_summary(r.out, "max_state_error"), 1e-6);
    CHECK_LE(test_summary(r.out, "max_energy_error"), 1e-6);
    test_run_free(&r);
}

static void story_runs(void)
{
    char cmd[512];
    test_run_result r;
    snprintf(cmd, sizeof cmd, "%s --no-timing", test_program(PROG));
    test_run(cmd, &r);
    CHECK_MSG(r.status == 0 && strstr(r.out, "Step 8.") && strstr(r.out, "keeps theta2"),
              "story: exit %d %s", r.status, r.err);
    test_run_free(&r);
}

static CU_TestInfo tests[] = {
    {"slider-crank data (the reading guide's q0, q'0, E0)", slider_crank_data},
    {"C_q and gamma by finite differences", derivatives},
    {"pendulum closed form and pin reaction m g / 4", pendulum_closed_form},
    {"embedded = augmented = minimal coordinates", three_ways_agree},
    {"embedded |C| and RK4 energy per halving; augmented drift", embedded_runs},
    {"forced x4 fails at the dead centre, auto runs through", forced_coordinate_fails},
    {"x4 given and re-selected switches before the dead centre",
     given_x4_switches_at_the_dead_centre},
    {"usage errors", usage_errors},
    {"csv, other scenarios", csv_and_other_scenarios},
    {"story", story_runs},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"ch06", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
