/* story.c -- chapter 09's story, one run's glue for main.c, the figures'
 * data and the benchmarks (see story.h).
 *
 * The steps: Euler parameters (the half turn the document's A2p cannot
 * convert); the four basic constraints against differences; one model per
 * joint, its rows, rank and degrees of freedom; the driven slider-crank read
 * from its model file, assembled and run against its closed form, and
 * without the document's 1e-4 offset; the driven pendulum's torque and
 * hinge force by inverse dynamics; a redundant planar four-bar, its three
 * repeated rows named; initial velocities with some known; an assembly that
 * cannot succeed; what the reader says about faulty files. Part 2: the
 * document's validation cases by BDF2 against closed forms, conservation
 * laws and inverse dynamics (Step 9); A01 over 2000 s, BDF against the
 * index-1 formulation under rk8pd (Step 10); A02's N four-bar through its
 * singular positions, and the index-1 run that stops there (Step 11).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_math.h>

#include "mbd/io.h"
#include "reference.h"
#include "study.h"

/* text at `indent` spaces, broken at spaces before column 88 */
static void print_wrapped(FILE *out, int indent, const char *text)
{
    const int width = 88 - indent;
    while (*text != '\0') {
        int n = (int)strlen(text), cut = n;
        if (n > width) {
            cut = width;
            while (cut > 0 && text[cut] != ' ')
                cut--;
            if (cut == 0)
                cut = width;
        }
        fprintf(out, "%*s%.*s\n", indent, "", cut, text);
        text += cut;
        while (*text == ' ')
            text++;
    }
}

/* the largest |C| of a record */
static double max_c(const ch09_run *r)
{
    double c = 0.0;
    for (size_t k = 0; k < r->rows; k++)
        c = fmax(c, r->C[k]);
    return c;
}

/* ------------------------------------------------------------------------ */
/* Step 1: Euler parameters                                                  */

static void step_euler(FILE *out)
{
    fputs("Step 1. Euler parameters (guide Sec. 2.1). A(p) of unit p is a rotation. The\n"
          "document's A2p takes e0 = sqrt((tr A + 1)/4) and divides by 4 e0, so a half turn\n"
          "(e0 = 0) stops it; Shepperd's method starts from the largest of e0^2 ... e3^2.\n"
          "Round trips p -> A -> p (p and -p are one rotation) and w-bar -> p' -> w-bar:\n", out);
    /* a half turn about (1, 1, 0)/sqrt 2, and a general rotation */
    const double s = sqrt(0.5);
    const double ps[2][4] = {{0.0, s, s, 0.0}, {0.4, -0.2, 0.8, 0.4}};
    for (int k = 0; k < 2; k++) {
        double A[3][3], p[4];
        mbd_spatial_ep_A(ps[k], A);
        double orth = 0.0;
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) {
                double d = -(i == j);
                for (int l = 0; l < 3; l++)
                    d += A[l][i] * A[l][j];
                orth = fmax(orth, fabs(d));
            }
        mbd_spatial_ep_from_A(A, p);
        /* p and -p are the same rotation: compare up to the sign */
        const double sg = p[0] * ps[k][0] + p[1] * ps[k][1] + p[2] * ps[k][2] + p[3] * ps[k][3] < 0
                              ? -1.0 : 1.0;
        double back = 0.0;
        for (int i = 0; i < 4; i++)
            back = fmax(back, fabs(sg * p[i] - ps[k][i]));
        /* omega-bar -> p' -> omega-bar */
        const double wb[3] = {0.3, -1.2, 2.5};
        double pd[4], w2[3];
        mbd_spatial_ep_pdot_body(ps[k], wb, pd);
        mbd_spatial_ep_omega_bar(ps[k], pd, w2);
        const double tang = ps[k][0] * pd[0] + ps[k][1] * pd[1] + ps[k][2] * pd[2] + ps[k][3] * pd[3];
        fprintf(out, "  p = (%4.1f, %5.2f, %5.2f, %4.1f)  max|A^T A - I| %.0e, p -> A -> p %.0e, "
                "w-bar -> p' -> w-bar %.0e, p^T p' %.0e\n",
                ps[k][0], ps[k][1], ps[k][2], ps[k][3], orth, back,
                fmax(fabs(w2[0] - wb[0]), fmax(fabs(w2[1] - wb[1]), fabs(w2[2] - wb[2]))),
                fabs(tang));
        if (k == 0)
            fprintf(out, "  (for it the document's formula gives e0 = sqrt((%.0f + 1)/4) = %.0f, then "
                    "e1 = (A32 - A23)/(4 e0) = %.0f/0)\n", A[0][0] + A[1][1] + A[2][2],
                    sqrt(fmax(A[0][0] + A[1][1] + A[2][2] + 1, 0) / 4), fabs(A[2][1] - A[1][2]));
    }
}

/* ------------------------------------------------------------------------ */
/* Step 2: the basic constraints against differences                         */

/* a smooth motion of two bodies: r(t) = r0 + t r1 + t^2 r2, p(t) =
 * normalised (p0 + t p1 + t^2 p2) */
static void motion(double t, gsl_vector *q)
{
    static const double c[2][3][7] = {
        {{0.3, -0.2, 0.5, 0.9, 0.1, -0.3, 0.2}, {0.4, 0.1, -0.7, 0.2, -0.5, 0.3, 0.6},
         {-0.6, 0.8, 0.2, -0.4, 0.7, 0.2, -0.3}},
        {{-0.8, 0.4, 0.1, 0.5, -0.6, 0.4, 0.3}, {0.2, -0.9, 0.3, -0.3, 0.2, 0.8, -0.5},
         {0.5, 0.3, -0.4, 0.6, -0.2, -0.7, 0.4}}};
    for (size_t b = 0; b < 2; b++) {
        double v[7], n = 0.0;
        for (int i = 0; i < 7; i++)
            v[i] = c[b][0][i] + t * c[b][1][i] + t * t * c[b][2][i];
        for (int i = 3; i < 7; i++)
            n += v[i] * v[i];
        for (int i = 3; i < 7; i++)
            v[i] /= sqrt(n);
        for (int i = 0; i < 7; i++)
            gsl_vector_set(q, 7 * b + (size_t)i, v[i]);
    }
}

static int step_basic(FILE *out, mbd_failure *fail)
{
    fputs("\nStep 2. The four basic constraints (guide Sec. 2.2), each between two moving\n"
          "bodies with points and vectors off their axes, along a smooth motion q(t): the\n"
          "partials Phi_r, Phi_p against central differences of Phi, nu against dPhi/dt +\n"
          "f', gamma against Phi_q q'' - d2Phi/dt2 (second differences of Phi(q(t), t)).\n", out);
    mbd_spatial_model *sm = mbd_spatial_alloc();
    if (sm == NULL)
        return mbd_failure_set(fail, GSL_ENOMEM, NAN, "out of memory");
    mbd_spatial_add_ground(sm, "ground");
    double J[3][3] = {{1, 0.1, 0}, {0.1, 2, 0}, {0, 0, 3}};
    const int i = mbd_spatial_add_body(sm, "i", 1.0, J), j = mbd_spatial_add_body(sm, "j", 2.0, J);
    const double sp[3] = {0.2, -0.1, 0.3}, sq[3] = {-0.4, 0.25, 0.1}, ai[3] = {0.6, 0.0, 0.8},
                 aj[3] = {0.0, 0.8, -0.6}, cx[3] = {0, 1, 0};
    const mbd_spatial_fn f = mbd_spatial_fn_sine(0.3, 1.7, 0.4);
    mbd_spatial_add_cd(sm, "CD", i, sp, j, sq, cx, f);
    mbd_spatial_add_d(sm, "D", i, sp, j, sq, mbd_spatial_fn_sum(mbd_spatial_fn_constant(1.0), f));
    mbd_spatial_add_dp1(sm, "DP1", i, ai, j, aj, f);
    mbd_spatial_add_dp2(sm, "DP2", i, ai, sp, j, sq, f);
    int st = mbd_spatial_finish(sm);
    gsl_vector *q = gsl_vector_alloc(14), *qd = gsl_vector_alloc(14), *qdd = gsl_vector_alloc(14),
               *w = gsl_vector_alloc(14);
    const double t = 0.37, dt = 1e-3, e = 1e-6;
    /* q', q'' by central differences of fourth order */
    gsl_vector *qs[4];
    for (int k = 0; k < 4; k++)
        qs[k] = gsl_vector_alloc(14);
    const double off[4] = {-2, -1, 1, 2};
    for (int k = 0; k < 4; k++)
        motion(t + off[k] * dt, qs[k]);
    motion(t, q);
    for (size_t k = 0; k < 14; k++) {
        const double a = gsl_vector_get(qs[0], k), b = gsl_vector_get(qs[1], k),
                     c = gsl_vector_get(q, k), d = gsl_vector_get(qs[2], k),
                     g = gsl_vector_get(qs[3], k);
        gsl_vector_set(qd, k, (a - 8 * b + 8 * d - g) / (12 * dt));
        gsl_vector_set(qdd, k, (-a + 16 * b - 30 * c + 16 * d - g) / (12 * dt * dt));
    }
    fprintf(out, "  %-8s %10s %12s %12s %12s\n", "row", "Phi", "partials", "nu", "gamma");
    for (size_t k = 0; st == GSL_SUCCESS && k < 4; k++) {
        mbd_spatial_row_eval ev, ep, em;
        mbd_spatial_row_info info;
        mbd_spatial_row_info_get(sm, k, &info);
        st = mbd_spatial_eval_row(sm, k, t, q, qd, &ev);
        /* the partials: column c of body side s */
        double ep_max = 0.0, scale = 1.0;
        for (size_t c = 0; c < 14 && st == GSL_SUCCESS; c++) {
            gsl_vector_memcpy(w, q);
            gsl_vector_set(w, c, gsl_vector_get(q, c) + e);
            mbd_spatial_eval_row(sm, k, t, w, NULL, &ep);
            gsl_vector_set(w, c, gsl_vector_get(q, c) - e);
            mbd_spatial_eval_row(sm, k, t, w, NULL, &em);
            const double fd = (ep.phi - em.phi) / (2 * e);
            const size_t side = c / 7, at = c % 7;
            const double an = at < 3 ? ev.phi_r[side][at] : ev.phi_p[side][at - 3];
            ep_max = fmax(ep_max, fabs(fd - an));
            scale = fmax(scale, fabs(an));
        }
        /* Phi along the motion at t + m dt */
        double phi[5];
        for (int m = -2; m <= 2; m++) {
            motion(t + m * dt, w);
            mbd_spatial_eval_row(sm, k, t + m * dt, w, NULL, &ep);
            phi[m + 2] = ep.phi;
        }
        const double dphi = (phi[0] - 8 * phi[1] + 8 * phi[3] - phi[4]) / (12 * dt);
        const double d2phi = (-phi[0] + 16 * phi[1] - 30 * phi[2] + 16 * phi[3] - phi[4]) /
                             (12 * dt * dt);
        double phiq_qd = 0.0, phiq_qdd = 0.0;
        for (size_t c = 0; c < 14; c++) {
            const size_t side = c / 7, at = c % 7;
            const double an = at < 3 ? ev.phi_r[side][at] : ev.phi_p[side][at - 3];
            phiq_qd += an * gsl_vector_get(qd, c);
            phiq_qdd += an * gsl_vector_get(qdd, c);
        }
        /* nu = f' : Phi_q q' = dPhi/dt + f' */
        fprintf(out, "  %-8s %10.5f %12.1e %12.1e %12.1e\n", info.name, ev.phi,
                ep_max / scale, fabs(phiq_qd - (dphi + ev.nu)),
                fabs(ev.gamma - (phiq_qdd - d2phi)));
    }
    fputs("  (partials: the largest difference over the 14 columns, relative to the largest\n"
          "  partial; the differences' own error is about 1e-10 for the partials and nu, 1e-7\n"
          "  for gamma, whose check takes second differences.)\n", out);
    for (int k = 0; k < 4; k++)
        gsl_vector_free(qs[k]);
    gsl_vector_free(q);
    gsl_vector_free(qd);
    gsl_vector_free(qdd);
    gsl_vector_free(w);
    mbd_spatial_free(sm);
    if (st != GSL_SUCCESS)
        return mbd_failure_set(fail, st, NAN, "step 2: the basic constraints could not be built");
    return GSL_SUCCESS;
}

