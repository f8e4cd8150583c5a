/* chapters/09-spatial-engine/animate.c -- a model file's run moving
 * (animation.h): any model drawn from its description, in a fixed
 * perspective with the ground frame's axes, and the chapter's own animation,
 * the flyball governor settling. The axes are labelled by mbd_scene_label.
 *
 * What is drawn comes from the model file alone, so that every model the
 * program runs can be animated: each moving body is a star of segments from
 * its origin to the points the file names on it (its joints' and its
 * constraints' points, its output points) with a mass marker at the origin;
 * a distance constraint (d) is a rod between its two points; a spring-
 * damper-actuator a thin dashed line; a joint a white circle at its point on
 * its first body; a point on the ground a dark square. The points of a
 * translational or cylindrical joint are anywhere on the sliding axis, so
 * they are not part of a body's star (the governor's collar_slide names a
 * point 1 m up a shaft of 0.2 m): only the joint's circle, at its point on
 * the sliding body, is drawn.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_math.h>
#include <gsl/gsl_vector.h>

#include "mbd/animation.h"
#include "mbd/cli.h"
#include "study.h"

#define PROGRAM "ch09-spatial-engine"

/* ------------------------------------------------------------------------ */
/* The drawing                                                               */

typedef struct {
    int body;         /* spatial body index */
    double s[3];      /* in its frame */
} anim_point;

typedef struct {
    anim_point a, b;
} anim_segment;

typedef struct {
    const ch09_model *md;
    size_t n;                         /* coordinates */
    anim_segment *bars, *rods, *springs;   /* star segments, d constraints, tsdas */
    size_t nbars, nrods, nsprings;
    anim_point *joints, *grounds, *masses;
    size_t njoints, ngrounds, nmasses;
    int traced;                       /* a trace point */
    anim_point trace;
    /* the camera: fixed for the whole run */
    double c[3];                      /* where it looks: the motion's centre */
    double eye[3], D[3], ex[3], ey[3], dist;
    double R;                         /* half the diagonal of the motion's box */
    double axis_len;                  /* the ground frame's axes */
} anim_model;

static void anim_free(anim_model *m)
{
    free(m->bars);
    free(m->rods);
    free(m->springs);
    free(m->joints);
    free(m->grounds);
    free(m->masses);
}

static int same_point(const double a[3], const double b[3])
{
    return fabs(a[0] - b[0]) <= 1e-12 && fabs(a[1] - b[1]) <= 1e-12 &&
           fabs(a[2] - b[2]) <= 1e-12;
}

static int is_zero(const double a[3])
{
    static const double z[3] = {0, 0, 0};
    return same_point(a, z);
}

/* a point of desc body k (its spatial index, and on the ground a square) */
static void add_point(anim_model *m, size_t k, const double s[3])
{
    const ch09_model *md = m->md;
    const anim_point p = {md->body[k], {s[0], s[1], s[2]}};
    if (md->desc->bodies[k].is_ground) {
        for (size_t i = 0; i < m->ngrounds; i++)
            if (m->grounds[i].body == p.body && same_point(m->grounds[i].s, s))
                return;
        m->grounds[m->ngrounds++] = p;
        return;
    }
    if (is_zero(s))
        return;   /* the origin: the mass marker */
    for (size_t i = 0; i < m->nbars; i++)
        if (m->bars[i].b.body == p.body && same_point(m->bars[i].b.s, s))
            return;
    const anim_point o = {p.body, {0, 0, 0}};
    m->bars[m->nbars++] = (anim_segment){o, p};
}

