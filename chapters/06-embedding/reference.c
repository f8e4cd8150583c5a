/* reference.c -- chapter 06's mechanisms in their minimal coordinates: the
 * independent references of the embedded and augmented runs (reference.h). */
#include <math.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "mbd/ode.h"
#include "reference.h"

size_t ch06_reduced_dof(const ch06_model *md)
{
    return md->scenario == CH06_DOUBLE_PENDULUM ? 2 : 1;
}

void ch06_reduced_initial(const ch06_model *md, double y[4])
{
    memset(y, 0, 4 * sizeof y[0]);
    switch (md->scenario) {
    case CH06_PENDULUM:
        break;   /* released from rest, horizontal */
    case CH06_SLIDER_CRANK:
        y[0] = md->slider.theta2;
        y[1] = md->slider.omega2;
        break;
    default:
        y[0] = md->dbl.theta1;
        y[1] = md->dbl.theta2;
        break;
    }
}

/* ------------------------------------------------------------------------ */
/* The pendulum                                                              */

/* >> pendulum */
/* About the pin, J_P = m l^2 / 3 (parallel axes), and gravity's moment is
 * -m g (l/2) cos(theta): theta'' = -(3 g / 2 l) cos(theta). */
double ch06_pendulum_accel(const ch06_pendulum_data *p, double theta)
{
    return -1.5 * CH06_G / p->l * cos(theta);
}

/* The centre of mass moves on a circle of radius l/2; the pin's force is
 * what Newton's second law leaves over after gravity: F = m a_c - m g. */
void ch06_pendulum_pin_force(const ch06_pendulum_data *p, double theta, double omega, double F[2])
{
    const double r = 0.5 * p->l, a = ch06_pendulum_accel(p, theta);
    const double s = sin(theta), c = cos(theta);
    const double ax = -r * s * a - r * c * omega * omega;
    const double ay = r * c * a - r * s * omega * omega;
    F[0] = p->m * ax;
    F[1] = p->m * (ay + CH06_G);
}
/* << pendulum */

/* ------------------------------------------------------------------------ */
/* The slider-crank in theta2                                                */

/* The kinematics of the chain as functions of the crank angle: each body's
 * centre (or pin) position r, its influence coefficient G = dr/dtheta2 and
 * G' = d2r/dtheta2^2, and each angle's h = dtheta/dtheta2 and h'. */
typedef struct {
    double r[3][2], G[3][2], Gp[3][2];   /* crank centre, rod centre, pin B */
    double th[3], h[3], hp[3];           /* theta2, theta3, theta4 */
} chain;

/* >> slider-kinematics */
static void slider_chain(const ch06_slider_data *d, double th2, chain *k)
{
    const double s2 = sin(th2), c2 = cos(th2), ratio = d->l2 / d->l3;
    /* the rod closes the loop with B on the x axis: l2 sin2 + l3 sin3 = 0 */
    const double s3 = -ratio * s2, c3 = sqrt(1.0 - s3 * s3);
    const double h3 = -ratio * c2 / c3;
    const double h3p = ratio * (s2 * c3 - c2 * s3 * h3) / (c3 * c3);
    const double A[2] = {d->l2 * c2, d->l2 * s2}, Ad[2] = {-d->l2 * s2, d->l2 * c2},
                 Add[2] = {-d->l2 * c2, -d->l2 * s2};
    const double u3[2] = {c3, s3}, v3[2] = {-s3, c3};   /* the rod's axis and its normal */
    for (int i = 0; i < 2; i++) {
        k->r[0][i] = 0.5 * A[i];
        k->G[0][i] = 0.5 * Ad[i];
        k->Gp[0][i] = 0.5 * Add[i];
        k->r[1][i] = A[i] + 0.5 * d->l3 * u3[i];
        k->G[1][i] = Ad[i] + 0.5 * d->l3 * v3[i] * h3;
        k->Gp[1][i] = Add[i] + 0.5 * d->l3 * (-u3[i] * h3 * h3 + v3[i] * h3p);
        k->r[2][i] = A[i] + d->l3 * u3[i];
        k->G[2][i] = Ad[i] + d->l3 * v3[i] * h3;
        k->Gp[2][i] = Add[i] + d->l3 * (-u3[i] * h3 * h3 + v3[i] * h3p);
    }
    k->th[0] = th2;
    k->th[1] = atan2(s3, c3);
    k->th[2] = 0.0;
    k->h[0] = 1.0;
    k->h[1] = h3;
    k->h[2] = 0.0;
    k->hp[0] = 0.0;
    k->hp[1] = h3p;
    k->hp[2] = 0.0;
}
/* << slider-kinematics */

