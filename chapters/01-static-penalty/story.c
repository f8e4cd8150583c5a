/* story.c -- chapter 01's story, its summary and CSV, and the benchmarks. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_machine.h>

#include "mbd/cli.h"
#include "mbd/io.h"
#include "study.h"

#define PROGRAM "ch01-static-penalty"

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

int ch01_story(FILE *out, ch01_problem *p, double beta0_story)
{
    /* the story is the document's problem, whatever --beta0 and --literal say */
    ch01_bar_document(&p->bar);
    p->literal = 0;
    int st = ch01_solve(p);
    if (st != GSL_SUCCESS)
        return st;
    ch01_sweep(p);

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
    int kb = ch01_best_exponent(p);
    fprintf(out, "  While C is moderate the error is about %.2f x 10^-k: it falls as 1/C. K_c's\n"
                 "  condition number grows as C, and rounding errors of about eps x cond(K_c) grow with\n"
                 "  it; the smallest error is at k = %d (%.1e). Past it, a stiffer spring only adds\n"
                 "  rounding. The document's k = 4 leaves 1e-4 of error, enough for four digits.\n\n",
            p->sweep_error[2] * 1e3, kb, kb > 0 ? p->sweep_error[kb - K_MIN] : NAN);

    fprintf(out, "Step 8. A non-homogeneous constraint, which the document leaves out\n");
    {
        ch01_problem q = *p;   /* the same workspaces, a bar with a misfit */
        q.bar.beta0[1] = beta0_story;
        fprintf(out, "  rod 2 is attached with a misfit: Q2 - (5/6) Q5 = beta0 = %g mm\n", beta0_story);
        fprintf(out, "  Minimising Pi = Q^T K Q / 2 - Q^T F + C |B Q - beta0|^2 / 2 gives\n"
                     "  (K + C B^T B) Q = F + C B^T beta0: the load gains C B^T beta0. Eq. (67) keeps F.\n");
        gsl_vector *Qfix = gsl_vector_alloc(CH01_NDOF), *Qdoc = gsl_vector_alloc(CH01_NDOF);
        q.literal = 0;
        st = ch01_solve(&q);
        gsl_vector_memcpy(Qfix, q.Q);
        double err_fix = q.rel_error;
        q.literal = 1;
        if (st == GSL_SUCCESS)
            st = ch01_solve(&q);
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
        ch01_solve(p);   /* restore the workspaces for the caller */
        ch01_sweep(p);
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

int ch01_write_summary(FILE *out, const ch01_problem *p)
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
    int kb = ch01_best_exponent(p);
    st |= mbd_summary_long(out, "best_exponent", kb);
    if (kb > 0)
        st |= mbd_summary_double(out, "min_error", p->sweep_error[kb - K_MIN]);
    return st ? MBD_ENONFINITE : GSL_SUCCESS;
}

int ch01_write_csv(const char *path, const ch01_problem *p, mbd_failure *fail)
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

/* ------------------------------------------------------------------------ */
/* Benchmarks                                                                */

/* A static chapter has no integration: the solves and the sweep are its
 * method alone (kind integration), the story is the whole run. */

static int bench_penalty(void *ctx, mbd_cli_bench_counts *n)
{
    ch01_problem *p = ctx;
    ch01_penalty_system(p->K, p->F, p->B, p->beta0, p->fixed, p->C, 0, p->Kc, p->Fc);
    n->steps = 1;
    return ch01_solve_spd(p->Kc, p->Fc, p->work, p->Q);
}

static int bench_lagrange(void *ctx, mbd_cli_bench_counts *n)
{
    ch01_problem *p = ctx;
    n->steps = 1;
    return ch01_lagrange(p->K, p->F, p->B, p->beta0, p->fixed, p->Qexact, p->lambda);
}

static int bench_sweep(void *ctx, mbd_cli_bench_counts *n)
{
    ch01_sweep(ctx);
    n->steps = N_SWEEP;
    return GSL_SUCCESS;
}

static int bench_story(void *ctx, mbd_cli_bench_counts *n)
{
    (void)n;
    FILE *null = mbd_cli_bench_sink();
    return null == NULL ? MBD_EIO : ch01_story(null, ctx, 0.5);
}

/* ------------------------------------------------------------------------ */
/* The program's parts (main.c dispatches to them)                          */

int ch01_program_bench(void *ctx, long repeats, mbd_failure *fail)
{
    ch01_program *prog = ctx;
    ch01_problem *p = &prog->p;
    const mbd_cli_bench_kind I = MBD_CLI_BENCH_INTEGRATION;
    int st = mbd_cli_bench(stdout, PROGRAM, "bar", "penalty-cholesky", I, repeats, bench_penalty,
                           p);
    if (st == GSL_SUCCESS)
        st = mbd_cli_bench(stdout, PROGRAM, "bar", "lagrange-lu", I, repeats, bench_lagrange, p);
    if (st == GSL_SUCCESS)
        st = mbd_cli_bench(stdout, PROGRAM, "sweep", "penalty-cholesky+svd", I, repeats,
                           bench_sweep, p);
    if (st == GSL_SUCCESS)
        st = mbd_cli_bench(stdout, PROGRAM, "story", "", MBD_CLI_BENCH_WHOLE_RUN, repeats,
                           bench_story, p);
    if (st != GSL_SUCCESS)
        mbd_failure_set(fail, st, NAN, "a benchmark case failed");
    return st;
}

/* The CSV and the summary; the story when neither was asked for (--beta0
 * and --literal alone change the story's bar). */
int ch01_program_run(void *ctx, mbd_failure *fail)
{
    ch01_program *prog = ctx;
    const mbd_cli_common *opt = prog->opt;
    ch01_problem *p = &prog->p;
    if (!opt->csv && !opt->summary)
        return ch01_program_story(ctx, stdout, opt->no_timing, fail);
    int st = GSL_SUCCESS;
    if (opt->csv) {
        st = ch01_write_csv(opt->csv, p, fail);
        if (st != GSL_SUCCESS)
            return st;
    }
    if (opt->summary) {
        if (p->solve_status != GSL_SUCCESS)
            return mbd_failure_set(fail, p->solve_status, NAN,
                                   "the penalty system K_c Q = F_c could not be solved");
        if (ch01_write_summary(stdout, p) != GSL_SUCCESS)
            return mbd_failure_set(fail, MBD_ENONFINITE, NAN, "a summary value is not finite");
    }
    return st;
}

int ch01_program_story(void *ctx, FILE *out, int no_timing, mbd_failure *fail)
{
    (void)no_timing;   /* the story has no timings */
    ch01_program *prog = ctx;
    int st = ch01_story(out, &prog->p, prog->beta0_story);
    if (st != GSL_SUCCESS)
        mbd_failure_set(fail, st, NAN, "the story failed");
    return st;
}
