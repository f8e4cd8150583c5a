/* Grades exercise 02.4: a scheme's stability limit, found by running it.
 * The expected values come from each scheme's characteristic polynomial on
 * y' = -y with h = x, written out here. */
#include <math.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_poly.h>

#include "check.h"
#include "ex02.h"

static mbd_ode_params rk(const mbd_tableau *tb)
{
    return (mbd_ode_params){.name = tb->name, .kind = MBD_ODE_RK, .tableau = tb, .h = 0.1};
}

static mbd_ode_params adams(mbd_ode_kind kind, unsigned order)
{
    return (mbd_ode_params){.name = "adams", .kind = kind, .order = order, .corrections = 1,
                            .h = 0.1};
}

/* the larger |root| of a zeta^2 + b zeta + c */
static double max_root(double a, double b, double c)
{
    double d = b * b - 4 * a * c;
    if (d < 0)
        return sqrt(c / a);
    return fmax(fabs((-b + sqrt(d)) / (2 * a)), fabs((-b - sqrt(d)) / (2 * a)));
}

/* the largest |root| of zeta^k - zeta^(k-1) + x sum_j b_j zeta^(k-1-j) = 0: the
 * k-step Adams-Bashforth method with weights b on y' = -y, h = x */
static double ab_max_root(const double *b, int k, double x)
{
    double a[5] = {0}, z[8];
    a[k] = 1.0;
    a[k - 1] = -1.0;
    for (int j = 0; j < k; j++)
        a[k - 1 - j] += x * b[j];
    gsl_poly_complex_workspace *w = gsl_poly_complex_workspace_alloc((size_t)k + 1);
    gsl_poly_complex_solve(a, (size_t)k + 1, w, z);
    gsl_poly_complex_workspace_free(w);
    double m = 0.0;
    for (int i = 0; i < k; i++)
        m = fmax(m, hypot(z[2 * i], z[2 * i + 1]));
    return m;
}

static double rk4_R(double x) { return 1 - x + x * x / 2 - x * x * x / 6 + x * x * x * x / 24; }

/* The growth per step is the modulus of the dominant root. */
static void growth_is_the_dominant_root(void)
{
    mbd_ode_params euler = rk(&mbd_tableau_euler), rk4 = rk(&mbd_tableau_rk4);
    mbd_ode_params ab2 = adams(MBD_ODE_AB, 2), am3 = adams(MBD_ODE_AM, 3);
    const double xs[] = {0.5, 1.5, 2.2};
    for (int i = 0; i < 3; i++) {
        double g = NAN;
        REQUIRE_STATUS(ex02_growth(&euler, xs[i], 400, &g), GSL_SUCCESS);
        CHECK_REL(g, fabs(1 - xs[i]), 1e-6);
        REQUIRE_STATUS(ex02_growth(&rk4, xs[i] + 0.4, 400, &g), GSL_SUCCESS);
        CHECK_REL(g, fabs(rk4_R(xs[i] + 0.4)), 1e-6);
    }
    /* AB2: zeta^2 - (1 - 3x/2) zeta - x/2 = 0 */
    const double xab[] = {0.5, 0.9, 1.1};
    for (int i = 0; i < 3; i++) {
        double g = NAN, x = xab[i];
        REQUIRE_STATUS(ex02_growth(&ab2, x, 400, &g), GSL_SUCCESS);
        CHECK_REL(g, max_root(1, -(1 - 1.5 * x), -0.5 * x), 1e-3);
    }
    /* AM3 [5, 8, -1]/12: (1 + 5x/12) zeta^2 - (1 - 2x/3) zeta - x/12 = 0 */
    const double xam[] = {2.0, 5.5, 6.5};
    for (int i = 0; i < 3; i++) {
        double g = NAN, x = xam[i];
        REQUIRE_STATUS(ex02_growth(&am3, x, 400, &g), GSL_SUCCESS);
        CHECK_REL(g, max_root(1 + 5 * x / 12, -(1 - 2 * x / 3), -x / 12), 1e-3);
    }
    /* AB3 and AB4, whose dominant roots may be a complex pair */
    const double b3[3] = {23.0 / 12, -16.0 / 12, 5.0 / 12};
    const double b4[4] = {55.0 / 24, -59.0 / 24, 37.0 / 24, -9.0 / 24};
    mbd_ode_params ab3 = adams(MBD_ODE_AB, 3), ab4 = adams(MBD_ODE_AB, 4);
    const double x3[] = {0.3, 0.5, 0.6}, x4[] = {0.2, 0.28, 0.32};
    for (int i = 0; i < 3; i++) {
        double g = NAN;
        REQUIRE_STATUS(ex02_growth(&ab3, x3[i], 1000, &g), GSL_SUCCESS);
        CHECK_MSG(fabs(g / ab_max_root(b3, 3, x3[i]) - 1) <= 2e-3, "ab3 at x = %g: growth %.6f, "
                  "dominant root %.6f", x3[i], g, ab_max_root(b3, 3, x3[i]));
        REQUIRE_STATUS(ex02_growth(&ab4, x4[i], 1000, &g), GSL_SUCCESS);
        CHECK_MSG(fabs(g / ab_max_root(b4, 4, x4[i]) - 1) <= 2e-3, "ab4 at x = %g: growth %.6f, "
                  "dominant root %.6f", x4[i], g, ab_max_root(b4, 4, x4[i]));
    }
}

