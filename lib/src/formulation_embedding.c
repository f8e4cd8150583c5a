/* The embedding (document 001, Chandramouli 2023, "Embedding Technique" and
 * "Numerical Implementation: Embedded"; the reading guide's algorithm E):
 * coordinate partitioning, with the state y = [q_i; q_i'] of the n - m
 * independent coordinates only.
 *
 * The coordinates are split into m dependent ones q_d and n - m independent
 * ones q_i, so that the constraint Jacobian splits into C_q = [C_q_d C_q_i]
 * with C_q_d square and regular. Then (the document's slides, with q_d first)
 *
 *     dq = B dq_i,        B = [-C_q_d^-1 C_q_i; I]                      (n x (n - m))
 *     q'' = B q_i'' + gamma_c,   gamma_c = [C_q_d^-1 gamma; 0]
 *
 * and the virtual work of the constraint forces vanishes along B, which
 * leaves n - m equations without multipliers (the final form):
 *
 *     B^T M B q_i'' = B^T (F - M gamma_c).
 *
 * Only q_i and q_i' are integrated. At every evaluation the dependent
 * coordinates follow from C(t, q_d; q_i) = 0 by Newton's method with q_i held
 * (the slides' [C_q; I_d] dq = [-C; 0], solved here on its C_q_d block), and
 * their velocities from C_q q' + C_t = 0 (the slides' [C_q; I_d] q' =
 * [-C_t; q_i']). B and gamma_c are written into the coordinates' own order,
 * so nothing is permuted outside this file.
 *
 * The block C_q_d is factored by QR with column pivoting (the same
 * factorisation that chooses the partition, see formulation.h), not LU:
 * gsl_linalg_LU_decomp allocates a pivot array on every call in GSL 2.7, and
 * nothing here may allocate inside a step.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_permutation.h>
#include <gsl/gsl_permute_vector.h>

#include "formulation_impl.h"

/* the defaults of mbd_formulation_params (formulation.h) */
#define NEWTON_TOL 1e-12
#define NEWTON_MAX_ITER 25u
#define RESELECT_RATIO 0.5
#define SINGULAR_RATIO 1e-2

typedef struct {
    size_t *indep;              /* n - m coordinate indices, ascending */
    size_t *dep;                /* m, ascending */
} partition;

typedef struct {
    size_t k;                   /* n - m: the degrees of freedom */
    int forced;                 /* the partition was given, held throughout (no re-selection) */
    int given;                  /* a set was given: forced, or where the run starts */
    double tol, ratio, singular;
    unsigned max_iter;
    partition cur;              /* the partition of y */
    partition cand;             /* the best one at some q (a candidate) */
    size_t *given_set;          /* the copy mbd_formulation_params.independent points to */
    /* the anchor: the last packed or accepted state, where Newton starts */
    gsl_vector *qa, *qda;       /* n */
    gsl_matrix *Bda;            /* m x k: B's dependent rows there (the predictor) */
    /* the state being evaluated */
    gsl_vector *q, *qd;         /* n */
    gsl_matrix *QRd;            /* m x m: C_q_d, QRPT-factored */
    gsl_vector *taud, *normd;   /* m */
    gsl_permutation *pd;        /* m */
    gsl_vector *rd;             /* m: the right-hand sides of C_q_d solves */
    gsl_matrix *Bd;             /* m x k: -C_q_d^-1 C_q_i */
    gsl_matrix *B, *MB;         /* n x k: B in the coordinates' order, and M B */
    gsl_vector *gc;             /* n: gamma_c */
    gsl_vector *w;              /* n: F - M gamma_c */
    gsl_vector *qddi;           /* k: q_i'' */
    /* the choice of a partition */
    gsl_matrix *QR;             /* m x n: C_q, QRPT-factored */
    gsl_vector *tau;            /* m */
    gsl_vector *norm;           /* n */
    gsl_permutation *p;         /* n */
    unsigned char *mark;        /* n: scratch flags */
    /* the re-selections since the last pack */
    size_t count;
    mbd_formulation_reselection events[MBD_FORMULATION_RESELECTIONS_KEPT];
} embedding;

static embedding *ws(const mbd_formulation *f) { return f->kind_ws; }

/* ------------------------------------------------------------------------ */
/* Names for messages                                                        */

/* "x, y" (the model's names, or q[j]) for a set of coordinates, cut short
 * to fit `size` */
static const char *set_names(const mbd_formulation *f, const size_t *idx, size_t count,
                             char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < count && used + 4 < size; i++) {
        char one[32];
        if (f->s->names && f->s->names[idx[i]])
            snprintf(one, sizeof one, "%s", f->s->names[idx[i]]);
        else
            snprintf(one, sizeof one, "q[%zu]", idx[i]);
        int w = snprintf(buf + used, size - used, "%s%s", i ? ", " : "", one);
        if (w < 0 || (size_t)w >= size - used) {
            snprintf(buf + (size > 4 ? size - 4 : 0), size > 4 ? 4 : size, "...");
            break;
        }
        used += (size_t)w;
    }
    return buf;
}

/* ------------------------------------------------------------------------ */
/* The partition                                                             */

