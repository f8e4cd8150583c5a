/* The null-space module (QR with column pivoting of C_q^T: rank, monitor,
 * basis, procrustes, skew update) and the null-space formulation built on
 * it (document 002; the reading guide seed-notes/002, "the guide").
 *
 * Mechanisms, built with planar.h (the guide's Sec. 3 geometry: bars of 1 m,
 * 1 kg, J = 1/12 kg m^2, ground pivots at x = 0, 1, 2, 3 on y = 0, cranks
 * vertical at theta = pi/2 and couplers horizontal at y = 1, gravity -y):
 *   fourbar   3 bars, n = 9, m = 8 (m < n)
 *   double    the "2 4-bar": 5 bars, couplers 2 and 4 pinned at D, n = 15, m = 14
 *   mod2      the modified 2 4-bar: one coupler of 2 m (2 kg, J = 2/3) on three
 *             cranks, n = m = 12 (redundant)
 *   mod3      the modified 3 4-bar: one coupler of 3 m (3 kg, J = 2.25) on four
 *             cranks, n = 15, m = 16 (m > n, redundant)
 *   chain     a double pendulum of two bars (n = 6, m = 4, two degrees of freedom)
 *   driven    a bar hung from a slider driven along x (rheonomic, one dof)
 * All the parallelograms move as one crank angle theta with
 * J theta'' = -K g cos theta (the guide's Sec. 8: J = 5/3, K = 2 for the
 * four-bar; 3, 3.5 for the 2 4-bar and mod2; 13/3, 5 for mod3).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_blas.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_odeiv2.h>
#include <gsl/gsl_rng.h>

#include "check.h"
#include "mbd/formulation.h"
#include "mbd/nullspace.h"
#include "mbd/planar.h"
#include "mbd/simulate.h"

static const double PI = 3.14159265358979323846;
static const double G = 9.81;

/* ------------------------------------------------------------------------ */
/* The parallelogram mechanisms                                              */

typedef enum { FOURBAR, DOUBLE, MOD2, MOD3 } family;

typedef struct {
    mbd_planar_model *pm;
    const mbd_system *s;
    size_t n, m;
    int ncrank;
    int crank[4];               /* body indices of the cranks (pivots at x = 0, 1, 2, 3) */
    int coupler[2];             /* body indices of the couplers */
    int ncoupler;
    double J, K;                /* the reduced equation J theta'' = -K g cos theta */
} mech;

static const double LEFT[2] = {-0.5, 0.0}, RIGHT[2] = {0.5, 0.0};

static int crank_at(mech *k, int ground, double x, int label)
{
    const int b = mbd_planar_add_body(k->pm, label, 1.0, 1.0 / 12.0, NULL);
    const double pin[2] = {x, 0.0};
    mbd_planar_add_revolute(k->pm, ground, pin, b, LEFT);
    return b;
}

static void mech_build(mech *k, family fam)
{
    memset(k, 0, sizeof *k);
    k->pm = mbd_planar_alloc();
    mbd_planar_model *pm = k->pm;
    const int g = mbd_planar_add_ground(pm, 0);
    mbd_planar_set_gravity(pm, 0.0, -G);
    if (fam == FOURBAR || fam == DOUBLE) {
        k->crank[0] = crank_at(k, g, 0.0, 1);
        k->coupler[0] = mbd_planar_add_body(pm, 2, 1.0, 1.0 / 12.0, NULL);
        k->crank[1] = crank_at(k, g, 1.0, 3);
        mbd_planar_add_revolute(pm, k->crank[0], RIGHT, k->coupler[0], LEFT);   /* B */
        mbd_planar_add_revolute(pm, k->coupler[0], RIGHT, k->crank[1], RIGHT);  /* D */
        k->ncrank = 2;
        k->ncoupler = 1;
        k->J = 5.0 / 3.0;
        k->K = 2.0;
        if (fam == DOUBLE) {
            k->coupler[1] = mbd_planar_add_body(pm, 4, 1.0, 1.0 / 12.0, NULL);
            k->crank[2] = crank_at(k, g, 2.0, 5);
            mbd_planar_add_revolute(pm, k->coupler[0], RIGHT, k->coupler[1], LEFT);  /* D */
            mbd_planar_add_revolute(pm, k->coupler[1], RIGHT, k->crank[2], RIGHT);   /* F */
            k->ncrank = 3;
            k->ncoupler = 2;
            k->J = 3.0;
            k->K = 3.5;
        }
    } else {
        const int ncr = fam == MOD2 ? 3 : 4;
        const double L = ncr - 1.0;
        k->crank[0] = crank_at(k, g, 0.0, 1);
        k->coupler[0] = mbd_planar_add_body(pm, 2, L, L * L * L / 12.0, NULL);
        for (int c = 1; c < ncr; c++)
            k->crank[c] = crank_at(k, g, (double)c, 2 + c);
        for (int c = 0; c < ncr; c++) {
            const double at[2] = {-0.5 * L + c, 0.0};
            mbd_planar_add_revolute(pm, k->crank[c], RIGHT, k->coupler[0], at);
        }
        k->ncrank = ncr;
        k->ncoupler = 1;
        k->J = fam == MOD2 ? 3.0 : 13.0 / 3.0;
        k->K = fam == MOD2 ? 3.5 : 5.0;
    }
    mbd_planar_finish(pm);
    k->s = mbd_planar_system(pm);
    k->n = k->s->n;
    k->m = k->s->m;
}

/* the parallelogram at crank angle th and crank speed w */
static void mech_state(const mech *k, double th, double w, gsl_vector *q, gsl_vector *qd)
{
    const double c = cos(th), s = sin(th);
    for (int i = 0; i < k->ncrank; i++) {
        mbd_planar_set_pose(k->pm, k->crank[i], i + 0.5 * c, 0.5 * s, th, q);
        if (qd)
            mbd_planar_set_velocity(k->pm, k->crank[i], -0.5 * w * s, 0.5 * w * c, w, qd);
    }
    /* couplers: the first starts at the first crank's tip */
    double x0 = c;
    for (int j = 0; j < k->ncoupler; j++) {
        const double L = k->ncoupler == 1 ? (double)(k->ncrank - 1) : 1.0;
        mbd_planar_set_pose(k->pm, k->coupler[j], x0 + 0.5 * L, s, 0.0, q);
        if (qd)
            mbd_planar_set_velocity(k->pm, k->coupler[j], -w * s, w * c, 0.0, qd);
        x0 += L;
    }
}

static double crank_angle(const mech *k, const double q[])
{
    size_t first = 0;
    mbd_planar_body_coordinates(k->pm, k->crank[0], &first);
    return q[first + 2];
}

static void mech_free(mech *k) { mbd_planar_free(k->pm); }

static double max_abs_matrix(const gsl_matrix *A)
{
    double x = 0.0;
    for (size_t i = 0; i < A->size1; i++)
        for (size_t j = 0; j < A->size2; j++)
            x = fmax(x, fabs(gsl_matrix_get(A, i, j)));
    return x;
}