static void slider_inertia(const ch06_slider_data *d, double m[3], double J[3])
{
    m[0] = d->m2;
    m[1] = d->m3;
    m[2] = d->m4;
    J[0] = d->m2 * d->l2 * d->l2 / 12.0;
    J[1] = d->m3 * d->l3 * d->l3 / 12.0;
    J[2] = d->J4;
}

/* >> slider-reduced */
/* T = m(theta2) theta2'^2 / 2 with m = sum m_k |G_k|^2 + J_k h_k^2, and
 * V = g sum m_k y_k; Lagrange: m theta2'' + m' theta2'^2 / 2 + V' = 0,
 * m' = 2 sum (m_k G_k . G_k' + J_k h_k h_k'), V' = g sum m_k G_k,y. */
static double slider_accel(const ch06_slider_data *d, double th2, double w2)
{
    chain k;
    slider_chain(d, th2, &k);
    double m[3], J[3], mass = 0.0, dmass = 0.0, dV = 0.0;
    slider_inertia(d, m, J);
    for (int b = 0; b < 3; b++) {
        mass += m[b] * (k.G[b][0] * k.G[b][0] + k.G[b][1] * k.G[b][1]) + J[b] * k.h[b] * k.h[b];
        dmass += 2.0 * (m[b] * (k.G[b][0] * k.Gp[b][0] + k.G[b][1] * k.Gp[b][1])
                        + J[b] * k.h[b] * k.hp[b]);
        dV += CH06_G * m[b] * k.G[b][1];
    }
    return -(0.5 * dmass * w2 * w2 + dV) / mass;
}
/* << slider-reduced */

/* ------------------------------------------------------------------------ */
/* The double pendulum in its absolute angles                                */

/* >> double-reduced */
/* Rods 1 and 2 (centres at mid-length, J = m l^2 / 12), angles from +x:
 *   M11 = m1 l1^2 / 3 + m2 l1^2,  M22 = m2 l2^2 / 3,
 *   M12 = m2 l1 l2 cos(th1 - th2) / 2,  c = m2 l1 l2 sin(th1 - th2) / 2,
 *   M11 th1'' + M12 th2'' + c th2'^2 = -g (m1 / 2 + m2) l1 cos th1,
 *   M12 th1'' + M22 th2'' - c th1'^2 = -g m2 (l2 / 2) cos th2. */
static void double_accel(const ch06_double_data *d, const double y[4], double a[2])
{
    const double d12 = y[0] - y[1];
    const double M11 = d->m1 * d->l1 * d->l1 / 3.0 + d->m2 * d->l1 * d->l1;
    const double M22 = d->m2 * d->l2 * d->l2 / 3.0;
    const double M12 = 0.5 * d->m2 * d->l1 * d->l2 * cos(d12);
    const double c = 0.5 * d->m2 * d->l1 * d->l2 * sin(d12);
    const double r1 = -CH06_G * (0.5 * d->m1 + d->m2) * d->l1 * cos(y[0]) - c * y[3] * y[3];
    const double r2 = -CH06_G * d->m2 * 0.5 * d->l2 * cos(y[1]) + c * y[2] * y[2];
    const double det = M11 * M22 - M12 * M12;
    a[0] = (M22 * r1 - M12 * r2) / det;
    a[1] = (M11 * r2 - M12 * r1) / det;
}
/* << double-reduced */

/* ------------------------------------------------------------------------ */

int ch06_reduced_rhs(double t, const double y[], double dydt[], void *params)
{
    (void)t;
    const ch06_model *md = params;
    switch (md->scenario) {
    case CH06_PENDULUM:
        dydt[0] = y[1];
        dydt[1] = ch06_pendulum_accel(&md->pend, y[0]);
        break;
    case CH06_SLIDER_CRANK:
        dydt[0] = y[1];
        dydt[1] = slider_accel(&md->slider, y[0], y[1]);
        break;
    default: {
        double a[2];
        double_accel(&md->dbl, y, a);
        dydt[0] = y[2];
        dydt[1] = y[3];
        dydt[2] = a[0];
        dydt[3] = a[1];
        break;
    }
    }
    return GSL_SUCCESS;
}

/* a body's (x, y, theta) and its rates into q, qd at body slot b */
static void put(double q[], double qd[], int b, const double r[2], double th, const double v[2],
                double w)
{
    q[3 * b] = r[0];
    q[3 * b + 1] = r[1];
    q[3 * b + 2] = th;
    qd[3 * b] = v[0] + 0.0;   /* no -0 in a CSV */
    qd[3 * b + 1] = v[1] + 0.0;
    qd[3 * b + 2] = w + 0.0;
}

