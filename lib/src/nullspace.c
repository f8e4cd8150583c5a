/* The tangent basis by QR with column pivoting (nullspace.h; document 002,
 * Secs. 2.1-2.2, 4.1-4.2 and App. A). Everything is allocated by
 * mbd_nullspace_alloc; the calls work in views of those matrices. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_permutation.h>

#include "mbd/nullspace.h"

struct mbd_nullspace {
    size_t n, m, p;             /* p = min(n, m) */
    gsl_matrix *QR;             /* n x m: A^T, QRPT-factored */
    gsl_vector *tau;            /* p */
    gsl_permutation *perm;      /* m */
    gsl_vector *norm;           /* m */
    gsl_matrix *Q, *R;          /* n x n, n x m: unpacked */
    double *diag;               /* p: |R_ii| sorted, decreasing */
    gsl_vector *b;              /* m: a permuted right-hand side */
    gsl_vector *u;              /* n: coordinates */
    /* procrustes and the prediction: views of at most n x n */
    gsl_matrix *C, *V, *Tt;     /* n x n */
    gsl_vector *S, *work;       /* n */
    gsl_matrix *K;              /* n x n: I - h Omega / 2, QRPT-factored */
    gsl_vector *Ktau, *Knorm;   /* n */
    gsl_permutation *Kperm;     /* n */
    gsl_vector *col;            /* n */
    int factored;
    int q_ready;                /* Q unpacked for the factorisation in QR */
};

void mbd_nullspace_free(mbd_nullspace *w)
{
    if (w == NULL)
        return;
    gsl_matrix *mats[] = {w->QR, w->Q, w->R, w->C, w->V, w->Tt, w->K};
    gsl_vector *vecs[] = {w->tau, w->norm, w->b, w->u, w->S, w->work, w->Ktau, w->Knorm, w->col};
    for (size_t i = 0; i < sizeof mats / sizeof mats[0]; i++)
        if (mats[i])
            gsl_matrix_free(mats[i]);
    for (size_t i = 0; i < sizeof vecs / sizeof vecs[0]; i++)
        if (vecs[i])
            gsl_vector_free(vecs[i]);
    if (w->perm)
        gsl_permutation_free(w->perm);
    if (w->Kperm)
        gsl_permutation_free(w->Kperm);
    free(w->diag);
    free(w);
}

mbd_nullspace *mbd_nullspace_alloc(size_t n, size_t m)
{
    if (n == 0 || m == 0)
        return NULL;
    mbd_nullspace *w = calloc(1, sizeof *w);
    if (w == NULL)
        return NULL;
    w->n = n;
    w->m = m;
    w->p = n < m ? n : m;
    w->QR = gsl_matrix_alloc(n, m);
    w->tau = gsl_vector_alloc(w->p);
    w->perm = gsl_permutation_alloc(m);
    w->norm = gsl_vector_alloc(m);
    w->Q = gsl_matrix_alloc(n, n);
    w->R = gsl_matrix_alloc(n, m);
    w->diag = calloc(w->p, sizeof *w->diag);
    w->b = gsl_vector_alloc(m);
    w->u = gsl_vector_alloc(n);
    w->C = gsl_matrix_alloc(n, n);
    w->V = gsl_matrix_alloc(n, n);
    w->Tt = gsl_matrix_alloc(n, n);
    w->S = gsl_vector_alloc(n);
    w->work = gsl_vector_alloc(n);
    w->K = gsl_matrix_alloc(n, n);
    w->Ktau = gsl_vector_alloc(n);
    w->Knorm = gsl_vector_alloc(n);
    w->Kperm = gsl_permutation_alloc(n);
    w->col = gsl_vector_alloc(n);
    if (!w->QR || !w->tau || !w->perm || !w->norm || !w->Q || !w->R || !w->diag || !w->b
        || !w->u || !w->C || !w->V || !w->Tt || !w->S || !w->work || !w->K || !w->Ktau
        || !w->Knorm || !w->Kperm || !w->col) {
        mbd_nullspace_free(w);
        return NULL;
    }
    return w;
}

