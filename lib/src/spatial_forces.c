/* The spatial model's mass matrix, generalized forces and energy in the r-p
 * form (spatial.h; document Sec. 5 and eq. 15; guide Secs. 3.1-3.4). */
#include <math.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "mbd/error.h"
#include "mbd/spatial.h"
#include "spatial_impl.h"

/* >> spatial-mass */
/* M_b = blockdiag(m I_3, 4 G^T J_bar G + kappa p p^T) (kappa = 0 unless a
 * mass shift was asked for; see spatial.h) */
void sp_body_mass_p(const sp_body *bd, const double p[4], double Mp[4][4])
{
    double G[3][4], JG[3][4];
    mbd_spatial_ep_G(p, G);
    for (int r = 0; r < 3; r++)
        for (int x = 0; x < 4; x++)
            JG[r][x] = bd->J[r][0] * G[0][x] + bd->J[r][1] * G[1][x] + bd->J[r][2] * G[2][x];
    for (int a = 0; a < 4; a++)
        for (int x = 0; x < 4; x++) {
            double v = 4.0 * (G[0][a] * JG[0][x] + G[1][a] * JG[1][x] + G[2][a] * JG[2][x]);
            Mp[a][x] = v + bd->kappa * p[a] * p[x];
        }
}

int sp_sys_mass(const mbd_system *s, double t, const gsl_vector *q, gsl_matrix *M)
{
    (void)t;
    const mbd_spatial_model *sm = s->model;
    gsl_matrix_set_zero(M);
    for (size_t b = 0; b < sm->nb; b++) {
        const sp_body *bd = &sm->bodies[b];
        if (bd->ground)
            continue;
        sp_side z;
        sp_side_of(sm, (int)b, q, NULL, &z);
        const size_t c = bd->col;
        for (int k = 0; k < 3; k++)
            gsl_matrix_set(M, c + k, c + k, bd->m);
        double Mp[4][4];
        sp_body_mass_p(bd, z.p, Mp);
        for (int a = 0; a < 4; a++)
            for (int x = 0; x < 4; x++)
                gsl_matrix_set(M, c + 3 + a, c + 3 + x, Mp[a][x]);
    }
    return GSL_SUCCESS;
}
/* << spatial-mass */

/* The generalized force of a force Fg (global) at the body point s: Fg on
 * r, B(p, s)^T Fg on p (the virtual work Fg . delta(r + A s)). */
static void apply_force(gsl_vector *Q, const sp_side *z, const double s[3], const double Fg[3])
{
    if (z->col == SP_NONE)
        return;
    double B[3][4], Qp[4];
    mbd_spatial_ep_B(z->p, s, B);
    sp_mul34T(B, Fg, Qp);
    for (int k = 0; k < 3; k++)
        *gsl_vector_ptr(Q, z->col + k) += Fg[k];
    for (int k = 0; k < 4; k++)
        *gsl_vector_ptr(Q, z->col + 3 + k) += Qp[k];
}

/* A torque n_bar (body frame): 2 G^T n_bar on p */
static void apply_torque(gsl_vector *Q, const sp_side *z, const double nbar[3])
{
    if (z->col == SP_NONE)
        return;
    double G[3][4], Qp[4];
    mbd_spatial_ep_G(z->p, G);
    sp_mul34T(G, nbar, Qp);
    for (int k = 0; k < 4; k++)
        *gsl_vector_ptr(Q, z->col + 3 + k) += 2.0 * Qp[k];
}

/* >> spatial-tsda */
/* Document eqs. 1-6: d = Q - P, l = |d|, l' = e^T d', f = k (l - l0) + c l'
 * + h(l, l', t); F = f e on body i (at P), -F on body j (at Q). At l <=
 * MBD_SPATIAL_TSDA_LMIN (e undefined) F = k d, the spring's l0 = 0 limit. */