void ch06_reduced_to_state(const ch06_model *md, const double y[], double q[], double qd[])
{
    switch (md->scenario) {
    case CH06_PENDULUM: {
        const double h = 0.5 * md->pend.l, s = sin(y[0]), c = cos(y[0]);
        const double r[2] = {h * c, h * s}, v[2] = {-h * s * y[1], h * c * y[1]};
        put(q, qd, 0, r, y[0], v, y[1]);
        break;
    }
    case CH06_SLIDER_CRANK: {
        chain k;
        slider_chain(&md->slider, y[0], &k);
        for (int b = 0; b < 3; b++) {
            const double v[2] = {k.G[b][0] * y[1], k.G[b][1] * y[1]};
            put(q, qd, b, k.r[b], k.th[b], v, k.h[b] * y[1]);
        }
        q[7] = 0.0;   /* the slider on the axis exactly (no -0) */
        qd[7] = 0.0;
        break;
    }
    default: {
        const ch06_double_data *d = &md->dbl;
        const double s1 = sin(y[0]), c1 = cos(y[0]), s2 = sin(y[1]), c2 = cos(y[1]);
        const double r1[2] = {0.5 * d->l1 * c1, 0.5 * d->l1 * s1};
        const double v1[2] = {-0.5 * d->l1 * s1 * y[2], 0.5 * d->l1 * c1 * y[2]};
        const double r2[2] = {d->l1 * c1 + 0.5 * d->l2 * c2, d->l1 * s1 + 0.5 * d->l2 * s2};
        const double v2[2] = {-d->l1 * s1 * y[2] - 0.5 * d->l2 * s2 * y[3],
                              d->l1 * c1 * y[2] + 0.5 * d->l2 * c2 * y[3]};
        put(q, qd, 0, r1, y[0], v1, y[2]);
        put(q, qd, 1, r2, y[1], v2, y[3]);
        break;
    }
    }
}

double ch06_reduced_energy(const ch06_model *md, const double y[])
{
    double q[9], qd[9], m[3], J[3];
    size_t nb;
    ch06_reduced_to_state(md, y, q, qd);
    switch (md->scenario) {
    case CH06_PENDULUM:
        nb = 1;
        m[0] = md->pend.m;
        J[0] = md->pend.m * md->pend.l * md->pend.l / 12.0;
        break;
    case CH06_SLIDER_CRANK:
        nb = 3;
        slider_inertia(&md->slider, m, J);
        break;
    default:
        nb = 2;
        m[0] = md->dbl.m1;
        m[1] = md->dbl.m2;
        J[0] = md->dbl.m1 * md->dbl.l1 * md->dbl.l1 / 12.0;
        J[1] = md->dbl.m2 * md->dbl.l2 * md->dbl.l2 / 12.0;
        break;
    }
    double E = 0.0;
    for (size_t b = 0; b < nb; b++) {
        const double *v = qd + 3 * b;
        E += 0.5 * m[b] * (v[0] * v[0] + v[1] * v[1]) + 0.5 * J[b] * v[2] * v[2]
             + m[b] * CH06_G * q[3 * b + 1];
    }
    return E;
}

/* >> reference */
int ch06_reference(const ch06_model *md, double eps, const double *t, size_t count,
                   double *states, mbd_failure *fail)
{
    const size_t dim = 2 * ch06_reduced_dof(md), n = 3 * (md->scenario == CH06_SLIDER_CRANK ? 3
                                                          : md->scenario == CH06_PENDULUM ? 1 : 2);
    mbd_ode_params op;
    mbd_ode_preset("tight", &op);   /* Dormand-Prince 5(4) and its dense output */
    op.rtol = op.atol = eps;
    double y0[4];
    ch06_reduced_initial(md, y0);
    /* the reduced states into the front of `states`, then spread to (q, q')
     * from the last row down (each row only grows) */
    int st = mbd_ode_sample(&op, ch06_reduced_rhs, (void *)md, dim, y0, t, count, states, fail);
    for (size_t k = count; st == GSL_SUCCESS && k-- > 0;) {
        double y[4];
        memcpy(y, states + dim * k, dim * sizeof y[0]);
        ch06_reduced_to_state(md, y, states + 2 * n * k, states + 2 * n * k + n);
    }
    return st;
}
/* << reference */
