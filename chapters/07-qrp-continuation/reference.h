/* reference.h -- chapter 07's independent references: the parallelogram in
 * its one coordinate, J theta'' = -K g cos(theta) (the reading guide's
 * reduced equation: J the cranks' and couplers' inertia about the crank
 * angle, K g the gravity moment), integrated by GSL's rk8pd, and the times at
 * which every bar is horizontal (theta = 0 or pi mod 2 pi) found on it. */
#ifndef CH07_REFERENCE_H
#define CH07_REFERENCE_H

#include <stddef.h>

#include "mbd/error.h"
#include "model.h"

/* (theta, theta') at time t from (theta0, omega0) at 0. */
int ch07_reduced_state(const ch07_model *md, double t, double y[2], mbd_failure *fail);

/* The times in (0, t_end] at which sin(theta) = 0 (every bar horizontal), at
 * most `cap`, to 1e-12 s; returns how many. */
size_t ch07_horizontal_times(const ch07_model *md, double t_end, double times[], size_t cap);

/* The stop speed sqrt(12 g / 5) of the 4-bar released from theta = 3 pi / 2
 * (kinetic energy 5/6 w^2 = the rise 2 g), and the time it takes to reach
 * the horizontal, int_0^{pi/2} da / sqrt((12 g / 5) sin a). */
double ch07_stop_speed(void);
double ch07_stop_time(void);

#endif
