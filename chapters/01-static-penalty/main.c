/* ch01-static-penalty -- the finite-element penalty approach to multipoint
 * constraints (document 000, Newhart 2019, Sec. 1.2.6 and Fig. 1).
 *
 * The story: assemble the rods' stiffness, add the constraints as stiff
 * springs, solve, and compare with the document's printed K_c and Q; then
 * with the exact solution (Lagrange multipliers and the rigid-bar closed
 * form); then sweep the penalty factor to see the error fall as 1/C until
 * rounding takes over; then a non-homogeneous constraint, which the
 * document's formula gets wrong.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_machine.h>

#include "bar.h"
#include "mbd/cli.h"
#include "mbd/io.h"

#define PROGRAM "ch01-static-penalty"
#define K_MIN 1
#define K_MAX 12
#define N_SWEEP (K_MAX - K_MIN + 1)

/* The document's printed results (Sec. 1.2.6): K_c / 10^8 and Q in mm. */
static const double DOC_KC[5][5] = {
    {5.3339, 0, -0.0005, 0, -1.7778},
    {0, 5.3335, 0, -0.0002, -4.4444},
    {-0.0005, 0, 5.3339, 0, 0},
    {0, -0.0002, 0, 5.3335, 0},
    {-1.7778, -4.4444, 0, 0, 4.2963},
};
static const double DOC_Q[5] = {0.4876, 1.2191, 0, 0, 1.4629};
static const double DOC_C = 5.333e8;

/* Everything the chapter computes for one configuration of the bar. */
typedef struct {
    ch01_bar bar;
    int literal;
    gsl_matrix *K, *B, *Kc, *work;
    gsl_vector *F, *beta0, *fixed, *Fc;
    gsl_matrix *sweep_Kc;              /* the sweep's own workspace */
    gsl_vector *sweep_Fc, *sweep_Q;
    gsl_vector *Q, *Qexact, *Qclosed, *lambda, *residual;
    double C, rel_error, cond;
    int solve_status;
    /* the sweep */
    double sweep_C[N_SWEEP], sweep_error[N_SWEEP], sweep_cond[N_SWEEP];
    int sweep_status[N_SWEEP];
} problem;

static void problem_alloc(problem *p)
{
    p->K = gsl_matrix_alloc(CH01_NDOF, CH01_NDOF);
    p->B = gsl_matrix_alloc(CH01_NMPC, CH01_NDOF);
    p->Kc = gsl_matrix_alloc(CH01_NDOF, CH01_NDOF);
    p->work = gsl_matrix_alloc(CH01_NDOF, CH01_NDOF);
    p->F = gsl_vector_alloc(CH01_NDOF);
    p->beta0 = gsl_vector_alloc(CH01_NMPC);
    p->fixed = gsl_vector_alloc(CH01_NDOF);
    p->Fc = gsl_vector_alloc(CH01_NDOF);
    p->Q = gsl_vector_alloc(CH01_NDOF);
    p->Qexact = gsl_vector_alloc(CH01_NDOF);
    p->Qclosed = gsl_vector_alloc(CH01_NDOF);
    p->lambda = gsl_vector_alloc(CH01_NMPC + CH01_NSPC);
    p->residual = gsl_vector_alloc(CH01_NMPC);
    p->sweep_Kc = gsl_matrix_alloc(CH01_NDOF, CH01_NDOF);
    p->sweep_Fc = gsl_vector_alloc(CH01_NDOF);
    p->sweep_Q = gsl_vector_alloc(CH01_NDOF);
}

