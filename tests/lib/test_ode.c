/* The integrators (ode.h) and the run loop (run.h), on a smooth problem with
 * a closed form:
 *     y1' = y1 cos t,        y1(0) = 1,    y1 = exp(sin t)
 *     y2' = y2 (1 - y2),     y2(0) = 1/2,  y2 = 1 / (1 + exp(-t))
 * one component non-autonomous, one nonlinear, so no method can look right
 * by accident of linearity. */
#include <math.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "check.h"
#include "mbd/ode.h"
#include "mbd/run.h"

static int rhs(double t, const double y[], double f[], void *params)
{
    (void)params;
    f[0] = y[0] * cos(t);
    f[1] = y[1] * (1.0 - y[1]);
    return GSL_SUCCESS;
}

static void exact(double t, double y[2])
{
    y[0] = exp(sin(t));
    y[1] = 1.0 / (1.0 + exp(-t));
}

/* max-norm error at t = T of a fixed-step run with step h */
static double error_at(const mbd_ode_params *p, double h, double T, int *status)
{
    mbd_ode_params q = *p;
    q.h = h;
    mbd_ode *o = mbd_ode_alloc(&q, 2, rhs, NULL);
    if (o == NULL) {
        *status = GSL_EINVAL;
        return NAN;
    }
    double y[2] = {1.0, 0.5}, t = 0.0, ye[2];
    *status = mbd_ode_start(o, t, y, T);
    while (*status == GSL_SUCCESS && t < T)
        *status = mbd_ode_step(o, &t, y, T);
    mbd_ode_free(o);
    exact(T, ye);
    return fmax(fabs(y[0] - ye[0]), fabs(y[1] - ye[1]));
}

/* the observed order from h and h/2, averaged over three halvings */
static double observed_order(const mbd_ode_params *p, double h0)
{
    double e[4];
    for (int k = 0; k < 4; k++) {
        int st;
        e[k] = error_at(p, h0 / pow(2.0, k), 2.0, &st);
        if (st != GSL_SUCCESS)
            return NAN;
    }
    return (log2(e[0] / e[1]) + log2(e[1] / e[2]) + log2(e[2] / e[3])) / 3.0;
}

static void check_order(const char *name, mbd_ode_params p, double h0, double nominal)
{
    double q = observed_order(&p, h0);
    CHECK_MSG(isfinite(q) && fabs(q - nominal) <= 0.2, "%s: observed order %.3f, nominal %.0f", name,
              q, nominal);
}

static void runge_kutta_orders(void)
{
    const struct { const mbd_tableau *tb; double h0; } cases[] = {
        {&mbd_tableau_euler, 0.02},     {&mbd_tableau_midpoint, 0.05}, {&mbd_tableau_heun, 0.05},
        {&mbd_tableau_ralston, 0.05},   {&mbd_tableau_rk4, 0.1},       {&mbd_tableau_bs23, 0.1},
        {&mbd_tableau_rkf23, 0.1},      {&mbd_tableau_rkf45, 0.1},     {&mbd_tableau_cash_karp, 0.1},
        {&mbd_tableau_dopri5, 0.2},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        mbd_ode_params p = {.name = cases[i].tb->name, .kind = MBD_ODE_RK, .tableau = cases[i].tb};
        check_order(cases[i].tb->name, p, cases[i].h0, cases[i].tb->order);
    }
}

/* The Adams methods reach their asymptotic order only at small steps on this
 * problem (the third-order ones show 3.2-3.5 at h = 0.0125), so each starts
 * where its error is in the asymptotic range and still far above rounding. */
