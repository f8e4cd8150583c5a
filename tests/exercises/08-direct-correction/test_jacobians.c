/* Grades exercise 08.1: a cut joint's violations and its Jacobians Phi_q and
 * Phidot_q by the semi-analytic rule. */
#include <complex.h>
#include <math.h>
#include <stdio.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_math.h>

#include "check.h"
#include "ex08.h"
#include "fixture.h"

#define MAXB 8     /* bodies in the tests' mechanisms */
#define MAXR 6     /* rows: three cut joints */

/* ------------------------------------------------------------------------ */
/* The tests' own kinematics, in complex arithmetic                          */

/* Everything below is analytic in q, so evaluated at q + i h e_j with h tiny
 * its imaginary part over h is the derivative along q_j to round-off (the
 * complex step: no difference is taken, so nothing cancels). The velocities
 * are real in q' and enter linearly.
 *
 * Written from the contract, a body at a time along the path from its root:
 * the absolute angle is the sum of the q on the path, the joint of each body
 * on the path is its parent's joint plus the offset turned by the parent's
 * angle, a point's velocity is its joint's plus omega D (r - r_T). */
typedef double complex cx;

typedef struct {
    cx r[2], v[2];
} cpoint;

/* the bodies on the path from the ground to b, outermost last; their count */
static size_t path_of(const ex08_tree *t, int b, int path[MAXB])
{
    int rev[MAXB];
    size_t k = 0;
    for (; b >= 0 && k < MAXB; b = t->parent[b])
        rev[k++] = b;
    for (size_t i = 0; i < k; i++)
        path[i] = rev[k - 1 - i];
    return k;
}

/* where the marker is and how fast it moves */
static cpoint ref_marker(const ex08_tree *t, const ex08_marker *mk, const cx q[], const double qd[])
{
    cpoint p;
    if (mk->body < 0) {
        p.r[0] = mk->at[0], p.r[1] = mk->at[1];
        p.v[0] = p.v[1] = 0.0;
        return p;
    }
    int path[MAXB];
    const size_t k = path_of(t, mk->body, path);
    cx th = 0.0, rT[2] = {0.0, 0.0}, vT[2] = {0.0, 0.0};
    double w = 0.0;
    for (size_t s = 0; s < k; s++) {
        const int b = path[s];
        const double *l = &t->joint[2 * b];
        /* T_b: the parent's joint plus the offset turned by the parent's
         * angle (th, w are still the parent's here; 0 for the ground) */
        const cx d[2] = {ccos(th) * l[0] - csin(th) * l[1], csin(th) * l[0] + ccos(th) * l[1]};
        if (s == 0) {
            rT[0] = l[0], rT[1] = l[1];
        } else {
            rT[0] += d[0], rT[1] += d[1];
            vT[0] += -w * d[1], vT[1] += w * d[0];
        }
        th += q[b];
        w += qd[b];
    }
    const double *l = mk->at;
    const cx d[2] = {ccos(th) * l[0] - csin(th) * l[1], csin(th) * l[0] + ccos(th) * l[1]};
    p.r[0] = rT[0] + d[0], p.r[1] = rT[1] + d[1];
    p.v[0] = vT[0] - w * d[1], p.v[1] = vT[1] + w * d[0];
    return p;
}

static void ref_violation(const ex08_tree *t, const ex08_cut cut[], size_t ncut, const cx q[],
                          const double qd[], cx phi[], cx phidot[])
{
    for (size_t c = 0; c < ncut; c++) {
        const cpoint M = ref_marker(t, &cut[c].M, q, qd), B = ref_marker(t, &cut[c].B, q, qd);
        for (int x = 0; x < 2; x++) {
            phi[2 * c + x] = M.r[x] - B.r[x];
            phidot[2 * c + x] = M.v[x] - B.v[x];
        }
    }
}

/* the violations at a real state */
static void ref_real(const ex08_tree *t, const ex08_cut cut[], size_t ncut, const double q[],
                     const double qd[], double phi[], double phidot[])
{
    cx cq[MAXB], p[MAXR], pd[MAXR];
    for (size_t i = 0; i < t->n; i++)
        cq[i] = q[i];
    ref_violation(t, cut, ncut, cq, qd, p, pd);
    for (size_t r = 0; r < 2 * ncut; r++) {
        phi[r] = creal(p[r]);
        phidot[r] = creal(pd[r]);
    }
}