/* |C_q T|_max and |T^T T - I|_max for the basis of rank r at q */
static void basis_errors(const mech *k, mbd_nullspace *ns, const gsl_vector *q, double tol,
                         size_t *dof, double *ct, double *orth)
{
    gsl_matrix *Cq = gsl_matrix_alloc(k->m, k->n);
    k->s->jacobian(k->s, 0.0, q, Cq);
    REQUIRE_STATUS(mbd_nullspace_factor(ns, Cq), GSL_SUCCESS);
    const size_t r = mbd_nullspace_rank(ns, tol);
    *dof = k->n - r;
    gsl_matrix *T = gsl_matrix_alloc(k->n, *dof);
    gsl_matrix *CT = gsl_matrix_alloc(k->m, *dof);
    gsl_matrix *TT = gsl_matrix_alloc(*dof, *dof);
    mbd_nullspace_basis(ns, r, T);
    gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, Cq, T, 0.0, CT);
    gsl_blas_dgemm(CblasTrans, CblasNoTrans, 1.0, T, T, 0.0, TT);
    for (size_t i = 0; i < *dof; i++)
        *gsl_matrix_ptr(TT, i, i) -= 1.0;
    *ct = max_abs_matrix(CT);
    *orth = max_abs_matrix(TT);
    gsl_matrix_free(Cq);
    gsl_matrix_free(T);
    gsl_matrix_free(CT);
    gsl_matrix_free(TT);
}

/* ------------------------------------------------------------------------ */
/* The module                                                                */

/* Table 5.1 (m, n, d) and the degrees of freedom, regular and at the
 * horizontal (the guide's Sec. 8 census): 4-bar 1 -> 2, 2 4-bar 1 -> 3. */
static void rank_census(void)
{
    const struct {
        family fam;
        size_t m, n, d, dof, d_h, dof_h;
    } rows[] = {
        {FOURBAR, 8, 9, 0, 1, 1, 2},
        {DOUBLE, 14, 15, 0, 1, 2, 3},
        {MOD2, 12, 12, 1, 1, 2, 2},
        {MOD3, 16, 15, 1, 1, 2, 2},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        mech k;
        mech_build(&k, rows[i].fam);
        CU_ASSERT_EQUAL(k.m, rows[i].m);
        CU_ASSERT_EQUAL(k.n, rows[i].n);
        mbd_nullspace *ns = mbd_nullspace_alloc(k.n, k.m);
        gsl_vector *q = gsl_vector_calloc(k.n);
        gsl_matrix *Cq = gsl_matrix_alloc(k.m, k.n);
        const double angles[] = {PI / 2, PI / 3, 2.0};
        for (size_t a = 0; a < 3; a++) {
            mech_state(&k, angles[a], 0.0, q, NULL);
            k.s->jacobian(k.s, 0.0, q, Cq);
            mbd_nullspace_factor(ns, Cq);
            CHECK_MSG(mbd_nullspace_deficiency(ns, 0) == rows[i].d,
                      "case %zu: d = %zu at theta = %g", i, mbd_nullspace_deficiency(ns, 0),
                      angles[a]);
            CU_ASSERT_EQUAL(mbd_nullspace_dof(ns, 0), rows[i].dof);
        }
        mech_state(&k, PI, 0.0, q, NULL);                /* all bars horizontal */
        k.s->jacobian(k.s, 0.0, q, Cq);
        mbd_nullspace_factor(ns, Cq);
        CHECK_MSG(mbd_nullspace_deficiency(ns, 0) == rows[i].d_h, "case %zu: d = %zu at pi", i,
                  mbd_nullspace_deficiency(ns, 0));
        CU_ASSERT_EQUAL(mbd_nullspace_dof(ns, 0), rows[i].dof_h);
        /* the monitor: the last d_h - d entries collapse (|R_ii| < 1e-10 |R_11|) */
        double diag[16];
        const size_t p = mbd_nullspace_monitor(ns, diag);
        CU_ASSERT_EQUAL(p, k.m < k.n ? k.m : k.n);
        size_t tiny = 0;
        for (size_t j = 0; j < p; j++) {
            tiny += diag[j] < 1e-10 * diag[0];
            if (j > 0)
                CU_ASSERT(diag[j] <= diag[j - 1]);
        }
        CU_ASSERT_EQUAL(tiny, rows[i].d_h);
        gsl_vector_free(q);
        gsl_matrix_free(Cq);
        mbd_nullspace_free(ns);
        mech_free(&k);
    }
}

/* The guide's Sec. 8: prod |R_ii| = sqrt(det A A^T) = sqrt(3.5) |sin theta|
 * for the four-bar (permutation-invariant), 1e-10 relative; and the
 * singularity ratio of the last diagonal falls linearly to the horizontal. */
static void fourbar_monitor(void)
{
    mech k;
    mech_build(&k, FOURBAR);
    mbd_nullspace *ns = mbd_nullspace_alloc(k.n, k.m);
    gsl_vector *q = gsl_vector_calloc(k.n);
    gsl_matrix *Cq = gsl_matrix_alloc(k.m, k.n);
    const double angles[] = {PI / 2, PI / 3, PI / 4, 2.5};
    for (size_t a = 0; a < 4; a++) {
        mech_state(&k, angles[a], 0.0, q, NULL);
        k.s->jacobian(k.s, 0.0, q, Cq);
        mbd_nullspace_factor(ns, Cq);
        double diag[8], prod = 1.0;
        mbd_nullspace_monitor(ns, diag);
        for (size_t j = 0; j < 8; j++)
            prod *= diag[j];
        CHECK_REL(prod, sqrt(3.5) * fabs(sin(angles[a])), 1e-10);
    }
    /* near the horizontal |R_88| / |R_11| ~ c |dtheta|: halving dtheta halves it */
    double s[2];
    for (int i = 0; i < 2; i++) {
        mech_state(&k, PI - 1e-3 / (1 << i), 0.0, q, NULL);
        k.s->jacobian(k.s, 0.0, q, Cq);
        mbd_nullspace_factor(ns, Cq);
        s[i] = mbd_nullspace_ratio(ns, 8);
    }
    CHECK_IN(s[0] / s[1], 1.95, 2.05);
    CHECK_LE(s[0], 1e-3);
    gsl_vector_free(q);
    gsl_matrix_free(Cq);
    mbd_nullspace_free(ns);
    mech_free(&k);
}

/* C_q T = 0 and T^T T = I at random states (random angles, and random q
 * off the constraints: the basis is of C_q wherever it is evaluated), for
 * m < n, m = n and m > n, and the enlarged basis at the horizontal; there
 * the four-bar's basis spans the guide's two modes (parallelogram and
 * folding about A = D). */
