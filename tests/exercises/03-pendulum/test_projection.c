/* Grades exercise 03.5: MATLAB's vector `while`, and a post-step projection
 * through the run loop's hook. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "check.h"
#include "ex03.h"
#include "fixture.h"
#include "mbd/correction.h"
#include "mbd/formulation.h"
#include "mbd/run.h"

static void matlab_while(void)
{
    const double both[2] = {1e-3, -2e-3}, z0[2] = {1e-3, 0.0}, small[2] = {1e-11, 5.0},
                 at[2] = {1e-10, 1.0}, one[1] = {-0.1};
    CHECK_MSG(ex03_matlab_while(both, 2, 1e-10) == 1, "[1e-3, -2e-3]: MATLAB runs the loop");
    CHECK_MSG(ex03_matlab_while(z0, 2, 1e-10) == 0, "[1e-3, 0]: MATLAB does not (z = 0)");
    CHECK_MSG(ex03_matlab_while(small, 2, 1e-10) == 0, "[1e-11, 5]: MATLAB does not");
    CHECK_MSG(ex03_matlab_while(at, 2, 1e-10) == 0, "[1e-10, 1]: 1e-10 > 1e-10 is false");
    CHECK_MSG(ex03_matlab_while(one, 1, 1e-10) == 1, "[-0.1]: abs(-0.1) > 1e-10");
    CHECK_MSG(ex03_matlab_while(one, 0, 1e-10) == 0, "an empty condition is false");
}

static int project(const mbd_system *s, double t, double y[6], int *changed, unsigned max_iter)
{
    ex03_projector w = {s, 1e-10, max_iter, 0};
    mbd_failure fail;
    mbd_failure_clear(&fail);
    *changed = -1;
    return ex03_project_hook(&w, t, y, changed, &fail);
}

/* The pendulum: the position correction is radial (C_q^T is), so the point
 * lands on the circle on its own ray; the velocity keeps its tangential part. */
static void pendulum_states(void)
{
    mbd_system s = fx_pendulum();
    const double states[][6] = {{1.3, 0.4, 0.2, 0.5, -1.0, 0.3},
                                {0.5, 0.7, -0.05, 2.0, 1.0, 0.0},
                                {-0.05, 1.6, 0.0, 3.0, 0.2, -1.0},
                                {0.99, 0.0, 0.0, 0.0, 0.1, 0.0}};
    for (size_t k = 0; k < sizeof states / sizeof states[0]; k++) {
        double y[6];
        memcpy(y, states[k], sizeof y);
        int changed;
        REQUIRE_STATUS(project(&s, 0.0, y, &changed, 20), GSL_SUCCESS);
        CHECK_MSG(changed == 1, "state %zu: changed = %d", k, changed);
        double C[2], Cd[2];
        fx_violation(&s, 0.0, y, y + 3, C, Cd);
        CHECK_MSG(hypot(C[0], C[1]) <= 1e-10 && hypot(Cd[0], Cd[1]) <= 1e-10,
                  "state %zu: after the projection |C| = %.3g, |C'| = %.3g", k, hypot(C[0], C[1]),
                  hypot(Cd[0], Cd[1]));
        const double r0 = hypot(states[k][0], states[k][1]);
        CHECK_CLOSE(y[0], states[k][0] / r0, 1e-12);
        CHECK_CLOSE(y[1], states[k][1] / r0, 1e-12);
        CHECK_CLOSE(y[2], 0.0, 1e-15);
        /* tangential velocity kept, radial and z' removed */
        const double tx = -y[1], ty = y[0];
        CHECK_CLOSE(y[3] * tx + y[4] * ty, states[k][3] * tx + states[k][4] * ty, 1e-12);
        CHECK_CLOSE(y[5], 0.0, 1e-15);
    }
}

