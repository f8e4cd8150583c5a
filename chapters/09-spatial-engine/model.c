/* model.c -- a model file built into the spatial module (see model.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "model.h"

/* >> time-function */
/* a time function of the file as the spatial module's user function: the
 * reader's evaluation gives f, f' and f'' (the description outlives the model) */
static int eval_fn(double t, double f[3], void *user)
{
    return mbd_model_fn_eval(user, t, f);
}

static mbd_spatial_fn fn_of(const mbd_model_fn *f)
{
    return mbd_spatial_fn_user(eval_fn, (void *)f);
}
/* << time-function */

/* >> perp-pair */
/* a unit pair (b, c) completing the unit axis a to a right-handed frame */
static void perp_pair(const double a[3], double b[3], double c[3])
{
    /* the global axis least aligned with a, then Gram-Schmidt */
    int k = 0;
    for (int i = 1; i < 3; i++)
        if (fabs(a[i]) < fabs(a[k]))
            k = i;
    double e[3] = {0, 0, 0};
    e[k] = 1.0;
    const double d = a[0] * e[0] + a[1] * e[1] + a[2] * e[2];
    for (int i = 0; i < 3; i++)
        b[i] = e[i] - d * a[i];
    const double nb = sqrt(b[0] * b[0] + b[1] * b[1] + b[2] * b[2]);
    for (int i = 0; i < 3; i++)
        b[i] /= nb;
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}
/* << perp-pair */

