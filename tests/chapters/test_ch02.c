/* Chapter 02: the integrators of document 001, against closed forms and theory
 * computed here independently of the chapter's code:
 *   - stability limits measured by running each scheme, against the values of
 *     the reading guide (Euler 2, RK4 2.7853, AB2 1, AB3 6/11, AB4 0.3, AM3 6,
 *     AM4 3, AM5 90/49, ...), and, for the predictor-correctors, against the
 *     spectral radius of the one-step matrix built here (GSL eigenvalues);
 *   - A-stable schemes stable at every tested step up to h alpha = 100;
 *   - observed orders within 0.2 of nominal;
 *   - energy ratios per step on the oscillator equal to their closed forms;
 *   - adaptive runs on the transient problem within 10 x the tolerance;
 *   - the slides' coefficient tables and the program's output. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_complex_math.h>
#include <gsl/gsl_eigen.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_matrix.h>

#include "check.h"
#include "model.h"
#include "study.h"
#include "reference.h"

#define ALPHA 10.0

static mbd_ode_params scheme(const char *name, unsigned k, unsigned m)
{
    ch02_settings set;
    ch02_settings_default(&set);
    set.pece_order = k;
    set.corrections = m;
    set.fixed = 1;
    mbd_ode_params p;
    ch02_params(ch02_scheme_find(name), &set, &p);
    return p;
}

static mbd_ode_params tableau(const mbd_tableau *tb)
{
    return (mbd_ode_params){.name = tb->name, .kind = MBD_ODE_RK, .tableau = tb, .h = 0.01};
}

/* ------------------------------------------------------------------------ */
/* Stability                                                                 */

static void check_measured(const char *name, const mbd_ode_params *p, double theory)
{
    double x = NAN;
    int found = 0;
    long runs = 0;
    int st = ch02_limit_measured(p, ALPHA, 100.0, 1e-4, &x, &found, &runs);
    CHECK_MSG(st == GSL_SUCCESS && found, "%s: the measurement failed (status %d, found %d)",
              name, st, found);
    CHECK_MSG(fabs(x - theory) <= fmax(0.02 * theory, 0.01),
              "%s: measured limit h alpha = %.5f, theory %.5f", name, x, theory);
    /* and the chapter's own characteristic polynomial agrees with the theory */
    ch02_charpoly cp;
    double xt = NAN;
    CHECK_MSG(ch02_charpoly_of(p, &cp) == GSL_SUCCESS && ch02_limit_theory(&cp, 100.0, &xt)
                  && fabs(xt - theory) <= 1e-4 * theory,
              "%s: characteristic polynomial limit %.6f, theory %.6f", name, xt, theory);
}

/* the slides' schemes with their real-axis limits (reading guide, Sec. 5.2) */
static void limits_of_conditionally_stable_schemes(void)
{
    const struct { const char *name; double theory; } s[] = {
        {"euler", 2.0}, {"midpoint", 2.0}, {"heun", 2.0}, {"ralston", 2.0},
        {"rk4", 2.785293563405282}, {"rkf23", 2.4639}, {"cash-karp", 3.7344},
        {"ab2", 1.0}, {"ab3", 6.0 / 11.0}, {"ab4", 0.3},
        {"am3", 6.0}, {"am4", 3.0}, {"am5", 90.0 / 49.0},
    };
    for (size_t i = 0; i < sizeof s / sizeof s[0]; i++) {
        mbd_ode_params p = scheme(s[i].name, 4, 1);
        check_measured(s[i].name, &p, s[i].theory);
    }
    mbd_ode_params p = tableau(&mbd_tableau_rk4);
    check_measured("rk4 (tableau)", &p, 2.785293563405282);
    p = tableau(&ch02_tableau_rk3);
    check_measured("rk3", &p, 2.5127);
    p = tableau(&ch02_tableau_rkf23_phi1);
    check_measured("rkf23 Phi_1", &p, 2.5173);
    p = tableau(ch02_tableau_cash_karp_row(4));
    check_measured("cash-karp row 4", &p, 4.2078);
    for (unsigned m = 1; m <= CH02_PEC_MAX; m++) {
        p = tableau(ch02_tableau_pec(m));
        check_measured("Euler + trapezoid P(EC)^m", &p, 2.0);
    }
}

/* One step of AB_k + AM_k P(EC)^m E on y' = lambda y, z = h lambda, as a
 * k x k matrix on (y_n, ..., y_{n-k+1}); its spectral radius decides. */
