/* linsolve_impl.h -- the solver's insides, shared by linsolve.c (the
 * pattern, the dense kind, the dispatch) and linsolve_klu.c (the sparse kind). */
#ifndef MBD_LINSOLVE_IMPL_H
#define MBD_LINSOLVE_IMPL_H

#include <gsl/gsl_matrix.h>
#include <gsl/gsl_permutation.h>
#include <gsl/gsl_vector.h>

#include "mbd/linsolve.h"

struct mbd_linsolve {
    mbd_linsolve_kind kind;
    size_t n, nnz;
    size_t *rows, *cols;          /* the pattern as given */
    int factored;                 /* a factorisation is there to solve with */
    double rcond;
    size_t factorisations, refactorisations;
    /* dense */
    gsl_matrix *A;                /* the LU factors after a factorisation */
    gsl_permutation *perm;
    gsl_vector *work, *work2, *work3;   /* the condition estimate's */
    /* sparse (linsolve_klu.c) */
    void *sparse;
};

/* The sparse kind (linsolve_klu.c): set up after the pattern is stored (the
 * compressed-column form and the symbolic analysis), factor afresh
 * (reuse = 0) or with the last pivot order (reuse = 1), solve, free. Each
 * sets ls->rcond and the counters as linsolve.h says. */
int mbd_linsolve_sparse_setup(mbd_linsolve *ls);
int mbd_linsolve_sparse_factor(mbd_linsolve *ls, const double *values, int reuse);
int mbd_linsolve_sparse_solve(mbd_linsolve *ls, double *b);
void mbd_linsolve_sparse_free(mbd_linsolve *ls);

#endif