static void cross(const double a[3], const double b[3], double c[3])
{
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

/* a torque magnitude(t) about a fixed axis (in the torque's frame) */
typedef struct {
    const mbd_model_torque *tq;
} torque_user;

static int function_torque(const mbd_spatial_model *sm, double t, const gsl_vector *q,
                           const gsl_vector *qd, double n[3], void *user)
{
    (void)sm, (void)q, (void)qd;
    const mbd_model_torque *tq = user;
    double v[3];
    int st = mbd_model_fn_eval(&tq->magnitude, t, v);
    for (int i = 0; i < 3; i++)
        n[i] = st == GSL_SUCCESS ? v[0] * tq->axis[i] : 0.0;
    return st;
}

/* >> callbacks */
/* The torques registered by name (model.h). The governor's spring torque
 * reads the collar's height; it is the document's Ts.m (its Fig. 14),
 * torqueY = C (currentL - L0), currentL = 0.2 - y_collar, L0 = 0.15. */
struct ch09_callbacks {
    double C;                    /* governor_spring's gain */
    int collar;                  /* the spatial body whose height it reads; -1: none */
    int governor;                /* the model has a governor_spring torque */
};

static int governor_spring(const mbd_spatial_model *sm, double t, const gsl_vector *q,
                           const gsl_vector *qd, double n[3], void *user)
{
    (void)t, (void)qd;
    const ch09_callbacks *cb = user;
    double r[3], p[4];
    int st = mbd_spatial_pose(sm, cb->collar, q, r, p);
    const double shaft_hinge_y = 0.2, free_length = 0.15;
    n[0] = n[2] = 0.0;
    n[1] = st == GSL_SUCCESS ? cb->C * ((shaft_hinge_y - r[1]) - free_length) : 0.0;
    return st;
}

/* the document's Te.m: the load comes on between t = 1 s and t = 2 s */
static int load_ramp(const mbd_spatial_model *sm, double t, const gsl_vector *q,
                     const gsl_vector *qd, double n[3], void *user)
{
    (void)sm, (void)q, (void)qd, (void)user;
    n[0] = n[2] = 0.0;
    n[1] = t < 1.0 ? 0.0 : t < 2.0 ? -25.0 * t + 25.0 : -25.0;
    return GSL_SUCCESS;
}

static const struct {
    const char *name;
    mbd_spatial_torque_fn fn;
} registered[] = {
    {"governor_spring", governor_spring},
    {"load_ramp", load_ramp},
};
#define N_REGISTERED (sizeof registered / sizeof registered[0])

void ch09_model_params_default(ch09_model_params *p)
{
    p->governor_c = CH09_GOVERNOR_C;
    p->governor_c_given = 0;
}

int ch09_model_params_check(const ch09_model_params *p)
{
    return isfinite(p->governor_c) && p->governor_c > 0.0 && p->governor_c <= CH09_GOVERNOR_C_MAX
               ? GSL_SUCCESS
               : GSL_EINVAL;
}

double ch09_model_governor_c(const ch09_model *md)
{
    return md->cb != NULL && md->cb->governor ? md->cb->C : NAN;
}

/* the function registered under the torque's callback name, with its data */
static int callback_torque(ch09_model *md, const mbd_model_torque *tq, mbd_spatial_frame fr,
                           mbd_failure *fail)
{
    const mbd_model_desc *d = md->desc;
    size_t k = 0;
    while (k < N_REGISTERED && strcmp(registered[k].name, tq->callback) != 0)
        k++;
    if (k == N_REGISTERED)
        return mbd_failure_set(fail, MBD_EINPUT, NAN,
                               "%s:%lu:%lu: torque '%s' asks for the callback '%s', which this "
                               "program does not have (it has governor_spring and load_ramp)",
                               d->source, tq->pos.line, tq->pos.column, tq->name, tq->callback);
    if (registered[k].fn == governor_spring) {
        const long c = mbd_model_find_body(d, "collar");
        if (c <= 0)
            return mbd_failure_set(fail, MBD_EINPUT, NAN,
                                   "%s:%lu:%lu: torque '%s': the callback governor_spring reads "
                                   "the height of the body named 'collar', and this model has "
                                   "no such moving body", d->source, tq->pos.line,
                                   tq->pos.column, tq->name);
        md->cb->collar = md->body[c];
        md->cb->governor = 1;
    }
    mbd_spatial_add_variable_torque(md->sm, tq->name, md->body[tq->body], registered[k].fn, fr,
                                    md->cb);
    return GSL_SUCCESS;
}
/* << callbacks */

static int actuator(double l, double ldot, double t, double *h, void *user)
{
    (void)l, (void)ldot;
    double v[3];
    int st = mbd_model_fn_eval(user, t, v);
    *h = v[0];
    return st;
}

/* >> build */
static int build(ch09_model *md, const ch09_model_params *par, mbd_failure *fail)
{
    const mbd_model_desc *d = md->desc;
    mbd_spatial_model *sm = md->sm = mbd_spatial_alloc();
    md->body = calloc(d->nbodies, sizeof *md->body);
    md->joint = calloc(d->njoints + 1, sizeof *md->joint);
    md->constraint = calloc(d->nconstraints + 1, sizeof *md->constraint);
    md->cb = calloc(1, sizeof *md->cb);
    if (sm == NULL || md->body == NULL || md->joint == NULL || md->constraint == NULL ||
        md->cb == NULL)
        return mbd_failure_set(fail, GSL_ENOMEM, NAN, "out of memory for the model");
    if (ch09_model_params_check(par) != GSL_SUCCESS)
        return mbd_failure_set(fail, MBD_EINPUT, NAN,
                               "%s: the governor's spring constant C = %g: expected a number "
                               "greater than 0 and at most %g (N m per m)", d->source,
                               par->governor_c, CH09_GOVERNOR_C_MAX);
    md->cb->C = par->governor_c;
    md->cb->collar = -1;
    for (size_t k = 0; k < d->nbodies; k++) {
        const mbd_model_body *b = &d->bodies[k];
        if (b->is_ground) {
            md->body[k] = mbd_spatial_add_ground(sm, b->name);
        } else {
            double J[3][3];
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < 3; j++)
                    J[i][j] = b->inertia[3 * i + j];
            md->body[k] = mbd_spatial_add_body(sm, b->name, b->mass, J);
        }
    }
    mbd_spatial_set_gravity(sm, d->gravity);
    /* >> build-joints */
    for (size_t k = 0; k < d->njoints; k++) {
        const mbd_model_joint *jt = &d->joints[k];
        const int i = md->body[jt->body_i], j = md->body[jt->body_j];
        double bi[3], ci[3], bj[3], cj[3], aj[3];
        switch (jt->type) {
        case MBD_MODEL_JOINT_SPHERICAL:
            md->joint[k] = mbd_spatial_add_spherical(sm, jt->name, i, jt->point_i, j, jt->point_j);
            break;
        case MBD_MODEL_JOINT_REVOLUTE:
            perp_pair(jt->axis_i, bi, ci);
            md->joint[k] = mbd_spatial_add_revolute(sm, jt->name, i, jt->point_i, bi, ci, j,
                                                    jt->point_j, jt->axis_j);
            break;
        case MBD_MODEL_JOINT_CYLINDRICAL:
            perp_pair(jt->axis_i, bi, ci);
            md->joint[k] = mbd_spatial_add_cylindrical(sm, jt->name, i, jt->point_i, bi, ci, j,
                                                       jt->point_j, jt->axis_j);
            break;
        case MBD_MODEL_JOINT_TRANSLATIONAL:
            /* a_i = normal_i and b_i = axis_i x normal_i span the plane normal to
             * the axis; a_j = axis_j x normal_j is normal to a_i while the
             * normals agree, which fixes the turn about the axis */
            cross(jt->axis_i, jt->normal_i, ci);
            cross(jt->axis_j, jt->normal_j, aj);
            md->joint[k] = mbd_spatial_add_translational(sm, jt->name, i, jt->point_i,
                                                         jt->normal_i, ci, j, jt->point_j,
                                                         jt->axis_j, aj);
            break;
        case MBD_MODEL_JOINT_UNIVERSAL:
            md->joint[k] = mbd_spatial_add_universal(sm, jt->name, i, jt->point_i, jt->axis_i, j,
                                                     jt->point_j, jt->axis_j);
            break;
        default: /* revolute-cylindrical */
            perp_pair(jt->axis_j, bj, cj);
            md->joint[k] = mbd_spatial_add_revcyl(sm, jt->name, i, jt->point_i, jt->axis_i, j,
                                                  jt->point_j, jt->axis_j, bj, cj);
            break;
        }
    }
    /* << build-joints */
    for (size_t k = 0; k < d->nconstraints; k++) {
        const mbd_model_constraint *c = &d->constraints[k];
        const int i = md->body[c->body_i], j = md->body[c->body_j];
        const mbd_spatial_fn f = fn_of(&c->f);
        double axis[3] = {0, 0, 0};
        switch (c->type) {
        case MBD_MODEL_CON_DP1:
            md->constraint[k] = mbd_spatial_add_dp1(sm, c->name, i, c->a_i, j, c->a_j, f);
            break;
        case MBD_MODEL_CON_DP2:
            md->constraint[k] = mbd_spatial_add_dp2(sm, c->name, i, c->a_i, c->point_i, j,
                                                    c->point_j, f);
            break;
        case MBD_MODEL_CON_D:
            md->constraint[k] = mbd_spatial_add_d(sm, c->name, i, c->point_i, j, c->point_j, f);
            break;
        default:
            axis[c->coordinate] = 1.0;
            md->constraint[k] = mbd_spatial_add_cd(sm, c->name, i, c->point_i, j, c->point_j,
                                                   axis, f);
            break;
        }
    }
    for (size_t k = 0; k < d->nforces; k++) {
        const mbd_model_force *fo = &d->forces[k];
        mbd_spatial_add_force(sm, fo->name, md->body[fo->body], fo->point, fo->force,
                              fo->frame == MBD_MODEL_FRAME_BODY ? MBD_SPATIAL_BODY
                                                                : MBD_SPATIAL_GLOBAL);
    }
    for (size_t k = 0; k < d->ntorques; k++) {
        const mbd_model_torque *tq = &d->torques[k];
        const mbd_spatial_frame fr =
            tq->frame == MBD_MODEL_FRAME_BODY ? MBD_SPATIAL_BODY : MBD_SPATIAL_GLOBAL;
        if (tq->kind == MBD_MODEL_TORQUE_CONSTANT) {
            mbd_spatial_add_torque(sm, tq->name, md->body[tq->body], tq->torque, fr);
        } else if (tq->kind == MBD_MODEL_TORQUE_FUNCTION) {
            mbd_spatial_add_variable_torque(sm, tq->name, md->body[tq->body], function_torque, fr,
                                            (void *)tq);
        } else {
            int st = callback_torque(md, tq, fr, fail);
            if (st != GSL_SUCCESS)
                return st;
        }
    }
    if (par->governor_c_given && !md->cb->governor)
        return mbd_failure_set(fail, MBD_EINPUT, NAN,
                               "%s: --governor-c %g: this model has no torque with the callback "
                               "governor_spring for it to set (the flyball governor has: "
                               "flyball-governor.yaml)", d->source, par->governor_c);
    for (size_t k = 0; k < d->ntsdas; k++) {
        const mbd_model_tsda *ts = &d->tsdas[k];
        mbd_spatial_add_tsda(sm, ts->name, md->body[ts->body_i], ts->point_i, md->body[ts->body_j],
                             ts->point_j, ts->stiffness, ts->free_length, ts->damping, actuator,
                             (void *)&ts->actuator);
    }
    int st = mbd_spatial_finish(sm);
    if (st != GSL_SUCCESS) {
        const mbd_failure *sf = mbd_spatial_failure(sm);
        return mbd_failure_set(fail, st, NAN, "%s: the model could not be built: %s", d->source,
                               sf->cause);
    }
    const mbd_system *sys = mbd_spatial_system(sm);
    md->n = sys->n;
    md->m = sys->m;
    return GSL_SUCCESS;
}
/* << build */

