/* chapters/03-pendulum/reference.c -- the exact solution of the pendulum, the
 * errors of a history against it, and the direct integration (see
 * reference.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_math.h>
#include <gsl/gsl_sf_elljac.h>
#include <gsl/gsl_sf_ellint.h>

#include "reference.h"

/* ------------------------------------------------------------------------ */
/* The exact solution                                                        */

int ch03_exact_init(const ch03_pendulum *p, ch03_exact *e)
{
    if (!(p->theta0 > 0 && p->theta0 < M_PI) || !(p->g > 0) || !(p->L > 0))
        return GSL_EDOM;
    e->w = sqrt(p->g / p->L);
    e->k = sin(0.5 * p->theta0);
    e->K = gsl_sf_ellint_Kcomp(e->k, GSL_PREC_DOUBLE);
    e->T = 4.0 * e->K / e->w;
    return GSL_SUCCESS;
}

/* >> exact */
/* sin(theta/2) = k sn(K - w t, k), theta' = -2 k w cn(K - w t, k); GSL's
 * elliptic functions take the parameter m = k^2. */
int ch03_exact_angle(const ch03_exact *e, double t, double *theta, double *omega)
{
    double sn, cn, dn;
    int st = gsl_sf_elljac_e(e->K - e->w * t, e->k * e->k, &sn, &cn, &dn);
    if (st != GSL_SUCCESS)
        return st;
    *theta = 2.0 * asin(e->k * sn);
    *omega = -2.0 * e->k * e->w * cn;
    return GSL_SUCCESS;
}
/* << exact */

void ch03_cartesian(const ch03_pendulum *p, double theta, double omega, double q[CH03_N],
                    double qd[CH03_N])
{
    const double s = sin(theta), c = cos(theta);
    q[0] = p->L * s;
    q[1] = p->L * c;
    q[2] = 0.0;
    qd[0] = p->L * omega * c;
    qd[1] = -p->L * omega * s + 0.0;   /* no -0 in the CSV */
    qd[2] = 0.0;
}

int ch03_exact_state(const ch03_pendulum *p, const ch03_exact *e, double t, double q[CH03_N],
                     double qd[CH03_N])
{
    double theta, omega;
    int st = ch03_exact_angle(e, t, &theta, &omega);
    if (st == GSL_SUCCESS)
        ch03_cartesian(p, theta, omega, q, qd);
    return st;
}

double ch03_exact_bottom_time(const ch03_exact *e, int n) { return (2.0 * n - 1.0) * e->T / 4.0; }

/* >> exact-seq */
void ch03_exact_seq_init(ch03_exact_seq *s, const ch03_pendulum *p, const ch03_exact *e)
{
    *s = (ch03_exact_seq){.p = p, .e = e};
}

/* (sn, cn, dn)(u + v) from their values at u and v, modulus k */
static void jacobi_add(double k2, double su, double cu, double du, double sv, double cv, double dv,
                       double *s, double *c, double *d)
{
    const double den = 1.0 - k2 * su * su * sv * sv;
    *s = (su * cv * dv + sv * cu * du) / den;
    *c = (cu * cv - su * sv * du * dv) / den;
    *d = (du * dv - k2 * su * sv * cu * cv) / den;
}

int ch03_exact_seq_state(ch03_exact_seq *s, double t, double q[CH03_N], double qd[CH03_N])
{
    const ch03_exact *e = s->e;
    const double k2 = e->k * e->k, u = e->K - e->w * t;
    double sn, cn, dn;
    int fresh = 1;
    if (s->anchored && s->j + 1 < CH03_EXACT_ANCHOR) {
        const double prev = s->ua + s->j * s->v;   /* the last row's argument */
        if (!s->stepped || fabs((u - prev) - s->v) > 1e-6 * fabs(s->v)) {
            if (s->j == 0) {   /* the spacing is new: its functions once */
                s->v = u - s->ua;
                int st = gsl_sf_elljac_e(s->v, k2, &s->sv, &s->cv, &s->dv);
                if (st != GSL_SUCCESS)
                    return st;
                s->stepped = 1;
            }
        }
        if (s->stepped && fabs((u - prev) - s->v) <= 1e-6 * fabs(s->v)) {
            jacobi_add(k2, s->sn, s->cn, s->dn, s->sv, s->cv, s->dv, &s->sn, &s->cn, &s->dn);
            s->j++;
            /* the grid's round-off: u is not exactly ua + j v */
            const double d = u - (s->ua + s->j * s->v);
            sn = s->sn + s->cn * s->dn * d;
            cn = s->cn - s->sn * s->dn * d;
            dn = s->dn - k2 * s->sn * s->cn * d;
            fresh = 0;
        }
    }
    if (fresh) {
        int st = gsl_sf_elljac_e(u, k2, &s->sn, &s->cn, &s->dn);
        if (st != GSL_SUCCESS)
            return st;
        s->anchored = 1;
        s->ua = u;
        s->j = 0;
        sn = s->sn;
        cn = s->cn;
        dn = s->dn;
    }
    /* sin(theta / 2) = k sn, cos(theta / 2) = dn, theta' = -2 k w cn */
    const double L = s->p->L, sin_th = 2.0 * e->k * sn * dn, cos_th = 1.0 - 2.0 * k2 * sn * sn;
    const double omega = -2.0 * e->k * e->w * cn;
    q[0] = L * sin_th;
    q[1] = L * cos_th;
    q[2] = 0.0;
    qd[0] = L * omega * cos_th;
    qd[1] = -L * omega * sin_th + 0.0;   /* no -0 in the CSV */
    qd[2] = 0.0;
    return GSL_SUCCESS;
}
/* << exact-seq */