static void basis_properties(void)
{
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 17);
    const family fams[] = {FOURBAR, DOUBLE, MOD2, MOD3};
    for (size_t i = 0; i < 4; i++) {
        mech k;
        mech_build(&k, fams[i]);
        mbd_nullspace *ns = mbd_nullspace_alloc(k.n, k.m);
        gsl_vector *q = gsl_vector_calloc(k.n);
        size_t dof = 0;
        double ct = 0, orth = 0;
        for (int trial = 0; trial < 10; trial++) {
            mech_state(&k, 0.2 + 2.7 * gsl_rng_uniform(rng), 0.0, q, NULL);
            basis_errors(&k, ns, q, 0, &dof, &ct, &orth);
            CU_ASSERT_EQUAL(dof, fams[i] == FOURBAR || fams[i] == DOUBLE ? 1u : 1u);
            CHECK_LE(ct, 1e-13);
            CHECK_LE(orth, 1e-13);
        }
        if (fams[i] == FOURBAR || fams[i] == DOUBLE) {
            for (int trial = 0; trial < 5; trial++) {       /* anywhere: full row rank */
                for (size_t j = 0; j < k.n; j++)
                    gsl_vector_set(q, j, 4.0 * gsl_rng_uniform(rng) - 2.0);
                basis_errors(&k, ns, q, 0, &dof, &ct, &orth);
                CU_ASSERT_EQUAL(dof, k.n - k.m);
                CHECK_LE(ct, 1e-12);
                CHECK_LE(orth, 1e-13);
            }
        }
        mech_state(&k, PI, 0.0, q, NULL);
        basis_errors(&k, ns, q, 0, &dof, &ct, &orth);
        CU_ASSERT_EQUAL(dof, fams[i] == DOUBLE ? 3u : 2u);
        CHECK_LE(ct, 1e-13);
        CHECK_LE(orth, 1e-13);
        if (fams[i] == FOURBAR) {
            /* per bar (x', y', theta'): parallelogram (0,-.5,1),(0,-1,0),(0,-.5,1);
             * folding (0,-.5,1),(0,-.5,1),(0,0,0): both in the span of T */
            const double modes[2][9] = {{0, -0.5, 1, 0, -1, 0, 0, -0.5, 1},
                                        {0, -0.5, 1, 0, -0.5, 1, 0, 0, 0}};
            gsl_matrix *Cq = gsl_matrix_alloc(k.m, k.n);
            gsl_matrix *T = gsl_matrix_alloc(k.n, 2);
            k.s->jacobian(k.s, 0.0, q, Cq);
            mbd_nullspace_factor(ns, Cq);
            mbd_nullspace_basis(ns, mbd_nullspace_rank(ns, 0), T);
            for (int md = 0; md < 2; md++) {
                gsl_vector_const_view u = gsl_vector_const_view_array(modes[md], 9);
                double c[2] = {0, 0}, uu = 0, cc = 0;
                for (size_t a = 0; a < 9; a++) {
                    uu += modes[md][a] * modes[md][a];
                    for (int b = 0; b < 2; b++)
                        c[b] += gsl_matrix_get(T, a, b) * gsl_vector_get(&u.vector, a);
                }
                cc = c[0] * c[0] + c[1] * c[1];
                CHECK_CLOSE(cc / uu, 1.0, 1e-12);   /* cos^2 of the principal angle */
            }
            gsl_matrix_free(Cq);
            gsl_matrix_free(T);
        }
        gsl_vector_free(q);
        mbd_nullspace_free(ns);
        mech_free(&k);
    }
    gsl_rng_free(rng);
}

/* procrustes recovers a basis turned inside its span (and a sign), the jump
 * rule tells a flip from a continuous change */
static void procrustes_and_jumps(void)
{
    const size_t n = 5, k = 3;
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 3);
    gsl_matrix *A = gsl_matrix_alloc(n, n), *Tref = gsl_matrix_alloc(n, k);
    gsl_matrix *T = gsl_matrix_alloc(n, k), *U = gsl_matrix_alloc(k, k);
    gsl_vector *tau = gsl_vector_alloc(n);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            gsl_matrix_set(A, i, j, gsl_rng_uniform(rng) - 0.5);
    gsl_matrix *Q = gsl_matrix_alloc(n, n), *R = gsl_matrix_alloc(n, n);
    gsl_linalg_QR_decomp(A, tau);
    gsl_linalg_QR_unpack(A, tau, Q, R);
    gsl_matrix_const_view Qk = gsl_matrix_const_submatrix(Q, 0, 0, n, k);
    gsl_matrix_memcpy(Tref, &Qk.matrix);
    /* U: a rotation by 0.7 in the (0, 1) plane and a reflection of column 2 */
    gsl_matrix_set_zero(U);
    gsl_matrix_set(U, 0, 0, cos(0.7));
    gsl_matrix_set(U, 0, 1, -sin(0.7));
    gsl_matrix_set(U, 1, 0, sin(0.7));
    gsl_matrix_set(U, 1, 1, cos(0.7));
    gsl_matrix_set(U, 2, 2, -1.0);
    gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, Tref, U, 0.0, T);
    CU_ASSERT_EQUAL(mbd_nullspace_jump(Tref, T), 1);
    mbd_nullspace *ns = mbd_nullspace_alloc(n, 2);
    double smin = 0.0;
    REQUIRE_STATUS(mbd_nullspace_procrustes(ns, Tref, T, &smin), GSL_SUCCESS);
    gsl_matrix_sub(T, Tref);
    CHECK_LE(max_abs_matrix(T), 1e-14);
    CHECK_CLOSE(smin, 1.0, 1e-14);
    gsl_matrix_add(T, Tref);
    CU_ASSERT_EQUAL(mbd_nullspace_jump(Tref, T), 0);
    /* a small turn is no jump, a 70 degree one is */
    gsl_matrix_set(U, 0, 0, cos(0.01));
    gsl_matrix_set(U, 0, 1, -sin(0.01));
    gsl_matrix_set(U, 1, 0, sin(0.01));
    gsl_matrix_set(U, 1, 1, cos(0.01));
    gsl_matrix_set(U, 2, 2, 1.0);
    gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, Tref, U, 0.0, T);
    CU_ASSERT_EQUAL(mbd_nullspace_jump(Tref, T), 0);
    gsl_matrix_set(U, 0, 0, cos(1.22));
    gsl_matrix_set(U, 0, 1, -sin(1.22));
    gsl_matrix_set(U, 1, 0, sin(1.22));
    gsl_matrix_set(U, 1, 1, cos(1.22));
    gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, Tref, U, 0.0, T);
    CU_ASSERT_EQUAL(mbd_nullspace_jump(Tref, T), 1);
    mbd_nullspace_free(ns);
    gsl_matrix_free(A);
    gsl_matrix_free(Tref);
    gsl_matrix_free(T);
    gsl_matrix_free(U);
    gsl_matrix_free(Q);
    gsl_matrix_free(R);
    gsl_vector_free(tau);
    gsl_rng_free(rng);
}

/* The skew update (eqs. 4.10-4.14 with 4.27's Omega_ns): Omega is skew, its
 * T-T block zero, and the predicted basis of the four-bar (m < n) and of
 * mod3 (m > n) after h is the true one (aligned fresh basis there) to
 * second order: the error shrinks about 4x when h halves, and is far below
 * the basis' own change. A' from finite differences of C_q. */
