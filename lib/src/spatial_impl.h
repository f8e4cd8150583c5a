/* lib/src/spatial_impl.h -- the spatial model's insides, shared by
 * spatial_model.c (building, names, states), spatial_constraints.c (the
 * rows), spatial_forces.c (mass, forces, energy) and spatial_analysis.c
 * (assembly, velocities, kinematics, inverse dynamics). Private. */
#ifndef MBD_SPATIAL_IMPL_H
#define MBD_SPATIAL_IMPL_H

#include <stddef.h>

#include <gsl/gsl_matrix.h>
#include <gsl/gsl_permutation.h>
#include <gsl/gsl_vector.h>

#include "mbd/error.h"
#include "mbd/spatial.h"
#include "mbd/system.h"

/* The global frame as a constraint side (the ground joint's other side) */
#define SP_GLOBAL (-1)
#define SP_NONE ((size_t)-1)

typedef struct {
    char name[MBD_SPATIAL_NAME_MAX + 1];
    int ground;
    double m, J[3][3];
    double kappa;            /* the mass shift of this body (set at finish) */
    size_t col;              /* index of r in q (moving bodies); p at col + 3 */
} sp_body;

/* One scalar row of C */
typedef struct {
    mbd_spatial_row_kind kind;
    int i, j;                /* body indices, or SP_GLOBAL (identity pose, no columns) */
    double sp[3], sq[3];     /* points on i and on j (body frames) */
    double ai[3], aj[3];     /* vectors on i and on j (DP1: both; DP2: ai) */
    double c[3];             /* CD: the coordinate selector */
    double p0[4];            /* orientation rows: the held orientation */
    int axis;                /* orientation rows: which component of G(p0) p */
    mbd_spatial_fn f;
    int rheonomic;           /* f depends on t */
    int joint;               /* -1: a normalisation row */
    char name[MBD_SPATIAL_ROW_NAME_MAX + 1];
} sp_row;

typedef struct {
    char name[MBD_SPATIAL_NAME_MAX + 1];
    mbd_spatial_joint_kind kind;
    int i, j;
    double sp[3], sq[3];     /* the joint's points (reactions about them) */
    int has_point;
    size_t first, count;     /* rows */
} sp_joint;

typedef enum { SP_FORCE, SP_TORQUE, SP_VTORQUE, SP_TSDA } sp_force_kind;

typedef struct {
    char name[MBD_SPATIAL_NAME_MAX + 1];
    sp_force_kind kind;
    int i, j;                /* the body (i), and j for a TSDA */
    double sp[3], sq[3];     /* the points */
    double v[3];             /* the constant force or torque */
    mbd_spatial_frame frame;
    mbd_spatial_torque_fn torque;
    double k, l0, c;         /* TSDA */
    mbd_spatial_actuator_fn act;
    void *user;
} sp_force;

/* The analyses' workspace, allocated at finish (n coordinates, m rows) */
typedef struct {
    gsl_matrix *Cq;          /* m x n */
    gsl_matrix *W;           /* n x m: a transpose being factored (QRPT) */
    gsl_vector *tau;         /* min(n, m) */
    size_t *perm;            /* m: the permutation's storage */
    gsl_vector *norm;        /* m */
    gsl_vector *phi, *rhs, *res;     /* m */
    gsl_vector *x, *xs, *y, *qtry;   /* n */
    gsl_vector *qd, *qdd, *lambda;   /* n, n, m: the runs' states */
    gsl_matrix *M;           /* n x n */
    gsl_vector *F;           /* n */
    size_t *cols;            /* n: the unknown columns of a velocity solve */
    /* the last factorisation */
    size_t k, cols_used, rank;       /* rows and columns of the factored A, its rank */
} sp_work;

struct mbd_spatial_model {
    sp_body *bodies;
    size_t nb, cap_b;
    sp_joint *joints;
    size_t nj, cap_j;
    sp_row *rows;
    size_t nr, cap_r;        /* the joints' rows; the normalisation rows are added at finish */
    sp_force *forces;
    size_t nf, cap_f;
    double g[3];
    double shift;
    size_t n, m, moving;
    int finished, rheonomic;
    char (*names)[72];       /* n coordinate names */
    const char **name_ptrs;
    mbd_system sys;
    mbd_failure fail;        /* building */
    mbd_failure last;        /* the last analysis */
    sp_work w;
};