/* ------------------------------------------------------------------------ */
/* Step 3: one model per joint                                               */

static int step_joints(FILE *out, mbd_failure *fail)
{
    fputs("\nStep 3. One model per joint type (models/joint-*.yaml, the examples of the model\n"
          "format's reference): the joint's rows, and the rank and degrees of freedom of the\n"
          "body on it (its 7 coordinates, its joint rows, its Euler-parameter row).\n", out);
    static const char *const joints[] = {"joint-spherical.yaml",     "joint-revolute.yaml",
                                         "joint-cylindrical.yaml",   "joint-translational.yaml",
                                         "joint-universal.yaml",
                                         "joint-revolute-cylindrical.yaml"};
    fprintf(out, "  %-22s %5s %8s %5s %4s\n", "joint", "rows", "drivers", "rank", "dof");
    for (size_t k = 0; k < sizeof joints / sizeof joints[0]; k++) {
        ch09_model md;
        ch09_run r;
        int st = ch09_run_model(&md, joints[k], NULL, CH09_ASSEMBLY, 0, 0, 1, &r, fail);
        if (st != GSL_SUCCESS)
            return st;
        fprintf(out, "  %-22s %5d %8zu %5zu %4zu\n",
                mbd_model_joint_type_name(md.desc->joints[0].type),
                mbd_model_joint_rows(md.desc->joints[0].type), md.desc->nconstraints, r.rank,
                r.dof);
        ch09_run_free(&r);
        ch09_model_free(&md);
    }
    fputs("  (rank = rows + drivers + 1 and dof = 6 - rows - drivers: no row repeats another.\n"
          "  The translational example drives its stroke, so nothing is left to move.)\n", out);
    return GSL_SUCCESS;
}

/* ------------------------------------------------------------------------ */
/* Step 4: the driven slider-crank                                            */

/* the record's slider x, x', x'' against the closed form: err[0..2] over
 * every output, err[3..5] over those more than 0.005 s from the driver's
 * singular instants t = 0.25 and 0.75 s */
static void slider_errors(const ch09_model *md, const ch09_run *r, double shift, double err[6],
                          double span[2])
{
    size_t c0 = 0;
    mbd_spatial_body_coordinates(md->sm, mbd_spatial_body_index(md->sm, "slider"), &c0);
    for (int i = 0; i < 6; i++)
        err[i] = 0.0;
    span[0] = INFINITY;
    span[1] = -INFINITY;
    for (size_t k = 0; k < r->rows; k++) {
        double x[3];
        ch09_slider_exact(r->t[k] + shift, x);
        const double e[3] = {fabs(r->q[k * r->n + c0] - x[0]), fabs(r->qd[k * r->n + c0] - x[1]),
                             fabs(r->qdd[k * r->n + c0] - x[2])};
        const double tm = fmod(r->t[k], 0.5);
        const int away = fabs(tm - 0.25) > 0.005;
        for (int i = 0; i < 3; i++) {
            err[i] = fmax(err[i], e[i]);
            if (away)
                err[3 + i] = fmax(err[3 + i], e[i]);
        }
        span[0] = fmin(span[0], x[0]);
        span[1] = fmax(span[1], x[0]);
    }
}

int ch09_slider_run(ch09_model *md, const char *text, double h, ch09_run *r, mbd_failure *fail)
{
    return ch09_run_model(md, text ? "slider-crank-driven.yaml (no offset)" : "slider-crank-driven.yaml",
                          text, CH09_KINEMATICS, h, 0, 0, r, fail);
}

/* the model file's text with the driver's offset removed */
static char *without_offset(mbd_failure *fail)
{
    char path[4096 + 64];
    snprintf(path, sizeof path, "%sslider-crank-driven.yaml", ch09_models_dir());
    FILE *f = fopen(path, "rb");
    char *text = NULL;
    long n = -1;
    if (f != NULL && fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0)
        text = calloc((size_t)n + 1, 1);
    if (text != NULL && fread(text, 1, (size_t)n, f) != (size_t)n) {
        free(text);
        text = NULL;
    }
    if (f != NULL)
        fclose(f);
    char *at = text ? strstr(text, "[pi/2 + 0.0001") : NULL;   /* the polynomial's, not a comment's */
    if (at == NULL) {
        free(text);
        mbd_failure_set(fail, MBD_EIO, NAN, "%s: cannot read the driver's 'pi/2 + 0.0001'", path);
        return NULL;
    }
    memcpy(at + 1, "pi/2         ", 13);
    return text;
}

static int step_slider(FILE *out, mbd_failure *fail)
{
    fputs("\nStep 4. The spatial slider-crank (models/slider-crank-driven.yaml; guide Sec. 5.2\n"
          "case 4): 3 bodies, 4 joints, a distance row and the crank's driver, 21 rows for 21\n"
          "coordinates. Assembled from the document's guesses, then kinematics over 1 s\n"
          "(eqs. 12-14: Newton for Phi = 0, then the velocity and acceleration solves), the\n"
          "slider against its closed form x(theta) and its derivatives (reference.c).\n", out);
    ch09_model md;
    ch09_run r;
    int st = ch09_slider_run(&md, NULL, 1e-3, &r, fail);
    if (st != GSL_SUCCESS)
        return st;
    if (r.status != GSL_SUCCESS) {
        *fail = r.fail;
        st = r.status;
    } else {
        double err[6], span[2];
        slider_errors(&md, &r, 0.0, err, span);
        fprintf(out, "  assembly: %u Newton iterations from the guesses, |Phi| = %.1e; rank %zu of "
                "%zu rows, dof %zu\n", r.assembly.iterations, r.assembly.residual, r.rank, md.m,
                r.dof);
        fprintf(out, "  h = 1e-3, %zu outputs, slider x in [%.6f, %.6f] m; largest |C| %.1e\n",
                r.rows, span[0], span[1], max_c(&r));
        fprintf(out, "  largest difference from the closed form     x %.1e m, x' %.1e m/s, "
                "x'' %.1e m/s^2\n", err[0], err[1], err[2]);
        fprintf(out, "  the same, 0.005 s or more from t = 0.25, 0.75 x %.1e m, x' %.1e m/s, "
                "x'' %.1e m/s^2\n", err[3], err[4], err[5]);
    }
    ch09_run_free(&r);
    ch09_model_free(&md);
    if (st != GSL_SUCCESS)
        return st;
    fputs("  The driver is a DP1 row, y_crank . y_ground = cos(theta(t)), whose gradient\n"
          "  -sin(theta) dtheta vanishes where theta = k pi (the guide's item 15, which the\n"
          "  document does not mention). Its theta = pi/2 + 1e-4 - 2 pi t keeps the output\n"
          "  times 1.6e-5 s away from those instants (t = 0.25, 0.75 s). Without the 1e-4:\n", out);
    char *text = without_offset(fail);
    if (text == NULL)
        return fail->status;
    st = ch09_slider_run(&md, text, 1e-2, &r, fail);
    if (st == GSL_SUCCESS) {
        /* the closed form without the offset: theta(t) = pi/2 - 2 pi t */
        size_t c0 = 0, jump = r.rows;
        mbd_spatial_body_coordinates(md.sm, mbd_spatial_body_index(md.sm, "slider"), &c0);
        double x[3], e25 = 0.0;
        for (size_t k = 0; k < r.rows; k++) {
            ch09_slider_exact(r.t[k] + 1e-4 / (2 * M_PI), x);
            const double e = fabs(r.q[k * r.n + c0] - x[0]);
            if (fabs(r.t[k] - 0.25) < 1e-9)
                e25 = e;
            if (e > 1e-3 && jump == r.rows)
                jump = k;
        }
        /* the output at t = 0.25 s, where theta = 0 */
        size_t k25 = 0;
        for (size_t k = 0; k < r.rows; k++)
            if (fabs(r.t[k] - 0.25) < fabs(r.t[k25] - 0.25))
                k25 = k;
        ch09_slider_exact(r.t[k25] + 1e-4 / (2 * M_PI), x);
        fprintf(out, "    h = 1e-2, outputs at t = 0.25 and 0.75 s: the run %s t = %g s (%zu outputs,\n"
                "    largest |C| %.1e). At t = 0.25 s the slider is off by %.1e m: Newton meets a\n"
                "    double root there (Phi ~ (angle error)^2 / 2), so the crank's angle is found\n"
                "    only to about the square root of the tolerance, and the driver row's gradient\n"
                "    is that small, not zero: the rank test (1e-9) sees no loss. The velocity\n"
                "    solve then gives x' = %.3g m/s (closed form %.3g; nu = f' = 0 there) and the\n"
                "    acceleration solve x'' = %.3g m/s^2 (closed form %.3g).\n",
                r.status == GSL_SUCCESS ? "reaches" : "stops at", r.t[r.rows - 1], r.rows,
                max_c(&r), e25, r.qd[k25 * r.n + c0], x[1], r.qdd[k25 * r.n + c0], x[2]);
        if (jump < r.rows) {
            ch09_slider_exact(r.t[jump] + 1e-4 / (2 * M_PI), x);
            fprintf(out, "    At t = %.2f s the slider is at x = %.4f m, not %.4f: the mechanism has\n"
                    "    jumped to its mirror assembly (the slider on the -x side) with every\n"
                    "    constraint satisfied and nothing flagged. The next step's Taylor\n"
                    "    prediction from that acceleration lands far away, and Newton converges\n"
                    "    to whichever assembly is nearest.\n",
                    r.t[jump], r.q[jump * r.n + c0], x[0]);
        }
        if (r.status != GSL_SUCCESS)
            fprintf(out, "    It stops at t = %.4g s (status %s): %s\n", r.fail.time,
                    mbd_status_word(r.status), r.fail.cause);
        ch09_run_free(&r);
        ch09_model_free(&md);
    }
    free(text);
    return st;
}