static void problem_free(problem *p)
{
    gsl_matrix_free(p->K);
    gsl_matrix_free(p->B);
    gsl_matrix_free(p->Kc);
    gsl_matrix_free(p->work);
    gsl_vector_free(p->F);
    gsl_vector_free(p->beta0);
    gsl_vector_free(p->fixed);
    gsl_vector_free(p->Fc);
    gsl_vector_free(p->Q);
    gsl_vector_free(p->Qexact);
    gsl_vector_free(p->Qclosed);
    gsl_vector_free(p->lambda);
    gsl_vector_free(p->residual);
    gsl_matrix_free(p->sweep_Kc);
    gsl_vector_free(p->sweep_Fc);
    gsl_vector_free(p->sweep_Q);
}

/* Assembles, solves by penalty at C = max|K| 10^4, and by the two exact
 * methods. Returns the status of the exact solve (the penalty solve's status
 * is kept in solve_status: a failure there is a finding, not an error). */
static int solve(problem *p)
{
    ch01_stiffness(&p->bar, p->K, p->F);
    ch01_constraints(&p->bar, p->B, p->beta0, p->fixed);
    p->C = ch01_penalty_factor(p->K, 4.0);
    ch01_penalty_system(p->K, p->F, p->B, p->beta0, p->fixed, p->C, p->literal, p->Kc, p->Fc);
    p->solve_status = ch01_solve_spd(p->Kc, p->Fc, p->work, p->Q);
    p->cond = ch01_cond2(p->Kc);

    int st = ch01_lagrange(p->K, p->F, p->B, p->beta0, p->fixed, p->Qexact, p->lambda);
    if (st != GSL_SUCCESS)
        return st;
    ch01_closed_form(&p->bar, p->Qclosed);
    p->rel_error = p->solve_status == GSL_SUCCESS ? ch01_rel_error(p->Q, p->Qexact) : NAN;

    /* the penalty solution's constraint residual B Q - beta0 */
    gsl_vector_memcpy(p->residual, p->beta0);
    gsl_blas_dgemv(CblasNoTrans, 1.0, p->B, p->Q, -1.0, p->residual);
    return GSL_SUCCESS;
}

/* >> sweep */
/* C = max|K| 10^k for k = 1 ... 12: the error of the penalty solution and the
 * condition number of K_c. */
static void sweep(problem *p)
{
    for (int k = K_MIN; k <= K_MAX; k++) {
        int i = k - K_MIN;
        double C = ch01_penalty_factor(p->K, k);
        ch01_penalty_system(p->K, p->F, p->B, p->beta0, p->fixed, C, p->literal, p->sweep_Kc,
                            p->sweep_Fc);
        p->sweep_C[i] = C;
        p->sweep_cond[i] = ch01_cond2(p->sweep_Kc);
        p->sweep_status[i] = ch01_solve_spd(p->sweep_Kc, p->sweep_Fc, p->work, p->sweep_Q);
        p->sweep_error[i] = p->sweep_status[i] == GSL_SUCCESS
                                ? ch01_rel_error(p->sweep_Q, p->Qexact) : NAN;
    }
}
/* << sweep */

/* the exponent with the smallest error */
static int best_exponent(const problem *p)
{
    int best = -1;
    for (int i = 0; i < N_SWEEP; i++)
        if (isfinite(p->sweep_error[i]) && (best < 0 || p->sweep_error[i] < p->sweep_error[best]))
            best = i;
    return best < 0 ? -1 : best + K_MIN;
}

/* ------------------------------------------------------------------------ */
/* Output                                                                    */

static void print_matrix(FILE *out, const gsl_matrix *A, double scale, const char *fmt, int indent)
{
    for (size_t i = 0; i < A->size1; i++) {
        fprintf(out, "%*s", indent, "");
        for (size_t j = 0; j < A->size2; j++) {
            double v = gsl_matrix_get(A, i, j) / scale;
            if (fabs(v) < 5e-5)
                v = 0.0;   /* no "-0.0000" */
            fprintf(out, fmt, v);
        }
        fputc('\n', out);
    }
}

static int same_4_decimals(double a, double b) { return fabs(round(a * 1e4) - round(b * 1e4)) < 0.5; }

