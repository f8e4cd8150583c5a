/* Chapter 07: the null-space formulation on the QR tangent basis, the
 * singularity monitor and continuation (document 002), checked against
 * things computed independently of the chapter's code:
 *   - Table 5.1's (m, n, d), typed in from the document, and the degrees of
 *     freedom at the horizontal (1 -> 2 for the 4-bar, 1 -> 3 for the 2
 *     4-bar, the document's Secs. 5.2-5.3);
 *   - the permutation-invariant product of the |R_ii|, sqrt(det A A^T) =
 *     sqrt(3.5) |sin theta| for the 4-bar (derived by hand);
 *   - the reading guide's E0 and |q'(0)| (closed forms 4 sqrt(3.5), ...);
 *   - the singular instants against the reduced one-degree-of-freedom
 *     equation J theta'' = -K g cos(theta), integrated separately
 *     (reference.c, rk8pd), and q1 = +-sqrt(S)(theta1 - theta1(0));
 *   - the stop speed sqrt(12 g / 5) and its time by quadrature;
 *   - the branch the torque selects (theta3 = pi, theta2 = theta1 - pi:
 *     the folding mode), and the parallelogram kept without dynamic rank;
 *   - the pendulum at two steps and its |R_11| = 2 l;
 *   - the program: usage errors, CSV columns, summary keys, story. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_math.h>

#include "check.h"
#include "mbd/nullspace.h"
#include "study.h"

#define PROG "ch07-qrp-continuation"

static void build(ch07_model *md, ch07_scenario s)
{
    ch07_model_data(md, s);
    REQUIRE_STATUS(ch07_model_build(md), GSL_SUCCESS);
}

/* a run of scenario s with the defaults, changed by the arguments */
static void run(ch07_scenario s, ch07_run *r, mbd_nullspace_continuation cont, double h,
                double dt_out, double t_end, int dynamic)
{
    ch07_model md;
    build(&md, s);
    ch07_spec spec;
    ch07_spec_default(&spec, s);
    spec.omega = md.omega;
    spec.continuation = cont;
    spec.ode.h = h;
    spec.dt_out = dt_out;
    spec.t_end = t_end;
    spec.dynamic_rank = dynamic;
    ch07_run_init(r);
    REQUIRE_STATUS(ch07_run_spec(&md, &spec, r), GSL_SUCCESS);
    CHECK_STATUS(r->status, GSL_SUCCESS);
    ch07_model_free(&md);
}

/* ------------------------------------------------------------------------ */
/* The census                                                                */

static void table_5_1(void)
{
    /* the document's Table 5.1 (m, n, d) and the degrees of freedom at the
     * horizontal: 2 for the 4-bar, 3 for the 2 4-bar (Secs. 5.2, 5.3), the
     * modified ones one more per copy (their d doubles) */
    const struct {
        ch07_scenario s;
        size_t m, n, d, dof, dof_h;
    } rows[] = {
        {CH07_FOURBAR, 8, 9, 0, 1, 2},   {CH07_DOUBLE, 14, 15, 0, 1, 3},
        {CH07_MOD2, 12, 12, 1, 1, 2},    {CH07_MOD2X2, 24, 24, 2, 2, 4},
        {CH07_MOD3, 16, 15, 1, 1, 2},    {CH07_MOD2X3, 32, 30, 2, 2, 4},
    };
    for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
        ch07_model md;
        build(&md, rows[k].s);
        ch07_census c;
        CHECK_STATUS(ch07_census_of(&md, &c), GSL_SUCCESS);
        CHECK_MSG(c.m == rows[k].m && c.n == rows[k].n && c.d == rows[k].d
                      && c.dof == rows[k].dof && c.dof_h == rows[k].dof_h,
                  "%s: m %zu n %zu d %zu dof %zu (horizontal %zu)", ch07_scenario_names[rows[k].s],
                  c.m, c.n, c.d, c.dof, c.dof_h);
        CU_ASSERT_EQUAL(c.rank, c.n - c.dof);
        ch07_model_free(&md);
    }
}

/* prod |R_ii| = sqrt(det A A^T) = sqrt(3.5) |sin theta| for the 4-bar, in
 * any pivot order; at the horizontal exactly one entry vanishes */
