/* mbd/formulation.h -- from a state to accelerations: how the constraints act.
 *
 * The formulation stage of the pipeline
 *
 *     model -> formulation -> integrator -> correction -> output
 *
 * A formulation turns the equations of motion of a constrained system
 * (system.h),
 *
 *     M q'' + C_q^T lambda = F,     C(t, q) = 0,
 *
 * into an ordinary differential equation y' = f(t, y) that an integrator
 * (ode.h) can step. The methods of document 000 (Newhart 2019, Sec. 1.2 and
 * 2.4) are:
 *
 *   projection         Lagrange multipliers through the Schur complement
 *                      S = C_q M^-1 C_q^T:  S lambda = C_q M^-1 F - gamma_B,
 *                      M q'' = F - C_q^T lambda            (eqs. 36-49, signs fixed)
 *   penalty            the static (acceleration-level) penalty
 *                      (M + mu C_q^T C_q) q'' = F + mu C_q^T gamma_B    (eq. 71')
 *   alternate penalty  Goicolea and Garcia Orden: a stiff spring on C
 *                      M q'' = F - mu C_q^T C                          (eq. 52)
 *   index-2 penalty    first-order form with the state (q, v):
 *                      q' = v - mu C_q^T C,
 *                      M v' = F - mu C_q^T (C_q v + C_t)               (eq. 58)
 *
 * gamma_B is the acceleration right-hand side gamma, or with Baumgarte's
 * stabilisation gamma - 2 alpha C' - beta^2 C, which makes the constraint
 * error obey C'' + 2 alpha C' + beta^2 C = 0 (stable). The document's eq. (72)
 * and its pendulum listing print the opposite sign, gamma + 2 alpha C' +
 * beta^2 C, which gives C'' - 2 alpha C' - beta^2 C = 0 and grows like
 * exp((alpha + sqrt(alpha^2 + beta^2)) t); `baumgarte_printed` reproduces it.
 *
 * Each formulation owns its state layout: y = [q; q'] (2n), except the
 * index-2 penalty, whose y = [q; v] carries a velocity v that is not dq/dt.
 * mbd_formulation_unpack() always gives the kinematic velocity q'.
 *
 * Inside, a formulation is a table of operations (lib/src/formulation_impl.h)
 * over one workspace: the size of its state, pack (q, q') -> y and unpack
 * y -> (q, q'), accelerations and multipliers when the state is [q; q'],
 * its right-hand side otherwise, the condition number of the matrix it solves
 * with, an optional post-step (a basis update, a repartition), and whether a
 * post-step correction of (q, q') applies to its state. Each kind is one file
 * (formulation_projection.c, _penalty.c, _alternate.c, _index2.c); the linear
 * algebra of the constraints is the constraint solver's (constraints.h). A
 * new kind (embedding's independent coordinates, null-space speeds) is a new
 * file with its table and a line in the method table of formulation.c.
 *
 * A workspace is allocated once for a system and holds every matrix a
 * right-hand side needs; an evaluation allocates nothing. On failure (a mass
 * matrix or Schur complement that is not positive definite, a model callback
 * that fails) the workspace records the time and cause.
 */
#ifndef MBD_FORMULATION_H
#define MBD_FORMULATION_H

#include <stddef.h>

#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

#include "mbd/error.h"
#include "mbd/ode.h"
#include "mbd/system.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    MBD_FORMULATION_PROJECTION,
    MBD_FORMULATION_PENALTY,
    MBD_FORMULATION_ALTERNATE_PENALTY,
    MBD_FORMULATION_INDEX2_PENALTY
} mbd_formulation_kind;

typedef struct {
    mbd_formulation_kind kind;
    double mu;                /* penalty factor (the penalty kinds); > 0 */
    int baumgarte;            /* projection and penalty: use gamma_B with alpha, beta */
    double alpha, beta;       /* Baumgarte weights: C'' + 2 alpha C' + beta^2 C = 0 */
    int baumgarte_printed;    /* the document's eq. (72) sign: gamma + 2 alpha C' + beta^2 C */
} mbd_formulation_params;

typedef struct mbd_formulation mbd_formulation;

/* A workspace for system s. NULL when s is invalid, or the parameters are
 * (mu <= 0 for a penalty kind, Baumgarte asked of the alternate or index-2
 * penalty, which have no gamma to stabilise). */
mbd_formulation *mbd_formulation_alloc(const mbd_system *s, const mbd_formulation_params *p);
void mbd_formulation_free(mbd_formulation *f);

const mbd_system *mbd_formulation_system(const mbd_formulation *f);
const mbd_formulation_params *mbd_formulation_get_params(const mbd_formulation *f);
/* The size of the state y (2n for every kind here). */
size_t mbd_formulation_dim(const mbd_formulation *f);

