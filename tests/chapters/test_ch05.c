/* Chapter 05: the slider-crank of document 000 (Sec. 2.4.3, Table 4), checked
 * against what this file computes on its own:
 *   - the kinetic and potential energy of the two rods and the slider, written
 *     here from the bodies' velocities and heights; the mass matrix is its
 *     polarisation, the velocity terms of F come from Lagrange's equations by
 *     finite differences;
 *   - a reduced reference: the same equations of motion projected numerically
 *     onto the branch th2 = pi - 2 th1 (J^T M J th1'' = J^T (F - M J' th1'^2),
 *     with this file's M), integrated here with GSL's rk8pd;
 *   - the consistent model's fold time by quadrature of its energy integral;
 *   - the document model's fold constant K = 16/51 in closed form.
 * The program's time histories (--csv) are compared with that reference, before
 * the fold of the model in question (1.8 s for the document's mass matrix,
 * 1.7 s for the consistent one). */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_integration.h>
#include <gsl/gsl_math.h>
#include <gsl/gsl_odeiv2.h>

#include "check.h"
#include "mbd/formulation.h"
#include "mbd/planar.h"
#include "reference.h"
#include "study.h"
#include "model.h"

#define G 9.81
#define L 2.0
#define E0_EXACT (9.81 * M_SQRT2)   /* -(m1 + m2) g (L/2) cos(3 pi / 4) */

/* ------------------------------------------------------------------------ */
/* This file's own mechanics                                                 */

/* kinetic energy of the rods (uniform, length L, unit mass) and the slider */
static double kinetic(const double q[3], const double v[3])
{
    const double a = q[0], b = q[0] + q[1], wa = v[0], wb = v[0] + v[1];
    /* centre of rod 1: (L/2)(sin a, -cos a); of rod 2: L (sin a, -cos a) + (L/2)(sin b, -cos b) */
    const double v1x = 0.5 * L * cos(a) * wa, v1y = 0.5 * L * sin(a) * wa;
    const double v2x = L * cos(a) * wa + 0.5 * L * cos(b) * wb;
    const double v2y = L * sin(a) * wa + 0.5 * L * sin(b) * wb;
    const double Ic = L * L / 12.0;
    return 0.5 * (v1x * v1x + v1y * v1y) + 0.5 * Ic * wa * wa
           + 0.5 * (v2x * v2x + v2y * v2y) + 0.5 * Ic * wb * wb + 0.5 * v[2] * v[2];
}

static double potential(const double q[3])
{
    const double a = q[0], b = q[0] + q[1];
    return G * (-0.5 * L * cos(a)) + G * (-L * cos(a) - 0.5 * L * cos(b));
}

/* M by polarisation of T: M_ij = T(e_i + e_j) - T(e_i) - T(e_j) (i != j) */
static void mass_from_T(const double q[3], double M[3][3])
{
    for (int i = 0; i < 3; i++) {
        double e[3] = {0, 0, 0};
        e[i] = 1.0;
        M[i][i] = 2.0 * kinetic(q, e);
    }
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            if (i != j) {
                double e[3] = {0, 0, 0};
                e[i] = e[j] = 1.0;
                M[i][j] = kinetic(q, e) - 0.5 * M[i][i] - 0.5 * M[j][j];
            }
}

/* Lagrange's equations: F = -dV/dq - (M' q' - (1/2) d(q'^T M q')/dq), by differences */
static void lagrange_force(const double q[3], const double v[3], double F[3])
{
    const double h = 1e-5;
    double dM[3][3][3];
    for (int k = 0; k < 3; k++) {
        double qp[3] = {q[0], q[1], q[2]}, qm[3] = {q[0], q[1], q[2]}, Mp[3][3], Mm[3][3];
        qp[k] += h;
        qm[k] -= h;
        mass_from_T(qp, Mp);
        mass_from_T(qm, Mm);
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++)
                dM[k][i][j] = (Mp[i][j] - Mm[i][j]) / (2 * h);
        F[k] = -(potential(qp) - potential(qm)) / (2 * h);
    }
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            for (int k = 0; k < 3; k++)
                F[i] -= (dM[k][i][j] - 0.5 * dM[i][j][k]) * v[j] * v[k];
}

/* the document's F, as printed (L1 = L2 = 2, unit masses) */
static void document_force(const double q[3], const double v[3], double F[3])
{
    const double t1 = q[0], t2 = q[1], w1 = v[0], w2 = v[1];
    F[0] = 2 * sin(t2) * (w2 * w2 + 2 * w1 * w2) - G * (2 * sin(t1) + sin(t1 + t2)) - G * sin(t1);
    F[1] = -2 * sin(t2) * w1 * w1 - G * sin(t1 + t2);
    F[2] = 0.0;
}

/* the reduced equation, by projecting M q'' = F + C_q^T lambda onto the branch's
 * tangent J = (1, -2, 2 L cos th1) numerically; consistent: this file's M,
 * else the document's diag(4/3, 4/3, 1) */