static void multistep_orders(void)
{
    const double ab_h0[5] = {0, 0.02, 0.0125, 0.003125, 0.0125};
    for (unsigned k = 1; k <= 4; k++) {
        mbd_ode_params p = {.name = "ab", .kind = MBD_ODE_AB, .order = k};
        char name[16];
        snprintf(name, sizeof name, "ab%u", k);
        check_order(name, p, ab_h0[k], k);
    }
    const double am_h0[6] = {0, 0, 0.1, 0.003125, 0.1, 0.1};
    for (unsigned k = 2; k <= 5; k++) {
        mbd_ode_params p = {.name = "am", .kind = MBD_ODE_AM, .order = k};
        char name[16];
        snprintf(name, sizeof name, "am%u", k);
        check_order(name, p, am_h0[k], k);
    }
    const double pece_h0[5] = {0, 0, 0.05, 0.003125, 0.05};
    for (unsigned k = 2; k <= 4; k++) {
        mbd_ode_params p = {.name = "pece", .kind = MBD_ODE_PECE, .order = k, .corrections = 1};
        char name[16];
        snprintf(name, sizeof name, "pece%u", k);
        check_order(name, p, pece_h0[k], k);
    }
    mbd_ode_params ie = {.name = "implicit-euler", .kind = MBD_ODE_IMPLICIT_EULER};
    check_order("implicit-euler", ie, 0.02, 1);
    ie.fixed_point = 1;
    check_order("implicit-euler (fixed point)", ie, 0.02, 1);
}

/* Step doubling with RK4 controls the local error of the half-step solution
 * per step; the global error, a sum of local ones over steps whose size
 * scales as tol^(1/5), then scales as tol^(4/5): a 100 times smaller
 * tolerance gives 100^(4/5) = 40 times less error. */
static double doubling_error(double rtol, long *steps)
{
    mbd_ode_params p = {.kind = MBD_ODE_RK, .tableau = &mbd_tableau_rk4, .doubling = 1,
                        .adaptive = 1, .rtol = rtol, .atol = rtol * 1e-3};
    mbd_ode *o = mbd_ode_alloc(&p, 2, rhs, NULL);
    double y[2] = {1.0, 0.5}, t = 0.0, ye[2], worst = 0.0;
    int st = mbd_ode_start(o, t, y, 2.0);
    while (st == GSL_SUCCESS && t < 2.0) {
        st = mbd_ode_step(o, &t, y, 2.0);
        exact(t, ye);
        worst = fmax(worst, fmax(fabs(y[0] - ye[0]), fabs(y[1] - ye[1])));
    }
    *steps = mbd_ode_get_stats(o)->steps;
    mbd_ode_free(o);
    return st == GSL_SUCCESS ? worst : NAN;
}

static void doubling_follows_tolerance(void)
{
    long s1, s2;
    double e1 = doubling_error(1e-6, &s1), e2 = doubling_error(1e-8, &s2);
    CHECK_LE(e1, 100 * 1e-6 * 2.7);
    CHECK_LE(e2, 100 * 1e-8 * 2.7);
    CHECK_IN(e1 / e2, 20.0, 120.0);
    /* fourth order: 100x the accuracy costs about 100^(1/5) = 2.5x the steps */
    CHECK_IN((double)s2 / (double)s1, 1.8, 3.5);
}

/* Adaptive methods meet their tolerance on the closed form: the explicit
 * pairs' global error within ten times the requested tolerance. GSL's BDF
 * controls its local error more loosely (its global error runs 10-50 times
 * the tolerance here), so it gets a bound of 100 times. */
static void adaptive_meets_tolerance(void)
{
    const char *names[] = {"ode23", "tight", "rk8pd", "msbdf"};
    for (int k = 0; k < 4; k++) {
        mbd_ode_params p;
        REQUIRE_STATUS(mbd_ode_preset(names[k], &p), GSL_SUCCESS);
        double tol = p.rtol * 2.7 + p.atol;   /* |y| <= e */
        mbd_ode *o = mbd_ode_alloc(&p, 2, rhs, NULL);
        CU_ASSERT_PTR_NOT_NULL_FATAL(o);
        double y[2] = {1.0, 0.5}, t = 0.0, ye[2], worst = 0.0;
        REQUIRE_STATUS(mbd_ode_start(o, t, y, 5.0), GSL_SUCCESS);
        int st = GSL_SUCCESS;
        while (st == GSL_SUCCESS && t < 5.0) {
            st = mbd_ode_step(o, &t, y, 5.0);
            exact(t, ye);
            worst = fmax(worst, fmax(fabs(y[0] - ye[0]), fabs(y[1] - ye[1])));
        }
        CHECK_STATUS(st, GSL_SUCCESS);
        double factor = k == 3 ? 100.0 : 10.0;
        CHECK_MSG(worst <= factor * tol, "%s: max error %.3g, tolerance %.3g", names[k], worst, tol);
        CHECK_MSG(mbd_ode_get_stats(o)->steps > 3, "%s: took only %ld steps", names[k],
                  mbd_ode_get_stats(o)->steps);
        mbd_ode_free(o);
    }
}