/* >> nullspace-factor */
/* Q = H_0 H_1 ... H_{p-1} from the packed factors (what
 * gsl_linalg_QR_unpack does), in plain loops, and only when a caller needs
 * the whole of it (mbd_nullspace_q, the skew update): the basis and the
 * particular solutions apply the reflections to the few vectors they need
 * (apply_q), a fraction of the arithmetic */
static void unpack_q(mbd_nullspace *w)
{
    const size_t n = w->n, p = w->p;
    double *Q = w->Q->data, *col = w->col->data;
    const size_t tq = w->Q->tda, ta = w->QR->tda;
    const double *A = w->QR->data;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            Q[i * tq + j] = i == j ? 1.0 : 0.0;
    for (size_t i = p; i-- > 0;) {
        /* Q(i:n, i:n) -= tau v (v^T Q(i:n, i:n)), v = [1; A(i+1:n, i)] */
        const double tau = gsl_vector_get(w->tau, i);
        if (tau == 0.0)
            continue;
        /* w = tau Q^T v over the columns j >= i, then Q -= v w^T; row by
         * row, so that the inner loops run along Q's rows */
        for (size_t j = i; j < n; j++)
            col[j] = Q[i * tq + j];
        for (size_t k = i + 1; k < n; k++) {
            const double vk = A[k * ta + i];
            for (size_t j = i; j < n; j++)
                col[j] += vk * Q[k * tq + j];
        }
        for (size_t j = i; j < n; j++) {
            col[j] *= tau;
            Q[i * tq + j] -= col[j];
        }
        for (size_t k = i + 1; k < n; k++) {
            const double vk = A[k * ta + i];
            for (size_t j = i; j < n; j++)
                Q[k * tq + j] -= vk * col[j];
        }
    }
    w->q_ready = 1;
}

/* x <- Q x = H_0 (H_1 (... H_{p-1} x)) (n entries, stride 1): the same
 * operations, in the same order, as unpack_q does to each column of I */
static void apply_q(const mbd_nullspace *w, double x[])
{
    const size_t n = w->n, ta = w->QR->tda;
    const double *A = w->QR->data;
    for (size_t i = w->p; i-- > 0;) {
        const double tau = gsl_vector_get(w->tau, i);
        if (tau == 0.0)
            continue;
        double s = x[i];
        for (size_t k = i + 1; k < n; k++)
            s += A[k * ta + i] * x[k];
        s *= tau;
        x[i] -= s;
        for (size_t k = i + 1; k < n; k++)
            x[k] -= A[k * ta + i] * s;
    }
}

/* x <- Q^T x = H_{p-1} (... H_0 x) */
static void apply_qt(const mbd_nullspace *w, double x[])
{
    const size_t n = w->n, ta = w->QR->tda;
    const double *A = w->QR->data;
    for (size_t i = 0; i < w->p; i++) {
        const double tau = gsl_vector_get(w->tau, i);
        if (tau == 0.0)
            continue;
        double s = x[i];
        for (size_t k = i + 1; k < n; k++)
            s += A[k * ta + i] * x[k];
        s *= tau;
        x[i] -= s;
        for (size_t k = i + 1; k < n; k++)
            x[k] -= A[k * ta + i] * s;
    }
}

static void ensure_q(const mbd_nullspace *w)
{
    if (!w->q_ready)
        unpack_q((mbd_nullspace *)w);   /* a cache in a workspace the caller owns */
}

