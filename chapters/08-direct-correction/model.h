/* model.h -- chapter 08's mechanisms: planar closed-loop linkages in joint
 * (hinge) coordinates of an open tree, closed again by cut pin joints, as
 * document 004 (Zhang, Rui, Zhang, Gu, Zhang 2023, "Exploring Energy in the
 * Direct Correction Method for Correcting Geometric Constraint Violations",
 * Mathematics 11(6) 1510) models them.
 *
 * The document computes q'' by the reduced multibody-system transfer matrix
 * method (RMSTMM, its Sec. 2). The chapter does not: only what the direct
 * correction needs is the document's, and any dynamics that gives the same
 * q''(q, q') will do (the reading guide's Sec. 2.2). So a model here is an
 * ordinary mbd_system -- Lagrange's equations of the tree in its joint
 * coordinates with the cut joints' closure as constraints,
 *
 *     M(q) q'' + Phi_q^T lambda = F(q, q') = Q_g(q) - h(q, q'),
 *     Phi_q q'' = gamma(q, q'),
 *
 * -- which the library's formulations integrate, plus the pieces the
 * corrections of the document's Secs. 3-5 need: the velocity Jacobian
 * Phidot_q (eqs. 22-27), the energy gradient (E_q, E_q') (eqs. 38-63) and
 * the cut joints' violations (eqs. 5-6).
 *
 * A mechanism is a tree of rigid bodies, each hanging from its parent (or
 * from the ground) by one pin joint, the tree joint T_i. Body i's frame has
 * its origin at T_i; its angle is theta_i = theta_parent + q_i (theta of
 * the ground is 0), so q_i is the relative angle of joint i and, for a body
 * pinned to the ground, the absolute angle of the body. Every body here is a
 * bar lying along its frame's x axis. A cut pin joint joins a moving marker M
 * and a base marker B, each on a body or on the ground, and its constraint
 * is c = r_OM - r_OB = 0 (eq. 5; the document's c is Phi here), two rows,
 * x then y; the rows of all cut joints are stacked joint by joint.
 *
 * Scenarios (gravity g = 9.81 m/s^2 along -y, potential zero at y = 0):
 *
 *   fourbar, reading R1 (default; the guide's Sec. 4.1 and 7): the serial
 *       chain O - link 1 - link 2 - link 3, relative angles q1 (from +x), q2,
 *       q3; each link 1 m, 1 kg, centre of mass at mid-length, J_C = m L^2 /
 *       12 = 1/12 kg m^2 (a uniform bar: the document gives no inertia for
 *       this example; the guide suggests the same). The cut joint joins the
 *       tip of link 3 (M) to the ground pivot G = (-1, sqrt 3) (B). q0 = (pi/3,
 *       pi/3, pi/3) is half a regular hexagon, consistent; released from
 *       rest. The four loop lengths (1, 1, 1 and the ground's 2) satisfy no
 *       relation +-1 +-1 +-1 +-2 = 0, so the loop can never lie on one line:
 *       Phi_q has full rank everywhere (over a 10 s run its smallest
 *       singular value stays above 0.68).
 *   fourbar, reading R2 (--reading R2; the guide's Sec. 4.1, alternative):
 *       all four links 1 m. Link 1 turns about O = (0, 0) (q1, from +x),
 *       link 2 hangs from link 1's tip (q2, relative), link 3 turns about the
 *       second ground pivot G = (-1/2, sqrt(3)/2) and q3 is its absolute
 *       angle. Joint 3, between the tips of links 2 and 3, is cut: M = tip of
 *       link 2, B = tip of link 3. q0 = (pi/3, pi/3, pi/3) makes a
 *       parallelogram (a rhombus) that stays one: q3 = q1, q1 + q2 = 2 pi / 3.
 *       It swings like a pendulum in the crank angle phi = q1, (5/3) phi'' =
 *       -2 g cos phi, between phi = 60 deg and its turning point phi = -240
 *       (= 120) deg, reached at t* = 2 K(sin 75 deg) / sqrt(6 g / 5) =
 *       1.6135 s, where all four links lie on one line (link 1's tip on G)
 *       and Phi_q drops to rank 1. On the way it also passes, at speed
 *       (6.39 rad/s), phi = -60 deg, where the rhombus folds flat the other
 *       way (link 2's tip on O, link 3 on the ground link) and Phi_q again
 *       has rank 1: at t1 = 0.7268 s, then 2.5003, 3.9539 s, ... The reading
 *       guide names only the turning point. A study of singular
 *       configurations (change points), not a benchmark.
 *   eightbar: the chapter's stand-in for the document's Fig. 9 system
 *       (three loops, cut joints 13, 14, 15), which the text does not allow
 *       to rebuild. Eight bars, each 1 kg with J_C = 1/6 kg m^2 (the
 *       document's Example 2), centre of mass at mid-length; eight hinge
 *       coordinates, three cut pin joints (six rows): two degrees of
 *       freedom. Released at rest with the frame swung by 30 deg. See model.c
 *       for the drawing, the spanning tree and why its motion never comes
 *       near a singular configuration (sigma_min(Phi_q) >= 0.27 wherever
 *       V <= E0).
 */
#ifndef CH08_MODEL_H
#define CH08_MODEL_H

#include <stddef.h>

#include <gsl/gsl_matrix.h>

#include "mbd/system.h"

#define CH08_G 9.81
#define CH08_MAX_BODIES 8                     /* bodies = tree joints = coordinates */
#define CH08_MAX_CUTS 3
#define CH08_MAX_ROWS (2 * CH08_MAX_CUTS)    /* two rows per cut pin joint */

