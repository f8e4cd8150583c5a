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
 * and the embedding of document 001 (Chandramouli 2023, algorithm E):
 *
 *   embedding          coordinate partitioning: q = (q_d, q_i), m dependent and
 *                      n - m independent coordinates; only q_i is integrated,
 *                      q_d follows from C(t, q) = 0 by Newton's method, q_d'
 *                      from C_q q' + C_t = 0, and
 *                      B^T M B q_i'' = B^T (F - M gamma_c),
 *                      B = [-C_q_d^-1 C_q_i; I],  gamma_c = [C_q_d^-1 gamma; 0]
 *
 * and the null-space projection of document 002 (Quro 2023, Secs. 2.1-2.2, 4):
 *
 *   nullspace          the projected (Maggi / Kane) equations on an orthonormal
 *                      basis T of C_q's null space from QR with column pivoting
 *                      of C_q^T (nullspace.h): q' = T v + beta',
 *                      T^T M T w = T^T (F - M beta''), v' = w (+ the spin of T),
 *                      the basis continued from step to step
 *
 * gamma_B is the acceleration right-hand side gamma, or with Baumgarte's
 * stabilisation gamma - 2 alpha C' - beta^2 C, which makes the constraint
 * error obey C'' + 2 alpha C' + beta^2 C = 0 (stable). The document's eq. (72)
 * and its pendulum listing print the opposite sign, gamma + 2 alpha C' +
 * beta^2 C, which gives C'' - 2 alpha C' - beta^2 C = 0 and grows like
 * exp((alpha + sqrt(alpha^2 + beta^2)) t); `baumgarte_printed` reproduces it.
 *
 * Each formulation owns its state layout: y = [q; q'] (2n), except the
 * index-2 penalty, whose y = [q; v] carries a velocity v that is not dq/dt,
 * the null-space kind, whose y = [q; z; v] (3n) carries generalised speeds,
 * and the embedding, whose y = [q_i; q_i'] has 2 (n - m) entries (the
 * independent coordinates in the order of q; which they are is the
 * workspace's partition, see "The embedding" below). mbd_formulation_unpack()
 * always gives the full q and the kinematic velocity q'.
 *
 * Inside, a formulation is a table of operations (lib/src/formulation_impl.h)
 * over one workspace: the size of its state, pack (q, q') -> y and unpack
 * y -> (q, q'), accelerations and multipliers when the state is [q; q'],
 * its right-hand side otherwise, the condition number of the matrix it solves
 * with, an optional post-step (a basis update, a repartition), and whether a
 * post-step correction of (q, q') applies to its state. Each kind is one file
 * (formulation_projection.c, _penalty.c, _alternate.c, _index2.c,
 * _embedding.c); the linear
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
#include "mbd/nullspace.h"
#include "mbd/ode.h"
#include "mbd/system.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    MBD_FORMULATION_PROJECTION,
    MBD_FORMULATION_PENALTY,
    MBD_FORMULATION_ALTERNATE_PENALTY,
    MBD_FORMULATION_INDEX2_PENALTY,
    MBD_FORMULATION_EMBEDDING,
    MBD_FORMULATION_NULLSPACE
} mbd_formulation_kind;

typedef struct {
    mbd_formulation_kind kind;
    double mu;                /* penalty factor (the penalty kinds); > 0 */
    int baumgarte;            /* projection and penalty: use gamma_B with alpha, beta */
    double alpha, beta;       /* Baumgarte weights: C'' + 2 alpha C' + beta^2 C = 0 */
    int baumgarte_printed;    /* the document's eq. (72) sign: gamma + 2 alpha C' + beta^2 C */
    /* the embedding (0 or NULL picks each default) */
    const size_t *independent;  /* the n - m coordinates (indices into q) held independent
                                   throughout (or at the start: reselect_independent),
                                   copied at alloc; NULL: chosen automatically
                                   (QR with column pivoting of C_q) and re-chosen when they
                                   degrade */
    size_t n_independent;       /* entries of `independent`: n - m when it is given */
    int reselect_independent;   /* with `independent`: 1 starts from that set and re-selects
                                   it as the automatic choice does (0: held throughout) */
    double newton_tol;          /* Newton on C(t, q_d; q_i) = 0 stops at |C| <= newton_tol
                                   (the model's units of C); 0: 1e-12. The null-space
                                   kind's position correction uses the same (and
                                   corrects only when |C| > newton_tol) */
    unsigned newton_max_iter;   /* its iteration limit; 0: 25 (both kinds) */
    double reselect_ratio;      /* re-select when the current dependent block's smallest
                                   pivot falls below this fraction of the best block's,
                                   in (0, 1]; 0: 0.5 */
    double singular_ratio;      /* a forced set whose ratio falls below this is singular
                                   (a failure), in (0, 1]; 0: 0.01 */
    /* the null-space kind (0 picks each default; see "The null-space formulation") */
    mbd_nullspace_continuation continuation;   /* 0: procrustes */
    double tol_rank;            /* rank: |R_ii| > tol_rank |R_11|, in (0, 1); 0: 1e-8 */
    double tol_sing;            /* singular: |R_rr| < tol_sing |R_11|, in (tol_rank, 1);
                                   0: 1e-3 */
    int dynamic_rank;           /* 1: integrate with the rank at tol_sing inside a singular
                                   window (the enlarged basis, eq. 2.15), so the motion may
                                   leave its branch there; 0: the structural rank throughout */
} mbd_formulation_params;

typedef struct mbd_formulation mbd_formulation;

/* A workspace for system s. NULL when s is invalid, or the parameters are
 * (mu <= 0 for a penalty kind, Baumgarte asked of the alternate or index-2
 * penalty or of the embedding, which have no gamma to stabilise; for the
 * embedding: m >= n, a forced set that is not n - m distinct indices below
 * n, a negative or non-finite tolerance, a ratio outside (0, 1]). A system
 * without constraints (m = 0) is refused by every kind but the embedding,
 * which then integrates M q'' = F on y = [q; q']. */
mbd_formulation *mbd_formulation_alloc(const mbd_system *s, const mbd_formulation_params *p);
void mbd_formulation_free(mbd_formulation *f);

const mbd_system *mbd_formulation_system(const mbd_formulation *f);
const mbd_formulation_params *mbd_formulation_get_params(const mbd_formulation *f);
/* The size of the state y: 2n for the kinds whose y is [q; q'] or [q; v],
 * 2 (n - m) for the embedding, 3n for the null-space kind. */
size_t mbd_formulation_dim(const mbd_formulation *f);

/* Accelerations q'' (n) and multipliers lambda (m, or NULL) at (t, q, q') for
 * the kinds whose state is [q; q']. lambda follows the sign of
 * M q'' + C_q^T lambda = F: for the penalties it is the implied multiplier
 * mu (C_q q'' - gamma_B) (static) or mu C (alternate). For the embedding:
 * the partitioned solve at (q, q') as given (no Newton iteration), with the
 * best-pivoted dependent set at q (or the forced one), which does not touch
 * the run's partition; its q'' and lambda are the projection's (both solve
 * M q'' + C_q^T lambda = F, C_q q'' = gamma), lambda from the dependent
 * rows C_q_d^T lambda = (F - M q'')_d. For the null-space kind: the fresh
 * basis at q with the rank decided there (tol_rank), q'' = T w + beta''
 * (the projection's q''), lambda the basic solution of C_q^T lambda =
 * F - M q'' (nullspace.h; unique without redundant constraints). Not for
 * the index-2 penalty (GSL_EINVAL). */
int mbd_formulation_accel(mbd_formulation *f, double t, const gsl_vector *q,
                          const gsl_vector *qd, gsl_vector *qdd, gsl_vector *lambda);

/* The right-hand side y' = f(t, y), with gsl_odeiv2's signature; `formulation`
 * is the mbd_formulation. */
int mbd_formulation_rhs(double t, const double y[], double dydt[], void *formulation);

/* The initial state y for positions q0 and velocities qd0 (for the index-2
 * penalty v0 = qd0 + mu C_q^T C(q0), so that its q' starts at qd0). The
 * embedding chooses its partition at q0 (or takes the forced one), keeps
 * the independent coordinates and velocities of (q0, qd0) and solves for
 * the dependent ones as document 001 does, so that an inconsistent
 * (q0, qd0) is moved onto the constraints with its q_i and q_i' held; it
 * also starts the count of re-selections afresh. */
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
 * for the static penalty, M otherwise; for the embedding the 1-norm
 * condition number (exact, from its block inverse) of document 001's
 * K = [C_q; I_d] (n x n, I_d picking the independent coordinates), the
 * matrix of its Newton and velocity solves, singular with C_q_d (1 without
 * constraints). For the null-space kind, that of T^T M T
 * (k x k; 1 when k = 0). INFINITY when it is not positive definite (e.g. S where C_q
 * has lost rank) or singular. */
int mbd_formulation_condition(mbd_formulation *f, double t, const double y[], double *cond);

/* What failed in the last evaluation that failed, and when. */
const mbd_failure *mbd_formulation_failure(const mbd_formulation *f);

/* ------------------------------------------------------------------------ */
/* The methods by name, as chapters offer them with --method                 */

/* projection, projection-baumgarte, penalty, penalty-baumgarte,
 * penalty-baumgarte-printed, alternate-penalty, index2-penalty, embedding,
 * nullspace.
 * Sets p->kind, p->baumgarte and p->baumgarte_printed for `name` and leaves
 * mu, alpha, beta and the embedding's parameters as they are. MBD_EINPUT
 * for an unknown name. */
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
 * penalty, whose v is not q', and the embedding, whose constraints hold by
 * construction). */
int mbd_formulation_uses_mu(const mbd_formulation_params *p);
int mbd_formulation_correctable(const mbd_formulation_params *p);

/* After an accepted step: the formulation's own post-step work (a basis
 * update, a repartition), which may change y (*changed = 1). The embedding
 * re-selects its independent coordinates here (see below) and keeps the
 * state as the starting guess of its Newton iterations, so whatever steps
 * an embedding must call this after every accepted step (the pipeline,
 * simulate.h, does, before any correction). Nothing for the other kinds. */
int mbd_formulation_post_step(mbd_formulation *f, double t, double y[], int *changed);

/* The integrator a formulation runs with: for a stiff one, msbdf replaces
 * any other (ode.h preset); returns 1 when it replaced, else 0 and `ode` is
 * left as it is. */
int mbd_formulation_stiff_integrator(const mbd_formulation_params *p, mbd_ode_params *ode);

/* The kind's short name ("projection", "penalty", ...). */
const char *mbd_formulation_kind_name(mbd_formulation_kind kind);

/* ------------------------------------------------------------------------ */
/* The embedding: independent coordinates and their re-selection             */

/* The partition. At pack, unless a set is forced, QR with column pivoting
 * of C_q (gsl_linalg_QRPT_decomp) orders the coordinates' columns by how
 * much each adds to the span of those before it; the first m (the pivot
 * columns, a well-conditioned block C_q_d) are dependent, the other n - m
 * independent. GSL has no LU with full pivoting (its LU pivots rows only,
 * which on C_q^T is a greedy choice per constraint, and its LU_decomp
 * allocates on every call in GSL 2.7); QRPT looks at all constraint rows at
 * once, is the constraint solver's rank test, and its diagonal |R_kk| are
 * the pivots the re-selection compares.
 *
 * After every accepted step (mbd_formulation_post_step) the smallest pivot
 * |R_mm| of the current block C_q_d (its own QRPT) is compared with that of
 * the best block at the same q (the QRPT of C_q): below reselect_ratio of
 * it, the best block becomes the dependent set, y is re-packed in the new
 * coordinates (the state itself does not move: the same q and q'), and the
 * run loop resets the integrator's history. A step whose end the current
 * set cannot reach (Newton fails there) is also re-selected: the state is
 * first moved onto C = 0 and C' = 0 by the constraint solver's
 * minimum-norm Newton and velocity steps from the nearest guess, which
 * changes it by that projection. A failure inside a step (at an
 * integrator's stage) ends the run: the stages are in the old coordinates.
 * A given set with reselect_independent is only where the run starts: it
 * is re-selected as the automatic one is. With a forced set (held
 * throughout) nothing is re-selected: its ratio falling below
 * singular_ratio after a step, a singular C_q_d or a Newton failure is the
 * formulation's failure (MBD_ESINGULAR or MBD_ENOCONV, with the time and
 * the coordinates in mbd_formulation_failure). The ratio test is needed
 * because the motion in the independent coordinates is smooth through a
 * configuration where they stop determining the dependent ones (the
 * pendulum's x(t) touches R and turns back): step size control does not
 * see it, and a step across it would carry on with a mirrored state and
 * the dependent velocities lost. The test is made at step ends: a step that
 * jumps from above singular_ratio across the configuration is caught only
 * when Newton fails at its stages or end. A C_q of rank below m (redundant
 * constraints) is a failure either way. */

typedef enum {
    MBD_FORMULATION_RESELECT_PIVOT,   /* the current block's pivot fell below the ratio */
    MBD_FORMULATION_RESELECT_NEWTON   /* Newton failed at the step's end; state projected */
} mbd_formulation_reselect_cause;

typedef struct {
    double t;               /* when (the end of the accepted step) */
    size_t left;            /* the coordinate that left the independent set (the first, by
                               index, when several did; n when none did) */
    size_t joined;          /* the coordinate that joined it (the first, by index; or n) */
    size_t swapped;         /* how many coordinates changed sides: 1 for one degree of
                               freedom, 0 when a Newton failure chose the same set again */
    double ratio;           /* the old block's pivot over the best's (NAN for a Newton failure) */
    mbd_formulation_reselect_cause cause;
} mbd_formulation_reselection;

/* How many events the workspace keeps (the latest). */
#define MBD_FORMULATION_RESELECTIONS_KEPT 16

/* The independent coordinates now (n - m indices, ascending, into idx,
 * which may be NULL); returns n - m, and 0 for the other kinds. */
size_t mbd_formulation_independent(const mbd_formulation *f, size_t idx[]);

/* Re-selections since the last pack (0 for the other kinds). */
size_t mbd_formulation_reselections(const mbd_formulation *f);

/* Re-selection number k (0 = the first since the last pack) into *ev, when
 * it is among the MBD_FORMULATION_RESELECTIONS_KEPT latest; MBD_EINPUT
 * otherwise (or for another kind). */
int mbd_formulation_reselection_get(const mbd_formulation *f, size_t k,
                                    mbd_formulation_reselection *ev);

/* ------------------------------------------------------------------------ */
/* The null-space formulation: generalised speeds on a continued QR basis    */

/* Document 002 (Quro 2023; formulation_nullspace.c has the equations and
 * the document's errors it corrects). The state is y = [q; z; v] (3n): the
 * positions q, the generalised coordinates z and speeds v in the first k
 * entries of their blocks (the rest 0), k = n - r the degrees of freedom.
 *
 * Rank. At pack, q0 is moved onto C = 0 (Newton) and the structural rank r
 * decided there: the leading |R_ii| of the QRPT of C_q^T above tol_rank
 * |R_11| (nullspace.h). The run keeps r, and so the size k of v: start at a
 * regular configuration (m < n, m = n and m > n alike: redundant
 * constraints lower r, and the basis T = Q(:, r+1..n) covers them).
 *
 * Singularity. After every accepted step the sorted |R_ii| (the monitor)
 * are sampled, with the ratio s = |R_rr| / |R_11| of the last structurally
 * non-zero entry. A singular instant is a sample that is a local minimum
 * of s (below the samples before and not above the one after) with
 * s < tol_sing; its time is refined by the symmetric V through the two
 * neighbouring samples, t* = t0 + (t2 - t0) s0 / (s0 + s2) (exact when s
 * is |a (t - t*)| as at a crossing, e.g. the four-bar through the
 * horizontal), and its rank and degrees of freedom are those at tol_sing
 * there (the enlarged basis [Q_1s Q_2] of eq. 2.15 has n - rank columns).
 * Samples are step ends: a step longer than the dip misses it.
 *
 * Dynamic rank (mbd_formulation_params.dynamic_rank; the guide's Sec. 2.6,
 * the document's "another movement" at a singular configuration). Without
 * it the dynamics keep the structural rank r: the motion stays on its
 * branch and the enlarged basis is only reported. With it, at every step end
 * the basis integrated with has n - r_s columns, r_s = min(r, the rank at
 * tol_sing): inside a singular window (|R_rr| < tol_sing |R_11|) it is the
 * enlarged basis [Q_1s Q_2] of eq. 2.15, whose extra directions let a force
 * (the -20 N m torque of Sec. 5.2.2) choose the other branch. The
 * positions are still corrected with the structural rank (Newton onto the
 * full C = 0). When r_s changes, the new basis is the fresh one aligned to
 * the old (its first columns continue the old ones), v <- T^T q' (the
 * velocity projection: leaving a window drops the velocity off the new
 * branch's tangent, an energy change the chapter measures), the generalised
 * coordinates of dropped columns are discarded and new ones start at 0, and
 * the integrator restarts.
 *
 * Continuation (mbd_formulation_params.continuation; nullspace.h). Within
 * a step the basis is the fresh one aligned to an anchor T_a, a smooth
 * function of q. At each step end the basis in use becomes: none, the
 * fresh basis (the "traditional" T, which flips); procrustes, the fresh
 * basis aligned to the anchor (App. A), which is renewed (set to the basis
 * in use) when the basis has moved more than 0.05 (max entry) from it;
 * full, the fresh basis aligned to the previous one carried over the step
 * by the skew update (Sec. 4.1.2, Cayley map). none and full take the
 * basis in use as the anchor at every step. The speeds are re-expressed,
 * v <- T^T q', when the basis in use differs from the stage basis there
 * (a flip) or Newton moved q (|C| > newton_tol), and y is reported changed
 * (the run loop resets the integrator's history) then, and also when the
 * anchor changes with two or more degrees of freedom (the right-hand side
 * depends on the anchor through the spin Omega; with one it does not).
 * Flips and jumps are counted by nullspace.h's rule (a column turned by
 * more than 60 degrees
 * over a step) for the basis in use and, in every mode, for the fresh one. */

typedef struct {
    double t;               /* the refined instant */
    double t_step;          /* the step end of the sampled minimum */
    double ratio;           /* |R_rr| / |R_11| there */
    size_t rank;            /* the rank at tol_sing there */
    size_t dof;             /* n - rank: the degrees of freedom there */
} mbd_formulation_singular_instant;

#define MBD_FORMULATION_SINGULAR_KEPT 64

typedef struct {
    size_t n, m;
    size_t rank;            /* the structural rank r (at pack, tol_rank) */
    size_t deficiency;      /* d = min(m, n) - r */
    size_t dof;             /* n - r: the size of v and z */
    size_t rank_now;        /* the rank at tol_sing at the last step end */
    size_t dof_now;         /* n - rank_now */
    double ratio;           /* |R_rr| / |R_11| at the last step end */
    double ratio_min;       /* its smallest sample, and when */
    double t_ratio_min;
    size_t singular;        /* singular instants detected */
    size_t dof_first_singular;   /* the dof at the first of them (0 when none) */
    size_t dof_used;        /* the size of the basis integrated with now (dof, or more in a
                                singular window with dynamic_rank) */
    size_t dof_max;         /* its largest value since pack */
    size_t rank_changes;    /* dynamic_rank: step ends at which it changed */
    size_t jumps;           /* flips and jumps of the basis in use */
    size_t fresh_jumps;     /* of the fresh (traditional) basis, in every mode */
    size_t corrections;     /* step ends that changed y (Newton, a new basis) */
    double max_prediction_error;   /* full: largest |T~ - T| entry (0 otherwise) */
    mbd_nullspace_continuation continuation;   /* the mode in effect */
} mbd_formulation_nullspace_report;

/* The counts and the state of the monitor since the last pack; MBD_EINPUT
 * for another kind or before a pack. */
int mbd_formulation_nullspace_get(const mbd_formulation *f,
                                  mbd_formulation_nullspace_report *rep);
/* The basis in use (the anchor) into T (n x k, row-major; may be NULL);
 * returns k (0 for another kind or before a pack). */
size_t mbd_formulation_nullspace_basis(const mbd_formulation *f, double T[]);
/* The sorted |R_ii| at the last step end into diag (min(m, n) entries; may
 * be NULL); returns min(m, n) (0 for another kind or before a pack). */
size_t mbd_formulation_nullspace_monitor(const mbd_formulation *f, double diag[]);
/* The generalised coordinates z and speeds v of the state y (k each, either
 * may be NULL); returns k (0 for another kind or before a pack). */
size_t mbd_formulation_generalized(const mbd_formulation *f, const double y[], double z[],
                                   double v[]);
/* The singular instants since the last pack, and instant i (0 = the first)
 * when it is among the MBD_FORMULATION_SINGULAR_KEPT latest (MBD_EINPUT
 * otherwise, or for another kind). */
size_t mbd_formulation_singulars(const mbd_formulation *f);
int mbd_formulation_singular_get(const mbd_formulation *f, size_t i,
                                 mbd_formulation_singular_instant *ev);

#ifdef __cplusplus
}
#endif

#endif