/* A side of a row or force: a body's pose and velocity at a state (the
 * identity at rest for a ground or the global frame). */
typedef struct {
    double r[3], p[4], rd[3], pd[4];
    double A[3][3];
    size_t col;              /* SP_NONE without columns */
} sp_side;

void sp_side_of(const mbd_spatial_model *sm, int b, const gsl_vector *q, const gsl_vector *qd,
                sp_side *z);

/* small vector algebra */
double sp_dot3(const double a[3], const double b[3]);
void sp_cross3(const double a[3], const double b[3], double c[3]);
/* y = A x and y = A^T x for a 3 x 3 A stored by rows (&A[0][0]) */
void sp_matvec3(const double *A, const double x[3], double y[3]);
void sp_matTvec3(const double *A, const double x[3], double y[3]);
/* y = B x (B 3 x 4) and y = B^T x */
void sp_mul34(double B[3][4], const double x[4], double y[3]);
void sp_mul34T(double B[3][4], const double x[3], double y[4]);

/* the mbd_system callbacks (spatial_constraints.c, spatial_forces.c) */
int sp_sys_constraint(const mbd_system *s, double t, const gsl_vector *q, gsl_vector *C);
int sp_sys_jacobian(const mbd_system *s, double t, const gsl_vector *q, gsl_matrix *Cq);
int sp_sys_constraint_t(const mbd_system *s, double t, const gsl_vector *q, gsl_vector *Ct);
int sp_sys_gamma(const mbd_system *s, double t, const gsl_vector *q, const gsl_vector *qd,
                 gsl_vector *gamma);
int sp_sys_mass(const mbd_system *s, double t, const gsl_vector *q, gsl_matrix *M);
int sp_sys_force(const mbd_system *s, double t, const gsl_vector *q, const gsl_vector *qd,
                 gsl_vector *F);
int sp_sys_energy(const mbd_system *s, double t, const gsl_vector *q, const gsl_vector *qd,
                  double *E);

/* row k's body blocks only (f is not evaluated; spatial_constraints.c) */
void sp_row_blocks(const mbd_spatial_model *sm, size_t k, const gsl_vector *q,
                   mbd_spatial_row_eval *out);
/* row k's Phi (f evaluated at t) and body blocks in one evaluation; nu = f'
 * (gamma is not computed); the status of f */
/* Row k's value, blocks (and gamma with with_gamma) from its sides as
 * sp_side_of gives them (for a caller that keeps each body's side once per
 * evaluation: the same numbers as sp_row_phi_blocks, mbd_spatial_eval_row) */
int sp_row_eval_sides(const mbd_spatial_model *sm, size_t k, double t, const sp_side *zi,
                      const sp_side *zj, int with_gamma, mbd_spatial_row_eval *out);
int sp_row_phi_blocks(const mbd_spatial_model *sm, size_t k, double t, const gsl_vector *q,
                      mbd_spatial_row_eval *out);

/* The per-body pieces of the mass and the forces (spatial_forces.c), which
 * sp_sys_mass and sp_sys_force assemble and the dynamics use block by block:
 * a body's p block of M, 4 G^T J_bar G + kappa p p^T (its r block is m I_3);
 * a body's own generalized force (the weight on r, the quadratic velocity
 * term and the mass shift's on p) at its p, p'; force element k's
 * generalized force added into F (only its bodies' entries are touched). */
void sp_body_mass_p(const sp_body *bd, const double p[4], double Mp[4][4]);
void sp_body_own_force(const mbd_spatial_model *sm, const sp_body *bd, const double p[4],
                       const double pd[4], double F[7]);
int sp_force_add(const mbd_spatial_model *sm, size_t k, double t, const gsl_vector *q,
                 const gsl_vector *qd, gsl_vector *F);

/* the analyses' workspace (spatial_analysis.c) */
int sp_work_alloc(sp_work *w, size_t n, size_t m);
void sp_work_free(sp_work *w);

#endif
