/* Planar bodies, joints, drivers and forces assembled into an mbd_system
 * (see planar.h; document 001, Secs. 1 and 4). */
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "mbd/error.h"
#include "mbd/planar.h"

/* ------------------------------------------------------------------------ */
/* The model                                                                 */

typedef struct {
    int label;
    int ground;              /* no coordinates */
    double m, J, uc[2];
    size_t coord;            /* index of x in q (moving bodies) */
} body;

typedef struct {
    mbd_planar_joint_kind kind;
    int i, j;                /* j = -1 for the one-body joints */
    double pi[2], pj[2];     /* joint points in the bodies' frames */
    double nbar[2];          /* translational: the unit normal of the axis, body j's frame */
    double phi0;             /* translational, rigid: theta_i - theta_j */
    double pose[3];          /* ground joint */
    mbd_planar_coord coord;  /* coordinate driver */
    mbd_planar_function f;   /* drivers */
    size_t row, rows;
} joint;

typedef enum { FORCE_POINT, FORCE_TORQUE, FORCE_USER } force_kind;

typedef struct {
    force_kind kind;
    int b;
    double p[2], F[2], T;
    mbd_planar_frame frame;
    mbd_planar_force_fn fn;
    void *user;
} force;

struct mbd_planar_model {
    body *bodies;
    size_t nb, cap_b;
    joint *joints;
    size_t nj, cap_j;
    force *forces;
    size_t nf, cap_f;
    double g[2];
    size_t n, m;             /* coordinates and rows so far */
    int finished, drivers;
    char **names;            /* n names, one allocation for the pointers and the text */
    mbd_system sys;
    mbd_failure fail;
};

static const char *const joint_names[] = {
    "revolute", "translational", "rigid", "ground joint", "coordinate driver", "angle driver",
};

/* Records the first error (later ones are consequences); returns -1 for the
 * add functions to hand back. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static int refuse(mbd_planar_model *pm, int status, const char *fmt, ...)
{
    if (pm->fail.status == GSL_SUCCESS) {
        va_list ap;
        va_start(ap, fmt);
        mbd_failure_vset(&pm->fail, status, NAN, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* Whether the model takes another addition (not finished, no error yet). */
static int open_for(mbd_planar_model *pm, const char *what)
{
    if (pm->fail.status != GSL_SUCCESS)
        return 0;
    if (pm->finished) {
        refuse(pm, MBD_EINPUT, "%s: the model is finished already", what);
        return 0;
    }
    return 1;
}

static int finite2(const double v[2]) { return isfinite(v[0]) && isfinite(v[1]); }

static int grow(void **p, size_t *cap, size_t count, size_t size)
{
    if (count < *cap)
        return GSL_SUCCESS;
    size_t ncap = *cap ? 2 * *cap : 8;
    void *q = realloc(*p, ncap * size);
    if (q == NULL)
        return GSL_ENOMEM;
    *p = q;
    *cap = ncap;
    return GSL_SUCCESS;
}

mbd_planar_model *mbd_planar_alloc(void)
{
    mbd_planar_model *pm = calloc(1, sizeof *pm);
    if (pm != NULL)
        mbd_failure_clear(&pm->fail);
    return pm;
}

void mbd_planar_free(mbd_planar_model *pm)
{
    if (pm == NULL)
        return;
    free(pm->bodies);
    free(pm->joints);
    free(pm->forces);
    free(pm->names);
    free(pm);
}

const mbd_failure *mbd_planar_failure(const mbd_planar_model *pm)
{
    static const mbd_failure no_model = {.status = MBD_EINPUT, .time = 0.0, .cause = "no model"};
    return pm != NULL ? &pm->fail : &no_model;
}

static int add_body(mbd_planar_model *pm, int label, int ground, double m, double J,
                    const double uc[2])
{
    const char *what = ground ? "ground" : "body";
    if (pm == NULL)
        return -1;
    if (!open_for(pm, what))
        return -1;
    if (label < 0)
        return refuse(pm, MBD_EINPUT, "%s %d: a label must be >= 0", what, label);
    for (size_t k = 0; k < pm->nb; k++)
        if (pm->bodies[k].label == label)
            return refuse(pm, MBD_EINPUT, "%s %d: the label is taken by body index %zu", what,
                          label, k);
    if (!ground) {
        if (!(m > 0 && isfinite(m)))
            return refuse(pm, MBD_EINPUT, "body %d: the mass must be positive (got %g)", label,
                          m);
        if (!(J >= 0 && isfinite(J)))
            return refuse(pm, MBD_EINPUT,
                          "body %d: the moment of inertia must be >= 0 (got %g)", label, J);
        if (uc != NULL && !finite2(uc))
            return refuse(pm, MBD_EINPUT, "body %d: the centre of mass is not finite", label);
    }
    if (pm->nb >= (size_t)INT_MAX
        || grow((void **)&pm->bodies, &pm->cap_b, pm->nb, sizeof *pm->bodies) != GSL_SUCCESS)
        return refuse(pm, GSL_ENOMEM, "%s %d: out of memory", what, label);
    body *b = &pm->bodies[pm->nb];
    *b = (body){.label = label, .ground = ground, .m = m, .J = J};
    if (uc != NULL) {
        b->uc[0] = uc[0];
        b->uc[1] = uc[1];
    }
    if (!ground) {
        b->coord = pm->n;
        pm->n += 3;
    }
    return (int)pm->nb++;
}

