/* mbd/planar.h -- planar rigid bodies in reference coordinates, and the
 * joints, drivers and forces that assemble them into an mbd_system.
 *
 * The model end of the pipeline, built from parts instead of by hand
 *
 *     model (planar -> mbd_system) -> formulation -> integrator -> output
 *
 * following document 001 (Chandramouli 2023, "Constrained Dynamics": the
 * generalized inertia of Sec. 1, the multibody equations and the joint
 * Jacobians of the augmented formulation, Sec. 4).
 *
 * Bodies. Body b has the three coordinates q_b = (x, y, theta): the global
 * position R = (x, y) of its reference point O (the origin of its body
 * frame) and the angle theta of its frame from the global x axis. A point
 * given in the body frame by u (measured from O) is at r = R + A u with
 * A = [cos -sin; sin cos](theta); A_theta u = dA/dtheta u = k x (A u) is A u
 * turned a quarter left. O need not be the centre of mass: the mass centre
 * sits at u_c in the body frame, and the body's mass matrix (document 001,
 * Sec. 1, "Mass Matrix") is
 *
 *     M_b = [ m I             m A_theta u_c       ]
 *           [ (m A_theta u_c)^T   J_c + m |u_c|^2 ],
 *
 * with J_c the moment of inertia about the centre of mass (parallel axes).
 * The quadratic-velocity (centrifugal) force of such a body (Sec. 1,
 * "Centrifugal Inertia Force") is Q_v = [theta'^2 A m u_c; 0]; it vanishes
 * when O is the centre of mass. The system's M is block diagonal, one 3 x 3
 * block per moving body, in the order the bodies were added.
 *
 * The ground is a body without coordinates whose frame is the global frame;
 * a point of the ground is given in global coordinates. A model may have
 * one (or more) ground bodies; joints name them like any other body.
 *
 * Joints (document 001, Sec. 4; the rows each adds, in this order):
 *
 *   revolute        2  r_i^P - r_j^P = 0: the point P_i of body i and the point
 *                      P_j of body j coincide (Sec. 4, "Revolute Joint")
 *   translational   2  theta_i - theta_j - phi0 = 0 (the relative rotation
 *                      is fixed), then n_j . (r_i^P - r_j^P) = 0 with
 *                      n_j = A_j nbar the unit normal of the axis: the point
 *                      P_i of body i stays on the line of body j through P_j
 *                      along the axis a (body j's frame); nbar is a turned a
 *                      quarter left (nbar = (-a_y, a_x) / |a|)
 *   rigid           3  r_i^P - r_j^P = 0 and theta_i - theta_j - phi0 = 0: a
 *                      fixed relative pose (Sec. 4, the rigid connection)
 *   ground joint    3  q_i - (x0, y0, theta0) = 0: body i fixed at a pose
 *   coordinate      1  q_i[c] - f(t) = 0, c one of x, y, theta of body i
 *     driver
 *   angle driver    1  theta_j - theta_i - f(t) = 0
 *
 * Each joint contributes its rows of C, C_q, C_t (drivers: -f'(t)) and of
 *
 *     gamma = -(C_q q')_q q' - 2 C_qt q' - C_tt      (drivers: f''(t)),
 *
 * all analytic. The system's constraint_t is NULL when there is no driver.
 * Revolute, translational and rigid joints may join a body to the ground;
 * a joint between a body and itself, or between two grounds, is refused.
 *
 * Forces, F = Q_e + Q_v: gravity (the weight m g at each body's centre of
 * mass), constant forces at body points (the force given in the global frame,
 * a fixed direction, or in the body frame, turning with the body), constant
 * torques, and user callbacks that add their own generalized forces
 * (mbd_planar_apply_force() turns a force at a point into one).
 *
 * Energy: E = (1/2) q'^T M q' - sum_b m_b g . r_c,b, the kinetic energy and
 * the potential of gravity with its zero at the global origin. The work of
 * the other applied forces is not counted in E.
 *
 * Coordinate names (CSV headers): x<k>, y<k>, theta<k> with k the body's label,
 * the number the user gives it (bodies 2, 3, 4 of a slider-crank whose ground
 * is body 1 in the document's numbering).
 *
 * Reactions. The system's equations are M q'' + C_q^T lambda = F, so a joint
 * with multipliers lambda_k (its rows) exerts on body b the generalized force
 *
 *     Q_c^b = -(C_k)_{q_b}^T lambda_k          (document 001, Sec. 4)
 *
 * at b's reference point. mbd_planar_reactions() states it as a force F (global
 * frame) acting on b at a global point P and the torque T on b about P
 * (counter-clockwise positive): F = (Q_c^b)_R, T = (Q_c^b)_theta - (P - R_b) x F.
 * P is the same point for both bodies of a joint: the current position of
 * P_i (body i's joint point) for revolute, translational and rigid joints,
 * and body i's reference point R_i for ground joints and drivers. When the
 * constraints hold, the reaction on j is minus the reaction on i (Newton's
 * third law). For a joint with one body (ground joint, coordinate driver) the
 * "j" side is the ground, and its reaction is minus body i's.
 *
 * Building. mbd_planar_alloc(), then bodies, joints and forces, then
 * mbd_planar_finish(), which fixes n = 3 x (moving bodies) and m = the joints'
 * rows and gives the mbd_system (mbd_planar_system()). Everything is
 * allocated while building and finishing; the system's callbacks allocate
 * nothing (they zero the caller's M and C_q and fill the blocks).
 *
 * Errors. Each mbd_planar_add_* returns the index of what it added (bodies,
 * joints and forces are numbered separately from 0), or -1 when the input is
 * bad (MBD_EINPUT: an unknown body, a joint of a body with itself, a negative
 * mass, a repeated label, a model already finished) or memory ran out
 * (GSL_ENOMEM). The first such error is kept in the model
 * (mbd_planar_failure(): status and cause); from then on every addition
 * returns -1 and mbd_planar_finish() (and mbd_planar_set_gravity()) return
 * that status, so a model can be built call after call and checked once.
 * The functions that read or write states return a status: MBD_EINPUT for a
 * bad index, a ground where a moving body is needed, or an unfinished model;
 * GSL_EBADLEN for a vector of the wrong size. Nothing aborts or prints.
 */
