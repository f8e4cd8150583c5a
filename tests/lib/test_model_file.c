/* model_file: the YAML model reader (lib/include/mbd/model_file.h).
 *
 * - good: every example in tests/lib/model_files/good/ and every model of
 *   chapter 09 (chapters/09-spatial-engine/models/) is read, and the
 *   values of the validation models and of every_feature.yaml are the ones
 *   written in them, with the positions of their elements;
 * - bad: every file in tests/lib/model_files/bad/ is refused with the
 *   status MBD_EINPUT, no description, and a message that starts with
 *   FILE:LINE:COL at the offending key or value and says what was expected
 *   (the table below lists them all; a file missing from it fails a test);
 * - time functions: f, f' and f'' of parsed functions against closed forms;
 * - rotations: the unit and orthonormality tolerances, and the orientation
 *   a builder gets from each form;
 * - numbers: the small expressions the format allows, and what it refuses.
 */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "check.h"
#include "mbd/model_file.h"

#define GOOD "tests/lib/model_files/good/"
#define MODELS "chapters/09-spatial-engine/models/"   /* the chapter's, read here too */
#define BAD "tests/lib/model_files/bad/"
#define PI 3.14159265358979323846

/* Reads an example; NULL (after a failed check that says why) if refused. */
static mbd_model_desc *read_in(const char *dir, const char *name)
{
    char path[256];
    snprintf(path, sizeof path, "%s%s", dir, name);
    mbd_model_desc *m = NULL;
    mbd_model_error e;
    int st = mbd_model_read_file(path, &m, &e);
    CHECK_MSG(st == GSL_SUCCESS && m != NULL, "%s refused: %s", path, e.message);
    return st == GSL_SUCCESS ? m : NULL;
}

/* one of the chapter's models when it has one of that name, else a test file */
static mbd_model_desc *read_good(const char *name)
{
    char path[256];
    snprintf(path, sizeof path, MODELS "%s", name);
    FILE *f = fopen(path, "r");
    if (f != NULL)
        fclose(f);
    return read_in(f != NULL ? MODELS : GOOD, name);
}

/* A one-body model followed by `extra` (YAML text), read from memory as
 * "t.yaml". The body is on line 4. */
#define BASE "name: t\ngravity: [0, 0, 0]\nbodies:\n  - {name: b, mass: 1, inertia: [1, 1, 1], position: [0, 0, 0]}\n"

static int read_text(const char *extra, mbd_model_desc **m, mbd_model_error *e)
{
    char text[4096];
    snprintf(text, sizeof text, "%s%s", BASE, extra);
    return mbd_model_read_string(text, strlen(text), "t.yaml", m, e);
}

static int vec_eq(const double *a, const double *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i])
            return 0;
    return 1;
}

#define CHECK_VEC(v, ...)                                                                    \
    do {                                                                                     \
        const double want_[] = {__VA_ARGS__};                                                \
        size_t n_ = sizeof want_ / sizeof want_[0];                                          \
        CHECK_MSG(vec_eq((v), want_, n_), "%s: not [" #__VA_ARGS__ "] (first %.17g)", #v,   \
                  (double)(v)[0]);                                                           \
    } while (0)

#define CHECK_POS(p, l, c)                                                                   \
    CHECK_MSG((p).line == (l) && (p).column == (c), "%s at %lu:%lu, expected %d:%d", #p,     \
              (p).line, (p).column, (l), (c))

/* ------------------------------------------------------------------------ */
/* Good files                                                                */

static void good_a01_pendulum(void)
{
    mbd_model_desc *m = read_good("a01-pendulum.yaml");
    if (m == NULL)
        return;
    CU_ASSERT_STRING_EQUAL(m->source, MODELS "a01-pendulum.yaml");
    CU_ASSERT_STRING_EQUAL(m->name, "A01 simple pendulum");
    CU_ASSERT_STRING_EQUAL(m->description, "IFToMM A01, the document's validation case 1");
    CHECK_VEC(m->gravity, 0, -9.81, 0);
    CU_ASSERT_EQUAL_FATAL(m->nbodies, 2);
    const mbd_model_body *g = &m->bodies[0], *b = &m->bodies[1];
    CU_ASSERT_STRING_EQUAL(g->name, "ground");
    CU_ASSERT(g->is_ground && !g->declared);
    CHECK_POS(g->pos, 0, 0);
    CU_ASSERT_STRING_EQUAL(b->name, "pendulum");
    CHECK_POS(b->pos, 19, 5);
    CU_ASSERT(!b->is_ground && b->declared);
    CU_ASSERT_EQUAL(b->mass, 1);
    CHECK_VEC(b->inertia, 1e-9, 0, 0, 0, 1e-9, 0, 0, 0, 1e-9);
    CU_ASSERT(!b->inertia_full);
    CHECK_VEC(b->r, -1, 0, 0);
    CU_ASSERT_EQUAL(b->orientation, MBD_MODEL_ORIENT_IDENTITY);
    CHECK_VEC(b->p, 1, 0, 0, 0);
    CHECK_VEC(b->A, 1, 0, 0, 0, 1, 0, 0, 0, 1);
    CU_ASSERT(b->velocity_known);
    CHECK_VEC(b->rdot, 0, 0, 0);
    CHECK_VEC(b->omega_bar, 0, 0, 0);
    CU_ASSERT_EQUAL(b->omega_frame, MBD_MODEL_FRAME_BODY);
    CU_ASSERT_EQUAL_FATAL(m->njoints, 1);
    const mbd_model_joint *j = &m->joints[0];
    CU_ASSERT_STRING_EQUAL(j->name, "pivot");
    CHECK_POS(j->pos, 28, 5);
    CU_ASSERT_EQUAL(j->type, MBD_MODEL_JOINT_REVOLUTE);
    CU_ASSERT(j->body_i == 0 && j->body_j == 1);
    CHECK_VEC(j->point_i, 0, 0, 0);
    CHECK_VEC(j->point_j, 1, 0, 0);
    CHECK_VEC(j->axis_i, 0, 0, 1);
    CHECK_VEC(j->axis_j, 0, 0, 1);
    CHECK_VEC(j->normal_i, 0, 0, 0);
    CU_ASSERT_EQUAL(m->nconstraints + m->nforces + m->ntorques + m->ntsdas, 0);
    CU_ASSERT_EQUAL_FATAL(m->noutputs, 1);
    CU_ASSERT_STRING_EQUAL(m->outputs[0].name, "P1");
    CU_ASSERT_EQUAL(m->outputs[0].body, 1);
    CHECK_VEC(m->outputs[0].point, 0, 0, 0);
    const mbd_model_analysis *a = &m->analysis;
    CU_ASSERT_EQUAL(a->type, MBD_MODEL_ANALYSIS_DYNAMICS);
    CHECK_POS(a->pos, 48, 3);
    CU_ASSERT(a->t_start == 0 && a->t_end == 2000 && a->h == 1e-2 && a->assemble == 1);
    CU_ASSERT_STRING_EQUAL(a->integrator, "rk8pd");
    CHECK_POS(a->integrator_pos, 51, 15);
    CU_ASSERT_EQUAL(a->newton, MBD_MODEL_NEWTON_DEFAULT);
    CU_ASSERT(a->rtol == 1e-8 && a->atol == 1e-8 && isnan(a->tolerance)
              && a->max_iterations == 0);
    mbd_model_desc_free(m);
}