static void skew_update_predicts(void)
{
    const family fams[] = {FOURBAR, MOD3};
    for (size_t c = 0; c < 2; c++) {
        mech k;
        mech_build(&k, fams[c]);
        const size_t n = k.n, m = k.m;
        mbd_nullspace *ns = mbd_nullspace_alloc(n, m);
        gsl_vector *q = gsl_vector_calloc(n), *qd = gsl_vector_calloc(n), *qp = gsl_vector_calloc(n);
        gsl_matrix *Cq = gsl_matrix_alloc(m, n), *Cp = gsl_matrix_alloc(m, n);
        gsl_matrix *Ad = gsl_matrix_alloc(m, n), *Om = gsl_matrix_alloc(n, n);
        gsl_matrix *Q0 = gsl_matrix_alloc(n, n), *T0 = gsl_matrix_alloc(n, 1);
        gsl_matrix *Tp = gsl_matrix_alloc(n, 1), *Th = gsl_matrix_alloc(n, 1);
        const double th0 = 1.1, w = 3.0;
        mech_state(&k, th0, w, q, qd);
        /* A' by central differences along the motion (theta +- eps) */
        const double eps = 1e-6;
        mech_state(&k, th0 + eps, w, qp, NULL);
        k.s->jacobian(k.s, 0.0, qp, Cp);
        mech_state(&k, th0 - eps, w, qp, NULL);
        k.s->jacobian(k.s, 0.0, qp, Ad);
        gsl_matrix_sub(Cp, Ad);
        gsl_matrix_memcpy(Ad, Cp);
        gsl_matrix_scale(Ad, w / (2 * eps));
        k.s->jacobian(k.s, 0.0, q, Cq);
        mbd_nullspace_factor(ns, Cq);
        const size_t r = mbd_nullspace_rank(ns, 0);
        CU_ASSERT_EQUAL(r, n - 1);
        mbd_nullspace_basis(ns, r, T0);
        mbd_nullspace_q(ns, Q0);
        REQUIRE_STATUS(mbd_nullspace_omega(ns, r, T0, Ad, Om), GSL_SUCCESS);
        double skew = 0.0;
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j < n; j++)
                skew = fmax(skew, fabs(gsl_matrix_get(Om, i, j) + gsl_matrix_get(Om, j, i)));
        CHECK_LE(skew, 1e-12);
        CU_ASSERT_EQUAL(gsl_matrix_get(Om, n - 1, n - 1), 0.0);
        CU_ASSERT(max_abs_matrix(Om) > 0.1);
        double err[2], move = 0.0;
        for (int i = 0; i < 2; i++) {
            const double h = 2e-3 / (1 << i);
            mech_state(&k, th0 + w * h, w, qp, NULL);    /* theta is linear in t here */
            k.s->jacobian(k.s, 0.0, qp, Cp);
            mbd_nullspace_factor(ns, Cp);
            mbd_nullspace_basis(ns, r, Th);
            mbd_nullspace_procrustes(ns, T0, Th, NULL);  /* the true basis at t + h */
            mbd_nullspace_predict(ns, Q0, Om, h, Tp);
            gsl_matrix_sub(Tp, Th);
            err[i] = max_abs_matrix(Tp);
            if (i == 0) {
                gsl_matrix_sub(Th, T0);
                move = max_abs_matrix(Th);
            }
        }
        CHECK_MSG(err[0] / err[1] > 3.0, "case %zu: prediction errors %g, %g not second order",
                  c, err[0], err[1]);
        CHECK_LE(err[0], 0.01 * move);
        gsl_matrix *mats[] = {Cq, Cp, Ad, Om, Q0, T0, Tp, Th};
        for (size_t i = 0; i < 8; i++)
            gsl_matrix_free(mats[i]);
        gsl_vector_free(q);
        gsl_vector_free(qd);
        gsl_vector_free(qp);
        mbd_nullspace_free(ns);
        mech_free(&k);
    }
}

/* ------------------------------------------------------------------------ */
/* The formulation                                                           */

static mbd_formulation *nullspace_alloc(const mbd_system *s, mbd_nullspace_continuation c)
{
    mbd_formulation_params p = {0};
    if (mbd_formulation_method("nullspace", &p) != GSL_SUCCESS)
        return NULL;
    p.continuation = c;
    return mbd_formulation_alloc(s, &p);
}

/* q'' of the projected equations against the projection formulation's
 * (m < n) at random regular states, 1e-10; for the redundant mechanisms
 * (m = n, m > n, where the Schur complement is singular) against the
 * reduced equation's theta'' and through M q'' + C_q^T lambda = F. */
static void accelerations(void)
{
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 5);
    const family fams[] = {FOURBAR, DOUBLE, MOD2, MOD3};
    for (size_t c = 0; c < 4; c++) {
        mech k;
        mech_build(&k, fams[c]);
        const size_t n = k.n, m = k.m;
        mbd_formulation *f = nullspace_alloc(k.s, 0);
        REQUIRE_STATUS(f != NULL, 1);
        mbd_formulation_params pp = {0};
        mbd_formulation_method("projection", &pp);
        mbd_formulation *proj = m < n ? mbd_formulation_alloc(k.s, &pp) : NULL;
        gsl_vector *q = gsl_vector_calloc(n), *qd = gsl_vector_calloc(n);
        gsl_vector *a1 = gsl_vector_calloc(n), *a2 = gsl_vector_calloc(n);
        gsl_vector *lam = gsl_vector_calloc(m), *res = gsl_vector_calloc(n);
        gsl_matrix *M = gsl_matrix_alloc(n, n), *Cq = gsl_matrix_alloc(m, n);
        for (int trial = 0; trial < 8; trial++) {
            const double th = 0.3 + 2.5 * gsl_rng_uniform(rng), w = 8 * gsl_rng_uniform(rng) - 4;
            mech_state(&k, th, w, q, qd);
            REQUIRE_STATUS(mbd_formulation_accel(f, 0.0, q, qd, a1, lam), GSL_SUCCESS);
            if (proj) {
                REQUIRE_STATUS(mbd_formulation_accel(proj, 0.0, q, qd, a2, NULL), GSL_SUCCESS);
                for (size_t i = 0; i < n; i++)
                    CHECK_CLOSE(gsl_vector_get(a1, i), gsl_vector_get(a2, i), 1e-10);
            }
            size_t first = 0;
            mbd_planar_body_coordinates(k.pm, k.crank[0], &first);
            CHECK_CLOSE(gsl_vector_get(a1, first + 2), -k.K * G * cos(th) / k.J, 1e-10);
            /* M q'' + C_q^T lambda = F */
            k.s->mass(k.s, 0.0, q, M);
            k.s->force(k.s, 0.0, q, qd, res);
            k.s->jacobian(k.s, 0.0, q, Cq);
            gsl_blas_dgemv(CblasNoTrans, -1.0, M, a1, 1.0, res);
            gsl_blas_dgemv(CblasTrans, -1.0, Cq, lam, 1.0, res);
            for (size_t i = 0; i < n; i++)
                CHECK_CLOSE(gsl_vector_get(res, i), 0.0, 1e-10);
        }
        gsl_vector_free(q);
        gsl_vector_free(qd);
        gsl_vector_free(a1);
        gsl_vector_free(a2);
        gsl_vector_free(lam);
        gsl_vector_free(res);
        gsl_matrix_free(M);
        gsl_matrix_free(Cq);
        mbd_formulation_free(f);
        mbd_formulation_free(proj);
        mech_free(&k);
    }
    gsl_rng_free(rng);
}

/* A run: classical RK4 at a fixed step through the formulation's
 * right-hand side and post-step (the run loop's contract: post-step after
 * every accepted step, history reset when it changed y -- RK4 has none),
 * recording per step what the tests look at. */
typedef struct {
    size_t steps;
    double *t, *theta, *z, *v;   /* per step end (k = 1 entries) */
    double **q;                  /* positions per step end */
    double maxdv, maxdE, E0;
    double v0;
} run_rec;

