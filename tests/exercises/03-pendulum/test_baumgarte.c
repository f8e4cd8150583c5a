/* Grades exercise 03.3: Baumgarte's stability, on paper and by running it. */
#include <complex.h>
#include <math.h>

#include <gsl/gsl_errno.h>

#include "check.h"
#include "ex03.h"
#include "fixture.h"
#include "mbd/simulate.h"

static void check_roots(double alpha, double beta, int printed, double complex e0,
                        double complex e1)
{
    double complex r[2] = {NAN, NAN};
    REQUIRE_STATUS(ex03_baumgarte_roots(alpha, beta, printed, r), GSL_SUCCESS);
    CHECK_MSG(cabs(r[0] - e0) < 1e-9 * (1 + cabs(e0)) && cabs(r[1] - e1) < 1e-9 * (1 + cabs(e1)),
              "alpha = %g, beta = %g, %s sign: roots %.6g%+.6gi, %.6g%+.6gi; expected "
              "%.6g%+.6gi, %.6g%+.6gi", alpha, beta, printed ? "printed" : "stable",
              creal(r[0]), cimag(r[0]), creal(r[1]), cimag(r[1]), creal(e0), cimag(e0),
              creal(e1), cimag(e1));
    /* each root solves its characteristic equation */
    for (int i = 0; i < 2; i++) {
        const double complex z = r[i];
        const double complex p = printed ? z * z - 2 * alpha * z - beta * beta
                                         : z * z + 2 * alpha * z + beta * beta;
        CHECK_MSG(cabs(p) < 1e-9 * (1 + alpha * alpha + beta * beta),
                  "root %d does not solve its equation (residual %.3g)", i, cabs(p));
    }
}

static void roots(void)
{
    const double s20 = sqrt(20.0), s800 = sqrt(800.0), s380 = sqrt(380.0);
    check_roots(20, 20, 0, -20, -20);                  /* critically damped */
    check_roots(20, s20, 0, -20 + s380, -20 - s380);   /* -0.506, -39.49 */
    check_roots(1, 5, 0, -1 + I * sqrt(24.0), -1 - I * sqrt(24.0));
    check_roots(20, 20, 1, 20 + s800, 20 - s800);      /* +48.28: unstable */
    check_roots(20, s20, 1, 20 + sqrt(420.0), 20 - sqrt(420.0));
    /* the limits of the contract's range: a zero weight is allowed */
    check_roots(0, 3, 0, 3 * I, -3 * I);               /* undamped: the pair +-3i */
    check_roots(2, 0, 0, 0, -4);
    check_roots(0, 0, 0, 0, 0);
    check_roots(3, 0, 1, 6, 0);
    check_roots(0, 2, 1, 2, -2);
    double complex r[2];
    CHECK_STATUS(ex03_baumgarte_roots(-1, 2, 0, r), GSL_EINVAL);
    CHECK_STATUS(ex03_baumgarte_roots(1, -2, 1, r), GSL_EINVAL);
}

static double rate_of(const char *method, double mu, double alpha, double beta,
                      const double q0[3], double t_end, double lo, double hi)
{
    mbd_system s = fx_pendulum();
    mbd_formulation_params fp = {.mu = mu, .alpha = alpha, .beta = beta};
    mbd_formulation_method(method, &fp);
    mbd_ode_params ode;
    mbd_ode_preset("tight", &ode);
    const double qd0[3] = {0, 0, 0};
    double rate = NAN;
    int st = ex03_violation_rate(&s, &fp, &ode, q0, qd0, t_end, lo, hi, &rate);
    CHECK_MSG(st == GSL_SUCCESS, "%s, alpha %g, beta %g: status %d", method, alpha, beta, st);
    return rate;
}

