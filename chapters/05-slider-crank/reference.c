/* The reduced one-degree-of-freedom reference (see reference.h). */
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_errno.h>

#include "mbd/ode.h"
#include "reference.h"

/* >> reduced */
double ch05_reduced_inertia(const ch05_model *m, ch05_mass_kind kind, double th1)
{
    const double L2 = m->L1 * m->L1, c2 = cos(th1) * cos(th1);
    if (kind == CH05_MASS_DOCUMENT)
        return (m->m1 + 4.0 * m->m2) * L2 / 3.0 + 4.0 * m->m3 * L2 * c2;
    return (m->m1 + m->m2) * L2 / 3.0 + (2.0 * m->m2 + 4.0 * m->m3) * L2 * c2;
}

double ch05_reduced_force(const ch05_model *m, double th1, double th1d)
{
    const double L = m->L1, s = sin(th1), c = cos(th1);
    return -(m->m1 + m->m2) * m->g * 0.5 * L * s
           + (2.0 * m->m2 + 4.0 * m->m3) * L * L * s * c * th1d * th1d;
}

int ch05_reduced_rhs(double t, const double y[], double dydt[], void *params)
{
    (void)t;
    const ch05_reduced *p = params;
    dydt[0] = y[1];
    dydt[1] = ch05_reduced_force(p->model, y[0], y[1])
              / ch05_reduced_inertia(p->model, p->kind, y[0]);
    return GSL_SUCCESS;
}
/* << reduced */

int ch05_reference_init(ch05_reference *r, const ch05_model *m, ch05_mass_kind kind)
{
    r->driver = NULL;
    r->tab = NULL;
    r->tab_n = 0;
    r->fold = NAN;
    if (m->L1 != m->L2)
        return GSL_EINVAL;
    r->model = *m;
    r->model.probe = NULL;
    r->params = (ch05_reduced){&r->model, kind};
    r->sys = (gsl_odeiv2_system){ch05_reduced_rhs, NULL, 2, &r->params};
    r->driver = gsl_odeiv2_driver_alloc_y_new(&r->sys, gsl_odeiv2_step_rk8pd, 1e-3,
                                              CH05_REFERENCE_TOL, CH05_REFERENCE_TOL);
    if (r->driver == NULL)
        return GSL_ENOMEM;
    r->y0[0] = m->theta10;
    r->y0[1] = 0.0;
    r->t = r->tc = 0.0;
    r->y[0] = r->yc[0] = r->y0[0];
    r->y[1] = r->yc[1] = r->y0[1];
    return GSL_SUCCESS;
}

int ch05_reference_tabulate(ch05_reference *r, double dt, double t_max)
{
    size_t n = (size_t)floor(t_max / dt + 1e-9) + 1;
    if (r->tab != NULL && r->tab_dt == dt && r->tab_n >= n && !r->tab_dense)
        return GSL_SUCCESS;
    free(r->tab);
    r->tab = NULL;
    r->tab_n = 0;
    double *tab = malloc(2 * n * sizeof *tab);
    if (tab == NULL)
        return GSL_ENOMEM;
    for (size_t k = 0; k < n; k++) {
        int st = ch05_reference_at(r, (double)k * dt, tab + 2 * k);
        if (st != GSL_SUCCESS) {
            free(tab);
            return st;
        }
    }
    r->tab = tab;
    r->tab_n = n;
    r->tab_dt = dt;
    r->tab_dense = 0;
    return GSL_SUCCESS;
}

