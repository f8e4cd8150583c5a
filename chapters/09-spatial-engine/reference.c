/* reference.c -- the closed forms of reference.h. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_math.h>
#include <gsl/gsl_odeiv2.h>

#include "mbd/error.h"

#include "model.h"
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

/* >> benchmark-reduced */
double ch09_a02_K(int N)
{
    return ((N + 1) / 2.0 + N) / ((N + 1) / 3.0 + N) * 9.81;
}

/* y = (angle, rate): angle'' = c sin(angle) */
static int reduced_rhs(double t, const double y[], double dydt[], void *params)
{
    (void)t;
    dydt[0] = y[1];
    dydt[1] = *(const double *)params * sin(y[0]);
    return GSL_SUCCESS;
}

int ch09_benchmark_reduced(ch09_benchmark which, int N, const double *t, size_t n, double *x,
                           double *y)
{
    if (n == 0 || (which == CH09_A02 && N < 1))
        return GSL_EINVAL;
    double c = which == CH09_A01 ? -9.81 : ch09_a02_K(N);
    gsl_odeiv2_system sys = {reduced_rhs, NULL, 2, &c};
    gsl_odeiv2_driver *d = gsl_odeiv2_driver_alloc_y_new(&sys, gsl_odeiv2_step_rk8pd, 1e-3,
                                                         1e-13, 1e-13);
    if (d == NULL)
        return GSL_ENOMEM;
    double s[2] = {which == CH09_A01 ? -M_PI / 2 : 0.0, which == CH09_A01 ? 0.0 : 1.0};
    double tc = 0.0;
    int st = GSL_SUCCESS;
    for (size_t k = 0; k < n && st == GSL_SUCCESS; k++) {
        if (t[k] < tc) {
            st = GSL_EINVAL;
            break;
        }
        if (t[k] > tc)
            st = gsl_odeiv2_driver_apply(d, &tc, t[k], s);
        x[k] = sin(s[0]);
        y[k] = which == CH09_A01 ? -cos(s[0]) : cos(s[0]);
    }
    gsl_odeiv2_driver_free(d);
    return st;
}
/* << benchmark-reduced */

int ch09_benchmark_read(const char *path, double **t, double **x, double **y, size_t *n,
                        char *msg, size_t msg_len)
{
    *t = *x = *y = NULL;
    *n = 0;
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        snprintf(msg, msg_len, "%s: cannot open the reference file: %s", path, strerror(errno));
        return MBD_EIO;
    }
    char line[256];
    size_t cap = 0, lineno = 0;
    int st = GSL_SUCCESS, header = 0;
    while (st == GSL_SUCCESS && fgets(line, sizeof line, f) != NULL) {
        lineno++;
        if (line[0] == '#' || line[0] == '\n')
            continue;
        if (!header) {
            header = 1;
            if (strncmp(line, "t,x,y", 5) != 0) {
                snprintf(msg, msg_len, "%s:%zu: expected the header 't,x,y'", path, lineno);
                st = MBD_EINPUT;
            }
            continue;
        }
        double a, b, c;
        char extra;
        if (sscanf(line, "%lf,%lf,%lf %c", &a, &b, &c, &extra) != 3 || !isfinite(a)
            || !isfinite(b) || !isfinite(c) || (*n > 0 && !(a > (*t)[*n - 1]))) {
            snprintf(msg, msg_len, "%s:%zu: expected 't,x,y' (three finite numbers, t "
                     "increasing)", path, lineno);
            st = MBD_EINPUT;
            break;
        }
        if (*n == cap) {
            cap = cap ? 2 * cap : 512;
            double *nt = realloc(*t, cap * sizeof **t), *nx = nt ? realloc(*x, cap * sizeof **x) : NULL,
                   *ny = nx ? realloc(*y, cap * sizeof **y) : NULL;
            if (nt)
                *t = nt;
            if (nx)
                *x = nx;
            if (ny)
                *y = ny;
            if (!ny) {
                st = GSL_ENOMEM;
                break;
            }
        }
        (*t)[*n] = a;
        (*x)[*n] = b;
        (*y)[*n] = c;
        (*n)++;
    }
    fclose(f);
    if (st == GSL_SUCCESS && *n == 0) {
        snprintf(msg, msg_len, "%s: no data rows", path);
        st = MBD_EINPUT;
    }
    if (st != GSL_SUCCESS) {
        free(*t);
        free(*x);
        free(*y);
        *t = *x = *y = NULL;
        *n = 0;
    }
    return st;
}

int ch09_benchmark_load(const char *name, double **t, double **x, double **y, size_t *n,
                        mbd_failure *fail)
{
    char path[4096 + 256], msg[512];
    const char *models = ch09_models_dir();
    const size_t len = strlen(models);
    const size_t cut = len >= 7 && strcmp(models + len - 7, "models/") == 0 ? len - 7 : len;
    snprintf(path, sizeof path, "%.*sbenchmarks/%s", (int)cut, models, name);
    int st = ch09_benchmark_read(path, t, x, y, n, msg, sizeof msg);
    return st == GSL_SUCCESS ? st : mbd_failure_set(fail, st, NAN, "%s", msg);
}

/* the governor's dimensions (models/flyball-governor.yaml) */
#define GOV_HINGE 0.2        /* the arms' hinges above the ground */
#define GOV_ARM 0.16         /* hinge to ball */
#define GOV_PIN 0.08         /* hinge to the rod's end */
#define GOV_ROD 0.10922
#define GOV_BALL 1.0         /* kg, each */
#define GOV_COLLAR 1.0
#define GOV_K 1000.0         /* the spring from the shaft's origin to the collar */
#define GOV_FREE 0.15

double ch09_governor_omega(double y, double *phi_out)
{
    /* the arm's angle: the collar's height rises with it on (0, pi/2) */
    double lo = 0.0, hi = acos(0.0);   /* pi/2 */
    for (int k = 0; k < 100; k++) {
        const double mid = 0.5 * (lo + hi), s = sin(mid);
        const double ym = GOV_HINGE - GOV_PIN * cos(mid) - sqrt(GOV_ROD * GOV_ROD -
                                                                GOV_PIN * GOV_PIN * s * s);
        if (ym < y)
            lo = mid;
        else
            hi = mid;
    }
    const double phi = 0.5 * (lo + hi), s = sin(phi), c = cos(phi), g = 9.81;
    /* u: the unit vector from the collar to a rod's end on the arm */
    const double ux = GOV_PIN * s / GOV_ROD, uy = (GOV_HINGE - GOV_PIN * c - y) / GOV_ROD;
    /* the collar: 2 T u_y + k (0.2 - y - l0) = m_c g */
    const double T = (GOV_COLLAR * g - GOV_K * (GOV_HINGE - y - GOV_FREE)) / (2.0 * uy);
    /* an arm about its hinge: the centrifugal moment m w^2 R^2 sin cos
     * against gravity's m g R sin and the rod's pull at the pin */
    const double w2 = (GOV_BALL * g * GOV_ARM * s + T * GOV_PIN * (s * uy + c * ux)) /
                      (GOV_BALL * GOV_ARM * GOV_ARM * s * c);
    if (phi_out != NULL)
        *phi_out = phi;
    return sqrt(w2);
}
