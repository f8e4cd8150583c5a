/* story.c -- chapter 09's story (WORK IN PROGRESS, issue 19): the model
 * files, the joints' rows, the driven slider-crank against its closed form,
 * the reader's errors. The models are read from chapters/09-spatial-engine/
 * models/ below the working directory (make run starts there). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_math.h>

#include "story.h"

#define MODELS "chapters/09-spatial-engine/models/"

static int load(ch09_model *md, const char *file, mbd_failure *fail)
{
    char path[512];
    snprintf(path, sizeof path, "%s%s", MODELS, file);
    return ch09_model_load(md, path, fail);
}

/* x(theta) of the slider's origin (the guide's case 4): the crank pin at
 * (0, 0.1 + 0.08 cos, 0.12 + 0.08 sin), the rod 0.3 m, the slider on the x axis */
static double slider_x(double th)
{
    const double a = 0.1 + 0.08 * cos(th), b = 0.12 + 0.08 * sin(th);
    return sqrt(0.09 - a * a - b * b);
}

typedef struct {
    const ch09_model *md;
    int slider;
    double err, xmin, xmax;
} crank_obs;

static int crank(const mbd_spatial_model *sm, double t, const gsl_vector *q, const gsl_vector *qd,
                 const gsl_vector *qdd, const gsl_vector *lambda, void *user)
{
    (void)qd, (void)qdd, (void)lambda;
    crank_obs *o = user;
    double r[3], p[4];
    int st = mbd_spatial_pose(sm, o->slider, q, r, p);
    const double x = slider_x(M_PI / 2 + 1e-4 - 2 * M_PI * t);
    o->err = fmax(o->err, fabs(r[0] - x));
    o->xmin = fmin(o->xmin, r[0]);
    o->xmax = fmax(o->xmax, r[0]);
    return st;
}

int ch09_story(FILE *out, int no_timing, mbd_failure *fail)
{
    (void)no_timing;
    fputs("Chapter 09 -- the 3D Euler-parameter engine (document 003, Vignos 2016). Work in\n"
          "progress: the story so far.\n\n", out);
    /* Step 1: the joints */
    fputs("Step 1. One model per joint (models/joint_*.yaml): rows, rank and degrees of freedom\n"
          "of the joint between the ground and one body (plus the 7th row of the body's Euler\n"
          "parameters).\n", out);
    static const char *const joints[] = {"joint_spherical.yaml", "joint_revolute.yaml",
                                         "joint_cylindrical.yaml", "joint_translational.yaml",
                                         "joint_universal.yaml",
                                         "joint_revolute_cylindrical.yaml"};
    for (size_t k = 0; k < sizeof joints / sizeof joints[0]; k++) {
        ch09_model md;
        int st = load(&md, joints[k], fail);
        if (st != GSL_SUCCESS)
            return st;
        gsl_vector *q = gsl_vector_alloc(md.n), *qd = gsl_vector_alloc(md.n);
        int known[16] = {0};
        mbd_spatial_report rep = {0};
        ch09_initial(&md, q, qd, known);
        for (int i = 0; i < 16; i++)
            known[i] = 0;
        st = mbd_spatial_velocity(md.sm, 0.0, q, qd, known, NULL, &rep);
        fprintf(out, "  %-34s %2zu rows (joint %d, drivers %zu), rank %2zu, dof %zu\n", joints[k],
                md.m, mbd_model_joint_rows(md.desc->joints[0].type), md.desc->nconstraints,
                rep.rank, rep.dof);
        gsl_vector_free(q);
        gsl_vector_free(qd);
        ch09_model_free(&md);
        if (st != GSL_SUCCESS)
            return mbd_failure_set(fail, st, NAN, "%s: the velocity solve failed", joints[k]);
    }
    /* Step 2: the slider-crank */
    fputs("\nStep 2. The spatial slider-crank driven at 2 pi rad/s (models/slider_crank_driven.yaml):\n"
          "assembly from the document's guesses, then kinematics over 1 s at h = 1e-3, the\n"
          "slider against its closed form x(theta).\n", out);
    ch09_model md;
    int st = load(&md, "slider_crank_driven.yaml", fail);
    if (st != GSL_SUCCESS)
        return st;
    gsl_vector *q = gsl_vector_alloc(md.n), *qd = gsl_vector_alloc(md.n);
    int known[16];
    mbd_spatial_report rep = {0};
    ch09_initial(&md, q, qd, known);
    st = mbd_spatial_assemble(md.sm, 0.0, q, NULL, &rep);
    crank_obs ob = {&md, mbd_spatial_body_index(md.sm, "slider"), 0.0, INFINITY, -INFINITY};
    if (st == GSL_SUCCESS) {
        fprintf(out, "  assembly: %u iterations, |Phi| = %.1e, rank %zu of %zu rows\n",
                rep.iterations, rep.residual, rep.rank, rep.rows);
        st = mbd_spatial_kinematics(md.sm, 0.0, 1.0, 1e-3, q, NULL, crank, &ob);
    }
    if (st == GSL_SUCCESS)
        fprintf(out, "  slider x in [%.6f, %.6f] m; largest difference from the closed form %.1e m\n",
                ob.xmin, ob.xmax, ob.err);
    else
        mbd_failure_set(fail, st, NAN, "the slider-crank failed: %s",
                        mbd_spatial_last_failure(md.sm)->cause);
    gsl_vector_free(q);
    gsl_vector_free(qd);
    ch09_model_free(&md);
    if (st != GSL_SUCCESS)
        return st;
    /* Step 3: the reader's errors */
    fputs("\nStep 3. What the model reader says about three faulty files:\n", out);
    static const char *const bad[] = {
        "name: x\ngravity: [0, -9.81, 0]\nbodies:\n  - name: b\n    mass: -1\n"
        "    inertia: [1, 1, 1]\n    position: [0, 0, 0]\n",
        "name: x\ngravity: [0, -9.81, 0]\nbodies:\n  - name: b\n    mass: 1\n"
        "    inertia: [1, 1, 1]\n    position: [1, 0, 0]\njoints:\n  - name: j\n    type: revolute\n    body_i: ground\n"
        "    body_j: c\n",
        "name: x\ngravity: [0, -9.81]\n",
    };
    for (size_t k = 0; k < 3; k++) {
        char source[32];
        snprintf(source, sizeof source, "faulty-%zu.yaml", k + 1);
        mbd_failure f;
        mbd_failure_clear(&f);
        ch09_model bm;
        if (ch09_model_load_string(&bm, bad[k], source, &f) == GSL_SUCCESS)
            ch09_model_free(&bm);
        fprintf(out, "  %s\n", f.cause);
    }
    return GSL_SUCCESS;
}