int mbd_nullspace_factor(mbd_nullspace *w, const gsl_matrix *Cq)
{
    const size_t n = w->n, m = w->m, p = w->p;
    if (Cq->size1 != m || Cq->size2 != n)
        return GSL_EBADLEN;
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < n; j++) {
            const double a = gsl_matrix_get(Cq, i, j);
            if (!isfinite(a))
                return MBD_ENONFINITE;
            gsl_matrix_set(w->QR, j, i, a);                 /* A^T */
        }
    int signum = 0;
    gsl_linalg_QRPT_decomp(w->QR, w->tau, w->perm, &signum, w->norm);
    w->q_ready = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < m; j++)
            gsl_matrix_set(w->R, i, j, j >= i ? gsl_matrix_get(w->QR, i, j) : 0.0);
    /* the monitor: |R_ii| sorted decreasing (GSL's pivoting already orders
     * them up to round-off; insertion sort of a handful) */
    for (size_t i = 0; i < p; i++) {
        const double d = fabs(gsl_matrix_get(w->R, i, i));
        size_t k = i;
        while (k > 0 && w->diag[k - 1] < d) {
            w->diag[k] = w->diag[k - 1];
            k--;
        }
        w->diag[k] = d;
    }
    w->factored = 1;
    return GSL_SUCCESS;
}
/* << nullspace-factor */

/* >> nullspace-rank */
/* the leading diagonal entries above tol |R_11|, in the factorisation's
 * order (the columns of R11 must be the first r) */
size_t mbd_nullspace_rank(const mbd_nullspace *w, double tol)
{
    if (!w->factored)
        return 0;
    if (!(tol > 0))
        tol = MBD_NULLSPACE_TOL_RANK;
    const double r11 = fabs(gsl_matrix_get(w->R, 0, 0));
    size_t r = 0;
    while (r < w->p && fabs(gsl_matrix_get(w->R, r, r)) > tol * r11)
        r++;
    return r;
}
/* << nullspace-rank */

size_t mbd_nullspace_deficiency(const mbd_nullspace *w, double tol)
{
    return w->p - mbd_nullspace_rank(w, tol);
}

size_t mbd_nullspace_dof(const mbd_nullspace *w, double tol)
{
    return w->n - mbd_nullspace_rank(w, tol);
}

size_t mbd_nullspace_monitor(const mbd_nullspace *w, double diag[])
{
    if (diag != NULL)
        memcpy(diag, w->diag, w->p * sizeof *diag);
    return w->p;
}

double mbd_nullspace_ratio(const mbd_nullspace *w, size_t r)
{
    if (!w->factored || r == 0 || r > w->p || !(w->diag[0] > 0))
        return 0.0;
    return w->diag[r - 1] / w->diag[0];
}

int mbd_nullspace_basis(const mbd_nullspace *w, size_t r, gsl_matrix *T)
{
    if (r > w->n || T->size1 != w->n || T->size2 != w->n - r)
        return GSL_EBADLEN;
    if (r == w->n)
        return GSL_SUCCESS;
    if (w->q_ready) {
        gsl_matrix_const_view Q2 = gsl_matrix_const_submatrix(w->Q, 0, r, w->n, w->n - r);
        gsl_matrix_memcpy(T, &Q2.matrix);
        return GSL_SUCCESS;
    }
    double *x = w->col->data;   /* column r + j of Q: Q e_{r+j} */
    for (size_t j = 0; j < w->n - r; j++) {
        for (size_t i = 0; i < w->n; i++)
            x[i] = i == r + j ? 1.0 : 0.0;
        apply_q(w, x);
        for (size_t i = 0; i < w->n; i++)
            gsl_matrix_set(T, i, j, x[i]);
    }
    return GSL_SUCCESS;
}

int mbd_nullspace_q(const mbd_nullspace *w, gsl_matrix *Q)
{
    if (Q->size1 != w->n || Q->size2 != w->n)
        return GSL_EBADLEN;
    ensure_q(w);
    gsl_matrix_memcpy(Q, w->Q);
    return GSL_SUCCESS;
}

/* >> nullspace-particular */
/* A = P R^T Q^T, so the r pivoted rows of A x = b with x = Q_ns u read
 * R11^T u = (P^T b)_{1..r}: a lower triangular solve (GSL's convention: row
 * p_i of A is column i of A^T P, so (P^T b)_i = b[p_i]). */
