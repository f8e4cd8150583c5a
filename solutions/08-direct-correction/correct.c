/* Exercise 08.2: the sequential correction (b), the same with the velocity
 * step first (b'), and the simultaneous correction (c), each with the
 * minimum-norm Newton step (see README.md). */
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>

#include "ex08.h"

int ex08_correct(const ex08_constraints *c, ex08_scheme scheme, double tol, unsigned max_iter,
                 double q[], double qd[], ex08_report *rep)
{
    /* EXERCISE 08.2 BEGIN */
    const size_t n = c->n, m = c->m;
    if (n == 0 || m == 0 || m > n || c->phi == NULL || c->phi_q == NULL
        || (scheme != EX08_SEQUENTIAL && scheme != EX08_VELOCITY_FIRST
            && scheme != EX08_SIMULTANEOUS)
        || (scheme == EX08_SIMULTANEOUS && c->phidot_q == NULL) || !(tol > 0 && isfinite(tol))
        || max_iter == 0)
        return MBD_EINPUT;
    for (size_t i = 0; i < n; i++)
        if (!isfinite(q[i]) || !isfinite(qd[i]))
            return MBD_EINPUT;
    /* the work happens on a copy x = (q, q'): nothing is written unless it
     * succeeds */
    enum { POSITIONS, VELOCITIES, BOTH };
    int tasks[2], ntask = 0;
    if (scheme == EX08_SEQUENTIAL)
        tasks[ntask++] = POSITIONS, tasks[ntask++] = VELOCITIES;
    else if (scheme == EX08_VELOCITY_FIRST)
        tasks[ntask++] = VELOCITIES, tasks[ntask++] = POSITIONS;
    else
        tasks[ntask++] = BOTH;
    double *x = malloc(2 * n * sizeof *x), *f = malloc(m * sizeof *f);
    gsl_matrix *Jall = gsl_matrix_calloc(2 * m, 2 * n), *Gall = gsl_matrix_alloc(2 * m, 2 * m);
    gsl_matrix *Pq = gsl_matrix_alloc(m, n), *Pdq = gsl_matrix_alloc(m, n);
    gsl_vector *rall = gsl_vector_alloc(2 * m), *yall = gsl_vector_alloc(2 * m);
    gsl_vector *dall = gsl_vector_alloc(2 * n);
    int st = GSL_SUCCESS;
    unsigned steps = 0;
    if (!x || !f || !Jall || !Gall || !Pq || !Pdq || !rall || !yall || !dall) {
        st = GSL_ENOMEM;
        goto done;
    }
    for (size_t i = 0; i < n; i++)
        x[i] = q[i], x[n + i] = qd[i];
    gsl_vector_view xv = gsl_vector_view_array(x + n, n);
    for (int t = 0; t < ntask && st == GSL_SUCCESS; t++) {
        const int task = tasks[t];
        /* rows R and unknowns N of this task's step; the unknowns are x's
         * positions (POSITIONS), its velocities (VELOCITIES) or all of x */
        const size_t R = task == BOTH ? 2 * m : m, N = task == BOTH ? 2 * n : n;
        const size_t off = task == VELOCITIES ? n : 0;
        gsl_matrix_view J = gsl_matrix_submatrix(Jall, 0, 0, R, N);
        gsl_matrix_view G = gsl_matrix_submatrix(Gall, 0, 0, R, R);
        gsl_vector_view r = gsl_vector_subvector(rall, 0, R), y = gsl_vector_subvector(yall, 0, R);
        gsl_vector_view dx = gsl_vector_subvector(dall, 0, N);
        for (unsigned it = 0;; it++) {
            /* the residual: Phi (eq. 3), Phi_q q' (eq. 4) or both (eq. 21) */
            double size = 0.0;
            if (task == VELOCITIES && it == 1)
                break;   /* Phi_q q' is linear in q': one step is exact */
            if (task != VELOCITIES) {
                if ((st = c->phi(x, f, c->params)) != GSL_SUCCESS)
                    break;
                for (size_t i = 0; i < m; i++) {
                    gsl_vector_set(&r.vector, i, f[i]);
                    size = isfinite(f[i]) ? fmax(size, fabs(f[i])) : INFINITY;
                }
            }
            if (task != POSITIONS) {
                if ((st = c->phi_q(x, Pq, c->params)) != GSL_SUCCESS)
                    break;
                gsl_vector_view rv = gsl_vector_subvector(&r.vector, task == BOTH ? m : 0, m);
                gsl_blas_dgemv(CblasNoTrans, 1.0, Pq, &xv.vector, 0.0, &rv.vector);
                for (size_t i = 0; i < m; i++) {
                    const double ri = gsl_vector_get(&rv.vector, i);
                    size = isfinite(ri) ? fmax(size, fabs(ri)) : INFINITY;
                }
            }
            if (!isfinite(size)) {
                st = MBD_ENONFINITE;
                break;
            }
            if (task != VELOCITIES && size <= tol)
                break;
            if (task != VELOCITIES && it == max_iter) {
                st = MBD_ENOCONV;
                break;
            }
            /* the Jacobian of the residual in the task's unknowns */
            if (task == POSITIONS) {
                if ((st = c->phi_q(x, Pq, c->params)) != GSL_SUCCESS)
                    break;
                gsl_matrix_memcpy(&J.matrix, Pq);
            } else if (task == VELOCITIES) {
                gsl_matrix_memcpy(&J.matrix, Pq);
            } else {
                /* eq. 21: [Phi_q 0; Phidot_q Phi_q] */
                if ((st = c->phidot_q(x, x + n, Pdq, c->params)) != GSL_SUCCESS)
                    break;
                gsl_matrix_view b11 = gsl_matrix_submatrix(&J.matrix, 0, 0, m, n);
                gsl_matrix_view b12 = gsl_matrix_submatrix(&J.matrix, 0, n, m, n);
                gsl_matrix_view b21 = gsl_matrix_submatrix(&J.matrix, m, 0, m, n);
                gsl_matrix_view b22 = gsl_matrix_submatrix(&J.matrix, m, n, m, n);
                gsl_matrix_memcpy(&b11.matrix, Pq);
                gsl_matrix_set_zero(&b12.matrix);
                gsl_matrix_memcpy(&b21.matrix, Pdq);
                gsl_matrix_memcpy(&b22.matrix, Pq);
            }
            /* the minimum-norm step dx = -J^T (J J^T)^-1 r */
            gsl_blas_dgemm(CblasNoTrans, CblasTrans, 1.0, &J.matrix, &J.matrix, 0.0, &G.matrix);
            double gmax = 0.0;
            for (size_t i = 0; i < R; i++)
                gmax = fmax(gmax, gsl_matrix_get(&G.matrix, i, i));
            int singular = gsl_linalg_cholesky_decomp1(&G.matrix) != GSL_SUCCESS;
            for (size_t i = 0; i < R && !singular; i++) {
                const double l = gsl_matrix_get(&G.matrix, i, i);
                singular = !(l * l > 1e-12 * gmax);
            }
            if (singular) {
                st = MBD_ESINGULAR;
                break;
            }
            gsl_linalg_cholesky_solve(&G.matrix, &r.vector, &y.vector);
            gsl_blas_dgemv(CblasTrans, -1.0, &J.matrix, &y.vector, 0.0, &dx.vector);
            for (size_t i = 0; i < N; i++)
                x[off + i] += gsl_vector_get(&dx.vector, i);
            if (task != VELOCITIES)
                steps++;
        }
    }
    /* the violations at the state returned, evaluated there */
    double vphi = 0.0, vdot = 0.0;
    if (st == GSL_SUCCESS)
        st = c->phi(x, f, c->params);
    if (st == GSL_SUCCESS)
        st = c->phi_q(x, Pq, c->params);
    if (st == GSL_SUCCESS) {
        gsl_vector_view rv = gsl_vector_subvector(rall, 0, m);
        gsl_blas_dgemv(CblasNoTrans, 1.0, Pq, &xv.vector, 0.0, &rv.vector);
        for (size_t i = 0; i < m; i++) {
            vphi = fmax(vphi, fabs(f[i]));
            vdot = fmax(vdot, fabs(gsl_vector_get(&rv.vector, i)));
        }
        for (size_t i = 0; i < n; i++)
            q[i] = x[i], qd[i] = x[n + i];
        if (rep != NULL) {
            rep->iterations = steps;
            rep->phi = vphi;
            rep->phidot = vdot;
        }
    }
done:
    gsl_vector_free(dall);
    gsl_vector_free(yall);
    gsl_vector_free(rall);
    gsl_matrix_free(Pdq);
    gsl_matrix_free(Pq);
    gsl_matrix_free(Gall);
    gsl_matrix_free(Jall);
    free(f);
    free(x);
    return st;
    /* EXERCISE 08.2 STUB
    (void)c; (void)scheme; (void)tol; (void)max_iter; (void)q; (void)qd; (void)rep;
    EXERCISE 08.2 END */
}