int ch09_model_load_with(ch09_model *md, const char *path, const char *text, const char *source,
                         const ch09_model_params *params, mbd_failure *fail)
{
    memset(md, 0, sizeof *md);
    mbd_model_error err;
    int st = text != NULL
                 ? mbd_model_read_string(text, strlen(text), source, &md->desc, &err)
                 : mbd_model_read_file(path, &md->desc, &err);
    if (st != GSL_SUCCESS) {
        mbd_model_error_to_failure(&err, fail);
        return st;
    }
    ch09_model_params defaults;
    ch09_model_params_default(&defaults);
    st = build(md, params != NULL ? params : &defaults, fail);
    if (st != GSL_SUCCESS)
        ch09_model_free(md);
    return st;
}

int ch09_model_load(ch09_model *md, const char *path, mbd_failure *fail)
{
    return ch09_model_load_with(md, path, NULL, NULL, NULL, fail);
}

int ch09_model_load_string(ch09_model *md, const char *text, const char *source,
                           mbd_failure *fail)
{
    return ch09_model_load_with(md, NULL, text, source, NULL, fail);
}

#ifndef CH09_MODELS_DIR
#define CH09_MODELS_DIR "chapters/09-spatial-engine/models/"
#endif

const char *ch09_models_dir(void)
{
    static char dir[4096];
    const char *env = getenv("MBD_CH09_MODELS");
    if (env != NULL && env[0] != '\0') {
        const size_t n = strlen(env);
        snprintf(dir, sizeof dir, "%s%s", env, env[n - 1] == '/' ? "" : "/");
        return dir;
    }
    FILE *f = fopen("chapters/09-spatial-engine/models/a01-pendulum.yaml", "r");
    if (f != NULL) {
        fclose(f);
        return "chapters/09-spatial-engine/models/";
    }
    return CH09_MODELS_DIR;
}