/* the stability polynomial of Dormand-Prince 5(4)'s fifth-order solution:
 * sum_{k <= 5} z^k / k! + z^6 / 600, at z = -x */
static double dopri5_R(double x)
{
    double z = -x, term = 1.0, sum = 1.0;
    for (int k = 1; k <= 5; k++) {
        term *= z / k;
        sum += term;
    }
    return sum + pow(z, 6) / 600.0;
}

/* The scheme's own step, error control and doubling fields are replaced: a
 * scheme handed over with error control on (an embedded pair, or step
 * doubling) and another step still runs at the fixed step h = x. */
static void settings_replaced(void)
{
    mbd_ode_params rk4 = rk(&mbd_tableau_rk4), dp = rk(&mbd_tableau_dopri5);
    rk4.adaptive = 1;
    rk4.doubling = 1;
    rk4.h = 0.37;
    rk4.rtol = rk4.atol = 1e-3;
    dp.adaptive = 1;
    dp.h = 0.01;
    dp.rtol = dp.atol = 1e-6;
    const double xs[] = {1.3, 2.5};
    for (int i = 0; i < 2; i++) {
        double g = NAN;
        REQUIRE_STATUS(ex02_growth(&rk4, xs[i], 400, &g), GSL_SUCCESS);
        CHECK_MSG(fabs(g / fabs(rk4_R(xs[i])) - 1) <= 1e-6, "rk4 handed over adaptive (doubling), "
                  "x = %g: growth %.8f, |R(-x)| = %.8f at the fixed step", xs[i], g,
                  fabs(rk4_R(xs[i])));
        REQUIRE_STATUS(ex02_growth(&dp, xs[i], 400, &g), GSL_SUCCESS);
        CHECK_MSG(fabs(g / fabs(dopri5_R(xs[i])) - 1) <= 1e-6, "dopri5 handed over adaptive, "
                  "x = %g: growth %.8f, |R(-x)| = %.8f at the fixed step", xs[i], g,
                  fabs(dopri5_R(xs[i])));
    }
}

/* Decay below 1e-250 gives 0, growth past 1e100 or a non-finite state
 * INFINITY, both as soon as they happen (within nsteps); a failing step
 * (implicit Euler by fixed-point iteration, which diverges for h |lambda| > 1)
 * returns the library's status; bad arguments are refused. */
static void growth_extremes(void)
{
    mbd_ode_params euler = rk(&mbd_tableau_euler), rk4 = rk(&mbd_tableau_rk4);
    double g = NAN;
    REQUIRE_STATUS(ex02_growth(&euler, 1.0, 400, &g), GSL_SUCCESS);   /* y_1 = 0 exactly */
    CHECK_CLOSE(g, 0.0, 0.0);
    REQUIRE_STATUS(ex02_growth(&euler, 0.5, 1000, &g), GSL_SUCCESS);  /* 0.5^831 < 1e-250 */
    CHECK_CLOSE(g, 0.0, 0.0);
    REQUIRE_STATUS(ex02_growth(&euler, 0.5, 800, &g), GSL_SUCCESS);   /* 0.5^800 > 1e-250 */
    CHECK_REL(g, 0.5, 1e-9);
    REQUIRE_STATUS(ex02_growth(&euler, 20.0, 400, &g), GSL_SUCCESS);
    CHECK_MSG(isinf(g) && g > 0, "growth at x = 20 should be INFINITY, got %g", g);
    REQUIRE_STATUS(ex02_growth(&euler, 20.0, 100, &g), GSL_SUCCESS);  /* 19^100 > 1e100 */
    CHECK_MSG(isinf(g) && g > 0, "growth at x = 20 over 100 steps (|y| = 19^100) should be "
              "INFINITY, got %g", g);
    REQUIRE_STATUS(ex02_growth(&rk4, 1e80, 400, &g), GSL_SUCCESS);    /* y_1 overflows */
    CHECK_MSG(isinf(g) && g > 0, "rk4 at x = 1e80 (the library reports a non-finite state) "
              "should be INFINITY, got %g", g);
    mbd_ode_params fp = {.name = "implicit-euler-fp", .kind = MBD_ODE_IMPLICIT_EULER,
                         .fixed_point = 1, .h = 0.1};
    REQUIRE_STATUS(ex02_growth(&fp, 0.5, 400, &g), GSL_SUCCESS);
    CHECK_STATUS(ex02_growth(&fp, 2.0, 400, &g), MBD_ENOCONV);
    CHECK_STATUS(ex02_growth(&euler, 1.0, 10, &g), GSL_EINVAL);
    CHECK_STATUS(ex02_growth(&euler, -1.0, 400, &g), GSL_EINVAL);
    CHECK_STATUS(ex02_growth(&euler, 0.0, 400, &g), GSL_EINVAL);
    mbd_ode_params bad = adams(MBD_ODE_AB, 9);
    CHECK_STATUS(ex02_growth(&bad, 1.0, 400, &g), GSL_EINVAL);
}

