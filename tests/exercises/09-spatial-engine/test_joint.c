/* Grades exercise 09.2: a joint's rows from basic constraints (spherical,
 * revolute, cylindrical, universal). The joint is given the tests' own
 * basic-constraint evaluator (fixture.h: the rows from the definitions of
 * g, by exact stencils), so this exercise does not depend on 09.1. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_math.h>

#include "check.h"
#include "ex09.h"
#include "fixture.h"

static const char *const JKIND[4] = {"spherical", "revolute", "cylindrical", "universal"};
static const size_t JROWS[4] = {3, 5, 4, 4};
static const char *const SIDES[3] = {"both bodies moving", "body i the ground",
                                     "body j the ground"};

/* random attributes: points off the origin, vectors not unit and not
 * orthogonal */
static ex09_joint random_joint(fx_rng *g, ex09_joint_kind kind)
{
    ex09_joint jt;
    memset(&jt, 0, sizeof jt);
    jt.kind = kind;
    fx_random3(g, 0.8, jt.sp);
    fx_random3(g, 0.8, jt.sq);
    fx_random3(g, 1.2, jt.ai);
    fx_random3(g, 1.2, jt.bi);
    fx_random3(g, 1.2, jt.cj);
    fx_random3(g, 1.2, jt.aj);
    return jt;
}

static int rows_of(const char *what, const ex09_joint *jt, const ex09_state *bi,
                   const ex09_state *bj, ex09_basic_fn fn, ex09_row rows[], size_t *count)
{
    for (int k = 0; k < EX09_JOINT_MAX_ROWS; k++)
        fx_row_fill(&rows[k], NAN);
    *count = 99;
    const int st = ex09_joint_rows(jt, bi, bj, fn, rows, count);
    CHECK_MSG(st == GSL_SUCCESS, "%s: status %d (%s)", what, st, mbd_strerror(st));
    if (st != GSL_SUCCESS)
        return 0;
    CHECK_MSG(*count == JROWS[jt->kind], "%s: %zu rows, expected %zu", what, *count,
              JROWS[jt->kind]);
    return *count == JROWS[jt->kind];
}

/* ------------------------------------------------------------------------ */
/* Against the library's joint                                               */

/* The joint between two moving bodies, or a ground and a body on either
 * side, at random states (unit p, p' normal to p) against the rows of the
 * library's joint of the same kind (mbd_spatial_eval_row), every output;
 * a ground's blocks zero */