static double pece_radius(unsigned k, unsigned m, double z)
{
    static const double AB[5][4] = {{0}, {1}, {1.5, -0.5}, {23.0 / 12, -16.0 / 12, 5.0 / 12},
                                    {55.0 / 24, -59.0 / 24, 37.0 / 24, -9.0 / 24}};
    static const double AM[5][4] = {{0}, {1}, {0.5, 0.5}, {5.0 / 12, 8.0 / 12, -1.0 / 12},
                                    {9.0 / 24, 19.0 / 24, -5.0 / 24, 1.0 / 24}};
    gsl_matrix *M = gsl_matrix_calloc(k, k);
    for (unsigned c = 0; c < k; c++) {
        double y[4] = {0};   /* y[j] = y_{n-j} */
        y[c] = 1.0;
        double Y = y[0];
        for (unsigned j = 0; j < k; j++)
            Y += z * AB[k][j] * y[j];              /* P */
        for (unsigned i = 0; i < m; i++) {         /* (EC)^m */
            double C = y[0] + z * AM[k][0] * Y;
            for (unsigned j = 1; j < k; j++)
                C += z * AM[k][j] * y[j - 1];
            Y = C;
        }
        gsl_matrix_set(M, 0, c, Y);
        for (unsigned r = 1; r < k; r++)
            gsl_matrix_set(M, r, c, y[r - 1]);
    }
    gsl_vector_complex *ev = gsl_vector_complex_alloc(k);
    gsl_eigen_nonsymm_workspace *w = gsl_eigen_nonsymm_alloc(k);
    gsl_eigen_nonsymm(M, ev, w);
    double r = 0.0;
    for (unsigned i = 0; i < k; i++)
        r = fmax(r, gsl_complex_abs(gsl_vector_complex_get(ev, i)));
    gsl_eigen_nonsymm_free(w);
    gsl_vector_complex_free(ev);
    gsl_matrix_free(M);
    return r;
}

static double pece_limit(unsigned k, unsigned m)
{
    double lo = 0.0, x = 0.01;
    while (pece_radius(k, m, -x) <= 1.0 + 1e-12) {
        lo = x;
        x += 0.01;
    }
    double hi = x;
    for (int it = 0; it < 60; it++) {
        double mid = 0.5 * (lo + hi);
        if (pece_radius(k, m, -mid) > 1.0)
            hi = mid;
        else
            lo = mid;
    }
    return 0.5 * (lo + hi);
}

static void limits_of_predictor_correctors(void)
{
    for (unsigned k = 2; k <= 4; k++)
        for (unsigned m = 1; m <= 2; m++) {
            char name[64];
            snprintf(name, sizeof name, "pece --order %u --corrections %u", k, m);
            mbd_ode_params p = scheme("pece", k, m);
            check_measured(name, &p, pece_limit(k, m));
        }
    /* the values the chapter prints */
    CHECK_CLOSE(pece_limit(4, 1), 1.2848, 1e-4);
    CHECK_CLOSE(pece_limit(3, 1), 1.7288, 1e-4);
}

/* implicit Euler and the trapezoid: stable at every tested step up to 100 */
static void a_stable_schemes(void)
{
    const char *names[] = {"implicit-euler", "am2"};
    const double xs[] = {0.1, 0.5, 1, 2, 2.5, 5, 10, 20, 50, 100};
    for (int i = 0; i < 2; i++) {
        mbd_ode_params p = scheme(names[i], 4, 1);
        for (size_t j = 0; j < sizeof xs / sizeof xs[0]; j++) {
            ch02_amp a;
            REQUIRE_STATUS(ch02_amplification(&p, ALPHA, xs[j], CH02_STABILITY_STEPS, &a),
                           GSL_SUCCESS);
            CHECK_MSG(ch02_is_stable(&a) && a.y_end <= 1.0,
                      "%s at h alpha = %g: growth %g, |y_end| %g", names[i], xs[j], a.growth,
                      a.y_end);
        }
        double x;
        int found = 1;
        long runs;
        REQUIRE_STATUS(ch02_limit_measured(&p, ALPHA, 100.0, 1e-4, &x, &found, &runs), GSL_SUCCESS);
        CHECK_MSG(!found, "%s: no limit up to 100 expected, found %g", names[i], x);
        ch02_charpoly cp;
        REQUIRE_STATUS(ch02_charpoly_of(&p, &cp), GSL_SUCCESS);
        CHECK_MSG(!ch02_limit_theory(&cp, 100.0, &x), "%s: theory found a limit %g", names[i], x);
    }
}

/* just below the limit the runs decay, just above they grow, at the rate of
 * the dominant root (explicit Euler: |1 - x|; RK4: |R(-x)|) */
static void below_and_above(void)
{
    mbd_ode_params p = scheme("euler", 4, 1);
    ch02_amp a;
    REQUIRE_STATUS(ch02_amplification(&p, ALPHA, 1.96, 2000, &a), GSL_SUCCESS);
    CHECK_REL(a.growth, 0.96, 1e-9);
    REQUIRE_STATUS(ch02_amplification(&p, ALPHA, 2.04, 2000, &a), GSL_SUCCESS);
    CHECK_REL(a.growth, 1.04, 1e-9);
    p = scheme("rk4", 4, 1);
    const double xs[2] = {0.98 * 2.785293563405282, 1.02 * 2.785293563405282};
    for (int i = 0; i < 2; i++) {
        double x = xs[i], R = 1 - x + x * x / 2 - x * x * x / 6 + x * x * x * x / 24;
        REQUIRE_STATUS(ch02_amplification(&p, ALPHA, x, 2000, &a), GSL_SUCCESS);
        CHECK_REL(a.growth, fabs(R), 1e-9);
    }
    const char *ms[] = {"ab2", "ab3", "ab4", "am3", "am4", "am5"};
    const double lim[] = {1.0, 6.0 / 11, 0.3, 6.0, 3.0, 90.0 / 49};
    for (int i = 0; i < 6; i++) {
        p = scheme(ms[i], 4, 1);
        REQUIRE_STATUS(ch02_amplification(&p, ALPHA, 0.98 * lim[i], 2000, &a), GSL_SUCCESS);
        CHECK_MSG(ch02_is_stable(&a), "%s decays just below its limit (growth %g)", ms[i], a.growth);
        REQUIRE_STATUS(ch02_amplification(&p, ALPHA, 1.02 * lim[i], 2000, &a), GSL_SUCCESS);
        CHECK_MSG(!ch02_is_stable(&a), "%s grows just above its limit (growth %g)", ms[i], a.growth);
    }
}

