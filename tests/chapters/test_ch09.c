/* Chapter 09: the 3D Euler-parameter engine of document 003 (Vignos 2016,
 * simEngine3D) run on model files, checked against things computed
 * independently of the chapter's code:
 *   - the driven spatial slider-crank (kinematics) against its closed form
 *     x(theta) (reference.c, itself checked here by finite differences), from
 *     t0 = 0 and from t0 != 0 with another step; |C| and |p| along the run;
 *   - the driven ME751 pendulum (inverse dynamics): the driver's torque and
 *     the hinge's force against the closed forms, the force's sign by physics,
 *     the torque again by the power balance dE/dt = n theta' (finite
 *     differences of the record's energy), the force again by Newton's law
 *     (finite differences of the record's positions);
 *   - one body on each joint type: the joint's rows against the table of the
 *     document (typed in here), rank and degrees of freedom against an SVD of
 *     the Jacobian taken here;
 *   - the planar four-bar of four revolutes: 24 rows of rank 21 (SVD), the 3
 *     rows named redundant really depend on the others, and the rocker's
 *     point against the intersection of two circles computed here;
 *   - an unreachable assembly: a failure at t = 0 naming the rows;
 *   - initial velocities with one body's velocity known: Phi_q q' = nu (the
 *     system's Jacobian and a finite difference of C), the known ones kept;
 *   - the program: every malformed model file of tests/lib/model_files/bad/
 *     (exit 2, FILE:LINE:COL and what was expected, nothing written), usage
 *     errors, CSV columns per the contract, finite values, summary
 *     keys against the model's counts, --t-end/--h, the story.
 *
 * Summary keys relied on (ch09_write_summary): model, analysis, bodies,
 * coordinates, rows, rank, dof, redundant_rows, redundant_row_names,
 * assembled, velocities_known, t_start, t_end, h, outputs, t_reached,
 * max_C_norm, status.
 *
 * Data files: tests/chapters/ch09/piston-late.yaml (an analysis starting at
 * t = 0.5 s) and pendulum-no-analysis.yaml (a fully driven model without an
 * analysis section). */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_math.h>

#include "check.h"
#include "gif.h"
#include "reference.h"
#include "study.h"

#define PROG "ch09-spatial-engine"
#define MODELS "chapters/09-spatial-engine/models/"
#define DATA "tests/chapters/ch09/"
#define BAD "tests/lib/model_files/bad/"

/* ------------------------------------------------------------------------ */
/* Helpers                                                                   */

static int load(ch09_model *md, const char *file)
{
    mbd_failure fail;
    mbd_failure_clear(&fail);
    int st = ch09_model_load_named(md, file, &fail);
    CHECK_MSG(st == GSL_SUCCESS, "%s: %s", file, fail.cause);
    return st;
}

static int body_of(const ch09_model *md, const char *name)
{
    for (size_t k = 0; k < md->desc->nbodies; k++)
        if (strcmp(md->desc->bodies[k].name, name) == 0)
            return (int)k;
    CHECK_MSG(0, "no body '%s'", name);
    return 0;
}

/* the first column in q of a (desc) body's coordinates */
static size_t coords_of(const ch09_model *md, const char *name)
{
    size_t first = 0;
    int st = mbd_spatial_body_coordinates(md->sm, md->body[body_of(md, name)], &first);
    CHECK_STATUS(st, GSL_SUCCESS);
    return first;
}

/* the numerical rank of a matrix by SVD (singular values above 1e-9 of the
 * largest); A is left unchanged */
static size_t svd_rank(const gsl_matrix *A)
{
    const int tr = A->size1 < A->size2;
    const size_t r = tr ? A->size2 : A->size1, c = tr ? A->size1 : A->size2;
    gsl_matrix *U = gsl_matrix_alloc(r, c), *V = gsl_matrix_alloc(c, c);
    gsl_vector *S = gsl_vector_alloc(c), *w = gsl_vector_alloc(c);
    if (tr)
        gsl_matrix_transpose_memcpy(U, A);
    else
        gsl_matrix_memcpy(U, A);
    gsl_linalg_SV_decomp(U, V, S, w);
    size_t rank = 0;
    for (size_t i = 0; i < c; i++)
        rank += gsl_vector_get(S, i) > 1e-9 * gsl_vector_get(S, 0);
    gsl_matrix_free(U);
    gsl_matrix_free(V);
    gsl_vector_free(S);
    gsl_vector_free(w);
    return rank;
}

/* the value of "key = value" in summary text (the rest of the line), or NULL */
static const char *summary_text(const char *text, const char *key, char *buf, size_t n)
{
    const size_t kl = strlen(key);
    for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
        if (strncmp(p, key, kl) == 0 && strncmp(p + kl, " =", 2) == 0) {
            const char *v = p + kl + 2;
            while (*v == ' ')
                v++;
            size_t l = strcspn(v, "\n");
            if (l >= n)
                l = n - 1;
            memcpy(buf, v, l);
            buf[l] = '\0';
            return buf;
        }
    }
    return NULL;
}

#define CHECK_SUMMARY_TEXT(text, key, expected)                                               \
    do {                                                                                      \
        char b_[512];                                                                         \
        const char *v_ = summary_text((text), (key), b_, sizeof b_);                          \
        CHECK_MSG(v_ != NULL && strcmp(v_, (expected)) == 0, "summary %s: '%s', expected '%s'", \
                  (key), v_ ? v_ : "(missing)", (expected));                                  \
    } while (0)

/* A CSV text: its header's names and its values, every one parsed as a
 * number; bad counts fields that are not numbers or not finite, or rows of
 * the wrong width. */
typedef struct {
    size_t ncol, nrow;
    char **name;
    double *v;
    size_t bad;
    char first_bad[128];
} csv;

static void csv_free(csv *c)
{
    for (size_t i = 0; i < c->ncol; i++)
        free(c->name[i]);
    free(c->name);
    free(c->v);
    memset(c, 0, sizeof *c);
}

static int csv_parse(const char *text, csv *c)
{
    memset(c, 0, sizeof *c);
    const char *eol = strchr(text, '\n');
    if (eol == NULL)
        return -1;
    for (const char *p = text; p <= eol; p++)
        c->ncol += *p == ',' || *p == '\n';
    c->name = calloc(c->ncol, sizeof *c->name);
    const char *p = text;
    for (size_t i = 0; i < c->ncol; i++) {
        const size_t l = strcspn(p, ",\n");
        c->name[i] = malloc(l + 1);
        memcpy(c->name[i], p, l);
        c->name[i][l] = '\0';
        p += l + 1;
    }
    size_t cap = 0;
    for (const char *q = eol + 1; *q; q++)
        cap += *q == '\n';
    c->v = malloc((cap ? cap : 1) * c->ncol * sizeof *c->v);
    for (const char *row = eol + 1; *row; row = strchr(row, '\n') + 1) {
        const char *end = strchr(row, '\n');
        if (end == NULL) {
            c->bad++;
            break;
        }
        size_t i = 0;
        for (const char *f = row; f <= end && i <= c->ncol; i++) {
            char *e;
            const double x = strtod(f, &e);
            const size_t l = strcspn(f, ",\n");
            if (i < c->ncol)
                c->v[c->nrow * c->ncol + i] = x;
            if (e != f + l || l == 0 || !isfinite(x)) {
                if (c->bad++ == 0)
                    snprintf(c->first_bad, sizeof c->first_bad, "row %zu column %zu: '%.*s'",
                             c->nrow + 1, i + 1, (int)(l < 60 ? l : 60), f);
            }
            f += l + 1;
        }
        if (i != c->ncol && c->bad++ == 0)
            snprintf(c->first_bad, sizeof c->first_bad, "row %zu has %zu fields, not %zu",
                     c->nrow + 1, i, c->ncol);
        c->nrow++;
    }
    return 0;
}

static int csv_col(const csv *c, const char *name)
{
    for (size_t i = 0; i < c->ncol; i++)
        if (strcmp(c->name[i], name) == 0)
            return (int)i;
    CHECK_MSG(0, "no CSV column '%s'", name);
    return 0;
}

static double csv_at(const csv *c, size_t row, int col)
{
    return c->v[row * c->ncol + (size_t)col];
}

/* a scratch directory for output files, made once */
static char scratch[] = "/tmp/mbd-test-ch09-XXXXXX";
static int scratch_made;

static const char *scratch_path(const char *name)
{
    static char path[400];
    if (!scratch_made)
        scratch_made = mkdtemp(scratch) != NULL;
    snprintf(path, sizeof path, "%s/%s", scratch, name);
    return path;
}

static int file_exists(const char *path)
{
    struct stat s;
    return stat(path, &s) == 0;
}

static int cleanup_suite(void)
{
    if (scratch_made) {
        DIR *d = opendir(scratch);
        for (struct dirent *de; d && (de = readdir(d)) != NULL;)
            if (de->d_name[0] != '.')
                remove(scratch_path(de->d_name));
        if (d)
            closedir(d);
        rmdir(scratch);
    }
    return 0;
}

/* runs the program with `args`, expecting a refusal: exit 2, nothing on
 * stdout, no file `out` created, stderr naming `says` (each of up to two) */
static void expect_refused(const char *args, const char *out, const char *says,
                           const char *says2)
{
    char cmd[2048];
    test_run_result r;
    remove(out);
    snprintf(cmd, sizeof cmd, "%s %s", test_program(PROG), args);
    test_run(cmd, &r);
    CHECK_MSG(r.status == 2, "%s: exit %d, expected 2 (stderr: %s)", args, r.status, r.err);
    CHECK_MSG(r.out[0] == '\0', "%s: stdout not empty: %.200s", args, r.out);
    CHECK_MSG(!file_exists(out), "%s: %s was created", args, out);
    CHECK_MSG(strstr(r.err, says) != NULL, "%s: stderr does not name '%s': %s", args, says, r.err);
    if (says2)
        CHECK_MSG(strstr(r.err, says2) != NULL, "%s: stderr does not say '%s': %s", args, says2,
                  r.err);
    remove(out);
    test_run_free(&r);
}

/* ------------------------------------------------------------------------ */
/* The closed forms themselves (reference.c), by finite differences          */

static void closed_forms_by_differences(void)
{
    /* slider: x' and x'' of ch09_slider_exact against central differences of
     * its x, away from the dead centres (sin theta = 0) where x'' varies fast */
    double e1 = 0, e2 = 0, s1 = 0, s2 = 0;
    const double d = 1e-4;
    for (int k = 1; k < 100; k++) {
        const double t = k / 100.0;
        double x[3], xp[3], xm[3];
        ch09_slider_exact(t, x);
        ch09_slider_exact(t + d, xp);
        ch09_slider_exact(t - d, xm);
        e1 = fmax(e1, fabs((xp[0] - xm[0]) / (2 * d) - x[1]));
        e2 = fmax(e2, fabs((xp[0] - 2 * x[0] + xm[0]) / (d * d) - x[2]));
        s1 = fmax(s1, fabs(x[1]));
        s2 = fmax(s2, fabs(x[2]));
    }
    CHECK_LE(e1 / s1, 1e-7);
    CHECK_LE(e2 / s2, 1e-5);
    /* the document's numbers (reading guide 5.2 case 4, epsilon = 0): x(0.25)
     * = 0.207846, x(0.5) = 0.28, x(0.75) = 0.274226; with epsilon = 1e-4 the
     * times move by 1.6e-5 s */
    double x[3];
    ch09_slider_exact(0.5 + 1e-4 / (2 * M_PI), x);
    CHECK_CLOSE(x[0], 0.28, 1e-9);
    ch09_slider_exact(0.25 + 1e-4 / (2 * M_PI), x);
    CHECK_CLOSE(x[0], 0.207846, 1e-6);
    ch09_slider_exact(0.75 + 1e-4 / (2 * M_PI), x);
    CHECK_CLOSE(x[0], 0.274226, 1e-6);
    /* pendulum: theta', theta'' by differences */
    for (int k = 0; k < 40; k++) {
        const double t = 0.1 * k;
        double th[3], tp[3], tm[3];
        ch09_pendulum_theta(t, th);
        ch09_pendulum_theta(t + d, tp);
        ch09_pendulum_theta(t - d, tm);
        CHECK_CLOSE((tp[0] - tm[0]) / (2 * d), th[1], 1e-7);
        CHECK_CLOSE((tp[0] - 2 * th[0] + tm[0]) / (d * d), th[2], 1e-5);
    }
}

/* ------------------------------------------------------------------------ */
/* The driven slider-crank: kinematics against x(theta)                      */