static int reduced_rhs(double t, const double y[], double f[], void *params)
{
    (void)t;
    const int consistent = *(const int *)params;
    const double th = y[0], w = y[1];
    const double q[3] = {th, M_PI - 2 * th, 2 * L * sin(th)};
    const double v[3] = {w, -2 * w, 2 * L * cos(th) * w};
    const double J[3] = {1, -2, 2 * L * cos(th)}, Jd[3] = {0, 0, -2 * L * sin(th) * w};
    double M[3][3] = {{4.0 / 3, 0, 0}, {0, 4.0 / 3, 0}, {0, 0, 1}}, F[3];
    if (consistent)
        mass_from_T(q, M);
    document_force(q, v, F);
    double num = 0, den = 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            num -= J[i] * M[i][j] * Jd[j] * w;
            den += J[i] * M[i][j] * J[j];
        }
    for (int i = 0; i < 3; i++)
        num += J[i] * F[i];
    f[0] = w;
    f[1] = num / den;
    return GSL_SUCCESS;
}

/* this file's reference, stepped forward through increasing times */
typedef struct {
    int consistent;
    gsl_odeiv2_system sys;
    gsl_odeiv2_driver *d;
    double t, y[2];
} reference;

static void ref_init(reference *r, int consistent)
{
    r->consistent = consistent;
    r->sys = (gsl_odeiv2_system){reduced_rhs, NULL, 2, &r->consistent};
    r->d = gsl_odeiv2_driver_alloc_y_new(&r->sys, gsl_odeiv2_step_rk8pd, 1e-4, 1e-13, 1e-13);
    r->t = 0.0;
    r->y[0] = 3 * M_PI / 4;
    r->y[1] = 0.0;
}

static void ref_free(reference *r) { gsl_odeiv2_driver_free(r->d); }

static void ref_state(reference *r, double t, double q[3], double v[3])
{
    if (t > r->t)
        gsl_odeiv2_driver_apply(r->d, &r->t, t, r->y);
    const double th = r->y[0], w = r->y[1];
    q[0] = th;
    q[1] = M_PI - 2 * th;
    q[2] = 2 * L * sin(th);
    v[0] = w;
    v[1] = -2 * w;
    v[2] = 2 * L * cos(th) * w;
}

/* the first th1 = 0 of this file's reference, by bisection on restarts */
static double ref_fold(int consistent)
{
    reference r;
    ref_init(&r, consistent);
    double q[3], v[3], lo = 0, hi = 0;
    for (double t = 0.01; t < 3.0; t += 0.01) {
        ref_state(&r, t, q, v);
        if (q[0] <= 0) {
            hi = t;
            break;
        }
        lo = t;
    }
    ref_free(&r);
    for (int it = 0; it < 60; it++) {
        double mid = 0.5 * (lo + hi);
        ref_init(&r, consistent);
        ref_state(&r, mid, q, v);
        ref_free(&r);
        if (q[0] > 0)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

/* the consistent model conserves T + V on the branch: th1' = -sqrt(2 (E0 - V) / m),
 * m = 2 T at unit rate, so t_fold = integral of d th / |th1'| from 0 to 3 pi / 4 */
static double fold_integrand(double th, void *p)
{
    (void)p;
    const double q[3] = {th, M_PI - 2 * th, 2 * L * sin(th)};
    const double v[3] = {1, -2, 2 * L * cos(th)};
    const double m = 2 * kinetic(q, v);
    const double q0[3] = {3 * M_PI / 4, -M_PI / 2, 0};
    return sqrt(m / (2 * (potential(q0) - potential(q))));
}

static double quadrature_fold(void)
{
    gsl_integration_workspace *w = gsl_integration_workspace_alloc(1000);
    gsl_function f = {fold_integrand, NULL};
    double t, err;
    gsl_integration_qags(&f, 0.0, 3 * M_PI / 4, 1e-13, 1e-13, 1000, w, &t, &err);
    gsl_integration_workspace_free(w);
    return t;
}

/* ------------------------------------------------------------------------ */
/* Running the program                                                       */

typedef struct {
    size_t rows, cols;
    double *v;      /* rows x cols */
    char header[256];
} table;

static int run_csv(const char *args, table *tb, test_run_result *r)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s --csv - %s", test_program("ch05-slider-crank"), args);
    memset(tb, 0, sizeof *tb);
    if (test_run(cmd, r) != 0 || r->out == NULL)
        return -1;
    char *line = r->out, *nl = strchr(line, '\n');
    if (nl == NULL)
        return -1;
    size_t hl = (size_t)(nl - line);
    snprintf(tb->header, sizeof tb->header, "%.*s", (int)(hl < 255 ? hl : 255), line);
    tb->cols = 1;
    for (char *c = line; c < nl; c++)
        tb->cols += *c == ',';
    size_t cap = 1024;
    tb->v = malloc(cap * tb->cols * sizeof *tb->v);
    for (char *p = nl + 1; *p; ) {
        if (tb->rows == cap) {
            cap *= 2;
            tb->v = realloc(tb->v, cap * tb->cols * sizeof *tb->v);
        }
        for (size_t c = 0; c < tb->cols; c++) {
            char *end;
            tb->v[tb->rows * tb->cols + c] = strtod(p, &end);
            p = end + (*end == ',' ? 1 : 0);
        }
        while (*p == '\n')
            p++;
        tb->rows++;
    }
    return 0;
}

static const double *row(const table *tb, size_t k) { return tb->v + k * tb->cols; }

/* "nan" or "inf" as a word of its own (not inside "nanoseconds") */
static int has_word(const char *text, const char *w)
{
    size_t n = strlen(w);
    for (const char *p = strstr(text, w); p; p = strstr(p + 1, w)) {
        int before = p > text && (isalpha((unsigned char)p[-1]));
        int after = isalpha((unsigned char)p[n]);
        if (!before && !after)
            return 1;
    }
    return 0;
}

/* largest position (and velocity) differences from this file's reference */
static void compare(const table *tb, int consistent, double *pos, double *vel)
{
    reference r;
    ref_init(&r, consistent);
    *pos = *vel = 0;
    for (size_t k = 0; k < tb->rows; k++) {
        const double *x = row(tb, k);
        double q[3], v[3];
        ref_state(&r, x[0], q, v);
        for (int i = 0; i < 3; i++) {
            *pos = fmax(*pos, fabs(x[1 + i] - q[i]));
            *vel = fmax(*vel, fabs(x[4 + i] - v[i]));
        }
    }
    ref_free(&r);
}

static double summary_of(const char *args, const char *key, test_run_result *r)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s --summary %s", test_program("ch05-slider-crank"), args);
    test_run(cmd, r);
    return test_summary(r->out, key);
}

