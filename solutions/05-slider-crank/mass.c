/* Exercise 05.1: the consistent mass matrix and the true energy (see README.md). */
#include <math.h>

#include <gsl/gsl_errno.h>

#include "ex05.h"

int ex05_mass_consistent(const ex05_params *p, const double q[3], gsl_matrix *M)
{
    /* EXERCISE 05.1 BEGIN */
    if (M->size1 != 3 || M->size2 != 3)
        return GSL_EBADLEN;
    if (!(p->m1 > 0 && p->m2 > 0 && p->m3 > 0 && p->L1 > 0 && p->L2 > 0))
        return GSL_EINVAL;
    /* Rod 1 turns about its end: inertia m1 L1^2/3. Rod 2's centre moves with
     * the crank tip and about it: v = L1 w1 e(th1) + (L2/2) w12 e(th1 + th2)
     * with w12 = th1' + th2', so m2 |v|^2 / 2 + (m2 L2^2/12) w12^2 / 2 gives
     * m2 L1^2 w1^2 / 2 + (m2 L2^2/3) w12^2 / 2 + m2 L1 (L2/2) cos th2 w1 w12.
     * Written in th1', th2' (w12 = th1' + th2'): */
    const double I1 = p->m1 * p->L1 * p->L1 / 3.0;
    const double I2 = p->m2 * p->L2 * p->L2 / 3.0;
    const double c = p->m2 * p->L1 * p->L2 * cos(q[1]);
    gsl_matrix_set_zero(M);
    gsl_matrix_set(M, 0, 0, I1 + p->m2 * p->L1 * p->L1 + I2 + c);
    gsl_matrix_set(M, 0, 1, I2 + 0.5 * c);
    gsl_matrix_set(M, 1, 0, I2 + 0.5 * c);
    gsl_matrix_set(M, 1, 1, I2);
    gsl_matrix_set(M, 2, 2, p->m3);
    return GSL_SUCCESS;
    /* EXERCISE 05.1 STUB
    (void)p; (void)q; (void)M;
    EXERCISE 05.1 END */
}

int ex05_energy(const ex05_params *p, const double q[3], const double qd[3], double *E)
{
    /* EXERCISE 05.1 BEGIN */
    double store[9];
    gsl_matrix_view M = gsl_matrix_view_array(store, 3, 3);
    int st = ex05_mass_consistent(p, q, &M.matrix);
    if (st != GSL_SUCCESS)
        return st;
    double T = 0.0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            T += 0.5 * qd[i] * store[3 * i + j] * qd[j];
    /* the rods' centres: y1 = -(L1/2) cos th1, y2 = -L1 cos th1 - (L2/2) cos(th1 + th2);
     * the slider stays on y = 0 */
    const double y1 = -0.5 * p->L1 * cos(q[0]);
    const double y2 = -p->L1 * cos(q[0]) - 0.5 * p->L2 * cos(q[0] + q[1]);
    const double V = p->g * (p->m1 * y1 + p->m2 * y2);
    *E = T + V;
    return GSL_SUCCESS;
    /* EXERCISE 05.1 STUB
    (void)p; (void)q; (void)qd; (void)E;
    EXERCISE 05.1 END */
}
