/* Planar bodies for chapter 06's exercise tests, written independently of the
 * code under test: points of bodies from their poses, bodies made of point
 * masses (their kinetic energy and their mass matrix by polarisation), the
 * pinned pendulum and the double pendulum of the chapter in reference
 * coordinates, and the augmented (KKT) solve that the embedded accelerations
 * are held against.
 */
#ifndef EX06_FIXTURE_H
#define EX06_FIXTURE_H

#include <math.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_math.h>
#include <gsl/gsl_matrix.h>

#include "ex06.h"

/* a value no function writes: outputs are filled with it to see what was
 * written (NaN) or what was left alone on an error (SENTINEL) */
#define FX_SENTINEL 12345.678

static inline void fx_fill(gsl_matrix *A, double v)
{
    gsl_matrix_set_all(A, v);
}

static inline int fx_all_equal(const double *x, size_t n, double v)
{
    for (size_t i = 0; i < n; i++)
        if (!(x[i] == v))
            return 0;
    return 1;
}

static inline int fx_matrix_all_equal(const gsl_matrix *A, double v)
{
    for (size_t i = 0; i < A->size1; i++)
        for (size_t j = 0; j < A->size2; j++)
            if (!(gsl_matrix_get(A, i, j) == v))
                return 0;
    return 1;
}

/* the global position of the body point u of a body at the pose q */
static inline void fx_point(const double q[3], const double u[2], double r[2])
{
    r[0] = q[0] + cos(q[2]) * u[0] - sin(q[2]) * u[1];
    r[1] = q[1] + sin(q[2]) * u[0] + cos(q[2]) * u[1];
}

/* ------------------------------------------------------------------------ */
/* Bodies of point masses                                                    */

#define FX_MAXPTS 6

typedef struct {
    size_t n;
    double mass[FX_MAXPTS];
    double pos[FX_MAXPTS][2];   /* in the body frame, from the reference point */
} fx_body;

/* the total mass, the centre of mass and the inertia about it */
static inline void fx_body_props(const fx_body *b, double *m, double uc[2], double *Jc)
{
    double s = 0, sx = 0, sy = 0;
    for (size_t k = 0; k < b->n; k++) {
        s += b->mass[k];
        sx += b->mass[k] * b->pos[k][0];
        sy += b->mass[k] * b->pos[k][1];
    }
    *m = s;
    uc[0] = sx / s;
    uc[1] = sy / s;
    double J = 0;
    for (size_t k = 0; k < b->n; k++) {
        const double dx = b->pos[k][0] - uc[0], dy = b->pos[k][1] - uc[1];
        J += b->mass[k] * (dx * dx + dy * dy);
    }
    *Jc = J;
}

/* the kinetic energy: the sum of (1/2) m_k |v_k|^2 over the point masses,
 * each point's velocity the derivative of its position R + A p along q' */
static inline double fx_body_kinetic(const fx_body *b, double theta, const double v[3])
{
    double T = 0;
    const double c = cos(theta), s = sin(theta);
    for (size_t k = 0; k < b->n; k++) {
        const double px = b->pos[k][0], py = b->pos[k][1];
        const double vx = v[0] + v[2] * (-s * px - c * py);
        const double vy = v[1] + v[2] * (c * px - s * py);
        T += 0.5 * b->mass[k] * (vx * vx + vy * vy);
    }
    return T;
}

/* M by polarisation of the kinetic energy */
static inline void fx_body_mass(const fx_body *b, double theta, double M[3][3])
{
    for (int i = 0; i < 3; i++) {
        double e[3] = {0, 0, 0};
        e[i] = 1;
        M[i][i] = 2 * fx_body_kinetic(b, theta, e);
    }
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            if (i != j) {
                double e[3] = {0, 0, 0};
                e[i] = e[j] = 1;
                M[i][j] = fx_body_kinetic(b, theta, e) - 0.5 * (M[i][i] + M[j][j]);
            }
}

/* Bodies: off-centre and irregular; a single point mass (J_c = 0); one whose
 * reference point is its centre of mass (u_c = 0) */
static const fx_body FX_BODIES[] = {
    {4, {0.7, 1.3, 0.4, 2.1}, {{0.3, -0.2}, {-0.5, 0.9}, {1.1, 0.4}, {0.2, -0.7}}},
    {3, {2.5, 0.6, 1.9}, {{-1.4, 0.35}, {0.8, 2.2}, {-0.6, -1.5}}},
    {1, {3.2}, {{0.45, -1.25}}},
    {4, {0.5, 0.5, 1.5, 1.5}, {{1.0, 0.0}, {-1.0, 0.0}, {0.0, 0.4}, {0.0, -0.4}}},
};
#define FX_NBODIES (sizeof FX_BODIES / sizeof FX_BODIES[0])

/* ------------------------------------------------------------------------ */
/* The pinned rod and the double pendulum                                    */

/* A uniform rod of mass m, length l, reference point at its centre, pinned at
 * its end u_P = (-l/2, 0) to the ground at the origin; q = (x, y, theta):
 * C = R + A u_P, C_q = [I, A_theta u_P], gamma = theta'^2 A u_P. */