/* The printed sign: |C| grows at the root alpha + sqrt(alpha^2 + beta^2) */
static void printed_sign_grows(void)
{
    const double q0[3] = {1, 0, 0};
    const double r1 = rate_of("penalty-baumgarte-printed", 1e6, 20, 20, q0, 2.0, 1e-5, 1e-1);
    CHECK_REL(r1, 20 + sqrt(800.0), 0.01);
    const double r2 = rate_of("penalty-baumgarte-printed", 1e6, 20, sqrt(20.0), q0, 2.0, 1e-5, 1e-1);
    CHECK_REL(r2, 20 + sqrt(420.0), 0.01);
}

/* The stable sign with the text's beta^2 = 20: a start off the circle decays
 * at the slow root -20 + sqrt(380) = -0.506 /s. */
static void stable_sign_decays(void)
{
    const double q0[3] = {1.02, 0, 0};
    const double r = rate_of("penalty-baumgarte", 1e8, 20, sqrt(20.0), q0, 6.0, 1e-3, 2e-2);
    CHECK_REL(r, -20 + sqrt(380.0), 0.01);
    /* the projection with the same weights: the same equation for C */
    const double rp = rate_of("projection-baumgarte", 1e8, 20, sqrt(20.0), q0, 6.0, 1e-3, 2e-2);
    CHECK_REL(rp, -20 + sqrt(380.0), 0.01);
}

/* The rate as the contract defines it, computed here from the library's run
 * of the same formulation (outputs every t_end / 4000, stop at |C| > 1e3):
 * the least-squares slope of log|C| against t over the outputs in the band.
 * Returns the number of outputs in the band (-1 when the run failed
 * otherwise, with its status in *status). */
static long own_rate(const mbd_system *s, const mbd_formulation_params *fp,
                     const mbd_ode_params *ode, const double q0[], const double qd0[],
                     double t_end, double lo, double hi, double *rate, int *status,
                     mbd_history *keep)
{
    mbd_formulation *f = mbd_formulation_alloc(s, fp);
    mbd_sim_params sp = {.t0 = 0, .t_end = t_end, .dt_out = t_end / 4000, .max_violation = 1e3};
    mbd_history h;
    mbd_history_init(&h);
    mbd_failure fail;
    *status = f ? mbd_simulate(f, ode, &sp, q0, qd0, &h, NULL, &fail) : GSL_ENOMEM;
    mbd_formulation_free(f);
    long cnt = 0;
    if (*status == GSL_SUCCESS || *status == MBD_EVIOLATION) {
        double sx = 0, sy = 0, sxx = 0, sxy = 0;
        for (size_t k = 0; k < h.rows; k++)
            if (h.C_norm[k] >= lo && h.C_norm[k] <= hi) {
                const double x = h.t[k], y = log(h.C_norm[k]);
                sx += x;
                sy += y;
                sxx += x * x;
                sxy += x * y;
                cnt++;
            }
        *rate = cnt >= 2 ? (cnt * sxy - sx * sy) / (cnt * sxx - sx * sx) : NAN;
    } else {
        cnt = -1;
    }
    if (keep != NULL)
        *keep = h;
    else
        mbd_history_free(&h);
    return cnt;
}

/* The general case: the coupled system (a full mass matrix, moving
 * constraints, both components of C off zero and not in proportion, since
 * q'(0) sets C'(0)), Baumgarte's weights alpha != beta, the integrator ode23.
 * The rate is the contract's least squares over the band, to round-off; and
 * with the projection, C'' + 2 alpha C' + beta^2 C = 0 holds exactly, so that
 * the closed form C(t) = A e^{-t} + B e^{-9t} (alpha = 5, beta = 3) gives it
 * too. The last band holds the first output. */