/* ------------------------------------------------------------------------ */
/* Convergence                                                               */

static void check_order(const char *name, const mbd_ode_params *p, double nominal, double h0,
                        double h0_tr)
{
    ch02_problem decay, transient;
    ch02_problem_init(&decay, CH02_DECAY, ALPHA, 1.0);
    ch02_problem_init(&transient, CH02_TRANSIENT, ALPHA, 1.0);
    double err[4], ord[4];
    double q = ch02_observed_order(p, &decay, 1.0, h0, 4, err, ord);
    CHECK_MSG(fabs(q - nominal) <= 0.2, "%s on decay: observed order %.3f, nominal %g", name, q,
              nominal);
    q = ch02_observed_order(p, &transient, 0.05, h0_tr, 4, err, ord);
    CHECK_MSG(fabs(q - nominal) <= 0.2, "%s on transient: observed order %.3f, nominal %g", name,
              q, nominal);
}

static void observed_orders(void)
{
    for (const ch02_scheme *sc = ch02_schemes; sc->name; sc++) {
        if (sc->kind == MBD_ODE_PECE) {
            for (unsigned k = 2; k <= 4; k++)
                for (unsigned m = 1; m <= 2; m++) {
                    mbd_ode_params p = scheme("pece", k, m);
                    check_order("pece", &p, k, 0.01, 0.002);
                }
            continue;
        }
        mbd_ode_params p = scheme(sc->name, 4, 1);
        const int five = sc->order >= 5;
        check_order(sc->name, &p, sc->order, five ? 0.04 : 0.01, five ? 0.005 : 0.002);
    }
    for (unsigned r = 1; r <= 5; r++) {
        mbd_ode_params p = tableau(ch02_tableau_cash_karp_row(r));
        check_order("cash-karp row", &p, r, r >= 5 ? 0.04 : 0.01, r >= 5 ? 0.005 : 0.002);
    }
    mbd_ode_params p = tableau(ch02_tableau_pec(2));
    check_order("Euler + trapezoid m = 2", &p, 2, 0.01, 0.002);
}

/* ------------------------------------------------------------------------ */
/* Energy                                                                    */

typedef struct {
    const ch02_problem *pr;
    double Eprev, expect, worst;
} energy_ctx;

static int energy_out(void *ctx, double t, const double y[], const mbd_run_info *info,
                      mbd_failure *fail)
{
    (void)t;
    (void)fail;
    energy_ctx *c = ctx;
    double E = ch02_energy(c->pr, y);
    if (info->step > 0)
        c->worst = fmax(c->worst, fabs(E / c->Eprev / c->expect - 1.0));
    c->Eprev = E;
    return GSL_SUCCESS;
}

/* E_{n+1}/E_n = |R(i h omega)|^2 each step: Euler 1 + y^2, implicit Euler
 * 1/(1 + y^2), the second-order family 1 + y^4/4, RK4 1 - y^6/72 + y^8/576,
 * the trapezoid 1 (y = h omega). */
static void energy_factors(void)
{
    const double omegas[] = {1.0, 2.0}, hs[] = {0.1, 0.05};
    for (int k = 0; k < 2; k++) {
        const double y = hs[k] * omegas[k], y2 = y * y;
        const struct { const char *name; double factor; } s[] = {
            {"euler", 1 + y2}, {"implicit-euler", 1 / (1 + y2)}, {"midpoint", 1 + y2 * y2 / 4},
            {"heun", 1 + y2 * y2 / 4}, {"ralston", 1 + y2 * y2 / 4},
            {"rk4", 1 - y2 * y2 * y2 / 72 + y2 * y2 * y2 * y2 / 576}, {"am2", 1.0},
        };
        ch02_problem pr;
        ch02_problem_init(&pr, CH02_OSCILLATOR, ALPHA, omegas[k]);
        for (size_t i = 0; i < sizeof s / sizeof s[0]; i++) {
            mbd_ode_params p = scheme(s[i].name, 4, 1);
            p.h = hs[k];
            energy_ctx c = {&pr, 0, s[i].factor, 0};
            ch02_result r;
            REQUIRE_STATUS(ch02_solve(&p, &pr, 10.0, 0.0, NULL, energy_out, &c, &r), GSL_SUCCESS);
            CHECK_MSG(c.worst <= 1e-12, "%s, h omega = %g: E_{n+1}/E_n deviates from %.15g by %.2e",
                      s[i].name, y, s[i].factor, c.worst);
        }
    }
}

/* ------------------------------------------------------------------------ */
/* Step-size control                                                         */

static double transient_error(const char *name, double tol, long *steps)
{
    ch02_settings set;
    ch02_settings_default(&set);
    set.h = 0.0;
    set.rtol = set.atol = tol;
    mbd_ode_params p;
    ch02_params(ch02_scheme_find(name), &set, &p);
    ch02_problem pr;
    ch02_problem_init(&pr, CH02_TRANSIENT, ALPHA, 1.0);
    ch02_result r;
    int st = ch02_solve(&p, &pr, 2.0, 0.0, NULL, NULL, NULL, &r);
    *steps = r.stats.ode.steps;
    return st == GSL_SUCCESS ? r.max_error : NAN;
}

