/* story.c -- chapter 02's story, the scheme summary, one run from the
 * command line, and the benchmarks (see study.h). */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "mbd/cli.h"
#include "mbd/io.h"
#include "mbd/ode.h"
#include "mbd/run.h"
#include "study.h"

#define PROGRAM "ch02-integrators"

/* ------------------------------------------------------------------------ */
/* The story                                                                 */

static const char *behaviour(double x)
{
    if (x < 1.0)
        return "monotone decay";
    if (x == 1.0)
        return "zero after one step";
    if (x < 2.0)
        return "oscillating decay";
    if (x == 2.0)
        return "oscillation, constant amplitude";
    return "oscillating growth";
}

static void step1(FILE *out)
{
    fprintf(out, "Step 1. The schemes of the slides, and the test problems\n");
    fprintf(out, "  y' = f(t, y) after recasting the equations of motion in state-space form.\n");
    const char *h[] = {"--method", "document 001", "order", "f per step", "kind"};
    mbd_table *t = mbd_table_alloc(5, h);
    for (const ch02_scheme *sc = ch02_schemes; sc->name; sc++) {
        mbd_table_cell(t, "%s", sc->name);
        mbd_table_cell(t, "%s", sc->slides);
        if (sc->kind == MBD_ODE_PECE)
            mbd_table_cell(t, "k = 2..4");
        else
            mbd_table_cell(t, "%u", sc->order);
        if (sc->kind == MBD_ODE_PECE)
            mbd_table_cell(t, "m + 1");
        else if (sc->fevals < 0)
            mbd_table_cell(t, "iterative");
        else
            mbd_table_cell(t, "%d", sc->fevals);
        const char *kind = sc->adaptive ? "explicit, adaptive"
                           : sc->kind == MBD_ODE_RK ? "explicit one-step"
                           : sc->kind == MBD_ODE_AB ? "explicit multistep"
                           : sc->kind == MBD_ODE_PECE ? "predictor-corrector"
                           : sc->kind == MBD_ODE_AM ? "implicit multistep"
                                                    : "implicit one-step";
        mbd_table_cell(t, "%s", kind);
    }
    mbd_table_print(t, out, 2);
    mbd_table_free(t);
    fprintf(out, "  Multistep schemes take their first steps with RK4. Implicit ones are solved by\n"
                 "  Newton's method, exact on the chapter's problems, which are all linear in y.\n"
                 "  Problems (--problem): decay y' = -alpha y, y(0) = 1 (alpha = %g, the slides');\n"
                 "  oscillator x'' = -omega^2 x, x(0) = 1 (omega = %g); transient\n"
                 "  y' = -100 (y - cos t) - sin t, y(0) = 0, y = cos t - exp(-100 t).\n\n",
            ALPHA, OMEGA);
}

static void step2(FILE *out)
{
    fprintf(out, "Step 2. The slides' coefficient tables, checked\n");
    fprintf(out, "  (a) Adams coefficients from the slides' Lagrange form, with the factor h restored:\n"
                 "      y_{n+1} = y_n + h sum_i beta_i f_{n+1-i}, beta_i = (1/h) int L_i(t) dt\n");
    static const struct {
        int implicit;
        unsigned k;
        double denom;
        const char *name;
        double doc[5];
        int in_doc;
    } rows[] = {
        {0, 2, 2, "ab2", {0}, 0},
        {0, 3, 12, "ab3 (3-step A-B)", {23, -16, 5}, 1},
        {0, 4, 24, "ab4", {0}, 0},
        {1, 2, 2, "am2 (trapezoid)", {1, 1}, 1},
        {1, 3, 12, "am3 (\"two-step A-M\")", {5, 8, -1}, 1},
        {1, 4, 24, "am4", {0}, 0},
        {1, 5, 720, "am5 (\"four-step A-M\")", {251, 646, -264, 106, -19}, 1},
    };
    const char *h[] = {"formula", "order", "computed beta x D", "D", "document 001"};
    mbd_table *t = mbd_table_alloc(5, h);
    int all = 1;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        double beta[5];
        ch02_adams(rows[i].implicit, rows[i].k, beta);
        char buf[128] = "";
        size_t used = 0;
        int agree = 1;
        for (unsigned j = 0; j < rows[i].k; j++) {
            double v = beta[j] * rows[i].denom;
            used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%.12g", j ? ", " : "",
                                     v + 0.0);
            if (rows[i].in_doc && fabs(v - rows[i].doc[j]) > 1e-9)
                agree = 0;
        }
        all &= agree;
        mbd_table_cell(t, "%s", rows[i].name);
        mbd_table_cell(t, "%u", rows[i].k);
        mbd_table_cell(t, "%s", buf);
        mbd_table_cell(t, "%g", rows[i].denom);
        mbd_table_cell(t, "%s", !rows[i].in_doc ? "-" : agree ? "same" : "DIFFERENT");
    }
    mbd_table_print(t, out, 4);
    mbd_table_free(t);
    fprintf(out, "    %s. The slides' \"n-step A-M\" has order\n"
                 "    n + 1: their two-step A-M is am3, their four-step A-M am5 (order 5); the chapter\n"
                 "    names Adams formulas by their order.\n",
            all ? "Every printed coefficient is reproduced" : "Some printed coefficients differ");

    fprintf(out, "  (b) Runge-Kutta tables: the order conditions each row of weights satisfies\n");
    const char *h2[] = {"table, weights", "stated order", "conditions met to order", "next order's defect"};
    mbd_table *t2 = mbd_table_alloc(4, h2);
    struct { const char *name; const mbd_tableau *tb; unsigned stated; } rk[] = {
        {"RKF 2(3), c_k (Phi_1)", &ch02_tableau_rkf23_phi1, 2},
        {"RKF 2(3), c-hat_k (Phi_2)", &ch02_tableau_rkf23_phi2, 3},
        {"Cash-Karp, order 1 row", ch02_tableau_cash_karp_row(1), 1},
        {"Cash-Karp, order 2 row", ch02_tableau_cash_karp_row(2), 2},
        {"Cash-Karp, order 3 row", ch02_tableau_cash_karp_row(3), 3},
        {"Cash-Karp, order 4 row", ch02_tableau_cash_karp_row(4), 4},
        {"Cash-Karp, order 5 row", ch02_tableau_cash_karp_row(5), 5},
    };
    for (size_t i = 0; i < sizeof rk / sizeof rk[0]; i++) {
        double worst;
        unsigned p = ch02_tableau_order(rk[i].tb, rk[i].tb->b, 1e-14, &worst);
        mbd_table_cell(t2, "%s", rk[i].name);
        mbd_table_cell(t2, "%u", rk[i].stated);
        mbd_table_cell(t2, "%u", p);
        if (p < 5)
            mbd_table_num(t2, worst, 4);
        else
            mbd_table_cell(t2, "(order 6 not checked)");
    }
    mbd_table_print(t2, out, 4);
    mbd_table_free(t2);
    /* the library's tableaux against the slides' tables */
    double d = 0.0;
    const mbd_tableau *lib[2] = {&mbd_tableau_rkf23, &mbd_tableau_cash_karp};
    const mbd_tableau *doc_b[2] = {&ch02_tableau_rkf23_phi2, ch02_tableau_cash_karp_row(5)};
    const mbd_tableau *doc_bh[2] = {&ch02_tableau_rkf23_phi1, ch02_tableau_cash_karp_row(4)};
    for (int k = 0; k < 2; k++) {
        const unsigned S = lib[k]->stages;
        for (unsigned i = 0; i < S; i++) {
            d = fmax(d, fabs(lib[k]->c[i] - doc_b[k]->c[i]));
            d = fmax(d, fabs(lib[k]->b[i] - doc_b[k]->b[i]));
            d = fmax(d, fabs(lib[k]->bhat[i] - doc_bh[k]->b[i]));
            for (unsigned j = 0; j < S; j++)
                d = fmax(d, fabs(lib[k]->a[i * S + j] - doc_b[k]->a[i * S + j]));
        }
    }
    fprintf(out, "    The RKF c_k miss order 3 (sum c alpha^2 = 353/1056, not 1/3; sum c beta alpha =\n"
                 "    117/704, not 1/6); the c-hat_k miss order 4 (sum c-hat alpha^3 = 53/240, not 1/4).\n"
                 "    The row beta_3l equals c_l, so f_3 = f(y-hat_{n+1}): first same as last if Phi_1 were\n"
                 "    propagated. The toolkit's rkf23 propagates Phi_2 (order 3, 4 evaluations a step) and\n"
                 "    estimates the error with Phi_1. Library tableaux vs the slides' tables: largest\n"
                 "    difference %.1e (%s).\n\n",
            d, d == 0.0 ? "identical" : "they differ");
}