static void product_of_diagonal(void)
{
    ch07_model md;
    build(&md, CH07_FOURBAR);
    const mbd_system *s = ch07_system(&md);
    mbd_nullspace *ns = mbd_nullspace_alloc(9, 8);
    gsl_matrix *Cq = gsl_matrix_alloc(8, 9);
    const double angles[] = {M_PI / 2, M_PI / 3, M_PI / 4, 2.5};
    for (size_t k = 0; k < 4; k++) {
        double q[9], qd[9], diag[8];
        REQUIRE_STATUS(ch07_state(&md, angles[k], 1.0, q, qd), GSL_SUCCESS);
        gsl_vector_view qv = gsl_vector_view_array(q, 9);
        REQUIRE_STATUS(s->jacobian(s, 0.0, &qv.vector, Cq), GSL_SUCCESS);
        REQUIRE_STATUS(mbd_nullspace_factor(ns, Cq), GSL_SUCCESS);
        mbd_nullspace_monitor(ns, diag);
        double p = 1.0;
        for (int i = 0; i < 8; i++)
            p *= diag[i];
        CHECK_REL(p, sqrt(3.5) * fabs(sin(angles[k])), 1e-10);
    }
    double q[9], qd[9], diag[8];
    REQUIRE_STATUS(ch07_state(&md, M_PI, 0.0, q, qd), GSL_SUCCESS);
    gsl_vector_view qv = gsl_vector_view_array(q, 9);
    REQUIRE_STATUS(s->jacobian(s, 0.0, &qv.vector, Cq), GSL_SUCCESS);
    REQUIRE_STATUS(mbd_nullspace_factor(ns, Cq), GSL_SUCCESS);
    mbd_nullspace_monitor(ns, diag);
    CHECK_LE(diag[7], 1e-10 * diag[0]);
    CHECK_GE(diag[6], 0.1 * diag[0]);
    /* the basis there spans the parallelogram and the folding modes */
    double ang[2] = {1, 1}, T[18];
    CU_ASSERT_EQUAL(ch07_fourbar_modes(&md, M_PI, 1e-3, ang, T, 18), 2);
    CHECK_LE(ang[1], 1e-10);
    gsl_matrix_free(Cq);
    mbd_nullspace_free(ns);
    ch07_model_free(&md);
}

static void energies_and_speeds(void)
{
    /* the reading guide's E0 (y = 0 on the ground line) and |q'(0)| =
     * |omega| sqrt(S), S = 3.5, 5.75, 4.75 (x2: 9.5), 6 (x2: 12) */
    const struct {
        ch07_scenario s;
        double E0, speed;
    } rows[] = {
        {CH07_FOURBAR, 32.953333333, 4 * sqrt(3.5)},
        {CH07_DOUBLE, 58.335, 4 * sqrt(5.75)},
        {CH07_MOD2, 35.835, sqrt(4.75)},
        {CH07_MOD2X2, 71.67, sqrt(9.5)},
        {CH07_MOD3, 51.216666667, sqrt(6.0)},
        {CH07_MOD2X3, 102.433333333, sqrt(12.0)},
        {CH07_SPATIAL_PENDULUM, 0.5 * 0.7895 * 0.7895, 0.7895},
        {CH07_FOURBAR_STOP, 0.0, sqrt(12.0 * 9.81 / 5.0) * sqrt(3.5)},
    };
    for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
        ch07_model md;
        build(&md, rows[k].s);
        ch07_census c;
        CHECK_STATUS(ch07_census_of(&md, &c), GSL_SUCCESS);
        CHECK_CLOSE(c.E0, rows[k].E0, 1e-6);
        CHECK_REL(c.speed0, rows[k].speed, 1e-12);
        ch07_model_free(&md);
    }
    /* the stop: 5/6 w^2 = 2 g, and t* by the separate quadrature */
    CHECK_CLOSE(ch07_stop_speed(), 4.852215988597375, 1e-12);
    CHECK_CLOSE(ch07_stop_time(), 0.5404, 1e-4);
}

/* ------------------------------------------------------------------------ */
/* The 4-bar at 4 rad/s                                                      */

