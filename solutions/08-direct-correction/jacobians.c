/* Exercise 08.1: a cut joint's violations and its Jacobians Phi_q and
 * Phidot_q by the document's semi-analytic rule (see README.md). */
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_errno.h>

#include "ex08.h"

int ex08_cut_jacobians(const ex08_tree *tree, const ex08_cut cut[], size_t ncut, const double q[],
                       const double qd[], double phi[], double phidot[], gsl_matrix *Phi_q,
                       gsl_matrix *Phidot_q)
{
    /* EXERCISE 08.1 BEGIN */
    const size_t n = tree->n, rows = 2 * ncut;
    if (n == 0 || ncut == 0)
        return MBD_EINPUT;
    for (size_t i = 0; i < n; i++) {
        const int p = tree->parent[i];
        if (p < -1 || p >= (int)i || !isfinite(tree->joint[2 * i])
            || !isfinite(tree->joint[2 * i + 1]) || !isfinite(q[i]) || !isfinite(qd[i]))
            return MBD_EINPUT;
    }
    for (size_t c = 0; c < ncut; c++) {
        const ex08_marker *e[2] = {&cut[c].M, &cut[c].B};
        for (int s = 0; s < 2; s++)
            if (e[s]->body < -1 || e[s]->body >= (int)n || !isfinite(e[s]->at[0])
                || !isfinite(e[s]->at[1]))
                return MBD_EINPUT;
    }
    if (Phi_q->size1 != rows || Phi_q->size2 != n || Phidot_q->size1 != rows
        || Phidot_q->size2 != n)
        return GSL_EBADLEN;
    /* the recursive sweep from the ground outward: per body its angle and
     * angular velocity, where its tree joint T_i is and how fast it moves
     * (k[6 i .. 6 i + 5] = theta, omega, r_T, v_T) */
    double *k = malloc(6 * n * sizeof *k);
    if (k == NULL)
        return GSL_ENOMEM;
    for (size_t i = 0; i < n; i++) {
        const int p = tree->parent[i];
        const double *l = &tree->joint[2 * i];
        double *ki = &k[6 * i];
        if (p < 0) {
            ki[0] = q[i], ki[1] = qd[i];
            ki[2] = l[0], ki[3] = l[1];
            ki[4] = ki[5] = 0.0;
            continue;
        }
        const double *kp = &k[6 * (size_t)p];
        const double d[2] = {cos(kp[0]) * l[0] - sin(kp[0]) * l[1],
                             sin(kp[0]) * l[0] + cos(kp[0]) * l[1]};   /* A(theta_p) l */
        ki[0] = kp[0] + q[i];
        ki[1] = kp[1] + qd[i];
        ki[2] = kp[2] + d[0];
        ki[3] = kp[3] + d[1];
        ki[4] = kp[4] - kp[1] * d[1];   /* v_Tp + omega_p D (A l) */
        ki[5] = kp[5] + kp[1] * d[0];
    }
    for (size_t c = 0; c < ncut; c++) {
        const ex08_marker *e[2] = {&cut[c].M, &cut[c].B};
        double r[2][2], v[2][2];
        for (int s = 0; s < 2; s++) {
            const int b = e[s]->body;
            if (b < 0) {   /* a point of the ground */
                r[s][0] = e[s]->at[0], r[s][1] = e[s]->at[1];
                v[s][0] = v[s][1] = 0.0;
                continue;
            }
            const double *kb = &k[6 * (size_t)b], *l = e[s]->at;
            const double d[2] = {cos(kb[0]) * l[0] - sin(kb[0]) * l[1],
                                 sin(kb[0]) * l[0] + cos(kb[0]) * l[1]};
            r[s][0] = kb[2] + d[0];
            r[s][1] = kb[3] + d[1];
            v[s][0] = kb[4] - kb[1] * d[1];
            v[s][1] = kb[5] + kb[1] * d[0];
        }
        for (int x = 0; x < 2; x++) {
            phi[2 * c + x] = r[0][x] - r[1][x];      /* eq. 5 */
            phidot[2 * c + x] = v[0][x] - v[1][x];   /* eq. 6 */
        }
        for (size_t j = 0; j < n; j++) {
            double a[2] = {0.0, 0.0}, w[2] = {0.0, 0.0};
            const double *kj = &k[6 * j];
            /* turning joint j by dq_j turns an end outboard of it about T_j:
             * dr/dq_j = D (r - r_Tj) (eqs. 12, 16) and, its time derivative,
             * dv/dq_j = D (v - v_Tj) (eqs. 24, 26 rewritten). M counts +, B
             * counts - (eq. 5); a joint on the paths to both ends, both */
            for (int s = 0; s < 2; s++) {
                int on_path = 0;
                for (int b = e[s]->body; b >= 0 && !on_path; b = tree->parent[b])
                    on_path = (size_t)b == j;
                if (!on_path)
                    continue;
                const double sg = s == 0 ? 1.0 : -1.0;
                a[0] -= sg * (r[s][1] - kj[3]);   /* D d = (-d_y, d_x) */
                a[1] += sg * (r[s][0] - kj[2]);
                w[0] -= sg * (v[s][1] - kj[5]);
                w[1] += sg * (v[s][0] - kj[4]);
            }
            gsl_matrix_set(Phi_q, 2 * c, j, a[0]);
            gsl_matrix_set(Phi_q, 2 * c + 1, j, a[1]);
            gsl_matrix_set(Phidot_q, 2 * c, j, w[0]);
            gsl_matrix_set(Phidot_q, 2 * c + 1, j, w[1]);
        }
    }
    free(k);
    return GSL_SUCCESS;
    /* EXERCISE 08.1 STUB
    (void)tree; (void)cut; (void)ncut; (void)q; (void)qd; (void)phi; (void)phidot;
    (void)Phi_q; (void)Phidot_q;
    EXERCISE 08.1 END */
}