/* Step doubling and Cash-Karp: the global error over the whole run within ten
 * times the tolerance, at a fraction of the steps of a fixed step. */
static void adaptive_within_tolerance(void)
{
    const char *names[] = {"rk4-doubling", "cash-karp"};
    const double tols[] = {1e-4, 1e-6, 1e-8};
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 3; j++) {
            long steps;
            double e = transient_error(names[i], tols[j], &steps);
            CHECK_MSG(e <= 10 * tols[j], "%s, tol %g: max |error| %.3g", names[i], tols[j], e);
            CHECK_MSG(steps < 400, "%s, tol %g: %ld steps", names[i], tols[j], steps);
        }
}

/* The slides' Fehlberg 2(3) pair: its estimate |Phi_1 - Phi_2| misses the
 * common h^4 error of both formulas (Phi_1's third-order error terms are only
 * +-1/2112), so the error exceeds the tolerance, by the factor the chapter
 * reports; it still falls in proportion to the tolerance. */
static void fehlberg_23_underestimates(void)
{
    long steps;
    double e6 = transient_error("rkf23", 1e-6, &steps), e8 = transient_error("rkf23", 1e-8, &steps);
    CHECK_IN(e6 / 1e-6, 10.0, 200.0);
    CHECK_LE(e8 / e6, 0.05);
    /* one step of z = 1 on y' = -y: the estimate against the true error of Phi_2 */
    const double z = 1.0;
    const double R2 = 1 - z + z * z / 2 - z * z * z / 6 - 3.0 / 1408 * z * z * z * z;
    const double R1 = 1 - z + z * z / 2 - 117.0 / 704 * z * z * z;
    CHECK_GE(fabs(R2 - exp(-z)) / fabs(R2 - R1), 10.0);
    ch02_charpoly cp;
    mbd_ode_params p = tableau(&ch02_tableau_rkf23_phi2);
    REQUIRE_STATUS(ch02_charpoly_of(&p, &cp), GSL_SUCCESS);
    CHECK_REL(creal(ch02_amp_factor(&cp, -z)), R2, 1e-14);
    p = tableau(&ch02_tableau_rkf23_phi1);
    REQUIRE_STATUS(ch02_charpoly_of(&p, &cp), GSL_SUCCESS);
    CHECK_REL(creal(ch02_amp_factor(&cp, -z)), R1, 1e-14);
}

/* ------------------------------------------------------------------------ */
/* Limits of one run                                                         */

static mbd_ode_params adaptive(const char *name)
{
    ch02_settings set;
    ch02_settings_default(&set);
    set.h = 0.0;
    mbd_ode_params p;
    ch02_params(ch02_scheme_find(name), &set, &p);
    return p;
}

/* the step limit stops a run after exactly that many steps, at the last state
 * reached; the output limit after exactly that many outputs */
static void solve_limits(void)
{
    ch02_problem pr;
    ch02_problem_init(&pr, CH02_DECAY, ALPHA, 1.0);
    mbd_ode_params p = adaptive("cash-karp");
    ch02_result r;
    const ch02_limits steps = {10, 0, 1};
    CHECK_STATUS(ch02_solve(&p, &pr, 1.0, 0.0, &steps, NULL, NULL, &r), MBD_ESTEPLIMIT);
    CHECK_MSG(r.limit == CH02_LIMIT_STEPS, "the step limit stopped it: %d", (int)r.limit);
    CHECK_CLOSE(r.stats.ode.steps, 10, 0);
    CHECK_IN(r.t, 0.05, 0.99);
    CHECK_CLOSE(r.y[0], exp(-ALPHA * r.t), 1e-5);   /* the state at t, not another */
    CHECK_CLOSE(r.error, fabs(r.y[0] - exp(-ALPHA * r.t)), 1e-18);
    CHECK_MSG(r.h_last > 0 && r.h_min <= r.h_last && r.h_last <= r.h_max,
              "step sizes %g <= %g <= %g", r.h_min, r.h_last, r.h_max);

    const ch02_limits outputs = {0, 5, 1};
    CHECK_STATUS(ch02_solve(&p, &pr, 1.0, 0.0, &outputs, NULL, NULL, &r), MBD_ESTEPLIMIT);
    CHECK_MSG(r.limit == CH02_LIMIT_OUTPUTS, "the output limit stopped it: %d", (int)r.limit);
    CHECK_CLOSE(r.outputs, 5, 0);
    /* both at once after every step: the step limit is the cause */
    const ch02_limits both = {4, 5, 1};
    CHECK_STATUS(ch02_solve(&p, &pr, 1.0, 0.0, &both, NULL, NULL, &r), MBD_ESTEPLIMIT);
    CHECK_MSG(r.limit == CH02_LIMIT_STEPS, "both limits: the step limit named, got %d",
              (int)r.limit);
    /* a grid or a fixed step beyond a limit is refused before the run */
    CHECK_STATUS(ch02_solve(&p, &pr, 1.0, 0.1, &outputs, NULL, NULL, &r), MBD_EINPUT);
    CHECK_CLOSE(r.stats.ode.steps, 0, 0);
    mbd_ode_params f = scheme("rk4", 4, 1);
    const ch02_limits fifty = {50, 0, 1};
    CHECK_STATUS(ch02_solve(&f, &pr, 1.0, 0.0, &fifty, NULL, NULL, &r), MBD_EINPUT);
    CHECK_CLOSE(r.stats.ode.steps, 0, 0);
    /* the library's limits by default: the story's runs are far below them */
    CHECK_STATUS(ch02_solve(&f, &pr, 1.0, 0.0, NULL, NULL, NULL, &r), GSL_SUCCESS);
    CHECK_CLOSE(ch02_limits_default.max_steps, MBD_RUN_MAX_STEPS, 0);
}