/* the dependent set from marks (1: dependent) into P, both lists ascending */
static void partition_from_marks(const unsigned char *mark, size_t n, partition *P)
{
    size_t a = 0, b = 0;
    for (size_t j = 0; j < n; j++) {
        if (mark[j])
            P->dep[b++] = j;
        else
            P->indep[a++] = j;
    }
}

/* The current partition back to the given set (ascending, as the copy is) */
static void set_given(embedding *e, size_t n)
{
    memset(e->mark, 1, n);
    for (size_t j = 0; j < e->k; j++)
        e->mark[e->given_set[j]] = 0;
    partition_from_marks(e->mark, n, &e->cur);
}

static int same_partition(const embedding *e, const partition *A, const partition *B)
{
    return memcmp(A->indep, B->indep, e->k * sizeof *A->indep) == 0;
}

/* >> embedding-select */
/* The best partition at the C_q in f->Cq: QR with column pivoting,
 * C_q P = Q R, puts first the column that adds most to the span of those
 * before it; the first m are the dependent coordinates (a well-conditioned
 * C_q_d), the rest independent. *pivot = |R_mm|, the smallest pivot of that
 * block. A C_q whose |R_mm| is round-off next to |R_11| has rank below m:
 * no set of independent coordinates exists (redundant constraints, or a
 * configuration where the mechanism locks). */
static int select_best(mbd_formulation *f, double t, double *pivot)
{
    embedding *e = ws(f);
    const size_t n = f->n, m = f->m;
    int signum = 0;
    gsl_matrix_memcpy(e->QR, f->Cq);
    gsl_linalg_QRPT_decomp(e->QR, e->tau, e->p, &signum, e->norm);
    const double r11 = fabs(gsl_matrix_get(e->QR, 0, 0));
    *pivot = fabs(gsl_matrix_get(e->QR, m - 1, m - 1));
    if (!(*pivot > (double)n * DBL_EPSILON * r11))
        return mbd_failure_set(&f->fail, MBD_ESINGULAR, t,
                               "C_q has rank below its %zu rows here (redundant constraints or "
                               "a locked configuration): no independent set exists", m);
    memset(e->mark, 0, n);
    for (size_t r = 0; r < m; r++)
        e->mark[gsl_permutation_get(e->p, r)] = 1;
    partition_from_marks(e->mark, n, &e->cand);
    return GSL_SUCCESS;
}
/* << embedding-select */

/* Factors the block C_q_d of partition P from f->Cq (QRPT into e->QRd).
 * MBD_ESINGULAR (said in f->fail when `report`) when its smallest pivot is
 * round-off next to the largest column of C_q. */
static int factor_block(mbd_formulation *f, const partition *P, double t, int report)
{
    embedding *e = ws(f);
    const size_t n = f->n, m = f->m;
    double scale = 0.0;
    for (size_t j = 0; j < n; j++) {
        gsl_vector_const_view c = gsl_matrix_const_column(f->Cq, j);
        scale = fmax(scale, gsl_blas_dnrm2(&c.vector));
    }
    for (size_t r = 0; r < m; r++) {
        gsl_vector_const_view c = gsl_matrix_const_column(f->Cq, P->dep[r]);
        gsl_matrix_set_col(e->QRd, r, &c.vector);
    }
    int signum = 0;
    gsl_linalg_QRPT_decomp(e->QRd, e->taud, e->pd, &signum, e->normd);
    const double pivot = fabs(gsl_matrix_get(e->QRd, m - 1, m - 1));
    if (pivot > (double)n * DBL_EPSILON * scale && isfinite(pivot))
        return GSL_SUCCESS;
    if (!report)
        return MBD_ESINGULAR;
    char dn[96], in[96];
    return mbd_failure_set(&f->fail, MBD_ESINGULAR, t,
                           "C_q_d, the Jacobian's block of the dependent coordinates (%s), is "
                           "singular: the independent ones (%s) do not fix them here",
                           set_names(f, P->dep, m, dn, sizeof dn),
                           set_names(f, P->indep, e->k, in, sizeof in));
}

/* x <- C_q_d^-1 x with the factored block */
static void block_solve(embedding *e, gsl_vector *x)
{
    gsl_linalg_QRPT_svx(e->QRd, e->taud, e->pd, x);
}

/* the smallest pivot |R_mm| of the factored block */
static double block_pivot(const mbd_formulation *f)
{
    const embedding *e = ws(f);
    return fabs(gsl_matrix_get(e->QRd, f->m - 1, f->m - 1));
}

/* B_d = -C_q_d^-1 C_q_i (e->Bd) and B (e->B) in the coordinates' order,
 * with the block factored */
static void form_B(mbd_formulation *f, const partition *P)
{
    embedding *e = ws(f);
    const size_t m = f->m, k = e->k;
    gsl_matrix_set_zero(e->B);
    for (size_t j = 0; j < k; j++) {
        gsl_vector_const_view c = gsl_matrix_const_column(f->Cq, P->indep[j]);
        gsl_vector_memcpy(e->rd, &c.vector);
        block_solve(e, e->rd);
        for (size_t r = 0; r < m; r++) {
            const double b = -gsl_vector_get(e->rd, r);
            gsl_matrix_set(e->Bd, r, j, b);
            gsl_matrix_set(e->B, P->dep[r], j, b);
        }
        gsl_matrix_set(e->B, P->indep[j], j, 1.0);
    }
}