/* ------------------------------------------------------------------------ */
/* Step 5: the driven pendulum by inverse dynamics                            */

int ch09_pendulum_run(ch09_model *md, ch09_run *r, mbd_failure *fail)
{
    return ch09_run_model(md, "pendulum-driven.yaml", NULL, CH09_FILE, 0, 1, 1, r, fail);
}

void ch09_pendulum_data(const ch09_model *md, double *m, double *Jzz, double *h, double *g)
{
    const mbd_model_body *bar = &md->desc->bodies[1];
    *m = bar->mass;
    *Jzz = bar->inertia[8];
    *h = 2.0;
    *g = -md->desc->gravity[2];
}

static int step_pendulum(FILE *out, mbd_failure *fail)
{
    fputs("\nStep 5. The ME751 pendulum of the document's Fig. 16 (models/pendulum-driven.yaml):\n"
          "a 4 m steel bar (78 kg) hinged about the global x axis, driven through\n"
          "theta(t) = (pi/4) cos 2t. Inverse dynamics (Sec. 6.5): kinematics, then\n"
          "Phi_q^T lambda = F - M q'' at every step, each row's multiplier turned into its\n"
          "joint's force and torque. Against n(t) = I_O theta'' + m g (L/2) sin theta and the\n"
          "hinge force m (a_c - g) (reference.c):\n", out);
    ch09_model md;
    ch09_run r;
    int st = ch09_pendulum_run(&md, &r, fail);
    if (st != GSL_SUCCESS)
        return st;
    double m, Jzz, h, g;
    ch09_pendulum_data(&md, &m, &Jzz, &h, &g);
    /* the reactions: hinge (joint 0, on the ground: minus it on the bar), swing (row 1) */
    double et = 0.0, nmax = 0.0, ecross = 0.0, ef = 0.0, fmaxv = 0.0;
    const size_t nj = r.njoints;
    for (size_t k = 0; k < r.rows; k++) {
        const double *hinge = r.react + k * 6 * nj, *swing = hinge + 6;
        const double n = ch09_pendulum_torque(r.t[k], m, Jzz, h, g);
        double F[3];
        ch09_pendulum_hinge_force(r.t[k], m, h, g, F);
        et = fmax(et, fabs(swing[3] - n));
        nmax = fmax(nmax, fabs(n));
        ecross = fmax(ecross, fmax(fabs(swing[4]), fabs(swing[5])));
        for (int i = 0; i < 3; i++) {
            ef = fmax(ef, fabs(-hinge[i] - F[i]));
            fmaxv = fmax(fmaxv, fabs(F[i]));
        }
    }
    fprintf(out, "  I_O = J_zz + m (L/2)^2 = %.5f kg m^2 (the bar's own section; the slender bar\n"
            "  of the document's code has 416)\n", Jzz + m * h * h);
    fprintf(out, "  %zu outputs, 1e-2 s apart over 4 s: driving torque about x, largest |n| %.4f N m,\n"
            "  largest difference %.1e N m (%.1e of it), other components %.1e N m;\n"
            "  hinge force on the bar: largest difference %.1e N (%.1e of its largest, %.1f N)\n",
            r.rows, nmax, et, et / nmax, ecross, ef, ef / fmaxv, fmaxv);
    fprintf(out, "  at t = 0: n = %.4f N m (the guide's -224.7746 is the slender bar's,\n"
            "  -416 pi + 1530.36 sin(pi/4); the section's 0.05 m adds m 0.05^2/12 = 0.016 kg m^2)\n",
            r.react[9]);
    ch09_run_free(&r);
    ch09_model_free(&md);
    return GSL_SUCCESS;
}

/* ------------------------------------------------------------------------ */
/* Step 6: redundant rows                                                    */

static int step_redundant(FILE *out, mbd_failure *fail)
{
    fputs("\nStep 6. A planar four-bar drawn with four revolute joints about z\n"
          "(models/four-bar-planar.yaml): in space each revolute removes 5 freedoms, so the\n"
          "count is 3 x 6 - 4 x 5 - 1 (the driver) = -3, yet the crank turns it. The rank of\n"
          "Phi_q (QR with column pivoting of Phi_q^T) finds the rows that repeat the others:\n", out);
    ch09_model md;
    ch09_run r;
    int st = ch09_run_model(&md, "four-bar-planar.yaml", NULL, CH09_FILE, 0, 0, 1, &r, fail);
    if (st != GSL_SUCCESS)
        return st;
    {
        fprintf(out, "  %zu rows, %zu coordinates: rank %zu, dof %zu; set aside:", md.m, md.n,
                r.rank, r.dof);
        for (size_t k = 0; k < r.structure.n_dropped && k < MBD_SPATIAL_REPORT_ROWS; k++) {
            mbd_spatial_row_info info;
            mbd_spatial_row_info_get(md.sm, r.structure.dropped[k], &info);
            fprintf(out, "%s '%s'", k ? "," : "", info.name);
        }
        /* the rocker's point C against the circles' intersection */
        double err = 0.0;
        for (size_t k = 0; k < r.rows; k++) {
            const double th = 2.0 + r.t[k], bx = cos(th), by = sin(th);
            /* |C - B| = 3, |C - D| = 2, D = (3, 0): C = M + s n on the radical line */
            const double dx = 3.0 - bx, dy = -by, d = hypot(dx, dy);
            const double a = (9.0 - 4.0 + d * d) / (2 * d), hh = sqrt(9.0 - a * a);
            const double mx = bx + a * dx / d, my = by + a * dy / d;
            /* the branch above the line B -> D (the file's guess) */
            const double cx = mx - hh * dy / d, cy = my + hh * dx / d;
            const double *pc = r.points + k * 3 * r.npoints;
            err = fmax(err, hypot(pc[0] - cx, pc[1] - cy) + fabs(pc[2]));
        }
        fprintf(out, "\n  kinematics over 1 s (theta = 2 ... 3 rad): |C| <= %.1e, the rocker's point C\n"
                "  against the intersection of the two circles: %.1e m\n", max_c(&r), err);
    }
    ch09_run_free(&r);
    ch09_model_free(&md);
    return st;
}

/* ------------------------------------------------------------------------ */
/* Step 7: initial velocities, and an assembly that fails                    */

static int step_velocities(FILE *out, mbd_failure *fail)
{
    fputs("\nStep 7. Initial velocities (Sec. 6.3). The free slider-crank\n"
          "(models/slider-crank-free.yaml, no driver: 1 dof) gives the crank's angular\n"
          "velocity (6 rad/s about x) and asks for the other bodies' (the document's Case 3):\n"
          "the velocity equations for the unknown bodies, solved with the known ones moved\n"
          "to the right-hand side (minimum norm where they leave freedom; here they do not).\n",
          out);
    ch09_model md;
    ch09_run r;
    int st = ch09_run_model(&md, "slider-crank-free.yaml", NULL, CH09_ASSEMBLY, 0, 0, 1, &r, fail);
    if (st != GSL_SUCCESS)
        return st;
    {
        /* Phi_q q' - nu at the result */
        const mbd_system *sys = mbd_spatial_system(md.sm);
        gsl_vector_view q = gsl_vector_view_array(r.q, r.n), qd = gsl_vector_view_array(r.qd, r.n);
        gsl_matrix *Cq = gsl_matrix_alloc(sys->m, sys->n);
        gsl_vector *res = gsl_vector_alloc(sys->m), *ct = gsl_vector_calloc(sys->m);
        st = Cq && res && ct ? sys->jacobian(sys, 0.0, &q.vector, Cq) : GSL_ENOMEM;
        if (st == GSL_SUCCESS && sys->constraint_t)
            st = sys->constraint_t(sys, 0.0, &q.vector, ct);
        if (st == GSL_SUCCESS) {
            gsl_vector_memcpy(res, ct);
            gsl_blas_dgemv(CblasNoTrans, 1.0, Cq, &qd.vector, 1.0, res);
            size_t c0 = 0;
            mbd_spatial_body_coordinates(md.sm, mbd_spatial_body_index(md.sm, "slider"), &c0);
            /* the crank's angle from its y axis, A (0, 1, 0) = (0, cos, sin) */
            double rc[3], pc[4], A[3][3], X[3];
            mbd_spatial_pose(md.sm, mbd_spatial_body_index(md.sm, "crank"), &q.vector, rc, pc);
            mbd_spatial_ep_A(pc, A);
            ch09_slider_x_theta(atan2(A[2][1], A[1][1]), X);
            fprintf(out, "  %zu of %zu bodies known; the solve's rows %zu, unknowns %zu, rank %zu: the\n"
                    "  velocities are unique. |Phi_q q' + Phi_t| = %.1e; the slider starts at\n"
                    "  x' = %.6f m/s, the closed form x'(theta) theta' = %.6f m/s\n",
                    r.velocities_known, md.desc->nbodies - 1, r.velocity.rows,
                    r.velocity.unknowns, r.velocity.rank, gsl_blas_dnrm2(res), r.qd[c0],
                    X[1] * 6.0);
        }
        if (Cq)
            gsl_matrix_free(Cq);
        if (res)
            gsl_vector_free(res);
        if (ct)
            gsl_vector_free(ct);
    }
    ch09_run_free(&r);
    ch09_model_free(&md);
    if (st != GSL_SUCCESS)
        return st;

    fputs("\n  An assembly that cannot succeed (models/unreachable.yaml: a point 1 m from the\n"
          "  origin held 3 m from (1, 0, 0)) ends with the rows it could not satisfy:\n", out);
    st = ch09_run_model(&md, "unreachable.yaml", NULL, CH09_FILE, 0, 0, 0, &r, fail);
    if (st != GSL_SUCCESS)
        return st;
    {
        char line[512];
        snprintf(line, sizeof line, "status %s: %s", mbd_status_word(r.status), r.fail.cause);
        print_wrapped(out, 4, line);
    }
    ch09_run_free(&r);
    ch09_model_free(&md);
    return st;
}

/* ------------------------------------------------------------------------ */
/* Step 8: the reader's messages                                             */

static void step_reader(FILE *out)
{
    fputs("\nStep 8. What the model reader says about faulty files (every message names the\n"
          "file, line and column, and what was expected; the program exits with status 2\n"
          "and writes nothing):\n", out);
    static const char *const bad[] = {
        "name: x\ngravity: [0, -9.81, 0]\nbodies:\n  - name: b\n    mass: -1\n"
        "    inertia: [1, 1, 1]\n    position: [0, 0, 0]\n",
        "name: x\ngravity: [0, -9.81, 0]\nbodies:\n  - name: b\n    mass: 1\n"
        "    inertia: [1, 1, 1]\n    position: [1, 0, 0]\njoints:\n"
        "  - {name: j, type: spherical, body_i: ground, body_j: c,\n"
        "     point_i: [0, 0, 0], point_j: [-1, 0, 0]}\n",
        "name: x\ngravity: [0, -9.81, 0]\nbodies:\n  - name: b\n    mass: 1\n"
        "    inertia: [1, 1, 1]\n    position: [1, 0, 0]\njoints:\n"
        "  - {name: j, type: revolute, body_i: ground, body_j: b,\n"
        "     point_i: [0, 0, 0], point_j: [-1, 0, 0], axis_i: [0, 0, 2], axis_j: [0, 0, 1]}\n",
        "name: x\ngravity: [0, -9.81]\nbodies:\n  - {name: b, mass: 1, inertia: [1, 1, 1], "
        "position: [0, 0, 0]}\n",
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        char source[32];
        snprintf(source, sizeof source, "faulty-%zu.yaml", k + 1);
        mbd_failure f;
        mbd_failure_clear(&f);
        ch09_model bm;
        if (ch09_model_load_string(&bm, bad[k], source, &f) == GSL_SUCCESS)
            ch09_model_free(&bm);
        fprintf(out, "  %s\n", f.cause);
    }
}