#ifndef MBD_PLANAR_H
#define MBD_PLANAR_H

#include <stddef.h>

#include <gsl/gsl_vector.h>

#include "mbd/error.h"
#include "mbd/system.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mbd_planar_model mbd_planar_model;

/* A body's coordinate, in the order of q_b */
typedef enum { MBD_PLANAR_X = 0, MBD_PLANAR_Y = 1, MBD_PLANAR_THETA = 2 } mbd_planar_coord;

/* The frame a force is given in */
typedef enum {
    MBD_PLANAR_GLOBAL,   /* a fixed direction in the global frame */
    MBD_PLANAR_BODY      /* the body's frame: the force turns with the body */
} mbd_planar_frame;

typedef enum {
    MBD_PLANAR_REVOLUTE,
    MBD_PLANAR_TRANSLATIONAL,
    MBD_PLANAR_RIGID,
    MBD_PLANAR_GROUND_JOINT,
    MBD_PLANAR_COORDINATE_DRIVER,
    MBD_PLANAR_ANGLE_DRIVER
} mbd_planar_joint_kind;

/* ------------------------------------------------------------------------ */
/* Driving functions                                                         */

/* f(t), f'(t), f''(t) into f[0..2]; a status (GSL_SUCCESS when it worked). */
typedef int (*mbd_planar_eval)(double t, double f[3], void *user);

/* A driving function: the caller's eval with its user pointer, or, when eval
 * is NULL, the quadratic f(t) = c[0] + c[1] t + c[2] t^2 / 2. The model keeps
 * a copy (user must outlive the model). */