int ch09_model_load_named(ch09_model *md, const char *file, mbd_failure *fail)
{
    char path[4096 + 256];
    snprintf(path, sizeof path, "%s%s", ch09_models_dir(), file);
    return ch09_model_load(md, path, fail);
}

void ch09_model_free(ch09_model *md)
{
    mbd_spatial_free(md->sm);
    mbd_model_desc_free(md->desc);
    free(md->body);
    free(md->joint);
    free(md->constraint);
    free(md->cb);
    memset(md, 0, sizeof *md);
}

int ch09_initial(const ch09_model *md, gsl_vector *q, gsl_vector *qd, int *known)
{
    const mbd_model_desc *d = md->desc;
    gsl_vector_set_zero(q);
    for (size_t k = 0; k < mbd_spatial_n_bodies(md->sm); k++)
        known[k] = 1;   /* grounds: nothing to solve */
    for (size_t k = 0; k < d->nbodies; k++) {
        const mbd_model_body *b = &d->bodies[k];
        if (b->is_ground)
            continue;
        int st = mbd_spatial_set_pose(md->sm, md->body[k], b->r, b->p, q);
        if (st != GSL_SUCCESS)
            return st;
        known[md->body[k]] = b->velocity_known;
    }
    return ch09_known_velocities(md, q, qd);
}

int ch09_known_velocities(const ch09_model *md, const gsl_vector *q, gsl_vector *qd)
{
    const mbd_model_desc *d = md->desc;
    gsl_vector_set_zero(qd);
    for (size_t k = 0; k < d->nbodies; k++) {
        const mbd_model_body *b = &d->bodies[k];
        if (b->is_ground || !b->velocity_known)
            continue;
        int st = mbd_spatial_set_velocity(md->sm, md->body[k], q, b->rdot, b->omega_bar,
                                          MBD_SPATIAL_BODY, qd);
        if (st != GSL_SUCCESS)
            return st;
    }
    return GSL_SUCCESS;
}

