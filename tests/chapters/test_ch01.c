/* Chapter 01: the static penalty approach, against the document's printed
 * numbers (document 000, Sec. 1.2.6), the exact solution, and the 1/C law. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "model.h"
#include "reference.h"
#include "check.h"

/* printed in the document: K_c / 10^8 and Q (mm) */
static const double DOC_KC[5][5] = {
    {5.3339, 0, -0.0005, 0, -1.7778},
    {0, 5.3335, 0, -0.0002, -4.4444},
    {-0.0005, 0, 5.3339, 0, 0},
    {0, -0.0002, 0, 5.3335, 0},
    {-1.7778, -4.4444, 0, 0, 4.2963},
};
static const double DOC_Q[5] = {0.4876, 1.2191, 0, 0, 1.4629};

typedef struct {
    ch01_bar bar;
    gsl_matrix *K, *B, *Kc, *work;
    gsl_vector *F, *beta0, *fixed, *Fc, *Q, *Qx, *lambda;
} fixture;

static void setup(fixture *x, double beta2)
{
    ch01_bar_document(&x->bar);
    x->bar.beta0[1] = beta2;
    x->K = gsl_matrix_alloc(5, 5);
    x->B = gsl_matrix_alloc(2, 5);
    x->Kc = gsl_matrix_alloc(5, 5);
    x->work = gsl_matrix_alloc(5, 5);
    x->F = gsl_vector_alloc(5);
    x->beta0 = gsl_vector_alloc(2);
    x->fixed = gsl_vector_alloc(5);
    x->Fc = gsl_vector_alloc(5);
    x->Q = gsl_vector_alloc(5);
    x->Qx = gsl_vector_alloc(5);
    x->lambda = gsl_vector_alloc(4);
    ch01_stiffness(&x->bar, x->K, x->F);
    ch01_constraints(&x->bar, x->B, x->beta0, x->fixed);
}

static void teardown(fixture *x)
{
    gsl_matrix_free(x->K);
    gsl_matrix_free(x->B);
    gsl_matrix_free(x->Kc);
    gsl_matrix_free(x->work);
    gsl_vector_free(x->F);
    gsl_vector_free(x->beta0);
    gsl_vector_free(x->fixed);
    gsl_vector_free(x->Fc);
    gsl_vector_free(x->Q);
    gsl_vector_free(x->Qx);
    gsl_vector_free(x->lambda);
}

static int penalty_solve(fixture *x, double k, int literal)
{
    double C = ch01_penalty_factor(x->K, k);
    ch01_penalty_system(x->K, x->F, x->B, x->beta0, x->fixed, C, literal, x->Kc, x->Fc);
    return ch01_solve_spd(x->Kc, x->Fc, x->work, x->Q);
}

static void document_penalty_factor(void)
{
    fixture x;
    setup(&x, 0);
    /* C = max|K_ij| x 10^4, printed as 5.333 x 10^8 */
    CHECK_CLOSE(ch01_penalty_factor(x.K, 4) / 1e8, 5.333, 5e-4);
    CHECK_CLOSE(ch01_k1(&x.bar), 53333.333333333336, 1e-9);
    CHECK_CLOSE(ch01_k2(&x.bar), 21000.0, 1e-9);
    teardown(&x);
}

static void document_kc_to_printed_digits(void)
{
    fixture x;
    setup(&x, 0);
    REQUIRE_STATUS(penalty_solve(&x, 4, 0), GSL_SUCCESS);
    for (size_t i = 0; i < 5; i++)
        for (size_t j = 0; j < 5; j++)
            CHECK_CLOSE(round(gsl_matrix_get(x.Kc, i, j) / 1e4) / 1e4, DOC_KC[i][j], 1e-9);
    teardown(&x);
}

static void document_q_to_printed_digits(void)
{
    fixture x;
    setup(&x, 0);
    REQUIRE_STATUS(penalty_solve(&x, 4, 0), GSL_SUCCESS);
    for (size_t i = 0; i < 5; i++)
        CHECK_CLOSE(round(gsl_vector_get(x.Q, i) * 1e4) / 1e4, DOC_Q[i], 1e-9);
    teardown(&x);
}

