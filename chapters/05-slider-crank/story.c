/* story.c -- chapter 05's story, one run from the command line, and the
 * benchmarks (see study.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_math.h>

#include "mbd/cli.h"
#include "mbd/io.h"
#include "mbd/simulate.h"
#include "mbd/study.h"
#include "study.h"

#define PROGRAM "ch05-slider-crank"

/* ------------------------------------------------------------------------ */
/* The story                                                                 */

static const char *result_text(const ch05_run *r, char *buf, size_t size)
{
    if (r->status == GSL_SUCCESS)
        snprintf(buf, size, "reached %.1f s", r->stats.run.t_reached);
    else
        snprintf(buf, size, "%s at %.5f s", mbd_status_word(r->status), r->fail.time);
    return buf;
}

static void print_state_row(mbd_table *t, double time, const double q[3], const double qd[3])
{
    mbd_table_cell(t, "%.1f", time);
    for (int i = 0; i < 3; i++)
        mbd_table_cell(t, "%.8f", q[i] + 0.0);
    for (int i = 0; i < 3; i++)
        mbd_table_cell(t, "%.8f", qd[i] + 0.0);
}

int ch05_story(FILE *out, ch05_study *s, int no_timing)
{
    const ch05_model *m = &s->model;
    fprintf(out, "Chapter 05 -- The slider-crank: penalty against projection, and the fold\n");
    fprintf(out, "Reproduces document 000 (Newhart 2019), Sec. 2.4.3, Table 4, Figs. 20-26 and "
                 "listings A.4.\n\n");

    /* ---------------------------------------------------------------- 1 */
    fprintf(out, "Step 1. The mechanism and Table 4\n");
    fprintf(out, "  crank: L1 = %g m, m1 = %g kg, turning about the origin; connecting rod: L2 = %g m,"
                 " m2 = %g kg;\n  slider: m3 = %g kg on the x axis; g = %g m/s^2 in -y. Angles from "
                 "the downward vertical,\n  th2 relative to the crank: q = (th1, th2, x3), "
                 "two constraints, one degree of freedom.\n",
            m->L1, m->m1, m->L2, m->m2, m->m3, m->g);
    {
        const char *h[] = {"", "th1 [rad]", "th2 [rad]", "x3 [m]"};
        mbd_table *t = mbd_table_alloc(4, h);
        mbd_table_cell(t, "toolkit (listing's formulas)");
        for (int i = 0; i < 3; i++)
            mbd_table_cell(t, "%.10f", s->q0[i]);
        mbd_table_cell(t, "Table 4");
        for (int i = 0; i < 3; i++)
            mbd_table_cell(t, "%.4f", DOC_Q0[i]);
        mbd_table_print(t, out, 2);
        mbd_table_free(t);
    }
    fprintf(out, "  th1 = 3 pi/4, th2 = acos(-cos th1) - th1 = -pi/2, x3 = 2 sqrt 2; released from rest.\n");
    fprintf(out, "  |C(q0)| = %.2e: the initial state is on the constraints to rounding.\n",
            hypot(s->C0[0], s->C0[1]));
    fprintf(out, "  Energy, with the zero of potential at the pivot's height (the slider's line):\n"
                 "  E0 = -(m1 + m2) g (L/2) cos th1 = %.6f J, all of it potential (released at rest).\n\n",
            s->E0);

    /* ---------------------------------------------------------------- 2 */
    fprintf(out, "Step 2. The model checked: C_q and gamma by finite differences, F by Lagrange\n");
    fprintf(out, "  at q = (1.1, -0.7, 2.5), q' = (-0.8, 1.3, 0.4) (mbd_system_check_derivatives):\n");
    {
        const char *h[] = {"gamma", "C_q rel. difference", "gamma rel. difference", "verdict"};
        mbd_table *t = mbd_table_alloc(4, h);
        mbd_table_cell(t, "listing A.4 (no leading minus)");
        mbd_table_cell(t, "%.1e", s->fd_code.jacobian_rel);
        mbd_table_cell(t, "%.1e", s->fd_code.gamma_rel);
        mbd_table_cell(t, "%s", s->fd_code.gamma_rel < 1e-5 ? "right" : "WRONG");
        mbd_table_cell(t, "Sec. 2.4.3 as printed (-[...])");
        mbd_table_cell(t, "%.1e", s->fd_printed.jacobian_rel);
        mbd_table_cell(t, "%.1e", s->fd_printed.gamma_rel);
        mbd_table_cell(t, "%s", s->fd_printed.gamma_rel < 1e-5 ? "right" : "wrong sign");
        mbd_table_print(t, out, 2);
        mbd_table_free(t);
    }
    fprintf(out, "  The document's F: gravity plus velocity terms h (th2'^2 + 2 th1' th2'), -h th1'^2 with\n"
                 "  h = (1/2) m2 L1 L2 sin th2 (its \"2 m2 sin th2\" for L1 = L2 = 2). Lagrange's equations\n"
                 "  for the consistent mass matrix give, at the same state:\n");
    {
        const char *h[] = {"", "row 1", "row 2", "row 3"};
        mbd_table *t = mbd_table_alloc(4, h);
        mbd_table_cell(t, "document's F(q,q') - F(q,0)");
        for (int i = 0; i < 3; i++)
            mbd_table_cell(t, "%.8f", s->vel_terms_doc[i] + 0.0);
        mbd_table_cell(t, "-(M' q' - (1/2) d(q'^T M q')/dq)");
        for (int i = 0; i < 3; i++)
            mbd_table_cell(t, "%.8f", s->vel_terms_lagrange[i] + 0.0);
        mbd_table_print(t, out, 2);
        mbd_table_free(t);
    }
    fprintf(out, "  So F belongs to the consistent mass matrix; the document's M does not go with it:\n");
    fprintf(out, "    document   M(q0) = diag(%.4f, %.4f, %.4f)\n", s->Md[0], s->Md[4], s->Md[8]);
    fprintf(out, "    consistent M(q0) = [%.4f %.4f 0; %.4f %.4f 0; 0 0 %.4f]  (th2 = -pi/2: cos th2 = 0)\n\n",
            s->Mc[0], s->Mc[1], s->Mc[3], s->Mc[4], s->Mc[8]);

    /* ---------------------------------------------------------------- 3 */
    fprintf(out, "Step 3. The reduced reference: one equation on the branch th2 = pi - 2 th1\n");
    fprintf(out, "  With L1 = L2 = L the end of rod 2 stays on y = 0 when rod 2 mirrors the crank:\n"
                 "  th2 = pi - 2 th1, x3 = 2 L sin th1. On this branch both models reduce to\n"
                 "    m(th1) th1'' = -(m1 + m2) g L/2 sin th1 + (2 m2 + 4 m3) L^2 sin th1 cos th1 th1'^2\n"
                 "  with m = %g + %g cos^2 th1 (document) or %g + %g cos^2 th1 (consistent),\n"
                 "  integrated with GSL rk8pd at a tolerance of %.0e.\n",
            ch05_reduced_inertia(m, CH05_MASS_DOCUMENT, M_PI / 2),
            ch05_reduced_inertia(m, CH05_MASS_DOCUMENT, 0) - ch05_reduced_inertia(m, CH05_MASS_DOCUMENT, M_PI / 2),
            ch05_reduced_inertia(m, CH05_MASS_CONSISTENT, M_PI / 2),
            ch05_reduced_inertia(m, CH05_MASS_CONSISTENT, 0) - ch05_reduced_inertia(m, CH05_MASS_CONSISTENT, M_PI / 2),
            CH05_REFERENCE_TOL);
    const double times[] = {0.5, 1.0, 1.5, 1.8};
    for (int k = 0; k < 2; k++) {
        fprintf(out, "  reference, %s mass matrix:\n", ch05_mass_name((ch05_mass_kind)k));
        const char *h[] = {"t [s]", "th1", "th2", "x3", "th1'", "th2'", "x3'"};
        mbd_table *t = mbd_table_alloc(7, h);
        for (int i = 0; i < 4; i++) {
            double q[3], qd[3];
            ch05_reference_state(&s->ref[k], times[i], q, qd);
            print_state_row(t, times[i], q, qd);
        }
        mbd_table_print(t, out, 4);
        mbd_table_free(t);
    }
    fprintf(out, "  The slider is farthest out, x3 = 2 L = 4 m (th1 = pi/2), at t = %.6f s (document)\n"
                 "  and %.6f s (consistent). The crank reaches th1 = 0 -- the fold, rods folded onto\n"
                 "  each other, x3 = 0 -- at t = %.6f s (document: just after the document's 1.8 s)\n"
                 "  and at t = %.6f s (consistent: inside it).\n\n",
            s->t_x3max[0], s->t_x3max[1], s->fold[0], s->fold[1]);

    /* ---------------------------------------------------------------- 4 */
    fprintf(out, "Step 4. The document's runs (Figs. 24-26): document M, ode23, mu = 1e5, alpha = beta = 20\n");
    {
        const double ts[] = {0.3, 0.5, 0.6, 0.9, 1.0, 1.2, 1.5, 1.8};
        const char *h[] = {"t [s]", "th1", "th2", "x3", "th1'", "th2'", "x3'"};
        fprintf(out, "  penalty with Baumgarte (Fig. 24):\n");
        mbd_table *t = mbd_table_alloc(7, h);
        for (size_t i = 0; i < sizeof ts / sizeof ts[0]; i++) {
            size_t k = mbd_history_row_at(&s->pen.hist, ts[i] + 1e-9);
            print_state_row(t, s->pen.hist.t[k], mbd_history_q(&s->pen.hist, k),
                            mbd_history_qd(&s->pen.hist, k));
        }
        mbd_table_print(t, out, 4);
        mbd_table_free(t);
    }
    {
        double d[6], ep[6] = {0}, ej[6] = {0};
        ch05_run_difference(&s->pen, &s->proj, T_DOC, d);
        /* per-coordinate errors against the reference */
        const ch05_run *rr[2] = {&s->pen, &s->proj};
        double *e[2] = {ep, ej};
        for (int r = 0; r < 2; r++) {
            const mbd_history *h = &rr[r]->hist;
            for (size_t k = 0; k < h->rows; k++) {
                double q[3], qd[3];
                ch05_reference_state(&s->ref[CH05_MASS_DOCUMENT], h->t[k], q, qd);
                for (int i = 0; i < 3; i++) {
                    e[r][i] = fmax(e[r][i], fabs(mbd_history_q(h, k)[i] - q[i]));
                    e[r][3 + i] = fmax(e[r][3 + i], fabs(mbd_history_qd(h, k)[i] - qd[i]));
                }
            }
        }
        fprintf(out, "  largest differences over 0-1.8 s (Fig. 26 plots the first row):\n");
        const char *h[] = {"", "th1", "th2", "x3", "th1'", "th2'", "x3'"};
        mbd_table *t = mbd_table_alloc(7, h);
        const char *rows[] = {"|penalty - projection|", "|penalty - reference|",
                              "|projection - reference|"};
        const double *vals[] = {d, ep, ej};
        for (int r = 0; r < 3; r++) {
            mbd_table_cell(t, "%s", rows[r]);
            for (int i = 0; i < 6; i++)
                mbd_table_cell(t, "%.2e", vals[r][i]);
        }
        mbd_table_print(t, out, 4);
        mbd_table_free(t);
    }
    fprintf(out, "  Penalty and projection differ by less than either differs from the reference: at\n"
                 "  ode23's tolerances (RelTol 1e-3) the integrator, not the formulation, sets the error.\n");
    {
        char b1[32], b3[32];
        const char *h[] = {"method", "steps", "f evals", "time (toolkit)", "time (document)"};
        mbd_table *t = mbd_table_alloc(5, h);
        mbd_table_cell(t, "projection-baumgarte");
        mbd_table_cell(t, "%ld", s->proj.stats.run.ode.steps);
        mbd_table_cell(t, "%ld", s->proj.stats.run.ode.fevals);
        mbd_table_cell(t, "%s", mbd_cli_format_seconds(b1, sizeof b1, s->seconds_proj, no_timing));
        mbd_table_cell(t, "%.4f", DOC_SECONDS_PROJECTION);
        mbd_table_cell(t, "penalty-baumgarte");
        mbd_table_cell(t, "%ld", s->pen.stats.run.ode.steps);
        mbd_table_cell(t, "%ld", s->pen.stats.run.ode.fevals);
        mbd_table_cell(t, "%s", mbd_cli_format_seconds(b3, sizeof b3, s->seconds_pen, no_timing));
        mbd_table_cell(t, "%.4f", DOC_SECONDS_PENALTY);
        mbd_table_print(t, out, 2);
        mbd_table_free(t);
    }
    fprintf(out, "  (the toolkit's times include recording all 18001 outputs; the document's are\n"
                 "  means over 100 MATLAB runs on its machine, printed without a unit)\n\n");

    /* ---------------------------------------------------------------- 5 */
    fprintf(out, "Step 5. Penalty against projection, with and without Baumgarte, before the fold\n");
    fprintf(out, "  every run to %.1f s; errors against the reduced reference up to %.1f s (document M)\n"
                 "  and %.1f s (consistent M); invariant = max(|th2 + 2 th1 - pi|, |x3 - 4 sin th1|).\n",
            T_THROUGH, T_DOC, T_CONSISTENT);
    for (int k = 0; k < 2; k++) {
        fprintf(out, "  %s mass matrix:\n", ch05_mass_name((ch05_mass_kind)k));
        const char *h[] = {"method", "integrator", "steps", "max |C|", "max |C'|", "position err",
                           "velocity err", "invariant", "max |E - E0|"};
        mbd_table *t = mbd_table_alloc(9, h);
        for (int j = 0; j < N_METHODS + 1; j++)
            for (int i = 0; i < N_INTEG; i++) {
                if (j == N_METHODS && i == I_TIGHT)
                    continue;
                const ch05_run *r = j < N_METHODS ? &s->runs[k][j][i] : &s->post[k];
                double pos, vel, inv, C = 0, Cd = 0;
                ch05_run_errors(r, &s->ref[k], HORIZON[k], &pos, &vel, &inv);
                for (size_t row = 0; row < r->hist.rows && r->hist.t[row] <= HORIZON[k]; row++) {
                    C = fmax(C, r->hist.C_norm[row]);
                    Cd = fmax(Cd, r->hist.Cdot_norm[row]);
                }
                mbd_table_cell(t, "%s", j < N_METHODS ? METHODS[j] : "projection --project");
                mbd_table_cell(t, "%s", INTEGRATORS[i]);
                mbd_table_cell(t, "%ld", r->stats.run.ode.steps);
                mbd_table_cell(t, "%.1e", C);
                mbd_table_cell(t, "%.1e", Cd);
                mbd_table_cell(t, "%.1e", pos);
                mbd_table_cell(t, "%.1e", vel);
                mbd_table_cell(t, "%.1e", inv);
                mbd_table_cell(t, "%.1e", ch05_run_energy_error(r, HORIZON[k]));
            }
        mbd_table_print(t, out, 4);
        mbd_table_free(t);
    }
    {
        double pos, vel, inv;
        ch05_run_errors(&s->runs[0][M_PROJ][I_TIGHT], &s->ref[0], T_DOC, &pos, &vel, &inv);
        fprintf(out, "  At tight tolerances the projection and the reduced equation agree to %.1e in\n"
                     "  positions: two independent routes to one solution. The static penalty carries an\n"
                     "  error of order 1/mu; Baumgarte's terms keep it from drifting. At ode23's\n"
                     "  tolerances every method is off by a few 1e-3, so the document could not have\n"
                     "  seen a difference between them. The slider's largest x3 in the tight projection\n"
                     "  run: %.8f m at t = %.4f s (the reference: 4 m at %.4f s).\n\n",
                pos, s->runs[0][M_PROJ][I_TIGHT].max_x3, s->runs[0][M_PROJ][I_TIGHT].t_max_x3,
                s->t_x3max[0]);
    }

    /* ---------------------------------------------------------------- 6 */
    fprintf(out, "Step 6. The mass matrix: only the consistent one conserves energy\n");
    {
        const double ts[] = {0.0, 0.5, 1.0, 1.5, 1.8};
        const char *h[] = {"t [s]", "E, document M [J]", "E, consistent M [J]",
                           "(1/2) q'^T M_doc q' + V, document M [J]"};
        mbd_table *t = mbd_table_alloc(4, h);
        for (size_t i = 0; i < sizeof ts / sizeof ts[0]; i++) {
            double q[3], qd[3], qc[3], qdc[3];
            ch05_reference_state(&s->ref[0], ts[i], q, qd);
            ch05_reference_state(&s->ref[1], ts[i], qc, qdc);
            double Md[9];
            gsl_matrix_view M = gsl_matrix_view_array(Md, 3, 3);
            ch05_mass_matrix(m, CH05_MASS_DOCUMENT, q, &M.matrix);
            double Td = 0.5 * (Md[0] * qd[0] * qd[0] + Md[4] * qd[1] * qd[1] + Md[8] * qd[2] * qd[2]);
            mbd_table_cell(t, "%.1f", ts[i]);
            mbd_table_cell(t, "%.6f", ch05_energy(m, q, qd));
            mbd_table_cell(t, "%.6f", ch05_energy(m, qc, qdc));
            mbd_table_cell(t, "%.6f", Td + ch05_potential(m, q));
        }
        mbd_table_print(t, out, 2);
        mbd_table_free(t);
    }
    {
        const ch05_run *c = &s->runs[1][M_PROJ][I_TIGHT];
        double dE = ch05_run_energy_error(c, T_CONSISTENT);
        fprintf(out, "  E is the true energy: the consistent kinetic energy of both rods and the slider\n"
                     "  plus gravity, whatever mass matrix drove the motion. With the document's M it\n"
                     "  falls from %.6f J to %.6f J at t = %.3f s (largest drift %.4f J over 0-1.8 s);\n"
                     "  neither it nor the energy of the document's own M is conserved, because the\n"
                     "  document's M and F do not come from one Lagrangian. With the consistent M the\n"
                     "  tight projection keeps E to %.1e J (%.1e relative) up to %.1f s.\n\n",
                s->E0, s->E_ref_min, s->t_E_ref_min, s->E_ref_max_drift, dE, dE / s->E0,
                T_CONSISTENT);
    }

    /* ---------------------------------------------------------------- 7 */
    fprintf(out, "Step 7. The fold th1 = 0: the rods fold onto each other and C_q loses rank\n");
    fprintf(out, "  At th1 = 0, th2 = pi the second row of C_q, (L1 sin th1 + L2 sin(th1 + th2), L2 sin(th1 + th2), 0),\n"
                 "  vanishes: S = C_q M^-1 C_q^T is singular. Two branches of C = 0 cross there: the\n"
                 "  reference's th2 = pi - 2 th1 and the folded th2 = pi, x3 = 0. Along the reference:\n");
    {
        const char *h[] = {"t_fold - t [s]", "th1 (document)", "cond(S) (document)",
                           "th1 (consistent)", "cond(S) (consistent)"};
        mbd_table *t = mbd_table_alloc(5, h);
        for (int e = 1; e <= 8; e++) {
            double dt = pow(10.0, -e);
            mbd_table_cell(t, "1e-%d", e);
            for (int k = 0; k < 2; k++) {
                double q[3], qd[3];
                ch05_reference_state(&s->ref[k], s->fold[k] - dt, q, qd);
                mbd_table_cell(t, "%.3e", q[0]);
                mbd_table_cell(t, "%.3e", ch05_schur_condition(m, (ch05_mass_kind)k, q));
            }
        }
        mbd_table_print(t, out, 2);
        mbd_table_free(t);
    }
    {
        double K[2];
        for (int k = 0; k < 2; k++) {
            double q[3], qd[3];
            ch05_reference_state(&s->ref[k], s->fold[k] - 1e-6, q, qd);
            K[k] = ch05_schur_condition(m, (ch05_mass_kind)k, q) * q[0] * q[0];
        }
        double rate[2], theta_s[2];
        for (int k = 0; k < 2; k++) {
            double y[2];
            ch05_reference_at(&s->ref[k], s->fold[k], y);
            rate[k] = fabs(y[1]);
            theta_s[k] = sqrt(4.0 * K[k] * GSL_DBL_EPSILON);
        }
        fprintf(out, "  cond(S) grows as K / th1^2 with K = %.6f (document) and %.6f (consistent). The\n"
                     "  library refuses S (Cholesky, reciprocal condition below 4 eps) when cond(S) passes\n"
                     "  1.1e15: for |th1| < %.1e rad (document) and %.1e rad (consistent), which the\n"
                     "  crank sweeps at %.2f and %.2f rad/s in about %.0f and %.0f nanoseconds.\n",
                K[0], K[1], theta_s[0], theta_s[1], rate[0], rate[1],
                2e9 * theta_s[0] / rate[0], 2e9 * theta_s[1] / rate[1]);
    }
    for (int k = 0; k < 2; k++)
        fprintf(out, "  The library's projection asked for q'' exactly on the fold (%s M, t = %.6f s):\n"
                     "    %s (%s)\n",
                ch05_mass_name((ch05_mass_kind)k), s->fold[k],
                s->fold_status[k] == GSL_SUCCESS ? "no failure" : s->fold_cause[k],
                mbd_strerror(s->fold_status[k]));
    for (int k = 0; k < 2; k++) {
        const ch05_run *r = &s->on_fold[k];
        fprintf(out, "  A tight projection run told to end on the fold (%s M, --t-end %.10f):\n",
                ch05_mass_name((ch05_mass_kind)k), s->fold[k]);
        if (r->status == GSL_SUCCESS)
            fprintf(out, "    finished: its last evaluation missed the fold.\n");
        else
            fprintf(out, "    %s at t = %.9f s: its last step ends on the fold, and the\n"
                         "    evaluation there fails; the outputs before it are kept.\n",
                    mbd_status_word(r->status), r->fail.time);
    }

    /* the runs through the fold */
    double pmin = INFINITY, pmax = 0.0;
    int failed = 0;
    for (int k = 0; k < 2; k++)
        for (int j = 0; j < N_METHODS + 1; j++)
            for (int i = 0; i < N_INTEG; i++) {
                if (j == N_METHODS && i == I_TIGHT)
                    continue;
                const ch05_run *r = j < N_METHODS ? &s->runs[k][j][i] : &s->post[k];
                failed += r->status != GSL_SUCCESS;
                if (j == M_PROJ || j == M_PROJ_B || j == N_METHODS) {
                    pmin = fmin(pmin, r->probe.cond);
                    pmax = fmax(pmax, r->probe.cond);
                }
            }
    fprintf(out, "  Every run through the fold, to %.1f s: the smallest |th1| at which it evaluated\n"
                 "  the model (its right-hand side), cond(S) there, the largest condition number of\n"
                 "  the matrix the method itself solves with at the outputs (S for the projection,\n"
                 "  M + mu C_q^T C_q for the penalty), and how the run ended:\n",
            T_THROUGH);
    {
        const char *h[] = {"mass", "method", "integrator", "th1 = 0 at [s]", "closest |th1|",
                           "cond(S) there", "own matrix", "result"};
        mbd_table *t = mbd_table_alloc(8, h);
        for (int k = 0; k < 2; k++)
            for (int j = 0; j < N_METHODS + 1; j++)
                for (int i = 0; i < N_INTEG; i++) {
                    if (j == N_METHODS && i == I_TIGHT)
                        continue;
                    const ch05_run *r = j < N_METHODS ? &s->runs[k][j][i] : &s->post[k];
                    char buf[64];
                    mbd_table_cell(t, "%s", ch05_mass_name((ch05_mass_kind)k));
                    mbd_table_cell(t, "%s", j < N_METHODS ? METHODS[j] : "projection --project");
                    mbd_table_cell(t, "%s", INTEGRATORS[i]);
                    if (isfinite(r->fold_time))
                        mbd_table_cell(t, "%.5f", r->fold_time);
                    else
                        mbd_table_cell(t, "-");
                    mbd_table_cell(t, "%.1e", r->probe.min_abs_theta1);
                    mbd_table_cell(t, "%.1e", r->probe.cond);
                    mbd_table_num(t, r->max_own_cond, 2);
                    mbd_table_cell(t, "%s", result_text(r, buf, sizeof buf));
                }
        mbd_table_print(t, out, 2);
        mbd_table_free(t);
    }
    if (failed == 0)
        fprintf(out, "  No run failed. The steps straddle th1 = 0: at the projection runs' closest\n"
                     "  evaluations cond(S) was between %.1e and %.1e, short of the 1.1e15 at which\n"
                     "  S is refused. The penalty never factors S: M + mu C_q^T C_q is positive definite\n"
                     "  because M is, and its condition number, set by mu, stays near %.0e through\n"
                     "  the fold. The penalty passes the fold by construction.\n",
                pmin, pmax, s->runs[0][M_PEN_B][I_TIGHT].max_own_cond);
    else
        fprintf(out, "  %d run(s) failed at the fold (above); the others stepped across it.\n", failed);

    /* >> branch-story */
    double weak[2];
    for (int k = 0; k < 2; k++) {
        double q[3], qd[3], S[2][2];
        ch05_branch_state(m, 1e-6, 0.0, q, qd);
        ch05_schur(m, (ch05_mass_kind)k, q, S);
        weak[k] = 1.0 / sqrt(1e5 * S[1][1] / (q[0] * q[0]));   /* mu S22 = 1 */
    }
    fprintf(out, "  Which branch does each continue on? Near the fold, with u = th1 and v = th2 - pi,\n"
                 "  C2 = -(L/2) v (2u + v): C2 = 0 is the crossing X of the two branches, but a drift\n"
                 "  C2 = c is a hyperbola whose arms join the reference branch to the folded one, turning\n"
                 "  within |th1| ~ sqrt(2|c|/L) of the fold. A solution that keeps C2 = c must turn;\n"
                 "  whether a numerical one does depends on whether it resolves the turn:\n");
    {
        const char *h[] = {"mass", "method", "integrator", "C2 at th1 = 0.05", "turn width [rad]",
                           "step across [rad]", "continues on"};
        mbd_table *t = mbd_table_alloc(7, h);
        for (int k = 0; k < 2; k++)
            for (int j = 0; j < N_METHODS + 1; j++)
                for (int i = 0; i < N_INTEG; i++) {
                    if (j == N_METHODS && i == I_TIGHT)
                        continue;
                    const ch05_run *r = j < N_METHODS ? &s->runs[k][j][i] : &s->post[k];
                    mbd_table_cell(t, "%s", ch05_mass_name((ch05_mass_kind)k));
                    mbd_table_cell(t, "%s", j < N_METHODS ? METHODS[j] : "projection --project");
                    mbd_table_cell(t, "%s", INTEGRATORS[i]);
                    mbd_table_cell(t, "%.1e", r->fold_c2 + 0.0);
                    mbd_table_cell(t, "%.1e", sqrt(2.0 * fabs(r->fold_c2) / m->L1));
                    mbd_table_cell(t, "%.1e", fabs(r->fold_rate * r->fold_step));
                    mbd_table_cell(t, "%s", r->branch == CH05_BRANCH_SAME ? "th2 = pi - 2 th1"
                                            : r->branch == CH05_BRANCH_FOLDED ? "folded: th2 = pi, x3 = 0"
                                            : ch05_branch_name(r->branch));
                }
        mbd_table_print(t, out, 2);
        mbd_table_free(t);
    }
    {
        /* the drifts and turns of the penalty runs, with and without Baumgarte */
        double c[2] = {0, 0}, turn[2] = {0, 0}, proj_c = 0.0;
        int turned = 0;
        double turned_at = INFINITY;
        for (int k = 0; k < 2; k++)
            for (int i = 0; i < N_INTEG; i++) {
                for (int b = 0; b < 2; b++) {
                    const ch05_run *r = &s->runs[k][b ? M_PEN_B : M_PEN][i];
                    c[b] = fmax(c[b], fabs(r->fold_c2));
                    turn[b] = fmax(turn[b], sqrt(2.0 * fabs(r->fold_c2) / m->L1));
                }
                for (int j = M_PROJ; j <= M_PROJ_B; j++) {
                    const ch05_run *r = &s->runs[k][j][i];
                    proj_c = fmax(proj_c, fabs(r->fold_c2));
                    if (r->branch == CH05_BRANCH_FOLDED) {
                        turned++;
                        turned_at = fmin(turned_at, r->probe.min_abs_theta1);
                    }
                }
            }
        fprintf(out, "  - The projection keeps th2 + 2 th1 = pi to rounding (on that line C2 = C2' = 0 and\n"
                     "    gamma2 = 0, so C_q q'' = gamma forces th2'' + 2 th1'' = 0, and Runge-Kutta steps\n"
                     "    keep a linear invariant): |c| <= %.0e, a turn %.0e rad wide or less.\n",
                proj_c, sqrt(2.0 * proj_c / m->L1));
        if (turned)
            fprintf(out, "    It turned in %d run(s), where an evaluation landed inside the turn (%.0e rad\n"
                         "    from the fold); the others stepped over it.\n",
                    turned, turned_at);
        else
            fprintf(out, "    No projection run landed an evaluation inside it: all went straight on.\n");
        fprintf(out, "  - The penalty holds C2 only where mu S22 > 1, roughly; S22 ~ th1^2, so not within |th1| <\n"
                     "    %.1e rad (document) or %.1e rad (consistent) of the fold. Without Baumgarte\n"
                     "    its drift reaches |c| = %.0e, the turn (%.0e rad) lies outside that zone, and\n"
                     "    it follows the hyperbola onto the folded branch. With Baumgarte |c| <= %.0e:\n"
                     "    the turn (%.0e rad) lies inside the zone, where nothing steers the run, and it\n"
                     "    coasts straight on.\n",
                weak[0], weak[1], c[0], turn[0], c[1], turn[1]);
    }
    fprintf(out, "  The branch is chosen by numerics, not by the mechanism: the reduced equation is\n"
                 "  regular at th1 = 0 and goes straight on, and so does every run that does not\n"
                 "  resolve the turn its own drift makes. The reference's fold times: %.6f s\n"
                 "  (document) and %.6f s (consistent).\n\n",
            s->fold[0], s->fold[1]);
    /* << branch-story */

    /* ---------------------------------------------------------------- 8 */
    fprintf(out, "Step 8. The printed Baumgarte sign (eq. 72) on the slider-crank\n");
    {
        const ch05_run *r = &s->printed;
        if (r->status != GSL_SUCCESS)
            fprintf(out, "  penalty-baumgarte-printed, ode23, document M: %s at t = %.4f s -- stopped.\n",
                    r->fail.cause, r->fail.time);
        else
            fprintf(out, "  penalty-baumgarte-printed, ode23, document M: reached %.1f s (max |C| %.2e).\n",
                    r->stats.run.t_reached, r->stats.max_C);
        fprintf(out, "  With gamma + 2 alpha C' + beta^2 C the constraint error obeys\n"
                     "  C'' - 2 alpha C' - beta^2 C = 0 and grows like exp(48.3 t); the listings' own sign\n"
                     "  (gamma - 2 alpha C' - beta^2 C, used in Steps 4-7) damps it.\n\n");
    }

    /* ---------------------------------------------------------------- 9 */
    fprintf(out, "Step 9. Errata in Sec. 2.4.3 (document 000) and what the chapter does instead\n");
    fprintf(out, "  - gamma is printed with an extra overall minus sign; listing A.4 has it right\n"
                 "    (Step 2). The chapter uses the listing's.\n"
                 "  - M = diag(m1 L1^2/3, m2 L2^2/3, m3) lacks the coupling and the th2-dependent terms\n"
                 "    of the two-rod chain, while F carries that chain's velocity terms: the model\n"
                 "    loses %.2f J of its %.2f J (Step 6). --mass consistent runs the chain's own M;\n"
                 "    --mass document (the default) reproduces the document.\n"
                 "  - F's numbers are hard-wired for L1 = L2 = 2 (\"2 m2 sin th2\", \"2 sin th1\"); the\n"
                 "    chapter writes h = (1/2) m2 L1 L2 sin th2 and the gravity torques\n"
                 "    m1 g (L1/2) sin th1, m2 g (L1 sin th1 + (L2/2) sin(th1 + th2)).\n"
                 "  - \"Solutions presented by [8]\" are not shown; no number in Sec. 2.4.3 can be\n"
                 "    compared. The initial conditions are the listing's (Step 1).\n"
                 "  - The document's 1.8 s stops %.3f s short of its model's fold (%.4f s); the\n"
                 "    consistent model reaches its fold at %.4f s, inside the horizon (Step 7).\n",
            s->E_ref_max_drift, s->E0, s->fold[0] - T_DOC, s->fold[0], s->fold[1]);
    return GSL_SUCCESS;
}

