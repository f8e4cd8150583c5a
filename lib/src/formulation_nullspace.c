/* The null-space formulation (document 002, Quro 2023, Secs. 1.2, 2.1-2.2,
 * 4.1-4.2 and App. A; the reading guide seed-notes/002, "the guide"): the
 * projected (Maggi / Kane) equations on the tangent basis T of QR with
 * column pivoting (nullspace.h), with the generalised speeds v as state.
 *
 * With A = C_q, T (n x k) an orthonormal basis of A's null space (k = n - r,
 * r the rank) and Q_ns the rest of Q, the velocities and accelerations split
 * as (eqs. 1.4, 2.2)
 *
 *     q' = T v + beta',       beta'  = particular(-C_t)        (eq. 2.3a)
 *     q'' = T w + beta'',     beta'' = particular(gamma)       (eq. 2.3b corrected)
 *
 * (particular(b) = Q_ns R11^-T (P^T b)_{1..r}, nullspace.h), and the
 * multipliers drop out of M q'' + A^T lambda = F along T (T^T A^T = 0 by
 * construction of T, whatever the constraints' ideality: the document's Sec.
 * 1.2 ties it to ideal constraints, which is rather why the reaction is
 * A^T lambda):
 *
 *     T^T M T w = T^T (F - M beta'')                          (eq. 2.4)
 *
 * The state is y = [q (n); z (n); v (n)], of which z and v use their first
 * k entries (the rest stay 0): q the positions, v = T^T q' the generalised
 * speeds in the basis in use, and z = integral of v dt, the generalised
 * coordinates the chapter prints (q1..qk). The size 3n is fixed before k is
 * known (mbd_formulation_dim precedes pack).
 *
 * The errors of the document this file corrects (the guide's Sec. 7):
 *   eq. 1.5b  A beta'' = -(c')_q - (c')_t lacks the velocity: the constraint
 *             acceleration is A q'' + (c')_q q' + (c')_t = 0, so
 *             A beta'' = -(c')_q q' - (c')_t, the toolkit's gamma. Without q'
 *             the equation mixes a matrix with a vector (no solution at all).
 *   eq. 2.3b  p'' = -R1^-T [(c')_x x' - (c')_t]: the sign of (c')_t is wrong
 *             against 1.5b; with A Q_1 = R1^T it is p'' = R1^-T gamma =
 *             -R1^-T [(c')_x x' + (c')_t]. The printed sign changes beta''
 *             of every driven (rheonomic) system by 2 R1^-T (c')_t: wrong
 *             accelerations, wrong motion; scleronomic ones are unaffected.
 *   eq. 2.11  x' = T^T T x' does not even multiply ((k x n)(n x k) is k x
 *             k against an n-vector); the velocity projection is
 *             x' <- T T^T x' + Q_1 p' (the last for driven constraints),
 *             which here is v <- T^T x' (post_step).
 *   eq. 2.10, 2.3 are written for full rank; (A Q_1)^-1 is singular when A
 *             loses rank. Here the r pivoted rows are used (nullspace.h).
 *   eq. 4.13  Omega_ns = Omega_L - Omega^T: Omega_L - Omega_L^T (4.27); see
 *             nullspace.c. The printed form is not skew-symmetric, so
 *             exp(h Omega) would not be orthogonal: Q, and T, would lose
 *             orthonormality step by step.
 *
 * The basis within a step. An integrator evaluates f at stage states, so
 * T must be a smooth function of q there. Every evaluation factors A(q)
 * afresh and aligns the fresh basis to the anchor T_a (procrustes, App. A;
 * the anchor is the basis in use at a recent step end, see post_step):
 * T(q) = T^(q) U(q) with T(q)^T T_a symmetric, smooth in q. Then v = T^T q'
 * obeys
 *
 *     v' = T^T q'' + T'^T q' = w - Omega v + B^T p',
 *
 * with T' = T Omega + Q_ns B: A T' = -A' T gives B = -R11^-T (P^T A' T)_{1..r},
 * the symmetry of T'^T T_a gives H Omega + Omega H = L^T - L (H = T_a^T T,
 * L = T_a^T Q_ns B; solved by a contracting fixed point, H being near I
 * within a step), and p' = Q_ns^T beta'.
 * For one degree of freedom Omega = 0, and for scleronomic constraints
 * p' = 0: the common case is v' = w. A' T comes from the model's gamma,
 * quadratic in q' for holonomic constraints: A' u = -(gamma(q, q' + u) -
 * gamma(q, q' - u)) / 4. (The document integrates Eq. 2.4's q'' as if it
 * were v', which holds when T does not spin in its span, Omega = 0: its
 * continuation's Omega_ss = 0, the guide's Sec. 2.3 [DERIVED].)
 *
 * After each accepted step (post_step): Newton on C = 0 by the rank-aware
 * step of eq. 2.10 when |C| > newton_tol; the basis in use by the
 * continuation mode (none: the fresh basis; procrustes: the fresh basis
 * aligned to the anchor; full: aligned to the previous basis carried over
 * the step by the skew update, eqs. 4.10-4.14), the anchor renewed
 * (formulation.h says when), and the speeds re-expressed by projection,
 * v <- T_new^T q'. When that changes y or the right-hand side (Newton moved
 * q, the basis flipped, a new anchor with k >= 2) the run loop resets the
 * integrator's history.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>

#include "formulation_impl.h"
#include "mbd/nullspace.h"

#define NEWTON_TOL 1e-12
#define NEWTON_MAX_ITER 25u
/* procrustes keeps its anchor while |T - T_a|_max stays below this */
#define ANCHOR_DRIFT 0.05