typedef enum { CH08_FOURBAR, CH08_EIGHTBAR, CH08_NSCENARIOS } ch08_scenario;
typedef enum { CH08_R1, CH08_R2, CH08_NREADINGS } ch08_reading;

/* The names and one-line descriptions, NULL-terminated (--scenario,
 * --reading). The *_of functions return MBD_EINPUT for an unknown name. */
extern const char *const ch08_scenario_names[];
extern const char *const ch08_scenario_descriptions[];
extern const char *const ch08_reading_names[];
extern const char *const ch08_reading_descriptions[];
int ch08_scenario_of(const char *name, ch08_scenario *s);
int ch08_reading_of(const char *name, ch08_reading *r);

/* One body of the tree: a bar from its tree joint T_i (its frame's origin)
 * along its frame's x axis to its far end (length, 0). */
typedef struct {
    const char *label;           /* "link 1", "arm 2", ... */
    int parent;                  /* the inboard body (an index), -1 for the ground */
    double joint[2];             /* T_i in the parent's frame, or in the ground's (global) */
    double length;               /* the bar's length (for the drawing and the markers) */
    double com[2];               /* the centre of mass C_i in the body's frame */
    double m, J;                 /* mass, moment of inertia about C_i */
} ch08_body;

/* A point of a body (in its frame) or of the ground (global). */
typedef struct {
    int body;                    /* -1: the ground */
    double at[2];
} ch08_marker;

/* A cut pin joint: Phi = r_M - r_B (eq. 5). */
typedef struct {
    const char *label;
    ch08_marker M, B;            /* the moving and the base marker */
} ch08_cut;

typedef struct {
    ch08_scenario scenario;
    ch08_reading reading;        /* fourbar only; CH08_R1 for the eightbar */
    const char *name;            /* "fourbar" or "eightbar" */
    double g;                    /* gravity, along -y */
    size_t n;                    /* bodies, tree joints, coordinates */
    size_t ncut;                 /* cut pin joints K; the system has m = 2 K rows */
    ch08_body body[CH08_MAX_BODIES];         /* parents before their children */
    ch08_cut cut[CH08_MAX_CUTS];
    double q0[CH08_MAX_BODIES];              /* the initial configuration (at rest) */
    /* the eightbar's release: how far its frame and its garland are turned
     * from their equilibrium directions (radians; see model.c) */
    double release_frame, release_garland;
    /* 0 (default): the system hands the corrections the document's
     * semi-analytic Phidot_q and (E_q, E_q'); 1: it leaves them to the
     * library (dC'/dq from gamma, the energy's gradient by differences) */
    int library_derivatives;
    /* filled by ch08_model_build */
    unsigned char anc[CH08_MAX_BODIES][CH08_MAX_BODIES];   /* anc[i][j]: joint j on the path
                                                               from the ground to body i */
    mbd_system sys;
    int built;
} ch08_model;

/* The data of a scenario (the eightbar ignores `reading`); the model not yet
 * built. Change the data (the eightbar's release angles, a mass) between
 * this and ch08_model_build. */
void ch08_model_data(ch08_model *md, ch08_scenario s, ch08_reading reading);
/* Checks the tree (parents before children, markers on existing bodies),
 * works out the ancestor table, assembles the eightbar's initial
 * configuration from its release angles (one circle intersection per loop,
 * model.c) and fills in the mbd_system, whose `model`
 * points at md: md must not move while the system is used. MBD_EINPUT for a
 * malformed tree; MBD_ENOCONV when the eightbar's release could not be
 * assembled (a loop that does not close). Nothing is allocated;
 * ch08_model_free only marks the model unbuilt. */
int ch08_model_build(ch08_model *md);
void ch08_model_free(ch08_model *md);
/* NULL until the model is built. n coordinates named q1 .. qn, m = 2 K. */
const mbd_system *ch08_system(const ch08_model *md);

/* The initial state: q0 (consistent to round-off) at rest, q0' = 0.
 * MBD_EINPUT when the model is not built. */
int ch08_initial(const ch08_model *md, double q[], double qd[]);

/* The pieces of the document's corrections, all in closed form from the
 * recursive kinematics, none by numerical differentiation. q and qd hold n
 * values each; the model must be built.
 *
 * Phidot_q = d(Phi_q q')/dq (m x n), the document's c-dot_q of eqs. 25 and
 * 27, column j = [j in anc(M)] D (v_M - v_Tj) - [j in anc(B)] D (v_B - v_Tj)
 * summed over the cut joints' rows. */
int ch08_velocity_jacobian(const ch08_model *md, const double q[], const double qd[],
                           gsl_matrix *Phidot_q);
/* E_q and E_q' (n each) of E = T + V, body by body (eqs. 38-63). */
int ch08_energy_gradient(const ch08_model *md, const double q[], const double qd[], double Eq[],
                         double Eqd[]);
/* Per cut joint j (0-based): phi[2j], phi[2j+1] = the x and y position
 * violation (eq. 5), phidot[2j], phidot[2j+1] = the velocity violation
 * (eq. 6); the CSV's phi_x<j+1>, phi_y<j+1>, phidot_x<j+1>, phidot_y<j+1>. */
int ch08_cut_violation(const ch08_model *md, const double q[], const double qd[], double phi[],
                       double phidot[]);
/* The kinetic and the potential energy (either pointer may be NULL). */
int ch08_energy_parts(const ch08_model *md, const double q[], const double qd[], double *T,
                      double *V);

/* Where the joints and the centres of mass are at q (for drawings and
 * checks): joint[i] = T_i, com[i] = C_i, tip[i] = the bar's far end,
 * theta[i] its absolute angle; any pointer may be NULL. */
int ch08_positions(const ch08_model *md, const double q[], double joint[][2], double com[][2],
                   double tip[][2], double theta[]);

#endif