int mbd_nullspace_coords(mbd_nullspace *w, size_t r, const gsl_vector *b, gsl_vector *u)
{
    if (r > w->p || b->size != w->m || u->size < r)
        return GSL_EBADLEN;
    if (r == 0)
        return GSL_SUCCESS;
    for (size_t i = 0; i < r; i++)
        gsl_vector_set(u, i, gsl_vector_get(b, gsl_permutation_get(w->perm, i)));
    gsl_matrix_const_view R11 = gsl_matrix_const_submatrix(w->R, 0, 0, r, r);
    gsl_vector_view ur = gsl_vector_subvector(u, 0, r);
    gsl_blas_dtrsv(CblasUpper, CblasTrans, CblasNonUnit, &R11.matrix, &ur.vector);
    return GSL_SUCCESS;
}

int mbd_nullspace_particular(mbd_nullspace *w, size_t r, const gsl_vector *b, gsl_vector *x)
{
    if (x->size != w->n)
        return GSL_EBADLEN;
    int st = mbd_nullspace_coords(w, r, b, w->u);
    if (st != GSL_SUCCESS)
        return st;
    gsl_vector_set_zero(x);
    if (r == 0)
        return GSL_SUCCESS;
    double *y = w->col->data;   /* Q [u; 0] */
    for (size_t i = 0; i < w->n; i++)
        y[i] = i < r ? gsl_vector_get(w->u, i) : 0.0;
    apply_q(w, y);
    for (size_t i = 0; i < w->n; i++)
        gsl_vector_set(x, i, y[i]);
    return GSL_SUCCESS;
}

int mbd_nullspace_transpose_solve(mbd_nullspace *w, size_t r, const gsl_vector *c,
                                  gsl_vector *lambda)
{
    if (r > w->p || c->size != w->n || lambda->size != w->m)
        return GSL_EBADLEN;
    gsl_vector_set_zero(lambda);
    if (r == 0)
        return GSL_SUCCESS;
    gsl_matrix_const_view R11 = gsl_matrix_const_submatrix(w->R, 0, 0, r, r);
    double *z = w->col->data;   /* Q_ns^T c = the first r entries of Q^T c */
    for (size_t i = 0; i < w->n; i++)
        z[i] = gsl_vector_get(c, i);
    apply_qt(w, z);
    gsl_vector_view y = gsl_vector_subvector(w->u, 0, r);
    for (size_t i = 0; i < r; i++)
        gsl_vector_set(&y.vector, i, z[i]);
    gsl_blas_dtrsv(CblasUpper, CblasNoTrans, CblasNonUnit, &R11.matrix, &y.vector);
    for (size_t i = 0; i < r; i++)
        gsl_vector_set(lambda, gsl_permutation_get(w->perm, i), gsl_vector_get(&y.vector, i));
    return GSL_SUCCESS;
}
/* << nullspace-particular */

/* >> nullspace-procrustes */
/* App. A: minimise |Tref^T T^ U - I|_F over orthogonal U. With C = Tref^T
 * T^ = W S V^T the minimiser is U = V W^T, the polar factor of C^T (A.13:
 * C^T = U D, D = (C C^T)^(1/2); the document reaches it through a Riccati
 * equation, A.8-A.11, and argues optimality with plane rotations, A.15-A.23,
 * whose printed inequalities have three slips, see the guide's Sec. 7 item
 * 8; the SVD needs none of that). Then Tref^T T = W S W^T is symmetric
 * positive semi-definite: T is as close to Tref as its span allows. */
