/* Grades exercise 01.4: the error study. The errors and condition numbers are
 * checked against the definitions computed here: the penalty system assembled
 * entry by entry, solved by LU, measured in the 2-norm, and the singular values
 * of K_c. */
#include <math.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>

#include "check.h"
#include "ex01.h"
#include "fixture.h"

#define KMIN 1
#define KMAX 12
#define NK (KMAX - KMIN + 1)

static int run(double error[NK], double cond[NK], int *kbest, double beta2)
{
    fx_bar x;
    fx_bar_alloc(&x);
    gsl_vector_set(x.beta0, 1, beta2);
    double exact[5];
    fx_exact(0, beta2, exact);
    gsl_vector_view Qe = gsl_vector_view_array(exact, 5);
    for (int i = 0; i < NK; i++)
        error[i] = cond[i] = NAN;   /* every entry must be written */
    *kbest = KMIN - 1;
    int st = ex01_error_sweep(x.K, x.F, x.B, x.beta0, x.fixed, &Qe.vector, KMIN, KMAX, error,
                              cond, kbest);
    fx_bar_free(&x);
    return st;
}

/* K_c = K + C (B^T B + diag(fixed)), entry by entry */
static void assemble_here(const gsl_matrix *K, const gsl_matrix *B, const gsl_vector *fixed,
                          double C, gsl_matrix *Kc)
{
    const size_t n = K->size1;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) {
            double bb = 0.0;
            for (size_t r = 0; r < B->size1; r++)
                bb += gsl_matrix_get(B, r, i) * gsl_matrix_get(B, r, j);
            if (i == j)
                bb += gsl_vector_get(fixed, i);
            gsl_matrix_set(Kc, i, j, gsl_matrix_get(K, i, j) + C * bb);
        }
}

/* The relative error of the penalty solution in the 2-norm, by LU here */
static double error_here(const gsl_matrix *K, const gsl_vector *F, const gsl_matrix *B,
                         const gsl_vector *beta0, const gsl_vector *fixed, const double *exact,
                         double C)
{
    const size_t n = K->size1;
    gsl_matrix *Kc = gsl_matrix_alloc(n, n);
    gsl_vector *Fc = gsl_vector_alloc(n), *Q = gsl_vector_alloc(n);
    gsl_permutation *perm = gsl_permutation_alloc(n);
    assemble_here(K, B, fixed, C, Kc);
    for (size_t i = 0; i < n; i++) {
        double f = gsl_vector_get(F, i);
        for (size_t r = 0; r < B->size1; r++)
            f += C * gsl_matrix_get(B, r, i) * gsl_vector_get(beta0, r);
        gsl_vector_set(Fc, i, f);
    }
    int sign;
    gsl_linalg_LU_decomp(Kc, perm, &sign);
    gsl_linalg_LU_solve(Kc, perm, Fc, Q);
    double d2 = 0.0, e2 = 0.0;
    for (size_t i = 0; i < n; i++) {
        d2 += pow(gsl_vector_get(Q, i) - exact[i], 2);
        e2 += exact[i] * exact[i];
    }
    gsl_matrix_free(Kc);
    gsl_vector_free(Fc);
    gsl_vector_free(Q);
    gsl_permutation_free(perm);
    return sqrt(d2 / e2);
}

/* sigma_max / sigma_min of K_c, from GSL's SVD here */
static double cond_here(const gsl_matrix *K, const gsl_matrix *B, const gsl_vector *fixed,
                        double C)
{
    const size_t n = K->size1;
    gsl_matrix *Kc = gsl_matrix_alloc(n, n), *V = gsl_matrix_alloc(n, n);
    gsl_vector *s = gsl_vector_alloc(n), *w = gsl_vector_alloc(n);
    assemble_here(K, B, fixed, C, Kc);
    gsl_linalg_SV_decomp(Kc, V, s, w);
    double c = gsl_vector_get(s, 0) / gsl_vector_get(s, n - 1);
    gsl_matrix_free(Kc);
    gsl_matrix_free(V);
    gsl_vector_free(s);
    gsl_vector_free(w);
    return c;
}

/* At the document's C (k = 4) the relative error is about max|K|/C = 1e-4,
 * and it falls tenfold per decade while rounding is negligible; there each
 * error is the 2-norm of Q_C - Qexact over the 2-norm of Qexact, as computed
 * here. */
static void error_falls_as_one_over_C(void)
{
    double error[NK], cond[NK];
    int kbest = 0;
    int st = run(error, cond, &kbest, 0.0);
    REQUIRE_STATUS(st, GSL_SUCCESS);
    CHECK_IN(error[4 - KMIN], 0.9e-4, 1.2e-4);
    for (int k = 2; k <= 6; k++)
        CHECK_IN(error[k - KMIN] / error[k + 1 - KMIN], 9.0, 11.0);
    fx_bar x;
    fx_bar_alloc(&x);
    double exact[5];
    fx_exact(0, 0, exact);
    for (int k = KMIN; k <= 4; k++) {   /* where rounding is below 1e-6 of the error */
        const double e = error_here(x.K, x.F, x.B, x.beta0, x.fixed, exact, FX_K1 * pow(10.0, k));
        CHECK_MSG(fabs(error[k - KMIN] - e) <= 1e-6 * e,
                  "k = %d: error %.10g, but ||Q_C - Qexact||_2 / ||Qexact||_2 = %.10g", k,
                  error[k - KMIN], e);
    }
    fx_bar_free(&x);
}