static int step3(FILE *out)
{
    fprintf(out, "Step 3. Explicit and implicit Euler on y' = -%g y, y(0) = 1: n = 20 steps\n", ALPHA);
    ch02_problem pr;
    ch02_problem_init(&pr, CH02_DECAY, ALPHA, OMEGA);
    const double hs[] = {0.05, 0.1, 0.15, 0.2, 0.25};
    const int N = 20;
    const char *h1[] = {"h", "alpha h", "Euler y_20", "(1 - alpha h)^20", "slides' ^19", "behaviour"};
    const char *h2[] = {"h", "implicit Euler y_20", "(1 + alpha h)^-20", "behaviour"};
    mbd_table *t1 = mbd_table_alloc(6, h1), *t2 = mbd_table_alloc(4, h2);
    int exact_all = 1;
    for (size_t i = 0; i < sizeof hs / sizeof hs[0]; i++) {
        const double h = hs[i], x = h * ALPHA;
        mbd_ode_params pe, pi;
        ch02_params_of("euler", 4, 1, 1, h, &pe);
        ch02_params_of("implicit-euler", 4, 1, 1, h, &pi);
        ch02_result re, ri;
        int st = ch02_solve(&pe, &pr, N * h, 0.0, NULL, NULL, NULL, &re);
        if (st == GSL_SUCCESS)
            st = ch02_solve(&pi, &pr, N * h, 0.0, NULL, NULL, NULL, &ri);
        if (st != GSL_SUCCESS)
            return st;
        const double cf = pow(1 - x, N), cfi = pow(1 + x, -N);
        exact_all &= fabs(re.y[0] - cf) <= 1e-13 * fmax(fabs(cf), 1e-300) || (cf == 0 && re.y[0] == 0);
        exact_all &= fabs(ri.y[0] - cfi) <= 1e-13 * cfi;
        mbd_table_cell(t1, "%g", h);
        mbd_table_cell(t1, "%g", x);
        mbd_table_cell(t1, "%.6e", re.y[0] + 0.0);
        mbd_table_cell(t1, "%.6e", cf + 0.0);
        mbd_table_cell(t1, "%.6e", pow(1 - x, N - 1) + 0.0);
        mbd_table_cell(t1, "%s", behaviour(x));
        mbd_table_cell(t2, "%g", h);
        mbd_table_cell(t2, "%.6e", ri.y[0]);
        mbd_table_cell(t2, "%.6e", cfi);
        mbd_table_cell(t2, "monotone decay");
    }
    mbd_table_print(t1, out, 2);
    mbd_table_print(t2, out, 2);
    mbd_table_free(t1);
    mbd_table_free(t2);
    fprintf(out, "  %s y_n = (1 - alpha h)^n y_0 and y_n = (1 + alpha h)^-n y_0 to rounding;\n"
                 "  the slides' y_{n+1} = (1 - alpha h)^n y_0 is one power short. Explicit Euler decays\n"
                 "  only for 0 < alpha h < 2 (the slides' h < 2/alpha); implicit Euler for every h > 0.\n\n",
            exact_all ? "Both runs equal" : "The runs DIFFER from");
    return GSL_SUCCESS;
}

static int step4(FILE *out)
{
    fprintf(out, "Step 4. Implicit Euler: y_{n+1} = y_n + h f(y_{n+1}) solved two ways (t = 0 ... 2)\n");
    ch02_problem pr;
    ch02_problem_init(&pr, CH02_DECAY, ALPHA, OMEGA);
    const double xs[] = {0.25, 0.5, 0.8, 1.25, 5.0};
    const char *h[] = {"alpha h", "fixed point: iterations/step", "y(2)", "Newton: iterations/step", "y(2)", "(1 + alpha h)^-n"};
    mbd_table *t = mbd_table_alloc(6, h);
    for (size_t i = 0; i < sizeof xs / sizeof xs[0]; i++) {
        const double hh = xs[i] / ALPHA;
        mbd_ode_params pf, pn;
        ch02_params_of("implicit-euler", 4, 1, 1, hh, &pf);
        pf.fixed_point = 1;
        ch02_params_of("implicit-euler", 4, 1, 1, hh, &pn);
        ch02_result rf, rn;
        int sf = ch02_solve(&pf, &pr, 2.0, 0.0, NULL, NULL, NULL, &rf);
        int sn = ch02_solve(&pn, &pr, 2.0, 0.0, NULL, NULL, NULL, &rn);
        if (sn != GSL_SUCCESS)
            return sn;
        mbd_table_cell(t, "%g", xs[i]);
        if (sf == GSL_SUCCESS) {
            mbd_table_cell(t, "%.1f", (double)rf.stats.ode.iterations / (double)rf.stats.ode.steps);
            mbd_table_cell(t, "%.6e", rf.y[0]);
        } else {
            mbd_table_cell(t, "diverges (step %ld)", rf.stats.ode.steps + 1);
            mbd_table_cell(t, "-");
        }
        mbd_table_cell(t, "%.1f", (double)rn.stats.ode.iterations / (double)rn.stats.ode.steps);
        mbd_table_cell(t, "%.6e", rn.y[0]);
        mbd_table_cell(t, "%.6e", pow(1 + xs[i], -2.0 / hh));
    }
    mbd_table_print(t, out, 2);
    mbd_table_free(t);
    fprintf(out, "  Fixed-point iteration y^{k+1} = y_n + h f(y^k) contracts by h |df/dy| = alpha h per\n"
                 "  iteration: it converges only for alpha h < 1, i.e. h < %g here, which gives away the\n"
                 "  A-stability it was meant to deliver. Newton's method converges at every h (in one\n"
                 "  correction for a linear f, plus one to confirm it). For an Adams-Moulton corrector with\n"
                 "  leading weight beta_0 the same iteration needs alpha h beta_0 < 1: trapezoid 2,\n"
                 "  am3 2.4, am4 2.67, am5 2.87.\n"
                 "  The slides' condition |1/(1 + alpha h)| < 1 holds for h > 0 OR h < -2/alpha (the\n"
                 "  slides write \"and\", which no h satisfies).\n\n",
            1.0 / ALPHA);
    return GSL_SUCCESS;
}

static void step5(FILE *out, const ch02_study *s)
{
    fprintf(out, "Step 5. The step at which each scheme turns unstable on y' = -%g y\n", ALPHA);
    fprintf(out, "  measured: the library runs the scheme for %d steps at h = x/alpha; stable when\n"
                 "  |y| does not grow over the run's last quarter; a scan x = 0.05 x 1.05^k, then bisection.\n"
                 "  theory: the first x where a root zeta of the characteristic polynomial at z = -x\n"
                 "  leaves the unit circle. Limits in x = h alpha; \"h limit\" at alpha = 10.\n",
            CH02_STABILITY_STEPS);
    const char *h[] = {"scheme", "document 001", "theory", "measured", "difference", "h limit", "runs"};
    mbd_table *t = mbd_table_alloc(7, h);
    for (size_t i = 0; i < s->nstab; i++) {
        const stab_row *r = &s->stab[i];
        mbd_table_cell(t, "%s", r->label);
        mbd_table_cell(t, "%s", r->slides);
        if (r->theory_found)
            mbd_table_cell(t, "%.4f", r->x_theory);
        else
            mbd_table_cell(t, "none (A-stable)");
        if (r->found)
            mbd_table_cell(t, "%.4f", r->x_measured);
        else
            mbd_table_cell(t, "stable to %g", X_MAX);
        if (r->found && r->theory_found)
            mbd_table_cell(t, "%+.1e", r->x_measured - r->x_theory);
        else
            mbd_table_cell(t, "-");
        if (r->found)
            mbd_table_cell(t, "%.5f", r->x_measured / ALPHA);
        else
            mbd_table_cell(t, "any");
        mbd_table_cell(t, "%ld", r->runs);
    }
    mbd_table_print(t, out, 2);
    mbd_table_free(t);
    fprintf(out, "  The slides give h < 2/alpha for Euler and \"any h > 0\" for implicit Euler: both\n"
                 "  reproduced. As the slides say, higher-order Runge-Kutta is more stable (2, 2, 2.51 for\n"
                 "  order 3, 2.79) and higher-order Adams-Bashforth less (1, 0.545, 0.3); the implicit\n"
                 "  Adams-Moulton formulas reach much further (6, 3, 1.84) and the trapezoid never fails.\n"
                 "  A predictor-corrector sits between its two parts, and more corrections do not\n"
                 "  approach the corrector's stability: P(EC)^m converges to it only while |h beta_0 z| < 1.\n\n");
}