static int rk4_run(mbd_formulation *f, const mech *k, double th0, double w0, double h,
                   size_t steps, run_rec *rec)
{
    const size_t n = k->n, dim = mbd_formulation_dim(f);
    CU_ASSERT_EQUAL(dim, 3 * n);
    double *y = calloc(dim, sizeof *y), *yt = calloc(dim, sizeof *y);
    double *k1 = calloc(dim, sizeof *y), *k2 = calloc(dim, sizeof *y);
    double *k3 = calloc(dim, sizeof *y), *k4 = calloc(dim, sizeof *y);
    gsl_vector *q0 = gsl_vector_calloc(n), *qd0 = gsl_vector_calloc(n);
    mech_state(k, th0, w0, q0, qd0);
    memset(rec, 0, sizeof *rec);
    rec->t = calloc(steps + 1, sizeof *rec->t);
    rec->theta = calloc(steps + 1, sizeof *rec->t);
    rec->z = calloc(steps + 1, sizeof *rec->t);
    rec->v = calloc(steps + 1, sizeof *rec->t);
    rec->q = calloc(steps + 1, sizeof *rec->q);
    int st = mbd_formulation_pack(f, 0.0, q0->data, qd0->data, y);
    double t = 0.0, E = 0.0;
    mbd_formulation_measure(f, t, y, NULL, NULL, &rec->E0);
    mbd_formulation_generalized(f, y, &rec->z[0], &rec->v[0]);
    rec->v0 = rec->v[0];
    rec->theta[0] = crank_angle(k, y);
    rec->q[0] = malloc(n * sizeof(double));
    memcpy(rec->q[0], y, n * sizeof(double));
    for (size_t s = 1; s <= steps && st == GSL_SUCCESS; s++) {
        st = mbd_formulation_rhs(t, y, k1, f);
        for (size_t i = 0; i < dim && st == GSL_SUCCESS; i++)
            yt[i] = y[i] + 0.5 * h * k1[i];
        if (st == GSL_SUCCESS)
            st = mbd_formulation_rhs(t + 0.5 * h, yt, k2, f);
        for (size_t i = 0; i < dim && st == GSL_SUCCESS; i++)
            yt[i] = y[i] + 0.5 * h * k2[i];
        if (st == GSL_SUCCESS)
            st = mbd_formulation_rhs(t + 0.5 * h, yt, k3, f);
        for (size_t i = 0; i < dim && st == GSL_SUCCESS; i++)
            yt[i] = y[i] + h * k3[i];
        if (st == GSL_SUCCESS)
            st = mbd_formulation_rhs(t + h, yt, k4, f);
        if (st != GSL_SUCCESS)
            break;
        for (size_t i = 0; i < dim; i++)
            y[i] += h / 6.0 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
        t = s * h;
        int changed = 0;
        st = mbd_formulation_post_step(f, t, y, &changed);
        if (st != GSL_SUCCESS)
            break;
        rec->t[s] = t;
        mbd_formulation_generalized(f, y, &rec->z[s], &rec->v[s]);
        rec->theta[s] = crank_angle(k, y);
        rec->q[s] = malloc(n * sizeof(double));
        memcpy(rec->q[s], y, n * sizeof(double));
        rec->maxdv = fmax(rec->maxdv, fabs(rec->v[s] - rec->v[s - 1]));
        mbd_formulation_measure(f, t, y, NULL, NULL, &E);
        rec->maxdE = fmax(rec->maxdE, fabs(E - rec->E0));
        rec->steps = s;
    }
    free(y);
    free(yt);
    free(k1);
    free(k2);
    free(k3);
    free(k4);
    gsl_vector_free(q0);
    gsl_vector_free(qd0);
    return st;
}

static void rec_free(run_rec *r)
{
    for (size_t s = 0; s <= r->steps; s++)
        free(r->q[s]);
    free(r->q);
    free(r->t);
    free(r->theta);
    free(r->z);
    free(r->v);
}

/* the reduced equation J theta'' = -K g cos theta, integrated tightly: the
 * times where theta crosses a multiple of pi (all bars horizontal) */
typedef struct {
    double J, K;
} reduced;

static int reduced_rhs(double t, const double y[], double dydt[], void *params)
{
    const reduced *r = params;
    (void)t;
    dydt[0] = y[1];
    dydt[1] = -r->K * G * cos(y[0]) / r->J;
    return GSL_SUCCESS;
}

static size_t horizontal_times(double J, double K, double th0, double w0, double t_end,
                               double times[], size_t max)
{
    reduced r = {J, K};
    gsl_odeiv2_system sys = {reduced_rhs, NULL, 2, &r};
    gsl_odeiv2_driver *d = gsl_odeiv2_driver_alloc_y_new(&sys, gsl_odeiv2_step_rk8pd, 1e-6,
                                                         1e-13, 1e-13);
    double y[2] = {th0, w0}, t = 0.0;
    const double dt = 1e-3;
    size_t count = 0;
    for (double tn = dt; tn <= t_end + 1e-12 && count < max; tn += dt) {
        const double yp[2] = {y[0], y[1]}, tp = t;
        gsl_odeiv2_driver_apply(d, &t, tn, y);
        if (floor(yp[0] / PI) != floor(y[0] / PI)) {       /* crossed k pi: bisect */
            const double target = PI * fmax(floor(yp[0] / PI), floor(y[0] / PI));
            double lo = tp, hi = tn;
            for (int it = 0; it < 60; it++) {
                const double mid = 0.5 * (lo + hi);
                double ym[2] = {yp[0], yp[1]}, tm = tp;
                gsl_odeiv2_driver_reset(d);
                gsl_odeiv2_driver_apply(d, &tm, mid, ym);
                if ((ym[0] - target) * (yp[0] - target) > 0)
                    lo = mid;
                else
                    hi = mid;
            }
            times[count++] = 0.5 * (lo + hi);
            gsl_odeiv2_driver_reset(d);
        }
    }
    gsl_odeiv2_driver_free(d);
    return count;
}

/* The four-bar at omega = 4 from theta = pi/2 over 1.3 s (RK4, h = 1e-4):
 *  - continuation (procrustes and full): no flip of the basis in use, speeds
 *    continuous (per-step |dv| < 0.01, the guide's bound), and
 *    z = sqrt(3.5) |theta - pi/2| (the 1-dof invariant, 1e-6);
 *  - the traditional basis (none) flips, its speed jumps (|dv| > 1) and its
 *     z loses the invariant (by more than 1e-2);
 *  - positions the same for both (1e-9), energy drift below 1e-3 J;
 *  - |v(0)| = 4 sqrt(3.5), E0 = 32.953333 J (the guide's Sec. 8);
 *  - the singular instants against the reduced equation's horizontal
 *    crossings (1e-6 s with the V refinement; the step is 1e-4), one per
 *    crossing, 1 -> 2 degrees of freedom. */