/* The condition number against one computed here from the singular values of
 * K + C (B^T B + C_C), for every k (the last one too), and its growth in
 * proportion to C. */
static void condition_number(void)
{
    double error[NK], cond[NK];
    int kbest = 0;
    int st = run(error, cond, &kbest, 0.0);
    REQUIRE_STATUS(st, GSL_SUCCESS);
    fx_bar x;
    fx_bar_alloc(&x);
    for (int k = KMIN; k <= KMAX; k++) {
        const double c = cond_here(x.K, x.B, x.fixed, FX_K1 * pow(10.0, k));
        /* past k = 8 the smallest singular value is itself rounded */
        CHECK_MSG(fabs(cond[k - KMIN] - c) <= (k <= 8 ? 1e-6 : 1e-2) * c,
                  "k = %d: cond %.10g, but sigma_max / sigma_min = %.10g", k, cond[k - KMIN], c);
    }
    for (int k = 3; k <= 8; k++)
        CHECK_IN(cond[k + 1 - KMIN] / cond[k - KMIN], 9.5, 10.5);
    fx_bar_free(&x);
}

/* Past some k rounding wins: the best exponent is where the falling penalty
 * error meets the rising rounding error, near the middle of double precision,
 * and the error at k = 12 is far above the best. When every solve fails,
 * kbest is kmin. */
static void best_exponent(void)
{
    double error[NK], cond[NK];
    int kbest = 0;
    int st = run(error, cond, &kbest, 0.0);
    REQUIRE_STATUS(st, GSL_SUCCESS);
    CHECK_IN(kbest, 6, 9);
    for (int k = KMIN; k <= KMAX; k++)
        CHECK_MSG(error[kbest - KMIN] <= error[k - KMIN],
                  "kbest = %d (error %.3g) but k = %d has error %.3g", kbest,
                  error[kbest - KMIN], k, error[k - KMIN]);
    CHECK_GE(error[KMAX - KMIN], 100.0 * error[kbest - KMIN]);

    /* K = -I with dof 1 fixed: dof 2 has a negative stiffness at every C, so
     * every Cholesky fails (the constraint row only touches dof 1) */
    double kdat[4] = {-1, 0, 0, -1}, fdat[2] = {1, 1}, bdat[2] = {1, 0}, b0 = 0.0, fix[2] = {1, 0};
    double qe[2] = {0.0, -1.0}, err[4], cnd[4];
    gsl_matrix_view K = gsl_matrix_view_array(kdat, 2, 2), B = gsl_matrix_view_array(bdat, 1, 2);
    gsl_vector_view F = gsl_vector_view_array(fdat, 2), beta0 = gsl_vector_view_array(&b0, 1),
                    fixed = gsl_vector_view_array(fix, 2), Qe = gsl_vector_view_array(qe, 2);
    kbest = 99;
    REQUIRE_STATUS(ex01_error_sweep(&K.matrix, &F.vector, &B.matrix, &beta0.vector, &fixed.vector,
                                    &Qe.vector, 2, 5, err, cnd, &kbest), GSL_SUCCESS);
    for (int i = 0; i < 4; i++)
        CHECK_MSG(isinf(err[i]) && err[i] > 0, "k = %d: K_c is indefinite, error should be "
                  "INFINITY, got %g", i + 2, err[i]);
    CHECK_MSG(kbest == 2, "every solve failed: kbest should be kmin = 2, got %d", kbest);
}

/* The general case the contract allows: a symmetric indefinite K whose
 * largest |K_ij| (6) is a negative entry off the diagonal, the first dof
 * fixed, a misfit; K_c is indefinite for small C (error INFINITY, cond still
 * there). Then the bar with a misfit (the load term C B^T beta0), and the
 * failures: sizes, kmax < kmin, Qexact = 0. */