static int tsda_force(const mbd_spatial_model *sm, const sp_force *f, double t,
                      const gsl_vector *q, const gsl_vector *qd, sp_side *zi, sp_side *zj,
                      double Fi[3], double *l_out)
{
    sp_side_of(sm, f->i, q, qd, zi);
    sp_side_of(sm, f->j, q, qd, zj);
    double P[3], Qp[3], d[3], dd[3] = {0.0, 0.0, 0.0};
    double a[3];
    sp_matvec3(&zi->A[0][0], f->sp, a);
    for (int k = 0; k < 3; k++)
        P[k] = zi->r[k] + a[k];
    sp_matvec3(&zj->A[0][0], f->sq, a);
    for (int k = 0; k < 3; k++)
        Qp[k] = zj->r[k] + a[k];
    for (int k = 0; k < 3; k++)
        d[k] = Qp[k] - P[k];
    if (qd != NULL) {
        double B[3][4], vi[3], vj[3];
        mbd_spatial_ep_B(zi->p, f->sp, B);
        sp_mul34(B, zi->pd, vi);
        mbd_spatial_ep_B(zj->p, f->sq, B);
        sp_mul34(B, zj->pd, vj);
        for (int k = 0; k < 3; k++)
            dd[k] = zj->rd[k] + vj[k] - zi->rd[k] - vi[k];
    }
    const double l = sqrt(sp_dot3(d, d));
    if (l_out != NULL)
        *l_out = l;
    if (!(l > MBD_SPATIAL_TSDA_LMIN)) {
        for (int k = 0; k < 3; k++)
            Fi[k] = f->k * d[k];
        return GSL_SUCCESS;
    }
    double e[3];
    for (int k = 0; k < 3; k++)
        e[k] = d[k] / l;
    const double ldot = sp_dot3(e, dd);
    double h = 0.0;
    if (f->act != NULL) {
        int st = f->act(l, ldot, t, &h, f->user);
        if (st != GSL_SUCCESS)
            return st;
        if (!isfinite(h))
            return MBD_ENONFINITE;
    }
    const double mag = f->k * (l - f->l0) + f->c * ldot + h;
    for (int k = 0; k < 3; k++)
        Fi[k] = mag * e[k];
    return GSL_SUCCESS;
}
/* << spatial-tsda */

/* >> spatial-force */
/* The weight at the centre of mass on r; on p 8 G(p')^T J_bar G(p') p -
 * kappa p (p'^T p'): the quadratic velocity term of the r-p form (Haug eq.
 * 11.1.27), and the mass shift's */
void sp_body_own_force(const mbd_spatial_model *sm, const sp_body *bd, const double p[4],
                       const double pd[4], double F[7])
{
    for (int k = 0; k < 3; k++)
        F[k] = bd->m * sm->g[k];
    double Gd[3][4], w[3], Jw[3], Qp[4];
    mbd_spatial_ep_G(pd, Gd);
    sp_mul34(Gd, p, w);
    sp_matvec3(&bd->J[0][0], w, Jw);
    sp_mul34T(Gd, Jw, Qp);
    const double pdpd = pd[0] * pd[0] + pd[1] * pd[1] + pd[2] * pd[2] + pd[3] * pd[3];
    for (int k = 0; k < 4; k++)
        F[3 + k] = 8.0 * Qp[k] - bd->kappa * p[k] * pdpd;
}