static void good_slider_crank(void)
{
    mbd_model_desc *m = read_good("slider-crank-driven.yaml");
    if (m == NULL)
        return;
    CHECK_VEC(m->gravity, 0, 0, -9.81);
    CU_ASSERT_EQUAL_FATAL(m->nbodies, 4);
    const char *names[] = {"ground", "crank", "rod", "slider"};
    for (int i = 0; i < 4; i++)
        CU_ASSERT_STRING_EQUAL(m->bodies[i].name, names[i]);
    const mbd_model_body *crank = &m->bodies[1], *rod = &m->bodies[2];
    CU_ASSERT_EQUAL(crank->mass, 0.12);
    CHECK_VEC(crank->inertia, 1e-4, 0, 0, 0, 1e-5, 0, 0, 0, 1e-4);
    CHECK_VEC(crank->r, 0, 0.1, 0.12);
    CU_ASSERT_EQUAL(crank->orientation, MBD_MODEL_ORIENT_EULER);
    CHECK_VEC(crank->p, 0.7042 / sqrt(0.99999764), 0.71 / sqrt(0.99999764), 0, 0);
    double s = sqrt(0.99998225);
    CHECK_VEC(rod->p, 0.8865 / s, -0.21 / s, 0.4 / s, -0.1 / s);
    for (int i = 1; i < 4; i++)
        CU_ASSERT(!m->bodies[i].velocity_known);
    CU_ASSERT_EQUAL_FATAL(m->njoints, 4);
    const mbd_model_joint_type types[] = {MBD_MODEL_JOINT_REVOLUTE, MBD_MODEL_JOINT_SPHERICAL,
                                          MBD_MODEL_JOINT_REVOLUTE_CYLINDRICAL,
                                          MBD_MODEL_JOINT_TRANSLATIONAL};
    int rows = 0;
    for (int i = 0; i < 4; i++) {
        CU_ASSERT_EQUAL(m->joints[i].type, types[i]);
        rows += mbd_model_joint_rows(m->joints[i].type);
    }
    const mbd_model_joint *wrist = &m->joints[2];
    CU_ASSERT(wrist->body_i == 2 && wrist->body_j == 3);
    CHECK_VEC(wrist->point_i, 0.15, 0, 0);
    CHECK_VEC(wrist->axis_i, 0, 1, 0);
    CHECK_VEC(wrist->axis_j, 1, 0, 0);
    const mbd_model_joint *guide = &m->joints[3];
    CHECK_VEC(guide->point_i, 2, 0, 0);
    CHECK_VEC(guide->point_j, 0.1, 0, 0);
    CHECK_VEC(guide->normal_i, 0, 0, 1);
    CHECK_VEC(guide->normal_j, 0, 0, 1);
    CU_ASSERT_EQUAL_FATAL(m->nconstraints, 2);
    const mbd_model_constraint *d = &m->constraints[0], *drv = &m->constraints[1];
    CU_ASSERT_EQUAL(d->type, MBD_MODEL_CON_D);
    CU_ASSERT(d->f.kind == MBD_MODEL_FN_CONSTANT && d->f.value == 1 && !d->driving);
    CU_ASSERT_EQUAL(drv->type, MBD_MODEL_CON_DP1);
    CU_ASSERT(drv->body_i == 1 && drv->body_j == 0 && drv->driving);
    CHECK_VEC(drv->a_i, 0, 1, 0);
    CU_ASSERT_EQUAL_FATAL(drv->f.kind, MBD_MODEL_FN_COS_OF);
    const mbd_model_fn *theta = &drv->f.terms[0];
    CU_ASSERT_EQUAL_FATAL(theta->kind, MBD_MODEL_FN_POLYNOMIAL);
    CU_ASSERT_EQUAL_FATAL(theta->ncoef, 2);
    CU_ASSERT(theta->coef[0] == PI / 2 + 0.0001 && theta->coef[1] == -2 * PI);
    /* 5 + 3 + 3 + 5 joint rows, the distance and the driver: 18 = 6 x 3 */
    CU_ASSERT_EQUAL(rows + (int)m->nconstraints, 18);
    CU_ASSERT(m->analysis.t_end == 1 && m->analysis.h == 1e-3);
    mbd_model_desc_free(m);

    m = read_good("slider-crank-free.yaml");
    if (m == NULL)
        return;
    CU_ASSERT_EQUAL(m->nconstraints, 1);
    CU_ASSERT(m->bodies[1].velocity_known && !m->bodies[2].velocity_known && !m->bodies[3].velocity_known);
    CHECK_VEC(m->bodies[1].omega_bar, 6, 0, 0);
    CHECK_VEC(m->bodies[1].rdot, 0, 0, 0);
    mbd_model_desc_free(m);
}

static void good_four_bar(void)
{
    mbd_model_desc *m = read_good("four-bar-driven.yaml");
    if (m == NULL)
        return;
    CU_ASSERT_EQUAL_FATAL(m->nbodies, 4);
    CHECK_VEC(m->bodies[1].inertia, 4, 0, 0, 0, 2, 0, 0, 0, 1e-6);
    CHECK_VEC(m->bodies[2].r, -3.75, -4.25, 4.25);
    CHECK_VEC(m->bodies[3].r, -5.75, -8.5, 3.25);
    double s = sqrt(0.99999184);
    CHECK_VEC(m->bodies[3].p, 0.6072 / s, -0.36 / s, 0.36 / s, -0.61 / s);
    CU_ASSERT_EQUAL_FATAL(m->njoints, 4);
    const mbd_model_joint *cross = &m->joints[1];
    CU_ASSERT_EQUAL(cross->type, MBD_MODEL_JOINT_UNIVERSAL);
    CHECK_VEC(cross->axis_i, 0.75 / sqrt(1.000744), -0.662 / sqrt(1.000744), 0);
    CHECK_VEC(cross->point_i, 0, 0, 2);
    CHECK_VEC(cross->point_j, 0, 6.1, 0);
    int rows = 0;
    for (size_t i = 0; i < m->njoints; i++)
        rows += mbd_model_joint_rows(m->joints[i].type);
    CU_ASSERT_EQUAL(rows, 17);
    CU_ASSERT_EQUAL_FATAL(m->nconstraints, 1);
    const mbd_model_fn *theta = &m->constraints[0].f.terms[0];
    CU_ASSERT(theta->coef[0] == PI / 2 + 0.0001 && theta->coef[1] == PI);
    CU_ASSERT_EQUAL_FATAL(m->noutputs, 2);
    CU_ASSERT_STRING_EQUAL(m->outputs[0].name, "B");
    CU_ASSERT(m->analysis.t_end == 2.5 && m->analysis.h == 1e-2);
    mbd_model_desc_free(m);

    m = read_good("four-bar-torque.yaml");
    if (m == NULL)
        return;
    CU_ASSERT_EQUAL(m->nconstraints, 0);
    CU_ASSERT_EQUAL_FATAL(m->ntorques, 1);
    const mbd_model_torque *t = &m->torques[0];
    CU_ASSERT(t->kind == MBD_MODEL_TORQUE_CONSTANT && t->frame == MBD_MODEL_FRAME_BODY && t->body == 1);
    CHECK_VEC(t->torque, 10, 0, 0);
    CHECK_VEC(m->bodies[3].r, -5.75, -8.5, 3.29);
    mbd_model_desc_free(m);
}

static void good_spring_mass_damper(void)
{
    mbd_model_desc *m = read_good("spring-mass-damper.yaml");
    if (m == NULL)
        return;
    CHECK_VEC(m->bodies[1].r, 0.02, 0, 0);
    CU_ASSERT_EQUAL_FATAL(m->ntsdas, 1);
    const mbd_model_tsda *s = &m->tsdas[0];
    CU_ASSERT_STRING_EQUAL(s->name, "spring");
    CU_ASSERT(s->body_i == 0 && s->body_j == 1);
    CU_ASSERT(s->stiffness == 100 && s->damping == 2 && s->free_length == 0);
    CU_ASSERT(s->actuator.kind == MBD_MODEL_FN_CONSTANT && s->actuator.value == 0);
    CU_ASSERT_EQUAL_FATAL(m->njoints, 1);
    CU_ASSERT_EQUAL(m->joints[0].type, MBD_MODEL_JOINT_TRANSLATIONAL);
    CHECK_VEC(m->joints[0].point_j, 3, 0, 0);
    CU_ASSERT(m->analysis.t_end == 4 && m->analysis.h == 1e-2);
    mbd_model_desc_free(m);
}