/* ------------------------------------------------------------------------ */
/* One run                                                                   */



/* A condition number: none when not measured, inf where the matrix is
 * singular (not positive definite), else the number. */
static int summary_condition(FILE *out, const char *key, double cond)
{
    if (isinf(cond) && cond > 0)
        return mbd_summary_string(out, key, "inf");
    return mbd_summary_optional(out, key, cond, !isnan(cond));
}

typedef struct {
    const ch05_spec *spec;
    const ch05_run *run;
} one_run;

static int write_summary(FILE *out, const ch05_spec *spec, const ch05_run *r);

static int summary_of(void *ctx, FILE *out)
{
    const one_run *o = ctx;
    return write_summary(out, o->spec, o->run);
}

static int write_summary(FILE *out, const ch05_spec *spec, const ch05_run *r)
{
    int st = GSL_SUCCESS;
    st |= mbd_summary_string(out, "mass", ch05_mass_name(spec->mass));
    st |= mbd_summary_string(out, "method", spec->run.method);
    st |= mbd_summary_string(out, "integrator", spec->run.ode.name);
    st |= mbd_summary_long(out, "project", spec->run.project);
    st |= mbd_summary_double(out, "mu", spec->run.mu);
    st |= mbd_summary_double(out, "alpha", spec->run.alpha);
    st |= mbd_summary_double(out, "beta", spec->run.beta);
    st |= mbd_summary_double(out, "t_end", spec->run.t_end);
    st |= mbd_summary_double(out, "t_reached", r->stats.run.t_reached);
    st |= mbd_summary_long(out, "steps", r->stats.run.ode.steps);
    st |= mbd_summary_long(out, "rejected", r->stats.run.ode.rejected);
    st |= mbd_summary_long(out, "fevals", r->stats.run.ode.fevals);
    st |= mbd_summary_long(out, "corrections", r->stats.run.corrections);
    st |= mbd_summary_double(out, "max_C_norm", r->stats.max_C);
    st |= mbd_summary_double(out, "max_Cdot_norm", r->stats.max_Cdot);
    st |= mbd_summary_double(out, "E0", r->stats.E0);
    st |= mbd_summary_double(out, "max_energy_error", r->stats.max_dE);
    st |= mbd_summary_double(out, "max_position_error", r->max_pos_err);
    st |= mbd_summary_double(out, "max_velocity_error", r->max_vel_err);
    st |= mbd_summary_double(out, "max_invariant_error", r->max_invariant);
    st |= mbd_summary_double(out, "max_x3", r->max_x3);
    st |= mbd_summary_double(out, "t_max_x3", r->t_max_x3);
    /* none: the run did not reach the fold, or a condition number was not
     * measured (no output, or none where the matrix is defined) */
    st |= mbd_summary_optional(out, "fold_time", r->fold_time, !isnan(r->fold_time));
    st |= mbd_summary_optional(out, "fold_time_reference", r->fold_reference,
                               !isnan(r->fold_reference));
    st |= mbd_summary_string(out, "branch_after_fold", ch05_branch_name(r->branch));
    st |= mbd_summary_optional(out, "closest_theta1", r->probe.min_abs_theta1,
                               !isnan(r->probe.min_abs_theta1));
    st |= summary_condition(out, "closest_condition", r->probe.cond);
    st |= summary_condition(out, "max_schur_condition", r->max_schur_cond);
    st |= summary_condition(out, "max_method_condition", r->max_own_cond);
    st |= mbd_summary_string(out, "status", mbd_status_word(r->status));
    return st ? MBD_ENONFINITE : GSL_SUCCESS;
}