static void slider_crank_run(double t0, double t1, double h)
{
    ch09_model md;
    if (load(&md, "slider-crank-driven.yaml") != GSL_SUCCESS)
        return;
    ch09_spec spec;
    mbd_failure fail;
    CHECK_STATUS(ch09_spec_of_model(&md, &spec, &fail), GSL_SUCCESS);
    spec.analysis = CH09_KINEMATICS;   /* the file asks for dynamics (part 2) */
    spec.t0 = t0;
    spec.t_end = t1;
    spec.h = h;
    ch09_run r;
    ch09_run_init(&r);
    CHECK_STATUS(ch09_run_spec(&md, &spec, &r), GSL_SUCCESS);
    CHECK_MSG(r.status == GSL_SUCCESS, "t0 = %g: %s", t0, r.fail.cause);
    const size_t N = (size_t)ceil((t1 - t0) / h - 1e-9);
    CU_ASSERT_EQUAL(r.rows, N + 1);
    const size_t n = r.n, xs = coords_of(&md, "slider");
    const mbd_system *sys = mbd_spatial_system(md.sm);
    gsl_vector *qdd = gsl_vector_alloc(n);
    /* ev, ea: x', x'' errors away from the dead centres (|sin theta| > 1e-2);
     * wv, wa: the errors times |sin theta| and sin^2 theta, everywhere */
    double ex = 0, ev = 0, ea = 0, wv = 0, wa = 0, sv = 0, sa = 0, cmax = 0, pn = 0, pp = 0;
    double et = 0, efd = 0;
    for (size_t k = 0; k < r.rows; k++) {
        const double t = r.t[k];
        et = fmax(et, fabs(t - (t0 + (t1 - t0) * (double)k / (double)N)));
        double x[3];
        ch09_slider_exact(t, x);
        double *q = r.q + k * n, *qd = r.qd + k * n;
        gsl_vector_view qv = gsl_vector_view_array(q, n), qdv = gsl_vector_view_array(qd, n);
        CHECK_STATUS(mbd_spatial_acceleration(md.sm, t, &qv.vector, &qdv.vector, qdd, NULL, NULL),
                     GSL_SUCCESS);
        /* the driver f = cos(theta(t)) fixes theta only to round-off / |sin
         * theta| (spatial.h): theta' and theta'' inherit 1 / |sin theta| and
         * 1 / sin^2 theta of it, and the grid passes |sin theta| = 1e-4 (the
         * document's offset) at t = 0.25 and 0.75 */
        const double sn = fabs(sin(ch09_slider_theta(t)));
        const double e1 = fabs(qd[xs] - x[1]), e2 = fabs(gsl_vector_get(qdd, xs) - x[2]);
        ex = fmax(ex, fabs(q[xs] - x[0]));
        if (sn > 1e-2) {
            ev = fmax(ev, e1);
            ea = fmax(ea, e2);
        }
        wv = fmax(wv, e1 * sn);
        wa = fmax(wa, e2 * sn * sn);
        sv = fmax(sv, fabs(x[1]));
        sa = fmax(sa, fabs(x[2]));
        /* the slider stays on the x axis, the output point is its origin */
        CHECK_CLOSE(q[xs + 1], 0.0, 1e-12);
        CHECK_CLOSE(q[xs + 2], 0.0, 1e-12);
        CHECK_CLOSE(r.points[k * 3], q[xs], 1e-15);
        cmax = fmax(cmax, r.C[k]);
        CHECK_MSG(isfinite(r.E[k]), "E at t = %g: %g", t, r.E[k]);
        for (size_t b = 0; b < n / 7; b++) {
            const double *p = q + 7 * b + 3, *pd = qd + 7 * b + 3;
            pn = fmax(pn, fabs(p[0] * p[0] + p[1] * p[1] + p[2] * p[2] + p[3] * p[3] - 1));
            pp = fmax(pp, fabs(p[0] * pd[0] + p[1] * pd[1] + p[2] * pd[2] + p[3] * pd[3]));
        }
        /* x'' also by central differences of the record's x' (no library) */
        if (k > 0 && k + 1 < r.rows && sn > 1e-2) {
            const double dt = r.t[k + 1] - r.t[k - 1];
            efd = fmax(efd, fabs((r.qd[(k + 1) * n + xs] - r.qd[(k - 1) * n + xs]) / dt - x[2]));
        }
    }
    printf("\n    slider-crank t0 = %g, h = %g: |x - x_exact| %.2g m; relative to max |x'| %.3g, "
           "max |x''| %.3g: x' %.2g, x'' %.2g (|sin theta| > 1e-2), x' |sin| %.2g, x'' sin^2 "
           "%.2g (all); |C| %.2g, ||p|^2 - 1| %.2g, p.p' %.2g, x'' by differences %.2g\n",
           t0, h, ex, sv, sa, ev / sv, ea / sa, wv / sv, wa / sa, cmax, pn, pp, efd / sa);
    CHECK_LE(et, 1e-12);
    CHECK_LE(ex, 1e-9);
    CHECK_LE(ev / sv, 1e-9);
    CHECK_LE(ea / sa, 1e-9);
    CHECK_LE(wv / sv, 1e-11);
    CHECK_LE(wa / sa, 1e-10);
    CHECK_LE(efd / sa, 1e-4 * (h / 1e-3) * (h / 1e-3));
    CHECK_LE(cmax, 1e-10);
    CHECK_LE(pn, 1e-12);
    CHECK_LE(pp, 1e-10);
    /* the last state satisfies the constraints too (recomputed here) */
    gsl_vector *C = gsl_vector_alloc(sys->m);
    gsl_vector_view qv = gsl_vector_view_array(r.q + (r.rows - 1) * n, n);
    CHECK_STATUS(sys->constraint(sys, r.t[r.rows - 1], &qv.vector, C), GSL_SUCCESS);
    CHECK_LE(gsl_vector_max(C) - gsl_vector_min(C), 2e-10);
    gsl_vector_free(C);
    gsl_vector_free(qdd);
    ch09_run_free(&r);
    ch09_model_free(&md);
}

static void slider_crank_from_zero(void)
{
    slider_crank_run(0.0, 1.0, 1e-3);
}

/* from t0 = 0.05 (theta = 72 degrees, on the side of the file's guess: the
 * driver cos(theta) = f cannot tell theta from -theta, so a start at, say,
 * t0 = 0.3 would be assembled at -theta(t0) = +18 degrees) with a step that
 * does not divide the run */
static void slider_crank_late_start(void)
{
    slider_crank_run(0.05, 0.6, 7e-4);
}

/* ------------------------------------------------------------------------ */
/* The driven pendulum: inverse dynamics                                     */

static void pendulum_torque_and_hinge_force(void)
{
    ch09_model md;
    if (load(&md, "pendulum-driven.yaml") != GSL_SUCCESS)
        return;
    ch09_spec spec;
    mbd_failure fail;
    CHECK_STATUS(ch09_spec_of_model(&md, &spec, &fail), GSL_SUCCESS);
    CU_ASSERT_EQUAL(spec.analysis, CH09_INVERSE_DYNAMICS);
    spec.reactions = 1;
    ch09_run r;
    ch09_run_init(&r);
    CHECK_STATUS(ch09_run_spec(&md, &spec, &r), GSL_SUCCESS);
    CHECK_MSG(r.status == GSL_SUCCESS, "%s", r.fail.cause);
    CU_ASSERT_EQUAL_FATAL(r.njoints, 2);   /* hinge, then swing */
    CU_ASSERT_EQUAL(r.rows, 401);
    CU_ASSERT_STRING_EQUAL(md.desc->joints[0].name, "hinge");
    CU_ASSERT_STRING_EQUAL(md.desc->constraints[0].name, "swing");
    const mbd_model_body *bar = &md.desc->bodies[body_of(&md, "bar")];
    const double m = bar->mass, Jzz = bar->inertia[8], g = 9.81;
    const double *s = md.desc->joints[0].point_j;
    const double hc = sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);   /* O to the centre */
    CHECK_CLOSE(m, 78.0, 1e-12);
    CHECK_CLOSE(hc, 2.0, 1e-15);
    CHECK_CLOSE(-md.desc->gravity[2], g, 0);
    const size_t n = r.n, xb = coords_of(&md, "bar");
    double nmax = 0, fmaxv = 0;
    for (size_t k = 0; k < r.rows; k++) {
        double F[3];
        nmax = fmax(nmax, fabs(ch09_pendulum_torque(r.t[k], m, Jzz, hc, g)));
        ch09_pendulum_hinge_force(r.t[k], m, hc, g, F);
        fmaxv = fmax(fmaxv, sqrt(F[0] * F[0] + F[1] * F[1] + F[2] * F[2]));
    }
    CHECK_CLOSE(nmax, 224.8, 0.1);   /* the guide's 224.77 N m (slender bar: 224.77) */
    double en = 0, eo = 0, ef = 0, eh = 0, epow = 0, pmax = 0, enewton = 0;
    for (size_t k = 0; k < r.rows; k++) {
        const double t = r.t[k];
        const double *hinge = r.react + (k * 2 + 0) * 6, *swing = r.react + (k * 2 + 1) * 6;
        /* the driver's torque: the swing constraint on its first body, the bar */
        en = fmax(en, fabs(swing[3] - ch09_pendulum_torque(t, m, Jzz, hc, g)));
        eo = fmax(eo, fmax(fabs(swing[4]), fabs(swing[5])));
        eo = fmax(eo, fmax(fabs(swing[0]), fmax(fabs(swing[1]), fabs(swing[2]))));
        /* the hinge's first body is the ground: the force on the bar is minus it */
        double F[3];
        ch09_pendulum_hinge_force(t, m, hc, g, F);
        for (int i = 0; i < 3; i++)
            ef = fmax(ef, fabs(-hinge[i] - F[i]));
        /* about the hinge's point on the ground (the axis through O): no torque
         * about x (the hinge's free axis) and none needed about y, z */
        for (int i = 3; i < 6; i++)
            eh = fmax(eh, fabs(hinge[i]));
        /* physics: the hinge holds the bar up, always (m g exceeds m h |s th''|) */
        CHECK_MSG(-hinge[2] > 0, "t = %g: the hinge's force on the bar %g is not upwards", t,
                  -hinge[2]);
        /* the power balance dE/dt = n theta' (theta' = omega_x, global; the
         * hinge does no work) and Newton's law F + m g = m a_c, both by central
         * differences of the record (E, r), at interior rows */
        double w[3];
        gsl_vector_view qv = gsl_vector_view_array(r.q + k * n, n);
        gsl_vector_view qdv = gsl_vector_view_array(r.qd + k * n, n);
        CHECK_STATUS(mbd_spatial_angular_velocity(md.sm, md.body[body_of(&md, "bar")], &qv.vector,
                                                  &qdv.vector, MBD_SPATIAL_GLOBAL, w),
                     GSL_SUCCESS);
        double th[3];
        ch09_pendulum_theta(t, th);
        CHECK_CLOSE(w[0], th[1], 1e-9);
        pmax = fmax(pmax, fabs(swing[3] * w[0]));
        if (k > 1 && k + 2 < r.rows) {
            /* fourth-order central differences on the uniform grid */
            const double dt = r.t[k + 1] - r.t[k];
            const double *E = r.E;
            const double dE = (-E[k + 2] + 8 * E[k + 1] - 8 * E[k - 1] + E[k - 2]) / (12 * dt);
            epow = fmax(epow, fabs(dE - swing[3] * w[0]));
            for (int i = 0; i < 3; i++) {
                const double *x = r.q + xb + (size_t)i;
                const double a = (-x[(k + 2) * n] + 16 * x[(k + 1) * n] - 30 * x[k * n]
                                  + 16 * x[(k - 1) * n] - x[(k - 2) * n]) / (12 * dt * dt);
                enewton = fmax(enewton, fabs(-hinge[i] + m * md.desc->gravity[i] - m * a));
            }
        }
    }
    printf("\n    pendulum: torque %.2g of %.4g N m, other components %.2g, hinge force %.2g "
           "of %.4g N, hinge torque %.2g; power balance %.2g of %.4g W, Newton %.2g N\n",
           en, nmax, eo, ef, fmaxv, eh, epow, pmax, enewton);
    CHECK_LE(en, 1e-6 * nmax);
    CHECK_LE(eo, 1e-9 * nmax);
    CHECK_LE(ef, 1e-6 * fmaxv);
    CHECK_LE(eh, 1e-9 * nmax);
    /* fourth-order differences at h = 1e-2 */
    CHECK_LE(epow, 1e-5 * pmax);
    CHECK_LE(enewton, 1e-6 * fmaxv);
    ch09_run_free(&r);
    ch09_model_free(&md);
}

/* ------------------------------------------------------------------------ */
/* One body on each joint type                                               */

static const struct {
    const char *file, *type;
    size_t rows;   /* the document's table (guide Sec. 2.4) */
} joint_table[] = {
    {"joint-spherical.yaml", "spherical", 3},
    {"joint-revolute.yaml", "revolute", 5},
    {"joint-cylindrical.yaml", "cylindrical", 4},
    {"joint-translational.yaml", "translational", 5},
    {"joint-universal.yaml", "universal", 4},
    {"joint-revolute-cylindrical.yaml", "revolute-cylindrical", 3},
};
#define NJOINT_TABLE (sizeof joint_table / sizeof joint_table[0])