static void good_flyball_and_block(void)
{
    mbd_model_desc *m = read_good("flyball-governor.yaml");
    if (m == NULL)
        return;
    CU_ASSERT_EQUAL_FATAL(m->nbodies, 5);
    const mbd_model_body *shaft = &m->bodies[1], *a = &m->bodies[2], *b = &m->bodies[3];
    CHECK_VEC(shaft->inertia, 25, 0, 0, 0, 50, 0, 0, 0, 25);
    CHECK_VEC(shaft->omega_bar, 0, 11.0174, 0);
    CU_ASSERT(shaft->velocity_known && !a->velocity_known);
    /* the document's p = [-0.9239, 0, 0, 0.3827] (ball a) and
     * [0.9239, 0, 0, 0.3827] (ball b), to its four digits */
    CU_ASSERT_EQUAL(a->orientation, MBD_MODEL_ORIENT_AXIS_ANGLE);
    CU_ASSERT(a->angle == -PI / 4);
    CHECK_CLOSE(a->p[0], 0.9239, 5e-5);
    CHECK_CLOSE(a->p[3], -0.3827, 5e-5);
    CHECK_CLOSE(b->p[0], 0.9239, 5e-5);
    CHECK_CLOSE(b->p[3], 0.3827, 5e-5);
    CU_ASSERT_EQUAL_FATAL(m->nconstraints, 2);
    CU_ASSERT(m->constraints[0].f.value == 0.10922 * 0.10922);
    CU_ASSERT_EQUAL_FATAL(m->ntorques, 2);
    CU_ASSERT(m->torques[0].kind == MBD_MODEL_TORQUE_CALLBACK && m->torques[1].kind == MBD_MODEL_TORQUE_CALLBACK);
    CU_ASSERT_STRING_EQUAL(m->torques[0].callback, "governor_spring");
    CU_ASSERT_STRING_EQUAL(m->torques[1].callback, "load_ramp");
    CU_ASSERT_EQUAL_FATAL(m->ntsdas, 1);
    CU_ASSERT(m->tsdas[0].stiffness == 1000 && m->tsdas[0].damping == 30 && m->tsdas[0].free_length == 0.15);
    /* 5 + 5 + 5 + 5 joint rows and 2 distances: 22 for 4 bodies, 2 DOF */
    int rows = (int)m->nconstraints;
    for (size_t i = 0; i < m->njoints; i++)
        rows += mbd_model_joint_rows(m->joints[i].type);
    CU_ASSERT_EQUAL(6 * 4 - rows, 2);
    mbd_model_desc_free(m);

    m = read_good("inclined-block.yaml");
    if (m == NULL)
        return;
    const mbd_model_body *blk = &m->bodies[1];
    CU_ASSERT_EQUAL(blk->orientation, MBD_MODEL_ORIENT_MATRIX);
    double c = cos(PI / 4), s = sin(PI / 4);
    CHECK_VEC(blk->A, c, s, 0, -s, c, 0, 0, 0, 1);
    /* a turn of -pi/4 about z */
    CHECK_CLOSE(blk->p[0], cos(PI / 8), 1e-15);
    CHECK_CLOSE(blk->p[1], 0, 1e-15);
    CHECK_CLOSE(blk->p[2], 0, 1e-15);
    CHECK_CLOSE(blk->p[3], -sin(PI / 8), 1e-15);
    CHECK_VEC(m->joints[0].axis_i, sqrt(2) / 2, -sqrt(2) / 2, 0);
    mbd_model_desc_free(m);
}

/* Every value of every_feature.yaml, as written. */
static void good_every_feature(void)
{
    mbd_model_desc *m = read_good("every_feature.yaml");
    if (m == NULL)
        return;
    CU_ASSERT_STRING_EQUAL(m->name, "every feature: a test model");
    /* bodies: the declared ground first, then a, b, c, d in file order */
    CU_ASSERT_EQUAL_FATAL(m->nbodies, 5);
    const mbd_model_body *g = &m->bodies[0], *a = &m->bodies[1], *b = &m->bodies[2], *c = &m->bodies[3],
                         *d = &m->bodies[4];
    CU_ASSERT_STRING_EQUAL(g->name, "base");
    CU_ASSERT(g->is_ground && g->declared);
    CHECK_POS(g->pos, 16, 5);
    CU_ASSERT_EQUAL(mbd_model_find_body(m, "ground"), 0);
    CU_ASSERT_EQUAL(mbd_model_find_body(m, "base"), 0);
    CU_ASSERT_EQUAL(mbd_model_find_body(m, "c"), 3);
    CU_ASSERT_EQUAL(mbd_model_find_body(m, "nobody"), -1);
    CU_ASSERT_STRING_EQUAL(a->name, "a");
    CHECK_POS(a->pos, 9, 5);
    CU_ASSERT_EQUAL(a->mass, 2.5);
    CU_ASSERT(a->inertia_full);
    CHECK_VEC(a->inertia, 2, 0.1, 0, 0.1, 3, -0.2, 0, -0.2, 4);
    CHECK_VEC(a->r, 1, 2, 3);
    CU_ASSERT_EQUAL(a->orientation, MBD_MODEL_ORIENT_EULER);
    CHECK_VEC(a->p, 0.5, 0.5, 0.5, 0.5);
    CHECK_VEC(a->A, 0, 0, 1, 1, 0, 0, 0, 1, 0);   /* p = (1/2)(1, 1, 1, 1): x -> y -> z -> x */
    CHECK_VEC(a->rdot, 0.1, 0.2, 0.3);
    CHECK_VEC(a->omega, 1, 2, 3);
    CHECK_VEC(a->omega_bar, 1, 2, 3);
    CU_ASSERT(a->velocity_known && a->omega_frame == MBD_MODEL_FRAME_BODY);
    CU_ASSERT_EQUAL(b->mass, 1e-3);
    CHECK_VEC(b->inertia, 1, 0, 0, 0, 2, 0, 0, 0, 3);
    CU_ASSERT_EQUAL(b->orientation, MBD_MODEL_ORIENT_AXIS_ANGLE);
    CHECK_VEC(b->axis, 0, 0, 1);
    CU_ASSERT(b->angle == PI / 2);
    CU_ASSERT(b->omega_frame == MBD_MODEL_FRAME_GLOBAL && b->velocity_known);
    CHECK_VEC(b->omega, 0, 0, 5);
    CHECK_CLOSE(b->omega_bar[2], 5, 1e-15);
    CU_ASSERT_EQUAL(c->orientation, MBD_MODEL_ORIENT_MATRIX);
    CHECK_VEC(c->A, 0, -1, 0, 1, 0, 0, 0, 0, 1);
    CHECK_CLOSE(c->p[0], sqrt(0.5), 1e-15);
    CHECK_CLOSE(c->p[3], sqrt(0.5), 1e-15);
    CU_ASSERT(c->p[1] == 0 && c->p[2] == 0);
    CU_ASSERT(!c->velocity_known);
    CU_ASSERT(d->velocity_known && d->orientation == MBD_MODEL_ORIENT_IDENTITY);
    CHECK_VEC(d->rdot, 0, 0, 0);

    /* joints: one of each type */
    CU_ASSERT_EQUAL_FATAL(m->njoints, 6);
    for (int i = 0; i < 6; i++)
        CU_ASSERT_EQUAL(m->joints[i].type, (mbd_model_joint_type)i);
    CU_ASSERT_STRING_EQUAL(mbd_model_joint_type_name(m->joints[5].type), "revolute-cylindrical");
    CHECK_POS(m->joints[0].pos, 38, 5);   /* the '{' */
    CU_ASSERT(m->joints[0].body_i == 0 && m->joints[0].body_j == 1);
    CHECK_VEC(m->joints[1].axis_j, 0, 0, -1);
    CHECK_VEC(m->joints[2].axis_i, 0.6, 0.8, 0);
    CHECK_VEC(m->joints[2].axis_j, 0, 0.8, 0.6);
    CU_ASSERT(m->joints[3].body_i == 0 && m->joints[3].body_j == 3);
    CHECK_VEC(m->joints[3].axis_j, 0, 1, 0);
    CHECK_VEC(m->joints[3].normal_i, 0, 0, 1);
    CHECK_VEC(m->joints[4].point_i, 1, 1, 1);
    CHECK_VEC(m->joints[4].point_j, 2, 2, 2);

    /* basic constraints */
    CU_ASSERT_EQUAL_FATAL(m->nconstraints, 7);
    const mbd_model_constraint *k = m->constraints;
    CU_ASSERT(k[0].type == MBD_MODEL_CON_DP1 && k[0].f.kind == MBD_MODEL_FN_CONSTANT && k[0].f.value == 0
              && !k[0].driving);
    CHECK_VEC(k[0].a_j, 0, 2, 0);
    CU_ASSERT(k[1].type == MBD_MODEL_CON_DP2 && k[1].f.value == 0.25 && !k[1].driving);
    CHECK_VEC(k[1].a_i, 0, 0, 3);
    CHECK_VEC(k[1].point_j, 0, 1, 0);
    CU_ASSERT(k[2].type == MBD_MODEL_CON_D && k[2].f.value == 4);
    CU_ASSERT(k[3].type == MBD_MODEL_CON_D && k[3].f.value == 9);
    CU_ASSERT(k[4].type == MBD_MODEL_CON_CD && k[4].coordinate == 2 && k[4].driving);
    CU_ASSERT_EQUAL_FATAL(k[4].f.kind, MBD_MODEL_FN_POLYNOMIAL);
    CU_ASSERT_EQUAL_FATAL(k[4].f.ncoef, 4);
    CHECK_VEC(k[4].f.coef, 1, -2, 3, -4);
    CU_ASSERT(k[5].coordinate == 1 && k[5].driving && k[5].f.kind == MBD_MODEL_FN_SUM && k[5].f.nterms == 5);
    CHECK_POS(k[5].f.pos, 66, 7);
    CU_ASSERT(k[6].coordinate == 0 && k[6].driving && k[6].f.kind == MBD_MODEL_FN_CONSTANT);
    CU_ASSERT_STRING_EQUAL(mbd_model_con_type_name(k[3].type), "d");

    /* forces, torques, TSDAs, output points */
    CU_ASSERT_EQUAL_FATAL(m->nforces, 2);
    CU_ASSERT(m->forces[0].frame == MBD_MODEL_FRAME_GLOBAL && m->forces[0].body == 1);
    CHECK_VEC(m->forces[0].force, 1, 2, 3);
    CHECK_VEC(m->forces[0].point, 0.1, 0.2, 0.3);
    CU_ASSERT(m->forces[1].frame == MBD_MODEL_FRAME_BODY);
    CHECK_VEC(m->forces[1].point, 0, 0, 0);
    CU_ASSERT_EQUAL_FATAL(m->ntorques, 3);
    const mbd_model_torque *t = m->torques;
    CU_ASSERT(t[0].kind == MBD_MODEL_TORQUE_CONSTANT && t[0].frame == MBD_MODEL_FRAME_BODY);
    CU_ASSERT(t[1].kind == MBD_MODEL_TORQUE_FUNCTION && t[1].frame == MBD_MODEL_FRAME_GLOBAL);
    CHECK_VEC(t[1].axis, 0, 1, 0);
    CU_ASSERT(t[1].magnitude.kind == MBD_MODEL_FN_POLYNOMIAL && t[1].magnitude.ncoef == 2);
    CU_ASSERT(t[2].kind == MBD_MODEL_TORQUE_CALLBACK && t[2].body == 3);
    CU_ASSERT_STRING_EQUAL(t[2].callback, "my_torque");
    CU_ASSERT_EQUAL_FATAL(m->ntsdas, 2);
    CU_ASSERT(m->tsdas[0].stiffness == 100 && m->tsdas[0].free_length == 0.5 && m->tsdas[0].damping == 0);
    CU_ASSERT(m->tsdas[1].actuator.kind == MBD_MODEL_FN_SINE && m->tsdas[1].actuator.amplitude == 3
              && m->tsdas[1].actuator.omega == 2 && m->tsdas[1].actuator.phase == 0);
    CU_ASSERT_EQUAL_FATAL(m->noutputs, 2);
    CU_ASSERT(m->outputs[1].body == 0);

    /* the analysis, every key */
    const mbd_model_analysis *an = &m->analysis;
    CU_ASSERT_EQUAL(an->type, MBD_MODEL_ANALYSIS_DYNAMICS);
    CU_ASSERT_STRING_EQUAL(mbd_model_analysis_type_name(an->type), "dynamics");
    CU_ASSERT(an->t_start == 0.5 && an->t_end == 2.5 && an->h == 0.01 && an->assemble == 0);
    CU_ASSERT(an->newton == MBD_MODEL_NEWTON_FULL);
    CU_ASSERT_STRING_EQUAL(an->integrator, "bdf1");
    CU_ASSERT(an->rtol == 1e-6 && an->atol == 1e-8 && an->tolerance == 1e-10 && an->max_iterations == 25);
    mbd_model_desc_free(m);
}