static void fourbar_runs(void)
{
    mech k;
    mech_build(&k, FOURBAR);
    const double h = 1e-4, t_end = 1.3;
    const size_t steps = (size_t)(t_end / h + 0.5);
    run_rec rec[3];
    mbd_formulation_nullspace_report rep[3];
    mbd_formulation_singular_instant ev[3][8];
    size_t nev[3];
    const mbd_nullspace_continuation modes[3] = {MBD_NULLSPACE_NONE, MBD_NULLSPACE_PROCRUSTES,
                                                 MBD_NULLSPACE_FULL};
    for (int i = 0; i < 3; i++) {
        mbd_formulation *f = nullspace_alloc(k.s, modes[i]);
        REQUIRE_STATUS(f != NULL, 1);
        REQUIRE_STATUS(rk4_run(f, &k, PI / 2, 4.0, h, steps, &rec[i]), GSL_SUCCESS);
        REQUIRE_STATUS(mbd_formulation_nullspace_get(f, &rep[i]), GSL_SUCCESS);
        nev[i] = mbd_formulation_singulars(f);
        for (size_t e = 0; e < nev[i] && e < 8; e++)
            mbd_formulation_singular_get(f, e, &ev[i][e]);
        mbd_formulation_free(f);
    }
    CHECK_REL(fabs(rec[1].v0), 4.0 * sqrt(3.5), 1e-5);
    CHECK_CLOSE(rec[1].E0, 32.953333333, 1e-6);
    for (int i = 0; i < 3; i++) {
        CU_ASSERT_EQUAL(rep[i].rank, 8);
        CU_ASSERT_EQUAL(rep[i].deficiency, 0);
        CU_ASSERT_EQUAL(rep[i].dof, 1);
        CHECK_LE(rec[i].maxdE, 1e-3);
        CU_ASSERT(rep[i].fresh_jumps >= 1);     /* the fresh factorisation flips */
    }
    /* traditional */
    CU_ASSERT(rep[0].jumps >= 1);
    CHECK_GE(rec[0].maxdv, 1.0);
    /* continued */
    double inv[3] = {0, 0, 0}, dq = 0.0;
    for (int i = 0; i < 3; i++)
        for (size_t s = 0; s <= steps; s++)
            inv[i] = fmax(inv[i], fabs(fabs(rec[i].z[s]) - sqrt(3.5) * fabs(rec[i].theta[s]
                                                                            - PI / 2)));
    for (int i = 1; i < 3; i++) {
        CU_ASSERT_EQUAL(rep[i].jumps, 0);
        CHECK_LE(rec[i].maxdv, 0.01);
        CHECK_LE(inv[i], 1e-6);
        for (size_t s = 0; s <= steps; s++)
            for (size_t j = 0; j < k.n; j++)
                dq = fmax(dq, fabs(rec[i].q[s][j] - rec[0].q[s][j]));
    }
    CHECK_GE(inv[0], 1e-2);
    CHECK_LE(dq, 1e-9);
    CHECK_LE(rep[2].max_prediction_error, 1e-6);
    /* singular instants */
    double ref[8];
    const size_t nref = horizontal_times(k.J, k.K, PI / 2, 4.0, t_end - 0.01, ref, 8);
    CU_ASSERT(nref >= 2);
    for (int i = 0; i < 3; i++) {
        CHECK_MSG(nev[i] == nref, "mode %d: %zu singular instants, reference %zu", i, nev[i],
                  nref);
        for (size_t e = 0; e < nev[i] && e < nref; e++) {
            CHECK_CLOSE(ev[i][e].t, ref[e], 1e-6);   /* the guide: 2e-4; h / 2 = 5e-5 */
            CU_ASSERT_EQUAL(ev[i][e].rank, 7);
            CU_ASSERT_EQUAL(ev[i][e].dof, 2);
            CHECK_LE(ev[i][e].ratio, MBD_NULLSPACE_TOL_SING);
        }
        CU_ASSERT_EQUAL(rep[i].dof_first_singular, 2);
    }
    for (int i = 0; i < 3; i++)
        rec_free(&rec[i]);
    mech_free(&k);
}

/* The redundant mechanisms (m = n: mod2, m > n: mod3) through their
 * horizontal configuration from theta = pi/2 at omega = -1: the crank
 * angle against the reduced equation (1e-7), no basis jump, energy kept. */
static void redundant_runs(void)
{
    const family fams[] = {MOD2, MOD3};
    for (size_t c = 0; c < 2; c++) {
        mech k;
        mech_build(&k, fams[c]);
        mbd_formulation *f = nullspace_alloc(k.s, MBD_NULLSPACE_PROCRUSTES);
        REQUIRE_STATUS(f != NULL, 1);
        const double h = 2e-4, t_end = 0.8;
        const size_t steps = (size_t)(t_end / h + 0.5);
        run_rec rec;
        REQUIRE_STATUS(rk4_run(f, &k, PI / 2, -1.0, h, steps, &rec), GSL_SUCCESS);
        mbd_formulation_nullspace_report rep;
        mbd_formulation_nullspace_get(f, &rep);
        CU_ASSERT_EQUAL(rep.dof, 1);
        CU_ASSERT_EQUAL(rep.deficiency, 1);
        CU_ASSERT_EQUAL(rep.jumps, 0);
        CHECK_LE(rec.maxdE, 1e-6);
        /* the reduced equation at the end */
        reduced r = {k.J, k.K};
        gsl_odeiv2_system sys = {reduced_rhs, NULL, 2, &r};
        gsl_odeiv2_driver *d = gsl_odeiv2_driver_alloc_y_new(&sys, gsl_odeiv2_step_rk8pd, 1e-6,
                                                             1e-13, 1e-13);
        double y[2] = {PI / 2, -1.0}, t = 0.0;
        gsl_odeiv2_driver_apply(d, &t, t_end, y);
        gsl_odeiv2_driver_free(d);
        CHECK_CLOSE(rec.theta[rec.steps], y[0], 1e-7);
        CU_ASSERT(y[0] < PI / 2 - 0.5);      /* it did move */
        rec_free(&rec);
        mbd_formulation_free(f);
        mech_free(&k);
    }
}


/* Position correction by Newton and velocity correction by projection,
 * rank-aware: a state off the constraints (1e-3 at pack, 1e-4 after a
 * step) comes back to |C|, |C'| <= 1e-11, for m < n and for m > n
 * (redundant: the plain (A Q_1)^-1 of eq. 2.10 is singular there). */
static void corrections(void)
{
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 11);
    const family fams[] = {FOURBAR, MOD3};
    for (size_t c = 0; c < 2; c++) {
        mech k;
        mech_build(&k, fams[c]);
        const size_t n = k.n;
        mbd_formulation *f = nullspace_alloc(k.s, 0);
        gsl_vector *q = gsl_vector_calloc(n), *qd = gsl_vector_calloc(n);
        double *y = calloc(3 * n, sizeof *y);
        mech_state(&k, 1.0, 2.0, q, qd);
        for (size_t i = 0; i < n; i++) {
            *gsl_vector_ptr(q, i) += 1e-3 * (gsl_rng_uniform(rng) - 0.5);
            *gsl_vector_ptr(qd, i) += 1e-3 * (gsl_rng_uniform(rng) - 0.5);
        }
        double C = 1, Cd = 1;
        REQUIRE_STATUS(mbd_formulation_pack(f, 0.0, q->data, qd->data, y), GSL_SUCCESS);
        mbd_formulation_measure(f, 0.0, y, &C, &Cd, NULL);
        CHECK_LE(C, 1e-11);
        CHECK_LE(Cd, 1e-11);
        for (size_t i = 0; i < n; i++)
            y[i] += 1e-4 * (gsl_rng_uniform(rng) - 0.5);
        mbd_formulation_measure(f, 0.0, y, &C, NULL, NULL);
        CHECK_GE(C, 1e-6);
        int changed = 0;
        REQUIRE_STATUS(mbd_formulation_post_step(f, 0.0, y, &changed), GSL_SUCCESS);
        CU_ASSERT_EQUAL(changed, 1);
        mbd_formulation_measure(f, 0.0, y, &C, &Cd, NULL);
        CHECK_LE(C, 1e-11);
        CHECK_LE(Cd, 1e-11);
        mbd_formulation_nullspace_report rep;
        mbd_formulation_nullspace_get(f, &rep);
        CU_ASSERT_EQUAL(rep.corrections, 1);
        free(y);
        gsl_vector_free(q);
        gsl_vector_free(qd);
        mbd_formulation_free(f);
        mech_free(&k);
    }
    gsl_rng_free(rng);
}

