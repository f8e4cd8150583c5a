/* model.h -- chapter 02's three test problems, each with its closed form.
 *
 *   decay       y' = -alpha y,  y(0) = 1;                  y = exp(-alpha t)
 *               (document 001's stability test problem, alpha = 10)
 *   oscillator  x'' = -omega^2 x,  x(0) = 1, x_dot(0) = 0;  x = cos(omega t)
 *               as the first-order system y = (x, x_dot); E = (x_dot^2 + omega^2 x^2) / 2
 *   transient   y' = -100 (y - cos t) - sin t,  y(0) = 0;   y = cos t - exp(-100 t)
 *               a smooth solution after a fast transient: the step-size problem
 *   smooth      y' = -sin t,  y(0) = 1;                     y = cos t
 *               the transient problem's solution without its fast mode (for comparison;
 *               not a --problem choice)
 */
#ifndef CH02_MODEL_H
#define CH02_MODEL_H

#include <stddef.h>

typedef enum { CH02_DECAY, CH02_OSCILLATOR, CH02_TRANSIENT, CH02_SMOOTH } ch02_problem_kind;

/* the rate of the transient problem's fast mode */
#define CH02_TRANSIENT_RATE 100.0

typedef struct {
    ch02_problem_kind kind;
    const char *name;      /* "decay", "oscillator", "transient", "smooth" */
    size_t dim;            /* 1, 2, 1, 1 */
    double alpha;          /* decay rate (decay) */
    double omega;          /* angular frequency (oscillator) */
    double y0[2];          /* the initial state */
} ch02_problem;

void ch02_problem_init(ch02_problem *p, ch02_problem_kind kind, double alpha, double omega);

/* 0 and *kind on a --problem name ("decay", "oscillator", "transient"), -1 otherwise */
int ch02_problem_kind_of(const char *name, ch02_problem_kind *kind);

/* The right-hand side, in gsl_odeiv2's signature; params is the ch02_problem. */
int ch02_rhs(double t, const double y[], double f[], void *params);

/* The closed-form solution at t. */
void ch02_exact(const ch02_problem *p, double t, double y[]);

/* The oscillator's energy (x_dot^2 + omega^2 x^2) / 2; for the scalar problems y^2 / 2. */
double ch02_energy(const ch02_problem *p, const double y[]);

/* The largest |error| over the components at t. */
double ch02_error(const ch02_problem *p, double t, const double y[]);

#endif