typedef struct {
    mbd_nullspace *ns;
    mbd_nullspace_continuation mode;
    double tol_rank, tol_sing, tol;
    unsigned max_iter;
    size_t r0;                  /* the structural rank (at pack) */
    size_t r, k, p;             /* the rank integrated with (r0, or less in a singular window
                                   with dynamic rank), k = n - r, p = min(n, m) */
    int dynamic;                /* dynamic rank */
    int packed;
    /* n x n storage; views n x k of them */
    gsl_matrix *Ta;             /* the anchor: the reference the stage bases align to */
    gsl_matrix *Tu;             /* the basis in use at the last step end */
    gsl_matrix *T;              /* the stage basis (aligned to Ta) */
    gsl_matrix *Tf, *Tf_prev;   /* the fresh basis now and at the last step end */
    gsl_matrix *Tn;             /* the new anchor (post_step) */
    gsl_matrix *Tp;             /* the prediction (full) */
    gsl_matrix *Qa, *Om;        /* full: [Q_ns T_a] and Omega at the anchor */
    gsl_matrix *Adot;           /* m x n (full), its first k columns A' T otherwise */
    gsl_matrix *MT, *A, *QB;    /* n x n: M T, T^T M T (k x k), Q_ns B */
    gsl_matrix *Bc;             /* n x n: B (r x k) */
    gsl_matrix *H, *Ev, *G, *X; /* n x n: the Omega solve (k x k) */
    gsl_vector *q, *xd, *xd0;   /* n */
    gsl_vector *bp, *bpp, *wv;  /* n: beta', beta'', F - M beta'' */
    gsl_vector *pp;             /* n: p' (r) */
    gsl_vector *acc, *u;        /* n */
    gsl_vector *g1, *g2;        /* m */
    double t_anchor;
    /* the monitor */
    double *diag;               /* p: sorted |R_ii| at the last step end */
    size_t samples;
    double t1, s1, t2, s2;      /* the last two samples of the ratio (t1 the latest) */
    size_t rank1;               /* rank at tol_sing at sample t1 */
    size_t rank_now;
    double ratio_min, t_ratio_min;
    /* the counts since pack */
    size_t jumps, fresh_jumps, corrections, count, rank_changes, k_max;
    size_t first_dof;           /* the dof at the first singular instant */
    double max_pred;
    mbd_formulation_singular_instant events[MBD_FORMULATION_SINGULAR_KEPT];
} nullspace_ws;

static nullspace_ws *ws(const mbd_formulation *f) { return f->kind_ws; }

static gsl_matrix_view sub(gsl_matrix *A, size_t rows, size_t cols)
{
    return gsl_matrix_submatrix(A, 0, 0, rows, cols);
}

/* ------------------------------------------------------------------------ */
/* The basis at a state                                                      */

/* C_q at q into f->Cq, factored */
static int factor_at(mbd_formulation *f, double t, const gsl_vector *q)
{
    nullspace_ws *e = ws(f);
    int st = f->s->jacobian(f->s, t, q, f->Cq);
    if (st != GSL_SUCCESS)
        return mbd_formulation_model_failed(f, st, t, "constraint Jacobian");
    st = mbd_nullspace_factor(e->ns, f->Cq);
    if (st != GSL_SUCCESS)
        return mbd_failure_set(&f->fail, st, t, "the constraint Jacobian is not finite");
    return GSL_SUCCESS;
}

/* >> nullspace-stage-basis */
/* The stage basis at q: the fresh one aligned to the anchor (e->T), and
 * beta' = particular(-C_t) with its coordinates p' (e->bp, e->pp) */
static int basis_at(mbd_formulation *f, double t, const gsl_vector *q)
{
    nullspace_ws *e = ws(f);
    const size_t n = f->n, k = e->k;
    int st = factor_at(f, t, q);
    if (st != GSL_SUCCESS)
        return st;
    gsl_matrix_view T = sub(e->T, n, k), Ta = sub(e->Ta, n, k);
    mbd_nullspace_basis(e->ns, e->r, &T.matrix);
    mbd_nullspace_procrustes(e->ns, &Ta.matrix, &T.matrix, NULL);
    gsl_vector_set_zero(e->bp);
    gsl_vector_set_zero(e->pp);
    if (f->s->constraint_t) {
        st = f->s->constraint_t(f->s, t, q, f->Cdot);
        if (st != GSL_SUCCESS)
            return mbd_formulation_model_failed(f, st, t, "constraint time derivative");
        gsl_vector_scale(f->Cdot, -1.0);
        mbd_nullspace_coords(e->ns, e->r, f->Cdot, e->pp);          /* p' */
        mbd_nullspace_particular(e->ns, e->r, f->Cdot, e->bp);      /* beta' */
    }
    return GSL_SUCCESS;
}
/* << nullspace-stage-basis */

/* q' = T v + beta' into e->xd (v: k entries) */
static void velocity(mbd_formulation *f, const double v[])
{
    nullspace_ws *e = ws(f);
    gsl_vector_memcpy(e->xd, e->bp);
    for (size_t j = 0; j < e->k; j++) {
        gsl_vector_view c = gsl_matrix_subcolumn(e->T, j, 0, f->n);
        gsl_blas_daxpy(v[j], &c.vector, e->xd);
    }
}

/* A' u for the columns u of U (n x c) at (q, q' = e->xd), into the first c
 * columns of D (m x c), from the model's gamma (see the top of the file) */
static int adot_times(mbd_formulation *f, double t, const gsl_vector *q, const gsl_matrix *U,
                      gsl_matrix *D)
{
    nullspace_ws *e = ws(f);
    const size_t n = f->n;
    for (size_t j = 0; j < U->size2; j++) {
        for (size_t i = 0; i < n; i++) {
            const double x = gsl_vector_get(e->xd, i), c = gsl_matrix_get(U, i, j);
            gsl_vector_set(e->u, i, x + c);
        }
        int st = f->s->gamma(f->s, t, q, e->u, e->g1);
        for (size_t i = 0; i < n && st == GSL_SUCCESS; i++)
            gsl_vector_set(e->u, i, gsl_vector_get(e->xd, i) - gsl_matrix_get(U, i, j));
        if (st == GSL_SUCCESS)
            st = f->s->gamma(f->s, t, q, e->u, e->g2);
        if (st != GSL_SUCCESS)
            return mbd_formulation_model_failed(f, st, t, "gamma");
        for (size_t i = 0; i < f->m; i++)
            gsl_matrix_set(D, i, j, -0.25 * (gsl_vector_get(e->g1, i) - gsl_vector_get(e->g2, i)));
    }
    return GSL_SUCCESS;
}

/* ------------------------------------------------------------------------ */
/* Accelerations                                                             */

/* >> nullspace-maggi */
/* w (e->acc, k) from T^T M T w = T^T (F - M beta''), with M, F, gamma
 * evaluated at (q, q') and the factorisation and the basis (first k columns
 * of Tm) at q; beta'' into e->bpp */
