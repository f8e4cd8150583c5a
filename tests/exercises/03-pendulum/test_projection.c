/* Grades exercise 03.5: MATLAB's vector `while`, and a post-step projection
 * through the run loop's hook. */
#include <math.h>
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
    {"in_the_run_loop", in_the_run_loop},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"ex03.5", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