/* Accelerations q'' (n) and multipliers lambda (m, or NULL) at (t, q, q') for
 * the kinds whose state is [q; q']. lambda follows the sign of
 * M q'' + C_q^T lambda = F: for the penalties it is the implied multiplier
 * mu (C_q q'' - gamma_B) (static) or mu C (alternate). Not for the index-2
 * penalty (GSL_EINVAL). */
int mbd_formulation_accel(mbd_formulation *f, double t, const gsl_vector *q,
                          const gsl_vector *qd, gsl_vector *qdd, gsl_vector *lambda);

/* The right-hand side y' = f(t, y), with gsl_odeiv2's signature; `formulation`
 * is the mbd_formulation. */
int mbd_formulation_rhs(double t, const double y[], double dydt[], void *formulation);

/* The initial state y for positions q0 and velocities qd0 (for the index-2
 * penalty v0 = qd0 + mu C_q^T C(q0), so that its q' starts at qd0). */
int mbd_formulation_pack(mbd_formulation *f, double t, const double q0[], const double qd0[],
                         double y[]);
/* Positions q and kinematic velocities q' = dq/dt of the state y. */
int mbd_formulation_unpack(mbd_formulation *f, double t, const double y[], double q[],
                           double qd[]);

/* How well the state keeps the constraints: |C| and |C'| (Euclidean norms,
 * with C' = C_q q' + C_t for the kinematic q'), and the system's energy (NAN
 * when it has none). Any pointer may be NULL. */
int mbd_formulation_measure(mbd_formulation *f, double t, const double y[], double *C_norm,
                            double *Cdot_norm, double *E);
/* The same for positions q and kinematic velocities q' already unpacked
 * (an output that records them measures without unpacking twice). */
int mbd_formulation_measure_q(mbd_formulation *f, double t, const double q[], const double qd[],
                              double *C_norm, double *Cdot_norm, double *E);

/* The 1-norm condition number estimate of the matrix the formulation solves
 * with at state y: the Schur complement S for the projection, M + mu C_q^T C_q
 * for the static penalty, M otherwise. INFINITY when it is not positive
 * definite (e.g. S where C_q has lost rank). */
int mbd_formulation_condition(mbd_formulation *f, double t, const double y[], double *cond);

/* What failed in the last evaluation that failed, and when. */
const mbd_failure *mbd_formulation_failure(const mbd_formulation *f);

/* ------------------------------------------------------------------------ */
/* The methods by name, as chapters offer them with --method                 */

/* projection, projection-baumgarte, penalty, penalty-baumgarte,
 * penalty-baumgarte-printed, alternate-penalty, index2-penalty.
 * Sets p->kind, p->baumgarte and p->baumgarte_printed for `name` and leaves
 * mu, alpha and beta as they are. MBD_EINPUT for an unknown name. */
int mbd_formulation_method(const char *name, mbd_formulation_params *p);

/* The names above and one-line descriptions, NULL-terminated. */
extern const char *const mbd_formulation_method_names[];
extern const char *const mbd_formulation_method_descriptions[];

/* 1 for a formulation that is stiff by construction, whatever mu: the
 * index-2 penalty, whose positions relax at the rate mu |C_q|^2 (4e5 /s for
 * the pendulum at mu = 1e5). An explicit integrator needs steps below about
 * 1 / (mu |C_q|^2) for it; the chapters run it with msbdf and say so. */
int mbd_formulation_is_stiff(const mbd_formulation_params *p);

/* 1 for the kinds with a penalty factor mu; 1 for the kinds whose state a
 * post-step correction of (q, q') applies to (every kind but the index-2
 * penalty, whose v is not q'). */
int mbd_formulation_uses_mu(const mbd_formulation_params *p);
int mbd_formulation_correctable(const mbd_formulation_params *p);

/* After an accepted step: the formulation's own post-step work (a basis
 * update, a repartition), which may change y (*changed = 1). Nothing for the
 * kinds here. The pipeline (simulate.h) calls it before any correction. */
int mbd_formulation_post_step(mbd_formulation *f, double t, double y[], int *changed);

/* The integrator a formulation runs with: for a stiff one, msbdf replaces
 * any other (ode.h preset); returns 1 when it replaced, else 0 and `ode` is
 * left as it is. */
int mbd_formulation_stiff_integrator(const mbd_formulation_params *p, mbd_ode_params *ode);

/* The kind's short name ("projection", "penalty", ...). */
const char *mbd_formulation_kind_name(mbd_formulation_kind kind);

#ifdef __cplusplus
}
#endif

#endif