/* A state already on the constraints is left alone, and says so */
static void nothing_to_do(void)
{
    mbd_system s = fx_pendulum();
    const double c = cos(0.7), sn = sin(0.7);
    double y[6] = {sn, c, 0.0, 2.0 * c, -2.0 * sn, 0.0}, y0[6];
    memcpy(y0, y, sizeof y);
    int changed;
    REQUIRE_STATUS(project(&s, 0.0, y, &changed, 20), GSL_SUCCESS);
    CHECK_MSG(changed == 0, "changed = %d for a state on the constraints", changed);
    CHECK_MSG(memcmp(y, y0, sizeof y) == 0, "the state was modified");
    /* positions on, velocity off: changed, positions untouched */
    y[3] += 0.5;
    REQUIRE_STATUS(project(&s, 0.0, y, &changed, 20), GSL_SUCCESS);
    CHECK_MSG(changed == 1, "changed = %d after a velocity correction", changed);
    CHECK_MSG(memcmp(y, y0, 3 * sizeof y[0]) == 0, "the positions were modified");
    /* the hook counts the calls that changed the state, and only those */
    ex03_projector w = {&s, 1e-10, 20, 0};
    mbd_failure fail;
    mbd_failure_clear(&fail);
    REQUIRE_STATUS(ex03_project_hook(&w, 0.0, y, &changed, &fail), GSL_SUCCESS);
    CHECK_MSG(w.corrected == 0, "corrected = %ld after a call that changed nothing", w.corrected);
    y[0] += 0.01;
    REQUIRE_STATUS(ex03_project_hook(&w, 0.0, y, &changed, &fail), GSL_SUCCESS);
    CHECK_MSG(w.corrected == 1, "corrected = %ld after one call that changed the state",
              w.corrected);
}

/* The moving circle at several times: C_t belongs in the velocity
 * correction; and the result equals the library's minimum-norm projection. */
static void moving_constraint(void)
{
    mbd_system s = fx_moving();
    mbd_projection_params pp = {.mass_weighted = 0, .tol = 1e-12, .max_iter = 50};
    mbd_projection *lib = mbd_projection_alloc(&s, &pp);
    CHECK_MSG(lib != NULL, "library projection");
    const double ts[] = {0.3, 0.9, 2.1};
    const double states[][6] = {{1.25, 0.3, 0.1, 0.4, -0.8, 0.2}, {0.2, 0.9, 0.0, 1.5, 0.5, 0.0}};
    for (size_t i = 0; i < 3; i++)
        for (size_t k = 0; k < 2; k++) {
            double y[6], yl[6];
            memcpy(y, states[k], sizeof y);
            memcpy(yl, states[k], sizeof yl);
            int changed, chl;
            REQUIRE_STATUS(project(&s, ts[i], y, &changed, 20), GSL_SUCCESS);
            double C[2], Cd[2];
            fx_violation(&s, ts[i], y, y + 3, C, Cd);
            CHECK_MSG(hypot(C[0], C[1]) <= 1e-10 && hypot(Cd[0], Cd[1]) <= 1e-10,
                      "t = %g, state %zu: |C| = %.3g, |C_q q' + C_t| = %.3g", ts[i], k,
                      hypot(C[0], C[1]), hypot(Cd[0], Cd[1]));
            if (lib != NULL && mbd_projection_apply(lib, ts[i], yl, &chl) == GSL_SUCCESS)
                for (int j = 0; j < 6; j++)
                    CHECK_MSG(fabs(y[j] - yl[j]) <= 1e-9, "t = %g, state %zu: y[%d] = %.12g, "
                              "the library's projection gives %.12g", ts[i], k, j, y[j], yl[j]);
        }
    mbd_projection_free(lib);
}

/* Failures: a singular C_q C_q^T (the mass at the pivot), and too few
 * Newton steps for a far state; the failure record says what and when. */
