/* mbd/model_file.h -- a 3D model written by hand in YAML, read into a description.
 *
 * A model file names the bodies of a spatial mechanism, the joints and basic
 * constraints between them, the forces, torques and spring-damper-actuators
 * (TSDAs) on them, named output points, and the analysis to run. The format
 * is documented key by key in docs/model-format.md; the examples in
 * tests/lib/model_files/good/ are the validation cases of chapter 09.
 *
 * mbd_model_read_file() reads and checks such a file and returns a complete
 * DESCRIPTION of the model: plain data, every value as written in the file
 * (plus a few derived values, each marked "derived" below), every reference
 * to a body resolved to an index, every element with the line and column it
 * was written at. It builds nothing: a builder turns the description into a
 * spatial system, and it can report its own errors at file:line:col from the
 * positions kept here.
 *
 * Errors. The first error stops the reader. It returns a non-zero status
 * (MBD_EINPUT for anything wrong in the text, MBD_EIO when the file cannot
 * be read, GSL_ENOMEM when memory runs out), frees everything it had
 * allocated, sets *out to NULL, and fills an mbd_model_error with the
 * message "FILE:LINE:COL: what was wrong, what was expected" (line and
 * column 1-based, where the offending key or value starts), e.g.
 *
 *     a01.yaml:12:11: body 'pendulum': 'mass': expected a number greater than 0, found '-1'
 *
 * Conventions of the description (see docs/model-format.md for the file):
 *   - bodies[0] is the ground, always: the implicit one named "ground", or
 *     the body the file declares with `ground: true`. The name "ground"
 *     always refers to it. Body references (body_i, body_j, body) are
 *     indices into bodies[].
 *   - Vectors are double[3]; matrices double[9], row-major.
 *   - "in body i's frame" means the body-fixed frame of bodies[body_i].
 *   - Every time function is complete: an absent one is the constant 0.
 */
#ifndef MBD_MODEL_FILE_H
#define MBD_MODEL_FILE_H

#include <stddef.h>

#include "mbd/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where an element was written: 1-based line and column of its first
 * character (for a list item: of its first key). 0:0 for the implicit
 * ground, which is not written anywhere. */
typedef struct {
    unsigned long line, column;
} mbd_model_pos;

/* ------------------------------------------------------------------------ */
/* Time functions f(t), with f' and f'' in closed form                       */

typedef enum {
    MBD_MODEL_FN_CONSTANT,     /* value */
    MBD_MODEL_FN_POLYNOMIAL,   /* coef[0] + coef[1] t + coef[2] t^2 + ... */
    MBD_MODEL_FN_SINE,         /* amplitude sin(omega t + phase) + offset */
    MBD_MODEL_FN_SUM,          /* terms[0](t) + terms[1](t) + ... */
    MBD_MODEL_FN_COS_OF        /* cos(terms[0](t)): a dot product driven by an angle */
} mbd_model_fn_kind;

/* Sums and cos_of nest at most this deep (the outermost function is level 1). */
#define MBD_MODEL_FN_MAX_DEPTH 16

typedef struct mbd_model_fn mbd_model_fn;
struct mbd_model_fn {
    mbd_model_fn_kind kind;
    mbd_model_pos pos;
    double value;                              /* CONSTANT */
    size_t ncoef;                              /* POLYNOMIAL: ncoef >= 1 */
    double *coef;
    double amplitude, omega, phase, offset;    /* SINE (omega in rad/s, phase in rad) */
    size_t nterms;                             /* SUM: nterms >= 1; COS_OF: nterms == 1 */
    mbd_model_fn *terms;
};

/* f(t), f'(t) and f''(t) into v[0], v[1], v[2]. GSL_SUCCESS, or
 * MBD_ENONFINITE when a value overflows (v holds what was computed). */
int mbd_model_fn_eval(const mbd_model_fn *f, double t, double v[3]);

/* ------------------------------------------------------------------------ */
/* Bodies                                                                    */

typedef enum {
    MBD_MODEL_ORIENT_IDENTITY,      /* `orientation: identity`, or no orientation key */
    MBD_MODEL_ORIENT_EULER,         /* `euler_parameters: [e0, e1, e2, e3]` */
    MBD_MODEL_ORIENT_AXIS_ANGLE,    /* `axis: [..], angle: ..` */
    MBD_MODEL_ORIENT_MATRIX         /* `matrix: [[row 1], [row 2], [row 3]]` */
} mbd_model_orientation_kind;

typedef enum {
    MBD_MODEL_FRAME_GLOBAL,
    MBD_MODEL_FRAME_BODY
} mbd_model_frame;