static void fourbar_singular_instants(void)
{
    ch07_run cont, trad;
    run(CH07_FOURBAR, &cont, MBD_NULLSPACE_PROCRUSTES, 1e-4, 1e-4, 2.0, 1);
    run(CH07_FOURBAR, &trad, MBD_NULLSPACE_NONE, 1e-4, 1e-4, 2.0, 1);
    ch07_model md;
    build(&md, CH07_FOURBAR);
    double ref[8];
    const size_t nref = ch07_horizontal_times(&md, 2.0, ref, 8);
    CU_ASSERT_EQUAL(nref, 4);
    CU_ASSERT_EQUAL_FATAL(cont.nsing, nref);
    for (size_t i = 0; i < nref; i++) {
        CHECK_CLOSE(cont.sing_t[i], ref[i], 2e-4);
        CU_ASSERT_EQUAL(cont.sing_dof[i], 2);
    }
    /* one degree of freedom away from them, two in the window */
    CU_ASSERT_EQUAL(cont.rep.dof, 1);
    CU_ASSERT_EQUAL(cont.rep.dof_max, 2);
    /* continued: no flip, no jump above 0.01 per step; traditional: jumps */
    CU_ASSERT_EQUAL(cont.rep.jumps, 0);
    CHECK_LE(cont.max_dv, 0.01);
    CHECK_GE((double)trad.rep.jumps, 1.0);
    CHECK_GE(trad.max_dv, 1.0);
    /* the same motion */
    CHECK_LE(ch07_run_position_difference(&cont, &trad), 1e-9);
    CHECK_LE(cont.max_energy_error, 1e-6);
    CHECK_LE(cont.max_c_norm, 1e-10);
    /* q1 = +-sqrt(3.5) (theta1 - pi/2) */
    double e[2] = {0, 0};
    for (size_t i = 0; i < cont.rows; i++) {
        const double d = cont.q[i * 9 + 2] - M_PI / 2, z = cont.z[i * CH07_MAX_K];
        e[0] = fmax(e[0], fabs(z - sqrt(3.5) * d));
        e[1] = fmax(e[1], fabs(z + sqrt(3.5) * d));
    }
    CHECK_LE(fmin(e[0], e[1]), 1e-6);
    /* theta1 against the reduced equation at the end */
    double y[2];
    REQUIRE_STATUS(ch07_reduced_state(&md, 2.0, y, NULL), GSL_SUCCESS);
    CHECK_CLOSE(cont.q[(cont.rows - 1) * 9 + 2], y[0], 1e-6);
    ch07_model_free(&md);
    ch07_run_free(&cont);
    ch07_run_free(&trad);
}

static void skew_update_agrees(void)
{
    ch07_run full, cont;
    run(CH07_FOURBAR, &full, MBD_NULLSPACE_FULL, 1e-4, 1e-3, 0.8, 1);
    run(CH07_FOURBAR, &cont, MBD_NULLSPACE_PROCRUSTES, 1e-4, 1e-3, 0.8, 1);
    CU_ASSERT_EQUAL(full.rep.jumps, 0);
    CHECK_LE(ch07_run_position_difference(&full, &cont), 1e-9);
    /* one degree of freedom: the continued bases agree up to round-off */
    double dz = 0.0;
    for (size_t i = 0; i < full.rows && i < cont.rows; i++)
        dz = fmax(dz, fabs(full.z[i * CH07_MAX_K] - cont.z[i * CH07_MAX_K]));
    CHECK_LE(dz, 1e-8);
    ch07_run_free(&full);
    ch07_run_free(&cont);
}

/* ------------------------------------------------------------------------ */
/* The stop and the torque                                                   */

static void stop_at_horizontal(void)
{
    ch07_run r;
    run(CH07_FOURBAR_STOP, &r, MBD_NULLSPACE_PROCRUSTES, 1e-4, 1e-4, 1.2, 1);
    const double t_star = ch07_stop_time();
    double wmin = INFINITY, tmin = 0.0, smin = INFINITY;
    for (size_t i = 0; i < r.rows; i++) {
        const double w = fabs(r.qd[i * 9 + 2]);
        if (w < wmin) {
            wmin = w;
            tmin = r.t[i];
        }
        smin = fmin(smin, r.ratio[i]);
    }
    CHECK_LE(wmin, 1e-2);
    CHECK_CLOSE(tmin, t_star, 1e-3);
    CHECK_LE(smin, 1e-4);
    CU_ASSERT_EQUAL_FATAL(r.nsing, 1);
    CHECK_CLOSE(r.sing_t[0], t_star, 1e-3);
    /* it falls back on the parallelogram: theta2 stays 0, theta3 = theta1 */
    const double *q = r.q + (r.rows - 1) * 9;
    CHECK_LE(fabs(q[5]), 1e-8);
    CHECK_CLOSE(q[8], q[2], 1e-8);
    CHECK_LE(r.max_energy_error, 1e-6);
    ch07_run_free(&r);
}