static void good_small_models(void)
{
    mbd_model_desc *m = read_good("explicit_ground.yaml");
    if (m != NULL) {
        CU_ASSERT_STRING_EQUAL(m->bodies[0].name, "frame");
        CU_ASSERT(m->joints[0].body_i == 0 && m->joints[1].body_i == 0);
        CU_ASSERT_EQUAL(m->analysis.type, MBD_MODEL_ANALYSIS_ASSEMBLY);
        CU_ASSERT(m->analysis.tolerance == 1e-12 && m->analysis.max_iterations == 100);
        CU_ASSERT(isnan(m->analysis.t_end) && isnan(m->analysis.h));
        mbd_model_desc_free(m);
    }
    m = read_good("minimal.yaml");
    if (m != NULL) {
        CU_ASSERT_EQUAL(m->nbodies, 2);
        CU_ASSERT(m->description == NULL);
        CU_ASSERT_EQUAL(m->analysis.type, MBD_MODEL_ANALYSIS_NONE);
        CU_ASSERT_STRING_EQUAL(mbd_model_analysis_type_name(m->analysis.type), "none");
        CU_ASSERT(!m->bodies[1].velocity_known);
        mbd_model_desc_free(m);
    }
}

/* Every file in good/ and in the chapter's models/ is read; the joint examples have the joint they name. */
static void good_all_files(void)
{
    static const struct {
        const char *file;
        mbd_model_joint_type type;
    } examples[] = {
        {"joint-spherical.yaml", MBD_MODEL_JOINT_SPHERICAL},
        {"joint-revolute.yaml", MBD_MODEL_JOINT_REVOLUTE},
        {"joint-cylindrical.yaml", MBD_MODEL_JOINT_CYLINDRICAL},
        {"joint-translational.yaml", MBD_MODEL_JOINT_TRANSLATIONAL},
        {"joint-universal.yaml", MBD_MODEL_JOINT_UNIVERSAL},
        {"joint-revolute-cylindrical.yaml", MBD_MODEL_JOINT_REVOLUTE_CYLINDRICAL},
    };
    for (size_t i = 0; i < sizeof examples / sizeof examples[0]; i++) {
        mbd_model_desc *m = read_good(examples[i].file);
        if (m == NULL)
            continue;
        CHECK_MSG(m->njoints == 1 && m->joints[0].type == examples[i].type, "%s: not one %s joint",
                  examples[i].file, mbd_model_joint_type_name(examples[i].type));
        mbd_model_desc_free(m);
    }
    int n = 0;
    for (int d = 0; d < 2; d++) {
        DIR *dir = opendir(d ? MODELS : GOOD);
        CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
        for (struct dirent *de; (de = readdir(dir)) != NULL;) {
            size_t len = strlen(de->d_name);
            if (len < 6 || strcmp(de->d_name + len - 5, ".yaml") != 0)
                continue;
            mbd_model_desc *m = read_in(d ? MODELS : GOOD, de->d_name);
            mbd_model_desc_free(m);
            n++;
        }
        closedir(dir);
    }
    CHECK_GE(n, 18);
}

/* The spherical example's velocities agree with its joint: the bob's point
 * at the pivot is at rest, v + omega x (A s) = 0. */
static void good_spherical_velocities(void)
{
    mbd_model_desc *m = read_good("joint-spherical.yaml");
    if (m == NULL)
        return;
    const mbd_model_body *b = &m->bodies[1];
    const double *s = m->joints[0].point_j, *w = b->omega, *A = b->A;
    double As[3], v[3];
    for (int i = 0; i < 3; i++)
        As[i] = A[3 * i] * s[0] + A[3 * i + 1] * s[1] + A[3 * i + 2] * s[2];
    v[0] = b->rdot[0] + w[1] * As[2] - w[2] * As[1];
    v[1] = b->rdot[1] + w[2] * As[0] - w[0] * As[2];
    v[2] = b->rdot[2] + w[0] * As[1] - w[1] * As[0];
    CHECK_CLOSE(v[0], 0, 1e-15);
    CHECK_CLOSE(v[1], 0, 1e-15);
    CHECK_CLOSE(v[2], 0, 1e-15);
    mbd_model_desc_free(m);
}

/* ------------------------------------------------------------------------ */
/* Bad files: where the error is, and what was expected                      */