static void rate_is_the_least_squares_fit(void)
{
    mbd_system s = fx_coupled();
    mbd_formulation_params fp = {.mu = 1, .alpha = 5, .beta = 3};
    mbd_formulation_method("projection-baumgarte", &fp);
    const double q0[4] = {1.05, 0.1, 0.08, 0.2}, qd0[4] = {0.3, 1.2, -0.9, 0.5};
    const char *odes[3] = {"ode23", "tight", "tight"};
    const double los[3] = {2e-3, 2e-3, 2e-3}, his[3] = {5e-2, 5e-2, 1.0};
    for (int j = 0; j < 3; j++) {
        const double lo = los[j], hi = his[j];
        mbd_ode_params ode;
        mbd_ode_preset(odes[j], &ode);
        double rate = NAN, expect = NAN;
        int lib;
        const long cnt = own_rate(&s, &fp, &ode, q0, qd0, 3.0, lo, hi, &expect, &lib, NULL);
        REQUIRE_STATUS(lib, GSL_SUCCESS);
        CHECK_MSG(cnt > 100, "the test's own run has %ld outputs in the band", cnt);
        const int st = ex03_violation_rate(&s, &fp, &ode, q0, qd0, 3.0, lo, hi, &rate);
        CHECK_STATUS(st, GSL_SUCCESS);
        CHECK_MSG(fabs(rate - expect) <= 1e-9 * fabs(expect),
                  "%s: rate %.12g /s; the least squares of log|C| against t over the outputs "
                  "every t_end/4000 with %g <= |C| <= %g give %.12g /s", odes[j], rate, lo, hi,
                  expect);
        if (j >= 1) {
            /* the closed form: each C_i = A_i e^{-t} + B_i e^{-9t} from C_i(0), C_i'(0) */
            double C0[2], Cd0[2];
            fx_violation(&s, 0.0, q0, qd0, C0, Cd0);
            double sx = 0, sy = 0, sxx = 0, sxy = 0;
            long n = 0;
            for (long k = 0; k <= 4000; k++) {
                const double t = 3.0 * (double)k / 4000;
                double c2 = 0;
                for (int i = 0; i < 2; i++) {
                    const double B = -(Cd0[i] + C0[i]) / 8, A = C0[i] - B;
                    const double c = A * exp(-t) + B * exp(-9 * t);
                    c2 += c * c;
                }
                const double c = sqrt(c2);
                if (c >= lo && c <= hi) {
                    sx += t;
                    sy += log(c);
                    sxx += t * t;
                    sxy += t * log(c);
                    n++;
                }
            }
            CHECK_REL(rate, (n * sxy - sx * sy) / (n * sxx - sx * sx), 1e-4);
        }
    }
}

/* At least 10 outputs in the band: 9 are refused, 10 are enough. The band's
 * ends lie half-way (in log|C|) between outputs of the run the contract
 * describes, so that they pick exactly those outputs. */