int mbd_nullspace_procrustes(mbd_nullspace *w, const gsl_matrix *Tref, gsl_matrix *T,
                             double *sigma_min)
{
    const size_t n = w->n, k = T->size2;
    if (T->size1 != n || Tref->size1 != n || Tref->size2 != k || k > n)
        return GSL_EBADLEN;
    if (k == 0) {
        if (sigma_min)
            *sigma_min = 1.0;
        return GSL_SUCCESS;
    }
    if (k == 1) {                      /* one column: a sign */
        double c = 0.0;
        for (size_t i = 0; i < n; i++)
            c += gsl_matrix_get(Tref, i, 0) * gsl_matrix_get(T, i, 0);
        if (c < 0)
            gsl_matrix_scale(T, -1.0);
        if (sigma_min)
            *sigma_min = fabs(c);
        return GSL_SUCCESS;
    }
    gsl_matrix_view C = gsl_matrix_submatrix(w->C, 0, 0, k, k);
    gsl_matrix_view V = gsl_matrix_submatrix(w->V, 0, 0, k, k);
    gsl_vector_view S = gsl_vector_subvector(w->S, 0, k);
    gsl_vector_view work = gsl_vector_subvector(w->work, 0, k);
    gsl_blas_dgemm(CblasTrans, CblasNoTrans, 1.0, Tref, T, 0.0, &C.matrix);
    int st = gsl_linalg_SV_decomp(&C.matrix, &V.matrix, &S.vector, &work.vector);
    if (st != GSL_SUCCESS)
        return st;
    /* U = V W^T into the k x k corner of Tt's storage, then T <- T U */
    gsl_matrix_view U = gsl_matrix_submatrix(w->Tt, 0, 0, k, k);
    gsl_blas_dgemm(CblasNoTrans, CblasTrans, 1.0, &V.matrix, &C.matrix, 0.0, &U.matrix);
    gsl_matrix_view TU = gsl_matrix_submatrix(w->K, 0, 0, n, k);
    gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, T, &U.matrix, 0.0, &TU.matrix);
    gsl_matrix_memcpy(T, &TU.matrix);
    if (sigma_min)
        *sigma_min = gsl_vector_get(&S.vector, k - 1);
    return GSL_SUCCESS;
}
/* << nullspace-procrustes */

int mbd_nullspace_jump(const gsl_matrix *T_old, const gsl_matrix *T_new)
{
    const size_t n = T_old->size1, k = T_old->size2;
    for (size_t j = 0; j < k; j++) {
        double c = 0.0;
        for (size_t i = 0; i < n; i++)
            c += gsl_matrix_get(T_old, i, j) * gsl_matrix_get(T_new, i, j);
        if (!(c >= 0.5))
            return 1;
    }
    return 0;
}

/* >> nullspace-omega */
/* Differentiating A^T P = Q R with P held (eq. 4.4) and multiplying by Q^T
 * (eq. 4.5): J = Q^T A'^T P = Omega R + R', Omega = Q^T Q' skew (4.6-4.7).
 * In blocks (4.8, rows split r | n - r, columns r | m - r), with R's zero
 * rows below R11 and Omega's T-T block set to zero:
 *     J21 = Omega_s R11               ->  Omega_s = J21 R11^-1      (4.10)
 *     J11 R11^-1 = Omega_ns + R11' R11^-1, the last upper triangular,
 *                                     ->  Omega_L = stril(J11 R11^-1)  (4.12)
 *     Omega_ns = Omega_L - Omega_L^T.                                (4.27)
 * The document's eq. 4.13 prints Omega_L - Omega^T, which is not skew (and
 * not even the right size); 4.27 has the right form. For m > n (4.20-4.21)
 * the same equations with Q = Q_1 (no Q_2) and J restricted to the first n
 * columns of P: the code takes the first r columns in every case, all it
 * needs. J12 and J22 are unused (4.9d is a consistency condition). */