int ch03_compare(const ch03_pendulum *p, const ch03_exact *e, const mbd_history *h,
                 ch03_errors *err)
{
    memset(err, 0, sizeof *err);
    double *d[6] = {&err->x, &err->y, &err->z, &err->xd, &err->yd, &err->zd};
    ch03_exact_seq seq;
    ch03_exact_seq_init(&seq, p, e);
    for (size_t k = 0; k < h->rows; k++) {
        double qe[CH03_N], qde[CH03_N];
        int st = ch03_exact_seq_state(&seq, h->t[k], qe, qde);
        if (st != GSL_SUCCESS)
            return st;
        const double *q = mbd_history_q(h, k), *qd = mbd_history_qd(h, k);
        double pos = 0.0;
        for (size_t i = 0; i < CH03_N; i++) {
            const double dq = fabs(q[i] - qe[i]), dv = fabs(qd[i] - qde[i]);
            *d[i] = fmax(*d[i], dq);
            *d[3 + i] = fmax(*d[3 + i], dv);
            pos = fmax(pos, dq);
        }
        if (pos > err->position) {
            err->position = pos;
            err->t_position = h->t[k];
        }
        err->z_abs = fmax(err->z_abs, fabs(q[2]));
    }
    err->velocity = fmax(err->xd, fmax(err->yd, err->zd));
    return GSL_SUCCESS;
}

double ch03_first_crossing(const mbd_history *h, double t_after)
{
    for (size_t k = 1; k < h->rows; k++) {
        if (h->t[k] <= t_after)
            continue;
        const double x0 = mbd_history_q(h, k - 1)[0], x1 = mbd_history_q(h, k)[0];
        if (x0 == 0.0 && h->t[k - 1] > t_after)
            return h->t[k - 1];
        if ((x0 > 0) != (x1 > 0) && x1 != x0)
            return h->t[k - 1] + (h->t[k] - h->t[k - 1]) * x0 / (x0 - x1);
    }
    return NAN;
}

/* ------------------------------------------------------------------------ */
/* The direct method                                                         */

/* >> direct */
/* The pendulum in its one true coordinate: theta'' = -(g/L) sin theta. */
int ch03_direct_rhs(double t, const double y[], double dydt[], void *params)
{
    (void)t;
    const ch03_pendulum *p = params;
    dydt[0] = y[1];
    dydt[1] = -(p->g / p->L) * sin(y[0]);
    return GSL_SUCCESS;
}
/* << direct */

typedef struct {
    const ch03_pendulum *p;
    mbd_history *hist;
    mbd_sim_stats *stats;
    long seen;
} direct_ctx;

static int direct_output(void *ctx, double t, const double y[], const mbd_run_info *info,
                         mbd_failure *fail)
{
    direct_ctx *c = ctx;
    const ch03_pendulum *p = c->p;
    double q[CH03_N], qd[CH03_N];
    ch03_cartesian(p, y[0], y[1], q, qd);
    /* the same diagnostics the formulations record: C, C' = C_q q', E */
    const double C = hypot(q[0] * q[0] + q[1] * q[1] - p->L * p->L, q[2]);
    const double Cd = hypot(2.0 * (q[0] * qd[0] + q[1] * qd[1]), qd[2]);
    const double E = 0.5 * p->m * (qd[0] * qd[0] + qd[1] * qd[1] + qd[2] * qd[2])
                     - p->m * p->g * q[1];
    if (!isfinite(C) || !isfinite(Cd) || !isfinite(E))
        return mbd_failure_set(fail, MBD_ENONFINITE, t, "the state is not finite");
    mbd_sim_stats *s = c->stats;
    mbd_sim_stats_add(s, c->seen++, C, Cd, E);
    if (c->hist == NULL)
        return GSL_SUCCESS;
    if (mbd_history_append(c->hist, t, q, qd, C, Cd, E, info->h) != GSL_SUCCESS)
        return mbd_failure_set(fail, GSL_ENOMEM, t, "out of memory for the time history");
    return GSL_SUCCESS;
}

int ch03_direct_run(const ch03_pendulum *p, const mbd_ode_params *ode, const mbd_sim_params *sp,
                    mbd_history *hist, mbd_sim_stats *stats, mbd_failure *fail)
{
    mbd_sim_stats local;
    if (stats == NULL)
        stats = &local;
    memset(stats, 0, sizeof *stats);
    stats->E0 = NAN;
    mbd_failure_clear(fail);
    if (hist != NULL) {
        if (hist->n != CH03_N) {
            mbd_history_free(hist);
            hist->n = CH03_N;
        }
        hist->rows = 0;
        hist->has_energy = 1;
        hist->adaptive = ode->adaptive;
        free(hist->cond);
        hist->cond = NULL;
    }
    mbd_ode *o = mbd_ode_alloc(ode, 2, ch03_direct_rhs, (void *)p);
    if (o == NULL)
        return mbd_failure_set(fail, MBD_EINPUT, 0.0, "bad integrator parameters (%s)",
                               ode->name ? ode->name : "unnamed");
    double y[2] = {p->theta0, 0.0};
    direct_ctx c = {p, hist, stats, 0};
    mbd_run_params rp = {
        .t0 = sp->t0,
        .t_end = sp->t_end,
        .dt_out = sp->dt_out,
        .output = direct_output,
        .output_ctx = &c,
        .max_steps = sp->max_steps == 0 ? MBD_RUN_MAX_STEPS : sp->max_steps,
        .max_outputs = sp->max_outputs == 0 ? MBD_RUN_MAX_OUTPUTS : sp->max_outputs,
    };
    int st = mbd_run(o, &rp, y, &stats->run, fail);
    mbd_ode_free(o);
    return st;
}