/* Phi_q and Phidot_q by complex steps of 1e-30 */
static void ref_complex_step(const ex08_tree *t, const ex08_cut cut[], size_t ncut,
                             const double q[], const double qd[], gsl_matrix *A, gsl_matrix *Ad)
{
    const double h = 1e-30;
    for (size_t j = 0; j < t->n; j++) {
        cx cq[MAXB], p[MAXR], pd[MAXR];
        for (size_t i = 0; i < t->n; i++)
            cq[i] = q[i];
        cq[j] += h * I;
        ref_violation(t, cut, ncut, cq, qd, p, pd);
        for (size_t r = 0; r < 2 * ncut; r++) {
            gsl_matrix_set(A, r, j, cimag(p[r]) / h);
            gsl_matrix_set(Ad, r, j, cimag(pd[r]) / h);
        }
    }
}

/* Phi_q and Phidot_q by central differences, step h */
static void ref_central(const ex08_tree *t, const ex08_cut cut[], size_t ncut, const double q[],
                        const double qd[], double h, gsl_matrix *A, gsl_matrix *Ad)
{
    for (size_t j = 0; j < t->n; j++) {
        double qp[MAXB], qm[MAXB], pp[MAXR], pm[MAXR], dp[MAXR], dm[MAXR];
        for (size_t i = 0; i < t->n; i++)
            qp[i] = qm[i] = q[i];
        qp[j] += h;
        qm[j] -= h;
        ref_real(t, cut, ncut, qp, qd, pp, dp);
        ref_real(t, cut, ncut, qm, qd, pm, dm);
        for (size_t r = 0; r < 2 * ncut; r++) {
            gsl_matrix_set(A, r, j, (pp[r] - pm[r]) / (2 * h));
            gsl_matrix_set(Ad, r, j, (dp[r] - dm[r]) / (2 * h));
        }
    }
}

/* ------------------------------------------------------------------------ */
/* The mechanisms                                                            */

typedef struct {
    const char *name;
    ex08_tree tree;
    size_t ncut;
    ex08_cut cut[3];
} mech;

/* A serial chain of four bars with offset joints (not on the bars' x
 * axes), hanging from (0.3, -0.2); the cut joins a point of body 3 (M) to a
 * point of body 1 (B): joints 0 and 1 lie on the paths to both ends (the
 * document's derivation leaves them out: E5). */
static const int CHAIN_PARENT[] = {-1, 0, 1, 2};
static const double CHAIN_JOINT[] = {0.3, -0.2, 1.1, 0.25, 0.8, -0.3, 1.3, 0.1};

/* A tree of seven bodies with two roots: 0 (on the ground) - 1 - 2 and a
 * branch 1 - 3 - 4; 5 (on the ground) - 6. Cut 0 joins body 2 (M) and body
 * 4 (B), which share joints 0 and 1; cut 1 a ground point (M) and body 6
 * (B); cut 2 two points of body 4 (every joint on its path is on both). */
static const int TREE_PARENT[] = {-1, 0, 1, 1, 3, -1, 5};
static const double TREE_JOINT[] = {0.0, 0.0,  0.9, 0.1,  0.7, -0.2, 0.4, 0.35,
                                    0.6, 0.0,  2.0, 0.5,  0.75, 0.2};

/* The document's four-bar, the guide's reading R1: a chain of three 1 m
 * links from O, the tip of link 3 cut to the ground pivot (-1, sqrt 3). */
static const int R1_PARENT[] = {-1, 0, 1};
static const double R1_JOINT[] = {0.0, 0.0, 1.0, 0.0, 1.0, 0.0};

/* Reading R2: link 1 about O, link 2 on its tip, link 3 about the ground
 * pivot (-1/2, sqrt3/2); the cut joins the tips of links 2 (M) and 3 (B),
 * which share no joint. */
static const int R2_PARENT[] = {-1, 0, -1};
static const double R2_JOINT[] = {0.0, 0.0, 1.0, 0.0, -0.5, 0.86602540378443864676};