static int maggi(mbd_formulation *f, double t, size_t r, size_t k, const gsl_matrix *Tm)
{
    nullspace_ws *e = ws(f);
    const size_t n = f->n;
    mbd_nullspace_particular(e->ns, r, f->gamma, e->bpp);          /* beta'' */
    gsl_vector_memcpy(e->wv, f->F);
    gsl_blas_dgemv(CblasNoTrans, -1.0, f->M, e->bpp, 1.0, e->wv);  /* F - M beta'' */
    if (k == 0)
        return GSL_SUCCESS;
    gsl_matrix_const_view T = gsl_matrix_const_submatrix(Tm, 0, 0, n, k);
    gsl_matrix_view MT = sub(e->MT, n, k), A = sub(e->A, k, k);
    gsl_vector_view w = gsl_vector_subvector(e->acc, 0, k);
    gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, f->M, &T.matrix, 0.0, &MT.matrix);
    gsl_blas_dgemm(CblasTrans, CblasNoTrans, 1.0, &T.matrix, &MT.matrix, 0.0, &A.matrix);
    gsl_blas_dgemv(CblasTrans, 1.0, &T.matrix, e->wv, 0.0, &w.vector);
    if (gsl_linalg_cholesky_decomp1(&A.matrix) != GSL_SUCCESS)
        return mbd_failure_set(&f->fail, MBD_ESINGULAR, t,
                               "T^T M T is not positive definite (nor, then, is M)");
    gsl_linalg_cholesky_svx(&A.matrix, &w.vector);
    return GSL_SUCCESS;
}
/* << nullspace-maggi */

/* >> nullspace-spin */
/* v' - w = -Omega v + B^T p' for the stage basis (see the top of the file):
 * subtracted from e->acc. Needs the stage basis, e->xd, e->pp at q. */
static int spin_terms(mbd_formulation *f, double t, const gsl_vector *q, const double v[])
{
    nullspace_ws *e = ws(f);
    const size_t n = f->n, m = f->m, k = e->k, r = e->r;
    const int driven = f->s->constraint_t != NULL;
    if (k == 0 || r == 0 || (k < 2 && !driven))
        return GSL_SUCCESS;
    gsl_matrix_view T = sub(e->T, n, k), AdT = sub(e->Adot, m, k);
    int st = adot_times(f, t, q, &T.matrix, &AdT.matrix);
    if (st != GSL_SUCCESS)
        return st;
    gsl_matrix_view B = sub(e->Bc, r, k);
    for (size_t j = 0; j < k; j++) {                      /* B = -R11^-T (P^T A' T)_{1..r} */
        gsl_vector_view c = gsl_matrix_column(&AdT.matrix, j);
        mbd_nullspace_coords(e->ns, r, &c.vector, e->u);
        for (size_t i = 0; i < r; i++)
            gsl_matrix_set(&B.matrix, i, j, -gsl_vector_get(e->u, i));
    }
    if (driven)                                            /* + B^T p' */
        for (size_t j = 0; j < k; j++) {
            double s = 0.0;
            for (size_t i = 0; i < r; i++)
                s += gsl_matrix_get(&B.matrix, i, j) * gsl_vector_get(e->pp, i);
            *gsl_vector_ptr(e->acc, j) += s;
        }
    if (k < 2)
        return GSL_SUCCESS;
    /* H Omega + Omega H = L^T - L, H = sym(T_a^T T), L = T_a^T Q_ns B */
    gsl_matrix_view Ta = sub(e->Ta, n, k);
    gsl_matrix_view H = sub(e->H, k, k), Ev = sub(e->Ev, k, k), G = sub(e->G, k, k),
                    X = sub(e->X, k, k);
    /* Q_ns B: the first r columns of the factorisation's Q times B */
    mbd_nullspace_q(e->ns, e->QB);               /* Q into QB's storage (n x n) */
    {
        gsl_matrix_view Qns = sub(e->QB, n, r);
        gsl_matrix_view tmp = sub(e->MT, n, k);
        gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, &Qns.matrix, &B.matrix, 0.0, &tmp.matrix);
        gsl_blas_dgemm(CblasTrans, CblasNoTrans, 1.0, &Ta.matrix, &tmp.matrix, 0.0, &X.matrix);
    }
    for (size_t i = 0; i < k; i++)               /* G = L^T - L */
        for (size_t j = 0; j < k; j++)
            gsl_matrix_set(&G.matrix, i, j, gsl_matrix_get(&X.matrix, j, i)
                                                - gsl_matrix_get(&X.matrix, i, j));
    gsl_blas_dgemm(CblasTrans, CblasNoTrans, 1.0, &Ta.matrix, &T.matrix, 0.0, &X.matrix);
    for (size_t i = 0; i < k; i++)               /* H = sym(T_a^T T) */
        for (size_t j = 0; j < k; j++)
            gsl_matrix_set(&H.matrix, i, j, 0.5 * (gsl_matrix_get(&X.matrix, i, j)
                                                   + gsl_matrix_get(&X.matrix, j, i)));
    /* H = I + E with E small (the stage basis is near its anchor): the
     * fixed point Omega = (G - E Omega - Omega E) / 2 contracts when |E| < 1/2 */
    double e_max = 0.0;
    for (size_t i = 0; i < k; i++) {
        *gsl_matrix_ptr(&H.matrix, i, i) -= 1.0;
        for (size_t j = 0; j < k; j++)
            e_max = fmax(e_max, fabs(gsl_matrix_get(&H.matrix, i, j)));
    }
    if (!(e_max * (double)k < 0.5))
        return mbd_failure_set(&f->fail, MBD_ESINGULAR, t,
                               "the basis turned away from its anchor within a step "
                               "(|T_a^T T - I| = %.3g)", e_max);
    gsl_matrix_memcpy(&Ev.matrix, &G.matrix);                  /* Omega_0 = G / 2 */
    gsl_matrix_scale(&Ev.matrix, 0.5);
    for (int it = 0; it < 60; it++) {
        gsl_matrix_memcpy(&X.matrix, &G.matrix);
        gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, -1.0, &H.matrix, &Ev.matrix, 1.0, &X.matrix);
        gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, -1.0, &Ev.matrix, &H.matrix, 1.0, &X.matrix);
        gsl_matrix_scale(&X.matrix, 0.5);
        double change = 0.0, size = 0.0;
        for (size_t i = 0; i < k; i++)
            for (size_t j = 0; j < k; j++) {
                const double x = gsl_matrix_get(&X.matrix, i, j);
                change = fmax(change, fabs(x - gsl_matrix_get(&Ev.matrix, i, j)));
                size = fmax(size, fabs(x));
            }
        gsl_matrix_memcpy(&Ev.matrix, &X.matrix);
        if (change <= 4.0 * DBL_EPSILON * size)
            break;
    }
    gsl_matrix_memcpy(&G.matrix, &Ev.matrix);                  /* Omega */
    for (size_t i = 0; i < k; i++) {             /* - Omega v */
        double s = 0.0;
        for (size_t j = 0; j < k; j++)
            s += gsl_matrix_get(&G.matrix, i, j) * v[j];
        *gsl_vector_ptr(e->acc, i) -= s;
    }
    return GSL_SUCCESS;
}
/* << nullspace-spin */