static void against_library(ex09_joint_kind kind)
{
    fx_rng g = {90200ULL + (unsigned long long)kind};
    double worst = 0.0;
    for (int side = 0; side < 3; side++)
        for (int trial = 0; trial < 2; trial++) {
            ex09_joint jt = random_joint(&g, kind);
            mbd_spatial_model *sm = mbd_spatial_alloc();
            const int ground = mbd_spatial_add_ground(sm, "ground");
            const int A = mbd_spatial_add_body(sm, "A", 1.0, NULL);
            const int B = mbd_spatial_add_body(sm, "B", 1.0, NULL);
            const int bi = side == 1 ? ground : A, bj = side == 2 ? ground : B;
            int k = -1;
            switch (kind) {
            case EX09_SPHERICAL:
                k = mbd_spatial_add_spherical(sm, "j", bi, jt.sp, bj, jt.sq);
                break;
            case EX09_REVOLUTE:
                k = mbd_spatial_add_revolute(sm, "j", bi, jt.sp, jt.ai, jt.bi, bj, jt.sq, jt.cj);
                break;
            case EX09_CYLINDRICAL:
                k = mbd_spatial_add_cylindrical(sm, "j", bi, jt.sp, jt.ai, jt.bi, bj, jt.sq,
                                                jt.cj);
                break;
            case EX09_UNIVERSAL:
                k = mbd_spatial_add_universal(sm, "j", bi, jt.sp, jt.ai, bj, jt.sq, jt.aj);
                break;
            }
            if (mbd_spatial_finish(sm) != GSL_SUCCESS || k < 0) {
                CHECK_MSG(0, "the test's model did not build");
                mbd_spatial_free(sm);
                return;
            }
            const size_t n = mbd_spatial_system(sm)->n;
            gsl_vector *q = gsl_vector_alloc(n), *qd = gsl_vector_alloc(n);
            ex09_state st[2];
            const int body[2] = {A, B};
            for (int s = 0; s < 2; s++) {
                fx_motion m;
                fx_random_motion(&g, &m);
                fx_motion_at(&m, 0.4 * fx_uniform(&g), &st[s], NULL, NULL);
                size_t c;
                mbd_spatial_body_coordinates(sm, body[s], &c);
                for (int x = 0; x < 3; x++) {
                    gsl_vector_set(q, c + x, st[s].r[x]);
                    gsl_vector_set(qd, c + x, st[s].rd[x]);
                }
                for (int x = 0; x < 4; x++) {
                    gsl_vector_set(q, c + 3 + x, st[s].p[x]);
                    gsl_vector_set(qd, c + 3 + x, st[s].pd[x]);
                }
            }
            char what[96];
            snprintf(what, sizeof what, "%s, %s, trial %d", JKIND[kind], SIDES[side], trial);
            ex09_row rows[EX09_JOINT_MAX_ROWS];
            size_t count;
            if (rows_of(what, &jt, side == 1 ? NULL : &st[0], side == 2 ? NULL : &st[1],
                        fx_basic_ref, rows, &count)) {
                mbd_spatial_joint_info info;
                mbd_spatial_joint_info_get(sm, k, &info);
                for (size_t r = 0; r < count; r++) {
                    mbd_spatial_row_eval e;
                    mbd_spatial_eval_row(sm, info.first + r, 0.0, q, qd, &e);
                    ex09_row lib;
                    lib.phi = e.phi, lib.nu = e.nu, lib.gamma = e.gamma;
                    memcpy(lib.phi_r, e.phi_r, sizeof lib.phi_r);
                    memcpy(lib.phi_p, e.phi_p, sizeof lib.phi_p);
                    if (side > 0) {   /* the ground's blocks are zero here */
                        memset(lib.phi_r[side - 1], 0, sizeof lib.phi_r[side - 1]);
                        memset(lib.phi_p[side - 1], 0, sizeof lib.phi_p[side - 1]);
                    }
                    mbd_spatial_row_info ri;
                    mbd_spatial_row_info_get(sm, info.first + r, &ri);
                    const double d = fx_row_diff(&rows[r], &lib);
                    worst = fmax(worst, d / fmax(1.0, fx_row_size(&lib)));
                    CHECK_MSG(d <= 1e-12 * fmax(1.0, fx_row_size(&lib)),
                              "%s: row %zu differs from the library's '%s' by %.3g (phi %.12g "
                              "vs %.12g, gamma %.12g vs %.12g)", what, r, ri.name, d, rows[r].phi,
                              lib.phi, rows[r].gamma, lib.gamma);
                }
            }
            gsl_vector_free(q);
            gsl_vector_free(qd);
            mbd_spatial_free(sm);
        }
    if (getenv("EX09_VERBOSE"))
        printf("\n    %s: largest relative difference from the library %.2e\n", JKIND[kind],
               worst);
}

static void library_spherical(void) { against_library(EX09_SPHERICAL); }
static void library_revolute(void) { against_library(EX09_REVOLUTE); }
static void library_cylindrical(void) { against_library(EX09_CYLINDRICAL); }
static void library_universal(void) { against_library(EX09_UNIVERSAL); }

/* ------------------------------------------------------------------------ */
/* The motions a joint allows                                                */

