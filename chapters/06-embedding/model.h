/* model.h -- chapter 06's mechanisms, built from planar bodies and joints
 * (planar.h) in the reference coordinates of document 001 (Chandramouli
 * 2023, "Constrained Dynamics", Sec. 1 and 4).
 *
 * Three scenarios, each a handful of uniform rods with gravity g in -y:
 *
 *   pendulum        one rod (body 1: m = 1 kg, l = 1 m, J = m l^2 / 12),
 *                   pinned at one end to the ground at the origin; its
 *                   reference point is the centre of mass and theta is its
 *                   angle from +x. n = 3, m = 2, one degree of freedom.
 *   slider-crank    the reading guide's mechanism (document 001 has none of
 *                   its own): crank 2 (0.2 m, 1 kg) pinned to the ground at
 *                   O, rod 3 (0.5 m, 2 kg) pinned to the crank at A, slider 4
 *                   (0.5 kg, J = 1e-3) pinned to the rod at B and held on the
 *                   x axis (y4 = 0, theta4 = 0); bodies numbered as the guide
 *                   numbers them, the ground being body 1. n = 9, m = 8,
 *                   one degree of freedom. Released with theta2 = pi/3,
 *                   theta2' = 5 rad/s, no drive, no friction.
 *   double-pendulum two rods (bodies 1 and 2, each 1 kg and 1 m) in a chain
 *                   from a pin at the origin, released from rest
 *                   horizontal: n = 6, m = 4, two degrees of freedom.
 *
 * The constraints are listed in the order the guide lists them (for the
 * slider-crank: revolute O, A, B, then y4 = 0, theta4 = 0), so the
 * multipliers print in that order. Each rod's reference point is its centre
 * of mass; the slider's is the pin B.
 */
#ifndef CH06_MODEL_H
#define CH06_MODEL_H

#include <stddef.h>

#include "mbd/planar.h"
#include "mbd/system.h"

typedef enum { CH06_PENDULUM, CH06_SLIDER_CRANK, CH06_DOUBLE_PENDULUM, CH06_NSCENARIOS } ch06_scenario;

#define CH06_G 9.81

/* The scenarios' data (SI units). */
typedef struct {
    double m, l;                 /* the pendulum rod */
} ch06_pendulum_data;
typedef struct {
    double l2, l3;               /* crank and rod lengths */
    double m2, m3, m4;           /* crank, rod, slider masses */
    double J4;                   /* the slider's moment of inertia */
    double theta2, omega2;       /* initial crank angle and speed */
} ch06_slider_data;
typedef struct {
    double m1, l1, m2, l2;       /* the two rods */
    double theta1, theta2;       /* initial angles (released from rest) */
} ch06_double_data;

typedef struct {
    ch06_scenario scenario;
    const char *name;            /* "pendulum", "slider-crank", "double-pendulum" */
    ch06_pendulum_data pend;
    ch06_slider_data slider;
    ch06_double_data dbl;
    mbd_planar_model *pm;        /* the assembled model (ch06_model_build) */
} ch06_model;

/* The scenario names and one-line descriptions, NULL-terminated (--scenario). */
extern const char *const ch06_scenario_names[];
extern const char *const ch06_scenario_descriptions[];
/* MBD_EINPUT for an unknown name. */
int ch06_scenario_of(const char *name, ch06_scenario *s);

/* The guide's data for scenario s (the model not yet built). */
void ch06_model_data(ch06_model *md, ch06_scenario s);
/* Builds the planar model from md's data; a status (the planar model's
 * first error). ch06_model_free releases it. */
int ch06_model_build(ch06_model *md);
void ch06_model_free(ch06_model *md);
const mbd_system *ch06_system(const ch06_model *md);

/* The initial state (q0, q0') of the built model: consistent, from the
 * closed-form position and velocity of each body (reference.h). */
int ch06_initial(const ch06_model *md, double q0[], double qd0[]);

/* The moving bodies' labels in the order of q (2, 3, 4 for the
 * slider-crank); returns their number. */
size_t ch06_labels(const ch06_model *md, int labels[3]);

#endif
