/* The bar of document 000, Fig. 1, built independently of the code under
 * test: the data as the document prints them. */
#ifndef EX01_FIXTURE_H
#define EX01_FIXTURE_H

#include <math.h>

#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

#define FX_K1 (200e3 * 1200.0 / 4500.0)   /* N/mm */
#define FX_K2 (70e3 * 900.0 / 3000.0)
#define FX_P 30e3                         /* N */

/* the document's printed results: K_c / 10^8 and Q (mm) */
static const double FX_DOC_KC[5][5] = {
    {5.3339, 0, -0.0005, 0, -1.7778},
    {0, 5.3335, 0, -0.0002, -4.4444},
    {-0.0005, 0, 5.3339, 0, 0},
    {0, -0.0002, 0, 5.3335, 0},
    {-1.7778, -4.4444, 0, 0, 4.2963},
};
static const double FX_DOC_Q[5] = {0.4876, 1.2191, 0, 0, 1.4629};

typedef struct {
    gsl_matrix *K, *B, *A;     /* A = [B; e3^T; e4^T] */
    gsl_vector *F, *beta0, *fixed, *b;
} fx_bar;

static inline void fx_bar_alloc(fx_bar *x)
{
    const double k[2] = {FX_K1, FX_K2};
    x->K = gsl_matrix_calloc(5, 5);
    for (size_t r = 0; r < 2; r++) {   /* rod r joins dof r (top) and r + 2 (wall) */
        gsl_matrix_set(x->K, r, r, k[r]);
        gsl_matrix_set(x->K, r + 2, r + 2, k[r]);
        gsl_matrix_set(x->K, r, r + 2, -k[r]);
        gsl_matrix_set(x->K, r + 2, r, -k[r]);
    }
    x->F = gsl_vector_calloc(5);
    gsl_vector_set(x->F, 4, FX_P);
    x->B = gsl_matrix_calloc(2, 5);
    gsl_matrix_set(x->B, 0, 0, 1.0);
    gsl_matrix_set(x->B, 0, 4, -2.0 / 6.0);
    gsl_matrix_set(x->B, 1, 1, 1.0);
    gsl_matrix_set(x->B, 1, 4, -5.0 / 6.0);
    x->beta0 = gsl_vector_calloc(2);
    x->fixed = gsl_vector_calloc(5);
    gsl_vector_set(x->fixed, 2, 1.0);
    gsl_vector_set(x->fixed, 3, 1.0);
    x->A = gsl_matrix_calloc(4, 5);
    for (size_t j = 0; j < 5; j++) {
        gsl_matrix_set(x->A, 0, j, gsl_matrix_get(x->B, 0, j));
        gsl_matrix_set(x->A, 1, j, gsl_matrix_get(x->B, 1, j));
    }
    gsl_matrix_set(x->A, 2, 2, 1.0);
    gsl_matrix_set(x->A, 3, 3, 1.0);
    x->b = gsl_vector_calloc(4);
}

static inline void fx_bar_free(fx_bar *x)
{
    gsl_matrix_free(x->K);
    gsl_matrix_free(x->B);
    gsl_matrix_free(x->A);
    gsl_vector_free(x->F);
    gsl_vector_free(x->beta0);
    gsl_vector_free(x->fixed);
    gsl_vector_free(x->b);
}

/* The exact rigid-bar displacements for misfits beta1, beta2: from the moment
 * balance 2 k1 Q1 + 5 k2 Q2 = 6 P with Q1 = 2 t + beta1, Q2 = 5 t + beta2,
 * Q5 = 6 t (t in mm per m). */
static inline void fx_exact(double beta1, double beta2, double Q[5])
{
    double t = (6.0 * FX_P - 2.0 * FX_K1 * beta1 - 5.0 * FX_K2 * beta2)
               / (4.0 * FX_K1 + 25.0 * FX_K2);
    Q[0] = 2.0 * t + beta1;
    Q[1] = 5.0 * t + beta2;
    Q[2] = 0.0;
    Q[3] = 0.0;
    Q[4] = 6.0 * t;
}

#endif