/* >> n-four-bar */
int ch09_write_n_four_bar(FILE *out, int N)
{
    if (N < 1 || N > CH09_MAX_FOUR_BARS)
        return GSL_EINVAL;
    fprintf(out,
            "# The IFToMM A02 benchmark, the N four-bar mechanism, with N = %d (written by\n"
            "# ch09-spatial-engine --generate n-four-bar --n %d). %d bars of 1 m and 1 kg,\n"
            "# their mass spread evenly: N + 1 vertical cranks turning about the z axis at\n"
            "# x = 0, 1, ..., N on the ground, and N horizontal couplers joining their tips.\n"
            "# Each coupler has a revolute joint to the crank on its left and two CD rows\n"
            "# (x and y) to the one on its right, which leaves one degree of freedom and no\n"
            "# redundant row: 12 N + 5 = %d rows, and one Euler-parameter row per bar, for\n"
            "# %d coordinates. Every bar's frame is at its centre with y' along the bar;\n"
            "# the couplers are turned a quarter turn about z (y' along -x). B0, the first\n"
            "# crank's tip, starts at 1 m/s in +x;\n"
            "# the other velocities are solved for. The bars' inertia about their axis is\n"
            "# 1e-6 (a model file needs it positive; the benchmark's bars have none).\n"
            "# In the horizontal position the degrees of freedom jump from 1 to N + 1.\n"
            "name: A02 N four-bar, N = %d\n"
            "gravity: [0, -9.81, 0]\n\nbodies:\n",
            N, N, 2 * N + 1, 12 * N + 5, 7 * (2 * N + 1), N);
    for (int k = 0; k <= N; k++) {
        fprintf(out, "  - {name: crank%d, mass: 1, inertia: [1/12, 1e-6, 1/12], position: [%d, 0.5, 0]",
                k, k);
        if (k == 0)
            fprintf(out, ",\n     velocity: [0.5, 0, 0], angular_velocity_body: [0, 0, -1]");
        fputs("}\n", out);
    }
    for (int k = 1; k <= N; k++)
        fprintf(out, "  - {name: coupler%d, mass: 1, inertia: [1/12, 1e-6, 1/12], "
                "position: [%d.5, 1, 0],\n     orientation: {axis: [0, 0, 1], angle: pi/2}}\n",
                k, k - 1);
    fputs("\njoints:\n", out);
    for (int k = 0; k <= N; k++)
        fprintf(out, "  - {name: pivot%d, type: revolute, body_i: ground, body_j: crank%d,\n"
                "     point_i: [%d, 0, 0], point_j: [0, -0.5, 0], axis_i: [0, 0, 1], "
                "axis_j: [0, 0, 1]}\n", k, k, k);
    for (int k = 1; k <= N; k++)
        fprintf(out, "  - {name: pin%d, type: revolute, body_i: crank%d, body_j: coupler%d,\n"
                "     point_i: [0, 0.5, 0], point_j: [0, 0.5, 0], axis_i: [0, 0, 1], "
                "axis_j: [0, 0, 1]}\n", k, k - 1, k);
    fputs("\nconstraints:\n", out);
    for (int k = 1; k <= N; k++)
        for (int c = 0; c < 2; c++)
            fprintf(out, "  - {name: tip%d_%c, type: cd, body_i: crank%d, body_j: coupler%d,\n"
                    "     point_i: [0, 0.5, 0], point_j: [0, -0.5, 0], coordinate: %c}\n", k,
                    "xy"[c], k, k, "xy"[c]);
    fputs("\noutput_points:\n  - {name: B0, body: crank0, point: [0, 0.5, 0]}\n"
          "\n# The benchmark's 20 s at its high precision (1e-3 m): BDF up to order 4 in\n"
          "# fixed steps of 4 ms, the quasi-Newton matrix kept across steps (modified\n"
          "# Newton), Newton converged to 1e-12 (the motion is sensitive to small errors\n"
          "# at every pass through the horizontal). BDF2 would need steps of 0.3 ms.\n"
          "analysis:\n  type: dynamics\n  t_end: 20\n  h: 4e-3\n  integrator: bdf4\n"
          "  newton: modified\n  tolerance: 1e-12\n", out);
    return ferror(out) ? GSL_EFAILED : GSL_SUCCESS;
}
/* << n-four-bar */
