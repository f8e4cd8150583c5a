/* Chapter 02's test problems and their closed forms (problems.h). */
#include <math.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "model.h"

static const char *const NAMES[] = {"decay", "oscillator", "transient", "smooth"};

void ch02_problem_init(ch02_problem *p, ch02_problem_kind kind, double alpha, double omega)
{
    memset(p, 0, sizeof *p);
    p->kind = kind;
    p->name = NAMES[kind];
    p->alpha = alpha;
    p->omega = omega;
    p->dim = kind == CH02_OSCILLATOR ? 2 : 1;
    p->y0[0] = kind == CH02_TRANSIENT ? 0.0 : 1.0;   /* x(0) = 1 for the oscillator */
    p->y0[1] = 0.0;
}

int ch02_problem_kind_of(const char *name, ch02_problem_kind *kind)
{
    for (int k = 0; k < 3; k++)
        if (name != NULL && strcmp(name, NAMES[k]) == 0) {
            *kind = (ch02_problem_kind)k;
            return 0;
        }
    return -1;
}

/* >> rhs */
int ch02_rhs(double t, const double y[], double f[], void *params)
{
    const ch02_problem *p = params;
    switch (p->kind) {
    case CH02_DECAY:            /* y' = -alpha y */
        f[0] = -p->alpha * y[0];
        break;
    case CH02_OSCILLATOR:       /* x' = x_dot, x_dot' = -omega^2 x */
        f[0] = y[1];
        f[1] = -p->omega * p->omega * y[0];
        break;
    case CH02_TRANSIENT:        /* y' = -100 (y - cos t) - sin t */
        f[0] = -CH02_TRANSIENT_RATE * (y[0] - cos(t)) - sin(t);
        break;
    case CH02_SMOOTH:           /* y' = -sin t */
        f[0] = -sin(t);
        break;
    }
    return GSL_SUCCESS;
}
/* << rhs */

void ch02_exact(const ch02_problem *p, double t, double y[])
{
    switch (p->kind) {
    case CH02_DECAY:
        y[0] = exp(-p->alpha * t);
        break;
    case CH02_OSCILLATOR:
        y[0] = cos(p->omega * t);
        y[1] = -p->omega * sin(p->omega * t);
        break;
    case CH02_TRANSIENT:
        y[0] = cos(t) - exp(-CH02_TRANSIENT_RATE * t);
        break;
    case CH02_SMOOTH:
        y[0] = cos(t);
        break;
    }
}

double ch02_energy(const ch02_problem *p, const double y[])
{
    if (p->kind == CH02_OSCILLATOR)
        return 0.5 * (y[1] * y[1] + p->omega * p->omega * y[0] * y[0]);
    return 0.5 * y[0] * y[0];
}

double ch02_error(const ch02_problem *p, double t, const double y[])
{
    double ye[2];
    ch02_exact(p, t, ye);
    double e = 0.0;
    for (size_t i = 0; i < p->dim; i++)
        e = fmax(e, fabs(y[i] - ye[i]));
    return e;
}