/* the largest interpolation error at the midpoints of fixed steps over [0, 2] */
static double dense_error(const mbd_tableau *tb, double h)
{
    mbd_ode_params p = {.kind = MBD_ODE_RK, .tableau = tb, .h = h};
    mbd_ode *o = mbd_ode_alloc(&p, 2, rhs, NULL);
    double y[2] = {1.0, 0.5}, t = 0.0, ym[2], ye[2], worst = 0.0;
    mbd_ode_start(o, t, y, 2.0);
    while (t < 2.0 - 1e-12) {
        double t0 = t;
        mbd_ode_step(o, &t, y, 2.0);
        for (double s = 0.25; s < 1.0; s += 0.25) {
            mbd_ode_interpolate(o, t0 + s * (t - t0), ym);
            exact(t0 + s * (t - t0), ye);
            worst = fmax(worst, fmax(fabs(ym[0] - ye[0]), fabs(ym[1] - ye[1])));
        }
    }
    mbd_ode_free(o);
    return worst;
}

/* DOPRI5's own continuous extension is of order 4 (error ~ h^5 per step);
 * the cubic Hermite interpolant of Bogacki-Shampine of order 3 (~ h^4). The
 * errors include the global error of the steps, of order 5 and 3. */
static void dense_output_orders(void)
{
    double r5 = log2(dense_error(&mbd_tableau_dopri5, 0.2) / dense_error(&mbd_tableau_dopri5, 0.1));
    CHECK_GE(r5, 4.6);
    double r3 = log2(dense_error(&mbd_tableau_bs23, 0.1) / dense_error(&mbd_tableau_bs23, 0.05));
    CHECK_IN(r3, 2.8, 4.2);
    /* and DOPRI5's interpolant is far better than a cubic one on its steps */
    CHECK_LE(dense_error(&mbd_tableau_dopri5, 0.1), 1e-7);
}

/* GSL's rk8pd and the toolkit's Dormand-Prince agree */
static void gsl_and_engine_agree(void)
{
    double yend[2][2];
    const char *names[] = {"tight", "rk8pd"};
    for (int k = 0; k < 2; k++) {
        mbd_ode_params p;
        mbd_ode_preset(names[k], &p);
        mbd_ode *o = mbd_ode_alloc(&p, 2, rhs, NULL);
        double y[2] = {1.0, 0.5};
        mbd_run_params rp = {.t0 = 0, .t_end = 3.0, .dt_out = 0.5};
        mbd_failure f;
        CHECK_STATUS(mbd_run(o, &rp, y, NULL, &f), GSL_SUCCESS);
        memcpy(yend[k], y, sizeof y);
        mbd_ode_free(o);
    }
    CHECK_CLOSE(yend[0][0], yend[1][0], 1e-9);
    CHECK_CLOSE(yend[0][1], yend[1][1], 1e-9);
}

/* ------------------------------------------------------------------------ */
/* The run loop                                                              */

typedef struct {
    double t[64], y0[64], h[64];
    int n;
} recorder;

static int record(void *ctx, double t, const double y[], const mbd_run_info *info,
                  mbd_failure *fail)
{
    (void)fail;
    recorder *r = ctx;
    if (r->n < 64) {
        r->t[r->n] = t;
        r->y0[r->n] = y[0];
        r->h[r->n] = info->h;
        r->n++;
    }
    return GSL_SUCCESS;
}

/* Outputs at exactly t0 + k dt_out, interpolated to the method's accuracy,
 * without changing the steps the method takes. */