static void torque_switches_branch(void)
{
    ch07_run dyn, fixed;
    run(CH07_FOURBAR_TORQUE, &dyn, MBD_NULLSPACE_PROCRUSTES, 1e-4, 1e-3, 1.2, 1);
    run(CH07_FOURBAR_TORQUE, &fixed, MBD_NULLSPACE_PROCRUSTES, 1e-4, 1e-3, 1.2, 0);
    double bar3, fold;
    ch07_branch_of(&dyn, &bar3, &fold);
    CHECK_LE(bar3, 1e-8);     /* bar 3 locked at pi */
    CHECK_LE(fold, 1e-8);     /* bars 1 and 2 together */
    CHECK_GE(dyn.rep.rank_changes, 2.0);
    const double *q = dyn.q + (dyn.rows - 1) * 9;
    CHECK_GE(fabs(q[5]), 1.0);   /* bar 2 has turned */
    /* without the dynamic rank the mechanism cannot fold: theta2 = 0 and
     * theta3 = theta1 throughout; it comes to a (spurious) rest at the
     * singular configuration, where its one-column basis balances gravity
     * against the torque */
    double th2 = 0.0, th13 = 0.0;
    for (size_t i = 0; i < fixed.rows; i++) {
        th2 = fmax(th2, fabs(fixed.q[i * 9 + 5]));
        th13 = fmax(th13, fabs(fixed.q[i * 9 + 8] - fixed.q[i * 9 + 2]));
    }
    CHECK_LE(th2, 1e-6);
    CHECK_LE(th13, 1e-6);
    const double *p = fixed.q + (fixed.rows - 1) * 9;
    CHECK_CLOSE(p[2], M_PI, 1e-6);
    CU_ASSERT_EQUAL(fixed.rep.rank_changes, 0);
    ch07_run_free(&dyn);
    ch07_run_free(&fixed);
}

/* ------------------------------------------------------------------------ */
/* The pendulum, the double 4-bar and a redundant one                        */

static void pendulum_steps(void)
{
    ch07_run a, b;
    run(CH07_SPATIAL_PENDULUM, &a, MBD_NULLSPACE_PROCRUSTES, 1e-4, 1e-2, 1.0, 1);
    run(CH07_SPATIAL_PENDULUM, &b, MBD_NULLSPACE_PROCRUSTES, 1e-5, 1e-2, 1.0, 1);
    CHECK_LE(ch07_run_position_difference(&a, &b), 1e-6);
    for (size_t i = 0; i < a.rows; i++)
        CHECK_CLOSE(a.r_min[i], 0.16, 1e-12);
    CHECK_LE(a.max_energy_error, 1e-8);
    CU_ASSERT_EQUAL(a.rep.jumps, 0);
    CU_ASSERT_EQUAL(a.rep.dof, 2);
    ch07_run_free(&a);
    ch07_run_free(&b);
}

static void double_and_redundant(void)
{
    const ch07_scenario sc[] = {CH07_DOUBLE, CH07_MOD3};
    const size_t dof_sing[] = {3, 2};
    for (int k = 0; k < 2; k++) {
        ch07_run r;
        run(sc[k], &r, MBD_NULLSPACE_PROCRUSTES, 1e-4, 1e-3, 0.9, 1);
        ch07_model md;
        build(&md, sc[k]);
        double ref[8];
        const size_t nref = ch07_horizontal_times(&md, 0.9, ref, 8);
        CU_ASSERT_EQUAL_FATAL(r.nsing, nref);
        for (size_t i = 0; i < nref; i++)
            CHECK_CLOSE(r.sing_t[i], ref[i], 2e-4);
        CU_ASSERT_EQUAL(r.sing_dof[0], dof_sing[k]);
        CU_ASSERT_EQUAL(r.rep.jumps, 0);
        CHECK_LE(r.max_c_norm, 1e-10);
        ch07_model_free(&md);
        ch07_run_free(&r);
    }
}

/* ------------------------------------------------------------------------ */
/* The program                                                               */