/* Hamilton's product: A(p (x) q) = A(p) A(q) */
static void qmul(const double p[4], const double q[4], double r[4])
{
    r[0] = p[0] * q[0] - p[1] * q[1] - p[2] * q[2] - p[3] * q[3];
    r[1] = p[0] * q[1] + q[0] * p[1] + p[2] * q[3] - p[3] * q[2];
    r[2] = p[0] * q[2] + q[0] * p[2] + p[3] * q[1] - p[1] * q[3];
    r[3] = p[0] * q[3] + q[0] * p[3] + p[1] * q[2] - p[2] * q[1];
}

/* the turn by th about the unit axis u */
static void qaxis(const double u[3], double th, double p[4])
{
    p[0] = cos(th / 2);
    for (int k = 0; k < 3; k++)
        p[k + 1] = sin(th / 2) * u[k];
}

static void unit(const double a[3], double u[3])
{
    const double l = sqrt(fx_dot3(a, a));
    for (int k = 0; k < 3; k++)
        u[k] = a[k] / l;
}

/* the turn that takes the unit vector a to the unit vector b */
static void qalign(const double a[3], const double b[3], double p[4])
{
    double c[3], u[3];
    fx_cross(a, b, c);
    unit(c, u);
    qaxis(u, acos(fmax(-1.0, fmin(1.0, fx_dot3(a, b)))), p);
}

typedef struct {
    ex09_joint jt;
    fx_motion mi;       /* body i's motion */
    int i_ground;
    double p0[4];       /* the fixed part of the relative turn */
    double w[3][4];     /* spherical: the relative turn normalize(w0 + t w1 + t^2 w2) */
} allowed;

/* the 14 coordinates (r_i, p_i, r_j, p_j) at t of a motion the joint allows:
 * body j turned relative to i about the joint's free axes (revolute and
 * cylindrical about n = a_i x b_i; universal about a_i, then about a_j;
 * spherical freely), its point Q kept at P (the cylindrical: slid along n) */
static void allowed_at(const allowed *al, double t, double x[14])
{
    ex09_state si;
    if (al->i_ground) {
        memset(&si, 0, sizeof si);
        si.p[0] = 1.0;
    } else {
        fx_motion_at(&al->mi, t, &si, NULL, NULL);
    }
    const ex09_joint *jt = &al->jt;
    double rel[4], tmp[4], n[3], nb[3];
    fx_cross(jt->ai, jt->bi, nb);
    unit(nb, n);
    const double th = 0.3 + 1.1 * t + 0.4 * t * t;
    switch (jt->kind) {
    case EX09_SPHERICAL: {
        double u[4], l = 0.0;
        for (int k = 0; k < 4; k++) {
            u[k] = al->w[0][k] + t * (al->w[1][k] + t * al->w[2][k]);
            l += u[k] * u[k];
        }
        for (int k = 0; k < 4; k++)
            rel[k] = u[k] / sqrt(l);
        break;
    }
    case EX09_REVOLUTE:
    case EX09_CYLINDRICAL:
        qaxis(n, th, tmp);
        qmul(tmp, al->p0, rel);
        break;
    default: {
        double ua[3], uj[3], pb[4];
        unit(jt->ai, ua);
        unit(jt->aj, uj);
        qaxis(ua, th, tmp);
        qaxis(uj, 0.7 - 0.9 * t, pb);
        double t2[4];
        qmul(tmp, al->p0, t2);
        qmul(t2, pb, rel);
        break;
    }
    }
    double pj[4], Ai[3][3], Aj[3][3], P[3], Q[3], N[3];
    qmul(si.p, rel, pj);
    fx_A(si.p, Ai);
    fx_A(pj, Aj);
    fx_matvec(Ai, jt->sp, P);
    fx_matvec(Aj, jt->sq, Q);
    fx_matvec(Ai, n, N);
    const double z = jt->kind == EX09_CYLINDRICAL ? 0.2 - 0.7 * t + 0.5 * t * t : 0.0;
    for (int k = 0; k < 3; k++) {
        x[k] = si.r[k];
        x[7 + k] = si.r[k] + P[k] + z * N[k] - Q[k];
    }
    memcpy(x + 3, si.p, sizeof si.p);
    memcpy(x + 10, pj, sizeof pj);
}