static void general_case(void)
{
    double kdat[9] = {4, -6, 1, -6, 5, 2, 1, 2, 3}, fdat[3] = {1, 2, -1};
    double bdat[3] = {0, 1, -1}, b0 = 0.3, fix[3] = {1, 0, 0};
    gsl_matrix_view K = gsl_matrix_view_array(kdat, 3, 3), B = gsl_matrix_view_array(bdat, 1, 3);
    gsl_vector_view F = gsl_vector_view_array(fdat, 3), beta0 = gsl_vector_view_array(&b0, 1),
                    fixed = gsl_vector_view_array(fix, 3);
    /* the exact minimum on Q = (0, s + beta0, s): with v = (0, 1, 1),
     * s = (F.v - beta0 (K_11 + K_21)) / (v^T K v) = (1 - 7 beta0) / 12 */
    const double s = (1.0 - 7.0 * b0) / 12.0;
    double qe[3] = {0.0, s + b0, s};
    gsl_vector_view Qe = gsl_vector_view_array(qe, 3);
    enum { LO = -1, HI = 6, N = HI - LO + 1 };
    double err[N], cnd[N];
    int kbest;
    for (int i = 0; i < N; i++)
        err[i] = cnd[i] = NAN;
    REQUIRE_STATUS(ex01_error_sweep(&K.matrix, &F.vector, &B.matrix, &beta0.vector, &fixed.vector,
                                    &Qe.vector, LO, HI, err, cnd, &kbest), GSL_SUCCESS);
    CHECK_MSG(isinf(err[0]) && err[0] > 0, "k = -1: K_c is indefinite, error should be INFINITY, "
              "got %g", err[0]);
    for (int k = LO; k <= HI; k++) {
        const double C = 6.0 * pow(10.0, k);
        const double c = cond_here(&K.matrix, &B.matrix, &fixed.vector, C);
        CHECK_MSG(fabs(cnd[k - LO] - c) <= 1e-8 * c, "k = %d: cond %.10g, sigma_max / sigma_min "
                  "of K + 6e%d (B^T B + C_C) = %.10g", k, cnd[k - LO], k, c);
        if (k < 1 || k > 4)   /* where the solve works and rounding is far below 1e-7 */
            continue;
        const double e = error_here(&K.matrix, &F.vector, &B.matrix, &beta0.vector,
                                    &fixed.vector, qe, C);
        CHECK_MSG(fabs(err[k - LO] - e) <= 1e-7 * e, "k = %d: error %.10g, but with C = 6e%d "
                  "(max |K_ij| = 6) ||Q_C - Qexact||_2 / ||Qexact||_2 = %.10g", k, err[k - LO],
                  k, e);
    }

    /* the bar with a misfit: the error stays at 1e-4 only with the load term */
    double error[NK], cond[NK];
    REQUIRE_STATUS(run(error, cond, &kbest, 0.5), GSL_SUCCESS);
    CHECK_IN(error[4 - KMIN], 0.5e-4, 2e-4);

    /* failures */
    double zero[3] = {0, 0, 0};
    gsl_vector_view Z = gsl_vector_view_array(zero, 3);
    CHECK_STATUS(ex01_error_sweep(&K.matrix, &F.vector, &B.matrix, &beta0.vector, &fixed.vector,
                                  &Z.vector, 1, 3, err, cnd, &kbest), GSL_EDOM);
    CHECK_STATUS(ex01_error_sweep(&K.matrix, &F.vector, &B.matrix, &beta0.vector, &fixed.vector,
                                  &Qe.vector, 3, 2, err, cnd, &kbest), GSL_EBADLEN);
    gsl_vector_const_view F2 = gsl_vector_const_subvector(&F.vector, 0, 2);
    gsl_vector_const_view fixed2 = gsl_vector_const_subvector(&fixed.vector, 0, 2);
    gsl_vector_const_view Qe2 = gsl_vector_const_subvector(&Qe.vector, 0, 2);
    gsl_matrix_const_view B2 = gsl_matrix_const_submatrix(&B.matrix, 0, 0, 1, 2);
    gsl_matrix_const_view K32 = gsl_matrix_const_submatrix(&K.matrix, 0, 0, 3, 2);
    double b00[2] = {0.3, 0.1};
    gsl_vector_view beta2 = gsl_vector_view_array(b00, 2);
    CHECK_STATUS(ex01_error_sweep(&K.matrix, &F2.vector, &B.matrix, &beta0.vector, &fixed.vector,
                                  &Qe.vector, 1, 3, err, cnd, &kbest), GSL_EBADLEN);
    CHECK_STATUS(ex01_error_sweep(&K.matrix, &F.vector, &B2.matrix, &beta0.vector, &fixed.vector,
                                  &Qe.vector, 1, 3, err, cnd, &kbest), GSL_EBADLEN);
    CHECK_STATUS(ex01_error_sweep(&K.matrix, &F.vector, &B.matrix, &beta2.vector, &fixed.vector,
                                  &Qe.vector, 1, 3, err, cnd, &kbest), GSL_EBADLEN);
    CHECK_STATUS(ex01_error_sweep(&K.matrix, &F.vector, &B.matrix, &beta0.vector, &fixed2.vector,
                                  &Qe.vector, 1, 3, err, cnd, &kbest), GSL_EBADLEN);
    CHECK_STATUS(ex01_error_sweep(&K.matrix, &F.vector, &B.matrix, &beta0.vector, &fixed.vector,
                                  &Qe2.vector, 1, 3, err, cnd, &kbest), GSL_EBADLEN);
    CHECK_STATUS(ex01_error_sweep(&K32.matrix, &F.vector, &B.matrix, &beta0.vector, &fixed.vector,
                                  &Qe.vector, 1, 3, err, cnd, &kbest), GSL_EBADLEN);
}

static CU_TestInfo tests[] = {
    {"error_falls_as_one_over_C", error_falls_as_one_over_C},
    {"condition_number", condition_number},
    {"best_exponent", best_exponent},
    {"general_case", general_case},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"ex01.4", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