int mbd_planar_add_body(mbd_planar_model *pm, int label, double m, double J, const double uc[2])
{
    return add_body(pm, label, 0, m, J, uc);
}

int mbd_planar_add_ground(mbd_planar_model *pm, int label)
{
    return add_body(pm, label, 1, 0.0, 0.0, NULL);
}

static int valid_body(const mbd_planar_model *pm, int b)
{
    return b >= 0 && (size_t)b < pm->nb;
}

static int moving(const mbd_planar_model *pm, int b)
{
    return valid_body(pm, b) && !pm->bodies[b].ground;
}

/* Checks a joint's bodies and appends it; returns its index or -1. */
static int add_joint(mbd_planar_model *pm, joint jt)
{
    const char *what = joint_names[jt.kind];
    if (!open_for(pm, what))
        return -1;
    int k = (int)pm->nj;
    if (!valid_body(pm, jt.i))
        return refuse(pm, MBD_EINPUT, "%s (joint %d): no body with index %d (%zu bodies)", what,
                      k, jt.i, pm->nb);
    if (jt.j != -1 || jt.kind == MBD_PLANAR_REVOLUTE || jt.kind == MBD_PLANAR_TRANSLATIONAL
        || jt.kind == MBD_PLANAR_RIGID || jt.kind == MBD_PLANAR_ANGLE_DRIVER) {
        if (!valid_body(pm, jt.j))
            return refuse(pm, MBD_EINPUT, "%s (joint %d): no body with index %d (%zu bodies)",
                          what, k, jt.j, pm->nb);
        if (jt.i == jt.j)
            return refuse(pm, MBD_EINPUT, "%s (joint %d): joins body %d to itself", what, k,
                          pm->bodies[jt.i].label);
        if (pm->bodies[jt.i].ground && pm->bodies[jt.j].ground)
            return refuse(pm, MBD_EINPUT, "%s (joint %d): joins two grounds (%d and %d)", what,
                          k, pm->bodies[jt.i].label, pm->bodies[jt.j].label);
    } else if (pm->bodies[jt.i].ground) {
        return refuse(pm, MBD_EINPUT, "%s (joint %d): body %d is a ground (no coordinates)",
                      what, k, pm->bodies[jt.i].label);
    }
    if (!finite2(jt.pi) || !finite2(jt.pj) || !isfinite(jt.phi0) || !isfinite(jt.pose[0])
        || !isfinite(jt.pose[1]) || !isfinite(jt.pose[2]))
        return refuse(pm, MBD_EINPUT, "%s (joint %d): a point, angle or pose is not finite", what,
                      k);
    if (pm->nj >= (size_t)INT_MAX
        || grow((void **)&pm->joints, &pm->cap_j, pm->nj, sizeof *pm->joints) != GSL_SUCCESS)
        return refuse(pm, GSL_ENOMEM, "%s (joint %d): out of memory", what, k);
    jt.row = pm->m;
    pm->m += jt.rows;
    if (jt.kind == MBD_PLANAR_COORDINATE_DRIVER || jt.kind == MBD_PLANAR_ANGLE_DRIVER)
        pm->drivers = 1;
    pm->joints[pm->nj++] = jt;
    return k;
}

static void copy2(double dst[2], const double src[2])
{
    if (src != NULL) {
        dst[0] = src[0];
        dst[1] = src[1];
    } else {
        dst[0] = dst[1] = 0.0;
    }
}

int mbd_planar_add_revolute(mbd_planar_model *pm, int i, const double pi[2], int j,
                            const double pj[2])
{
    if (pm == NULL)
        return -1;
    joint jt = {.kind = MBD_PLANAR_REVOLUTE, .i = i, .j = j, .rows = 2};
    copy2(jt.pi, pi);
    copy2(jt.pj, pj);
    return add_joint(pm, jt);
}

int mbd_planar_add_translational(mbd_planar_model *pm, int i, const double pi[2], int j,
                                 const double pj[2], const double axis[2], double phi0)
{
    if (pm == NULL)
        return -1;
    joint jt = {.kind = MBD_PLANAR_TRANSLATIONAL, .i = i, .j = j, .phi0 = phi0, .rows = 2};
    copy2(jt.pi, pi);
    copy2(jt.pj, pj);
    double len = axis != NULL && finite2(axis) ? hypot(axis[0], axis[1]) : 0.0;
    if (!(len > 0 && isfinite(len))) {
        if (!open_for(pm, "translational"))
            return -1;
        return refuse(pm, MBD_EINPUT, "translational (joint %zu): the axis is zero or not finite",
                      pm->nj);
    }
    jt.nbar[0] = -axis[1] / len;   /* the axis turned a quarter left */
    jt.nbar[1] = axis[0] / len;
    return add_joint(pm, jt);
}

int mbd_planar_add_rigid(mbd_planar_model *pm, int i, const double pi[2], int j,
                         const double pj[2], double phi0)
{
    if (pm == NULL)
        return -1;
    joint jt = {.kind = MBD_PLANAR_RIGID, .i = i, .j = j, .phi0 = phi0, .rows = 3};
    copy2(jt.pi, pi);
    copy2(jt.pj, pj);
    return add_joint(pm, jt);
}

