/* Exercise 04.3: the penalty factor against the mechanism's own scale (see
 * README.md). */
#include <math.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_math.h>

#include "ex04.h"

int ex04_schur(const ex04_params *p, double theta1, double *S)
{
    /* EXERCISE 04.3 BEGIN */
    /* C_q = [L sin(theta1), 1] and M is diagonal */
    const double M11 = p->m1 * (4.0 * p->L * p->L + p->b * p->b) / 12.0;
    if (!(M11 > 0) || !(p->m2 > 0))
        return MBD_ESINGULAR;
    const double a = p->L * sin(theta1);
    *S = a * a / M11 + 1.0 / p->m2;
    return GSL_SUCCESS;
    /* EXERCISE 04.3 STUB
    (void)p; (void)theta1; (void)S;
    EXERCISE 04.3 END */
}

int ex04_residual_ratio(const ex04_params *p, double mu, double theta1, double *ratio)
{
    /* EXERCISE 04.3 BEGIN */
    if (!(mu > 0))
        return GSL_EINVAL;
    /* q'' = (M + mu c c^T)^-1 (F + mu c gamma_B), c = C_q^T. By Sherman-Morrison,
     * c^T q'' - gamma_B = (c^T M^-1 F - gamma_B) / (1 + mu S). */
    double S;
    int st = ex04_schur(p, theta1, &S);
    if (st != GSL_SUCCESS)
        return st;
    *ratio = 1.0 / (1.0 + mu * S);
    return GSL_SUCCESS;
    /* EXERCISE 04.3 STUB
    (void)p; (void)mu; (void)theta1; (void)ratio;
    EXERCISE 04.3 END */
}

int ex04_choose_mu(const ex04_params *p, double theta_lo, double theta_hi, double ratio_max,
                   double *mu)
{
    /* EXERCISE 04.3 BEGIN */
    if (!(theta_lo <= theta_hi) || !(ratio_max > 0 && ratio_max < 1))
        return GSL_EINVAL;
    /* the ratio is largest where S is smallest; S = a sin^2 + c is smallest where
     * sin^2 is: at a multiple of pi inside the range, else at an end */
    double S_lo, S_hi, S_min;
    int st = ex04_schur(p, theta_lo, &S_lo);
    if (st == GSL_SUCCESS)
        st = ex04_schur(p, theta_hi, &S_hi);
    if (st != GSL_SUCCESS)
        return st;
    S_min = fmin(S_lo, S_hi);
    if (floor(theta_hi / M_PI) >= ceil(theta_lo / M_PI))   /* k pi in [lo, hi] */
        S_min = 1.0 / p->m2;
    /* 1 / (1 + mu S_min) = ratio_max */
    *mu = (1.0 / ratio_max - 1.0) / S_min;
    return GSL_SUCCESS;
    /* EXERCISE 04.3 STUB
    (void)p; (void)theta_lo; (void)theta_hi; (void)ratio_max; (void)mu;
    EXERCISE 04.3 END */
}