static void step6(FILE *out, const ch02_study *s)
{
    fprintf(out, "Step 6. Just below and just above: the amplification per step, measured and theory\n");
    fprintf(out, "  measured: the growth of |y| per step over the last %d of %d steps; theory: max |zeta|\n",
            CH02_STABILITY_STEPS / 4, CH02_STABILITY_STEPS);
    const char *h[] = {"scheme", "0.98 x*: measured", "theory", "|y_2000|", "1.02 x*: measured", "theory", "|y_2000|"};
    mbd_table *t = mbd_table_alloc(7, h);
    for (size_t i = 0; i < s->nstab; i++) {
        const stab_row *r = &s->stab[i];
        if (!r->theory_found)
            continue;
        mbd_table_cell(t, "%s", r->label);
        mbd_table_cell(t, "%.6f", r->below.growth);
        mbd_table_cell(t, "%.6f", r->r_below);
        mbd_table_cell(t, "%.2e", r->below.y_end);
        if (r->above.blowup_step > 0) {
            mbd_table_cell(t, "blows up at step %ld", r->above.blowup_step);
            mbd_table_cell(t, "%.6f", r->r_above);
            mbd_table_cell(t, "> 1e100");
        } else {
            mbd_table_cell(t, "%.6f", r->above.growth);
            mbd_table_cell(t, "%.6f", r->r_above);
            mbd_table_cell(t, "%.2e", r->above.y_end);
        }
    }
    mbd_table_print(t, out, 2);
    mbd_table_free(t);
    fprintf(out, "  Below the limit every scheme decays, above it every one grows, by the factor its\n"
                 "  characteristic polynomial predicts. A multistep scheme grows from the tiny part of\n"
                 "  its start that excites the parasitic root, so |y| may still be small after 2000\n"
                 "  steps; the growth per step tells.\n\n");
}

static void step7(FILE *out, const ch02_study *s)
{
    fprintf(out, "Step 7. Convergence: the error as h halves, observed order log2 e(h)/e(h/2)\n");
    fprintf(out, "  decay: y' = -10 y, error at t = 1, h0 = 0.01 (order 5: 0.04), then h0/2, h0/4, h0/8;\n"
                 "  transient: y' = -100 (y - cos t) - sin t, error at t = 0.05, h0 = 0.002 (order 5: 0.005)\n");
    const char *h[] = {"scheme", "nominal", "decay e(h0)", "e(h0/8)", "observed", "transient e(h0/8)", "observed"};
    mbd_table *t = mbd_table_alloc(7, h);
    for (size_t i = 0; i < s->nconv; i++) {
        const conv_row *r = &s->conv[i];
        mbd_table_cell(t, "%s", r->label);
        mbd_table_cell(t, "%u", r->order);
        mbd_table_num(t, r->err[0], 3);
        mbd_table_num(t, r->err[3], 3);
        if (isfinite(r->ord[3]))
            mbd_table_cell(t, "%.2f%s", r->ord[3], r->note ? " *" : "");
        else
            mbd_table_cell(t, "-");
        mbd_table_num(t, r->err_tr[3], 3);
        if (isfinite(r->ord_tr[3]))
            mbd_table_cell(t, "%.2f", r->ord_tr[3]);
        else
            mbd_table_cell(t, "-");
    }
    mbd_table_print(t, out, 2);
    mbd_table_free(t);
    fprintf(out, "  * Fehlberg's order-2 formula: its third-order error terms are only +-1/2112, so at\n"
                 "    ordinary steps it looks third order or better; order 2 shows only once h lambda\n"
                 "    is below about 1e-3 (the second row).\n"
                 "  The slides' \"error O(h^p)\" is the global error; a step's local error is O(h^(p+1)).\n"
                 "  On the linear decay problem midpoint, Heun and Ralston are identical (one R(z)); on\n"
                 "  the non-autonomous problem they differ.\n\n");
}

static void step8(FILE *out, const ch02_study *s)
{
    fprintf(out, "Step 8. Energy on the undamped oscillator x'' = -x, h omega = y = %g, t = 0 ... %g\n",
            H_ENERGY * OMEGA, T_ENERGY);
    const char *h[] = {"scheme", "E(20)/E(0)", "per step", "|R(iy)|^2", "closed form", "value", "max rel. dev."};
    mbd_table *t = mbd_table_alloc(7, h);
    for (size_t i = 0; i < s->nenergy; i++) {
        const energy_row *r = &s->energy[i];
        mbd_table_cell(t, "%s", r->method);
        mbd_table_cell(t, "%.8f", r->ratio_end);
        mbd_table_cell(t, "%.12f", r->factor);
        if (r->one_step)
            mbd_table_cell(t, "%.12f", r->theory);
        else
            mbd_table_cell(t, "-");
        mbd_table_cell(t, "%s", r->closed_text);
        if (r->one_step) {
            mbd_table_cell(t, "%.12f", r->closed);
            mbd_table_num(t, r->max_dev, 2);
        } else {
            mbd_table_cell(t, "-");
            mbd_table_cell(t, "-");
        }
    }
    mbd_table_print(t, out, 2);
    mbd_table_free(t);
    fprintf(out, "  A one-step scheme multiplies the state by R(z) with z = +-i h omega, so the energy\n"
                 "  by |R(i h omega)|^2 each step, exactly: explicit Euler gains 1 + (h omega)^2 (%.0f%%\n"
                 "  a step here), implicit Euler loses as much, RK4 loses 1.4e-8 a step, the trapezoid\n"
                 "  keeps it. Multistep schemes have no single factor.\n\n",
            100 * H_ENERGY * H_ENERGY * OMEGA * OMEGA);
}