static void output_times(void)
{
    mbd_ode_params p;
    mbd_ode_preset("tight", &p);
    mbd_ode *o = mbd_ode_alloc(&p, 2, rhs, NULL);
    double y[2] = {1.0, 0.5};
    recorder r = {.n = 0};
    mbd_run_params rp = {.t0 = 0, .t_end = 2.0, .dt_out = 0.25, .output = record, .output_ctx = &r};
    mbd_failure f;
    mbd_run_stats s, s_free;
    CHECK_STATUS(mbd_run(o, &rp, y, &s, &f), GSL_SUCCESS);
    CHECK_MSG(r.n == 9, "9 outputs (0, 0.25, ..., 2), got %d", r.n);
    for (int k = 0; k < r.n; k++) {
        double ye[2];
        CHECK_CLOSE(r.t[k], 0.25 * k, 1e-15);
        exact(r.t[k], ye);
        CHECK_CLOSE(r.y0[k], ye[0], 1e-9);
    }
    y[0] = 1.0;
    y[1] = 0.5;
    mbd_run_params every = {.t0 = 0, .t_end = 2.0, .dt_out = 0};
    CHECK_STATUS(mbd_run(o, &every, y, &s_free, &f), GSL_SUCCESS);
    CHECK_MSG(s.ode.steps == s_free.ode.steps, "outputs changed the steps: %ld with, %ld without",
              s.ode.steps, s_free.ode.steps);
    /* an output grid that does not divide the span ends with t_end itself */
    r.n = 0;
    y[0] = 1.0;
    y[1] = 0.5;
    mbd_run_params odd = {.t0 = 0, .t_end = 1.0, .dt_out = 0.3, .output = record, .output_ctx = &r};
    CHECK_STATUS(mbd_run(o, &odd, y, &s, &f), GSL_SUCCESS);
    CHECK_MSG(r.n == 5 && r.t[4] == 1.0 && fabs(r.t[3] - 0.9) < 1e-15,
              "outputs 0, 0.3, 0.6, 0.9, 1: got %d ending at %g", r.n, r.t[r.n - 1]);
    mbd_ode_free(o);

    /* a fixed step of 0.1 accumulates rounding over 50 steps: the outputs still
     * carry the grid times t0 + k dt_out, and the last one t_end itself */
    mbd_ode_params fx = {.name = "rk4", .kind = MBD_ODE_RK, .tableau = &mbd_tableau_rk4, .h = 0.1};
    o = mbd_ode_alloc(&fx, 2, rhs, NULL);
    r.n = 0;
    y[0] = 1.0;
    y[1] = 0.5;
    mbd_run_params grid = {.t0 = 0, .t_end = 5.0, .dt_out = 0.1, .output = record, .output_ctx = &r};
    CHECK_STATUS(mbd_run(o, &grid, y, &s, &f), GSL_SUCCESS);
    CHECK_MSG(r.n == 51, "51 outputs, got %d", r.n);
    for (int k = 0; k < r.n; k++)
        CHECK_MSG(r.t[k] == (k == 50 ? 5.0 : 0.1 * k), "output %d at t = %.17g, expected %.17g", k,
                  r.t[k], 0.1 * k);
    mbd_ode_free(o);
}

/* A hook that kicks the state at t = 1 (adds 0.1 to y2). A run with the hook
 * must equal a run to t = 1, the kick, and a fresh run from there: if the
 * integrator kept its first-same-as-last stage or its multistep history from
 * before the kick, the two would differ. */
static int kick(void *ctx, double t, double y[], int *changed, mbd_failure *fail)
{
    (void)ctx, (void)fail;
    if (fabs(t - 1.0) < 1e-9) {
        y[1] += 0.1;
        *changed = 1;
    }
    return GSL_SUCCESS;
}

static void run_two_phases(const mbd_ode_params *p, double y[2])
{
    mbd_ode *o = mbd_ode_alloc(p, 2, rhs, NULL);
    mbd_failure f;
    mbd_run_params a = {.t0 = 0, .t_end = 1.0, .dt_out = 0};
    mbd_run(o, &a, y, NULL, &f);
    y[1] += 0.1;
    mbd_run_params b = {.t0 = 1.0, .t_end = 2.0, .dt_out = 0};
    mbd_run(o, &b, y, NULL, &f);
    mbd_ode_free(o);
}

