/* model.h -- chapter 04's model: the Scotch-yoke mechanism of document 000
 * (Newhart 2019, Sec. 2.4.2, Table 3, listing A.3).
 *
 * A rod (body 1, length L, width b, mass m1) turns about a fixed pin at the
 * origin; its tip rides in the vertical slot of a yoke (body 2, mass m2) that
 * slides along x. Gravity acts in -y, and a force sin(pi t / 4) pushes the
 * yoke along +x. The coordinates are q = (theta1, x2): the rod's angle from
 * the +x axis and the yoke's position. One constraint ties them,
 *
 *     C = x2 - L cos(theta1) = 0,
 *
 * so the mechanism has one degree of freedom.
 *
 * Units are the document's: inches, seconds, pounds-force; a mass is then in
 * lbf s^2 / in (the document's "slug" in the listing is a misnomer).
 */
#ifndef CH04_MODEL_H
#define CH04_MODEL_H

#include <stddef.h>

#include "mbd/error.h"
#include "mbd/system.h"

/* The two readings of the document's parameters. */
typedef enum {
    CH04_TABLE,      /* Table 3's numbers used as masses: m1 = 0.5, m2 = 5, b = 2, mu = 1e7 */
    CH04_LISTING     /* listing A.3: m1 = 0.5/g, m2 = 5/g, b = 0.05, mu = 1e5 */
} ch04_variant;

typedef struct {
    ch04_variant variant;
    const char *name;    /* "table" or "listing" */
    double g;            /* in/s^2 */
    double m1, m2;       /* lbf s^2 / in */
    double L, b;         /* in */
    double F0;           /* force amplitude on the yoke, lbf */
    double omega;        /* its angular frequency pi/4, rad/s */
    double mu;           /* the document's penalty factor for this reading */
    double theta0;       /* initial angle, rad (the mechanism starts at rest) */
} ch04_params;

#define CH04_G 386.4          /* in/s^2 */
#define CH04_T_END 4.0        /* s, Table 3 */
#define CH04_DT_OUT 1e-4      /* s, Table 3's "dt": the output spacing */
#define CH04_ALPHA 20.0       /* Baumgarte weights of the listing */
#define CH04_BETA 20.0

/* The parameters of a reading; MBD_EINPUT for an unknown name. */
void ch04_params_init(ch04_params *p, ch04_variant v);
int ch04_variant_of(const char *name, ch04_variant *v);

/* The rod's moment of inertia about the pin, M11 = m1 (4 L^2 + b^2) / 12. */
double ch04_inertia(const ch04_params *p);
/* The generalized force on x2: +F0 sin(omega t) (listing A.3 applies -f with
 * f = -sin(pi t / 4)). */
double ch04_yoke_force(const ch04_params *p, double t);

/* The constrained model (n = 2, m = 1) for p, which must outlive it. No
 * energy: the force depends on time, so nothing is conserved. */
void ch04_system_init(mbd_system *s, const ch04_params *p);
/* The consistent initial state: theta1 = theta0, x2 = L cos theta0, at rest. */
void ch04_initial_state(const ch04_params *p, double q0[2], double qd0[2]);

/* The names of q for CSV headers: theta1, x2. */
extern const char *const ch04_names[];

#endif