static int step9(FILE *out, ch02_study *s)
{
    fprintf(out, "Step 9. Step-size control on the transient problem, t = 0 ... %g, rtol = atol = %g\n",
            T_STEP, TOL_STEP);
    ch02_problem pr;
    ch02_problem_init(&pr, CH02_TRANSIENT, ALPHA, OMEGA);
    const double hs[] = {0.05, 0.02, 0.002};
    fprintf(out, "  (a) fixed-step RK4:\n");
    const char *hf[] = {"h", "h x 100", "steps", "result"};
    mbd_table *tf = mbd_table_alloc(4, hf);
    for (size_t i = 0; i < sizeof hs / sizeof hs[0]; i++) {
        mbd_ode_params p;
        ch02_params_of("rk4", 4, 1, 1, hs[i], &p);
        ch02_result r;
        int st = ch02_solve(&p, &pr, T_STEP, 0.0, NULL, NULL, NULL, &r);
        mbd_table_cell(tf, "%g", hs[i]);
        mbd_table_cell(tf, "%g", hs[i] * CH02_TRANSIENT_RATE);
        mbd_table_cell(tf, "%ld", r.stats.ode.steps);
        if (st != GSL_SUCCESS)
            mbd_table_cell(tf, "blows up: non-finite at t = %.3g", r.fail.time);
        else if (r.max_error > 1.0)
            mbd_table_cell(tf, "unstable: |y| reaches %.2e", r.max_error);
        else
            mbd_table_cell(tf, "max |error| %.2e", r.max_error);
    }
    mbd_table_print(tf, out, 4);
    mbd_table_free(tf);
    fprintf(out, "      A step that suits cos t (0.05) is unstable for the fast mode exp(-100 t); a\n"
                 "      fixed step small enough for the transient is wasted on the rest.\n");

    fprintf(out, "  (b) adaptive: accept when err <= 1, err the RMS of estimate / (atol + rtol |y|);\n"
                 "      next h = h min(5, max(0.2, 0.9 err^(-1/(q+1)))), q the lower order of the pair\n");
    const char *ha[] = {"scheme", "accepted", "rejected", "f evals", "max |error|", "/ tol", "|error(2)|", "/ tol"};
    mbd_table *ta = mbd_table_alloc(8, ha);
    for (size_t i = 0; i < s->nstep; i++) {
        const step_row *r = &s->step[i];
        mbd_table_cell(ta, "%s", r->label);
        mbd_table_cell(ta, "%ld", r->r.stats.ode.steps);
        mbd_table_cell(ta, "%ld", r->r.stats.ode.rejected);
        mbd_table_cell(ta, "%ld", r->r.stats.ode.fevals);
        mbd_table_num(ta, r->r.max_error, 3);
        mbd_table_cell(ta, "%.2f", r->r.max_error / TOL_STEP);
        mbd_table_num(ta, r->r.error, 3);
        mbd_table_cell(ta, "%.2f", r->r.error / TOL_STEP);
    }
    mbd_table_print(ta, out, 4);
    mbd_table_free(ta);
    fprintf(out, "      Step doubling and Cash-Karp hold the error near the tolerance; the slides'\n"
                 "      Fehlberg 2(3) pair misses it by a factor of about 50, whichever of its two\n"
                 "      solutions is propagated. (d) shows why.\n");

    fprintf(out, "  (c) the step sizes: after the transient cos t alone would allow far longer steps\n");
    const char *hb[] = {"scheme", "h min", "h max", "late h x 100", "formula's limit", "steps on y' = -sin t"};
    mbd_table *tb = mbd_table_alloc(6, hb);
    for (size_t i = 0; i < s->nstep; i++) {
        const step_row *r = &s->step[i];
        mbd_table_cell(tb, "%s", r->label);
        mbd_table_num(tb, r->hmin, 3);
        mbd_table_num(tb, r->hmax, 3);
        mbd_table_cell(tb, "%.3f", r->late_x);
        if (r->p.doubling)
            mbd_table_cell(tb, "%.3f (2 x %.3f)", 2 * r->x_limit, r->x_limit);
        else
            mbd_table_cell(tb, "%.3f", r->x_limit);
        mbd_table_cell(tb, "%ld", r->smooth_steps);
    }
    mbd_table_print(tb, out, 4);
    mbd_table_free(tb);
    fprintf(out, "      On y' = -sin t, the same solution without the fast mode, the schemes need 9 to\n"
                 "      19 steps. On the transient problem the steps stay near h x 100 = 2 long after\n"
                 "      exp(-100 t) has died out: an explicit formula must keep the fast mode's factor\n"
                 "      R(-100 h) small, on the propagated solution and in the error estimate alike, so\n"
                 "      the fastest time scale dictates the step, as the slides' general comments say.\n");

    fprintf(out, "  (d) one step of h = z on y' = -y: the library's error estimate beside the true error\n"
                 "      of the solution it propagates\n");
    const char *hd[] = {"z", "rk4-doubling est.", "error", "rkf23 est.", "error", "error / est.", "cash-karp est.", "error"};
    mbd_table *td = mbd_table_alloc(8, hd);
    for (size_t i = 0; i < N_EST; i++) {
        const estimate_row *e = &s->est[i];
        mbd_table_cell(td, "%g", e->z);
        mbd_table_num(td, e->est[0], 3);
        mbd_table_num(td, e->err[0], 3);
        mbd_table_num(td, e->est[1], 3);
        mbd_table_num(td, e->err[1], 3);
        mbd_table_cell(td, "%.1f", e->err[1] / e->est[1]);
        mbd_table_num(td, e->est[2], 3);
        mbd_table_num(td, e->err[2], 3);
    }
    mbd_table_print(td, out, 4);
    mbd_table_free(td);
    fprintf(out, "      An embedded estimate is the difference of two formulas. Fehlberg chose c_k so\n"
                 "      that Phi_1's third-order error terms are tiny (+-1/2112 against 1/6 for a plain\n"
                 "      second-order method): Phi_1 and Phi_2 then err by nearly the same h^4 term, which\n"
                 "      their difference cannot see: the estimate is 6 to 14 times too small once\n"
                 "      z > 0.1, and the errors of many steps add up. Step doubling's\n"
                 "      (eta(H/2) - eta(H))/15 estimates its error well; Cash-Karp's order-4 row errs\n"
                 "      on the safe side for the order-5 solution it propagates.\n");

    const step_row *r = &s->step[0];   /* rk4-doubling */
    fprintf(out, "  (e) the first steps of rk4-doubling (estimate: err of the accepted step, <= 1)\n");
    const char *hs2[] = {"step", "t", "h", "estimate"};
    mbd_table *t2 = mbd_table_alloc(4, hs2);
    for (size_t k = 0; k < r->n && k < 6; k++) {
        mbd_table_cell(t2, "%zu", k + 1);
        mbd_table_cell(t2, "%.4e", r->t[k]);
        mbd_table_cell(t2, "%.4e", r->h[k]);
        mbd_table_cell(t2, "%.3f", r->est[k]);
    }
    mbd_table_print(t2, out, 4);
    mbd_table_free(t2);
    fprintf(out, "      The first step is the one chosen by the starting rule (Hairer, Norsett and Wanner's);\n"
                 "      then h grows by at most 5 a step, and the estimate settles below 0.9^5 = 0.59,\n"
                 "      where the controller aims.\n");
    fprintf(out, "  (f) the accepted steps that followed a rejection (the attempt was longer)\n");
    const char *hs3[] = {"scheme", "step", "t", "h", "estimate", "attempts rejected"};
    mbd_table *t3 = mbd_table_alloc(6, hs3);
    int rows = 0;
    for (size_t i = 0; i < s->nstep; i++) {
        const step_row *q = &s->step[i];
        long prev = 0;
        for (size_t k = 0; k < q->n && rows < 14; k++) {
            if (q->rej[k] > prev) {
                mbd_table_cell(t3, "%s", q->label);
                mbd_table_cell(t3, "%zu", k + 1);
                mbd_table_cell(t3, "%.4e", q->t[k]);
                mbd_table_cell(t3, "%.4e", q->h[k]);
                mbd_table_cell(t3, "%.3f", q->est[k]);
                mbd_table_cell(t3, "%ld", q->rej[k] - prev);
                rows++;
            }
            prev = q->rej[k];
        }
    }
    mbd_table_print(t3, out, 4);
    mbd_table_free(t3);
    fprintf(out, "      The rejections come late, where the step has grown to about the propagated\n"
                 "      formula's stability limit (rkf23: h x 100 = 2.5 against 2.46): the fast mode,\n"
                 "      amplified, trips the estimate, the step shrinks, and the cycle repeats.\n");
    fprintf(out, "\n");
    return GSL_SUCCESS;
}