static void hook_resets_history(void)
{
    mbd_ode_params ps[3] = {
        {.name = "bs23 fixed", .kind = MBD_ODE_RK, .tableau = &mbd_tableau_bs23, .h = 0.05},
        {.name = "ab3", .kind = MBD_ODE_AB, .order = 3, .h = 0.05},
        {.name = "pece4", .kind = MBD_ODE_PECE, .order = 4, .corrections = 2, .h = 0.05},
    };
    for (int k = 0; k < 3; k++) {
        double y1[2] = {1.0, 0.5}, y2[2] = {1.0, 0.5};
        mbd_ode *o = mbd_ode_alloc(&ps[k], 2, rhs, NULL);
        mbd_failure f;
        mbd_run_stats s;
        mbd_run_params rp = {.t0 = 0, .t_end = 2.0, .dt_out = 0, .hook = kick};
        CHECK_STATUS(mbd_run(o, &rp, y1, &s, &f), GSL_SUCCESS);
        CHECK_MSG(s.corrections == 1, "%s: one correction counted, got %ld", ps[k].name, s.corrections);
        mbd_ode_free(o);
        run_two_phases(&ps[k], y2);
        CHECK_MSG(fabs(y1[0] - y2[0]) <= 1e-14 && fabs(y1[1] - y2[1]) <= 1e-14,
                  "%s: a run with the hook differs from a restarted run by %.3g",
                  ps[k].name, fmax(fabs(y1[0] - y2[0]), fabs(y1[1] - y2[1])));
    }
}

/* A right-hand side that blows up: the run stops with the time and cause. */
static int blowup(double t, const double y[], double f[], void *params)
{
    (void)t, (void)params;
    f[0] = y[0] * y[0];   /* y = 1 / (1 - t): infinite at t = 1 */
    f[1] = 0;
    return GSL_SUCCESS;
}

static void failure_is_reported(void)
{
    mbd_ode_params p = {.name = "euler", .kind = MBD_ODE_RK, .tableau = &mbd_tableau_euler, .h = 0.1};
    mbd_ode *o = mbd_ode_alloc(&p, 2, blowup, NULL);
    double y[2] = {1.0, 0.0};
    mbd_failure f;
    mbd_run_stats s;
    mbd_run_params rp = {.t0 = 0, .t_end = 100.0, .dt_out = 1.0};
    int st = mbd_run(o, &rp, y, &s, &f);
    CHECK_STATUS(st, MBD_ENONFINITE);
    CHECK_MSG(isfinite(f.time) && f.time > 1.0 && f.time < 100.0, "failure time %g", f.time);
    CHECK_MSG(isfinite(y[0]), "the state is the last good one, not NaN");
    mbd_ode_free(o);

    mbd_ode_preset("ode23", &p);
    o = mbd_ode_alloc(&p, 2, blowup, NULL);
    y[0] = 1.0;
    st = mbd_run(o, &rp, y, &s, &f);
    CHECK_MSG(st == MBD_ESTEPSIZE || st == MBD_ENONFINITE, "status %s", mbd_strerror(st));
    CHECK_MSG(f.time > 0.9 && f.time < 1.01, "ode23 fails near the singularity t = 1, at %g", f.time);
    mbd_ode_free(o);
}

static int stiff(double t, const double y[], double f[], void *params)
{
    (void)t, (void)params;
    f[0] = -50.0 * y[0];
    f[1] = -50.0 * y[1];
    return GSL_SUCCESS;
}

/* Implicit Euler on y' = -50 y at h = 0.1 (h |df/dy| = 5): Newton solves it
 * exactly, y1 = y0 / 6; fixed-point iteration diverges and says so. */
static void implicit_euler_newton_and_fixed_point(void)
{
    mbd_ode_params p = {.name = "implicit-euler", .kind = MBD_ODE_IMPLICIT_EULER, .h = 0.1};
    mbd_ode *o = mbd_ode_alloc(&p, 2, stiff, NULL);
    double y[2] = {1.0, 2.0}, t = 0;
    REQUIRE_STATUS(mbd_ode_start(o, t, y, 1.0), GSL_SUCCESS);
    REQUIRE_STATUS(mbd_ode_step(o, &t, y, 1.0), GSL_SUCCESS);
    CHECK_CLOSE(y[0], 1.0 / 6.0, 1e-13);
    CHECK_CLOSE(y[1], 2.0 / 6.0, 1e-13);
    mbd_ode_free(o);

    p.fixed_point = 1;
    o = mbd_ode_alloc(&p, 2, stiff, NULL);
    y[0] = 1.0;
    y[1] = 2.0;
    t = 0;
    REQUIRE_STATUS(mbd_ode_start(o, t, y, 1.0), GSL_SUCCESS);
    CHECK_STATUS(mbd_ode_step(o, &t, y, 1.0), MBD_ENOCONV);
    CHECK_MSG(strstr(mbd_ode_failure(o)->cause, "fixed-point iteration diverges") != NULL,
              "cause: %s", mbd_ode_failure(o)->cause);
    CHECK_CLOSE(t, 0.0, 0.0);
    mbd_ode_free(o);
}