static size_t table_rows(const char *type)
{
    for (size_t k = 0; k < NJOINT_TABLE; k++)
        if (strcmp(joint_table[k].type, type) == 0)
            return joint_table[k].rows;
    CHECK_MSG(0, "no joint type '%s' in the table", type);
    return 0;
}

/* the model's rows by the table: joints, basic constraints, normalisation */
static size_t model_rows(const ch09_model *md)
{
    size_t rows = md->desc->nconstraints;
    for (size_t k = 0; k < md->desc->njoints; k++)
        rows += table_rows(mbd_model_joint_type_name(md->desc->joints[k].type));
    for (size_t k = 0; k < md->desc->nbodies; k++)
        rows += !md->desc->bodies[k].is_ground;
    return rows;
}

static void joint_rows_rank_dof(void)
{
    for (size_t k = 0; k < NJOINT_TABLE; k++) {
        ch09_model md;
        if (load(&md, joint_table[k].file) != GSL_SUCCESS)
            continue;
        CU_ASSERT_EQUAL(md.desc->njoints, 1);
        CU_ASSERT_STRING_EQUAL(mbd_model_joint_type_name(md.desc->joints[0].type),
                               joint_table[k].type);
        mbd_spatial_joint_info info;
        CHECK_STATUS(mbd_spatial_joint_info_get(md.sm, md.joint[0], &info), GSL_SUCCESS);
        CHECK_MSG(info.count == joint_table[k].rows, "%s: %zu rows, expected %zu",
                  joint_table[k].type, info.count, joint_table[k].rows);
        const size_t nc = md.desc->nconstraints;
        const size_t dof = 6 - joint_table[k].rows - nc;   /* one body to the ground */
        CU_ASSERT_EQUAL(md.n, 7);
        CU_ASSERT_EQUAL(md.m, joint_table[k].rows + nc + 1);
        ch09_spec spec;
        mbd_failure fail;
        CHECK_STATUS(ch09_spec_of_model(&md, &spec, &fail), GSL_SUCCESS);
        spec.analysis = CH09_ASSEMBLY;
        spec.auto_analysis = 0;
        ch09_run r;
        ch09_run_init(&r);
        CHECK_STATUS(ch09_run_spec(&md, &spec, &r), GSL_SUCCESS);
        CHECK_MSG(r.status == GSL_SUCCESS && r.rows == 1 && r.ranked, "%s: %s",
                  joint_table[k].file, r.fail.cause);
        if (r.rows == 1) {
            /* rank by an SVD of the Jacobian at the assembled configuration */
            const mbd_system *sys = mbd_spatial_system(md.sm);
            gsl_matrix *J = gsl_matrix_alloc(sys->m, sys->n);
            gsl_vector_view qv = gsl_vector_view_array(r.q, r.n);
            CHECK_STATUS(sys->jacobian(sys, r.t[0], &qv.vector, J), GSL_SUCCESS);
            const size_t rank = svd_rank(J);
            CHECK_MSG(rank == md.m && 7 - rank == dof, "%s: SVD rank %zu of %zu rows, dof %zu",
                      joint_table[k].type, rank, md.m, 7 - rank);
            CHECK_MSG(r.rank == rank && r.dof == dof, "%s: run's rank %zu, dof %zu; expected %zu, %zu",
                      joint_table[k].type, r.rank, r.dof, rank, dof);
            CHECK_LE(r.C[0], 1e-12);
            gsl_matrix_free(J);
        }
        ch09_run_free(&r);
        ch09_model_free(&md);
    }
}

/* ------------------------------------------------------------------------ */
/* The planar four-bar of four revolutes: redundant rows                     */

/* the rocker's pin C for the crank at theta: |C - B| = 3, |C - D| = 2, on the
 * left of B -> D (the side of the file's guess (2.83, 1.99) at 90 degrees) */
static void fourbar_C(double theta, double C[2])
{
    const double B[2] = {cos(theta), sin(theta)}, D[2] = {3, 0};
    const double u[2] = {D[0] - B[0], D[1] - B[1]}, d = hypot(u[0], u[1]);
    const double a = (9.0 - 4.0 + d * d) / (2 * d), hgt = sqrt(9.0 - a * a);
    C[0] = B[0] + a * u[0] / d - hgt * u[1] / d;
    C[1] = B[1] + a * u[1] / d + hgt * u[0] / d;
}

static void fourbar_planar_redundant(void)
{
    double C90[2];
    fourbar_C(M_PI / 2, C90);
    CHECK_CLOSE(C90[0], 2.83, 0.01);
    CHECK_CLOSE(C90[1], 1.99, 0.01);
    ch09_model md;
    if (load(&md, "four-bar-planar.yaml") != GSL_SUCCESS)
        return;
    CU_ASSERT_EQUAL(md.m, 24);
    CU_ASSERT_EQUAL(md.n, 21);
    ch09_spec spec;
    mbd_failure fail;
    CHECK_STATUS(ch09_spec_of_model(&md, &spec, &fail), GSL_SUCCESS);
    CU_ASSERT_EQUAL(spec.analysis, CH09_KINEMATICS);
    ch09_run r;
    ch09_run_init(&r);
    CHECK_STATUS(ch09_run_spec(&md, &spec, &r), GSL_SUCCESS);
    CHECK_MSG(r.status == GSL_SUCCESS, "%s", r.fail.cause);
    CU_ASSERT_EQUAL(r.rows, 101);
    CU_ASSERT_EQUAL(r.rank, 21);
    CU_ASSERT_EQUAL(r.dof, 0);
    CU_ASSERT_EQUAL_FATAL(r.structure.n_dropped, 3);
    /* the rank by SVD, and the named rows depend on the others: removing them
     * leaves the rank at 21 */
    const mbd_system *sys = mbd_spatial_system(md.sm);
    gsl_matrix *J = gsl_matrix_alloc(24, 21), *K = gsl_matrix_alloc(21, 21);
    gsl_vector_view q0 = gsl_vector_view_array(r.q, 21);
    CHECK_STATUS(sys->jacobian(sys, r.t[0], &q0.vector, J), GSL_SUCCESS);
    CU_ASSERT_EQUAL(svd_rank(J), 21);
    for (size_t i = 0, k = 0; i < 24; i++) {
        int dropped = 0;
        for (size_t j = 0; j < 3; j++)
            dropped |= r.structure.dropped[j] == i;
        if (!dropped && k < 21) {
            gsl_vector_const_view row = gsl_matrix_const_row(J, i);
            gsl_matrix_set_row(K, k++, &row.vector);
        }
    }
    CU_ASSERT_EQUAL(svd_rank(K), 21);
    gsl_matrix_free(J);
    gsl_matrix_free(K);
    /* the summary names the three rows */
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ch09_write_summary(f, &md, &spec, &r);
    fclose(f);
    CHECK_CLOSE(test_summary(text, "rows"), 24, 0);
    CHECK_CLOSE(test_summary(text, "rank"), 21, 0);
    CHECK_CLOSE(test_summary(text, "redundant_rows"), 3, 0);
    char names[512];
    if (summary_text(text, "redundant_row_names", names, sizeof names) != NULL) {
        for (size_t j = 0; j < 3; j++) {
            mbd_spatial_row_info info;
            CHECK_STATUS(mbd_spatial_row_info_get(md.sm, r.structure.dropped[j], &info),
                         GSL_SUCCESS);
            CHECK_MSG(strstr(names, info.name) != NULL && strchr(info.name, '/') != NULL,
                      "redundant_row_names = %s does not name '%s'", names, info.name);
        }
        size_t commas = 0;
        for (const char *p = names; *p; p++)
            commas += *p == ',';
        CHECK_MSG(commas == 2, "redundant_row_names = %s: not three names", names);
    } else {
        CHECK_MSG(0, "no redundant_row_names in the summary: %s", text);
    }
    free(text);
    /* the rocker's pin against the circles, the crank at theta = 2 + t */
    double eC = 0, eB = 0;
    for (size_t k = 0; k < r.rows; k++) {
        const double th = 2.0 + r.t[k];
        double C[2], B[3];
        fourbar_C(th, C);
        const double *P = r.points + k * 3;
        eC = fmax(eC, fmax(fabs(P[0] - C[0]), fmax(fabs(P[1] - C[1]), fabs(P[2]))));
        gsl_vector_view qv = gsl_vector_view_array(r.q + k * r.n, r.n);
        const double tip[3] = {0.5, 0, 0};
        CHECK_STATUS(mbd_spatial_point_position(md.sm, md.body[body_of(&md, "crank")], tip,
                                                &qv.vector, B),
                     GSL_SUCCESS);
        eB = fmax(eB, fmax(fabs(B[0] - cos(th)), fabs(B[1] - sin(th))));
        CHECK_LE(r.C[k], 1e-10);
    }
    printf("\n    four-bar: |C_point - C_exact| %.2g m, |B - B_exact| %.2g m\n", eC, eB);
    CHECK_LE(eC, 1e-9);
    CHECK_LE(eB, 1e-9);
    ch09_run_free(&r);
    ch09_model_free(&md);
}

/* ------------------------------------------------------------------------ */
/* An assembly that cannot succeed                                           */

static void unreachable_in_process(void)
{
    ch09_model md;
    if (load(&md, "unreachable.yaml") != GSL_SUCCESS)
        return;
    ch09_spec spec;
    mbd_failure fail;
    CHECK_STATUS(ch09_spec_of_model(&md, &spec, &fail), GSL_SUCCESS);
    CU_ASSERT_EQUAL(spec.analysis, CH09_ASSEMBLY);
    ch09_run r;
    ch09_run_init(&r);
    CHECK_STATUS(ch09_run_spec(&md, &spec, &r), GSL_SUCCESS);
    CHECK_STATUS(r.status, MBD_ENOCONV);
    CHECK_CLOSE(r.fail.time, 0.0, 0);
    CHECK_MSG(strstr(r.fail.cause, "ball/") || strstr(r.fail.cause, "tether/"),
              "the cause names no row: %s", r.fail.cause);
    CU_ASSERT_EQUAL(r.rows, 0);
    ch09_run_free(&r);
    ch09_model_free(&md);
}

static void unreachable_program(void)
{
    char cmd[2048];
    test_run_result r;
    const char *out = scratch_path("unreachable.csv");
    remove(out);
    snprintf(cmd, sizeof cmd, "%s --model " MODELS "unreachable.yaml --summary --csv %s",
             test_program(PROG), out);
    test_run(cmd, &r);
    CHECK_MSG(r.status == 1, "exit %d, expected 1: %s", r.status, r.err);
    CHECK_MSG(strstr(r.err, "t = 0") != NULL, "stderr names no time: %s", r.err);
    CHECK_MSG(strstr(r.err, "ball/") || strstr(r.err, "tether/"), "stderr names no row: %s",
              r.err);
    CHECK_SUMMARY_TEXT(r.out, "status", "no-convergence");
    CHECK_SUMMARY_TEXT(r.out, "analysis", "assembly");
    CHECK_CLOSE(test_summary(r.out, "outputs"), 0, 0);
    CU_ASSERT_PTR_NULL(strstr(r.out, "nan"));
    /* the rows up to the failure: none, so at most the header */
    char *text = test_read_file(out);
    if (text != NULL) {
        size_t lines = 0;
        for (const char *p = text; *p; p++)
            lines += *p == '\n';
        CHECK_MSG(lines <= 1, "%zu lines in the CSV of a failed assembly", lines);
        free(text);
    }
    remove(out);
    test_run_free(&r);
}

/* `assembled = yes` beside `status = no-convergence` says the opposite of
 * what happened: a failed assembly must not be reported as assembled */
static void unreachable_not_reported_assembled(void)
{
    char cmd[2048], v[64];
    test_run_result r;
    snprintf(cmd, sizeof cmd, "%s --model " MODELS "unreachable.yaml --summary",
             test_program(PROG));
    test_run(cmd, &r);
    const char *a = summary_text(r.out, "assembled", v, sizeof v);
    CHECK_MSG(a != NULL && strcmp(a, "yes") != 0,
              "a failed assembly reported as 'assembled = %s'", a ? a : "(missing)");
    test_run_free(&r);
}

/* ------------------------------------------------------------------------ */
/* Initial velocities with one body's known                                  */

/* slider-crank-free.yaml: the crank's r' = 0 and omega_bar = (6, 0, 0) known,
 * the rod's and the slider's solved. The file's poses are guesses that the
 * assembly corrects; the known velocities hold at the assembled pose (the
 * document converts omega_bar to p' after setInitialPose, its Fig. 19), so
 * p' = G(p)^T omega_bar / 2 there, with p^T p' = 0. */