/* step sizes are over every accepted step, whatever the outputs, and errors
 * too when asked (one run's summary): a coarse output grid gives the same
 * statistics as outputs after every step */
static void solve_statistics_over_steps(void)
{
    ch02_problem pr;
    ch02_problem_init(&pr, CH02_TRANSIENT, ALPHA, 1.0);
    mbd_ode_params p = adaptive("cash-karp");
    ch02_result every, grid;
    REQUIRE_STATUS(ch02_solve(&p, &pr, 2.0, 0.0, NULL, NULL, NULL, &every), GSL_SUCCESS);
    const ch02_limits per_step = {MBD_RUN_MAX_STEPS, MBD_RUN_MAX_OUTPUTS, 1};
    REQUIRE_STATUS(ch02_solve(&p, &pr, 2.0, 1.0, &per_step, NULL, NULL, &grid), GSL_SUCCESS);
    CHECK_CLOSE(grid.outputs, 3, 0);
    CHECK_CLOSE(every.outputs, every.stats.ode.steps + 1, 0);
    CHECK_CLOSE(grid.stats.ode.steps, every.stats.ode.steps, 0);
    CHECK_CLOSE(grid.h_min, every.h_min, 0);
    CHECK_CLOSE(grid.h_max, every.h_max, 0);
    CHECK_GE(grid.max_error, every.max_error);
    CHECK_LE(every.h_min, 1e-3);                   /* the transient's first steps */
    CHECK_GE(every.max_error, 1e-7);               /* not the errors at t = 0, 1, 2 alone */
}

/* The imaginary-axis intervals: RK4's is 2 sqrt 2, Kutta's third-order sqrt 3
 * (both classical); explicit Euler, the second-order family and Cash-Karp's
 * order-5 row grow at every step on the axis (checked here from R(z) built
 * from the tableau's own series); A-stable schemes are stable all along. */
static double complex series_R(const mbd_tableau *tb, double complex z)
{
    /* R(z) = 1 + sum_d z^d b^T A^(d-1) e */
    const unsigned s = tb->stages;
    double v[8], w[8];
    for (unsigned i = 0; i < s; i++)
        v[i] = 1.0;
    double complex R = 1.0, zd = 1.0;
    for (unsigned d = 1; d <= s; d++) {
        zd *= z;
        double c = 0.0;
        for (unsigned i = 0; i < s; i++)
            c += tb->b[i] * v[i];
        R += c * zd;
        for (unsigned i = 0; i < s; i++) {
            w[i] = 0.0;
            for (unsigned j = 0; j < s; j++)
                w[i] += tb->a[i * s + j] * v[j];
        }
        memcpy(v, w, s * sizeof *v);
    }
    return R;
}

static void imaginary_limits(void)
{
    ch02_charpoly cp;
    double y = NAN;
    mbd_ode_params p = tableau(&mbd_tableau_rk4);
    REQUIRE_STATUS(ch02_charpoly_of(&p, &cp), GSL_SUCCESS);
    CHECK_MSG(ch02_limit_imaginary(&cp, 100, &y) == 1, "rk4 has an interval");
    CHECK_CLOSE(y, 2 * sqrt(2.0), 1e-9);
    p = tableau(&ch02_tableau_rk3);
    REQUIRE_STATUS(ch02_charpoly_of(&p, &cp), GSL_SUCCESS);
    CHECK_MSG(ch02_limit_imaginary(&cp, 100, &y) == 1, "rk3 has an interval");
    CHECK_CLOSE(y, sqrt(3.0), 1e-9);
    const mbd_tableau *none[] = {&mbd_tableau_euler, &mbd_tableau_heun, &mbd_tableau_midpoint,
                                 &mbd_tableau_cash_karp};
    for (size_t i = 0; i < 4; i++) {
        CHECK_MSG(cabs(series_R(none[i], 0.5 * I)) > 1.0, "%s grows at z = 0.5 i", none[i]->name);
        p = tableau(none[i]);
        REQUIRE_STATUS(ch02_charpoly_of(&p, &cp), GSL_SUCCESS);
        y = NAN;
        CHECK_MSG(ch02_limit_imaginary(&cp, 100, &y) == 0 && y == 0.0,
                  "%s: no interval on the imaginary axis, got y* = %g", none[i]->name, y);
    }
    CHECK_MSG(cabs(series_R(&mbd_tableau_rk4, 2.8 * I)) <= 1.0
                  && cabs(series_R(&mbd_tableau_rk4, 2.9 * I)) > 1.0, "RK4 |R(iy)| = 1 near 2.83");
    const char *astable[] = {"implicit-euler", "am2"};
    for (size_t i = 0; i < 2; i++) {
        p = scheme(astable[i], 4, 1);
        REQUIRE_STATUS(ch02_charpoly_of(&p, &cp), GSL_SUCCESS);
        CHECK_MSG(ch02_limit_imaginary(&cp, 100, &y) == 0 && y == 100,
                  "%s: stable all along the axis, got y* = %g", astable[i], y);
    }
}