int mbd_planar_add_ground_joint(mbd_planar_model *pm, int i, const double pose[3])
{
    if (pm == NULL)
        return -1;
    joint jt = {.kind = MBD_PLANAR_GROUND_JOINT, .i = i, .j = -1, .rows = 3};
    if (pose != NULL)
        memcpy(jt.pose, pose, sizeof jt.pose);
    return add_joint(pm, jt);
}

static int function_ok(const mbd_planar_function *f)
{
    return f->eval != NULL || (isfinite(f->c[0]) && isfinite(f->c[1]) && isfinite(f->c[2]));
}

int mbd_planar_add_coordinate_driver(mbd_planar_model *pm, int i, mbd_planar_coord c,
                                     mbd_planar_function f)
{
    if (pm == NULL)
        return -1;
    if (!open_for(pm, "coordinate driver"))
        return -1;
    if (c != MBD_PLANAR_X && c != MBD_PLANAR_Y && c != MBD_PLANAR_THETA)
        return refuse(pm, MBD_EINPUT, "coordinate driver (joint %zu): no coordinate %d", pm->nj,
                      (int)c);
    if (!function_ok(&f))
        return refuse(pm, MBD_EINPUT, "coordinate driver (joint %zu): coefficients not finite",
                      pm->nj);
    joint jt = {.kind = MBD_PLANAR_COORDINATE_DRIVER, .i = i, .j = -1, .coord = c, .f = f,
                .rows = 1};
    return add_joint(pm, jt);
}

int mbd_planar_add_angle_driver(mbd_planar_model *pm, int i, int j, mbd_planar_function f)
{
    if (pm == NULL)
        return -1;
    if (!open_for(pm, "angle driver"))
        return -1;
    if (!function_ok(&f))
        return refuse(pm, MBD_EINPUT, "angle driver (joint %zu): coefficients not finite",
                      pm->nj);
    joint jt = {.kind = MBD_PLANAR_ANGLE_DRIVER, .i = i, .j = j, .f = f, .rows = 1};
    return add_joint(pm, jt);
}

mbd_planar_function mbd_planar_constant_speed(double f0, double rate)
{
    return (mbd_planar_function){.eval = NULL, .user = NULL, .c = {f0, rate, 0.0}};
}

mbd_planar_function mbd_planar_constant_accel(double f0, double rate0, double accel)
{
    return (mbd_planar_function){.eval = NULL, .user = NULL, .c = {f0, rate0, accel}};
}

mbd_planar_function mbd_planar_user_function(mbd_planar_eval eval, void *user)
{
    return (mbd_planar_function){.eval = eval, .user = user, .c = {0.0, 0.0, 0.0}};
}

int mbd_planar_set_gravity(mbd_planar_model *pm, double gx, double gy)
{
    if (pm == NULL)
        return MBD_EINPUT;
    if (!open_for(pm, "gravity"))
        return pm->fail.status;
    if (!(isfinite(gx) && isfinite(gy))) {
        refuse(pm, MBD_EINPUT, "gravity: not finite");
        return MBD_EINPUT;
    }
    pm->g[0] = gx;
    pm->g[1] = gy;
    return GSL_SUCCESS;
}

static int add_force(mbd_planar_model *pm, force f, const char *what)
{
    if (!open_for(pm, what))
        return -1;
    int k = (int)pm->nf;
    if (f.kind != FORCE_USER) {
        if (!valid_body(pm, f.b))
            return refuse(pm, MBD_EINPUT, "%s %d: no body with index %d (%zu bodies)", what, k,
                          f.b, pm->nb);
        if (pm->bodies[f.b].ground)
            return refuse(pm, MBD_EINPUT, "%s %d: body %d is a ground", what, k,
                          pm->bodies[f.b].label);
        if (!finite2(f.p) || !finite2(f.F) || !isfinite(f.T))
            return refuse(pm, MBD_EINPUT, "%s %d: not finite", what, k);
        if (f.frame != MBD_PLANAR_GLOBAL && f.frame != MBD_PLANAR_BODY)
            return refuse(pm, MBD_EINPUT, "%s %d: no frame %d", what, k, (int)f.frame);
    } else if (f.fn == NULL) {
        return refuse(pm, MBD_EINPUT, "%s %d: no function", what, k);
    }
    if (pm->nf >= (size_t)INT_MAX
        || grow((void **)&pm->forces, &pm->cap_f, pm->nf, sizeof *pm->forces) != GSL_SUCCESS)
        return refuse(pm, GSL_ENOMEM, "%s %d: out of memory", what, k);
    pm->forces[pm->nf++] = f;
    return k;
}

int mbd_planar_add_force(mbd_planar_model *pm, int i, const double p[2], const double F[2],
                         mbd_planar_frame frame)
{
    if (pm == NULL)
        return -1;
    force f = {.kind = FORCE_POINT, .b = i, .frame = frame};
    copy2(f.p, p);
    copy2(f.F, F);
    return add_force(pm, f, "force");
}

int mbd_planar_add_torque(mbd_planar_model *pm, int i, double T)
{
    if (pm == NULL)
        return -1;
    force f = {.kind = FORCE_TORQUE, .b = i, .T = T, .frame = MBD_PLANAR_GLOBAL};
    return add_force(pm, f, "torque");
}

int mbd_planar_add_user_force(mbd_planar_model *pm, mbd_planar_force_fn fn, void *user)
{
    if (pm == NULL)
        return -1;
    force f = {.kind = FORCE_USER, .b = -1, .fn = fn, .user = user, .frame = MBD_PLANAR_GLOBAL};
    return add_force(pm, f, "user force");
}