static void check_limit(const char *name, mbd_ode_params p, double lo, double hi, double theory)
{
    double x = NAN;
    int st = ex02_stability_limit(&p, lo, hi, 1e-4, &x);
    CHECK_MSG(st == GSL_SUCCESS, "%s: status %d", name, st);
    CHECK_MSG(fabs(x - theory) <= 0.005 * theory + 0.002,
              "%s: limit h |lambda| = %.6f, theory %.6f", name, x, theory);
}

/* One-step schemes: Euler 2, RK4 2.785293563; the answer is within the tol
 * asked for, from a loose one to one near the growth's own accuracy. */
static void one_step_limits(void)
{
    check_limit("euler", rk(&mbd_tableau_euler), 0.1, 3.0, 2.0);
    check_limit("heun", rk(&mbd_tableau_heun), 0.1, 3.0, 2.0);
    check_limit("rk4", rk(&mbd_tableau_rk4), 0.1, 3.5, 2.785293563405282);
    const double tols[] = {0.3, 1e-6, 1e-10};
    for (int i = 0; i < 3; i++) {
        double x = NAN;
        mbd_ode_params euler = rk(&mbd_tableau_euler), rk4 = rk(&mbd_tableau_rk4);
        int st = ex02_stability_limit(&euler, 0.1, 3.0, tols[i], &x);
        CHECK_MSG(st == GSL_SUCCESS && fabs(x - 2.0) <= tols[i], "euler, tol %g: status %d, "
                  "limit %.15g, theory 2", tols[i], st, x);
        st = ex02_stability_limit(&rk4, 0.1, 3.5, tols[i], &x);
        CHECK_MSG(st == GSL_SUCCESS && fabs(x - 2.785293563405282) <= tols[i],
                  "rk4, tol %g: status %d, limit %.15g, theory 2.785293563405282", tols[i], st, x);
    }
}

/* Multistep schemes with an RK4 start: AB2 1, AB3 6/11, AM3 6, AM4 3. A
 * parasitic root grows from the small part of the start that excites it, so
 * the growth must be measured late in a long run. */
static void multistep_limits(void)
{
    check_limit("ab2", adams(MBD_ODE_AB, 2), 0.1, 1.5, 1.0);
    check_limit("ab3", adams(MBD_ODE_AB, 3), 0.1, 1.0, 6.0 / 11.0);
    check_limit("am3", adams(MBD_ODE_AM, 3), 1.0, 8.0, 6.0);
    check_limit("am4", adams(MBD_ODE_AM, 4), 1.0, 4.0, 3.0);
}

/* Not bracketed: implicit Euler is stable at every x (A-stable), Euler is
 * unstable at x = 3 already. Bad arguments are refused, and a run that fails
 * (implicit Euler by fixed-point iteration at x_hi = 3) makes the search fail
 * with its status. */
static void not_bracketed(void)
{
    double x;
    mbd_ode_params ie = {.name = "implicit-euler", .kind = MBD_ODE_IMPLICIT_EULER, .h = 0.1};
    CHECK_STATUS(ex02_stability_limit(&ie, 0.1, 50.0, 1e-3, &x), GSL_EINVAL);
    mbd_ode_params euler = rk(&mbd_tableau_euler);
    CHECK_STATUS(ex02_stability_limit(&euler, 3.0, 4.0, 1e-3, &x), GSL_EINVAL);
    CHECK_STATUS(ex02_stability_limit(&euler, 3.0, 0.5, 1e-3, &x), GSL_EINVAL);
    CHECK_STATUS(ex02_stability_limit(&euler, 0.0, 3.0, 1e-3, &x), GSL_EINVAL);
    CHECK_STATUS(ex02_stability_limit(&euler, 0.5, 3.0, 0.0, &x), GSL_EINVAL);
    CHECK_STATUS(ex02_stability_limit(&euler, 0.5, 3.0, -1e-3, &x), GSL_EINVAL);
    mbd_ode_params fp = {.name = "implicit-euler-fp", .kind = MBD_ODE_IMPLICIT_EULER,
                         .fixed_point = 1, .h = 0.1};
    CHECK_STATUS(ex02_stability_limit(&fp, 0.5, 3.0, 1e-3, &x), MBD_ENOCONV);
}

static CU_TestInfo tests[] = {
    {"growth_is_the_dominant_root", growth_is_the_dominant_root},
    {"settings_replaced", settings_replaced},
    {"growth_extremes", growth_extremes},
    {"one_step_limits", one_step_limits},
    {"multistep_limits", multistep_limits},
    {"not_bracketed", not_bracketed},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"ex02.4", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