static const struct {
    const char *file;
    unsigned long line, column;
    const char *says;   /* a part of the message after the position */
} bad_files[] = {
    {"syntax_unclosed.yaml", 3, 7, "YAML syntax error: did not find expected ',' or ']' (while parsing a flow sequence, started at line 2, column 10)"},
    {"syntax_tab.yaml", 5, 1, "YAML syntax error: found a tab character that violates indentation"},
    {"empty.yaml", 1, 1, "the file is empty (expected a model: a mapping with name, gravity and bodies)"},
    {"root_list.yaml", 1, 1, "expected a model (a mapping with name, gravity, bodies, ...), found a list of 2 items"},
    {"unknown_top_key.yaml", 2, 1, "the model: unknown key 'gravitty' (expected one of: name, description, gravity, bodies, joints, constraints, forces, torques, tsdas, output_points, analysis)"},
    {"missing_gravity.yaml", 1, 1, "the model: missing key 'gravity' (expected a list of 3 numbers"},
    {"gravity_two_numbers.yaml", 2, 10, "'gravity': expected a list of 3 numbers [a, b, ...], found a list of 2 items"},
    {"gravity_word.yaml", 2, 14, "'gravity', item 2: expected a number (like 2, -0.5, 1e-3, pi/2 or sqrt(2)/2), found 'minus'"},
    {"mass_inf.yaml", 5, 11, "body 'pendulum': 'mass': expected a finite number, found '.inf'"},
    {"position_overflow.yaml", 7, 16, "'position', item 1: expected a finite number, found '-1e999' (it evaluates to infinity)"},
    {"expression_nonfinite.yaml", 7, 20, "'position', item 2: expected a finite number, found '1/0'"},
    {"expression_bad.yaml", 7, 20, "'position', item 2: expected a number (like 2, -0.5, 1e-3, pi/2 or sqrt(2)/2), found '2*pie'"},
    {"mass_quoted.yaml", 5, 11, "'mass': expected a number, found the quoted text '1' (write numbers without quotes)"},
    {"mass_negative.yaml", 5, 11, "body 'pendulum': 'mass': expected a number greater than 0, found '-1'"},
    {"mass_zero.yaml", 5, 11, "'mass': expected a number greater than 0, found '0'"},
    {"inertia_zero_moment.yaml", 6, 21, "'inertia': expected a positive definite inertia (every principal moment greater than 0"},
    {"inertia_indefinite.yaml", 7, 7, "'inertia': expected a positive definite matrix, found leading minor 2 = -3"},
    {"inertia_unsymmetric.yaml", 6, 14, "'inertia': expected a symmetric matrix, found row 1 column 2 = 0.1 but row 2 column 1 = 0.2"},
    {"inertia_scalar.yaml", 6, 14, "'inertia': expected 3 principal moments [Jxx, Jyy, Jzz] or a 3x3 matrix"},
    {"body_unknown_key.yaml", 7, 5, "body 'pendulum': unknown key 'possition' (expected one of: name, mass, inertia, position, orientation,"},
    {"body_missing_mass.yaml", 4, 5, "body 'pendulum': missing key 'mass' (expected a number greater than 0 (kg))"},
    {"body_duplicate_name.yaml", 8, 11, "body 'pendulum': the name is already used by the body at line 4"},
    {"body_named_ground.yaml", 4, 11, "the name 'ground' is reserved for the ground body"},
    {"two_grounds.yaml", 5, 5, "body 'floor': a second ground body (the first is at line 4"},
    {"ground_with_mass.yaml", 6, 5, "body 'base': key 'mass' is not used by the ground body (expected one of: name, ground)"},
    {"no_moving_body.yaml", 4, 3, "'bodies': expected at least one moving body"},
    {"body_bad_name.yaml", 4, 11, "'name': expected a name (a letter or '_', then letters, digits, '_' or '-'; at most 63 characters), found 'my pendulum'"},
    {"euler_not_unit.yaml", 9, 25, "'euler_parameters': expected unit Euler parameters (|p| = 1 within 1e-9; they are not normalised for you), found |p| = 0.999998819999"},
    {"axis_angle_not_unit.yaml", 8, 25, "'orientation': 'axis': expected a unit vector (length 1 within 1e-9), found length 1.41421356237"},
    {"axis_without_angle.yaml", 8, 18, "'orientation': missing key 'angle'"},
    {"matrix_not_orthonormal.yaml", 10, 9, "'matrix': expected a rotation matrix (orthonormal within 1e-9), found max |A^T A - I| = 1.92e-05"},
    {"matrix_reflection.yaml", 9, 15, "'matrix': expected a rotation matrix (determinant +1), found a reflection (determinant -1)"},
    {"orientation_two_forms.yaml", 10, 15, "'orientation': give one of euler_parameters, axis and angle, or matrix, not two"},
    {"orientation_word.yaml", 8, 18, "'orientation': expected identity or a mapping with euler_parameters, axis and angle, or matrix; found 'identiy'"},
    {"velocity_known_conflict.yaml", 9, 21, "'velocity_known' is false but velocities are given"},
    {"velocity_known_yes.yaml", 8, 21, "'velocity_known': expected true or false, found 'yes'"},
    {"angular_velocity_both.yaml", 9, 30, "give 'angular_velocity_body' or 'angular_velocity_global', not both"},
    {"duplicate_key.yaml", 8, 5, "body 'pendulum': key 'mass' appears twice (first at line 5)"},
    {"joint_unknown_type.yaml", 10, 11, "joint 'pivot': 'type': expected one of: spherical, revolute, cylindrical, translational, universal, revolute-cylindrical; found 'hinge'"},
    {"joint_missing_type.yaml", 9, 5, "joint 'pivot': missing key 'type'"},
    {"joint_refused_key.yaml", 17, 5, "joint 'pivot': key 'normal_i' is not used by a revolute joint (expected one of: name, type, body_i, body_j, point_i, point_j, axis_i, axis_j)"},
    {"joint_spherical_axis.yaml", 15, 5, "key 'axis_i' is not used by a spherical joint (expected one of: name, type, body_i, body_j, point_i, point_j)"},
    {"joint_missing_axis.yaml", 9, 5, "joint 'pivot': missing key 'axis_j' (expected a unit vector (body j's frame))"},
    {"joint_unknown_body.yaml", 12, 13, "joint 'pivot': 'body_j': no body is named 'pendlum' (the bodies are: ground, pendulum)"},
    {"joint_same_body.yaml", 12, 13, "body_i and body_j are the same body ('pendulum')"},
    {"joint_axis_not_unit.yaml", 15, 13, "'axis_i': expected a unit vector (length 1 within 1e-9), found length 2"},
    {"joint_normal_not_perpendicular.yaml", 18, 15, "'normal_j': expected a unit vector perpendicular to 'axis_j' (dot product 0 within 1e-9), found normal_j . axis_j = 0.8"},
    {"joint_not_mapping.yaml", 9, 5, "joint 1: expected a mapping (key: value lines), found 'revolute'"},
    {"joints_not_list.yaml", 9, 3, "'joints': expected a list of joints (lines starting with '- '), found a mapping"},
    {"element_duplicate_name.yaml", 18, 12, "constraint 'pivot': the name is already used by the joint at line 9"},
    {"constraint_d_both.yaml", 10, 42, "give 'f' (the squared distance) or 'distance', not both"},
    {"constraint_d_neither.yaml", 9, 5, "missing key 'distance' or 'f'"},
    {"constraint_driving_false.yaml", 16, 14, "'driving' is false but 'f' depends on time"},
    {"constraint_cd_coordinate.yaml", 10, 38, "'coordinate': expected one of: x, y, z; found 'w'"},
    {"constraint_zero_vector.yaml", 9, 84, "'a_j': expected a non-zero vector, found [0, 0, 0]"},
    {"fn_two_kinds.yaml", 15, 8, "'f': expected a time function (a number, or a mapping with one of: constant, polynomial, sine, sum, cos_of), found a mapping with more than one key"},
    {"fn_unknown_kind.yaml", 15, 9, "'f': unknown key 'cosine' (expected one of: constant, polynomial, sine, sum, cos_of)"},
    {"fn_sine_missing_omega.yaml", 17, 9, "'f': 'sine': missing key 'omega'"},
    {"fn_polynomial_empty.yaml", 15, 21, "'polynomial': expected a list of coefficients [c0, c1, c2, ...] (c0 + c1 t + c2 t^2 + ...), found a list of 0 items"},
    {"fn_sum_bad_term.yaml", 18, 40, "'f': 'sum', term 2: 'sine': 'omega': expected a number"},
    {"fn_too_deep.yaml", 15, 152, "time functions nested deeper than 16 levels"},
    {"torque_two_kinds.yaml", 12, 15, "give one of 'torque', 'axis' and 'magnitude', or 'callback', not two"},
    {"torque_axis_only.yaml", 9, 5, "torque 'motor': missing key 'magnitude'"},
    {"torque_frame.yaml", 9, 61, "'frame': expected one of: global, body; found 'local'"},
    {"force_missing_vector.yaml", 9, 5, "force 'push': missing key 'force' (expected a list of 3 numbers (N))"},
    {"tsda_negative_stiffness.yaml", 14, 16, "tsda 'spring': 'stiffness': expected a number greater than or equal to 0, found '-100'"},
    {"output_unknown_body.yaml", 9, 23, "output point 'tip': 'body': no body is named 'bob'"},
    {"analysis_bad_type.yaml", 9, 9, "analysis: 'type': expected one of: assembly, kinematics, inverse-dynamics, dynamics; found 'statics'"},
    {"analysis_missing_h.yaml", 9, 3, "analysis: missing key 'h'"},
    {"analysis_t_end.yaml", 11, 10, "'t_end': expected a number greater than t_start (1), found '0.5'"},
    {"analysis_h_too_long.yaml", 11, 6, "'h': expected a step no longer than t_end - t_start (1), found '2'"},
    {"analysis_refused_key.yaml", 12, 3, "key 'integrator' is not used by a kinematics analysis"},
    {"analysis_assembly_t_end.yaml", 10, 3, "key 't_end' is not used by an assembly analysis (expected one of: type, t_start, tolerance, max_iterations)"},
    {"analysis_iterations.yaml", 12, 19, "'max_iterations': expected a whole number from 1 to 1e9, found '2.5'"},
    {"alias.yaml", 9, 42, "YAML aliases (*g) are not supported in a model file: write the value out"},
    {"two_documents.yaml", 8, 1, "a second YAML document (a model file holds one model"},
    {"name_multiline.yaml", 1, 7, "'name': expected a non-empty text on one line"},
    {"key_not_scalar.yaml", 8, 1, "the model: expected a key (a word before ':'), found a list of 2 items"},
};
#define NBAD (sizeof bad_files / sizeof bad_files[0])