static void failures(void)
{
    mbd_system s = fx_pendulum();
    double y[6] = {0, 0, 0.1, 1, 1, 0};
    ex03_projector w = {&s, 1e-10, 20, 0};
    mbd_failure fail;
    mbd_failure_clear(&fail);
    int changed;
    CHECK_STATUS(ex03_project_hook(&w, 1.5, y, &changed, &fail), MBD_ESINGULAR);
    CHECK_STATUS(fail.status, MBD_ESINGULAR);
    CHECK_CLOSE(fail.time, 1.5, 0);
    double far[6] = {3.0, 0.0, 0.0, 0, 0, 0};
    ex03_projector w1 = {&s, 1e-10, 2, 0};
    mbd_failure_clear(&fail);
    CHECK_STATUS(ex03_project_hook(&w1, 0.25, far, &changed, &fail), MBD_ENOCONV);
    CHECK_STATUS(fail.status, MBD_ENOCONV);
    CHECK_CLOSE(fail.time, 0.25, 0);
    /* with enough steps it converges, quadratically: a handful of them */
    double far2[6] = {3.0, 0.0, 0.0, 0, 0, 0};
    ex03_projector w2 = {&s, 1e-10, 8, 0};
    CHECK_STATUS(ex03_project_hook(&w2, 0.25, far2, &changed, &fail), GSL_SUCCESS);
    CHECK_CLOSE(far2[0], 1.0, 1e-10);
}

/* The contract's projection, written here: Newton steps
 * q <- q - C_q^T (C_q C_q^T)^-1 C until |C| <= tol (at most max_iter; the
 * Euclidean norm), then one velocity step when |C_q q' + C_t| > tol. Returns
 * GSL_SUCCESS or MBD_ENOCONV; *steps the Newton steps taken, *changed. */
static void own_correct(const gsl_matrix *Cq, const gsl_vector *r, gsl_vector *x)
{
    const size_t m = Cq->size1;
    gsl_matrix *G = gsl_matrix_alloc(m, m);
    gsl_vector *z = gsl_vector_alloc(m);
    gsl_permutation *perm = gsl_permutation_alloc(m);
    int sign;
    gsl_blas_dgemm(CblasNoTrans, CblasTrans, 1.0, Cq, Cq, 0.0, G);
    gsl_linalg_LU_decomp(G, perm, &sign);
    gsl_linalg_LU_solve(G, perm, r, z);
    gsl_blas_dgemv(CblasTrans, -1.0, Cq, z, 1.0, x);
    gsl_matrix_free(G);
    gsl_vector_free(z);
    gsl_permutation_free(perm);
}

static int own_project(const mbd_system *s, double t, double y[], double tol, unsigned max_iter,
                       unsigned *steps, int *changed)
{
    const size_t n = s->n, m = s->m;
    gsl_vector_view q = gsl_vector_view_array(y, n), qd = gsl_vector_view_array(y + n, n);
    gsl_matrix *Cq = gsl_matrix_alloc(m, n);
    gsl_vector *r = gsl_vector_alloc(m);
    int st = GSL_SUCCESS;
    *steps = 0;
    *changed = 0;
    for (;;) {
        s->constraint(s, t, &q.vector, r);
        if (gsl_blas_dnrm2(r) <= tol)
            break;
        if (*steps == max_iter) {
            st = MBD_ENOCONV;
            break;
        }
        s->jacobian(s, t, &q.vector, Cq);
        own_correct(Cq, r, &q.vector);
        ++*steps;
        *changed = 1;
    }
    if (st == GSL_SUCCESS) {
        s->jacobian(s, t, &q.vector, Cq);
        if (s->constraint_t)
            s->constraint_t(s, t, &q.vector, r);
        else
            gsl_vector_set_zero(r);
        gsl_blas_dgemv(CblasNoTrans, 1.0, Cq, &qd.vector, 1.0, r);
        if (gsl_blas_dnrm2(r) > tol) {
            own_correct(Cq, r, &qd.vector);
            *changed = 1;
        }
    }
    gsl_matrix_free(Cq);
    gsl_vector_free(r);
    return st;
}