/* ------------------------------------------------------------------------ */
/* Part 2. Step 9: document 003's validation cases, each against a closed   */
/* form, a conservation law or an independent solution                      */

/* a run of one of the chapter's models that must succeed (strict) */
static int run_strict(ch09_model *md, const char *file, const ch09_variant *v, ch09_run *r,
                      double *seconds, mbd_failure *fail)
{
    int st = ch09_run_variant(md, file, NULL, v, r, seconds, fail);
    if (st == GSL_SUCCESS && r->status != GSL_SUCCESS) {
        *fail = r->fail;
        st = r->status;
        ch09_run_free(r);
        ch09_model_free(md);
    }
    return st;
}

/* the first coordinate of the file's body `name` */
static size_t body_col(const ch09_model *md, const char *name)
{
    size_t c = 0;
    mbd_spatial_body_coordinates(md->sm, mbd_spatial_body_index(md->sm, name), &c);
    return c;
}

/* the index of the file's joint or constraint `name` among the record's
 * reactions (joints first, then constraints) */
static size_t reaction_index(const ch09_model *md, const char *name)
{
    const mbd_model_desc *d = md->desc;
    for (size_t j = 0; j < d->njoints; j++)
        if (strcmp(d->joints[j].name, name) == 0)
            return j;
    for (size_t j = 0; j < d->nconstraints; j++)
        if (strcmp(d->constraints[j].name, name) == 0)
            return d->njoints + j;
    return 0;
}

/* the BDF start's position under a constant acceleration a from rest: the
 * first step of order 1, then order 2 (guide Sec. 8 item 4) */
static double bdf_start_offset(double a, double h, double t)
{
    return a * (t * t / 2 + 0.75 * h * h * (1.0 - pow(3.0, -nearbyint(t / h))));
}

/* A01's reduced equation at the record's times against its first output
 * point or, with col != SIZE_MAX, the body coordinates from col */
static double against_a01(const ch09_run *r, size_t col)
{
    double *x = malloc(2 * r->rows * sizeof *x), e = NAN;
    if (x != NULL && ch09_benchmark_reduced(CH09_A01, 0, r->t, r->rows, x, x + r->rows) ==
                         GSL_SUCCESS) {
        e = 0.0;
        for (size_t k = 0; k < r->rows; k++) {
            const double *p = col == SIZE_MAX ? r->points + 3 * k * r->npoints : r->q + k * r->n + col;
            e = fmax(e, fmax(fabs(p[0] - x[k]), fabs(p[1] - x[r->rows + k])));
        }
    }
    free(x);
    return e;
}

static int case_cylinder(FILE *out, mbd_failure *fail)
{
    ch09_model md;
    ch09_run r;
    const ch09_variant v = {0};
    int st = run_strict(&md, "cylindrical-pendulum.yaml", &v, &r, NULL, fail);
    if (st != GSL_SUCCESS)
        return st;
    const size_t c = body_col(&md, "pendulum");
    const double h = r.t[1] - r.t[0];
    double ez = 0.0, ezdd = 0.0;
    for (size_t k = 0; k < r.rows; k++) {
        ez = fmax(ez, fabs(r.q[k * r.n + c + 2] - bdf_start_offset(1.0, h, r.t[k])));
        ezdd = fmax(ezdd, fabs(r.qdd[k * r.n + c + 2] - 1.0));
    }
    fprintf(out, "  C2  cylindrical pendulum, h = %g s, 0-%g s, pushed along the axis by 1 N:\n"
            "      z against the BDF start's t^2/2 + (3/4) h^2 (1 - 3^-n)       %.1e m\n"
            "      z'' against 1 m/s^2                                          %.1e m/s^2\n"
            "      x, y against A01's equation phi'' = -(g/L) sin phi           %.1e m\n",
            h, r.t[r.rows - 1], ez, ezdd, against_a01(&r, c));
    ch09_run_free(&r);
    ch09_model_free(&md);
    return GSL_SUCCESS;
}

static int case_block(FILE *out, mbd_failure *fail)
{
    ch09_model md;
    ch09_run r;
    const ch09_variant v = {.reactions = 1};
    int st = run_strict(&md, "inclined-block.yaml", &v, &r, NULL, fail);
    if (st != GSL_SUCCESS)
        return st;
    const size_t c = body_col(&md, "block"), j = reaction_index(&md, "incline");
    const double h = r.t[1] - r.t[0], g = 9.81, a[3] = {g / 2, -g / 2, 0.0};
    const double m = md.desc->bodies[mbd_model_find_body(md.desc, "block")].mass;
    double er = 0.0, eF = 0.0;
    for (size_t k = 0; k < r.rows; k++) {
        /* the incline (body_i, the ground) on the block: minus the record's */
        const double *F = r.react + (k * r.njoints + j) * 6;
        for (int i = 0; i < 3; i++) {
            er = fmax(er, fabs(r.q[k * r.n + c + i] - bdf_start_offset(a[i], h, r.t[k])));
            eF = fmax(eF, fabs(-F[i] - m * (a[i] - (i == 1 ? -g : 0.0))));
        }
    }
    fprintf(out, "  C3  block on the 45-degree incline, h = %g s, 0-%g s:\n"
            "      r against a (t^2/2 + (3/4) h^2 (1 - 3^-n)), a = (g/2)(1, -1, 0)  %.1e m\n"
            "      the incline's force on the block against m (a - g) = (%.2f, %.2f, 0) N"
            "  %.1e N\n", h, r.t[r.rows - 1], er, m * a[0], m * (a[1] + g), eF);
    ch09_run_free(&r);
    ch09_model_free(&md);
    return GSL_SUCCESS;
}

/* the driven slider-crank's dynamics: x against x(theta(t)), and the
 * driver's torque on the crank against the inverse dynamics' of the same
 * file (kinematics, then the multipliers: no integrator) */
static int case_slider(FILE *out, mbd_failure *fail)
{
    ch09_model md, mi;
    ch09_run r, ri;
    const ch09_variant v = {.reactions = 1};
    int st = run_strict(&md, "slider-crank-driven.yaml", &v, &r, NULL, fail);
    if (st != GSL_SUCCESS)
        return st;
    st = ch09_run_model(&mi, "slider-crank-driven.yaml", NULL, CH09_INVERSE_DYNAMICS, 0, 1, 1,
                        &ri, fail);
    if (st != GSL_SUCCESS) {
        ch09_run_free(&r);
        ch09_model_free(&md);
        return st;
    }
    const size_t c = body_col(&md, "slider"), j = reaction_index(&md, "crank_driver");
    const double h = r.t[1] - r.t[0];
    double ex = 0.0, en = 0.0, en_late = 0.0, nmax = 0.0, spike = 0.0;
    size_t late = 0;
    for (size_t k = 0; k < r.rows && k < ri.rows; k++) {
        double x[3];
        ch09_slider_exact(r.t[k], x);
        ex = fmax(ex, fabs(r.q[k * r.n + c] - x[0]));
        const double n = r.react[(k * r.njoints + j) * 6 + 3],
                     ni = ri.react[(k * ri.njoints + j) * 6 + 3];
        en = fmax(en, fabs(n - ni));
        nmax = fmax(nmax, fabs(ni));
        if (r.t[k] < 0.01 + 1e-9)
            spike = fmax(spike, fabs(n - ni));
        else
            en_late = fmax(en_late, fabs(n - ni)), late++;
    }
    fprintf(out, "  C4a driven slider-crank, h = %g s, 0-%g s:\n"
            "      the slider's x against the closed form x(theta(t))           %.1e m\n"
            "      the driver's torque on the crank against inverse dynamics (Step 5's\n"
            "      method on the same file; its torque up to %.3f N m): over the\n"
            "      first 0.01 s %.2f N m (the start), after it                 %.1e N m\n", h,
            r.t[r.rows - 1], ex, nmax, spike, en_late);
    (void)late;
    ch09_run_free(&r);
    ch09_model_free(&md);
    ch09_run_free(&ri);
    ch09_model_free(&mi);
    return GSL_SUCCESS;
}

/* the largest |E - E0| of a record, and its kinetic energy at the start */
static double energy_change(const ch09_run *r)
{
    double e = 0.0;
    for (size_t k = 0; k < r->rows; k++)
        e = fmax(e, fabs(r->E[k] - r->E[0]));
    return e;
}

static int case_free_slider(FILE *out, mbd_failure *fail)
{
    double e[2], h[2] = {0, 0}, T0 = NAN;
    for (int i = 0; i < 2; i++) {
        ch09_model md;
        ch09_run r;
        ch09_variant v = {0};
        if (i == 1)
            v.h = 2 * h[0];
        int st = run_strict(&md, "slider-crank-free.yaml", &v, &r, NULL, fail);
        if (st != GSL_SUCCESS)
            return st;
        h[i] = r.t[1] - r.t[0];
        e[i] = energy_change(&r);
        if (i == 0) {
            /* the kinetic energy at the start: E less V, E at rest */
            const mbd_system *sys = mbd_spatial_system(md.sm);
            gsl_vector_view q = gsl_vector_view_array(r.q, r.n);
            gsl_vector *z = gsl_vector_calloc(r.n);
            double V = NAN;
            if (z != NULL && sys->energy(sys, r.t[0], &q.vector, z, &V) == GSL_SUCCESS)
                T0 = r.E[0] - V;
            if (z != NULL)
                gsl_vector_free(z);
        }
        ch09_run_free(&r);
        ch09_model_free(&md);
    }
    fprintf(out, "  C4b free slider-crank from 6 rad/s, h = %g s, 0-1 s (T(0) = %.4f J):\n"
            "      E = T + V against E(0): %.1e J; at h = %g s %.1e J (ratio %.2f)\n", h[0],
            T0, e[0], h[1], e[1], e[1] / e[0]);
    return GSL_SUCCESS;
}

/* the wheel's angle about the global x axis, unwrapped along the record */
static double wheel_angle(const double *p, double prev)
{
    const double th = 2.0 * atan2(p[1], p[0]);
    return prev + remainder(th - prev, 2.0 * M_PI);
}