/* M, F at (q, e->xd) and gamma */
static int dynamics(mbd_formulation *f, double t, const gsl_vector *q, const gsl_vector *qd)
{
    const mbd_system *s = f->s;
    int st = s->mass(s, t, q, f->M);
    if (st != GSL_SUCCESS)
        return mbd_formulation_model_failed(f, st, t, "mass matrix");
    st = s->force(s, t, q, qd, f->F);
    if (st != GSL_SUCCESS)
        return mbd_formulation_model_failed(f, st, t, "force");
    st = s->gamma(s, t, q, qd, f->gamma);
    if (st != GSL_SUCCESS)
        return mbd_formulation_model_failed(f, st, t, "gamma");
    return GSL_SUCCESS;
}

/* >> nullspace-rhs */
/* y = [q; z; v]: q' = T v + beta', z' = v, v' = w - Omega v + B^T p' */
static int rhs(mbd_formulation *f, double t, const double y[], double dydt[])
{
    nullspace_ws *e = ws(f);
    const size_t n = f->n, k = e->k;
    const double *v = y + 2 * n;
    if (!e->packed)
        return mbd_failure_set(&f->fail, GSL_EINVAL, t, "the null-space state was never packed");
    memcpy(e->q->data, y, n * sizeof *y);
    int st = basis_at(f, t, e->q);
    if (st != GSL_SUCCESS)
        return st;
    velocity(f, v);
    st = dynamics(f, t, e->q, e->xd);
    if (st == GSL_SUCCESS)
        st = maggi(f, t, e->r, k, e->T);
    if (st == GSL_SUCCESS)
        st = spin_terms(f, t, e->q, v);
    if (st != GSL_SUCCESS)
        return st;
    memset(dydt, 0, 3 * n * sizeof *dydt);
    memcpy(dydt, e->xd->data, n * sizeof *dydt);                 /* q' */
    memcpy(dydt + n, v, k * sizeof *dydt);                       /* z' = v */
    memcpy(dydt + 2 * n, e->acc->data, k * sizeof *dydt);        /* v' */
    for (size_t i = 0; i < n + k; i++)
        if (!isfinite(dydt[i < n ? i : n + i]))
            return mbd_failure_set(&f->fail, MBD_ENONFINITE, t, "the null-space right-hand side "
                                   "is not finite");
    return GSL_SUCCESS;
}
/* << nullspace-rhs */

/* At (t, q, q') as given: the fresh basis at q with the rank decided there
 * (tol_rank), q'' = T w + beta'' (the same for any basis of the null space),
 * and the basic multipliers of A^T lambda = F - M q'': (P^T lambda)_{1..r}
 * = R11^-1 Q_ns^T (F - M q''), the rest 0 (the unique ones at full rank;
 * with redundant constraints any split of the reaction between them fits). */
static int accel(mbd_formulation *f, double t, const gsl_vector *q, const gsl_vector *qd,
                 gsl_vector *qdd, gsl_vector *lambda)
{
    nullspace_ws *e = ws(f);
    const size_t n = f->n;
    int st = factor_at(f, t, q);
    if (st == GSL_SUCCESS)
        st = dynamics(f, t, q, qd);
    if (st != GSL_SUCCESS)
        return st;
    const size_t r = mbd_nullspace_rank(e->ns, e->tol_rank), k = n - r;
    gsl_matrix_view T = sub(e->Tf, n, k);
    mbd_nullspace_basis(e->ns, r, &T.matrix);
    st = maggi(f, t, r, k, e->Tf);
    if (st != GSL_SUCCESS)
        return st;
    gsl_vector_memcpy(qdd, e->bpp);
    if (k > 0) {
        gsl_vector_view w = gsl_vector_subvector(e->acc, 0, k);
        gsl_blas_dgemv(CblasNoTrans, 1.0, &T.matrix, &w.vector, 1.0, qdd);
    }
    if (lambda == NULL)
        return GSL_SUCCESS;
    gsl_vector_memcpy(e->wv, f->F);
    gsl_blas_dgemv(CblasNoTrans, -1.0, f->M, qdd, 1.0, e->wv);       /* F - M q'' */
    mbd_nullspace_transpose_solve(e->ns, r, e->wv, lambda);
    return mbd_formulation_check_finite(f, t, lambda, "lambda");
}

/* ------------------------------------------------------------------------ */
/* Position correction                                                       */

/* >> nullspace-newton */
/* Newton on C(t, q) = 0 for e->q with the rank-aware minimum-norm step of
 * eq. 2.10, q <- q - Q_ns R11^-T (P^T C)_{1..r} (= -A^+ C when C is
 * consistent; the document's (A Q_1)^-1 = R1^-T, singular at a rank loss),
 * refactored at every iterate, until |C| <= tol (or the step is round-off).
 * *moved says whether q changed. */
static int newton(mbd_formulation *f, double t, size_t r, int *moved)
{
    nullspace_ws *e = ws(f);
    const mbd_system *s = f->s;
    *moved = 0;
    double norm = INFINITY;
    int tiny = 0;
    for (unsigned it = 0;; it++) {
        int st = s->constraint(s, t, e->q, f->C);
        if (st != GSL_SUCCESS)
            return mbd_formulation_model_failed(f, st, t, "constraint");
        norm = gsl_blas_dnrm2(f->C);
        if (!isfinite(norm))
            return mbd_failure_set(&f->fail, MBD_ENONFINITE, t,
                                   "the constraint violation is not finite in Newton's method");
        if (norm <= e->tol || tiny)
            return GSL_SUCCESS;
        if (it == e->max_iter)
            break;
        st = factor_at(f, t, e->q);
        if (st != GSL_SUCCESS)
            return st;
        mbd_nullspace_particular(e->ns, r, f->C, e->u);
        double step = 0.0, size = 0.0;
        for (size_t i = 0; i < f->n; i++) {
            const double qi = gsl_vector_get(e->q, i) - gsl_vector_get(e->u, i);
            gsl_vector_set(e->q, i, qi);
            step = fmax(step, fabs(gsl_vector_get(e->u, i)));
            size = fmax(size, fabs(qi));
        }
        *moved = 1;
        tiny = step <= 16.0 * DBL_EPSILON * (1.0 + size);
    }
    return mbd_failure_set(&f->fail, MBD_ENOCONV, t,
                           "Newton on C = 0 (null-space position correction, rank %zu): |C| = "
                           "%.3g after %u iterations", r, norm, e->max_iter);
}
/* << nullspace-newton */

