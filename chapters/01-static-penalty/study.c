/* study.c -- chapter 01's computing (see study.h). */
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

void ch01_problem_alloc(ch01_problem *p)
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

void ch01_problem_free(ch01_problem *p)
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
int ch01_solve(ch01_problem *p)
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
void ch01_sweep(ch01_problem *p)
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
int ch01_best_exponent(const ch01_problem *p)
{
    int best = -1;
    for (int i = 0; i < N_SWEEP; i++)
        if (isfinite(p->sweep_error[i]) && (best < 0 || p->sweep_error[i] < p->sweep_error[best]))
            best = i;
    return best < 0 ? -1 : best + K_MIN;
}
