/* Exercise 06.2: the revolute joint (see README.md). */
#include <math.h>

#include <gsl/gsl_errno.h>

#include "ex06.h"

int ex06_revolute(const double q_i[3], const double u_i[2], const double q_j[3],
                  const double u_j[2], const double qd_i[3], const double qd_j[3], double C[2],
                  gsl_matrix *Cq, double gamma[2])
{
    /* EXERCISE 06.2 BEGIN */
    if (Cq->size1 != 2 || Cq->size2 != 6)
        return GSL_EBADLEN;
    const double ci = cos(q_i[2]), si = sin(q_i[2]);
    const double cj = cos(q_j[2]), sj = sin(q_j[2]);
    /* A u and A_theta u (A u turned a quarter left) of each body's point */
    const double aix = ci * u_i[0] - si * u_i[1], aiy = si * u_i[0] + ci * u_i[1];
    const double ajx = cj * u_j[0] - sj * u_j[1], ajy = sj * u_j[0] + cj * u_j[1];
    const double tix = -aiy, tiy = aix;
    const double tjx = -ajy, tjy = ajx;
    C[0] = q_i[0] + aix - q_j[0] - ajx;
    C[1] = q_i[1] + aiy - q_j[1] - ajy;
    gsl_matrix_set_zero(Cq);
    gsl_matrix_set(Cq, 0, 0, 1.0);
    gsl_matrix_set(Cq, 1, 1, 1.0);
    gsl_matrix_set(Cq, 0, 2, tix);
    gsl_matrix_set(Cq, 1, 2, tiy);
    gsl_matrix_set(Cq, 0, 3, -1.0);
    gsl_matrix_set(Cq, 1, 4, -1.0);
    gsl_matrix_set(Cq, 0, 5, -tjx);
    gsl_matrix_set(Cq, 1, 5, -tjy);
    /* C' = R_i' + theta_i' A_theta,i u_i - (j); differentiating again,
     * d(A_theta u)/dt = -theta' A u, so
     * C'' = C_q q'' - theta_i'^2 A_i u_i + theta_j'^2 A_j u_j, and C_q q'' = gamma with: */
    const double wi2 = qd_i[2] * qd_i[2], wj2 = qd_j[2] * qd_j[2];
    gamma[0] = wi2 * aix - wj2 * ajx;
    gamma[1] = wi2 * aiy - wj2 * ajy;
    return GSL_SUCCESS;
    /* EXERCISE 06.2 STUB
    (void)q_i; (void)u_i; (void)q_j; (void)u_j; (void)qd_i; (void)qd_j;
    (void)C; (void)Cq; (void)gamma;
    EXERCISE 06.2 END */
}

int ex06_revolute_ground(const double q_i[3], const double u_i[2], const double P[2],
                         const double qd_i[3], double C[2], gsl_matrix *Cq, double gamma[2])
{
    /* EXERCISE 06.2 BEGIN */
    if (Cq->size1 != 2 || Cq->size2 != 3)
        return GSL_EBADLEN;
    /* body j is the ground: R_j + A_j u_j is the fixed P, its columns and its
     * velocity term are gone */
    const double ci = cos(q_i[2]), si = sin(q_i[2]);
    const double aix = ci * u_i[0] - si * u_i[1], aiy = si * u_i[0] + ci * u_i[1];
    C[0] = q_i[0] + aix - P[0];
    C[1] = q_i[1] + aiy - P[1];
    gsl_matrix_set(Cq, 0, 0, 1.0);
    gsl_matrix_set(Cq, 0, 1, 0.0);
    gsl_matrix_set(Cq, 0, 2, -aiy);
    gsl_matrix_set(Cq, 1, 0, 0.0);
    gsl_matrix_set(Cq, 1, 1, 1.0);
    gsl_matrix_set(Cq, 1, 2, aix);
    const double wi2 = qd_i[2] * qd_i[2];
    gamma[0] = wi2 * aix;
    gamma[1] = wi2 * aiy;
    return GSL_SUCCESS;
    /* EXERCISE 06.2 STUB
    (void)q_i; (void)u_i; (void)P; (void)qd_i; (void)C; (void)Cq; (void)gamma;
    EXERCISE 06.2 END */
}
