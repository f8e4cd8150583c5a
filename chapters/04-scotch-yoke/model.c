/* model.c -- the Scotch-yoke mechanism of document 000, Sec. 2.4.2: the
 * constrained model in q = (theta1, x2) for the library's formulations. The
 * reduced equation it is checked against is in reference.c. */
#include <math.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_math.h>

#include "model.h"

const char *const ch04_names[] = {"theta1", "x2"};

/* >> variants */
void ch04_params_init(ch04_params *p, ch04_variant v)
{
    *p = (ch04_params){
        .variant = v,
        .g = CH04_G,
        .L = 25.0,
        .F0 = 1.0,
        .omega = M_PI / 4.0,
        .theta0 = 1.0,
    };
    if (v == CH04_TABLE) {
        /* Table 3's "m1 = 0.5 lbf, m2 = 5 lbf" taken as masses, as the text
         * does when it finds M11 = 104 and picks mu = 10^7 */
        p->name = "table";
        p->m1 = 0.5;
        p->m2 = 5.0;
        p->b = 2.0;
        p->mu = 1e7;
    } else {
        /* listing A.3: the same numbers read as weights and divided by g */
        p->name = "listing";
        p->m1 = 0.5 / CH04_G;
        p->m2 = 5.0 / CH04_G;
        p->b = 0.05;
        p->mu = 1e5;
    }
}
/* << variants */

int ch04_variant_of(const char *name, ch04_variant *v)
{
    if (name != NULL && strcmp(name, "table") == 0)
        *v = CH04_TABLE;
    else if (name != NULL && strcmp(name, "listing") == 0)
        *v = CH04_LISTING;
    else
        return MBD_EINPUT;
    return GSL_SUCCESS;
}

double ch04_inertia(const ch04_params *p) { return p->m1 * (4.0 * p->L * p->L + p->b * p->b) / 12.0; }

double ch04_yoke_force(const ch04_params *p, double t) { return p->F0 * sin(p->omega * t); }

/* ------------------------------------------------------------------------ */
/* The constrained model                                                     */

/* >> model */
static int mass(const mbd_system *s, double t, const gsl_vector *q, gsl_matrix *M)
{
    (void)t;
    (void)q;
    const ch04_params *p = s->model;
    gsl_matrix_set_zero(M);
    gsl_matrix_set(M, 0, 0, ch04_inertia(p));   /* the rod about its pin */
    gsl_matrix_set(M, 1, 1, p->m2);             /* the yoke translates */
    return GSL_SUCCESS;
}

static int force(const mbd_system *s, double t, const gsl_vector *q, const gsl_vector *qd,
                 gsl_vector *F)
{
    (void)qd;
    const ch04_params *p = s->model;
    const double th = gsl_vector_get(q, 0);
    /* gravity (-y) on the rod's centre, L/2 out: a moment about the pin */
    gsl_vector_set(F, 0, -0.5 * p->m1 * p->g * p->L * cos(th));
    /* the applied force on the yoke, along +x */
    gsl_vector_set(F, 1, ch04_yoke_force(p, t));
    return GSL_SUCCESS;
}

static int constraint(const mbd_system *s, double t, const gsl_vector *q, gsl_vector *C)
{
    (void)t;
    const ch04_params *p = s->model;
    /* the rod's tip, at x = L cos(theta1), stays in the yoke's slot */
    gsl_vector_set(C, 0, gsl_vector_get(q, 1) - p->L * cos(gsl_vector_get(q, 0)));
    return GSL_SUCCESS;
}

static int jacobian(const mbd_system *s, double t, const gsl_vector *q, gsl_matrix *Cq)
{
    (void)t;
    const ch04_params *p = s->model;
    gsl_matrix_set(Cq, 0, 0, p->L * sin(gsl_vector_get(q, 0)));
    gsl_matrix_set(Cq, 0, 1, 1.0);
    return GSL_SUCCESS;
}

static int gamma_rhs(const mbd_system *s, double t, const gsl_vector *q, const gsl_vector *qd,
                     gsl_vector *gamma)
{
    (void)t;
    const ch04_params *p = s->model;
    /* C_q q'' = gamma with gamma = -(C_q q')_q q' = -L cos(theta1) theta1'^2 */
    const double th = gsl_vector_get(q, 0), thd = gsl_vector_get(qd, 0);
    gsl_vector_set(gamma, 0, -p->L * cos(th) * thd * thd);
    return GSL_SUCCESS;
}

void ch04_system_init(mbd_system *s, const ch04_params *p)
{
    *s = (mbd_system){
        .n = 2,
        .m = 1,
        .names = ch04_names,
        .model = (void *)p,
        .mass = mass,
        .force = force,
        .constraint = constraint,
        .jacobian = jacobian,
        .constraint_t = NULL,   /* scleronomic: the forcing is in F, not in C */
        .gamma = gamma_rhs,
        .energy = NULL,         /* a time-dependent force: nothing is conserved */
    };
}
/* << model */

void ch04_initial_state(const ch04_params *p, double q0[2], double qd0[2])
{
    q0[0] = p->theta0;
    q0[1] = p->L * cos(p->theta0);
    qd0[0] = 0.0;
    qd0[1] = 0.0;
}
