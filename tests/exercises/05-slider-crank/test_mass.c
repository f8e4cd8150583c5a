/* Grades exercise 05.1: the consistent mass matrix and the true energy. */
#include <math.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>

#include "check.h"
#include "ex05.h"
#include "fixture.h"
#include "mbd/simulate.h"

static const double STATES[][3] = {
    {0.3, -1.1, 0.2}, {2.3, 2.9, -1.0}, {-1.0, 0.1, 3.0}, {0.0, M_PI, 0.0}, {1.2, -M_PI / 2, 2.0},
};

/* (1/2) q'^T M q' is the kinetic energy of the rods and the slider, for
 * mechanisms unlike Table 4 too */
static void kinetic_energy(void)
{
    const ex05_params ps[] = {ex05_table4(), fx_general(), fx_unequal()};
    gsl_matrix *M = gsl_matrix_alloc(3, 3);
    for (size_t k = 0; k < 3; k++)
        for (size_t i = 0; i < sizeof STATES / sizeof STATES[0]; i++) {
            gsl_matrix_set_all(M, NAN);   /* every entry must be written, the zeros too */
            int st = ex05_mass_consistent(&ps[k], STATES[i], M);
            CHECK_STATUS(st, GSL_SUCCESS);
            if (st != GSL_SUCCESS)
                continue;
            double A[3][3];
            fx_mass(&ps[k], STATES[i], A);
            for (size_t r = 0; r < 3; r++)
                for (size_t c = 0; c < 3; c++)
                    CHECK_MSG(fabs(gsl_matrix_get(M, r, c) - A[r][c]) <= 1e-12 * (1 + fabs(A[r][c])),
                              "mechanism %zu, q = (%g, %g, %g): M(%zu,%zu) = %.12g, expected %.12g",
                              k, STATES[i][0], STATES[i][1], STATES[i][2], r + 1, c + 1,
                              gsl_matrix_get(M, r, c), A[r][c]);
        }
    gsl_matrix_free(M);
}

/* every size other than 3 x 3, and each mass and length not positive (zero
 * or negative), one at a time; the energy refuses them too */
static void bad_arguments(void)
{
    const size_t sizes[][2] = {{2, 3}, {3, 2}, {4, 4}, {3, 4}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        ex05_params p = ex05_table4();
        gsl_matrix *M = gsl_matrix_alloc(sizes[i][0], sizes[i][1]);
        const int st = ex05_mass_consistent(&p, STATES[0], M);
        CHECK_MSG(st == GSL_EBADLEN, "M of %zu x %zu: status %d (%s), expected GSL_EBADLEN",
                  sizes[i][0], sizes[i][1], st, mbd_strerror(st));
        gsl_matrix_free(M);
    }
    gsl_matrix *M = gsl_matrix_alloc(3, 3);
    const char *names[5] = {"m1", "m2", "m3", "L1", "L2"};
    const double v[3] = {0.8, -1.7, 2.4};
    for (int j = 0; j < 5; j++)
        for (int sg = 0; sg < 2; sg++) {
            ex05_params p = ex05_table4();
            double *x[5] = {&p.m1, &p.m2, &p.m3, &p.L1, &p.L2};
            *x[j] = sg ? -1.5 : 0.0;
            int st = ex05_mass_consistent(&p, STATES[0], M);
            CHECK_MSG(st == GSL_EINVAL, "%s = %g: ex05_mass_consistent returned %d (%s), expected "
                      "GSL_EINVAL", names[j], *x[j], st, mbd_strerror(st));
            double E = 0;
            st = ex05_energy(&p, STATES[0], v, &E);
            CHECK_MSG(st == GSL_EINVAL, "%s = %g: ex05_energy returned %d (%s), expected "
                      "GSL_EINVAL", names[j], *x[j], st, mbd_strerror(st));
        }
    /* gravity is not a mass: any g is allowed (g = 0: no potential energy) */
    ex05_params p = fx_general();
    p.g = 0;
    double E = NAN;
    CHECK_STATUS(ex05_energy(&p, STATES[1], v, &E), GSL_SUCCESS);
    CHECK_CLOSE(E, fx_kinetic(&p, STATES[1], v), 1e-11);
    gsl_matrix_free(M);
}