static void allowed_motions(void)
{
    fx_rng g = {90210ULL};
    /* Hamilton's product composes the rotations (a check of the test) */
    {
        double p[4], q[4], r[4], u[3], th, A[3][3], B[3][3], C[3][3];
        fx_random_rotation(&g, u, &th, p);
        fx_random_rotation(&g, u, &th, q);
        qmul(p, q, r);
        fx_A(p, A);
        fx_A(q, B);
        fx_A(r, C);
        double e = 0.0;
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++)
                e = fmax(e, fabs(C[i][j] - (A[i][0] * B[0][j] + A[i][1] * B[1][j]
                                            + A[i][2] * B[2][j])));
        CHECK_MSG(e <= 1e-15, "the test's quaternion product is wrong (%.3g)", e);
    }
    static const double c1[5] = {0.0, 4.0 / 5, -1.0 / 5, 4.0 / 105, -1.0 / 280};
    static const double c2[5] = {-205.0 / 72, 8.0 / 5, -1.0 / 5, 8.0 / 315, -1.0 / 560};
    for (int kind = 0; kind < 4; kind++)
        for (int trial = 0; trial < 3; trial++) {
            allowed al;
            memset(&al, 0, sizeof al);
            al.jt = random_joint(&g, (ex09_joint_kind)kind);
            al.i_ground = trial == 2;
            fx_random_motion(&g, &al.mi);
            double u[3], th;
            fx_random_rotation(&g, u, &th, al.w[0]);
            for (int k = 1; k < 3; k++)
                for (int x = 0; x < 4; x++)
                    al.w[k][x] = 0.6 * fx_uniform(&g);
            /* p0 takes c_j to n (revolute, cylindrical), a_j to a direction
             * normal to a_i (universal) */
            double n[3], nb[3], cu[3], aj[3], ai[3], w[3];
            fx_cross(al.jt.ai, al.jt.bi, nb);
            unit(nb, n);
            unit(al.jt.cj, cu);
            unit(al.jt.aj, aj);
            unit(al.jt.ai, ai);
            if (kind == EX09_UNIVERSAL) {
                for (int k = 0; k < 3; k++)
                    w[k] = aj[k] - fx_dot3(aj, ai) * ai[k];
                unit(w, nb);
                qalign(aj, nb, al.p0);
            } else {
                qalign(cu, n, al.p0);
            }
            const double t = 0.35 * fx_uniform(&g), h = 1e-3;
            double x[14], v[14] = {0}, a[14] = {0}, xp[14], xm[14];
            allowed_at(&al, t, x);
            for (int k = 1; k <= 4; k++) {
                allowed_at(&al, t + k * h, xp);
                allowed_at(&al, t - k * h, xm);
                for (int c = 0; c < 14; c++) {
                    v[c] += c1[k] * (xp[c] - xm[c]) / h;
                    a[c] += c2[k] * (xp[c] + xm[c]) / (h * h);
                }
            }
            for (int c = 0; c < 14; c++)
                a[c] += c2[0] * x[c] / (h * h);
            ex09_state st[2];
            for (int s = 0; s < 2; s++) {
                memcpy(st[s].r, x + 7 * s, sizeof st[s].r);
                memcpy(st[s].p, x + 7 * s + 3, sizeof st[s].p);
                memcpy(st[s].rd, v + 7 * s, sizeof st[s].rd);
                memcpy(st[s].pd, v + 7 * s + 3, sizeof st[s].pd);
            }
            char what[96];
            snprintf(what, sizeof what, "%s, %s, trial %d", JKIND[kind],
                     al.i_ground ? "body i the ground" : "both bodies moving", trial);
            ex09_row rows[EX09_JOINT_MAX_ROWS];
            size_t count;
            if (!rows_of(what, &al.jt, al.i_ground ? NULL : &st[0], &st[1], fx_basic_ref, rows,
                         &count))
                continue;
            /* on the motion: Phi = 0, Phi_q q' = 0, Phi_q q'' = gamma */
            const int s0 = al.i_ground ? 1 : 0;
            double e0 = 0.0, e1 = 0.0, e2 = 0.0;
            for (size_t r = 0; r < count; r++) {
                double jv = 0.0, ja = 0.0;
                for (int s = s0; s < 2; s++)
                    for (int k = 0; k < 7; k++) {
                        const double J = k < 3 ? rows[r].phi_r[s][k] : rows[r].phi_p[s][k - 3];
                        jv += J * v[7 * s + k];
                        ja += J * a[7 * s + k];
                    }
                e0 = fmax(e0, fabs(rows[r].phi));
                e1 = fmax(e1, fabs(jv));
                e2 = fmax(e2, fabs(ja - rows[r].gamma));
            }
            CHECK_MSG(e0 <= 1e-13 && e1 <= 1e-10 && e2 <= 1e-7,
                      "%s: along a motion the joint allows, max |Phi| = %.3g, max |Phi_q q'| = "
                      "%.3g, max |Phi_q q'' - gamma| = %.3g (all should vanish)", what, e0, e1,
                      e2);
            /* and it forbids the others: the rows and the bodies'
             * normalisation rows p^T are independent */
            const size_t nb_ = al.i_ground ? 1 : 2, cols = 7 * nb_, m = count + nb_;
            gsl_matrix *J = gsl_matrix_calloc(cols, m), *V = gsl_matrix_alloc(m, m);
            gsl_vector *S = gsl_vector_alloc(m), *wk = gsl_vector_alloc(m);
            for (size_t r = 0; r < count; r++)
                for (int s = s0; s < 2; s++)
                    for (int k = 0; k < 7; k++)
                        gsl_matrix_set(J, (size_t)(7 * (s - s0) + k), r,
                                       k < 3 ? rows[r].phi_r[s][k] : rows[r].phi_p[s][k - 3]);
            for (size_t b = 0; b < nb_; b++)
                for (int k = 0; k < 4; k++)
                    gsl_matrix_set(J, 7 * b + 3 + (size_t)k, count + b,
                                   x[7 * (b + (size_t)s0) + 3 + (size_t)k]);
            gsl_linalg_SV_decomp(J, V, S, wk);
            if (getenv("EX09_VERBOSE"))
                printf("\n    %s: |Phi| %.2e, |Phi_q q'| %.2e, |Phi_q q'' - gamma| %.2e, "
                       "singular values %.3g .. %.3g", what, e0, e1, e2, gsl_vector_get(S, 0),
                       gsl_vector_get(S, m - 1));
            size_t rank = 0;
            for (size_t k = 0; k < m; k++)
                rank += gsl_vector_get(S, k) > 1e-8 * gsl_vector_get(S, 0);
            CHECK_MSG(rank == m, "%s: the %zu rows and the %zu normalisation rows have rank %zu "
                                 "(smallest singular value %.3g): a row repeats another",
                      what, count, nb_, rank, gsl_vector_get(S, m - 1));
            gsl_vector_free(wk);
            gsl_vector_free(S);
            gsl_matrix_free(V);
            gsl_matrix_free(J);
        }
}