/* the hook against the test's own projection, y0 (2 n values) at t */
static void check_against_own(const mbd_system *s, double t, const double *y0, double tol,
                              unsigned max_iter, const char *what)
{
    const size_t n = s->n;
    double y[8], e[8];
    memcpy(y, y0, 2 * n * sizeof y[0]);
    memcpy(e, y0, 2 * n * sizeof e[0]);
    unsigned steps;
    int changed = -1, echanged;
    const int est = own_project(s, t, e, tol, max_iter, &steps, &echanged);
    ex03_projector w = {s, tol, max_iter, 5};
    mbd_failure fail;
    mbd_failure_clear(&fail);
    const int st = ex03_project_hook(&w, t, y, &changed, &fail);
    CHECK_MSG(st == est, "%s (t = %g, tol = %g, max_iter = %u): status %d (%s), expected %d (%s)",
              what, t, tol, max_iter, st, mbd_strerror(st), est, mbd_strerror(est));
    if (est != GSL_SUCCESS) {
        CHECK_MSG(fail.status == est && fail.time == t && fail.cause[0] != '\0',
                  "%s: the failure record says status %d at t = %g (\"%s\")", what, fail.status,
                  fail.time, fail.cause);
        return;
    }
    if (st != GSL_SUCCESS)
        return;
    CHECK_MSG(changed == echanged, "%s: changed = %d, expected %d", what, changed, echanged);
    CHECK_MSG(w.corrected == 5 + echanged, "%s: corrected counts %ld (from 5), expected %d", what,
              w.corrected, 5 + echanged);
    for (size_t i = 0; i < 2 * n; i++)
        CHECK_MSG(fabs(y[i] - e[i]) <= 1e-12 * (1 + fabs(e[i])),
                  "%s (t = %g, tol = %g, max_iter = %u): y[%zu] = %.15g, the contract's %u Newton "
                  "steps and velocity step give %.15g", what, t, tol, max_iter, i, y[i], steps,
                  e[i]);
}

/* The iteration limit, held exactly: from x = 3 the Newton steps reach
 * |C| <= tol in k steps (k = 6 for 1e-10, 4 for 1e-3): max_iter = k works and
 * max_iter = k - 1 is MBD_ENOCONV. One step corrects z exactly (max_iter = 1),
 * none is no step at all (max_iter = 0). */
static void iteration_limit(void)
{
    mbd_system s = fx_pendulum();
    const double far[6] = {3.0, 0.0, 0.0, 0.2, 0.1, 0.0};
    const double tols[2] = {1e-10, 1e-3};
    for (int i = 0; i < 2; i++) {
        double e[6];
        memcpy(e, far, sizeof e);
        unsigned k;
        int ch;
        REQUIRE_STATUS(own_project(&s, 0.4, e, tols[i], 50, &k, &ch), GSL_SUCCESS);
        check_against_own(&s, 0.4, far, tols[i], k, "x = 3, max_iter = the steps needed");
        check_against_own(&s, 0.4, far, tols[i], k - 1, "x = 3, one Newton step too few");
        check_against_own(&s, 0.4, far, tols[i], k + 1, "x = 3, one Newton step to spare");
    }
    const double zoff[6] = {0.6, 0.8, 0.3, 0.8, -0.6, 0.5};   /* on the circle, z = 0.3 */
    check_against_own(&s, 0.0, zoff, 1e-10, 1, "z = 0.3, max_iter = 1");
    check_against_own(&s, 0.0, zoff, 1e-10, 0, "z = 0.3, max_iter = 0");
    const double von[6] = {0.6, 0.8, 0.0, 0.9, -0.6, 0.5};    /* positions on, velocity off */
    check_against_own(&s, 0.0, von, 1e-10, 0, "positions on the constraints, max_iter = 0");
}

/* The tolerance, in the norm the contract names (Euclidean), for positions
 * and velocities: with tol = 1e-3, C = (0.8e-3, 0.8e-3) has |C| = 1.13e-3 and
 * must be corrected; a residual of |C| = 0.9e-3 must not. */