/* ------------------------------------------------------------------------ */
/* From y to (q, q')                                                         */

/* >> embedding-newton */
/* Newton's method on C(t, q_d; q_i) = 0 for the dependent coordinates of
 * e->q, its independent ones held: C_q_d dq_d = -C, until |C| <= tol (or the
 * step is round-off in q_d: C is then as small as this q can make it). */
static int newton(mbd_formulation *f, const partition *P, double t)
{
    embedding *e = ws(f);
    const mbd_system *s = f->s;
    const size_t m = f->m;
    int tiny = 0;
    double norm = INFINITY;
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
        st = s->jacobian(s, t, e->q, f->Cq);
        if (st != GSL_SUCCESS)
            return mbd_formulation_model_failed(f, st, t, "constraint Jacobian");
        st = factor_block(f, P, t, 1);
        if (st != GSL_SUCCESS)
            return st;
        gsl_vector_memcpy(e->rd, f->C);
        block_solve(e, e->rd);                              /* C_q_d^-1 C */
        double step = 0.0, size = 0.0;
        for (size_t r = 0; r < m; r++) {
            const double qr = gsl_vector_get(e->q, P->dep[r]) - gsl_vector_get(e->rd, r);
            gsl_vector_set(e->q, P->dep[r], qr);
            step = fmax(step, fabs(gsl_vector_get(e->rd, r)));
            size = fmax(size, fabs(qr));
        }
        tiny = step <= 16.0 * DBL_EPSILON * (1.0 + size);
    }
    char dn[96], in[96];
    return mbd_failure_set(&f->fail, MBD_ENOCONV, t,
                           "Newton on C = 0 for the dependent coordinates (%s), the independent "
                           "ones (%s) held: |C| = %.3g after %u iterations",
                           set_names(f, P->dep, m, dn, sizeof dn),
                           set_names(f, P->indep, e->k, in, sizeof in), norm, e->max_iter);
}
/* << embedding-newton */

/* >> embedding-resolve */
/* The full q and q' (e->q, e->qd) of the independent coordinates qi and
 * velocities qid in partition cur, with C_q (f->Cq) and its block C_q_d
 * factored there. Newton starts from the anchor (the last accepted state)
 * moved along its tangent, q_d = q_d,a + B_d,a (q_i - q_i,a), so that the
 * branch of the solution (the pendulum's y = +-sqrt(L^2 - x^2)) is the one
 * the motion is on, whatever states a rejected step tried in between. */
static int resolve(mbd_formulation *f, double t, const double qi[], const double qid[])
{
    embedding *e = ws(f);
    const mbd_system *s = f->s;
    const size_t m = f->m, k = e->k;
    const partition *P = &e->cur;
    gsl_vector_memcpy(e->q, e->qa);
    for (size_t j = 0; j < k; j++) {
        const double dq = qi[j] - gsl_vector_get(e->qa, P->indep[j]);
        gsl_vector_set(e->q, P->indep[j], qi[j]);
        for (size_t r = 0; r < m; r++)
            *gsl_vector_ptr(e->q, P->dep[r]) += gsl_matrix_get(e->Bda, r, j) * dq;
    }
    int st = newton(f, P, t);
    if (st != GSL_SUCCESS)
        return st;
    st = s->jacobian(s, t, e->q, f->Cq);
    if (st != GSL_SUCCESS)
        return mbd_formulation_model_failed(f, st, t, "constraint Jacobian");
    st = factor_block(f, P, t, 1);
    if (st != GSL_SUCCESS)
        return st;
    /* C_q_d q_d' = -(C_t + C_q_i q_i') */
    if (s->constraint_t) {
        st = s->constraint_t(s, t, e->q, f->Cdot);
        if (st != GSL_SUCCESS)
            return mbd_formulation_model_failed(f, st, t, "constraint time derivative");
        gsl_vector_memcpy(e->rd, f->Cdot);
    } else {
        gsl_vector_set_zero(e->rd);
    }
    for (size_t j = 0; j < k; j++) {
        gsl_vector_const_view c = gsl_matrix_const_column(f->Cq, P->indep[j]);
        gsl_blas_daxpy(qid[j], &c.vector, e->rd);
        gsl_vector_set(e->qd, P->indep[j], qid[j]);
    }
    block_solve(e, e->rd);
    for (size_t r = 0; r < m; r++)
        gsl_vector_set(e->qd, P->dep[r], -gsl_vector_get(e->rd, r));
    return GSL_SUCCESS;
}
/* << embedding-resolve */

/* the anchor <- the state just resolved, with B formed there */
static void set_anchor(embedding *e)
{
    gsl_vector_memcpy(e->qa, e->q);
    gsl_vector_memcpy(e->qda, e->qd);
    gsl_matrix_memcpy(e->Bda, e->Bd);
}

/* y <- (q_i, q_i') of e->q, e->qd in the current partition */
static void write_state(const embedding *e, double y[])
{
    for (size_t j = 0; j < e->k; j++) {
        y[j] = gsl_vector_get(e->q, e->cur.indep[j]);
        y[e->k + j] = gsl_vector_get(e->qd, e->cur.indep[j]);
    }
}