static int case_four_bar(FILE *out, mbd_failure *fail)
{
    /* driven: E(t) - E(0) = W(t), the work of the driver's torque */
    ch09_model md;
    ch09_run r;
    const ch09_variant v = {.reactions = 1};
    int st = run_strict(&md, "four-bar-driven.yaml", &v, &r, NULL, fail);
    if (st != GSL_SUCCESS)
        return st;
    size_t c = body_col(&md, "wheel"), j = reaction_index(&md, "wheel_driver");
    double W = 0.0, P0 = 0.0, Wmax = 0.0, eW = 0.0, e_start = 0.0, eW_late = 0.0;
    double E_a = 0.0, W_a = 0.0;
    const double h = r.t[1] - r.t[0];
    for (size_t k = 0; k < r.rows; k++) {
        const double *n = r.react + (k * r.njoints + j) * 6 + 3;   /* F = 0: a DP1 row */
        double w[3];
        mbd_spatial_ep_omega(r.q + k * r.n + c + 3, r.qd + k * r.n + c + 3, w);
        const double P = n[0] * w[0] + n[1] * w[1] + n[2] * w[2];
        if (k > 0)
            W += 0.5 * (P + P0) * (r.t[k] - r.t[k - 1]);
        P0 = P;
        const double d = r.E[k] - r.E[0] - W;
        eW = fmax(eW, fabs(d));
        Wmax = fmax(Wmax, fabs(W));
        if (r.t[k] < 0.1 - 1e-9) {
            e_start = fmax(e_start, fabs(d));
        } else {
            if (E_a == 0.0 && W_a == 0.0)
                E_a = r.E[k], W_a = W;
            eW_late = fmax(eW_late, fabs(r.E[k] - E_a - (W - W_a)));
        }
    }
    fprintf(out, "  C5a four-bar driven at pi rad/s, h = %g s, 0-%g s:\n"
            "      E - E0 against the driver's work W = int n . omega dt (|W| up to %.1f J):\n"
            "      %.2f J (%.1e of it), reached in the first 0.1 s; from 0.1 s on %.2f J\n",
            h, r.t[r.rows - 1], Wmax, eW, eW / Wmax, eW_late);
    (void)e_start;
    ch09_run_free(&r);
    ch09_model_free(&md);
    /* turned by 10 N m: E(t) - E(0) = 10 (theta(t) - theta(0)) */
    const ch09_variant v0 = {0};
    st = run_strict(&md, "four-bar-torque.yaml", &v0, &r, NULL, fail);
    if (st != GSL_SUCCESS)
        return st;
    c = body_col(&md, "wheel");
    double th0 = wheel_angle(r.q + c + 3, 0.0), th = th0, e = 0.0;
    for (size_t k = 0; k < r.rows; k++) {
        th = wheel_angle(r.q + k * r.n + c + 3, th);
        e = fmax(e, fabs(r.E[k] - r.E[0] - 10.0 * (th - th0)));
    }
    fprintf(out, "  C5b four-bar turned by 10 N m, h = %g s, 0-%g s:\n"
            "      E - E0 against the torque's work 10 (theta - theta0) (%.1f J): %.2f J (%.1e)\n",
            r.t[1] - r.t[0], r.t[r.rows - 1], 10.0 * fabs(th - th0), e,
            e / (10.0 * fabs(th - th0)));
    ch09_run_free(&r);
    ch09_model_free(&md);
    return GSL_SUCCESS;
}

static double smd_exact(double t)
{
    const double w = sqrt(99.0);
    return 0.02 * exp(-t) * (cos(w * t) + sin(w * t) / w);
}

static int case_smd(FILE *out, mbd_failure *fail)
{
    double e[2], h[2] = {0, 0};
    for (int i = 0; i < 2; i++) {
        ch09_model md;
        ch09_run r;
        ch09_variant v = {0};
        if (i == 1)
            v.h = h[0] / 2;
        int st = run_strict(&md, "spring-mass-damper.yaml", &v, &r, NULL, fail);
        if (st != GSL_SUCCESS)
            return st;
        const size_t c = body_col(&md, "mass");
        h[i] = r.t[1] - r.t[0];
        e[i] = 0.0;
        for (size_t k = 0; k < r.rows; k++)
            e[i] = fmax(e[i], fabs(r.q[k * r.n + c] - smd_exact(r.t[k])));
        ch09_run_free(&r);
        ch09_model_free(&md);
    }
    fprintf(out, "  C6  spring-mass-damper, h = %g s, 0-4 s:\n"
            "      x against 0.02 e^-t (cos wt + sin(wt)/w), w = sqrt 99: %.1e m;\n"
            "      at h = %g s %.1e m (ratio %.2f)\n", h[0], e[0], h[1], e[1], e[0] / e[1]);
    return GSL_SUCCESS;
}

/* The governor at C: the collar's height and the shaft's speed, their means
 * and ranges over [a, b] */
typedef struct {
    double y, w, y_lo, y_hi;
} gov_window;

static void governor_window(const ch09_model *md, const ch09_run *r, double a, double b,
                            gov_window *g)
{
    const size_t cs = body_col(md, "shaft"), cc = body_col(md, "collar");
    double n = 0.0;
    memset(g, 0, sizeof *g);
    g->y_lo = INFINITY;
    g->y_hi = -INFINITY;
    for (size_t k = 0; k < r->rows; k++) {
        if (r->t[k] < a - 1e-9 || r->t[k] > b + 1e-9)
            continue;
        double w[3];
        mbd_spatial_ep_omega(r->q + k * r->n + cs + 3, r->qd + k * r->n + cs + 3, w);
        const double y = r->q[k * r->n + cc + 1];
        g->y += y;
        g->w += w[1];
        g->y_lo = fmin(g->y_lo, y);
        g->y_hi = fmax(g->y_hi, y);
        n += 1.0;
    }
    g->y /= n;
    g->w /= n;
}

static int case_governor(FILE *out, mbd_failure *fail)
{
    static const double Cs[3] = {7500.0, 12500.0, 17500.0};
    fputs("  C7  flyball governor, h = 0.001 s, 0-10 s: the collar's height y and the shaft's\n"
          "      speed omega, means over 8-10 s, against the steady state y = 0.05 - 25/C\n"
          "      (the shaft's torques cancel) and the omega of the arms' balance there:\n", out);
    for (int i = 0; i < 3; i++) {
        ch09_model md;
        ch09_run r;
        const ch09_variant v = {.governor_c = Cs[i]};
        int st = run_strict(&md, "flyball-governor.yaml", &v, &r, NULL, fail);
        if (st != GSL_SUCCESS)
            return st;
        gov_window early, late;
        governor_window(&md, &r, 4.0, 6.0, &early);
        governor_window(&md, &r, 8.0, 10.0, &late);
        const double y_ss = 0.05 - 25.0 / Cs[i], w_ss = ch09_governor_omega(y_ss, NULL);
        fprintf(out, "      C = %5.0f  y %.6f m (%+.1e), omega %.4f rad/s (%.4f: %+.1e)\n"
                "                 y swings by %.1e m over 4-6 s, %.1e m over 8-10 s\n",
                Cs[i], late.y, late.y - y_ss, late.w, w_ss, late.w - w_ss,
                early.y_hi - early.y_lo, late.y_hi - late.y_lo);
        ch09_run_free(&r);
        ch09_model_free(&md);
    }
    return GSL_SUCCESS;
}

static int step_validation(FILE *out, mbd_failure *fail)
{
    fputs("\nStep 9. Dynamics (Sec. 6.6): BDF in acceleration form on the index-3 equations. The\n"
          "document's validation cases (Sec. 7.1; guide Sec. 5.2 cases 2-7) at their files'\n"
          "settings, the document's: BDF2 with a BDF1 first step, quasi-Newton, a fixed step.\n"
          "Where the document lays its curves over the textbook's figures, each is compared\n"
          "here with a closed form, a conservation law or an independent solution:\n", out);
    int st = case_cylinder(out, fail);
    if (st == GSL_SUCCESS)
        st = case_block(out, fail);
    if (st == GSL_SUCCESS)
        st = case_slider(out, fail);
    if (st == GSL_SUCCESS)
        st = case_free_slider(out, fail);
    if (st == GSL_SUCCESS)
        st = case_four_bar(out, fail);
    if (st == GSL_SUCCESS)
        st = case_smd(out, fail);
    if (st == GSL_SUCCESS)
        st = case_governor(out, fail);
    return st;
}

/* ------------------------------------------------------------------------ */
/* Step 10: A01 over the benchmark's 2000 s                                  */

/* one row of a comparison: a run of the file with v, against the reference
 * rows (t, x, y) */
typedef struct {
    const char *label, *setting;
    ch09_variant v;
    size_t steps, iterations, rows;
    double seconds, error, dE, t_end;
    int status;
} a01_row;

static int a01_run(a01_row *row, const double *t, const double *x, const double *y, size_t n,
                   mbd_failure *fail)
{
    ch09_model md;
    ch09_run r;
    int st = run_strict(&md, "a01-pendulum.yaml", &row->v, &r, &row->seconds, fail);
    if (st != GSL_SUCCESS)
        return st;
    row->steps = r.dynamics.steps;
    row->iterations = r.dynamics.newton_iterations;
    row->error = ch09_point_error(&r, t, x, y, n, &row->rows, NULL);
    row->dE = energy_change(&r);
    row->t_end = r.t[r.rows - 1];
    ch09_run_free(&r);
    ch09_model_free(&md);
    return GSL_SUCCESS;
}

static int step_a01(FILE *out, int no_timing, mbd_failure *fail)
{
    fputs("\nStep 10. A01, the pendulum of the IFToMM benchmark (models/a01-pendulum.yaml; guide\n"
          "Sec. 5.2 case 1): 2000 s of an undamped swing, the mass's x, y against the\n"
          "benchmark's file (every 0.5 s; the benchmark's high precision is 1e-3 m). BDF damps\n"
          "the swing and its phase drifts; the file's default is the index-1 equations with\n"
          "projection under an explicit Runge-Kutta method, which has no numerical damping:\n",
          out);
    double *t, *x, *y;
    size_t n;
    int st = ch09_benchmark_load("A01_pendulum_reference.csv", &t, &x, &y, &n, fail);
    if (st != GSL_SUCCESS)
        return st;
    a01_row rows[] = {
        {.label = "bdf2", .setting = "h = 1e-2 (doc.)",
         .v = {.integrator = "bdf2", .fixed = 1, .h = 1e-2, .t_end = 20, .dt_out = 0.5}},
        {.label = "bdf2", .setting = "h = 1e-3",
         .v = {.integrator = "bdf2", .fixed = 1, .h = 1e-3, .t_end = 20, .dt_out = 0.5}},
        {.label = "bdf5", .setting = "h = 1e-2",
         .v = {.integrator = "bdf5", .fixed = 1, .h = 1e-2, .t_end = 20, .dt_out = 0.5}},
        {.label = "bdf5", .setting = "rtol 1e-10",
         .v = {.integrator = "bdf5", .rtol = 1e-10, .atol = 1e-10, .h = 1e-3, .t_end = 20,
               .dt_out = 0.5}},
        {.label = "bdf5", .setting = "rtol 1e-10",
         .v = {.integrator = "bdf5", .rtol = 1e-10, .atol = 1e-10, .h = 1e-3, .t_end = 200,
               .dt_out = 0.5}},
        {.label = "rk8pd", .setting = "rtol 1e-8 (file)", .v = {.t_end = 20, .dt_out = 0.5}},
        {.label = "rk8pd", .setting = "rtol 1e-8 (file)", .v = {.dt_out = 0.5}},
    };
    const size_t nr = sizeof rows / sizeof rows[0];
    for (size_t k = 0; k < nr && st == GSL_SUCCESS; k++)
        st = a01_run(&rows[k], t, x, y, n, fail);
    if (st == GSL_SUCCESS) {
        const char *head[] = {"method", "steps by", "span", "steps", "Newton", "time",
                              "error (m)", "|dE| (J)"};
        mbd_table *tb = mbd_table_alloc(8, head);
        char buf[32];
        for (size_t k = 0; k < nr; k++) {
            mbd_table_cell(tb, "%s", rows[k].label);
            mbd_table_cell(tb, "%s", rows[k].setting);
            mbd_table_cell(tb, "0-%g s", rows[k].t_end);
            mbd_table_cell(tb, "%zu", rows[k].steps);
            mbd_table_cell(tb, "%zu", rows[k].iterations);
            mbd_table_cell(tb, "%s", mbd_cli_format_seconds(buf, sizeof buf, rows[k].seconds,
                                                            no_timing));
            mbd_table_cell(tb, "%.1e", rows[k].error);
            mbd_table_cell(tb, "%.1e", rows[k].dE);
        }
        mbd_table_print(tb, out, 2);
        mbd_table_free(tb);
    }
    free(t);
    free(x);
    free(y);
    return st;
}

