/* linsolve.h -- square linear solves with a pattern fixed once: dense (GSL's
 * LU) or sparse (SuiteSparse's KLU).
 *
 * A solver is made for one n x n matrix pattern: the positions (rows[k],
 * cols[k]), k < nnz, of its possible nonzeros, in an order the caller
 * chooses (positions may repeat; their values are summed). The caller then
 * gives the values in that same order, as often as they change, and solves.
 * The sparse kind orders and analyses the pattern once (the symbolic
 * analysis), factors with partial pivoting on the first factorisation, and
 * can refactor new values with the same pivot order (mbd_linsolve_refactor),
 * which is what a Newton iteration or a run of steps with slowly changing
 * matrices wants. The dense kind does the same work with a dense LU, so that
 * a program can show the difference (chapter 09, --linear-solver).
 *
 * Every function returns a status: GSL_SUCCESS, GSL_EINVAL (bad arguments),
 * GSL_ENOMEM, MBD_ESINGULAR (a zero pivot, or a reciprocal condition estimate
 * below MBD_LINSOLVE_RCOND_MIN), MBD_ENONFINITE (a non-finite value). The
 * dense kind allocates nothing after mbd_linsolve_alloc. The sparse kind's
 * refactorisations with kept pivots and its solves allocate nothing either,
 * but a fresh factorisation (mbd_linsolve_factor, or a refactorisation that
 * falls back to one) has KLU allocate the factors anew, since their size
 * depends on the pivots chosen: it can fail with GSL_ENOMEM.
 */
#ifndef MBD_LINSOLVE_H
#define MBD_LINSOLVE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { MBD_LINSOLVE_DENSE, MBD_LINSOLVE_SPARSE } mbd_linsolve_kind;

/* "dense", "sparse" */
const char *mbd_linsolve_kind_name(mbd_linsolve_kind kind);
/* the kind of a name; GSL_EINVAL for an unknown one */
int mbd_linsolve_kind_of(const char *name, mbd_linsolve_kind *kind);

/* a factorisation whose reciprocal condition estimate is below this is
 * reported singular */
#define MBD_LINSOLVE_RCOND_MIN 1e-14

typedef struct mbd_linsolve mbd_linsolve;

/* A solver for the n x n pattern (rows[k], cols[k]), k < nnz (0 <= rows,
 * cols < n; n >= 1, nnz >= 1); the arrays are copied. NULL when an argument
 * is bad or memory runs out. */
mbd_linsolve *mbd_linsolve_alloc(mbd_linsolve_kind kind, size_t n, size_t nnz,
                                 const size_t *rows, const size_t *cols);
void mbd_linsolve_free(mbd_linsolve *ls);

mbd_linsolve_kind mbd_linsolve_kind_get(const mbd_linsolve *ls);
size_t mbd_linsolve_size(const mbd_linsolve *ls);
size_t mbd_linsolve_nnz(const mbd_linsolve *ls);

/* The matrix with values[k] at (rows[k], cols[k]) (summed where positions
 * repeat), factored afresh (pivots chosen). */
int mbd_linsolve_factor(mbd_linsolve *ls, const double *values);
/* The same with the pivot order of the last fresh factorisation (the dense
 * kind factors afresh); when those pivots have become poor (KLU met a zero
 * pivot, or the pivot growth rose a thousandfold over the fresh
 * factorisation's) or the result looks singular, a fresh factorisation is
 * made instead, and it decides (a refactorisation never reports
 * MBD_ESINGULAR by itself). Before any mbd_linsolve_factor it is
 * mbd_linsolve_factor. */
int mbd_linsolve_refactor(mbd_linsolve *ls, const double *values);
/* b := A^-1 b (n values) with the last factorisation; GSL_EINVAL before one */
int mbd_linsolve_solve(mbd_linsolve *ls, double *b);

/* The last factorisation's reciprocal condition estimate 1/(|A|_1 |A^-1|_1),
 * |A^-1|_1 estimated from the factors by Hager's method with Higham's
 * refinements (a few solves; KLU's klu_condest for the sparse kind): NAN
 * before the first factorisation, 0 after a zero pivot. And how many
 * factorisations have been made, fresh and with reused pivots: each call of
 * mbd_linsolve_factor or mbd_linsolve_refactor counts one (also one refused
 * for a non-finite value), a refactorisation that fell back to a fresh one
 * as fresh; the dense kind counts its refactorisations as asked. */
double mbd_linsolve_rcond(const mbd_linsolve *ls);
size_t mbd_linsolve_factorisations(const mbd_linsolve *ls);
size_t mbd_linsolve_refactorisations(const mbd_linsolve *ls);

#ifdef __cplusplus
}
#endif

#endif