static void initial_velocities_some_known(void)
{
    ch09_model md;
    if (load(&md, "slider-crank-free.yaml") != GSL_SUCCESS)
        return;
    ch09_spec spec;
    mbd_failure fail;
    CHECK_STATUS(ch09_spec_of_model(&md, &spec, &fail), GSL_SUCCESS);
    spec.analysis = CH09_ASSEMBLY;
    ch09_run r;
    ch09_run_init(&r);
    CHECK_STATUS(ch09_run_spec(&md, &spec, &r), GSL_SUCCESS);
    CU_ASSERT_EQUAL(r.velocities_known, 1);
    CHECK_MSG(r.status == GSL_SUCCESS && r.rows == 1,
              "the crank's known velocity is refused after the assembly moved the crank: %s",
              r.fail.cause);
    if (r.status != GSL_SUCCESS || r.rows != 1) {
        ch09_run_free(&r);
        ch09_model_free(&md);
        return;
    }
    CU_ASSERT_EQUAL(r.dof, 1);
    const mbd_system *sys = mbd_spatial_system(md.sm);
    const size_t n = sys->n, m = sys->m;
    gsl_vector_view q = gsl_vector_view_array(r.q, n), qd = gsl_vector_view_array(r.qd, n);
    gsl_matrix *J = gsl_matrix_alloc(m, n);
    gsl_vector *Jqd = gsl_vector_alloc(m), *nu = gsl_vector_calloc(m);
    gsl_vector *Cp = gsl_vector_alloc(m), *Cm = gsl_vector_alloc(m);
    gsl_vector *qp = gsl_vector_alloc(n), *qm = gsl_vector_alloc(n);
    CHECK_STATUS(sys->jacobian(sys, 0, &q.vector, J), GSL_SUCCESS);
    gsl_blas_dgemv(CblasNoTrans, 1.0, J, &qd.vector, 0.0, Jqd);
    if (sys->constraint_t) {
        CHECK_STATUS(sys->constraint_t(sys, 0, &q.vector, nu), GSL_SUCCESS);
        gsl_vector_scale(nu, -1.0);
    }
    /* and by a central difference of C along q + s q' (no Jacobian) */
    const double ds = 1e-6;
    gsl_vector_memcpy(qp, &q.vector);
    gsl_blas_daxpy(ds, &qd.vector, qp);
    gsl_vector_memcpy(qm, &q.vector);
    gsl_blas_daxpy(-ds, &qd.vector, qm);
    CHECK_STATUS(sys->constraint(sys, 0, qp, Cp), GSL_SUCCESS);
    CHECK_STATUS(sys->constraint(sys, 0, qm, Cm), GSL_SUCCESS);
    double e = 0, efd = 0;
    for (size_t i = 0; i < m; i++) {
        e = fmax(e, fabs(gsl_vector_get(Jqd, i) - gsl_vector_get(nu, i)));
        efd = fmax(efd, fabs((gsl_vector_get(Cp, i) - gsl_vector_get(Cm, i)) / (2 * ds)
                             - gsl_vector_get(nu, i)));
    }
    CHECK_LE(e, 1e-12);
    CHECK_LE(efd, 1e-8);
    /* the known ones kept: the crank's r' = 0 and omega_bar = (6, 0, 0), from
     * omega_bar = 2 G(p) p' written out here */
    const size_t c = coords_of(&md, "crank"), s = coords_of(&md, "slider");
    const double *p = r.q + c + 3, *pd = r.qd + c + 3;
    const double wbar[3] = {
        2 * (-p[1] * pd[0] + p[0] * pd[1] + p[3] * pd[2] - p[2] * pd[3]),
        2 * (-p[2] * pd[0] - p[3] * pd[1] + p[0] * pd[2] + p[1] * pd[3]),
        2 * (-p[3] * pd[0] + p[2] * pd[1] - p[1] * pd[2] + p[0] * pd[3]),
    };
    CHECK_CLOSE(wbar[0], 6.0, 1e-12);
    CHECK_CLOSE(wbar[1], 0.0, 1e-12);
    CHECK_CLOSE(wbar[2], 0.0, 1e-12);
    for (int i = 0; i < 3; i++)
        CHECK_CLOSE(r.qd[c + i], 0.0, 1e-15);
    /* the slider's x and x' against x(theta), theta' = 6: the crank's angle
     * about x is 2 atan2(e1, e0), and x(theta) is ch09_slider_exact at the
     * time whose driver angle is theta */
    const double th = 2 * atan2(p[1], p[0]);
    const double t = (M_PI / 2 + 1e-4 - th) / (2 * M_PI);
    double x[3];
    ch09_slider_exact(t, x);
    CHECK_CLOSE(r.q[s], x[0], 1e-12);
    CHECK_CLOSE(r.qd[s], 6.0 * x[1] / (-2 * M_PI), 1e-10);
    gsl_matrix_free(J);
    gsl_vector_free(Jqd);
    gsl_vector_free(nu);
    gsl_vector_free(Cp);
    gsl_vector_free(Cm);
    gsl_vector_free(qp);
    gsl_vector_free(qm);
    ch09_run_free(&r);
    ch09_model_free(&md);
}

static void initial_velocities_program(void)
{
    char cmd[2048];
    test_run_result r;
    snprintf(cmd, sizeof cmd, "%s --model " MODELS "slider-crank-free.yaml --analysis assembly "
             "--summary", test_program(PROG));
    test_run(cmd, &r);
    CHECK_MSG(r.status == 0, "exit %d: %s", r.status, r.err);
    if (r.status == 0) {
        CHECK_CLOSE(test_summary(r.out, "velocities_known"), 1, 0);
        CHECK_CLOSE(test_summary(r.out, "dof"), 1, 0);
        CHECK_SUMMARY_TEXT(r.out, "status", "ok");
    }
    test_run_free(&r);
}

/* ------------------------------------------------------------------------ */
/* The program: malformed model files                                        */

/* the table of tests/lib/test_model_file.c: where each error is and a part
 * of what the reader says was expected */
static const struct {
    const char *file;
    unsigned long line, column;
    const char *says;
} bad_files[] = {
    {"syntax_unclosed.yaml", 3, 7, "did not find expected ',' or ']'"},
    {"syntax_tab.yaml", 5, 1, "found a tab character that violates indentation"},
    {"empty.yaml", 1, 1, "the file is empty (expected a model"},
    {"root_list.yaml", 1, 1, "expected a model (a mapping with name, gravity, bodies, ...)"},
    {"unknown_top_key.yaml", 2, 1, "unknown key 'gravitty' (expected one of: name,"},
    {"missing_gravity.yaml", 1, 1, "missing key 'gravity' (expected a list of 3 numbers"},
    {"gravity_two_numbers.yaml", 2, 10, "expected a list of 3 numbers [a, b, ...], found a list of 2 items"},
    {"gravity_word.yaml", 2, 14, "expected a number (like 2, -0.5, 1e-3, pi/2 or sqrt(2)/2), found 'minus'"},
    {"mass_inf.yaml", 5, 11, "'mass': expected a finite number, found '.inf'"},
    {"position_overflow.yaml", 7, 16, "expected a finite number, found '-1e999'"},
    {"expression_nonfinite.yaml", 7, 20, "expected a finite number, found '1/0'"},
    {"expression_bad.yaml", 7, 20, "found '2*pie'"},
    {"mass_quoted.yaml", 5, 11, "found the quoted text '1'"},
    {"mass_negative.yaml", 5, 11, "expected a number greater than 0, found '-1'"},
    {"mass_zero.yaml", 5, 11, "expected a number greater than 0, found '0'"},
    {"inertia_zero_moment.yaml", 6, 21, "expected a positive definite inertia"},
    {"inertia_indefinite.yaml", 7, 7, "expected a positive definite matrix, found leading minor 2 = -3"},
    {"inertia_unsymmetric.yaml", 6, 14, "expected a symmetric matrix"},
    {"inertia_scalar.yaml", 6, 14, "expected 3 principal moments [Jxx, Jyy, Jzz] or a 3x3 matrix"},
    {"body_unknown_key.yaml", 7, 5, "unknown key 'possition'"},
    {"body_missing_mass.yaml", 4, 5, "missing key 'mass'"},
    {"body_duplicate_name.yaml", 8, 11, "the name is already used by the body at line 4"},
    {"body_named_ground.yaml", 4, 11, "the name 'ground' is reserved for the ground body"},
    {"two_grounds.yaml", 5, 5, "a second ground body"},
    {"ground_with_mass.yaml", 6, 5, "key 'mass' is not used by the ground body"},
    {"no_moving_body.yaml", 4, 3, "expected at least one moving body"},
    {"body_bad_name.yaml", 4, 11, "expected a name (a letter or '_'"},
    {"euler_not_unit.yaml", 9, 25, "expected unit Euler parameters"},
    {"axis_angle_not_unit.yaml", 8, 25, "expected a unit vector (length 1 within 1e-9)"},
    {"axis_without_angle.yaml", 8, 18, "missing key 'angle'"},
    {"matrix_not_orthonormal.yaml", 10, 9, "expected a rotation matrix (orthonormal within 1e-9)"},
    {"matrix_reflection.yaml", 9, 15, "found a reflection (determinant -1)"},
    {"orientation_two_forms.yaml", 10, 15, "give one of euler_parameters, axis and angle, or matrix, not two"},
    {"orientation_word.yaml", 8, 18, "found 'identiy'"},
    {"velocity_known_conflict.yaml", 9, 21, "'velocity_known' is false but velocities are given"},
    {"velocity_known_yes.yaml", 8, 21, "expected true or false, found 'yes'"},
    {"angular_velocity_both.yaml", 9, 30, "give 'angular_velocity_body' or 'angular_velocity_global', not both"},
    {"duplicate_key.yaml", 8, 5, "key 'mass' appears twice (first at line 5)"},
    {"joint_unknown_type.yaml", 10, 11, "found 'hinge'"},
    {"joint_missing_type.yaml", 9, 5, "missing key 'type'"},
    {"joint_refused_key.yaml", 17, 5, "key 'normal_i' is not used by a revolute joint"},
    {"joint_spherical_axis.yaml", 15, 5, "key 'axis_i' is not used by a spherical joint"},
    {"joint_missing_axis.yaml", 9, 5, "missing key 'axis_j'"},
    {"joint_unknown_body.yaml", 12, 13, "no body is named 'pendlum'"},
    {"joint_same_body.yaml", 12, 13, "body_i and body_j are the same body ('pendulum')"},
    {"joint_axis_not_unit.yaml", 15, 13, "expected a unit vector (length 1 within 1e-9), found length 2"},
    {"joint_normal_not_perpendicular.yaml", 18, 15, "found normal_j . axis_j = 0.8"},
    {"joint_not_mapping.yaml", 9, 5, "expected a mapping (key: value lines), found 'revolute'"},
    {"joints_not_list.yaml", 9, 3, "expected a list of joints"},
    {"element_duplicate_name.yaml", 18, 12, "the name is already used by the joint at line 9"},
    {"constraint_d_both.yaml", 10, 42, "give 'f' (the squared distance) or 'distance', not both"},
    {"constraint_d_neither.yaml", 9, 5, "missing key 'distance' or 'f'"},
    {"constraint_driving_false.yaml", 16, 14, "'driving' is false but 'f' depends on time"},
    {"constraint_cd_coordinate.yaml", 10, 38, "expected one of: x, y, z; found 'w'"},
    {"constraint_zero_vector.yaml", 9, 84, "expected a non-zero vector, found [0, 0, 0]"},
    {"fn_two_kinds.yaml", 15, 8, "found a mapping with more than one key"},
    {"fn_unknown_kind.yaml", 15, 9, "unknown key 'cosine'"},
    {"fn_sine_missing_omega.yaml", 17, 9, "missing key 'omega'"},
    {"fn_polynomial_empty.yaml", 15, 21, "expected a list of coefficients"},
    {"fn_sum_bad_term.yaml", 18, 40, "'sum', term 2: 'sine': 'omega': expected a number"},
    {"fn_too_deep.yaml", 15, 152, "time functions nested deeper than 16 levels"},
    {"torque_two_kinds.yaml", 12, 15, "or 'callback', not two"},
    {"torque_axis_only.yaml", 9, 5, "missing key 'magnitude'"},
    {"torque_frame.yaml", 9, 61, "expected one of: global, body; found 'local'"},
    {"force_missing_vector.yaml", 9, 5, "missing key 'force'"},
    {"tsda_negative_stiffness.yaml", 14, 16, "expected a number greater than or equal to 0, found '-100'"},
    {"output_unknown_body.yaml", 9, 23, "no body is named 'bob'"},
    {"analysis_bad_type.yaml", 9, 9, "found 'statics'"},
    {"analysis_missing_h.yaml", 9, 3, "missing key 'h'"},
    {"analysis_t_end.yaml", 11, 10, "expected a number greater than t_start (1), found '0.5'"},
    {"analysis_h_too_long.yaml", 11, 6, "expected a step no longer than t_end - t_start (1), found '2'"},
    {"analysis_refused_key.yaml", 12, 3, "key 'integrator' is not used by a kinematics analysis"},
    {"analysis_assembly_t_end.yaml", 10, 3, "key 't_end' is not used by an assembly analysis"},
    {"analysis_iterations.yaml", 12, 19, "expected a whole number from 1 to 1e9, found '2.5'"},
    {"alias.yaml", 9, 42, "YAML aliases (*g) are not supported"},
    {"two_documents.yaml", 8, 1, "a second YAML document"},
    {"name_multiline.yaml", 1, 7, "expected a non-empty text on one line"},
    {"key_not_scalar.yaml", 8, 1, "expected a key (a word before ':'), found a list of 2 items"},
};
#define NBAD (sizeof bad_files / sizeof bad_files[0])