/* One run from the command line: the spec main.c made from the options. */
int ch05_program_run(void *ctx, mbd_failure *fail)
{
    ch05_program *prog = ctx;
    const mbd_cli_common *opt = prog->opt;
    const ch05_spec *spec = &prog->spec;
    ch05_run run;
    ch05_run_init(&run);
    ch05_reference ref = {0};
    /* a summary alone is maxima over the outputs, folded as they come: no
     * history is kept for it (the CSV and the figure need one) */
    ch05_spec one = *spec;
    one.no_history = opt->csv == NULL && opt->plot == NULL && opt->animate == NULL;
    int st = ch05_run_spec(&run, &one, &ref);
    if (st == MBD_EINPUT) {
        *fail = run.fail;   /* a spec the library refuses: bad input, exit 2 */
        goto out;
    }
    if (st != GSL_SUCCESS) {
        mbd_failure_set(fail, st, NAN, "the reduced reference failed: %s", mbd_strerror(st));
        goto out;
    }
    if (opt->plot) {
        char path[1024], title[256];
        snprintf(title, sizeof title, "%s, %s, %s mass matrix", spec->run.method, spec->run.ode.name,
                 ch05_mass_name(spec->mass));
        st = ch05_motion_figure(mbd_plot_path(path, sizeof path, opt->plot, "motion"), title, &run,
                                fail);
        if (st != GSL_SUCCESS)
            goto out;
    }
    /* the run's animation, of what it computed, failed or not */
    if (opt->animate) {
        st = ch05_animate_run(opt->animate, opt, spec, &run, fail);
        if (st != GSL_SUCCESS)
            goto out;
    }
    /* the summary unless --csv alone was asked for */
    one_run o = {spec, &run};
    mbd_study_result res = {.status = run.status, .fail = run.fail, .stats = run.stats};
    st = mbd_study_write(&res, &run.hist, opt->csv, run.sys.names, 1,
                         opt->summary || !opt->csv, summary_of, NULL, &o, fail);
out:
    ch05_reference_free(&ref);
    ch05_run_free(&run);
    return st;
}

