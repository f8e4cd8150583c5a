/* study.h -- chapter 02's integration schemes: the --method names, the
 * slides' tables (document 001, "Numerical Integration" to "Cash-Karp R-K
 * Formulas") typed in as printed, and run helpers on the test problems.
 *
 * Every scheme runs through the library (ode.h, run.h); this module only
 * describes them and holds what the library does not: the slides' own
 * variants (the Euler/trapezoid P(EC)^m, the embedded rows of Cash-Karp and
 * Fehlberg 2(3) propagated on their own) as tableaux.
 */
#ifndef CH02_STUDY_H
#define CH02_STUDY_H

#include <stddef.h>

#include <stdio.h>

#include "mbd/cli.h"
#include "mbd/ode.h"
#include "mbd/run.h"
#include "model.h"
#include "reference.h"

/* One scheme of the chapter. */
typedef struct {
    const char *name;          /* the --method name */
    const char *description;   /* one line for --list */
    const char *slides;        /* what document 001 calls it */
    mbd_ode_kind kind;
    const mbd_tableau *tableau;   /* MBD_ODE_RK */
    unsigned lib_order;        /* MBD_ODE_AB / AM: the library's order k */
    int adaptive, doubling;    /* error control (embedded pair or step doubling) */
    unsigned order;            /* nominal order of the propagated solution (pece: --order) */
    int a_stable;
    int fevals;                /* right-hand side evaluations per step; -1: iterative */
} ch02_scheme;

/* The schemes, in the order of the slides; the array ends with name == NULL. */
extern const ch02_scheme ch02_schemes[];
const ch02_scheme *ch02_scheme_find(const char *name);

/* How a scheme is run. */
typedef struct {
    double h;                  /* fixed step, or an adaptive run's initial step (<= 0: chosen) */
    double rtol, atol;         /* adaptive runs */
    unsigned pece_order;       /* pece: k = 2..4 (AB_k predictor, AM_k corrector) */
    unsigned corrections;      /* pece: m >= 1 */
    int fixed;                 /* 1: an adaptive scheme's propagated formula at a fixed step */
} ch02_settings;

void ch02_settings_default(ch02_settings *s);

/* The library's parameters for scheme s. */
void ch02_params(const ch02_scheme *s, const ch02_settings *set, mbd_ode_params *p);

/* The nominal order of scheme s under these settings. */
unsigned ch02_order(const ch02_scheme *s, const ch02_settings *set);

/* ------------------------------------------------------------------------ */
/* The slides' variants, as tableaux for the library's Runge-Kutta engine     */

/* The slides' predictor-corrector: Euler predictor, then m trapezoidal
 * corrections, f re-evaluated at the result (m = 1 is Heun's method). It is
 * an explicit Runge-Kutta method of m + 1 stages. m = 1 ... CH02_PEC_MAX. */
#define CH02_PEC_MAX 3
const mbd_tableau *ch02_tableau_pec(unsigned m);

/* Kutta's third-order method (the "order 3" of the slides' stability figure). */
extern const mbd_tableau ch02_tableau_rk3;

/* The Cash-Karp table as the slides print it, propagating the row of the given
 * order (1 ... 5; 5 is the library's cash-karp). */
const mbd_tableau *ch02_tableau_cash_karp_row(unsigned order);

/* The Fehlberg 2(3) table as the slides print it, propagating Phi_1 (order 2,
 * weights c_k) or Phi_2 (order 3, weights c-hat_k). */
extern const mbd_tableau ch02_tableau_rkf23_phi1, ch02_tableau_rkf23_phi2;

/* The highest order p <= 5 whose order conditions (the 17 rooted-tree
 * conditions up to order 5, with the row-sum condition c = A e) the weights b
 * of tableau tb satisfy to `tol`; *worst receives the largest defect among the
 * conditions of order p + 1 (0 if p = 5). */
unsigned ch02_tableau_order(const mbd_tableau *tb, const double *b, double tol, double *worst);

/* The coefficients beta_0 ... beta_{k-1} of the k-th order Adams formulas,
 * from the slides' Lagrange form with the factor h restored:
 *   explicit (Adams-Bashforth, k steps):  y_{n+1} = y_n + h sum_i beta_i f_{n-i}
 *   implicit (Adams-Moulton, k - 1 steps): y_{n+1} = y_n + h sum_i beta_i f_{n+1-i}
 * beta_i = (1/h) int_{t_n}^{t_{n+1}} L_i(t) dt, integrated exactly. k = 1 ... 5. */
