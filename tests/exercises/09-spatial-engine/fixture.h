/* Helpers for chapter 09's exercise tests, written independently of the code
 * under test: a seeded generator; rotations by Rodrigues' formula; the basic
 * constraints' functions g(q) evaluated from their definitions; their exact
 * derivatives by difference stencils (g is a polynomial of degree <= 4 in q,
 * so a five-point stencil is exact); smooth motions with unit Euler
 * parameters; and the two models of the exercises (the spatial slider-crank
 * and the driven pendulum) with their closed forms.
 */
#ifndef EX09_FIXTURE_H
#define EX09_FIXTURE_H

#include <math.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_math.h>
#include <gsl/gsl_vector.h>

#include "ex09.h"

/* a value no function writes: outputs are filled with it to see what was left
 * alone on an error */
#define FX_SENTINEL 12345.678

/* ------------------------------------------------------------------------ */
/* A seeded generator (a 64-bit LCG): the same numbers on every machine      */

typedef struct {
    unsigned long long s;
} fx_rng;

/* uniform in (-1, 1) */
static inline double fx_uniform(fx_rng *g)
{
    g->s = g->s * 6364136223846793005ULL + 1442695040888963407ULL;
    return ((double)(g->s >> 11) + 0.5) / 9007199254740992.0 * 2.0 - 1.0;
}

static inline void fx_random3(fx_rng *g, double scale, double v[3])
{
    for (int k = 0; k < 3; k++)
        v[k] = scale * fx_uniform(g);
}

