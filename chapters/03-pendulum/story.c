/* chapters/03-pendulum/story.c -- the story, one run from the command line,
 * and the benchmarks (see study.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_math.h>

#include "mbd/cli.h"
#include "mbd/formulation.h"
#include "mbd/io.h"
#include "mbd/study.h"
#include "study.h"

#define PROGRAM "ch03-pendulum"

/* ------------------------------------------------------------------------ */
/* The story                                                                 */

/* a run's time in milliseconds, or "-" with --no-timing */
static const char *seconds(char *buf, size_t size, double s, int no_timing)
{
    if (no_timing || !isfinite(s))
        snprintf(buf, size, "-");
    else
        snprintf(buf, size, "%.3g ms", 1e3 * s);
    return buf;
}

/* "|C| exceeds 1 at t = 0.327 s: stopped" for a run stopped by the violation limit */
static void print_stop(FILE *out, const char *indent, const ch03_result *r)
{
    if (r->status == MBD_EVIOLATION)
        fprintf(out, "%s|C| exceeds 1 at t = %.3g s: stopped\n", indent, r->fail.time);
    else if (r->status != GSL_SUCCESS)
        fprintf(out, "%sstopped at t = %.4g s: %s\n", indent, r->fail.time, r->fail.cause);
}

static void method_table(FILE *out, const ch03_study *S, const ch03_result *r, int with_doc,
                         int with_direct, int no_timing)
{
    const char *h[] = {"method", "steps", "f evals", "time", "pos. error", "vel. error",
                       "max |C|", "max |C'|", "max |E - E0|", "vs direct", "document"};
    const size_t nc = 9 + (with_direct ? 1 : 0) + (with_doc ? 1 : 0);
    const char *hh[11];
    size_t c = 0;
    for (size_t i = 0; i < 9; i++)
        hh[c++] = h[i];
    if (with_direct)
        hh[c++] = h[9];
    if (with_doc)
        hh[c++] = h[10];
    mbd_table *t = mbd_table_alloc(nc, hh);
    char buf[32];
    for (size_t i = 0; i < N_METHODS; i++) {
        if (i == M_PRINTED)
            continue;   /* it blows up: reported on its own */
        const ch03_result *x = &r[i];
        if (i == M_IDX2)
            mbd_table_cell(t, "%s (%s)", METHODS[i].method, x->integrator);
        else
            mbd_table_cell(t, "%s", METHODS[i].method);
        mbd_table_cell(t, "%ld", x->stats.run.ode.steps);
        mbd_table_cell(t, "%ld", x->stats.run.ode.fevals);
        mbd_table_cell(t, "%s", seconds(buf, sizeof buf, x->seconds, no_timing));
        mbd_table_num(t, x->err.position, 3);
        mbd_table_num(t, x->err.velocity, 3);
        mbd_table_num(t, x->stats.max_C, 3);
        mbd_table_num(t, x->stats.max_Cdot, 3);
        mbd_table_num(t, x->stats.max_dE, 3);
        if (with_direct)
            mbd_table_num(t, S->vs_direct[i], 3);
        if (with_doc)
            mbd_table_cell(t, "%.4f s", METHODS[i].doc_seconds);
    }
    mbd_table_print(t, out, 2);
    mbd_table_free(t);
}