/* ------------------------------------------------------------------------ */
/* Kinematics                                                                */

/* A body's pose and velocity at a state (zero for a ground). */
typedef struct {
    double R[2], c, s;       /* reference point, cos and sin of theta */
    double th;
    double V[2], w;          /* R' and theta' */
    int moving;
    size_t k;                /* index of x in q */
} kin;

static kin kin_of(const mbd_planar_model *pm, int b, const gsl_vector *q, const gsl_vector *qd)
{
    kin z = {.c = 1.0};
    const body *bd = &pm->bodies[b];
    if (bd->ground)
        return z;
    z.moving = 1;
    z.k = bd->coord;
    z.R[0] = gsl_vector_get(q, z.k);
    z.R[1] = gsl_vector_get(q, z.k + 1);
    z.th = gsl_vector_get(q, z.k + 2);
    z.c = cos(z.th);
    z.s = sin(z.th);
    if (qd != NULL) {
        z.V[0] = gsl_vector_get(qd, z.k);
        z.V[1] = gsl_vector_get(qd, z.k + 1);
        z.w = gsl_vector_get(qd, z.k + 2);
    }
    return z;
}

/* a = A u */
static void rot(const kin *z, const double u[2], double a[2])
{
    a[0] = z->c * u[0] - z->s * u[1];
    a[1] = z->s * u[0] + z->c * u[1];
}

/* a x b (the z component) */
static double cross(const double a[2], const double b[2]) { return a[0] * b[1] - a[1] * b[0]; }

static double dot(const double a[2], const double b[2]) { return a[0] * b[0] + a[1] * b[1]; }

/* ------------------------------------------------------------------------ */
/* Joints: C, C_q, C_t and gamma, row by row                                 */

enum { EV_C = 1, EV_JAC = 2, EV_CT = 4, EV_GAMMA = 8 };

typedef struct {
    double C[3], Ct[3], gamma[3];
    double Bi[3][3], Bj[3][3];   /* row r: dC_r/d(x, y, theta) of body i, of body j */
} joint_eval;

static int driver_values(const joint *jt, double t, double f[3])
{
    if (jt->f.eval != NULL)
        return jt->f.eval(t, f, jt->f.user);
    const double *c = jt->f.c;
    f[0] = c[0] + c[1] * t + 0.5 * c[2] * t * t;
    f[1] = c[1] + c[2] * t;
    f[2] = c[2];
    return GSL_SUCCESS;
}

/* Everything `what` asks of joint jt at (t, q, qd) (qd only for EV_GAMMA).
 * The blocks Bj are filled also when body j is a ground (as if it had
 * coordinates at the identity pose): the reactions use them. */
