/* reference.h -- the one-degree-of-freedom reference of the slider-crank.
 *
 * With L1 = L2 = L the mechanism released from Table 4's state stays on the
 * branch th2 = pi - 2 th1, x3 = 2 L sin th1 (rod 2 the mirror image of the
 * crank in the vertical through the crank tip). On it q = q(th1) and the
 * equations of motion of either mass matrix reduce to one equation
 *
 *     m(th1) th1'' = -(m1 + m2) g (L/2) sin th1 + (2 m2 + 4 m3) L^2 sin th1 cos th1 th1'^2,
 *
 * with the reduced inertia J^T M J, J = dq/dth1 = (1, -2, 2 L cos th1):
 *     document    m(th1) = (m1 + 4 m2) L^2 / 3 + 4 m3 L^2 cos^2 th1,
 *     consistent  m(th1) = (m1 + m2) L^2 / 3 + (2 m2 + 4 m3) L^2 cos^2 th1.
 * (With Table 4's data: 20/3 + 16 cos^2 th1 and 8/3 + 24 cos^2 th1.)
 *
 * Integrated with GSL's rk8pd at a tolerance of 1e-13 it is the reference the
 * chapter measures every formulation against. The fold, th1 = 0, is a regular
 * point of this equation; only the constraints' Jacobian loses rank there.
 */
#ifndef CH05_REFERENCE_H
#define CH05_REFERENCE_H

#include <gsl/gsl_odeiv2.h>

#include "model.h"

/* The reduced inertia m(th1) of the given mass matrix, and the right-hand
 * side of the reduced equation (the same for both). */
double ch05_reduced_inertia(const ch05_model *m, ch05_mass_kind kind, double th1);
double ch05_reduced_force(const ch05_model *m, double th1, double th1d);

typedef struct {
    const ch05_model *model;
    ch05_mass_kind kind;
} ch05_reduced;

/* y = (th1, th1'); params is a ch05_reduced. gsl_odeiv2's signature. */
int ch05_reduced_rhs(double t, const double y[], double dydt[], void *params);

/* A reference solution from Table 4's release, evaluated at any time. It
 * keeps its own copy of the model, and optionally a table of its states on an
 * output grid, so that many runs can be compared with it cheaply. */
typedef struct {
    ch05_model model;
    ch05_reduced params;
    gsl_odeiv2_system sys;
    gsl_odeiv2_driver *driver;
    double t, y[2];            /* where the driver is */
    double tc, yc[2];          /* a checkpoint to restart from */
    double y0[2];
    double *tab;               /* (th1, th1') at k tab_dt, k < tab_n, or NULL */
    size_t tab_n;
    double tab_dt;
    int tab_dense;             /* the table was read from a dense-output run */
    double fold;               /* the first th1 = 0 (NAN until ch05_reference_fold) */
} ch05_reference;

#define CH05_REFERENCE_TOL 1e-13

/* GSL_ENOMEM or GSL_EINVAL (L1 != L2: no such branch) on failure. r must be
 * zeroed ({0}) or freed before. */
int ch05_reference_init(ch05_reference *r, const ch05_model *m, ch05_mass_kind kind);
/* Tabulates the states at k dt for k dt <= t_max (later calls of
 * ch05_reference_at at those times read the table). */
int ch05_reference_tabulate(ch05_reference *r, double dt, double t_max);
/* The same table from one Dormand-Prince 5(4) run at CH05_REFERENCE_TOL over
 * [0, t_max], each grid time read from the method's dense output: the
 * reference computed once instead of stepped onto every time, within 1e-8 of
 * it (a test checks it); for runs whose errors are 1e-6 and larger. */
int ch05_reference_tabulate_dense(ch05_reference *r, double dt, double t_max);
/* The first time th1 = 0 (searched up to 3 s), computed once. */
int ch05_reference_fold(ch05_reference *r, double *t);
void ch05_reference_free(ch05_reference *r);
/* (th1, th1') at time t >= 0. */
int ch05_reference_at(ch05_reference *r, double t, double y[2]);
/* The full state q, q' on the branch at time t. */
int ch05_reference_state(ch05_reference *r, double t, double q[3], double qd[3]);
/* The first time th1 reaches `value` (below the release angle), searched
 * up to t_max on a 1 ms grid and refined by Newton's method to 1e-14 s.
 * GSL_EMAXITER (and *t = NAN) when it is not reached by t_max. */
int ch05_reference_crossing(ch05_reference *r, double value, double t_max, double *t);

#endif