/* The stability figure's window holds every bounded curve whole (issue 12:
 * Cash-Karp's islands at 0.6 +- 3.6 i were cut off), and leaves out a curve
 * that was cut at zmax (the trapezoid's imaginary axis). */
static void locus_window(void)
{
    enum { NT = 720, CAP = 16 * (NT + 2) * 2 };
    static double re[CAP], im[CAP];
    ch02_charpoly cp;
    mbd_ode_params p = tableau(&mbd_tableau_cash_karp);
    REQUIRE_STATUS(ch02_charpoly_of(&p, &cp), GSL_SUCCESS);
    const size_t n = ch02_boundary_locus(&cp, NT, 8.0, re, im, CAP);
    double box[4] = {0, 0, 0, 0}, lowest = 0.0, rightmost = 0.0;
    ch02_locus_window(re, im, n, 8.0, box);
    size_t outside = 0;
    for (size_t k = 0; k < n; k++)
        if (isfinite(re[k])) {
            outside += re[k] < box[0] || re[k] > box[1] || im[k] < box[2] || im[k] > box[3];
            lowest = fmin(lowest, im[k]);
            rightmost = fmax(rightmost, re[k]);
        }
    CHECK_MSG(outside == 0, "%zu points of the Cash-Karp locus outside its window", outside);
    CHECK_LE(lowest, -3.8);      /* the lower island, below the old window's -3.6 */
    CHECK_GE(rightmost, 0.8);    /* the islands lie right of the axis */
    CHECK_CLOSE(box[2], lowest, 0);
    p = scheme("am2", 4, 1);
    REQUIRE_STATUS(ch02_charpoly_of(&p, &cp), GSL_SUCCESS);
    const size_t m = ch02_boundary_locus(&cp, NT, 12.0, re, im, CAP);
    double axis[4] = {-1, 1, -1, 1};
    ch02_locus_window(re, im, m, 12.0, axis);
    CHECK_MSG(m > 0 && axis[0] == -1 && axis[1] == 1 && axis[2] == -1 && axis[3] == 1,
              "the trapezoid's axis (%zu points) leaves the window alone: [%g, %g] x [%g, %g]",
              m, axis[0], axis[1], axis[2], axis[3]);
}

/* ------------------------------------------------------------------------ */
/* The slides' tables                                                        */

static void adams_coefficients(void)
{
    double b[5];
    ch02_adams(0, 3, b);   /* the slides' 3-step A-B */
    CHECK_CLOSE(12 * b[0], 23, 1e-12);
    CHECK_CLOSE(12 * b[1], -16, 1e-12);
    CHECK_CLOSE(12 * b[2], 5, 1e-12);
    ch02_adams(1, 3, b);   /* the slides' two-step A-M */
    CHECK_CLOSE(12 * b[0], 5, 1e-12);
    CHECK_CLOSE(12 * b[1], 8, 1e-12);
    CHECK_CLOSE(12 * b[2], -1, 1e-12);
    ch02_adams(1, 5, b);   /* the slides' four-step A-M */
    const double am5[5] = {251, 646, -264, 106, -19};
    for (int i = 0; i < 5; i++)
        CHECK_CLOSE(720 * b[i], am5[i], 1e-10);
    ch02_adams(0, 4, b);
    const double ab4[4] = {55, -59, 37, -9};
    for (int i = 0; i < 4; i++)
        CHECK_CLOSE(24 * b[i], ab4[i], 1e-12);
    ch02_adams(1, 4, b);
    const double am4[4] = {9, 19, -5, 1};
    for (int i = 0; i < 4; i++)
        CHECK_CLOSE(24 * b[i], am4[i], 1e-12);
}

static void tableau_orders(void)
{
    double worst;
    CHECK_CLOSE(ch02_tableau_order(&ch02_tableau_rkf23_phi1, ch02_tableau_rkf23_phi1.b, 1e-14,
                                   &worst), 2, 0);
    CHECK_CLOSE(worst, 1.0 / 1056, 1e-12);   /* sum c alpha^2 = 353/1056, not 1/3 */
    CHECK_CLOSE(ch02_tableau_order(&ch02_tableau_rkf23_phi2, ch02_tableau_rkf23_phi2.b, 1e-14,
                                   &worst), 3, 0);
    for (unsigned r = 1; r <= 5; r++) {
        const mbd_tableau *tb = ch02_tableau_cash_karp_row(r);
        CHECK_CLOSE(ch02_tableau_order(tb, tb->b, 1e-14, &worst), r, 0);
    }
    CHECK_CLOSE(ch02_tableau_order(&mbd_tableau_rk4, mbd_tableau_rk4.b, 1e-14, &worst), 4, 0);
    CHECK_CLOSE(ch02_tableau_order(&ch02_tableau_rk3, ch02_tableau_rk3.b, 1e-14, &worst), 3, 0);
    for (unsigned m = 1; m <= CH02_PEC_MAX; m++)
        CHECK_CLOSE(ch02_tableau_order(ch02_tableau_pec(m), ch02_tableau_pec(m)->b, 1e-14, &worst),
                    2, 0);
    /* the library's tableaux are the slides' */
    for (unsigned i = 0; i < 4; i++) {
        CHECK_CLOSE(mbd_tableau_rkf23.b[i], ch02_tableau_rkf23_phi2.b[i], 0.0);
        CHECK_CLOSE(mbd_tableau_rkf23.bhat[i], ch02_tableau_rkf23_phi1.b[i], 0.0);
    }
    for (unsigned i = 0; i < 6; i++) {
        CHECK_CLOSE(mbd_tableau_cash_karp.b[i], ch02_tableau_cash_karp_row(5)->b[i], 0.0);
        CHECK_CLOSE(mbd_tableau_cash_karp.bhat[i], ch02_tableau_cash_karp_row(4)->b[i], 0.0);
        for (unsigned j = 0; j < 6; j++)
            CHECK_CLOSE(mbd_tableau_cash_karp.a[6 * i + j], ch02_tableau_cash_karp_row(5)->a[6 * i + j],
                        0.0);
    }
}