int sp_force_add(const mbd_spatial_model *sm, size_t k, double t, const gsl_vector *q,
                 const gsl_vector *qd, gsl_vector *F)
{
    const sp_force *f = &sm->forces[k];
    sp_side z, zj;
    double v[3];
    switch (f->kind) {
    case SP_FORCE:
        sp_side_of(sm, f->i, q, NULL, &z);
        if (f->frame == MBD_SPATIAL_BODY)
            sp_matvec3(&z.A[0][0], f->v, v);          /* turns with the body */
        else
            memcpy(v, f->v, sizeof v);
        apply_force(F, &z, f->sp, v);
        break;
    case SP_TORQUE:
    case SP_VTORQUE:
        sp_side_of(sm, f->i, q, NULL, &z);
        if (f->kind == SP_VTORQUE) {
            int st = f->torque(sm, t, q, qd, v, f->user);
            if (st != GSL_SUCCESS)
                return st;
            if (!(isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2])))
                return MBD_ENONFINITE;
        } else {
            memcpy(v, f->v, sizeof v);
        }
        if (f->frame == MBD_SPATIAL_GLOBAL)
            sp_matTvec3(&z.A[0][0], v, v);             /* n_bar = A^T n */
        apply_torque(F, &z, v);
        break;
    case SP_TSDA: {
        double Fi[3], Fj[3];
        int st = tsda_force(sm, f, t, q, qd, &z, &zj, Fi, NULL);
        if (st != GSL_SUCCESS)
            return st;
        for (int x = 0; x < 3; x++)
            Fj[x] = -Fi[x];
        apply_force(F, &z, f->sp, Fi);
        apply_force(F, &zj, f->sq, Fj);
        break;
    }
    }
    return GSL_SUCCESS;
}

int sp_sys_force(const mbd_system *s, double t, const gsl_vector *q, const gsl_vector *qd,
                 gsl_vector *F)
{
    const mbd_spatial_model *sm = s->model;
    gsl_vector_set_zero(F);
    for (size_t b = 0; b < sm->nb; b++) {
        const sp_body *bd = &sm->bodies[b];
        if (bd->ground)
            continue;
        sp_side z;
        sp_side_of(sm, (int)b, q, qd, &z);
        double Fb[7];
        sp_body_own_force(sm, bd, z.p, z.pd, Fb);
        for (int k = 0; k < 7; k++)
            gsl_vector_set(F, bd->col + k, Fb[k]);
    }
    for (size_t k = 0; k < sm->nf; k++) {
        int st = sp_force_add(sm, k, t, q, qd, F);
        if (st != GSL_SUCCESS)
            return st;
    }
    return GSL_SUCCESS;
}
/* << spatial-force */

/* T = sum (1/2) m r'^T r' + 2 p'^T G^T J G p' (= (1/2) omega_bar^T J omega_bar),
 * V = -sum m g . r + sum (1/2) k (l - l0)^2 */
int sp_sys_energy(const mbd_system *s, double t, const gsl_vector *q, const gsl_vector *qd,
                  double *E)
{
    (void)t;
    const mbd_spatial_model *sm = s->model;
    double T = 0.0, V = 0.0;
    for (size_t b = 0; b < sm->nb; b++) {
        const sp_body *bd = &sm->bodies[b];
        if (bd->ground)
            continue;
        sp_side z;
        sp_side_of(sm, (int)b, q, qd, &z);
        double wbar[3], Jw[3];
        mbd_spatial_ep_omega_bar(z.p, z.pd, wbar);
        sp_matvec3(&bd->J[0][0], wbar, Jw);
        T += 0.5 * bd->m * sp_dot3(z.rd, z.rd) + 0.5 * sp_dot3(wbar, Jw);
        V -= bd->m * sp_dot3(sm->g, z.r);
    }
    for (size_t k = 0; k < sm->nf; k++) {
        const sp_force *f = &sm->forces[k];
        if (f->kind != SP_TSDA || f->k == 0.0)
            continue;
        sp_side zi, zj;
        sp_side_of(sm, f->i, q, NULL, &zi);
        sp_side_of(sm, f->j, q, NULL, &zj);
        double a[3], d[3];
        sp_matvec3(&zj.A[0][0], f->sq, a);
        for (int x = 0; x < 3; x++)
            d[x] = zj.r[x] + a[x];
        sp_matvec3(&zi.A[0][0], f->sp, a);
        for (int x = 0; x < 3; x++)
            d[x] -= zi.r[x] + a[x];
        const double l = sqrt(sp_dot3(d, d));
        V += 0.5 * f->k * (l - f->l0) * (l - f->l0);
    }
    *E = T + V;
    return GSL_SUCCESS;
}