static void malformed_files_refused(void)
{
    CHECK_GE((double)NBAD, 30);
    const char *out = scratch_path("bad.csv");
    for (size_t i = 0; i < NBAD; i++) {
        char args[1024], place[300];
        snprintf(args, sizeof args, "--model " BAD "%s --csv %s --summary", bad_files[i].file, out);
        snprintf(place, sizeof place, BAD "%s:%lu:%lu: ", bad_files[i].file, bad_files[i].line,
                 bad_files[i].column);
        expect_refused(args, out, place, bad_files[i].says);
    }
    /* every malformed file is in the table */
    DIR *dir = opendir(BAD);
    CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
    size_t n = 0;
    for (struct dirent *de; (de = readdir(dir)) != NULL;) {
        if (de->d_name[0] == '.')
            continue;
        n++;
        size_t i = 0;
        while (i < NBAD && strcmp(bad_files[i].file, de->d_name) != 0)
            i++;
        CHECK_MSG(i < NBAD, "%s is not in the table", de->d_name);
    }
    closedir(dir);
    CU_ASSERT_EQUAL(n, NBAD);
}

/* a path followed by ":LINE:COL: " in text */
static int names_place(const char *text, const char *path)
{
    for (const char *p = strstr(text, path); p; p = strstr(p + 1, path)) {
        unsigned long l, c;
        int used = 0;
        if (sscanf(p + strlen(path), ":%lu:%lu: %n", &l, &c, &used) == 2 && used > 0 && l > 0
            && c > 0)
            return 1;
    }
    return 0;
}

static void files_the_program_cannot_use(void)
{
    const char *out = scratch_path("refused.csv");
    char args[1024];
    snprintf(args, sizeof args, "--model " DATA "no-such-model.yaml --csv %s --summary", out);
    expect_refused(args, out, DATA "no-such-model.yaml", NULL);
    snprintf(args, sizeof args, "--model " DATA " --csv %s --summary", out);
    expect_refused(args, out, DATA, NULL);
    /* a torque callback the program does not have: refused where it is asked */
    snprintf(args, sizeof args, "--model " DATA "unknown-callback.yaml --csv %s --summary", out);
    expect_refused(args, out, "eddy_current_brake", NULL);
    char cmd[2048];
    test_run_result r;
    snprintf(cmd, sizeof cmd, "%s %s", test_program(PROG), args);
    test_run(cmd, &r);
    CHECK_MSG(names_place(r.err, DATA "unknown-callback.yaml"), "no FILE:LINE:COL: %s", r.err);
    test_run_free(&r);
    /* a Newton variant for the index-1 integrator, which has no Newton */
    snprintf(args, sizeof args, "--model " DATA "rk-newton.yaml --csv %s --summary", out);
    expect_refused(args, out, DATA "rk-newton.yaml:15:3: ", "'newton'");
}

/* ------------------------------------------------------------------------ */
/* The program: usage                                                        */

static void usage_errors(void)
{
    const char *out = scratch_path("usage.csv");
    const char *S = "--model " MODELS "slider-crank-driven.yaml";
    const struct {
        const char *model, *args, *says, *says2;
    } bad[] = {
        {S, "--analysis bogus", "--analysis", "bogus"},
        {S, "--analysis kinematics --h 0", "--h", NULL},
        {S, "--analysis kinematics --h -1", "--h", NULL},
        {S, "--analysis kinematics --h 2", "--h", NULL},   /* the run is 1 s */
        {S, "--analysis kinematics --t-end 0.001 --h 0.002", "--h", NULL},
        {S, "--analysis kinematics --t-end 0", "--t-end", NULL},
        {S, "--analysis kinematics --t-end -1", "--t-end", NULL},
        {"--model " DATA "piston-late.yaml", "--t-end 0.3", "--t-end", NULL},   /* starts at 0.5 */
        {S, "--analysis kinematics --reactions", "--reactions", NULL},
        {S, "--analysis assembly --reactions", "--reactions", NULL},
        {S, "--analysis kinematics --integrator bdf1", "--integrator", NULL},
        {S, "--analysis kinematics --newton full", "--newton", NULL},
        {S, "--analysis inverse-dynamics --linear-solver dense", "--linear-solver", NULL},
        {S, "--analysis assembly --dt-out 0.1", "--dt-out", NULL},
        {S, "--analysis kinematics --rtol 1e-6", "--rtol", NULL},
        {S, "--analysis dynamics --integrator bdf6", "--integrator", "bdf6"},
        {S, "--analysis dynamics --integrator rk8pd --newton full", "--newton", "rk8pd"},
        {S, "--analysis dynamics --newton secant", "--newton", "secant"},
        {S, "--analysis dynamics --dt-out 2", "--dt-out", NULL},   /* the run is 1 s */
        {S, "--analysis dynamics --dt-out 0", "--dt-out", NULL},
        {"", "", "--model", NULL},                              /* --csv without a model */
        {"", "--summary", "--model", NULL},
        {S, "--bogus", "--bogus", NULL},
        {S, "--analysis kinematics --h nan", "--h", NULL},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        char args[1024];
        snprintf(args, sizeof args, "%s %s --csv %s", bad[k].model, bad[k].args, out);
        expect_refused(args, out, bad[k].says, bad[k].says2);
    }
}

/* the analysis the program picks itself (a file without one: kinematics for
 * a fully driven model) is checked like one given: --h longer than the run */
static void step_checked_for_the_programs_analysis(void)
{
    const char *out = scratch_path("auto.csv");
    char args[1024];
    snprintf(args, sizeof args, "--model " DATA "pendulum-no-analysis.yaml --h 5 --csv %s", out);
    expect_refused(args, out, "--h", NULL);
}

/* --reactions on a fully driven model whose file names no analysis: either
 * the reactions are computed (inverse dynamics) or the refusal is true; "the
 * model is not fully driven" is not */
static void reactions_without_an_analysis(void)
{
    char cmd[2048];
    test_run_result r;
    snprintf(cmd, sizeof cmd, "%s --model " DATA "pendulum-no-analysis.yaml --reactions --csv -",
             test_program(PROG));
    test_run(cmd, &r);
    if (r.status == 0)
        CHECK_MSG(strstr(r.out, ",swing.Tx,") != NULL, "no reactions in %.300s", r.out);
    else
        CHECK_MSG(r.status == 2 && strstr(r.err, "--reactions")
                      && strstr(r.err, "not fully driven") == NULL && r.out[0] == '\0',
                  "exit %d: %s", r.status, r.err);
    test_run_free(&r);
}

/* ------------------------------------------------------------------------ */
/* The program: CSV and summary                                              */

static void csv_header_per_contract(void)
{
    char cmd[2048];
    test_run_result r;
    snprintf(cmd, sizeof cmd, "%s --model " MODELS "slider-crank-driven.yaml --analysis kinematics "
             "--t-end 0.01 --csv -", test_program(PROG));
    test_run(cmd, &r);
    /* the contract: t, per moving body in file order x..e3, the same _dot,
     * per output point x, y, z, C_norm, E */
    char head[4096] = "t";
    const char *bodies[] = {"crank", "rod", "slider"};
    const char *rp[] = {"x", "y", "z", "e0", "e1", "e2", "e3"};
    for (int pass = 0; pass < 2; pass++)
        for (int b = 0; b < 3; b++)
            for (int i = 0; i < 7; i++)
                snprintf(head + strlen(head), sizeof head - strlen(head), ",%s.%s%s", bodies[b],
                         rp[i], pass ? "_dot" : "");
    strcat(head, ",slider_origin.x,slider_origin.y,slider_origin.z,C_norm,E\n");
    CHECK_MSG(r.status == 0 && strncmp(r.out, head, strlen(head)) == 0, "exit %d, header %.600s",
              r.status, r.out);
    test_run_free(&r);
    /* the pendulum with reactions: per joint, then per constraint */
    snprintf(cmd, sizeof cmd, "%s --model " MODELS "pendulum-driven.yaml --reactions --t-end 0.05 "
             "--csv -", test_program(PROG));
    test_run(cmd, &r);
    strcpy(head, "t");
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < 7; i++)
            snprintf(head + strlen(head), sizeof head - strlen(head), ",bar.%s%s", rp[i],
                     pass ? "_dot" : "");
    strcat(head, ",tip.x,tip.y,tip.z,C_norm,E");
    const char *fr[] = {"Fx", "Fy", "Fz", "Tx", "Ty", "Tz"};
    const char *jn[] = {"hinge", "swing"};
    for (int j = 0; j < 2; j++)
        for (int i = 0; i < 6; i++)
            snprintf(head + strlen(head), sizeof head - strlen(head), ",%s.%s", jn[j], fr[i]);
    strcat(head, "\n");
    CHECK_MSG(r.status == 0 && strncmp(r.out, head, strlen(head)) == 0, "exit %d, header %.600s",
              r.status, r.out);
    csv c;
    if (csv_parse(r.out, &c) == 0) {
        CU_ASSERT_EQUAL(c.nrow, 6);
        CHECK_MSG(c.bad == 0, "%zu bad values, first %s", c.bad, c.first_bad);
        /* the CSV carries the same torque as the closed form */
        const int tx = csv_col(&c, "swing.Tx");
        for (size_t k = 0; k < c.nrow; k++)
            CHECK_CLOSE(csv_at(&c, k, tx),
                        ch09_pendulum_torque(csv_at(&c, k, 0), 78, 78 * (16 + 0.0025) / 12, 2, 9.81),
                        1e-6 * 224.8);
        csv_free(&c);
    }
    test_run_free(&r);
}

/* every value of every CSV the program writes is a finite number (no NaN,
 * also in E), for every model it can run */
static void csv_values_finite(void)
{
    const struct {
        const char *model, *args;
    } runs[] = {
        {MODELS "slider-crank-driven.yaml", "--analysis kinematics"},
        {MODELS "pendulum-driven.yaml", "--reactions"},
        {MODELS "pendulum-driven.yaml", "--analysis assembly"},
        {MODELS "four-bar-planar.yaml", ""},
        {MODELS "four-bar-planar.yaml", "--analysis inverse-dynamics --reactions --t-end 0.2"},
        {MODELS "four-bar-driven.yaml", "--analysis inverse-dynamics --reactions --t-end 0.5"},
        {MODELS "joint-translational.yaml", ""},
        {MODELS "joint-translational.yaml", "--analysis inverse-dynamics --reactions"},
        {DATA "piston-late.yaml", ""},
        {DATA "pendulum-no-analysis.yaml", ""},
        {MODELS "a01-pendulum.yaml", "--analysis assembly"},
        {MODELS "cylindrical-pendulum.yaml", "--analysis assembly"},
        {MODELS "four-bar-torque.yaml", "--analysis assembly"},
        {MODELS "inclined-block.yaml", "--analysis assembly"},
        {MODELS "spring-mass-damper.yaml", "--analysis assembly"},
        {MODELS "joint-spherical.yaml", "--analysis assembly"},
        {MODELS "joint-revolute.yaml", "--analysis assembly"},
        {MODELS "joint-cylindrical.yaml", "--analysis assembly"},
        {MODELS "joint-universal.yaml", "--analysis assembly"},
        {MODELS "joint-revolute-cylindrical.yaml", "--analysis assembly"},
    };
    for (size_t k = 0; k < sizeof runs / sizeof runs[0]; k++) {
        char cmd[2048];
        test_run_result r;
        snprintf(cmd, sizeof cmd, "%s --model %s %s --csv -", test_program(PROG), runs[k].model,
                 runs[k].args);
        test_run(cmd, &r);
        CHECK_MSG(r.status == 0, "%s %s: exit %d: %s", runs[k].model, runs[k].args, r.status,
                  r.err);
        csv c;
        if (r.status == 0 && csv_parse(r.out, &c) == 0) {
            CHECK_MSG(c.nrow >= 1 && c.bad == 0, "%s %s: %zu rows, %zu bad values (first %s)",
                      runs[k].model, runs[k].args, c.nrow, c.bad, c.first_bad);
            /* |C| small everywhere */
            const int cn = csv_col(&c, "C_norm");
            for (size_t i = 0; i < c.nrow; i++)
                CHECK_LE(csv_at(&c, i, cn), 1e-9);
            csv_free(&c);
        }
        test_run_free(&r);
    }
}

