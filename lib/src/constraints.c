#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_permutation.h>

#include "mbd/constraints.h"
#include "dense.h"

struct mbd_constraints {
    size_t n, rows;
    size_t k;                    /* rows of the C_q of the last mbd_constraints_schur */
    int mass_factored, mass_ok;  /* M's Cholesky factor exists; and is well conditioned */
    int schur_factored, schur_ok;
    double mass_rcond, schur_rcond;
    gsl_matrix *LM;              /* n x n: Cholesky factor of M */
    gsl_matrix *X;               /* n x rows: W C_q^T */
    gsl_matrix *LS;              /* rows x rows: Cholesky factor of S */
    gsl_matrix *Cq;              /* rows x n: C_q of the Newton and velocity solves */
    gsl_matrix *K;               /* (n + rows)^2: the augmented matrix, QR-factored */
    gsl_matrix *QR;              /* rows x n: for the rank */
    gsl_permutation *pK;         /* n + rows */
    gsl_permutation *pQR;        /* n */
    gsl_vector *tauQR, *normQR;  /* min(rows, n), n */
    gsl_vector *z, *r;           /* rows */
    gsl_vector *MinvF;           /* n */
    gsl_vector *rhs, *sol;       /* n + rows */
    gsl_vector *tauK, *normK;    /* n + rows: the augmented matrix's QR */
    gsl_vector *work;            /* 4 (n + rows): condition estimates */
    mbd_failure fail;
};

void mbd_constraints_free(mbd_constraints *c)
{
    if (c == NULL)
        return;
    gsl_matrix *mats[] = {c->LM, c->X, c->LS, c->Cq, c->K, c->QR};
    gsl_vector *vecs[] = {c->tauQR, c->normQR, c->z,     c->r,     c->MinvF,
                          c->rhs,   c->sol,    c->tauK, c->normK, c->work};
    for (size_t i = 0; i < sizeof mats / sizeof mats[0]; i++)
        if (mats[i])
            gsl_matrix_free(mats[i]);
    for (size_t i = 0; i < sizeof vecs / sizeof vecs[0]; i++)
        if (vecs[i])
            gsl_vector_free(vecs[i]);
    if (c->pK)
        gsl_permutation_free(c->pK);
    if (c->pQR)
        gsl_permutation_free(c->pQR);
    free(c);
}

mbd_constraints *mbd_constraints_alloc(size_t n, size_t rows)
{
    if (n == 0 || rows == 0)
        return NULL;
    mbd_constraints *c = calloc(1, sizeof *c);
    if (c == NULL)
        return NULL;
    c->n = n;
    c->rows = rows;
    const size_t N = n + rows, small = rows < n ? rows : n;
    c->LM = gsl_matrix_alloc(n, n);
    c->X = gsl_matrix_alloc(n, rows);
    c->LS = gsl_matrix_alloc(rows, rows);
    c->Cq = gsl_matrix_alloc(rows, n);
    c->K = gsl_matrix_alloc(N, N);
    c->QR = gsl_matrix_alloc(rows, n);
    c->pK = gsl_permutation_alloc(N);
    c->pQR = gsl_permutation_alloc(n);
    c->tauQR = gsl_vector_alloc(small);
    c->normQR = gsl_vector_alloc(n);
    c->z = gsl_vector_alloc(rows);
    c->r = gsl_vector_alloc(rows);
    c->MinvF = gsl_vector_alloc(n);
    c->rhs = gsl_vector_alloc(N);
    c->sol = gsl_vector_alloc(N);
    c->tauK = gsl_vector_alloc(N);
    c->normK = gsl_vector_alloc(N);
    c->work = gsl_vector_alloc(4 * N);
    if (!c->LM || !c->X || !c->LS || !c->Cq || !c->K || !c->QR || !c->pK || !c->pQR || !c->tauQR
        || !c->normQR || !c->z || !c->r || !c->MinvF || !c->rhs || !c->sol || !c->tauK
        || !c->normK || !c->work) {
        mbd_constraints_free(c);
        return NULL;
    }
    mbd_failure_clear(&c->fail);
    return c;
}

const mbd_failure *mbd_constraints_failure(const mbd_constraints *c) { return &c->fail; }

/* >> rcond */
/* A = L L^T and A^-1 = L^-T L^-1 formed explicitly, in plain loops (GSL's
 * estimator costs several BLAS calls per column, far more than the
 * arithmetic at these sizes), so the condition is exact. Inlined with k a
 * constant for the sizes of the planar chapters, so that the compiler
 * unrolls the loops; the operations and their order are the same for every
 * k, and so is the result, bit for bit. */