static void ten_outputs_in_the_band(void)
{
    mbd_system s = fx_coupled();
    mbd_formulation_params fp = {.mu = 1, .alpha = 5, .beta = 3};
    mbd_formulation_method("projection-baumgarte", &fp);
    mbd_ode_params ode;
    mbd_ode_preset("tight", &ode);
    const double q0[4] = {1.05, 0.1, 0.08, 0.2}, qd0[4] = {0.3, 1.2, -0.9, 0.5};
    mbd_history h;
    double expect = NAN;
    int lib;
    own_rate(&s, &fp, &ode, q0, qd0, 4.0, 1e-9, 1e9, &expect, &lib, &h);
    if (lib != GSL_SUCCESS) {
        CHECK_STATUS(lib, GSL_SUCCESS);
        mbd_history_free(&h);
        return;
    }
    const size_t k0 = 2000;   /* t = 2 s, where |C| ~ e^{-t} falls steadily */
    if (h.rows < 2100) {
        CHECK_MSG(0, "the test's own run has %zu outputs", h.rows);
        mbd_history_free(&h);
        return;
    }
    const double *c = h.C_norm;
    const double hi = sqrt(c[k0 - 1] * c[k0]);
    for (int want = 9; want <= 10; want++) {
        const double lo = sqrt(c[k0 + want - 1] * c[k0 + want]);
        long cnt = 0;
        for (size_t k = 0; k < h.rows; k++)
            cnt += c[k] >= lo && c[k] <= hi;
        CHECK_MSG(cnt == want, "test set-up: %ld outputs in the band, meant %d", cnt, want);
        double rate = NAN;
        const int st = ex03_violation_rate(&s, &fp, &ode, q0, qd0, 4.0, lo, hi, &rate);
        if (want == 9) {
            CHECK_MSG(st == GSL_EINVAL, "9 outputs in the band [%.10g, %.10g]: status %d (%s), "
                      "expected GSL_EINVAL", lo, hi, st, mbd_strerror(st));
        } else {
            CHECK_MSG(st == GSL_SUCCESS, "10 outputs in the band [%.10g, %.10g]: status %d (%s), "
                      "expected success", lo, hi, st, mbd_strerror(st));
            double sx = 0, sy = 0, sxx = 0, sxy = 0;
            for (size_t k = k0; k < k0 + 10; k++) {
                sx += h.t[k];
                sy += log(c[k]);
                sxx += h.t[k] * h.t[k];
                sxy += h.t[k] * log(c[k]);
            }
            const double e = (10 * sxy - sx * sy) / (10 * sxx - sx * sx);
            CHECK_MSG(st != GSL_SUCCESS || fabs(rate - e) <= 1e-7 * fabs(e),
                      "10 outputs: rate %.10g, expected %.10g", rate, e);
        }
    }
    mbd_history_free(&h);
}

/* The printed sign from 1e-6 off the circle: C(t) = c0 (r1 e^{r2 t} - r2 e^{r1 t})
 * / (r1 - r2) passes 1e3 at a time t* known in closed form; the run stops
 * there (no callback is called much later), and still gives its rate. */
static void run_stops_at_1e3(void)
{
    const mbd_system base = fx_pendulum();
    fx_fail_model fm = {&base, 0, 0.0, 0, 0};
    mbd_system s = fx_failing(&fm);
    /* the projection with the printed sign: C'' - 2 alpha C' - beta^2 C = 0 exactly */
    mbd_formulation_params fp = {.kind = MBD_FORMULATION_PROJECTION, .baumgarte = 1,
                                 .alpha = 20, .beta = 20, .baumgarte_printed = 1};
    mbd_ode_params ode;
    mbd_ode_preset("tight", &ode);
    const double c0 = 1e-6, q0[3] = {sqrt(1 + c0), 0, 0}, qd0[3] = {0, 0, 0};
    const double r1 = 20 + sqrt(800.0), r2 = 20 - sqrt(800.0);
    /* t* by Newton on C(t) = 1e3 */
    double ts = log(1e3 / c0 * (r1 - r2) / -r2) / r1;
    for (int it = 0; it < 20; it++) {
        const double C = c0 * (r1 * exp(r2 * ts) - r2 * exp(r1 * ts)) / (r1 - r2);
        const double Cd = c0 * r1 * r2 * (exp(r2 * ts) - exp(r1 * ts)) / (r1 - r2);
        ts -= (C - 1e3) / Cd;
    }
    double rate = NAN;
    CHECK_STATUS(ex03_violation_rate(&s, &fp, &ode, q0, qd0, 2.0, 1e-3, 1e2, &rate), GSL_SUCCESS);
    CHECK_REL(rate, r1, 2e-3);
    CHECK_MSG(fm.t_seen < ts + 0.02, "|C| passes 1e3 at t = %.4f s, but the run went on to "
              "t = %.4f s", ts, fm.t_seen);
}

/* A run that fails (here a force that fails after t = 0.5 s) makes the
 * function fail with the run's status, though the outputs before the failure
 * would fill the band. */
