/* reference.c -- the closed forms of reference.h. */
#include <math.h>

#include <gsl/gsl_math.h>

#include "reference.h"

/* >> slider-exact */
double ch09_slider_theta(double t)
{
    return M_PI / 2 + 1e-4 - 2 * M_PI * t;
}

void ch09_slider_x_theta(double th, double X[3])
{
    const double c = cos(th), s = sin(th);
    /* R(theta) = x^2 and its derivatives in theta */
    const double a = 0.1 + 0.08 * c, b = 0.12 + 0.08 * s;
    const double R = 0.09 - a * a - b * b;
    const double R1 = 0.16 * (a * s - b * c);
    const double R2 = -0.0128 + 0.16 * (a * c + b * s);
    /* 2 x x_th = R1, 2 x_th^2 + 2 x x_thth = R2 */
    X[0] = sqrt(R);
    X[1] = R1 / (2 * X[0]);
    X[2] = (R2 - 2 * X[1] * X[1]) / (2 * X[0]);
}

void ch09_slider_exact(double t, double x[3])
{
    const double thd = -2 * M_PI;   /* theta'' = 0 */
    double X[3];
    ch09_slider_x_theta(ch09_slider_theta(t), X);
    x[0] = X[0];
    x[1] = X[1] * thd;
    x[2] = X[2] * thd * thd;
}
/* << slider-exact */

/* >> pendulum-exact */
void ch09_pendulum_theta(double t, double th[3])
{
    th[0] = M_PI / 4 * cos(2 * t);
    th[1] = -M_PI / 2 * sin(2 * t);
    th[2] = -M_PI * cos(2 * t);
}

double ch09_pendulum_torque(double t, double m, double Jzz, double h, double g)
{
    double th[3];
    ch09_pendulum_theta(t, th);
    return (Jzz + m * h * h) * th[2] + m * g * h * sin(th[0]);
}

void ch09_pendulum_hinge_force(double t, double m, double h, double g, double F[3])
{
    double th[3];
    ch09_pendulum_theta(t, th);
    const double c = cos(th[0]), s = sin(th[0]);
    /* a_c = h (u' theta'' + u'' theta'^2), u' = (0, cos, sin), u'' = -u */
    F[0] = 0.0;
    F[1] = m * h * (c * th[2] - s * th[1] * th[1]);
    F[2] = m * h * (s * th[2] + c * th[1] * th[1]) + m * g;
}
/* << pendulum-exact */
