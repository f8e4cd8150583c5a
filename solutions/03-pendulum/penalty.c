/* Exercise 03.2: the static penalty right-hand side (see README.md). */
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

#include "ex03.h"

int ex03_penalty_accel(const mbd_system *s, const ex03_penalty *p, double t, const double q[],
                       const double qd[], double qdd[], double lambda[])
{
    /* EXERCISE 03.2 BEGIN */
    if (s == NULL || p == NULL || q == NULL || qd == NULL || qdd == NULL || !(p->mu > 0))
        return GSL_EINVAL;
    const size_t n = s->n, m = s->m;
    const double mu = p->mu;
    gsl_matrix *A = gsl_matrix_alloc(n, n), *Cq = gsl_matrix_alloc(m, n);
    gsl_vector *b = gsl_vector_alloc(n), *gam = gsl_vector_alloc(m);
    gsl_vector *C = gsl_vector_alloc(m), *Cdot = gsl_vector_alloc(m);
    if (!A || !Cq || !b || !gam || !C || !Cdot) {
        gsl_matrix_free(A);
        gsl_matrix_free(Cq);
        gsl_vector_free(b);
        gsl_vector_free(gam);
        gsl_vector_free(C);
        gsl_vector_free(Cdot);
        return GSL_ENOMEM;
    }
    gsl_vector_const_view vq = gsl_vector_const_view_array(q, n);
    gsl_vector_const_view vqd = gsl_vector_const_view_array(qd, n);
    gsl_vector_view vqdd = gsl_vector_view_array(qdd, n);

    int st = s->mass(s, t, &vq.vector, A);                         /* A = M ... */
    if (st == GSL_SUCCESS)
        st = s->force(s, t, &vq.vector, &vqd.vector, b);           /* b = F ... */
    if (st == GSL_SUCCESS)
        st = s->jacobian(s, t, &vq.vector, Cq);
    if (st == GSL_SUCCESS)
        st = s->gamma(s, t, &vq.vector, &vqd.vector, gam);
    if (st == GSL_SUCCESS && p->baumgarte) {
        /* gamma_B = gamma - 2 alpha C' - beta^2 C, C' = C_q q' + C_t */
        st = s->constraint(s, t, &vq.vector, C);
        if (st == GSL_SUCCESS) {
            if (s->constraint_t)
                st = s->constraint_t(s, t, &vq.vector, Cdot);
            else
                gsl_vector_set_zero(Cdot);
        }
        if (st == GSL_SUCCESS) {
            gsl_blas_dgemv(CblasNoTrans, 1.0, Cq, &vqd.vector, 1.0, Cdot);
            gsl_blas_daxpy(-2.0 * p->alpha, Cdot, gam);
            gsl_blas_daxpy(-p->beta * p->beta, C, gam);
        }
    }
    if (st == GSL_SUCCESS) {
        gsl_blas_dgemm(CblasTrans, CblasNoTrans, mu, Cq, Cq, 1.0, A);   /* + mu C_q^T C_q */
        gsl_blas_dgemv(CblasTrans, mu, Cq, gam, 1.0, b);                /* + mu C_q^T gamma_B */
        if (gsl_linalg_cholesky_decomp1(A) != GSL_SUCCESS)
            st = MBD_ESINGULAR;
        else
            st = gsl_linalg_cholesky_solve(A, b, &vqdd.vector);
    }
    if (st == GSL_SUCCESS && lambda != NULL) {
        /* the multiplier the penalty implies: mu (C_q q'' - gamma_B) */
        gsl_vector_view vl = gsl_vector_view_array(lambda, m);
        gsl_vector_memcpy(&vl.vector, gam);
        gsl_blas_dgemv(CblasNoTrans, mu, Cq, &vqdd.vector, -mu, &vl.vector);
    }
    gsl_matrix_free(A);
    gsl_matrix_free(Cq);
    gsl_vector_free(b);
    gsl_vector_free(gam);
    gsl_vector_free(C);
    gsl_vector_free(Cdot);
    return st;
    /* EXERCISE 03.2 STUB
    (void)s; (void)p; (void)t; (void)q; (void)qd; (void)qdd; (void)lambda;
    EXERCISE 03.2 END */
}