#if defined(__GNUC__)
#define ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define ALWAYS_INLINE inline
#endif
static ALWAYS_INLINE int exact_rcond(const gsl_matrix *L, const size_t k, double *rcond)
{
    enum { K = MBD_CONSTRAINTS_EXACT_RCOND };
    double l[K][K], Li[K][K];   /* L and L^-1, lower triangular */
    for (size_t i = 0; i < k; i++)
        for (size_t j = 0; j <= i; j++)
            l[i][j] = L->data[i * L->tda + j];
    for (size_t j = 0; j < k; j++) {
        const double d = l[j][j];
        if (!(d > 0.0) || !isfinite(d)) {
            *rcond = 0.0;
            return GSL_SUCCESS;
        }
        Li[j][j] = 1.0 / d;
        for (size_t i = j + 1; i < k; i++) {
            double s = 0.0;
            for (size_t m = j; m < i; m++)
                s += l[i][m] * Li[m][j];
            Li[i][j] = -s / l[i][i];
        }
    }
    double norm_a = 0.0, norm_inv = 0.0;
    for (size_t j = 0; j < k; j++) {
        double col_a = 0.0, col_inv = 0.0;
        for (size_t i = 0; i < k; i++) {
            const size_t lo = i < j ? i : j, hi = i < j ? j : i;
            double a = 0.0, b = 0.0;
            for (size_t m = 0; m <= lo; m++)
                a += l[i][m] * l[j][m];
            for (size_t m = hi; m < k; m++)
                b += Li[m][i] * Li[m][j];
            col_a += fabs(a);
            col_inv += fabs(b);
        }
        norm_a = fmax(norm_a, col_a);
        norm_inv = fmax(norm_inv, col_inv);
    }
    const double r = 1.0 / (norm_a * norm_inv);
    *rcond = isfinite(r) ? r : 0.0;
    return GSL_SUCCESS;
}

int mbd_constraints_cholesky_rcond(const gsl_matrix *L, double *rcond, gsl_vector *work)
{
    const size_t k = L->size1;
    if (k > MBD_CONSTRAINTS_EXACT_RCOND)
        return gsl_linalg_cholesky_rcond(L, rcond, work);
    switch (k) {   /* the sizes of the planar chapters' M and S, unrolled */
    case 1:
        return exact_rcond(L, 1, rcond);
    case 2:
        return exact_rcond(L, 2, rcond);
    case 3:
        return exact_rcond(L, 3, rcond);
    default:
        return exact_rcond(L, k, rcond);
    }
}
/* << rcond */

/* A Cholesky factor of A (size k, in place) and its reciprocal condition:
 * a factor that exists but is singular to working precision would turn
 * round-off into the answer, so both are checked. *factored says whether the
 * factor exists (the condition can then be reported even when refused). */
static int cholesky(mbd_constraints *c, double t, gsl_matrix *L, const char *what, int *factored,
                    double *rcond)
{
    *factored = 0;
    *rcond = 0.0;
    if (mbd_dense_cholesky(L) != GSL_SUCCESS)
        return mbd_failure_set(&c->fail, MBD_ESINGULAR, t, "%s is not positive definite", what);
    *factored = 1;
    gsl_vector_view w = gsl_vector_subvector(c->work, 0, 3 * L->size1);
    int st = mbd_constraints_cholesky_rcond(L, rcond, &w.vector);
    if (st != GSL_SUCCESS || !(*rcond > 4 * DBL_EPSILON))
        return mbd_failure_set(&c->fail, MBD_ESINGULAR, t,
                               "%s is singular to working precision (condition number %.3g)", what,
                               *rcond > 0 ? 1.0 / *rcond : INFINITY);
    return GSL_SUCCESS;
}

int mbd_constraints_set_mass(mbd_constraints *c, double t, const gsl_matrix *M)
{
    gsl_matrix_memcpy(c->LM, M);
    int st = cholesky(c, t, c->LM, "the mass matrix M", &c->mass_factored, &c->mass_rcond);
    c->mass_ok = st == GSL_SUCCESS;
    return st;
}

int mbd_constraints_mass_solve(mbd_constraints *c, const gsl_vector *b, gsl_vector *x)
{
    if (!c->mass_factored)
        return mbd_failure_set(&c->fail, GSL_EINVAL, NAN, "no factored mass matrix");
    if (x != b)
        gsl_vector_memcpy(x, b);
    return mbd_dense_cholesky_svx(c->LM, x);
}

