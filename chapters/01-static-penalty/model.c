/* model.c -- chapter 01's model: the rigid bar on two rods of document 000,
 * Sec. 1.2.6, and its penalty system (see model.h). */
#include <math.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_permutation.h>

#include "model.h"

void ch01_bar_document(ch01_bar *b)
{
    *b = (ch01_bar){
        .E1 = 200e3, .A1 = 1200.0, .L1 = 4500.0,
        .E2 = 70e3, .A2 = 900.0, .L2 = 3000.0,
        .P = 30e3,
        .r1 = 2.0, .r2 = 5.0, .r5 = 6.0,
        .beta0 = {0.0, 0.0},
    };
}

double ch01_k1(const ch01_bar *b) { return b->E1 * b->A1 / b->L1; }
double ch01_k2(const ch01_bar *b) { return b->E2 * b->A2 / b->L2; }

/* >> stiffness */
void ch01_stiffness(const ch01_bar *b, gsl_matrix *K, gsl_vector *F)
{
    const double k1 = ch01_k1(b), k2 = ch01_k2(b);
    /* rod 1 joins Q1 (top) and Q3 (wall); rod 2 joins Q2 and Q4 */
    const size_t top[2] = {0, 1}, wall[2] = {2, 3};
    const double k[2] = {k1, k2};
    gsl_matrix_set_zero(K);
    for (int r = 0; r < 2; r++) {
        gsl_matrix_set(K, top[r], top[r], k[r]);
        gsl_matrix_set(K, wall[r], wall[r], k[r]);
        gsl_matrix_set(K, top[r], wall[r], -k[r]);
        gsl_matrix_set(K, wall[r], top[r], -k[r]);
    }
    gsl_vector_set_zero(F);
    gsl_vector_set(F, 4, b->P);   /* the bar itself is rigid: row 5 of K stays zero */
}
/* << stiffness */

/* >> constraints */
void ch01_constraints(const ch01_bar *b, gsl_matrix *B, gsl_vector *beta0, gsl_vector *fixed)
{
    /* the bar is straight: Q1 - (r1/r5) Q5 = beta0_1,  Q2 - (r2/r5) Q5 = beta0_2 */
    gsl_matrix_set_zero(B);
    gsl_matrix_set(B, 0, 0, 1.0);
    gsl_matrix_set(B, 0, 4, -b->r1 / b->r5);
    gsl_matrix_set(B, 1, 1, 1.0);
    gsl_matrix_set(B, 1, 4, -b->r2 / b->r5);
    gsl_vector_set(beta0, 0, b->beta0[0]);
    gsl_vector_set(beta0, 1, b->beta0[1]);
    /* the rods stand on the wall: Q3 = Q4 = 0 */
    gsl_vector_set_zero(fixed);
    gsl_vector_set(fixed, 2, 1.0);
    gsl_vector_set(fixed, 3, 1.0);
}
/* << constraints */

double ch01_penalty_factor(const gsl_matrix *K, double k)
{
    double big = 0.0;
    for (size_t i = 0; i < K->size1; i++)
        for (size_t j = 0; j < K->size2; j++)
            big = fmax(big, fabs(gsl_matrix_get(K, i, j)));
    return big * pow(10.0, k);
}

/* >> penalty */
void ch01_penalty_system(const gsl_matrix *K, const gsl_vector *F, const gsl_matrix *B,
                         const gsl_vector *beta0, const gsl_vector *fixed, double C, int literal,
                         gsl_matrix *Kc, gsl_vector *Fc)
{
    /* K_c = K + C B^T B + C C_C: each constraint row is a stiff spring */
    gsl_matrix_memcpy(Kc, K);
    gsl_blas_dgemm(CblasTrans, CblasNoTrans, C, B, B, 1.0, Kc);
    for (size_t i = 0; i < fixed->size; i++)
        *gsl_matrix_ptr(Kc, i, i) += C * gsl_vector_get(fixed, i);

    /* F_c = F + C B^T beta0: the springs are pre-stretched by beta0. The
     * document's eq. (67) stops at K_c and solves with F alone. */
    gsl_vector_memcpy(Fc, F);
    if (!literal)
        gsl_blas_dgemv(CblasTrans, C, B, beta0, 1.0, Fc);
}
/* << penalty */

int ch01_solve_spd(const gsl_matrix *Kc, const gsl_vector *Fc, gsl_matrix *work, gsl_vector *Q)
{
    gsl_matrix_memcpy(work, Kc);
    int st = gsl_linalg_cholesky_decomp1(work);
    if (st != GSL_SUCCESS)
        return st;
    return gsl_linalg_cholesky_solve(work, Fc, Q);
}

double ch01_cond2(const gsl_matrix *A)
{
    const size_t n = A->size1;
    gsl_matrix *U = gsl_matrix_alloc(n, n), *V = gsl_matrix_alloc(n, n);
    gsl_vector *s = gsl_vector_alloc(n), *w = gsl_vector_alloc(n);
    gsl_matrix_memcpy(U, A);
    int st = gsl_linalg_SV_decomp(U, V, s, w);
    double smax = gsl_vector_get(s, 0), smin = gsl_vector_get(s, n - 1);
    double c = (st == GSL_SUCCESS && smin > 0) ? smax / smin : HUGE_VAL;
    gsl_matrix_free(U);
    gsl_matrix_free(V);
    gsl_vector_free(s);
    gsl_vector_free(w);
    return c;
}

double ch01_rel_error(const gsl_vector *Q, const gsl_vector *Qexact)
{
    double num = 0.0, den = 0.0;
    for (size_t i = 0; i < Q->size; i++) {
        double d = gsl_vector_get(Q, i) - gsl_vector_get(Qexact, i);
        num += d * d;
        den += gsl_vector_get(Qexact, i) * gsl_vector_get(Qexact, i);
    }
    return sqrt(num / den);
}