static int eval_joint(const mbd_planar_model *pm, const joint *jt, double t, const gsl_vector *q,
                      const gsl_vector *qd, int what, joint_eval *e)
{
    memset(e, 0, sizeof *e);
    const kin zi = kin_of(pm, jt->i, q, qd);
    const kin zj = jt->j >= 0 ? kin_of(pm, jt->j, q, qd) : (kin){.c = 1.0};
    double ai[2], aj[2];     /* the joint points relative to the reference points */
    rot(&zi, jt->pi, ai);
    rot(&zj, jt->pj, aj);
    double f[3] = {0.0, 0.0, 0.0};
    if ((jt->kind == MBD_PLANAR_COORDINATE_DRIVER || jt->kind == MBD_PLANAR_ANGLE_DRIVER)
        && (what & (EV_C | EV_CT | EV_GAMMA))) {
        int st = driver_values(jt, t, f);
        if (st != GSL_SUCCESS)
            return st;
    }

    switch (jt->kind) {
    /* >> planar-revolute */
    case MBD_PLANAR_REVOLUTE:
    case MBD_PLANAR_RIGID:
        /* r_i^P - r_j^P = R_i + A_i u_i - R_j - A_j u_j */
        for (int r = 0; r < 2; r++) {
            e->C[r] = zi.R[r] + ai[r] - zj.R[r] - aj[r];
            e->Bi[r][r] = 1.0;
            e->Bj[r][r] = -1.0;
            /* (C_q q')_q q' leaves -theta'^2 A u per point: gamma = w_i^2 a_i - w_j^2 a_j */
            e->gamma[r] = zi.w * zi.w * ai[r] - zj.w * zj.w * aj[r];
        }
        /* d(A u)/dtheta = A_theta u = (-a_y, a_x) */
        e->Bi[0][2] = -ai[1];
        e->Bi[1][2] = ai[0];
        e->Bj[0][2] = aj[1];
        e->Bj[1][2] = -aj[0];
        if (jt->kind == MBD_PLANAR_RIGID) {
            e->C[2] = zi.th - zj.th - jt->phi0;
            e->Bi[2][2] = 1.0;
            e->Bj[2][2] = -1.0;
        }
        break;
    /* << planar-revolute */

    case MBD_PLANAR_TRANSLATIONAL: {
        /* row 0: theta_i - theta_j - phi0 */
        e->C[0] = zi.th - zj.th - jt->phi0;
        e->Bi[0][2] = 1.0;
        e->Bj[0][2] = -1.0;
        /* row 1: n . d with n = A_j nbar, d = r_i^P - r_j^P */
        double n[2], d[2], ri_rel[2], dd[2];
        rot(&zj, jt->nbar, n);
        for (int r = 0; r < 2; r++) {
            d[r] = zi.R[r] + ai[r] - zj.R[r] - aj[r];
            ri_rel[r] = zi.R[r] + ai[r] - zj.R[r];          /* r_i^P - R_j */
        }
        /* d' = R_i' + w_i A_theta u_i - R_j' - w_j A_theta u_j */
        dd[0] = zi.V[0] - zi.w * ai[1] - zj.V[0] + zj.w * aj[1];
        dd[1] = zi.V[1] + zi.w * ai[0] - zj.V[1] - zj.w * aj[0];
        e->C[1] = dot(n, d);
        e->Bi[1][0] = n[0];
        e->Bi[1][1] = n[1];
        e->Bi[1][2] = cross(ai, n);                        /* n . A_theta u_i */
        e->Bj[1][0] = -n[0];
        e->Bj[1][1] = -n[1];
        e->Bj[1][2] = cross(n, ri_rel);                    /* (A_theta nbar) . d - n . A_theta u_j */
        /* C'' = n'' . d + 2 n' . d' + n . d'' with n' = w_j k x n, n'' = alpha_j k x n
         * - w_j^2 n; what is left without accelerations, negated: */
        e->gamma[1] = zj.w * zj.w * dot(n, d) - 2.0 * zj.w * cross(n, dd)
                      + zi.w * zi.w * dot(n, ai) - zj.w * zj.w * dot(n, aj);
        break;
    }

    case MBD_PLANAR_GROUND_JOINT:
        e->C[0] = zi.R[0] - jt->pose[0];
        e->C[1] = zi.R[1] - jt->pose[1];
        e->C[2] = zi.th - jt->pose[2];
        for (int r = 0; r < 3; r++) {
            e->Bi[r][r] = 1.0;
        }
        break;

    case MBD_PLANAR_COORDINATE_DRIVER: {
        const double qc = jt->coord == MBD_PLANAR_X ? zi.R[0]
                          : jt->coord == MBD_PLANAR_Y ? zi.R[1] : zi.th;
        e->C[0] = qc - f[0];
        e->Bi[0][jt->coord] = 1.0;
        e->Ct[0] = -f[1];
        e->gamma[0] = f[2];                                /* -C_tt */
        break;
    }

    case MBD_PLANAR_ANGLE_DRIVER:
        e->C[0] = zj.th - zi.th - f[0];
        e->Bi[0][2] = -1.0;
        e->Bj[0][2] = 1.0;
        e->Ct[0] = -f[1];
        e->gamma[0] = f[2];
        break;
    }
    return GSL_SUCCESS;
}

/* ------------------------------------------------------------------------ */
/* The mbd_system callbacks                                                  */

/* >> planar-mass */
static int sys_mass(const mbd_system *s, double t, const gsl_vector *q, gsl_matrix *M)
{
    (void)t;
    const mbd_planar_model *pm = s->model;
    gsl_matrix_set_zero(M);
    for (size_t b = 0; b < pm->nb; b++) {
        const body *bd = &pm->bodies[b];
        if (bd->ground)
            continue;
        const kin z = kin_of(pm, (int)b, q, NULL);
        double a[2];
        rot(&z, bd->uc, a);
        const size_t k = bd->coord;
        /* m_Rtheta = m A_theta u_c = m (-a_y, a_x) */
        const double mx = -bd->m * a[1], my = bd->m * a[0];
        gsl_matrix_set(M, k, k, bd->m);
        gsl_matrix_set(M, k + 1, k + 1, bd->m);
        gsl_matrix_set(M, k, k + 2, mx);
        gsl_matrix_set(M, k + 2, k, mx);
        gsl_matrix_set(M, k + 1, k + 2, my);
        gsl_matrix_set(M, k + 2, k + 1, my);
        gsl_matrix_set(M, k + 2, k + 2, bd->J + bd->m * dot(bd->uc, bd->uc));
    }
    return GSL_SUCCESS;
}
/* << planar-mass */

/* Q += the generalized force of F (global) at a = A p from body z's reference point */
static void add_point_force(gsl_vector *Q, const kin *z, const double a[2], const double F[2])
{
    *gsl_vector_ptr(Q, z->k) += F[0];
    *gsl_vector_ptr(Q, z->k + 1) += F[1];
    *gsl_vector_ptr(Q, z->k + 2) += cross(a, F);
}

