/* mbd/correction.h -- putting a state back onto the constraints between steps.
 *
 * The correction stage of the pipeline
 *
 *     model -> formulation -> integrator -> correction -> output
 *
 * An integrator that carries q and q' independently lets C(t, q) and
 * C' = C_q q' + C_t drift away from zero. A post-step coordinate projection
 * (run through the run loop's hook, run.h) moves the state back:
 *
 *   positions, by Newton's method on C(t, q) = 0 with the minimum-norm step
 *       dq = -W C_q^T (C_q W C_q^T)^-1 C,
 *   then velocities, in one linear step onto C_q q' + C_t = 0,
 *       dq' = -W C_q^T (C_q W C_q^T)^-1 (C_q q' + C_t),
 *
 * with W = I (the shortest step in the coordinates' own units) or W = M^-1
 * (the step of least kinetic energy). This is what document 000's listings
 * meant their in-function `while abs(C) > 1e-10` loops to do; there the loops
 * work on a local copy and, by MATLAB's vector `while`, never run.
 *
 * Document 004 (Zhang et al. 2023) compares that sequential correction, its
 * scenario (b), with simultaneous ones on x = (q, q') (N = 2n unknowns):
 *
 *   (c) r = [C; C'],          J = [C_q 0; C'_q C_q]              (2m x 2n),
 *   (d) r = [C; C'; E - E0],  J = [C_q 0; C'_q C_q; E_q E_q']    (2m+1 x 2n),
 *
 * (its eqs. 21 and 36; C'_{q'} = C_q), Newton with the minimum-norm step
 *     dx = -W J^T (J W J^T)^-1 r
 * until the residuals are below tol (the energy's below energy_tol max(1,
 * |E0|)) or the step is round-off; J has more columns than rows (the degrees
 * of freedom are n - m >= 1), so the minimum-norm choice among the steps
 * matters and is the document's "orthogonal to the constraints". C'_q and
 * the energy's gradients come from the model when it gives them
 * (system.h: rate_jacobian, energy_gradient), else from gamma (exactly) and
 * central differences of the energy. A correction that does not converge in
 * max_iter iterations, or whose J W J^T is singular (the energy row dependent
 * on the others, e.g. at rest in an equilibrium), is a failure with the time,
 * the residuals and the iterations, never a silent continue.
 */
#ifndef MBD_CORRECTION_H
#define MBD_CORRECTION_H

#include <stddef.h>

#include <gsl/gsl_vector.h>

#include "mbd/error.h"
#include "mbd/system.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What is corrected, and how (document 004, Zhang et al. 2023, Secs. 3-5:
 * its scenarios (b), (c), (d); (a) is no correction at all). */
typedef enum {
    MBD_CORRECTION_SEQUENTIAL = 0, /* (b): Newton on C = 0, then one step onto C' = 0 */
    MBD_CORRECTION_SIMULTANEOUS,   /* (c): Newton on [C; C'] = 0 in x = (q, q') */
    MBD_CORRECTION_ENERGY          /* (d): Newton on [C; C'; E - E0] = 0 in x = (q, q') */
} mbd_correction_mode;

typedef struct {
    int mass_weighted;     /* 0: W = I (minimum norm); 1: W = M^-1 (for (q, q'): W =
                              diag(M^-1, M^-1), the step of least kinetic energy in
                              both halves) */
    double tol;            /* done when |C| <= tol (and |C'| <= tol); <= 0: 1e-10 */
    unsigned max_iter;     /* Newton iterations; 0: 20 */
    mbd_correction_mode mode;
    double energy_tol;     /* ENERGY: done when also |E - E0| <= energy_tol max(1, |E0|);
                              <= 0: tol */
} mbd_projection_params;

/* Counters over the life of a workspace. */
typedef struct {
    long calls;            /* states looked at */
    long positions;        /* states whose positions were moved */
    long velocities;       /* states whose velocities were moved */
    long iterations;       /* Newton iterations, in all */
    long max_iterations;   /* the most in one call */
} mbd_projection_stats;

typedef struct mbd_projection mbd_projection;

/* NULL for an invalid system (or one without constraints). */
mbd_projection *mbd_projection_alloc(const mbd_system *s, const mbd_projection_params *p);
void mbd_projection_free(mbd_projection *w);

/* Moves q onto C(t, q) = 0 (nothing when |C| <= tol already); *moved says
 * whether it did. MBD_ENOCONV when |C| is still above tol after max_iter
 * iterations, MBD_ESINGULAR when C_q W C_q^T cannot be factored. */
int mbd_projection_positions(mbd_projection *w, double t, gsl_vector *q, int *moved);

/* Moves q' onto C_q q' + C_t = 0 at the positions q (nothing when
 * |C'| <= tol already). */
int mbd_projection_velocities(mbd_projection *w, double t, const gsl_vector *q, gsl_vector *qd,
                              int *moved);

/* The energy E0 that MBD_CORRECTION_ENERGY holds (set before the first
 * correction; the pipeline sets the energy of the initial state). */
void mbd_projection_set_energy(mbd_projection *w, double E0);

/* The correction of the mode: SEQUENTIAL, positions then velocities at the
 * new positions; SIMULTANEOUS and ENERGY, Newton on (q, q') together.
 * *changed says whether anything moved. */
int mbd_projection_correct(mbd_projection *w, double t, gsl_vector *q, gsl_vector *qd,
                           int *changed);

/* mbd_projection_correct() on a state y = [q; q'] (2n values). The pipeline
 * (simulate.h) corrects (q, q') through the formulation's unpack and pack
 * instead, whatever the formulation's state is. */
int mbd_projection_apply(mbd_projection *w, double t, double y[], int *changed);

/* mbd_projection_apply() as a run-loop hook (run.h): ctx is the workspace. */
int mbd_projection_hook(void *ctx, double t, double y[], int *changed, mbd_failure *fail);

const mbd_projection_stats *mbd_projection_get_stats(const mbd_projection *w);
const mbd_failure *mbd_projection_failure(const mbd_projection *w);

#ifdef __cplusplus
}
#endif

#endif