static void step10(FILE *out)
{
    fprintf(out, "Step 10. Where the slides are wrong or incomplete, and what the chapter does\n");
    fprintf(out,
            "  - Euler: y(t_0 + h) = y(t_0) + h f(y_0, t) should read f(y_0, t_0).\n"
            "  - Closed forms: y_n = (1 - alpha h)^n y_0 (Euler) and y_n = (1 + alpha h)^-n y_0\n"
            "    (implicit Euler); the slides write y_{n+1} on the left (Step 3).\n"
            "  - Implicit Euler stability: h > 0 OR h < -2/alpha, not \"and\" (Step 4).\n"
            "  - Fixed-point iteration converges only for h |df/dy| < 1; for stiff problems use\n"
            "    Newton (Step 4).\n"
            "  - Adams form: y_{n+1} = y_n + h sum beta_i f_{n+1-i}; the factor h is missing (Step 2).\n"
            "  - \"An n-step A-M has order n + 1\": the two-step A-M is order 3 (am3), the four-step\n"
            "    order 5 (am5); the chapter names them by order (Step 2).\n"
            "  - \"Error O(h^p)\" is the global error; the local error is O(h^(p+1)) (Step 7).\n"
            "  - Step-size control: e_p(t_0 + h) = e_p'(t_0) h^(p+1) mixes e_p with h^p e_p; the rule\n"
            "    \"H/h >> 2\" has no threshold, no acceptance branch and no safety factor (the slide's\n"
            "    next bullet is empty); the chapter uses err <= 1 to accept and a safety factor 0.9\n"
            "    (Step 9, exercise 02.3).\n"
            "  - Step doubling with RK4 costs 7 more evaluations than one step (11 in all), not 2.\n"
            "  - P(EC)^m: whether f is evaluated after the last correction is not said; the chapter's\n"
            "    schemes do (P(EC)^m E), so f_{n+1} belongs to y_{n+1}.\n"
            "  - The \"Runge-Kutta-Fehlberg\" table is Fehlberg's 2(3) pair, not the familiar 4(5)\n"
            "    (Step 2); the Cash-Karp table's stray \"8\" and \"(5)\" cells are extraction debris.\n"
            "  - The stability figures (RK, A-B, A-M, P(EC)^m) and the three alpha = 10 figures have\n"
            "    no data in the text; the chapter draws them (--plot).\n");
}

int ch02_story(FILE *out, ch02_study *s)
{
    int st = ch02_compute_all(s);
    if (st != GSL_SUCCESS)
        return st;
    fprintf(out, "Chapter 02 -- Integrators: stability, order, energy and step-size control\n");
    fprintf(out, "Reproduces document 001 (Chandramouli 2023), Sec. 3 \"Numerical Methods\".\n\n");
    step1(out);
    step2(out);
    st = step3(out);
    if (st == GSL_SUCCESS)
        st = step4(out);
    if (st != GSL_SUCCESS)
        return st;
    step5(out, s);
    step6(out, s);
    step7(out, s);
    step8(out, s);
    st = step9(out, s);
    if (st != GSL_SUCCESS)
        return st;
    step10(out);
    return GSL_SUCCESS;
}

/* a summary key: prefix and name, with - written _ */
static void key_of(char *buf, size_t size, const char *prefix, const char *name)
{
    snprintf(buf, size, "%s%s", prefix, name);
    for (char *c = buf; *c; c++)
        if (*c == '-')
            *c = '_';
}

/* ------------------------------------------------------------------------ */
/* The scheme summary (--summary alone)                                      */

int ch02_scheme_summary(FILE *out, ch02_study *s)
{
    int st = ch02_compute_all(s);
    if (st != GSL_SUCCESS)
        return st;
    char key[80];
    int bad = 0;
    for (const ch02_scheme *sc = ch02_schemes; sc->name; sc++) {
        ch02_settings set;
        ch02_settings_default(&set);
        key_of(key, sizeof key, "order_", sc->name);
        bad |= mbd_summary_long(out, key, (long)ch02_order(sc, &set));
        const char *cm = strcmp(sc->name, "rk4-doubling") == 0 ? "rk4" : sc->name;
        for (size_t i = 0; i < s->nconv; i++)
            if (s->conv[i].method && strcmp(s->conv[i].method, cm) == 0) {
                key_of(key, sizeof key, "observed_order_", sc->name);
                bad |= mbd_summary_double(out, key, s->conv[i].ord[3]);
                break;
            }
        for (size_t i = 0; i < s->nstab; i++) {
            const stab_row *r = &s->stab[i];
            /* rk4-doubling propagates RK4 steps; midpoint and ralston share Heun's R(z) */
            const char *m = strcmp(sc->name, "rk4-doubling") == 0 ? "rk4"
                            : strcmp(sc->name, "midpoint") == 0 || strcmp(sc->name, "ralston") == 0
                                ? "heun"
                                : sc->name;
            if (r->method == NULL || strcmp(r->method, m) != 0)
                continue;
            if (r->theory_found) {
                key_of(key, sizeof key, "limit_", sc->name);
                bad |= mbd_summary_double(out, key, r->x_theory);
            } else {
                key_of(key, sizeof key, "a_stable_", sc->name);
                bad |= mbd_summary_long(out, key, 1);
            }
            if (r->found) {
                key_of(key, sizeof key, "limit_measured_", sc->name);
                bad |= mbd_summary_double(out, key, r->x_measured);
            } else {
                key_of(key, sizeof key, "stable_to_", sc->name);
                bad |= mbd_summary_double(out, key, X_MAX);
            }
            break;
        }
    }
    for (size_t i = 0; i < s->nenergy; i++)
        if (s->energy[i].one_step) {
            key_of(key, sizeof key, "energy_factor_", s->energy[i].method);
            bad |= mbd_summary_double(out, key, s->energy[i].factor);
        }
    for (size_t i = 0; i < s->nstep; i++) {
        if (s->step[i].method == NULL)
            continue;
        key_of(key, sizeof key, "transient_error_", s->step[i].method);
        bad |= mbd_summary_double(out, key, s->step[i].r.max_error);
    }
    return bad ? MBD_ENONFINITE : GSL_SUCCESS;
}

/* ------------------------------------------------------------------------ */
/* One run (--method, --problem, ...)                                        */

typedef struct {
    const ch02_problem *pr;
    mbd_csv *csv;
    int adaptive;
} run_ctx;

static int run_output(void *ctx, double t, const double y[], const mbd_run_info *info,
                      mbd_failure *fail)
{
    run_ctx *c = ctx;
    if (c->csv == NULL)
        return GSL_SUCCESS;
    const double E = ch02_energy(c->pr, y);
    double row[5];
    size_t k = 0;
    row[k++] = t;
    row[k++] = y[0];
    if (c->pr->kind == CH02_OSCILLATOR) {
        row[k++] = y[1];
        row[k++] = E;
    }
    if (c->adaptive)
        row[k++] = info->h;
    int st = mbd_csv_row(c->csv, row);
    if (st != GSL_SUCCESS && c->pr->kind == CH02_OSCILLATOR && isfinite(y[0]) && isfinite(y[1]))
        return mbd_failure_set(fail, st, t, "the energy E overflows at t = %g (x = %.3g, x_dot = "
                               "%.3g): CSV rows up to the previous output written", t, y[0], y[1]);
    if (st != GSL_SUCCESS)
        return mbd_failure_set(fail, st, t, "the state is not finite at t = %g: CSV rows up to "
                               "the previous output written", t);
    return GSL_SUCCESS;
}

/* >> step-bound */
/* How long a step of scheme p can be on problem pr: the problem's mode is
 * lambda = -alpha (decay), -100 (transient) or +-i omega (oscillator), and a
 * step with |h lambda| past the scheme's limit along that direction makes the
 * solution grow. An explicit scheme that grows at every step on the imaginary
 * axis (explicit Euler, Cash-Karp) is bounded instead where the growth per
 * step reaches 2: a step that doubles the amplitude is no step at all. */
typedef struct {
    double rate;           /* |lambda| */
    const char *x_name;    /* "h alpha", "h x 100", "h omega" */
    double x;              /* the limit of |h lambda| (NAN: none, an A-stable scheme) */
    double h;              /* x / rate */
    int stable;            /* 1: x is the stability limit; 0: where the growth reaches 2 */
} step_bound;

/* the first y in (0, y_max] where max |zeta| at z = i y exceeds `level`; NAN if none */
static double growth_radius(const ch02_charpoly *cp, double level, double y_max)
{
    double lo = 0.0;
    for (double y = 0.01;; y = fmin(1.01 * y, y_max)) {
        if (ch02_root_modulus(cp, I * y) > level) {
            double hi = y;
            while (hi - lo > 1e-12 * hi) {
                const double mid = 0.5 * (lo + hi);
                if (ch02_root_modulus(cp, I * mid) > level)
                    hi = mid;
                else
                    lo = mid;
            }
            return 0.5 * (lo + hi);
        }
        lo = y;
        if (y >= y_max)
            return NAN;
    }
}