typedef struct {
    mbd_planar_eval eval;
    void *user;
    double c[3];
} mbd_planar_function;

/* f(t) = f0 + rate t (a constant-speed driver) */
mbd_planar_function mbd_planar_constant_speed(double f0, double rate);
/* f(t) = f0 + rate0 t + accel t^2 / 2 */
mbd_planar_function mbd_planar_constant_accel(double f0, double rate0, double accel);
/* the caller's f, f', f'' */
mbd_planar_function mbd_planar_user_function(mbd_planar_eval eval, void *user);

/* A user force: adds its generalized force (n entries, the model's q layout)
 * into Q, which already holds the other forces; a status. */
typedef int (*mbd_planar_force_fn)(const mbd_planar_model *pm, double t, const gsl_vector *q,
                                   const gsl_vector *qd, gsl_vector *Q, void *user);

/* ------------------------------------------------------------------------ */
/* Building                                                                  */

/* An empty model (no gravity); NULL when memory runs out. */
mbd_planar_model *mbd_planar_alloc(void);
void mbd_planar_free(mbd_planar_model *pm);

/* A moving body with the label `label` (>= 0, unique; it names the
 * coordinates x<label>, y<label>, theta<label>), mass m > 0, moment of
 * inertia J >= 0 about its centre of mass, and the centre of mass at uc in
 * its frame (NULL: at the reference point). Its coordinates follow those of
 * the moving bodies added before it. (J = 0 gives a singular block: a point
 * mass; the projection formulation needs J > 0.) */
int mbd_planar_add_body(mbd_planar_model *pm, int label, double m, double J, const double uc[2]);
/* A ground body (no coordinates; its points are global points). */
int mbd_planar_add_ground(mbd_planar_model *pm, int label);

/* The joints; pi and pj are points in the frames of bodies i and j (from
 * their reference points). See the overview for each one's rows. */
int mbd_planar_add_revolute(mbd_planar_model *pm, int i, const double pi[2], int j,
                            const double pj[2]);
/* axis: the direction of the line in body j's frame (need not be unit, not
 * zero); phi0: the fixed theta_i - theta_j. */
int mbd_planar_add_translational(mbd_planar_model *pm, int i, const double pi[2], int j,
                                 const double pj[2], const double axis[2], double phi0);
/* phi0: the fixed theta_i - theta_j */
int mbd_planar_add_rigid(mbd_planar_model *pm, int i, const double pi[2], int j,
                         const double pj[2], double phi0);
/* body i held at pose = (x0, y0, theta0) */
int mbd_planar_add_ground_joint(mbd_planar_model *pm, int i, const double pose[3]);
/* q_i[c] = f(t) */
int mbd_planar_add_coordinate_driver(mbd_planar_model *pm, int i, mbd_planar_coord c,
                                     mbd_planar_function f);
/* theta_j - theta_i = f(t) (one of i, j may be a ground, whose angle is 0) */
int mbd_planar_add_angle_driver(mbd_planar_model *pm, int i, int j, mbd_planar_function f);

/* Gravity g = (gx, gy) (e.g. (0, -9.81)); a status. Replaces any earlier. */
int mbd_planar_set_gravity(mbd_planar_model *pm, double gx, double gy);
/* A constant force F at the point p of body i (p in the body frame; F in the
 * global frame or the body frame, as `frame` says). */
int mbd_planar_add_force(mbd_planar_model *pm, int i, const double p[2], const double F[2],
                         mbd_planar_frame frame);
/* A constant torque T on body i (counter-clockwise positive). */
int mbd_planar_add_torque(mbd_planar_model *pm, int i, double T);
/* A user force (see mbd_planar_force_fn); user must outlive the model. */
int mbd_planar_add_user_force(mbd_planar_model *pm, mbd_planar_force_fn fn, void *user);

