/* Exercise 09.7: the drifts of the BDF dynamics -- energy, Euler norm,
 * position and velocity constraints -- over a fixed-step run of the
 * library's integrator, and their observed order (see README.md). */
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>

#include "ex09.h"

/* Given: an observer that keeps the time, q and q' of every output in
 * memory (recorded states, to be evaluated after the run). */
typedef struct {
    size_t n, count, cap;
    double *t, *q, *qd;    /* count outputs; q and q' n each */
} ex09_record;

static int ex09_record_observer(const mbd_spatial_model *sm, const mbd_spatial_dynamics_point *pt,
                                void *user)
{
    (void)sm;
    ex09_record *r = user;
    if (r->count == r->cap) {
        const size_t cap = r->cap ? 2 * r->cap : 256;
        double *t = realloc(r->t, cap * sizeof *t);
        if (t != NULL)
            r->t = t;
        double *q = realloc(r->q, cap * r->n * sizeof *q);
        if (q != NULL)
            r->q = q;
        double *qd = realloc(r->qd, cap * r->n * sizeof *qd);
        if (qd != NULL)
            r->qd = qd;
        if (t == NULL || q == NULL || qd == NULL)
            return GSL_ENOMEM;
        r->cap = cap;
    }
    r->t[r->count] = pt->t;
    for (size_t i = 0; i < r->n; i++) {
        r->q[r->count * r->n + i] = gsl_vector_get(pt->q, i);
        r->qd[r->count * r->n + i] = gsl_vector_get(pt->qd, i);
    }
    r->count++;
    return GSL_SUCCESS;
}

int ex09_drift_run(mbd_spatial_model *sm, const double g[3],
                   const mbd_spatial_dynamics_options *o, double t0, double t1,
                   const gsl_vector *q0, const gsl_vector *qd0, ex09_drift *out)
{
    /* EXERCISE 09.7: your code here (see README.md) */
    (void)sm; (void)g; (void)o; (void)t0; (void)t1; (void)q0; (void)qd0; (void)out;
    (void)ex09_record_observer;
    return MBD_EUNIMPL;
}

int ex09_drift_order(mbd_spatial_model *sm, const double g[3],
                     const mbd_spatial_dynamics_options *o, double t0, double t1,
                     const gsl_vector *q0, const gsl_vector *qd0, double order[2])
{
    /* EXERCISE 09.7: your code here (see README.md) */
    (void)sm; (void)g; (void)o; (void)t0; (void)t1; (void)q0; (void)qd0; (void)order;
    return MBD_EUNIMPL;
}