int ch03_story(FILE *out, ch03_study *S, int no_timing)
{
    int st = ch03_compute(S);
    if (st != GSL_SUCCESS)
        return st;
    const ch03_pendulum *p = &S->p;
    const ch03_exact *e = &S->ex;
    char buf[32];

    fprintf(out, "Chapter 03 -- The simple pendulum, by every method of the document\n");
    fprintf(out, "Reproduces document 000 (Newhart 2019), Sec. 2 and 2.4.1: Table 1, Table 2,\n"
                 "Figs. 2-13 and listings A.2-A.2.g.\n\n");

    /* ---------------------------------------------------------------- 1 */
    fprintf(out, "Step 1. The model: a point mass in Cartesian coordinates q = (x, y, z)\n");
    fprintf(out, "  Table 2: m = %g kg, L = %g m, g = %g m/s^2 along +y, released from rest at\n"
                 "  x = %g, y = 0 (theta0 = 90 deg from +y); 5 s.\n", p->m, p->L, p->g, p->L);
    fprintf(out, "  M = m I,  F = (0, m g, 0),  C = (x^2 + y^2 - L^2, z),\n"
                 "  C_q = [2x 2y 0; 0 0 1],  gamma = (-2 (x'^2 + y'^2), 0)   (C_q q'' = gamma)\n");
    fprintf(out, "  The document prints gamma as a 2x3 matrix; its listings use the vector above.\n");
    fprintf(out, "  C_q and gamma against central differences of C (mbd_system_check_derivatives):\n");
    {
        const char *h[] = {"state (x, y, z, x', y', z')", "|C_q - FD|", "|gamma - FD|",
                           "rel. gamma"};
        const char *names[3] = {"(1, 0, 0, 0, 0, 0)", "(0.6, 0.8, 0.05, -2.1, 1.6, 0.3)",
                                "(-0.28, 0.96, 0, -4.2, -1.2, 0)"};
        mbd_table *t = mbd_table_alloc(4, h);
        for (int i = 0; i < 3; i++) {
            mbd_table_cell(t, "%s", names[i]);
            mbd_table_num(t, S->fd[i].jacobian_abs, 2);
            mbd_table_num(t, S->fd[i].gamma_abs, 2);
            mbd_table_num(t, S->fd[i].gamma_rel, 2);
        }
        mbd_table_print(t, out, 2);
        mbd_table_free(t);
    }
    fprintf(out, "\n");

    /* ---------------------------------------------------------------- 2 */
    fprintf(out, "Step 2. The exact solution (Jacobi elliptic functions)\n");
    fprintf(out, "  w = sqrt(g/L) = %.6f rad/s, k = sin(theta0/2) = %.6f, K(k) = %.8f\n", e->w, e->k,
            e->K);
    fprintf(out, "  sin(theta/2) = k sn(K - w t, k),  theta' = -2 k w cn(K - w t, k)\n");
    fprintf(out, "  period T = 4 K / w = %.6f s; the small-angle 2 pi / w = %.6f s does not apply: Sec.\n"
                 "  2.4.1 expects a simple harmonic oscillator, but a release from the horizontal is far\n"
                 "  from one\n",
            e->T, 2 * M_PI / e->w);
    fprintf(out, "  bottom (x = 0) at t =");
    for (int n = 1; n <= 4; n++)
        fprintf(out, " %.7f", ch03_exact_bottom_time(e, n));
    fprintf(out, " s;\n  turning points at t =");
    for (int n = 1; n <= 4; n++)
        fprintf(out, " %.7f", n * e->T / 2);
    fprintf(out, " s\n");
    fprintf(out, "  max |x'| = sqrt(2 g L) = %.6f m/s (bottom), max |y'| = %.6f m/s (cos theta = 1/sqrt 3)\n",
            sqrt(2 * p->g * p->L), sqrt(2 * p->g * p->L * 2 / (3 * sqrt(3.0))));
    fprintf(out, "  multiplier at the bottom (projection, M q'' + C_q^T lambda = F): lambda = %.6f\n"
                 "  = (C_q M^-1 F - gamma) / S = (19.62 + 39.24) / 4; the rod pulls with 2 lambda L =\n"
                 "  %.3f N = 3 m g. The static penalty's implied multiplier at mu = 1e8: %.6f\n",
            S->lambda_bottom, 2 * S->lambda_bottom * p->L, S->lambda_penalty);
    {
        const char *h[] = {"t [s]", "theta [rad]", "x", "y", "x'", "y'"};
        mbd_table *t = mbd_table_alloc(6, h);
        for (int k = 1; k <= 5; k++) {
            double th, om, q[3], qd[3];
            ch03_exact_angle(e, k, &th, &om);
            ch03_cartesian(p, th, om, q, qd);
            mbd_table_cell(t, "%d", k);
            mbd_table_cell(t, "%.6f", th);
            mbd_table_cell(t, "%.6f", q[0]);
            mbd_table_cell(t, "%.6f", q[1]);
            mbd_table_cell(t, "%.6f", qd[0]);
            mbd_table_cell(t, "%.6f", qd[1]);
        }
        mbd_table_print(t, out, 2);
        mbd_table_free(t);
    }
    fprintf(out, "\n");

    /* ---------------------------------------------------------------- 3 */
    const ch03_result *d = &S->r23[M_DIRECT];
    fprintf(out, "Step 3. The document's baseline: theta'' = -(g/L) sin theta by ode23 (eq. 73)\n");
    fprintf(out, "  ode23 is Bogacki-Shampine 3(2) with MATLAB's defaults, RelTol 1e-3, AbsTol 1e-6:\n"
                 "  the document's time vector 0:1e-4:5 only sets where the solution is reported\n"
                 "  (by interpolation); the steps are chosen by the error control. Here:\n");
    fprintf(out, "  %ld steps (%ld rejected), %ld f evaluations, mean step %.3f s.\n",
            d->stats.run.ode.steps, d->stats.run.ode.rejected, d->stats.run.ode.fevals,
            5.0 / (double)d->stats.run.ode.steps);
    fprintf(out, "  Its largest errors against the exact solution over 0-5 s:\n"
                 "    x %.3e, y %.3e, x' %.3e, y' %.3e\n",
            d->err.x, d->err.y, d->err.xd, d->err.yd);
    fprintf(out, "  Every error the document plots (Figs. 7, 8, 11-13) is measured against this run:\n"
                 "  a difference of two solutions, each about 1e-2 off. The chapter measures against\n"
                 "  the exact solution instead.\n\n");

    /* ---------------------------------------------------------------- 4 */
    fprintf(out, "Step 4. Every method as the document ran it: ode23, mu = 1e5, alpha = beta = 20\n");
    fprintf(out, "  (errors: largest |q - q_exact| and |q' - q'_exact| over the outputs, every %g s;\n"
                 "  vs direct: largest |q - q_direct|, the document's measure; document: its mean time)\n",
            STORY_DT);
    method_table(out, S, S->r23, 1, 1, no_timing);
    fprintf(out, "  index2-penalty is stiff (eq. 58: rates ~ mu |C_q|^2 = 4e5 /s): it runs with msbdf.\n");
    fprintf(out, "  penalty-baumgarte-printed (eq. 72's sign, listing A.2.b):\n");
    print_stop(out, "    ", &S->r23[M_PRINTED]);
    fprintf(out, "  Penalty and projection: largest position difference %.2e at t = 5 s -- the\n"
                 "  document's 'no discernible difference' (Fig. 8). Penalty-Baumgarte against\n"
                 "  projection-Baumgarte: %.2e over 0-5 s.\n",
            S->pen_vs_proj_end, S->penb_vs_projb);
    fprintf(out, "  With alpha = beta = 20 the Baumgarte runs are LESS accurate than the plain ones at\n"
                 "  these tolerances (position %.3f against %.3f), the opposite of Fig. 11's 'slight\n"
                 "  increase in accuracy'. With the text's beta = sqrt(20) = %.4f:\n",
            S->r23[M_PEN_B].err.position, S->r23[M_PEN].err.position, SQRT20);
    {
        const char *h[] = {"beta = sqrt(20)", "steps", "pos. error", "vel. error", "max |C|"};
        mbd_table *t = mbd_table_alloc(5, h);
        for (int i = 0; i < 2; i++) {
            mbd_table_cell(t, "%s", i == 0 ? "projection-baumgarte" : "penalty-baumgarte");
            mbd_table_cell(t, "%ld", S->rb[i].stats.run.ode.steps);
            mbd_table_num(t, S->rb[i].err.position, 3);
            mbd_table_num(t, S->rb[i].err.velocity, 3);
            mbd_table_num(t, S->rb[i].stats.max_C, 3);
        }
        mbd_table_print(t, out, 2);
        mbd_table_free(t);
    }
    fprintf(out, "  -- comparable to the plain methods: the claim depends on alpha, beta and the\n"
                 "  tolerance, and at ode23's tolerances the integration error decides.\n\n");

    /* ---------------------------------------------------------------- 5 */
    fprintf(out, "Step 5. The same methods with the integration error taken away: 'tight'\n"
                 "  (Dormand-Prince 5(4), RelTol 1e-10, AbsTol 1e-12; index2-penalty: msbdf)\n");
    method_table(out, S, S->rtight, 0, 0, no_timing);
    fprintf(out, "  first x = 0 crossing of the tight projection run: %.7f s (exact %.7f s)\n",
            ch03_first_crossing(&S->htight[M_PROJ], 0.0), ch03_exact_bottom_time(e, 1));
    fprintf(out, "  Now each method shows its own error. Projection keeps the constraint to the\n"
                 "  integration tolerance; the static penalty is off by O(1/mu) (%.1e at mu = 1e5);\n"
                 "  Baumgarte pulls the penalty's drift back (%.1e); the alternate penalty's spring\n"
                 "  costs %ld steps; the index-2 penalty holds |C| to %.0e, but its error, like the\n"
                 "  static penalty's, is of order 1/mu.\n"
                 "  penalty-baumgarte-printed: ",
            S->rtight[M_PEN].err.position, S->rtight[M_PEN_B].err.position,
            S->rtight[M_ALT].stats.run.ode.steps, S->rtight[M_IDX2].stats.max_C);
    print_stop(out, "", &S->rtight[M_PRINTED]);
    fprintf(out, "\n");

    /* ---------------------------------------------------------------- 6 */
    fprintf(out, "Step 6. Table 1 again: the penalty factor from 10 to 1e8, ode23\n");
    fprintf(out, "  (a) cost: accepted steps and time of one run here, and Table 1's CPU seconds\n"
                 "  (doc: MATLAB R2014a on a 2011 laptop, mean of 100 runs)\n");
    {
        const char *h[] = {"mu", "penalty", "time", "doc", "penalty-baumgarte", "time", "doc",
                           "alternate", "time", "doc"};
        mbd_table *t = mbd_table_alloc(10, h);
        for (int k = 0; k < N_MU; k++) {
            mbd_table_cell(t, "1e%d", k + 1);
            for (int m = 0; m < 3; m++) {
                const ch03_result *x = &S->sweep[m][k];
                mbd_table_cell(t, "%ld", x->stats.run.ode.steps);
                mbd_table_cell(t, "%s", seconds(buf, sizeof buf, x->seconds, no_timing));
                mbd_table_cell(t, "%.4f s", DOC_TABLE1[m][k]);
            }
        }
        mbd_table_print(t, out, 2);
        mbd_table_free(t);
    }
    fprintf(out, "  (b) accuracy: max |C| and the largest position error against the exact solution\n");
    {
        const char *h[] = {"mu", "penalty: max |C|", "error", "penalty-baumgarte: max |C|", "error",
                           "alternate: max |C|", "error"};
        mbd_table *t = mbd_table_alloc(7, h);
        for (int k = 0; k < N_MU; k++) {
            mbd_table_cell(t, "1e%d", k + 1);
            for (int m = 0; m < 3; m++) {
                mbd_table_num(t, S->sweep[m][k].stats.max_C, 2);
                mbd_table_num(t, S->sweep[m][k].err.position, 2);
            }
        }
        mbd_table_print(t, out, 2);
        mbd_table_free(t);
    }
    fprintf(out, "  Projection: %ld steps (document 1.0887 s); projection-Baumgarte: %ld (0.9484 s).\n",
            S->r23[M_PROJ].stats.run.ode.steps, S->r23[M_PROJ_B].stats.run.ode.steps);
    fprintf(out, "  - penalty: at mu = 10 the mass leaves the circle (max |C| = %.2f); from 1e5 on\n"
                 "    the integrator's own drift (~%.0e) hides the penalty's 1/mu: 'large deviations\n"
                 "    in accuracy, small variation of time', as the document saw.\n",
            S->sweep[0][0].stats.max_C, S->sweep[0][N_MU - 1].stats.max_C);
    fprintf(out, "  - penalty-baumgarte: %ld to %ld steps for mu = 1e2 ... 1e8; the cost does not move.\n",
            S->sweep[1][1].stats.run.ode.steps, S->sweep[1][N_MU - 1].stats.run.ode.steps);
    fprintf(out, "  - alternate penalty: steps x %.2f, x %.2f, x %.2f over the last three decades\n"
                 "    (sqrt(10) = 3.16); the document's times grew x %.2f, x %.2f, x %.2f.\n",
            (double)S->sweep[2][5].stats.run.ode.steps / (double)S->sweep[2][4].stats.run.ode.steps,
            (double)S->sweep[2][6].stats.run.ode.steps / (double)S->sweep[2][5].stats.run.ode.steps,
            (double)S->sweep[2][7].stats.run.ode.steps / (double)S->sweep[2][6].stats.run.ode.steps,
            DOC_TABLE1[2][5] / DOC_TABLE1[2][4], DOC_TABLE1[2][6] / DOC_TABLE1[2][5],
            DOC_TABLE1[2][7] / DOC_TABLE1[2][6]);
    fprintf(out, "\n");

    /* ---------------------------------------------------------------- 7 */
    fprintf(out, "Step 7. The static penalty's own error: 1/mu (tight, no integration drift)\n");
    {
        const char *h[] = {"mu", "steps", "max |C|", "ratio to previous", "mu max |C|",
                           "position error"};
        mbd_table *t = mbd_table_alloc(6, h);
        for (int k = 0; k < N_MU; k++) {
            const ch03_result *x = &S->tsweep[k];
            mbd_table_cell(t, "1e%d", k + 1);
            mbd_table_cell(t, "%ld", x->stats.run.ode.steps);
            mbd_table_num(t, x->stats.max_C, 3);
            if (k > 0)
                mbd_table_cell(t, "%.2f", S->tsweep[k - 1].stats.max_C / x->stats.max_C);
            else
                mbd_table_cell(t, "-");
            mbd_table_num(t, S->mus[k] * x->stats.max_C, 3);
            mbd_table_num(t, x->err.position, 3);
        }
        mbd_table_print(t, out, 2);
        mbd_table_free(t);
    }
    fprintf(out, "  The penalty solves C_q q'' - gamma = (I + mu S)^-1 (C_q M^-1 F - gamma) instead of 0,\n"
                 "  S = C_q M^-1 C_q^T: an acceleration residual of order 1/mu, which the run integrates\n"
                 "  twice. So max |C| falls tenfold per decade of mu, and mu max |C| settles at %.0f.\n"
                 "  The document's rule 'mu = 1e5 x the largest mass' buys about 1e-3 here.\n\n",
            S->mus[N_MU - 2] * S->tsweep[N_MU - 2].stats.max_C);

    /* ---------------------------------------------------------------- 8 */
    {
        const double w7 = 2 * sqrt(1e7 / p->m), w8 = 2 * sqrt(1e8 / p->m), h = 1e-4;
        const ch03_result *g7 = &S->go_fixed[0], *g8 = &S->go_fixed[1];
        fprintf(out, "Step 8. Why the alternate penalty costs more as mu grows, and where it fails\n");
        fprintf(out, "  M q'' = F - mu C_q^T C is a spring on C = x^2 + y^2 - L^2 ~ 2 L dr: the radial\n"
                     "  stiffness is 4 mu L^2 and the radial frequency w_r = 2 L sqrt(mu/m): %.0f rad/s\n"
                     "  (period %.2f ms) at mu = 1e5. An explicit integrator must resolve it, so its\n"
                     "  steps grow as sqrt(mu) (Step 6).\n",
                2 * sqrt(1e5 / p->m), 1e3 * 2 * M_PI / (2 * sqrt(1e5 / p->m)));
        fprintf(out, "  At a fixed step h, Bogacki-Shampine 3(2) multiplies an undamped oscillation by\n"
                     "  R(i w h) = 1 + z + z^2/2 + z^3/6, z = i w h, with |R| <= 1 only for w h <= sqrt(3).\n");
        const double a7 = sqrt(pow(1 - w7 * w7 * h * h / 2, 2) + pow(w7 * h - pow(w7 * h, 3) / 6, 2));
        const double a8 = sqrt(pow(1 - w8 * w8 * h * h / 2, 2) + pow(w8 * h - pow(w8 * h, 3) / 6, 2));
        fprintf(out, "  fixed h = 1e-4, mu = 1e7: w_r h = %.3f, |R| = %.8f per step\n", w7 * h, a7);
        if (g7->status == GSL_SUCCESS)
            fprintf(out, "    runs 5 s: %ld steps, max |C| %.2e, position error %.2e\n",
                    g7->stats.run.ode.steps, g7->stats.max_C, g7->err.position);
        else
            print_stop(out, "    ", g7);
        fprintf(out, "  fixed h = 1e-4, mu = 1e8: w_r h = %.3f > sqrt(3) = %.3f, |R| = %.4f per step\n",
                w8 * h, sqrt(3.0), a8);
        if (g8->status == GSL_SUCCESS)
            fprintf(out, "    ran to the end (unexpected)\n");
        else
            print_stop(out, "    ", g8);
        fprintf(out, "  So the document's 19.3 s at mu = 1e8 cannot have come from fixed steps of 1e-4:\n"
                     "  that run blows up after %ld steps. ode23 survived by shrinking its steps (%ld).\n\n",
                g8->stats.run.ode.steps, S->sweep[2][N_MU - 1].stats.run.ode.steps);
    }

    /* ---------------------------------------------------------------- 9 */
    {
        const double a = 20, b2[2] = {400, 20};
        fprintf(out, "Step 9. The printed Baumgarte sign (eq. 72, listing A.2.b) blows up\n");
        fprintf(out, "  gamma_B = gamma - 2 alpha C' - beta^2 C makes the violation obey C'' + 2 alpha C' +\n"
                     "  beta^2 C = 0; eq. (72) and A.2.b use gamma + 2 alpha C' + beta^2 C, i.e.\n"
                     "  C'' - 2 alpha C' - beta^2 C = 0, with roots alpha +- sqrt(alpha^2 + beta^2):\n");
        const ch03_result *pr[2] = {&S->r23[M_PRINTED], &S->rb[2]};
        const ch03_result *ok[2] = {&S->r23[M_PEN_B], &S->rb[1]};
        for (int i = 0; i < 2; i++) {
            const double r = sqrt(a * a + b2[i]);
            const double disc = a * a - b2[i];
            fprintf(out, "  alpha = 20, beta = %s: printed roots %+.2f, %+.2f /s; ", i == 0 ? "20" : "sqrt(20)",
                    a + r, a - r);
            if (disc == 0)
                fprintf(out, "stable sign: %+.2f twice (critical damping)\n", -a);
            else if (disc > 0)
                fprintf(out, "stable sign: %+.2f, %+.2f\n", -a + sqrt(disc), -a - sqrt(disc));
            else
                fprintf(out, "stable sign: %+.2f +- %.2f i\n", -a, sqrt(-disc));
            fprintf(out, "    printed, ode23: ");
            print_stop(out, "", pr[i]);
            fprintf(out, "    |C| grows at %.1f /s from 1e-4 to 1e-1 (root %.2f)\n",
                    S->printed_rate[i], a + r);
            fprintf(out, "    stable sign, ode23: bounded, max |C| = %.2e over 5 s\n", ok[i]->stats.max_C);
        }
        fprintf(out, "  The document reports stable Baumgarte runs (Figs. 9, 11; 1.0045 s): the code it ran\n"
                     "  cannot have been A.2.b as printed. The chapter's penalty-baumgarte is eq. (72')\n"
                     "  with the stable sign; penalty-baumgarte-printed keeps the erratum to show it.\n\n");
    }

    /* ---------------------------------------------------------------- 10 */
    {
        fprintf(out, "Step 10. The listings' corrections never run; a post-step projection does\n");
        fprintf(out, "  A.2.a, A.2.c and A.2.f begin with `while abs(C) > 1e-10` (C = [x^2+y^2-1; z]).\n"
                     "  MATLAB enters a `while` on a vector only when ALL its elements are true, and\n"
                     "  C(2) = z is exactly 0 (z'' = 0 from rest). On the %zu states of the penalty run:\n",
                S->states);
        fprintf(out, "    MATLAB's condition true: %ld states; |C(1)| > 1e-10: %ld states; largest |z| = %g\n",
                S->matlab_runs, S->any_runs, S->r23[M_PEN].err.z_abs);
        fprintf(out, "  So the loops are dead code, and had they run they would have moved only the\n"
                     "  function's local copy of q, never the integrator's state. The document's\n"
                     "  'unstabilised' runs are the plain index-1 formulations above.\n");
        fprintf(out, "  The correction done right (correction.h): after each step, Newton on C(q) = 0 with\n"
                     "  dq = -C_q^T (C_q C_q^T)^-1 C, then q' onto C_q q' = 0; the run loop restarts the\n"
                     "  integrator's FSAL stage after each change (--project):\n");
        const char *h[] = {"ode23 + projection", "corrections", "f evals", "max |C| on the grid",
                           "max |C| at step ends", "pos. error", "vel. error"};
        mbd_table *t = mbd_table_alloc(7, h);
        const char *pm[2] = {"projection", "penalty"};
        for (int i = 0; i < 2; i++) {
            const ch03_result *g = &S->proj_run[i][0], *s = &S->proj_run[i][1];
            mbd_table_cell(t, "%s", pm[i]);
            mbd_table_cell(t, "%ld", g->stats.run.corrections);
            mbd_table_cell(t, "%ld", g->stats.run.ode.fevals);
            mbd_table_num(t, g->stats.max_C, 3);
            mbd_table_num(t, s->stats.max_C, 3);
            mbd_table_num(t, g->err.position, 3);
            mbd_table_num(t, g->err.velocity, 3);
        }
        mbd_table_print(t, out, 2);
        mbd_table_free(t);
        fprintf(out, "  At the end of every step the state is back on the constraints; outputs between\n"
                     "  step ends come from the step's interpolant and carry one step's drift. The\n"
                     "  projection removes the drift, not ode23's error along the circle.\n\n");
    }

    /* ---------------------------------------------------------------- 11 */
    {
        fprintf(out, "Step 11. The index-2 penalty (eq. 58) under a stiff integrator (msbdf, RelTol 1e-8)\n");
        fprintf(out, "  q' = v - mu C_q^T C, M v' = F - mu C_q^T (C_q v): two penalties, on positions and\n"
                     "  on the carried velocity v. Errors of the positions and of the kinematic velocity q'\n"
                     "  against the exact solution:\n");
        const char *h[] = {"mu", "steps", "f evals", "max |C|", "x", "y", "x'", "y'"};
        mbd_table *t = mbd_table_alloc(8, h);
        for (int i = 0; i < 3; i++) {
            const ch03_result *x = &S->idx2[i];
            mbd_table_cell(t, "1e%.0f", log10(S->idx2_mu[i]));
            mbd_table_cell(t, "%ld", x->stats.run.ode.steps);
            mbd_table_cell(t, "%ld", x->stats.run.ode.fevals);
            mbd_table_num(t, x->stats.max_C, 3);
            mbd_table_num(t, x->err.x, 3);
            mbd_table_num(t, x->err.y, 3);
            mbd_table_num(t, x->err.xd, 3);
            mbd_table_num(t, x->err.yd, 3);
        }
        mbd_table_print(t, out, 2);
        mbd_table_free(t);
        fprintf(out, "  The error falls as 1/mu; |C| falls as 1/mu^2 until msbdf's tolerance (AbsTol 1e-10)\n"
                     "  takes over. Penalising the kinematic q' in the second row instead of v leaves\n"
                     "  v + mu C_q^T C free to drift, and the mass leaves the circle (see formulation.c).\n");
        const mbd_sim_stats *x = &S->idx2_explicit;
        if (S->idx2_explicit_status == GSL_SUCCESS && x->run.ode.steps > 0)
            fprintf(out, "  With ode23 instead, eq. (58) at mu = 1e5 takes %ld steps for its first %g s (mean\n"
                         "  step %.1e s, held down by stability): some %.0f thousand steps for 5 s. The document's\n"
                         "  1.1308 s, next to 0.9365 s for the static penalty's few hundred steps, fits what\n"
                         "  listing A.2.f does as printed: it computes this q', discards it, and integrates\n"
                         "  eq. (71).\n\n",
                    x->run.ode.steps, IDX2_EXPLICIT_T, IDX2_EXPLICIT_T / (double)x->run.ode.steps,
                    5.0 / IDX2_EXPLICIT_T * (double)x->run.ode.steps / 1000.0);
        else
            fprintf(out, "  With ode23 instead, eq. (58) failed within %g s.\n\n", IDX2_EXPLICIT_T);
    }

    /* ---------------------------------------------------------------- 12 */
    fprintf(out, "Step 12. Errata and claims in Sec. 2.4.1 (document 000), and what the chapter does\n");
    fprintf(out, "  - Eq. (72) and A.2.b: the Baumgarte terms' sign is destabilising (Step 9);\n"
                 "    penalty-baumgarte uses gamma - 2 alpha C' - beta^2 C, and beta is squared.\n"
                 "  - Eq. (71) has F - mu C_q^T gamma (with eq. 69's sign of gamma); with gamma of\n"
                 "    eq. (22), as every listing has it, it is F + mu C_q^T gamma (eq. 71').\n"
                 "  - The printed gamma is a 2x3 matrix; it is the vector (-2 (x'^2 + y'^2), 0).\n"
                 "  - 'ODE23 steps through the timespan at the specified time step': it does not;\n"
                 "    0.0001 s is the output spacing (Step 3). Fixed steps would break the alternate\n"
                 "    penalty at mu = 1e8 (Step 8).\n"
                 "  - 'Expected to represent a simple harmonic oscillator': T = %.4f s, not %.4f s.\n"
                 "  - The text cites eq. (72) for the direct integration; it means eq. (73).\n"
                 "  - Text alpha = 20, beta = 4.4721; listings alpha = beta = 20 (Step 4 shows both).\n"
                 "  - The correction loops never run and act on a local copy (Step 10).\n"
                 "  - A.2.f discards its q' and integrates eq. (71); the index-2 penalty is here\n"
                 "    eq. (58) as written (Step 11).\n"
                 "  - Fig. 11's accuracy gain from Baumgarte is not robust (Step 4).\n",
            e->T, 2 * M_PI / e->w);
    return GSL_SUCCESS;
}