typedef struct {
    char *name;
    mbd_model_pos pos;
    int is_ground;                  /* 1 for bodies[0] only */
    int declared;                   /* 0: the implicit ground, written nowhere */
    /* mass properties (moving bodies; 0 for the ground) */
    double mass;                    /* > 0 */
    double inertia[9];              /* J-bar about the body origin, body frame, row-major;
                                       symmetric, positive definite */
    int inertia_full;               /* 1: written as a 3x3 matrix; 0: as 3 principal values */
    /* initial pose: the guess an assembly starts from, or the pose itself */
    double r[3];                    /* position of the body origin, global */
    mbd_model_orientation_kind orientation;
    double p[4];                    /* Euler parameters [e0, e1, e2, e3]: as written for
                                       EULER (unit within 1e-9), derived otherwise (e0 >= 0) */
    double axis[3], angle;          /* AXIS_ANGLE only (axis unit, angle in rad); else 0 */
    double A[9];                    /* orientation matrix, body to global, row-major: as
                                       written for MATRIX, derived from p otherwise */
    /* initial velocities */
    int velocity_known;             /* 1: rdot and omega are given (zero when not written);
                                       0: a builder solves for them (document's Cases 2/3) */
    double rdot[3];                 /* `velocity`, global */
    double omega[3];                /* as written, in omega_frame */
    mbd_model_frame omega_frame;    /* BODY for `angular_velocity_body` (the document's
                                       omega-bar), GLOBAL for `angular_velocity_global` */
    double omega_bar[3];            /* derived: the angular velocity in the body frame */
} mbd_model_body;

/* ------------------------------------------------------------------------ */
/* Joints: each one a fixed set of basic constraints (the builder's business) */

typedef enum {
    MBD_MODEL_JOINT_SPHERICAL,             /* point_i = point_j; 3 rows */
    MBD_MODEL_JOINT_REVOLUTE,              /* + axis_i parallel to axis_j; 5 rows */
    MBD_MODEL_JOINT_CYLINDRICAL,           /* points on one line along the axes; 4 rows */
    MBD_MODEL_JOINT_TRANSLATIONAL,         /* cylindrical + normal_i parallel to normal_j; 5 rows */
    MBD_MODEL_JOINT_UNIVERSAL,             /* point_i = point_j, axis_i perpendicular to axis_j; 4 rows */
    MBD_MODEL_JOINT_REVOLUTE_CYLINDRICAL   /* axis_i perpendicular to axis_j, point_i on the
                                              line through point_j along axis_j; 3 rows */
} mbd_model_joint_type;

typedef struct {
    char *name;
    mbd_model_pos pos;
    mbd_model_joint_type type;
    size_t body_i, body_j;          /* indices into bodies[], different */
    double point_i[3], point_j[3];  /* in body i's / body j's frame */
    double axis_i[3], axis_j[3];    /* unit, in the bodies' frames; zero for SPHERICAL */
    double normal_i[3], normal_j[3];/* TRANSLATIONAL only: unit, perpendicular to the axis on
                                       the same body; zero otherwise */
} mbd_model_joint;

/* The joint's type as written in a file ("revolute-cylindrical"), and its
 * number of scalar constraint equations (3, 5, 4, 5, 4, 3). */
const char *mbd_model_joint_type_name(mbd_model_joint_type type);
int mbd_model_joint_rows(mbd_model_joint_type type);

/* ------------------------------------------------------------------------ */
/* Basic constraints: one scalar equation g(q) = f(t) each                   */

typedef enum {
    MBD_MODEL_CON_DP1,   /* a_i . a_j = f                        (a_i on i, a_j on j) */
    MBD_MODEL_CON_DP2,   /* a_i . d_ij = f, d_ij = P_j - P_i     (a_i on i) */
    MBD_MODEL_CON_D,     /* d_ij . d_ij = f: f is the SQUARED distance */
    MBD_MODEL_CON_CD     /* c . d_ij = f, c the global unit vector of `coordinate` */
} mbd_model_con_type;

typedef struct {
    char *name;
    mbd_model_pos pos;
    mbd_model_con_type type;
    size_t body_i, body_j;
    double a_i[3], a_j[3];          /* DP1: both; DP2: a_i; non-zero, body frames */
    double point_i[3], point_j[3];  /* DP2, D, CD: P on i, Q on j, body frames */
    int coordinate;                 /* CD: 0 x, 1 y, 2 z */
    mbd_model_fn f;                 /* the right-hand side (constant 0 when not written) */
    int driving;                    /* 1: a driving constraint; default: f is not constant */
} mbd_model_constraint;

const char *mbd_model_con_type_name(mbd_model_con_type type);

/* ------------------------------------------------------------------------ */
/* Forces, torques, TSDAs, output points                                     */

typedef struct {
    char *name;
    mbd_model_pos pos;
    size_t body;
    double force[3];                /* constant, in `frame` */
    double point[3];                /* point of application, body frame */
    mbd_model_frame frame;          /* default GLOBAL */
} mbd_model_force;

typedef enum {
    MBD_MODEL_TORQUE_CONSTANT,      /* torque[3] */
    MBD_MODEL_TORQUE_FUNCTION,      /* magnitude(t) about the unit vector axis[3] */
    MBD_MODEL_TORQUE_CALLBACK       /* computed by a function the program registers by name */
} mbd_model_torque_kind;

