/* Exercise 06.2: the revolute joint (see README.md). */
#include <math.h>

#include <gsl/gsl_errno.h>

#include "ex06.h"

int ex06_revolute(const double q_i[3], const double u_i[2], const double q_j[3],
                  const double u_j[2], const double qd_i[3], const double qd_j[3], double C[2],
                  gsl_matrix *Cq, double gamma[2])
{
    /* EXERCISE 06.2: your code here (see README.md) */
    (void)q_i; (void)u_i; (void)q_j; (void)u_j; (void)qd_i; (void)qd_j;
    (void)C; (void)Cq; (void)gamma;
    return MBD_EUNIMPL;
}

int ex06_revolute_ground(const double q_i[3], const double u_i[2], const double P[2],
                         const double qd_i[3], double C[2], gsl_matrix *Cq, double gamma[2])
{
    /* EXERCISE 06.2: your code here (see README.md) */
    (void)q_i; (void)u_i; (void)P; (void)qd_i; (void)C; (void)Cq; (void)gamma;
    return MBD_EUNIMPL;
}