/* ------------------------------------------------------------------------ */
/* The model                                                                 */

static void initial_conditions(void)
{
    ch05_model m;
    ch05_model_document(&m);
    double q[3], v[3], C[2];
    ch05_initial(&m, q, v);
    ch05_constraint(&m, q, C);
    CHECK_LE(fabs(C[0]), 1e-14);
    CHECK_LE(fabs(C[1]), 1e-14);
    /* Table 4: 2.3562, -1.5708, 2.8284 */
    CHECK_CLOSE(q[0], 2.3562, 5e-5);
    CHECK_CLOSE(q[1], -1.5708, 5e-5);
    CHECK_CLOSE(q[2], 2.8284, 5e-5);
    CHECK_CLOSE(q[1], -M_PI / 2, 1e-15);
    CHECK_CLOSE(q[2], 2 * M_SQRT2, 1e-14);
    CHECK_CLOSE(v[0] + fabs(v[1]) + fabs(v[2]), 0.0, 0.0);
    CHECK_CLOSE(ch05_energy(&m, q, v), E0_EXACT, 1e-12);
    CHECK_CLOSE(ch05_energy(&m, q, v), 13.873435, 5e-7);
}

static void derivatives(void)
{
    ch05_model m;
    ch05_model_document(&m);
    mbd_system s;
    ch05_system(&m, &s);
    const double qa[3] = {0.4, 1.9, -0.3}, va[3] = {1.2, -0.7, 2.0};
    gsl_vector_const_view q = gsl_vector_const_view_array(qa, 3);
    gsl_vector_const_view v = gsl_vector_const_view_array(va, 3);
    mbd_fdcheck fd;
    REQUIRE_STATUS(mbd_system_check_derivatives(&s, 0, &q.vector, &v.vector, 0, &fd), GSL_SUCCESS);
    CHECK_LE(fd.jacobian_rel, 1e-7);
    CHECK_LE(fd.gamma_rel, 1e-6);
    /* the printed gamma (an extra minus) is caught */
    m.gamma_printed = 1;
    REQUIRE_STATUS(mbd_system_check_derivatives(&s, 0, &q.vector, &v.vector, 0, &fd), GSL_SUCCESS);
    CHECK_IN(fd.gamma_rel, 1.5, 2.5);
}

static void mass_matrices(void)
{
    ch05_model m;
    ch05_model_document(&m);
    const double qs[][3] = {{0.3, -1.1, 0.2}, {2.3, 2.9, -1}, {-1.0, 0.1, 3}, {0, M_PI, 0}};
    for (size_t k = 0; k < sizeof qs / sizeof qs[0]; k++) {
        double Mt[3][3], Mc[9], Md[9];
        mass_from_T(qs[k], Mt);
        gsl_matrix_view vc = gsl_matrix_view_array(Mc, 3, 3), vd = gsl_matrix_view_array(Md, 3, 3);
        ch05_mass_matrix(&m, CH05_MASS_CONSISTENT, qs[k], &vc.matrix);
        ch05_mass_matrix(&m, CH05_MASS_DOCUMENT, qs[k], &vd.matrix);
        double dc = 0, dd = 0;
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) {
                dc = fmax(dc, fabs(Mc[3 * i + j] - Mt[i][j]));
                dd = fmax(dd, fabs(Md[3 * i + j] - Mt[i][j]));
            }
        CHECK_LE(dc, 1e-12);
        CHECK_GE(dd, 0.5);   /* the document's misses the coupling */
        CHECK_CLOSE(Md[0], 4.0 / 3, 1e-15);
        CHECK_CLOSE(Md[4], 4.0 / 3, 1e-15);
        CHECK_CLOSE(Md[8], 1.0, 0);
    }
}

static void force_is_lagrangian(void)
{
    ch05_model m;
    ch05_model_document(&m);
    const double qs[][3] = {{0.3, -1.1, 0.2}, {2.3, 2.9, -1}, {-1.0, 0.1, 3}};
    const double vs[][3] = {{1.5, -0.4, 2}, {-2, 3, 0.1}, {0.7, 0.7, -1}};
    for (int k = 0; k < 3; k++) {
        double F[3], Fl[3], Fd[3], E;
        ch05_force(&m, qs[k], vs[k], F);
        lagrange_force(qs[k], vs[k], Fl);
        document_force(qs[k], vs[k], Fd);
        for (int i = 0; i < 3; i++) {
            CHECK_CLOSE(F[i], Fd[i], 1e-12);   /* the general form reduces to the print */
            CHECK_CLOSE(F[i], Fl[i], 1e-6);    /* and is the consistent chain's */
        }
        E = ch05_energy(&m, qs[k], vs[k]);
        CHECK_CLOSE(E, kinetic(qs[k], vs[k]) + potential(qs[k]), 1e-12);
    }
}