static mech mechanism(int k)
{
    mech m;
    memset(&m, 0, sizeof m);
    switch (k) {
    case 0:
        m.name = "the offset chain of four bars (M on body 3, B on body 1)";
        m.tree = (ex08_tree){4, CHAIN_PARENT, CHAIN_JOINT};
        m.ncut = 1;
        m.cut[0] = (ex08_cut){{3, {0.9, 0.15}}, {1, {0.4, -0.3}}};
        break;
    case 1:
        m.name = "the seven-body tree with three cuts";
        m.tree = (ex08_tree){7, TREE_PARENT, TREE_JOINT};
        m.ncut = 3;
        m.cut[0] = (ex08_cut){{2, {0.8, -0.1}}, {4, {0.5, 0.2}}};
        m.cut[1] = (ex08_cut){{-1, {1.5, -0.7}}, {6, {0.9, -0.25}}};
        m.cut[2] = (ex08_cut){{4, {0.3, 0.4}}, {4, {-0.2, 0.1}}};
        break;
    case 2:
        m.name = "the four-bar R1";
        m.tree = (ex08_tree){3, R1_PARENT, R1_JOINT};
        m.ncut = 1;
        m.cut[0] = (ex08_cut){{2, {1.0, 0.0}}, {-1, {-1.0, 1.7320508075688772935}}};
        break;
    default:
        m.name = "the four-bar R2";
        m.tree = (ex08_tree){3, R2_PARENT, R2_JOINT};
        m.ncut = 1;
        m.cut[0] = (ex08_cut){{1, {1.0, 0.0}}, {2, {1.0, 0.0}}};
        break;
    }
    return m;
}
#define NMECH 4

/* what the function under test gives: 0 when it failed */
typedef struct {
    double phi[MAXR], phidot[MAXR];
    gsl_matrix *A, *Ad;
} result;

static int run(const mech *m, const double q[], const double qd[], result *res)
{
    const size_t rows = 2 * m->ncut, n = m->tree.n;
    res->A = gsl_matrix_alloc(rows, n);
    res->Ad = gsl_matrix_alloc(rows, n);
    gsl_matrix_set_all(res->A, NAN);
    gsl_matrix_set_all(res->Ad, NAN);
    for (size_t r = 0; r < MAXR; r++)
        res->phi[r] = res->phidot[r] = NAN;
    const int st = ex08_cut_jacobians(&m->tree, m->cut, m->ncut, q, qd, res->phi, res->phidot,
                                      res->A, res->Ad);
    CHECK_MSG(st == GSL_SUCCESS, "%s: status %d (%s)", m->name, st, mbd_strerror(st));
    return st == GSL_SUCCESS;
}

static void result_free(result *res)
{
    gsl_matrix_free(res->A);
    gsl_matrix_free(res->Ad);
    res->A = res->Ad = NULL;
}

/* a random state: angles in (-pi, pi), rates in (-2, 2) */
static void random_state(fx_rng *g, size_t n, double q[], double qd[])
{
    for (size_t i = 0; i < n; i++) {
        q[i] = M_PI * fx_uniform(g);
        qd[i] = 2.0 * fx_uniform(g);
    }
}

static double vec_max_abs(const double *x, size_t n)
{
    double v = 0.0;
    for (size_t i = 0; i < n; i++)
        v = fmax(v, fabs(x[i]));
    return v;
}

/* ------------------------------------------------------------------------ */
/* Tests                                                                     */

/* phi and phidot against the tests' own kinematics, at random states off
 * the constraints */
static void violations(void)
{
    fx_rng g = {80801ULL};
    for (int k = 0; k < NMECH; k++) {
        const mech m = mechanism(k);
        const size_t rows = 2 * m.ncut;
        for (int s = 0; s < 4; s++) {
            double q[MAXB], qd[MAXB], phi[MAXR], phidot[MAXR];
            random_state(&g, m.tree.n, q, qd);
            ref_real(&m.tree, m.cut, m.ncut, q, qd, phi, phidot);
            result res;
            if (run(&m, q, qd, &res)) {
                double ep = 0.0, ed = 0.0;
                for (size_t r = 0; r < rows; r++) {
                    ep = fmax(ep, fabs(res.phi[r] - phi[r]));
                    ed = fmax(ed, fabs(res.phidot[r] - phidot[r]));
                }
                CHECK_MSG(ep <= 1e-13 * (1 + vec_max_abs(phi, rows)),
                          "%s, state %d: phi differs from r_M - r_B by %.3g (phi[0] = %.12g, "
                          "expected %.12g)", m.name, s, ep, res.phi[0], phi[0]);
                CHECK_MSG(ed <= 1e-13 * (1 + vec_max_abs(phidot, rows)),
                          "%s, state %d: phidot differs from v_M - v_B by %.3g (phidot[0] = "
                          "%.12g, expected %.12g)", m.name, s, ed, res.phidot[0], phidot[0]);
            }
            result_free(&res);
        }
    }
}