static int sys_force(const mbd_system *s, double t, const gsl_vector *q, const gsl_vector *qd,
                     gsl_vector *F)
{
    const mbd_planar_model *pm = s->model;
    gsl_vector_set_zero(F);
    /* >> planar-weight-qv */
    for (size_t b = 0; b < pm->nb; b++) {
        const body *bd = &pm->bodies[b];
        if (bd->ground)
            continue;
        const kin z = kin_of(pm, (int)b, q, qd);
        double a[2];
        rot(&z, bd->uc, a);
        /* the weight at the centre of mass */
        const double W[2] = {bd->m * pm->g[0], bd->m * pm->g[1]};
        add_point_force(F, &z, a, W);
        /* Q_v = [theta'^2 A m u_c; 0] */
        *gsl_vector_ptr(F, z.k) += z.w * z.w * bd->m * a[0];
        *gsl_vector_ptr(F, z.k + 1) += z.w * z.w * bd->m * a[1];
    }
    /* << planar-weight-qv */
    for (size_t k = 0; k < pm->nf; k++) {
        const force *f = &pm->forces[k];
        if (f->kind == FORCE_USER)
            continue;
        const kin z = kin_of(pm, f->b, q, NULL);
        if (f->kind == FORCE_TORQUE) {
            *gsl_vector_ptr(F, z.k + 2) += f->T;
            continue;
        }
        double a[2], Fg[2];
        rot(&z, f->p, a);
        if (f->frame == MBD_PLANAR_BODY)
            rot(&z, f->F, Fg);
        else
            copy2(Fg, f->F);
        add_point_force(F, &z, a, Fg);
    }
    for (size_t k = 0; k < pm->nf; k++) {
        const force *f = &pm->forces[k];
        if (f->kind != FORCE_USER)
            continue;
        int st = f->fn(pm, t, q, qd, F, f->user);
        if (st != GSL_SUCCESS)
            return st;
    }
    return GSL_SUCCESS;
}

static int sys_constraint(const mbd_system *s, double t, const gsl_vector *q, gsl_vector *C)
{
    const mbd_planar_model *pm = s->model;
    for (size_t k = 0; k < pm->nj; k++) {
        const joint *jt = &pm->joints[k];
        joint_eval e;
        int st = eval_joint(pm, jt, t, q, NULL, EV_C, &e);
        if (st != GSL_SUCCESS)
            return st;
        for (size_t r = 0; r < jt->rows; r++)
            gsl_vector_set(C, jt->row + r, e.C[r]);
    }
    return GSL_SUCCESS;
}

static int sys_jacobian(const mbd_system *s, double t, const gsl_vector *q, gsl_matrix *Cq)
{
    const mbd_planar_model *pm = s->model;
    gsl_matrix_set_zero(Cq);
    for (size_t k = 0; k < pm->nj; k++) {
        const joint *jt = &pm->joints[k];
        joint_eval e;
        int st = eval_joint(pm, jt, t, q, NULL, EV_JAC, &e);
        if (st != GSL_SUCCESS)
            return st;
        const int bi = moving(pm, jt->i), bj = jt->j >= 0 && moving(pm, jt->j);
        const size_t ki = bi ? pm->bodies[jt->i].coord : 0;
        const size_t kj = bj ? pm->bodies[jt->j].coord : 0;
        for (size_t r = 0; r < jt->rows; r++)
            for (size_t c = 0; c < 3; c++) {
                if (bi)
                    gsl_matrix_set(Cq, jt->row + r, ki + c, e.Bi[r][c]);
                if (bj)
                    gsl_matrix_set(Cq, jt->row + r, kj + c, e.Bj[r][c]);
            }
    }
    return GSL_SUCCESS;
}

static int sys_constraint_t(const mbd_system *s, double t, const gsl_vector *q, gsl_vector *Ct)
{
    const mbd_planar_model *pm = s->model;
    for (size_t k = 0; k < pm->nj; k++) {
        const joint *jt = &pm->joints[k];
        joint_eval e;
        int st = eval_joint(pm, jt, t, q, NULL, EV_CT, &e);
        if (st != GSL_SUCCESS)
            return st;
        for (size_t r = 0; r < jt->rows; r++)
            gsl_vector_set(Ct, jt->row + r, e.Ct[r]);
    }
    return GSL_SUCCESS;
}

static int sys_gamma(const mbd_system *s, double t, const gsl_vector *q, const gsl_vector *qd,
                     gsl_vector *gamma)
{
    const mbd_planar_model *pm = s->model;
    for (size_t k = 0; k < pm->nj; k++) {
        const joint *jt = &pm->joints[k];
        joint_eval e;
        int st = eval_joint(pm, jt, t, q, qd, EV_GAMMA, &e);
        if (st != GSL_SUCCESS)
            return st;
        for (size_t r = 0; r < jt->rows; r++)
            gsl_vector_set(gamma, jt->row + r, e.gamma[r]);
    }
    return GSL_SUCCESS;
}

/* (1/2) q'^T M q' - sum m g . r_c */
static int sys_energy(const mbd_system *s, double t, const gsl_vector *q, const gsl_vector *qd,
                      double *E)
{
    (void)t;
    const mbd_planar_model *pm = s->model;
    double T = 0.0, V = 0.0;
    for (size_t b = 0; b < pm->nb; b++) {
        const body *bd = &pm->bodies[b];
        if (bd->ground)
            continue;
        const kin z = kin_of(pm, (int)b, q, qd);
        double a[2];
        rot(&z, bd->uc, a);
        /* the centre of mass moves at v_c = R' + w k x a */
        const double vc[2] = {z.V[0] - z.w * a[1], z.V[1] + z.w * a[0]};
        T += 0.5 * (bd->m * dot(vc, vc) + bd->J * z.w * z.w);
        const double rc[2] = {z.R[0] + a[0], z.R[1] + a[1]};
        V -= bd->m * dot(pm->g, rc);
    }
    *E = T + V;
    return GSL_SUCCESS;
}

/* ------------------------------------------------------------------------ */
/* Finishing                                                                 */