static void bound_of(const mbd_ode_params *p, const ch02_problem *pr, step_bound *b)
{
    b->rate = pr->kind == CH02_DECAY ? pr->alpha
              : pr->kind == CH02_TRANSIENT ? CH02_TRANSIENT_RATE : pr->omega;
    b->x_name = pr->kind == CH02_DECAY ? "h alpha"
                : pr->kind == CH02_TRANSIENT ? "h x 100" : "h omega";
    b->x = b->h = NAN;
    b->stable = 1;
    mbd_ode_params pf = *p;
    pf.adaptive = pf.doubling = 0;   /* the propagated formula */
    ch02_charpoly cp;
    if (ch02_charpoly_of(&pf, &cp) != GSL_SUCCESS)
        return;
    double x;
    if (pr->kind != CH02_OSCILLATOR) {
        if (ch02_limit_theory(&cp, X_MAX, &x))
            b->x = x;
    } else if (ch02_limit_imaginary(&cp, X_MAX, &x)) {
        b->x = x;
    } else if (x == 0.0) {
        b->x = growth_radius(&cp, 2.0, X_MAX);
        b->stable = 0;
    }
    if (p->doubling)
        b->x *= 2.0;   /* step doubling propagates two half steps */
    b->h = b->x / b->rate;
}
/* << step-bound */

/* Checks a run before it starts: every option value is honoured exactly or
 * refused here, by name, with the reason (MBD_EUSAGE). */
int ch02_check_run(const mbd_cli_spec *spec, const mbd_cli_common *opt, const ch02_run_spec *rs,
                     const mbd_ode_params *p)
{
    int st = mbd_cli_check_run(spec, opt, 0.0, rs->t_end, rs->dt_out, p, stderr);
    if (st != GSL_SUCCESS)
        return st;
    if (opt->max_outputs < 2)
        return mbd_cli_usage_error(spec, stderr, "--max-outputs %ld: every run has at least two "
                                   "outputs, its start and its end", opt->max_outputs);
    if (!p->adaptive && rs->dt_out <= 0) {
        const double rows = mbd_run_fixed_steps(0.0, rs->t_end, p->h) + 1.0;
        if (rows > (double)opt->max_outputs)
            return mbd_cli_usage_error(spec, stderr, "outputs after every step of %g from t = 0 "
                                       "to %g (--t-end) would be %.3g rows, more than "
                                       "--max-outputs %ld; give --dt-out (or raise "
                                       "--max-outputs)", p->h, rs->t_end, rows,
                                       opt->max_outputs);
    }
    if (p->adaptive) {
        step_bound b;
        bound_of(p, &rs->pr, &b);
        const double need = rs->t_end / b.h;
        char count[32];
        if (isfinite(need))
            snprintf(count, sizeof count, "at least %.3g", need);
        else
            snprintf(count, sizeof count, "more than %.3g", DBL_MAX);
        if (isfinite(b.h) && need > (double)opt->max_steps)
            return mbd_cli_usage_error(
                spec, stderr, "--t-end %g: %s's steps on %s cannot be longer than %.3g (%s = "
                "%.4g, where it %s), so the run would need %s steps, and "
                "--max-steps is %ld; choose a shorter --t-end (or raise --max-steps)",
                rs->t_end, p->name, rs->pr.name, b.h, b.x_name, b.x,
                b.stable ? "turns unstable" : "doubles the amplitude a step", count,
                opt->max_steps);
        /* below 16 eps t_end the library cannot resolve t + h from t (ode.h: hmin) */
        const double h_res = 16.0 * DBL_EPSILON * rs->t_end;
        if (isfinite(b.h) && h_res > b.h)
            return mbd_cli_usage_error(
                spec, stderr, "--t-end %g: the shortest step such a run can resolve, 16 eps "
                "t_end = %.3g, is longer than %s's steps on %s can be (%.3g)",
                rs->t_end, h_res, p->name, rs->pr.name, b.h);
    }
    return GSL_SUCCESS;
}

/* max |zeta| of the propagated formula of p at z = h lambda, the growth of one step */
static double growth_of(const mbd_ode_params *p, const ch02_problem *pr, double h)
{
    mbd_ode_params pf = *p;
    pf.adaptive = pf.doubling = 0;
    ch02_charpoly cp;
    if (ch02_charpoly_of(&pf, &cp) != GSL_SUCCESS)
        return NAN;
    const double complex z = pr->kind == CH02_OSCILLATOR ? I * h * pr->omega
                             : pr->kind == CH02_DECAY ? -h * pr->alpha
                                                      : -h * CH02_TRANSIENT_RATE;
    return ch02_root_modulus(&cp, z);
}

/* The failure of a run, with its cause said in the chapter's terms: which
 * limit stopped it and what held the step there, or why the state grew. */
static void explain_failure(const ch02_run_spec *rs, const mbd_ode_params *p, const ch02_result *r,
                            mbd_failure *fail)
{
    step_bound b;
    bound_of(p, &rs->pr, &b);
    const double h = r->h_last;
    const double more = h > 0 ? (rs->t_end - r->t) / h : NAN;
    /* the size of the exact solution: |y| <= 1, and |x_dot| <= omega */
    const double scale = rs->pr.kind == CH02_OSCILLATOR ? fmax(1.0, rs->pr.omega) : 1.0;
    const double size = rs->pr.kind == CH02_OSCILLATOR ? fmax(fabs(r->y[0]), fabs(r->y[1]))
                                                       : fabs(r->y[0]);
    const int blew_up = !(size <= 1e6 * scale);
    /* the fast mode's part of the solution at the end (the oscillation never dies
     * out), against the tolerance there: below it, only stability holds the step */
    double yex[2];
    ch02_exact(&rs->pr, r->t, yex);
    const double mode = rs->pr.kind == CH02_DECAY ? exp(-rs->pr.alpha * r->t)
                        : rs->pr.kind == CH02_TRANSIENT ? exp(-CH02_TRANSIENT_RATE * r->t) : 1.0;
    const int died_out = rs->pr.kind != CH02_OSCILLATOR && mode < p->atol + p->rtol * fabs(yex[0]);
    const int status = r->fail.status;
    char cause[sizeof fail->cause];
    snprintf(cause, sizeof cause, "%s", r->fail.cause);
    *fail = r->fail;
    if (r->limit == CH02_LIMIT_OUTPUTS) {
        mbd_failure_set(fail, status, r->t,
                        "the limit of %ld outputs (--max-outputs) was reached before t_end = %g: "
                        "without --dt-out every step is an output; give --dt-out (or raise "
                        "--max-outputs)", rs->lim.max_outputs, rs->t_end);
    } else if (r->limit == CH02_LIMIT_STEPS && !p->adaptive) {
        mbd_failure_set(fail, status, r->t,
                        "the limit of %ld steps (--max-steps) was reached before t_end = %g: the "
                        "fixed step %g needs about %.3g more", rs->lim.max_steps, rs->t_end, h,
                        more);
    } else if (r->limit == CH02_LIMIT_STEPS && b.stable && isfinite(b.h) && died_out
               && h >= 0.2 * b.h) {
        mbd_failure_set(fail, status, r->t,
                        "the limit of %ld steps (--max-steps) was reached before t_end = %g: "
                        "%s's step %.3g is held by stability (%s = %.3g, limit %.4g) on a mode "
                        "that has died out: stiff for an explicit scheme; the rest needs about "
                        "%.3g more steps", rs->lim.max_steps, rs->t_end, p->name, h, b.x_name,
                        h * b.rate, b.x, more);
    } else if (r->limit == CH02_LIMIT_STEPS) {
        mbd_failure_set(fail, status, r->t,
                        "the limit of %ld steps (--max-steps) was reached before t_end = %g: the "
                        "tolerance (rtol %g, atol %g) sets %s's step to %.3g; the rest needs "
                        "about %.3g more steps", rs->lim.max_steps, rs->t_end, p->rtol, p->atol,
                        p->name, h, more);
    } else if (p->adaptive && blew_up && (status == MBD_ESTEPSIZE || status == MBD_ENONFINITE)) {
        /* a tolerance loose enough to pass steps past the stability limit */
        if (isfinite(b.x) && b.stable)
            mbd_failure_set(fail, status, r->t,
                            "the solution blew up (|y| = %.3g; the exact one stays below %g): the "
                            "tolerance (rtol %g, atol %g) let %s step past its stability limit "
                            "(%s up to %.3g, limit %.4g)", size, scale, p->rtol, p->atol,
                            p->name, b.x_name, r->h_max * b.rate, b.x);
        else
            mbd_failure_set(fail, status, r->t,
                            "the solution blew up (|y| = %.3g; the exact one stays below %g): the "
                            "tolerance (rtol %g, atol %g) let %s's error grow unchecked", size,
                            scale, p->rtol, p->atol, p->name);
    } else if (p->adaptive && status == MBD_ESTEPSIZE
               && p->atol + p->rtol * scale < 256.0 * DBL_EPSILON * scale) {
        mbd_failure_set(fail, status, r->t,
                        "the tolerance (rtol %g, atol %g) is below the round-off of a solution "
                        "of size %g (256 eps = %.2g relative): %s's step fell below its minimum "
                        "without meeting it", p->rtol, p->atol, scale, 256.0 * DBL_EPSILON,
                        p->name);
    } else if (status == MBD_ENONFINITE && !p->adaptive) {
        const double g = growth_of(p, &rs->pr, p->h);
        if (b.stable && isfinite(b.h) && p->h > b.h)
            mbd_failure_set(fail, status, r->fail.time, "%s: %s = %.3g is beyond %s's "
                            "stability limit %.4g", cause, b.x_name, p->h * b.rate, p->name, b.x);
        else if (g > 1.0)
            mbd_failure_set(fail, status, r->fail.time, "%s: at %s = %.3g %s multiplies the "
                            "solution by %.4g a step", cause, b.x_name, p->h * b.rate, p->name, g);
    }
}