/* Phi_q and Phidot_q against central differences computed here (step
 * 1e-6: agreement to about 1e-9 expected, 1e-7 asked) */
static void central_differences(void)
{
    fx_rng g = {80802ULL};
    for (int k = 0; k < NMECH; k++) {
        const mech m = mechanism(k);
        const size_t rows = 2 * m.ncut, n = m.tree.n;
        gsl_matrix *A = gsl_matrix_alloc(rows, n), *Ad = gsl_matrix_alloc(rows, n);
        for (int s = 0; s < 3; s++) {
            double q[MAXB], qd[MAXB];
            random_state(&g, n, q, qd);
            ref_central(&m.tree, m.cut, m.ncut, q, qd, 1e-6, A, Ad);
            result res;
            if (run(&m, q, qd, &res)) {
                const double e = fx_max_diff(res.A, A), ed = fx_max_diff(res.Ad, Ad);
                CHECK_MSG(e <= 1e-7 * (1 + fx_max_abs(A)),
                          "%s, state %d: Phi_q differs from central differences by %.3g "
                          "(largest entry %.3g)", m.name, s, e, fx_max_abs(A));
                CHECK_MSG(ed <= 1e-7 * (1 + fx_max_abs(Ad)),
                          "%s, state %d: Phidot_q differs from central differences of phidot "
                          "by %.3g (largest entry %.3g)", m.name, s, ed, fx_max_abs(Ad));
            }
            result_free(&res);
        }
        gsl_matrix_free(Ad);
        gsl_matrix_free(A);
    }
}

/* to round-off: against complex-step derivatives, which a difference
 * quotient in the function under test cannot match */
static void complex_step(void)
{
    fx_rng g = {80803ULL};
    for (int k = 0; k < NMECH; k++) {
        const mech m = mechanism(k);
        const size_t rows = 2 * m.ncut, n = m.tree.n;
        gsl_matrix *A = gsl_matrix_alloc(rows, n), *Ad = gsl_matrix_alloc(rows, n);
        for (int s = 0; s < 5; s++) {
            double q[MAXB], qd[MAXB];
            random_state(&g, n, q, qd);
            ref_complex_step(&m.tree, m.cut, m.ncut, q, qd, A, Ad);
            result res;
            if (run(&m, q, qd, &res)) {
                const double e = fx_max_diff(res.A, A), ed = fx_max_diff(res.Ad, Ad);
                const double sa = fmax(1.0, fx_max_abs(A)), sd = fmax(1.0, fx_max_abs(Ad));
                CHECK_MSG(e <= 1e-12 * sa,
                          "%s, state %d: Phi_q differs from the exact derivative by %.3g of "
                          "%.3g", m.name, s, e, sa);
                CHECK_MSG(ed <= 1e-12 * sd,
                          "%s, state %d: Phidot_q differs from the exact derivative by %.3g of "
                          "%.3g", m.name, s, ed, sd);
            }
            result_free(&res);
        }
        gsl_matrix_free(Ad);
        gsl_matrix_free(A);
    }
}

/* The E5 gap. Off the constraints the columns of the joints on both paths
 * are D (r_M - r_T) - D (r_B - r_T) = D Phi, and those of Phidot_q D Phidot:
 * the same for every such joint, and not what the document's "associated
 * with M" column D (r_M - r_T) alone would give. */