/* The story's figures (one run draws its own motion figure instead). */
int ch05_program_figures(void *ctx, const char *prefix, mbd_failure *fail)
{
    ch05_program *prog = ctx;
    if (prog->opt->run_options)
        return GSL_SUCCESS;
    int st = ch05_compute(prog->s);
    if (st != GSL_SUCCESS)
        return mbd_failure_set(fail, st, NAN, "the story's computations failed: %s",
                               mbd_strerror(st));
    prog->computed = 1;
    return ch05_write_figures(prefix, prog->s, fail);
}

int ch05_program_story(void *ctx, FILE *out, int no_timing, mbd_failure *fail)
{
    ch05_program *prog = ctx;
    int st = prog->computed ? GSL_SUCCESS : ch05_compute(prog->s);
    if (st != GSL_SUCCESS)
        return mbd_failure_set(fail, st, NAN, "the story's computations failed: %s",
                               mbd_strerror(st));
    st = ch05_story(out, prog->s, no_timing);
    if (st != GSL_SUCCESS)
        mbd_failure_set(fail, st, NAN, "the story failed");
    return st;
}

int ch05_program_bench(void *ctx, long repeats, mbd_failure *fail)
{
    (void)ctx, (void)fail;   /* mbd_cli_bench_passes names a failed case */
    return ch05_run_benchmarks(repeats);
}

