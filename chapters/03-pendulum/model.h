/* chapters/03-pendulum/model.h -- the simple pendulum of document 000
 * (Newhart 2019, Sec. 2.4.1, Table 2, listings A.2-A.2.g). Its exact
 * solution and the direct integration are in reference.h.
 *
 * The model is the document's: a point mass m in Cartesian coordinates
 * q = (x, y, z), on a massless rod of length L from the origin, gravity g along
 * +y (so "down" is +y and the bottom of the swing is y = L), with
 *
 *     M = m I,   F = (0, m g, 0),   C = (x^2 + y^2 - L^2, z),
 *     C_q = [2x 2y 0; 0 0 1],   gamma = (-2 (x'^2 + y'^2), 0),
 *
 * released from rest at x = L, y = 0 (theta0 = pi/2). The angle theta is
 * measured from +y: x = L sin theta, y = L cos theta.
 */
#ifndef CH03_MODEL_H
#define CH03_MODEL_H

#include <stddef.h>

#include "mbd/error.h"
#include "mbd/ode.h"
#include "mbd/run.h"
#include "mbd/simulate.h"
#include "mbd/system.h"

#define CH03_N 3   /* coordinates x, y, z */
#define CH03_M 2   /* constraints: the circle, and the plane z = 0 */

typedef struct {
    double m;        /* mass [kg] */
    double L;        /* rod length [m] */
    double g;        /* gravity along +y [m/s^2] */
    double theta0;   /* release angle from +y [rad], from rest */
} ch03_pendulum;

/* Table 2: m = 1, L = 1, g = 9.81, released at x = 1, y = 0 (theta0 = pi/2). */
void ch03_pendulum_document(ch03_pendulum *p);

/* The coordinate names x, y, z (for CSV headers). */
extern const char *const ch03_names[CH03_N];

/* Fills s with the pendulum's callbacks (mass, force, constraint, jacobian,
 * gamma, energy; scleronomic) and s->model = p, which must outlive s.
 * The energy is E = m (x'^2 + y'^2 + z'^2) / 2 - m g y: zero at the release. */
void ch03_system(const ch03_pendulum *p, mbd_system *s);

/* The initial state: q0 = (L sin theta0, L cos theta0, 0), qd0 = 0. */
void ch03_initial(const ch03_pendulum *p, double q0[CH03_N], double qd0[CH03_N]);

#endif
