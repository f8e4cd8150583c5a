/* lib/src/formulation_impl.h -- what the formulation files share (private).
 *
 * A formulation is a table of operations (mbd_formulation_ops) over one
 * workspace. formulation.c holds what every kind has in common: the names,
 * the workspace, the model evaluations, Baumgarte's gamma, the measures;
 * each kind lives in its own file and owns its state layout:
 *
 *   formulation_projection.c   y = [q; q'], Lagrange multipliers by the Schur complement
 *   formulation_penalty.c      y = [q; q'], the static penalty (eq. 71')
 *   formulation_alternate.c    y = [q; q'], Goicolea-Garcia Orden's stiff spring (eq. 52)
 *   formulation_index2.c       y = [q; v], the index-2 penalty (eq. 58)
 *   formulation_embedding.c    y = [q_i; q_i'], coordinate partitioning (document 001,
 *                              algorithm E): the independent coordinates only
 *   formulation_nullspace.c    y = [q; z; v], the projected (Maggi) equations on the QR
 *                              tangent basis (document 002): positions, generalised
 *                              coordinates and speeds
 *
 * A new kind (embedding's independent coordinates, null-space speeds) adds a
 * file with its table and one line in formulation.c's method table.
 */
#ifndef MBD_FORMULATION_IMPL_H
#define MBD_FORMULATION_IMPL_H

#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

#include "mbd/constraints.h"
#include "mbd/formulation.h"

typedef struct {
    const char *kind_name;     /* "projection", ... (mbd_formulation_kind_name) */
    int stiff;                 /* stiff by construction: runs with msbdf */
    int correctable;           /* a post-step correction of (q, q') applies to its state */
    int uses_mu, takes_baumgarte;
    int unconstrained;         /* accepts a system with m = 0 (the workspace then has no
                                  C_q, C, C', gamma nor constraint solver: they are NULL) */
    /* the kind's own workspace (f->kind_ws), allocated once after the common
     * one; NULL: none. init returns GSL_SUCCESS, or anything else to refuse
     * the system or the parameters. */
    int (*init)(mbd_formulation *f);
    void (*release)(mbd_formulation *f);
    /* the size of y; NULL: 2n ([q; q']) */
    size_t (*dim)(const mbd_formulation *f);
    /* y from (q0, q'0) and back; NULL: y = [q; q'] */
    int (*pack)(mbd_formulation *f, double t, const double q0[], const double qd0[], double y[]);
    int (*unpack)(mbd_formulation *f, double t, const double y[], double q[], double qd[]);
    /* q'' and lambda at (t, q, q'); NULL when the kind has none (a state that
     * is not [q; q'] needs its own rhs) */
    int (*accel)(mbd_formulation *f, double t, const gsl_vector *q, const gsl_vector *qd,
                 gsl_vector *qdd, gsl_vector *lambda);
    /* y' = f(t, y); NULL: [q'; q''] from accel */
    int (*rhs)(mbd_formulation *f, double t, const double y[], double dydt[]);
    /* the condition number of the matrix it solves with, at q with M and C_q
     * evaluated (nothing else: F and gamma are not) */
    int (*condition)(mbd_formulation *f, double t, double *cond);
    /* after an accepted step (a basis update, a repartition); NULL: none */
    int (*post_step)(mbd_formulation *f, double t, double y[], int *changed);
} mbd_formulation_ops;

extern const mbd_formulation_ops mbd_formulation_projection_ops;
extern const mbd_formulation_ops mbd_formulation_penalty_ops;
extern const mbd_formulation_ops mbd_formulation_alternate_ops;
extern const mbd_formulation_ops mbd_formulation_index2_ops;
extern const mbd_formulation_ops mbd_formulation_embedding_ops;
extern const mbd_formulation_ops mbd_formulation_nullspace_ops;

struct mbd_formulation {
    const mbd_system *s;
    mbd_formulation_params p;
    const mbd_formulation_ops *ops;
    size_t n, m;
    mbd_constraints *cs;        /* the constraint solver (constraints.h) */
    gsl_matrix *M, *L;          /* the mass matrix; a Cholesky factor of the penalty's A */
    gsl_matrix *Cq;             /* m x n (NULL when m = 0, as C, Cdot, gamma and cs) */
    gsl_vector *F, *b;          /* n */
    gsl_vector *C, *Cdot, *gamma;   /* m */
    gsl_vector *q, *qd;         /* n: a state unpacked for the measures */
    gsl_vector *work;           /* 3 n: condition estimates */
    void *kind_ws;              /* the kind's own workspace (ops->init), or NULL */
    mbd_failure fail;
};

/* A model callback failed: say which. */
int mbd_formulation_model_failed(mbd_formulation *f, int st, double t, const char *what);
/* MBD_ENONFINITE naming the first non-finite entry of v. */
int mbd_formulation_check_finite(mbd_formulation *f, double t, const gsl_vector *v,
                                 const char *what);
/* M, F at (t, q, q'), C_q, and gamma when asked. */
int mbd_formulation_evaluate(mbd_formulation *f, double t, const gsl_vector *q,
                             const gsl_vector *qd, int need_gamma);
/* C and C' = C_q q' + C_t (C_q already evaluated; qd NULL: C_t only). */
int mbd_formulation_violation(mbd_formulation *f, double t, const gsl_vector *q,
                              const gsl_vector *qd);
/* mbd_formulation_evaluate with gamma, then gamma_B when the method asks for
 * Baumgarte (the acceleration-level kinds: projection, static penalty). */
int mbd_formulation_evaluate_gamma(mbd_formulation *f, double t, const gsl_vector *q,
                                   const gsl_vector *qd);
/* gamma <- gamma_B (the stable or the printed sign) from C and C'. */
void mbd_formulation_baumgarte(mbd_formulation *f);
/* The condition number of M (the kinds that solve with M alone). */
int mbd_formulation_mass_condition(mbd_formulation *f, double t, double *cond);
/* The constraint solver's failure as the formulation's. */
int mbd_formulation_solver_failed(mbd_formulation *f, int st);

#endif