static void bad_files_refused_where_wrong(void)
{
    for (size_t i = 0; i < NBAD; i++) {
        char path[256], prefix[300];
        snprintf(path, sizeof path, BAD "%s", bad_files[i].file);
        snprintf(prefix, sizeof prefix, "%s:%lu:%lu: ", path, bad_files[i].line, bad_files[i].column);
        mbd_model_desc *m = (mbd_model_desc *)&m;   /* must come back NULL */
        mbd_model_error e;
        int st = mbd_model_read_file(path, &m, &e);
        CHECK_MSG(st == MBD_EINPUT && e.status == MBD_EINPUT, "%s: status %d (%s), expected bad input",
                  bad_files[i].file, st, mbd_strerror(st));
        CHECK_MSG(m == NULL, "%s: a description came back with the error", bad_files[i].file);
        CHECK_MSG(e.line == bad_files[i].line && e.column == bad_files[i].column,
                  "%s: error at %lu:%lu, expected %lu:%lu (%s)", bad_files[i].file, e.line, e.column,
                  bad_files[i].line, bad_files[i].column, e.message);
        CHECK_MSG(strncmp(e.message, prefix, strlen(prefix)) == 0, "%s: message does not start with '%s': %s",
                  bad_files[i].file, prefix, e.message);
        CHECK_MSG(strstr(e.message + strlen(prefix), bad_files[i].says) != NULL,
                  "%s: message does not say \"%s\": %s", bad_files[i].file, bad_files[i].says, e.message);
        CHECK_MSG(strchr(e.message, '\n') == NULL, "%s: message is not one line", bad_files[i].file);
    }
}

/* Every file in bad/ is in the table, and there are at least 30. */
static void bad_files_all_listed(void)
{
    CHECK_GE((double)NBAD, 30);
    DIR *dir = opendir(BAD);
    CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
    size_t n = 0;
    for (struct dirent *de; (de = readdir(dir)) != NULL;) {
        if (de->d_name[0] == '.')
            continue;
        n++;
        size_t i = 0;
        while (i < NBAD && strcmp(bad_files[i].file, de->d_name) != 0)
            i++;
        CHECK_MSG(i < NBAD, "%s is not in the table of bad files", de->d_name);
    }
    closedir(dir);
    CU_ASSERT_EQUAL(n, NBAD);
}

static void errors_without_place(void)
{
    mbd_model_desc *m = (mbd_model_desc *)&m;
    mbd_model_error e;
    int st = mbd_model_read_file("tests/lib/model_files/no-such-file.yaml", &m, &e);
    CHECK_STATUS(st, MBD_EIO);
    CU_ASSERT_PTR_NULL(m);
    CU_ASSERT(e.line == 0 && e.column == 0);
    CHECK_MSG(strncmp(e.message, "tests/lib/model_files/no-such-file.yaml: cannot open the model file: ", 69) == 0,
              "message: %s", e.message);
    /* no error record: only the status */
    m = (mbd_model_desc *)&m;
    CHECK_STATUS(mbd_model_read_string("mass: [", 7, "x.yaml", &m, NULL), MBD_EINPUT);
    CU_ASSERT_PTR_NULL(m);
    /* the text need not end in NUL; the length is what counts */
    const char text[] = BASE "garbage after the length";
    CHECK_STATUS(mbd_model_read_string(text, strlen(BASE), "x.yaml", &m, &e), GSL_SUCCESS);
    mbd_model_desc_free(m);
    CHECK_STATUS(mbd_model_read_string(text, sizeof text - 1, "x.yaml", &m, &e), MBD_EINPUT);
    /* into a failure record */
    mbd_failure f;
    mbd_failure_clear(&f);
    mbd_model_error_to_failure(&e, &f);
    CHECK_STATUS(f.status, MBD_EINPUT);
    CHECK_MSG(strncmp(f.cause, "x.yaml:6:1: YAML syntax error: ", 31) == 0, "cause: %s", f.cause);
    mbd_model_desc_free(NULL);
}

/* Errors in text read from memory: positions in the text, and the messages of
 * errors the files do not show. */