static inline double fx_dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static inline void fx_cross(const double a[3], const double b[3], double c[3])
{
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

static inline void fx_matvec(double A[3][3], const double x[3], double y[3])
{
    for (int i = 0; i < 3; i++)
        y[i] = A[i][0] * x[0] + A[i][1] * x[1] + A[i][2] * x[2];
}

/* ------------------------------------------------------------------------ */
/* Rotations                                                                 */

/* A(p) for any p: the homogeneous quadratic (e0^2 - e.e) I + 2 e e^T + 2 e0 e~ */
static inline void fx_A(const double p[4], double A[3][3])
{
    const double e0 = p[0], e[3] = {p[1], p[2], p[3]};
    const double s = e0 * e0 - fx_dot3(e, e);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            A[i][j] = (i == j ? s : 0.0) + 2.0 * e[i] * e[j];
    /* 2 e0 e~ */
    A[0][1] -= 2 * e0 * e[2], A[0][2] += 2 * e0 * e[1];
    A[1][0] += 2 * e0 * e[2], A[1][2] -= 2 * e0 * e[0];
    A[2][0] -= 2 * e0 * e[1], A[2][1] += 2 * e0 * e[0];
}

/* Rodrigues: the rotation by angle th about the unit axis u */
static inline void fx_rodrigues(const double u[3], double th, double R[3][3])
{
    const double c = cos(th), s = sin(th);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            R[i][j] = (i == j ? c : 0.0) + (1 - c) * u[i] * u[j];
    R[0][1] -= s * u[2], R[0][2] += s * u[1];
    R[1][0] += s * u[2], R[1][2] -= s * u[0];
    R[2][0] -= s * u[1], R[2][1] += s * u[0];
}

/* a random unit axis and angle in (-pi, pi), and its Euler parameters
 * p = (cos th/2, sin th/2 u) */
static inline void fx_random_rotation(fx_rng *g, double u[3], double *th, double p[4])
{
    double v[3];
    do
        fx_random3(g, 1.0, v);
    while (fx_dot3(v, v) < 0.05);
    const double l = sqrt(fx_dot3(v, v));
    for (int k = 0; k < 3; k++)
        u[k] = v[k] / l;
    *th = M_PI * fx_uniform(g);
    p[0] = cos(*th / 2);
    for (int k = 0; k < 3; k++)
        p[k + 1] = sin(*th / 2) * u[k];
}

/* ------------------------------------------------------------------------ */
/* The basic constraints from their definitions                              */

/* the 14 coordinates (r_i, p_i, r_j, p_j) of two states (NULL: the ground,
 * r = 0, p = (1, 0, 0, 0); its entries are never varied) and their rates */
static inline void fx_pack(const ex09_state *bi, const ex09_state *bj, double x[14], double v[14])
{
    const ex09_state *st[2] = {bi, bj};
    for (int s = 0; s < 2; s++) {
        double *xs = x + 7 * s, *vs = v + 7 * s;
        if (st[s] == NULL) {
            memset(xs, 0, 7 * sizeof *xs);
            memset(vs, 0, 7 * sizeof *vs);
            xs[3] = 1.0;
            continue;
        }
        memcpy(xs, st[s]->r, 3 * sizeof *xs);
        memcpy(xs + 3, st[s]->p, 4 * sizeof *xs);
        memcpy(vs, st[s]->rd, 3 * sizeof *vs);
        memcpy(vs + 3, st[s]->pd, 4 * sizeof *vs);
    }
}

/* g(x) of the basic constraint (no f): d = r_j + A_j s_j - r_i - A_i s_i */
static inline double fx_g(const ex09_basic *bc, const double x[14])
{
    double Ai[3][3], Aj[3][3], P[3], Q[3], ai[3], aj[3], d[3];
    fx_A(x + 3, Ai);
    fx_A(x + 10, Aj);
    fx_matvec(Ai, bc->sp, P);
    fx_matvec(Aj, bc->sq, Q);
    fx_matvec(Ai, bc->ai, ai);
    fx_matvec(Aj, bc->aj, aj);
    for (int k = 0; k < 3; k++)
        d[k] = x[7 + k] + Q[k] - x[k] - P[k];
    switch (bc->kind) {
    case EX09_CD:
        return fx_dot3(bc->c, d);
    case EX09_D:
        return fx_dot3(d, d);
    case EX09_DP1:
        return fx_dot3(ai, aj);
    default:
        return fx_dot3(ai, d);
    }
}

/* g along the line x + s v */
static inline double fx_g_line(const ex09_basic *bc, const double x[14], const double v[14],
                               double s)
{
    double y[14];
    for (int k = 0; k < 14; k++)
        y[k] = x[k] + s * v[k];
    return fx_g(bc, y);
}

/* dg/dx . v and d^2 g/ds^2 along x + s v, both exact up to round-off: g is a
 * polynomial of degree <= 4 on the line, and the five-point stencils are
 * exact for degree <= 4 (first derivative) and <= 5 (second) */
static inline double fx_g_d1(const ex09_basic *bc, const double x[14], const double v[14])
{
    const double h = 0.5;
    return (fx_g_line(bc, x, v, -2 * h) - 8 * fx_g_line(bc, x, v, -h)
            + 8 * fx_g_line(bc, x, v, h) - fx_g_line(bc, x, v, 2 * h)) / (12 * h);
}

static inline double fx_g_d2(const ex09_basic *bc, const double x[14], const double v[14])
{
    const double h = 0.5;
    return (-fx_g_line(bc, x, v, -2 * h) + 16 * fx_g_line(bc, x, v, -h) - 30 * fx_g(bc, x)
            + 16 * fx_g_line(bc, x, v, h) - fx_g_line(bc, x, v, 2 * h)) / (12 * h * h);
}

/* The exact gradient of g: the 14 columns (r_i, p_i, r_j, p_j) */
static inline void fx_gradient(const ex09_basic *bc, const double x[14], double grad[14])
{
    for (int k = 0; k < 14; k++) {
        double e[14] = {0};
        e[k] = 1.0;
        grad[k] = fx_g_d1(bc, x, e);
    }
}

/* The reference row, computed from the definition alone: phi = g - f, the
 * blocks from the exact gradient (zero for a ground side), nu = f', and
 * gamma = -d^2 g/ds^2 along q + s q' + f'' (= -(Phi_q q')_q q' + f''). It has
 * the signature of ex09_basic_fn (09.2 is graded with it), and refuses what
 * the contract refuses. */
static inline int fx_basic_ref(const ex09_basic *bc, const ex09_state *bi, const ex09_state *bj,
                               const double f[3], ex09_row *row)
{
    if (bc == NULL || f == NULL || row == NULL || (bi == NULL && bj == NULL)
        || (unsigned)bc->kind > (unsigned)EX09_DP2)
        return MBD_EINPUT;
    double x[14], v[14], grad[14];
    fx_pack(bi, bj, x, v);
    for (int k = 0; k < 14; k++)
        if (!isfinite(x[k]) || !isfinite(v[k]))
            return MBD_EINPUT;
    for (int k = 0; k < 3; k++)
        if (!isfinite(f[k]))
            return MBD_EINPUT;
    fx_gradient(bc, x, grad);
    ex09_row r;
    r.phi = fx_g(bc, x) - f[0];
    r.nu = f[1];
    r.gamma = -fx_g_d2(bc, x, v) + f[2];
    const ex09_state *st[2] = {bi, bj};
    for (int s = 0; s < 2; s++) {
        for (int k = 0; k < 3; k++)
            r.phi_r[s][k] = st[s] ? grad[7 * s + k] : 0.0;
        for (int k = 0; k < 4; k++)
            r.phi_p[s][k] = st[s] ? grad[7 * s + 3 + k] : 0.0;
    }
    *row = r;
    return GSL_SUCCESS;
}

/* max |a - b| over every output of two rows (NaN when one is NaN), and the
 * largest |entry| of a row */
static inline double fx_row_diff(const ex09_row *a, const ex09_row *b)
{
    double d = 0.0;
#define FX_D(u, w)                                   \
    do {                                             \
        const double e_ = fabs((u) - (w));           \
        d = isnan(e_) ? NAN : fmax(d, e_);           \
    } while (0)
    FX_D(a->phi, b->phi);
    FX_D(a->nu, b->nu);
    FX_D(a->gamma, b->gamma);
    for (int s = 0; s < 2; s++) {
        for (int k = 0; k < 3; k++)
            FX_D(a->phi_r[s][k], b->phi_r[s][k]);
        for (int k = 0; k < 4; k++)
            FX_D(a->phi_p[s][k], b->phi_p[s][k]);
    }
#undef FX_D
    return d;
}

static inline double fx_row_size(const ex09_row *a)
{
    double m = fmax(fabs(a->phi), fmax(fabs(a->nu), fabs(a->gamma)));
    for (int s = 0; s < 2; s++) {
        for (int k = 0; k < 3; k++)
            m = fmax(m, fabs(a->phi_r[s][k]));
        for (int k = 0; k < 4; k++)
            m = fmax(m, fabs(a->phi_p[s][k]));
    }
    return m;
}

static inline void fx_row_fill(ex09_row *r, double v)
{
    r->phi = r->nu = r->gamma = v;
    for (int s = 0; s < 2; s++) {
        for (int k = 0; k < 3; k++)
            r->phi_r[s][k] = v;
        for (int k = 0; k < 4; k++)
            r->phi_p[s][k] = v;
    }
}

static inline int fx_row_is(const ex09_row *r, double v)
{
    ex09_row w;
    fx_row_fill(&w, v);
    return memcmp(r, &w, sizeof w) == 0;
}

/* ------------------------------------------------------------------------ */
/* Smooth motions: p(t) = normalize(u0 + t u1 + t^2 u2), r cubic             */

typedef struct {
    double r[4][3];   /* r(t) = r0 + t r1 + t^2 r2 + t^3 r3 */
    double u[3][4];   /* u(t) = u0 + t u1 + t^2 u2 */
} fx_motion;

static inline void fx_random_motion(fx_rng *g, fx_motion *m)
{
    for (int k = 0; k < 4; k++)
        fx_random3(g, k == 0 ? 1.0 : 0.8, m->r[k]);
    double ax[3], th;
    fx_random_rotation(g, ax, &th, m->u[0]);
    for (int k = 1; k < 3; k++)
        for (int x = 0; x < 4; x++)
            m->u[k][x] = 0.7 * fx_uniform(g);
}

/* the state at t, and r'' and p'' (either may be NULL) */
static inline void fx_motion_at(const fx_motion *m, double t, ex09_state *s, double rdd[3],
                                double pdd[4])
{
    for (int x = 0; x < 3; x++) {
        s->r[x] = m->r[0][x] + t * (m->r[1][x] + t * (m->r[2][x] + t * m->r[3][x]));
        s->rd[x] = m->r[1][x] + t * (2 * m->r[2][x] + 3 * t * m->r[3][x]);
        if (rdd != NULL)
            rdd[x] = 2 * m->r[2][x] + 6 * t * m->r[3][x];
    }
    double u[4], ud[4], udd[4];
    for (int x = 0; x < 4; x++) {
        u[x] = m->u[0][x] + t * (m->u[1][x] + t * m->u[2][x]);
        ud[x] = m->u[1][x] + 2 * t * m->u[2][x];
        udd[x] = 2 * m->u[2][x];
    }
    /* p = u / s, s = |u|: p' = (u' - p s') / s, p'' = (u'' - 2 p' s' - p s'') / s
     * with s' = p.u' and s'' = p'.u' + p.u'' */
    double s2 = 0.0;
    for (int x = 0; x < 4; x++)
        s2 += u[x] * u[x];
    const double sn = sqrt(s2);
    double sd = 0.0, sdd = 0.0;
    for (int x = 0; x < 4; x++) {
        s->p[x] = u[x] / sn;
        sd += s->p[x] * ud[x];
    }
    for (int x = 0; x < 4; x++)
        s->pd[x] = (ud[x] - s->p[x] * sd) / sn;
    for (int x = 0; x < 4; x++)
        sdd += s->pd[x] * ud[x] + s->p[x] * udd[x];
    if (pdd != NULL)
        for (int x = 0; x < 4; x++)
            pdd[x] = (udd[x] - 2 * s->pd[x] * sd - s->p[x] * sdd) / sn;
}

/* ------------------------------------------------------------------------ */
/* The models                                                                */

/* The spatial slider-crank of Haug Sec. 10.2 (the guide's Sec. 5.2, case 4):
 * a crank turning about the global x axis through A = (0, 0.1, 0.12), its
 * pin 0.08 along its y axis; a rod of 0.3 m (its ends at -0.15 and +0.15
 * on its x axis), spherical at the crank pin, universal at the slider
 * (the rod's y axis stays normal to the slider's x axis); the slider
 * translating along the global x axis. Driven (driven != 0): DP1(crank y,
 * ground y) = cos(pi/2 + eps - 2 pi t), as the document's model with eps =
 * 1e-4. 18 joint rows + 3 normalisation rows for 21 coordinates. */
typedef struct {
    mbd_spatial_model *sm;
    int ground, crank, rod, slider;
    int j_rev, j_pin, j_uni, j_slide, j_driver;
    double eps;
} fx_crank;

static inline int fx_crank_build(fx_crank *c, int driven, double eps)
{
    static double Jc[3][3] = {{1e-4, 0, 0}, {0, 1e-5, 0}, {0, 0, 1e-4}};
    static double Jr[3][3] = {{0.004, 0, 0}, {0, 0.0004, 0}, {0, 0, 0.004}};
    static double Js[3][3] = {{1e-4, 0, 0}, {0, 1e-4, 0}, {0, 0, 1e-4}};
    const double X[3] = {1, 0, 0}, Y[3] = {0, 1, 0}, Z[3] = {0, 0, 1};
    memset(c, 0, sizeof *c);
    c->eps = eps;
    mbd_spatial_model *sm = c->sm = mbd_spatial_alloc();
    if (sm == NULL)
        return GSL_ENOMEM;
    c->ground = mbd_spatial_add_ground(sm, "ground");
    c->crank = mbd_spatial_add_body(sm, "crank", 0.12, Jc);
    c->rod = mbd_spatial_add_body(sm, "rod", 0.5, Jr);
    c->slider = mbd_spatial_add_body(sm, "slider", 2.0, Js);
    mbd_spatial_set_gravity(sm, (const double[]){0, 0, -9.81});
    c->j_rev = mbd_spatial_add_revolute(sm, "bearing", c->ground, (const double[]){0, 0.1, 0.12},
                                        Y, Z, c->crank, NULL, X);
    c->j_pin = mbd_spatial_add_spherical(sm, "crank_pin", c->crank, (const double[]){0, 0.08, 0},
                                         c->rod, (const double[]){-0.15, 0, 0});
    c->j_uni = mbd_spatial_add_universal(sm, "wrist", c->rod, (const double[]){0.15, 0, 0}, Y,
                                         c->slider, NULL, X);
    c->j_slide = mbd_spatial_add_translational(sm, "guide", c->ground, (const double[]){2, 0, 0},
                                               Y, Z, c->slider, (const double[]){0.1, 0, 0}, X, Z);
    c->j_driver = -1;
    if (driven)
        c->j_driver = mbd_spatial_add_dp1(
            sm, "driver", c->crank, Y, c->ground, Y,
            mbd_spatial_fn_cos(1.0, mbd_spatial_fn_poly(1, (const double[]){M_PI / 2 + eps,
                                                                             -2 * M_PI})));
    return mbd_spatial_finish(sm);
}

/* theta(t), the crank's angle from global y toward z */
static inline double fx_crank_theta(const fx_crank *c, double t)
{
    return M_PI / 2 + c->eps - 2 * M_PI * t;
}

/* The configuration at crank angle th in closed form: the crank turned by
 * th about x; the pin at B = (0, 0.1 + 0.08 cos, 0.12 + 0.08 sin); the
 * slider at C = (x, 0, 0), x = sqrt(0.09 - B_y^2 - B_z^2), not turned; the
 * rod's x axis along B -> C, its y axis e_x x (C - B) normalised (normal to
 * the slider's x axis), its centre halfway. */
static inline int fx_crank_pose(const fx_crank *c, double th, gsl_vector *q)
{
    const double X[3] = {1, 0, 0};
    double R[3][3];
    fx_rodrigues(X, th, R);
    int st = mbd_spatial_set_pose_A(c->sm, c->crank, (const double[]){0, 0.1, 0.12}, R, q);
    const double B[3] = {0, 0.1 + 0.08 * cos(th), 0.12 + 0.08 * sin(th)};
    const double x = sqrt(0.09 - B[1] * B[1] - B[2] * B[2]);
    const double C[3] = {x, 0, 0};
    double ex[3], ey[3], ez[3], w[3];
    for (int k = 0; k < 3; k++)
        ex[k] = (C[k] - B[k]) / 0.3;
    fx_cross(X, ex, w);
    const double l = sqrt(fx_dot3(w, w));
    for (int k = 0; k < 3; k++)
        ey[k] = w[k] / l;
    fx_cross(ex, ey, ez);
    double Rr[3][3];
    for (int k = 0; k < 3; k++)
        Rr[k][0] = ex[k], Rr[k][1] = ey[k], Rr[k][2] = ez[k];
    const double mid[3] = {(B[0] + C[0]) / 2, (B[1] + C[1]) / 2, (B[2] + C[2]) / 2};
    if (st == GSL_SUCCESS)
        st = mbd_spatial_set_pose_A(c->sm, c->rod, mid, Rr, q);
    if (st == GSL_SUCCESS)
        st = mbd_spatial_set_pose(c->sm, c->slider, C, (const double[]){1, 0, 0, 0}, q);
    return st;
}

/* x(th) = sqrt(0.09 - (0.1 + 0.08 cos th)^2 - (0.12 + 0.08 sin th)^2) and its
 * first two derivatives in th */
static inline void fx_crank_x(double th, double x[3])
{
    const double a = 0.1 + 0.08 * cos(th), b = 0.12 + 0.08 * sin(th);
    const double ad = -0.08 * sin(th), bd = 0.08 * cos(th);
    const double add = -0.08 * cos(th), bdd = -0.08 * sin(th);
    const double g = 0.09 - a * a - b * b;
    const double gd = -2 * (a * ad + b * bd), gdd = -2 * (ad * ad + a * add + bd * bd + b * bdd);
    x[0] = sqrt(g);
    x[1] = gd / (2 * x[0]);
    x[2] = (gdd - 2 * x[1] * x[1]) / (2 * x[0]);
}

/* The driven pendulum of the document's Fig. 16 (the ME751 bar; the guide's
 * Sec. 7.4, E3): a bar of L = 4 m and m = 78 kg, J_bar = diag(0, m L^2/12,
 * m L^2/12), gravity -z (9.81); a revolute at the origin O, the bar's point
 * (-2, 0, 0), axis global x (the bar's z); the driver DP1(bar y, ground -z)
 * = cos(theta + pi/2), theta(t) = (pi/4) cos 2t. Rows: the revolute's 5,
 * the driver, the normalisation: 7 for 7 coordinates. */
typedef struct {
    mbd_spatial_model *sm;
    int ground, bar, j_pin, j_driver;
} fx_pend;

#define FX_PL 4.0
#define FX_PM 78.0
#define FX_G 9.81

static inline int fx_pend_build(fx_pend *pd)
{
    const double Jc = FX_PM * FX_PL * FX_PL / 12;
    double J[3][3] = {{0, 0, 0}, {0, Jc, 0}, {0, 0, Jc}};
    const double Y[3] = {0, 1, 0}, Z[3] = {0, 0, 1}, mZ[3] = {0, 0, -1};
    memset(pd, 0, sizeof *pd);
    mbd_spatial_model *sm = pd->sm = mbd_spatial_alloc();
    if (sm == NULL)
        return GSL_ENOMEM;
    pd->ground = mbd_spatial_add_ground(sm, "ground");
    pd->bar = mbd_spatial_add_body(sm, "bar", FX_PM, J);
    mbd_spatial_set_gravity(sm, (const double[]){0, 0, -FX_G});
    pd->j_pin = mbd_spatial_add_revolute(sm, "pin", pd->ground, NULL, Y, Z, pd->bar,
                                         (const double[]){-FX_PL / 2, 0, 0}, Z);
    /* cos(pi/2 + (pi/4) sin(2t + pi/2)) = cos(theta + pi/2) */
    pd->j_driver = mbd_spatial_add_dp1(
        sm, "driver", pd->bar, Y, pd->ground, mZ,
        mbd_spatial_fn_cos(1.0, mbd_spatial_fn_sum(mbd_spatial_fn_constant(M_PI / 2),
                                                   mbd_spatial_fn_sine(M_PI / 4, 2.0, M_PI / 2))));
    return mbd_spatial_finish(sm);
}

/* theta and its derivatives at t */
static inline void fx_pend_theta(double t, double th[3])
{
    th[0] = M_PI / 4 * cos(2 * t);
    th[1] = -M_PI / 2 * sin(2 * t);
    th[2] = -M_PI * cos(2 * t);
}

/* The bar's state at the angle th[0] (rates th[1], th[2]) in closed form:
 * its axis u = (0, sin, -cos) th from -z toward y, its centre 2 u, and
 * p = (s c, s n, s c, s n), s = sqrt(2)/2, c = cos(th/2), n = sin(th/2) (the
 * turn about x by th after the quarter turn about y that takes the bar's x
 * axis to -z). q, qd, qdd: the 7 coordinates, any may be NULL. */
static inline void fx_pend_state(double th[3], gsl_vector *q, gsl_vector *qd, gsl_vector *qdd)
{
    const double s = sqrt(2.0) / 2, c = cos(th[0] / 2), n = sin(th[0] / 2);
    const double w = th[1], al = th[2];
    const double r[3] = {0, 2 * sin(th[0]), -2 * cos(th[0])};
    const double rd[3] = {0, 2 * w * cos(th[0]), 2 * w * sin(th[0])};
    const double rdd[3] = {0, 2 * al * cos(th[0]) - 2 * w * w * sin(th[0]),
                           2 * al * sin(th[0]) + 2 * w * w * cos(th[0])};
    const double p[4] = {s * c, s * n, s * c, s * n};
    const double dp[4] = {-n, c, -n, c};       /* d/d(th) of p is s/2 dp */
    const double ddp[4] = {-c, -n, -c, -n};    /* d^2/d(th)^2 of p is s/4 ddp */
    for (int k = 0; k < 3; k++) {
        if (q)
            gsl_vector_set(q, k, r[k]);
        if (qd)
            gsl_vector_set(qd, k, rd[k]);
        if (qdd)
            gsl_vector_set(qdd, k, rdd[k]);
    }
    for (int k = 0; k < 4; k++) {
        if (q)
            gsl_vector_set(q, 3 + k, p[k]);
        if (qd)
            gsl_vector_set(qd, 3 + k, s / 2 * w * dp[k]);
        if (qdd)
            gsl_vector_set(qdd, 3 + k, s / 2 * al * dp[k] + s / 4 * w * w * ddp[k]);
    }
}

/* max |v_i| over a vector, NaN when an entry is NaN */
static inline double fx_vmax(const gsl_vector *v)
{
    double m = 0.0;
    for (size_t i = 0; i < v->size; i++) {
        const double a = fabs(gsl_vector_get(v, i));
        m = isnan(a) ? NAN : fmax(m, a);
    }
    return m;
}

static inline int fx_vector_is(const gsl_vector *v, double x)
{
    for (size_t i = 0; i < v->size; i++)
        if (!(gsl_vector_get(v, i) == x))
            return 0;
    return 1;
}

#endif