int mbd_planar_finish(mbd_planar_model *pm)
{
    if (pm == NULL)
        return MBD_EINPUT;
    if (pm->fail.status != GSL_SUCCESS)
        return pm->fail.status;
    if (pm->finished) {
        refuse(pm, MBD_EINPUT, "finish: the model is finished already");
        return MBD_EINPUT;
    }
    if (pm->n == 0) {
        refuse(pm, MBD_EINPUT, "finish: the model has no moving body (%zu grounds)", pm->nb);
        return MBD_EINPUT;
    }
    /* the names: n pointers, then the text, "theta" and an int's digits each */
    enum { NAME_LEN = 24 };
    pm->names = malloc(pm->n * (sizeof(char *) + NAME_LEN));
    if (pm->names == NULL) {
        refuse(pm, GSL_ENOMEM, "finish: out of memory");
        return GSL_ENOMEM;
    }
    char *text = (char *)(pm->names + pm->n);
    static const char *const stem[3] = {"x", "y", "theta"};
    for (size_t b = 0; b < pm->nb; b++) {
        const body *bd = &pm->bodies[b];
        if (bd->ground)
            continue;
        for (size_t c = 0; c < 3; c++) {
            char *name = text + (bd->coord + c) * NAME_LEN;
            snprintf(name, NAME_LEN, "%s%d", stem[c], bd->label);
            pm->names[bd->coord + c] = name;
        }
    }
    pm->sys = (mbd_system){
        .n = pm->n,
        .m = pm->m,
        .names = (const char *const *)pm->names,
        .model = pm,
        .mass = sys_mass,
        .force = sys_force,
        .constraint = sys_constraint,
        .jacobian = sys_jacobian,
        .constraint_t = pm->drivers ? sys_constraint_t : NULL,
        .gamma = sys_gamma,
        .energy = sys_energy,
    };
    pm->finished = 1;
    return GSL_SUCCESS;
}

const mbd_system *mbd_planar_system(const mbd_planar_model *pm)
{
    return pm != NULL && pm->finished ? &pm->sys : NULL;
}

/* ------------------------------------------------------------------------ */
/* Looking up                                                                */

size_t mbd_planar_n_bodies(const mbd_planar_model *pm) { return pm != NULL ? pm->nb : 0; }
size_t mbd_planar_n_joints(const mbd_planar_model *pm) { return pm != NULL ? pm->nj : 0; }

int mbd_planar_body_index(const mbd_planar_model *pm, int label)
{
    if (pm == NULL)
        return -1;
    for (size_t k = 0; k < pm->nb; k++)
        if (pm->bodies[k].label == label)
            return (int)k;
    return -1;
}

int mbd_planar_body_coordinates(const mbd_planar_model *pm, int b, size_t *first)
{
    if (pm == NULL || first == NULL || !moving(pm, b))
        return MBD_EINPUT;
    *first = pm->bodies[b].coord;
    return GSL_SUCCESS;
}

int mbd_planar_coordinate(const mbd_planar_model *pm, const char *name, size_t *index)
{
    if (pm == NULL || !pm->finished || name == NULL || index == NULL)
        return MBD_EINPUT;
    for (size_t k = 0; k < pm->n; k++)
        if (strcmp(pm->names[k], name) == 0) {
            *index = k;
            return GSL_SUCCESS;
        }
    return MBD_EINPUT;
}

int mbd_planar_joint_info(const mbd_planar_model *pm, int k, size_t *first, size_t *count,
                          mbd_planar_joint_kind *kind, int *i, int *j)
{
    if (pm == NULL || k < 0 || (size_t)k >= pm->nj)
        return MBD_EINPUT;
    const joint *jt = &pm->joints[k];
    if (first)
        *first = jt->row;
    if (count)
        *count = jt->rows;
    if (kind)
        *kind = jt->kind;
    if (i)
        *i = jt->i;
    if (j)
        *j = jt->j;
    return GSL_SUCCESS;
}

/* ------------------------------------------------------------------------ */
/* States                                                                    */

/* A finished model, a valid body (moving when `need_moving`), vectors of size n. */
static int check_state(const mbd_planar_model *pm, int b, int need_moving, const gsl_vector *v1,
                       const gsl_vector *v2)
{
    if (pm == NULL || !pm->finished || !valid_body(pm, b))
        return MBD_EINPUT;
    if (need_moving && pm->bodies[b].ground)
        return MBD_EINPUT;
    if ((v1 != NULL && v1->size != pm->n) || (v2 != NULL && v2->size != pm->n))
        return GSL_EBADLEN;
    return GSL_SUCCESS;
}

static int set3(const mbd_planar_model *pm, int b, double a, double c, double d, gsl_vector *v)
{
    if (v == NULL)
        return MBD_EINPUT;
    int st = check_state(pm, b, 1, v, NULL);
    if (st != GSL_SUCCESS)
        return st;
    const size_t k = pm->bodies[b].coord;
    gsl_vector_set(v, k, a);
    gsl_vector_set(v, k + 1, c);
    gsl_vector_set(v, k + 2, d);
    return GSL_SUCCESS;
}

int mbd_planar_set_pose(const mbd_planar_model *pm, int b, double x, double y, double theta,
                        gsl_vector *q)
{
    return set3(pm, b, x, y, theta, q);
}

int mbd_planar_set_velocity(const mbd_planar_model *pm, int b, double vx, double vy, double w,
                            gsl_vector *qd)
{
    return set3(pm, b, vx, vy, w, qd);
}