static void failed_run_fails(void)
{
    const mbd_system base = fx_coupled();
    fx_fail_model fm = {&base, FXF_FORCE, 0.5, 0, 0};
    mbd_system s = fx_failing(&fm);
    mbd_formulation_params fp = {.mu = 1, .alpha = 5, .beta = 3};
    mbd_formulation_method("projection-baumgarte", &fp);
    mbd_ode_params ode;
    mbd_ode_preset("tight", &ode);
    const double q0[4] = {1.05, 0.1, 0.08, 0.2}, qd0[4] = {0.3, 1.2, -0.9, 0.5};
    double rate = NAN, own = NAN;
    int lib;
    own_rate(&s, &fp, &ode, q0, qd0, 2.0, 1e-6, 1.0, &own, &lib, NULL);
    CHECK_MSG(lib != GSL_SUCCESS && lib != MBD_EVIOLATION, "test set-up: the run gave %d", lib);
    const int st = ex03_violation_rate(&s, &fp, &ode, q0, qd0, 2.0, 1e-6, 1.0, &rate);
    CHECK_MSG(st == lib, "the run fails with status %d (%s) at t = 0.5 s; "
              "ex03_violation_rate returned %d (%s)", lib, mbd_strerror(lib), st,
              mbd_strerror(st));
}

static void errors(void)
{
    mbd_system s = fx_pendulum();
    mbd_formulation_params fp = {.mu = 1e5, .alpha = 20, .beta = 20};
    mbd_formulation_method("penalty-baumgarte", &fp);
    mbd_ode_params ode;
    mbd_ode_preset("ode23", &ode);
    const double q0[3] = {1, 0, 0}, qd0[3] = {0, 0, 0};
    double rate;
    CHECK_STATUS(ex03_violation_rate(&s, &fp, &ode, q0, qd0, 0.0, 1e-5, 1e-1, &rate), GSL_EINVAL);
    CHECK_STATUS(ex03_violation_rate(&s, &fp, &ode, q0, qd0, 1.0, 1e-1, 1e-5, &rate), GSL_EINVAL);
    CHECK_STATUS(ex03_violation_rate(&s, &fp, &ode, q0, qd0, 1.0, 1e-1, 1e-1, &rate), GSL_EINVAL);
    CHECK_STATUS(ex03_violation_rate(&s, &fp, &ode, q0, qd0, 1.0, 0.0, 1e-1, &rate), GSL_EINVAL);
    CHECK_STATUS(ex03_violation_rate(&s, &fp, &ode, q0, qd0, 1.0, -1e-3, 1e-1, &rate), GSL_EINVAL);
    CHECK_STATUS(ex03_violation_rate(&s, &fp, &ode, q0, qd0, -1.0, 1e-5, 1e-1, &rate), GSL_EINVAL);
    CHECK_STATUS(ex03_violation_rate(&s, &fp, &ode, q0, qd0, 1.0, 1e-5, 1e-1, NULL), GSL_EINVAL);
    CHECK_STATUS(ex03_violation_rate(&s, NULL, &ode, q0, qd0, 1.0, 1e-5, 1e-1, &rate), GSL_EINVAL);
    CHECK_STATUS(ex03_violation_rate(&s, &fp, NULL, q0, qd0, 1.0, 1e-5, 1e-1, &rate), GSL_EINVAL);
    /* the stable sign from the circle never reaches 0.5: no outputs in the band */
    CHECK_STATUS(ex03_violation_rate(&s, &fp, &ode, q0, qd0, 1.0, 0.5, 1.0, &rate), GSL_EINVAL);
}

static CU_TestInfo tests[] = {
    {"roots", roots},
    {"printed_sign_grows", printed_sign_grows},
    {"stable_sign_decays", stable_sign_decays},
    {"rate_is_the_least_squares_fit", rate_is_the_least_squares_fit},
    {"ten_outputs_in_the_band", ten_outputs_in_the_band},
    {"run_stops_at_1e3", run_stops_at_1e3},
    {"failed_run_fails", failed_run_fails},
    {"errors", errors},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"ex03.3", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