/* E = T + V with V = 0 at the pivot's height */
static void energy_of_states(void)
{
    /* g = 9.81, 4.6, 7.3 */
    const ex05_params ps[] = {ex05_table4(), fx_general(), fx_unequal()};
    const double v[3] = {0.8, -1.7, 2.4};
    for (size_t k = 0; k < 3; k++)
        for (size_t i = 0; i < sizeof STATES / sizeof STATES[0]; i++) {
            double E = NAN;
            CHECK_STATUS(ex05_energy(&ps[k], STATES[i], v, &E), GSL_SUCCESS);
            CHECK_CLOSE(E, fx_kinetic(&ps[k], STATES[i], v) + fx_potential(&ps[k], STATES[i]), 1e-11);
        }
    /* Table 4's release: all potential, 9.81 sqrt 2 = 13.873435 J */
    const ex05_params p = ex05_table4();
    const double q0[3] = {3 * M_PI / 4, -M_PI / 2, 2 * M_SQRT2}, rest[3] = {0, 0, 0};
    double E0 = NAN;
    CHECK_STATUS(ex05_energy(&p, q0, rest, &E0), GSL_SUCCESS);
    CHECK_CLOSE(E0, 9.81 * M_SQRT2, 1e-12);
}

/* Driven by the mass matrix under test and the document's forces, the
 * mechanism keeps its energy: the forces' velocity terms are those of the
 * consistent matrix, and no other matrix matches them. */
static void energy_conserved(void)
{
    const ex05_params ps[] = {ex05_table4(), fx_general()};
    const double th10[] = {3 * M_PI / 4, 2.0};
    for (size_t k = 0; k < 2; k++) {
        fx_model m = {ps[k], FX_MASS_UNDER_TEST, 0, ex05_mass_consistent};
        mbd_system s;
        fx_system(&m, &s);
        mbd_formulation_params fp = {.mu = 1};
        mbd_formulation_method("projection", &fp);
        mbd_formulation *f = mbd_formulation_alloc(&s, &fp);
        mbd_ode_params op;
        mbd_ode_preset("tight", &op);
        mbd_sim_params sp = {.t0 = 0, .t_end = 1.5, .dt_out = 0.01, .max_violation = 1};
        double q0[3], v0[3];
        fx_branch(&ps[k], th10[k], 0.0, q0, v0);
        mbd_history h;
        mbd_history_init(&h);
        mbd_failure fail;
        int st = mbd_simulate(f, &op, &sp, q0, v0, &h, NULL, &fail);
        CHECK_MSG(st == GSL_SUCCESS && !m.failed, "the simulation with your mass matrix failed: %s",
                  fail.cause);
        if (st == GSL_SUCCESS) {
            double E0 = NAN, drift = 0;
            ex05_energy(&ps[k], q0, v0, &E0);
            for (size_t r = 0; r < h.rows; r++) {
                double E = NAN;
                ex05_energy(&ps[k], mbd_history_q(&h, r), mbd_history_qd(&h, r), &E);
                drift = fmax(drift, fabs(E - E0));
            }
            CHECK_MSG(drift <= 1e-7 * fabs(E0), "mechanism %zu: the energy drifts by %.3g J of %.6g J",
                      k, drift, E0);
        }
        mbd_history_free(&h);
        mbd_formulation_free(f);
    }
}

static CU_TestInfo tests[] = {
    {"(1/2) q'^T M q' is the kinetic energy", kinetic_energy},
    {"bad arguments", bad_arguments},
    {"the true energy of given states", energy_of_states},
    {"the consistent mass matrix conserves the energy in motion", energy_conserved},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"ex05.1", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
