/* Exercise 09.1: the basic constraints CD, D, DP1 and DP2 -- value, nu,
 * gamma and the two bodies' Jacobian blocks (see README.md). */
#include <math.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "ex09.h"

int ex09_basic_row(const ex09_basic *bc, const ex09_state *bi, const ex09_state *bj,
                   const double f[3], ex09_row *row)
{
    /* EXERCISE 09.1 BEGIN */
    if (bc == NULL || f == NULL || row == NULL || (bi == NULL && bj == NULL))
        return MBD_EINPUT;
    const ex09_basic_kind kind = bc->kind;
    if (kind != EX09_CD && kind != EX09_D && kind != EX09_DP1 && kind != EX09_DP2)
        return MBD_EINPUT;
    /* the attributes the kind uses: per side a point (P, Q) and a vector
     * (a_bar_i, a_bar_j), and CD's c; a zero where a direction is needed */
    const int use_point = kind != EX09_DP1, use_ai = kind == EX09_DP1 || kind == EX09_DP2,
              use_aj = kind == EX09_DP1;
    const double *vec[2][2] = {{bc->sp, bc->ai}, {bc->sq, bc->aj}};
    const int used[2][2] = {{use_point, use_ai}, {use_point, use_aj}};
    const ex09_state *st[2] = {bi, bj};
    for (int x = 0; x < 3; x++) {
        if (kind == EX09_CD && !isfinite(bc->c[x]))
            return MBD_EINPUT;
        for (int s = 0; s < 2; s++)
            for (int k = 0; k < 2; k++)
                if (used[s][k] && !isfinite(vec[s][k][x]))
                    return MBD_EINPUT;
        if (!isfinite(f[x]))
            return MBD_EINPUT;
    }
    for (int s = 0; s < 2; s++)
        if (used[s][1] && vec[s][1][0] == 0.0 && vec[s][1][1] == 0.0 && vec[s][1][2] == 0.0)
            return MBD_EINPUT;
    if (kind == EX09_CD && bc->c[0] == 0.0 && bc->c[1] == 0.0 && bc->c[2] == 0.0)
        return MBD_EINPUT;
    for (int s = 0; s < 2; s++) {
        if (st[s] == NULL)
            continue;
        int zero = 1;
        for (int x = 0; x < 4; x++) {
            if (!isfinite(st[s]->p[x]) || !isfinite(st[s]->pd[x])
                || (x < 3 && (!isfinite(st[s]->r[x]) || !isfinite(st[s]->rd[x]))))
                return MBD_EINPUT;
            zero = zero && st[s]->p[x] == 0.0;
        }
        if (zero)
            return MBD_EINPUT;
    }

    /* per side s and attribute k (0: the point, 1: the vector): the global
     * vector A a, its rate B(p, a) p', the quadratic part B(p', a) p' of its
     * acceleration, and B(p, a) itself; the ground: A = I, at rest */
    double Aa[2][2][3], rate[2][2][3], quad[2][2][3], B[2][2][3][4];
    double r[2][3] = {{0}}, rd[2][3] = {{0}};
    for (int s = 0; s < 2; s++) {
        const ex09_state *z = st[s];
        double A[3][3];
        if (z != NULL) {
            mbd_spatial_ep_A(z->p, A);
            memcpy(r[s], z->r, sizeof r[s]);
            memcpy(rd[s], z->rd, sizeof rd[s]);
        }
        for (int k = 0; k < 2; k++) {
            const double *a = vec[s][k];
            if (z == NULL) {
                memcpy(Aa[s][k], a, sizeof Aa[s][k]);
                memset(rate[s][k], 0, sizeof rate[s][k]);
                memset(quad[s][k], 0, sizeof quad[s][k]);
                memset(B[s][k], 0, sizeof B[s][k]);
                continue;
            }
            double Bd[3][4];
            mbd_spatial_ep_B(z->p, a, B[s][k]);
            mbd_spatial_ep_B(z->pd, a, Bd);
            for (int x = 0; x < 3; x++) {
                Aa[s][k][x] = A[x][0] * a[0] + A[x][1] * a[1] + A[x][2] * a[2];
                rate[s][k][x] = quad[s][k][x] = 0.0;
                for (int y = 0; y < 4; y++) {
                    rate[s][k][x] += B[s][k][x][y] * z->pd[y];
                    quad[s][k][x] += Bd[x][y] * z->pd[y];
                }
            }
        }
    }
    /* d = r_j + A_j s_j - r_i - A_i s_i, its rate d', and w = B(p_j', s_j)
     * p_j' - B(p_i', s_i) p_i' (the part of d'' the accelerations do not
     * give); a_i, a_j and their rates */
    double d[3], dd[3], w[3];
    for (int x = 0; x < 3; x++) {
        d[x] = r[1][x] + Aa[1][0][x] - r[0][x] - Aa[0][0][x];
        dd[x] = rd[1][x] + rate[1][0][x] - rd[0][x] - rate[0][0][x];
        w[x] = quad[1][0][x] - quad[0][0][x];
    }
    const double *ai = Aa[0][1], *aj = Aa[1][1], *aid = rate[0][1], *ajd = rate[1][1];
#define DOT3(u, v) ((u)[0] * (v)[0] + (u)[1] * (v)[1] + (u)[2] * (v)[2])
    ex09_row out;
    memset(&out, 0, sizeof out);
    /* the p blocks v^T B(p, a): vp[s] with v the vector named per kind */
    const double *pv[2] = {NULL, NULL}, *pv2 = NULL;   /* points' and vectors' multipliers */
    double sgn = 1.0;
    switch (kind) {
    case EX09_CD:
        /* g = c^T d; gamma = c^T B(p_i', s_i) p_i' - c^T B(p_j', s_j) p_j' */
        out.phi = DOT3(bc->c, d);
        out.gamma = -DOT3(bc->c, w);
        for (int x = 0; x < 3; x++) {
            out.phi_r[0][x] = -bc->c[x];
            out.phi_r[1][x] = bc->c[x];
        }
        pv[0] = pv[1] = bc->c;
        break;
    case EX09_D:
        /* g = d^T d; gamma = -2 d^T w - 2 d'^T d' */
        out.phi = DOT3(d, d);
        out.gamma = -2.0 * DOT3(d, w) - 2.0 * DOT3(dd, dd);
        for (int x = 0; x < 3; x++) {
            out.phi_r[0][x] = -2.0 * d[x];
            out.phi_r[1][x] = 2.0 * d[x];
        }
        pv[0] = pv[1] = d;
        sgn = 2.0;
        break;
    case EX09_DP1:
        /* g = a_i^T a_j; gamma = -a_i^T B(p_j', a_j) p_j' - a_j^T B(p_i', a_i) p_i'
         *                        - 2 a_i'^T a_j' */
        out.phi = DOT3(ai, aj);
        out.gamma = -DOT3(ai, quad[1][1]) - DOT3(aj, quad[0][1]) - 2.0 * DOT3(aid, ajd);
        for (int y = 0; y < 4; y++) {
            out.phi_p[0][y] = aj[0] * B[0][1][0][y] + aj[1] * B[0][1][1][y] + aj[2] * B[0][1][2][y];
            out.phi_p[1][y] = ai[0] * B[1][1][0][y] + ai[1] * B[1][1][1][y] + ai[2] * B[1][1][2][y];
        }
        break;
    case EX09_DP2:
        /* g = a_i^T d; gamma = -a_i^T w - d^T B(p_i', a_i) p_i' - 2 a_i'^T d' */
        out.phi = DOT3(ai, d);
        out.gamma = -DOT3(ai, w) - DOT3(d, quad[0][1]) - 2.0 * DOT3(aid, dd);
        for (int x = 0; x < 3; x++) {
            out.phi_r[0][x] = -ai[x];
            out.phi_r[1][x] = ai[x];
        }
        pv[0] = pv[1] = ai;
        pv2 = d;   /* Phi_pi also has d^T B(p_i, a_bar_i) */
        break;
    }
    /* the points' p blocks: -sgn v^T B(p_i, s_i) and +sgn v^T B(p_j, s_j) */
    for (int s = 0; s < 2 && pv[0] != NULL; s++)
        for (int y = 0; y < 4; y++)
            out.phi_p[s][y] = (s == 0 ? -sgn : sgn)
                              * (pv[s][0] * B[s][0][0][y] + pv[s][1] * B[s][0][1][y]
                                 + pv[s][2] * B[s][0][2][y]);
    if (pv2 != NULL)
        for (int y = 0; y < 4; y++)
            out.phi_p[0][y] += pv2[0] * B[0][1][0][y] + pv2[1] * B[0][1][1][y]
                               + pv2[2] * B[0][1][2][y];
#undef DOT3
    /* Phi = g - f, nu = f', gamma += f''; a ground has no blocks */
    out.phi -= f[0];
    out.nu = f[1];
    out.gamma += f[2];
    for (int s = 0; s < 2; s++)
        if (st[s] == NULL) {
            memset(out.phi_r[s], 0, sizeof out.phi_r[s]);
            memset(out.phi_p[s], 0, sizeof out.phi_p[s]);
        }
    *row = out;
    return GSL_SUCCESS;
    /* EXERCISE 09.1 STUB
    (void)bc; (void)bi; (void)bj; (void)f; (void)row;
    EXERCISE 09.1 END */
}
