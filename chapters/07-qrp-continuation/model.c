/* model.c -- chapter 07's mechanisms (see model.h). */
#include <math.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_math.h>

#include "model.h"

const char *const ch07_scenario_names[] = {"fourbar", "fourbar-stop", "fourbar-torque", "double",
                                           "mod2", "mod2x2", "mod3", "mod2x3",
                                           "spatial-pendulum", NULL};
const char *const ch07_scenario_descriptions[] = {
    "the 4-bar (n = 9, m = 8), cranks at pi/2 turning at 4 rad/s (Sec. 5.2)",
    "the 4-bar released at -sqrt(12 g / 5) to stop with every bar horizontal (Sec. 5.2.2)",
    "the same with -20 N m on bar 2, which takes the other branch (Sec. 5.2.2)",
    "two 4-bars sharing bar 2's end D (n = 15, m = 14; Sec. 5.3)",
    "the two couplers as one bar: m = n = 12, one redundant row (Sec. 5.4)",
    "two of those side by side: m = n = 24, d = 2 (Sec. 5.5)",
    "three 4-bars on one 3 m coupler: m = 16 > n = 15 (Sec. 5.6)",
    "two of those: m = 32 > n = 30, d = 2 (Sec. 5.7)",
    "a point mass on a 0.08 m rod, in x, y, z (Sec. 5.1)",
    NULL,
};

int ch07_scenario_of(const char *name, ch07_scenario *s)
{
    for (int k = 0; ch07_scenario_names[k] != NULL; k++)
        if (name != NULL && strcmp(name, ch07_scenario_names[k]) == 0) {
            *s = (ch07_scenario)k;
            return GSL_SUCCESS;
        }
    return MBD_EINPUT;
}

void ch07_model_data(ch07_model *md, ch07_scenario s)
{
    memset(md, 0, sizeof *md);
    md->scenario = s;
    md->name = ch07_scenario_names[s];
    md->theta0 = M_PI / 2;
    md->omega = 4.0;
    md->ncopies = 1;
    switch (s) {
    case CH07_FOURBAR:
        md->table_m = 8, md->table_n = 9, md->table_d = 0;
        md->J = 5.0 / 3.0, md->K = 2.0;
        break;
    case CH07_FOURBAR_STOP:
    case CH07_FOURBAR_TORQUE:
        md->theta0 = 1.5 * M_PI;
        md->omega = -sqrt(12.0 * CH07_G / 5.0);   /* the thesis prints -4.8522 */
        md->torque = s == CH07_FOURBAR_TORQUE ? -20.0 : 0.0;
        md->J = 5.0 / 3.0, md->K = 2.0;
        break;
    case CH07_DOUBLE:
        md->table_m = 14, md->table_n = 15, md->table_d = 0;
        md->J = 3.0, md->K = 3.5;
        break;
    case CH07_MOD2:
    case CH07_MOD2X2:
        md->omega = -1.0;
        md->ncopies = s == CH07_MOD2X2 ? 2 : 1;
        md->table_m = md->table_n = 12 * md->ncopies, md->table_d = md->ncopies;
        md->J = 3.0, md->K = 3.5;
        break;
    case CH07_MOD3:
    case CH07_MOD2X3:
        md->omega = -1.0;
        md->ncopies = s == CH07_MOD2X3 ? 2 : 1;
        md->table_m = 16 * md->ncopies, md->table_n = 15 * md->ncopies, md->table_d = md->ncopies;
        md->J = 13.0 / 3.0, md->K = 5.0;
        break;
    default:
        md->pend_m = 1.0;
        md->pend_l = 0.08;
        break;
    }
}

/* ------------------------------------------------------------------------ */
/* The spatial pendulum: a point mass in (x, y, z), C = x^2 + y^2 + z^2 - l^2
 * (the thesis's eq. 5.2 prints + l^2), gravity in -z                         */

static int pend_mass(const mbd_system *s, double t, const gsl_vector *q, gsl_matrix *M)
{
    (void)t;
    (void)q;
    const ch07_model *md = s->model;
    gsl_matrix_set_identity(M);
    gsl_matrix_scale(M, md->pend_m);
    return GSL_SUCCESS;
}

static int pend_force(const mbd_system *s, double t, const gsl_vector *q, const gsl_vector *qd,
                      gsl_vector *F)
{
    (void)t;
    (void)q;
    (void)qd;
    const ch07_model *md = s->model;
    gsl_vector_set_zero(F);
    gsl_vector_set(F, 2, -md->pend_m * CH07_G);
    return GSL_SUCCESS;
}

static int pend_constraint(const mbd_system *s, double t, const gsl_vector *q, gsl_vector *C)
{
    (void)t;
    const ch07_model *md = s->model;
    double r2 = 0.0;
    for (int i = 0; i < 3; i++)
        r2 += gsl_vector_get(q, i) * gsl_vector_get(q, i);
    gsl_vector_set(C, 0, r2 - md->pend_l * md->pend_l);
    return GSL_SUCCESS;
}