/* ------------------------------------------------------------------------ */
/* Benchmarks                                                                */

/* The kinds of case are cli.h's, the same in every chapter. The document's
 * two methods with Baumgarte run as one run from the command line runs them
 * (`--method M --integrator ode23 --dt-out 1e-4 --summary`, the Octave
 * comparison of issue 15: the document's model and mass matrix, 1.8 s):
 * whole run, integration, output and right-hand side. The tight integrator
 * is timed for integration only. */

typedef struct {
    ch05_spec spec;
    FILE *null;
} bench_case;

/* what main.c makes of --method M --integrator ode23 --dt-out 1e-4 */
static void bench_summary_spec(ch05_spec *s, const char *method, const char *integrator)
{
    ch05_spec_document(s);
    s->run.method = method;
    mbd_ode_preset(integrator, &s->run.ode);
    s->run.record_condition = 1;
    s->run.max_steps = MBD_RUN_MAX_STEPS;
    s->run.max_outputs = MBD_RUN_MAX_OUTPUTS;
}

/* what ch05_program_run does with --summary, the summary going to /dev/null:
 * the run and its measures, the reference set up afresh, the errors */
static int bench_whole_run(void *ctx, mbd_cli_bench_counts *n)
{
    bench_case *b = ctx;
    ch05_run run;
    ch05_run_init(&run);
    ch05_reference ref = {0};
    ch05_spec one = b->spec;
    one.no_history = 1;   /* as the summary keeps none */
    int st = ch05_run_spec(&run, &one, &ref);
    if (st == GSL_SUCCESS)
        st = run.status;
    if (st == GSL_SUCCESS)
        st = write_summary(b->null, &b->spec, &run);
    n->steps = run.stats.run.ode.steps;
    n->fevals = run.stats.run.ode.fevals;
    n->outputs = run.stats.rows;
    ch05_reference_free(&ref);
    ch05_run_free(&run);
    return st;
}