/* ------------------------------------------------------------------------ */
/* One run                                                                   */

int ch03_write_summary(FILE *out, const ch03_spec *spec, const ch03_result *r,
                         const ch03_exact *e)
{
    int bad = 0;
    bad |= mbd_summary_string(out, "method", spec->method);
    bad |= mbd_summary_string(out, "integrator", r->integrator);
    bad |= mbd_summary_long(out, "integrator_replaced", r->forced_msbdf);
    bad |= mbd_summary_double(out, "mu", spec->mu);
    bad |= mbd_summary_double(out, "alpha", spec->alpha);
    bad |= mbd_summary_double(out, "beta", spec->beta);
    bad |= mbd_summary_long(out, "project", spec->project);
    bad |= mbd_summary_double(out, "t_end", spec->t_end);
    bad |= mbd_summary_double(out, "dt_out", spec->dt_out);
    bad |= mbd_summary_double(out, "t_reached", r->stats.run.t_reached);
    bad |= mbd_summary_long(out, "steps", r->stats.run.ode.steps);
    bad |= mbd_summary_long(out, "rejected", r->stats.run.ode.rejected);
    bad |= mbd_summary_long(out, "fevals", r->stats.run.ode.fevals);
    bad |= mbd_summary_long(out, "corrections", r->stats.run.corrections);
    /* over the outputs up to t_reached; none when not one output was made */
    const int any = r->stats.run.outputs > 0;
    bad |= mbd_summary_optional(out, "max_C_norm", r->stats.max_C, any);
    bad |= mbd_summary_optional(out, "max_Cdot_norm", r->stats.max_Cdot, any);
    bad |= mbd_summary_optional(out, "max_energy_error", r->stats.max_dE, any);
    bad |= mbd_summary_optional(out, "max_position_error", r->err.position, any);
    bad |= mbd_summary_optional(out, "max_velocity_error", r->err.velocity, any);
    bad |= mbd_summary_optional(out, "error_x", r->err.x, any);
    bad |= mbd_summary_optional(out, "error_y", r->err.y, any);
    bad |= mbd_summary_optional(out, "error_x_dot", r->err.xd, any);
    bad |= mbd_summary_optional(out, "error_y_dot", r->err.yd, any);
    bad |= mbd_summary_optional(out, "max_abs_z", r->err.z_abs, any);
    bad |= mbd_summary_double(out, "period_exact", e->T);
    bad |= mbd_summary_string(out, "status", mbd_status_word(r->status));
    return bad ? MBD_ENONFINITE : GSL_SUCCESS;
}