static int pend_jacobian(const mbd_system *s, double t, const gsl_vector *q, gsl_matrix *Cq)
{
    (void)s;
    (void)t;
    for (int i = 0; i < 3; i++)
        gsl_matrix_set(Cq, 0, i, 2.0 * gsl_vector_get(q, i));
    return GSL_SUCCESS;
}

/* C_q q'' = gamma = -2 |q'|^2 */
static int pend_gamma(const mbd_system *s, double t, const gsl_vector *q, const gsl_vector *qd,
                      gsl_vector *g)
{
    (void)s;
    (void)t;
    (void)q;
    double v2 = 0.0;
    for (int i = 0; i < 3; i++)
        v2 += gsl_vector_get(qd, i) * gsl_vector_get(qd, i);
    gsl_vector_set(g, 0, -2.0 * v2);
    return GSL_SUCCESS;
}

static int pend_energy(const mbd_system *s, double t, const gsl_vector *q, const gsl_vector *qd,
                       double *E)
{
    (void)t;
    const ch07_model *md = s->model;
    double v2 = 0.0;
    for (int i = 0; i < 3; i++)
        v2 += gsl_vector_get(qd, i) * gsl_vector_get(qd, i);
    *E = 0.5 * md->pend_m * v2 + md->pend_m * CH07_G * gsl_vector_get(q, 2);
    return GSL_SUCCESS;
}

/* ------------------------------------------------------------------------ */
/* The bars                                                                  */

static const double LEFT[2] = {-0.5, 0.0}, RIGHT[2] = {0.5, 0.0};

/* a crank (bar `label`) pinned by its left end to the ground at x */
static int crank(ch07_model *md, int ground, double x, int label)
{
    const int b = mbd_planar_add_body(md->pm, label, 1.0, 1.0 / 12.0, NULL);
    const double pin[2] = {x, 0.0};
    mbd_planar_add_revolute(md->pm, b, LEFT, ground, pin);
    md->crank[md->ncrank++] = b;
    return b;
}

/* a coupler of length L (mass L kg, J = L^3 / 12) */
static int coupler(ch07_model *md, int label, double L)
{
    const int b = mbd_planar_add_body(md->pm, label, L, L * L * L / 12.0, NULL);
    md->coupler_len[md->ncoupler] = L;
    md->coupler[md->ncoupler++] = b;
    return b;
}

/* >> build */
/* One copy with its first pivot at x0; bars numbered from `label`. */
static void copy(ch07_model *md, int ground, double x0, int label)
{
    mbd_planar_model *pm = md->pm;
    switch (md->scenario) {
    case CH07_DOUBLE: {   /* A, B, C, D (3-2 and 2-4), E, F: 7 pins */
        const int b1 = crank(md, ground, x0, label);
        const int b2 = coupler(md, label + 1, 1.0);
        const int b3 = crank(md, ground, x0 + 1.0, label + 2);
        const int b4 = coupler(md, label + 3, 1.0);
        const int b5 = crank(md, ground, x0 + 2.0, label + 4);
        mbd_planar_add_revolute(pm, b1, RIGHT, b2, LEFT);    /* B */
        mbd_planar_add_revolute(pm, b3, RIGHT, b2, RIGHT);   /* D on bar 2 */
        mbd_planar_add_revolute(pm, b2, RIGHT, b4, LEFT);    /* D, bars 2 and 4 */
        mbd_planar_add_revolute(pm, b5, RIGHT, b4, RIGHT);   /* F */
        break;
    }
    case CH07_MOD2:
    case CH07_MOD2X2:
    case CH07_MOD3:
    case CH07_MOD2X3: {   /* one long coupler on 3 or 4 cranks */
        const int ncr = (md->scenario == CH07_MOD2 || md->scenario == CH07_MOD2X2) ? 3 : 4;
        const double L = ncr - 1.0;
        const int b1 = crank(md, ground, x0, label);
        const int b2 = coupler(md, label + 1, L);
        int cr[4] = {b1};
        for (int c = 1; c < ncr; c++)
            cr[c] = crank(md, ground, x0 + c, label + 1 + c);
        for (int c = 0; c < ncr; c++) {
            const double at[2] = {-0.5 * L + c, 0.0};
            mbd_planar_add_revolute(pm, cr[c], RIGHT, b2, at);
        }
        break;
    }
    default: {   /* the 4-bar: A, B, C, D */
        const int b1 = crank(md, ground, x0, label);
        const int b2 = coupler(md, label + 1, 1.0);
        const int b3 = crank(md, ground, x0 + 1.0, label + 2);
        mbd_planar_add_revolute(pm, b1, RIGHT, b2, LEFT);    /* B */
        mbd_planar_add_revolute(pm, b3, RIGHT, b2, RIGHT);   /* D */
        if (md->torque != 0.0)
            mbd_planar_add_torque(pm, b2, md->torque);
        break;
    }
    }
}
/* << build */