static void both_ends(void)
{
    const mech m = mechanism(0);
    fx_rng g = {80804ULL};
    for (int s = 0; s < 4; s++) {
        double q[MAXB], qd[MAXB], phi[MAXR], phidot[MAXR];
        random_state(&g, 4, q, qd);
        ref_real(&m.tree, m.cut, 1, q, qd, phi, phidot);
        CHECK_MSG(hypot(phi[0], phi[1]) > 0.1, "the test's state %d is too close to the loop", s);
        result res;
        if (!run(&m, q, qd, &res)) {
            result_free(&res);
            continue;
        }
        for (size_t j = 0; j < 2; j++) {
            const double a0 = gsl_matrix_get(res.A, 0, j), a1 = gsl_matrix_get(res.A, 1, j);
            const double b0 = gsl_matrix_get(res.Ad, 0, j), b1 = gsl_matrix_get(res.Ad, 1, j);
            CHECK_MSG(fabs(a0 + phi[1]) <= 1e-12 && fabs(a1 - phi[0]) <= 1e-12,
                      "state %d: column %zu of Phi_q = (%.12g, %.12g), expected D Phi = (%.12g, "
                      "%.12g): joint %zu is on the paths to both M and B", s, j, a0, a1, -phi[1],
                      phi[0], j);
            CHECK_MSG(fabs(b0 + phidot[1]) <= 1e-12 && fabs(b1 - phidot[0]) <= 1e-12,
                      "state %d: column %zu of Phidot_q = (%.12g, %.12g), expected D Phidot = "
                      "(%.12g, %.12g)", s, j, b0, b1, -phidot[1], phidot[0]);
        }
        /* the joints only on M's path give the one-sided column, and it is
         * not D Phi: with B's term left out of joint 0, the columns would
         * differ by D (r_B - r_T0), of length |r_B - r_T0| > 0 */
        const double c2 = hypot(gsl_matrix_get(res.A, 0, 2) + phi[1],
                                gsl_matrix_get(res.A, 1, 2) - phi[0]);
        CHECK_MSG(c2 > 1e-3, "state %d: column 2 (a joint on M's path only) is D Phi too", s);
        result_free(&res);
    }
    /* the seven-body tree's third cut has both markers on body 4: every
     * column of the joints 0, 1, 3, 4 on its path is D Phi, the others 0 */
    const mech t = mechanism(1);
    double q[MAXB], qd[MAXB], phi[MAXR], phidot[MAXR];
    random_state(&g, 7, q, qd);
    ref_real(&t.tree, t.cut, 3, q, qd, phi, phidot);
    result res;
    if (run(&t, q, qd, &res)) {
        for (size_t j = 0; j < 7; j++) {
            const int on = j == 0 || j == 1 || j == 3 || j == 4;
            const double e0 = on ? -phi[5] : 0.0, e1 = on ? phi[4] : 0.0;
            CHECK_MSG(fabs(gsl_matrix_get(res.A, 4, j) - e0) <= 1e-12
                          && fabs(gsl_matrix_get(res.A, 5, j) - e1) <= 1e-12,
                      "the tree, cut 2 (M and B on body 4): column %zu of Phi_q = (%.12g, %.12g), "
                      "expected (%.12g, %.12g)", j, gsl_matrix_get(res.A, 4, j),
                      gsl_matrix_get(res.A, 5, j), e0, e1);
        }
    }
    result_free(&res);
}

/* The four-bar R1 in closed form (the guide's Sec. 7): with theta_k the
 * absolute angles, e_k = (cos, sin) theta_k, n_k = D e_k and omega = S q',
 *     Phi = sum L_k e_k - G,             Phidot = sum L_k omega_k n_k,
 *     Phi_q[:, j] = sum_{k >= j} n_k,    Phidot_q[:, j] = -sum_{k >= j} omega_k e_k;
 * at q0 = (pi/3, pi/3, pi/3) the loop is closed and Phi_q = [-sqrt3
 * -sqrt3/2 0; -1 -3/2 -1]. */