static void summary_keys_against_the_model(void)
{
    const struct {
        const char *file, *args, *analysis;
        size_t outputs;
    } runs[] = {
        {"slider-crank-driven.yaml", "--analysis kinematics", "kinematics", 1001},
        {"pendulum-driven.yaml", "", "inverse-dynamics", 401},
        {"four-bar-planar.yaml", "", "kinematics", 101},
        {"joint-universal.yaml", "--analysis assembly", "assembly", 1},
    };
    for (size_t k = 0; k < sizeof runs / sizeof runs[0]; k++) {
        ch09_model md;
        if (load(&md, runs[k].file) != GSL_SUCCESS)
            continue;
        char cmd[2048], path[256];
        snprintf(path, sizeof path, MODELS "%s", runs[k].file);
        test_run_result r;
        snprintf(cmd, sizeof cmd, "%s --model %s %s --summary", test_program(PROG), path,
                 runs[k].args);
        test_run(cmd, &r);
        CHECK_MSG(r.status == 0, "%s: exit %d %s", runs[k].file, r.status, r.err);
        /* only key = value lines */
        for (const char *p = r.out; *p; p = strchr(p, '\n') + 1) {
            const size_t l = strcspn(p, "\n");
            const char *eq = strstr(p, " =");
            CHECK_MSG(eq != NULL && eq < p + l, "not a key = value line: %.*s", (int)l, p);
            if (p[l] == '\0')
                break;
        }
        size_t nb = 0;
        for (size_t b = 0; b < md.desc->nbodies; b++)
            nb += !md.desc->bodies[b].is_ground;
        const size_t rows = model_rows(&md);
        CHECK_SUMMARY_TEXT(r.out, "model", path);
        CHECK_SUMMARY_TEXT(r.out, "analysis", runs[k].analysis);
        CHECK_SUMMARY_TEXT(r.out, "status", "ok");
        CHECK_SUMMARY_TEXT(r.out, "assembled", "yes");
        CHECK_CLOSE(test_summary(r.out, "bodies"), (double)nb, 0);
        CHECK_CLOSE(test_summary(r.out, "coordinates"), 7.0 * (double)nb, 0);
        CHECK_CLOSE(test_summary(r.out, "rows"), (double)rows, 0);
        const double rank = test_summary(r.out, "rank"), dof = test_summary(r.out, "dof");
        CHECK_CLOSE(rank + dof, 7.0 * (double)nb, 0);
        CHECK_CLOSE(test_summary(r.out, "redundant_rows"), (double)rows - rank, 0);
        CHECK_CLOSE(test_summary(r.out, "outputs"), (double)runs[k].outputs, 0);
        CHECK_LE(test_summary(r.out, "max_C_norm"), 1e-10);
        CHECK_GE(test_summary(r.out, "velocities_known"), 0);
        if (strcmp(runs[k].analysis, "assembly") != 0) {
            CHECK_CLOSE(test_summary(r.out, "t_start"), md.desc->analysis.t_start, 0);
            CHECK_CLOSE(test_summary(r.out, "t_end"), md.desc->analysis.t_end, 0);
            CHECK_CLOSE(test_summary(r.out, "h"), md.desc->analysis.h, 0);
            CHECK_CLOSE(test_summary(r.out, "t_reached"), md.desc->analysis.t_end, 1e-12);
        }
        CU_ASSERT_PTR_NULL(strstr(r.out, "nan"));
        test_run_free(&r);
        ch09_model_free(&md);
    }
}

/* --t-end and --h: N = ceil(T / h) steps of T / N, N + 1 rows; --csv FILE
 * with --summary writes both; a run from t_start = 0.5 (the file's) against
 * the piston's x(t) */
static void times_honoured(void)
{
    char cmd[2048];
    test_run_result r;
    const char *out = scratch_path("times.csv");
    remove(out);
    snprintf(cmd, sizeof cmd, "%s --model " MODELS "slider-crank-driven.yaml --analysis "
             "kinematics --t-end 0.5 --h 0.003 --csv %s --summary", test_program(PROG), out);
    test_run(cmd, &r);
    CHECK_MSG(r.status == 0, "exit %d %s", r.status, r.err);
    CHECK_CLOSE(test_summary(r.out, "outputs"), 168, 0);
    CHECK_CLOSE(test_summary(r.out, "t_end"), 0.5, 0);
    CHECK_CLOSE(test_summary(r.out, "h"), 0.003, 0);
    char *text = test_read_file(out);
    csv c;
    if (text != NULL && csv_parse(text, &c) == 0) {
        CU_ASSERT_EQUAL(c.nrow, 168);   /* N = ceil(0.5 / 0.003) = 167 */
        CHECK_MSG(c.bad == 0, "%s", c.first_bad);
        const int x = csv_col(&c, "slider.x");
        for (size_t k = 0; k < c.nrow; k++) {
            CHECK_CLOSE(csv_at(&c, k, 0), 0.5 * (double)k / 167, 1e-15);
            double xe[3];
            ch09_slider_exact(csv_at(&c, k, 0), xe);
            CHECK_CLOSE(csv_at(&c, k, x), xe[0], 1e-9);
        }
        csv_free(&c);
    } else {
        CHECK_MSG(0, "no CSV written to %s", out);
    }
    free(text);
    remove(out);
    test_run_free(&r);
    snprintf(cmd, sizeof cmd, "%s --model " DATA "piston-late.yaml --t-end 0.75 --h 0.01 --csv -",
             test_program(PROG));
    test_run(cmd, &r);
    if (r.status == 0 && csv_parse(r.out, &c) == 0) {
        CU_ASSERT_EQUAL(c.nrow, 26);
        const int x = csv_col(&c, "piston.x"), xd = csv_col(&c, "piston.x_dot");
        CHECK_CLOSE(csv_at(&c, 0, 0), 0.5, 0);
        CHECK_CLOSE(csv_at(&c, c.nrow - 1, 0), 0.75, 1e-15);
        for (size_t k = 0; k < c.nrow; k++) {
            const double t = csv_at(&c, k, 0);
            CHECK_CLOSE(csv_at(&c, k, x), 0.1 + 0.05 * sin(4 * M_PI * t), 1e-12);
            CHECK_CLOSE(csv_at(&c, k, xd), 0.2 * M_PI * cos(4 * M_PI * t), 1e-10);
        }
        csv_free(&c);
    } else {
        CHECK_MSG(0, "piston from 0.5 s: exit %d %s", r.status, r.err);
    }
    test_run_free(&r);
}

/* ------------------------------------------------------------------------ */
/* The story (being written: only that it runs and is reproducible)          */

static void story_runs(void)
{
    char cmd[2048];
    test_run_result a, b;
    snprintf(cmd, sizeof cmd, "%s", test_program(PROG));
    test_run(cmd, &a);
    CHECK_MSG(a.status == 0 && a.out[0] != '\0', "story: exit %d: %s", a.status, a.err);
    test_run_free(&a);
    snprintf(cmd, sizeof cmd, "%s --no-timing", test_program(PROG));
    test_run(cmd, &a);
    test_run(cmd, &b);
    CHECK_MSG(a.status == 0 && b.status == 0 && strcmp(a.out, b.out) == 0 && a.out[0] != '\0',
              "--no-timing: exits %d, %d; outputs %s", a.status, b.status,
              strcmp(a.out, b.out) ? "differ" : "agree");
    CU_ASSERT_PTR_NULL(strstr(a.out, "nan"));
    test_run_free(&a);
    test_run_free(&b);
}


/* ------------------------------------------------------------------------ */
/* The IFToMM benchmarks' data and models (issue 20's ground work)          */

/* The reference files are the one-degree-of-freedom equations of
 * reference.c integrated here by rk8pd: the files' 6 significant digits are
 * all the difference (A01 over its whole 2000 s, A02 with N = 40 over 20 s).
 * That makes the reduced equations references as good as the files, at any
 * time and for any N. */
static void benchmark_files_are_the_reduced_equations(void)
{
    static const struct {
        const char *file;
        ch09_benchmark which;
        double tol;
    } cases[] = {
        {"chapters/09-spatial-engine/benchmarks/A01_pendulum_reference.csv", CH09_A01, 1e-6},
        {"chapters/09-spatial-engine/benchmarks/A02_N40_B0_reference.csv", CH09_A02, 1e-5},
    };
    for (size_t c = 0; c < 2; c++) {
        double *t, *x, *y;
        size_t n;
        char msg[512];
        int st = ch09_benchmark_read(cases[c].file, &t, &x, &y, &n, msg, sizeof msg);
        CHECK_MSG(st == GSL_SUCCESS, "%s", msg);
        if (st != GSL_SUCCESS)
            continue;
        CHECK_MSG(n == (c == 0 ? 4001u : 401u), "%s: %zu rows", cases[c].file, n);
        CHECK_CLOSE(t[n - 1], c == 0 ? 2000.0 : 20.0, 0.0);
        double *rx = malloc(n * sizeof *rx), *ry = malloc(n * sizeof *ry), err = 0.0;
        REQUIRE_STATUS(ch09_benchmark_reduced(cases[c].which, 40, t, n, rx, ry), GSL_SUCCESS);
        for (size_t k = 0; k < n; k++)
            err = fmax(err, fmax(fabs(rx[k] - x[k]), fabs(ry[k] - y[k])));
        CHECK_MSG(err <= cases[c].tol, "%s: the reduced equation is %.3g away", cases[c].file,
                  err);
        /* and the file is not the equation of another N (A02: N = 5 is 1e-1 away) */
        if (c == 1) {
            REQUIRE_STATUS(ch09_benchmark_reduced(CH09_A02, 5, t, n, rx, ry), GSL_SUCCESS);
            double e5 = 0.0;
            for (size_t k = 0; k < n; k++)
                e5 = fmax(e5, fabs(rx[k] - x[k]));
            CHECK_MSG(e5 > 1e-2, "N = 5 only %.3g away", e5);
        }
        free(rx);
        free(ry);
        free(t);
        free(x);
        free(y);
    }
    /* K_N in closed form at N = 1: (1 + 1) / (2/3 + 1) g = 1.2 g */
    CHECK_CLOSE(ch09_a02_K(1), 1.2 * 9.81, 1e-14);
    char msg[512];
    double *t, *x, *y;
    size_t n;
    CHECK_STATUS(ch09_benchmark_read("chapters/09-spatial-engine/models/a01-pendulum.yaml", &t, &x,
                                     &y, &n, msg, sizeof msg), MBD_EINPUT);
    CHECK_MSG(strstr(msg, "a01-pendulum.yaml:") != NULL, "%s", msg);
}

/* --generate n-four-bar: the program's files in models/ are what it writes;
 * each N assembles with 12 N + 5 joint rows and one degree of freedom, and
 * the solved initial velocities are the rigid motion of the benchmark: every
 * crank turning at 1 rad/s, every coupler sliding at 1 m/s, so the energy is
 * (N + 1) (g/2 + 1/6) + N (g + 1/2) J (ground level y = 0). */
static void n_four_bar_generated(void)
{
    static const int Ns[] = {1, 2, 5, 40};
    for (size_t c = 0; c < sizeof Ns / sizeof Ns[0]; c++) {
        const int N = Ns[c];
        char cmd[1024];
        test_run_result r;
        snprintf(cmd, sizeof cmd, "%s --generate n-four-bar --n %d", test_program(PROG), N);
        test_run(cmd, &r);
        CHECK_MSG(r.status == 0 && r.err[0] == '\0', "N = %d: exit %d, %s", N, r.status, r.err);
        if (N == 2 || N == 40) {
            char path[256];
            snprintf(path, sizeof path, MODELS "a02-n%d.yaml", N);
            char *file = test_read_file(path);
            CHECK_MSG(file != NULL && strcmp(file, r.out) == 0,
                      "%s is not what --generate writes", path);
            free(file);
        }
        ch09_model md;
        mbd_failure fail;
        mbd_failure_clear(&fail);
        int st = ch09_model_load_string(&md, r.out, "generated.yaml", &fail);
        CHECK_MSG(st == GSL_SUCCESS, "N = %d: %s", N, fail.cause);
        test_run_free(&r);
        if (st != GSL_SUCCESS)
            continue;
        CHECK_MSG(md.m == (size_t)(12 * N + 5 + 2 * N + 1) && md.n == (size_t)(7 * (2 * N + 1)),
                  "N = %d: %zu rows, %zu coordinates", N, md.m, md.n);
        ch09_spec spec;
        ch09_run run;
        ch09_run_init(&run);
        REQUIRE_STATUS(ch09_spec_of_model(&md, &spec, &fail), GSL_SUCCESS);
        spec.analysis = CH09_ASSEMBLY;
        REQUIRE_STATUS(ch09_run_spec(&md, &spec, &run), GSL_SUCCESS);
        CHECK_STATUS(run.status, GSL_SUCCESS);
        CHECK_MSG(run.ranked && run.dof == 1 && run.rank == md.m, "N = %d: rank %zu, dof %zu", N,
                  run.rank, run.dof);
        if (run.rows == 1) {
            const double E = (N + 1) * (9.81 / 2 + 1.0 / 6) + N * (9.81 + 0.5);
            CHECK_CLOSE(run.E[0], E, 1e-12);
            /* B0 at (0, 1, 0) */
            CHECK_CLOSE(run.points[0], 0.0, 1e-15);
            CHECK_CLOSE(run.points[1], 1.0, 1e-15);
            /* the solved velocities (for N = 40 by the sparse QR of the
             * velocity analysis): every crank turns like the first, its
             * centre at 0.5 m/s in x, every coupler translates at 1 m/s */
            double dv = 0.0;
            for (size_t b = 0; b < md.desc->nbodies; b++) {
                if (md.desc->bodies[b].is_ground)
                    continue;
                size_t col = 0;
                REQUIRE_STATUS(mbd_spatial_body_coordinates(md.sm, md.body[b], &col), GSL_SUCCESS);
                const double vx = strncmp(md.desc->bodies[b].name, "crank", 5) == 0 ? 0.5 : 1.0;
                dv = fmax(dv, fabs(run.qd[col] - vx));
                dv = fmax(dv, fmax(fabs(run.qd[col + 1]), fabs(run.qd[col + 2])));
            }
            CHECK_MSG(dv <= 1e-9, "N = %d: the bodies' r' %.3g from the closed form", N, dv);
        }
        ch09_run_free(&run);
        ch09_model_free(&md);
    }
}