int mbd_planar_pose(const mbd_planar_model *pm, int b, const gsl_vector *q, double pose[3])
{
    if (q == NULL)
        return MBD_EINPUT;
    int st = check_state(pm, b, 0, q, NULL);
    if (st != GSL_SUCCESS)
        return st;
    const kin z = kin_of(pm, b, q, NULL);
    pose[0] = z.R[0];
    pose[1] = z.R[1];
    pose[2] = z.th;
    return GSL_SUCCESS;
}

int mbd_planar_point_position(const mbd_planar_model *pm, int b, const double p[2],
                              const gsl_vector *q, double r[2])
{
    if (q == NULL || p == NULL)
        return MBD_EINPUT;
    int st = check_state(pm, b, 0, q, NULL);
    if (st != GSL_SUCCESS)
        return st;
    const kin z = kin_of(pm, b, q, NULL);
    double a[2];
    rot(&z, p, a);
    r[0] = z.R[0] + a[0];
    r[1] = z.R[1] + a[1];
    return GSL_SUCCESS;
}

int mbd_planar_point_velocity(const mbd_planar_model *pm, int b, const double p[2],
                              const gsl_vector *q, const gsl_vector *qd, double v[2])
{
    if (q == NULL || qd == NULL || p == NULL)
        return MBD_EINPUT;
    int st = check_state(pm, b, 0, q, qd);
    if (st != GSL_SUCCESS)
        return st;
    const kin z = kin_of(pm, b, q, qd);
    double a[2];
    rot(&z, p, a);
    v[0] = z.V[0] - z.w * a[1];
    v[1] = z.V[1] + z.w * a[0];
    return GSL_SUCCESS;
}

int mbd_planar_apply_force(const mbd_planar_model *pm, int b, const double p[2],
                           const double F[2], const gsl_vector *q, gsl_vector *Q)
{
    if (q == NULL || Q == NULL || p == NULL || F == NULL)
        return MBD_EINPUT;
    int st = check_state(pm, b, 0, q, Q);
    if (st != GSL_SUCCESS)
        return st;
    if (pm->bodies[b].ground)
        return GSL_SUCCESS;
    const kin z = kin_of(pm, b, q, NULL);
    double a[2];
    rot(&z, p, a);
    add_point_force(Q, &z, a, F);
    return GSL_SUCCESS;
}

/* ------------------------------------------------------------------------ */
/* Reactions                                                                 */

/* Q_c = -B^T lambda for one body's block B (rows x 3), stated at the global
 * point P: F = Q_R, T = Q_theta - (P - R) x F. */
static void reaction_of(const double B[3][3], size_t rows, const double *lam, const double R[2],
                        const double P[2], mbd_planar_reaction *out)
{
    double Q[3] = {0.0, 0.0, 0.0};
    for (size_t r = 0; r < rows; r++)
        for (size_t c = 0; c < 3; c++)
            Q[c] -= B[r][c] * lam[r];
    const double arm[2] = {P[0] - R[0], P[1] - R[1]};
    out->point[0] = P[0];
    out->point[1] = P[1];
    out->F[0] = Q[0];
    out->F[1] = Q[1];
    out->T = Q[2] - cross(arm, out->F);
}

int mbd_planar_reactions(const mbd_planar_model *pm, int k, const gsl_vector *q,
                         const gsl_vector *lambda, mbd_planar_reaction *on_i,
                         mbd_planar_reaction *on_j)
{
    if (pm == NULL || !pm->finished || q == NULL || lambda == NULL || k < 0
        || (size_t)k >= pm->nj)
        return MBD_EINPUT;
    if (q->size != pm->n || lambda->size != pm->m)
        return GSL_EBADLEN;
    const joint *jt = &pm->joints[k];
    joint_eval e;
    int st = eval_joint(pm, jt, 0.0, q, NULL, EV_JAC, &e);
    if (st != GSL_SUCCESS)
        return st;
    double lam[3] = {0.0, 0.0, 0.0};
    for (size_t r = 0; r < jt->rows; r++)
        lam[r] = gsl_vector_get(lambda, jt->row + r);

    const kin zi = kin_of(pm, jt->i, q, NULL);
    const kin zj = jt->j >= 0 ? kin_of(pm, jt->j, q, NULL) : zi;
    double P[2];
    switch (jt->kind) {
    case MBD_PLANAR_REVOLUTE:
    case MBD_PLANAR_TRANSLATIONAL:
    case MBD_PLANAR_RIGID: {
        double a[2];
        rot(&zi, jt->pi, a);
        P[0] = zi.R[0] + a[0];
        P[1] = zi.R[1] + a[1];
        break;
    }
    default:
        P[0] = zi.R[0];
        P[1] = zi.R[1];
        break;
    }
    mbd_planar_reaction ri, rj;
    reaction_of((const double(*)[3])e.Bi, jt->rows, lam, zi.R, P, &ri);
    if (jt->j >= 0) {
        /* the joint's own block for j (a ground's as if it had coordinates
         * at the identity pose) */
        reaction_of((const double(*)[3])e.Bj, jt->rows, lam, zj.R, P, &rj);
    } else {
        /* a one-body joint holds body i against the ground: equal and opposite */
        rj = (mbd_planar_reaction){.point = {P[0], P[1]}, .F = {-ri.F[0], -ri.F[1]}, .T = -ri.T};
    }
    if (on_i)
        *on_i = ri;
    if (on_j)
        *on_j = rj;
    return GSL_SUCCESS;
}