static void tolerance_and_norm(void)
{
    mbd_system s = fx_pendulum();
    const double rb = sqrt(1 + 0.8e-3), rs = sqrt(1 + 0.6e-3);
    const double states[][6] = {
        {0.6 * rb, 0.8 * rb, 0.8e-3, -0.8, 0.6, 0.0},              /* |C| above tol */
        {0.6 * rs, 0.8 * rs, 0.7e-3, -0.8, 0.6, 0.0},              /* |C| below tol */
        {0.6, 0.8, 0.0, -0.8, 0.6 + 0.5e-3, 0.8e-3},                /* |C'| above tol */
        {0.6, 0.8, 0.0, -0.8 + 0.3e-3, 0.6 + 0.3e-3, 0.5e-3},       /* |C'| below tol */
    };
    for (size_t k = 0; k < sizeof states / sizeof states[0]; k++) {
        double C[2], Cd[2];
        fx_violation(&s, 0.0, states[k], states[k] + 3, C, Cd);
        char what[96];
        snprintf(what, sizeof what, "|C| = %.3g (max %.3g), |C'| = %.3g (max %.3g)", fx_norm(C, 2),
                 fmax(fabs(C[0]), fabs(C[1])), fx_norm(Cd, 2), fmax(fabs(Cd[0]), fabs(Cd[1])));
        check_against_own(&s, 0.0, states[k], 1e-3, 20, what);
    }
}

/* The general case: four coordinates, two constraints that move, at several
 * times; the correction is the minimum-norm one (not weighted by the full
 * mass matrix the system also has). */
static void coupled_system(void)
{
    mbd_system s = fx_coupled();
    const double states[][8] = {{1.2, 0.3, 0.4, -0.5, 0.4, -0.8, 0.2, 1.0},
                                {-0.4, 1.3, -0.2, 1.1, 1.5, 0.5, 0.0, -0.3},
                                {0.9, -0.2, 0.05, 0.3, -0.2, 2.0, 0.7, 0.6}};
    const double ts[] = {0.3, 1.7};
    mbd_projection_params pp = {.mass_weighted = 0, .tol = 1e-13, .max_iter = 50};
    mbd_projection *lib = mbd_projection_alloc(&s, &pp);
    CHECK_MSG(lib != NULL, "library projection");
    for (size_t i = 0; i < 2; i++)
        for (size_t k = 0; k < 3; k++) {
            check_against_own(&s, ts[i], states[k], 1e-10, 20, "coupled system");
            double y[8], yl[8];
            memcpy(y, states[k], sizeof y);
            memcpy(yl, states[k], sizeof yl);
            int changed, chl;
            ex03_projector w = {&s, 1e-10, 20, 0};
            mbd_failure fail;
            mbd_failure_clear(&fail);
            if (ex03_project_hook(&w, ts[i], y, &changed, &fail) != GSL_SUCCESS)
                continue;
            double C[2], Cd[2];
            fx_violation(&s, ts[i], y, y + 4, C, Cd);
            CHECK_MSG(fx_norm(C, 2) <= 1e-10 && fx_norm(Cd, 2) <= 1e-10,
                      "t = %g, state %zu: |C| = %.3g, |C_q q' + C_t| = %.3g", ts[i], k,
                      fx_norm(C, 2), fx_norm(Cd, 2));
            if (lib != NULL && mbd_projection_apply(lib, ts[i], yl, &chl) == GSL_SUCCESS)
                for (int j = 0; j < 8; j++)
                    CHECK_MSG(fabs(y[j] - yl[j]) <= 1e-9, "t = %g, state %zu: y[%d] = %.12g, the "
                              "library's projection gives %.12g", ts[i], k, j, y[j], yl[j]);
        }
    mbd_projection_free(lib);
}

/* A model callback that fails makes the hook fail with its status, the
 * failure record filled in: the constraint, the Jacobian, C_t. */