static void fourbar_closed_form(void)
{
    const mech m = mechanism(2);
    const double r3 = sqrt(3.0);
    const double states[3][6] = {{M_PI / 3, M_PI / 3, M_PI / 3, 0.0, 0.0, 0.0},
                                 {M_PI / 3, M_PI / 3, M_PI / 3, 0.7, -1.4, 1.4},
                                 {0.4, 1.9, -0.8, -1.3, 0.6, 2.2}};
    for (int s = 0; s < 3; s++) {
        const double *q = states[s], *qd = states[s] + 3;
        double th[3], w[3];
        th[0] = q[0], th[1] = q[0] + q[1], th[2] = q[0] + q[1] + q[2];
        w[0] = qd[0], w[1] = qd[0] + qd[1], w[2] = qd[0] + qd[1] + qd[2];
        double phi[2] = {1.0, -r3}, phidot[2] = {0.0, 0.0};
        for (int k = 0; k < 3; k++) {
            phi[0] += cos(th[k]), phi[1] += sin(th[k]);
            phidot[0] -= w[k] * sin(th[k]), phidot[1] += w[k] * cos(th[k]);
        }
        result res;
        if (run(&m, q, qd, &res)) {
            CHECK_MSG(fabs(res.phi[0] - phi[0]) <= 1e-14 && fabs(res.phi[1] - phi[1]) <= 1e-14
                          && fabs(res.phidot[0] - phidot[0]) <= 1e-13
                          && fabs(res.phidot[1] - phidot[1]) <= 1e-13,
                      "R1, state %d: (phi, phidot) = (%.12g, %.12g, %.12g, %.12g), expected "
                      "(%.12g, %.12g, %.12g, %.12g)", s, res.phi[0], res.phi[1], res.phidot[0],
                      res.phidot[1], phi[0], phi[1], phidot[0], phidot[1]);
            for (int j = 0; j < 3; j++) {
                double a[2] = {0, 0}, b[2] = {0, 0};
                for (int k = j; k < 3; k++) {
                    a[0] -= sin(th[k]), a[1] += cos(th[k]);
                    b[0] -= w[k] * cos(th[k]), b[1] -= w[k] * sin(th[k]);
                }
                CHECK_MSG(fabs(gsl_matrix_get(res.A, 0, j) - a[0]) <= 1e-14
                              && fabs(gsl_matrix_get(res.A, 1, j) - a[1]) <= 1e-14,
                          "R1, state %d: column %d of Phi_q = (%.15g, %.15g), expected "
                          "(%.15g, %.15g)", s, j, gsl_matrix_get(res.A, 0, j),
                          gsl_matrix_get(res.A, 1, j), a[0], a[1]);
                CHECK_MSG(fabs(gsl_matrix_get(res.Ad, 0, j) - b[0]) <= 1e-13
                              && fabs(gsl_matrix_get(res.Ad, 1, j) - b[1]) <= 1e-13,
                          "R1, state %d: column %d of Phidot_q = (%.15g, %.15g), expected "
                          "(%.15g, %.15g)", s, j, gsl_matrix_get(res.Ad, 0, j),
                          gsl_matrix_get(res.Ad, 1, j), b[0], b[1]);
            }
            if (s == 0) {
                const double doc[2][3] = {{-r3, -r3 / 2, 0.0}, {-1.0, -1.5, -1.0}};
                for (int i = 0; i < 2; i++)
                    for (int j = 0; j < 3; j++)
                        CHECK_CLOSE(gsl_matrix_get(res.A, i, j), doc[i][j], 1e-15);
                CHECK_MSG(fabs(res.phi[0]) <= 1e-15 && fabs(res.phi[1]) <= 1e-15,
                          "R1 at q0: phi = (%.3g, %.3g), expected 0 (the loop closes)",
                          res.phi[0], res.phi[1]);
                CHECK_MSG(fx_max_abs(res.Ad) <= 1e-14,
                          "R1 at rest: Phidot_q is not 0 (largest entry %.3g)",
                          fx_max_abs(res.Ad));
            }
        }
        result_free(&res);
    }
    /* R2 at its q0 closes too, with M and B on different roots */
    const mech r2 = mechanism(3);
    const double q0[3] = {M_PI / 3, M_PI / 3, M_PI / 3}, qd0[3] = {0.5, -0.5, 0.5};
    result res;
    if (run(&r2, q0, qd0, &res))
        CHECK_MSG(fabs(res.phi[0]) <= 1e-15 && fabs(res.phi[1]) <= 1e-15
                      && fabs(res.phidot[0]) <= 1e-15 && fabs(res.phidot[1]) <= 1e-15,
                  "R2 at q0 = (pi/3, pi/3, pi/3) moving along the parallelogram (0.5, -0.5, 0.5): "
                  "(phi, phidot) = (%.3g, %.3g, %.3g, %.3g), expected 0", res.phi[0], res.phi[1],
                  res.phidot[0], res.phidot[1]);
    result_free(&res);
}

/* Identities: Phi_q q' = Phidot (eq. 6), Phidot_q = 0 at rest and linear in
 * q'; swapping M and B negates every output */