/* Lagrange multipliers and the closed form agree, and match the rigid-bar
 * values theta = 6P / (4 k1 + 25 k2): Q1 0.487585, Q2 1.218962, Q5 1.462754. */
static void exact_solution_two_ways(void)
{
    fixture x;
    setup(&x, 0);
    REQUIRE_STATUS(ch01_lagrange(x.K, x.F, x.B, x.beta0, x.fixed, x.Qx, x.lambda), GSL_SUCCESS);
    ch01_closed_form(&x.bar, x.Q);
    for (size_t i = 0; i < 5; i++)
        CHECK_CLOSE(gsl_vector_get(x.Qx, i), gsl_vector_get(x.Q, i), 1e-12);
    const double theta = 6.0 * 30e3 / (4.0 * 53333.333333333336 + 25.0 * 21000.0);
    CHECK_CLOSE(gsl_vector_get(x.Qx, 0), 2 * theta, 1e-12);
    CHECK_CLOSE(gsl_vector_get(x.Qx, 0), 0.487585, 5e-7);
    CHECK_CLOSE(gsl_vector_get(x.Qx, 1), 1.218962, 5e-7);
    CHECK_CLOSE(gsl_vector_get(x.Qx, 4), 1.462754, 5e-7);
    /* the multipliers are the rod forces: 26004.5 N and 25598.2 N */
    CHECK_CLOSE(-gsl_vector_get(x.lambda, 0), 26004.5, 0.05);
    CHECK_CLOSE(-gsl_vector_get(x.lambda, 1), 25598.2, 0.05);
    CHECK_CLOSE(gsl_vector_get(x.lambda, 2), -gsl_vector_get(x.lambda, 0), 1e-8);
    teardown(&x);
}

/* The penalty error is O(max|K| / C): relative error near 1e-4 at k = 4 and
 * falling tenfold per decade over the well-conditioned part of the sweep. */
static void error_falls_as_one_over_c(void)
{
    fixture x;
    setup(&x, 0);
    REQUIRE_STATUS(ch01_lagrange(x.K, x.F, x.B, x.beta0, x.fixed, x.Qx, x.lambda), GSL_SUCCESS);
    double err[8];
    for (int k = 1; k <= 7; k++) {
        REQUIRE_STATUS(penalty_solve(&x, k, 0), GSL_SUCCESS);
        err[k] = ch01_rel_error(x.Q, x.Qx);
    }
    CHECK_IN(err[4], 0.9e-4, 1.2e-4);
    for (int k = 1; k <= 6; k++)
        CHECK_IN(err[k] / err[k + 1], 9.0, 11.0);
    teardown(&x);
}

/* A misfit: the corrected load gives the exact answer to 1e-4; the document's
 * eq. (67) with F alone gives the homogeneous answer (the erratum). */
static void misfit_needs_the_load_term(void)
{
    fixture x;
    setup(&x, 0.5);
    ch01_closed_form(&x.bar, x.Qx);
    REQUIRE_STATUS(penalty_solve(&x, 4, 0), GSL_SUCCESS);
    CHECK_LE(ch01_rel_error(x.Q, x.Qx), 2e-4);
    REQUIRE_STATUS(penalty_solve(&x, 4, 1), GSL_SUCCESS);
    CHECK_GE(ch01_rel_error(x.Q, x.Qx), 0.1);
    CHECK_CLOSE(gsl_vector_get(x.Q, 4), 1.4629, 1e-4);   /* as if beta0 were 0 */
    teardown(&x);
}

/* ------------------------------------------------------------------------ */
/* The program                                                               */

