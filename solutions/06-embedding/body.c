/* Exercise 06.1: the generalized inertia of a body whose reference point is
 * not its centre of mass (see README.md). */
#include <math.h>

#include <gsl/gsl_errno.h>

#include "ex06.h"

int ex06_body_mass(double m, double J_c, const double u_c[2], double theta, gsl_matrix *M)
{
    /* EXERCISE 06.1 BEGIN */
    if (M->size1 != 3 || M->size2 != 3)
        return GSL_EBADLEN;
    if (!(m > 0) || !(J_c >= 0))
        return GSL_EINVAL;
    /* A point u of the body moves with r' = R' + theta' A_theta u. Summed over
     * the body, T = (1/2) m |R'|^2 + theta' R' . (A_theta S) + (1/2) I_O theta'^2,
     * with the first moment S = m u_c and the inertia about O,
     * I_O = J_c + m |u_c|^2 (parallel axes). */
    const double c = cos(theta), s = sin(theta);
    const double ax = -s * u_c[0] - c * u_c[1];   /* A_theta u_c */
    const double ay = c * u_c[0] - s * u_c[1];
    gsl_matrix_set(M, 0, 0, m);
    gsl_matrix_set(M, 0, 1, 0.0);
    gsl_matrix_set(M, 1, 0, 0.0);
    gsl_matrix_set(M, 1, 1, m);
    gsl_matrix_set(M, 0, 2, m * ax);
    gsl_matrix_set(M, 1, 2, m * ay);
    gsl_matrix_set(M, 2, 0, m * ax);
    gsl_matrix_set(M, 2, 1, m * ay);
    gsl_matrix_set(M, 2, 2, J_c + m * (u_c[0] * u_c[0] + u_c[1] * u_c[1]));
    return GSL_SUCCESS;
    /* EXERCISE 06.1 STUB
    (void)m; (void)J_c; (void)u_c; (void)theta; (void)M;
    EXERCISE 06.1 END */
}

int ex06_body_quadratic(double m, const double u_c[2], double theta, double theta_d,
                        double Qv[3])
{
    /* EXERCISE 06.1 BEGIN */
    if (!(m > 0))
        return GSL_EINVAL;
    /* Q_v = dT/dq - (dM/dt) q'. Only the coupling m A_theta u_c depends on q,
     * and d(A_theta u_c)/dt = -theta' A u_c. Translation rows: dT/dR = 0 and
     * -((dM/dt) q')_R = theta'^2 m A u_c. Rotation row: dT/dtheta =
     * -theta' R' . (m A u_c) and -((dM/dt) q')_theta = +theta' R' . (m A u_c)
     * cancel. */
    const double c = cos(theta), s = sin(theta);
    const double w2 = theta_d * theta_d;
    Qv[0] = w2 * m * (c * u_c[0] - s * u_c[1]);
    Qv[1] = w2 * m * (s * u_c[0] + c * u_c[1]);
    Qv[2] = 0.0;
    return GSL_SUCCESS;
    /* EXERCISE 06.1 STUB
    (void)m; (void)u_c; (void)theta; (void)theta_d; (void)Qv;
    EXERCISE 06.1 END */
}