/* ------------------------------------------------------------------------ */
/* The reduced reference and the fold                                         */

static void reduced_reference(void)
{
    ch05_model m;
    ch05_model_document(&m);
    /* the closed forms of the reduced inertia */
    for (double th = -2; th <= 2; th += 0.37) {
        CHECK_CLOSE(ch05_reduced_inertia(&m, CH05_MASS_DOCUMENT, th),
                    20.0 / 3 + 16 * cos(th) * cos(th), 1e-12);
        CHECK_CLOSE(ch05_reduced_inertia(&m, CH05_MASS_CONSISTENT, th),
                    8.0 / 3 + 24 * cos(th) * cos(th), 1e-12);
    }
    const double ts[] = {0.5, 1.0, 1.5, 1.8, 2.0};
    for (int k = 0; k < 2; k++) {
        ch05_reference r = {0};
        reference mine;
        REQUIRE_STATUS(ch05_reference_init(&r, &m, (ch05_mass_kind)k), GSL_SUCCESS);
        ref_init(&mine, k);
        for (size_t i = 0; i < sizeof ts / sizeof ts[0]; i++) {
            double q[3], v[3], qm[3], vm[3];
            REQUIRE_STATUS(ch05_reference_state(&r, ts[i], q, v), GSL_SUCCESS);
            ref_state(&mine, ts[i], qm, vm);
            for (int j = 0; j < 3; j++) {
                CHECK_CLOSE(q[j], qm[j], 1e-9);
                CHECK_CLOSE(v[j], vm[j], 1e-9);
            }
        }
        ch05_reference_free(&r);
        ref_free(&mine);
    }
}

static void fold_times(void)
{
    ch05_model m;
    ch05_model_document(&m);
    const double quad = quadrature_fold(), doc = ref_fold(0), cons = ref_fold(1);
    CHECK_CLOSE(cons, quad, 1e-8);          /* two independent routes */
    double t[2];
    for (int k = 0; k < 2; k++) {
        ch05_reference r = {0};
        REQUIRE_STATUS(ch05_reference_init(&r, &m, (ch05_mass_kind)k), GSL_SUCCESS);
        REQUIRE_STATUS(ch05_reference_crossing(&r, 0.0, 3.0, &t[k]), GSL_SUCCESS);
        ch05_reference_free(&r);
    }
    CHECK_CLOSE(t[0], doc, 1e-8);
    CHECK_CLOSE(t[1], quad, 1e-8);
    /* the consistent model folds inside the document's 1.8 s, the document's just after */
    CHECK_IN(t[1], 1.6, 1.8);
    CHECK_IN(t[0], 1.8, 2.0);
}

/* S = C_q M^-1 C_q^T for the document's M on the branch, in closed form:
 * C_q rows (0, -L cos, -1) and (2 L sin, L sin, 0), M^-1 = diag(3/4, 3/4, 1) */
static double document_condition(double th)
{
    const double s = sin(th), c = cos(th);
    const double S11 = 0.75 * L * L * c * c + 1.0, S12 = -0.75 * L * L * s * c;
    const double S22 = 0.75 * (4 * L * L + L * L) * s * s;
    const double tr = S11 + S22, det = S11 * S22 - S12 * S12;
    const double lmax = 0.5 * tr + sqrt(0.25 * tr * tr - det);
    return lmax / (det / lmax);
}

static void condition_near_the_fold(void)
{
    ch05_model m;
    ch05_model_document(&m);
    for (double th = 1.0; th > 1e-7; th /= 10) {
        double q[3], v[3];
        ch05_branch_state(&m, th, 0, q, v);
        CHECK_REL(ch05_schur_condition(&m, CH05_MASS_DOCUMENT, q), document_condition(th), 1e-8);
    }
    /* cond(S) th1^2 -> 16/51 (document) */
    double q[3], v[3];
    ch05_branch_state(&m, 1e-5, 0, q, v);
    CHECK_REL(ch05_schur_condition(&m, CH05_MASS_DOCUMENT, q) * 1e-10, 16.0 / 51.0, 1e-6);
    /* the consistent one grows as 1/th1^2 too */
    ch05_branch_state(&m, 1e-4, 0, q, v);
    double c4 = ch05_schur_condition(&m, CH05_MASS_CONSISTENT, q);
    ch05_branch_state(&m, 1e-5, 0, q, v);
    double c5 = ch05_schur_condition(&m, CH05_MASS_CONSISTENT, q);
    CHECK_REL(c5 / c4, 100.0, 1e-4);

    /* the library's projection refuses the fold itself */
    for (int k = 0; k < 2; k++) {
        m.mass = (ch05_mass_kind)k;
        mbd_system s;
        ch05_system(&m, &s);
        mbd_formulation_params fp = {.mu = 1e5};
        mbd_formulation_method("projection", &fp);
        mbd_formulation *f = mbd_formulation_alloc(&s, &fp);
        double qq[3], vv[3], a[3];
        ch05_branch_state(&m, 0.0, -1.5, qq, vv);
        gsl_vector_view qv = gsl_vector_view_array(qq, 3), vv_ = gsl_vector_view_array(vv, 3);
        gsl_vector_view av = gsl_vector_view_array(a, 3);
        CHECK_STATUS(mbd_formulation_accel(f, 1.0, &qv.vector, &vv_.vector, &av.vector, NULL),
                     MBD_ESINGULAR);
        CHECK_MSG(strstr(mbd_formulation_failure(f)->cause, "Schur complement") != NULL,
                  "cause: %s", mbd_formulation_failure(f)->cause);
        mbd_formulation_free(f);
    }
}