/* ------------------------------------------------------------------------ */
/* Step 11: A02, the N four-bar through its singular positions               */

/* the model file of the N four-bar as --generate n-four-bar writes it */
static char *n_four_bar_text(int N, mbd_failure *fail)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (mem == NULL) {
        mbd_failure_set(fail, GSL_ENOMEM, NAN, "out of memory");
        return NULL;
    }
    int st = ch09_write_n_four_bar(mem, N);
    if (fclose(mem) != 0 || st != GSL_SUCCESS) {
        free(text);
        mbd_failure_set(fail, MBD_EIO, NAN, "the N four-bar's file (N = %d)", N);
        return NULL;
    }
    return text;
}

/* the first time B0 is level with the cranks' pivots (theta = pi/2) by the
 * reduced equation: its y on a grid of 1e-4 s, then linear between */
static double a02_horizontal(int N)
{
    enum { K = 15001 };
    double *t = malloc(3 * K * sizeof *t), th = NAN;
    if (t == NULL)
        return NAN;
    double *x = t + K, *y = x + K;
    for (size_t k = 0; k < K; k++)
        t[k] = 1e-4 * (double)k;
    if (ch09_benchmark_reduced(CH09_A02, N, t, K, x, y) == GSL_SUCCESS)
        for (size_t k = 1; k < K && isnan(th); k++)
            if (y[k - 1] > 0 && y[k] <= 0)
                th = t[k - 1] + (t[k] - t[k - 1]) * y[k - 1] / (y[k - 1] - y[k]);
    free(t);
    return th;
}

/* the largest angle between any crank and the first over the record: the
 * physical motion turns them all alike */
static double crank_spread(const ch09_model *md, const ch09_run *r, int N)
{
    double spread = 0.0;
    const size_t c0 = body_col(md, "crank0");
    for (int b = 1; b <= N; b++) {
        char name[32];
        snprintf(name, sizeof name, "crank%d", b);
        const size_t c = body_col(md, name);
        for (size_t k = 0; k < r->rows; k++) {
            double A0[3][3], A[3][3];
            mbd_spatial_ep_A(r->q + k * r->n + c0 + 3, A0);
            mbd_spatial_ep_A(r->q + k * r->n + c + 3, A);
            /* the angle between the two bars' y' axes */
            const double cs = A0[0][1] * A[0][1] + A0[1][1] * A[1][1] + A0[2][1] * A[2][1];
            const double sn = A0[0][1] * A[1][1] - A0[1][1] * A[0][1];
            spread = fmax(spread, fabs(atan2(sn, cs)));
        }
    }
    return spread;
}

/* the rank of Phi_q and the degrees of freedom with every crank at theta
 * from the vertical (the couplers moved along): the start's record row
 * turned there */
static int a02_dof_at(ch09_model *md, const ch09_run *r, int N, double theta, size_t *dof)
{
    gsl_vector *q = gsl_vector_alloc(r->n), *qd = gsl_vector_calloc(r->n);
    int st = q && qd ? GSL_SUCCESS : GSL_ENOMEM;
    if (st == GSL_SUCCESS) {
        memcpy(q->data, r->q, r->n * sizeof(double));
        const double s = sin(theta), c = cos(theta);
        for (int b = 0; b <= N; b++) {
            char name[32];
            snprintf(name, sizeof name, "crank%d", b);
            const size_t k = body_col(md, name);
            const double rc[3] = {b + 0.5 * s, 0.5 * c, 0.0},
                         p[4] = {cos(theta / 2), 0.0, 0.0, -sin(theta / 2)};
            memcpy(q->data + k, rc, sizeof rc);
            memcpy(q->data + k + 3, p, sizeof p);
            if (b == 0)
                continue;
            snprintf(name, sizeof name, "coupler%d", b);
            const size_t j = body_col(md, name);
            q->data[j] += s;
            q->data[j + 1] += c - 1.0;
        }
        mbd_spatial_report rep;
        st = mbd_spatial_velocity(md->sm, 0.0, q, qd, NULL, NULL, &rep);
        *dof = rep.dof;
    }
    if (q)
        gsl_vector_free(q);
    if (qd)
        gsl_vector_free(qd);
    return st;
}

/* the index-1 formulation (Dormand-Prince 5(4), ode.h's tight) from the
 * record's start: where it stops */
typedef struct {
    double t_last;
} last_time;

static int note_time(const mbd_spatial_model *sm, const mbd_spatial_dynamics_point *pt, void *u)
{
    (void)sm;
    ((last_time *)u)->t_last = pt->t;
    return GSL_SUCCESS;
}

static int a02_index1(ch09_model *md, const ch09_run *r, double t_end, int *status,
                      mbd_failure *cause, mbd_spatial_dynamics_stats *stats, double *seconds)
{
    mbd_spatial_dynamics_options o = {.method = MBD_SPATIAL_INDEX1_RK, .order = 2,
                                      .linear_solver = MBD_LINSOLVE_SPARSE};
    mbd_ode_preset("tight", &o.ode);
    o.ode.h = 1e-3;
    const double start = mbd_cli_seconds();
    mbd_spatial_dynamics *d = mbd_spatial_dynamics_alloc(md->sm, &o);
    gsl_vector *q = gsl_vector_alloc(r->n), *qd = gsl_vector_alloc(r->n);
    if (d == NULL || q == NULL || qd == NULL) {
        mbd_spatial_dynamics_free(d);
        if (q)
            gsl_vector_free(q);
        if (qd)
            gsl_vector_free(qd);
        return GSL_ENOMEM;
    }
    memcpy(q->data, r->q, r->n * sizeof(double));
    memcpy(qd->data, r->qd, r->n * sizeof(double));
    last_time lt = {0.0};
    *status = mbd_spatial_dynamics_run(d, r->t[0], t_end, 0.05, q, qd, note_time, &lt);
    *seconds = mbd_cli_seconds() - start;
    *cause = *mbd_spatial_last_failure(md->sm);
    *stats = *mbd_spatial_dynamics_stats_get(d);
    mbd_spatial_dynamics_free(d);
    gsl_vector_free(q);
    gsl_vector_free(qd);
    return GSL_SUCCESS;
}

static int step_a02(FILE *out, int no_timing, mbd_failure *fail)
{
    fputs("\nStep 11. A02, the N four-bar of the IFToMM benchmark (guide Sec. 5.2 case 8): N + 1\n"
          "cranks and N couplers, 1 m and 1 kg each, one degree of freedom, B0 (the first\n"
          "crank's tip) started at 1 m/s. Each time the cranks pass the horizontal the\n"
          "couplers lie along them, Phi_q loses rank and the degrees of freedom jump from 1\n"
          "to N + 1. Over the benchmark's 20 s at the files' settings, B0 against the\n"
          "one-degree-of-freedom equation theta'' = K_N sin theta (reference.c) and the\n"
          "benchmark's ADAMS file, which is N = 40 (every 0.05 s; high precision 1e-3 m):\n", out);
    double *t, *x, *y;
    size_t n;
    int st = ch09_benchmark_load("A02_N40_B0_reference.csv", &t, &x, &y, &n, fail);
    if (st != GSL_SUCCESS)
        return st;
    static const int Ns[3] = {2, 5, 40};
    const char *head[] = {"N", "n", "m", "method", "steps", "Newton", "time", "per step",
                          "vs eq. (m)", "vs file (m)"};
    mbd_table *tb = mbd_table_alloc(10, head);
    ch09_model m40;
    ch09_run r40;
    int have40 = 0;
    char buf[32];
    for (int i = 0; i < 3 && st == GSL_SUCCESS; i++) {
        char *text = NULL, file[64];
        if (Ns[i] == 5) {
            text = n_four_bar_text(5, fail);
            if (text == NULL) {
                st = fail->status;
                break;
            }
            snprintf(file, sizeof file, "n-four-bar N = 5");
        } else {
            snprintf(file, sizeof file, "a02-n%d.yaml", Ns[i]);
        }
        ch09_model md;
        ch09_run r;
        const ch09_variant v = {.dt_out = 0.05};
        double seconds = 0.0;
        st = ch09_run_variant(&md, file, text, &v, &r, &seconds, fail);
        free(text);
        if (st == GSL_SUCCESS && r.status != GSL_SUCCESS) {
            *fail = r.fail;
            st = r.status;
            ch09_run_free(&r);
            ch09_model_free(&md);
        }
        if (st != GSL_SUCCESS)
            break;
        double *rx = malloc(2 * r.rows * sizeof *rx), ered = NAN;
        if (rx != NULL &&
            ch09_benchmark_reduced(CH09_A02, Ns[i], r.t, r.rows, rx, rx + r.rows) == GSL_SUCCESS) {
            ered = 0.0;
            for (size_t k = 0; k < r.rows; k++)
                ered = fmax(ered, fmax(fabs(r.points[3 * k * r.npoints] - rx[k]),
                                       fabs(r.points[3 * k * r.npoints + 1] - rx[r.rows + k])));
        }
        free(rx);
        ch09_spec spec;
        ch09_spec_of_model(&md, &spec, fail);
        mbd_table_cell(tb, "%d", Ns[i]);
        mbd_table_cell(tb, "%zu", md.n);
        mbd_table_cell(tb, "%zu", md.m);
        mbd_table_cell(tb, "%s, %g", ch09_integrator_names[spec.integrator], spec.h);
        mbd_table_cell(tb, "%zu", r.dynamics.steps);
        mbd_table_cell(tb, "%zu", r.dynamics.newton_iterations);
        mbd_table_cell(tb, "%s", mbd_cli_format_seconds(buf, sizeof buf, seconds, no_timing));
        if (no_timing)
            mbd_table_cell(tb, "-");
        else
            mbd_table_cell(tb, "%.3g ms", 1e3 * seconds / (double)r.dynamics.steps);
        mbd_table_cell(tb, "%.1e", ered);
        mbd_table_cell(tb, "%.1e", ch09_point_error(&r, t, x, y, n, NULL, NULL));
        if (Ns[i] == 40) {
            m40 = md;
            r40 = r;
            have40 = 1;
        } else {
            ch09_run_free(&r);
            ch09_model_free(&md);
        }
    }
    if (st == GSL_SUCCESS)
        mbd_table_print(tb, out, 2);
    mbd_table_free(tb);
    free(t);
    free(x);
    free(y);
    if (!have40)
        return st;
    /* the branch: every crank turned alike; the rank at the horizontal */
    ch09_spec spec;
    ch09_spec_of_model(&m40, &spec, fail);
    const double th = a02_horizontal(40), h = spec.h;
    size_t dof0 = 0, dof1 = 0;
    st = a02_dof_at(&m40, &r40, 40, 1.0, &dof0);
    if (st == GSL_SUCCESS)
        st = a02_dof_at(&m40, &r40, 40, M_PI / 2, &dof1);
    if (st == GSL_SUCCESS)
        fprintf(out, "  N = 40: the rank of Phi_q leaves %zu degree(s) of freedom with the cranks at "
                "1 rad\n  from the vertical, %zu with them horizontal. The first pass is at t = %.6f s "
                "(the\n  reduced equation); the file's steps of %g s end %.1f ms before it and %.1f ms "
                "after.\n  Over the run no crank turns away from the first by more than %.1e rad: "
                "the motion\n  stays on the branch where all turn alike.\n", dof0, dof1, th, h,
                1e3 * (th - h * floor(th / h)), 1e3 * (h * ceil(th / h) - th),
                crank_spread(&m40, &r40, 40));
    /* the index-1 formulation from the same start */
    int status = GSL_SUCCESS;
    mbd_failure cause;
    mbd_spatial_dynamics_stats stats;
    double seconds = 0.0;
    if (st == GSL_SUCCESS)
        st = a02_index1(&m40, &r40, 20.0, &status, &cause, &stats, &seconds);
    if (st == GSL_SUCCESS) {
        fprintf(out, "  The index-1 formulation from the same start (Dormand-Prince 5(4), rtol 1e-10,\n"
                "  projection after every step; %s): %zu steps accepted and %zu rejected by the\n"
                "  error test; ", mbd_cli_format_seconds(buf, sizeof buf, seconds, no_timing),
                stats.steps, stats.rejected);
        if (status == GSL_SUCCESS)
            fputs("it reaches 20 s.\n", out);
        else
            fprintf(out, "at t = %.6f s, %.1f us short of the horizontal, it stops:\n",
                    cause.time, 1e6 * (th - cause.time));
        if (status != GSL_SUCCESS) {
            char line[600];
            snprintf(line, sizeof line, "%s", cause.cause);
            print_wrapped(out, 4, line);
        }
    }
    ch09_run_free(&r40);
    ch09_model_free(&m40);
    return st;
}