/* ------------------------------------------------------------------------ */
/* State layout                                                              */

static size_t dim(const mbd_formulation *f) { return 3 * f->n; }

/* The skew update's ingredients at the anchor (full): Q_a = [Q_ns T_a] and
 * Omega there, with the factorisation and e->xd at the anchor */
static int anchor_omega(mbd_formulation *f, double t)
{
    nullspace_ws *e = ws(f);
    const size_t n = f->n, k = e->k, r = e->r;
    if (e->mode != MBD_NULLSPACE_FULL)
        return GSL_SUCCESS;
    gsl_matrix_view I = sub(e->Tp, n, n);
    gsl_matrix_set_identity(&I.matrix);
    int st = adot_times(f, t, e->q, &I.matrix, e->Adot);       /* A' (m x n) */
    if (st != GSL_SUCCESS)
        return st;
    gsl_matrix_view Ta = sub(e->Ta, n, k);
    mbd_nullspace_q(e->ns, e->Qa);
    if (k > 0) {
        gsl_matrix_view QaT = gsl_matrix_submatrix(e->Qa, 0, r, n, k);
        gsl_matrix_memcpy(&QaT.matrix, &Ta.matrix);
    }
    return mbd_nullspace_omega(e->ns, r, &Ta.matrix, e->Adot, e->Om);
}

/* the monitor at the factorisation just made (a step end or the start) */
static void sample(mbd_formulation *f, double t)
{
    nullspace_ws *e = ws(f);
    mbd_nullspace_monitor(e->ns, e->diag);
    const double s = mbd_nullspace_ratio(e->ns, e->r0);
    const size_t rank = mbd_nullspace_rank(e->ns, e->tol_sing);
    if (s < e->ratio_min) {
        e->ratio_min = s;
        e->t_ratio_min = t;
    }
    /* >> nullspace-singular-rule */
    /* the latest-but-one sample is a singular instant when it is a local
     * minimum of the ratio below tol_sing; the instant is refined by the
     * symmetric V through the outer samples (|R_rr| ~ |theta - theta*| at a
     * crossing): t* = t0 + (t2 - t0) s0 / (s0 + s2), within [t0, t2] */
    if (e->samples >= 2 && e->s1 < e->s2 && e->s1 <= s && e->s1 < e->tol_sing) {
        const double t0 = e->t2, s0 = e->s2, t2 = t;   /* oldest, middle (t1), newest */
        double ts = s0 + s > 0 ? t0 + (t2 - t0) * s0 / (s0 + s) : e->t1;
        ts = fmin(fmax(ts, t0), t2);
        mbd_formulation_singular_instant ev = {ts, e->t1, e->s1, e->rank1, f->n - e->rank1};
        if (e->count == 0)
            e->first_dof = ev.dof;
        e->events[e->count % MBD_FORMULATION_SINGULAR_KEPT] = ev;
        e->count++;
    }
    /* << nullspace-singular-rule */
    /* shift: (t2, s2) <- (t1, s1) <- (t, s); t2 holds the older one */
    e->t2 = e->t1;
    e->s2 = e->s1;
    e->t1 = t;
    e->s1 = s;
    e->rank1 = rank;
    e->rank_now = rank;
    e->samples++;
}

/* The rank to integrate with at the last factorisation: the structural
 * one, or with dynamic rank the one at tol_sing when lower (a singular
 * window) */
static size_t rank_in_use(const nullspace_ws *e)
{
    if (!e->dynamic)
        return e->r0;
    const size_t rs = mbd_nullspace_rank(e->ns, e->tol_sing);
    return rs < e->r0 ? rs : e->r0;
}

/* >> nullspace-pack */
/* q0 moved onto C = 0 (Newton, rank-aware), the structural rank r decided
 * there (tol_rank), T_a the fresh basis, v = T^T q0' (the velocity
 * projection; an inconsistent q0' loses its component off the tangent
 * space), z = 0; the counts start afresh. */
static int pack(mbd_formulation *f, double t, const double q0[], const double qd0[], double y[])
{
    nullspace_ws *e = ws(f);
    const size_t n = f->n;
    memcpy(e->q->data, q0, n * sizeof *q0);
    int st = factor_at(f, t, e->q);
    if (st != GSL_SUCCESS)
        return st;
    int moved = 0;
    st = newton(f, t, mbd_nullspace_rank(e->ns, e->tol_rank), &moved);
    if (st == GSL_SUCCESS)
        st = factor_at(f, t, e->q);
    if (st != GSL_SUCCESS)
        return st;
    e->r0 = mbd_nullspace_rank(e->ns, e->tol_rank);
    e->r = rank_in_use(e);
    e->k = n - e->r;
    e->k_max = e->k;
    e->rank_changes = 0;
    const size_t k = e->k;
    gsl_matrix_view Ta = sub(e->Ta, n, k), Tf = sub(e->Tf_prev, n, k);
    mbd_nullspace_basis(e->ns, e->r, &Ta.matrix);
    gsl_matrix_memcpy(&Tf.matrix, &Ta.matrix);
    gsl_matrix_view Tu = sub(e->Tu, n, k);
    gsl_matrix_memcpy(&Tu.matrix, &Ta.matrix);
    e->packed = 1;
    st = basis_at(f, t, e->q);                         /* T = T_a, beta' */
    if (st != GSL_SUCCESS)
        return st;
    memset(y, 0, 3 * n * sizeof *y);
    memcpy(y, e->q->data, n * sizeof *y);
    for (size_t j = 0; j < k; j++) {
        double s = 0.0;
        for (size_t i = 0; i < n; i++)
            s += gsl_matrix_get(e->T, i, j) * qd0[i];
        y[2 * n + j] = s;
    }
    velocity(f, y + 2 * n);
    e->t_anchor = t;
    e->samples = 0;
    e->count = e->jumps = e->fresh_jumps = e->corrections = 0;
    e->max_pred = 0.0;
    e->ratio_min = INFINITY;
    e->t_ratio_min = t;
    sample(f, t);
    return anchor_omega(f, t);
}
/* << nullspace-pack */