static void program_summary(void)
{
    test_run_result r;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s --summary", test_program("ch01-static-penalty"));
    test_run(cmd, &r);
    CHECK_MSG(r.status == 0, "exit status %d, stderr: %s", r.status, r.err);
    const char *keys[5] = {"Q1", "Q2", "Q3", "Q4", "Q5"};
    for (int i = 0; i < 5; i++)
        CHECK_CLOSE(round(test_summary(r.out, keys[i]) * 1e4) / 1e4, DOC_Q[i], 1e-9);
    CHECK_IN(test_summary(r.out, "rel_error"), 0.9e-4, 1.2e-4);
    CHECK_CLOSE(test_summary(r.out, "Q5_exact"), 1.462754, 5e-7);
    CHECK_IN(test_summary(r.out, "best_exponent"), 6, 9);
    CHECK_MSG(strstr(r.out, "nan") == NULL && strstr(r.out, "Step") == NULL,
              "summary holds only key = value lines");
    test_run_free(&r);

    snprintf(cmd, sizeof cmd, "%s --summary --beta0 0.5", test_program("ch01-static-penalty"));
    test_run(cmd, &r);
    CHECK_MSG(r.status == 0, "exit status %d", r.status);
    double t = (6.0 * 30e3 - 5.0 * 21000.0 * 0.5) / (4.0 * 53333.333333333336 + 25.0 * 21000.0);
    CHECK_CLOSE(test_summary(r.out, "Q5_exact"), 6 * t, 1e-9);
    CHECK_CLOSE(test_summary(r.out, "Q5"), 6 * t, 5e-4);
    test_run_free(&r);
}

static void program_csv_sweep(void)
{
    test_run_result r;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s --csv -", test_program("ch01-static-penalty"));
    test_run(cmd, &r);
    CHECK_MSG(r.status == 0, "exit status %d, stderr: %s", r.status, r.err);
    CHECK_MSG(strncmp(r.out, "k,C,error,cond\n", 15) == 0, "header: %.30s", r.out);
    int rows = 0;
    double prev = HUGE_VAL;
    for (const char *p = strchr(r.out, '\n'); p && p[1]; p = strchr(p + 1, '\n')) {
        double k, C, e, c;
        if (sscanf(p + 1, "%lf,%lf,%lf,%lf", &k, &C, &e, &c) != 4)
            break;
        rows++;
        if (k <= 6) {
            CHECK_MSG(e < prev / 9, "error at k = %g (%g) not ~10x below the previous (%g)", k, e, prev);
            CHECK_REL(C, 53333.333333333336 * pow(10.0, k), 1e-12);
        }
        prev = e;
    }
    CHECK_MSG(rows == 12, "12 rows (k = 1..12), got %d", rows);
    test_run_free(&r);
}

static void program_story_and_figure(void)
{
    test_run_result r;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s --plot /tmp/mbd-test-ch01 --no-timing", test_program("ch01-static-penalty"));
    remove("/tmp/mbd-test-ch01-sweep.svg");
    test_run(cmd, &r);
    CHECK_MSG(r.status == 0, "exit status %d, stderr: %s", r.status, r.err);
    CHECK_MSG(strstr(r.out, "25 of 25 entries agree") != NULL, "story: K_c agrees with the document");
    CHECK_MSG(strstr(r.out, "NO") == NULL, "story: every Q agrees to 4 decimals");
    CHECK_MSG(strstr(r.out, "nan") == NULL, "story prints no NaN");
    FILE *f = fopen("/tmp/mbd-test-ch01-sweep.svg", "r");
    CHECK_MSG(f != NULL, "the sweep figure was written");
    if (f)
        fclose(f);
    remove("/tmp/mbd-test-ch01-sweep.svg");
    test_run_free(&r);
}

static CU_TestInfo tests[] = {
    {"document_penalty_factor", document_penalty_factor},
    {"document_kc_to_printed_digits", document_kc_to_printed_digits},
    {"document_q_to_printed_digits", document_q_to_printed_digits},
    {"exact_solution_two_ways", exact_solution_two_ways},
    {"error_falls_as_one_over_c", error_falls_as_one_over_c},
    {"misfit_needs_the_load_term", misfit_needs_the_load_term},
    {"program_summary", program_summary},
    {"program_csv_sweep", program_csv_sweep},
    {"program_story_and_figure", program_story_and_figure},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"ch01", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