/* ------------------------------------------------------------------------ */
/* The evaluator it is given                                                 */

typedef struct {
    int calls, fail_at;
} mock_state;

static mock_state MOCK;

/* the reference evaluator, counting its calls; the call fail_at fails */
static int mock_basic(const ex09_basic *bc, const ex09_state *bi, const ex09_state *bj,
                      const double f[3], ex09_row *row)
{
    MOCK.calls++;
    if (MOCK.fail_at > 0 && MOCK.calls == MOCK.fail_at)
        return GSL_EDOM;
    return fx_basic_ref(bc, bi, bj, f, row);
}

/* One call of basic per row; a failing call's status returned with nothing
 * written, whichever call fails */
static void uses_the_evaluator(void)
{
    fx_rng g = {90220ULL};
    for (int kind = 0; kind < 4; kind++) {
        const ex09_joint jt = random_joint(&g, (ex09_joint_kind)kind);
        fx_motion m;
        ex09_state si, sj;
        fx_random_motion(&g, &m);
        fx_motion_at(&m, 0.2, &si, NULL, NULL);
        fx_random_motion(&g, &m);
        fx_motion_at(&m, 0.2, &sj, NULL, NULL);
        ex09_row rows[EX09_JOINT_MAX_ROWS];
        size_t count;
        MOCK.calls = 0;
        MOCK.fail_at = 0;
        if (rows_of(JKIND[kind], &jt, &si, &sj, mock_basic, rows, &count))
            CHECK_MSG(MOCK.calls == (int)count, "%s: %d calls of basic for %zu rows",
                      JKIND[kind], MOCK.calls, count);
        for (int k = 1; k <= (int)JROWS[kind]; k++) {
            MOCK.calls = 0;
            MOCK.fail_at = k;
            for (int r = 0; r < EX09_JOINT_MAX_ROWS; r++)
                fx_row_fill(&rows[r], FX_SENTINEL);
            count = 77;
            const int st = ex09_joint_rows(&jt, k % 2 ? &si : NULL, &sj, mock_basic, rows,
                                           &count);
            CHECK_MSG(st == GSL_EDOM, "%s, call %d of basic failing: status %d (%s), expected "
                      "basic's GSL_EDOM", JKIND[kind], k, st, mbd_strerror(st));
            int untouched = count == 77;
            for (int r = 0; r < EX09_JOINT_MAX_ROWS; r++)
                untouched = untouched && fx_row_is(&rows[r], FX_SENTINEL);
            CHECK_MSG(untouched, "%s, call %d of basic failing: an output was written",
                      JKIND[kind], k);
        }
    }
}

