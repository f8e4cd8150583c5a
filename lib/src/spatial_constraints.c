/* The rows of the spatial model's C: the basic constraints CD, D, DP1, DP2
 * (document Sec. 4.1.1; the equations are the guide's Sec. 2.2, Haug's),
 * the orientation rows of the ground joint and the Euler-parameter
 * normalisation rows (guide Sec. 2.6), each with its value, nu, gamma and
 * body blocks; and the mbd_system callbacks that stack them (spatial.h). */
#include <math.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "mbd/error.h"
#include "mbd/spatial.h"
#include "spatial_impl.h"

enum { EV_PHI = 1, EV_JAC = 2, EV_GAMMA = 4 };

/* x = r + A s: a body point */
static void point(const sp_side *z, const double s[3], double x[3])
{
    double a[3];
    sp_matvec3(&z->A[0][0], s, a);
    for (int k = 0; k < 3; k++)
        x[k] = z->r[k] + a[k];
}

/* B(p', a) p' = d^2(A a)/dt^2 - B(p, a) p'': the part of a body vector's or
 * point's acceleration that the accelerations do not give */
static void quad(const sp_side *z, const double a[3], double out[3])
{
    double B[3][4];
    mbd_spatial_ep_B(z->pd, a, B);
    sp_mul34(B, z->pd, out);
}

/* B(p, a) p' = d(A a)/dt */
static void rate(const sp_side *z, const double a[3], double out[3])
{
    double B[3][4];
    mbd_spatial_ep_B(z->p, a, B);
    sp_mul34(B, z->pd, out);
}

/* row[0..3] = v^T B(p, a) */
static void vB(const sp_side *z, const double v[3], const double a[3], double sign,
               double row[4])
{
    double B[3][4];
    mbd_spatial_ep_B(z->p, a, B);
    sp_mul34T(B, v, row);
    for (int k = 0; k < 4; k++)
        row[k] *= sign;
}

/* d = r_j + A_j s_j - r_i - A_i s_i and its rate d' */
static void dij(const sp_side *zi, const double si[3], const sp_side *zj, const double sj[3],
                double d[3], double dd[3])
{
    double P[3], Q[3];
    point(zi, si, P);
    point(zj, sj, Q);
    for (int k = 0; k < 3; k++)
        d[k] = Q[k] - P[k];
    if (dd != NULL) {
        double vi[3], vj[3];
        rate(zi, si, vi);
        rate(zj, sj, vj);
        for (int k = 0; k < 3; k++)
            dd[k] = zj->rd[k] + vj[k] - zi->rd[k] - vi[k];
    }
}

/* Row r from its two sides (sp_side_of of r->i and r->j at q, and at q'
 * when gamma is asked for: have_qd) */
