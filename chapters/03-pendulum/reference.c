/* chapters/03-pendulum/reference.c -- the exact solution of the pendulum, the
 * errors of a history against it, and the direct integration (see
 * reference.h). */
#include <math.h>
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

/* max(a, b) for the error maxima, a comparison where fmax would be a call
 * into libm at every component of every output (b NaN: a, as fmax) */
static inline double larger(double a, double b) { return b > a ? b : a; }

void ch03_compare_start(ch03_compare_state *c, const ch03_pendulum *p, const ch03_exact *e)
{
    memset(&c->err, 0, sizeof c->err);
    c->status = GSL_SUCCESS;
    ch03_exact_seq_init(&c->seq, p, e);
}

int ch03_compare_row(ch03_compare_state *c, double t, const double q[CH03_N],
                     const double qd[CH03_N])
{
    ch03_errors *err = &c->err;
    double *d[6] = {&err->x, &err->y, &err->z, &err->xd, &err->yd, &err->zd};
    double qe[CH03_N], qde[CH03_N];
    int st = ch03_exact_seq_state(&c->seq, t, qe, qde);
    if (st != GSL_SUCCESS)
        return st;
    double pos = 0.0;
    for (size_t i = 0; i < CH03_N; i++) {
        const double dq = fabs(q[i] - qe[i]), dv = fabs(qd[i] - qde[i]);
        *d[i] = larger(*d[i], dq);
        *d[3 + i] = larger(*d[3 + i], dv);
        pos = larger(pos, dq);
    }
    if (pos > err->position) {
        err->position = pos;
        err->t_position = t;
    }
    err->z_abs = larger(err->z_abs, fabs(q[2]));
    return GSL_SUCCESS;
}

void ch03_compare_finish(ch03_compare_state *c, ch03_errors *err)
{
    c->err.velocity = fmax(c->err.xd, fmax(c->err.yd, c->err.zd));
    *err = c->err;
}

int ch03_compare(const ch03_pendulum *p, const ch03_exact *e, const mbd_history *h,
                 ch03_errors *err)
{
    ch03_compare_state c;
    ch03_compare_start(&c, p, e);
    for (size_t k = 0; k < h->rows; k++) {
        int st = ch03_compare_row(&c, h->t[k], mbd_history_q(h, k), mbd_history_qd(h, k));
        if (st != GSL_SUCCESS) {
            memset(err, 0, sizeof *err);
            return st;
        }
    }
    ch03_compare_finish(&c, err);
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
/* The pendulum in its one true coordinate, theta'' = -(g/L) sin theta, as a
 * system without constraints: the equation per unit inertia m L^2, so that
 * the library's unconstrained form M q'' = F (the embedding with nothing to
 * embed) computes exactly -(g/L) sin theta. */
static int angle_mass(const mbd_system *s, double t, const gsl_vector *q, gsl_matrix *M)
{
    (void)s;
    (void)t;
    (void)q;
    gsl_matrix_set(M, 0, 0, 1.0);
    return GSL_SUCCESS;
}

static int angle_force(const mbd_system *s, double t, const gsl_vector *q, const gsl_vector *qd,
                       gsl_vector *F)
{
    (void)t;
    (void)qd;
    const ch03_pendulum *p = s->model;
    gsl_vector_set(F, 0, -(p->g / p->L) * sin(gsl_vector_get(q, 0)));
    return GSL_SUCCESS;
}
/* << direct */

void ch03_direct_system(const ch03_pendulum *p, mbd_system *s)
{
    static const char *const names[] = {"theta"};
    *s = (mbd_system){.n = 1, .m = 0, .names = names, .model = (void *)p, .mass = angle_mass,
                      .force = angle_force};
}

int ch03_direct_run(const ch03_pendulum *p, const mbd_study_spec *spec, mbd_history *hist,
                    mbd_study_result *res)
{
    mbd_system sys;
    ch03_direct_system(p, &sys);
    mbd_study_spec s = *spec;
    s.method = "embedding";   /* with no constraints: M q'' = F as it stands */
    s.project = 0;
    const double q0[1] = {p->theta0}, qd0[1] = {0.0};
    mbd_history angle;
    mbd_history_init(&angle);
    int st = mbd_study_run(&sys, &s, q0, qd0, &angle, res);
    /* the Cartesian state of eqs. (74)-(77) at every output, with the
     * diagnostics the constrained formulations record, C, C' = C_q q' and E,
     * computed from it (so C is zero up to rounding) */
    mbd_sim_stats *stats = &res->stats;
    stats->max_C = stats->max_Cdot = stats->max_dE = 0.0;
    stats->E0 = NAN;
    if (hist != NULL && mbd_history_reset(hist, CH03_N, angle.rows, 0) != GSL_SUCCESS)
        st = GSL_ENOMEM;
    if (hist != NULL) {
        hist->has_energy = 1;
        hist->adaptive = angle.adaptive;
    }
    for (size_t k = 0; st == GSL_SUCCESS && k < angle.rows; k++) {
        double q[CH03_N], qd[CH03_N];
        ch03_cartesian(p, mbd_history_q(&angle, k)[0], mbd_history_qd(&angle, k)[0], q, qd);
        const double C = hypot(q[0] * q[0] + q[1] * q[1] - p->L * p->L, q[2]);
        const double Cd = hypot(2.0 * (q[0] * qd[0] + q[1] * qd[1]), qd[2]);
        const double E = 0.5 * p->m * (qd[0] * qd[0] + qd[1] * qd[1] + qd[2] * qd[2])
                         - p->m * p->g * q[1];
        mbd_sim_stats_add(stats, (long)k, C, Cd, E);
        if (hist != NULL)
            st = mbd_history_append(hist, angle.t[k], q, qd, C, Cd, E, angle.h[k]);
    }
    mbd_history_free(&angle);
    return st;
}