/* ------------------------------------------------------------------------ */
/* One run of a model file (main.c's --model)                                */

/* --csv: the file is opened only after the model has been read and run, so
 * that a refused model writes nothing */
static int write_csv(const char *path, const ch09_model *md, const ch09_run *r, int reactions,
                     mbd_failure *fail)
{
    FILE *out = strcmp(path, "-") == 0 ? stdout : fopen(path, "w");
    if (out == NULL)
        return mbd_failure_set(fail, MBD_EIO, NAN, "--csv %s: cannot write the file", path);
    int st = ch09_write_csv(out, md, r, reactions);
    if (out != stdout && fclose(out) != 0)
        st = GSL_EFAILED;
    if (st != GSL_SUCCESS)
        return mbd_failure_set(fail, MBD_EIO, NAN, "--csv %s: writing failed", path);
    return GSL_SUCCESS;
}

int ch09_program_run(void *ctx, mbd_failure *fail)
{
    ch09_program *p = ctx;
    ch09_model md;
    int st = ch09_model_load_with(&md, p->model, NULL, NULL, &p->params, fail);
    if (st != GSL_SUCCESS)
        return st;
    ch09_spec spec;
    st = ch09_spec_of_model(&md, &spec, fail);
    if (st == GSL_SUCCESS && p->analysis != NULL) {
        for (int k = 0; ch09_analysis_names[k]; k++)
            if (strcmp(p->analysis, ch09_analysis_names[k]) == 0)
                spec.analysis = (ch09_analysis)k;
        spec.auto_analysis = 0;
    }
    if (p->opt->t_end_given)
        spec.t_end = p->opt->t_end;
    if (p->opt->h_given)
        spec.h = p->opt->h;
    spec.reactions = p->reactions;
    /* the dynamics' settings: each only with a dynamics analysis */
    const mbd_cli_common *o = p->opt;
    const int dyn_given = o->integrator_given || o->dt_out_given || o->rtol_given ||
                          o->atol_given || p->newton || p->linear_solver;
    if (st == GSL_SUCCESS && dyn_given && spec.analysis != CH09_DYNAMICS)
        st = mbd_failure_set(fail, MBD_EINPUT, NAN,
                             "--%s: a setting of the dynamics, and the analysis is %s",
                             o->integrator_given ? "integrator" : o->dt_out_given ? "dt-out"
                             : o->rtol_given ? "rtol" : o->atol_given ? "atol"
                             : p->newton ? "newton" : "linear-solver",
                             spec.auto_analysis ? "the program's choice (give --analysis dynamics)"
                                                : ch09_analysis_names[spec.analysis]);
    if (o->integrator_given)
        ch09_integrator_of(o->integrator, &spec.integrator);   /* checked by the options */
    if (p->newton)
        mbd_spatial_newton_of(p->newton, &spec.newton);
    if (p->linear_solver)
        mbd_linsolve_kind_of(p->linear_solver, &spec.linear_solver);
    if (st == GSL_SUCCESS && p->newton && ch09_integrator_order(spec.integrator) == 0)
        st = mbd_failure_set(fail, MBD_EINPUT, NAN, "--newton: a setting of the BDF, and the "
                             "integrator %s (index 1 with projection) solves no Newton iteration",
                             ch09_integrator_names[spec.integrator]);
    if (o->dt_out_given)
        spec.dt_out = o->dt_out;
    /* a file's tolerances belong to the file's integrator: another one given
     * here runs in fixed steps of --h (BDF) or at its preset's tolerances,
     * unless --rtol or --atol comes with it */
    if (o->integrator_given && !o->rtol_given && !o->atol_given) {
        spec.adaptive = 0;
        spec.rtol = spec.atol = 0.0;
    }
    if (o->rtol_given || o->atol_given) {
        spec.adaptive = 1;
        if (o->rtol_given)
            spec.rtol = o->rtol;
        if (o->atol_given)
            spec.atol = o->atol;
    }
    if (st == GSL_SUCCESS && spec.analysis == CH09_DYNAMICS && spec.dt_out > 0 &&
        ceil((spec.t_end - spec.t0) / spec.dt_out - 1e-9) > CH09_MAX_STEPS)
        st = mbd_failure_set(fail, MBD_EINPUT, NAN,
                             "--dt-out %g: %.3g outputs; at most %d are recorded (a longer "
                             "spacing or a shorter run)", spec.dt_out,
                             ceil((spec.t_end - spec.t0) / spec.dt_out - 1e-9), CH09_MAX_STEPS);
    if (st == GSL_SUCCESS && spec.analysis == CH09_DYNAMICS && spec.dt_out > 0 &&
        spec.dt_out > spec.t_end - spec.t0)
        st = mbd_failure_set(fail, MBD_EINPUT, NAN,
                             "--dt-out %g: expected an output spacing no longer than the run, %g s",
                             spec.dt_out, spec.t_end - spec.t0);
    /* the times matter to every analysis but an assembly, and to the one the
     * program may choose itself (kinematics) */
    const int timed = spec.analysis != CH09_ASSEMBLY || spec.auto_analysis;
    if (st == GSL_SUCCESS && timed && !(spec.t_end > spec.t0))
        st = mbd_failure_set(fail, MBD_EINPUT, NAN,
                             "--t-end %g: expected a time after the start, %g (%s)", spec.t_end,
                             spec.t0, md.desc->source);
    if (st == GSL_SUCCESS && timed && spec.h > spec.t_end - spec.t0)
        st = mbd_failure_set(fail, MBD_EINPUT, NAN,
                             "--h %g: expected a step no longer than the run, %g s", spec.h,
                             spec.t_end - spec.t0);
    /* (an adaptive run's h is its first step; its outputs are limited as it goes) */
    const int adaptive = spec.analysis == CH09_DYNAMICS &&
                         (spec.adaptive || p->opt->rtol_given || p->opt->atol_given);
    if (st == GSL_SUCCESS && timed && !adaptive &&
        ceil((spec.t_end - spec.t0) / spec.h - 1e-9) > CH09_MAX_STEPS)
        st = mbd_failure_set(fail, MBD_EINPUT, NAN,
                             "--h %g, --t-end %g: %.3g steps; every step is recorded, and at most "
                             "%d are allowed (a longer step or a shorter run)", spec.h, spec.t_end,
                             ceil((spec.t_end - spec.t0) / spec.h - 1e-9), CH09_MAX_STEPS);
    if (st == GSL_SUCCESS && spec.reactions && spec.analysis != CH09_INVERSE_DYNAMICS &&
        spec.analysis != CH09_DYNAMICS && !spec.auto_analysis)
        st = mbd_failure_set(fail, MBD_EINPUT, NAN,
                             "--reactions: the reactions come from the multipliers of an "
                             "inverse-dynamics or a dynamics analysis, not from %s",
                             ch09_analysis_names[spec.analysis]);
    /* --animate: its frames over the run's span, checked before it runs */
    if (st == GSL_SUCCESS && o->animate) {
        const size_t K = mbd_animation_frames(spec.t0, ch09_animation_end(&spec, NULL), o->fps,
                                              o->speed);
        if (K == 0 || K > MBD_ANIMATION_MAX_FRAMES)
            st = mbd_failure_set(fail, MBD_EUSAGE, NAN,
                                 "--animate: %g s at --fps %g and --speed %g is %.3g frames, "
                                 "more than %d: lower --fps or raise --speed",
                                 ch09_animation_end(&spec, NULL) - spec.t0, o->fps, o->speed,
                                 K == 0 ? HUGE_VAL : (double)K, MBD_ANIMATION_MAX_FRAMES);
    }
    ch09_run r;
    ch09_run_init(&r);
    if (st == GSL_SUCCESS)
        st = ch09_run_spec(&md, &spec, &r);
    if (st == GSL_SUCCESS && r.status == MBD_EINPUT) {
        *fail = r.fail;   /* a model the analysis cannot run: nothing is written */
        st = r.status;
    }
    if (st == GSL_SUCCESS && spec.reactions && r.analysis != CH09_INVERSE_DYNAMICS &&
        r.analysis != CH09_DYNAMICS)
        st = mbd_failure_set(fail, MBD_EINPUT, NAN,
                             "--reactions: the model has %zu degrees of freedom, so the program "
                             "runs an assembly; the reactions come from an inverse-dynamics "
                             "analysis of a fully driven model", r.dof);
    /* the animation first, of what the run computed, failed or not (a bad
     * --animate path must not leave a CSV or a summary behind it) */
    if (st == GSL_SUCCESS && o->animate && r.rows > 0)
        st = ch09_animate_run(o->animate, o, &md, &spec, &r, fail);
    else if (st == GSL_SUCCESS && o->animate)
        fprintf(stderr, "%s: --animate %s: not written, the run recorded no state to draw\n",
                "ch09-spatial-engine", o->animate);
    if (st == GSL_SUCCESS && p->opt->csv != NULL)
        st = write_csv(p->opt->csv, &md, &r, spec.reactions, fail);
    if (st == GSL_SUCCESS && (p->opt->summary || p->opt->csv == NULL))
        ch09_write_summary(stdout, &md, &spec, &r);
    if (st == GSL_SUCCESS && r.status != GSL_SUCCESS) {
        *fail = r.fail;
        st = r.status;
    }
    ch09_run_free(&r);
    ch09_model_free(&md);
    return st;
}