/* Fixes n and m and makes the system and its coordinate names. MBD_EINPUT
 * when there is no moving body, when it was finished already, or the status
 * of the first error while building. */
int mbd_planar_finish(mbd_planar_model *pm);

/* The assembled system (s->model is pm); NULL before a successful finish. */
const mbd_system *mbd_planar_system(const mbd_planar_model *pm);

/* The first error while building (status GSL_SUCCESS when there was none). */
const mbd_failure *mbd_planar_failure(const mbd_planar_model *pm);

/* ------------------------------------------------------------------------ */
/* Looking things up                                                         */

size_t mbd_planar_n_bodies(const mbd_planar_model *pm);   /* grounds included */
size_t mbd_planar_n_joints(const mbd_planar_model *pm);
/* The index of the body labelled `label`, or -1. */
int mbd_planar_body_index(const mbd_planar_model *pm, int label);
/* The index in q of body b's x (its y and theta follow). MBD_EINPUT for a
 * bad index or a ground. */
int mbd_planar_body_coordinates(const mbd_planar_model *pm, int b, size_t *first);
/* The index in q of the coordinate named `name` ("x4", "theta2"); MBD_EINPUT
 * when no coordinate has that name. */
int mbd_planar_coordinate(const mbd_planar_model *pm, const char *name, size_t *index);
/* Joint k's rows: first and count (lambda[first .. first + count - 1]), its
 * kind and bodies (j = -1 for the one-body joints); any pointer may be NULL.
 * MBD_EINPUT for a bad index. */
int mbd_planar_joint_info(const mbd_planar_model *pm, int k, size_t *first, size_t *count,
                          mbd_planar_joint_kind *kind, int *i, int *j);

/* ------------------------------------------------------------------------ */
/* States (after mbd_planar_finish; q, qd of size n)                          */

/* Body b's pose (x, y, theta) into q, its velocity (x', y', theta') into qd. */
int mbd_planar_set_pose(const mbd_planar_model *pm, int b, double x, double y, double theta,
                        gsl_vector *q);
int mbd_planar_set_velocity(const mbd_planar_model *pm, int b, double vx, double vy, double w,
                            gsl_vector *qd);
/* Body b's pose from q ((0, 0, 0) for a ground). */
int mbd_planar_pose(const mbd_planar_model *pm, int b, const gsl_vector *q, double pose[3]);
/* The global position and velocity of the point p (body b's frame). */
int mbd_planar_point_position(const mbd_planar_model *pm, int b, const double p[2],
                              const gsl_vector *q, double r[2]);
int mbd_planar_point_velocity(const mbd_planar_model *pm, int b, const double p[2],
                              const gsl_vector *q, const gsl_vector *qd, double v[2]);
/* Adds to Q (size n) the generalized force of the force F (global frame)
 * acting at the point p of body b: Q_R += F, Q_theta += (A p) x F. Nothing
 * for a ground. For user force callbacks. */
int mbd_planar_apply_force(const mbd_planar_model *pm, int b, const double p[2],
                           const double F[2], const gsl_vector *q, gsl_vector *Q);

/* ------------------------------------------------------------------------ */
/* Reactions                                                                 */

/* The reaction of a joint on one of its bodies: the force F (global frame)
 * acting on the body at the global point `point`, and the torque T on the
 * body about that point (counter-clockwise positive). */
typedef struct {
    double point[2];
    double F[2];
    double T;
} mbd_planar_reaction;

/* The reactions of joint k on its body i (on_i) and its body j (on_j; the
 * ground for the one-body joints) at positions q, from the multipliers lambda
 * (all m of them, in the sign of M q'' + C_q^T lambda = F; see the overview
 * for the point). Either output may be NULL. */
int mbd_planar_reactions(const mbd_planar_model *pm, int k, const gsl_vector *q,
                         const gsl_vector *lambda, mbd_planar_reaction *on_i,
                         mbd_planar_reaction *on_j);

#ifdef __cplusplus
}
#endif

#endif