static int anim_build(anim_model *m, const ch09_model *md)
{
    memset(m, 0, sizeof *m);
    m->md = md;
    m->n = md->n;
    const mbd_model_desc *d = md->desc;
    const size_t npts = 2 * d->njoints + 2 * d->nconstraints + d->noutputs + 2;
    m->bars = calloc(npts, sizeof *m->bars);
    m->grounds = calloc(npts, sizeof *m->grounds);
    m->rods = calloc(d->nconstraints + 1, sizeof *m->rods);
    m->springs = calloc(d->ntsdas + 1, sizeof *m->springs);
    m->joints = calloc(d->njoints + d->nconstraints + 1, sizeof *m->joints);
    m->masses = calloc(d->nbodies + 1, sizeof *m->masses);
    if (!m->bars || !m->grounds || !m->rods || !m->springs || !m->joints || !m->masses) {
        anim_free(m);
        return GSL_ENOMEM;
    }
    for (size_t k = 0; k < d->nbodies; k++)
        if (!d->bodies[k].is_ground)
            m->masses[m->nmasses++] = (anim_point){md->body[k], {0, 0, 0}};
    for (size_t k = 0; k < d->njoints; k++) {
        const mbd_model_joint *j = &d->joints[k];
        const int sliding = j->type == MBD_MODEL_JOINT_TRANSLATIONAL ||
                            j->type == MBD_MODEL_JOINT_CYLINDRICAL;
        if (!sliding) {
            add_point(m, j->body_i, j->point_i);
            add_point(m, j->body_j, j->point_j);
            m->joints[m->njoints++] = (anim_point){md->body[j->body_i],
                                                   {j->point_i[0], j->point_i[1], j->point_i[2]}};
        } else {
            m->joints[m->njoints++] = (anim_point){md->body[j->body_j],
                                                   {j->point_j[0], j->point_j[1], j->point_j[2]}};
        }
    }
    for (size_t k = 0; k < d->nconstraints; k++) {
        const mbd_model_constraint *c = &d->constraints[k];
        if (c->type == MBD_MODEL_CON_DP1)
            continue;
        const anim_point pi = {md->body[c->body_i], {c->point_i[0], c->point_i[1], c->point_i[2]}};
        const anim_point pj = {md->body[c->body_j], {c->point_j[0], c->point_j[1], c->point_j[2]}};
        if (c->type == MBD_MODEL_CON_D) {
            m->rods[m->nrods++] = (anim_segment){pi, pj};
            m->joints[m->njoints++] = pi;
        } else if (c->type == MBD_MODEL_CON_CD) {
            /* the point on body i, and on body j (usually the same place: a pin
             * written as coordinate rows); one circle per pair of points */
            int seen = 0;
            for (size_t i = 0; i < m->njoints; i++)
                if (m->joints[i].body == pi.body && same_point(m->joints[i].s, pi.s))
                    seen = 1;
            if (!seen)
                m->joints[m->njoints++] = pi;
        }
        add_point(m, c->body_i, c->point_i);
        add_point(m, c->body_j, c->point_j);
    }
    for (size_t k = 0; k < d->ntsdas; k++) {
        const mbd_model_tsda *t = &d->tsdas[k];
        m->springs[m->nsprings++] = (anim_segment){
            {md->body[t->body_i], {t->point_i[0], t->point_i[1], t->point_i[2]}},
            {md->body[t->body_j], {t->point_j[0], t->point_j[1], t->point_j[2]}}};
    }
    for (size_t k = 0; k < d->noutputs; k++)
        add_point(m, d->outputs[k].body, d->outputs[k].point);
    if (d->noutputs > 0) {
        const mbd_model_output_point *o = &d->outputs[0];
        m->trace = (anim_point){md->body[o->body], {o->point[0], o->point[1], o->point[2]}};
        m->traced = 1;
    } else if (m->nmasses > 0) {
        m->trace = m->masses[0];
        m->traced = 1;
    }
    return GSL_SUCCESS;
}

static void world(const anim_model *m, const double q[], const anim_point *p, double x[3])
{
    gsl_vector_const_view v = gsl_vector_const_view_array(q, m->n);
    if (mbd_spatial_point_position(m->md->sm, p->body, p->s, &v.vector, x) != GSL_SUCCESS)
        x[0] = x[1] = x[2] = NAN;
}

