/* mbd/system.h -- a constrained mechanical system in generalized coordinates.
 *
 * The model end of the pipeline
 *
 *     model (mbd_system) -> formulation -> integrator -> correction -> output
 *
 * A system has n generalized coordinates q and m holonomic constraints
 * C(t, q) = 0. Its equations of motion are the index-3 DAE
 *
 *     M(q) q'' + C_q^T lambda = F(t, q, q'),     C(t, q) = 0,
 *
 * and differentiating the constraints twice gives the acceleration equation
 *
 *     C_q q'' = gamma(t, q, q'),
 *     gamma   = -(C_q q')_q q' - 2 C_qt q' - C_tt.
 *
 * Every callback returns a status (GSL_SUCCESS when it worked) and writes into
 * caller-owned storage of the right size; none allocates. A model written by
 * hand fills in the function pointers and keeps its data in `model`.
 */
#ifndef MBD_SYSTEM_H
#define MBD_SYSTEM_H

#include <stddef.h>

#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mbd_system mbd_system;

struct mbd_system {
    size_t n;                     /* number of generalized coordinates */
    size_t m;                     /* number of constraints */
    const char *const *names;     /* n coordinate names (CSV headers), or NULL */
    void *model;                  /* the model's own data */

    /* M(q), n x n, symmetric positive definite */
    int (*mass)(const mbd_system *s, double t, const gsl_vector *q, gsl_matrix *M);
    /* F(t, q, q'), n: applied and velocity-dependent generalized forces */
    int (*force)(const mbd_system *s, double t, const gsl_vector *q, const gsl_vector *qd,
                 gsl_vector *F);
    /* C(t, q), m */
    int (*constraint)(const mbd_system *s, double t, const gsl_vector *q, gsl_vector *C);
    /* C_q = dC/dq, m x n */
    int (*jacobian)(const mbd_system *s, double t, const gsl_vector *q, gsl_matrix *Cq);
    /* C_t = dC/dt, m; NULL when the constraints are scleronomic (C_t = 0) */
    int (*constraint_t)(const mbd_system *s, double t, const gsl_vector *q, gsl_vector *Ct);
    /* gamma(t, q, q'), m: the right-hand side of C_q q'' = gamma */
    int (*gamma)(const mbd_system *s, double t, const gsl_vector *q, const gsl_vector *qd,
                 gsl_vector *gamma);
    /* total mechanical energy; NULL when the model does not define one */
    int (*energy)(const mbd_system *s, double t, const gsl_vector *q, const gsl_vector *qd,
                  double *E);
    /* Optional derivatives for the simultaneous corrections (correction.h);
     * NULL lets the library form them itself:
     * the Jacobian of the constraint rate C' = C_q q' + C_t with respect to
     * q, m x n (NULL: from gamma, exactly, see mbd_system_rate_jacobian) */
    int (*rate_jacobian)(const mbd_system *s, double t, const gsl_vector *q, const gsl_vector *qd,
                         gsl_matrix *Cdot_q);
    /* the energy's gradients E_q and E_q', n each (NULL: central differences
     * of `energy`, see mbd_system_energy_gradient) */
    int (*energy_gradient)(const mbd_system *s, double t, const gsl_vector *q,
                           const gsl_vector *qd, gsl_vector *E_q, gsl_vector *E_qd);
};

/* Checks that the sizes are positive and the required callbacks are present
 * (mass, force, constraint, jacobian and gamma when m > 0). */
int mbd_system_validate(const mbd_system *s);

/* The velocity-level constraint C' = C_q q' + C_t (m). Cq is n-sized scratch
 * (m x n). */
int mbd_system_constraint_rate(const mbd_system *s, double t, const gsl_vector *q,
                               const gsl_vector *qd, gsl_matrix *Cq, gsl_vector *Cdot);

/* dC'/dq (m x n) at (t, q, q'): the model's rate_jacobian, or else from
 * gamma by polarisation. gamma = -(C_q q')_q q' - 2 C_qt q' - C_tt is
 * quadratic in q', so for any u
 *     -(gamma(q' + u) - gamma(q' - u)) / 4 = (C_q q')_q u + C_qt u = (dC'/dq) u
 * exactly, with no step to choose: column j from u = e_j (2 n calls of
 * gamma). work: 2 m + n entries. */
int mbd_system_rate_jacobian(const mbd_system *s, double t, const gsl_vector *q,
                             const gsl_vector *qd, gsl_matrix *Cdot_q, gsl_vector *work);

/* E_q and E_q' (n each) at (t, q, q'): the model's energy_gradient, or
 * else central differences of its energy with steps cbrt(eps) (1 + |x_j|)
 * (relative error about 1e-10, enough for Newton's method to converge in a
 * few more iterations). MBD_EINPUT when the model has no energy. work: 2 n
 * entries. */
int mbd_system_energy_gradient(const mbd_system *s, double t, const gsl_vector *q,
                               const gsl_vector *qd, gsl_vector *E_q, gsl_vector *E_qd,
                               gsl_vector *work);

/* Result of mbd_system_check_derivatives(): the largest differences between
 * the model's derivatives and central finite differences of C(t, q), each
 * absolute and relative to the size of the quantity compared. */
typedef struct {
    double jacobian_abs, jacobian_rel;   /* C_q  vs  dC/dq        */
    double ct_abs, ct_rel;               /* C_t  vs  dC/dt        */
    double gamma_abs, gamma_rel;         /* gamma vs -d2C/ds2 along q(s) = q + s q', t + s */
    size_t jacobian_row, jacobian_col;   /* where the Jacobian differs most */
    size_t gamma_row;                    /* where gamma differs most */
} mbd_fdcheck;

/* Compares the model's C_q, C_t and gamma at (t, q, q') with central finite
 * differences of its constraint function, with step h scaled by max(1, |q_j|)
 * (h <= 0 picks 1e-5 for the first and 1e-4 for the second derivatives).
 *
 * gamma is checked along the path t + s, q + s q' (zero acceleration), on which
 * d2C/ds2 = -gamma; so a sign error, a missing term or a factor of two shows
 * up as a difference of the size of gamma itself. Allocates its own scratch. */
int mbd_system_check_derivatives(const mbd_system *s, double t, const gsl_vector *q,
                                 const gsl_vector *qd, double h, mbd_fdcheck *out);

#ifdef __cplusplus
}
#endif

#endif