static int unpack(mbd_formulation *f, double t, const double y[], double q[], double qd[])
{
    nullspace_ws *e = ws(f);
    const size_t n = f->n;
    if (!e->packed)
        return mbd_failure_set(&f->fail, GSL_EINVAL, t, "the null-space state was never packed");
    memcpy(e->q->data, y, n * sizeof *y);
    if (qd != NULL) {
        int st = basis_at(f, t, e->q);
        if (st != GSL_SUCCESS)
            return st;
        velocity(f, y + 2 * n);
        memcpy(qd, e->xd->data, n * sizeof *qd);
    }
    if (q != NULL)
        memcpy(q, y, n * sizeof *q);
    return GSL_SUCCESS;
}

/* ------------------------------------------------------------------------ */
/* After a step: correction, continuation, monitor                           */

/* The state after a step end's correction, the sample and (full) the skew
 * update's anchor */
static int finish_step(mbd_formulation *f, double t, const double y[])
{
    nullspace_ws *e = ws(f);
    e->t_anchor = t;
    sample(f, t);
    if (e->mode != MBD_NULLSPACE_FULL)
        return GSL_SUCCESS;
    int st = basis_at(f, t, e->q);                 /* T = T_a now; beta' at the new q */
    if (st != GSL_SUCCESS)
        return st;
    velocity(f, y + 2 * f->n);                     /* q' there, for A' */
    return anchor_omega(f, t);
}

/* >> nullspace-rank-change */
/* Dynamic rank: the basis for the rank r_new at the factorisation just made
 * (e->q corrected, e->xd0 the velocity): the fresh basis aligned (App. A)
 * to a reference whose first columns are the basis in use, completed when
 * it grows by the fresh columns least in its span (Gram-Schmidt), so the
 * columns that stay continue; v <- T^T q', the coordinates of dropped
 * columns discarded, new ones from 0. */
static int change_rank(mbd_formulation *f, double t, double y[], size_t r_new, int *changed)
{
    nullspace_ws *e = ws(f);
    const size_t n = f->n, k_old = e->k, k_new = n - r_new;
    const size_t keep = k_old < k_new ? k_old : k_new;
    gsl_matrix_view Tf = sub(e->Tf, n, k_new), Tn = sub(e->Tn, n, k_new),
                    Ref = sub(e->Tp, n, k_new);
    mbd_nullspace_basis(e->ns, r_new, &Tf.matrix);
    gsl_matrix_memcpy(&Tn.matrix, &Tf.matrix);
    for (size_t j = 0; j < keep; j++)
        for (size_t i = 0; i < n; i++)
            gsl_matrix_set(&Ref.matrix, i, j, gsl_matrix_get(e->Tu, i, j));
    for (size_t j = keep; j < k_new; j++) {
        /* the fresh column with the largest part outside Ref's first j columns */
        double best = -1.0;
        for (size_t c = 0; c < k_new; c++) {
            for (size_t i = 0; i < n; i++)
                gsl_vector_set(e->u, i, gsl_matrix_get(&Tf.matrix, i, c));
            for (size_t l = 0; l < j; l++) {
                double d = 0.0;
                for (size_t i = 0; i < n; i++)
                    d += gsl_matrix_get(&Ref.matrix, i, l) * gsl_vector_get(e->u, i);
                for (size_t i = 0; i < n; i++)
                    *gsl_vector_ptr(e->u, i) -= d * gsl_matrix_get(&Ref.matrix, i, l);
            }
            const double norm = gsl_blas_dnrm2(e->u);
            if (norm > best) {
                best = norm;
                for (size_t i = 0; i < n; i++)
                    gsl_matrix_set(&Ref.matrix, i, j, gsl_vector_get(e->u, i) / norm);
            }
        }
    }
    mbd_nullspace_procrustes(e->ns, &Ref.matrix, &Tn.matrix, NULL);
    gsl_matrix_view Tu = sub(e->Tu, n, k_new), Ta = sub(e->Ta, n, k_new),
                    Tfp = sub(e->Tf_prev, n, k_new);
    gsl_matrix_memcpy(&Tu.matrix, &Tn.matrix);
    gsl_matrix_memcpy(&Ta.matrix, &Tn.matrix);
    gsl_matrix_memcpy(&Tfp.matrix, &Tf.matrix);
    double *z = y + n, *v = y + 2 * n;
    for (size_t j = 0; j < n; j++) {
        double s = 0.0;
        if (j < k_new) {
            gsl_vector_view c = gsl_matrix_column(&Tn.matrix, j);
            gsl_blas_ddot(&c.vector, e->xd0, &s);
        } else {
            z[j] = 0.0;
        }
        v[j] = s;
    }
    memcpy(y, e->q->data, n * sizeof *y);
    e->r = r_new;
    e->k = k_new;
    if (k_new > e->k_max)
        e->k_max = k_new;
    e->rank_changes++;
    e->corrections++;
    *changed = 1;
    return finish_step(f, t, y);
}
/* << nullspace-rank-change */