/* ------------------------------------------------------------------------ */
/* The program's runs against this file's reference                           */

static void tight_projection(void)
{
    const struct { const char *mass; const char *t_end; int consistent; } c[] = {
        {"document", "1.8", 0}, {"consistent", "1.7", 1}};
    for (int k = 0; k < 2; k++) {
        char args[256];
        snprintf(args, sizeof args, "--method projection --integrator tight --mass %s --t-end %s",
                 c[k].mass, c[k].t_end);
        table tb;
        test_run_result r;
        REQUIRE_STATUS(run_csv(args, &tb, &r), 0);
        CHECK_STATUS(r.status, 0);
        CHECK_GE((double)tb.rows, 17001);
        double pos, vel;
        compare(&tb, c[k].consistent, &pos, &vel);
        CHECK_LE(pos, 1e-5);
        CHECK_LE(vel, 1e-4);
        /* the invariants of the L1 = L2 branch, and the slider's farthest point */
        double inv1 = 0, inv2 = 0, x3max = 0, Emax = 0;
        for (size_t i = 0; i < tb.rows; i++) {
            const double *x = row(&tb, i);
            inv1 = fmax(inv1, fabs(x[2] + 2 * x[1] - M_PI));
            inv2 = fmax(inv2, fabs(x[3] - 4 * sin(x[1])));
            x3max = fmax(x3max, x[3]);
            /* E is the true energy of the row's state, whatever the mass matrix */
            const double q[3] = {x[1], x[2], x[3]}, v[3] = {x[4], x[5], x[6]};
            CHECK_CLOSE(x[9], kinetic(q, v) + potential(q), 1e-9);
            Emax = fmax(Emax, fabs(x[9] - E0_EXACT));
        }
        CHECK_LE(inv1, 1e-6);
        CHECK_LE(inv2, 1e-6);
        CHECK_CLOSE(x3max, 4.0, 1e-6);
        if (c[k].consistent)
            CHECK_LE(Emax / E0_EXACT, 1e-8);       /* only the consistent M conserves it */
        else
            CHECK_GE(Emax, 5.0);                   /* the document's loses joules */
        free(tb.v);
        test_run_free(&r);
    }
}

static void penalty_baumgarte(void)
{
    const struct { const char *mass; const char *t_end; int consistent; } c[] = {
        {"document", "1.8", 0}, {"consistent", "1.7", 1}};
    for (int k = 0; k < 2; k++) {
        char args[256];
        snprintf(args, sizeof args, "--method penalty-baumgarte --mu 1e5 --integrator tight "
                                    "--mass %s --t-end %s", c[k].mass, c[k].t_end);
        table tb;
        test_run_result r;
        REQUIRE_STATUS(run_csv(args, &tb, &r), 0);
        CHECK_STATUS(r.status, 0);
        double pos, vel;
        compare(&tb, c[k].consistent, &pos, &vel);
        CHECK_LE(pos, 1e-4);
        free(tb.v);
        test_run_free(&r);
    }
}

/* the document's two runs (ode23): close to each other, and to the reference
 * as close as ode23's tolerances allow */
static void document_runs(void)
{
    table a, b;
    test_run_result ra, rb;
    REQUIRE_STATUS(run_csv("--method penalty-baumgarte", &a, &ra), 0);
    REQUIRE_STATUS(run_csv("--method projection-baumgarte", &b, &rb), 0);
    CHECK_STATUS(ra.status, 0);
    CHECK_STATUS(rb.status, 0);
    CHECK_MSG(a.rows == b.rows && a.rows == 18001, "rows %zu and %zu, expected 18001", a.rows,
              b.rows);
    double d = 0;
    for (size_t k = 0; k < a.rows && k < b.rows; k++)
        for (int i = 1; i <= 6; i++)
            d = fmax(d, fabs(row(&a, k)[i] - row(&b, k)[i]));
    CHECK_LE(d, 1e-4);
    double pos, vel;
    compare(&a, 0, &pos, &vel);
    CHECK_IN(pos, 1e-5, 1e-2);   /* ode23 (RelTol 1e-3) sets the error, not the formulation */
    free(a.v);
    free(b.v);
    test_run_free(&ra);
    test_run_free(&rb);
}

static void fold_detected(void)
{
    const double fold[2] = {ref_fold(0), ref_fold(1)};
    const char *mass[2] = {"document", "consistent"};
    for (int k = 0; k < 2; k++) {
        char args[256];
        test_run_result r;
        snprintf(args, sizeof args, "--t-end 2 --mass %s --method projection-baumgarte "
                                    "--integrator tight", mass[k]);
        CHECK_CLOSE(summary_of(args, "fold_time", &r), fold[k], 1e-4);
        CHECK_CLOSE(test_summary(r.out, "fold_time_reference"), fold[k], 1e-8);
        test_run_free(&r);
        /* the document's own run (ode23, penalty with Baumgarte) */
        snprintf(args, sizeof args, "--t-end 2 --mass %s", mass[k]);
        CHECK_CLOSE(summary_of(args, "fold_time", &r), fold[k], 0.01);
        CHECK_MSG(strstr(r.out, "branch_after_fold = same") != NULL, "%s", r.out);
        CHECK_MSG(strstr(r.out, "status = ok") != NULL, "%s", r.out);
        CHECK_CLOSE(test_summary(r.out, "t_reached"), 2.0, 1e-12);
        test_run_free(&r);
    }
    /* within 1.8 s only the consistent model reaches the fold */
    char cmd[256];
    test_run_result r;
    snprintf(cmd, sizeof cmd, "%s --summary", test_program("ch05-slider-crank"));
    test_run(cmd, &r);
    CHECK_MSG(strstr(r.out, "fold_time = none\n") != NULL, "the document's model folds after 1.8 s");
    test_run_free(&r);
    CHECK_CLOSE(summary_of("--mass consistent", "fold_time", &r), fold[1], 0.01);
    test_run_free(&r);
}