static int story(FILE *out, problem *p, double beta0_story)
{
    /* the story is the document's problem, whatever --beta0 and --literal say */
    ch01_bar_document(&p->bar);
    p->literal = 0;
    int st = solve(p);
    if (st != GSL_SUCCESS)
        return st;
    sweep(p);

    const double k1 = ch01_k1(&p->bar), k2 = ch01_k2(&p->bar);
    fprintf(out, "Chapter 01 -- The static penalty approach to multipoint constraints\n");
    fprintf(out, "Reproduces document 000 (Newhart 2019), Sec. 1.2.6, Fig. 1 and listing A.1.\n\n");

    fprintf(out, "Step 1. The structure: a rigid bar, hinged at one end, held by two elastic rods\n");
    fprintf(out, "  rod 1: E = %g N/mm^2, A = %g mm^2, L = %g mm  ->  k1 = EA/L = %.2f N/mm\n",
            p->bar.E1, p->bar.A1, p->bar.L1, k1);
    fprintf(out, "  rod 2: E = %g N/mm^2,  A = %g mm^2,  L = %g mm  ->  k2 = EA/L = %.2f N/mm\n",
            p->bar.E2, p->bar.A2, p->bar.L2, k2);
    fprintf(out, "  rods at %g m and %g m from the hinge; load P = %g N at the tip, %g m out (dof Q5)\n",
            p->bar.r1, p->bar.r2, p->bar.P, p->bar.r5);
    fprintf(out, "  dofs: Q1, Q2 rod tops; Q3, Q4 rod bottoms (wall); Q5 bar tip. K / 10^4:\n");
    print_matrix(out, p->K, 1e4, "%9.4f", 4);
    fprintf(out, "  F = [0 0 0 0 %g]^T N. The document prints the same K (to 3 decimals) and F.\n\n",
            p->bar.P);

    fprintf(out, "Step 2. Constraints, and the penalty factor of eq. (63)\n");
    fprintf(out, "  the bar stays straight: Q1 - (2/6) Q5 = 0 and Q2 - (5/6) Q5 = 0, i.e. B Q = 0 with\n");
    print_matrix(out, p->B, 1.0, "%9.4f", 4);
    fprintf(out, "  the rods stand on the wall: Q3 = Q4 = 0, the selection C_C = diag(0, 0, 1, 1, 0)\n");
    fprintf(out, "  C = max|K_ij| x 10^4 = %.4e   (document: %.3e)\n\n", p->C, DOC_C);

    fprintf(out, "Step 3. The penalty stiffness K_c = K + C (B^T B + C_C), eq. (67) as intended\n");
    fprintf(out, "  toolkit, K_c / 10^8:\n");
    print_matrix(out, p->Kc, 1e8, "%9.4f", 4);
    int agree = 0;
    for (size_t i = 0; i < 5; i++)
        for (size_t j = 0; j < 5; j++)
            agree += same_4_decimals(gsl_matrix_get(p->Kc, i, j) / 1e8, DOC_KC[i][j]);
    fprintf(out, "  %d of 25 entries agree with the document's printed K_c to its 4 decimals.\n\n",
            agree);

    fprintf(out, "Step 4. Solve K_c Q = F (Cholesky: K_c is symmetric positive definite)\n");
    {
        const char *h[] = {"dof", "toolkit [mm]", "document [mm]", "same to 4 decimals"};
        mbd_table *t = mbd_table_alloc(4, h);
        for (int i = 0; i < 5; i++) {
            double q = gsl_vector_get(p->Q, (size_t)i);
            mbd_table_cell(t, "Q%d", i + 1);
            mbd_table_cell(t, "%.6f", fabs(q) < 5e-7 ? 0.0 : q);
            mbd_table_cell(t, "%.4f", DOC_Q[i]);
            mbd_table_cell(t, "%s", same_4_decimals(q, DOC_Q[i]) ? "yes" : "NO");
        }
        mbd_table_print(t, out, 2);
        mbd_table_free(t);
    }
    fprintf(out, "\n");

    fprintf(out, "Step 5. The exact solution, two independent ways\n");
    fprintf(out, "  (a) Lagrange multipliers: solve [K A^T; A 0] [Q; lambda] = [F; b], A = [B; e3^T; e4^T]\n");
    fprintf(out, "  (b) the rigid bar: moments about the hinge, r1 k1 Q1 + r2 k2 Q2 = r5 P, give\n");
    fprintf(out, "      theta = r5 P / (r1^2 k1 + r2^2 k2) = %.9f mm/m, Q1 = 2 theta, Q2 = 5 theta, Q5 = 6 theta\n",
            gsl_vector_get(p->Qclosed, 4) / p->bar.r5);
    {
        const char *h[] = {"dof", "Lagrange [mm]", "closed form [mm]", "penalty [mm]", "penalty - exact"};
        mbd_table *t = mbd_table_alloc(5, h);
        for (size_t i = 0; i < 5; i++) {
            mbd_table_cell(t, "Q%zu", i + 1);
            mbd_table_cell(t, "%.9f", gsl_vector_get(p->Qexact, i) + 0.0);
            mbd_table_cell(t, "%.9f", gsl_vector_get(p->Qclosed, i));
            mbd_table_cell(t, "%.9f", gsl_vector_get(p->Q, i));
            mbd_table_num(t, gsl_vector_get(p->Q, i) - gsl_vector_get(p->Qexact, i), 3);
        }
        mbd_table_print(t, out, 2);
        mbd_table_free(t);
    }
    double F1 = k1 * gsl_vector_get(p->Qexact, 0), F2 = k2 * gsl_vector_get(p->Qexact, 1);
    fprintf(out, "  rod forces: k1 Q1 = %.1f N, k2 Q2 = %.1f N; moments: 2 F1 + 5 F2 = %.1f N m = 6 P = %.1f N m\n",
            F1, F2, 2 * F1 + 5 * F2, 6 * p->bar.P);
    fprintf(out, "  multipliers (constraint forces, K Q + A^T lambda = F): lambda = [%.1f, %.1f, %.1f, %.1f] N\n\n",
            gsl_vector_get(p->lambda, 0), gsl_vector_get(p->lambda, 1),
            gsl_vector_get(p->lambda, 2), gsl_vector_get(p->lambda, 3));

    fprintf(out, "Step 6. How far is the penalty solution from the exact one?\n");
    fprintf(out, "  relative error ||Q - Q_exact|| / ||Q_exact|| = %.3e at C = max|K| x 10^4\n",
            p->rel_error);
    fprintf(out, "  A spring of stiffness C carries the constraint force lambda only by stretching\n"
                 "  lambda / C, so the penalty solution violates each constraint by about that much:\n");
    for (size_t i = 0; i < CH01_NMPC; i++)
        fprintf(out, "    constraint %zu: B Q - beta0 = %+.4e mm,  lambda/C = %+.4e mm\n", i + 1,
                gsl_vector_get(p->residual, i), gsl_vector_get(p->lambda, i) / p->C);
    fprintf(out, "  The error is therefore of order max|K| / C = 10^-4, and falls as 1/C.\n\n");

    fprintf(out, "Step 7. The penalty factor swept: C = max|K| x 10^k, k = %d ... %d\n", K_MIN, K_MAX);
    {
        const char *h[] = {"k", "C", "rel. error", "error x 10^k", "cond2(K_c)", "eps x cond"};
        mbd_table *t = mbd_table_alloc(6, h);
        for (int i = 0; i < N_SWEEP; i++) {
            mbd_table_cell(t, "%d", i + K_MIN);
            mbd_table_cell(t, "%.3e", p->sweep_C[i]);
            if (p->sweep_status[i] == GSL_SUCCESS) {
                mbd_table_cell(t, "%.3e", p->sweep_error[i]);
                mbd_table_cell(t, "%.4f", p->sweep_error[i] * pow(10.0, i + K_MIN));
            } else {
                mbd_table_cell(t, "Cholesky failed");
                mbd_table_cell(t, "-");
            }
            mbd_table_cell(t, "%.3e", p->sweep_cond[i]);
            mbd_table_cell(t, "%.1e", GSL_DBL_EPSILON * p->sweep_cond[i]);
        }
        mbd_table_print(t, out, 2);
        mbd_table_free(t);
    }
    int kb = best_exponent(p);
    fprintf(out, "  While C is moderate the error is about %.2f x 10^-k: it falls as 1/C. K_c's\n"
                 "  condition number grows as C, and rounding errors of about eps x cond(K_c) grow with\n"
                 "  it; the smallest error is at k = %d (%.1e). Past it, a stiffer spring only adds\n"
                 "  rounding. The document's k = 4 leaves 1e-4 of error, enough for four digits.\n\n",
            p->sweep_error[2] * 1e3, kb, kb > 0 ? p->sweep_error[kb - K_MIN] : NAN);

    fprintf(out, "Step 8. A non-homogeneous constraint, which the document leaves out\n");
    {
        problem q = *p;   /* the same workspaces, a bar with a misfit */
        q.bar.beta0[1] = beta0_story;
        fprintf(out, "  rod 2 is attached with a misfit: Q2 - (5/6) Q5 = beta0 = %g mm\n", beta0_story);
        fprintf(out, "  Minimising Pi = Q^T K Q / 2 - Q^T F + C |B Q - beta0|^2 / 2 gives\n"
                     "  (K + C B^T B) Q = F + C B^T beta0: the load gains C B^T beta0. Eq. (67) keeps F.\n");
        gsl_vector *Qfix = gsl_vector_alloc(CH01_NDOF), *Qdoc = gsl_vector_alloc(CH01_NDOF);
        q.literal = 0;
        st = solve(&q);
        gsl_vector_memcpy(Qfix, q.Q);
        double err_fix = q.rel_error;
        q.literal = 1;
        if (st == GSL_SUCCESS)
            st = solve(&q);
        gsl_vector_memcpy(Qdoc, q.Q);
        double err_doc = q.rel_error;
        if (st != GSL_SUCCESS) {
            fprintf(out, "  the exact solve failed: %s\n", mbd_strerror(st));
        } else {
            const char *h[] = {"dof", "exact [mm]", "F + C B^T beta0 [mm]", "eq. (67), F only [mm]"};
            mbd_table *t = mbd_table_alloc(4, h);
            for (size_t i = 0; i < 5; i++) {
                mbd_table_cell(t, "Q%zu", i + 1);
                mbd_table_cell(t, "%.6f", gsl_vector_get(q.Qexact, i) + 0.0);
                mbd_table_cell(t, "%.6f", fabs(gsl_vector_get(Qfix, i)) < 5e-7 ? 0.0 : gsl_vector_get(Qfix, i));
                mbd_table_cell(t, "%.6f", fabs(gsl_vector_get(Qdoc, i)) < 5e-7 ? 0.0 : gsl_vector_get(Qdoc, i));
            }
            mbd_table_cell(t, "rel. error");
            mbd_table_cell(t, "0");
            mbd_table_num(t, err_fix, 3);
            mbd_table_num(t, err_doc, 3);
            mbd_table_print(t, out, 2);
            mbd_table_free(t);
            fprintf(out, "  With the load term the penalty error stays at 1e-4; without it the misfit is\n"
                         "  ignored altogether and the answer is the homogeneous one.\n\n");
        }
        gsl_vector_free(Qfix);
        gsl_vector_free(Qdoc);
        solve(p);   /* restore the workspaces for the caller */
        sweep(p);
    }

    fprintf(out, "Step 9. Errata in Sec. 1.2.6 (document 000) and what the chapter does instead\n");
    fprintf(out, "  - Eq. (64) puts C inside C_C and eq. (67) multiplies by C again: read C_C as the\n"
                 "    0/1 selection; the listing does so (PF = mu*((C'*C)+CC)).\n"
                 "  - Eq. (64) says C_C has ones on its whole diagonal, which would pin every dof;\n"
                 "    only the wall dofs Q3, Q4 are selected, as the printed K_c shows.\n"
                 "  - Eq. (65) is garbled; it means beta_i1 Q_i1 + beta_i2 Q_i2 = beta_0i.\n"
                 "  - Eq. (67) and listing A.1 solve K_c Q = F: right only for beta0 = 0 (Step 8).\n"
                 "  - Listing A.1: the first row of B lacks an entry ([1 0 0 -2/6]) and CC is never\n"
                 "    defined; with B = [1 0 0 0 -2/6; 0 1 0 0 -5/6] and CC = diag(0,0,1,1,0) it\n"
                 "    reproduces the printed K_c and Q (Steps 3 and 4).\n");
    return GSL_SUCCESS;
}