void ch03_write_report(FILE *out, const ch03_spec *spec, const ch03_result *r,
                         const mbd_history *h, const ch03_pendulum *p, const ch03_exact *e,
                         int no_timing)
{
    char buf[32];
    fprintf(out, "%s: %s", PROGRAM, spec->method);
    if (ch03_method_uses_mu(spec->method))
        fprintf(out, ", mu = %g", spec->mu);
    if (ch03_method_uses_baumgarte(spec->method))
        fprintf(out, ", alpha = %g, beta = %g", spec->alpha, spec->beta);
    if (spec->project)
        fprintf(out, ", post-step projection");
    fprintf(out, ", integrator %s", r->integrator);
    if (r->forced_msbdf && spec->integrator_asked)
        fprintf(out, " (eq. 58 is stiff: msbdf replaces %s)", spec->integrator_asked);
    fprintf(out, ", t = 0 ... %g s, outputs every %g s\n", spec->t_end, spec->dt_out);
    fprintf(out, "  steps %ld (rejected %ld), f evaluations %ld, corrections %ld, time %s\n",
            r->stats.run.ode.steps, r->stats.run.ode.rejected, r->stats.run.ode.fevals,
            r->stats.run.corrections, seconds(buf, sizeof buf, r->seconds, no_timing));
    fprintf(out, "  against the exact solution: position error %.3e (x %.3e, y %.3e, z %.3e),\n"
                 "  velocity error %.3e (x' %.3e, y' %.3e)\n",
            r->err.position, r->err.x, r->err.y, r->err.z, r->err.velocity, r->err.xd, r->err.yd);
    fprintf(out, "  max |C| %.3e, max |C'| %.3e, max |E - E0| %.3e\n", r->stats.max_C,
            r->stats.max_Cdot, r->stats.max_dE);
    if (h->rows > 0) {
        const size_t k = h->rows - 1;
        double q[3], qd[3];
        ch03_exact_state(p, e, h->t[k], q, qd);
        const double *hq = mbd_history_q(h, k), *hv = mbd_history_qd(h, k);
        fprintf(out, "  at t = %g s: x = %.6f, y = %.6f, x' = %.6f, y' = %.6f\n", h->t[k], hq[0],
                hq[1], hv[0], hv[1]);
        fprintf(out, "       exact: x = %.6f, y = %.6f, x' = %.6f, y' = %.6f\n", q[0], q[1], qd[0],
                qd[1]);
    }
}