/* ------------------------------------------------------------------------ */
/* Accelerations                                                             */

/* M, F at (t, q, q') and gamma (when there are constraints) */
static int dynamics(mbd_formulation *f, double t, const gsl_vector *q, const gsl_vector *qd)
{
    const mbd_system *s = f->s;
    int st = s->mass(s, t, q, f->M);
    if (st != GSL_SUCCESS)
        return mbd_formulation_model_failed(f, st, t, "mass matrix");
    st = s->force(s, t, q, qd, f->F);
    if (st != GSL_SUCCESS)
        return mbd_formulation_model_failed(f, st, t, "force");
    if (f->m > 0) {
        st = s->gamma(s, t, q, qd, f->gamma);
        if (st != GSL_SUCCESS)
            return mbd_formulation_model_failed(f, st, t, "gamma");
    }
    return GSL_SUCCESS;
}

/* >> embedding-accel */
/* q_i'' (e->qddi) from B^T M B q_i'' = B^T (F - M gamma_c), with M, F,
 * gamma evaluated and the block of P factored and B formed; gamma_c in
 * e->gc. B^T M B is symmetric positive definite when M is (B has the
 * identity in its independent rows, so full column rank): Cholesky. */
static int independent_accel(mbd_formulation *f, const partition *P, double t)
{
    embedding *e = ws(f);
    const size_t m = f->m, k = e->k;
    gsl_vector_set_zero(e->gc);                                  /* gamma_c */
    gsl_vector_memcpy(e->rd, f->gamma);
    block_solve(e, e->rd);
    for (size_t r = 0; r < m; r++)
        gsl_vector_set(e->gc, P->dep[r], gsl_vector_get(e->rd, r));
    gsl_vector_memcpy(e->w, f->F);
    gsl_blas_dgemv(CblasNoTrans, -1.0, f->M, e->gc, 1.0, e->w);   /* F - M gamma_c */
    gsl_matrix_view A = gsl_matrix_submatrix(f->L, 0, 0, k, k);
    gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, f->M, e->B, 0.0, e->MB);
    gsl_blas_dgemm(CblasTrans, CblasNoTrans, 1.0, e->B, e->MB, 0.0, &A.matrix);   /* B^T M B */
    gsl_blas_dgemv(CblasTrans, 1.0, e->B, e->w, 0.0, e->qddi);   /* B^T (F - M gamma_c) */
    if (gsl_linalg_cholesky_decomp1(&A.matrix) != GSL_SUCCESS)
        return mbd_failure_set(&f->fail, MBD_ESINGULAR, t,
                               "B^T M B is not positive definite (nor, then, is M)");
    gsl_linalg_cholesky_svx(&A.matrix, e->qddi);
    return mbd_formulation_check_finite(f, t, e->qddi, "q_i''");
}
/* << embedding-accel */

/* Without constraints: M q'' = F (into qdd) */
static int free_accel(mbd_formulation *f, double t, const gsl_vector *q, const gsl_vector *qd,
                      gsl_vector *qdd)
{
    int st = dynamics(f, t, q, qd);
    if (st != GSL_SUCCESS)
        return st;
    gsl_matrix_memcpy(f->L, f->M);
    if (gsl_linalg_cholesky_decomp1(f->L) != GSL_SUCCESS)
        return mbd_failure_set(&f->fail, MBD_ESINGULAR, t, "the mass matrix M is not positive "
                               "definite");
    gsl_vector_memcpy(qdd, f->F);
    gsl_linalg_cholesky_svx(f->L, qdd);
    return mbd_formulation_check_finite(f, t, qdd, "q''");
}

static int rhs(mbd_formulation *f, double t, const double y[], double dydt[])
{
    embedding *e = ws(f);
    const size_t k = e->k;
    memcpy(dydt, y + k, k * sizeof *dydt);                      /* q_i' */
    if (f->m == 0) {
        gsl_vector_const_view q = gsl_vector_const_view_array(y, k);
        gsl_vector_const_view qd = gsl_vector_const_view_array(y + k, k);
        gsl_vector_view qdd = gsl_vector_view_array(dydt + k, k);
        return free_accel(f, t, &q.vector, &qd.vector, &qdd.vector);
    }
    int st = resolve(f, t, y, y + k);
    if (st == GSL_SUCCESS)
        st = dynamics(f, t, e->q, e->qd);
    if (st != GSL_SUCCESS)
        return st;
    form_B(f, &e->cur);
    st = independent_accel(f, &e->cur, t);
    if (st != GSL_SUCCESS)
        return st;
    memcpy(dydt + k, e->qddi->data, k * sizeof *dydt);           /* q_i'' */
    return GSL_SUCCESS;
}

/* At (t, q, q') as given, for the kinds' common mbd_formulation_accel: the
 * forced block or the best one at q (the run's partition is not touched).
 * q'' = B q_i'' + gamma_c, and the multipliers from the dependent rows of
 * M q'' + C_q^T lambda = F: C_q_d^T lambda = (F - M q'')_d. The other rows
 * hold by construction (B^T (F - M q'') = 0 is those rows' difference). */