static inline void fx_rod_jacobian(double l, double theta, gsl_matrix *Cq)
{
    const double ux = -0.5 * l;
    gsl_matrix_set(Cq, 0, 0, 1);
    gsl_matrix_set(Cq, 0, 1, 0);
    gsl_matrix_set(Cq, 0, 2, -sin(theta) * ux);
    gsl_matrix_set(Cq, 1, 0, 0);
    gsl_matrix_set(Cq, 1, 1, 1);
    gsl_matrix_set(Cq, 1, 2, cos(theta) * ux);
}

static inline void fx_rod_gamma(double l, double theta, double w, double g[2])
{
    const double ux = -0.5 * l;
    g[0] = w * w * cos(theta) * ux;
    g[1] = w * w * sin(theta) * ux;
}

/* Two uniform rods (m1, l1), (m2, l2), reference points at their centres;
 * rod 1 pinned at (-l1/2, 0) to the origin, rod 2's (-l2/2, 0) pinned to rod
 * 1's (l1/2, 0). q = (x1, y1, th1, x2, y2, th2), 4 constraints. */
typedef struct {
    double m1, l1, m2, l2;
} fx_dpend;

static inline void fx_dpend_jacobian(const fx_dpend *d, const double q[6], gsl_matrix *Cq)
{
    gsl_matrix_set_zero(Cq);
    const double s1 = sin(q[2]), c1 = cos(q[2]), s2 = sin(q[5]), c2 = cos(q[5]);
    /* ground pin: R1 + A1 (-l1/2, 0) */
    gsl_matrix_set(Cq, 0, 0, 1);
    gsl_matrix_set(Cq, 1, 1, 1);
    gsl_matrix_set(Cq, 0, 2, 0.5 * d->l1 * s1);
    gsl_matrix_set(Cq, 1, 2, -0.5 * d->l1 * c1);
    /* R1 + A1 (l1/2, 0) - R2 - A2 (-l2/2, 0) */
    gsl_matrix_set(Cq, 2, 0, 1);
    gsl_matrix_set(Cq, 3, 1, 1);
    gsl_matrix_set(Cq, 2, 2, -0.5 * d->l1 * s1);
    gsl_matrix_set(Cq, 3, 2, 0.5 * d->l1 * c1);
    gsl_matrix_set(Cq, 2, 3, -1);
    gsl_matrix_set(Cq, 3, 4, -1);
    gsl_matrix_set(Cq, 2, 5, -0.5 * d->l2 * s2);
    gsl_matrix_set(Cq, 3, 5, 0.5 * d->l2 * c2);
}

static inline void fx_dpend_gamma(const fx_dpend *d, const double q[6], const double v[6],
                                  double g[4])
{
    const double s1 = sin(q[2]), c1 = cos(q[2]), s2 = sin(q[5]), c2 = cos(q[5]);
    const double w1 = v[2] * v[2], w2 = v[5] * v[5];
    g[0] = -0.5 * d->l1 * c1 * w1;
    g[1] = -0.5 * d->l1 * s1 * w1;
    g[2] = 0.5 * d->l1 * c1 * w1 + 0.5 * d->l2 * c2 * w2;
    g[3] = 0.5 * d->l1 * s1 * w1 + 0.5 * d->l2 * s2 * w2;
}

/* the consistent pose for the angles th1, th2 */
static inline void fx_dpend_pose(const fx_dpend *d, double th1, double th2, double q[6])
{
    q[0] = 0.5 * d->l1 * cos(th1);
    q[1] = 0.5 * d->l1 * sin(th1);
    q[2] = th1;
    q[3] = d->l1 * cos(th1) + 0.5 * d->l2 * cos(th2);
    q[4] = d->l1 * sin(th1) + 0.5 * d->l2 * sin(th2);
    q[5] = th2;
}

/* ------------------------------------------------------------------------ */
/* The augmented system, solved here                                         */

/* [M C_q^T; C_q 0] [q''; lambda] = [F; gamma] by LU; 0 on success */
static inline int fx_kkt(const gsl_matrix *M, const gsl_matrix *Cq, const double F[],
                         const double gamma[], double qdd[], double lambda[])
{
    const size_t n = M->size1, m = Cq->size1, N = n + m;
    gsl_matrix *K = gsl_matrix_calloc(N, N);
    gsl_vector *b = gsl_vector_alloc(N);
    gsl_permutation *p = gsl_permutation_alloc(N);
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < n; j++)
            gsl_matrix_set(K, i, j, gsl_matrix_get(M, i, j));
        gsl_vector_set(b, i, F[i]);
    }
    for (size_t i = 0; i < m; i++) {
        for (size_t j = 0; j < n; j++) {
            gsl_matrix_set(K, n + i, j, gsl_matrix_get(Cq, i, j));
            gsl_matrix_set(K, j, n + i, gsl_matrix_get(Cq, i, j));
        }
        gsl_vector_set(b, n + i, gamma[i]);
    }
    int sg;
    int st = gsl_linalg_LU_decomp(K, p, &sg);
    if (st == GSL_SUCCESS)
        st = gsl_linalg_LU_svx(K, p, b);
    for (size_t i = 0; i < n; i++)
        qdd[i] = gsl_vector_get(b, i);
    if (lambda != NULL)
        for (size_t i = 0; i < m; i++)
            lambda[i] = gsl_vector_get(b, n + i);
    gsl_permutation_free(p);
    gsl_vector_free(b);
    gsl_matrix_free(K);
    return st;
}

#endif