static int bench_reference(void *ctx, mbd_cli_bench_counts *n)
{
    (void)ctx;
    (void)n;
    ch05_model m;
    ch05_model_document(&m);
    ch05_reference r = {0};
    double t;
    int st = ch05_reference_init(&r, &m, CH05_MASS_DOCUMENT);
    if (st == GSL_SUCCESS)
        st = ch05_reference_crossing(&r, 0.0, 3.0, &t);
    ch05_reference_free(&r);
    return st;
}

static int bench_story(void *ctx, mbd_cli_bench_counts *n)
{
    (void)n;
    bench_case *b = ctx;
    ch05_study *s = ch05_study_alloc();
    int st = s ? ch05_compute(s) : GSL_ENOMEM;
    if (st == GSL_SUCCESS)
        st = ch05_story(b->null, s, 1);
    ch05_study_free(s);
    return st;
}

static int bench_cases(long repeats, bench_case *b)
{
    /* the system as ch05_run_spec builds it, with the probe watching */
    ch05_model model;
    ch05_model_document(&model);
    model.mass = CH05_MASS_DOCUMENT;
    ch05_probe probe;
    ch05_probe_reset(&probe);
    model.probe = &probe;
    mbd_system sys;
    ch05_system(&model, &sys);
    double q0[3], qd0[3];
    ch05_initial(&model, q0, qd0);
    static const struct { const char *method, *integrator; unsigned kinds; } cases[] = {
        {"penalty-baumgarte", "ode23", MBD_CLI_BENCH_PIPELINE},
        {"projection-baumgarte", "ode23", MBD_CLI_BENCH_PIPELINE},
        {"projection", "tight", 1u << MBD_CLI_BENCH_INTEGRATION},
        {"penalty-baumgarte", "tight", 1u << MBD_CLI_BENCH_INTEGRATION},
    };
    int st = GSL_SUCCESS;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0] && st == GSL_SUCCESS; i++) {
        bench_summary_spec(&b->spec, cases[i].method, cases[i].integrator);
        char name[64];
        snprintf(name, sizeof name, "document-1.8s-%s", cases[i].integrator);
        if (cases[i].kinds & (1u << MBD_CLI_BENCH_OUTPUT))
            st = mbd_cli_bench(stdout, PROGRAM, name, cases[i].method, MBD_CLI_BENCH_WHOLE_RUN,
                               repeats, bench_whole_run, b);
        /* ch05_run_spec measures the condition numbers after the run, not in it */
        mbd_study_spec run = b->spec.run;
        run.record_condition = 0;
        if (st == GSL_SUCCESS)
            st = mbd_cli_bench_pipeline(stdout, PROGRAM, name, NULL, repeats, &sys, &run, q0, qd0,
                                        cases[i].kinds);
    }
    if (st == GSL_SUCCESS)
        st = mbd_cli_bench(stdout, PROGRAM, "reference-fold", "reduced-rk8pd",
                           MBD_CLI_BENCH_INTEGRATION, repeats, bench_reference, NULL);
    if (st == GSL_SUCCESS)
        st = mbd_cli_bench(stdout, PROGRAM, "story", "", MBD_CLI_BENCH_WHOLE_RUN, repeats,
                           bench_story, b);
    return st;
}

int ch05_run_benchmarks(long repeats)
{
    bench_case b = {.null = mbd_cli_bench_sink()};
    return b.null == NULL ? MBD_EIO : bench_cases(repeats, &b);
}