typedef struct {
    double x_theory, x_meas, rate, E0, E_end, factor, theory_factor;
    int theory_found, found;
    long runs;
    unsigned order;
    double yex[2];
} run_facts;

static int write_run_summary(FILE *o, const ch02_run_spec *rs, const mbd_ode_params *p,
                             const ch02_result *r, const run_facts *f, int status)
{
    const int osc = rs->pr.kind == CH02_OSCILLATOR, pece = p->kind == MBD_ODE_PECE;
    const int stepped = r->stats.ode.steps > 0;
    int bad = 0;
    bad |= mbd_summary_string(o, "method", rs->scheme->name);
    bad |= mbd_summary_string(o, "problem", rs->pr.name);
    bad |= mbd_summary_long(o, "order", (long)f->order);
    bad |= mbd_summary_optional(o, "pece_order", rs->set.pece_order, pece);
    bad |= mbd_summary_optional(o, "corrections", rs->set.corrections, pece);
    bad |= mbd_summary_long(o, "a_stable", !f->theory_found);
    bad |= mbd_summary_optional(o, "limit", f->x_theory, f->theory_found);
    bad |= mbd_summary_optional(o, "limit_measured", f->x_meas, f->found);
    bad |= mbd_summary_optional(o, "stable_to", X_MAX, !f->found);
    bad |= mbd_summary_optional(o, "h_limit", f->x_theory / f->rate,
                                f->theory_found && !osc && isfinite(f->x_theory / f->rate));
    bad |= mbd_summary_optional(o, "rtol", p->rtol, p->adaptive);
    bad |= mbd_summary_optional(o, "atol", p->atol, p->adaptive);
    bad |= mbd_summary_optional(o, "h", p->h, !p->adaptive);
    bad |= mbd_summary_optional(o, "h_min", r->h_min, stepped);
    bad |= mbd_summary_optional(o, "h_max", r->h_max, stepped);
    bad |= mbd_summary_double(o, "t_end", rs->t_end);
    bad |= mbd_summary_double(o, "t_reached", r->t);
    bad |= mbd_summary_long(o, "steps", r->stats.ode.steps);
    bad |= mbd_summary_long(o, "rejected", r->stats.ode.rejected);
    bad |= mbd_summary_long(o, "fevals", r->stats.ode.fevals);
    bad |= mbd_summary_long(o, "outputs", r->outputs);
    if (osc) {
        bad |= mbd_summary_double(o, "x_end", r->y[0]);
        bad |= mbd_summary_double(o, "x_dot_end", r->y[1]);
        bad |= mbd_summary_double(o, "x_exact", f->yex[0]);
        bad |= mbd_summary_optional(o, "E_end", f->E_end, isfinite(f->E_end));
        bad |= mbd_summary_optional(o, "E_ratio", f->E_end / f->E0, isfinite(f->E_end / f->E0));
        bad |= mbd_summary_optional(o, "energy_factor", f->factor, isfinite(f->factor));
        bad |= mbd_summary_optional(o, "energy_factor_theory", f->theory_factor,
                                    isfinite(f->theory_factor));
    } else {
        bad |= mbd_summary_double(o, "y_end", r->y[0]);
        bad |= mbd_summary_double(o, "y_exact", f->yex[0]);
    }
    bad |= mbd_summary_optional(o, "error_end", r->error, isfinite(r->error));
    bad |= mbd_summary_optional(o, "max_error", r->max_error, isfinite(r->max_error));
    bad |= mbd_summary_string(o, "status", mbd_status_word(status));
    return bad ? MBD_ENONFINITE : GSL_SUCCESS;
}

static void write_run_report(const ch02_run_spec *rs, const mbd_ode_params *p, const ch02_result *r,
                             const run_facts *f)
{
    const int osc = rs->pr.kind == CH02_OSCILLATOR;
    printf("%s: %s on %s", PROGRAM, rs->scheme->name, rs->pr.name);
    if (p->kind == MBD_ODE_PECE)
        printf(" (AB%u predictor, AM%u corrector, m = %u)", rs->set.pece_order,
               rs->set.pece_order, rs->set.corrections);
    printf(", t = 0 ... %g\n", r->t);
    if (p->adaptive)
        printf("  rtol = %g, atol = %g: %ld steps accepted, %ld rejected, h from %.3g to %.3g\n",
               p->rtol, p->atol, r->stats.ode.steps, r->stats.ode.rejected, r->h_min, r->h_max);
    else
        printf("  h = %g: %ld steps\n", p->h, r->stats.ode.steps);
    printf("  f evaluations: %ld\n", r->stats.ode.fevals);
    if (osc) {
        printf("  x(%g) = %.12g, x_dot = %.12g (exact %.12g, %.12g)\n", r->t, r->y[0], r->y[1],
               f->yex[0], f->yex[1]);
        if (isfinite(f->E_end / f->E0) && isfinite(f->factor))
            printf("  E(%g)/E(0) = %.12g, per step %.15g", r->t, f->E_end / f->E0, f->factor);
        else
            printf("  E(%g)/E(0) = - (the energy overflows)", r->t);
        if (isfinite(f->theory_factor))
            printf(" (|R(i h omega)|^2 = %.15g)", f->theory_factor);
        printf("\n");
    } else {
        printf("  y(%g) = %.12g (exact %.12g)\n", r->t, r->y[0], f->yex[0]);
    }
    printf("  error at the end %.3e, largest %.3e\n", r->error, r->max_error);
    printf("  order %u; stability on y' = -alpha y: ", f->order);
    if (f->theory_found)
        printf("h alpha < %.4f (theory), %.4f (measured)", f->x_theory, f->x_meas);
    else if (f->found)
        printf("no limit in theory, measured %.4f", f->x_meas);
    else
        printf("A-stable (stable at every tested h alpha up to %g)", X_MAX);
    if (f->theory_found && isfinite(f->x_theory / f->rate))
        printf("; here h < %.5g", f->x_theory / f->rate);
    printf("\n");
}