/* through the fold: the penalty passes; without Baumgarte it ends folded,
 * with Baumgarte on the reference's branch */
static void through_the_fold(void)
{
    const char *methods[] = {"penalty", "penalty-baumgarte"};
    for (int j = 0; j < 2; j++) {
        char args[256];
        snprintf(args, sizeof args, "--method %s --mass consistent --t-end 2", methods[j]);
        table tb;
        test_run_result r;
        REQUIRE_STATUS(run_csv(args, &tb, &r), 0);
        CHECK_STATUS(r.status, 0);
        REQUIRE_STATUS(tb.rows > 0 ? 0 : 1, 0);
        const double *x = row(&tb, tb.rows - 1);
        CHECK_CLOSE(x[0], 2.0, 1e-12);
        CHECK_LE(x[1], -0.2);                                 /* past the fold */
        if (j == 0) {
            CHECK_CLOSE(x[2], M_PI, 0.01);                    /* folded: th2 = pi, x3 = 0 */
            CHECK_CLOSE(x[3], 0.0, 0.01);
        } else {
            CHECK_CLOSE(x[2] + 2 * x[1], M_PI, 0.01);         /* th2 = pi - 2 th1 */
            CHECK_CLOSE(x[3], 4 * sin(x[1]), 0.01);
        }
        free(tb.v);
        test_run_free(&r);
    }
    /* the penalty's own matrix does not notice the fold; S does */
    {
        test_run_result r;
        double c = summary_of("--method penalty-baumgarte --mass consistent --t-end 2",
                              "max_method_condition", &r);
        CHECK_IN(c, 1e5, 1e7);
        CHECK_GE(test_summary(r.out, "max_schur_condition"), 1e6);
        test_run_free(&r);
    }
    /* a projection whose last step ends on the fold is refused there: exit 1,
     * time and cause said */
    char cmd[512];
    test_run_result r;
    snprintf(cmd, sizeof cmd, "%s --method projection --integrator tight --t-end %.16g --summary",
             test_program("ch05-slider-crank"), ref_fold(0));
    test_run(cmd, &r);
    CHECK_STATUS(r.status, 1);
    CHECK_MSG(strstr(r.err, "Schur complement") && strstr(r.err, "at t = 1.93"), "%s", r.err);
    CHECK_MSG(strstr(r.out, "status = singular") != NULL, "%s", r.out);
    CHECK_MSG(!has_word(r.out, "nan") && !has_word(r.out, "inf"), "%s", r.out);
    test_run_free(&r);
}

static void printed_baumgarte_diverges(void)
{
    char cmd[256];
    test_run_result r;
    snprintf(cmd, sizeof cmd, "%s --method penalty-baumgarte-printed --summary",
             test_program("ch05-slider-crank"));
    test_run(cmd, &r);
    CHECK_STATUS(r.status, 1);
    CHECK_MSG(strstr(r.err, "exceeds") != NULL, "%s", r.err);
    CHECK_IN(test_summary(r.out, "t_reached"), 0.1, 1.0);
    test_run_free(&r);
}

/* ------------------------------------------------------------------------ */
/* The command line                                                          */

static void command_line(void)
{
    const char *bad[] = {"--mass bogus", "--method index2-penalty --project", "--mu 0",
                         "--alpha -1", "--integrator nope", "--scenario x", "--integrator fixed --rtol 1e-3"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char cmd[256];
        test_run_result r;
        snprintf(cmd, sizeof cmd, "%s %s", test_program("ch05-slider-crank"), bad[i]);
        test_run(cmd, &r);
        CHECK_MSG(r.status == 2 && r.err[0] != '\0', "'%s': exit %d, stderr '%s'", bad[i], r.status,
                  r.err);
        test_run_free(&r);
    }
    table tb;
    test_run_result r;
    REQUIRE_STATUS(run_csv("--t-end 0.01", &tb, &r), 0);
    CHECK_MSG(strcmp(tb.header, "t,theta1,theta2,x3,theta1_dot,theta2_dot,x3_dot,C_norm,Cdot_norm,E,h")
                  == 0, "header '%s'", tb.header);
    CHECK_MSG(tb.rows == 101, "rows %zu", tb.rows);
    free(tb.v);
    test_run_free(&r);
    REQUIRE_STATUS(run_csv("--t-end 0.01 --integrator fixed", &tb, &r), 0);
    CHECK_MSG(strcmp(tb.header, "t,theta1,theta2,x3,theta1_dot,theta2_dot,x3_dot,C_norm,Cdot_norm,E")
                  == 0, "header '%s'", tb.header);
    free(tb.v);
    test_run_free(&r);

    const char *keys[] = {"mass", "method", "integrator", "mu", "alpha", "beta", "t_end",
                          "t_reached", "steps", "rejected", "fevals", "corrections", "max_C_norm",
                          "max_Cdot_norm", "max_energy_error", "max_position_error", "status",
                          "fold_time_reference"};
    char cmd[256];
    snprintf(cmd, sizeof cmd, "%s --summary --mass consistent --project --method projection",
             test_program("ch05-slider-crank"));
    test_run(cmd, &r);
    CHECK_STATUS(r.status, 0);
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        CHECK_MSG(strstr(r.out, keys[i]) != NULL, "summary key %s missing", keys[i]);
    CHECK_MSG(strstr(r.out, "mass = consistent") && strstr(r.out, "method = projection")
                  && strstr(r.out, "integrator = ode23") && strstr(r.out, "status = ok"),
              "%s", r.out);
    CHECK_GE(test_summary(r.out, "corrections"), 1);
    CHECK_LE(test_summary(r.out, "max_C_norm"), 1e-3);
    test_run_free(&r);
}

