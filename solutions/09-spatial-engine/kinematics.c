/* Exercise 09.3: one step of the kinematics analysis of a fully driven
 * spatial model -- Newton on the positions, then the velocities and the
 * accelerations (see README.md). */
#include <math.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_permutation.h>

#include "ex09.h"

int ex09_kinematics_step(const mbd_spatial_model *sm, double t, double tol, unsigned max_iter,
                         gsl_vector *q, gsl_vector *qd, gsl_vector *qdd, unsigned *iterations)
{
    /* EXERCISE 09.3 BEGIN */
    if (sm == NULL || q == NULL || qd == NULL || qdd == NULL)
        return MBD_EINPUT;
    const mbd_system *s = mbd_spatial_system(sm);
    if (s == NULL || s->m != s->n || !isfinite(t) || !(tol > 0 && isfinite(tol))
        || max_iter == 0)
        return MBD_EINPUT;
    const size_t n = s->n;
    if (q->size != n || qd->size != n || qdd->size != n)
        return GSL_EBADLEN;
    for (size_t i = 0; i < n; i++)
        if (!isfinite(gsl_vector_get(q, i)))
            return MBD_EINPUT;
    /* the work is done on copies: nothing is written unless all of it works */
    gsl_vector *x = gsl_vector_alloc(n), *C = gsl_vector_alloc(n), *dx = gsl_vector_alloc(n);
    gsl_vector *v = gsl_vector_alloc(n), *a = gsl_vector_alloc(n), *rhs = gsl_vector_alloc(n);
    gsl_matrix *Cq = gsl_matrix_alloc(n, n), *LU = gsl_matrix_alloc(n, n);
    gsl_permutation *perm = gsl_permutation_alloc(n);
    int st = GSL_SUCCESS;
    unsigned it = 0;
    if (!x || !C || !dx || !v || !a || !rhs || !Cq || !LU || !perm) {
        st = GSL_ENOMEM;
        goto done;
    }
    gsl_vector_memcpy(x, q);
    for (;; it++) {
        /* the residual of eq. 12 */
        if ((st = s->constraint(s, t, x, C)) != GSL_SUCCESS)
            break;
        double size = 0.0;
        for (size_t i = 0; i < n; i++) {
            const double c = fabs(gsl_vector_get(C, i));
            size = isnan(c) ? INFINITY : fmax(size, c);
        }
        /* Phi_q at this q and its LU factors: for the Newton step, or, once
         * converged, for the velocity and acceleration solves */
        if ((st = s->jacobian(s, t, x, Cq)) != GSL_SUCCESS)
            break;
        double cmax = 0.0;
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j < n; j++)
                cmax = fmax(cmax, fabs(gsl_matrix_get(Cq, i, j)));
        gsl_matrix_memcpy(LU, Cq);
        int signum;
        gsl_linalg_LU_decomp(LU, perm, &signum);
        int singular = 0;
        for (size_t k = 0; k < n; k++)
            singular = singular || !(fabs(gsl_matrix_get(LU, k, k)) > 1e-12 * cmax);
        if (singular) {
            st = MBD_ESINGULAR;
            break;
        }
        if (size <= tol)
            break;
        if (it == max_iter) {
            st = MBD_ENOCONV;
            break;
        }
        /* Phi_q dq = -Phi */
        gsl_vector_memcpy(rhs, C);
        gsl_vector_scale(rhs, -1.0);
        gsl_linalg_LU_solve(LU, perm, rhs, dx);
        gsl_vector_add(x, dx);
    }
    if (st != GSL_SUCCESS)
        goto done;
    /* eq. 13: Phi_q q' = nu = -Phi_t */
    if (s->constraint_t != NULL) {
        if ((st = s->constraint_t(s, t, x, rhs)) != GSL_SUCCESS)
            goto done;
        gsl_vector_scale(rhs, -1.0);
    } else {
        gsl_vector_set_zero(rhs);
    }
    gsl_linalg_LU_solve(LU, perm, rhs, v);
    /* eq. 14: Phi_q q'' = gamma(q, q', t) */
    if ((st = s->gamma(s, t, x, v, rhs)) != GSL_SUCCESS)
        goto done;
    gsl_linalg_LU_solve(LU, perm, rhs, a);
    gsl_vector_memcpy(q, x);
    gsl_vector_memcpy(qd, v);
    gsl_vector_memcpy(qdd, a);
    if (iterations != NULL)
        *iterations = it;
done:
    gsl_permutation_free(perm);
    gsl_matrix_free(LU);
    gsl_matrix_free(Cq);
    gsl_vector_free(rhs);
    gsl_vector_free(a);
    gsl_vector_free(v);
    gsl_vector_free(dx);
    gsl_vector_free(C);
    gsl_vector_free(x);
    return st;
    /* EXERCISE 09.3 STUB
    (void)sm; (void)t; (void)tol; (void)max_iter; (void)q; (void)qd; (void)qdd; (void)iterations;
    EXERCISE 09.3 END */
}
