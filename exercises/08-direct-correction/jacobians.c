/* Exercise 08.1: a cut joint's violations and its Jacobians Phi_q and
 * Phidot_q by the document's semi-analytic rule (see README.md). */
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_errno.h>

#include "ex08.h"

int ex08_cut_jacobians(const ex08_tree *tree, const ex08_cut cut[], size_t ncut, const double q[],
                       const double qd[], double phi[], double phidot[], gsl_matrix *Phi_q,
                       gsl_matrix *Phidot_q)
{
    /* EXERCISE 08.1: your code here (see README.md) */
    (void)tree; (void)cut; (void)ncut; (void)q; (void)qd; (void)phi; (void)phidot;
    (void)Phi_q; (void)Phidot_q;
    return MBD_EUNIMPL;
}