/* The output grid is counted without undefined arithmetic: a spacing so small
 * or a span so long that the count does not fit is refused, a spacing longer
 * than the span still gives t0 and t_end (never t0 alone). */
static int count_outputs(void *ctx, double t, const double y[], const mbd_run_info *info,
                         mbd_failure *fail)
{
    (void)t, (void)y, (void)info, (void)fail;
    ++*(long *)ctx;
    return GSL_SUCCESS;
}

static void output_count_limits(void)
{
    long n = 0, counted = 0;
    mbd_failure f;
    CHECK_STATUS(mbd_run_output_count(0, 2.0, 0.25, &n, &f), GSL_SUCCESS);
    CHECK_MSG(n == 9, "0, 0.25, ..., 2: 9 outputs, got %ld", n);
    CHECK_STATUS(mbd_run_output_count(0, 1.0, 0.3, &n, &f), GSL_SUCCESS);
    CHECK_MSG(n == 5, "0, 0.3, 0.6, 0.9 and 1: 5 outputs, got %ld", n);
    CHECK_STATUS(mbd_run_output_count(0, 4.0, 1e308, &n, &f), GSL_SUCCESS);
    CHECK_MSG(n == 2, "a spacing beyond the span: t0 and t_end, got %ld", n);
    CHECK_STATUS(mbd_run_output_count(0, 5.0, 1e-300, &n, &f), MBD_EINPUT);
    CHECK_MSG(strstr(f.cause, "too many") != NULL, "cause: %s", f.cause);
    CHECK_STATUS(mbd_run_output_count(0, 1e308, 1e-4, &n, &f), MBD_EINPUT);
    CHECK_STATUS(mbd_run_output_count(-1e308, 1e308, 1.0, &n, &f), MBD_EINPUT);
    CHECK_STATUS(mbd_run_output_count(1.0, 1.0, 0.1, &n, &f), MBD_EINPUT);
    CHECK_STATUS(mbd_run_output_count(0, 1.0, 0, &n, &f), GSL_SUCCESS);
    CHECK_MSG(n == -1, "outputs after every step are not counted in advance, got %ld", n);

    /* the run itself: dt_out beyond the span reports t0 and t_end with the
     * state at t_end, not the initial state twice */
    mbd_ode_params p;
    mbd_ode_preset("tight", &p);
    mbd_ode *o = mbd_ode_alloc(&p, 2, rhs, NULL);
    double y[2] = {1.0, 0.5}, ye[2];
    recorder r = {.n = 0};
    mbd_run_params rp = {.t0 = 0, .t_end = 2.0, .dt_out = 1e308, .output = record,
                         .output_ctx = &r};
    mbd_run_stats s;
    CHECK_STATUS(mbd_run(o, &rp, y, &s, &f), GSL_SUCCESS);
    CHECK_MSG(r.n == 2 && r.t[1] == 2.0, "outputs at 0 and 2, got %d ending at %g", r.n,
              r.n ? r.t[r.n - 1] : NAN);
    exact(2.0, ye);
    CHECK_CLOSE(r.y0[1], ye[0], 1e-8);
    /* a grid above the output limit is refused before any step */
    y[0] = 1.0;
    y[1] = 0.5;
    r.n = 0;
    rp.dt_out = 1e-3;
    rp.max_outputs = 1000;
    CHECK_STATUS(mbd_run(o, &rp, y, &s, &f), MBD_EINPUT);
    CHECK_MSG(strstr(f.cause, "2001") && strstr(f.cause, "limit of 1000"), "cause: %s", f.cause);
    CHECK_MSG(r.n == 0 && s.ode.steps == 0, "nothing ran: %d outputs, %ld steps", r.n,
              s.ode.steps);
    rp.max_outputs = 2001;
    rp.output = count_outputs;
    rp.output_ctx = &counted;
    y[0] = 1.0;
    y[1] = 0.5;
    CHECK_STATUS(mbd_run(o, &rp, y, &s, &f), GSL_SUCCESS);
    CHECK_MSG(counted == 2001 && s.outputs == 2001, "exactly at the limit: 2001 outputs, got %ld",
              counted);
    mbd_ode_free(o);
}