/* ------------------------------------------------------------------------ */
/* Two degrees of freedom, and a driven constraint, through the run loop     */

static const mbd_system *chain_system(mbd_planar_model **pmo, gsl_vector **q, gsl_vector **qd)
{
    mbd_planar_model *pm = mbd_planar_alloc();
    const int g = mbd_planar_add_ground(pm, 0);
    const int b1 = mbd_planar_add_body(pm, 1, 1.0, 1.0 / 12.0, NULL);
    const int b2 = mbd_planar_add_body(pm, 2, 0.7, 0.05, NULL);
    const double o[2] = {0, 0};
    mbd_planar_add_revolute(pm, g, o, b1, LEFT);
    mbd_planar_add_revolute(pm, b1, RIGHT, b2, LEFT);
    mbd_planar_set_gravity(pm, 0.0, -G);
    mbd_planar_finish(pm);
    *q = gsl_vector_calloc(6);
    *qd = gsl_vector_calloc(6);
    const double a = -0.3, b = 0.9, wa = 2.0, wb = -1.0;
    mbd_planar_set_pose(pm, b1, 0.5 * cos(a), 0.5 * sin(a), a, *q);
    mbd_planar_set_pose(pm, b2, cos(a) + 0.5 * cos(b), sin(a) + 0.5 * sin(b), b, *q);
    mbd_planar_set_velocity(pm, b1, -0.5 * wa * sin(a), 0.5 * wa * cos(a), wa, *qd);
    mbd_planar_set_velocity(pm, b2, -wa * sin(a) - 0.5 * wb * sin(b),
                            wa * cos(a) + 0.5 * wb * cos(b), wb, *qd);
    *pmo = pm;
    return mbd_planar_system(pm);
}

static int slide(double t, double f[3], void *user)
{
    (void)user;
    f[0] = 0.3 * sin(5 * t);
    f[1] = 1.5 * cos(5 * t);
    f[2] = -7.5 * sin(5 * t);
    return GSL_SUCCESS;
}

static const mbd_system *driven_system(mbd_planar_model **pmo, gsl_vector **q, gsl_vector **qd)
{
    mbd_planar_model *pm = mbd_planar_alloc();
    const int s = mbd_planar_add_body(pm, 1, 0.5, 0.01, NULL);
    const int b = mbd_planar_add_body(pm, 2, 1.0, 1.0 / 12.0, NULL);
    mbd_planar_add_coordinate_driver(pm, s, MBD_PLANAR_X, mbd_planar_user_function(slide, NULL));
    mbd_planar_add_coordinate_driver(pm, s, MBD_PLANAR_Y, mbd_planar_constant_speed(0, 0));
    mbd_planar_add_coordinate_driver(pm, s, MBD_PLANAR_THETA, mbd_planar_constant_speed(0, 0));
    const double o[2] = {0, 0};
    mbd_planar_add_revolute(pm, s, o, b, LEFT);
    mbd_planar_set_gravity(pm, 0.0, -G);
    mbd_planar_finish(pm);
    *q = gsl_vector_calloc(6);
    *qd = gsl_vector_calloc(6);
    const double a = -1.2, w = 0.5;
    mbd_planar_set_pose(pm, s, 0, 0, 0, *q);
    mbd_planar_set_velocity(pm, s, 1.5, 0, 0, *qd);
    mbd_planar_set_pose(pm, b, 0.5 * cos(a), 0.5 * sin(a), a, *q);
    mbd_planar_set_velocity(pm, b, 1.5 - 0.5 * w * sin(a), 0.5 * w * cos(a), w, *qd);
    *pmo = pm;
    return mbd_planar_system(pm);
}

/* The same motion as the projection formulation (tight Dormand-Prince
 * through mbd_simulate, both): a double pendulum (two degrees of freedom,
 * where the basis spins within a step: the -Omega v term) and a bar on a
 * driven slider (rheonomic: beta' and B^T p'), every mode; 1e-7 in q and
 * q' at 1.5 s; the continued basis never jumps. */
static void same_motion_as_projection(void)
{
    for (int sys = 0; sys < 2; sys++) {
        mbd_planar_model *pm = NULL;
        gsl_vector *q0 = NULL, *qd0 = NULL;
        const mbd_system *s = sys == 0 ? chain_system(&pm, &q0, &qd0)
                                       : driven_system(&pm, &q0, &qd0);
        mbd_ode_params ode;
        mbd_ode_preset("tight", &ode);
        mbd_sim_params sp = {.t0 = 0, .t_end = 1.5, .dt_out = 0.5, .max_violation = 1.0};
        mbd_formulation_params pp = {0};
        mbd_formulation_method("projection", &pp);
        mbd_formulation *proj = mbd_formulation_alloc(s, &pp);
        mbd_history ref, got;
        mbd_history_init(&ref);
        mbd_history_init(&got);
        mbd_sim_stats stats;
        mbd_failure fail;
        REQUIRE_STATUS(mbd_simulate(proj, &ode, &sp, q0->data, qd0->data, &ref, &stats, &fail),
                       GSL_SUCCESS);
        for (int mode = MBD_NULLSPACE_NONE; mode <= MBD_NULLSPACE_FULL; mode++) {
            mbd_formulation *f = nullspace_alloc(s, (mbd_nullspace_continuation)mode);
            REQUIRE_STATUS(f != NULL, 1);
            int st = mbd_simulate(f, &ode, &sp, q0->data, qd0->data, &got, &stats, &fail);
            CHECK_MSG(st == GSL_SUCCESS, "system %d mode %d: %s", sys, mode, fail.cause);
            CU_ASSERT_EQUAL(got.rows, ref.rows);
            const size_t last = ref.rows - 1;
            double dq = 0.0, dqd = 0.0;
            for (size_t j = 0; j < 6 && got.rows == ref.rows; j++) {
                dq = fmax(dq, fabs(mbd_history_q(&got, last)[j] - mbd_history_q(&ref, last)[j]));
                dqd = fmax(dqd, fabs(mbd_history_qd(&got, last)[j]
                                     - mbd_history_qd(&ref, last)[j]));
            }
            CHECK_MSG(dq <= 1e-7 && dqd <= 1e-7, "system %d mode %d: |dq| %.3g, |dq'| %.3g", sys,
                      mode, dq, dqd);
            CHECK_LE(stats.max_C, 1e-9);
            mbd_formulation_nullspace_report rep;
            mbd_formulation_nullspace_get(f, &rep);
            CU_ASSERT_EQUAL(rep.dof, sys == 0 ? 2u : 1u);
            if (mode != MBD_NULLSPACE_NONE)
                CU_ASSERT_EQUAL(rep.jumps, 0);
            mbd_formulation_free(f);
        }
        mbd_history_free(&ref);
        mbd_history_free(&got);
        mbd_formulation_free(proj);
        gsl_vector_free(q0);
        gsl_vector_free(qd0);
        mbd_planar_free(pm);
    }
}