int mbd_nullspace_omega(mbd_nullspace *w, size_t r, const gsl_matrix *T, const gsl_matrix *Adot,
                        gsl_matrix *Omega)
{
    const size_t n = w->n, m = w->m, k = n - r;
    if (r > w->p || T->size1 != n || T->size2 != k || Adot->size1 != m || Adot->size2 != n
        || Omega->size1 != n || Omega->size2 != n)
        return GSL_EBADLEN;
    gsl_matrix_set_zero(Omega);
    if (r == 0)
        return GSL_SUCCESS;
    ensure_q(w);
    /* Q0 = [Q_ns T] into K's storage; column i of J is Q0^T (row p_i of A')^T */
    gsl_matrix_view J = gsl_matrix_submatrix(w->C, 0, 0, n, r);
    for (size_t i = 0; i < r; i++) {
        gsl_matrix_const_view row = gsl_matrix_const_submatrix(Adot, gsl_permutation_get(w->perm, i),
                                                               0, 1, n);
        for (size_t a = 0; a < n; a++) {
            double s = 0.0;
            for (size_t b = 0; b < n; b++) {
                const double qba = a < r ? gsl_matrix_get(w->Q, b, a) : gsl_matrix_get(T, b, a - r);
                s += qba * gsl_matrix_get(&row.matrix, 0, b);
            }
            gsl_matrix_set(&J.matrix, a, i, s);
        }
    }
    /* J R11^-1 row by row: x R11 = j  <=>  R11^T x^T = j^T */
    gsl_matrix_const_view R11 = gsl_matrix_const_submatrix(w->R, 0, 0, r, r);
    for (size_t a = 0; a < n; a++) {
        gsl_vector_view ja = gsl_matrix_row(&J.matrix, a);
        gsl_blas_dtrsv(CblasUpper, CblasTrans, CblasNonUnit, &R11.matrix, &ja.vector);
    }
    for (size_t a = 0; a < r; a++)              /* Omega_ns = Omega_L - Omega_L^T */
        for (size_t b = 0; b < a; b++) {
            const double l = gsl_matrix_get(&J.matrix, a, b);
            gsl_matrix_set(Omega, a, b, l);
            gsl_matrix_set(Omega, b, a, -l);
        }
    for (size_t a = r; a < n; a++)              /* Omega_s and -Omega_s^T */
        for (size_t b = 0; b < r; b++) {
            const double s = gsl_matrix_get(&J.matrix, a, b);
            gsl_matrix_set(Omega, a, b, s);
            gsl_matrix_set(Omega, b, a, -s);
        }
    return GSL_SUCCESS;
}
/* << nullspace-omega */

/* >> nullspace-predict */
int mbd_nullspace_predict(mbd_nullspace *w, const gsl_matrix *Q0, const gsl_matrix *Omega,
                          double h, gsl_matrix *Tpred)
{
    const size_t n = w->n, k = Tpred->size2;
    if (Q0->size1 != n || Q0->size2 != n || Omega->size1 != n || Omega->size2 != n
        || Tpred->size1 != n || k > n)
        return GSL_EBADLEN;
    /* K = I - h Omega / 2 (regular: Omega is skew) */
    gsl_matrix_memcpy(w->K, Omega);
    gsl_matrix_scale(w->K, -0.5 * h);
    for (size_t i = 0; i < n; i++)
        *gsl_matrix_ptr(w->K, i, i) += 1.0;
    int signum = 0;
    int st = gsl_linalg_QRPT_decomp(w->K, w->Ktau, w->Kperm, &signum, w->Knorm);
    if (st != GSL_SUCCESS)
        return st;
    /* the last k columns of cay(h Omega) = K^-1 (I + h Omega / 2), then Q0 times them */
    gsl_matrix_view Y = gsl_matrix_submatrix(w->Tt, 0, 0, n, k);
    for (size_t j = 0; j < k; j++) {
        const size_t c = n - k + j;
        for (size_t i = 0; i < n; i++)
            gsl_vector_set(w->col, i, 0.5 * h * gsl_matrix_get(Omega, i, c) + (i == c ? 1.0 : 0.0));
        st = gsl_linalg_QRPT_svx(w->K, w->Ktau, w->Kperm, w->col);
        if (st != GSL_SUCCESS)
            return st;
        gsl_matrix_set_col(&Y.matrix, j, w->col);
    }
    gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, Q0, &Y.matrix, 0.0, Tpred);
    return GSL_SUCCESS;
}
/* << nullspace-predict */
