/* chapters/08-direct-correction/animate.c -- chapter 08's linkages moving
 * (animation.h): one run from the command line, and the chapter's animation
 * of the uncorrected run beside the energy-corrected one. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "mbd/animation.h"
#include "mbd/cli.h"
#include "study.h"

/* The cut joints' gaps are drawn this many times their size. */
#define GAP_SCALE 1e6

/* What a drawing needs: the mechanism, and the energy at the start of the
 * run (the frames write the change). */
typedef struct {
    const ch08_model *md;
    double E0;
} drawing;

/* where a marker is at q: on its body (its frame at T_i, turned by theta_i)
 * or on the ground */
static void marker_at(const ch08_marker *mk, double joint[][2], const double theta[],
                      double p[2])
{
    if (mk->body < 0) {
        p[0] = mk->at[0];
        p[1] = mk->at[1];
        return;
    }
    const double c = cos(theta[mk->body]), s = sin(theta[mk->body]);
    p[0] = joint[mk->body][0] + c * mk->at[0] - s * mk->at[1];
    p[1] = joint[mk->body][1] + s * mk->at[0] + c * mk->at[1];
}

/* >> draw */
/* One state, to scale (metres, y up, gravity down), from the joint
 * coordinates q by the tree's kinematics (ch08_positions): every bar from
 * its tree joint to its far end, a pin at each tree joint (on the ground
 * where the body hangs from it), and each cut joint as its base marker with
 * the moving marker on it. A cut joint drifting open is far below a pixel,
 * so its gap is drawn a million times its size, a dashed line from the base
 * marker. The middle bar's centre of mass is traced; the frame writes the
 * change of the energy. */
static int draw_linkage(void *ctx, double t, const double q[], const double qd[], mbd_scene *s)
{
    (void)t;
    const drawing *d = ctx;
    const ch08_model *md = d->md;
    double joint[CH08_MAX_BODIES][2], com[CH08_MAX_BODIES][2], tip[CH08_MAX_BODIES][2],
        theta[CH08_MAX_BODIES];
    int st = ch08_positions(md, q, joint, com, tip, theta);
    if (st != GSL_SUCCESS)
        return st;
    /* the labels' place: fixed, over the initial configuration's top left */
    double j0[CH08_MAX_BODIES][2], t0[CH08_MAX_BODIES][2];
    st = ch08_positions(md, md->q0, j0, NULL, t0, NULL);
    if (st != GSL_SUCCESS)
        return st;
    double reach = 0.0, top = -INFINITY, left = INFINITY;
    for (size_t i = 0; i < md->n; i++) {
        reach = fmax(reach, md->body[i].length);
        top = fmax(top, fmax(j0[i][1], t0[i][1]));
        left = fmin(left, fmin(j0[i][0], t0[i][0]));
    }
    const double pin = 0.04 * reach;
    for (size_t i = 0; i < md->n; i++) {
        if (md->body[i].parent < 0)
            mbd_scene_circle(s, MBD_SCENE_GROUND, joint[i][0], joint[i][1], 1.6 * pin);
        mbd_scene_line(s, MBD_SCENE_BODY, joint[i][0], joint[i][1], tip[i][0], tip[i][1]);
    }
    for (size_t i = 0; i < md->n; i++)
        mbd_scene_circle(s, MBD_SCENE_JOINT, joint[i][0], joint[i][1], pin);
    for (size_t k = 0; k < md->ncut; k++) {
        double m[2], b[2];
        marker_at(&md->cut[k].M, joint, theta, m);
        marker_at(&md->cut[k].B, joint, theta, b);
        if (md->cut[k].B.body < 0)
            mbd_scene_circle(s, MBD_SCENE_GROUND, b[0], b[1], 1.6 * pin);
        mbd_scene_line(s, MBD_SCENE_GUIDE, b[0], b[1], b[0] + GAP_SCALE * (m[0] - b[0]),
                       b[1] + GAP_SCALE * (m[1] - b[1]));
        mbd_scene_circle(s, MBD_SCENE_JOINT, m[0], m[1], pin);
    }
    const size_t mid = (md->n - 1) / 2;
    mbd_scene_trace(s, com[mid][0], com[mid][1]);
    double T = 0.0, V = 0.0;
    st = ch08_energy_parts(md, q, qd, &T, &V);
    if (st != GSL_SUCCESS)
        return st;
    char text[96];
    snprintf(text, sizeof text, "|E - E_0| = %.1e J", fabs(T + V - d->E0));
    mbd_scene_label(s, left, top + 0.65 * reach, text);
    mbd_scene_label(s, left, top + 0.4 * reach, "dashed: gap x 10^6");
    return GSL_SUCCESS;
}
/* << draw */

static void labels(mbd_animation *a)
{
    a->xlabel = "x [m]";
    a->ylabel = "y [m]";
    a->violation = "|Phi|";
}

int ch08_animate_run(const char *path, const mbd_cli_common *opt, const ch08_model *md,
                     const ch08_spec *spec, const ch08_run *r, mbd_failure *fail)
{
    mbd_animation a;
    mbd_cli_animation(opt, "ch08-direct-correction", &a);
    labels(&a);
    char title[256];
    snprintf(title, sizeof title, "%s, correction (%s), %s", md->name,
             ch08_method_names[spec->method], spec->run.ode.name);
    a.t0 = spec->run.t0;
    a.t_end = spec->run.t_end;
    const drawing d = {md, r->E0};
    const mbd_animation_panel panel = {.title = title, .hist = &r->h, .draw = draw_linkage,
                                       .ctx = (void *)&d,
                                       .stop_note = mbd_status_word(r->res.status)};
    return mbd_animation_gif(path, &a, &panel, 1, NULL, fail);
}

/* >> animation */
/* The chapter's animation: Step 2's four-bar (R1, RK4 at h = 1e-3 s,
 * outputs every 0.01 s), uncorrected (a) beside the energy-corrected (d),
 * over the 10 s at 2.5 times real time. */
int ch08_program_animate(void *ctx, const char *path, mbd_failure *fail)
{
    ch08_program *prog = ctx;
    ch08_study *s = prog->s;
    int st = ch08_study_compute(s, fail);
    if (st != GSL_SUCCESS)
        return st;
    ch08_model md;
    memset(&md, 0, sizeof md);
    ch08_model_data(&md, CH08_FOURBAR, CH08_R1);
    st = ch08_model_build(&md);
    if (st != GSL_SUCCESS)
        return mbd_failure_set(fail, st, NAN, "the four-bar could not be built");
    mbd_animation a;
    mbd_cli_animation(prog->opt, "ch08-direct-correction", &a);
    labels(&a);
    if (!prog->opt->speed_given)
        a.speed = 2.5;
    a.t0 = 0.0;
    a.t_end = s->four[CH08_A].h.t[s->four[CH08_A].h.rows - 1];
    a.title = "The four-bar (R1) in joint coordinates, RK4 at h = 1e-3 s";
    const drawing da = {&md, s->four[CH08_A].E0}, dd = {&md, s->four[CH08_D].E0};
    const mbd_animation_panel panels[2] = {
        {.title = "(a) uncorrected", .hist = &s->four[CH08_A].h, .draw = draw_linkage,
         .ctx = (void *)&da, .colour = "#7b3294"},
        {.title = "(d) energy-corrected", .hist = &s->four[CH08_D].h, .draw = draw_linkage,
         .ctx = (void *)&dd, .colour = "#e66101"},
    };
    st = mbd_animation_gif(path, &a, panels, 2, NULL, fail);
    ch08_model_free(&md);
    return st;
}
/* << animation */