static void story(void)
{
    char cmd[256];
    test_run_result r;
    snprintf(cmd, sizeof cmd, "%s --no-timing", test_program("ch05-slider-crank"));
    test_run(cmd, &r);
    CHECK_STATUS(r.status, 0);
    for (int k = 1; k <= 9; k++) {
        char step[32];
        snprintf(step, sizeof step, "Step %d.", k);
        CHECK_MSG(strstr(r.out, step) != NULL, "%s missing", step);
    }
    char fold[64];
    snprintf(fold, sizeof fold, "%.6f", ref_fold(1));
    CHECK_MSG(strstr(r.out, fold) != NULL, "the consistent fold time %s is not printed", fold);
    CHECK_MSG(!has_word(r.out, "nan") && !has_word(r.out, "inf") && !has_word(r.out, "-nan"),
              "nan or inf printed");
    test_run_free(&r);
}

/* The reference read from one dense-output run agrees with the one stepped
 * onto every time to 1e-8 on the document's grid (both mass matrices), and a
 * later stepped request does not reuse the dense table. */
static void dense_reference_agrees(void)
{
    ch05_model m;
    ch05_model_document(&m);
    for (int k = 0; k < 2; k++) {
        ch05_reference a = {0}, b = {0};
        const ch05_mass_kind kind = k ? CH05_MASS_CONSISTENT : CH05_MASS_DOCUMENT;
        REQUIRE_STATUS(ch05_reference_init(&a, &m, kind), GSL_SUCCESS);
        REQUIRE_STATUS(ch05_reference_init(&b, &m, kind), GSL_SUCCESS);
        REQUIRE_STATUS(ch05_reference_tabulate(&a, 1e-3, 1.8), GSL_SUCCESS);
        REQUIRE_STATUS(ch05_reference_tabulate_dense(&b, 1e-3, 1.8), GSL_SUCCESS);
        CU_ASSERT_EQUAL(a.tab_n, b.tab_n);
        double worst = 0;
        for (size_t i = 0; i < 2 * a.tab_n && i < 2 * b.tab_n; i++)
            worst = fmax(worst, fabs(a.tab[i] - b.tab[i]) / fmax(1.0, fabs(a.tab[i])));
        CHECK_LE(worst, 1e-8);
        REQUIRE_STATUS(ch05_reference_tabulate(&b, 1e-3, 1.8), GSL_SUCCESS);
        CU_ASSERT_EQUAL(b.tab_dense, 0);
        CHECK_CLOSE(b.tab[2 * 1000], a.tab[2 * 1000], 0);
        ch05_reference_free(&a);
        ch05_reference_free(&b);
    }
}

/* The chapter's hand-written model (consistent mass matrix) against the same
 * slider-crank assembled from planar bodies (planar.h): ground, crank 1 with
 * its reference point at the pivot (its centre of mass off it), rod 2 about
 * its centre, slider 3 on the x axis. Planar angles are measured from +x,
 * phi1 = th1 - pi/2, phi2 = th1 + th2 - pi/2; the accelerations of both, by
 * the library's projection, agree at consistent states on both branches. */