/* The sparse QR of a large velocity analysis with redundant rows: the N
 * four-bar (N = 20) with a revolute joint added where each coupler meets the
 * crank on its right, over the two CD rows already there. Each such
 * revolute repeats the CD rows' x and y and, the chain being planar, its z
 * and its two perpendicularity rows too: 5 N rows beyond the independent
 * set, and still one degree of freedom. The rank analysis (all velocities
 * unknown, 287 x 386: SuiteSparseQR) must find exactly that, and the
 * velocities solved from the first crank's must be the closed form's. */
static void n_four_bar_redundant_rows_sparse(void)
{
    enum { N = 20 };
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    REQUIRE_STATUS(ch09_write_n_four_bar(mem, N), GSL_SUCCESS);
    fclose(mem);
    /* the extra revolutes, before the constraints */
    char *cut = strstr(text, "\nconstraints:\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(cut);
    size_t cap = len + (size_t)N * 256 + 64, used = 0;
    char *model = malloc(cap);
    CU_ASSERT_PTR_NOT_NULL_FATAL(model);
    used = (size_t)(cut - text);
    memcpy(model, text, used);
    for (int k = 1; k <= N; k++)
        used += (size_t)snprintf(model + used, cap - used,
                                 "  - {name: extra%d, type: revolute, body_i: crank%d, "
                                 "body_j: coupler%d,\n     point_i: [0, 0.5, 0], point_j: "
                                 "[0, -0.5, 0], axis_i: [0, 0, 1], axis_j: [0, 0, 1]}\n",
                                 k, k, k);
    snprintf(model + used, cap - used, "%s", cut);
    free(text);
    ch09_model md;
    mbd_failure fail;
    mbd_failure_clear(&fail);
    int st = ch09_model_load_string(&md, model, "a02-redundant.yaml", &fail);
    free(model);
    CHECK_MSG(st == GSL_SUCCESS, "%s", fail.cause);
    if (st != GSL_SUCCESS)
        return;
    CU_ASSERT_EQUAL(md.n, (size_t)(7 * (2 * N + 1)));
    CU_ASSERT_EQUAL(md.m, (size_t)(12 * N + 5 + 2 * N + 1 + 5 * N));
    ch09_spec spec;
    ch09_run run;
    ch09_run_init(&run);
    REQUIRE_STATUS(ch09_spec_of_model(&md, &spec, &fail), GSL_SUCCESS);
    spec.analysis = CH09_ASSEMBLY;
    REQUIRE_STATUS(ch09_run_spec(&md, &spec, &run), GSL_SUCCESS);
    CHECK_STATUS(run.status, GSL_SUCCESS);
    printf("\n    N = %d with %d extra revolutes: rank %zu of %zu rows, dof %zu, %zu rows "
           "beyond the independent set", N, N, run.rank, md.m, run.dof,
           run.structure.n_dropped);
    CHECK_MSG(run.ranked && run.dof == 1 && run.rank == md.n - 1, "rank %zu, dof %zu",
              run.rank, run.dof);
    CU_ASSERT_EQUAL(run.structure.n_dropped, (size_t)(5 * N));
    /* every dropped row is a real row, and no row is dropped twice */
    for (size_t i = 0; i < run.structure.n_dropped && i < MBD_SPATIAL_REPORT_ROWS; i++) {
        CHECK_MSG(run.structure.dropped[i] < md.m, "dropped row %zu", run.structure.dropped[i]);
        for (size_t j = 0; j < i; j++)
            CHECK_MSG(run.structure.dropped[i] != run.structure.dropped[j], "row %zu twice",
                      run.structure.dropped[i]);
    }
    double dv = 0.0;
    if (run.rows == 1)
        for (size_t b = 0; b < md.desc->nbodies; b++) {
            if (md.desc->bodies[b].is_ground)
                continue;
            size_t col = 0;
            REQUIRE_STATUS(mbd_spatial_body_coordinates(md.sm, md.body[b], &col), GSL_SUCCESS);
            const double vx = strncmp(md.desc->bodies[b].name, "crank", 5) == 0 ? 0.5 : 1.0;
            dv = fmax(dv, fabs(run.qd[col] - vx));
            dv = fmax(dv, fmax(fabs(run.qd[col + 1]), fabs(run.qd[col + 2])));
        }
    CHECK_MSG(run.rows == 1 && dv <= 1e-9, "r' %.3g from the closed form", dv);
    ch09_run_free(&run);
    ch09_model_free(&md);
}

/* Dynamics of the N four-bar (A02) against its one-degree-of-freedom
 * equation (reference.c, rk8pd at 1e-13): B0 over the benchmark's 0-20 s at
 * the generated file's settings (BDF4, h = 4e-3, modified Newton to 1e-12),
 * N = 2 with the dense solver and N = 5 with the sparse one, through the
 * horizontal position (first near t = 0.7 s) where the degrees of freedom
 * jump from 1 to N + 1, again and again; the benchmark's high precision is
 * 1e-3. N = 2 again with the sparse solver: the same motion (the solvers'
 * round-off, amplified at each pass through the horizontal, stays far
 * below the method's error). */
static void n_four_bar_dynamics(void)
{
    static const struct {
        int N;
        mbd_linsolve_kind kind;
    } cases[] = {{2, MBD_LINSOLVE_DENSE}, {5, MBD_LINSOLVE_SPARSE}};
    double b0_end[2] = {0, 0};
    for (size_t c = 0; c < 2; c++) {
        char *text = NULL;
        size_t len = 0;
        FILE *mem = open_memstream(&text, &len);
        REQUIRE_STATUS(ch09_write_n_four_bar(mem, cases[c].N), GSL_SUCCESS);
        fclose(mem);
        ch09_model md;
        mbd_failure fail;
        mbd_failure_clear(&fail);
        int st = ch09_model_load_string(&md, text, "a02.yaml", &fail);
        free(text);
        CHECK_MSG(st == GSL_SUCCESS, "%s", fail.cause);
        if (st != GSL_SUCCESS)
            continue;
        ch09_spec spec;
        ch09_run r;
        ch09_run_init(&r);
        REQUIRE_STATUS(ch09_spec_of_model(&md, &spec, &fail), GSL_SUCCESS);
        CU_ASSERT_EQUAL(spec.analysis, CH09_DYNAMICS);
        CU_ASSERT_EQUAL(spec.t_end, 20.0);
        CU_ASSERT_STRING_EQUAL(ch09_integrator_names[spec.integrator], "bdf4");
        CU_ASSERT_EQUAL(spec.newton, MBD_SPATIAL_NEWTON_MODIFIED);
        spec.dt_out = 0.05;
        spec.linear_solver = cases[c].kind;
        REQUIRE_STATUS(ch09_run_spec(&md, &spec, &r), GSL_SUCCESS);
        CHECK_MSG(r.status == GSL_SUCCESS, "N = %d: %s", cases[c].N, r.fail.cause);
        CHECK_MSG(r.rows == 401, "N = %d: %zu outputs", cases[c].N, r.rows);
        double *rx = malloc(r.rows * sizeof *rx), *ry = malloc(r.rows * sizeof *ry), err = 0.0;
        REQUIRE_STATUS(ch09_benchmark_reduced(CH09_A02, cases[c].N, r.t, r.rows, rx, ry),
                       GSL_SUCCESS);
        for (size_t k = 0; k < r.rows; k++)
            err = fmax(err, fmax(fabs(r.points[3 * k] - rx[k]), fabs(r.points[3 * k + 1] - ry[k])));
        free(rx);
        free(ry);
        printf("\n    A02 N = %d (%s), 0-20 s at the file's settings: B0 %.3g m from the "
               "reduced equation, %zu steps, %zu Newton iterations", cases[c].N,
               mbd_linsolve_kind_name(cases[c].kind), err, r.dynamics.steps,
               r.dynamics.newton_iterations);
        CHECK_MSG(err <= 1e-3, "N = %d: B0 is %.3g from the reduced equation", cases[c].N, err);
        /* it did pass the horizontal: B0's y went below 0 */
        double ymin = 1.0;
        for (size_t k = 0; k < r.rows; k++)
            ymin = fmin(ymin, r.points[3 * k + 1]);
        CHECK_MSG(ymin < -0.9, "N = %d: B0 never went down (y >= %g)", cases[c].N, ymin);
        CHECK_MSG(r.max_euler_norm <= 1e-10, "N = %d: |p^T p - 1| up to %.3g", cases[c].N,
                  r.max_euler_norm);
        b0_end[c] = r.points[3 * (r.rows - 1)];
        ch09_run_free(&r);
        /* N = 2 again with the other solver: the same motion */
        if (c == 0) {
            spec.linear_solver = MBD_LINSOLVE_SPARSE;
            ch09_run_init(&r);
            REQUIRE_STATUS(ch09_run_spec(&md, &spec, &r), GSL_SUCCESS);
            CHECK_MSG(r.status == GSL_SUCCESS && r.rows == 401, "sparse N = 2: %s", r.fail.cause);
            if (r.rows == 401) {
                printf("; sparse: B0(20 s) %.3g m from the dense run's",
                       fabs(r.points[3 * 400] - b0_end[0]));
                CHECK_CLOSE(r.points[3 * 400], b0_end[0], 1e-5);
            }
            ch09_run_free(&r);
        }
        ch09_model_free(&md);
    }
}

/* A01 against the benchmark's reference file (IFToMM, the mass's x, y every
 * 0.5 s): the document's BDF2 at h = 1e-3 over 0-20 s (the guide's C1',
 * the benchmark's high precision 1e-3), and the whole 2000 s at the model
 * file's own settings (index 1 + rk8pd, rtol = atol = 1e-8) to the same
 * 1e-3, which BDF's numerical damping cannot reach in any time worth
 * spending (the chapter's comparison). */
static double a01_against_file(const char *integrator, double t_end, double h, size_t *steps)
{
    double *t, *x, *y;
    size_t n;
    char msg[512];
    int st = ch09_benchmark_read("chapters/09-spatial-engine/benchmarks/A01_pendulum_reference.csv",
                                 &t, &x, &y, &n, msg, sizeof msg);
    CHECK_MSG(st == GSL_SUCCESS, "%s", msg);
    if (st != GSL_SUCCESS)
        return HUGE_VAL;
    ch09_model md;
    mbd_failure fail;
    mbd_failure_clear(&fail);
    double err = HUGE_VAL;
    ch09_spec spec;
    ch09_run r;
    ch09_run_init(&r);
    st = ch09_model_load_named(&md, "a01-pendulum.yaml", &fail);
    CHECK_MSG(st == GSL_SUCCESS, "%s", fail.cause);
    if (st == GSL_SUCCESS && ch09_spec_of_model(&md, &spec, &fail) == GSL_SUCCESS) {
        if (integrator != NULL) {
            CHECK_STATUS(ch09_integrator_of(integrator, &spec.integrator), GSL_SUCCESS);
            spec.adaptive = 0;
            spec.rtol = spec.atol = 0.0;
        }
        if (t_end > 0)
            spec.t_end = t_end;
        if (h > 0)
            spec.h = h;
        spec.dt_out = 0.5;
        st = ch09_run_spec(&md, &spec, &r);
        CHECK_MSG(st == GSL_SUCCESS && r.status == GSL_SUCCESS, "%s", r.fail.cause);
        if (st == GSL_SUCCESS && r.status == GSL_SUCCESS) {
            err = 0.0;
            size_t rows = 0;
            for (size_t k = 0; k < r.rows && k < n; k++) {
                CHECK_CLOSE(r.t[k], t[k], 1e-9);
                err = fmax(err, fmax(fabs(r.points[3 * k] - x[k]),
                                     fabs(r.points[3 * k + 1] - y[k])));
                rows++;
            }
            CHECK_MSG(rows == (size_t)(spec.t_end / 0.5) + 1, "%zu rows compared", rows);
            *steps = r.dynamics.steps;
        }
        ch09_run_free(&r);
    }
    if (st == GSL_SUCCESS)
        ch09_model_free(&md);
    free(t);
    free(x);
    free(y);
    return err;
}

/* A02 with N = 40 over the benchmark's 20 s at the model file's own
 * settings against the ADAMS reference file: the high precision 1e-3 */
static void a02_n40_against_the_reference_file(void)
{
    double *t, *x, *y;
    size_t n;
    char msg[512];
    int st = ch09_benchmark_read("chapters/09-spatial-engine/benchmarks/A02_N40_B0_reference.csv",
                                 &t, &x, &y, &n, msg, sizeof msg);
    CHECK_MSG(st == GSL_SUCCESS, "%s", msg);
    if (st != GSL_SUCCESS)
        return;
    ch09_model md;
    mbd_failure fail;
    mbd_failure_clear(&fail);
    ch09_spec spec;
    ch09_run r;
    ch09_run_init(&r);
    st = ch09_model_load_named(&md, "a02-n40.yaml", &fail);
    CHECK_MSG(st == GSL_SUCCESS, "%s", fail.cause);
    if (st == GSL_SUCCESS && ch09_spec_of_model(&md, &spec, &fail) == GSL_SUCCESS) {
        spec.dt_out = 0.05;
        st = ch09_run_spec(&md, &spec, &r);
        CHECK_MSG(st == GSL_SUCCESS && r.status == GSL_SUCCESS, "%s", r.fail.cause);
        CHECK_MSG(r.rows == n, "%zu rows for the file's %zu", r.rows, n);
        double err = 0.0;
        for (size_t k = 0; k < r.rows && k < n; k++) {
            CHECK_CLOSE(r.t[k], t[k], 1e-9);
            err = fmax(err, fmax(fabs(r.points[3 * k] - x[k]), fabs(r.points[3 * k + 1] - y[k])));
        }
        printf("\n    A02 N = 40 at the file's settings (%s, h = %g, %s Newton, %s): B0 %.3g m "
               "from the ADAMS reference, %zu steps, %zu Newton iterations",
               ch09_integrator_names[spec.integrator], spec.h,
               mbd_spatial_newton_name(spec.newton), mbd_linsolve_kind_name(spec.linear_solver),
               err, r.dynamics.steps, r.dynamics.newton_iterations);
        CHECK_LE(err, 1e-3);
        ch09_run_free(&r);
    }
    if (st == GSL_SUCCESS)
        ch09_model_free(&md);
    free(t);
    free(x);
    free(y);
}

/* A file's tolerances go with the file's integrator: A01's file runs rk8pd
 * at rtol 1e-8; --integrator bdf2 --h 1e-2 is the document's fixed BDF2 (2000
 * steps over 20 s, none rejected), with --rtol an adaptive one */
static void integrator_option_drops_the_files_tolerances(void)
{
    char cmd[1024];
    test_run_result r;
    snprintf(cmd, sizeof cmd, "%s --model " MODELS "a01-pendulum.yaml --integrator bdf2 --h 1e-2 "
             "--t-end 20 --summary", test_program(PROG));
    test_run(cmd, &r);
    CHECK_MSG(r.status == 0, "exit %d: %s", r.status, r.err);
    CHECK_MSG(strstr(r.out, "\nsteps = 2000\n") != NULL, "%s", r.out);
    CHECK_MSG(strstr(r.out, "\nrejected = none\n") != NULL, "%s", r.out);
    test_run_free(&r);
    snprintf(cmd, sizeof cmd, "%s --model " MODELS "a01-pendulum.yaml --integrator bdf2 --h 1e-2 "
             "--rtol 1e-6 --t-end 20 --summary", test_program(PROG));
    test_run(cmd, &r);
    CHECK_MSG(r.status == 0, "exit %d: %s", r.status, r.err);
    CHECK_MSG(strstr(r.out, "\nsteps = 2000\n") == NULL && strstr(r.out, "\nrejected = ") != NULL
                  && strstr(r.out, "\nrejected = none\n") == NULL,
              "%s", r.out);
    test_run_free(&r);
}

static void a01_against_the_reference_file(void)
{
    size_t s2 = 0, s8 = 0;
    const double e2 = a01_against_file("bdf2", 20.0, 1e-3, &s2);
    const double e8 = a01_against_file(NULL, 0.0, 0.0, &s8);
    printf("\n    A01 against the reference file: BDF2 h = 1e-3 over 0-20 s %.3g m (%zu steps); "
           "the file's rk8pd over 0-2000 s %.3g m (%zu steps)", e2, s2, e8, s8);
    CHECK_LE(e2, 1e-3);
    CHECK_LE(e8, 1e-3);
}

/* ------------------------------------------------------------------------ */
/* --animate (animate.c; the GIF read by tests/support/gif.c)                */

/* K = floor((t_end - t0) fps / speed) + 1 frames, lasting round(100 K / fps)
 * cs, frame k starting round(100 k / fps) cs in */
static void check_animation_gif(const char *label, const char *path, double span, double fps,
                                double speed)
{
    char why[256];
    CHECK_MSG(test_gif_timing(path, span, fps, speed, why, sizeof why) == 0, "%s: %s", label,
              why);
}

static void animate_model_runs(void)
{
    const struct {
        const char *model, *args;
        double span, fps, speed;
    } cases[] = {
        {"four-bar-driven.yaml", "--t-end 1 --fps 10 --speed 0.5", 1.0, 10, 0.5},
        {"flyball-governor.yaml", "--t-end 0.6", 0.6, 25, 1},
        {"a02-n2.yaml", "--t-end 1 --fps 30 --speed 2", 1.0, 30, 2},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char name[64], cmd[1024];
        snprintf(name, sizeof name, "anim%zu.gif", i);
        const char *gif = scratch_path(name);
        snprintf(cmd, sizeof cmd, "%s --model " MODELS "%s %s --animate %s --summary",
                 test_program(PROG), cases[i].model, cases[i].args, gif);
        test_run_result r;
        test_run(cmd, &r);
        CHECK_MSG(r.status == 0, "%s: exit %d: %s", cases[i].model, r.status, r.err);
        /* the run's summary is still written, after the animation */
        CHECK_MSG(strstr(r.out, "\nstatus = ok\n") != NULL,
                  "%s: no summary: %s", cases[i].model, r.out);
        test_run_free(&r);
        check_animation_gif(cases[i].model, gif, cases[i].span, cases[i].fps, cases[i].speed);
    }
}

static void animate_option_errors(void)
{
    const char *gif = scratch_path("refused.gif");
    const struct {
        const char *args, *says;
    } bad[] = {
        /* --fps without --animate */
        {"--model " MODELS "four-bar-driven.yaml --fps 10", "--fps"},
        {"--model " MODELS "four-bar-driven.yaml --animate GIF --fps 0", "--fps"},
        {"--model " MODELS "four-bar-driven.yaml --animate GIF --speed 0", "--speed"},
        /* 20 s at 50 fps in slow motion: far more than 3000 frames */
        {"--model " MODELS "a02-n2.yaml --animate GIF --fps 50 --speed 0.01", "--animate"},
        /* a run option without the model */
        {"--animate GIF --t-end 1", "--model"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char args[512], cmd[1024];
        const char *at = strstr(bad[i].args, "GIF");
        if (at)
            snprintf(args, sizeof args, "%.*s%s%s", (int)(at - bad[i].args), bad[i].args, gif,
                     at + 3);
        else
            snprintf(args, sizeof args, "%s", bad[i].args);
        snprintf(cmd, sizeof cmd, "%s %s", test_program(PROG), args);
        test_run_result r;
        test_run(cmd, &r);
        CHECK_MSG(r.status == 2, "%s: exit %d, expected 2 (usage)", args, r.status);
        CHECK_MSG(strstr(r.err, bad[i].says) != NULL, "%s: stderr does not name %s: %s", args,
                  bad[i].says, r.err);
        CHECK_MSG(r.out[0] == '\0', "%s: wrote on stdout: %s", args, r.out);
        CHECK_MSG(!file_exists(gif), "%s: %s written", args, gif);
        test_run_free(&r);
    }
}

static void animate_unwritable_path(void)
{
    const char *csv = scratch_path("unwritable.csv");
    char gif[512], cmd[1200];
    snprintf(gif, sizeof gif, "%s", scratch_path("no-such-dir/x.gif"));
    snprintf(cmd, sizeof cmd, "%s --model " MODELS "four-bar-driven.yaml --t-end 0.5 --animate %s "
             "--csv %s", test_program(PROG), gif, csv);
    test_run_result r;
    test_run(cmd, &r);
    CHECK_MSG(r.status != 0, "exit 0 for an animation into a missing directory");
    CHECK_MSG(strstr(r.err, "x.gif") != NULL, "the file is not named: %s", r.err);
    CHECK_MSG(!file_exists(gif), "%s written", gif);
    CHECK_MSG(!file_exists(csv), "the CSV was written before the animation failed");
    test_run_free(&r);
    /* no partial file left in a writable directory either: only the GIF */
    const char *ok = scratch_path("whole.gif");
    snprintf(cmd, sizeof cmd, "%s --model " MODELS "four-bar-driven.yaml --t-end 0.2 --animate %s",
             test_program(PROG), ok);
    test_run(cmd, &r);
    CHECK_MSG(r.status == 0, "exit %d: %s", r.status, r.err);
    test_run_free(&r);
    DIR *d = opendir(scratch);
    for (struct dirent *de; d && (de = readdir(d)) != NULL;)
        CHECK_MSG(strstr(de->d_name, "whole") == NULL || strcmp(de->d_name, "whole.gif") == 0,
                  "a temporary file left behind: %s", de->d_name);
    if (d)
        closedir(d);
}

static CU_TestInfo tests[] = {
    {"closed forms of reference.c by differences", closed_forms_by_differences},
    {"slider-crank: x, x', x'' against x(theta), t0 = 0, h = 1e-3", slider_crank_from_zero},
    {"slider-crank: from t0 = 0.05, h = 7e-4", slider_crank_late_start},
    {"pendulum: driver torque, hinge force, power balance, Newton", pendulum_torque_and_hinge_force},
    {"joints: rows per type, rank and dof by SVD", joint_rows_rank_dof},
    {"planar four-bar: rank 21 of 24, redundant rows named, C by circles", fourbar_planar_redundant},
    {"unreachable: no convergence at t = 0, rows named", unreachable_in_process},
    {"unreachable through the program: exit 1", unreachable_program},
    {"unreachable: not reported as assembled", unreachable_not_reported_assembled},
    {"initial velocities, the crank's known: Phi_q q' = nu", initial_velocities_some_known},
    {"initial velocities through the program", initial_velocities_program},
    {"malformed model files: exit 2, FILE:LINE:COL, nothing written", malformed_files_refused},
    {"missing file, directory, unknown torque callback", files_the_program_cannot_use},
    {"usage errors: exit 2, option named, nothing written", usage_errors},
    {"--h checked for the program's own analysis", step_checked_for_the_programs_analysis},
    {"--reactions with the program's own analysis", reactions_without_an_analysis},
    {"CSV header per the contract", csv_header_per_contract},
    {"CSV values finite for every runnable model", csv_values_finite},
    {"summary keys against the model", summary_keys_against_the_model},
    {"--t-end, --h, --csv FILE, t_start", times_honoured},
    {"story", story_runs},
    {"benchmark files against the reduced equations", benchmark_files_are_the_reduced_equations},
    {"--generate n-four-bar: files, rows, dof, initial energy", n_four_bar_generated},
    {"dynamics: A02 N = 2 (dense, sparse) and N = 5 (sparse), 0-20 s, vs the reduced equation",
     n_four_bar_dynamics},
    {"--integrator drops the file's tolerances", integrator_option_drops_the_files_tolerances},
    {"velocity analysis by sparse QR: N = 20 four-bar with 5 N redundant rows",
     n_four_bar_redundant_rows_sparse},
    {"dynamics: A01 against the reference file (BDF2 0-20 s; the file's rk8pd 0-2000 s)",
     a01_against_the_reference_file},
    {"dynamics: A02 N = 40 against the ADAMS file at the file's settings",
     a02_n40_against_the_reference_file},
    {"--animate: frames and duration against --fps, --speed, --t-end", animate_model_runs},
    {"--animate: option errors (exit 2, nothing written)", animate_option_errors},
    {"--animate: an unwritable path leaves no file (nor the CSV)", animate_unwritable_path},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"ch09", NULL, cleanup_suite, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