void ch02_adams(int implicit, unsigned k, double beta[]);

/* ------------------------------------------------------------------------ */
/* Runs                                                                      */

/* The limits of one run: the program's --max-steps and --max-outputs. */
typedef struct {
    long max_steps;            /* > 0: at most this many accepted steps; <= 0: no limit */
    long max_outputs;          /* > 0: at most this many outputs; <= 0: no limit */
    int error_every_step;      /* max_error over every accepted step too, not only over the
                                  outputs (one run's summary; the story's runs do without:
                                  it costs an exact solution per step) */
} ch02_limits;

/* The library's limits (MBD_RUN_MAX_STEPS, MBD_RUN_MAX_OUTPUTS), what every
 * run of the story gets. */
extern const ch02_limits ch02_limits_default;

/* Which limit stopped a run (ch02_result.limit). */
typedef enum { CH02_LIMIT_NONE, CH02_LIMIT_STEPS, CH02_LIMIT_OUTPUTS } ch02_limit_kind;

typedef struct {
    double t, y[2];            /* the last state reached (the last good one after a failure) */
    double error;              /* |y - exact| at t */
    double max_error;          /* over the outputs, and every accepted step when the limits
                                  ask for it (error_every_step) */
    double h_min, h_max;       /* over the accepted steps (NAN before the first) */
    double h_last;             /* the last accepted step (NAN before the first) */
    long outputs;              /* outputs made */
    ch02_limit_kind limit;     /* the limit that stopped the run, if one did */
    mbd_run_stats stats;
    mbd_failure fail;
    const mbd_ode *ode;        /* the integrator, valid during the run only (for output callbacks) */
} ch02_result;

/* Runs p on problem pr from 0 to t_end (mbd_run) within the limits `lim`
 * (NULL: ch02_limits_default); outputs every dt_out (<= 0: after every step)
 * go to `output` (may be NULL), which may read the integrator's counters
 * through r->ode. A grid of more outputs than the limit is refused before the
 * run (MBD_EINPUT); with outputs after every step, the run stops when the
 * next output would pass the limit, as it does at the step limit
 * (MBD_ESTEPLIMIT, r->limit says which). */
int ch02_solve(const mbd_ode_params *p, const ch02_problem *pr, double t_end, double dt_out,
               const ch02_limits *lim, mbd_run_output_fn output, void *ctx, ch02_result *r);

/* The error at t_end of a fixed-step run with step h (NAN if the run failed). */
double ch02_error_at(const mbd_ode_params *p, const ch02_problem *pr, double t_end, double h);

/* Errors at t_end for the steps h0, h0/2, ..., h0/2^(n-1) into err[n], and the
 * observed order log2(err[k-1]/err[k]) into order[k] (order[0] = NAN).
 * Returns the last observed order. */
double ch02_observed_order(const mbd_ode_params *p, const ch02_problem *pr, double t_end,
                           double h0, int n, double err[], double order[]);

/* ------------------------------------------------------------------------ */
/* The story's computations                                                  */

#define ALPHA 10.0              /* the slides' test problem y' = -alpha y */
#define OMEGA 1.0
#define X_MAX 100.0             /* the largest h alpha tested */
#define LIMIT_TOL 1e-4          /* relative width of the measured limit */
#define H_ENERGY 0.1            /* the energy study: h omega = 0.1 over t = 0 ... 20 */
#define T_ENERGY 20.0
#define TOL_STEP 1e-6           /* the step-size ch02_study */
#define T_STEP 2.0

typedef struct {
    char label[48];
    const char *slides;          /* document 001's name, or "" */
    const char *method;          /* the --method name, or NULL for a variant */
    mbd_ode_params p;
    ch02_charpoly cp;
    int theory_found, found;
    double x_theory, x_measured;
    long runs;
    ch02_amp below, above;       /* runs at 0.98 and 1.02 times the theory's limit */
    double r_below, r_above;     /* the theory's max |zeta| there */
} stab_row;