static int accel(mbd_formulation *f, double t, const gsl_vector *q, const gsl_vector *qd,
                 gsl_vector *qdd, gsl_vector *lambda)
{
    embedding *e = ws(f);
    if (f->m == 0)
        return free_accel(f, t, q, qd, qdd);
    int st = f->s->jacobian(f->s, t, q, f->Cq);
    if (st != GSL_SUCCESS)
        return mbd_formulation_model_failed(f, st, t, "constraint Jacobian");
    const partition *P = &e->cur;
    if (!e->forced) {
        double pivot = 0.0;
        st = select_best(f, t, &pivot);
        if (st != GSL_SUCCESS)
            return st;
        P = &e->cand;
    }
    st = factor_block(f, P, t, 1);
    if (st == GSL_SUCCESS)
        st = dynamics(f, t, q, qd);
    if (st != GSL_SUCCESS)
        return st;
    form_B(f, P);
    st = independent_accel(f, P, t);
    if (st != GSL_SUCCESS)
        return st;
    gsl_vector_memcpy(qdd, e->gc);
    gsl_blas_dgemv(CblasNoTrans, 1.0, e->B, e->qddi, 1.0, qdd);
    if (lambda == NULL)
        return GSL_SUCCESS;
    /* C_q_d = Q R P^T, so lambda = C_q_d^-T r = Q R^-T P^T r */
    gsl_vector_memcpy(e->w, f->F);
    gsl_blas_dgemv(CblasNoTrans, -1.0, f->M, qdd, 1.0, e->w);    /* F - M q'' */
    for (size_t r = 0; r < f->m; r++)
        gsl_vector_set(e->rd, r, gsl_vector_get(e->w, P->dep[r]));
    gsl_permute_vector(e->pd, e->rd);
    gsl_matrix_const_view R = gsl_matrix_const_submatrix(e->QRd, 0, 0, f->m, f->m);
    gsl_blas_dtrsv(CblasUpper, CblasTrans, CblasNonUnit, &R.matrix, e->rd);
    gsl_linalg_QR_Qvec(e->QRd, e->taud, e->rd);
    gsl_vector_memcpy(lambda, e->rd);
    return mbd_formulation_check_finite(f, t, lambda, "lambda");
}

/* ------------------------------------------------------------------------ */
/* State layout                                                              */

static size_t dim(const mbd_formulation *f) { return 2 * ws(f)->k; }

/* >> embedding-pack */
/* The partition at q0 (or the given one), then the document's set-up: the
 * independent coordinates and velocities of (q0, qd0) held, the dependent
 * ones by Newton and the velocity solve. */
static int pack(mbd_formulation *f, double t, const double q0[], const double qd0[], double y[])
{
    embedding *e = ws(f);
    const size_t n = f->n, k = e->k;
    e->count = 0;
    if (f->m == 0) {
        memcpy(y, q0, n * sizeof *y);
        memcpy(y + n, qd0, n * sizeof *y);
        return GSL_SUCCESS;
    }
    memcpy(e->q->data, q0, n * sizeof *q0);
    int st = f->s->jacobian(f->s, t, e->q, f->Cq);
    if (st != GSL_SUCCESS)
        return mbd_formulation_model_failed(f, st, t, "constraint Jacobian");
    if (e->given) {
        set_given(e, n);                 /* a re-selection of the last run moved it */
    } else {
        double pivot = 0.0;
        st = select_best(f, t, &pivot);
        if (st != GSL_SUCCESS)
            return st;
        memcpy(e->cur.indep, e->cand.indep, k * sizeof *e->cur.indep);
        memcpy(e->cur.dep, e->cand.dep, f->m * sizeof *e->cur.dep);
    }
    st = factor_block(f, &e->cur, t, 1);
    if (st != GSL_SUCCESS)
        return st;
    form_B(f, &e->cur);
    memcpy(e->qd->data, qd0, n * sizeof *qd0);
    set_anchor(e);                       /* Newton starts from q0 itself */
    for (size_t j = 0; j < k; j++) {
        y[j] = q0[e->cur.indep[j]];
        y[k + j] = qd0[e->cur.indep[j]];
    }
    st = resolve(f, t, y, y + k);
    if (st != GSL_SUCCESS)
        return st;
    form_B(f, &e->cur);
    set_anchor(e);
    return GSL_SUCCESS;
}
/* << embedding-pack */

static int unpack(mbd_formulation *f, double t, const double y[], double q[], double qd[])
{
    embedding *e = ws(f);
    const size_t n = f->n;
    if (f->m == 0) {
        if (q)
            memcpy(q, y, n * sizeof *q);
        if (qd)
            memcpy(qd, y + n, n * sizeof *qd);
        return GSL_SUCCESS;
    }
    int st = resolve(f, t, y, y + e->k);
    if (st != GSL_SUCCESS)
        return st;
    if (q)
        memcpy(q, e->q->data, n * sizeof *q);
    if (qd)
        memcpy(qd, e->qd->data, n * sizeof *qd);
    return GSL_SUCCESS;
}

/* ------------------------------------------------------------------------ */
/* Re-selection after a step                                                 */