/* ------------------------------------------------------------------------ */
/* Refusals                                                                  */

static void refused(const char *what, const ex09_joint *jt, const ex09_state *bi,
                    const ex09_state *bj, ex09_basic_fn fn)
{
    ex09_row rows[EX09_JOINT_MAX_ROWS];
    for (int r = 0; r < EX09_JOINT_MAX_ROWS; r++)
        fx_row_fill(&rows[r], FX_SENTINEL);
    size_t count = 77;
    const int st = ex09_joint_rows(jt, bi, bj, fn, rows, &count);
    CHECK_MSG(st == MBD_EINPUT, "%s: status %d (%s), expected MBD_EINPUT", what, st,
              mbd_strerror(st));
    int untouched = count == 77;
    for (int r = 0; r < EX09_JOINT_MAX_ROWS; r++)
        untouched = untouched && fx_row_is(&rows[r], FX_SENTINEL);
    CHECK_MSG(untouched, "%s: an output was written on an error", what);
}

static void refusals(void)
{
    fx_rng g = {90230ULL};
    fx_motion m;
    ex09_state si, sj;
    fx_random_motion(&g, &m);
    fx_motion_at(&m, 0.1, &si, NULL, NULL);
    fx_random_motion(&g, &m);
    fx_motion_at(&m, 0.1, &sj, NULL, NULL);
    ex09_joint jt[4];
    for (int k = 0; k < 4; k++)
        jt[k] = random_joint(&g, (ex09_joint_kind)k);
    ex09_row rows[EX09_JOINT_MAX_ROWS];
    size_t count;
    refused("jt = NULL", NULL, &si, &sj, fx_basic_ref);
    refused("basic = NULL", &jt[1], &si, &sj, NULL);
    CHECK_STATUS(ex09_joint_rows(&jt[0], &si, &sj, fx_basic_ref, NULL, &count), MBD_EINPUT);
    CHECK_STATUS(ex09_joint_rows(&jt[0], &si, &sj, fx_basic_ref, rows, NULL), MBD_EINPUT);
    refused("both sides the ground", &jt[0], NULL, NULL, fx_basic_ref);
    ex09_joint b = jt[2];
    b.kind = (ex09_joint_kind)4;
    refused("kind 4", &b, &si, &sj, fx_basic_ref);
    /* zero and parallel directions */
    b = jt[1];
    memset(b.ai, 0, sizeof b.ai);
    refused("revolute with a_i = 0", &b, &si, &sj, fx_basic_ref);
    b = jt[2];
    memset(b.bi, 0, sizeof b.bi);
    refused("cylindrical with b_i = 0", &b, NULL, &sj, fx_basic_ref);
    b = jt[1];
    memset(b.cj, 0, sizeof b.cj);
    refused("revolute with c_j = 0", &b, &si, NULL, fx_basic_ref);
    b = jt[3];
    memset(b.aj, 0, sizeof b.aj);
    refused("universal with a_j = 0", &b, &si, &sj, fx_basic_ref);
    b = jt[3];
    memset(b.ai, 0, sizeof b.ai);
    refused("universal with a_i = 0", &b, &si, &sj, fx_basic_ref);
    b = jt[1];
    for (int k = 0; k < 3; k++)
        b.bi[k] = -2.5 * b.ai[k];
    refused("revolute with b_i = -2.5 a_i", &b, &si, &sj, fx_basic_ref);
    b = jt[2];
    for (int k = 0; k < 3; k++)
        b.bi[k] = 3.0 * b.ai[k] * (1 + 1e-14 * k);
    refused("cylindrical with b_i parallel to a_i to 1e-14", &b, &si, &sj, fx_basic_ref);
    /* not finite */
    b = jt[0];
    b.sp[1] = NAN;
    refused("spherical with a NaN in P", &b, &si, &sj, fx_basic_ref);
    b = jt[3];
    b.sq[2] = INFINITY;
    refused("universal with an infinity in Q", &b, &si, &sj, fx_basic_ref);
    b = jt[1];
    b.cj[0] = NAN;
    refused("revolute with a NaN in c_j", &b, &si, &sj, fx_basic_ref);
    b = jt[2];
    b.bi[2] = NAN;
    refused("cylindrical with a NaN in b_i", &b, &si, &sj, fx_basic_ref);
    b = jt[3];
    b.aj[1] = -INFINITY;
    refused("universal with an infinity in a_j", &b, &si, &sj, fx_basic_ref);
    /* what a kind does not use is not read: a spherical joint with NaN
     * vectors, a universal one with b_i = c_j = 0, a revolute with a_j = NaN */
    b = jt[0];
    b.ai[0] = b.bi[1] = b.cj[2] = b.aj[0] = NAN;
    CHECK_MSG(ex09_joint_rows(&b, &si, &sj, fx_basic_ref, rows, &count) == GSL_SUCCESS,
              "a spherical joint with NaN vectors, which it does not use, was refused");
    b = jt[3];
    memset(b.bi, 0, sizeof b.bi);
    memset(b.cj, 0, sizeof b.cj);
    CHECK_MSG(ex09_joint_rows(&b, &si, &sj, fx_basic_ref, rows, &count) == GSL_SUCCESS,
              "a universal joint with b_i = c_j = 0, which it does not use, was refused");
    b = jt[1];
    b.aj[2] = NAN;
    CHECK_MSG(ex09_joint_rows(&b, &si, &sj, fx_basic_ref, rows, &count) == GSL_SUCCESS,
              "a revolute joint with a NaN in a_j, which it does not use, was refused");
}

static CU_TestInfo tests[] = {
    {"spherical against the library's joint", library_spherical},
    {"revolute against the library's joint", library_revolute},
    {"cylindrical against the library's joint", library_cylindrical},
    {"universal against the library's joint", library_universal},
    {"the motions each joint allows, and no others", allowed_motions},
    {"one call of basic per row; its failures passed on", uses_the_evaluator},
    {"bad joints and pointers are refused", refusals},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"ex09.2", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