typedef struct {
    char label[48];
    const char *method;
    mbd_ode_params p;
    unsigned order;
    const char *note;
    double h0, err[4], ord[4];          /* decay */
    double h0_tr, err_tr[4], ord_tr[4]; /* transient */
} conv_row;

typedef struct {
    const char *method;
    const char *closed_text;     /* the closed form of E_{n+1}/E_n */
    double closed;               /* its value at h omega */
    double theory;               /* |R(i h omega)|^2 from the characteristic polynomial */
    double ratio_end;            /* E_N / E_0 */
    double factor;               /* (E_N / E_0)^(1/N) */
    double max_dev;              /* max over steps of |(E_{n+1}/E_n) / closed - 1| */
    int one_step;
    size_t n;
    double t[256], E[256];       /* E/E_0 for the figure */
} energy_row;

typedef struct {
    const char *label;
    const char *method;          /* the --method name, or NULL for a variant */
    mbd_ode_params p;
    ch02_result r;
    int status;
    size_t n, cap;
    double *t, *h, *y, *est;     /* per accepted step */
    long *rej;                   /* rejected attempts before it (cumulative) */
    double hmin, hmax, late_x;   /* late_x: mean h * 100 over t > 0.5 */
    double x_limit;              /* real-axis limit of the propagated formula, per step */
    long smooth_steps;           /* accepted steps on y' = -sin t (no fast mode) */
} step_row;

/* one step on y' = -y: the library's error estimate and the propagated error */
typedef struct {
    double z;
    double est[3], err[3];       /* rk4-doubling, rkf23, cash-karp */
} estimate_row;

#define N_STAB 25
#define N_CONV 27
#define N_ENERGY 7
#define N_STEP 4
#define N_EST 5

typedef struct {
    stab_row stab[N_STAB];
    size_t nstab;
    conv_row conv[N_CONV];
    size_t nconv;
    energy_row energy[N_ENERGY];
    size_t nenergy;
    step_row step[N_STEP];
    size_t nstep;
    estimate_row est[N_EST];
    int computed;
} ch02_study;

/* The integrator of a scheme by name: fixed step h, Adams order k, m
 * corrections (fixed-point implicit methods when `fixed`); and the fixed-step
 * Runge-Kutta of a tableau. */
void ch02_params_of(const char *method, unsigned k, unsigned m, int fixed, double h,
                    mbd_ode_params *p);
void ch02_params_tableau(const mbd_tableau *tb, double h, mbd_ode_params *p);

/* Everything the story and the figures show (study.c). */
int ch02_compute_all(ch02_study *s);
void ch02_free_steps(ch02_study *s);

/* The story, the scheme summary (--summary alone), the benchmarks (story.c);
 * the figures (figures.c). */
int ch02_story(FILE *out, ch02_study *s);
int ch02_scheme_summary(FILE *out, ch02_study *s);
int ch02_write_figures(const char *prefix, ch02_study *s, mbd_failure *fail);
int ch02_bench(long repeats, ch02_study *s);

/* One run (--method, --problem, ...; story.c): its spec, checked before it
 * starts, and the run with its CSV, summary or report. */
typedef struct {
    const ch02_scheme *scheme;
    ch02_settings set;
    ch02_problem pr;
    double t_end, dt_out;
    ch02_limits lim;
} ch02_run_spec;
int ch02_check_run(const mbd_cli_spec *spec, const mbd_cli_common *opt, const ch02_run_spec *rs,
                   const mbd_ode_params *p);
int ch02_do_run(const ch02_run_spec *rs, const mbd_ode_params *p, const mbd_cli_common *opt,
                mbd_failure *fail);

/* The program (main.c reads the options into it; mbd_cli_dispatch calls the
 * parts below). */
typedef struct {
    const mbd_cli_common *opt;
    int run_mode;                /* one run (--summary alone is the scheme summary) */
    ch02_run_spec rs;
    mbd_ode_params p;
    ch02_study *s;
} ch02_program;
int ch02_program_bench(void *prog, long repeats, mbd_failure *fail);
int ch02_program_figures(void *prog, const char *prefix, mbd_failure *fail);
int ch02_program_run(void *prog, mbd_failure *fail);
int ch02_program_story(void *prog, FILE *out, int no_timing, mbd_failure *fail);

#endif
