/* Grades exercise 01.3: the exact solution by Lagrange multipliers. */
#include <math.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>

#include "check.h"
#include "ex01.h"
#include "fixture.h"

/* The document's bar: Q equals the rigid-bar closed form, and the
 * multipliers are the constraint forces with the sign of K Q + A^T lambda = F:
 * lambda = (-k1 Q1, -k2 Q2, k1 Q1, k2 Q2). */
static void document_bar(void)
{
    fx_bar x;
    fx_bar_alloc(&x);
    gsl_vector *Q = gsl_vector_alloc(5), *lambda = gsl_vector_alloc(4);
    int st = ex01_lagrange_solve(x.K, x.F, x.A, x.b, Q, lambda);
    CHECK_STATUS(st, GSL_SUCCESS);
    if (st == GSL_SUCCESS) {
        double exact[5];
        fx_exact(0, 0, exact);
        for (size_t i = 0; i < 5; i++)
            CHECK_CLOSE(gsl_vector_get(Q, i), exact[i], 1e-12);
        double f1 = FX_K1 * exact[0], f2 = FX_K2 * exact[1];   /* 26004.5 N, 25598.2 N */
        CHECK_REL(gsl_vector_get(lambda, 0), -f1, 1e-10);
        CHECK_REL(gsl_vector_get(lambda, 1), -f2, 1e-10);
        CHECK_REL(gsl_vector_get(lambda, 2), f1, 1e-10);
        CHECK_REL(gsl_vector_get(lambda, 3), f2, 1e-10);
    }
    gsl_vector_free(Q);
    gsl_vector_free(lambda);
    fx_bar_free(&x);
}

/* A misfit b != 0 on the second bar constraint */
static void misfit(void)
{
    fx_bar x;
    fx_bar_alloc(&x);
    gsl_vector_set(x.b, 1, 0.5);
    gsl_vector *Q = gsl_vector_alloc(5), *lambda = gsl_vector_alloc(4);
    int st = ex01_lagrange_solve(x.K, x.F, x.A, x.b, Q, lambda);
    CHECK_STATUS(st, GSL_SUCCESS);
    if (st == GSL_SUCCESS) {
        double exact[5];
        fx_exact(0, 0.5, exact);
        for (size_t i = 0; i < 5; i++)
            CHECK_CLOSE(gsl_vector_get(Q, i), exact[i], 1e-12);
    }
    gsl_vector_free(Q);
    gsl_vector_free(lambda);
    fx_bar_free(&x);
}

/* Any well-posed system, K not symmetric: both equations hold to rounding
 * (K Q, not K^T Q). */
static void general_residuals(void)
{
    double kdat[16] = {6, -2, 1, 0, -3, 5, -1, 1.5, 2, -1, 4, -2, 0, 0.5, -2.5, 3};
    double adat[8] = {1, 2, 0, -1, 0, 1, 1, 1};
    double fdat[4] = {1, -2, 0.5, 3}, bdat[2] = {0.3, -0.7};
    gsl_matrix_view K = gsl_matrix_view_array(kdat, 4, 4), A = gsl_matrix_view_array(adat, 2, 4);
    gsl_vector_view F = gsl_vector_view_array(fdat, 4), b = gsl_vector_view_array(bdat, 2);
    gsl_vector *Q = gsl_vector_alloc(4), *lambda = gsl_vector_alloc(2), *r = gsl_vector_alloc(4),
               *c = gsl_vector_alloc(2);
    gsl_vector_set_all(Q, NAN);
    gsl_vector_set_all(lambda, NAN);
    int st = ex01_lagrange_solve(&K.matrix, &F.vector, &A.matrix, &b.vector, Q, lambda);
    CHECK_STATUS(st, GSL_SUCCESS);
    if (st == GSL_SUCCESS) {
        gsl_vector_memcpy(r, &F.vector);        /* r = F - K Q - A^T lambda */
        gsl_blas_dgemv(CblasNoTrans, -1.0, &K.matrix, Q, 1.0, r);
        gsl_blas_dgemv(CblasTrans, -1.0, &A.matrix, lambda, 1.0, r);
        gsl_vector_memcpy(c, &b.vector);        /* c = b - A Q */
        gsl_blas_dgemv(CblasNoTrans, -1.0, &A.matrix, Q, 1.0, c);
        CHECK_LE(gsl_blas_dnrm2(r), 1e-12);
        CHECK_LE(gsl_blas_dnrm2(c), 1e-12);
        CHECK_GE(gsl_blas_dnrm2(lambda), 1e-3);   /* the constraints do carry force */
    }
    gsl_vector_free(Q);
    gsl_vector_free(lambda);
    gsl_vector_free(r);
    gsl_vector_free(c);
}