static void record(mbd_formulation *f, double t, double ratio,
                   mbd_formulation_reselect_cause cause)
{
    embedding *e = ws(f);
    const size_t n = f->n, k = e->k;
    mbd_formulation_reselection ev = {t, n, n, 0, ratio, cause};
    memset(e->mark, 0, n);
    for (size_t j = 0; j < k; j++)
        e->mark[e->cand.indep[j]] = 1;           /* new */
    for (size_t j = 0; j < k; j++)
        e->mark[e->cur.indep[j]] |= 2;           /* old */
    for (size_t j = 0; j < n; j++) {
        if (e->mark[j] == 2) {                   /* left */
            if (ev.left == n)
                ev.left = j;
            ev.swapped++;
        } else if (e->mark[j] == 1 && ev.joined == n) {
            ev.joined = j;
        }
    }
    e->events[e->count % MBD_FORMULATION_RESELECTIONS_KEPT] = ev;
    e->count++;
}

/* the candidate becomes the partition: y re-packed from e->q, e->qd (the
 * state does not move), with its block factored and B formed at e->q */
static int adopt(mbd_formulation *f, double t, double y[])
{
    embedding *e = ws(f);
    memcpy(e->cur.indep, e->cand.indep, e->k * sizeof *e->cur.indep);
    memcpy(e->cur.dep, e->cand.dep, f->m * sizeof *e->cur.dep);
    int st = factor_block(f, &e->cur, t, 1);
    if (st != GSL_SUCCESS)
        return st;
    form_B(f, &e->cur);
    write_state(e, y);
    return GSL_SUCCESS;
}

/* Newton could not reach the step's end in the current partition: the state
 * is moved onto C = 0 and C_q q' + C_t = 0 by the constraint solver's
 * minimum-norm steps from the nearest guess (the anchor moved along its
 * tangent to y's q_i, q_i'), and the partition chosen there. */
static int rescue(mbd_formulation *f, double t, double y[])
{
    embedding *e = ws(f);
    const mbd_system *s = f->s;
    const size_t m = f->m, k = e->k;
    const partition *P = &e->cur;
    const mbd_failure why = f->fail;
    /* the guess: q_d = q_d,a + B_d,a (q_i - q_i,a), q_d' = B_d,a q_i' */
    gsl_vector_memcpy(e->q, e->qa);
    for (size_t r = 0; r < m; r++)
        gsl_vector_set(e->qd, P->dep[r], 0.0);
    for (size_t j = 0; j < k; j++) {
        const double dq = y[j] - gsl_vector_get(e->qa, P->indep[j]);
        gsl_vector_set(e->q, P->indep[j], y[j]);
        gsl_vector_set(e->qd, P->indep[j], y[k + j]);
        for (size_t r = 0; r < m; r++) {
            const double b = gsl_matrix_get(e->Bda, r, j);
            *gsl_vector_ptr(e->q, P->dep[r]) += b * dq;
            *gsl_vector_ptr(e->qd, P->dep[r]) += b * y[k + j];
        }
    }
    /* the least change of all coordinates (W = I) onto C = 0, C' = 0 */
    unsigned its = 0;
    int moved = 0;
    int st = mbd_constraints_newton(f->cs, s, t, e->q, 0, e->tol, e->max_iter, &its);
    if (st == GSL_SUCCESS)
        st = mbd_constraints_velocity(f->cs, s, t, e->q, e->qd, 0, e->tol, &moved);
    if (st != GSL_SUCCESS)
        return mbd_failure_set(&f->fail, why.status, t,
                               "%.200s; moving the state onto C = 0 failed too", why.cause);
    st = s->jacobian(s, t, e->q, f->Cq);
    if (st != GSL_SUCCESS)
        return mbd_formulation_model_failed(f, st, t, "constraint Jacobian");
    double pivot = 0.0;
    st = select_best(f, t, &pivot);
    if (st != GSL_SUCCESS)
        return st;
    record(f, t, NAN, MBD_FORMULATION_RESELECT_NEWTON);
    st = adopt(f, t, y);
    if (st != GSL_SUCCESS)
        return st;
    set_anchor(e);
    mbd_failure_clear(&f->fail);
    return GSL_SUCCESS;
}

/* >> embedding-reselect */
/* After an accepted step: the full state at its end becomes the anchor, and
 * the smallest pivot |R_mm| of the current block C_q_d is compared with the
 * best block's at the same q. Below reselect_ratio of it the best block
 * becomes the dependent set and y is written in the new coordinates
 * (*changed = 1: the run loop resets the integrator, whose history is in
 * the old ones). The ratio is a hysteresis: the set just chosen has ratio 1,
 * and must fall below the threshold again before it is left, so two nearly
 * equal sets do not alternate.
 *
 * A forced set is never left; below singular_ratio it is a failure. It has
 * to be: in the independent coordinates the motion through a fold of the
 * set is smooth (the pendulum's x(t) touches R and turns back), so no step
 * size control sees it, but the dependent coordinates stay on the branch
 * they were on (y < 0), and the dependent velocities, y' = -x x' / y, are
 * carried by an x' that vanishes there: a step across the fold goes on
 * silently with a mirrored state and lost energy. */
