/* reference.h -- the closed forms chapter 09 is checked against.
 *
 * The driven spatial slider-crank (models/slider-crank-driven.yaml; Haug,
 * Sec. 10.2; reading guide 003, Sec. 5.2 case 4): the crank turns about the
 * global x axis through A = (0, 0.1, 0.12), its pin 0.08 m from A at the
 * angle theta from the y axis, so the pin is at
 *     B = (0, 0.1 + 0.08 cos theta, 0.12 + 0.08 sin theta);
 * the rod of 0.3 m joins B to the slider's origin (x, 0, 0) on the global x
 * axis, whence
 *     x(theta) = sqrt(0.09 - (0.1 + 0.08 cos theta)^2 - (0.12 + 0.08 sin theta)^2)
 * (the positive root: the slider on the +x side), with the driver's
 * theta(t) = pi/2 + 1e-4 - 2 pi t.
 *
 * The driven pendulum (models/pendulum-driven.yaml; the document's Fig. 16,
 * guide Sec. 7.4 E3): a bar of mass m and half-length h hinged at O about
 * the global x axis, swung theta(t) = (pi/4) cos 2t from the downward
 * vertical (-z) against gravity g in -z. About the hinge
 *     n(t) = I_O theta'' + m g h sin theta,   I_O = J_zz + m h^2,
 * and the hinge's force on the bar is m (a_c - g_vec), a_c the acceleration
 * of the centre h u(theta), u = (0, sin theta, -cos theta).
 */
#ifndef CH09_REFERENCE_H
#define CH09_REFERENCE_H

#include "mbd/error.h"

#include <stddef.h>

/* x(theta), dx/dtheta, d2x/dtheta2 of the slider at the crank angle theta */
void ch09_slider_x_theta(double theta, double X[3]);
/* the driver's angle at t, and x, x', x'' of the slider at t */
double ch09_slider_theta(double t);
void ch09_slider_exact(double t, double x[3]);

/* the pendulum at t: theta, theta', theta'' */
void ch09_pendulum_theta(double t, double th[3]);
/* the driving torque about +x (what the driver does to the bar) and the
 * hinge's force on the bar, global; J_zz about the centre, h the distance
 * from O to the centre */
double ch09_pendulum_torque(double t, double m, double Jzz, double h, double g);
void ch09_pendulum_hinge_force(double t, double m, double h, double g, double F[3]);

/* The IFToMM benchmarks' one-degree-of-freedom references (reading guide
 * 003, Sec. 5.2, cases 1 and 8), integrated by GSL's rk8pd at a relative
 * tolerance of 1e-13:
 *   A01, the point-mass pendulum (m = 1 kg, L = 1 m, g = 9.81 in -y) from
 *   rest at (-1, 0): phi'' = -(g/L) sin phi from phi = -pi/2, the mass at
 *   (L sin phi, -L cos phi);
 *   A02, the N four-bar (2N + 1 bars of 1 m, 1 kg): every vertical bar turns
 *   by the same theta from the vertical and the horizontal ones translate, so
 *   theta'' = K_N sin theta, K_N = ((N+1)/2 + N) / ((N+1)/3 + N) g/L, from
 *   theta = 0, theta' = v0/L = 1 rad/s; B0 at (L sin theta, L cos theta). */
typedef enum { CH09_A01, CH09_A02 } ch09_benchmark;
/* x, y of the benchmark's point at the n times t[k] (increasing from 0);
 * N: the number of four-bars (A02 only). A status. */
int ch09_benchmark_reduced(ch09_benchmark which, int N, const double *t, size_t n, double *x,
                           double *y);
/* K_N of A02 (1/s^2) */
double ch09_a02_K(int N);

/* A benchmark's reference file ("t,x,y" after '#' comment lines, as in
 * chapters/09-spatial-engine/benchmarks/): *t, *x, *y (n values each, to
 * free) or a status with "FILE:LINE: what" in msg. */
int ch09_benchmark_read(const char *path, double **t, double **x, double **y, size_t *n,
                        char *msg, size_t msg_len);
/* ch09_benchmark_read of chapters/09-spatial-engine/benchmarks/NAME, the
 * directory beside the models' (model.h's ch09_models_dir), the message in
 * fail */
int ch09_benchmark_load(const char *name, double **t, double **x, double **y, size_t *n,
                        mbd_failure *fail);

/* The flyball governor's steady spin with the collar at height y (reading
 * guide 003, Sec. 5.2 case 7): the arm's angle phi from the downward
 * vertical (y(phi) = 0.2 - 0.08 cos phi - sqrt(0.10922^2 - 0.08^2 sin^2
 * phi)), the collar's vertical balance under its weight, the spring k (0.05
 * - y) and the two rods' tension, and each arm's moments about its hinge in
 * the turning plane: the omega (rad/s) at which the balls stay there. At a
 * steady spin the shaft's torques cancel, C (0.05 - y) = 25, so the collar
 * settles at y = 0.05 - 25/C. */
double ch09_governor_omega(double y, double *phi);

#endif