static int write_summary(FILE *out, const problem *p)
{
    char key[32];
    int st = GSL_SUCCESS;
    st |= mbd_summary_double(out, "C", p->C);
    st |= mbd_summary_double(out, "beta0", gsl_vector_get(p->beta0, 1));
    st |= mbd_summary_long(out, "literal", p->literal);
    for (int i = 0; i < 5; i++) {
        snprintf(key, sizeof key, "Q%d", i + 1);
        st |= mbd_summary_double(out, key, gsl_vector_get(p->Q, (size_t)i));
    }
    for (int i = 0; i < 5; i++) {
        snprintf(key, sizeof key, "Q%d_exact", i + 1);
        st |= mbd_summary_double(out, key, gsl_vector_get(p->Qexact, (size_t)i));
    }
    for (int i = 0; i < 4; i++) {
        snprintf(key, sizeof key, "lambda%d", i + 1);
        st |= mbd_summary_double(out, key, gsl_vector_get(p->lambda, (size_t)i));
    }
    st |= mbd_summary_double(out, "rel_error", p->rel_error);
    st |= mbd_summary_double(out, "cond", p->cond);
    int kb = best_exponent(p);
    st |= mbd_summary_long(out, "best_exponent", kb);
    if (kb > 0)
        st |= mbd_summary_double(out, "min_error", p->sweep_error[kb - K_MIN]);
    return st ? MBD_ENONFINITE : GSL_SUCCESS;
}