int ch09_program_story(void *ctx, FILE *out, int no_timing, mbd_failure *fail)
{
    (void)ctx;
    return ch09_story(out, no_timing, fail);
}

int ch09_program_figures(void *ctx, const char *prefix, mbd_failure *fail)
{
    (void)ctx;
    return ch09_figures(prefix, fail);
}

/* ------------------------------------------------------------------------ */
/* Benchmarks                                                                */

typedef struct {
    const char *file;        /* one of the chapter's models */
    ch09_analysis analysis;
    double h;
    int summary;             /* whole run: the summary too (to the sink) */
    FILE *null;
} bench_case;

/* one analysis of a model file as the program runs it: read, build, run,
 * summarise (whole run), or the analysis alone on a model read once */
static int bench_model(void *ctx, mbd_cli_bench_counts *n)
{
    bench_case *b = ctx;
    ch09_model md;
    ch09_run r;
    mbd_failure fail;
    const int inverse = b->analysis == CH09_INVERSE_DYNAMICS;
    int st = ch09_run_model(&md, b->file, NULL, (int)b->analysis, b->h, inverse, 1, &r, &fail);
    if (st != GSL_SUCCESS)
        return st;
    if (b->summary) {
        ch09_spec spec;
        ch09_spec_of_model(&md, &spec, &fail);
        spec.analysis = b->analysis;
        spec.h = b->h;
        ch09_write_summary(b->null, &md, &spec, &r);
    }
    n->steps = r.rows > 0 ? (long)r.rows - 1 : 0;
    n->outputs = (long)r.rows;
    ch09_run_free(&r);
    ch09_model_free(&md);
    return st;
}

static int bench_story(void *ctx, mbd_cli_bench_counts *n)
{
    (void)n;
    bench_case *b = ctx;
    mbd_failure fail;
    return ch09_story(b->null, 1, &fail);
}

/* The IFToMM A02 N four-bar's dynamics (sparse kind, quasi-Newton, BDF2,
 * h = 1e-3 over 0.2 s): the cost per step as N grows. The model (generated
 * as --generate n-four-bar writes it), its assembled start and its solved
 * velocities are prepared once for the process, outside the timing (the
 * dense analyses of the start take seconds at N = 80); a call is the
 * dynamics' run alone (the integrator's workspace, its pattern and the
 * symbolic analysis included), with an observer that only counts. */
#define CH09_BENCH_NFB 7
static const int nfb_sizes[CH09_BENCH_NFB] = {1, 2, 5, 10, 20, 40, 80};

typedef struct {
    int N, ready;
    ch09_model md;
    gsl_vector *q, *qd;      /* the consistent start */
    gsl_vector *qr, *qdr;    /* a run's state */
    long steps;
} nfb_case;

static nfb_case nfb[CH09_BENCH_NFB];

static void nfb_free_all(void)
{
    for (int k = 0; k < CH09_BENCH_NFB; k++) {
        if (!nfb[k].ready)
            continue;
        gsl_vector_free(nfb[k].q);
        gsl_vector_free(nfb[k].qd);
        gsl_vector_free(nfb[k].qr);
        gsl_vector_free(nfb[k].qdr);
        ch09_model_free(&nfb[k].md);
        nfb[k].ready = 0;
    }
}

static int nfb_prepare(nfb_case *c, int N)
{
    if (c->ready)
        return GSL_SUCCESS;
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (mem == NULL)
        return GSL_ENOMEM;
    int st = ch09_write_n_four_bar(mem, N);
    if (fclose(mem) != 0 && st == GSL_SUCCESS)
        st = MBD_EIO;
    mbd_failure fail;
    if (st == GSL_SUCCESS)
        st = ch09_model_load_string(&c->md, text, "n-four-bar", &fail);
    free(text);
    if (st != GSL_SUCCESS)
        return st;
    const size_t n = c->md.n;
    c->q = gsl_vector_alloc(n);
    c->qd = gsl_vector_alloc(n);
    c->qr = gsl_vector_alloc(n);
    c->qdr = gsl_vector_alloc(n);
    int *known = calloc(mbd_spatial_n_bodies(c->md.sm), sizeof *known);
    st = c->q && c->qd && c->qr && c->qdr && known ? GSL_SUCCESS : GSL_ENOMEM;
    if (st == GSL_SUCCESS)
        st = ch09_initial(&c->md, c->q, c->qd, known);
    if (st == GSL_SUCCESS)
        st = mbd_spatial_assemble(c->md.sm, 0.0, c->q, NULL, NULL);
    if (st == GSL_SUCCESS)
        st = ch09_known_velocities(&c->md, c->q, c->qd);
    if (st == GSL_SUCCESS)
        st = mbd_spatial_velocity(c->md.sm, 0.0, c->q, c->qd, known, NULL, NULL);
    free(known);
    c->N = N;
    c->ready = 1;   /* nfb_free_all frees what there is */
    if (st != GSL_SUCCESS)
        nfb_free_all();
    return st;
}

static int nfb_count(const mbd_spatial_model *sm, const mbd_spatial_dynamics_point *pt,
                     void *user)
{
    (void)sm;
    (void)pt;
    ((nfb_case *)user)->steps++;
    return GSL_SUCCESS;
}

static int bench_nfb(void *ctx, mbd_cli_bench_counts *n)
{
    nfb_case *c = ctx;
    const mbd_spatial_dynamics_options o = {.order = 2, .newton = MBD_SPATIAL_NEWTON_QUASI,
                                            .h = 1e-3, .linear_solver = MBD_LINSOLVE_SPARSE};
    mbd_spatial_dynamics *d = mbd_spatial_dynamics_alloc(c->md.sm, &o);
    if (d == NULL)
        return GSL_ENOMEM;
    gsl_vector_memcpy(c->qr, c->q);
    gsl_vector_memcpy(c->qdr, c->qd);
    c->steps = 0;
    int st = mbd_spatial_dynamics_run(d, 0.0, 0.2, 0.0, c->qr, c->qdr, nfb_count, c);
    n->steps = mbd_spatial_dynamics_stats_get(d)->steps;
    n->fevals = mbd_spatial_dynamics_stats_get(d)->force_evals;
    n->outputs = c->steps;
    mbd_spatial_dynamics_free(d);
    return st;
}

/* The driven slider-crank's kinematics (1 s at h = 1e-3) and the driven
 * pendulum's inverse dynamics (4 s at h = 1e-3), each as a whole run of the
 * program (the file read, the run, the summary); the story; the N four-bar's
 * dynamics for N = 1 ... 80 (above). */
int ch09_program_bench(void *ctx, long repeats, mbd_failure *fail)
{
    (void)ctx;
    (void)fail;   /* mbd_cli_bench_passes names a failed case */
    FILE *null = mbd_cli_bench_sink();
    if (null == NULL)
        return MBD_EIO;
    bench_case sc = {"slider-crank-driven.yaml", CH09_KINEMATICS, 1e-3, 1, null};
    int st = mbd_cli_bench(stdout, "ch09-spatial-engine", "slider-crank-1s", "kinematics",
                           MBD_CLI_BENCH_WHOLE_RUN, repeats, bench_model, &sc);
    bench_case pd = {"pendulum-driven.yaml", CH09_INVERSE_DYNAMICS, 1e-3, 1, null};
    if (st == GSL_SUCCESS)
        st = mbd_cli_bench(stdout, "ch09-spatial-engine", "pendulum-4s", "inverse-dynamics",
                           MBD_CLI_BENCH_WHOLE_RUN, repeats, bench_model, &pd);
    bench_case story = {.null = null};
    if (st == GSL_SUCCESS)
        st = mbd_cli_bench(stdout, "ch09-spatial-engine", "story", "", MBD_CLI_BENCH_WHOLE_RUN,
                           repeats, bench_story, &story);
    static int registered = 0;
    if (!registered && atexit(nfb_free_all) == 0)
        registered = 1;
    for (int k = 0; st == GSL_SUCCESS && k < CH09_BENCH_NFB; k++) {
        char name[32];
        snprintf(name, sizeof name, "n-four-bar-%d", nfb_sizes[k]);
        st = nfb_prepare(&nfb[k], nfb_sizes[k]);
        if (st == GSL_SUCCESS)
            st = mbd_cli_bench(stdout, "ch09-spatial-engine", name, "bdf2-quasi-sparse",
                               MBD_CLI_BENCH_INTEGRATION, repeats, bench_nfb, &nfb[k]);
    }
    return st;
}

int ch09_story(FILE *out, int no_timing, mbd_failure *fail)
{
    fputs("Chapter 09 -- the 3D Euler-parameter engine of document 003 (Vignos 2016,\n"
          "simEngine3D). Part 1 (Steps 1-8): constraints, joints, model files, kinematics and\n"
          "inverse dynamics. Part 2 (Steps 9-11): dynamics and the document's validation\n"
          "cases. Every model below is a file in chapters/09-spatial-engine/models/.\n\n", out);
    step_euler(out);
    int st = step_basic(out, fail);
    if (st == GSL_SUCCESS)
        st = step_joints(out, fail);
    if (st == GSL_SUCCESS)
        st = step_slider(out, fail);
    if (st == GSL_SUCCESS)
        st = step_pendulum(out, fail);
    if (st == GSL_SUCCESS)
        st = step_redundant(out, fail);
    if (st == GSL_SUCCESS)
        st = step_velocities(out, fail);
    if (st == GSL_SUCCESS)
        step_reader(out);
    if (st == GSL_SUCCESS)
        st = step_validation(out, fail);
    if (st == GSL_SUCCESS)
        st = step_a01(out, no_timing, fail);
    if (st == GSL_SUCCESS)
        st = step_a02(out, no_timing, fail);
    return st;
}