static int fast_decay(double t, const double y[], double f[], void *params)
{
    (void)t;
    const double lambda = *(const double *)params;
    f[0] = -lambda * (y[0] - cos(t));
    f[1] = y[1] * cos(t);
    return GSL_SUCCESS;
}

/* At the step limit the run says why the steps were small: stability (a
 * stiff problem for an explicit method), or the tolerance (a long run). A
 * tolerance below round-off makes the step collapse with that cause, not with
 * a step-limit or stiffness message. */
static void step_limit_causes(void)
{
    double lambda = 1e6;
    mbd_ode_params p;
    mbd_ode_preset("ode23", &p);
    mbd_ode *o = mbd_ode_alloc(&p, 2, fast_decay, &lambda);
    double y[2] = {1.0, 1.0};
    mbd_run_stats s;
    mbd_failure f;
    mbd_run_params rp = {.t0 = 0, .t_end = 10.0, .dt_out = 0.5, .max_steps = 500};
    CHECK_STATUS(mbd_run(o, &rp, y, &s, &f), MBD_ESTEPLIMIT);
    CHECK_MSG(strstr(f.cause, "limit of 500 steps") && strstr(f.cause, "stiff for an explicit"),
              "cause: %s", f.cause);
    CU_ASSERT_EQUAL(s.ode.steps, 500);
    mbd_ode_free(o);

    /* the same problem, not stiff (lambda 1), with a tight tolerance */
    lambda = 1.0;
    p.rtol = 1e-12;
    p.atol = 1e-14;
    o = mbd_ode_alloc(&p, 2, fast_decay, &lambda);
    y[0] = y[1] = 1.0;
    CHECK_STATUS(mbd_run(o, &rp, y, &s, &f), MBD_ESTEPLIMIT);
    CHECK_MSG(strstr(f.cause, "limit of 500 steps") && strstr(f.cause, "the tolerance sets")
              && !strstr(f.cause, "stiff"), "cause: %s", f.cause);
    mbd_ode_free(o);

    /* a stiff integrator on the stiff problem: it follows the fast mode only
     * if the tolerance asks it to, and is never called explicit-stiff */
    lambda = 1e6;
    mbd_ode_preset("msbdf", &p);
    o = mbd_ode_alloc(&p, 2, fast_decay, &lambda);
    y[0] = y[1] = 1.0;
    rp.max_steps = 20;
    CHECK_STATUS(mbd_run(o, &rp, y, &s, &f), MBD_ESTEPLIMIT);
    CHECK_MSG(strstr(f.cause, "limit of 20 steps") && !strstr(f.cause, "stiff for an explicit"),
              "cause: %s", f.cause);
    mbd_ode_free(o);

    /* tolerances below round-off: the step collapses at once, said so */
    lambda = 1.0;
    mbd_ode_preset("ode23", &p);
    p.rtol = 1e-300;
    p.atol = 1e-300;
    o = mbd_ode_alloc(&p, 2, fast_decay, &lambda);
    y[0] = y[1] = 1.0;
    rp.max_steps = 1000000;
    CHECK_STATUS(mbd_run(o, &rp, y, &s, &f), MBD_ESTEPSIZE);
    CHECK_MSG(strstr(f.cause, "below the round-off") != NULL, "cause: %s", f.cause);
    CHECK_MSG(s.ode.steps < 1000, "it collapsed early, not after %ld steps", s.ode.steps);
    mbd_ode_free(o);
}

/* Sampling by dense output: the exact solution at times inside steps, on a
 * step's end (t = 0) and at the end, to the run's tolerance; a failing right
 * side is reported. */