static int write_csv(const char *path, const problem *p, mbd_failure *fail)
{
    const char *names[] = {"k", "C", "error", "cond"};
    int st;
    mbd_csv *csv = mbd_csv_open(path, 4, names, &st, fail);
    if (csv == NULL)
        return st;
    for (int i = 0; i < N_SWEEP && st == GSL_SUCCESS; i++) {
        double row[4] = {i + K_MIN, p->sweep_C[i], p->sweep_error[i], p->sweep_cond[i]};
        if (p->sweep_status[i] != GSL_SUCCESS) {
            st = mbd_failure_set(fail, p->sweep_status[i], NAN,
                                 "the penalty solve failed at k = %d (K_c is not numerically "
                                 "positive definite); rows up to k = %d written", i + K_MIN, i + K_MIN - 1);
            break;
        }
        st = mbd_csv_row(csv, row);
        if (st != GSL_SUCCESS)
            mbd_failure_set(fail, st, NAN, "non-finite result at k = %d", i + K_MIN);
    }
    int st2 = mbd_csv_close(csv);
    if (st == GSL_SUCCESS && st2 != GSL_SUCCESS)
        st = mbd_failure_set(fail, st2, NAN, "cannot write '%s'", path);
    return st;
}

/* >> figure */
static int write_figures(const char *prefix, const problem *p, mbd_failure *fail)
{
    double k[N_SWEEP], eps_cond[N_SWEEP], slope[N_SWEEP];
    for (int i = 0; i < N_SWEEP; i++) {
        k[i] = p->sweep_C[i];
        eps_cond[i] = GSL_DBL_EPSILON * p->sweep_cond[i];
        slope[i] = p->sweep_error[0] * p->sweep_C[0] / p->sweep_C[i];   /* ~ 1/C */
    }
    const mbd_series s[] = {
        {"penalty error ||Q - Q_{exact}|| / ||Q_{exact}||", k, p->sweep_error, N_SWEEP, "linespoints", 0},
        {"1/C trend", k, slope, N_SWEEP, "lines dt 2", 0},
        {"rounding scale eps cond_2(K_c)", k, eps_cond, N_SWEEP, "lines dt 3", 0},
    };
    /* a vertical line at the document's choice, C = max|K| x 10^4 */
    char extra[256];
    snprintf(extra, sizeof extra,
             "set key bottom left\nset yrange [1e-17:1]\n"
             "set arrow from %g, graph 0 to %g, graph 1 nohead dt 4 lc rgb 'gray40'\n"
             "set label \"document's C\" at %g, graph 0.95 offset 0.5,0 tc rgb 'gray40'",
             p->C, p->C, p->C);
    const mbd_panel panel = {
        .title = "Static penalty: error against the penalty factor (document 000, Fig. 1 bar)",
        .xlabel = "penalty factor C  [N/mm]",
        .ylabel = "relative error",
        .logx = 1, .logy = 1,
        .series = s, .nseries = 3,
        .extra = extra,
    };
    const mbd_figure fig = {.panels = &panel};
    char path[1024];
    return mbd_plot_svg(mbd_plot_path(path, sizeof path, prefix, "sweep"), &fig, fail);
}
/* << figure */