static int eval_sides(const sp_row *r, double t, const sp_side *zi, const sp_side *zj,
                      int have_qd, int what, mbd_spatial_row_eval *e)
{
    memset(e, 0, sizeof *e);
    double f[3] = {0.0, 0.0, 0.0};
    if (r->kind != MBD_SPATIAL_ROW_ORIENTATION && r->kind != MBD_SPATIAL_ROW_NORMALISATION
        && (what & (EV_PHI | EV_GAMMA))) {
        int st = mbd_spatial_fn_eval(&r->f, t, f);
        if (st != GSL_SUCCESS)
            return st;
    }
    const int gam = (what & EV_GAMMA) && have_qd;

    switch (r->kind) {
    /* >> spatial-cd */
    case MBD_SPATIAL_ROW_CD: {
        /* Phi = c^T d - f */
        double d[3];
        dij(zi, r->sp, zj, r->sq, d, NULL);
        e->phi = sp_dot3(r->c, d) - f[0];
        if (what & EV_JAC) {
            for (int k = 0; k < 3; k++) {
                e->phi_r[0][k] = -r->c[k];
                e->phi_r[1][k] = r->c[k];
            }
            vB(zi, r->c, r->sp, -1.0, e->phi_p[0]);
            vB(zj, r->c, r->sq, 1.0, e->phi_p[1]);
        }
        if (gam) {
            /* gamma = c^T B(p_i', s_i) p_i' - c^T B(p_j', s_j) p_j' + f'' */
            double qi[3], qj[3];
            quad(zi, r->sp, qi);
            quad(zj, r->sq, qj);
            e->gamma = sp_dot3(r->c, qi) - sp_dot3(r->c, qj);
        }
        break;
    }
    /* << spatial-cd */

    /* >> spatial-d */
    case MBD_SPATIAL_ROW_D: {
        /* Phi = d^T d - f (f the squared distance) */
        double d[3], dd[3];
        dij(zi, r->sp, zj, r->sq, d, gam ? dd : NULL);
        e->phi = sp_dot3(d, d) - f[0];
        if (what & EV_JAC) {
            for (int k = 0; k < 3; k++) {
                e->phi_r[0][k] = -2.0 * d[k];
                e->phi_r[1][k] = 2.0 * d[k];
            }
            vB(zi, d, r->sp, -2.0, e->phi_p[0]);
            vB(zj, d, r->sq, 2.0, e->phi_p[1]);
        }
        if (gam) {
            /* gamma = -2 d^T (B(p_j', s_j) p_j' - B(p_i', s_i) p_i') - 2 d'^T d' + f'' */
            double qi[3], qj[3], w[3];
            quad(zi, r->sp, qi);
            quad(zj, r->sq, qj);
            for (int k = 0; k < 3; k++)
                w[k] = qj[k] - qi[k];
            e->gamma = -2.0 * sp_dot3(d, w) - 2.0 * sp_dot3(dd, dd);
        }
        break;
    }
    /* << spatial-d */

    /* >> spatial-dp1 */
    case MBD_SPATIAL_ROW_DP1: {
        /* Phi = a_i^T a_j - f, a = A a_bar */
        double ai[3], aj[3];
        sp_matvec3(&zi->A[0][0], r->ai, ai);
        sp_matvec3(&zj->A[0][0], r->aj, aj);
        e->phi = sp_dot3(ai, aj) - f[0];
        if (what & EV_JAC) {
            vB(zi, aj, r->ai, 1.0, e->phi_p[0]);     /* a_j^T B(p_i, a_bar_i) */
            vB(zj, ai, r->aj, 1.0, e->phi_p[1]);     /* a_i^T B(p_j, a_bar_j) */
        }
        if (gam) {
            /* gamma = -a_i^T B(p_j', a_j) p_j' - a_j^T B(p_i', a_i) p_i' - 2 a_i'^T a_j' + f'' */
            double qi[3], qj[3], vi[3], vj[3];
            quad(zi, r->ai, qi);
            quad(zj, r->aj, qj);
            rate(zi, r->ai, vi);
            rate(zj, r->aj, vj);
            e->gamma = -sp_dot3(ai, qj) - sp_dot3(aj, qi) - 2.0 * sp_dot3(vi, vj);
        }
        break;
    }
    /* << spatial-dp1 */

    /* >> spatial-dp2 */
    case MBD_SPATIAL_ROW_DP2: {
        /* Phi = a_i^T d - f */
        double ai[3], d[3], dd[3];
        sp_matvec3(&zi->A[0][0], r->ai, ai);
        dij(zi, r->sp, zj, r->sq, d, gam ? dd : NULL);
        e->phi = sp_dot3(ai, d) - f[0];
        if (what & EV_JAC) {
            double pa[4], ps[4];
            for (int k = 0; k < 3; k++) {
                e->phi_r[0][k] = -ai[k];
                e->phi_r[1][k] = ai[k];
            }
            /* Phi_pi = d^T B(p_i, a_bar_i) - a_i^T B(p_i, s_i) */
            vB(zi, d, r->ai, 1.0, pa);
            vB(zi, ai, r->sp, 1.0, ps);
            for (int k = 0; k < 4; k++)
                e->phi_p[0][k] = pa[k] - ps[k];
            vB(zj, ai, r->sq, 1.0, e->phi_p[1]);
        }
        if (gam) {
            /* gamma = -a_i^T (B(p_j', s_j) p_j' - B(p_i', s_i) p_i') - d^T B(p_i', a_i) p_i'
             *         - 2 a_i'^T d' + f'' */
            double qi[3], qj[3], qa[3], va[3], w[3];
            quad(zi, r->sp, qi);
            quad(zj, r->sq, qj);
            quad(zi, r->ai, qa);
            rate(zi, r->ai, va);
            for (int k = 0; k < 3; k++)
                w[k] = qj[k] - qi[k];
            e->gamma = -sp_dot3(ai, w) - sp_dot3(d, qa) - 2.0 * sp_dot3(va, dd);
        }
        break;
    }
    /* << spatial-dp2 */

    case MBD_SPATIAL_ROW_ORIENTATION: {
        /* Phi = (G(p0) p_i)_k: linear, gamma = 0 */
        double G0[3][4];
        mbd_spatial_ep_G(r->p0, G0);
        const int k = r->axis;
        e->phi = G0[k][0] * zi->p[0] + G0[k][1] * zi->p[1] + G0[k][2] * zi->p[2]
                 + G0[k][3] * zi->p[3];
        if (what & EV_JAC)
            memcpy(e->phi_p[0], G0[k], sizeof G0[k]);
        return GSL_SUCCESS;
    }

    /* >> spatial-normalisation */
    case MBD_SPATIAL_ROW_NORMALISATION:
        /* Phi = (p^T p - 1) / 2, Phi_p = p^T, gamma = -p'^T p' */
        e->phi = 0.5 * (zi->p[0] * zi->p[0] + zi->p[1] * zi->p[1] + zi->p[2] * zi->p[2]
                        + zi->p[3] * zi->p[3] - 1.0);
        if (what & EV_JAC)
            memcpy(e->phi_p[0], zi->p, sizeof zi->p);
        if (gam)
            e->gamma = -(zi->pd[0] * zi->pd[0] + zi->pd[1] * zi->pd[1] + zi->pd[2] * zi->pd[2]
                         + zi->pd[3] * zi->pd[3]);
        return GSL_SUCCESS;
    /* << spatial-normalisation */
    }
    /* >> spatial-nu */
    /* the basic constraints: Phi = g(q) - f(t), nu = f', gamma += f'' */
    e->nu = f[1];
    if (gam)
        e->gamma += f[2];
    return GSL_SUCCESS;
    /* << spatial-nu */
}