/* the slides' P(EC)^m: R_0 = 1 + z, R_{k+1} = 1 + z/2 + z/2 R_k */
static void pec_amplification(void)
{
    const double z = -0.7;
    double R = 1 + z;
    for (unsigned m = 1; m <= CH02_PEC_MAX; m++) {
        R = 1 + z / 2 + z / 2 * R;
        mbd_ode_params p = tableau(ch02_tableau_pec(m));
        ch02_charpoly cp;
        REQUIRE_STATUS(ch02_charpoly_of(&p, &cp), GSL_SUCCESS);
        CHECK_REL(creal(ch02_amp_factor(&cp, z)), R, 1e-14);
    }
}

/* ------------------------------------------------------------------------ */
/* The program                                                               */

static void program_scheme_summary(void)
{
    test_run_result r;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s --summary", test_program("ch02-integrators"));
    test_run(cmd, &r);
    CHECK_MSG(r.status == 0, "exit status %d, stderr: %s", r.status, r.err);
    CHECK_CLOSE(test_summary(r.out, "order_rk4"), 4, 0);
    CHECK_CLOSE(test_summary(r.out, "limit_rk4"), 2.785293563405282, 1e-9);
    CHECK_CLOSE(test_summary(r.out, "limit_measured_rk4"), 2.7853, 0.01);
    CHECK_CLOSE(test_summary(r.out, "limit_ab3"), 6.0 / 11, 1e-9);
    CHECK_CLOSE(test_summary(r.out, "limit_am3"), 6.0, 1e-9);
    CHECK_CLOSE(test_summary(r.out, "limit_measured_am5"), 90.0 / 49, 0.02);
    CHECK_CLOSE(test_summary(r.out, "a_stable_implicit_euler"), 1, 0);
    CHECK_CLOSE(test_summary(r.out, "a_stable_am2"), 1, 0);
    CHECK_CLOSE(test_summary(r.out, "order_cash_karp"), 5, 0);
    CHECK_CLOSE(test_summary(r.out, "observed_order_cash_karp"), 5, 0.2);
    CHECK_CLOSE(test_summary(r.out, "observed_order_pece"), 4, 0.2);
    CHECK_CLOSE(test_summary(r.out, "energy_factor_euler"), 1.01, 1e-12);
    CHECK_LE(test_summary(r.out, "transient_error_cash_karp"), 1e-5);
    CHECK_MSG(strstr(r.out, "nan") == NULL && strstr(r.out, "Step") == NULL,
              "summary holds only key = value lines");
    test_run_free(&r);
}

static void program_run_summary(void)
{
    test_run_result r;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s --method euler --problem oscillator --h 0.1 --summary",
             test_program("ch02-integrators"));
    test_run(cmd, &r);
    CHECK_MSG(r.status == 0, "exit status %d, stderr: %s", r.status, r.err);
    CHECK_REL(test_summary(r.out, "energy_factor"), 1.01, 1e-12);
    CHECK_REL(test_summary(r.out, "energy_factor_theory"), 1.01, 1e-12);
    CHECK_REL(test_summary(r.out, "E_ratio"), pow(1.01, 200), 1e-10);
    CHECK_CLOSE(test_summary(r.out, "order"), 1, 0);
    CHECK_CLOSE(test_summary(r.out, "limit"), 2, 1e-9);
    test_run_free(&r);

    snprintf(cmd, sizeof cmd, "%s --method pece --order 3 --corrections 2 --summary",
             test_program("ch02-integrators"));
    test_run(cmd, &r);
    CHECK_MSG(r.status == 0, "exit status %d, stderr: %s", r.status, r.err);
    CHECK_CLOSE(test_summary(r.out, "order"), 3, 0);
    CHECK_CLOSE(test_summary(r.out, "limit"), pece_limit(3, 2), 1e-6);
    CHECK_CLOSE(test_summary(r.out, "y_exact"), exp(-10.0), 1e-15);
    CHECK_LE(test_summary(r.out, "error_end"), 1e-6);
    test_run_free(&r);

    snprintf(cmd, sizeof cmd, "%s --method cash-karp --problem transient --rtol 1e-7 --atol 1e-7 "
             "--summary", test_program("ch02-integrators"));
    test_run(cmd, &r);
    CHECK_MSG(r.status == 0, "exit status %d, stderr: %s", r.status, r.err);
    CHECK_LE(test_summary(r.out, "max_error"), 1e-6);
    CHECK_GE(test_summary(r.out, "h_max"), 0.01);
    test_run_free(&r);
}

