/* Exercise 04.2: Table 3's units, and what the loads do (see README.md). */
#include <math.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_math.h>

#include "ex04.h"

int ex04_from_table(double m1, double m2, double b, int weights, ex04_params *p)
{
    /* EXERCISE 04.2 BEGIN */
    if (!(m1 > 0) || !(m2 > 0) || !(b >= 0))
        return GSL_EINVAL;
    const double g = 386.4;   /* in/s^2 */
    /* a weight W [lbf] is the mass W / g [lbf s^2/in]; the text instead puts
     * the numbers into M as they stand */
    const double scale = weights ? 1.0 / g : 1.0;
    *p = (ex04_params){
        .m1 = m1 * scale,
        .m2 = m2 * scale,
        .L = 25.0,
        .b = b,
        .g = g,
        .F0 = 1.0,            /* lbf: a force, whatever the masses are */
        .omega = M_PI / 4.0,
    };
    return GSL_SUCCESS;
    /* EXERCISE 04.2 STUB
    (void)m1; (void)m2; (void)b; (void)weights; (void)p;
    EXERCISE 04.2 END */
}

int ex04_loads_at(const ex04_params *p, double theta1, ex04_loads *out)
{
    /* EXERCISE 04.2 BEGIN */
    const double s = sin(theta1), c = cos(theta1);
    const double M11 = p->m1 * (4.0 * p->L * p->L + p->b * p->b) / 12.0;   /* the rod about its end */
    const double inertia = M11 + p->m2 * p->L * p->L * s * s;
    if (!(inertia > 0))
        return MBD_ESINGULAR;
    out->M11 = M11;
    out->M22 = p->m2;
    out->inertia = inertia;
    /* at rest the velocity term vanishes: theta'' = (moment) / inertia */
    out->accel_gravity = -0.5 * p->m1 * p->g * p->L * c / out->inertia;
    out->accel_force = -p->F0 * p->L * s / out->inertia;
    return GSL_SUCCESS;
    /* EXERCISE 04.2 STUB
    (void)p; (void)theta1; (void)out;
    EXERCISE 04.2 END */
}
