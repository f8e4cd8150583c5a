/* mbd/history.h -- recorded time histories: the output end of a run.
 *
 * A history holds, per output, the time, the positions q and kinematic
 * velocities q' (n each), how well the constraints hold (|C|, |C'|), the
 * energy and the step that produced it; mbd_simulate (simulate.h) fills one,
 * and so can any other run (a reduced-coordinate reference) through
 * mbd_history_append. The comparisons every chapter makes are here once:
 * the largest difference between two histories on the same output times, and
 * the largest error against a reference given as a function of time.
 */
#ifndef MBD_HISTORY_H
#define MBD_HISTORY_H

#include <stddef.h>

#include <gsl/gsl_vector.h>

#include "mbd/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A recorded time history: `rows` outputs of n coordinates. q and qd are
 * row-major (row k holds q(t[k]) in q[k n .. k n + n - 1]). */
typedef struct {
    size_t n;
    size_t rows, capacity;
    double *t;
    double *q, *qd;              /* positions and kinematic velocities dq/dt */
    double *C_norm, *Cdot_norm;  /* |C| and |C_q q' + C_t| */
    double *E;                   /* the system's energy (NAN when it has none) */
    double *h;                   /* the step that produced the output (0 at t0) */
    double *cond;                /* condition number (mbd_formulation_condition), or NULL */
    double *block;               /* the one allocation the columns live in */
    int has_energy;              /* the system defines one */
    int adaptive;                /* the integrator controlled its step (CSV gets h) */
} mbd_history;

/* An empty history (no allocation until the first run). */
void mbd_history_init(mbd_history *h);
void mbd_history_free(mbd_history *h);
/* Row k's positions and velocities. */
const double *mbd_history_q(const mbd_history *h, size_t k);
const double *mbd_history_qd(const mbd_history *h, size_t k);
/* Appends one row (q and qd n values each; the condition column, when the
 * history has one, gets NAN). For time histories that do not come from
 * mbd_simulate (a reduced-coordinate reference). GSL_ENOMEM when it cannot
 * grow. */
int mbd_history_append(mbd_history *h, double t, const double q[], const double qd[],
                       double C_norm, double Cdot_norm, double E, double step);
/* The row with the largest t <= time (0 when time is before the first row). */
size_t mbd_history_row_at(const mbd_history *h, double time);

/* Writes the history as the plan's CSV: t, the coordinate names, the names
 * with _dot, C_norm, Cdot_norm, then E (when with_energy) and h (when the run
 * was adaptive). path "-" is stdout. */
int mbd_history_csv(const mbd_history *h, const char *path, const char *const *names,
                    int with_energy, mbd_failure *fail);

/* Empties h (keeps its memory) for n coordinates: a history is reset at the
 * start of every run that records into it. GSL_ENOMEM when it cannot hold
 * `rows` rows (0: a first 1024); with_cond adds the condition column. */
int mbd_history_reset(mbd_history *h, size_t n, size_t rows, int with_cond);

/* Column j of the history as a vector view over its rows (no copy): the
 * positions (j < n), the velocities (n <= j < 2n), or C_norm, Cdot_norm, E, h
 * (j = 2n ... 2n + 3). A view of size 0 (and no data) for j beyond them or an
 * empty history. */
_gsl_vector_const_view mbd_history_column(const mbd_history *h, size_t j);

/* The largest |a - b| per column over the rows with t <= t_max that both
 * histories have: diff[0 .. n-1] for q, diff[n .. 2n-1] for q'. The two must
 * share their output times (runs on one grid); the rows compared are the
 * common prefix. */
void mbd_history_max_difference(const mbd_history *a, const mbd_history *b, double t_max,
                                double diff[]);

/* A reference solution as a function of time: q(t) and q'(t) (n each). */
typedef int (*mbd_reference_fn)(void *ctx, double t, double q[], double qd[]);

/* The largest |h - ref| per column over the rows with t <= t_max, as
 * mbd_history_max_difference; the reference is evaluated at every row's
 * time. Returns the reference's status when it fails. */
int mbd_history_max_error(const mbd_history *h, double t_max, mbd_reference_fn ref, void *ctx,
                          double err[]);

/* The largest |E - E(first row)| over the rows with t <= t_max (0 without
 * energy or rows). */
double mbd_history_energy_drift(const mbd_history *h, double t_max);

#ifdef __cplusplus
}
#endif

#endif