static void callback_fails(void)
{
    const mbd_system base = fx_moving();
    const unsigned which[] = {FXF_CONSTRAINT, FXF_JACOBIAN, FXF_CT};
    const char *names[] = {"constraint", "jacobian", "constraint_t"};
    for (size_t i = 0; i < 3; i++) {
        fx_fail_model fm = {&base, which[i], 0.0, 0, 0};
        mbd_system s = fx_failing(&fm);
        double y[6] = {1.25, 0.3, 0.1, 0.4, -0.8, 0.2};
        ex03_projector w = {&s, 1e-10, 20, 0};
        mbd_failure fail;
        mbd_failure_clear(&fail);
        int changed;
        const int st = ex03_project_hook(&w, 0.7, y, &changed, &fail);
        CHECK_MSG(st == FXF_STATUS && fail.status == FXF_STATUS && fail.time == 0.7,
                  "the %s callback fails with %d (%s) at t = 0.7: the hook returned %d (%s), "
                  "the failure record has %d at t = %g", names[i], FXF_STATUS,
                  mbd_strerror(FXF_STATUS), st, mbd_strerror(st), fail.status, fail.time);
    }
}

/* Through the run loop: the projection formulation with ode23 and the hook;
 * after every step the state is on the constraints. */
typedef struct {
    const mbd_system *s;
    double max_C, max_Cd;
} watch;

static int watch_output(void *ctx, double t, const double y[], const mbd_run_info *info,
                        mbd_failure *fail)
{
    (void)info;
    (void)fail;
    watch *w = ctx;
    double C[2], Cd[2];
    fx_violation(w->s, t, y, y + 3, C, Cd);
    w->max_C = fmax(w->max_C, hypot(C[0], C[1]));
    w->max_Cd = fmax(w->max_Cd, hypot(Cd[0], Cd[1]));
    return GSL_SUCCESS;
}

static void in_the_run_loop(void)
{
    mbd_system s = fx_pendulum();
    mbd_formulation_params fp = {.kind = MBD_FORMULATION_PROJECTION};
    mbd_formulation *f = mbd_formulation_alloc(&s, &fp);
    mbd_ode_params op;
    mbd_ode_preset("ode23", &op);
    mbd_ode *o = mbd_ode_alloc(&op, 6, mbd_formulation_rhs, f);
    CHECK_MSG(f != NULL && o != NULL, "setup");
    if (f == NULL || o == NULL)
        return;
    ex03_projector w = {&s, 1e-10, 20, 0};
    watch wt = {&s, 0, 0};
    mbd_run_params rp = {.t0 = 0, .t_end = 5.0, .dt_out = 0.0, .output = watch_output,
                         .output_ctx = &wt, .hook = ex03_project_hook, .hook_ctx = &w};
    double y[6] = {1, 0, 0, 0, 0, 0};
    mbd_run_stats st;
    mbd_failure fail;
    REQUIRE_STATUS(mbd_run(o, &rp, y, &st, &fail), GSL_SUCCESS);
    CHECK_LE(wt.max_C, 1e-10);
    CHECK_LE(wt.max_Cd, 1e-10);
    CHECK_MSG(st.corrections > 100 && st.corrections == w.corrected,
              "%ld corrections reported by the run loop, %ld counted by the hook", st.corrections,
              w.corrected);
    mbd_ode_free(o);
    mbd_formulation_free(f);
}

static CU_TestInfo tests[] = {
    {"matlab_while", matlab_while},
    {"pendulum_states", pendulum_states},
    {"nothing_to_do", nothing_to_do},
    {"moving_constraint", moving_constraint},
    {"failures", failures},
    {"iteration_limit", iteration_limit},
    {"tolerance_and_norm", tolerance_and_norm},
    {"coupled_system", coupled_system},
    {"callback_fails", callback_fails},
    {"in_the_run_loop", in_the_run_loop},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"ex03.5", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