/* >> nullspace-post-step */
static int post_step(mbd_formulation *f, double t, double y[], int *changed)
{
    nullspace_ws *e = ws(f);
    const size_t n = f->n, k = e->k, r = e->r;
    double *v = y + 2 * n;
    if (!e->packed)
        return mbd_failure_set(&f->fail, GSL_EINVAL, t, "the null-space state was never packed");
    /* the velocity at the step's end, in the stage basis */
    memcpy(e->q->data, y, n * sizeof *y);
    int st = basis_at(f, t, e->q);
    if (st != GSL_SUCCESS)
        return st;
    velocity(f, v);
    gsl_vector_memcpy(e->xd0, e->xd);
    /* positions back onto C = 0 */
    int moved = 0;
    st = newton(f, t, e->r0, &moved);
    if (st == GSL_SUCCESS)
        st = factor_at(f, t, e->q);
    if (st != GSL_SUCCESS)
        return st;
    const size_t r_new = rank_in_use(e);
    if (r_new != r)                        /* into or out of a singular window */
        return change_rank(f, t, y, r_new, changed);
    /* the new basis in use */
    gsl_matrix_view Tf = sub(e->Tf, n, k), Tfp = sub(e->Tf_prev, n, k), Tn = sub(e->Tn, n, k),
                    Ta = sub(e->Ta, n, k), T = sub(e->T, n, k), Tp = sub(e->Tp, n, k);
    mbd_nullspace_basis(e->ns, r, &Tf.matrix);
    e->fresh_jumps += (size_t)mbd_nullspace_jump(&Tfp.matrix, &Tf.matrix);
    gsl_matrix_memcpy(&Tfp.matrix, &Tf.matrix);
    gsl_matrix_memcpy(&Tn.matrix, &Tf.matrix);
    if (e->mode == MBD_NULLSPACE_PROCRUSTES) {
        mbd_nullspace_procrustes(e->ns, &Ta.matrix, &Tn.matrix, NULL);
    } else if (e->mode == MBD_NULLSPACE_FULL) {
        st = mbd_nullspace_predict(e->ns, e->Qa, e->Om, t - e->t_anchor, &Tp.matrix);
        if (st != GSL_SUCCESS)
            return mbd_failure_set(&f->fail, st, t, "the skew update of the basis failed");
        mbd_nullspace_procrustes(e->ns, &Tp.matrix, &Tn.matrix, NULL);
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j < k; j++)
                e->max_pred = fmax(e->max_pred, fabs(gsl_matrix_get(&Tp.matrix, i, j)
                                                     - gsl_matrix_get(&Tn.matrix, i, j)));
    }
    gsl_matrix_view Tu = sub(e->Tu, n, k);
    e->jumps += (size_t)mbd_nullspace_jump(&Tu.matrix, &Tn.matrix);
    gsl_matrix_memcpy(&Tu.matrix, &Tn.matrix);
    /* did the basis at the step's end change? (procrustes without Newton:
     * the same bits as the stage basis) */
    double diff = 0.0, drift = 0.0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < k; j++) {
            diff = fmax(diff, fabs(gsl_matrix_get(&Tn.matrix, i, j)
                                   - gsl_matrix_get(&T.matrix, i, j)));
            drift = fmax(drift, fabs(gsl_matrix_get(&Tn.matrix, i, j)
                                     - gsl_matrix_get(&Ta.matrix, i, j)));
        }
    /* the anchor: the basis in use, except that procrustes keeps it while
     * the basis stays near it (|T - T_a| <= ANCHOR_DRIFT). With two or more
     * degrees of freedom the right-hand side depends on the anchor (through
     * Omega), so a new one is a new ODE: the integrator restarts. */
    if (e->mode != MBD_NULLSPACE_PROCRUSTES || drift > ANCHOR_DRIFT) {
        gsl_matrix_memcpy(&Ta.matrix, &Tn.matrix);
        if (k >= 2 && drift > 0.0)
            *changed = 1;
    }
    if (moved || diff > 64.0 * DBL_EPSILON) {
        /* the velocity projection (eq. 2.11 corrected): v <- T_new^T q' */
        for (size_t j = 0; j < k; j++) {
            gsl_vector_view c = gsl_matrix_column(&Tn.matrix, j);
            double s = 0.0;
            gsl_blas_ddot(&c.vector, e->xd0, &s);
            v[j] = s;
        }
        memcpy(y, e->q->data, n * sizeof *y);
        *changed = 1;
    }
    e->corrections += (size_t)*changed;
    return finish_step(f, t, y);
}
/* << nullspace-post-step */

/* The 1-norm condition number of T^T M T (its eigenvalues, and so its
 * 2-norm condition number, are those of any orthonormal basis), with M and
 * C_q evaluated at q */
static int condition(mbd_formulation *f, double t, double *cond)
{
    nullspace_ws *e = ws(f);
    const size_t n = f->n;
    int st = mbd_nullspace_factor(e->ns, f->Cq);
    if (st != GSL_SUCCESS)
        return mbd_failure_set(&f->fail, st, t, "the constraint Jacobian is not finite");
    const size_t r = e->packed ? e->r : mbd_nullspace_rank(e->ns, e->tol_rank), k = n - r;
    if (k == 0) {
        *cond = 1.0;
        return GSL_SUCCESS;
    }
    gsl_matrix_view T = sub(e->Tf, n, k), MT = sub(e->MT, n, k), A = sub(e->A, k, k);
    mbd_nullspace_basis(e->ns, r, &T.matrix);
    gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, f->M, &T.matrix, 0.0, &MT.matrix);
    gsl_blas_dgemm(CblasTrans, CblasNoTrans, 1.0, &T.matrix, &MT.matrix, 0.0, &A.matrix);
    if (gsl_linalg_cholesky_decomp1(&A.matrix) != GSL_SUCCESS)
        return GSL_SUCCESS;                                     /* INFINITY */
    gsl_vector_view work = gsl_vector_subvector(f->work, 0, 3 * k);
    double rcond = 0.0;
    mbd_constraints_cholesky_rcond(&A.matrix, &rcond, &work.vector);
    *cond = rcond > 0 ? 1.0 / rcond : INFINITY;
    return GSL_SUCCESS;
}

/* ------------------------------------------------------------------------ */
/* The workspace                                                             */

static void release(mbd_formulation *f)
{
    nullspace_ws *e = ws(f);
    if (e == NULL)
        return;
    gsl_matrix *mats[] = {e->Ta, e->Tu, e->T,  e->Tf, e->Tf_prev, e->Tn, e->Tp, e->Qa, e->Om, e->Adot,
                          e->MT, e->A,  e->QB, e->Bc,      e->H,  e->Ev, e->G,  e->X};
    gsl_vector *vecs[] = {e->q, e->xd, e->xd0, e->bp, e->bpp,
                          e->wv,   e->pp, e->acc, e->u,  e->g1, e->g2};
    for (size_t i = 0; i < sizeof mats / sizeof mats[0]; i++)
        if (mats[i])
            gsl_matrix_free(mats[i]);
    for (size_t i = 0; i < sizeof vecs / sizeof vecs[0]; i++)
        if (vecs[i])
            gsl_vector_free(vecs[i]);
    mbd_nullspace_free(e->ns);
    free(e->diag);
    free(e);
    f->kind_ws = NULL;
}

