/* model.h -- chapter 07's mechanisms (document 002, Quro 2023, Ch. 5): the
 * systems of Table 5.1 built from planar bars (planar.h), the 4-bar cases of
 * Sec. 5.2.2, and the spatial pendulum of Sec. 5.1 (by hand: a point mass in
 * x, y, z).
 *
 * Geometry the thesis shows only in its figures, as the reading guide
 * reconstructs it (its stop speed sqrt(12 g / 5) = 4.8522 rad/s confirms
 * it): ground pivots at x = 0, 1, 2 (3) on the x axis; cranks (bars 1, 3, 5,
 * ...) 1 m, 1 kg, J = 1/12, vertical at theta = pi/2; couplers horizontal at
 * y = 1. Every bar's reference point is its centre; gravity 9.81 in -y. The
 * modified mechanisms replace the couplers by one long bar (2 m, 2 kg, J =
 * 2/3; or 3 m, 3 kg, J = 9/4); the 2 x 2 and 2 x 3 ones are two copies side
 * by side, not connected (their Table 5.1 counts and the guide's energies say
 * so).
 */
#ifndef CH07_MODEL_H
#define CH07_MODEL_H

#include <stddef.h>

#include "mbd/planar.h"
#include "mbd/system.h"

typedef enum {
    CH07_FOURBAR,
    CH07_FOURBAR_STOP,
    CH07_FOURBAR_TORQUE,
    CH07_DOUBLE,
    CH07_MOD2,
    CH07_MOD2X2,
    CH07_MOD3,
    CH07_MOD2X3,
    CH07_SPATIAL_PENDULUM,
    CH07_NSCENARIOS
} ch07_scenario;

#define CH07_G 9.81
#define CH07_MAX_BARS 10

extern const char *const ch07_scenario_names[];
extern const char *const ch07_scenario_descriptions[];
int ch07_scenario_of(const char *name, ch07_scenario *s);

typedef struct {
    ch07_scenario scenario;
    const char *name;
    double omega;                /* the cranks' initial speed (rad/s) */
    double theta0;               /* the cranks' initial angle */
    double torque;               /* on bar 2 (the -20 N m case), N m */
    /* the planar bars */
    mbd_planar_model *pm;
    size_t nbars, ncopies;
    int crank[CH07_MAX_BARS], ncrank;        /* body indices of the cranks */
    int coupler[CH07_MAX_BARS], ncoupler;    /* and of the couplers */
    double coupler_len[CH07_MAX_BARS];
    double copy_x[2];                        /* where each copy's first pivot is */
    /* the spatial pendulum, by hand */
    mbd_system pendulum;
    double pend_m, pend_l;
    /* Table 5.1 */
    size_t table_m, table_n, table_d;        /* 0: not in the table */
    double J, K;                 /* the reduced parallelogram: J theta'' = -K g cos theta */
} ch07_model;

/* The scenario's data (omega: the thesis's, unless omega_given). */
void ch07_model_data(ch07_model *md, ch07_scenario s);
int ch07_model_build(ch07_model *md);
void ch07_model_free(ch07_model *md);
const mbd_system *ch07_system(const ch07_model *md);

/* The parallelogram state at crank angle th and crank speed w (every copy),
 * or the pendulum's initial state. */
int ch07_state(const ch07_model *md, double th, double w, double q[], double qd[]);
int ch07_initial(const ch07_model *md, double q[], double qd[]);

#endif