static void identities(void)
{
    fx_rng g = {80805ULL};
    for (int k = 0; k < NMECH; k++) {
        mech m = mechanism(k);
        const size_t rows = 2 * m.ncut, n = m.tree.n;
        double q[MAXB], u[MAXB], w[MAXB], z[MAXB], mix[MAXB];
        random_state(&g, n, q, u);
        random_state(&g, n, z, w);
        const double a = 0.7, b = -1.9;
        for (size_t i = 0; i < n; i++) {
            z[i] = 0.0;
            mix[i] = a * u[i] + b * w[i];
        }
        result ru, rw, rz, rm;
        const int ok = run(&m, q, u, &ru) & run(&m, q, w, &rw) & run(&m, q, z, &rz)
                       & run(&m, q, mix, &rm);
        if (ok) {
            double e = 0.0;
            for (size_t r = 0; r < rows; r++) {
                double s = 0.0;
                for (size_t j = 0; j < n; j++)
                    s += gsl_matrix_get(ru.A, r, j) * u[j];
                e = fmax(e, fabs(s - ru.phidot[r]));
            }
            CHECK_MSG(e <= 1e-13 * (1 + vec_max_abs(ru.phidot, rows)),
                      "%s: Phi_q q' differs from phidot by %.3g", m.name, e);
            CHECK_MSG(fx_max_abs(rz.Ad) <= 1e-14 && vec_max_abs(rz.phidot, rows) <= 1e-14,
                      "%s at rest: Phidot_q (largest %.3g) and phidot (largest %.3g) are not 0",
                      m.name, fx_max_abs(rz.Ad), vec_max_abs(rz.phidot, rows));
            gsl_matrix *L = gsl_matrix_alloc(rows, n);
            gsl_matrix_memcpy(L, ru.Ad);
            gsl_matrix_scale(L, a);
            gsl_matrix_scale(rw.Ad, b);
            gsl_matrix_add(L, rw.Ad);
            const double el = fx_max_diff(L, rm.Ad);
            CHECK_MSG(el <= 1e-13 * (1 + fx_max_abs(rm.Ad)),
                      "%s: Phidot_q(q, a u + b w) differs from a Phidot_q(q, u) + b Phidot_q(q, "
                      "w) by %.3g (it must be linear in q')", m.name, el);
            gsl_matrix_free(L);
            /* M and B swapped */
            for (size_t c = 0; c < m.ncut; c++) {
                const ex08_marker t = m.cut[c].M;
                m.cut[c].M = m.cut[c].B;
                m.cut[c].B = t;
            }
            result rs;
            if (run(&m, q, u, &rs)) {
                double es = 0.0;
                for (size_t r = 0; r < rows; r++) {
                    es = fmax(es, fabs(rs.phi[r] + ru.phi[r]));
                    es = fmax(es, fabs(rs.phidot[r] + ru.phidot[r]));
                    for (size_t j = 0; j < n; j++) {
                        es = fmax(es, fabs(gsl_matrix_get(rs.A, r, j) + gsl_matrix_get(ru.A, r, j)));
                        es = fmax(es,
                                  fabs(gsl_matrix_get(rs.Ad, r, j) + gsl_matrix_get(ru.Ad, r, j)));
                    }
                }
                CHECK_MSG(es <= 1e-13, "%s with M and B swapped: the outputs are not negated "
                                       "(largest |sum| %.3g)", m.name, es);
            }
            result_free(&rs);
        }
        result_free(&ru);
        result_free(&rw);
        result_free(&rz);
        result_free(&rm);
    }
}

/* ------------------------------------------------------------------------ */
/* Refusals                                                                  */

/* calls with sentinel-filled outputs of the given sizes; checks the status
 * and that nothing was written */
static void check_refused(const char *what, const ex08_tree *t, const ex08_cut cut[], size_t ncut,
                          const double q[], const double qd[], size_t r1, size_t c1, size_t r2,
                          size_t c2, int expected)
{
    double phi[MAXR + 2], phidot[MAXR + 2];
    for (size_t i = 0; i < MAXR + 2; i++)
        phi[i] = phidot[i] = FX_SENTINEL;
    gsl_matrix *A = gsl_matrix_alloc(r1, c1), *Ad = gsl_matrix_alloc(r2, c2);
    gsl_matrix_set_all(A, FX_SENTINEL);
    gsl_matrix_set_all(Ad, FX_SENTINEL);
    const int st = ex08_cut_jacobians(t, cut, ncut, q, qd, phi, phidot, A, Ad);
    CHECK_MSG(st == expected, "%s: status %d (%s), expected %d (%s)", what, st, mbd_strerror(st),
              expected, mbd_strerror(expected));
    CHECK_MSG(fx_all_equal(phi, MAXR + 2, FX_SENTINEL) && fx_all_equal(phidot, MAXR + 2, FX_SENTINEL)
                  && fx_matrix_all_equal(A, FX_SENTINEL) && fx_matrix_all_equal(Ad, FX_SENTINEL),
              "%s: an output was written on an error", what);
    gsl_matrix_free(Ad);
    gsl_matrix_free(A);
}