/* ------------------------------------------------------------------------ */
/* Benchmarks                                                                */

/* The kinds of case are cli.h's, the same in every chapter. The document's
 * methods run as the Octave comparison of issue 15 runs them (`--method M
 * --integrator ode23 --dt-out 1e-4 --summary`: t = 0 ... 5 s, mu = 1e5,
 * alpha = beta = 20): whole run, integration, output and right-hand side.
 * The other methods and integrators are timed at the sparser output spacing
 * of 1e-2 s, integration only. */

typedef struct {
    const ch03_pendulum *p;
    ch03_spec spec;
    FILE *null;
} bench_case;

/* what main.c makes of --method M --integrator ode23 --dt-out 1e-4 */
static void bench_summary_spec(ch03_spec *s, const char *method)
{
    ch03_spec_default(s);
    s->method = method;
    mbd_ode_preset("ode23", &s->ode);
    s->dt_out = 1e-4;
    s->max_steps = MBD_RUN_MAX_STEPS;
    s->max_outputs = MBD_RUN_MAX_OUTPUTS;
}

/* what ch03_program_run does with --summary, the summary going to /dev/null */
static int bench_whole_run(void *ctx, mbd_cli_bench_counts *n)
{
    bench_case *b = ctx;
    ch03_pendulum p;
    ch03_pendulum_document(&p);
    ch03_exact e;
    int st = ch03_exact_init(&p, &e);
    if (st != GSL_SUCCESS)
        return st;
    ch03_result r;
    st = ch03_run(&p, &b->spec, NULL, &r);   /* no history, as the summary keeps none */
    if (st == GSL_SUCCESS)
        st = r.status;
    if (st == GSL_SUCCESS)
        st = ch03_write_summary(b->null, &b->spec, &r, &e);
    n->steps = r.stats.run.ode.steps;
    n->fevals = r.stats.run.ode.fevals;
    n->outputs = r.stats.rows;
    return st;
}

