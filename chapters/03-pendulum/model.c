/* chapters/03-pendulum/model.c -- the simple pendulum of document 000,
 * Sec. 2.4.1: the constrained model in Cartesian coordinates. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_math.h>
#include <gsl/gsl_sf_elljac.h>
#include <gsl/gsl_sf_ellint.h>

#include "model.h"

const char *const ch03_names[CH03_N] = {"x", "y", "z"};

void ch03_pendulum_document(ch03_pendulum *p)
{
    p->m = 1.0;
    p->L = 1.0;
    p->g = 9.81;
    p->theta0 = M_PI / 2;
}

void ch03_initial(const ch03_pendulum *p, double q0[CH03_N], double qd0[CH03_N])
{
    q0[0] = p->L * sin(p->theta0);
    q0[1] = p->L * cos(p->theta0);
    q0[2] = 0.0;
    if (p->theta0 == M_PI / 2)
        q0[1] = 0.0;   /* exactly on the document's x = 1, y = 0 */
    qd0[0] = qd0[1] = qd0[2] = 0.0;
}

/* >> model */
/* q = (x, y, z): a point mass on a rod of length L, gravity along +y. */
static int pend_mass(const mbd_system *s, double t, const gsl_vector *q, gsl_matrix *M)
{
    (void)t;
    (void)q;
    const ch03_pendulum *p = s->model;
    gsl_matrix_set_identity(M);
    gsl_matrix_scale(M, p->m);                        /* M = m I */
    return GSL_SUCCESS;
}

static int pend_force(const mbd_system *s, double t, const gsl_vector *q, const gsl_vector *qd,
                      gsl_vector *F)
{
    (void)t;
    (void)q;
    (void)qd;
    const ch03_pendulum *p = s->model;
    gsl_vector_set(F, 0, 0.0);
    gsl_vector_set(F, 1, p->m * p->g);                /* gravity along +y */
    gsl_vector_set(F, 2, 0.0);
    return GSL_SUCCESS;
}

static int pend_constraint(const mbd_system *s, double t, const gsl_vector *q, gsl_vector *C)
{
    (void)t;
    const ch03_pendulum *p = s->model;
    const double x = gsl_vector_get(q, 0), y = gsl_vector_get(q, 1);
    gsl_vector_set(C, 0, x * x + y * y - p->L * p->L);  /* on the circle */
    gsl_vector_set(C, 1, gsl_vector_get(q, 2));       /* in the plane z = 0 */
    return GSL_SUCCESS;
}

static int pend_jacobian(const mbd_system *s, double t, const gsl_vector *q, gsl_matrix *Cq)
{
    (void)s;
    (void)t;
    gsl_matrix_set_zero(Cq);
    gsl_matrix_set(Cq, 0, 0, 2.0 * gsl_vector_get(q, 0));
    gsl_matrix_set(Cq, 0, 1, 2.0 * gsl_vector_get(q, 1));
    gsl_matrix_set(Cq, 1, 2, 1.0);
    return GSL_SUCCESS;
}

/* gamma = -(C_q q')_q q': the first row is -2 (x'^2 + y'^2), the second 0. */
static int pend_gamma(const mbd_system *s, double t, const gsl_vector *q, const gsl_vector *qd,
                      gsl_vector *gamma)
{
    (void)s;
    (void)t;
    (void)q;
    const double xd = gsl_vector_get(qd, 0), yd = gsl_vector_get(qd, 1);
    gsl_vector_set(gamma, 0, -2.0 * (xd * xd + yd * yd));
    gsl_vector_set(gamma, 1, 0.0);
    return GSL_SUCCESS;
}

/* E = kinetic - m g y (the potential of a force m g along +y). */
static int pend_energy(const mbd_system *s, double t, const gsl_vector *q, const gsl_vector *qd,
                       double *E)
{
    (void)t;
    const ch03_pendulum *p = s->model;
    double v2 = 0.0;
    for (size_t i = 0; i < CH03_N; i++)
        v2 += gsl_vector_get(qd, i) * gsl_vector_get(qd, i);
    *E = 0.5 * p->m * v2 - p->m * p->g * gsl_vector_get(q, 1);
    return GSL_SUCCESS;
}

void ch03_system(const ch03_pendulum *p, mbd_system *s)
{
    memset(s, 0, sizeof *s);
    s->n = CH03_N;
    s->m = CH03_M;
    s->names = ch03_names;
    s->model = (void *)p;
    s->mass = pend_mass;
    s->force = pend_force;
    s->constraint = pend_constraint;
    s->jacobian = pend_jacobian;
    s->constraint_t = NULL;    /* scleronomic */
    s->gamma = pend_gamma;
    s->energy = pend_energy;
}
/* << model */