typedef struct {
    char *name;
    mbd_model_pos pos;
    size_t body;
    mbd_model_torque_kind kind;
    mbd_model_frame frame;          /* default BODY (the document's constant torques) */
    double torque[3];               /* CONSTANT */
    double axis[3];                 /* FUNCTION */
    mbd_model_fn magnitude;         /* FUNCTION */
    char *callback;                 /* CALLBACK: the registered name */
} mbd_model_torque;

/* f = stiffness (l - free_length) + damping l' + actuator(t), pulling P_i
 * towards Q_j when positive (tension); l = |d_ij|. */
typedef struct {
    char *name;
    mbd_model_pos pos;
    size_t body_i, body_j;
    double point_i[3], point_j[3];  /* body frames */
    double stiffness, damping, free_length;   /* each >= 0; damping 0 by default */
    mbd_model_fn actuator;          /* constant 0 when not written */
} mbd_model_tsda;

typedef struct {
    char *name;
    mbd_model_pos pos;
    size_t body;
    double point[3];                /* body frame */
} mbd_model_output_point;

/* ------------------------------------------------------------------------ */
/* The analysis                                                              */

typedef enum {
    MBD_MODEL_ANALYSIS_NONE,        /* the file has no `analysis` */
    MBD_MODEL_ANALYSIS_ASSEMBLY,
    MBD_MODEL_ANALYSIS_KINEMATICS,
    MBD_MODEL_ANALYSIS_INVERSE_DYNAMICS,
    MBD_MODEL_ANALYSIS_DYNAMICS
} mbd_model_analysis_type;

typedef enum {
    MBD_MODEL_NEWTON_DEFAULT,       /* not written: the builder's choice */
    MBD_MODEL_NEWTON_FULL,
    MBD_MODEL_NEWTON_MODIFIED,
    MBD_MODEL_NEWTON_QUASI
} mbd_model_newton;

typedef struct {
    mbd_model_analysis_type type;
    mbd_model_pos pos;
    double t_start;                 /* default 0 */
    double t_end, h;                /* t_end > t_start, h > 0; NAN for an assembly */
    int assemble;                   /* run an assembly first: default 1 */
    char *integrator;               /* NULL: not written (the builder's default) */
    mbd_model_pos integrator_pos;
    mbd_model_newton newton;
    double rtol, atol;              /* > 0, or NAN when not written */
    double tolerance;               /* Newton tolerance > 0, or NAN */
    long max_iterations;            /* > 0, or 0 when not written */
} mbd_model_analysis;

const char *mbd_model_analysis_type_name(mbd_model_analysis_type type);

/* ------------------------------------------------------------------------ */
/* The model                                                                 */

typedef struct {
    char *source;                   /* the file name the reader was given */
    char *name;
    char *description;              /* NULL when not written */
    double gravity[3];
    size_t nbodies;                 /* >= 2: the ground and at least one moving body */
    mbd_model_body *bodies;
    size_t njoints;
    mbd_model_joint *joints;
    size_t nconstraints;
    mbd_model_constraint *constraints;
    size_t nforces;
    mbd_model_force *forces;
    size_t ntorques;
    mbd_model_torque *torques;
    size_t ntsdas;
    mbd_model_tsda *tsdas;
    size_t noutputs;
    mbd_model_output_point *outputs;
    mbd_model_analysis analysis;
} mbd_model_desc;

/* The error of a failed read. message is empty after a success. */
typedef struct {
    int status;                     /* GSL_SUCCESS, MBD_EINPUT, MBD_EIO or GSL_ENOMEM */
    unsigned long line, column;     /* 1-based; 0 when the error has no place */
    char message[1024];             /* "FILE:LINE:COL: what" (or "FILE: what") */
} mbd_model_error;

/* Reads the model file at path. On success returns GSL_SUCCESS and *out (to
 * free with mbd_model_desc_free); otherwise the status, *out = NULL and
 * err filled in (err may be NULL). Files over 16 MiB are refused. */
int mbd_model_read_file(const char *path, mbd_model_desc **out, mbd_model_error *err);

/* The same for a text in memory (n bytes; it need not end in NUL); source
 * is the name the messages use. */
int mbd_model_read_string(const char *text, size_t n, const char *source, mbd_model_desc **out,
                          mbd_model_error *err);

void mbd_model_desc_free(mbd_model_desc *m);

/* The index of the body with that name ("ground" is always bodies[0]), or
 * -1 when there is none. */
long mbd_model_find_body(const mbd_model_desc *m, const char *name);

/* Copies an error into a failure record (its cause is shorter: the message
 * is cut at 255 characters). */
void mbd_model_error_to_failure(const mbd_model_error *e, mbd_failure *f);

/* The tolerances the reader holds unit vectors, Euler parameters and
 * rotation matrices to. */
#define MBD_MODEL_UNIT_TOL 1e-9

#ifdef __cplusplus
}
#endif

#endif