static int untouched(const gsl_vector *v, double value)
{
    for (size_t i = 0; i < v->size; i++)
        if (gsl_vector_get(v, i) != value)
            return 0;
    return 1;
}

/* Singular systems: two identical constraint rows (the multipliers are not
 * unique), and a dof that no constraint holds and no stiffness resists (K
 * singular on a motion A leaves free, with A of full rank). Q and lambda are
 * left as they were. Then each size that does not fit. */
static void singular_and_bad_sizes(void)
{
    fx_bar x;
    fx_bar_alloc(&x);
    gsl_matrix *A = gsl_matrix_alloc(3, 5);
    gsl_vector *b = gsl_vector_calloc(3), *Q = gsl_vector_alloc(5), *lambda = gsl_vector_alloc(3);
    for (size_t j = 0; j < 5; j++) {
        gsl_matrix_set(A, 0, j, gsl_matrix_get(x.A, 0, j));
        gsl_matrix_set(A, 1, j, gsl_matrix_get(x.A, 0, j));
        gsl_matrix_set(A, 2, j, gsl_matrix_get(x.A, 2, j));
    }
    gsl_vector_set_all(Q, 7.0);
    gsl_vector_set_all(lambda, 7.0);
    CHECK_STATUS(ex01_lagrange_solve(x.K, x.F, A, b, Q, lambda), MBD_ESINGULAR);
    CHECK_MSG(untouched(Q, 7.0) && untouched(lambda, 7.0), "a failed solve wrote Q or lambda");

    double kdat[9] = {2, 1, 0, 1, 2, 0, 0, 0, 0}, fdat[3] = {1, 1, 1}, adat[3] = {1, 0, 0};
    double bdat = 0.5;
    gsl_matrix_view K3 = gsl_matrix_view_array(kdat, 3, 3), A3 = gsl_matrix_view_array(adat, 1, 3);
    gsl_vector_view F3 = gsl_vector_view_array(fdat, 3), b3 = gsl_vector_view_array(&bdat, 1);
    gsl_vector *Q3 = gsl_vector_alloc(3), *l1 = gsl_vector_alloc(1);
    gsl_vector_set_all(Q3, 7.0);
    gsl_vector_set_all(l1, 7.0);
    CHECK_STATUS(ex01_lagrange_solve(&K3.matrix, &F3.vector, &A3.matrix, &b3.vector, Q3, l1),
                 MBD_ESINGULAR);
    CHECK_MSG(untouched(Q3, 7.0) && untouched(l1, 7.0), "a failed solve wrote Q or lambda");

    /* sizes: the bar's K (5 x 5) and A (4 x 5) with one wrong argument */
    gsl_vector *Q4 = gsl_vector_alloc(4), *l4 = gsl_vector_alloc(4), *l3 = gsl_vector_alloc(3),
               *v4 = gsl_vector_calloc(4), *v3 = gsl_vector_calloc(3), *Q5 = gsl_vector_alloc(5);
    gsl_matrix *K54 = gsl_matrix_calloc(5, 4), *A44 = gsl_matrix_calloc(4, 4);
    CHECK_STATUS(ex01_lagrange_solve(K54, x.F, x.A, x.b, Q5, l4), GSL_EBADLEN);
    CHECK_STATUS(ex01_lagrange_solve(x.K, v4, x.A, x.b, Q5, l4), GSL_EBADLEN);
    CHECK_STATUS(ex01_lagrange_solve(x.K, x.F, A44, x.b, Q5, l4), GSL_EBADLEN);
    CHECK_STATUS(ex01_lagrange_solve(x.K, x.F, x.A, v3, Q5, l4), GSL_EBADLEN);
    CHECK_STATUS(ex01_lagrange_solve(x.K, x.F, x.A, x.b, Q4, l4), GSL_EBADLEN);
    CHECK_STATUS(ex01_lagrange_solve(x.K, x.F, x.A, x.b, Q5, l3), GSL_EBADLEN);
    gsl_vector_free(Q4);
    gsl_vector_free(l4);
    gsl_vector_free(l3);
    gsl_vector_free(v4);
    gsl_vector_free(v3);
    gsl_vector_free(Q5);
    gsl_matrix_free(K54);
    gsl_matrix_free(A44);
    gsl_vector_free(Q3);
    gsl_vector_free(l1);
    gsl_matrix_free(A);
    gsl_vector_free(b);
    gsl_vector_free(Q);
    gsl_vector_free(lambda);
    fx_bar_free(&x);
}

static CU_TestInfo tests[] = {
    {"document_bar", document_bar},
    {"misfit", misfit},
    {"general_residuals", general_residuals},
    {"singular_and_bad_sizes", singular_and_bad_sizes},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"ex01.3", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