/* >> schur */
int mbd_constraints_schur(mbd_constraints *c, double t, const gsl_matrix *Cq, int weighted,
                          const char *what)
{
    const size_t k = Cq->size1;
    c->schur_factored = c->schur_ok = 0;
    if (k == 0 || k > c->rows || Cq->size2 != c->n)
        return mbd_failure_set(&c->fail, GSL_EBADLEN, t, "C_q is %zu x %zu, expected at most "
                               "%zu x %zu", Cq->size1, Cq->size2, c->rows, c->n);
    if (weighted && !c->mass_factored)
        return mbd_failure_set(&c->fail, GSL_EINVAL, t, "no factored mass matrix to weight by");
    c->k = k;
    gsl_matrix_view X = gsl_matrix_submatrix(c->X, 0, 0, c->n, k);
    gsl_matrix_view LS = gsl_matrix_submatrix(c->LS, 0, 0, k, k);
    gsl_matrix_transpose_memcpy(&X.matrix, Cq);
    if (weighted)
        mbd_dense_cholesky_svx_mat(c->LM, &X.matrix);                 /* X = M^-1 C_q^T */
    mbd_dense_gemm(CblasNoTrans, CblasNoTrans, 1.0, Cq, &X.matrix, 0.0, &LS.matrix);   /* S */
    /* factored in place: S itself is not needed again */
    int st = cholesky(c, t, &LS.matrix, what, &c->schur_factored, &c->schur_rcond);
    c->schur_ok = st == GSL_SUCCESS;
    return st;
}
/* << schur */

int mbd_constraints_schur_solve(mbd_constraints *c, const gsl_vector *r, gsl_vector *z)
{
    if (!c->schur_factored)
        return mbd_failure_set(&c->fail, GSL_EINVAL, NAN, "no factored Schur complement");
    gsl_matrix_const_view LS = gsl_matrix_const_submatrix(c->LS, 0, 0, c->k, c->k);
    return mbd_dense_cholesky_solve(&LS.matrix, r, z);
}

/* >> correct */
int mbd_constraints_correct(mbd_constraints *c, const gsl_vector *r, gsl_vector *x)
{
    gsl_vector_view z = gsl_vector_subvector(c->z, 0, c->k);
    int st = mbd_constraints_schur_solve(c, r, &z.vector);
    if (st != GSL_SUCCESS)
        return st;
    gsl_matrix_const_view X = gsl_matrix_const_submatrix(c->X, 0, 0, c->n, c->k);
    return mbd_dense_gemv(CblasNoTrans, -1.0, &X.matrix, &z.vector, 1.0, x);
}
/* << correct */

/* >> accel */
int mbd_constraints_accel(mbd_constraints *c, double t, const gsl_matrix *Cq, const gsl_vector *F,
                          const gsl_vector *gamma, gsl_vector *qdd, gsl_vector *lambda)
{
    int st = mbd_constraints_schur(c, t, Cq, 1, "the Schur complement C_q M^-1 C_q^T");
    if (st != GSL_SUCCESS)
        return st;
    const size_t k = c->k;
    gsl_vector_view r = gsl_vector_subvector(c->r, 0, k), lam = gsl_vector_subvector(c->z, 0, k);
    gsl_matrix_const_view X = gsl_matrix_const_submatrix(c->X, 0, 0, c->n, k);
    gsl_matrix_const_view LS = gsl_matrix_const_submatrix(c->LS, 0, 0, k, k);
    gsl_vector_memcpy(c->MinvF, F);
    mbd_dense_cholesky_svx(c->LM, c->MinvF);                                /* M^-1 F */
    gsl_vector_memcpy(&r.vector, gamma);
    mbd_dense_gemv(CblasNoTrans, 1.0, Cq, c->MinvF, -1.0, &r.vector);        /* C_q M^-1 F - gamma */
    mbd_dense_cholesky_solve(&LS.matrix, &r.vector, &lam.vector);           /* lambda */
    gsl_vector_memcpy(qdd, c->MinvF);
    mbd_dense_gemv(CblasNoTrans, -1.0, &X.matrix, &lam.vector, 1.0, qdd);    /* q'' */
    if (lambda)
        gsl_vector_memcpy(lambda, &lam.vector);
    return GSL_SUCCESS;
}
/* << accel */