/* the CSV columns: t,y or t,x,x_dot,E, then h for adaptive runs */
static void program_csv(void)
{
    struct { const char *args, *header; int rows; } cases[] = {
        {"--method rk4 --csv -", "t,y\n", 101},
        {"--method heun --problem oscillator --h 0.5 --csv -", "t,x,x_dot,E\n", 41},
        {"--method rkf23 --problem transient --csv -", "t,y,h\n", -1},
        {"--method am3 --problem decay --dt-out 0.25 --csv -", "t,y\n", 5},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        test_run_result r;
        char cmd[512];
        snprintf(cmd, sizeof cmd, "%s %s", test_program("ch02-integrators"), cases[i].args);
        test_run(cmd, &r);
        CHECK_MSG(r.status == 0, "%s: exit status %d, stderr: %s", cases[i].args, r.status, r.err);
        CHECK_MSG(strncmp(r.out, cases[i].header, strlen(cases[i].header)) == 0,
                  "%s: header %.30s", cases[i].args, r.out);
        int rows = -1;
        for (const char *p = r.out; *p; p++)
            rows += *p == '\n';
        if (cases[i].rows > 0)
            CHECK_MSG(rows == cases[i].rows, "%s: %d rows, expected %d", cases[i].args, rows,
                      cases[i].rows);
        else
            CHECK_MSG(rows > 50, "%s: %d rows", cases[i].args, rows);
        CHECK_MSG(strstr(r.out, "nan") == NULL, "%s: no NaN", cases[i].args);
        test_run_free(&r);
    }
}

/* an unstable run stops with status 1 and says when and why */
static void program_blow_up(void)
{
    test_run_result r;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s --method euler --h 0.5 --t-end 400 --csv /dev/null",
             test_program("ch02-integrators"));
    test_run(cmd, &r);
    CHECK_MSG(r.status == 1, "exit status %d, expected 1", r.status);
    CHECK_MSG(strstr(r.err, "at t = ") != NULL && strstr(r.err, "non-finite") != NULL,
              "stderr names the time and the cause: %s", r.err);
    test_run_free(&r);
}

static void program_story_and_figures(void)
{
    test_run_result r;
    char cmd[512];
    const char *figs[] = {"stability", "euler", "energy", "steps"};
    char path[128];
    for (int i = 0; i < 4; i++) {
        snprintf(path, sizeof path, "/tmp/mbd-test-ch02-%s.svg", figs[i]);
        remove(path);
    }
    snprintf(cmd, sizeof cmd, "%s --plot /tmp/mbd-test-ch02 --no-timing",
             test_program("ch02-integrators"));
    test_run(cmd, &r);
    CHECK_MSG(r.status == 0, "exit status %d, stderr: %s", r.status, r.err);
    for (int s = 1; s <= 10; s++) {
        char step[32];
        snprintf(step, sizeof step, "Step %d. ", s);
        CHECK_MSG(strstr(r.out, step) != NULL, "story has %s", step);
    }
    CHECK_MSG(strstr(r.out, "Every printed coefficient is reproduced") != NULL,
              "story: Adams coefficients");
    CHECK_MSG(strstr(r.out, "Both runs equal") != NULL, "story: Euler closed forms");
    CHECK_MSG(strstr(r.out, "identical") != NULL, "story: library tables = slides' tables");
    CHECK_MSG(strstr(r.out, "nan") == NULL && strstr(r.out, "inf") == NULL,
              "story prints no NaN or infinity");
    for (int i = 0; i < 4; i++) {
        snprintf(path, sizeof path, "/tmp/mbd-test-ch02-%s.svg", figs[i]);
        FILE *f = fopen(path, "r");
        CHECK_MSG(f != NULL, "figure %s was written", path);
        if (f)
            fclose(f);
        remove(path);
    }
    test_run_free(&r);
}

static CU_TestInfo tests[] = {
    {"limits_of_conditionally_stable_schemes", limits_of_conditionally_stable_schemes},
    {"limits_of_predictor_correctors", limits_of_predictor_correctors},
    {"a_stable_schemes", a_stable_schemes},
    {"below_and_above", below_and_above},
    {"observed_orders", observed_orders},
    {"energy_factors", energy_factors},
    {"adaptive_within_tolerance", adaptive_within_tolerance},
    {"fehlberg_23_underestimates", fehlberg_23_underestimates},
    {"solve_limits", solve_limits},
    {"solve_statistics_over_steps", solve_statistics_over_steps},
    {"imaginary_limits", imaginary_limits},
    {"locus_window", locus_window},
    {"adams_coefficients", adams_coefficients},
    {"tableau_orders", tableau_orders},
    {"pec_amplification", pec_amplification},
    {"program_scheme_summary", program_scheme_summary},
    {"program_run_summary", program_run_summary},
    {"program_csv", program_csv},
    {"program_blow_up", program_blow_up},
    {"program_story_and_figures", program_story_and_figures},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"ch02", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
