/* Exercise 07.3: the stop at the horizontal -- the speed that stops the
 * parallelogram at a target angle, and the time it takes (see README.md). */
#include <math.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_integration.h>
#include <gsl/gsl_math.h>

#include "ex07.h"

int ex07_stop_speed(double J, double K, double g, double theta0, double theta1,
                    double *omega0)
{
    /* EXERCISE 07.3 BEGIN */
    if (!(J > 0 && K > 0 && g > 0) || !isfinite(J) || !isfinite(K) || !isfinite(g)
        || !isfinite(theta0) || !isfinite(theta1))
        return MBD_EINPUT;
    const double delta = theta1 - theta0;
    /* sin(theta1) - sin(theta0) as a product, which keeps its digits when
     * theta1 is close to theta0: the potential must rise to theta1 */
    const double ds = 2.0 * cos(0.5 * (theta1 + theta0)) * sin(0.5 * delta);
    if (!(ds > 0))
        return MBD_EINPUT;
    /* no top pi/2 + 2 k pi strictly between them: the speed would vanish there first */
    const double lo = fmin(theta0, theta1), hi = fmax(theta0, theta1);
    const double top = M_PI_2 + 2.0 * M_PI * ceil((lo - M_PI_2) / (2.0 * M_PI));
    if (top > lo && top < hi)
        return MBD_EINPUT;
    /* theta1 a turning point, not a top approached in infinite time */
    if (!(cos(theta1) * (delta > 0 ? 1.0 : -1.0) > 1e-9))
        return MBD_EINPUT;
    /* energy: (1/2) J omega0^2 + K g sin(theta0) = K g sin(theta1) */
    const double w = sqrt(2.0 * K * g * ds / J);
    *omega0 = delta > 0 ? w : -w;
    return GSL_SUCCESS;
    /* EXERCISE 07.3 STUB
    (void)J; (void)K; (void)g; (void)theta0; (void)theta1; (void)omega0;
    EXERCISE 07.3 END */
}

int ex07_stop_time(double J, double K, double g, double theta0, double theta1,
                   double *t_stop)
{
    /* EXERCISE 07.3 BEGIN */
    double w0;
    int st = ex07_stop_speed(J, K, g, theta0, theta1, &w0);   /* the same refusals */
    if (st != GSL_SUCCESS)
        return st;
    /* t = int dtheta / |theta'|, theta'^2 = a (sin theta1 - sin theta),
     * a = 2 K g / J. Near theta1, sin theta1 - sin theta ~ cos(theta1)
     * (theta1 - theta): an integrable 1/sqrt singularity. With
     * theta = theta1 - delta u^2 (u = 1 at theta0, 0 at theta1),
     * dtheta = -2 delta u du and
     *     t = int_0^1 2 |delta| u / sqrt(a (sin theta1 - sin(theta1 - delta u^2))) du,
     * whose integrand tends to 2 sqrt(|delta| / (a |cos theta1|)) as u -> 0:
     * smooth. Gauss-Legendre on panels [2^-(j+1), 2^-j] (never u = 0), which
     * also resolves the sharp knee near u = 0 when theta1 is close to a top. */
    const double a = 2.0 * K * g / J, delta = theta1 - theta0;
    gsl_integration_glfixed_table *gl = gsl_integration_glfixed_table_alloc(20);
    if (gl == NULL)
        return GSL_ENOMEM;
    double t = 0.0;
    for (int j = 0; j < 60; j++) {
        const double ub = ldexp(1.0, -j), ua = ldexp(1.0, -j - 1);
        for (size_t i = 0; i < 20; i++) {
            double u, wt;
            gsl_integration_glfixed_point(ua, ub, i, &u, &wt, gl);
            const double x = delta * u * u;
            const double ds = 2.0 * cos(theta1 - 0.5 * x) * sin(0.5 * x);
            t += wt * 2.0 * fabs(delta) * u / sqrt(a * ds);
        }
    }
    /* the last sliver [0, 2^-60], where the integrand is its limit */
    t += ldexp(1.0, -60) * 2.0 * sqrt(fabs(delta) / (a * fabs(cos(theta1))));
    gsl_integration_glfixed_table_free(gl);
    *t_stop = t;
    return GSL_SUCCESS;
    /* EXERCISE 07.3 STUB
    (void)J; (void)K; (void)g; (void)theta0; (void)theta1; (void)t_stop;
    EXERCISE 07.3 END */
}
