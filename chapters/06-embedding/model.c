/* model.c -- chapter 06's mechanisms assembled from planar bodies and
 * joints (see model.h). */
#include <math.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_math.h>

#include "model.h"
#include "reference.h"

const char *const ch06_scenario_names[] = {"pendulum", "slider-crank", "double-pendulum", NULL};
const char *const ch06_scenario_descriptions[] = {
    "a rod pinned at one end (n = 3, m = 2), released horizontal",
    "crank 2, rod 3, slider 4 in body coordinates (n = 9, m = 8), theta2' = 5 rad/s",
    "two rods in a chain (n = 6, m = 4, two degrees of freedom), released horizontal",
    NULL,
};

int ch06_scenario_of(const char *name, ch06_scenario *s)
{
    for (int k = 0; ch06_scenario_names[k] != NULL; k++)
        if (name != NULL && strcmp(name, ch06_scenario_names[k]) == 0) {
            *s = (ch06_scenario)k;
            return GSL_SUCCESS;
        }
    return MBD_EINPUT;
}

void ch06_model_data(ch06_model *md, ch06_scenario s)
{
    memset(md, 0, sizeof *md);
    md->scenario = s;
    md->name = ch06_scenario_names[s];
    md->pend = (ch06_pendulum_data){.m = 1.0, .l = 1.0};
    md->slider = (ch06_slider_data){.l2 = 0.2, .l3 = 0.5, .m2 = 1.0, .m3 = 2.0, .m4 = 0.5,
                                    .J4 = 1e-3, .theta2 = M_PI / 3.0, .omega2 = 5.0};
    md->dbl = (ch06_double_data){.m1 = 1.0, .l1 = 1.0, .m2 = 1.0, .l2 = 1.0, .theta1 = 0.0,
                                 .theta2 = 0.0};
}

/* a uniform rod of mass m and length l, its reference point the centre */
static int rod(mbd_planar_model *pm, int label, double m, double l)
{
    return mbd_planar_add_body(pm, label, m, m * l * l / 12.0, NULL);
}

/* >> build */
int ch06_model_build(ch06_model *md)
{
    ch06_model_free(md);
    mbd_planar_model *pm = mbd_planar_alloc();
    if (pm == NULL)
        return GSL_ENOMEM;
    md->pm = pm;
    mbd_planar_set_gravity(pm, 0.0, -CH06_G);
    const double origin[2] = {0.0, 0.0};
    switch (md->scenario) {
    case CH06_PENDULUM: {
        const double l = md->pend.l, pin[2] = {-0.5 * l, 0.0};
        const int ground = mbd_planar_add_ground(pm, 0);
        const int bar = rod(pm, 1, md->pend.m, l);
        mbd_planar_add_revolute(pm, bar, pin, ground, origin);
        break;
    }
    case CH06_SLIDER_CRANK: {
        const ch06_slider_data *d = &md->slider;
        const int ground = mbd_planar_add_ground(pm, 1);
        const int crank = rod(pm, 2, d->m2, d->l2);
        const int conrod = rod(pm, 3, d->m3, d->l3);
        const int slider = mbd_planar_add_body(pm, 4, d->m4, d->J4, NULL);
        const double O[2] = {-0.5 * d->l2, 0.0}, A2[2] = {0.5 * d->l2, 0.0},
                     A3[2] = {-0.5 * d->l3, 0.0}, B3[2] = {0.5 * d->l3, 0.0};
        mbd_planar_add_revolute(pm, crank, O, ground, origin);         /* O */
        mbd_planar_add_revolute(pm, crank, A2, conrod, A3);            /* A */
        mbd_planar_add_revolute(pm, conrod, B3, slider, origin);       /* B */
        mbd_planar_add_coordinate_driver(pm, slider, MBD_PLANAR_Y, mbd_planar_constant_speed(0, 0));
        mbd_planar_add_coordinate_driver(pm, slider, MBD_PLANAR_THETA,
                                         mbd_planar_constant_speed(0, 0));
        break;
    }
    default: {
        const ch06_double_data *d = &md->dbl;
        const int ground = mbd_planar_add_ground(pm, 0);
        const int r1 = rod(pm, 1, d->m1, d->l1), r2 = rod(pm, 2, d->m2, d->l2);
        const double p1[2] = {-0.5 * d->l1, 0.0}, q1[2] = {0.5 * d->l1, 0.0},
                     p2[2] = {-0.5 * d->l2, 0.0};
        mbd_planar_add_revolute(pm, r1, p1, ground, origin);
        mbd_planar_add_revolute(pm, r1, q1, r2, p2);
        break;
    }
    }
    return mbd_planar_finish(pm);
}
/* << build */

void ch06_model_free(ch06_model *md)
{
    mbd_planar_free(md->pm);
    md->pm = NULL;
}

const mbd_system *ch06_system(const ch06_model *md)
{
    return md->pm ? mbd_planar_system(md->pm) : NULL;
}

int ch06_initial(const ch06_model *md, double q0[], double qd0[])
{
    if (ch06_system(md) == NULL)
        return MBD_EINPUT;
    double y[4];
    ch06_reduced_initial(md, y);
    ch06_reduced_to_state(md, y, q0, qd0);
    return GSL_SUCCESS;
}

size_t ch06_labels(const ch06_model *md, int labels[3])
{
    switch (md->scenario) {
    case CH06_PENDULUM:
        labels[0] = 1;
        return 1;
    case CH06_SLIDER_CRANK:
        labels[0] = 2;
        labels[1] = 3;
        labels[2] = 4;
        return 3;
    default:
        labels[0] = 1;
        labels[1] = 2;
        return 2;
    }
}