/* the direct angle equation's integration (the unconstrained form of the
 * library's method run) */
static int bench_direct(void *ctx, mbd_cli_bench_counts *n)
{
    bench_case *b = ctx;
    mbd_history h;
    mbd_history_init(&h);
    mbd_study_result res;
    int st = ch03_direct_run(b->p, &b->spec, &h, &res);
    n->steps = res.stats.run.ode.steps;
    n->fevals = res.stats.run.ode.fevals;
    n->outputs = (long)h.rows;
    mbd_history_free(&h);
    return st != GSL_SUCCESS ? st : res.status;
}

/* the story with its own computations, released after it, so that the next
 * pass's cases find the memory as the first pass's did */
static int bench_story(void *ctx, mbd_cli_bench_counts *n)
{
    (void)n;
    bench_case *b = ctx;
    ch03_study *S = ch03_study_alloc();
    if (S == NULL)
        return GSL_ENOMEM;
    int st = ch03_story(b->null, S, 1);
    ch03_study_free(S);
    return st;
}

static int bench_cases(long repeats, bench_case *b)
{
    mbd_system sys;
    ch03_system(b->p, &sys);
    double q0[CH03_N], qd0[CH03_N];
    ch03_initial(b->p, q0, qd0);
    static const char *const document[] = {"projection", "penalty"};
    for (size_t i = 0; i < sizeof document / sizeof document[0]; i++) {
        bench_summary_spec(&b->spec, document[i]);
        int st = mbd_cli_bench(stdout, PROGRAM, "pendulum-ode23", document[i],
                               MBD_CLI_BENCH_WHOLE_RUN, repeats, bench_whole_run, b);
        if (st == GSL_SUCCESS)
            st = mbd_cli_bench_pipeline(stdout, PROGRAM, "pendulum-ode23", NULL, repeats, &sys,
                                        &b->spec, q0, qd0, MBD_CLI_BENCH_PIPELINE);
        if (st != GSL_SUCCESS)
            return st;
    }
    static const struct { const char *method, *integrator; double mu; } cases[] = {
        {"direct", "ode23", 0},
        {"projection", "ode23", 0},
        {"penalty", "ode23", 1e5},
        {"penalty-baumgarte", "ode23", 1e5},
        {"alternate-penalty", "ode23", 1e5},
        {"alternate-penalty", "ode23", 1e8},
        {"index2-penalty", "msbdf", 1e5},
        {"projection", "tight", 0},
        {"penalty", "tight", 1e5},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ch03_spec_for(&b->spec, cases[i].method, cases[i].integrator, 0.01);
        if (cases[i].mu > 0)
            b->spec.mu = cases[i].mu;
        char name[64], method[64];
        snprintf(name, sizeof name, "pendulum-%s-dt0.01", cases[i].integrator);
        if (cases[i].mu > 0)
            snprintf(method, sizeof method, "%s mu=%g", cases[i].method, cases[i].mu);
        else
            snprintf(method, sizeof method, "%s", cases[i].method);
        int st;
        if (strcmp(cases[i].method, "direct") == 0)
            st = mbd_cli_bench(stdout, PROGRAM, name, method, MBD_CLI_BENCH_INTEGRATION, repeats,
                               bench_direct, b);
        else
            st = mbd_cli_bench_pipeline(stdout, PROGRAM, name, method, repeats, &sys, &b->spec,
                                        q0, qd0, 1u << MBD_CLI_BENCH_INTEGRATION);
        if (st != GSL_SUCCESS)
            return st;
    }
    return mbd_cli_bench(stdout, PROGRAM, "story", "", MBD_CLI_BENCH_WHOLE_RUN, repeats,
                         bench_story, b);
}