int mbd_constraints_kkt_solve(mbd_constraints *c, double t, const gsl_matrix *M,
                              const gsl_matrix *Cq, const gsl_vector *f, const gsl_vector *g,
                              gsl_vector *x, gsl_vector *lambda)
{
    const size_t n = c->n, k = Cq->size1, N = n + k;
    if (k > c->rows || Cq->size2 != n || M->size1 != n || M->size2 != n)
        return mbd_failure_set(&c->fail, GSL_EBADLEN, t, "the augmented system does not fit the "
                               "workspace (%zu coordinates, at most %zu rows)", n, c->rows);
    gsl_matrix_view K = gsl_matrix_submatrix(c->K, 0, 0, N, N);
    gsl_matrix_set_zero(&K.matrix);
    gsl_matrix_view K11 = gsl_matrix_submatrix(&K.matrix, 0, 0, n, n);
    gsl_matrix_memcpy(&K11.matrix, M);
    if (k > 0) {
        gsl_matrix_view K12 = gsl_matrix_submatrix(&K.matrix, 0, n, n, k);
        gsl_matrix_view K21 = gsl_matrix_submatrix(&K.matrix, n, 0, k, n);
        gsl_matrix_transpose_memcpy(&K12.matrix, Cq);
        gsl_matrix_memcpy(&K21.matrix, Cq);
    }
    /* QR with column pivoting: it does not need M positive definite, and it
     * estimates its own condition (GSL 2.7 has no LU condition estimate) */
    gsl_permutation p = {N, c->pK->data};   /* the first N entries of pK */
    gsl_vector_view tau = gsl_vector_subvector(c->tauK, 0, N);
    gsl_vector_view norm = gsl_vector_subvector(c->normK, 0, N);
    int sign = 0;
    gsl_linalg_QRPT_decomp(&K.matrix, &tau.vector, &p, &sign, &norm.vector);
    double rcond = 0.0;
    gsl_vector_view w = gsl_vector_subvector(c->work, 0, 3 * N);
    int st = gsl_linalg_QRPT_rcond(&K.matrix, &rcond, &w.vector);
    if (st != GSL_SUCCESS || !(rcond > 4 * DBL_EPSILON))
        return mbd_failure_set(&c->fail, MBD_ESINGULAR, t,
                               "the augmented matrix [M C_q^T; C_q 0] is singular to working "
                               "precision (condition number %.3g)",
                               rcond > 0 ? 1.0 / rcond : INFINITY);
    gsl_vector_view rhs = gsl_vector_subvector(c->rhs, 0, N);
    gsl_vector_view sol = gsl_vector_subvector(c->sol, 0, N);
    gsl_vector_view r1 = gsl_vector_subvector(&rhs.vector, 0, n);
    gsl_vector_memcpy(&r1.vector, f);
    if (k > 0) {
        gsl_vector_view r2 = gsl_vector_subvector(&rhs.vector, n, k);
        gsl_vector_memcpy(&r2.vector, g);
    }
    gsl_linalg_QRPT_solve(&K.matrix, &tau.vector, &p, &rhs.vector, &sol.vector);
    gsl_vector_view s1 = gsl_vector_subvector(&sol.vector, 0, n);
    gsl_vector_memcpy(x, &s1.vector);
    if (lambda != NULL && k > 0) {
        gsl_vector_view s2 = gsl_vector_subvector(&sol.vector, n, k);
        gsl_vector_memcpy(lambda, &s2.vector);
    }
    return GSL_SUCCESS;
}

/* With C_q at q, W = M^-1 (at q) or I: X and the factored S. */
static int prepare(mbd_constraints *c, const mbd_system *s, double t, const gsl_vector *q,
                   int weighted)
{
    gsl_matrix_view Cq = gsl_matrix_submatrix(c->Cq, 0, 0, s->m, c->n);
    int st = s->jacobian(s, t, q, &Cq.matrix);
    if (st != GSL_SUCCESS)
        return mbd_failure_set(&c->fail, st, t, "the model's Jacobian failed");
    if (weighted) {
        gsl_matrix_view M = gsl_matrix_submatrix(c->K, 0, 0, c->n, c->n);   /* scratch */
        st = s->mass(s, t, q, &M.matrix);
        if (st != GSL_SUCCESS)
            return mbd_failure_set(&c->fail, st, t, "the model's mass matrix failed");
        st = mbd_constraints_set_mass(c, t, &M.matrix);
        if (st != GSL_SUCCESS)
            return st;
    }
    return mbd_constraints_schur(c, t, &Cq.matrix, weighted, "C_q W C_q^T");
}