static void sample_by_dense_output(void)
{
    mbd_ode_params p;
    mbd_ode_preset("tight", &p);
    enum { K = 7 };
    const double t[K] = {0.0, 0.013, 0.5, 1.2345, 2.0, 2.9999, 3.0};
    const double y0[2] = {1.0, 0.5};
    double ys[2 * K], ye[2];
    mbd_failure f;
    REQUIRE_STATUS(mbd_ode_sample(&p, rhs, NULL, 2, y0, t, K, ys, &f), GSL_SUCCESS);
    for (int k = 0; k < K; k++) {
        exact(t[k], ye);
        CHECK_CLOSE(ys[2 * k], ye[0], 1e-9);
        CHECK_CLOSE(ys[2 * k + 1], ye[1], 1e-9);
    }
    CHECK_CLOSE(ys[0], 1.0, 0.0);
    mbd_ode_params e = {.name = "euler", .kind = MBD_ODE_RK, .tableau = &mbd_tableau_euler,
                        .h = 0.1};
    double y1[2] = {1.0, 0.0}, out[2 * K];
    const double tb[K] = {0.0, 0.5, 1.5, 3.0, 10.0, 50.0, 100.0};
    CHECK_MSG(mbd_ode_sample(&e, blowup, NULL, 2, y1, tb, K, out, &f) != GSL_SUCCESS
                  && f.status != GSL_SUCCESS && isfinite(f.time),
              "a blow-up is reported: %s", f.cause);
}

/* The sampler one time at a time: the exact solution to the run's
 * tolerance at times as they come, stepping only as far as each needs (a
 * time inside the first step takes one step); a time before the last one, or
 * past t_end, is refused with the time named, and the sampler goes on. */
static void sampler_one_time_at_a_time(void)
{
    mbd_ode_params p;
    mbd_ode_preset("tight", &p);
    const double y0[2] = {1.0, 0.5};
    mbd_ode_sampler *s = mbd_ode_sampler_alloc(&p, rhs, NULL, 2, y0, 3.0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    const double t[5] = {0.0, 0.25, 0.25, 1.7, 3.0};
    double y[2], ye[2];
    mbd_failure f;
    for (int k = 0; k < 5; k++) {
        REQUIRE_STATUS(mbd_ode_sampler_at(s, t[k], y, &f), GSL_SUCCESS);
        exact(t[k], ye);
        CHECK_CLOSE(y[0], ye[0], 1e-9 * (1 + fabs(ye[0])));
        CHECK_CLOSE(y[1], ye[1], 1e-9 * (1 + fabs(ye[1])));
    }
    CHECK_STATUS(mbd_ode_sampler_at(s, 1.0, y, &f), GSL_EDOM);
    CHECK_MSG(strstr(f.cause, "t = 1") != NULL, "cause: %s", f.cause);
    CHECK_STATUS(mbd_ode_sampler_at(s, 3.5, y, &f), GSL_EDOM);
    CHECK_STATUS(mbd_ode_sampler_at(s, 3.0, y, &f), GSL_SUCCESS);
    mbd_ode_sampler_free(s);
    CU_ASSERT_PTR_NULL(mbd_ode_sampler_alloc(&p, rhs, NULL, 2, y0, -1.0));
    CU_ASSERT_PTR_NULL(mbd_ode_sampler_alloc(&p, rhs, NULL, 2, y0, NAN));
}

static CU_TestInfo tests[] = {
    {"runge_kutta_orders", runge_kutta_orders},
    {"multistep_orders", multistep_orders},
    {"doubling_follows_tolerance", doubling_follows_tolerance},
    {"adaptive_meets_tolerance", adaptive_meets_tolerance},
    {"dense_output_orders", dense_output_orders},
    {"gsl_and_engine_agree", gsl_and_engine_agree},
    {"output_times", output_times},
    {"sampler_one_time_at_a_time", sampler_one_time_at_a_time},
    {"hook_resets_history", hook_resets_history},
    {"failure_is_reported", failure_is_reported},
    {"output_count_limits", output_count_limits},
    {"step_limit_causes", step_limit_causes},
    {"sample_by_dense_output", sample_by_dense_output},
    {"implicit_euler_newton_and_fixed_point", implicit_euler_newton_and_fixed_point},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"ode", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
