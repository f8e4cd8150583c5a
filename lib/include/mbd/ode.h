/* mbd/ode.h -- time integrators for y' = f(t, y).
 *
 * The integrator stage of the pipeline
 *
 *     model -> formulation -> integrator -> correction -> output
 *
 * One explicit Runge-Kutta engine is driven by Butcher tableaux (Euler, the
 * second-order family, RK4, Bogacki-Shampine 3(2), Fehlberg 2(3) and 4(5),
 * Cash-Karp, Dormand-Prince 5(4)), at a fixed step or with error control on an
 * embedded pair or by step doubling. Beside it: Adams-Bashforth and
 * Adams-Moulton multistep methods (the latter solved exactly by Newton or as a
 * predictor-corrector P(EC)^m), implicit Euler (Newton or fixed-point
 * iteration), and GSL's steppers (rk8pd for references, msbdf for stiff
 * problems) behind the same interface.
 *
 * The right-hand side has gsl_odeiv2's signature, so one function serves the
 * toolkit's engine and GSL's steppers alike:
 *     int f(double t, const double y[], double dydt[], void *params);
 *
 * mbd_ode_step() takes one accepted step and keeps what dense output needs;
 * mbd_ode_interpolate() evaluates the last step's interpolant. The driver loop
 * around them (output times, post-step hooks, failure checks) is run.h.
 */
#ifndef MBD_ODE_H
#define MBD_ODE_H

#include <stddef.h>

#include <gsl/gsl_odeiv2.h>

#include "mbd/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef int (*mbd_rhs)(double t, const double y[], double dydt[], void *params);

/* ------------------------------------------------------------------------ */
/* Butcher tableaux                                                          */

typedef struct {
    const char *name;
    unsigned stages;
    const double *c;          /* stages */
    const double *a;          /* stages x stages, row-major, strictly lower triangular */
    const double *b;          /* weights of the propagated solution */
    const double *bhat;       /* weights of the embedded solution, or NULL */
    unsigned order;           /* order of b */
    unsigned order_hat;       /* order of bhat (0 without one) */
    int fsal;                 /* the last stage is f(t + h, y_{n+1}): reusable next step */
    int dense;                /* 0: cubic Hermite on the step's end points; 1: DOPRI5's own */
} mbd_tableau;

extern const mbd_tableau mbd_tableau_euler;       /* 1 */
extern const mbd_tableau mbd_tableau_midpoint;    /* 2 */
extern const mbd_tableau mbd_tableau_heun;        /* 2 */
extern const mbd_tableau mbd_tableau_ralston;     /* 2 */
extern const mbd_tableau mbd_tableau_rk4;         /* 4, classical */
extern const mbd_tableau mbd_tableau_bs23;        /* 3(2) Bogacki-Shampine, FSAL (MATLAB ode23) */
extern const mbd_tableau mbd_tableau_rkf23;       /* 3(2) Fehlberg, as in document 001 (order 3 propagated) */
extern const mbd_tableau mbd_tableau_rkf45;       /* 5(4) Fehlberg, order 5 propagated (as GSL) */
extern const mbd_tableau mbd_tableau_cash_karp;   /* 5(4) Cash-Karp, order 5 propagated */
extern const mbd_tableau mbd_tableau_dopri5;      /* 5(4) Dormand-Prince, FSAL, dense output */

/* ------------------------------------------------------------------------ */
/* Integrators                                                               */

typedef enum {
    MBD_ODE_RK,               /* explicit Runge-Kutta from a tableau */
    MBD_ODE_AB,               /* Adams-Bashforth of order `order` (1..4), RK4 starter */
    MBD_ODE_AM,               /* Adams-Moulton of order `order` (2..5), implicit, Newton */
    MBD_ODE_PECE,             /* AB predictor + AM corrector of the same order, P(EC)^m */
    MBD_ODE_IMPLICIT_EULER,   /* Newton, or fixed point when `fixed_point` is set */
    MBD_ODE_GSL               /* a gsl_odeiv2 stepper, with GSL's standard control */
} mbd_ode_kind;

typedef enum {
    MBD_CONTROL_STANDARD,     /* scaled RMS norm with atol + rtol |y|; safety 0.9 */
    MBD_CONTROL_MATLAB        /* ode23/ode45: max norm of err / max(|y|, atol/rtol) vs rtol */
} mbd_control;

typedef struct {
    const char *name;         /* for messages and tables */
    mbd_ode_kind kind;
    const mbd_tableau *tableau;            /* MBD_ODE_RK */
    int adaptive;             /* error control (RK: embedded pair or doubling; GSL) */
    int doubling;             /* RK: estimate the error by step doubling */
    mbd_control control;
    unsigned order;           /* AB, AM, PECE */
    unsigned corrections;     /* PECE: m >= 1 */
    int fixed_point;          /* implicit methods: fixed-point iteration instead of Newton */
    const gsl_odeiv2_step_type *gsl_type;  /* MBD_ODE_GSL */
    double h;                 /* fixed step, or the initial step (<= 0: chosen) */
    double rtol, atol;
    double hmax;              /* <= 0: MATLAB's 0.1 (t_end - t0) for MBD_CONTROL_MATLAB, else none */
    double hmin;              /* below this a step fails (MBD_ESTEPSIZE); <= 0: 16 eps times
                                 the larger of |t| and the span |t_end - t0| (a smaller step
                                 could not finish the run in any number of steps) */
} mbd_ode_params;

/* Counters of a run. */
typedef struct {
    long steps;               /* accepted steps */
    long rejected;            /* rejected step attempts */
    long fevals;              /* right-hand side evaluations */
    long jevals;              /* Jacobian evaluations (implicit methods, by differences) */
    long iterations;          /* Newton or fixed-point iterations */
    long resets;              /* history resets after a state change */
} mbd_ode_stats;