static void planar_assembly_agrees(void)
{
    ch05_model m;
    ch05_model_document(&m);
    m.mass = CH05_MASS_CONSISTENT;
    m.m1 = 1.3;   /* unequal masses: every term of the coupling shows */
    m.m3 = 0.7;
    mbd_system chapter;
    ch05_system(&m, &chapter);
    mbd_planar_model *pm = mbd_planar_alloc();
    const int g = mbd_planar_add_ground(pm, 0);
    const double o[2] = {0, 0}, uc[2] = {m.L1 / 2, 0}, tip[2] = {m.L1, 0};
    const double a2[2] = {-m.L2 / 2, 0}, b2[2] = {m.L2 / 2, 0}, axis[2] = {1, 0};
    const int crank = mbd_planar_add_body(pm, 1, m.m1, m.m1 * m.L1 * m.L1 / 12, uc);
    const int rod = mbd_planar_add_body(pm, 2, m.m2, m.m2 * m.L2 * m.L2 / 12, NULL);
    const int slider = mbd_planar_add_body(pm, 3, m.m3, 0.1, NULL);
    mbd_planar_add_revolute(pm, crank, o, g, o);
    mbd_planar_add_revolute(pm, crank, tip, rod, a2);
    mbd_planar_add_revolute(pm, rod, b2, slider, o);
    mbd_planar_add_translational(pm, slider, o, g, o, axis, 0.0);
    mbd_planar_set_gravity(pm, 0.0, -m.g);
    REQUIRE_STATUS(mbd_planar_finish(pm), GSL_SUCCESS);
    const mbd_system *planar = mbd_planar_system(pm);
    mbd_formulation_params fp = {0};
    mbd_formulation_method("projection", &fp);
    mbd_formulation *fc = mbd_formulation_alloc(&chapter, &fp), *fpl = mbd_formulation_alloc(planar, &fp);
    CU_ASSERT_PTR_NOT_NULL_FATAL(fc);
    CU_ASSERT_PTR_NOT_NULL_FATAL(fpl);
    gsl_vector *Q = gsl_vector_alloc(9), *Qd = gsl_vector_alloc(9), *Qdd = gsl_vector_alloc(9);
    gsl_vector *lp = gsl_vector_alloc(8), *qc = gsl_vector_alloc(3), *qdc = gsl_vector_alloc(3),
               *qddc = gsl_vector_alloc(3), *lc = gsl_vector_alloc(2);
    double worst = 0.0;
    for (int k = 0; k < 12; k++) {
        /* a consistent state: the end of rod 2 on the axis, C_q q' = 0 */
        const double th1 = 0.3 + 0.45 * k, w1 = 1.5 * sin(2.0 * k + 1.0);
        double b = acos(-m.L1 * cos(th1) / m.L2);
        if (k % 2)
            b = -b;
        const double w2 = -(m.L1 * sin(th1) + m.L2 * sin(b)) * w1 / (m.L2 * sin(b));
        const double w12 = w1 + w2;
        const double q[3] = {th1, b - th1, m.L1 * sin(th1) + m.L2 * sin(b)};
        const double qd[3] = {w1, w2, (m.L1 * cos(th1) + m.L2 * cos(b)) * w1 + m.L2 * cos(b) * w2};
        for (int i = 0; i < 3; i++) {
            gsl_vector_set(qc, i, q[i]);
            gsl_vector_set(qdc, i, qd[i]);
        }
        gsl_vector_set_zero(Q);
        gsl_vector_set_zero(Qd);
        mbd_planar_set_pose(pm, crank, 0.0, 0.0, th1 - M_PI / 2, Q);
        mbd_planar_set_velocity(pm, crank, 0.0, 0.0, w1, Qd);
        mbd_planar_set_pose(pm, rod, m.L1 * sin(th1) + 0.5 * m.L2 * sin(b),
                            -m.L1 * cos(th1) - 0.5 * m.L2 * cos(b), b - M_PI / 2, Q);
        mbd_planar_set_velocity(pm, rod, m.L1 * cos(th1) * w1 + 0.5 * m.L2 * cos(b) * w12,
                                m.L1 * sin(th1) * w1 + 0.5 * m.L2 * sin(b) * w12, w12, Qd);
        mbd_planar_set_pose(pm, slider, q[2], 0.0, 0.0, Q);
        mbd_planar_set_velocity(pm, slider, qd[2], 0.0, 0.0, Qd);
        REQUIRE_STATUS(mbd_formulation_accel(fc, 0.0, qc, qdc, qddc, lc), GSL_SUCCESS);
        REQUIRE_STATUS(mbd_formulation_accel(fpl, 0.0, Q, Qd, Qdd, lp), GSL_SUCCESS);
        const double a1 = gsl_vector_get(Qdd, 2), a12 = gsl_vector_get(Qdd, 5);
        worst = fmax(worst, fabs(gsl_vector_get(qddc, 0) - a1));
        worst = fmax(worst, fabs(gsl_vector_get(qddc, 1) - (a12 - a1)));
        worst = fmax(worst, fabs(gsl_vector_get(qddc, 2) - gsl_vector_get(Qdd, 6)));
    }
    CHECK_MSG(worst < 1e-10, "chapter model - planar assembly: %.3g", worst);
    mbd_formulation_free(fc);
    mbd_formulation_free(fpl);
    gsl_vector *vs[] = {Q, Qd, Qdd, lp, qc, qdc, qddc, lc};
    for (size_t i = 0; i < sizeof vs / sizeof vs[0]; i++)
        gsl_vector_free(vs[i]);
    mbd_planar_free(pm);
}

static CU_TestInfo tests[] = {
    {"the dense-output reference agrees with the stepped one to 1e-8", dense_reference_agrees},
    {"the planar assembly (planar.h) gives the chapter's accelerations", planar_assembly_agrees},
    {"initial conditions consistent to 1e-14 (Table 4)", initial_conditions},
    {"C_q and gamma by finite differences; the printed gamma fails", derivatives},
    {"consistent M is the chain's kinetic energy; the document's is not", mass_matrices},
    {"F is the consistent chain's (Lagrange); general form reduces to the print", force_is_lagrangian},
    {"reduced references against this file's own", reduced_reference},
    {"fold times: quadrature, this file's reference, the chapter's", fold_times},
    {"cond(S) near the fold; the projection refuses the fold", condition_near_the_fold},
    {"tight projection: reference, invariants, x3 max, energy", tight_projection},
    {"penalty-baumgarte (mu = 1e5) within 1e-4 in positions", penalty_baumgarte},
    {"the document's ode23 runs", document_runs},
    {"the fold detected at the right time for both mass matrices", fold_detected},
    {"through the fold: the penalty passes; on which branch", through_the_fold},
    {"the printed Baumgarte sign diverges", printed_baumgarte_diverges},
    {"command line: errors, CSV columns, summary keys", command_line},
    {"the story", story},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"ch05", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