/* >> newton */
int mbd_constraints_newton(mbd_constraints *c, const mbd_system *s, double t, gsl_vector *q,
                           int weighted, double tol, unsigned max_iter, unsigned *iterations)
{
    gsl_vector_view C = gsl_vector_subvector(c->r, 0, s->m);
    double norm = INFINITY;
    *iterations = 0;
    for (unsigned it = 0;; it++) {
        int st = s->constraint(s, t, q, &C.vector);
        if (st != GSL_SUCCESS)
            return mbd_failure_set(&c->fail, st, t, "the model's constraint failed");
        norm = mbd_dense_nrm2(&C.vector);
        if (!isfinite(norm))
            return mbd_failure_set(&c->fail, MBD_ENONFINITE, t,
                                   "the constraint violation is not finite");
        if (norm <= tol)
            return GSL_SUCCESS;
        if (it == max_iter)
            break;
        st = prepare(c, s, t, q, weighted);
        if (st != GSL_SUCCESS)
            return st;
        mbd_constraints_correct(c, &C.vector, q);
        ++*iterations;
    }
    return mbd_failure_set(&c->fail, MBD_ENOCONV, t,
                           "|C| = %.3g is still above %.3g after %u Newton iterations", norm, tol,
                           max_iter);
}
/* << newton */

/* >> velocity */
int mbd_constraints_velocity(mbd_constraints *c, const mbd_system *s, double t,
                             const gsl_vector *q, gsl_vector *qd, int weighted, double tol,
                             int *moved)
{
    *moved = 0;
    gsl_matrix_view Cq = gsl_matrix_submatrix(c->Cq, 0, 0, s->m, c->n);
    gsl_vector_view Cd = gsl_vector_subvector(c->r, 0, s->m);
    int st = mbd_system_constraint_rate(s, t, q, qd, &Cq.matrix, &Cd.vector);
    if (st != GSL_SUCCESS)
        return mbd_failure_set(&c->fail, st, t, "the model's Jacobian failed");
    double norm = mbd_dense_nrm2(&Cd.vector);
    if (!isfinite(norm))
        return mbd_failure_set(&c->fail, MBD_ENONFINITE, t,
                               "the velocity violation is not finite");
    if (norm <= tol)
        return GSL_SUCCESS;
    st = prepare(c, s, t, q, weighted);
    if (st != GSL_SUCCESS)
        return st;
    mbd_constraints_correct(c, &Cd.vector, qd);
    *moved = 1;
    return GSL_SUCCESS;
}
/* << velocity */

int mbd_constraints_schur_condition(mbd_constraints *c, double *cond)
{
    *cond = c->schur_factored && c->schur_rcond > 0 ? 1.0 / c->schur_rcond : INFINITY;
    return GSL_SUCCESS;
}

int mbd_constraints_mass_condition(mbd_constraints *c, double *cond)
{
    *cond = c->mass_factored && c->mass_rcond > 0 ? 1.0 / c->mass_rcond : INFINITY;
    return GSL_SUCCESS;
}

int mbd_constraints_rank(mbd_constraints *c, const gsl_matrix *Cq, double tol, size_t *rank,
                         size_t *pivots)
{
    const size_t k = Cq->size1, n = c->n;
    if (k == 0 || k > c->rows || Cq->size2 != n)
        return mbd_failure_set(&c->fail, GSL_EBADLEN, NAN, "C_q is %zu x %zu, expected at most "
                               "%zu x %zu", Cq->size1, Cq->size2, c->rows, n);
    const size_t small = k < n ? k : n;
    gsl_matrix_view A = gsl_matrix_submatrix(c->QR, 0, 0, k, n);
    gsl_vector_view tau = gsl_vector_subvector(c->tauQR, 0, small);
    gsl_matrix_memcpy(&A.matrix, Cq);
    int sign = 0;
    int st = gsl_linalg_QRPT_decomp(&A.matrix, &tau.vector, c->pQR, &sign, c->normQR);
    if (st != GSL_SUCCESS)
        return mbd_failure_set(&c->fail, st, NAN, "QR with column pivoting failed");
    if (!(tol > 0))
        tol = (double)(k > n ? k : n) * DBL_EPSILON;
    const double r11 = fabs(gsl_matrix_get(&A.matrix, 0, 0));
    size_t r = 0;
    while (r < small && fabs(gsl_matrix_get(&A.matrix, r, r)) > tol * r11)
        r++;
    *rank = r11 > 0 ? r : 0;
    if (pivots)
        for (size_t j = 0; j < n; j++)
            pivots[j] = gsl_permutation_get(c->pQR, j);
    return GSL_SUCCESS;
}