/* ------------------------------------------------------------------------ */
/* Benchmarks                                                                */

static int bench_penalty(void *ctx, long *steps, long *fevals)
{
    problem *p = ctx;
    ch01_penalty_system(p->K, p->F, p->B, p->beta0, p->fixed, p->C, 0, p->Kc, p->Fc);
    *steps = 1;
    *fevals = 0;
    return ch01_solve_spd(p->Kc, p->Fc, p->work, p->Q);
}

static int bench_lagrange(void *ctx, long *steps, long *fevals)
{
    problem *p = ctx;
    *steps = 1;
    *fevals = 0;
    return ch01_lagrange(p->K, p->F, p->B, p->beta0, p->fixed, p->Qexact, p->lambda);
}

static int bench_sweep(void *ctx, long *steps, long *fevals)
{
    sweep(ctx);
    *steps = N_SWEEP;
    *fevals = 0;
    return GSL_SUCCESS;
}

static int bench_story(void *ctx, long *steps, long *fevals)
{
    FILE *null = fopen("/dev/null", "w");
    if (null == NULL)
        return MBD_EIO;
    int st = story(null, ctx, 0.5);
    fclose(null);
    *steps = 0;
    *fevals = 0;
    return st;
}

/* ------------------------------------------------------------------------ */

int main(int argc, char **argv)
{
    gsl_set_error_handler_off();

    double beta0 = 0.0;
    int beta0_given = 0, literal = 0;
    const mbd_cli_extra extra[] = {
        {"beta0", MBD_ARG_DOUBLE, &beta0, "MM",
         "misfit of rod 2: Q2 - (5/6) Q5 = MM (default 0, the document; the story's Step 8 uses 0.5)",
         NULL, -100.0, 100.0, 0, 0, &beta0_given},
        {"literal", MBD_ARG_FLAG, &literal, NULL,
         "solve with the document's eq. (67) as printed: K_c Q = F, without C B^T beta0",
         NULL, 0, 0, 0, 0, NULL},
    };
    const mbd_cli_spec spec = {
        .program = PROGRAM,
        .purpose = "The finite-element penalty approach to multipoint constraints: a rigid bar on two rods.",
        .source = "document 000 (Newhart 2019), Sec. 1.2.6, Fig. 1, listing A.1",
        .common = MBD_OPT_OUTPUT,
        .extra = extra,
        .n_extra = sizeof extra / sizeof extra[0],
        .csv_columns = "k,C,error,cond (the penalty-factor sweep, C = max|K| 10^k, k = 1..12)",
        .notes = "--summary keys: C, beta0, literal, Q1..Q5 (mm, penalty at C = max|K| 10^4),\n"
                 "Q1_exact..Q5_exact, lambda1..lambda4 (N), rel_error, cond, best_exponent, min_error.\n"
                 "Figures (--plot PREFIX): PREFIX-sweep.svg.",
    };
    mbd_cli_common opt;
    mbd_cli_defaults(&opt);
    int st = mbd_cli_parse(&spec, argc, argv, &opt, stdout, stderr);
    if (st == MBD_CLI_DONE)
        return MBD_EXIT_OK;
    if (st != GSL_SUCCESS)
        return MBD_EXIT_USAGE;

    problem p;
    problem_alloc(&p);
    ch01_bar_document(&p.bar);
    p.bar.beta0[1] = beta0;
    p.literal = literal;

    mbd_failure fail;
    mbd_failure_clear(&fail);
    int exit_code = MBD_EXIT_OK;
    st = solve(&p);
    if (st != GSL_SUCCESS) {
        mbd_failure_set(&fail, st, NAN, "the Lagrange-multiplier system is singular");
        goto failed;
    }
    sweep(&p);

    if (opt.bench) {
        int sb = mbd_cli_bench(stdout, PROGRAM, "bar", "penalty-cholesky", opt.bench, bench_penalty, &p);
        if (sb == GSL_SUCCESS)
            sb = mbd_cli_bench(stdout, PROGRAM, "bar", "lagrange-lu", opt.bench, bench_lagrange, &p);
        if (sb == GSL_SUCCESS)
            sb = mbd_cli_bench(stdout, PROGRAM, "sweep", "penalty-cholesky+svd", opt.bench, bench_sweep, &p);
        if (sb == GSL_SUCCESS)
            sb = mbd_cli_bench(stdout, PROGRAM, "story", "", opt.bench, bench_story, &p);
        if (sb != GSL_SUCCESS) {
            mbd_failure_set(&fail, sb, NAN, "a benchmark case failed");
            goto failed;
        }
        goto done;
    }

    /* figures first: a bad --plot path must not leave a story half printed */
    if (opt.plot) {
        st = write_figures(opt.plot, &p, &fail);
        if (st != GSL_SUCCESS)
            goto failed;
    }
    if (opt.csv) {
        st = write_csv(opt.csv, &p, &fail);
        if (st != GSL_SUCCESS)
            goto failed;
    }
    if (opt.summary) {
        if (p.solve_status != GSL_SUCCESS) {
            mbd_failure_set(&fail, p.solve_status, NAN, "the penalty system K_c Q = F_c could not be solved");
            goto failed;
        }
        if (write_summary(stdout, &p) != GSL_SUCCESS) {
            mbd_failure_set(&fail, MBD_ENONFINITE, NAN, "a summary value is not finite");
            goto failed;
        }
    }
    if (!opt.csv && !opt.summary) {
        st = story(stdout, &p, beta0_given ? beta0 : 0.5);
        if (st != GSL_SUCCESS) {
            mbd_failure_set(&fail, st, NAN, "the story failed");
            goto failed;
        }
    }
    goto done;

failed:
    mbd_report_failure(stderr, PROGRAM, &fail);
    exit_code = mbd_cli_exit_status(fail.status);
done:
    problem_free(&p);
    return exit_code;
}