static int eval_row(const mbd_spatial_model *sm, const sp_row *r, double t, const gsl_vector *q,
                    const gsl_vector *qd, int what, mbd_spatial_row_eval *e)
{
    sp_side zi, zj;
    sp_side_of(sm, r->i, q, qd, &zi);
    sp_side_of(sm, r->j, q, qd, &zj);
    return eval_sides(r, t, &zi, &zj, qd != NULL, what, e);
}

int sp_row_eval_sides(const mbd_spatial_model *sm, size_t k, double t, const sp_side *zi,
                      const sp_side *zj, int with_gamma, mbd_spatial_row_eval *out)
{
    return eval_sides(&sm->rows[k], t, zi, zj, with_gamma,
                      EV_PHI | EV_JAC | (with_gamma ? EV_GAMMA : 0), out);
}

int mbd_spatial_eval_row(const mbd_spatial_model *sm, size_t k, double t, const gsl_vector *q,
                         const gsl_vector *qd, mbd_spatial_row_eval *out)
{
    if (sm == NULL || !sm->finished || q == NULL || out == NULL || k >= sm->m)
        return MBD_EINPUT;
    if (q->size != sm->n || (qd != NULL && qd->size != sm->n))
        return GSL_EBADLEN;
    return eval_row(sm, &sm->rows[k], t, q, qd, EV_PHI | EV_JAC | EV_GAMMA, out);
}