static void refusals(void)
{
    const mech m = mechanism(1);   /* 7 bodies, 3 cuts: 6 x 7 */
    const double q[MAXB] = {0.1, 0.2, -0.3, 0.4, 0.5, -0.6, 0.7};
    const double qd[MAXB] = {1.0, -1.0, 0.5, 0.25, -0.5, 2.0, 0.1};
    const size_t R = 6, N = 7;
    /* the sizes */
    check_refused("Phi_q with 5 rows", &m.tree, m.cut, 3, q, qd, R - 1, N, R, N, GSL_EBADLEN);
    check_refused("Phi_q with 8 columns", &m.tree, m.cut, 3, q, qd, R, N + 1, R, N, GSL_EBADLEN);
    check_refused("Phidot_q with 7 rows", &m.tree, m.cut, 3, q, qd, R, N, R + 1, N, GSL_EBADLEN);
    check_refused("Phidot_q with 6 columns", &m.tree, m.cut, 3, q, qd, R, N, R, N - 1, GSL_EBADLEN);
    /* no bodies, no cuts */
    ex08_tree t0 = m.tree;
    t0.n = 0;
    check_refused("n = 0", &t0, m.cut, 3, q, qd, R, 1, R, 1, MBD_EINPUT);
    check_refused("ncut = 0", &m.tree, m.cut, 0, q, qd, 1, N, 1, N, MBD_EINPUT);
    /* parents out of range */
    const int bad_parents[3][7] = {{-1, 0, 1, 1, 4, -1, 5},     /* body 4 its own parent */
                                   {-1, 2, 1, 1, 3, -1, 5},     /* body 1 on a later body */
                                   {-1, 0, 1, 1, 3, -2, 5}};    /* -2 */
    const char *pw[3] = {"parent[4] = 4", "parent[1] = 2 (a later body)", "parent[5] = -2"};
    for (int k = 0; k < 3; k++) {
        ex08_tree t = m.tree;
        t.parent = bad_parents[k];
        check_refused(pw[k], &t, m.cut, 3, q, qd, R, N, R, N, MBD_EINPUT);
    }
    /* markers out of range */
    ex08_cut cut[3];
    memcpy(cut, m.cut, sizeof cut);
    cut[2].B.body = 7;
    check_refused("a marker on body 7 of 7", &m.tree, cut, 3, q, qd, R, N, R, N, MBD_EINPUT);
    memcpy(cut, m.cut, sizeof cut);
    cut[1].M.body = -2;
    check_refused("a marker on body -2", &m.tree, cut, 3, q, qd, R, N, R, N, MBD_EINPUT);
    /* values that are not finite */
    memcpy(cut, m.cut, sizeof cut);
    cut[0].M.at[1] = NAN;
    check_refused("a marker at NaN", &m.tree, cut, 3, q, qd, R, N, R, N, MBD_EINPUT);
    double joint[14];
    memcpy(joint, TREE_JOINT, sizeof joint);
    joint[9] = INFINITY;
    ex08_tree tj = m.tree;
    tj.joint = joint;
    check_refused("a joint at infinity", &tj, m.cut, 3, q, qd, R, N, R, N, MBD_EINPUT);
    double qb[MAXB], qdb[MAXB];
    memcpy(qb, q, sizeof qb);
    qb[6] = NAN;
    check_refused("q[6] = NaN", &m.tree, m.cut, 3, qb, qd, R, N, R, N, MBD_EINPUT);
    memcpy(qdb, qd, sizeof qdb);
    qdb[0] = -INFINITY;
    check_refused("q'[0] = -inf", &m.tree, m.cut, 3, q, qdb, R, N, R, N, MBD_EINPUT);
}

static CU_TestInfo tests[] = {
    {"phi and phidot against the tests' own kinematics", violations},
    {"Phi_q and Phidot_q against central differences", central_differences},
    {"Phi_q and Phidot_q to round-off (complex step)", complex_step},
    {"joints on the paths to both ends (E5): D Phi", both_ends},
    {"the four-bar R1 in closed form, R2 closed", fourbar_closed_form},
    {"Phi_q q' = phidot, Phidot_q linear in q', M and B swapped", identities},
    {"bad trees, markers, values and sizes are refused", refusals},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"ex08.1", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
