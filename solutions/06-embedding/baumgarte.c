/* Exercise 06.4: Baumgarte's weights, and the drift they leave (see README.md). */
#include <math.h>

#include <gsl/gsl_errno.h>

#include "ex06.h"

int ex06_baumgarte_gamma(const gsl_matrix *Cq, const double qd[], const double C[],
                         const double Ct[], const double gamma[], double alpha, double beta,
                         double gamma_B[])
{
    /* EXERCISE 06.4 BEGIN */
    if (!(alpha >= 0) || !(beta >= 0))
        return GSL_EINVAL;
    /* C'' = C_q q'' - gamma, so C'' + 2 alpha C' + beta^2 C = 0 is
     * C_q q'' = gamma - 2 alpha C' - beta^2 C */
    for (size_t i = 0; i < Cq->size1; i++) {
        double Cd = Ct != NULL ? Ct[i] : 0.0;
        for (size_t j = 0; j < Cq->size2; j++)
            Cd += gsl_matrix_get(Cq, i, j) * qd[j];
        gamma_B[i] = gamma[i] - 2.0 * alpha * Cd - beta * beta * C[i];
    }
    return GSL_SUCCESS;
    /* EXERCISE 06.4 STUB
    (void)Cq; (void)qd; (void)C; (void)Ct; (void)gamma; (void)alpha; (void)beta; (void)gamma_B;
    EXERCISE 06.4 END */
}

int ex06_violation(double alpha, double beta, double t0, double C0, double Cd0, double t,
                   double *C, double *Cd)
{
    /* EXERCISE 06.4 BEGIN */
    if (!(alpha >= 0) || !(beta >= 0))
        return GSL_EINVAL;
    /* With tau = t - t0 and w^2 = |alpha^2 - beta^2|, every case is
     *     C(tau)  = e^{-alpha tau} [C0 c(tau) + (Cd0 + alpha C0) S(tau)]
     *     C'(tau) = e^{-alpha tau} [Cd0 c(tau) - (alpha Cd0 + beta^2 C0) S(tau)]
     * with (c, S) = (cos w tau, sin(w tau)/w) under-damped, (1, tau) critical,
     * (cosh w tau, sinh(w tau)/w) over-damped: c' = -+w^2 S, S' = c, and
     * alpha^2 -+ w^2 = beta^2 in both. The weights e^{-alpha tau} c and
     * e^{-alpha tau} S are computed together, so that a vanishing e^{-alpha tau}
     * never meets an infinite cosh. */
    const double tau = t - t0;
    const double d = (alpha - beta) * (alpha + beta);
    double ec, es;   /* e^{-alpha tau} c(tau) and e^{-alpha tau} S(tau) */
    if (d < 0) {
        const double w = sqrt(-d), e = exp(-alpha * tau);
        ec = e * cos(w * tau);
        es = e * sin(w * tau) / w;
    } else if (d == 0) {
        const double e = exp(-alpha * tau);
        ec = e;
        es = e * tau;
    } else {
        const double w = sqrt(d);
        if (fabs(w * tau) < 1.0) {
            const double e = exp(-alpha * tau);
            ec = e * cosh(w * tau);
            es = e * sinh(w * tau) / w;
        } else {
            /* the exponentials of the two roots, the slow one -alpha + w
             * written as -beta^2 / (alpha + w), which does not cancel */
            const double s1 = -beta * beta / (alpha + w);
            const double ep = exp(s1 * tau), em = exp(-(w + alpha) * tau);
            ec = 0.5 * (ep + em);
            es = 0.5 * (ep - em) / w;
        }
    }
    *C = C0 * ec + (Cd0 + alpha * C0) * es;
    *Cd = Cd0 * ec - (alpha * Cd0 + beta * beta * C0) * es;
    return GSL_SUCCESS;
    /* EXERCISE 06.4 STUB
    (void)alpha; (void)beta; (void)t0; (void)C0; (void)Cd0; (void)t; (void)C; (void)Cd;
    EXERCISE 06.4 END */
}

int ex06_decay_rate(double alpha, double beta, double *rate)
{
    /* EXERCISE 06.4 BEGIN */
    if (!(alpha >= 0) || !(beta >= 0))
        return GSL_EINVAL;
    /* s = -alpha +- sqrt(alpha^2 - beta^2). Complex or double roots (alpha <= beta):
     * the real part -alpha. Real roots: the larger one, written as
     * -beta^2 / (alpha + sqrt(alpha^2 - beta^2)) so that nothing cancels. */
    if (alpha <= beta)
        *rate = 0.0 - alpha;   /* +0, not -0, when alpha = 0 */
    else
        *rate = -beta * beta / (alpha + sqrt((alpha - beta) * (alpha + beta)));
    return GSL_SUCCESS;
    /* EXERCISE 06.4 STUB
    (void)alpha; (void)beta; (void)rate;
    EXERCISE 06.4 END */
}