/* Parameters: defaults, refusals, the method's name and queries on another kind */
/* Dynamic rank (formulation.h): the 4-bar released to stop at the
 * horizontal with a constant -20 N m on the coupler. The torque does no
 * work on the parallelogram (theta2 = 0 there), so the structural rank keeps
 * the motion on it; the rank at tol_sing lets the torque drive the folding
 * mode inside the singular window, and the motion leaves on the folded
 * branch: crank 3 locked at pi, crank 1 and the coupler turning together
 * (theta2 = theta1 - pi), a closed-form branch checked here by its angles. */
static void dynamic_rank(void)
{
    for (int dynamic = 0; dynamic < 2; dynamic++) {
        mech k;
        memset(&k, 0, sizeof k);
        k.pm = mbd_planar_alloc();
        const int g = mbd_planar_add_ground(k.pm, 0);
        mbd_planar_set_gravity(k.pm, 0.0, -G);
        k.crank[0] = crank_at(&k, g, 0.0, 1);
        k.coupler[0] = mbd_planar_add_body(k.pm, 2, 1.0, 1.0 / 12.0, NULL);
        k.crank[1] = crank_at(&k, g, 1.0, 3);
        mbd_planar_add_revolute(k.pm, k.crank[0], RIGHT, k.coupler[0], LEFT);
        mbd_planar_add_revolute(k.pm, k.coupler[0], RIGHT, k.crank[1], RIGHT);
        mbd_planar_add_torque(k.pm, k.coupler[0], -20.0);
        REQUIRE_STATUS(mbd_planar_finish(k.pm), GSL_SUCCESS);
        k.s = mbd_planar_system(k.pm);
        k.n = k.s->n;
        k.m = k.s->m;
        k.ncrank = 2;
        k.ncoupler = 1;
        mbd_formulation_params p = {0};
        REQUIRE_STATUS(mbd_formulation_method("nullspace", &p), GSL_SUCCESS);
        p.dynamic_rank = dynamic;
        mbd_formulation *f = mbd_formulation_alloc(k.s, &p);
        CU_ASSERT_PTR_NOT_NULL_FATAL(f);
        run_rec rec;
        CHECK_STATUS(rk4_run(f, &k, 1.5 * PI, -sqrt(12.0 * G / 5.0), 1e-4, 12000, &rec),
                     GSL_SUCCESS);
        mbd_formulation_nullspace_report rep;
        REQUIRE_STATUS(mbd_formulation_nullspace_get(f, &rep), GSL_SUCCESS);
        const double *q = rec.q[rec.steps];
        const double th1 = q[2], th2 = q[5], th3 = q[8];
        CU_ASSERT_EQUAL(rep.dof, 1);
        CU_ASSERT_EQUAL(rep.dof_used, 1);   /* back to the structural rank after the window */
        if (dynamic) {
            CHECK_LE(fabs(remainder(th3 - PI, 2 * PI)), 1e-8);
            CHECK_LE(fabs(remainder(th2 - (th1 - PI), 2 * PI)), 1e-8);
            CHECK_GE(fabs(th2), 1.0);
            CU_ASSERT_EQUAL(rep.dof_max, 2);
            CHECK_GE(rep.rank_changes, 2.0);
            CU_ASSERT_EQUAL(rep.rank_changes % 2, 0);
        } else {
            CHECK_LE(fabs(th2), 1e-6);
            CHECK_CLOSE(th3, th1, 1e-6);
            CU_ASSERT_EQUAL(rep.dof_max, 1);
            CU_ASSERT_EQUAL(rep.rank_changes, 0);
        }
        rec_free(&rec);
        mbd_formulation_free(f);
        mech_free(&k);
    }
}

static void parameters_and_names(void)
{
    mech k;
    mech_build(&k, FOURBAR);
    mbd_formulation_params p = {0};
    REQUIRE_STATUS(mbd_formulation_method("nullspace", &p), GSL_SUCCESS);
    CU_ASSERT_EQUAL(p.kind, MBD_FORMULATION_NULLSPACE);
    CU_ASSERT_STRING_EQUAL(mbd_formulation_kind_name(p.kind), "nullspace");
    mbd_formulation *f = mbd_formulation_alloc(k.s, &p);
    REQUIRE_STATUS(f != NULL, 1);
    CU_ASSERT_EQUAL(mbd_formulation_get_params(f)->continuation, MBD_NULLSPACE_PROCRUSTES);
    CHECK_CLOSE(mbd_formulation_get_params(f)->tol_rank, 1e-8, 0);
    CHECK_CLOSE(mbd_formulation_get_params(f)->tol_sing, 1e-3, 0);
    CU_ASSERT_EQUAL(mbd_formulation_dim(f), 27);
    CU_ASSERT_EQUAL(mbd_formulation_correctable(&p), 0);
    mbd_formulation_nullspace_report rep;
    CU_ASSERT_EQUAL(mbd_formulation_nullspace_get(f, &rep), MBD_EINPUT);   /* not packed */
    mbd_formulation_free(f);
    p.tol_rank = 2.0;
    CU_ASSERT_PTR_NULL(mbd_formulation_alloc(k.s, &p));
    p.tol_rank = 0;
    p.tol_sing = -1;
    CU_ASSERT_PTR_NULL(mbd_formulation_alloc(k.s, &p));
    p.tol_sing = 0;
    p.tol_rank = 2e-3;                 /* above the default tol_sing */
    CU_ASSERT_PTR_NULL(mbd_formulation_alloc(k.s, &p));
    p.tol_sing = 2e-3;                 /* equal */
    CU_ASSERT_PTR_NULL(mbd_formulation_alloc(k.s, &p));
    p.tol_sing = 3e-3;                 /* below: accepted */
    f = mbd_formulation_alloc(k.s, &p);
    CU_ASSERT_PTR_NOT_NULL(f);
    mbd_formulation_free(f);
    p.tol_rank = p.tol_sing = 0;
    p.continuation = (mbd_nullspace_continuation)7;
    CU_ASSERT_PTR_NULL(mbd_formulation_alloc(k.s, &p));
    mbd_formulation_params pp = {0};
    mbd_formulation_method("projection", &pp);
    f = mbd_formulation_alloc(k.s, &pp);
    CU_ASSERT_EQUAL(mbd_formulation_nullspace_get(f, &rep), MBD_EINPUT);
    CU_ASSERT_EQUAL(mbd_formulation_nullspace_basis(f, NULL), 0);
    CU_ASSERT_EQUAL(mbd_formulation_singulars(f), 0);
    mbd_formulation_free(f);
    mech_free(&k);
}

static CU_TestInfo nullspace_tests[] = {
    {"rank_census", rank_census},
    {"fourbar_monitor", fourbar_monitor},
    {"basis_properties", basis_properties},
    {"procrustes_and_jumps", procrustes_and_jumps},
    {"skew_update_predicts", skew_update_predicts},
    {"accelerations", accelerations},
    {"fourbar_runs", fourbar_runs},
    {"redundant_runs", redundant_runs},
    {"corrections", corrections},
    {"same_motion_as_projection", same_motion_as_projection},
    {"dynamic_rank", dynamic_rank},
    {"parameters_and_names", parameters_and_names},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"nullspace", NULL, NULL, NULL, NULL, nullspace_tests},
    CU_SUITE_INFO_NULL,
};