static double dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void cross3(const double a[3], const double b[3], double c[3])
{
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

/* >> projection */
/* The perspective: a global point seen from the eye, on the plane through
 * the motion's centre perpendicular to the line of sight, in metres on that
 * plane (a point nearer the eye is drawn larger). */
static void project(const anim_model *m, const double x[3], double *u, double *v)
{
    const double w[3] = {x[0] - m->eye[0], x[1] - m->eye[1], x[2] - m->eye[2]};
    double depth = -dot3(w, m->D);
    if (depth < 1e-3 * m->dist)
        depth = 1e-3 * m->dist;   /* (behind the eye: not in a model's motion) */
    *u = dot3(w, m->ex) * m->dist / depth;
    *v = dot3(w, m->ey) * m->dist / depth;
}

/* The camera, fixed for the whole run: it looks at the centre of the box
 * that holds the whole motion (every point drawn at every recorded row, and
 * the ground frame's origin) from 4 half-diagonals away, "up" on the screen
 * against gravity (global y when there is none), from 30 degrees to the side
 * and 20 degrees above: for a model in the x-y plane, a view from +z turned
 * towards +x and tilted down. */
static void anim_camera(anim_model *m, const ch09_run *r)
{
    double lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};   /* the ground frame's origin */
    for (size_t row = 0; row < r->rows; row++) {
        const double *q = r->q + row * r->n;
        for (size_t k = 0; k < m->nbars + m->nmasses + m->ngrounds; k++) {
            const anim_point *p = k < m->nbars ? &m->bars[k].b
                                  : k < m->nbars + m->nmasses ? &m->masses[k - m->nbars]
                                  : &m->grounds[k - m->nbars - m->nmasses];
            double x[3];
            world(m, q, p, x);
            for (int i = 0; i < 3; i++)
                if (isfinite(x[i])) {
                    lo[i] = fmin(lo[i], x[i]);
                    hi[i] = fmax(hi[i], x[i]);
                }
        }
    }
    double R = 0;
    for (int i = 0; i < 3; i++) {
        m->c[i] = 0.5 * (lo[i] + hi[i]);
        R += 0.25 * (hi[i] - lo[i]) * (hi[i] - lo[i]);
    }
    R = sqrt(R);
    if (!(R > 1e-6))
        R = 1.0;
    m->R = R;
    m->axis_len = 0.3 * R;
    /* up: against the largest component of gravity */
    const double *g = m->md->desc->gravity;
    int a = 1;
    double sgn = 1.0;
    if (fabs(g[0]) + fabs(g[1]) + fabs(g[2]) > 0) {
        a = fabs(g[0]) >= fabs(g[1]) && fabs(g[0]) >= fabs(g[2]) ? 0
            : fabs(g[1]) >= fabs(g[2])                          ? 1
                                                                 : 2;
        sgn = g[a] < 0 ? 1.0 : -1.0;
    }
    double U[3] = {0, 0, 0}, Rt[3] = {0, 0, 0}, T[3] = {0, 0, 0};
    U[a] = sgn;
    Rt[(a + 2) % 3] = sgn;   /* right x up = towards the viewer, whichever the sign */
    T[(a + 1) % 3] = 1.0;
    const double az = 30.0 * M_PI / 180.0, el = 20.0 * M_PI / 180.0;
    for (int i = 0; i < 3; i++)
        m->D[i] = cos(el) * (cos(az) * T[i] + sin(az) * Rt[i]) + sin(el) * U[i];
    m->dist = 4.0 * R;
    for (int i = 0; i < 3; i++)
        m->eye[i] = m->c[i] + m->dist * m->D[i];
    cross3(U, m->D, m->ex);
    const double nx = sqrt(dot3(m->ex, m->ex));
    for (int i = 0; i < 3; i++)
        m->ex[i] /= nx;
    cross3(m->D, m->ex, m->ey);
}
/* << projection */

/* >> draw */
/* One state: the ground frame's axes (x, y, z, labelled), the springs, the
 * ground's points, the bodies' stars and rods, their mass markers, the
 * joints; the first output point (else the first body's origin) traced. */
static int draw_model(void *ctx, double t, const double q[], const double qd[], mbd_scene *s)
{
    (void)t;
    (void)qd;
    const anim_model *m = ctx;
    const double R = m->R;
    double x[3], y[3], u0, v0, u1, v1;
    const double o[3] = {0, 0, 0};
    project(m, o, &u0, &v0);
    for (int i = 0; i < 3; i++) {
        double e[3] = {0, 0, 0};
        e[i] = m->axis_len;
        project(m, e, &u1, &v1);
        mbd_scene_line(s, MBD_SCENE_GUIDE, u0, v0, u1, v1);
        const double du = u1 - u0, dv = v1 - v0, l = hypot(du, dv);
        const double k = l > 0 ? 0.08 * R / l : 0;
        const char name[2] = {"xyz"[i], '\0'};
        int st = mbd_scene_label(s, u1 + k * du, v1 + k * dv, name);
        if (st != GSL_SUCCESS)
            return st;
    }
    for (size_t k = 0; k < m->nsprings; k++) {
        world(m, q, &m->springs[k].a, x);
        world(m, q, &m->springs[k].b, y);
        project(m, x, &u0, &v0);
        project(m, y, &u1, &v1);
        mbd_scene_line(s, MBD_SCENE_GUIDE, u0, v0, u1, v1);
    }
    for (size_t k = 0; k < m->ngrounds; k++) {
        world(m, q, &m->grounds[k], x);
        project(m, x, &u0, &v0);
        mbd_scene_box(s, MBD_SCENE_GROUND, u0, v0, 0.03 * R, 0.03 * R, 0.0);
    }
    for (size_t k = 0; k < m->nbars + m->nrods; k++) {
        const anim_segment *g = k < m->nbars ? &m->bars[k] : &m->rods[k - m->nbars];
        world(m, q, &g->a, x);
        world(m, q, &g->b, y);
        project(m, x, &u0, &v0);
        project(m, y, &u1, &v1);
        mbd_scene_line(s, MBD_SCENE_BODY, u0, v0, u1, v1);
    }
    for (size_t k = 0; k < m->nmasses; k++) {
        world(m, q, &m->masses[k], x);
        project(m, x, &u0, &v0);
        mbd_scene_circle(s, MBD_SCENE_MASS, u0, v0, 0.045 * R);
    }
    for (size_t k = 0; k < m->njoints; k++) {
        world(m, q, &m->joints[k], x);
        project(m, x, &u0, &v0);
        mbd_scene_circle(s, MBD_SCENE_JOINT, u0, v0, 0.018 * R);
    }
    if (m->traced) {
        world(m, q, &m->trace, x);
        project(m, x, &u0, &v0);
        mbd_scene_trace(s, u0, v0);
    }
    return GSL_SUCCESS;
}
/* << draw */

