/* chapters/05-slider-crank/animate.c -- the slider-crank moving
 * (animation.h): one run from the command line, and the chapter's animation
 * of the two branches through the fold. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "mbd/animation.h"
#include "mbd/cli.h"
#include "study.h"

/* >> draw */
/* One state, to scale (y up, gravity down): the slider's rail, the crank
 * from the pivot O to its tip A, the connecting rod from A to its end B, the
 * slider block at x3 (B should sit on its centre: a drift shows as a gap),
 * and the joints; the middle of the connecting rod is traced (on the folded
 * branch it lies on the crank, so its path tells the branches apart). */
static int draw_slider_crank(void *ctx, double t, const double q[], const double qd[],
                             mbd_scene *s)
{
    (void)t;
    (void)qd;
    const ch05_model *m = ctx;
    const double reach = m->L1 + m->L2, phi = q[0] + q[1];
    const double ax = m->L1 * sin(q[0]), ay = -m->L1 * cos(q[0]);
    const double bx = ax + m->L2 * sin(phi), by = ay - m->L2 * cos(phi);
    const double pin = 0.03 * reach;
    mbd_scene_line(s, MBD_SCENE_GROUND, -1.1 * reach, -0.05 * reach, 1.1 * reach, -0.05 * reach);
    mbd_scene_circle(s, MBD_SCENE_GROUND, 0, 0, 1.6 * pin);
    mbd_scene_box(s, MBD_SCENE_MASS, q[2], 0, 0.07 * reach, 0.045 * reach, 0);
    mbd_scene_line(s, MBD_SCENE_BODY, 0, 0, ax, ay);
    mbd_scene_line(s, MBD_SCENE_BODY, ax, ay, bx, by);
    mbd_scene_circle(s, MBD_SCENE_JOINT, 0, 0, pin);
    mbd_scene_circle(s, MBD_SCENE_JOINT, ax, ay, pin);
    mbd_scene_circle(s, MBD_SCENE_JOINT, bx, by, pin);
    mbd_scene_trace(s, 0.5 * (ax + bx), 0.5 * (ay + by));
    return GSL_SUCCESS;
}
/* << draw */

static void labels(mbd_animation *a)
{
    a->xlabel = "x [m]";
    a->ylabel = "y [m]";
}

int ch05_animate_run(const char *path, const mbd_cli_common *opt, const ch05_spec *spec,
                     const ch05_run *r, mbd_failure *fail)
{
    mbd_animation a;
    mbd_cli_animation(opt, "ch05-slider-crank", &a);
    labels(&a);
    char title[256], note[64];
    snprintf(title, sizeof title, "%s, %s, %s mass matrix", spec->run.method, spec->run.ode.name,
             ch05_mass_name(spec->mass));
    snprintf(note, sizeof note, "%s", mbd_status_word(r->status));
    a.t0 = spec->run.t0;
    a.t_end = spec->run.t_end;
    const mbd_animation_panel panel = {.title = title, .hist = &r->hist,
                                       .draw = draw_slider_crank, .ctx = (void *)&r->model,
                                       .stop_note = note};
    return mbd_animation_gif(path, &a, &panel, 1, NULL, fail);
}

/* >> animation */
/* The chapter's animation: the consistent model through its fold at
 * t = 1.7325 s under ode23, the static penalty without Baumgarte beside the
 * one with it (the story's runs, mu = 1e5, alpha = beta = 20, outputs every
 * 1e-4 s), from t = 1 s to 2 s at a quarter of real time. */
int ch05_program_animate(void *ctx, const char *path, mbd_failure *fail)
{
    ch05_program *prog = ctx;
    ch05_study *s = prog->s;
    int st = prog->computed ? GSL_SUCCESS : ch05_compute(s);
    if (st != GSL_SUCCESS)
        return mbd_failure_set(fail, st, NAN, "the story's computations failed: %s",
                               mbd_strerror(st));
    prog->computed = 1;
    mbd_animation a;
    mbd_cli_animation(prog->opt, "ch05-slider-crank", &a);
    labels(&a);
    if (!prog->opt->speed_given)
        a.speed = 0.25;
    a.t0 = 1.0;
    a.t_end = T_THROUGH;
    a.title = "Through the fold th1 = 0: consistent mass matrix, static penalty mu = 1e5, ode23";
    const ch05_run *pen = &s->runs[1][M_PEN][I_ODE23], *penb = &s->runs[1][M_PEN_B][I_ODE23];
    const mbd_animation_panel panels[2] = {
        {.title = "penalty: onto the folded branch", .hist = &pen->hist,
         .draw = draw_slider_crank, .ctx = (void *)&pen->model, .colour = "#d95f02"},
        {.title = "penalty-baumgarte: straight on", .hist = &penb->hist,
         .draw = draw_slider_crank, .ctx = (void *)&penb->model, .colour = "#1b9e77"},
    };
    return mbd_animation_gif(path, &a, panels, 2, NULL, fail);
}
/* << animation */