typedef struct mbd_ode mbd_ode;

/* An integrator for a system of `dim` equations. NULL on bad parameters (an
 * unknown kind, an order out of range, a missing tableau). */
mbd_ode *mbd_ode_alloc(const mbd_ode_params *p, size_t dim, mbd_rhs f, void *params);
void mbd_ode_free(mbd_ode *o);

/* Starts (or restarts) at (t0, y0) towards t_end: forgets every history (the
 * FSAL stage, multistep past values) and picks the first step. */
int mbd_ode_start(mbd_ode *o, double t0, const double y0[], double t_end);

/* The state was changed from outside between steps (a projection): forget the
 * FSAL stage and restart multistep history from (t, y). */
int mbd_ode_reset(mbd_ode *o, double t, const double y[]);

/* One accepted step from (*t, y) that does not pass t_stop: advances *t and
 * y. Adaptive methods retry rejected attempts inside. On failure, the state is
 * left at the last accepted step and mbd_ode_failure() says what and when. */
int mbd_ode_step(mbd_ode *o, double *t, double y[], double t_stop);

/* y(t) for t inside the last step, from its interpolant (GSL_EINVAL for GSL's
 * steppers, which have none: the run loop steps them onto output times). */
int mbd_ode_interpolate(const mbd_ode *o, double t, double y_out[]);

/* The solution of y' = f from y(0) = y0 at the increasing times t[0 .. count-1]
 * (t[0] >= 0), by one run of the integrator p over [0, t[count-1]], each time
 * read from the step it falls in (its interpolant, which for Dormand-Prince is
 * the method's own dense output): ys[k dim .. k dim + dim - 1] = y(t[k]). The
 * cheap way to a reference on many output times; fail (may be NULL) says what
 * failed. */
int mbd_ode_sample(const mbd_ode_params *p, mbd_rhs f, void *params, size_t dim,
                   const double y0[], const double t[], size_t count, double ys[],
                   mbd_failure *fail);

/* The same one time at a time, for a caller whose times come as it goes (an
 * output observer that keeps no history): a sampler integrates from y(0) =
 * y0 towards t_end and gives y(t) for increasing t in [0, t_end], each from
 * the step it falls in, stepping only as far as t needs. For the same times
 * the values are mbd_ode_sample's, bit for bit (it is a loop over this). NULL
 * from alloc on bad parameters or no memory; at() fails (fail says why) for
 * a time before the last one asked or after t_end, or when the integrator
 * fails. */
typedef struct mbd_ode_sampler mbd_ode_sampler;
mbd_ode_sampler *mbd_ode_sampler_alloc(const mbd_ode_params *p, mbd_rhs f, void *params,
                                       size_t dim, const double y0[], double t_end);
int mbd_ode_sampler_at(mbd_ode_sampler *s, double t, double y_out[], mbd_failure *fail);
void mbd_ode_sampler_free(mbd_ode_sampler *s);

/* The last step taken, and the one proposed next. */
double mbd_ode_last_h(const mbd_ode *o);
double mbd_ode_next_h(const mbd_ode *o);
/* The error estimate of the last accepted step, in the control's norm
 * (<= 1 means within tolerance); NAN for fixed-step methods. */
double mbd_ode_last_error(const mbd_ode *o);

/* Why are the steps small? An estimate of the spectral radius rho of the
 * Jacobian df/dy at (t, y), by power iteration on finite-difference products
 * (a dozen evaluations of f, not counted in the statistics). h rho near the
 * stability limit of an explicit method (about 1 to 3) says the step is held
 * by stability: the problem is stiff for it. GSL_SUCCESS, or the status of a
 * failing evaluation. For diagnosis after a failure, not inside a step. */
int mbd_ode_spectral_radius(mbd_ode *o, double t, const double y[], double *rho);

/* 1 when the integrator's step is limited by stability on stiff problems
 * (explicit Runge-Kutta and Adams-Bashforth, predictor-correctors, fixed-point
 * iterations, GSL's explicit steppers); 0 for the implicit ones solved by
 * Newton (Adams-Moulton, implicit Euler, msbdf). */
int mbd_ode_is_explicit(const mbd_ode_params *p);

size_t mbd_ode_dim(const mbd_ode *o);
const mbd_ode_stats *mbd_ode_get_stats(const mbd_ode *o);
const mbd_failure *mbd_ode_failure(const mbd_ode *o);
const mbd_ode_params *mbd_ode_get_params(const mbd_ode *o);

/* ------------------------------------------------------------------------ */
/* Presets: the integrator names every chapter accepts                       */

/* ode23  Bogacki-Shampine 3(2), RelTol 1e-3, AbsTol 1e-6, MATLAB's control
 * fixed  Bogacki-Shampine 3(2) at h = 1e-4 without error control
 * rk4    classical RK4 at h = 1e-4
 * tight  Dormand-Prince 5(4), RelTol 1e-10, AbsTol 1e-12
 * rk8pd  GSL's Prince-Dormand 8(9), RelTol 1e-12, AbsTol 1e-14
 * msbdf  GSL's multistep BDF (stiff), RelTol 1e-8, AbsTol 1e-10
 * Fills p and returns GSL_SUCCESS, or MBD_EINPUT for an unknown name. */
int mbd_ode_preset(const char *name, mbd_ode_params *p);

/* The presets, for --list and --help (NULL-terminated names and descriptions). */
extern const char *const mbd_ode_preset_names[];
extern const char *const mbd_ode_preset_descriptions[];

#ifdef __cplusplus
}
#endif

#endif