static int post_step(mbd_formulation *f, double t, double y[], int *changed)
{
    embedding *e = ws(f);
    if (f->m == 0)
        return GSL_SUCCESS;
    int st = resolve(f, t, y, y + e->k);
    if (st != GSL_SUCCESS) {
        if (e->forced || (st != MBD_ENOCONV && st != MBD_ESINGULAR))
            return st;
        st = rescue(f, t, y);
        *changed = st == GSL_SUCCESS;
        return st;
    }
    form_B(f, &e->cur);
    const double current = block_pivot(f);
    double best = 0.0;
    st = select_best(f, t, &best);
    if (st != GSL_SUCCESS)
        return st;
    const double ratio = current / best;
    if (e->forced && ratio < e->singular) {
        char dn[96], in[96];
        return mbd_failure_set(&f->fail, MBD_ESINGULAR, t,
                               "C_q_d of the dependent coordinates (%s) is nearly singular (pivot "
                               "%.2g of the best block's): the forced independent ones (%s) "
                               "cannot go on",
                               set_names(f, e->cur.dep, f->m, dn, sizeof dn), ratio,
                               set_names(f, e->cur.indep, e->k, in, sizeof in));
    }
    if (!e->forced && ratio < e->ratio && !same_partition(e, &e->cur, &e->cand)) {
        record(f, t, ratio, MBD_FORMULATION_RESELECT_PIVOT);
        st = adopt(f, t, y);
        if (st != GSL_SUCCESS)
            return st;
        *changed = 1;
    }
    set_anchor(e);
    return GSL_SUCCESS;
}
/* << embedding-reselect */

/* ------------------------------------------------------------------------ */
/* The condition number                                                      */

/* The 1-norm condition number of K = [C_q; I_d] (n x n; I_d has a 1 in the
 * column of each independent coordinate), from its inverse in blocks:
 * K^-1 [r_C; r_I] = q with q_i = r_I, q_d = C_q_d^-1 r_C + B_d r_I. With C_q
 * evaluated at q (mbd_formulation_condition). */
static int condition(mbd_formulation *f, double t, double *cond)
{
    embedding *e = ws(f);
    const size_t n = f->n, m = f->m, k = e->k;
    if (m == 0) {
        *cond = 1.0;
        return GSL_SUCCESS;
    }
    const partition *P = &e->cur;
    if (factor_block(f, P, t, 0) != GSL_SUCCESS)
        return GSL_SUCCESS;                          /* INFINITY */
    double normK = 0.0, normKinv = 0.0;
    memset(e->mark, 0, n);
    for (size_t j = 0; j < k; j++)
        e->mark[P->indep[j]] = 1;
    for (size_t j = 0; j < n; j++) {
        gsl_vector_const_view c = gsl_matrix_const_column(f->Cq, j);
        normK = fmax(normK, gsl_blas_dasum(&c.vector) + (e->mark[j] ? 1.0 : 0.0));
    }
    for (size_t r = 0; r < m; r++) {                /* the columns of C_q_d^-1 */
        gsl_vector_set_basis(e->rd, r);
        block_solve(e, e->rd);
        normKinv = fmax(normKinv, gsl_blas_dasum(e->rd));
    }
    form_B(f, P);
    for (size_t j = 0; j < k; j++) {                /* [B_d; I] */
        gsl_vector_const_view c = gsl_matrix_const_column(e->Bd, j);
        normKinv = fmax(normKinv, gsl_blas_dasum(&c.vector) + 1.0);
    }
    *cond = normK * normKinv;
    if (!isfinite(*cond))
        *cond = INFINITY;
    return GSL_SUCCESS;
}

/* ------------------------------------------------------------------------ */
/* The workspace                                                             */

static void release(mbd_formulation *f)
{
    embedding *e = ws(f);
    if (e == NULL)
        return;
    gsl_matrix *mats[] = {e->Bda, e->QRd, e->Bd, e->B, e->MB, e->QR};
    gsl_vector *vecs[] = {e->qa, e->qda, e->q,  e->qd,  e->taud, e->normd,
                          e->rd, e->gc,  e->w,  e->qddi, e->tau, e->norm};
    for (size_t i = 0; i < sizeof mats / sizeof mats[0]; i++)
        if (mats[i])
            gsl_matrix_free(mats[i]);
    for (size_t i = 0; i < sizeof vecs / sizeof vecs[0]; i++)
        if (vecs[i])
            gsl_vector_free(vecs[i]);
    if (e->pd)
        gsl_permutation_free(e->pd);
    if (e->p)
        gsl_permutation_free(e->p);
    free(e->cur.indep);
    free(e->cur.dep);
    free(e->cand.indep);
    free(e->cand.dep);
    free(e->given_set);
    free(e->mark);
    free(e);
    f->kind_ws = NULL;
}

