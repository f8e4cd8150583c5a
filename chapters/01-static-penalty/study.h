/* study.h -- chapter 01's computing: the bar's penalty system at the
 * document's factor, its exact solutions, and the penalty-factor sweep, which
 * the story, the figures and the tests share. */
#ifndef CH01_STUDY_H
#define CH01_STUDY_H

#include <stdio.h>

#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

#include "mbd/cli.h"
#include "mbd/error.h"
#include "model.h"
#include "reference.h"

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
} ch01_problem;

void ch01_problem_alloc(ch01_problem *p);
void ch01_problem_free(ch01_problem *p);
/* The penalty solution at C = max|K| 10^4, the exact ones, the residuals. */
int ch01_solve(ch01_problem *p);
/* The error and condition number for C = max|K| 10^k, k = K_MIN .. K_MAX. */
void ch01_sweep(ch01_problem *p);
/* The sweep's exponent with the smallest error. */
int ch01_best_exponent(const ch01_problem *p);

/* The story, the summary and the CSV (story.c); the figure (figures.c). */
int ch01_story(FILE *out, ch01_problem *p, double beta0_story);
int ch01_write_summary(FILE *out, const ch01_problem *p);
int ch01_write_csv(const char *path, const ch01_problem *p, mbd_failure *fail);
int ch01_write_figures(const char *prefix, const ch01_problem *p, mbd_failure *fail);

/* The program (main.c reads the options into it; mbd_cli_dispatch calls the
 * parts below). */
typedef struct {
    const mbd_cli_common *opt;
    ch01_problem p;
    double beta0_story;          /* the misfit of the story's Step 8 */
} ch01_program;
int ch01_program_bench(void *prog, long repeats, mbd_failure *fail);
int ch01_program_figures(void *prog, const char *prefix, mbd_failure *fail);
int ch01_program_run(void *prog, mbd_failure *fail);
int ch01_program_story(void *prog, FILE *out, int no_timing, mbd_failure *fail);

#endif
