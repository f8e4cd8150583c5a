#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>

#include "mbd/constraints.h"
#include "mbd/correction.h"

struct mbd_projection {
    const mbd_system *s;
    mbd_projection_params p;
    size_t n;
    mbd_constraints *cs;          /* the constraint solver does the linear algebra */
    mbd_projection_stats stats;
    mbd_failure fail;
};

void mbd_projection_free(mbd_projection *w)
{
    if (w == NULL)
        return;
    mbd_constraints_free(w->cs);
    free(w);
}

mbd_projection *mbd_projection_alloc(const mbd_system *s, const mbd_projection_params *p)
{
    if (mbd_system_validate(s) != GSL_SUCCESS || s->m == 0)
        return NULL;
    mbd_projection *w = calloc(1, sizeof *w);
    if (w == NULL)
        return NULL;
    w->s = s;
    if (p)
        w->p = *p;
    if (!(w->p.tol > 0))
        w->p.tol = 1e-10;
    if (w->p.max_iter == 0)
        w->p.max_iter = 20;
    w->n = s->n;
    w->cs = mbd_constraints_alloc(s->n, s->m);
    if (w->cs == NULL) {
        mbd_projection_free(w);
        return NULL;
    }
    mbd_failure_clear(&w->fail);
    return w;
}

const mbd_projection_stats *mbd_projection_get_stats(const mbd_projection *w)
{
    return &w->stats;
}
const mbd_failure *mbd_projection_failure(const mbd_projection *w) { return &w->fail; }

/* the solver's failure, said as the projection's */
static int failed(mbd_projection *w, int st)
{
    const mbd_failure *cf = mbd_constraints_failure(w->cs);
    return mbd_failure_set(&w->fail, cf->status != GSL_SUCCESS ? cf->status : st, cf->time,
                           "projection: %s", cf->cause);
}

/* >> projection-step */
/* Newton's method on C(t, q) = 0 and one step onto C_q q' + C_t = 0, each
 * step dx = -W C_q^T (C_q W C_q^T)^-1 r: the constraint solver's correction
 * (constraints.h: mbd_constraints_newton, mbd_constraints_velocity). */
int mbd_projection_positions(mbd_projection *w, double t, gsl_vector *q, int *moved)
{
    unsigned it = 0;
    int st = mbd_constraints_newton(w->cs, w->s, t, q, w->p.mass_weighted, w->p.tol,
                                    w->p.max_iter, &it);
    *moved = it > 0;
    w->stats.iterations += it;
    w->stats.positions += it > 0;
    return st == GSL_SUCCESS ? st : failed(w, st);
}

int mbd_projection_velocities(mbd_projection *w, double t, const gsl_vector *q, gsl_vector *qd,
                              int *moved)
{
    int st = mbd_constraints_velocity(w->cs, w->s, t, q, qd, w->p.mass_weighted, w->p.tol, moved);
    w->stats.velocities += *moved;
    return st == GSL_SUCCESS ? st : failed(w, st);
}
/* << projection-step */

int mbd_projection_correct(mbd_projection *w, double t, gsl_vector *q, gsl_vector *qd,
                           int *changed)
{
    int moved_q = 0, moved_v = 0;
    w->stats.calls++;
    *changed = 0;
    int st = mbd_projection_positions(w, t, q, &moved_q);
    if (st == GSL_SUCCESS)
        st = mbd_projection_velocities(w, t, q, qd, &moved_v);
    *changed = moved_q || moved_v;
    return st;
}

int mbd_projection_apply(mbd_projection *w, double t, double y[], int *changed)
{
    gsl_vector_view q = gsl_vector_view_array(y, w->n);
    gsl_vector_view qd = gsl_vector_view_array(y + w->n, w->n);
    return mbd_projection_correct(w, t, &q.vector, &qd.vector, changed);
}

int mbd_projection_hook(void *ctx, double t, double y[], int *changed, mbd_failure *fail)
{
    mbd_projection *w = ctx;
    int st = mbd_projection_apply(w, t, y, changed);
    if (st != GSL_SUCCESS && fail != NULL)
        *fail = w->fail;
    return st;
}