static void usage_errors(void)
{
    const char *bad[][2] = {
        {"--tol-rank 0", "--tol-rank"},
        {"--tol-rank 1e-2", "below --tol-sing"},
        {"--tol-sing 1", "--tol-sing"},
        {"--tol-sing 1e300", "--tol-sing"},
        {"--omega 1e300", "--omega"},
        {"--continuation sideways", "sideways"},
        {"--rank sometimes", "sometimes"},
        {"--scenario spatial-pendulum --omega 2", "--omega"},
        {"--scenario triple", "triple"},
        {"--method projection", "--method"},
        {"--dt-out 5", "--dt-out"},
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

static void csv_and_summary(void)
{
    char cmd[512];
    test_run_result r;
    snprintf(cmd, sizeof cmd, "%s --csv - --t-end 0.01 --dt-out 0.005", test_program(PROG));
    test_run(cmd, &r);
    const char *head = "t,x1,y1,theta1,x2,y2,theta2,x3,y3,theta3,x1_dot,y1_dot,theta1_dot,"
                       "x2_dot,y2_dot,theta2_dot,x3_dot,y3_dot,theta3_dot,q1,qdot1,R_min,C_norm,E,"
                       "dof_used\n";
    CHECK_MSG(r.status == 0 && strncmp(r.out, head, strlen(head)) == 0, "header: %.200s", r.out);
    size_t lines = 0;
    for (const char *p = r.out; *p; p++)
        lines += *p == '\n';
    CU_ASSERT_EQUAL(lines, 4);   /* the header and t = 0, 0.005, 0.01 */
    test_run_free(&r);
    snprintf(cmd, sizeof cmd, "%s --scenario mod2 --t-end 0.8 --tol-sing 2e-3 --omega -1.5 "
                              "--continuation full --summary", test_program(PROG));
    test_run(cmd, &r);
    CHECK_MSG(r.status == 0 && strstr(r.out, "scenario = mod2") && strstr(r.out, "status = ok")
                  && strstr(r.out, "continuation = full") && strstr(r.out, "rank_mode = dynamic"),
              "mod2: %d %s", r.status, r.err);
    const char *keys[] = {"n", "m", "rank", "d", "dof", "dof_singular", "basis_flips",
                          "max_energy_error", "max_C_norm", "omega", "tol_sing"};
    const double want[] = {12, 12, 11, 1, 1, 2, 0, -1, -1, -1.5, 2e-3};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        double v = NAN;
        CHECK_MSG(test_summary_value(r.out, keys[k], &v) == 0, "key %s missing", keys[k]);
        if (want[k] >= 0 || keys[k][0] == 'o')
            CHECK_CLOSE(v, want[k], 1e-12);
        else
            CHECK_LE(v, 1e-6);
    }
    /* the one instant before 0.8 s, against the reduced equation at -1.5 rad/s */
    ch07_model md;
    ch07_model_data(&md, CH07_MOD2);
    md.omega = -1.5;
    REQUIRE_STATUS(ch07_model_build(&md), GSL_SUCCESS);
    double ref[4];
    CU_ASSERT_EQUAL(ch07_horizontal_times(&md, 0.8, ref, 4), 1);
    CHECK_CLOSE(test_summary(r.out, "singular_times"), ref[0], 2e-4);
    ch07_model_free(&md);
    CU_ASSERT_PTR_NULL(strstr(r.out, "nan"));
    test_run_free(&r);
}

static void story_runs(void)
{
    char cmd[512];
    test_run_result r;
    snprintf(cmd, sizeof cmd, "%s --no-timing", test_program(PROG));
    test_run(cmd, &r);
    CHECK_MSG(r.status == 0 && strstr(r.out, "Step 6.") && !strstr(r.out, "DIFFERS")
                  && !strstr(r.out, "nan") && !strstr(r.out, "inf"),
              "story: exit %d %s", r.status, r.err);
    test_run_free(&r);
}

static CU_TestInfo tests[] = {
    {"Table 5.1 (m, n, d) and the dof at the horizontal", table_5_1},
    {"prod |R_ii| = sqrt(3.5) |sin theta|; the modes at theta = pi", product_of_diagonal},
    {"E0 and |q'(0)| (the guide's closed forms); the stop speed", energies_and_speeds},
    {"4-bar: singular instants vs the reduced equation; bases", fourbar_singular_instants},
    {"the skew update agrees with procrustes", skew_update_agrees},
    {"stop at the horizontal", stop_at_horizontal},
    {"torque: the other branch with dynamic rank only", torque_switches_branch},
    {"pendulum at h = 1e-4 and 1e-5", pendulum_steps},
    {"2 4-bar (1 -> 3) and modified 3 4-bar (m > n)", double_and_redundant},
    {"usage errors", usage_errors},
    {"csv and summary", csv_and_summary},
    {"story", story_runs},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"ch07", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