/* >> reference-dense */
int ch05_reference_tabulate_dense(ch05_reference *r, double dt, double t_max)
{
    const size_t n = (size_t)floor(t_max / dt + 1e-9) + 1;
    if (r->tab != NULL && r->tab_dt == dt && r->tab_n >= n)
        return GSL_SUCCESS;   /* a table on this grid, dense or stepped */
    double *tab = malloc(2 * n * sizeof *tab), *times = malloc(n * sizeof *times);
    if (tab == NULL || times == NULL) {
        free(tab);
        free(times);
        return GSL_ENOMEM;
    }
    for (size_t k = 0; k < n; k++)
        times[k] = (double)k * dt;
    mbd_ode_params op;
    mbd_ode_preset("tight", &op);   /* Dormand-Prince 5(4) with its dense output */
    op.rtol = op.atol = CH05_REFERENCE_TOL;
    int st = mbd_ode_sample(&op, ch05_reduced_rhs, &r->params, 2, r->y0, times, n, tab, NULL);
    free(times);
    if (st != GSL_SUCCESS) {
        free(tab);
        return st;
    }
    free(r->tab);
    r->tab = tab;
    r->tab_n = n;
    r->tab_dt = dt;
    r->tab_dense = 1;
    return GSL_SUCCESS;
}
/* << reference-dense */

int ch05_reference_fold(ch05_reference *r, double *t)
{
    int st = GSL_SUCCESS;
    if (isnan(r->fold))
        st = ch05_reference_crossing(r, 0.0, 3.0, &r->fold);
    *t = r->fold;
    return st;
}

void ch05_reference_free(ch05_reference *r)
{
    if (r->driver)
        gsl_odeiv2_driver_free(r->driver);
    r->driver = NULL;
    free(r->tab);
    r->tab = NULL;
    r->tab_n = 0;
}

int ch05_reference_at(ch05_reference *r, double t, double y[2])
{
    if (r->tab != NULL) {
        /* an output time on the table's grid */
        double k = nearbyint(t / r->tab_dt);
        if (k >= 0 && k < (double)r->tab_n && t == k * r->tab_dt) {
            size_t i = (size_t)k;
            y[0] = r->tab[2 * i];
            y[1] = r->tab[2 * i + 1];
            return GSL_SUCCESS;
        }
    }
    if (t < r->t) {
        /* go back to the checkpoint, or to the start */
        if (t >= r->tc) {
            r->t = r->tc;
            r->y[0] = r->yc[0];
            r->y[1] = r->yc[1];
        } else {
            r->t = 0.0;
            r->y[0] = r->y0[0];
            r->y[1] = r->y0[1];
        }
        gsl_odeiv2_driver_reset(r->driver);
    }
    if (t > r->t) {
        int st = gsl_odeiv2_driver_apply(r->driver, &r->t, t, r->y);
        if (st != GSL_SUCCESS)
            return st;
    }
    y[0] = r->y[0];
    y[1] = r->y[1];
    return GSL_SUCCESS;
}

int ch05_reference_state(ch05_reference *r, double t, double q[3], double qd[3])
{
    double y[2];
    int st = ch05_reference_at(r, t, y);
    if (st == GSL_SUCCESS)
        ch05_branch_state(r->params.model, y[0], y[1], q, qd);
    return st;
}

int ch05_reference_crossing(ch05_reference *r, double value, double t_max, double *t)
{
    const double grid = 1e-3;
    *t = NAN;
    double y[2];
    int st = ch05_reference_at(r, 0.0, y);
    if (st != GSL_SUCCESS)
        return st;
    double tk = 0.0, yk[2] = {y[0], y[1]};
    for (long k = 1; tk < t_max; k++) {
        double tn = fmin((double)k * grid, t_max);
        st = ch05_reference_at(r, tn, y);
        if (st != GSL_SUCCESS)
            return st;
        if ((yk[0] - value) * (y[0] - value) <= 0.0 && y[0] != yk[0]) {
            /* the crossing is in (tk, tn]: Newton from the checkpoint tk */
            r->tc = tk;
            r->yc[0] = yk[0];
            r->yc[1] = yk[1];
            double ts = tn;
            for (int it = 0; it < 50; it++) {
                st = ch05_reference_at(r, ts, y);
                if (st != GSL_SUCCESS)
                    return st;
                double dt = -(y[0] - value) / y[1];
                ts = fmin(fmax(ts + dt, tk), tn);
                if (fabs(dt) < 1e-14)
                    break;
            }
            *t = ts;
            return GSL_SUCCESS;
        }
        tk = tn;
        yk[0] = y[0];
        yk[1] = y[1];
    }
    return GSL_EMAXITER;
}