int ch02_do_run(const ch02_run_spec *rs, const mbd_ode_params *p, const mbd_cli_common *opt,
                  mbd_failure *fail)
{
    const int adaptive = p->adaptive;
    run_ctx c = {&rs->pr, NULL, adaptive};
    if (opt->csv) {
        const char *scalar[] = {"t", "y", "h"};
        const char *osc[] = {"t", "x", "x_dot", "E", "h"};
        const size_t nc = (rs->pr.kind == CH02_OSCILLATOR ? 4 : 2) + (adaptive ? 1 : 0);
        int st;
        c.csv = mbd_csv_open(opt->csv, nc, rs->pr.kind == CH02_OSCILLATOR ? osc : scalar, &st, fail);
        if (c.csv == NULL)
            return st;   /* `fail` says which file and why */
    }
    ch02_result r;
    int st = ch02_solve(p, &rs->pr, rs->t_end, rs->dt_out, &rs->lim, run_output, &c, &r);
    if (c.csv) {
        errno = 0;
        int st2 = mbd_csv_close(c.csv);
        if (st == GSL_SUCCESS && st2 != GSL_SUCCESS)
            return mbd_failure_set(fail, st2, NAN, "cannot write CSV file '%s': %s", opt->csv,
                                   errno ? strerror(errno) : "a write failed");
    }
    if (st != GSL_SUCCESS)
        explain_failure(rs, p, &r, fail);
    if (opt->csv || (st != GSL_SUCCESS && !opt->summary)
        || mbd_cli_exit_status(st) == MBD_EXIT_USAGE)
        return st;   /* the report is for finished runs; a refused run has no results */

    /* the scheme's order and stability limit, and the run's energy */
    run_facts f;
    memset(&f, 0, sizeof f);
    mbd_ode_params pf = *p;
    pf.adaptive = pf.doubling = 0;
    ch02_charpoly cp;
    f.x_theory = f.x_meas = f.theory_factor = NAN;
    const int have_cp = ch02_charpoly_of(&pf, &cp) == GSL_SUCCESS;
    f.theory_found = have_cp && ch02_limit_theory(&cp, X_MAX, &f.x_theory);
    int sm = ch02_limit_measured(&pf, ALPHA, X_MAX, LIMIT_TOL, &f.x_meas, &f.found, &f.runs);
    if (sm != GSL_SUCCESS)
        return mbd_failure_set(fail, sm, NAN, "measuring the stability limit failed");
    f.order = ch02_order(rs->scheme, &rs->set);
    f.rate = rs->pr.kind == CH02_DECAY ? rs->pr.alpha
             : rs->pr.kind == CH02_TRANSIENT ? CH02_TRANSIENT_RATE : NAN;
    ch02_exact(&rs->pr, r.t, f.yex);
    f.E0 = ch02_energy(&rs->pr, rs->pr.y0);
    f.E_end = ch02_energy(&rs->pr, r.y);
    const long N = r.stats.ode.steps;
    f.factor = N > 0 && f.E0 > 0 ? pow(f.E_end / f.E0, 1.0 / (double)N) : NAN;
    if (have_cp && cp.kdeg == 1 && rs->pr.kind == CH02_OSCILLATOR && !adaptive) {
        double complex R = ch02_amp_factor(&cp, I * p->h * rs->pr.omega);
        f.theory_factor = creal(R * conj(R));
    } else if (have_cp && rs->pr.kind == CH02_OSCILLATOR && !adaptive
               && p->kind == MBD_ODE_AM && p->order == 2) {
        f.theory_factor = 1.0;
    }

    if (opt->summary) {
        if (write_run_summary(stdout, rs, p, &r, &f, st) != GSL_SUCCESS && st == GSL_SUCCESS)
            return mbd_failure_set(fail, MBD_ENONFINITE, r.t, "a summary value is not finite");
    } else if (st == GSL_SUCCESS) {
        write_run_report(rs, p, &r, &f);
    }
    return st;
}

/* ------------------------------------------------------------------------ */
/* Benchmarks                                                                */

typedef struct {
    mbd_ode_params p;
    ch02_problem pr;
    double t_end;
    ch02_study *s;
} bench_case;

static int bench_run(void *ctx, mbd_cli_bench_counts *n)
{
    bench_case *b = ctx;
    ch02_result r;
    int st = ch02_solve(&b->p, &b->pr, b->t_end, b->t_end, NULL, NULL, NULL, &r);
    n->steps = r.stats.ode.steps;
    n->fevals = r.stats.ode.fevals;
    return st;
}

static int bench_limit(void *ctx, mbd_cli_bench_counts *n)
{
    bench_case *b = ctx;
    double x;
    int found;
    long runs;
    int st = ch02_limit_measured(&b->p, ALPHA, X_MAX, LIMIT_TOL, &x, &found, &runs);
    n->steps = runs * CH02_STABILITY_STEPS;
    return st;
}

static int bench_story(void *ctx, mbd_cli_bench_counts *n)
{
    (void)n;
    bench_case *b = ctx;
    FILE *null = mbd_cli_bench_sink();
    if (null == NULL)
        return MBD_EIO;
    b->s->computed = 0;
    int st = ch02_story(null, b->s);
    ch02_free_steps(b->s);   /* leave the memory as the next pass's cases found it */
    return st;
}

int ch02_bench(long repeats, ch02_study *s)
{
    static const struct { const char *problem, *method; double h, t_end; } cases[] = {
        {"decay", "rk4", 1e-3, 1.0},
        {"decay", "ab4", 1e-3, 1.0},
        {"decay", "am4", 1e-3, 1.0},
        {"decay", "pece", 1e-3, 1.0},
        {"oscillator", "rk4", 0.01, 20.0},
        {"transient", "rk4-doubling", 0, 2.0},
        {"transient", "rkf23", 0, 2.0},
        {"transient", "cash-karp", 0, 2.0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        bench_case b;
        ch02_problem_kind kind;
        ch02_problem_kind_of(cases[i].problem, &kind);
        ch02_problem_init(&b.pr, kind, ALPHA, OMEGA);
        ch02_settings set;
        ch02_settings_default(&set);
        set.h = cases[i].h;
        ch02_params(ch02_scheme_find(cases[i].method), &set, &b.p);
        b.t_end = cases[i].t_end;
        int st = mbd_cli_bench(stdout, PROGRAM, cases[i].problem, cases[i].method,
                               MBD_CLI_BENCH_INTEGRATION, repeats, bench_run, &b);
        if (st != GSL_SUCCESS)
            return st;
    }
    bench_case b;
    ch02_problem_init(&b.pr, CH02_DECAY, ALPHA, OMEGA);
    ch02_params_of("ab3", 4, 1, 1, 0.01, &b.p);
    int st = mbd_cli_bench(stdout, PROGRAM, "stability-limit", "ab3", MBD_CLI_BENCH_INTEGRATION,
                           repeats, bench_limit, &b);
    if (st != GSL_SUCCESS)
        return st;
    b.s = s;
    return mbd_cli_bench(stdout, PROGRAM, "story", "", MBD_CLI_BENCH_WHOLE_RUN, repeats,
                         bench_story, &b);
}

/* ------------------------------------------------------------------------ */
/* The program's parts (main.c dispatches to them)                          */

int ch02_program_bench(void *ctx, long repeats, mbd_failure *fail)
{
    (void)fail;   /* mbd_cli_bench_passes names a failed case */
    return ch02_bench(repeats, ((ch02_program *)ctx)->s);
}

/* One run, or with --summary alone every scheme's order and limit. */
int ch02_program_run(void *ctx, mbd_failure *fail)
{
    ch02_program *prog = ctx;
    if (prog->run_mode)
        return ch02_do_run(&prog->rs, &prog->p, prog->opt, fail);
    int st = ch02_scheme_summary(stdout, prog->s);
    if (st != GSL_SUCCESS)
        mbd_failure_set(fail, st, NAN, "the study failed or a value is not finite");
    return st;
}

int ch02_program_story(void *ctx, FILE *out, int no_timing, mbd_failure *fail)
{
    (void)no_timing;   /* the story has no timings */
    ch02_program *prog = ctx;
    int st = ch02_story(out, prog->s);
    if (st != GSL_SUCCESS)
        mbd_failure_set(fail, st, NAN, "the story failed: %s", mbd_strerror(st));
    return st;
}