/* The run's rows as a history (q, q', |C|, E) */
static int run_history(const ch09_run *r, mbd_history *h)
{
    mbd_history_init(h);
    int st = mbd_history_reset(h, r->n, r->rows, 0);
    for (size_t k = 0; st == GSL_SUCCESS && k < r->rows; k++)
        st = mbd_history_append(h, r->t[k], r->q + k * r->n, r->qd + k * r->n, r->C[k], NAN,
                                r->E ? r->E[k] : NAN, 0.0);
    if (st != GSL_SUCCESS)
        mbd_history_free(h);
    return st;
}

static int animate(const char *path, mbd_animation *a, const char *title, const ch09_model *md,
                   const ch09_run *r, const char *stop_note, mbd_failure *fail)
{
    if (r->rows == 0)
        return mbd_failure_set(fail, MBD_EINPUT, NAN,
                               "--animate: the run recorded no state to draw");
    anim_model m;
    mbd_history h;
    if (anim_build(&m, md) != GSL_SUCCESS)
        return mbd_failure_set(fail, GSL_ENOMEM, NAN, "--animate: out of memory");
    if (run_history(r, &h) != GSL_SUCCESS) {
        anim_free(&m);
        return mbd_failure_set(fail, GSL_ENOMEM, NAN, "--animate: out of memory");
    }
    anim_camera(&m, r);
    a->xlabel = "perspective view, m at the motion's centre";
    a->ylabel = NULL;
    a->violation = "|C|";
    const mbd_animation_panel panel = {.title = title, .hist = &h, .draw = draw_model,
                                       .ctx = &m, .stop_note = stop_note};
    const int st = mbd_animation_gif(path, a, &panel, 1, NULL, fail);
    mbd_history_free(&h);
    anim_free(&m);
    return st;
}

/* ------------------------------------------------------------------------ */
/* One run, and the chapter's animation                                      */

double ch09_animation_end(const ch09_spec *spec, const ch09_run *r)
{
    if ((r != NULL && r->analysis == CH09_ASSEMBLY) ||
        (r == NULL && spec->analysis == CH09_ASSEMBLY && !spec->auto_analysis))
        return spec->t0;
    return spec->t_end;
}

int ch09_animate_run(const char *path, const mbd_cli_common *opt, const ch09_model *md,
                     const ch09_spec *spec, const ch09_run *r, mbd_failure *fail)
{
    mbd_animation a;
    mbd_cli_animation(opt, PROGRAM, &a);
    a.t0 = spec->t0;
    a.t_end = ch09_animation_end(spec, r);
    char title[256];
    int n = snprintf(title, sizeof title, "%s: %s", md->desc->name ? md->desc->name : "model",
                     ch09_analysis_names[r->analysis]);
    if (n > 0 && (size_t)n < sizeof title && r->analysis == CH09_DYNAMICS)
        snprintf(title + n, sizeof title - (size_t)n, ", %s, h = %g",
                 ch09_integrator_names[spec->integrator], spec->h);
    char note[64];
    snprintf(note, sizeof note, "%s", mbd_status_word(r->status));
    return animate(path, &a, title, md, r, r->status == GSL_SUCCESS ? NULL : note, fail);
}

/* >> animation */
/* The chapter's animation: the flyball governor as the story runs it (the
 * model file's BDF2, h = 1e-3 s, C = 12500 N m/m), 0-10 s in real time
 * unless --speed says: the shaft spins the balls at about 11 rad/s, the load
 * ramp of 1-2 s slows it to 10.6 rad/s, and the collar (traced) sinks 2 mm to
 * its steady height 0.048 m. */
int ch09_program_animate(void *ctx, const char *path, mbd_failure *fail)
{
    ch09_program *prog = ctx;
    ch09_model md;
    ch09_run r;
    const ch09_variant v = {0};
    int st = ch09_run_variant(&md, "flyball-governor.yaml", NULL, &v, &r, NULL, fail);
    if (st != GSL_SUCCESS)
        return st;
    if (r.status != GSL_SUCCESS) {
        *fail = r.fail;
        st = r.status;
    } else {
        mbd_animation a;
        mbd_cli_animation(prog->opt, PROGRAM, &a);
        a.t0 = 0.0;
        a.t_end = 10.0;
        st = animate(path, &a,
                     "flyball governor, C = 12500 N m/m",
                     &md, &r, NULL, fail);
    }
    ch09_run_free(&r);
    ch09_model_free(&md);
    return st;
}
/* << animation */