int ch03_bench(long repeats, ch03_study *S)
{
    ch03_pendulum p;
    ch03_pendulum_document(&p);
    (void)S;   /* the story's case computes its own */
    bench_case b = {.p = &p, .null = mbd_cli_bench_sink()};
    return b.null == NULL ? MBD_EIO : bench_cases(repeats, &b);
}

/* ------------------------------------------------------------------------ */
/* The program's parts (main.c dispatches to them)                          */

typedef struct {
    const ch03_program *prog;
    const ch03_result *r;
    const ch03_exact *e;
    const mbd_history *h;
    const ch03_pendulum *p;
} one_run;

static int summary_of(void *ctx, FILE *out)
{
    const one_run *o = ctx;
    return ch03_write_summary(out, &o->prog->spec, o->r, o->e);
}

static int report_of(void *ctx, FILE *out)
{
    const one_run *o = ctx;
    ch03_write_report(out, &o->prog->spec, o->r, o->h, o->p, o->e, o->prog->opt->no_timing);
    return GSL_SUCCESS;
}

int ch03_program_run(void *ctx, mbd_failure *fail)
{
    ch03_program *prog = ctx;
    const mbd_cli_common *opt = prog->opt;
    ch03_pendulum p;
    ch03_pendulum_document(&p);
    ch03_exact e;
    ch03_exact_init(&p, &e);
    ch03_result r;
    mbd_history h;
    mbd_history_init(&h);
    /* a summary alone is maxima over the outputs, folded as they come: no
     * history is kept for it (the CSV and the report need one) */
    const int keep = opt->csv != NULL || !opt->summary || opt->animate != NULL;
    int st = ch03_run(&p, &prog->spec, keep ? &h : NULL, &r);
    if (st != GSL_SUCCESS) {
        mbd_failure_set(fail, st, NAN, "the run could not be set up (%s)", mbd_strerror(st));
        mbd_history_free(&h);
        return st;
    }
    /* the animation first, of what the run computed, failed or not (a bad
     * --animate path must not leave a CSV or a summary behind it) */
    if (opt->animate) {
        st = ch03_animate_run(opt->animate, opt, &prog->spec, &r, &h, fail);
        if (st != GSL_SUCCESS) {
            mbd_history_free(&h);
            return st;
        }
    }
    one_run o = {prog, &r, &e, &h, &p};
    mbd_study_result res = {.status = r.status, .fail = r.fail, .stats = r.stats};
    st = mbd_study_write(&res, &h, opt->csv, ch03_names, 1, opt->summary, summary_of, report_of,
                         &o, fail);
    mbd_history_free(&h);
    return st;
}

int ch03_program_bench(void *ctx, long repeats, mbd_failure *fail)
{
    (void)fail;   /* mbd_cli_bench_passes names a failed case */
    return ch03_bench(repeats, ((ch03_program *)ctx)->S);
}

int ch03_program_story(void *ctx, FILE *out, int no_timing, mbd_failure *fail)
{
    ch03_program *prog = ctx;
    int st = ch03_story(out, prog->S, no_timing);
    if (st != GSL_SUCCESS)
        mbd_failure_set(fail, st, NAN, "the story failed: %s", mbd_strerror(st));
    return st;
}