static void errors_in_text(void)
{
    static const struct {
        const char *extra;
        unsigned long line, column;
        const char *says;
    } cases[] = {
        {"constraints:\n  - {name: c, type: dp1, body_i: b, body_j: ground, a_i: [1, 0, 0], a_j: [1, 0, 0], f: {sum: []}}\n",
         6, 94, "'sum': expected a list of time functions, found a list of 0 items"},
        {"constraints:\n  - {name: c, type: dp1, body_i: b, body_j: ground, a_i: [1, 0, 0], a_j: [1, 0, 0], f: {}}\n",
         6, 88, "found an empty mapping"},
        {"constraints:\n  - {name: c, type: cd, body_i: b, body_j: ground, point_i: [0, 0, 0], point_j: [0, 0, 0], coordinate: x, a_i: [1, 0, 0]}\n",
         6, 107, "key 'a_i' is not used by a cd constraint"},
        {"torques:\n  - {name: t, body: b}\n", 6, 5, "torque 't': expected one of: 'torque' (a constant vector), 'axis' and 'magnitude' (a time function about an axis), 'callback'"},
        {"torques:\n  - {name: t, body: b, callback: 3d}\n", 6, 34, "'callback': expected a name"},
        {"tsdas:\n  - {name: s, body_i: b, body_j: b, point_i: [0, 0, 0], point_j: [0, 0, 0], stiffness: 1, free_length: 0}\n",
         6, 34, "body_i and body_j are the same body ('b')"},
        {"forces:\n  - {name: f, body: b, force: [0, 0, 1]}\n  - {name: f, body: b, force: [0, 0, 1]}\n", 7, 12,
         "force 'f': the name is already used by the force at line 6"},
        {"analysis: dynamics\n", 5, 11, "analysis: expected a mapping (key: value lines), found 'dynamics'"},
        {"analysis: {type: dynamics, t_end: 1, h: 0.1, rtol: 0}\n", 5, 52, "'rtol': expected a number greater than 0, found '0'"},
        {"analysis: {type: dynamics, t_end: 1, h: 0.1, integrator: 'bdf 2'}\n", 5, 58, "'integrator': expected an integrator name"},
        {"analysis: {type: kinematics, t_end: 1, h: 0.1, newton: exact}\n", 5, 56, "'newton': expected one of: full, modified, quasi; found 'exact'"},
        {"output_points:\n  - {name: p, body: b, point: [0, 0]}\n", 6, 31, "'point': expected a list of 3 numbers"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        mbd_model_desc *m = NULL;
        mbd_model_error e;
        int st = read_text(cases[i].extra, &m, &e);
        char prefix[64];
        snprintf(prefix, sizeof prefix, "t.yaml:%lu:%lu: ", cases[i].line, cases[i].column);
        CHECK_MSG(st == MBD_EINPUT && m == NULL, "case %zu: accepted", i);
        CHECK_MSG(strncmp(e.message, prefix, strlen(prefix)) == 0 && strstr(e.message, cases[i].says),
                  "case %zu: expected '%s...%s', got: %s", i, prefix, cases[i].says, e.message);
        mbd_model_desc_free(m);
    }
}

/* ------------------------------------------------------------------------ */
/* Time functions                                                            */

/* The time function of a constraint written as `f: TEXT`. */
static mbd_model_desc *read_fn_text(const char *fn_text)
{
    char extra[2048];
    snprintf(extra, sizeof extra,
             "constraints:\n  - name: c\n    type: dp1\n    body_i: b\n    body_j: ground\n"
             "    a_i: [1, 0, 0]\n    a_j: [1, 0, 0]\n    f: %s\n", fn_text);
    mbd_model_desc *m = NULL;
    mbd_model_error e;
    int st = read_text(extra, &m, &e);
    CHECK_MSG(st == GSL_SUCCESS, "'%s' refused: %s", fn_text, e.message);
    return m;
}

/* f, f', f'' of the parsed function against the closed form at several t. */
static void check_fn_against(const char *text, void (*closed)(double t, double v[3]))
{
    mbd_model_desc *m = read_fn_text(text);
    if (m == NULL)
        return;
    static const double times[] = {0, 0.3, 1, 2.5, -1.7, 10};
    for (size_t k = 0; k < sizeof times / sizeof times[0]; k++) {
        double got[3], want[3];
        CHECK_STATUS(mbd_model_fn_eval(&m->constraints[0].f, times[k], got), GSL_SUCCESS);
        closed(times[k], want);
        for (int d = 0; d < 3; d++)
            CHECK_MSG(fabs(got[d] - want[d]) <= 1e-12 * (1 + fabs(want[d])),
                      "%s: derivative %d at t = %g: %.17g, closed form %.17g", text, d, times[k], got[d],
                      want[d]);
    }
    mbd_model_desc_free(m);
}

static void f_constant(double t, double v[3])
{
    (void)t;
    v[0] = -2.5;
    v[1] = v[2] = 0;
}

static void f_poly(double t, double v[3])
{
    /* 1 - 2t + 3t^2 - 4t^3 + 0.5 t^4 */
    v[0] = 1 - 2 * t + 3 * t * t - 4 * t * t * t + 0.5 * t * t * t * t;
    v[1] = -2 + 6 * t - 12 * t * t + 2 * t * t * t;
    v[2] = 6 - 24 * t + 6 * t * t;
}

static void f_sine(double t, double v[3])
{
    /* 2 sin(3t + 0.5) + 1 */
    v[0] = 2 * sin(3 * t + 0.5) + 1;
    v[1] = 6 * cos(3 * t + 0.5);
    v[2] = -18 * sin(3 * t + 0.5);
}

static void f_sum(double t, double v[3])
{
    /* 0.5 + t + (-0.25 sin(2t)) + 3 */
    v[0] = 0.5 + t - 0.25 * sin(2 * t) + 3;
    v[1] = 1 - 0.5 * cos(2 * t);
    v[2] = sin(2 * t);
}

static void f_cos_of(double t, double v[3])
{
    /* cos(pi/2 + 1e-4 - 2 pi t): the slider-crank's driver */
    double a = PI / 2 + 1e-4 - 2 * PI * t, w = -2 * PI;
    v[0] = cos(a);
    v[1] = -sin(a) * w;
    v[2] = -cos(a) * w * w;
}

static void f_nested(double t, double v[3])
{
    /* cos(sin(t) + t^2) + 1 */
    double g = sin(t) + t * t, g1 = cos(t) + 2 * t, g2 = -sin(t) + 2;
    v[0] = cos(g) + 1;
    v[1] = -sin(g) * g1;
    v[2] = -cos(g) * g1 * g1 - sin(g) * g2;
}

static void functions_against_closed_forms(void)
{
    check_fn_against("-2.5", f_constant);
    check_fn_against("{constant: -2.5}", f_constant);
    check_fn_against("{polynomial: [1, -2, 3, -4, 0.5]}", f_poly);
    check_fn_against("{sine: {amplitude: 2, omega: 3, phase: 0.5, offset: 1}}", f_sine);
    check_fn_against("{sum: [0.5, {polynomial: [0, 1]}, {sine: {amplitude: -0.25, omega: 2}}, {constant: 3}]}",
                     f_sum);
    check_fn_against("{cos_of: {polynomial: [pi/2 + 0.0001, -2*pi]}}", f_cos_of);
    check_fn_against("{sum: [{cos_of: {sum: [{sine: {amplitude: 1, omega: 1}}, {polynomial: [0, 0, 1]}]}}, 1]}",
                     f_nested);
}

/* f' and f'' agree with central differences of f (a check on the closed
 * forms above as much as on the code). */
static void functions_derivatives_consistent(void)
{
    mbd_model_desc *m = read_good("every_feature.yaml");
    if (m == NULL)
        return;
    const mbd_model_fn *f = &m->constraints[5].f;   /* the nested sum */
    /* truncation ~ h^2 |f''''| / 6 and round-off ~ 1e-16 |f| / h: both far below 1e-6 */
    double h = 1e-5;
    for (double t = -1; t <= 2; t += 0.37) {
        double v[3], vp[3], vm[3];
        mbd_model_fn_eval(f, t, v);
        mbd_model_fn_eval(f, t + h, vp);
        mbd_model_fn_eval(f, t - h, vm);
        CHECK_CLOSE(v[1], (vp[0] - vm[0]) / (2 * h), 1e-6);
        CHECK_CLOSE(v[2], (vp[1] - vm[1]) / (2 * h), 1e-6);
    }
    mbd_model_desc_free(m);
}

static void functions_overflow_reported(void)
{
    mbd_model_desc *m = read_fn_text("{polynomial: [0, 0, 1e300]}");
    if (m == NULL)
        return;
    double v[3];
    CHECK_STATUS(mbd_model_fn_eval(&m->constraints[0].f, 1, v), GSL_SUCCESS);
    CHECK_STATUS(mbd_model_fn_eval(&m->constraints[0].f, 1e10, v), MBD_ENONFINITE);
    mbd_model_desc_free(m);
}

/* ------------------------------------------------------------------------ */
/* Rotations and unit vectors                                                */

/* 0 if `body_extra` (keys added to the body b) is accepted */
static int body_with(const char *body_extra, mbd_model_desc **m, mbd_model_error *e)
{
    char text[2048];
    snprintf(text, sizeof text,
             "name: t\ngravity: [0, 0, 0]\nbodies:\n  - name: b\n    mass: 1\n    inertia: [1, 1, 1]\n"
             "    position: [0, 0, 0]\n%s", body_extra);
    *m = NULL;
    return mbd_model_read_string(text, strlen(text), "t.yaml", m, e);
}

static void rotations_unit_tolerance(void)
{
    mbd_model_desc *m;
    mbd_model_error e;
    /* Euler parameters: 5e-10 off unit accepted, as written; 2e-9 refused */
    CHECK_STATUS(body_with("    orientation: {euler_parameters: [1.0000000005, 0, 0, 0]}\n", &m, &e), GSL_SUCCESS);
    if (m)
        CU_ASSERT(m->bodies[1].p[0] == 1.0000000005);
    mbd_model_desc_free(m);
    CHECK_STATUS(body_with("    orientation: {euler_parameters: [1.000000002, 0, 0, 0]}\n", &m, &e), MBD_EINPUT);
    CHECK_MSG(strstr(e.message, "t.yaml:8:37: body 'b': 'orientation': 'euler_parameters': expected unit"),
              "%s", e.message);
    /* axes the same */
    CHECK_STATUS(body_with("    orientation: {axis: [0, 0, 0.9999999995], angle: 1}\n", &m, &e), GSL_SUCCESS);
    mbd_model_desc_free(m);
    CHECK_STATUS(body_with("    orientation: {axis: [0, 0, 0.999999998], angle: 1}\n", &m, &e), MBD_EINPUT);
    CHECK_MSG(strstr(e.message, "t.yaml:8:25:") && strstr(e.message, "found length 0.999999998"), "%s", e.message);
    /* a rotation matrix with entries off by 2e-10 is accepted, by 2e-9 not */
    CHECK_STATUS(body_with("    orientation: {matrix: [[1, 2e-10, 0], [0, 1, 0], [0, 0, 1]]}\n", &m, &e), GSL_SUCCESS);
    mbd_model_desc_free(m);
    CHECK_STATUS(body_with("    orientation: {matrix: [[1, 2e-9, 0], [0, 1, 0], [0, 0, 1]]}\n", &m, &e), MBD_EINPUT);
    CHECK_MSG(strstr(e.message, "t.yaml:8:27:") && strstr(e.message, "orthonormal within 1e-9"), "%s", e.message);
    /* a joint axis 1e-8 too long */
    char extra[512];
    snprintf(extra, sizeof extra, "joints:\n  - {name: j, type: revolute, body_i: ground, body_j: b, "
                                  "point_i: [0, 0, 0], point_j: [0, 0, 0], axis_i: [0, 1.00000001, 0], "
                                  "axis_j: [0, 1, 0]}\n");
    CHECK_STATUS(read_text(extra, &m, &e), MBD_EINPUT);
    CHECK_MSG(strstr(e.message, "t.yaml:6:106: joint 'j': 'axis_i': expected a unit vector"), "%s", e.message);
}

/* The orientation a builder gets: A(p) is a rotation and p(A) gives A back,
 * for every form, including half turns (e0 = 0, where the document's A2p
 * fails). */
static void rotations_forms_agree(void)
{
    static const char *const forms[] = {
        "    orientation: {axis: [0, 0, 1], angle: pi}\n",
        "    orientation: {matrix: [[1, 0, 0], [0, -1, 0], [0, 0, -1]]}\n",
        "    orientation: {matrix: [[-1, 0, 0], [0, 1, 0], [0, 0, -1]]}\n",
        "    orientation: {matrix: [[-1, 0, 0], [0, -1, 0], [0, 0, 1]]}\n",
        "    orientation: {axis: [0.6, 0, 0.8], angle: 2.5}\n",
        "    orientation: {euler_parameters: [0.5, -0.5, 0.5, -0.5]}\n",
        "    orientation:\n      matrix:\n        - [cos(1), 0, sin(1)]\n        - [0, 1, 0]\n        - [-sin(1), 0, cos(1)]\n",
    };
    for (size_t k = 0; k < sizeof forms / sizeof forms[0]; k++) {
        mbd_model_desc *m;
        mbd_model_error e;
        CHECK_MSG(body_with(forms[k], &m, &e) == GSL_SUCCESS, "form %zu refused: %s", k, e.message);
        if (m == NULL)
            continue;
        const mbd_model_body *b = &m->bodies[1];
        const double *p = b->p, *A = b->A;
        CHECK_CLOSE(p[0] * p[0] + p[1] * p[1] + p[2] * p[2] + p[3] * p[3], 1, 1e-15);
        /* A(p) from the formula of the reading guide (Sec. 2.1) */
        double Ap[9] = {
            2 * (p[0] * p[0] + p[1] * p[1] - 0.5), 2 * (p[1] * p[2] - p[0] * p[3]), 2 * (p[1] * p[3] + p[0] * p[2]),
            2 * (p[1] * p[2] + p[0] * p[3]), 2 * (p[0] * p[0] + p[2] * p[2] - 0.5), 2 * (p[2] * p[3] - p[0] * p[1]),
            2 * (p[1] * p[3] - p[0] * p[2]), 2 * (p[2] * p[3] + p[0] * p[1]), 2 * (p[0] * p[0] + p[3] * p[3] - 0.5)};
        for (int i = 0; i < 9; i++)
            CHECK_MSG(fabs(Ap[i] - A[i]) <= 1e-15, "form %zu: A(p)[%d] = %.17g, A = %.17g", k, i, Ap[i], A[i]);
        mbd_model_desc_free(m);
    }
    /* the half turn about z has e0 = 0, e3 = 1 */
    mbd_model_desc *m;
    mbd_model_error e;
    if (body_with(forms[3], &m, &e) == GSL_SUCCESS) {
        CHECK_CLOSE(m->bodies[1].p[0], 0, 1e-16);
        CHECK_CLOSE(fabs(m->bodies[1].p[3]), 1, 1e-16);
        mbd_model_desc_free(m);
    }
}

/* angular_velocity_global is turned into the body frame: omega-bar = A^T omega */
static void rotations_angular_velocity_frames(void)
{
    mbd_model_desc *m;
    mbd_model_error e;
    CHECK_STATUS(body_with("    orientation: {axis: [0, 0, 1], angle: pi/2}\n"
                           "    angular_velocity_global: [1, 0, 0]\n", &m, &e), GSL_SUCCESS);
    if (m == NULL)
        return;
    const mbd_model_body *b = &m->bodies[1];
    CU_ASSERT(b->omega_frame == MBD_MODEL_FRAME_GLOBAL && b->velocity_known);
    CHECK_VEC(b->omega, 1, 0, 0);
    CHECK_CLOSE(b->omega_bar[0], 0, 1e-15);
    CHECK_CLOSE(b->omega_bar[1], -1, 1e-15);
    CHECK_CLOSE(b->omega_bar[2], 0, 1e-15);
    mbd_model_desc_free(m);
}

/* ------------------------------------------------------------------------ */
/* Numbers                                                                   */

static void numbers_expressions(void)
{
    static const struct {
        const char *text;
        double value;
    } ok[] = {
        {"2", 2}, {"-0.5", -0.5}, {"1e-3", 1e-3}, {".5", 0.5}, {"5.", 5}, {"+7", 7}, {"1E+2", 100},
        {"pi", PI}, {"pi/2", PI / 2}, {"-2*pi", -2 * PI}, {"sqrt(2)/2", 1.4142135623730951 / 2},
        {"-(1 + 2) * 3", -9}, {"2*-3", -6}, {"cos(0) + sin(0)", 1}, {"1 - 2 - 3", -4}, {"8 / 2 / 2", 2},
        {"0.10922*0.10922", 0.10922 * 0.10922},
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        char extra[256];
        snprintf(extra, sizeof extra, "forces:\n  - {name: f, body: b, force: [%s, 0, 0]}\n", ok[i].text);
        mbd_model_desc *m;
        mbd_model_error e;
        int st = read_text(extra, &m, &e);
        CHECK_MSG(st == GSL_SUCCESS, "'%s' refused: %s", ok[i].text, e.message);
        if (st == GSL_SUCCESS) {
            CHECK_MSG(m->forces[0].force[0] == ok[i].value, "'%s' = %.17g, expected %.17g", ok[i].text,
                      m->forces[0].force[0], ok[i].value);
            mbd_model_desc_free(m);
        }
    }
    static const char *const bad[] = {"1e", "0x10", "pi pi", "sqrt 2", "2**3", "1..2", "inf", "-.inf",
                                      ".NaN", "nan", "(1", "1)", "e", "1_000", "sqrt(-1)", "tan(1)",
                                      "((((((((((((((((((((((((((((((((((1))))))))))))))))))))))))))))))))))"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char extra[256];
        snprintf(extra, sizeof extra, "forces:\n  - {name: f, body: b, force: [%s, 0, 0]}\n", bad[i]);
        mbd_model_desc *m;
        mbd_model_error e;
        int st = read_text(extra, &m, &e);
        const char *want = "t.yaml:6:32: force 'f': 'force', item 1: expected ";
        CHECK_MSG(st == MBD_EINPUT && strncmp(e.message, want, strlen(want)) == 0,
                  "'%s': %s", bad[i], st == GSL_SUCCESS ? "accepted" : e.message);
        mbd_model_desc_free(m);
    }
}

static CU_TestInfo good_tests[] = {
    {"a01_pendulum", good_a01_pendulum},
    {"slider_crank", good_slider_crank},
    {"four_bar", good_four_bar},
    {"spring_mass_damper", good_spring_mass_damper},
    {"flyball_and_block", good_flyball_and_block},
    {"every_feature", good_every_feature},
    {"small_models", good_small_models},
    {"all_files", good_all_files},
    {"spherical_velocities", good_spherical_velocities},
    CU_TEST_INFO_NULL,
};

static CU_TestInfo error_tests[] = {
    {"bad_files_refused_where_wrong", bad_files_refused_where_wrong},
    {"bad_files_all_listed", bad_files_all_listed},
    {"without_place", errors_without_place},
    {"in_text", errors_in_text},
    CU_TEST_INFO_NULL,
};

static CU_TestInfo function_tests[] = {
    {"against_closed_forms", functions_against_closed_forms},
    {"derivatives_consistent", functions_derivatives_consistent},
    {"overflow_reported", functions_overflow_reported},
    CU_TEST_INFO_NULL,
};

static CU_TestInfo rotation_tests[] = {
    {"unit_tolerance", rotations_unit_tolerance},
    {"forms_agree", rotations_forms_agree},
    {"angular_velocity_frames", rotations_angular_velocity_frames},
    CU_TEST_INFO_NULL,
};

static CU_TestInfo number_tests[] = {
    {"expressions", numbers_expressions},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"model_file_good", NULL, NULL, NULL, NULL, good_tests},
    {"model_file_errors", NULL, NULL, NULL, NULL, error_tests},
    {"model_file_functions", NULL, NULL, NULL, NULL, function_tests},
    {"model_file_rotations", NULL, NULL, NULL, NULL, rotation_tests},
    {"model_file_numbers", NULL, NULL, NULL, NULL, number_tests},
    CU_SUITE_INFO_NULL,
};