int ch07_model_build(ch07_model *md)
{
    ch07_model_free(md);
    md->ncrank = md->ncoupler = 0;
    if (md->scenario == CH07_SPATIAL_PENDULUM) {
        static const char *const names[] = {"x", "y", "z"};
        md->pendulum = (mbd_system){.n = 3, .m = 1, .names = names, .model = md,
                                    .mass = pend_mass, .force = pend_force,
                                    .constraint = pend_constraint, .jacobian = pend_jacobian,
                                    .gamma = pend_gamma, .energy = pend_energy};
        return GSL_SUCCESS;
    }
    md->pm = mbd_planar_alloc();
    if (md->pm == NULL)
        return GSL_ENOMEM;
    const int ground = mbd_planar_add_ground(md->pm, 0);
    mbd_planar_set_gravity(md->pm, 0.0, -CH07_G);
    /* a copy spans 1, 2 or 3 m; the second starts 2 m beyond the first's end */
    const double span = (md->scenario == CH07_MOD3 || md->scenario == CH07_MOD2X3) ? 3.0
                        : (md->scenario == CH07_FOURBAR || md->scenario == CH07_FOURBAR_STOP
                           || md->scenario == CH07_FOURBAR_TORQUE) ? 1.0 : 2.0;
    const int per_copy = (md->scenario == CH07_MOD3 || md->scenario == CH07_MOD2X3) ? 5
                         : (md->scenario == CH07_DOUBLE) ? 5
                         : (md->scenario == CH07_MOD2 || md->scenario == CH07_MOD2X2) ? 4 : 3;
    for (size_t c = 0; c < md->ncopies; c++) {
        md->copy_x[c] = (double)c * (span + 2.0);
        copy(md, ground, md->copy_x[c], 1 + (int)c * per_copy);
    }
    md->nbars = (size_t)(md->ncrank + md->ncoupler);
    return mbd_planar_finish(md->pm);
}

void ch07_model_free(ch07_model *md)
{
    mbd_planar_free(md->pm);
    md->pm = NULL;
}

const mbd_system *ch07_system(const ch07_model *md)
{
    if (md->scenario == CH07_SPATIAL_PENDULUM)
        return md->pendulum.n ? &md->pendulum : NULL;
    return md->pm ? mbd_planar_system(md->pm) : NULL;
}

int ch07_state(const ch07_model *md, double th, double w, double q[], double qd[])
{
    const mbd_system *s = ch07_system(md);
    if (s == NULL)
        return MBD_EINPUT;
    if (md->scenario == CH07_SPATIAL_PENDULUM)
        return ch07_initial(md, q, qd);
    gsl_vector_view qv = gsl_vector_view_array(q, s->n), qdv = gsl_vector_view_array(qd, s->n);
    gsl_vector_set_zero(&qv.vector);
    gsl_vector_set_zero(&qdv.vector);
    const double c = cos(th), sn = sin(th);
    /* every crank at angle th about its pivot; every coupler translates with
     * the cranks' tips (the parallelogram); pivots in order: each copy's cranks at copy_x + 0, 1, (2, 3) */
    int k = 0;
    for (size_t cp = 0; cp < md->ncopies; cp++) {
        const int per = md->ncrank / (int)md->ncopies;
        for (int i = 0; i < per; i++, k++) {
            const double px = md->copy_x[cp] + i;
            mbd_planar_set_pose(md->pm, md->crank[k], px + 0.5 * c, 0.5 * sn, th, &qv.vector);
            mbd_planar_set_velocity(md->pm, md->crank[k], -0.5 * w * sn, 0.5 * w * c, w,
                                    &qdv.vector);
        }
    }
    k = 0;
    for (size_t cp = 0; cp < md->ncopies; cp++) {
        const int per = md->ncoupler / (int)md->ncopies;
        double x = md->copy_x[cp] + c;   /* the first crank's tip */
        for (int j = 0; j < per; j++, k++) {
            const double L = md->coupler_len[k];
            mbd_planar_set_pose(md->pm, md->coupler[k], x + 0.5 * L, sn, 0.0, &qv.vector);
            mbd_planar_set_velocity(md->pm, md->coupler[k], -w * sn, w * c, 0.0, &qdv.vector);
            x += L;
        }
    }
    return GSL_SUCCESS;
}

int ch07_initial(const ch07_model *md, double q[], double qd[])
{
    if (md->scenario == CH07_SPATIAL_PENDULUM) {
        q[0] = md->pend_l, q[1] = 0.0, q[2] = 0.0;
        qd[0] = 0.0, qd[1] = 0.7895, qd[2] = 0.0;
        return GSL_SUCCESS;
    }
    return ch07_state(md, md->theta0, md->omega, q, qd);
}
