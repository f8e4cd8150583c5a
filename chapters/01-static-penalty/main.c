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

#include "study.h"
#include "mbd/cli.h"
#include "mbd/io.h"

#define PROGRAM "ch01-static-penalty"

/* ------------------------------------------------------------------------ */

int main(int argc, char **argv)
{
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
    int code;
    if (!mbd_cli_start(&spec, argc, argv, &opt, &code))
        return code;

    ch01_program prog = {.opt = &opt, .beta0_story = beta0_given ? beta0 : 0.5};
    ch01_problem *p = &prog.p;
    ch01_problem_alloc(p);
    ch01_bar_document(&p->bar);
    p->bar.beta0[1] = beta0;
    p->literal = literal;
    int exit_code;
    int st = ch01_solve(p);
    if (st != GSL_SUCCESS) {
        mbd_failure fail;
        mbd_failure_set(&fail, st, NAN, "the Lagrange-multiplier system is singular");
        mbd_report_failure(stderr, PROGRAM, &fail);
        exit_code = mbd_cli_exit_status(st);
    } else {
        ch01_sweep(p);
        const mbd_cli_program program = {PROGRAM, &prog, ch01_program_bench,
                                         ch01_program_figures, ch01_program_run,
                                         ch01_program_story};
        exit_code = mbd_cli_dispatch(&program, &opt);
    }
    ch01_problem_free(p);
    return exit_code;
}