static int init(mbd_formulation *f)
{
    const mbd_formulation_params *p = &f->p;
    const size_t n = f->n, m = f->m;
    if (m >= n)
        return MBD_EINPUT;                 /* no degree of freedom to integrate */
    const double tol = p->newton_tol == 0 ? NEWTON_TOL : p->newton_tol;
    const double ratio = p->reselect_ratio == 0 ? RESELECT_RATIO : p->reselect_ratio;
    const double singular = p->singular_ratio == 0 ? SINGULAR_RATIO : p->singular_ratio;
    if (!(tol > 0 && isfinite(tol)) || !(ratio > 0 && ratio <= 1)
        || !(singular > 0 && singular <= 1))
        return MBD_EINPUT;
    if ((p->independent == NULL) != (p->n_independent == 0))
        return MBD_EINPUT;
    if (p->independent != NULL && p->n_independent != n - m)
        return MBD_EINPUT;
    if (p->reselect_independent && p->independent == NULL)
        return MBD_EINPUT;                 /* a start set to re-select: none given */

    embedding *e = calloc(1, sizeof *e);
    if (e == NULL)
        return GSL_ENOMEM;
    f->kind_ws = e;
    const size_t k = n - m;
    e->k = k;
    e->tol = tol;
    e->ratio = ratio;
    e->singular = singular;
    e->max_iter = p->newton_max_iter ? p->newton_max_iter : NEWTON_MAX_ITER;
    e->mark = calloc(n, 1);
    e->cur.indep = calloc(k, sizeof *e->cur.indep);
    e->cand.indep = calloc(k, sizeof *e->cand.indep);
    if (!e->mark || !e->cur.indep || !e->cand.indep)
        return GSL_ENOMEM;   /* the caller frees through release */
    if (m > 0) {
        e->cur.dep = calloc(m, sizeof *e->cur.dep);
        e->cand.dep = calloc(m, sizeof *e->cand.dep);
        e->qa = gsl_vector_alloc(n);
        e->qda = gsl_vector_alloc(n);
        e->Bda = gsl_matrix_alloc(m, k);
        e->q = gsl_vector_alloc(n);
        e->qd = gsl_vector_alloc(n);
        e->QRd = gsl_matrix_alloc(m, m);
        e->taud = gsl_vector_alloc(m);
        e->normd = gsl_vector_alloc(m);
        e->pd = gsl_permutation_alloc(m);
        e->rd = gsl_vector_alloc(m);
        e->Bd = gsl_matrix_alloc(m, k);
        e->B = gsl_matrix_alloc(n, k);
        e->MB = gsl_matrix_alloc(n, k);
        e->gc = gsl_vector_alloc(n);
        e->w = gsl_vector_alloc(n);
        e->qddi = gsl_vector_alloc(k);
        e->QR = gsl_matrix_alloc(m, n);
        e->tau = gsl_vector_alloc(m);
        e->norm = gsl_vector_alloc(n);
        e->p = gsl_permutation_alloc(n);
        if (!e->cur.dep || !e->cand.dep || !e->qa || !e->qda || !e->Bda || !e->q || !e->qd
            || !e->QRd || !e->taud || !e->normd || !e->pd || !e->rd || !e->Bd || !e->B
            || !e->MB || !e->gc || !e->w || !e->qddi || !e->QR || !e->tau || !e->norm || !e->p)
            return GSL_ENOMEM;
    }
    /* the partition before any pack: the given one, or the coordinates'
     * order (replaced by the choice at pack) */
    memset(e->mark, 0, n);
    if (p->independent != NULL) {
        for (size_t j = 0; j < k; j++) {
            const size_t c = p->independent[j];
            if (c >= n || e->mark[c])
                return MBD_EINPUT;         /* out of range, or given twice */
            e->mark[c] = 1;
        }
        for (size_t j = 0; j < n; j++)
            e->mark[j] = !e->mark[j];      /* 1: dependent */
        e->given = 1;
        e->forced = !p->reselect_independent;
        e->given_set = calloc(k, sizeof *e->given_set);
        if (e->given_set == NULL)
            return GSL_ENOMEM;
    } else {
        for (size_t r = 0; r < m; r++)
            e->mark[r] = 1;
    }
    partition_from_marks(e->mark, n, &e->cur);
    if (e->given) {
        memcpy(e->given_set, e->cur.indep, k * sizeof *e->given_set);
        f->p.independent = e->given_set;   /* the caller's array need not outlive f */
    }
    if (m > 0) {
        gsl_vector_set_zero(e->qa);
        gsl_vector_set_zero(e->qda);
        gsl_matrix_set_zero(e->Bda);
    }
    return GSL_SUCCESS;
}

const mbd_formulation_ops mbd_formulation_embedding_ops = {
    .kind_name = "embedding",
    .correctable = 0,                      /* the constraints hold by construction */
    .unconstrained = 1,
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

static const embedding *embedding_of(const mbd_formulation *f)
{
    return f != NULL && f->ops == &mbd_formulation_embedding_ops ? f->kind_ws : NULL;
}

size_t mbd_formulation_independent(const mbd_formulation *f, size_t idx[])
{
    const embedding *e = embedding_of(f);
    if (e == NULL)
        return 0;
    if (idx != NULL)
        memcpy(idx, e->cur.indep, e->k * sizeof *idx);
    return e->k;
}

size_t mbd_formulation_reselections(const mbd_formulation *f)
{
    const embedding *e = embedding_of(f);
    return e ? e->count : 0;
}

int mbd_formulation_reselection_get(const mbd_formulation *f, size_t k,
                                    mbd_formulation_reselection *ev)
{
    const embedding *e = embedding_of(f);
    if (e == NULL || k >= e->count || e->count - k > MBD_FORMULATION_RESELECTIONS_KEPT)
        return MBD_EINPUT;
    *ev = e->events[k % MBD_FORMULATION_RESELECTIONS_KEPT];
    return GSL_SUCCESS;
}