static int init(mbd_formulation *f)
{
    const mbd_formulation_params *p = &f->p;
    const size_t n = f->n, m = f->m;
    const double tol = p->newton_tol == 0 ? NEWTON_TOL : p->newton_tol;
    const double tol_rank = p->tol_rank == 0 ? MBD_NULLSPACE_TOL_RANK : p->tol_rank;
    const double tol_sing = p->tol_sing == 0 ? MBD_NULLSPACE_TOL_SING : p->tol_sing;
    if (!(tol > 0 && isfinite(tol)) || !(tol_rank > 0 && tol_rank < 1)
        || !(tol_sing > 0 && tol_sing < 1) || !(tol_rank < tol_sing))
        return MBD_EINPUT;
    if ((int)p->continuation < MBD_NULLSPACE_CONTINUATION_DEFAULT
        || (int)p->continuation > MBD_NULLSPACE_FULL)
        return MBD_EINPUT;
    nullspace_ws *e = calloc(1, sizeof *e);
    if (e == NULL)
        return GSL_ENOMEM;
    f->kind_ws = e;
    e->dynamic = p->dynamic_rank != 0;
    e->mode = p->continuation == MBD_NULLSPACE_CONTINUATION_DEFAULT ? MBD_NULLSPACE_PROCRUSTES
                                                                    : p->continuation;
    f->p.continuation = e->mode;
    f->p.tol_rank = e->tol_rank = tol_rank;
    f->p.tol_sing = e->tol_sing = tol_sing;
    e->tol = tol;
    e->max_iter = p->newton_max_iter ? p->newton_max_iter : NEWTON_MAX_ITER;
    e->p = n < m ? n : m;
    e->ns = mbd_nullspace_alloc(n, m);
    e->diag = calloc(e->p, sizeof *e->diag);
    gsl_matrix **nn[] = {&e->Ta, &e->Tu, &e->T, &e->Tf, &e->Tf_prev, &e->Tn, &e->Tp, &e->Qa, &e->Om,
                         &e->MT, &e->A, &e->QB, &e->Bc, &e->H, &e->Ev, &e->G, &e->X};
    for (size_t i = 0; i < sizeof nn / sizeof nn[0]; i++)
        if ((*nn[i] = gsl_matrix_alloc(n, n)) == NULL)
            return GSL_ENOMEM;
    gsl_vector **vn[] = {&e->q, &e->xd, &e->xd0, &e->bp, &e->bpp, &e->wv, &e->pp,
                         &e->acc, &e->u};
    for (size_t i = 0; i < sizeof vn / sizeof vn[0]; i++)
        if ((*vn[i] = gsl_vector_calloc(n)) == NULL)
            return GSL_ENOMEM;
    e->Adot = gsl_matrix_alloc(m, n);
    e->g1 = gsl_vector_alloc(m);
    e->g2 = gsl_vector_alloc(m);
    if (!e->ns || !e->diag || !e->Adot || !e->g1 || !e->g2)
        return GSL_ENOMEM;
    e->k = n;
    e->ratio_min = INFINITY;
    return GSL_SUCCESS;
}

const mbd_formulation_ops mbd_formulation_nullspace_ops = {
    .kind_name = "nullspace",
    .correctable = 0,            /* Newton and the velocity projection are its own post-step */
    .init = init,
    .release = release,
    .dim = dim,
    .pack = pack,
    .unpack = unpack,
    .accel = accel,
    .rhs = rhs,
    .condition = condition,
    .post_step = post_step,
};

/* ------------------------------------------------------------------------ */
/* The public queries (formulation.h)                                        */

static const nullspace_ws *nullspace_of(const mbd_formulation *f)
{
    return f != NULL && f->ops == &mbd_formulation_nullspace_ops ? f->kind_ws : NULL;
}

int mbd_formulation_nullspace_get(const mbd_formulation *f, mbd_formulation_nullspace_report *rep)
{
    const nullspace_ws *e = nullspace_of(f);
    if (e == NULL || !e->packed)
        return MBD_EINPUT;
    memset(rep, 0, sizeof *rep);
    rep->n = f->n;
    rep->m = f->m;
    rep->rank = e->r0;
    rep->deficiency = e->p - e->r0;
    rep->dof = f->n - e->r0;
    rep->dof_used = e->k;
    rep->dof_max = e->k_max;
    rep->rank_changes = e->rank_changes;
    rep->rank_now = e->rank_now;
    rep->dof_now = f->n - e->rank_now;
    rep->ratio = e->s1;
    rep->ratio_min = e->ratio_min;
    rep->t_ratio_min = e->t_ratio_min;
    rep->singular = e->count;
    rep->dof_first_singular = e->count > 0 ? e->first_dof : 0;
    rep->jumps = e->jumps;
    rep->fresh_jumps = e->fresh_jumps;
    rep->corrections = e->corrections;
    rep->max_prediction_error = e->max_pred;
    rep->continuation = e->mode;
    return GSL_SUCCESS;
}

size_t mbd_formulation_nullspace_basis(const mbd_formulation *f, double T[])
{
    const nullspace_ws *e = nullspace_of(f);
    if (e == NULL || !e->packed)
        return 0;
    if (T != NULL)
        for (size_t i = 0; i < f->n; i++)
            for (size_t j = 0; j < e->k; j++)
                T[i * e->k + j] = gsl_matrix_get(e->Tu, i, j);
    return e->k;
}

size_t mbd_formulation_nullspace_monitor(const mbd_formulation *f, double diag[])
{
    const nullspace_ws *e = nullspace_of(f);
    if (e == NULL || !e->packed)
        return 0;
    if (diag != NULL)
        memcpy(diag, e->diag, e->p * sizeof *diag);
    return e->p;
}

size_t mbd_formulation_generalized(const mbd_formulation *f, const double y[], double z[],
                                   double v[])
{
    const nullspace_ws *e = nullspace_of(f);
    if (e == NULL || !e->packed)
        return 0;
    if (z != NULL)
        memcpy(z, y + f->n, e->k * sizeof *z);
    if (v != NULL)
        memcpy(v, y + 2 * f->n, e->k * sizeof *v);
    return e->k;
}

size_t mbd_formulation_singulars(const mbd_formulation *f)
{
    const nullspace_ws *e = nullspace_of(f);
    return e ? e->count : 0;
}

int mbd_formulation_singular_get(const mbd_formulation *f, size_t i,
                                 mbd_formulation_singular_instant *ev)
{
    const nullspace_ws *e = nullspace_of(f);
    if (e == NULL || i >= e->count || e->count - i > MBD_FORMULATION_SINGULAR_KEPT)
        return MBD_EINPUT;
    *ev = e->events[i % MBD_FORMULATION_SINGULAR_KEPT];
    return GSL_SUCCESS;
}