void sp_row_blocks(const mbd_spatial_model *sm, size_t k, const gsl_vector *q,
                   mbd_spatial_row_eval *out)
{
    eval_row(sm, &sm->rows[k], 0.0, q, NULL, EV_JAC, out);   /* no f: cannot fail */
}

int sp_row_phi_blocks(const mbd_spatial_model *sm, size_t k, double t, const gsl_vector *q,
                      mbd_spatial_row_eval *out)
{
    return eval_row(sm, &sm->rows[k], t, q, NULL, EV_PHI | EV_JAC, out);
}

/* ------------------------------------------------------------------------ */
/* The mbd_system callbacks                                                  */

int sp_sys_constraint(const mbd_system *s, double t, const gsl_vector *q, gsl_vector *C)
{
    const mbd_spatial_model *sm = s->model;
    for (size_t k = 0; k < sm->m; k++) {
        mbd_spatial_row_eval e;
        int st = eval_row(sm, &sm->rows[k], t, q, NULL, EV_PHI, &e);
        if (st != GSL_SUCCESS)
            return st;
        gsl_vector_set(C, k, e.phi);
    }
    return GSL_SUCCESS;
}

/* >> spatial-jacobian */
/* Each row puts its 3-column r block and 4-column p block into the columns of
 * the bodies it touches (none for a ground or the global frame). */
int sp_sys_jacobian(const mbd_system *s, double t, const gsl_vector *q, gsl_matrix *Cq)
{
    const mbd_spatial_model *sm = s->model;
    gsl_matrix_set_zero(Cq);
    for (size_t k = 0; k < sm->m; k++) {
        const sp_row *r = &sm->rows[k];
        mbd_spatial_row_eval e;
        int st = eval_row(sm, r, t, q, NULL, EV_JAC, &e);
        if (st != GSL_SUCCESS)
            return st;
        const int side_body[2] = {r->i, r->j};
        for (int sd = 0; sd < 2; sd++) {
            const int b = side_body[sd];
            if (b < 0 || sm->bodies[b].ground)
                continue;
            const size_t c = sm->bodies[b].col;
            for (int x = 0; x < 3; x++)
                gsl_matrix_set(Cq, k, c + x, e.phi_r[sd][x]);
            for (int x = 0; x < 4; x++)
                gsl_matrix_set(Cq, k, c + 3 + x, e.phi_p[sd][x]);
        }
    }
    return GSL_SUCCESS;
}
/* << spatial-jacobian */

int sp_sys_constraint_t(const mbd_system *s, double t, const gsl_vector *q, gsl_vector *Ct)
{
    const mbd_spatial_model *sm = s->model;
    for (size_t k = 0; k < sm->m; k++) {
        const sp_row *r = &sm->rows[k];
        if (!r->rheonomic) {
            gsl_vector_set(Ct, k, 0.0);
            continue;
        }
        double f[3];
        int st = mbd_spatial_fn_eval(&r->f, t, f);
        if (st != GSL_SUCCESS)
            return st;
        gsl_vector_set(Ct, k, -f[1]);           /* Phi_t = -f' */
    }
    (void)q;
    return GSL_SUCCESS;
}

int sp_sys_gamma(const mbd_system *s, double t, const gsl_vector *q, const gsl_vector *qd,
                 gsl_vector *gamma)
{
    const mbd_spatial_model *sm = s->model;
    for (size_t k = 0; k < sm->m; k++) {
        mbd_spatial_row_eval e;
        int st = eval_row(sm, &sm->rows[k], t, q, qd, EV_GAMMA, &e);
        if (st != GSL_SUCCESS)
            return st;
        gsl_vector_set(gamma, k, e.gamma);
    }
    return GSL_SUCCESS;
}
